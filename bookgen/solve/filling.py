"""Random complete grids for irregular houses: depth-first with singles propagated.

``houses.random_filling`` (fewest candidates first, nothing propagated) fills a
Sudoku at once but gets lost on most random Jigsaw layouts: a region that
snakes through many rows and columns forces digits through hidden singles
long before any cell runs down to one candidate, and the plain search only
finds that out after thousands of nodes. ``propagated_filling`` places every
naked and hidden single (in any house) after each guess, so a layout that has
a filling yields one in a few dozen nodes. It returns a grid of the same kind
as ``random_filling`` (a test checks both keep every house); the grids differ,
so a variant that switches filler makes other puzzles from the same seed.
"""

from __future__ import annotations

import random

from bookgen.solve.latin import bit, digits_of, full_mask


def _propagate(geo, cand: list[int], grid: list[int], todo: list[tuple[int, int]]) -> bool:
    """Place ``todo`` and every single it leads to (naked, then hidden in each house);
    False on a contradiction (a cell with no candidate, a digit with no place in a house)."""
    n = geo.n
    full = full_mask(n)
    peers = geo.peers
    houses = geo.houses
    while True:
        while todo:
            i, d = todo.pop()
            if grid[i]:
                if grid[i] != d:
                    return False
                continue
            b = bit(d)
            if not cand[i] & b:
                return False
            grid[i] = d
            cand[i] = b
            for j in peers[i]:
                if cand[j] & b:
                    if grid[j]:
                        return False
                    c = cand[j] & ~b
                    if not c:
                        return False
                    cand[j] = c
                    if not c & (c - 1):
                        todo.append((j, c.bit_length()))
        for house in houses:
            once = twice = placed = 0
            for i in house:
                if grid[i]:
                    placed |= 1 << (grid[i] - 1)
                else:
                    c = cand[i]
                    twice |= once & c
                    once |= c
            if (once | placed) != full:
                return False
            lone = once & ~twice & ~placed
            while lone:
                b = lone & -lone
                lone ^= b
                for i in house:
                    if not grid[i] and cand[i] & b:
                        todo.append((i, b.bit_length()))
                        break
        if not todo:
            return True


def propagated_filling(geo, rng: random.Random, budget: int = 2000) -> list[int] | None:
    """A random complete grid (flat digits) keeping every house of ``geo``, or None when
    none turns up within ``budget`` guesses. The cell guessed is one with the fewest
    candidates (ties broken at random), its digits tried in random order."""
    n = geo.n
    size = n * n
    cand = [full_mask(n)] * size
    grid = [0] * size
    nodes = 0

    def rec(cand: list[int], grid: list[int]) -> list[int] | None:
        nonlocal nodes
        best_count = n + 1
        best: list[int] = []
        for i in range(size):
            if not grid[i]:
                k = cand[i].bit_count()
                if k < best_count:
                    best_count, best = k, [i]
                elif k == best_count:
                    best.append(i)
        if not best:
            return grid
        nodes += 1
        if nodes > budget:
            return None
        cell = best[rng.randrange(len(best))]
        ds = digits_of(cand[cell])
        rng.shuffle(ds)
        for d in ds:
            c2, g2 = cand[:], grid[:]
            if _propagate(geo, c2, g2, [(cell, d)]):
                got = rec(c2, g2)
                if got is not None:
                    return got
            if nodes > budget:
                return None
        return None

    return rec(cand, grid)
