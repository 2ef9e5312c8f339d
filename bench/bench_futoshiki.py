"""Benchmark Futoshiki generation against Simon Tatham's Unequal, and grade Unequal's puzzles.

Run as ``python bench/bench_futoshiki.py [--count N] [--grade N] [--sizes 5,7] [--levels hard,expert]``.

As ``bench_sudoku.py``: per size and level, one puzzle of ours, then one of
Unequal's at the matching level (``sgt-unequal --generate 1
--time-generation``), alternating; then ``--grade`` of Unequal's puzzles per
level, read back from ``--save`` files and graded by our ladder. Unequal's
levels: t Trivial, e Easy, k Tricky, x Extreme, r Recursive. Skipped with a
note when the ``sgt-puzzles`` package is absent.
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
from bookgen.variants.futoshiki import FUTOSHIKI, _edges  # noqa: E402

UNEQUAL = "/usr/games/sgt-unequal"
UNEQUAL_LEVELS = {"t": "Trivial", "e": "Easy", "k": "Tricky", "x": "Extreme", "r": "Recursive"}
# Which Unequal level each of ours is timed against (the best match in the grade table).
MATCH = {Level.EASY: "t", Level.MEDIUM: "k", Level.HARD: "x", Level.EXPERT: "r"}
STEP = {"U": (-1, 0), "R": (0, 1), "D": (1, 0), "L": (0, -1)}


def unequal_time(size: int, level: str) -> float:
    out = subprocess.run([UNEQUAL, "--generate", "1", "--time-generation", f"{size}d{level}"],
                         capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def ours_time(size: int, level: Level, index: int) -> float:
    rng = rng_for(derive_seed(2026, 70 + size * 10 + int(level), index))
    t0 = time.process_time()
    FUTOSHIKI.generate(size, {}, level, rng)
    return time.process_time() - t0


def parse_desc(desc: str, n: int) -> Puzzle:
    """Unequal's description: per cell its digit (0 empty) and U/R/D/L for 'larger than the
    neighbour that way', cells separated by commas."""
    cells = [c for c in desc.split(",") if c]
    if len(cells) != n * n:
        raise ValueError(f"description gives {len(cells)} cells, not {n * n}")
    givens, less = [], []
    for i, text in enumerate(cells):
        m = re.fullmatch(r"(\d+)([URDL]*)", text)
        if not m:
            raise ValueError(f"cell {i + 1}: {text!r}")
        givens.append(m.group(1) if m.group(1) != "0" else ".")
        r, c = divmod(i, n)
        for flag in m.group(2):
            dr, dc = STEP[flag]
            less.append(((r + dr) * n + c + dc, i))
    rows = tuple("".join(givens[r * n:(r + 1) * n]) for r in range(n))
    blank = tuple("." * n for _ in range(n))
    return Puzzle("futoshiki", n, {}, rows, blank, edges=_edges(less, n))


def unequal_puzzles(size: int, level: str, count: int) -> list[Puzzle]:
    return [parse_desc(d, size) for d in saved_descriptions(UNEQUAL, f"{size}d{level}", count)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=41,
                    help="puzzles per size and level for the speed table (Unequal's times are uneven: "
                         "fewer give noisy medians)")
    ap.add_argument("--grade", type=int, default=20, help="Unequal puzzles per level to grade (0: skip)")
    ap.add_argument("--sizes", default="5,7")
    ap.add_argument("--levels", default=",".join(level.key for level in LEVELS),
                    help="levels for the speed table, comma-separated (easy,medium,hard,expert)")
    args = ap.parse_args()
    try:
        levels = [Level.parse(key) for key in args.levels.split(",")]
    except ValueError as err:
        ap.error(str(err))
    have = shutil.which(UNEQUAL) is not None
    if not have:
        print(f"note: {UNEQUAL} not found (Debian package sgt-puzzles): Unequal's figures and the "
              "grade table are skipped\n")
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"Futoshiki: median CPU ms per puzzle, one process, {args.count} each, alternating ours / Unequal's")
    print(f"{'size':>4} {'level':<8} {'ours':>9} {'Unequal':>10} {'ms':>8} {'ratio':>7}")
    for size in sizes:
        for level in levels:
            if FUTOSHIKI.check_request(size, {}, level):
                continue
            ours, theirs = [], []
            for i in range(args.count):
                ours.append(ours_time(size, level, i) * 1000)
                if have:
                    theirs.append(unequal_time(size, MATCH[level]) * 1000)
            mo = statistics.median(ours)
            if theirs:
                mt = statistics.median(theirs)
                ratio = f"{mo / mt:7.1f}" if mt > 0 else f"{'inf':>7}"
                print(f"{size:>4} {level.key:<8} {mo:9.1f} {UNEQUAL_LEVELS[MATCH[level]]:>10} {mt:8.2f} {ratio}",
                      flush=True)
            else:
                print(f"{size:>4} {level.key:<8} {mo:9.1f}", flush=True)
    if have and args.grade:
        for size in sizes:
            grade_table(f"Our grade of {args.grade} of Unequal's {size}x{size} puzzles per Unequal level",
                        "Unequal level", UNEQUAL_LEVELS,
                        lambda key: unequal_puzzles(size, key, args.grade), FUTOSHIKI.grade)

if __name__ == "__main__":
    main()
