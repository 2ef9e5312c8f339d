"""Peak memory of a build against its puzzle count: the figures behind ``bookgen.limits``' memory bound.

Run: python bench/measure_memory.py [--counts 500,2000] [--layout worksheet] [VARIANT:SIZE ...]

For each variant and size (default: the largest size of every variant, and
Takuzu 6x6), a fresh process per count builds a one-section book of that
many puzzles through ``bookgen.book.build`` (one worker) and reports its peak
resident memory (``ru_maxrss``). Making thousands of 14x14 Kakuro or 25x25
Nonograms would take hours, so the generator is replaced: a handful of real
puzzles are made once and every slot gets a fresh copy of one of them
(unpickled, as a worker's result arrives), with a fingerprint of its own.
Everything after generation (ordering, layout, the PDFs, the JSON) is the real
build. The slope between two counts is the memory a puzzle adds (and the
bytes it adds to the JSON).
"""

from __future__ import annotations

import argparse
import json
import pickle
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SAMPLES = 3  # real puzzles per measurement


def one(variant: str, size: int, count: int, layout: str) -> tuple[int, int]:
    """(peak RSS in KB, bytes of its JSON) of a build of ``count`` puzzles (in its own process)."""
    import bookgen.book as book_mod
    from bookgen.config import load_book
    from bookgen.variants.registry import VARIANTS

    v = VARIANTS[variant]
    level = next(lv for lv in ("easy", "medium", "hard", "expert")
                 if v.check_request(size, v.parse_rules({}, size), __import__("bookgen.core.difficulty",
                                    fromlist=["Level"]).Level[lv.upper()]) is None)
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "mem.yaml"
        config.write_text(f"title: Memory\nseed: 3\npage: letter\nlayout: {layout}\nsections:\n"
                          f"  - variant: {variant}\n    size: {size}\n    count: {count}\n"
                          f"    difficulty: {level}\n")
        book = load_book(config)
        real = book_mod.generate

        def fake(jobs, workers=1, progress=None):
            samples = [pickle.dumps(p) for p in real(jobs[:SAMPLES], 1)]
            return [(pickle.loads(samples[i % len(samples)])[0], f"fake-{i}") for i in range(len(jobs))]

        book_mod.generate = fake
        book_mod.build(book, Path(tmp) / "out", workers=1)
        json_bytes = (Path(tmp) / "out" / "mem.json").stat().st_size
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, json_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help="VARIANT:SIZE (default: every variant's largest size)")
    parser.add_argument("--counts", default="500,2000")
    parser.add_argument("--layout", default="worksheet")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        variant, size, count = args.one.split(":")
        print(*one(variant, int(size), int(count), args.layout))
        return
    from bookgen.variants.registry import VARIANTS

    targets = [(t.split(":")[0], int(t.split(":")[1])) for t in args.targets] or \
        [("takuzu", 6)] + [(v.name, max(v.sizes)) for v in VARIANTS.values()]
    counts = [int(c) for c in args.counts.split(",")]
    for variant, size in targets:
        peaks, sizes = [], []
        for count in counts:
            out = subprocess.run([sys.executable, __file__, "--one", f"{variant}:{size}:{count}",
                                  "--layout", args.layout], capture_output=True, text=True)
            if out.returncode:
                print(f"{variant} {size}: failed: {out.stderr.strip().splitlines()[-1:]}", flush=True)
                break
            peaks.append(int(out.stdout.split()[-2]))
            sizes.append(int(out.stdout.split()[-1]))
        else:
            slope = (peaks[-1] - peaks[0]) / (counts[-1] - counts[0])
            print(json.dumps(dict(variant=variant, size=size, layout=args.layout, counts=counts,
                                  peak_kb=peaks, kb_per_puzzle=round(slope, 1),
                                  json_bytes_per_puzzle=round((sizes[-1] - sizes[0]) / (counts[-1] - counts[0])))),
                  flush=True)


if __name__ == "__main__":
    main()
