"""Futoshiki (also sold as Unequal): a Latin square with inequality signs.

Rules: fill an N x N grid (N = 4..9) so that every row and every column
holds each digit 1..N exactly once. A sign between two neighbouring cells
says which is smaller: it points at the smaller digit (``<`` and ``>``
across, ``∧`` and ``∨`` down). Some digits are given.

Representation: a ``Puzzle`` with givens and solution as digit rows and
``edges`` as ``Edge(a, b, sign)`` with ``a`` before ``b`` (row-major) and
``sign`` ``<`` (a smaller) or ``>`` (a larger), as in the JSON. Rules are
``{}``. Solving is the house engine (``bookgen.solve.houses``) on rows and
columns with the signs plugged in (``bookgen.solve.inequalities``).

Techniques by tier:
- easy: naked and hidden singles; a sign next to a placed digit (``3 < x``:
  x is 4 or more);
- medium: bounds across a sign between open cells, carried along chains
  (``a < b < c``: a is at most N - 2), naked and hidden pairs;
- hard: naked and hidden triples, X-wing, XY-wing;
- expert: one trial on a two-candidate cell refuted by the tiers above;
  never nested.

Generation: a random Latin square, signs on a random share of the
neighbouring pairs, then the givens the other givens give back by a
single; then the remaining givens and the signs, mixed in one random
order (signs a little later), while the target tier still solves. At hard,
until some removal needs the hard tier, a removal it fails on may stay when
one new sign lets it finish while the medium tier still can't. At expert, a
few givens that only one trial brings back go too; before the first, a sign
whose removal one trial on some cell settles, or a given with one new sign
that lets its trial settle. Kept only when graded exactly at the target
level; the SAT solver proves it unique.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import compress
from typing import Any, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import C_, N_
from bookgen.core.pen import THIN, Pen
from bookgen.core.rules import latin_rule
from bookgen.core.symmetry import moved_cells
from bookgen.core.text import PuzzleTextError
from bookgen.core.text import TextLine as _Line
from bookgen.core.text import SignWords, read_sign_grid
from bookgen.core.text import rules_at as _rules
from bookgen.core.text import square as _square
from bookgen.core.types import EMPTY, Edge, Puzzle
from bookgen.core.variant import Technique, techniques_of
from bookgen.solve.houses import (
    Contradiction, Extra, Geometry, Run, State, asked_once, closure, drop_singles, geometry,
    fits, may_try, merged_ladder, rival_for, run_ladder, settles, solve, trial_cell, used_signs,
)
from bookgen.solve.inequalities import TECHNIQUES, easy_ladder, extra_for, rated_whole, sign_clauses, sign_groups
from bookgen.solve.latin import random_latin_square
from bookgen.solve.packed import signs_come_back
from bookgen.variants.binarygrid import all_edges
from bookgen.variants.gridparts import edges_from_json, given_count
from bookgen.variants.housegrid import GIVEN_FILL, Draft, HouseGrid, check_digits, digit_rows, technique_texts

SIZES: tuple[int, ...] = (4, 5, 6, 7, 8, 9)
ATTEMPTS = 400         # fresh squares per puzzle (5x5 expert: about 1 in 30 grades expert)
SIGN_SHARE = 0.4        # of the neighbouring pairs that start with a sign, before pruning
# A 5x5 at hard starts with fewer: more signs are left for the carve's mend (``_mend``), which
# makes hard grades come sooner; a 7x7 keeps the usual share, which bounds its slowest puzzles.
HARD_SIGN_SHARE = {5: 0.3}
SIGN_LAG = 0.5          # how much later than givens signs come up for removal (0: mixed evenly)
EXPERT_EXTRA = 3
# The hardest level each size reaches reliably (measured; see tests and bench).
MAX_LEVEL: dict[int, Level] = {4: Level.HARD}  # no 4x4 in 200 grids needed a trial
# Signs as typed: across (< >) and down (^ v, or ∧ ∨): the sign points at the smaller cell.
ACROSS = {"<": "<", ">": ">"}
DOWN = {"^": "<", "\u2227": "<", "v": ">", "V": ">", "\u2228": ">"}
# Futoshiki's own wording of a misplaced sign (shorter than the binary grids').
TEXT_WORDS = SignWords(sign_line_first="a line of \u2227/\u2228 signs must stand between two rows of cells",
                       sign_lines_twice="a line of \u2227/\u2228 signs must stand between two rows of cells",
                       not_under="this sign is not under a cell of the row above; put it directly under "
                                 "the cell it joins",
                       no_left="a sign must stand between two cells",
                       side_by_side="a sign must stand between two cells")


def _cell(ch: str) -> str | None:
    """A digit from 1 up or ``.`` as typed (``0`` is no cell: ``_unknown`` says why)."""
    return ch if ch == EMPTY or (ch.isdigit() and ch != "0") else None


def _unknown(ch: str) -> str:
    if ch == "0":
        return "Futoshiki digits start at 1; use . for an empty cell"
    return (f"unknown symbol {ch!r}; Futoshiki cells are digits or . (empty), with < or > between cells "
            "and ^ or v below")

TECHNIQUE_TEXT: dict[str, tuple[str, str]] = technique_texts(
    TECHNIQUES.explained, after={"sign_known": "hidden_single", "sign_bounds": "hidden_single"})
LEVELS = merged_ladder(TECHNIQUES).tier  # the ladder's tiers, as it states them


# The title in the grammatical cases sentences need (the catalogs inflect it: ``i18n.name_forms``).
NAME_CASES = (C_("gen", "Futoshiki"), C_("acc", "Futoshiki"))

class FutoshikiVariant(HouseGrid):
    """Futoshiki on 4x4 to 9x9 grids; stateless."""

    name = "futoshiki"
    aliases: tuple[str, ...] = ("unequal", "inequality")
    title = N_("Futoshiki")
    rules_text: tuple[str, ...] = (
        N_("Fill the grid so that every row and every column holds each digit exactly once."),
        N_("A sign between two cells points at the smaller digit: in 2 < 5 the point faces the 2."),
        N_("Some digits are given; each puzzle has exactly one solution, reachable by logic alone."),
    )
    techniques: tuple[Technique, ...] = techniques_of(TECHNIQUE_TEXT, LEVELS, leave_out=("locked_candidates",))
    sizes: tuple[int, ...] = SIZES
    easy_rated = staticmethod(rated_whole)
    default_size = 5
    kind = "Futoshiki"
    attempts = ATTEMPTS
    weights = TECHNIQUES.weight
    max_level = MAX_LEVEL

    def rules_for(self, rules: Mapping[str, Any], sizes: Sequence[int] = ()) -> tuple[str, ...]:
        """The rule sentences (no options change them), naming the digits of each of ``sizes``."""
        return (latin_rule(sizes), *self.rules_text[1:]) if sizes else self.rules_text

    # --- generation -----------------------------------------------------------------

    def attempt(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
                options: Mapping[str, Any]) -> Draft | None:
        """A random square with a share of its signs, givens and signs carved together while
        the level's tier still solves it, then graded."""
        n = size
        geo = geometry(n)
        pairs = _PAIRS[n]
        share = HARD_SIGN_SHARE.get(n, SIGN_SHARE) if level == Level.HARD else SIGN_SHARE
        sol = [d for row in random_latin_square(n, rng) for d in row]
        chosen = rng.sample(pairs, round(share * len(pairs)))
        less = [(a, b) if sol[a] < sol[b] else (b, a) for a, b in chosen]
        given, kept = _carve(geo, sol, less, level, rng)
        givens = [(i, sol[i]) for i in range(n * n) if given[i]]
        edges = _edges(kept, n)
        less = _less_of(edges, n)  # in the puzzle's own order, so grading it again agrees
        extra = extra_for(less)
        # (at easy the carve leaves a puzzle the easy rows solve: ``easy_ladder``'s case)
        res = easy_ladder(geo, givens, extra) if level == Level.EASY else None
        if res is None:
            res = run_ladder(geo, givens, Level.EXPERT, extra=extra)
        # At expert, no more trials than the carve takes givens on one (the ladder may try
        # other cells than the carve did): the level's puzzles stay alike.
        if not fits(res, level, EXPERT_EXTRA):
            return None
        puzzle = Puzzle(self.name, n, rules, digit_rows(given, sol, n), digit_rows(None, sol, n), edges=edges)
        return Draft(puzzle, res, geo, givens, (), sol, sign_groups(n, less))

    # --- the house engine's hooks ---------------------------------------------------

    def geometry_of(self, puzzle: Puzzle) -> Geometry:
        """Rows and columns."""
        return geometry(puzzle.size)

    def extra_of(self, puzzle: Puzzle) -> Extra:
        """The signs, for the ladder."""
        return extra_for(_less(puzzle))

    def clauses_of(self, puzzle: Puzzle) -> list[list[int]]:
        """The signs, for the SAT solver."""
        return sign_clauses(puzzle.size, _less(puzzle))

    def extra_problems(self, puzzle: Puzzle) -> list[str]:
        """Signs the solution breaks."""
        problems = []
        for e in puzzle.edges:
            a, b = int(puzzle.answer(e.a)), int(puzzle.answer(e.b))
            if (a < b) != (e.sign == "<"):
                problems.append(f"sign {e.sign!r} between row {e.a[0] + 1}, column {e.a[1] + 1} and "
                                f"row {e.b[0] + 1}, column {e.b[1] + 1} does not hold")
        return problems

    # --- drawing --------------------------------------------------------------------

    def draw(self, pen: Pen, puzzle: Puzzle, solved: bool = False) -> None:
        """Each cell its own box, the boxes ``GAP`` apart as newspapers print them, and each
        sign in the gap between its two cells, clear of the digits and of a given's grey.
        An answer key (``pen.key``) draws the boxes and digits only: the signs are checked
        by the digits."""
        n = puzzle.size
        inset, side = GAP / 2, 1 - GAP
        for r in range(n):
            for c in range(n):
                given = puzzle.givens[r][c] != EMPTY
                pen.rect(c + inset, r + inset, side, side, fill=GIVEN_FILL if given else None, stroke=THIN)
        self.draw_digits(pen, puzzle, solved)
        if not pen.key:
            for e in puzzle.edges:
                draw_sign(pen, e)

    # --- JSON -----------------------------------------------------------------------

    def fingerprint_clues(self, puzzle: Puzzle, move) -> str:
        """Each sign as (smaller cell, larger cell) after ``move``: a turned sign still points
        at the smaller digit."""
        pairs = ((e.a, e.b) if e.sign == "<" else (e.b, e.a) for e in puzzle.edges)
        return repr(sorted((move(lo), move(hi)) for lo, hi in pairs))

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """``{"rules": {}, "edges": [{"cells": [[r, c], [r, c]], "sign": "<"}, ...]}``."""
        return {"rules": {},
                "edges": [{"cells": [list(e.a), list(e.b)], "sign": e.sign} for e in puzzle.edges]}

    def from_json(self, data: Mapping[str, Any]) -> Puzzle:
        """Rebuild a puzzle from a book JSON entry; ``ValueError`` says what is malformed."""
        size, rules, givens, solution = self.json_grids(data)
        edges = edges_from_json(data.get("edges", []), size, ("<", ">"))
        return Puzzle(self.name, size, rules, tuple(givens), tuple(solution), edges=tuple(edges))

    # --- text (``bookgen solve``) ------------------------------------------------------

    def sniff_text(self, text: str) -> int:
        """``<`` or ``>`` between cells say Futoshiki (a KenKen legend with ``:`` wins)."""
        return 35 if any(ch in text for ch in "<>\u2227\u2228") else 0

    def parse_text(self, lines: Sequence[_Line], options: dict[str, Any], header: _Line | None,
                   file: str) -> Puzzle:
        """Rows of digits and ``.`` with ``<``/``>`` between cells; a line of ``^``/``v`` between two
        rows puts each sign under the cell it joins to the one below."""
        grid = read_sign_grid(lines, file, _cell, ACROSS, DOWN, _unknown, TEXT_WORDS)
        rows, row_lines = grid.rows, grid.row_lines
        n = _square(rows, row_lines, SIZES, self.title, file)
        check_digits(rows, row_lines, n, self.title, PuzzleTextError, file)
        rules = _rules(self, options, n, header, file)
        blank = tuple(EMPTY * n for _ in range(n))
        return Puzzle(self.name, n, rules, tuple("".join(r) for r in rows), blank, edges=tuple(grid.edges))

    def to_text(self, puzzle: Puzzle) -> str:
        """The puzzle in the text format ``parse_text`` reads (header line included)."""
        return self.name + "\n" + "\n".join(self.text_lines(puzzle, puzzle.givens, ascii=True)) + "\n"

    def text_lines(self, puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
        """Cells four columns apart with ``<``/``>`` between them and ``^``/``v`` lines between rows."""
        n = puzzle.size
        right: dict[tuple[int, int], str] = {}
        below: dict[tuple[int, int], str] = {}
        for e in puzzle.edges:
            if e.a[0] == e.b[0]:
                right[e.a] = e.sign
            else:
                below[e.a] = "^" if e.sign == "<" else "v"
        out = []
        for r, row in enumerate(rows):
            out.append("".join((f" {right.get((r, c - 1), ' ')} " if c else "") + ch for c, ch in enumerate(row)))
            if r + 1 < n:
                out.append("   ".join(below.get((r, c), " ") for c in range(n)).rstrip())
        return out

    def clue_counts(self, puzzle: Puzzle) -> list[str]:
        """``6 givens`` and ``14 signs``."""
        return [f"{given_count(puzzle.givens)} givens", f"{len(puzzle.edges)} signs"]


GAP = 0.26  # between neighbouring cells' boxes, in cells: room for a sign and white either side
SIGN_DEPTH = 0.14  # a sign's extent across the gap, in cells (point to open ends)
SIGN_SPAN = 0.26  # its extent along the gap (from one open end to the other)
SIGN_STROKE = 0.04  # the thickness of its two strokes, in cells


def draw_sign(pen: Pen, edge: Edge) -> None:
    """A chevron in the gap between the two cells, pointing at the smaller one."""
    (r1, c1), (r2, c2) = edge.a, edge.b
    # The point faces the smaller cell: towards a for '<', towards b for '>'.
    dx, dy = (c2 - c1, r2 - r1) if edge.sign == ">" else (c1 - c2, r1 - r2)
    pen.stamp(("futoshiki-sign", dx, dy), (c1 + c2) / 2 + 0.5, (r1 + r2) / 2 + 0.5,
              lambda p: _draw_chevron(p, dx, dy))


def chevron_points(dx: int, dy: int) -> list[tuple[float, float]]:
    """The outline of a chevron pointing along (dx, dy), centred on the origin: its tip at
    ``SIGN_DEPTH / 2`` ahead, its open ends ``SIGN_SPAN / 2`` to either side behind."""
    half, span, t = SIGN_DEPTH / 2, SIGN_SPAN / 2, SIGN_STROKE

    def at(along: float, across: float) -> tuple[float, float]:
        return (along * dx + across * dy, along * dy + across * dx)

    # outer edge tip -> ends, inner edge ends -> tip, all inside the depth x span box
    return [at(half, 0.0), at(-half, span), at(-half, span - t * 1.4), at(half - t * 1.6, 0.0),
            at(-half, -span + t * 1.4), at(-half, -span)]


def _draw_chevron(pen: Pen, dx: int, dy: int) -> None:
    """A filled chevron pointing along (dx, dy), centred on the origin."""
    pen.polygon(chevron_points(dx, dy), fill=0.0)


def _carve(geo: Geometry, sol: Sequence[int], less: Sequence[tuple[int, int]], level: Level,
           rng: random.Random, plain: bool = False) -> tuple[list[bool], list[tuple[int, int]]]:
    """Givens and signs both removed in one random order (signs a little later), while the
    target tier still solves; at expert a given only one trial brings back may also go.
    Givens the other givens give back at once by a single go first, in that order, without
    the ladder: that test is a few masks, the ladder's a full run.

    A plain carve mostly ends with nothing the target level needs (the hard and expert
    tiers are rarely the only way on): where the hard tier fails on a removal that leaves
    the puzzle unique, a new sign (``_mend``) or a trial on another cell (``trial_cell``)
    may turn it into a removal only the target level takes.

    Mixing the two, rather than all givens before any sign, grades at hard more often
    and still leaves more signs than givens.

    ``plain``: at easy, every given asked only until it comes back and each sign's ``used``
    from a solve of its own, the version this must equal (tests/test_futoshiki_rated.py).
    """
    n = geo.n
    signs = set(less)
    # Signs tend to come later, so most puzzles keep more signs than givens, as players expect.
    keyed = [(rng.random(), "g", i) for i in range(n * n)] + [(SIGN_LAG + rng.random(), "s", x) for x in less]
    clues = [(kind, x) for _, kind, x in sorted(keyed, key=lambda t: t[0])]
    # First, without running the ladder, every given the other givens give back at once by a
    # single (sound whatever the signs say); the ladder then only judges the rest.
    given = drop_singles(geo, sol, [x for kind, x in clues if kind == "g"]).given
    clues = [(kind, x) for kind, x in clues if kind == "s" or given[x]]
    tier = min(level, Level.HARD)
    trials: list[tuple[int, int]] = []
    # The easy tier's failures cost less than asking the SAT solver.
    rival = rival_for(geo, _SIGN_PAIRS[n]) if tier > Level.EASY else None

    extras: dict[frozenset, Any] = {}  # per set of signs, its extra: made once (the signs change seldom)
    every_given = [(i, sol[i]) for i in range(n * n)]

    def state() -> tuple[list[tuple[int, int]], Any]:
        key = frozenset(signs)
        extra = extras.get(key)
        if extra is None:
            extra = extras[key] = extra_for(sorted(signs))
        return list(compress(every_given, given)), extra  # (the givens in cell order)

    def easy_used(givens: list[tuple[int, int]], extra: Any) -> set[tuple[int, int]] | None:
        # ``used_signs`` at easy: the easy tier is singles and signs next to a placed digit, on
        # bitboards (``closure`` runs nothing else), here on packed layouts (tests/test_packed.py)
        tracked: set[tuple[int, int]] = set()
        return tracked if signs_come_back(geo, givens, -1, extra.less, tracked) else None

    # The signs the last full solve of the current clues used (None: not known). Any other
    # sign goes without a test: the same steps still solve the puzzle without it.
    used: set[tuple[int, int]] | None = None
    # At hard: whether the clues left already need the hard tier (they do from then on: fewer
    # clues never make a puzzle easier), else a removal the hard tier can't take may be
    # mended by a new sign (``_mend``).
    mend = level == Level.HARD
    for at, (kind, x) in enumerate(clues):
        if kind == "s" and not trials:
            if used is None:
                givens, extra = state()
                used = easy_used(givens, extra) if tier == Level.EASY else used_signs(geo, givens, tier, extra)
            if used is not None and x not in used:
                signs.discard(x)
                continue
        if kind == "g":
            given[x] = False
        else:
            signs.discard(x)
        givens, extra = state()
        if kind == "s" and tier > Level.EASY:
            extra = replace(extra, used=set())  # a sign that goes: its solve's signs are the new ``used``
        # A removed given only has to come back: the rest then solves as before (a tier's
        # deductions only grow with more placed), so the ladder may stop at it.
        until = x if kind == "g" else -1
        other = asked_once(lambda: rival.differs(sol, givens, until, extra.less)) if rival else None
        stalled = None
        run = Run()
        tracked = None
        if trials:
            done = settles(geo, givens, trials, until, extra, other)
        elif tier == Level.EASY:  # (``closure``'s verdict, its plain version: see ``easy_used``)
            # A given whose next clue is a sign: asked for the whole solve, not only until it
            # comes back (one that comes back leaves the rest solving as before: the same
            # verdict), that solve's signs the sign's ``used`` (``easy_used`` would solve again).
            tracked = set() if kind == "s" or not plain and at + 1 < len(clues) and clues[at + 1][0] == "s" else None
            done = signs_come_back(geo, givens, until if tracked is None else -1, extra.less, tracked)
        else:
            done, stalled = closure(geo, givens, tier, until, extra, run, other)
        if done:
            if tier == Level.EASY:
                used = tracked
            else:
                used = extra.used if kind == "s" and not trials else None
            if mend and _hard_used(run):
                mend = False
            continue
        if mend and stalled is not None:
            sign = _mend(geo, sol, givens, signs, stalled, until, rng, stalled_hard=_hard_used(run))
            if sign is not None:
                signs.add(sign)
                mend, used = False, None
                continue
        # A trial goes on from where the hard tier stalled (none: no trial settles it).
        if kind == "g" and may_try(level, trials, EXPERT_EXTRA, stalled):
            base = stalled.copy() if stalled is not None else None  # ``settles`` uses ``stalled`` up
            if settles(geo, givens, [*trials, (x, sol[x])], extra=extra, rival=other, stalled=stalled):
                trials.append((x, sol[x]))
                continue
            stalled = base.copy() if base is not None else None
            # The first trial is what an expert carve rarely finds: one new sign may let it settle.
            sign = _mend(geo, sol, givens, signs, base, x, rng, (x, sol[x])) if base is not None else None
            if sign is not None:
                signs.add(sign)
                trials.append((x, sol[x]))
                continue
        if level == Level.EXPERT and not trials and stalled is not None:
            cell = trial_cell(geo, sol, givens, extra, stalled, rng)
            if cell is not None:
                trials.append((cell, sol[cell]))
                used = None
                continue
        if kind == "g":
            given[x] = True
        else:
            signs.add(x)
    return given, sorted(signs)


def _mend(geo: Geometry, sol: Sequence[int], givens: Sequence[tuple[int, int]], signs: set[tuple[int, int]],
          stalled: State, until: int, rng: random.Random, trial: tuple[int, int] | None = None,
          stalled_hard: bool = True) -> tuple[int, int] | None:
    """A sign (smaller cell, larger cell) not among ``signs`` that makes the hard tier finish
    from ``stalled`` (where it stalled on ``givens`` and ``signs``: unique, but a clue too few
    for it) while the medium tier still fails on the whole puzzle; None when no sign does.
    With ``trial`` (cell, digit): a sign after which the hard tier still stalls but one trial
    on that cell settles the puzzle (``settles``).

    A 5x5 carve at hard mostly ends with every clue it removed taken by the medium tier
    (thrown away), and at expert without any given that only a trial brings back; where the
    hard tier fails on a removal, one sign more often turns that removal into what the level
    needs, which the carve then keeps.

    Without ``trial`` the carve's clues before this removal are ones the medium tier solves;
    ``stalled_hard`` says whether the hard tier was used on the way to ``stalled``. The
    ladder takes a hard step only where the medium tier is stuck, and with more known the
    medium tier only gets further, so: a hard step after the new sign means the medium tier
    fails from scratch too; none, and none before either, means it finishes (the removed
    clue back, the rest solves). Only the case in between needs the medium tier run.
    """
    n = geo.n
    spare = [(a, b) if sol[a] < sol[b] else (b, a) for a, b in _PAIRS[n]]
    spare = [p for p in spare if p not in signs]
    rng.shuffle(spare)
    cand = stalled.cand
    for a, b in spare:
        ca, cb = cand[a], cand[b]
        # A sign that strikes nothing where the ladder stalled leaves it stalled.
        if ca.bit_length() < cb.bit_length() and (ca & -ca) < (cb & -cb):
            continue
        extra = extra_for(sorted(signs | {(a, b)}))
        st = stalled.copy()
        st.extra = extra
        run = Run()
        try:
            done = solve(st, Level.HARD, run, until)
        except Contradiction:  # pragma: no cover - the sign holds in the solution
            continue
        if trial is None:
            if not done:
                continue
            if _hard_used(run) or stalled_hard and not closure(geo, givens, Level.MEDIUM, -1, extra)[0]:
                return a, b
        elif not done and settles(geo, givens, [trial], extra=extra, stalled=st):
            return a, b
    return None


def _hard_used(run: Run) -> bool:
    """Whether a ladder run took a step of the hard tier."""
    return any(LEVELS[name] == Level.HARD for name in run.counts)


# Every neighbouring pair of cells (row-major, first cell first), per size.
_PAIRS = {n: tuple((a[0] * n + a[1], b[0] * n + b[1]) for a, b in all_edges(n)) for n in SIZES}
# Every (smaller, larger) pair of neighbouring cells a sign can join, per size: the rival's switches.
_SIGN_PAIRS = {n: tuple(sorted(p for a, b in all_edges(n) for x, y in ((a[0] * n + a[1], b[0] * n + b[1]),)
                               for p in ((x, y), (y, x)))) for n in SIZES}


def _edges(less: Sequence[tuple[int, int]], n: int) -> tuple[Edge, ...]:
    out = []
    for small, big in less:
        a, b = min(small, big), max(small, big)
        out.append(Edge(divmod(a, n), divmod(b, n), "<" if a == small else ">"))
    return tuple(sorted(out, key=lambda e: (e.a, e.b)))


def _less(puzzle: Puzzle) -> list[tuple[int, int]]:
    return _less_of(puzzle.edges, puzzle.size)


def _less_of(edges: Sequence[Edge], n: int) -> list[tuple[int, int]]:
    """(smaller cell, larger cell) per sign, in the edges' order."""
    out = []
    for e in edges:
        a, b = e.a[0] * n + e.a[1], e.b[0] * n + e.b[1]
        out.append((a, b) if e.sign == "<" else (b, a))
    return out


FUTOSHIKI = FutoshikiVariant()
