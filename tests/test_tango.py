"""Tango: hand-made positions per tier, signs, and drawing with vector suns and moons."""

from __future__ import annotations

import pytest

from bookgen.core.difficulty import Level
from bookgen.core.pen import RecordingPen
from bookgen.core.types import Edge, Puzzle
from bookgen.solve.binary import TECHNIQUE_LEVEL, Board
from bookgen.variants.tango import TANGO

RULES = {"max_run": 2, "unique_lines": False}

# S = sun (1), M = moon (0); signs as (cell, cell, sign). One position per tier.
POSITIONS = {
    Level.EASY: (["...S..", ".S..S.", "..M...", "S.....", ".....S", "....M."],
                 [((1, 1), (2, 1), "x"), ((3, 0), (3, 1), "x"), ((3, 2), (3, 3), "x"),
                  ((4, 1), (4, 2), "x"), ((4, 1), (5, 1), "="), ((5, 3), (5, 4), "=")]),
    Level.MEDIUM: ([".....S", "S.....", "......", "......", "..S.SS", "......"],
                   [((0, 1), (0, 2), "="), ((2, 2), (2, 3), "="), ((2, 4), (2, 5), "x"),
                    ((3, 4), (4, 4), "=")]),
    Level.HARD: (["......", "......", "....S.", "..M.S.", "......", "......"],
                 [((0, 0), (0, 1), "="), ((1, 2), (2, 2), "="), ((2, 3), (3, 3), "x"),
                  ((3, 0), (4, 0), "="), ((3, 1), (3, 2), "x"), ((4, 1), (4, 2), "x")]),
    Level.EXPERT: (["..M.M.", "......", "......", "....M.", "....M.", "......"],
                   [((0, 0), (1, 0), "="), ((1, 1), (1, 2), "="), ((2, 3), (3, 3), "x"),
                    ((3, 5), (4, 5), "x")]),
}


def _puzzle(level: Level) -> Puzzle:
    rows, signs = POSITIONS[level]
    givens = tuple(row.replace("S", "1").replace("M", "0") for row in rows)
    edges = tuple(Edge(a, b, s) for a, b, s in signs)
    (solution,) = TANGO.solutions(Puzzle("tango", 6, RULES, givens, givens, edges=edges), 2)
    return Puzzle("tango", 6, RULES, givens, solution, edges=edges)


@pytest.mark.parametrize("level", list(Level), ids=[lv.key for lv in Level])
def test_position_grades_at_its_tier_without_guessing(level):
    puzzle = _puzzle(level)  # unpacking above proves exactly one solution
    grade = TANGO.grade(puzzle)
    assert grade.solved and grade.level == level
    steps, reached, solved = TANGO.explain(puzzle)
    assert solved and reached == puzzle.solution
    used = {s.technique for s in steps}
    assert max(TECHNIQUE_LEVEL[t] for t in used) == level
    if level < Level.EXPERT:
        assert "trial" not in used  # no guess below expert
    else:
        assert sum(s.technique == "trial" for s in steps) >= 1
    # replaying the steps from the givens never writes a wrong symbol
    board = Board.from_rows(puzzle.givens, puzzle.edges)
    for step in steps:
        for (r, c), symbol in step.cells:
            assert board.get(r, c) == -1 and puzzle.solution[r][c] == symbol
            board.assign(r, c, int(symbol))
    assert board.rows() == puzzle.solution


@pytest.mark.parametrize("level", [Level.MEDIUM, Level.HARD, Level.EXPERT], ids=lambda lv: lv.key)
def test_lower_tiers_get_stuck(level):
    puzzle = _puzzle(level)
    engine = TANGO.engine(6, RULES)
    lower = [t for t in TANGO.ladder_techniques(RULES) if TECHNIQUE_LEVEL[t] < level]
    _, solved = engine.ladder(Board.from_rows(puzzle.givens, puzzle.edges), lower)
    assert not solved


def test_signs_are_needed_for_uniqueness():
    puzzle = _puzzle(Level.MEDIUM)
    bare = Puzzle("tango", 6, RULES, puzzle.givens, puzzle.solution)
    assert len(TANGO.solutions(bare, 2)) == 2


def test_no_distinct_rule_unless_asked():
    assert TANGO.parse_rules({}, 6)["unique_lines"] is False
    assert "distinct" not in TANGO.ladder_techniques(RULES)
    assert "distinct" in TANGO.ladder_techniques({"max_run": 2, "unique_lines": True})
    assert any("rows are the same" in line for line in TANGO.rules_for({"unique_lines": True}))
    assert not any("rows are the same" in line for line in TANGO.rules_for(RULES))


def test_drawn_as_vector_suns_and_moons_with_signs():
    puzzle = _puzzle(Level.EASY)
    for solved in (False, True):
        pen = RecordingPen()
        TANGO.draw(pen, puzzle, solved=solved)
        assert pen.texts() == []  # no 0/1 glyphs: symbols are shapes
        kinds = pen.kinds()
        symbols = sum(ch != "." for row in puzzle.givens for ch in row) if not solved else 36
        suns = sum(ch == "1" for row in (puzzle.solution if solved else puzzle.givens) for ch in row)
        # a sun is a disc plus rays; every sign has a white backing disc
        discs = [op for op in pen.ops if op[0] == "circle"]
        assert len(discs) == suns + len(puzzle.edges)
        assert kinds["polygon"] >= symbols
    pen = RecordingPen()
    TANGO.draw(pen, puzzle)
    backs = [op for op in pen.ops if op[0] == "circle" and op[4] == 1.0]
    centres = {(op[1], op[2]) for op in backs}
    expected = {((a[1] + b[1]) / 2 + 0.5, (a[0] + b[0]) / 2 + 0.5) for a, b, _ in POSITIONS[Level.EASY][1]}
    assert centres == expected  # each sign sits on the shared edge of its two cells


def test_givens_solid_answers_lighter():
    puzzle = _puzzle(Level.EASY)
    pen = RecordingPen()
    TANGO.draw(pen, puzzle, solved=True)
    fills = {op[4] if op[0] == "circle" else op[2] for op in pen.ops if op[0] in ("circle", "polygon")}
    assert 0.0 in fills and any(0.3 < f < 0.8 for f in fills if f is not None)
