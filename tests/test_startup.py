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


# One fresh interpreter for the three tests below (a Python start and bookgen.cli's imports each
# were most of their time): it imports the CLI, then runs `bookgen solve`, then `bookgen check`,
# and lists its modules after each step. A step's heavy modules are in its list whichever step
# imported them, and the steps before it are checked clean, so each is seen as if alone.
TAKUZU_TEXT = ". . . . 1 .\n. 0 . 0 . .\n. . 1 . . .\n. 0 . . 0 .\n. . . . . 0\n. . 1 . 1 .\n"
STEPS = """
import json, sys
import bookgen.cli
loaded = {"import": sorted(sys.modules)}
for step, args in json.loads(sys.argv[1]):
    sys.argv = ["bookgen", *args]
    try:
        bookgen.cli.app()
    except SystemExit as exc:
        assert exc.code == 0, (step, exc.code)
    loaded[step] = sorted(sys.modules)
print(json.dumps(loaded))
"""


@pytest.fixture(scope="module")
def modules_after(tmp_path_factory) -> dict[str, set[str]]:
    """The modules a fresh interpreter holds after each step: "import" (``import bookgen.cli``),
    "solve" (``bookgen solve`` of a typed Takuzu), "check" (``bookgen check`` of a one-puzzle book)."""
    folder = tmp_path_factory.mktemp("startup")
    (folder / "p.txt").write_text(TAKUZU_TEXT)
    (folder / "small.json").write_text(json.dumps({"format": "bookgen-book/1", "puzzles": [TAKUZU_ENTRY]}))
    steps = [["solve", ["solve", str(folder / "p.txt")]], ["check", ["check", str(folder / "small.json")]]]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", STEPS, json.dumps(steps)], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=True).stdout
    return {step: set(names) for step, names in json.loads(out.splitlines()[-1]).items()}


def _drawing_stack(loaded: set[str]) -> set[str]:
    """The drawing, YAML and book-building modules among ``loaded``."""
    return {m for m in loaded if m.split(".")[0] in ("reportlab", "PIL", "yaml")
            or m in ("bookgen.book", "bookgen.config") or m.startswith("bookgen.layout")}


@pytest.mark.parametrize("text", ["", "plain", "a&b<c>d", 'say "hi"', "it's", "\"both\" 'quotes'",
                                  "tab\there\nline\rcr", "&amp; already", "Ж \u2600 \u263e"])
def test_svg_escaping_equals_the_standard_library(text):
    assert escape(text) == saxutils.escape(text)
    assert quoteattr(text) == saxutils.quoteattr(text)


def test_importing_the_cli_pulls_in_no_network_or_drawing_stack(modules_after):
    loaded = modules_after["import"]
    assert "bookgen.cli" in loaded
    heavy = {"ssl", "http.client", "urllib.request", "xml.sax.saxutils"} & loaded
    assert not heavy, f"import bookgen.cli loads {sorted(heavy)}"


def test_solving_a_typed_puzzle_loads_no_drawing_or_config_stack(modules_after):
    """``bookgen solve`` reads and solves: reportlab, PIL, yaml and the book/config modules stay out."""
    loaded = modules_after["solve"]
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


def test_checking_a_book_json_loads_no_drawing_or_config_stack(modules_after):
    """``bookgen check`` reads JSON and solves: reportlab, PIL, yaml, layout and the book/config modules stay out."""
    loaded = modules_after["check"]
    assert "bookgen.checking" in loaded - modules_after["solve"]  # the book was checked in this step
    assert "bookgen.variants.takuzu" in loaded
    heavy = _drawing_stack(loaded)
    assert not heavy, f"bookgen check loads {sorted(heavy)}"
