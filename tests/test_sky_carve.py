"""Skyscrapers' carve below the hard tier going on from fixpoints (``_carve``'s default: a
removal's solve from the fixpoint of the givens and the clues found needed, a trade's clue
back from where the tier stalled) against its plain version, every solve from the givens
(``resumed=False``): the same givens and clues kept, at easy and medium (the hard tier has no
fast path). ``extra_for`` against ``extra_for_plain``."""

from __future__ import annotations

import random

from bookgen.core.difficulty import Level
from bookgen.solve.houses import geometry
from bookgen.solve.latin import random_latin_square
from bookgen.solve.skyscrapers import clues_of, extra_for, extra_for_plain
from bookgen.variants import skyscrapers
from bookgen.variants.skyscrapers import _carve


def test_carving_on_from_fixpoints_equals_carving_afresh(monkeypatch):
    went_on = []
    plain_trade = skyscrapers._trade_givens

    def counting(given, kept, every, solves, rng, more=None, fixed=None, extra_of=None):
        def counted(stalled):
            went_on.append(1)
            return more(stalled)
        plain_trade(given, kept, every, solves, rng, more and counted, fixed, extra_of)

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


def test_extra_for_equals_the_plain_version():
    rng = random.Random(5)
    for n in (4, 5, 6):
        for _ in range(20):
            every = clues_of(random_latin_square(n, rng))
            clues = {side: tuple(v if rng.random() < 0.6 else 0 for v in every[side]) for side in every}
            used: set = set()
            fast, plain = extra_for(n, clues, used), extra_for_plain(n, clues, used)
            assert (fast.sights, fast.lines, fast.edge, fast.bounds) == \
                (plain.sights, plain.lines, plain.edge, plain.bounds)
            assert fast.used is used and fast.techniques == plain.techniques
            assert len(fast.lines) == sum(1 for k in range(n) for a, b in (("left", "right"), ("top", "bottom"))
                                          if clues[a][k] or clues[b][k])
