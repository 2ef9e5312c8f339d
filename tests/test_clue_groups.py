"""The proof's clause groups (``latin_sat.prove`` and ``proves_unique`` with ``groups``, loaded once per kept
solver) against the plain form, the same clauses loaded afresh (``solutions``): the same
verdicts, on puzzles with one solution and with several, in any order of asking."""

from __future__ import annotations

import random

from bookgen.solve.houses import geometry
from bookgen.solve.latin import random_latin_square
from bookgen.solve.latin_sat import prove, proves_unique, solutions
from bookgen.solve.skyscrapers import clue_groups, clues_of, sight_clauses


def test_groups_prove_as_the_clauses_do():
    rng = random.Random(22)
    verdicts = set()
    for n in (4, 5):
        geo = geometry(n)
        for _ in range(12):
            square = random_latin_square(n, rng)
            every = clues_of(square)
            clues = {side: tuple(v if rng.random() < 0.7 else 0 for v in every[side]) for side in every}
            sol = [d for row in square for d in row]
            givens = [(i, sol[i]) for i in rng.sample(range(n * n), 2)]
            plain = solutions(geo, givens, 2, sight_clauses(n, clues))
            grouped = prove(geo, givens, (), groups=clue_groups(n, clues))
            assert len(grouped) == len(plain)
            # what the generator asks (the solution checked, then any other): the same verdict
            assert proves_unique(geo, givens, sol, (), groups=clue_groups(n, clues)) == (len(plain) == 1)
            if len(plain) == 1:
                assert grouped == plain == [sol]
            else:
                assert len({tuple(g) for g in grouped}) == 2  # two different solutions
            verdicts.add(len(plain))
    assert verdicts == {1, 2}  # both kinds were asked about


def test_lines_numbered_for_the_solver_are_what_it_would_write(monkeypatch):
    # ``line_clauses_behind`` (clauses made in the solver's numbering behind a switch) against
    # the plain way: ``line_clauses`` renumbered by ``LatinSolver._write`` (which hands them to
    # the solver in one ``load``: recorded here instead).
    from bookgen.solve import latin_sat
    from bookgen.solve.latin_sat import LatinSolver
    from bookgen.solve.skyscrapers import SIDES, line_clauses, line_clauses_behind

    written: list = []
    monkeypatch.setattr(latin_sat, "load", lambda solver, clauses: written.extend(list(c) for c in clauses))
    for n in (4, 5, 6):
        ls = LatinSolver(geometry(n))
        for on in (n ** 3 + 1, n ** 3 + 57):
            for side in SIDES:
                for k in range(n):
                    written.clear()
                    ls._write(line_clauses(n, side, k)[0], on)
                    assert [list(c) for c in line_clauses_behind(n, side, k, on)] == written
        ls.close()
