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


def _nonogram(rows: int = 10, cols: int = 10):
    from bookgen.core.difficulty import Level
    from bookgen.core.rng import derive_seed, rng_for
    from bookgen.variants.registry import get_variant

    v, size = get_variant("nonogram"), GridSize(rows, cols)
    return v.generate(size, v.parse_rules({}, size), Level.EASY, rng_for(derive_seed(5, 0, 0)))


def test_cover_art_is_centred_on_what_the_puzzle_draws_and_pattern_tiles_keep_their_clues(tmp_path, monkeypatch):
    """A Nonogram's extent holds the longest clues its size may have: art centred on it sat off
    to the right of the front; the pattern theme drew clues over the neighbouring tiles."""
    from bookgen.layout import cover
    from bookgen.layout.cover import CoverContent, art_box, cover_geometry, render_cover
    from bookgen.layout.geometry import trim_for
    from bookgen.variants.nonogram import MARGIN_PAD, row_clue_width

    puzzle, small = _nonogram(), _nonogram(5, 5)  # a small grid's clues take the most of its tile
    x0, y0, x1, y1 = art_box(puzzle)
    widest = max(row_clue_width(c) for c in puzzle.clues.left)
    assert abs(x0 + MARGIN_PAD + widest) < 0.02 and (x1, y1) == (10, 10)
    assert -x0 < extent_of("nonogram", GridSize(10, 10)).left  # tighter than the extent
    pens = []

    class Pen(cover.CanvasPen):  # records each grid drawn and where its clues went, in points
        def __init__(self, *args, **kw):
            super().__init__(*args, **kw)
            self.texts = []
            pens.append(self)

        def text(self, x, y, s, size, *rest, **kw):
            self.texts.append(self._xy(x, y))
            super().text(x, y, s, size, *rest, **kw)

    monkeypatch.setattr(cover, "CanvasPen", Pen)
    geo = cover_geometry(trim_for("6x9"), 100, "white")
    for theme in ("classic", "pattern"):
        content = CoverContent("T", None, None, "", (), puzzle, (0.1, 0.3, 0.5), theme=theme,
                               pattern=(small,) if theme == "pattern" else ())
        sheet = render_cover(tmp_path / f"{theme}.pdf", geo, content)
        if theme == "classic":
            art = next(box for kind, box, _ in sheet.marks if kind == "art")
            assert abs((art[0] + art[2]) / 2 - (geo.front[0] + geo.front[2]) / 2) < 0.5
            assert abs((art[2] - art[0]) / (art[3] - art[1]) - (x1 - x0) / (y1 - y0)) < 0.02
    tiles = pens[1:]
    assert len(tiles) > 6
    lefts = sorted({round(p.left, 3) for p in tiles if p.top == tiles[0].top})
    tile = lefts[1] - lefts[0]  # the pattern's step: one tile
    for p in tiles:  # each grid with its clues fits its tile as a grid without clues does (0.84 of it)
        xs = [p.left, p.left + 5 * p.unit] + [x for x, _ in p.texts]
        ys = [p.top, p.top - 5 * p.unit] + [y for _, y in p.texts]
        assert max(xs) - min(xs) <= 0.84 * tile + 1e-6 and max(ys) - min(ys) <= 0.84 * tile + 1e-6


def test_a_png_of_queens_keeps_its_colours_and_studio_thumbnails_too():
    """The PNG export (and the studio's page thumbnails) were greyscale: Queens' tinted regions
    and a cover's colour were lost in the pictures made for websites and shop listings."""
    import json
    import random
    import zlib

    from bookgen.book import puzzle_json
    from bookgen.core.difficulty import Level
    from bookgen.export import puzzle_png
    from bookgen.export.png import png_bytes
    from bookgen.variants.registry import get_variant

    queens = get_variant("queens")
    puzzle = queens.generate(5, queens.parse_rules(None, 5), Level.EASY, random.Random("png-colour"))
    png = puzzle_png(json.loads(json.dumps(puzzle_json(1, puzzle, 1))), False, 40.0)
    width, height, depth, kind = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big"), png[24], png[25]
    assert (depth, kind) == (8, 2)  # 8-bit RGB
    raw = zlib.decompress(png[png.index(b"IDAT") + 4:png.index(b"IEND") - 8])
    pixels = [raw[y * (3 * width + 1) + 1:(y + 1) * (3 * width + 1)] for y in range(height)]
    tinted = sum(1 for row in pixels for x in range(0, len(row), 3) if max(row[x:x + 3]) - min(row[x:x + 3]) > 30)
    assert tinted > width * height // 4
    assert png_bytes(1, 1, b"\x80", 1)[25] == 0  # one channel: still a greyscale PNG


def test_the_plan_has_a_line_for_every_section_even_one_sharing_a_page(write_config):
    """Sections that joined a page opened by another section had no line in the plan (a Star
    Battle after a Kakuro, a Skyscrapers after a Jigsaw): they went unlisted."""
    import re

    from bookgen.plan import plan_report

    config = write_config("title: T\nsections:\n  - {variant: sudoku, size: 4, count: 1, difficulty: easy}\n"
                          "  - {variant: futoshiki, title: Second, size: 4, count: 1, difficulty: easy}\n"
                          "  - {variant: futoshiki, title: Third, size: 5, count: 4, difficulty: easy}\n", "shared")
    text = plan_report(load_book(config), 1)
    rows = [r for r in re.findall(r"^\s+(\d+|·)\s+(.*per page.*)$", text, re.M) if "answer key" not in r[1]]
    assert [r[1].split(":")[0] for r in rows] == ["Sudoku", "Second", "Third"], text
    assert rows[1][0] == "·" and "1 per page" in rows[1][1]  # on the Sudoku's page, counted there
    pages = sum(int(n) for n, _ in rows if n != "·")
    assert pages == sum(1 for p in plan_book(load_book(config).shape).pages if p.kind == "puzzles")


def test_a_region_puzzle_typed_as_walls_alone_is_a_located_error_not_a_traceback(tmp_path):
    """``solve`` prints Star Battle, Queens and Jigsaw grids as walls; typed back in, a file
    of walls alone (no region letters) crashed the parser with an IndexError."""
    from typer.testing import CliRunner

    from bookgen.cli import app

    for name in ("queens", "starbattle", "jigsaw"):
        path = tmp_path / f"{name}.txt"
        path.write_text(f"{name}\n\n+---+---+\n|   |   |\n+---+---+\n", "utf-8")
        result = CliRunner().invoke(app, ["solve", str(path)])
        assert result.exit_code != 0 and result.exception is None or isinstance(result.exception, SystemExit)
        assert f"{path}:5:" in result.output and "no grid of region letters" in result.output, result.output
        assert "Traceback" not in result.output
