"""Sweep: Star Battle and Queens books build without a failed puzzle, and what levels
each size reaches.

Run: python bench/sweep_starbattle.py [--variants starbattle,queens] [--stars 1,2]
     [--sizes 5-10] [--levels easy,expert] [--seeds 1-10] [--count 100]
     python bench/sweep_starbattle.py --reach [--tries 40] [--stars 1,2] [--sizes 8-12]

The sweep generates, for every request the config accepts (variant, stars, size,
level) and every book seed, a section's ``count`` puzzles exactly as ``bookgen build``
would (``book.run_job``: derived seeds, retries and all), and prints failed puzzles,
puzzles that needed a retry, and the mean and worst CPU ms per puzzle. The full sweep
(10 seeds x 100 puzzles of every case) is hours of CPU; the flags pick a subset. Exit
status 1 when any puzzle failed.

``--reach`` makes ``tries`` layouts per (stars, size) the way the generator does (stars,
grown regions, mending until unique) and prints how they grade: the share of each level
and the CPU ms per unique layout. A level with no layout there is out of reach; that
is where ``REACH`` in ``bookgen/variants/starbattle.py`` refuses requests.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from bookgen.book import Job, run_job
from bookgen.core.difficulty import LEVELS, Level
from bookgen.core.rng import derive_seed
from bookgen.solve import stars
from bookgen.variants.registry import get_variant
from sweep_binary import _ints  # bench/ is on the path when a script of it runs


def reach(star_counts, sizes, tries: int) -> None:
    print("stars size  unique/tries  ms/unique  easy medium hard expert")
    for k in star_counts:
        for n in sizes:
            if n not in (range(5, 11) if k == 1 else range(8, 13)):
                continue
            rng = random.Random(f"reach-{k}-{n}")
            levels: Counter = Counter()
            made = 0
            t = time.process_time()
            for _ in range(tries):
                star = stars.random_stars(n, k, rng)
                regions = stars.grow_regions(n, k, star, rng) if star is not None else None
                if regions is None:
                    continue
                regions = stars.mend(n, k, star, regions, rng, stars.MEND_ROUNDS[k] + n * n // 4)
                if regions is None:
                    continue
                made += 1
                lay = stars.layout(n, k, stars.canonical(regions))
                res = stars.run_ladder(lay, ["." * n] * n)
                levels[res.level if res.solved else "stuck"] += 1
            ms = 1000 * (time.process_time() - t) / max(made, 1)
            shares = " ".join(f"{levels[lv] / max(made, 1):5.0%}" for lv in LEVELS)
            print(f"{k:5} {n:4}  {made:5}/{tries:<5}  {ms:9.0f}  {shares}  stuck {levels['stuck']}", flush=True)


def sweep(args) -> int:
    failed = 0
    print("variant     stars size level   seeds puzzles failed retried  ms/puzzle  worst ms")
    for name in args.variants.split(","):
        variant = get_variant(name)
        for k in _ints(args.stars):
            for n in _ints(args.sizes):
                try:
                    rules = variant.parse_rules({"stars": k}, n)
                except ValueError:
                    continue
                for level in (Level.parse(x) for x in args.levels.split(",")):
                    if variant.check_request(n, rules, level):
                        continue
                    bad, line = build_case(name, n, rules, level, _ints(args.seeds), args.count)
                    failed += bad
                    print(f"{name:11} {k:5} {n:4} {line}", flush=True)
    return 1 if failed else 0


def build_case(name: str, size, rules, level: Level, seeds: list[int], count: int) -> tuple[int, str]:
    """Build ``count`` puzzles of one request for every book seed as ``bookgen build`` does;
    (failed puzzles, the report line: level, seeds, puzzles, failed, retried, mean and worst
    CPU ms). Kakuro's sweep uses it too."""
    bad = retried = done = 0
    worst = total = 0.0
    for seed in seeds:
        for i in range(count):
            t = time.process_time()
            try:
                job = Job(0, i, name, size, tuple(sorted(rules.items())), level, derive_seed(seed, str(size), i),
                          (), seed)
                puzzle = run_job(job)
                if puzzle.grade is None or puzzle.grade.level != level:
                    bad += 1
                retried += puzzle.seed != job.attempt_seed(0)
            except Exception as exc:  # a failure is what the sweep counts
                bad += 1
                print(f"  failed: {name} {size} {level.key} seed {seed} #{i}: {exc}", file=sys.stderr)
            dt = 1000 * (time.process_time() - t)
            worst, total, done = max(worst, dt), total + dt, done + 1
    return bad, (f"{level.key:7} {len(seeds):5} {done:7} {bad:6} {retried:7} {total / max(done, 1):10.0f} "
                 f"{worst:9.0f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variants", default="starbattle,queens")
    ap.add_argument("--stars", default="1,2")
    ap.add_argument("--sizes", default="5-12")
    ap.add_argument("--levels", default=",".join(level.key for level in LEVELS))
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--reach", action="store_true")
    ap.add_argument("--tries", type=int, default=40)
    args = ap.parse_args()
    if args.reach:
        reach(_ints(args.stars), _ints(args.sizes), args.tries)
        return
    sys.exit(sweep(args))


if __name__ == "__main__":
    main()
