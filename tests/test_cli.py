"""The command line, end to end: build, check, exit codes, determinism, the PDF."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from bookgen.cli import app

runner = CliRunner()


def _build(config, out, *extra):
    return runner.invoke(app, ["build", str(config), "--out", str(out), "--quiet", *extra])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The tiny book, built once with one worker and once with two."""
    from tests.conftest import TINY

    base = tmp_path_factory.mktemp("built")
    config = base / "tiny.yaml"
    config.write_text(TINY, encoding="utf-8")
    one, two = base / "one", base / "two"
    r1 = runner.invoke(app, ["build", str(config), "--out", str(one), "--jobs", "1"])  # not quiet: its summary
    r2 = _build(config, two, "--jobs", "2")
    assert r1.exit_code == 0, r1.output
    assert r2.exit_code == 0, r2.output
    (base / "summary.txt").write_text(r1.output, encoding="utf-8")
    return config, one, two


def test_build_writes_pdf_and_json_named_after_config(built):
    _, one, _ = built
    assert sorted(p.name for p in one.iterdir()) == ["tiny.json", "tiny.pdf"]
    summary = (one.parent / "summary.txt").read_text(encoding="utf-8")
    last = summary.strip().splitlines()[-1]  # the summary names the pages and puzzles it wrote
    pages = len(PdfReader(str(one / "tiny.pdf")).pages)
    assert re.search(rf": {pages} pages, 5 puzzles in \d+\.\d s$", last), last


def test_output_is_byte_identical_for_any_jobs(built):
    _, one, two = built
    assert (one / "tiny.pdf").read_bytes() == (two / "tiny.pdf").read_bytes()
    assert (one / "tiny.json").read_bytes() == (two / "tiny.json").read_bytes()


def test_seed_override_changes_the_book(built, tmp_path):
    config, one, _ = built
    result = _build(config, tmp_path, "--seed", "7", "--jobs", "1")
    assert result.exit_code == 0
    a = json.loads((one / "tiny.json").read_text())
    b = json.loads((tmp_path / "tiny.json").read_text())
    assert b["seed"] == 7 and a["seed"] == 11
    assert [p["solution"] for p in a["puzzles"]] != [p["solution"] for p in b["puzzles"]]


def test_json_follows_the_spec(built):
    _, one, _ = built
    text = (one / "tiny.json").read_text()
    data = json.loads(text)
    assert text == json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert data["format"] == "bookgen-book/1" and data["generator"].startswith("bookgen ")
    assert data["title"] == "Tiny Test Book"
    puzzles = data["puzzles"]
    assert [p["number"] for p in puzzles] == [1, 2, 3, 4, 5]
    assert [p["variant"] for p in puzzles] == ["takuzu"] * 3 + ["tango"] * 2
    assert [p["difficulty"] for p in puzzles] == ["easy", "medium", "hard", "easy", "expert"]
    common = {"number", "variant", "size", "rules", "difficulty", "score", "techniques", "seed",
              "givens", "solution", "page"}
    for p in puzzles:
        assert common <= set(p)
        assert len(p["givens"]) == p["size"] == len(p["solution"])
    assert all("edges" in p for p in puzzles[3:]) and all("edges" not in p for p in puzzles[:3])
    reader = PdfReader(str(one / "tiny.pdf"))
    for p in puzzles:
        page_text = reader.pages[p["page"] - 1].extract_text()
        assert f"Puzzle {p['number']}" in page_text


def test_pdf_fonts_embedded_and_structure(built):
    _, one, _ = built
    reader = PdfReader(str(one / "tiny.pdf"))
    fonts = set()
    for page in reader.pages:
        resources = page.get("/Resources") or {}
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            assert descriptor is not None, font
            descriptor = descriptor.get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), font
            fonts.add(str(font["/BaseFont"]))
    assert fonts and all("DejaVuSans" in f for f in fonts)
    texts = [page.extract_text() for page in reader.pages]
    assert "Tiny Test Book" in texts[0]
    assert any("How to play Binairo" in t for t in texts) and any("How to play Tango" in t for t in texts)
    assert any("Techniques you" in t for t in texts)
    assert "Answers" in texts[-1]
    assert "2" not in texts[1].split()  # the copyright page carries no number, as published books
    for number, text in enumerate(texts[2:], start=3):  # page numbers on every page after those
        assert str(number) in text.split()


def test_check_passes_then_fails_on_tampering(built, tmp_path):
    _, one, _ = built
    ok = runner.invoke(app, ["check", str(one / "tiny.json")])
    assert ok.exit_code == 0 and "all 5 puzzles check out" in ok.output
    data = json.loads((one / "tiny.json").read_text())
    data["puzzles"][0]["givens"] = ["." * 6] * 6
    data["puzzles"][1]["difficulty"] = "expert"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 1
    assert "puzzle 1: has more than one solution" in result.output
    assert "puzzle 2: grades medium, but is labelled 'expert'" in result.output


def test_check_rejects_non_json(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("{ not json")
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 1 and "not valid JSON" in result.output
    missing = runner.invoke(app, ["check", str(tmp_path / "none.json")])
    assert missing.exit_code == 1 and "no such file" in missing.output


def test_config_error_exit_code_and_nothing_written(write_config, tmp_path):
    config = write_config("title: T\nsections:\n  - variant: takuzu\n    size: 7\n    count: 2\n")
    out = tmp_path / "out"
    result = _build(config, out)
    assert result.exit_code == 2
    assert "book.yaml:4:11:" in result.output and "Traceback" not in result.output
    assert not out.exists() or not any(out.iterdir())


def test_previous_book_survives_a_failed_build(built, write_config, tmp_path):
    config, one, _ = built
    out = tmp_path / "keep"
    shutil.copytree(one, out)  # a book built before (the shared one: building it again checks nothing more)
    before = (out / "tiny.pdf").read_bytes()
    broken = write_config("title: T\nsections: 3\n", "tiny")
    assert _build(broken, out).exit_code == 2
    assert (out / "tiny.pdf").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["tiny.json", "tiny.pdf"]
