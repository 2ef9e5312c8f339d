"""The Latin engine: one state, ladder driver, subset search, trial and carve for every
Latin-square puzzle (Sudoku, Sudoku X, Killer, Futoshiki, KenKen), with constraint plug-ins.

A *house* is a group of N cells that holds every digit 1..N exactly once:
rows and columns (the Latin square), Sudoku's boxes, Sudoku X's two
diagonals. A ``Geometry`` (``geometry(n, box=..., diagonal=...)``) lists the
houses of one rule set, each cell's peers (the cells sharing a house with
it) and every pair of houses that overlap in two or more cells (where locked
candidates live). Cells are indexed ``i = row * N + col`` and candidates are
bitmasks (bit d-1 = digit d), as in ``bookgen.solve.latin``.

Plugging a puzzle's own rules in
--------------------------------
Everything beside the houses is a *constraint*: an ``Extra`` (a frozen
dataclass; subclass it for data of your own) handed to ``start``,
``run_ladder``, ``closure``, ``carve`` and friends. It brings:

- its techniques: ``techniques``, a tuple of ``Tech(name, tier, fn, weight)``
  rows, each technique declared once. ``fn(geo, st, run) -> int`` strikes
  candidates only (``cut``, ``cut_each`` or ``st.elim``), sets ``run.reason``
  when ``run.explain`` (``describe_cuts`` words the cuts), and returns how
  many uses it made (0: nothing found). The driver places what it left with
  one candidate and credits it. By default they merge into the house ladder
  by tier, each tier's own first (``Extra.ladder``); a constraint whose
  puzzle climbs the tiers otherwise returns its own table from ``ladder()``
  (KenKen: ``bookgen.solve.arithmetic.LADDER``), reusing the house
  techniques below (``t_naked_single``, ``t_hidden_single``,
  ``t_naked_pair`` ... ``t_trial``) as rows of it;
- its state to copy: ``new_state(geo)`` returns a ``State`` subclass when the
  constraint keeps bookkeeping a trial must copy (override ``copy``, and
  ``elim``/``place`` to track changes; ``started`` derives it after ``start``
  set the givens). Giving ``stamp`` (a counter per house) lets the house
  techniques skip houses unchanged since they last looked (``seen_list``);
- its validator: ``check(st)`` raises ``Contradiction`` when a full grid
  breaks the constraint;
- its clauses: over the variables ``cell * N + digit`` of
  ``bookgen.solve.latin_sat`` (its own variables above ``N**3``), passed to
  ``prove`` / ``solutions`` there (``clauses_of`` in a variant);
- optionally ``less`` pairs (smaller cell, larger cell): Futoshiki's signs,
  which the bitboard singles (``_singles``) and the carve's ``Rival`` know.

Killer's cages (``bookgen.solve.cages``), Futoshiki's signs
(``bookgen.solve.inequalities``) and KenKen's arithmetic
(``bookgen.solve.arithmetic``) are the examples. Irregular regions are
houses: a geometry with other houses serves Jigsaw as it serves Sudoku.

The house ladder (``LADDER``; the grade's level is the hardest tier used):

- easy: ``naked_single`` (a cell with one candidate left), ``hidden_single``
  (a digit fits only one cell of a house);
- medium: ``locked_candidates`` (a digit of one house confined to where it
  meets another house is ruled out of the rest of that other house:
  pointing and claiming), ``naked_pair``, ``hidden_pair``;
- hard: ``naked_triple``, ``hidden_triple``, ``x_wing`` (a digit in two
  rows confined to the same two columns, or the other way round),
  ``xy_wing`` (a two-candidate pivot with two two-candidate pincers);
- expert: ``trial`` (assume one candidate of a cell with two, follow the
  easy..hard tiers to a contradiction, remove it). Never nested.

Every technique is sound, so a grid the ladder fills completely is the only
solution of the puzzle; exact counting is SAT (``bookgen.solve.latin_sat``).

The generator's side: ``random_filling`` (a random full grid), ``carve``
(givens removed while the target tier still solves, singles first on
bitboards), ``settles`` (whether one trial per cell finishes what the hard
tier can't), and the verdicts a generator's judge gives a draft (``Fits``,
``TOO_EASY``, ``Stuck``), shared by every Latin variant.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations
from typing import Callable, Mapping, NamedTuple, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_, Text, join_and, join_or
from bookgen.core.score import work_score
from bookgen.core.variant import Step
from bookgen.solve.latin import bit, digits_of, full_mask, hidden_subsets, naked_subsets, positions, symbol
from bookgen.solve.latin_sat import KEPT_SOLVERS, LatinSolver

# --- vocabulary shared by every Latin ladder and its plug-ins --------------------

# A trial assumes a digit in a cell with at most this many candidates ...
TRIAL_MAX_CANDIDATES = 2
# ... and follows it with the techniques up to this tier.
TRIAL_DEPTH = Level.HARD


class Contradiction(Exception):
    """The candidates break a rule: a cell, a cage or a line has no way left."""


def cell_name(i: int, n: int) -> str:
    """'row 3, column 2' (1-based) for cell index ``i``."""
    return f"row {i // n + 1}, column {i % n + 1}"


def cell_text(i: int, n: int) -> Text:
    """``cell_name`` as a translatable value of a step's reason."""
    return Text(N_("row {row}, column {column}"), row=i // n + 1, column=i % n + 1)


def and_list(items: Sequence[str], word: str = "and") -> str:
    """'a, b and c' ('or' for ``word="or"``), a phrase the layout can translate."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]  # kept as it is: a single cell stays a translatable Text
    return join_and(items) if word == "and" else join_or(items)


class Run:
    """Book-keeping of one ladder run: technique counts and (optionally) steps."""

    __slots__ = ("counts", "steps", "reason", "explain")

    def __init__(self, explain: bool = False) -> None:
        self.counts: dict[str, int] = {}
        self.steps: list[Step] | None = [] if explain else None
        self.reason = ""
        self.explain = explain


def describe_cuts(st: State, cuts: list[tuple[int, int]]) -> str:
    """'row 2, column 3 must be 4; row 2, column 4 can't be 1 or 5'."""
    n = st.board.n
    parts = []
    for i, removed in cuts:
        left = st.cand[i]
        if not left & (left - 1):
            parts.append(Text(N_("{cell} must be {digit}"), cell=cell_text(i, n), digit=left.bit_length()))
        else:
            parts.append(Text(N_("{cell} can't be {digits}"), cell=cell_text(i, n),
                              digits=and_list([str(d) for d in digits_of(removed)], 'or')))
    text = parts[-1]
    for part in reversed(parts[:-1]):
        text = Text(N_("{first}; {rest}"), first=part, rest=text)
    return text


def trial(n: int, st, run: Run, solve_with: Callable) -> int:
    """One trial, never nested: a digit of a cell with few candidates that the tiers up to
    ``TRIAL_DEPTH`` (``solve_with``, the calling ladder's own) refute is struck. Shared by
    every Latin-square ladder, whatever its state type (``cand``, ``placed``, ``copy``, ``elim``)."""
    # Only cells with few candidates: a player tries a pair, not a spread of six.
    order = sorted(
        (st.cand[i].bit_count(), i) for i in range(n * n)
        if not st.placed[i] and st.cand[i].bit_count() <= TRIAL_MAX_CANDIDATES
    )
    for _, i in order:
        for d in digits_of(st.cand[i]):
            sub = st.copy()
            try:
                sub.elim(i, ~bit(d))
                solve_with(sub, TRIAL_DEPTH, Run())
            except Contradiction:
                st.elim(i, bit(d))
                if run.explain:
                    run.reason = Text(N_("suppose {cell} were {digit}: following it through with the "
                                         "simpler techniques leads to a contradiction, so it can't be {digit}."),
                                      cell=cell_text(i, n), digit=d)
                return 1
    return 0


class Tech(NamedTuple):
    """One row of a ladder table, where a technique is declared once: its name (the key of
    its counts, grades and explanations), its tier, its function ``fn(geometry, state, run)``
    (it strikes candidates and returns how many uses it made, 0 when it found nothing), its
    weight (the effort of one use, for the score inside a level) and its rating: the value of
    one step on the 1-10 scale solvers know (Sudoku Explainer's published values for the
    Sudoku techniques; ``None`` where no value has been set yet)."""

    name: str
    tier: Level
    fn: Callable[..., int]
    weight: float = 1.0
    rating: float | None = None


@dataclass(frozen=True)
class Geometry:
    """The houses of one rule set and what techniques derive from them."""

    n: int
    houses: tuple[tuple[int, ...], ...]      # rows 0..n-1, columns n..2n-1, then the extra houses
    names: tuple[str, ...]                   # "row 3", "column 2", "the box at rows 1-3, columns 4-6"
    peers: tuple[tuple[int, ...], ...]       # per cell: every other cell sharing a house with it
    houses_of: tuple[tuple[int, ...], ...]   # per cell: the houses it is in
    overlaps: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    # (house a, house b, cells of both, cells only in a, cells only in b) for overlaps of 2+ cells
    scan: tuple[int, ...]                    # houses in the order a player looks for hidden singles
    kinds: str = "row or column"             # the houses a cell is in, for explanations

    @property
    def line_names(self) -> tuple[str, ...]:
        """Alias used by the shared description helpers."""
        return self.names


def box_houses(n: int, box: tuple[int, int]) -> list[tuple[tuple[int, ...], str]]:
    """Sudoku's boxes of ``box`` = (rows, columns) cells, with their names."""
    rows, cols = box
    out = []
    for r0 in range(0, n, rows):
        for c0 in range(0, n, cols):
            cells = tuple((r0 + r) * n + c0 + c for r in range(rows) for c in range(cols))
            out.append((cells, Text(N_("the box of rows {top}-{bottom}, columns {left}-{right}"),
                                    top=r0 + 1, bottom=r0 + rows, left=c0 + 1, right=c0 + cols)))
    return out


def diagonal_houses(n: int) -> list[tuple[tuple[int, ...], str]]:
    """Sudoku X's two main diagonals, with their names."""
    return [(tuple(k * n + k for k in range(n)), N_("the main diagonal")),
            (tuple(k * n + n - 1 - k for k in range(n)), N_("the anti-diagonal"))]


def geometry(n: int, box: tuple[int, int] | None = None, diagonal: bool = False,
             regions: Sequence[Sequence[int]] = ()) -> Geometry:
    """The Latin square of order ``n`` with boxes (``box`` = rows, columns) and/or diagonals,
    or with irregular ``regions`` (Jigsaw: each a group of n cell indices) as houses. A
    rule set's geometry is kept for the process; a regions geometry belongs to one puzzle,
    so it is built afresh each time (equal regions give an equal, not the same, object)."""
    if regions:
        return _build_geometry(n, box, diagonal, tuple(tuple(cells) for cells in regions))
    return _rule_geometry(n, box, diagonal)


@lru_cache(maxsize=None)
def _rule_geometry(n: int, box: tuple[int, int] | None, diagonal: bool) -> Geometry:
    return _build_geometry(n, box, diagonal, ())


def region_houses(n: int, regions: Sequence[Sequence[int]]) -> list[tuple[tuple[int, ...], str]]:
    """Jigsaw regions as houses, each named by its first cell in reading order."""
    return [(tuple(sorted(cells)), Text(N_("the region at {cell}"), cell=cell_text(min(cells), n)))
            for cells in regions]


def _build_geometry(n: int, box: tuple[int, int] | None, diagonal: bool,
                    regions: tuple[tuple[int, ...], ...]) -> Geometry:
    houses = [tuple(r * n + c for c in range(n)) for r in range(n)]
    houses += [tuple(r * n + c for r in range(n)) for c in range(n)]
    names = ([Text(N_("row {row}"), row=r + 1) for r in range(n)]
             + [Text(N_("column {column}"), column=c + 1) for c in range(n)])
    extra = (box_houses(n, box) if box else []) + region_houses(n, regions) + \
        (diagonal_houses(n) if diagonal else [])
    for cells, name in extra:
        houses.append(cells)
        names.append(name)
    houses_of: list[list[int]] = [[] for _ in range(n * n)]
    for h, cells in enumerate(houses):
        for i in cells:
            houses_of[i].append(h)
    peers = []
    for i in range(n * n):
        seen = sorted({j for h in houses_of[i] for j in houses[h] if j != i})
        peers.append(tuple(seen))
    overlaps = []
    sets = [frozenset(h) for h in houses]
    for a, b in combinations(range(len(houses)), 2):
        both = sets[a] & sets[b]
        if len(both) >= 2:
            overlaps.append((a, b, tuple(sorted(both)), tuple(sorted(sets[a] - both)),
                             tuple(sorted(sets[b] - both))))
    # Players spot hidden singles in boxes first, so explanations name boxes first.
    scan = tuple(range(2 * n, len(houses))) + tuple(range(2 * n))
    words = REGION_KINDS[bool(diagonal)] if regions else HOUSE_KINDS[bool(box), bool(diagonal)]
    return Geometry(n, tuple(houses), tuple(names), tuple(peers),
                    tuple(tuple(h) for h in houses_of), tuple(overlaps), scan, words)


# --- state -----------------------------------------------------------------------

@dataclass(frozen=True)
class Extra:
    """A constraint plugged into the engine beside the houses (see the module docstring):
    its techniques as (name, tier, function) and its data. Futoshiki's signs are ``less``
    pairs; a subclass adds its own data (Killer's cages, KenKen's arithmetic) and may
    override the hooks below."""

    techniques: tuple[Tech, ...] = ()
    less: tuple[tuple[int, int], ...] = ()  # (smaller cell, larger cell)
    # When a set: the ``less`` pairs whose techniques struck something (``used_signs``).
    used: set[tuple[int, int]] | None = field(default=None, compare=False, hash=False, repr=False)

    def ladder(self) -> tuple[Tech, ...]:
        """The whole ladder, easiest tier first: by default the house ladder with this
        constraint's techniques merged in, each tier's own first (they look at a few cells
        each: a sign, a cage; cheaper than scanning every house). A constraint whose
        puzzle climbs the tiers differently (KenKen) returns a table of its own."""
        return merged_ladder(self.techniques)

    def up_to(self, level: Level) -> tuple[tuple[str, Callable], ...]:
        """(name, function) of the ladder's techniques up to ``level``, in order."""
        got = self.__dict__.get("_views")  # kept on the instance: the driver asks every run
        if got is None:
            got = _views(self.ladder())
            object.__setattr__(self, "_views", got)  # (a frozen dataclass: not a field)
        return got[0][level]

    def tiers(self) -> dict[str, Level]:
        """Each technique of the ladder with its tier."""
        self.up_to(Level.EASY)
        return self.__dict__["_views"][1]

    def weights(self) -> dict[str, float]:
        """Each technique of the ladder with its weight."""
        return {t.name: t.weight for t in self.ladder()}

    def new_state(self, geo: "Geometry") -> "State":
        """An empty state (every candidate open) for this constraint; a subclass of ``State``
        where the constraint keeps bookkeeping of its own that a trial must copy."""
        return State(geo, self)

    def check(self, st: "State") -> None:
        """The validator: raise ``Contradiction`` when a full grid breaks the constraint
        (its techniques alone need not have ruled every such grid out)."""


NO_EXTRA = Extra()


_VIEWS: dict[int, tuple[tuple, tuple[dict, dict]]] = {}


def _views(ladder: tuple[Tech, ...]) -> tuple[dict[Level, tuple[tuple[str, Callable], ...]], dict[str, Level]]:
    """(per level, the (name, function) pairs up to it; each name's tier) of a ladder table,
    kept by the table's identity: a generator makes a constraint per draft, on a few tables."""
    got = _VIEWS.get(id(ladder))
    if got is None or got[0] is not ladder:
        if len(_VIEWS) > 64:
            _VIEWS.clear()
        got = _VIEWS[id(ladder)] = (ladder, (
            {lv: tuple((t.name, t.fn) for t in ladder if t.tier <= lv) for lv in Level},
            {t.name: t.tier for t in ladder}))
    return got[1]


@lru_cache(maxsize=64)
def merged_ladder(techniques: tuple[Tech, ...]) -> tuple[Tech, ...]:
    """The house ladder with ``techniques`` merged in by tier, theirs first within a tier."""
    return tuple(sorted([Tech(*t) for t in techniques] + list(LADDER), key=lambda t: t.tier))
# The extra techniques ``_singles`` already runs on bitboards (from ``Extra.less``).
ON_BITBOARDS = frozenset({"sign_known"})


class State:
    """Candidates and placed cells; cheap to copy (a trial copies instead of undoing)."""

    __slots__ = ("board", "cand", "placed", "unplaced", "fresh", "queued", "extra", "memo", "stamp")

    def __init__(self, geo: Geometry, extra: Extra = NO_EXTRA) -> None:
        self.board = geo
        self.extra = extra
        self.cand = [full_mask(geo.n)] * (geo.n * geo.n)
        self.placed = [False] * (geo.n * geo.n)
        self.unplaced = geo.n * geo.n
        # Every cell reduced to one candidate, in order; naked singles take them from ``queued``
        # on, and the driver credits those a technique produced to that technique.
        self.fresh: list[int] = []
        self.queued = 0
        # (candidates, placed, per-house digit positions) of the last ``house_positions`` call.
        self.memo: tuple[list[int], list[bool], list[list[int]]] | None = None
        # Per house, a counter of eliminations in it, where a constraint's state keeps one
        # (``seen_list``): house techniques then skip houses unchanged since they last
        # looked. None here: keeping it costs Sudoku's hot loop more than it saves.
        self.stamp: list[int] | None = None

    def started(self) -> None:
        """The givens are in (``start`` sets candidates and placed cells directly, without
        ``elim`` and ``place``): a subclass derives its own bookkeeping from them here."""

    def seen_list(self, name: str) -> list[int]:  # pragma: no cover - only states with stamps
        """Per house, the ``stamp`` technique ``name`` last looked at it with."""
        raise NotImplementedError

    def copy(self) -> "State":
        """An independent copy."""
        other = self.__class__.__new__(self.__class__)
        other.board = self.board
        other.cand = self.cand[:]
        other.placed = self.placed[:]
        other.unplaced = self.unplaced
        other.fresh = self.fresh[:]
        other.queued = self.queued
        other.extra = self.extra
        other.memo = None
        other.stamp = None
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
        if not new & (new - 1):
            self.fresh.append(i)
        return True

    def place(self, i: int) -> None:
        """Mark a single-candidate cell placed and clear its digit from its peers."""
        self.placed[i] = True
        self.unplaced -= 1
        b = self.cand[i]
        cand = self.cand
        fresh = self.fresh
        for j in self.board.peers[i]:
            c = cand[j]
            if c & b:  # elim(j, b), inlined: this is the hottest loop of the ladder
                c &= ~b
                if not c:
                    raise Contradiction(f"{cell_name(j, self.board.n)} has no digit left")
                cand[j] = c
                if not c & (c - 1):
                    fresh.append(j)

    def give(self, i: int, d: int) -> None:
        """A given (or assumed) digit: fix it and place it."""
        self.elim(i, ~bit(d))
        if not self.placed[i]:
            self.place(i)

    def grid(self) -> tuple[str, ...]:
        """Rows of placed digits, ``.`` where a cell is still open."""
        n = self.board.n
        return tuple("".join(symbol(self.cand[r * n + c].bit_length()) if self.placed[r * n + c] else "."
                             for c in range(n)) for r in range(n))


# The houses a cell is in, as the naked single's reason names them (one message each, so a
# language can inflect the whole phrase).
HOUSE_KINDS = {(False, False): N_("row or column"), (True, False): N_("row, column or box"),
               (False, True): N_("row, column or diagonal"),
               (True, True): N_("row, column, box or diagonal")}
REGION_KINDS = {False: N_("row, column or region"), True: N_("row, column, region or diagonal")}


def cut(st: State, cells: Sequence[int], mask: int) -> list[tuple[int, int]]:
    """Remove ``mask`` from every cell of ``cells``; the (cell, removed digits) that changed."""
    out = []
    cand = st.cand
    for i in cells:
        removed = cand[i] & mask
        if removed:
            st.elim(i, mask)
            out.append((i, removed))
    return out


def cut_each(st: State, cells: Sequence[int], masks: Sequence[int]) -> list[tuple[int, int]]:
    """Remove ``masks[k]`` from ``cells[k]``; the (cell, removed digits) that changed."""
    out = []
    for i, m in zip(cells, masks):
        removed = st.cand[i] & m
        if removed and st.elim(i, m):
            out.append((i, removed))
    return out


# --- easy ------------------------------------------------------------------------

def t_naked_single(g: Geometry, st: State, run: Run) -> int:
    placed = 0
    cand = st.cand
    fresh = st.fresh
    k = st.queued
    while k < len(fresh):  # placing a cell may queue more
        i = fresh[k]
        k += 1
        if not st.placed[i] and not cand[i] & (cand[i] - 1):
            st.place(i)
            placed += 1
            if run.steps is not None:
                d = cand[i].bit_length()
                run.steps.append(Step(
                    "naked_single", (((i // g.n, i % g.n), symbol(d)),),
                    Text(N_("{cell} can only be {digit}: every other digit is already in its {houses}.")
                         if _by_houses(st, i) else
                         N_("{cell} can only be {digit}: every other digit is already in its {houses}, "
                            "or ruled out above."), cell=cell_text(i, g.n), digit=d, houses=g.kinds),
                ))
    st.queued = k
    return placed


def _by_houses(st: State, i: int) -> bool:
    """Whether the digits placed in cell ``i``'s houses alone leave it one candidate."""
    seen = 0
    for j in st.board.peers[i]:
        if st.placed[j]:
            seen |= st.cand[j]
    return (full_mask(st.board.n) & ~seen).bit_count() == 1


def t_hidden_single(g: Geometry, st: State, run: Run) -> int:
    cand = st.cand
    placed = st.placed
    full = full_mask(g.n)
    houses = g.houses
    stamp = st.stamp
    seen = st.seen_list("hidden_single") if stamp is not None else None
    for h in g.scan:
        if seen is not None:  # (a house unchanged since it was last looked at has nothing new)
            if seen[h] == stamp[h]:
                continue
            seen[h] = stamp[h]  # a cut below changes the stamp again
        cells = houses[h]
        once = 0   # digits seen in exactly one open cell so far
        more = 0   # digits seen in two or more
        done = 0   # digits already placed in the house
        for i in cells:
            m = cand[i]
            if placed[i]:
                done |= m
            else:
                more |= once & m
                once = (once | m) & ~more
        if (once | more | done) != full:
            missing = digits_of(full & ~(once | more | done))[0]
            raise Contradiction(f"{g.names[h]} has no place for {missing}")
        once &= ~done
        while once:
            m = once & -once
            once &= ~m
            where = next(i for i in cells if not placed[i] and cand[i] & m)
            if cand[where] == m:
                continue  # a naked single the next pass places
            st.elim(where, ~m)
            if run.explain:
                run.reason = Text(N_("in {house}, {digit} fits only at {cell}."), house=g.names[h],
                                  digit=m.bit_length(), cell=cell_text(where, g.n))
            return 1
    return 0


# --- medium ----------------------------------------------------------------------

def t_locked_candidates(g: Geometry, st: State, run: Run) -> int:
    # A placed digit is gone from every other cell of its houses, so unions over
    # whole segments (placed cells included) never let it look locked somewhere.
    cand = st.cand
    for a, b, both, only_a, only_b in g.overlaps:
        inside = 0
        for i in both:
            inside |= cand[i]
        rest_a = 0
        for i in only_a:
            rest_a |= cand[i]
        rest_b = 0
        for i in only_b:
            rest_b |= cand[i]
        for first, second, locked, rest_second in ((a, b, inside & ~rest_a & rest_b, only_b),
                                                   (b, a, inside & ~rest_b & rest_a, only_a)):
            if not locked:
                continue
            cuts = cut(st, [i for i in rest_second if not st.placed[i]], locked)
            if cuts:
                if run.explain:
                    ds = and_list([str(d) for d in digits_of(locked)])
                    run.reason = Text(
                        N_("in {house}, {digits} can only go where it meets {other}, so the rest of "
                           "{other} can't hold it; {cuts}.") if not locked & (locked - 1) else
                        N_("in {house}, {digits} can only go where it meets {other}, so the rest of "
                           "{other} can't hold them; {cuts}."),
                        house=g.names[first], digits=ds, other=g.names[second], cuts=describe_cuts(st, cuts))
                return 1
    return 0


def naked_technique(size: int, name: str) -> Callable[[Geometry, State, Run], int]:
    """Naked subsets of ``size`` cells in a house, as technique ``name``."""
    def tech(g: Geometry, st: State, run: Run) -> int:
        stamp = st.stamp
        seen = st.seen_list(name) if stamp is not None else None
        for h, cells in enumerate(g.houses):
            if seen is not None:
                if seen[h] == stamp[h]:
                    continue
                seen[h] = stamp[h]
            for group, u, others in naked_subsets(cells, st.cand, st.placed, size):
                cuts = cut(st, others, u)
                if cuts:
                    if run.explain:
                        where = and_list([cell_text(i, g.n) for i in group])
                        ds = and_list([str(d) for d in digits_of(u)])
                        run.reason = Text(N_("in {house}, {cells} can only hold {digits} between them, "
                                             "so the other cells can't; {cuts}."),
                                          house=g.names[h], cells=where, digits=ds, cuts=describe_cuts(st, cuts))
                    return 1
        return 0
    tech.__name__ = f"t_{name}"
    return tech


def house_positions(g: Geometry, st: State) -> list[list[int]]:
    """Per house, per digit (0-based), a bitmask of the positions in the house (index into
    ``g.houses[h]``) of the open cells where it is still possible.

    Hidden pairs, hidden triples and X-wings all read it; on a stalled board
    they run one after the other on the same candidates, so it is kept until
    they change (two list comparisons, far cheaper than the table). It must
    equal ``positions`` per house worked out afresh (tests/test_engine.py).
    """
    cand, placed = st.cand, st.placed
    memo = st.memo
    if memo is not None and memo[0] == cand and memo[1] == placed:
        return memo[2]
    table = [positions(cand, cells, placed, g.n) for cells in g.houses]
    st.memo = (cand[:], placed[:], table)
    return table


def hidden_technique(size: int, name: str) -> Callable[[Geometry, State, Run], int]:
    """Hidden subsets of ``size`` digits in a house, as technique ``name``."""
    def tech(g: Geometry, st: State, run: Run) -> int:
        placed = st.placed
        stamp = st.stamp
        seen = st.seen_list(name) if stamp is not None else None
        table = house_positions(g, st) if seen is None else None
        for h, cells in enumerate(g.houses):
            if seen is not None:
                if seen[h] == stamp[h]:
                    continue
                seen[h] = stamp[h]
            if sum(1 for i in cells if not placed[i]) <= size:
                continue
            # With stamps most houses are skipped: their positions are worked out one by one.
            where = table[h] if table is not None else positions(st.cand, cells, placed, g.n)
            for ds, u in hidden_subsets(where, size):
                group = [i for k, i in enumerate(cells) if u >> k & 1]
                keep = 0
                for d in ds:
                    keep |= 1 << d
                cuts = cut(st, group, ~keep)
                if cuts:
                    if run.explain:
                        where = and_list([cell_text(i, g.n) for i in group])
                        dtext = and_list([str(d + 1) for d in ds])
                        run.reason = Text(N_("in {house}, {digits} fit only in {cells}, so those cells "
                                             "hold nothing else; {cuts}."),
                                          house=g.names[h], digits=dtext, cells=where, cuts=describe_cuts(st, cuts))
                    return 1
        return 0
    tech.__name__ = f"t_{name}"
    return tech


# --- hard ------------------------------------------------------------------------

def t_x_wing(g: Geometry, st: State, run: Run) -> int:
    n = g.n
    cand, placed = st.cand, st.placed
    table = house_positions(g, st)
    for base, cover in ((0, n), (n, 0)):  # rows then columns as the base lines
        # table[base + k][d]: positions of digit d in base line k (a mask over the cover lines)
        for d in range(n):
            seen: dict[int, int] = {}
            for k in range(n):
                mask = table[base + k][d]
                if mask.bit_count() != 2:
                    continue
                if mask not in seen:
                    seen[mask] = k
                    continue
                k1, k2 = seen[mask], k
                j1 = (mask & -mask).bit_length() - 1
                j2 = mask.bit_length() - 1
                m = 1 << d
                others = [i for j in (j1, j2) for kk, i in enumerate(g.houses[cover + j])
                          if kk not in (k1, k2) and not placed[i]]
                cuts = cut(st, others, m)
                if cuts:
                    if run.explain:
                        lines_t = join_and([g.names[base + k1], g.names[base + k2]])
                        cover_t = join_and([g.names[cover + j1], g.names[cover + j2]])
                        run.reason = Text(N_("in {lines}, {digit} can only go in {cover}; whichever way "
                                             "round, it takes both of those, so no other cell of {cover} "
                                             "can be {digit}; {cuts}."),
                                          lines=lines_t, digit=d + 1, cover=cover_t, cuts=describe_cuts(st, cuts))
                    return 1
    return 0


def t_xy_wing(g: Geometry, st: State, run: Run) -> int:
    n = g.n
    cand, placed = st.cand, st.placed
    pairs = [i for i in range(n * n) if not placed[i] and cand[i].bit_count() == 2]
    pair_set = set(pairs)
    for pivot in pairs:
        pm = cand[pivot]
        wings = [j for j in g.peers[pivot] if j in pair_set and (cand[j] & pm).bit_count() == 1]
        for a, b in combinations(wings, 2):
            za, zb = cand[a] & ~pm, cand[b] & ~pm
            if za != zb or cand[a] & cand[b] & pm:
                continue
            peers_b = set(g.peers[b])
            targets = [i for i in g.peers[a] if i in peers_b and i != pivot and not placed[i]]
            cuts = cut(st, targets, za)
            if cuts:
                if run.explain:
                    z = za.bit_length()
                    x, y = digits_of(pm)
                    run.reason = Text(
                        N_("{pivot} is {x} or {y}; either way one of {a} ({a_digits}) and {b} ({b_digits}) "
                           "is {z}, so no cell that sees both can be {z}; {cuts}."),
                        pivot=cell_text(pivot, n), x=x, y=y, z=z,
                        a=cell_text(a, n), a_digits=and_list([str(v) for v in digits_of(cand[a])], 'or'),
                        b=cell_text(b, n), b_digits=and_list([str(v) for v in digits_of(cand[b])], 'or'),
                        cuts=describe_cuts(st, cuts))
                return 1
    return 0


# --- expert ----------------------------------------------------------------------

def t_trial(g: Geometry, st: State, run: Run) -> int:
    return trial(g.n, st, run, solve)


t_naked_pair = naked_technique(2, "naked_pair")
t_hidden_pair = hidden_technique(2, "hidden_pair")
t_naked_triple = naked_technique(3, "naked_triple")
t_hidden_triple = hidden_technique(3, "hidden_triple")

# The house ladder (Sudoku's), in the order the driver tries the techniques.
LADDER: tuple[Tech, ...] = (
    Tech("naked_single", Level.EASY, t_naked_single, 0.5, 2.3),
    Tech("hidden_single", Level.EASY, t_hidden_single, 0.7, 1.5),
    Tech("locked_candidates", Level.MEDIUM, t_locked_candidates, 2.0, 2.6),
    Tech("naked_pair", Level.MEDIUM, t_naked_pair, 2.5, 3.0),
    Tech("hidden_pair", Level.MEDIUM, t_hidden_pair, 3.0, 3.4),
    Tech("naked_triple", Level.HARD, t_naked_triple, 4.0, 3.6),
    Tech("hidden_triple", Level.HARD, t_hidden_triple, 5.0, 4.0),
    Tech("x_wing", Level.HARD, t_x_wing, 4.5, 3.2),
    Tech("xy_wing", Level.HARD, t_xy_wing, 5.0, 4.2),
    Tech("trial", Level.EXPERT, t_trial, 12.0),
)
TECHNIQUE_LEVEL: dict[str, Level] = {t.name: t.tier for t in LADDER}
TECHNIQUE_WEIGHT: dict[str, float] = {t.name: t.weight for t in LADDER}


def solve(st: State, max_level: Level, run: Run, until: int = -1) -> bool:
    """Apply the ladder up to ``max_level`` until solved (True) or stuck (False).

    After any progress it restarts with the easiest technique. Raises
    ``Contradiction`` when the position has no solution. With ``until`` (a
    cell) it stops, True, once that cell is placed: the generator asks
    whether a given it removed comes back.
    """
    techs = st.extra.up_to(max_level)
    counts = run.counts
    g = st.board
    placed = st.placed
    while st.unplaced and (until < 0 or not placed[until]):
        for name, fn in techs:
            mark = len(st.fresh)
            used = fn(g, st, run)
            if not used:
                continue
            counts[name] = counts.get(name, 0) + used
            if name != "naked_single":
                # Cells this technique itself reduced to one candidate are its result.
                fixed = []
                for i in st.fresh[mark:]:
                    if not st.placed[i] and not st.cand[i] & (st.cand[i] - 1):
                        fixed.append(i)
                        st.place(i)
                if run.steps is not None:
                    run.steps.append(Step(
                        name, tuple(((i // g.n, i % g.n), symbol(st.cand[i].bit_length())) for i in fixed),
                        run.reason))
            break
        else:
            return False
    if not st.unplaced:
        st.extra.check(st)
    return True


@dataclass(frozen=True)
class LadderResult:
    """What one ladder run found."""

    solved: bool
    level: Level                 # hardest tier used
    counts: dict[str, int]
    grid: tuple[str, ...]
    steps: list[Step] | None
    contradiction: bool = False

    @property
    def open_cells(self) -> tuple[int, ...]:
        """Cell indices left unplaced (empty when solved)."""
        return tuple(i for i, ch in enumerate("".join(self.grid)) if ch == ".")


def level_of(name: str, extra: Extra = NO_EXTRA) -> Level:
    """The tier of a technique in ``extra``'s ladder."""
    return extra.tiers()[name]


def start(geo: Geometry, givens: Sequence[tuple[int, int]], extra: Extra = NO_EXTRA) -> State:
    """The state with ``givens`` (cell index, digit) placed; ``Contradiction`` when they clash.

    Candidates come straight from the digits given in each cell's houses, one
    pass instead of an elimination per given and peer (``State.give`` for each
    given, the plain way, must reach the same state; tests/test_engine.py).
    """
    n = geo.n
    st = extra.new_state(geo)
    have = [0] * len(geo.houses)
    for i, d in givens:
        b = bit(d)
        for h in geo.houses_of[i]:
            if have[h] & b:
                raise Contradiction(f"{geo.names[h]} has two {d}s")
            have[h] |= b
    full = full_mask(n)
    cand, houses_of = st.cand, geo.houses_of
    for i in range(n * n):
        m = full
        for h in houses_of[i]:
            m &= ~have[h]
        cand[i] = m
    for i, d in givens:
        cand[i] = bit(d)
        st.placed[i] = True
    st.unplaced = n * n - len(givens)
    for i in range(n * n):
        m = cand[i]
        if not m:
            raise Contradiction(f"{cell_name(i, n)} has no digit left")
        if not m & (m - 1) and not st.placed[i]:
            st.fresh.append(i)
    st.started()
    return st


def run_ladder(geo: Geometry, givens: Sequence[tuple[int, int]], max_level: Level = Level.EXPERT,
               explain: bool = False, until: int = -1, extra: Extra = NO_EXTRA) -> LadderResult:
    """Run the ladder from ``givens`` (cell index, digit) with techniques up to ``max_level``
    (with ``until``, only until that cell is placed)."""
    run = Run(explain)
    st = extra.new_state(geo)
    contradiction = False
    try:
        st = start(geo, givens, extra)
        solved = solve(st, max_level, run, until)
    except Contradiction:
        solved, contradiction = False, True
    level = max((level_of(t, extra) for t in run.counts), default=Level.EASY)
    return LadderResult(solved, level, run.counts, st.grid(), run.steps, contradiction)


# --- a generator's verdicts on a draft ----------------------------------------------

@dataclass(frozen=True)
class Fits:
    """The ladder solves the draft, its hardest technique at the target tier."""

    counts: dict[str, int]
    level: Level


@dataclass(frozen=True)
class TooEasy:
    """The ladder solves the draft below the target tier: it needs fewer clues."""


TOO_EASY = TooEasy()


@dataclass(frozen=True)
class Stuck:
    """The ladder stalls (or the draft has other solutions): the cells to change around, and
    the state it stalled in where the judge keeps it."""

    cells: Sequence[int]
    state: "State | None" = None


Verdict = Fits | TooEasy | Stuck


_BOARDS: dict[int, tuple[Geometry, tuple[tuple[int, ...], tuple[int, ...]]]] = {}


def _bitboards(geo: Geometry) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(per house, per cell's peers): cell sets as bitmasks over the whole grid. Kept by the
    geometry's identity: hashing a ``Geometry`` (tuples of tuples) on every call cost more
    than a small puzzle's singles."""
    got = _BOARDS.get(id(geo))
    if got is None or got[0] is not geo:
        if len(_BOARDS) > 64:
            _BOARDS.clear()
        houses = tuple(sum(1 << i for i in cells) for cells in geo.houses)
        peers = tuple(sum(1 << j for j in geo.peers[i]) for i in range(geo.n * geo.n))
        got = _BOARDS[id(geo)] = (geo, (houses, peers))
    return got[1]


def _singles(geo: Geometry, givens: Sequence[tuple[int, int]], until: int,
             less: Sequence[tuple[int, int]] = (), used: set[tuple[int, int]] | None = None,
             ) -> tuple[bool | None, list[int], int]:
    """Naked and hidden singles on bitboards (one mask of possible cells per digit), and with
    ``less`` (smaller cell, larger cell) a sign next to a placed digit (``sign_known``); the
    signs that struck something go into ``used``.

    The easy tier, an order of magnitude faster than the candidate-per-cell
    ladder; the generator runs it first. Returns (True: solved or ``until``
    placed, False: a contradiction, None: stuck), the per-digit masks and the
    placed mask. Its reference is ``solve`` up to EASY (naked and hidden
    singles, and ``sign_known``): same verdict, placed cells and candidates
    (tests/test_engine.py checks them against each other).
    """
    n = geo.n
    house_bits, peer_bits = _bitboards(geo)
    every = (1 << (n * n)) - 1
    placed = 0
    value = [0] * (n * n)  # 0-based digit of each placed cell

    def assign(i: int, d: int) -> None:
        nonlocal placed
        b = 1 << i
        placed |= b
        value[i] = d
        for e in range(n):
            pos[e] &= ~b
        pos[d] |= b
        pos[d] &= ~peer_bits[i]

    # The givens all at once (as ``assign`` one by one would leave them): per digit, its
    # givens' cells, and their peers, where it can't go.
    at = [0] * n
    seen = [0] * n
    for i, d in givens:
        b = 1 << i
        d -= 1
        if seen[d] & b or placed & b and not at[d] & b:
            return False, [every] * n, 0  # a digit twice in a house, or two digits in a cell
        placed |= b
        value[i] = d
        at[d] |= b
        seen[d] |= peer_bits[i]
    free = every & ~placed
    pos = [free & ~seen[d] | at[d] for d in range(n)]
    stop = 1 << until if until >= 0 else 0
    while True:
        if placed == every or placed & stop:
            return True, pos, placed
        ones = twos = 0
        for m in pos:
            twos |= ones & m
            ones |= m
        if ones != every:
            return False, pos, placed  # a cell with no digit left
        single = ones & ~twos & ~placed
        if single:
            while single:
                b = single & -single
                single ^= b
                i = b.bit_length() - 1
                for d in range(n):
                    if pos[d] & b:
                        assign(i, d)
                        break
                else:
                    return False, pos, placed
            continue
        found = False
        for d in range(n):
            m = pos[d]
            for hb in house_bits:
                x = m & hb
                if x & placed:
                    continue
                if not x:
                    return False, pos, placed  # a house with no place for d
                if not x & (x - 1):
                    assign(x.bit_length() - 1, d)
                    m = pos[d]
                    found = True
        if not found and less:
            # A sign next to a placed digit: the other end is above (below) it.
            for a, b in less:
                done_a, done_b = placed >> a & 1, placed >> b & 1
                if done_a == done_b:
                    continue
                if done_a:
                    cell, digits = 1 << b, range(value[a] + 1)
                else:
                    cell, digits = 1 << a, range(value[b], n)
                for d in digits:
                    if pos[d] & cell:
                        pos[d] &= ~cell
                        found = True
                        if used is not None:
                            used.add((a, b))
        if not found:
            return None, pos, placed


def closure(geo: Geometry, givens: Sequence[tuple[int, int]], max_level: Level,
            until: int = -1, extra: Extra = NO_EXTRA, run: Run | None = None,
            rival: Callable[[], bool] | None = None) -> tuple[bool, State | None]:
    """Whether the ladder up to ``max_level`` solves the puzzle (or places ``until``), and the
    state it stalled in (None when solved or contradictory). Singles run on bitboards first;
    ``run`` collects the counts of the techniques used after them. ``rival`` (the carve's)
    says whether some solution of the givens differs from the carved one at ``until`` (or
    anywhere): then no sound technique can get there, and the ladder needn't run."""
    done, pos, placed = _singles(geo, givens, until, extra.less, extra.used)
    if done is not None:
        return done, None
    if max_level == Level.EASY and all(t[1] > Level.EASY or t[0] in ON_BITBOARDS  # (name, tier, ...)
                                       for t in extra.techniques):
        return False, None  # the easy tier is all done
    if rival is not None and rival():
        return False, None
    n = geo.n
    st = extra.new_state(geo)
    cand = st.cand = [0] * (n * n)
    # Walk each digit's set bits rather than test every (cell, digit): a stalled board
    # has about a third of its candidates left, and this runs once per carve step.
    for d in range(n):
        m = pos[d]
        b = 1 << d
        while m:
            low = m & -m
            cand[low.bit_length() - 1] |= b
            m ^= low
    flags = st.placed
    m = placed
    while m:
        low = m & -m
        flags[low.bit_length() - 1] = True
        m ^= low
    st.unplaced = n * n - placed.bit_count()
    st.started()
    try:
        return solve(st, max_level, Run() if run is None else run, until), st
    except Contradiction:
        return False, None


def used_signs(geo: Geometry, givens: Sequence[tuple[int, int]], max_level: Level,
               extra: Extra) -> set[tuple[int, int]] | None:
    """The signs (``extra.less``) the ladder up to ``max_level`` used to solve the puzzle, or
    None when it doesn't solve it. Without any other sign it takes the same steps and still
    solves, so a carve lets those go without asking again."""
    tracked = replace(extra, used=set())
    return tracked.used if closure(geo, givens, max_level, -1, tracked)[0] else None


def solves(geo: Geometry, givens: Sequence[tuple[int, int]], max_level: Level, until: int = -1,
           extra: Extra = NO_EXTRA, rival: Callable[[], bool] | None = None) -> bool:
    """Whether the ladder up to ``max_level`` solves the puzzle (or places ``until``): the
    generator's question, without the grid and the steps ``run_ladder`` reports."""
    return closure(geo, givens, max_level, until, extra, rival=rival)[0]


def settles(geo: Geometry, givens: Sequence[tuple[int, int]], trials: Sequence[tuple[int, int]],
            until: int = -1, extra: Extra = NO_EXTRA, rival: Callable[[], bool] | None = None,
            stalled: State | None = None) -> bool:
    """Whether the hard tier, helped by one trial on each of ``trials`` (cell, right digit) in
    turn, solves the puzzle (or places ``until``): each trial cell must be down to two
    candidates and its wrong one must fail by the hard tier. The expert carve's question.
    A trial's wrong digit only goes when it is impossible, so ``rival`` short-cuts as in
    ``closure``. ``stalled``: the state where the hard tier's ``closure`` of these givens
    stalled, when the caller has it (it is used up); the closure is not run again."""
    done, st = (False, stalled) if stalled is not None else \
        closure(geo, givens, Level.HARD, until, extra, rival=rival)
    if done or st is None:
        return done
    try:
        for cell, digit in trials:
            if st.placed[cell]:
                continue
            cand = st.cand[cell]
            if cand.bit_count() != 2 or not cand & bit(digit):
                return False
            wrong = st.copy()
            try:
                wrong.elim(cell, bit(digit))
                solve(wrong, Level.HARD, Run())
                return False  # the wrong digit survives the hard tier: no single trial settles it
            except Contradiction:
                pass
            st.give(cell, digit)
            if solve(st, Level.HARD, Run(), until):
                return True
    except Contradiction:  # pragma: no cover - the givens agree with a solution
        return False
    return False


def asked_once(question: Callable[[], bool]) -> Callable[[], bool]:
    """``question`` (a carve's rival) answered once and remembered: a removal the hard tier
    fails asks again when the expert carve tries a trial on it, and the SAT call costs more
    than the rest of that test."""
    answer: list[bool] = []

    def ask() -> bool:
        if not answer:
            answer.append(question())
        return answer[0]
    return ask


def score_of(counts: dict[str, int], level: Level, n: int, weights: Mapping[str, float] | None = None,
             tiers: Mapping[str, Level] | None = None) -> float:
    """The shared score (``bookgen.core.score``) with this ladder's weights and tiers
    (``weights`` and ``tiers`` add the extra constraints' techniques)."""
    return work_score(counts, {**TECHNIQUE_WEIGHT, **(weights or {})},
                      {**TECHNIQUE_LEVEL, **(tiers or {})}, level, n * n)


# --- filling and exact counting --------------------------------------------------

def random_filling(geo: Geometry, rng: random.Random, budget: int = 20000) -> list[int] | None:
    """A random complete grid (flat digits) keeping every house, or None past ``budget`` nodes.

    Depth-first with the fewest-candidates cell first and digits in random
    order; for Sudoku sizes this almost never backtracks far.
    """
    n = geo.n
    cand = [full_mask(n)] * (n * n)
    grid = [0] * (n * n)
    peers = geo.peers
    nodes = 0

    def rec(cand: list[int], left: int) -> list[int] | None:
        nonlocal nodes
        if not left:
            return grid
        nodes += 1
        if nodes > budget:
            return None
        best, best_count = -1, n + 1
        for i in range(n * n):
            if not grid[i]:
                k = cand[i].bit_count()
                if k < best_count:
                    best, best_count = i, k
                    if k <= 1:
                        break
        if best_count == 0:
            return None
        ds = digits_of(cand[best])
        rng.shuffle(ds)
        for d in ds:
            b = bit(d)
            nxt = cand[:]
            ok = True
            for j in peers[best]:
                if not grid[j] and nxt[j] & b:
                    nxt[j] &= ~b
                    if not nxt[j]:
                        ok = False
                        break
            if not ok:
                continue
            grid[best] = d
            if rec(nxt, left - 1) is not None:
                return grid
            grid[best] = 0
            if nodes > budget:
                return None
        return None

    got = rec(cand, n * n)
    return list(got) if got is not None else None


class Rival:
    """Whether the givens a carve has left allow a solution other than its own filled grid.

    One ``LatinSolver`` per rule set, kept for the process (``rival_for``) and asked
    again and again with the givens as assumptions: each optional "smaller, larger" pair
    of cells (Futoshiki's signs) has a switch, and each grid asked about anywhere gets a
    switch for "differs from it somewhere". Where another solution exists no sound ladder
    can reach the carved one, so the carve learns that a removal fails without running
    the ladder: the ladder's own verdict, sooner (most failed removals leave two
    solutions). The verdict does not depend on what the solver learned before.
    """

    RESET = 500  # grids asked about anywhere before the solver is loaded afresh (bounds memory)

    def __init__(self, geo: Geometry, pairs: Sequence[tuple[int, int]] = ()) -> None:
        self.geo, self.pairs = geo, tuple(pairs)
        self.solver: LatinSolver | None = None
        self._load()

    def _load(self) -> None:
        if self.solver is not None:
            self.solver.close()
        ls = self.solver = LatinSolver(self.geo)
        n = self.geo.n

        def sign(a: int, b: int) -> Callable[[LatinSolver, int], None]:
            def write(ls: LatinSolver, on: int) -> None:
                for da in range(1, n + 1):
                    for db in range(1, da + 1):
                        ls.add([-on, -(a * n + da), -(b * n + db)])
            return write
        self.switch = {(a, b): ls.switch((a, b), sign(a, b)) for a, b in self.pairs}
        self.grids = 0
        self.last: tuple[Sequence[int], int] | None = None

    def _anywhere(self, sol: Sequence[int]) -> int:
        """The switch of "differs from ``sol`` in some cell"."""
        if self.last is not None and self.last[0] is sol:
            return self.last[1]
        if self.grids >= self.RESET:
            self._load()
        self.grids += 1
        self.last = (sol, self.solver.differs(sol))
        return self.last[1]

    def differs(self, sol: Sequence[int], givens: Sequence[tuple[int, int]], cell: int = -1,
                less: Sequence[tuple[int, int]] = ()) -> bool:
        """Whether a solution keeping ``givens`` and the signs ``less`` (smaller cell, larger
        cell; each one of the pairs this rival was made with) differs from ``sol`` at ``cell``
        (anywhere when -1)."""
        n = self.geo.n
        assume = [i * n + d for i, d in givens]
        assume.append(-(cell * n + sol[cell]) if cell >= 0 else self._anywhere(sol))
        switch = self.switch
        assume += [switch[pair] for pair in less]
        return self.solver.ask(assume)


_RIVALS: dict[tuple[int, tuple[tuple[int, int], ...]], tuple[Geometry, Rival]] = {}


def _bound(kept: dict) -> None:
    """Forget the oldest kept solver once ``KEPT_SOLVERS`` are loaded (bounded memory: every
    Jigsaw layout is a geometry of its own); pysat frees it when its last user lets go."""
    if len(kept) >= KEPT_SOLVERS:
        del kept[next(iter(kept))]


def rival_for(geo: Geometry, pairs: Sequence[tuple[int, int]] = ()) -> Rival:
    """The process's ``Rival`` for this geometry (an object from ``geometry``, kept alive here)
    and these optional sign pairs."""
    key = (id(geo), tuple(pairs))
    got = _RIVALS.get(key)
    if got is None or got[0] is not geo:
        _bound(_RIVALS)
        got = _RIVALS[key] = (geo, Rival(geo, pairs))
    return got[1]


# --- carving ---------------------------------------------------------------------

class _Givens:
    """Which cells are given, with each house's given digits as a bitmask (a filled grid's
    givens hold a digit at most once per house), so singles are checked in a few masks."""

    def __init__(self, geo: Geometry, sol: Sequence[int]) -> None:
        n = geo.n
        self.geo, self.sol = geo, sol
        self.given = [True] * (n * n)
        self.mask = (1 << (n * n)) - 1  # the given cells
        self.bits = _bitboards(geo)[0]
        self.have = [0] * len(geo.houses)  # per house: bit d for each digit d given in it
        for h, cells in enumerate(geo.houses):
            for i in cells:
                self.have[h] |= 1 << sol[i]

    def remove(self, i: int) -> None:
        self.given[i] = False
        self.mask &= ~(1 << i)
        b = ~(1 << self.sol[i])
        for h in self.geo.houses_of[i]:
            self.have[h] &= b

    def restore(self, i: int) -> None:
        self.given[i] = True
        self.mask |= 1 << i
        b = 1 << self.sol[i]
        for h in self.geo.houses_of[i]:
            self.have[h] |= b

    def single_here(self, i: int) -> bool:
        """Whether the givens give open cell ``i`` back at once, by a naked or a hidden single.
        Reference: ``start`` from the givens, then cell ``i`` down to one candidate or its digit
        possible nowhere else in one of its houses (tests/test_engine.py)."""
        have, houses_of = self.have, self.geo.houses_of[i]
        seen = 0
        for h in houses_of:
            seen |= have[h]
        if seen.bit_count() == self.geo.n - 1:
            return True  # naked single: every other digit is given in its houses
        d = 1 << self.sol[i]
        bits = self.bits
        blocked = self.mask  # given cells, and cells in a house where d is given
        for h, hd in enumerate(have):
            if hd & d:
                blocked |= bits[h]
        one = 1 << i
        return any(bits[h] & ~blocked == one for h in houses_of)

    def pairs(self) -> list[tuple[int, int]]:
        """(cell, digit) of every given."""
        return [(i, self.sol[i]) for i, g in enumerate(self.given) if g]


def deadly_rectangles(geo: Geometry, sol: Sequence[int]) -> list[list[tuple[int, ...]]]:
    """Per cell, the 4-cell rectangles of ``sol`` (digits x y / y x on two rows and two
    columns) whose swap keeps every house whole: if all four are open, the puzzle has two
    solutions, so the carve need not run the ladder to learn that a removal fails."""
    n = geo.n
    out: list[list[tuple[int, ...]]] = [[] for _ in range(n * n)]
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            for c1 in range(n):
                x = sol[r1 * n + c1]
                for c2 in range(c1 + 1, n):
                    a, b, c, d = r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2
                    y = sol[b]
                    if sol[d] != x or sol[c] != y:
                        continue
                    swapped = {a: y, b: x, c: x, d: y}
                    ok = True
                    for h in {h for i in swapped for h in geo.houses_of[i]}:
                        inside = [i for i in swapped if h in geo.houses_of[i]]
                        if sorted(sol[i] for i in inside) != sorted(swapped[i] for i in inside):
                            ok = False
                            break
                    if ok:
                        for i in swapped:
                            out[i].append((a, b, c, d))
    return out


def drop_singles(geo: Geometry, sol: Sequence[int], cells: Sequence[int]) -> _Givens:
    """All givens, then, in the order of ``cells``, every one the others give back at once by
    a naked or hidden single: a cheap first carve, sound for any extra constraints."""
    gv = _Givens(geo, sol)
    for i in cells:
        gv.remove(i)
        if not gv.single_here(i):
            gv.restore(i)
    return gv


def may_try(level: Level, trials: Sequence[tuple[int, int]], expert_extra: int, stalled: State | None) -> bool:
    """The expert trial rule of every carve: a removal the hard tier can't take may stand on
    one more trial only at expert, up to ``expert_extra`` trials, and only where there is
    something to go on from (an earlier trial, or the state where the hard tier stalled:
    without one, no trial settles it)."""
    return level == Level.EXPERT and len(trials) < expert_extra and (bool(trials) or stalled is not None)


def fits(result: LadderResult, level: Level, max_trials: int | None = None) -> bool:
    """Whether a carve's puzzle ships at ``level``: solved, graded exactly there and, with
    ``max_trials``, on no more trials than a carve takes (the level's puzzles stay alike)."""
    return result.solved and result.level == level and \
        (max_trials is None or result.counts.get("trial", 0) <= max_trials)


def carve(geo: Geometry, sol: Sequence[int], level: Level, rng: random.Random, expert_extra: int,
          extra: Extra = NO_EXTRA) -> tuple[list[bool], list[tuple[int, int]]]:
    """Which cells stay given, removed in random order while the target tier still solves, and
    (expert) the givens only a trial brings back, at most ``expert_extra`` of them.

    Givens the others give back at once by a single go first (a cheap test);
    above easy, every given the target tier still recovers; at expert, a given
    the hard tier can't recover may also go when one trial on it does, taken
    during the carve while the board is still rich enough to stay unique.
    """
    n = geo.n
    cells = list(range(n * n))
    rng.shuffle(cells)
    gv = drop_singles(geo, sol, cells)
    if level == Level.EASY and not extra.techniques:
        return gv.given, []  # singles are the whole easy tier
    tier = min(level, Level.HARD)
    trials: list[tuple[int, int]] = []  # expert: givens only a trial brings back, in order
    # Extra constraints may tell a rectangle's two fillings apart, so only plain houses use them.
    deadly = deadly_rectangles(geo, sol) if not extra.techniques else [[] for _ in cells]
    given = gv.given
    # Extra constraints are unknown to the rival's solver: without it, the ladder decides alone.
    rival = rival_for(geo) if not extra.techniques else None
    for i in cells:
        if not given[i]:
            continue
        gv.remove(i)
        if any(not (given[r[0]] or given[r[1]] or given[r[2]] or given[r[3]]) for r in deadly[i]):
            gv.restore(i)  # an open rectangle: two solutions, whatever the ladder would say
            continue
        pairs = gv.pairs()
        other = asked_once(lambda: rival.differs(sol, pairs, i)) if rival else None
        stalled = None
        if not trials:
            done, stalled = closure(geo, pairs, tier, until=i, extra=extra, rival=other)
            if done:
                continue
        if trials and settles(geo, pairs, trials, until=i, extra=extra, rival=other):
            continue
        # A given the hard tier can't bring back may go at expert when a trial on it
        # does: taken during the carve, while the board is still rich enough to stay unique.
        # (Where the hard tier's closure found no stall to go on from, no trial settles it.)
        if may_try(level, trials, expert_extra, stalled) and \
                settles(geo, pairs, trials + [(i, sol[i])], extra=extra, rival=other, stalled=stalled):
            trials.append((i, sol[i]))
            continue
        gv.restore(i)
    return gv.given, trials
