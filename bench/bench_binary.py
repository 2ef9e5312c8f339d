"""Benchmark: puzzles per second for Takuzu and Tango by size and level.

Run: python bench/bench_binary.py [--quick]
One process, median time per puzzle over several seeds; then the sample book
built with two workers, PDF included.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bookgen.core.difficulty import LEVELS
from bookgen.core.rng import derive_seed, rng_for
from bookgen.variants.takuzu import TAKUZU
from bookgen.variants.tango import TANGO

PLAN = [(TAKUZU, (6, 8, 10, 12, 14)), (TANGO, (6, 8, 10, 12))]


def bench(variant, size, level, runs):
    times = []
    for i in range(runs):
        rng = rng_for(derive_seed(424242, size, i))
        t = time.perf_counter()
        variant.generate(size, variant.parse_rules({}, size), level, rng)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"{'variant':8} {'size':>4} {'level':7} {'median ms':>10} {'puzzles/s':>10}")
    for variant, sizes in PLAN:
        for size in sizes:
            for level in LEVELS:
                runs = 5 if quick else (15 if size <= 10 else 7)
                med = bench(variant, size, level, runs)
                print(f"{variant.name:8} {size:>4} {level.key:7} {med * 1000:>10.1f} {1 / med:>10.1f}")
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "bookgen.cli", "build", str(root / "configs/sampler.yaml"),
                        "--out", out, "--jobs", "2", "--quiet"], check=True)
        print(f"sampler book, --jobs 2, PDF included: {time.perf_counter() - t:.2f} s")


if __name__ == "__main__":
    main()
