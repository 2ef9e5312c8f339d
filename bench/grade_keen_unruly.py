"""Grade Simon Tatham's Keen and Unruly puzzles with our KenKen and Takuzu ladders.

Run as ``python bench/grade_keen_unruly.py [--grade N] [--keen-sizes 6] [--unruly-sizes 8]``.

For each of Keen's levels (e Easy, n Normal, h Hard, x Extreme, u Unreasonable)
and Unruly's (t Trivial, e Easy, n Normal), ``--grade`` puzzles from
``sgt-keen --generate`` / ``sgt-unruly --generate`` are read back from their
game IDs and graded by our ladder; the table counts how many land at each of
our levels. Unruly is graded twice: plain (Takuzu with ``unique_lines:
false``, as Unruly's default) and with its ``u`` option (distinct rows and
columns, our Takuzu's default). Skipped with a note when the ``sgt-puzzles``
package is absent.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tatham import generated_descriptions, grade_table  # noqa: E402

from bookgen.core.types import Cage, Puzzle  # noqa: E402
from bookgen.variants.kenken import KENKEN  # noqa: E402
from bookgen.variants.takuzu import TAKUZU  # noqa: E402

KEEN = "/usr/games/sgt-keen"
UNRULY = "/usr/games/sgt-unruly"
KEEN_LEVELS = {"e": "Easy", "n": "Normal", "h": "Hard", "x": "Extreme", "u": "Unreasonable"}
UNRULY_LEVELS = {"t": "Trivial", "e": "Easy", "n": "Normal"}
KEEN_OPS = {"a": "+", "s": "-", "m": "*", "d": "/"}


def keen_blocks(text: str, n: int) -> list[int]:
    """Cell -> block root from Keen's block structure: the runs of non-walls between the walls,
    first over the n(n-1) vertical grid lines in reading order, then the horizontal ones
    transposed; ``_`` is no run, ``a``..``y`` a run of 1..25, ``z`` 25 with no wall after it;
    a character followed by a number stands for that many copies."""
    expanded = []
    for ch, rep in re.findall(r"([_a-z])(\d*)", text):
        expanded += [ch] * (int(rep) if rep else 1)
    walls: list[bool] = []
    for ch in expanded:
        if ch == "_":
            walls.append(True)
        elif ch == "z":
            walls += [False] * 25
        else:
            walls += [False] * (ord(ch) - ord("a") + 1) + [True]
    lines = n * (n - 1)
    if len(walls) != 2 * lines + 1:
        raise ValueError(f"block structure gives {len(walls)} edges, not {2 * lines + 1}")
    parent = list(range(n * n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(2 * lines):
        if walls[i]:
            continue
        if i < lines:
            y, x = divmod(i, n - 1)
            a, b = y * n + x, y * n + x + 1
        else:
            x, y = divmod(i - lines, n - 1)
            a, b = y * n + x, (y + 1) * n + x
        ra, rb = root(a), root(b)
        parent[max(ra, rb)] = min(ra, rb)
    return [root(i) for i in range(n * n)]


def keen_puzzle(desc: str, n: int) -> Puzzle:
    """A KenKen puzzle from Keen's description: block structure, then a comma and one clue
    (``a`` add, ``s`` subtract, ``m`` multiply, ``d`` divide, then the target) per block, in the
    order of each block's first cell."""
    blocks, clues = desc.split(",", 1)
    owner = keen_blocks(blocks, n)
    roots = sorted(set(owner))
    found = re.findall(r"([asmd])(\d+)", clues)
    if len(found) != len(roots):
        raise ValueError(f"{len(found)} clues for {len(roots)} blocks")
    cages = []
    for r, (op, target) in zip(roots, found):
        cells = tuple(divmod(i, n) for i in range(n * n) if owner[i] == r)
        cages.append(Cage(cells, "" if len(cells) == 1 else KEEN_OPS[op], int(target)))
    blank = tuple("." * n for _ in range(n))
    return Puzzle("kenken", n, KENKEN.parse_rules({}, n), blank, blank, cages=tuple(cages))


def unruly_puzzle(desc: str, n: int, unique: bool) -> Puzzle:
    """A Takuzu puzzle from Unruly's description: ``a``..``y`` skip that many cells then place a
    0, ``A``..``Y`` the same with a 1, ``z``/``Z`` skip 25 cells."""
    cells = ["."] * (n * n)
    pos = 0
    for ch in desc:
        if ch in "zZ":
            pos += 25
            continue
        pos += ord(ch.lower()) - ord("a")
        if pos < n * n:
            cells[pos] = "1" if ch.isupper() else "0"
        pos += 1
    rows = tuple("".join(cells[r * n:(r + 1) * n]) for r in range(n))
    blank = tuple("." * n for _ in range(n))
    rules = TAKUZU.parse_rules({"max_run": 2, "unique_lines": unique}, n)
    return Puzzle("takuzu", n, rules, rows, blank)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--grade", type=int, default=20, help="Tatham puzzles per level to grade")
    ap.add_argument("--keen-sizes", default="6")
    ap.add_argument("--unruly-sizes", default="8")
    args = ap.parse_args()
    if shutil.which(KEEN):
        for n in (int(s) for s in args.keen_sizes.split(",") if s):
            grade_table(f"Our grade of {args.grade} of Keen's {n}x{n} puzzles per Keen level", "Keen level",
                        KEEN_LEVELS,
                        lambda key: [keen_puzzle(d, n) for d in generated_descriptions(KEEN, f"{n}d{key}", args.grade)],
                        KENKEN.grade)
    else:
        print(f"note: {KEEN} not found (Debian package sgt-puzzles): Keen's table is skipped")
    if shutil.which(UNRULY):
        for n in (int(s) for s in args.unruly_sizes.split(",") if s):
            for unique in (False, True):
                params = f"{n}x{n}{'u' if unique else ''}"
                grade_table(f"Our grade of {args.grade} of Unruly's {params} puzzles per Unruly level "
                            f"(unique_lines: {str(unique).lower()})", "Unruly level", UNRULY_LEVELS,
                            lambda key: [unruly_puzzle(d, n, unique)
                                         for d in generated_descriptions(UNRULY, f"{params}d{key}", args.grade)],
                            TAKUZU.grade)
    else:
        print(f"note: {UNRULY} not found (Debian package sgt-puzzles): Unruly's table is skipped")


if __name__ == "__main__":
    main()
