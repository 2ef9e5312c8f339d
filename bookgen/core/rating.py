"""A puzzle's rating on the scale solvers know, and its estimated solving time.

Rating
    The value of the hardest step of a solve that always takes the easiest step
    available (Sudoku Explainer's rule: SE 1.2 is a hidden single in a box, 1.5 one in
    a row or column, 2.3 a naked single, 2.6 locked candidates ... ). Each ladder row
    (``Tech``) carries the value of one use of its technique; Sudoku and Sudoku X use
    SE's published values, every other variant values on the same 1-10 footing
    (docs/calibration.md lists them). A technique without a value rates by its tier
    (``TIER_RATING``).

Minutes
    Pelánek's model of a human solver ("Difficulty rating of Sudoku puzzles: an overview
    and evaluation", 2014): a puzzle is hard for two reasons, the difficulty of its
    single steps and how the steps depend on each other. The solver looks for the next
    deduction; when many simple deductions are open at once, one is found quickly; at a
    *bottleneck* (only one open, or none but an advanced one) the whole grid must be
    scanned. So each step costs the time to carry it out, growing with its rating, plus
    the time to find it, inversely proportional to the number of options open at that
    moment (``options``: the simple placements available; 0 for an advanced step, which
    is only found after every simple one has been ruled out). The constants are chosen so a
    practised solver's easy 9x9 takes a few minutes and a diabolical one most of an hour;
    they scale with the number of cells, so a 6x6 is quicker.

Levels as bands
    ``BANDS`` is the one table of the named levels on the rating scale: each level's band
    ``[low, high)``, the tier of the technique ladder its puzzles are carved at, and the
    commercial labels it matches. Bands never overlap.

Pure: no I/O, no randomness; the same steps give the same figures.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
import math
from functools import lru_cache
from typing import Collection, Iterable, Mapping

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_
from bookgen.core.memo import BoundedMemo

DIGITS = 1  # ratings print as SE's do: one decimal
MINUTE_DIGITS = 1  # tenths: fine enough to order a ramp by; printed as whole minutes

# A technique without a rating of its own rates by its tier. The trial (a contradiction
# followed from one assumption) starts at 5.5, the median SE of the puzzles our ladder
# needs one for (docs/calibration.md); the rated run adds to it by the refutation's length.
TIER_RATING: dict[Level, float] = {Level.EASY: 1.5, Level.MEDIUM: 2.6, Level.HARD: 4.0, Level.EXPERT: 5.5}

# Sudoku Explainer's values of the singles: the rated run finds these itself. A full house
# (the last open cell of a row, column or box) is SE's easiest step whatever the house.
FULL_HOUSE = 1.0
HIDDEN_SINGLE_BOX = 1.2
HIDDEN_SINGLE_LINE = 1.5
NAKED_SINGLE = 2.3
# Locked candidates: SE rates pointing (a box's digit confined to one line) below claiming.
POINTING = 2.6
CLAIMING = 2.8
# SE's "direct" forms: a step whose eliminations at once leave a hidden single in a house of
# the kind SE looks at, rated as that placement (SE applies only the placement).
DIRECT_POINTING = 1.7
DIRECT_CLAIMING = 1.9
DIRECT_HIDDEN_PAIR = 2.0
DIRECT_HIDDEN_TRIPLE = 2.5


def chain_extra(nodes: int) -> float:
    """What SE adds to a chain's base value for its length: ``nodes`` is the number of
    candidates along it, ends included; +0.1 each time the length passes 4, 6, 8, 12, 16,
    24, 32 ... (each step half or a third longer than the one before)."""
    added, ceil, odd = 0.0, 4, False
    length = nodes - 2
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return round(added, 1)


# A chain of one digit with k strong links: SE (Sukaku Explainer) finds two as a skyscraper,
# kite or turbot fish (4.0-4.2), three and four as its "strong-linked fishes" (5.4, 5.8), longer
# ones as a forcing X-chain (6.6 plus its length).
X_CHAIN_LINKS = {2: 4.0, 3: 5.4, 4: 5.8}
X_CHAIN_BASE = 6.6
# A chain of k two-candidate cells: three are an XY-wing (4.2); SE finds most of four, five and
# six as its WXYZ-, VWXYZ- and UVWXYZ-wings (5.5, 6.2, 6.6), longer ones as an XY forcing
# chain (7.0 plus its length).
XY_CHAIN_CELLS = {3: 4.2, 4: 5.5, 5: 6.2, 6: 6.6}
XY_CHAIN_BASE = 7.0
XY_CYCLE_BASE = 6.5
# An almost locked set of k cells (k + 1 digits) and a two-candidate cell: SE's fork names them
# by their digits, WXYZ- (k = 3), VWXYZ- (4) and UVWXYZ-wing (5).
ALS_WING = {3: 5.5, 4: 6.2, 5: 6.6}
# A unique loop of k cells (SE's "Unique Loop", the unique rectangle grown to six, eight ... cells),
# types 1 and 2: SE's values with its default (original) rating, six cells 4.6, eight 4.7, ten
# or more 5.0 (the rectangle, four, is 4.5).
UNIQUE_LOOP_CELLS = {4: 4.5, 6: 4.6, 8: 4.7}
UNIQUE_LOOP_LONG = 5.0
# Forcing chains that follow singles from each option: a branch that ends in a contradiction
# is SE's Nishio (7.5 plus length), options that agree its multiple forcing chains (8.0 plus).
NISHIO = 7.5
MULTIPLE_FORCING = 8.0


def x_chain_rating(links: int) -> float:
    """SE's value of a one-digit chain of ``links`` strong links."""
    return X_CHAIN_LINKS.get(links) or round(X_CHAIN_BASE + chain_extra(2 * links), 1)


def xy_chain_rating(cells: int, wing: bool = True, cycle: bool = False) -> float:
    """SE's value of a chain of ``cells`` two-candidate cells; ``wing``: one of them sees all
    the others, the shape of SE's wings (otherwise SE finds it as a chain); ``cycle``: its ends
    see each other, so it closes into a loop, SE's Y-cycle (6.5 plus length)."""
    chain = (XY_CYCLE_BASE if cycle else XY_CHAIN_BASE) + chain_extra(2 * cells)
    return round(min(XY_CHAIN_CELLS.get(cells, chain) if wing else chain, chain), 1)


def unique_loop_rating(cells: int) -> float:
    """SE's value of a unique loop of ``cells`` cells (types 1 and 2)."""
    return UNIQUE_LOOP_CELLS.get(cells, UNIQUE_LOOP_LONG)


def forcing_rating(nodes: int, contradiction: bool) -> float:
    """SE's value of a forcing chain whose branches place or strike ``nodes`` candidates."""
    return round((NISHIO if contradiction else MULTIPLE_FORCING) + chain_extra(nodes), 1)


# Pelánek's model, in seconds on a 9x9 (81 cells): doing a step of rating r costs
# DO_SECONDS * GROWTH ** (r - 1.2); finding it costs SCAN_SECONDS / options, or
# SCAN_SECONDS * ADVANCED_SCANS for a step found only after every simple one failed.
DO_SECONDS = 3.0
GROWTH = 2.5
SCAN_SECONDS = 12.0
ADVANCED_SCANS = 3.0
REFERENCE_CELLS = 81
# Carrying out one step never takes longer than this: the growth was set on steps up to the
# expert band (7.4, 15 minutes); followed on, it gave a forcing chain of 8.8 53 minutes and
# a climbed extreme puzzle 3.5 hours.
MAX_DO_SECONDS = 20 * 60.0


@dataclass(frozen=True)
class RatedStep:
    """One step of the rated run: its technique, that step's rating, and the number of
    simple deductions (singles) open when it was taken (0: none, an advanced step)."""

    technique: str
    rating: float
    options: int


def rating_of(steps: Iterable[RatedStep]) -> float:
    """The hardest step's value, rounded as it prints; 0.0 for a puzzle with no step."""
    return round(max((s.rating for s in steps), default=0.0), DIGITS)


def step_seconds(step: RatedStep) -> float:
    """Time to find and carry out one step (Pelánek: step difficulty plus dependency)."""
    do = min(DO_SECONDS * GROWTH ** max(step.rating - HIDDEN_SINGLE_BOX, 0.0), MAX_DO_SECONDS)
    if step.options:
        find = SCAN_SECONDS / step.options
    else:  # nothing simple open: one scan for a simple rule of the puzzle's own, more for an advanced one
        find = SCAN_SECONDS * (1.0 if step.rating < SIMPLE_BELOW else ADVANCED_SCANS)
    return do + find


def minutes_of(steps: Iterable[RatedStep], cells: int) -> float:
    """Estimated minutes for a practised solver, in tenths (at least 1).

    Each step's seconds are looked up by the step object (a rated run shares one per value:
    ``rated._step``), kept with the step so its id stays its own: working them out again cost
    a small puzzle's run two microseconds a step. The same floats summed in the same order as
    ``minutes_plain``, the version this must equal (tests/test_rating.py)."""
    memo = _SECONDS
    seconds = []
    for s in steps:
        got = memo.get(id(s))
        if got is None or got[0] is not s:
            got = memo.put(id(s), (s, step_seconds(s)))
        seconds.append(got[1])
    return _minutes(sum(seconds), cells)


# ``minutes_of``'s seconds per step object: id -> (the step, its seconds).
_SECONDS = BoundedMemo(4096)


def rating_and_minutes(taken: Iterable[tuple], cells: int) -> tuple[float, float]:
    """``rating_of`` and ``minutes_of`` of the steps ``taken`` stands for, which they must equal
    (tests/test_rating.py): each a step as a tuple (technique, rating, options), or a run of
    steps as (technique, rating, options of the first, how many), each one option fewer than
    the one before (the naked singles that end a solve). For a run taken in one go
    (``rated.rated_summary``): no step object made, the seconds kept by rating and options;
    the same floats summed in the same order."""
    memo = _RUN_SECONDS
    seconds = []
    top = -math.inf  # (the first of the highest, as ``max``)
    for step in taken:
        rating = step[1]
        if rating > top:
            top = rating
        key = step[1:3]  # (rating, options)
        got = memo.get(key)
        if got is None:
            got = memo.put(key, step_seconds(RatedStep("", *key)))
        seconds.append(got)
        if len(step) > 3:  # the rest of the run
            for options in range(key[1] - 1, key[1] - step[3], -1):
                got = memo.get((rating, options))
                if got is None:
                    got = memo.put((rating, options), step_seconds(RatedStep("", rating, options)))
                seconds.append(got)
    return round(0.0 if top == -math.inf else top, DIGITS), _minutes(sum(seconds), cells)


# ``rating_and_minutes``' seconds per step's rating and options (2 and 2.0 take the same seconds).
_RUN_SECONDS = BoundedMemo(4096)


def minutes_plain(steps: Iterable[RatedStep], cells: int) -> float:
    """``minutes_of`` with every step's seconds worked out afresh."""
    return _minutes(sum(step_seconds(s) for s in steps), cells)


def _minutes(seconds: float, cells: int) -> float:
    """``minutes_of`` from the steps' seconds, summed in step order."""
    scale = (cells / REFERENCE_CELLS) ** 0.5  # a smaller grid is scanned faster
    return max(1.0, round(seconds * scale / 60.0, MINUTE_DIGITS))


def technique_rating(rating: float | None, tier: Level) -> float:
    """A ladder row's rating, or its tier's where it has none."""
    return float(rating) if rating is not None else TIER_RATING[tier]


def from_counts(counts: Mapping[str, int], ratings: Mapping[str, float], cells: int) -> tuple[float, float]:
    """(rating, minutes) where only technique counts are known (a ladder run in tier
    order, not the rated run): the hardest technique used, and every use timed with the
    options a typical step has (a few; advanced techniques none).

    Every use of a technique is the same step, so each technique's step is timed once
    and its seconds repeated, summed in the same order as ``minutes_of`` sums the steps:
    the same floats, bit for bit, as ``rating_of`` and ``minutes_of`` over the list of
    steps (``test_from_counts_equals_the_steps_it_stands_for``, tests/test_rating.py).
    Binary grids rate every puzzle they carve this way.
    """
    values: list[float] = []
    seconds: list[float] = []
    for name, used in sorted(counts.items()):
        if used <= 0:
            continue
        value = ratings.get(name, TIER_RATING[Level.EASY])
        values.append(value)
        seconds += [step_seconds(RatedStep(name, value, TYPICAL_OPTIONS if value < SIMPLE_BELOW else 0))] * used
    return round(max(values, default=0.0), DIGITS), _minutes(sum(seconds), cells)


TYPICAL_OPTIONS = 3  # simple deductions open at a typical moment, for runs that didn't count them
SIMPLE_BELOW = 2.5  # ratings below this are singles-like: spotted among others, not after a full scan


# ----- levels as bands of the rating ----------------------------------------------------

@dataclass(frozen=True)
class Band:
    """A named level: its rating band ``[low, high)``, the ladder tier its puzzles are
    carved at, the name printed in the book (an English message id) and the labels of
    commercial books it matches (for the docs)."""

    key: str
    low: float
    high: float
    tier: Level
    matches: str
    label: str = ""

    def holds(self, rating: float) -> bool:
        return self.low <= rating < self.high


TOP = 12.0  # SE's scale ends near 12 (the hardest known puzzles rate 11.9)

# The one table of named levels. The first four keep the names and the 1-4 marker of the
# tiers (configs written before ratings build as before, each puzzle now inside its band).
# ``beginner`` is the easy tier's carve as it was before the bands (a hidden single in a box
# is open at every step: SE 1.2); ``easy`` carves on from there while singles still solve
# (a hidden single in a row or column 1.5, SE's direct hidden pair 2.0; docs/calibration.md).
BANDS: tuple[Band, ...] = (
    Band("beginner", 1.0, 1.5, Level.EASY, "Beginner, Very easy, Kids, Super easy", N_("Beginner")),
    Band("easy", 1.5, 2.5, Level.EASY, "Easy, Gentle, Light", N_("Easy")),
    Band("medium", 2.5, 3.5, Level.MEDIUM, "Medium, Moderate, Intermediate", N_("Medium")),
    Band("hard", 3.5, 5.0, Level.HARD, "Hard, Tough, Advanced", N_("Hard")),
    Band("expert", 5.0, 7.5, Level.EXPERT, "Expert, Diabolical, Fiendish, Very hard", N_("Expert")),
    Band("extreme", 7.5, TOP + 0.01, Level.EXPERT, "Extreme, Unreasonable, Super fiendish", N_("Extreme")),
)
BAND_KEYS: tuple[str, ...] = tuple(b.key for b in BANDS)

# The ratings each tier's ladder reaches on the house ladder: its techniques' values (the trial:
# its base value plus the most its refutation adds, ``bookgen.solve.rated``). The medium tier
# also makes puzzles rated 1.7-2.4 (a direct pointing or hidden pair is their hardest step, a
# third of them): the medium band sends those back, a range below 2.5 may keep them. The expert
# carve's puzzles rate 5.4-8.8 on our scale, a third of them 7.5 or more (a forcing chain is
# their hardest step), but Sudoku Explainer's static chains finish most of those (SE 7.0-7.4):
# 2 in 53 carves are extreme on both scales, too few to fill a band by filtering. So the
# reach stops at the trial's 7.4 where nothing climbs the puzzles (``CLIMBED_REACH``).
TIER_REACH: dict[Level, tuple[float, float]] = {
    Level.EASY: (1.0, 2.4), Level.MEDIUM: (1.7, 3.4), Level.HARD: (3.2, 5.6), Level.EXPERT: (5.4, 7.4),
}

# Where a variant climbs its puzzles' rating (``Variant.climbs``: 9x9 Sudoku, ``bookgen.solve.harden``):
# a puzzle aimed at ``CLIMB_FROM`` or more is carved at the tier, then climbed into its range,
# and the tier reaches what the climb makes (measured on 9x9 Sudoku: 7.5-8.8, the forcing
# chains' values; docs/calibration.md).
CLIMB_FROM: dict[Level, float] = {Level.EXPERT: 7.5}
CLIMBED_REACH: dict[Level, tuple[float, float]] = {**TIER_REACH, Level.EXPERT: (5.4, 8.8)}


# Bands a named level had in earlier releases: ``check`` accepts a book made then (``easy``
# spanned 1.0-2.5 before ``beginner`` took its lower part).
FORMER_BANDS: dict[str, tuple[float, float]] = {"easy": (1.0, 2.5)}


def was_band(key: object, rating: float | None) -> bool:
    """Whether ``key`` named a band that held ``rating`` in an earlier release."""
    old = FORMER_BANDS.get(key) if isinstance(key, str) else None
    return old is not None and rating is not None and old[0] <= rating < old[1]


def marker_of(key: str) -> int:
    """How many marker squares a named level fills: ``easy`` ... ``expert`` 1-4 of four as
    their tiers (configs written before ratings print as before), ``beginner`` none (below
    easy), ``extreme`` five (a fifth square beyond expert's four, so the two read apart)."""
    return max(0, min(BAND_KEYS.index(key), 5))


# ----- a ramp inside one level ------------------------------------------------------------

# The ratings the easy tier's carve stops at often enough to aim a puzzle at (measured on 40
# grids carved on past the singles while singles still solve: 1.2 at first, then 1.5 on 36,
# 2.0 on 14; 1.7, 1.9 and 2.3 never). A level's run of puzzles is spread over the values of
# its band (``aims``), the first puzzle at the lowest.
RAMP_VALUES: dict[Level, tuple[float, ...]] = {Level.EASY: (1.2, 1.5, 2.0)}


@dataclass(frozen=True)
class Aim:
    """Where one puzzle of a level's run is carved to: a rating in ``[low, high)`` (a step of
    ``RAMP_VALUES`` inside the level's band ``[band_low, band_high)``), and how far from the
    first such carve to the last, 0 to 1 (fewer givens, more minutes); or, with ``climb``,
    a range above the tier's carve that the puzzle is climbed into (``climb_aim``)."""

    low: float
    high: float
    depth: float
    band_low: float
    band_high: float
    climb: bool = False  # carved at its tier, then climbed to ``[low, high)`` (``CLIMB_FROM``)
    floor: float | None = None  # where its grid's carve never rates ``low``: ``[floor, low)`` instead

    def widened(self) -> "Aim":
        """The same puzzle aimed at its whole band (when its step was missed too often)."""
        return replace(self, low=self.band_low, high=self.band_high, floor=None)


@lru_cache(maxsize=256)
def aims(low: float, high: float, tier: Level, count: int) -> tuple[Aim | None, ...]:
    """The aim of each of ``count`` puzzles of one level's run (band ``[low, high)``, carved
    at ``tier``), easiest first, deeper and deeper (fewer givens, more minutes). Where the
    band holds one of the tier's ramp values, every puzzle aims at it. Where it holds more,
    the first puzzle aims at the lowest and the last at the highest, each kept only there;
    every other aims at the highest value and, where its grid's carve never gets there,
    takes the lowest instead (``Aim.floor``) rather than another grid: each grid's carve
    makes a puzzle, and the run spreads over the values as the grids do (easy: about half
    of the grids reach 2.0). None where the tier has no ramp values (its carve is minimal
    already: the rating is what it is). A band above the tier's carve (``CLIMB_FROM``:
    extreme) aims every puzzle at the whole band, to be climbed there.
    Kept per arguments (a pure function of them, its aims frozen): a caller that wants one
    puzzle's aim (a job, the reference bench's named rows) asks for the whole run's tuple."""
    climb = climb_aim(low, high, tier)
    if climb is not None:
        return (climb,) * max(count, 0)
    values = [v for v in RAMP_VALUES.get(tier, ()) if low <= v < high]
    if not values or count < 1:
        return (None,) * max(count, 0)
    depths = [round(i / (count - 1), 3) if count > 1 else 0.0 for i in range(count)]
    bottom = Aim(values[0], (values[1:] + [high])[0], 0.0, low, high)
    if len(values) == 1 or count == 1:
        return tuple(replace(bottom, depth=d) for d in depths)
    top = Aim(values[-1], high, 1.0, low, high)
    return (bottom, *(replace(top, depth=d, floor=values[0]) for d in depths[1:-1]), top)


def climb_aim(low: float, high: float, tier: Level) -> Aim | None:
    """The aim of a puzzle rated in ``[low, high)`` where that lies above what ``tier``'s carve
    gives often enough (``CLIMB_FROM``): carved at the tier, then climbed there (only a
    variant that ``climbs`` is asked for it). None elsewhere: the carve's puzzles are
    filtered by their rating, as before."""
    start = CLIMB_FROM.get(tier)
    return Aim(low, high, 0.0, low, high, climb=True) if start is not None and low >= start else None


def band(key: str) -> Band:
    """The band of a level name; ``ValueError`` names the valid ones."""
    for b in BANDS:
        if b.key == key.strip().lower():
            return b
    raise ValueError(f"unknown level {key!r}; expected one of {', '.join(BAND_KEYS)}")


def band_of(rating: float) -> Band:
    """The named level whose band holds ``rating`` (the top one above the scale)."""
    for b in BANDS:
        if b.holds(rating):
            return b
    return BANDS[0] if rating < BANDS[0].low else BANDS[-1]


def level_key(level: Level, rating: float | None, banded: bool) -> str:
    """The level a graded puzzle is known by (JSON, ``check``, ``solve``, the page): the band
    its rating falls in where the variant's levels are bands (``banded``); the ladder tier's
    name otherwise, or where it has no rating."""
    return band_of(rating).key if rating is not None and banded else level.key


def tier_for(low: float, high: float) -> Level:
    """The ladder tier to carve at for puzzles rated in ``[low, high)``: the one whose reach
    overlaps the range most (or lies nearest it) (the rating is the hardest step, so a puzzle carved at a tier
    rates inside that tier's reach)."""
    def overlap(tier: Level) -> float:
        lo, hi = TIER_REACH[tier]
        return min(hi, high) - max(lo, low)  # below zero: the gap between them
    return max(TIER_REACH, key=lambda tier: (overlap(tier), -int(tier)))


def tiers_for(low: float, high: float, points: Mapping[Level, Collection[float]] | None = None) -> tuple[Level, ...]:
    """Every ladder tier whose reach covers more than ``MEETS`` of ``[low, high)``, the one that covers most first
    (then the lower): a range across tiers is carved at each of them in turn, so its puzzles
    spread over it. Where none meets it, the nearest (``tier_for``). ``points``: the few
    ratings each tier can give (a variant rated from its technique counts,
    ``Variant.rating_points``): the tiers with one of them in the range, the lower first."""
    if points is not None:
        inside = tuple(t for t in sorted(points) if any(low <= v < high for v in points[t]))
        if inside:
            return inside
    def overlap(tier: Level) -> float:
        lo, hi = TIER_REACH[tier]
        return min(hi, high) - max(lo, low)
    meets = [t for t in TIER_REACH if overlap(t) > MEETS]
    return tuple(sorted(meets, key=lambda t: (-overlap(t), int(t)))) or (tier_for(low, high),)


MEETS = 0.3  # a tier whose reach overlaps a range by this little (an X-wing-only hard puzzle) isn't carved for it


def reachable(low: float, high: float, accepts, climbs: bool = False,
              points: Mapping[Level, Collection[float]] | None = None) -> bool:
    """Whether some tier that ``accepts(tier)`` (the variant makes it at this size) reaches
    a rating in ``[low, high)``; ``climbs``: the variant climbs its puzzles there
    (``CLIMBED_REACH``); ``points``: the few ratings each tier can give, where the variant
    has them (``Variant.rating_points``)."""
    if points is not None:
        return any(accepts(tier) and any(low <= v < high for v in values) for tier, values in points.items())
    reach = CLIMBED_REACH if climbs else TIER_REACH
    return any(lo < high and hi >= low and accepts(tier) for tier, (lo, hi) in reach.items())
