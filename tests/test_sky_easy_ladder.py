"""Skyscrapers' easy ladder on one integer of pairs (``easy_ladder``) against the ladder itself
(``run_ladder`` at expert): the same result, technique counts in the same order, on random
squares with random clue sets and givens, some with a wrong clue or clashing givens (where it
must hand the run back), 4x4 to 6x6."""

from __future__ import annotations

import pytest

from bookgen.core.difficulty import Level
from bookgen.solve.houses import geometry, run_ladder
from bookgen.solve.skyscrapers import easy_ladder
from test_rated_strikes import _cases


@pytest.mark.parametrize("n,count", [(4, 60), (5, 30), (6, 16)])
def test_easy_ladder_equals_run_ladder(n, count):
    geo = geometry(n)
    answered = handed_back = 0
    for givens, extra in _cases(n, count, 7 + n):
        fast = easy_ladder(geo, givens, extra)
        if fast is None:
            handed_back += 1
            continue
        answered += 1
        plain = run_ladder(geo, givens, Level.EXPERT, extra=extra)
        assert fast == plain
        assert list(fast.counts.items()) == list(plain.counts.items())
    assert answered and handed_back
