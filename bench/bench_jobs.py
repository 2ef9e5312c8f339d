"""Parallel scaling: the 300-puzzle book with ``--jobs 1`` and ``--jobs 2``.

Run: ``python bench/bench_jobs.py [CONFIG] [--jobs 1,2] [--repeat N]``
(default ``configs/big-book.yaml``). Each build runs in-process, timing
puzzle generation and everything after it (layout, PDF, JSON) separately;
it prints wall time per worker count, the speed-up over the first, the
layout share of the build, and whether every build wrote the same bytes.
Needs an otherwise idle machine to mean anything: check ``uptime`` first.

``--simulate`` measures instead the CPU time of every puzzle (one process,
``time.process_time``, so other load matters much less) and replays the plan
on W workers that each take the next job when free, in plan order and in the
order ``book.schedule`` hands them out: the scaling the work distribution
allows, before process start-up and machine noise.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bookgen.book as book_module  # noqa: E402
from bookgen.book import plan, run_job, schedule  # noqa: E402
from bookgen.config import load_book  # noqa: E402


def _cpu() -> float:
    """CPU seconds of this process and its finished children so far."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed_build(config: Path, workers: int) -> tuple[float, float, str, float]:
    """(wall seconds, seconds spent generating puzzles, digest of the files written, CPU seconds)."""
    book = load_book(config)
    spent = [0.0]
    real_generate = book_module.generate

    def generate(*args, **kwargs):
        t = time.perf_counter()
        try:
            return real_generate(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - t

    book_module.generate = generate
    try:
        with tempfile.TemporaryDirectory(prefix="bookgen-bench-") as out:
            t, cpu = time.perf_counter(), _cpu()
            paths = book_module.build(book, Path(out), workers)
            wall, cpu = time.perf_counter() - t, _cpu() - cpu
            digest = hashlib.sha256(b"".join(p.read_bytes() for p in paths)).hexdigest()
    finally:
        book_module.generate = real_generate
    return wall, spent[0], digest, cpu


def makespan(costs: list[float], order: list[int], workers: int) -> float:
    """Finish time of greedy list scheduling: each job goes to the worker free first."""
    free = [0.0] * workers
    for i in order:
        w = free.index(min(free))
        free[w] += costs[i]
    return max(free)


def simulate(config: Path, workers: int) -> None:
    """Print the makespan of plan order vs ``schedule`` order from measured CPU times."""
    jobs = plan(load_book(config))
    costs = []
    for job in jobs:
        t = time.process_time()
        run_job(job)
        costs.append(time.process_time() - t)
    total = sum(costs)
    print(f"{len(jobs)} puzzles, {total:.2f} s CPU in all, slowest {max(costs):.2f} s")
    for name, order in (("plan order", list(range(len(jobs)))), ("slowest first", schedule(jobs))):
        span = makespan(costs, order, workers)
        print(f"{name:14} on {workers} workers: {span:6.2f} s, speed-up {total / span:4.2f}x")


def main() -> None:
    """Print the scaling table."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("config", nargs="?", type=Path, default=ROOT / "configs" / "big-book.yaml")
    ap.add_argument("--jobs", default="1,2", help="worker counts to compare (default 1,2)")
    ap.add_argument("--repeat", type=int, default=1, help="builds per worker count; the best counts")
    ap.add_argument("--simulate", type=int, metavar="W", help="replay measured CPU times on W workers")
    args = ap.parse_args()
    if args.simulate:
        simulate(args.config, args.simulate)
        return
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; cores: {os.cpu_count()}")
    base = None
    digests = set()
    for workers in (int(j) for j in args.jobs.split(",")):
        runs = [timed_build(args.config, workers) for _ in range(args.repeat)]
        wall, gen, digest, cpu = min(runs)
        digests.update(r[2] for r in runs)
        base = base or wall
        layout = wall - gen
        print(f"--jobs {workers}: {wall:6.2f} s  (puzzles {gen:6.2f} s, layout and files {layout:5.2f} s = "
              f"{100 * layout / wall:4.1f} %)  speed-up {base / wall:4.2f}x  CPU {cpu:6.2f} s", flush=True)
    print("outputs identical for every --jobs" if len(digests) == 1 else "OUTPUTS DIFFER between --jobs")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
