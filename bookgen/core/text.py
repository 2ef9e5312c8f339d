"""What every variant's text format shares: the error type, lines, and grid checks.

``bookgen solve`` reads a puzzle typed as text. The generic part (comments,
the header line naming the variant, dispatch, reports) is in
``bookgen.puzzletext``; each variant parses and prints its own grid through
the ``Variant`` protocol, with the helpers here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence


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
            raise PuzzleTextError(file, line.number, None,
                                  f"this row has {len(cells)} cells but the first row has {n}")
    if len(rows) != n:
        last = row_lines[-1]
        raise PuzzleTextError(file, last.number, None,
                              f"the grid has {len(rows)} rows of {n} cells; it must be square")
    if n not in sizes:
        raise PuzzleTextError(file, row_lines[0].number, None,
                              f"{title} grids are {or_list(map(str, sizes))} cells across, not {n}")
    return n


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
