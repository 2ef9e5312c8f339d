"""Skyscrapers' edge clues, plugged into the house ladder (``bookgen.solve.houses``).

A digit is a building's height. A clue outside the grid counts the buildings
seen from there, looking along the row or column: a building is seen when it
is taller than every building before it. The clues come in as a ``SkyExtra``
(its ``sights``: one per clue, the line's cells in viewing order) with these
techniques, the house techniques doing the rest:

- easy ``sky_edge``: a 1 clue sees only the tallest building, so N stands
  next to it; an N clue sees every building, so the line rises 1, 2, ..., N;
  ``sky_bounds``: a clue c caps the building k cells in (k = 0 next to the
  clue) at N - c + 1 + k, since the c - 1 seen buildings after it must each
  be taller;
- medium ``sky_count``: a line with at most three open cells: of the few
  ways to fill them, only those that show what both its clues say are
  kept (visibility counting on a partly filled line);
- hard ``sky_lines``: the same on any line, however many cells are open.

Both counting techniques read ``line_options``: the digits each cell of a
line may still hold in some filling of the line that fits its candidates
and clues. It filters one table of every permutation of 1..N through
bitsets (a set bit per permutation); ``line_options_plain`` is the plain
version it must equal (itertools.permutations), and a test checks them
against each other.

The ladder here is the house ladder less the techniques that never find anything on rows
and columns with clues outside (``IDLE``; ``SkyExtra.trimmed``). A carve asking only whether
a tier solves takes the techniques in another order (``verdict_view``; ``SkyExtra.verdict``),
and asks SAT whether a removal left a second solution (``ambiguous``).

The SAT encoding (``sight_clauses``, for ``check`` and ``solve``) adds, per
clue, one variable per cell of its line ("seen": taller than everything
before it, defined by two clause families) and a sequential counter saying
exactly ``clue`` of them hold. The generator's proof asks the process's kept
solver instead (``clue_groups``): per clue its line's "seen" variables and
a counter whose outputs say "at least c seen", loaded once per line, and the
clue's number as assumptions on those outputs, so a puzzle loads no clauses.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import permutations
from typing import Callable, Sequence

from pysat.card import CardEnc, EncType

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_, Text
from bookgen.solve.houses import (
    LINES_IDLE, Contradiction, Extra, Geometry, Ladder, LadderResult, Run, State, Tech, cut,
    describe_cuts, lines_ladder, merged_ladder,
)
from bookgen.solve.latin import digits_of, full_mask, symbol
from bookgen.solve import pair_ladder
from bookgen.solve.packed import singles_stall
from bookgen.solve.rated import _plan, strikes_run
from bookgen.solve.latin_sat import Group, Kept, LatinSolver, group_switches, other_solution
from bookgen.solve.latin_table import TABLE_MAX, latin_table

COUNT_OPEN = 3  # ``sky_count`` takes lines with at most this many open cells: a player tries each filling
SIDES = ("top", "bottom", "left", "right")


@dataclass(frozen=True)
class Sight:
    """One clue: what it says, where it stands, and its line's cells from the clue inwards."""

    clue: int
    side: str      # top, bottom, left, right
    line: int      # the column (top, bottom) or row (left, right) it looks along
    cells: tuple[int, ...]
    # (cell, heights it may hold) that the clue alone allows, nearest first: what ``sky_edge``
    # (a 1 or an N clue) and ``sky_bounds`` (the others) strike; worked out once per clue.
    keep: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Line:
    """A row or column with a clue at either end (0: none there), cells from the front end."""

    house: int     # the row's or column's house in the geometry
    front: int
    back: int
    cells: tuple[int, ...]

    @property
    def keys(self) -> tuple[tuple[str, int], ...]:
        """(side, line) of its clues."""
        n = len(self.cells)
        sides = ("left", "right") if self.house < n else ("top", "bottom")
        k = self.house % n
        return tuple((side, k) for side, c in zip(sides, (self.front, self.back)) if c)


@dataclass(frozen=True, eq=False)
class SkyExtra(Extra):
    """The clues for the house ladder: every clue alone and each line with its two ends.
    Hashed by identity: the ladder looks its techniques up by the extra on every solve, and
    hashing every clue there cost more than a small line's counting."""

    sights: tuple[Sight, ...] = ()
    lines: tuple[Line, ...] = ()
    # (cell, heights the clue alone strikes there, its ``Sight``): for the 1 and N clues
    # (``edge``) and the others (``bounds``), flat, so a ladder pass that finds nothing
    # left to strike is one short loop.
    edge: tuple[tuple[int, int, Sight], ...] = ()
    bounds: tuple[tuple[int, int, Sight], ...] = ()
    # States that remember when the clue-alone techniques are done (``SkyState``); False: the
    # plain ``State``, the version they must equal (tests/test_skyscrapers.py).
    marked: bool = True
    # The house ladder without the techniques that find nothing here (``IDLE``); False: the
    # whole house ladder, the version it must equal (tests/test_skyscrapers.py).
    trimmed: bool = True

    def new_state(self, geo: Geometry) -> State:
        return SkyState(geo, self) if self.marked else State(geo, self)

    # A carve's question "does the tier solve it?" on a position that holds the solution
    # (``verdict_view``); False: the ladder's own order (``Extra.up_to``), which it must equal.
    verdict: bool = False
    size: int = 0  # the grid's (for ``verdict_view``)

    def ladder(self) -> tuple[Tech, ...]:
        """The house ladder with the clue techniques merged in, less ``IDLE`` (``trimmed``)."""
        return _trimmed(self.techniques) if self.trimmed else merged_ladder(self.techniques)

    def up_to(self, level: Level, fast: bool = False) -> tuple[tuple[str, Callable], ...]:
        """The ladder's view up to ``level``; with ``fast`` and ``verdict``, ``verdict_view``'s."""
        if not (fast and self.verdict):
            return super().up_to(level, fast)
        got = self.__dict__.get("_verdicts")  # kept on the instance, as ``Extra.up_to`` keeps its views
        if got is None:
            got = _verdicts(self.ladder(), self.size)
            object.__setattr__(self, "_verdicts", got)
        return got[level]

    def check(self, st: State) -> None:
        """On a full grid, every clue sees exactly its number of buildings: per line, what its
        heights show from both ends, looked up by the line's candidate masks (one bit each, so
        they compare as the heights do); ``check_plain`` is the plain version it must equal."""
        if not _lines_show(self.lines, st.cand):
            raise Contradiction("a clue does not see its number of buildings")

    def check_plain(self, st: State) -> None:
        """``check`` the obvious way: every clue, its line's heights counted."""
        for s in self.sights:
            if seen([st.cand[i].bit_length() for i in s.cells]) != s.clue:
                raise Contradiction("a clue does not see its number of buildings")


# House techniques that find nothing on a Skyscrapers grid, whatever the position, so its
# ladder leaves them out (``SkyExtra.trimmed``): its houses are rows and columns only
# (``houses.LINES_IDLE``); and its clues stand outside the houses, so the uniqueness
# techniques, which assume that the houses are the whole rule set, don't run (``houses._plain``).
IDLE = LINES_IDLE | {"unique_rectangle", "unique_loop", "bug"}


# The house techniques that look for ``size`` digits in ``size`` cells of a house (naked and
# hidden subsets) or for a digit in ``size`` rows and columns (fish), by size.
SUBSET_SIZE = {"naked_pair": 2, "hidden_pair": 2, "x_wing": 2, "naked_triple": 3, "hidden_triple": 3,
               "swordfish": 3, "naked_quad": 4, "hidden_quad": 4, "jellyfish": 4}


def verdict_view(ladder: tuple[Tech, ...], level: Level, n: int) -> tuple[tuple[str, Callable], ...]:
    """(name, function) of ``ladder``'s techniques up to ``level`` on an ``n`` x ``n`` grid, in
    the order that answers a carve's question soonest: naked singles, the other easy
    techniques, then the line counting (``sky_lines`` from hard on, which does all
    ``sky_count`` does, so that one goes), then the rest in the ladder's order, less the
    subsets and fish of more than half the grid (``SUBSET_SIZE``): in a house with k open cells
    a naked subset of m cells strikes what the hidden subset of the other k - m digits in the
    other k - m cells strikes, and a hidden one what a naked one does (a fish of m rows, what
    the fish of the other k - m columns strikes), so where the smaller ones, singles included,
    find nothing, neither do they. Which position the tier stops at is the same in any
    order (``variants.skyscrapers.CONFLUENT``), on a position that holds the solution: on one
    that doesn't (a trial's wrong digit), whether a contradiction shows may depend on the order
    (a line filled by singles is counted only when the grid is full), so a trial never asks
    this view (``_carve`` hands ``trial_cell`` the ladder's own)."""
    lines = "sky_lines" if level >= Level.HARD else "sky_count"
    up = [t for t in ladder if t.tier <= level and not (t.name == "sky_count" and lines == "sky_lines")
          and 2 * SUBSET_SIZE.get(t.name, 0) <= n]
    first = [t for t in up if t.name == "naked_single"] + [t for t in up if t.tier == Level.EASY and
                                                           t.name != "naked_single"]
    first += [t for t in up if t.name == lines]
    return tuple((t.name, t.fn) for t in first + [t for t in up if t not in first])


_VERDICTS: dict[tuple[int, int], tuple[tuple[Tech, ...], dict[Level, tuple[tuple[str, Callable], ...]]]] = {}


def _verdicts(ladder: tuple[Tech, ...], n: int) -> dict[Level, tuple[tuple[str, Callable], ...]]:
    """``verdict_view`` at every level, kept by the table's identity and the size (a carve asks
    per test)."""
    got = _VERDICTS.get((id(ladder), n))
    if got is None or got[0] is not ladder:
        if len(_VERDICTS) > 16:
            _VERDICTS.clear()
        got = _VERDICTS[id(ladder), n] = (ladder, {lv: verdict_view(ladder, lv, n) for lv in Level})
    return got[1]


def _trimmed(techniques: tuple[Tech, ...]) -> Ladder:
    return lines_ladder(techniques, IDLE)


@lru_cache(maxsize=1 << 14)
def _shown(masks: tuple[int, ...]) -> tuple[int, int]:
    """How many buildings a full line (one-bit masks, front end first) shows from each end."""
    return seen(masks), seen(masks[::-1])


class SkyState(State):
    """The engine's state and, per clue-alone technique (``sky_edge``, ``sky_bounds``), the
    clues (the ``SkyExtra``) it last found nothing left to strike under (``struck``): what a
    clue alone rules out stays struck, as a state only ever loses candidates, so until the
    state is given other clues (a carve's ``st.extra = ...``) the technique has nothing to
    do, and the ladder, which asks it again after every step, skips its pass."""

    __slots__ = ("struck",)

    def __init__(self, geo: Geometry, extra: Extra) -> None:
        super().__init__(geo, extra)
        self.struck: list[object] = [None, None]

    def copy(self) -> "SkyState":
        other = super().copy()
        other.struck = self.struck[:]
        return other


@lru_cache(maxsize=None)
def line_cells(n: int, side: str, k: int) -> tuple[int, ...]:
    """The cells of the line clue ``k`` of ``side`` looks along, nearest first."""
    if side == "top":
        return tuple(r * n + k for r in range(n))
    if side == "bottom":
        return tuple(r * n + k for r in reversed(range(n)))
    if side == "left":
        return tuple(k * n + c for c in range(n))
    return tuple(k * n + c for c in reversed(range(n)))


def extra_for(n: int, clues: dict[str, Sequence[int]], used: set | None = None, verdict: bool = False) -> SkyExtra:
    """The ladder's extra constraints for ``clues`` (side -> N numbers, 0 for none); with
    ``used`` (a set), the techniques put the (side, line) of every clue they read into it.
    Put together from each side's parts, cached (a carve builds one for each set of clues it
    tries, and they differ from the last on one side at most); ``extra_for_plain`` is the
    plain version it must equal (tests/test_sky_carve.py)."""
    made = _extra(n, tuple(clues["top"]), tuple(clues["bottom"]), tuple(clues["left"]), tuple(clues["right"]))
    if used is None and not verdict:
        return made
    # The same clues noting what they strike into ``used`` or asking ``verdict_view``: a copy
    # (the ladder's views of the techniques, kept on the instance, come along).
    other = object.__new__(SkyExtra)
    other.__dict__.update(made.__dict__)
    other.__dict__["used"] = used
    other.__dict__["verdict"] = verdict
    return other


@lru_cache(maxsize=4096)
def _extra(n: int, *clues: tuple[int, ...]) -> SkyExtra:
    """``extra_for`` without ``used``, by the four sides' clues (top, bottom, left, right)."""
    top, bottom, left, right = (_side(n, side, c) for side, c in zip(SIDES, clues))
    rows, cols = _lines(n, "left", clues[2], clues[3]), _lines(n, "top", clues[0], clues[1])
    return SkyExtra(TECHNIQUES, size=n, sights=top[0] + bottom[0] + left[0] + right[0],
                    lines=tuple(line for pair in zip(rows, cols) for line in pair if line is not None),
                    edge=top[1] + bottom[1] + left[1] + right[1], bounds=top[2] + bottom[2] + left[2] + right[2])


def extra_for_plain(n: int, clues: dict[str, Sequence[int]], used: set | None = None,
                    verdict: bool = False) -> SkyExtra:
    """``extra_for`` the obvious way: every clue and line worked out in order."""
    sights = tuple(_sight(n, side, k, c) for side in SIDES for k, c in enumerate(clues[side]) if c)
    lines = []
    for k in range(n):
        for house, front, back, side in ((k, clues["left"][k], clues["right"][k], "left"),
                                         (n + k, clues["top"][k], clues["bottom"][k], "top")):
            if front or back:
                lines.append(_line(n, house, front, back, side, k))
    edge = tuple((i, ~keep, s) for s in sights if s.clue in (1, n) for i, keep in s.keep)
    bounds = tuple((i, ~keep, s) for s in sights if s.clue not in (1, n) for i, keep in s.keep)
    return SkyExtra(TECHNIQUES, used=used, verdict=verdict, size=n, sights=sights, lines=tuple(lines), edge=edge, bounds=bounds)


@lru_cache(maxsize=4096)
def _side(n: int, side: str, clues: tuple[int, ...]) -> tuple[tuple[Sight, ...], tuple, tuple]:
    """One side's clues (N numbers, 0 for none): its sights, ``edge`` and ``bounds`` entries."""
    sights = tuple(_sight(n, side, k, c) for k, c in enumerate(clues) if c)
    return (sights, tuple((i, ~keep, s) for s in sights if s.clue in (1, n) for i, keep in s.keep),
            tuple((i, ~keep, s) for s in sights if s.clue not in (1, n) for i, keep in s.keep))


@lru_cache(maxsize=4096)
def _lines(n: int, side: str, front: tuple[int, ...], back: tuple[int, ...]) -> tuple[Line | None, ...]:
    """Per row (``side`` left) or column (top), its ``Line``, or None where it has no clue."""
    first = 0 if side == "left" else n
    return tuple(_line(n, first + k, f, b, side, k) if f or b else None for k, (f, b) in enumerate(zip(front, back)))


@lru_cache(maxsize=None)
def _line(n: int, house: int, front: int, back: int, side: str, k: int) -> Line:
    return Line(house, front, back, line_cells(n, side, k))


@lru_cache(maxsize=None)
def _sight(n: int, side: str, k: int, clue: int) -> Sight:
    """The clue ``clue`` of line ``k`` on ``side``, with the heights it alone allows: N next to
    a 1; 1, 2, ... N in order from an N; else at most N - clue + 1 + j at j cells in."""
    cells = line_cells(n, side, k)
    full = full_mask(n)
    if clue == 1:
        keep = ((cells[0], 1 << (n - 1)),)
    elif clue == n:
        keep = tuple((i, 1 << j) for j, i in enumerate(cells))
    else:
        keep = tuple((i, full & ((1 << (n - clue + 1 + j)) - 1)) for j, i in enumerate(cells[:clue - 1]))
    return Sight(clue, side, k, cells, keep)


def _lines_show(lines: Sequence[Line], cand: Sequence[int]) -> bool:
    """Whether every line of a full grid (``cand``: one bit per cell) shows its clues
    (``SkyExtra.check``)."""
    get = cand.__getitem__
    for line in lines:
        front, back = _shown(tuple(map(get, line.cells)))
        if line.front and front != line.front or line.back and back != line.back:
            return False
    return True


EASY_ORDER = ("sky_edge", "sky_bounds", "hidden_single", "naked_single")  # the ladder's easy rows, in order


def easy_ladder(geo: Geometry, givens: Sequence[tuple[int, int]], extra: SkyExtra) -> LadderResult | None:
    """``run_ladder(geo, givens, Level.EXPERT, extra=extra)`` where its easy rows solve the
    puzzle, on one integer of pairs (bit ``d * n * n + i``: digit d + 1 open in cell i), as
    ``rated.strikes_run`` keeps its state; None where it would not finish so (a harder row's
    turn, givens that clash, a strike on a placed digit, clues the full grid doesn't show, a
    cell left without a digit), and the caller runs the ladder, the plain version this must
    equal (tests/test_rated_strikes.py). Where the ladder meets a contradiction this can't
    finish either: a cell or a house that lost every place for a digit never gets one back,
    and every placement here checks that its digit is still open.

    The ladder takes its rows in ``EASY_ORDER``, starting again from the first after each use:
    so first every 1 or N clue with something left to strike, in turn (``sky_edge``), then
    every other clue (``sky_bounds``; a clue's strikes stay struck, so neither finds anything
    after), each use placing the cells its strikes left one digit (uncounted, as the driver
    places them); then, while one is open, the first hidden single in the geometry's scan
    order (lowest digit first) whose cell has other digits left; where none is, every naked
    single, one after another until none is left (any order places the same cells). The
    ladder's run on a Skyscrapers 4x4 easy puzzle was a seventh of its generation."""
    n = geo.n
    if n > 6 or len(geo.houses) != 2 * n or tuple(name for name, _ in extra.up_to(Level.EXPERT)[:4]) != EASY_ORDER:
        return None
    got = pair_ladder.run(geo, givens, _clue_strikes(extra))
    if got is None:
        return None
    counts, given = got
    nn = n * n
    every = (1 << nn) - 1
    shifts = range(0, n * nn, nn)
    cand = [0] * nn
    digits = [""] * nn
    for d, s in enumerate(shifts):
        x = given >> s & every
        while x:
            b = x & -x
            x ^= b
            i = b.bit_length() - 1
            cand[i] = 1 << d
            digits[i] = symbol(d + 1)
    if not _lines_show(extra.lines, cand):
        return None
    grid = tuple("".join(digits[r:r + n]) for r in range(0, nn, n))
    return LadderResult(True, Level.EASY, counts, grid, None)


def rated_whole(geo: Geometry, givens: Sequence[tuple[int, int]], extra: SkyExtra) -> tuple[list, bool] | None:
    """``rated_run(geo, givens, extra)`` on one integer of pairs (``rated.strikes_run``): the
    clue-alone rows (``sky_edge``, ``sky_bounds``), the only ones rated below a naked single,
    strike ``clue_strike``'s; None where that hands the run back (a harder row's turn, a
    contradiction), or where the techniques note the clues they read (a carve's ``used``)."""
    if extra.used is not None or geo.n != extra.size:
        return None
    return strikes_run(geo, givens, _plan(extra.ladder()), dict(_clue_strikes(extra)))


def _clue_strikes(extra: SkyExtra) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """(``sky_edge``, the 1 and N clues' strikes), (``sky_bounds``, the others'), each in the
    order the technique looks at its clues (``clue_strike``'s bits), kept on the extra."""
    got = extra.__dict__.get("_strikes")
    if got is None:
        n = extra.size
        got = tuple((name, tuple(clue_strike(n, s.side, s.line, s.clue) for s in extra.sights if (s.clue in (1, n)) == edge))
                    for name, edge in (("sky_edge", True), ("sky_bounds", False)))
        object.__setattr__(extra, "_strikes", got)  # (a frozen dataclass: not a field)
    return got


def easy_verdict(geo: Geometry, givens: Sequence[tuple[int, int]], clues: dict[str, Sequence[int]]) -> bool:
    """Whether the easy tier solves the puzzle of ``givens`` and ``clues`` (``easy_stall``)."""
    return easy_stall(geo, givens, clues) is None


def easy_stall(geo: Geometry, givens: Sequence[tuple[int, int]], clues: dict[str, Sequence[int]]) -> int | None:
    """None where the easy tier solves the puzzle of ``givens`` and ``clues`` (which holds a
    solution), else the cells placed (a bit each) where it stalls. Its clue techniques
    (``sky_edge``, ``sky_bounds``) strike what each clue alone rules out, the same whatever
    else is known, so they are all struck first, and the naked and hidden singles run on
    bitboards (``packed.singles_stall``; where they stall no cell with one candidate is left
    unplaced, as in the ladder's stall). The plain version is the ladder's easy tier
    (``closure(geo, givens, Level.EASY, extra=extra_for(n, clues))``: its verdict and its
    stalled state's placed cells; tests/test_sky_carve.py)."""
    n = geo.n
    struck = 0
    for side in SIDES:
        for k, c in enumerate(clues[side]):
            if c:
                struck |= clue_strike(n, side, k, c)
    return stall_struck(geo, givens, struck)


def stall_struck(geo: Geometry, givens: Sequence[tuple[int, int]], struck: int) -> int | None:
    """``easy_stall`` with the clues' strikes given as ``clue_strike``'s, ORed together: the
    singles on packed layouts (``packed.singles_stall``; its plain version is ``_singles``
    with the strikes per digit)."""
    return singles_stall(geo, givens, struck)


@lru_cache(maxsize=None)
def clue_strike(n: int, side: str, k: int, clue: int) -> int:
    """What the clue alone rules out (``Sight.keep``): bit ``d * n * n + i`` for height
    ``d + 1`` in cell ``i``, so a clue set's strikes are its clues' ORed together."""
    out = 0
    for i, keep in _sight(n, side, k, clue).keep:
        for d in range(n):
            if not keep >> d & 1:
                out |= 1 << (d * n * n + i)
    return out


def seen(heights: Sequence[int]) -> int:
    """How many of ``heights`` (nearest first) are seen: taller than every one before."""
    top = count = 0
    for h in heights:
        if h > top:
            top, count = h, count + 1
    return count


def clues_of(grid: Sequence[Sequence[int]]) -> dict[str, tuple[int, ...]]:
    """Every clue of a full grid (rows of heights): side -> N numbers."""
    n = len(grid)
    cols = [[grid[r][c] for r in range(n)] for c in range(n)]
    return {"top": tuple(seen(col) for col in cols), "bottom": tuple(seen(col[::-1]) for col in cols),
            "left": tuple(seen(row) for row in grid), "right": tuple(seen(row[::-1]) for row in grid)}


# --- the fillings of one line ------------------------------------------------------

@dataclass(frozen=True)
class _Table:
    """Every permutation of 1..n as bit positions: per (position, digit) and per pair of
    clue values (0: any) the set of permutations, as one int each."""

    at: tuple[tuple[int, ...], ...]      # at[k][d - 1]: permutations with d at position k
    sight: tuple[tuple[int, ...], ...]   # sight[front][back]: permutations showing those (0: any)


@lru_cache(maxsize=None)
def _table(n: int) -> _Table:
    perms = list(permutations(range(1, n + 1)))
    width = (len(perms) + 7) // 8
    at = [[bytearray(width) for _ in range(n)] for _ in range(n)]
    sight = [[bytearray(width) for _ in range(n + 1)] for _ in range(n + 1)]
    for idx, p in enumerate(perms):
        byte, b = idx >> 3, 1 << (idx & 7)
        for k, d in enumerate(p):
            at[k][d - 1][byte] |= b
        f, r = seen(p), seen(p[::-1])
        for x in (0, f):
            for y in (0, r):
                sight[x][y][byte] |= b
    as_int = lambda ba: int.from_bytes(ba, "little")  # noqa: E731
    return _Table(tuple(tuple(map(as_int, row)) for row in at), tuple(tuple(map(as_int, row)) for row in sight))


@lru_cache(maxsize=1 << 16)
def line_options(cands: tuple[int, ...], front: int, back: int) -> tuple[int, ...] | None:
    """Per cell of a line (candidate bitmasks, front end first), the digits some filling of the
    line that fits the candidates and shows ``front`` and ``back`` (0: no clue) uses; None when
    no filling fits. Equal to ``line_options_plain``."""
    t = _table(len(cands))
    ok = t.sight[front][back]
    for k, c in enumerate(cands):
        row = t.at[k]
        m = 0
        while c:
            low = c & -c
            m |= row[low.bit_length() - 1]
            c ^= low
        ok &= m
        if not ok:
            return None
    return tuple(sum(1 << d for d in range(len(cands)) if ok & t.at[k][d]) for k in range(len(cands)))


def line_options_plain(cands: Sequence[int], front: int, back: int) -> tuple[int, ...] | None:
    """``line_options`` the obvious way: try every permutation."""
    n = len(cands)
    out = [0] * n
    found = False
    for p in permutations(range(1, n + 1)):
        if all(c >> (d - 1) & 1 for c, d in zip(cands, p)) and (not front or seen(p) == front) \
                and (not back or seen(p[::-1]) == back):
            found = True
            for k, d in enumerate(p):
                out[k] |= 1 << (d - 1)
    return tuple(out) if found else None


# --- techniques --------------------------------------------------------------------

def clue_text(s: Sight, n: int) -> Text:
    """'the 3 above column 2' and the like."""
    words = {"top": N_("the {clue} above column {line}"), "bottom": N_("the {clue} below column {line}"),
             "left": N_("the {clue} left of row {line}"), "right": N_("the {clue} right of row {line}")}
    return Text(words[s.side], clue=s.clue, line=s.line + 1)


def _read(st: State, keys) -> None:
    """Note the clues a technique struck something with (the carve's ``used``)."""
    if st.extra.used is not None:
        st.extra.used.update(keys)


def _clue_alone(edge: bool):
    """``sky_edge`` (``edge``: the 1 and N clues) or ``sky_bounds`` (the others): strike what
    the clue alone rules out (``Sight.keep``)."""
    which = 0 if edge else 1

    def tech(g: Geometry, st: State, run: Run) -> int:
        n = g.n
        cand = st.cand
        extra: SkyExtra = st.extra  # type: ignore[assignment]
        struck = getattr(st, "struck", None)
        if struck is not None and struck[which] is extra:
            return 0  # nothing left to strike since it last looked, under these clues
        for i, strike, s in (extra.edge if edge else extra.bounds):
            if not cand[i] & strike:
                continue
            cuts = []
            for i, keep in s.keep:
                cuts += cut(st, (i,), ~keep)
            _read(st, ((s.side, s.line),))
            if run.explain:
                if s.clue == 1:
                    run.reason = Text(N_("{clue} sees one building only, so the tallest, {digit}, stands next "
                                         "to it; {cuts}."), clue=clue_text(s, n), digit=n, cuts=describe_cuts(st, cuts))
                elif s.clue == n:
                    run.reason = Text(N_("{clue} sees every building, so they rise 1, 2, 3 ... from that side; "
                                         "{cuts}."), clue=clue_text(s, n), cuts=describe_cuts(st, cuts))
                else:
                    run.reason = Text(N_("{clue}: the {count} buildings seen each stand taller than the one "
                                         "seen before, so the first is at most {top}, the next at most one more, "
                                         "and so on; {cuts}."),
                                      clue=clue_text(s, n), count=s.clue, top=n - s.clue + 1,
                                      cuts=describe_cuts(st, cuts))
            return 1
        if struck is not None:
            struck[which] = extra
        return 0
    tech.__name__ = "t_sky_edge" if edge else "t_sky_bounds"
    return tech


t_sky_edge = _clue_alone(True)
t_sky_bounds = _clue_alone(False)


def _clue_alone_probe(edge: bool):
    """``Tech.probe`` of ``sky_edge`` (``edge``) or ``sky_bounds``: whether some clue still has
    something to strike (what the technique looks for first), without the copy of the state
    the rated run would try it on; where none has, the state notes so, as the technique does
    (``SkyState.struck``). ``rated_run(..., probes=False)`` is the plain version
    (tests/test_sky_carve.py)."""
    which = 0 if edge else 1

    def probe(g: Geometry, st: State) -> bool:
        extra: SkyExtra = st.extra  # type: ignore[assignment]
        struck = getattr(st, "struck", None)
        if struck is not None and struck[which] is extra:
            return False
        cand = st.cand
        for i, strike, _ in (extra.edge if edge else extra.bounds):
            if cand[i] & strike:
                return True
        if struck is not None:
            struck[which] = extra
        return False
    return probe


def _counting(most_open: int):
    def tech(g: Geometry, st: State, run: Run) -> int:
        get_cand, get_placed = st.cand.__getitem__, st.placed.__getitem__
        for line in st.extra.lines:  # type: ignore[attr-defined]
            cells = line.cells
            free = len(cells) - sum(map(get_placed, cells))
            if not free or free > most_open:
                continue
            now = tuple(map(get_cand, cells))
            options = line_options(now, line.front, line.back)
            if options is None:
                raise Contradiction(f"{g.names[line.house]} can't show its clues")
            if options == now:
                continue
            cuts = []
            for i, keep in zip(cells, options):
                cuts += cut(st, (i,), ~keep)
            if cuts:
                _read(st, line.keys)
                if run.explain:
                    run.reason = Text(N_("in {line}, only some ways to fill the open cells show the buildings "
                                         "its clues say; {cuts}."), line=g.names[line.house], cuts=describe_cuts(st, cuts))
                return 1
        return 0
    return tech


t_sky_count = _counting(COUNT_OPEN)
t_sky_lines = _counting(1 << 30)

TECHNIQUES = Ladder(
    Tech("sky_edge", Level.EASY, t_sky_edge, 0.4, 1.2, _clue_alone_probe(True), title=N_("A clue of 1, or as large as the grid"),
         description=N_("A 1 sees only the tallest building, so the tallest (5 on a 5\u00d75 grid) stands right next to it; a clue as large as the grid (5 on a 5\u00d75) sees every building, so the line climbs 1, 2, 3, 4, 5 from that side.")),
    Tech("sky_bounds", Level.EASY, t_sky_bounds, 0.8, 1.8, _clue_alone_probe(False), title=N_("Clue ranges"),
         description=N_("To see 3 buildings, two taller ones must follow the first: on a 5\u00d75 grid the building next to a clue of 3 is at most 3 tall, the next one at most 4, and so on.")),
    Tech("sky_count", Level.MEDIUM, t_sky_count, 2.0, 2.8, title=N_("Counting a nearly full line"),
         description=N_("With two or three cells of a line open, try each way to fill them and count the buildings seen from both ends: keep only what the clues allow.")),
    Tech("sky_lines", Level.HARD, t_sky_lines, 4.0, 3.8, title=N_("Counting any line"),
         description=N_("The same counting on a line with more cells open: a height that no filling matching both clues puts in a cell is ruled out there.")),
)


# --- SAT -----------------------------------------------------------------------------

def sight_clauses(n: int, clues: dict[str, Sequence[int]]) -> list[list[int]]:
    """Clauses saying each clue sees exactly its number of buildings (variable ``i * n + d``:
    cell ``i`` holds ``d``; new variables from ``n**3 + 1`` up, clue after clue)."""
    base = n ** 3
    top = base
    out: list[list[int]] = []
    for side in SIDES:
        for k, clue in enumerate(clues[side]):
            if not clue:
                continue
            clauses, used = clue_clauses(n, side, k, clue)
            shift = top - base
            out += [[v + shift if v > base else v - shift if v < -base else v for v in c] for c in clauses]
            top += used
    return out


def clue_groups(n: int, clues: dict[str, Sequence[int]]) -> list[Group]:
    """The clues for ``latin_sat.prove``'s ``groups``: per clue its line's clauses
    (``line_clauses``, the same for every number, so the proof's kept solver loads each of
    the 4N lines once and a new puzzle adds no clauses) and its number as assumptions
    (``clue_literals``). Together they allow what ``sight_clauses`` does (tests/test_clue_groups.py)."""
    return [_clue_group(n, side, k, clue) for side in SIDES for k, clue in enumerate(clues[side]) if clue]


def clue_switches(ls: LatinSolver, n: int, clues: dict[str, Sequence[int]]) -> list[int]:
    """``group_switches(ls, clue_groups(n, clues))``, its plain version (tests/test_sky_carve.py),
    each clue's part kept in ``ls.memo``: a carve asks its kept solver about the same few clues
    thousands of times, and building their groups cost more than the question's assumptions."""
    memo = ls.memo
    out: list[int] = []
    for side in SIDES:
        for k, clue in enumerate(clues[side]):
            if clue:
                key = ("sky", side, k, clue)
                got = memo.get(key)
                if got is None:
                    got = memo[key] = group_switches(ls, [_clue_group(n, side, k, clue)])
                out += got
    return out


def _clue_group(n: int, side: str, k: int, clue: int) -> Group:
    return Group(("sky", side, k), partial(line_clauses_list, n, side, k), clue_literals(n, side, k, clue),
                 partial(line_clauses_behind, n, side, k))


# The carve's solver for "is there another solution?" (``ambiguous``), apart from the proof's:
# its questions leave a clause each behind, and the proof's solver is loaded afresh every 200.
_RIVALS = Kept(2000)


def ambiguous(geo: Geometry, sol: Sequence[int], givens: Sequence[tuple[int, int]],
              clues: dict[str, Sequence[int]], within: State | None = None) -> bool:
    """Whether the puzzle of ``givens`` and ``clues`` has a solution besides ``sol`` (one of
    its solutions): then no sound ladder solves it, and no single trial settles it. Up to
    ``TABLE_MAX`` by the table of every Latin square (microseconds), above by SAT
    (``ambiguous_sat``, the plain version it must equal; ``within`` serves SAT alone)."""
    n = geo.n
    if n > TABLE_MAX:
        return ambiguous_sat(geo, sol, givens, clues, within)
    fits = table_solutions(n, givens, clues)
    return bool(fits & (fits - 1))  # two squares or more


def table_solutions(n: int, givens: Sequence[tuple[int, int]], clues: dict[str, Sequence[int]]) -> int:
    """The squares of ``latin_table(n)`` (a bit each, ``n`` <= ``TABLE_MAX``) that hold the
    givens and show the clues: every solution of the puzzle, as every square is listed."""
    squares, masks = latin_table(n)
    shows = _shows(n)
    fits = (1 << len(squares)) - 1
    for i, d in givens:
        fits &= masks[i][d]
    for side in SIDES:
        for k, c in enumerate(clues[side]):
            if c:
                fits &= shows[side][k][c]
    return fits


def clue_squares(n: int, clues: dict[str, Sequence[int]]) -> dict[tuple[str, int], int]:
    """(side, line) -> the squares of ``latin_table(n)`` (a bit each) that show that clue
    (every square where it is 0), as ``table_solutions`` intersects them."""
    shows = _shows(n)
    return {(side, k): shows[side][k][c] if c else -1 for side in SIDES for k, c in enumerate(clues[side])}


@lru_cache(maxsize=None)
def _shows(n: int) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Per side, per line, per clue value: the squares of ``latin_table(n)`` (a bit each) that
    show it there."""
    squares, _ = latin_table(n)
    out = {side: [[0] * (n + 1) for _ in range(n)] for side in SIDES}
    for s, flat in enumerate(squares):
        for side, seen_there in clues_of([flat[r * n:r * n + n] for r in range(n)]).items():
            for k, c in enumerate(seen_there):
                out[side][k][c] |= 1 << s
    return {side: tuple(map(tuple, rows)) for side, rows in out.items()}


def ambiguous_sat(geo: Geometry, sol: Sequence[int], givens: Sequence[tuple[int, int]],
                  clues: dict[str, Sequence[int]], within: State | None = None) -> bool:
    """``ambiguous`` by SAT, on a kept solver: any size. ``within``: a position the ladder
    reached from the givens and clues (every solution lies inside it), whose struck
    candidates are assumed, which only shortens the search."""
    n = geo.n
    assume: list[int] = []
    if within is not None:
        cand, placed = within.cand, within.placed
        for i in range(n * n):
            c = cand[i]
            if placed[i]:
                assume.append(i * n + c.bit_length())
            else:
                base = i * n
                assume += [-(base + d) for d in range(1, n + 1) if not c >> (d - 1) & 1]
    return other_solution(geo, givens, sol, assume=assume, kept=_RIVALS,
                          switches=lambda ls: clue_switches(ls, n, clues))


def line_clauses_list(n: int, side: str, k: int) -> tuple[tuple[int, ...], ...]:
    return line_clauses(n, side, k)[0]


def line_clauses_behind(n: int, side: str, k: int, on: int) -> list[tuple[int, ...]]:
    """``line_clauses`` as the proof's solver holds them behind the switch ``on`` (each led by
    ``-on``, own variables from ``on + 1`` up), made so directly: a line is loaded once per
    solver, so a cache of them in their own numbering saves nothing, and renumbering each
    literal cost more than making the clause (``LatinSolver.group``'s ``numbered``)."""
    return _line_clauses(n, side, k, on - n ** 3, (-on,))[0]


@lru_cache(maxsize=None)
def line_clauses(n: int, side: str, k: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """One line seen from one side, whatever its clue: clauses (own variables from
    ``n**3 + 1`` up) and the counter's outputs, ``out[c - 1]`` true exactly when at least c
    buildings are seen. A "seen" variable per cell (taller than everything before it, the
    two clause families of ``clue_clauses`` without its simplifications, which depend on the
    clue) and a counter, ``at[j][c]``: at least c of the first j + 1 cells seen, defined both
    ways so that assuming an output forces the count up or down."""
    out, outs = _line_clauses(n, side, k)
    return tuple(out), outs


def _line_clauses(n: int, side: str, k: int, shift: int = 0, lead: tuple[int, ...] = ()
                  ) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    """``line_clauses``, own variables moved up by ``shift`` and each clause led by ``lead``."""
    out, marks = _seen_clauses(n, line_cells(n, side, k), frozenset(), shift, lead)
    top = n ** 3 + n + shift
    at: list[list[int]] = []
    for j in range(n):
        at.append(list(range(top + 1, top + j + 2)))  # at[j][c - 1], c = 1 .. j + 1
        top += j + 1
    for j, s in enumerate(marks):
        for c in range(1, j + 2):
            x = at[j][c - 1]
            same = (at[j - 1][c - 1],) if c <= j else ()  # at least c before it (none: false)
            less = at[j - 1][c - 2] if c >= 2 else 0       # at least c - 1 before it (0: true)
            out += [(*lead, -v, x) for v in same]
            out.append((*lead, -less, -s, x) if less else (*lead, -s, x))
            out.append((*lead, -x, *same, s))
            if less:
                out.append((*lead, -x, *same, less))
    return out, tuple(at[n - 1])


@lru_cache(maxsize=None)
def clue_literals(n: int, side: str, k: int, clue: int) -> tuple[int, ...]:
    """What the clue ``clue`` says on ``line_clauses(n, side, k)``, as literals to assume:
    exactly ``clue`` seen, and (as ``clue_clauses``' unit clauses, which unit propagation would
    not find) the heights it alone rules out (``Sight.keep``)."""
    outs = line_clauses(n, side, k)[1]
    lits = [outs[clue - 1]] + ([-outs[clue]] if clue < n else [])
    return tuple(lits + [-x for x in _ruled_out(n, side, k, clue)])


def _ruled_out(n: int, side: str, k: int, clue: int) -> list[int]:
    """The variables (cell, height) of the heights the clue alone rules out (``Sight.keep``)."""
    return [i * n + d for i, keep in _sight(n, side, k, clue).keep for d in range(1, n + 1) if not keep >> (d - 1) & 1]


def _seen_clauses(n: int, cells: Sequence[int], ruled_out: set[int] | frozenset[int], shift: int = 0,
                  lead: tuple[int, ...] = ()) -> tuple[list[tuple[int, ...]], list[int]]:
    """A "seen" variable per cell of a line (``n**3 + 1 + shift`` up, nearest first: taller
    than every cell before it) defined by two clause families, each clause led by ``lead``,
    a height in ``ruled_out`` left out of both (its unit clause makes them hold); the
    clauses and the variables."""
    out: list[tuple[int, ...]] = []
    marks = []
    for j, i in enumerate(cells):
        v = n ** 3 + j + 1 + shift
        marks.append(v)
        for d in range(1, n + 1):
            if i * n + d in ruled_out:
                continue
            taller = [x for p in range(j) for x in range(cells[p] * n + d + 1, cells[p] * n + n + 1)
                      if x not in ruled_out]
            out += [(*lead, -v, -(i * n + d), -x) for x in taller]  # seen and holding d: nothing before taller
            out.append((*lead, v, -(i * n + d), *taller))             # not seen while holding d: something is
    return out, marks


@lru_cache(maxsize=None)
def clue_clauses(n: int, side: str, k: int, clue: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """One clue's clauses (its own variables from ``n**3 + 1`` up) and how many variables of
    its own they use: a "seen" variable per cell of its line (taller than everything before
    it, defined by two clause families), a sequential counter saying exactly ``clue`` of
    them hold, and the heights the clue alone rules out (``Sight.keep``) as unit clauses.

    The units are implied by the rest, but unit propagation doesn't find them; with them
    the proof's "no other solution" call searches far less (5x5 easy: 1.55 -> 0.71 ms a
    puzzle, 7x7 easy 4.8 -> 1.5 ms). Given them, the seen clauses of a ruled-out height
    hold already and are left out, and a ruled-out height is left out of the "something
    before it is taller" lists: 40 % fewer clauses to load. ``sight_clauses`` (``check``,
    ``solve``) is made of these; the generator's proof loads ``line_clauses`` instead and
    assumes the same units (``clue_literals``). The reference is brute force over every 4x4
    Latin square (tests/test_skyscrapers.py)."""
    ruled_out = set(_ruled_out(n, side, k, clue))
    out, marks = _seen_clauses(n, line_cells(n, side, k), ruled_out)
    top = n ** 3 + n
    card = CardEnc.equals(lits=marks, bound=clue, top_id=top, encoding=EncType.seqcounter)
    top = max(top, card.nv)
    out += [tuple(c) for c in card.clauses]
    out += [(-x,) for x in sorted(ruled_out)]
    return tuple(out), top - n ** 3
