"""KenKen's fast paths against their plain versions: the rated run with the techniques' probes
(``Tech.probe``) and without, each probe against its technique, the memos of ``_refresh`` and
``_last_mask`` against ``_refresh_plain`` and ``_last_mask_plain``, and the draft solver's cage
clauses, added in one call, against the clause-at-a-time loop they replaced."""

from __future__ import annotations

import random

import pytest
from conftest import examples

from bookgen.core.difficulty import Level
from bookgen.solve import arithmetic
from bookgen.solve.arithmetic import (
    LADDER, Board, DraftSolver, _last_mask, _last_mask_plain, _refresh, _refresh_plain, _refreshed,
)
from bookgen.solve.houses import Contradiction, Run, start
from bookgen.solve.latin import random_latin_square
from bookgen.solve.rated import rated_run
from bookgen.variants.kenken import _Layout

PROBED = [t for t in LADDER if t.probe is not None]


def _board(n: int, seed: int, level: Level = Level.HARD) -> tuple[Board, list[int]]:
    """A random caging of a random square (unique or not: the paths must agree either way)."""
    rng = random.Random(seed)
    square = random_latin_square(n, rng)
    rules = {"ops": ["+", "-", "*", "/"], "max_cage": 4 if n < 6 else 5, "show_ops": True, "singles": "few"}
    layout = _Layout(n, square, rules, level, rng)
    assert layout.tile()
    cages = layout.cage_list()
    return Board.build(n, [(c.cells, c.op, c.target) for c in cages]), [d for row in layout.square for d in row]


def _states(board: Board, flat: list[int], rng: random.Random, steps: int):
    """States a solve may pass through: from no givens, cells placed at their digit and candidates
    struck (never the square's own digit), one at a time."""
    n = board.n
    st = start(board.geo, [], board)
    for _ in range(steps):
        yield st
        open_cells = [i for i in range(n * n) if not st.placed[i]]
        if not open_cells:
            return
        i = rng.choice(open_cells)
        try:
            if rng.random() < 0.3:
                st.elim(i, ~(1 << (flat[i] - 1)))
                st.place(i)
            else:
                wrong = [d for d in range(1, n + 1) if d != flat[i] and st.cand[i] >> (d - 1) & 1]
                if wrong:
                    st.elim(i, 1 << (rng.choice(wrong) - 1))
        except Contradiction:  # pragma: no cover - the square's digits are never struck
            return


@pytest.mark.parametrize("n,level", [(4, "easy"), (5, "medium"), (5, "hard"), (6, "hard"), (7, "hard")])
def test_rated_run_with_probes_equals_the_plain_run(n, level):
    for seed in range(examples(3) if n < 7 else examples(2)):  # (6 and 3 before: bench/sweep_suite.py)
        board, _ = _board(n, seed, Level.parse(level))
        plain = rated_run(board.geo, [], board, probes=False)
        fresh, _ = _board(n, seed, Level.parse(level))  # (a board of its own: no memo shared)
        assert rated_run(fresh.geo, [], fresh) == plain


def test_a_probe_that_says_no_means_its_technique_finds_nothing():
    said = {True: 0, False: 0}
    for n, seed in ((5, 1), (6, 2), (7, 3)):
        board, flat = _board(n, seed)
        rng = random.Random(seed)
        for st in _states(board, flat, rng, 3 * n * n):
            for t in PROBED:
                trying = st.copy()
                try:
                    found = t.fn(board.geo, trying, Run())
                except Contradiction:
                    found = -1
                probe = t.probe(board.geo, st.copy())
                said[probe] += 1
                if not probe:
                    assert found == 0, t.name
    assert said[True] and said[False]


def test_refresh_and_last_mask_memos_equal_their_plain_versions():
    compared = 0
    for n, seed in ((5, 4), (6, 5), (7, 6)):
        board, flat = _board(n, seed)
        rng = random.Random(seed)
        kept = []
        for st in _states(board, flat, rng, 3 * n * n):
            kept.append(st.copy())
            # the state itself, and an earlier one seen again (the memo keyed by other live lists)
            for seen in (st, rng.choice(kept)):
                for k, idx in enumerate(board.cells):
                    if len(idx) < 2:
                        continue
                    a, b = seen.copy(), seen.copy()
                    _refreshed(board, a, k)  # (the memo, as a probe fills it: ``_refresh`` reads it then)
                    got = []
                    for state, fn in ((a, _refresh), (b, _refresh_plain)):
                        try:
                            got.append(list(fn(board, state, k)))
                        except Contradiction:
                            got.append(None)
                    assert got[0] == got[1]
                    assert (a.live[k], a.union[k], a.line_done[k]) == (b.live[k], b.union[k], b.line_done[k])
                    if sum(1 for i in idx if not seen.placed[i]) == 1:
                        assert _last_mask(board, seen, k) == _last_mask_plain(board, seen, k)
                    compared += 1
    assert compared > 500


def _plain_cage_clauses(ds: DraftSolver, act: int, cells, assigns) -> list[list[int]]:
    """The clause-at-a-time loop ``DraftSolver._write_cage`` replaced, recording what it added."""
    n, out = ds.n, []
    add = out.append
    if not assigns:
        return [[-act]]
    if len(cells) == 1:
        return [[-act] + [cells[0] * n + a[0] for a in assigns]]
    if len(cells) == 2:  # each digit of a cell needs a partner in the other
        for j, i in enumerate(cells[:1] if ds.lean else cells):
            other = cells[1 - j]
            for d in range(1, n + 1):
                add([-act, -(i * n + d), *[other * n + a[1 - j] for a in assigns if a[j] == d]])
        return out
    sels = [ds.fresh() for _ in assigns]
    add([-act, *sels])
    support: dict[int, list[int]] = {}
    for s, a in zip(sels, assigns):
        for i, d in zip(cells, a):
            v = i * n + d
            add([-s, v])
            if not ds.lean:
                support.setdefault(v, []).append(s)
    if not ds.lean:
        for i in cells:
            for d in range(1, n + 1):
                v = i * n + d
                add([-act, -v, *support.get(v, ())])
    return out


@pytest.mark.parametrize("lean", [False, True])
def test_cage_clauses_in_one_call_are_the_plain_loops(monkeypatch, lean):
    n = 6
    board, flat = _board(n, 7)
    fast, plain = DraftSolver(n, lean), DraftSolver(n, lean)
    written: list[list[int]] = []
    monkeypatch.setattr(arithmetic, "load", lambda solver, clauses: written.extend(clauses))
    fast.add = written.append  # (a single clause goes in through ``add``)
    try:
        for idx, assigns in [*zip(board.cells, board.assigns), ((0, 1, 2), ())]:
            written.clear()
            act = fast.fresh()
            assert plain.fresh() == act
            fast._write_cage(act, idx, assigns)
            assert [list(c) for c in written] == _plain_cage_clauses(plain, act, idx, assigns)
            assert fast.next_var == plain.next_var
    finally:
        fast.close()
        plain.close()


def test_cage_line_with_its_lines_kept_equals_the_plain_version():
    found = {0: 0, 1: 0}
    for n, seed in ((5, 4), (7, 6)):
        board, flat = _board(n, seed)
        rng = random.Random(seed)
        for step, st in enumerate(_states(board, flat, rng, 2 * n * n)):
            if step % 2:
                continue
            st = st.copy()
            try:  # the cages' assignments cut to the candidates, as the ladder has them by then
                while arithmetic.t_cage_combos(board.geo, st, Run()):
                    pass
            except Contradiction:
                continue
            fast, plain = st.copy(), st.copy()
            run_fast, run_plain = Run(explain=True), Run(explain=True)
            got = arithmetic.t_cage_line(board.geo, fast, run_fast)
            assert got == arithmetic.t_cage_line_plain(board.geo, plain, run_plain)
            assert (fast.cand, fast.line_done, str(run_fast.reason)) == (plain.cand, plain.line_done, str(run_plain.reason))
            found[got] += 1
    assert found[0] and found[1]
