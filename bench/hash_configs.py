"""Fingerprint every puzzle the shipped configs generate, to prove a speed-up changed nothing.

Run: ``python bench/hash_configs.py [--jobs N] [CONFIG ...]`` (default: every
``configs/*.yaml``). Prints one SHA-256 per config over the canonical JSON of
its puzzles (page numbers left out, so layout changes don't show) and one over
all of them. Compare the output before and after an optimisation that is meant
to be a pure speed-up: any difference means the generator now makes other puzzles.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bookgen.book import dumps, generate, plan, puzzle_json  # noqa: E402
from bookgen.config import ConfigError, load_book  # noqa: E402


def fingerprint(path: Path, jobs: int) -> str:
    """SHA-256 of the puzzles (JSON entries without pages) a config generates."""
    book = load_book(path)
    printed = generate(plan(book), jobs)
    entries = [puzzle_json(i + 1, p, 0, "", f) for i, (p, f) in enumerate(printed)]
    return hashlib.sha256(dumps(entries)).hexdigest()


def main() -> None:
    """Print one hash per config and a total."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("configs", nargs="*", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    paths = args.configs or sorted((ROOT / "configs").glob("*.yaml"))
    total = hashlib.sha256()
    for path in paths:
        try:
            digest = fingerprint(path, args.jobs)
        except ConfigError as exc:  # e.g. a series volume that excludes a book not built here
            print(f"{'skipped':64}  {path.name}: {str(exc).splitlines()[0]}", flush=True)
            continue
        total.update(digest.encode())
        print(f"{digest}  {path.name}", flush=True)
    print(f"{total.hexdigest()}  (all)")


if __name__ == "__main__":
    main()
