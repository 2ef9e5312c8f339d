"""KenKen's rated run taken cage by cage (``arithmetic.RatedCages``, ``Extra.rated_steps``)
against the run's own search, with the probes and without (the plain version): the same steps
and the same end, on random cagings of every size (ambiguous ones too, so runs that stall and
fall back to the run's own search for a step), with hidden operations and with givens."""

from __future__ import annotations

import random

import pytest
from conftest import examples

from bookgen.core.difficulty import Level
from bookgen.core.rating import minutes_of, rating_of
from bookgen.solve.arithmetic import (Board, RatedCages, _CageTable, _latin_line_singles, _line_singles, _pair_rows, _union_of,
                                      _uses_of, _uses_plain)
from bookgen.solve.houses import Contradiction, Run, _bitboards, geometry, start
from bookgen.solve.latin import random_latin_square
from bookgen.solve.rated import _plan, line_places, rated_run, rated_summary
from bookgen.variants.kenken import _Layout


def _cagings(n: int, count: int, seed: int):
    """(cages as (cells, op, target), hidden ops, givens) of random cagings of random squares."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        level = rng.choice(list(Level))
        square = random_latin_square(n, rng)
        rules = {"ops": ["+", "-", "*", "/"], "max_cage": rng.choice([2, 3, 4, 5]),
                 "show_ops": rng.random() < 0.75, "singles": rng.choice(["few", "none", "normal"])}
        layout = _Layout(n, square, rules, level, rng)
        if not layout.tile():
            continue
        made += 1
        flat = [d for row in layout.square for d in row]  # (an easy tiling may shuffle the square)
        givens = [(i, flat[i]) for i in range(n * n) if rng.random() < 0.15] if made % 3 == 0 else []
        hidden = None if rules["show_ops"] else tuple(rules["ops"])
        yield [(c.cells, c.op, c.target) for c in layout.cage_list()], hidden, givens


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8])
def test_steps_taken_cage_by_cage_equal_the_runs_own_search(n):
    taken = 0
    # (10 and 2 cagings before: bench/sweep_suite.py runs twice as many)
    for cages, hidden, givens in _cagings(n, examples(5) if n < 7 else examples(1), 100 + n):
        runs = []
        for probes, fast, at_once in ((True, True, True), (True, True, False), (True, False, False),
                                      (False, False, False)):
            board = Board.build(n, cages, hidden)  # (a board of its own each: no memo shared)
            runs.append(rated_run(board.geo, givens, board, probes=probes, fast=fast, at_once=at_once))
        assert runs[0] == runs[1] == runs[2] == runs[3]
        taken += len(runs[0][0])
    assert taken


def test_the_whole_run_at_once_is_the_steps_one_by_one():
    """``RatedCages.whole`` gives the entries the taker gives call by call, and leaves the
    state as it was; where it can't finish alone (no single and no row acts) it says so."""
    from bookgen.variants.kenken import KENKEN
    for n, level, seed in ((4, Level.EASY, 1), (5, Level.EASY, 2), (5, Level.MEDIUM, 3)):
        puzzle = KENKEN.generate(n, KENKEN.parse_rules({}, n), level, random.Random(seed))
        board = Board.build(n, [(c.cells, c.op, c.target) for c in puzzle.cages])
        plan = _plan(board.ladder())
        st = start(board.geo, [], board)
        before = (st.cand[:], st.placed[:])
        got = RatedCages.make(board.geo, board, *plan).whole(st)
        assert (st.cand, st.placed) == before
        taker = RatedCages.make(board.geo, board, *plan)
        one_by_one = []
        while st.unplaced:
            one_by_one.append(taker(st))
        assert got == one_by_one
    # a 2x2 square in one 6+ cage: both Latin squares fit, so no single and no row acts
    board = Board.build(2, [(((0, 0), (0, 1), (1, 0), (1, 1)), "+", 6)])
    plan = _plan(board.ladder())
    assert RatedCages.make(board.geo, board, *plan).whole(start(board.geo, [], board)) is None
    assert rated_run(board.geo, [], board) == rated_run(board.geo, [], board, at_once=False) == ([], False)


def test_generated_puzzles_rate_the_same_every_way():
    """Cage by cage, by probes, and the plain search (the reference of both) agree."""
    from bookgen.variants.kenken import KENKEN
    for n, level in ((4, Level.HARD), (5, Level.EASY), (5, Level.HARD), (6, Level.MEDIUM), (6, Level.EXPERT)):
        puzzle = KENKEN.generate(n, KENKEN.parse_rules({}, n), level, random.Random(n))
        runs = []
        for fast, probes in ((True, True), (False, True), (False, False)):
            board = Board.build(n, [(c.cells, c.op, c.target) for c in puzzle.cages])
            runs.append(rated_run(board.geo, [], board, probes=probes, fast=fast))
        assert runs[0] == runs[1] == runs[2] and runs[0][1]


@pytest.mark.parametrize("n", [4, 5, 6])
def test_a_taker_that_gives_up_left_no_direct_step(n, monkeypatch):
    """``RatedCages.sees_direct`` and ``idle_rows``: wherever the taker gives None,
    ``rated._direct`` on the same state finds nothing either, nor does any of its rows tried on
    a copy, so the run asks neither again; the run that asks (the plain one) takes the same steps."""
    from bookgen.solve import rated
    from bookgen.variants.kenken import KENKEN
    cases = list(_cagings(n, examples(6), 300 + n))  # (12 before: bench/sweep_suite.py)
    for level in (Level.HARD, Level.EXPERT):
        p = KENKEN.generate(n, KENKEN.parse_rules({}, n), level, random.Random(n + int(level)))
        cases.append(([(c.cells, c.op, c.target) for c in p.cages], None, []))
    gave_up = 0
    for cages, hidden, givens in cases:
        board = Board.build(n, cages, hidden)
        plan = _plan(board.ladder())
        taker = RatedCages.make(board.geo, board, *plan)
        try:
            st = start(board.geo, givens, board)
        except Contradiction:
            continue
        for _ in range(n ** 3):  # the taker's steps, and the run's own search where it gives up
            if not st.unplaced:
                break
            if taker(st) is None:
                gave_up += 1
                assert rated._direct(board.geo, st, float("inf")) is None
                assert 0 < taker.idle_rows == len(taker.rows)
                for t, _, _ in plan[0][:taker.idle_rows]:
                    run = Run()
                    run.best = True
                    assert not t.fn(board.geo, st.copy(), run)
                found = rated._easiest_advanced(board.geo, st, plan[0], float("inf"))
                if found is None:
                    break
                st = found[0]
        runs = []
        for sees in (False, True):  # (the fast one last: the next case's checks read it)
            monkeypatch.setattr(RatedCages, "sees_direct", sees)
            monkeypatch.setattr(RatedCages, "skip_idle", sees)
            board = Board.build(n, cages, hidden)
            runs.append(rated_run(board.geo, givens, board, at_once=False))
        assert runs[0] == runs[1]
    assert gave_up


def test_the_taker_declines_a_plan_it_does_not_know():
    board = Board.build(4, [(((0, 0),), "", 1)])
    advanced, values, alone = _plan(board.ladder())
    assert RatedCages.make(board.geo, board, advanced, values, alone) is not None
    # a single open below a technique it has no predicate for, or SE's full house: the run's own search
    assert RatedCages.make(board.geo, board, advanced, values, 1.0) is None
    assert RatedCages.make(board.geo, board, advanced, (1.2, 2.8, 3.0), alone) is None
    odd = tuple((t._replace(fn=lambda g, st, run: 0), least, trial) for t, least, trial in advanced)
    assert RatedCages.make(board.geo, board, odd, values, alone) is None
    # a geometry with more houses than rows and columns (boxes, diagonals)
    assert RatedCages.make(geometry(4, (2, 2)), board, advanced, values, alone) is None
    assert RatedCages.make(geometry(4, diagonal=True), board, advanced, values, alone) is None


def _runs(n, cages, givens, hidden=None):
    out = []
    for probes, fast in ((True, True), (True, False), (False, False)):
        board = Board.build(n, cages, hidden)
        out.append(rated_run(board.geo, givens, board, probes=probes, fast=fast))
    return out


def test_the_last_naked_singles_are_taken_at_once_as_step_by_step():
    """Where every open cell is a naked single that completes the grid, the taker places them in
    one go (a ``count`` entry): the same steps as one at a time; and where the cells' singles
    break a cage, it does not (the run finds the contradiction as the plain run does)."""
    from bookgen.variants.kenken import KENKEN
    n = 4
    puzzle = KENKEN.generate(n, KENKEN.parse_rules({}, n), Level.EASY, random.Random(3))
    cages = [(c.cells, c.op, c.target) for c in puzzle.cages]
    board = Board.build(n, cages)
    advanced, values, alone = _plan(board.ladder())
    taker = RatedCages.make(board.geo, board, advanced, values, alone)
    from bookgen.solve.houses import start
    st = start(board.geo, [], board)
    took = []
    while st.unplaced:
        took.append(taker(st))
    assert len(took[-1]) == 4 and took[-1][3] > 1 and all(len(t) == 3 for t in took[:-1])
    runs = _runs(n, cages, [])
    assert runs[0] == runs[1] == runs[2] and runs[0][1]
    assert [s.options for s in runs[0][0][-took[-1][3]:]] == list(range(took[-1][3], 0, -1))
    # 1 2 3 / 2 3 1 / 3 1 2 with the top row's first two cells open (naked singles 1 and 2) in a 5+ cage
    square = [1, 2, 3, 2, 3, 1, 3, 1, 2]
    givens = [(i, d) for i, d in enumerate(square) if i not in (0, 1)]
    broken = [(((0, 0), (0, 1)), "+", 5)] + [(((i // 3, i % 3),), "", d) for i, d in givens]
    board = Board.build(3, broken)
    taker = RatedCages.make(board.geo, board, *_plan(board.ladder()))
    st = start(board.geo, givens, board)
    assert not taker._completes(st)
    runs = _runs(3, broken, givens)
    assert runs[0] == runs[1] == runs[2] and not runs[0][1]


def _one_by_one(board, st):
    """The taker's entries call by call from ``st`` to the end, or None where it hands a step
    to the run's own search (or meets a contradiction)."""
    taker = RatedCages.make(board.geo, board, *_plan(board.ladder()))
    out = []
    try:
        while st.unplaced:
            took = taker(st)
            if took is None:
                return None
            out.append(took)
    except Contradiction:
        return None
    return out


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_the_run_at_once_on_bits_is_the_taker_call_by_call(n):
    """``whole`` (the cages' assignments as bits, their rows read off packed keys) against the
    taker call by call (``_look`` and the techniques on the engine's state), on many random
    cagings, with givens on a third; from the blank grid (None) as from the start state; and
    the rating and minutes ``rated_summary`` reads off its entries against those of the steps."""
    whole = stalled = 0
    # (40 and 12 cagings before: bench/sweep_suite.py runs twice as many)
    for cages, hidden, givens in _cagings(n, examples(20) if n < 6 else examples(6), 500 + n):
        board = Board.build(n, cages, hidden)
        plan = _plan(board.ladder())
        try:
            st = start(board.geo, givens, board)
        except Contradiction:
            continue
        got = RatedCages.make(board.geo, board, *plan).whole(st)
        if not givens:
            assert RatedCages.make(board.geo, board, *plan).whole(None) == got
        expect = _one_by_one(board, st)
        if got is None:
            stalled += 1
        else:
            whole += 1
            assert got == expect
        steps, _ = rated_run(board.geo, givens, Board.build(n, cages, hidden))
        assert repr(rated_summary(board.geo, givens, Board.build(n, cages, hidden), n * n)) == \
            repr((rating_of(steps), minutes_of(steps, n * n)))
    assert whole and stalled


def test_a_cage_tables_bits_are_its_assignments():
    """``_uses_of`` (read off the columns) against ``_uses_plain``, and a table's union of a
    set of assignments against ``_union_of`` of those assignments, on the cages of random
    cagings (hidden operations too) and random sets of their assignments."""
    rng = random.Random(11)
    seen = 0
    for n in (3, 4, 5, 6, 7):
        for cages, hidden, _ in _cagings(n, 6, 900 + n):
            for ass in Board.build(n, cages, hidden).assigns:
                assert _uses_of(ass, n) == _uses_plain(ass, n)
                table = _CageTable(ass, n)
                for _ in range(6):
                    live = rng.randrange(1, 1 << len(ass)) if rng.random() < 0.7 else 1 << rng.randrange(len(ass))
                    units = _union_of([a for t, a in enumerate(ass) if live >> t & 1])
                    union = sum(u << n * j for j, u in enumerate(units)) | 1 << n * len(units)
                    one = sum(((1 << n) - 1) << n * j for j, u in enumerate(units) if u.bit_count() == 1)
                    assert table.union(live) == (union, one)
                    seen += 1
    assert seen


@pytest.mark.parametrize("n", [3, 4, 5, 7, 9])
def test_a_digits_line_singles_are_those_line_places_finds(n):
    houses = _bitboards(geometry(n))[0]
    rng = random.Random(n)
    for _ in range(400):
        x = rng.getrandbits(n * n) & rng.getrandbits(n * n) if rng.random() < 0.5 else rng.getrandbits(n * n)
        assert _line_singles(houses, x) == line_places(houses, x)[0]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_line_singles_two_rows_at_a_time_are_the_house_by_house_ones(n):
    """``_latin_line_singles`` (the rows read two at a time off ``_pair_rows``' table, the
    columns tallied) against ``_line_singles`` over the houses, on every digit's open cells
    at 2x2 and 3x3 and on random ones (sparse and dense) at 4x4 and 5x5."""
    houses, parts = _pair_rows(n)
    assert houses == _bitboards(geometry(n))[0]
    rng = random.Random(n)
    xs = range(1 << n * n) if n <= 3 else [
        rng.getrandbits(n * n) & rng.getrandbits(n * n) & (rng.getrandbits(n * n) if k % 3 else -1)
        for k in range(3000)]
    for x in xs:
        assert _latin_line_singles(x, parts) == _line_singles(houses, x)
