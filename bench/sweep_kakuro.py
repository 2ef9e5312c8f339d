"""Kakuro sweep: every accepted request (size x level) at N seeds x M puzzles, built as
``bookgen build`` builds them (``book.run_job``: derived seeds, retries and all), with
failed puzzles, puzzles that needed a retry, and mean and worst CPU ms per puzzle.

Run: PYTHONPATH=. python bench/sweep_kakuro.py [--seeds 1-10] [--count 100]
     [--sizes 6,8,10,12,14,12x9] [--levels easy,expert]

The defaults are the issue's full sweep: 10 seeds x 100 puzzles of every square size
6..14 and two rectangles, every level each accepts (days of CPU on a 2-core machine;
the flags pick a subset, e.g. ``--seeds 1-3 --count 10``). Exit status 1 when any
puzzle failed.
"""

from __future__ import annotations

import argparse
import sys

from bookgen.core.difficulty import LEVELS, Level
from bookgen.core.types import GridSize
from bookgen.variants.kakuro import KAKURO
from sweep_binary import _ints  # bench/ is on the path when a script of it runs
from sweep_starbattle import build_case

SIZES = "6,7,8,9,10,11,12,13,14,12x9,8x14"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--sizes", default=SIZES)
    ap.add_argument("--levels", default=",".join(level.key for level in LEVELS))
    args = ap.parse_args()
    failed = 0
    print("  size level   seeds puzzles failed retried  ms/puzzle  worst ms")
    for text in args.sizes.split(","):
        size = GridSize.parse(text) or GridSize(int(text), int(text))
        for level in (Level.parse(x) for x in args.levels.split(",")):
            if KAKURO.check_request(size, {}, level):
                print(f"{size.label:>6} {level.key:<7} refused", flush=True)
                continue
            # a square as the int a config's ``size: 10`` makes (its puzzles' seeds are a book's)
            job_size = size.rows if size.rows == size.cols else size
            bad, line = build_case(KAKURO.name, job_size, {}, level, _ints(args.seeds), args.count)
            failed += bad
            print(f"{size.label:>6} {line}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
