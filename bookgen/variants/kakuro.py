"""Kakuro (also sold as Cross Sums): a crossword of numbers.

Rules: the grid is cut into block cells and white runs (2 to 9 white cells
in a row, across or down, between blocks or the edge). Fill every white cell
with a digit 1..9 so that the digits of each run add up to the sum printed
in the block on its left (across) or above it (down), with no digit twice in
a run. The top row and the left column are blocks (they carry the first
sums); the block pattern of the area inside them is symmetric under a half
turn, as printed Kakuro is. Every white cell is in one across and one down
run, and the white cells are connected. No digits are given.

Representation: a ``Puzzle`` with ``variant="kakuro"``; ``size`` is the
whole grid's side, the sum row and column included (its rows and columns
``Puzzle.rows``/``cols``: all size handling is in ``dims``); ``givens`` and
``solution`` are rows where ``#`` is a block, ``.`` an empty white cell and
a digit a white cell's; the runs are ``cages``: ``Cage(cells, "+", sum)``,
cells in reading order, sorted by their cells. Its block cells and which
sum each shows follow from them (a run's sum sits in the block just left of
its first cell, or just above it). Rules are ``{}``. The JSON lists the sums
per block (``sums``: ``{"cell": [r, c], "across": 16, "down": 23}``).

Solving is Kakuro's own engine (``bookgen.solve.kakuro``: runs are not Latin
houses). Techniques by tier:
- easy: a run's last open cell; the sum table (the digits that can make a
  sum in so many cells: 3 in two is 1 + 2, 24 in three is 7 + 8 + 9),
  which where an across and a down run cross leaves the digits both allow;
  naked singles; hidden singles (a digit every way of making the sum needs,
  with one cell of the run left for it);
- medium: the combinations that fit the cells' candidates; naked and
  hidden pairs inside a run;
- hard: the sum of a region (a band of rows or columns joined through its
  runs: the few cells of the crossing runs sticking in or out add up to
  what the runs leave); naked triples inside a run;
- expert: one trial on a two-candidate cell refuted by the tiers above;
  never nested.

Generation (``attempt``): a symmetric block pattern meeting the run rules,
a random fill (no digit twice in a run), the sums; then, as long as the
ladder (up to the level asked) gets stuck, one stuck cell takes another
digit, one that leaves its two runs the fewest ways to make their sums; a
puzzle the ladder solves below the level asked gets a random cell changed.
Kept when graded exactly at the level; SAT proves it unique. No digit is
ever given: a draft that does not come right within ``MOVES`` changes is
dropped for a fresh pattern.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import C_, N_
from bookgen.core.pen import BOLD, CAP_HEIGHT, CENTER, THIN, Pen, bold_width
from bookgen.core.score import work_score
from bookgen.core.symmetry import grid_fingerprint
from bookgen.core.text import PuzzleTextError
from bookgen.core.text import TextLine as _Line
from bookgen.core.text import tokens as _tokens
from bookgen.core.text import rules_at as _rules
from bookgen.core.types import EMPTY, Cage, Cell, GenerationError, Grade, GridSize, Puzzle, SizeRange, rows_cols
from bookgen.core.variant import Extent, Step, VariantDefaults
from bookgen.solve import kakuro as engine
from bookgen.solve.kakuro import DIGITS, LADDER, Board, combos
from bookgen.variants.gridparts import and_givens, connected

BLOCK = "#"
TEXT_BLOCK = ("X", "x", "\\")  # a block without sums in the text format (``#`` starts a comment there)
SIZE_RANGE = SizeRange(6, 14, 6, 14)  # rows and columns, the sum row and column included
SIZES: tuple[int, ...] = SIZE_RANGE.squares
ATTEMPTS = 60      # fresh patterns per puzzle
MOVES = 80         # digit changes per pattern
PATTERN_TRIES = 200
MAX_RUN = 9
# Share of the inner area that is blocks, and the longest run the pattern keeps, per level:
# shorter runs have fewer ways to make their sums, so the easy levels get them.
DENSITY: dict[Level, float] = {Level.EASY: 0.36, Level.MEDIUM: 0.33, Level.HARD: 0.3, Level.EXPERT: 0.3}
LONGEST: dict[Level, int] = {Level.EASY: 5, Level.MEDIUM: 6, Level.HARD: 7, Level.EXPERT: 7}
# Share of the runs whose digits lean low or high in the fill (see ``_fill``).
LEAN: dict[Level, float] = {Level.EASY: 0.9, Level.MEDIUM: 0.7, Level.HARD: 0.5, Level.EXPERT: 0.5}
EXPERT_TRIALS = 3  # trials an expert puzzle may take, at most
HARDER_TRIES = 6   # changes tried at once on a draft that grades too easy
TRIAL_OPEN = 0.5  # ... and only from a stall with at most this share of its white cells open
# The hardest level each size reaches reliably (measured: bench/sweep_kakuro.py).
MAX_LEVEL: dict[int, Level] = {6: Level.MEDIUM}  # a 6-row or 6-column grid: 0 of 3 hard in 60 patterns each
BLOCK_FILL = 0.78  # grey of a block: black sums on it stay sharp, and it saves ink
SUM_CAP = 0.25     # cap height of a sum, in cells ("45" fits a half of the split cell)
DIGIT_CAP = 0.5    # a digit's cap height, in cells
ANSWER_GREY = 0.3
GIVEN_FILL = 0.88



def dims(size: Any) -> tuple[int, int]:
    """(rows, cols) of a size (a ``GridSize``, or a side N): the one place this module reads one."""
    return rows_cols(size)


def grid_size(size: Any) -> GridSize:
    """A size as the ``GridSize`` a puzzle carries (a side N is N x N)."""
    return GridSize(size, size) if type(size) is int else size


def size_problem(size: Any) -> str | None:
    """Why ``size`` is not a Kakuro size, or None."""
    grid = grid_size(size)
    if not isinstance(grid, GridSize) or grid not in SIZE_RANGE:
        shown = str(size) if isinstance(size, (int, GridSize)) else repr(size)
        return f"kakuro size must have rows and columns from 6 to 14 (the sum row and column included), got {shown!r}"
    return None


# --- the grid's runs --------------------------------------------------------------------

def runs_of(white: Sequence[Sequence[bool]]) -> list[tuple[tuple[Cell, ...], bool]]:
    """Every maximal row and column stretch of white cells, (cells, across), across first,
    each in reading order (stretches of one cell included: callers refuse them)."""
    rows, cols = len(white), len(white[0])
    out = []
    for across in (True, False):
        outer, inner = (rows, cols) if across else (cols, rows)
        for a in range(outer):
            stretch: list[Cell] = []
            for b in range(inner + 1):
                cell = (a, b) if across else (b, a)
                if b < inner and white[cell[0]][cell[1]]:
                    stretch.append(cell)
                    continue
                if stretch:
                    out.append((tuple(stretch), across))
                stretch = []
    return out


def pattern_problems(white: Sequence[Sequence[bool]], longest: int = MAX_RUN) -> list[str]:
    """Why a block pattern breaks the run rules ([] when it keeps them)."""
    problems = []
    cells = [(r, c) for r, row in enumerate(white) for c, w in enumerate(row) if w]
    if not cells:
        return ["the grid has no white cell"]
    for stretch, across in runs_of(white):
        r, c = stretch[0]
        word = "across" if across else "down"
        if len(stretch) < 2:
            problems.append(f"the white cell at row {r + 1}, column {c + 1} is alone {word}: a run has 2 to 9 cells")
        elif len(stretch) > longest:
            problems.append(f"the {word} run from row {r + 1}, column {c + 1} has {len(stretch)} cells; "
                            f"a run has at most {longest}")
    if not connected(cells):
        problems.append("the white cells are not all connected")
    return problems


def _pattern(rows: int, cols: int, level: Level, rng: random.Random) -> list[list[bool]] | None:
    """A half-turn symmetric block pattern of the area inside the sum row and column that
    keeps the run rules, or None after ``PATTERN_TRIES`` tries."""
    longest = LONGEST[level]
    inner = [(r, c) for r in range(1, rows) for c in range(1, cols)]

    def mate(cell: Cell) -> Cell:
        return rows - cell[0], cols - cell[1]

    halves = sorted({min(cell, mate(cell)) for cell in inner})
    target = DENSITY[level] * len(inner)
    for _ in range(PATTERN_TRIES):
        white = [[r > 0 and c > 0 for c in range(cols)] for r in range(rows)]
        order = halves[:]
        rng.shuffle(order)
        blocks = 0

        def put(cell: Cell, value: bool) -> None:
            for r, c in {cell, mate(cell)}:
                white[r][c] = value

        def short_ok() -> bool:
            return all(len(s) >= 2 for s, _ in runs_of(white)) and not pattern_problems(white, rows + cols)

        for cell in order:
            if blocks >= target:
                break
            put(cell, False)
            if short_ok():
                blocks += 1 if cell == mate(cell) else 2
            else:
                put(cell, True)
        # Break runs longer than the level's longest, at a cell that leaves both parts legal.
        for _ in range(rows * cols):
            long = [s for s, _ in runs_of(white) if len(s) > longest]
            if not long:
                break
            stretch = rng.choice(long)
            spots = list(stretch[2:-2])
            rng.shuffle(spots)
            for cell in spots:
                put(cell, False)
                if short_ok():
                    break
                put(cell, True)
            else:
                break
        if not pattern_problems(white, longest):
            return white
    return None


def _fill(white: Sequence[Sequence[bool]], runs: Sequence[Sequence[int]], cols: int,
          rng: random.Random, lean: float, budget: int = 20000) -> dict[int, int] | None:
    """Random digits for the white cells, none twice in a run (depth-first, the cell with the
    fewest digits left first), or None past ``budget`` nodes.

    A share ``lean`` of the runs lean low or high: their cells try small (or large) digits
    first, so their sums come out near the least (or most) the run can make, where there
    are few ways to make them (a run of small digits is easy to pin down)."""
    side = [rng.choice((-1, 1)) if rng.random() < lean else 0 for _ in runs]
    of: dict[int, list[int]] = {}
    for k, cells in enumerate(runs):
        for i in cells:
            of.setdefault(i, []).append(k)
    cells = sorted(of)
    used = [0] * len(runs)
    sol: dict[int, int] = {}
    nodes = 0

    def free(i: int) -> int:
        m = engine.FULL
        for k in of[i]:
            m &= ~used[k]
        return m

    def go() -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        open_cells = [i for i in cells if i not in sol]
        if not open_cells:
            return True
        i = min(open_cells, key=lambda x: (free(x).bit_count(), x))
        ds = [d for d in range(1, DIGITS + 1) if free(i) >> (d - 1) & 1]
        rng.shuffle(ds)
        pull = sum(side[k] for k in of[i])
        if pull:
            ds.sort(key=lambda d: pull * (d - 5) + rng.uniform(-2.5, 2.5))
        for d in ds:
            sol[i] = d
            for k in of[i]:
                used[k] |= 1 << (d - 1)
            if go():
                return True
            for k in of[i]:
                used[k] &= ~(1 << (d - 1))
            del sol[i]
        return False

    return sol if go() else None


def _ways(length: int, total: int) -> int:
    return len(combos(length, total))


# --- the variant --------------------------------------------------------------------

@dataclass(frozen=True)
class Draft:
    """A graded Kakuro before its proof."""

    puzzle: Puzzle
    result: engine.Result
    board: Board
    solution: dict[int, int]


# The title in the grammatical cases sentences need (the catalogs inflect it: ``i18n.name_forms``).
NAME_CASES = (C_("gen", "Kakuro"), C_("acc", "Kakuro"))


class KakuroVariant(VariantDefaults):
    """Kakuro on 6x6 to 14x14 grids (the sum row and column included); stateless."""

    name = "kakuro"
    aliases: tuple[str, ...] = ("cross-sums", "crosssums")
    title = N_("Kakuro")
    rules_text: tuple[str, ...] = (
        N_("Write a digit from 1 to 9 in every white cell."),
        N_("A number in a grey block is the sum of the run of white cells next to it: the number above the "
           "diagonal for the run to its right, the one below it for the run underneath."),
        N_("No digit appears twice in a run. Each puzzle has exactly one solution, reachable by logic alone."),
    )
    ladder = LADDER  # its rows carry the how-to texts: ``techniques`` and ``rating_table``
    rectangular = True
    size_range = SIZE_RANGE
    sizes: tuple[int, ...] = SIZES
    default_size = GridSize(10, 10)
    size_note = "the sum row and column included"
    largest_cage = MAX_RUN  # a run is a cage of up to nine cells

    # --- rules and requests --------------------------------------------------------

    def extent(self, size: Any, rules: Mapping[str, Any]) -> Extent:
        """The grid, sums inside it: nothing drawn outside."""
        rows, cols = dims(size)
        return Extent(rows, cols)

    def parse_rules(self, raw: Mapping[str, Any] | None, size: Any) -> dict[str, Any]:
        """No rule options; ``ValueError`` names any given, or a size out of range."""
        problem = size_problem(size)
        if problem:
            raise ValueError(problem)
        if raw and not isinstance(raw, Mapping):
            raise ValueError("Kakuro rules must be a mapping of options")
        if raw:
            raise ValueError(f"unknown Kakuro rule option {sorted(map(str, raw))[0]!r}; Kakuro has none")
        return {}

    def rules_for(self, rules: Mapping[str, Any], sizes: Sequence[int] = ()) -> tuple[str, ...]:
        """The rule sentences (no options change them)."""
        return self.rules_text

    def smallest_type(self, size: Any, rules: Mapping[str, Any]) -> float:
        """The sums in the split blocks: the smallest type a Kakuro sets."""
        return SUM_CAP / CAP_HEIGHT

    def check_request(self, size: Any, rules: Mapping[str, Any], level: Level) -> str | None:
        """Why this request can't be generated reliably, or None."""
        problem = size_problem(size)
        if problem:
            return problem
        top = MAX_LEVEL.get(min(dims(size)), Level.EXPERT)
        if level > top:
            rows, cols = dims(size)
            return (f"a {rows}\u00d7{cols} Kakuro is never harder than {top.key}; "
                    "choose a larger size or an easier level")
        return None

    # --- generation ----------------------------------------------------------------

    def generate(self, size: Any, rules: Mapping[str, Any], level: Level, rng: random.Random,
                 options: Mapping[str, Any] | None = None) -> Puzzle:
        """A unique puzzle graded exactly ``level``; ``GenerationError`` when out of budget."""
        size = grid_size(size)
        rules = self.request_rules(size, rules, level)
        for _ in range(ATTEMPTS):
            draft = self.attempt(size, level, rng)
            if draft is None:
                continue
            # The proof, independent of the ladder (which is sound: a failure is an engine bug).
            found = engine.count(draft.board)
            if found != [draft.solution]:
                raise AssertionError("ladder-solved Kakuro is not unique: engine bug")
            return replace(draft.puzzle, grade=self.grade_of(draft.result, draft.board))
        rows, cols = dims(size)
        article = "an" if level.key[0] in "aeiou" else "a"
        raise GenerationError(f"could not make {article} {level.key} {rows}\u00d7{cols} Kakuro in {ATTEMPTS} "
                              f"patterns of {MOVES} changes each; try another seed, a lower level or a larger grid")

    def attempt(self, size: Any, level: Level, rng: random.Random) -> Draft | None:
        """One pattern, filled and changed until the ladder grades it exactly ``level``."""
        rows, cols = dims(size)
        white = _pattern(rows, cols, level, rng)
        if white is None:
            return None
        # in the puzzle's own order (its cages sorted by cells), so grading it again agrees
        runs = sorted(tuple(r * cols + c for r, c in cells) for cells, _ in runs_of(white))
        sol = _fill(white, runs, cols, rng, LEAN[level])
        if sol is None:
            return None
        of: dict[int, list[int]] = {}
        for k, cells in enumerate(runs):
            for i in cells:
                of.setdefault(i, []).append(k)
        cells = sorted(of)

        def options(i: int) -> list[int]:
            taken = 0
            for k in of[i]:
                for j in runs[k]:
                    if j != i:
                        taken |= 1 << (sol[j] - 1)
            return [d for d in range(1, DIGITS + 1) if d != sol[i] and not taken >> (d - 1) & 1]

        def judge() -> tuple[Board, engine.Result]:
            sums = [sum(sol[i] for i in cells_) for cells_ in runs]
            b = engine.board(rows, cols, runs, sums, regions=level >= Level.HARD)
            return b, engine.run_ladder(b, (), level, max_trials=EXPERT_TRIALS, trial_open=TRIAL_OPEN)

        def fits(res: engine.Result) -> bool:
            return res.solved and res.level == level and res.counts.get("trial", 0) <= EXPERT_TRIALS

        # One incremental solver counts this pattern's drafts (``PatternCounter``); the proof of
        # the puzzle that ships is a fresh count (``generate``).
        counter: engine.PatternCounter | None = None
        try:
            for _ in range(MOVES):
                b, res = judge()
                if fits(res):
                    break
                if not res.solved:  # stuck: a stuck cell takes the digit that pins its runs most
                    stuck = list(res.open_cells)
                    pick = _easier
                    if len(stuck) <= TRIAL_OPEN * len(cells):
                        # A small stall is mostly two solutions (digits swapped around a loop of
                        # runs): a cell where they differ takes any other digit, which breaks the
                        # swap (the digit that pins its runs most tends to rebuild it).
                        if counter is None:
                            counter = engine.PatternCounter(b)
                        other = [found for found in counter.count(b.sums) if found != sol]
                        if other:
                            stuck = [i for i in stuck if other[0][i] != sol[i]] or stuck
                            pick = _harder
                    i = rng.choice(stuck)
                    choice = options(i)
                    if choice:
                        sol[i] = pick(choice, i, of[i], runs, sol, rng)
                    continue
                # Too easy: of a few random changes, one that grades exactly right wins; else the
                # hardest that still solves (work inside the level); else any of them.
                best: tuple[float, int, int] | None = None
                tried = []
                for _ in range(HARDER_TRIES):
                    i = rng.choice(cells)
                    choice = options(i)
                    if not choice:
                        continue
                    old, sol[i] = sol[i], rng.choice(choice)
                    b, res = judge()
                    if fits(res):
                        break
                    if res.solved:
                        score = work_score(res.counts, LADDER.weight, LADDER.tier, res.level, len(cells))
                        if best is None or score > best[0]:
                            best = (score, i, sol[i])
                    tried.append((i, sol[i]))
                    sol[i] = old
                else:
                    if best is not None:
                        sol[best[1]] = best[2]
                    elif tried:
                        i, d = rng.choice(tried)
                        sol[i] = d
                    continue
                break
            else:
                return None
            return Draft(self._puzzle(size, white, runs, b.sums, sol), res, b, dict(sol))
        finally:
            if counter is not None:
                counter.__exit__()

    def _puzzle(self, size: Any, white: Sequence[Sequence[bool]], runs: Sequence[Sequence[int]],
                sums: Sequence[int], sol: Mapping[int, int]) -> Puzzle:
        rows, cols = dims(size)
        size = grid_size(size)
        givens = tuple("".join(EMPTY if white[r][c] else BLOCK for c in range(cols)) for r in range(rows))
        solution = tuple("".join(str(sol[r * cols + c]) if white[r][c] else BLOCK for c in range(cols))
                         for r in range(rows))
        cages = sorted((Cage(tuple(divmod(i, cols) for i in cells), "+", s) for cells, s in zip(runs, sums)),
                       key=lambda cage: cage.cells)
        return Puzzle(self.name, size, {}, givens, solution, cages=tuple(cages))

    # --- the engine -----------------------------------------------------------------

    def board_of(self, puzzle: Puzzle, regions: bool = True) -> Board:
        """The engine's board of a puzzle's runs."""
        cols = puzzle.cols
        runs = [tuple(r * cols + c for r, c in cage.cells) for cage in puzzle.cages]
        return engine.board(puzzle.rows, cols, runs, [cage.target for cage in puzzle.cages], regions)

    def _givens(self, puzzle: Puzzle) -> list[tuple[int, int]]:
        cols = puzzle.cols
        return [(r * cols + c, int(ch)) for r, row in enumerate(puzzle.givens) for c, ch in enumerate(row)
                if ch.isdigit()]

    def grade_of(self, res: engine.Result, b: Board) -> Grade:
        """Level, score and technique counts of a ladder run."""
        score = work_score(res.counts, LADDER.weight, LADDER.tier, res.level, len(b.white))
        return self.rate_counts(Grade(res.level, score, dict(sorted(res.counts.items())), res.solved), len(b.white))

    def grade(self, puzzle: Puzzle) -> Grade:
        """Hardest technique the ladder needed, a score, and technique counts."""
        b = self.board_of(puzzle)
        return self.grade_of(engine.run_ladder(b, self._givens(puzzle)), b)

    def explain(self, puzzle: Puzzle) -> tuple[list[Step], tuple[str, ...], bool]:
        """The ladder's steps, the grid it reached, and whether it is solved."""
        res = engine.run_ladder(self.board_of(puzzle), self._givens(puzzle), explain=True)
        return list(res.steps or []), res.grid, res.solved

    def solutions(self, puzzle: Puzzle, limit: int = 2) -> list[tuple[str, ...]]:
        """Up to ``limit`` solutions by the exact SAT solver."""
        b = self.board_of(puzzle, regions=False)
        out = []
        for found in engine.count(b, self._givens(puzzle), limit):
            out.append(tuple("".join(str(found[r * b.cols + c]) if r * b.cols + c in found else BLOCK
                                     for c in range(b.cols)) for r in range(b.rows)))
        return out

    def validate(self, puzzle: Puzzle) -> list[str]:
        """Runs that repeat a digit or miss their sum, givens that disagree."""
        problems = []
        rows, cols = puzzle.rows, puzzle.cols
        for what, grid, allowed in (("solution", puzzle.solution, "#123456789"),
                                    ("givens", puzzle.givens, "#.123456789")):
            if len(grid) != rows or any(len(row) != cols for row in grid):
                return [f"{what} must be {rows} rows of {cols} characters"]
            bad = sorted({ch for row in grid for ch in row} - set(allowed))
            if bad:
                return [f"{what} holds {bad[0]!r}; expected {', '.join(allowed)}"]
        for r in range(rows):
            for c in range(cols):
                g, s = puzzle.givens[r][c], puzzle.solution[r][c]
                if (g == BLOCK) != (s == BLOCK):
                    problems.append(f"row {r + 1}, column {c + 1} is a block in one grid only")
                elif g not in (EMPTY, BLOCK) and g != s:
                    problems.append(f"given {g} at row {r + 1}, column {c + 1} disagrees with the solution")
        for cage in puzzle.cages:
            digits = [puzzle.solution[r][c] for r, c in cage.cells]
            (r, c), where = cage.cells[0], "across" if cage.cells[0][0] == cage.cells[-1][0] else "down"
            if len(set(digits)) < len(digits):
                problems.append(f"the {where} run from row {r + 1}, column {c + 1} repeats a digit")
            if all(d.isdigit() for d in digits) and sum(map(int, digits)) != cage.target:
                problems.append(f"the {where} run from row {r + 1}, column {c + 1} adds up to "
                                f"{sum(map(int, digits))}, not {cage.target}")
        return problems

    # --- drawing -----------------------------------------------------------------------

    def draw(self, pen: Pen, puzzle: Puzzle, solved: bool = False) -> None:
        """Grey blocks split by a diagonal, the across sum above it and the down sum below;
        thin cell lines, a bold frame, the digits. An answer key shows blocks and digits."""
        rows, cols = puzzle.rows, puzzle.cols
        across, down = block_sums(puzzle)
        for r in range(rows):
            for c in range(cols):
                ch = puzzle.givens[r][c]
                if ch == BLOCK:
                    pen.rect(c, r, 1, 1, fill=BLOCK_FILL)
                elif ch != EMPTY:
                    pen.rect(c, r, 1, 1, fill=GIVEN_FILL)
        for k in range(1, cols):
            pen.line(k, 0, k, rows, THIN)
        for k in range(1, rows):
            pen.line(0, k, cols, k, THIN)
        pen.rect(0, 0, cols, rows, stroke=BOLD)
        for r in range(rows):
            for c in range(cols):
                ch = puzzle.givens[r][c]
                if ch == BLOCK:
                    if not pen.key and ((r, c) in across or (r, c) in down):
                        self._split(pen, r, c, across.get((r, c)), down.get((r, c)))
                elif ch != EMPTY:
                    pen.text(c + 0.5, r + 0.5, ch, DIGIT_CAP, bold=True, anchor=CENTER)
                elif solved and puzzle.solution[r][c] not in (EMPTY, BLOCK):
                    pen.text(c + 0.5, r + 0.5, puzzle.solution[r][c], DIGIT_CAP, anchor=CENTER, grey=ANSWER_GREY)

    def _split(self, pen: Pen, r: int, c: int, right: int | None, below: int | None) -> None:
        """A block's diagonal and its sums: across in the top-right half, down in the bottom-left."""
        pen.line(c, r, c + 1, r + 1, THIN)
        for value, x, y in ((right, c + SUM_RIGHT, r + SUM_TOP), (below, c + SUM_LEFT, r + 1 - SUM_TOP)):
            if value is not None:
                text = str(value)
                w = bold_width(text) * SUM_CAP / CAP_HEIGHT
                pen.text(x - w / 2 if x > c + 0.5 else x + w / 2, y, text, SUM_CAP, bold=True, anchor=CENTER,
                         clue=True)

    # --- JSON ---------------------------------------------------------------------------

    def fingerprint(self, puzzle: Puzzle) -> str:
        """The same for the grid turned or mirrored (transposed too, when square: across and
        down runs swap, each keeping its sum); the digits are not relabelled, as the sums fix
        them. From the givens (blocks included) and each run's cells and sum."""
        def runs(move) -> str:
            return repr(sorted((tuple(sorted(move(cell) for cell in cage.cells)), cage.target)
                               for cage in puzzle.cages))
        return grid_fingerprint(f"{self.name}/{puzzle.size}", puzzle.rules, puzzle.givens, False, runs)

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """``{"rules": {}, "sums": [{"cell": [r, c], "across": 16, "down": 23}, ...]}``."""
        across, down = block_sums(puzzle)
        out = []
        for cell in sorted(set(across) | set(down)):
            entry: dict[str, Any] = {"cell": list(cell)}
            if cell in across:
                entry["across"] = across[cell]
            if cell in down:
                entry["down"] = down[cell]
            out.append(entry)
        return {"rules": {}, "sums": out}

    def from_json(self, data: Mapping[str, Any]) -> Puzzle:
        """Rebuild a puzzle from a book JSON entry; ``ValueError`` says what is malformed."""
        raw_size = data.get("size")
        size = GridSize(raw_size, raw_size) if type(raw_size) is int else GridSize.from_json(raw_size)
        problem = size_problem(size if size is not None else raw_size)
        if problem:
            raise ValueError(problem)
        rows, cols = dims(size)
        rules = self.parse_rules(data.get("rules"), size)
        givens, solution = data.get("givens"), data.get("solution")
        for what, grid in (("givens", givens), ("solution", solution)):
            if not isinstance(grid, list) or len(grid) != rows or \
                    not all(isinstance(row, str) and len(row) == cols for row in grid):
                raise ValueError(f"{what} must be {rows} strings of {cols} characters")
        if any(ch not in "#.123456789" for row in givens for ch in row):
            raise ValueError("givens hold # (block), . (empty) or a digit 1..9")
        raw = data.get("sums")
        if not isinstance(raw, list):
            raise ValueError("sums must be a list of {\"cell\": [r, c], \"across\": N, \"down\": N}")
        sums: dict[tuple[Cell, bool], int] = {}
        for entry in raw:
            cell = entry.get("cell") if isinstance(entry, Mapping) else None
            if not (isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell)):
                raise ValueError(f"a sum's cell must be [row, column], got {entry!r}"[:120])
            for key, across in (("across", True), ("down", False)):
                if key in entry:
                    value = entry[key]
                    if type(value) is not int or not 3 <= value <= 45:
                        raise ValueError(f"the {key} sum at {cell} must be a whole number from 3 to 45")
                    sums[((cell[0], cell[1]), across)] = value
        white = [[ch != BLOCK for ch in row] for row in givens]
        cages = _cages(white, sums, lambda message: ValueError(message))
        return Puzzle(self.name, size, rules, tuple(givens), tuple(solution), cages=cages)

    # --- text (``bookgen solve``) -----------------------------------------------------------

    def sniff_text(self, text: str) -> int:
        """A backslash between sums says Kakuro."""
        return 40 if "\\" in text else 0

    def parse_text(self, lines: Sequence[_Line], options: dict[str, Any], header: _Line | None,
                   file: str) -> Puzzle:
        """One line per row, cells apart by spaces: ``X`` a block without sums, ``D\\A`` a block
        with the down sum D and the across sum A (either may be left out: ``\\16``, ``23\\``),
        ``.`` an empty white cell, a digit a given one."""
        rows_tokens = [_tokens(line) for line in lines]
        width = len(rows_tokens[0]) if rows_tokens else 0
        for line, tokens in zip(lines, rows_tokens):
            if len(tokens) != width:
                raise PuzzleTextError(file, line.number, tokens[-1][0] if tokens else None,
                                      f"this row has {len(tokens)} cells but the first row has {width}")
        size = GridSize(len(lines), width)
        problem = size_problem(size)
        if problem:
            raise PuzzleTextError(file, lines[0].number, 1, problem)
        sums: dict[tuple[Cell, bool], int] = {}
        where: dict[tuple[Cell, bool], tuple[int, int]] = {}
        givens = []
        for r, (line, tokens) in enumerate(zip(lines, rows_tokens)):
            row = []
            for c, (col, text) in enumerate(tokens):
                if text in TEXT_BLOCK:
                    row.append(BLOCK)
                elif "\\" in text:
                    down, _, right = text.partition("\\")
                    for value, across in ((down, False), (right, True)):
                        if not value:
                            continue
                        if not value.isdigit() or not 3 <= int(value) <= 45:
                            raise PuzzleTextError(file, line.number, col, f"sum {value!r}: a run's sum is a "
                                                  "number from 3 to 45")
                        sums[((r, c), across)] = int(value)
                        where[((r, c), across)] = (line.number, col)
                    row.append(BLOCK)
                elif text == EMPTY or (len(text) == 1 and text in "123456789"):
                    row.append(text)
                else:
                    raise PuzzleTextError(file, line.number, col, f"unknown cell {text!r}; a cell is X (block), "
                                          "D\\A (a block with its down and across sums), . (empty) or a digit 1-9")
            givens.append("".join(row))
        white = [[ch != BLOCK for ch in row] for row in givens]

        def error(message: str, key: tuple[Cell, bool] | None = None, cell: Cell | None = None) -> PuzzleTextError:
            if key in where:
                return PuzzleTextError(file, *where[key], message)
            if cell is not None:
                return PuzzleTextError(file, lines[cell[0]].number, rows_tokens[cell[0]][cell[1]][0], message)
            return PuzzleTextError(file, lines[0].number, 1, message)

        cages = _cages(white, sums, error)
        rules = _rules(self, options, size, header, file)
        blank = tuple("".join(BLOCK if ch == BLOCK else EMPTY for ch in row) for row in givens)
        return Puzzle(self.name, size, rules, tuple(givens), blank, cages=cages)

    def to_text(self, puzzle: Puzzle) -> str:
        """The puzzle in the text format ``parse_text`` reads (header line included)."""
        return self.name + "\n" + "\n".join(self.text_lines(puzzle, puzzle.givens, ascii=True)) + "\n"

    def text_lines(self, puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
        """Each row as its cells in columns: blocks as ``D\\A`` (or ``X``), digits, ``.``."""
        across, down = block_sums(puzzle)
        cells = []
        for r in range(puzzle.rows):
            row = []
            for c in range(puzzle.cols):
                if puzzle.givens[r][c] == BLOCK:
                    a, d = across.get((r, c)), down.get((r, c))
                    row.append("X" if a is None and d is None else f"{d or ''}\\{a or ''}")
                else:
                    row.append(rows[r][c])
            cells.append(row)
        width = max(len(x) for row in cells for x in row)
        return [" ".join(x.rjust(width) for x in row).rstrip() for row in cells]

    def symbol_text(self, symbol: str, ascii: bool = False) -> str:
        """A digit prints as itself."""
        return symbol

    def clue_counts(self, puzzle: Puzzle) -> list[str]:
        """``42 sums`` (and ``3 givens`` when there are any)."""
        return and_givens(f"{len(puzzle.cages)} sums", sum(ch.isdigit() for row in puzzle.givens for ch in row))


# Where a sum's text sits in its half of a split block, in cells from the block's corner.
SUM_RIGHT = 0.93   # the across sum's right edge
SUM_LEFT = 0.07    # the down sum's left edge
SUM_TOP = 0.21     # the across sum's centre below the top (the down sum's above the bottom): two digits clear the diagonal by 0.1 cell


def block_sums(puzzle: Puzzle) -> tuple[dict[Cell, int], dict[Cell, int]]:
    """(block -> across sum, block -> down sum): each run's sum in the block before it."""
    across: dict[Cell, int] = {}
    down: dict[Cell, int] = {}
    for cage in puzzle.cages:
        r, c = cage.cells[0]
        if len(cage.cells) > 1 and cage.cells[1][0] == r:
            across[(r, c - 1)] = cage.target
        else:
            down[(r - 1, c)] = cage.target
    return across, down


def _cages(white: Sequence[Sequence[bool]], sums: Mapping[tuple[Cell, bool], int], error) -> tuple[Cage, ...]:
    """The runs of a pattern with the sums stated for them; ``error(message, key, cell)``
    makes the exception for the first problem (a run without a sum, a sum without a run, a
    run of one cell or more than nine, a sum its cells can't make)."""
    rows = len(white)
    cages = []
    used = set()
    for cells, across in runs_of(white):
        r, c = cells[0]
        key = ((r, c - 1), True) if across else ((r - 1, c), False)
        word = "across" if across else "down"
        if len(cells) < 2:
            raise error(f"the white cell at row {r + 1}, column {c + 1} is alone {word}: a run has 2 to 9 cells",
                        None, (r, c))
        if len(cells) > MAX_RUN:
            raise error(f"the {word} run from row {r + 1}, column {c + 1} has {len(cells)} cells; a run has at "
                        "most 9", None, (r, c))
        if (key[0][0] < 0 or key[0][1] < 0) or key not in sums:
            raise error(f"the {word} run from row {r + 1}, column {c + 1} has no sum in the block before it",
                        None, (r, c))
        total = sums[key]
        if not combos(len(cells), total):
            raise error(f"the {word} sum {total}: {len(cells)} different digits can't add up to it", key)
        used.add(key)
        cages.append(Cage(tuple(cells), "+", total))
    for key in sorted(set(sums) - used):
        (r, c), across = key
        word = "across" if across else "down"
        raise error(f"the {word} sum at row {r + 1}, column {c + 1} has no run of white cells "
                    f"{'to its right' if across else 'below it'}", key)
    if rows and not any(any(row) for row in white):
        raise error("the grid has no white cell")
    return tuple(sorted(cages, key=lambda cage: cage.cells))


def _easier(options: Sequence[int], i: int, runs_of_i: Sequence[int], runs: Sequence[Sequence[int]],
            sol: dict[int, int], rng: random.Random) -> int:
    """The digit for a stuck cell that leaves its runs the fewest ways to make their sums
    (ties broken at random)."""
    def ways(d: int) -> int:
        total = 0
        for k in runs_of_i:
            s = sum(sol[j] for j in runs[k] if j != i) + d
            total += _ways(len(runs[k]), s)
        return total
    scored = sorted((ways(d), rng.random(), d) for d in options)
    return scored[0][2] if rng.random() < 0.8 else rng.choice(options)


def _harder(options: Sequence[int], i: int, runs_of_i: Sequence[int], runs: Sequence[Sequence[int]],
            sol: dict[int, int], rng: random.Random) -> int:
    """Any other digit, for a puzzle that came out too easy."""
    return rng.choice(options)


KAKURO = KakuroVariant()
