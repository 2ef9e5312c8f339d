"""Shared pieces of the benches that compare with Simon Tatham's puzzles (Debian ``sgt-puzzles``).

Every ``bench_*`` script that grades Tatham's puzzles does the same thing:
ask his generator for ``count`` game IDs at each of his levels, turn each
description into one of our ``Puzzle`` objects, grade it with our ladder and
count how many land at each of our levels (or stay stuck). This module holds
that loop and the table it prints, so each bench only says how to read its
game's description.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path
from typing import Callable, Mapping

from bookgen.core.difficulty import LEVELS
from bookgen.core.types import Grade, Puzzle


def saved_descriptions(binary: str, params: str, count: int) -> list[str]:
    """Game descriptions of ``count`` puzzles of ``binary`` with ``params``, read from ``--save`` files."""
    with tempfile.TemporaryDirectory(prefix="bench-tatham-") as tmp:
        subprocess.run([binary, "--generate", str(count), "--save", f"{tmp}/p", params],
                       capture_output=True, check=True)
        out = []
        for path in sorted(Path(tmp).iterdir()):
            m = re.search(r"^DESC\s*:\d+:(\S+)$", path.read_text(), re.M)
            if m:
                out.append(m.group(1))
        return out


def generated_descriptions(binary: str, params: str, count: int) -> list[str]:
    """Game descriptions of ``count`` puzzles, from the ``params:desc`` game IDs ``--generate`` prints."""
    out = subprocess.run([binary, "--generate", str(count), params],
                         capture_output=True, text=True, check=True).stdout
    return [line.split(":", 1)[1] for line in out.split() if ":" in line]


def grade_row(puzzles: list[Puzzle], grade: Callable[[Puzzle], Grade]) -> tuple[dict, int]:
    """How many of ``puzzles`` grade at each of our levels, and how many our ladder can't finish."""
    row = {lv: 0 for lv in LEVELS}
    stuck = 0
    for puzzle in puzzles:
        g = grade(puzzle)
        if g.solved:
            row[g.level] += 1
        else:
            stuck += 1
    return row, stuck


def grade_table(title: str, label: str, levels: Mapping[str, str],
                puzzles: Callable[[str], list[Puzzle]], grade: Callable[[Puzzle], Grade]) -> None:
    """Print one grade-agreement table: a row per Tatham level (``levels``: his key -> name)."""
    print(f"\n{title}")
    print(f"{label:<14} " + " ".join(f"{lv.key:>7}" for lv in LEVELS) + f" {'stuck':>7}")
    for key, name in levels.items():
        row, stuck = grade_row(puzzles(key), grade)
        print(f"{name:<14} " + " ".join(f"{row[lv]:>7}" for lv in LEVELS) + f" {stuck:>7}", flush=True)
