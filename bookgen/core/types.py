"""The vocabulary every part of bookgen speaks.

Cells are ``(row, col)``, zero-based, row 0 at the top. A puzzle's grids are
tuples of row strings: ``.`` for an empty cell, otherwise the cell's symbol
(``0``/``1`` for binary grids, ``1``..``9`` for Latin squares).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Union

from bookgen.core.difficulty import Level

Cell = tuple[int, int]
Rows = tuple[str, ...]
EMPTY = "."
MAX_CAGE = 6  # the largest cage any variant makes (the rule option max_cage goes to 6)


_GRID_SIZE = re.compile(r"\s*(\d{1,4})\s*[xX\u00d7]\s*(\d{1,4})\s*")


@dataclass(frozen=True, order=True)
class GridSize:
    """A rectangular grid's size: ``rows`` x ``cols``. Square variants keep a plain int N for
    N x N (their configs, JSON and puzzles are unchanged); a variant that takes rectangles
    (``Variant.rectangular``) gets a ``GridSize`` for every size, ``10`` read as 10 x 10."""

    rows: int
    cols: int

    @classmethod
    def parse(cls, text: str) -> "GridSize | None":
        """``15x10``, ``15X10`` or ``15\u00d710`` as 15 rows by 10 columns; None for anything else."""
        match = _GRID_SIZE.fullmatch(text)
        return cls(int(match[1]), int(match[2])) if match else None

    @classmethod
    def from_json(cls, value: Any) -> "GridSize | None":
        """A book JSON's ``size: [rows, cols]`` (two whole numbers); None for anything else."""
        if (isinstance(value, list) and len(value) == 2
                and all(type(x) is int and 0 < x < 10_000 for x in value)):
            return cls(value[0], value[1])
        return None

    @property
    def is_square(self) -> bool:
        """Whether rows == cols."""
        return self.rows == self.cols

    @property
    def cells(self) -> int:
        """How many cells the grid has."""
        return self.rows * self.cols

    @property
    def label(self) -> str:
        """``15\u00d710``: how plan and printed text name it."""
        return f"{self.rows}\u00d7{self.cols}"

    def __str__(self) -> str:
        """``15x10``: how a config writes it (and reads it back)."""
        return f"{self.rows}x{self.cols}"


Size = Union[int, GridSize]  # a square variant's side, or a rectangular variant's GridSize


def rows_cols(size: Size | tuple[int, int]) -> tuple[int, int]:
    """(rows, cols) of a square side N or a ``GridSize`` (or a plain ``(rows, cols)`` pair)."""
    if isinstance(size, int):
        return size, size
    if isinstance(size, GridSize):
        return size.rows, size.cols
    return size[0], size[1]


def cell_count(size: Size) -> int:
    """How many cells a grid of this size has."""
    rows, cols = rows_cols(size)
    return rows * cols


def size_label(size: Size) -> str:
    """``15\u00d710`` for a grid size, ``9\u00d79`` for a square side (as ``plan`` prints them)."""
    rows, cols = rows_cols(size)
    return f"{rows}\u00d7{cols}"


@dataclass(frozen=True)
class SizeRange:
    """The rectangles a variant takes: ``rows`` and ``cols`` each between two bounds
    (inclusive), every ``step`` from the lower bound (2: even sides only, from an even bound)."""

    min_rows: int
    max_rows: int
    min_cols: int
    max_cols: int
    step: int = 1

    def __contains__(self, size: object) -> bool:
        if not isinstance(size, GridSize):
            return False
        return (self.min_rows <= size.rows <= self.max_rows and self.min_cols <= size.cols <= self.max_cols
                and (size.rows - self.min_rows) % self.step == 0 and (size.cols - self.min_cols) % self.step == 0)

    @property
    def squares(self) -> tuple[int, ...]:
        """The square sides inside the range (menus, examples, docs)."""
        low, high = max(self.min_rows, self.min_cols), min(self.max_rows, self.max_cols)
        return tuple(n for n in range(low, high + 1) if GridSize(n, n) in self)

    def __str__(self) -> str:
        """``rows 5 to 25 and columns 5 to 25`` (``, even`` with step 2)."""
        every = {1: "", 2: " (even)"}.get(self.step, f" (every {self.step})")
        return (f"rows {self.min_rows} to {self.max_rows}{every} and "
                f"columns {self.min_cols} to {self.max_cols}{every}")


@dataclass(frozen=True)
class Edge:
    """A sign between two orthogonal neighbours: ``=`` same symbol, ``x`` opposite."""

    a: Cell
    b: Cell
    sign: str


@dataclass(frozen=True)
class Cage:
    """A KenKen cage: connected cells, an operation (``+ - * /`` or ``""``) and a target."""

    cells: tuple[Cell, ...]
    op: str
    target: int


@dataclass(frozen=True)
class OutsideClues:
    """Numbers printed outside the grid, one per column (``top``, ``bottom``, left to right)
    and one per row (``left``, ``right``, top to bottom); 0 where a line has none."""

    top: tuple[int, ...] = ()
    bottom: tuple[int, ...] = ()
    left: tuple[int, ...] = ()
    right: tuple[int, ...] = ()


@dataclass(frozen=True)
class Grade:
    """What a human needs: the level, a finer score, and technique use counts."""

    level: Level
    score: float
    techniques: Mapping[str, int] = field(default_factory=dict)
    solved: bool = True  # False: the ladder got stuck, so a player would have to guess


@dataclass(frozen=True)
class Puzzle:
    """One puzzle with its answer, as it ships in a book: the grid, and the clues its variant
    has (signs on edges, cages, irregular regions as one letter per cell row by row,
    numbers outside the grid)."""

    variant: str
    size: Size  # the side of a square grid, or a rectangular variant's ``GridSize``
    rules: Mapping[str, Any]
    givens: Rows
    solution: Rows
    grade: Grade | None = None
    seed: str = ""
    edges: tuple[Edge, ...] = ()
    cages: tuple[Cage, ...] = ()
    regions: tuple[str, ...] = ()
    clues: OutsideClues | None = None  # numbers outside the grid (Skyscrapers)

    @property
    def rows(self) -> int:
        """The grid's rows: ``size`` for a square grid, ``size.rows`` for a ``GridSize``."""
        return rows_cols(self.size)[0]

    @property
    def cols(self) -> int:
        """The grid's columns: ``size`` for a square grid, ``size.cols`` for a ``GridSize``."""
        return rows_cols(self.size)[1]

    def given(self, cell: Cell) -> str:
        """The given symbol at ``cell`` or ``EMPTY``."""
        return self.givens[cell[0]][cell[1]]

    def answer(self, cell: Cell) -> str:
        """The solution symbol at ``cell``."""
        return self.solution[cell[0]][cell[1]]


class GenerationError(Exception):
    """A request that could not be met within its budget."""


def cells_of(size: Size) -> list[Cell]:
    """All cells of an N x N (or ``GridSize``) grid in row-major order."""
    rows, cols = rows_cols(size)
    return [(r, c) for r in range(rows) for c in range(cols)]
