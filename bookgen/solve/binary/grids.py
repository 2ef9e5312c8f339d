"""Random full grids: drawn uniformly from a table of every grid where that is small, else by search.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from bookgen.core.bits import nth_bit
from bookgen.core.types import GenerationError
from bookgen.solve.binary.rules import HARD, Board, Contradiction, line_patterns

if TYPE_CHECKING:
    from bookgen.solve.binary import BinaryEngine

TABLE_PATTERNS = 14  # grids are listed for line lengths with at most this many valid lines


@lru_cache(maxsize=None)
def grid_table(n: int, max_run: int, unique_lines: bool) -> tuple[tuple[int, ...], ...]:
    """Every valid full grid of these rules (rows as masks, bit j = column j), in a
    fixed order. Meant for small grids (``TABLE_PATTERNS``): 90 at 4x4, 11,222 at 6x6
    without distinct lines and 4,140 with them, listed in under 0.05 s.

    Rows are chained from the valid lines, each column kept a prefix of a
    valid line: per column, whether its next cell may take a 0, a 1 or
    both gives two masks that a row must match.
    """
    patterns = line_patterns(n, max_run)
    # For a column prefix of length k: bit 0 set if a 0 may follow, bit 1 if a 1 may.
    follow: list[dict[int, int]] = []
    for k in range(n):
        nxt: dict[int, int] = {}
        for p in patterns:
            head = p & ((1 << k) - 1)
            nxt[head] = nxt.get(head, 0) | 1 << ((p >> k) & 1)
        follow.append(nxt)
    out: list[tuple[int, ...]] = []
    rows: list[int] = []
    spread = [tuple((p >> c) & 1 for c in range(n)) for p in patterns]

    def extend(cols: list[int]) -> None:
        k = len(rows)
        if k == n:
            if not unique_lines or len(set(cols)) == n:
                out.append(tuple(rows))
            return
        table = follow[k]
        zeros = ones = 0  # columns whose next cell must be 0, must be 1
        for c, col in enumerate(cols):
            may = table[col]
            if may == 1:
                zeros |= 1 << c
            elif may == 2:
                ones |= 1 << c
        for p, bits in zip(patterns, spread):
            if p & zeros or p & ones != ones or (unique_lines and p in rows):
                continue
            rows.append(p)
            extend([col | b << k for col, b in zip(cols, bits)])
            rows.pop()

    extend([0] * n)
    return tuple(out)


def random_solution(engine: "BinaryEngine", rng, budget: int = 2_000) -> Board:
    """A random full grid, every valid grid equally likely when ``grid_table`` lists
    them; otherwise by search: fill a random empty cell with a random symbol and
    propagate with every technique up to ``hard`` (Norvig-style search that
    copies small states instead of undoing). Propagation makes dead ends rare,
    so the bounded search almost never backtracks."""
    n = engine.n
    if len(line_patterns(n, engine.max_run)) <= TABLE_PATTERNS:
        table = grid_table(n, engine.max_run, engine.unique_lines)
        rows = table[rng.randrange(len(table))]
        cols = [0] * n
        bits_of = engine._crossings[1]  # per mask, the positions of its set bits
        for r, row in enumerate(rows):
            bit = 1 << r
            for c in bits_of[row]:
                cols[c] |= bit
        return Board(n, [engine.full] * (2 * n), [*rows, *cols])
    full = engine.full
    nodes = 0
    closure = engine.closure
    below = rng.randrange

    def search(board: Board, start: tuple[int, int] | None) -> Board | None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return None
        try:
            # The parent was closed before this one cell was set: only its lines have news.
            if closure(board, HARD, start=start):
                return board
        except Contradiction:
            return None
        # A uniformly random empty cell in row-major order, without listing them all.
        holes = [full & ~k for k in board.known[:n]]
        pick = below(sum(map(int.bit_count, holes)))
        r = 0
        while pick >= holes[r].bit_count():
            pick -= holes[r].bit_count()
            r += 1
        c = nth_bit(holes[r], pick)
        first = below(2)
        for v in (first, 1 - first):
            trial = board.copy()
            trial.assign(r, c, v)
            found = search(trial, (r, n + c))
            if found is not None:
                return found
        return None

    found = search(Board(n), None)
    if found is None:
        raise GenerationError(f"no valid {n}x{n} grid found within {budget} steps")
    return found
