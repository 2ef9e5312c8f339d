"""The rated run: a solve of a Latin puzzle that always takes the easiest step.

Sudoku Explainer rates a puzzle by the hardest step of such a solve, so the
ladder's own run (which tries techniques in tier order and lets naked
singles go first) can't give the rating: a puzzle whose every cell also falls
to a hidden single in a box is SE 1.2 however our ladder found it. This run
looks for the singles itself, in SE's order (hidden single in a box 1.2, in a
row, column or other house 1.5, naked single 2.3), and otherwise uses the
puzzle's ladder rows (houses and constraint plug-ins alike) in the order of their
``rating``, one use at a time; it records each step's rating and how many
singles were open then (``bookgen.core.rating.RatedStep``), which is all
the rating and the time model need.

A trial rates by how long its assumptions take to break: the median number of steps
over every refutable candidate open (most break at once; a puzzle whose refutations
run long is harder to crack), from the trial's base value up. On our expert Sudoku this
ranks like SE with rho 0.34 only: SE finds wings, ALS and chains our ladder lacks.
"""

from __future__ import annotations

import math
from itertools import combinations
import statistics
from typing import Callable, NamedTuple, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.memo import BoundedMemo, kept_by_identity
from bookgen.core.rating import (DIRECT_CLAIMING, DIRECT_HIDDEN_PAIR, DIRECT_HIDDEN_TRIPLE, DIRECT_POINTING,
                                 FULL_HOUSE, HIDDEN_SINGLE_BOX, HIDDEN_SINGLE_LINE, NAKED_SINGLE, RatedStep,
                                 minutes_of, rating_and_minutes, rating_of, technique_rating)
from bookgen.solve.houses import (LADDER, NO_EXTRA, TRIAL_DEPTH, TRIAL_MAX_CANDIDATES, Contradiction, Extra, Geometry,
                                  Run, State, Tech, _bitboards, closure, drop_singles, house_positions, solve, start,
                                  swap_cycles)
from bookgen.solve.latin import bit, digits_of
from bookgen.solve.packed import _packed, singles_come_back

_HOUSE_FNS = frozenset(t.fn for t in LADDER)  # the house techniques (most read the positions table)
SINGLE_NAMES = ("naked_single", "hidden_single")  # rows the run replaces with its own singles (and their splits)
TRIAL_STEP = 0.5  # the trial's rating grows by this per doubling of its refutation's length
TRIAL_SPAN = 1.9  # ... by at most this much: one trial stays below extreme (TIER_REACH in bookgen.core.rating)
MAX_STEPS = 4096   # a bound far above any real solve (each step places or strikes something)


def _singles(g: Geometry, st: State, values: tuple[float, float, float], alone: float | None = None
             ) -> tuple[list[tuple[int, int, float]], int]:
    """Every single open now as (cell, digit, rating) with the easiest first, and how many
    distinct cells they place; ``values``: a hidden single in a box (or region, diagonal),
    one in a row or column, a naked single; ``alone``: the last open cell of a house (SE's
    full house), where it has a value of its own."""
    box_value, line_value, naked_value = values
    cand, placed = st.cand, st.placed
    found: dict[int, tuple[int, int, float]] = {}
    n = g.n
    boxes_from = 2 * n
    for h, cells in enumerate(g.houses):
        value = box_value if h >= boxes_from else line_value
        if alone is not None and sum(1 for i in cells if not placed[i]) == 1:
            value = alone
        once = more = 0
        for i in cells:
            if not placed[i]:
                m = cand[i]
                more |= once & m
                once = (once | m) & ~more
        while once:
            m = once & -once
            once &= ~m
            where = next(i for i in cells if not placed[i] and cand[i] & m)
            old = found.get(where)
            if old is None or old[2] > value:
                found[where] = (where, m.bit_length(), value)
    for i in range(n * n):
        m = cand[i]
        if not placed[i] and not m & (m - 1) and (i not in found or found[i][2] > naked_value):
            found[i] = (i, m.bit_length(), naked_value)
    return sorted(found.values(), key=lambda s: (s[2], s[0])), len(found)


class SinglesScan:
    """``_singles`` kept up to date from one call to the next, which it must equal: a call
    gives its easiest single (or None) and its count, ``listing`` its whole list
    (tests/test_rated_scan.py checks them against each other).

    A step changes a few cells, and a hidden single of digit d in a house depends only on
    where d is still open there; so this keeps, per digit, the open cells holding it (a
    bitmask), per (house, digit) the one open cell holding it (or -1), and per cell its
    easiest single, and recomputes only what the cells changed since the last call (found
    by comparing with a snapshot, so it follows any state: a copy ``_direct`` tries, the
    state a technique changed) touch. The full rescan cost most of an easy puzzle's rating.
    """

    def __init__(self, g: Geometry, values: tuple[float, float, float], alone: float | None = None) -> None:
        n = g.n
        self.g, self.n, self.values, self.alone = g, n, values, alone
        self.unplaced = 0                        # the cells open at the last call (``alone`` only)
        boxes_from = 2 * n
        self.house_value = [values[0] if h >= boxes_from else values[1] for h in range(len(g.houses))]
        self.house_bits = _bitboards(g)[0]
        self.seen = [0] * (n * n)               # per cell: its candidates at the last call, 0 when placed
        self.open = [0] * n                      # per digit: the open cells holding it
        self.where = [-1] * (len(g.houses) * n)  # per (house, digit): its only open cell, or -1
        self.best: list[tuple[float, int, int] | None] = [None] * (n * n)  # per cell: (value, cell, digit)
        self.entries: set[tuple[float, int, int]] = set()  # the ``best`` that are not None

    def __call__(self, st: State) -> tuple[tuple[float, int, int] | None, int]:
        """(value, cell, digit) of the easiest single open in ``st`` (None: none) and how many
        cells the singles open place."""
        self._update(st)
        return (min(self.entries) if self.entries else None), len(self.entries)

    def listing(self, st: State) -> tuple[list[tuple[int, int, float]], int]:
        """What ``_singles`` returns (with the same ``alone``): every single as (cell, digit,
        value), easiest first."""
        self._update(st)
        return [(i, d, v) for v, i, d in sorted(self.entries)], len(self.entries)

    def placed(self, st: State, i: int) -> None:
        """The run placed cell ``i`` of ``st`` since the last call: nothing to do here (each
        call compares with the snapshot); ``DigitScan`` takes the hint."""

    def _update(self, st: State) -> None:
        n, g = self.n, self.g
        seen, open_, where, house_bits = self.seen, self.open, self.where, self.house_bits
        houses_of = g.houses_of
        changed = [i for i, c, p, s in zip(range(n * n), st.cand, st.placed, seen) if (0 if p else c) != s]
        if changed:
            cand, placed = st.cand, st.placed
            touched: dict[int, int] = {}  # per house, the digits whose open cells there changed
            get = touched.get
            for i in changed:
                now = 0 if placed[i] else cand[i]
                flip = now ^ seen[i]
                seen[i] = now
                b = 1 << i
                digits = flip
                while flip:
                    low = flip & -flip
                    flip ^= low
                    open_[low.bit_length() - 1] ^= b
                for h in houses_of[i]:
                    touched[h] = get(h, 0) | digits
            cells = set(changed)
            if self.alone is not None:  # a house down to one or two open cells: their values may change
                unplaced = self.unplaced
                for i in changed:
                    unplaced = unplaced | (1 << i) if seen[i] else unplaced & ~(1 << i)
                if unplaced != self.unplaced:
                    before, flipped = self.unplaced, unplaced ^ self.unplaced
                    self.unplaced = unplaced
                    for h in {h for i in changed if flipped >> i & 1 for h in houses_of[i]}:
                        for x in (before & house_bits[h], unplaced & house_bits[h]):
                            if x and not x & (x - 1):  # the house's last open cell, then or now
                                cells.add(x.bit_length() - 1)
            for h, digits in touched.items():
                hb = house_bits[h]
                base = h * n
                while digits:
                    low = digits & -digits
                    digits ^= low
                    d = low.bit_length() - 1
                    x = open_[d] & hb
                    w = x.bit_length() - 1 if x and not x & (x - 1) else -1
                    k = base + d
                    old = where[k]
                    if w != old:
                        where[k] = w
                        if old >= 0:
                            cells.add(old)
                        if w >= 0:
                            cells.add(w)
            best, entries = self.best, self.entries
            for i in cells:
                old, new = best[i], self._best(i)
                if old != new:
                    best[i] = new
                    if old is not None:
                        entries.discard(old)
                    if new is not None:
                        entries.add(new)

    def _best(self, i: int) -> tuple[float, int, int] | None:
        """Cell ``i``'s easiest single: the first in (value, house, digit) order of the hidden
        singles placing it, or its naked single where that rates lower."""
        m, open_, unplaced = self.seen[i], self.open, self.unplaced  # (``unplaced``: kept with ``alone``)
        best = None
        if m:
            b = 1 << i
            for h in self.g.houses_of[i]:
                hb = self.house_bits[h]
                value = self.house_value[h]
                if self.alone is not None and unplaced & hb == b:
                    value = self.alone
                rest = m
                while rest:
                    low = rest & -rest
                    rest ^= low
                    d = low.bit_length() - 1
                    if open_[d] & hb == b and (best is None or (value, h) < best[0]):
                        best = ((value, h), d)
        hidden = (best[0][0], i, best[1] + 1) if best is not None else None
        naked_value = self.values[2]
        if m and not m & (m - 1) and (hidden is None or hidden[0] > naked_value):
            return (naked_value, i, m.bit_length())
        return hidden


SMALL_SCAN = 6  # grids up to this order are scanned by ``SmallScan``, larger ones by ``DigitScan``

@kept_by_identity()
def _hidden_memo(g: Geometry) -> dict[int, tuple[int, int]]:
    """Per geometry, kept as ``_bitboards`` keeps its masks: a digit's open cells -> (the cells
    where it is the only place of a box or region, of a row, column or diagonal), filled as met."""
    return {}


class SmallScan(SinglesScan):
    """``SinglesScan`` for grids up to ``SMALL_SCAN``: ``_singles`` too, which it must equal
    (tests/test_rated_small_scan.py). Per digit the open cells holding it (a bitmask, brought
    up to date at the cells that changed, as ``SinglesScan`` does); the hidden singles a mask
    leaves are remembered per geometry and mask (a small grid's masks recur from step to step
    and puzzle to puzzle), so a call is a lookup per digit, a fold for the naked singles, and
    the one cell the easiest single is in looked at digit by digit. Keeping every cell's
    singles up to date cost more than that on a 4x4 to 6x6 grid (a fifth of a small KenKen's
    generation); on a 9x9 grid the masks rarely recur, and ``SinglesScan`` is cheaper."""

    def __init__(self, g: Geometry, values: tuple[float, float, float], alone: float | None = None) -> None:
        # (``SinglesScan``'s cell by cell bookkeeping is not made: only ``_best`` is shared)
        n = g.n
        self.g, self.n, self.values, self.alone = g, n, values, alone
        boxes_from = 2 * n
        self.house_value = [values[0] if h >= boxes_from else values[1] for h in range(len(g.houses))]
        self.house_bits = _bitboards(g)[0]
        self.memo = _hidden_memo(g)
        self.seen = [0] * (n * n)  # per cell: its candidates at the last call, 0 when placed
        self.open = [0] * n         # per digit: the open cells holding it
        self.unplaced = 0           # the open cells
        self.answer: tuple[tuple[float, int, int] | None, int] | None = None  # None: to work out
        # ``_kinds``' masks grouped by their value, easiest first (the full house only with ``alone``)
        kinds = [(v, k) for k, v in enumerate((values[0], values[1], alone, values[2])) if v is not None]
        self.order = [tuple(k for v, k in kinds if v == value) for value in sorted({v for v, _ in kinds})]

    def __call__(self, st: State) -> tuple[tuple[float, int, int] | None, int]:
        """(value, cell, digit) of the easiest single open in ``st`` (None: none) and how many
        cells the singles open place."""
        self._update(st)
        if self.answer is None:
            kinds = self._kinds()
            found = kinds[0] | kinds[1] | kinds[2] | kinds[3]
            if not found:
                self.answer = (None, 0)
            else:
                for group in self.order:  # the kinds by value, easiest first (equal values together)
                    cells = 0
                    for k in group:
                        cells |= kinds[k]
                    if cells:
                        break
                self.answer = (self._best((cells & -cells).bit_length() - 1), found.bit_count())
        return self.answer

    def listing(self, st: State) -> tuple[list[tuple[int, int, float]], int]:
        """What ``_singles`` returns (with the same ``alone``): every single as (cell, digit,
        value), easiest first."""
        self._update(st)
        found = 0
        for m in self._kinds():
            found |= m
        entries = []
        while found:
            low = found & -found
            found ^= low
            entries.append(self._best(low.bit_length() - 1))
        return [(i, d, v) for v, i, d in sorted(entries)], len(entries)  # type: ignore[misc]

    def _update(self, st: State) -> None:
        now = [0 if p else c for c, p in zip(st.cand, st.placed)]
        seen = self.seen
        if now == seen:
            return
        self.answer = None
        open_ = self.open
        unplaced = self.unplaced
        for i, a, s in zip(range(len(now)), now, seen):
            if a != s:
                flip = a ^ s
                b = 1 << i
                unplaced = unplaced | b if a else unplaced & ~b
                while flip:
                    low = flip & -flip
                    flip ^= low
                    open_[low.bit_length() - 1] ^= b
        self.seen = now
        self.unplaced = unplaced

    def _kinds(self) -> tuple[int, int, int, int]:
        """The cells a hidden single in a box (or region) places, in a line, the last open cell
        of a house (with ``alone``; else its digits are hidden singles of the house), a naked
        single. A cell in a house's last open cell is in a box's or a line's mask too: its value
        there is ``alone``, the lowest, so the easiest single is still read off right."""
        memo, houses = self.memo, self.house_bits
        once = more = box = line = 0
        for x in self.open:
            more |= once & x
            once |= x
            got = memo.get(x)
            if got is None:
                if len(memo) > 1 << 16:
                    memo.clear()
                got = memo[x] = self._hidden(x)
            box |= got[0]
            line |= got[1]
        full = 0
        if self.alone is not None:
            unplaced = self.unplaced
            for hb in houses:
                here = unplaced & hb
                if here and not here & (here - 1):
                    full |= here
        return box, line, full, once & ~more

    def _hidden(self, x: int) -> tuple[int, int]:
        """(cells where ``x``'s digit has its only place in a box or region, in a line)."""
        return _hidden_cells(self.house_bits, 2 * self.n, x)


def _hidden_cells(house_bits: Sequence[int], boxes_from: int, x: int) -> tuple[int, int]:
    """(cells where a digit whose open cells are ``x`` has its only place in a box or region
    (houses from ``boxes_from`` on), in a line): ``_hidden_memo``'s entries."""
    got = [0, 0]
    for h, hb in enumerate(house_bits):
        y = x & hb
        if y and not y & (y - 1):
            got[h < boxes_from] |= y
    return got[0], got[1]

@kept_by_identity()
def _mask_memo(g: Geometry) -> BoundedMemo:
    """Per geometry of rows and columns: a digit's open cells -> ``line_places`` of them,
    filled as met (``strikes_run``)."""
    return BoundedMemo(1 << 16)


def line_places(house_bits: Sequence[int], x: int) -> tuple[int, int, int]:
    """(the cells where a digit whose open cells are ``x`` has its only place in a house; the
    houses, a bit each, where it has one or two places; those where it has one to three): a
    hidden pair (triple) needs two (three) digits of the second (third) kind in one house."""
    line = pairs = triples = 0
    bit = 1  # the house's
    for hb in house_bits:
        y = x & hb
        if y:
            c = y.bit_count()
            if c <= 3:
                triples |= bit
                if c <= 2:
                    pairs |= bit
                    if c == 1:
                        line |= y
        bit <<= 1
    return line, pairs, triples


@kept_by_identity()
def _tail_memo(g: Geometry) -> BoundedMemo:
    """Per geometry: (open cells, the two values) -> ``_tail``'s steps, filled as met."""
    return BoundedMemo(1 << 16)


def _tail(g: Geometry, unplaced: int, alone: float | None, line: float) -> tuple[RatedStep, ...]:
    """The rest of ``strikes_run`` where every open cell (``unplaced``) is a hidden single in
    both its lines and no other step is open: the lowest last open cell of a house (``alone``,
    a full house, rated below ``line``), else the lowest open cell (a hidden single in a line,
    ``line``), each with every open cell a single."""
    memo = _tail_memo(g)
    key = (unplaced, alone, line)
    got = memo.get(key)
    if got is None:
        house_bits = _bitboards(g)[0]
        steps = []
        left = unplaced
        while left:
            full = 0
            if alone is not None:
                for hb in house_bits:
                    here = left & hb
                    if here and not here & (here - 1):
                        full |= here
            steps.append(_step("hidden_single", alone if full else line, left.bit_count()))
            cells = full or left
            left ^= cells & -cells
        got = memo.put(key, tuple(steps))
    return got


@kept_by_identity()
def _full_memo(g: Geometry) -> BoundedMemo:
    """Per geometry: its open cells -> the last open cell of every house down to one (SE's full
    house), filled as met (``strikes_run``)."""
    return BoundedMemo(1 << 16)


@kept_by_identity()
def pair_drops(g: Geometry) -> tuple[int, ...]:
    """Per pair ``d * n * n + i`` (0-based digit d in cell i): every pair but cell i's and digit
    d's in the cell's peers, what placing it leaves (``strikes_run``)."""
    n = g.n
    nn = n * n
    peer_bits = _bitboards(g)[1]
    every = (1 << (n * nn)) - 1
    cell = [sum(1 << (d * nn + i) for d in range(n)) for i in range(nn)]
    return tuple(every & ~(cell[i] | peer_bits[i] << (d * nn)) for d in range(n) for i in range(nn))


def strikes_run(geo: Geometry, givens: Sequence[tuple[int, int]], plan: tuple,
                strikes: dict[str, Sequence[int] | Callable[[int, int, int], int]]
                ) -> tuple[list[RatedStep], bool] | None:
    """``rated_run`` (its steps, whether it finished) on a grid of rows and columns up to
    ``SMALL_SCAN`` whose constraint rows that may come before a naked single each strike what
    one clue alone rules out (Skyscrapers' ``sky_edge`` and ``sky_bounds``); ``plan``:
    ``_plan``'s; ``strikes``: per such row, its clues' strikes in the order it looks at them,
    bit ``d * n * n + i`` for digit d + 1 in cell i, or a finder for a row whose strikes
    depend on the placed digits (Futoshiki's ``sign_known``): ``find(pairs, given, unplaced)``,
    the strike of the first of its uses that strikes something (0: none). The run's state is one integer of such
    pairs (the open cells' candidates), a placement one AND with a mask per pair and geometry,
    a row's use one AND with a clue's strike; the singles are ``SmallScan``'s masks read off it
    afresh each step, so no state is copied or compared. None where the run would meet
    anything else: a contradiction (givens that clash, a cell with no digit left, a strike on a
    placed digit) or a step only another row could take (no single open and none of these
    strikes left); the caller then makes the plain run, ``rated_run`` without this, which it
    must equal (tests/test_rated_strikes.py). On a Skyscrapers 4x4 easy puzzle the state
    copies and snapshot comparisons were most of the run's time."""
    advanced, values, alone = plan
    n = geo.n
    if n > SMALL_SCAN or geo.overlaps or len(geo.houses) != 2 * n:
        return None
    nn = n * n
    every = (1 << nn) - 1
    house_bits = _bitboards(geo)[0]
    houses_of = geo.houses_of
    drop = pair_drops(geo)
    memo, fulls = _mask_memo(geo), _full_memo(geo)
    line_value, naked_value = values[1], values[2]
    kinds_valued = [(v, k) for k, v in enumerate((values[0], values[1], alone, values[2])) if v is not None]
    order = [tuple(k for v, k in kinds_valued if v == value) for value in sorted({v for v, _ in kinds_valued})]
    shifts = range(0, n * nn, nn)
    tail = (alone is None or alone < line_value) and line_value < naked_value  # (``_tail``'s order of values)
    pairs = (1 << (n * nn)) - 1  # the open cells' candidates
    unplaced = every
    given = 0                    # the placed cells' digits, as pairs
    for i, d in givens:
        k = (d - 1) * nn + i
        if not pairs >> k & 1:
            return None  # (the cell given twice, or its digit given in one of its houses)
        pairs &= drop[k]
        unplaced &= ~(1 << i)
        given |= 1 << k
    finders = {name: ms for name, ms in strikes.items() if callable(ms)}
    fixed = [m for ms in strikes.values() if not callable(ms) for m in ms]
    steps: list[RatedStep] = []
    while unplaced:
        pos = [pairs >> s & every for s in shifts]  # per digit, the open cells holding it
        once = more = line = 0
        gots = []
        for x in pos:
            more |= once & x
            once |= x
            got = memo.get(x) or memo.put(x, line_places(house_bits, x))  # (a tuple of three: never false)
            line |= got[0]
            gots.append(got)
        if once != unplaced:
            return None  # a cell with no digit left
        naked = once & ~more
        if tail and naked == unplaced and line == unplaced and not any((pairs | given) & m for m in fixed) \
                and not any(find(pairs, given, unplaced) for find in finders.values()):
            # Every open cell has one digit left, alone in its row and column, and no strike is
            # left (the state only loses pairs, so none comes back): each step from here places
            # the lowest cell of a full house (else the lowest open cell) as a hidden single,
            # every open cell a single, whatever the digits (``_tail``).
            steps += _tail(geo, unplaced, alone, line_value)
            return steps, True
        full = 0
        if alone is not None:
            full = fulls.get(unplaced, -1)
            if full < 0:
                full = 0
                for hb in house_bits:
                    here = unplaced & hb
                    if here and not here & (here - 1):
                        full |= here
                fulls.put(unplaced, full)
        found = line | full | naked
        options = found.bit_count()
        single = None
        if found:
            kinds = (0, line, full, naked)
            for group in order:  # (``SmallScan.__call__``'s choice, then ``_best`` of that cell)
                cells = 0
                for k in group:
                    cells |= kinds[k]
                if cells:
                    break
            b = cells & -cells
            c = b.bit_length() - 1
            best = None
            for h in houses_of[c]:
                hb = house_bits[h]
                value = alone if alone is not None and unplaced & hb == b else line_value
                if best is not None and (value, h) >= best[0]:
                    continue  # (the first digit alone at c in a house wins it; a later house only if easier)
                for d in range(n):
                    if pos[d] & hb == b:
                        best = ((value, h), d)
                        break
            if naked & b and (best is None or best[0][0] > naked_value):
                single = (naked_value, c, next(d for d in range(n) if pos[d] & b) + 1)
            elif best is not None:
                single = (best[0][0], c, best[1] + 1)
        easiest = single[0] if single is not None else math.inf
        if easiest > line_value:
            # A hidden pair (triple) needs two (three) digits of a house with one to two
            # (three) places there: ``direct_on_masks`` looks only in such houses.
            p0 = p1 = t0 = t1 = t2 = 0
            for _, p, t in gots:
                p1 |= p0 & p
                p0 |= p
                t2 |= t1 & t
                t1 |= t0 & t
                t0 |= t
            direct = direct_on_masks(pos, house_bits, easiest, p1, t2) if p1 | t2 else None
            if direct is not None:
                i, d, value, name = direct
                k = (d - 1) * nn + i
                pairs &= drop[k]
                unplaced &= ~(1 << i)
                given |= 1 << k
                steps.append(_step(name, value, options))
                continue
        took = None
        for t, least, _ in advanced:  # (``_easiest_advanced``: these rows' value is their least)
            if least >= easiest:
                break
            masks = strikes.get(t.name)
            if masks is None:
                return None
            find = finders.get(t.name)
            if find is not None:
                m = find(pairs, given, unplaced)
                if m:
                    took = (t.name, least, m)  # (a finder strikes open cells only)
                    break
                continue
            for m in masks:
                if (pairs | given) & m:
                    if given & m:
                        return None  # (a placed digit struck: a contradiction)
                    took = (t.name, least, m)
                    break
            if took is not None:
                break
        if took is not None:
            pairs &= ~took[2]
            steps.append(_step(took[0], took[1], options))
            continue
        if single is None:
            return None
        value, i, d = single
        k = (d - 1) * nn + i
        pairs &= drop[k]
        unplaced &= ~(1 << i)
        given |= 1 << k
        steps.append(_step("naked_single" if value == naked_value and naked >> i & 1 else "hidden_single", value,
                           options))
    return steps, True


class DigitScan(SmallScan):
    """``SinglesScan`` for grids above ``SMALL_SCAN``: ``_singles`` too, which it must equal
    (tests/test_rated_scan.py). Per digit the open cells holding it, and the cells where it is
    the only place of a box-kind house (box, region, diagonal) or of a row or column; the open
    cells with one candidate; with ``alone``, the last open cell of each house. A call reads
    the easiest single off those masks as ``SmallScan`` reads its own (the lowest cell of the
    easiest kind, then that one cell's single); the cells' singles are not kept one by one.

    Candidates only go, so a single stays one until its cell loses that digit: a cell losing
    digits drops out of those digits' masks, and only the houses it is in can gain a single of
    them. A run that places a single tells the scan (``placed``): the cells that changed are
    that cell and its peers holding the digit, found from the masks; any other change is found
    by comparing with the snapshot, and a state that gained a candidate back (a copy dropped)
    is read afresh. Finding each call's changes by that comparison, and keeping every cell's
    single, were most of ``SinglesScan``'s time on a 9x9 Sudoku's rated run."""

    def __init__(self, g: Geometry, values: tuple[float, float, float], alone: float | None = None) -> None:
        # (``SmallScan``'s memo of masks is not made: its calls and listing are shared)
        n = g.n
        self.g, self.n, self.values, self.alone = g, n, values, alone
        boxes_from = 2 * n
        self.house_value = [values[0] if h >= boxes_from else values[1] for h in range(len(g.houses))]
        self.house_bits, self.peer_bits = _bitboards(g)
        self.boxy = [h >= boxes_from for h in range(len(g.houses))]
        kinds = [(v, k) for k, v in enumerate((values[0], values[1], alone, values[2])) if v is not None]
        self.order = [tuple(k for v, k in kinds if v == value) for value in sorted({v for v, _ in kinds})]
        self.answer: tuple[tuple[float, int, int] | None, int] | None = None
        self.state: State | None = None  # the state the masks follow (None: read the next one afresh)
        self.current = False             # ``placed`` brought them up to date with ``state``
        self.seen = [0] * (n * n)        # per cell: its candidates at the last call, 0 when placed
        self.open = [0] * n              # per digit: the open cells holding it
        self.box = [0] * n               # per digit: the cells where it is alone in a box-kind house
        self.line = [0] * n              # ... in a row or column
        self.naked = 0                   # the open cells with one candidate
        self.full = 0                    # the last open cell of each house (``alone`` only)
        self.unplaced = 0                # the open cells

    def _kinds(self) -> tuple[int, int, int, int]:
        """``SmallScan._kinds`` from the masks kept: the cells a hidden single in a box-kind
        house places, in a line, the last open cell of a house (with ``alone``), a naked single."""
        box = line = 0
        for m in self.box:
            box |= m
        for m in self.line:
            line |= m
        return box, line, self.full, self.naked

    def placed(self, st: State, i: int) -> None:
        """``st``, the state of the last call, has since placed open cell ``i`` and changed
        nothing else (``elim`` to its digit, then ``place``, of ``State`` itself): its peers
        lost that digit. The next call, if it is on ``st`` and nothing changed in between,
        needs no comparison."""
        if st is not self.state or type(st) is not State:
            return  # (the next call compares with the snapshot)
        b = st.cand[i]
        d = b.bit_length() - 1
        seen = self.seen
        changes = [(i, 0)]
        rest = self.open[d] & self.peer_bits[i]
        while rest:
            low = rest & -rest
            rest ^= low
            j = low.bit_length() - 1
            changes.append((j, seen[j] & ~b))
        self._apply(changes)
        self.current = True

    def _update(self, st: State) -> None:
        self.answer = None  # (``SmallScan.__call__`` works it out again)
        if self.current and st is self.state:
            self.current = False
            return
        self.current = False
        seen = self.seen
        if self.state is None:  # (the first call: nothing to compare with)
            self._fresh(st)
            return
        changes = [(i, now) for i, now, s in zip(range(len(seen)), [0 if p else c for c, p in zip(st.cand, st.placed)],
                                                  seen) if now != s]
        if any(now & ~seen[i] for i, now in changes):
            self._fresh(st)  # a candidate came back: the masks only follow what goes
            return
        self.state = st
        if changes:
            self._apply(changes)

    def _fresh(self, st: State) -> None:
        """Every mask read off ``st``."""
        n = self.n
        self.state = st
        seen = self.seen = [0 if p else c for c, p in zip(st.cand, st.placed)]
        open_ = [0] * n
        naked = unplaced = 0
        for i, m in enumerate(seen):
            if m:
                b = 1 << i
                unplaced |= b
                if not m & (m - 1):
                    naked |= b
                while m:
                    low = m & -m
                    m ^= low
                    open_[low.bit_length() - 1] |= b
        self.open, self.naked, self.unplaced = open_, naked, unplaced
        self.box, self.line = [0] * n, [0] * n
        full = 0
        for h, hb in enumerate(self.house_bits):
            kind = self.box if self.boxy[h] else self.line
            for d in range(n):
                y = open_[d] & hb
                if y and not y & (y - 1):
                    kind[d] |= y
            if self.alone is not None:
                x = unplaced & hb
                if x and not x & (x - 1):
                    full |= x
        self.full = full

    def _apply(self, changes: list[tuple[int, int]]) -> None:
        """Cells that lost candidates (each with its candidates now, 0 when placed): out of
        the masks of the digits they lost, and the houses they are in looked at again for
        those digits."""
        seen, open_, box, line = self.seen, self.open, self.box, self.line
        house_bits, boxy, houses_of = self.house_bits, self.boxy, self.g.houses_of
        touched: dict[int, int] = {}  # per house, the digits whose open cells there changed
        get = touched.get
        gone_cells = 0
        for j, now in changes:
            gone = seen[j] & ~now
            seen[j] = now
            b = 1 << j
            if not now:
                gone_cells |= b
            elif not now & (now - 1):
                self.naked |= b
            digits = gone
            while gone:
                low = gone & -gone
                gone ^= low
                d = low.bit_length() - 1
                open_[d] &= ~b
                box[d] &= ~b
                line[d] &= ~b
            for h in houses_of[j]:
                touched[h] = get(h, 0) | digits
        for h, digits in touched.items():
            hb = house_bits[h]
            kind = box if boxy[h] else line
            while digits:
                low = digits & -digits
                digits ^= low
                d = low.bit_length() - 1
                y = open_[d] & hb
                if y and not y & (y - 1):
                    kind[d] |= y
        if gone_cells:
            self.naked &= ~gone_cells
            self.unplaced &= ~gone_cells
            if self.alone is not None:
                unplaced = self.unplaced
                full = self.full & ~gone_cells
                for h in touched:
                    x = unplaced & house_bits[h]
                    if x and not x & (x - 1):
                        full |= x
                self.full = full


_STEPS: dict[tuple[str, float, type, int], RatedStep] = {}


def _step(technique: str, rating: float, options: int) -> RatedStep:
    """``RatedStep(technique, rating, options)``, one shared object per value (it is frozen):
    a frozen dataclass's ``__init__`` cost more than the rest of a small puzzle's single step."""
    key = (technique, rating, type(rating), options)  # (2 == 2.0, but they print apart)
    got = _STEPS.get(key)
    if got is None:
        if len(_STEPS) > 4096:
            _STEPS.clear()
        got = _STEPS[key] = RatedStep(technique, rating, options)
    return got


def _is_single(name: str) -> bool:
    return any(name.startswith(s) for s in SINGLE_NAMES)


def _trial_rating(st: State, base: float) -> float:
    """The value of a trial now: ``base`` plus a little per doubling of the steps the
    refutations of the candidates of cells with few candidates take (median)."""
    n = st.board.n
    lengths = []
    for i in range(n * n):
        if st.placed[i] or st.cand[i].bit_count() > TRIAL_MAX_CANDIDATES:
            continue
        for d in digits_of(st.cand[i]):
            sub = st.copy()
            run = Run()
            try:
                sub.elim(i, ~bit(d))
                solve(sub, TRIAL_DEPTH, run)
            except Contradiction:
                lengths.append(sum(run.counts.values()) + 1)
    if not lengths:
        return base
    return base + min(TRIAL_SPAN, TRIAL_STEP * math.log2(statistics.median(lengths)))


def _direct_hidden(geo: Geometry, st: State, table: list[list[int]], below: float,
                   best: tuple[int, int, float, str] | None, plain: bool = False
                   ) -> tuple[int, int, float, str] | None:
    """The hidden pair or triple half of ``_direct``: ``best`` or an easier step of that kind
    (``table``: the state's ``house_positions``). ``hidden_subsets``, written out: most houses
    have too few digits with so few places, and that is checked first, by counting each
    house's counts of places per digit (taken once for both sizes); ``plain``: by listing
    those digits in every house, the version this must equal (``_direct_plain`` asks it,
    tests/test_rated_direct.py). The lists were a sixth of a Killer's rated run."""
    placed = st.placed
    counts_of: list[list[int] | None] = [None] * len(geo.houses)
    places = int.bit_count
    for size, value in ((2, DIRECT_HIDDEN_PAIR), (3, DIRECT_HIDDEN_TRIPLE)):
        if value >= below or (best is not None and value >= best[2]):
            continue
        name = "hidden_pair" if size == 2 else "hidden_triple"
        for h, cells in enumerate(geo.houses):
            where = table[h]
            if plain:
                small = [d for d, p in enumerate(where) if p and p.bit_count() <= size]
                if len(small) < size or sum(1 for i in cells if not placed[i]) <= size:
                    continue
            else:
                counts = counts_of[h]
                if counts is None:
                    counts = counts_of[h] = list(map(places, where))
                if counts.count(1) + counts.count(2) + (counts.count(3) if size == 3 else 0) < size or \
                        sum(1 for i in cells if not placed[i]) <= size:
                    continue
                small = [d for d, c in enumerate(counts) if 0 < c <= size]
            best = _confined(where, small, size, value, name, best, cells)
    return best


def _confined(where: Sequence[int], small: Sequence[int], size: int, value: float, name: str,
              best: tuple[int, int, float, str] | None, cells: Sequence[int] | None = None
              ) -> tuple[int, int, float, str] | None:
    """``best`` or an easier step (then a lower cell) of one house: ``size`` of its digits
    ``small`` confined to ``size`` places, where another digit then has one place left;
    ``where``: per digit its places, positions into ``cells`` (or, without ``cells``, grid bits)."""
    for ds in combinations(small, size):
        u = 0
        for d in ds:
            u |= where[d]
        if u.bit_count() != size:
            continue
        for v, w in enumerate(where):
            if v in ds or w.bit_count() < 2:
                continue
            rest = w & ~u
            if rest and not rest & (rest - 1):
                at = rest.bit_length() - 1
                i = cells[at] if cells is not None else at
                if best is None or (value, i) < (best[2], best[0]):
                    best = (i, v + 1, value, name)
    return best


def _direct_plain(geo: Geometry, st: State, below: float) -> tuple[int, int, float, str] | None:
    """SE's easiest "direct" step rated below ``below``, as (cell, digit, value, technique): a
    pointing or claiming, or a hidden pair or triple, whose eliminations at once leave a hidden
    single (SE: a box's digit confined to a line leaves one place in another box 1.7, a line's
    digit confined to a box one place in another line of the same kind 1.9; a hidden pair or
    triple leaves another digit one place in its house 2.0, 2.5). SE then places that single
    and keeps none of the eliminations, and so does the rated run.

    The plain version ``_direct`` must equal (tests/test_rated_direct.py)."""
    n = geo.n
    table = house_positions(geo, st)
    best: tuple[int, int, float, str] | None = None

    def kind(h: int) -> int:
        return 2 if h >= 2 * n else h // n  # rows 0, columns 1, boxes and other regions 2

    if DIRECT_POINTING < below:
        index = {h: {i: k for k, i in enumerate(cells)} for h, cells in enumerate(geo.houses)}
        for a, b, both, only_a, only_b in geo.overlaps:
            for first, second, rest in ((a, b, only_b), (b, a, only_a)):
                value = DIRECT_POINTING if kind(first) == 2 else DIRECT_CLAIMING
                if value >= below or (best is not None and value >= best[2]):
                    continue
                inside = sum(1 << index[first][i] for i in both)
                for d in range(n):
                    pos = table[first][d]
                    if pos.bit_count() < 2 or pos & ~inside:
                        continue
                    m = 1 << d
                    gone = {i for i in rest if not st.placed[i] and st.cand[i] & m}
                    for h in sorted({h for i in gone for h in geo.houses_of[i]}):
                        if h == first or h == second or kind(h) != kind(first):
                            continue
                        left = [i for i in geo.houses[h] if not st.placed[i] and st.cand[i] & m]
                        after = [i for i in left if i not in gone]
                        if len(left) > 1 and len(after) == 1:
                            got = (after[0], d + 1, value, "locked_candidates")
                            if best is None or (got[2], got[0]) < (best[2], best[0]):
                                best = got
    return _direct_hidden(geo, st, table, below, best, plain=True)


_DIRECT: dict[int, tuple[tuple, tuple, tuple, tuple, tuple]] = {}


def _direct_tables(geo: Geometry) -> tuple[tuple, tuple]:
    """What ``_direct`` reads of a geometry, worked out once: per overlap and direction (the house a digit is confined in, the
    house it strikes from), in ``_direct_plain``'s order, the step's value, the two houses, the
    positions of the overlap in the first and of the struck cells in the second, and the houses
    of the first one's kind that the struck cells are in (ascending), each with (bit in the
    second house, bit in it) of those cells; and per house, each set of two or more of its
    positions that lies inside one of its overlaps, with the directions whose overlap holds it
    (a digit there is confined to that overlap). Kept by the identity of the geometry's
    overlaps and checked against its houses too: Killer's cage geometries (``cage_geometry``:
    new peers, the same houses) share one table, where each puzzle's rated run worked it out
    again (2-3 ms a 9x9 Killer)."""
    got = _DIRECT.get(id(geo.overlaps))
    if got is None or got[0] is not geo.overlaps or got[1] is not geo.houses or got[2] is not geo.houses_of:
        if len(_DIRECT) > 64:
            _DIRECT.clear()
        n = geo.n
        index = [{i: k for k, i in enumerate(cells)} for cells in geo.houses]

        def kind(h: int) -> int:
            return 2 if h >= 2 * n else h // n

        pointing = []
        by_first: dict[int, dict[int, tuple[int, ...]]] = {}
        for a, b, both, only_a, only_b in geo.overlaps:
            for first, second, rest in ((a, b, only_b), (b, a, only_a)):
                others = sorted({h for i in rest for h in geo.houses_of[i]
                                 if h != first and h != second and kind(h) == kind(first)})
                inside = sum(1 << index[first][i] for i in both)
                confined = by_first.setdefault(first, {})
                pos = inside
                while pos:  # every set of two or more of its positions (the order is immaterial)
                    if pos & (pos - 1):
                        confined[pos] = confined.get(pos, ()) + (len(pointing),)
                    pos = (pos - 1) & inside
                pointing.append((DIRECT_POINTING if kind(first) == 2 else DIRECT_CLAIMING, first, second,
                                 inside, sum(1 << index[second][i] for i in rest),
                                 tuple((h, tuple((1 << index[second][i], 1 << index[h][i])
                                                 for i in rest if h in geo.houses_of[i])) for h in others)))
        got = _DIRECT[id(geo.overlaps)] = (geo.overlaps, geo.houses, geo.houses_of, tuple(pointing),
                                           tuple(sorted(by_first.items())))
    return got[3], got[4]


def _direct(geo: Geometry, st: State, below: float) -> tuple[int, int, float, str] | None:
    """``_direct_plain``, its reference, which it must equal (tests/test_rated_direct.py), read
    off the positions table: a digit of a house confined to one of its overlaps is one lookup of
    its row's entry (per geometry, the sets of positions inside an overlap), and the (direction,
    digit) pairs found are tried in the plain version's order, their struck cells and the houses
    they leave a single in as bits of the table's rows. Killer's rated run calls this at most of its steps (a cage
    step leaves no hidden single open), where the plain version took half a puzzle's time."""
    table = house_positions(geo, st)
    houses = geo.houses
    best: tuple[int, int, float, str] | None = None
    if DIRECT_POINTING < below:
        pointing, by_first = _direct_tables(geo)
        pairs: list[tuple[int, int]] = []
        for first, confined in by_first:
            for d, ks in enumerate(map(confined.get, table[first])):
                if ks is not None:
                    pairs += [(k, d) for k in ks]
        pairs.sort()
        was, skip = -1, False
        for k, d in pairs:
            value, first, second, inside, struck, others = pointing[k]
            if k != was:  # as the plain version, decided once per direction, before its digits
                was, skip = k, value >= below or (best is not None and value >= best[2])
            if skip:
                continue
            gone = table[second][d] & struck
            if not gone:
                continue
            for h, bits in others:
                gone_h = 0
                for in_second, in_h in bits:
                    if gone & in_second:
                        gone_h |= in_h
                if not gone_h:
                    continue
                after = table[h][d] & ~gone_h
                if after and not after & (after - 1):  # (then the house had two or more places)
                    got_step = (houses[h][after.bit_length() - 1], d + 1, value, "locked_candidates")
                    if best is None or (got_step[2], got_step[0]) < (best[2], best[0]):
                        best = got_step
    return _direct_hidden(geo, st, table, below, best)


def direct_on_masks(pos: Sequence[int], house_bits: Sequence[int], below: float, pairs: int = -1,
                    triples: int = -1) -> tuple[int, int, float, str] | None:
    """``_direct`` on a geometry with no overlaps of two cells or more (rows and columns, and
    their signs, clues or cages: no pointing or claiming there), read off ``pos``, per digit
    the open cells holding it (grid bits, as the singles scans keep them), instead of the
    positions table: its hidden pair or triple, some of a house's digits confined to as many
    of its cells, whose other digits then leave a digit one place in the house; the easiest,
    then the lowest cell. ``pairs``, ``triples``: the houses to look in (a bit each; a caller
    may know the others hold none). ``_direct_plain`` is the version it must equal
    (tests/test_rated_direct.py). Building the positions table for it was a sixth of a
    Futoshiki or Skyscrapers rated run."""
    opened = 0
    for x in pos:
        opened |= x
    best: tuple[int, int, float, str] | None = None
    wheres: list[list[int] | None] = [None] * len(house_bits)  # per house, its digits' open cells there
    for size, value, name, lines in ((2, DIRECT_HIDDEN_PAIR, "hidden_pair", pairs),
                                     (3, DIRECT_HIDDEN_TRIPLE, "hidden_triple", triples)):
        if value >= below or (best is not None and value >= best[2]):
            continue
        for h, hb in enumerate(house_bits):
            if not lines >> h & 1 or (opened & hb).bit_count() <= size:
                continue
            where = wheres[h]
            if where is None:
                where = wheres[h] = [x & hb for x in pos]
            best = _confined(where, [d for d, w in enumerate(where) if w and w.bit_count() <= size], size, value,
                             name, best)
    return best


def _easiest_advanced(geo: Geometry, st: State, advanced: Sequence[tuple[Tech, float, bool]], below: float,
                      probes: bool = True) -> tuple[State, float, str] | None:
    """(the state after, its value, technique) of the easiest advanced step rated below
    ``below``; ``advanced``: (row, its least value, whether it is the trial) in the run's order
    (``_plan``). A technique's ``rating`` is the least one use can be worth; a use may be worth
    more (a chain by its length, ``Run.value``), so techniques later in the order are tried
    while their least value is below the best found so far, as SE keeps the easiest hint.
    ``probes``: a technique whose probe (``Tech.probe``) says it finds nothing is not tried on
    a copy (the same answer: most tries at most steps find nothing); False is the plain version."""
    best: tuple[State, float, str] | None = None
    warm = False
    for t, least, trial in advanced:
        if least >= below or (best is not None and (least >= best[1] or trial)):
            break
        if probes and t.probe is not None and not t.probe(geo, st):
            continue
        if not warm and t.fn in _HOUSE_FNS:
            # The copies share the state's positions table (``house_positions``' memo): brought
            # up to date here once, not worked out again on each copy. (``_direct`` did it at
            # every step once; ``direct_on_masks`` needs none, so only a house technique asks.)
            house_positions(geo, st)
            warm = True
        trying = st.copy()
        run = Run()
        run.best = True
        if t.fn(geo, trying, run):  # (cells it leaves with one candidate fall to singles next)
            got = (_trial_rating(st, least) if trial else
                   run.value if run.value is not None else least)
            if best is None or got < best[1]:
                best = (trying, got, t.name)
    return best


@kept_by_identity()
def _plan(ladder: tuple[Tech, ...]) -> tuple[tuple[tuple[Tech, float, bool], ...], tuple[float, float, float],
                                             float | None]:
    """What a rated run reads of its ladder, worked out once per ladder (kept by its identity,
    as ``_bitboards`` keeps a geometry's; sorting a long ladder cost a fifth of a small
    puzzle's run): the advanced rows in the order they are tried, each with its least value
    and whether it is the trial; the singles' values (a hidden single in a box, in a line, a
    naked single); the full house's value, or None where the singles don't carry SE's."""
    # Easiest first, the trial always last: it has no value of its own (it rates by how long
    # its refutations run), and sorted by its tier's default it came before the chains, so an
    # expert puzzle the chains solve was rated as a trial (7.0-7.4 whatever SE said).
    advanced = sorted((t for t in ladder if not _is_single(t.name)),
                      key=lambda t: (t.name == "trial", technique_rating(t.rating, t.tier)))  # stable
    rated = {t.name: t.rating for t in ladder if t.rating is not None}
    line = rated.get("hidden_single", HIDDEN_SINGLE_LINE)
    values = (min(HIDDEN_SINGLE_BOX, line), line, rated.get("naked_single", NAKED_SINGLE))
    # SE's full house (the last open cell of a house), where the singles carry SE's values
    alone = FULL_HOUSE if line == HIDDEN_SINGLE_LINE else None
    return tuple((t, technique_rating(t.rating, t.tier), t.name == "trial")
                                              for t in advanced), values, alone


def rated_run(geo: Geometry, givens: Sequence[tuple[int, int]], extra: Extra = NO_EXTRA, probes: bool = True,
              fast: bool = True, at_once: bool = True) -> tuple[list[RatedStep], bool]:
    """The steps of the easiest-first solve of ``givens`` (cell index, digit) and whether it
    finished. Deterministic: ties go to the lower cell, then to the ladder's order. ``probes``
    (``_easiest_advanced``): False is the plain version, which this must equal (tests/test_kenken_probes.py);
    with ``fast`` (and ``probes``) a constraint's own step finder (``Extra.rated_steps``) takes the
    steps it can (tests/test_kenken_rated.py), with ``at_once`` all of them in one call where it
    can (its ``whole``; False: one step a call, the version that must equal)."""
    steps: list[RatedStep] = []
    advanced, values, alone = _plan(extra.ladder())
    try:
        st = start(geo, givens, extra)
    except Contradiction:
        return steps, False
    # ``_easiest_advanced`` tries nothing while the easiest single rates at most the first row's least
    cheapest = advanced[0][1] if advanced else math.inf
    taker = extra.rated_steps(geo, advanced, values, alone) if probes and fast else None
    # (a taker finds the singles itself: the run's own scan is made only without one)
    scan = (SmallScan if geo.n <= SMALL_SCAN else DigitScan)(geo, values, alone) if taker is None else None
    # A taker that answers None only where no direct step is open either (``sees_direct``: it
    # looked, as ``RatedCages`` does) is not second-guessed by ``_direct`` on the same state, and
    # the plan's first rows it found acting nowhere then (``idle_rows``) are not probed again.
    recheck = taker is None or not getattr(taker, "sees_direct", False)
    search = advanced[getattr(taker, "idle_rows", 0):]  # (with a taker, searched only where it gave None)
    whole = getattr(taker, "whole", None) if at_once else None
    entries = whole(st) if whole is not None else None
    if entries is not None:  # (a run it could not finish alone: the steps one by one from the start)
        for took in entries:
            if len(took) == 3:
                steps.append(_step(*took))
            else:
                name, value, options, count = took
                steps += [_step(name, value, options - j) for j in range(count)]
        return steps, True
    try:
        while st.unplaced and len(steps) < MAX_STEPS:
            if taker is None:
                single, options = scan(st)
            else:
                took = taker(st)
                if took is not None:
                    if len(took) == 3:
                        steps.append(_step(*took))
                    else:  # the same step ``count`` times, one option fewer each time
                        name, value, options, count = took
                        steps += [_step(name, value, options - j) for j in range(count)]
                    continue
                single, options = None, 0  # (it takes every step where a single is open)
            easiest = single[0] if single is not None else math.inf
            if easiest > values[1] and recheck:  # no hidden single open: a direct step may come first
                # (the scan keeps the digits' open cells up to date where no taker runs)
                direct = (direct_on_masks(scan.open, scan.house_bits, easiest)
                          if taker is None and not geo.overlaps else _direct(geo, st, easiest))
                if direct is not None:
                    i, d, value, name = direct
                    st.elim(i, ~bit(d))
                    st.place(i)
                    if scan is not None:
                        scan.placed(st, i)
                    steps.append(_step(name, value, options))
                    continue
            found = _easiest_advanced(geo, st, search, easiest, probes) if cheapest < easiest else None
            if found is not None:
                st, value, name = found
                steps.append(_step(name, value, options))
                continue
            if single is None:
                return steps, False
            value, i, d = single
            naked = st.cand[i] == bit(d)
            st.elim(i, ~bit(d))
            st.place(i)
            scan.placed(st, i)
            steps.append(_step("naked_single" if value == values[2] and naked else "hidden_single", value,
                                   options))
    except Contradiction:
        return steps, False
    return steps, not st.unplaced


def rated_summary(geo: Geometry, givens: Sequence[tuple[int, int]], extra: Extra, cells: int) -> tuple[float, float]:
    """(``rating_of``, ``minutes_of``) of ``rated_run(geo, givens, extra)``'s steps, ``cells``
    the grid's, which it must equal (tests/test_kenken_rated.py): where the constraint's taker
    makes the whole run in one call, read off its entries (``rating_and_minutes``: no step
    object a step); else of the run step by step (``at_once=False``: the same steps, and no
    second try at once). With no givens the taker starts from the blank grid itself (None),
    which the run's start state is: nothing placed, every candidate open."""
    advanced, values, alone = _plan(extra.ladder())
    taker = extra.rated_steps(geo, advanced, values, alone)
    whole = getattr(taker, "whole", None)
    if whole is not None:
        try:
            entries = whole(start(geo, givens, extra) if givens or geo.n < 2 else None)
        except Contradiction:
            entries = None
        if entries is not None:
            return rating_and_minutes(entries, cells)
    steps, _ = rated_run(geo, givens, extra, at_once=False)
    return rating_of(steps), minutes_of(steps, cells)


class _BoxMajor(NamedTuple):
    """A geometry of rows, columns and boxes only, its cells renumbered box by box, each box's
    ``n`` cells followed by a guard bit (``_box_hidden_singles``)."""

    at: tuple[int, ...]     # per cell: its bit position
    cell: dict[int, int]    # per position: the cell
    peers: tuple[int, ...]  # per cell: its peers, in positions
    lines: tuple[int, ...]  # per row and column: its cells, in positions
    guards: int             # the guard bit of every box
    lows: int               # the first bit of every box
    cells: int              # every cell


@kept_by_identity()
def _box_major(geo: Geometry) -> _BoxMajor | None:
    """``geo`` renumbered box by box, kept per geometry; None unless its houses are rows,
    columns and boxes that split the grid (Sudoku X's diagonals, for one, are not)."""
    n = geo.n
    boxes = geo.houses[2 * n:]
    if len(boxes) != n or sorted(i for cells in boxes for i in cells) != list(range(n * n)):
        return None
    width = n + 1
    at = [0] * (n * n)
    for b, cells in enumerate(boxes):
        for k, i in enumerate(cells):
            at[i] = b * width + k

    def packed(cells) -> int:
        m = 0
        for i in cells:
            m |= 1 << at[i]
        return m
    guards = sum(1 << (b * width + n) for b in range(n))
    lows = sum(1 << (b * width) for b in range(n))
    return _BoxMajor(tuple(at), {at[i]: i for i in range(n * n)}, tuple(packed(geo.peers[i]) for i in range(n * n)),
                     tuple(packed(cells) for cells in geo.houses[:2 * n]), guards, lows, packed(range(n * n)))


def _box_hidden_singles(bm: _BoxMajor, n: int, givens: Sequence[tuple[int, int]], until: int) -> bool:
    """``hidden_singles_solve(..., boxes_only=True)`` on a ``_box_major`` geometry, which it
    must equal on every puzzle a solution's givens make (tests/test_ramp.py; placed in another
    order, these singles reach the same end). Per digit, the boxes where it has exactly one
    open place are found in a few operations on one int: each box's bits minus one (the guard
    keeps the borrow inside the box) leave ``x & (x - 1)``, zero where a box holds one bit."""
    at, peers, guards, lows = bm.at, bm.peers, bm.guards, bm.lows
    every = bm.cells
    free = every
    pos = [every] * n
    for i, d in givens:
        free &= ~(1 << at[i])
        pos[d - 1] &= ~peers[i]
    stop = 1 << at[until] if until >= 0 else 0
    if stop and not free & stop:
        return True
    fill = (1 << n) - 1
    shift = n
    lines = bm.lines
    cell = bm.cell
    digits = range(n)
    while free:
        found = False
        for d in digits:
            x = pos[d] & free
            if not x:
                continue
            minus = (x | guards) - lows
            some = minus & guards                       # boxes where d has a place
            t = x & minus                               # per box, x & (x - 1)
            one = some & ~((t | guards) - lows)         # ... and that is zero
            if not one:
                continue
            got = x & (one >> shift) * fill
            free &= ~got
            if free & stop != stop:
                return True
            m = pos[d]
            while got:
                low = got & -got
                got ^= low
                m &= ~peers[cell[low.bit_length() - 1]]
            pos[d] = m
            found = True
        for line in lines:  # the last open cell of a row or column (a box's is a hidden single)
            x = free & line
            if x and not x & (x - 1):
                b = x.bit_length() - 1
                for d in digits:
                    if pos[d] & x:
                        free &= ~x
                        if free & stop != stop:
                            return True
                        pos[d] &= ~peers[cell[b]]
                        found = True
                        break
        if not found:
            return False
    return True


def hidden_singles_solve(geo: Geometry, givens: Sequence[tuple[int, int]], boxes_only: bool,
                         until: int = -1, plain: bool = False) -> bool:
    """Whether hidden singles alone solve ``givens``: in boxes only (and the last open cell of
    any house, SE's full house) with ``boxes_only``, else in every house. The easiest-first run
    places singles in any order to the same end, so this is exactly whether it rates at most
    1.2 (``boxes_only``) or 1.5, at a fraction of its cost: bitboards, one mask of open cells
    per digit (``rated_run`` is the plain version; tests/test_ramp.py checks them together).
    With ``until`` (a cell), True as soon as that cell is placed: where ``givens`` with that
    cell's digit are solved so, that is the same answer (these singles never do less with more
    placed), sooner. With ``boxes_only`` on rows, columns and boxes, the boxes are scanned a
    digit at a time on one int (``_box_hidden_singles``, most of a ``beginner`` carve's time
    here); in every house, on geometries whose houses split into layouts, all digits and houses
    at once (``packed.singles_come_back``, for givens that agree with a solution, as the carves'
    do); ``plain``: house by house, the version both must equal."""
    if boxes_only and not plain:
        packed = _box_major(geo)
        if packed is not None:
            return _box_hidden_singles(packed, geo.n, givens, until)
    elif not plain and _packed(geo) is not None:
        return singles_come_back(geo, givens, until, naked=False)
    n = geo.n
    house_bits, peer_bits = _bitboards(geo)
    every = (1 << (n * n)) - 1
    placed = 0
    pos = [every] * n  # per digit, the cells it may go in; placed cells are left in and masked out
    for i, d in givens:
        placed |= 1 << i
        pos[d - 1] &= ~peer_bits[i]
    boxes_from = 2 * n
    digits = range(n)
    stop = 1 << until if until >= 0 else 0
    if placed & stop:
        return True
    while placed != every:
        found = False
        for h, hb in enumerate(house_bits):
            open_cells = hb & ~placed
            if not open_cells:
                continue
            if boxes_only and h < boxes_from and open_cells & (open_cells - 1):
                continue  # a row or column with more than one open cell: not a full house
            for d in digits:
                x = pos[d] & open_cells
                if x and not x & (x - 1):
                    placed |= x
                    if placed & stop:
                        return True
                    open_cells &= ~x
                    pos[d] &= ~peer_bits[x.bit_length() - 1]
                    found = True
        if not found:
            return False
    return True


def carve_to_rating(geo: Geometry, sol: Sequence[int], rng, low: float, high: float, depth: float,
                    plain: bool = False, floor: float | None = None) -> list[bool] | None:
    """Which cells stay given in a puzzle of the solution ``sol`` that singles solve and that
    rates in ``[low, high)``, or None when this grid's carve never rates there.

    The singles carve (``drop_singles``: SE 1.2, a hidden single in a box open at every step)
    goes on, in the same random order, removing every given that singles still bring back;
    each removal may only make the easiest-first solve harder, so along that sequence the rating
    climbs (1.2, then 1.5 where a row or column's hidden single is needed, 2.0 where SE's direct
    hidden pair is). The carve stops between the first removal that rates ``low`` or more and
    the last that rates below ``high``, ``depth`` (0 to 1) of the way: deeper, fewer givens and
    more minutes. The prefixes are told apart by which singles solve them: up to ``high``, each
    removal by whether those singles place the removed cell, or, where every removal stays below
    it, a few by bisection (where the rating isn't monotone, this grid misses the aim).
    ``plain``: every removal asked of ``closure`` and every prefix up to ``high`` tested in
    turn, the version this must equal (tests/test_ramp.py). Aimed at 2.0, a carve may rate
    1.7 or 1.9 (a direct pointing or claiming, rare): the rated run of the finished puzzle says
    so, and its band is checked there. ``floor`` (below ``low``): where the carve ends below
    ``low`` (singles never needed more), the puzzle it makes aimed at ``[floor, low)`` instead,
    rather than None (about half the grids aimed at 2.0 end so: ``rating.aims``)."""
    n = geo.n
    cells = list(range(n * n))
    rng.shuffle(cells)
    gv = drop_singles(geo, sol, cells)
    base = [i for i in range(n * n) if gv.given[i]]  # the singles carve's givens
    order: list[int] = []  # the removals singles allow after it, in carve order, found as needed
    pending = iter(cells)
    # A removal that leaves an unavoidable set open (``swap_cycles``) has two solutions: no
    # single brings it back, and that test is a few masks where ``closure`` runs the singles to
    # their end (about two failed removals in five). ``plain``: ``closure`` alone, the version
    # this must equal (tests/test_ramp.py).
    unavoidable: list[list[int]] = []

    def opens_unavoidable(i: int) -> bool:  # whether removed given ``i`` leaves a set open
        if not unavoidable:
            unavoidable.extend(swap_cycles(geo, sol))
        given = gv.mask
        return any(not m & given for m in unavoidable[i])

    def singles_place(pairs: list[tuple[int, int]], i: int) -> bool:  # whether singles place ``i``
        # (all singles at once on packed layouts; ``plain``: ``closure``, which it must equal)
        return closure(geo, pairs, Level.EASY, until=i)[0] if plain else singles_come_back(geo, pairs, i)

    def comes_back(i: int) -> bool:  # whether singles bring removed given ``i`` back
        if not plain and opens_unavoidable(i):
            return False
        return singles_place(gv.pairs(), i)

    def extend() -> bool:  # the next removal singles allow, onto ``order``; False at the end
        for i in pending:
            if gv.given[i]:
                gv.remove(i)
                if comes_back(i):
                    order.append(i)
                    return True
                gv.restore(i)
        return False

    def givens(cut: int) -> list[tuple[int, int]]:  # the puzzle with the first ``cut`` removals made
        gone = set(order[:cut])
        return [(i, sol[i]) for i in base if i not in gone]

    memo: dict[tuple[int, float], bool] = {}

    def below(cut: int, value: float) -> bool:
        """Whether the rating at ``cut`` is below ``value``, decided by which singles solve it
        (``hidden_singles_solve``): exact at 1.5 and 1.7; a 1.7 or 1.9 (a direct pointing or
        claiming, rare) counts as 2.0 here."""
        if value <= HIDDEN_SINGLE_BOX:
            return False  # a hidden single in a box is needed somewhere once any given has gone
        if value > NAKED_SINGLE:
            return True  # singles solve it: naked single 2.3 at most
        key = (cut, value <= HIDDEN_SINGLE_LINE)
        if key not in memo:
            memo[key] = hidden_singles_solve(geo, givens(cut), boxes_only=key[1])
        return memo[key]

    def first(ok) -> int:  # the least cut where ``ok`` holds, assuming it holds from there on
        lo, hi = 0, len(order)
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if ok(mid) else (mid + 1, hi)
        return lo

    start: int | None = None
    if high <= NAKED_SINGLE and plain:  # the carve may pass ``high``: go no further than that
        cut = 0
        while True:
            if start is None and not below(cut, low):
                start = cut
            if not below(cut, high):
                stop = cut - 1
                break
            if not extend():
                stop = cut
                break
            cut += 1
    elif high <= NAKED_SINGLE:
        # The same cuts as the plain loop: fewer givens never make these singles solve what
        # they didn't, so while the puzzle so far is below ``high`` a removal keeps it there
        # exactly when they place the removed cell (``until``), and one they don't place but
        # ``closure`` brings back is the first cut at ``high`` or above. Which asks first
        # goes by which answer is likelier: aimed below 1.5 (hidden singles in boxes), most
        # removals asked are ones those singles bring back (271 of 478 in 60 ``beginner``
        # carves), and each such is then known without ``closure`` (it does all they do and
        # more); aimed higher, most fail both (269 of 486 in 10 named-easy puzzles' carves),
        # so ``closure`` asks first, and a failed one costs one singles run, not two. No cut
        # is tested twice; ``low`` by bisection.
        key = high <= HIDDEN_SINGLE_LINE  # (``below``'s memo key for ``high``)
        if not below(0, high):
            stop, reach = -1, 0
        else:
            for i in pending:
                if not gv.given[i]:
                    continue
                gv.remove(i)
                if not opens_unavoidable(i):
                    pairs = gv.pairs()
                    if key and hidden_singles_solve(geo, pairs, key, until=i):
                        order.append(i)
                        memo[(len(order), key)] = True
                        continue
                    if singles_place(pairs, i):
                        order.append(i)
                        if not key and hidden_singles_solve(geo, pairs, key, until=i):
                            memo[(len(order), key)] = True
                            continue
                        memo[(len(order), key)] = False
                        stop, reach = len(order) - 1, len(order)
                        break
                gv.restore(i)
            else:
                stop = reach = len(order)
        if not below(reach, low):
            start = first(lambda cut: not below(cut, low))
    else:  # every removal stays below ``high``: to the end, then find ``low`` by bisection
        while extend():
            pass
        stop = len(order)
        if not below(stop, low):
            start = first(lambda cut: not below(cut, low))
    if start is None and floor is not None and floor < low and below(stop, low):
        # This grid's carve never rates ``low``: the puzzle at ``depth`` of the same carve
        # aimed at ``[floor, low)``, found as that aim finds it (where ``high`` lies above the
        # singles, the carve went to its end, as that aim's would with no cut at ``low``).
        low, high = floor, low
        if not below(stop, low):
            start = first(lambda cut: not below(cut, low))
    if start is None or stop < start:
        return None
    cut = start + round(depth * (stop - start))
    if below(cut, low) or not below(cut, high):
        return None  # the rating isn't monotone along this carve
    kept = set(base) - set(order[:cut])
    return [i in kept for i in range(n * n)]
