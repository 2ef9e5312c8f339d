"""The suite's own shortcuts (tests/conftest.py) give what the plain way gives."""

from __future__ import annotations

import pytest
from pypdf import PdfReader


def test_reading_each_pdf_font_once_extracts_the_same_text(tiny_built, monkeypatch):
    import pypdf._page as page_module

    shortcut = page_module.Font.from_font_resource
    if not hasattr(shortcut, "plain"):
        pytest.fail("tests/conftest.py no longer keeps pypdf's fonts: drop this test with it")
    pdf, _ = tiny_built
    # every page but the two how-to pages (two thirds of the book's text, read the plain way at a
    # quarter of a second): the same two fonts on five pages, the pages before and after them
    pages = [0, 1, 2, 5, 6]
    reader = PdfReader(str(pdf))
    kept = [reader.pages[n].extract_text() for n in pages]
    monkeypatch.setattr(page_module.Font, "from_font_resource", shortcut.plain)
    reader = PdfReader(str(pdf))
    plain = [reader.pages[n].extract_text() for n in pages]
    assert "How to play Binairo" in plain[2] and plain[3].startswith("Puzzle 1") and "Answers" in plain[4]
    assert kept == plain
