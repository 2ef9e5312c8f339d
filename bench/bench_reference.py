"""Side by side with the reference: our generators against Simon Tatham's, in one run.

Run: ``python bench/bench_reference.py [--count N] [--only TEXT ...] [--markdown]``

For every row (variant, size, level) it alternates, in ``--rounds`` rounds,
a batch of our puzzles (one process, one core, derived seeds so the figures
repeat) and a batch of Tatham's (``sgt-unruly`` / ``sgt-keen --generate K
PARAMS --time-generation``, which times each puzzle inside the program, so
process start-up is not counted). Both sides count CPU time per puzzle
(``--time-generation`` reports ``clock()``; ours is ``time.process_time``),
so other processes on a shared machine inflate neither; alternating keeps
what is left (caches, frequency) from favouring one side. Each row runs in a
process of its own, forked from the bench, so no row inherits another's caches.

Columns: our median ms per puzzle, our worst of N over that median (the
tail), Tatham's median ms, and the ratio ours / Tatham's. The issue-13 goals
are ratio <= 10 and tail <= 10 on every row. A puzzle of ours that runs out of
its budget (``GenerationError``) is not timed; the reference column says how
many did. Each row starts with one untimed puzzle of ours, so the one-time
set-up of a process (line tables, solver, caches) is not counted as a tail.

Without Tatham's programs (Debian/Ubuntu: ``apt-get install sgt-puzzles``)
it prints our figures alone and says how to get the comparison.

Nonogram against Pattern (``sgt-pattern --generate K WxH``): Pattern has no levels and
every puzzle of his yields to line-by-line reasoning, so our easy and medium rows;
``--pattern-grades N`` grades N of his at 10x10, 15x15 and 20x20 with our ladder.

Matching levels: Takuzu against Unruly with unique rows (``u``), Tango against
Unruly without; our easy against Unruly Easy, medium and up against Unruly
Normal (its top level). KenKen easy / medium / hard / expert against Keen
Easy / Normal / Hard / Extreme at the same size. Jigsaw Sudoku against Solo's
jigsaw mode (``9jd?``: ``j`` for jigsaw), and 12x12 / 16x16 Sudoku against
Solo's ``4x3`` / ``4x4`` (boxes 4 wide, 3 tall: ours), easy / medium / hard /
expert against Solo Basic / Intermediate / Extreme / Unreasonable, as in
``bench_sudoku.py`` (16x16 expert against Extreme: Solo's Unreasonable 16x16
takes over a minute a puzzle). 9x9 Sudoku and Sudoku X (``sudoku-x``, Solo's
``3x3x``) against Solo at the same levels, Killer (Solo's ``3x3k``) against
Basic / Advanced / Extreme / Unreasonable, Futoshiki against Unequal
Trivial / Tricky / Extreme / Recursive, Skyscrapers against Towers
Easy / Hard / Hard / Extreme (the matches of ``bench_sudoku.py``,
``bench_futoshiki.py`` and ``bench_skyscrapers.py``). The Latin family alone:
``--only sudoku --only killer --only jigsaw --only kenken --only futoshiki
--only skyscrapers``.

``--grades N`` adds a table: N of Solo's jigsaw puzzles at each Solo level,
graded by our ladder (9x9, and ``--grade-size`` for another size).
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import re
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bookgen.core.difficulty import LEVELS, Level  # noqa: E402
from bookgen.core.rng import derive_seed, rng_for  # noqa: E402
from bookgen.core.types import GenerationError  # noqa: E402
from bookgen.variants.registry import get_variant  # noqa: E402

REF_DIR = Path("/usr/games")
UNRULY_LEVEL = {Level.EASY: "e", Level.MEDIUM: "n", Level.HARD: "n", Level.EXPERT: "n"}
KEEN_LEVEL = {Level.EASY: "e", Level.MEDIUM: "n", Level.HARD: "h", Level.EXPERT: "x"}
SOLO_LEVEL = {Level.EASY: "b", Level.MEDIUM: "i", Level.HARD: "e", Level.EXPERT: "u"}
KILLER_LEVEL = {Level.EASY: "b", Level.MEDIUM: "a", Level.HARD: "e", Level.EXPERT: "u"}  # as bench_sudoku.py
UNEQUAL_LEVEL = {Level.EASY: "t", Level.MEDIUM: "k", Level.HARD: "x", Level.EXPERT: "r"}  # as bench_futoshiki.py
TOWERS_LEVEL = {Level.EASY: "e", Level.MEDIUM: "h", Level.HARD: "h", Level.EXPERT: "x"}  # as bench_skyscrapers.py
SOLO_BOXES = {12: "4x3", 16: "4x4"}  # Solo's CxR: boxes C cells wide, R tall
WARM_UP = 10**6  # seed index of the first untimed puzzle of a row (the timed ones start at 0)
WARM_UP_COUNT = 20  # untimed puzzles each process makes first, ours and Tatham's (see theirs())
# ... on the rows where Tatham's puzzles take under this many seconds (a probe of 4 says): a first
# stretch shows at tens of microseconds, and 20 more of Solo's Extreme Killers a call take minutes.
WARM_UP_BELOW = 0.001
FAILED: dict["Row", int] = {}  # puzzles per row that ran out of budget
TIME_LINE = re.compile(r"#\d+:\s*([0-9.eE+-]+)\s*$")


@dataclass(frozen=True)
class Row:
    """One line of the table: our puzzle and the reference that matches it."""

    variant: str
    size: int
    level: Level
    diagonal: bool = False  # Sudoku X
    named: str = ""  # a named level that is a band (9x9 Sudoku): made as a book makes it, aimed across the band

    @property
    def label(self) -> str:
        name = "sudoku-x" if self.diagonal else self.variant
        return f"{name} {self.size}x{self.size} {self.named or self.level.key}"

    @property
    def rules(self) -> dict:
        return {"diagonal": True} if self.diagonal else {}

    @property
    def reference(self) -> tuple[str, str]:
        """(program, parameter string) of the matching Tatham puzzle."""
        n = self.size
        if self.variant == "jigsaw":
            return "sgt-solo", f"{n}jd{SOLO_LEVEL[self.level]}"
        if self.variant == "killer":
            return "sgt-solo", f"3x3kd{KILLER_LEVEL[self.level]}"
        if self.variant == "sudoku" and n == 9:
            return "sgt-solo", f"3x3{'x' if self.diagonal else ''}d{SOLO_LEVEL[self.level]}"
        if self.variant == "sudoku":
            level = "e" if n == 16 and self.level == Level.EXPERT else SOLO_LEVEL[self.level]
            return "sgt-solo", f"{SOLO_BOXES[n]}d{level}"
        if self.variant == "futoshiki":
            return "sgt-unequal", f"{n}d{UNEQUAL_LEVEL[self.level]}"
        if self.variant == "skyscrapers":
            return "sgt-towers", f"{n}d{TOWERS_LEVEL[self.level]}"
        if self.variant == "nonogram":  # Pattern has no levels: every puzzle of his is line-solvable
            return "sgt-pattern", f"{n}x{n}"
        if self.variant == "kenken":
            return "sgt-keen", f"{n}d{KEEN_LEVEL[self.level]}"
        unique = "u" if self.variant == "takuzu" else ""
        return "sgt-unruly", f"{n}x{n}{unique}d{UNRULY_LEVEL[self.level]}"


def default_rows(nonogram_levels: tuple[Level, ...] = (Level.EASY, Level.MEDIUM)) -> list[Row]:
    """The rows issue 13 names, plus Takuzu expert and Tango."""
    rows = []
    for n in (8, 10, 14):
        rows += [Row("takuzu", n, lv) for lv in LEVELS]
    for n in (6, 8, 10):
        rows += [Row("tango", n, lv) for lv in LEVELS]
    for n in (4, 5, 6, 7, 8, 9):
        rows += [Row("kenken", n, lv) for lv in LEVELS]
    rows += [Row("sudoku", 9, lv) for lv in LEVELS]
    # 9x9 Sudoku's beginner and easy as a book makes them (band, ramp aims); the row "easy" above
    # is the easy tier's singles carve alone, what beginner makes
    rows += [Row("sudoku", 9, Level.EASY, named=key) for key in ("beginner", "easy")]
    # ... and extreme: expert carves climbed to SE 7.5 and up (bookgen.solve.harden), against Unreasonable
    rows += [Row("sudoku", 9, Level.EXPERT, named="extreme")]
    rows += [Row("sudoku", 9, lv, diagonal=True) for lv in LEVELS]
    rows += [Row("killer", 9, lv) for lv in LEVELS]
    rows += [Row("jigsaw", 9, lv) for lv in LEVELS]  # 6x6: 10-60x Solo's sub-millisecond (docs/jigsaw.md)
    for n in (12, 16):
        rows += [Row("sudoku", n, lv) for lv in LEVELS]
    for n in (5, 7):
        rows += [Row("futoshiki", n, lv) for lv in LEVELS]
    sky = get_variant("skyscrapers")
    rows += [Row("skyscrapers", n, lv) for n in sky.sizes for lv in LEVELS if not sky.check_request(n, {}, lv)]
    for n in (10, 15, 20):  # Pattern's puzzles all yield to line-by-line reasoning: our easy and medium
        rows += [Row("nonogram", n, lv) for lv in nonogram_levels]
    return rows


def ours(row: Row, start: int, count: int) -> list[float]:
    """CPU seconds per puzzle for ``count`` of our puzzles, seeds ``start``..."""
    variant = get_variant(row.variant)
    rules = variant.parse_rules(row.rules, row.size)
    out = []
    for i in range(start, start + count):
        rng = rng_for(derive_seed(13_13, row.size * 10 + int(row.level), i))
        t = time.process_time()
        try:
            if row.named:
                from bookgen.book import run_job
                run_job(named_job(row, rules, i, i - start, count))
                out.append(time.process_time() - t)
                continue
            variant.generate(row.size, rules, row.level, rng)
        except GenerationError:
            FAILED[row] = FAILED.get(row, 0) + 1  # out of budget: counted apart, not timed
            continue
        out.append(time.process_time() - t)
    return out


def named_job(row: Row, rules: dict, i: int, index: int, count: int):
    """Puzzle ``index`` of a run of ``count`` of a named level, as a book plans it (seed ``i``):
    its band, and its aim inside the band (``bookgen.core.rating.aims``)."""
    from bookgen.book import Job
    from bookgen.core.rating import aims, band
    b = band(row.named)
    aim = aims(b.low, b.high, b.tier, count)[index]
    return Job(0, index, row.variant, row.size, tuple(sorted(rules.items())), b.tier,
               str(derive_seed(13_13, row.size * 10 + 9, i)), (), band=(b.low, b.high), aim=aim)


def theirs(row: Row, count: int, warm_up: int = WARM_UP_COUNT) -> list[float]:
    """CPU seconds per puzzle for ``count`` of Tatham's, as the program itself times them,
    after ``warm_up`` more whose times are dropped, and without zero readings.

    Why a warm-up: on a 2-core VM the first 16-20 puzzles of a Keen 4de process time anywhere
    from 0.03 to 0.09 ms (median), where puzzles 100-400 of the same process keep to 0.065-0.086
    ms (docs/benchmarks.md, thirteenth and fourteenth sessions). Each call of Tatham's program
    is a new process, so without it every reference time of a small row is such a first
    stretch; ours are timed in one process after the same number of untimed puzzles
    (``measure``), so both sides are compared in their steady state.

    Why zeros are dropped: now and then the VM's CPU clock stalls and a puzzle reads
    0.000000 s (33 in a run of 200 once); no puzzle of any row takes less than a microsecond.
    """
    program, params = row.reference
    done = subprocess.run([reference_path(program), "--generate", str(warm_up + count), params,
                           "--time-generation"], capture_output=True, text=True, check=True)
    times = [float(m.group(1)) for m in map(TIME_LINE.search, done.stdout.splitlines()) if m]
    if len(times) != warm_up + count:
        raise RuntimeError(f"{program} {params}: expected {warm_up + count} timings, got {len(times)}")
    return [t for t in times[warm_up:] if t > 0]


def reference_path(program: str) -> str | None:
    """Where Tatham's ``program`` is installed (Debian puts it in /usr/games), or None."""
    path = REF_DIR / program
    return str(path) if path.exists() else shutil.which(program)


def have_reference() -> bool:
    """Whether Tatham's programs are installed."""
    return all(reference_path(p) for p in ("sgt-unruly", "sgt-keen", "sgt-solo", "sgt-pattern", "sgt-unequal",
                                           "sgt-towers"))


def pattern_puzzle(desc: str):
    """One of Pattern's game descriptions (``WxH:col clues/.../row clues``, runs apart by
    ``.``) as our Nonogram puzzle."""
    from bookgen.core.types import OutsideClues, Puzzle

    size, clues = desc.split(":", 1)
    cols, rows = map(int, size.split("x"))
    lines = [tuple(int(v) for v in part.split(".") if v and v != "0") for part in clues.split("/")]
    col_clues, row_clues = lines[:cols], lines[cols:cols + rows]
    blank = tuple("." * cols for _ in range(rows))
    return Puzzle("nonogram", rows if rows == cols else (rows, cols), {"style": "random"}, blank, blank,
                  clues=OutsideClues(top=tuple(col_clues), left=tuple(row_clues)))


def pattern_grades(count: int) -> None:
    """Our grade of ``count`` of Pattern's puzzles at 10x10, 15x15 and 20x20."""
    from tatham import generated_descriptions, grade_table

    nonogram = get_variant("nonogram")

    def puzzles(key: str):
        out = []
        for desc in generated_descriptions(reference_path("sgt-pattern"), key, count):
            puzzle = pattern_puzzle(f"{key}:{desc}")
            if len(nonogram.solutions(puzzle, 2)) != 1:  # the decoding, checked by the exact solver
                raise ValueError("a decoded Pattern puzzle is not unique")
            out.append(puzzle)
        return out

    grade_table(f"Our grade of {count} of Pattern's puzzles per size", "Pattern size",
                {"10x10": "10x10", "15x15": "15x15", "20x20": "20x20"}, puzzles, nonogram.grade)


def solo_jigsaw_grades(count: int, n: int) -> None:
    """Our grade of ``count`` of Solo's n x n jigsaw puzzles at each of Solo's levels."""
    from bench_sudoku import SOLO_LEVELS, parse_desc, solo_blocks
    from tatham import grade_table, saved_descriptions

    from bookgen.core.types import Puzzle
    from bookgen.variants.jigsaw import JIGSAW
    from bookgen.variants.regions import region_rows

    rules = JIGSAW.parse_rules({}, n)
    blank = tuple("." * n for _ in range(n))

    def puzzles(key: str) -> list[Puzzle]:
        out = []
        for desc in saved_descriptions(reference_path("sgt-solo"), f"{n}jd{key}", count):
            grid, walls = desc.split(",")
            regions = [[r * n + c for r, c in cells] for cells in solo_blocks(walls, n)]
            puzzle = Puzzle("jigsaw", n, rules, parse_desc(grid, n), blank, regions=region_rows(regions, n))
            if len(JIGSAW.solutions(puzzle, 2)) != 1:  # the decoding, checked by the exact solver
                raise ValueError("a decoded Jigsaw puzzle of Solo's is not unique")
            out.append(puzzle)
        return out

    grade_table(f"Our grade of {count} of Solo's {n}x{n} jigsaw puzzles per Solo level", "Solo level",
                SOLO_LEVELS, puzzles, JIGSAW.grade)


def measure(row: Row, count: int, per: int, rounds: int, reference: bool, warm_up: int = WARM_UP_COUNT,
            tatham_warm_up: int | None = None):
    """Alternate our batches with Tatham's; (our times, their times)."""
    mine: list[float] = []
    refs: list[float] = []
    if warm_up and tatham_warm_up is None and reference:
        probe = theirs(row, 4, 0)  # (empty when the clock read zero four times: a quick row)
        if probe and statistics.median(probe) >= WARM_UP_BELOW:
            warm_up = tatham_warm_up = 0  # (a slow row: its first stretch is noise in its median)
    # Untimed: the tables, memos and solvers a process builds once, and the first stretch
    # Tatham's side is also spared (theirs()).
    ours(row, WARM_UP, max(1, warm_up))
    gc.freeze()
    rounds = max(1, min(rounds, count))
    for k in range(rounds):
        lo, hi = count * k // rounds, count * (k + 1) // rounds
        mine += [t for t in ours(row, lo, hi - lo) if t > 0]  # zero: a stalled clock (theirs())
        if reference:
            refs += theirs(row, (hi - lo) * per, warm_up if tatham_warm_up is None else tatham_warm_up)
    return mine, refs


def _child(conn, fn, args) -> None:
    FAILED.clear()  # counts inherited from the parent belong to earlier rows
    conn.send((*fn(*args), sum(FAILED.values())))
    conn.close()


def in_fresh_process(fn, *args):
    """``fn(*args)`` in a process forked for it, plus its count of failed puzzles.

    Each row starts from the same state (nothing cached by earlier rows, no
    garbage-collector pause inherited from them), as in a build's worker.
    """
    ctx = multiprocessing.get_context("fork")
    here, there = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(there, fn, args))
    child.start()
    there.close()
    result = here.recv()
    child.join()
    return result


def main() -> None:
    """Print the side-by-side table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=100, help="our puzzles per row (default 100)")
    ap.add_argument("--per", type=int, default=4, help="Tatham puzzles per one of ours (default 4)")
    ap.add_argument("--rounds", type=int, default=5, help="alternations per row (default 5)")
    ap.add_argument("--only", action="append", default=[],
                    help="run rows whose label contains TEXT, e.g. 'takuzu 14' or 'kenken 9x9 expert' "
                         "(repeatable)")
    ap.add_argument("--no-reference", action="store_true", help="our figures only")
    ap.add_argument("--warm-up", type=int, default=WARM_UP_COUNT,
                    help=f"untimed puzzles each process makes first, ours and Tatham's, on rows where a probe of "
                         f"4 of Tatham's takes under {WARM_UP_BELOW * 1000:g} ms a puzzle (default {WARM_UP_COUNT}; "
                         "see theirs(); 0 for the tables before 27 Nov 2026: ours one, Tatham's none)")
    ap.add_argument("--tatham-warm-up", type=int, default=None,
                    help="Tatham's side alone, on every row (default: --warm-up, on the quick rows)")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--grades", type=int, default=0, help="grade N of Solo's jigsaw puzzles per Solo level")
    ap.add_argument("--grade-size", type=int, default=9, help="the size of those jigsaw puzzles (default 9)")
    ap.add_argument("--pattern-grades", type=int, default=0,
                    help="grade N of Pattern's Nonograms at 10x10, 15x15 and 20x20")
    ap.add_argument("--nonogram-levels", default="easy,medium",
                    help="our Nonogram levels beside Pattern (default easy,medium; Pattern has no levels, "
                         "every puzzle of his is line-solvable: hard and expert are ours alone)")
    args = ap.parse_args()
    if args.pattern_grades:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        pattern_grades(args.pattern_grades)
        return
    if args.grades:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        solo_jigsaw_grades(args.grades, args.grade_size)
        return
    nonogram_levels = tuple(Level.parse(key) for key in args.nonogram_levels.split(","))
    rows = [r for r in default_rows(nonogram_levels) if not args.only or any(t in r.label for t in args.only)]
    if not rows:
        ap.error("no row matches --only")
    reference = have_reference() and not args.no_reference
    if not reference and not args.no_reference:
        print("Tatham's sgt-unruly / sgt-keen not found: our figures only. For the side-by-side "
              "comparison install them (Debian/Ubuntu: sudo apt-get install sgt-puzzles) and run again.")
    if args.markdown:
        print("| puzzle | reference | ours ms | worst/median | Tatham ms | ratio |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
    else:
        print(f"{'puzzle':24} {'reference':16} {'ours ms':>9} {'worst/med':>9} {'Tatham ms':>10} {'ratio':>7}")
    worst_ratio = worst_tail = 0.0
    for row in rows:
        mine, refs, failed = in_fresh_process(measure, row, args.count, args.per, args.rounds, reference,
                                               args.warm_up, args.tatham_warm_up)
        FAILED[row] = failed
        med = statistics.median(mine)
        tail = max(mine) / med
        worst_tail = max(worst_tail, tail)
        ref_text, ratio_text = "-", "-"
        if refs:
            ref = statistics.median(refs)
            ratio = med / ref
            worst_ratio = max(worst_ratio, ratio)
            ref_text, ratio_text = f"{ref * 1000:.3g}", f"{ratio:.1f}"
        program, params = row.reference
        name = f"{program.removeprefix('sgt-')} {params}"
        if FAILED.get(row):
            name += f" ({FAILED[row]} failed)"
        if args.markdown:
            print(f"| {row.label} | {name} | {med * 1000:.3g} | {tail:.1f} | {ref_text} | {ratio_text} |", flush=True)
        else:
            print(f"{row.label:24} {name:16} {med * 1000:9.3g} {tail:9.1f} {ref_text:>10} {ratio_text:>7}",
                  flush=True)
    summary = f"worst tail (worst/median) {worst_tail:.1f}"
    if reference:
        summary = f"worst ratio {worst_ratio:.1f}, " + summary
    print(f"{summary}; goals: ratio <= 10, tail <= 10; {args.count} of ours per row")


if __name__ == "__main__":
    main()
