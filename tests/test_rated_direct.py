"""The rated run's direct steps (``rated._direct``, on the positions table and tables kept per
geometry) against their reference ``rated._direct_plain`` (cell lists and sets at every
call): the same step, or none, for every threshold on states a solve passes through, in
Sudoku, Sudoku X, a Jigsaw layout, Killer's cage geometry and a plain Latin square; and a
copied state's shared positions memo gives what a fresh table gives."""

from __future__ import annotations

import random

import pytest
from conftest import examples

from bookgen.core.rating import DIRECT_HIDDEN_PAIR
from bookgen.solve import rated
from bookgen.solve.cages import cage_geometry
from bookgen.solve.filling import propagated_filling
from bookgen.solve.houses import geometry, house_positions, random_filling, start
from bookgen.solve.latin import bit, digits_of, positions
from bookgen.variants.jigsaw_regions import random_regions

BELOW = (1.8, DIRECT_HIDDEN_PAIR, 2.3, float("inf"))  # between the values, at them, above all


def _geometries():
    rng = random.Random(7)
    plain = geometry(9, box=(3, 3))
    cages = [[r * 9 + c, r * 9 + c + 1] for r in range(9) for c in range(0, 8, 2)]
    return {
        "sudoku": plain,
        "sudoku-x": geometry(9, box=(3, 3), diagonal=True),
        "jigsaw": geometry(7, regions=random_regions(7, rng)),
        "killer": cage_geometry(plain, cages),
        "latin": geometry(6),
    }


GEOMETRIES = _geometries()


def _move(st, sol, rng, place: float) -> bool:
    """A random open cell given its digit (a ``place`` share of the time) or a wrong digit
    struck from it: the state keeps the solution. False when no cell is open."""
    open_cells = [i for i in range(len(sol)) if not st.placed[i]]
    if not open_cells:
        return False
    i = rng.choice(open_cells)
    if rng.random() < place:
        st.elim(i, ~bit(sol[i]))
        st.place(i)
    elif st.cand[i] != bit(sol[i]):
        st.elim(i, bit(rng.choice([d for d in digits_of(st.cand[i]) if d != sol[i]])))
    return True


def _against_plain(geo, st, fast) -> tuple[int, int]:
    """``fast(below)`` against ``rated._direct_plain`` at every threshold of BELOW on one state:
    (steps found, comparisons)."""
    found = 0
    for below in BELOW:
        got = fast(below)
        assert got == rated._direct_plain(geo, st, below)
        found += got is not None
    return found, len(BELOW)


@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_direct_equals_plain(name):
    geo = GEOMETRIES[name]
    n = geo.n
    rng = random.Random(name)
    found = compared = 0
    for _ in range(examples(1)):  # (2 grids before: bench/sweep_suite.py)
        sol = propagated_filling(geo, rng) if name == "jigsaw" else random_filling(geo, rng)
        st = start(geo, [(i, sol[i]) for i in rng.sample(range(n * n), n * n // 4)])
        for _ in range(n * n):
            f, c = _against_plain(geo, st, lambda below: rated._direct(geo, st, below))
            found, compared = found + f, compared + c
            if not _move(st, sol, rng, 0.3):
                break
            if rng.random() < 0.3:
                st = st.copy()  # a copy shares the positions memo: it must still read right
    assert compared > 100 and found > 10


def test_copied_state_positions_match_a_fresh_table():
    geo = GEOMETRIES["sudoku"]
    rng = random.Random(3)
    sol = random_filling(geo, rng)
    st = start(geo, [(i, sol[i]) for i in range(0, 81, 3)])
    house_positions(geo, st)
    other = st.copy()
    for i in range(1, 81, 7):
        if not other.placed[i] and other.cand[i] != bit(sol[i]):
            other.elim(i, bit(next(d for d in digits_of(other.cand[i]) if d != sol[i])))
    for state in (other, st):  # the copy changed; the original did not, and shares the old table
        assert house_positions(geo, state) == [positions(state.cand, cells, state.placed, 9) for cells in geo.houses]


@pytest.mark.parametrize("n", [4, 5, 6])
def test_direct_on_masks_equals_plain(n):
    """The rated run's direct step on a geometry without overlaps, read off the digits' open
    cells (``direct_on_masks``), against the plain version on the states a solve passes."""
    geo = geometry(n)
    rng = random.Random(n)
    house_bits = [sum(1 << i for i in cells) for cells in geo.houses]
    found = compared = 0
    for _ in range(4):
        sol = random_filling(geo, rng)
        st = start(geo, [(i, sol[i]) for i in rng.sample(range(n * n), n)])
        while True:
            pos = [sum(1 << i for i in range(n * n) if not st.placed[i] and st.cand[i] >> d & 1) for d in range(n)]
            f, c = _against_plain(geo, st, lambda below: rated.direct_on_masks(pos, house_bits, below))
            found, compared = found + f, compared + c
            if not _move(st, sol, rng, 0.2):
                break
    assert compared > 100 and found > 5
