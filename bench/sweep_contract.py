"""Sweep: the contract of tests/test_contract.py (unique, graded as asked, round trip, draws)
over many seeds of every variant and level.

Run: python bench/sweep_contract.py [SEEDS] [VARIANT ...]
The everyday suite checks one seed per (variant, level), chosen to generate quickly
(``QUICK_INDEX``); this runs seed indices 0..SEEDS-1 (default 5) of each and prints the
CPU time per case, so a slow or failing seed shows. Exit status 1 if any case fails.
"""

from __future__ import annotations

import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_contract import CASES, test_contract  # noqa: E402


def main() -> int:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    only = set(sys.argv[2:])
    failed = 0
    for name, level in CASES:
        if only and name not in only:
            continue
        times = []
        for index in range(seeds):
            start = time.process_time()
            try:
                test_contract(name, level, index)
            except Exception:  # noqa: BLE001 - a sweep reports every failure, then goes on
                failed += 1
                print(f"FAILED {name} {level.key} index {index}", file=sys.stderr)
                traceback.print_exc()
            times.append(time.process_time() - start)
        print(f"{name:12} {level.key:7} {seeds} seeds: {min(times):6.2f}-{max(times):6.2f} s CPU, "
              f"mean {sum(times) / len(times):6.2f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
