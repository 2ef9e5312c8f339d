"""Skyscrapers: the clue techniques, the line-filling fast path against its plain version,
the SAT clauses against brute force, JSON, text, fingerprint and drawing."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import permutations

import pytest
from conftest import examples

from bookgen.book import check_puzzle, puzzle_json
from bookgen.core.difficulty import Level
from bookgen.core.pen import RecordingPen
from bookgen.core.rng import derive_seed, rng_for
from bookgen.core.symmetry import symmetries
from bookgen.core.text import PuzzleTextError
from bookgen.core.types import OutsideClues, Puzzle
from bookgen.puzzletext import parse_text
from bookgen.solve.houses import Contradiction, geometry, run_ladder, start
from bookgen.solve.latin import random_latin_square
from bookgen.solve.latin_sat import solutions
from bookgen.solve.sat import models
from bookgen.solve.skyscrapers import (
    clue_clauses, clue_literals, clues_of, extra_for, line_clauses, line_options, line_options_plain, seen,
    sight_clauses,
)
from bookgen.variants.registry import get_variant

SKY = get_variant("towers")


def _puzzle(level=Level.MEDIUM, n=5, index=0) -> Puzzle:
    return SKY.generate(n, {}, level, rng_for(derive_seed(7, n * 10 + int(level), index)))


def test_seen_counts_buildings_taller_than_all_before():
    assert seen([1, 2, 3, 4]) == 4 and seen([4, 1, 2, 3]) == 1 and seen([2, 1, 4, 3]) == 2


@pytest.mark.parametrize("n", [4, 5, 6])
def test_line_options_equal_the_plain_version(n):
    rng = random.Random(n)
    for _ in range(examples(400 if n < 6 else 200)):  # (400 at 6 too before: bench/sweep_suite.py)
        cands = tuple(rng.randrange(1, 1 << n) for _ in range(n))
        front, back = rng.randrange(n + 1), rng.randrange(n + 1)
        assert line_options(cands, front, back) == line_options_plain(cands, front, back), (cands, front, back)


def test_line_options_see_an_impossible_line():
    full = (1 << 4) - 1
    assert line_options((full,) * 4, 4, 4) is None  # 1234 seen 4 from the left is 1 from the right
    assert line_options((full,) * 4, 4, 1) == (1, 2, 4, 8)


def test_sight_clauses_count_what_brute_force_counts():
    n = 4
    geo = geometry(n)
    squares = [sq for sq in (list(p) for p in _latin_squares(n))]
    rng = random.Random(3)
    for _ in range(6):
        target = rng.choice(squares)
        clues = clues_of(target)
        for side in clues:  # keep about half of them
            clues[side] = tuple(c if rng.random() < 0.5 else 0 for c in clues[side])
        brute = sum(1 for sq in squares if all(not c or clues_of(sq)[side][k] == c
                                               for side in clues for k, c in enumerate(clues[side])))
        found = solutions(geo, [], 1000, sight_clauses(n, clues))
        assert len(found) == brute


def _latin_squares(n):
    rows = list(permutations(range(1, n + 1)))
    def rec(done):
        if len(done) == n:
            yield [list(r) for r in done]
            return
        for r in rows:
            if all(r[c] != d[c] for d in done for c in range(n)):
                yield from rec(done + [r])
    return rec([])


def test_a_1_clue_puts_n_next_to_it_and_an_n_clue_a_staircase():
    n = 5
    zero = (0,) * n
    clues = {"top": (0, 1, 0, 0, 0), "bottom": zero, "left": (0, 0, 5, 0, 0), "right": zero}
    res = run_ladder(geometry(n), [], Level.EASY, explain=True, extra=extra_for(n, clues))
    assert res.grid[0][1] == "5" and res.grid[2] == "12345"
    assert res.counts["sky_edge"] == 2 and not res.contradiction
    # a 1 and a 5 that want different heights in one cell: a contradiction
    clash = {"top": (1, 0, 0, 0, 0), "bottom": zero, "left": (5, 0, 0, 0, 0), "right": zero}
    assert run_ladder(geometry(n), [], Level.EASY, extra=extra_for(n, clash)).contradiction


def test_clue_ranges_cap_the_first_buildings():
    n = 6
    zero = (0,) * n
    res = run_ladder(geometry(n), [], Level.EASY, explain=True,
                     extra=extra_for(n, {"top": zero, "bottom": zero, "left": (3,) + (0,) * 5, "right": zero}))
    steps = [s for s in res.steps if s.technique == "sky_bounds"]
    assert steps and res.counts["sky_bounds"] == 1  # first at most 4, second at most 5


@pytest.mark.parametrize("level", [Level.EASY, Level.HARD])
def test_json_round_trip_and_check(level):
    p = _puzzle(level)
    entry = puzzle_json(1, p, 3)
    assert set(entry["clues"]) == {"top", "bottom", "left", "right"}
    assert entry["rows"] == entry["cols"] == 5
    back = SKY.from_json(entry)
    assert back.clues == p.clues and back.givens == p.givens
    assert check_puzzle(entry) == []
    # a clue the solution does not show, and a puzzle with its clues gone
    k, side = next((k, s) for s in ("top", "left", "bottom", "right") for k, c in enumerate(entry["clues"][s]) if c)
    wrong = dict(entry, clues={**entry["clues"], side: [c if j != k else (c % 5) + 1
                                                       for j, c in enumerate(entry["clues"][side])]})
    assert check_puzzle(wrong)
    bare = dict(entry, clues={s: [0] * 5 for s in entry["clues"]})
    assert check_puzzle(bare) == ["has more than one solution"]
    with pytest.raises(ValueError, match="clues.top"):
        SKY.from_json(dict(entry, clues={**entry["clues"], "top": [1, 2]}))


def test_fingerprint_moves_clues_with_the_grid():
    p = _puzzle(Level.MEDIUM)
    n = p.size
    base = SKY.fingerprint(p)
    for move in symmetries(n):
        solution = [[" "] * n for _ in range(n)]
        givens = [[" "] * n for _ in range(n)]
        for r in range(n):
            for c in range(n):
                r2, c2 = move((r, c))
                solution[r2][c2] = p.solution[r][c]
                givens[r2][c2] = p.givens[r][c]
        grid = [[int(ch) for ch in row] for row in solution]
        shown = clues_of(grid)
        old = clues_of([[int(ch) for ch in row] for row in p.solution])
        # keep exactly the moved clues: a clue survives when its line's clue was kept
        kept = {side: [0] * n for side in shown}
        for side in old:
            for k, c in enumerate(getattr(p.clues, side)):
                if c:
                    cell = {"top": (-1, k), "bottom": (n, k), "left": (k, -1), "right": (k, n)}[side]
                    r2, c2 = move(cell)
                    where = ("top", c2) if r2 == -1 else ("bottom", c2) if r2 == n else \
                        ("left", r2) if c2 == -1 else ("right", r2)
                    assert shown[where[0]][where[1]] == c
                    kept[where[0]][where[1]] = c
        turned = replace(p, givens=tuple("".join(r) for r in givens), solution=tuple("".join(r) for r in solution),
                         clues=OutsideClues(**{s: tuple(v) for s, v in kept.items()}))
        assert SKY.fingerprint(turned) == base
    other = _puzzle(Level.MEDIUM, index=1)
    assert SKY.fingerprint(other) != base


def test_text_round_trip_and_located_errors():
    p = _puzzle(Level.HARD)
    text = SKY.to_text(p)
    back = parse_text(text, "p.txt")
    assert back.clues == p.clues and back.givens == p.givens
    lines = text.splitlines()
    bad = "\n".join(lines[:2] + ["9" + lines[2][1:]] + lines[3:])
    with pytest.raises(PuzzleTextError, match=r"^p.txt:3:1: clue '9'"):
        parse_text(bad, "p.txt")
    short = "\n".join(lines[:3] + [lines[3].rsplit(" ", 1)[0]] + lines[4:])
    with pytest.raises(PuzzleTextError, match=r"^p.txt:4:\d+: this line has 6 entries"):
        parse_text(short, "p.txt")
    with pytest.raises(PuzzleTextError, match=r"^p.txt:\d+:\d+: a Skyscrapers puzzle is"):
        parse_text("skyscrapers\n  1 2\n1 . . 2\n  2 1\n", "p.txt")


def test_clues_are_drawn_in_the_margin_the_extent_gives():
    p = _puzzle(Level.EASY)
    n = p.size
    ext = SKY.extent(n, {})
    assert (ext.rows, ext.cols) == (n, n) and ext.top == ext.left == ext.bottom == ext.right > 0
    pen = RecordingPen()
    SKY.draw(pen, p)
    outside = [op for op in pen.ops if op[0] == "text" and not (0 <= op[1] <= n and 0 <= op[2] <= n)]
    count = sum(1 for side in ("top", "bottom", "left", "right") for c in getattr(p.clues, side) if c)
    assert len(outside) == count
    assert all(-ext.left <= op[1] <= n + ext.right and -ext.top <= op[2] <= n + ext.bottom for op in outside)


def test_four_by_four_is_refused_at_expert_and_the_alias_works():
    assert SKY.name == "skyscrapers" and get_variant("TOWERS") is SKY
    assert "never harder than hard" in SKY.check_request(4, {}, Level.EXPERT)


def test_clue_clauses_allow_exactly_the_fillings_that_show_the_clue():
    # One line (the first column, seen from the top) with all-different digits and one clue's
    # clauses: the fillings SAT allows are the permutations that show the clue, at 5x5 and 6x6
    # too (the brute force above covers 4x4), so no unit clause a clue adds rules out a height
    # that some filling needs.
    for n in (5, 6):
        cells = [r * n for r in range(n)]
        line = [[i * n + d for d in range(1, n + 1)] for i in cells]
        base = [lits for lits in line]  # each cell a digit ...
        base += [[-a, -b] for lits in line for a in lits for b in lits if a < b]
        base += [[-(i * n + d), -(j * n + d)] for d in range(1, n + 1) for i in cells for j in cells if i < j]
        watch = [v for lits in line for v in lits]
        for clue in range(1, n + 1):
            want = {p for p in permutations(range(1, n + 1)) if seen(p) == clue}
            # the one-shot clauses, and the proof's: the line's clauses with the clue's literals
            for own in (clue_clauses(n, "top", 0, clue)[0],
                        line_clauses(n, "top", 0)[0] + tuple((v,) for v in clue_literals(n, "top", 0, clue))):
                clauses = base + [list(c) for c in own]
                found = {tuple(next(d for d in range(1, n + 1) if i * n + d in m) for i in cells)
                         for m in models(clauses, watch, limit=1000)}
                assert found == want


def test_the_clue_check_equals_the_plain_version():
    # ``SkyExtra.check`` (per line, looked up by its masks) against ``check_plain`` (every
    # clue counted) on full grids, with the grid's own clues and with some changed.
    rng = random.Random(7)
    verdicts = set()
    for n in (4, 5, 6):
        geo = geometry(n)
        for _ in range(30):
            square = random_latin_square(n, rng)
            clues = {side: tuple(c if rng.random() < 0.6 else 0 for c in v) for side, v in clues_of(square).items()}
            if rng.random() < 0.5:
                side = rng.choice(sorted(clues))
                k = rng.randrange(n)
                clues[side] = clues[side][:k] + (rng.randint(1, n),) + clues[side][k + 1:]
            extra = extra_for(n, clues)
            st = start(geo, [(r * n + c, square[r][c]) for r in range(n) for c in range(n)], extra)
            got = []
            for check in (extra.check, extra.check_plain):
                try:
                    check(st)
                    got.append(True)
                except Contradiction:
                    got.append(False)
            assert got[0] == got[1]
            verdicts.add(got[0])
    assert verdicts == {True, False}


def test_states_that_remember_the_clues_struck_take_the_plain_steps():
    # ``SkyState`` (the clue-alone techniques skip their pass once nothing is left to strike
    # under the state's clues) against the plain ``State`` (``marked=False``): the same steps,
    # explanations included, on puzzles with some clues and givens; and the same state when a
    # state solved under some of the clues goes on under all of them, as the carve does.
    from dataclasses import replace as changed

    from bookgen.solve.houses import Run, solve

    rng = random.Random(11)
    for n in (4, 5):
        geo = geometry(n)
        for _ in range(8):
            square = random_latin_square(n, rng)
            every = clues_of(square)
            clues = {side: tuple(c if rng.random() < 0.6 else 0 for c in v) for side, v in every.items()}
            givens = [(i, square[i // n][i % n]) for i in rng.sample(range(n * n), rng.randint(0, n))]
            marked = extra_for(n, clues)
            plain = changed(marked, marked=False)
            a = run_ladder(geo, givens, Level.EXPERT, explain=True, extra=marked)
            b = run_ladder(geo, givens, Level.EXPERT, explain=True, extra=plain)
            assert (a.solved, a.counts, a.grid, a.steps) == (b.solved, b.counts, b.grid, b.steps)
            more = extra_for(n, every)
            ends = []
            for first, then in ((marked, more), (plain, changed(more, marked=False))):
                st = start(geo, givens, first)
                solve(st, Level.EASY, Run())
                st.extra = then
                ends.append((solve(st, Level.EASY, Run()), st.cand, type(st).__name__))
            assert ends[0][:2] == ends[1][:2] and ends[0][2] == "SkyState" != ends[1][2]
