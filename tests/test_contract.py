"""The contract every variant keeps: generate -> unique -> graded as asked ->
JSON round trip -> validates -> draws."""

from __future__ import annotations

import pytest

from bookgen.book import check_puzzle, puzzle_json
from bookgen.core.difficulty import LEVELS, Level
from bookgen.core.pen import BOLD, CAP_HEIGHT, STAMP_REACH, RecordingPen
from bookgen.core.rng import derive_seed, rng_for
from bookgen.core.types import GridSize
from bookgen.variants.registry import VARIANTS

SMALL = {"takuzu": 6, "tango": 6, "kenken": 5, "sudoku": 6, "futoshiki": 5, "jigsaw": 7, "nonogram": 10,
         "kakuro": GridSize(7, 8)}
# Rule options for the contract run, where the defaults would be slow or cap the level.
RULES = {"sudoku": {"diagonal": True}}  # a plain 6x6 Sudoku is never harder than easy
CASES = [(name, level) for name in sorted(VARIANTS) for level in LEVELS]
# Each case is made from seed index 0 of (99, level), but where index 0 is one of the dearer
# seeds of its case (an expert Killer or Kakuro 2-5 s, a hard Killer 2 s, an expert Jigsaw
# 1.7 s; a hard Nonogram or an expert Sudoku or Skyscrapers 3-10x its quickest) from a later
# index among the quickest of indices 0-11. The contract holds for every seed:
# bench/sweep_contract.py runs every case over many.
QUICK_INDEX = {("killer", "expert"): 2, ("killer", "hard"): 6, ("killer", "medium"): 7, ("kakuro", "expert"): 8,
               ("kakuro", "easy"): 8, ("jigsaw", "expert"): 11, ("sudoku", "expert"): 10, ("nonogram", "hard"): 4,
               ("skyscrapers", "expert"): 1}


class StampCheckPen(RecordingPen):
    """Records like its parent, and checks each stamp keeps the promise that lets a PDF
    draw it once: equal keys draw the same, within ``STAMP_REACH`` of the point."""

    def __init__(self):
        super().__init__()
        self.seen: dict = {}

    def stamp(self, key, x, y, draw):
        inner = RecordingPen()
        draw(inner)
        assert self.seen.setdefault(key, inner.ops) == inner.ops, key
        for op in inner.ops:
            if op[0] == "polygon":
                points = op[1]
            elif op[0] == "circle":
                points = [(op[1] + dx * op[3], op[2] + dy * op[3]) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            elif op[0] == "line":
                points = [op[1:3], op[3:5]]
            else:
                points = [op[1:3]]
            assert all(abs(px) <= STAMP_REACH and abs(py) <= STAMP_REACH for px, py in points), (key, op)
        super().stamp(key, x, y, draw)


def _make(name: str, level: Level, index: int = 0):
    variant = VARIANTS[name]
    size = SMALL.get(name, variant.default_size)
    rules = variant.parse_rules(RULES.get(name, {}), size)
    seed = derive_seed(99, LEVELS.index(level), index)
    return variant, variant.generate(size, rules, level, rng_for(seed))


@pytest.mark.parametrize("name,level", CASES, ids=[f"{n}-{lv.key}" for n, lv in CASES])
def test_contract(name, level, index=None):
    variant, puzzle = _make(name, level, QUICK_INDEX.get((name, level.key), 0) if index is None else index)
    assert puzzle.variant == name
    # unique, by the exact solver
    found = variant.solutions(puzzle, 2)
    assert found == [puzzle.solution]
    # the solution keeps every rule and agrees with the givens
    assert variant.validate(puzzle) == []
    # graded exactly as asked, solved by the ladder without guessing
    grade = variant.grade(puzzle)
    assert grade.solved and grade.level == level == puzzle.grade.level
    assert grade.score == puzzle.grade.score and sum(grade.techniques.values()) > 0
    # every puzzle is rated, the same way when generated and when graded again (issue 25)
    assert grade.rating is not None and 1.0 <= grade.rating <= 12.0 and grade.minutes >= 1.0
    assert (grade.rating, grade.minutes) == (puzzle.grade.rating, puzzle.grade.minutes)
    # the ladder's steps only ever write the solution's symbols
    steps, reached, solved = variant.explain(puzzle)
    assert solved and reached == puzzle.solution
    for step in steps:
        for (r, c), symbol in step.cells:
            assert puzzle.solution[r][c] == symbol, step
    # JSON round trip through the book format, and the checker agrees
    entry = puzzle_json(1, puzzle, page=3)
    back = variant.from_json(entry)
    assert (back.givens, back.solution, back.rules, back.edges, back.cages, back.regions) == (
        puzzle.givens, puzzle.solution, puzzle.rules, puzzle.edges, puzzle.cages, puzzle.regions)
    assert check_puzzle(entry) == []
    # the fingerprint is computed from the clues, so it survives the round trip
    assert entry["fingerprint"] == variant.fingerprint(back) and len(entry["fingerprint"]) == 16
    # it draws: a frame, grid lines, and something in the cells
    for solved_view in (False, True):
        pen = StampCheckPen()
        variant.draw(pen, puzzle, solved=solved_view)
        kinds = pen.kinds()
        boxed = sum(1 for op in pen.ops if op[0] == "rect" and op[-1]) >= puzzle.rows * puzzle.cols  # a box per cell
        assert kinds.get("line", 0) >= min(puzzle.rows, puzzle.cols) - 1 or boxed
        assert any(op[-1] == BOLD for op in pen.ops if op[0] in ("line", "rect")) or boxed
    empty, full = RecordingPen(), RecordingPen()
    variant.draw(empty, puzzle, solved=False)
    variant.draw(full, puzzle, solved=True)
    assert len(full.ops) > len(empty.ops)  # the answer view adds the filled-in cells
    # the page's words: rules for these options, the techniques they use, and type that
    # the layout can keep legible (no text smaller than the variant says)
    assert variant.rules_for(puzzle.rules) and all(isinstance(t, str) for t in variant.rules_for(puzzle.rules))
    assert set(variant.techniques_for(puzzle.rules)) <= set(variant.techniques)
    assert set(grade.techniques) <= {t.name for t in variant.techniques_for(puzzle.rules)}
    floor = variant.smallest_type(puzzle.size, puzzle.rules)
    assert 0 < floor <= 1.0
    texts = [op[4] / CAP_HEIGHT for op in empty.ops if op[0] == "text"]
    assert min(texts, default=1.0) >= floor - 1e-9
    assert score_in_level(grade)


def score_in_level(grade) -> bool:
    """A score lies in [level, level + 1): levels never overlap."""
    return int(grade.level) <= grade.score < int(grade.level) + 1


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_same_seed_same_puzzle(name):
    # at easy: the same generator from the same seed, at a third of medium's cost (a medium Killer
    # 0.5 s); indices 8 and 5, quick for the dearer easy variants (a Kakuro 0.03-0.04 s, against
    # 0.09-0.15 s for most indices)
    _, a = _make(name, Level.EASY, 8)
    _, b = _make(name, Level.EASY, 8)
    _, c = _make(name, Level.EASY, 5)
    assert a == b
    assert a.solution != c.solution or a.givens != c.givens


def test_check_puzzle_catches_tampering():
    variant, puzzle = _make("takuzu", Level.MEDIUM)
    entry = puzzle_json(1, puzzle, page=3)
    # an answer that breaks a rule
    bad = dict(entry, solution=[row.replace("0", "1") for row in entry["solution"]])
    assert any("1s and" in p for p in check_puzzle(bad))
    # a puzzle with two solutions: remove every given
    empty = dict(entry, givens=["." * puzzle.size] * puzzle.size)
    assert check_puzzle(empty) == ["has more than one solution"]
    # a wrong difficulty label
    other = "expert" if entry["difficulty"] != "expert" else "easy"
    assert "labelled" in check_puzzle(dict(entry, difficulty=other))[0]
