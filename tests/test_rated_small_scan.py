"""Whole ratings of small puzzles the same with ``SmallScan`` (the rated run's scan up to
``SMALL_SCAN``) as with ``SinglesScan``; both scans are checked against the full rescan
``_singles`` state by state in tests/test_rated_scan.py."""

from __future__ import annotations

import pytest

from bookgen.core.difficulty import Level
from bookgen.core.rng import derive_seed, rng_for
from bookgen.solve import rated
from bookgen.variants.registry import get_variant


@pytest.mark.parametrize("variant,size,level", [("kenken", 4, Level.EASY), ("futoshiki", 5, Level.EASY),
                                                ("skyscrapers", 4, Level.EASY)])
def test_rating_same_with_either_scan(variant, size, level, monkeypatch):
    v = get_variant(variant)
    rules = v.parse_rules({}, size)
    puzzle = v.generate(size, rules, level, rng_for(derive_seed(2026, size, 1)))
    small = v.grade(puzzle)
    monkeypatch.setattr(rated, "SMALL_SCAN", 0)
    assert v.grade(puzzle) == small
    assert small.rating
