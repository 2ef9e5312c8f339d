"""Rectangular grid sizes end to end, before any shipped variant takes them.

A toy variant (checkerboard: neighbours differ) that declares ``rectangular = True`` and a
``SizeRange`` is registered for these tests only (monkeypatch, never in the product
registry) and goes through the real pipeline: config, plan, generation, fingerprints,
layout, PDF and JSON. Square variants must keep their old behaviour (the other test files
and ``bench/hash_configs.py`` hold them to it).
"""

from __future__ import annotations

import json
import random
from typing import Any, Mapping, Sequence

import pytest
from pypdf import PdfReader

import bookgen.variants.registry as registry
from bookgen.book import build, plan as plan_jobs
from bookgen.config import ConfigError, load_book
from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_
from bookgen.core.pen import BOLD, THIN, Pen, RecordingPen
from bookgen.core.symmetry import grid_fingerprint, moved_rows, symmetries
from bookgen.core.types import EMPTY, Grade, GridSize, Puzzle, SizeRange
from bookgen.core.variant import Extent, Step, Technique, VariantDefaults
from bookgen.layout.geometry import extent_of, fit_problems
from bookgen.plan import plan_report
from bookgen.puzzletext import PuzzleTextError, describe, parse_book_json
from bookgen.variants.gridparts import shape_problems


class Checkers(VariantDefaults):
    """Toy: fill rows x cols cells with 0 and 1 so that side neighbours always differ.
    Any one given fixes the grid (one checkerboard of the two), so it is easy only."""

    name = "checkers"
    aliases = ("toy-rect",)
    title = N_("Checkers")
    rules_text = (N_("Fill every cell with 0 or 1."), N_("Neighbours differ."))
    techniques = (Technique("parity", Level.EASY, N_("Parity"), N_("Neighbours differ.")),)
    rectangular = True
    size_range = SizeRange(4, 12, 4, 12)
    sizes = size_range.squares
    default_size = GridSize(6, 8)

    def parse_rules(self, raw, size):
        if raw:
            raise ValueError(f"unknown rule option {next(iter(raw))!r}")
        return {}

    def rules_for(self, rules, sizes=()):
        return self.rules_text

    def techniques_for(self, rules):
        return self.techniques

    def smallest_type(self, size, rules):
        return 0.5

    def check_request(self, size, rules, level):
        assert isinstance(size, GridSize)  # a rectangular variant always gets a GridSize
        return None if level == Level.EASY else "checkers puzzles are easy only"

    def generate(self, size, rules, level, rng, options=None):
        parity = rng.randrange(2)
        solution = tuple("".join(str((r + c + parity) % 2) for c in range(size.cols)) for r in range(size.rows))
        keep = {(rng.randrange(size.rows), rng.randrange(size.cols)) for _ in range(3)}
        givens = tuple("".join(ch if (r, c) in keep else EMPTY for c, ch in enumerate(row))
                       for r, row in enumerate(solution))
        return Puzzle(self.name, size, {}, givens, solution, grade=self.grade(Puzzle(self.name, size, {}, givens, solution)))

    def solutions(self, puzzle, limit=2):
        out = []
        for parity in (0, 1):
            grid = tuple("".join(str((r + c + parity) % 2) for c in range(puzzle.cols)) for r in range(puzzle.rows))
            if all(g in (EMPTY, s) for gr, sr in zip(puzzle.givens, grid) for g, s in zip(gr, sr)):
                out.append(grid)
        return out[:limit]

    def validate(self, puzzle):
        return [] if puzzle.solution in self.solutions(puzzle) else ["neighbours must differ"]

    def explain(self, puzzle):
        (solution,) = self.solutions(puzzle, 1)
        cells = tuple(((r, c), solution[r][c]) for r in range(puzzle.rows) for c in range(puzzle.cols)
                      if puzzle.givens[r][c] == EMPTY)
        return [Step("parity", cells, "neighbours differ")], solution, True

    def grade(self, puzzle):
        return Grade(Level.EASY, 1.0, {"parity": 1})

    def draw(self, pen: Pen, puzzle, solved=False):
        rows, cols = puzzle.rows, puzzle.cols
        for c in range(1, cols):
            pen.line(c, 0, c, rows, THIN)
        for r in range(1, rows):
            pen.line(0, r, cols, r, THIN)
        pen.rect(0, 0, cols, rows, stroke=BOLD)
        for r in range(rows):
            for c in range(cols):
                ch = puzzle.givens[r][c] if puzzle.givens[r][c] != EMPTY or not solved else puzzle.solution[r][c]
                if ch != EMPTY:
                    pen.text(c + 0.5, r + 0.5, ch, 0.42, bold=puzzle.givens[r][c] != EMPTY)

    def fingerprint(self, puzzle):
        return grid_fingerprint(f"{self.name}/{puzzle.size}", {}, puzzle.givens, True)

    def to_json(self, puzzle):
        return {"rules": {}}

    def from_json(self, data):
        size = GridSize.from_json(data.get("size"))
        if size is None or size not in self.size_range:
            raise ValueError(f"size must be [rows, cols] with {self.size_range}, got {data.get('size')!r}")
        problems = (shape_problems(data.get("givens"), size, "01.", "givens")
                    + shape_problems(data.get("solution"), size, "01", "solution"))
        if problems:
            raise ValueError(problems[0])
        return Puzzle(self.name, size, {}, tuple(data["givens"]), tuple(data["solution"]))

    def sniff_text(self, text):
        return 0

    def text_lines(self, puzzle, rows, ascii=False):
        return [" ".join(row) for row in rows]

    def symbol_text(self, symbol, ascii=False):
        return symbol

    def to_text(self, puzzle):
        return f"{self.name} size={puzzle.size}\n" + "\n".join(self.text_lines(puzzle, puzzle.givens)) + "\n"

    def clue_counts(self, puzzle):
        return [f"{sum(ch != EMPTY for row in puzzle.givens for ch in row)} givens"]


CHECKERS = Checkers()


@pytest.fixture
def toy(monkeypatch):
    """The toy variant in the registry for one test."""
    monkeypatch.setitem(registry.VARIANTS, CHECKERS.name, CHECKERS)
    for alias in (CHECKERS.name, *CHECKERS.aliases):
        monkeypatch.setitem(registry._ALIASES, alias, CHECKERS.name)
    return CHECKERS


BOOK = """\
title: Rectangles
seed: 5
page: letter
sections:
  - variant: checkers
    size: [{sizes}]
    count: 2
    difficulty: easy
"""


def test_grid_size_parses_prints_and_orders():
    assert GridSize.parse("15x10") == GridSize(15, 10)
    assert GridSize.parse(" 15 \u00d7 10 ") == GridSize(15, 10)
    assert GridSize.parse("15X10") == GridSize(15, 10)
    assert GridSize.parse("15") is None and GridSize.parse("15x") is None and GridSize.parse("ax4") is None
    assert str(GridSize(15, 10)) == "15x10" and GridSize(15, 10).label == "15\u00d710"
    assert GridSize(9, 9).is_square and not GridSize(9, 10).is_square
    assert GridSize.from_json([15, 10]) == GridSize(15, 10)
    assert GridSize.from_json([15, True]) is None and GridSize.from_json(15) is None
    span = SizeRange(6, 14, 6, 14, step=2)
    assert GridSize(6, 14) in span and GridSize(7, 14) not in span and GridSize(16, 6) not in span
    assert 8 not in span and span.squares == (6, 8, 10, 12, 14)


def test_rectangle_has_four_symmetries_square_eight():
    assert len(symmetries(6)) == 8 and len(symmetries(6, 6)) == 8
    wide = symmetries(2, 3)
    assert len(wide) == 4
    rows = ["ab.", "..c"]
    moved = {tuple(moved_rows(rows, move)) for move in wide}
    assert moved == {("ab.", "..c"), ("c..", ".ba"), (".ba", "c.."), ("..c", "ab.")}
    # a mirrored rectangle is the same puzzle; the transposed one (another shape) is not
    grid = ("1.0.", "....", "..1.")
    mirrored = tuple(row[::-1] for row in grid)
    transposed = tuple("".join(grid[r][c] for r in range(3)) for c in range(4))
    p = lambda g: Puzzle("checkers", GridSize(len(g), len(g[0])), {}, g, g)  # noqa: E731
    assert CHECKERS.fingerprint(p(grid)) == CHECKERS.fingerprint(p(mirrored))
    assert CHECKERS.fingerprint(p(grid)) != CHECKERS.fingerprint(p(transposed))


def test_square_only_variant_refuses_a_rectangle_with_its_place(write_config):
    path = write_config(BOOK.replace("checkers", "takuzu").format(sizes="8, 10x8"))
    with pytest.raises(ConfigError) as err:
        load_book(path)
    assert str(err.value).splitlines() == [
        f"{path}:6:15: takuzu takes only square sizes (one number, e.g. 8), got '10x8'"]
    square = load_book(write_config(BOOK.replace("checkers", "takuzu").format(sizes="8, 10x10")))
    assert square.sections[0].sizes == (8, 10)  # N x N written out is the plain N


def test_rectangular_sizes_in_config_errors_and_plan(toy, write_config):
    book = load_book(write_config(BOOK.format(sizes="10x6, 8")))
    assert book.sections[0].sizes == (GridSize(10, 6), GridSize(8, 8))
    assert [j.size for j in plan_jobs(book)] == [GridSize(10, 6), GridSize(8, 8)]
    path = write_config(BOOK.format(sizes="13x6, 4x3, big"))
    with pytest.raises(ConfigError) as err:
        load_book(path)
    assert str(err.value).splitlines() == [
        f"{path}:6:12: checkers size must have rows 4 to 12 and columns 4 to 12, got '13x6'",
        f"{path}:6:18: checkers size must have rows 4 to 12 and columns 4 to 12, got '4x3'",
        f"{path}:6:23: size must be a whole number or ROWSxCOLS (e.g. 15x10), got 'big'",
    ]
    text = plan_report(book, 1)
    assert "1 Checkers 10\u00d76, " in text and "checkers 10\u00d76, checkers 8\u00d78" in text


def test_wide_and_tall_grids_fit_and_build_pdf_and_json(toy, write_config, tmp_path):
    for size in (GridSize(4, 12), GridSize(12, 4)):
        extent = extent_of("checkers", size)
        assert (extent.rows, extent.cols) == (size.rows, size.cols)
    book = load_book(write_config(BOOK.format(sizes="4x12, 12x4")))
    assert fit_problems(book.shape) == []
    pdf, data = (p for p in build(book, tmp_path / "out") if p.suffix in (".pdf", ".json"))
    entries = json.loads(data.read_text())["puzzles"]
    assert [(e["size"], e["rows"], e["cols"]) for e in entries] == [([4, 12], 4, 12), ([12, 4], 12, 4)]
    for e in entries:
        assert len(e["givens"]) == e["rows"] and {len(row) for row in e["givens"]} == {e["cols"]}
        assert CHECKERS.from_json(e).size == GridSize(e["rows"], e["cols"])
    assert len(PdfReader(pdf).pages) >= 3
    # ``bookgen solve`` reads a rectangle back from the JSON, and refuses a size outside the range
    text = data.read_text()
    puzzle = parse_book_json(text, "book.json", number=1)
    assert (puzzle.rows, puzzle.cols) == (4, 12) and describe(puzzle).startswith("Checkers 4\u00d712")
    assert set("".join(puzzle.solution)) == {EMPTY}  # the recorded answer is not trusted
    with pytest.raises(PuzzleTextError, match=r"size must be \[rows, cols\] with rows 4 to 12"):
        parse_book_json(json.dumps({"puzzles": [dict(entries[0], size=[4, 13])]}), "book.json", number=1)


def test_studio_offers_square_boxes_and_typed_rectangles(toy):
    from bookgen.designer import form_schema
    entry = form_schema.__wrapped__()["variants"]["checkers"]
    assert entry["rectangular"] is True and entry["default_size"] == "6x8"
    assert entry["sizes"] == list(range(4, 13)) and entry["size_range"] == "rows 4 to 12 and columns 4 to 12"
    json.dumps(entry)  # the page receives it as JSON
    assert form_schema.__wrapped__()["variants"]["takuzu"]["rectangular"] is False


def test_class_set_of_rectangles_on_a_small_page(toy, write_config, tmp_path):
    text = BOOK.format(sizes="4x12, 12x5").replace("page: letter", "page: 6x9\nlayout: worksheet\nversions: 2")
    paths = build(load_book(write_config(text)), tmp_path / "out")
    key = next(p for p in paths if p.name.endswith("-answers.pdf"))
    sheets = next(p for p in paths if p.suffix == ".json")
    assert len(PdfReader(key).pages) == 2  # a key page per worksheet page, both versions on it
    sizes = {tuple(e["size"]) for e in json.loads(sheets.read_text())["puzzles"]}
    assert sizes == {(4, 12), (12, 5)}
