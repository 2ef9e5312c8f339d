"""Puzzles as plain text: read one typed in by hand, draw grids, report a solve.

Input formats (documented with examples in the README):

- an optional first line naming the variant (``takuzu``, ``tango``,
  ``kenken`` or an alias) with rule options as ``key=value``;
  without it the variant is told from the symbols used;
- Takuzu: rows of ``0``, ``1`` and ``.`` (spaces between cells optional);
- Tango: rows of ``S`` (sun), ``M`` (moon) and ``.``; ``=`` or ``x``
  between two cells of a row joins them, and a line of signs between two
  rows puts each sign directly under the cell it joins to the one below;
- KenKen: a grid of cage labels (one letter or digit per cell, one label
  per cage) followed by a legend of ``label: target op`` entries;
- a book JSON file (``bookgen-book/1``): one of its puzzles by number.

``#`` starts a comment; blank lines are ignored. Every problem is a
``PuzzleTextError`` printed as ``FILE:LINE:COL: message``.

Output: grids drawn with the book's symbols (``☀``/``☾`` for Tango, or
``S``/``M`` with ``ascii``), KenKen as a boxed grid with its clues, and the
report of ``bookgen solve``: the solution, the grade, and the steps.
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

from bookgen.core.types import EMPTY, Cage, Cell, Edge, Puzzle
from bookgen.core.variant import Step
from bookgen.solve.latin import OP_GLYPHS, OPS, PAIR_OPS, cage_assignments
from bookgen.variants.registry import get_variant, variant_of

EXIT_SOLVED = 0
EXIT_UNSOLVED = 1  # no solution, several, or guessing needed
EXIT_BAD_INPUT = 2

# What a Tango cell may be typed as, and what it means (1 sun, 0 moon).
TANGO_CELLS = {"S": "1", "s": "1", "\u2600": "1", "1": "1", "M": "0", "m": "0", "\u263e": "0", "0": "0"}
TAKUZU_CELLS = {"0": "0", "1": "1"}
SIGNS = {"=": "=", "x": "x", "X": "x", "\u00d7": "x"}
CAGE_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
# Operation spellings in a KenKen legend.
OP_INPUT = {"+": "+", "-": "-", "\u2212": "-", "*": "*", "x": "*", "X": "*", "\u00d7": "*",
            "/": "/", "\u00f7": "/"}
ASCII_OPS = {"+": "+", "-": "-", "*": "x", "/": "/", "": ""}
# Symbols as printed: (unicode, ascii) per binary variant, index = cell value.
SYMBOLS = {"tango": (("\u263e", "\u2600"), ("M", "S")), "takuzu": (("0", "1"), ("0", "1"))}
WIDTH = 78
MAX_TEXT_CHARS = 100_000  # a typed-in puzzle, comments and all, is far shorter
MAX_CAGE = 6  # the largest cage ``build`` makes (the kenken rule option max_cage goes to 6)
MAX_TARGET_DIGITS = 7  # a cage of six 9s multiplies to 531441: longer targets can't be made
# With ``ascii`` the whole report is transliterated, reasons included.
ASCII_TEXT = str.maketrans({"\u2600": "S", "\u263e": "M", "\u00d7": "x", "\u00f7": "/",
                            "\u2212": "-", "\u00b7": "-"})


class PuzzleTextError(Exception):
    """A puzzle file that can't be read; ``str()`` is ``FILE:LINE:COL: message``."""

    def __init__(self, file: str, line: int | None, col: int | None, message: str):
        self.file, self.line, self.col, self.message = file, line, col, message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        return f"{where}: {self.message}"


# ----- reading -------------------------------------------------------------------
def read_puzzle(path: str | Path, number: int | None = None, version: str | None = None) -> Puzzle:
    """The puzzle in a text file, or puzzle ``number`` (of ``version``, in a class set) of a book JSON file."""
    p, file = Path(path), str(path)
    from bookgen.book import MAX_JSON_BYTES  # the book module reads the same files for ``check``
    from bookgen.config import read_text_file
    try:  # regular files only (a FIFO or /dev/zero would block or never end), of bounded size
        text = read_text_file(p, MAX_JSON_BYTES, "a book's JSON is about 1 KB per puzzle")
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
        from bookgen.book import load_json  # one JSON reader, with ``check``'s limits
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
        raise PuzzleTextError(file, None, None, f"{where}is not a JSON object but {_clip(repr(entry))}")
    variant = variant_of(entry)
    if variant is None:
        raise PuzzleTextError(file, None, None, f"{where}unknown variant {_clip(repr(entry.get('variant')))}")
    for key in ("size", "givens"):
        if key not in entry:
            raise PuzzleTextError(file, None, None, f"{where}missing field {key!r}")
    size = entry["size"]
    if type(size) is not int or size not in variant.sizes:  # before anything is sized by it
        raise PuzzleTextError(file, None, None, f"{where}malformed: {variant.title} size must be one of "
                              f"{', '.join(map(str, variant.sizes))}, got {_clip(repr(size))}")
    # The recorded answer is not trusted: the puzzle is solved again from its clues.
    entry = dict(entry, solution=entry.get("solution", [EMPTY * size] * size))
    try:
        puzzle = variant.from_json(entry)
    except (ValueError, TypeError, KeyError, OverflowError) as exc:
        raise PuzzleTextError(file, None, None, f"{where}malformed: {_clip(str(exc), 160)}") from None
    biggest = max((len(cage.cells) for cage in puzzle.cages), default=0)
    if biggest > puzzle.rules.get("max_cage", MAX_CAGE):  # as ``check`` refuses it: enumeration would explode
        raise PuzzleTextError(file, None, None, f"{where}a cage has {biggest} cells; the rules allow at most "
                              f"{puzzle.rules['max_cage']}")
    return replace(puzzle, solution=tuple(EMPTY * puzzle.size for _ in range(puzzle.size)), grade=None)


@dataclass(frozen=True)
class _Line:
    number: int  # 1-based line in the file
    text: str    # without comment and trailing blanks


def parse_text(text: str, file: str = "<text>") -> Puzzle:
    """A puzzle typed as text (see the module docstring); ``PuzzleTextError`` when malformed."""
    lines = []
    for i, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].rstrip()
        if body.strip():
            lines.append(_Line(i, body))
    if not lines:
        raise PuzzleTextError(file, 1, None, "the file holds no puzzle")
    name, options, header = _header(lines[0], file)
    if header:
        lines = lines[1:]
        if not lines:
            raise PuzzleTextError(file, header.number, None, "a header but no grid follows")
    if name is None:
        name = _guess_variant(lines, file)
    variant = get_variant(name)
    if variant.name == "kenken":
        return _parse_kenken(lines, options, header, file)
    return _parse_binary(variant.name, lines, options, header, file)


def _header(line: _Line, file: str) -> tuple[str | None, dict[str, Any], _Line | None]:
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
                                  f"{key}: {_clip(value)} is not a usable number") from None
        col += len(word)
    return name, options, line


def _option_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if text.isdigit():
        return int(text)
    if all(ch in OP_INPUT for ch in text):  # kenken ops=+-*/
        return [ch for ch in text]
    return text


def _guess_variant(lines: Sequence[_Line], file: str) -> str:
    seen = "".join(line.text for line in lines)
    if ":" in seen:
        return "kenken"
    if any(ch in seen for ch in "SsMm\u2600\u263e=\u00d7") or re.search(r"[xX]", seen):
        return "tango"
    if any(ch in seen for ch in "01"):
        return "takuzu"
    raise PuzzleTextError(file, lines[0].number, None, "can't tell which puzzle this is; put "
                          "'takuzu', 'tango' or 'kenken' alone on the first line")


def _rules(variant, options: dict[str, Any], size: int, header: _Line | None, file: str) -> dict[str, Any]:
    try:
        return variant.parse_rules(options, size)
    except ValueError as exc:
        raise PuzzleTextError(file, header.number if header else 1, None, str(exc)) from None


def _square(rows: Sequence[Sequence[Any]], row_lines: Sequence[_Line], sizes: Sequence[int],
            title: str, file: str) -> int:
    """The grid's side after checking rows are even and the grid square and of a valid size."""
    n = len(rows[0])
    for cells, line in zip(rows[1:], row_lines[1:]):
        if len(cells) != n:
            raise PuzzleTextError(file, line.number, None,
                                  f"this row has {len(cells)} cells but the first row has {n}")
    if len(rows) != n:
        last = row_lines[-1]
        raise PuzzleTextError(file, last.number, None,
                              f"the grid has {len(rows)} rows of {n} cells; it must be square")
    if n not in sizes:
        raise PuzzleTextError(file, row_lines[0].number, None,
                              f"{title} grids are {_or(map(str, sizes))} cells across, not {n}")
    return n


def _parse_binary(name: str, lines: Sequence[_Line], options: dict[str, Any],
                  header: _Line | None, file: str) -> Puzzle:
    variant = get_variant(name)
    signed = name == "tango"
    alphabet = TANGO_CELLS if signed else TAKUZU_CELLS
    expect = ("S (sun), M (moon) or . (empty), with = or x between cells" if signed
              else "0, 1 or . (empty)")
    rows: list[list[str]] = []
    cols_of: list[list[int]] = []   # character column of each cell, per row
    row_lines: list[_Line] = []
    edges: list[Edge] = []
    pending_vertical: list[tuple[_Line, int]] = []  # signs waiting for the row below
    for line in lines:
        text = line.text
        if signed and all(ch in SIGNS or ch.isspace() for ch in text):
            if not rows:
                raise PuzzleTextError(file, line.number, _first_col(text),
                                      "a line of signs must stand between two rows of cells")
            if pending_vertical:
                raise PuzzleTextError(file, line.number, _first_col(text),
                                      "two lines of signs in a row; signs between rows join the row "
                                      "above to the row below")
            r = len(rows) - 1
            for k, ch in enumerate(text):
                if ch.isspace():
                    continue
                if k not in cols_of[r]:
                    raise PuzzleTextError(file, line.number, k + 1,
                                          f"this sign is not under a cell of the row above; put a sign "
                                          f"between two rows directly under the cell it joins")
                c = cols_of[r].index(k)
                edges.append(Edge((r, c), (r + 1, c), SIGNS[ch]))
                pending_vertical.append((line, k))
            continue
        cells, cols = [], []
        sign_at: tuple[str, int] | None = None
        for k, ch in enumerate(text):
            if ch.isspace():
                continue
            if ch == EMPTY or ch in alphabet:
                if sign_at is not None:
                    edges.append(Edge((len(rows), len(cells) - 1), (len(rows), len(cells)), sign_at[0]))
                    sign_at = None
                cells.append(EMPTY if ch == EMPTY else alphabet[ch])
                cols.append(k)
            elif ch in SIGNS and signed:
                if not cells:
                    raise PuzzleTextError(file, line.number, k + 1, "a sign must stand between two cells; "
                                          "this one has no cell on its left")
                if sign_at is not None:
                    raise PuzzleTextError(file, line.number, k + 1, "two signs side by side; a sign "
                                          "joins the cells on its left and right")
                sign_at = (SIGNS[ch], k)
            elif ch in SIGNS:
                raise PuzzleTextError(file, line.number, k + 1, f"unknown symbol {ch!r}: Takuzu has no "
                                      "signs (for suns, moons and signs, start the file with 'tango')")
            else:
                raise PuzzleTextError(file, line.number, k + 1,
                                      f"unknown symbol {ch!r}; {variant.title} cells are {expect}")
        if sign_at is not None:
            raise PuzzleTextError(file, line.number, sign_at[1] + 1, "a sign must stand between two "
                                  "cells; this one has no cell on its right")
        pending_vertical = []
        rows.append(cells)
        cols_of.append(cols)
        row_lines.append(line)
    if pending_vertical:
        line, k = pending_vertical[0]
        raise PuzzleTextError(file, line.number, k + 1, "signs below the last row join nothing")
    if not rows:
        raise PuzzleTextError(file, lines[0].number, None, "no grid rows found")
    n = _square(rows, row_lines, variant.sizes, variant.title, file)
    rules = _rules(variant, options, n, header, file)
    givens = tuple("".join(r) for r in rows)
    edges.sort(key=lambda e: (e.a, e.b))
    return Puzzle(variant.name, n, rules, givens, tuple(EMPTY * n for _ in range(n)), edges=tuple(edges))


_LEGEND = re.compile(
    r"\s*(?P<label>[A-Za-z0-9])\s*:\s*(?P<target>\d+)\s*"
    r"(?P<op>[+\-\u2212*\u00d7/\u00f7]|[xX](?!\s*:))?\s*[,;]?")


def _parse_kenken(lines: Sequence[_Line], options: dict[str, Any], header: _Line | None,
                  file: str) -> Puzzle:
    variant = get_variant("kenken")
    grid_lines = []
    legend_lines = []
    for line in lines:
        if ":" in line.text:
            legend_lines.append(line)
        elif legend_lines:
            raise PuzzleTextError(file, line.number, _first_col(line.text),
                                  "grid rows must come before the legend (label: target op)")
        else:
            grid_lines.append(line)
    if not grid_lines:
        raise PuzzleTextError(file, lines[0].number, None, "no grid of cage labels before the legend")
    rows: list[list[str]] = []
    where: dict[str, list[tuple[Cell, int, int]]] = {}  # label -> (cell, line, col)
    for r, line in enumerate(grid_lines):
        cells = []
        for k, ch in enumerate(line.text):
            if ch.isspace():
                continue
            if ch not in CAGE_LABELS:
                raise PuzzleTextError(file, line.number, k + 1, f"unknown symbol {ch!r}; KenKen grid "
                                      "cells are cage labels (letters a-z, A-Z or digits), one per cage")
            where.setdefault(ch, []).append(((r, len(cells)), line.number, k + 1))
            cells.append(ch)
        rows.append(cells)
    n = _square(rows, grid_lines, variant.sizes, "KenKen", file)
    clues: dict[str, tuple[int, str, _Line, int]] = {}
    for line in legend_lines:
        pos = 0
        text = line.text
        while pos < len(text):
            m = _LEGEND.match(text, pos)
            if not m or m.end() == pos:
                raise PuzzleTextError(file, line.number, pos + _first_col(text[pos:]),
                                      "expected 'label: target op' such as 'a: 12+', 'b: 2/' or 'c: 3'")
            label, col = m.group("label"), m.start("label") + 1
            if label in clues:
                raise PuzzleTextError(file, line.number, col, f"cage {label!r} has two clues "
                                      f"(the first on line {clues[label][2].number})")
            if label not in where:
                raise PuzzleTextError(file, line.number, col, f"cage {label!r} is not in the grid")
            op = OP_INPUT[m.group("op")] if m.group("op") else ""
            if len(m.group("target")) > MAX_TARGET_DIGITS:
                raise PuzzleTextError(file, line.number, m.start("target") + 1,
                                      f"cage {label!r}: target {_clip(m.group('target'))} is far too large "
                                      f"for any cage (at most {MAX_TARGET_DIGITS} digits)")
            clues[label] = (int(m.group("target")), op, line, col)
            pos = m.end()
    for label in sorted(where, key=lambda x: (where[x][0][1], where[x][0][2])):
        if label not in clues:
            _, line_no, col = where[label][0]
            raise PuzzleTextError(file, line_no, col, f"cage {label!r} has no clue; add "
                                  f"'{label}: TARGET OP' to the legend")
    multi = [lb for lb in clues if len(where[lb]) > 1]
    hidden = bool(multi) and all(not clues[lb][1] for lb in multi)
    cages = []
    for label in clues:
        target, op, line, col = clues[label]
        spots = where[label]
        cells = sorted(cell for cell, _, _ in spots)
        stray = _disconnected(cells)
        if stray is not None:
            _, line_no, c = next(s for s in spots if s[0] == stray)
            raise PuzzleTextError(file, line_no, c, f"cage {label!r} is not connected: this cell does "
                                  "not touch the rest of the cage (give a separate cage its own label)")
        if len(cells) > MAX_CAGE:  # before any enumeration: its fillings grow as n ** cells
            _, line_no, c = spots[0]
            raise PuzzleTextError(file, line_no, c, f"cage {label!r} has {len(cells)} cells; a Calcudoku "
                                  f"cage has at most {MAX_CAGE} (max_cage)")
        if len(cells) == 1:
            op = ""  # a single cell shows its digit, whatever operation was typed
        elif not op and not hidden:
            raise PuzzleTextError(file, line.number, col, f"cage {label!r} has no operation but others "
                                  "do; give every cage of two or more cells its operation, or none")
        elif op in PAIR_OPS and len(cells) != 2:
            raise PuzzleTextError(file, line.number, col, f"cage {label!r} has {len(cells)} cells, but "
                                  f"{OP_GLYPHS[op]} needs exactly two")
        ops = tuple(options.get("ops", OPS)) if hidden else None
        if hidden and len(cells) > 1:
            fits = [o for o in OPS if cage_assignments(cells, o, target, n)]
            op = fits[0] if fits else "+"
        if not cage_assignments(cells, op, target, n, ops if len(cells) > 1 else None):
            raise PuzzleTextError(file, line.number, col, _impossible(label, cells, op, target, n, hidden))
        cages.append(Cage(tuple(cells), op, target))
    cages.sort(key=lambda cage: cage.cells[0])
    options = dict(options)
    options.setdefault("show_ops", not hidden)
    biggest = max(len(c.cells) for c in cages)
    if biggest > 4:
        options.setdefault("max_cage", min(biggest, 6))
    rules = _rules(variant, options, n, header, file)
    blank = tuple(EMPTY * n for _ in range(n))
    return Puzzle(variant.name, n, rules, blank, blank, cages=tuple(cages))


def _impossible(label: str, cells: Sequence[Cell], op: str, target: int, n: int, hidden: bool) -> str:
    k = len(cells)
    clue = f"{target}{'' if hidden else OP_GLYPHS[op]}"
    base = f"cage {label!r} can't make {clue} with {k} cell{'s' if k > 1 else ''} of digits 1 to {n}"
    if k == 1:
        return f"cage {label!r} is one cell, so its target must be a digit from 1 to {n}, not {target}"
    if op == "+" and not hidden:
        return f"{base}: they add up to at most {_max_sum(cells, n)}"
    if op == "-" and not hidden:
        return f"{base}: two different digits differ by 1 to {n - 1}"
    return base


def _max_sum(cells: Sequence[Cell], n: int) -> int:
    """An upper bound on a cage's sum: the cells of one row (or column) hold different digits."""
    bounds = []
    for axis in (0, 1):
        count: dict[int, int] = {}
        for cell in cells:
            count[cell[axis]] = count.get(cell[axis], 0) + 1
        bounds.append(sum(sum(range(n - k + 1, n + 1)) for k in count.values()))
    return min(bounds)


def _disconnected(cells: Sequence[Cell]) -> Cell | None:
    """The first cell (row-major) not joined to the cage's first cell, or None."""
    todo, seen = [cells[0]], {cells[0]}
    members = set(cells)
    while todo:
        r, c = todo.pop()
        for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if nb in members and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    rest = [cell for cell in cells if cell not in seen]
    return rest[0] if rest else None


def _clip(text: str, limit: int = 20) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _first_col(text: str) -> int:
    return len(text) - len(text.lstrip()) + 1


def _or(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


# ----- writing -----------------------------------------------------------------------
def to_text(puzzle: Puzzle) -> str:
    """The puzzle in the input format ``parse_text`` reads (header line included)."""
    if puzzle.variant == "kenken":
        n = puzzle.size
        if len(puzzle.cages) > len(CAGE_LABELS):
            raise ValueError(f"a text KenKen has at most {len(CAGE_LABELS)} cages")
        label = {cell: CAGE_LABELS[k] for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
        show = puzzle.rules.get("show_ops", True)
        out = ["kenken" + ("" if show else " ops=" + "".join(puzzle.rules.get("ops", OPS)))]
        out += [" ".join(label[(r, c)] for c in range(n)) for r in range(n)]
        for k, cage in enumerate(puzzle.cages):
            op = ASCII_OPS[cage.op] if show else ""
            out.append(f"{CAGE_LABELS[k]}: {cage.target}{op}")
        return "\n".join(out) + "\n"
    rules = puzzle.rules
    variant = get_variant(puzzle.variant)
    defaults = variant.parse_rules({}, puzzle.size)
    opts = "".join(f" {k}={str(v).lower()}" for k, v in sorted(rules.items()) if defaults.get(k) != v)
    return f"{puzzle.variant}{opts}\n" + "\n".join(grid_lines(puzzle, puzzle.givens, ascii=True)) + "\n"


def grid_lines(puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
    """``rows`` (a state of the puzzle's grid) drawn as text lines, clues included."""
    if puzzle.variant == "kenken":
        return _kenken_lines(puzzle, rows, ascii)
    n = puzzle.size
    symbols = SYMBOLS.get(puzzle.variant, SYMBOLS["takuzu"])[1 if ascii else 0]
    if puzzle.variant != "tango":
        return [" ".join(symbols[int(ch)] if ch != EMPTY else EMPTY for ch in row) for row in rows]
    times = "x" if ascii else "\u00d7"
    right: dict[Cell, str] = {}
    below: dict[Cell, str] = {}
    for e in puzzle.edges:
        a, b = sorted((e.a, e.b))
        sign = "=" if e.sign == "=" else times
        (right if a[0] == b[0] else below)[a] = sign
    out = []
    for r, row in enumerate(rows):
        parts = []
        for c, ch in enumerate(row):
            if c:
                parts.append(f" {right.get((r, c - 1), ' ')} ")
            parts.append(symbols[int(ch)] if ch != EMPTY else EMPTY)
        out.append("".join(parts))
        if r + 1 < n:
            out.append("   ".join(below.get((r, c), " ") for c in range(n)).rstrip())
    return out


def _kenken_lines(puzzle: Puzzle, rows: Sequence[str], ascii: bool) -> list[str]:
    """A boxed grid: cage walls as ``|`` and ``---``, each cage's clue in its first cell."""
    n = puzzle.size
    owner = {cell: k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
    show = puzzle.rules.get("show_ops", True)
    glyphs = ASCII_OPS if ascii else OP_GLYPHS
    clue = {}
    for cage in puzzle.cages:
        clue[cage.cells[0]] = f"{cage.target}{glyphs[cage.op] if show else ''}"
    w = max(4, max(len(t) for t in clue.values()) + 1)

    def wall(a: Cell, b: Cell) -> bool:
        return owner.get(a, -1) != owner.get(b, -2) or a not in owner

    out = []
    for r in range(n + 1):
        line = []
        for c in range(n + 1):
            around = [wall((r - 1, c - 1), (r - 1, c)) if r > 0 and 0 < c <= n - 1 else False,
                      wall((r, c - 1), (r, c)) if r < n and 0 < c <= n - 1 else False,
                      wall((r - 1, c - 1), (r, c - 1)) if 0 < r < n and c > 0 else False,
                      wall((r - 1, c), (r, c)) if 0 < r < n and c < n else False]
            edge = r in (0, n) or c in (0, n)
            line.append("+" if edge or any(around) else " ")
            if c < n:
                line.append("-" * w if r in (0, n) or wall((r - 1, c), (r, c)) else " " * w)
        out.append("".join(line))
        if r == n:
            break
        tops, mids = [], []
        for c in range(n + 1):
            bar = "|" if c in (0, n) or wall((r, c - 1), (r, c)) else " "
            tops.append(bar)
            mids.append(bar)
            if c < n:
                tops.append(clue.get((r, c), "").ljust(w))
                ch = rows[r][c]
                mids.append((ch if ch != EMPTY else " ").center(w))
        out.append("".join(tops))
        out.append("".join(mids))
    return out


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
    n = puzzle.size
    parts = [f"{variant.title} {n}\u00d7{n}"]
    if puzzle.variant == "kenken":
        parts.append(f"{len(puzzle.cages)} cages")
    else:
        parts.append(f"{sum(ch != EMPTY for row in puzzle.givens for ch in row)} givens")
        if puzzle.variant == "tango":
            parts.append(f"{len(puzzle.edges)} signs")
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
    if puzzle.variant in SYMBOLS and symbol in "01":
        return SYMBOLS[puzzle.variant][1 if ascii else 0][int(symbol)]
    return symbol


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
        diff = [(r, c) for r in range(puzzle.size) for c in range(puzzle.size) if a[r][c] != b[r][c]]
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
        out += textwrap.wrap(f"Difficulty: {grade.level.key} (score {grade.score}), "
                             f"{len(steps)} steps: {used}.", WIDTH, subsequent_indent="  ")
    else:
        out.append(f"Difficulty: beyond {grade.level.key}: needs guessing.")
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
