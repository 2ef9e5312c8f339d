"""The shared reader of grids typed with signs between cells (Tango, Futoshiki)."""

import pytest

from bookgen.core.text import PuzzleTextError, SignWords, TextLine, read_sign_grid
from bookgen.core.types import Edge

ACROSS = {"<": "<", ">": ">"}
DOWN = {"^": "<", "v": ">"}


def _cell(ch):
    return {"a": "1", "b": "2", ".": "."}.get(ch)


def _read(text, words=SignWords()):
    lines = [TextLine(i, t) for i, t in enumerate(text.split("\n"), 1) if t.strip()]
    return read_sign_grid(lines, "g.txt", _cell, ACROSS, DOWN, lambda ch: f"what is {ch!r}", words)


def test_signs_across_and_down_join_the_cells_they_stand_between():
    grid = _read("a > .   b\n    v   ^\n. < a < .")
    assert grid.rows == [["1", ".", "2"], [".", "1", "."]]
    assert [line.number for line in grid.row_lines] == [1, 3]
    assert grid.edges == [Edge((0, 0), (0, 1), ">"), Edge((0, 1), (1, 1), ">"), Edge((0, 2), (1, 2), "<"),
                          Edge((1, 0), (1, 1), "<"), Edge((1, 1), (1, 2), "<")]


@pytest.mark.parametrize("text,where,message", [
    ("^\na .", "1:1", SignWords().sign_line_first),
    ("a .\n^\nv\na .", "3:1", SignWords().sign_lines_twice),
    ("a  .\n ^\na  .", "2:2", SignWords().not_under),
    ("< a .", "1:1", SignWords().no_left),
    ("a < > .", "1:5", SignWords().side_by_side),
    ("a . <", "1:5", "no cell on its right"),
    ("a .\n  v", "2:3", "signs below the last row join nothing"),
    ("a ? .", "1:3", "what is '?'"),
])
def test_each_misplaced_sign_is_an_error_at_its_character(text, where, message):
    with pytest.raises(PuzzleTextError) as info:
        _read(text)
    assert str(info.value).startswith(f"g.txt:{where}: ") and message in str(info.value)


def test_a_variant_words_the_errors_its_own_way():
    with pytest.raises(PuzzleTextError, match=r"^g\.txt:1:5: between two cells$"):
        _read("a < < .", SignWords(side_by_side="between two cells"))
