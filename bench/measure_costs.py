"""Measure the mean time per puzzle of every (variant, size, level) for the build-time estimate.

Run: python bench/measure_costs.py [--runs N] [--sizes 12,16] [VARIANT ...]
Prints each variant's ``costs`` table (mean ms per puzzle, one process,
default rules, easy..expert; null where the level is refused) as rows of its
data file ``bookgen/variants/costs/NAME.json``, which ``bookgen/estimate.py``
gathers into ``COST_MS`` (docs/estimates.md; ``bench/fit_costs.py --write``
writes the file from a sweep, which is how the committed figures are made).

Times are CPU seconds of this process (``time.process_time``), not wall
clock: on a machine shared with other work the wall clock runs up to twice
as long (and more), while the CPU time a puzzle takes barely moves. A build
with N workers on N free cores takes about the CPU time over N.
"""

from __future__ import annotations

import json
import sys
import time

from bookgen.book import Job, run_job
from bookgen.core.difficulty import LEVELS
from bookgen.core.rng import derive_seed
from bookgen.core.types import GridSize
from bookgen.variants.measured import size_key
from bookgen.variants.registry import VARIANTS


def main() -> None:
    args = sys.argv[1:]
    runs = 5
    if "--runs" in args:
        k = args.index("--runs")
        runs = int(args[k + 1])
        del args[k:k + 2]
    sizes = None
    if "--sizes" in args:
        k = args.index("--sizes")
        sizes = [int(s) for s in args[k + 1].split(",")]
        del args[k:k + 2]
    for variant in VARIANTS.values():
        if args and variant.name not in args:
            continue
        print(f"{variant.name}:\n  \"costs\": {{")
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
            print(f"    {json.dumps(size_key(GridSize(size, size) if variant.rectangular else size))}: {json.dumps(row)},", flush=True)
        print("  }")


if __name__ == "__main__":
    main()
