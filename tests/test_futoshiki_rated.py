"""Futoshiki's easy rated run on one integer of pairs (``inequalities.rated_whole``, through
``rated.strikes_run`` with a per-step finder for ``sign_known``) against the plain run
(``rated_run(..., fast=False)``), and its easy grade on the same integer
(``inequalities.easy_ladder``, through ``pair_ladder.run``) against the ladder's run
(``run_ladder``), on random squares with random signs and givens, some with a wrong sign or
clashing givens (where they must hand the run back), 4x4 to 6x6; and the easy carve's
``used`` from the solve of a given before a sign against its own solve (``_carve(...,
plain=True)``)."""

from __future__ import annotations

import random

import pytest
from pair_runs import compare, plain_ladder, plain_rated, same_ladder, same_rated

from bookgen.core.difficulty import Level
from bookgen.solve.houses import geometry
from bookgen.solve.inequalities import easy_ladder, extra_for, rated_whole
from bookgen.solve.latin import random_latin_square
from bookgen.variants.futoshiki import _carve


def _cases(n: int, count: int, seed: int):
    rng = random.Random(seed)
    pairs = [(i, i + 1) for i in range(n * n) if (i + 1) % n] + [(i, i + n) for i in range(n * n - n)]
    for _ in range(count):
        sol = [d for row in random_latin_square(n, rng) for d in row]
        chosen = rng.sample(pairs, round(rng.choice((0.3, 0.5, 0.8)) * len(pairs)))
        less = [(a, b) if sol[a] < sol[b] else (b, a) for a, b in chosen]
        if rng.random() < 0.1:  # a wrong sign: the puzzle may have no solution
            less[0] = less[0][::-1]
        givens = [(i, sol[i]) for i in range(n * n) if rng.random() < rng.choice((0.2, 0.35, 0.5))]
        if givens and rng.random() < 0.1:  # a given's digit again in its row
            i, d = givens[0]
            givens.append((i - i % n + (i + 1) % n, d))
        yield givens, extra_for(less)


@pytest.mark.parametrize("n,count", [(4, 60), (5, 40), (6, 16)])
def test_rated_whole_equals_plain(n, count):
    answers = compare(geometry(n), _cases(n, count, 31 + n), rated_whole, plain_rated, same_rated)
    assert sum(s.technique == "sign_known" for got in answers for s in got[0])  # the signs' step met


@pytest.mark.parametrize("n,count", [(4, 80), (5, 60), (6, 24)])
def test_easy_ladder_equals_run_ladder(n, count):
    answers = compare(geometry(n), _cases(n, count, 57 + n), easy_ladder, plain_ladder, same_ladder)
    assert sum(got.counts.get("sign_known", 0) for got in answers)


@pytest.mark.parametrize("n", [4, 5, 7])
def test_easy_carve_equals_plain(n):
    geo = geometry(n)
    pairs = [(i, i + 1) for i in range(n * n) if (i + 1) % n] + [(i, i + n) for i in range(n * n - n)]
    for seed in range(12):
        rng = random.Random(seed)
        sol = [d for row in random_latin_square(n, rng) for d in row]
        chosen = rng.sample(pairs, len(pairs) // 2)
        less = [(a, b) if sol[a] < sol[b] else (b, a) for a, b in chosen]
        state = random.Random(seed + 100).getstate()
        fast, plain = random.Random(), random.Random()
        fast.setstate(state)
        plain.setstate(state)
        assert _carve(geo, sol, less, Level.EASY, fast) == _carve(geo, sol, less, Level.EASY, plain, plain=True)
