"""Reliability sweep of the Nonogram generator: every accepted request, seeds x puzzles.

Run: ``python bench/sweep_nonogram.py [--seeds 10] [--count 100] [--sizes 5,10,15,20,25,15x10]
[--styles random,symmetric,blobs] [--levels easy,medium,hard,expert]``

For each (size, style, level) the variant accepts (``check_request``), it makes ``count``
puzzles from each of ``seeds`` book seeds (seeds derived as a book derives them) and
counts the ones that fail (``GenerationError``), with the mean and worst CPU time per
puzzle. A request the variant refuses is listed as refused, with its reason. Every puzzle
made is checked: unique by the SAT solver, graded as asked, valid.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bookgen.core.difficulty import Level  # noqa: E402
from bookgen.core.rng import derive_seed, rng_for  # noqa: E402
from bookgen.core.types import GenerationError, GridSize  # noqa: E402
from bookgen.variants.registry import get_variant  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--sizes", default="5,10,15,20,25,15x10")
    ap.add_argument("--styles", default="random,symmetric,blobs")
    ap.add_argument("--levels", default="easy,medium,hard,expert")
    args = ap.parse_args()
    variant = get_variant("nonogram")
    sizes = [GridSize.parse(s) or GridSize(int(s), int(s)) for s in args.sizes.split(",")]
    print(f"{'size':>6} {'style':10} {'level':7} {'made':>6} {'failed':>6} {'mean ms':>8} {'worst ms':>9}")
    total_failed = 0
    request = 0  # each request's own stream of seeds, as a book's sections have
    for size in sizes:
        for style in args.styles.split(","):
            rules = variant.parse_rules({"style": style}, size)
            for key in args.levels.split(","):
                level = Level.parse(key)
                refused = variant.check_request(size, rules, level)
                if refused:
                    print(f"{str(size):>6} {style:10} {key:7} refused: {refused}")
                    continue
                made = failed = 0
                times = []
                request += 1
                for seed in range(args.seeds):
                    for i in range(args.count):
                        rng = rng_for(derive_seed(seed, request, i))
                        t = time.process_time()
                        try:
                            puzzle = variant.generate(size, rules, level, rng)
                        except GenerationError:
                            failed += 1
                            continue
                        times.append(time.process_time() - t)
                        assert variant.solutions(puzzle) == [puzzle.solution] and variant.validate(puzzle) == []
                        assert puzzle.grade.level == level
                        made += 1
                total_failed += failed
                mean = 1000 * sum(times) / max(len(times), 1)
                print(f"{str(size):>6} {style:10} {key:7} {made:6} {failed:6} {mean:8.1f} "
                      f"{1000 * max(times, default=0):9.1f}", flush=True)
    print(f"failures: {total_failed}")


if __name__ == "__main__":
    main()
