"""How many expert puzzles still need a trial once the chains are in the ladder (issue 25).

Run: ``python bench/sweep_trials.py [--count 60] [--variant sudoku] [--size 9] [--diagonal]``

Generates ``--count`` expert puzzles (derived seeds, so the figures repeat), grades each with
the full ladder and prints how many need a trial, which expert technique each needs at its
hardest, and the CPU time per puzzle.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bookgen.core.difficulty import Level  # noqa: E402
from bookgen.core.rng import derive_seed, rng_for  # noqa: E402
from bookgen.variants.registry import get_variant  # noqa: E402

EXPERT_ORDER = ("simple_colouring", "x_chain", "xy_chain", "forcing_chain", "trial")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--variant", default="sudoku")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--diagonal", action="store_true")
    args = ap.parse_args()
    variant = get_variant(args.variant)
    rules = variant.parse_rules({"diagonal": True} if args.diagonal else {}, args.size)
    hardest: Counter[str] = Counter()
    trials = 0
    start = time.process_time()
    for k in range(args.count):
        puzzle = variant.generate(args.size, rules, Level.EXPERT, rng_for(derive_seed(25, 0, k)))
        used = puzzle.grade.techniques
        trials += bool(used.get("trial"))
        top = [name for name in EXPERT_ORDER if used.get(name)]
        hardest[top[-1] if top else "(hard tier only)"] += 1
    spent = (time.process_time() - start) / args.count * 1000
    print(f"{args.variant} {args.size}x{args.size}{' X' if args.diagonal else ''} expert, {args.count} puzzles: "
          f"{trials} need a trial ({100 * trials / args.count:.0f} %), {args.count - trials} none; "
          f"{spent:.0f} ms CPU a puzzle")
    for name, count in hardest.most_common():
        print(f"  hardest expert step {name}: {count}")


if __name__ == "__main__":
    main()
