"""Skyscrapers' carve below the hard tier going on from fixpoints (``_carve``'s default: a
removal's solve from the fixpoint of the givens and the clues found needed, a given's from
the fixpoint of the clues and the givens found needed, the trades' draws without their
solves) against its plain version, every solve from the givens and every trade tried
(``resumed=False``): the same givens and clues kept and the same random draws, at easy and
medium (the hard tier has no fast path). ``extra_for`` against ``extra_for_plain``."""

from __future__ import annotations

import random

from bookgen.core.difficulty import Level
from bookgen.solve.houses import geometry
from bookgen.solve.latin import random_latin_square
from bookgen.solve.skyscrapers import clues_of, extra_for, extra_for_plain
from bookgen.variants import skyscrapers
from bookgen.variants.skyscrapers import _carve


def test_carving_on_from_fixpoints_equals_carving_afresh(monkeypatch):
    traded = []
    plain_trade = skyscrapers._trade_givens

    def counting(given, *rest):
        traded.append(sum(given))
        plain_trade(given, *rest)

    monkeypatch.setattr(skyscrapers, "_trade_givens", counting)
    for n, level in ((4, Level.EASY), (4, Level.MEDIUM), (5, Level.EASY), (5, Level.MEDIUM), (6, Level.EASY)):
        geo = geometry(n)
        for seed in range(6):
            square = random_latin_square(n, random.Random(seed))
            sol = [d for row in square for d in row]
            fast_rng, plain_rng = random.Random(seed), random.Random(seed)
            fast = _carve(geo, sol, clues_of(square), level, fast_rng)
            plain = _carve(geo, sol, clues_of(square), level, plain_rng, resumed=False)
            assert fast == plain
            # the same draws too (``_futile_trades`` only draws): the next attempt's square
            assert fast_rng.getstate() == plain_rng.getstate()
    assert sum(traded) > 20  # the plain carves traded givens, so the skipped trades were compared


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
            again, bare = extra_for(n, clues, set()), extra_for(n, clues)  # from the cache
            assert again.used is not used and again.used == set() and bare.used is None
            assert (again.sights, again.lines, bare.edge, bare.bounds) == (fast.sights, fast.lines, fast.edge, fast.bounds)
            assert len(fast.lines) == sum(1 for k in range(n) for a, b in (("left", "right"), ("top", "bottom"))
                                          if clues[a][k] or clues[b][k])
