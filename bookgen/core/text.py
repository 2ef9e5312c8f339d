"""What every variant's text format shares: the error type, lines, and grid checks.

``bookgen solve`` reads a puzzle typed as text. The generic part (comments,
the header line naming the variant, dispatch, reports) is in
``bookgen.puzzletext``; each variant parses and prints its own grid through
the ``Variant`` protocol, with the helpers here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from bookgen.core.types import Edge


class PuzzleTextError(Exception):
    """A puzzle file that can't be read; ``str()`` is ``FILE:LINE:COL: message``."""

    def __init__(self, file: str, line: int | None, col: int | None, message: str):
        self.file, self.line, self.col, self.message = file, line, col, message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            where += f":{self.col if self.col is not None else 1}"  # FILE:LINE:COL, whole-line problems at 1
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class TextLine:
    """One line of a puzzle file that holds something."""

    number: int  # 1-based line in the file
    text: str    # without comment and trailing blanks


def rules_at(variant: Any, options: dict[str, Any], size: int, header: TextLine | None, file: str) -> dict[str, Any]:
    """The variant's rules for ``options``; a bad option is an error on the header line."""
    try:
        return variant.parse_rules(options, size)
    except ValueError as exc:
        raise PuzzleTextError(file, header.number if header else 1, None, str(exc)) from None


def square(rows: Sequence[Sequence[Any]], row_lines: Sequence[TextLine], sizes: Sequence[int],
           title: str, file: str) -> int:
    """The grid's side after checking rows are even and the grid square and of a valid size."""
    n = len(rows[0])
    for cells, line in zip(rows[1:], row_lines[1:]):
        if len(cells) != n:
            raise PuzzleTextError(file, line.number, first_col(line.text),
                                  f"this row has {len(cells)} cells but the first row has {n}")
    if len(rows) != n:
        last = row_lines[-1]
        raise PuzzleTextError(file, last.number, first_col(last.text),
                              f"the grid has {len(rows)} rows of {n} cells; it must be square")
    if n not in sizes:
        raise PuzzleTextError(file, row_lines[0].number, first_col(row_lines[0].text),
                              f"{title} grids are {or_list(map(str, sizes))} cells across, not {n}")
    return n


@dataclass(frozen=True)
class SignWords:
    """How a variant words the mistakes of a grid typed with signs between its cells.

    The defaults are the binary grids' (Tango); Futoshiki keeps its own shorter wording."""

    sign_line_first: str = "a line of signs must stand between two rows of cells"
    sign_lines_twice: str = ("two lines of signs in a row; signs between rows join the row "
                             "above to the row below")
    not_under: str = ("this sign is not under a cell of the row above; put a sign "
                      "between two rows directly under the cell it joins")
    no_left: str = "a sign must stand between two cells; this one has no cell on its left"
    side_by_side: str = "two signs side by side; a sign joins the cells on its left and right"


@dataclass(frozen=True)
class SignGrid:
    """A grid read by ``read_sign_grid``: rows of cell values, the line of each row, the signs."""

    rows: list[list[str]]
    row_lines: list[TextLine]
    edges: list[Edge]  # sorted by their cells


def read_sign_grid(lines: Sequence[TextLine], file: str, cell: Callable[[str], str | None],
                   across: Mapping[str, str], down: Mapping[str, str], unknown: Callable[[str], str],
                   words: SignWords = SignWords()) -> SignGrid:
    """Rows of cells with signs between them, as Tango and Futoshiki are typed.

    A sign in ``across`` between two cells of a row joins them; a line of nothing but signs in
    ``down`` between two rows puts each sign under the cell of the row above that it joins to the
    cell below. ``cell(ch)`` is the value a cell character stands for, or None if ``ch`` is no
    cell; ``unknown(ch)`` words the error for any other character. Raises ``PuzzleTextError`` at
    the offending character. Checks no grid shape: the caller does, with ``square``."""
    rows: list[list[str]] = []
    cols_of: list[list[int]] = []   # character column of each cell, per row
    row_lines: list[TextLine] = []
    edges: list[Edge] = []
    pending_vertical: list[tuple[TextLine, int]] = []  # signs waiting for the row below
    for line in lines:
        text = line.text
        if down and all(ch in down or ch.isspace() for ch in text):
            if not rows:
                raise PuzzleTextError(file, line.number, first_col(text), words.sign_line_first)
            if pending_vertical:
                raise PuzzleTextError(file, line.number, first_col(text), words.sign_lines_twice)
            r = len(rows) - 1
            for k, at, ch in columns(text):
                if ch.isspace():
                    continue
                if at not in cols_of[r]:
                    raise PuzzleTextError(file, line.number, k + 1, words.not_under)
                c = cols_of[r].index(at)
                edges.append(Edge((r, c), (r + 1, c), down[ch]))
                pending_vertical.append((line, k))
            continue
        cells: list[str] = []
        cols: list[int] = []
        sign_at: tuple[str, int] | None = None
        for k, at, ch in columns(text):
            if ch.isspace():
                continue
            value = cell(ch)
            if value is not None:
                if sign_at is not None:
                    edges.append(Edge((len(rows), len(cells) - 1), (len(rows), len(cells)), sign_at[0]))
                    sign_at = None
                cells.append(value)
                cols.append(at)
            elif ch in across:
                if not cells:
                    raise PuzzleTextError(file, line.number, k + 1, words.no_left)
                if sign_at is not None:
                    raise PuzzleTextError(file, line.number, k + 1, words.side_by_side)
                sign_at = (across[ch], k)
            else:
                raise PuzzleTextError(file, line.number, k + 1, unknown(ch))
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
    edges.sort(key=lambda e: (e.a, e.b))
    return SignGrid(rows, row_lines, edges)


TAB = 8  # tab stops, as terminals and ``str.expandtabs`` set them


def columns(text: str):
    """(index, column on screen, character) of each character of a line: a tab runs to the next
    tab stop, so a sign typed under a cell with tabs is read under the cell it appears under."""
    at = 0
    for k, ch in enumerate(text):
        yield k, at, ch
        at = (at // TAB + 1) * TAB if ch == "\t" else at + 1


def first_col(text: str) -> int:
    """The 1-based column of the first character that is not a blank."""
    return len(text) - len(text.lstrip()) + 1


def or_list(items) -> str:
    """``a, b or c``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def clip(text: str, limit: int = 20) -> str:
    """``text`` cut to ``limit`` characters with ``...``, for quoting input in a message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def tokens(line: TextLine) -> list[tuple[int, str]]:
    """(1-based column, text) of each space-separated entry of a line."""
    out = []
    text = line.text
    k = 0
    while k < len(text):
        if text[k].isspace():
            k += 1
            continue
        start = k
        while k < len(text) and not text[k].isspace():
            k += 1
        out.append((start + 1, text[start:k]))
    return out
