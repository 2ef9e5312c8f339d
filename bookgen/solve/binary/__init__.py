"""The binary-grid engine shared by Takuzu and Tango.

A grid of N x N cells, each 0 or 1, where every row and column is balanced
(N/2 of each), no line has a run longer than ``max_run``, optionally no two
rows (or columns) are equal, and optional signs join neighbours (``=`` same,
``x`` opposite).

Representation: a ``Board`` keeps each of the 2N lines (rows 0..N-1, then
columns N..2N-1) as two bitmasks, ``known`` and ``value``; bit j of a row is
column j, bit j of a column is row j. Signs live on lines too: bit j of
``eq``/``neq`` joins cells j and j+1 of that line. Every valid line is one of
a few hundred precomputed patterns (34 for N=8, 518 for N=14), so "which
completions of this line are still possible" is a filter over a short list
of ints, memoised per line state.

The ladder of techniques (tier = difficulty level):

- easy: ``pair`` (``00_`` -> ``001``), ``sandwich`` (``0_0`` -> ``010``),
  ``balance`` (a line holding N/2 of one symbol takes the other everywhere
  else), ``sign`` (one end of ``=``/``x`` known fixes the other).
- medium: ``line`` - enumerate the valid completions of a line with at most
  ``SHORT_LINE`` empty cells (runs, balance and its signs) and keep what they
  all agree on.
- hard: ``long_line`` - the same reasoning on a line with more empty cells;
  ``distinct`` - a completion that would copy a finished line is ruled out.
- expert: ``trial`` - assume one cell, and reach a contradiction with the
  tiers above; the cell takes the other symbol. Never nested.

Every technique is a sound deduction, so a puzzle the ladder fills
completely has exactly one solution; the exact SAT check is run once on top.
"""

from __future__ import annotations

from bookgen.core.memo import MemoBounds
from bookgen.core.types import Cell
from bookgen.solve.binary.closure import MemoClosure
from bookgen.solve.binary.explain import Explanations
from bookgen.solve.binary.fastline import LineShortcuts
from bookgen.solve.binary.grids import TABLE_PATTERNS, grid_table, random_solution
from bookgen.solve.binary.ladder import LineFind, Ladder
from bookgen.solve.binary.reference import ReferenceDeduction
from bookgen.solve.binary.rules import (
    HARD, LINE_MEMO, LINE_TECHNIQUES, SHORT_LINE, SIGN_LAYOUTS, STATE_MEMO, SIGN_FREE, TECHNIQUE_LEVEL, TECHNIQUE_RATING, TECHNIQUE_WEIGHT, WHOLE_LINE, Board,
    Contradiction, _crossings, line_cell, line_name, line_patterns,
)
from bookgen.solve.binary.sat import SAT_RENEW, SatProof
from bookgen.solve.binary.shortcuts import GeneratorShortcuts
from bookgen.solve.sat import Solver

__all__ = [
    "BinaryEngine", "Board", "Contradiction", "LineFind", "HARD", "LINE_TECHNIQUES", "SAT_RENEW", "SHORT_LINE",
    "SIGN_FREE", "TABLE_PATTERNS", "TECHNIQUE_LEVEL", "TECHNIQUE_RATING", "TECHNIQUE_WEIGHT", "WHOLE_LINE", "grid_table",
    "line_cell", "line_name", "line_patterns", "random_solution",
]


class BinaryEngine(ReferenceDeduction, LineShortcuts, MemoClosure, GeneratorShortcuts, Ladder, Explanations,
                   SatProof):
    """Rules of one binary grid family plus its techniques, closure and SAT encoding.

    A thin facade: each concern lives in its own module (``reference``,
    ``fastline``, ``closure``, ``shortcuts``, ``ladder``, ``explain``,
    ``sat``); this class holds the state they share.
    """

    def __init__(self, n: int, max_run: int = 2, unique_lines: bool = False,
                 names: tuple[str, str] = ("0", "1")):
        self.n = n
        self.max_run = max_run
        self.unique_lines = unique_lines
        self.names = names  # how explanations name symbol 0 and symbol 1
        self.full = (1 << n) - 1
        self.half = n // 2
        self.windows = [((1 << (max_run + 1)) - 1) << s for s in range(n - max_run)]
        self._code = "H" if n <= 16 else "Q"  # array type code wide enough for a line
        # Memos hold only ints (keys and packed answers) or bytes: the garbage
        # collector never walks such dicts, however large they grow. They are
        # plain dicts (looked up in the innermost loops), each with a bound that
        # ``_trim_memos`` enforces, so a long build's worker keeps its memory.
        bounds = self._bounds = MemoBounds()
        # line_options: completions per packed line state, and their AND << n | OR
        # (line_masks fills the second alone): cleared together.
        self._cands, self._masks = bounds.linked(STATE_MEMO, 2)
        self._cells_halves: tuple | None = None  # line_masks: the patterns per half-line state (``_halves``)
        self._agree = bounds.new(STATE_MEMO)  # line_masks: AND << n | OR of each pattern set met
        # The closure's memos, one per (tier, signs of a line): Tango meets many sign layouts.
        # Each holds at most LINE_MEMO entries when a board takes it (``_line_memos``).
        self._tables: dict[tuple[int, int, int], dict[int, int]] = bounds.new(SIGN_LAYOUTS)
        self._found: dict[str, dict[int, int]] = {}  # the ladder's answers, per technique
        self._copied = bounds.new(LINE_MEMO)  # answers that depend on several finished parallel lines
        self._memo_keys = [(self, tier) for tier in range(HARD + 1)]  # a board's memo lists, per engine and tier
        self._crossings = _crossings(n)
        self._line_bits = tuple(1 << line % n for line in range(2 * n))  # a line's bit in the lines crossing it
        self._every = (1 << 2 * n) - 1  # a queue of every line
        self._parallel = (tuple(range(n)), tuple(range(n, 2 * n)))  # the rows, the columns
        self._full_queues: dict[Cell | None, list[int]] = {}  # _propagate_distinct's first stack of every line
        self._sat: Solver | None = None
        self._sat_top = 0
        self._sat_calls = 0

    def _trim_memos(self) -> None:
        """Enforce the memos' bounds: called by every ``_line_memos`` and ``ladder``, so a
        memo holds at most its bound plus what one puzzle attempt or one ladder stored."""
        self._bounds.trim()
