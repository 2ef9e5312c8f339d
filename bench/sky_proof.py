"""Skyscrapers' proof with the clue clauses of another commit beside today's, in one process.

Run: ``python bench/sky_proof.py SIZE LEVEL [COUNT] [--base COMMIT]`` (default e71df2f, before the
clauses gained the heights a clue alone rules out; cef99c2 had one clause group per clue, before
the groups per line with the clue as assumptions). Generates COUNT puzzles, keeps the drafts the
generator proves, then proves them again with the base's ``clue_clauses`` as the proof's clause
groups and with today's ``clue_groups``, alternating the two over 4 rounds: "first" on a fresh proof solver that loads each
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
    variant = get_variant("skyscrapers")
    attempt = type(variant).attempt
    clues: list = [None]

    def made(self, *a, **k):
        draft = attempt(self, *a, **k)
        if draft is not None:
            clues[0] = {side: tuple(getattr(draft.puzzle.clues, side)) for side in NEW.SIDES}
        return draft

    def grab(geo, givens, clauses, groups=()):
        drafts.append((geo, list(givens), clues[0]))
        return prove(geo, givens, clauses, groups=groups)

    H.prove = grab
    type(variant).attempt = made
    for seed in range(args.count):
        variant.generate(n, {}, args.level, random.Random(seed))
    H.prove = prove
    type(variant).attempt = attempt

    def run(name: str) -> tuple[float, float]:
        module = versions[name]
        LS._PROOFS = LS.Kept(200)
        for cached in ("clue_clauses", "line_clauses", "clue_literals"):
            if hasattr(module, cached):
                getattr(module, cached).cache_clear()
        spent = []
        for _ in range(2):
            start = time.process_time()
            for geo, givens, said in drafts:
                if module is NEW:
                    groups = NEW.clue_groups(n, said)
                else:
                    groups = [LS.Group((name, side, k, c), lambda key=(side, k, c): module.clue_clauses(n, *key)[0])
                              for side in NEW.SIDES for k, c in enumerate(said[side]) if c]
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
