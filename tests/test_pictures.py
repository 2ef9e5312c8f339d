"""A Nonogram section's ``pictures:``: the user's own PNG and text-art pictures, one proven-unique
puzzle each, givens where a picture alone is ambiguous, and every picture that can't be used
named with its place in the file."""

from __future__ import annotations

import struct
import time
import zlib

import pytest

from bookgen.book import check_puzzle, in_score_order, plan, puzzle_json, run_job
from bookgen.config import ConfigError, load_book
from bookgen.core.types import GridSize
from bookgen.designer import check as studio_check
from bookgen.pictures import PictureError, cell_scale, png_rows, text_art_rows
from bookgen.solve import nonogram as engine
from bookgen.variants.nonogram import NONOGRAM, picture_givens

HEART = """\
.##.##.
#######
#######
.#####.
..###..
...#...
"""
DIAGONAL = tuple("".join("1" if r == c else "0" for c in range(5)) for r in range(5))  # 120 solutions


def png(rows: list[list[int]], colour: int = 0, depth: int = 8, interlace: int = 0, palette: bytes = b"") -> bytes:
    """PNG bytes written by hand (zlib + struct): ``rows`` of grey levels (colour 0), RGB
    triples (colour 2) or palette indices (colour 3)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    height, width = len(rows), len(rows[0]) // (3 if colour == 2 else 1)
    raw = b"".join(b"\0" + bytes(row) for row in rows)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace))
    if palette:
        out += chunk(b"PLTE", palette)
    return out + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def grey(art: str, scale: int = 1) -> list[list[int]]:
    """Grey rows (dark 20, light 230) of text art, each cell ``scale`` pixels a side."""
    rows = [[20 if ch == "#" else 230 for ch in line for _ in range(scale)] for line in art.splitlines()]
    return [row for row in rows for _ in range(scale)]


# ----- reading ---------------------------------------------------------------------------
def test_text_art_reads_and_names_a_stray_character():
    assert text_art_rows(HEART)[0] == "0110110"
    with pytest.raises(PictureError, match=r"line 2:3: '\?'"):
        text_art_rows("#####\n##?##\n")


def test_png_grey_rgb_and_palette_read_the_same_picture():
    art = HEART.replace(".", "-")
    want = text_art_rows(HEART)
    g = grey(art.replace("-", "."))
    assert png_rows(png(g)) == (want, 1)
    rgb = [[v for x in row for v in (x, x, x)] for row in g]
    assert png_rows(png(rgb, colour=2)) == (want, 1)
    indexed = [[0 if x < 128 else 1 for x in row] for row in g]
    assert png_rows(png(indexed, colour=3, palette=bytes([0, 0, 0, 255, 255, 255]))) == (want, 1)


def test_a_picture_drawn_large_is_read_at_its_cell_size():
    rows, scale = png_rows(png(grey(HEART.strip(), scale=4)))
    assert scale == 4 and rows == text_art_rows(HEART)
    assert cell_scale([[1, 1, 0], [1, 1, 0]]) == 1  # a run of 1 pixel: cells are pixels


@pytest.mark.parametrize("raw, words", [
    (b"GIF89a" + bytes(40), "not a PNG"),
    (png(grey(HEART))[:30], "ends inside its header"),
    (png(grey(HEART))[:60], "damaged PNG"),
    (png(grey(HEART)).replace(b"IDAT", b"IDAT\xff\xff", 1)[:-12] + bytes(12), "damaged PNG"),
])
def test_a_damaged_png_is_one_message(raw, words):
    with pytest.raises(PictureError, match=words):
        png_rows(raw)


def test_a_huge_header_is_refused_before_anything_inflates():
    bomb = png([[0] * 8] * 8)
    bomb = bomb[:16] + struct.pack(">II", 60000, 60000) + bomb[24:]  # (CRC now wrong: never read)
    started = time.perf_counter()
    with pytest.raises(PictureError, match="60000 \u00d7 60000 pixels"):
        png_rows(bomb)
    assert time.perf_counter() - started < 0.5


# ----- givens ------------------------------------------------------------------------------
def test_an_ambiguous_picture_gets_givens_and_is_then_unique():
    givens, result = picture_givens(DIAGONAL)
    given = [(r, c) for r, row in enumerate(givens) for c, ch in enumerate(row) if ch != "."]
    assert given and result.solved
    puzzle = engine.Puzzle(*engine.clues_of(DIAGONAL))
    assert len(engine.sat_solutions(puzzle)) == 2  # alone: not unique
    assert engine.sat_solutions(puzzle, givens) == [DIAGONAL]
    for cell in given:  # none can go: each one dropped leaves two solutions or a stuck ladder
        fewer = tuple("".join("." if (r, c) == cell else ch for c, ch in enumerate(row))
                      for r, row in enumerate(givens))
        assert len(engine.sat_solutions(puzzle, fewer)) == 2 or not engine.ladder(puzzle, fewer).solved


def test_a_picture_its_clues_settle_gets_none():
    rows = text_art_rows(HEART + "." * 7 + "\n")
    givens, result = picture_givens(rows)
    assert set("".join(givens)) == {"."} and result.solved
    puzzle = NONOGRAM.from_picture(rows, "heart.txt")
    assert NONOGRAM.solutions(puzzle) == [rows] and NONOGRAM.validate(puzzle) == []
    assert puzzle.grade.level == NONOGRAM.grade(puzzle).level


# ----- the config, the build, the JSON ------------------------------------------------------------
BOOK = """\
title: Pictures
seed: 3
sections:
  - variant: nonogram
    pictures:
      - art/heart.txt
      - dot.png
      - |
        #....
        .#...
        ..#..
        ...#.
        .....
"""


def _write_pictures(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "heart.txt").write_text(HEART + "." * 7 + "\n", encoding="utf-8")
    (tmp_path / "dot.png").write_bytes(png(grey("######\n#....#\n#.##.#\n#.##.#\n#....#\n######", scale=2)))


def test_a_book_of_pictures_plans_builds_and_round_trips(tmp_path):
    _write_pictures(tmp_path)
    (tmp_path / "book.yaml").write_text(BOOK, encoding="utf-8")
    book = load_book(tmp_path / "book.yaml")
    (section,) = book.sections
    assert section.count == 3 and section.sizes == (GridSize(7, 7), GridSize(6, 6), GridSize(5, 5))
    assert [p.name for p in section.pictures] == ["heart.txt", "dot.png", "text art 3"]
    jobs = plan(book)
    puzzles = [run_job(job) for job in jobs]
    assert [p.solution for p in puzzles] == [p.rows for p in section.pictures]
    assert in_score_order(book, puzzles) == puzzles  # the order listed, not sorted by score
    assert "1" in "".join(puzzles[2].givens)  # the diagonal needed givens
    assert run_job(jobs[2]) == puzzles[2]  # the same picture, the same puzzle
    for number, puzzle in enumerate(puzzles, 1):
        entry = puzzle_json(number, puzzle, 1)
        assert entry["rules"] == {"style": "picture"} and entry["picture"] == section.pictures[number - 1].name
        assert check_puzzle(entry) == []
        assert NONOGRAM.from_json(entry).rules == puzzle.rules
    assert NONOGRAM.fingerprint(puzzles[0]) == NONOGRAM.fingerprint(
        NONOGRAM.from_picture(tuple(row[::-1] for row in puzzles[0].solution), "other name"))


BAD = """\
title: Bad pictures
sections:
  - variant: nonogram
    size: 10
    difficulty: hard
    count: 9
    pictures:
      - missing.png
      - notpng.png
      - wide.txt
      - blank.txt
      - |
        #.#.#.#.#.#.#.#
        ###############
        ###############
        ###############
        ###############
      - art/heart.txt
      - mirrored.txt
  - variant: sudoku
    pictures: [art/heart.txt]
"""


def test_every_unusable_picture_is_named_at_its_place(tmp_path):
    _write_pictures(tmp_path)
    (tmp_path / "notpng.png").write_text("hello", encoding="utf-8")
    (tmp_path / "wide.txt").write_text("#" * 30 + "\n" + "." * 30 + "\n" * 5, encoding="utf-8")
    (tmp_path / "blank.txt").write_text(".....\n" * 5, encoding="utf-8")
    heart = (tmp_path / "art" / "heart.txt").read_text(encoding="utf-8")
    (tmp_path / "mirrored.txt").write_text("\n".join(line[::-1] for line in heart.splitlines()[::-1]),
                                           encoding="utf-8")
    (tmp_path / "book.yaml").write_text(BAD, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_book(tmp_path / "book.yaml")
    text = str(err.value)
    file = str(tmp_path / "book.yaml")
    for line, col, words in [
        (4, 5, "size does not go with pictures"),
        (5, 5, "difficulty does not go with pictures"),
        (6, 12, "count is 9 but pictures lists 7"),
        (8, 9, "picture 'missing.png': no such file"),
        (9, 9, "picture 'notpng.png': is not a PNG file"),
        (10, 9, "picture 'wide.txt': is 2 \u00d7 30 cells; a nonogram picture has rows 5 to 25 and columns 5 to 25"),
        (11, 9, "picture 'blank.txt': has no filled cell"),
        (12, 9, "picture 'text art 5': row 1 has 8 runs of filled cells; a row of 15 cells prints at most 7"),
        (19, 9, "picture 'mirrored.txt': is the same puzzle as 'art/heart.txt' (a turned or mirrored"),
        (21, 5, "'pictures' makes puzzles of your own pictures, in nonogram only"),
    ]:
        assert f"{file}:{line}:{col}: {words}" in text, (words, text)
    assert "Traceback" not in text


def test_a_picture_is_not_replaced_nor_a_class_set(tmp_path):
    _write_pictures(tmp_path)
    (tmp_path / "book.yaml").write_text("title: T\nsections:\n  - variant: nonogram\n    pictures: [art/heart.txt]\n"
                                        "replace: [1]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"book.yaml:5:11: replace: puzzle 1 is your picture 'heart.txt'"):
        load_book(tmp_path / "book.yaml")
    (tmp_path / "book.yaml").write_text("title: T\nlayout: worksheet\nversions: 2\nsections:\n  - variant: nonogram\n"
                                        "    pictures: [art/heart.txt]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"book.yaml:6:5: pictures make one puzzle each, and a class set"):
        load_book(tmp_path / "book.yaml")


def test_the_studio_takes_text_art_and_refuses_files():
    art = "#....\n.#...\n..#..\n...#.\n....#\n"
    data = {"title": "T", "sections": [{"variant": "nonogram", "pictures": [art, "cat.png"]}]}
    result = studio_check(data, "pics")
    assert result.book is None
    assert [(e["path"], e["message"].split(";")[0]) for e in result.errors] == [
        (["sections", 0, "pictures", 1], "picture 'cat.png': the studio reads no files from your computer")]
    data["sections"][0]["pictures"] = [art]
    result = studio_check(data, "pics")
    assert result.errors == [] and result.book.sections[0].pictures[0].rows[0] == "10000"
