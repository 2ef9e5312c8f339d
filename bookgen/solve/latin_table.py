"""Exact solving of small caged Latin squares by table (orders up to ``TABLE_MAX``).

There are only 12 Latin squares of order 3 and 576 of order 4, so for those
orders every square is listed once (in a fixed order) and a set of squares is
a Python int with one bit per square. For every (cell, digit) a mask holds the
squares with that digit in that cell; the squares a cage admits are the
union, over its assignments, of the intersection of its cells' masks. The
intersection over all cages is exactly the set of solutions, found with a few
hundred integer operations (tens of microseconds), far cheaper than setting
up a SAT solver. The count is exact (every square of the order is listed), so
it is the generator's proof of uniqueness on these orders (``only_solution``);
larger orders are proven by the SAT solver. Its reference is that solver: the
table's solution sets must list what ``arithmetic.latin_solutions`` finds
(tests/test_kenken.py checks them against each other).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Sequence

# Largest order listed (order 5 already has 161,280 squares: too many to list cheaply).
TABLE_MAX = 4

# A cage for the table: cell indices and the digit tuples it admits.
CageSpec = tuple[tuple[int, ...], Sequence[tuple[int, ...]]]


@lru_cache(maxsize=None)
def latin_table(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """(squares, masks): every Latin square of order ``n`` as a flat row-major tuple, in
    lexicographic order, and ``masks[i][d]`` = the squares with digit ``d`` in cell ``i``."""
    if not 1 <= n <= TABLE_MAX:
        raise ValueError(f"Latin squares are listed only up to order {TABLE_MAX}, not {n}")
    perms = list(permutations(range(1, n + 1)))
    # A row as a bit per (column, digit): rows fit together when their bits don't meet.
    bits = [sum(1 << (c * n + d - 1) for c, d in enumerate(p)) for p in perms]
    squares: list[tuple[int, ...]] = []

    def extend(rows: tuple[int, ...], used: int) -> None:
        if len(rows) == n:
            squares.append(tuple(d for k in rows for d in perms[k]))
            return
        for k, b in enumerate(bits):
            if not b & used:
                extend(rows + (k,), used | b)

    extend((), 0)
    masks = [[0] * (n + 1) for _ in range(n * n)]
    for s, flat in enumerate(squares):
        for i, d in enumerate(flat):
            masks[i][d] |= 1 << s
    return tuple(squares), tuple(tuple(m) for m in masks)


def cage_set(n: int, cells: Sequence[int], assigns: Sequence[tuple[int, ...]]) -> int:
    """The squares (a bit per square of ``latin_table(n)``) in which this cage holds:
    ``cage_set_plain``'s, which it must equal (tests/test_kenken.py), a cage of one to four
    cells with its assignments and'ed without the inner loop (most cages a small grid's generator
    meets, each new one asked for once per process: about a third of the time)."""
    _, masks = latin_table(n)
    got = 0
    if len(cells) == 1:
        c0 = masks[cells[0]]
        for (a,) in assigns:
            got |= c0[a]
        return got
    if len(cells) == 2:
        c0, c1 = masks[cells[0]], masks[cells[1]]
        for a, b in assigns:
            got |= c0[a] & c1[b]
        return got
    if len(cells) == 3:
        c0, c1, c2 = masks[cells[0]], masks[cells[1]], masks[cells[2]]
        for a, b, c in assigns:
            got |= c0[a] & c1[b] & c2[c]
        return got
    if len(cells) == 4:
        c0, c1, c2, c3 = masks[cells[0]], masks[cells[1]], masks[cells[2]], masks[cells[3]]
        for a, b, c, d in assigns:
            got |= c0[a] & c1[b] & c2[c] & c3[d]
        return got
    return cage_set_plain(n, cells, assigns)


def cage_set_plain(n: int, cells: Sequence[int], assigns: Sequence[tuple[int, ...]]) -> int:
    """``cage_set`` a digit at a time, stopping where no square is left."""
    _, masks = latin_table(n)
    cols = [masks[i] for i in cells]
    got = 0
    for a in assigns:
        x = -1
        for col, d in zip(cols, a):
            x &= col[d]
            if not x:
                break
        got |= x
    return got


def solution_set(n: int, cages: Sequence[CageSpec]) -> int:
    """The squares (a bit per square of ``latin_table(n)``) satisfying every cage."""
    _, masks = latin_table(n)
    acc = (1 << len(latin_table(n)[0])) - 1
    # Cages with few assignments first: they cut the set down the most for the least work.
    for cells, assigns in sorted(cages, key=lambda cg: len(cg[1])):
        got = 0
        cols = [masks[i] for i in cells]
        for a in assigns:
            x = acc
            for col, d in zip(cols, a):
                x &= col[d]
                if not x:
                    break
            got |= x
        acc = got
        if not acc:
            break
    return acc


def only_solution(n: int, sols: int, square: Sequence[int]) -> bool:
    """Whether the set ``sols`` holds exactly one square and that square is ``square``
    (flat, row-major): with every square of the order listed, this proves the cages
    that made ``sols`` have ``square`` as their only solution."""
    if not sols or sols & (sols - 1):
        return False
    return latin_table(n)[0][sols.bit_length() - 1] == tuple(square)


def solutions_of(n: int, sols: int, limit: int | None = None) -> list[list[int]]:
    """The squares in set ``sols`` as flat digit lists, in table order (at most ``limit``)."""
    squares = latin_table(n)[0]
    out = []
    s = 0
    while sols and (limit is None or len(out) < limit):
        if sols & 1:
            out.append(list(squares[s]))
        sols >>= 1
        s += 1
    return out


def open_cells(n: int, sols: int) -> list[int]:
    """Cells whose digit differs between the squares of ``sols`` (ascending)."""
    squares, masks = latin_table(n)
    if not sols:
        return []
    # A cell is fixed when every square of the set has the digit one of them has there.
    first = squares[(sols & -sols).bit_length() - 1]
    return [i for i in range(n * n) if sols & masks[i][first[i]] != sols]
