"""Skyscrapers' easy runs on one integer of pairs against the plain runs, on random squares
with random clue sets and givens, some with a wrong clue or clashing givens (where each must
hand the run back), 4x4 to 6x6: the rated run (``rated.strikes_run`` through ``rated_whole``;
plain: ``rated_run(..., fast=False)``) and the grade's ladder run (``easy_ladder``; plain:
``run_ladder`` at expert, its technique counts in the same order too)."""

from __future__ import annotations

import random

import pytest
from pair_runs import compare, plain_ladder, plain_rated, same_ladder, same_rated

from bookgen.solve.houses import geometry
from bookgen.solve.latin import random_latin_square
from bookgen.solve.skyscrapers import SIDES, clues_of, easy_ladder, extra_for, rated_whole


def _cases(n: int, count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        square = random_latin_square(n, rng)
        sol = [d for row in square for d in row]
        shown = clues_of(square)
        share = rng.choice((0.7, 1.0, 1.0))
        clues = {side: tuple(c if rng.random() < share else 0 for c in shown[side]) for side in SIDES}
        if rng.random() < 0.1:  # a wrong clue: the puzzle may have no solution
            side = rng.choice(SIDES)
            clues[side] = tuple(rng.randint(0, n) for _ in range(n))
        givens = [(i, sol[i]) for i in range(n * n) if rng.random() < rng.choice((0.0, 0.3, 0.5))]
        if givens and rng.random() < 0.1:  # a given's digit again in its row
            i, d = givens[0]
            givens.append((i - i % n + (i + 1) % n, d))
        yield givens, extra_for(n, clues)


@pytest.mark.parametrize("n,count", [(4, 40), (5, 20), (6, 12)])
def test_strikes_run_equals_plain(n, count):
    compare(geometry(n), _cases(n, count, 2026 + n), rated_whole, plain_rated, same_rated)


@pytest.mark.parametrize("n,count", [(4, 60), (5, 30), (6, 16)])
def test_easy_ladder_equals_run_ladder(n, count):
    compare(geometry(n), _cases(n, count, 7 + n), easy_ladder, plain_ladder, same_ladder)
