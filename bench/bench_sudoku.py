"""Benchmark Sudoku generation against Simon Tatham's Solo, and grade Solo's puzzles.

Run as ``python bench/bench_sudoku.py [--count N] [--grade N] [--levels easy,hard] [--x]``.

1. Speed: for each of our levels, one 9x9 puzzle of ours, then one of Solo's
   at the matching level (``sgt-solo --generate 1 --time-generation``),
   alternating, so both see the same machine load; both sides count CPU time
   (Tatham's ``--time-generation`` reports ``clock()``, ours is ``time.process_time``), so
   other work on a shared machine inflates neither. Prints the median ms per
   puzzle of each and the ratio ours / Solo's.
2. Grades: generates ``--grade`` puzzles at each of Solo's six levels
   (``--save`` writes their game descriptions), grades them with our ladder
   and prints how many land at each of our levels.

Solo's levels: t Trivial, b Basic, i Intermediate, a Advanced, e Extreme,
u Unreasonable. Without the ``sgt-puzzles`` package both parts are skipped
with a note and only our own figures are printed.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tatham import grade_table, saved_descriptions  # noqa: E402

from bookgen.core.difficulty import LEVELS, Level  # noqa: E402
from bookgen.core.rng import derive_seed, rng_for  # noqa: E402
from bookgen.core.types import Puzzle  # noqa: E402
from bookgen.variants.sudoku import SUDOKU  # noqa: E402

SOLO = "/usr/games/sgt-solo"
SOLO_LEVELS = {"t": "Trivial", "b": "Basic", "i": "Intermediate", "a": "Advanced", "e": "Extreme",
               "u": "Unreasonable"}
# Which Solo level each of ours is timed against (the best match in the grade table).
MATCH = {Level.EASY: "b", Level.MEDIUM: "i", Level.HARD: "e", Level.EXPERT: "u"}


def solo_params(level: str, diagonal: bool) -> str:
    return f"3x3{'x' if diagonal else ''}d{level}"


def solo_time(level: str, diagonal: bool) -> float:
    """Seconds Solo reports for generating one puzzle at ``level``."""
    out = subprocess.run([SOLO, "--generate", "1", "--time-generation", solo_params(level, diagonal)],
                         capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def ours_time(level: Level, diagonal: bool, index: int) -> float:
    rules = SUDOKU.parse_rules({"diagonal": diagonal}, 9)
    rng = rng_for(derive_seed(2026, 90 + int(level) + (10 if diagonal else 0), index))
    t0 = time.process_time()
    SUDOKU.generate(9, rules, level, rng)
    return time.process_time() - t0


def parse_desc(desc: str, n: int = 9) -> tuple[str, ...]:
    """Solo's game description (``b7a2d4c5_1_6...``: letters skip empty cells) as givens rows."""
    cells: list[str] = []
    for token in re.findall(r"[a-z]|\d+|_", desc):
        if token == "_":
            continue
        if token.isdigit():
            cells.append(token)
        else:
            cells += ["."] * (ord(token) - ord("a") + 1)
    if len(cells) != n * n:
        raise ValueError(f"description gives {len(cells)} cells, not {n * n}")
    return tuple("".join(cells[r * n:(r + 1) * n]) for r in range(n))


def solo_puzzles(level: str, count: int, diagonal: bool) -> list[tuple[str, ...]]:
    """``count`` of Solo's 9x9 puzzles at ``level``, as givens rows."""
    return [parse_desc(d) for d in saved_descriptions(SOLO, solo_params(level, diagonal), count)]


def speed(levels: list[Level], count: int, diagonal: bool, have_solo: bool) -> None:
    kind = "Sudoku X 9x9" if diagonal else "Sudoku 9x9"
    print(f"{kind}: median CPU ms per puzzle, one process, {count} each, alternating ours / Solo's")
    print(f"{'level':<8} {'ours':>9} {'Solo':>14} {'Solo ms':>9} {'ratio':>7}")
    for level in levels:
        ours, theirs = [], []
        for i in range(count):
            ours.append(ours_time(level, diagonal, i) * 1000)
            if have_solo:
                theirs.append(solo_time(MATCH[level], diagonal) * 1000)
        mo = statistics.median(ours)
        if theirs:
            mt = statistics.median(theirs)
            ratio = f"{mo / mt:7.1f}" if mt > 0 else f"{'inf':>7}"
            print(f"{level.key:<8} {mo:9.1f} {SOLO_LEVELS[MATCH[level]]:>14} {mt:9.2f} {ratio}", flush=True)
        else:
            print(f"{level.key:<8} {mo:9.1f} {'-':>14} {'-':>9} {'-':>7}", flush=True)


def grades(count: int, diagonal: bool) -> None:
    rules = SUDOKU.parse_rules({"diagonal": diagonal}, 9)
    blank = tuple("." * 9 for _ in range(9))
    grade_table(f"Our grade of {count} of Solo's {'Sudoku X ' if diagonal else ''}9x9 puzzles per Solo level",
                "Solo level", SOLO_LEVELS,
                lambda key: [Puzzle("sudoku", 9, rules, givens, blank) for givens in solo_puzzles(key, count, diagonal)],
                SUDOKU.grade)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=15, help="puzzles per level for the speed table")
    ap.add_argument("--grade", type=int, default=20, help="Solo puzzles per level to grade (0: skip)")
    ap.add_argument("--levels", default=",".join(lv.key for lv in LEVELS))
    ap.add_argument("--x", action="store_true", help="Sudoku X (diagonals) instead of plain Sudoku")
    args = ap.parse_args()
    have_solo = shutil.which(SOLO) is not None
    if not have_solo:
        print(f"note: {SOLO} not found (Debian package sgt-puzzles): Solo's figures and the grade "
              "table are skipped\n")
    speed([Level.parse(x) for x in args.levels.split(",")], args.count, args.x, have_solo)
    if have_solo and args.grade:
        grades(args.grade, args.x)


if __name__ == "__main__":
    main()
