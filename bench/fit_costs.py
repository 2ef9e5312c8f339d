"""The cost tables of the build-time estimate, from sweep rows: what to paste into each variant.

Run: python bench/fit_costs.py SWEEP.jsonl [MORE.jsonl ...] [--only VARIANT]

Reads rows written by ``bench/sweep_estimates.py --jsonl`` and prints, per
variant, ``costs`` (the CPU ms of the default-rules rows: the geometric mean of the seeds' mean and median, by size,
easy..expert), ``rule_costs`` (per rule option or section option, the median
over sizes of its mean over the default's mean, easy..expert, where one level
is beyond 1.5x either way) and ``rule_cost_rows`` (an option's own table where
it opens levels the default rules refuse, or where its factor varies across
sizes by more than 2x either way of the median, so no one factor serves).
Where a later file repeats a row, the seeds of both are pooled.

``--smooth VARIANT[,VARIANT]``: for variants whose one puzzle's cost varies tenfold from seed to
seed (Nonogram, Kakuro), each size's figure is read off a line through it and its two nearest
measured sizes (log ms against log cells, least squares), so a row sampled by a few unlucky seeds
borrows from its neighbours instead of going into the table as it came out.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import defaultdict
from pathlib import Path

LEVELS = ("easy", "medium", "hard", "expert")


def _key(raw: dict) -> tuple:
    (option, value), = raw.items()
    return option, tuple(sorted(value)) if isinstance(value, list) else value


def _sig(x: float) -> float:
    """Three significant figures, one decimal at most."""
    return float(f"{x:.3g}") if x >= 10 else round(x, 1) or 0.1


def _lit(option: tuple) -> str:
    """The key as the variant modules write it (double quotes)."""
    return repr(option).replace("'", '"')


def _smoothed(points: dict) -> dict:
    """``{side: ms}`` read off local lines through each side and its two nearest measured sides
    (log ms against log cells, least squares; at an end, the three sides at that end)."""
    sides = sorted(points)
    if len(sides) < 3:
        return dict(points)
    out = {}
    for i, side in enumerate(sides):
        lo = min(max(i - 1, 0), len(sides) - 3)
        xs = [2 * math.log(s) for s in sides[lo:lo + 3]]
        ys = [math.log(points[s]) for s in sides[lo:lo + 3]]
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        out[side] = math.exp(my + slope * (2 * math.log(side) - mx))
    return out


def fit(rows: list[dict], variant: str, smooth: bool = False) -> str:
    pooled: dict[tuple, list[float]] = defaultdict(list)
    for row in rows:
        if row["variant"] != variant:
            continue
        extra = {**row["rules"], **row["options"]}
        if len(extra) > 1:
            continue  # combinations are checked by the sweep, not fitted
        option = _key(extra) if extra else None
        pooled[(option, row["size"], row["level"])] += row.get("each") or [row["actual"]] * row["seeds"]
    # the geometric mean of the mean and the median: a row whose cost has a long tail (one seed
    # in ten takes 30x) is fitted nearer what a sample of a few seeds shows than its mean is
    mean = {k: (statistics.fmean(v) * statistics.median(v)) ** 0.5 for k, v in pooled.items()}
    if smooth:  # per option and level, across the sizes measured (sides: these variants are square)
        for option, level in {(o, lv) for (o, _, lv) in mean}:
            column = {s: mean[(option, s, level)] for (o, s, lv) in mean if (o, lv) == (option, level)}
            for s, ms in _smoothed(column).items():
                mean[(option, s, level)] = ms
    sizes = sorted({s for (_, s, _) in mean}, key=lambda s: (isinstance(s, str), s))
    options = sorted({o for (o, _, _) in mean if o is not None}, key=str)

    def table(option) -> dict:
        return {s: tuple(_sig(mean[(option, s, lv)]) if (option, s, lv) in mean else None for lv in LEVELS)
                for s in sizes if any((option, s, lv) in mean for lv in LEVELS)}

    out = [f"{variant}:", "    costs = {"]
    out += [f"        {s}: {row}," for s, row in table(None).items()]
    out.append("    }")
    factors, own = {}, {}
    for option in options:
        ratios = {lv: [mean[(option, s, lv)] / mean[(None, s, lv)] for s in sizes
                       if (option, s, lv) in mean and (None, s, lv) in mean and mean[(None, s, lv)] > 0]
                  for lv in LEVELS}
        factor = tuple(round(statistics.median(r), 1) if r else 1.0 for r in ratios.values())
        opens = any((option, s, lv) in mean and (None, s, lv) not in mean for s in sizes for lv in LEVELS)
        spread = any(r and (max(r) > 2 * statistics.median(r) or min(r) < statistics.median(r) / 2)
                     for r in ratios.values())
        if any(not 1 / 1.5 <= f <= 1.5 for f in factor):
            factors[option] = factor
        if opens or spread:
            own[option] = table(option)
    out.append("    rule_costs = {")
    out += [f"        {_lit(o)}: {f}," for o, f in factors.items()]
    out.append("    }")
    out.append("    rule_cost_rows = {")
    for option, rows_ in own.items():
        out.append(f"        {_lit(option)}: {{")
        out += [f"            {s}: {row}," for s, row in rows_.items()]
        out.append("        },")
    out.append("    }")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--only")
    parser.add_argument("--smooth", default="", help="comma-separated variants whose rows borrow from their neighbours")
    args = parser.parse_args()
    rows = [json.loads(line) for f in args.files for line in f.read_text().splitlines() if line.strip()]
    for variant in dict.fromkeys(r["variant"] for r in rows):
        if not args.only or variant in args.only.split(","):
            print(fit(rows, variant, variant in args.smooth.split(",")))


if __name__ == "__main__":
    main()
