"""How far one puzzle's cost spreads from seed to seed, per request, from sweep rows.

Run: python bench/spread.py SWEEP.jsonl [MORE.jsonl ...] [--only VARIANT] [--against BEFORE.jsonl ...]

e.g. ``python bench/sweep_estimates.py --only kakuro --seeds 8 --salt 30 --jsonl k.jsonl`` then
``python bench/spread.py k.jsonl`` (docs/kakuro.md, "How far one puzzle's time spreads").

Reads rows written by ``bench/sweep_estimates.py --jsonl`` (each holds every seed's CPU ms in
``each``; a row repeated in a later file pools its seeds, as ``bench/fit_costs.py`` does) and
prints a Markdown table: seeds, mean and median ms, max/min and max/median. ``--against``
puts the same figures of other files (before a change) beside them.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

LEVELS = ("easy", "medium", "hard", "expert")


def pooled(paths: list[Path], only: str | None) -> dict[tuple, list[float]]:
    """(variant, size, level, rules, options) -> every seed's ms, default rules and options only
    when ``only`` is None or names the variant."""
    out: dict[tuple, list[float]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            if only and row["variant"] != only:
                continue
            key = (row["variant"], row["size"], LEVELS.index(row["level"]),
                   json.dumps(row["rules"], sort_keys=True), json.dumps(row["options"], sort_keys=True))
            out.setdefault(key, []).extend(row["each"])
    return out


def figures(each: list[float]) -> str:
    if not each:
        return "| | | | | |"
    low, mid, top = min(each), statistics.median(each), max(each)
    return (f"| {len(each)} | {statistics.fmean(each):,.0f} | {mid:,.0f} | {top / max(low, 0.1):.1f} | "
            f"{top / max(mid, 0.1):.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--only")
    parser.add_argument("--against", type=Path, nargs="+", default=[])
    args = parser.parse_args()
    now = pooled(args.files, args.only)
    before = pooled(args.against, args.only) if args.against else {}
    head = "| request | seeds | mean ms | median ms | max/min | max/median |"
    rule = "|---|---:|---:|---:|---:|---:|"
    if before:
        head = head.replace("| request |", "| request | before: seeds | mean ms | median ms | max/min | max/median "
                            "| after:")
        rule += "---:|---:|---:|---:|---:|"
    print(head)
    print(rule)
    for key in sorted(set(now) | set(before)):
        variant, size, level, rules, options = key
        extra = "" if rules == "{}" and options == "{}" else f" {rules} {options}"
        what = f"{variant} {size} {LEVELS[level]}{extra}"
        cells = figures(before.get(key, [])) + figures(now.get(key, []))[1:] if before else figures(now.get(key, []))
        print(f"| {what} {cells}")


if __name__ == "__main__":
    main()
