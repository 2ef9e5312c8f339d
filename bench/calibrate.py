"""Calibrate our difficulty rating against independent graders.

Run as ``python bench/calibrate.py [--count 60] [--levels beginner,easy,medium,hard,expert] [--x]
[--se-jar PATH] [--workers 2] [--json BOOK.json] [--save FILE] [--steps] [--tatham]``.

1. Sudoku (``--x``: Sudoku X): ``--count`` puzzles per level, generated with seeds
   derived from 2026 (or read from a book's JSON twin with ``--json``), each rated by
   - Sudoku Explainer (the "SE 1.2-12" scale solvers quote), when a jar is given with
     ``--se-jar`` or the ``SE_JAR`` environment variable. We don't ship SE or a script that
     builds it: build a jar yourself from the source of Sukaku Explainer
     (github.com/SudokuMonster/SukakuExplainer, LGPL), outside this repository; its batch rater
     is the class ``diuf.sudoku.test.serate`` (``--isX=1`` rates Sudoku X);
   - QQWing (Debian's ``qqwing``; plain Sudoku only): its level name;
   - our grader: level, rating and estimated minutes.
   Prints per level the SE min/median/max, our rating's, the QQWing levels, and
   Spearman's rank correlation between our rating and SE's inside each level and over
   all levels, for the rating alone and for the order a book prints (rating, then minutes).
2. ``--tatham``: Simon Tatham's Solo, Keen, Unequal and Towers (Debian ``sgt-puzzles``)
   generate ``--count`` puzzles at each of their levels; our grader rates them, and the
   table gives our rating per Tatham level with the rank correlation between the two.

Determinism: our puzzles come from fixed seeds, so a rerun measures the same puzzles
unless the generator changed. SE's rating is deterministic; Tatham's generators are not
seeded here (their figures move a little between runs).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bookgen.core.difficulty import Level  # noqa: E402
from bookgen.book import Job, run_job  # noqa: E402
from bookgen.core.rng import version_seed  # noqa: E402
from bookgen.core.types import GenerationError, Grade, Puzzle  # noqa: E402
from bookgen.variants.registry import VARIANTS  # noqa: E402

QQWING = shutil.which("qqwing") or "/usr/games/qqwing"
SE_CLASS = "diuf.sudoku.test.serate"
BASE_SEED = 2026
LEVEL_KEYS = ("easy", "medium", "hard", "expert", "extreme")  # their seeds: section 700 + index
ORDER = ("beginner",) + LEVEL_KEYS  # beginner (seeds: section 699) came later, below easy


# ----- statistics -------------------------------------------------------------------

def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    k = 0
    while k < len(order):
        j = k
        while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
            j += 1
        for m in range(k, j + 1):
            out[order[m]] = (k + j) / 2 + 1
        k = j + 1
    return out


def spearman(xs: Sequence, ys: Sequence) -> float | None:
    """Spearman's rho (Pearson on average ranks); None when either side is constant.
    ``xs`` may hold tuples (a lexicographic key: rating, then minutes)."""
    if len(xs) < 3:
        return None
    rx, ry = ranks(list(xs)), ranks(list(ys))
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if not sxx or not syy:
        return None
    return sxy / (sxx * syy) ** 0.5


def fmt(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


# ----- our side ---------------------------------------------------------------------

def rating_of(grade: Grade) -> float:
    """Our rating; before ratings existed, the score (level + work) stood for it."""
    got = getattr(grade, "rating", None)
    return float(got) if got is not None else float(grade.score)


def minutes_of(grade: Grade) -> float:
    got = getattr(grade, "minutes", None)
    return float(got) if got is not None else 0.0


def _generate(args: tuple[str, dict, int, str, int]) -> Puzzle | None:
    """One puzzle of a level as a book makes it: carved at the level's tier, with seeds
    tried until its rating falls in the level's band (where the build has bands)."""
    name, rules, size, key, index, count = args
    variant = VARIANTS[name]
    target = level_target(key)
    parsed = tuple(sorted(variant.parse_rules(rules, size).items()))
    section = 700 + LEVEL_KEYS.index(key) if key in LEVEL_KEYS else 699  # beginner: below easy
    extra = {"band": target[1]} if target[1] else {}
    if target[1] and variant.banded_levels(size, dict(parsed)):  # a level's run, as a book carves it
        try:
            from bookgen.core.rating import aims
        except ImportError:
            aims = None
        if aims is not None:
            extra["aim"] = aims(*target[1], target[0], count)[index]
    job = Job(section, index, name, size, parsed, target[0], version_seed(BASE_SEED, section, index, 0), (),
              book_seed=BASE_SEED, **extra)
    try:
        return run_job(job)
    except GenerationError as exc:
        print(f"  ({key} #{index}: {exc})", file=sys.stderr)
        return None


def level_target(key: str) -> tuple[Level, tuple[float, float] | None]:
    """(tier, rating band) of a level name; no band before levels were bands."""
    try:
        from bookgen.core.rating import band
    except ImportError:
        return Level.parse(key), None
    got = band(key)
    return got.tier, (got.low, got.high)


def generate(name: str, rules: dict, size: int, levels: list[str], count: int, workers: int
             ) -> dict[str, list[Puzzle]]:
    jobs = [(name, rules, size, key, i, count) for key in levels for i in range(count)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            made = list(pool.map(_generate, jobs, chunksize=4))
    else:
        made = [_generate(j) for j in jobs]
    out: dict[str, list[Puzzle]] = {key: [] for key in levels}
    for job, puzzle in zip(jobs, made):
        if puzzle is not None:
            out[job[3]].append(puzzle)
    return {key: got for key, got in out.items() if got}


def from_book_json(path: Path, x: bool) -> dict[str, list[Puzzle]]:
    """The Sudoku puzzles of a book's JSON twin, by the level printed on them."""
    data = json.loads(path.read_text())
    variant = VARIANTS["sudoku"]
    out: dict[str, list[Puzzle]] = {}
    for entry in data.get("puzzles", []):
        if entry.get("variant") != "sudoku" or bool((entry.get("rules") or {}).get("diagonal")) != x:
            continue
        puzzle = variant.from_json(entry)
        out.setdefault(entry["difficulty"], []).append(puzzle)
    return out


def line81(puzzle: Puzzle) -> str:
    return "".join(puzzle.givens).replace("0", ".")


# ----- the references ---------------------------------------------------------------

def se_jar(option: str | None) -> str | None:
    jar = option or os.environ.get("SE_JAR")
    return jar if jar and Path(jar).is_file() else None


def se_lines(jar: str, lines: list[str], x: bool, threads: int, fmt: str) -> list[str]:
    """SE's output for each 81-character puzzle, in order, one line each in format ``fmt``
    (``%r`` the rating, ``%R`` the name of the hardest step's technique)."""
    with tempfile.TemporaryDirectory(prefix="calibrate-se-") as tmp:
        src, dst = Path(tmp, "in.txt"), Path(tmp, "out.txt")
        src.write_text("\n".join(lines) + "\n")
        cmd = ["java", "-Xrs", "-Xmx1g", "-cp", jar, SE_CLASS, f"--format={fmt}", f"--input={src}",
               f"--output={dst}", f"--threads={threads}"] + (["--isX=1"] if x else [])
        subprocess.run(cmd, capture_output=True, text=True, check=True)
        return dst.read_text().splitlines()


def se_ratings(jar: str, lines: list[str], x: bool, threads: int) -> list[float | None]:
    """SE's ER (the hardest step) of each 81-character puzzle, in order."""
    got = [line.strip() for line in se_lines(jar, lines, x, threads, "%r")]
    out: list[float | None] = []
    for word in got[:len(lines)]:
        try:
            out.append(float(word))
        except ValueError:
            out.append(None)
    return out + [None] * (len(lines) - len(out))


QQ_ORDER = {"Simple": 1, "Easy": 2, "Intermediate": 3, "Expert": 4}


def qqwing_levels(lines: list[str]) -> list[str]:
    if not Path(QQWING).exists():
        return ["-"] * len(lines)
    out = subprocess.run([QQWING, "--solve", "--stats", "--csv", "--nosolution"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    rows = [line.rstrip(",").split(",") for line in out[1:] if line.strip()]
    return [row[-1] for row in rows][:len(lines)]


# ----- the Sudoku table --------------------------------------------------------------

def sudoku_table(by_level: dict[str, list[Puzzle]], jar: str | None, x: bool, threads: int) -> None:
    grade = VARIANTS["sudoku"].grade
    name = "Sudoku X" if x else "Sudoku"
    print(f"\n### {name}: our rating against Sudoku Explainer" + ("" if x else " and QQWing"))
    print()
    print("| level | n | SE min | SE median | SE max | ours min | ours median | ours max | minutes median "
          "| QQWing | rho(rating, SE) | rho(order, SE) | SE outside band |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    every_ours, every_key, every_se = [], [], []
    outside = 0
    for level, puzzles in by_level.items():
        lines = [line81(p) for p in puzzles]
        grades = [p.grade or grade(p) for p in puzzles]
        ours = [rating_of(g) for g in grades]
        keys = [(rating_of(g), minutes_of(g)) for g in grades]
        se = se_ratings(jar, lines, x, threads) if jar else [None] * len(lines)
        qq = qqwing_levels(lines) if not x else ["-"] * len(lines)
        pairs = [(o, k, s) for o, k, s in zip(ours, keys, se) if s is not None]
        every_ours += [p[0] for p in pairs]
        every_key += [(ORDER.index(level),) + p[1] for p in pairs]
        every_se += [p[2] for p in pairs]
        band = level_target(level)[1]
        if band is not None:
            outside += sum(1 for _, _, s in pairs if not band[0] <= s < band[1])
        ses = [p[2] for p in pairs]
        qq_counts = {k: qq.count(k) for k in sorted(set(qq), key=lambda k: QQ_ORDER.get(k, 9))}
        print(f"| {level} | {len(puzzles)} | {fmt(min(ses, default=None), 1)} "
              f"| {fmt(statistics.median(ses) if ses else None, 1)} | {fmt(max(ses, default=None), 1)} "
              f"| {fmt(min(ours), 2)} | {fmt(statistics.median(ours), 2)} | {fmt(max(ours), 2)} "
              f"| {fmt(statistics.median(minutes_of(g) for g in grades), 1)} "
              f"| {' '.join(f'{k} {v}' for k, v in qq_counts.items())} "
              f"| {fmt(spearman([p[0] for p in pairs], ses))} | {fmt(spearman([p[1] for p in pairs], ses))} "
              f"| {sum(1 for s in ses if band and not band[0] <= s < band[1])} |")
    print()
    print(f"Over all levels: rho(rating, SE) = {fmt(spearman(every_ours, every_se))}, "
          f"rho(printed order, SE) = {fmt(spearman(every_key, every_se))} on {len(every_se)} puzzles"
          + ("" if jar else " (no SE jar: set SE_JAR or --se-jar)")
          + (f"; {outside} puzzles rate outside their level's band on SE" if jar else ""))


def steps_table(by_level: dict[str, list[Puzzle]], jar: str, x: bool, threads: int) -> None:
    """Per puzzle, SE's rating and the technique of its hardest step beside ours: where the
    two disagree, the technique names say why (a value mapped wrongly, a technique we lack)."""
    from bookgen.solve.rated import rated_run
    from bookgen.variants.housegrid import givens_of

    sudoku = VARIANTS["sudoku"]
    print("\n| level | SE | SE's hardest step | ours | our hardest step |\n|---|---|---|---|---|")
    for level, puzzles in by_level.items():
        se = se_lines(jar, [line81(p) for p in puzzles], x, threads, "%r\t%R")
        rows = []
        for p, got in zip(puzzles, se):
            steps, _ = rated_run(sudoku.geometry_of(p), givens_of(p), sudoku.extra_of(p))
            hardest = max(steps, key=lambda s: s.rating)
            value, _, name = got.partition("\t")
            rows.append((float(value or 0), name.strip(), hardest.rating, hardest.technique))
        for value, name, ours, technique in sorted(rows):
            print(f"| {level} | {value:.1f} | {name} | {ours:.1f} | {technique} |")


# ----- Tatham ------------------------------------------------------------------------

def tatham_sets() -> list[tuple[str, str, dict[str, str], Callable[[str, int], Puzzle], int, Callable]]:
    """(title, binary, his levels, description parser, size, our grader) for each game we can read."""
    import bench_futoshiki
    import bench_skyscrapers
    import bench_sudoku
    import grade_keen_unruly

    sudoku = VARIANTS["sudoku"]

    def solo(desc: str, n: int) -> Puzzle:
        rules = sudoku.parse_rules({}, 9)
        return Puzzle("sudoku", 9, rules, bench_sudoku.parse_desc(desc, 9), tuple("." * 9 for _ in range(9)))

    return [
        ("Solo (Sudoku 9x9)", "/usr/games/sgt-solo", {"3x3db": "Basic", "3x3di": "Intermediate",
                                                        "3x3da": "Advanced", "3x3de": "Extreme",
                                                        "3x3du": "Unreasonable"}, solo, 9, sudoku.grade),
        ("Keen (KenKen 6x6)", "/usr/games/sgt-keen", {f"6d{k}": v for k, v in grade_keen_unruly.KEEN_LEVELS.items()},
         grade_keen_unruly.keen_puzzle, 6, VARIANTS["kenken"].grade),
        ("Unequal (Futoshiki 6x6)", "/usr/games/sgt-unequal", {"6dt": "Trivial", "6de": "Easy", "6dk": "Tricky",
                                                               "6dx": "Extreme", "6dr": "Recursive"},
         bench_futoshiki.parse_desc, 6, VARIANTS["futoshiki"].grade),
        ("Towers (Skyscrapers 5x5)", "/usr/games/sgt-towers", {"5de": "Easy", "5dh": "Hard", "5dx": "Extreme",
                                                               "5du": "Unreasonable"},
         lambda desc, n: bench_skyscrapers.from_description(n, desc), 5, VARIANTS["skyscrapers"].grade),
    ]


def tatham_tables(count: int) -> None:
    from tatham import saved_descriptions

    for title, binary, levels, parse, size, grade in tatham_sets():
        if not Path(binary).exists():
            print(f"\n{title}: {binary} not found (apt-get install sgt-puzzles)")
            continue
        print(f"\n### {title}: our rating per Tatham level\n")
        print("| Tatham level | n | ours min | ours median | ours max | minutes median | unsolved |")
        print("|---|---|---|---|---|---|---|")
        xs, ys = [], []
        for k, (params, name) in enumerate(levels.items()):
            grades = []
            for desc in saved_descriptions(binary, params, count):
                try:
                    grades.append(grade(parse(desc, size)))
                except Exception as exc:  # a description we can't read is reported, not fatal
                    print(f"  (skipped one {name}: {exc})")
            ours = [rating_of(g) for g in grades if g.solved]  # an unsolved grade has no rating
            xs += [k] * len(ours)
            ys += ours
            if not ours:
                continue
            print(f"| {name} | {len(ours)} | {fmt(min(ours))} | {fmt(statistics.median(ours))} | {fmt(max(ours))} "
                  f"| {fmt(statistics.median(minutes_of(g) for g in grades if g.solved), 1)} "
                  f"| {sum(1 for g in grades if not g.solved)} |")
        print(f"\nrho(Tatham level, our rating) = {fmt(spearman(xs, ys))} on {len(ys)} puzzles")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=60, help="puzzles per level (default 60)")
    ap.add_argument("--levels", default="beginner,easy,medium,hard,expert", help="our levels, comma-separated")
    ap.add_argument("--x", action="store_true", help="Sudoku X instead of Sudoku (SE with --isX=1)")
    ap.add_argument("--se-jar", help="a Sudoku Explainer / Sukaku Explainer jar (default: $SE_JAR)")
    ap.add_argument("--workers", type=int, default=2, help="processes generating our puzzles, and SE's threads")
    ap.add_argument("--json", type=Path, help="read the puzzles from a book's JSON twin instead of generating")
    ap.add_argument("--save", type=Path, help="write the puzzles, one 81-character line each, with level and ratings")
    ap.add_argument("--tatham", action="store_true", help="grade Tatham's Solo, Keen, Unequal and Towers instead")
    ap.add_argument("--steps", action="store_true",
                    help="also list, per puzzle, SE's rating and hardest technique beside ours (needs the jar)")
    args = ap.parse_args()
    if args.tatham:
        tatham_tables(args.count)
        return
    jar = se_jar(args.se_jar)
    if not jar:
        print("No Sudoku Explainer jar (set SE_JAR or --se-jar; see this script's docstring for how to build one): "
              "the SE columns stay empty.", file=sys.stderr)
    if args.json:
        by_level = from_book_json(args.json, args.x)
    else:
        by_level = generate("sudoku", {"diagonal": args.x}, 9, args.levels.split(","), args.count, args.workers)
    sudoku_table(by_level, jar, args.x, max(args.workers, 1))
    if args.steps and jar:
        steps_table(by_level, jar, args.x, max(args.workers, 1))
    if args.save:
        with args.save.open("w") as out:
            for level, puzzles in by_level.items():
                for p in puzzles:
                    g = p.grade
                    out.write(f"{line81(p)} {level} {rating_of(g) if g else '-'} {minutes_of(g) if g else '-'}\n")


if __name__ == "__main__":
    main()
