"""Skyscrapers' easy runs on one integer of pairs against the plain runs, on random squares
with random clue sets and givens, some with a wrong clue or clashing givens (where each must
hand the run back), 4x4 to 6x6: the rated run (``rated.strikes_run`` through ``rated_whole``;
plain: ``rated_run(..., fast=False)``) and the grade's ladder run (``easy_ladder``; plain:
``run_ladder`` at expert, its technique counts in the same order too)."""

from __future__ import annotations

import random

import pytest

from bookgen.core.difficulty import Level
from bookgen.solve.houses import geometry, run_ladder
from bookgen.solve.latin import random_latin_square
from bookgen.solve.rated import rated_run
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


def _compare(n: int, count: int, seed: int, fast, plain, same) -> None:
    """``fast`` against ``plain`` (each of geometry, givens, extra) on ``_cases``: equal by
    ``same`` wherever ``fast`` answers, and both answering and handing back met."""
    geo = geometry(n)
    answered = handed_back = 0
    for givens, extra in _cases(n, count, seed):
        got = fast(geo, givens, extra)
        if got is None:
            handed_back += 1
            continue
        answered += 1
        assert same(got, plain(geo, givens, extra))
    assert answered and handed_back


@pytest.mark.parametrize("n,count", [(4, 40), (5, 20), (6, 12)])
def test_strikes_run_equals_plain(n, count):
    _compare(n, count, 2026 + n, rated_whole, lambda geo, givens, extra: rated_run(geo, givens, extra, fast=False),
             lambda a, b: a == b)


@pytest.mark.parametrize("n,count", [(4, 60), (5, 30), (6, 16)])
def test_easy_ladder_equals_run_ladder(n, count):
    _compare(n, count, 7 + n, easy_ladder, lambda geo, givens, extra: run_ladder(geo, givens, Level.EXPERT, extra=extra),
             lambda a, b: a == b and list(a.counts.items()) == list(b.counts.items()))
