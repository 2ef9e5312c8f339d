"""The Nonogram engine: run clues on lines, the line solver, the grid closure, the ladder, SAT.

A line of ``n`` cells is two bit sets, ``known`` and ``value`` (bit j is cell j: column j of
a row, row j of a column), as on the binary engine's board; its clue is the tuple of its
run lengths. A grid of ``rows`` x ``cols`` keeps its rows as lines ``0..rows-1`` and its
columns as ``rows..rows+cols-1``.

The line solver, plain and fast:

- ``fillings`` lists every filling of a line by its clue; ``settle_plain`` keeps those that
  agree with the known cells and returns what they all agree on. The reference.
- ``settle_fast`` reaches the same answer without listing: a walk over (cell, runs placed)
  states, forwards from the left end and backwards from the right, each run's states one
  bit set, keeps every step that lies on some complete filling; what those steps may write
  is what the fillings may. Memoised per (clue, line state). Checked against
  ``settle_plain`` on every short line and random long ones (tests/test_nonogram.py).
- ``overlap_news`` is the easy tier's simpler view of a line (runs pushed left and right
  as a player pushes them); it must never find more than ``settle_plain``.

The ladder (``TECHNIQUES``, easiest first; tier = level):

- easy: ``overlap`` - push every run as far left, then as far right as the known cells let
  it (a run can't cover an empty cell nor touch a filled one; the first run starts by the
  first filled cell, the last ends after the last): cells a run covers both ways are
  filled; ``reach`` - cells no run can reach are empty (edges, finished runs and gaps too
  small to hold a run are all this);
- medium: ``line`` - everything all fillings of one line agree on;
- hard: ``chain`` - two lines at once: suppose a cell, settle its row and column and then
  the lines their news crosses; a line left without a filling refutes the supposition;
- expert: ``trial`` - suppose a cell and follow it with the medium closure to a
  contradiction; the cell takes the other colour. Never nested.

Every technique is sound, so a grid the ladder fills has exactly one solution; the SAT
solver (``sat_unique``: no solution differs from the picture) proves it independently
before a puzzle ships.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import chain, repeat
from operator import call, itemgetter
from typing import Callable, Iterable, Iterator, Sequence

from bookgen.core.bits import scan_forward
from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_, Text
from bookgen.core.memo import BoundedMemo
from bookgen.core.types import EMPTY, Cell
from bookgen.solve.houses import Ladder, Tech
from bookgen.solve.sat import SOLVER_NAME, Solver, load, models

Clue = tuple[int, ...]
LINE_MEMO = 300_000  # entries of the line memos (a long build meets many line states)
CHAIN_ROUNDS = 2     # rounds of line settling a ``chain`` may take after its supposition


class Contradiction(Exception):
    """A line has no filling left that agrees with its known cells."""


# ----- clues --------------------------------------------------------------------------
def runs_of(bits: int, n: int) -> Clue:
    """The run lengths of a filled line of ``n`` cells (bit j = cell j), left to right: each
    run's trailing zeros dropped, then its trailing ones counted. The plain version reads the
    line cell by cell (``test_runs_of_reads_every_line`` in tests/test_nonogram.py)."""
    out = []
    while bits:
        bits >>= (bits & -bits).bit_length() - 1
        run = (~bits & (bits + 1)).bit_length() - 1
        out.append(run)
        bits >>= run
    return tuple(out)


def line_bits(text: str) -> int:
    """``"0110"`` -> the bit set of its ``1`` cells (a line of ``0``/``1``)."""
    return int(text[::-1], 2) if text else 0


def clues_of(solution: Sequence[str]) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """The row clues and the column clues of a solved grid (rows of ``0``/``1``)."""
    rows, cols = len(solution), len(solution[0])
    row_clues = tuple(runs_of(line_bits(row), cols) for row in solution)
    col_clues = tuple(runs_of(line_bits("".join(col)), rows) for col in zip(*solution))
    return row_clues, col_clues


def clue_fits(clue: Clue, n: int) -> bool:
    """Whether runs this long fit a line of ``n`` cells, one gap between each two."""
    return all(v >= 1 for v in clue) and sum(clue) + len(clue) - 1 <= n if clue else True


# ----- the line solver: the plain reference ------------------------------------------
@lru_cache(maxsize=4096)
def placements(clue: Clue, n: int) -> tuple[tuple[int, ...], ...]:
    """Every placement of a clue's runs on ``n`` cells, as the tuple of run starts."""
    out: list[tuple[int, ...]] = []

    def place(j: int, first: int, starts: list[int]) -> None:
        if j == len(clue):
            out.append(tuple(starts))
            return
        rest = sum(clue[j + 1:]) + len(clue) - j - 1
        for s in range(first, n - rest - clue[j] + 1):
            place(j + 1, s + clue[j] + 1, starts + [s])

    place(0, 0, [])
    return tuple(out)


def filling(clue: Clue, starts: Sequence[int]) -> int:
    """The line a placement fills."""
    bits = 0
    for s, length in zip(starts, clue):
        bits |= ((1 << length) - 1) << s
    return bits


def fillings(clue: Clue, n: int) -> tuple[int, ...]:
    """Every filling of a line by its clue (the reference's list)."""
    return tuple(filling(clue, starts) for starts in placements(clue, n))


def settle_plain(clue: Clue, n: int, known: int, value: int) -> tuple[int, int] | None:
    """(cells every agreeing filling fills, cells every one leaves empty) among the unknown
    ones, or None when no filling agrees with the known cells. The reference of ``settle``."""
    full = (1 << n) - 1
    both, either = full, 0
    found = False
    for bits in fillings(clue, n):
        if (bits ^ value) & known:
            continue
        found = True
        both &= bits
        either |= bits
    if not found:
        return None
    return both & ~known, ~either & full & ~known


# ----- the line solver: bit sets ------------------------------------------------------
def _clear(length: int, n: int, zeros: int) -> int:
    """The cells a run of ``length`` may start at with no known empty cell under it (a bit set)."""
    if length > n:
        return 0
    blocked, span = zeros, 1  # bit i of blocked: one of cells i..i+span-1 is known empty
    while span < length:
        step = min(span, length - span)
        blocked |= blocked >> step
        span += step
    return ~blocked & ((1 << (n - length + 1)) - 1)


def _starts(length: int, n: int, ones: int, zeros: int) -> int:
    """The cells a run of ``length`` may start at (a bit set): no known empty cell under it,
    and the cell just after it (if any) not known filled."""
    return _clear(length, n, zeros) & ~(ones >> length)


def _smeared(bits: int, length: int) -> int:
    """Each set bit i widened to cells i..i+length-1."""
    span = 1
    while span < length:
        step = min(span, length - span)
        bits |= bits << step
        span += step
    return bits


def settle_fast(clue: Clue, n: int, known: int, value: int) -> tuple[int, int] | None:
    """``settle_plain``'s answer without listing fillings: a walk over states (i, j) - cells
    before i decided, runs before j placed, cell i free to start a run - with all the states
    of one j as one bit set (states 0..n+1; cell n is a virtual empty cell past the end, so
    every run is followed by an empty cell). Forwards, the states some partial filling
    reaches: an empty cell steps i -> i+1 (one carry-add does a whole stretch of cells that
    may be empty), a run j placed at i steps to i+len+1. Backwards, the states the rest can
    be finished from. A step on both lies on a complete filling; what those steps may write
    is what the fillings may. O(runs x log cells) operations on ints.

    Reference: ``settle_plain``; checked by ``test_settle_agrees_with_the_listing``
    (tests/test_nonogram.py) on every clue of every short line and on random long ones."""
    ones, zeros = value & known, known & ~value
    k = len(clue)
    free = ~ones & ((1 << (n + 1)) - 1)  # cells that may be empty, and the virtual cell n
    starts = {length: _starts(length, n, ones, zeros) for length in clue}
    fwd = []
    seed = 1
    for j in range(k + 1):
        reach = seed | ((free + (seed & free)) ^ free)  # the carry runs through the free cells
        fwd.append(reach)
        if j < k:
            seed = (reach & starts[clue[j]]) << (clue[j] + 1)
    if not (fwd[k] >> (n + 1)) & 1:
        return None
    # Backwards a stretch of free cells is crossed by doubling: bit i of links[t] says
    # cells i..i+2^t-1 may all be empty.
    links = [free]
    span = 1
    while span < n + 2:
        links.append(links[-1] & (links[-1] >> span))
        span *= 2
    back = [0] * (k + 1)
    seed = 1 << (n + 1)
    for j in range(k, -1, -1):
        reach, span = seed, 1
        for link in links:
            reach |= (reach >> span) & link
            span *= 2
        back[j] = reach
        if j:
            seed = (reach >> (clue[j - 1] + 1)) & starts[clue[j - 1]]
    can1 = can0 = 0
    for j in range(k + 1):
        can0 |= fwd[j] & free & (back[j] >> 1)
        if j < k:
            length = clue[j]
            on_path = fwd[j] & starts[length] & (back[j + 1] >> (length + 1))
            can0 |= on_path << length
            can1 |= _smeared(on_path, length)
    full = (1 << n) - 1
    return can1 & ~can0 & ~known & full, can0 & ~can1 & ~known & full


def _pushes(clue: Clue, n: int, filled: int, empty: int) -> tuple[list[int], list[int]] | None:
    """Each run's start pushed left and pushed right as a player pushes: one run after
    another from the edge, each to the first place with no known empty cell under it and no
    filled cell just past it on the far side, never going back for a filled cell left
    behind. None when a run falls off the end. The push cell by cell is the reference
    (``test_the_push_is_the_players`` in tests/test_nonogram.py); here each run's places
    are one bit set and the push takes its lowest (highest) bit."""
    k = len(clue)
    clear = {length: _clear(length, n, empty) for length in clue}
    low, high = [0] * k, [0] * k
    pos = 0
    for j, length in enumerate(clue):
        places = (clear[length] & ~(filled >> length)) >> pos
        if not places:
            return None
        low[j] = pos + (places & -places).bit_length() - 1
        pos = low[j] + length + 1
    end = n  # from the right: each run ends before ``end``
    for j in range(k - 1, -1, -1):
        length = clue[j]
        places = clear[length] & ~(filled << 1) & ((1 << max(end - length + 1, 0)) - 1)
        if not places:
            return None
        high[j] = places.bit_length() - 1
        end = high[j] - 1
    return low, high


def overlap_news(clue: Clue, n: int, known: int, value: int) -> tuple[int, int] | None:
    """The easy tier on one line: (cells a run covers both pushed left and pushed right,
    cells no run reaches) among the unknown ones; None when the line can't be filled.

    The runs are pushed as a player pushes them (``_pushes``, from both ends), then the
    edges hold them: the first run starts at or before the first filled cell, the last one
    ends at or after the last. Every bound is one no filling can pass, so what follows is
    sound, and it is never more than ``settle_plain`` finds
    (``test_overlap_is_sound_and_weaker_than_the_whole_line``)."""
    full = (1 << n) - 1
    filled, empty = value & known, known & ~value
    if not clue:
        return None if filled else (0, full & ~known)
    k = len(clue)
    pushed = _pushes(clue, n, filled, empty)
    if pushed is None:
        return None
    low, high = pushed
    if filled:
        high[0] = min(high[0], (filled & -filled).bit_length() - 1)
        low[k - 1] = max(low[k - 1], filled.bit_length() - clue[k - 1])
        for j in range(k - 2, -1, -1):
            high[j] = min(high[j], high[j + 1] - clue[j] - 1)
        for j in range(1, k):
            low[j] = max(low[j], low[j - 1] + clue[j - 1] + 1)
    if any(high[j] < low[j] for j in range(k)):
        return None
    ones = reach = 0
    for j, length in enumerate(clue):
        if high[j] < low[j] + length:
            ones |= ((1 << (low[j] + length - high[j])) - 1) << high[j]
        reach |= ((1 << (high[j] + length - low[j])) - 1) << low[j]
    if ~reach & filled or ones & empty:
        return None
    return ones & ~known, ~reach & full & ~known


class LineSolver:
    """The line answers by tier, memoised per (tier, clue, line state): ``ones << n | zeros``,
    or -1 when the line has no agreeing filling."""

    def __init__(self) -> None:
        self.memo = BoundedMemo(LINE_MEMO)  # the closure looks its keys up here first

    def answer(self, tier: int, clue: Clue, n: int, known: int, value: int) -> int:
        key = (tier, clue, n, known, value)
        hit = self.memo.get(key)
        if hit is None:
            got = (overlap_news if tier == 0 else settle_fast)(clue, n, known, value)
            hit = self.memo.put(key, -1 if got is None else got[0] << n | got[1])
        return hit


LINES = LineSolver()  # one per process: answers depend on their key alone


# ----- the board ----------------------------------------------------------------------
class Board:
    """Known cells of a rows x cols grid, one pair of bit sets per line (rows, then columns)."""

    __slots__ = ("rows", "cols", "known", "value", "settled")

    def __init__(self, rows: int, cols: int, known: list[int] | None = None, value: list[int] | None = None,
                 settled: list[int] | None = None):
        self.rows, self.cols = rows, cols
        self.known = known if known is not None else [0] * (rows + cols)
        self.value = value if value is not None else [0] * (rows + cols)
        # Per tier, the lines whose answer had no news at their present state: a closure
        # skips them (the answer depends on the line alone); every write clears its lines.
        self.settled = settled if settled is not None else [0, 0]

    def copy(self) -> "Board":
        return Board(self.rows, self.cols, self.known[:], self.value[:], self.settled[:])

    @classmethod
    def from_rows(cls, grid: Sequence[str]) -> "Board":
        """A board from row strings of ``1``/``0``/``.``."""
        board = cls(len(grid), len(grid[0]) if grid else 0)
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch != EMPTY:
                    board.assign(r, c, int(ch))
        return board

    def width(self, line: int) -> int:
        """How many cells ``line`` has."""
        return self.cols if line < self.rows else self.rows

    def cell(self, line: int, j: int) -> Cell:
        """The cell at position j of ``line``."""
        return (line, j) if line < self.rows else (j, line - self.rows)

    def get(self, r: int, c: int) -> int:
        """1, 0, or -1 for an unknown cell."""
        if not (self.known[r] >> c) & 1:
            return -1
        return (self.value[r] >> c) & 1

    def assign(self, r: int, c: int, v: int) -> None:
        """Fill (1) or blank (0) one cell, in its row and its column."""
        line = self.rows + c
        self.known[r] |= 1 << c
        self.known[line] |= 1 << r
        if v:
            self.value[r] |= 1 << c
            self.value[line] |= 1 << r
        changed = ~(1 << r | 1 << line)
        self.settled[0] &= changed
        self.settled[1] &= changed

    def write(self, line: int, ones: int, zeros: int) -> int:
        """Write a line's news into it and its crossing lines; the crossing lines, as a bit set."""
        self.known[line] |= ones | zeros
        self.value[line] |= ones
        if line < self.rows:
            bit, first = 1 << line, self.rows
        else:
            bit, first = 1 << (line - self.rows), 0
        crossed = 0
        known, value = self.known, self.value
        for j in scan_forward(ones | zeros):
            known[first + j] |= bit
            if (ones >> j) & 1:
                value[first + j] |= bit
            crossed |= 1 << (first + j)
        changed = ~(crossed | 1 << line)
        self.settled[0] &= changed
        self.settled[1] &= changed
        return crossed

    def solved(self) -> bool:
        full = (1 << self.cols) - 1
        return all(k == full for k in self.known[:self.rows])

    def grid(self) -> tuple[str, ...]:
        """Row strings with ``.`` for unknown cells."""
        return tuple("".join(EMPTY if not (self.known[r] >> c) & 1 else str((self.value[r] >> c) & 1)
                             for c in range(self.cols)) for r in range(self.rows))


# ----- the closure --------------------------------------------------------------------
@dataclass
class Puzzle:
    """The clues of one grid, as the engine reads them."""

    row_clues: tuple[Clue, ...]
    col_clues: tuple[Clue, ...]

    @property
    def rows(self) -> int:
        return len(self.row_clues)

    @property
    def cols(self) -> int:
        return len(self.col_clues)

    def clue(self, line: int) -> Clue:
        return self.row_clues[line] if line < self.rows else self.col_clues[line - self.rows]

    @cached_property
    def lines(self) -> tuple[Clue, ...]:
        """Every line's clue: the rows', then the columns'."""
        return tuple(self.row_clues) + tuple(self.col_clues)

    def board(self, givens: Sequence[str] | None = None) -> Board:
        return Board.from_rows(givens) if givens else Board(self.rows, self.cols)


def close(puzzle: Puzzle, board: Board, tier: int, dirty: int | None = None, rounds: int | None = None,
          on_news: Callable[[int, int, int], None] | None = None) -> bool:
    """Apply the line technique of ``tier`` (0 overlap and reach, 1 whole lines) to the lines
    of ``dirty`` (every line by default), re-queueing the lines each one's news crosses,
    until nothing changes (or after ``rounds`` generations of lines). True when the grid is
    full; ``Contradiction`` when a line has no filling left. Each line's answer is what its
    technique says of it alone, so the fixpoint does not depend on the order."""
    rows, cols = puzzle.rows, puzzle.cols
    lines = rows + cols
    if dirty is None:
        dirty = (1 << lines) - 1
    tier = min(tier, 1)
    clues, known, value, settled = puzzle.lines, board.known, board.value, board.settled
    answer, memo = LINES.answer, LINES.memo
    generation = 0
    while dirty:
        if rounds is not None and generation >= rounds:
            break
        generation += 1
        now, dirty = dirty, 0
        for line in scan_forward(now):
            if (settled[tier] >> line) & 1:
                continue
            n = cols if line < rows else rows
            hit = memo.get((tier, clues[line], n, known[line], value[line]))
            if hit is None:
                hit = answer(tier, clues[line], n, known[line], value[line])
            if hit < 0:
                raise Contradiction(line)
            if not hit:
                settled[tier] |= 1 << line
            else:
                ones, zeros = hit >> n, hit & ((1 << n) - 1)
                if on_news is not None:
                    on_news(line, ones, zeros)
                dirty |= board.write(line, ones, zeros)
                if tier == 0:
                    dirty |= 1 << line  # its own news may let the overlap say more
    return board.solved()


def refutes(puzzle: Puzzle, board: Board, cell: Cell, v: int, tier: int, rounds: int | None) -> bool:
    """Whether supposing ``v`` at ``cell`` breaks a line within ``rounds`` of line settling
    at ``tier`` (unbounded: None)."""
    trial = board.copy()
    r, c = cell
    trial.assign(r, c, v)
    try:
        close(puzzle, trial, tier, 1 << r | 1 << (puzzle.rows + c), rounds)
    except Contradiction:
        return True
    return False


# ----- the ladder ---------------------------------------------------------------------
@dataclass
class Run:
    """One ladder run: uses per technique, and the steps when explaining."""

    explain: bool = False
    solution: Sequence[str] | None = None  # the known answer, when generating
    counts: dict[str, int] = field(default_factory=dict)
    steps: list = field(default_factory=list)

    def used(self, name: str, cells: list[tuple[Cell, str]], reason: str) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1
        if self.explain:
            from bookgen.core.variant import Step
            self.steps.append(Step(name, tuple(cells), reason))


def _line_text(puzzle: Puzzle, line: int) -> Text:
    if line < puzzle.rows:
        return Text(N_("row {row}"), row=line + 1)
    return Text(N_("column {column}"), column=line - puzzle.rows + 1)


def _cells(board: Board, line: int, ones: int, zeros: int) -> list[tuple[Cell, str]]:
    return sorted([(board.cell(line, j), "1") for j in scan_forward(ones)]
                  + [(board.cell(line, j), "0") for j in scan_forward(zeros)])


def _clue_text(clue: Clue) -> str:
    return " ".join(map(str, clue)) or "0"


def t_overlap(puzzle: Puzzle, board: Board, run: Run) -> int:
    """Easy: one line's overlap of its leftmost and rightmost placements (filled cells)."""
    return _line_step(puzzle, board, run, "overlap", 0, 0,
                      N_("In {line} (clue {clue}), push every run as far left and as far right as it goes: "
                         "cells a run covers both ways are filled."))


def t_reach(puzzle: Puzzle, board: Board, run: Run) -> int:
    """Easy: cells of one line that no run can reach are empty."""
    return _line_step(puzzle, board, run, "reach", 0, 1,
                      N_("In {line} (clue {clue}), no run can reach these cells: they stay empty."))


def t_line(puzzle: Puzzle, board: Board, run: Run) -> int:
    """Medium: what every filling of one line agrees on."""
    return _line_step(puzzle, board, run, "line", 1, None,
                      N_("Every way to place the runs {clue} in {line} that fits its known cells agrees "
                         "on these cells."))


def _line_step(puzzle: Puzzle, board: Board, run: Run, name: str, tier: int, half: int | None,
               template: str) -> int:
    """The first line (rows, then columns) where the line answer of ``tier`` has news (only
    its filled cells with ``half`` 0, only its empty ones with 1): written, counted once."""
    for line in range(puzzle.rows + puzzle.cols):
        n = board.width(line)
        full = (1 << n) - 1
        if board.known[line] == full or (board.settled[tier] >> line) & 1:
            continue
        clue = puzzle.clue(line)
        hit = LINES.answer(tier, clue, n, board.known[line], board.value[line])
        if hit < 0:
            raise Contradiction(line)
        if not hit:
            board.settled[tier] |= 1 << line
        ones = 0 if half == 1 else hit >> n
        zeros = 0 if half == 0 else hit & full
        if ones | zeros:
            cells = _cells(board, line, ones, zeros)
            board.write(line, ones, zeros)
            run.used(name, cells, Text(template, line=_line_text(puzzle, line), clue=_clue_text(clue))
                     if run.explain else "")
            return 1
    return 0


def _suppose(puzzle: Puzzle, board: Board, run: Run, name: str, tier: int, rounds: int | None, template: str) -> int:
    """The first unknown cell (row-major) one of whose colours fails: it takes the other.
    With the solution known (``run.solution``) only each cell's wrong colour is tried: the
    right one agrees with a whole solution, so no sound technique refutes it."""
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            if board.get(r, c) >= 0:
                continue
            for v in ((1 - int(run.solution[r][c]),) if run.solution else (1, 0)):
                if refutes(puzzle, board, (r, c), v, tier, rounds):
                    board.assign(r, c, 1 - v)
                    run.used(name, [((r, c), str(1 - v))],
                             Text(template, row=r + 1, column=c + 1,
                                  colour=Text(N_("filled")) if v else Text(N_("empty")))
                             if run.explain else "")
                    return 1
    return 0


def t_chain(puzzle: Puzzle, board: Board, run: Run) -> int:
    """Hard: a supposition refuted within ``CHAIN_ROUNDS`` rounds of whole-line settling."""
    return _suppose(puzzle, board, run, "chain", 1, CHAIN_ROUNDS,
                    N_("Suppose the cell at row {row}, column {column} were {colour}: settling its row and "
                       "column, and then the lines they change, leaves a line with no way to place its runs."))


def t_trial(puzzle: Puzzle, board: Board, run: Run) -> int:
    """Expert: a supposition refuted by the whole-line closure, however long it takes."""
    return _suppose(puzzle, board, run, "trial", 1, None,
                    N_("Suppose the cell at row {row}, column {column} were {colour}: following it through "
                       "line by line leads to a line with no way to place its runs."))


# The ladder table, in the rows every ladder declares its techniques with (``houses.Tech``:
# name, tier, function - here ``fn(puzzle, board, run)``, 1 when it wrote news - weight for
# the score inside a level, one step's rating on the 1-10 footing, and the how-to page's
# title and description).
TECHNIQUES = Ladder(
    Tech("overlap", Level.EASY, t_overlap, 1.0, 1.2, title=N_("Overlaps"),
         description=N_("Push the runs of a line as far left as they go, then as far right: a cell that the same run covers both ways is filled. A clue of 8 on 10 cells fills the middle 6.")),
    Tech("reach", Level.EASY, t_reach, 1.0, 1.5, title=N_("Out of reach"),
         description=N_("A cell that no run can reach, pushed either way, stays empty: cells past the ends, gaps too small for any run, and the cells around a finished run.")),
    Tech("line", Level.MEDIUM, t_line, 3.0, 2.8, title=N_("Whole lines"),
         description=N_("Try every way to place a line's runs among its known cells: a cell that all of them fill is filled, a cell all of them leave empty is empty.")),
    Tech("chain", Level.HARD, t_chain, 8.0, 4.5, title=N_("Two lines at once"),
         description=N_("Suppose a cell filled (or empty): if settling its row and column, and then the lines they change, leaves some line with no way to place its runs, the cell is the other colour.")),
    Tech("trial", Level.EXPERT, t_trial, 20.0, 7.0, title=N_("One trial"),
         description=N_("Suppose a cell filled (or empty) and follow it through line by line; if a line ends up with no way to place its runs, the cell is the other colour.")),
)


@dataclass
class LadderResult:
    level: Level
    solved: bool
    counts: dict[str, int]
    steps: list
    grid: tuple[str, ...]


def ladder(puzzle: Puzzle, givens: Sequence[str] | None = None, explain: bool = False,
           solution: Sequence[str] | None = None) -> LadderResult:
    """Grade a puzzle: the easy closure, then the easiest technique that finds anything, one
    use at a time, back to the easy closure after each. The level is the hardest technique
    used; ``solved`` is False where even one trial finds nothing. ``solution``, when the
    caller knows the puzzle's only one, spares the trials of right colours (same result)."""
    return _climb(puzzle, puzzle.board(givens), Run(explain, solution))


def _climb(puzzle: Puzzle, board: Board, run: Run) -> LadderResult:
    """The ladder's loop from ``board`` (already closed by the easy tier or not), counting
    into ``run``."""
    level = Level.EASY
    while True:
        if _easy_closure(puzzle, board, run):
            break
        for tech in TECHNIQUES[2:]:
            if tech.fn(puzzle, board, run):
                level = max(level, tech.tier)
                break
        else:
            return LadderResult(Level.EXPERT, False, run.counts, run.steps, board.grid())
    return LadderResult(level, True, run.counts, run.steps, board.grid())


def _easy_closure(puzzle: Puzzle, board: Board, run: Run) -> bool:
    """Overlap and reach until neither finds anything; counted line by line."""
    if not run.explain:
        def note(line: int, ones: int, zeros: int) -> None:
            if ones:
                run.counts["overlap"] = run.counts.get("overlap", 0) + 1
            if zeros:
                run.counts["reach"] = run.counts.get("reach", 0) + 1
        return close(puzzle, board, 0, on_news=note)
    while t_overlap(puzzle, board, run) or t_reach(puzzle, board, run):
        pass
    return board.solved()


def _first_refuted(puzzle: Puzzle, board: Board, rounds: int | None,
                   picture: Sequence[str] | None = None) -> tuple[Cell, int] | None:
    """The first unknown cell (row-major) with a colour that a supposition refutes, and the
    other colour (only the colour ``picture`` lacks is supposed, when given)."""
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            if board.get(r, c) < 0:
                for v in ((1 - int(picture[r][c]),) if picture else (1, 0)):
                    if refutes(puzzle, board, (r, c), v, 1, rounds):
                        return (r, c), 1 - v
    return None


# ----- SAT --------------------------------------------------------------------------
# Cell variables are 1..rows*cols (row-major); each line adds its order variables after
# them. Order encoding: A(j, t) says run j starts at or before cell lo_j + t, where lo_j is
# its leftmost start and t < slack (the line's free cells, the same for every run; from
# t = slack on A is true, below 0 false). Every run's clauses then depend only on (its
# length, the slack, whether it is the first or the last run), so they are made once per
# such block and renumbered per run through one lookup table by C-level ``itemgetter``s:
# a random 20x20 picture's 800 or so distinct clues cost no clause-building in Python.

@dataclass(frozen=True)
class _RunCNF:
    """The clauses of one run, as positions in the table ``_renumbered`` makes: the run's
    cells window (``window`` cells from lo_j), its order variables and the next run's, with
    each one's negation mirrored about position ``zero``."""

    zero: int
    window: int
    units: tuple[int, ...]
    clauses: tuple[Callable, ...]  # itemgetters: table -> the clause's literals


@lru_cache(maxsize=None)  # one per (length, slack, first, last): a few thousand at most
def _run_cnf(length: int, slack: int, first: bool, last: bool) -> _RunCNF:
    """Run j's clauses: A(j, t) implies A(j, t+1); run j+1 started by t (its own offset)
    implies run j started by t (the same cells later by length_j + 1); a cell the run covers
    (started by it, not by it minus the length) is filled; a filled cell is covered by the
    last run started by it (for the first run: some run has started by it). Checked against
    the listing of fillings on every clue to 8 cells
    (``test_the_line_cnf_has_the_fillings_as_models``)."""
    window = length + slack + (0 if last else 1)  # cells lo_j .. : the run, its slack, the gap after
    zero = window + 2 * slack
    true, false = "true", "false"  # constants: a clause holding ``true`` is dropped, ``false`` left out

    def here(t: int):  # A(j, t)
        return false if t < 0 else true if t >= slack else zero + window + 1 + t

    def after(t: int):  # A(j+1, t)
        return false if t < 0 or last else true if t >= slack else zero + window + 1 + slack + t

    def cell(u: int) -> int:
        return zero + 1 + u

    def neg(lit):
        return false if lit == true else true if lit == false else 2 * zero - lit

    out: list[tuple[int, ...]] = []

    def clause(*lits) -> None:
        if true not in lits:
            out.append(tuple(lit for lit in lits if lit != false))

    for t in range(slack - 1):
        clause(neg(here(t)), here(t + 1))
    if not last:
        for t in range(slack):
            clause(neg(after(t)), here(t))
    for u in range(length + slack):
        clause(neg(here(u)), here(u - length), cell(u))
    if first:
        for u in range(slack):
            clause(neg(cell(u)), here(u))
    for u in range(length, length + slack + (0 if last else 1)):
        clause(neg(cell(u)), neg(here(u)), after(u - length - 1), neg(here(u - length)))
    units = tuple(c[0] for c in out if len(c) == 1)
    getters = tuple(itemgetter(*c) for c in out if len(c) > 1)
    return _RunCNF(zero, window, units, getters)


@lru_cache(maxsize=64)
def _line_cells(rows: int, cols: int) -> tuple[tuple[list[int], list[int]], ...]:
    """Per line, its cell variables, and their negations in reverse order."""
    out = []
    for line in range(rows + cols):
        cells = [line * cols + j + 1 for j in range(cols)] if line < rows else \
            [j * cols + (line - rows) + 1 for j in range(rows)]
        out.append((cells, [-v for v in reversed(cells)]))
    return tuple(out)


_ZERO = 25 * 25 + 2 * 25 * 84  # more variables than a 25x25 grid has: cells, runs x slack (<= 84) per line
_NUMBERS = list(range(-_ZERO, _ZERO + 1))  # the order variables' numbers are slices of it


def _renumbered(clue: Clue, cells: list[int], negated: list[int], top: int) -> list[Iterable[tuple[int, ...]]]:
    """A line's clauses on its ``cells`` (``negated``: their negations in reverse order), its
    order variables numbered from ``top + 1`` (slack of them per run): a list of iterables
    of clauses, each run's clauses a ``map`` of its getters over its table (a C-level loop)."""
    n = len(cells)
    if not clue:
        return [[(v,) for v in negated]]
    k = len(clue)
    slack = n - sum(clue) - k + 1
    out: list[Iterable[tuple[int, ...]]] = []
    lo = 0
    for j, length in enumerate(clue):
        cnf = _run_cnf(length, slack, j == 0, j == k - 1)
        base = top + j * slack
        w = cnf.window
        table = _NUMBERS[_ZERO - base - 2 * slack:_ZERO - base] + negated[n - lo - w:n - lo] + [0] \
            + cells[lo:lo + w] + _NUMBERS[_ZERO + base + 1:_ZERO + base + 2 * slack + 1]
        if cnf.units:
            out.append([(table[unit],) for unit in cnf.units])
        out.append(map(call, cnf.clauses, repeat(table)))
        lo += length + 1
    return out


def _cnf(puzzle: Puzzle) -> Iterator[tuple[int, ...]]:
    """The clauses of the clues (tuples of literals)."""
    rows, cols = puzzle.rows, puzzle.cols
    top = rows * cols
    parts: list[Iterable[tuple[int, ...]]] = []
    for line, (cells, negated) in enumerate(_line_cells(rows, cols)):
        clue = puzzle.clue(line)
        parts += _renumbered(clue, cells, negated, top)
        top += (len(cells) - sum(clue) - len(clue) + 1) * len(clue)
    return chain.from_iterable(parts)


def sat_clauses(puzzle: Puzzle) -> tuple[list[tuple[int, ...]], int]:
    """CNF of the clues (``_line_cnf`` per line), and the cell count: the variables to watch."""
    return list(_cnf(puzzle)), puzzle.rows * puzzle.cols


def _fits(puzzle: Puzzle) -> bool:
    return all(clue_fits(puzzle.clue(line), puzzle.rows if line >= puzzle.rows else puzzle.cols)
               for line in range(puzzle.rows + puzzle.cols))


def sat_solutions(puzzle: Puzzle, givens: Sequence[str] | None = None, limit: int = 2) -> list[tuple[str, ...]]:
    """Up to ``limit`` solutions by the SAT solver, as row strings."""
    if not _fits(puzzle):
        return []
    clauses, cells = sat_clauses(puzzle)
    cols = puzzle.cols
    for r, row in enumerate(givens or ()):
        for c, ch in enumerate(row):
            if ch != EMPTY:
                v = r * cols + c + 1
                clauses.append((v if ch == "1" else -v,))
    found = models(clauses, range(1, cells + 1), limit)
    return [tuple("".join("1" if r * cols + c + 1 in model else "0" for c in range(cols))
                  for r in range(puzzle.rows)) for model in found]


def sat_unique(puzzle: Puzzle, solution: Sequence[str]) -> bool:
    """Whether ``solution`` is the puzzle's one and only solution: it shows the clues, and
    the SAT solver finds none that differs from it in some cell. The same count as
    ``sat_solutions(puzzle) == [solution]`` with one solver call instead of two."""
    if clues_of(solution) != (tuple(puzzle.row_clues), tuple(puzzle.col_clues)):
        return False
    cols = puzzle.cols
    other = [-(r * cols + c + 1) if ch == "1" else r * cols + c + 1
             for r, row in enumerate(solution) for c, ch in enumerate(row)]
    with Solver(name=SOLVER_NAME) as solver:
        load(solver, chain(_cnf(puzzle), (other,)))
        return not solver.solve()


# ----- pictures that look drawn ---------------------------------------------------------
STYLES = ("random", "symmetric", "blobs")
# The share of filled cells a style aims at, per level: denser pictures give longer runs,
# and longer runs overlap more (easier); sparse ones leave more freedom (harder).
DENSITY: dict[Level, tuple[float, float]] = {
    Level.EASY: (0.58, 0.68), Level.MEDIUM: (0.52, 0.62), Level.HARD: (0.46, 0.56), Level.EXPERT: (0.45, 0.55),
}
SMOOTH_PASSES = 2  # majority passes that turn noise into blobs


def picture(rows: int, cols: int, style: str, density: float, rng) -> list[list[int]]:
    """A random picture: ``random`` noise at ``density``, ``symmetric`` noise mirrored left
    to right, or ``blobs``: noise smoothed by majority passes into clumps."""
    grid = [[1 if rng.random() < density else 0 for _ in range(cols)] for _ in range(rows)]
    if style == "symmetric":
        for row in grid:
            for c in range(cols // 2):
                row[cols - 1 - c] = row[c]
    elif style == "blobs":
        for _ in range(SMOOTH_PASSES):
            grid = _smoothed(grid, density)
    return grid


def _smoothed(grid: list[list[int]], density: float) -> list[list[int]]:
    """One smoothing pass: each cell's 3x3 neighbourhood counted (the cell itself twice, so
    ties keep their colour), and the ``density`` share of cells with the highest counts
    filled: clumps grow, specks go, and the picture keeps its density."""
    rows, cols = len(grid), len(grid[0])
    score = []
    for r in range(rows):
        for c in range(cols):
            total = grid[r][c]
            for rr in range(max(r - 1, 0), min(r + 2, rows)):
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    total += grid[rr][cc]
            score.append((total, r, c))
    filled = round(density * rows * cols)
    out = [[0] * cols for _ in range(rows)]
    for _, r, c in sorted(score, key=lambda t: -t[0])[:filled]:
        out[r][c] = 1
    return out


def rows_text(grid: Sequence[Sequence[int]]) -> tuple[str, ...]:
    return tuple("".join(map(str, row)) for row in grid)


REPAIRS = 40  # cells a generation attempt may flip before it starts over


@dataclass
class Made:
    """A picture the ladder solves at the level asked for, and its grade."""

    solution: tuple[str, ...]
    result: LadderResult


def attempt(rows: int, cols: int, style: str, level: Level, rng, grid: list[list[int]] | None = None,
            repairs: int = REPAIRS) -> Made | None:
    """One try at a puzzle graded exactly ``level``: a picture in ``style`` (or ``grid``),
    and while the whole-line closure stalls on it, a cell the closure left open flips (and
    its mirror, for ``symmetric``) - the picture stays the style's, and each flip makes the
    stalled part smaller. Above medium a stalled picture is kept when one supposition at a
    time (``chain`` or ``trial``) solves it. None when the attempt missed the level."""
    if grid is None:
        lo, hi = DENSITY[level]
        grid = picture(rows, cols, style, rng.uniform(lo, hi), rng)
    for _ in range(repairs):
        solution = rows_text(grid)
        puzzle = Puzzle(*clues_of(solution))
        board = puzzle.board()
        if level <= Level.MEDIUM:
            # The ladder's own first step: its counts and board are the grade's.
            run = Run(solution=solution)
            if _easy_closure(puzzle, board, run):
                if level == Level.EASY:
                    return Made(solution, LadderResult(Level.EASY, True, run.counts, run.steps, board.grid()))
                return None  # the easy closure alone solves it
            if level == Level.MEDIUM:
                easy = board.copy()
                # Whole lines from where the easy tier stopped reach the same fixpoint as from
                # an empty board (every easy deduction is a whole-line one).
                if close(puzzle, board, 1):
                    result = _climb(puzzle, easy, run)
                    return Made(solution, result) if result.level == level else None
            # Easy: repaired where the easy closure stalls, every flip towards an easy picture.
        elif close(puzzle, board, 1):
            return None  # line by line solves it: never harder than medium
        if level >= Level.HARD and _solves_by_suppositions(puzzle, board, level, solution):
            result = ladder(puzzle, solution=solution)
            return Made(solution, result) if result.solved and result.level == level else None
        open_cells = [(r, c) for r in range(rows) for c in range(cols) if board.get(r, c) < 0]
        r, c = rng.choice(open_cells)
        grid[r][c] ^= 1
        if style == "symmetric":
            grid[r][cols - 1 - c] = grid[r][c]
    return None


def _solves_by_suppositions(puzzle: Puzzle, board: Board, level: Level,
                            picture: Sequence[str] | None = None) -> bool:
    """Whether single suppositions (chains at hard, trials at expert) and the whole-line
    closure between them fill a board the closure stalled on. With ``picture`` only the
    colour it does not have is supposed in each cell: the picture is a solution, so its own
    colour is never refuted, and the verdict is the same at half the cost."""
    rounds = CHAIN_ROUNDS if level == Level.HARD else None
    while True:
        hit = _first_refuted(puzzle, board, rounds, picture)
        if hit is None:
            return False
        (r, c), v = hit
        board.assign(r, c, v)
        if close(puzzle, board, 1, 1 << r | 1 << (puzzle.rows + c)):
            return True


# ----- a user's own picture ------------------------------------------------------------
def read_text_art(text: str) -> tuple[str, ...]:
    """A picture typed as text: one line per row, ``#``, ``X``, ``x``, ``1`` or ``█`` for a
    filled cell, ``.``, ``-``, ``0``, ``_`` or a space for an empty one; blank lines above
    and below are dropped, short lines padded with empty cells. ``ValueError`` names the
    first character that is neither, with its line and column."""
    lines = text.splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    width = max((len(line.rstrip()) for line in lines), default=0)
    out = []
    for number, line in enumerate(lines, 1):
        row = []
        for col, ch in enumerate(line.rstrip().ljust(width), 1):
            if ch in "#Xx1\u2588":
                row.append("1")
            elif ch in ".-0_ ":
                row.append("0")
            else:
                raise ValueError(f"{number}:{col}: {ch!r} is neither a filled cell (#) nor an empty one (.)")
        out.append("".join(row))
    return tuple(out)
