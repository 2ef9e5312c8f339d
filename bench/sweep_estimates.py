"""Estimate against actual: the build-time estimate over every accepted request of the sweep.

Run: python bench/sweep_estimates.py [--seeds N] [--salt K] [--only V1,V2] [--skip V3] [--sizes 5,10]
         [--rules '[{}, {"max_cage": 2}]'] [--rules-only] [--jsonl FILE]
     python bench/sweep_estimates.py --table FILE.jsonl [MORE.jsonl] [--summary]

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
    "jigsaw": [{"diagonal": True}, {"plain_regions": True}],
    "nonogram": [{"style": "symmetric"}, {"style": "blobs"}],
    "starbattle": [{"stars": 2}],
}
OPTION_SWEEP: dict[str, list[dict]] = {  # section options (``givens``)
    "tango": [{"givens": "few"}, {"givens": "many"}],
    "killer": [{"givens": "few"}],
}


def requests(only: str | None = None, rules_only: bool = False, skip: str | None = None,
             sizes: str | None = None):
    """(variant, size, level, rules, options) of every accepted request of the sweep
    (``only``/``skip``: comma-separated variant names; ``sizes``: comma-separated sides to keep)."""
    for variant in VARIANTS.values():
        if only and variant.name not in only.split(","):
            continue
        if skip and variant.name in skip.split(","):
            continue
        combos = [({}, {})] if not rules_only else []
        combos += [(r, {}) for r in RULE_SWEEP.get(variant.name, [])]
        combos += [({}, o) for o in OPTION_SWEEP.get(variant.name, [])]
        for raw, options in combos:
            for size in variant.sizes:
                if sizes and str(size) not in sizes.split(","):
                    continue
                try:
                    rules = variant.parse_rules(raw, size)
                except ValueError:
                    continue
                for level in LEVELS:
                    if variant.check_request(size, rules, level) is None:
                        yield variant.name, size, level, raw, options


_WARM: set[str] = set()


def warm_up(variant: str, size: int, raw: dict, rules: dict) -> None:
    """Make one untimed puzzle of the first level a (variant, size, rules) accepts: the tables a
    worker builds once (line masks, cage tables) are not a cost per puzzle of a build."""
    key = f"{variant}{size}{sorted(raw.items())}"
    if key in _WARM:
        return
    _WARM.add(key)
    for level in LEVELS:
        if VARIANTS[variant].check_request(size, rules, level) is None:
            try:
                run_job(Job(0, 0, variant, size, tuple(sorted(rules.items())), level, derive_seed(99, key, 0),
                            (), 99))
            except GenerationError:
                pass
            return


def measure(variant: str, size: int, level, raw: dict, options: dict, seeds: int,
            salt: int = 0) -> tuple[float, int, list[float]]:
    """(mean CPU ms per puzzle, failed builds of a puzzle, each seed's ms) over ``seeds`` seeds
    (``salt`` picks another set of seeds: a fresh sample for a table fitted on an earlier one)."""
    rules = VARIANTS[variant].parse_rules(raw, size)
    spent, failed, each = 0.0, 0, []
    warm_up(variant, size, raw, rules)
    for i in range(seeds):
        job = Job(0, i, variant, size, tuple(sorted(rules.items())), level,
                  derive_seed(2626 + salt, f"{variant}{size}{int(level)}{sorted(raw.items())}"
                              f"{sorted(options.items())}", i),
                  tuple(sorted(options.items())), 2626)
        t = time.process_time()
        try:
            run_job(job)
        except GenerationError:
            failed += 1
        took = time.process_time() - t
        spent += took
        each.append(round(1000 * took, 1))
    return 1000 * spent / seeds, failed, each


def _what(row: dict) -> str:
    extra = ", ".join(f"{k}: {v}" for k, v in {**row["rules"], **row["options"]}.items())
    return f"{row['variant']} {row['size']} {row['level']}" + (f" ({extra})" if extra else "")


def reestimate(row: dict) -> dict:
    """The row with the estimate of the tables as they are now (``None``: the request is refused now)."""
    v = VARIANTS[row["variant"]]
    level = next(lv for lv in LEVELS if lv.key == row["level"])
    rules = v.parse_rules(row["rules"], row["size"])
    if v.check_request(row["size"], rules, level) is not None:
        return None
    return {**row, "estimate": round(puzzle_ms(row["variant"], row["size"], level, rules, row["options"]), 2)}


def table(paths: list[Path], summary_only: bool = False, now: bool = False) -> str:
    """The Markdown table of JSONL files of sweep rows (a row repeated in a later file replaces the
    earlier one), and a summary per variant; ``now``: estimates of the tables as they are now,
    requests refused now left out."""
    found: dict[str, dict] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                found[_what(row)] = row
    rows = list(found.values())
    if now:
        rows = [r for r in map(reestimate, rows) if r is not None]
    out = []
    if not summary_only:
        out += ["| request | seeds | actual ms | estimate ms | estimate / actual |", "|---|---:|---:|---:|---:|"]
        for row in rows:
            ratio = row["estimate"] / row["actual"] if row["actual"] else float("inf")
            flag = "" if 1 / 3 <= ratio <= 3 else " **out**"
            out.append(f"| {_what(row)} | {row['seeds']} | {row['actual']:.1f} | {row['estimate']:.1f} | "
                       f"{ratio:.2f}{flag} |")
        out.append("")
    out += ["| variant | requests | outside 1/3..3 | estimate / actual, lowest | median | highest |",
            "|---|---:|---:|---:|---:|---:|"]
    by_variant: dict[str, list[float]] = {}
    for row in rows:
        by_variant.setdefault(row["variant"], []).append(row["estimate"] / row["actual"] if row["actual"] else 1e9)
    every = [x for ratios in by_variant.values() for x in ratios]
    for name, ratios in [*by_variant.items(), ("all", every)]:
        out.append(f"| {name} | {len(ratios)} | {sum(1 for x in ratios if not 1 / 3 <= x <= 3)} | "
                   f"{min(ratios):.2f} | {sorted(ratios)[len(ratios) // 2]:.2f} | {max(ratios):.2f} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--only")
    parser.add_argument("--skip", help="comma-separated variants to leave out")
    parser.add_argument("--sizes", help="comma-separated sizes to keep (a sample of a long size range)")
    parser.add_argument("--rules-only", action="store_true")
    parser.add_argument("--salt", type=int, default=0, help="another set of seeds")
    parser.add_argument("--recheck", type=Path, nargs="+",
                        help="only the requests out of 1/3..3 in these JSONL files (measure them with more seeds)")
    parser.add_argument("--rules", type=json.loads, help='only these rules and options, a JSON list: \'[{}, {"max_cage": 2}]\'')
    parser.add_argument("--jsonl", type=Path)
    parser.add_argument("--table", type=Path, nargs="+", help="print the Markdown table of these JSONL files and stop")
    parser.add_argument("--summary", action="store_true", help="with --table: the summary per variant only")
    parser.add_argument("--now", action="store_true", help="with --table: estimate with the tables as they are now")
    args = parser.parse_args()
    if args.table:
        print(table(args.table, args.summary, args.now))
        return
    done = set()
    if args.jsonl and args.jsonl.exists():  # resume: a row already written is not measured again
        done = {_what(json.loads(line)) for line in args.jsonl.read_text().splitlines() if line.strip()}
    wanted = None
    if args.recheck:
        rows = [json.loads(line) for path in args.recheck for line in path.read_text().splitlines() if line.strip()]
        wanted = {_what(r) for r in rows if not (r["actual"] and 1 / 3 <= r["estimate"] / r["actual"] <= 3)}
    sink = args.jsonl.open("a") if args.jsonl else None
    for variant, size, level, raw, options in requests(args.only, args.rules_only, args.skip, args.sizes):
        if _what(dict(variant=variant, size=size, level=level.key, rules=raw, options=options)) in done:
            continue
        if args.rules is not None and {**raw, **options} not in args.rules:
            continue
        if wanted is not None and _what(dict(variant=variant, size=size, level=level.key, rules=raw,
                                             options=options)) not in wanted:
            continue
        actual, failed, each = measure(variant, size, level, raw, options, args.seeds, args.salt)
        rules = VARIANTS[variant].parse_rules(raw, size)
        estimate = puzzle_ms(variant, size, level, rules, options)
        row = dict(variant=variant, size=size, level=level.key, rules=raw, options=options, seeds=args.seeds,
                   actual=round(actual, 2), estimate=round(estimate, 2), failed=failed, each=each)
        ratio = estimate / actual if actual else float("inf")
        print(f"{_what(row):55s} {actual:9.1f} {estimate:9.1f} {ratio:6.2f}"
              + ("" if 1 / 3 <= ratio <= 3 else "  OUT"), flush=True)
        if sink:
            sink.write(json.dumps(row) + "\n")
            sink.flush()


if __name__ == "__main__":
    main()
