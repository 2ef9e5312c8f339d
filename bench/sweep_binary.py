"""Sweep: no Takuzu or Tango book fails to build, over many seeds and every request.

Run: python bench/sweep_binary.py [--variants takuzu,tango] [--sizes 12,14]
     [--levels medium,hard] [--seeds 1-20] [--count 100] [--max-run 2,3]
     [--unique true,false] [--jobs 2]

For every (variant, size, level, unique_lines, max_run) the generator accepts
and every book seed, it generates a section's ``count`` puzzles exactly as
``bookgen build`` would (``book.run_job``: derived seeds, retries and all) and
counts failed puzzles, puzzles that needed a retry seed, grid searches that
ran out of budget (each absorbed as one failed attempt), and time. The full
sweep (20 seeds x 100 puzzles of every case) is hours of CPU; the flags pick
a subset. Exit status 1 when any puzzle failed.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import bookgen.variants.binarygrid as binarygrid
from bookgen.book import Job, run_job
from bookgen.core.difficulty import LEVELS, Level
from bookgen.core.rng import derive_seed
from bookgen.core.types import GenerationError
from bookgen.variants.registry import get_variant


def _ints(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def cases(variants, sizes, levels, max_runs, uniques):
    """Every request the config would accept, among those asked for."""
    for name in variants:
        variant = get_variant(name)
        for size in variant.sizes:
            if sizes and size not in sizes:
                continue
            for unique in uniques:
                for max_run in max_runs:
                    try:
                        rules = variant.parse_rules({"max_run": max_run, "unique_lines": unique}, size)
                    except ValueError:
                        continue
                    for level in levels:
                        if variant.check_request(size, rules, level) is None:
                            yield variant.name, size, rules, level


_RAN_OUT = [0]  # grid searches that ran out of budget in this process (each one failed attempt)


def _counted(real):
    def random_solution(*args, **kwargs):
        try:
            return real(*args, **kwargs)
        except GenerationError:
            _RAN_OUT[0] += 1
            raise
    return random_solution


binarygrid.random_solution = _counted(binarygrid.random_solution)


def one(args) -> tuple[int, bool, bool, float, int]:
    """(index, failed, needed a retry seed, seconds, grid searches that ran out) for one puzzle."""
    name, size, rules, level, seed, index = args
    job = Job(0, index, name, size, tuple(sorted(rules.items())), level, derive_seed(seed, 0, index), (), seed)
    before = _RAN_OUT[0]
    t = time.perf_counter()
    try:
        puzzle = run_job(job)
    except GenerationError:
        return index, True, False, time.perf_counter() - t, _RAN_OUT[0] - before
    return index, False, puzzle.seed != job.seed, time.perf_counter() - t, _RAN_OUT[0] - before


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="takuzu,tango")
    ap.add_argument("--sizes", default="", help="e.g. 12,14 (default: every size)")
    ap.add_argument("--levels", default=",".join(l.key for l in LEVELS))
    ap.add_argument("--seeds", default="1-20", help="book seeds, e.g. 1-20 or 6,9")
    ap.add_argument("--count", type=int, default=100, help="puzzles per book")
    ap.add_argument("--max-run", default="2,3")
    ap.add_argument("--unique", default="true,false")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    levels = [Level.parse(x) for x in a.levels.split(",")]
    uniques = [x.strip().lower() == "true" for x in a.unique.split(",")]
    seeds = _ints(a.seeds)
    todo = list(cases(a.variants.split(","), _ints(a.sizes) if a.sizes else [], levels,
                      _ints(a.max_run), uniques))
    print(f"{'variant':7} {'size':>4} {'level':7} {'unique':6} {'run':>3} {'puzzles':>7} {'failed':>6} "
          f"{'retried':>7} {'ran out':>7} {'mean ms':>8} {'max ms':>8}")
    total_failed = total = 0
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=a.jobs) as pool:
        for name, size, rules, level in todo:
            work = [(name, size, rules, level, seed, i) for seed in seeds for i in range(a.count)]
            results = list(pool.map(one, work, chunksize=8))
            failed = sum(r[1] for r in results)
            retried = sum(r[2] for r in results)
            ran_out = sum(r[4] for r in results)
            times = [r[3] for r in results]
            total += len(results)
            total_failed += failed
            print(f"{name:7} {size:>4} {level.key:7} {str(rules['unique_lines']).lower():6} "
                  f"{rules['max_run']:>3} {len(results):>7} {failed:>6} {retried:>7} {ran_out:>7} "
                  f"{1000 * sum(times) / len(times):>8.1f} {1000 * max(times):>8.1f}", flush=True)
    print(f"{total} puzzles, {total_failed} failed, {time.perf_counter() - started:.0f} s")
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main())
