"""Skyscrapers beside Simon Tatham's Towers (Debian ``sgt-puzzles``): generation time, and his
puzzles graded by our ladder.

Run: ``python bench/bench_skyscrapers.py [--count N] [--per K] [--grade M] [--only TEXT]``

Time: per row (size, our level) a batch of our puzzles (one process, CPU time,
derived seeds, one untimed warm-up puzzle first: the line tables are built
once per process) and ``sgt-towers --generate K PARAMS --time-generation``
(CPU time per puzzle inside his program), alternated in rounds. Our levels
against his: easy / Easy (``e``), medium and hard / Hard (``h``), expert /
Extreme (``x``). Columns: our median ms, our worst over that median, his
median ms, and the ratio ours / his.

Grades: ``--grade M`` of his puzzles per size and level, read from his game
descriptions (clues top, bottom, left, right, ``/``-separated; then his
givens, run-length coded) and graded by our ladder (``stuck``: our ladder
can't finish without guessing).
"""

from __future__ import annotations

import argparse
import gc
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bookgen.core.difficulty import LEVELS, Level  # noqa: E402
from bookgen.core.rng import derive_seed, rng_for  # noqa: E402
from bookgen.core.types import EMPTY, GenerationError, OutsideClues, Puzzle  # noqa: E402
from bookgen.variants.registry import get_variant  # noqa: E402
from bench_reference import in_fresh_process, reference_path  # noqa: E402
from tatham import generated_descriptions, grade_table  # noqa: E402

SKY = get_variant("skyscrapers")
THEIR_LEVEL = {Level.EASY: "e", Level.MEDIUM: "h", Level.HARD: "h", Level.EXPERT: "x"}
THEIR_NAMES = {"e": "Easy", "h": "Hard", "x": "Extreme", "u": "Unreasonable"}
TIME_LINE = re.compile(r"#\d+:\s*([0-9.eE+-]+)\s*$")


def rows() -> list[tuple[int, Level]]:
    """Every size and level we make."""
    return [(n, lv) for n in SKY.sizes for lv in LEVELS if not SKY.check_request(n, {}, lv)]


def ours(n: int, level: Level, start: int, count: int) -> list[float]:
    """CPU seconds per puzzle for ``count`` of our puzzles."""
    out = []
    for i in range(start, start + count):
        rng = rng_for(derive_seed(22_22, n * 10 + int(level), i))
        t = time.process_time()
        try:
            SKY.generate(n, {}, level, rng)
        except GenerationError:
            continue
        out.append(time.process_time() - t)
    return out


def theirs(n: int, level: Level, count: int) -> list[float]:
    """CPU seconds per puzzle for ``count`` of Tatham's, as his program times them."""
    done = subprocess.run([reference_path("sgt-towers"), "--generate", str(count), f"{n}d{THEIR_LEVEL[level]}",
                           "--time-generation"], capture_output=True, text=True, check=True)
    return [float(m.group(1)) for m in map(TIME_LINE.search, done.stdout.splitlines()) if m]


def measure(n: int, level: Level, count: int, per: int, rounds: int) -> tuple[list[float], list[float]]:
    """Alternate our batches with Tatham's; (our times, their times)."""
    ours(n, level, 10**6, 1)  # untimed warm-up: the line tables
    gc.freeze()
    mine: list[float] = []
    refs: list[float] = []
    rounds = max(1, min(rounds, count))
    for k in range(rounds):
        lo, hi = count * k // rounds, count * (k + 1) // rounds
        mine += ours(n, level, lo, hi - lo)
        refs += theirs(n, level, (hi - lo) * per)
    return mine, refs


def from_description(n: int, desc: str) -> Puzzle:
    """One of Tatham's Towers game descriptions as our puzzle (solution left blank)."""
    clue_part, _, grid_part = desc.partition(",")
    values = [int(v) if v else 0 for v in clue_part.split("/")]
    if len(values) != 4 * n:
        raise ValueError(f"expected {4 * n} clues, got {len(values)}: {desc}")
    clues = OutsideClues(*(tuple(values[k * n:(k + 1) * n]) for k in range(4)))
    cells: list[str] = []
    for ch in grid_part:
        if ch.isalpha():
            cells += [EMPTY] * (ord(ch) - ord("a") + 1)
        elif ch.isdigit():
            cells.append(ch)
    cells += [EMPTY] * (n * n - len(cells))
    givens = tuple("".join(cells[r * n:(r + 1) * n]) for r in range(n))
    return Puzzle(SKY.name, n, {}, givens, (EMPTY * n,) * n, clues=clues)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=20, help="our puzzles per row (default 20)")
    ap.add_argument("--per", type=int, default=4, help="Tatham puzzles per one of ours (default 4)")
    ap.add_argument("--rounds", type=int, default=4, help="alternations per row (default 4)")
    ap.add_argument("--grade", type=int, default=20, help="Tatham puzzles graded per size and level (0: none)")
    ap.add_argument("--only", action="append", default=[], help="rows whose label contains TEXT (repeatable)")
    args = ap.parse_args()
    if not reference_path("sgt-towers"):
        sys.exit("sgt-towers not found: install Debian's sgt-puzzles (apt-get install sgt-puzzles)")
    print("| puzzle | reference | ours ms | worst/median | Tatham ms | ratio |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for n, level in rows():
        label = f"skyscrapers {n}x{n} {level.key}"
        if args.only and not any(t in label for t in args.only):
            continue
        mine, refs, _ = in_fresh_process(measure, n, level, args.count, args.per, args.rounds)
        med = statistics.median(mine)
        ref = statistics.median(refs)
        print(f"| {label} | towers {n}d{THEIR_LEVEL[level]} | {1000 * med:.2f} | {max(mine) / med:.1f} | "
              f"{1000 * ref:.2f} | {med / ref if ref else float('inf'):.1f} |", flush=True)
    if args.grade:
        for n in SKY.sizes:
            if args.only and not any(t in f"skyscrapers {n}x{n}" for t in args.only):
                continue
            grade_table(f"Tatham's Towers {n}x{n} graded by our ladder ({args.grade} a level)", "Towers",
                        THEIR_NAMES,
                        lambda key, n=n: [from_description(n, d) for d in
                                          generated_descriptions(reference_path("sgt-towers"),
                                                                 f"{n}d{key}", args.grade)],
                        SKY.grade)


if __name__ == "__main__":
    main()
