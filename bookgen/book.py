"""From a validated book to files: plan puzzle jobs, run them in parallel,
lay the book out, and write PDF and JSON atomically. Also re-checks a book
JSON file.

Each puzzle's randomness comes from a seed derived from (book seed, section,
index), and results are put back in plan order, so the output does not
depend on the number of workers.
"""

from __future__ import annotations

import json
import os
import tempfile
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from bookgen import __version__
from bookgen.config import Book
from bookgen.core.difficulty import Level
from bookgen.core.rng import derive_seed, example_seed, rng_for
from bookgen.core.types import GenerationError, Grade, Puzzle
from bookgen.layout.geometry import fit_problems, page_count_warning, plan_answers, plan_book
from bookgen.layout.render import Cover, Entry, plan_with_rules, render_book, render_worksheets
from bookgen.variants.registry import get_variant

FORMAT = "bookgen-book/1"
Progress = Callable[[int, int], None]
Warn = Callable[[str], None]
EXAMPLE_SIZES = (6, 4, 8)  # worked examples: small, yet big enough to show a real deduction


class BuildError(Exception):
    """A build that could not finish; the message says which section and what to change."""


@dataclass(frozen=True)
class Job:
    """One puzzle to generate."""

    section: int
    index: int
    variant: str
    size: int
    rules: tuple[tuple[str, Any], ...]
    level: Level
    seed: str
    options: tuple[tuple[str, Any], ...]


def plan(book: Book) -> list[Job]:
    """Every puzzle of the book, in book order."""
    jobs = []
    for section in book.sections:
        for i, level in enumerate(section.levels):
            jobs.append(Job(section.index, i, section.variant, section.size_of(i), section.rules,
                            level, derive_seed(book.seed, section.index, i), section.options))
    return jobs


def run_job(job: Job) -> Puzzle:
    """Generate one puzzle (runs in a worker process)."""
    variant = get_variant(job.variant)
    puzzle = variant.generate(job.size, dict(job.rules), job.level, rng_for(job.seed), dict(job.options))
    return replace(puzzle, seed=job.seed)


def generate(jobs: list[Job], workers: int = 1, progress: Progress | None = None) -> list[Puzzle]:
    """Run every job; results in job order. ``GenerationError`` names the failing job."""
    results: list[Puzzle | None] = [None] * len(jobs)
    done = 0
    if workers <= 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            results[i] = _run_named(job)
            done += 1
            if progress:
                progress(done, len(jobs))
        return results  # type: ignore[return-value]
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        pending = {pool.submit(run_job, job): i for i, job in enumerate(jobs)}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_EXCEPTION)
            for future in finished:
                i = pending.pop(future)
                try:
                    results[i] = future.result()
                except GenerationError as exc:
                    raise GenerationError(_where(jobs[i], exc)) from None
                done += 1
                if progress:
                    progress(done, len(jobs))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return results  # type: ignore[return-value]


def _run_named(job: Job) -> Puzzle:
    try:
        return run_job(job)
    except GenerationError as exc:
        raise GenerationError(_where(job, exc)) from None


def _where(job: Job, exc: Exception) -> str:
    return (f"section {job.section + 1}, puzzle {job.index + 1}: {exc}; try an easier level, "
            "a larger size or fewer restrictions")


# ----- JSON ---------------------------------------------------------------------
def puzzle_json(number: int, puzzle: Puzzle, page: int) -> dict[str, Any]:
    """One puzzle entry of the book JSON (``bookgen-book/1``)."""
    grade = puzzle.grade or Grade(Level.EASY, 0.0, {})
    out = {
        "number": number,
        "variant": puzzle.variant,
        "size": puzzle.size,
        "difficulty": grade.level.key,
        "score": grade.score,
        "techniques": dict(sorted(grade.techniques.items())),
        "seed": puzzle.seed,
        "givens": list(puzzle.givens),
        "solution": list(puzzle.solution),
        "page": page,
    }
    out.update(get_variant(puzzle.variant).to_json(puzzle))
    return out


def dumps(data: Any) -> bytes:
    """The canonical JSON bytes: sorted keys, fixed indent, trailing newline."""
    return (json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


def book_json(book: Book, entries: list[Entry], pages: dict[int, int]) -> dict[str, Any]:
    """The whole book JSON document."""
    return {
        "format": FORMAT,
        "generator": f"bookgen {__version__}",
        "title": book.title,
        "seed": book.seed,
        "puzzles": [puzzle_json(e.number, e.puzzle, pages[e.number]) for e in entries],
    }


# ----- building -------------------------------------------------------------------
def entries_for(book: Book, puzzles: list[Puzzle]) -> list[Entry]:
    """Number the puzzles in book order and attach their section titles."""
    titles = {s.index: s.title for s in book.sections}
    jobs = plan(book)
    return [Entry(i + 1, titles[job.section], p) for i, (job, p) in enumerate(zip(jobs, puzzles))]


def rule_sets(book: Book) -> list[tuple[str, dict]]:
    """One (variant, rules) per variant in order of first use, for the rules pages."""
    seen: dict[str, dict] = {}
    for s in book.sections:
        seen.setdefault(s.variant, dict(s.rules))
    return list(seen.items())


def worked_example(book_seed: int, variant_name: str, rules: dict) -> Puzzle:
    """The small easy puzzle a how-to-play page solves, the same for the same book seed.

    It keeps the section's rules, on the smallest size those rules allow."""
    variant = get_variant(variant_name)
    sizes = [s for s in EXAMPLE_SIZES if s in variant.sizes] + sorted(variant.sizes)
    for size in sizes:
        try:
            size_rules = variant.parse_rules(rules, size)
        except ValueError:
            continue
        if variant.check_request(size, size_rules, Level.EASY) is None:
            return variant.generate(size, size_rules, Level.EASY,
                                    rng_for(example_seed(book_seed, variant_name)))
    raise GenerationError(f"no size of {variant.title} takes the rules {rules}")


def build(book: Book, out_dir: Path, workers: int = 1, progress: Progress | None = None,
          warn: Warn | None = None) -> tuple[Path, ...]:
    """Generate and write ``NAME.pdf`` and ``NAME.json`` (and, for worksheets,
    ``NAME-answers.pdf``); all appear together, and old files survive any failure."""
    out_dir = Path(out_dir)
    _prepare_dir(out_dir)
    puzzles = generate(plan(book), workers, progress)
    entries = entries_for(book, puzzles)
    cover = Cover(book.title, book.subtitle, book.author, book.seed)
    worksheet = book.layout == "worksheet"
    examples: dict[str, Puzzle] = {}
    if worksheet:
        shape = book.shape
        layout = plan_book(shape)
    else:
        examples = {v: worked_example(book.seed, v, rules) for v, rules in rule_sets(book)}
        shape, layout = plan_with_rules(book.shape, examples, entries)
        # walkthroughs can make a book longer than the config check guessed, and its gutter wider
        problems = fit_problems(shape, layout.gutter)
        if problems:
            s, _, problem = problems[0]
            raise BuildError(f"{book.source}: section {s + 1} ({book.sections[s].title}): {problem}")
    if not worksheet and warn:
        message = page_count_warning(len(layout.pages), book.trim)
        if message:
            warn(message)
    names = [f"{book.name}.pdf", f"{book.name}.json"] + ([f"{book.name}-answers.pdf"] if worksheet else [])
    finals = [out_dir / name for name in names]
    temps: list[Path] = []
    try:
        for name in names:
            temps.append(_temp_in(out_dir, name))
        if worksheet:
            render_worksheets(temps[0], temps[2], cover, shape, layout, plan_answers(shape), entries)
        else:
            render_book(temps[0], cover, shape, layout, entries, examples)
        pages = {e.number: layout.puzzle_pages[i] for i, e in enumerate(entries)}
        temps[1].write_bytes(dumps(book_json(book, entries, pages)))
        for tmp in temps:
            _fsync(tmp)
        for tmp, final in zip(temps, finals):
            os.replace(tmp, final)
        temps.clear()
    finally:
        for tmp in temps:
            tmp.unlink(missing_ok=True)
    return tuple(finals)


def _prepare_dir(out_dir: Path) -> None:
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BuildError(f"cannot create output directory {out_dir}: {exc.strerror}") from None
    if not os.access(out_dir, os.W_OK | os.X_OK):
        raise BuildError(f"output directory {out_dir} is not writable")


def _temp_in(folder: Path, name: str) -> Path:
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 would make the book private
    return Path(tmp)


def _fsync(path: Path) -> None:
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())


# ----- checking -----------------------------------------------------------------------
def check_puzzle(entry: Any) -> list[str]:
    """Every problem with one puzzle entry of a book JSON (empty when it is sound)."""
    if not isinstance(entry, dict):
        return ["is not a JSON object"]
    name = entry.get("variant")
    try:
        variant = get_variant(name) if isinstance(name, str) else None
    except KeyError:
        variant = None
    if variant is None:
        return [f"unknown variant {name!r}"]
    missing = [k for k in ("size", "givens", "solution", "difficulty") if k not in entry]
    if missing:
        return [f"missing field {missing[0]!r}"]
    try:
        puzzle = variant.from_json(entry)
    except (ValueError, TypeError, KeyError) as exc:
        return [f"malformed: {exc}"]
    problems = variant.validate(puzzle)
    if problems:
        return problems
    found = variant.solutions(puzzle, 2)
    if not found:
        return ["has no solution"]
    if len(found) > 1:
        return ["has more than one solution"]
    if found[0] != puzzle.solution:
        return ["the recorded solution is not the puzzle's only solution"]
    grade = variant.grade(puzzle)
    if not grade.solved:
        return ["cannot be solved without guessing (the technique ladder gets stuck)"]
    if grade.level.key != entry.get("difficulty"):
        return [f"grades {grade.level.key}, but is labelled {entry.get('difficulty')!r}"]
    return []


def check_book(data: Any) -> tuple[int, list[str]]:
    """(puzzles checked, failure lines) for a parsed book JSON document."""
    if not isinstance(data, dict):
        return 0, ["not a bookgen book: the top level is not a JSON object"]
    failures = []
    if data.get("format") != FORMAT:
        failures.append(f"format is {data.get('format')!r}, expected {FORMAT!r}")
    puzzles = data.get("puzzles")
    if not isinstance(puzzles, list):
        return 0, failures + ["missing 'puzzles' list"]
    for i, entry in enumerate(puzzles):
        number = entry.get("number", i + 1) if isinstance(entry, dict) else i + 1
        for problem in check_puzzle(entry):
            failures.append(f"puzzle {number}: {problem}")
    return len(puzzles), failures

