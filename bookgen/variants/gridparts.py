"""Pieces every grid variant with cages or digit rows shares: JSON shape checks (grids,
edge signs, cages), cage connectivity, cage labels in puzzle text and the boxed text grid of a caged puzzle.

They live here, not in one variant, so that no variant imports another's private helpers.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from bookgen.core.types import EMPTY, Cage, Cell, Edge, Puzzle, Size, rows_cols
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


def given_problems(givens: Sequence[str], solution: Sequence[str]) -> list[str]:
    """A line for every given the solution disagrees with (two grids of one shape)."""
    return [f"given {g} at row {r + 1}, column {c + 1} disagrees with the solution"
            for r, (given_row, solved_row) in enumerate(zip(givens, solution))
            for c, (g, s) in enumerate(zip(given_row, solved_row)) if g != EMPTY and g != s]


def given_count(givens: Sequence[str]) -> int:
    """How many cells of a grid of givens hold a given."""
    return sum(ch != EMPTY for row in givens for ch in row)


def and_givens(clues: str, given: int) -> list[str]:
    """A puzzle's clue counts for its one-line description: ``clues`` (``29 cages``), then
    ``3 givens`` when there are any."""
    return [clues, f"{given} givens"] if given else [clues]


def edges_from_json(raw_edges: Any, size: int, signs: Sequence[str]) -> tuple[Edge, ...]:
    """The ``edges`` of a book JSON entry (Tango's ``=``/``x``, Futoshiki's ``<``/``>``):
    each one sign of ``signs`` between two neighbouring cells inside the grid, no two on
    the same pair of cells; ``ValueError`` names the first bad edge."""
    if not isinstance(raw_edges, list):
        raise ValueError("edges must be a list")
    most = 2 * size * (size - 1)
    if len(raw_edges) > most:  # before any work on them: a hand-made file may hold millions
        raise ValueError(f"{len(raw_edges)} edges, but a {size}x{size} grid has only {most} places for one")
    wanted = " or ".join(f"'{sign}'" for sign in signs)
    seen: dict[tuple[Cell, Cell], int] = {}
    edges = []
    for i, raw in enumerate(raw_edges):
        try:
            (r1, c1), (r2, c2) = raw["cells"]
            sign = raw["sign"]
            cells = [(r1, c1), (r2, c2)]
        except (KeyError, TypeError, ValueError):
            cells = []
        if not cells or not all(type(v) is int for cell in cells for v in cell):
            raise ValueError(f"edge {i + 1} must be {{'cells': [[r, c], [r, c]], 'sign': {wanted}}}")
        if sign not in signs:
            raise ValueError(f"edge {i + 1}: sign must be {wanted}, got {sign!r}")
        if not all(0 <= v < size for cell in cells for v in cell) or \
                abs(cells[0][0] - cells[1][0]) + abs(cells[0][1] - cells[1][1]) != 1:
            raise ValueError(f"edge {i + 1}: cells {cells} are not neighbours inside the grid")
        key = (min(cells[0], cells[1]), max(cells[0], cells[1]))
        if key in seen:
            raise ValueError(f"edge {i + 1} joins the same cells as edge {seen[key] + 1}")
        seen[key] = i
        edges.append(Edge(cells[0], cells[1], sign))
    return tuple(edges)


def cages_from_json(raw_cages: Any, size: int, title: str, op_problem: Callable[[Any], str | None],
                    target_problem: Callable[[Any], str | None], default_op: str | None = None
                    ) -> tuple[Cage, ...]:
    """The ``cages`` of a book JSON entry (KenKen, Killer): a non-empty list of objects with
    ``cells`` (distinct [row, col] inside the grid), ``op`` and ``target``, the last two
    judged by the variant (``op_problem``/``target_problem`` say what is wrong, or None; a
    missing ``op`` is ``default_op``); ``ValueError`` names the first bad cage. Whether the cages
    tile the grid and are connected is the variant's own check."""
    if not isinstance(raw_cages, list) or not raw_cages:
        raise ValueError(f"{title} 'cages' must be a non-empty list")
    cages = []
    for k, raw in enumerate(raw_cages):
        if not isinstance(raw, Mapping) or set(raw) - {"cells", "op", "target"}:
            raise ValueError(f"cage {k + 1} must be an object with cells, op and target")
        cells_raw = raw.get("cells")
        if not isinstance(cells_raw, list) or not cells_raw:
            raise ValueError(f"cage {k + 1}: 'cells' must be a non-empty list of [row, col]")
        cells = []
        for cell in cells_raw:
            if (not isinstance(cell, (list, tuple)) or len(cell) != 2
                    or not all(type(x) is int for x in cell) or not all(0 <= x < size for x in cell)):
                raise ValueError(f"cage {k + 1}: bad cell {cell!r} (want [row, col] within 0..{size - 1})")
            cells.append((cell[0], cell[1]))
        op = raw.get("op", default_op)
        problem = op_problem(op)
        if problem:
            raise ValueError(f"cage {k + 1}: {problem}")
        target = raw.get("target")
        problem = target_problem(target)
        if problem:
            raise ValueError(f"cage {k + 1}: {problem}")
        if len(set(cells)) != len(cells):
            raise ValueError(f"cage {k + 1} lists a cell twice")
        cages.append(Cage(tuple(sorted(cells)), op, target))
    return tuple(cages)


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


def cage_where(cells: Sequence[Cell]) -> str:
    """A cage's cells as the messages name them: ``(1,1),(1,2)``."""
    return ",".join(f"({r + 1},{c + 1})" for r, c in cells)


def cage_problems(cages: Sequence[Cage], n: int, own: Callable[[Cage, str], list[str]]) -> list[str]:
    """Why the cages are not a partition of the N x N grid into connected cages, with what
    ``own(cage, where)`` finds wrong with each cage under its variant's rules (in the cages'
    order); [] when all is well."""
    errs = []
    seen: set[Cell] = set()
    for cage in cages:
        where = cage_where(cage.cells)
        for cell in cage.cells:
            if not (0 <= cell[0] < n and 0 <= cell[1] < n):
                errs.append(f"cage at {where} has a cell outside the grid")
            elif cell in seen:
                errs.append(f"cell ({cell[0] + 1},{cell[1] + 1}) is in two cages")
            seen.add(cell)
        if not connected(cage.cells):
            errs.append(f"cage at {where} is not connected")
        errs += own(cage, where)
    missing = [(r, c) for r in range(n) for c in range(n) if (r, c) not in seen]
    if missing:
        errs.append(f"cages miss {len(missing)} cell(s), e.g. ({missing[0][0] + 1},{missing[0][1] + 1})")
    return errs


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
