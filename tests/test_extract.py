"""Text beyond the Basic Multilingual Plane: printed and copied back out of the PDF as typed,
or refused as a located config error naming the character (never a box, never a wrong letter)."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from bookgen.book import build
from bookgen.config import ConfigError, load_book
from bookgen.layout.fonts import FACES, REPORTLAB_CMAP, glyphs_of, to_unicode_cmap

DOUBLE_A = "\U0001D538"  # MATHEMATICAL DOUBLE-STRUCK CAPITAL A: in DejaVu Sans, not in Charis or Andika
SMILE = "\U0001F642"  # SLIGHTLY SMILING FACE: in none of the bundled fonts


def test_the_cmap_is_reportlabs_below_u_ffff_and_a_surrogate_pair_above():
    subset = [0, 0x41, 0xE9, 0x20AC, 0xFFFD] + list(range(0x100, 0x17B))
    assert to_unicode_cmap("F", subset) == REPORTLAB_CMAP("F", subset)
    assert "<01> <D835DD38>" in to_unicode_cmap("F", [0x41, 0x1D538]).splitlines()
    assert "<1D538>" in REPORTLAB_CMAP("F", [0x41, 0x1D538])  # the odd-length hex this replaces


def test_the_fonts_coverage_is_what_these_tests_assume():
    assert ord(DOUBLE_A) in glyphs_of("dejavu") and ord(DOUBLE_A) not in glyphs_of("charis")
    assert all(ord(SMILE) not in glyphs_of(face) for face in FACES)


def test_a_title_beyond_u_ffff_extracts_as_typed(tmp_path):
    config = tmp_path / "math.yaml"
    config.write_text(f"title: {DOUBLE_A}lgebra Grids\nseed: 3\nsections:\n"
                      f"  - {{variant: takuzu, size: 6, count: 1, title: Warm-up {DOUBLE_A}}}\n", encoding="utf-8")
    pdf, _ = build(load_book(config), tmp_path / "out", workers=1)[:2]
    reader = PdfReader(str(pdf))
    text = "".join(page.extract_text() for page in reader.pages)
    assert f"{DOUBLE_A}lgebra Grids" in text and f"Warm-up {DOUBLE_A}" in text
    assert "\x00" not in text and "\ufffd" not in text
    assert reader.metadata.title == f"{DOUBLE_A}lgebra Grids"


@pytest.mark.parametrize("font,text,char", [("dejavu", f"Smile {SMILE}", "U+1F642"),
                                            ("charis", f"{DOUBLE_A}lgebra", "U+1D538")])
def test_a_character_no_font_of_the_face_draws_is_a_located_error(tmp_path, font, text, char):
    config = tmp_path / "book.yaml"
    config.write_text(f"title: {text}\nfont: {font}\nsections:\n  - {{variant: takuzu, size: 6, count: 1}}\n",
                      encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_book(config)
    message = str(caught.value.issues[0])
    assert message.startswith(f"{config}:1:8: ") and char in message and "empty box" in message, message
