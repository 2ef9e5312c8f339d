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
    kept = [page.extract_text() for page in PdfReader(str(pdf)).pages]
    monkeypatch.setattr(page_module.Font, "from_font_resource", shortcut.plain)
    plain = [page.extract_text() for page in PdfReader(str(pdf)).pages]
    assert len(plain) > 3 and "Binairo" in "".join(plain)
    assert kept == plain
