"""Futoshiki: the sign techniques, SAT against brute force, text format, drawing."""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import permutations

import pytest

from bookgen.core.difficulty import Level
from bookgen.core.pen import RecordingPen
from bookgen.core.rng import rng_for
from bookgen.core.types import Edge
from bookgen.puzzletext import PuzzleTextError, parse_text, solve_report, to_text
from bookgen.solve.houses import (
    LADDER, Run, State, geometry, rival_for, run_ladder, solves, used_signs,
)
from bookgen.solve.inequalities import TECHNIQUES, extra_for, sign_clauses, sign_groups
from bookgen.solve.latin import bit
from bookgen.solve.latin_sat import prove, proves_unique, solutions
from bookgen.variants.futoshiki import FUTOSHIKI

G5 = geometry(5)


def _state(less, cands=None) -> State:
    st = State(G5, extra_for(less))
    for (r, c), digits in (cands or {}).items():
        st.cand[r * 5 + c] = sum(bit(d) for d in digits)
    return st


def _house_techniques_fire(st: State) -> list[str]:
    out = []
    for name, _, fn, *_ in LADDER:
        trial = st.copy()
        if fn(trial.board, trial, Run()):
            out.append(name)
    return out


def test_sign_next_to_a_digit():
    # r1c1 is 3 and r1c1 < r1c2: r1c2 is 4 or 5.
    st = _state([(0, 1)])
    st.give(0, 3)
    st.queued = len(st.fresh)  # the givens' own placement is done
    assert _house_techniques_fire(st) == []
    run = Run(explain=True)
    assert TECHNIQUES[0][2](G5, st, run) == 1
    assert st.cand[1] == bit(4) | bit(5) and "which is 3" in run.reason


def test_sign_chain_bounds():
    # r1c1 < r1c2 < r1c3, nothing placed: the ends can't be 4, 5 and 1, 2.
    st = _state([(0, 1), (1, 2)])
    assert _house_techniques_fire(st) == []
    assert TECHNIQUES[0][2](G5, st, Run()) == 0  # no placed digit: the easy sign rule can't start
    bounds = TECHNIQUES[1][2]
    while bounds(G5, st, Run()):
        pass
    assert st.cand[0] == bit(1) | bit(2) | bit(3)
    assert st.cand[1] == bit(2) | bit(3) | bit(4)
    assert st.cand[2] == bit(3) | bit(4) | bit(5)


@lru_cache(maxsize=None)  # several tests use them
def _latin4() -> tuple[tuple[int, ...], ...]:
    """Every 4x4 Latin square, row by row: each row a permutation that repeats no digit of a
    column above it."""
    rows = list(permutations(range(1, 5)))
    out = []

    def extend(grid):
        if len(grid) == 4:
            out.append(sum(grid, ()))
            return
        for row in rows:
            if all(row[k] != above[k] for above in grid for k in range(4)):
                extend(grid + [row])

    extend([])
    return tuple(out)


def test_sat_counts_agree_with_brute_force_on_4x4():
    squares = _latin4()
    assert len(squares) == 576  # the known number of Latin squares of order 4
    geo = geometry(4)
    pairs = [(r * 4 + c, r * 4 + c + 1) for r in range(4) for c in range(3)]
    pairs += [(r * 4 + c, r * 4 + c + 4) for r in range(3) for c in range(4)]
    rng = random.Random(12)
    for _ in range(50):
        base = rng.choice(squares)
        signs = rng.sample(pairs, rng.randint(0, 8))
        less = [(a, b) if base[a] < base[b] else (b, a) for a, b in signs]
        if less and rng.random() < 0.2:
            less[0] = less[0][::-1]  # a sign that may contradict
        givens = [(i, base[i]) for i in rng.sample(range(16), rng.randint(0, 4))]
        expect = [s for s in squares if all(s[i] == d for i, d in givens) and all(s[a] < s[b] for a, b in less)]
        got = solutions(geo, givens, 2, sign_clauses(4, less))
        assert len(got) == min(2, len(expect))
        assert all(tuple(s) in expect for s in got)
        proved = prove(geo, givens, sign_clauses(4, less))
        assert len(proved) == len(got) and all(tuple(s) in expect for s in proved)
        for sol in expect[:2]:  # the generator's proof: the signs as groups, kept between puzzles
            assert proves_unique(geo, givens, sol, groups=sign_groups(4, less)) == (len(expect) == 1)


def test_the_carves_rival_agrees_with_brute_force_on_4x4():
    # One solver serves grid after grid: switched signs, "differs at a cell" and "differs anywhere".
    squares = _latin4()
    pairs = [(r * 4 + c, r * 4 + c + 1) for r in range(4) for c in range(3)]
    pairs += [(r * 4 + c, r * 4 + c + 4) for r in range(3) for c in range(4)]
    rival = rival_for(geometry(4), sorted(p for a, b in pairs for p in ((a, b), (b, a))))
    rng = random.Random(7)
    answers = set()
    for _ in range(60):
        sol = list(rng.choice(squares))
        signs = rng.sample(pairs, rng.randint(0, 8))
        less = [(a, b) if sol[a] < sol[b] else (b, a) for a, b in signs]
        givens = [(i, sol[i]) for i in rng.sample(range(16), rng.randint(0, 6))]
        fits = [s for s in squares if all(s[i] == d for i, d in givens) and all(s[a] < s[b] for a, b in less)]
        cell = rng.choice([-1, rng.randrange(16)])
        expect = any(s[cell] != sol[cell] for s in fits) if cell >= 0 else any(list(s) != sol for s in fits)
        assert rival.differs(sol, givens, cell, less) == expect
        answers.add(expect)
    assert answers == {True, False}


def test_easy_verdict_on_bitboards_agrees_with_the_ladder():
    # The generator's easy question runs singles and signs next to placed digits on bitboards.
    squares = _latin4()
    geo = geometry(4)
    pairs = [(r * 4 + c, r * 4 + c + 1) for r in range(4) for c in range(3)]
    pairs += [(r * 4 + c, r * 4 + c + 4) for r in range(3) for c in range(4)]
    rng = random.Random(3)
    verdicts = set()
    for _ in range(80):
        sol = rng.choice(squares)
        less = [(a, b) if sol[a] < sol[b] else (b, a) for a, b in rng.sample(pairs, rng.randint(0, 10))]
        givens = [(i, sol[i]) for i in rng.sample(range(16), rng.randint(1, 6))]
        extra = extra_for(less)
        ladder = run_ladder(geo, givens, Level.EASY, extra=extra).solved
        assert solves(geo, givens, Level.EASY, extra=extra) == ladder
        verdicts.add(ladder)
    assert verdicts == {True, False}


@pytest.mark.parametrize("level", [Level.EASY, Level.MEDIUM, Level.HARD])
def test_signs_the_ladder_did_not_use_can_go(level):
    # The carve lets a sign go untested when the last solve of the current clues did not use it.
    squares = _latin4()
    geo = geometry(4)
    pairs = [(r * 4 + c, r * 4 + c + 1) for r in range(4) for c in range(3)]
    pairs += [(r * 4 + c, r * 4 + c + 4) for r in range(3) for c in range(4)]
    rng = random.Random(5)
    seen_used = seen_unused = 0
    for _ in range(60):
        sol = rng.choice(squares)
        less = sorted((a, b) if sol[a] < sol[b] else (b, a) for a, b in rng.sample(pairs, rng.randint(2, 12)))
        givens = [(i, sol[i]) for i in rng.sample(range(16), rng.randint(1, 6))]
        used = used_signs(geo, givens, level, extra_for(less))
        assert (used is not None) == solves(geo, givens, level, extra=extra_for(less))
        if used is None:
            continue
        assert used <= set(less)
        for sign in less:
            if sign not in used:
                seen_unused += 1
                rest = [x for x in less if x != sign]
                assert solves(geo, givens, level, extra=extra_for(rest))
        seen_used += bool(used)
    assert seen_used and seen_unused


def test_text_round_trip_and_solve():
    puzzle = FUTOSHIKI.generate(5, {}, Level.MEDIUM, rng_for("f0" * 8))
    text = to_text(puzzle)
    back = parse_text(text, "f.txt")
    assert (back.variant, back.givens, back.edges) == (puzzle.variant, puzzle.givens, puzzle.edges)
    no_header = parse_text(text.split("\n", 1)[1], "f.txt")
    assert no_header.variant == "futoshiki" or not any(ch in text for ch in "<>")
    report = solve_report(back, explain=True)
    assert report.code == 0 and report.solution == puzzle.solution


def test_typed_puzzle_with_all_four_signs():
    text = ("futoshiki\n.   < .   .   .   .\n^\n.   .   .   .   > .\n                v\n"
            ".   .   .   .   .\n.   .   .   .   .\n.   .   .   .   .\n").replace("   < ", " < ").replace("   > ", " > ")
    puzzle = parse_text(text, "t.txt")
    assert set(puzzle.edges) == {Edge((0, 0), (0, 1), "<"), Edge((0, 0), (1, 0), "<"),
                                 Edge((1, 3), (1, 4), ">"), Edge((1, 4), (2, 4), ">")}


@pytest.mark.parametrize("text,where,message", [
    ("futoshiki\n. < < .\n. . . .\n. . . .\n. . . .\n", "2:5", "between two cells"),
    ("futoshiki\n. . . .\n ^\n. . . .\n. . . .\n. . . .\n", "3:2", "not under a cell"),
    ("futoshiki\n. . . 5\n. . . .\n. . . .\n. . . .\n", "2", "digit 5 in a 4\u00d74"),
    ("futoshiki\n. . . 0\n. . . .\n. . . .\n. . . .\n", "2:7", "digits start at 1"),
])
def test_bad_text_is_located(text, where, message):
    with pytest.raises(PuzzleTextError) as info:
        parse_text(text, "bad.txt")
    assert str(info.value).startswith(f"bad.txt:{where}:") and message in str(info.value)


def test_signs_point_at_the_smaller_cell():
    puzzle = parse_text("futoshiki\n1 < . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n", "p.txt")
    pen = RecordingPen()
    FUTOSHIKI.draw(pen, puzzle)
    signs = [op for op in pen.ops if op[0] == "polygon"]
    assert len(signs) == 1
    tip = min(signs[0][1])  # the leftmost point, on the middle line: pointing at r1c1
    assert round(tip[0], 3) == 0.93 and round(tip[1], 3) == 0.5
    assert FUTOSHIKI.validate(puzzle.__class__(**{**puzzle.__dict__, "solution": (
        "12345", "23451", "34512", "45123", "51234")})) == []


def test_rules_and_requests():
    assert FUTOSHIKI.parse_rules(None, 5) == {}
    with pytest.raises(ValueError, match="has none"):
        FUTOSHIKI.parse_rules({"diagonal": True}, 5)
    assert "never harder than hard" in FUTOSHIKI.check_request(4, {}, Level.EXPERT)


def test_a_mended_removal_needs_the_hard_tier_and_no_less():
    # Take a sign from a hard puzzle so that it stays unique but the hard tier stalls: the mend
    # must find a sign (the one taken would do) with which the hard tier finishes and the
    # medium tier does not.
    from bookgen.solve.houses import closure
    from bookgen.variants.futoshiki import _less, _mend
    found = 0
    for seed in range(20):
        p = FUTOSHIKI.generate(5, {}, Level.HARD, rng_for(f"{seed:016x}"))
        sol = [int(ch) for row in p.solution for ch in row]
        givens = [(r * 5 + c, int(ch)) for r, row in enumerate(p.givens) for c, ch in enumerate(row) if ch != "."]
        less = _less(p)
        for taken in less:
            rest = [x for x in less if x != taken]
            if len(prove(G5, givens, sign_clauses(5, rest))) != 1:
                continue
            done, stalled = closure(G5, givens, Level.HARD, -1, extra_for(rest))
            if done or stalled is None:
                continue
            sign = _mend(G5, sol, givens, set(rest), stalled, -1, random.Random(seed))
            assert sign is not None and sign not in rest and sol[sign[0]] < sol[sign[1]]
            mended = sorted([*rest, sign])
            assert solves(G5, givens, Level.HARD, extra=extra_for(mended))
            assert not solves(G5, givens, Level.MEDIUM, extra=extra_for(mended))
            found += 1
        if found >= 3:
            break
    assert found


def test_a_trial_from_the_stalled_state_is_the_trial_from_scratch():
    # The expert carve hands ``settles`` the state where the hard tier just stalled.
    from bookgen.solve.houses import closure, settles
    from bookgen.variants.futoshiki import _less
    p = FUTOSHIKI.generate(5, {}, Level.EXPERT, rng_for("e1" * 8))
    sol = [int(ch) for row in p.solution for ch in row]
    full = [(r * 5 + c, int(ch)) for r, row in enumerate(p.givens) for c, ch in enumerate(row) if ch != "."]
    extra = extra_for(_less(p))
    seen = set()
    for cell in range(25):
        givens = [g for g in full if g[0] != cell]
        done, stalled = closure(G5, givens, Level.HARD, cell, extra)
        if done or stalled is None:
            continue
        for trial in (cell, *(i for i in range(25) if stalled.cand[i].bit_count() == 2)):
            fresh = settles(G5, givens, [(trial, sol[trial])], extra=extra)
            assert settles(G5, givens, [(trial, sol[trial])], extra=extra, stalled=stalled.copy()) == fresh
            seen.add(fresh)
    assert seen == {True, False}


def test_the_trimmed_sign_ladder_takes_the_whole_ladders_steps():
    # The signs' ladder without ``LINES_IDLE`` (``SignExtra.trimmed``) against the whole house
    # ladder: the same explained steps and the same rated run, on puzzles with signs and
    # without; and each idle technique finds nothing where the whole ladder stalls.
    from dataclasses import replace

    from trimmed_ladders import same_steps

    from bookgen.solve.houses import LINES_IDLE, merged_ladder
    from bookgen.solve.latin import random_latin_square

    whole = [t for t in merged_ladder(TECHNIQUES) if t.name in LINES_IDLE]
    assert {t.name for t in whole} == LINES_IDLE
    assert not [t for t in extra_for([]).ladder() if t.name in LINES_IDLE]
    rng = random.Random(31)
    looked = 0
    for n in (4, 5):
        geo = geometry(n)
        pairs = [(r * n + c, r * n + c + 1) for r in range(n) for c in range(n - 1)] + \
            [(r * n + c, (r + 1) * n + c) for r in range(n - 1) for c in range(n)]
        for k in range(8):
            sol = [d for row in random_latin_square(n, rng) for d in row]
            less = [] if k % 4 == 0 else \
                [(a, b) if sol[a] < sol[b] else (b, a) for a, b in rng.sample(pairs, rng.randint(2, 2 * n))]
            givens = [(i, sol[i]) for i in rng.sample(range(n * n), rng.randint(1, n + 2))]
            trimmed = extra_for(less)
            looked += same_steps(geo, givens, trimmed, replace(trimmed, trimmed=False), whole)
    assert looked > 20
