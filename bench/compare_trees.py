"""One bench row, this tree against another checkout, alternated in one run.

Run: ``python bench/compare_trees.py OTHER_TREE VARIANT SIZE LEVEL [--count N] [--rounds R]``
(for instance after ``git worktree add /tmp/old 5723732``:
``python bench/compare_trees.py /tmp/old futoshiki 5 easy --count 200 --rounds 8``).

Each round times ``generate`` for ``count`` puzzles from derived seeds (the
same seeds on both sides, new ones each round) in a fresh process per side,
CPU time after one untimed puzzle, the other tree first, then this one. It
prints each round's totals and ratio (this / other), then the total ratio and
the median of the rounds: on a shared machine only such same-run ratios mean
anything (``docs/benchmarks.md``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def child(tree: str, variant: str, size: int, level: str, start: int, count: int) -> None:
    """In the child process: time ``count`` puzzles of ``tree``'s code, print total CPU ms."""
    sys.path.insert(0, tree)
    from bookgen.core.difficulty import LEVELS
    from bookgen.core.rng import derive_seed, rng_for
    from bookgen.variants.registry import get_variant
    v = get_variant(variant)
    lv = next(lv for lv in LEVELS if lv.key == level)
    v.generate(size, {}, lv, rng_for(derive_seed(99, 0, 10**6)))  # set-up, untimed
    total = 0.0
    for k in range(start, start + count):
        t = time.process_time()
        v.generate(size, {}, lv, rng_for(derive_seed(99, 0, k)))
        total += time.process_time() - t
    print(total * 1000)


def run(tree: str, args: argparse.Namespace, start: int) -> float:
    out = subprocess.run([sys.executable, __file__, "--child", tree, args.variant, str(args.size), args.level,
                          "--start", str(start), "--count", str(args.count)],
                         capture_output=True, text=True, check=True, cwd="/")
    return float(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("other")
    ap.add_argument("variant")
    ap.add_argument("size", type=int)
    ap.add_argument("level")
    ap.add_argument("--count", type=int, default=100, help="puzzles per side and round (default 100)")
    ap.add_argument("--rounds", type=int, default=6, help="alternations (default 6)")
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.other, args.variant, args.size, args.level, args.start, args.count)
        return
    ratios, old_sum, new_sum = [], 0.0, 0.0
    for r in range(args.rounds):
        old = run(str(Path(args.other).resolve()), args, 100 * (r + 1))
        new = run(str(HERE), args, 100 * (r + 1))
        old_sum, new_sum = old_sum + old, new_sum + new
        ratios.append(new / old)
        print(f"round {r + 1}: other {old / args.count:.3f} ms, this {new / args.count:.3f} ms, "
              f"ratio {new / old:.3f}", flush=True)
    print(f"total ratio {new_sum / old_sum:.3f}, median {statistics.median(ratios):.3f}, "
          f"range {min(ratios):.2f}-{max(ratios):.2f}")


if __name__ == "__main__":
    main()
