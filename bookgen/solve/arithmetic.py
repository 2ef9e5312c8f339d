"""KenKen's cages (arithmetic), plugged into the Latin engine (``bookgen.solve.houses``).

A cage is a connected group of cells whose digits combine to its target with
its operation; its *assignments* (``bookgen.solve.latin.cage_assignments``)
are every digit tuple that does. The cages come in as a ``Board``, an
``Extra`` that brings a ladder of its own (KenKen climbs the tiers in
another order than Sudoku: hidden singles are medium, X-wings unused), a
state that keeps each cage's live assignments (``CageState``: a trial copies
it) and a validator (a full grid must fill every cage with an assignment).
The house techniques are the engine's.

Tiers (the grade's level is the hardest tier used):

- easy: ``single_cage`` (a one-cell cage gives its digit), ``naked_single``
  (every other digit is already in the row or column), ``cage_last`` (the
  last open cell of a cage is fixed by the others), ``cage_static`` (the
  cage's arithmetic alone allows only some digits, e.g. 3÷ is 1 and 3 or
  2 and 6), ``cage_fix`` (of the cage's combinations that fit the rows and
  columns, all give a cell the same digit).
- medium: ``cage_combos`` (the cage's combinations are checked against what
  rows and columns still allow, removing digits from cells they don't fix),
  ``hidden_single`` (a digit fits only one cell of a row or column).
- hard: ``cage_line`` (every combination of a cage puts a digit in one row
  or column, so the rest of that line can't have it), ``naked_pair`` /
  ``naked_triple``, ``hidden_pair`` / ``hidden_triple``, ``line_sum`` (a line
  adds up to N(N+1)/2, so the cages lying inside it fix what its other
  cells add up to).
- expert: ``trial`` (assume one candidate, run the easy..hard tiers, reach a
  contradiction, remove it). Never nested.

``open_after`` is the generator's fast path to the easy and medium tiers'
verdict; it must equal the ladder's (``solve`` up to that tier), and a test
checks them against each other. The SAT side: the cages' clauses on the
engine's ``LatinSolver`` (``DraftSolver``, ``proves_unique``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import chain, cycle
import math
import operator
from operator import getitem

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_, Plural, Text, join_commas
from bookgen.core.memo import BoundedMemo, kept_by_identity
from bookgen.core.score import work_score
from bookgen.core.types import Cell
from bookgen.solve.houses import (
    Contradiction, Extra, Geometry, Ladder, Run, State, Tech, _bitboards, and_list, cell_name, cell_text, cut_each,
    describe_cuts, geometry, seen_table, strike, t_hidden_pair, t_hidden_single, t_hidden_triple, t_naked_pair, t_naked_single,
    t_naked_triple, t_trial,
)
from bookgen.solve.latin import OP_GLYPHS, bit, cage_assignments, clash_form, digits_of, full_mask, normal_shape
from bookgen.solve.latin_sat import Kept, LatinSolver
from bookgen.solve.rated import direct_on_masks, line_places
from bookgen.solve.sat import load

# Largest set of unknown cells the line-sum rule adds up in one go.
LINE_SUM_CELLS = 3
# The most different sums the cages inside a line may leave open for line_sum.
LINE_SUM_OPTIONS = 12


@dataclass(frozen=True)
class Board(Extra):
    """The cages, as the engine's constraint: what never changes while solving."""

    n: int = 0
    cells: tuple[tuple[int, ...], ...] = ()            # per cage: cell indices
    assigns: tuple[tuple[tuple[int, ...], ...], ...] = ()  # per cage: admissible digit tuples
    labels: Sequence[str] = ()                         # per cage: "the 12+ cage at (2,3),(2,4)"
    clues: tuple[str, ...] = ()                        # per cage: "12+"
    cage_of: tuple[int, ...] = ()                      # per cell: its cage
    static: tuple[tuple[int, ...], ...] = ()           # per cage: per cell, the digits the arithmetic allows
    inner: tuple[tuple[int, ...], ...] = ()            # per row, then column: cages lying wholly inside it
    singles: tuple[int, ...] = ()                      # the single-cell cages

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
        static: list[tuple[int, ...]] = []
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
            static.append(masks)
            for i in idx:
                cage_of[i] = k
            if row >= 0:
                inner[row].append(k)
            if col >= 0:
                inner[n + col].append(k)
            if len(idx) == 1:
                singles.append(k)
        return cls(n=n, cells=tuple(cells_list), assigns=tuple(assigns), labels=CageLabels(n, cells_list, clues),
                   clues=tuple(clues), cage_of=tuple(cage_of), static=tuple(static),
                   inner=tuple(map(tuple, inner)), singles=tuple(singles))

    @cached_property
    def geo(self) -> Geometry:
        """The plain Latin square of the board's order."""
        return geometry(self.n)

    @cached_property
    def last_masks(self) -> dict[tuple[int, ...], tuple[int, int]]:
        """``_last_mask``'s answers, by cage and its placed digits."""
        return {}

    @cached_property
    def refreshes(self) -> dict[tuple[int, ...], tuple]:
        """``_refreshed``'s answers, by cage, its stale cells and their candidates."""
        return {}

    @cached_property
    def fix_nothing(self) -> dict[tuple[int, ...], tuple]:
        """``p_cage_fix``'s cages that fix nothing, by cage and candidates."""
        return {}

    def ladder(self) -> tuple[Tech, ...]:
        return LADDER

    def new_state(self, geo: Geometry) -> "CageState":
        return CageState(geo, self)

    def rated_steps(self, geo: Geometry, advanced: tuple, values: tuple[float, float, float],
                    alone: float | None) -> "RatedCages | None":
        """The rated run's steps found cage by cage (``RatedCages``)."""
        return RatedCages.make(geo, self, advanced, values, alone)

    def check(self, st: State) -> None:
        """On a full grid, every cage must hold one of its assignments."""
        cand = st.cand
        for idx, ass in zip(self.cells, self.assigns):
            if tuple(map(int.bit_length, map(cand.__getitem__, idx))) not in ass:
                raise Contradiction("a cage does not add up")


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
    """(cell indices, normal shape as its ``clash_form``, the row the cells lie wholly in or -1,
    the column likewise)."""
    r0, c0 = cells[0]
    row = r0 if [r for r, _ in cells].count(r0) == len(cells) else -1
    col = c0 if [c for _, c in cells].count(c0) == len(cells) else -1
    return tuple([r * n + c for r, c in cells]), clash_form(normal_shape(cells)), row, col


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


class CageState(State):
    """The engine's state and, per cage, its assignments still compatible with the
    candidates (``live``), with bookkeeping that lets techniques skip work that can't find
    anything new: per cage the digits its live assignments still cover (``union``), whether
    ``cage_static`` and ``cage_line`` have seen it, whether a cell lost a candidate since its
    union last matched them (``touched``) and how many of its cells are open; per row and
    column a change counter (the engine's ``stamp``) and, per technique, the counter it last
    checked the line at (``seen``)."""

    __slots__ = ("live", "union", "static_done", "line_done", "seen", "touched", "open", "last_done")

    def __init__(self, geo: Geometry, board: Board) -> None:
        super().__init__(geo, board)
        n = geo.n
        self.live = list(board.assigns)
        # Start from "covers everything" so the first cage_combos pass filters every cell.
        self.union = [[full_mask(n) | 1 << n] * len(idx) for idx in board.cells]
        self.static_done = [False] * len(board.cells)
        self.last_done = [False] * len(board.cells)  # ``p_cage_last`` found its last cell settled
        self.line_done = [False] * len(board.cells)
        self.stamp = [0] * len(geo.houses)
        self.seen: dict[str, list[int]] = {}
        self.touched = [True] * len(board.cells)
        self.open = [len(idx) for idx in board.cells]

    def started(self) -> None:
        placed = self.placed
        self.open = [sum(1 for i in idx if not placed[i]) for idx in self.extra.cells]

    def copy(self) -> "CageState":
        """An independent copy (assignment tuples are shared, never mutated)."""
        other = super().copy()
        other.live = self.live[:]
        other.union = self.union[:]  # inner lists are replaced, never mutated
        other.static_done = self.static_done[:]
        other.last_done = self.last_done[:]
        other.line_done = self.line_done[:]
        other.stamp = self.stamp[:]
        other.seen = {k: v[:] for k, v in self.seen.items()}
        other.touched = self.touched[:]
        other.open = self.open[:]
        return other

    def elim(self, i: int, mask: int) -> bool:
        """The engine's ``elim``, noting the change for the cage and the row and column."""
        if not State.elim(self, i, mask):
            return False
        self.touched[self.extra.cage_of[i]] = True
        n = self.board.n
        self.stamp[i // n] += 1
        self.stamp[n + i % n] += 1
        return True

    def seen_list(self, name: str) -> list[int]:
        return seen_table(self.seen, name, len(self.stamp))

    def place(self, i: int) -> None:
        """Mark a single-candidate cell placed and clear its digit from its row and column."""
        self.placed[i] = True
        self.unplaced -= 1
        k = self.extra.cage_of[i]
        if k >= 0:
            self.open[k] -= 1
        b = self.cand[i]
        cand = self.cand
        for j in self.board.peers[i]:
            if cand[j] & b:
                self.elim(j, b)


# --- descriptions ------------------------------------------------------------

def _combo_text(op_clue: str, a: Sequence[int]) -> str:
    op = op_clue.lstrip("0123456789")
    sep = {"+": "+", "\u2212": "\u2212", "\u00d7": "\u00d7", "\u00f7": "\u00f7"}.get(op, ",")
    return sep.join(str(d) for d in a)


# --- easy ----------------------------------------------------------------------


# --- techniques ----------------------------------------------------------------

def t_single_cage(g: Geometry, st: CageState, run: Run) -> int:
    b: Board = st.extra  # type: ignore[assignment]
    for k in b.singles:
        idx = b.cells[k]
        if not st.placed[idx[0]]:
            i = idx[0]
            d = b.assigns[k][0][0] if b.assigns[k] else 0
            if not d:
                raise Contradiction("an empty single-cell cage")
            cuts = cut_each(st, idx, [~bit(d)])
            if not cuts:
                continue
            if run.explain:
                run.reason = Text(N_("{cell} is a single-cell cage showing {digit}, so it is {digit}."),
                                  cell=cell_text(i, b.n), digit=d)
            return 1
    return 0


def _last_mask_plain(b: Board, st: CageState, k: int) -> tuple[int, int]:
    """(the open cell, the digits the cage's assignments leave it) of cage ``k`` when all but
    one of its cells are placed: the assignments that agree with the placed digits."""
    idx = b.cells[k]
    j = next(j for j, i in enumerate(idx) if not st.placed[i])
    known = [(jj, st.cand[i].bit_length()) for jj, i in enumerate(idx) if jj != j]
    mask = 0
    for a in b.assigns[k]:
        if all(a[jj] == d for jj, d in known):
            mask |= 1 << (a[j] - 1)
    return idx[j], mask


def _last_mask(b: Board, st: CageState, k: int) -> tuple[int, int]:
    """``_last_mask_plain``, which it must equal (tests/test_kenken_probes.py), remembered per
    board by the placed digits: the rated run asks it at every step for every cage down to one
    open cell, each time over all the cage's assignments."""
    cand, placed = st.cand, st.placed
    key = (k, *[cand[i] if placed[i] else 0 for i in b.cells[k]])
    got = b.last_masks.get(key)
    if got is None:
        got = b.last_masks[key] = _last_mask_plain(b, st, k)
    return got


def t_cage_last(g: Geometry, st: CageState, run: Run) -> int:
    b: Board = st.extra  # type: ignore[assignment]
    for k, left in enumerate(st.open):
        if left != 1:
            continue
        idx = b.cells[k]
        if len(idx) < 2:
            continue
        i, mask = _last_mask(b, st, k)
        cuts = cut_each(st, [i], [~mask])
        if cuts:
            if run.explain:
                have = and_list([str(st.cand[x].bit_length()) for x in idx if x != i])
                run.reason = Text(N_("{cage} already holds {digits}, so {cuts}."),
                                  cage=b.labels[k], digits=have, cuts=describe_cuts(st, cuts))
            return 1
    return 0


def p_cage_last(g: Geometry, st: CageState) -> bool:
    """``t_cage_last``'s probe (``Tech.probe``): whether a cage's last open cell holds a digit
    the placed ones rule out."""
    b: Board = st.extra  # type: ignore[assignment]
    cand, done = st.cand, st.last_done
    for k, left in enumerate(st.open):
        if left == 1 and not done[k] and len(b.cells[k]) > 1:
            i, mask = _last_mask(b, st, k)
            if cand[i] & ~mask:
                return True
            # Its placed cells never change and its last cell only loses candidates: the answer
            # stays no for this state and every state that comes of it (the probe asked again
            # at every step of the rated run, for each cage down to one cell).
            done[k] = True
    return False


def p_single_cage(g: Geometry, st: CageState) -> bool:
    """``t_single_cage``'s probe: whether an open single-cell cage has another digit left."""
    b: Board = st.extra  # type: ignore[assignment]
    cand, placed = st.cand, st.placed
    for k in b.singles:
        i = b.cells[k][0]
        if not placed[i] and (not b.assigns[k] or cand[i] & ~bit(b.assigns[k][0][0])):
            return True
    return False


def t_cage_static(g: Geometry, st: CageState, run: Run) -> int:
    b: Board = st.extra  # type: ignore[assignment]
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
        cuts = cut_each(st, idx, [~m for m in b.static[k]])
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


def p_cage_static(g: Geometry, st: CageState) -> bool:
    """``t_cage_static``'s probe: whether a cage not yet looked at holds a digit its arithmetic
    rules out. A cage where none is left is marked looked at, as the technique marks it
    (candidates only shrink: it never has one again)."""
    b: Board = st.extra  # type: ignore[assignment]
    done, cand = st.static_done, st.cand
    if all(done):  # the usual case after the first few steps
        return False
    for k in range(done.index(False), len(done)):
        idx = b.cells[k]
        if done[k]:
            continue
        if len(idx) > 1 and any(cand[i] & ~m for i, m in zip(idx, b.static[k])):
            return True
        done[k] = True
    return False


# --- medium --------------------------------------------------------------------


_BITS = tuple(1 << (d - 1) if d else 0 for d in range(10))  # digit -> its candidate bit


_POSITIONS = tuple(tuple(range(k)) for k in range(10))  # a cage's positions 0..k-1


def _fitting(live: Sequence[tuple[int, ...]], idx: Sequence[int], cand: Sequence[int],
             at: Sequence[int]) -> list[tuple[int, ...]]:
    """The combinations of ``live`` whose digit at each position of ``at`` is still a
    candidate of the cage's cell there (``idx``), in their order: one pass for up to
    four positions instead of one list per position. The loop at the end is the plain
    filter the unrolled cases must equal (tests/test_engine.py)."""
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


def _refreshed(b: Board, st: CageState, k: int) -> tuple | None:
    """What ``_refresh`` would make of cage ``k``, without changing ``st``: None when no cell
    lost a digit the live assignments use, else (the live assignments it started from, those
    left, the digits they use per cell; both empty when none is left). Remembered per board by
    the cells it filters and their candidates: the rated run refreshes the same cages on a copy
    at every step and drops the copy whenever nothing was found."""
    idx = b.cells[k]
    cand = st.cand
    union = st.union[k]
    stale = [j for j, i in enumerate(idx) if union[j] & ~cand[i]]
    if not stale:
        return None
    live = st.live[k]
    key = (k, *stale, -1, *[cand[idx[j]] for j in stale])
    got = b.refreshes.get(key)
    if got is None or got[0] is not live:  # (another path's assignments: work it out again)
        left = _fitting(live, idx, cand, stale)
        got = b.refreshes[key] = (live, left, _union_of(left))
    return got


def _union_of(live: Sequence[tuple[int, ...]]) -> list[int]:
    """The digits each cell of a cage takes in ``live``, one bit each ([] when it is empty)."""
    union = []
    for column in zip(*live):
        m = 0
        for d in column:
            m |= _BITS[d]
        union.append(m)
    return union


def _refresh(b: Board, st: CageState, k: int) -> list[int]:
    """Filter cage ``k``'s live assignments by the candidates; the digits they still use per cell.
    ``_refresh_plain``, which it must equal (tests/test_kenken_probes.py), through ``_refreshed``'s
    memo (the lists it shares between states are replaced, never changed). Only the probes fill
    that memo (the rated run): a ladder run refreshes each cage once per change and would only
    pay for the keys, so where the memo is empty this is the plain version."""
    if not b.__dict__.get("refreshes"):
        return _refresh_plain(b, st, k)
    got = _refreshed(b, st, k)
    if got is None:
        return st.union[k]
    if not got[1]:
        raise Contradiction(f"{b.labels[k]} has no combination left")
    st.live[k] = got[1]
    st.line_done[k] = False
    st.union[k] = got[2]
    return got[2]


def _refresh_plain(b: Board, st: CageState, k: int) -> list[int]:
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
    new_union = st.union[k] = _union_of(live)
    return new_union


def _live_text(b: Board, st: CageState, k: int) -> str:
    live = st.live[k]
    shown = [_combo_text(b.clues[k], a) for a in live[:4]]
    if len(live) <= 4:
        return join_commas(shown)
    return Plural("{ways} and {count} more", "{ways} and {count} more", len(live) - 4, ways=join_commas(shown))


def _stale_cages(b: Board, st: CageState):
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


def _live_reason(template: str, b: Board, st: CageState, k: int, cuts: list[tuple[int, int]]) -> Text:
    """A cage technique's reason: ``template`` with the cage, its fillings left and the cuts."""
    return Text(template, cage=b.labels[k], ways=_live_text(b, st, k), cuts=describe_cuts(st, cuts))


def _probe_cages(st: CageState, fix: bool) -> bool:
    """``t_cage_fix``'s probe (``fix``) or ``t_cage_combos``': whether, as ``_stale_cages`` goes
    through the cages, one would fix a cell (strike a digit), or have no combination left.
    Changes no candidate and no live assignment; a cage whose combinations match its cells'
    candidates is marked untouched, as ``_stale_cages`` would (it skips such a cage either way)."""
    b: Board = st.extra  # type: ignore[assignment]
    cand, touched, unions, lives = st.cand, st.touched, st.union, st.live
    # A cage that fixes no cell is asked again at every step while its cells stay as they are
    # (its refresh is made on copies only): remembered by its candidates, live assignments
    # and union (the lists are replaced, never changed, so the same objects mean the same).
    nothing = b.fix_nothing
    for k, idx in enumerate(b.cells):
        if not touched[k] or len(idx) < 2:
            continue
        cands = [cand[i] for i in idx]
        union = unions[k]
        if union == cands:
            touched[k] = False
            continue
        if fix:
            key = (k, *cands)
            seen = nothing.get(key)
            if seen is not None and seen[0] is lives[k] and seen[1] is union:
                continue
        got = _refreshed(b, st, k)
        if got is not None:
            if not got[1]:
                return True  # (the technique raises the contradiction)
            union = got[2]
        for u, c in zip(union, cands):
            if (not u & (u - 1) and c != u) if fix else c & ~u:
                return True
        if fix:
            nothing[key] = (lives[k], unions[k])
    return False


def p_cage_fix(g: Geometry, st: CageState) -> bool:
    return _probe_cages(st, True)


def p_cage_combos(g: Geometry, st: CageState) -> bool:
    return _probe_cages(st, False)


def t_cage_fix(g: Geometry, st: CageState, run: Run) -> int:
    """Easy: the combinations of a cage that still fit leave one digit for some cell."""
    b: Board = st.extra  # type: ignore[assignment]
    cand = st.cand
    for k, idx, union in _stale_cages(b, st):
        for j, i in enumerate(idx):
            u = union[j]
            if not u & (u - 1) and cand[i] != u:
                cuts = cut_each(st, [i], [~u])
                if run.explain:
                    run.reason = _live_reason(N_("the only ways to fill {cage} that fit its rows and columns "
                                                 "are {ways}, so {cuts}."), b, st, k, cuts)
                return 1
    return 0


def t_cage_combos(g: Geometry, st: CageState, run: Run) -> int:
    """Medium: strike every digit no remaining combination of a cage uses."""
    b: Board = st.extra  # type: ignore[assignment]
    for k, idx, union in _stale_cages(b, st):
        cuts = cut_each(st, idx, [~u for u in union])
        if cuts and run.explain:
            run.reason = _live_reason(N_("of the ways to fill {cage}, only {ways} fit what its rows and "
                                         "columns allow, so {cuts}."), b, st, k, cuts)
        if cuts:
            return 1
    return 0


@kept_by_identity()
def _cage_lines_memo(geo: Geometry) -> BoundedMemo:
    """Per geometry: ``_cage_lines``' answers, by a cage's cells."""
    return BoundedMemo(1 << 16)


def _cage_lines(g: Geometry, idx: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...], list[int]], ...]:
    """Per row, then column (ascending) that the cells ``idx`` of a cage touch: (the line, the
    positions in ``idx`` of the cells in it, the line's other cells); remembered per geometry
    (cages recur from draft to draft, and ``cage_line`` asks at every step it is tried)."""
    memo = _cage_lines_memo(g)
    got = memo.get(idx)
    if got is None:
        n = g.n
        members = set(idx)
        rows = sorted({i // n for i in idx})
        cols = sorted({n + i % n for i in idx})
        got = memo.put(idx, tuple(
            (li, tuple(j for j, i in enumerate(idx) if (i // n if li < n else n + i % n) == li),
             [i for i in g.houses[li] if i not in members]) for li in rows + cols))
    return got


def _line_cut(g: Geometry, st: CageState, run: Run, k: int, li: int, req: int, others: Sequence[int]) -> bool:
    """``cage_line``'s cut: the digits ``req`` leave the ``others`` cells of line ``li``, because
    cage ``k`` puts them there; whether a candidate went (with its reason when explaining)."""
    cuts = cut_each(st, others, [req] * len(others))
    if cuts and run.explain:
        b: Board = st.extra  # type: ignore[assignment]
        ds = and_list([str(d) for d in digits_of(req)])
        run.reason = Text(N_("every way to fill {cage} puts {digits} in {house}, so no other cell "
                             "of {house} can hold it; {cuts}."),
                          cage=b.labels[k], digits=ds, house=g.names[li], cuts=describe_cuts(st, cuts))
    return bool(cuts)


def t_cage_line(g: Geometry, st: CageState, run: Run) -> int:
    """Hard: a digit every live assignment of a cage puts in one row or column leaves the
    line's other cells. ``t_cage_line_plain`` is the version this must equal
    (tests/test_kenken_probes.py); the cage's lines come from ``_cage_lines``."""
    b: Board = st.extra  # type: ignore[assignment]
    full = full_mask(b.n)
    line_done = st.line_done
    for k, idx in enumerate(b.cells):
        if len(idx) < 2 or line_done[k]:
            continue
        live = st.live[k]
        for li, pos, others in _cage_lines(g, idx):
            req = full
            if len(pos) == 1:
                (j,) = pos
                for a in live:
                    req &= _BITS[a[j]]
                    if not req:
                        break
            elif len(pos) == 2:
                j0, j1 = pos
                for a in live:
                    req &= _BITS[a[j0]] | _BITS[a[j1]]
                    if not req:
                        break
            else:
                for a in live:
                    m = 0
                    for j in pos:
                        m |= _BITS[a[j]]
                    req &= m
                    if not req:
                        break
            if not req:
                continue
            if _line_cut(g, st, run, k, li, req, others):
                return 1
        line_done[k] = True  # nothing new until its assignments shrink again
    return 0


def t_cage_line_plain(g: Geometry, st: CageState, run: Run) -> int:
    """``t_cage_line`` working out each cage's lines afresh at every call: the version it must equal."""
    b: Board = st.extra  # type: ignore[assignment]
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
            others = [i for i in g.houses[li] if i not in members]
            if _line_cut(g, st, run, k, li, req, others):
                return 1
        st.line_done[k] = True  # nothing new until its assignments shrink again
    return 0


def t_line_sum(g: Geometry, st: CageState, run: Run) -> int:
    b: Board = st.extra  # type: ignore[assignment]
    n = b.n
    total = n * (n + 1) // 2
    cand = st.cand
    for li, line in enumerate(g.houses):
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
        cuts = cut_each(st, open_out, [~u for u in union])
        if cuts:
            if run.explain:
                cages = and_list([b.clues[k] for k in inner])
                where = and_list([cell_text(i, n) for i in open_out])
                rest = and_list([str(w) for w in sorted(want)], "or")
                run.reason = Text(N_("{house} adds up to {total}; the cages {cages} lie inside it, so {cells} "
                                     "add up to {rest}; {cuts}."), house=g.names[li], total=total,
                                  cages=cages, cells=where, rest=rest, cuts=describe_cuts(st, cuts))
            return 1
    return 0


# --- the rated run's steps --------------------------------------------------------

@kept_by_identity()
def _line_singles_memo(geo: Geometry) -> dict[int, int]:
    """Per plain Latin geometry: a digit's open cells -> the cells where it has the only place
    of a row or column (its hidden singles), filled as met."""
    return {}


MAX_RUN = 4096  # ``RatedCages.whole``'s bound on entries (``rated.MAX_STEPS``'s)


def _flip(pos: list[int], digits: int, b: int) -> int:
    """Cell bit ``b`` flipped in the open cells ``pos[d]`` of each digit of ``digits`` (a bit
    each), which it returns."""
    rest = digits
    while rest:
        low = rest & -rest
        rest ^= low
        pos[low.bit_length() - 1] ^= b
    return digits


class _Bail(Exception):
    """``RatedCages.whole`` met a state it leaves to the run step by step."""


def _direct_of(line: Sequence[tuple[int, int, int]], pos: Sequence[int],
               house_bits: Sequence[int]) -> tuple[int, int, float, str] | None:
    """``rated._direct`` where no single is open, from per digit its line tuple
    (``RatedCages._line_cells``) and its open cells (``RatedCages._direct``)."""
    # the lines where two digits or more have one to two places, one to three (none, mostly)
    once2 = more2 = once3 = more3 = 0
    for _, two, three in line:
        more2 |= once2 & two
        once2 |= two
        more3 |= once3 & three
        once3 |= three
    if not more3:
        return None
    return direct_on_masks(pos, house_bits, math.inf, more2, more3)


class RatedCages:
    """``Extra.rated_steps`` for a cage board: the step ``rated_run`` takes next wherever a
    single is open, taken in place. ``rated_run`` without it (its singles scan, then each
    technique rated below the easiest single probed in the plan's order and tried on a copy)
    is the plain version this must equal (tests/test_kenken_rated.py).

    What each of the easy and medium cage techniques would find is a function of the
    candidates of its cage's cells alone (a cage's live combinations are those of its
    assignments that fit them, whenever they were last filtered), and a step changes the
    candidates of about two cells, one or two cages, where a board has 6 to 25: so this
    keeps, per technique, the set of cages it would act on, and looks again only at the
    cages whose cells changed since the last call (found by comparing the candidates with a
    snapshot, so it follows whatever the run's own steps did in between); the singles the
    same way, per digit its open cells and the cells where it is a hidden single of a line.
    The technique that acts is then run on the state itself: it finds what the plain run's
    copy would (it acts on the first cage in its own order), and the copy is kept anyway;
    ``cage_fix`` and ``cage_combos`` through ``_combine``, which refreshes the cages they pass
    to the lists kept here. Where no single is open, the direct step (``rated._direct``) is
    read off the same masks. The singles scan and the probes cost two thirds of a small
    KenKen's rated run."""

    def __init__(self, geo: Geometry, board: Board, rows: list[tuple[Tech, float, int]],
                 values: tuple[float, float, float]) -> None:
        n = geo.n
        self.geo, self.board, self.rows, self.n = geo, board, rows, n
        self.naked_value, self.line_value = values[2], values[1]
        self.cells = range(n * n)
        self.first = True  # (``__call__``'s lists made at its first call: ``whole`` needs none)
        self.house_bits = _bitboards(geo)[0]
        self.memo = _line_singles_memo(geo)

    def _begin(self) -> None:
        """The lists ``__call__`` keeps from call to call."""
        n, board = self.n, self.board
        self.seen = [0] * (n * n)  # per cell: its candidates at the last call, 0 when placed
        self.pos = [0] * n          # per digit: the open cells holding it
        # per digit: the cells where it is a hidden single of a line, the lines where it has one or
        # two places, one to three (``_line_cells``)
        self.line = [(0, 0, 0)] * n
        self.naked = 0              # the open cells with one candidate
        self.lines = 0              # the cells a hidden single of a line places
        # per predicate (single cage, cage last, cage static, cage fix, cage combos): the cages
        # whose technique would act, a bit each
        self.fires = [0] * 5
        self.live = list(board.assigns)  # per cage: its assignments that fit the candidates last seen
        self.union = [list(m) for m in board.static]  # per cage: the digits those use, per cell
        self.static_clean = 0  # the cages whose arithmetic rules out no candidate left (for good)

    # The techniques whose cages it keeps, by the ladder's function (the index into ``fires``).
    KNOWN = {}  # filled below, once the techniques are defined
    # ``__call__`` gives None only where no single is open, its ``_direct`` (``rated._direct``'s
    # answer there) found nothing and no row acts: ``rated_run`` then goes to its own search
    # without asking ``rated._direct`` again (False: the run that asks, which must take the same
    # steps; tests/test_kenken_rated.py).
    sees_direct = True

    @property
    def idle_rows(self) -> int:
        """Where ``__call__`` gives None, the plan's first rows that act on no cage (its own rows,
        the plan's first: ``_rows``), which the run's search need not probe again (0: it probes
        them, the plain version; tests/test_kenken_rated.py)."""
        return len(self.rows) if self.skip_idle else 0

    skip_idle = True

    @classmethod
    def make(cls, geo: Geometry, board: Board, advanced: tuple, values: tuple[float, float, float],
             alone: float | None) -> "RatedCages | None":
        """The step taker for this plan, or None where it doesn't know the plan's easy rows or
        the geometry is not the plain Latin square's (then the run searches as ever)."""
        n = geo.n
        if alone is not None or len(geo.houses) != 2 * n or geo.overlaps or not values[2] < values[1]:
            return None
        got = _PLANS.get(id(advanced))  # (a plan is kept per ladder: ``rated._plan``)
        if got is None or got[0] is not advanced or got[1] != values:
            got = _PLANS.put(id(advanced), (advanced, values, cls._rows(advanced, values)))
        return None if got[2] is None else cls(geo, board, got[2], values)

    @classmethod
    def _rows(cls, advanced: tuple, values: tuple[float, float, float]) -> tuple | None:
        """``make``'s rows for this plan (technique, least, index into ``fires``): those rated
        below a hidden single in a line; None where one of them is not known here."""
        rows = []
        for t, least, trial in advanced:
            if least >= values[1]:
                break
            f = cls.KNOWN.get(t.fn)
            if f is None or trial:
                return None
            rows.append((t, least, f))
        return tuple(rows)

    def __call__(self, st: State) -> tuple | None:
        if self.first:
            self._begin()
        cand, placed, seen = st.cand, st.placed, self.seen
        changed = [i for i, c, p, s in zip(self.cells, cand, placed, seen) if (0 if p else c) != s]
        if changed or self.first:
            self._update(st, changed)
        naked = self.naked
        fires = self.fires
        if naked:
            if naked.bit_count() == st.unplaced and self._completes(st):
                return self._finish(st)
            below = self.naked_value
        elif self.lines:
            below = self.line_value
        else:
            # No single open: the run takes a direct step where one is open (``rated._direct``),
            # else the first row of its plan that acts: one of these, where one does (the rows
            # after them rate higher), else the run's own search.
            direct = self._direct()
            if direct is not None:
                i, d, value, name = direct
                st.elim(i, ~_BITS[d])
                st.place(i)
                return name, value, 0
            for t, least, f in self.rows:
                if fires[f]:
                    return self._take(st, t, least, 0)
            return None
        options = (naked | self.lines).bit_count()
        for t, least, f in self.rows:
            if least >= below:
                break
            if fires[f]:
                return self._take(st, t, least, options)
        if naked:
            i = (naked & -naked).bit_length() - 1
            d = seen[i].bit_length()
        else:
            i, d = self._line_single()
        b = 1 << (d - 1)
        was_naked = cand[i] == b
        st.elim(i, ~b)
        st.place(i)
        return ("naked_single" if below == self.naked_value and was_naked else "hidden_single"), below, options

    def whole(self, st: State | None) -> list[tuple] | None:
        """Every entry ``__call__`` would return from ``st`` (None: the blank grid of an order
        of two or more, as ``start`` makes it with no givens) to the end, worked out in one go on
        lists of its own (``st`` is left as it was), or None where the run meets what only its
        own search answers (no single open and no row of the plan acts) or a contradiction: the
        caller then takes the steps one by one. The same choices as ``__call__`` (each technique
        acts on the first cage it would, as ``_take`` and ``_combine`` do), so the same entries:
        the plain version is the run step by step (``rated_run(..., at_once=False)``,
        tests/test_kenken_rated.py).

        Step by step, every call compares the state with a snapshot and the techniques work
        through the engine's state; here each cut knows what it changed. Per cage it keeps a
        key, its cells' candidates side by side (``n`` bits a cell, in the cage's order, and a
        bit above them), and its assignments that fit them, a bit each (``_CageTable``), from
        which a cut strikes those that put a lost digit there. What ``_look`` finds for a cage
        is then a few operations on integers: static acts where the key has a digit outside the
        table's ``static``, combos where it has one outside the live assignments' union, fix
        where such a cell's union is one digit, single cage where a one-cell cage's open cell
        has a digit other than its own; and cage last (one cell open) where combos acts, with
        the same cut: ``_last_mask`` is the open cell's digits in the assignments that agree
        with the placed digits, and those that also fit its candidates are the live ones (the
        placed cells are theirs alone), so it keeps what combos keeps. (``_look`` keeps the
        live assignments and the clean cages from look to look; they are functions of the
        candidates, which only shrink.) The last naked singles complete the grid (``_completes``)
        where the rows and columns hold every digit and every cage has an assignment live."""
        b, n = self.board, self.n
        cells_of, assigns, cage_of = b.cells, b.assigns, b.cage_of
        house_bits, peer_bits = _bitboards(self.geo)
        naked_value, line_value = self.naked_value, self.line_value
        if not all(assigns) or min(cage_of) < 0:
            return None
        full = (1 << n) - 1
        if st is None:
            unplaced = n * n
            cand, placed = [full] * unplaced, [False] * unplaced
        else:
            cand, placed, unplaced = list(st.cand), list(st.placed), st.unplaced
        count = len(cells_of)
        # per cage: its key, its table, its open cells, its assignments that fit (a bit each); per
        # cell: where its candidates sit in its cage's key, and per digit the assignments of its
        # cage that put that digit there
        keys, tables, opened, lives = [], [], [], []
        shift, uses_of = [0] * (n * n), [()] * (n * n)
        for idx, ass in zip(cells_of, assigns):
            table = _table_of(ass, n)
            live = table.every
            if st is None:  # (every candidate open: the key's every bit set, nothing struck or placed)
                for i, at, use in zip(idx, range(0, n * len(idx), n), table.uses):
                    shift[i] = at
                    uses_of[i] = use
                keys.append((2 << n * len(idx)) - 1)
                tables.append(table)
                opened.append(len(idx))
                lives.append(live)
                continue
            key = 1 << n * len(idx)
            left = 0
            for j, i in enumerate(idx):
                shift[i] = n * j
                uses_of[i] = use = table.uses[j]
                c = cand[i]
                key |= c << n * j
                lost = full & ~c
                while lost:
                    low = lost & -lost
                    lost ^= low
                    live &= ~use[low.bit_length() - 1]
                if not placed[i]:
                    left += 1
            keys.append(key)
            tables.append(table)
            opened.append(left)
            lives.append(live)
        pos = [0] * n  # per digit: its open cells
        done = [0] * n  # per digit: its placed cells
        naked = 0
        if unplaced == len(cand) and cand.count(full) == len(cand):  # (a puzzle with no givens, at its start)
            pos = [(1 << len(cand)) - 1] * n
        else:
            for i in self.cells:
                c = cand[i]
                if placed[i]:
                    done[c.bit_length() - 1] |= 1 << i
                    continue
                if not c & (c - 1):
                    naked |= 1 << i
                while c:
                    low = c & -c
                    c ^= low
                    pos[low.bit_length() - 1] |= 1 << i
        # per cage: the rows that act on it (a bit each, by their index into ``fires``, as
        # ``_look`` finds them); ``acts``: per row of the plan, in its order, the cages it acts on,
        # ``count`` bits each (so its lowest bit is the first row's first cage)
        codes = [0] * count
        ones = 0  # the one-cell cages
        for k in b.singles:
            ones |= 1 << k
        acts = 0
        rows, spread, below_naked, below_line, every = _row_masks(self.rows, count, naked_value, line_value)
        singles = [0] * n  # per digit: the cells where it has the only place of a line
        indices = _indices(n)
        memo = _singles_memo(self.geo)
        parts = None  # (where the houses are the plain Latin square's: ``_latin_line_singles``')
        if n <= PAIR_ROWS_MAX:
            houses, parts = _pair_rows(n)
            if houses != house_bits:
                parts = None
        digits = full  # the digits whose open cells changed since ``singles`` was made
        dirty = (1 << count) - 1  # the cages to look at again
        out: list[tuple] = []

        def strike(k: int, over: int) -> None:
            """Cage ``k`` loses the candidates ``over`` (laid out as its key, a part of it): a
            placed cell that loses its digit is left with none."""
            nonlocal naked, digits, dirty
            keys[k] ^= over
            dirty |= 1 << k
            idx = cells_of[k]
            live = lives[k]
            j = 0
            while over:
                lost = over & full
                if lost:
                    i = idx[j]
                    new = cand[i] ^ lost
                    if not new:
                        raise _Bail
                    cand[i] = new
                    digits |= lost
                    bit = 1 << i
                    use = uses_of[i]
                    for d in indices[lost]:
                        pos[d] ^= bit
                        live &= ~use[d]
                    if not new & (new - 1):
                        naked |= bit
                over >>= n
                j += 1
            lives[k] = live

        def place(i: int) -> None:
            """Cell ``i`` placed (its one candidate), the digit struck from its peers."""
            nonlocal naked, digits, dirty, unplaced
            c = cand[i]
            d = c.bit_length() - 1
            bit = 1 << i
            if done[d] & peer_bits[i]:  # (a peer placed with that digit: struck, it is empty)
                raise _Bail
            placed[i] = True
            unplaced -= 1
            k = cage_of[i]
            opened[k] -= 1
            if opened[k] < 2:  # (what a cage's code reads besides its key)
                dirty |= 1 << k
            digits |= c
            naked &= ~bit
            done[d] |= bit
            hit = pos[d] & peer_bits[i]
            pos[d] &= ~(hit | bit)
            while hit:
                low = hit & -hit
                hit ^= low
                j = low.bit_length() - 1
                new = cand[j] ^ c
                if not new:
                    raise _Bail
                cand[j] = new
                k = cage_of[j]
                keys[k] ^= c << shift[j]
                lives[k] &= ~uses_of[j][d]
                dirty |= 1 << k
                if not new & (new - 1):
                    naked |= low

        if n ** 3 + n * n > MAX_RUN:  # (each step strikes a candidate or places a cell)
            return None
        try:
            while unplaced:
                if digits:
                    for d in indices[digits]:
                        x = pos[d]
                        got = memo.get(x, -1)
                        if got < 0:
                            if parts:
                                got = _latin_line_singles(x, parts)
                            else:  # (``_line_singles``, written out: a call fewer a miss)
                                got = 0
                                for hb in house_bits:
                                    y = x & hb
                                    if not y & (y - 1):
                                        got |= y
                            got = memo.put(x, got)
                        singles[d] = got
                    digits = 0
                lines = 0  # the cells a hidden single of a line places, any digit
                for x in singles:
                    lines |= x
                while dirty:  # the cages that changed, looked at again
                    low = dirty & -dirty
                    dirty ^= low
                    k = low.bit_length() - 1
                    if ones & low:
                        code = 1 if opened[k] and keys[k] & tables[k].outside else 0
                    else:
                        live = lives[k]
                        if not live:  # (no assignment fits)
                            return None
                        table = tables[k]
                        got = table.unions.get(live)
                        if got is None:
                            got = table.unions.put(live, table.union(live))
                        key = keys[k]
                        code = 4 if key & ~table.static else 0
                        combos = key & ~got[0]
                        if combos:
                            code |= 16
                            if combos & got[1]:
                                code |= 8
                            if opened[k] == 1:
                                code |= 2
                    flip = code ^ codes[k]
                    if flip:
                        codes[k] = code
                        acts ^= spread[flip] << k
                if naked:
                    if naked.bit_count() == unplaced and 0 not in lives and self._latin(cand):
                        out.append(("naked_single", naked_value, unplaced, unplaced))
                        return out
                    below = naked_value
                    acting = acts & below_naked
                elif lines:
                    below = line_value
                    acting = acts & below_line
                else:
                    line = [(0, 0, 0)] * n
                    self._lines(full, pos, line)
                    direct = _direct_of(line, pos, house_bits)
                    if direct is not None:
                        i, d, value, name = direct
                        strike(cage_of[i], (cand[i] & ~_BITS[d]) << shift[i])
                        place(i)
                        out.append((name, value, 0))
                        continue
                    below = math.inf
                    acting = acts & every
                options = (naked | lines).bit_count()
                if acting:  # the first row that acts, on the first cage it acts on (``_take``, ``_combine``)
                    r, k = divmod((acting & -acting).bit_length() - 1, count)
                    t, least, f = rows[r]
                    table, key = tables[k], keys[k]
                    if f == 0:
                        strike(k, key & table.outside)
                    elif f == 2:
                        strike(k, key & ~table.static)
                    else:
                        union, one = table.unions.get(lives[k]) or table.union(lives[k])
                        if f == 3:  # (its first cell that combos would leave one digit)
                            over = key & ~union & one
                            low = (over & -over).bit_length() - 1
                            strike(k, over & full << low - low % n)
                        else:
                            strike(k, key & ~union)
                    out.append((t, least, options))
                    continue
                if naked:
                    i = (naked & -naked).bit_length() - 1
                    name = "naked_single"
                elif lines:
                    i = (lines & -lines).bit_length() - 1
                    strike(cage_of[i], (cand[i] & ~(1 << self._line_digit(i, cand[i], pos))) << shift[i])
                    name = "hidden_single"
                else:
                    return None
                place(i)
                out.append((name, below, options))
        except (_Bail, Contradiction):
            return None
        return out

    def _completes(self, st: State) -> bool:
        """Whether every open cell's one candidate (the open cells are all naked singles) makes,
        with the placed digits, a grid that keeps the lines and every cage: then it is a solution
        the candidates allow, which no technique's sound cut can touch, so each step left places a
        naked single (the easiest open; rows rated below it act on nothing) and the rest stay
        naked singles, one option fewer a step."""
        cand = st.cand
        if not self._latin(cand):
            return False
        b = self.board
        for idx, ass in zip(b.cells, b.assigns):
            if tuple(cand[i].bit_length() for i in idx) not in ass:
                return False
        return True

    def _latin(self, cand: Sequence[int]) -> bool:
        """Whether every row and column of ``cand`` (a candidate or more a cell) holds every digit."""
        n = self.n
        full = (1 << n) - 1
        for r in range(n):
            row = col = 0
            for c in range(n):
                row |= cand[r * n + c]
                col |= cand[c * n + r]
            if row != full or col != full:
                return False
        return True

    def _finish(self, st: State) -> tuple[str, float, int, int]:
        """The naked singles that end the run (``_completes``), placed lowest cell first as step
        by step, as one entry: (technique, value, options of the first, how many)."""
        count = st.unplaced
        placed = st.placed
        for i in self.cells:
            if not placed[i]:
                st.place(i)
        return "naked_single", self.naked_value, count, count

    def _take(self, st: CageState, t: Tech, least: float, options: int) -> tuple[str, float, int]:
        """Technique ``t``'s step, taken in place (what it keeps says it acts)."""
        run = Run()
        run.best = True
        f = self.KNOWN[t.fn]
        if not (self._combine(st, f == 4) if f >= 3 else t.fn(self.geo, st, run)):  # pragma: no cover
            raise RuntimeError(f"{t.name} found nothing where its cages said it would")
        return t.name, (run.value if run.value is not None else least), options

    def _combine(self, st: CageState, combos: bool) -> int:
        """``t_cage_fix`` (``combos``: ``t_cage_combos``) without its explanation, each cage it
        passes refreshed as ``_stale_cages`` and ``_refresh_plain`` do, to the same lists: the
        assignments that fit the candidates, which ``_look`` has just filtered (in the
        assignments' order, as the refresh keeps them; the lists are replaced, never changed,
        so a state may share them)."""
        b = self.board
        cand, touched, unions = st.cand, st.touched, st.union
        for k, idx in enumerate(b.cells):
            if not touched[k] or len(idx) < 2:
                continue
            union = unions[k]
            cands = [cand[i] for i in idx]
            if union == cands:
                touched[k] = False
                continue
            if any(u & ~c for u, c in zip(union, cands)):  # stale: the refresh filters
                if not self.live[k]:
                    raise Contradiction(f"{b.labels[k]} has no combination left")
                st.live[k] = self.live[k]
                st.line_done[k] = False
                union = unions[k] = self.union[k]
            if combos:
                if cut_each(st, idx, [~u for u in union]):
                    return 1
                continue
            for i, u, c in zip(idx, union, cands):
                if not u & (u - 1) and c != u:
                    cut_each(st, [i], [~u])
                    return 1
        return 0

    def _direct(self) -> tuple[int, int, float, str] | None:
        """``rated._direct`` where no single is open, read off the digits' open cells: on the
        plain Latin square (no overlaps of two or more cells) its hidden pair or triple, one
        of a house's digits confined to as many of its cells, whose other digits then leave
        a digit one place in the house; the easiest, then the lowest cell."""
        return _direct_of(self.line, self.pos, self.house_bits)

    def _line_single(self) -> tuple[int, int]:
        """(cell, digit) of the easiest hidden single: the lowest cell, then its row before its
        column and the lowest digit (``rated.SinglesScan._best``'s order)."""
        lines = self.lines
        i = (lines & -lines).bit_length() - 1
        return i, self._line_digit(i, self.seen[i], self.pos) + 1

    def _line_digit(self, i: int, m: int, pos: Sequence[int]) -> int:
        """The digit (bit index) of ``_line_single``'s cell ``i``, its candidates ``m``."""
        b = 1 << i
        house_bits = self.house_bits
        for h in self.geo.houses_of[i]:
            hb = house_bits[h]
            rest = m
            while rest:
                low = rest & -rest
                rest ^= low
                d = low.bit_length() - 1
                if pos[d] & hb == b:
                    return d
        raise AssertionError("a hidden single without its digit")  # pragma: no cover

    def _update(self, st: State, changed: list[int]) -> None:
        seen, pos, cand, placed = self.seen, self.pos, st.cand, st.placed
        naked = self.naked
        digits = 0
        cage_of = self.board.cage_of
        dirty = set(range(len(self.board.cells))) if self.first else set()
        self.first = False
        for i in changed:
            a = 0 if placed[i] else cand[i]
            flip = a ^ seen[i]
            seen[i] = a
            digits |= _flip(pos, flip, 1 << i)
            b = 1 << i
            if a and not a & (a - 1):
                naked |= b
            else:
                naked &= ~b
            dirty.add(cage_of[i])
        self.naked = naked
        if digits:
            self.lines = self._lines(digits, pos, self.line)
        for k in dirty:
            if k >= 0:
                self.static_clean = _look(self.board, k, st, st.open, self.live, self.union, self.fires,
                                          self.static_clean)

    def _lines(self, digits: int, pos: Sequence[int], line: list[tuple[int, int, int]]) -> int:
        """``line`` brought up to date for ``digits`` (a bit each; ``pos``: per digit its open
        cells) from ``_line_cells``' memo; the cells a hidden single of a line places, any digit."""
        memo = self.memo
        while digits:
            low = digits & -digits
            digits ^= low
            d = low.bit_length() - 1
            x = pos[d]
            got = memo.get(x)
            if got is None:
                if len(memo) > 1 << 16:
                    memo.clear()
                got = memo[x] = self._line_cells(x)
            line[d] = got
        lines = 0
        for x in line:
            lines |= x[0]
        return lines

    def _line_cells(self, x: int) -> tuple[int, int, int]:
        """(the cells where a digit whose open cells are ``x`` has the only place of a line, the
        lines (a bit each) where it has one or two places, those where it has one to three)."""
        return line_places(self.house_bits, x)


@lru_cache(maxsize=16)
def _indices(n: int) -> tuple[tuple[int, ...], ...]:
    """Per set of digits of an order-``n`` grid (a bit each), their indices, lowest first."""
    return tuple(tuple(d for d in range(n) if m >> d & 1) for m in range(1 << n))


def _row_masks(rows: tuple, count: int, naked_value: float, line_value: float) -> tuple:
    """For ``RatedCages.whole`` on a board of ``count`` cages: its rows as (name, least, index
    into ``fires``); per set of rows (a bit each, by that index), a bit for each of them that
    the plan has, the ``r``-th of its rows at ``r * count`` (``acts`` for the first cage); the
    rows tried before a naked single, before a hidden single, at all, ``count`` bits each.
    Kept per plan's rows (``_PLANS``) and count."""
    got = _ROW_MASKS.get((id(rows), count))
    if got is None or got[0] is not rows:
        spread = tuple([sum([1 << r * count for r, (_, _, f) in enumerate(rows) if x >> f & 1]) for x in range(1 << 5)])
        below_naked = below_line = every = 0
        for r, (t, least, f) in enumerate(rows):
            cages = (1 << count) - 1 << r * count
            every |= cages
            if least < naked_value:
                below_naked |= cages
            if least < line_value:
                below_line |= cages
        named = tuple((t.name, least, f) for t, least, f in rows)
        got = _ROW_MASKS.put((id(rows), count), (rows, (named, spread, below_naked, below_line, every)))
    return got[1]


_PLANS = BoundedMemo(64)  # ``RatedCages.make``'s rows, by the plan's id (checked by identity)
_ROW_MASKS = BoundedMemo(1024)  # ``_row_masks``', by the rows' id (checked by identity) and count


@kept_by_identity()
def _singles_memo(geo: Geometry) -> BoundedMemo:
    """Per plain Latin geometry: a digit's open cells -> ``_line_singles`` of them, filled as met."""
    return BoundedMemo(1 << 16)


def _line_singles(house_bits: Sequence[int], x: int) -> int:
    """The cells where a digit whose open cells are ``x`` has the only place of a house:
    ``rated.line_places(house_bits, x)[0]``, which it must equal (tests/test_kenken_rated.py),
    without the houses that hold two or three."""
    line = 0
    for hb in house_bits:
        y = x & hb
        if not y & (y - 1):
            line |= y
    return line


# The largest order whose line singles ``RatedCages.whole`` reads two rows at a time
# (``_pair_rows``: a table of ``4 ** n`` entries, made once a process).
PAIR_ROWS_MAX = 5


@lru_cache(maxsize=8)
def _pair_rows(n: int) -> tuple[tuple[int, ...], tuple]:
    """For ``_latin_line_singles`` on an order-``n`` grid: the houses of the plain Latin square as
    ``_bitboards`` gives them (rows, then columns), and (per two rows' cells, ``2n`` bits, the
    upper row lowest: the cells where a digit has its row's only place, the columns where it has
    one place of the two, the columns where it has one or two; where each pair of rows starts;
    a pair's mask; a bit at the start of each row)."""
    full = (1 << n) - 1
    houses = tuple(full << n * r for r in range(n)) + tuple(sum(1 << r * n + c for r in range(n)) for c in range(n))
    table = []
    for v in range(1 << 2 * n):
        a, b = v & full, v >> n
        table.append(((a if not a & (a - 1) else 0) | (b if not b & (b - 1) else 0) << n, a ^ b, a | b))
    return houses, (tuple(table), tuple(range(0, n * n, 2 * n)), (1 << 2 * n) - 1, sum(1 << r * n for r in range(n)))


def _latin_line_singles(x: int, parts: tuple) -> int:
    """``_line_singles`` of the plain Latin square's houses (``_pair_rows``' ``parts``), which it
    must equal (tests/test_kenken_rated.py): the rows read off the table two at a time, and the
    columns where the digit has exactly one place tallied pair by pair (a cell of such a column
    is its one place), instead of a test per house."""
    table, starts, pair, spread = parts
    line = once = some = 0
    for s in starts:
        rows, one, seen = table[x >> s & pair]
        line |= rows << s
        once = once & ~seen | one & ~some
        some |= seen
    return line | x & once * spread


class _CageTable:
    """What ``RatedCages.whole`` keeps per cage table (its assignments, which cages of the same
    shape, operation and target share: ``_shape_parts``) on an order-``n`` grid: per cell (in
    the cage's order), per digit (0-based), the assignments (a bit each, in their order) that
    put that digit there (``uses``); the digits some assignment gives each cell (``static``,
    laid out as ``whole``'s keys), for a one-cell cage the digits its assignment does not give
    it (``outside``); per set of assignments met, the digits they give each cell and the cells
    they give one digit (``unions``, filled as met)."""

    __slots__ = ("assigns", "n", "every", "uses", "static", "outside", "unions")

    def __init__(self, assigns: tuple[tuple[int, ...], ...], n: int) -> None:
        self.assigns, self.n = assigns, n
        self.every = (1 << len(assigns)) - 1
        self.uses = _uses_of(assigns, n)
        self.unions = BoundedMemo(1 << 8)
        self.static = self.union(self.every)[0]
        self.outside = ((1 << n) - 1) & ~_BITS[assigns[0][0]]

    def union(self, live: int) -> tuple[int, int]:
        """(the digits the assignments ``live`` give each cell, laid out as a key; the cells
        (all ``n`` bits of each) that they give one digit)."""
        n = self.n
        union = 1 << n * len(self.uses)
        if not live & (live - 1):  # (one assignment: its digits, one a cell)
            for j, d in enumerate(self.assigns[live.bit_length() - 1]):
                union |= _BITS[d] << n * j
            return union, (1 << n * len(self.uses)) - 1
        one = 0
        for j, use in enumerate(self.uses):
            u = 0
            for d, x in enumerate(use):
                if x & live:
                    u |= 1 << d
            union |= u << n * j
            if not u & (u - 1):
                one |= ((1 << n) - 1) << n * j
        return union, one


def _uses_of(assigns: tuple[tuple[int, ...], ...], n: int) -> list[list[int]]:
    """Per cell, per digit (0-based): the assignments (a bit each, in their order) that put that
    digit there, read off the columns as ``_cage_uses_by_columns`` does (a column's digits as
    bytes, that digit to "1" and the others to "0", in base 2). ``_uses_plain`` is the plain
    version."""
    out = []
    for column in zip(*assigns):
        col = bytes(reversed(column))  # (the first assignment the lowest bit)
        use = [0] * n
        for d in set(column):
            use[d - 1] = int(col.translate(_DIGIT_ONE[d]), 2)
        out.append(use)
    return out


def _uses_plain(assigns: tuple[tuple[int, ...], ...], n: int) -> list[list[int]]:
    """``_uses_of``, one assignment at a time."""
    out = [[0] * n for _ in assigns[0]]
    for t, a in enumerate(assigns):
        for j, d in enumerate(a):
            out[j][d - 1] |= 1 << t
    return out


def _table_of(assigns: tuple[tuple[int, ...], ...], n: int) -> _CageTable:
    """The table of a cage with these assignments on an order-``n`` grid, kept while they live."""
    got = _TABLES.get(id(assigns))
    if got is None or got.assigns is not assigns or got.n != n:
        got = _TABLES.put(id(assigns), _CageTable(assigns, n))
    return got


_TABLES = BoundedMemo(1 << 9)  # ``_table_of``'s, by the assignments' id (checked by identity)


def _look(b: Board, k: int, st, opened: Sequence[int], live: list, union: list, fires: list[int],
          clean: int) -> int:
    """What each technique would do with cage ``k`` now (``p_single_cage``, ``p_cage_last``,
    ``p_cage_static``, ``p_cage_fix``, ``p_cage_combos`` for that cage alone), into ``fires``
    (a bit per cage each); ``st``: its ``cand`` and ``placed``; ``opened``: per cage its open
    cells; ``live``, ``union``: per cage the assignments that fit the candidates last seen and
    the digits they use per cell, brought up to date here (an empty list where none is left);
    ``clean``: the cages whose arithmetic rules out no candidate left, returned with ``k``
    added where that is so now (candidates only shrink)."""
    idx = b.cells[k]
    bit = 1 << k
    cand = st.cand
    if len(idx) == 1:
        i = idx[0]
        c = 0 if st.placed[i] else cand[i]
        ass = b.assigns[k]
        if c and (not ass or c & ~_BITS[ass[0][0]]):
            fires[0] |= bit
        else:
            fires[0] &= ~bit
        return clean
    if not clean & bit:
        for i, m in zip(idx, b.static[k]):
            if cand[i] & ~m:
                fires[2] |= bit
                break
        else:
            fires[2] &= ~bit
            clean |= bit
    if opened[k] == 1:
        i, mask = _last_mask(b, st, k)
        if cand[i] & ~mask:
            fires[1] |= bit
        else:
            fires[1] &= ~bit
    else:
        fires[1] &= ~bit
    u = union[k]
    stale = [j for j, i in enumerate(idx) if u[j] & ~cand[i]]
    if stale:
        left = live[k] = _fitting(live[k], idx, cand, stale)
        u = union[k] = _union_of(left) if left else [0] * len(idx)
    fix = combos = False
    for m, i in zip(u, idx):
        if cand[i] & ~m:
            combos = True
            if not m & (m - 1):
                fix = True
                break
    if fix:
        fires[3] |= bit
    else:
        fires[3] &= ~bit
    if combos:
        fires[4] |= bit
    else:
        fires[4] &= ~bit
    return clean


# --- expert --------------------------------------------------------------------


# The ladder, in the order the driver tries the techniques (cheap ones first in a tier).
LADDER = Ladder(
    Tech("single_cage", Level.EASY, t_single_cage, 0.2, 1.0, p_single_cage, title=N_("Single-cell cages"),
         description=N_("A cage of one cell shows its own digit: write it in.")),
    Tech("naked_single", Level.EASY, t_naked_single, 0.5, 2.3, title=N_("Only digit left"),
         description=N_("When every other digit is already in a cell's row or column, the last one goes there.")),
    Tech("cage_last", Level.EASY, t_cage_last, 0.7, 1.2, p_cage_last, title=N_("Last cell of a cage"),
         description=N_("When all but one cell of a cage are filled, the target fixes the last one.")),
    Tech("cage_static", Level.EASY, t_cage_static, 1.0, 1.5, p_cage_static, title=N_("Cage arithmetic"),
         description=N_("Some targets can be made only a few ways: two cells that add up to 3 hold 1 and 2, so the cells take only those digits.")),
    Tech("cage_fix", Level.EASY, t_cage_fix, 1.5, 2.0, p_cage_fix, title=N_("Cage fixes a cell"),
         description=N_("Of the ways to fill a cage, only some fit the digits already in its rows and columns; when they all put the same digit in a cell, write it in.")),
    Tech("cage_combos", Level.MEDIUM, t_cage_combos, 2.0, 2.6, p_cage_combos, title=N_("Cage combinations"),
         description=N_("List the ways to fill a cage, strike those that clash with its rows and columns, and cross out every digit no remaining way uses.")),
    Tech("hidden_single", Level.MEDIUM, t_hidden_single, 2.0, 2.8, title=N_("Only place left"),
         description=N_("When a digit fits only one cell of a row or column, it goes there.")),
    Tech("cage_line", Level.HARD, t_cage_line, 4.0, 3.6, title=N_("Cage forces a digit into a line"),
         description=N_("If every way to fill a cage puts some digit in the same row or column, no other cell of that line can have it.")),
    Tech("naked_pair", Level.HARD, t_naked_pair, 4.0, 3.6, title=N_("Naked pair"),
         description=N_("Two cells of a line that can only hold the same two digits take those digits away from the rest of the line.")),
    Tech("hidden_pair", Level.HARD, t_hidden_pair, 5.0, 3.8, title=N_("Hidden pair"),
         description=N_("Two digits that fit only in the same two cells of a line leave those cells no other digit.")),
    Tech("line_sum", Level.HARD, t_line_sum, 5.0, 4.0, title=N_("Line sum"),
         description=N_("A row or column holds each digit once, so it always adds up to the same total (15 on a 5\u00d75 grid: 1 + 2 + 3 + 4 + 5; 21 on a 6\u00d76); subtract the cages lying inside it to learn what the other cells add up to.")),
    Tech("naked_triple", Level.HARD, t_naked_triple, 6.0, 4.2, title=N_("Naked triple"),
         description=N_("Three cells of a line that hold only three digits between them take those digits away from the rest of the line.")),
    Tech("hidden_triple", Level.HARD, t_hidden_triple, 7.0, 4.4, title=N_("Hidden triple"),
         description=N_("Three digits that fit only in the same three cells of a line leave those cells no other digit.")),
    Tech("trial", Level.EXPERT, t_trial, 12.0, 5.5, title=N_("Trial"),
         description=N_("Assume one candidate and follow it with the simpler techniques; if that leads to a contradiction, strike it.")),
)
TECHNIQUE_LEVEL, TECHNIQUE_WEIGHT = LADDER.tier, LADDER.weight
RatedCages.KNOWN.update({t_single_cage: 0, t_cage_last: 1, t_cage_static: 2, t_cage_fix: 3, t_cage_combos: 4})


def score_of(counts: dict[str, int], level: Level, n: int) -> float:
    """The shared score (``bookgen.core.score``) with this ladder's weights and tiers."""
    return work_score(counts, TECHNIQUE_WEIGHT, TECHNIQUE_LEVEL, level, n * n)


# --- the generator's fast path -------------------------------------------------

def medium_solves(board: Board) -> bool:
    """Whether the easy and medium tiers alone fill the grid, as ``solve`` up to MEDIUM would."""
    return open_after(board, Level.MEDIUM) == []


class _Marks:
    """What ``_last_mask`` reads of a state (its candidates and placed cells): ``easy_ladder``'s lists."""

    __slots__ = ("cand", "placed")

    def __init__(self, cand: list[int], placed: list[bool]) -> None:
        self.cand, self.placed = cand, placed


EASY_NAMES = ("single_cage", "naked_single", "cage_last", "cage_static", "cage_fix")  # the easy tier, in order


def easy_ladder(board: Board) -> tuple[bool, dict[str, int], list[bool]]:
    """``houses.solve`` up to the easy tier from a new ``CageState`` of ``board``, which it must
    equal (tests/test_kenken.py): (solved, the techniques' counts, the placed cells); the same
    ``Contradiction``. The state is lists of this call and the five techniques (``EASY_NAMES``,
    ``LADDER``'s order) are written out in one loop, each acting where its function acts,
    the ladder's restarts and its placing of the cells a technique left one digit (not counted
    as naked singles) kept: the generator's judge runs the counted easy ladder on every
    unique small draft, where the calls between state, techniques and ``cut_each`` were most
    of the run."""
    n = board.n
    peers = board.geo.peers
    cells, assigns, static, cage_of = board.cells, board.assigns, board.static, board.cage_of
    cand = [full_mask(n)] * (n * n)
    placed = [False] * (n * n)
    marks = _Marks(cand, placed)
    unplaced = n * n
    fresh: list[int] = []
    queued = 0
    opened = [len(idx) for idx in cells]
    every = full_mask(n) | 1 << n
    union = [[every] * len(idx) for idx in cells]
    live = list(assigns)
    static_done = [False] * len(cells)
    touched = [True] * len(cells)
    multi = [k for k, idx in enumerate(cells) if len(idx) > 1]
    singles = [(cells[k][0], k) for k in board.singles]
    counts: dict[str, int] = {}

    def cut(i: int, mask: int) -> int:  # ``CageState.elim``; ``strike`` only where it raises (a call fewer, dozens a draft)
        new = cand[i] & ~mask
        if new == cand[i]:
            return 0
        if not new:
            strike(cand, i, mask, n)  # (raises its ``Contradiction``)
        cand[i] = new
        if not new & (new - 1):
            fresh.append(i)
        touched[cage_of[i]] = True
        return new

    def place(i: int) -> None:  # ``CageState.place`` (its count of open cells: the loop's)
        placed[i] = True
        if cage_of[i] >= 0:
            opened[cage_of[i]] -= 1
        digit = cand[i]
        for j in peers[i]:
            if cand[j] & digit:
                cut(j, digit)

    while unplaced:
        mark = len(fresh)
        name = ""
        for i, k in singles:  # t_single_cage
            if not placed[i]:
                if not assigns[k]:
                    raise Contradiction("an empty single-cell cage")
                if cut(i, ~_BITS[assigns[k][0][0]]):
                    name = "single_cage"
                    break
        if not name:  # t_naked_single
            count = 0
            while queued < len(fresh):
                i = fresh[queued]
                queued += 1
                if not placed[i] and not cand[i] & (cand[i] - 1):
                    place(i)
                    unplaced -= 1
                    count += 1
            if count:
                counts["naked_single"] = counts.get("naked_single", 0) + count
                continue
            for k in multi:  # t_cage_last
                if opened[k] == 1:
                    i, mask = _last_mask(board, marks, k)
                    if cut(i, ~mask):
                        name = "cage_last"
                        break
        if not name and not all(static_done):  # t_cage_static
            for k in range(static_done.index(False), len(static_done)):
                if static_done[k]:
                    continue
                static_done[k] = True
                idx = cells[k]
                if len(idx) < 2:
                    continue
                done = False
                for i, m in zip(idx, static[k]):
                    if cand[i] & ~m:
                        done = cut(i, ~m) or done
                if done:
                    name = "cage_static"
                    break
        if not name:  # t_cage_fix, its cages as ``_stale_cages`` gives them
            for k in multi:
                if not touched[k]:
                    continue
                idx = cells[k]
                now = [cand[i] for i in idx]
                if union[k] == now:
                    touched[k] = False
                    continue
                have = union[k]
                stale = [j for j, c in enumerate(now) if have[j] & ~c]
                if stale:  # ``_refresh_plain``
                    left = _fitting(live[k], idx, cand, stale)
                    if not left:
                        raise Contradiction(f"{board.labels[k]} has no combination left")
                    live[k] = left
                    have = union[k] = _union_of(left)
                for j, i in enumerate(idx):
                    u = have[j]
                    if not u & (u - 1) and cand[i] != u:
                        cut(i, ~u)
                        name = "cage_fix"
                        break
                if name:
                    break
        if not name:
            return False, counts, placed
        counts[name] = counts.get(name, 0) + 1
        for i in fresh[mark:]:  # the cells the technique left one digit are its result
            if not placed[i] and not cand[i] & (cand[i] - 1):
                place(i)
                unplaced -= 1
    board.check(marks)  # type: ignore[arg-type]
    return True, counts, placed


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
    cells, cage_of, peers, lines = board.cells, board.cage_of, board.geo.peers, board.geo.houses
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
                last = medium
                if not last:  # (one cell of the cage left with two digits or more)
                    many = 0
                    for i in idx:
                        if cand[i] & (cand[i] - 1):
                            many += 1
                    last = many == 1
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
        load(ls.solver, cage_clauses(n, cages))
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
        for a solver whose answer is a plain yes or no (the final proof, where loading
        fewer clauses costs less than the propagation they would save)."""
        super().__init__(geometry(n))
        self.lean = lean

    def _write_cage(self, act: int, cells: Sequence[int], assigns: Sequence[tuple[int, ...]]) -> None:
        """Cage clauses behind the switch ``act``, added in one call (``sat.load``): a hard
        puzzle's drafts bring some 40 new cages of 200 clauses each."""
        n = self.n
        if not assigns:
            self.add([-act])
            return
        if len(cells) == 1:
            self.add([-act] + [cells[0] * n + a[0] for a in assigns])
            return
        out: list[list[int]] = []
        if len(cells) == 2:
            a_cell, b_cell = cells
            partners: dict[int, list[int]] = {}
            for x, y in assigns:
                partners.setdefault(a_cell * n + x, []).append(b_cell * n + y)
                partners.setdefault(b_cell * n + y, []).append(a_cell * n + x)
            for i in cells[:1] if self.lean else cells:
                out += [[-act, -v, *partners.get(v, ())] for v in range(i * n + 1, i * n + n + 1)]
            load(self.solver, out)
            return
        first = self.next_var  # a selector per assignment, numbered as ``fresh`` would
        self.next_var += len(assigns)
        out.append([-act, *range(first, first + len(assigns))])
        # "selector s sets cell i to d", per assignment and cell in order, built by C loops:
        # each assignment's literals (i * n + d), each selector's negation once per cell.
        flat = list(map(operator.add, cycle([i * n for i in cells]), chain.from_iterable(assigns)))
        negs = list(chain.from_iterable(zip(*[range(-first, -first - len(assigns), -1)] * len(cells))))
        out += zip(negs, flat)
        if self.lean:
            load(self.solver, out)
            return
        support: dict[int, list[int]] = {}  # per literal, the selectors setting it, in order
        for v, s in zip(flat, negs):
            got = support.get(v)
            if got is None:
                support[v] = [-s]
            else:
                got.append(-s)
        for i in cells:
            out += [[-act, -v, *support.get(v, ())] for v in range(i * n + 1, i * n + n + 1)]
        load(self.solver, out)

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
# puzzles pile up and slow it down, while loading the square's clauses for every proof
# costs more than the proof itself.
PROVER_PROOFS = 16
_PROOFS = Kept(PROVER_PROOFS, lambda geo: DraftSolver(geo.n, lean=True))


def proves_unique(n: int, cages: Sequence[CageSpec], square: Sequence[int], search: bool = True) -> bool:
    """Whether ``square`` (flat, row-major digits) is the only solution of these cages.

    The generator's final, independent check. Up to ``SEARCH_MAX`` (and with ``search``),
    the cage search lists the solutions up to two (``cage_solutions``): the square must be
    the only one. Else the square is checked against the rules and the cages directly and
    one SAT solve asks for any other solution, on a lean ``DraftSolver`` kept per order and process. Both answers are
    exact (SAT's whatever it was asked before), so generation stays deterministic;
    ``search=False`` is the SAT version the search must agree with (tests/test_kenken.py).
    """
    if len(square) != n * n:
        return False
    if search and n <= SEARCH_MAX:
        found = cage_solutions(n, cages, 2, strikes_max=PROOF_STRIKES_MAX)
        if found is not None:
            # Every solution is among what the search finds (up to two): the square is the
            # only one exactly when it finds the square alone, a square breaking the rules or
            # a cage being none of them (so it needs no check of its own here).
            return found == [list(square)]
    if not _is_latin(n, square):
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


# Largest order whose final proof is the cage search (``cage_solutions``) instead of SAT:
# a shipped 5x5 puzzle's proof cost about 1.4 M instructions on the kept solver, 0.66 M by
# the search (docs/benchmarks.md, kkeasy); larger orders were not measured, and a looser
# caging there leaves the search more to branch on.
SEARCH_MAX = 5

# The most cells times assignments a cage of the final proof may have for its table to be
# ``_cage_strikes``' (``cage_solutions``' ``strikes_max``): a proof narrows each cage a few
# times, so a table made without its bits' assignments costs less even when large; the
# drafts' questions, which narrow the same tables many times, keep ``_cage_uses``'
# (``strikes_max`` 0; docs/benchmarks.md, kk10b).
PROOF_STRIKES_MAX = 10 ** 9


@lru_cache(maxsize=None)
def _use_bits(n: int) -> tuple[tuple[int, ...], ...]:
    """Per cell, per digit: its (row, digit) bit and its (column, digit) bit above the rows'."""
    return tuple(tuple(0 if not d else 1 << (i // n * n + d - 1) | 1 << (n * n + i % n * n + d - 1)
                       for d in range(n + 1)) for i in range(n * n))


# Per digit d, a table for ``bytes.translate``: d to "1", every other byte to "0".
_DIGIT_ONE = tuple(bytes.maketrans(bytes(range(256)), b"0" * d + b"1" + b"0" * (255 - d)) for d in range(16))


# The most cells times assignments ``_cage_uses`` makes by ``_cage_uses_plain``: at 5x5 the
# plain table cost 40 % less for two cells with two assignments (most of an easy puzzle's
# final proof), about the same for three cells with six, and more from there
# (docs/benchmarks.md, kk9e).
SMALL_USES = 16


@lru_cache(maxsize=1 << 14)
def _cage_uses(n: int, cells: tuple[int, ...], assigns: tuple[tuple[int, ...], ...]
               ) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], int, dict[int, int]]:
    """``_cage_uses_plain``, which it must equal (tests/test_kenken.py): a small table
    (``SMALL_USES``) by it, a larger one read off the columns (``_cage_uses_by_columns``)."""
    if len(cells) * len(assigns) <= SMALL_USES:
        return _cage_uses_plain(n, cells, assigns)
    return _cage_uses_by_columns(n, cells, assigns)


def _cage_uses_by_columns(n: int, cells: tuple[int, ...], assigns: tuple[tuple[int, ...], ...]
                          ) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], int, dict[int, int]]:
    """``_cage_uses_plain`` with the assignments using each bit read off the columns: per cell
    and digit, the assignments putting that digit there as one integer (the column's digits as
    bytes, that digit to "1" and the others to "0", read in base 2), or-ed into the bits of the
    cell's row and column. A new cage's table (most cages of a draft are new to the search at
    6x6) took a dict update per bit per assignment."""
    uses = _use_bits(n)
    tabs = [uses[i] for i in cells]
    full = 2 * len(cells)
    out = []
    for a in assigns:
        m = sum(map(getitem, tabs, a))
        if m.bit_count() == full:
            out.append((m, a))
    span = 0
    hits: dict[int, int] = {}
    if out:
        kept = assigns if len(out) == len(assigns) else [a for _, a in out]
        for tab, column in zip(tabs, zip(*kept)):
            col = bytes(reversed(column))  # (the first assignment the lowest bit)
            for d in set(column):
                x = int(col.translate(_DIGIT_ONE[d]), 2)
                u = tab[d]
                span |= u
                row = u & -u
                hits[row] = hits.get(row, 0) | x
                hits[u ^ row] = hits.get(u ^ row, 0) | x
    return tuple(out), span, hits


def _cage_uses_plain(n: int, cells: tuple[int, ...], assigns: tuple[tuple[int, ...], ...]
                     ) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], int, dict[int, int]]:
    """Per assignment that repeats no digit in a row or column: (its (row, digit) and
    (column, digit) bits, ``_use_bits``; the assignment). Summed: distinct bits add up to
    as many set bits as terms, a repeat carries into fewer. Then the cage's span (every bit
    those use) and, per such bit, the assignments using it (a bit each, in their order)."""
    uses = _use_bits(n)
    tabs = [uses[i] for i in cells]
    full = 2 * len(cells)
    out = []
    span = 0
    hits: dict[int, int] = {}
    for a in assigns:
        m = sum(map(getitem, tabs, a))
        if m.bit_count() == full:
            me = 1 << len(out)
            out.append((m, a))
            span |= m
            while m:
                b = m & -m
                m ^= b
                hits[b] = hits.get(b, 0) | me
    return tuple(out), span, hits


@lru_cache(maxsize=1 << 14)
def _cage_strikes(n: int, cells: tuple[int, ...], assigns: tuple[tuple[int, ...], ...]
                  ) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], int, tuple[tuple[int, int], ...]]:
    """``_cage_uses_plain``'s first two parts (which they must equal, tests/test_kenken.py) and,
    instead of its bits' assignments, per assignment kept (its bit, its uses): a small table's
    narrowing strikes the assignments whose uses meet the new ones, one test each, and its
    making skips a dict update per bit per assignment (most of an easy proof's tables are new
    where they stand, made once and narrowed a few times)."""
    uses = _use_bits(n)
    tabs = list(map(uses.__getitem__, cells))
    full = 2 * len(cells)
    out = []
    hits = []
    span = 0
    for a in assigns:
        m = sum(map(getitem, tabs, a))
        if m.bit_count() == full:
            hits.append((1 << len(out), m))
            out.append((m, a))
            span |= m
    return tuple(out), span, tuple(hits)


def cage_solutions(n: int, cages: Sequence[CageSpec], limit: int = 2, budget: int | None = None,
                   plain: bool = False, strikes_max: int = 0) -> list[list[int]] | None:
    """Up to ``limit`` solutions (flat digit lists) of cages that cover every cell once, by
    an exact search over whole cages; None when they don't cover every cell exactly once,
    or when the search would branch more than ``budget`` times (None: no bound).

    An assignment is a set of (row, digit) and (column, digit) uses, a bit each: it fits
    when none is used already, and once every cage holds one, every row and column holds
    each digit once. The search fills the cage with the fewest assignments left first.
    ``latin_solutions`` (SAT) is the version it must equal (tests/test_kenken.py). A cage's
    assignments left are a bit each; a narrowing strikes, per use taken since the cage was
    last narrowed, the assignments making it (``_cage_uses``), and only in the cages whose
    assignments make any; ``plain``: every cage's assignments tested against every use each
    time, the version that must give the same, in the same order (tests/test_kenken.py);
    ``strikes_max``: the most cells times assignments a cage may have for its table to be
    ``_cage_strikes``' (its assignments tested one by one against the new uses), larger ones
    being ``_cage_uses``' (the same assignments struck, tests/test_kenken.py)."""
    cover = [0] * (n * n)
    todo = []
    tables = []  # per cage: ``_cage_uses``
    for k, (cells, assigns) in enumerate(cages):
        for i in cells:
            cover[i] += 1
        cells, assigns = tuple(cells), tuple(assigns)
        table = (_cage_strikes if len(cells) * len(assigns) <= strikes_max else _cage_uses)(n, cells, assigns)
        tables.append(table)
        todo.append((k, (1 << len(table[0])) - 1))
    if cover.count(1) != len(cover):  # (a cell in no cage or in two)
        return None
    spans = [-1 if plain else table[1] for table in tables]
    chosen: list[tuple[int, ...]] = [()] * len(todo)
    found: list[list[int]] = []

    def narrow(todo: list, used: int, new: int) -> tuple[list | None, int]:
        """The cages of ``todo`` with the assignments that fit ``used``, a cage left one
        taken at once (its uses added, the others narrowed again); None where a cage has
        none left. ``todo``'s assignments fit ``used`` but for the uses ``new``: a cage whose
        assignments make none of those (nor of any taken since) keeps them as they are."""
        while True:
            out = []
            forced = 0
            fresh = new
            for j, left in todo:
                x = spans[j] & fresh
                if x:
                    if plain:
                        left &= sum(1 << y for y, (m, _) in enumerate(tables[j][0]) if not m & used)
                    else:
                        hits = tables[j][2]
                        if type(hits) is tuple:  # (``_cage_strikes``'s)
                            for b, m in hits:
                                if m & fresh:
                                    left &= ~b
                        else:
                            while x:
                                b = x & -x
                                x ^= b
                                left &= ~hits[b]
                if not left:
                    return None, used
                if not left & (left - 1):
                    m, a = tables[j][0][left.bit_length() - 1]
                    used |= m
                    fresh |= m
                    forced |= m
                    chosen[j] = a
                else:
                    out.append((j, left))
            if not forced:
                return out, used
            todo = out
            new = forced

    def leaf() -> bool:
        grid = [0] * (n * n)
        for (cells, _), got in zip(cages, chosen):
            for i, d in zip(cells, got):
                grid[i] = d
        found.append(grid)
        return len(found) >= limit

    left_over = [math.inf if budget is None else budget]

    def search(todo: list, used: int) -> bool:
        """Fill the cages of ``todo`` (each with the assignments left); True at ``limit``."""
        left_over[0] -= 1
        if left_over[0] < 0:
            raise _OverBudget
        first = min(todo, key=_option_count)
        at = todo.index(first)
        k, left = first
        rest = todo[:at] + todo[at + 1:]
        options = tables[k][0]
        while left:
            low = left & -left
            left ^= low
            m, a = options[low.bit_length() - 1]
            chosen[k] = a
            narrowed, now = narrow(rest, used | m, m)
            if narrowed is None:
                continue
            if search(narrowed, now) if narrowed else leaf():
                return True
        return False

    if limit > 0:
        left, used = narrow(todo, 0, 0)
        if left:
            try:
                search(left, used)
            except _OverBudget:
                return None
        elif left is not None:
            leaf()
    return found


class _OverBudget(Exception):
    """``cage_solutions`` branched more often than its budget allows."""


# Branches the draft questions' cage search may take before SAT answers instead: a hard 7x7
# draft's question takes under 50 almost always, 200 at most (60 puzzles).
DRAFT_SEARCH_BUDGET = 400


class SearchDrafts:
    """``DraftSolver``'s questions (``other_solutions``, ``second_solution``, ``close``) answered
    by the cage search (``cage_solutions``), exact like SAT's; a question the search can't settle
    within ``DRAFT_SEARCH_BUDGET`` branches goes to a ``DraftSolver``, made at the first such one.

    On small grids a draft's question costs the search less than SAT, and the SAT solver's set-up
    (its house clauses: 825 at 5x5, 3,234 at 7x7), which every hard puzzle paid, is mostly not
    needed. The other solutions it finds are the first in its search order, not SAT's, so the
    drafts that follow differ; each answer depends only on the question (no state between them)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.sat: DraftSolver | None = None

    def other_solutions(
        self, square: Sequence[int], cages: Sequence[tuple[object, Sequence[int], Sequence[tuple[int, ...]]]],
        limit: int, budget: int | None = None,
    ) -> tuple[list[list[int]], bool]:
        """As ``DraftSolver.other_solutions`` (``budget``: SAT's conflicts, where SAT answers)."""
        found = cage_solutions(self.n, [(cells, assigns) for _, cells, assigns in cages], limit + 1,
                               DRAFT_SEARCH_BUDGET)
        if found is not None:
            square = list(square)
            return [f for f in found if f != square][:limit], True
        if self.sat is None:
            self.sat = DraftSolver(self.n)
        return self.sat.other_solutions(square, cages, limit, budget)

    def second_solution(
        self, square: Sequence[int], cages: Sequence[tuple[object, Sequence[int], Sequence[tuple[int, ...]]]],
        budget: int | None = None,
    ) -> tuple[list[int] | None, bool]:
        """As ``DraftSolver.second_solution``."""
        found, complete = self.other_solutions(square, cages, 1, budget)
        return (found[0] if found else None), complete

    def close(self) -> None:
        if self.sat is not None:
            self.sat.close()


def _option_count(entry: tuple[int, int]) -> int:
    return entry[1].bit_count()
