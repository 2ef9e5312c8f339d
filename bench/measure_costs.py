"""Measure the mean time per puzzle of every (variant, size, level) for the build-time estimate.

Run: python bench/measure_costs.py [--runs N] [--only NAME,NAME] [--sizes 12,16]
Prints the ``COST_MS`` table of ``bookgen/estimate.py`` (mean ms per puzzle,
one process, default rules, easy..expert; None where the level is refused).
Paste it there after a change that moves generation speed.

Times are CPU seconds of this process (``time.process_time``), not wall
clock: on a machine shared with other work the wall clock runs up to twice
as long (and more), while the CPU time a puzzle takes barely moves. A build
with N workers on N free cores takes about the CPU time over N.
"""

from __future__ import annotations

import sys
import time

from bookgen.book import Job, run_job
from bookgen.core.difficulty import LEVELS
from bookgen.core.rng import derive_seed
from bookgen.variants.registry import VARIANTS


def main() -> None:
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None
    sizes = [int(s) for s in sys.argv[sys.argv.index("--sizes") + 1].split(",")] if "--sizes" in sys.argv else None
    print("COST_MS: dict[tuple[str, int], tuple[float | None, ...]] = {")
    for variant in VARIANTS.values():
        if only is not None and variant.name not in only:
            continue
        for size in variant.sizes:
            if sizes is not None and size not in sizes:
                continue
            rules = variant.parse_rules({}, size)
            row = []
            for level in LEVELS:
                if variant.check_request(size, rules, level):
                    row.append(None)
                    continue
                t = time.process_time()
                for i in range(runs):
                    run_job(Job(0, i, variant.name, size, tuple(sorted(rules.items())), level,
                                derive_seed(777, size, i), (), 777))
                row.append(round(1000 * (time.process_time() - t) / runs, 1))
            print(f"    ({variant.name!r}, {size}): {tuple(row)},", flush=True)
    print("}")


if __name__ == "__main__":
    main()
