"""A book worth printing (#10): rules per rule set, type floors measured with a
recording pen, page fill from the page plan, the answer key's share, imprint and
ISBN checks, score order, worked examples that teach, and the CLI's rough edges."""

from __future__ import annotations

import json
import math
import re
import struct
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from typer.testing import CliRunner

import bookgen.layout.render as render
from bookgen.book import build, worked_example
from bookgen.cli import app
from bookgen.config import ConfigError, isbn_problem, load_book
from bookgen.core.difficulty import LEVELS, Level
from bookgen.core.pen import BOLD_ADVANCE, BOLD_BEARINGS, CAP_HEIGHT, RecordingPen, bold_ink, bold_lead, bold_width
from bookgen.core.score import work_score
from bookgen.core.types import Cage, Puzzle, rows_cols
from bookgen.layout.fonts import FONT_BOLD, register_fonts
from bookgen.layout.geometry import PER_PAGE, TRIMS, arrange, best_per_page, content_size, plan_book
from bookgen.variants.kenken import CLUE_INSET, widest_clues
from bookgen.variants.registry import VARIANTS, get_variant

ROOT = Path(__file__).resolve().parent.parent
OP_MIXES = [["+"], ["*"], ["+", "-"], ["+", "*"], ["*", "/"], ["+", "-", "*", "/"]]

FEATURES = """\
title: Feature Book
author: A. Author
seed: 5
page: letter
imprint:
  publisher: Puzzle Press
  year: 2026
  isbn: 979-8-12345-678-1
  edition: First edition
  show_seed: false
names: {kenken: KenKen}
sections:
  - variant: takuzu
    title: Standard
    size: 6
    count: 3
    difficulty: {from: easy, to: medium}
  - variant: takuzu
    title: Long runs
    size: 8
    count: 3
    difficulty: easy
    rules: {max_run: 3, unique_lines: false}
    new_page: true
  - variant: kenken
    size: 4
    count: 3
    difficulty: [{easy: 2}, {medium: 1}]
  - variant: kenken
    title: Sums
    size: 4
    count: 2
    difficulty: easy
    rules: {ops: ["+"]}
"""


def page_texts(pdf: Path) -> list[str]:
    return [" ".join((p.extract_text() or "").split()) for p in PdfReader(str(pdf)).pages]


@pytest.fixture(scope="module")
def feature_book(tmp_path_factory):
    folder = tmp_path_factory.mktemp("features")
    config = folder / "features.yaml"
    config.write_text(FEATURES, encoding="utf-8")
    book = load_book(config)
    build(book, folder / "out", workers=1)
    return book, page_texts(folder / "out" / "features.pdf"), json.loads(
        (folder / "out" / "features.json").read_text())


# ----- 1. rules per rule set ---------------------------------------------------------
def test_every_variant_answers_rules_for_through_the_protocol():
    for variant in VARIANTS.values():
        size = variant.default_size
        lines = variant.rules_for(variant.parse_rules({}, size))
        assert lines and all(isinstance(line, str) and line for line in lines), variant.name
        assert 0 < variant.smallest_type(size, variant.parse_rules({}, size)) <= 1.0
    source = "".join(p.read_text() for p in (ROOT / "bookgen").rglob("*.py"))
    assert 'hasattr(variant, "rules_for")' not in source


def test_binary_rules_follow_run_length_and_distinct_lines():
    for name in ("takuzu", "tango"):
        v = get_variant(name)
        text = " ".join(v.rules_for(v.parse_rules({"max_run": 3, "unique_lines": False}, 8)))
        assert "three" in text and "two equal" not in text and "two of the same" not in text, name
        assert "No two rows" not in text, name
    tango = get_variant("tango")
    assert "No two rows" in " ".join(tango.rules_for(tango.parse_rules({"unique_lines": True}, 6)))


def test_kenken_rules_name_only_the_operations_in_use():
    k = get_variant("kenken")
    plus = " ".join(k.rules_for(k.parse_rules({"ops": ["+"]}, 4)))
    assert "add up" in plus and not set("\u00d7\u00f7\u2212") & set(plus)
    hidden = " ".join(k.rules_for(k.parse_rules({"show_ops": False}, 6)))
    assert "only its target" in hidden and "working out which" in hidden
    big = " ".join(k.rules_for(k.parse_rules({"max_cage": 6, "ops": ["+", "*"]}, 6)))
    assert "at most 6 cells" in big and "\u00f7" not in big and "\u2212" not in big
    assert "single cell" not in " ".join(k.rules_for(k.parse_rules({"singles": "none"}, 6)))


def test_each_rule_set_gets_its_own_how_to_page(feature_book):
    book, texts, _ = feature_book
    how_to = [t for t in texts if "How to play" in t[:60] and "A worked example" in t]
    assert len(how_to) == 4  # takuzu default, takuzu long runs, KenKen, KenKen sums
    long_runs = next(t for t in how_to if "Long runs" in t[:80])
    rules_part = long_runs.split("A worked example")[0]
    assert "three equal symbols" in rules_part and "two equal symbols" not in rules_part
    assert "No two rows" not in long_runs and "Distinct lines" not in long_runs
    assert any(t.startswith("How to play KenKen") or "How to play KenKen" in t[:80] for t in how_to)
    sums = next(t for t in how_to if "KenKen: Sums" in t[:80])
    rules_part = sums.split("A worked example")[0]
    assert "add up" in rules_part and not set("\u00d7\u00f7\u2212") & set(rules_part)
    # the running header of a section with its own rules points at them
    puzzles = [t for t in texts if "Long runs" in t and "Puzzle" in t and "How to play" not in t]
    assert puzzles and all(re.search(r"Long runs \(rules: page \d+\)", t) for t in puzzles)
    assert not any("Calcudoku" in t for t in texts)  # names: renames it everywhere


def test_sudoku_sizes_share_one_rule_set_and_sudoku_x_gets_its_own(write_config, tmp_path):
    """A Sudoku's box follows its size, so plain sections of several sizes play by one
    rule set (one how-to page, no "rules: page" pointer); Sudoku X, after them, gets
    its own page explaining the diagonals, and its walkthrough runs under that name."""
    config = write_config("""\
        title: Sudoku Mix
        seed: 3
        sections:
          - variant: sudoku
            title: Small
            size: [4, 6]
            count: 2
            difficulty: easy
          - variant: sudoku
            title: Big
            size: 9
            count: 1
            difficulty: easy
          - variant: sudoku
            title: Diagonals
            size: 6
            count: 1
            difficulty: easy
            rules: {diagonal: true}
            explain: true
        """, "mix")
    book = load_book(config)
    assert len(book.shape.rule_sets) == 2
    build(book, tmp_path / "out", workers=1)
    texts = page_texts(tmp_path / "out" / "mix.pdf")
    how_to = [t for t in texts if "A worked example" in t]
    assert len(how_to) == 2
    assert how_to[0].startswith("How to play Sudoku \u2022") and "diagonal" not in how_to[0]
    assert "How to play Sudoku: Diagonals" in how_to[1] and "diagonals" in how_to[1]
    walk = [t for t in texts if "step by step" in t]
    assert walk and all("How to play Sudoku: Diagonals" in t for t in walk)
    puzzles = [t for t in texts if "Answers on page" in t]
    assert len(puzzles) >= 2
    assert not any(re.search(r"(Small|Big) \(rules: page", t) for t in puzzles)
    assert any(re.search(r"Diagonals \(rules: page \d+\)", t) for t in puzzles)


def test_an_addition_only_book_never_mentions_other_operations(write_config, tmp_path):
    config = write_config("""\
        title: Sums for Beginners
        seed: 3
        sections:
          - variant: kenken
            size: [4, 5]
            count: 4
            difficulty: easy
            rules: {ops: ["+"]}
        """, "sums")
    build(load_book(config), tmp_path / "out", workers=1)
    text = " ".join(page_texts(tmp_path / "out" / "sums.pdf"))
    assert "add up" in text
    text = re.sub(r"\d+\u00d7\d+", "", text)  # a grid's size ("4×4 grids") is no operation
    assert not set("\u00d7\u00f7\u2212") & set(text), sorted(set("\u00d7\u00f7\u2212") & set(text))


# ----- 3. legibility floors --------------------------------------------------------------
def test_bold_advance_table_matches_the_font():
    register_fonts()
    for ch, em in BOLD_ADVANCE.items():
        assert stringWidth(ch, FONT_BOLD, 1000) / 1000 == pytest.approx(em, abs=5e-4), ch


def test_bold_bearings_match_the_font():
    """The blank side bearings clues are fitted by, read from the glyph boxes of the font
    file itself; the table may only err towards less blank (more ink)."""
    from reportlab.pdfbase.ttfonts import TTFontFile
    font = TTFontFile(str(ROOT / "fonts" / "DejaVuSans-Bold.ttf"))
    glyf = font.get_table_pos("glyf")[0]
    for ch, (lsb, rsb) in BOLD_BEARINGS.items():
        glyph = font.charToGlyph[ord(ch)]
        at = glyf + font.glyphPos[glyph]
        _, xmin, _, xmax, _ = struct.unpack(">hhhhh", font._ttf_data[at:at + 10])
        advance = font.hmetrics[glyph][0]
        assert 0 <= xmin / font.unitsPerEm - lsb < 1e-3, ch
        assert 0 <= (advance - xmax) / font.unitsPerEm - rsb < 1e-3, ch


def test_four_digit_products_fit_two_nine_by_nine_grids_on_a_letter_page():
    """The widest default 9x9 clue (5184\u00d7) keeps 8 pt in the cell of two 9x9 grids
    a page, so expert 9x9 KenKen no longer prints one puzzle per page."""
    book = load_book(ROOT / "configs" / "big-book.yaml")
    k = get_variant("kenken")
    scale = k.smallest_type(9, k.parse_rules({}, 9))
    width, height = content_size(book.shape.spec, 0.5 * 72, book.shape.style, False)
    assert arrange(width, height, 9, 2, book.shape.style).cell * scale >= 8.0
    assert best_per_page(width, height, 9, book.shape.style, scale) >= 2


def _worst_puzzle(n: int, rules: dict) -> Puzzle:
    """A board whose first cells carry the longest clue of every allowed operation."""
    texts = widest_clues(n, rules)
    ops = list(rules["ops"]) + [""]
    cages = []
    for k in range(n * n):
        cell = divmod(k, n)
        if k < len(texts):
            cages.append(Cage((cell,), ops[k], int(texts[k].rstrip("+\u2212\u00d7\u00f7"))))
        else:
            cages.append(Cage((cell,), "", 1))
    return Puzzle("kenken", n, rules, ("." * n,) * n, ("1" * n,) * n, cages=tuple(cages))


# One page name per trim size: a page lays out from its size alone, so "8.5x11" is "letter" again.
DISTINCT_TRIMS = sorted({size: name for name, size in reversed(list(TRIMS.items()))}.values())


@pytest.mark.parametrize("page", DISTINCT_TRIMS)
def test_clues_stay_inside_their_cell_and_above_the_floor_on_every_page(page, write_config):
    """Every size, every operator mix, max_cage 6, shown and hidden operators: each clue
    as drawn (recording pen) fits its cell, and the cell the layout gives it prints it at
    8 pt or more; a request that can't is refused at config time, naming the floor."""
    k = get_variant("kenken")
    refused = 0
    for ops in OP_MIXES:
        for show in (True, False):
            for n in k.sizes:
                rules = k.parse_rules({"ops": ops, "max_cage": 6, "show_ops": show}, n)
                pen = RecordingPen()
                k.draw(pen, _worst_puzzle(n, rules))
                texts = [op for op in pen.ops if op[0] == "text"]
                for _, x, _, s, cap, *_ in texts:
                    ink_left = x + bold_lead(s) * cap / CAP_HEIGHT
                    ink_right = ink_left + bold_ink(s) * cap / CAP_HEIGHT
                    assert ink_left >= math.floor(x) + CLUE_INSET - 1e-9, (n, ops, s)
                    assert ink_right <= math.floor(x) + 1 - CLUE_INSET + 1e-9, (n, ops, s)
                smallest = min(op[4] for op in texts) / CAP_HEIGHT
                assert smallest == pytest.approx(k.smallest_type(n, rules), rel=1e-6) or \
                    smallest >= k.smallest_type(n, rules)
                config = write_config(f"title: T\npage: {page}\nsections:\n  - variant: kenken\n"
                                      f"    size: {n}\n    count: 1\n    difficulty: easy\n"
                                      f"    rules: {{ops: {json.dumps(ops)}, max_cage: 6, "
                                      f"show_ops: {str(show).lower()}}}\n", "clue")
                try:
                    book = load_book(config)
                except ConfigError as exc:
                    text = str(exc)
                    if "pt floor" in text:
                        refused += 1
                        assert "max_cage" in text
                    continue
                plan = plan_book(book.shape)
                cell = next(p.arrangement.cell for p in plan.pages if p.kind == "puzzles")
                assert smallest * cell >= 8.0 - 1e-6, (page, n, ops, show, smallest * cell)
    assert refused < len(OP_MIXES) * 2 * len(k.sizes)


def test_large_print_clues_reach_eleven_points(write_config):
    config = write_config("title: T\nlarge_print: true\nsections:\n  - variant: kenken\n    size: 7\n"
                          "    count: 2\n    difficulty: easy\n")
    book = load_book(config)
    cell = next(p.arrangement.cell for p in plan_book(book.shape).pages if p.kind == "puzzles")
    assert book.shape.sections[0].type_scale * cell >= 11.0 - 1e-6


def test_a_config_below_the_type_floor_is_an_error_naming_the_fix(write_config):
    config = write_config("title: T\npage: 6x9\nsections:\n  - variant: kenken\n    size: 9\n"
                          "    count: 2\n    difficulty: easy\n    per_page: 2\n"
                          "    rules: {max_cage: 6, ops: ['*', '+']}\n")
    with pytest.raises(ConfigError) as info:
        load_book(config)
    assert re.search(r":8:15: .* below the 8 pt floor; choose .*max_cage", str(info.value)), str(info.value)


def test_worksheet_rule_box_keeps_the_caption_floor(write_config, tmp_path):
    """The longest reminder (hidden operators, large print) wraps onto more lines in a
    taller box instead of shrinking: no running text on the page is below 11.5 pt."""
    config = write_config("title: T\nlayout: worksheet\nlarge_print: true\nsections:\n"
                          "  - variant: kenken\n    size: 4\n    count: 1\n    difficulty: easy\n"
                          "    rules: {ops: ['+', '-'], show_ops: false}\n", "ws")
    book = load_book(config)
    assert book.shape.style.reminder_lines > 3
    build(book, tmp_path / "out", workers=1)
    chunks = []
    page = PdfReader(str(tmp_path / "out" / "ws.pdf")).pages[0]
    page.extract_text(visitor_text=lambda text, cm, tm, font, size: chunks.append(
        (text.strip(), size * math.hypot(tm[0], tm[1]) * math.hypot(cm[0], cm[1]))))
    chunks = [(t, s) for t, s in chunks if t]
    assert any("rules:" in t for t, _ in chunks)
    for text, size in chunks:
        assert size >= 11.0 - 1e-6, (text, size)  # the grid's floor
        if " " in text or len(text) > 6:  # running text, not a clue or digit
            assert size >= 11.5 - 1e-6, (text, size)


def test_worked_examples_keep_the_floor_and_their_markers_clear_of_signs_and_clues(write_config):
    for name, rules in (("tango", {}), ("kenken", {}), ("kenken", {"max_cage": 6, "ops": ["*", "+"]})):
        variant = get_variant(name)
        example = worked_example(7, name, rules)
        mx, my, mr = render.MARKER
        pen = RecordingPen()
        variant.draw(pen, example)
        for step in render.example_steps(variant, example):
            for (r, c), _ in step.cells:
                for op in pen.ops:
                    if op[0] == "circle":  # a sign's white disc
                        assert math.dist((c + mx, r + my), op[1:3]) > mr + op[3], (name, r, c)
                    if op[0] == "text" and op[-1]:  # a clue's box
                        x, y, s, cap = op[1:5]
                        w = bold_width(s) * cap / CAP_HEIGHT
                        near_x = min(max(c + mx, x), x + w)
                        near_y = min(max(r + my, y), y + cap)
                        assert math.dist((c + mx, r + my), (near_x, near_y)) > mr, (name, r, c, s)
        assert render.MARKER_TYPE * render.Style().floor_cell(render.MARKER_TYPE) >= 8.0 - 1e-9


# ----- 2. page fill --------------------------------------------------------------------
@pytest.mark.parametrize("name", ["sampler", "kenken", "kdp-6x9", "tango", "classroom", "big-book", "sudoku"])
def test_no_half_empty_puzzle_pages(name):
    book = load_book(ROOT / "configs" / f"{name}.yaml")
    plan = plan_book(book.shape)
    pages = [p for p in plan.pages if p.kind == "puzzles"]
    for k, page in enumerate(pages):
        slots = page.arrangement.columns * page.arrangement.rows
        last_of_fresh = book.sections[page.section].new_page and (
            k + 1 == len(pages) or pages[k + 1].section != page.section)
        if k + 1 < len(pages) and not last_of_fresh:
            assert 2 * len(page.items) >= slots, (name, k, len(page.items), slots)


def test_sections_share_pages_unless_new_page(write_config):
    text = ("title: T\nsections:\n  - variant: takuzu\n    size: 6\n    count: 7\n    difficulty: easy\n"
            "  - variant: takuzu\n    size: 6\n    count: 5\n    difficulty: easy\n{extra}")
    flowing = plan_book(load_book(write_config(text.format(extra=""), "a")).shape)
    fresh = plan_book(load_book(write_config(text.format(extra="    new_page: true\n"), "b")).shape)
    shared = [p for p in flowing.pages if p.kind == "puzzles"]
    assert len(shared) == 2 and len(shared[1].items) == 6  # 12 6x6 puzzles: two full pages
    split = [p for p in fresh.pages if p.kind == "puzzles"]
    assert [len(p.items) for p in split] == [6, 1, 5]
    assert {fresh.puzzle_pages[i] for i in range(7, 12)} == {fresh.puzzle_pages[7]}


# ----- 4. answer key ------------------------------------------------------------------
def test_answer_key_of_the_300_puzzle_book_is_at_most_a_tenth():
    book = load_book(ROOT / "configs" / "big-book.yaml")
    assert sum(s.count for s in book.sections) == 300 and book.trim.name == "8.5x11"
    plan = plan_book(book.shape)
    answers = [p for p in plan.pages if p.kind == "answers"]
    assert len(answers) <= 0.10 * len(plan.pages), (len(answers), len(plan.pages))
    style = book.shape.style
    for page in answers:
        assert all(cell * 0.42 / 0.729 >= style.min_key_type - 1e-9 for cell in page.cells)
    # each puzzle page's answers are on the key page its footer names
    assert all(plan.answer_pages[i] >= plan.pages.index(answers[0]) + 1 for i in plan.puzzle_pages)


def test_key_rows_give_each_grid_its_own_cell():
    book = load_book(ROOT / "configs" / "sampler.yaml")
    plan = plan_book(book.shape)
    sizes = [rows_cols(n)[1] for s in book.shape.sections for n in s.sizes]  # grids' widths in cells
    for page in (p for p in plan.pages if p.kind == "answers"):
        k = 0
        for count, _, columns in page.rows:
            row = page.items[k:k + count]
            assert count <= columns
            # one size class per row: the same number of columns fits each of them
            cells = page.cells[k:k + count]
            assert all(c * sizes[i] <= cells[0] * max(sizes[j] for j in row) + 1e-6
                       for c, i in zip(cells, row))
            k += count


def test_kenken_answers_show_digits_and_walls_but_no_clues():
    k = get_variant("kenken")
    puzzle = worked_example(3, "kenken", {})
    pen = RecordingPen()
    k.draw(pen, puzzle, solved=True)
    clues = [op for op in pen.ops if op[0] == "text" and op[-1]]
    digits = [op for op in pen.ops if op[0] == "text" and not op[-1]]
    assert clues and len(digits) == puzzle.size ** 2  # the key's pen drops the clue text


def test_puzzle_pages_say_where_their_answers_are(feature_book):
    _, texts, data = feature_book
    for entry in data["puzzles"]:
        page = texts[entry["page"] - 1]
        found = re.search(r"Answers on pages? (\d+)(?:\u2013(\d+))?", page)
        assert found, entry["number"]
        first, last = int(found.group(1)), int(found.group(2) or found.group(1))
        keys = texts[first - 1:last]
        assert any(re.search(rf"(^|\s){entry['number']} page {entry['page']}\b", key) for key in keys), \
            entry["number"]


# ----- 5. imprint ------------------------------------------------------------------------
def test_imprint_block_prints_what_the_publisher_set(feature_book):
    _, texts, _ = feature_book
    imprint = texts[1]
    assert "\u00a9 2026 A. Author" in imprint and "Published by Puzzle Press" in imprint
    assert "ISBN 979-8-12345-678-1" in imprint and "First edition" in imprint
    assert "seed" not in imprint and "printed to the edge" not in imprint


def test_isbn_check_digits():
    assert isbn_problem("979-8-12345-678-1") is None
    assert isbn_problem("0-306-40615-2") is None and isbn_problem("0-8044-2957-X") is None
    assert "check digit" in isbn_problem("979-8-12345-678-9")
    assert "check digit" in isbn_problem("0-306-40615-3")
    assert isbn_problem("12345") is not None


def test_bad_imprint_fields_are_located(write_config):
    config = write_config("title: T\nimprint:\n  isbn: 978-0-306-40615-6\n  year: 26\n  show_seed: no\n"
                          "  publsher: X\nnames: {kenkem: K}\nsections:\n  - variant: takuzu\n"
                          "    count: 1\n")
    with pytest.raises(ConfigError) as info:
        load_book(config)
    text = str(info.value)
    assert re.search(r"book\.yaml:3:9: ISBN-13 .* check digit 6, .* call for 7", text), text
    assert "book.yaml:4:9: year must be a four-digit year" in text
    assert "book.yaml:5:14: show_seed must be true or false" in text
    assert "book.yaml:6:3: unknown key 'publsher' in imprint; did you mean 'publisher'?" in text
    assert "book.yaml:7:9: unknown variant 'kenkem' in names" in text


# ----- 6. score ---------------------------------------------------------------------------
def test_score_lies_in_its_level_and_grows_with_work():
    tiers = {"a": Level.EASY, "b": Level.MEDIUM}
    weights = {"a": 1.0, "b": 3.0}
    for level in LEVELS:
        for counts in ({}, {"a": 3}, {"a": 10**9, "b": 10**9}):
            assert level <= work_score(counts, weights, tiers, level, 36) < level + 1
    assert work_score({"a": 10, "b": 2}, weights, tiers, Level.MEDIUM, 36) < \
        work_score({"a": 10, "b": 5}, weights, tiers, Level.MEDIUM, 36)


def test_puzzles_of_one_level_and_size_appear_in_increasing_score(feature_book):
    book, _, data = feature_book
    puzzles = data["puzzles"]
    start = 0
    for section in book.sections:
        mine = puzzles[start:start + section.count]
        start += section.count
        for a, b in zip(mine, mine[1:]):
            level = Level[a["difficulty"].upper()]
            assert level <= a["score"] < level + 1
            if (a["difficulty"], a["size"]) == (b["difficulty"], b["size"]):
                assert a["score"] <= b["score"], (a["number"], b["number"])


# ----- 8. CLI ------------------------------------------------------------------------------
def test_cli_version_help_and_check(tiny_config):
    runner = CliRunner()
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("bookgen ")
    result = runner.invoke(app, ["build", "--help"], terminal_width=100)
    assert result.exit_code == 0 and "<bool>" not in result.output and "--quiet" in result.output
    result = runner.invoke(app, ["check", str(tiny_config)])
    assert result.exit_code == 1
    assert "expects the book JSON" in result.output and f"bookgen build {tiny_config}" in result.output
    # the build's summary line: test_cli.py's test_build_writes_pdf_and_json_named_after_config


def test_build_reports_a_layout_phase(tiny_config, tmp_path):
    calls = []
    build(load_book(tiny_config), tmp_path / "o", workers=1, progress=lambda *a: calls.append(a))
    phases = [c[2] if len(c) > 2 else "generating" for c in calls]
    assert phases[0] == "generating" and phases[-1] == "laying out"
    assert calls[-1][0] == calls[-1][1] == len(PdfReader(str(tmp_path / "o" / "tiny.pdf")).pages)
