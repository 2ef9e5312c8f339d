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

- its techniques: ``techniques``, a tuple of ``Tech(name, tier, fn, weight, rating)``
  rows, each technique declared once (with its how-to text, ``title`` and
  ``description``, where the rows serve one puzzle). ``fn(geo, st, run) -> int`` strikes
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

The house ladder (``LADDER``; the grade's level is the hardest tier used), in the
order the driver tries it: by tier, and inside a tier by Sudoku Explainer value
(``Tech.rating``), so the step taken is always the easiest there is on SE's scale:

- easy: ``hidden_single_box`` (a digit fits only one cell of a box or region),
  ``hidden_single`` (of a row, column or diagonal), ``naked_single`` (a cell
  with one candidate left);
- medium: ``locked_candidates`` (pointing and claiming), ``confined_candidates``
  (a digit with two or three places in a house leaves every cell that sees them
  all: diagonals, irregular regions), ``naked_pair``, ``hidden_pair``;
- hard: ``x_wing``, ``naked_triple``, ``swordfish``, ``hidden_triple``,
  ``skyscraper_pattern``, ``two_string_kite``, ``xy_wing``, ``turbot_fish``,
  ``grouped_turbot`` (the same with an end a box's group), ``xyz_wing``, ``unique_rectangle`` (types 1 and 2),
  ``unique_loop`` (the same pattern on six, eight or more cells), ``naked_quad``, ``jellyfish``,
  ``hidden_quad``, ``w_wing``, ``bug`` (BUG+1); unique rectangles, unique loops and BUG+1
  assume the puzzle has one solution and run only where the houses are the whole rule set;
- expert: ``simple_colouring``, ``x_chain``, ``als_wing`` (an almost locked set
  and a two-candidate cell), ``xy_chain``, ``forcing_chain``,
  then ``trial`` (assume one candidate of a cell with two, follow the easy..hard
  tiers to a contradiction, remove it). Never nested.

A caller that only asks whether a tier solves (the generator) passes ``fast``:
the same table with naked singles first, which reach the same state.

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
from itertools import chain, combinations, product
from typing import Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

from bookgen.core.bits import scan_forward
from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_, Text, join_and, join_or
from bookgen.core.memo import kept_by_identity
from bookgen.core.rating import (ALS_WING, CLAIMING, POINTING, forcing_rating, unique_loop_rating, x_chain_rating,
                                 xy_chain_rating)
from bookgen.core.score import work_score
from bookgen.core.variant import Step, Technique
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

    __slots__ = ("counts", "steps", "reason", "explain", "value", "best")

    def __init__(self, explain: bool = False) -> None:
        self.counts: dict[str, int] = {}
        self.steps: list[Step] | None = [] if explain else None
        self.reason = ""
        self.explain = explain
        # The rating of the last use where it depends on the instance (a chain by its
        # length, claiming beside pointing); None: the technique's own ``Tech.rating``.
        self.value: float | None = None
        # The rated run asks chains for the shortest one open (SE's order), not the first found.
        self.best = False


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


def trial(cells: Iterable[int], cols: int, st, run: Run, solve_with: Callable) -> int:
    """One trial, never nested: a digit of a cell (one of ``cells``, on a grid ``cols`` wide)
    with few candidates that the tiers up to ``TRIAL_DEPTH`` (``solve_with``, the calling
    ladder's own) refute is struck. Shared by every Latin-square ladder and Kakuro's, whatever
    its state type (``cand``, ``placed``, ``copy``, ``elim``)."""
    # Only cells with few candidates: a player tries a pair, not a spread of six.
    order = sorted(
        (st.cand[i].bit_count(), i) for i in cells
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
                                      cell=cell_text(i, cols), digit=d)
                return 1
    return 0


class Tech(NamedTuple):
    """One row of a ladder table, where a technique is declared once: its name (the key of
    its counts, grades and explanations), its tier, its function ``fn(geometry, state, run)``
    (it strikes candidates and returns how many uses it made, 0 when it found nothing), its
    weight (the effort of one use, for the score inside a level), its rating: the value of
    one step on the 1-10 scale solvers know (Sudoku Explainer's published values for the
    Sudoku techniques; ``None`` where no value has been set yet), and how the how-to page
    explains it to a player (``title``, ``description``: message ids), where one wording
    serves every puzzle the row serves (a house technique whose words name the houses, "a
    row, column or box", carries none: each variant words it for its own). A table with texts lays a
    row out on two lines: the fields and the title, then the description whole on one line, as
    the catalogs hold it.

    ``probe(geometry, state)``, where a technique has one, says cheaply whether ``fn`` might
    find something: False must mean that ``fn`` on a copy of that state would return 0 without
    raising. The rated run tries each technique on a copy of its state and drops the copy when
    nothing is found; the probe lets it skip the copy (``rated_run(..., probes=False)`` is the
    plain version). A probe changes nothing a technique reads but bookkeeping whose only use is
    to skip work that would find nothing (stamps, "seen" flags)."""

    name: str
    tier: Level
    fn: Callable[..., int]
    weight: float = 1.0
    rating: float | None = None
    probe: Callable[..., bool] | None = None
    title: str = ""
    description: str = ""


class Ladder(tuple):
    """A ladder table: its ``Tech`` rows in the order the driver tries them, and what the
    graders and the how-to page look up, read off the rows once: ``tier``, ``weight`` (for
    the score inside a level), ``rating`` and ``explained`` (the rows with a title, as the
    variant protocol's ``Technique``s, in the table's order). Still the tuple of its rows."""

    tier: dict[str, Level]
    weight: dict[str, float]
    rating: dict[str, float | None]
    explained: tuple[Technique, ...]

    def __new__(cls, *rows: Tech) -> "Ladder":
        self = super().__new__(cls, rows)
        self.tier = {t.name: t.tier for t in rows}
        self.weight = {t.name: t.weight for t in rows}
        self.rating = {t.name: t.rating for t in rows}
        self.explained = tuple(Technique(t.name, t.tier, t.title, t.description) for t in rows if t.title)
        return self

    def __getnewargs__(self) -> tuple[Tech, ...]:  # a copy or a pickle is rebuilt from the rows
        return tuple(self)


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
    blocks: tuple[int, ...] = ()             # the boxes or regions (hidden singles there rate lower)
    lines: tuple[int, ...] = ()              # the other houses, in ``scan`` order: rows, columns, diagonals

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
    geo = _build_geometry(n, box, diagonal, ())
    _KEPT[id(geo)] = geo
    return geo


# The rule sets' geometries, kept for the process: tables worth building once per geometry
# (``_seen_by``, ``_group_links``) are built for these only. A Jigsaw layout or a Killer
# draft makes a geometry of its own, which the plain versions serve (the same answers).
_KEPT: dict[int, Geometry] = {}


def _kept(g: Geometry) -> bool:
    return _KEPT.get(id(g)) is g


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
    blocks = tuple(range(2 * n, len(houses) - (2 if diagonal else 0)))
    lines = tuple(h for h in scan if h not in blocks)
    return Geometry(n, tuple(houses), tuple(names), tuple(peers),
                    tuple(tuple(h) for h in houses_of), tuple(overlaps), scan, words, blocks, lines)


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

    def up_to(self, level: Level, fast: bool = False) -> tuple[tuple[str, Callable], ...]:
        """(name, function) of the ladder's techniques up to ``level``, in order; ``fast``: with
        naked singles first (the cheapest step: a queue, no scan), for a caller that asks only
        whether the tier solves (the singles reach the same state in any order)."""
        got = self.__dict__.get("_views")  # kept on the instance: the driver asks every run
        if got is None:
            got = _views(self.ladder())
            object.__setattr__(self, "_views", got)  # (a frozen dataclass: not a field)
        return got[2][level] if fast else got[0][level]

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

    def rated_steps(self, geo: "Geometry", advanced: tuple, values: tuple[float, float, float],
                    alone: float | None) -> Callable[["State"], tuple | None] | None:
        """A faster way for ``bookgen.solve.rated.rated_run`` to take its steps on this
        constraint's states, or None (the default: the run's own search). Given the run's plan
        (``rated._plan``), it returns a function that takes the step the run would take next on
        a state, in place, and returns it as (technique, value, options), or None where it
        leaves that step to the run, which it may only do where no single is open; or as
        (technique, value, options, count) for ``count`` such steps taken at once, the options
        one fewer each (the run's last naked singles); the run without it is the plain version
        it must equal."""
        return None


NO_EXTRA = Extra()


@kept_by_identity()
def _views(ladder: tuple[Tech, ...]) -> tuple[dict[Level, tuple[tuple[str, Callable], ...]], dict[str, Level],
                                              dict[Level, tuple[tuple[str, Callable], ...]]]:
    """(per level, the (name, function) pairs up to it; each name's tier; per level, the same
    pairs with naked singles first) of a ladder table, kept by the table's identity: a
    generator makes a constraint per draft, on a few tables."""
    fast = sorted(ladder, key=lambda t: t.name != "naked_single")  # (stable: the rest in order)
    return (
        {lv: tuple((t.name, t.fn) for t in ladder if t.tier <= lv) for lv in Level},
        {t.name: t.tier for t in ladder},
        {lv: tuple((t.name, t.fn) for t in fast if t.tier <= lv) for lv in Level})


@lru_cache(maxsize=64)
def merged_ladder(techniques: tuple[Tech, ...]) -> Ladder:
    """The house ladder with ``techniques`` merged in by tier, theirs first within a tier."""
    return Ladder(*sorted([Tech(*t) for t in techniques] + list(LADDER), key=lambda t: t.tier))


# House techniques that find nothing where the houses are a grid's rows and columns only
# (Futoshiki, Skyscrapers), whatever the position: they look at boxes, diagonals or regions (a
# box's hidden single, locked and confined candidates, the grouped turbot's box groups, the
# turbot fish's links through a box). A constraint on such a grid may leave them out of its
# ladder (``lines_ladder``); tests/test_sky_carve.py and tests/test_futoshiki.py run each on
# stalled positions and compare whole ladder and rated runs.
LINES_IDLE = frozenset({"hidden_single_box", "locked_candidates", "confined_candidates", "grouped_turbot",
                        "turbot_fish"})


@lru_cache(maxsize=16)
def lines_ladder(techniques: tuple[Tech, ...], idle: frozenset[str] = LINES_IDLE) -> Ladder:
    """``merged_ladder`` less the techniques named in ``idle``."""
    return Ladder(*(t for t in merged_ladder(techniques) if t.name not in idle))


# The extra techniques ``_singles`` already runs on bitboards (from ``Extra.less``).
ON_BITBOARDS = frozenset({"sign_known"})


def strike(cand: list[int], i: int, mask: int, cols: int) -> int:
    """Take ``mask`` out of cell ``i``'s candidates in ``cand`` (a grid ``cols`` wide): the
    candidates left, 0 when none of ``mask`` was there. Raises ``Contradiction`` when it
    leaves none. The one elimination of every candidate-mask state (the house engine's,
    Kakuro's); each adds its own bookkeeping around it."""
    old = cand[i]
    new = old & ~mask
    if new == old:
        return 0
    if not new:
        raise Contradiction(f"{cell_name(i, cols)} has no digit left")
    cand[i] = new
    return new


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
        other.memo = self.memo  # a snapshot and a table updated by copy: ``house_positions`` may share it
        other.stamp = None
        return other

    def elim(self, i: int, mask: int) -> bool:
        """Remove ``mask`` from cell ``i``; True when something went."""
        new = strike(self.cand, i, mask, self.board.n)
        if new and not new & (new - 1):
            self.fresh.append(i)
        return bool(new)

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
    """A digit that fits one cell of a row, a column or a diagonal (of any house where the
    geometry has no boxes or regions: ``lines`` is empty there)."""
    return _hidden_single(g, st, run, g.lines or g.scan, "hidden_single")


def t_hidden_single_box(g: Geometry, st: State, run: Run) -> int:
    """A digit that fits one cell of a box or a region: the easiest step there is (SE 1.2)."""
    return _hidden_single(g, st, run, g.blocks, "hidden_single_box") if g.blocks else 0


def _hidden_single(g: Geometry, st: State, run: Run, scan: Sequence[int], name: str) -> int:
    cand = st.cand
    placed = st.placed
    full = full_mask(g.n)
    houses = g.houses
    stamp = st.stamp
    seen = st.seen_list(name) if stamp is not None else None
    for h in scan:
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

def t_locked_candidates_plain(g: Geometry, st: State, run: Run) -> int:
    """A digit of a house confined to where it meets another leaves the rest of that one. The
    plain version ``t_locked_candidates`` must equal (tests/test_engine.py)."""
    # A placed digit is gone from every other cell of its houses, so unions over
    # whole segments (placed cells included) never let it look locked somewhere.
    # Pointing (a box's digit confined to one line) is taken before claiming, as SE does
    # (it rates pointing 2.6, claiming 2.8): a claiming found first waits for the end.
    cand = st.cand
    claiming = None
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
        if inside & ~rest_a & rest_b or inside & ~rest_b & rest_a:
            struck, claiming = _locks(g, st, run, (a, b, only_a, only_b), inside, rest_a, rest_b, claiming)
            if struck:
                return 1
    return int(claiming is not None and _lock(g, st, run, *claiming))


def _locks(g: Geometry, st: State, run: Run, overlap: tuple[int, int, Sequence[int], Sequence[int]], inside: int,
           rest_a: int, rest_b: int, claiming: tuple | None) -> tuple[bool, tuple | None]:
    """Locked candidates at one overlap (houses a and b, the cells only in a, only in b) from the
    unions of candidates over the shared cells and over each rest: a pointing strikes at once,
    the first claiming waits (SE rates it higher). (Whether it struck, the claiming kept.)"""
    a, b, only_a, only_b = overlap
    for first, second, locked, rest_second in ((a, b, inside & ~rest_a & rest_b, only_b),
                                               (b, a, inside & ~rest_b & rest_a, only_a)):
        if not locked:
            continue
        if first < 2 * g.n:
            if claiming is None:
                claiming = (first, second, locked, rest_second)
            continue
        if _lock(g, st, run, first, second, locked, rest_second):
            return True, claiming
    return False, claiming


@kept_by_identity(of="overlaps")
def _lock_plan(g: Geometry) -> tuple[tuple[tuple[int, ...], ...], tuple]:
    """The overlaps of ``g`` for ``t_locked_candidates``: the distinct sets of cells two houses
    share (the atoms), and per overlap ((a, b, the cells only in a, only in b), its atom, and for
    each of the rest of a and the rest of b the atoms inside it and the cells no atom covers). A union of candidates over a part is the union over its atoms and cells (an
    atom may overlap another: a union doesn't mind). Kept by the identity of the overlaps,
    which a Killer draft's geometry shares with its rule set's."""
    atoms = list(dict.fromkeys(both for _, _, both, _, _ in g.overlaps))
    index = {both: k for k, both in enumerate(atoms)}

    def cover(part: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        inside = set(part)
        used = tuple(k for k, atom in enumerate(atoms) if inside.issuperset(atom))
        left = inside - {i for k in used for i in atoms[k]}
        return used, tuple(sorted(left))

    plan = tuple(((a, b, only_a, only_b), index[both], cover(only_a), cover(only_b))
                 for a, b, both, only_a, only_b in g.overlaps)
    return (tuple(atoms), plan)


def t_locked_candidates(g: Geometry, st: State, run: Run) -> int:
    """``t_locked_candidates_plain``, which it must equal: the unions of candidates over each
    set of cells two houses share are taken once, and the rest of a house is the union of
    those inside it (``_lock_plan``) instead of every cell read again per overlap (in Sudoku
    the rest of a row by a box is two such sets). It ran at every stall of the medium and hard
    carves."""
    cand = st.cand
    atoms, plan = _lock_plan(g)
    unions = []
    for atom in atoms:
        u = 0
        for i in atom:
            u |= cand[i]
        unions.append(u)
    claiming = None
    for overlap, k, (a_atoms, a_cells), (b_atoms, b_cells) in plan:
        inside = unions[k]
        rest_a = 0
        for j in a_atoms:
            rest_a |= unions[j]
        for i in a_cells:
            rest_a |= cand[i]
        rest_b = 0
        for j in b_atoms:
            rest_b |= unions[j]
        for i in b_cells:
            rest_b |= cand[i]
        if inside & ~rest_a & rest_b or inside & ~rest_b & rest_a:
            struck, claiming = _locks(g, st, run, overlap, inside, rest_a, rest_b, claiming)
            if struck:
                return 1
    return int(claiming is not None and _lock(g, st, run, *claiming))


def _lock(g: Geometry, st: State, run: Run, first: int, second: int, locked: int, rest_second: Sequence[int]) -> bool:
    """Strike ``locked`` (digit bits confined to where ``first`` meets ``second``) from the
    rest of ``second``; whether anything went."""
    cuts = cut(st, [i for i in rest_second if not st.placed[i]], locked)
    if not cuts:
        return False
    run.value = POINTING if first >= 2 * g.n else CLAIMING
    if run.explain:
        ds = and_list([str(d) for d in digits_of(locked)])
        run.reason = Text(
            N_("in {house}, {digits} can only go where it meets {other}, so the rest of "
               "{other} can't hold it; {cuts}.") if not locked & (locked - 1) else
            N_("in {house}, {digits} can only go where it meets {other}, so the rest of "
               "{other} can't hold them; {cuts}."),
            house=g.names[first], digits=ds, other=g.names[second], cuts=describe_cuts(st, cuts))
    return True


def seen_table(tables: dict[str, list[int]], name: str, units: int) -> list[int]:
    """Per unit (a house, a cage, a run), the change count technique ``name`` last looked at
    it with and found nothing (-1: never): ``tables[name]``, made on first use. The one
    bookkeeping of every state with change stamps (KenKen's, Killer's, Kakuro's)."""
    got = tables.get(name)
    if got is None:
        got = tables[name] = [-1] * units
    return got


def unseen_houses(st: State, name: str, houses: Iterable[int]) -> Iterable[int]:
    """The houses of ``houses`` changed since technique ``name`` last looked at them (all of
    them on a state without stamps), each marked looked at as it is handed out: a cut made
    while the technique works on it changes its stamp again, and a house it never reached
    (it returned first) stays unseen. Without stamps, ``houses`` itself (no generator in
    Sudoku's loop); ``_hidden_single``, the hottest loop, does the same inline."""
    stamp = st.stamp
    return houses if stamp is None else _unseen(st.seen_list(name), stamp, houses)


def _unseen(seen: list[int], stamp: list[int], houses: Iterable[int]) -> Iterator[int]:
    for h in houses:
        if seen[h] != stamp[h]:
            seen[h] = stamp[h]
            yield h


def subset_reason(message: str, g: Geometry, st: State, h: int, group: Sequence[int], digits: Sequence[int],
                  cuts: Sequence[tuple[int, int]]) -> Text:
    """``message`` (a naked or hidden subset) said of house ``h``, its ``group`` of cells,
    ``digits`` (1-based) and the ``cuts`` made."""
    return Text(message, house=g.names[h], cells=and_list([cell_text(i, g.n) for i in group]),
                digits=and_list([str(d) for d in digits]), cuts=describe_cuts(st, cuts))


def naked_technique(size: int, name: str) -> Callable[[Geometry, State, Run], int]:
    """Naked subsets of ``size`` cells in a house, as technique ``name``."""
    def tech(g: Geometry, st: State, run: Run) -> int:
        for h in unseen_houses(st, name, range(len(g.houses))):
            for group, u, others in naked_subsets(g.houses[h], st.cand, st.placed, size):
                cuts = cut(st, others, u)
                if cuts:
                    if run.explain:
                        run.reason = subset_reason(N_("in {house}, {cells} can only hold {digits} between them, "
                                                      "so the other cells can't; {cuts}."),
                                                   g, st, h, group, digits_of(u), cuts)
                    return 1
        return 0
    tech.__name__ = f"t_{name}"
    return tech


def house_positions(g: Geometry, st: State) -> list[list[int]]:
    """Per house, per digit (0-based), a bitmask of the positions in the house (index into
    ``g.houses[h]``) of the open cells where it is still possible.

    Hidden pairs, hidden triples and X-wings all read it; on a stalled board
    they run one after the other on the same candidates, so it is kept until
    they change (two list comparisons, far cheaper than the table), and then
    updated at the cells that changed. It must equal ``positions`` per house
    worked out afresh (tests/test_engine.py).
    """
    cand, placed = st.cand, st.placed
    memo = st.memo
    if memo is not None:
        was, was_placed, table = memo
        if was == cand and was_placed == placed:
            return table
        # A step changes a few cells: update the rows of their houses (copies: a table may be
        # shared with the state it was copied from) instead of working out every house again.
        changed = [i for i, a, b, p, q in zip(range(len(cand)), cand, was, placed, was_placed) if a != b or p != q]
        if len(changed) * 4 < len(cand):
            table = table[:]
            fresh = set()
            slots = _slots(g)
            for i in changed:
                flip = (0 if placed[i] else cand[i]) ^ (0 if was_placed[i] else was[i])
                for h, at in slots[i]:
                    if h not in fresh:
                        fresh.add(h)
                        table[h] = table[h][:]
                    row = table[h]
                    f = flip
                    while f:
                        low = f & -f
                        f ^= low
                        row[low.bit_length() - 1] ^= at
            st.memo = (cand[:], placed[:], table)
            return table
    table = [positions(cand, cells, placed, g.n) for cells in g.houses]
    st.memo = (cand[:], placed[:], table)
    return table


@kept_by_identity()
def _slots(geo: Geometry) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, (house, its position's bit in the house) for each house it is in; kept by
    the geometry's identity as ``_bitboards`` is."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(geo.n * geo.n)]
    for h, cells in enumerate(geo.houses):
        for k, i in enumerate(cells):
            out[i].append((h, 1 << k))
    return tuple(map(tuple, out))


def hidden_technique(size: int, name: str) -> Callable[[Geometry, State, Run], int]:
    """Hidden subsets of ``size`` digits in a house, as technique ``name``."""
    def tech(g: Geometry, st: State, run: Run) -> int:
        placed = st.placed
        table = house_positions(g, st) if st.stamp is None else None
        is_placed = placed.__getitem__
        for h in unseen_houses(st, name, range(len(g.houses))):
            cells = g.houses[h]
            if len(cells) - sum(map(is_placed, cells)) <= size:  # (open cells: too few for a subset)
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
                        run.reason = subset_reason(N_("in {house}, {digits} fit only in {cells}, so those cells "
                                                      "hold nothing else; {cuts}."),
                                                   g, st, h, group, [d + 1 for d in ds], cuts)
                    return 1
        return 0
    tech.__name__ = f"t_{name}"
    return tech


# --- hard ------------------------------------------------------------------------

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


# --- shared by the patterns below ------------------------------------------------

def _bit_cells(mask: int) -> list[int]:
    """The cell indices of a bitmask over the grid, ascending."""
    return list(scan_forward(mask))


def _chain(start: tuple, ahead: Callable[[tuple], Sequence[tuple]],
           settle: Callable[[tuple], list[tuple[int, int]]]) -> tuple[list[int], list[tuple[int, int]]] | None:
    """Breadth first from ``start`` over nodes (cell, state): ``ahead(node)`` the next nodes,
    ``settle(node)`` the cuts a chain ending there makes (none: go on). The first chain that
    cuts something, as (its cells in order, the cuts), or None; shortest chains come first."""
    parent: dict[tuple, tuple | None] = {start: None}
    todo = [start]
    while todo:
        nxt = []
        for node in todo:
            for key in ahead(node):
                if key in parent:
                    continue
                parent[key] = node
                nxt.append(key)
                cuts = settle(key)
                if cuts:
                    path: list[int] = []
                    at: tuple | None = key
                    while at is not None:
                        path.append(at[0])
                        at = parent[at]
                    return path[::-1], cuts
        todo = nxt
    return None


def _open_with(st: State, cells: Sequence[int], m: int) -> list[int]:
    """The open cells of ``cells`` where digit bit ``m`` is still a candidate."""
    cand, placed = st.cand, st.placed
    return [i for i in cells if not placed[i] and cand[i] & m]


def _with_count(st: State, k: int) -> list[int]:
    """The open cells with exactly ``k`` candidates."""
    cand, placed = st.cand, st.placed
    return [i for i in range(len(cand)) if not placed[i] and cand[i].bit_count() == k]


def _seeing_all(g: Geometry, cells: Sequence[int]) -> int:
    """The cells (a bitmask) that see every one of ``cells``, those cells themselves left out."""
    peers = _bitboards(g)[1]
    mask = (1 << (g.n * g.n)) - 1
    for i in cells:
        mask &= peers[i]
    for i in cells:
        mask &= ~(1 << i)
    return mask


def _cut_seeing(g: Geometry, st: State, ends: Sequence[int], m: int) -> list[tuple[int, int]]:
    """Strike digit bit ``m`` from every open cell that sees all of ``ends``."""
    return cut(st, _open_with(st, _bit_cells(_seeing_all(g, ends)), m), m)


def _plain(st: State) -> bool:
    """Whether the houses are the whole rule set (no cages, no signs): only then is a pattern
    with two fillings (a unique rectangle, a BUG) impossible in a puzzle with one solution."""
    return not st.extra.techniques and not st.extra.less


def _cells_text(g: Geometry, cells: Sequence[int]) -> str:
    return and_list([cell_text(i, g.n) for i in cells])


def _chain_text(g: Geometry, cells: Sequence[int]) -> str:
    """'r1c2 - r1c5 - r4c5': the cells of a chain in order, as a translatable list."""
    text = cell_text(cells[-1], g.n)
    for i in reversed(cells[:-1]):
        text = Text(N_("{first} \u2192 {rest}"), first=cell_text(i, g.n), rest=text)
    return text


# --- medium: a digit confined to cells that all see others (diagonals, regions) -------


@kept_by_identity()
def _confines(g: Geometry) -> bool:
    """Whether a digit confined to a few cells of a house can rule out cells locked candidates
    don't reach: only with diagonals or irregular regions (in plain Sudoku the cells that see
    all of them lie in a row, column or box that meets the house, where locked candidates
    already look)."""
    n = g.n
    odd = len(g.lines) > 2 * n
    for h in g.blocks:
        rows = {i // n for i in g.houses[h]}
        cols = {i % n for i in g.houses[h]}
        odd = odd or len(rows) * len(cols) != n
    return odd


def t_confined_plain(g: Geometry, st: State, run: Run) -> int:
    """A digit that fits only two or three cells of a house is ruled out of every cell that sees
    all of them (Sudoku X: two cells of a diagonal and the cells that see both). The plain
    version ``t_confined`` must equal (tests/test_engine.py)."""
    if not _confines(g):
        return 0
    table = house_positions(g, st)
    peers = _bitboards(g)[1]
    holders = [0] * g.n  # per digit, the open cells (a bitmask) that may hold it
    cand, placed = st.cand, st.placed
    for i in range(g.n * g.n):
        if not placed[i]:
            for d in scan_forward(cand[i]):
                holders[d] |= 1 << i
    for h, cells in enumerate(g.houses):
        where = table[h]
        for d in range(g.n):
            pos = where[d]
            if not 2 <= pos.bit_count() <= 3:
                continue
            group = [cells[k] for k in scan_forward(pos)]
            seeing = holders[d]
            for i in group:
                seeing &= peers[i]  # (a cell is not its own peer: the group drops out)
            if not seeing:
                continue  # the usual case: nothing to strike, found without building lists
            if _confined_cut(g, st, run, h, d, group, seeing):
                return 1
    return 0


def _confined_cut(g: Geometry, st: State, run: Run, h: int, d: int, group: Sequence[int], seeing: int) -> bool:
    """Strike digit ``d`` (0-based) from the cells ``seeing`` (a bitmask) that see every cell of
    ``group``, where ``d`` is confined in house ``h``; whether anything went."""
    cuts = cut(st, _bit_cells(seeing), 1 << d)
    if cuts and run.explain:
        run.reason = Text(N_("in {house}, {digit} can only go in {cells}; a cell that sees all of "
                             "them can't be {digit}; {cuts}."), house=g.names[h], digit=d + 1,
                          cells=_cells_text(g, group), cuts=describe_cuts(st, cuts))
    return bool(cuts)


@kept_by_identity()
def _seen_by(g: Geometry) -> tuple[tuple[dict[int, int], ...], bool]:
    """Per house, for each set of two or three of its positions (a bitmask over the house),
    the cells that see all of those cells (a bitmask over the grid); and whether each row
    ``r`` is the cells ``r * n`` to ``r * n + n - 1`` in order (its positions, shifted, are
    cells). Kept by the geometry's identity as ``_bitboards`` is."""
    peers = _bitboards(g)[1]
    tables = []
    for cells in g.houses:
        table: dict[int, int] = {}
        for size in (2, 3):
            for ks in combinations(range(len(cells)), size):
                seeing = -1
                for k in ks:
                    seeing &= peers[cells[k]]
                table[sum(1 << k for k in ks)] = seeing
        tables.append(table)
    return tuple(tables), _row_major(g)


@kept_by_identity(of="houses")
def _row_major(g: Geometry) -> bool:
    """Whether each row ``r`` of ``g`` is the cells ``r * n`` to ``r * n + n - 1`` in order
    (a row's positions, shifted, are then its cells); kept by the identity of the houses,
    which a Killer draft's geometry shares."""
    n = g.n
    return all(g.houses[r] == tuple(range(r * n, r * n + n))
                                                      for r in range(n))


def t_confined(g: Geometry, st: State, run: Run) -> int:
    """``t_confined_plain``, which it must equal (the same cut, the same house and digit
    first): the digits' open cells come from the rows of the positions table (shifted into
    place) instead of every cell's candidates, and the cells that see a house's two or three
    places of a digit are one lookup. Sudoku X's medium carve called the plain version at
    every stall, a fifth of its time."""
    if not _confines(g):
        return 0
    if not _kept(g) or not _row_major(g):
        return t_confined_plain(g, st, run)
    table = house_positions(g, st)
    seen_by = _seen_by(g)[0]
    n = g.n
    holders = [0] * n  # per digit, the open cells (a bitmask) that may hold it
    for r in range(n):
        shift = r * n
        for d, pos in enumerate(table[r]):
            if pos:
                holders[d] |= pos << shift
    for h, where in enumerate(table):
        common = seen_by[h]
        for d, pos in enumerate(where):
            seeing = common.get(pos)
            if seeing is None or not seeing & holders[d]:
                continue
            cells = g.houses[h]
            group = [cells[k] for k in scan_forward(pos)]
            if _confined_cut(g, st, run, h, d, group, seeing & holders[d]):
                return 1
    return 0


# --- hard: fish, wings, single-digit links, uniqueness ----------------------------

def fish_technique(size: int, name: str) -> Callable[[Geometry, State, Run], int]:
    """A digit whose places in ``size`` rows lie in ``size`` columns (or the other way round)
    as technique ``name``: each of those rows takes one of the columns, so the rest of those
    columns can't hold it (X-wing 2, Swordfish 3, Jellyfish 4)."""
    def tech(g: Geometry, st: State, run: Run) -> int:
        n = g.n
        placed = st.placed
        table = house_positions(g, st)
        for base, cover in ((0, n), (n, 0)):
            for d in range(n):
                lines = [k for k in range(n) if 2 <= table[base + k][d].bit_count() <= size]
                if len(lines) < size:
                    continue
                for combo in combinations(lines, size):
                    u = 0
                    for k in combo:
                        u |= table[base + k][d]
                    if u.bit_count() != size:
                        continue
                    js = [j for j in range(n) if u >> j & 1]
                    others = [i for j in js for kk, i in enumerate(g.houses[cover + j])
                              if kk not in combo and not placed[i]]
                    cuts = cut(st, others, 1 << d)
                    if cuts:
                        if run.explain:
                            lines_t = join_and([g.names[base + k] for k in combo])
                            cover_t = join_and([g.names[cover + j] for j in js])
                            run.reason = Text(
                                N_("in {lines}, {digit} can only go in {cover}; whichever way round, it takes "
                                   "both of those, so no other cell of {cover} can be {digit}; {cuts}.")
                                if size == 2 else
                                N_("in {lines}, {digit} can only go in {cover}; each of those lines takes it in "
                                   "a different one of them, so no other cell of {cover} can be {digit}; {cuts}."),
                                lines=lines_t, digit=d + 1, cover=cover_t, cuts=describe_cuts(st, cuts))
                        return 1
        return 0
    tech.__name__ = f"t_{name}"
    return tech


def t_xyz_wing(g: Geometry, st: State, run: Run) -> int:
    """A pivot xyz sees a cell xz and a cell yz: whichever it is, one of the three is z, so a
    cell that sees all three can't be z."""
    n = g.n
    cand, placed = st.cand, st.placed
    for pivot in _with_count(st, 3):
        pm = cand[pivot]
        wings = [j for j in g.peers[pivot] if not placed[j] and cand[j].bit_count() == 2 and not cand[j] & ~pm]
        for a, b in combinations(wings, 2):
            z = cand[a] & cand[b]
            if cand[a] == cand[b] or (cand[a] | cand[b]) != pm or z.bit_count() != 1:
                continue
            cuts = _cut_seeing(g, st, (pivot, a, b), z)
            if cuts:
                if run.explain:
                    run.reason = Text(
                        N_("{pivot} is {digits}; {a} and {b} each hold {z} and one of its other digits, so "
                           "one of the three is {z} and no cell that sees all three can be {z}; {cuts}."),
                        pivot=cell_text(pivot, n), digits=and_list([str(v) for v in digits_of(pm)], 'or'),
                        a=cell_text(a, n), b=cell_text(b, n), z=z.bit_length(), cuts=describe_cuts(st, cuts))
                return 1
    return 0


def t_als_wing(g: Geometry, st: State, run: Run) -> int:
    """An almost locked set: k cells of one house holding k + 1 digits between them (k = 3, 4,
    5), and a two-candidate cell xz outside it that every x of the set sees. If that cell isn't
    z it is x, the set loses x and its k cells hold the other k digits, z among them: so one of
    the set's z cells or the two-candidate cell is z, and no cell that sees them all can be.
    Sudoku Explainer's fork finds these as its WXYZ-, VWXYZ- and UVWXYZ-wings (5.5, 6.2, 6.6);
    the smallest set is taken first."""
    n = g.n
    cand, placed = st.cand, st.placed
    peers = _bitboards(g)[1]
    pairs = _with_count(st, 2)
    if not pairs:
        return 0
    for size in sorted(ALS_WING):
        for h, cells in enumerate(g.houses):
            open_cells = [i for i in cells if not placed[i] and cand[i].bit_count() <= size + 1]
            for group in combinations(open_cells, size):
                u = 0
                for i in group:
                    u |= cand[i]
                if u.bit_count() != size + 1:
                    continue
                for b in pairs:
                    bm = cand[b]
                    if bm & ~u or b in group:
                        continue
                    for x in digits_of(bm):
                        xb = bit(x)
                        if any(cand[i] & xb and not peers[b] >> i & 1 for i in group):
                            continue
                        zb = bm & ~xb
                        ends = [i for i in group if cand[i] & zb] + [b]
                        cuts = _cut_seeing(g, st, ends, zb)
                        if cuts:
                            run.value = ALS_WING[size]
                            if run.explain:
                                run.reason = Text(
                                    N_("{cells} in {house} hold {digits} between them, one digit more than "
                                       "cells; {cell} is {x} or {z} and sees every {x} among them: if it is {x}, "
                                       "they hold the other digits, {z} too, so one of {ends} is {z}, and no "
                                       "cell that sees them all can be {z}; {cuts}."),
                                    cells=_cells_text(g, group), house=g.names[h],
                                    digits=and_list([str(v) for v in digits_of(u)]), cell=cell_text(b, n), x=x,
                                    z=zb.bit_length(), ends=_cells_text(g, ends), cuts=describe_cuts(st, cuts))
                            return 1
    return 0


# (the positions table of the last ``_strong_links`` call, its links per digit), replaced whole:
# a thread that reads it holds a table and its own links together
_STRONG: list[tuple[list[list[int]] | None, dict[int, list[tuple[int, int, int]]]]] = [(None, {})]


def _strong_links(g: Geometry, st: State, d: int) -> list[tuple[int, int, int]]:
    """(house, cell, cell) for every house where digit ``d`` (0-based) has exactly two places.
    Kept with the positions table they come from (a table is never changed once handed out:
    ``house_positions`` updates a copy), as the wing and the three patterns of two links each
    ask for them at the same stall. The list is shared: callers only read it."""
    table = house_positions(g, st)
    held = _STRONG[0]
    if held[0] is not table:
        held = _STRONG[0] = (table, {})
    got = held[1].get(d)
    if got is None:
        got = held[1][d] = _strong_links_of(g, table, d)
    return got


def _strong_links_of(g: Geometry, table: list[list[int]], d: int) -> list[tuple[int, int, int]]:
    out = []
    for h, cells in enumerate(g.houses):
        pos = table[h][d]
        if pos.bit_count() == 2:
            low = pos & -pos
            out.append((h, cells[low.bit_length() - 1], cells[pos.bit_length() - 1]))
    return out


def t_w_wing(g: Geometry, st: State, run: Run) -> int:
    """Two cells xy that don't see each other, joined by a digit x with two places in a house,
    one seen by each: one of them is y, so a cell that sees both can't be y."""
    n = g.n
    cand = st.cand
    peers = _bitboards(g)[1]
    pairs = _with_count(st, 2)
    links: dict[int, list[tuple[int, int, int]]] = {}
    for a, b in combinations(pairs, 2):
        m = cand[a]
        if cand[b] != m or peers[a] >> b & 1:
            continue
        for x in digits_of(m):
            got = links.get(x)
            if got is None:
                got = links[x] = _strong_links(g, st, x - 1)
            for h, p, q in got:
                if a in (p, q) or b in (p, q):
                    continue
                for c, e in ((p, q), (q, p)):
                    if peers[a] >> c & 1 and peers[b] >> e & 1:
                        y = m & ~bit(x)
                        cuts = _cut_seeing(g, st, (a, b), y)
                        if cuts:
                            if run.explain:
                                run.reason = Text(
                                    N_("{a} and {b} are both {x} or {y}; in {house}, {x} goes in {c} or {e}, "
                                       "which they see, so one of them is {y} and no cell that sees both can "
                                       "be {y}; {cuts}."), a=cell_text(a, n), b=cell_text(b, n), x=x,
                                    y=y.bit_length(), house=g.names[h], c=cell_text(c, n), e=cell_text(e, n),
                                    cuts=describe_cuts(st, cuts))
                            return 1
    return 0


def _link_kind(g: Geometry, h1: int, h2: int) -> str:
    """Which single-digit pattern two strong links make: both in rows or both in columns a
    skyscraper, a row and a column a two-string kite, anything else a turbot fish."""
    n = g.n
    if h1 < 2 * n and h2 < 2 * n:
        return "skyscraper_pattern" if (h1 < n) == (h2 < n) else "two_string_kite"
    return "turbot_fish"


def strong_link_technique(kind: str, plain: bool = False) -> Callable[[Geometry, State, Run], int]:
    """Two strong links of one digit (a house where it has two places) whose ends ``b`` and
    ``c`` see each other: one of the far ends ``a``, ``e`` holds it, so a cell that sees both
    can't (``kind``: skyscraper, two_string_kite or turbot_fish, by the links' houses).

    ``plain``: every pair of links of the kind goes to ``_linked_ends``, the version the fast
    one must equal (tests/test_engine.py); the fast one sends only the pairs whose masks say
    it strikes something (a near end of each seeing the other, an open cell holding the digit
    seeing both far ends): most pairs strike nothing, and the three patterns ran at every
    stall of Sudoku X's hard carve."""
    def tech(g: Geometry, st: State, run: Run) -> int:
        n = g.n
        peers = _bitboards(g)[1]
        for d in range(n):
            links = _strong_links(g, st, d)
            for (h1, p1, q1), (h2, p2, q2) in combinations(links, 2):
                if _link_kind(g, h1, h2) != kind or len({p1, q1, p2, q2}) < 4:
                    continue
                if not (peers[p1] | peers[q1]) & (1 << p2 | 1 << q2):
                    continue  # no end of one sees an end of the other
                if _linked_ends(g, st, run, d, (h1, (p1,), (q1,)), (h2, (p2,), (q2,))):
                    return 1
        return 0

    def fast(g: Geometry, st: State, run: Run) -> int:
        n = g.n
        peers = _bitboards(g)[1]
        holders = _open_holders(g, st, house_positions(g, st))
        for d in range(n):
            links = _strong_links(g, st, d)
            lines = sum(1 for h, _, _ in links if h < 2 * n)  # (links come in house order)
            if kind == "skyscraper_pattern":
                rows = sum(1 for h, _, _ in links if h < n)
                pairs: Iterable = chain(combinations(links[:rows], 2), combinations(links[rows:lines], 2))
            elif kind == "two_string_kite":
                rows = sum(1 for h, _, _ in links if h < n)
                pairs = product(links[:rows], links[rows:lines])
            else:
                pairs = ((one, links[k]) for j, one in enumerate(links) for k in range(max(j + 1, lines), len(links)))
            held = holders[d]
            for (h1, p1, q1), (h2, p2, q2) in pairs:
                if p1 == p2 or p1 == q2 or q1 == p2 or q1 == q2:
                    continue
                for a, b in ((p1, q1), (q1, p1)):
                    sees, far = peers[b], peers[a] & held
                    if far and (sees >> p2 & 1 and far & peers[q2] or sees >> q2 & 1 and far & peers[p2]):
                        break
                else:
                    continue
                if _linked_ends(g, st, run, d, (h1, (p1,), (q1,)), (h2, (p2,), (q2,))):
                    return 1
        return 0
    chosen = tech if plain else fast
    chosen.__name__ = f"t_{kind}"
    return chosen


def t_grouped_turbot_plain(g: Geometry, st: State, run: Run) -> int:
    """Two strong links of one digit, as the turbot fish, where an end may be a group: the
    digit's places in a row or column that lie in two boxes (or in a box, in two rows or two
    columns) split into the two groups. If every cell of one near end sees every cell of the
    other, one of the far ends holds the digit, and a cell that sees all their cells can't
    (Sudoku Explainer's fork: grouped skyscraper, kite, strong links, 4.3). The plain version
    ``t_grouped_turbot`` must equal (tests/test_engine.py)."""
    n = g.n
    peers = _bitboards(g)[1]
    cand, placed = st.cand, st.placed
    block_of = {i: h for h in g.blocks for i in g.houses[h]}
    for d in range(n):
        m = 1 << d
        links: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        for h, cells in enumerate(g.houses):
            if h >= 2 * n and h not in g.blocks:
                continue  # a diagonal: its places never split by box
            where = [i for i in cells if not placed[i] and cand[i] & m]
            links += [(h, x, y) for x, y in _link_ends(g, h, where, block_of)]
        masks = []  # per link: its cells, and the cells some cell of it sees
        for h, x, y in links:
            cells = seen = 0
            for i in x + y:
                cells |= 1 << i
                seen |= peers[i]
            masks.append((cells, seen))
        for (k1, (h1, x1, y1)), (k2, (h2, x2, y2)) in combinations(enumerate(links), 2):
            if h1 == h2 or len(x1) + len(y1) + len(x2) + len(y2) == 4 or masks[k1][0] & masks[k2][0]:
                continue  # (four single cells: the plain turbot fish)
            if not masks[k1][1] & masks[k2][0]:
                continue  # no cell of one link sees a cell of the other
            if _linked_ends(g, st, run, d, (h1, x1, y1), (h2, x2, y2)):
                return 1
    return 0


def _link_ends(g: Geometry, h: int, where: Sequence[int], block_of: Mapping[int, int]
               ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The strong links (end, end) of a digit whose places in house ``h`` are the cells ``where``
    (``block_of``: each cell's box or region): two places one link of single cells; more, a
    line's places in two boxes, or a box's in two rows, then in two columns, split in two."""
    if len(where) == 2:
        return [((where[0],), (where[1],))]
    n = g.n
    ends = []
    for key in ((lambda i: block_of.get(i, -1)),) if h < 2 * n else ((lambda i: i // n), (lambda i: i % n)):
        groups: dict[int, list[int]] = {}
        for i in where:
            groups.setdefault(key(i), []).append(i)
        if len(groups) == 2 and -1 not in groups:
            first, second = groups.values()
            ends.append((tuple(first), tuple(second)))
    return ends


class _Link(NamedTuple):
    """A strong link of ``t_grouped_turbot`` with the masks its fast path reads: its house,
    its two ends (cells), all its cells, the cells some cell of it sees, and per end its cells
    and the cells that see every one of them."""

    h: int
    x: tuple[int, ...]
    y: tuple[int, ...]
    single: bool  # both ends one cell (two such links make the plain turbot fish)
    cells: int
    seen: int
    x_cells: int
    x_sees: int
    y_cells: int
    y_sees: int


@kept_by_identity()
def _group_links(g: Geometry) -> tuple[list[dict[int, tuple[_Link, ...]]], tuple[int, ...]]:
    """Per house, the links of a digit with those positions (a bitmask over the house), filled
    as met, and the houses ``t_grouped_turbot`` looks at; kept by the geometry's identity."""
    looked = tuple(h for h in range(len(g.houses)) if h < 2 * g.n or h in g.blocks)
    return [{} for _ in g.houses], looked


def _links_at(g: Geometry, h: int, pos: int) -> tuple[_Link, ...]:
    """The links of a digit whose places in house ``h`` are ``pos``: what the plain version
    lists from those cells (two places a link of single cells, else split by box, or a box's
    by row, then by column)."""
    peers = _bitboards(g)[1]
    cells = g.houses[h]
    where = [cells[k] for k in scan_forward(pos)]
    ends = _link_ends(g, h, where, {i: b for b in g.blocks for i in g.houses[b]})

    def masks(end: tuple[int, ...]) -> tuple[int, int]:
        cm, sees = 0, -1
        for i in end:
            cm |= 1 << i
            sees &= peers[i]
        return cm, sees

    out = []
    for x, y in ends:
        seen = 0
        for i in x + y:
            seen |= peers[i]
        (xc, xs), (yc, ys) = masks(x), masks(y)
        out.append(_Link(h, x, y, len(x) + len(y) == 2, xc | yc, seen, xc, xs, yc, ys))
    return tuple(out)


def _open_holders(g: Geometry, st: State, table: list[list[int]]) -> list[int]:
    """Per digit (0-based), the open cells that may hold it (a bitmask over the grid), from the
    rows of the positions table where each row ``r`` is cells ``r * n`` on (``_seen_by``)."""
    n = g.n
    holders = [0] * n
    if _row_major(g):
        for r in range(n):
            shift = r * n
            for d, pos in enumerate(table[r]):
                if pos:
                    holders[d] |= pos << shift
    else:
        cand, placed = st.cand, st.placed
        for i in range(n * n):
            if not placed[i]:
                for d in scan_forward(cand[i]):
                    holders[d] |= 1 << i
    return holders


def _ends_cut(first: _Link, second: _Link, holders: int) -> bool:
    """Whether ``_linked_ends`` on these two links strikes something: a near end of each whose
    cells all see each other, and an open cell (of ``holders``) seeing both far ends."""
    for a_sees, b_sees in ((first.x_sees, first.y_sees), (first.y_sees, first.x_sees)):
        for c_cells, e_sees in ((second.x_cells, second.y_sees), (second.y_cells, second.x_sees)):
            if not c_cells & ~b_sees and a_sees & e_sees & holders:
                return True
    return False


def t_grouped_turbot(g: Geometry, st: State, run: Run) -> int:
    """``t_grouped_turbot_plain``, which it must equal: a house's links of a digit are one
    lookup by its places (``_links_at``, kept), a link no open cell holding the digit sees
    an end of is left out (a strike needs one seeing a far end of each link), and a pair of
    links goes to ``_linked_ends`` only where its masks say that strikes something (most
    pairs strike nothing: Sudoku X's hard carve spent a fifth of its time there)."""
    if not _kept(g):  # (the links' masks hold the peers of a rule set's geometry)
        return t_grouped_turbot_plain(g, st, run)
    table = house_positions(g, st)
    known, looked = _group_links(g)
    holders = _open_holders(g, st, table)
    for d in range(g.n):
        held = holders[d]
        links: list[_Link] = []
        for h in looked:
            pos = table[h][d]
            got = known[h].get(pos)
            if got is None:
                got = known[h][pos] = _links_at(g, h, pos)
            for one in got:
                if (one.x_sees | one.y_sees) & held:
                    links.append(one)
        for k, one in enumerate(links):
            for two in links[k + 1:]:
                if one.h == two.h or one.single and two.single or one.cells & two.cells or not one.seen & two.cells:
                    continue
                if _ends_cut(one, two, held) and \
                        _linked_ends(g, st, run, d, (one.h, one.x, one.y), (two.h, two.x, two.y)):
                    return 1
    return 0


def _linked_ends(g: Geometry, st: State, run: Run, d: int, first: tuple[int, tuple[int, ...], tuple[int, ...]],
                 second: tuple[int, tuple[int, ...], tuple[int, ...]]) -> int:
    """Two strong links of digit ``d`` (0-based), each (house, end, end) with an end one cell
    or a group: where every cell of a near end sees every cell of the other, one far end holds
    the digit, and it leaves every cell that sees all the far ends' cells."""
    peers = _bitboards(g)[1]
    h1, x1, y1 = first
    h2, x2, y2 = second
    for a, b in ((x1, y1), (y1, x1)):
        sees = -1  # the cells every cell of b sees
        for i in b:
            sees &= peers[i]
        for c, e in ((x2, y2), (y2, x2)):
            if any(not sees >> j & 1 for j in c):
                continue
            cuts = _cut_seeing(g, st, a + e, 1 << d)
            if cuts:
                if run.explain:
                    run.reason = Text(
                        N_("{digit} goes in {a} or {b} ({first}) and in {c} or {e} ({second}); "
                           "{b} and {c} see each other, so {digit} is in {a} or {e}, and no cell "
                           "that sees both can be {digit}; {cuts}."), digit=d + 1,
                        a=_cells_text(g, a), b=_cells_text(g, b), c=_cells_text(g, c), e=_cells_text(g, e),
                        first=g.names[h1], second=g.names[h2], cuts=describe_cuts(st, cuts))
                return 1
    return 0


def _two_fillings(g: Geometry, corners: Sequence[int]) -> bool:
    """Whether swapping the two digits of a rectangle ``corners`` (a, b on one row, c, d below
    them) keeps every house whole: each house holds none of them or a pair on one line."""
    a, b, c, d = corners
    sides = ({a, b}, {c, d}, {a, c}, {b, d})
    for h in {h for i in corners for h in g.houses_of[i]}:
        inside = {i for i in corners if h in g.houses_of[i]}
        if inside not in sides:
            return False
    return True


def t_unique_rectangle(g: Geometry, st: State, run: Run) -> int:
    """Unique rectangles, types 1 and 2 (they assume the puzzle has one solution, as solvers
    do): four cells on two rows, two columns and two boxes that could only hold x and y would
    give two solutions, so what is needed to break the pattern must be true."""
    if not _plain(st):
        return 0
    n = g.n
    cand, placed = st.cand, st.placed
    for a in _with_count(st, 2):
        xy = cand[a]
        r1, c1 = divmod(a, n)
        for c2 in range(n):
            b = r1 * n + c2
            if c2 == c1 or placed[b] or cand[b] & xy != xy:
                continue
            for r2 in range(n):
                c, d = r2 * n + c1, r2 * n + c2
                if r2 == r1 or placed[c] or placed[d] or cand[c] & xy != xy or cand[d] & xy != xy:
                    continue
                corners = (a, b, c, d) if r1 < r2 else (c, d, a, b)
                corners = corners if c1 < c2 else (corners[1], corners[0], corners[3], corners[2])
                extra = [i for i in corners if cand[i] != xy]
                if not extra or len(extra) > 2 or not _two_fillings(g, corners):
                    continue
                if len(extra) == 1:  # type 1: the one cell with more digits isn't x or y
                    cuts = cut(st, extra, xy)
                elif cand[extra[0]] == cand[extra[1]] and (cand[extra[0]] & ~xy).bit_count() == 1 \
                        and (extra[0] // n == extra[1] // n or extra[0] % n == extra[1] % n):
                    z = cand[extra[0]] & ~xy  # type 2: one of the two is z
                    cuts = _cut_seeing(g, st, extra, z)
                else:
                    continue
                if cuts:
                    if run.explain:
                        ds = and_list([str(v) for v in digits_of(xy)])
                        run.reason = Text(
                            N_("{cells} can all hold {digits}; if those were their only digits, they could be "
                               "swapped and the puzzle would have two solutions, so {rest} must break the "
                               "pattern; {cuts}."), cells=_cells_text(g, corners), digits=ds,
                            rest=_cells_text(g, extra), cuts=describe_cuts(st, cuts))
                    return 1
    return 0


# A unique loop has six cells or more (four is the rectangle, ``t_unique_rectangle``) and at
# most two that hold more than its two digits: so at least four cells of the position hold
# exactly its two digits, the test that keeps the search away from most positions.
LOOP_CELLS = 6
LOOP_EXTRA = 2


def t_unique_loop(g: Geometry, st: State, run: Run) -> int:
    """Unique loops, types 1 and 2 (Sudoku Explainer's name: the unique rectangle grown to six,
    eight or more cells; they assume the puzzle has one solution, as solvers do): cells that
    all hold x and y, each seeing the next around a closed loop, with every house holding two
    of them or none, one at an odd and one at an even place along it. Could they only hold x
    and y, the two would alternate around the loop and could be swapped, giving two solutions,
    so what is needed to break the pattern must be true: the one cell with more digits isn't x
    or y (type 1), or one of two cells x, y or z is z (type 2)."""
    if not _plain(st):
        return 0
    cand = st.cand
    pairs: dict[int, list[int]] = {}
    for i in _with_count(st, 2):
        pairs.setdefault(cand[i], []).append(i)
    best: tuple[list[int], list[int], int] | None = None
    for xy in sorted(pairs):
        if len(pairs[xy]) < LOOP_CELLS - LOOP_EXTRA:
            continue
        for loop, extra in _unique_loops(g, st, xy, pairs[xy]):
            if not extra or len(extra) == 2 and not _would_cut(g, st, extra, cand[extra[0]] & ~xy):
                continue  # every cell x or y (not a puzzle with one solution), or nothing to strike
            if not run.best:  # the first loop found; the rated run takes the shortest (SE's order)
                return _unique_loop_found(g, st, run, loop, extra, xy)
            if best is None or len(loop) < len(best[0]):
                best = (loop, extra, xy)
            if len(loop) == LOOP_CELLS:
                break
        if best is not None and len(best[0]) == LOOP_CELLS:
            break
    if best is not None:
        return _unique_loop_found(g, st, run, *best)
    return 0


def _unique_loops(g: Geometry, st: State, xy: int, twos: Sequence[int]) -> Iterator[tuple[list[int], list[int]]]:
    """Every unique loop of the two digits ``xy`` (a mask) through the cells ``twos`` that hold
    only them, as (its cells in order, from the first of ``twos`` in it, and those of them with
    more digits: one, or two holding the same third digit), each loop once per direction.
    Depth first along cells that see each other; a house may take two cells of the loop, one
    at an odd and one at an even place, and the loop closes when every house it meets has two."""
    n = g.n
    cand, placed = st.cand, st.placed
    peers = _bitboards(g)[1]
    houses_of = g.houses_of
    holders = 0  # open cells holding both digits
    for i in range(n * n):
        if not placed[i] and cand[i] & xy == xy:
            holders |= 1 << i
    occupied = [-1] * len(g.houses)  # per house: -1 empty, 0 or 1 the parity of its one cell, 2 full
    path: list[int] = []
    extra: list[int] = []
    half = [0]  # houses holding one cell of the path: the loop closes at none

    def enter(i: int) -> bool:
        side = len(path) & 1
        hs = houses_of[i]
        if any(occupied[h] == 2 or occupied[h] == side for h in hs):
            return False
        for h in hs:
            if occupied[h] < 0:
                occupied[h] = side
                half[0] += 1
            else:
                occupied[h] = 2
                half[0] -= 1
        path.append(i)
        return True

    def leave() -> None:
        i = path.pop()
        side = len(path) & 1
        for h in houses_of[i]:
            if occupied[h] == side:
                occupied[h] = -1
                half[0] -= 1
            else:
                occupied[h] = 1 - side
                half[0] += 1

    def grow(first: int, later: int) -> Iterator[tuple[list[int], list[int]]]:
        last = path[-1]
        if len(path) >= LOOP_CELLS and not len(path) & 1 and not half[0] and peers[last] >> first & 1:
            yield path[:], extra[:]
            return
        if len(path) >= 2 * n:
            return
        for j in scan_forward(peers[last] & holders & later):
            if cand[j] != xy:
                if len(extra) == LOOP_EXTRA or extra and (cand[j] != cand[extra[0]] or cand[j].bit_count() != 3):
                    continue  # a third such cell, or two with different digits: neither type
                extra.append(j)
            if enter(j):
                yield from grow(first, later & ~(1 << j))
                leave()
            if cand[j] != xy:
                extra.pop()

    more = holders  # the cells holding x, y and more
    for s in twos:
        more &= ~(1 << s)
    for s in twos:
        enter(s)
        # of the cells holding x and y alone only those after ``s``: a loop is found from its first
        yield from grow(s, holders & ~((2 << s) - 1) | more)
        leave()


def _unique_loop_found(g: Geometry, st: State, run: Run, loop: list[int], extra: list[int], xy: int) -> int:
    if len(extra) == 1:
        cuts = cut(st, extra, xy)
    else:
        cuts = _cut_seeing(g, st, extra, st.cand[extra[0]] & ~xy)
    run.value = unique_loop_rating(len(loop))
    if run.explain:
        run.reason = Text(
            N_("{loop} is a loop of cells that can all hold {digits}, each seeing the next, with two of them "
               "or none in every house; if those were their only digits, they would alternate around the "
               "loop and could be swapped, giving the puzzle two solutions, so {rest} must break the "
               "pattern; {cuts}."), loop=_chain_text(g, loop + loop[:1]),
            digits=and_list([str(v) for v in digits_of(xy)]), rest=_cells_text(g, extra),
            cuts=describe_cuts(st, cuts))
    return 1


def t_bug(g: Geometry, st: State, run: Run) -> int:
    """BUG+1: every open cell has two candidates but one with three; if that one lost the digit
    it holds three times in its houses, every digit would have two places in every house and
    the puzzle two solutions (or none), so it holds that digit (assumes one solution)."""
    if not _plain(st):
        return 0
    n = g.n
    cand, placed = st.cand, st.placed
    three = -1
    for i in range(n * n):
        if placed[i]:
            continue
        k = cand[i].bit_count()
        if k == 3 and three < 0:
            three = i
        elif k != 2:
            return 0
    if three < 0:
        return 0
    table = house_positions(g, st)
    keep = 0
    for d in digits_of(cand[three]):
        if all(table[h][d - 1].bit_count() == 3 for h in g.houses_of[three]):
            keep = bit(d)
    if not keep:
        return 0
    for h in range(len(g.houses)):  # with ``keep`` gone from the cell, every digit twice a house
        for d in range(n):
            count = table[h][d].bit_count() - (1 if d == keep.bit_length() - 1 and h in g.houses_of[three] else 0)
            if count not in (0, 2):
                return 0
    cuts = cut(st, [three], ~keep)
    if run.explain:
        run.reason = Text(N_("every open cell but {cell} has two candidates; unless {cell} is {digit}, each "
                             "digit would have two places in every house and the puzzle would not have one "
                             "solution; {cuts}."), cell=cell_text(three, n), digit=keep.bit_length(),
                          cuts=describe_cuts(st, cuts))
    return 1


# --- expert: colouring, chains, forcing chains ------------------------------------

def t_simple_colouring(g: Geometry, st: State, run: Run) -> int:
    """One digit's strong links (houses where it has two places) joined into a chain, its cells
    coloured in turn: one colour holds the digit. Two cells of a colour that see each other
    rule that colour out; a cell that sees both colours can't hold the digit."""
    n = g.n
    peers = _bitboards(g)[1]
    for d in range(n):
        m = 1 << d
        adj: dict[int, list[int]] = {}
        for _, p, q in _strong_links(g, st, d):
            adj.setdefault(p, []).append(q)
            adj.setdefault(q, []).append(p)
        colour: dict[int, int] = {}
        for root in adj:
            if root in colour:
                continue
            colour[root] = 0
            group, todo = [root], [root]
            while todo:
                i = todo.pop()
                for j in adj[i]:
                    if j not in colour:
                        colour[j] = 1 - colour[i]
                        group.append(j)
                        todo.append(j)
            if len(group) < 4:
                continue  # two cells: a single link, which simpler techniques use
            sides = [[i for i in group if colour[i] == k] for k in (0, 1)]
            masks = [sum(1 << i for i in side) for side in sides]
            cuts: list[tuple[int, int]] = []
            for k in (0, 1):
                if any(peers[i] & masks[k] for i in sides[k]):  # a colour that sees itself is false
                    cuts = cut(st, sides[k], m)
                    break
            else:
                seen0 = seen1 = 0
                for i in sides[0]:
                    seen0 |= peers[i]
                for i in sides[1]:
                    seen1 |= peers[i]
                both = seen0 & seen1 & ~(masks[0] | masks[1])
                cuts = cut(st, _open_with(st, _bit_cells(both), m), m)
            if cuts:
                run.value = x_chain_rating((len(group) + 1) // 2)
                if run.explain:
                    run.reason = Text(N_("{digit} has two places in each house along {on} and {off}, taken in "
                                         "turn: either all of the first or all of the second hold it; {cuts}."),
                                      digit=d + 1, on=_cells_text(g, sides[0]), off=_cells_text(g, sides[1]),
                                      cuts=describe_cuts(st, cuts))
                return 1
    return 0


def t_x_chain(g: Geometry, st: State, run: Run) -> int:
    """A chain of one digit, strong links (a house where it has two places) and weak links
    (cells that see each other) in turn, starting and ending with a strong link: one of its
    ends holds the digit, so a cell that sees both ends can't."""
    n = g.n
    peers = _bitboards(g)[1]
    cand, placed = st.cand, st.placed
    best: tuple[list[int], int, int] | None = None
    for d in range(n):
        m = 1 << d
        strong: dict[int, set[int]] = {}
        for _, p, q in _strong_links(g, st, d):
            strong.setdefault(p, set()).add(q)
            strong.setdefault(q, set()).add(p)
        if len(strong) < 4:
            continue
        holders = [i for i in range(n * n) if not placed[i] and cand[i] & m]

        def ahead(node: tuple[int, bool]) -> list[tuple[int, bool]]:
            # (cell, whether the link into it was strong): strong and weak links in turn
            i, came_strong = node
            if came_strong:
                return [(j, False) for j in holders if peers[i] >> j & 1]
            return [(j, True) for j in strong.get(i, ())]

        for s in sorted(strong):
            if run.best:  # look at every start; the shortest chain is applied below
                found = _chain((s, False), ahead,
                               lambda node: _would_cut(g, st, (s, node[0]), m) if node[1] and node[0] != s else [])
                if found and (best is None or len(found[0]) < len(best[0])):
                    best = (found[0], s, d)
                continue
            found = _chain((s, False), ahead,
                           lambda node: _cut_seeing(g, st, (s, node[0]), m) if node[1] and node[0] != s else [])
            if found:
                return _x_chain_found(g, st, run, found[0], d, found[1])
    if best is not None:
        path, s, d = best
        return _x_chain_found(g, st, run, path, d, _cut_seeing(g, st, (s, path[-1]), 1 << d))
    return 0


def _x_chain_found(g: Geometry, st: State, run: Run, path: list[int], d: int, cuts: list[tuple[int, int]]) -> int:
    n = g.n
    run.value = x_chain_rating(len(path) // 2)
    if run.explain:
        run.reason = Text(
            N_("{digit} along {chain}, strong and weak links in turn: if {start} "
               "isn't {digit}, {end} is, so no cell that sees both can be {digit}; "
               "{cuts}."), digit=d + 1, chain=_chain_text(g, path),
            start=cell_text(path[0], n), end=cell_text(path[-1], n), cuts=describe_cuts(st, cuts))
    return 1


def _would_cut(g: Geometry, st: State, ends: Sequence[int], m: int) -> list[tuple[int, int]]:
    """``_cut_seeing`` without striking: a non-empty list when some open cell that sees all of
    ``ends`` still has digit bit ``m`` (the rated run's search for the shortest chain)."""
    return [(0, m)] if _open_with(st, _bit_cells(_seeing_all(g, ends)), m) else []


def t_xy_chain(g: Geometry, st: State, run: Run) -> int:
    """A chain of two-candidate cells, each seeing the next and sharing a digit with it: if the
    first isn't z, the last is, so a cell that sees both ends can't be z."""
    cand = st.cand
    pairs = _with_count(st, 2)
    if len(pairs) < 3:
        return 0
    pair_set = set(pairs)
    near = {i: [j for j in g.peers[i] if j in pair_set] for i in pairs}

    def ahead(node: tuple[int, int]) -> list[tuple[int, int]]:
        # (cell, the digit it holds when the start isn't z): the next cell loses that digit
        i, t = node
        return [(j, cand[j] & ~t) for j in near[i] if cand[j] & t]

    best: tuple[list[int], int, int] | None = None
    for s in pairs:
        for z in digits_of(cand[s]):
            zb = bit(z)
            if run.best:  # look at every start; the shortest chain is applied below
                found = _chain((s, cand[s] & ~zb), ahead,
                               lambda node: _would_cut(g, st, (s, node[0]), zb) if node[1] == zb and node[0] != s
                               else [])
                if found and (best is None or len(found[0]) < len(best[0])):
                    best = (found[0], s, z)
                continue
            found = _chain((s, cand[s] & ~zb), ahead,
                           lambda node: _cut_seeing(g, st, (s, node[0]), zb) if node[1] == zb and node[0] != s else [])
            if found:
                return _xy_chain_found(g, st, run, found[0], z, found[1])
    if best is not None:
        path, s, z = best
        return _xy_chain_found(g, st, run, path, z, _cut_seeing(g, st, (s, path[-1]), bit(z)))
    return 0


def _xy_chain_found(g: Geometry, st: State, run: Run, path: list[int], z: int, cuts: list[tuple[int, int]]) -> int:
    n = g.n
    wing = any(all(j == c or j in g.peers[c] for j in path) for c in path)
    run.value = xy_chain_rating(len(path), wing, path[-1] in g.peers[path[0]])
    if run.explain:
        run.reason = Text(
            N_("along {chain}, cells of two candidates that see each other: if "
               "{start} isn't {digit}, each cell settles the next and {end} is "
               "{digit}, so no cell that sees both can be {digit}; {cuts}."),
            digit=z, chain=_chain_text(g, path), start=cell_text(path[0], n),
            end=cell_text(path[-1], n), cuts=describe_cuts(st, cuts))
    return 1


def _follow(st: State, run: Run | None = None) -> State | None:
    """``st`` after the singles (naked and hidden), or None when they reach a contradiction
    (``run`` counts the singles taken)."""
    try:
        solve(st, Level.EASY, run or Run(), fast=True)
    except Contradiction:
        return None
    return st


def t_forcing_chain(g: Geometry, st: State, run: Run) -> int:
    """Forcing chains: each digit of a two-candidate cell (or each place of a digit with two
    places in a house) followed through with singles; what every branch agrees on is true,
    and a branch that ends in a contradiction is false."""
    n = g.n
    cand, placed = st.cand, st.placed
    starts: list[tuple[str, int, list[tuple[int, int]]]] = []  # (kind, where, [(cell, digit) per branch])
    for i in range(n * n):
        if not placed[i] and cand[i].bit_count() == 2:
            starts.append(("cell", i, [(i, d) for d in digits_of(cand[i])]))
    for d in range(n):
        for h, p, q in _strong_links(g, st, d):
            starts.append(("house", h, [(p, d + 1), (q, d + 1)]))
    for kind, where, options in starts:
        ends = []
        followed = Run()
        for i, d in options:
            sub = st.copy()
            try:
                sub.elim(i, ~bit(d))
            except Contradiction:
                sub = None
            ends.append(_follow(sub, followed) if sub is not None else None)
        live = [k for k, e in enumerate(ends) if e is not None]
        if not live:
            return 0  # pragma: no cover - the position has a solution
        cuts: list[tuple[int, int]] = []
        if len(live) == 1:  # the other branch is impossible
            i, d = options[live[0]]
            cuts = cut(st, [i], ~bit(d))
        else:
            a, b = ends[live[0]].cand, ends[live[1]].cand
            for j in range(n * n):
                if not placed[j]:
                    gone = cand[j] & ~(a[j] | b[j])
                    if gone:
                        cuts += cut(st, [j], gone)
        if cuts:
            run.value = forcing_rating(sum(followed.counts.values()) + 2, len(live) == 1)
            if run.explain:
                say = and_list([Text(N_("{cell} is {digit}"), cell=cell_text(i, n), digit=d) for i, d in options], 'or')
                run.reason = Text(N_("{options}: following each with singles, every way that doesn't end in a "
                                     "contradiction agrees; {cuts}."), options=say, cuts=describe_cuts(st, cuts))
            return 1
    return 0


def t_trial(g: Geometry, st: State, run: Run) -> int:
    return trial(range(g.n * g.n), g.n, st, run, _solve_fast)


def _solve_fast(st: State, max_level: Level, run: Run, until: int = -1) -> bool:
    return solve(st, max_level, run, until, fast=True)


t_naked_pair = naked_technique(2, "naked_pair")
t_hidden_pair = hidden_technique(2, "hidden_pair")
t_naked_triple = naked_technique(3, "naked_triple")
t_hidden_triple = hidden_technique(3, "hidden_triple")
t_naked_quad = naked_technique(4, "naked_quad")
t_hidden_quad = hidden_technique(4, "hidden_quad")
t_x_wing = fish_technique(2, "x_wing")
t_swordfish = fish_technique(3, "swordfish")
t_jellyfish = fish_technique(4, "jellyfish")
t_skyscraper = strong_link_technique("skyscraper_pattern")
t_two_string_kite = strong_link_technique("two_string_kite")
t_turbot_fish = strong_link_technique("turbot_fish")

# The house ladder (Sudoku's), in the order the driver tries the techniques: by tier, and
# inside a tier by Sudoku Explainer's value, so the step taken is always the easiest there is
# (SE rates a puzzle by its hardest step when the easiest is always taken). The ratings are
# SE's published values; where SE has no such technique (confined candidates of a diagonal,
# W-wing, simple colouring), the value of the SE technique that makes the same deduction.
# The rows worded for any houses carry their how-to texts (written for the how-to page's order,
# ``bookgen.variants.housegrid.ADVANCED``: each "The same ..." follows the one it builds on).
LADDER = Ladder(
    Tech("hidden_single_box", Level.EASY, t_hidden_single_box, 0.6, 1.2),
    Tech("hidden_single", Level.EASY, t_hidden_single, 0.7, 1.5),
    Tech("naked_single", Level.EASY, t_naked_single, 0.5, 2.3),
    Tech("locked_candidates", Level.MEDIUM, t_locked_candidates, 2.0, 2.6),
    Tech("confined_candidates", Level.MEDIUM, t_confined, 2.0, 2.6),
    Tech("naked_pair", Level.MEDIUM, t_naked_pair, 2.5, 3.0),
    Tech("hidden_pair", Level.MEDIUM, t_hidden_pair, 3.0, 3.4),
    Tech("x_wing", Level.HARD, t_x_wing, 4.5, 3.2),
    Tech("naked_triple", Level.HARD, t_naked_triple, 4.0, 3.6),
    Tech("swordfish", Level.HARD, t_swordfish, 5.0, 3.8, title=N_("Swordfish"),
         description=N_("An X-wing with three rows and three columns.")),
    Tech("hidden_triple", Level.HARD, t_hidden_triple, 5.0, 4.0),
    Tech("skyscraper_pattern", Level.HARD, t_skyscraper, 6.0, 4.0),  # (its text: housegrid.HOUSE_TEXT)
    Tech("two_string_kite", Level.HARD, t_two_string_kite, 6.0, 4.1, title=N_("Two-string kite"),
         description=N_("The same with a row and a column whose ends meet in a box.")),
    Tech("xy_wing", Level.HARD, t_xy_wing, 5.0, 4.2),
    Tech("turbot_fish", Level.HARD, t_turbot_fish, 6.5, 4.2, title=N_("Turbot fish"),
         description=N_("The same with any two houses whose ends see each other.")),
    Tech("grouped_turbot", Level.HARD, t_grouped_turbot, 6.5, 4.3, title=N_("Grouped turbot fish"),
         description=N_("The same where an end is a group: a digit's places in one box along a row or column, or in one row or column of a box.")),
    Tech("xyz_wing", Level.HARD, t_xyz_wing, 5.0, 4.4, title=N_("XYZ-wing"),
         description=N_("An XY-wing whose pivot may also be z: a cell that sees all three can't be z.")),
    Tech("unique_rectangle", Level.HARD, t_unique_rectangle, 5.0, 4.5, title=N_("Unique rectangles"),
         description=N_("Four cells on two rows, columns and boxes that could only hold the same two digits would give two solutions; a digit that would leave that pattern goes (this assumes one solution).")),
    Tech("unique_loop", Level.HARD, t_unique_loop, 5.5, 4.6, title=N_("Unique loops"),
         description=N_("A longer unique rectangle: six, eight or more cells in a loop, each seeing the next, with two of them or none in every house, that could only hold the same two digits would give two solutions; a digit that would leave that pattern goes (this assumes one solution).")),
    Tech("naked_quad", Level.HARD, t_naked_quad, 5.5, 5.0, title=N_("Naked quads"),
         description=N_("Four cells of a house that hold only four digits between them take those four.")),
    Tech("jellyfish", Level.HARD, t_jellyfish, 6.0, 5.2, title=N_("Jellyfish"),
         description=N_("An X-wing with four rows and four columns.")),
    Tech("hidden_quad", Level.HARD, t_hidden_quad, 6.0, 5.4, title=N_("Hidden quads"),
         description=N_("Four digits that fit only in the same four cells of a house fill them.")),
    Tech("w_wing", Level.HARD, t_w_wing, 5.5, 5.5, title=N_("W-wing"),
         description=N_("Two cells x-or-y, each seeing one end of a house where x has two places: a cell that sees both can't be y.")),
    Tech("bug", Level.HARD, t_bug, 5.5, 5.6, title=N_("BUG+1"),
         description=N_("If every open cell but one has two candidates, that one holds the digit with three places in its houses (this assumes one solution).")),
    Tech("simple_colouring", Level.EXPERT, t_simple_colouring, 7.0, 5.4, title=N_("Simple colouring"),
         description=N_("Colour in turn the cells where a digit has two places in a house: one colour holds it, so a cell that sees both colours can't.")),
    Tech("x_chain", Level.EXPERT, t_x_chain, 8.0, 5.4, title=N_("X-chains"),
         description=N_("A longer chain of such links for one digit: one of its two ends holds it.")),
    Tech("als_wing", Level.EXPERT, t_als_wing, 8.0, 5.5, title=N_("Almost locked sets"),
         description=N_("Some cells of a house that hold one digit more than cells, and a cell x-or-z outside them that sees every x among them: that cell or one of them is z, so a cell that sees all of those can't be z.")),
    Tech("xy_chain", Level.EXPERT, t_xy_chain, 8.0, 5.5, title=N_("XY-chains"),
         description=N_("A longer XY-wing: a chain of two-candidate cells, each seeing the next; a cell that sees both ends can't be z.")),
    Tech("forcing_chain", Level.EXPERT, t_forcing_chain, 10.0, 7.5, title=N_("Forcing chains"),
         description=N_("Follow both candidates of a cell with singles: what both ways agree on is true.")),
    Tech("trial", Level.EXPERT, t_trial, 12.0, title=N_("One trial"),
         description=N_("Assume a digit in a cell with two candidates; if the techniques above lead to a contradiction, the cell holds the other one.")),
)
TECHNIQUE_LEVEL, TECHNIQUE_WEIGHT = LADDER.tier, LADDER.weight


def solve(st: State, max_level: Level, run: Run, until: int = -1, fast: bool = False) -> bool:
    """Apply the ladder up to ``max_level`` until solved (True) or stuck (False).

    After any progress it restarts with the easiest technique. Raises
    ``Contradiction`` when the position has no solution. With ``until`` (a
    cell) it stops, True, once that cell is placed: the generator asks
    whether a given it removed comes back. ``fast``: naked singles first
    (``Extra.up_to``), for a caller that needs the verdict, not which single
    a player would see first.
    """
    techs = st.extra.up_to(max_level, fast)
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
    if not givens and n > 1:  # nothing to clash or strike, no cell down to one digit: the new state
        st.started()
        return st
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
    st = None
    contradiction = False
    try:
        st = start(geo, givens, extra)
        solved = solve(st, max_level, run, until)
    except Contradiction:
        solved, contradiction = False, True
        if st is None:  # the givens clash: an empty grid
            st = extra.new_state(geo)
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


@kept_by_identity()
def _bitboards(geo: Geometry) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(per house, per cell's peers): cell sets as bitmasks over the whole grid. Kept by the
    geometry's identity: hashing a ``Geometry`` (tuples of tuples) on every call cost more
    than a small puzzle's singles."""
    houses = tuple(sum(1 << i for i in cells) for cells in geo.houses)
    peers = tuple(sum(1 << j for j in geo.peers[i]) for i in range(geo.n * geo.n))
    return (houses, peers)


def _singles(geo: Geometry, givens: Sequence[tuple[int, int]], until: int,
             less: Sequence[tuple[int, int]] = (), used: set[tuple[int, int]] | None = None,
             strike: Sequence[int] = ()) -> tuple[bool | None, list[int], int]:
    """Naked and hidden singles on bitboards (one mask of possible cells per digit), and with
    ``less`` (smaller cell, larger cell) a sign next to a placed digit (``sign_known``); the
    signs that struck something go into ``used``. ``strike``: per digit (0-based), cells it is
    ruled out of from the start (a constraint's static strikes, such as Skyscrapers' clues
    alone: ``solve.skyscrapers.easy_stall``).

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

    # Placing digit d in cell i ("assign", written out where it happens: the carves' hottest
    # lines): i is placed, no other digit fits there, and d fits none of i's peers.
    # The givens all at once (as placing them one by one would leave them): per digit, its
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
    if strike:
        pos = [p & ~x for p, x in zip(pos, strike)]
    stop = 1 << until if until >= 0 else 0
    scanned: list[int | None] = [None] * n  # per digit, its mask when its last scan began
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
            # The batch digit by digit: each cell's one digit is in one mask, so placing it
            # clears no other digit's mask; a placement strikes its digit from its peers, and a
            # cell of the batch struck so has nothing left: a contradiction, whatever the order
            # (cell by cell, the plain order, meets the same clash).
            for d in range(n):
                x = pos[d] & single
                while x:
                    b = x & -x
                    i = b.bit_length() - 1
                    placed |= b  # assign(i, d)
                    single ^= b
                    value[i] = d
                    m = pos[d] = pos[d] & ~peer_bits[i]
                    x &= m & ~b
            if single:
                return False, pos, placed
            continue
        found = False
        for d in range(n):
            m = pos[d]
            # A house's visit depends on d's mask there only (a cell placed leaves d's mask or,
            # placed with d, strikes its housemates), and masks only shrink: where d's mask
            # in a house is as it was when d's last scan began, every visit since saw it so
            # and did nothing (or placed d there), and the visit again does nothing. Only the
            # houses changed since are visited (the plain order, every house every pass,
            # gives the same; the reference is the ladder's easy tier).
            last = scanned[d]
            if last == m:
                continue
            scanned[d] = m
            changed = every if last is None else m ^ last
            for hb in house_bits:
                if not hb & changed:
                    continue
                x = m & hb
                if x & placed:
                    continue
                if not x:
                    return False, pos, placed  # a house with no place for d
                if not x & (x - 1):
                    i = x.bit_length() - 1  # assign(i, d)
                    placed |= x
                    value[i] = d
                    keep = ~x
                    pos[:] = [p & keep for p in pos]
                    m = pos[d] = (pos[d] | x) & ~peer_bits[i]
                    found = True
                    if last is not None:
                        changed = m ^ last
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
        return solve(st, max_level, Run() if run is None else run, until, fast=True), st
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
                solve(wrong, Level.HARD, Run(), fast=True)
                return False  # the wrong digit survives the hard tier: no single trial settles it
            except Contradiction:
                pass
            st.give(cell, digit)
            if solve(st, Level.HARD, Run(), until, fast=True):
                return True
    except Contradiction:  # pragma: no cover - the givens agree with a solution
        return False
    return False


def trial_cell(geo: Geometry, sol: Sequence[int], givens: Sequence[tuple[int, int]], extra: Extra,
               stalled: State, rng: random.Random) -> int | None:
    """A two-candidate cell of ``stalled`` (where the hard tier stalled, the puzzle unique),
    picked at random, one trial on which settles the puzzle (``settles``), or None: the
    expert carve's trial of a Latin variant with clues outside the houses."""
    cells = [i for i in range(geo.n * geo.n) if not stalled.placed[i] and stalled.cand[i].bit_count() == 2]
    rng.shuffle(cells)
    for cell in cells:
        if settles(geo, givens, [(cell, sol[cell])], extra=extra, stalled=stalled.copy()):
            return cell
    return None


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

@lru_cache(maxsize=4)
def _digit_lists(n: int) -> tuple[tuple[int, ...], ...]:
    """``digits_of`` of every candidate mask of order ``n`` (empty above 12: too many masks)."""
    return tuple(tuple(digits_of(m)) for m in range(1 << n)) if n <= 12 else ()


def random_filling(geo: Geometry, rng: random.Random, budget: int = 20000) -> list[int] | None:
    """A random complete grid (flat digits) keeping every house, or None past ``budget`` nodes.

    Depth-first with the fewest-candidates cell first and digits in random
    order; for Sudoku sizes this almost never backtracks far. ``random_filling_plain``
    is the version this must equal: each node's cell (the first with the fewest
    candidates) is found by ``min`` and ``index`` over a list of the counts carried
    down with the candidates, not by a loop over the cells (most of a 9x9 grid's time)."""
    n = geo.n
    cand = [full_mask(n)] * (n * n)
    grid = [0] * (n * n)
    peers = geo.peers
    done = n + 1  # the count of a filled cell: above any open cell's
    lists = _digit_lists(n)
    nodes = 0

    def rec(cand: list[int], count: list[int], left: int) -> list[int] | None:
        nonlocal nodes
        if not left:
            return grid
        nodes += 1
        if nodes > budget:
            return None
        # The first cell with the fewest candidates; no open cell is ever left with none (a
        # digit that would leave one is not tried), so that is where the plain scan stops.
        best = count.index(min(count))
        ds = list(lists[cand[best]]) if lists else digits_of(cand[best])
        rng.shuffle(ds)
        last = ds[-1]
        for d in ds:
            b = bit(d)
            if d == last:  # (the caller never reads these lists again: no copy for the last try)
                nxt, cnt = cand, count
            else:
                nxt, cnt = cand[:], count[:]
            cnt[best] = done
            ok = True
            for j in peers[best]:
                if not grid[j] and nxt[j] & b:
                    nxt[j] &= ~b
                    cnt[j] -= 1
                    if not nxt[j]:
                        ok = False
                        break
            if not ok:
                continue
            grid[best] = d
            if rec(nxt, cnt, left - 1) is not None:
                return grid
            grid[best] = 0
            if nodes > budget:
                return None
        return None

    got = rec(cand, [n] * (n * n), n * n)
    return list(got) if got is not None else None


def random_filling_plain(geo: Geometry, rng: random.Random, budget: int = 20000) -> list[int] | None:
    """A random complete grid (flat digits) keeping every house, or None past ``budget`` nodes:
    the plain version ``random_filling`` must equal, grid for grid and draw for draw
    (tests/test_engine.py).

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

@kept_by_identity()
def _housemates(geo: Geometry) -> tuple[int, ...]:
    """Per cell, the cells of its houses (itself included) as a bitmask; kept as ``_bitboards``
    keeps its masks. (Not its peers: a Killer draft's geometry counts cage mates among them.)"""
    houses = _bitboards(geo)[0]
    out = []
    for i in range(geo.n * geo.n):
        m = 0
        for h in geo.houses_of[i]:
            m |= houses[h]
        out.append(m)
    return tuple(out)


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
        self.near = _housemates(geo)
        self.at = [0] * (n + 1)  # per digit: the cells it is given in
        for i, d in enumerate(sol):
            self.at[d] |= 1 << i

    def remove(self, i: int) -> None:
        self.given[i] = False
        self.mask &= ~(1 << i)
        self.at[self.sol[i]] &= ~(1 << i)
        b = ~(1 << self.sol[i])
        for h in self.geo.houses_of[i]:
            self.have[h] &= b

    def restore(self, i: int) -> None:
        self.given[i] = True
        self.mask |= 1 << i
        self.at[self.sol[i]] |= 1 << i
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
        bits, near = self.bits, self.near
        blocked = self.mask  # given cells, and cells in a house where i's digit is given
        at = self.at[self.sol[i]]
        while at:  # (those houses are the houses of the cells it is given in)
            low = at & -at
            at ^= low
            blocked |= near[low.bit_length() - 1]
        one = 1 << i
        return any(bits[h] & ~blocked == one for h in houses_of)

    def pairs(self) -> list[tuple[int, int]]:
        """(cell, digit) of every given."""
        return [(i, self.sol[i]) for i, g in enumerate(self.given) if g]


def deadly_rectangles_plain(geo: Geometry, sol: Sequence[int]) -> list[list[tuple[int, ...]]]:
    """Per cell, the 4-cell rectangles of ``sol`` (digits x y / y x on two rows and two
    columns) whose swap keeps every house whole: if all four are open, the puzzle has two
    solutions, so the carve need not run the ladder to learn that a removal fails. The plain
    version of ``deadly_rectangles`` (tests/test_engine.py)."""
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
                    _add_if_deadly(geo, sol, out, a, b, c, d)
    return out


def _add_if_deadly(geo: Geometry, sol: Sequence[int], out: list[list[tuple[int, ...]]],
                   a: int, b: int, c: int, d: int) -> None:
    """Rectangle ``a b / c d`` (x y / y x) onto each of its cells' lists in ``out`` if its swap
    keeps every house whole."""
    x, y = sol[a], sol[b]
    swapped = {a: y, b: x, c: x, d: y}
    lines = 2 * geo.n  # its two rows and two columns each keep x and y whatever the grid
    for h in {h for i in swapped for h in geo.houses_of[i] if h >= lines}:
        inside = [i for i in swapped if h in geo.houses_of[i]]
        if sorted(sol[i] for i in inside) != sorted(swapped[i] for i in inside):
            return
    for i in swapped:
        out[i].append((a, b, c, d))


def deadly_rectangles(geo: Geometry, sol: Sequence[int]) -> list[list[tuple[int, ...]]]:
    """``deadly_rectangles_plain``, which it must equal (same rectangles, same order): the
    second column of a rectangle is where the first row holds the digit the second row has in
    the first column (one lookup), instead of every column tried."""
    n = geo.n
    out: list[list[tuple[int, ...]]] = [[] for _ in range(n * n)]
    where = [[0] * (n + 1) for _ in range(n)]  # per row, per digit: its column
    for i, v in enumerate(sol):
        where[i // n][v] = i % n
    for r1 in range(n):
        row1 = r1 * n
        for r2 in range(r1 + 1, n):
            row2 = r2 * n
            for c1 in range(n):
                c2 = where[r1][sol[row2 + c1]]
                if c2 > c1 and sol[row2 + c2] == sol[row1 + c1]:
                    _add_if_deadly(geo, sol, out, row1 + c1, row1 + c2, row2 + c1, row2 + c2)
    return out


@kept_by_identity()
def _swap_pairs(geo: Geometry) -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]], ...]:
    """The pairs of rows and of columns ``swap_cycles`` looks at (kept by the geometry's
    identity): each line's cells in order, and per position whether its two cells lie in the
    same other houses; pairs with no such position left out."""
    n = geo.n
    lines = 2 * n
    others = [frozenset(h for h in geo.houses_of[i] if h >= lines) for i in range(n * n)]
    pairs = []
    for kind in (0, n):  # rows, then columns
        for a in range(n):
            for b in range(a + 1, n):
                cells_a, cells_b = geo.houses[kind + a], geo.houses[kind + b]
                same = tuple(others[i] == others[j] for i, j in zip(cells_a, cells_b))
                if any(same):  # (two rows of different bands: every cycle would break a box)
                    pairs.append((cells_a, cells_b, same))
    return tuple(pairs)


def swap_cycles(geo: Geometry, sol: Sequence[int]) -> list[list[int]]:
    """Per cell, unavoidable sets of ``sol`` holding it, as bitmasks of cells: if every cell of
    one is open, the givens have a second solution, so no sound technique brings the cell back.

    Two rows (or two columns) a and b give one set per cycle of the permutation that takes
    position k to the position where line a holds line b's digit at k: swapping the two lines'
    digits along a cycle keeps both lines (the same digits), every crossing line (its two cells
    trade places) and every other house, provided each position's two cells lie in the same
    other houses (two rows of one band of boxes). Deadly rectangles are the cycles of two; with
    the longer cycles of one band or stack the sets catch 558 of 1,437 removals the easy ramp's
    carve tried and failed on 60 grids, the rectangles alone 394."""
    n = geo.n
    out: list[list[int]] = [[] for _ in range(n * n)]
    for cells_a, cells_b, same in _swap_pairs(geo):
        where = {sol[i]: k for k, i in enumerate(cells_a)}
        seen = [False] * n
        for k0 in range(n):
            if seen[k0]:
                continue
            cycle, k = [], k0
            while not seen[k]:
                seen[k] = True
                cycle.append(k)
                k = where[sol[cells_b[k]]]
            if len(cycle) < n and all(same[k] for k in cycle):
                m = 0
                for k in cycle:
                    m |= 1 << cells_a[k] | 1 << cells_b[k]
                for k in cycle:
                    out[cells_a[k]].append(m)
                    out[cells_b[k]].append(m)
    return out


def drop_singles(geo: Geometry, sol: Sequence[int], cells: Sequence[int], plain: bool = False) -> _Givens:
    """All givens, then, in the order of ``cells``, every one the others give back at once by
    a naked or hidden single: a cheap first carve, sound for any extra constraints.

    ``_Givens``' ``remove``, ``single_here`` and ``restore`` written out on local names (a
    method call and its attribute reads were most of each step); ``plain=True`` calls them, the
    version this must equal (tests/test_engine.py)."""
    gv = _Givens(geo, sol)
    if plain:
        for i in cells:
            gv.remove(i)
            if not gv.single_here(i):
                gv.restore(i)
        return gv
    given, have, at, bits, near = gv.given, gv.have, gv.at, gv.bits, gv.near
    mask, houses_of, others = gv.mask, geo.houses_of, geo.n - 1
    for i in cells:
        d = sol[i]
        one, b = 1 << i, 1 << d
        homes = houses_of[i]
        mask &= ~one
        at[d] &= ~one
        seen = 0
        for h in homes:
            have[h] &= ~b
            seen |= have[h]
        if seen.bit_count() == others:
            given[i] = False
            continue
        blocked = mask
        left = at[d]
        while left:
            low = left & -left
            left ^= low
            blocked |= near[low.bit_length() - 1]
        for h in homes:
            if bits[h] & ~blocked == one:
                given[i] = False
                break
        else:
            mask |= one
            at[d] |= one
            for h in homes:
                have[h] |= b
    gv.mask = mask
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
    # The longer unavoidable sets too (``swap_cycles``): a removal that opens one has a second
    # solution differing at the removed cell, so no single places it and the rival says so;
    # the same verdict without the singles and the SAT question (Sudoku X medium: about a
    # third of its rival questions). The rival alone is the plain version (tests/test_engine.py).
    cycles = swap_cycles(geo, sol) if not extra.techniques else None
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
        if cycles is not None and any(not m & gv.mask for m in cycles[i]):
            gv.restore(i)  # an open unavoidable set: the same
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
