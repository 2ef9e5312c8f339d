"""Benchmark Sudoku generation against Simon Tatham's Solo, and grade Solo's puzzles.

Run as ``python bench/bench_sudoku.py [--count N] [--grade N] [--levels easy,hard] [--x | --killer]``.

1. Speed: for each of our levels, one 9x9 puzzle of ours, then one of Solo's
   at the matching level (``sgt-solo --generate 1 --time-generation``),
   alternating, so both see the same machine load; both are CPU time (Solo
   times its generator with ``clock()``), which other work on the machine
   barely moves. Prints the median ms per
   puzzle of each and the ratio ours / Solo's.
2. Grades: generates ``--grade`` puzzles at each of Solo's six levels
   (``--save`` writes their game descriptions), grades them with our ladder
   and prints how many land at each of our levels.

Solo's levels: t Trivial, b Basic, i Intermediate, a Advanced, e Extreme,
u Unreasonable. ``--x`` compares Sudoku X (Solo's ``3x3x``), ``--killer``
Killer Sudoku (Solo's ``3x3k``: its game descriptions add the cage walls and
the sums, decoded by ``parse_killer``). Without the ``sgt-puzzles`` package both parts are skipped
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
from bookgen.core.types import Cage  # noqa: E402
from bookgen.solve.latin import symbol  # noqa: E402
from bookgen.variants.killer import KILLER  # noqa: E402
from bookgen.variants.sudoku import SUDOKU  # noqa: E402

SOLO = "/usr/games/sgt-solo"
SOLO_LEVELS = {"t": "Trivial", "b": "Basic", "i": "Intermediate", "a": "Advanced", "e": "Extreme",
               "u": "Unreasonable"}
# Which Solo level each of ours is timed against (the best match in the grade table).
MATCH = {Level.EASY: "b", Level.MEDIUM: "i", Level.HARD: "e", Level.EXPERT: "u"}
KILLER_MATCH = {Level.EASY: "b", Level.MEDIUM: "a", Level.HARD: "e", Level.EXPERT: "u"}
# The variant under test: plain (diagonal False), Sudoku X (True) or Killer ("killer").
Kind = bool | str


def solo_params(level: str, diagonal: Kind) -> str:
    return f"3x3{'k' if diagonal == 'killer' else 'x' if diagonal else ''}d{level}"


def solo_time(level: str, diagonal: bool) -> float:
    """Seconds Solo reports for generating one puzzle at ``level``."""
    out = subprocess.run([SOLO, "--generate", "1", "--time-generation", solo_params(level, diagonal)],
                         capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def ours_time(level: Level, diagonal: Kind, index: int) -> float:
    variant = KILLER if diagonal == "killer" else SUDOKU
    rules = variant.parse_rules({"diagonal": diagonal is True}, 9)
    rng = rng_for(derive_seed(2026, 90 + int(level) + (10 if diagonal is True else 20 if diagonal else 0), index))
    t0 = time.process_time()  # CPU time, as Solo's --time-generation (clock()): the machine is shared
    variant.generate(9, rules, level, rng)
    return time.process_time() - t0


def desc_cells(desc: str, n: int = 9) -> list[str]:
    """Solo's grid coding (``b7a2d4c5_1_6...``: letters skip empty cells) as one entry per cell."""
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
    return cells


def parse_desc(desc: str, n: int = 9) -> tuple[str, ...]:
    """Solo's game description as givens rows."""
    cells = [c if c == "." else symbol(int(c)) for c in desc_cells(desc, n)]  # 10..16 as A..G
    return tuple("".join(cells[r * n:(r + 1) * n]) for r in range(n))


def solo_blocks(walls: str, n: int = 9) -> list[list[tuple[int, int]]]:
    """The groups of cells (Killer's cages, Jigsaw's regions) of Solo's wall coding.

    The walls are run-length coded over the internal edges, first the vertical
    ones row by row, then the horizontal ones column by column: ``_`` is an
    edge right away, a letter ``a``..``y`` that many non-edges then an edge,
    ``z`` 26 non-edges and no edge (Solo's ``spec_to_dsf``).
    """
    owner = list(range(n * n))

    def find(i: int) -> int:
        while owner[i] != i:
            owner[i] = owner[owner[i]]
            i = owner[i]
        return i

    pos = 0
    for ch in walls:
        run = 0 if ch == "_" else ord(ch) - ord("a") + 1
        for _ in range(run):
            if pos < n * (n - 1):
                y, x = divmod(pos, n - 1)
                p0, p1 = y * n + x, y * n + x + 1
            else:
                x, y = pos // (n - 1) - n, pos % (n - 1)
                p0, p1 = y * n + x, (y + 1) * n + x
            owner[find(p0)] = find(p1)
            pos += 1
        if run != 26:
            pos += 1
    cells: dict[int, list[tuple[int, int]]] = {}
    for i in range(n * n):
        cells.setdefault(find(i), []).append(divmod(i, n))
    return list(cells.values())


def parse_killer(desc: str, n: int = 9) -> Puzzle:
    """Solo's Killer description: givens, the cage walls (``solo_blocks``), the sums (in each
    cage's first cell)."""
    grid, walls, sums = desc.split(",")
    cells = dict(enumerate(solo_blocks(walls, n)))
    clue = desc_cells(sums, n)
    cages = []
    for members in cells.values():
        found = [int(clue[r * n + c]) for r, c in members if clue[r * n + c] != "."]
        if len(found) != 1:
            raise ValueError(f"a cage with {len(found)} sums")
        cages.append(Cage(tuple(sorted(members)), "+", found[0]))
    blank = tuple("." * n for _ in range(n))
    return Puzzle("killer", n, KILLER.parse_rules({}, n), parse_desc(grid, n), blank,
                  cages=tuple(sorted(cages, key=lambda c: c.cells)))


def solo_puzzles(level: str, count: int, diagonal: Kind) -> list:
    """``count`` of Solo's 9x9 puzzles at ``level``, as givens rows (Killer: as puzzles)."""
    parse = parse_killer if diagonal == "killer" else parse_desc
    return [parse(d) for d in saved_descriptions(SOLO, solo_params(level, diagonal), count)]


def speed(levels: list[Level], count: int, diagonal: Kind, have_solo: bool) -> None:
    kind = "Killer Sudoku 9x9" if diagonal == "killer" else "Sudoku X 9x9" if diagonal else "Sudoku 9x9"
    match = KILLER_MATCH if diagonal == "killer" else MATCH
    print(f"{kind}: median CPU ms per puzzle, one process, {count} each, alternating ours / Solo's")
    print(f"{'level':<8} {'ours':>9} {'Solo':>14} {'Solo ms':>9} {'ratio':>7}")
    for level in levels:
        ours, theirs = [], []
        for i in range(count):
            ours.append(ours_time(level, diagonal, i) * 1000)
            if have_solo:
                theirs.append(solo_time(match[level], diagonal) * 1000)
        mo = statistics.median(ours)
        if theirs:
            mt = statistics.median(theirs)
            ratio = f"{mo / mt:7.1f}" if mt > 0 else f"{'inf':>7}"
            print(f"{level.key:<8} {mo:9.1f} {SOLO_LEVELS[match[level]]:>14} {mt:9.2f} {ratio}", flush=True)
        else:
            print(f"{level.key:<8} {mo:9.1f} {'-':>14} {'-':>9} {'-':>7}", flush=True)


def grades(count: int, diagonal: Kind) -> None:
    kind = "Killer " if diagonal == "killer" else "Sudoku X " if diagonal else ""
    rules = SUDOKU.parse_rules({"diagonal": diagonal is True}, 9)
    blank = tuple("." * 9 for _ in range(9))

    def puzzles(key: str) -> list[Puzzle]:
        got = solo_puzzles(key, count, diagonal)
        if diagonal != "killer":
            return [Puzzle("sudoku", 9, rules, givens, blank) for givens in got]
        for puzzle in got:
            if len(KILLER.solutions(puzzle, 2)) != 1:  # the decoding, checked by the exact solver
                raise ValueError("a decoded Killer puzzle of Solo's is not unique")
        return got

    grade_table(f"Our grade of {count} of Solo's {kind}9x9 puzzles per Solo level", "Solo level", SOLO_LEVELS,
                puzzles, KILLER.grade if diagonal == "killer" else SUDOKU.grade)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=15, help="puzzles per level for the speed table")
    ap.add_argument("--grade", type=int, default=20, help="Solo puzzles per level to grade (0: skip)")
    ap.add_argument("--levels", default=",".join(lv.key for lv in LEVELS))
    ap.add_argument("--x", action="store_true", help="Sudoku X (diagonals) instead of plain Sudoku")
    ap.add_argument("--killer", action="store_true", help="Killer Sudoku instead of plain Sudoku")
    args = ap.parse_args()
    kind: Kind = "killer" if args.killer else args.x
    have_solo = shutil.which(SOLO) is not None
    if not have_solo:
        print(f"note: {SOLO} not found (Debian package sgt-puzzles): Solo's figures and the grade "
              "table are skipped\n")
    speed([Level.parse(x) for x in args.levels.split(",")], args.count, kind, have_solo)
    if have_solo and args.grade:
        grades(args.grade, kind)


if __name__ == "__main__":
    main()
