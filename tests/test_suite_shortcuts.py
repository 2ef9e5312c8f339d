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


def test_a_kept_worked_example_is_the_one_the_plain_function_makes():
    import bookgen.book as book_module

    kept = book_module.worked_example
    if not hasattr(kept, "plain"):
        pytest.fail("tests/conftest.py no longer keeps worked examples: drop this test with it")
    for seed, variant, rules, printed in ((7, "takuzu", {}, ()), (3, "kenken", {"ops": ["+"], "show_ops": True}, (4,))):
        first = kept(seed, variant, rules, printed)
        assert first == kept.plain(seed, variant, rules, printed)
        assert kept(seed, variant, dict(reversed(rules.items())), list(printed)) is first  # the same key
    assert kept(8, "takuzu", {}) == kept.plain(8, "takuzu", {}) != kept(7, "takuzu", {})  # another seed, another


def test_no_worked_example_is_kept_or_read_while_a_test_patches(monkeypatch):
    from types import SimpleNamespace

    import bookgen.book as book_module

    kept = book_module.worked_example
    real = kept(9, "takuzu", {})
    monkeypatch.setattr(book_module, "_teaching_example", lambda variant, size, *rest: SimpleNamespace(size=size))
    assert kept(9, "takuzu", {}) == SimpleNamespace(size=real.size)  # the plain function, as patched
    assert kept(10, "takuzu", {}) == SimpleNamespace(size=real.size)
    monkeypatch.undo()
    assert kept(9, "takuzu", {}) is real
    assert kept(10, "takuzu", {}) == kept.plain(10, "takuzu", {})  # the stand-in was not kept
