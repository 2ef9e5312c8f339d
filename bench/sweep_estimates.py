"""Estimate against actual: the build-time estimate over every accepted request of the sweep.

Run: python bench/sweep_estimates.py [--seeds N] [--only VARIANT] [--rules-only] [--jsonl FILE] [--table]

The sweep is every (variant, size, level) the generators accept with default
rules (the rows of ``COST_MS``, which hold the issue-13 bench rows), plus each
rule option that changes the cost (``RULE_SWEEP``) on every size and level it
is accepted at. For each request it makes ``--seeds`` puzzles in this process,
timing CPU seconds (``time.process_time``: other load on the machine moves it
little), and prints the mean, the estimate of ``bookgen.estimate.puzzle_ms``
and their ratio. The estimate must stay within 1/3 and 3 of the mean on every
row (``--table`` prints the Markdown table of docs/estimates.md from a JSONL
file written earlier with ``--jsonl``).

A mean over a handful of seeds is itself noisy where one puzzle's cost varies
tenfold between seeds (expert KenKen): rows are flagged, not hidden, when the
ratio leaves the band.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bookgen.book import Job, run_job  # noqa: E402
from bookgen.core.difficulty import LEVELS  # noqa: E402
from bookgen.core.rng import derive_seed  # noqa: E402
from bookgen.core.types import GenerationError  # noqa: E402
from bookgen.estimate import puzzle_ms  # noqa: E402
from bookgen.variants.registry import VARIANTS  # noqa: E402

# Rule options that could move the cost, one at a time (and the worst pair the issue names).
RULE_SWEEP: dict[str, list[dict]] = {
    "kenken": [{"max_cage": 2}, {"max_cage": 3}, {"max_cage": 5}, {"max_cage": 6}, {"show_ops": False},
               {"singles": "none"}, {"singles": "normal"}, {"ops": ["+"]}, {"ops": ["+", "-"]},
               {"ops": ["+", "*"]}, {"max_cage": 6, "show_ops": False}],
    "takuzu": [{"max_run": 3}, {"unique_lines": False}],
    "tango": [{"max_run": 3}, {"unique_lines": True}],
    "sudoku": [{"diagonal": True}],
    "killer": [{"diagonal": True}],
}
OPTION_SWEEP: dict[str, list[dict]] = {  # section options (``givens``)
    "tango": [{"givens": "few"}, {"givens": "many"}],
    "killer": [{"givens": "few"}],
}


def requests(only: str | None = None, rules_only: bool = False):
    """(variant, size, level, rules, options) of every accepted request of the sweep."""
    for variant in VARIANTS.values():
        if only and variant.name != only:
            continue
        combos = [({}, {})] if not rules_only else []
        combos += [(r, {}) for r in RULE_SWEEP.get(variant.name, [])]
        combos += [({}, o) for o in OPTION_SWEEP.get(variant.name, [])]
        for raw, options in combos:
            for size in variant.sizes:
                try:
                    rules = variant.parse_rules(raw, size)
                except ValueError:
                    continue
                for level in LEVELS:
                    if variant.check_request(size, rules, level) is None:
                        yield variant.name, size, level, raw, options


def measure(variant: str, size: int, level, raw: dict, options: dict, seeds: int) -> tuple[float, int]:
    """(mean CPU ms per puzzle, failed builds of a puzzle) over ``seeds`` seeds."""
    rules = VARIANTS[variant].parse_rules(raw, size)
    spent, failed = 0.0, 0
    for i in range(seeds):
        job = Job(0, i, variant, size, tuple(sorted(rules.items())), level,
                  derive_seed(2626, f"{variant}{size}{int(level)}{sorted(raw.items())}{sorted(options.items())}", i),
                  tuple(sorted(options.items())), 2626)
        t = time.process_time()
        try:
            run_job(job)
        except GenerationError:
            failed += 1
        spent += time.process_time() - t
    return 1000 * spent / seeds, failed


def _what(row: dict) -> str:
    extra = ", ".join(f"{k}: {v}" for k, v in {**row["rules"], **row["options"]}.items())
    return f"{row['variant']} {row['size']} {row['level']}" + (f" ({extra})" if extra else "")


def table(path: Path) -> str:
    """The Markdown table of a JSONL file of sweep rows."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    out = ["| request | seeds | actual ms | estimate ms | estimate / actual |", "|---|---:|---:|---:|---:|"]
    for row in rows:
        ratio = row["estimate"] / row["actual"] if row["actual"] else float("inf")
        flag = "" if 1 / 3 <= ratio <= 3 else " **out**"
        out.append(f"| {_what(row)} | {row['seeds']} | {row['actual']:.1f} | {row['estimate']:.1f} | "
                   f"{ratio:.2f}{flag} |")
    ratios = [r["estimate"] / r["actual"] for r in rows if r["actual"]]
    out.append("")
    out.append(f"{len(rows)} requests; estimate / actual from {min(ratios):.2f} to {max(ratios):.2f}; "
               f"{sum(1 for x in ratios if not 1 / 3 <= x <= 3)} outside 1/3..3.")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--only")
    parser.add_argument("--rules-only", action="store_true")
    parser.add_argument("--jsonl", type=Path)
    parser.add_argument("--table", type=Path, help="print the Markdown table of this JSONL file and stop")
    args = parser.parse_args()
    if args.table:
        print(table(args.table))
        return
    sink = args.jsonl.open("a") if args.jsonl else None
    for variant, size, level, raw, options in requests(args.only, args.rules_only):
        actual, failed = measure(variant, size, level, raw, options, args.seeds)
        rules = VARIANTS[variant].parse_rules(raw, size)
        estimate = puzzle_ms(variant, size, level, rules, options)
        row = dict(variant=variant, size=size, level=level.key, rules=raw, options=options, seeds=args.seeds,
                   actual=round(actual, 2), estimate=round(estimate, 2), failed=failed)
        ratio = estimate / actual if actual else float("inf")
        print(f"{_what(row):55s} {actual:9.1f} {estimate:9.1f} {ratio:6.2f}"
              + ("" if 1 / 3 <= ratio <= 3 else "  OUT"), flush=True)
        if sink:
            sink.write(json.dumps(row) + "\n")
            sink.flush()


if __name__ == "__main__":
    main()
