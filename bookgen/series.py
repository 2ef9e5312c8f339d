"""Series without repeats: the fingerprints of the puzzles a book already shipped.

A later volume lists earlier volumes' JSON files under ``exclude:``; their
puzzles' fingerprints are computed here from the puzzles themselves (givens,
signs, cages, rules), never read from a stored field, so a hand-edited file or
one written before fingerprints existed works the same. ``bookgen check
--against`` uses the same reading to report repeats between books.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bookgen.limits import BOOK_JSON_SIZE, MAX_BOOK_JSON_BYTES
from bookgen.variants.registry import variant_of

# Every printed word of this module, in one place (for translation later).
TEXT = {
    "not_json": "{where}: not valid JSON: {reason}",
    "not_book": "not a bookgen book JSON file (no 'puzzles' list)",
    "no_puzzles": "the book holds no puzzles, so nothing can be compared with it",
    "pdf": "is a PDF; exclude reads the book's JSON file that 'bookgen build' wrote beside it ({json})",
    "bad_entry": "puzzle {number}: {reason}; fix or remove it, or the {use} would be incomplete",
    "unknown_variant": "unknown variant {name!r}",
    "repeat": "puzzle {number} repeats puzzle {other} of {file} (fingerprint {fingerprint})",
    "versioned": "{number} (version {version})",
    "repeat_here": "puzzle {number} repeats puzzle {other} of the same book (fingerprint {fingerprint})",
}


class ExcludeError(Exception):
    """An exclude file that can't be read as a book; the message says why."""


def entry_fingerprint(entry: Any) -> str:
    """The fingerprint of one JSON puzzle entry, rebuilt from its clues; ``ValueError`` if malformed."""
    variant = variant_of(entry)
    if variant is None:
        name = entry.get("variant") if isinstance(entry, dict) else None
        raise ValueError(TEXT["unknown_variant"].format(name=name))
    try:
        return variant.fingerprint(variant.from_json(entry))
    except (TypeError, KeyError, AttributeError) as exc:
        raise ValueError(f"malformed: {exc}") from None


def book_fingerprints(data: Any, use: str = "exclusion") -> list[tuple[int, str]]:
    """(number, fingerprint) of every puzzle of a parsed book JSON; ``ExcludeError`` on a bad one
    (``use`` names what a bad entry would leave incomplete: the exclusion, the comparison)."""
    puzzles = data.get("puzzles") if isinstance(data, dict) else None
    if not isinstance(puzzles, list) or (not puzzles and use == "comparison"):  # nothing to compare with
        raise ExcludeError(TEXT["not_book"] if not isinstance(puzzles, list) else TEXT["no_puzzles"])
    out = []
    for i, entry in enumerate(puzzles):
        number = entry.get("number") if isinstance(entry, dict) else None
        number = number if type(number) is int else i + 1
        try:
            out.append((number, entry_fingerprint(entry)))
        except ValueError as exc:
            raise ExcludeError(TEXT["bad_entry"].format(number=number, reason=exc, use=use)) from None
    return out


def load_book_data(path: Path) -> Any:
    """A book JSON file parsed; ``ExcludeError`` with FILE:LINE:COL for bad JSON."""
    from bookgen.reading import read_text_file  # config reads exclude files through this module

    if _is_pdf(path):
        raise ExcludeError(TEXT["pdf"].format(json=Path(path).with_suffix(".json").name))
    try:
        text = read_text_file(path, MAX_BOOK_JSON_BYTES, BOOK_JSON_SIZE)
    except ValueError as exc:
        raise ExcludeError(str(exc)) from None
    from bookgen.reading import load_json  # one JSON reader, with ``check``'s limits

    try:
        return load_json(text)
    except json.JSONDecodeError as exc:
        raise ExcludeError(TEXT["not_json"].format(where=f"{path}:{exc.lineno}:{exc.colno}",
                                                   reason=exc.msg)) from None
    except (ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
        raise ExcludeError(TEXT["not_json"].format(where=str(path), reason=reason)) from None


def _is_pdf(path: Path) -> bool:
    """Whether ``path`` is a PDF (its first bytes say so, whatever its name)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(5) == b"%PDF-"
    except OSError:
        return False


def read_fingerprints(path: Path) -> set[str]:
    """Every fingerprint of the book JSON at ``path``; ``ExcludeError`` says what is wrong."""
    return {fp for _, fp in book_fingerprints(load_book_data(path))}


def repeats(data: Any, others: list[tuple[str, Any]]) -> list[str]:
    """One line per puzzle of ``data`` that repeats a puzzle of itself or of ``others``
    ((file name, parsed JSON) pairs); entries that can't be read are left to ``check``."""
    known: dict[str, tuple[str | None, int | str]] = {}
    for name, other in others:
        for number, fp in _readable(other):
            known.setdefault(fp, (name, number))
    lines = []
    for number, fp in _readable(data):
        if fp in known:
            where, other = known[fp]
            key = "repeat" if where is not None else "repeat_here"
            lines.append(TEXT[key].format(number=number, other=other, file=where, fingerprint=fp))
        else:
            known[fp] = (None, number)
    return lines


def _readable(data: Any) -> list[tuple[int | str, str]]:
    """(number, fingerprint) of each puzzle that can be read; a class set's numbers name the version."""
    puzzles = data.get("puzzles") if isinstance(data, dict) else None
    out: list[tuple[int | str, str]] = []
    for i, entry in enumerate(puzzles if isinstance(puzzles, list) else []):
        number = entry.get("number") if isinstance(entry, dict) else None
        label: int | str = number if type(number) is int else i + 1
        version = entry.get("version") if isinstance(entry, dict) else None
        if isinstance(version, str) and version:
            label = TEXT["versioned"].format(number=label, version=version[:3])
        try:
            out.append((label, entry_fingerprint(entry)))
        except ValueError:
            continue
    return out
