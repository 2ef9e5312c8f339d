"""The cost tables of the build-time estimate, from sweep rows: each variant's data file.

Run: python bench/fit_costs.py SWEEP.jsonl [MORE.jsonl ...] [--only VARIANT] [--smooth VARIANT] [--write]

Reads rows written by ``bench/sweep_estimates.py --jsonl`` and fits, per
variant, ``costs`` (the CPU ms of the default-rules rows: the geometric mean of the seeds' mean and median, by size,
easy..expert), a ``factor`` per rule option or section option (the median
over sizes of its mean over the default's mean, easy..expert, where one level
is beyond 1.5x either way) and an option's own ``costs`` table (where
it opens levels the default rules refuse, or where its factor varies across
sizes by more than 2x either way of the median, so no one factor serves).
Where a later file repeats a row, the seeds of both are pooled.

The fit goes into the variant's data file ``bookgen/variants/costs/NAME.json`` (its format:
docs/estimates.md): printed, or written over the file with ``--write`` (``--dir``: another
folder). What the rows measured replaces what the file held, figure by figure (a size and level,
an option's factor and whether it has a table of its own); the rest of the file stays: the sizes
and options the rows did not reach, ``memory_kb_per_cell`` (``bench/measure_memory.py``) and the
``note``, which says where the figures come from (edit it after a refit).

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
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bookgen.core.types import GridSize  # noqa: E402
from bookgen.core.variant import Measured  # noqa: E402
from bookgen.variants.measured import FOLDER, dump, read  # noqa: E402
from bookgen.variants.registry import VARIANTS  # noqa: E402

LEVELS = ("easy", "medium", "hard", "expert")
DATA = ROOT / "bookgen" / "variants" / FOLDER


def _key(raw: dict) -> tuple:
    (option, value), = raw.items()
    return option, tuple(sorted(value)) if isinstance(value, list) else value


def _sig(x: float) -> float:
    """Three significant figures, one decimal at most."""
    return float(f"{x:.3g}") if x >= 10 else round(x, 1) or 0.1


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


def fit(rows: list[dict], variant: str, smooth: bool = False) -> Measured:
    """The tables the rows measure of ``variant`` (None where a row is missing)."""
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
    rectangular = variant in VARIANTS and VARIANTS[variant].rectangular

    def size_of(s):  # a sweep's side as the data file keys it (a rectangular variant: N x N)
        if isinstance(s, str):
            rows_, _, cols = s.partition("x")
            return GridSize(int(rows_), int(cols or rows_))
        return GridSize(s, s) if rectangular else s

    def table(option) -> dict:
        return {size_of(s): tuple(_sig(mean[(option, s, lv)]) if (option, s, lv) in mean else None for lv in LEVELS)
                for s in sizes if any((option, s, lv) in mean for lv in LEVELS)}

    factors, own = {}, {}
    for option in options:
        ratios = {lv: [mean[(option, s, lv)] / mean[(None, s, lv)] for s in sizes
                       if (option, s, lv) in mean and (None, s, lv) in mean and mean[(None, s, lv)] > 0]
                  for lv in LEVELS}
        factor = tuple(round(statistics.median(r), 1) if r else 1.0 for r in ratios.values())
        opens = any((option, s, lv) in mean and (None, s, lv) not in mean for s in sizes for lv in LEVELS)
        spread = any(r and (max(r) > 2 * statistics.median(r) or min(r) < statistics.median(r) / 2)
                     for r in ratios.values())
        factors[option] = factor if any(not 1 / 1.5 <= f <= 1.5 for f in factor) else None
        own[option] = table(option) if opens or spread else None
    return Measured(table(None), factors, own)


def _cells(old: dict, new: dict) -> dict:
    """``old`` with every figure ``new`` measured (not None) put in, sizes in order."""
    out = {s: list(old.get(s, (None,) * len(LEVELS))) for s in {**old, **new}}
    for s, row in new.items():
        for i, ms in enumerate(row):
            if ms is not None:
                out[s][i] = ms
    order = sorted(out, key=lambda s: (s.rows, s.cols) if isinstance(s, GridSize) else (s, s))
    return {s: tuple(out[s]) for s in order}


def merge(old: Measured, fitted: Measured) -> Measured:
    """``old`` (the data file) with what ``fitted`` measured in its place: its figures, and for
    each option it measured, its factor and its own table (``None``: none)."""
    factors = {**old.rule_costs}
    own = {**old.rule_cost_rows}
    for key, factor in fitted.rule_costs.items():
        factors.pop(key, None)
        if factor is not None:
            factors[key] = factor
    for key, table in fitted.rule_cost_rows.items():
        before = own.pop(key, {})
        if table is not None:
            own[key] = _cells(before, table)
    return Measured(_cells(dict(old.costs), dict(fitted.costs)), factors, own, old.memory_kb_per_cell)


def refit(rows: list[dict], variant: str, smooth: bool, folder: Path) -> tuple[Path, str]:
    """The data file of ``variant`` in ``folder`` and its new text."""
    path = folder / f"{variant}.json"
    text = path.read_text(encoding="utf-8") if path.is_file() else "{}"
    note = json.loads(text).get("note", [])
    return path, dump(merge(read(text, str(path)), fit(rows, variant, smooth)), note)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--only")
    parser.add_argument("--smooth", default="", help="comma-separated variants whose rows borrow from their neighbours")
    parser.add_argument("--write", action="store_true", help="write each variant's data file (else print it)")
    parser.add_argument("--dir", type=Path, default=DATA, help=f"the data files' folder (default {DATA})")
    args = parser.parse_args()
    rows = [json.loads(line) for f in args.files for line in f.read_text().splitlines() if line.strip()]
    for variant in dict.fromkeys(r["variant"] for r in rows):
        if not args.only or variant in args.only.split(","):
            path, text = refit(rows, variant, variant in args.smooth.split(","), args.dir)
            if args.write:
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path}")
            else:
                print(f"{path}:\n{text}")


if __name__ == "__main__":
    main()
