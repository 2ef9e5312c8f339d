"""A class set for the copier, a book that looks published, covers a publisher would
upload, a plan a person would write (#24.5-8), and printed config text measured where
it prints (#26 A10, A12)."""

from __future__ import annotations

import re
from pathlib import Path

from pypdf import PdfReader
from typer.testing import CliRunner

from bookgen.book import build
from bookgen.cli import app
from bookgen.config import load_book

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


# ----- 8. plan ----------------------------------------------------------------------------
def test_plan_names_formats_and_gives_one_line_per_section_and_size(write_config, tmp_path):
    config = write_config("title: T\npage: a4\nlayout: worksheet\nversions: 3\nsections:\n"
                          "  - variant: sudoku\n    size: 6\n    count: 6\n    per_page: 4\n    difficulty: easy\n"
                          "  - variant: kenken\n    size: 4\n    count: 2\n    difficulty: easy\n", "ws")
    out = runner.invoke(app, ["plan", str(config)]).output
    assert "A4, 210 × 297 mm" in out and "8.26772" not in out
    rows = re.findall(r"^\s+(\d+)\s+(.*: \d+ .*per page.*)$", out, re.M)
    assert len(rows) == 2 and [r[1].count("Sudoku 6×6") for r in rows] == [1, 0], out
    assert rows[0][0] == "2"  # 4 + 2 puzzles: two pages, on one line
    planned = int(re.search(r"\((\d+) puzzles\)", out).group(1))
    built = runner.invoke(app, ["build", str(config), "--out", str(tmp_path / "o")])
    assert built.exit_code == 0, built.output
    assert planned == 24 and f"{planned} puzzles" in built.output


# ----- 5. class sets -------------------------------------------------------------------------
CLASS = """\
title: Friday Logic
subtitle: Three versions
author: Mr. Novak
seed: 31
layout: worksheet
versions: 3
{extra}
names: {{kenken: Calcudoku}}
sections:
  - variant: sudoku
    size: 6
    count: 6
    difficulty: easy
  - variant: kenken
    title: KenKen (addition)
    size: 4
    count: 1
    rules: {{ops: ["+"]}}
    difficulty: easy
"""


def _texts(pdf: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(str(pdf)).pages]


def test_students_get_one_file_of_copies_dealt_a_b_c_and_each_starts_on_a_fresh_sheet(write_config, tmp_path):
    """Six 6x6 Sudoku (4 + 2) and a Calcudoku: three pages a version, a blank fourth
    so the next version starts on a fresh sheet; 7 students: A B C A B C A."""
    config = write_config(CLASS.format(extra="students: 7"), "set")
    build(load_book(config), tmp_path)
    reader = PdfReader(str(tmp_path / "set.pdf"))
    assert len(reader.pages) == 7 * 4
    assert "28 pages, printed on both sides" in runner.invoke(app, ["plan", str(config)]).output
    # the first three copies read back (A, B, C); each later one draws what its version's first did
    streams = [page.get_contents().get_data() for page in reader.pages]
    assert all(streams[n] == streams[n % 12] for n in range(12, 28))
    pages = [page.extract_text() for page in reader.pages[:12]]
    for copy, letter in enumerate("ABC"):
        sheet = pages[copy * 4:copy * 4 + 4]
        for k in range(3):
            assert f"Version {letter} · page {k + 1} of 3" in sheet[k]
            assert "Friday Logic" in sheet[k] and "Three versions" in sheet[k] and "Mr. Novak" in sheet[k]
            assert "Name" in sheet[k] and "Date" in sheet[k] and "Class" in sheet[k]
        # the back of the last sheet: blank but for a line saying so (no puzzle, no footer)
        assert " ".join(sheet[3].split()) == "This side is left blank: the next version starts on a fresh sheet."
    # the section's title heads its rule box: the page and the box say the same name
    assert "KenKen (addition) rules:" in pages[2] and "Calcudoku rules" not in pages[2]
    assert "Sudoku rules:" in pages[0]


def test_one_sided_sets_are_not_padded_and_the_key_is_compact(write_config, tmp_path):
    build(load_book(write_config(CLASS.format(extra="duplex: false"), "set")), tmp_path)
    pages = _texts(tmp_path / "set.pdf")
    assert len(pages) == 9 and all(p.strip() for p in pages)
    key = _texts(tmp_path / "set-answers.pdf")
    assert len(key) == 3  # one key page per worksheet page, every version on it
    assert all(key[k].count("Puzzle") == 3 * (4, 2, 1)[k] for k in range(3))


def test_duplex_and_students_need_a_class_set(write_config):
    from bookgen.config import ConfigError
    import pytest

    with pytest.raises(ConfigError) as info:
        load_book(write_config("title: T\nlayout: worksheet\nstudents: 3\nduplex: true\nsections:\n"
                               "  - variant: sudoku\n    size: 4\n    count: 1\n"))
    assert "students is for a class set" in str(info.value) and "duplex is for a class set" in str(info.value)


# ----- 6. a book that looks published ------------------------------------------------------
def test_every_face_draws_every_catalog_string():
    """Each bundled face has a glyph for every character the six catalogs print (Czech
    and Russian included), in regular and bold."""
    from bookgen.layout.fonts import FACES, glyphs_of

    text = ""
    for po in sorted((ROOT / "bookgen" / "locale").glob("*/LC_MESSAGES/bookgen.po")):
        text += "".join(re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', po.read_text(encoding="utf-8"), re.M))
    assert "ř" in text and "ж" in text
    wanted = {ord(ch) for ch in text if ord(ch) > 0x20}
    for face in FACES:
        missing = wanted - glyphs_of(face)
        assert not missing, (face, "".join(sorted(map(chr, missing))))


def test_a_book_in_each_face_embeds_it_and_keeps_grids_in_dejavu(write_config, tmp_path):
    for face, name in (("charis", "CharisSIL"), ("andika", "Andika")):
        config = write_config(f"title: Čtvrtek\nfont: {face}\npage: 6x9\nlanguage: cs\nsections:\n"
                              "  - variant: sudoku\n    size: 4\n    count: 2\n    difficulty: easy\n", face)
        build(load_book(config), tmp_path / face)
        fonts = set()
        for page in PdfReader(str(tmp_path / face / f"{face}.pdf")).pages:
            for font in (page["/Resources"].get("/Font") or {}).values():
                fonts.add(str(font.get_object()["/BaseFont"]))
        assert any(name in f for f in fonts) and any("DejaVuSans-Bold" in f for f in fonts), fonts


def test_front_matter_conventions_and_the_gutter(write_config, tmp_path):
    """No folio on the copyright page; no generator line in a book with an ISBN unless
    asked; the gutter is KDP's minimum plus 1/8 in, or as set, never below the minimum."""
    from bookgen.config import ConfigError
    from bookgen.layout.geometry import INCH, plan_book

    base = ("title: T\npage: 6x9\nimprint: {{isbn: 979-8-12345-678-1{extra}}}\n{more}sections:\n"
            "  - variant: sudoku\n    size: 6\n    count: 8\n    difficulty: easy\n")
    book = load_book(write_config(base.format(extra="", more=""), "isbn"))
    assert not book.imprint.show_seed
    assert plan_book(book.shape).gutter == 0.5 * INCH
    build(book, tmp_path)
    imprint = PdfReader(str(tmp_path / "isbn.pdf")).pages[1].extract_text()
    assert "ISBN 979-8-12345-678-1" in imprint and "bookgen" not in imprint
    assert not re.search(r"^\s*2\s*$", imprint, re.M)  # no page number
    assert load_book(write_config(base.format(extra=", show_seed: true", more=""), "seed")).imprint.show_seed
    wide = load_book(write_config(base.format(extra="", more="gutter: 0.75in\n"), "wide"))
    assert plan_book(wide.shape).gutter == 0.75 * INCH
    try:
        load_book(write_config(base.format(extra="", more="gutter: 0.25in\n"), "narrow"))
    except ConfigError as exc:
        assert ":4:9: the book has about" in str(exc) and "at least 0.375in" in str(exc)
    else:
        raise AssertionError("a gutter below the minimum passed")


def test_new_page_right_opens_a_section_on_a_right_hand_page(write_config):
    from bookgen.layout.geometry import plan_book

    config = write_config("title: T\npage: 6x9\nsections:\n"
                          "  - variant: sudoku\n    size: 4\n    count: 1\n    difficulty: easy\n"
                          "  - variant: sudoku\n    title: Second\n    size: 4\n    count: 1\n    difficulty: easy\n"
                          "    new_page: right\n", "right")
    pages = plan_book(load_book(config).shape).pages
    first = next(n for n, p in enumerate(pages, start=1) if p.kind == "puzzles" and p.section == 1)
    assert first % 2 == 1
    assert any(p.kind == "blank" for p in pages) == (pages[first - 2].kind == "blank")


def test_a_blank_left_hand_page_is_a_ruled_notes_page(write_config, tmp_path):
    """Sections 2 and 3 open on right-hand pages: section 2's single page leaves a left-hand
    page before section 3, which prints as a page for notes, not as a bare white page."""
    one = "  - variant: sudoku\n    title: {}\n    size: 4\n    count: 1\n    difficulty: easy\n"
    config = write_config("title: T\npage: 6x9\nsections:\n" + one.format("First")
                          + (one + "    new_page: right\n").format("Second")
                          + (one + "    new_page: right\n").format("Third"), "notes")
    build(load_book(config), tmp_path)
    texts = _texts(tmp_path / "notes.pdf")
    notes = [n for n, text in enumerate(texts, start=1) if text.split()[:1] == ["Notes"]]
    assert notes and all("Puzzle" not in texts[n - 1] for n in notes)
    assert all(n % 2 == 0 and texts[n].startswith("Puzzle") for n in notes)  # a left page before a section


def _text_low(pdf: Path, number: int) -> float:
    """The lowest baseline of any text on a page but its folio, in points from the bottom."""
    lows: list[float] = []
    PdfReader(str(pdf)).pages[number - 1].extract_text(
        visitor_text=lambda text, cm, tm, fd, fs: lows.append(tm[5])
        if text.strip() not in ("", str(number)) else None)
    return min(lows)


def test_a_long_contents_runs_over_pages_in_parts_with_puzzle_numbers(write_config, tmp_path):
    """Thirty sections overflowed the one contents page (the last ones printed over the footer
    and off the page); now the contents takes the pages it needs, every entry above the footer."""
    sections = "".join(f"  - variant: sudoku\n    title: Part {k}\n    size: 4\n    count: 2\n"
                       f"    difficulty: easy\n" for k in range(1, 31))
    config = write_config("title: T\nsections:\n" + sections, "long")
    build(load_book(config), tmp_path)
    from bookgen.layout.geometry import plan_book

    pages = plan_book(load_book(config).shape).pages
    contents = [n for n, p in enumerate(pages, start=1) if p.kind == "contents"]
    assert len(contents) == 2
    reader = PdfReader(str(tmp_path / "long.pdf"))  # the contents pages' text only, not all 17 pages
    listed = "\n".join(reader.pages[n - 1].extract_text() for n in contents)
    assert "Before you start" in listed and "The puzzles" in listed and "Answers" in listed
    for k in range(1, 31):
        assert re.search(rf"Part {k}\s+\.+\s+\d+\s+Puzzles {2 * k - 1}\u2013{2 * k}", listed), k
    folio = 0.5 * 72 + 12  # the footer band's top on a letter page: entries stay above it
    assert all(_text_low(tmp_path / "long.pdf", n) > folio for n in contents)


# ----- 7. covers; #26 A12 ---------------------------------------------------------------------
def _cover_content(**kw):
    from bookgen.layout.cover import CoverContent

    base = dict(title="Logic Grids", subtitle=None, author="A. Puzzler", blurb="A short blurb.",
                inside=("8 Sudoku 9×9 puzzles, easy",), art=None, colour=(0.1, 0.3, 0.4))
    return CoverContent(**{**base, **kw})


def test_spine_text_only_at_the_cover_floor_and_colour_past_the_folds(tmp_path):
    from bookgen.layout.cover import BLEED, MIN_TYPE, THEMES, cover_geometry, render_cover, spine_size
    from bookgen.layout.geometry import trim_for

    thin = cover_geometry(trim_for("6x9"), 79, "white")  # spine text once printed at 3.26 pt here
    assert spine_size(thin, _cover_content()) < MIN_TYPE
    sheet = render_cover(tmp_path / "thin.pdf", thin, _cover_content())
    assert not [m for m in sheet.marks if m[0] == "text" and m[1][0] < thin.spine_box[2] and m[1][2] > thin.spine_box[0]]
    thick = cover_geometry(trim_for("6x9"), 200, "white")
    for theme in THEMES:
        sheet = render_cover(tmp_path / f"{theme}.pdf", thick, _cover_content(theme=theme))
        spine = [m for m in sheet.marks if m[0] == "text" and thick.spine_box[0] < (m[1][0] + m[1][2]) / 2 < thick.spine_box[2]]
        assert spine and spine_size(thick, _cover_content()) >= MIN_TYPE
        x0, _, x1, _ = thick.spine_box
        for fold in (x0, x1):  # the colour runs 1/8 in past each fold, top to bottom
            for y in (thick.size[1] * 0.1, thick.size[1] * 0.5, thick.size[1] * 0.9):
                for x in (fold - BLEED + 0.5, fold, fold + BLEED - 0.5):
                    assert any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for kind, b, _ in sheet.marks if kind == "fill"), \
                        (theme, fold, x, y)


def test_the_back_lists_only_sizes_the_book_has_and_says_nothing_twice(write_config, tmp_path):
    config = write_config("title: T\npage: 6x9\ncover:\n  blurb: Every puzzle has exactly one solution, reached by "
                          "logic alone.\nsections:\n  - variant: sudoku\n    size: [4, 6, 9]\n    count: 2\n"
                          "    difficulty: easy\n", "back")
    from bookgen.layout.cover import cover_content

    book = load_book(config)
    build(book, tmp_path)
    import json
    data = json.loads((tmp_path / "back.json").read_text())
    sizes = sorted({p["size"] for p in data["puzzles"]})
    text = PdfReader(str(tmp_path / "back-cover.pdf")).pages[0].extract_text()
    listed = re.search(r"Sudoku ([\d×, ]+) puzzles", text).group(1)
    assert sorted(int(n) for n in re.findall(r"(\d+)×", listed)) == sizes and len(sizes) == 2
    assert text.count("exactly one solution") == 1


def test_a_cover_image_below_300_dpi_is_refused_where_it_is_named(write_config, tmp_path):
    from PIL import Image

    from bookgen.config import ConfigError

    Image.new("RGB", (600, 400), (200, 120, 40)).save(tmp_path / "low.png")
    Image.new("RGB", (1800, 1300), (30, 90, 160)).save(tmp_path / "sharp.jpg")
    text = ("title: T\npage: 6x9\ncover:\n  theme: bold\n  image: {image}\nsections:\n"
            "  - variant: sudoku\n    size: 4\n    count: 2\n    difficulty: easy\n")
    try:
        load_book(write_config(text.format(image="low.png"), "low"))
    except ConfigError as exc:
        assert re.search(r"low\.yaml:5:10: cover image .*low\.png is 600 × 400 pixels, \d+ dpi .* needs 300 dpi", str(exc))
    else:
        raise AssertionError("a 600-pixel image passed")
    book = load_book(write_config(text.format(image="sharp.jpg"), "sharp"))
    build(book, tmp_path / "out")
    page = PdfReader(str(tmp_path / "out" / "sharp-cover.pdf")).pages[0]
    assert page["/Resources"]["/XObject"]  # the picture is on the front


def test_an_earlier_volume_with_the_same_isbn_is_warned_about(write_config, tmp_path):
    vol = ("title: Vol {n}\npage: 6x9\nseed: {n}\nimprint: {{isbn: 979-8-12345-678-1}}\n{extra}sections:\n"
           "  - variant: sudoku\n    size: 4\n    count: 2\n    difficulty: easy\n")
    first = write_config(vol.format(n=1, extra=""), "vol1")
    assert runner.invoke(app, ["build", str(first), "--out", str(first.parent)]).exit_code == 0
    second = write_config(vol.format(n=2, extra="exclude: vol1.json\n"), "vol2")
    result = runner.invoke(app, ["build", str(second), "--out", str(tmp_path / "two")])
    assert result.exit_code == 0
    assert "warning: exclude vol1.json: that volume has the same ISBN as this book" in result.output
    other = write_config(vol.format(n=3, extra="exclude: vol1.json\n").replace("678-1", "679-8"), "vol3")
    third = runner.invoke(app, ["build", str(other), "--out", str(tmp_path / "three")])
    assert third.exit_code == 0 and "same ISBN" not in third.output


# ----- #26 A10: every printed config text measured where it prints ----------------------------
def test_imprint_fields_and_names_in_how_to_headings_are_measured(write_config):
    """A 1,990-character edition once ran the copyright page off its top; a 26-character
    name ran "How to play {name}" 70-95 pt past a German large-print 6x9 page."""
    from bookgen.config import ConfigError

    text = ("title: T\npage: 6x9\nlarge_print: true\nlanguage: de\n"
            "imprint: {{edition: {edition}, publisher: Verlag}}\nnames: {{kenken: {name}}}\n"
            "sections:\n  - variant: kenken\n    size: 4\n    count: 2\n    difficulty: easy\n")
    try:
        load_book(write_config(text.format(edition="Erste Auflage " * 142, name="Rechenrätselquadratkästchen"), "de"))
    except ConfigError as exc:
        message = str(exc)
        assert re.search(r"de\.yaml:5:20: edition is too long to print on the copyright page", message), message
        assert re.search(r"de\.yaml:6:17: name is too long to print in the heading \u201cSo spielt man", message), message
    else:
        raise AssertionError("an edition of 2,000 characters passed")
    load_book(write_config(text.format(edition="Erste Auflage", name="Rechenrätsel"), "ok"))


def test_a_rule_box_names_the_section_and_the_puzzle():
    from bookgen.layout.geometry import reminder_name
    from bookgen.variants.registry import get_variant

    kenken = get_variant("kenken")
    assert reminder_name("KenKen (addition)", "Calcudoku", kenken) == "KenKen (addition)"
    assert reminder_name("Calcudoku 5×5", "Calcudoku", kenken) == "Calcudoku 5×5"
    assert reminder_name("Warm-up", "Calcudoku", kenken) == "Warm-up (Calcudoku)"
