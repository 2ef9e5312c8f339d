"""Is one commit's binary engine slower than another's? Interleaved CPU time, with a bootstrap interval.

Run: python bench/ab_binary.py BASE [OTHER ...] [--rounds 12] [--seeds 2] [--json FILE]
     python bench/ab_binary.py --report FILE

Each commit is exported (``git archive``) into a temporary folder. Every round
runs one fresh process per commit, in a shuffled order, and each process makes
the puzzles of every ``bench/bench_binary.py`` row (Takuzu 6-14, Tango 6-12,
easy..expert, the same ``--seeds`` seeds in every round), timing each row in
CPU seconds of that process (``time.process_time``). A round's ratio for a row
is OTHER / BASE of the two processes of that round, which ran minutes apart at
most, so the load of other work on the machine cancels out of the ratio more
than it does out of two separate runs. The report gives, per row and over all
rows (the geometric mean of the rows), the median ratio over the rounds and
a 95 % bootstrap interval of that median (2,000 resamples of the rounds).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs inside the exported tree: one line of JSON, {row: CPU seconds}.
PROBE = r"""
import json, sys, time
from bookgen.core.difficulty import LEVELS
from bookgen.core.rng import derive_seed, rng_for
from bookgen.variants.takuzu import TAKUZU
from bookgen.variants.tango import TANGO
seeds = int(sys.argv[1])
out = {}
for variant, sizes in ((TAKUZU, (6, 8, 10, 12, 14)), (TANGO, (6, 8, 10, 12))):
    variant.generate(6, variant.parse_rules({}, 6), LEVELS[0], rng_for(derive_seed(1, 1, 1)))  # warm up
    for size in sizes:
        for level in LEVELS:
            t = time.process_time()
            for i in range(seeds):
                variant.generate(size, variant.parse_rules({}, size), level, rng_for(derive_seed(424242, size, i)))
            out[f"{variant.name} {size} {level.key}"] = time.process_time() - t
print(json.dumps(out))
"""


def export(commit: str, into: Path) -> Path:
    """The tree of ``commit`` (its ``bookgen`` package) in a folder under ``into``."""
    folder = into / commit
    folder.mkdir()
    data = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "bookgen"], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def probe(tree: Path, seeds: int) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", PROBE, str(seeds)], cwd=tree, check=True,
                          capture_output=True, text=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
    return json.loads(done.stdout.splitlines()[-1])


def bootstrap_median(values: list[float], rng: random.Random, resamples: int = 2000) -> tuple[float, float, float]:
    """(median, 2.5th and 97.5th percentile of the median over resamples)."""
    meds = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(resamples))
    return statistics.median(values), meds[int(0.025 * resamples)], meds[int(0.975 * resamples) - 1]


def report(data: dict) -> str:
    """The Markdown table of a run: OTHER / BASE per row and overall, each OTHER."""
    rng = random.Random(26)
    base, rounds = data["base"], data["rounds"]
    lines = []
    for other in data["others"]:
        lines += [f"{other} / {base}, {len(rounds)} rounds of {data['seeds']} seeds a row:", "",
                  "| row | base CPU s | median ratio | 95 % interval |", "|---|---:|---:|---:|"]
        rows = list(rounds[0][base])
        per_round_geo = []
        for r in rounds:
            per_round_geo.append(math.exp(statistics.fmean(math.log(r[other][k] / r[base][k]) for k in rows)))
        for k in rows:
            ratios = [r[other][k] / r[base][k] for r in rounds]
            med, lo, hi = bootstrap_median(ratios, rng)
            flag = " **slower**" if lo > 1.05 else ""
            lines.append(f"| {k} | {statistics.median(r[base][k] for r in rounds):.3f} | {med:.3f} | "
                         f"{lo:.3f}..{hi:.3f}{flag} |")
        med, lo, hi = bootstrap_median(per_round_geo, rng)
        lines += [f"| all rows (geometric mean) | | {med:.3f} | {lo:.3f}..{hi:.3f} |", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commits", nargs="*", help="BASE, then the commits to compare with it")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write every round's times here")
    parser.add_argument("--report", type=Path, help="print the table of a --json file and stop")
    args = parser.parse_args()
    if args.report:
        print(report(json.loads(args.report.read_text())))
        return
    if len(args.commits) < 2:
        parser.error("give a base commit and at least one other")
    base, others = args.commits[0], args.commits[1:]
    order = random.Random(7)
    data = {"base": base, "others": others, "seeds": args.seeds, "rounds": []}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {c: export(c, Path(tmp)) for c in args.commits}
        for n in range(args.rounds):
            commits = list(args.commits)
            order.shuffle(commits)
            data["rounds"].append({c: probe(trees[c], args.seeds) for c in commits})
            print(f"round {n + 1}/{args.rounds}", file=sys.stderr, flush=True)
            if args.json:
                args.json.write_text(json.dumps(data))
    print(report(data))


if __name__ == "__main__":
    main()
