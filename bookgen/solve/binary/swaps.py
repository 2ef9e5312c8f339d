"""Second solutions a carve can see at a glance on grids too large to list: swaps of two lines.

Two rows that differ in some columns can trade their cells in an even number of them, as
many ``1 0`` as ``0 1``: every row and column keeps its balance. When the rows and the
columns they cross there are still valid lines (runs, distinct lines) and no sign joins
a traded cell to one that is not, the grid with those cells flipped is a second solution
of any board on which they are all empty; the same for two columns. A carve's board with
one given gone that leaves such a swap empty has two solutions: no sound technique, nor a
trial, can bring that given back. Only rectangles are looked for (two cells a line):
swaps of four cells a line too cost more to list than they save (docs/benchmarks.md, tango3).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Sequence

from bookgen.core.bits import scan_forward as _bits
from bookgen.core.types import Cell, Edge
from bookgen.solve.binary.rules import Board, line_patterns

if TYPE_CHECKING:
    from bookgen.solve.binary import BinaryEngine

SWAP_SIZES = (1,)  # how many 1s (and as many 0s) of a line a swap trades


@lru_cache(maxsize=None)
def swap_masks(n: int, max_run: int) -> dict[int, frozenset[int]]:
    """Per valid line, the masks of ``SWAP_SIZES`` 1s and as many 0s of the line whose flip
    leaves a valid line."""
    valid = set(line_patterns(n, max_run))
    full = (1 << n) - 1
    out = {}
    for p in valid:
        ones, zeros = list(_bits(p)), list(_bits(full & ~p))
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
    """The swaps of ``solution`` (see the module) for a carve that tests its givens in the
    order ``cells`` with every sign of ``edges`` on, then its signs; the same questions as
    ``SecondGrids`` (``has_two``, ``keep``, ``signs_pass``), answered "a second solution"
    only where a swap shows one (no is "not known": ask the closure).

    A swap is the set of its cells, a bit each (bit ``r * n + c``); a sign is a bit too, at
    its first cell, in the set of the signs to the right or of those below. A swap crosses
    a sign when the sign's two cells are one in, one out: ``(swap ^ swap >> 1) & right``,
    ``(swap ^ swap >> n) & below``. When a clue is tested the board holds the clues kept so
    far (``keep``) and every clue after it in the order.

    Plain version: the hard tier's closure, and SAT, on the board without the clue;
    ``test_two_line_swaps_are_second_solutions`` (tests/test_binary.py) checks that each
    swap made is a solution and that SAT finds two where one is seen.
    """

    __slots__ = ("_n", "_swaps", "_signs", "_by_clue", "_after", "_kept", "_signs_pass")

    def __init__(self, engine: "BinaryEngine", solution: Board, edges: Sequence[Edge], cells: Sequence[Cell]):
        n = self._n = engine.n
        self._swaps = swaps = _swaps_of(engine, solution)
        self._signs = right, below = _sign_bits(n, edges)
        by_cell: dict[int, list[int]] = {}  # a cell's swaps that no sign crosses
        for swap, traded in swaps:
            if (swap ^ swap >> 1) & right or (swap ^ swap >> n) & below:
                continue
            for cell in traded:
                by_cell.setdefault(cell, []).append(swap)
        order = [r * n + c for r, c in cells]
        self._by_clue = [by_cell.get(cell, ()) for cell in order]
        self._after = _suffixes([1 << cell for cell in order])
        self._kept = 0
        self._signs_pass = False

    def has_two(self, i: int, board: Board) -> bool:
        """Whether the ``i``-th clue of the pass has a swap through it that no other clue on the
        board (kept, or still to test) holds, or crosses."""
        if self._signs_pass:
            on_right, on_below = self._kept[0] | self._after[i + 1][0], self._kept[1] | self._after[i + 1][1]
            return any(not (r & on_right or b & on_below) for r, b in self._by_clue[i])
        on = self._kept | self._after[i + 1]
        return any(not swap & on for swap in self._by_clue[i])

    def keep(self, i: int) -> None:
        """The ``i``-th clue of the pass stays on the board."""
        if self._signs_pass:
            clue = self._after[i][0] ^ self._after[i + 1][0], self._after[i][1] ^ self._after[i + 1][1]
            self._kept = self._kept[0] | clue[0], self._kept[1] | clue[1]
        else:
            self._kept |= self._after[i] ^ self._after[i + 1]

    def signs_pass(self, edges: Sequence[Edge], board: Board) -> None:
        """From here on the signs are tested, in the order ``edges``, on ``board`` (the givens
        kept): per sign, the signs each empty swap crossing it crosses, as (right, below)."""
        n = self._n
        givens = 0
        for r in range(n):
            givens |= board.known[r] << r * n
        right, below = self._signs
        bits = [_sign_bits(n, (edge,)) for edge in edges]
        index = {sign: j for j, sign in enumerate(bits)}
        by_sign: list[list[tuple[int, int]]] = [[] for _ in edges]
        for swap, _ in self._swaps:
            if swap & givens:
                continue
            crossed = (swap ^ swap >> 1) & right, (swap ^ swap >> n) & below
            for bit in _bits(crossed[0]):
                by_sign[index[1 << bit, 0]].append(crossed)
            for bit in _bits(crossed[1]):
                by_sign[index[0, 1 << bit]].append(crossed)
        self._by_clue, self._kept, self._signs_pass = by_sign, (0, 0), True
        after = [(0, 0)] * (len(bits) + 1)
        for j in range(len(bits) - 1, -1, -1):
            after[j] = after[j + 1][0] | bits[j][0], after[j + 1][1] | bits[j][1]
        self._after = after


def _swaps_of(engine: "BinaryEngine", solution: Board) -> list[tuple[int, tuple[int, ...]]]:
    """Every swap of two rows or two columns of ``solution``: the set of its cells, and its
    cells (``r * n + c``) one by one."""
    n = engine.n
    swaps = swap_masks(n, engine.max_run)
    spread, positions = _spread(n), engine._crossings[1]  # (per mask, the positions of its set bits)
    unique = engine.unique_lines
    found = []
    value = solution.value
    # Two rows, then two columns: a rectangle is a swap of both, so two rows find them all.
    for lo in (0, n) if max(SWAP_SIZES) > 1 else (0,):
        lines, crossing = value[lo:lo + n], value[n - lo:2 * n - lo]
        line_set, crossing_set = set(lines), set(crossing)
        for i1, i2 in combinations(range(n), 2):
            pair = 1 << i1 | 1 << i2
            one, two = lines[i1], lines[i2]
            # the crossing lines where the two differ and that stay valid with their cells traded
            good = 0
            for j in positions[one ^ two]:
                if pair in swaps[crossing[j]]:
                    good |= 1 << j
            for m in swaps[one] & swaps[two]:
                if m & ~good or lo and m.bit_count() == 2:  # (two rows found each rectangle)
                    continue
                at = positions[m]
                if unique:
                    # No line may become a copy of another: the two traded ones, and the crossing
                    # lines of ``m`` (distinct before, each flipped at the same two cells, they
                    # can only meet a line outside ``m`` as it was).
                    if one ^ m in line_set and one ^ m != two or two ^ m in line_set and two ^ m != one:
                        continue
                    changed = {crossing[j] for j in at}
                    if any(crossing[j] ^ pair in crossing_set and crossing[j] ^ pair not in changed for j in at):
                        continue
                if lo:  # columns i1 and i2, the rows of m
                    found.append((spread[m] << i1 | spread[m] << i2, (*(j * n + i1 for j in at), *(j * n + i2 for j in at))))
                else:
                    found.append((m << i1 * n | m << i2 * n, (*(i1 * n + j for j in at), *(i2 * n + j for j in at))))
    return found


@lru_cache(maxsize=None)
def _spread(n: int) -> tuple[int, ...]:
    """Per mask of a column's rows, the cells it names in column 0 (bit ``r * n``)."""
    return tuple(sum(1 << r * n for r in range(n) if m >> r & 1) for m in range(1 << n))


def _sign_bits(n: int, edges: Sequence[Edge]) -> tuple[int, int]:
    """The signs as two cell sets: each at its first cell, those to the right, those below."""
    right = below = 0
    for edge in edges:
        (r1, c1), (r2, c2) = sorted((edge.a, edge.b))
        if r1 == r2:
            right |= 1 << r1 * n + c1
        else:
            below |= 1 << r1 * n + c1
    return right, below


def _suffixes(clues: list) -> list:
    """``after[i]``: the OR of the clues from the ``i``-th on (``after[len]`` is none)."""
    after = [0] * (len(clues) + 1)
    for i in range(len(clues) - 1, -1, -1):
        after[i] = after[i + 1] | clues[i]
    return after
