"""The rated run's singles scan for small grids (``SmallScan``) against its reference, the full
rescan ``_singles``: the same singles in the same order with the same count, on states a run
passes through and on states that jump back (a copy tried and dropped); and whole ratings the
same with it as with ``SinglesScan``."""

from __future__ import annotations

import random

import pytest

from bookgen.core.difficulty import Level
from bookgen.core.rating import FULL_HOUSE, HIDDEN_SINGLE_BOX, HIDDEN_SINGLE_LINE, NAKED_SINGLE
from bookgen.core.rng import derive_seed, rng_for
from bookgen.solve import rated
from bookgen.solve.houses import geometry, random_filling, start
from bookgen.solve.latin import bit, digits_of
from bookgen.variants.registry import get_variant

VALUES = (HIDDEN_SINGLE_BOX, HIDDEN_SINGLE_LINE, NAKED_SINGLE)
KENKEN = (HIDDEN_SINGLE_LINE, 2.8, NAKED_SINGLE)  # a line's hidden single above the naked single
GEOMETRIES = {
    "4x4 boxes": (geometry(4, box=(2, 2)), VALUES),
    "6x6 boxes": (geometry(6, box=(2, 3)), VALUES),
    "latin 4": (geometry(4), KENKEN),
    "latin 5": (geometry(5), (HIDDEN_SINGLE_LINE, HIDDEN_SINGLE_LINE, NAKED_SINGLE)),
}


@pytest.mark.parametrize("alone", [None, FULL_HOUSE])
@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_small_scan_equals_full_rescan(name, alone):
    geo, values = GEOMETRIES[name]
    n = geo.n
    rng = random.Random(name)
    compared = full_houses = 0
    for _ in range(4):
        sol = random_filling(geo, rng)
        st = start(geo, [(i, sol[i]) for i in rng.sample(range(n * n), n * n // 4)])
        scan = rated.SmallScan(geo, values, alone)
        kept = [st.copy()]
        while st.unplaced:
            plain = rated._singles(geo, st, values, alone)
            full_houses += sum(1 for s in plain[0] if s[2] == alone)
            if rng.random() < 0.5:  # (either call first: each brings the scan up to date)
                assert scan.listing(st) == plain
                assert scan(st) == scan(st)  # (a second call with nothing changed)
                first, count = scan(st)
            else:
                first, count = scan(st)
                assert scan.listing(st) == plain
            assert count == plain[1]
            assert first == ((plain[0][0][2], plain[0][0][0], plain[0][0][1]) if plain[0] else None)
            compared += 1
            move = rng.random()
            if move < 0.15:  # back to an earlier state
                st = rng.choice(kept).copy()
            elif move < 0.6 and plain[0]:  # place a single, as the run does
                i, d, _ = rng.choice(plain[0])
                st.elim(i, ~bit(d))
                st.place(i)
            else:  # strike a wrong candidate, or place a cell with its digit
                i = rng.choice([i for i in range(n * n) if not st.placed[i]])
                wrong = [d for d in digits_of(st.cand[i]) if d != sol[i]]
                st.elim(i, bit(rng.choice(wrong)) if wrong else 0)
                if not wrong:
                    st.place(i)
            if rng.random() < 0.2:
                kept.append(st.copy())
    assert compared > 40
    assert (full_houses > 0) == (alone is not None)  # the last cell of a house was met and valued


@pytest.mark.parametrize("variant,size,level", [("kenken", 4, Level.EASY), ("futoshiki", 5, Level.EASY),
                                                ("skyscrapers", 4, Level.EASY)])
def test_rating_same_with_either_scan(variant, size, level, monkeypatch):
    """A whole rating with ``SmallScan`` equals one with ``SinglesScan`` (and is a rating)."""
    v = get_variant(variant)
    rules = v.parse_rules({}, size)
    puzzle = v.generate(size, rules, level, rng_for(derive_seed(2026, size, 1)))
    small = v.grade(puzzle)
    monkeypatch.setattr(rated, "SMALL_SCAN", 0)
    assert v.grade(puzzle) == small
    assert small.rating
