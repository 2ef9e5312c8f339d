"""Skyscrapers' carve below the hard tier going on from fixpoints (``_carve``'s default: a
removal's solve from the fixpoint of the givens and the clues found needed, a trade's clue
back from where the tier stalled) against its plain version, every solve from the givens
(``resumed=False``): the same givens and clues kept, at every level."""

from __future__ import annotations

import random

from bookgen.core.difficulty import Level
from bookgen.solve.houses import geometry
from bookgen.solve.latin import random_latin_square
from bookgen.solve.skyscrapers import clues_of
from bookgen.variants import skyscrapers
from bookgen.variants.skyscrapers import _carve


def test_carving_on_from_fixpoints_equals_carving_afresh(monkeypatch):
    went_on = []
    plain_trade = skyscrapers._trade_givens

    def counting(given, kept, every, solves, rng, more=None):
        def counted(stalled):
            went_on.append(1)
            return more(stalled)
        plain_trade(given, kept, every, solves, rng, more and counted)

    monkeypatch.setattr(skyscrapers, "_trade_givens", counting)
    for n, level in ((4, Level.EASY), (4, Level.MEDIUM), (5, Level.EASY), (5, Level.MEDIUM), (6, Level.EASY)):
        geo = geometry(n)
        for seed in range(6):
            square = random_latin_square(n, random.Random(seed))
            sol = [d for row in square for d in row]
            fast = _carve(geo, sol, clues_of(square), level, random.Random(seed))
            plain = _carve(geo, sol, clues_of(square), level, random.Random(seed), resumed=False)
            assert fast == plain
    assert went_on  # some trades went on from a stall, so the two ways were compared
