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

``--solo N`` (with ``SE_JAR`` set to a local Sudoku Explainer build) adds the reference in the
same run: Tatham's Solo has no level at SE 7.5 and up, and its Unreasonable (``3x3du``: needs
guessing to its own solver) lands there only now and then, so the cost for Solo to make an
extreme puzzle is its CPU per Unreasonable puzzle divided by the share of them SE rates
7.5-9.0, generate and filter. The ratio printed is ours (mean CPU a puzzle, retries included)
over that.
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
    ap.add_argument("--solo", type=int, default=0, help="also rate N of Solo's Unreasonable puzzles with SE")
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
    if args.solo and times["extreme"]:
        solo_filtered(args.solo, statistics.mean(times["extreme"]))


def solo_filtered(count: int, ours: float) -> None:
    """Solo's cost per puzzle in the extreme band by generate-and-filter (see the docstring)."""
    import resource
    import subprocess

    import bench_sudoku
    from calibrate import se_jar, se_ratings

    jar = se_jar(None)
    if jar is None:
        print("--solo needs SE_JAR (a local Sudoku Explainer jar)")
        return
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run(["/usr/games/sgt-solo", "--generate", str(count), "3x3du"],
                         capture_output=True, text=True, check=True).stdout.split()
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    lines = ["".join(bench_sudoku.parse_desc(w.split(":", 1)[1], 9)) for w in out if ":" in w]
    rated = [x for x in se_ratings(jar, lines, False, 1) if x is not None]
    hits = sum(1 for x in rated if 7.5 <= x <= 9.0)
    each = cpu / len(lines)
    print(f"\nSolo Unreasonable: {len(lines)} puzzles, {each * 1000:.0f} ms CPU each; SE rates {hits} of "
          f"{len(rated)} in 7.5-9.0 (median {statistics.median(rated):.1f})")
    if hits:
        per = each * len(rated) / hits
        print(f"Solo per puzzle in the band (generate and filter): {per:.2f} s; ours (mean) {ours:.2f} s; "
              f"ratio ours / Solo {ours / per:.2f}")


if __name__ == "__main__":
    main()
