"""The rated run's singles scans (``SinglesScan``; ``SmallScan``, for small grids; ``DigitScan``,
for larger ones) against their reference, the full rescan ``_singles``: the same singles, in the
same order, with the same count, on every state a run passes through (told of the single placed,
as the run tells it) and on states that jump back and forth (a copy tried and dropped)."""

from __future__ import annotations

import random

import pytest
from conftest import examples

from bookgen.core.difficulty import Level
from bookgen.core.rating import FULL_HOUSE, HIDDEN_SINGLE_BOX, HIDDEN_SINGLE_LINE, NAKED_SINGLE
from bookgen.core.rng import derive_seed, rng_for
from bookgen.solve import rated
from bookgen.solve.houses import Contradiction, geometry, random_filling, start
from bookgen.solve.latin import bit, digits_of
from bookgen.variants.registry import get_variant

VALUES = (HIDDEN_SINGLE_BOX, HIDDEN_SINGLE_LINE, NAKED_SINGLE)
GEOMETRIES = {
    "sudoku": (geometry(9, box=(3, 3)), VALUES),
    "sudoku-x": (geometry(9, box=(3, 3), diagonal=True), VALUES),
    "6x6": (geometry(6, box=(2, 3)), VALUES),
    "latin": (geometry(5), (HIDDEN_SINGLE_LINE, HIDDEN_SINGLE_LINE, NAKED_SINGLE)),
    "4x4": (geometry(4, box=(2, 2)), VALUES),
    "kenken 4x4": (geometry(4), (HIDDEN_SINGLE_LINE, 2.8, NAKED_SINGLE)),  # a line's above the naked single
}


@pytest.mark.parametrize("kind", ["SinglesScan", "SmallScan", "DigitScan"])
@pytest.mark.parametrize("alone", [None, FULL_HOUSE])
@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_scan_equals_full_rescan(name, alone, kind):
    geo, values = GEOMETRIES[name]
    n = geo.n
    rng = random.Random(name)
    compared = full_houses = 0
    for _ in range(examples(2)):  # (3 before: bench/sweep_suite.py)
        sol = random_filling(geo, rng)
        cells = rng.sample(range(n * n), n * n // 3)
        st = start(geo, [(i, sol[i]) for i in cells])
        scan = getattr(rated, kind)(geo, values, alone)
        kept = [st.copy()]
        for _ in range(2 * n * n):
            plain = rated._singles(geo, st, values, alone)
            full_houses += sum(1 for s in plain[0] if s[2] == alone)
            if rng.random() < 0.5:  # (either call first: each brings the scan up to date)
                assert scan.listing(st) == plain
                first, count = scan(st)
            else:
                first, count = scan(st)
                assert scan.listing(st) == plain
            assert count == plain[1]
            assert first == ((plain[0][0][2], plain[0][0][0], plain[0][0][1]) if plain[0] else None)
            compared += 1
            if not st.unplaced:
                break
            move = rng.random()
            singles = plain[0]
            try:
                if move < 0.15:  # jump to an earlier state (a copy dropped, as ``_direct`` does)
                    st = rng.choice(kept).copy()
                elif move < 0.55 and singles:  # place a single, as the run does
                    i, d, _ = rng.choice(singles)
                    st.elim(i, ~bit(d))
                    st.place(i)
                    scan.placed(st, i)
                else:  # strike a wrong candidate somewhere
                    open_cells = [i for i in range(n * n) if not st.placed[i] and st.cand[i] != bit(sol[i])]
                    if open_cells:
                        i = rng.choice(open_cells)
                        wrong = [d for d in digits_of(st.cand[i]) if d != sol[i]]
                        st.elim(i, bit(rng.choice(wrong)))
            except Contradiction:  # pragma: no cover - the moves keep the solution
                raise
            if rng.random() < 0.2:
                kept.append(st.copy())
    assert compared > 30
    assert (full_houses > 0) == (alone is not None)  # the last cell of a house was met and valued


class PlainScan:
    """The reference in the shape of ``SinglesScan``: a full rescan at every call."""

    def __init__(self, g, values, alone=None):
        self.g, self.values, self.alone = g, values, alone

    def __call__(self, st):
        found, count = rated._singles(self.g, st, self.values, self.alone)
        return ((found[0][2], found[0][0], found[0][1]) if found else None), count

    def placed(self, st, i):
        pass


@pytest.mark.parametrize("variant,size,rules,level", [
    ("sudoku", 9, {}, Level.EASY), ("sudoku", 9, {"diagonal": True}, Level.EASY),
    ("futoshiki", 5, {}, Level.EASY), ("skyscrapers", 5, {}, Level.EASY),
])
def test_rating_unchanged_by_scan(variant, size, rules, level, monkeypatch):
    """A whole rating with the fast scan equals one with the full rescan."""
    v = get_variant(variant)
    rules = v.parse_rules(rules, size)
    puzzle = v.generate(size, rules, level, rng_for(derive_seed(2026, size, 0)))
    fast = v.grade(puzzle)
    monkeypatch.setattr(rated, "DigitScan", PlainScan)
    assert v.grade(puzzle) == fast
    assert fast.rating
