"""The newer puzzle families in print: answer keys, covers, page formats and large print,
the plan's lines (#23 point 4, "Rendered and looked at"). Fast: pages are planned from the
config, and the few puzzles drawn are tiny."""

from __future__ import annotations

from bookgen.config import load_book
from bookgen.core.types import GridSize
from bookgen.layout.geometry import MM, Style, extent_of, key_extent, key_pages, plan_book

LETTER_WIDTH, LETTER_HEIGHT = 7.0 * 72, 9.5 * 72  # about a letter page's content area


def test_a_key_grid_takes_no_room_for_the_clues_its_key_leaves_out():
    """A key's pen leaves out outside clues (a Nonogram's runs, Skyscrapers' counts): their
    margins pushed the grid off its number and made a 25x25 Nonogram's answer a page alone."""
    for variant, size in (("skyscrapers", 6), ("nonogram", GridSize(25, 25)), ("sudoku", 9)):
        ext = extent_of(variant, size)
        key = key_extent(ext)
        assert (key.rows, key.cols, key.width, key.height) == (ext.rows, ext.cols, ext.cols, ext.rows)
        assert key.key_scale == ext.key_scale and key.mark_cell_mm == ext.mark_cell_mm


def test_a_25x25_nonogram_answer_is_a_small_picture_three_to_a_row():
    style = Style()
    big = key_extent(extent_of("nonogram", GridSize(25, 25)))
    pages = key_pages([big] * 6 + [key_extent(extent_of("nonogram", GridSize(10, 10)))] * 4,
                      LETTER_WIDTH, LETTER_HEIGHT, style, "Answers")
    assert len(pages) == 1, [p.rows for p in pages]
    assert pages[0].rows[0][2] >= 3  # columns in the 25x25 row
    low = style.key_cell[0]
    assert all(0.6 * low - 1e-6 <= cell <= style.key_cell[1] for cell in pages[0].cells)
    assert min(pages[0].cells) >= 2 * MM  # a picture's squares still clear to the eye


def test_a_book_key_lays_out_key_extents(write_config):
    config = write_config("title: T\nsections:\n  - {variant: nonogram, size: 25x25, count: 3}\n"
                          "  - {variant: skyscrapers, size: 6, count: 2}\n", "key")
    shape = load_book(config).shape
    assert all(e.left == e.top == 0 for e in shape.item_extents())
    answers = [p for p in plan_book(shape).pages if p.kind == "answers"]
    assert len(answers) == 1
