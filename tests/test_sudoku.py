"""Sudoku: the house ladder tier by tier, SAT against brute force, text format, rules."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from typer.testing import CliRunner

from bookgen.cli import app
from bookgen.core.difficulty import Level
from bookgen.core.pen import BOLD, RecordingPen
from bookgen.core.rng import rng_for
from bookgen.core.types import GenerationError
from bookgen.puzzletext import PuzzleTextError, grid_lines, parse_text, solve_report, to_text
from bookgen.solve.houses import (
    LADDER, TECHNIQUE_LEVEL, Contradiction, Run, State, geometry, run_ladder, start,
)
from bookgen.solve.latin_sat import solutions
from bookgen.solve.latin import bit
from bookgen.variants.sudoku import SUDOKU

runner = CliRunner()
G9 = geometry(9, (3, 3), False)


def _state(cands: dict[tuple[int, int], set[int]], geo=G9) -> State:
    """An open grid (every digit possible everywhere) except the cells listed."""
    st = State(geo)
    for (r, c), digits in cands.items():
        st.cand[r * geo.n + c] = sum(bit(d) for d in digits)
    return st


def _fires(st: State, below: Level) -> list[str]:
    """The techniques of tiers up to ``below`` that make progress on a copy of ``st``."""
    out = []
    for t in LADDER:
        if t.tier <= below:
            trial = st.copy()
            if t.fn(trial.board, trial, Run()):
                out.append(t.name)
    return out


def _apply(st: State, technique: str) -> str:
    fn = {t.name: t.fn for t in LADDER}[technique]
    run = Run(explain=True)
    assert fn(st.board, st, run) == 1
    return run.reason


def _has(st: State, r: int, c: int, d: int) -> bool:
    return bool(st.cand[r * st.board.n + c] & bit(d))


# ----- one hand-made position per technique that needs it --------------------------------------
def test_locked_candidates_pointing():
    # In the top-left box, 1 fits only in row 1: the rest of row 1 can't be 1.
    st = _state({(r, c): set(range(2, 10)) for r in (1, 2) for c in range(3)})
    assert _fires(st, Level.EASY) == []
    reason = _apply(st, "locked_candidates")
    assert not any(_has(st, 0, c, 1) for c in range(3, 9)) and _has(st, 0, 0, 1)
    assert "row 1" in reason and "box" in reason


def test_naked_pair():
    st = _state({(0, 0): {1, 2}, (0, 4): {1, 2}})
    assert _fires(st, Level.EASY) == []
    _apply(st, "naked_pair")
    assert not any(_has(st, 0, c, d) for c in (1, 2, 3, 5, 6, 7, 8) for d in (1, 2))


def test_hidden_pair():
    # 1 and 2 fit only in row 1, columns 1 and 5: those two cells hold nothing else.
    st = _state({(0, c): set(range(3, 10)) for c in (1, 2, 3, 5, 6, 7, 8)})
    assert _fires(st, Level.EASY) == []
    assert "naked_pair" not in _fires(st, Level.MEDIUM)
    _apply(st, "hidden_pair")
    assert st.cand[0] == bit(1) | bit(2) and st.cand[4] == bit(1) | bit(2)


def test_naked_triple():
    st = _state({(0, 0): {1, 2}, (0, 4): {2, 3}, (0, 8): {1, 3}})
    assert _fires(st, Level.MEDIUM) == []
    _apply(st, "naked_triple")
    assert not any(_has(st, 0, c, d) for c in (1, 2, 3, 5, 6, 7) for d in (1, 2, 3))


def test_hidden_triple():
    # 1, 2 and 3 fit only in row 1, columns 1, 5 and 9 (never two of them in just two cells).
    cands = {(0, c): set(range(4, 10)) for c in (1, 2, 3, 5, 6, 7)}
    cands[(0, 0)] = {1, 2, 4, 5}
    cands[(0, 4)] = {2, 3, 6, 7}
    cands[(0, 8)] = {1, 3, 8, 9}
    st = _state(cands)
    assert _fires(st, Level.MEDIUM) == []
    _apply(st, "hidden_triple")
    assert [st.cand[i] for i in (0, 4, 8)] == [bit(1) | bit(2), bit(2) | bit(3), bit(1) | bit(3)]


def test_x_wing():
    # 1 in rows 1 and 5 only in columns 1 and 6: no other cell of those columns can be 1.
    cands = {(r, c): set(range(2, 10)) for r in (0, 4) for c in range(9) if c not in (0, 5)}
    st = _state(cands)
    assert _fires(st, Level.MEDIUM) == []
    reason = _apply(st, "x_wing")
    assert not any(_has(st, r, c, 1) for r in range(9) if r not in (0, 4) for c in (0, 5))
    assert _has(st, 0, 0, 1) and _has(st, 4, 5, 1) and "column 1 and column 6" in reason


def test_xy_wing():
    # Pivot r1c1 = 1 or 2; r1c5 = 1 or 3; r5c1 = 2 or 3: r5c5 sees both pincers and can't be 3.
    st = _state({(0, 0): {1, 2}, (0, 4): {1, 3}, (4, 0): {2, 3}})
    assert _fires(st, Level.MEDIUM) == []
    assert "xy_wing" in _fires(st, Level.HARD)
    _apply(st, "xy_wing")
    assert not _has(st, 4, 4, 3) and _has(st, 4, 4, 1)


# Whole puzzles: each needs its tier (the tiers below stall) and the ladder solves it.
TIER_PUZZLES = [
    (Level.MEDIUM, "6.2....95\n5...79...\n.7....4..\n.....5...\n.9.6....7\n..71...52\n..83..1.6\n....8..2.\n.3...4..."),
    (Level.HARD, "..9.3....\n6..89....\n..2....7.\n..1.....6\n.5.927...\n.....5...\n.....45.8\n.17....3.\n...1....4"),
    (Level.EXPERT, ".6...1..9\n8..6...74\n..7.9..5.\n...46....\n9.8...5.2\n....28...\n.8..4.1..\n71...3..6\n3..1...4."),
]


@pytest.mark.parametrize("level,text", TIER_PUZZLES, ids=[lv.key for lv, _ in TIER_PUZZLES])
def test_each_tier_has_a_puzzle_the_tiers_below_cannot_solve(level, text):
    puzzle = parse_text("sudoku\n" + text, "p.txt")
    givens = [(r * 9 + c, int(ch)) for r, row in enumerate(puzzle.givens) for c, ch in enumerate(row) if ch != "."]
    assert not run_ladder(G9, givens, Level(level - 1)).solved
    full = run_ladder(G9, givens, level)
    assert full.solved and full.level == level
    assert SUDOKU.grade(puzzle).level == level
    assert len(SUDOKU.solutions(puzzle, 2)) == 1


def test_a_contradiction_is_reported():
    with pytest.raises(Contradiction, match="two 1s"):
        start(G9, [(0, 1), (5, 1)])  # two 1s in row 1
    st = _state({(0, c): set(range(2, 10)) for c in range(9)})  # row 1 has no place for 1
    with pytest.raises(Contradiction, match="no place for 1"):
        {t.name: t.fn for t in LADDER}["hidden_single"](G9, st, Run())
    assert not run_ladder(G9, [(0, 1), (1, 1)]).solved


# ----- exact counting against brute force on 4x4 ---------------------------------------------
def _all_grids(diagonal: bool) -> list[tuple[int, ...]]:
    """Every 4x4 Sudoku (X) by brute force over row permutations, no engine code."""
    rows = list(permutations(range(1, 5)))
    out = []

    def fits(grid: tuple[int, ...], row: tuple[int, ...]) -> bool:
        r = len(grid) // 4
        for c in range(4):
            if any(grid[k * 4 + c] == row[c] for k in range(r)):
                return False  # column
        if r % 2:  # second row of a band: the two boxes
            above = grid[-4:]
            if {above[0], above[1]} & {row[0], row[1]} or {above[2], above[3]} & {row[2], row[3]}:
                return False
        return True

    def extend(grid: tuple[int, ...]) -> None:
        if len(grid) == 16:
            if not diagonal or (len({grid[k * 5] for k in range(4)}) == 4
                                and len({grid[k * 4 + 3 - k] for k in range(4)}) == 4):
                out.append(grid)
            return
        for row in rows:
            if fits(grid, row):
                extend(grid + row)

    extend(())
    return out


@pytest.mark.parametrize("diagonal", [False, True])
def test_sat_counts_agree_with_brute_force_on_4x4(diagonal):
    grids = _all_grids(diagonal)
    assert grids and (diagonal or len(grids) == 288)  # 288 4x4 Sudokus, a known count
    geo = geometry(4, (2, 2), diagonal)
    rng = random.Random(4)
    for _ in range(60):
        base = rng.choice(grids)
        cells = rng.sample(range(16), rng.randint(0, 7))
        givens = [(i, base[i]) for i in cells]
        if rng.random() < 0.2 and givens:  # sometimes a clash: no solution
            i, d = givens[0]
            givens[0] = (i, d % 4 + 1)
        expect = [g for g in grids if all(g[i] == d for i, d in givens)]
        got = solutions(geo, givens, 2)
        assert len(got) == min(2, len(expect))
        assert all(tuple(s) in expect for s in got)


# ----- generation -----------------------------------------------------------------------------
def test_requests_out_of_reach_are_refused():
    plain6 = SUDOKU.parse_rules({}, 6)
    assert "never harder than easy" in SUDOKU.check_request(6, plain6, Level.MEDIUM)
    assert SUDOKU.check_request(6, SUDOKU.parse_rules({"diagonal": True}, 6), Level.EXPERT) is None
    with pytest.raises(GenerationError, match="never harder than easy"):
        SUDOKU.generate(4, SUDOKU.parse_rules({}, 4), Level.HARD, rng_for("00" * 8))


def test_nine_by_nine_is_graded_as_asked():
    rules = SUDOKU.parse_rules({}, 9)
    puzzle = SUDOKU.generate(9, rules, Level.MEDIUM, rng_for("1234abcd" * 2))
    assert puzzle.grade.level == Level.MEDIUM and SUDOKU.validate(puzzle) == []
    assert SUDOKU.solutions(puzzle, 2) == [puzzle.solution]


def test_rules_options():
    assert SUDOKU.parse_rules({}, 8) == {"box": (2, 4), "diagonal": False}
    assert SUDOKU.parse_rules({"box": [3, 3], "diagonal": True}, 6) == {"box": (2, 3), "diagonal": True}
    for bad, message in (({"diagonal": "yes"}, "true or false"), ({"boxes": 3}, "unknown Sudoku rule"),
                         ({"box": [3, 2]}, "boxes of 2\u00d73")):
        with pytest.raises(ValueError, match=message):
            SUDOKU.parse_rules(bad, 6)
    assert any("diagonals" in line for line in SUDOKU.rules_for({"diagonal": True}))
    assert not any("diagonals" in line for line in SUDOKU.rules_for({"diagonal": False}))


def test_validate_catches_a_broken_box_and_diagonal():
    puzzle = parse_text("sudoku diagonal=true\n" + "1234\n3412\n4321\n2143", "x.txt")
    from dataclasses import replace
    good = replace(puzzle, solution=puzzle.givens)
    assert SUDOKU.validate(good) == []
    bad = replace(good, rules={"box": (2, 2), "diagonal": True}, solution=("1234", "3412", "2143", "4321"))
    problems = SUDOKU.validate(bad)
    assert any("diagonal" in p for p in problems)


def test_drawing_marks_boxes_and_diagonals():
    for diagonal in (False, True):
        puzzle = SUDOKU.generate(6, SUDOKU.parse_rules({"diagonal": diagonal}, 6), Level.EASY, rng_for("ab" * 8))
        pen = RecordingPen()
        SUDOKU.draw(pen, puzzle)
        bold = [op for op in pen.ops if op[0] == "line" and op[-1] == BOLD]
        assert len(bold) == 1 + 2  # one box line across (2x3 boxes: x=3), two down (y=2, 4)
        diagonals = [op for op in pen.ops if op[0] == "line" and op[1] != op[3] and op[2] != op[4]]
        assert len(diagonals) == (4 * 6 if diagonal else 0)  # two strokes per diagonal cell, none across a digit
        for op in diagonals:
            assert abs(op[3] - op[1]) < 0.5


# ----- text ----------------------------------------------------------------------------------
def test_text_round_trip():
    for diagonal in (False, True):
        puzzle = SUDOKU.generate(9 if not diagonal else 6, SUDOKU.parse_rules({"diagonal": diagonal}, 9 if not diagonal else 6),
                                 Level.EASY, rng_for("cd" * 8))
        text = to_text(puzzle)
        assert text.startswith("sudoku" + (" diagonal=true" if diagonal else "") + "\n")
        back = parse_text(text, "rt.txt")
        assert (back.variant, back.size, back.rules, back.givens) == \
            (puzzle.variant, puzzle.size, puzzle.rules, puzzle.givens)


def test_text_without_header_and_with_zeros_is_sudoku():
    text = "530070000\n600195000\n098000060\n800060003\n400803001\n700020006\n060000280\n000419005\n000080079\n"
    puzzle = parse_text(text, "classic.txt")
    assert puzzle.variant == "sudoku" and puzzle.givens[0] == "53..7...."
    report = solve_report(puzzle, explain=True)
    assert report.code == 0 and "Naked singles (easy)" in report.text
    assert report.solution[0] == "534678912"
    drawn = grid_lines(puzzle, report.solution)
    assert drawn[0] == "5 3 4 | 6 7 8 | 9 1 2" and drawn[3] == "------+-------+------"


@pytest.mark.parametrize("text,where,message", [
    ("sudoku\n12.4\n3.1\n....\n....\n", "3", "this row has 3 cells"),
    ("sudoku\n12.4\n3.a.\n....\n....\n", "3:3", "unknown symbol 'a'"),
    ("sudoku\n12.5\n....\n....\n....\n", "2", "digit 5 in a 4\u00d74 Sudoku"),
    ("sudoku\n12345\n.....\n.....\n.....\n.....\n", "2", "Sudoku grids are 4, 6, 8, 9, 12 or 16 cells across"),
    ("sudoku diagonal=maybe\n12.4\n....\n....\n....\n", "1", "diagonal must be true or false"),
])
def test_bad_text_is_located(text, where, message):
    with pytest.raises(PuzzleTextError) as info:
        parse_text(text, "bad.txt")
    assert str(info.value).startswith(f"bad.txt:{where}:") and message in str(info.value)


def test_cli_solves_a_sudoku_with_two_solutions_and_exits_1(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("sudoku\n12..\n34..\n....\n....\n", encoding="utf-8")
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 1 and "More than one solution" in result.output


# ----- the example book ----------------------------------------------------------------------------
def test_sudoku_book_config_covers_every_size_and_level():
    from pathlib import Path

    from bookgen.book import check_puzzle, plan, puzzle_json, run_job
    from bookgen.config import load_book

    book = load_book(Path(__file__).resolve().parent.parent / "configs" / "sudoku.yaml")
    jobs = plan(book)
    sudoku = [j for j in jobs if j.variant == "sudoku"]
    assert {j.size for j in sudoku} == {4, 6, 8, 9, 12, 16}
    assert {j.level for j in sudoku} == set(Level)
    assert any(dict(j.rules)["diagonal"] and j.size == 9 and j.level == Level.EXPERT for j in sudoku)
    assert {j.variant for j in jobs} == {"sudoku", "futoshiki", "killer"}
    # the small ones are quick: make them as the build would and check them as `bookgen check` does
    for number, job in enumerate(jobs, start=1):
        if job.size <= 6 and job.level <= Level.MEDIUM:
            assert check_puzzle(puzzle_json(number, run_job(job), page=1)) == []
