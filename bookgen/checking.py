"""Re-checking a book JSON file: every puzzle's rules, answer, uniqueness and grade.

Light on purpose (no layout, no reportlab, no config models): ``bookgen check``
imports this without the book-building machinery. ``bookgen.book`` offers
these names too.
"""

from __future__ import annotations

import json
import reprlib
from pathlib import Path
from typing import Any, Callable

from bookgen.core.rating import level_key, was_band
from bookgen.limits import BOOK_JSON_SIZE, TooSlow, time_limit
from bookgen.reading import MAX_JSON_BYTES, load_json, read_text_file
from bookgen.variants.registry import banded, variant_of

FORMAT = "bookgen-book/1"
Progress = Callable[[int, int], None]  # (done, total)

REQUIRED = ("size", "givens", "solution", "difficulty")
MAX_PROBLEM = 160  # characters: a damaged field must not flood the report
CHECK_SECONDS = 60.0  # per puzzle: a legal hand-made entry may still be too costly to verify


class CheckError(Exception):
    """A book JSON file that can't be read at all (not a per-puzzle problem)."""


def read_book_json(path: str | Path) -> Any:
    """The parsed JSON document at ``path``; ``CheckError`` with FILE[:LINE:COL] otherwise."""
    try:
        text = read_text_file(path, MAX_JSON_BYTES, BOOK_JSON_SIZE)
    except ValueError as exc:
        raise CheckError(f"{path}: {exc}") from None
    try:
        return load_json(text)
    except json.JSONDecodeError as exc:
        raise CheckError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:  # a number of thousands of digits; absurd nesting
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
        raise CheckError(f"{path}: not usable JSON: {reason}") from None


def check_puzzle(entry: Any) -> list[str]:
    """Every problem with one puzzle entry of a book JSON (empty when it is sound)."""
    return [_short(p) for p in _puzzle_problems(entry)]


def _puzzle_problems(entry: Any) -> list[str]:
    if not isinstance(entry, dict):
        return [f"is not a JSON object but {reprlib.repr(entry)}"]
    variant = variant_of(entry)
    if variant is None:
        name = entry.get("variant")
        return [f"unknown variant {reprlib.repr(name)}" if "variant" in entry else "missing field 'variant'"]
    missing = [f"missing field {k!r}" for k in REQUIRED if k not in entry]
    if missing:
        return missing
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
    known = level_key(grade.level, grade.rating, banded(puzzle))
    # where levels are tiers, a book made while every level was a band says the band: both are true
    also = level_key(grade.level, grade.rating, True)
    # and a book made before ``beginner`` says ``easy`` for its SE 1.2 puzzles
    if entry.get("difficulty") not in (known, also) and not was_band(entry.get("difficulty"), grade.rating):
        return [f"grades {known}, but is labelled "
                f"{reprlib.repr(entry.get('difficulty'))}"]
    # a book made before its variant was rated says null
    if entry.get("rating") is not None and entry["rating"] != grade.rating:
        return [f"rates {grade.rating}, but is labelled rating {reprlib.repr(entry.get('rating'))}"]
    return []


def _short(text: str) -> str:
    return text if len(text) <= MAX_PROBLEM else text[: MAX_PROBLEM - 3] + "..."


def check_book(data: Any, progress: Progress | None = None) -> tuple[int, list[str]]:
    """(puzzles checked, failure lines) for a parsed book JSON document; ``progress(done, total)``."""
    if not isinstance(data, dict):
        return 0, ["not a bookgen book: the top level is not a JSON object"]
    failures = []
    if data.get("format") != FORMAT:
        failures.append(_short(f"format is {reprlib.repr(data.get('format'))}, expected {FORMAT!r}"))
    puzzles = data.get("puzzles")
    if not isinstance(puzzles, list):
        return 0, failures + ["missing 'puzzles' list"]
    for i, entry in enumerate(puzzles):
        number = entry.get("number") if isinstance(entry, dict) else None
        if not isinstance(number, int) or isinstance(number, bool) or not 0 < number < 10**9:
            number = i + 1
        try:
            with time_limit(CHECK_SECONDS):
                problems = check_puzzle(entry)
        except TooSlow:
            problems = [f"too hard to check within {CHECK_SECONDS:g} s (its exact search is too large)"]
        for problem in problems:
            failures.append(f"puzzle {number}: {problem}")
        if progress:
            progress(i + 1, len(puzzles))
    return len(puzzles), failures
