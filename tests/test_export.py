"""``bookgen export``: one picture per puzzle, drawn by the variant's own code through a pen."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from typer.testing import CliRunner

from bookgen.book import puzzle_json
from bookgen.cli import app
from bookgen.core.difficulty import Level
from bookgen.core.types import GridSize
from bookgen.export import ExportError, parse_numbers, puzzle_png, puzzle_svg
from bookgen.export.svg import BOLD_PT, THIN_PT
from bookgen.variants.registry import VARIANTS

SVG = "{http://www.w3.org/2000/svg}"
# Each variant at a small size: what is drawn is the same at any size (a Kakuro, a Queens
# and a Jigsaw at their default sizes were two thirds of the module's puzzles' 0.5 s).
SMALL = {"takuzu": 6, "tango": 6, "kenken": 4, "sudoku": 4, "futoshiki": 4, "killer": 4, "jigsaw": 6,
         "queens": 6, "kakuro": GridSize(7, 7)}


@pytest.fixture(scope="module")
def entries():
    """One small puzzle of every variant, as the book JSON holds it."""
    out = {}
    for name, variant in VARIANTS.items():
        size = SMALL.get(name, variant.default_size)
        rules = variant.parse_rules(None, size)
        puzzle = variant.generate(size, rules, Level.EASY, random.Random(f"export-{name}"))
        out[name] = json.loads(json.dumps(puzzle_json(1, puzzle, 1)))
    return out


def _texts(root) -> list[tuple[str, str]]:
    return [(t.get("class"), t.text) for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_svg_shows_what_the_json_holds(entries, name):
    """Parses as XML; every given and clue of the JSON is drawn as text, every sign as a sign,
    and the answer shows the solution's symbols."""
    entry = entries[name]
    root = ET.fromstring(puzzle_svg(entry))
    assert root.tag == f"{SVG}svg"
    symbols = Counter(text for kind, text in _texts(root) if kind == "symbol")
    givens = Counter(ch for row in entry["givens"] for ch in row if ch not in ".#")  # '#': a Kakuro block
    stamps = Counter(u.get("data-stamp") for u in root.iter(f"{SVG}use"))
    cages = entry.get("cages", [])
    if name == "tango":  # suns and moons are drawn shapes: one stamp per given
        assert sum(n for k, n in stamps.items() if k.startswith("tango")) == sum(givens.values())
    else:
        assert symbols == givens
    clues = Counter(text for kind, text in _texts(root) if kind == "clue")
    if name == "kenken":
        glyph = {"+": "+", "-": "\u2212", "*": "\u00d7", "/": "\u00f7", "": ""}
        assert clues == Counter(f"{c['target']}{glyph[c['op']]}" for c in cages)
    elif name == "killer":  # a cage's sum is clue text in its top-left cell
        assert clues == Counter(str(c["target"]) for c in cages)
    elif name == "kakuro":  # each run's sum is clue text in the block before it
        assert clues == Counter(str(v) for s in entry["sums"] for k, v in s.items() if k != "cell")
    edges = entry.get("edges", [])
    signs = sum(n for k, n in stamps.items() if "sign" in k)
    assert signs == len(edges)
    answer = ET.fromstring(puzzle_svg(entry, solved=True))
    shown = Counter(t for k, t in _texts(answer) if k == "symbol")
    solution = Counter(ch for row in entry["solution"] for ch in row if ch != "#")
    if name == "tango":
        assert sum(n for k, n in Counter(u.get("data-stamp") for u in answer.iter(f"{SVG}use")).items()
                   if k.startswith("tango")) == entry["size"] ** 2
    elif name == "nonogram":  # the answer is the picture: a black square per filled cell
        black = [r for r in answer.iter(f"{SVG}rect") if r.get("fill") == "#000000"]
        assert not shown and len(black) == solution["1"]
    elif name in ("starbattle", "queens"):  # stars and crowns are drawn shapes: one stamp per star
        stars = Counter(u.get("data-stamp") for u in answer.iter(f"{SVG}use"))
        assert sum(n for k, n in stars.items() if k.startswith(name)) == solution["1"] > 0
    else:
        assert shown == solution


def test_svg_uses_the_books_rule_widths():
    from bookgen.layout.geometry import BOLD, THIN

    assert (THIN_PT, BOLD_PT) == (THIN, BOLD)


def test_png_is_a_png_of_the_chosen_resolution(entries):
    small = puzzle_png(entries["sudoku"], dpi=72)
    large = puzzle_png(entries["sudoku"], dpi=144)
    assert small.startswith(b"\x89PNG\r\n\x1a\n") and large.startswith(b"\x89PNG")
    width = lambda png: int.from_bytes(png[16:20], "big")  # noqa: E731 - IHDR width
    assert width(large) in (2 * width(small) - 1, 2 * width(small), 2 * width(small) + 1)
    with pytest.raises(ExportError):
        puzzle_png(entries["sudoku"], dpi=5)


def test_numbers_are_ranges_within_the_book():
    assert parse_numbers("1-3, 7", 10) == [1, 2, 3, 7]
    assert parse_numbers(None, 10) is None
    for bad in ("0", "3-1", "11", "x", "1--2"):
        with pytest.raises(ExportError):
            parse_numbers(bad, 10)


def test_export_command_writes_one_file_per_puzzle(tmp_path, entries):
    book = tmp_path / "book.json"
    puzzles = [dict(e, number=i + 1) for i, e in enumerate(entries.values())]
    book.write_text(json.dumps({"format": "bookgen-book/1", "title": "T", "seed": 1, "puzzles": puzzles}))
    out = tmp_path / "pictures"
    result = CliRunner().invoke(app, ["export", str(book), "--numbers", "1-2", "--answers", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["book-001-answer.svg", "book-001.svg",
                                                      "book-002-answer.svg", "book-002.svg"]
    result = CliRunner().invoke(app, ["export", str(book), "-f", "png", "-n", "3", "--out", str(out)])
    assert result.exit_code == 0 and (out / "book-003.png").read_bytes().startswith(b"\x89PNG")
    bad = CliRunner().invoke(app, ["export", str(book), "--numbers", "99", "--out", str(out)])
    assert bad.exit_code == 2 and "outside the book's puzzles" in bad.output
    bad = CliRunner().invoke(app, ["export", str(book), "--format", "gif", "--out", str(out)])
    assert bad.exit_code == 2 and "--format" in bad.output


def test_init_writes_each_commented_template_that_builds_as_is(tmp_path):
    from bookgen.config import load_book
    from bookgen.templates import template_names

    for name in template_names():
        target = tmp_path / f"{name}.yaml"
        result = CliRunner().invoke(app, ["init", name, "--out", str(target)])
        assert result.exit_code == 0, result.output
        assert target.read_text().startswith("#")
        load_book(target)  # a valid book as written
    again = CliRunner().invoke(app, ["init", "sampler", "--out", str(tmp_path / "sampler.yaml")])
    assert again.exit_code == 2 and "already exists" in again.output
    assert CliRunner().invoke(app, ["init", "nope", "--out", str(tmp_path / "x.yaml")]).exit_code == 2
