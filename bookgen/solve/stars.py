"""The Star Battle engine: one board, one ordered technique table, SAT counting and the
generator, for Star Battle and Queens (LinkedIn's one-star Star Battle).

A *unit* is a row, a column or a region; each holds exactly ``stars`` stars (1 or 2) and
no two stars touch, not even diagonally. Cells are indexed ``i = row * N + col`` and every
set of cells is an int bit set (``bookgen.core.bits``): a state is two of them, the cells
known to hold a star and the cells known to be empty.

The technique table (``LADDER``; the grade's level is the hardest tier used):

- easy: ``halo`` (the eight neighbours of a star are empty), ``full_unit`` (a unit with its
  stars has no more), ``last_room`` (a unit with as many open cells as stars still to
  place takes them all);
- medium: ``band`` (a region whose open cells lie in one row or column takes that line's
  stars, so the rest of the line is empty; and a line inside one region empties the rest
  of the region), ``squeeze`` (a cell whose star, with its neighbours, would leave some
  unit fewer open cells than stars it still needs is empty);
- hard: ``pigeonhole`` (k regions whose open cells lie inside k rows or columns fill
  those lines' stars, so the lines' other cells are empty; also k lines inside k regions,
  and k rows inside k columns), ``two_by_two`` (two-star puzzles: a 2x2 block holds at
  most one star, so a unit, or two neighbouring rows or columns, needs as many blocks to
  cover its open cells as stars it still needs; a cell whose star would leave fewer is
  empty);
- expert: ``trial`` (assume a star in one open cell, follow the easy..hard tiers to a
  contradiction, mark the cell empty). Never nested.

Every technique is sound, so a grid the ladder fills is the puzzle's only solution;
exact counting is SAT (``count``). Fast paths: ``block_cover`` counts with bit sets what
``block_cover_plain`` counts cell by cell (a test checks them against each other).

The generator (``make``): a random star placement, regions grown around the stars
(each from its stars, one star per seed, two-star seeds paired by a matching of touching
regions), then the layout is mended until SAT finds no second solution: a cell where the
rival solution has a star (and ours has none) moves to a neighbouring region, which kills
that rival. Givens are only added when mending runs out (a star of the solution).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Callable, Sequence

from pysat.card import CardEnc, EncType

from bookgen.core.bits import bits_of, lowest, scan_forward
from bookgen.core.difficulty import Level
from bookgen.core.i18n import C_, N_, Text
from bookgen.core.score import work_score
from bookgen.core.variant import Step
from bookgen.solve.houses import Ladder, Tech, and_list, cell_text
from bookgen.solve.sat import incremental, models

STAR, NO_STAR = "1", "0"


class Contradiction(Exception):
    """A state that no solution extends."""


@dataclass(frozen=True)
class Layout:
    """One puzzle's units and the masks techniques read."""

    n: int
    stars: int
    units: tuple[int, ...]          # rows 0..n-1, columns n..2n-1, regions 2n..3n-1
    names: tuple[str, ...]          # "row 3", "column 2", "region C"
    halo: tuple[int, ...]           # per cell: its (up to) eight neighbours
    region_of: tuple[int, ...]      # per cell: its region's index (0..n-1)
    bands: tuple[int, ...]          # two neighbouring rows, then two neighbouring columns
    full: int
    # per cell: the indices into ``units + bands`` of those a star there (or its halo) meets
    near: tuple[tuple[int, ...], ...] = ()

    @property
    def rows(self) -> tuple[int, ...]:
        return self.units[:self.n]

    @property
    def cols(self) -> tuple[int, ...]:
        return self.units[self.n:2 * self.n]

    @property
    def regions(self) -> tuple[int, ...]:
        return self.units[2 * self.n:]


@lru_cache(maxsize=256)
def layout(n: int, stars: int, regions: tuple[tuple[int, ...], ...]) -> Layout:
    """The layout of an N x N grid with these regions (cell index lists, in their order)."""
    rows = tuple(((1 << n) - 1) << (r * n) for r in range(n))
    cols = tuple(bits_of(r * n + c for r in range(n)) for c in range(n))
    regs = tuple(bits_of(cells) for cells in regions)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    names = tuple([f"row {r + 1}" for r in range(n)] + [f"column {c + 1}" for c in range(n)]
                  + [f"region {letters[k]}" for k in range(len(regs))])
    halo = []
    for i in range(n * n):
        r, c = divmod(i, n)
        halo.append(bits_of((r + dr) * n + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                            if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n))
    owner = [0] * (n * n)
    for k, cells in enumerate(regions):
        for i in cells:
            owner[i] = k
    bands = tuple(rows[r] | rows[r + 1] for r in range(n - 1)) + tuple(cols[c] | cols[c + 1] for c in range(n - 1))
    groups = rows + cols + regs + bands
    near = tuple(tuple(g for g, m in enumerate(groups) if m & (halo[i] | 1 << i)) for i in range(n * n))
    return Layout(n, stars, rows + cols + regs, names, tuple(halo), tuple(owner), bands, (1 << (n * n)) - 1, near)


@dataclass
class State:
    """Cells known to hold a star, and cells known to be empty."""

    star: int = 0
    out: int = 0

    def copy(self) -> "State":
        return State(self.star, self.out)

    def open(self, lay: Layout) -> int:
        """The cells not decided yet."""
        return lay.full & ~(self.star | self.out)

    def rows(self, lay: Layout) -> tuple[str, ...]:
        n = lay.n
        out = []
        for r in range(n):
            out.append("".join(STAR if self.star >> (r * n + c) & 1 else NO_STAR if self.out >> (r * n + c) & 1
                               else "." for c in range(n)))
        return tuple(out)


@dataclass
class Run:
    """One ladder run's bookkeeping: counts per technique and, when explaining, the steps."""

    explain: bool = False
    counts: dict[str, int] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    noun: str = "star"  # what the reasons call a star (Queens: "queen": ``REASONS``' second column)

    def record(self, lay: Layout, name: str, star: int, out: int, reason: Callable[[bool], Text]) -> None:
        """Count a use of ``name``; when explaining, the step with its reason (``reason(queens)``)."""
        self.counts[name] = self.counts.get(name, 0) + 1
        if self.explain:
            n = lay.n
            cells = [(divmod(i, n), STAR) for i in scan_forward(star)] + \
                    [(divmod(i, n), NO_STAR) for i in scan_forward(out)]
            self.steps.append(Step(name, tuple(sorted(cells)), reason(self.noun == "queen")))


# The steps' reasons: (Star Battle's, Queens' words), catalog messages whose values (cells,
# rows, columns, regions) are translatable too. The printed step capitalises the first letter.
REASONS: dict[str, tuple[str, str]] = {
    "halo": (N_("the cells around the star at {cell} touch it, so they are empty"),
             N_("the cells around the queen at {cell} touch it, so they can't hold a queen")),
    "full_unit": (N_("{unit} has all its stars, so its other cells are empty"),
                  N_("{unit} has its queen, so its other cells can't hold one")),
    "last_room": (N_("{unit} has only as many open cells as stars still to place, so each holds a star"),
                  N_("{unit} has one free cell left, so its queen goes there")),
    "confined_one": (N_("{inner} lies inside {outer}, so it holds all the stars there: the other cells of "
                        "{outer} are empty"),
                     N_("{inner} lies inside {outer}, so it holds the queen of {outer}: the other cells of "
                        "{outer} can't hold one")),
    "confined_many": (N_("{inner} lie inside {outer}, so they hold all the stars there: the other cells of "
                         "{outer} are empty"),
                      N_("{inner} lie inside {outer}, so they hold every queen there: the other cells of "
                         "{outer} can't hold one")),
    "squeeze": (N_("a star at {cell} would leave a row, column or region too few open cells for its stars, "
                   "so the cell is empty"),
                N_("a queen at {cell} would leave a row, column or colour region no free cell for its queen, "
                   "so the cell can't hold one")),
    "two_by_two": (N_("a star at {cell} would leave a row, column, region or pair of lines fewer 2\u00d72 "
                      "blocks than stars it needs (a block holds one star at most), so the cell is empty"),
                   N_("a star at {cell} would leave a row, column, region or pair of lines fewer 2\u00d72 "
                      "blocks than stars it needs (a block holds one star at most), so the cell is empty")),
    "trial": (N_("assume a star at {cell}: the techniques above lead to a contradiction, so the cell is empty"),
              N_("assume a queen at {cell}: the techniques above lead to a contradiction, so the cell can't "
                 "hold one")),
}


def _reason(key: str, **values) -> Callable[[bool], Text]:
    """The reason ``key`` with these values, in Star Battle's or Queens' words."""
    return lambda queens: Text(REASONS[key][queens], **values)


def unit_text(lay: Layout, g: int, queens: bool = False) -> Text:
    """Unit ``g`` (rows, columns, regions as in ``Layout.units``) as a translatable value;
    ``queens``: in Queens' words, whose rules call a region a colour region (in English both
    are "region", German says "Gebiet" and "Farbregion")."""
    n = lay.n
    if g < n:
        return Text(N_("row {row}"), row=g + 1)
    if g < 2 * n:
        return Text(N_("column {column}"), column=g - n + 1)
    if queens:
        return Text(C_("colour region", "region {letter}"), context="colour region", letter=chr(65 + g - 2 * n))
    return Text(N_("region {letter}"), letter=chr(65 + g - 2 * n))


def cell_name(i: int, n: int) -> str:
    r, c = divmod(i, n)
    return f"row {r + 1}, column {c + 1}"


def _apply(lay: Layout, st: State, run: Run, name: str, star: int, out: int,
           reason: Callable[[bool], Text]) -> None:
    """Mark ``star`` as stars and ``out`` as empty (both open cells), record the step, check."""
    st.star |= star
    st.out |= out
    run.record(lay, name, star, out, reason)
    check(lay, st)


def check(lay: Layout, st: State) -> None:
    """Raise ``Contradiction`` when the state breaks a rule: touching stars, a unit with
    too many stars or too few places left."""
    if st.star & st.out:
        raise Contradiction("a cell both star and empty")
    k = lay.stars
    for i in scan_forward(st.star):
        if lay.halo[i] & st.star:
            raise Contradiction("stars touch")
    free = lay.full & ~st.out
    for u in lay.units:
        if (u & st.star).bit_count() > k or (u & free).bit_count() < k:
            raise Contradiction("a unit can't hold its stars")


# ----- techniques: fn(lay, st, run) -> uses -----------------------------------------

def t_halo(lay: Layout, st: State, run: Run) -> int:
    uses = 0
    for i in scan_forward(st.star):
        m = lay.halo[i] & st.open(lay)
        if m:
            _apply(lay, st, run, "halo", 0, m, _reason("halo", cell=cell_text(i, lay.n)))
            uses += 1
    return uses


def _fill_units(lay: Layout, st: State, run: Run, name: str, full: bool) -> int:
    """Units whose open cells are decided by a count alone: with ``full``, a unit that has
    all its stars empties its open cells; without, a unit with as many open cells as stars
    still to place fills them all."""
    uses = 0
    for g, u in enumerate(lay.units):
        m = u & st.open(lay)
        need = lay.stars - (u & st.star).bit_count()
        if m and need == (0 if full else m.bit_count()):
            why = _reason(name, unit=unit_text(lay, g, run.noun == "queen"))
            _apply(lay, st, run, name, 0 if full else m, m if full else 0, why)
            uses += 1
    return uses


def t_full_unit(lay: Layout, st: State, run: Run) -> int:
    return _fill_units(lay, st, run, "full_unit", True)


def t_last_room(lay: Layout, st: State, run: Run) -> int:
    return _fill_units(lay, st, run, "last_room", False)


def _confined(lay: Layout, st: State, run: Run, name: str, sizes: range) -> int:
    """k units of one kind whose open cells and stars lie inside k units of another kind
    hold all of those units' stars: the rest of those units is empty. Kinds paired:
    regions in rows, regions in columns, rows in regions, columns in regions, rows in
    columns, columns in rows."""
    free = lay.full & ~st.out
    kinds = {"row": lay.rows, "column": lay.cols, "region": lay.regions}
    first = {"row": 0, "column": lay.n, "region": 2 * lay.n}  # where each kind starts in ``lay.units``
    for inner, outer in (("region", "row"), ("region", "column"), ("row", "region"), ("column", "region"),
                         ("row", "column"), ("column", "row")):
        a_units, b_units = kinds[inner], kinds[outer]
        touch = []  # per unfinished inner unit: (index, bit set of the outer units its cells meet)
        for a, u in enumerate(a_units):
            if not u & st.open(lay):
                continue
            cells = u & free
            meets = 0
            for b, v in enumerate(b_units):
                if v & cells:
                    meets |= 1 << b
            if meets.bit_count() <= max(sizes):
                touch.append((a, meets))
        for k in sizes:
            for group in combinations(touch, k):
                meets = 0
                for _, m in group:
                    meets |= m
                if meets.bit_count() != k:
                    continue
                inside = 0
                for a, _ in group:
                    inside |= a_units[a]
                lines = 0
                for b in scan_forward(meets):
                    lines |= b_units[b]
                out = lines & st.open(lay) & ~inside
                if out:
                    queens = run.noun == "queen"
                    a_names = [unit_text(lay, first[inner] + a, queens) for a, _ in group]
                    b_names = [unit_text(lay, first[outer] + b, queens) for b in scan_forward(meets)]
                    _apply(lay, st, run, name, 0, out, _reason("confined_one" if k == 1 else "confined_many",
                                                               inner=and_list(a_names), outer=and_list(b_names)))
                    return 1
    return 0


def t_band(lay: Layout, st: State, run: Run) -> int:
    return _confined(lay, st, run, "band", range(1, 2))


def t_pigeonhole(lay: Layout, st: State, run: Run) -> int:
    return _confined(lay, st, run, "pigeonhole", range(2, max(2, lay.n // 2) + 1))


def block_cover_plain(cells: set[tuple[int, int]], n: int) -> int:
    """How many 2x2 blocks the greedy cover takes for ``cells`` (a set of (row, col)):
    the first cell in reading order opens a block at its row and column (one column to the
    left on the last column), which takes every cell of the block. Each block holds at most
    one star, so this bounds the stars the cells can hold. The plain version of
    ``block_cover``."""
    left = set(cells)
    count = 0
    while left:
        r, c = min(left)
        c0 = min(c, n - 2) if n > 1 else c
        left -= {(r, c0), (r, c0 + 1), (r + 1, c0), (r + 1, c0 + 1)}
        count += 1
    return count


@lru_cache(maxsize=64)
def _block_at(n: int) -> tuple[int, ...]:
    """Per cell: the 2x2 block ``block_cover`` opens there."""
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        c0 = min(c, n - 2)
        out.append(bits_of(rr * n + cc for rr in (r, r + 1) for cc in (c0, c0 + 1) if rr < n))
    return tuple(out)


def block_cover(cells: int, n: int) -> int:
    """``block_cover_plain`` on a bit set of cells (a test checks they agree)."""
    blocks = _block_at(n)
    count = 0
    while cells:
        cells &= ~blocks[(cells & -cells).bit_length() - 1]
        count += 1
    return count


def _squeezed(lay: Layout, st: State, capacity: Callable[[int], int], bands: bool = False,
              near: Sequence[Sequence[int]] | None = None) -> int:
    """The first open cell whose star would leave a unit (or, with ``bands``, two
    neighbouring rows or columns, needing twice the stars) less room than it needs, as a
    one-bit set; 0 when there is none. Only the units a star and its halo meet change, so
    only they are looked at (``near``, by default ``lay.near``: the indexes of those units per
    cell, units first, bands after; ``_squeezed_plain`` looks at every one: a test checks they agree)."""
    k = lay.stars
    open_ = st.open(lay)
    groups = [(u, k) for u in lay.units] + [(u, 2 * k) for u in lay.bands] * bands
    for u, want in groups:  # a state that already fails: no cell is the first to squeeze it
        if capacity(u & (open_ | st.star)) < want:
            raise Contradiction("a unit can't hold its stars")
    near = lay.near if near is None else near
    for i in scan_forward(open_):
        bit = 1 << i
        star = st.star | bit
        free = open_ & ~bit & ~lay.halo[i]
        for g in near[i]:
            if g >= len(groups):
                break
            u, want = groups[g]
            need = want - (u & star).bit_count()
            if need > 0 and capacity(u & free) < need:
                return bit
    return 0


def _squeezed_plain(lay: Layout, st: State, capacity: Callable[[int], int], bands: bool = False) -> int:
    """``_squeezed`` looking at every unit for every cell: what ``lay.near`` leaves out must
    never squeeze."""
    every = range(len(lay.units) + len(lay.bands))
    return _squeezed(lay, st, capacity, bands, [every] * (lay.n * lay.n))


def t_squeeze(lay: Layout, st: State, run: Run) -> int:
    bit = _squeezed(lay, st, int.bit_count)
    if bit:
        i = lowest(bit)
        _apply(lay, st, run, "squeeze", 0, bit, _reason("squeeze", cell=cell_text(i, lay.n)))
        return 1
    return 0


def t_two_by_two(lay: Layout, st: State, run: Run) -> int:
    if lay.stars < 2:
        return 0
    n = lay.n
    bit = _squeezed(lay, st, lambda m: block_cover(m, n), True)
    if bit:
        i = lowest(bit)
        _apply(lay, st, run, "two_by_two", 0, bit, _reason("two_by_two", cell=cell_text(i, n)))
        return 1
    return 0


def t_trial(lay: Layout, st: State, run: Run) -> int:
    """Assume a star in an open cell; when the easy..hard tiers refute it, the cell is empty.
    Cells of the units with the fewest open cells are tried first."""
    open_ = st.open(lay)
    order = sorted(scan_forward(open_), key=lambda i: min((u & open_).bit_count()
                                                          for u in lay.units if u >> i & 1))
    for i in order:
        trial = st.copy()
        trial.star |= 1 << i
        try:
            check(lay, trial)
            _closure(lay, trial, Level.HARD)
        except Contradiction:
            _apply(lay, st, run, "trial", 0, 1 << i, _reason("trial", cell=cell_text(i, lay.n)))
            return 1
    return 0


# Rows of the house engine's ``Tech`` (name, tier, function, weight, rating on the 1-10
# footing of the other ladders, and Star Battle's how-to title and description; Queens words
# them its own way); here ``fn(layout, state, run)``.
LADDER = Ladder(
    Tech("halo", Level.EASY, t_halo, 0.3, 1.0, title=N_("Neighbours"),
         description=N_("The eight cells around a star are empty.")),
    Tech("full_unit", Level.EASY, t_full_unit, 0.3, 1.2, title=N_("Full lines and regions"),
         description=N_("A row, column or region that has all its stars: its other cells are empty.")),
    Tech("last_room", Level.EASY, t_last_room, 0.6, 1.5, title=N_("Last room"),
         description=N_("A row, column or region with only as many open cells as stars still to place: each of them holds a star.")),
    Tech("band", Level.EASY, t_band, 1.0, 2.0, title=N_("A region in one line"),
         description=N_("A region whose open cells all lie in one row (or column) holds that line's stars: the rest of the line is empty. The same for a line whose open cells lie in one region.")),
    Tech("squeeze", Level.MEDIUM, t_squeeze, 2.5, 3.0, title=N_("Squeeze"),
         description=N_("A cell whose star would leave a row, column or region (with the cells around the star emptied) too few open cells for its stars is empty.")),
    Tech("pigeonhole", Level.HARD, t_pigeonhole, 4.5, 4.2, title=N_("Pigeonhole"),
         description=N_("Two (or more) regions whose open cells all lie in as many rows hold all the stars of those rows: the rest of the rows is empty. Also for columns, and lines inside regions.")),
    Tech("two_by_two", Level.HARD, t_two_by_two, 4.0, 3.8, title=N_("2\u00d72 blocks"),
         description=N_("A 2\u00d72 block holds at most one star. A cell whose star would leave a row, column, region or pair of lines fewer blocks than stars it needs is empty.")),
    Tech("trial", Level.EXPERT, t_trial, 12.0, 6.5, title=N_("One trial"),
         description=N_("Assume a star in a cell; if the techniques above lead to a contradiction, the cell is empty.")),
)


def techniques_for(stars: int) -> tuple[Tech, ...]:
    """The table under these rules: the 2x2 rule only where a unit holds two stars."""
    return tuple(t for t in LADDER if stars == 2 or t.name != "two_by_two")


def _closure(lay: Layout, st: State, top: Level, run: Run | None = None) -> None:
    """Apply the table's techniques up to tier ``top``, easiest first, until none applies."""
    run = run or Run()
    table = [t for t in techniques_for(lay.stars) if t.tier <= top]
    while st.open(lay):
        for t in table:
            if t.fn(lay, st, run):
                break
        else:
            return


@dataclass(frozen=True)
class Result:
    solved: bool
    level: Level
    counts: dict[str, int]
    rows: tuple[str, ...]
    steps: list[Step]

    def score(self, n: int) -> float:
        return work_score(self.counts, LADDER.weight, LADDER.tier, self.level, n * n)


def start(lay: Layout, givens: Sequence[str]) -> State:
    """The state the givens make (``1`` a star, ``0`` an empty cell)."""
    st = State()
    for r, row in enumerate(givens):
        for c, ch in enumerate(row):
            if ch == STAR:
                st.star |= 1 << (r * lay.n + c)
            elif ch == NO_STAR:
                st.out |= 1 << (r * lay.n + c)
    return st


def run_ladder(lay: Layout, givens: Sequence[str], top: Level = Level.EXPERT, explain: bool = False,
               noun: str = "star") -> Result:
    """Grade by the table: the hardest tier used; ``solved`` False when it got stuck or
    the givens contradict themselves. ``noun`` is what the explanations call a star."""
    st = start(lay, givens)
    run = Run(explain, noun=noun)
    try:
        check(lay, st)
        _closure(lay, st, top, run)
    except Contradiction:
        return Result(False, Level.EXPERT, run.counts, st.rows(lay), run.steps)
    solved = not st.open(lay)
    level = max((LADDER.tier[name] for name in run.counts), default=Level.EASY)
    return Result(solved, level if solved else Level.EXPERT, run.counts, st.rows(lay), run.steps)


# ----- exact counting ------------------------------------------------------------------

@lru_cache(maxsize=32)
def _line_clauses(n: int, k: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The clauses every layout of this size shares (rows, columns, no touching) and the
    highest variable they use."""
    lay = layout(n, k, ())
    out: list[tuple[int, ...]] = []
    top = n * n
    for u in lay.units:
        enc = CardEnc.equals([i + 1 for i in scan_forward(u)], bound=k, top_id=top, encoding=EncType.seqcounter)
        top = max(top, enc.nv)
        out += map(tuple, enc.clauses)
    for i in range(n * n):
        out += [(-(i + 1), -(j + 1)) for j in scan_forward(lay.halo[i]) if j > i]
    return tuple(out), top


def clauses(lay: Layout, givens: Sequence[str] = ()) -> list[Sequence[int]]:
    """CNF over the variables ``cell + 1`` (true: a star): exactly ``stars`` per unit,
    no two touching, and the givens."""
    n, k = lay.n, lay.stars
    shared, top = _line_clauses(n, k)
    out: list[Sequence[int]] = list(shared)
    for u in lay.regions:
        enc = CardEnc.equals([i + 1 for i in scan_forward(u)], bound=k, top_id=top, encoding=EncType.seqcounter)
        top = max(top, enc.nv)
        out += enc.clauses
    for r, row in enumerate(givens):
        for c, ch in enumerate(row):
            if ch in (STAR, NO_STAR):
                out.append([(r * n + c + 1) * (1 if ch == STAR else -1)])
    return out


def count(lay: Layout, givens: Sequence[str] = (), limit: int = 2) -> list[int]:
    """Up to ``limit`` solutions (star bit sets) by SAT."""
    watch = range(1, lay.n * lay.n + 1)
    return [bits_of(v - 1 for v in m) for m in models(clauses(lay, givens), watch, limit)]


def star_rows(star: int, n: int) -> tuple[str, ...]:
    return tuple("".join(STAR if star >> (r * n + c) & 1 else NO_STAR for c in range(n)) for r in range(n))


# ----- generation ------------------------------------------------------------------------

def random_stars(n: int, k: int, rng: random.Random, budget: int = 20000) -> int | None:
    """A random placement of ``k`` stars per row and column, none touching (row by row,
    backtracking in random order); None when ``budget`` nodes run out."""
    rows_choices = [bits_of(cs) for cs in combinations(range(n), k)
                    if all(b - a > 1 for a, b in zip(cs, cs[1:]))]
    col_count = [0] * n
    placed: list[int] = []
    nodes = [0]

    def go(r: int, prev: int) -> bool:
        if r == n:
            return True
        nodes[0] += 1
        if nodes[0] > budget:
            return False
        spread = prev | (prev << 1) | (prev >> 1)
        options = [m for m in rows_choices if not m & spread
                   and all(col_count[c] < k for c in scan_forward(m))]
        rng.shuffle(options)
        room = (n - r) // 2 if k == 2 else n - r - 1  # stars a column can still take below this row
        for m in options:
            for c in scan_forward(m):
                col_count[c] += 1
            if all(k - x <= room for x in col_count):
                placed.append(m)
                if go(r + 1, m):
                    return True
                placed.pop()
            for c in scan_forward(m):
                col_count[c] -= 1
        return False

    if not go(0, 0):
        return None
    return bits_of(r * n + c for r, m in enumerate(placed) for c in scan_forward(m))


def _neighbours(i: int, n: int) -> list[int]:
    r, c = divmod(i, n)
    return [j for j, ok in ((i - n, r > 0), (i - 1, c > 0), (i + 1, c < n - 1), (i + n, r < n - 1)) if ok]


def grow_regions(n: int, k: int, star: int, rng: random.Random) -> list[list[int]] | None:
    """N connected regions, each holding ``k`` of the stars: one seed per star grown at
    random until the grid is covered; with two stars, seeds are then joined in touching
    pairs (a random perfect matching, by backtracking). None when no matching exists."""
    seeds = list(scan_forward(star))
    owner = [-1] * (n * n)
    for s, i in enumerate(seeds):
        owner[i] = s
    frontier = [(i, j) for i in seeds for j in _neighbours(i, n)]
    while frontier:
        x = rng.randrange(len(frontier))
        i, j = frontier[x]
        frontier[x] = frontier[-1]
        frontier.pop()
        if owner[j] != -1:
            continue
        owner[j] = owner[i]
        frontier += [(j, m) for m in _neighbours(j, n) if owner[m] == -1]
    if k == 1:
        groups = [[s] for s in range(len(seeds))]
    else:
        touching = [set() for _ in seeds]
        for i in range(n * n):
            for j in _neighbours(i, n):
                if owner[i] != owner[j]:
                    touching[owner[i]].add(owner[j])
        pairs: dict[int, int] = {}

        def match() -> bool:
            free = [s for s in range(len(seeds)) if s not in pairs]
            if not free:
                return True
            s = min(free, key=lambda f: len([t for t in touching[f] if t not in pairs]))
            options = [t for t in touching[s] if t not in pairs]
            rng.shuffle(options)
            for t in options:
                pairs[s], pairs[t] = t, s
                if match():
                    return True
                del pairs[s], pairs[t]
            return False

        if not match():
            return None
        groups = [[s, pairs[s]] for s in range(len(seeds)) if s < pairs[s]]
    index = {s: g for g, group in enumerate(groups) for s in group}
    regions: list[list[int]] = [[] for _ in groups]
    for i in range(n * n):
        regions[index[owner[i]]].append(i)
    return regions


def _pieces(cells: int, n: int) -> list[int]:
    """The orthogonally connected parts of a bit set of cells."""
    out = []
    while cells:
        seen = cells & -cells
        while True:
            grown = seen
            for i in scan_forward(seen):
                for j in _neighbours(i, n):
                    grown |= (1 << j) & cells
            if grown == seen:
                break
            seen = grown
        out.append(seen)
        cells &= ~seen
    return out


RIVALS = 4  # solutions asked for per mending round: more cells to move when the first rival's won't go
MEND_ROUNDS = {1: 60, 2: 120}  # SAT rounds of mending per layout before a fresh one


def mend(n: int, k: int, star: int, regions: list[list[int]], rng: random.Random,
         budget: int) -> list[list[int]] | None:
    """Move cells between regions until SAT finds only ``star``: each round a cell where a
    rival solution has a star (and ``star`` none) joins a neighbouring region, which the
    rival can't survive. None when ``budget`` rounds were not enough."""
    regs = [bits_of(cells) for cells in regions]
    owner = [0] * (n * n)
    for g, cells in enumerate(regions):
        for i in cells:
            owner[i] = g
    shared, top = _line_clauses(n, k)
    with incremental(shared) as solver:
        for _ in range(budget):
            rivals, top = _rivals(solver, top, n, k, regs, star)
            if not rivals:
                return [list(scan_forward(m)) for m in regs]
            if not _move(n, star, regs, owner, rivals, rng):
                return None
    return None


def _rivals(solver, top: int, n: int, k: int, regs: Sequence[int], star: int) -> tuple[list[int], int]:
    """Up to ``RIVALS`` solutions other than ``star`` with these regions, from a solver that
    holds the shared clauses; the regions' clauses (and the models blocked) hang on a fresh
    selector, retired afterwards, so one solver serves every round. Returns the rivals and
    the highest variable used so far."""
    top += 1
    sel = top
    for m in regs:
        enc = CardEnc.equals([i + 1 for i in scan_forward(m)], bound=k, top_id=top, encoding=EncType.seqcounter)
        top = max(top, enc.nv)
        for clause in enc.clauses:
            solver.add_clause(clause + [-sel])
    rivals: list[int] = []
    cells = range(n * n)
    while len(rivals) < RIVALS and solver.solve(assumptions=[sel]):
        model = solver.get_model()
        found = bits_of(i for i in cells if model[i] > 0)
        if found != star:
            rivals.append(found)
        solver.add_clause([-(i + 1) if found >> i & 1 else i + 1 for i in cells] + [-sel])
    solver.add_clause([-sel])
    return rivals, top


def _move(n: int, star: int, regs: list[int], owner: list[int], rivals: Sequence[int],
          rng: random.Random) -> bool:
    """Move one cell where a rival has a star and ``star`` none to a neighbouring region
    (with whatever would fall away from its region's stars); False when no cell can go."""
    spots = []
    for rival in rivals:  # the first rival's cells first, then the others' where it has none left
        cells = list(scan_forward(rival & ~star))
        rng.shuffle(cells)
        spots += cells
    for i in spots:
        g = owner[i]
        targets = [owner[j] for j in _neighbours(i, n) if owner[j] != g]
        if not targets:
            continue
        h = targets[rng.randrange(len(targets))]
        # what falls away from g's stars with i gone goes with i: it touched g only through i
        keep, lost = 0, 1 << i
        for piece in _pieces(regs[g] & ~(1 << i), n):
            if piece & star:
                keep |= piece
            else:
                lost |= piece
        if _pieces(keep, n)[1:]:
            continue  # g's stars would end up apart
        regs[g], regs[h] = keep, regs[h] | lost
        for j in scan_forward(lost):
            owner[j] = h
        return True
    return False


def canonical(regions: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Regions sorted by their first cell (the order their letters take)."""
    return tuple(sorted((tuple(sorted(cells)) for cells in regions), key=lambda cells: cells[0]))


@dataclass(frozen=True)
class Made:
    regions: tuple[tuple[int, ...], ...]
    givens: tuple[str, ...]
    solution: tuple[str, ...]
    result: Result




def attempt(n: int, k: int, level: Level, rng: random.Random) -> Made | None:
    """One try: stars, regions, mending, grading; None unless it graded exactly ``level``."""
    star = random_stars(n, k, rng)
    if star is None:
        return None
    regions = grow_regions(n, k, star, rng)
    if regions is None:
        return None
    regions = mend(n, k, star, regions, rng, MEND_ROUNDS[k] + n * n // 4)
    if regions is None:
        return None
    regions = canonical(regions)
    lay = layout(n, k, regions)
    blank = tuple("." * n for _ in range(n))
    res = run_ladder(lay, blank, level)
    if not res.solved or res.level != level:
        return None
    solution = star_rows(star, n)
    if res.rows != solution or count(lay, blank, 2) != [star]:  # the proof, independent of the ladder
        raise AssertionError("ladder-solved Star Battle is not unique: engine bug")
    return Made(regions, blank, solution, res)
