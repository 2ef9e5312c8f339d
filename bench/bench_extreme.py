"""Extreme 9x9 Sudoku against expert, puzzle by puzzle: what the rating climb costs.

Run: ``python bench/bench_extreme.py [--count 12] [--save FILE]``

For seeds 0..count-1 (derived from 2026, section 710) it makes one expert and one extreme 9x9
Sudoku as a book makes them (``run_job``: the level's band, the climb's aim, seeds tried
until the rating falls in the band), alternating, and prints per level the median and the
spread (min-max) of CPU seconds per puzzle, the ratio of the medians, how many seeds a
puzzle took (a seed whose climb budget ran out of grids is ``GenerationError`` inside
``run_job``; a puzzle that used up every seed counts as failed), each extreme puzzle's
rating and givens, and the trials the ladder's own solve needs (the rule: one at most,
never nested). ``--save`` writes the extreme puzzles one 81-character line each, for
``bench/calibrate.py``'s SE run or any other grader.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bookgen.book import Job, run_job  # noqa: E402
from bookgen.core.rating import aims, band  # noqa: E402
from bookgen.core.rng import version_seed  # noqa: E402
from bookgen.core.types import GenerationError  # noqa: E402
from bookgen.variants.registry import VARIANTS  # noqa: E402

BASE_SEED = 2026
SECTION = 710


def job(key: str, index: int, count: int) -> Job:
    b = band(key)
    rules = tuple(sorted(VARIANTS["sudoku"].parse_rules({}, 9).items()))
    aim = aims(b.low, b.high, b.tier, count)[index]
    return Job(SECTION, index, "sudoku", 9, rules, b.tier, version_seed(BASE_SEED, SECTION, index, 0), (),
               book_seed=BASE_SEED, band=(b.low, b.high), aim=aim)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--save", type=Path)
    args = ap.parse_args()
    sudoku = VARIANTS["sudoku"]
    times: dict[str, list[float]] = {"expert": [], "extreme": []}
    seeds: dict[str, list[int]] = {"expert": [], "extreme": []}
    failed = {"expert": 0, "extreme": 0}
    lines = []
    for i in range(args.count):
        for key in ("expert", "extreme"):
            j = job(key, i, args.count)
            t = time.process_time()
            try:
                p = run_job(j)
            except GenerationError as exc:
                failed[key] += 1
                print(f"  {key} #{i}: {exc}")
                continue
            times[key].append(time.process_time() - t)
            seeds[key].append(next(k for k in range(j.attempts) if j.attempt_seed(k) == p.seed) + 1)
            if key == "extreme":
                grade = sudoku.grade(p)
                line = "".join(p.givens).replace("0", ".")
                lines.append(line)
                print(f"  extreme #{i}: rating {p.grade.rating} minutes {p.grade.minutes} "
                      f"givens {sum(c != '.' for c in line)} ladder trials {grade.techniques.get('trial', 0)} "
                      f"solved {grade.solved} seeds {seeds[key][-1]} cpu {times[key][-1]:.2f} s", flush=True)
    print()
    print("| level | n | CPU s median | min | max | seeds tried (mean) | failed |")
    print("|---|---|---|---|---|---|---|")
    for key in ("expert", "extreme"):
        got = times[key]
        if got:
            print(f"| {key} | {len(got)} | {statistics.median(got):.2f} | {min(got):.2f} | {max(got):.2f} "
                  f"| {statistics.mean(seeds[key]):.2f} | {failed[key]} |")
    if times["expert"] and times["extreme"]:
        print(f"\nextreme / expert, medians: {statistics.median(times['extreme']) / statistics.median(times['expert']):.2f}; "
              f"means: {statistics.mean(times['extreme']) / statistics.mean(times['expert']):.2f}")
    if args.save:
        args.save.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
