"""Second solutions a carve can see at a glance on grids too large to list: swaps of two lines.

Two rows that differ in columns ``c1`` and ``c2``, one holding ``1 0`` there and the
other ``0 1``, can trade those cells: every row and column keeps its balance. When the
rows and columns they leave are still valid lines (runs, distinct lines) and no sign
joins a traded cell to one that is not, the grid with those four cells flipped is a
second solution of any board on which they are all empty. A carve's board with one
given gone that leaves such a rectangle empty has two solutions: no sound technique,
nor a trial, can bring that given back.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

from bookgen.core.bits import scan_forward
from bookgen.core.types import Cell, Edge
from bookgen.solve.binary.rules import Board, line_patterns

if TYPE_CHECKING:
    from bookgen.solve.binary import BinaryEngine


@lru_cache(maxsize=None)
def swap_masks(n: int, max_run: int) -> dict[int, frozenset[int]]:
    """Per valid line, the two-cell masks (one 1, one 0 of the line) whose flip leaves a valid line."""
    valid = set(line_patterns(n, max_run))
    full = (1 << n) - 1
    out = {}
    for p in valid:
        out[p] = frozenset(1 << a | 1 << b for a in scan_forward(p) for b in scan_forward(full & ~p)
                           if p ^ (1 << a | 1 << b) in valid)
    return out


class TwoLineSwaps:
    """The rectangles of ``solution`` that can be flipped (see the module), kept per cell, for
    the carve's givens' pass with every sign of ``edges`` on; the same questions as
    ``SecondGrids`` (``has_two``, ``keep``, ``signs_pass``), answered "a second solution"
    only where such a rectangle shows one (no is "not known": ask the closure).

    Plain version: the hard tier's closure, and SAT, on the board without the given;
    ``test_two_line_swaps_are_second_solutions`` (tests/test_binary.py) checks that each
    rectangle flipped is a solution and that SAT finds two where one is seen.
    """

    __slots__ = ("_cells", "_by_cell")

    def __init__(self, engine: "BinaryEngine", solution: Board, edges: Sequence[Edge], cells: Sequence[Cell]):
        n = engine.n
        rows, cols = solution.value[:n], solution.value[n:]
        swaps = swap_masks(n, engine.max_run)
        signed: dict[Cell, list[Cell]] = {}  # each cell's neighbours across a sign
        for edge in edges:
            signed.setdefault(edge.a, []).append(edge.b)
            signed.setdefault(edge.b, []).append(edge.a)
        by_cell: dict[Cell, list[tuple[int, int]]] = {}  # cell -> (the other row, the two columns' mask)
        for r1 in range(n):
            for r2 in range(r1 + 1, n):
                differ = rows[r1] ^ rows[r2]
                row_pair = 1 << r1 | 1 << r2
                for m in swaps[rows[r1]] & swaps[rows[r2]]:
                    if m & ~differ:
                        continue
                    c1, c2 = (j for j in scan_forward(m))
                    if row_pair not in swaps[cols[c1]] or row_pair not in swaps[cols[c2]]:
                        continue
                    if engine.unique_lines and not _still_distinct(rows, r1, r2, m) \
                            or engine.unique_lines and not _still_distinct(cols, c1, c2, row_pair):
                        continue
                    four = ((r1, c1), (r1, c2), (r2, c1), (r2, c2))
                    if signed and any(b not in four for a in four for b in signed.get(a, ())):
                        continue
                    for r, other in ((r1, r2), (r2, r1)):
                        for c in (c1, c2):
                            by_cell.setdefault((r, c), []).append((other, m))
        self._cells, self._by_cell = cells, by_cell

    def has_two(self, i: int, board: Board) -> bool:
        """Whether a rectangle through the ``i``-th given is empty on ``board`` but for that given."""
        r, c = self._cells[i]
        known, bit = board.known, 1 << c
        mine = known[r]
        for other, m in self._by_cell.get((r, c), ()):
            if mine & m == bit and not known[other] & m:
                return True
        return False

    def keep(self, i: int) -> None:
        """Nothing to track: ``has_two`` reads the board."""

    def signs_pass(self, edges: Sequence[Edge]) -> None:
        """The signs' pass: no rectangle is looked for there (``has_two`` says no)."""
        self._by_cell = {}
        self._cells = [(0, 0)] * len(edges)


def _still_distinct(lines: Sequence[int], i: int, j: int, m: int) -> bool:
    """Whether lines ``i`` and ``j`` with the cells of ``m`` flipped differ from every other line."""
    others = set(lines)
    others.discard(lines[i])
    others.discard(lines[j])
    return lines[i] ^ m not in others and lines[j] ^ m not in others
