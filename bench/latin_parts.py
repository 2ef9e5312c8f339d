"""Where one Latin-family puzzle's generation time goes: CPU ms per puzzle of its parts.

Run: ``python bench/latin_parts.py VARIANT SIZE LEVEL [COUNT]`` (e.g. ``kenken 4 easy 200``).
Wraps, where the variant's module uses them, the random square (``random_latin_square``),
the carve (``_carve``/``carve``), the grade (``run_ladder``), the SAT proof (``prove``,
KenKen's ``proves_unique``) and the rated run (``rated_run``), and KenKen's draft judge
(``judge``), its per-puzzle draft solver (``draft_solver_made``) and its questions
(``draft_sat``), each timed at its outermost call only, and prints them with the rest
(tiling, cages, drawing the draft, the glue). No profiler: the figures are the
parts' own CPU time, so they add up to the total. Issue 22's small rows (Keen 4x4, Towers
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

from bookgen.core.difficulty import Level  # noqa: E402
from bookgen.variants.registry import get_variant  # noqa: E402

PARTS = ("random_latin_square", "_carve", "carve", "run_ladder", "prove", "proves_unique", "rated_run")
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
    ap.add_argument("level", type=Level.parse)
    ap.add_argument("count", type=int, nargs="?", default=50)
    args = ap.parse_args()
    level = args.level
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
    variant.generate(args.size, rules, level, random.Random(-1))  # warm-up: tables, solvers
    spent.clear()
    start = time.process_time()
    for seed in range(args.count):
        variant.generate(args.size, rules, level, random.Random(seed))
    total = time.process_time() - start
    per = 1000 / args.count
    parts = "  ".join(f"{name} {ms * per:.2f}" for name, ms in spent.items())
    print(f"{args.variant} {args.size}x{args.size} {level.key}: {total * per:.2f} ms a puzzle: {parts}  "
          f"rest {(total - sum(spent.values())) * per:.2f}")


if __name__ == "__main__":
    main()
