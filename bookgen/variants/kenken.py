"""KenKen, printed under the trademark-free name "Calcudoku".

Rules: fill an N x N grid (N = 3..9) so that every row and every column holds
the digits 1..N once each. The grid is split into cages (bold outlines); the
digits of a cage combine to the cage's target with its operation (``+``,
``-``, ``×``, ``÷``; ``-`` and ``÷`` only ever join two cells, larger first).
A single-cell cage simply shows its digit. Digits may repeat inside a cage
as long as they are in different rows and columns.

Representation: a ``Puzzle`` with ``variant="kenken"``, all-``.`` givens, the
solution as N digit strings, and ``cages`` as ``Cage(cells, op, target)`` with
cells sorted row-major (``op`` is ``"+" "-" "*" "/"`` or ``""`` for a single
cell). Rule options (``parse_rules``): ``ops`` allowed, ``max_cage`` cells,
``show_ops`` (print the operation or only the target), ``singles`` (how many
single-cell cages: ``none``, ``few`` or ``normal``).

Techniques per tier (see ``bookgen.solve.arithmetic``, the cages' plug-in to the Latin engine):

- easy: single-cell cages, the cage's arithmetic alone (3÷ is 1,3 or 2,6),
  the last open cell of a cage, cage combinations that fix a cell, naked
  singles in rows and columns.
- medium: cage combinations checked against row/column candidates, hidden
  singles.
- hard: a digit every combination of a cage puts in one row or column, naked
  and hidden pairs and triples, the line-sum rule (a line adds up to
  N(N+1)/2).
- expert: a single-cell trial (assume one candidate, reach a contradiction
  with the lower tiers). Never nested.

Generation: a random Latin square (random matchings row by row, then rows,
columns and symbols shuffled), random connected cages with a level-dependent
size mix, operations weighted by how many ways they can be filled (fewer for
easy, more for hard), then local repairs (change an op, split a cage, re-cut
two neighbouring cages) until the ladder grades it exactly at the target
level. Easy 4x4 and 5x5 cagings whose cages would let an intercalate of the
square swap (a second solution whatever the operations) are met with the square's
rows and columns shuffled again, a few times, before any operation is picked.
Uniqueness follows from the sound ladder and is proven again by an exact count
before a puzzle is returned: on grids up to ``TABLE_MAX`` (4×4)
the table's, at 5×5 a search over whole cages (``arithmetic.cage_solutions``), above
that the SAT solver's. Grids up to ``TABLE_MAX`` draw their square from a table
of all Latin squares (``bookgen.solve.latin_table``) and know every draft's
exact solution set from it: the ladder grades only unique drafts, an
ambiguous draft is loosened where its solutions differ, and a draft that
grades too easy is tightened by moves that keep it unique. Hard
drafts on larger grids go the same way with an exact count per draft in place of
the table: at 6×6 and 7×7 (``DRAFT_SEARCH_ORDERS``) the cage search's (``SearchDrafts``),
at other orders one incremental SAT solver's per puzzle (``DraftSolver``). Most of
them are ambiguous, which the count shows sooner than the hard tier stalls, and
its proof of the kept draft is the final one. An intercalate of the square (a 2×2
``a b / b a`` whose digits swap) that every cage over it admits is such a
second solution found without SAT, and a loosening is kept only when the
second solution no longer fits (where one does). Easy puzzles on grids up to 5×5 use cages of
two and three cells only; hard 4×4 and 5×5 puzzles show no single-cell cage under ``singles:
few`` (``HARD_NO_SINGLE``), and their splits and re-cuts cut no part of one cell.
"""

from __future__ import annotations

import random
import re
from bisect import bisect
from dataclasses import replace
from functools import lru_cache
from itertools import accumulate, chain, permutations
from typing import Any, Callable, Iterable, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.memo import BoundedMemo
from bookgen.core.rng import below, choice, shuffle
from bookgen.core.i18n import C_, N_, Plural, Text, join_and, join_or
from bookgen.core.rules import latin_rule
from bookgen.core.rating import minutes_of, rating_of
from bookgen.core.pen import BOLD, CAP_HEIGHT, CENTER, THIN, TOP_LEFT, Pen, bold_ink, bold_lead
from bookgen.core.symmetry import grid_fingerprint, moved_cells
from bookgen.core.text import PuzzleTextError, clip
from bookgen.core.text import TextLine as _Line
from bookgen.core.text import first_col as _first_col
from bookgen.core.text import rules_at as _rules
from bookgen.core.text import square as _square
from bookgen.core.types import EMPTY, MAX_CAGE, Cage, Cell, GenerationError, Grade, Puzzle
from bookgen.core.variant import Step, VariantDefaults, rule_options
from bookgen.solve.arithmetic import (
    LADDER, TECHNIQUE_LEVEL, Board, DraftSolver, SearchDrafts, cage_parts, easy_ladder, latin_solutions, open_after, proves_unique, score_of,
    search_solutions,
)
from bookgen.solve.rated import rated_run, rated_summary
from bookgen.solve.houses import TOO_EASY, Contradiction, Fits, Run, Stuck, Verdict, run_ladder
from bookgen.solve.houses import solve as ladder_solve
from bookgen.solve.latin import (
    OP_GLYPHS, OPS, PAIR_OPS, cage_assignments, cage_value, cached_clash_form, is_latin,
    random_latin_square, shape_assignments,
)
from bookgen.solve.latin_table import TABLE_MAX, cage_set, latin_table, only_solution
from bookgen.solve.latin_table import open_cells as table_open_cells
from bookgen.variants.gridparts import (
    ASCII_OPS, CAGE_LABELS, cage_problems, cage_text_lines, cage_where, cages_from_json, connected, disconnected,
    given_problems,
)

SIZES: tuple[int, ...] = tuple(range(3, 10))
SINGLES_MODES: tuple[str, ...] = ("few", "none", "normal")
DEFAULT_RULES: dict[str, Any] = {"max_cage": 4, "ops": list(OPS), "show_ops": True, "singles": "few"}
RULE_KEYS = frozenset(DEFAULT_RULES)
# Spellings accepted for the operations in configs.
OP_ALIASES: dict[str, str] = {
    "+": "+", "-": "-", "\u2212": "-", "*": "*", "x": "*", "\u00d7": "*", "/": "/", "\u00f7": "/",
}

# Conflicts the SAT solver may spend looking for a second solution of a stuck draft.
SAT_BUDGET = 500
# Conflicts the SAT solver may spend asking whether a hard draft has a second solution
# (past it, the ladder judges the draft as if it had not been asked).
DRAFT_BUDGET = 2000
# Other solutions asked for per ambiguous hard draft (each gets one loosening).
DRAFT_OTHERS = 1
# Loosenings tried per ambiguous hard draft for one its other solution doesn't survive.
RULE_OUT_TRIES = 4
HARD_TIGHTEN_TRIES = 2
# Hard drafts of these orders are asked by the cage search (``SearchDrafts``), the others by SAT
# alone: at 6x6 and 7x7 the search costs less; at 5x5 the bench's puzzles took 13 % longer with
# it (more drafts judged), so SAT stays there (docs/benchmarks.md, kkh2 and the eleventh session).
DRAFT_SEARCH_ORDERS = range(6, 8)
# Fresh Latin squares tried before giving up (each gets up to 3N local moves).
ATTEMPTS = 150
# Small grids (``latin_table``): tightenings tried per too-easy draft for one that keeps
# the solution unique (else a plain one is made).
TIGHTEN_TRIES = 4
# Grids above that: one loosening per this many rows' worth of stuck cells.
LOOSEN_SPREAD = 2
# Hard puzzles on grids up to this size show no single-cell cage with ``singles: few``
# (larger ones: one). On 4x4 one given digit is a sixteenth of the grid: of the unique
# cagings the generator judges, the medium tier fails to finish 13 % without a single
# against 6 % with one (judged drafts a hard 4x4: 10.3 -> 7.1); a hard 5x5 took 17 % fewer
# instructions. Keen's hard puzzles have none at any size. (With ``_Layout.least_part``:
# docs/benchmarks.md, kkh.)
HARD_NO_SINGLE = 5
# Relative weights of cage sizes 2..6 per level (singles are handled apart).
SIZE_MIX: dict[Level, dict[int, float]] = {
    Level.EASY: {2: 6, 3: 3, 4: 1},
    Level.MEDIUM: {2: 4, 3: 4, 4: 2, 5: 0.5},
    Level.HARD: {2: 3, 3: 4, 4: 3, 5: 1, 6: 0.5},
    Level.EXPERT: {2: 2, 3: 4, 4: 4, 5: 2, 6: 1},
}
# Easy puzzles on grids up to SMALL_GRID grow no cage beyond three cells: there a
# four-cell cage covers a sixth of the grid or more and is rarely easy to pin down (5x5
# easy drafts from this mix reach the easy tier sooner: median 1.43 -> 1.11 ms).
SMALL_GRID = 5
SMALL_EASY_MIX: dict[int, float] = {2: 6, 3: 3}
# ... and lean harder towards the operation with the fewest fillings (5x5 easy median
# 1.15 -> 1.02 ms; -4 gave 0.92 ms but cut the share of minus cages from 6 % to 2 %).
SMALL_EASY_BIAS = -2.5
# ... and shuffle the square's rows and columns again (at most this many times a caging)
# while its cages let an intercalate of the square swap: a second solution whatever the
# operations, and most of these rows' ambiguous first drafts (docs/benchmarks.md, kk7e).
SMALL_EASY_SWAPS = 6
# How strongly an operation's number of fillings counts against it (easy wants few).
OP_BIAS: dict[Level, float] = {Level.EASY: -1.5, Level.MEDIUM: -0.7, Level.HARD: 0.0, Level.EXPERT: 0.4}


# A clue sits in its cage's top-left cell: cap height CLUE_CAP (in cells) unless it
# must shrink to stay within the cell's width, CLUE_INSET from the cell's edges.
CLUE_CAP = 0.23
CLUE_INSET = 0.07
DIGIT_CAP = 0.42  # digits written in (givens and answers)
OP_WORDS = {"+": N_("adding"), "-": N_("subtracting"), "*": N_("multiplying"), "/": N_("dividing")}


def clue_cap(text: str) -> float:
    """The cap height (in cells) a clue prints at: ``CLUE_CAP``, or less so its ink fits
    the cell. Ink, not advance: a trailing operator's blank right side (0.125 em for
    ``×``) needs no room, which lets a four-digit product on a 9x9 keep 8 pt in a cell
    of 11.3 mm (two 9x9 grids on a letter page) instead of 11.9 mm (one)."""
    room = 1.0 - 2 * CLUE_INSET
    return min(CLUE_CAP, room * CAP_HEIGHT / max(bold_ink(text), 1e-9))


def widest_clues(n: int, rules: Mapping[str, Any]) -> list[str]:
    """The longest clue each allowed operation can print on an ``n`` x ``n`` grid.

    A bound, never an underestimate: a connected cage of k cells spans at most
    (k + 1) // 2 rows or columns in its narrower direction, so no digit repeats more
    often in it; the largest digits, each that often, give the largest sum and product."""
    show = rules.get("show_ops", True)
    k = max(2, int(rules.get("max_cage", DEFAULT_RULES["max_cage"])))
    digits = [d for d in range(n, 0, -1) for _ in range((k + 1) // 2)][:k]
    product = 1
    for d in digits:
        product *= d
    most = {"+": sum(digits), "*": product, "-": n - 1, "/": n}
    return [f"{most[op]}{OP_GLYPHS[op] if show else ''}" for op in rules.get("ops", OPS)] + [str(n)]


def _clue(cage: Cage, show_ops: bool) -> str:
    if not cage.op or not show_ops:
        return str(cage.target)
    return f"{cage.target}{OP_GLYPHS[cage.op]}"


@lru_cache(maxsize=None)
def _edge_masks(n: int) -> tuple[int, int]:
    """(every cell but the last column, every cell but the first) as ``_cell_bits`` sets."""
    row = (1 << n) - 1
    whole = sum(row << (r * n) for r in range(n))
    return whole & ~sum(1 << (r * n + n - 1) for r in range(n)), whole & ~sum(1 << (r * n) for r in range(n))


def _joined_bits(mask: int, n: int) -> bool:
    """``connected`` for a non-empty set of cells given as ``_cell_bits``: a flood fill
    from its lowest cell by shifting the whole front at once."""
    not_last, not_first = _edge_masks(n)
    seen = mask & -mask
    while True:
        grown = (seen | seen << n | seen >> n | (seen & not_last) << 1 | (seen & not_first) >> 1) & mask
        if grown == seen:
            return seen == mask
        seen = grown


def _neighbours(cell: Cell, n: int) -> tuple[Cell, ...]:
    """The cell's orthogonal neighbours inside the grid: up, left, right, down."""
    return _neighbour_table(n)[cell]


@lru_cache(maxsize=None)
def _neighbour_table(n: int) -> dict[Cell, tuple[Cell, ...]]:
    """Every cell's ``_neighbours``, once per size (the generator asks for them constantly)."""
    table = {}
    for r in range(n):
        for c in range(n):
            table[(r, c)] = tuple((nr, nc) for nr, nc in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
                                  if 0 <= nr < n and 0 <= nc < n)
    return table


@lru_cache(maxsize=None)
def _cell_bits(n: int) -> tuple[dict[Cell, int], dict[Cell, int], dict[int, tuple[Cell, ...]]]:
    """(bit per cell, its neighbours' bits, cells per bit set): a bit per cell, row-major,
    so a set of cells in ascending bit order is sorted, as ``rng.choice`` wants it.
    The last dict fills as the generator meets sets (frontiers of growing cages)."""
    near = _neighbour_table(n)
    bit = {cell: 1 << (cell[0] * n + cell[1]) for cell in near}
    near_bits = {cell: sum(bit[nb] for nb in nbs) for cell, nbs in near.items()}
    return bit, near_bits, {}


@lru_cache(maxsize=None)
def _cell_list(n: int) -> tuple[Cell, ...]:
    """Every cell, row-major."""
    return tuple((r, c) for r in range(n) for c in range(n))


def _sorted_cells(mask: int, n: int) -> tuple[Cell, ...]:
    """The cells of a bit set (``_cell_bits``), sorted; remembered per set."""
    memo = _cell_bits(n)[2]
    got = memo.get(mask)
    if got is None:
        if len(memo) >= 1 << 16:  # bounded: large grids meet many sets
            memo.clear()
        cells = []
        m = mask
        while m:
            low = m & -m
            cells.append(divmod(low.bit_length() - 1, n))
            m ^= low
        got = memo[mask] = tuple(cells)
    return got


def _hidden_ops(rules: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The operations a player must consider per cage when they aren't printed."""
    return None if rules.get("show_ops", True) else tuple(rules.get("ops", OPS))


def _board(n: int, cages: Sequence[Cage], rules: Mapping[str, Any]) -> Board:
    return Board.build(n, [(c.cells, c.op, c.target) for c in cages], _hidden_ops(rules))


def singles_cap(singles: str, level: Level, n: int, pairs_only: bool = False) -> int:
    """The most single-cell cages a puzzle of this level may show (``pairs_only``: no cage may
    grow past two cells, so an odd grid needs a single)."""
    if singles == "none":
        return 0
    if singles == "few":
        return {Level.EASY: max(1, n // 2), Level.MEDIUM: max(1, n // 3),
                Level.HARD: 0 if n <= HARD_NO_SINGLE and not pairs_only else 1, Level.EXPERT: 1}[level]
    return {Level.EASY: n, Level.MEDIUM: max(2, 2 * n // 3),
            Level.HARD: max(1, n // 2), Level.EXPERT: max(1, n // 3)}[level]


# ``normal_shape`` of a cage's cells, as the shape that stands for every shape with its
# clashes (``clash_form``: what its ops' options read of it), remembered (the generator asks
# again and again).
_shape_of = cached_clash_form


@lru_cache(maxsize=1 << 16)
def _shape_options(shape: tuple[Cell, ...], digits: tuple[int, ...], ops: tuple[str, ...],
                   n: int) -> tuple[tuple[str, int, int], ...]:
    """(op, target, number of fillings) for every op of ``ops`` that these digits make in this shape."""
    out = []
    for op in ops:
        if op in PAIR_OPS and len(shape) != 2:
            continue
        t = cage_value(op, digits)
        if t is None:
            continue
        out.append((op, t, len(shape_assignments(shape, op, t, n))))
    return tuple(out)


@lru_cache(maxsize=1 << 12)
def _op_weights(opts: tuple[tuple[str, int, int], ...], bias: float,
                spoil: bool) -> tuple[list[str], list[float]]:
    """(ops, cumulative weights) for ``pick_op``: fillings^bias, a giveaway (one filling)
    weighed down when ``spoil`` (a multi-cell cage at the higher levels)."""
    weights = []
    for _, _, count in opts:
        w = float(count) ** bias
        if count == 1 and spoil:
            w *= 0.15  # a cage with one filling is a giveaway at the higher levels
        weights.append(w)
    return [o[0] for o in opts], list(accumulate(weights))


def _draw(rng: random.Random, population: Sequence[Any], cum: Sequence[float]) -> Any:
    """``rng.choices(population, cum_weights=cum)[0]``: the same draw from the same single
    ``rng.random()``, without the checks and the list around it (the generator makes
    dozens a draft)."""
    return population[bisect(cum, rng.random() * (cum[-1] + 0.0), 0, len(cum) - 1)]


# The title in the grammatical cases sentences need (the catalogs inflect it: ``i18n.name_forms``).
NAME_CASES = (C_("gen", "Calcudoku"), C_("acc", "Calcudoku"))


@lru_cache(maxsize=256)
def _plan(n: int, ops: tuple[str, ...], max_cage: int, singles: str, level: Level) -> tuple:
    """What a ``_Layout`` of these rules keeps, worked out once: (the ops allowed, whether '+'
    or '*' is among them, the largest cage, the most single-cell cages, the ops' bias, the
    smallest part ``_split`` cuts, ``tile``'s reshuffles, the cut's (sizes, cumulative weights,
    their total as a float, the last index), ``pick_op``'s memo key past the cells and digits)."""
    big = "+" in ops or "*" in ops  # (then some op fits any cells: ``op_options`` is never empty)
    max_cage = max_cage if big else 2
    cap = singles_cap(singles, level, n, max_cage <= 2)
    small_easy = level == Level.EASY and n <= SMALL_GRID
    bias = SMALL_EASY_BIAS if small_easy else OP_BIAS[level]
    # Smallest part ``_split`` cuts: where a hard small grid may show no single, a part of
    # one cell could never fit, and drawing such cuts was most of a failed re-cut.
    least_part = 2 if level == Level.HARD and n <= HARD_NO_SINGLE and not cap else 1
    swaps = SMALL_EASY_SWAPS if small_easy else 0  # ``tile``'s reshuffles
    table = SMALL_EASY_MIX if small_easy else SIZE_MIX[level]
    mix = {s: w for s, w in table.items() if s <= max_cage}
    cum = list(accumulate(mix.values()))  # as random.choices sums them
    return (ops, big, max_cage, cap, bias, least_part, swaps, (list(mix), cum, cum[-1] + 0.0, len(cum) - 1),
            (n, ops, bias, level >= Level.HARD))


class _Layout:
    """A caging under construction: cage cell lists, ops and targets."""

    def __init__(self, n: int, square: list[list[int]], rules: Mapping[str, Any], level: Level,
                 rng: random.Random) -> None:
        self.n = n
        self.square = square
        self.rules = rules
        self.level = level
        self.rng = rng
        (self.ops_allowed, self.big, self.max_cage, self.cap, self.bias, self.least_part, self.swaps,
         self._mix, self._pick_ctx) = _plan(n, tuple(rules["ops"]), rules["max_cage"], rules["singles"], level)
        self.cages: list[list[Cell]] = []
        self.ops: list[str] = []
        self.owner: dict[Cell, int] = {}
        self._options: dict[tuple[Cell, ...], tuple[tuple[str, int, int], ...]] = {}
        self._made: dict[tuple[tuple[Cell, ...], str], tuple] = {}  # cage_specs' (cells, op, target), reused
        self._specs: dict[tuple[tuple[Cell, ...], str], tuple] = {}  # sat_cages' answers, reused
        self._admitted: dict[tuple[tuple[Cell, ...], str], tuple] = {}  # admits' (indices, set of assignments)
        self.hidden = _hidden_ops(rules)
        self._singles = -1  # single-cell cages in the caging (-1: not counted since it changed)
        self._picks: dict[tuple[Cell, ...], tuple] = {}  # pick_op's (ops, cumulative weights)

    # --- operations ---------------------------------------------------------------

    def op_options(self, cells: Sequence[Cell]) -> tuple[tuple[str, int, int], ...]:
        """(op, target, number of fillings) for every allowed op that fits these cells."""
        if len(cells) == 1:
            return (("", self.square[cells[0][0]][cells[0][1]], 1),)
        key = tuple(sorted(cells))  # the options don't depend on the cells' order
        got = self._options.get(key)
        if got is None:
            got = self._options[key] = self._op_options(key)
        return got

    def _op_options(self, cells: Sequence[Cell]) -> tuple[tuple[str, int, int], ...]:
        digits = tuple([self.square[r][c] for r, c in cells])
        return _shape_options(_shape_of(cells), digits, self.ops_allowed, self.n)

    def pick_op(self, cells: Sequence[Cell]) -> str | None:
        """A random op for ``cells``, weighted by fillings^bias; None when none fits."""
        key = tuple(sorted(cells)) if len(cells) > 1 else tuple(cells)
        got = self._picks.get(key)  # ops and cumulative weights, kept per cell set
        if got is None:
            got = self._picks[key] = self._pick_table(key)
        if not got:
            return None
        ops, cum, _ = got  # (``_draw``, written out)
        return ops[bisect(cum, self.rng.random() * (cum[-1] + 0.0), 0, len(cum) - 1)]

    def _pick_table(self, key: tuple[Cell, ...]) -> tuple:
        """``pick_op``'s (ops, cumulative weights, the ops' targets on these cells), () when no op
        fits: ``_pick_table_plain``'s,
        remembered per process by the cells' shape (``_shape_of``: the options depend on where
        the cells lie only through it), their digits and what else they depend on (every new
        caging asks for each of its cages, and the same shape and digits turn up at other places
        far more often than the same cells and digits: a miss costs three memos and two sorts)."""
        sq = self.square
        memo_key = (_shape_of(key), tuple([sq[r][c] for r, c in key]), self._pick_ctx)
        got = _PICKS.get(memo_key)
        if got is None:
            got = _PICKS.put(memo_key, self._pick_table_plain(key))
        return got

    def _pick_table_plain(self, key: tuple[Cell, ...]) -> tuple:
        """``_pick_table`` from ``op_options`` and ``_op_weights``."""
        opts = self.op_options(key)
        if not opts:
            return ()
        return (*_op_weights(opts, self.bias, self.level >= Level.HARD and len(key) > 1), tuple(o[1] for o in opts))

    # --- tiling -------------------------------------------------------------------

    def tile(self) -> bool:
        """Cut the grid into random connected cages; False when the cut can't satisfy the rules.

        On small easy grids (``SMALL_EASY_SWAPS``), while the cages let an intercalate of the
        square swap (``_swap_kept``: a second solution whatever the operations), the square's
        rows and columns are shuffled again (``_reshuffle``), up to that many times: the cut
        never depends on the square's digits (some allowed operation fits any cells), and a
        square with its rows and columns shuffled is as likely a draw as the square itself."""
        if not self._cut():
            return False
        if self.swaps:
            self._reshuffle()
        # ``pick_op`` for each cage, written out: the cages are sorted (``_compact``) and the
        # layout's own tables empty (nothing picked an op on this square yet). Each cage's
        # (cells, op, target) is kept as ``cage_specs`` makes it (``_made_spec``), its target
        # read off the table instead of worked out again.
        self.ops = ops = []
        picks, made, draw = self._picks, self._made, self.rng.random
        for cells in self.cages:
            key = tuple(cells)
            got = picks[key] = self._pick_table(key)
            if not got:
                return False
            names, cum, targets = got
            at = bisect(cum, draw() * (cum[-1] + 0.0), 0, len(cum) - 1)
            op = names[at]
            ops.append(op)
            made[key, op] = (key, op, targets[at])
        return True

    def _reshuffle(self) -> None:
        """``tile``'s reshuffles: while some rectangle of ``_pair_rects`` is an intercalate of
        the square (then ``_swap_kept`` finds one, the version this must agree with), its rows and
        columns in new random orders (what ``random_latin_square`` ends with; ``_table_square``'s
        draws are uniform), up to ``swaps`` times, each drawn afresh for the square as tiled;
        the square made once, from the last orders (its digits move: what was worked out from
        them is forgotten)."""
        rects = self._pair_rects()
        if not rects:
            return
        sq = self.square
        perms = _perms(self.n)
        m = len(perms)
        rows = cols = perms[0]
        for _ in range(self.swaps):
            for r1, r2, c1, c2 in rects:
                a, b = sq[rows[r1]], sq[rows[r2]]
                x, y = cols[c1], cols[c2]
                if a[x] == b[y] and a[y] == b[x]:
                    break
            else:
                break
            rows, cols = divmod(below(self.rng, m * m), m)  # (one draw for both)
            rows, cols = perms[rows], perms[cols]
        if rows is perms[0] and cols is perms[0]:
            return
        self.square = [[sq[r][c] for c in cols] for r in rows]
        self._options.clear()
        self._picks.clear()
        self.__dict__.pop("_swaps", None)

    def _pair_rects(self) -> list[tuple[int, int, int, int]]:
        """(r1, r2, c1, c2) of each rectangle whose cells (r1, c1), (r1, c2) lie in one cage
        and (r2, c1), (r2, c2) in one, or (r1, c1), (r2, c1) in one and (r1, c2), (r2, c2) in
        one: where the square has an intercalate, its swap keeps every cage's digits
        (``_swap_kept``); worked out once a cut, from the cages' pairs in a row or a column."""
        # (0, c1, c2): the rows where a cage holds both, a bit each; (1, r1, r2): the columns likewise
        where: dict[tuple[int, int, int], int] = {}
        for cells in self.cages:
            if len(cells) > 1:
                for key, at in _cage_pairs(tuple(cells)):
                    where[key] = where.get(key, 0) | at
        out = []
        for (kind, a, b), mask in where.items():
            if mask & (mask - 1):  # (two lines or more)
                at = _bit_list(mask)
                if kind:
                    out += [(a, b, c1, c2) for k, c1 in enumerate(at) for c2 in at[k + 1:]]
                else:
                    out += [(r1, r2, a, b) for k, r1 in enumerate(at) for r2 in at[k + 1:]]
        return out

    def _cut(self, plain: bool = False) -> bool:
        """``tile``'s cages, without their operations; False when too many single cells are left.
        ``rng``'s shuffle, randint, choice and choices written out (``core.rng``; the same draws
        and cells, the cut being most of a small easy puzzle's tiling); ``plain``: by ``random``'s
        own methods, the version this must equal (tests/test_kenken_search.py)."""
        n, rng, cap = self.n, self.rng, self.cap
        sizes, cum, total, last = self._mix
        bit, near_bits, memo = _cell_bits(n)
        order = list(_cell_list(n))
        if plain:
            rng.shuffle(order)
        else:
            shuffle(rng, order)
        getrandbits, draw = rng.getrandbits, rng.random
        owner: dict[Cell, int] = {}
        cages: list[list[Cell]] = []
        free = (1 << (n * n)) - 1  # cells no cage owns yet
        if cap:
            lo = cap // 2 if self.level <= Level.MEDIUM else 0
            for cell in order[: rng.randint(lo, cap) if plain else lo + below(rng, cap + 1 - lo)]:
                owner[cell] = len(cages)
                free &= ~bit[cell]
                cages.append([cell])
        for cell in order:
            if cell in owner:
                continue
            want = _draw(rng, sizes, cum) if plain else sizes[bisect(cum, draw() * total, 0, last)]
            cage = [cell]
            k = owner[cell] = len(cages)
            free &= ~bit[cell]
            reach = near_bits[cell]
            while len(cage) < want:
                grow = reach & free
                if not grow:
                    break
                near = memo.get(grow) or _sorted_cells(grow, n)
                if plain:
                    nb = rng.choice(near)
                elif len(near) == 1:
                    while getrandbits(1):  # (``_randbelow(1)`` draws until it gets 0)
                        pass
                    nb = near[0]
                else:
                    nb = near[below(rng, len(near))]
                owner[nb] = k
                free &= ~bit[nb]
                reach |= near_bits[nb]
                cage.append(nb)
            cages.append(cage)
        self.cages, self.owner = cages, owner
        singles = list(map(len, cages)).count(1)
        # Orphan cells (grown to size 1 by accident) join a neighbour when singles are used up.
        for k in range(len(self.cages)):
            if len(self.cages[k]) != 1 or singles <= self.cap:
                continue
            if self._absorb(k):
                singles = list(map(len, self.cages)).count(1)
        if singles > self.cap:
            return False
        self._compact()
        return True

    def _swap_kept(self) -> tuple[int, int, int, int] | None:
        """The first intercalate of the square (``_quads``: cells p1 p2 / p3 p4, flat, holding
        a b / b a) whose cells lie in cages that each hold as many a's as b's of it (p1 and p2
        in one cage and p3 and p4 in one, or p1 and p3 and p2 and p4), or None. Swapping a and
        b there keeps every cage's digits, so every operation's value: a second solution (the
        plain version, every intercalate swapped and every cage's digits compared, is in
        tests/test_kenken_search.py)."""
        n = self.n
        at = [0] * (n * n)  # per cell, flat: its cage
        for k, cells in enumerate(self.cages):
            for r, c in cells:
                at[r * n + c] = k
        for quad in _quads(self.square):
            p1, p2, p3, p4 = quad
            a, b, c, d = at[p1], at[p2], at[p3], at[p4]
            if (a == b and c == d) or (a == c and b == d):
                return quad
        return None

    def _absorb(self, k: int) -> bool:
        """Give single cell cage ``k`` to a neighbour cage (or pair it with a stolen cell)."""
        (cell,) = self.cages[k]
        nbs = sorted({self.owner[nb] for nb in _neighbours(cell, self.n)} - {k})
        shuffle(self.rng, nbs)
        for j in nbs:
            if 0 < len(self.cages[j]) < self.max_cage and (self.big or self.op_options(self.cages[j] + [cell])):
                self.cages[j].append(cell)
                self.owner[cell] = j
                self.cages[k] = []
                return True
        for j in nbs:
            donor = self.cages[j]
            if len(donor) < 3:
                continue
            for x in _neighbours(cell, self.n):
                if self.owner.get(x) == j:
                    rest = [y for y in donor if y != x]
                    if connected(rest) and (self.big or self.op_options([cell, x])):
                        self.cages[j] = rest
                        self.cages[k] = [cell, x]
                        self.owner[x] = k
                        return True
        return self._walk(k)

    def _walk(self, k: int) -> bool:
        """Pair single cell cage ``k`` by re-pairing two-cell cages along a random path.

        The orphan takes one cell of a neighbouring pair, whose other cell
        becomes the orphan, until the orphan meets another single cell: the
        same idea as an augmenting path in a domino tiling.
        """
        (cell,) = self.cages[k]
        for _ in range(4 * self.n * self.n):
            nbs = _neighbours(cell, self.n)
            lone = [x for x in nbs if len(self.cages[self.owner[x]]) == 1 and self.owner[x] != k
                    and (self.big or self.op_options([cell, x]))]
            if lone:
                x = choice(self.rng, lone)
                j = self.owner[x]
                self.cages[j] = []
                self.cages[k] = [cell, x]
                self.owner[x] = k
                return True
            pairs = [x for x in nbs if len(self.cages[self.owner[x]]) == 2 and (self.big or self.op_options([cell, x]))]
            if not pairs:
                return False
            x = choice(self.rng, pairs)
            j = self.owner[x]
            (y,) = [z for z in self.cages[j] if z != x]
            self.cages[k] = [cell, x]
            self.owner[x] = k
            self.cages[j] = [y]
            self.owner[y] = j
            k, cell = j, y
        return False

    def _compact(self) -> None:
        """Drop emptied cages, sort cells row-major and cages by first cell; rebuild owners."""
        cages = sorted([sorted(c) for c in self.cages if c])  # (by first cell: no two cages share one)
        self.cages = cages
        self.owner = {cell: k for k, c in enumerate(cages) for cell in c}
        self._singles = -1

    # --- local moves --------------------------------------------------------------

    def _split(self, cells: list[Cell]) -> tuple[list[Cell], list[Cell]] | None:
        """Two random connected parts of ``cells`` (None when none found)."""
        least = self.least_part
        if len(cells) < 2 * least:
            return None
        n, rng = self.n, self.rng
        bit, near_bits, _ = _cell_bits(n)
        members = 0
        for x in cells:
            members |= bit[x]
        for _ in range(8):
            k = least + below(rng, len(cells) - 2 * least + 1)  # (``randint``)
            start = choice(rng, cells)
            part = [start]
            left = members & ~bit[start]  # members not taken
            reach = near_bits[start]
            while len(part) < k:
                grow = reach & left
                if not grow:
                    break
                nb = choice(rng, _sorted_cells(grow, n))
                part.append(nb)
                left &= ~bit[nb]
                reach |= near_bits[nb]
            if left and _joined_bits(left, n):
                return part, [x for x in cells if bit[x] & left]
        return None

    def _fits(self, parts: Sequence[list[Cell]], singles_delta: int) -> bool:
        if self._singles < 0:  # counted once per caging (moves ask many times)
            self._singles = list(map(len, self.cages)).count(1)
        if self._singles + singles_delta > self.cap:
            return False
        for p in parts:
            if len(p) > self.max_cage or not (self.big or self.op_options(p)):
                return False
        return True

    def _replace(self, old: Sequence[int], parts: Sequence[list[Cell]]) -> None:
        for k in sorted(old, reverse=True):
            del self.cages[k]
            del self.ops[k]
        for p in parts:
            self.cages.append(p)
            self.ops.append("?")
        # Kept cages are sorted already (tile and every move leave them so); only new parts need it.
        n_kept = len(self.cages) - len(parts)
        pairs = sorted([(c if k < n_kept else sorted(c), op) for k, (c, op) in enumerate(zip(self.cages, self.ops))])
        # (by first cell: no two cages share one)
        self.cages = [c for c, _ in pairs]
        self._singles = -1
        self.ops = [op for _, op in pairs]
        self.owner = {cell: k for k, c in enumerate(self.cages) for cell in c}
        for k, op in enumerate(self.ops):
            if op == "?":
                self.ops[k] = self.pick_op(self.cages[k]) or ""

    def loosen(self, cell: Cell) -> bool:
        """Make the cage around ``cell`` more telling: a tighter op, a split, or a re-cut."""
        k = self.owner[cell]
        cells = self.cages[k]
        moves = ["op", "split", "recut"]
        shuffle(self.rng, moves)
        for move in moves:
            if move == "op" and len(cells) > 1:
                opts = self.op_options(cells)
                now = next((o for o in opts if o[0] == self.ops[k]), None)
                tighter = [o for o in opts if now is None or o[2] < now[2]]
                if tighter:
                    self.ops[k] = choice(self.rng, tighter)[0]
                    return True
            elif move == "split":
                parts = self._split(cells)
                if parts and self._fits(parts, list(map(len, parts)).count(1) - (len(cells) == 1)):
                    self._replace([k], parts)
                    return True
            elif move == "recut" and self._recut(k):
                return True
        return False

    def _recut(self, k: int) -> bool:
        """Merge cage ``k`` with a neighbour and cut the union differently."""
        cells = self.cages[k]
        nbs = sorted({self.owner[nb] for x in cells for nb in _neighbours(x, self.n)} - {k})
        if not nbs:
            return False
        j = choice(self.rng, nbs)
        union = cells + self.cages[j]
        before = {frozenset(cells), frozenset(self.cages[j])}
        for _ in range(4):
            parts = self._split(union)
            if not parts or {frozenset(parts[0]), frozenset(parts[1])} == before:
                continue
            delta = list(map(len, parts)).count(1) - (len(cells) == 1) - (len(self.cages[j]) == 1)
            if self._fits(parts, delta):
                self._replace([k, j], parts)
                return True
        return False

    def tighten(self) -> bool:
        """Make some cage less telling: merge two neighbours or pick a looser op."""
        rng = self.rng
        for _ in range(6):
            k = below(rng, len(self.cages))
            cells = self.cages[k]
            if rng.random() < 0.5:
                nbs = sorted({self.owner[nb] for x in cells for nb in _neighbours(x, self.n)} - {k})
                shuffle(rng, nbs)
                for j in nbs:
                    union = cells + self.cages[j]
                    if self._fits([union], -(len(cells) == 1) - (len(self.cages[j]) == 1)):
                        self._replace([k, j], [union])
                        return True
            elif len(cells) > 1:
                opts = self.op_options(cells)
                now = next((o for o in opts if o[0] == self.ops[k]), None)
                looser = [o for o in opts if now is None or o[2] > now[2]]
                if looser:
                    self.ops[k] = choice(rng, looser)[0]
                    return True
        return False

    def snapshot(self) -> tuple[list[list[Cell]], list[str], dict[Cell, int]]:
        """The caging as it stands, for ``restore`` (moves replace cage lists, never edit them)."""
        return self.cages[:], self.ops[:], dict(self.owner)

    def restore(self, snap: tuple[list[list[Cell]], list[str], dict[Cell, int]]) -> None:
        """Go back to a ``snapshot``."""
        cages, ops, owner = snap
        self.cages, self.ops, self.owner = cages[:], ops[:], dict(owner)
        self._singles = -1

    def cage_list(self) -> tuple[Cage, ...]:
        """The cages as ``Cage`` objects (targets from the square)."""
        return tuple(Cage(*spec) for spec in self.cage_specs())

    def cage_specs(self) -> list[tuple[tuple[Cell, ...], str, int]]:
        """The cages as (cells, op, target), targets from the square, kept per cage: what a
        draft's table look-up and board take (only the puzzle made needs ``Cage`` objects)."""
        made = self._made
        return [made.get(key) or self._made_spec(key) for key in zip(map(tuple, self.cages), self.ops)]

    def _made_spec(self, key: tuple[tuple[Cell, ...], str]) -> tuple[tuple[Cell, ...], str, int]:
        cells, op = key
        got = self._made[key] = (cells, op, int(cage_value(op, [self.square[r][c] for r, c in cells])))
        return got

    def sat_cages(self) -> list[tuple[tuple, tuple[int, ...], tuple[tuple[int, ...], ...]]]:
        """``cage_list``'s cages as ``DraftSolver`` takes them: (key, cell indices, assignments),
        kept per cage. The key is a plain (cells, op, target) tuple: equal exactly when the
        cages are, and hashed without a Python call (a draft asks for a dozen)."""
        specs = self._specs
        return [specs.get(key) or self._spec(key) for key in zip(map(tuple, self.cages), self.ops)]

    def _spec(self, key: tuple[tuple[Cell, ...], str]) -> tuple:
        spec = self._made.get(key) or self._made_spec(key)
        got = self._specs[key] = (spec, *cage_parts(self.n, *spec, self.hidden)[:2])  # (``_sat_cage``'s)
        return got

    def swapped(self) -> list[int] | None:
        """A second solution of the caging found without SAT, or None: the square with the
        two digits of an intercalate (a 2x2 sub-square ``a b / b a``) swapped, when every
        cage it touches admits the swap. A square's only other Latin squares that differ
        from it in four cells are these, and they are the second solution SAT finds most
        often for a hard draft (7x7: about half the time)."""
        for cells, grid in self._intercalates():
            if self.admits(grid, cells):
                return grid
        return None

    def _intercalates(self) -> list[tuple[tuple[int, ...], list[int]]]:
        """(the four cells, flat, the square with them swapped, flat) per intercalate of the
        square, rows then columns ascending; worked out once per square."""
        got = self.__dict__.get("_swaps")
        if got is None:
            flat = [d for row in self.square for d in row]
            got = self._swaps = []
            for cells in _quads(self.square):
                grid = flat[:]
                for a, b in ((cells[0], cells[1]), (cells[2], cells[3])):
                    grid[a], grid[b] = grid[b], grid[a]
                got.append((cells, grid))
        return got

    def admits(self, grid: Sequence[int], cells: Iterable[int]) -> bool:
        """Whether every cage holding one of ``cells`` (flat indices) admits ``grid`` (flat
        digits, row-major), by the assignments SAT is given for it (``sat_cages``), kept as
        a set per cage (``admits_plain`` looks them up in the list)."""
        n, sets, owner, cages, ops = self.n, self._admitted, self.owner, self.cages, self.ops
        at = grid.__getitem__
        for k in {owner[divmod(i, n)] for i in cells}:
            key = (tuple(cages[k]), ops[k])
            got = sets.get(key)
            if got is None:
                _, idx, assigns = self._specs.get(key) or self._spec(key)
                got = sets[key] = (idx, frozenset(assigns))
            if tuple(map(at, got[0])) not in got[1]:
                return False
        return True

    def admits_plain(self, grid: Sequence[int], cells: Iterable[int]) -> bool:
        """``admits`` by a scan of each cage's assignments: the version it must equal."""
        n = self.n
        for k in {self.owner[divmod(i, n)] for i in cells}:
            key = (tuple(self.cages[k]), self.ops[k])
            _, idx, assigns = self._specs.get(key) or self._spec(key)
            if tuple(grid[i] for i in idx) not in assigns:
                return False
        return True


class _OutOfBudget(Exception):
    """No draft of any attempt came out at the requested level."""


class KenKenVariant(VariantDefaults):
    """The Calcudoku (KenKen-style) variant; stateless."""

    name = "kenken"
    aliases: tuple[str, ...] = ("calcudoku", "mathdoku", "kendoku")
    title = N_("Calcudoku")
    rules_text: tuple[str, ...] = (
        "Fill the grid so that every row and every column holds each digit exactly once.",
        "The bold outlines mark cages. The digits in a cage must combine to the number in its corner "
        "using the operation shown (+, \u2212, \u00d7 or \u00f7).",
        "For \u2212 and \u00f7, take the larger digit first; these cages always have two cells.",
        "A cage of a single cell simply shows its digit.",
        "A digit may repeat inside a cage, as long as it is not in the same row or column.",
    )
    ladder = LADDER  # its rows carry the how-to texts: ``techniques`` and ``rating_table``
    sizes: tuple[int, ...] = SIZES
    default_size = 6
    rule_help = {  # what each rule option means, for the config reference (docs/config.md)
        "ops": 'any non-empty subset of `["+", "-", "*", "/"]` that holds `+` or `*`; '
               "`[+]` is addition only, for young learners",
        "max_cage": "2..6: the largest cage",
        "show_ops": 'false prints targets without operators ("no-op" KenKen, harder)',
        "singles": "`none`, `few` or `normal`: how many single-cell cages (under `few` a hard 4x4 or 5x5 "
                   "shows none, as Keen's hard puzzles do)",
    }

    # --- rules --------------------------------------------------------------------

    def rules_for(self, rules: Mapping[str, Any], sizes: Sequence[int] = ()) -> tuple[str, ...]:
        """The rules text for these options: only the operations in use, whether they are
        printed, single-cell cages only when there are some, and the largest cage."""
        ops = [op for op in OPS if op in rules.get("ops", OPS)]
        show = rules.get("show_ops", True)
        max_cage = int(rules.get("max_cage", DEFAULT_RULES["max_cage"]))
        lines = [latin_rule(sizes) if sizes else
                 N_("Fill the grid so that every row and every column holds each digit exactly once.")]
        if ops == ["+"]:
            lines.append(N_("The bold outlines mark cages. The digits in a cage add up to the number in its corner.")
                         if show else N_("The bold outlines mark cages. The digits in a cage add up to the number "
                                         "in its corner (the + is left out)."))
        elif show:
            lines.append(Text(N_("The bold outlines mark cages. The digits in a cage must combine to the "
                                 "number in its corner using the operation shown ({ops})."),
                              ops=join_or([OP_GLYPHS[op] for op in ops])))
        else:
            lines.append(Text(N_("The bold outlines mark cages. Each cage shows only its target, not its "
                                 "operation: its digits make the number in its corner by {ops}, and "
                                 "working out which is part of the puzzle."),
                              ops=join_or([OP_WORDS[op] for op in ops])))
        pair_ops = [op for op in ops if op in PAIR_OPS]
        if pair_ops:
            which = join_and([OP_GLYPHS[op] if show else OP_WORDS[op] for op in pair_ops])
            lines.append(Text(N_("For {ops}, take the larger digit first; these cages always have two cells."),
                              ops=which))
        biggest = max_cage if set(ops) & {"+", "*"} else 2
        lines.append(Plural("A cage has at most {count} cell.", "A cage has at most {count} cells.", biggest))
        if rules.get("singles", "few") != "none":
            lines.append(N_("A cage of a single cell simply shows its digit."))
        if biggest >= 3:
            lines.append(N_("A digit may repeat inside a cage, as long as it is not in the same row or column."))
        lines.append(N_("Each puzzle has exactly one solution, reachable by logic alone."))
        return tuple(lines)

    def smallest_type(self, size: int, rules: Mapping[str, Any]) -> float:
        """The font size (in cells) of the longest clue these rules allow on this size."""
        return min(clue_cap(text) for text in widest_clues(size, rules)) / CAP_HEIGHT

    rule_choices = {"singles": SINGLES_MODES}  # the studio offers these as a menu

    def parse_rules(self, raw: Mapping[str, Any] | None, size: int) -> dict[str, Any]:
        """Complete and check the rule options; ``ValueError`` with a one-line message."""
        if size not in SIZES:
            raise ValueError(f"Calcudoku size must be between 3 and 9, not {size}")
        raw = rule_options(raw, "Calcudoku", RULE_KEYS, ", ".join(sorted(RULE_KEYS)))
        out = {k: (list(v) if isinstance(v, list) else v) for k, v in DEFAULT_RULES.items()}
        if "ops" in raw:
            ops = raw["ops"]
            if isinstance(ops, str) or not isinstance(ops, (list, tuple)):
                raise ValueError("Calcudoku 'ops' must be a list such as ['+', '-', '*', '/']")
            chosen = set()
            for op in ops:
                if not isinstance(op, str) or op.strip() not in OP_ALIASES:
                    raise ValueError(f"unknown Calcudoku operation {op!r}; use +, -, * or /")
                chosen.add(OP_ALIASES[op.strip()])
            if not chosen:
                raise ValueError("Calcudoku 'ops' must name at least one operation")
            out["ops"] = [op for op in OPS if op in chosen]
        if "max_cage" in raw:
            mc = raw["max_cage"]
            if isinstance(mc, bool) or not isinstance(mc, int) or not 2 <= mc <= 6:
                raise ValueError(f"Calcudoku 'max_cage' must be a whole number from 2 to 6, not {mc!r}")
            out["max_cage"] = mc
        if "show_ops" in raw:
            if not isinstance(raw["show_ops"], bool):
                raise ValueError(f"Calcudoku 'show_ops' must be true or false, not {raw['show_ops']!r}")
            out["show_ops"] = raw["show_ops"]
        if "singles" in raw:
            if raw["singles"] not in SINGLES_MODES:
                raise ValueError(f"Calcudoku 'singles' must be one of {', '.join(SINGLES_MODES)}, "
                                 f"not {raw['singles']!r}")
            out["singles"] = raw["singles"]
        return dict(sorted(out.items()))

    def check_request(self, size: int, rules: Mapping[str, Any], level: Level) -> str | None:
        """Why this request can't be generated reliably, or None.

        Conservative: each refusal below is a combination that failed in
        measured runs of this generator (or can't exist at all), so a book
        build that passes this check doesn't stall.
        """
        if size not in SIZES:
            return f"Calcudoku size must be between 3 and 9, not {size}"
        ops = set(rules.get("ops", OPS))
        singles = rules.get("singles", "few")
        pairs_only = rules.get("max_cage", 4) <= 2 or not ops & {"+", "*"}
        grid = f"{size}\u00d7{size}"
        if not ops & {"+", "*"}:
            return ("Calcudoku needs '+' or '*' among its ops: with only '-' and '/' every cage "
                    "is a pair, and pairs alone make few good puzzles")
        if pairs_only and singles == "none":
            if size % 2:
                return (f"a {grid} grid has an odd number of cells, so it can't be cut into "
                        "two-cell cages only; allow singles or a larger max_cage")
            if level in (Level.EASY, Level.EXPERT):
                return (f"an {level.key} Calcudoku with only two-cell cages and no singles is out of reach; "
                        "allow singles or a larger max_cage")
        if size == 3 and level >= Level.HARD:
            return f"{'an' if level == Level.EXPERT else 'a'} {level.key} Calcudoku needs at least a 4\u00d74 grid"
        if "+" not in ops and size <= 5 and level == Level.EXPERT:
            return f"an expert Calcudoku without '+' needs at least a 6\u00d76 grid"
        if "+" not in ops and size <= 4 and level == Level.HARD:
            return f"a hard Calcudoku without '+' needs at least a 5\u00d75 grid"
        if level >= Level.HARD and "*" not in ops and size >= 8:
            # hard 8x8 and 9x9 without '*' took 0.4 s to over 6 min a puzzle (bench/sweep_estimates.py,
            # docs/estimates.md): too slow, and too unpredictable to estimate
            return (f"{'an' if level == Level.EXPERT else 'a'} {level.key} {grid} Calcudoku without '*' takes "
                    "too long to generate; allow '*' or pick a smaller grid")
        if level == Level.EASY and not ops & {"*", "/"} and (size >= 8 or (singles == "none" and size >= 6)):
            return (f"an easy {grid} Calcudoku with only '+'/'-' cages is out of reach; "
                    "allow '*' or '/'" + (", or singles" if singles == "none" else ""))
        return None

    # --- generation -----------------------------------------------------------------

    def request_rules(self, size: int, rules: Mapping[str, Any] | None, level: Level) -> dict[str, Any]:
        """``VariantDefaults.request_rules``, which it must equal (tests/test_kenken_search.py),
        remembered per process by the rules as given (each value with its type: ``True`` is not
        ``1`` to ``parse_rules``); a fresh dict and lists each call. ``generate`` asks once a
        puzzle, and parsing and checking the rules again was a fiftieth of a small easy one."""
        try:
            key = (size, level, None if rules is None else tuple(sorted(
                [(k, type(v), tuple(v) if isinstance(v, list) else v) for k, v in rules.items()])))
            got = _REQUESTS.get(key)
        except TypeError:  # (a value that can't be a key: the plain way, which says what is wrong)
            return VariantDefaults.request_rules(self, size, rules, level)
        if got is None:
            got = _REQUESTS.put(key, VariantDefaults.request_rules(self, size, rules, level))
        return {k: list(v) if isinstance(v, list) else v for k, v in got.items()}

    def generate(
        self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
        options: Mapping[str, Any] | None = None,
    ) -> Puzzle:
        """A unique puzzle graded exactly ``level``; ``GenerationError`` when out of budget.

        ``options``: ``attempts`` (fresh Latin squares to try, default ``ATTEMPTS``) and
        ``moves`` (local changes per square, default 3N).
        """
        rules = self.request_rules(size, rules, level)
        options = options or {}
        attempts = int(options.get("attempts", ATTEMPTS))
        moves = int(options.get("moves", 3 * size))
        hidden = _hidden_ops(rules)
        if size <= TABLE_MAX:
            found = self._search_small(size, rules, level, rng, attempts, moves)
            if found is not None:
                return found
        else:
            # Hard drafts are mostly ambiguous: an exact count says so faster than the hard tier
            # stalls, and the cells where a second solution differs are where to loosen.
            drafts = None
            if level == Level.HARD:
                drafts = SearchDrafts(size) if size in DRAFT_SEARCH_ORDERS else DraftSolver(size)
            try:
                return self._search(size, rules, level, rng, attempts, moves, drafts)
            except _OutOfBudget:
                pass
            finally:
                if drafts is not None:
                    drafts.close()
        larger = ", a larger grid" if size < max(self.sizes) else ""
        hint = f"try another seed, a lower level{larger} or more ops"
        article = "an" if level in (Level.EASY, Level.EXPERT) else "a"
        raise GenerationError(
            f"could not make {article} {level.key} {size}\u00d7{size} Calcudoku in {attempts} attempts; {hint}"
        )

    def _search(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
                attempts: int, moves: int, drafts: DraftSolver | SearchDrafts | None) -> Puzzle:
        """``generate`` for grids above ``TABLE_MAX``; ``_OutOfBudget`` when nothing came of it.

        With ``drafts`` every draft is first asked for a second solution (an intercalate
        its cages let swap, ``_Layout.swapped``, else ``drafts``: the cage search or SAT), and only unique ones go to the
        ladder (whose ``Fits`` then needs no further proof); a second solution is ruled
        out where it differs from the square (``_rule_out``)."""
        hidden = _hidden_ops(rules)
        for square, flat, layout in _tilings(size, rules, level, rng, attempts, random_latin_square):
            known = False  # the draft is a tightening SAT has just proven unique
            for _ in range(moves):
                cages = layout.cage_specs()
                others, proven = [], known
                if drafts is not None and not known:
                    # An intercalate the cages let swap is a second solution SAT need not find.
                    swap = layout.swapped()
                    if swap is not None:
                        others = [swap]
                    else:
                        others, proven = drafts.other_solutions(
                            flat, layout.sat_cages(), DRAFT_OTHERS, DRAFT_BUDGET)
                known = False
                if others:
                    # One loosening where each other solution differs from the square.
                    done = 0
                    for other in others:
                        done += self._rule_out(layout, flat, other)
                    if not done:
                        break
                    continue
                elif layout.swaps and (quad := layout._swap_kept()) is not None:
                    verdict = Stuck(list(quad))  # (a loosening left an intercalate free to swap)
                else:
                    board = Board.build(size, cages, hidden)
                    verdict = self._judge(board, level, flat, unique=proven)
                if isinstance(verdict, Fits):
                    return self._finish(size, rules, square, tuple([Cage(*c) for c in cages]), verdict, proven, board)
                if verdict is TOO_EASY:
                    if drafts is not None and HARD_TIGHTEN_TRIES:
                        moved = False
                        for _ in range(HARD_TIGHTEN_TRIES):
                            snap = layout.snapshot()
                            if not layout.tighten():
                                break
                            got, complete = layout.swapped(), False
                            if got is None:
                                got, complete = drafts.second_solution(flat, layout.sat_cages(), DRAFT_BUDGET)
                            if got is None:
                                moved = True
                                known = complete  # (then not asked again next move)
                                break
                            layout.restore(snap)
                        if moved:
                            continue
                    if not layout.tighten():
                        break
                    continue
                # Loosen around a stuck cell; some cages can't change, so try a few.
                # A draft stuck with many open cells needs several changes:
                # make them in one go instead of one judge per change.
                cells = sorted(verdict.cells)
                shuffle(rng, cells)
                wanted = 1 + len(cells) // (LOOSEN_SPREAD * size)
                done = 0
                for i in cells[:6 * wanted]:
                    if layout.loosen(divmod(i, size)):
                        done += 1
                        if done == wanted:
                            break
                if not done:
                    break
        raise _OutOfBudget

    @staticmethod
    def _rule_out(layout: _Layout, flat: list[int], other: list[int]) -> bool:
        """Loosen a cage where ``other`` (a second solution of the draft) differs from the
        square ``flat``, preferring a loosening that ``other`` no longer fits: a loosening
        it survives (another op with the same value on it, a split that keeps swapped
        cells together) left SAT to find the same ambiguity again, a draft later. Each of
        up to six such cells is tried ``RULE_OUT_TRIES`` times (each try undone). A
        loosening that adds a single-cell cage is kept only when no other one rules
        ``other`` out (splits rule out more, and would otherwise raise the share of
        singles); failing all that, the first loosening found is kept. False when no
        cage there can be loosened."""
        size = layout.n
        cells = [i for i in range(size * size) if other[i] != flat[i]]
        shuffle(layout.rng, cells)
        start = layout.snapshot()
        singles = sum(1 for c in layout.cages if len(c) == 1)
        first = lonely = None
        for i in cells[:6] * RULE_OUT_TRIES:
            if not layout.loosen(divmod(i, size)):
                continue
            if not layout.admits(other, cells):
                if sum(1 for c in layout.cages if len(c) == 1) <= singles:
                    return True
                if lonely is None:
                    lonely = layout.snapshot()
            elif first is None:
                first = layout.snapshot()
            layout.restore(start)
        if lonely is None and first is None:
            return False
        layout.restore(lonely or first)
        return True

    def _search_small(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
                      attempts: int, moves: int) -> Puzzle | None:
        """``generate`` for grids small enough to list every Latin square (``latin_table``).

        The exact solution set of a draft costs tens of microseconds there, so
        the ladder only ever grades drafts with one solution; a draft with more
        is loosened where its solutions differ, and a draft that grades too easy
        is tightened only by moves that keep it unique.
        """
        hidden = _hidden_ops(rules)

        def solutions(cages: Sequence[tuple[tuple[Cell, ...], str, int]]) -> int:
            acc = -1
            for cells, op, target in cages:
                acc &= _cage_set(size, cells, op, target, hidden)
            return acc

        for square, flat, layout in _tilings(size, rules, level, rng, attempts, _table_square):
            for _ in range(moves):
                cages = layout.cage_specs()
                sols = solutions(cages)
                if sols & (sols - 1):
                    verdict = Stuck(table_open_cells(size, sols))
                else:
                    board = Board.build(size, cages, hidden)
                    verdict = self._judge(board, level, flat, unique=True)
                if isinstance(verdict, Fits):
                    # The table lists every Latin square of this order: its count is exact.
                    return self._finish(size, rules, square, tuple(Cage(*c) for c in cages), verdict,
                                        only_solution(size, sols, flat), board)
                if verdict is TOO_EASY:
                    moved = False
                    for _ in range(TIGHTEN_TRIES):
                        snap = layout.snapshot()
                        if not layout.tighten():
                            break
                        sols = solutions(layout.cage_specs())
                        if not sols & (sols - 1):
                            moved = True
                            break
                        layout.restore(snap)
                    if not moved and not layout.tighten():
                        break
                    continue
                # Loosen around one stuck cell (comparing a few such moves by the solutions
                # they leave cost more than the better pick saved); give up on the square
                # when that cage can't change.
                cells = sorted(verdict.cells)
                shuffle(rng, cells)
                if not cells or not layout.loosen(divmod(cells[0], size)):
                    break
        return None

    def _judge(self, board: Board, level: Level, flat: list[int], unique: bool = False) -> Verdict:
        """``Fits``, ``TOO_EASY``, or ``Stuck`` with the cells to loosen around.

        ``flat`` is the intended solution, row-major; ``unique`` says it is already
        known to be the only one (so no search for a second solution is needed).
        """
        n = board.n
        # Most drafts end too easy (hard, expert) or stuck (easy, medium): verdicts that
        # need no technique counts, so the tiers' fixed point reached plainly tells them.
        if level >= Level.HARD:
            if open_after(board, Level.MEDIUM) == []:
                return TOO_EASY
        elif n > TABLE_MAX and (still := open_after(board, level)):
            return Stuck(still)  # (small grids' drafts are unique, and mostly not stuck)
        elif level == Level.MEDIUM and n <= TABLE_MAX and open_after(board, Level.EASY) == []:
            return TOO_EASY  # (the ladder uses a medium technique only where the easy tier is stuck)
        try:
            if level == Level.EASY:  # (the counted run on lists: ``ladder_solve``'s, which it must equal)
                solved, counts, placed = easy_ladder(board)
                if solved:
                    used = max(map(_tier, counts))
                    return Fits(counts, used) if used == level else TOO_EASY
                return Stuck([i for i in range(n * n) if not placed[i]])
            st = board.new_state(board.geo)
            run = Run()
            top = min(level, Level.HARD)
            solved = ladder_solve(st, top, run)
            if solved:
                used = max(_tier(t) for t in run.counts)
                return Fits(run.counts, used) if used == level else TOO_EASY
            open_cells = [i for i in range(n * n) if not st.placed[i]]
            if level < Level.EXPERT:
                return Stuck(open_cells)
            # Is there a second solution? The ladder's deductions are sound, so the
            # search may start from its candidates and live cage combinations.
            # A bounded search: when it runs out, the trial below decides anyway.
            other = None
            if not unique:
                other, _ = search_solutions(n, list(zip(board.cells, st.live)), limit=1, cand=st.cand,
                                            exclude=[flat], budget=SAT_BUDGET)
            if other:
                return Stuck([i for i in range(n * n) if other[0][i] != flat[i]])
            solved = ladder_solve(st, Level.EXPERT, run)
            if solved:
                return Fits(run.counts, Level.EXPERT)
            return Stuck([i for i in range(n * n) if not st.placed[i]])
        except Contradiction:  # pragma: no cover - the square itself is a solution
            return Stuck(list(range(n * n)))

    def _finish(self, size, rules, square, cages, fits: Fits, proven: bool = False,
                board: Board | None = None) -> Puzzle:
        """The puzzle, once an exact count has proven it unique (``proves_unique``; ``proven``:
        already done for these cages, by SAT or by the table of every Latin square of the
        order); ``board``: the judge's board of these cages, which the rated run may use."""
        counts = fits.counts
        hidden = _hidden_ops(rules)
        flat = [d for row in square for d in row]
        if not proven and not proves_unique(size, [_sat_cage(size, cage, hidden) for cage in cages], flat):  # pragma: no cover - the ladder is sound
            raise GenerationError("internal error: ladder and exact solver disagree on uniqueness")
        level = max(map(_tier, counts))
        # The grade with its rating made at once, and the puzzle once (``rate`` on a puzzle
        # made first gives the same; each ``replace`` cost a small puzzle more than its score).
        # (a hard or expert puzzle needs the run's own search: the run at once would only stop there)
        rating, minutes = _rating(size, [], _board(size, cages, rules) if board is None else board,
                                  at_once=level < Level.HARD)
        return Puzzle(
            variant=self.name, size=size, rules=dict(rules),
            givens=(EMPTY * size,) * size,
            solution=tuple(["".join(map(str, row)) for row in square]),
            grade=Grade(level, score_of(counts, level, size), dict(sorted(counts.items())), True, rating, minutes),
            cages=cages,
        )

    # --- checking -------------------------------------------------------------------

    def validate(self, puzzle: Puzzle) -> list[str]:
        """Rule violations of the solution, the cages and the givens ([] when fine)."""
        n = puzzle.size
        errs: list[str] = []
        grid = _digits(puzzle.solution, n)
        if grid is None:
            errs.append(f"solution must be {n} rows of {n} digits 1..{n}")
        elif not is_latin(grid, n):
            for r in range(n):
                if sorted(grid[r]) != list(range(1, n + 1)):
                    errs.append(f"row {r + 1} does not hold 1..{n} once each")
            for c in range(n):
                if sorted(grid[r][c] for r in range(n)) != list(range(1, n + 1)):
                    errs.append(f"column {c + 1} does not hold 1..{n} once each")
        errs.extend(_cage_problems(puzzle.cages, n))
        allowed = set(puzzle.rules.get("ops", OPS))
        max_cage = puzzle.rules.get("max_cage", DEFAULT_RULES["max_cage"])
        for cage in puzzle.cages:
            where = cage_where(cage.cells)
            if cage.op and cage.op not in allowed:
                errs.append(f"cage at {where} uses {cage.op!r}, which the rules don't allow")
            if len(cage.cells) > max_cage:  # also keeps the exact solver's cage tables small
                errs.append(f"cage at {where} has {len(cage.cells)} cells; the rules allow at most {max_cage}")
            if grid is not None and all(0 <= r < n and 0 <= c < n for r, c in cage.cells):
                got = cage_value(cage.op, [grid[r][c] for r, c in cage.cells])
                if got != cage.target:
                    errs.append(f"cage at {where} should make {cage.target}{cage.op} but makes {got}")
        if len(puzzle.givens) != n or any(len(row) != n for row in puzzle.givens):
            errs.append(f"givens must be {n} rows of {n} characters")
        elif grid is not None:  # the solution's digits as they are written
            errs += given_problems(puzzle.givens, puzzle.solution)
        return errs

    def solutions(self, puzzle: Puzzle, limit: int = 2) -> list[tuple[str, ...]]:
        """Up to ``limit`` solutions, found by the SAT solver (exact)."""
        n = puzzle.size
        hidden = _hidden_ops(puzzle.rules)
        specs = [
            (tuple(r * n + c for r, c in cage.cells),
             cage_assignments(cage.cells, cage.op, cage.target, n, hidden))
            for cage in puzzle.cages
        ]
        for r, row in enumerate(puzzle.givens):
            for c, g in enumerate(row):
                if g != EMPTY:
                    specs.append(((r * n + c,), ((int(g),),)))
        sols = latin_solutions(n, specs, limit)
        return [tuple("".join(str(d) for d in s[r * n:(r + 1) * n]) for r in range(n)) for s in sols]

    def _ladder(self, puzzle: Puzzle, explain: bool):
        n = puzzle.size
        board = _board(n, puzzle.cages, puzzle.rules)
        givens = [(r * n + c, int(g)) for r, row in enumerate(puzzle.givens)
                  for c, g in enumerate(row) if g != EMPTY]
        return run_ladder(board.geo, givens, Level.EXPERT, explain, extra=board)

    def grade(self, puzzle: Puzzle) -> Grade:
        """Grade by the ladder; EXPERT with ``solved=False`` when it gets stuck."""
        res = self._ladder(puzzle, False)
        level = res.level if res.solved else Level.EXPERT
        return self.rate(puzzle, Grade(level, score_of(res.counts, level, puzzle.size),
                                       dict(sorted(res.counts.items())), res.solved))

    def rating_points(self, size: Any, rules: Mapping[str, Any]) -> None:
        """None: rated by the easiest-first run, on a scale (``rating.TIER_REACH``)."""
        return None

    def rate(self, puzzle: Puzzle, grade: Grade) -> Grade:
        """``grade`` with the rating and minutes of the easiest-first run (``bookgen.solve.rated``)."""
        if not grade.solved:
            return grade
        return self._rated(puzzle, grade, _board(puzzle.size, puzzle.cages, puzzle.rules))

    @staticmethod
    def _rated(puzzle: Puzzle, grade: Grade, board: Board) -> Grade:
        """``rate`` on a board of the puzzle's cages built already (the judge's: what it keeps
        besides the cages are caches of their answers)."""
        n = puzzle.size
        givens = [(r * n + c, int(g)) for r, row in enumerate(puzzle.givens) for c, g in enumerate(row) if g != EMPTY]
        rating, minutes = _rating(n, givens, board, at_once=grade.level < Level.HARD)
        return replace(grade, rating=rating, minutes=minutes)

    def explain(self, puzzle: Puzzle) -> tuple[list[Step], tuple[str, ...], bool]:
        """The ladder's steps, the grid it reached, and whether it solved the puzzle."""
        res = self._ladder(puzzle, True)
        return list(res.steps or []), res.grid, res.solved

    # --- drawing --------------------------------------------------------------------

    def draw(self, pen: Pen, puzzle: Puzzle, solved: bool = False) -> None:
        """Thin grid, bold cage outlines as whole runs, a bold frame, clues and digits."""
        n = puzzle.size
        owner = {cell: k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
        for k in range(1, n):
            pen.line(0, k, n, k, weight=THIN)
            pen.line(k, 0, k, n, weight=THIN)
        # Horizontal cage walls on grid line y = r, merged into runs.
        for r in range(1, n):
            c = 0
            while c < n:
                if owner.get((r - 1, c)) != owner.get((r, c)):
                    start = c
                    while c < n and owner.get((r - 1, c)) != owner.get((r, c)):
                        c += 1
                    pen.line(start, r, c, r, weight=BOLD)
                else:
                    c += 1
        for c in range(1, n):
            r = 0
            while r < n:
                if owner.get((r, c - 1)) != owner.get((r, c)):
                    start = r
                    while r < n and owner.get((r, c - 1)) != owner.get((r, c)):
                        r += 1
                    pen.line(c, start, c, r, weight=BOLD)
                else:
                    r += 1
        pen.rect(0, 0, n, n, stroke=BOLD)
        show_ops = bool(puzzle.rules.get("show_ops", True))
        for cage in puzzle.cages if not pen.key else ():  # a key's digits answer the clues
            r, c = min(cage.cells)
            text = _clue(cage, show_ops)
            cap = clue_cap(text)  # the ink starts at the inset: the first glyph's blank lies before it
            pen.text(c + CLUE_INSET - bold_lead(text) * cap / CAP_HEIGHT, r + CLUE_INSET, text, size=cap,
                     bold=True, anchor=TOP_LEFT, clue=True)
        for r in range(n):
            for c in range(n):
                g = puzzle.givens[r][c] if r < len(puzzle.givens) else EMPTY
                if g != EMPTY:
                    pen.text(c + 0.5, r + 0.58, g, size=DIGIT_CAP, bold=True, anchor=CENTER)
                elif solved and puzzle.solution[r][c] != EMPTY:  # a walkthrough draws partial grids
                    pen.text(c + 0.5, r + 0.58, puzzle.solution[r][c], size=DIGIT_CAP, anchor=CENTER)

    # --- identity -------------------------------------------------------------------

    def fingerprint(self, puzzle: Puzzle) -> str:
        """Same for rotations, reflections and transposes; no relabelling, since the
        cages' arithmetic fixes which digit is which. Only what the page shows counts:
        the generator's knobs (``ops``, ``max_cage``, ``singles``) don't make another
        puzzle, hiding the operations does, and hidden operations are not compared."""
        shown = bool(puzzle.rules.get("show_ops", True))

        def cages(move) -> str:
            return repr(sorted((moved_cells(cage.cells, move), cage.op if shown else "", cage.target)
                               for cage in puzzle.cages))

        return grid_fingerprint(f"{self.name}/{puzzle.size}", {"show_ops": shown}, puzzle.givens, False, cages)
    # --- text (``bookgen solve``) ------------------------------------------------------

    def sniff_text(self, text: str) -> int:
        """A legend (``a: 12+``) says KenKen, whatever else the file holds."""
        return 40 if ":" in text else 0

    def parse_text(self, lines: Sequence[_Line], options: dict[str, Any], header: _Line | None,
                   file: str) -> Puzzle:
        """A grid of cage labels and its legend (header removed); ``PuzzleTextError`` when malformed."""
        ops = options.get("ops")
        if isinstance(ops, str) and all(ch in OP_INPUT for ch in ops):  # ops=+-*/
            options = dict(options, ops=[ch for ch in ops])
        return _parse_kenken(self, lines, options, header, file)

    def to_text(self, puzzle: Puzzle) -> str:
        """The puzzle in the text format ``parse_text`` reads (header line included)."""
        n = puzzle.size
        if len(puzzle.cages) > len(CAGE_LABELS):
            raise ValueError(f"a text KenKen has at most {len(CAGE_LABELS)} cages")
        label = {cell: CAGE_LABELS[k] for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
        show = puzzle.rules.get("show_ops", True)
        out = ["kenken" + ("" if show else " ops=" + "".join(puzzle.rules.get("ops", OPS)))]
        out += [" ".join(label[(r, c)] for c in range(n)) for r in range(n)]
        for k, cage in enumerate(puzzle.cages):
            op = ASCII_OPS[cage.op] if show else ""
            out.append(f"{CAGE_LABELS[k]}: {cage.target}{op}")
        return "\n".join(out) + "\n"

    def text_lines(self, puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
        """``rows`` (a state of the puzzle's grid) as a boxed grid with the cage clues."""
        return cage_text_lines(puzzle, rows, ascii)

    def symbol_text(self, symbol: str, ascii: bool = False) -> str:
        """A digit prints as itself."""
        return symbol

    def clue_counts(self, puzzle: Puzzle) -> list[str]:
        """What the puzzle gives, for its one-line description: ``12 cages``."""
        return [f"{len(puzzle.cages)} cages"]

    # --- JSON -----------------------------------------------------------------------

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """``{"rules": ..., "cages": [{"cells": [[r, c], ...], "op": "+", "target": 11}, ...]}``."""
        return {
            "rules": {k: (list(v) if isinstance(v, (list, tuple)) else v)
                      for k, v in sorted(puzzle.rules.items())},
            "cages": [
                {"cells": [[r, c] for r, c in cage.cells], "op": cage.op, "target": cage.target}
                for cage in puzzle.cages
            ],
        }

    def from_json(self, data: Mapping[str, Any]) -> Puzzle:
        """Rebuild a puzzle (grade None) from a book JSON entry; ``ValueError`` when malformed."""
        if not isinstance(data, Mapping):
            raise ValueError("a Calcudoku puzzle must be a JSON object")
        size = data.get("size")
        if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
            raise ValueError(f"Calcudoku 'size' must be a whole number from 3 to 9, not {size!r}")
        n = size
        rules = self.parse_rules(data.get("rules"), n)
        givens = _rows(data.get("givens"), n, "givens", allow_empty=True)
        solution = _rows(data.get("solution"), n, "solution", allow_empty=False)
        cages = cages_from_json(
            data.get("cages"), n, "Calcudoku",
            lambda op: None if op in ("", *OPS) else f"op must be one of + - * / or \"\", not {op!r}",
            lambda t: None if type(t) is int and t >= 0 else f"target must be a whole number, not {t!r}")
        problems = _cage_problems(cages, n)
        if problems:
            raise ValueError(problems[0])
        return Puzzle(
            variant=self.name, size=n, rules=rules, givens=givens, solution=solution,
            grade=None, seed="", cages=cages,
        )


def _tilings(size: int, rules: Mapping[str, Any], level: Level, rng: random.Random, attempts: int,
             draw: Callable[[int, random.Random], list[list[int]]]):
    """Up to ``attempts`` fresh Latin squares (from ``draw``), each with its first caging:
    (square, its digits row-major, the ``_Layout``) for every square whose tiling fits the rules."""
    for _ in range(attempts):
        layout = _Layout(size, draw(size, rng), rules, level, rng)
        if layout.tile():  # (which may shuffle the square's rows and columns)
            square = layout.square
            yield square, [d for row in square for d in row], layout


_QUADS = BoundedMemo(1 << 12)
_PICKS = BoundedMemo(1 << 16)  # ``_Layout._pick_table``'s
_REQUESTS = BoundedMemo(1 << 8)  # ``KenKenVariant.request_rules``' answers


@lru_cache(maxsize=1 << 14)
def _cage_pairs(cells: tuple[Cell, ...]) -> tuple[tuple[tuple[int, int, int], int], ...]:
    """A cage's pairs of cells in one row, ((0, c1, c2), the row's bit), and in one column,
    ((1, r1, r2), the column's bit), for ``_Layout._pair_rects`` (cells sorted: c1 < c2, r1 < r2)."""
    out = []
    for x, (r, c) in enumerate(cells):
        for r2, c2 in cells[x + 1:]:
            if r == r2:
                out.append(((0, c, c2), 1 << r))
            elif c == c2:
                out.append(((1, r, r2), 1 << c))
    return tuple(out)


@lru_cache(maxsize=1 << 10)
def _bit_list(mask: int) -> tuple[int, ...]:
    """The positions of ``mask``'s bits, ascending."""
    return tuple([i for i in range(mask.bit_length()) if mask >> i & 1])


@lru_cache(maxsize=None)
def _perms(n: int) -> tuple[tuple[int, ...], ...]:
    """Every order of ``range(n)`` (``_Layout._reshuffle`` draws one for the rows, one for the columns)."""
    return tuple(permutations(range(n)))


def _quads(square: list[list[int]]) -> tuple[tuple[int, int, int, int], ...]:
    """The cells (flat) of the square's intercalates (2x2 sub-squares ``a b / b a``), rows then
    columns ascending, remembered per square (a 4x4 square is one of 576)."""
    key = tuple(chain.from_iterable(square))
    got = _QUADS.get(key)
    if got is None:
        n = len(square)
        out = []
        wheres = []  # per row, the column of each digit
        for row in square:
            where = [0] * (n + 1)
            for c, d in enumerate(row):
                where[d] = c
            wheres.append(where)
        for r1 in range(n):
            one = square[r1]
            for r2 in range(r1 + 1, n):
                two, where = square[r2], wheres[r2]
                for c1 in range(n):
                    c2 = where[one[c1]]
                    if c2 > c1 and one[c2] == two[c1]:
                        out.append((r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2))
        got = _QUADS.put(key, tuple(out))
    return got


def _table_square(n: int, rng: random.Random) -> list[list[int]]:
    """A Latin square of order ``n`` <= ``TABLE_MAX`` drawn uniformly from ``latin_table``:
    one draw instead of a row-by-row matching (4x4: 1 against 34 microseconds)."""
    flat = latin_table(n)[0][below(rng, len(latin_table(n)[0]))]
    return [list(flat[r * n:(r + 1) * n]) for r in range(n)]


@lru_cache(maxsize=1 << 16)
def _cage_set(n: int, cells: tuple[Cell, ...], op: str, target: int, hidden: tuple[str, ...] | None) -> int:
    """The Latin squares of ``latin_table(n)`` a cage admits (a bit per square)."""
    return cage_set(n, [r * n + c for r, c in cells], cage_assignments(cells, op, target, n, hidden))


def _sat_cage(n: int, cage: Cage, hidden: tuple[str, ...] | None) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """(cell indices, assignments) of a cage, as the SAT solver takes it (from the memo the
    ladder's boards share)."""
    parts = cage_parts(n, cage.cells, cage.op, cage.target, hidden)
    return parts[0], parts[1]


def _rating(n: int, givens: list[tuple[int, int]], board: Board, at_once: bool = True) -> tuple[float, float]:
    """(rating, minutes) of the easiest-first run (``bookgen.solve.rated``) from ``givens``
    (cell index, digit) on a board of the puzzle's cages; ``at_once``: ``rated_run``'s (the
    same steps either way)."""
    if at_once:
        return rated_summary(board.geo, givens, board, n * n)
    steps, _ = rated_run(board.geo, givens, board, at_once=False)
    return rating_of(steps), minutes_of(steps, n * n)


def _tier(name: str) -> Level:
    return TECHNIQUE_LEVEL[name]


def _digits(rows: Sequence[str], n: int) -> list[list[int]] | None:
    if len(rows) != n:
        return None
    out = []
    for row in rows:
        if len(row) != n or any(ch not in "123456789"[:n] for ch in row):
            return None
        out.append([int(ch) for ch in row])
    return out


def _rows(value: Any, n: int, name: str, allow_empty: bool) -> tuple[str, ...]:
    ok = "123456789"[:n] + (EMPTY if allow_empty else "")
    if (not isinstance(value, list) or len(value) != n
            or not all(isinstance(row, str) and len(row) == n and all(ch in ok for ch in row)
                       for row in value)):
        what = "digits or '.'" if allow_empty else "digits"
        raise ValueError(f"Calcudoku {name!r} must be {n} strings of {n} {what} (1..{n})")
    return tuple(value)


def _cage_problems(cages: Sequence[Cage], n: int) -> list[str]:
    """Why the cages are not a partition of connected, well-formed cages ([] when fine)."""
    return cage_problems(cages, n, _op_problems)


def _op_problems(cage: Cage, where: str) -> list[str]:
    """What is wrong with one cage's operation and target."""
    errs = []
    if cage.op not in ("", *OPS):
        errs.append(f"cage at {where} has an unknown op {cage.op!r}")
    elif cage.op == "" and len(cage.cells) != 1:
        errs.append(f"cage at {where} has no op but more than one cell")
    elif cage.op and len(cage.cells) == 1:
        errs.append(f"single-cell cage at {where} must have op \"\"")
    elif cage.op in PAIR_OPS and len(cage.cells) != 2:
        errs.append(f"cage at {where} uses {cage.op!r} but has {len(cage.cells)} cells, not 2")
    if cage.target < 1:
        errs.append(f"cage at {where} has target {cage.target}, which must be positive")
    return errs


KENKEN = KenKenVariant()


# --- text -------------------------------------------------------------------------
# Operation spellings in a KenKen legend.
OP_INPUT = {"+": "+", "-": "-", "\u2212": "-", "*": "*", "x": "*", "X": "*", "\u00d7": "*",
            "/": "/", "\u00f7": "/"}
MAX_TARGET_DIGITS = 7  # a cage of six 9s multiplies to 531441: longer targets can't be made
_LEGEND = re.compile(
    r"\s*(?P<label>[A-Za-z0-9])\s*:\s*(?P<target>\d+)\s*"
    r"(?P<op>[+\-\u2212*\u00d7/\u00f7]|[xX](?!\s*:))?\s*[,;]?")


def _parse_kenken(variant: KenKenVariant, lines: Sequence[_Line], options: dict[str, Any],
                  header: _Line | None, file: str) -> Puzzle:
    grid_lines = []
    legend_lines = []
    for line in lines:
        if ":" in line.text:
            legend_lines.append(line)
        elif legend_lines:
            raise PuzzleTextError(file, line.number, _first_col(line.text),
                                  "grid rows must come before the legend (label: target op)")
        else:
            grid_lines.append(line)
    if not grid_lines:
        raise PuzzleTextError(file, lines[0].number, None, "no grid of cage labels before the legend")
    rows: list[list[str]] = []
    where: dict[str, list[tuple[Cell, int, int]]] = {}  # label -> (cell, line, col)
    for r, line in enumerate(grid_lines):
        cells = []
        for k, ch in enumerate(line.text):
            if ch.isspace():
                continue
            if ch not in CAGE_LABELS:
                raise PuzzleTextError(file, line.number, k + 1, f"unknown symbol {ch!r}; KenKen grid "
                                      "cells are cage labels (letters a-z, A-Z or digits), one per cage")
            where.setdefault(ch, []).append(((r, len(cells)), line.number, k + 1))
            cells.append(ch)
        rows.append(cells)
    n = _square(rows, grid_lines, variant.sizes, "KenKen", file)
    clues: dict[str, tuple[int, str, _Line, int]] = {}
    for line in legend_lines:
        pos = 0
        text = line.text
        while pos < len(text):
            m = _LEGEND.match(text, pos)
            if not m or m.end() == pos:
                raise PuzzleTextError(file, line.number, pos + _first_col(text[pos:]),
                                      "expected 'label: target op' such as 'a: 12+', 'b: 2/' or 'c: 3'")
            label, col = m.group("label"), m.start("label") + 1
            if label in clues:
                raise PuzzleTextError(file, line.number, col, f"cage {label!r} has two clues "
                                      f"(the first on line {clues[label][2].number})")
            if label not in where:
                raise PuzzleTextError(file, line.number, col, f"cage {label!r} is not in the grid")
            op = OP_INPUT[m.group("op")] if m.group("op") else ""
            if len(m.group("target")) > MAX_TARGET_DIGITS:
                raise PuzzleTextError(file, line.number, m.start("target") + 1,
                                      f"cage {label!r}: target {clip(m.group('target'))} is far too large "
                                      f"for any cage (at most {MAX_TARGET_DIGITS} digits)")
            clues[label] = (int(m.group("target")), op, line, col)
            pos = m.end()
    for label in sorted(where, key=lambda x: (where[x][0][1], where[x][0][2])):
        if label not in clues:
            _, line_no, col = where[label][0]
            raise PuzzleTextError(file, line_no, col, f"cage {label!r} has no clue; add "
                                  f"'{label}: TARGET OP' to the legend")
    multi = [lb for lb in clues if len(where[lb]) > 1]
    hidden = bool(multi) and all(not clues[lb][1] for lb in multi)
    cages = []
    for label in clues:
        target, op, line, col = clues[label]
        spots = where[label]
        cells = sorted(cell for cell, _, _ in spots)
        stray = disconnected(cells)
        if stray is not None:
            _, line_no, c = next(s for s in spots if s[0] == stray)
            raise PuzzleTextError(file, line_no, c, f"cage {label!r} is not connected: this cell does "
                                  "not touch the rest of the cage (give a separate cage its own label)")
        if len(cells) > MAX_CAGE:  # before any enumeration: its fillings grow as n ** cells
            _, line_no, c = spots[0]
            raise PuzzleTextError(file, line_no, c, f"cage {label!r} has {len(cells)} cells; a Calcudoku "
                                  f"cage has at most {MAX_CAGE} (max_cage)")
        if len(cells) == 1:
            op = ""  # a single cell shows its digit, whatever operation was typed
        elif not op and not hidden:
            raise PuzzleTextError(file, line.number, col, f"cage {label!r} has no operation but others "
                                  "do; give every cage of two or more cells its operation, or none")
        elif op in PAIR_OPS and len(cells) != 2:
            raise PuzzleTextError(file, line.number, col, f"cage {label!r} has {len(cells)} cells, but "
                                  f"{OP_GLYPHS[op]} needs exactly two")
        ops = tuple(options.get("ops", OPS)) if hidden else None
        if hidden and len(cells) > 1:
            fits = [o for o in OPS if cage_assignments(cells, o, target, n)]
            op = fits[0] if fits else "+"
        if not cage_assignments(cells, op, target, n, ops if len(cells) > 1 else None):
            raise PuzzleTextError(file, line.number, col, _impossible(label, cells, op, target, n, hidden))
        cages.append(Cage(tuple(cells), op, target))
    cages.sort(key=lambda cage: cage.cells[0])
    options = dict(options)
    options.setdefault("show_ops", not hidden)
    biggest = max(len(c.cells) for c in cages)
    if biggest > 4:
        options.setdefault("max_cage", min(biggest, 6))
    rules = _rules(variant, options, n, header, file)
    blank = tuple(EMPTY * n for _ in range(n))
    return Puzzle(variant.name, n, rules, blank, blank, cages=tuple(cages))



def _impossible(label: str, cells: Sequence[Cell], op: str, target: int, n: int, hidden: bool) -> str:
    k = len(cells)
    clue = f"{target}{'' if hidden else OP_GLYPHS[op]}"
    base = f"cage {label!r} can't make {clue} with {k} cell{'s' if k > 1 else ''} of digits 1 to {n}"
    if k == 1:
        return f"cage {label!r} is one cell, so its target must be a digit from 1 to {n}, not {target}"
    if op == "+" and not hidden:
        return f"{base}: they add up to at most {_max_sum(cells, n)}"
    if op == "-" and not hidden:
        return f"{base}: two different digits differ by 1 to {n - 1}"
    return base


def _max_sum(cells: Sequence[Cell], n: int) -> int:
    """An upper bound on a cage's sum: the cells of one row (or column) hold different digits."""
    bounds = []
    for axis in (0, 1):
        count: dict[int, int] = {}
        for cell in cells:
            count[cell[axis]] = count.get(cell[axis], 0) + 1
        bounds.append(sum(sum(range(n - k + 1, n + 1)) for k in count.values()))
    return min(bounds)
