"""Benchmark Calcudoku generation: median ms per puzzle for each size and level.

Run as ``python bench/bench_kenken.py [--count N] [--sizes 4,6,9] [--levels easy,hard]``.
Puzzles use derived seeds, so the figures are repeatable; the cage-arithmetic
cache warms up across puzzles, as it does in a book build.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bookgen.core.difficulty import LEVELS, Level  # noqa: E402
from bookgen.core.rng import derive_seed, rng_for  # noqa: E402
from bookgen.core.types import GenerationError  # noqa: E402
from bookgen.variants.kenken import KENKEN  # noqa: E402


def bench(size: int, level: Level, count: int, rules: dict) -> tuple[float | None, float | None, int]:
    """(median ms, max ms, failures) over ``count`` puzzles."""
    times = []
    fails = 0
    parsed = KENKEN.parse_rules(rules, size)
    for i in range(count):
        rng = rng_for(derive_seed(2026, size * 10 + int(level), i))
        t0 = time.perf_counter()
        try:
            KENKEN.generate(size, parsed, level, rng)
        except GenerationError:
            fails += 1
            continue
        times.append((time.perf_counter() - t0) * 1000)
    if not times:
        return None, None, fails
    return statistics.median(times), max(times), fails


def main() -> None:
    """Print a table of median/max ms per size and level."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=15)
    ap.add_argument("--sizes", default="4,5,6,7,8,9")
    ap.add_argument("--levels", default=",".join(lv.key for lv in LEVELS))
    ap.add_argument("--no-ops", action="store_true", help="show_ops: false")
    args = ap.parse_args()
    rules = {"show_ops": False} if args.no_ops else {}
    print(f"{'size':>4} {'level':<7} {'median ms':>10} {'max ms':>9} {'fails':>6}")
    for size in (int(s) for s in args.sizes.split(",")):
        for level in (Level.parse(x) for x in args.levels.split(",")):
            why = KENKEN.check_request(size, KENKEN.parse_rules(rules, size), level)
            if why:
                print(f"{size:>4} {level.key:<7} {'refused':>10}   ({why})")
                continue
            med, worst, fails = bench(size, level, args.count, rules)
            med_s = f"{med:10.1f}" if med is not None else f"{'-':>10}"
            worst_s = f"{worst:9.0f}" if worst is not None else f"{'-':>9}"
            print(f"{size:>4} {level.key:<7} {med_s} {worst_s} {fails:>3}/{args.count}", flush=True)


if __name__ == "__main__":
    main()
