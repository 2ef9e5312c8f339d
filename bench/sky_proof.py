"""Skyscrapers' proof with the clue clauses of another commit beside today's, in one process.

Run: ``python bench/sky_proof.py SIZE LEVEL [COUNT] [--base COMMIT]`` (default e71df2f, before the
clauses gained the heights a clue alone rules out). Generates COUNT puzzles, keeps the drafts the
generator proves, then proves them again with each version's ``clue_clauses`` as the proof's
clause groups, alternating the two over 4 rounds: "first" on a fresh proof solver that loads each
clue the first time it meets it (what a bench row or a book section of COUNT puzzles pays), "loaded"
the same drafts again. Prints CPU ms a puzzle; asserts both prove every draft unique.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bookgen.solve.latin_sat as LS  # noqa: E402
import bookgen.solve.skyscrapers as NEW  # noqa: E402
import bookgen.variants.housegrid as H  # noqa: E402
from bookgen.core.difficulty import Level  # noqa: E402
from bookgen.variants.registry import get_variant  # noqa: E402

ROUNDS = 4


def old_module(commit: str):
    """``bookgen.solve.skyscrapers`` as it was at ``commit``."""
    text = subprocess.run(["git", "show", f"{commit}:bookgen/solve/skyscrapers.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "sky_base.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("sky_base", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["sky_base"] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("size", type=int)
    ap.add_argument("level", type=Level.parse)
    ap.add_argument("count", type=int, nargs="?", default=16)
    ap.add_argument("--base", default="e71df2f")
    args = ap.parse_args()
    n, versions = args.size, {"base": old_module(args.base), "now": NEW}
    drafts = []
    prove = H.prove

    def grab(geo, givens, clauses, groups=()):
        drafts.append((geo, list(givens), [key for key, _ in groups]))
        return prove(geo, givens, clauses, groups=groups)

    H.prove = grab
    variant = get_variant("skyscrapers")
    for seed in range(args.count):
        variant.generate(n, {}, args.level, random.Random(seed))
    H.prove = prove

    def run(name: str) -> tuple[float, float]:
        module = versions[name]
        LS._PROOFS = LS.Kept(200)
        module.clue_clauses.cache_clear()
        spent = []
        for _ in range(2):
            start = time.process_time()
            for geo, givens, keys in drafts:
                groups = [((name, *key[1:]), lambda key=key: module.clue_clauses(n, *key[1:])[0]) for key in keys]
                assert len(LS.prove(geo, givens, (), groups=groups)) == 1
            spent.append(time.process_time() - start)
        return spent[0], spent[1]

    total = {name: [0.0, 0.0] for name in versions}
    for r in range(ROUNDS):
        for name in (("base", "now") if r % 2 == 0 else ("now", "base")):
            first, again = run(name)
            total[name][0] += first
            total[name][1] += again
    per = 1000 / (len(drafts) * ROUNDS)
    print(f"skyscrapers {n}x{n} {args.level.key}, {len(drafts)} puzzles, CPU ms a proof: first "
          f"{args.base} {total['base'][0] * per:.2f}, now {total['now'][0] * per:.2f}; loaded "
          f"{args.base} {total['base'][1] * per:.2f}, now {total['now'][1] * per:.2f}")


if __name__ == "__main__":
    main()
