"""The human-technique ladder for KenKen (Calcudoku) grids.

State: one candidate bitmask per cell (bit d-1 = digit d), a "placed" flag
per cell, and for every cage the list of its assignments still compatible
with the candidates (``live``). Techniques only ever *eliminate* candidates;
the driver then places every cell the technique left with one candidate and
credits it to that technique. Placing a digit removes it from the cell's row
and column (Norvig's assign/eliminate); a cell emptied that way, or a cage
with no assignment left, is a contradiction. States are small, so a trial
copies one instead of undoing.

Tiers (the grade's level is the hardest tier used):

- easy: ``single_cage`` (a one-cell cage gives its digit), ``naked_single``
  (every other digit is already in the row or column), ``cage_last`` (the
  last open cell of a cage is fixed by the others), ``cage_static`` (the
  cage's arithmetic alone allows only some digits, e.g. 3÷ is 1 and 3 or
  2 and 6), ``cage_fix`` (of the cage's combinations that fit the rows and
  columns, all give a cell the same digit).
- medium: ``cage_combos`` (the cage's combinations are checked against what
  rows and columns still allow, removing digits from cells they don't fix),
  ``hidden_single`` (a digit fits only one
  cell of a row or column).
- hard: ``cage_line`` (every combination of a cage puts a digit in one row
  or column, so the rest of that line can't have it), ``naked_pair`` /
  ``naked_triple``, ``hidden_pair`` / ``hidden_triple``, ``line_sum`` (a line
  adds up to N(N+1)/2, so the cages lying inside it fix what its other
  cells add up to).
- expert: ``trial`` (assume one candidate, run the easy..hard tiers, reach a
  contradiction, remove it). Never nested.

Every technique is sound, so a grid the ladder fills completely is the only
solution of the puzzle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_, Plural, Text, join_commas
from bookgen.core.score import work_score
from bookgen.core.types import Cell
from bookgen.core.variant import Step
from bookgen.solve.houses import (
    Contradiction, Run, and_list, cell_name, cell_text, describe_cuts, geometry, trial,
)
from bookgen.solve.latin import (
    OP_GLYPHS, bit, cage_assignments, digits_of, full_mask, hidden_subsets, naked_subsets, normal_shape,
    positions,
)
from bookgen.solve.latin_sat import Kept, LatinSolver

TECHNIQUE_LEVEL: dict[str, Level] = {
    "single_cage": Level.EASY,
    "naked_single": Level.EASY,
    "cage_last": Level.EASY,
    "cage_static": Level.EASY,
    "cage_fix": Level.EASY,
    "cage_combos": Level.MEDIUM,
    "hidden_single": Level.MEDIUM,
    "cage_line": Level.HARD,
    "naked_pair": Level.HARD,
    "hidden_pair": Level.HARD,
    "naked_triple": Level.HARD,
    "hidden_triple": Level.HARD,
    "line_sum": Level.HARD,
    "trial": Level.EXPERT,
}
# Effort of one use, for the score inside a level.
TECHNIQUE_WEIGHT: dict[str, float] = {
    "single_cage": 0.2, "naked_single": 0.5, "cage_last": 0.7, "cage_static": 1.0,
    "cage_fix": 1.5, "cage_combos": 2.0, "hidden_single": 2.0,
    "cage_line": 4.0, "naked_pair": 4.0, "hidden_pair": 5.0, "naked_triple": 6.0,
    "hidden_triple": 7.0, "line_sum": 5.0, "trial": 12.0,
}
# Largest set of unknown cells the line-sum rule adds up in one go.
LINE_SUM_CELLS = 3
# The most different sums the cages inside a line may leave open for line_sum.
LINE_SUM_OPTIONS = 12
@dataclass
class Board:
    """What never changes while solving: geometry, cages and their assignments."""

    n: int
    cells: list[tuple[int, ...]]          # per cage: cell indices
    assigns: list[tuple[tuple[int, ...], ...]]  # per cage: admissible digit tuples
    labels: Sequence[str]                  # per cage: "the 12+ cage at (2,3),(2,4)" (``CageLabels``)
    clues: list[str]                       # per cage: "12+"
    cage_of: list[int]                     # per cell: its cage
    lines: list[list[int]]                 # rows 0..n-1, then columns n..2n-1
    peers: list[list[int]]                 # per cell: the other cells of its row and column
    static: list[list[int]]                # per cage: per cell, the digits the arithmetic allows
    inner: list[list[int]]                 # per line: cages lying wholly inside it
    line_names: list[str] = field(default_factory=list)
    singles: list[int] = field(default_factory=list)  # the single-cell cages

    @classmethod
    def build(
        cls, n: int, cages: Sequence[tuple[Sequence[Cell], str, int]],
        hidden_ops: Sequence[str] | None = None,
    ) -> "Board":
        """Board for ``cages`` given as (cells, op, target); ``hidden_ops`` when ops aren't shown."""
        hidden = None if hidden_ops is None else tuple(hidden_ops)
        cells_list: list[tuple[int, ...]] = []
        assigns: list[tuple[tuple[int, ...], ...]] = []
        clues: list[str] = []
        static: list[list[int]] = []
        cage_of = [-1] * (n * n)
        inner: list[list[int]] = [[] for _ in range(2 * n)]
        singles: list[int] = []
        # A generator builds a board per draft, and drafts share most cages: everything
        # per cage (also the line it lies in, if any) comes from ``cage_parts``' memo.
        for k, (cells, op, target) in enumerate(cages):
            idx, ass, clue, masks, row, col = cage_parts(n, tuple(cells), op, target, hidden)
            cells_list.append(idx)
            assigns.append(ass)
            clues.append(clue)
            static.append(list(masks))
            for i in idx:
                cage_of[i] = k
            if row >= 0:
                inner[row].append(k)
            if col >= 0:
                inner[n + col].append(k)
            if len(idx) == 1:
                singles.append(k)
        lines, peers, names, _ = _geometry(n)
        # The geometry's lists are shared by every board of this size: nothing changes them.
        return cls(n, cells_list, assigns, CageLabels(n, cells_list, clues), clues, cage_of, list(lines),
                   list(peers), static, inner, list(names), singles)


class CageLabels(Sequence[str]):
    """A board's cage labels ("the 12+ cage at (2,3),(2,4)"), each made when first asked
    for: only explanations and contradictions read them, never a generator's drafts."""

    __slots__ = ("n", "cells", "clues", "made")

    def __init__(self, n: int, cells: Sequence[tuple[int, ...]], clues: Sequence[str]) -> None:
        self.n, self.cells, self.clues = n, cells, clues
        self.made: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self.cells)

    def __getitem__(self, k):  # type: ignore[override]
        if isinstance(k, slice):
            return [self[j] for j in range(len(self))[k]]
        k = range(len(self))[k]  # negative indices, and IndexError past the end
        got = self.made.get(k)
        if got is None:
            n = self.n
            where = ",".join(f"({i // n + 1},{i % n + 1})" for i in self.cells[k])
            got = self.made[k] = Text(N_("the {clue} cage at {where}"), clue=self.clues[k], where=where)
        return got


@lru_cache(maxsize=1 << 16)
def cage_parts(
    n: int, cells: tuple[Cell, ...], op: str, target: int, hidden: tuple[str, ...] | None,
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], str, tuple[int, ...], int, int]:
    """(cell indices, assignments, clue, per-cell digits the arithmetic allows,
    the row it lies wholly in or -1, the column likewise) of a cage.

    Made from what the cells alone give and what the shape, op and target alone give,
    each remembered apart: a generator meets a few shapes and places, in many pairings."""
    idx, shape, row, col = _placed(n, cells)
    ass, masks = _shape_parts(shape, op, target, n, hidden)
    return idx, ass, f"{target}{'' if hidden is not None else OP_GLYPHS.get(op, op)}", masks, row, col


@lru_cache(maxsize=1 << 16)
def _placed(n: int, cells: tuple[Cell, ...]) -> tuple[tuple[int, ...], tuple[Cell, ...], int, int]:
    """(cell indices, normal shape, the row the cells lie wholly in or -1, the column likewise)."""
    row = cells[0][0] if all(r == cells[0][0] for r, _ in cells) else -1
    col = cells[0][1] if all(c == cells[0][1] for _, c in cells) else -1
    return tuple(r * n + c for r, c in cells), normal_shape(cells), row, col


@lru_cache(maxsize=1 << 16)
def _shape_parts(shape: tuple[Cell, ...], op: str, target: int, n: int,
                 hidden: tuple[str, ...] | None) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """(assignments, per-cell digits they allow) of a cage of this normal shape."""
    ass = cage_assignments(shape, op, target, n, hidden)
    masks = [0] * len(shape)
    for a in ass:
        for k, d in enumerate(a):
            masks[k] |= 1 << (d - 1)
    return ass, tuple(masks)


@lru_cache(maxsize=None)
def _geometry(n: int) -> tuple[tuple[list[int], ...], tuple[list[int], ...], tuple[str, ...], tuple[frozenset[int], ...]]:
    """(lines, peers, line names, line cell sets) of an n x n grid; read only, shared by every board."""
    lines = [[r * n + c for c in range(n)] for r in range(n)]
    lines += [[r * n + c for r in range(n)] for c in range(n)]
    peers = []
    for i in range(n * n):
        r, c = divmod(i, n)
        peers.append([r * n + j for j in range(n) if j != c] + [j * n + c for j in range(n) if j != r])
    names = ([Text(N_("row {row}"), row=r + 1) for r in range(n)]
             + [Text(N_("column {column}"), column=c + 1) for c in range(n)])
    return tuple(lines), tuple(peers), tuple(names), tuple(frozenset(x) for x in lines)


class State:
    """Candidates, placed cells and live cage assignments; cheap to copy.

    Besides the candidates it keeps bookkeeping that lets techniques skip work
    that can't find anything new: per cage the digits its live assignments
    still cover (``union``) and whether ``cage_line`` has seen its current
    assignments; per line a change counter (``stamp``) and, per line
    technique, the counter it last checked the line at (``seen``).
    """

    __slots__ = ("board", "cand", "placed", "unplaced", "live", "union", "static_done",
                 "line_done", "stamp", "seen", "fresh", "touched", "open")

    def __init__(self, board: Board) -> None:
        n = board.n
        self.board = board
        self.cand = [full_mask(n)] * (n * n)
        self.placed = [False] * (n * n)
        self.unplaced = n * n
        self.live = list(board.assigns)
        # Start from "covers everything" so the first cage_combos pass filters every cell.
        self.union = [[full_mask(n) | 1 << n] * len(idx) for idx in board.cells]
        self.static_done = [False] * len(board.cells)
        self.line_done = [False] * len(board.cells)
        self.stamp = [0] * (2 * n)
        self.seen: dict[str, list[int]] = {}
        self.fresh: list[int] = []  # cells the current technique reduced to one candidate
        # Per cage: whether a cell lost a candidate since its union last matched
        # them all (else it can't be stale), and how many of its cells are open.
        self.touched = [True] * len(board.cells)
        self.open = [len(idx) for idx in board.cells]

    def copy(self) -> "State":
        """An independent copy (assignment tuples are shared, never mutated)."""
        other = State.__new__(State)
        other.board = self.board
        other.cand = self.cand[:]
        other.placed = self.placed[:]
        other.unplaced = self.unplaced
        other.live = self.live[:]
        other.union = self.union[:]  # inner lists are replaced, never mutated
        other.static_done = self.static_done[:]
        other.line_done = self.line_done[:]
        other.stamp = self.stamp[:]
        other.seen = {k: v[:] for k, v in self.seen.items()}
        other.fresh = []
        other.touched = self.touched[:]
        other.open = self.open[:]
        return other

    def elim(self, i: int, mask: int) -> bool:
        """Remove ``mask`` from cell ``i``; True when something went."""
        old = self.cand[i]
        new = old & ~mask
        if new == old:
            return False
        if not new:
            raise Contradiction(f"{cell_name(i, self.board.n)} has no digit left")
        self.cand[i] = new
        self.touched[self.board.cage_of[i]] = True
        n = self.board.n
        self.stamp[i // n] += 1
        self.stamp[n + i % n] += 1
        if not new & (new - 1):
            self.fresh.append(i)
        return True

    def seen_list(self, name: str) -> list[int]:
        """The per-line counters technique ``name`` last checked at."""
        got = self.seen.get(name)
        if got is None:
            got = self.seen[name] = [-1] * len(self.stamp)
        return got

    def place(self, i: int) -> None:
        """Mark a single-candidate cell placed and clear its digit from its row and column."""
        self.placed[i] = True
        self.unplaced -= 1
        k = self.board.cage_of[i]
        if k >= 0:
            self.open[k] -= 1
        b = self.cand[i]
        cand = self.cand
        for j in self.board.peers[i]:
            if cand[j] & b:
                self.elim(j, b)

    def grid(self) -> tuple[str, ...]:
        """Rows of placed digits, ``.`` where a cell is still open."""
        n = self.board.n
        rows = []
        for r in range(n):
            rows.append("".join(
                str(self.cand[r * n + c].bit_length()) if self.placed[r * n + c] else "."
                for c in range(n)
            ))
        return tuple(rows)

    def check_cages(self) -> None:
        """On a full grid, every cage must hold one of its assignments."""
        b = self.board
        for idx, ass in zip(b.cells, b.assigns):
            got = tuple(self.cand[i].bit_length() for i in idx)
            if got not in ass:
                raise Contradiction("a cage does not add up")


# --- descriptions ------------------------------------------------------------

def _apply(st: State, cells: Sequence[int], masks: Sequence[int]) -> list[tuple[int, int]]:
    """Eliminate ``masks[k]`` from ``cells[k]``; the (cell, removed) pairs that changed."""
    out = []
    for i, m in zip(cells, masks):
        removed = st.cand[i] & m
        if removed and st.elim(i, m):
            out.append((i, removed))
    return out


def _combo_text(op_clue: str, a: Sequence[int]) -> str:
    op = op_clue.lstrip("0123456789")
    sep = {"+": "+", "\u2212": "\u2212", "\u00d7": "\u00d7", "\u00f7": "\u00f7"}.get(op, ",")
    return sep.join(str(d) for d in a)


# --- easy ----------------------------------------------------------------------

def t_single_cage(b: Board, st: State, run: Run) -> int:
    for k in b.singles:
        idx = b.cells[k]
        if not st.placed[idx[0]]:
            i = idx[0]
            d = b.assigns[k][0][0] if b.assigns[k] else 0
            if not d:
                raise Contradiction("an empty single-cell cage")
            cuts = _apply(st, idx, [~bit(d)])
            if not cuts:
                continue
            if run.explain:
                run.reason = Text(N_("{cell} is a single-cell cage showing {digit}, so it is {digit}."),
                                  cell=cell_text(i, b.n), digit=d)
            return 1
    return 0


def t_naked_single(b: Board, st: State, run: Run) -> int:
    placed = 0
    cand = st.cand
    done = st.placed
    for i, c in enumerate(cand):  # placing a cell changes later cells' entries: read as reached
        if not c & (c - 1) and not done[i]:
            if not c:
                raise Contradiction("empty cell")
            st.place(i)
            placed += 1
            if run.steps is not None:
                d = cand[i].bit_length()
                run.steps.append(Step(
                    "naked_single", (((i // b.n, i % b.n), str(d)),),
                    Text(N_("{cell} can only be {digit}: every other digit is already used in its row, "
                            "its column or ruled out by its cage."), cell=cell_text(i, b.n), digit=d),
                ))
    return placed


def t_cage_last(b: Board, st: State, run: Run) -> int:
    for k, left in enumerate(st.open):
        if left != 1:
            continue
        idx = b.cells[k]
        if len(idx) < 2:
            continue
        j = next(j for j, i in enumerate(idx) if not st.placed[i])
        known = [(jj, st.cand[i].bit_length()) for jj, i in enumerate(idx) if jj != j]
        mask = 0
        for a in b.assigns[k]:
            if all(a[jj] == d for jj, d in known):
                mask |= 1 << (a[j] - 1)
        cuts = _apply(st, [idx[j]], [~mask])
        if cuts:
            if run.explain:
                have = and_list([str(d) for _, d in known])
                run.reason = Text(N_("{cage} already holds {digits}, so {cuts}."),
                                  cage=b.labels[k], digits=have, cuts=describe_cuts(st, cuts))
            return 1
    return 0


def t_cage_static(b: Board, st: State, run: Run) -> int:
    done = st.static_done
    if all(done):  # the usual case after the first few steps
        return 0
    for k in range(done.index(False), len(done)):
        idx = b.cells[k]
        if done[k]:
            continue
        done[k] = True
        if len(idx) < 2:
            continue
        cuts = _apply(st, idx, [~m for m in b.static[k]])
        if cuts:
            if run.explain:
                sets = sorted({tuple(sorted(a)) for a in b.assigns[k]})
                if len(sets) <= 4:
                    made = and_list([_combo_text(b.clues[k], s) for s in sets], "or")
                    run.reason = Text(N_("{cage} can only be made as {ways}, so {cuts}."),
                                      cage=b.labels[k], ways=made, cuts=describe_cuts(st, cuts))
                else:
                    run.reason = Text(N_("the arithmetic of {cage} rules some digits out, so {cuts}."),
                                      cage=b.labels[k], cuts=describe_cuts(st, cuts))
            return 1
    return 0


# --- medium --------------------------------------------------------------------

_BITS = tuple(1 << (d - 1) if d else 0 for d in range(10))  # digit -> its candidate bit


_POSITIONS = tuple(tuple(range(k)) for k in range(10))  # a cage's positions 0..k-1


def _fitting(live: Sequence[tuple[int, ...]], idx: Sequence[int], cand: Sequence[int],
             at: Sequence[int]) -> list[tuple[int, ...]]:
    """The combinations of ``live`` whose digit at each position of ``at`` is still a
    candidate of the cage's cell there (``idx``), in their order: one pass for up to
    four positions instead of one list per position."""
    if len(at) == 1:
        j0 = at[0]
        m0 = cand[idx[j0]] << 1  # bit d: digit d is a candidate
        return [a for a in live if m0 >> a[j0] & 1]
    if len(at) == 2:
        j0, j1 = at
        m0, m1 = cand[idx[j0]] << 1, cand[idx[j1]] << 1
        return [a for a in live if m0 >> a[j0] & 1 and m1 >> a[j1] & 1]
    if len(at) == 3:
        j0, j1, j2 = at
        m0, m1, m2 = cand[idx[j0]] << 1, cand[idx[j1]] << 1, cand[idx[j2]] << 1
        return [a for a in live if m0 >> a[j0] & 1 and m1 >> a[j1] & 1 and m2 >> a[j2] & 1]
    if len(at) == 4:
        j0, j1, j2, j3 = at
        m0, m1, m2, m3 = cand[idx[j0]] << 1, cand[idx[j1]] << 1, cand[idx[j2]] << 1, cand[idx[j3]] << 1
        return [a for a in live if m0 >> a[j0] & 1 and m1 >> a[j1] & 1 and m2 >> a[j2] & 1 and m3 >> a[j3] & 1]
    for j in at:
        m = cand[idx[j]] << 1
        live = [a for a in live if m >> a[j] & 1]
    return list(live)


def _refresh(b: Board, st: State, k: int) -> list[int]:
    """Filter cage ``k``'s live assignments by the candidates; the digits they still use per cell."""
    idx = b.cells[k]
    cand = st.cand
    union = st.union[k]
    # Only cells that lost a digit the live assignments still use need filtering.
    stale = [j for j, i in enumerate(idx) if union[j] & ~cand[i]]
    if not stale:
        return union
    live = _fitting(st.live[k], idx, cand, stale)
    if not live:
        raise Contradiction(f"{b.labels[k]} has no combination left")
    st.live[k] = live
    st.line_done[k] = False
    new_union = []
    for column in zip(*live):  # the digits each cell still takes, one bit each
        m = 0
        for d in column:
            m |= _BITS[d]
        new_union.append(m)
    st.union[k] = new_union
    return new_union


def _live_text(b: Board, st: State, k: int) -> str:
    live = st.live[k]
    shown = [_combo_text(b.clues[k], a) for a in live[:4]]
    if len(live) <= 4:
        return join_commas(shown)
    return Plural("{ways} and {count} more", "{ways} and {count} more", len(live) - 4, ways=join_commas(shown))


def _stale_cages(b: Board, st: State):
    """(cage, its cells, refreshed union per cell) for every multi-cell cage whose
    combinations may now allow less than its cells' candidates."""
    cand = st.cand
    touched = st.touched
    for k, idx in enumerate(b.cells):
        if not touched[k] or len(idx) < 2:
            continue
        if st.union[k] == [cand[i] for i in idx]:
            touched[k] = False
            continue
        yield k, idx, _refresh(b, st, k)


def t_cage_fix(b: Board, st: State, run: Run) -> int:
    """Easy: the combinations of a cage that still fit leave one digit for some cell."""
    cand = st.cand
    for k, idx, union in _stale_cages(b, st):
        for j, i in enumerate(idx):
            u = union[j]
            if not u & (u - 1) and cand[i] != u:
                cuts = _apply(st, [i], [~u])
                if run.explain:
                    run.reason = Text(N_("the only ways to fill {cage} that fit its rows and columns are "
                                         "{ways}, so {cuts}."),
                                      cage=b.labels[k], ways=_live_text(b, st, k), cuts=describe_cuts(st, cuts))
                return 1
    return 0


def t_cage_combos(b: Board, st: State, run: Run) -> int:
    """Medium: strike every digit no remaining combination of a cage uses."""
    for k, idx, union in _stale_cages(b, st):
        cuts = _apply(st, idx, [~u for u in union])
        if cuts:
            if run.explain:
                run.reason = Text(N_("of the ways to fill {cage}, only {ways} fit what its rows and columns "
                                     "allow, so {cuts}."),
                                  cage=b.labels[k], ways=_live_text(b, st, k), cuts=describe_cuts(st, cuts))
            return 1
    return 0


def t_hidden_single(b: Board, st: State, run: Run) -> int:
    cand = st.cand
    n = b.n
    seen = st.seen_list("hidden_single")
    for li, line in enumerate(b.lines):
        if seen[li] == st.stamp[li]:
            continue
        seen[li] = st.stamp[li]
        for d in range(n):
            m = 1 << d
            where = -1
            count = 0
            for i in line:
                if cand[i] & m:
                    count += 1
                    where = i
                    if count > 1:
                        break
            if count == 0:
                raise Contradiction(f"{b.line_names[li]} has no place for {d + 1}")
            if count == 1 and cand[where] != m:
                st.elim(where, ~m)
                if run.explain:
                    run.reason = Text(N_("in {house}, {digit} fits only at {cell}, so it goes there."),
                                      house=b.line_names[li], digit=d + 1, cell=cell_text(where, n))
                return 1
    return 0


# --- hard ----------------------------------------------------------------------

def t_cage_line(b: Board, st: State, run: Run) -> int:
    n = b.n
    for k, idx in enumerate(b.cells):
        if len(idx) < 2 or st.line_done[k]:
            continue
        live = st.live[k]
        rows = sorted({i // n for i in idx})
        cols = sorted({n + i % n for i in idx})
        for li in rows + cols:
            pos = [j for j, i in enumerate(idx) if (i // n if li < n else n + i % n) == li]
            req = full_mask(n)
            for a in live:
                m = 0
                for j in pos:
                    m |= 1 << (a[j] - 1)
                req &= m
                if not req:
                    break
            if not req:
                continue
            members = set(idx)
            others = [i for i in b.lines[li] if i not in members]
            cuts = _apply(st, others, [req] * len(others))
            if cuts:
                if run.explain:
                    ds = and_list([str(d) for d in digits_of(req)])
                    run.reason = Text(N_("every way to fill {cage} puts {digits} in {house}, so no other cell "
                                         "of {house} can hold it; {cuts}."),
                                      cage=b.labels[k], digits=ds, house=b.line_names[li],
                                      cuts=describe_cuts(st, cuts))
                return 1
        st.line_done[k] = True  # nothing new until its assignments shrink again
    return 0


def _naked(size: int, name: str) -> Callable[[Board, State, Run], int]:
    def tech(b: Board, st: State, run: Run) -> int:
        cand = st.cand
        seen = st.seen_list(name)
        for li, line in enumerate(b.lines):
            if seen[li] == st.stamp[li]:
                continue
            seen[li] = st.stamp[li]  # a cut below changes the stamp again
            for group, u, others in naked_subsets(line, cand, st.placed, size):
                cuts = _apply(st, others, [u] * len(others))
                if cuts:
                    if run.explain:
                        where = and_list([cell_text(i, b.n) for i in group])
                        ds = and_list([str(d) for d in digits_of(u)])
                        run.reason = Text(N_("in {house}, {cells} can only hold {digits} between them, "
                                             "so the other cells can't; {cuts}."), house=b.line_names[li],
                                          cells=where, digits=ds, cuts=describe_cuts(st, cuts))
                    return 1
        return 0
    tech.__name__ = f"t_{name}"
    return tech


def _hidden(size: int, name: str) -> Callable[[Board, State, Run], int]:
    def tech(b: Board, st: State, run: Run) -> int:
        cand = st.cand
        n = b.n
        seen = st.seen_list(name)
        for li, line in enumerate(b.lines):
            if seen[li] == st.stamp[li]:
                continue
            seen[li] = st.stamp[li]
            if sum(1 for i in line if not st.placed[i]) <= size:
                continue
            # Lines list their cells in ascending order, so the cells come out sorted.
            for ds, u in hidden_subsets(positions(cand, line, st.placed, n), size):
                cells_u = [i for k, i in enumerate(line) if u >> k & 1]
                keep = 0
                for d in ds:
                    keep |= 1 << d
                cuts = _apply(st, cells_u, [~keep] * size)
                if cuts:
                    if run.explain:
                        where = and_list([cell_text(i, n) for i in cells_u])
                        dtext = and_list([str(d + 1) for d in ds])
                        run.reason = Text(N_("in {house}, {digits} fit only in {cells}, so those cells "
                                             "hold nothing else; {cuts}."), house=b.line_names[li],
                                          digits=dtext, cells=where, cuts=describe_cuts(st, cuts))
                    return 1
        return 0
    tech.__name__ = f"t_{name}"
    return tech


def t_line_sum(b: Board, st: State, run: Run) -> int:
    n = b.n
    total = n * (n + 1) // 2
    cand = st.cand
    for li, line in enumerate(b.lines):
        inner = b.inner[li]
        busy = [k for k in inner if not all(st.placed[i] for i in b.cells[k])]
        if not busy:
            continue
        inside = {i for k in inner for i in b.cells[k]}
        outside = [i for i in line if i not in inside]
        open_out = [i for i in outside if not st.placed[i]]
        if not 1 <= len(open_out) <= LINE_SUM_CELLS:
            continue
        known = sum(cand[i].bit_length() for i in outside if st.placed[i])
        sums = {0}
        for k in inner:
            ks = {sum(a) for a in st.live[k]}
            sums = {s + t for s in sums for t in ks}
            if len(sums) > LINE_SUM_OPTIONS:
                break
        if len(sums) > LINE_SUM_OPTIONS:
            continue
        want = {total - known - s for s in sums}
        union = [0] * len(open_out)
        opts = [digits_of(cand[i]) for i in open_out]

        def rec(j: int, acc: int, used: int, chosen: list[int]) -> None:
            if j == len(open_out):
                if acc in want:
                    for jj, d in enumerate(chosen):
                        union[jj] |= 1 << (d - 1)
                return
            for d in opts[j]:
                if used >> d & 1:
                    continue
                chosen.append(d)
                rec(j + 1, acc + d, used | 1 << d, chosen)
                chosen.pop()

        rec(0, 0, 0, [])
        cuts = _apply(st, open_out, [~u for u in union])
        if cuts:
            if run.explain:
                cages = and_list([b.clues[k] for k in inner])
                where = and_list([cell_text(i, n) for i in open_out])
                rest = and_list([str(w) for w in sorted(want)], "or")
                run.reason = Text(N_("{house} adds up to {total}; the cages {cages} lie inside it, so {cells} "
                                     "add up to {rest}; {cuts}."), house=b.line_names[li], total=total,
                                  cages=cages, cells=where, rest=rest, cuts=describe_cuts(st, cuts))
            return 1
    return 0


# --- expert --------------------------------------------------------------------

def t_trial(b: Board, st: State, run: Run) -> int:
    return trial(b.n, st, run, solve)


LADDER: tuple[tuple[str, Callable[[Board, State, Run], int]], ...] = (
    ("single_cage", t_single_cage),
    ("naked_single", t_naked_single),
    ("cage_last", t_cage_last),
    ("cage_static", t_cage_static),
    ("cage_fix", t_cage_fix),
    ("cage_combos", t_cage_combos),
    ("hidden_single", t_hidden_single),
    ("cage_line", t_cage_line),
    ("naked_pair", _naked(2, "naked_pair")),
    ("hidden_pair", _hidden(2, "hidden_pair")),
    ("line_sum", t_line_sum),
    ("naked_triple", _naked(3, "naked_triple")),
    ("hidden_triple", _hidden(3, "hidden_triple")),
    ("trial", t_trial),
)


@lru_cache(maxsize=None)
def _techniques_to(max_level: Level) -> tuple[tuple[str, Callable[[Board, State, Run], int]], ...]:
    """The ladder's (name, technique) pairs up to ``max_level``, in order."""
    return tuple((name, fn) for name, fn in LADDER if TECHNIQUE_LEVEL[name] <= max_level)


def solve(st: State, max_level: Level, run: Run) -> bool:
    """Apply the ladder up to ``max_level`` until solved (True) or stuck (False).

    After any progress it restarts with the easiest technique. Raises
    ``Contradiction`` when the position has no solution.
    """
    techs = _techniques_to(max_level)
    counts = run.counts
    while True:
        if st.unplaced == 0:
            st.check_cages()
            return True
        for name, fn in techs:
            st.fresh = []
            used = fn(st.board, st, run)
            if not used:
                continue
            counts[name] = counts.get(name, 0) + used
            if name != "naked_single":
                # Cells this technique itself reduced to one candidate are its result.
                fixed = []
                fresh, st.fresh = st.fresh, []  # cells emptied by these placements are naked singles
                for i in fresh:
                    if not st.placed[i] and not st.cand[i] & (st.cand[i] - 1):
                        fixed.append(i)
                        st.place(i)
                if run.steps is not None:
                    n = st.board.n
                    run.steps.append(Step(
                        name,
                        tuple(((i // n, i % n), str(st.cand[i].bit_length())) for i in fixed),
                        run.reason,
                    ))
            break
        else:
            return False


def medium_solves(board: Board) -> bool:
    """Whether the easy and medium tiers alone fill the grid, as ``solve`` up to MEDIUM would."""
    return open_after(board, Level.MEDIUM) == []


def open_after(board: Board, level: Level) -> list[int] | None:
    """The cells (ascending) that ``solve`` up to ``level`` (EASY or MEDIUM) leaves
    unplaced, [] when it fills the grid; None when the candidates run out.

    Each technique of those tiers only strikes candidates, and one that applies still
    applies once other candidates are gone, so what they reach together is one fixed
    point, whatever the order. Here it is reached by plain propagation, without the
    ladder's restarts and counts, for a generator that only needs the verdict: each
    cage's assignments cut to what the candidates allow (medium: the candidates cut to
    what those use; easy: only where that leaves one digit, or on the cage's last open
    cell), naked singles, and at medium hidden singles."""
    medium = level >= Level.MEDIUM
    n = board.n
    full = full_mask(n)
    cand = [0] * (n * n)
    for idx, masks in zip(board.cells, board.static):  # every cage's arithmetic alone
        for i, m in zip(idx, masks):
            if not m:
                return None
            cand[i] = m
    placed = [False] * (n * n)
    live = list(board.assigns)
    cells, cage_of, peers, lines = board.cells, board.cage_of, board.peers, board.lines
    todo = [i for i, c in enumerate(cand) if not c & (c - 1)]  # cells down to one digit
    dirty: set[int] = set()  # cages whose cells lost a digit since they were last cut
    while True:
        while todo or dirty:
            while todo:  # naked singles: place, strike the digit from the row and column
                i = todo.pop()
                if placed[i]:
                    continue
                placed[i] = True
                c = cand[i]
                for j in peers[i]:
                    cj = cand[j]
                    if cj & c:
                        cj &= ~c
                        if not cj:
                            return None
                        cand[j] = cj
                        dirty.add(cage_of[j])
                        if not cj & (cj - 1):
                            todo.append(j)
            if dirty:  # a cage's combinations against its cells' candidates
                k = dirty.pop()
                idx = cells[k]
                got = _fitting(live[k], idx, cand, _POSITIONS[len(idx)])
                if not got:
                    return None
                live[k] = got
                last = medium or sum(1 for i in idx if cand[i] & (cand[i] - 1)) == 1
                for i, column in zip(idx, zip(*got)):
                    u = 0
                    for d in column:
                        u |= _BITS[d]
                    if cand[i] & ~u and (last or not u & (u - 1)):
                        u &= cand[i]
                        cand[i] = u
                        if not u & (u - 1):
                            todo.append(i)
        moved = False
        for line in lines if medium else ():  # hidden singles
            once = twice = 0
            for i in line:
                twice |= once & cand[i]
                once |= cand[i]
            if once != full:
                return None
            alone = once & ~twice
            while alone:
                m = alone & -alone
                alone ^= m
                for i in line:
                    if cand[i] & m:
                        if cand[i] != m:
                            cand[i] = m
                            dirty.add(cage_of[i])
                            todo.append(i)
                            moved = True
                        break
        if not moved:
            return [i for i in range(n * n) if not placed[i]]

@dataclass(frozen=True)
class LadderResult:
    """What one ladder run found."""

    solved: bool
    level: Level                 # hardest tier used
    counts: dict[str, int]
    grid: tuple[str, ...]
    steps: list[Step] | None
    open_cells: tuple[int, ...]  # cell indices left unplaced (empty when solved)
    contradiction: bool = False


def run_ladder(
    board: Board, max_level: Level = Level.EXPERT, explain: bool = False,
    givens: Sequence[tuple[int, int]] = (),
) -> LadderResult:
    """Run the ladder from the grid with ``givens`` (cell index, digit), techniques up to ``max_level``."""
    st = State(board)
    run = Run(explain)
    contradiction = False
    try:
        for i, d in givens:
            st.elim(i, ~bit(d))
            if not st.placed[i]:
                st.place(i)
        solved = solve(st, max_level, run)
    except Contradiction:
        solved, contradiction = False, True
    level = max((TECHNIQUE_LEVEL[t] for t in run.counts), default=Level.EASY)
    open_cells = tuple(i for i in range(board.n * board.n) if not st.placed[i])
    return LadderResult(solved, level, run.counts, st.grid(), run.steps, open_cells, contradiction)


def score_of(counts: dict[str, int], level: Level, n: int) -> float:
    """The shared score (``bookgen.core.score``) with this ladder's weights and tiers."""
    return work_score(counts, TECHNIQUE_WEIGHT, TECHNIQUE_LEVEL, level, n * n)


# --- SAT: the cages' clauses on the engine's solver ---------------------------------
#
# A cage with several cells gets one selector variable per admissible assignment: at
# least one selector is on, a selector forces its digits, and every (cell, digit) of the
# cage needs a selector that supports it, so unit propagation already prunes like the
# cage enumeration a human would do. A pair of cells needs no selectors: every digit of
# one cell needs a partner in the other.

# A cage for the solver: cell indices and the digit tuples it admits.
CageSpec = tuple[tuple[int, ...], Sequence[tuple[int, ...]]]


def cage_clauses(n: int, cages: Sequence[CageSpec]) -> list[list[int]]:
    """Clauses for the cages; selector variables are numbered after the grid's."""
    out: list[list[int]] = []
    nxt = n * n * n + 1
    for cells, assigns in cages:
        if not assigns:
            return [[1], [-1]]  # a cage nothing can satisfy: unsatisfiable
        if len(cells) == 1:
            out.append([cells[0] * n + a[0] for a in assigns])
            continue
        sels = list(range(nxt, nxt + len(assigns)))
        nxt += len(assigns)
        out.append(sels)
        support: dict[int, list[int]] = {}
        for s, a in zip(sels, assigns):
            for i, d in zip(cells, a):
                v = i * n + d
                out.append([-s, v])
                support.setdefault(v, []).append(s)
        for i in cells:
            for d in range(1, n + 1):
                v = i * n + d
                if v in support:
                    out.append([-v, *support[v]])
                else:
                    out.append([-v])
    return out


def latin_solutions(
    n: int, cages: Sequence[CageSpec], limit: int = 2,
    cand: Sequence[int] | None = None, exclude: Sequence[Sequence[int]] = (),
) -> list[list[int]]:
    """Up to ``limit`` solutions, each a flat row-major list of digits (exact, no budget).

    ``cand`` (one bitmask per cell, bit d-1 = digit d) narrows each cell to
    digits already known possible, e.g. by sound deductions; ``exclude``
    lists solutions not to report again (known ones), so "is there another
    solution?" costs one call.
    """
    found, _ = search_solutions(n, cages, limit, cand, exclude)
    return found


def search_solutions(
    n: int, cages: Sequence[CageSpec], limit: int = 2,
    cand: Sequence[int] | None = None, exclude: Sequence[Sequence[int]] = (),
    budget: int | None = None,
) -> tuple[list[list[int]], bool]:
    """Like ``latin_solutions``, with an optional conflict ``budget`` per call.

    Returns (solutions, complete): ``complete`` is False when the budget ran
    out before the first answer. Latin squares with weak cages are close kin
    of quasigroup completion, a classic hard SAT family, so the generator
    bounds its exploratory calls.
    """
    ls = LatinSolver(geometry(n))
    try:
        ls.solver.append_formula(cage_clauses(n, cages))
        if cand is not None:
            for i, mask in enumerate(cand):
                for d in range(1, n + 1):
                    if not mask >> (d - 1) & 1:
                        ls.add([-(i * n + d)])
        for sol in exclude:
            ls.add([-(i * n + d) for i, d in enumerate(sol)])
        return ls.solutions([], limit, budget, keep=True)
    finally:
        ls.close()


class DraftSolver(LatinSolver):
    """The engine's solver for the many drafts a KenKen generator tries over one square.

    Consecutive drafts share most of their cages: every distinct cage gets its
    clauses once, behind a switch, and a draft is asked about by assuming its
    cages' switches. The intended square is blocked once, behind its own
    switch, so "is there a second solution?" is a single solve. Its answers
    depend only on the sequence of questions, so a generator that makes one
    per puzzle stays deterministic.
    """

    def __init__(self, n: int, lean: bool = False) -> None:
        """``lean``: leave out the clauses that only speed propagation up (a (cell, digit)
        needs a selector that supports it; a pair constrained from its second cell too).
        Answers stay exact, but the search and so the other solutions found differ: only
        for a solver whose answer is a plain yes or no (the final proof, where the lean
        clauses cut its cost at 5x5 easy from 0.18 to 0.13 ms)."""
        super().__init__(geometry(n))
        self.lean = lean

    def _write_cage(self, act: int, cells: Sequence[int], assigns: Sequence[tuple[int, ...]]) -> None:
        n = self.n
        add = self.add
        if not assigns:
            add([-act])
            return
        if len(cells) == 1:
            add([-act] + [cells[0] * n + a[0] for a in assigns])
            return
        if len(cells) == 2:
            a_cell, b_cell = cells
            partners: dict[int, list[int]] = {}
            for x, y in assigns:
                partners.setdefault(a_cell * n + x, []).append(b_cell * n + y)
                partners.setdefault(b_cell * n + y, []).append(a_cell * n + x)
            for i in cells[:1] if self.lean else cells:
                for v in range(i * n + 1, i * n + n + 1):
                    add([-act, -v, *partners.get(v, ())])
            return
        sels = [self.fresh() for _ in assigns]
        add([-act, *sels])
        if self.lean:
            for s, a in zip(sels, assigns):
                for i, d in zip(cells, a):
                    add([-s, i * n + d])
            return
        support: dict[int, list[int]] = {}
        for s, a in zip(sels, assigns):
            for i, d in zip(cells, a):
                v = i * n + d
                add([-s, v])
                support.setdefault(v, []).append(s)
        for i in cells:
            for d in range(1, n + 1):
                v = i * n + d
                add([-act, -v, *support.get(v, ())])

    def second_solution(
        self, square: Sequence[int], cages: Sequence[tuple[object, Sequence[int], Sequence[tuple[int, ...]]]],
        budget: int | None = None,
    ) -> tuple[list[int] | None, bool]:
        """(a solution of these cages other than ``square``, or None; complete).

        ``cages`` are (key, cell indices, assignments): a key names a cage's
        clauses for later drafts, so equal keys must mean equal cages. With a
        conflict ``budget`` the answer may be incomplete ((None, False)).
        """
        found, complete = self.other_solutions(square, cages, 1, budget)
        return (found[0] if found else None), complete

    def other_solutions(
        self, square: Sequence[int], cages: Sequence[tuple[object, Sequence[int], Sequence[tuple[int, ...]]]],
        limit: int, budget: int | None = None,
    ) -> tuple[list[list[int]], bool]:
        """Up to ``limit`` solutions of these cages other than ``square`` (flat digit lists),
        and whether the first question was answered within ``budget`` (see ``second_solution``)."""
        known = self.switches.get  # (most of a draft's cages were asked about before)
        write = self._write_cage
        lits = [known(key) or self.switch(key, lambda _, act, c=cells, a=assigns: write(act, c, a))
                for key, cells, assigns in cages]
        lits.append(self.differs(square))
        return self.solutions(lits, limit, budget)


# The final proof's solver is loaded afresh after this many proofs: the cages of earlier
# puzzles pile up and slow it down (per proof at 5x5: 0.25 ms with a fresh solver each
# time, 0.15 ms reloading every 16, 0.2 ms and growing reloading every few thousand).
PROVER_PROOFS = 16
_PROOFS = Kept(PROVER_PROOFS, lambda geo: DraftSolver(geo.n, lean=True))


def proves_unique(n: int, cages: Sequence[CageSpec], square: Sequence[int]) -> bool:
    """Whether SAT finds ``square`` (flat, row-major digits) as the only solution of these cages.

    The generator's final, independent check. The square is checked against the
    rules and the cages directly; then one solve asks for any other solution, on a
    lean ``DraftSolver`` kept per order and process. Its answer is exact whatever
    it was asked before, so sharing it keeps generation deterministic.
    """
    if len(square) != n * n or not _is_latin(n, square):
        return False
    for cells, assigns in cages:
        if tuple(square[i] for i in cells) not in assigns:
            return False
    prover = _PROOFS.get(geometry(n))
    other, _ = prover.second_solution(square, [((cells, tuple(assigns)), cells, assigns) for cells, assigns in cages])
    return other is None


def _is_latin(n: int, square: Sequence[int]) -> bool:
    want = set(range(1, n + 1))
    return all(set(square[r * n:(r + 1) * n]) == want for r in range(n)) and all(
        set(square[c::n]) == want for c in range(n))
