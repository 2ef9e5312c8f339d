"""The rules of a binary grid as data: line patterns, the board, the technique table.

Everything the other parts of the engine share: ``Board`` (a line's cells
and signs as bitmasks), the valid line patterns, the techniques' levels and
weights, and how lines and cells are named.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.types import Cell, Edge, EMPTY

HARD = int(Level.HARD)
SHORT_LINE = 4  # the most empty cells a "medium" player enumerates in their head
# Memo bounds (``MemoBounds``, enforced by ``_trim_memos``): a long build's worker meets millions of line states.
STATE_MEMO = 400_000  # entries of a memo keyed by one line's state
LINE_MEMO = 200_000  # entries of one line memo of the closure
SIGN_LAYOUTS = 50_000  # the closure's line memos kept, one per (tier, a line's signs)

# The ladder, easiest first: each technique's level, the effort of one use (for the score
# inside a level) and the value of one use on the 1-10 footing of the Sudoku Explainer scale
# (``bookgen.core.rating``: easy techniques below 2.5, medium below 3.5, hard below 5, a trial
# 5.5). Ties in level are tried in this order. (The how-to texts are worded per variant:
# Takuzu's digits, Tango's suns and moons.)
TECHNIQUES: tuple[tuple[str, Level, float, float], ...] = (
    ("pair", Level.EASY, 1.0, 1.2),
    ("sandwich", Level.EASY, 1.0, 1.2),
    ("balance", Level.EASY, 1.5, 1.5),
    ("sign", Level.EASY, 1.0, 1.2),
    ("line", Level.MEDIUM, 3.0, 2.8),
    ("long_line", Level.HARD, 6.0, 3.8),
    ("distinct", Level.HARD, 6.0, 4.0),
    ("trial", Level.EXPERT, 20.0, 5.5),
)
TECHNIQUE_LEVEL: dict[str, Level] = {name: level for name, level, _, _ in TECHNIQUES}
TECHNIQUE_WEIGHT: dict[str, float] = {name: weight for name, _, weight, _ in TECHNIQUES}
TECHNIQUE_RATING: dict[str, float] = {name: rating for name, _, _, rating in TECHNIQUES}

LINE_TECHNIQUES = frozenset(("pair", "sandwich", "balance", "sign", "line", "long_line", "distinct"))
SIGN_FREE = frozenset(("pair", "sandwich", "balance"))  # techniques that never look at a line's signs
WHOLE_LINE = frozenset(("line", "long_line"))  # what every completion of the line agrees on


class Contradiction(Exception):
    """The board breaks a rule or a line has no valid completion."""


@lru_cache(maxsize=None)
def line_patterns(n: int, max_run: int) -> tuple[int, ...]:
    """All balanced lines of length ``n`` with no run longer than ``max_run``, ascending."""
    out = []
    half = n // 2
    for p in range(1 << n):
        if p.bit_count() != half:
            continue
        run, prev, ok = 0, -1, True
        for j in range(n):
            bit = (p >> j) & 1
            run = run + 1 if bit == prev else 1
            prev = bit
            if run > max_run:
                ok = False
                break
        if ok:
            out.append(p)
    return tuple(out)


class Board:
    """Known cells and signs of a binary grid, one pair of bitmasks per line."""

    __slots__ = ("n", "known", "value", "eq", "neq", "memos")

    def __init__(self, n: int, known=None, value=None, eq=None, neq=None, memos=None):
        self.n = n
        self.known = known if known is not None else [0] * (2 * n)
        self.value = value if value is not None else [0] * (2 * n)
        self.eq = eq if eq is not None else [0] * (2 * n)
        self.neq = neq if neq is not None else [0] * (2 * n)
        # The closure's per-line memo tables for these signs, shared by copies;
        # signs change only through add_edges (which drops them) and
        # remove_edge (which swaps the changed line's table in new lists).
        self.memos = memos if memos is not None else {}

    def copy(self) -> "Board":
        """An independent copy (search without undo). The sign masks are shared until
        ``add_edges`` / ``remove_edge`` change them (they copy first): searches copy boards
        all the time, signs rarely change."""
        board = _new_board(Board)
        board.n, board.known, board.value = self.n, self.known[:], self.value[:]
        board.eq, board.neq, board.memos = self.eq, self.neq, self.memos
        return board

    @classmethod
    def from_rows(cls, rows: Sequence[str], edges: Iterable[Edge] = ()) -> "Board":
        """A board from row strings of ``0``/``1``/``.`` and optional signs."""
        n = len(rows)
        board = cls(n)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch != EMPTY:
                    board.assign(r, c, int(ch))
        board.add_edges(edges)
        return board

    def add_edges(self, edges: Iterable[Edge]) -> None:
        """Put signs on the lines that hold their cells (the sign masks copied once)."""
        eq, neq = self.eq[:], self.neq[:]
        for edge in edges:
            line, bit = self._edge_bit(edge)
            if edge.sign == "=":
                eq[line] |= 1 << bit
            else:
                neq[line] |= 1 << bit
        self.eq, self.neq, self.memos = eq, neq, {}  # copies keep the old memo lists

    def remove_edge(self, edge: Edge) -> None:
        """Take a sign away again."""
        line, bit = self._edge_bit(edge)
        self.eq, self.neq = self.eq[:], self.neq[:]
        self.eq[line] &= ~(1 << bit)
        self.neq[line] &= ~(1 << bit)
        self._signs_changed(line)

    def take_signs(self, other: "Board") -> None:
        """The signs (and memo lists) of ``other``, a copy of this board whose signs changed since.

        The generator tries taking a sign away on a copy, and when it may go, takes the copy's
        signs instead of taking it away again: the copy's closure changed its cells, never its
        signs, and its memo lists are the ones ``remove_edge`` would build (one per tier the
        copy met, a list being only the tables for its lines' signs).

        Reference: ``remove_edge`` on this board; checked by
        ``test_take_signs_is_remove_edge`` (tests/test_binary.py).
        """
        self.eq, self.neq, self.memos = other.eq, other.neq, other.memos

    def _signs_changed(self, line: int) -> None:
        """New memo lists (copies may still use the old ones): ``line``'s table for its new signs."""
        memos = {}
        for key, tables in self.memos.items():
            engine, tier = key
            tables = tables[:]
            tables[line] = engine._line_table(tier, self.eq[line], self.neq[line])
            memos[key] = tables
        self.memos = memos

    def _edge_bit(self, edge: Edge) -> tuple[int, int]:
        (r1, c1), (r2, c2) = sorted((edge.a, edge.b))
        if r1 == r2 and c2 == c1 + 1:
            return r1, c1
        if c1 == c2 and r2 == r1 + 1:
            return self.n + c1, r1
        raise ValueError(f"cells {edge.a} and {edge.b} are not neighbours")

    def get(self, r: int, c: int) -> int:
        """1, 0, or -1 for an empty cell."""
        if not (self.known[r] >> c) & 1:
            return -1
        return (self.value[r] >> c) & 1

    def assign(self, r: int, c: int, v: int) -> None:
        """Fill one cell (both its row and its column)."""
        n = self.n
        self.known[r] |= 1 << c
        self.known[n + c] |= 1 << r
        if v:
            self.value[r] |= 1 << c
            self.value[n + c] |= 1 << r

    def clear(self, r: int, c: int) -> None:
        """Empty one cell."""
        n = self.n
        self.known[r] &= ~(1 << c)
        self.known[n + c] &= ~(1 << r)
        self.value[r] &= ~(1 << c)
        self.value[n + c] &= ~(1 << r)

    def empty_count(self) -> int:
        """How many cells are still empty."""
        return self.n * self.n - sum(map(int.bit_count, self.known[: self.n]))

    def rows(self) -> tuple[str, ...]:
        """Row strings with ``.`` for empty cells."""
        n = self.n
        return tuple(_row_text(n, k, v) for k, v in zip(self.known[:n], self.value[:n]))


_new_board = object.__new__  # ``Board.copy`` fills the slots itself: no ``__init__`` defaults to work out


@lru_cache(maxsize=None)
def _crossings(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per mask of a line's cells, the lines crossing them: (for a row, the columns'
    indices ``n + j``; for a column, the rows' ``j``), so news is written without bit loops."""
    rows = tuple(tuple(j for j in range(n) if (mask >> j) & 1) for mask in range(1 << n))
    return tuple(tuple(n + j for j in js) for js in rows), rows


@lru_cache(maxsize=1 << 16)
def _row_text(n: int, known: int, value: int) -> str:
    """One row's string (``Board.rows``), built once per row state."""
    return "".join(EMPTY if not (known >> c) & 1 else str((value >> c) & 1) for c in range(n))


def line_cell(n: int, line: int, j: int) -> Cell:
    """The cell at position ``j`` of ``line``."""
    return (line, j) if line < n else (j, line - n)


def line_name(n: int, line: int) -> str:
    """Human name, 1-based: ``row 3`` / ``column 5``."""
    return f"row {line + 1}" if line < n else f"column {line - n + 1}"
