"""Kakuro sweep: every accepted request (size x level) at N seeds x M puzzles, with failures
and mean CPU ms per puzzle. The issue's figure is 10 seeds x 100 puzzles; run what time
allows, e.g. ``PYTHONPATH=. python bench/sweep_kakuro.py --seeds 2 --puzzles 3 --sizes 6 8 10``."""

from __future__ import annotations

import argparse
import time

from bookgen.core.difficulty import LEVELS
from bookgen.core.rng import derive_seed, rng_for
from bookgen.core.types import GenerationError, GridSize
from bookgen.variants.kakuro import KAKURO


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--puzzles", type=int, default=100)
    ap.add_argument("--sizes", nargs="*", default=["6", "8", "10", "12", "14", "12x9"])
    args = ap.parse_args()
    for text in args.sizes:
        size = GridSize.parse(text) or GridSize(int(text), int(text))
        for level in LEVELS:
            if KAKURO.check_request(size, {}, level):
                print(f"{size.label:>6} {level.key:<7} refused")
                continue
            fails, t0 = 0, time.process_time()
            for seed in range(args.seeds):
                for k in range(args.puzzles):
                    try:
                        KAKURO.generate(size, {}, level, rng_for(derive_seed(seed, k, str(size))))
                    except GenerationError:
                        fails += 1
            n = args.seeds * args.puzzles
            print(f"{size.label:>6} {level.key:<7} {n - fails}/{n} built, "
                  f"{(time.process_time() - t0) / n * 1000:.0f} ms/puzzle", flush=True)


if __name__ == "__main__":
    main()
