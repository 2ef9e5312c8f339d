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
