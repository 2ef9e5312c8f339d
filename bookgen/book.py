"""From a validated book to files: plan puzzle jobs, run them in parallel,
lay the book out, and write PDF and JSON atomically. Also re-checks a book
JSON file (``bookgen.checking``, offered here).

Each puzzle's randomness comes from a seed derived from (book seed, section,
index), and results are put back in plan order, so the output does not
depend on the number of workers.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import secrets
import shutil
import signal
import tempfile
import threading
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Iterator, Sequence

from bookgen import __version__
from bookgen.checking import FORMAT, CheckError, check_book, check_puzzle, read_book_json  # (offered here too)
from bookgen.config import Book, same_isbn_warnings
from bookgen.core.difficulty import LEVELS, Level
from bookgen.core.rating import Aim, level_key
from bookgen.core.rng import example_seed, rng_for, version_seed
from bookgen.core.types import GenerationError, Grade, GridSize, Puzzle, Size, cell_count, rows_cols, size_label
from bookgen.estimate import puzzle_ms
from bookgen.layout.classset import render_class_set
from bookgen.layout.cover import CoverError, cover_content, cover_geometry, render_cover
from bookgen.layout.geometry import Style, fit_problems, page_count_warning, plan_answers, plan_book
from bookgen.layout.render import (
    Cover, Entry, measured_types, plan_with_rules, render_book, render_worksheets,
)
from bookgen.limits import (  # (DEFERRED, Interrupted, interrupts_handled: used and offered here)
    DEFERRED, Interrupted, interrupts_handled,
)
from bookgen.reading import (  # (offered here too: the studio and tests name them from book)
    MAX_JSON_BYTES, MAX_JSON_OBJECTS, load_json,
)
from bookgen.variants.registry import banded, get_variant

Progress = Callable[..., None]  # (done, total) while generating; (done, total, phase) after
Warn = Callable[[str], None]
Printed = tuple[Puzzle, str]  # a puzzle and its fingerprint
VERSIONS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # class-set version letters
SEED_ATTEMPTS = 4  # seeds a puzzle may try (each with a fresh generation budget) before the build fails
BAND_ATTEMPTS = 24  # ... where its rating must fall in a band
BATCH_MS = 40.0  # estimated work per task handed to a worker (see ``batches``)
EXAMPLE_SIZES = (6, 4, 8)  # worked examples: small, yet big enough to show a real deduction
EXAMPLE_WIDTH = 300.0  # points: two example grids side by side at the type floor, on most pages
EXAMPLE_TRIES = 40  # candidate examples looked at for one that teaches a technique above the easiest
EXAMPLE_STEPS = 4  # ... within its first few deductions


class BuildError(Exception):
    """A build that could not finish; the message says which section and what to change."""


class OutputError(BuildError):
    """The output directory can't be used: a command-line mistake, found before any work."""


@dataclass(frozen=True)
class Job:
    """One puzzle to generate."""

    section: int
    index: int
    variant: str
    size: Size  # an int N, or a rectangular variant's GridSize
    rules: tuple[tuple[str, Any], ...]
    level: Level
    seed: str
    options: tuple[tuple[str, Any], ...]
    book_seed: int = 0
    attempt: int = 0  # > 0: earlier candidates were repeats or were replaced
    version: int = 0  # class sets: 0 is version A
    band: tuple[float, float] | None = None  # the rating [low, high) the puzzle must have
    tiers: tuple[Level, ...] = ()  # a rating range's other tiers, tried in turn when ``level`` misses it
    aim: Aim | None = None  # where in its level's ramp the puzzle is carved to (the variant's option ``aim``)

    @property
    def attempts(self) -> int:
        """Seeds this job may try: more where a band must be hit than where any puzzle of the
        tier will do (a tier's puzzles mostly rate inside its band; a narrow range takes more)."""
        return SEED_ATTEMPTS if self.band is None else BAND_ATTEMPTS

    def attempt_seed(self, attempt: int) -> str:
        """The seed of try number ``attempt`` from this job on; try 0 is the job's own seed."""
        if attempt == 0:
            return self.seed
        return version_seed(self.book_seed, self.section, self.index, self.version, self.attempt + attempt)

    def next_attempt(self, made_by: str = "") -> "Job":
        """The same puzzle slot with the first seed after the one ``made_by`` names
        (after this job's own seed when it names none of its tries)."""
        tried = next((k for k in range(self.attempts) if self.attempt_seed(k) == made_by), 0)
        attempt = self.attempt + tried + 1
        return replace(self, attempt=attempt, seed=version_seed(self.book_seed, self.section, self.index,
                                                                self.version, attempt))


def plan(book: Book) -> list[Job]:
    """Every puzzle of the book, in book order (a class set: version A's, then B's ...)."""
    jobs = []
    for version in range(book.versions):
        for section in book.sections:
            for i, level in enumerate(section.levels):
                options = section.options + ((("picture", section.pictures[i]),) if section.pictures else ())
                jobs.append(Job(section.index, i, section.variant, section.size_of(i), section.rules,
                                level, version_seed(book.seed, section.index, i, version), options,
                                book_seed=book.seed, version=version,
                                band=section.bands[i] if section.bands else None,
                                tiers=section.range_tiers, aim=section.aims[i] if section.aims else None))
    return jobs


def run_job(job: Job) -> Puzzle:
    """Generate one puzzle (runs in a worker process).

    A try that runs out of its budget is followed by one with the next derived
    seed, so a rare unlucky seed can't fail a build; the puzzle records the seed
    that made it. ``GenerationError`` only when every try failed.
    """
    variant = get_variant(job.variant)
    failure = GenerationError("no attempt made")
    tried = errors = 0
    for attempt in range(job.attempts):
        seed = job.attempt_seed(attempt)
        tried += 1
        tiers = (job.level,) + tuple(t for t in job.tiers if t != job.level)
        try:
            puzzle = variant.generate(job.size, dict(job.rules), tiers[attempt % len(tiers)], rng_for(seed),
                                      dict(job.options, **({"aim": job.aim} if job.aim else {})))
        except GenerationError as exc:
            failure = exc
            errors += 1
            if errors >= SEED_ATTEMPTS:  # out of budget this often: more seeds won't help
                break
            continue
        rating = puzzle.grade.rating if puzzle.grade else None
        if job.band and rating is not None and not job.band[0] <= rating < job.band[1]:
            failure = GenerationError(f"could not make a {size_label(job.size)} {variant.name} rated in "
                                      f"[{job.band[0]:g}, {job.band[1]:g})")
            continue
        return replace(puzzle, seed=seed)
    what, _, hint = str(failure).partition("; try ")
    raise GenerationError(f"{what} with any of {tried} seeds; try {hint or _remedy(job)}")


def generate(jobs: list[Job], workers: int = 1, progress: Progress | None = None) -> list[Printed]:
    """Run every job; (puzzle, fingerprint) pairs in job order. ``GenerationError`` names
    the failing job. Workers take the fingerprints too, so the parent's serial share stays small.

    On any exception, Ctrl-C included, worker processes are stopped at once
    rather than left to finish their puzzles.
    """
    results: list[Printed | None] = [None] * len(jobs)
    done = 0
    if workers <= 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            results[i] = _run_printed(job)
            done += 1
            if progress:
                progress(done, len(jobs))
        return results  # type: ignore[return-value]
    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)), initializer=_worker_init)
    pending: dict = {}
    try:
        try:
            with _interrupts_deferred():  # workers are forked here: none may see Ctrl-C before it ignores it
                pending = {pool.submit(run_batch, [jobs[i] for i in batch]): batch for batch in batches(jobs)}
            for future in as_completed(pending):  # progress as each batch lands, not all at the end
                batch = pending[future]
                try:
                    puzzles = future.result()
                except GenerationError as exc:  # already names its section and puzzle
                    raise GenerationError(str(exc)) from None
                for i, puzzle in zip(batch, puzzles):
                    results[i] = puzzle
                done += len(batch)
                if progress:
                    progress(done, len(jobs))
        except BrokenProcessPool:  # from a result, or from submit when a worker dies that early
            raise BuildError("a worker process died (out of memory?); try fewer --jobs") from None
    except BaseException:
        _let_go_of(pending)
        _stop_workers(pool)
        raise
    pool.shutdown(wait=True)
    return results  # type: ignore[return-value]


def _let_go_of(futures) -> None:
    """Release every future's lock this thread still holds. ``as_completed`` takes them one by one
    in Python code, so a Ctrl-C landing between two leaves the first ones held: the pool's manager
    thread would wait for them for ever when it cancels the queue, and the interpreter's exit
    waits for that thread (a build that hung after saying it was interrupted)."""
    for future in futures:
        while future._condition._is_owned():
            future._condition.release()


def schedule(jobs: list[Job]) -> list[int]:
    """Job indices in the order to hand them to workers: the likely slowest first.

    A plan runs easy to expert and small to large, so in plan order the most
    expensive puzzles come last and one worker grinds through them while the
    others sit idle. Longest-first keeps the workers' loads even to the end;
    the estimate needs only to be rough (harder and larger costs more), and
    results still go back in plan order, so the output is the same.
    """
    return sorted(range(len(jobs)), key=lambda i: (-int(jobs[i].level), -cell_count(jobs[i].size), i))


def batches(jobs: list[Job]) -> list[list[int]]:
    """``schedule`` order cut into the tasks workers are handed: about ``BATCH_MS``
    of estimated work each, at least one puzzle.

    Handing a worker one puzzle at a time costs the parent a round trip per
    puzzle; for puzzles of a millisecond or two that is more than the work,
    and a second worker bought nothing. Expensive puzzles still go alone.
    """
    out: list[list[int]] = []
    batch: list[int] = []
    work = 0.0
    for i in schedule(jobs):
        batch.append(i)
        work += puzzle_ms(jobs[i].variant, jobs[i].size, jobs[i].level)
        if work >= BATCH_MS:
            out.append(batch)
            batch, work = [], 0.0
    if batch:
        out.append(batch)
    return out


def run_batch(batch: list[Job]) -> list[Printed]:
    """Generate a batch of puzzles with their fingerprints (runs in a worker process);
    errors name the puzzle."""
    return [_run_printed(job) for job in batch]


def _run_printed(job: Job) -> Printed:
    puzzle = _run_named(job)
    return puzzle, fingerprint(puzzle)


def _worker_init() -> None:
    # Ctrl-C reaches the whole process group; the parent alone decides what happens.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, DEFERRED)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and end the worker processes now."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join(timeout=5)
    if manager is not None:  # after a worker died, this thread ends the others: let it finish
        manager.join(timeout=5)


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM until the block is done, then let them act.

    Two holds: a Python handler, because the kernel may hand the signal to any
    thread (the progress bar's, say) while Python runs handlers here; and this
    thread's signal mask, so processes forked inside start with the signals
    pending instead of acting on them before they are set up.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    old = {}
    for sig in DEFERRED:
        if signal.getsignal(sig) not in (signal.SIG_IGN, None):
            old[sig] = signal.signal(sig, lambda signum, frame: caught.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, DEFERRED) if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for sig, handler in old.items():
            signal.signal(sig, handler)
        if caught:
            os.kill(os.getpid(), caught[0])  # delivered again, now to the usual handler


MAX_REPEATS = 30  # fresh candidates for one puzzle slot before a build gives up on finding a new puzzle


def fingerprint(puzzle: Puzzle) -> str:
    """The puzzle's fingerprint, by its variant."""
    return get_variant(puzzle.variant).fingerprint(puzzle)


@dataclass
class Slots:
    """The puzzles of a book in plan order, with the jobs (and attempts) that made them."""

    jobs: list[Job]
    puzzles: list[Puzzle]
    prints: list[str]
    workers: int = 1

    def redo(self, slots: list[int]) -> None:
        """Make the puzzles of ``slots`` again, each from its next derived seed."""
        for i in slots:
            self.jobs[i] = self.jobs[i].next_attempt(self.puzzles[i].seed)
            if self.jobs[i].attempt > MAX_REPEATS:
                job = self.jobs[i]
                raise BuildError(f"section {job.section + 1}, puzzle {job.index + 1}: {MAX_REPEATS} "
                                 "new puzzles in a row repeated the excluded books or this book; the "
                                 "section has run out of distinct puzzles: choose a larger size, another "
                                 "level or fewer puzzles")
        for i, (puzzle, print_) in zip(slots, generate([self.jobs[i] for i in slots], self.workers)):
            self.puzzles[i], self.prints[i] = puzzle, print_

    def settle(self, order, taken: set[str] | frozenset[str], forbid: dict[int, set[str]]) -> None:
        """Remake, in rounds, the slots of ``order`` that repeat ``taken``, an earlier slot of
        ``order`` or what ``forbid`` rules out for them."""
        while True:
            clash = _repeats(self.prints, order, taken, forbid)
            if not clash:
                return
            self.redo(clash)


def generate_unique(jobs: list[Job], excluded: frozenset[str] = frozenset(), workers: int = 1,
                    progress: Progress | None = None) -> Slots:
    """Run every job so that no puzzle repeats an ``excluded`` fingerprint or an earlier
    puzzle of the book.

    A puzzle that repeats is made again from its slot's next derived seed, in
    rounds, so the result depends on the jobs alone, not on the workers.
    """
    printed = generate(list(jobs), workers, progress)
    slots = Slots(list(jobs), [p for p, _ in printed], [f for _, f in printed], workers)
    slots.settle(range(len(jobs)), excluded, {})
    return slots


def replace_slots(slots: Slots, replaced: tuple[int, ...], excluded: frozenset[str] = frozenset()) -> None:
    """Give the (zero-based, plan-order) ``replaced`` slots new puzzles; a slot listed twice
    is replaced twice. Every other slot keeps its puzzle, and no puzzle replaced away
    comes back anywhere."""
    forbid: dict[int, set[str]] = {}
    owed = Counter(replaced)
    while owed:
        chosen = sorted(owed)
        for i in chosen:
            forbid.setdefault(i, set()).add(slots.prints[i])
            owed[i] -= 1
        owed = +owed
        slots.redo(chosen)
        dropped = set().union(*forbid.values())
        kept = {fp for i, fp in enumerate(slots.prints) if i not in forbid}
        slots.settle(sorted(forbid), excluded | dropped | kept, forbid)


def _repeats(prints: list[str], order, taken: frozenset[str] | set[str],
             forbid: dict[int, set[str]]) -> list[int]:
    """The slots, in ``order``, whose fingerprint is taken already or forbidden to them."""
    seen = set(taken)
    clash = []
    for i in order:
        if prints[i] in seen or prints[i] in forbid.get(i, ()):
            clash.append(i)
        else:
            seen.add(prints[i])
    return clash


def _run_named(job: Job) -> Puzzle:
    try:
        return run_job(job)
    except GenerationError as exc:
        raise GenerationError(_where(job, exc)) from None


def _where(job: Job, exc: Exception) -> str:
    text = str(exc)
    if "; try" not in text:
        text += f"; try {_remedy(job)}"
    return f"section {job.section + 1}, puzzle {job.index + 1}: {text}"


def _remedy(job: Job) -> str:
    """What the user can change when a puzzle can't be made: only what is actually possible."""
    variant = get_variant(job.variant)
    largest = (variant.size_range.max_rows * variant.size_range.max_cols if variant.size_range
               else max(variant.sizes) ** 2)
    ways = ["an easier level"] if job.level > Level.EASY else []
    if cell_count(job.size) < largest:
        ways.append("a larger size")
    ways.append("fewer restrictions")
    ways.append("another seed")
    return ", ".join(ways[:-1]) + " or " + ways[-1]


# ----- JSON ---------------------------------------------------------------------
def puzzle_json(number: int, puzzle: Puzzle, page: int, version: str = "", print_: str = "") -> dict[str, Any]:
    """One puzzle entry of the book JSON (``bookgen-book/1``); ``version`` in class sets;
    ``print_`` is the puzzle's fingerprint when it is known already."""
    grade = puzzle.grade or Grade(Level.EASY, 0.0, {})
    out = {
        "number": number,
        "variant": puzzle.variant,
        "size": puzzle.size if isinstance(puzzle.size, int) else [puzzle.rows, puzzle.cols],
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "difficulty": level_key(grade.level, grade.rating, banded(puzzle)),
        "score": grade.score,
        "rating": grade.rating,
        "minutes": grade.minutes,
        "techniques": dict(sorted(grade.techniques.items())),
        "seed": puzzle.seed,
        "givens": list(puzzle.givens),
        "solution": list(puzzle.solution),
        "page": page,
        "fingerprint": print_ or fingerprint(puzzle),
    }
    if version:
        out["version"] = version
    out.update(get_variant(puzzle.variant).to_json(puzzle))
    return out


def dumps(data: Any) -> bytes:
    """The canonical JSON bytes: sorted keys, fixed indent, trailing newline."""
    return (json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


class _MadeInTurn(list):
    """``count`` items, each made by ``make(i)`` only when it is read: json's indenting encoder
    asks a list for its length and then iterates it, so the entries of a book's JSON are made,
    written and dropped one at a time (the whole document as Python objects took about 50 KB a
    9x9 KenKen: docs/estimates.md, "Memory")."""

    def __init__(self, count: int, make: Callable[[int], Any]):
        super().__init__()
        self._count, self._make = count, make

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Any]:
        return map(self._make, range(self._count))


def write_json(path: Path, data: Any) -> None:
    """``dumps(data)`` written chunk by chunk as it is encoded: the same bytes, without the
    whole text (or ``data``'s lists made in turn) in memory at once."""
    encoder = json.JSONEncoder(sort_keys=True, indent=2, ensure_ascii=False)
    with open(path, "wb") as fh:
        for chunk in encoder.iterencode(data):
            fh.write(chunk.encode())
        fh.write(b"\n")


def book_json(book: Book, entries: list[Entry], pages: dict[int, int], in_turn: bool = False) -> dict[str, Any]:
    """The whole book JSON document; ``in_turn``: its puzzles made as they are written (``write_json``)."""

    def entry(i: int) -> dict[str, Any]:
        e = entries[i]
        return puzzle_json(e.number, e.puzzle, pages[i], e.version, e.fingerprint)

    return {
        "format": FORMAT,
        "generator": f"bookgen {__version__}",
        "title": book.title,
        "seed": book.seed,
        **({"isbn": book.imprint.isbn} if book.imprint.isbn else {}),  # a later volume's exclude checks it
        "puzzles": _MadeInTurn(len(entries), entry) if in_turn else [entry(i) for i in range(len(entries))],
    }


# ----- building -------------------------------------------------------------------
def entries_for(book: Book, puzzles: list[Puzzle], prints: list[str] | None = None) -> list[Entry]:
    """Number the puzzles in book order and attach their section titles (and fingerprints,
    when known)."""
    titles = {s.index: s.title for s in book.sections}
    jobs = plan(book)
    per_version = len(jobs) // book.versions
    prints = prints or [""] * len(puzzles)
    return [Entry(i % per_version + 1, titles[job.section], p,
                  version=VERSIONS[job.version] if book.versions > 1 else "", fingerprint=f)
            for i, (job, p, f) in enumerate(zip(jobs, puzzles, prints))]


def ramp_key(puzzle: Puzzle) -> tuple[float, float, float]:
    """Where a puzzle stands in its level's ramp: its rating, then its estimated minutes,
    then its score (the rating is the hardest step; minutes tell two equal ones apart)."""
    g = puzzle.grade
    if g is None:
        return (0.0, 0.0, 0.0)
    return (g.rating or 0.0, g.minutes or 0.0, g.score)


def in_score_order(book: Book, puzzles: list[Puzzle]) -> list[Puzzle]:
    """The puzzles with each run of one level (one rating band: a ``{rating: ...}`` range is
    one run whatever tiers carve it) and one size inside a section sorted by ``ramp_key``,
    rating then minutes (ties keep generation order), so a ramp climbs from its first puzzle
    to its last.

    A deterministic step of assembling the book, after generation: a single puzzle
    replaced later keeps the number this order gave its predecessor.
    """
    out = list(puzzles)
    start = 0
    for section in book.sections:
        if section.pictures:  # the user's own pictures print in the order listed
            start += section.count
            continue
        keys = [((section.bands[i] if section.bands else None) or section.levels[i], section.size_of(i))
                for i in range(section.count)]
        i = 0
        while i < section.count:
            j = i
            while j < section.count and keys[j] == keys[i]:
                j += 1
            run = out[start + i:start + j]
            out[start + i:start + j] = sorted(run, key=ramp_key)
            i = j
        start += section.count
    return out


def score_order(book: Book, puzzles: list[Puzzle]) -> list[int]:
    """For each place in the book, the plan-order slot whose puzzle goes there: each
    version's puzzles in ``in_score_order``. Computed before any replacement, so a
    replacement takes the place and number of the puzzle it replaces."""
    per = len(puzzles) // book.versions
    order: list[int] = []
    for v in range(book.versions):
        ranked = [SimpleNamespace(grade=puzzles[i].grade, slot=i) for i in range(v * per, (v + 1) * per)]
        order += [item.slot for item in in_score_order(book, ranked)]
    return order


def rule_sets(book: Book) -> list[tuple[str, dict]]:
    """Each distinct (variant, rules) in the book, in the order of its how-to-play pages."""
    return [(book.sections[s].variant, dict(book.sections[s].rules)) for s in book.shape.rule_sets]


def worked_example(book_seed: int, variant_name: str, rules: dict, printed: Sequence[Size] = ()) -> Puzzle:
    """The small puzzle a how-to-play page solves, the same for the same book seed and rules.

    It keeps the section's rules, on the smallest of the sizes the rule set prints
    (``printed``) that those rules allow: a reader learns on the grid they will solve.
    Without ``printed`` (a how-to on its own), on the smallest size those rules allow whose
    two grids fit side by side at the type floor. A medium one (easy where the rules allow
    no more) whose first few deductions include one above the easiest techniques, where
    one of ``EXAMPLE_TRIES`` candidates has it."""
    variant = get_variant(variant_name)
    for size in sorted(set(printed), key=lambda s: (cell_count(s), rows_cols(s))):
        try:
            size_rules = variant.parse_rules(rules, size)
        except ValueError:
            continue
        if _example_level(variant, size, size_rules) is not None:
            return _teaching_example(variant, size, size_rules, book_seed, variant_name, rules)
    sizes: list[Size] = [s for s in EXAMPLE_SIZES if s in variant.sizes] + sorted(variant.sizes)
    if variant.rectangular:  # its ``sizes`` are the square sides of its range
        sizes = [GridSize(n, n) for n in sizes]
    fallback = None
    for size in sizes:
        try:
            size_rules = variant.parse_rules(rules, size)
        except ValueError:
            continue
        if _example_level(variant, size, size_rules) is None:
            continue
        floor = Style().min_type / min(variant.smallest_type(size, size_rules), 1.0)
        if 2 * rows_cols(size)[1] * floor > EXAMPLE_WIDTH and fallback is None:
            fallback = (size, size_rules)
            continue
        return _teaching_example(variant, size, size_rules, book_seed, variant_name, rules)
    if fallback:
        return _teaching_example(variant, *fallback, book_seed, variant_name, rules)
    raise GenerationError(f"no size of {variant.title} takes the rules {rules}")


def _example_level(variant, size: Size, rules: dict) -> Level | None:
    """The level a worked example is made at: medium where the size and rules allow it, else
    the easiest level they allow (a rule set whose puzzles are never easy teaches on its
    easiest); None when they allow none."""
    allowed = [level for level in (Level.MEDIUM, *LEVELS) if variant.check_request(size, rules, level) is None]
    return allowed[0] if allowed else None


def _teaching_example(variant, size: Size, rules: dict, book_seed: int, variant_name: str,
                      raw_rules: dict) -> Puzzle:
    level = _example_level(variant, size, rules)
    rng = rng_for(example_seed(book_seed, variant_name + repr(sorted(raw_rules.items()))))
    easiest = min(t.level for t in variant.techniques)
    tiers = {t.name: t.level for t in variant.techniques}
    first = None
    for _ in range(EXAMPLE_TRIES if level > Level.EASY else 1):
        puzzle = variant.generate(size, rules, level, rng)
        first = first or puzzle
        steps = [s for s in variant.explain(puzzle)[0] if s.cells][:EXAMPLE_STEPS]
        if any(tiers.get(s.technique, easiest) > easiest for s in steps):
            return puzzle
    return first


def _examples(book: Book) -> dict[int, Puzzle]:
    """The worked example of every rule set, keyed by its first section; ``BuildError``
    names the section whose rules rule it out."""
    examples = {}
    for s in book.shape.rule_sets:
        section = book.sections[s]
        try:
            examples[s] = worked_example(book.seed, section.variant, dict(section.rules),
                                         book.shape.rule_set_sizes(s))
        except GenerationError as exc:
            raise BuildError(f"section {section.index + 1} ({section.title}): the how-to-play page needs an "
                             f"example under the section's rules, but {exc}; loosen the rules") from None
    return examples


def build(book: Book, out_dir: Path, workers: int = 1, progress: Progress | None = None,
          warn: Warn | None = None, complete: Callable[[tuple[Path, ...]], None] | None = None,
          summary: dict | None = None) -> tuple[Path, ...]:
    """Generate and write ``NAME.pdf`` and ``NAME.json`` (and, for worksheets,
    ``NAME-answers.pdf``); all appear together, and old files survive any failure.

    Every file is written into a fresh folder ``.bookgen-XXXX.tmp`` in ``out_dir``
    and renamed into place together at the end (``swap_in``: all or none, the
    message saying which book is on disk); on an exception or Ctrl-C that folder
    and any directory this call created are removed again. ``complete(paths)`` is
    called as soon as the new book is in place, before any signal that came
    during the renames is acted on, so the caller knows which book a Ctrl-C
    left behind. ``summary``, when given, receives the book's ``pages`` and ``puzzles``.
    """
    out_dir = Path(out_dir)
    own = (out_dir / f"{book.name}.json").absolute()
    for name in book.exclude_files:
        if Path(name).absolute() == own or (Path(name).exists() and own.exists() and Path(name).samefile(own)):
            raise OutputError(f"--out {out_dir}: the book would replace {name}, which its exclude list "
                              "names; build each volume under its own name (or another --out)")
    names = output_names(book)
    too_long = [n for n in names if len(os.fsencode(n)) > NAME_MAX]
    if too_long:
        raise OutputError(f"the file name {_clip_path(Path(too_long[0]))} is longer than file systems allow "
                          f"({NAME_MAX} bytes); give the config a shorter name")
    created = _prepare_dir(out_dir)
    _refuse_clash(out_dir, book.name, names)
    stage: Path | None = None
    keep_stage = False
    locks: list[tuple[str, int]] = []
    finals = [out_dir / name for name in names]
    try:
        for stem in dict.fromkeys(_stem(name) for name in names):
            with _interrupts_deferred():  # a lock taken is a lock recorded, to be released
                locks.append((stem, _lock(out_dir, stem)))
        stage = Path(tempfile.mkdtemp(prefix=".bookgen-", suffix=".tmp", dir=out_dir))
        staged = [stage / name for name in names]
        slots = generate_unique(plan(book), book.excluded, workers, progress)
        order = score_order(book, slots.puzzles)  # numbers come from the puzzles before replacements
        replace_slots(slots, tuple(order[n - 1] for n in book.replace), book.excluded)
        puzzles = [slots.puzzles[i] for i in order]
        prints = [slots.prints[i] for i in order]
        if progress:  # worked examples and page measuring come first: the layout phase has begun
            progress(0, 1, "laying out")
        entries = entries_for(book, puzzles, prints)
        im = book.imprint
        cover = Cover(book.title, book.subtitle, book.author, book.seed, im.publisher, im.year, im.isbn,
                      im.edition, im.show_seed, book.names, book.language)
        worksheet = book.layout == "worksheet"
        examples: dict[str, Puzzle] = {}
        shape = replace(book.shape, item_types=measured_types(entries))  # the type each really prints
        if worksheet:
            shape = replace(shape, sections=shape.sections * book.versions)
            layout = plan_book(shape)
        else:
            examples = _examples(book)
            shape, layout = plan_with_rules(shape, examples, entries, book.language)
            # walkthroughs can make a book longer than the config check guessed, and its gutter wider
            problems = fit_problems(shape, layout.gutter)
            if problems:
                s, _, problem = problems[0]
                raise BuildError(f"{book.source}: section {s + 1} ({book.sections[s].title}): {problem}")
        if not worksheet and warn:
            message = page_count_warning(len(layout.pages), book.trim)
            if message:
                warn(message)
            for message in same_isbn_warnings(book):
                warn(message)
        laying = (lambda done, total: progress(done, total, "laying out")) if progress else None
        written = len(layout.pages)
        if worksheet and book.versions > 1:
            written = render_class_set(staged[0], staged[2], cover, shape, layout, entries, book.duplex,
                                       book.students)
        elif worksheet:
            render_worksheets(staged[0], staged[2], cover, shape, layout, plan_answers(shape), entries, laying)
        else:
            render_book(staged[0], cover, shape, layout, entries, examples, laying)
        if book.cover is not None:
            try:
                render_cover(staged[-1], cover_geometry(book.trim, len(layout.pages), book.cover.paper),
                             cover_content(book, entries))
            except CoverError as exc:
                raise BuildError(f"{book.source}: {exc}") from None
        if summary is not None:
            summary.update(pages=written, puzzles=len(entries))
        pages = {i: layout.puzzle_pages[i] for i in range(len(entries))}
        write_json(staged[1], book_json(book, entries, pages, in_turn=True))
        for path in staged:
            _fsync(path)
        with _interrupts_deferred():  # the renames go together: never a new PDF beside an old JSON
            try:
                swap_in(staged, finals, stage / "previous")
            except SwapError as exc:
                keep_stage = exc.kept_aside
                raise BuildError(f"cannot write the book to {out_dir}: {exc}") from None
            created.clear()
            if complete:  # still inside the hold: no signal can come between the renames and this
                complete(tuple(finals))
    except OSError as exc:
        raise BuildError(f"cannot write the book to {out_dir}: {exc.strerror or exc}; the previous "
                         "book, if any, is unchanged") from None
    finally:
        if stage is not None and not keep_stage:
            shutil.rmtree(stage, ignore_errors=True)
        for stem, fd in reversed(locks):
            _unlock(out_dir, stem, fd)
        for folder in reversed(created):  # deepest first; only if still empty
            try:
                folder.rmdir()
            except OSError:
                break
    return tuple(finals)


NAME_MAX = 255  # bytes in one file name, on every common file system


def output_names(book: Book) -> list[str]:
    """The files a build writes, in the order they are rendered and renamed into place."""
    names = [f"{book.name}.pdf", f"{book.name}.json"]
    if book.layout == "worksheet":
        names.append(f"{book.name}-answers.pdf")
    if book.cover is not None:
        names.append(f"{book.name}-cover.pdf")
    return names


SUFFIXES = ("-answers", "-cover")  # what a book adds to its name for its other files


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0]


def _refuse_clash(out_dir: Path, name: str, names: list[str]) -> None:
    """``OutputError`` when a file of this book is a file of another book in ``out_dir``:
    ``vol-cover.yaml`` would write ``vol-cover.pdf``, the cover of ``vol``, and ``vol``'s cover
    that of a book ``vol-cover``. A book is known by its JSON file."""
    others = [name[: -len(suffix)] for suffix in SUFFIXES if name.endswith(suffix)]
    others += [_stem(n) for n in names[2:]]  # ``NAME-answers``, ``NAME-cover``: names of books too
    for other in others:
        if other and other != name and (out_dir / f"{other}.json").exists():
            theirs = {f"{other}.pdf", f"{other}-answers.pdf", f"{other}-cover.pdf", f"{other}.json"}
            shared = sorted(set(names) & theirs)
            if shared:
                raise OutputError(f"--out {out_dir}: this book's {shared[0]} is also a file of the book "
                                  f"{other} there ({other}.json); building it would replace that book's "
                                  "file: rename the config or choose another --out")


class SwapError(OSError):
    """A rename of the swap failed; the message says which book is on disk now."""

    def __init__(self, message: str, kept_aside: bool):
        super().__init__(message)
        self.kept_aside = kept_aside

    def __str__(self) -> str:
        return self.args[0]


def swap_in(staged: list[Path], finals: list[Path], aside: Path) -> None:
    """Rename every staged file onto its final name, all or none.

    Each old file is first moved into ``aside`` (in the same folder, so a rename),
    then the new one takes its place. When any rename fails, the new files placed so
    far go back and the old ones return: the previous book is on disk again, whole.
    ``SwapError`` says so, or (if even that failed) which files are new and where the
    old ones were kept.
    """
    existed = [final.name for final in finals if os.path.lexists(final)]
    saved: list[tuple[Path, Path]] = []  # (final, where its old file is)
    placed: list[tuple[Path, Path]] = []  # (staged, final) of new files in place
    try:
        for new, final in zip(staged, finals):
            if os.path.lexists(final):
                aside.mkdir(exist_ok=True)
                os.replace(final, aside / final.name)
                saved.append((final, aside / final.name))
            os.replace(new, final)
            placed.append((new, final))
    except OSError as exc:
        failed = [final for final in finals if final not in {f for _, f in placed}][0]
        cause = f"{failed.name}: {exc.strerror or exc}"
        stuck = []
        for new, final in reversed(placed):
            try:
                os.replace(final, new)
            except OSError:
                stuck.append(final.name)
        for final, old in reversed(saved):
            try:
                os.replace(old, final)
            except OSError:
                stuck.append(final.name)
        if not stuck:
            now = (f"the previous book is unchanged ({', '.join(existed)})" if existed
                   else "no file was written")
            raise SwapError(f"{cause}; {now}", False) from None
        raise SwapError(f"{cause}; putting the previous book back failed too: {', '.join(sorted(set(stuck)))} "
                        f"may be from the new book; the previous files are kept in {aside}", True) from None


def _lock_path(out_dir: Path, name: str) -> Path:
    return out_dir / f".{name}.lock"  # one a file stem: book "vol-cover" and vol's cover share one


def _lock(out_dir: Path, name: str) -> int:
    """Hold the output name for this build: a second build into it is refused, not interleaved.

    Without it, two builds with slow renames (a network disk) can leave the PDF
    of one beside the JSON of the other. The lock file goes when the build ends.
    """
    path = _lock_path(out_dir, name)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise BuildError(f"another bookgen build is writing {name}.pdf in {out_dir} right now; "
                             "wait for it to finish or choose another --out") from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the build before us removed the file after we opened it: take the new one


def _unlock(out_dir: Path, name: str, fd: int) -> None:
    with suppress(OSError):
        _lock_path(out_dir, name).unlink()  # while still held, so no one locks a file about to vanish
    os.close(fd)


def _prepare_dir(out_dir: Path) -> list[Path]:
    """Make sure ``out_dir`` exists and takes new files; the folders created, outermost first."""
    missing = []
    folder = out_dir.absolute()
    try:
        while not folder.exists() and not folder.is_symlink() and folder != folder.parent:
            missing.append(folder)
            folder = folder.parent
        os.stat(out_dir)  # ELOOP and ENAMETOOLONG say here what they are; ENOENT is made below
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENAMETOOLONG):
            raise OutputError(f"--out {_clip_path(out_dir)}: {_path_problem(exc)}") from None
    missing.reverse()
    if out_dir.is_symlink() and not out_dir.exists():
        raise OutputError(f"--out {out_dir}: is a symbolic link to a folder that does not exist")
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"--out {out_dir}: is a file, not a directory")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"--out {out_dir}: cannot create the directory: {exc.strerror or exc}") from None
    probe: list[Path] = []
    try:
        _temp_in(out_dir, "write-test", probe)  # os.access() says yes to root even on a read-only disk
    except OSError as exc:
        for folder in reversed(missing):
            with suppress(OSError):
                folder.rmdir()
        raise OutputError(f"--out {out_dir}: the directory is not writable: {exc.strerror or exc}") from None
    finally:
        for tmp in probe:
            tmp.unlink(missing_ok=True)
    return missing


def _clip_path(path: Path, limit: int = 80) -> str:
    """A path for a message: a long one cut in the middle, so one line stays one line."""
    text = str(path)
    return text if len(text) <= limit else text[: limit // 2 - 2] + "..." + text[-(limit // 2 - 1):]


def _path_problem(exc: OSError) -> str:
    """What an ``OSError`` of a path lookup means, in words."""
    if exc.errno == errno.ELOOP:
        return "symbolic links loop here (a link that leads back to itself); point --out at a real folder"
    return ("the path or one of its folder names is too long for the file system "
            f"(at most {NAME_MAX} bytes a name); choose a shorter --out")


def _temp_in(folder: Path, name: str, temps: list[Path]) -> Path:
    """Create an empty ``.NAME.XXXX.tmp`` in ``folder``, listed in ``temps`` before it exists."""
    while True:
        path = folder / f".{name}.{secrets.token_hex(6)}.tmp"
        temps.append(path)  # first, so an interrupt right after creation still cleans it up
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
        except FileExistsError:
            temps.remove(path)
            continue
        except OSError:
            temps.remove(path)
            raise
        os.close(fd)
        return path


def _fsync(path: Path) -> None:
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())
