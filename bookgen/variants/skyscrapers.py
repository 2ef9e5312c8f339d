"""Skyscrapers (also sold as Towers): a Latin square of building heights, with clues outside.

Rules: fill an N x N grid (N = 4..8) so that every row and every column
holds each height 1..N exactly once. A number outside the grid says how many
buildings are seen from there, looking along that row or column: a building
hides every lower one behind it. Some heights may be given.

Representation: a ``Puzzle`` with digit rows (givens usually all ``.``) and
``clues``, an ``OutsideClues`` of four tuples of N numbers (``top`` and
``bottom`` per column left to right, ``left`` and ``right`` per row top to
bottom; 0 where there is no clue), as in the JSON's ``clues``. Rules are
``{}``. Solving is the house engine (``bookgen.solve.houses``) on rows and
columns with the clues plugged in (``bookgen.solve.skyscrapers``); the page
gives the clues a margin around the grid (``extent``).

Techniques by tier:
- easy: naked and hidden singles; a 1 or an N clue (``sky_edge``); the
  clue-bound ranges (``sky_bounds``: a clue c caps the building k cells in
  at N - c + 1 + k);
- medium: naked and hidden pairs; visibility counting on a line with at
  most three open cells (``sky_count``);
- hard: naked and hidden triples, X-wing, XY-wing; visibility counting on
  any line (``sky_lines``);
- expert: one trial on a cell with two candidates, refuted by the tiers
  above; never nested.

Generation: a random Latin square and all 4N clues. Where the target tier
(hard at expert) can't solve that, givens are added, each on a cell where
the tier stalled, until it can; then clues are removed in random order
while the tier still solves (a clue the last solve never read goes without
a test), and each given left goes where the tier solves without it or with
up to ``TRADE`` clues back. At expert the first clue the hard tier can't
spare goes when one trial on some cell brings the puzzle back (or, if none
did, one more clue or given after the carve). Kept only when graded exactly
at the target level with at most ``EXPERT_EXTRA`` trials; the SAT solver
proves it unique.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_
from bookgen.core.pen import CENTER, Pen
from bookgen.core.rules import sized_rule
from bookgen.core.text import PuzzleTextError
from bookgen.core.text import TextLine as _Line
from bookgen.core.text import tokens as _tokens
from bookgen.core.text import rules_at as _rules
from bookgen.core.types import EMPTY, OutsideClues, Puzzle
from bookgen.core.variant import Extent, Technique, techniques_of
from bookgen.solve.houses import (
    TECHNIQUE_LEVEL, Extra, Geometry, LadderResult, Run, State, closure, fits, geometry, run_ladder, solve, start,
    trial_cell,
)
from bookgen.solve.latin import random_latin_square
from bookgen.solve.latin_table import TABLE_MAX, latin_table, only_solution
from bookgen.solve.latin_table import open_cells as table_open_cells
from bookgen.solve.skyscrapers import (
    SIDES, TECHNIQUES, ambiguous, clue_groups, clue_squares, clue_strike, clues_of, easy_ladder, extra_for,
    rated_whole,
    sight_clauses, stall_struck, table_solutions,
)
from bookgen.variants.gridparts import given_count
from bookgen.variants.housegrid import DIGIT_CAP, Draft, HouseGrid, check_digits, digit_rows, technique_texts

SIZES: tuple[int, ...] = (4, 5, 6, 7, 8)
ATTEMPTS = 200
EXPERT_EXTRA = 3       # trials the expert ladder may take, at most
TRADE = 3              # clues a given may be traded for
MARGIN = 0.8           # the band around the grid for the clues, in cells
# A clue's cap height, in cells: the cells' digits' own, bold, so the clues keep every floor
# the digits keep (the answer key and walkthrough thumbnails print them too, at 6 pt or more).
CLUE_CAP = DIGIT_CAP
# The hardest level each size reaches reliably (measured; see tests and bench).
MAX_LEVEL: dict[int, Level] = {4: Level.HARD}  # a 4x4 rarely needs a trial
NO_CLUE = "0.-"        # how a missing clue may be typed
# Why the carve may go on from fixpoints, take the techniques in any order and skip the
# trades at every tier (``_carve``'s shortcuts): the clues stand outside the houses, so the
# house ladder's uniqueness techniques (unique rectangles and loops, BUG+1: the only ones
# that assume one solution) never run here (``houses._plain``). Every technique left is a deduction from the rules
# that only strikes candidates, and on a position with fewer candidates (still holding the
# solution) it finds what it found, or the tier's smaller patterns or singles do (a naked
# triple shrunk to a pair, a turbot fish whose link became a single). So a tier's fixpoint
# is the same whatever the order of its steps, and more clues or givens give a fixpoint
# inside it (tests/test_sky_carve.py compares whole carves with the plain version).
CONFLUENT = True
# The grids and tiers ``_carve`` carves by ``_small_carve`` (each removal first asked whether it
# leaves a second solution, the tier asked once at the end): only where that measured faster than
# a solve per removal, the same carves either way. Not at medium above 4x4: the medium tier fails
# on many unique removals there, and each failure costs a bisection (figures: docs/benchmarks.md,
# skyfut).
SMALL_CARVE: dict[int, frozenset[Level]] = {4: frozenset({Level.EASY, Level.MEDIUM, Level.HARD}),
                                            5: frozenset({Level.EASY, Level.HARD}), 6: frozenset({Level.HARD})}

TECHNIQUE_TEXT: dict[str, tuple[str, str]] = technique_texts(
    TECHNIQUES.explained, after={"sky_edge": "hidden_single", "sky_bounds": "hidden_single", "sky_count": "hidden_pair",
                                 "sky_lines": "xy_wing"})
LEVELS = {**TECHNIQUE_LEVEL, **TECHNIQUES.tier}


def clue_dict(clues: OutsideClues) -> dict[str, tuple[int, ...]]:
    """side -> N numbers."""
    return {side: tuple(getattr(clues, side)) for side in SIDES}


class SkyscrapersVariant(HouseGrid):
    """Skyscrapers on 4x4 to 8x8 grids; stateless."""

    name = "skyscrapers"
    aliases: tuple[str, ...] = ("towers", "skyscraper")
    title = N_("Skyscrapers")
    rules_text: tuple[str, ...] = (
        N_("Fill the grid with buildings so that every row and every column holds each height exactly once."),
        N_("A number outside the grid says how many buildings you see from there, looking along its row or column: "
           "a taller building hides every lower one behind it."),
        N_("Some heights may be given; each puzzle has exactly one solution, reachable by logic alone."),
    )
    techniques: tuple[Technique, ...] = techniques_of(TECHNIQUE_TEXT, LEVELS)
    sizes: tuple[int, ...] = SIZES
    easy_rated = staticmethod(rated_whole)
    default_size = 5
    kind = "Skyscrapers"
    attempts = ATTEMPTS
    weights = TECHNIQUES.weight
    max_level = MAX_LEVEL

    def rules_for(self, rules: Mapping[str, Any], sizes: Sequence[int] = ()) -> tuple[str, ...]:
        """The rule sentences, naming the heights of each of ``sizes``."""
        if not sizes:
            return self.rules_text
        first = sized_rule(
            sizes,
            N_("Fill the grid with buildings of heights 1 to {last} so that every row and every column holds "
               "each height exactly once."),
            N_("Fill the grid with buildings so that every row and every column holds each height exactly "
               "once ({sizes})."),
            N_("on {grid} grids the heights 1 to {last}"))
        return (first, *self.rules_text[1:])

    def extent(self, size: int, rules: Mapping[str, Any]) -> Extent:
        """The grid and a band of ``MARGIN`` cells on every side for the clues."""
        return Extent(size, size, MARGIN, MARGIN, MARGIN, MARGIN)

    # --- generation -----------------------------------------------------------------

    def attempt(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
                options: Mapping[str, Any]) -> Draft | None:
        """A random square with every clue, carved (clues and givens) while the level's tier
        still solves it, then graded; the engine's ``generate`` proves and ships it."""
        n = size
        geo = geometry(n)
        square = random_latin_square(n, rng)
        sol = [d for row in square for d in row]
        res = None
        if level in SMALL_CARVE.get(n, ()):  # (``_carve``'s way there, with its grade)
            given, clues, res = _small_carve(geo, sol, clues_of(square), level, rng)
        else:
            given, clues = _carve(geo, sol, clues_of(square), level, rng)
        givens = [(i, sol[i]) for i in range(n * n) if given[i]]
        if res is None:
            extra = extra_for(n, clues)
            # (at easy the carve leaves a puzzle the easy rows solve: ``easy_ladder``'s case)
            if level == Level.EASY:
                res = easy_ladder(geo, givens, extra)
            if res is None:
                res = run_ladder(geo, givens, Level.EXPERT, extra=extra)
        if not fits(res, level, EXPERT_EXTRA):
            return None
        puzzle = Puzzle(self.name, n, rules, digit_rows(given, sol, n), digit_rows(None, sol, n),
                        clues=OutsideClues(**clues))
        return Draft(puzzle, res, geo, givens, (), sol, clue_groups(n, clues) if n > TABLE_MAX else ())

    def proves(self, draft: Draft) -> bool:
        """Up to ``TABLE_MAX``, by the table of every Latin square (``table_solutions``: the
        squares that hold the givens and show the clues, exactly); SAT above (the plain
        version, ``HouseGrid.proves``; tests/test_sky_carve.py compares them)."""
        n = draft.puzzle.size
        if n > TABLE_MAX:
            return super().proves(draft)
        return only_solution(n, table_solutions(n, draft.givens, clue_dict(_clues(draft.puzzle))), draft.solution)

    # --- the house engine's hooks ---------------------------------------------------

    def geometry_of(self, puzzle: Puzzle) -> Geometry:
        """Rows and columns."""
        return geometry(puzzle.size)

    def extra_of(self, puzzle: Puzzle) -> Extra:
        """The clues, for the ladder."""
        return extra_for(puzzle.size, clue_dict(_clues(puzzle)))

    def clauses_of(self, puzzle: Puzzle) -> list[list[int]]:
        """The clues, for the SAT solver."""
        return sight_clauses(puzzle.size, clue_dict(_clues(puzzle)))

    def extra_problems(self, puzzle: Puzzle) -> list[str]:
        """Clues the solution does not show."""
        grid = [[int(ch) for ch in row] for row in puzzle.solution]
        shown = clues_of(grid)
        problems = []
        for side, want in clue_dict(_clues(puzzle)).items():
            for k, clue in enumerate(want):
                if clue and shown[side][k] != clue:
                    where = f"{'column' if side in ('top', 'bottom') else 'row'} {k + 1}"
                    problems.append(f"the {side} clue {clue} of {where} sees {shown[side][k]} buildings")
        return problems

    # --- drawing --------------------------------------------------------------------

    def draw(self, pen: Pen, puzzle: Puzzle, solved: bool = False) -> None:
        """Shaded givens, thin cell lines, a bold frame, and the clues in the band around it."""
        n = puzzle.size
        self.draw_latin_grid(pen, puzzle, solved)
        if pen.key:  # an answer key shows the heights; the clues are checked by them
            return
        clues = _clues(puzzle)
        mid = MARGIN / 2
        for k in range(n):
            for clue, x, y in ((clues.top[k], k + 0.5, -mid), (clues.bottom[k], k + 0.5, n + mid),
                               (clues.left[k], -mid, k + 0.5), (clues.right[k], n + mid, k + 0.5)):
                if clue:
                    pen.text(x, y, str(clue), CLUE_CAP, bold=True, anchor=CENTER, clue=True)

    # --- JSON -----------------------------------------------------------------------

    def fingerprint_clues(self, puzzle: Puzzle, move) -> str:
        """Each clue as the cell just outside the grid it stands on, after ``move``, with its
        number: the grid's symmetries are affine maps of (row, column), so they carry the ring
        of cells around the grid onto itself and a clue moves with its line."""
        n = puzzle.size
        clues = _clues(puzzle)
        at = []
        for k in range(n):
            for clue, cell in ((clues.top[k], (-1, k)), (clues.bottom[k], (n, k)),
                               (clues.left[k], (k, -1)), (clues.right[k], (k, n))):
                if clue:
                    at.append((move(cell), clue))
        return repr(sorted(at))

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """``{"rules": {}, "clues": {"top": [...], "bottom": [...], "left": [...], "right": [...]}}``."""
        return {"rules": {}, "clues": {side: list(v) for side, v in clue_dict(_clues(puzzle)).items()}}

    def from_json(self, data: Mapping[str, Any]) -> Puzzle:
        """Rebuild a puzzle from a book JSON entry; ``ValueError`` says what is malformed."""
        size, rules, givens, solution = self.json_grids(data)
        raw = data.get("clues")
        if not isinstance(raw, Mapping):
            raise ValueError("clues must be {'top': [...], 'bottom': [...], 'left': [...], 'right': [...]}")
        clues = {}
        for side in SIDES:
            row = raw.get(side)
            if not isinstance(row, list) or len(row) != size or \
                    not all(type(v) is int and 0 <= v <= size for v in row):
                raise ValueError(f"clues.{side} must be {size} whole numbers from 0 (no clue) to {size}")
            clues[side] = tuple(row)
        return Puzzle(self.name, size, rules, tuple(givens), tuple(solution), clues=OutsideClues(**clues))

    # --- text (``bookgen solve``) ------------------------------------------------------

    def sniff_text(self, text: str) -> int:
        """Never: its digits look like a Sudoku's, and only the shape of its lines (which the
        guess does not see) tells them apart, so a file says ``skyscrapers`` on its first line."""
        return 0

    def parse_text(self, lines: Sequence[_Line], options: dict[str, Any], header: _Line | None,
                   file: str) -> Puzzle:
        """The top clues, then each row as its left clue, N cells and its right clue, then the
        bottom clues; numbers apart by spaces, ``.`` (or ``0``, ``-``) for no clue or an empty cell."""
        n = len(lines) - 2
        if n not in SIZES:
            raise PuzzleTextError(file, lines[-1].number, None,
                                  f"a Skyscrapers puzzle is a line of top clues, N rows and a line of bottom "
                                  f"clues, N from 4 to 8; this has {len(lines)} lines")
        tokens = [_tokens(line) for line in lines]
        for line, row, want in zip(lines, tokens, [n] + [n + 2] * n + [n]):
            if len(row) != want:
                what = "clues" if want == n else "entries (left clue, cells, right clue)"
                raise PuzzleTextError(file, line.number, row[-1][0] if row else None,
                                      f"this line has {len(row)} entries; it needs {want} {what}")

        def clue(line: _Line, col: int, text: str) -> int:
            if text in NO_CLUE:
                return 0
            if not text.isdigit() or not 1 <= int(text) <= n:
                raise PuzzleTextError(file, line.number, col, f"clue {text!r}: a clue is a number from 1 to {n}, "
                                      "or . for none")
            return int(text)

        rows = []
        for line, row in zip(lines[1:-1], tokens[1:-1]):
            cells = []
            for col, text in row[1:-1]:
                if text in ".0":
                    cells.append(EMPTY)
                elif len(text) == 1 and text.isdigit():
                    cells.append(text)
                else:
                    raise PuzzleTextError(file, line.number, col, f"unknown cell {text!r}; Skyscrapers cells "
                                          "are heights 1 to N, or . for an empty cell")
            rows.append(cells)
        check_digits(rows, lines[1:-1], n, self.title, PuzzleTextError, file)
        clues = {"top": tuple(clue(lines[0], c, t) for c, t in tokens[0]),
                 "bottom": tuple(clue(lines[-1], c, t) for c, t in tokens[-1]),
                 "left": tuple(clue(line, *row[0]) for line, row in zip(lines[1:-1], tokens[1:-1])),
                 "right": tuple(clue(line, *row[-1]) for line, row in zip(lines[1:-1], tokens[1:-1]))}
        rules = _rules(self, options, n, header, file)
        blank = tuple(EMPTY * n for _ in range(n))
        return Puzzle(self.name, n, rules, tuple("".join(r) for r in rows), blank, clues=OutsideClues(**clues))

    def to_text(self, puzzle: Puzzle) -> str:
        """The puzzle in the text format ``parse_text`` reads (header line included)."""
        return self.name + "\n" + "\n".join(self.text_lines(puzzle, puzzle.givens, ascii=True)) + "\n"

    def text_lines(self, puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
        """The top clues, each row between its left and right clue, the bottom clues."""
        clues = _clues(puzzle)

        def show(v: int) -> str:
            return str(v) if v else "."

        out = ["  " + " ".join(map(show, clues.top))]
        for r, row in enumerate(rows):
            out.append(" ".join([show(clues.left[r]), *row, show(clues.right[r])]))
        out.append("  " + " ".join(map(show, clues.bottom)))
        return out

    def clue_counts(self, puzzle: Puzzle) -> list[str]:
        """``11 clues`` and ``0 givens``."""
        clues = _clues(puzzle)
        return [f"{sum(1 for side in SIDES for v in getattr(clues, side) if v)} clues",
                f"{given_count(puzzle.givens)} givens"]


def _clues(puzzle: Puzzle) -> OutsideClues:
    n = puzzle.size
    return puzzle.clues or OutsideClues((0,) * n, (0,) * n, (0,) * n, (0,) * n)


def _carve(geo: Geometry, sol: Sequence[int], clues: dict[str, tuple[int, ...]], level: Level,
           rng: random.Random, plain: bool = not CONFLUENT) -> tuple[list[bool], dict[str, tuple[int, ...]]]:
    """Which cells are given and which clues stay: givens added where the target tier needs
    them, then clues and givens removed in random order while it still solves, and each
    given left traded for up to ``TRADE`` clues back where that still solves (players expect
    clues, not givens); at expert, one more clue or given goes where a single trial brings it
    back.

    Shortcuts, each resting on ``CONFLUENT`` or on the ladder's soundness: a removal's solve
    starts from the tier's fixpoint of the givens and the clues already found needed, a
    given's from the fixpoint of the clues and the givens found needed (``_Fixpoint``); the
    solves take the techniques in the order that settles soonest (``verdict_view``); the
    trades, which can't succeed, only make their random draws (``_futile_trades``); and at
    expert a removal that leaves the puzzle with a second solution (``ambiguous``, SAT) is
    not tried by a trial, which can't settle it, only its draws are made. ``plain``: none of
    them, the version they must equal (the same givens and clues kept, the same draws;
    tests/test_sky_carve.py)."""
    n = geo.n
    if not plain and level in SMALL_CARVE.get(n, ()):
        return _small_carve(geo, sol, clues, level, rng)[:2]
    tier = min(level, Level.HARD)
    every = [(side, k) for side in SIDES for k in range(n)]
    kept = set(every)
    given = [False] * (n * n)

    side_keys = [(side, tuple(zip(((side, k) for k in range(n)), clues[side]))) for side in SIDES]

    quick = not plain and n <= TABLE_MAX

    def clues_of_keys(keys: set) -> dict[str, tuple[int, ...]]:
        return {side: tuple([c if key in keys else 0 for key, c in pairs]) for side, pairs in side_keys}

    def extra_of(keys: set, used: set | None = None, verdict: bool = not plain) -> Extra:
        return extra_for(n, clues_of_keys(keys), used, verdict)

    def current(used: set | None = None):
        return [(i, sol[i]) for i in range(n * n) if given[i]], extra_of(kept, used)

    def second() -> bool:
        """Whether the givens and clues kept now have a second solution (so no tier solves
        them), where a table answers it at once (``ambiguous``); False elsewhere."""
        return quick and ambiguous(geo, sol, [(i, sol[i]) for i in range(n * n) if given[i]], clues_of_keys(kept))

    def trial(stalled: State) -> bool:
        """Whether one trial on some cell of ``stalled`` (where the hard tier stalled on the
        givens and clues kept now) settles the puzzle (``trial_cell``)."""
        givens, extra = [(i, sol[i]) for i in range(n * n) if given[i]], extra_of(kept, verdict=False)
        stalled.extra = extra  # a trial's wrong digit asks the ladder's own order (``verdict_view``)
        if not plain and ambiguous(geo, sol, givens, clues_of_keys(kept), stalled):
            # A second solution: a trial's wrong digit holds in it, or its right one leaves
            # both (sound techniques strike neither), so none settles it. The draw it makes:
            cells = [i for i in range(n * n) if not stalled.placed[i] and stalled.cand[i].bit_count() == 2]
            rng.shuffle(cells)
            return False
        return trial_cell(geo, sol, givens, extra, stalled, rng) is not None

    def solves(used: set | None = None) -> tuple[bool, Any]:
        givens, extra = current(used)
        return closure(geo, givens, tier, extra=extra)

    def more(st: State, used: set | None = None) -> bool:
        """Go on from ``st`` with the clues kept now (``used``: note the clues read)."""
        st.extra = extra_of(kept, used)
        return solve(st, tier, Run(), fast=True)

    _needed_givens(sol, given, tier, solves, rng, plain)
    added = [i for i in range(n * n) if given[i]]
    fixed = _Fixpoint(geo, sol, given, tier, extra_of(kept)) if not plain and added else None
    for i in added:  # a given added early may be one the later ones make needless
        given[i] = False
        if second() or not (fixed.without(i) if fixed else solves()[0]):
            given[i] = True
            if fixed:
                fixed.keep(i)
    used: set = set()
    solves(used)
    # The tier's fixpoint is the same whatever the order of the steps (``CONFLUENT``): a
    # removal's solve may start from the fixpoint of the givens and of the clues found needed
    # so far (they stay whatever is removed later), and it reads no more clues than
    # ``base_used`` and its own.
    base: State | None = None
    if not plain:
        needed: set = set()
        base_used: set = set()
        done, base = closure(geo, current()[0], tier, extra=extra_of(needed, base_used))
        if done:
            base = None  # the givens alone solve it: no clue is read, none is tried
    order = every[:]
    rng.shuffle(order)
    stale = False  # clues found needed since ``base`` was brought up to date
    for key in order:
        kept.discard(key)
        if key not in used:
            continue  # the last solve never read it: the same steps solve without it
        if level != Level.EXPERT and second():
            kept.add(key)  # (an expert carve goes on: its trial draws by where the tier stalls)
            if base is not None:
                needed.add(key)
                stale = True
            continue
        now: set = set()
        if stale:
            base.extra = extra_of(needed, base_used)
            solve(base, tier, Run(), fast=True)
            stale = False
        if base is not None:
            stalled = base.copy()
            now.update(base_used)
            done = more(stalled, now)
        else:
            done, stalled = solves(now)
        if done:
            used = now
            continue
        # At expert, the first clue the hard tier can't spare goes when one trial brings the
        # puzzle back: taken now, while the board is rich enough to stay unique (after the
        # whole carve hardly any removal is: 25 of 30 5x5 carves found none).
        if level == Level.EXPERT and stalled is not None and trial(stalled):
            break
        kept.add(key)
        if base is not None:
            needed.add(key)
            stale = True
    else:
        if level == Level.EXPERT:
            _one_trial_more(given, kept, solves, trial, rng)
    if level != Level.EXPERT:
        if not plain:
            _futile_trades(given, kept, every, rng)
        else:
            _trade_givens(given, kept, every, solves, rng)
    final = {side: tuple(clues[side][k] if (side, k) in kept else 0 for k in range(n)) for side in SIDES}
    return given, final


def _needed_givens(sol: Sequence[int], given: list[bool], tier: Level, solves, rng: random.Random,
                   plain: bool = False) -> None:
    """Givens added to ``given``, each on a cell where the tier stalled with every clue, until
    it solves (``solves``: ``_carve``'s, on the clues kept now)."""
    done, stalled = solves()
    while not done:  # the tier needs a given: one where it stalled
        open_cells = [i for i in range(len(given)) if stalled is None or not stalled.placed[i]]
        i = rng.choice(open_cells)
        given[i] = True
        if stalled is None:
            done, stalled = solves()
            continue
        # Going on from where the tier stalled reaches what a fresh solve with the new given
        # would: every technique only strikes candidates, so the stall is the same fixpoint.
        stalled.give(i, sol[i])
        done = solve(stalled, tier, Run(), fast=not plain)


def _small_carve(geo: Geometry, sol: Sequence[int], clues: dict[str, tuple[int, ...]], level: Level,
                 rng: random.Random) -> tuple[list[bool], dict[str, tuple[int, ...]], LadderResult | None]:
    """``_carve`` below expert (``SMALL_CARVE``): the same removals tried in the same order with
    the same draws, and the same verdicts, found with fewer solves. The removals (the givens
    added, then the clues in their shuffled order; the shuffle draws nothing the givens'
    verdicts decide, so it is made first) are each refused where they leave a second solution
    (no tier solves that: up to ``TABLE_MAX`` the table of every Latin square says so at once,
    ``table_solutions``, above a SAT question, ``ambiguous``), and otherwise made on trust;
    then the tier is asked once, of the puzzle they end with. If it solves that, it solves
    every puzzle on the way (each holds more clues and givens: ``CONFLUENT``), so every
    removal made is one the plain carve makes: the same carve. If not, the first removal it
    can't take is found by bisection (the puzzles on the way only lose clues, so once the tier
    fails it fails from there on), refused as the plain carve refuses it, and the rest tried
    again the same way from there. On 4x4, where every clue leaves one solution, no given is
    needed above easy (``_needed_givens`` would add none): the medium tier solves every such
    square from its clues alone (all 576 squares tried, tests/test_sky_carve.py); where they
    leave more, the hard carve's givens are drawn by the table (below). At easy the tier's own
    verdict on bitboards (``easy_stall``) is cheap enough to ask at every removal, and its
    stalls are the ladder's, so the givens are drawn from them.

    Also the grade of the puzzle where the last question was the ladder's run up to the tier
    (``run_ladder``; it takes its techniques tier by tier, so where the tier solves the
    puzzle it never reaches a harder one and ends as the whole ladder's run), else None.
    ``_carve(..., plain=True)`` is the version it must equal (tests/test_sky_carve.py)."""
    n = geo.n
    tier = min(level, Level.HARD)
    every = [(side, k) for side in SIDES for k in range(n)]
    listed = n <= TABLE_MAX
    shows = clue_squares(n, clues) if listed else {}
    key_sets = [shows[key] for key in every] if listed else []
    cell_sets = [squares[sol[i]] for i, squares in enumerate(latin_table(n)[1])] if listed else []
    side_keys = [(side, tuple(zip(((side, k) for k in range(n)), clues[side]))) for side in SIDES]
    kept = set(every)
    given = [False] * (n * n)

    def clues_now() -> dict[str, tuple[int, ...]]:
        return {side: tuple([c if key in kept else 0 for key, c in pairs]) for side, pairs in side_keys}

    def givens_now() -> list[tuple[int, int]]:
        return [(i, sol[i]) for i in range(n * n) if given[i]]

    def solves() -> tuple[bool, Any]:
        return closure(geo, givens_now(), tier, extra=extra_for(n, clues_now(), verdict=True))

    def put(item, back: bool) -> None:
        if type(item) is int:
            given[item] = back
        elif back:
            kept.add(item)
        else:
            kept.discard(item)

    strikes = {key: clue_strike(n, key[0], key[1], clues[key[0]][key[1]]) for key in every}

    def struck_now() -> int:
        struck = 0
        for key in kept:
            struck |= strikes[key]
        return struck

    def easy_now() -> int | None:  # (``easy_stall``)
        return stall_struck(geo, givens_now(), struck_now())

    if tier == Level.EASY:
        # ``_needed_givens`` on the easy tier's bitboards: the same stalls, so the same draws
        while (placed := easy_now()) is not None:
            given[rng.choice([i for i in range(n * n) if not placed >> i & 1])] = True
    elif listed and tier == Level.HARD:
        # ``_needed_givens`` by the table: on 4x4 the hard tier stalls exactly where the clues and
        # givens leave two squares or more, with exactly the cells they agree on placed (every
        # stall the given search can reach, from every square: bench/sky_table_stalls.py), so
        # the same draws
        while (fits := _solutions_of(key_sets + [cell_sets[i] for i in range(n * n) if given[i]])) & (fits - 1):
            given[rng.choice(table_open_cells(n, fits))] = True
    elif not listed or _two_or_more(key_sets):
        _needed_givens(sol, given, tier, solves, rng)
    items: list = [i for i in range(n * n) if given[i]]
    order = every[:]
    rng.shuffle(order)
    items += order
    # Every item from a pass's start on is in (refused, or put back by the bisection), so
    # what the items in now share is what those before ``t`` still in share (``fits``,
    # ``struck``: kept as they are decided) with what every item after ``t`` shares (a
    # suffix, worked out once a pass): the table's squares (``_two_or_more`` of the sets of
    # the clues and givens kept, its plain version) and the kept clues' strikes
    # (``struck_now``).
    squares = [cell_sets[x] if type(x) is int else shows[x] for x in items] if listed else []
    marks = [0 if type(x) is int else strikes[x] for x in items]
    start, graded = 0, None
    while start < len(items):
        made = []
        after_fits, after_struck = [-1] * (len(items) + 1), [0] * (len(items) + 1)
        for t in range(len(items) - 1, start - 1, -1):
            after_fits[t] = after_fits[t + 1] & squares[t] if listed else -1
            after_struck[t] = after_struck[t + 1] | marks[t]
        fits, struck = -1, 0
        for t in range(start):
            x = items[t]
            if given[x] if type(x) is int else x in kept:
                fits &= squares[t] if listed else -1
                struck |= marks[t]
        for t in range(start, len(items)):
            put(items[t], False)
            both = fits & after_fits[t + 1]
            two = bool(both & (both - 1))
            if tier == Level.EASY:
                # A clue whose strikes the kept clues strike too leaves the start the tier solved
                # before its removal: the same verdict. On 4x4 the table's test first: a
                # removal that leaves a second solution is refused at once, as the tier would.
                now = struck | after_struck[t + 1]
                ok = type(items[t]) is not int and not marks[t] & ~now or \
                    not (listed and two) and stall_struck(geo, givens_now(), now) is None
            elif not listed:
                ok = not ambiguous(geo, sol, givens_now(), clues_now())
            else:
                ok = not two
            if ok:
                made.append(t)
            else:
                put(items[t], True)
                if listed:
                    fits &= squares[t]
                struck |= marks[t]
        if tier == Level.EASY or not made:
            break
        res = run_ladder(geo, givens_now(), tier, extra=extra_for(n, clues_now()))
        if res.solved:
            graded = res
            break
        # The first removal made that the tier can't take: all of ``made`` out fails, none
        # out solves (the carve so far).
        lo, hi = 0, len(made) - 1
        out = len(made)  # how many of ``made`` are out now
        while lo < hi:
            mid = (lo + hi) // 2
            for t in made[mid + 1:out]:
                put(items[t], True)
            for t in made[out:mid + 1]:
                put(items[t], False)
            out = mid + 1
            if solves()[0]:
                lo = mid + 1
            else:
                hi = mid
        for t in made[lo:out]:
            put(items[t], True)
        for t in made[out:lo]:
            put(items[t], False)
        start = made[lo] + 1
    _futile_trades(given, kept, every, rng)
    return given, clues_now(), graded


def _two_or_more(sets: Sequence[int]) -> bool:
    """Whether the squares in every one of ``sets`` are two or more (``ambiguous``'s test, on
    the sets of ``clue_squares`` and ``latin_table``'s cells)."""
    fits = _solutions_of(sets)
    return bool(fits & (fits - 1))


def _solutions_of(sets: Sequence[int]) -> int:
    """The squares in every one of ``sets`` (``table_solutions``, on the sets of
    ``clue_squares`` and ``latin_table``'s cells)."""
    fits = -1
    for x in sets:
        fits &= x
    return fits


class _Fixpoint:
    """The tier's fixpoint of the clues and of the givens found needed so far, for
    ``_carve``'s loop that tries each given in turn: ``without(i)`` goes on from it with
    every other given not yet in it, instead of solving afresh from the givens (the fixpoint
    is the same whatever the order of the steps, and more clues or givens only strike more:
    ``CONFLUENT``)."""

    def __init__(self, geo: Geometry, sol: Sequence[int], given: list[bool], tier: Level, extra: Extra) -> None:
        self.sol, self.given, self.tier = sol, given, tier
        self.inside: set[int] = set()
        self.state = start(geo, [], extra)
        solve(self.state, tier, Run(), fast=True)

    def without(self, i: int) -> bool:
        """Whether the tier solves with the givens in ``given`` (``i`` not among them)."""
        st = self.state.copy()
        for j, on in enumerate(self.given):
            if on and j != i and j not in self.inside:
                st.give(j, self.sol[j])
        return solve(st, self.tier, Run(), fast=True)

    def keep(self, i: int) -> None:
        """The given ``i`` stays: into the fixpoint."""
        self.inside.add(i)
        self.state.give(i, self.sol[i])
        solve(self.state, self.tier, Run(), fast=True)


def _trade_givens(given: list[bool], kept: set, every: Sequence, solves, rng: random.Random) -> None:
    """Each given goes where the tier still solves without it, or with up to ``TRADE`` removed
    clues back (players expect clues, not givens)."""
    added = [i for i in range(len(given)) if given[i]]
    rng.shuffle(added)
    for i in added:
        given[i] = False
        if solves()[0]:
            continue
        back = [key for key in every if key not in kept]
        rng.shuffle(back)
        for key in back[:TRADE]:
            kept.add(key)
            if solves()[0]:
                break
        else:
            kept.difference_update(back[:TRADE])
            given[i] = True


def _futile_trades(given: list[bool], kept: set, every: Sequence, rng: random.Random) -> None:
    """``_trade_givens`` where no trade can succeed: each given left was found needed with
    every clue kept and at least the givens left now, and more clues or givens only strike
    more (``CONFLUENT``), so no subset of the clues brings the
    puzzle back without it. Only the random draws a trade makes are made (the same number,
    of lists of the same lengths: a shuffle draws by the length alone), so the puzzles after
    this carve stay the same; ``_trade_givens`` is the plain version it must equal."""
    added = [i for i in range(len(given)) if given[i]]
    rng.shuffle(added)
    back = [key for key in every if key not in kept]
    for _ in added:
        rng.shuffle(back)


def _one_trial_more(given: list[bool], kept: set, solves, trial, rng: random.Random) -> None:
    """After a whole hard carve: one more clue or given goes where a single trial brings it
    back, if any does (``solves``, ``trial``: ``_carve``'s)."""
    rest = [("clue", key) for key in sorted(kept)] + [("given", i) for i in range(len(given)) if given[i]]
    rng.shuffle(rest)
    for kind, x in rest:
        if kind == "clue":
            kept.discard(x)
        else:
            given[x] = False
        done, stalled = solves()
        if not done and stalled is not None and trial(stalled):
            return
        if kind == "clue":
            kept.add(x)
        else:
            given[x] = True


SKYSCRAPERS = SkyscrapersVariant()
