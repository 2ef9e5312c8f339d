"""The binary-grid engine: patterns, techniques on hand-made positions,
exact counting against brute force, generation."""

from __future__ import annotations

import functools
import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st
from conftest import examples

from bookgen.core.difficulty import Level
from bookgen.core.types import Edge, Grade, Puzzle
from bookgen.core.bits import scan_forward
from bookgen.solve.binary import (
    SHORT_LINE, TECHNIQUE_LEVEL, BinaryEngine, Board, Contradiction, grid_table, line_patterns, random_solution,
)
from bookgen.variants.takuzu import TAKUZU
from bookgen.variants.tango import TANGO


def _pad(rows, n):
    return list(rows) + ["." * n] * (n - len(rows))


@pytest.mark.parametrize("n,run,count", [(4, 2, 6), (6, 2, 14), (8, 2, 34), (14, 2, 518), (8, 3, 62)])
def test_line_patterns_counts(n, run, count):
    pats = line_patterns(n, run)
    assert len(pats) == count
    for p in pats:
        bits = format(p, f"0{n}b")
        assert bits.count("1") * 2 == n and "0" * (run + 1) not in bits and "1" * (run + 1) not in bits


# ----- each technique on a hand-made position ---------------------------------------------
def _find(engine, rows, technique, edges=()):
    board = Board.from_rows(_pad(rows, engine.n), edges)
    return engine._find(board, technique)


def _cells(engine, found):
    out = {}
    for v, mask in ((1, found.ones), (0, found.zeros)):
        for j in range(engine.n):
            if (mask >> j) & 1:
                out[j] = v
    return out


def test_pair():
    e = BinaryEngine(6, 2, True)
    found = _find(e, [".11..."], "pair")
    assert found.line == 0 and _cells(e, found) == {0: 0, 3: 0}


def test_sandwich():
    e = BinaryEngine(6, 2, True)
    found = _find(e, ["0.0..."], "sandwich")
    assert _cells(e, found) == {1: 1}
    assert _find(e, ["0.0..."], "pair") is None


def test_balance():
    e = BinaryEngine(6, 2, True)
    found = _find(e, ["101.1."], "balance")
    assert _cells(e, found) == {3: 0, 5: 0}


def test_sign_local():
    e = BinaryEngine(6, 2, False)
    found = _find(e, ["1....."], "sign", [Edge((0, 0), (0, 1), "x")])
    assert _cells(e, found) == {1: 0}
    found = _find(e, ["1....."], "sign", [Edge((0, 0), (1, 0), "=")])
    assert found.line == 6 and _cells(e, found) == {1: 1}  # column 1, row 2


def test_short_line_needs_enumeration():
    e = BinaryEngine(6, 2, True)
    rows = ["0...0."]
    for local in ("pair", "sandwich", "balance"):
        assert _find(e, rows, local) is None
    found = _find(e, rows, "line")
    assert found.line == 0 and _cells(e, found) == {5: 1}


def test_long_line_is_hard():
    e = BinaryEngine(8, 2, False)
    rows = ["0..0...0"]
    assert _find(e, rows, "line") is None  # five empty cells: not a "short" line
    found = _find(e, rows, "long_line")
    assert _cells(e, found) == {1: 1, 2: 1}


def test_distinct_lines():
    e = BinaryEngine(6, 2, True)
    rows = ["010011", "010.1."]
    assert _find(e, rows, "line").line != 1  # plain reasoning leaves row 2 open
    found = _find(e, rows, "distinct")
    assert found.line == 1 and _cells(e, found) == {3: 1, 5: 0}


def test_signs_inside_line_reasoning():
    e = BinaryEngine(6, 2, False)
    # 1 a a b b x: balance gives 2a + 2b + x = 2, and a = 1 would make 111,
    # so the sign chain fixes the whole row to 1 0 0 1 1 0.
    edges = [Edge((0, 1), (0, 2), "="), Edge((0, 3), (0, 4), "=")]
    board = Board.from_rows(_pad(["1....."], 6), edges)
    assert e.deduce(board, 0, Level.MEDIUM) == (0, 0)  # five empty cells: beyond medium
    ones, zeros = e.deduce(board, 0, Level.HARD)
    assert ones == 0b011000 and zeros == 0b100110


def test_trial_is_expert_and_not_nested():
    rng = random.Random(3)
    puzzle = TAKUZU.generate(8, {}, Level.EXPERT, rng)
    engine = TAKUZU.engine(8, puzzle.rules)
    lower = [t for t in TAKUZU.ladder_techniques(puzzle.rules) if t != "trial"]
    _, solved = engine.ladder(Board.from_rows(puzzle.givens), lower)
    assert not solved  # the tiers below expert get stuck
    steps, solved = engine.ladder(Board.from_rows(puzzle.givens), TAKUZU.ladder_techniques(puzzle.rules))
    assert solved and any(s.technique == "trial" for s in steps)


def test_contradictions_are_detected():
    e = BinaryEngine(6, 2, True)
    with pytest.raises(Contradiction):
        e.closure(Board.from_rows(_pad(["111..."], 6)), Level.EASY)
    with pytest.raises(Contradiction):
        e.closure(Board.from_rows(_pad(["1.1.1.", "0.0.0.", ".1.1.1"], 6)), Level.HARD)


@pytest.mark.parametrize("n,run,unique", [(6, 2, False), (6, 2, True), (8, 3, False), (8, 2, True)])
def test_closure_reaches_the_fixpoint_of_line_by_line_deduction(n, run, unique):
    """The closure (memoised answers, a bit-set queue) ends where ``deduce`` line by line from
    a stack ends, or both find a contradiction: the order does not change the fixpoint."""
    rng = random.Random(n * 10 + run + unique)
    engine = BinaryEngine(n, run, unique)
    solution = random_solution(engine, rng)
    pairs = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
    outcomes = set()
    for _ in range(40):
        edges = [Edge(a, b, "=" if solution.get(*a) == solution.get(*b) else "x")
                 for a, b in rng.sample(pairs, n)]
        board = Board.from_rows(["." * n] * n, edges)
        for r, c in rng.sample([(r, c) for r in range(n) for c in range(n)], n * n // 3):
            board.assign(r, c, solution.get(r, c))
        r, c = rng.randrange(n), rng.randrange(n)  # a trial: maybe the wrong symbol
        board.clear(r, c)
        board.assign(r, c, rng.randrange(2))
        fast, slow = board.copy(), board.copy()
        try:
            engine.closure(fast, Level.HARD, start=(r, n + c))
            got = fast.rows()
        except Contradiction:
            got = None
        try:
            engine._stack_closure(slow, (r, n + c))
            want = slow.rows()
        except Contradiction:
            want = None
        assert got == want
        outcomes.add(got is None)
    assert outcomes == {True, False}  # both kinds of trial were met


@pytest.mark.parametrize("n", [6, 8])
def test_a_line_its_own_answer_finished_needs_no_second_look(n):
    """With distinct lines at the hard tier, ``_propagate_distinct`` does not pop a line its own
    answer finished; the plain path (``own_check=True``) pops it for a second check. Same verdict,
    same board, same early exit at a target, on trials right and wrong."""
    rng = random.Random(n)
    engine = BinaryEngine(n, 2, True)
    solution = random_solution(engine, rng)
    every = (1 << 2 * n) - 1
    outcomes = set()
    for _ in range(60):
        board = Board.from_rows(["." * n] * n)
        for r, c in rng.sample([(r, c) for r in range(n) for c in range(n)], rng.randrange(n, n * n // 2)):
            board.assign(r, c, solution.get(r, c))
        r, c = rng.randrange(n), rng.randrange(n)  # a trial: maybe the wrong symbol
        board.clear(r, c)
        board.assign(r, c, rng.randrange(2))
        target = rng.choice([None, (rng.randrange(n), rng.randrange(n))])
        got = []
        for own_check in (False, True):
            trial = board.copy()
            try:
                left = engine._propagate_distinct(trial, int(Level.HARD), every, target,
                                                   own_check=own_check)
                got.append((left >= 0, trial.rows() if target is None else None))
            except Contradiction:
                got.append(None)
        assert got[0] == got[1]
        outcomes.add(got[0] is None)
    assert outcomes == {True, False}


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from([(6, 2), (8, 2), (8, 3), (10, 2)]), st.data())
def test_fast_line_answers_agree_with_the_listing_ones(shape, data):
    """The closure's shortcuts for a line state (the pattern bit sets, the local rules as one
    function) give what listing the completions and the techniques one by one give."""
    n, run = shape
    e = BinaryEngine(n, run, False)
    known = data.draw(st.integers(0, (1 << n) - 1))
    value = data.draw(st.integers(0, (1 << n) - 1)) & known
    eq = data.draw(st.integers(0, (1 << (n - 1)) - 1))
    neq = data.draw(st.integers(0, (1 << (n - 1)) - 1)) & ~eq
    cands, a, o = e.line_options(known, value, eq, neq)
    both = BinaryEngine(n, run, False).line_masks(known, value, eq, neq)  # a fresh memo: computed, not copied
    if cands:
        assert both == a << n | o
    else:
        assert (both >> n) & ~both  # "no completion": AND beyond OR
    if run == 2:
        board = Board(n)
        board.known[0], board.value[0], board.eq[0], board.neq[0] = known, value, eq, neq
        try:
            f1, f0 = e._local(board, 0)
            want = None if f1 & f0 else f1 << n | f0
        except Contradiction:
            want = None
        assert e._local_answer(known, value, eq, neq) == want


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from([(6, 2), (8, 2), (8, 3), (10, 2)]), st.data())
def test_line_masks_without_a_copy_is_the_listing_without_it(shape, data):
    """``line_masks_without`` (the closure's answer for a line that could copy one finished
    parallel line) gives the AND and OR of ``line_options``' completions other than that line."""
    n, run = shape
    e = BinaryEngine(n, run, True)
    patterns = line_patterns(n, run)
    copy = data.draw(st.sampled_from(patterns + (0,)))  # 0: no valid line, rules nothing out
    known, value, eq, neq = _draw_line(data, n)
    if data.draw(st.booleans()):  # the copy fits the cells and signs: it is one of the completions
        differ = (copy ^ copy >> 1) & ((1 << (n - 1)) - 1)
        value, eq, neq = copy & known, eq & ~differ, neq & differ
    cands = [p for p in e.line_options(known, value, eq, neq)[0] if p != copy]
    a, o = (1 << n) - 1, 0
    for p in cands:
        a &= p
        o |= p
    assert e.line_masks_without(known, value, eq, neq, copy) == a << n | o


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from([(6, 2), (8, 2), (8, 3), (10, 2)]), st.integers(0, 2), st.data())
def test_line_answer_is_deduce_on_one_line(shape, tier, data):
    """``_line_answer`` (the generator's shortcut for one line, from masks) gives what ``deduce``
    gives on a board holding only that line, or None where ``deduce`` finds a rule broken; and
    ``line_options`` lists exactly the valid lines that agree with the cells and keep the signs."""
    n, run = shape
    e = BinaryEngine(n, run, False)
    known = data.draw(st.integers(0, (1 << n) - 2))  # not full: a full line is never asked
    value = data.draw(st.integers(0, (1 << n) - 1)) & known
    eq = data.draw(st.integers(0, (1 << (n - 1)) - 1))
    neq = data.draw(st.integers(0, (1 << (n - 1)) - 1)) & ~eq
    if known == (1 << n) - 1:
        return
    board = Board(n)
    board.known[0], board.value[0], board.eq[0], board.neq[0] = known, value, eq, neq
    try:
        ones, zeros = e.deduce(board, 0, Level(tier))
        want = None if ones & zeros else ones << n | zeros
    except Contradiction:
        want = None
    assert e._line_answer(tier, known, value, eq, neq) == want
    listed = [p for p in line_patterns(n, run) if not (p ^ value) & known
              and all(((p >> j & 1) == (p >> j + 1 & 1)) == bool(eq >> j & 1) for j in range(n - 1)
                      if (eq | neq) >> j & 1)]
    assert list(e.line_options(known, value, eq, neq)[0]) == listed


def _draw_line(data, n):
    """A line state that is not full, and signs on it: (known, value, eq, neq)."""
    known = data.draw(st.integers(0, (1 << n) - 2))
    value = data.draw(st.integers(0, (1 << n) - 1)) & known
    eq = data.draw(st.integers(0, (1 << (n - 1)) - 1))
    neq = data.draw(st.integers(0, (1 << (n - 1)) - 1)) & ~eq
    return known, value, eq, neq


def _deduce_until_still(engine, board, line_or_lines, level):
    """The plain fixpoint: ``deduce`` on each line in turn, its news written cell by cell, until
    none fixes anything (raises ``Contradiction`` where ``deduce`` does)."""
    n = engine.n
    lines = line_or_lines if isinstance(line_or_lines, list) else [line_or_lines]
    changed = True
    while changed:
        changed = False
        for line in lines:
            ones, zeros = engine.deduce(board, line, level)
            if ones & zeros:
                raise Contradiction("both symbols")
            for v, mask in ((1, ones), (0, zeros)):
                for j in range(n):
                    if mask >> j & 1:
                        changed = True
                        if len(lines) == 1:
                            board.known[line] |= 1 << j
                            board.value[line] |= v << j
                        else:
                            board.assign(*((line, j) if line < n else (j, line - n)), v)


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from([(6, 2), (8, 2), (8, 3), (10, 2)]), st.integers(0, 1), st.data())
def test_line_fixpoint_is_deduce_repeated(shape, tier, data):
    """``_line_fixpoint`` (what the closure stores below the hard tier without distinct lines) is
    ``deduce`` on a board holding only the line, repeated until it fixes nothing; None where a step
    breaks a rule, or the line it fills up is not a valid one."""
    n, run = shape
    e = BinaryEngine(n, run, False)
    known, value, eq, neq = _draw_line(data, n)
    board = Board(n)
    board.known[0], board.value[0], board.eq[0], board.neq[0] = known, value, eq, neq
    try:
        _deduce_until_still(e, board, 0, Level(tier))
        news = board.known[0] & ~known
        want = (board.value[0] & news) << n | news & ~board.value[0]
    except Contradiction:
        want = None
    assert e._line_fixpoint(tier, known, value, eq, neq) == want


@settings(max_examples=examples(80), deadline=None)
@given(st.sampled_from([6, 8, 10]), st.integers(0, 1), st.data())
def test_easy_fixpoint_is_line_answer_repeated(n, tier, data):
    """``_easy_fixpoint`` (the line fixpoint below the hard tier in one loop) is ``_line_answer``
    applied to its own news until it fixes nothing: None where a step breaks a rule or the line
    it fills is not a valid one that keeps its signs."""
    e = BinaryEngine(n, 2, False)
    known, value, eq, neq = _draw_line(data, n)
    k, v, want = known, value, 0
    while True:
        hit = e._line_answer(tier, k, v, eq, neq)
        if hit is None:
            want = None
            break
        if not hit:
            break
        want |= hit
        v |= hit >> n
        k |= hit >> n | hit & e.full
        if k == e.full:
            differ = v ^ v >> 1
            if v not in line_patterns(n, 2) or eq & differ or neq & ~differ:
                want = None
            break
    assert e._easy_fixpoint(known, value, eq, neq, SHORT_LINE if tier else 0) == want


@pytest.mark.parametrize("n,run,unique", [(6, 2, False), (8, 3, False), (8, 2, True)])
def test_finished_line_check_is_deduce(n, run, unique):
    """``_check_finished`` (a finished line's rules by a set lookup and two masks) raises where
    ``deduce`` on that line raises, and only there: broken runs, balance, signs, copied lines."""
    e = BinaryEngine(n, run, unique)
    rng = random.Random(n * 10 + run + unique)
    valid = line_patterns(n, run)
    outcomes = set()
    for _ in range(300):
        board = Board(n)
        for line in range(n):  # finished rows: valid ones, a copy, or any mask
            board.known[line] = e.full
            board.value[line] = rng.choice(valid) if rng.random() < 0.7 else rng.randrange(1 << n)
        board.eq[0] = rng.randrange(1 << (n - 1)) & rng.randrange(1 << (n - 1))
        board.neq[0] = rng.randrange(1 << (n - 1)) & rng.randrange(1 << (n - 1)) & ~board.eq[0]
        holds = _holds(e._check_finished, board)
        assert holds == _holds(e.deduce, board)
        outcomes.add(holds)
    assert outcomes == {True, False}


def _holds(check, board) -> bool:
    """Whether ``check`` passes row 0 of ``board`` at the hard tier (no ``Contradiction``)."""
    try:
        check(board, 0, Level.HARD)
    except Contradiction:
        return False
    return True


@pytest.mark.parametrize("n,run", [(6, 2), (8, 3)])
def test_closure_below_hard_is_the_fixpoint_of_deduce(n, run):
    """Without distinct lines the closure below the hard tier (which stores each line's own
    fixpoint and queues only crossing lines) reaches what ``deduce`` line after line reaches,
    or raises where it does: on boards carved from a solution and on boards with a given wrong."""
    rng = random.Random(n * 10 + run)
    engine = BinaryEngine(n, run, False)
    pairs = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
    outcomes = set()
    for k in range(24):
        solution = random_solution(engine, rng)
        edges = [Edge(a, b, "=" if solution.get(*a) == solution.get(*b) else "x") for a, b in rng.sample(pairs, n)]
        board = Board.from_rows(["." * n] * n, edges)
        cells = rng.sample([(r, c) for r in range(n) for c in range(n)], n * n // 3)
        for r, c in cells:
            board.assign(r, c, solution.get(r, c) ^ (k % 3 == 0 and (r, c) == cells[0]))
        for level in (Level.EASY, Level.MEDIUM):
            fast, slow = board.copy(), board.copy()
            try:
                engine.closure(fast, level)
                got = fast.rows()
            except Contradiction:
                got = None
            try:
                _deduce_until_still(engine, slow, list(range(2 * n)), level)
                want = slow.rows()
            except Contradiction:
                want = None
            assert got == want
            outcomes.add(got is None)
    assert outcomes == {True, False}


@pytest.mark.parametrize("variant,size", [(TANGO, 6), (TAKUZU, 6), (TAKUZU, 8)])
def test_graded_ladder_takes_the_explained_ladders_steps(variant, size):
    """The grader's ladder (``explain=False``, ``_graded``) takes the steps the explained one
    takes, technique by technique, trials on the same cells, to the same grid; also where a
    ladder cut short (easy techniques only) gets stuck."""
    rules = variant.parse_rules({}, size)
    engine = variant.engine(size, rules)
    full = variant.ladder_techniques(rules)
    rng = random.Random(size)
    met = set()
    for level in Level:
        if variant.check_request(size, rules, level):
            continue
        puzzle = variant.generate(size, rules, level, rng)
        for techniques in (full, full[:3]):
            runs = []
            for explain in (True, False):
                board = Board.from_rows(puzzle.givens, puzzle.edges)
                steps, solved = engine.ladder(board, techniques, explain=explain)
                runs.append(([s.technique for s in steps], [s.cells for s in steps if s.technique == "trial"],
                             solved, board.rows()))
                met.update(runs[-1][0])
                met.add(solved)
            assert runs[0] == runs[1]
    assert {True, False, "pair", "trial"} <= met


@pytest.mark.parametrize("n,run,unique,signs", [(6, 2, False, True), (8, 2, True, False), (8, 3, False, True)])
def test_own_line_shortcuts_agree_with_the_closure(n, run, unique, signs):
    """The generator's shortcuts give the closure's verdicts: ``forced_by_own_lines`` says True
    only where ``closure(target=cell)`` fills the emptied cell, and ``settles_ends`` says what
    ``closure`` says about a board with a sign taken away."""
    rng = random.Random(n * 100 + run * 10 + unique)
    engine = BinaryEngine(n, run, unique)
    pairs = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
    verdicts, settled = set(), set()
    for _ in range(30):
        solution = random_solution(engine, rng)
        edges = [Edge(a, b, "=" if solution.get(*a) == solution.get(*b) else "x")
                 for a, b in rng.sample(pairs, n)] if signs else []
        board = Board.from_rows(["." * n] * n, edges)
        for r, c in rng.sample([(r, c) for r in range(n) for c in range(n)], n * n // 2):
            board.assign(r, c, solution.get(r, c))
        for level in (Level.EASY, Level.MEDIUM, Level.HARD):
            for r, c in [(r, c) for r in range(n) for c in range(n) if board.get(r, c) >= 0][:8]:
                emptied = board.copy()
                emptied.clear(r, c)
                fast = engine.forced_by_own_lines(emptied, (r, c), level)
                closed = emptied.copy()
                slow = engine.closure(closed, level, target=(r, c)) and closed.get(r, c) >= 0
                assert slow or not fast
                verdicts.add(fast)
            if not engine.closure(board.copy(), level):
                continue  # settles_ends is asked about boards the level solves with the sign
            for edge in edges[:3]:
                without = board.copy()
                without.remove_edge(edge)
                want = engine.closure(without.copy(), level)
                assert engine.settles_ends(without, level, edge) == want
                settled.add(want)
    assert verdicts == {True, False}
    assert not signs or settled == {True, False}



def test_take_signs_is_remove_edge():
    """A board taking the signs of a copy that lost a sign (and was closed since) holds what
    ``remove_edge`` gives it: the same signs, and per tier the same line tables."""
    n = 6
    rng = random.Random(6)
    engine = BinaryEngine(n, 2, False)
    solution = random_solution(engine, rng)
    cells = [(r, c) for r in range(n) for c in range(n)]
    edges = [Edge(a, b, "=" if solution.get(*a) == solution.get(*b) else "x")
             for a, b in (((0, 0), (0, 1)), ((2, 3), (3, 3)), ((4, 4), (4, 5)))]
    board = Board.from_rows(["." * n] * n, edges)
    for r, c in rng.sample(cells, 14):
        board.assign(r, c, solution.get(r, c))
    engine.closure(board.copy(), Level.EASY)  # the board meets the easy tier's tables
    for edge in edges:
        trial = board.copy()
        trial.remove_edge(edge)
        engine.closure(trial, Level.HARD)  # the copy meets a tier more, and changes its cells
        fast, plain = board.copy(), board.copy()
        fast.take_signs(trial)
        plain.remove_edge(edge)
        assert (fast.eq, fast.neq, fast.known, fast.value) == (plain.eq, plain.neq, board.known, board.value)
        for key, tables in plain.memos.items():
            assert all(a is b for a, b in zip(fast.memos[key], tables, strict=True))
        board = plain
# ----- exact counting against brute force --------------------------------------------------
def _lines(n, max_run):
    """Every balanced line without a run longer than ``max_run``, straight from the rules."""
    out = []
    for bits in itertools.product("01", repeat=n):
        line = "".join(bits)
        if line.count("1") * 2 == n and "0" * (max_run + 1) not in line and "1" * (max_run + 1) not in line:
            out.append(line)
    return out


@functools.lru_cache(maxsize=None)  # the brute-force checks below ask for the 6x6 listing again and again
def _all_grids(n, max_run, unique):
    """Every full grid: rows from ``_lines``, each column checked as it grows (no engine code);
    with ``unique``, those of them whose rows are all different and whose columns are too.
    ``test_brute_force_knows_the_6x6_counts`` checks the known counts at 6x6 (11,222; 4,140
    with distinct lines)."""
    if unique:
        return tuple(rows for rows in _all_grids(n, max_run, False)
                     if len(set(rows)) == n and len(set(zip(*rows))) == n)
    lines = _lines(n, max_run)
    half, run, full = n // 2, max_run + 1, (1 << n) - 1
    # Each line as a bit set (bit c: a 1 in column c), and as counters of four bits, one a
    # column, that add up each column's 1s as rows are stacked (at most 7 + n/2 < 16 a counter:
    # no carry from one column into the next). The checks are the rules on every column.
    ones = [sum(1 << c for c, ch in enumerate(line) if ch == "1") for line in lines]
    counters = [sum(1 << 4 * c for c, ch in enumerate(line) if ch == "1") for line in lines]
    each = sum(1 << 4 * c for c in range(n))  # 1 in every counter
    high = 8 * each  # every counter's top bit
    out = []

    def extend(rows, masks, count):
        if len(rows) == n:  # every column is full: balanced, as no column went past half of either digit
            out.append(tuple(rows))
            return
        at_least = len(rows) + 1 - half  # 1s a column needs, so as not to hold more than half 0s
        last = masks[len(masks) + 1 - run:] if len(masks) + 1 >= run else None
        for line, m, add in zip(lines, ones, counters):
            if last is not None:  # a run too long: the same digit in this row and the run - 1 above
                same1, same0 = m, ~m & full
                for above in last:
                    same1 &= above
                    same0 &= ~above
                if same1 or same0:
                    continue
            grown = count + add
            if (grown + (7 - half) * each) & high:  # a column with more than half 1s
                continue
            if at_least > 0 and (grown + (8 - at_least) * each) & high != high:  # more than half 0s
                continue
            extend(rows + [line], masks + [m], grown)

    extend([], [], 0)
    return tuple(out)


def _brute(n, max_run, unique, givens, edges=()):
    # the lines each row may be: those that agree with the row's givens
    fits = [frozenset(line for line in _lines(n, max_run) if all(g in (".", ch) for g, ch in zip(row, line)))
            for row in givens]
    out = []
    for rows in _all_grids(n, max_run, unique):
        if not all(map(frozenset.__contains__, fits, rows)):
            continue
        if any((rows[a[0]][a[1]] == rows[b[0]][b[1]]) != (s == "=") for a, b, s in edges):
            continue
        out.append(rows)
    return sorted(out)


@pytest.mark.parametrize("unique", [False, True])
def test_sat_count_matches_brute_force_on_empty_4x4(unique):
    e = BinaryEngine(4, 2, unique)
    found = e.sat_solutions(["...."] * 4, limit=1000)
    assert sorted(found) == _brute(4, 2, unique, ["...."] * 4)
    assert len(found) == (72 if unique else 90)


def test_brute_force_knows_the_6x6_counts():
    # 6x6 grids, balanced with no three in a row: 11,222; with distinct lines too: 4,140
    assert len(_all_grids(6, 2, False)) == 11222
    assert len(_all_grids(6, 2, True)) == 4140


@settings(max_examples=examples(30), deadline=None)
@given(st.data())
def test_sat_agrees_with_brute_force_on_random_grids(data):
    n = data.draw(st.sampled_from([4, 6]), label="size")
    unique = data.draw(st.booleans(), label="unique")
    cells = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from("01")),
                               max_size=2 * n), label="givens")
    grid = [["."] * n for _ in range(n)]
    for r, c, v in cells:
        grid[r][c] = v
    givens = ["".join(row) for row in grid]
    edge_list = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 2), st.booleans(),
                                             st.sampled_from("=x")), max_size=n), label="edges")
    edges = []
    for r, c, vertical, sign in edge_list:
        a, b = ((c, r), (c + 1, r)) if vertical else ((r, c), (r, c + 1))
        edges.append((a, b, sign))
    limit = 200
    found = BinaryEngine(n, 2, unique).sat_solutions(givens, [Edge(a, b, s) for a, b, s in edges], limit=limit)
    expected = _brute(n, 2, unique, givens, edges)
    assert len(found) == len(set(found)) == min(limit, len(expected))
    assert set(found) <= set(expected)


@settings(max_examples=examples(10), deadline=None)  # (20 before: bench/sweep_suite.py)
@given(st.data())
def test_incremental_uniqueness_proof_agrees_with_brute_force(data):
    # One engine answers many calls in a row: nothing one call assumes may leak into the next.
    engine = ENGINE_6
    for _ in range(3):
        solutions = _all_grids(6, 2, False)  # (an index drawn: sampled_from labels all 11,222 on every call)
        solution = solutions[data.draw(st.integers(0, len(solutions) - 1), label="solution")]
        keep = data.draw(st.lists(st.booleans(), min_size=36, max_size=36), label="keep")
        givens = ["".join(ch if keep[r * 6 + c] else "." for c, ch in enumerate(row))
                  for r, row in enumerate(solution)]
        picks = data.draw(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 4), st.booleans()),
                                   max_size=4), label="edges")
        edges = []
        for r, c, vertical in picks:
            a, b = ((c, r), (c + 1, r)) if vertical else ((r, c), (r, c + 1))
            edges.append(Edge(a, b, "=" if solution[a[0]][a[1]] == solution[b[0]][b[1]] else "x"))
        expected = _brute(6, 2, False, givens, [(e.a, e.b, e.sign) for e in edges])
        # 6x6 proves by counting over every grid (``_table_proves_unique``): the SAT proof it
        # stands for must give the same verdict (``test_table_proof_is_the_sat_proof``).
        for proof in (engine.proves_unique, engine._sat_proves_unique):
            assert proof(givens, edges, solution) == (expected == [tuple(solution)])
            wrong = [row.replace("0", "2").replace("1", "0").replace("2", "1") for row in solution]
            assert not proof(givens, edges, wrong)


ENGINE_6 = BinaryEngine(6, 2, False)


@pytest.mark.parametrize("unique", [False, True])
def test_table_proof_is_the_sat_proof(unique):
    # The count over every listed grid (4x4 and 6x6) against the SAT proof, its plain version:
    # unique and ambiguous clue sets, a wrong sign, grids that break a rule, rows of a bad shape.
    engine, rng = BinaryEngine(4, 2, unique), random.Random(7)
    table = _all_grids(4, 2, unique)
    verdicts = set()
    for _ in range(150):
        solution = list(rng.choice(table))
        if rng.random() < 0.15:  # a grid that is not a solution: mirrored rows, or one row reversed
            solution = [row[::-1] for row in solution] if rng.random() < 0.5 else solution[:1][::-1] + solution[1:]
        keep = rng.random()
        givens = ["".join(ch if rng.random() < keep else "." for ch in row) for row in solution]
        edges = []
        for _ in range(rng.randrange(5)):
            r, c = rng.randrange(4), rng.randrange(3)
            a, b = ((r, c), (r, c + 1)) if rng.random() < 0.5 else ((c, r), (c + 1, r))
            same = (solution[a[0]][a[1]] == solution[b[0]][b[1]]) != (rng.random() < 0.05)
            edges.append(Edge(a, b, "=" if same else "x"))
        verdict = engine._table_proves_unique(givens, edges, solution)
        assert verdict == engine._sat_proves_unique(givens, edges, solution)
        verdicts.add(verdict)
    assert verdicts == {True, False}
    assert not engine._table_proves_unique(("...", ".....", "....", "...."), [], table[0])
    assert not engine._table_proves_unique(("0..2", "....", "....", "...."), [], table[0])


def test_sat_on_6x6_agrees_with_brute_force_for_a_generated_puzzle():
    p = TAKUZU.generate(6, {}, Level.MEDIUM, random.Random(8))
    assert TAKUZU.solutions(p, 5) == _brute(6, 2, True, p.givens) == [p.solution]


# ----- full grids and generation ------------------------------------------------------------
@pytest.mark.parametrize("n,run,unique", [(6, 2, True), (10, 2, True), (14, 2, True), (12, 3, False)])
def test_random_solution_is_valid(n, run, unique):
    e = BinaryEngine(n, run, unique)
    board = random_solution(e, random.Random(n))
    rows = board.rows()
    puzzle = Puzzle("takuzu", n, {"max_run": run, "unique_lines": unique}, rows, rows)
    assert TAKUZU.validate(puzzle) == []


def _valid_grid(rows, run, unique):
    n = len(rows)
    cols = ["".join(r[c] for r in rows) for c in range(n)]
    lines = list(rows) + cols
    ok = all(line.count("1") == n // 2 and "0" * (run + 1) not in line and "1" * (run + 1) not in line
             for line in lines)
    return ok and (not unique or (len(set(rows)) == n and len(set(cols)) == n))


@functools.lru_cache(maxsize=None)
def _balanced_4x4_fillings():
    """Of the 65,536 fillings of a 4x4 grid, those whose rows each hold two 1s (the quick reject,
    the same for every rule set below): every choice of such a row for each of the four rows,
    1,296 of them, listed without going through the other 64,240."""
    two_ones = [row for row in ("".join(bits) for bits in itertools.product("01", repeat=4)) if row.count("1") == 2]
    return tuple(itertools.product(two_ones, repeat=4))


@pytest.mark.parametrize("run,unique", [(2, False), (2, True), (3, False)])
def test_grid_table_lists_every_valid_4x4_grid_once(run, unique):
    # Against every one of the 65,536 fillings of a 4x4 grid.
    brute = {rows for rows in _balanced_4x4_fillings() if _valid_grid(rows, run, unique)}
    table = grid_table(4, run, unique)
    listed = [tuple(format(row, "04b")[::-1] for row in grid) for grid in table]
    assert len(listed) == len(set(listed)) and set(listed) == brute


def test_grid_table_at_6x6_is_every_grid_and_distinct_lines_a_subset():
    plain, distinct = grid_table(6, 2, False), grid_table(6, 2, True)
    assert (len(plain), len(distinct)) == (11_222, 4_140)  # the known counts
    def text(grid):
        return tuple(format(row, "06b")[::-1] for row in grid)
    # against the brute-force listing the checks above share (made once per worker): the same
    # grids, none twice, and the distinct-lines table exactly those of them with distinct lines
    assert {text(g) for g in plain} == set(_all_grids(6, 2, False))
    assert {text(g) for g in distinct} == set(_all_grids(6, 2, True))


def test_small_grids_are_drawn_uniformly():
    # 90 grids at 4x4, 9,000 draws: about 100 each. A sampler that favours some
    # grids (drawing each row among those the columns allow does) falls outside.
    engine = BinaryEngine(4, 2, False)
    rng = random.Random(44)
    counts: dict[tuple[str, ...], int] = {}
    for _ in range(9_000):
        rows = random_solution(engine, rng).rows()
        counts[rows] = counts.get(rows, 0) + 1
    assert len(counts) == 90 and 60 <= min(counts.values()) and max(counts.values()) <= 140


@pytest.mark.parametrize("variant,size,level", [
    (TAKUZU, 10, Level.HARD), (TAKUZU, 8, Level.EXPERT), (TANGO, 8, Level.MEDIUM), (TANGO, 6, Level.EXPERT),
    (TANGO, 6, Level.EASY),
])
def test_generation_hits_level_and_is_unique(variant, size, level):
    p = variant.generate(size, {}, level, random.Random(size * 7 + level))
    assert p.grade.level == level
    assert variant.solutions(p, 2) == [p.solution]
    # The generator grades knowing the grid (trials of right symbols and the givens' check spared) on
    # the board it carved: the same grade as from the puzzle's text alone.
    assert variant.grade(p) == p.grade


def test_max_run_three():
    p = TAKUZU.generate(8, {"max_run": 3}, Level.MEDIUM, random.Random(2))
    assert p.rules["max_run"] == 3
    assert TAKUZU.validate(p) == [] and TAKUZU.solutions(p, 2) == [p.solution]


def test_tango_signs_only_what_is_needed():
    p = TANGO.generate(6, {}, Level.MEDIUM, random.Random(4))
    assert p.edges
    for edge in p.edges:
        rest = tuple(e for e in p.edges if e != edge)
        weaker = Puzzle("tango", 6, p.rules, p.givens, p.solution, edges=rest)
        # dropping any sign makes it either ambiguous or harder than medium
        g = TANGO.grade(weaker)
        assert not g.solved or g.level > Level.MEDIUM


def test_rules_validation():
    with pytest.raises(ValueError, match="max_run: 3"):
        TAKUZU.parse_rules({"max_run": 3}, 6)
    with pytest.raises(ValueError, match="unknown rule option"):
        TAKUZU.parse_rules({"maxrun": 2}, 6)
    with pytest.raises(ValueError, match="true or false"):
        TANGO.parse_rules({"unique_lines": "yes"}, 6)
    assert TANGO.parse_rules(None, 6) == {"max_run": 2, "unique_lines": False}
    assert TAKUZU.parse_rules(None, 6) == {"max_run": 2, "unique_lines": True}


def test_a_full_board_with_a_copied_row_or_column_is_a_contradiction():
    """However little is left to visit, a finished grid with two equal rows (or columns)
    breaks the distinct-lines rule, and one without keeps it."""
    plain, distinct = BinaryEngine(6, 2, False), BinaryEngine(6, 2, True)
    rng = random.Random(5)
    seen = set()
    while len(seen) < 3:
        board = random_solution(plain, rng)
        rows = board.rows()
        cols = tuple("".join(r[c] for r in rows) for c in range(6))
        kind = (len(set(rows)) < 6, len(set(cols)) < 6)
        if kind in seen or kind == (True, True):
            continue
        seen.add(kind)
        for start in ((), (0, 6), None):
            if any(kind):
                with pytest.raises(Contradiction):
                    distinct.closure(board.copy(), Level.HARD, start=start)
            else:
                assert distinct.closure(board.copy(), Level.HARD, start=start)


def test_memos_past_their_bounds_are_cleared_and_change_no_answer(monkeypatch):
    """Every memo is a plain dict bounded at ``_trim_memos`` checkpoints: with bounds of three
    entries the ladder and the closure (Takuzu and Tango) give the same answers, and after a
    checkpoint no memo holds more than its bound."""
    for variant, n in ((TAKUZU, 8), (TANGO, 6)):
        puzzle = variant.generate(n, variant.parse_rules({}, n), Level.HARD, random.Random(26))
        rules, techniques = puzzle.rules, variant.ladder_techniques(puzzle.rules)
        wide = BinaryEngine(n, rules["max_run"], rules["unique_lines"])
        with monkeypatch.context() as patch:
            for module in ("bookgen.solve.binary", "bookgen.solve.binary.ladder", "bookgen.solve.binary.closure"):
                for name in ("STATE_MEMO", "LINE_MEMO", "SIGN_LAYOUTS"):
                    patch.setattr(f"{module}.{name}", 3, raising=False)
            tight = BinaryEngine(n, rules["max_run"], rules["unique_lines"])
            for _ in range(2):  # the second round meets memos filled (and trimmed) by the first
                steps = [engine.ladder(Board.from_rows(puzzle.givens, puzzle.edges), techniques, explain=False)[0]
                         for engine in (wide, tight)]
                assert [s.technique for s in steps[0]] == [s.technique for s in steps[1]]
                assert tight.closure(Board.from_rows(puzzle.givens, puzzle.edges), Level.HARD)
            tight._trim_memos()
            assert all(len(memo) <= 3 for _, memos in tight._bounds.groups for memo in memos)


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from([TAKUZU, TANGO]), st.integers(4, 14),
       st.dictionaries(st.sampled_from(["pair", "sandwich", "balance", "sign", "line", "long_line",
                                        "distinct", "trial"]), st.integers(0, 40)), st.booleans())
def test_binary_rate_equals_rate_counts(variant, size, counts, solved):
    # The generator's rate (ratings looked up once per variant) against the plain one.
    level = max((TECHNIQUE_LEVEL[t] for t in counts), default=Level.EASY)
    grade = Grade(level, 0.5, counts, solved)
    puzzle = Puzzle(variant.name, size, {}, ("",) * size, ("",) * size)
    fast = variant.rate(puzzle, grade)
    assert fast == variant.rate_counts(grade, size * size)
    assert (fast.rating is not None) == solved


def test_is_solution_reads_columns():
    # The uniqueness proof's direct check reads the columns too (built with zip): rows that
    # all keep the rules, and a column that does not, is no solution.
    empty = ("....",) * 4
    assert BinaryEngine(4, 2, False)._is_solution(empty, [], ("0011", "1100", "0101", "1010"))
    assert not BinaryEngine(4, 2, False)._is_solution(empty, [], ("1100", "1010", "1001", "0011"))  # column 0: 1110
    twins = ("0011", "0011", "1100", "1100")  # columns 0011, 0011, 1100, 1100: valid, but repeated
    assert BinaryEngine(4, 2, False)._is_solution(empty, [], twins)
    assert not BinaryEngine(4, 2, True)._is_solution(empty, [], twins)
    # Givens rows of the wrong length: no proof (proves_unique numbers cells in a row-major join).
    assert not BinaryEngine(4, 2, False).proves_unique(("...", ".....", "....", "...."), [], twins)


@pytest.mark.parametrize("n, unique", [(4, False), (4, True), (6, True)])
def test_full_board_check_is_check_lines(n, unique):
    # The grader's last check of a filled grid against ``_check_lines``, its plain version:
    # grids that keep the rules, copy a line (from the list without distinct lines), have two
    # cells swapped or a row copied; signs kept and broken.
    engine, rng = BinaryEngine(n, 2, unique), random.Random(3)
    grids = grid_table(n, 2, False)
    verdicts = set()
    for _ in range(120):
        rows = [[str(mask >> c & 1) for c in range(n)] for mask in rng.choice(grids)]
        if rng.random() < 0.3:
            (r1, c1), (r2, c2) = [(rng.randrange(n), rng.randrange(n)) for _ in range(2)]
            rows[r1][c1], rows[r2][c2] = rows[r2][c2], rows[r1][c1]
        if rng.random() < 0.1:
            rows[1] = rows[0][:]
        edges = []
        for _ in range(rng.randrange(4)):
            r, c = rng.randrange(n), rng.randrange(n - 1)
            a, b = ((r, c), (r, c + 1)) if rng.random() < 0.5 else ((c, r), (c + 1, r))
            same = (rows[a[0]][a[1]] == rows[b[0]][b[1]]) != (rng.random() < 0.1)
            edges.append(Edge(a, b, "=" if same else "x"))
        board = Board.from_rows(["".join(row) for row in rows], edges)
        try:
            engine._check_lines(board)
            plain = True
        except Contradiction:
            plain = False
        assert engine._full_board_holds(board) == plain
        verdicts.add(plain)
    assert verdicts == {True, False}


@pytest.mark.parametrize("n, unique", [(4, False), (6, True)])
def test_second_grids_are_what_sat_and_the_closure_say(n, unique):
    # A carve's order of givens, then of signs, each clue kept or (where the board stays
    # unique) taken away at random: ``SecondGrids`` says "a second solution" exactly where
    # SAT does, and there the hard tier's closure never brings the clue back.
    engine, rng = BinaryEngine(n, 2, unique), random.Random(11)
    rows = rng.choice(grid_table(n, 2, unique))
    solution = Board(n, [engine.full] * 2 * n, [*rows, *[sum((rows[r] >> c & 1) << r for r in range(n)) for c in range(n)]])
    text = solution.rows()
    edges = []
    for a, b in rng.sample([((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
                           + [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)], 2 * n):
        edges.append(Edge(a, b, "=" if text[a[0]][a[1]] == text[b[0]][b[1]] else "x"))
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    second = engine.second_grids(solution, edges, cells)
    board = Board.from_rows(text, edges)
    seen = set()
    for i, (r, c) in enumerate(cells):
        trial = board.copy()
        trial.clear(r, c)
        two = not engine._sat_proves_unique(trial.rows(), edges, text)
        assert second.has_two(i, board) == two
        if two:
            assert not engine.closure(trial, Level.HARD, target=(r, c))
        seen.add(two)
        if not two and rng.random() < 0.7:
            board.clear(r, c)
        else:
            second.keep(i)
    rng.shuffle(edges)
    second.signs_pass(edges, board)
    signs = list(edges)
    for i, edge in enumerate(edges):
        rest = [e for e in signs if e != edge]
        two = not engine._sat_proves_unique(board.rows(), rest, text)
        assert second.has_two(i, board) == two
        if two:
            assert not engine.closure(Board.from_rows(board.rows(), rest), Level.HARD)
        seen.add(two)
        if not two and rng.random() < 0.7:
            signs = rest
        else:
            second.keep(i)
    assert seen == {True, False}


@pytest.mark.parametrize("unique, signs", [(True, 0), (False, 12)])
def test_two_line_swaps_are_second_solutions(unique, signs):
    # Grids too large to list (8x8): each rectangle ``TwoLineSwaps`` keeps, flipped, is another
    # solution that keeps every rule and sign; where it says a board without a given has a
    # second solution, SAT finds one and the hard tier's closure does not bring the given back.
    engine, rng = BinaryEngine(8, 2, unique), random.Random(5)
    solution = random_solution(engine, rng)
    text = solution.rows()
    pairs = [((r, c), (r, c + 1)) for r in range(8) for c in range(7)] + [((r, c), (r + 1, c)) for r in range(7) for c in range(8)]
    edges = [Edge(a, b, "=" if text[a[0]][a[1]] == text[b[0]][b[1]] else "x") for a, b in rng.sample(pairs, signs)]
    cells = [(r, c) for r in range(8) for c in range(8)]
    rng.shuffle(cells)
    swaps = engine.second_grids(solution, edges, cells)
    made = [swap for swap, _ in swaps._swaps]  # each the set of its cells, bit r * 8 + c
    assert made
    for swap in made:
        flipped = Board.from_rows(text)
        for cell in scan_forward(swap):
            r, c = divmod(cell, 8)
            flipped.clear(r, c)
            flipped.assign(r, c, 1 - solution.get(r, c))
        other = flipped.rows()
        on_signs = all(not (a in cells) != (b in cells) for cells in [{divmod(x, 8) for x in scan_forward(swap)}]
                       for a, b in ((e.a, e.b) for e in edges))
        assert other != text and engine._is_solution(("........",) * 8, edges if on_signs else (), other)
    board = Board.from_rows(text, edges)
    said = 0
    for i, (r, c) in enumerate(cells):  # a carve that keeps the board unique, as the generator's
        trial = board.copy()
        trial.clear(r, c)
        unique_without = engine._sat_proves_unique(trial.rows(), edges, text)
        if swaps.has_two(i, board):
            said += 1
            assert not unique_without
            assert not engine.closure(trial, Level.HARD, target=(r, c))
        if unique_without:
            board.clear(r, c)
        else:
            swaps.keep(i)
    assert said
    if edges:  # the signs' pass: a sign whose empty swap no other sign still on crosses
        rng.shuffle(edges)
        swaps.signs_pass(edges, board)
        signs, said = list(edges), 0
        for i, edge in enumerate(edges):
            rest = [e for e in signs if e != edge]
            unique_without = engine._sat_proves_unique(board.rows(), rest, text)
            if swaps.has_two(i, board):
                said += 1
                assert not unique_without
                assert not engine.closure(Board.from_rows(board.rows(), rest), Level.HARD)
            if unique_without:
                signs = rest
            else:
                swaps.keep(i)
        assert said
