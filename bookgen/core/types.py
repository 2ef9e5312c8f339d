"""The vocabulary every part of bookgen speaks.

Cells are ``(row, col)``, zero-based, row 0 at the top. A puzzle's grids are
tuples of row strings: ``.`` for an empty cell, otherwise the cell's symbol
(``0``/``1`` for binary grids, ``1``..``9`` for Latin squares).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from bookgen.core.difficulty import Level

Cell = tuple[int, int]
Rows = tuple[str, ...]
EMPTY = "."
MAX_CAGE = 6  # the largest cage any variant makes (the rule option max_cage goes to 6)


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
    # On the Sudoku Explainer scale (``bookgen.core.rating``): the hardest step of the solve
    # that always takes the easiest one; and the minutes a practised solver needs. None: not rated.
    rating: float | None = None
    minutes: float | None = None


@dataclass(frozen=True)
class Puzzle:
    """One puzzle with its answer, as it ships in a book: the grid, and the clues its variant
    has (signs on edges, cages, irregular regions as one letter per cell row by row,
    numbers outside the grid)."""

    variant: str
    size: int  # the side of a square grid; a rectangular one's (rows, cols) have ``rows``, ``cols``
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
        """The grid's rows: ``size`` for a square grid, ``size[0]`` for a rectangular one."""
        return self.size if isinstance(self.size, int) else self.size[0]

    @property
    def cols(self) -> int:
        """The grid's columns: ``size`` for a square grid, ``size[1]`` for a rectangular one."""
        return self.size if isinstance(self.size, int) else self.size[1]

    def given(self, cell: Cell) -> str:
        """The given symbol at ``cell`` or ``EMPTY``."""
        return self.givens[cell[0]][cell[1]]

    def answer(self, cell: Cell) -> str:
        """The solution symbol at ``cell``."""
        return self.solution[cell[0]][cell[1]]


class GenerationError(Exception):
    """A request that could not be met within its budget."""


def cells_of(size: int) -> list[Cell]:
    """All cells of an N x N grid in row-major order."""
    return [(r, c) for r in range(size) for c in range(size)]
