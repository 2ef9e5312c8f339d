"""Where one Latin-family puzzle's generation time goes: CPU ms per puzzle of its parts.

Run: ``python bench/latin_parts.py VARIANT SIZE LEVEL [COUNT]`` (e.g. ``kenken 4 easy 200``;
a named level, ``sudoku 9 beginner`` or ``sudoku 9 easy --named``, is made as a book makes it:
its band and ramp aims, through the aimed carve ``carve_to_rating``, as ``bench_reference.py``'s
named rows).
Wraps, where the variant's module uses them, the random square (``random_latin_square``),
the carve (``_carve``, ``_small_carve`` with the grade it takes, ``carve``), the grade
(``run_ladder``), the SAT proof (``prove``, KenKen's ``proves_unique``) and the rated run
(``rated_run``), and KenKen's draft judge (``judge``), its per-puzzle draft solver
(``draft_solver_made``) and its questions (``draft_sat``), each timed at its outermost
call only, and prints them with the rest (tiling, cages, drawing the draft, the glue). No
profiler: the figures are the parts' own CPU time, so they add up to the total. Issue 22's small rows (Keen 4x4, Towers
4x4, Unequal 5x5 easy in 0.01-0.6 ms) are set against this floor in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bookgen.book import run_job  # noqa: E402
from bookgen.core.difficulty import LEVEL_KEYS, Level  # noqa: E402
from bookgen.core.rating import BAND_KEYS, band  # noqa: E402
from bookgen.variants.registry import get_variant  # noqa: E402
from bench_reference import Row, named_job  # noqa: E402

PARTS = ("random_latin_square", "_carve", "_small_carve", "carve", "carve_to_rating", "run_ladder", "prove",
         "proves_unique", "rated_run")
MODULES = ("housegrid", "kenken", "futoshiki", "skyscrapers", "killer", "sudoku", "jigsaw")
# Methods timed the same way: (module, class, method, the part's name). KenKen's drafts are
# judged by its ladder and, at hard, asked for a second solution by a SAT solver per puzzle.
METHODS = (("bookgen.solve.arithmetic", "DraftSolver", "__init__", "draft_solver_made"),
           ("bookgen.solve.arithmetic", "DraftSolver", "other_solutions", "draft_sat"),
           ("bookgen.variants.kenken", "KenKenVariant", "_judge", "judge"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant")
    ap.add_argument("size", type=int)
    ap.add_argument("level")
    ap.add_argument("count", type=int, nargs="?", default=50)
    ap.add_argument("--named", action="store_true", help="the named level (band) of a tier's name, e.g. easy")
    args = ap.parse_args()
    named = args.level if args.level in BAND_KEYS and (args.named or args.level not in LEVEL_KEYS) else ""
    level = band(named).tier if named else Level.parse(args.level)
    spent: dict[str, float] = defaultdict(float)
    inside = [0]

    def timed(name, fn):
        def run(*a, **k):
            if inside[0]:
                return fn(*a, **k)
            inside[0] += 1
            start = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                spent[name] += time.process_time() - start
                inside[0] -= 1
        return run

    for name in MODULES:
        module = importlib.import_module("bookgen.variants." + name)
        for part in PARTS:
            if hasattr(module, part):
                setattr(module, part, timed(part, getattr(module, part)))
    for module, cls, method, part in METHODS:
        owner = getattr(importlib.import_module(module), cls)
        setattr(owner, method, timed(part, getattr(owner, method)))
    variant = get_variant(args.variant)
    rules = variant.parse_rules({}, args.size)
    row = Row(args.variant, args.size, level, named=named)

    def make(seed: int, index: int) -> None:
        if named:
            run_job(named_job(row, rules, seed, index, args.count))
        else:
            variant.generate(args.size, rules, level, random.Random(seed))

    make(args.count, 0)  # warm-up: tables, solvers
    spent.clear()
    start = time.process_time()
    for seed in range(args.count):
        make(seed, seed)
    total = time.process_time() - start
    per = 1000 / args.count
    parts = "  ".join(f"{name} {ms * per:.2f}" for name, ms in spent.items())
    print(f"{args.variant} {args.size}x{args.size} {named or level.key}: {total * per:.2f} ms a puzzle: {parts}  "
          f"rest {(total - sum(spent.values())) * per:.2f}")


if __name__ == "__main__":
    main()
