"""Kakuro's own small engine: runs of white cells with sums, a ladder, and SAT clauses.

A Kakuro run is not a Latin house: it holds 2 to 9 different digits out of
1..9 that add up to its sum, so the Latin engine's "every digit once" (hidden
singles on any digit, the 45 rule on every row) does not hold here. The
engine is its own: a ``Board`` (the runs, each cell's two runs and its
peers, the regions for ``region_sum``) and a ``KState`` of candidate
bitmasks (bit d-1 = digit d, as in ``bookgen.solve.latin``), one per cell of
the whole grid (block cells keep 0). The sums speak through Killer's cage
combination table (``bookgen.solve.cages.sum_combinations``: every set of k
different digits adding up to a sum), one table for both puzzles.

The ladder (``LADDER``, one ordered table of ``Tech`` rows as in
``bookgen.solve.houses``: name, tier, function, weight, rating on the 1-10
footing of Sudoku Explainer's values):

- easy: ``run_last`` (a run's last open cell is its sum less the digits
  placed), ``sum_table`` (only the digits of the sum's combinations that
  hold the digits placed: two cells making 3 are 1 and 2, so a 9 or a 4
  can't go there; where an across and a down run cross, the cell keeps what
  both allow), ``naked_single``, ``hidden_single`` (a digit every
  combination left needs, with one cell of the run for it);
- medium: ``run_combos`` (the combinations that fit the candidates of the
  run's cells, each cell taking a different digit: the digits no fitting
  combination can put in a cell go), ``naked_pair`` and ``hidden_pair``
  inside a run (a hidden pair's digits must be ones every combination
  needs);
- hard: ``region_sum`` (the white cells of a band of rows joined through
  across runs add up to those runs' sums; the down runs lying wholly inside
  take theirs, so the few cells of the down runs sticking into the band,
  the innies, add up to what is left, and the cells sticking out, the
  outies, to the straddling runs' sums less that; the same turned for bands
  of columns), ``naked_triple`` inside a run;
- expert: ``trial`` (a digit of a cell with two candidates that the tiers up
  to hard refute goes); never nested.

Every technique is sound, so a grid the ladder fills is the puzzle's only
solution; the exact count is SAT (``clauses``/``count``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_, Text
from bookgen.core.variant import Step
from bookgen.solve.cages import sum_clauses, sum_combinations
from bookgen.solve.houses import (
    Contradiction, Ladder, Run, Tech, and_list, cell_text, cut_each, describe_cuts, seen_table, strike, trial,
)
from bookgen.solve.latin import digits_of, naked_subsets
from bookgen.solve.sat import incremental, models

DIGITS = 9
FULL = (1 << DIGITS) - 1
# The region sum adds up at most this many innies (or outies) at once: a player sums a few cells.
REGION_CELLS = 3


def bit(d: int) -> int:
    """The candidate bit of digit ``d``."""
    return 1 << (d - 1)


@lru_cache(maxsize=None)
def combos(length: int, total: int) -> tuple[int, ...]:
    """The digit sets (bitmasks) of ``length`` different digits 1..9 adding up to ``total``:
    Killer's table, read for Kakuro's nine digits."""
    if not 1 <= length <= DIGITS:
        return ()
    return sum_combinations(length, total, DIGITS)


@lru_cache(maxsize=None)
def allowed(length: int, total: int, placed: int) -> tuple[int, int]:
    """(digits some combination holding ``placed`` uses, digits every one needs), for a run
    of ``length`` adding up to ``total``; (0, 0) when none holds them."""
    union, common = 0, FULL
    for m in combos(length, total):
        if m & placed == placed:
            union |= m
            common &= m
    return (union, common) if union else (0, 0)


@dataclass(frozen=True)
class Region:
    """A band of rows (or columns) joined through across (down) runs: the innies (cells of
    the crossing runs that reach outside the band, inside it) add up to ``innies_sum``, the
    outies (their cells outside) to ``outies_sum``."""

    name: str
    innies: tuple[int, ...]
    innies_sum: int
    outies: tuple[int, ...]
    outies_sum: int


@dataclass(frozen=True)
class Board:
    """A Kakuro's runs: cells are ``r * cols + c`` over the whole grid."""

    rows: int
    cols: int
    white: tuple[int, ...]                 # the white cells, in reading order
    runs: tuple[tuple[int, ...], ...]      # the cells of each run, in order
    sums: tuple[int, ...]
    across: tuple[bool, ...]               # an across run (else a down run)
    runs_of: tuple[tuple[int, ...], ...]   # per cell: its runs (none for a block)
    peers: tuple[tuple[int, ...], ...]     # per cell: the other cells of its runs
    regions: tuple[Region, ...] = ()

    @property
    def n(self) -> int:
        """The row stride of a cell index (what the shared step wording reads as the width)."""
        return self.cols

    def run_text(self, k: int) -> Text:
        """'the across run of row 3 from column 2' (1-based), as a translatable value."""
        r, c = divmod(self.runs[k][0], self.cols)
        if self.across[k]:
            return Text(N_("the across sum {total} in row {row}"), total=self.sums[k], row=r + 1)
        return Text(N_("the down sum {total} in column {column}"), total=self.sums[k], column=c + 1)


def board(rows: int, cols: int, runs: Sequence[Sequence[int]], sums: Sequence[int],
          regions: bool = True) -> Board:
    """The board of these runs (cell indices, across runs on one row) and sums; with
    ``regions`` the regions ``region_sum`` reads too (a generator judging an easier level
    needn't find them). Everything but the sums depends on the pattern alone, which a
    generator keeps while it changes digits: ``_shape`` is memoised on it."""
    shape = _shape(rows, cols, tuple(tuple(sorted(cells)) for cells in runs))
    sums = tuple(sums)
    return Board(rows, cols, shape.white, shape.runs, sums, shape.across, shape.runs_of, shape.peers,
                 _regions(shape, sums) if regions else ())


@dataclass(frozen=True)
class RegionShape:
    """A region without its sums: its own runs (``part``), the crossing runs lying wholly
    inside it (``inner``) and those straddling its edge, with their cells inside and outside."""

    name: Text
    part: tuple[int, ...]
    inner: tuple[int, ...]
    straddle: tuple[int, ...]
    innies: tuple[int, ...]
    outies: tuple[int, ...]


@dataclass(frozen=True)
class Shape:
    """What a board takes from its pattern alone (see ``Board``)."""

    white: tuple[int, ...]
    runs: tuple[tuple[int, ...], ...]
    across: tuple[bool, ...]
    runs_of: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    regions: tuple[RegionShape, ...]


@lru_cache(maxsize=64)
def _shape(rows: int, cols: int, runs: tuple[tuple[int, ...], ...]) -> Shape:
    """The pattern's part of a board (its regions found once: ``_region_shapes``)."""
    across = tuple(len({i // cols for i in cells}) == 1 for cells in runs)
    of: list[list[int]] = [[] for _ in range(rows * cols)]
    for k, cells in enumerate(runs):
        for i in cells:
            of[i].append(k)
    white = tuple(i for i in range(rows * cols) if of[i])
    peers = tuple(tuple(sorted({j for k in of[i] for j in runs[k] if j != i})) for i in range(rows * cols))
    runs_of = tuple(map(tuple, of))
    return Shape(white, runs, across, runs_of, peers, _region_shapes(rows, cols, runs, across, runs_of))


def _regions(shape: Shape, sums: Sequence[int]) -> tuple[Region, ...]:
    """The pattern's regions with what their innies and outies add up to under these sums."""
    out = []
    for reg in shape.regions:
        isum = sum(sums[k] for k in reg.part) - sum(sums[k] for k in reg.inner)
        osum = sum(sums[k] for k in reg.straddle) - isum
        out.append(Region(reg.name, reg.innies, isum, reg.outies, osum))
    return tuple(out)


def _region_shapes(rows: int, cols: int, runs: Sequence[tuple[int, ...]], across: Sequence[bool],
                   runs_of: Sequence[tuple[int, ...]]) -> tuple[RegionShape, ...]:
    """Every band of rows and of columns, cut into its parts joined through the band's own
    runs, that has 1..REGION_CELLS innies or outies."""
    out: list[RegionShape] = []
    seen: set[tuple[int, ...]] = set()
    for lines_across in (True, False):
        span = rows if lines_across else cols
        for first in range(span):
            for last in range(first, span):
                def inside(i: int) -> bool:
                    line = i // cols if lines_across else i % cols
                    return first <= line <= last
                own = [k for k in range(len(runs)) if across[k] == lines_across and inside(runs[k][0])]
                # parts: own runs joined when a crossing run links them inside the band
                parent = {k: k for k in own}

                def find(k: int) -> int:
                    while parent[k] != k:
                        parent[k] = parent[parent[k]]
                        k = parent[k]
                    return k
                own_of = {i: k for k in own for i in runs[k]}
                for k in range(len(runs)):
                    if across[k] == lines_across:
                        continue
                    mine = [own_of[i] for i in runs[k] if i in own_of]
                    for a, c in zip(mine, mine[1:]):
                        parent[find(a)] = find(c)
                parts: dict[int, list[int]] = {}
                for k in own:
                    parts.setdefault(find(k), []).append(k)
                for part in parts.values():
                    cells = frozenset(i for k in part for i in runs[k])
                    key = tuple(sorted(cells))
                    if key in seen:
                        continue
                    seen.add(key)
                    crossing = sorted({k2 for i in cells for k2 in runs_of[i] if across[k2] != lines_across})
                    inner = [k2 for k2 in crossing if all(i in cells for i in runs[k2])]
                    straddle = [k2 for k2 in crossing if k2 not in inner]
                    innies = tuple(i for k2 in straddle for i in runs[k2] if i in cells)
                    outies = tuple(i for k2 in straddle for i in runs[k2] if i not in cells)
                    if not (1 <= len(innies) <= REGION_CELLS or 1 <= len(outies) <= REGION_CELLS):
                        continue
                    word = N_("rows {first}-{last}") if lines_across else N_("columns {first}-{last}")
                    if first == last:
                        word = N_("row {first}") if lines_across else N_("column {first}")
                    name = Text(word, first=first + 1, last=last + 1) if first != last else \
                        Text(word, first=first + 1)
                    out.append(RegionShape(name, tuple(part), tuple(inner), tuple(straddle), innies, outies))
    return tuple(out)


class KState:
    """Candidates and placed cells of one Kakuro in the making."""

    # ``ver`` counts the changes to each run's cells; ``seen[name][k]`` is the count a
    # technique last found nothing in run k at, so it skips runs unchanged since (the plain
    # version looks at every run every time: ``solve(..., fresh=True)``; a test checks they agree).
    # ``masks[k]`` is ``placed_mask(k)`` as of change count ``ver[k]`` (its plain version
    # computes it every time: ``placed_mask_plain``; a test checks they agree).
    __slots__ = ("board", "cand", "placed", "open", "ver", "seen", "touched", "masks")

    def __init__(self, b: Board) -> None:
        self.board = b
        self.cand = [0] * (b.rows * b.cols)
        self.placed = [False] * (b.rows * b.cols)
        for i in b.white:
            self.cand[i] = FULL
        self.open = len(b.white)
        self.ver = [0] * len(b.runs)
        self.seen: dict[str, list[int]] = {}
        self.touched: list[int] = []
        self.masks: list[tuple[int, tuple[int, int, tuple[int, ...]]] | None] = [None] * len(b.runs)

    def copy(self) -> "KState":
        """An independent copy (for a trial)."""
        other = KState.__new__(KState)
        other.board, other.cand, other.placed, other.open = self.board, self.cand[:], self.placed[:], self.open
        other.ver, other.seen, other.touched = self.ver[:], {k: v[:] for k, v in self.seen.items()}, []
        other.masks = self.masks[:]
        return other

    def looked(self, name: str) -> list[int]:
        """Per run, the change count technique ``name`` last found nothing at (-1: never looked)."""
        return seen_table(self.seen, name, len(self.board.runs))

    def elim(self, i: int, mask: int) -> bool:
        """Remove ``mask`` from cell ``i``; True when something went."""
        if not strike(self.cand, i, mask, self.board.cols):
            return False
        for k in self.board.runs_of[i]:
            self.ver[k] += 1
        self.touched.append(i)
        return True

    def place(self, i: int) -> None:
        """Fix cell ``i`` to its one candidate; its run mates lose that digit."""
        m = self.cand[i]
        self.placed[i] = True
        self.open -= 1
        for k in self.board.runs_of[i]:
            self.ver[k] += 1
        for j in self.board.peers[i]:
            if self.cand[j] & m:
                if self.placed[j]:
                    raise Contradiction("a digit twice in a run")
                self.elim(j, m)

    def give(self, i: int, d: int) -> None:
        """A given digit."""
        if not self.cand[i] & bit(d):
            raise Contradiction("a given clashes")
        self.cand[i] = bit(d)
        self.place(i)

    def placed_mask(self, k: int) -> tuple[int, int, tuple[int, ...]]:
        """(digits placed in run ``k``, their sum, its open cells), kept until the run changes."""
        got = self.masks[k]
        if got is not None and got[0] == self.ver[k]:
            return got[1]
        out = self.placed_mask_plain(k)
        self.masks[k] = (self.ver[k], out)
        return out

    def placed_mask_plain(self, k: int) -> tuple[int, int, tuple[int, ...]]:
        """``placed_mask`` worked out afresh."""
        m, s, free = 0, 0, []
        cand, placed = self.cand, self.placed
        for i in self.board.runs[k]:
            if placed[i]:
                m |= cand[i]
                s += cand[i].bit_length()
            else:
                free.append(i)
        return m, s, tuple(free)

    def grid(self) -> tuple[str, ...]:
        """Rows: ``#`` blocks, digits placed, ``.`` open."""
        b = self.board
        out = []
        for r in range(b.rows):
            row = []
            for c in range(b.cols):
                i = r * b.cols + c
                row.append("#" if not b.runs_of[i] else str(self.cand[i].bit_length()) if self.placed[i] else ".")
            out.append("".join(row))
        return tuple(out)


def changed(st: KState, name: str):
    """The runs changed since technique ``name`` last looked at them (marked looked at now:
    a change while it works on one bumps the count again)."""
    seen, ver = st.looked(name), st.ver
    for k in range(len(ver)):
        if seen[k] != ver[k]:
            seen[k] = ver[k]
            yield k


def open_runs(st: KState, name: str):
    """(run, digits placed in it, their sum, its open cells) of each run ``changed`` since
    technique ``name`` last looked at it that still has an open cell."""
    for k in changed(st, name):
        m, s, free = st.placed_mask(k)
        if free:
            yield k, m, s, free


def _cut(st: KState, cells: Sequence[int], mask: int) -> list[tuple[int, int]]:
    out = []
    for i in cells:
        removed = st.cand[i] & mask
        if removed and not st.placed[i]:
            st.elim(i, mask)
            out.append((i, removed))
    return out


def _say(run: Run, st: KState, why: Text, cuts: Sequence[tuple[int, int]]) -> None:
    if run.explain:
        run.reason = Text(N_("{why}: {cuts}"), why=why, cuts=describe_cuts(st, cuts))


def _digits(mask: int) -> str:
    return " + ".join(str(d) for d in digits_of(mask))


# --- easy -----------------------------------------------------------------------------

def t_naked_single(b: Board, st: KState, run: Run) -> int:
    cand, placed = st.cand, st.placed
    for i in b.white:
        if not placed[i] and not cand[i] & (cand[i] - 1):
            if run.explain:
                run.reason = Text(N_("{cell} has only {digit} left"), cell=cell_text(i, b.cols),
                                  digit=cand[i].bit_length())
            return 1  # the driver places it
    return 0


def t_run_last(b: Board, st: KState, run: Run) -> int:
    for k, m, s, free in open_runs(st, "run_last"):
        if len(free) != 1:
            continue
        d = b.sums[k] - s
        i = free[0]
        if not 1 <= d <= DIGITS or not st.cand[i] & bit(d):
            raise Contradiction("a run's last cell can't make its sum")
        cuts = _cut(st, [i], ~bit(d))
        if cuts:
            _say(run, st, Text(N_("{run} less the digits in it leaves {digit}"), run=b.run_text(k), digit=d), cuts)
            return 1
    return 0


def t_sum_table(b: Board, st: KState, run: Run) -> int:
    for k, m, s, free in open_runs(st, "sum_table"):
        cells = b.runs[k]
        union, _ = allowed(len(cells), b.sums[k], m)
        if not union:
            raise Contradiction("no combination holds the run's digits")
        cuts = _cut(st, free, ~(union & ~m))
        if cuts:
            if run.explain:
                ways = [_digits(c) for c in combos(len(cells), b.sums[k]) if c & m == m]
                _say(run, st, Text(N_("{run} in {count} cells can only be {ways}"), run=b.run_text(k),
                                   count=len(cells), ways=and_list(ways, "or")), cuts)
            return 1
    return 0


def t_hidden_single(b: Board, st: KState, run: Run) -> int:
    cand = st.cand
    for k, m, s, free in open_runs(st, "hidden_single"):
        _, common = allowed(len(b.runs[k]), b.sums[k], m)
        for d in digits_of(common & ~m):
            where = [i for i in free if cand[i] & bit(d)]
            if not where:
                raise Contradiction("a digit the run needs has no cell")
            if len(where) == 1 and cand[where[0]] != bit(d):
                st.elim(where[0], ~bit(d))
                if run.explain:
                    run.reason = Text(N_("{run} needs a {digit}, and only {cell} can take it"),
                                      run=b.run_text(k), digit=d, cell=cell_text(where[0], b.cols))
                return 1
    return 0


# --- medium ---------------------------------------------------------------------------

def fitting(cands: Sequence[int], digits: int) -> list[int]:
    """Per cell, the digits it takes in some way of giving ``cands``' cells the digits of
    ``digits`` (as many as cells) once each: forward and back over the sets used so far.
    The plain version it must equal is ``fitting_plain`` (a test checks them)."""
    n = len(cands)
    if digits.bit_count() != n:
        return [0] * n
    opts = [c & digits for c in cands]
    union = 0
    for o in opts:
        union |= o
    if union != digits or not all(opts):
        return [0] * n  # a cell without a digit of the set, or a digit without a cell
    if all(o == digits for o in opts):
        return opts     # every cell takes every digit: any order fits
    fwd: list[set[int]] = [{0}]
    for k in range(n):
        nxt = set()
        opts_k = cands[k] & digits
        for used in fwd[-1]:
            free = opts_k & ~used
            while free:
                low = free & -free
                nxt.add(used | low)
                free ^= low
        fwd.append(nxt)
    if digits not in fwd[n]:
        return [0] * n
    good = {digits}
    out = [0] * n
    for k in range(n - 1, -1, -1):
        back = set()
        opts_k = cands[k] & digits
        for used in fwd[k]:
            free = opts_k & ~used
            while free:
                low = free & -free
                if used | low in good:
                    out[k] |= low
                    back.add(used)
                free ^= low
        good = back
    return out


def fitting_plain(cands: Sequence[int], digits: int) -> list[int]:
    """``fitting`` by trying every order of the digits (the obvious version, for tests)."""
    from itertools import permutations
    out = [0] * len(cands)
    ds = digits_of(digits)
    if len(ds) != len(cands):
        return out
    for perm in permutations(ds):
        if all(c & bit(d) for c, d in zip(cands, perm)):
            for k, d in enumerate(perm):
                out[k] |= bit(d)
    return out


@lru_cache(maxsize=1 << 16)
def run_fit(length: int, total: int, placed: int, cands: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(per open cell the digits some fitting combination puts there, the combinations that
    fit) for a run of ``length`` adding up to ``total`` with the digits ``placed`` and open
    cells of candidates ``cands``. Memoised: a generator grades drafts that differ in a digit
    or two, so the same run states come back; ``run_fit.__wrapped__`` is the plain version
    (a test checks they agree)."""
    keep = [0] * len(cands)
    fits = []
    for c in combos(length, total):
        if c & placed != placed:
            continue
        got = fitting(cands, c & ~placed)
        if got[0]:
            fits.append(c)
            keep = [a | g for a, g in zip(keep, got)]
    return tuple(keep), tuple(fits)


def t_run_combos(b: Board, st: KState, run: Run) -> int:
    cand = st.cand
    for k in changed(st, "run_combos"):
        cells = b.runs[k]
        m, s, free = st.placed_mask(k)
        if not free:
            if s != b.sums[k]:
                raise Contradiction("a full run misses its sum")
            continue
        keep, fits = run_fit(len(cells), b.sums[k], m, tuple(cand[i] for i in free))
        if not fits:
            raise Contradiction("no combination fits the run")
        cuts = cut_each(st, free, [~mask for mask in keep])
        if cuts:
            if run.explain:
                _say(run, st, Text(N_("of the ways to make {run}, only {ways} fit the cells' candidates"),
                                   run=b.run_text(k), ways=and_list([_digits(c) for c in fits], "or")), cuts)
            return 1
    return 0


def _naked(size: int, name: str):
    def t_naked(b: Board, st: KState, run: Run) -> int:
        for k in changed(st, name):
            for group, union, others in naked_subsets(b.runs[k], st.cand, st.placed, size):
                cuts = _cut(st, others, union)
                if cuts:
                    if run.explain:
                        _say(run, st, Text(N_("in {run}, {cells} hold {digits} between them"), run=b.run_text(k),
                                           cells=and_list([cell_text(i, b.cols) for i in group]),
                                           digits=and_list([str(d) for d in digits_of(union)])), cuts)
                    return 1
        return 0
    return t_naked


t_naked_pair = _naked(2, "naked_pair")
t_naked_triple = _naked(3, "naked_triple")


def t_hidden_pair(b: Board, st: KState, run: Run) -> int:
    cand = st.cand
    for k, m, s, free in open_runs(st, "hidden_pair"):
        if len(free) <= 2:
            continue
        _, common = allowed(len(b.runs[k]), b.sums[k], m)
        need = digits_of(common & ~m)
        for d1, d2 in combinations(need, 2):
            w1 = [i for i in free if cand[i] & bit(d1)]
            if len(w1) != 2 or w1 != [i for i in free if cand[i] & bit(d2)]:
                continue
            pair = bit(d1) | bit(d2)
            cuts = _cut(st, w1, ~pair)
            if cuts:
                if run.explain:
                    _say(run, st, Text(N_("{run} needs {first} and {second}, and only {cells} can take them"),
                                       run=b.run_text(k), first=d1, second=d2,
                                       cells=and_list([cell_text(i, b.cols) for i in w1])), cuts)
                return 1
    return 0


# --- hard -----------------------------------------------------------------------------

def _sum_options(b: Board, st: KState, cells: Sequence[int], total: int) -> tuple[int, ...]:
    """Per cell, the digits it takes in some filling of ``cells`` from their candidates that
    adds up to ``total``, cells of one run all different."""
    clash = tuple((a, c) for a, c in combinations(range(len(cells)), 2)
                  if set(b.runs_of[cells[a]]) & set(b.runs_of[cells[c]]))
    return sum_options(tuple(st.cand[i] for i in cells), total, clash)


@lru_cache(maxsize=1 << 16)
def sum_options(cands: tuple[int, ...], total: int, clash: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """Per cell of candidates ``cands``, the digits it takes in some filling adding up to
    ``total`` where the cells of each pair in ``clash`` differ. Memoised (the same few
    innies come back in every trial); ``sum_options.__wrapped__`` is the plain version."""
    out = [0] * len(cands)
    for ds in product(*(digits_of(c) for c in cands)):
        if sum(ds) == total and all(ds[a] != ds[c] for a, c in clash):
            for k, d in enumerate(ds):
                out[k] |= bit(d)
    return tuple(out)


def t_region_sum(b: Board, st: KState, run: Run) -> int:
    for reg in b.regions:
        for word, cells, total in ((N_("innies"), reg.innies, reg.innies_sum),
                                   (N_("outies"), reg.outies, reg.outies_sum)):
            if not 1 <= len(cells) <= REGION_CELLS or all(st.placed[i] for i in cells):
                continue
            keep = _sum_options(b, st, cells, total)
            if not any(keep):
                raise Contradiction("a region's cells can't make their sum")
            cuts = cut_each(st, cells, [~mask for mask in keep])
            if cuts:
                if run.explain:
                    _say(run, st, Text(N_("the runs of {region} add up to their sums, so its {which} "
                                          "{cells} add up to {total}"), region=reg.name, which=word,
                                       cells=and_list([cell_text(i, b.cols) for i in cells]), total=total), cuts)
                return 1
    return 0


# --- expert ---------------------------------------------------------------------------

def t_trial(b: Board, st: KState, run: Run) -> int:
    return trial(b.white, b.cols, st, run, solve)


# The ladder: (name, tier, function, weight, rating on the 1-10 footing, and the how-to
# page's title and description: each technique declared once). Weights are the
# effort of one use for the score inside a level; ratings follow Sudoku Explainer's values
# for the house techniques Kakuro shares (singles, pairs, triples) and sit the run and
# region techniques beside the closest of them.
LADDER = Ladder(
    Tech("run_last", Level.EASY, t_run_last, 0.3, 1.0, title=N_("Last cell of a run"),
         description=N_("When all but one cell of a run are filled, its sum less the digits in it gives the last one.")),
    Tech("sum_table", Level.EASY, t_sum_table, 0.5, 1.2, title=N_("Sum combinations"),
         description=N_("Some sums can be made only one way: 3 in two cells is 1 + 2, 4 in two is 1 + 3, 6 in three is 1 + 2 + 3, 24 in three is 7 + 8 + 9, 45 in nine uses every digit. Digits no way of making the sum uses can't go in its run; where an across and a down run cross, the cell keeps only the digits both allow.")),
    Tech("naked_single", Level.EASY, t_naked_single, 0.5, 2.3, title=N_("Naked singles"),
         description=N_("A cell with one digit left takes it.")),
    Tech("hidden_single", Level.EASY, t_hidden_single, 0.7, 1.5, title=N_("Hidden singles"),
         description=N_("A digit that every way of making a run's sum needs, and that fits only one cell of the run, goes there.")),
    Tech("run_combos", Level.MEDIUM, t_run_combos, 2.0, 2.6, title=N_("Combinations that fit"),
         description=N_("List the sets of different digits that make a run's sum, strike those its cells can't hold, and cross out the digits no set left can put in a cell.")),
    Tech("naked_pair", Level.MEDIUM, t_naked_pair, 2.5, 3.0, title=N_("Naked pairs"),
         description=N_("Two cells of a run that can only hold the same two digits take them both; no other cell of that run has them.")),
    Tech("hidden_pair", Level.MEDIUM, t_hidden_pair, 3.0, 3.4, title=N_("Hidden pairs"),
         description=N_("Two digits a run must hold that fit only in the same two cells of it fill those two cells.")),
    Tech("region_sum", Level.HARD, t_region_sum, 4.0, 3.8, title=N_("Sum of a region"),
         description=N_("The across runs of a band of rows add up to their sums, and so do the down runs lying wholly inside it: the few cells of the down runs that stick into the band add up to the difference (and those sticking out to the rest of their sums). The same for bands of columns.")),
    Tech("naked_triple", Level.HARD, t_naked_triple, 4.0, 3.6, title=N_("Naked triples"),
         description=N_("The same with three cells of a run that hold only three digits between them.")),
    Tech("trial", Level.EXPERT, t_trial, 12.0, 7.0, title=N_("One trial"),
         description=N_("Assume a digit in a cell with two candidates; if the techniques above lead to a contradiction, the cell holds the other one.")),
)


def start(b: Board, givens: Sequence[tuple[int, int]] = ()) -> KState:
    """The state before any deduction: every white cell open (``givens`` placed)."""
    st = KState(b)
    for i, d in givens:
        st.give(i, d)
    return st


def solve(st: KState, tier: Level, run: Run, max_trials: int | None = None, fresh: bool = False) -> bool:
    """Apply the ladder's techniques up to ``tier``, easiest first, until the grid is full
    (True) or none finds anything (False; also once it needed more than ``max_trials``
    trials). What a technique leaves with one candidate is placed and credited to it."""
    b = st.board
    table = [t for t in LADDER if t.tier <= tier]
    while st.open:
        if max_trials is not None and run.counts.get("trial", 0) > max_trials:
            return False
        for tech in table:
            st.touched = []
            if fresh:  # the plain version: every technique looks at every run every time
                st.seen.clear()
            if run.explain:
                run.reason = ""
            used = tech.fn(b, st, run)
            if used:
                run.counts[tech.name] = run.counts.get(tech.name, 0) + used
                if tech.name == "naked_single":
                    fixed = [i for i in b.white if not st.placed[i] and not st.cand[i] & (st.cand[i] - 1)]
                else:
                    fixed = sorted({i for i in st.touched if not st.placed[i] and not st.cand[i] & (st.cand[i] - 1)})
                if tech.name == "naked_single":
                    fixed = fixed[:1]  # one cell a step, as a player writes them in
                for i in fixed:
                    if not st.placed[i]:
                        st.place(i)
                if run.steps is not None:
                    r_c = tuple(((i // b.cols, i % b.cols), str(st.cand[i].bit_length())) for i in fixed)
                    run.steps.append(Step(tech.name, r_c, run.reason))
                break
        else:
            return False
    return True


@dataclass(frozen=True)
class Result:
    """What one ladder run found."""

    solved: bool
    level: Level
    counts: dict[str, int]
    grid: tuple[str, ...]
    steps: list[Step] | None
    open_cells: tuple[int, ...] = ()


def run_ladder(b: Board, givens: Sequence[tuple[int, int]] = (), tier: Level = Level.EXPERT,
               explain: bool = False, max_trials: int | None = None, trial_open: float = 1.0) -> Result:
    """The ladder from the empty grid (and ``givens``) with techniques up to ``tier``; at
    most ``max_trials`` trials, and none where the hard tier stalled with more than a share
    ``trial_open`` of the white cells open (a generator's budget: such a stall is repaired,
    not tried)."""
    run = Run(explain)
    st = KState(b)
    try:
        st = start(b, givens)
        solved = solve(st, min(tier, Level.HARD), run)
        if not solved and tier == Level.EXPERT and st.open <= trial_open * len(b.white):
            solved = solve(st, tier, run, max_trials)
    except Contradiction:
        solved = False
    level = max((LADDER.tier[t] for t in run.counts), default=Level.EASY)
    open_cells = tuple(i for i in b.white if not st.placed[i])
    return Result(solved, level, run.counts, st.grid(), run.steps, open_cells)


# --- exact counting -------------------------------------------------------------------

def clauses(b: Board, givens: Sequence[tuple[int, int]] = ()) -> list[list[int]]:
    """SAT clauses: variable ``cell * 9 + digit``; every white cell one digit, each run's
    digits different and one of its sum's combinations (Killer's cage encoding)."""
    out: list[list[int]] = []
    for i in b.white:
        out.append([i * DIGITS + d for d in range(1, DIGITS + 1)])
        for d1, d2 in combinations(range(1, DIGITS + 1), 2):
            out.append([-(i * DIGITS + d1), -(i * DIGITS + d2)])
    out += sum_clauses(DIGITS, b.runs, b.sums, first=b.rows * b.cols * DIGITS + 1)
    out += [[i * DIGITS + d] for i, d in givens]
    return out


def count(b: Board, givens: Sequence[tuple[int, int]] = (), limit: int = 2) -> list[dict[int, int]]:
    """Up to ``limit`` solutions, each cell -> digit."""
    watch = [i * DIGITS + d for i in b.white for d in range(1, DIGITS + 1)]
    found = models(clauses(b, givens), watch, limit)
    return [{(v - 1) // DIGITS: (v - 1) % DIGITS + 1 for v in model} for model in found]


class PatternCounter:
    """``count`` for one block pattern under sums that change (a generator changes a digit or
    two between counts): one incremental solver holds the cells and the runs' different
    digits; each (run, sum) met gets its combination clauses (Killer's table) behind a
    selector once, and a count assumes the selectors of the sums asked (blocked models hang
    on a fresh selector, retired after). ``count`` builds every clause afresh: the plain
    version (a test checks they agree). Close it (``with``) to free the solver."""

    def __init__(self, b: Board) -> None:
        self.runs = b.runs
        self.watch = [i * DIGITS + d for i in b.white for d in range(1, DIGITS + 1)]
        base: list[list[int]] = []
        for i in b.white:
            base.append([i * DIGITS + d for d in range(1, DIGITS + 1)])
            base += [[-(i * DIGITS + d1), -(i * DIGITS + d2)] for d1, d2 in combinations(range(1, DIGITS + 1), 2)]
        for cells in b.runs:
            for a, c in combinations(cells, 2):
                base += [[-(a * DIGITS + d), -(c * DIGITS + d)] for d in range(1, DIGITS + 1)]
        self.solver = incremental(base)
        self.top = b.rows * b.cols * DIGITS
        self.selectors: dict[tuple[int, int], int] = {}

    def __enter__(self) -> "PatternCounter":
        return self

    def __exit__(self, *exc) -> None:
        self.solver.delete()

    def _fresh(self) -> int:
        self.top += 1
        return self.top

    def _selector(self, k: int, total: int) -> int:
        """The variable that, assumed, makes run ``k`` add up to ``total``."""
        got = self.selectors.get((k, total))
        if got is not None:
            return got
        sel = self.selectors[(k, total)] = self._fresh()
        cells = self.runs[k]
        masks = combos(len(cells), total)
        picks = [self._fresh() for _ in masks]
        add = self.solver.add_clause
        add([-sel] + picks)  # (no combination: the selector is false, the sum impossible)
        for pick, m in zip(picks, masks):
            ds = digits_of(m)
            for i in cells:
                add([-pick] + [i * DIGITS + d for d in ds])
        for i in cells:
            for d in range(1, DIGITS + 1):
                add([-sel, -(i * DIGITS + d)] + [pick for pick, m in zip(picks, masks) if m >> (d - 1) & 1])
        return sel

    def count(self, sums: Sequence[int], limit: int = 2) -> list[dict[int, int]]:
        """Up to ``limit`` solutions with these sums (one per run, in the board's order)."""
        assume = [self._selector(k, total) for k, total in enumerate(sums)]
        block = self._fresh()
        found: list[dict[int, int]] = []
        solver = self.solver
        while len(found) < limit and solver.solve(assumptions=assume + [block]):
            true = {lit for lit in solver.get_model() if lit > 0}
            chosen = [v for v in self.watch if v in true]
            found.append({(v - 1) // DIGITS: (v - 1) % DIGITS + 1 for v in chosen})
            picked = set(chosen)
            solver.add_clause([-block] + [-v if v in picked else v for v in self.watch])
        solver.add_clause([-block])
        return found
