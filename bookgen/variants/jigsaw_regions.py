"""Random Jigsaw regions: N connected regions of N cells each on an N x N grid.

A layout starts as the N rows (a valid partition) and is shuffled by swaps
along region borders: a cell of region A next to region B joins B, and a
cell of B next to A joins A, kept only when both regions stay connected, so
every layout on the way is a partition into connected regions of N cells.
After ``SWAPS_PER_CELL`` swaps per cell no trace of the rows is left; then,
unless plain regions are allowed, swapping goes on until no region is a
rectangle (a plain box such as 3x3 or a straight line of N cells).

Regions are lists of cell indices ``i = row * N + col``; reading, checking,
drawing and printing them is ``bookgen.variants.regions``, shared with the other
puzzles that have regions.
"""

from __future__ import annotations

import random
from typing import Sequence

from bookgen.variants.regions import neighbours

SWAPS_PER_CELL = 12  # border swaps per cell before a layout counts as random
PLAIN_TRIES = 400    # further swap attempts to break up rectangles before a fresh start


def is_plain(cells: Sequence[int], n: int) -> bool:
    """Whether a region is a rectangle: a plain box (R x C, R * C = N) or a straight line."""
    rows = [i // n for i in cells]
    cols = [i % n for i in cells]
    return (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1) == len(cells)


def _masks(n: int) -> tuple[int, int, int]:
    """(every cell, every cell but the left column, every cell but the right column) as bitmasks."""
    every = (1 << (n * n)) - 1
    left = sum(1 << (r * n) for r in range(n))
    return every, every & ~left, every & ~(left << (n - 1))


def _spread(m: int, n: int, masks: tuple[int, int, int]) -> int:
    """The cells of ``m`` and their orthogonal neighbours."""
    every, not_left, not_right = masks
    return (m | ((m << 1) & not_left) | ((m >> 1) & not_right) | (m << n) | (m >> n)) & every


def connected_mask(m: int, n: int, masks: tuple[int, int, int]) -> bool:
    """``connected`` on a bitmask of cells, by flood fill on whole bitmasks (equal to the
    plain BFS, ``regions.connected``: a test checks them against each other)."""
    if not m:
        return False
    seen = m & -m
    while True:
        grown = _spread(seen, n, masks) & m
        if grown == seen:
            return seen == m
        seen = grown


def _bits(m: int) -> list[int]:
    out = []
    while m:
        b = m & -m
        out.append(b.bit_length() - 1)
        m ^= b
    return out


def _swap(owner: list[int], reg: list[int], n: int, rng: random.Random, masks: tuple[int, int, int]) -> bool:
    """One border swap: a random cell x of region A next to region B joins B, a random cell y
    of B next to what is left of A joins A; False (nothing changed) when that would
    disconnect A or B."""
    x = rng.randrange(n * n)
    near = neighbours(x, n)
    b = owner[near[rng.randrange(len(near))]]
    a = owner[x]
    if a == b:
        return False
    bx = 1 << x
    rest_a = reg[a] & ~bx
    back = _bits(_spread(rest_a, n, masks) & reg[b])
    if not back:
        return False
    y = back[rng.randrange(len(back))]
    by = 1 << y
    new_a, new_b = rest_a | by, (reg[b] & ~by) | bx
    if not (connected_mask(new_a, n, masks) and connected_mask(new_b, n, masks)):
        return False
    reg[a], reg[b] = new_a, new_b
    owner[x], owner[y] = b, a
    return True


def random_regions(n: int, rng: random.Random, plain: bool = False) -> list[list[int]] | None:
    """N connected regions of N cells, at random from ``rng``; with ``plain`` False no region
    is a rectangle. None when the rectangles would not go (then ask again)."""
    masks = _masks(n)
    owner = [i // n for i in range(n * n)]
    reg = [((1 << n) - 1) << (r * n) for r in range(n)]
    done = 0
    for _ in range(SWAPS_PER_CELL * n * n * 20):
        if done >= SWAPS_PER_CELL * n * n:
            break
        done += _swap(owner, reg, n, rng, masks)
    for _ in range(PLAIN_TRIES):
        regions = [_bits(m) for m in reg]
        if plain or not any(is_plain(cells, n) for cells in regions):
            return regions
        _swap(owner, reg, n, rng, masks)
    return None
