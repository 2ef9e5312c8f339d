"""Regions: a partition of an N x N grid into named groups of cells, the vocabulary every
puzzle with regions shares (Jigsaw Sudoku's regions, Star Battle's and Queens' rooms).

A region is a list of cell indices ``i = row * N + col``. As rows of letters (the book
JSON's ``regions``) each region is named ``A``, ``B`` ... in the order of its first cell in
reading order (``region_rows``). Here: reading and checking such a grid (from JSON or a
puzzle file, errors at line and column), drawing its walls, and printing it as text.
"""

from __future__ import annotations

from collections import deque
from typing import Mapping, Sequence

from bookgen.core.pen import BOLD, Pen
from bookgen.core.text import PuzzleTextError, TextLine, square
from bookgen.core.types import EMPTY

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def neighbours(i: int, n: int) -> list[int]:
    """The orthogonal neighbours of cell ``i``, in a fixed order."""
    r, c = divmod(i, n)
    out = []
    if r:
        out.append(i - n)
    if c:
        out.append(i - 1)
    if c < n - 1:
        out.append(i + 1)
    if r < n - 1:
        out.append(i + n)
    return out



def connected(cells: Sequence[int], n: int) -> bool:
    """Whether ``cells`` form one orthogonally connected group (the plain check, by BFS)."""
    if not cells:
        return False
    inside = set(cells)
    seen = {cells[0]}
    todo = deque([cells[0]])
    while todo:
        i = todo.popleft()
        for j in neighbours(i, n):
            if j in inside and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(inside)



def region_rows(regions: Sequence[Sequence[int]], n: int) -> tuple[str, ...]:
    """Regions as N strings of letters, lettered in order of each region's first cell."""
    order = sorted(range(len(regions)), key=lambda k: min(regions[k]))
    owner = [""] * (n * n)
    for letter, k in zip(LETTERS, order):
        for i in regions[k]:
            owner[i] = letter
    return tuple("".join(owner[r * n:(r + 1) * n]) for r in range(n))



def regions_of(rows: Sequence[str]) -> list[list[int]]:
    """The regions (cell index lists, in order of first cell) of a grid of region letters."""
    n = len(rows)
    found: dict[str, list[int]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            found.setdefault(ch, []).append(r * n + c)
    return list(found.values())



def region_problems(rows: Sequence[str], n: int, equal: bool = True) -> list[str]:
    """What is wrong with a grid of region letters ([] when it is N connected regions of N
    cells; with ``equal`` False, N connected regions of any size)."""
    if len(rows) != n or any(not isinstance(row, str) or len(row) != n for row in rows):
        return [f"regions must be {n} strings of {n} letters"]
    bad = sorted({ch for row in rows for ch in row if ch not in LETTERS})
    if bad:
        return [f"regions hold letters A-Z and a-z, not {bad[0]!r}"]
    problems = []
    for cells in regions_of(rows):
        r, c = divmod(cells[0], n)
        name = f"region {rows[r][c]!r}"
        if equal and len(cells) != n:
            problems.append(f"{name} has {len(cells)} cells, not {n}")
        elif not connected(cells, n):
            problems.append(f"{name} is not connected")
    if not problems and len(regions_of(rows)) != n:
        problems.append(f"there must be {n} regions")
    return problems



def wall_runs(flags: Sequence[bool]) -> list[tuple[int, int]]:
    """(start, end) of each run of True in ``flags``: a wall drawn as one line per run."""
    out = []
    k = 0
    while k < len(flags):
        if flags[k]:
            start = k
            while k < len(flags) and flags[k]:
                k += 1
            out.append((start, k))
        else:
            k += 1
    return out



def draw_walls(pen: Pen, rows: Sequence[str]) -> None:
    """The bold walls between regions (given as rows of letters), each straight run as one line."""
    n = len(rows)
    for k in range(1, n):
        for start, end in wall_runs([rows[k - 1][c] != rows[k][c] for c in range(n)]):
            pen.line(start, k, end, k, BOLD)
        for start, end in wall_runs([rows[r][k - 1] != rows[r][k] for r in range(n)]):
            pen.line(k, start, k, end, BOLD)



def stray_cell(cells: Sequence[int], n: int) -> int:
    """A cell of a disconnected region outside the part its first cell is in."""
    part = [cells[0]]
    for i in cells[1:]:
        if connected(part + [i], n):
            part.append(i)
    rest = [i for i in cells if i not in part]
    # cells reached only later may join the part through one another: grow until stable
    grew = True
    while grew:
        grew = False
        for i in list(rest):
            if connected(part + [i], n):
                part.append(i)
                rest.remove(i)
                grew = True
    return rest[0]



def read_region_grid(lines: Sequence[TextLine], sizes: Sequence[int], title: str, file: str,
                     equal: bool = True) -> tuple[int, tuple[str, ...], list[TextLine]]:
    """The grid of region letters a puzzle file starts with (lines of only ``-+|=_`` are
    rulers and skipped): its size, its regions as ``region_rows`` and the lines after it
    (a grid of givens, if any). ``PuzzleTextError`` at the line and column of an unknown
    symbol, a region of the wrong size (with ``equal``, N cells each) or a stray cell."""
    grid = [ln for ln in lines if not all(ch in "-+|=_ " for ch in ln.text)]
    letters = [[ch for ch in ln.text if not ch.isspace()] for ln in grid]
    if not letters:  # (a drawing of walls alone, as ``solve`` prints one, has no letters to read)
        raise PuzzleTextError(file, lines[-1].number if lines else 1, None,
                              f"no grid of region letters: a {title} file gives one letter per cell, the same "
                              "letter for every cell of a region")
    n = len(letters[0])
    region_lines, rest = grid[:n], grid[n:]
    for ln in region_lines:
        for k, ch in enumerate(ln.text):
            if not ch.isspace() and ch not in LETTERS:
                raise PuzzleTextError(file, ln.number, k + 1, f"unknown symbol {ch!r}; the region grid holds "
                                      "one letter per cell, the same for every cell of a region")
    n = square(letters[:n], region_lines, sizes, title, file)
    if rest and len(rest) != n:
        ln = rest[min(n, len(rest) - 1)]
        raise PuzzleTextError(file, ln.number, None, f"after the {n} rows of regions come {n} rows of "
                              f"givens, not {len(rest)}")
    where: dict[str, list[tuple[int, int, int]]] = {}  # letter -> (cell index, line, column)
    for r, ln in enumerate(region_lines):
        c = 0
        for k, ch in enumerate(ln.text):
            if not ch.isspace():
                where.setdefault(ch, []).append((r * n + c, ln.number, k + 1))
                c += 1
    for letter, spots in where.items():
        cells = [i for i, _, _ in spots]
        if equal and len(cells) != n:
            _, line_no, col = spots[0]
            raise PuzzleTextError(file, line_no, col, f"region {letter!r} has {len(cells)} cells, not {n}")
        if not connected(cells, n):
            stray = stray_cell(cells, n)
            _, line_no, col = next(s for s in spots if s[0] == stray)
            raise PuzzleTextError(file, line_no, col, f"region {letter!r} is not connected: this cell does "
                                  "not touch the rest of the region (give a separate region its own letter)")
    if not equal and len(where) != n:
        ln = region_lines[0]
        raise PuzzleTextError(file, ln.number, 1, f"a {n}\u00d7{n} grid has {n} regions, not {len(where)}")
    return n, region_rows(regions_of(["".join(row) for row in letters[:n]]), n), rest



def read_givens(given_lines: Sequence[TextLine], n: int, cells: Mapping[str, str], holds: str,
                file: str) -> list[list[str]]:
    """The grid of givens after the regions (the lines ``read_region_grid`` leaves), each
    character read through ``cells`` (white space and ``|`` skipped), N x N; every cell
    empty when there is none. ``PuzzleTextError`` at an unknown symbol, saying what the grid
    ``holds``, or at a row of the wrong length."""
    givens = [[EMPTY] * n for _ in range(n)]
    for r, ln in enumerate(given_lines):
        row = []
        for k, ch in enumerate(ln.text):
            if ch.isspace() or ch == "|":
                continue
            if ch not in cells:
                raise PuzzleTextError(file, ln.number, k + 1, f"unknown symbol {ch!r}; the grid of givens holds {holds}")
            row.append(cells[ch])
        givens[r] = row
    if given_lines:
        square(givens, given_lines, (n,), "the grid of givens", file)
    return givens



def region_text_lines(regions: Sequence[str], rows: Sequence[str], show=lambda ch: ch) -> list[str]:
    """A state ``rows`` of a grid with regions, the walls drawn as ``|`` and ``---``; each
    symbol printed as ``show`` gives it (an empty cell as a blank)."""
    n = len(regions)
    out = []
    for r in range(n + 1):
        out.append("+" + "+".join("---" if r in (0, n) or regions[r - 1][c] != regions[r][c] else "   "
                                   for c in range(n)) + "+")
        if r == n:
            break
        line = "|"
        for c in range(n):
            ch = rows[r][c]
            line += f" {show(ch) if ch != EMPTY else ' '} " + \
                ("|" if c == n - 1 or regions[r][c] != regions[r][c + 1] else " ")
        out.append(line)
    return out
