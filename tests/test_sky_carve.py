"""Skyscrapers' carve with its shortcuts (``_carve``'s default: a removal's solve from the
fixpoint of the givens and the clues found needed, a given's from the fixpoint of the clues
and the givens found needed, the solves in ``verdict_view``'s order, the trades' draws without
their solves, no trial where a second solution exists) against its plain version, every solve
from the givens in the ladder's order, every trade and trial tried (``plain=True``): the same
givens and clues kept and the same random draws, at every level. The fast paths they use
against theirs: ``extra_for`` against ``extra_for_plain``, ``verdict_view`` against the
ladder's order, ``ambiguous`` against every 4x4 Latin square, the trimmed ladder against the
whole one."""

from __future__ import annotations

import random
from dataclasses import replace

from conftest import examples

from bookgen.core.difficulty import Level
from bookgen.solve.houses import Run, closure, geometry, merged_ladder
from bookgen.solve.latin import random_latin_square
from bookgen.solve.latin_table import latin_table
from bookgen.solve.rated import rated_run
from bookgen.solve.skyscrapers import (
    IDLE, SIDES, TECHNIQUES, ambiguous, ambiguous_sat, clues_of, easy_stall, easy_verdict, extra_for, extra_for_plain,
)
from bookgen.variants import skyscrapers
from bookgen.variants.skyscrapers import _carve
from trimmed_ladders import same_steps


def test_carving_on_from_fixpoints_equals_carving_afresh(monkeypatch):
    traded = []
    plain_trade = skyscrapers._trade_givens

    def counting(given, *rest):
        traded.append(sum(given))
        plain_trade(given, *rest)

    monkeypatch.setattr(skyscrapers, "_trade_givens", counting)
    trials = []
    plain_trial = skyscrapers.trial_cell

    def trying(*args):
        got = plain_trial(*args)
        trials.append(got is not None)
        return got

    monkeypatch.setattr(skyscrapers, "trial_cell", trying)
    # (twice the seeds before, 3 expert: bench/sweep_suite.py)
    for n, level, seeds in ((4, Level.EASY, 3), (4, Level.MEDIUM, 3), (5, Level.EASY, 3), (5, Level.MEDIUM, 3),
                            (6, Level.EASY, 3), (4, Level.HARD, 4), (5, Level.HARD, 2), (5, Level.EXPERT, 3)):
        geo = geometry(n)
        for seed in range(examples(seeds) if level < Level.EXPERT else seeds):
            square = random_latin_square(n, random.Random(seed))
            sol = [d for row in square for d in row]
            fast_rng, plain_rng = random.Random(seed), random.Random(seed)
            fast = _carve(geo, sol, clues_of(square), level, fast_rng)
            plain = _carve(geo, sol, clues_of(square), level, plain_rng, plain=True)
            assert fast == plain
            # the same draws too (``_futile_trades`` and a skipped trial only draw): the next
            # attempt's square
            assert fast_rng.getstate() == plain_rng.getstate()
    assert sum(traded) > 20  # the plain carves traded givens, so the skipped trades were compared
    # the plain expert carves tried trials, most in vain (skipped by the fast ones), some not
    assert trials.count(False) > 10 and True in trials


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
            assert fast.used is used and fast.techniques == plain.techniques and fast.size == plain.size == n
            again, bare = extra_for(n, clues, set()), extra_for(n, clues)  # from the cache
            assert again.used is not used and again.used == set() and bare.used is None
            assert (again.sights, again.lines, bare.edge, bare.bounds) == (fast.sights, fast.lines, fast.edge, fast.bounds)
            assert len(fast.lines) == sum(1 for k in range(n) for a, b in (("left", "right"), ("top", "bottom"))
                                          if clues[a][k] or clues[b][k])


def _positions(n: int, count: int, seed: int):
    """(geometry, solution, clues, givens) with some clues and givens kept, at random."""
    rng = random.Random(seed)
    geo = geometry(n)
    for _ in range(count):
        square = random_latin_square(n, rng)
        every = clues_of(square)
        clues = {side: tuple(c if rng.random() < 0.5 else 0 for c in v) for side, v in every.items()}
        givens = [(i, square[i // n][i % n]) for i in rng.sample(range(n * n), rng.randint(0, n))]
        yield geo, [d for row in square for d in row], clues, givens


def _carved(n: int, count: int):
    """(geometry, solution, clues, givens) of hard carves, and each with one clue less: the
    positions where the hard tier's techniques work."""
    geo = geometry(n)
    for seed in range(count):
        square = random_latin_square(n, random.Random(seed))
        sol = [d for row in square for d in row]
        given, clues = _carve(geo, sol, clues_of(square), Level.HARD, random.Random(seed))
        givens = [(i, sol[i]) for i in range(n * n) if given[i]]
        yield geo, sol, clues, givens
        for side in SIDES:
            for k, c in enumerate(clues[side]):
                if c:
                    yield geo, sol, {**clues, side: clues[side][:k] + (0,) + clues[side][k + 1:]}, givens


def test_the_verdict_order_stops_where_the_ladder_does():
    # ``verdict_view`` (a carve's solves) against the ladder's own order: at each tier, the
    # same verdict and the same position.
    stalls, used = 0, set()
    for n, positions in ((4, _positions(4, 12, 4)), (5, _positions(5, 12, 5)), (5, _carved(5, 2)),
                         (6, _carved(6, 1))):
        for geo, sol, clues, givens in positions:
            for level in (Level.EASY, Level.MEDIUM, Level.HARD):
                ends = []
                for verdict in (True, False):
                    run = Run()
                    done, st = closure(geo, givens, level, extra=extra_for(n, clues, verdict=verdict), run=run)
                    ends.append((done, st and (st.cand, st.placed)))
                    used.update(run.counts)
                assert ends[0] == ends[1]
                stalls += not ends[0][0]
    assert stalls > 20 and {"sky_lines", "hidden_pair", "x_wing"} <= used


def test_the_trimmed_ladder_takes_the_whole_ladders_steps():
    # The ladder without ``IDLE`` against the whole house ladder: the same explained steps
    # and the same rated run; and each idle technique finds nothing where the ladder stalls.
    idle = [t for t in extra_for(5, {s: (0,) * 5 for s in SIDES}).ladder() if t.name in IDLE]
    assert not idle
    whole = [t for t in merged_ladder(TECHNIQUES) if t.name in IDLE]
    assert {t.name for t in whole} == IDLE
    looked = 0
    for n in (4, 5):
        for geo, sol, clues, givens in _positions(n, 6, 10 + n):
            trimmed = extra_for(n, clues)
            looked += same_steps(geo, givens, trimmed, replace(trimmed, trimmed=False), whole)
    assert looked > 50


def test_ambiguous_is_what_every_latin_square_says():
    # ``ambiguous`` (by the table of 4x4 Latin squares) and ``ambiguous_sat`` (with or without
    # the position the ladder reached) against every 4x4 Latin square that shows the clues
    # and holds the givens, counted the obvious way.
    squares, _ = latin_table(4)
    shown = [clues_of([sq[r * 4:r * 4 + 4] for r in range(4)]) for sq in squares]
    verdicts = set()
    for geo, sol, clues, givens in _positions(4, 60, 3):
        fits = sum(1 for sq, seen in zip(squares, shown)
                   if all(sq[i] == d for i, d in givens)
                   and all(c == 0 or seen[side][k] == c for side in SIDES for k, c in enumerate(clues[side])))
        assert fits >= 1
        done, st = closure(geo, givens, Level.MEDIUM, extra=extra_for(4, clues))
        assert ambiguous(geo, sol, givens, clues) == (fits > 1)  # (by the table)
        for within in (None, st):
            assert ambiguous_sat(geo, sol, givens, clues, within) == (fits > 1)
        verdicts.add(fits > 1)
    assert verdicts == {True, False}


def test_the_small_carve_equals_the_plain_carve_and_bisects(monkeypatch):
    # ``_small_carve`` (4x4: removals made on the table's word, the tier asked of the end and,
    # where it fails, the removal it can't take found by bisection) against the plain carve:
    # the same givens and clues and the same draws, and its grade the whole ladder's; some
    # carves had to bisect.
    asked = []
    real = skyscrapers.run_ladder

    def asking(*a, **k):
        res = real(*a, **k)
        asked.append(res.solved)
        return res

    monkeypatch.setattr(skyscrapers, "run_ladder", asking)
    # (twice the 4x4 seeds before: bench/sweep_suite.py)
    for n, level, seeds in ((4, Level.EASY, 4), (4, Level.MEDIUM, 7), (4, Level.HARD, 5), (5, Level.EASY, 4),
                            (5, Level.HARD, 3), (6, Level.HARD, 1)):
        geo = geometry(n)
        for seed in range(100, 100 + (examples(seeds) if n == 4 else seeds)):
            square = random_latin_square(n, random.Random(seed))
            sol = [d for row in square for d in row]
            fast_rng, plain_rng = random.Random(seed), random.Random(seed)
            given, clues, graded = skyscrapers._small_carve(geo, sol, clues_of(square), level, fast_rng)
            assert (given, clues) == _carve(geo, sol, clues_of(square), level, plain_rng, plain=True)
            assert fast_rng.getstate() == plain_rng.getstate()
            assert (graded is None) == (level == Level.EASY)
            if graded is not None:
                whole = real(geo, [(i, sol[i]) for i in range(n * n) if given[i]], Level.EXPERT,
                             extra=extra_for(n, clues))
                assert graded == whole
    assert False in asked  # some ends the tier couldn't take: bisected


def test_every_4x4_square_its_clues_show_alone_is_a_medium_puzzle():
    # What lets ``_small_carve`` skip ``_needed_givens`` above easy: every 4x4 Latin square
    # whose 16 clues show no other square is solved by the medium tier from them alone.
    geo = geometry(4)
    unique = 0
    for flat in latin_table(4)[0]:
        clues = clues_of([flat[r * 4:r * 4 + 4] for r in range(4)])
        if not ambiguous(geo, list(flat), [], clues):
            unique += 1
            assert closure(geo, [], Level.MEDIUM, extra=extra_for(4, clues, verdict=True))[0]
    assert unique == 372


def test_the_easy_verdict_is_the_easy_tier():
    # ``easy_verdict`` and ``easy_stall`` (the clues' strikes, then singles on bitboards)
    # against the ladder's easy tier, on random clue sets and givens: the same verdict, and
    # where it stalls the same cells placed.
    verdicts = []
    for n in (4, 5):
        for geo, sol, clues, givens in _positions(n, 60, 20 + n):
            fast = easy_verdict(geo, givens, clues)
            done, st = closure(geo, givens, Level.EASY, extra=extra_for(n, clues))
            assert fast == done
            placed = easy_stall(geo, givens, clues)
            assert (placed is None) == done
            if not done:
                assert placed == sum(1 << i for i in range(n * n) if st.placed[i])
            verdicts.append(fast)
    assert 10 < sum(verdicts) < len(verdicts) - 10


def test_the_table_proof_is_the_sat_proof():
    # ``SkyscrapersVariant.proves`` on 4x4 (the table of every Latin square) against the SAT
    # proof (``proves_unique`` with the clue groups), on unique and ambiguous positions.
    from bookgen.solve.latin_sat import proves_unique
    from bookgen.solve.latin_table import only_solution
    from bookgen.solve.skyscrapers import clue_groups, table_solutions
    answers = []
    for geo, sol, clues, givens in _positions(4, 80, 7):
        fast = only_solution(4, table_solutions(4, givens, clues), sol)
        assert fast == proves_unique(geo, givens, sol, (), groups=clue_groups(4, clues))
        answers.append(fast)
    assert True in answers and False in answers


def test_the_hard_tiers_stalls_on_4x4_are_the_tables():
    # What lets ``_small_carve`` make the hard given search by the table: where the 16 clues
    # show two squares or more, the hard tier stalls exactly where the givens drawn so far
    # leave two or more, with the cells they agree on placed; the medium tier not always.
    # (A sample of the squares; bench/sky_table_stalls.py visits every state from all 204.)
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from sky_table_stalls import stalls_differ
    visited, differ = stalls_differ(Level.HARD, 12)
    assert visited > 300 and differ == 0
    assert stalls_differ(Level.MEDIUM, 12)[1] > 0  # the check sees a difference where there is one


def test_the_clue_techniques_probes():
    # ``sky_edge``'s and ``sky_bounds``' probes (``Tech.probe``): where one says no, its
    # technique on a copy finds nothing; and the rated run with the probes is the run without.
    from bookgen.solve.houses import start
    probed = [t for t in TECHNIQUES if t.probe is not None]
    assert {t.name for t in probed} == {"sky_edge", "sky_bounds"}
    said = set()
    for n in (4, 5):
        for geo, sol, clues, givens in _positions(n, 12, 40 + n):
            extra = extra_for(n, clues)
            st = start(geo, givens, extra)
            for _ in range(3):
                for t in probed:
                    says = t.probe(geo, st)
                    said.add(says)
                    if not says:
                        assert t.fn(geo, st.copy(), Run()) == 0
                    else:
                        t.fn(geo, st, Run())  # strike, then ask again
            assert rated_run(geo, givens, extra) == rated_run(geo, givens, extra, probes=False)
    assert said == {True, False}


def test_kept_clue_switches_are_the_clue_groups_switches():
    # ``clue_switches`` (a clue's switch and literals kept per solver) against its plain version,
    # ``group_switches`` over ``clue_groups``, on two solvers asked about many clue sets in turn
    # (the first ask writes a line's clauses: both must number them alike).
    from bookgen.solve.latin_sat import LatinSolver, group_switches
    from bookgen.solve.skyscrapers import clue_groups, clue_switches
    fast_ls = plain_ls = None
    for geo, sol, clues, givens in _positions(5, 30, 11):
        if fast_ls is None:
            fast_ls, plain_ls = LatinSolver(geo), LatinSolver(geo)
        fast = clue_switches(fast_ls, 5, clues)
        assert fast == group_switches(plain_ls, clue_groups(5, clues))
        assert fast == clue_switches(fast_ls, 5, clues)  # (from the memo)
    assert fast_ls.memo and fast_ls.next_var == plain_ls.next_var

