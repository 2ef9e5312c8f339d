"""The binary-grid engine shared by Takuzu and Tango.

A grid of N x N cells, each 0 or 1, where every row and column is balanced
(N/2 of each), no line has a run longer than ``max_run``, optionally no two
rows (or columns) are equal, and optional signs join neighbours (``=`` same,
``x`` opposite).

Representation: a ``Board`` keeps each of the 2N lines (rows 0..N-1, then
columns N..2N-1) as two bitmasks, ``known`` and ``value``; bit j of a row is
column j, bit j of a column is row j. Signs live on lines too: bit j of
``eq``/``neq`` joins cells j and j+1 of that line. Every valid line is one of
a few hundred precomputed patterns (34 for N=8, 518 for N=14), so "which
completions of this line are still possible" is a filter over a short list
of ints, memoised per line state.

The ladder of techniques (tier = difficulty level):

- easy: ``pair`` (``00_`` -> ``001``), ``sandwich`` (``0_0`` -> ``010``),
  ``balance`` (a line holding N/2 of one symbol takes the other everywhere
  else), ``sign`` (one end of ``=``/``x`` known fixes the other).
- medium: ``line`` - enumerate the valid completions of a line with at most
  ``SHORT_LINE`` empty cells (runs, balance and its signs) and keep what they
  all agree on.
- hard: ``long_line`` - the same reasoning on a line with more empty cells;
  ``distinct`` - a completion that would copy a finished line is ruled out.
- expert: ``trial`` - assume one cell, and reach a contradiction with the
  tiers above; the cell takes the other symbol. Never nested.

Every technique is a sound deduction, so a puzzle the ladder fills
completely has exactly one solution; the exact SAT check is run once on top.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_, Plural, Text, join_and
from bookgen.core.types import Cell, Edge, EMPTY, GenerationError
from bookgen.core.variant import Step
from bookgen.solve.sat import SOLVER_NAME, Solver, models

HARD = int(Level.HARD)
SAT_RENEW = 2_000  # uniqueness proofs per incremental solver before a fresh one (bounds its memory)
SHORT_LINE = 4  # the most empty cells a "medium" player enumerates in their head

TECHNIQUE_LEVEL: dict[str, Level] = {
    "pair": Level.EASY,
    "sandwich": Level.EASY,
    "balance": Level.EASY,
    "sign": Level.EASY,
    "line": Level.MEDIUM,
    "long_line": Level.HARD,
    "distinct": Level.HARD,
    "trial": Level.EXPERT,
}
# Effort of one use, for the score inside a level.
TECHNIQUE_WEIGHT: dict[str, float] = {
    "pair": 1.0, "sandwich": 1.0, "balance": 1.5, "sign": 1.0,
    "line": 3.0, "long_line": 6.0, "distinct": 6.0, "trial": 20.0,
}


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


_NUMBER_WORDS = (N_("no"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"),
                 N_("seven"), N_("eight"), N_("nine"))


def _count(k: int) -> str:
    """Small counts as words (``three``), larger ones as digits."""
    return _NUMBER_WORDS[k] if 0 <= k < len(_NUMBER_WORDS) else str(k)


def _line_text(n: int, line: int, capital: bool = False) -> Text:
    """``line_name`` as a translatable value of a reason (``Row 3`` to open a sentence)."""
    if line < n:
        return Text(N_("Row {row}") if capital else N_("row {row}"), row=line + 1)
    return Text(N_("Column {column}") if capital else N_("column {column}"), column=line - n + 1)


def _semis(parts: Sequence[str]) -> str:
    """``a; b; c``, translatable."""
    if len(parts) == 1:
        return parts[0]
    return Text(N_("{first}; {rest}"), first=parts[0], rest=_semis(parts[1:]))


# How a reason names each symbol: one of it, several, and a counted number of it (English
# plural forms; the catalogs give each language's). Tango's are words, Takuzu's its digits.
_SYMBOL_WORDS = {
    "sun": (N_("a sun"), N_("suns"), lambda k, num: Plural("{num} sun", "{num} suns", k, num=num)),
    "moon": (N_("a moon"), N_("moons"), lambda k, num: Plural("{num} moon", "{num} moons", k, num=num)),
    "0": ("0", N_("0s"), lambda k, num: Plural("{num} 0", "{num} 0s", k, num=num)),
    "1": ("1", N_("1s"), lambda k, num: Plural("{num} 1", "{num} 1s", k, num=num)),
}


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class LineFind:
    """What one technique found on one line."""

    technique: str
    line: int
    ones: int
    zeros: int
    why: str


class BinaryEngine:
    """Rules of one binary grid family plus its techniques, closure and SAT encoding."""

    def __init__(self, n: int, max_run: int = 2, unique_lines: bool = False,
                 names: tuple[str, str] = ("0", "1")):
        self.n = n
        self.max_run = max_run
        self.unique_lines = unique_lines
        self.names = names  # how explanations name symbol 0 and symbol 1
        self.full = (1 << n) - 1
        self.half = n // 2
        self.windows = [((1 << (max_run + 1)) - 1) << s for s in range(n - max_run)]
        self._code = "H" if n <= 16 else "Q"  # array type code wide enough for a line
        self._cands: dict[int, bytes] = {}  # line_options: completions per packed line state
        self._masks: dict[int, int] = {}  # and their AND << n | OR
        self._parts: dict[int, int] = {}  # line_masks: pattern sets per cell state and per sign layout
        self._agree: dict[int, int] = {}  # line_masks: AND << n | OR of each pattern set met
        self._tables: dict[tuple[int, int, int], dict] = {}  # _propagate's memos
        # Memos hold only ints (keys and packed answers): the garbage collector
        # never walks such dicts, however large they grow.
        self._found: dict[str, dict[int, int]] = {}
        self._copied: dict[tuple, int] = {}  # answers that depend on finished parallel lines
        self._memo_keys = [(self, tier) for tier in range(HARD + 1)]  # a board's memo lists, per engine and tier
        self._crossings = _crossings(n)
        self._every = (1 << 2 * n) - 1  # a queue of every line
        self._parallel = (tuple(range(n)), tuple(range(n, 2 * n)))  # the rows, the columns
        self._full_queues: dict[Cell | None, list[int]] = {}  # _propagate_distinct's first stack of every line
        self._sat: Solver | None = None
        self._sat_top = 0
        self._sat_calls = 0

    # ----- per-line deductions -------------------------------------------------
    def completions(self, board: Board, line: int) -> tuple[tuple[int, ...], int, int]:
        """Valid completions of a line, and their AND and OR masks (memoised)."""
        return self.line_options(board.known[line], board.value[line],
                                 board.eq[line], board.neq[line])

    def line_options(self, known: int, value: int, eq: int = 0,
                     neq: int = 0) -> tuple[Sequence[int], int, int]:
        """Completions of a line given as masks, with their AND and OR (memoised).

        The memo maps one int key to the completions packed in ``bytes`` and
        one int to the packed AND/OR: objects the garbage collector never
        tracks, so a large memo costs no collection pause.
        """
        n = self.n
        key = known | value << n | eq << 2 * n | neq << 3 * n
        packed = self._cands.get(key)
        if packed is None:
            if eq | neq:
                # Signs differ from puzzle to puzzle, cells' states recur:
                # filter the unsigned completions (memoised, shared) by the signs.
                cands = array(self._code, [p for p in self.line_options(known, value)[0]
                                    if not ((p ^ p >> 1) & eq) and not (~(p ^ p >> 1) & neq)])
            elif known:
                # Filter the (memoised) completions of the state with one cell
                # fewer: a short list instead of every pattern.
                high = 1 << (known.bit_length() - 1)
                parent = self.line_options(known ^ high, value & ~high)[0]
                if value & high:
                    cands = array(self._code, [p for p in parent if p & high])
                else:
                    cands = array(self._code, [p for p in parent if not p & high])
            else:
                cands = array(self._code, line_patterns(n, self.max_run))
            a, o = self.full, 0
            for p in cands:
                a &= p
                o |= p
            if len(self._cands) > 400_000:
                self._cands.clear()
                self._masks.clear()
            self._cands[key] = cands.tobytes()
            self._masks[key] = a << n | o
            return cands, a, o
        both = self._masks[key]
        return memoryview(packed).cast(self._code), both >> n, both & self.full

    def _pattern_sets(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
        """The line patterns as bit sets over their indices, built once per engine.

        Per cell j, (patterns with a 0 there, patterns with a 1 there); per
        sign position j, (patterns whose cells j and j+1 differ, those where
        they are the same); and the set of all patterns.
        """
        sets = self.__dict__.get("_sets")
        if sets is None:
            pats = line_patterns(self.n, self.max_run)
            cell = [(sum(1 << i for i, p in enumerate(pats) if not (p >> j) & 1),
                     sum(1 << i for i, p in enumerate(pats) if (p >> j) & 1)) for j in range(self.n)]
            sign = [(sum(1 << i for i, p in enumerate(pats) if ((p ^ p >> 1) >> j) & 1),
                     sum(1 << i for i, p in enumerate(pats) if not ((p ^ p >> 1) >> j) & 1))
                    for j in range(self.n - 1)]
            sets = self._sets = (cell, sign, (1 << len(pats)) - 1)
        return sets

    def line_masks(self, known: int, value: int, eq: int = 0, neq: int = 0) -> int:
        """``AND << n | OR`` of a line's completions (``line_options``' masks), without listing them.

        No completion gives AND = all ones and OR = 0 (never so otherwise).
        The patterns are bit sets over their indices, so the completions of a
        line state are a few ANDs of precomputed sets, one per known cell and
        sign, and what they agree on is remembered per set.
        """
        n = self.n
        key = known | value << n | eq << 2 * n | neq << 3 * n
        both = self._masks.get(key)
        if both is not None:
            return both
        cell, sign, alive = self._pattern_sets()
        # The patterns that fit the known cells, and those that keep the
        # signs, are remembered apart: cell states recur across puzzles, a
        # line's signs across the tests of one carve.
        parts = self._parts
        if len(parts) > 400_000:
            parts.clear()
        fit = parts.get(known << n | value)
        if fit is None:
            fit, m = alive, known
            while m:
                low = m & -m
                m ^= low
                j = low.bit_length() - 1
                fit &= cell[j][(value >> j) & 1]
            parts[known << n | value] = fit
        if eq | neq:
            skey = -1 - (eq << n | neq)  # negative: apart from the cell states' keys
            keep = parts.get(skey)
            if keep is None:
                keep = alive
                for mask, same in ((eq, 1), (neq, 0)):
                    while mask:
                        low = mask & -mask
                        mask ^= low
                        keep &= sign[low.bit_length() - 1][same]
                parts[skey] = keep
            fit &= keep
        # What the surviving patterns agree on depends on the set alone, and
        # the same sets turn up under many keys (other cells, other signs).
        agree = self._agree
        both = agree.get(fit)
        if both is None:
            if fit:
                # The known cells agree by construction; one test per empty cell.
                a = o = value & known
                m = self.full & ~known
                while m:
                    low = m & -m
                    m ^= low
                    zeros, ones = cell[low.bit_length() - 1]
                    if not fit & zeros:
                        a |= low
                    if fit & ones:
                        o |= low
            else:
                a, o = self.full, 0
            if len(agree) > 400_000:
                agree.clear()
            both = agree[fit] = a << n | o
        if len(self._masks) > 400_000:
            self._cands.clear()
            self._masks.clear()
        self._masks[key] = both
        return both

    def _enumerate(self, board: Board, line: int, exclude: frozenset[int] = frozenset()):
        if not exclude:
            n = self.n
            known = board.known[line]
            both = self.line_masks(known, board.value[line], board.eq[line], board.neq[line])
            a, o = both >> n, both & self.full
            if a & ~o:
                raise Contradiction(f"{line_name(self.n, line)} has no valid completion")
            unknown = self.full & ~known
            return a & unknown, ~o & unknown
        cands, a, o = self.completions(board, line)
        if exclude:
            cands = [p for p in cands if p not in exclude]
            a, o = self.full, 0
            for p in cands:
                a &= p
                o |= p
        if not cands:
            raise Contradiction(f"{line_name(self.n, line)} has no valid completion")
        unknown = self.full & ~board.known[line]
        return a & unknown, ~o & unknown

    def _runs(self, board: Board, line: int) -> tuple[int, int, int, int]:
        """Cells forced by pairs and by sandwiches: (pair1, pair0, sand1, sand0)."""
        known, value = board.known[line], board.value[line]
        ones, zeros = value, known & ~value
        unknown = self.full & ~known
        k = self.max_run
        if k == 2:  # the usual rule, as shifts: a bit per window start
            if ones & ones >> 1 & ones >> 2 or zeros & zeros >> 1 & zeros >> 2:
                raise Contradiction(f"{line_name(self.n, line)} has a run too long")
            o2, z2 = ones & ones >> 1, zeros & zeros >> 1
            return ((z2 << 2 | z2 >> 1) & unknown, (o2 << 2 | o2 >> 1) & unknown,
                    (zeros & zeros >> 2) << 1 & unknown, (ones & ones >> 2) << 1 & unknown)
        p1 = p0 = s1 = s0 = 0
        for w in self.windows:
            hole = unknown & w
            if not hole or hole & (hole - 1):
                if not hole and ((ones & w) == w or (zeros & w) == w):
                    raise Contradiction(f"{line_name(self.n, line)} has a run too long")
                continue
            end = hole == (w & -w) or hole == 1 << (w.bit_length() - 1)
            if (ones & w).bit_count() == k:
                if end:
                    p0 |= hole
                else:
                    s0 |= hole
            elif (zeros & w).bit_count() == k:
                if end:
                    p1 |= hole
                else:
                    s1 |= hole
        return p1, p0, s1, s0

    def _balance(self, board: Board, line: int) -> tuple[int, int]:
        known, value = board.known[line], board.value[line]
        unknown = self.full & ~known
        ones = value.bit_count()
        zeros = known.bit_count() - ones
        if ones > self.half or zeros > self.half:
            raise Contradiction(f"{line_name(self.n, line)} has too many of one symbol")
        if not unknown:
            return 0, 0
        if ones == self.half:
            return 0, unknown
        if zeros == self.half:
            return unknown, 0
        return 0, 0

    def _signs(self, board: Board, line: int) -> tuple[int, int]:
        """Cells a sign fixes from its known end: (ones, zeros). Bit j of a sign mask joins cells j, j+1."""
        known, value = board.known[line], board.value[line]
        eq, neq = board.eq[line], board.neq[line]
        if not (eq | neq):
            return 0, 0
        differ = value ^ value >> 1
        both = known & known >> 1
        if eq & both & differ or neq & both & ~differ:
            raise Contradiction(f"a sign in {line_name(self.n, line)} is broken")
        low = known & ~(known >> 1)  # cell j known, j + 1 not: j + 1 follows j
        high = ~known & known >> 1  # cell j + 1 known, j not: j follows j + 1
        above = value >> 1
        f1 = ((eq & low & value) | (neq & low & ~value)) << 1
        f0 = ((eq & low & ~value) | (neq & low & value)) << 1
        f1 |= (eq & high & above) | (neq & high & ~above)
        f0 |= (eq & high & ~above) | (neq & high & above)
        return f1, f0

    def _local_answer(self, k: int, v: int, eq: int, neq: int) -> int | None:
        """``_local`` on a line given as masks (runs of two), as ``ones << n | zeros``.

        None where a rule is broken: the caller then asks ``deduce``, which
        raises the contradiction with its own words. One function of bit
        operations for the closure's memo misses, which at the easy tier are
        mostly lines whose signs no earlier puzzle had.
        """
        n, half = self.n, self.half
        ones, zeros = v, k & ~v
        unknown = self.full & ~k
        if ones & ones >> 1 & ones >> 2 or zeros & zeros >> 1 & zeros >> 2:
            return None
        o2, z2 = ones & ones >> 1, zeros & zeros >> 1
        f1 = (z2 << 2 | z2 >> 1 | (zeros & zeros >> 2) << 1) & unknown
        f0 = (o2 << 2 | o2 >> 1 | (ones & ones >> 2) << 1) & unknown
        c1, c0 = ones.bit_count(), zeros.bit_count()
        if c1 > half or c0 > half:
            return None
        if unknown:
            if c1 == half:
                f0 |= unknown
            elif c0 == half:
                f1 |= unknown
        if eq | neq:
            differ = v ^ v >> 1
            both = k & k >> 1
            if eq & both & differ or neq & both & ~differ:
                return None
            low = k & ~(k >> 1)
            high = ~k & k >> 1
            above = v >> 1
            f1 |= ((eq & low & v) | (neq & low & ~v)) << 1 | (eq & high & above) | (neq & high & ~above)
            f0 |= ((eq & low & ~v) | (neq & low & v)) << 1 | (eq & high & ~above) | (neq & high & above)
        if f1 & f0:
            return None
        return f1 << n | f0

    def _local(self, board: Board, line: int) -> tuple[int, int]:
        p1, p0, s1, s0 = self._runs(board, line)
        b1, b0 = self._balance(board, line)
        g1, g0 = self._signs(board, line)
        return p1 | s1 | b1 | g1, p0 | s0 | b0 | g0

    def _complete_lines(self, board: Board, line: int) -> frozenset[int]:
        """Finished lines parallel to ``line`` that it could still turn into a copy of."""
        lo = 0 if line < self.n else self.n
        known, value, full = board.known, board.value, self.full
        mine_k, mine_v = known[line], value[line]
        return frozenset(value[i] for i in range(lo, lo + self.n)
                         if known[i] == full and i != line and not (value[i] ^ mine_v) & mine_k)

    def _check_distinct(self, board: Board, line: int) -> None:
        if self.unique_lines and board.known[line] == self.full:
            if self._complete_lines(board, line):  # a full line "compatible" with it is equal
                raise Contradiction(f"{line_name(self.n, line)} copies another line")

    def deduce(self, board: Board, line: int, level: Level) -> tuple[int, int]:
        """Everything the techniques up to ``level`` fix on one line (ones, zeros).

        What a line forces depends only on its own masks (and, for ``distinct``,
        on the finished parallel lines): ``closure`` memoises the answers.
        """
        if board.known[line] == self.full:
            if not self.completions(board, line)[0]:
                raise Contradiction(f"{line_name(self.n, line)} breaks a rule")
            self._check_distinct(board, line)
            return 0, 0
        empty = self.n - board.known[line].bit_count()
        if level >= Level.HARD:
            exclude = self._complete_lines(board, line) if self.unique_lines else frozenset()
            return self._enumerate(board, line, exclude)
        if level >= Level.MEDIUM and empty <= SHORT_LINE:
            return self._enumerate(board, line)
        f1, f0 = self._local(board, line)
        if f1 & f0:
            raise Contradiction(f"{line_name(self.n, line)} needs both symbols in one cell")
        return f1, f0

    # ----- closure: every deduction up to a level, in any order --------------
    def closure(self, board: Board, level: Level, target: Cell | None = None,
                start: Sequence[int] | None = None) -> bool:
        """Apply every technique up to ``level`` until nothing changes.

        Returns True when the board is full (or ``target`` got filled: the
        early exit that makes "may this given go?" cheap). The techniques are
        monotone, so the result does not depend on the order. ``start`` names
        the only lines that may have changed since the board was last closed
        (a trial touches one row and one column). Raises ``Contradiction``.
        """
        n = self.n
        # Plain ints from here: a closure is called hundreds of times a puzzle.
        tier = HARD if level > HARD else int(level)
        if start is None:
            dirty = self._every
        else:
            dirty = 0
            for line in start:
                dirty |= 1 << line
        while True:
            if self._propagate(board, tier, dirty, target) >= 0:
                return True
            if board.known.count(self.full) == 2 * n:  # every line full: the board is
                if self.unique_lines:
                    value = board.value
                    if len(set(value[:n])) < n or len(set(value[n:])) < n:  # a copy: say which
                        for line in range(2 * n):
                            self._check_distinct(board, line)
                return True
            if level <= HARD:
                return False
            hit = self._trial(board, first=target)
            if hit is None:
                return False
            (r, c), v = hit
            board.assign(r, c, v)
            if target is not None and (r, c) == target:
                return True
            dirty = 1 << r | 1 << (n + c)

    def _propagate(self, board: Board, tier: int, dirty: int, target: Cell | None) -> int:
        """Run ``deduce`` on the lines of ``dirty`` (a bit per line) until none is left.

        Returns -1 once the queue is empty, or, as soon as ``target`` is
        filled, what is left of the queue (a caller may go on to another
        target with it). The hot loop of every generator: answers come from
        the per-line memo and are written straight into the masks; the queue
        is a bit set, so a line's news queues every crossing line in one OR.
        Engines with distinct lines take ``_propagate_distinct``.
        """
        if not dirty:
            return -1
        if self.unique_lines:
            return self._propagate_distinct(board, tier, dirty, target)
        n, full = self.n, self.full
        known, value = board.known, board.value
        memos = board.memos.get(self._memo_keys[tier]) or self._line_memos(board, tier)
        cols_of, rows_of = self._crossings
        # At the hard tier a line's answer is everything its completions agree
        # on: after it is written, the line itself has nothing more to say.
        # Below it, its own news may let its rules say more: it goes back in.
        again = 0 if tier == HARD else -1
        if target is not None:
            t_line, t_bit = target[0], 1 << target[1]
        else:
            t_line, t_bit = 0, 0
        while dirty:
            low = dirty & -dirty
            dirty ^= low
            line = low.bit_length() - 1
            k = known[line]
            hit = memos[line].get(k << n | value[line])
            if hit == 0:  # the common case, kept short: a known answer with no news
                continue
            if hit is None:
                hit = self._line_news(board, line, tier, memos[line])  # a contradiction raises
                if not hit:
                    continue
            ones, zeros = hit >> n, hit & full
            known[line] = k | ones | zeros
            value[line] |= ones
            # Bit j of a row is column j (line n + j); bit j of a column is row j.
            if line < n:
                for cross in cols_of[ones]:
                    known[cross] |= low
                    value[cross] |= low
                for cross in cols_of[zeros]:
                    known[cross] |= low
                dirty |= (ones | zeros) << n | low & again
            else:
                bit = low >> n
                for cross in rows_of[ones]:
                    known[cross] |= bit
                    value[cross] |= bit
                for cross in rows_of[zeros]:
                    known[cross] |= bit
                dirty |= ones | zeros | low & again
            if t_bit and known[t_line] & t_bit:
                return dirty
        return -1

    def _line_memos(self, board: Board, tier: int) -> list[dict[int, int]]:
        """The board's memo of each line at ``tier``: one per (tier, signs of the line), shared
        by every board, so a line's answer is looked up by one small int (its cells)."""
        tables, n = self._tables, self.n
        if len(tables) > 50_000:  # Tango: many sign layouts; keep memory bounded over long builds
            tables.clear()
        eq, neq = board.eq, board.neq
        memos = board.memos[self._memo_keys[tier]] = [tables.setdefault((tier, eq[i], neq[i]), {})
                                                      for i in range(2 * n)]
        return memos

    def _line_table(self, tier: int, eq: int, neq: int) -> dict[int, int]:
        """The memo of a line with these signs at ``tier`` (``_line_memos``' entry for it)."""
        return self._tables.setdefault((tier, eq, neq), {})

    def _line_news(self, board: Board, line: int, tier: int, memo: dict[int, int]) -> int:
        """``deduce`` on a line the memo does not know yet, as ``ones << n | zeros``, stored there.

        Raises ``Contradiction`` (and stores nothing) on a broken rule. Not
        for a line whose answer depends on finished parallel lines (distinct).
        """
        n, full = self.n, self.full
        k, v = board.known[line], board.value[line]
        key = k << n | v
        if k == full:  # a finished line, first seen: check it breaks no rule
            self.deduce(board, line, tier)  # raises on a broken rule
            memo[key] = 0
            return 0
        hit = None
        if tier < HARD:
            # Below hard, most lines take the local rules.
            if self.max_run == 2 and (not tier or n - k.bit_count() > SHORT_LINE):
                hit = self._local_answer(k, v, board.eq[line], board.neq[line])
        else:
            # ``deduce`` at the hard tier, no copies to rule out: what the completions agree on.
            both = self.line_masks(k, v, board.eq[line], board.neq[line])
            a, o = both >> n, both & full
            if not a & ~o:  # else no completion: ``deduce`` raises it below
                hit = (a & ~k) << n | (~o & full & ~k)
        if hit is None:
            ones, zeros = self.deduce(board, line, tier)  # a contradiction raises, uncached
            hit = ones << n | zeros
        if len(memo) > 200_000:
            memo.clear()
        memo[key] = hit
        return hit

    def _propagate_distinct(self, board: Board, tier: int, dirty: int, target: Cell | None) -> int:
        """``_propagate`` with distinct lines: a finished line may rule out completions of the
        lines parallel to it (and must not copy one), so those get another look.

        Lines are taken from a stack here, the target's own lines first: with
        distinct lines that order visits fewer lines than the bit set's.
        """
        n, full = self.n, self.full
        lines = 2 * n
        known, value, eq, neq = board.known, board.value, board.eq, board.neq
        memos = board.memos.get(self._memo_keys[tier]) or self._line_memos(board, tier)
        cols_of, rows_of = self._crossings
        if dirty == self._every:
            # Every line, the lowest on top, and the target's column and row above them.
            queue = self._full_queues.get(target)
            if queue is None:
                queue = list(range(lines - 1, -1, -1))
                if target is not None:
                    for line in (n + target[1], target[0]):
                        queue.remove(line)
                        queue.append(line)
                self._full_queues[target] = queue
            queue = queue[:]
            flagged = [True] * lines
        else:
            queue = []
            while dirty:  # highest first: the lowest line comes off the stack first
                line = dirty.bit_length() - 1
                queue.append(line)
                dirty ^= 1 << line
            flagged = [False] * lines
            for line in queue:
                flagged[line] = True
        distinct = tier == HARD
        # The values of the finished rows and of the finished columns (a
        # finished line's value no longer changes), kept up to date below:
        # ``distinct`` compares against them, and a finished line is a copy
        # when its value is there twice.
        finished = ([value[i] for i in range(n) if known[i] == full],
                    [value[i] for i in range(n, lines) if known[i] == full])
        parallel = self._parallel
        requeue: list[int] = []
        # At the hard tier a line's answer is everything its completions agree
        # on (distinct lines included: lines finishing later queue it again):
        # after it is written, the line itself has nothing more to say.
        complete = tier == HARD
        if target is not None:
            t_line, t_bit = target[0], 1 << target[1]
        else:
            t_line, t_bit = 0, 0
        pop, push = queue.pop, queue.append
        while queue:
            line = pop()
            flagged[line] = False
            k = known[line]
            v = value[line]
            memo = memos[line]
            key = k << n | v
            hit = memo.get(key)
            mine = finished[line >= n]
            if k == full:  # a finished line: check it breaks no rule, and copies no other
                if hit is None:
                    self.deduce(board, line, tier)  # raises on a broken rule
                    memo[key] = 0
                elif mine.count(v) > 1:  # its own value and another's
                    self.deduce(board, line, tier)  # raises: a copy
                continue
            copied = None
            if distinct and mine:
                copy = -1
                for u in mine:
                    if not (u ^ v) & k:
                        if copy < 0:
                            copy = u
                        else:
                            copy = -2
                            break
                if copy >= 0:
                    # One finished line it could copy (the common case): the answer
                    # goes in the line's own memo, under an int key above every
                    # plain one (those are below 1 << 2n).
                    copied = memo
                    key |= (copy | 1 << n) << lines
                    hit = memo.get(key)
                elif copy == -2:
                    copied = self._copied
                    copies = [u for u in mine if not (u ^ v) & k]
                    key = (tier, eq[line], neq[line], key, frozenset(copies))
                    hit = copied.get(key)
            if hit is None:
                if copied is None:
                    hit = self._line_news(board, line, tier, memo)  # a contradiction raises
                else:
                    ones, zeros = self.deduce(board, line, tier)  # a contradiction raises, uncached
                    hit = ones << n | zeros
                    if len(copied) > 200_000:
                        copied.clear()
                    copied[key] = hit
            if not hit:
                continue
            ones, zeros = hit >> n, hit & full
            known[line] = k | ones | zeros
            value[line] = v | ones
            # Bit j of a row is column j (line n + j); bit j of a column is row j.
            # The lines are queued as assigning cell by cell would: a row
            # before the columns of its cells, a column after its first cell's row.
            row = line < n
            crossing, bit, side = (cols_of, 1 << line, 1) if row else (rows_of, 1 << (line - n), 0)
            queue_line = not complete and not flagged[line]
            if queue_line and row:
                flagged[line] = True
                push(line)
                queue_line = False
            for cross in crossing[ones]:
                value[cross] |= bit
            for cross in crossing[ones | zeros]:
                known[cross] |= bit
                if known[cross] == full:
                    finished[side].append(value[cross])
                    requeue.append(cross)
                if not flagged[cross]:
                    flagged[cross] = True
                    push(cross)
                if queue_line:
                    flagged[line] = True
                    push(line)
                    queue_line = False
            if known[line] == full:
                mine.append(value[line])
                requeue.append(line)
            # A finished line can rule out completions of its parallel lines
            # (distinct): they get another look, whichever line finished it.
            # Only a line the finished one still agrees with on its known
            # cells can have it as a copy to rule out (or be one): the
            # others would give the same answer as before.
            if requeue:
                for done in requeue:
                    done_v = value[done]
                    for other in parallel[done >= n]:
                        if not flagged[other] and not (value[other] ^ done_v) & known[other]:
                            flagged[other] = True
                            push(other)
                requeue.clear()
            if t_bit and known[t_line] & t_bit:
                left = 0
                for line in queue:
                    left |= 1 << line
                return left
        return -1

    def forced_by_own_lines(self, board: Board, cell: Cell, level: Level) -> bool:
        """Whether ``cell``'s row or column alone brings it back once it is emptied.

        ``closure(board, level, target=cell)`` looks at the cell's row first
        and then its column, and returns True as soon as either fills it: a
        True here is that verdict, reached without copying the board (the
        line's answer comes from the closure's memo, or is worked out and
        stored there as the closure would). False means "not known": ask the
        closure. Lines whose answer depends on other lines (distinct lines)
        are only looked up, never worked out here.
        """
        r, c = cell
        n = self.n
        itier = HARD if level > HARD else int(level)
        memos = board.memos.get(self._memo_keys[itier]) or self._line_memos(board, itier)
        known, value = board.known, board.value
        bit = 1 << c  # the row first
        k = known[r] & ~bit
        key = k << n | value[r] & ~bit
        hit = memos[r].get(key)
        if hit is None:
            hit = self._own_line(board, itier, r, k, key, memos[r])
        if hit and (hit >> n | hit) & bit:
            return True
        line, bit = n + c, 1 << r
        k = known[line] & ~bit
        key = k << n | value[line] & ~bit
        hit = memos[line].get(key)
        if hit is None:
            hit = self._own_line(board, itier, line, k, key, memos[line])
        return bool(hit and (hit >> n | hit) & bit)

    def _own_line(self, board: Board, itier: int, line: int, k: int, key: int, memo: dict[int, int]) -> int | None:
        """``forced_by_own_lines``' memo miss: the line's answer with the cell emptied (cells
        ``key``, known mask ``k``), stored in its memo; None where it is not worked out here."""
        if self.unique_lines and itier == HARD:
            return None  # it depends on the other lines
        hit = self._line_answer(itier, k, key & self.full, board.eq[line], board.neq[line])
        if hit is not None:
            memo[key] = hit
        return hit

    def _line_answer(self, itier: int, k: int, v: int, eq: int, neq: int) -> int | None:
        """``deduce`` at a tier on a line that is not full, given as masks: ``ones << n | zeros``.

        None where a rule is broken (``deduce`` would raise). Without the
        distinct-lines rule, which looks at other lines.
        """
        n, full = self.n, self.full
        unknown = full & ~k
        if itier >= HARD or (itier == 1 and unknown.bit_count() <= SHORT_LINE):
            both = self.line_masks(k, v, eq, neq)
            a, o = both >> n, both & full
            return None if a & ~o else (a & unknown) << n | (~o & unknown)
        if self.max_run == 2:
            return self._local_answer(k, v, eq, neq)
        board = Board(n)
        board.known[0], board.value[0], board.eq[0], board.neq[0] = k, v, eq, neq
        try:
            ones, zeros = self._local(board, 0)
        except Contradiction:
            return None
        return None if ones & zeros else ones << n | zeros

    def settles_ends(self, board: Board, level: Level, edge: Edge) -> bool:
        """Whether ``board`` (a solvable one with ``edge`` taken away) is still solved at ``level``.

        The same verdict as ``closure(board, level)``, reached sooner: once
        both cells of the sign are filled, the sign can tell no technique
        anything more, so the closure without it is a closure with it, which
        fills the board. ``board`` is changed (as by ``closure``).

        When the memo already knows that each end still empty is forced by
        its own row or column, the answer is True without a closure: the
        first closure then fills (or, its target already known, reaches news
        at) that end, and the second finds the other one forced on a board
        that knows more (every technique keeps forcing a cell as the
        knowledge around it grows).
        """
        a_known, b_known = board.get(*edge.a) >= 0, board.get(*edge.b) >= 0
        if not (a_known and b_known) and \
                (a_known or self.forced_by_own_lines(board, edge.a, level)) and \
                (b_known or self.forced_by_own_lines(board, edge.b, level)):
            return True
        # ``closure(target=a)``, then on to ``b`` with the same queue: the
        # lines the first one left unvisited are exactly what a second
        # closure would have to redo (the fixpoint is the same either way).
        tier = HARD if level > HARD else int(level)
        left = self._propagate(board, tier, (1 << 2 * self.n) - 1, edge.a)
        if left < 0:
            return not board.empty_count()
        return board.get(*edge.b) >= 0 or self._propagate(board, tier, left, edge.b) >= 0 \
            or not board.empty_count()

    def trials_solve(self, board: Board, cells: Sequence[Cell], solution: Board | None = None,
                     closed: bool = False) -> bool:
        """Whether the hard tier plus trials on ``cells`` only fills the board.

        A cheap, sufficient test that a board is expert-solvable (the full
        test tries every empty cell): the generator uses it to let a sign go.
        ``solution``, when the caller knows the board's (the generator does),
        spares the trial of each cell's right symbol, which never fails.
        ``closed`` says ``board`` is already the hard tier's fixpoint (as a
        failed ``settles_ends`` leaves it), so the first closure has nothing to do.
        """
        state = board.copy()
        start = () if closed else None
        try:
            while not self.closure(state, Level.HARD, start=start):
                hit = self._trial(state, cells=cells, solution=solution)
                if hit is None:
                    return False
                (r, c), v = hit
                state.assign(r, c, v)
                start = (r, self.n + c)  # the rest was closed: only this cell's lines have news
            return True
        except Contradiction:
            return False

    def _trial(self, board: Board, first: Cell | None = None,
               cells: Sequence[Cell] | None = None, solution: Board | None = None) -> tuple[Cell, int] | None:
        """The first empty cell (row-major, or of ``cells``) one of whose symbols fails by the hard tier.

        ``first`` is tried before the others: when the closure only asks
        whether one cell can be reached, trying it first often answers at once.
        With the board's ``solution`` known, only each cell's wrong symbol is
        tried: the right one agrees with a full solution, so no sound
        technique can fail on it (the same answer, half the closures).
        """
        n = self.n
        if cells is None:
            order = [(r, c) for r in range(n) for c in _bits(self.full & ~board.known[r])]
        else:
            order = [(r, c) for r, c in cells if board.get(r, c) < 0]
        if first is not None and first in order:
            order.remove(first)
            order.insert(0, first)
        for r, c in order:
            for v in ((1 - solution.get(r, c),) if solution is not None else (0, 1)):
                trial = board.copy()
                trial.assign(r, c, v)
                try:
                    self.closure(trial, Level.HARD, start=(r, n + c))
                except Contradiction:
                    return (r, c), 1 - v
        return None

    # ----- the ladder: easiest technique first, restart after progress -------
    def _find(self, board: Board, technique: str, explain: bool = True, clean: int = 0) -> LineFind | None:
        """The first line on which ``technique`` fixes cells; ``why`` only when ``explain``.

        Lines whose bit is set in ``clean`` are known to give nothing (the
        ladder saw them unchanged since): skipping them finds the same line.
        """
        if technique not in LINE_TECHNIQUES:
            return None
        n, full = self.n, self.full
        todo = ~clean & ((1 << 2 * n) - 1)  # the lines not known to give nothing, lowest first
        if technique != "distinct":
            line, hit = self._first_news(board, technique, self._found.setdefault(technique, {}), todo)
            if not hit:
                return None
            ones, zeros = hit >> n, hit & full
            why = self._why(board, technique, line, ones, zeros) if explain else ""
            return LineFind(technique, line, ones, zeros, why)
        while todo:
            low = todo & -todo
            todo ^= low
            line = low.bit_length() - 1
            if board.known[line] == full:
                continue
            done = self._complete_lines(board, line)
            if not done:
                continue
            ones, zeros = self._enumerate(board, line, done)
            if ones | zeros:
                why = self._why(board, technique, line, ones, zeros) if explain else ""
                return LineFind(technique, line, ones, zeros, why)
        return None

    def _first_news(self, board: Board, technique: str, memo: dict, todo: int) -> tuple[int, int]:
        """(line, ``ones << n | zeros``) of the first line of ``todo`` on which a single-line
        technique fixes cells, or (-1, 0). Its answers are memoised per line state.

        Pairs, sandwiches and balance never look at signs: their memo is keyed
        by the cells alone, so a line state learnt under one puzzle's signs
        serves every other. Whole-line answers the closure's hard-tier memo
        already holds for the line (its cells and signs) are taken from there.
        """
        n, full = self.n, self.full
        known, value, eq, neq = board.known, board.value, board.eq, board.neq
        n2, n3 = 2 * n, 3 * n
        signed = technique not in SIGN_FREE
        whole = technique in WHOLE_LINE
        while todo:
            low = todo & -todo
            todo ^= low
            line = low.bit_length() - 1
            k = known[line]
            if k == full:
                continue
            key = k | value[line] << n
            if signed:
                key |= eq[line] << n2 | neq[line] << n3
            hit = memo.get(key)
            if hit is None:
                if whole:
                    # What the completions agree on: the closure's hard-tier answer
                    # (never a contradiction), when its memo has met this line.
                    table = self._tables.get((HARD, eq[line], neq[line]))
                    hit = table.get(k << n | value[line]) if table is not None else None
                    if hit is not None and (technique == "line") != (n - k.bit_count() <= SHORT_LINE):
                        hit = 0
                if hit is None:
                    hit = self._line_finds(board, line, technique, key)  # a contradiction raises, uncached
                if len(memo) > 400_000:
                    memo.clear()
                memo[key] = hit
            if hit:
                return line, hit
        return -1, 0

    def _line_finds(self, board: Board, line: int, technique: str, key: int) -> int:
        """``ones << n | zeros`` one single-line technique fixes on ``line`` (memo ``key``).

        Pairs and sandwiches come from one look at the runs: the other's
        answer goes into its memo too (both are keyed by the cells alone).
        """
        n = self.n
        if technique in ("pair", "sandwich"):
            p1, p0, s1, s0 = self._runs(board, line)
            pair, sandwich = p1 << n | p0, s1 << n | s0
            other = self._found.setdefault("sandwich" if technique == "pair" else "pair", {})
            if len(other) > 400_000:
                other.clear()
            other[key] = sandwich if technique == "pair" else pair
            return pair if technique == "pair" else sandwich
        if technique == "balance":
            ones, zeros = self._balance(board, line)
        elif technique == "sign":
            ones, zeros = self._signs(board, line)
        elif (technique == "line") != (n - board.known[line].bit_count() <= SHORT_LINE):
            return 0
        else:
            ones, zeros = self._enumerate(board, line)
        return ones << n | zeros

    # ----- explanations: built only for ``explain``, never in ``closure`` -----
    def _sym(self, v: int, count: int = 1) -> str:
        """``a sun`` / ``suns`` for named symbols, the bare digit (``0``) for Takuzu."""
        name = self.names[v]
        if name in _SYMBOL_WORDS:
            return _SYMBOL_WORDS[name][0 if count == 1 or not name.isalpha() else 1]
        if not name.isalpha():
            return name
        return f"a {name}" if count == 1 else f"{name}s"

    def _plural(self, v: int) -> str:
        name = self.names[v]
        return _SYMBOL_WORDS[name][1] if name in _SYMBOL_WORDS else f"{name}s"

    def _counted(self, v: int, k: int) -> str:
        """``three suns``, ``four 1s``: ``k`` (two or more) of symbol ``v``."""
        name = self.names[v]
        if name not in _SYMBOL_WORDS:
            return f"{_count(k)} {name}s"
        return _SYMBOL_WORDS[name][2](k, _count(k))

    def _at(self, line: int, js: Sequence[int]) -> str:
        """Positions along a line: ``columns 2 and 4`` in a row, ``rows 1 and 3`` in a column."""
        nums = [str(j + 1) for j in sorted(js)]
        if line < self.n:
            return Plural("column {at}", "columns {at}", len(nums), at=join_and(nums))
        return Plural("row {at}", "rows {at}", len(nums), at=join_and(nums))

    def _forced(self, ones: int, zeros: int) -> list[tuple[int, int]]:
        """(position, symbol) of every cell a finding fixes, in line order."""
        return sorted([(j, 1) for j in _bits(ones)] + [(j, 0) for j in _bits(zeros)])

    def _fills(self, line: int, cells: Sequence[tuple[int, int]]) -> str:
        """``column 1 is a moon and columns 4 and 5 are suns``."""
        parts = []
        for v in sorted((1, 0), key=lambda v: min((j for j, x in cells if x == v), default=self.n)):
            js = [j for j, x in cells if x == v]
            if js:
                parts.append(Plural("{at} is {sym}", "{at} are {sym}", len(js),
                                    at=self._at(line, js), sym=self._sym(v, len(js))))
        return join_and(parts)

    def _why(self, board: Board, technique: str, line: int, ones: int, zeros: int) -> str:
        """A player's explanation of one finding, naming the cells and symbols involved."""
        n = self.n
        where = _line_text(n, line)
        cells = self._forced(ones, zeros)
        known, value = board.known[line], board.value[line]
        if technique in ("pair", "sandwich"):
            groups: dict[tuple[int, ...], list[tuple[int, int]]] = {}
            for j, v in cells:
                for w in self.windows:
                    rest = w & ~(1 << j)
                    at_end = j in (_bits(w)[0], _bits(w)[-1])
                    if (w >> j) & 1 and at_end == (technique == "pair") and rest & known == rest and (
                            (value & rest == rest) if v == 0 else not value & rest):
                        groups.setdefault(tuple(_bits(rest)), []).append((j, v))
                        break
            parts = []
            for src, got in groups.items():
                other = 1 - got[0][1]
                k = len(src)
                at, fills = self._at(line, src), self._fills(line, got)
                if technique == "pair":
                    parts.append(Text(N_("{at} hold {syms} side by side, so {fills}, or there would be "
                                         "{num} in a row"), at=at, syms=self._counted(other, k), fills=fills,
                                      num=_count(k + 1)))
                elif k == 2:
                    parts.append(Text(N_("{at} hold {syms}, so {fills}: the same symbol between them would "
                                         "make three in a row"), at=at, syms=self._plural(other), fills=fills))
                else:
                    parts.append(Text(N_("{at} hold {syms}, so {fills}, or there would be {run} in a row"),
                                      at=at, syms=self._plural(other), fills=fills,
                                      run=self._counted(other, k + 1)))
            return Text(N_("In {line}, {parts}."), line=where, parts=_semis(parts))
        if technique == "balance":
            v = 1 if zeros else 0  # the symbol the line already holds half of
            have = [j for j in _bits(known) if ((value >> j) & 1) == v]
            return Text(N_("{line} already has {syms} ({at}), half of its {n} cells, so the rest are "
                           "{others}: {cells}."), line=_line_text(n, line, True),
                        syms=self._counted(v, self.half), at=self._at(line, have), n=n,
                        others=self._plural(1 - v), cells=self._at(line, [j for j, _ in cells]))
        if technique == "sign":
            parts = []
            for j, v in cells:
                for i, nb in ((j - 1, j - 1), (j, j + 1)):  # sign bit i joins cells i and i+1
                    if not 0 <= nb < n or not (known >> nb) & 1:
                        continue
                    if (board.eq[line] >> i) & 1:
                        sign, rule = "=", N_("the same symbol")
                    elif (board.neq[line] >> i) & 1:
                        sign, rule = "×", N_("the other symbol")
                    else:
                        continue
                    src = (value >> nb) & 1
                    parts.append(Text(N_("{at} is {sym} and '{sign}' joins it to {other}, which takes "
                                         "{rule}: {result}"), at=self._at(line, [nb]), sym=self._sym(src),
                                      sign=sign, other=self._at(line, [j]), rule=rule, result=self._sym(v)))
                    break
            return Text(N_("In {line}, {parts}."), line=where, parts=_semis(parts))
        if technique == "trial":
            return ""
        blanks = [j for j in _bits(self.full & ~known)]
        signed = bool(board.eq[line] | board.neq[line])
        if technique == "distinct":
            lo = 0 if line < n else n
            twins = [i for i in range(lo, lo + n) if i != line and board.known[i] == self.full
                     and not (board.value[i] ^ value) & known]
            cands = self.completions(board, line)[0]
            left = [p for p in cands if p not in {board.value[i] for i in twins}]
            copies = join_and([_line_text(n, i) for i in twins])
            return Plural("{line} may not be a copy of the finished {copies}. {ways}, and only {num} is "
                          "not a copy: {fills}.",
                          "{line} may not be a copy of the finished {copies}. {ways}, and only {num} are "
                          "not a copy: {fills}.", len(left), line=_line_text(n, line, True), copies=copies,
                          ways=self._ways(len(cands), signed, Text(N_("its empty {at}"), at=self._at(line, blanks))),
                          num=_count(len(left)), fills=self._fills(line, cells))
        cands = self.completions(board, line)[0]
        values = dict(line=_line_text(n, line, True), num=_count(len(blanks)), at=self._at(line, blanks),
                      ways=self._ways(len(cands), signed, N_("them")), fills=self._fills(line, cells))
        if len(cands) == 1:
            return Plural("{line} has {num} empty cells ({at}). {ways}: {fills}.",
                          "{line} has {num} empty cells ({at}). {ways}: {fills}.", len(blanks), **values)
        return Plural("{line} has {num} empty cells ({at}). {ways}, and all of them agree: {fills}.",
                      "{line} has {num} empty cells ({at}). {ways}, and all of them agree: {fills}.",
                      len(blanks), **values)

    def _ways(self, k: int, signed: bool, what: str) -> str:
        """``There are only two ways to fill WHAT without three in a row and with three of each symbol``."""
        rules = Text(N_("without {run} in a row, with {half} of each symbol and keeping its signs") if signed
                     else N_("without {run} in a row and with {half} of each symbol"),
                     run=_count(self.max_run + 1), half=_count(self.half))
        return Plural("There is only {num} way to fill {what} {rules}",
                      "There are only {num} ways to fill {what} {rules}", k, num=_count(k), what=what,
                      rules=rules)

    def _trial_why(self, board: Board, cell: Cell, v: int) -> str:
        """Why assuming the other symbol in ``cell`` fails (re-runs that one trial)."""
        r, c = cell
        trial = board.copy()
        trial.assign(r, c, 1 - v)
        clash = N_("the grid breaks a rule")
        try:
            self._stack_closure(trial, (r, self.n + c))
        except Contradiction as exc:
            clash = self._clash(trial) or str(exc)
        return Text(N_("Suppose {cell} were {sym}. Following that with the techniques above leads to a "
                       "contradiction ({clash}), so it is {result}."),
                    cell=Text(N_("row {row}, column {column}"), row=r + 1, column=c + 1), sym=self._sym(1 - v),
                    clash=clash, result=self._sym(v))

    def _stack_closure(self, board: Board, start: Sequence[int]) -> None:
        """``closure(board, HARD, start=start)`` through ``deduce``, lines taken from a stack.

        Where a contradiction surfaces (and so the rule ``_clash`` names)
        depends on the order lines are visited in. Explanations keep this one
        fixed order (the one the closure had before its queue became a bit
        set), so a walkthrough reads the same whatever the fast closure does.
        """
        n, full, unique = self.n, self.full, self.unique_lines
        dirty = list(start)
        flagged = [False] * (2 * n)
        for line in dirty:
            flagged[line] = True
        while dirty:
            line = dirty.pop()
            flagged[line] = False
            ones, zeros = self.deduce(board, line, Level.HARD)  # raises on a broken rule
            if not ones | zeros:
                continue
            done = []  # lines this step finished, in the order they filled up
            for v, mask in ((1, ones), (0, zeros)):
                for j in _bits(mask):
                    r, c = line_cell(n, line, j)
                    board.assign(r, c, v)
                    cross = n + c if line < n else r
                    if unique and board.known[cross] == full:
                        done.append(cross)
                    if not flagged[cross]:
                        flagged[cross] = True
                        dirty.append(cross)
            if unique:
                if board.known[line] == full:
                    done.append(line)
                for line_done in done:  # distinct: parallel lines it could be a copy of look again
                    lo = 0 if line_done < n else n
                    for other in range(lo, lo + n):
                        if not flagged[other] and \
                                not (board.value[other] ^ board.value[line_done]) & board.known[other]:
                            flagged[other] = True
                            dirty.append(other)
        if unique and board.known.count(full) == 2 * n:
            for line in range(2 * n):
                self._check_distinct(board, line)

    def _clash(self, board: Board) -> str:
        """The first broken rule on a board that reached a contradiction, in words ('' if none)."""
        n, k = self.n, self.max_run
        for line in range(2 * n):
            known, value = board.known[line], board.value[line]
            where = _line_text(n, line)
            for v in (1, 0):
                have = (value if v else known & ~value).bit_count()
                if have > self.half:
                    return Text(N_("{line} would hold {syms}"), line=where, syms=self._counted(v, have))
                mine = value if v else known & ~value
                for w in self.windows:
                    if mine & w == w:
                        return Text(N_("{line} would hold {syms} in a row"), line=where,
                                    syms=self._counted(v, k + 1))
            for mask, same in ((board.eq[line], True), (board.neq[line], False)):
                for j in _bits(mask):
                    both = 3 << j
                    if known & both == both and (((value >> j) ^ (value >> (j + 1))) & 1 == 0) != same:
                        a, b = line_cell(n, line, j), line_cell(n, line, j + 1)
                        return Text(N_("the '{sign}' between {first} and {second} would be broken"),
                                    sign="=" if same else "×",
                                    first=Text(N_("row {row}, column {column}"), row=a[0] + 1, column=a[1] + 1),
                                    second=Text(N_("row {row}, column {column}"), row=b[0] + 1, column=b[1] + 1))
        for line in range(2 * n):
            if not self.completions(board, line)[0]:
                return Text(N_("{line} could no longer be completed"), line=_line_text(n, line))
        if self.unique_lines:
            for lo in (0, n):
                for i in range(lo, lo + n):
                    for j in range(i + 1, lo + n):
                        if board.known[i] == board.known[j] == self.full and board.value[i] == board.value[j]:
                            return Text(N_("{first} and {second} would be the same"), first=_line_text(n, i),
                                        second=_line_text(n, j))
            for line in range(2 * n):
                done = self._complete_lines(board, line)
                if done and not [p for p in self.completions(board, line)[0] if p not in done]:
                    return Text(N_("{line} could only be completed as a copy of a finished line"),
                                line=_line_text(n, line))
        return ""

    def ladder(self, board: Board, techniques: Sequence[str],
               explain: bool = True, solution: Board | None = None) -> tuple[list[Step], bool]:
        """Solve like a person: always the easiest technique that makes progress.

        Returns the steps and whether the board got filled. ``board`` is
        filled in place. The steps' cells and reasons are only written when
        ``explain`` (grading needs just the techniques). Raises
        ``Contradiction`` for a broken position. ``solution``, a full grid
        the givens and signs agree with (the generator's), only spares trials
        of right symbols, which never fail: the steps are the same.
        """
        order = _ladder_order(tuple(techniques))
        steps: list[Step] = []
        n = self.n
        self._check_lines(board)  # surface contradictions in the givens
        # Per technique, the lines it was seen to fix nothing on since they last
        # changed (``distinct`` also looks at other lines: never cached). A step
        # changes a few lines only, so the scans after it skip the rest.
        clean = [0] * len(order)
        every = (1 << 2 * n) - 1
        full = self.full
        known = board.known
        found_memo = self._found
        plain = [t in LINE_TECHNIQUES and t != "distinct" for t in order]  # memoised per line state
        memos = [found_memo.setdefault(t, {}) if p else None for t, p in zip(order, plain)]
        # Grading reads only the techniques: one shared (immutable) step each.
        bare = {t: Step(t, (), "") for t in order}
        cols_of, rows_of = self._crossings
        empty = n * n - sum(map(int.bit_count, known[:n]))
        while empty:
            for i, technique in enumerate(order):
                if plain[i]:
                    pass
                elif technique == "trial":
                    hit = self._trial(board, solution=solution)
                    if hit is None:
                        continue
                    (r, c), v = hit
                    why = self._trial_why(board, (r, c), v) if explain else ""
                    board.assign(r, c, v)
                    empty -= 1
                    steps.append(Step("trial", (((r, c), str(v)),), why))
                    changed = 1 << r | 1 << (n + c)
                    clean = [m & ~changed for m in clean]
                    break
                if not plain[i]:
                    found = self._find(board, technique, explain, 0)
                    if found is None:
                        continue
                    line, ones, zeros, why = found.line, found.ones, found.zeros, found.why
                else:
                    todo = ~clean[i] & every
                    if not todo:
                        continue
                    line, hit = self._first_news(board, technique, memos[i], todo)
                    if not hit:
                        clean[i] = every
                        continue
                    clean[i] |= (1 << line) - 1
                    ones, zeros = hit >> n, hit & full
                    why = self._why(board, technique, line, ones, zeros) if explain else ""
                changed = 1 << line
                if explain:
                    cells = []
                    for v, mask in ((1, ones), (0, zeros)):
                        sym = str(v)
                        while mask:
                            low = mask & -mask
                            mask ^= low
                            cells.append((line_cell(n, line, low.bit_length() - 1), sym))
                    cells.sort()
                    for (r, c), v in cells:
                        board.assign(r, c, int(v))
                        changed |= 1 << r | 1 << (n + c)
                    cells = tuple(cells)
                else:
                    # Grading counts techniques only: the cells go in unlisted,
                    # written into the masks as the closure does.
                    value = board.value
                    known[line] |= ones | zeros
                    value[line] |= ones
                    if line < n:
                        crossing, bit = cols_of, 1 << line
                        changed |= (ones | zeros) << n
                    else:
                        crossing, bit = rows_of, 1 << (line - n)
                        changed |= ones | zeros
                    for cross in crossing[ones]:
                        known[cross] |= bit
                        value[cross] |= bit
                    for cross in crossing[zeros]:
                        known[cross] |= bit
                    cells = ()
                empty -= (ones | zeros).bit_count()
                clean = [m & ~changed for m in clean]
                steps.append(Step(technique, cells, why) if explain else bare[technique])
                break
            else:
                return steps, False
        self._check_lines(board)  # full lines: checks every rule
        return steps, True

    def _check_lines(self, board: Board) -> None:
        """Raise ``Contradiction`` where ``deduce(board, line, EASY)`` would, for every line.

        A line state the closure's memo holds (at any tier) passed ``deduce``
        before (a contradiction is never stored): no technique found a rule
        broken on it, so the easy tier raises nothing either. Whether a
        finished line copies another depends on the other lines: always checked.
        """
        n, full, tables = self.n, self.full, self._tables
        known, value, eq, neq = board.known, board.value, board.eq, board.neq
        for line in range(2 * n):
            key = known[line] << n | value[line]
            for tier in (0, 1, HARD):
                memo = tables.get((tier, eq[line], neq[line]))
                if memo is not None and key in memo:
                    if self.unique_lines and known[line] == full:
                        self._check_distinct(board, line)
                    break
            else:
                self.deduce(board, line, Level.EASY)

    # ----- exact counting ------------------------------------------------------
    def proves_unique(self, rows: Sequence[str], edges: Iterable[Edge], solution: Sequence[str]) -> bool:
        """Whether SAT finds ``solution`` and no other solution for these givens and signs.

        The generator's proof for every puzzle it returns. One incremental
        solver per engine holds the rules; givens and signs are assumptions,
        so a call costs one solve instead of building the whole formula: that
        ``solution`` keeps every rule, given and sign is checked directly, and
        the solver proves that nothing else does. The answer is exact,
        whatever the solver learned from earlier calls.
        """
        edges = list(edges)
        if not self._is_solution(rows, edges, solution):
            return False
        if self._sat is None or self._sat_calls >= SAT_RENEW:
            self._new_sat()
        self._sat_calls += 1
        n, solver = self.n, self._sat
        assume = [_var(n, r, c) if ch == "1" else -_var(n, r, c)
                  for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != EMPTY]
        for edge in edges:
            assume.append(self._edge_selector(edge))
        self._sat_top += 1
        act = self._sat_top
        solver.add_clause([-act] + [-_var(n, r, c) if ch == "1" else _var(n, r, c)
                                    for r, row in enumerate(solution) for c, ch in enumerate(row)])
        other = solver.solve(assumptions=assume + [act])
        solver.add_clause([-act])  # retire this call's blocking clause
        return not other

    def _is_solution(self, rows: Sequence[str], edges: Sequence[Edge], solution: Sequence[str]) -> bool:
        """Whether ``solution`` is a full grid that keeps every rule, agrees with the givens and keeps the signs."""
        n = self.n
        if len(solution) != n or len(rows) != n or any(len(line) != n or set(line) - {"0", "1"} for line in solution):
            return False
        valid = self._valid_lines()
        cols = ["".join(line[c] for line in solution) for c in range(n)]
        for lines in (solution, cols):
            if not all(int(line[::-1], 2) in valid for line in lines):
                return False
            if self.unique_lines and len(set(lines)) != n:
                return False
        for given, line in zip(rows, solution):
            if any(g != EMPTY and g != ch for g, ch in zip(given, line)):
                return False
        for edge in edges:
            same = solution[edge.a[0]][edge.a[1]] == solution[edge.b[0]][edge.b[1]]
            if same != (edge.sign == "="):
                return False
        return True

    def _valid_lines(self) -> frozenset[int]:
        valid = self.__dict__.get("_valid")
        if valid is None:
            valid = self._valid = frozenset(line_patterns(self.n, self.max_run))
        return valid

    def _new_sat(self) -> None:
        if self._sat is not None:
            self._sat.delete()
        base, top = _base_cnf(self.n, self.max_run, self.unique_lines)
        self._sat = Solver(name=SOLVER_NAME, bootstrap_with=[list(c) for c in base])
        self._sat_top = top
        self._sat_calls = 0
        self._selectors: dict[tuple[Cell, Cell, str], int] = {}

    def _edge_selector(self, edge: Edge) -> int:
        """A variable that, assumed true, imposes ``edge``'s sign (clauses added once per solver)."""
        key = (edge.a, edge.b, edge.sign)
        sel = self._selectors.get(key)
        if sel is None:
            self._sat_top += 1
            sel = self._selectors[key] = self._sat_top
            a, b = _var(self.n, *edge.a), _var(self.n, *edge.b)
            if edge.sign == "=":
                self._sat.append_formula([[-sel, a, -b], [-sel, -a, b]])
            else:
                self._sat.append_formula([[-sel, a, b], [-sel, -a, -b]])
        return sel

    def sat_solutions(self, rows: Sequence[str], edges: Iterable[Edge] = (),
                      limit: int = 2) -> list[tuple[str, ...]]:
        """Up to ``limit`` solutions by SAT (no technique involved)."""
        n = self.n
        base, top = _base_cnf(n, self.max_run, self.unique_lines)
        clauses = list(base)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch != EMPTY:
                    clauses.append([_var(n, r, c) if ch == "1" else -_var(n, r, c)])
        for edge in edges:
            a, b = _var(n, *edge.a), _var(n, *edge.b)
            if edge.sign == "=":
                clauses += [[a, -b], [-a, b]]
            else:
                clauses += [[a, b], [-a, -b]]
        watch = list(range(1, n * n + 1))
        out = []
        for model in models(clauses, watch, limit):
            out.append(tuple("".join("1" if _var(n, r, c) in model else "0" for c in range(n))
                             for r in range(n)))
        return out


@lru_cache(maxsize=None)
def _ladder_order(techniques: tuple[str, ...]) -> tuple[str, ...]:
    """Techniques easiest first, ties in ``TECHNIQUE_LEVEL``'s order."""
    return tuple(sorted(techniques, key=lambda t: (TECHNIQUE_LEVEL[t], list(TECHNIQUE_LEVEL).index(t))))


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


def random_solution(engine: BinaryEngine, rng, budget: int = 2_000) -> Board:
    """A random full grid, every valid grid equally likely when ``grid_table`` lists
    them; otherwise by search: fill a random empty cell with a random symbol and
    propagate with every technique up to ``hard`` (Norvig-style search that
    copies small states instead of undoing). Propagation makes dead ends rare,
    so the bounded search almost never backtracks."""
    n = engine.n
    if len(line_patterns(n, engine.max_run)) <= TABLE_PATTERNS:
        table = grid_table(n, engine.max_run, engine.unique_lines)
        rows = table[rng.randrange(len(table))]
        board = Board(n)
        for r, row in enumerate(rows):
            board.known[r] = board.known[n + r] = engine.full
            board.value[r] = row
            board.value[n + r] = sum(((rows[i] >> r) & 1) << i for i in range(n))
        return board
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
        row = holes[r]
        for _ in range(pick):
            row &= row - 1  # drop the lowest empty cell
        c = (row & -row).bit_length() - 1
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


def _var(n: int, r: int, c: int) -> int:
    return r * n + c + 1


@lru_cache(maxsize=64)
def _base_cnf(n: int, max_run: int, unique: bool) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The rule clauses of an empty grid (runs, balance, distinct lines)."""
    pool = IDPool(start_from=n * n + 1)
    clauses: list[tuple[int, ...]] = []
    lines = [[_var(n, r, c) for c in range(n)] for r in range(n)]
    lines += [[_var(n, r, c) for r in range(n)] for c in range(n)]
    for cells in lines:
        for s in range(n - max_run):
            window = cells[s: s + max_run + 1]
            clauses.append(tuple(window))
            clauses.append(tuple(-v for v in window))
        card = CardEnc.equals(lits=cells, bound=n // 2, vpool=pool, encoding=EncType.seqcounter)
        clauses.extend(tuple(c) for c in card.clauses)
    if unique:
        for group in (lines[:n], lines[n:]):
            for i in range(n):
                for k in range(i + 1, n):
                    diffs = []
                    for a, b in zip(group[i], group[k]):
                        d = pool.id(("diff", a, b))
                        clauses.append((-d, a, b))
                        clauses.append((-d, -a, -b))
                        diffs.append(d)
                    clauses.append(tuple(diffs))
    return tuple(clauses), pool.top
