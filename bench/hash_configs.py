"""Fingerprint every puzzle the shipped configs generate, to prove a speed-up changed nothing.

Run: ``python bench/hash_configs.py [--jobs N] [CONFIG ...]`` (default: every
``configs/*.yaml``). Prints one SHA-256 per config over the canonical JSON of
its puzzles (page numbers left out, so layout changes don't show) and one over
all of them. Compare the output before and after an optimisation that is meant
to be a pure speed-up: any difference means the generator now makes other puzzles.

``--latin N`` hashes instead N puzzles of every Latin-family row of
``bench_reference.py`` (Sudoku 9x9, 12x12, 16x16, Sudoku X, Killer, Jigsaw,
KenKen, Futoshiki, Skyscrapers; the same derived seeds as that bench), one line
per row: the variants no shipped config uses are covered too.
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


LATIN = ("sudoku", "killer", "jigsaw", "kenken", "futoshiki", "skyscrapers")


def latin_rows(count: int, only: list[str]) -> None:
    """One hash per Latin-family bench row over ``count`` puzzles, and a total."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_reference import default_rows, named_job

    from bookgen.book import run_job
    from bookgen.core.rng import derive_seed, rng_for
    from bookgen.variants.registry import get_variant

    total = hashlib.sha256()
    for row in default_rows():
        if row.variant not in LATIN or only and not any(t in row.label for t in only):
            continue
        variant = get_variant(row.variant)
        rules = variant.parse_rules(row.rules, row.size)
        # A named level (9x9 Sudoku's beginner, easy, extreme) as the bench makes it: its band
        # and ramp aims, through the aimed carve; the tier's own rows call ``generate``.
        entries = [puzzle_json(i + 1, run_job(named_job(row, rules, i, i, count)) if row.named else
                               variant.generate(row.size, rules, row.level,
                                                rng_for(derive_seed(13_13, row.size * 10 + int(row.level), i))),
                               0, "", "")
                   for i in range(count)]
        digest = hashlib.sha256(dumps(entries)).hexdigest()
        total.update(digest.encode())
        print(f"{digest}  {row.label}", flush=True)
    print(f"{total.hexdigest()}  (all)")


def main() -> None:
    """Print one hash per config and a total."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("configs", nargs="*", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--latin", type=int, default=0, help="hash N puzzles of each Latin bench row instead")
    ap.add_argument("--only", action="append", default=[], help="with --latin: rows whose label contains TEXT")
    args = ap.parse_args()
    if args.latin:
        latin_rows(args.latin, args.only)
        return
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
