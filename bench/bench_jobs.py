"""Parallel scaling: the 300-puzzle book with ``--jobs 1`` and ``--jobs 2``.

Run: ``python bench/bench_jobs.py [CONFIG] [--jobs 1,2] [--repeat N]``
(default ``configs/big-book.yaml``). Each build runs in-process, timing
puzzle generation and everything after it (layout, PDF, JSON) separately;
it prints wall time per worker count, the speed-up over the first, the
layout share of the build, and whether every build wrote the same bytes.
Needs an otherwise idle machine to mean anything: check ``uptime`` first.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bookgen.book as book_module  # noqa: E402
from bookgen.config import load_book  # noqa: E402


def timed_build(config: Path, workers: int) -> tuple[float, float, str]:
    """(wall seconds, seconds spent generating puzzles, digest of the files written)."""
    book = load_book(config)
    spent = [0.0]
    real_generate = book_module.generate

    def generate(*args, **kwargs):
        t = time.perf_counter()
        try:
            return real_generate(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - t

    book_module.generate = generate
    try:
        with tempfile.TemporaryDirectory(prefix="bookgen-bench-") as out:
            t = time.perf_counter()
            paths = book_module.build(book, Path(out), workers)
            wall = time.perf_counter() - t
            digest = hashlib.sha256(b"".join(p.read_bytes() for p in paths)).hexdigest()
    finally:
        book_module.generate = real_generate
    return wall, spent[0], digest


def main() -> None:
    """Print the scaling table."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("config", nargs="?", type=Path, default=ROOT / "configs" / "big-book.yaml")
    ap.add_argument("--jobs", default="1,2", help="worker counts to compare (default 1,2)")
    ap.add_argument("--repeat", type=int, default=1, help="builds per worker count; the best counts")
    args = ap.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; cores: {os.cpu_count()}")
    base = None
    digests = set()
    for workers in (int(j) for j in args.jobs.split(",")):
        runs = [timed_build(args.config, workers) for _ in range(args.repeat)]
        wall, gen, digest = min(runs)
        digests.update(r[2] for r in runs)
        base = base or wall
        layout = wall - gen
        print(f"--jobs {workers}: {wall:6.2f} s  (puzzles {gen:6.2f} s, layout and files {layout:5.2f} s = "
              f"{100 * layout / wall:4.1f} %)  speed-up {base / wall:4.2f}x", flush=True)
    print("outputs identical for every --jobs" if len(digests) == 1 else "OUTPUTS DIFFER between --jobs")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
