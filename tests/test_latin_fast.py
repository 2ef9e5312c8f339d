"""Fast paths of the Latin family's generation against their plain versions: the proof that
asks for a second solution only (``latin_sat.proves_unique`` against ``prove``), the cage
clauses from per-sum shapes (``sum_clauses`` against ``sum_clauses_plain``) and the direct
steps' tables shared by Killer's cage geometries (``rated._direct`` on a second geometry
with the same houses, against ``_direct_plain``)."""

from __future__ import annotations

import random

import pytest

from bookgen.solve import rated
from bookgen.solve.cages import cage_geometry, sum_clauses, sum_clauses_plain
from bookgen.solve.houses import geometry, random_filling, start
from bookgen.solve.inequalities import sign_clauses
from bookgen.solve.latin import bit
from bookgen.solve.latin_sat import prove, proves_unique

G4 = geometry(4, (2, 2))
G9 = geometry(9, (3, 3))


def _pair_cages(sol, n, rng):
    """Random two-cell cages along rows (the rest single cells), with their sums."""
    cages = []
    for r in range(n):
        c = 0
        while c < n:
            if c + 1 < n and rng.random() < 0.7:
                cages.append([r * n + c, r * n + c + 1])
                c += 2
            else:
                cages.append([r * n + c])
                c += 1
    return cages, [sum(sol[i] for i in cells) for cells in cages]


@pytest.mark.parametrize("kind", ["houses", "cages", "signs"])
def test_proves_unique_agrees_with_prove(kind):
    rng = random.Random(kind)
    unique = several = 0
    for _ in range(12):
        geo = G4 if kind != "signs" else geometry(4)
        sol = random_filling(geo, rng)
        cells = rng.sample(range(16), rng.randint(3, 9))
        givens = [(i, sol[i]) for i in cells]
        clauses = []
        if kind == "cages":
            clauses = sum_clauses(4, *_pair_cages(sol, 4, rng))
        elif kind == "signs":
            pairs = [(i, i + 1) for i in range(16) if i % 4 < 3] + [(i, i + 4) for i in range(12)]
            less = [(a, b) if sol[a] < sol[b] else (b, a) for a, b in rng.sample(pairs, 8)]
            clauses = sign_clauses(4, less)
        want = prove(geo, givens, clauses) == [sol]
        assert proves_unique(geo, givens, sol, clauses) == want
        unique += want
        several += not want
        wrong = sol[:]  # a grid that is not the solution: never proved
        j = next(i for i in range(16) if i not in cells)
        wrong[j] = wrong[j] % 4 + 1
        assert not proves_unique(geo, givens, wrong, clauses)
    assert unique and several  # both verdicts were met


def test_sum_clauses_equal_the_plain_version():
    rng = random.Random(5)
    for n, geo in ((4, G4), (9, G9)):
        for _ in range(4):
            sol = random_filling(geo, rng)
            cages, sums = _pair_cages(sol, n, rng)
            cages.append([0, n, 2 * n])  # a three-cell cage down a column (its digits differ too)
            sums.append(sol[0] + sol[n] + sol[2 * n])
            for first in (None, 5000):
                assert sum_clauses(n, cages, sums, first) == sum_clauses_plain(n, cages, sums, first)
    assert sum_clauses(4, [[0, 1]], [30]) == sum_clauses_plain(4, [[0, 1]], [30]) == [[1], [-1]]


def test_direct_tables_shared_by_cage_geometries():
    rng = random.Random(11)
    first = cage_geometry(G9, [[r * 9 + c, r * 9 + c + 1] for r in range(9) for c in range(0, 8, 2)])
    second = cage_geometry(G9, [[r * 9 + c, r * 9 + c + 9] for r in range(0, 8, 2) for c in range(9)])
    assert rated._direct_tables(first) is not None
    found = 0
    for geo in (second, first, G9):
        sol = random_filling(geo, rng)
        st = start(geo, [(i, sol[i]) for i in rng.sample(range(81), 24)])
        for i in range(81):
            for below in (1.8, 2.3, float("inf")):
                got = rated._direct(geo, st, below)
                assert got == rated._direct_plain(geo, st, below)
                found += got is not None
            if not st.placed[i]:
                st.elim(i, ~bit(sol[i]))
                st.place(i)
    assert found
