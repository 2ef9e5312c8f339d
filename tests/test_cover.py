"""The full-wrap cover: KDP sizes, PDF boxes, the barcode area, the spine, safe zones."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from bookgen.book import build
from bookgen.config import ConfigError, load_book
from bookgen.core.difficulty import Level
from bookgen.core.rng import derive_seed, rng_for
from bookgen.layout.cover import (
    FOLD_CLEAR, MIN_TYPE, SAFE, CoverContent, cover_geometry, inset, render_cover, spine_size,
)
from bookgen.layout.geometry import trim_for
from bookgen.variants.registry import get_variant

# KDP's cover calculator, 6 x 9 in trim: (pages, paper) -> (full width, height) in inches.
# Width = 0.125 + 6 + pages x thickness + 6 + 0.125; height = 9 + 2 x 0.125.
KDP_6X9 = {
    (24, "white"): (12.304048, 9.25), (100, "white"): (12.4752, 9.25), (400, "white"): (13.1508, 9.25),
    (24, "cream"): (12.31, 9.25), (100, "cream"): (12.5, 9.25), (400, "cream"): (13.25, 9.25),
}
LONG = ("Two hundred logic puzzles, from a gentle warm-up to grids that will keep an expert busy on a "
        "long train ride. ") * 12


def _content(title="Logic Grids: A Very Long Title for a Puzzle Book, Volume 12", blurb=LONG, size=8):
    variant = get_variant("takuzu")
    art = variant.generate(size, variant.parse_rules({}, size), Level.EASY, rng_for(derive_seed(1, 0, 0)))
    inside = ("24 Binairo 8×8 puzzles, easy to expert", "Answers to every puzzle")
    return CoverContent(title, "Binairo, Tango and Calcudoku", "A. Puzzler", blurb, inside, art, (0.1, 0.3, 0.5))


def _boxes(path: Path):
    page = PdfReader(str(path)).pages[0]
    return ([float(v) for v in page.mediabox], [float(v) for v in page.trimbox],
            [float(v) for v in page.bleedbox])


@pytest.mark.parametrize("pages,paper", sorted(KDP_6X9))
def test_cover_size_and_boxes_match_kdp(tmp_path, pages, paper):
    geo = cover_geometry(trim_for("6x9"), pages, paper)
    path = tmp_path / "cover.pdf"
    render_cover(path, geo, _content())
    media, trim, bleed = _boxes(path)
    width, height = KDP_6X9[(pages, paper)]
    assert abs(media[2] - width * 72) <= 0.5 and abs(media[3] - height * 72) <= 0.5
    assert media[:2] == [0, 0] and bleed == media
    assert all(abs(a - b) <= 0.5 for a, b in zip(trim, (9, 9, width * 72 - 9, height * 72 - 9)))


def _inside(box, area, slack=1e-6):
    return (box[0] >= area[0] - slack and box[1] >= area[1] - slack and box[2] <= area[2] + slack
            and box[3] <= area[3] + slack)


def _overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


WIDE = {"width": "10in", "height": "4in"}
TINY = {"width": "3in", "height": "3.5in"}


@pytest.mark.parametrize("pages,trim", [(24, "6x9"), (78, "6x9"), (79, "6x9"), (400, "letter"), (828, "8x10"),
                                        (120, WIDE), (24, TINY)], ids=str)
def test_cover_marks_keep_out_of_the_barcode_and_inside_the_safe_zones(tmp_path, pages, trim):
    geo = cover_geometry(trim_for(trim), pages, "white")
    small = isinstance(trim, dict)
    sheet = render_cover(tmp_path / "c.pdf", geo, _content(blurb="A short blurb." if small else LONG))
    assert sheet.marks
    for kind, box, text in sheet.marks:
        assert not _overlaps(box, geo.barcode), (kind, text)
    texts = [(box, text) for kind, box, text in sheet.marks if kind == "text"]
    spine = [(box, text) for box, text in texts if _overlaps(box, geo.spine_box)]
    panels = [inset(geo.back, SAFE), inset(geo.front, SAFE)]
    for box, text in texts:
        if (box, text) in spine:
            continue
        assert any(_inside(box, p) for p in panels), text
    assert sum(text.startswith("Logic Grids") for _, text in texts) >= 2  # front and back
    assert any("A. Puzzler" == text for _, text in texts)
    if pages < 79 or spine_size(geo, _content()) < MIN_TYPE:  # (79 pages of white paper: 3.3 pt)
        assert spine == []
    else:
        (box, text), = spine
        x0, y0, x1, y1 = geo.spine_box
        assert "Logic Grids" in text and "A. Puzzler" in text
        assert box[0] >= x0 + FOLD_CLEAR - 1e-6 and box[2] <= x1 - FOLD_CLEAR + 1e-6
        assert abs((box[0] + box[2]) / 2 - (x0 + x1) / 2) < 0.01  # centred across the spine
        assert abs((box[1] + box[3]) / 2 - (y0 + y1) / 2) < 0.01  # and along it
        assert box[1] >= y0 + SAFE and box[3] <= y1 - SAFE
    # the title stays on the band, where its colour reads
    band = [box for kind, box, _ in sheet.marks if kind == "fill"][0]
    assert all(_inside(box, band) for box, text in texts if text.startswith("Logic Grids") and
               not _overlaps(box, geo.spine_box))
    # the front art: a puzzle drawn large on the front
    if trim == TINY:
        return
    (art,) = [box for kind, box, _ in sheet.marks if kind == "art"]
    assert _inside(art, inset(geo.front, SAFE))
    assert art[2] - art[0] > (geo.trim.height * 0.3 if small else geo.trim.width * 0.5)


COVERED = """\
title: Covered Book
subtitle: Thirty puzzles
author: A. Puzzler
seed: 12
page: 6x9
bleed: true
cover:
  paper: cream
  colour: "#7a1f1f"
  sample: 2
  blurb: |
    A short blurb for the back.
sections:
  - variant: kenken
    size: 4
    count: 30
    difficulty: easy
"""


def test_build_writes_a_deterministic_cover_with_embedded_fonts(write_config, tmp_path):
    path = write_config(COVERED, "covered")
    book = load_book(path)
    build(book, tmp_path / "a", workers=1)
    build(book, tmp_path / "b", workers=2)
    cover = tmp_path / "a" / "covered-cover.pdf"
    assert cover.read_bytes() == (tmp_path / "b" / "covered-cover.pdf").read_bytes()
    pages = len(PdfReader(str(tmp_path / "a" / "covered.pdf")).pages)
    media, _, _ = _boxes(cover)
    assert abs(media[2] - (0.25 + 12 + pages * 0.0025) * 72) <= 0.5
    reader = PdfReader(str(cover))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    for font in fonts.values():
        font = font.get_object()
        descriptor = (font.get("/FontDescriptor") or font["/DescendantFonts"][0].get_object()["/FontDescriptor"])
        assert "/FontFile2" in descriptor.get_object()
    text = reader.pages[0].extract_text()
    assert "Covered Book" in text and "A short blurb" in text and "30 Calcudoku 4×4 puzzles, easy" in text


def test_cover_mistakes_are_located(write_config):
    text = COVERED.replace("paper: cream", "paper: glossy").replace("sample: 2", "sample: 31") \
        .replace('colour: "#7a1f1f"', "colour: red").replace("cover:", "layout: worksheet\ncover:")
    with pytest.raises(ConfigError) as info:
        load_book(write_config(text, "bad"))
    lines = [str(i).split(":", 1)[1] for i in info.value.issues]
    assert any(l.startswith("8:1: a cover is for a bound paperback") for l in lines), lines
    assert any(l.startswith("9:10: cover paper must be one of white, cream, got 'glossy'") for l in lines), lines
    assert any(l.startswith("10:11: cover colour must be a hex colour") for l in lines), lines
    assert any(l.startswith("11:11: cover sample must be a puzzle number from 1 to 30, got 31") for l in lines), lines


def test_a_blurb_too_long_for_the_back_is_refused_not_cut(tmp_path, write_config):
    from bookgen.layout.cover import BLURB_FLOOR, CoverError, blurb_layout

    small = trim_for({"width": "4in", "height": "6in"})
    geo = cover_geometry(small, 100, "white")
    with pytest.raises(CoverError, match=r"shorten it to about \d+ characters"):
        render_cover(tmp_path / "c.pdf", geo, _content(blurb=LONG))
    # the config check says so first, at the blurb, and what it passes always prints
    text = COVERED.replace("page: 6x9", "page: {width: 4in, height: 6in}").replace(
        "A short blurb for the back.", LONG[:1200])
    with pytest.raises(ConfigError) as info:
        load_book(write_config(text, "long"))
    (issue,) = info.value.issues
    assert (issue.line, issue.col) == (11, 10) and "shorten it to about" in issue.message
    fit = int(issue.message.split("about ")[1].split(" ")[0])
    assert blurb_layout(small, LONG[:fit - 60]) is not None
    laid = blurb_layout(small, LONG[:fit - 60])
    assert laid[0] >= BLURB_FLOOR
    render_cover(tmp_path / "ok.pdf", geo, _content(blurb=LONG[:fit - 60]))


def test_a_blurb_the_fonts_cannot_print_is_a_located_error(write_config):
    text = COVERED.replace("A short blurb for the back.", "Sixty puzzles \u0627\u0644\u0639\u0631\u0628\u064a\u0629")
    with pytest.raises(ConfigError) as info:
        load_book(write_config(text, "rtl"))
    (issue,) = info.value.issues
    assert (issue.line, issue.col) == (11, 10) and issue.message.startswith("cover blurb:")
