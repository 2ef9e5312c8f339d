"""Pieces every grid variant with cages or digit rows shares: JSON shape checks, cage
connectivity, cage labels in puzzle text and the boxed text grid of a caged puzzle.

They live here, not in one variant, so that no variant imports another's private helpers.
"""

from __future__ import annotations

from typing import Any, Sequence

from bookgen.core.types import EMPTY, Cell, Puzzle, Size, rows_cols
from bookgen.solve.latin import OP_GLYPHS

# A cage operation as plain ASCII puzzle text writes it.
ASCII_OPS = {"+": "+", "-": "-", "*": "x", "/": "/", "": ""}
CAGE_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def shape_problems(rows: Any, n: Size, alphabet: str, what: str) -> list[str]:
    """What is wrong with ``rows`` as an N x N (or ``GridSize``) grid of ``alphabet`` symbols
    (JSON input), at most one line."""
    height, width = rows_cols(n)
    if not isinstance(rows, (list, tuple)) or len(rows) != height:
        return [f"{what} must be a list of {height} row strings"]
    for r, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != width:
            return [f"{what} row {r + 1} must be a string of {width} characters"]
        bad = sorted(set(row) - set(alphabet))
        if bad:
            return [f"{what} row {r + 1} has unexpected symbol {bad[0]!r}"]
    return []


def connected(cells: Sequence[Cell]) -> bool:
    """True when the cells form one orthogonally connected group."""
    cells = list(cells)
    return bool(cells) and disconnected(cells) is None


def disconnected(cells: Sequence[Cell]) -> Cell | None:
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


def cage_text_lines(puzzle: Puzzle, rows: Sequence[str], ascii: bool) -> list[str]:
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
