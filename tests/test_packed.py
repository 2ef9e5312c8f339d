"""The packed singles (``solve.packed.singles_come_back``) against their plain version,
``houses._singles``: the same verdict on givens that agree with a solution."""

from __future__ import annotations

import random

import pytest

from bookgen.solve.houses import _singles, drop_singles, geometry, random_filling
from bookgen.solve.latin import random_latin_square
from bookgen.solve.packed import _packed, _spread, signs_come_back, singles_come_back, singles_stall
from bookgen.solve.rated import hidden_singles_solve
from bookgen.solve.skyscrapers import SIDES, clue_strike, clues_of


@pytest.mark.parametrize("n,box,diagonal", [(9, (3, 3), False), (6, (2, 3), False), (5, None, False),
                                            (9, (3, 3), True)])
def test_packed_singles_equal_the_plain_singles(n, box, diagonal):
    """Puzzles carved past the singles carve one given at a time, each asked with ``until``
    the removed cell, another cell and none: both verdicts met. Sudoku X's diagonals don't
    split the grid, so there the plain version answers (no layouts)."""
    geo = geometry(n, box, diagonal)
    assert (_packed(geo) is None) == diagonal
    verdicts = set()
    for pairs, until in _carved(geo, random.Random(n + diagonal)):
        got = singles_come_back(geo, pairs, until)
        assert got == (_singles(geo, pairs, until)[0] is True)
        verdicts.add(got)
    assert verdicts == {True, False}


def _carved(geo, rng):
    """(givens, until) along two grids' carves past the singles carve, one given at a time:
    ``until`` the removed cell, another cell and none."""
    n = geo.n
    for _ in range(2):
        sol = random_filling(geo, rng)
        cells = list(range(n * n))
        rng.shuffle(cells)
        given = drop_singles(geo, sol, cells).given
        for i in [c for c in cells if given[c]][:20]:
            given[i] = False
            pairs = [(j, sol[j]) for j in range(n * n) if given[j]]
            for until in (i, rng.randrange(n * n), -1):
                yield pairs, until


@pytest.mark.parametrize("n,box", [(9, (3, 3)), (6, (2, 3))])
def test_packed_hidden_singles_equal_the_house_by_house_version(n, box):
    """``naked=False`` (``hidden_singles_solve`` in every house) against its ``plain=True``."""
    geo = geometry(n, box)
    verdicts = set()
    for pairs, until in _carved(geo, random.Random(3 * n)):
        got = hidden_singles_solve(geo, pairs, False, until)
        assert got == hidden_singles_solve(geo, pairs, False, until, plain=True)
        verdicts.add(got)
    assert verdicts == {True, False}


@pytest.mark.parametrize("n", [4, 5, 7])
def test_packed_stall_equals_the_plain_singles_with_strikes(n):
    """``singles_stall`` against ``_singles`` with Skyscrapers' clue strikes (a random share of
    a random square's clues, a few givens): the same verdict and placed cells; the strikes'
    spread by table (up to ``SMALL``) or bit by bit against the plain loop."""
    geo = geometry(n)
    packed = _packed(geo)
    rng = random.Random(n)
    every = (1 << (n * n)) - 1
    verdicts = set()
    for _ in range(30):
        square = random_latin_square(n, rng)
        sol = [d for row in square for d in row]
        clues = clues_of(square)
        struck = 0
        for side in SIDES:
            for k, c in enumerate(clues[side]):
                if rng.random() < 0.6:
                    struck |= clue_strike(n, side, k, c)
        pairs = [(i, sol[i]) for i in rng.sample(range(n * n), rng.randrange(n * n * 2 // 3))]
        done, _, placed = _singles(geo, pairs, -1, strike=[struck >> (d * n * n) & every for d in range(n)])
        got = singles_stall(geo, pairs, struck)
        assert got == (None if done else placed)
        verdicts.add(got is None)
        plain = 0
        for k in range(n ** 3):
            if struck >> k & 1:
                plain |= packed.one[k]
        assert _spread(packed, struck) == plain
    assert verdicts == {True, False}


@pytest.mark.parametrize("n", [5, 7])
def test_packed_signs_equal_the_plain_singles_and_the_easy_tier(n):
    """``signs_come_back`` against ``_singles`` with Futoshiki's signs: the same verdict and
    the same signs used; and the same verdict as the ladder's easy tier (``closure``), which
    the Futoshiki carve asks at easy."""
    from bookgen.core.difficulty import Level
    from bookgen.solve.houses import closure
    from bookgen.solve.inequalities import extra_for
    geo = geometry(n)
    rng = random.Random(5 * n)
    verdicts = set()
    for _ in range(30):
        sol = [d for row in random_latin_square(n, rng) for d in row]
        edges = [(r * n + c, r * n + c + 1) for r in range(n) for c in range(n - 1)] + \
                [(r * n + c, (r + 1) * n + c) for r in range(n - 1) for c in range(n)]
        less = [(a, b) if sol[a] < sol[b] else (b, a) for a, b in rng.sample(edges, len(edges) // 2)]
        pairs = [(i, sol[i]) for i in rng.sample(range(n * n), rng.randrange(n * n // 2))]
        for until in (-1, rng.randrange(n * n)):
            fast, plain = set(), set()
            got = signs_come_back(geo, pairs, until, less, fast)
            assert got == (_singles(geo, pairs, until, less, plain)[0] is True)
            assert fast == plain
            assert got == closure(geo, pairs, Level.EASY, until, extra_for(less))[0]
            verdicts.add(got)
    assert verdicts == {True, False}
