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
import statistics
from typing import Sequence

from bookgen.core.rating import (DIRECT, HIDDEN_SINGLE_BOX, HIDDEN_SINGLE_LINE, NAKED_SINGLE, RatedStep,
                                 technique_rating)
from bookgen.solve.houses import (NO_EXTRA, TRIAL_DEPTH, TRIAL_MAX_CANDIDATES, Contradiction, Extra, Geometry,
                                  Run, State, Tech, solve, start)
from bookgen.solve.latin import bit, digits_of

SINGLE_NAMES = ("naked_single", "hidden_single")  # rows the run replaces with its own singles (and their splits)
TRIAL_STEP = 0.5  # the trial's rating grows by this per doubling of its refutation's length
TRIAL_SPAN = 1.9  # ... by at most this much: one trial stays below extreme (TIER_REACH in bookgen.core.rating)
MAX_STEPS = 4096   # a bound far above any real solve (each step places or strikes something)


def _singles(g: Geometry, st: State, values: tuple[float, float, float]
             ) -> tuple[list[tuple[int, int, float]], int]:
    """Every single open now as (cell, digit, rating) with the easiest first, and how many
    distinct cells they place; ``values``: a hidden single in a box (or region, diagonal),
    one in a row or column, a naked single."""
    box_value, line_value, naked_value = values
    cand, placed = st.cand, st.placed
    found: dict[int, tuple[int, int, float]] = {}
    n = g.n
    boxes_from = 2 * n
    for h, cells in enumerate(g.houses):
        value = box_value if h >= boxes_from else line_value
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


def _direct(geo: Geometry, st: State, rows: list[tuple[float, Tech]], below: float,
            values: tuple[float, float, float]) -> tuple[State, float, str] | None:
    """(the state after, its value, technique) of the easiest direct step open, rated below
    ``below``: a use of one of ``rows`` whose eliminations at once leave a hidden single."""
    for value, t in rows:
        if value >= below:
            break
        trying = st.copy()
        if t.fn(geo, trying, Run()):
            after, _ = _singles(geo, trying, values)
            if after and after[0][2] <= values[1]:
                return trying, value, t.name
    return None


def rated_run(geo: Geometry, givens: Sequence[tuple[int, int]], extra: Extra = NO_EXTRA
              ) -> tuple[list[RatedStep], bool]:
    """The steps of the easiest-first solve of ``givens`` (cell index, digit) and whether it
    finished. Deterministic: ties go to the lower cell, then to the ladder's order."""
    steps: list[RatedStep] = []
    try:
        st = start(geo, givens, extra)
    except Contradiction:
        return steps, False
    ladder: tuple[Tech, ...] = extra.ladder()
    # Easiest first, the trial always last: it has no value of its own (it rates by how long
    # its refutations run), and sorted by its tier's default it came before the chains, so an
    # expert puzzle the chains solve was rated as a trial (7.0-7.4 whatever SE said).
    advanced = sorted((t for t in ladder if not _is_single(t.name)),
                      key=lambda t: (t.name == "trial", technique_rating(t.rating, t.tier)))  # stable
    rated = {t.name: t.rating for t in ladder if t.rating is not None}
    direct_rows = sorted(((DIRECT[t.name], t) for t in ladder if t.name in DIRECT), key=lambda vt: vt[0])
    line = rated.get("hidden_single", HIDDEN_SINGLE_LINE)
    values = (min(HIDDEN_SINGLE_BOX, line), line, rated.get("naked_single", NAKED_SINGLE))
    try:
        while st.unplaced and len(steps) < MAX_STEPS:
            singles, options = _singles(geo, st, values)
            easiest = singles[0][2] if singles else math.inf
            if easiest > values[1]:  # no hidden single open: a direct step may come first
                direct = _direct(geo, st, direct_rows, easiest, values)
                if direct is not None:
                    st, value, name = direct
                    steps.append(RatedStep(name, value, options))
                    continue
            took = False
            for t in advanced:
                value = technique_rating(t.rating, t.tier)
                if value >= easiest:
                    break
                if t.name == "trial":
                    value = _trial_rating(st, value)
                if t.fn(geo, st, Run()):  # (cells it leaves with one candidate fall to singles next)
                    steps.append(RatedStep(t.name, value, options))
                    took = True
                    break
            if took:
                continue
            if not singles:
                return steps, False
            i, d, value = singles[0]
            naked = st.cand[i] == bit(d)
            st.elim(i, ~bit(d))
            st.place(i)
            steps.append(RatedStep("naked_single" if value == values[2] and naked else "hidden_single", value,
                                   options))
    except Contradiction:
        return steps, False
    return steps, not st.unplaced
