"""Puzzles as plain text: read one typed in by hand, draw grids, report a solve.

Input formats (documented with examples in docs/puzzle-makers.md):

- an optional first line naming the variant (``takuzu``, ``tango``,
  ``kenken`` ... or an alias) with rule options as ``key=value``;
  without it the variant whose symbols fit best (``sniff_text``) reads it;
- the grid in the variant's own format, which the variant parses
  (``parse_text``) and prints (``text_lines``, ``to_text``) itself:
- Takuzu: rows of ``0``, ``1`` and ``.`` (spaces between cells optional);
- Tango: rows of ``S`` (sun), ``M`` (moon) and ``.``; ``=`` or ``x``
  between two cells of a row joins them, and a line of signs between two
  rows puts each sign directly under the cell it joins to the one below;
- KenKen: a grid of cage labels (one letter or digit per cell, one label
  per cage) followed by a legend of ``label: target op`` entries;
- Sudoku: rows of digits and ``.`` (``|`` and box rules ignored);
- Futoshiki: digits and ``.`` with ``<``/``>`` between cells and lines of
  ``^``/``v`` under the cells they join to the row below;
- a book JSON file (``bookgen-book/1``): one of its puzzles by number.

``#`` starts a comment; blank lines are ignored. Every problem is a
``PuzzleTextError`` printed as ``FILE:LINE:COL: message``.

Output: grids drawn with the book's symbols (``☀``/``☾`` for Tango, or
``S``/``M`` with ``ascii``), KenKen as a boxed grid with its clues, and the
report of ``bookgen solve``: the solution, the grade, and the steps.
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

from bookgen.core.rating import level_key
from bookgen.core.text import PuzzleTextError, TextLine, clip, or_list
from bookgen.core.types import EMPTY, Cell, GridSize, Puzzle, size_label
from bookgen.core.variant import Step
from bookgen.variants.registry import VARIANTS, banded, get_variant, variant_of

EXIT_SOLVED = 0
EXIT_UNSOLVED = 1  # no solution, several, or guessing needed
EXIT_BAD_INPUT = 2

WIDTH = 78
MAX_TEXT_CHARS = 100_000  # a typed-in puzzle, comments and all, is far shorter
# With ``ascii`` the whole report is transliterated, reasons included.
ASCII_TEXT = str.maketrans({"\u2600": "S", "\u263e": "M", "\u00d7": "x", "\u00f7": "/",
                            "\u2212": "-", "\u00b7": "-"})


# ----- reading -------------------------------------------------------------------
def read_puzzle(path: str | Path, number: int | None = None, version: str | None = None) -> Puzzle:
    """The puzzle in a text file, or puzzle ``number`` (of ``version``, in a class set) of a book JSON file."""
    p, file = Path(path), str(path)
    from bookgen.limits import BOOK_JSON_SIZE
    from bookgen.reading import MAX_JSON_BYTES, read_text_file  # as ``check`` reads them
    try:  # regular files only (a FIFO or /dev/zero would block or never end), of bounded size
        text = read_text_file(p, MAX_JSON_BYTES, BOOK_JSON_SIZE)
    except ValueError as exc:
        raise PuzzleTextError(file, None, None, str(exc)) from None
    if len(text) > MAX_TEXT_CHARS and not (p.suffix.lower() == ".json" or text.lstrip().startswith("{")):
        raise PuzzleTextError(file, None, None, f"the file is longer than {MAX_TEXT_CHARS} characters; "
                              "a typed-in puzzle is a few hundred")
    if p.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        return parse_book_json(text, file, number, version)
    if number is not None or version is not None:
        raise PuzzleTextError(file, None, None, "--number picks a puzzle from a book JSON file; "
                              "this is a text puzzle")
    return parse_text(text, file)


def parse_book_json(text: str, file: str, number: int | None = None, version: str | None = None) -> Puzzle:
    """One puzzle of a book JSON document (or a single puzzle entry); in a class set, of
    ``version`` (default: the first)."""
    try:
        from bookgen.reading import load_json  # one JSON reader, with ``check``'s limits
        data = load_json(text)
    except json.JSONDecodeError as exc:
        raise PuzzleTextError(file, exc.lineno, exc.colno, f"not valid JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:  # a number of thousands of digits; absurd nesting
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
        raise PuzzleTextError(file, None, None, f"not usable JSON: {reason}") from None
    if isinstance(data, dict) and isinstance(data.get("puzzles"), list):
        puzzles = data["puzzles"]
        if version is not None:
            versions = sorted({e.get("version") for e in puzzles if isinstance(e, dict)
                               and isinstance(e.get("version"), str)})
            if version.upper() not in versions:
                have = f"; it has {', '.join(versions)}" if versions else "; it is not a class set"
                raise PuzzleTextError(file, None, None, f"the book has no version {version!r}{have}")
            puzzles = [e for e in puzzles if isinstance(e, dict) and e.get("version") == version.upper()]
        if not puzzles:
            raise PuzzleTextError(file, None, None, "the book holds no puzzles")
        numbers = [e.get("number") if isinstance(e, dict) and type(e.get("number")) is int else None
                   for e in puzzles]
        if number is None:
            if len(puzzles) > 1:
                raise PuzzleTextError(file, None, None, f"the book holds {len(puzzles)} puzzles; "
                                      f"choose one with --number N")
            entry, number = puzzles[0], numbers[0] or 1
        elif number in numbers:
            entry = puzzles[numbers.index(number)]
        else:
            known = sorted(x for x in numbers if isinstance(x, int))
            span = f" (it has {known[0]}..{known[-1]})" if known else ""
            raise PuzzleTextError(file, None, None, f"the book has no puzzle number {number}{span}")
    elif isinstance(data, dict) and "variant" in data:
        entry = data
    else:
        raise PuzzleTextError(file, None, None, "not a bookgen book: expected an object with "
                              "'puzzles' (or a single puzzle with 'variant')")
    where = f"puzzle {number}: " if number is not None else ""
    if not isinstance(entry, dict):
        raise PuzzleTextError(file, None, None, f"{where}is not a JSON object but {clip(repr(entry))}")
    variant = variant_of(entry)
    if variant is None:
        raise PuzzleTextError(file, None, None, f"{where}unknown variant {clip(repr(entry.get('variant')))}")
    for key in ("size", "givens"):
        if key not in entry:
            raise PuzzleTextError(file, None, None, f"{where}missing field {key!r}")
    size = entry["size"]
    if variant.rectangular:  # ``[rows, cols]``
        grid = GridSize.from_json(size)
        if grid is None or grid not in variant.size_range:
            raise PuzzleTextError(file, None, None, f"{where}malformed: {variant.title} size must be "
                                  f"[rows, cols] with {variant.size_range}, got {clip(repr(size))}")
        rows, cols = grid.rows, grid.cols
    elif type(size) is not int or size not in variant.sizes:  # before anything is sized by it
        raise PuzzleTextError(file, None, None, f"{where}malformed: {variant.title} size must be one of "
                              f"{', '.join(map(str, variant.sizes))}, got {clip(repr(size))}")
    else:
        rows = cols = size
    # The recorded answer is not trusted: the puzzle is solved again from its clues.
    entry = dict(entry, solution=entry.get("solution", [EMPTY * cols] * rows))
    try:
        puzzle = variant.from_json(entry)
    except (ValueError, TypeError, KeyError, OverflowError) as exc:
        raise PuzzleTextError(file, None, None, f"{where}malformed: {clip(str(exc), 160)}") from None
    biggest = max((len(cage.cells) for cage in puzzle.cages), default=0)
    if biggest > puzzle.rules.get("max_cage", variant.largest_cage):  # as ``check`` refuses it: enumeration would explode
        raise PuzzleTextError(file, None, None, f"{where}a cage has {biggest} cells; the rules allow at most "
                              f"{puzzle.rules.get('max_cage', variant.largest_cage)}")
    return replace(puzzle, solution=tuple(EMPTY * puzzle.cols for _ in range(puzzle.rows)), grade=None)



def parse_text(text: str, file: str = "<text>") -> Puzzle:
    """A puzzle typed as text (see the module docstring); ``PuzzleTextError`` when malformed."""
    lines = []
    for i, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].rstrip()
        if body.strip():
            lines.append(TextLine(i, body))
    if not lines:
        raise PuzzleTextError(file, 1, None, "the file holds no puzzle")
    name, options, header = _header(lines[0], file)
    if header:
        lines = lines[1:]
        if not lines:
            raise PuzzleTextError(file, header.number, None, "a header but no grid follows")
    if name is None:
        name = _guess_variant(lines, file)
    return get_variant(name).parse_text(lines, options, header, file)


def _header(line: TextLine, file: str) -> tuple[str | None, dict[str, Any], TextLine | None]:
    words = line.text.split()
    try:
        name = get_variant(words[0]).name
    except KeyError:
        return None, {}, None
    options: dict[str, Any] = {}
    col = line.text.index(words[0]) + len(words[0])
    for word in words[1:]:
        col = line.text.index(word, col)
        key, eq, value = word.partition("=")
        if not eq or not key or not value:
            raise PuzzleTextError(file, line.number, col + 1,
                                  f"expected a rule option as key=value after the variant, got {word!r}")
        try:
            options[key] = _option_value(value)
        except ValueError:  # a number of thousands of digits, or digits int() can't read
            raise PuzzleTextError(file, line.number, col + len(key) + 2,
                                  f"{key}: {clip(value)} is not a usable number") from None
        col += len(word)
    return name, options, line


def _option_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if text.isdigit():
        return int(text)
    return text


def _guess_variant(lines: Sequence[TextLine], file: str) -> str:
    seen = "".join(line.text for line in lines)
    # Each variant says how strongly the symbols point to it; the strongest claim wins.
    score, name = max((v.sniff_text(seen), v.name) for v in VARIANTS.values())
    if score > 0:
        return name
    names = or_list([f"'{v.name}'" for v in VARIANTS.values()])
    raise PuzzleTextError(file, lines[0].number, None, "can't tell which puzzle this is; put "
                          f"{names} alone on the first line")


# ----- writing -----------------------------------------------------------------------
def to_text(puzzle: Puzzle) -> str:
    """The puzzle in the input format ``parse_text`` reads (header line included)."""
    return get_variant(puzzle.variant).to_text(puzzle)


def grid_lines(puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
    """``rows`` (a state of the puzzle's grid) drawn as text lines, clues included."""
    return get_variant(puzzle.variant).text_lines(puzzle, rows, ascii)


def side_by_side(left: Sequence[str], right: Sequence[str], gap: int = 6) -> list[str]:
    """Two blocks of text lines next to each other."""
    width = max((len(x) for x in left), default=0) + gap
    out = []
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        out.append((a.ljust(width) + b).rstrip())
    return out


# ----- the solve report ------------------------------------------------------------------
@dataclass(frozen=True)
class Report:
    """What ``bookgen solve`` prints, and its exit code."""

    text: str
    code: int
    solution: tuple[str, ...] | None = None


def cell_tag(cell: Cell) -> str:
    """``r3c5``: row 3, column 5, counted from 1."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def describe(puzzle: Puzzle) -> str:
    """``Tango 6×6 · 8 givens · 6 signs``."""
    variant = get_variant(puzzle.variant)
    parts = [f"{variant.title} {size_label(puzzle.size)}", *variant.clue_counts(puzzle)]
    return " \u00b7 ".join(parts)


def step_lines(puzzle: Puzzle, steps: Sequence[Step], ascii: bool = False,
               grids: bool = False) -> list[str]:
    """Numbered steps: technique, level, the cells it fills, and the reason, wrapped."""
    variant = get_variant(puzzle.variant)
    info = {t.name: t for t in variant.techniques}
    out = []
    state = [list(row) for row in puzzle.givens]
    width = len(str(len(steps)))
    for i, step in enumerate(steps, start=1):
        tech = info.get(step.technique)
        title = f"{tech.title} ({tech.level.key})" if tech else step.technique
        filled = ", ".join(f"{cell_tag(cell)} {symbol_text(puzzle, sym, ascii)}" for cell, sym in step.cells)
        head = f"{i:>{width}}. {title}" + (f": {filled}" if filled else " (rules out candidates)")
        out.append(head)
        indent = " " * (width + 2)
        reason = step.reason[:1].upper() + step.reason[1:]
        out += textwrap.wrap(reason, WIDTH, initial_indent=indent, subsequent_indent=indent)
        for (r, c), sym in step.cells:
            state[r][c] = sym
        if grids and step.cells:
            out += [indent + line for line in grid_lines(puzzle, ["".join(row) for row in state], ascii)]
            out.append("")
    return out


def symbol_text(puzzle: Puzzle, symbol: str, ascii: bool = False) -> str:
    """How one cell's symbol prints (``☀`` for a Tango 1)."""
    return get_variant(puzzle.variant).symbol_text(symbol, ascii)


def solve_report(puzzle: Puzzle, explain: bool = False, ascii: bool = False,
                 grids: bool = False) -> Report:
    """Solve a puzzle for a person: the solution, the grade and (``explain``) every step.

    Exit code 0 only when there is exactly one solution and the techniques
    reach it; 1 for no solution, several, or a puzzle that needs guessing.
    """
    variant = get_variant(puzzle.variant)
    out = [describe(puzzle), ""] + grid_lines(puzzle, puzzle.givens, ascii) + [""]
    found = variant.solutions(puzzle, 2)
    if not found:
        out.append("No solution: the clues contradict each other.")
        return _report(out, EXIT_UNSOLVED, ascii)
    if len(found) > 1:
        a, b = found
        diff = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if a[r][c] != b[r][c]]
        out.append("More than one solution. Two of them:")
        out.append("")
        out += side_by_side(grid_lines(puzzle, a, ascii), grid_lines(puzzle, b, ascii))
        out.append("")
        shown = ", ".join(cell_tag(cell) for cell in diff[:8]) + (" ..." if len(diff) > 8 else "")
        out.append(f"They differ in {len(diff)} cells: {shown}.")
        return _report(out, EXIT_UNSOLVED, ascii)
    (solution,) = found
    solved_puzzle = replace(puzzle, solution=solution)
    steps, reached, solved = variant.explain(solved_puzzle)
    grade = variant.grade(solved_puzzle)
    if explain:
        out.append("Cells are named rRcC: row R, column C, counted from 1 at the top left.")
        out.append("")
        out += step_lines(puzzle, steps, ascii, grids)
        out.append("")
    if not solved:
        open_cells = sum(ch == EMPTY for row in reached for ch in row)
        out += textwrap.wrap(f"The techniques run out after step {len(steps)}, with {open_cells} "
                             "cells still empty: from here a player would have to guess.", WIDTH)
        out += [""] + grid_lines(puzzle, reached, ascii) + [""]
        out.append("It does have exactly one solution:")
    else:
        out.append("Solution:")
    out += [""] + grid_lines(puzzle, solution, ascii) + [""]
    used = ", ".join(f"{t.title.lower()} \u00d7{grade.techniques[t.name]}"
                     for t in variant.techniques if grade.techniques.get(t.name))
    if solved:
        rated = (f", rating {grade.rating} (docs/calibration.md), about {grade.minutes:.0f} min"
                 if grade.rating is not None else "")
        out += textwrap.wrap(f"Difficulty: {level_key(grade.level, grade.rating, banded(puzzle))} (score {grade.score}{rated}), "
                             f"{len(steps)} steps: {used}.", WIDTH, subsequent_indent="  ")
    else:
        out.append(f"Difficulty: {grade.level.label}: beyond every technique, it needs guessing.")
    return _report(out, EXIT_SOLVED if solved else EXIT_UNSOLVED, ascii, solution)


def _report(lines: Sequence[str], code: int, ascii: bool, solution: tuple[str, ...] | None = None) -> Report:
    text = "\n".join(lines) + "\n"
    return Report(text.translate(ASCII_TEXT) if ascii else text, code, solution)


def can_print(stream: Any) -> bool:
    """Whether ``stream`` can print the book's symbols (else fall back to ASCII)."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "\u2600\u263e\u00d7\u00f7\u2212\u00b7".encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return False
    return True
