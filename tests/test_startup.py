"""Start-up cost of the ``bookgen`` command: what importing the CLI may pull in.

Every command (and every CLI subprocess the suite spawns) pays for what
``bookgen.cli`` imports before typer even parses the line, so the heavy
modules are imported inside the commands that use them. These tests run a
fresh interpreter and look at ``sys.modules``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.sax.saxutils as saxutils
from pathlib import Path

import pytest

from bookgen.export.svg import escape, quoteattr

ROOT = Path(__file__).resolve().parents[1]


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code`` (with this tree first on the path)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, env=env, cwd=ROOT, check=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def _modules_after_command(args: list[str]) -> set[str]:
    """The modules a fresh interpreter holds after ``bookgen ARGS`` ran and exited 0."""
    return _modules_after(f"import sys\nsys.argv = ['bookgen', *{args!r}]\n"
                          "from bookgen.cli import app\ntry:\n    app()\nexcept SystemExit as exc:\n"
                          "    assert exc.code == 0, exc.code")


def _drawing_stack(loaded: set[str]) -> set[str]:
    """The drawing, YAML and book-building modules among ``loaded``."""
    return {m for m in loaded if m.split(".")[0] in ("reportlab", "PIL", "yaml")
            or m in ("bookgen.book", "bookgen.config") or m.startswith("bookgen.layout")}


@pytest.mark.parametrize("text", ["", "plain", "a&b<c>d", 'say "hi"', "it's", "\"both\" 'quotes'",
                                  "tab\there\nline\rcr", "&amp; already", "Ж \u2600 \u263e"])
def test_svg_escaping_equals_the_standard_library(text):
    assert escape(text) == saxutils.escape(text)
    assert quoteattr(text) == saxutils.quoteattr(text)


def test_importing_the_cli_pulls_in_no_network_or_drawing_stack():
    loaded = _modules_after("import bookgen.cli")
    assert "bookgen.cli" in loaded
    heavy = {"ssl", "http.client", "urllib.request", "xml.sax.saxutils"} & loaded
    assert not heavy, f"import bookgen.cli loads {sorted(heavy)}"


def test_solving_a_typed_puzzle_loads_no_drawing_or_config_stack(tmp_path):
    """``bookgen solve`` reads and solves: reportlab, PIL, yaml and the book/config modules stay out."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(". . . . 1 .\n. 0 . 0 . .\n. . 1 . . .\n. 0 . . 0 .\n. . . . . 0\n. . 1 . 1 .\n")
    loaded = _modules_after_command(["solve", str(puzzle)])
    assert "bookgen.puzzletext" in loaded  # the puzzle was read and solved here
    heavy = _drawing_stack(loaded)
    assert not heavy, f"bookgen solve loads {sorted(heavy)}"


# one 6x6 Takuzu entry as 'bookgen build' writes it (seed 3, easy)
TAKUZU_ENTRY = {
    "variant": "takuzu", "number": 1, "size": 6, "rows": 6, "cols": 6, "difficulty": "easy", "rating": 1.5,
    "rules": {"max_run": 2, "unique_lines": True},
    "givens": [".11...", "...1.1", "....0.", "1..1..", "1...1.", ".1.1.."],
    "solution": ["011010", "100101", "011001", "100110", "101010", "010101"],
}


def test_checking_a_book_json_loads_no_drawing_or_config_stack(tmp_path):
    """``bookgen check`` reads JSON and solves: reportlab, PIL, yaml, layout and the book/config modules stay out."""
    book = tmp_path / "small.json"
    book.write_text(json.dumps({"format": "bookgen-book/1", "puzzles": [TAKUZU_ENTRY]}))
    loaded = _modules_after_command(["check", str(book)])
    assert "bookgen.variants.takuzu" in loaded  # the puzzle was read and checked here
    heavy = _drawing_stack(loaded)
    assert not heavy, f"bookgen check loads {sorted(heavy)}"
