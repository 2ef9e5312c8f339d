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
    loaded = _modules_after(f"import sys\nsys.argv = ['bookgen', 'solve', {str(puzzle)!r}]\n"
                            "from bookgen.cli import app\ntry:\n    app()\nexcept SystemExit as exc:\n"
                            "    assert exc.code == 0, exc.code")
    assert "bookgen.puzzletext" in loaded  # the puzzle was read and solved here
    heavy = {m for m in loaded if m.split(".")[0] in ("reportlab", "PIL", "yaml")
             or m in ("bookgen.book", "bookgen.config") or m.startswith("bookgen.layout")}
    assert not heavy, f"bookgen solve loads {sorted(heavy)}"
