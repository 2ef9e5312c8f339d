"""Second solutions a carve can see at a glance on grids too large to list: swaps of two lines.

Two rows that differ in some columns can trade their cells in an even number of them, as
many ``1 0`` as ``0 1``: every row and column keeps its balance. When the rows and the
columns they cross there are still valid lines (runs, distinct lines) and no sign joins
a traded cell to one that is not, the grid with those cells flipped is a second solution
of any board on which they are all empty; the same for two columns. A carve's board with
one given gone that leaves such a swap empty has two solutions: no sound technique, nor a
trial, can bring that given back. Swaps of two and of four cells a line are looked for.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Sequence

from bookgen.core.bits import scan_forward
from bookgen.core.types import Cell, Edge
from bookgen.solve.binary.rules import Board, line_cell, line_patterns

if TYPE_CHECKING:
    from bookgen.solve.binary import BinaryEngine

SWAP_SIZES = (1, 2)  # how many 1s (and as many 0s) of a line a swap trades


@lru_cache(maxsize=None)
def swap_masks(n: int, max_run: int) -> dict[int, frozenset[int]]:
    """Per valid line, the masks of ``SWAP_SIZES`` 1s and as many 0s of the line whose flip
    leaves a valid line."""
    valid = set(line_patterns(n, max_run))
    full = (1 << n) - 1
    out = {}
    for p in valid:
        ones, zeros = list(scan_forward(p)), list(scan_forward(full & ~p))
        masks = set()
        for k in SWAP_SIZES:
            for a in combinations(ones, k):
                for b in combinations(zeros, k):
                    m = sum(1 << j for j in a + b)
                    if p ^ m in valid:
                        masks.add(m)
        out[p] = frozenset(masks)
    return out


class TwoLineSwaps:
    """The swaps of ``solution`` (see the module), kept per cell, for the carve's givens' pass
    with every sign of ``edges`` on; the same questions as ``SecondGrids`` (``has_two``,
    ``keep``, ``signs_pass``), answered "a second solution" only where a swap shows one (no
    is "not known": ask the closure).

    Plain version: the hard tier's closure, and SAT, on the board without the given;
    ``test_two_line_swaps_are_second_solutions`` (tests/test_binary.py) checks that each
    swap made is a solution and that SAT finds two where one is seen.
    """

    __slots__ = ("_cells", "_by_cell", "_swaps", "_by_edge", "_kept")

    def __init__(self, engine: "BinaryEngine", solution: Board, edges: Sequence[Edge], cells: Sequence[Cell]):
        n = engine.n
        swaps = swap_masks(n, engine.max_run)
        # Every swap of the solution: (the lines traded, as (line, other, mask), and its cells).
        found: list[tuple[int, int, int, tuple[Cell, ...]]] = []
        value = solution.value
        for lo in (0, n):  # two rows, then two columns
            lines, crossing = value[lo:lo + n], value[n - lo:2 * n - lo]
            for i1, i2 in combinations(range(n), 2):
                pair = 1 << i1 | 1 << i2
                # the crossing lines where the two differ and that stay valid with their cells traded
                good = 0
                for j in scan_forward(lines[i1] ^ lines[i2]):
                    if pair in swaps[crossing[j]]:
                        good |= 1 << j
                for m in swaps[lines[i1]] & swaps[lines[i2]]:
                    if m & ~good or lo and m.bit_count() == 2:  # (two rows found each rectangle)
                        continue
                    if engine.unique_lines and not (_distinct_after(lines, {i1: m, i2: m})
                                                    and _distinct_after(crossing, dict.fromkeys(scan_forward(m), pair))):
                        continue
                    traded = tuple(line_cell(n, lo + i, j) for i in (i1, i2) for j in scan_forward(m))
                    found.append((lo + i1, lo + i2, m, traded))
        self._swaps = found
        # The givens' pass, every sign on: the swaps no sign crosses (joins a traded cell to
        # one that is not), per cell: (its line, its bit there, the other line, the mask).
        crossed = _crossed(found, edges)
        by_cell: dict[Cell, list[tuple[int, int, int, int]]] = {}
        for (line1, line2, m, traded), signs in zip(found, crossed):
            if signs:
                continue
            for cell in traded:
                line, other = (line1, line2) if cell in traded[:len(traded) // 2] else (line2, line1)
                bit = 1 << (cell[1] if line < n else cell[0])
                by_cell.setdefault(cell, []).append((line, bit, other, m))
        self._cells, self._by_cell = cells, by_cell
        self._by_edge: dict[int, list[int]] = {}
        self._kept = 0

    def has_two(self, i: int, board: Board) -> bool:
        """Whether the ``i``-th clue of the pass has a swap through it: a given's swap empty on
        ``board`` but for that given; a sign's swap empty, crossed by no other sign still on."""
        if self._cells is None:
            untested = -1 << (i + 1)  # the signs after this one are still on, and those kept
            on = self._kept | untested
            return any(not crossing & on for crossing in self._by_edge.get(i, ()))
        known = board.known
        for line, bit, other, m in self._by_cell.get(self._cells[i], ()):
            if known[line] & m == bit and not known[other] & m:
                return True
        return False

    def keep(self, i: int) -> None:
        """The ``i``-th clue of the pass stays (the givens' are read off the board)."""
        self._kept |= 1 << i

    def signs_pass(self, edges: Sequence[Edge], board: Board) -> None:
        """From here on the signs are tested, in the order ``edges``, on ``board`` (the givens
        kept): per sign, the signs (a bit each) crossing each swap it crosses that is empty."""
        known = board.known
        empty = [(traded, i) for i, (_, _, _, traded) in enumerate(self._swaps)
                 if not any(known[r] >> c & 1 for r, c in traded)]
        crossed = _crossed([self._swaps[i] for _, i in empty], edges)
        by_edge: dict[int, list[int]] = {}
        for signs in crossed:
            mask = sum(1 << j for j in signs)
            for j in signs:
                by_edge.setdefault(j, []).append(mask)
        self._by_edge, self._cells, self._kept = by_edge, None, 0


def _crossed(swaps: Sequence[tuple[int, int, int, tuple[Cell, ...]]], edges: Sequence[Edge]) -> list[list[int]]:
    """Per swap, the indices of the signs of ``edges`` that join a traded cell to one that is not."""
    across: dict[Cell, list[tuple[Cell, int]]] = {}  # a cell's neighbours across a sign, and its index
    for j, edge in enumerate(edges):
        across.setdefault(edge.a, []).append((edge.b, j))
        across.setdefault(edge.b, []).append((edge.a, j))
    if not across:
        return [[] for _ in swaps]
    return [[j for cell in traded for other, j in across.get(cell, ()) if other not in traded]
            for *_, traded in swaps]


def _distinct_after(lines: Sequence[int], flips: dict[int, int]) -> bool:
    """Whether the lines, each of ``flips``' with the cells of its mask flipped, are all different."""
    after = list(lines)
    for i, m in flips.items():
        after[i] ^= m
    return len(set(after)) == len(after)
