"""Climbing a puzzle's rating: from a carved puzzle to one rated higher, same solution grid.

The expert carve (``bookgen.solve.houses.carve``) stops where the hard tier and a few trials
still bring every given back; the rated run (``bookgen.solve.rated``) then finds how hard the
puzzle is. A third of 9x9 expert carves rate 7.5 or more on our scale (a forcing chain is
their hardest step), but Sudoku Explainer rates most of those 7.0-7.4: its static chains
(alternating inference chains, continuous loops) finish them, and our ladder has only their
X- and XY-chain forms. Counting only the puzzles that neither finishes, 2 of 53 expert carves
are extreme. ``harden`` takes a puzzle below the aim and moves its givens, keeping the grid:

- a move takes one given away and gives another open cell of the solution instead, one
  that another solution of the puzzle without it fills differently (a random swap keeps the
  puzzle unique about 1 time in 30; most of these do), then drops every given the others
  make redundant (the puzzle stays minimal);
- the climb goes by ``value_of``: the rated run's rating, a puzzle that SE's static chains
  finish (``t_static_chains``) counting as 7.4 however ours rates it; a move is kept when the
  puzzle stays unique (the SAT rival, ``houses.rival_for``), the rated run still finishes
  (deduction, the trial at most last and never nested), and the value does not fall, nor
  reach ``high``; a move that keeps the value ("sideways") is kept ``SIDEWAYS`` times at
  most, so the search can cross a plateau without wandering on it;
- it ends when the value lies in ``[low, high)``, or, None, after ``EVALS`` moves: the caller
  carves a fresh grid.

Every choice comes from the caller's ``random.Random``, and the SAT solver is asked for
verdicts only (the solutions it finds depend on what it was asked before): the same grid and
generator state give the same puzzle. Measured on 9x9 Sudoku in docs/calibration.md
(bench/bench_extreme.py, bench/calibrate.py --levels extreme)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from bookgen.core.bits import scan_forward
from bookgen.core.difficulty import Level
from bookgen.core.rating import NISHIO, rating_of
from bookgen.solve.houses import LADDER, Extra, Geometry, Run, State, Tech, closure, cut, rival_for
from bookgen.solve.rated import rated_run

BELOW_NISHIO = round(NISHIO - 0.1, 1)  # what a puzzle SE's static chains finish counts as
EVALS = 12     # moves (rated runs) one climb may judge before the caller starts afresh
SIDEWAYS = 6   # moves that keep the rating, at most, in one climb


def t_static_chains(g: Geometry, st: State, run: Run) -> int:
    """Sudoku Explainer's static forcing chains (its "Forcing Chain" and "Bidirectional
    Cycle", SE 6.5-7.4 by length): from a candidate assumed true, and from it assumed false,
    follow what follows through the links of the candidate graph alone (a true candidate
    strikes its cell's others and its digit in its peers; a struck candidate makes the other
    of a two-candidate cell, or of a digit's two places in a house, true), with no step of the
    grid's own in between. A candidate whose assumption strikes it (or makes it true when
    assumed false), or leads to a candidate both true and false, is settled the other way;
    what both assumptions make true or strike is so. X- and XY-chains and the continuous loops
    are such chains; forcing chains through singles are not (SE 7.5 and up)."""
    n = g.n
    cand, placed = st.cand, st.placed
    kill: dict[int, int] = {}   # literal (cell * n + digit) -> the literals its truth strikes
    force: dict[int, int] = {}  # literal -> the literals its striking makes true
    for i in range(n * n):
        if placed[i]:
            continue
        own = sum(1 << (i * n + d) for d in scan_forward(cand[i]))
        for d in scan_forward(cand[i]):
            lit = i * n + d
            m = own & ~(1 << lit)
            for p in g.peers[i]:
                if not placed[p] and cand[p] >> d & 1:
                    m |= 1 << (p * n + d)
            kill[lit] = m
            force[lit] = own & ~(1 << lit) if cand[i].bit_count() == 2 else 0
    for cells in g.houses:
        for d in range(n):
            where = [i for i in cells if not placed[i] and cand[i] >> d & 1]
            if len(where) == 2:
                a, b = where[0] * n + d, where[1] * n + d
                force[a] |= 1 << b
                force[b] |= 1 << a

    def follow(lit: int, true: bool) -> tuple[int, int]:
        on, off = (1 << lit, 0) if true else (0, 1 << lit)
        new_on, new_off = on, off
        while new_on or new_off:
            struck = 0
            for x in scan_forward(new_on):
                struck |= kill[x]
            struck &= ~off
            off |= struck
            made = 0
            for x in scan_forward(new_off | struck):
                made |= force[x]
            made &= ~on
            on |= made
            new_on, new_off = made, 0
        return on, off

    false = true = 0
    for lit in kill:
        on1, off1 = follow(lit, True)
        on0, off0 = follow(lit, False)
        if off1 >> lit & 1 or on1 & off1:
            false |= 1 << lit
        if on0 >> lit & 1 or on0 & off0:
            true |= 1 << lit
        true |= on1 & on0
        false |= off1 & off0
    cuts = []
    for lit in scan_forward(false):
        i, d = divmod(lit, n)
        cuts += cut(st, [i], 1 << d)
    for lit in scan_forward(true):
        i, d = divmod(lit, n)
        if not placed[i]:
            cuts += cut(st, [i], ~(1 << d))
    return 1 if cuts else 0


# The ladder SE's chains below 7.5 would finish with: ours without forcing chains and the
# trial, and the static chains.
SE_BELOW_NISHIO = tuple(t for t in LADDER if t.name not in ("forcing_chain", "trial")) + (
    Tech("static_chains", Level.EXPERT, t_static_chains, 9.0, 7.0),)


@dataclass(frozen=True)
class _StaticChains(Extra):
    def ladder(self) -> tuple[Tech, ...]:
        return SE_BELOW_NISHIO


STATIC_CHAINS = _StaticChains()


def chains_finish(geo: Geometry, sol: Sequence[int], given: Sequence[bool]) -> bool:
    """Whether the ladder with static chains in place of forcing chains and the trial solves
    the puzzle: then Sudoku Explainer most likely rates it below 7.5, whatever ours says."""
    return closure(geo, pairs_of(sol, given), Level.EXPERT, extra=STATIC_CHAINS)[0]


def pairs_of(sol: Sequence[int], given: Sequence[bool]) -> list[tuple[int, int]]:
    """(cell, digit) of every given cell."""
    return [(i, sol[i]) for i, g in enumerate(given) if g]


def rating_or_none(geo: Geometry, sol: Sequence[int], given: Sequence[bool]) -> float | None:
    """The rated run's rating, or None where it doesn't finish."""
    steps, done = rated_run(geo, pairs_of(sol, given))
    return rating_of(steps) if done else None


def value_of(geo: Geometry, sol: Sequence[int], given: Sequence[bool]) -> float | None:
    """The rating the climb goes by: the rated run's (None where it doesn't finish), except
    that a puzzle rated ``NISHIO`` or more that SE's static chains finish (``chains_finish``)
    counts as just below it, as SE would rate it."""
    rating = rating_or_none(geo, sol, given)
    if rating is not None and rating >= NISHIO and chains_finish(geo, sol, given):
        return BELOW_NISHIO
    return rating


def minimal(geo: Geometry, sol: Sequence[int], given: list[bool], rng: random.Random, keep: int = -1) -> list[bool]:
    """``given`` without every given the others make redundant (SAT: no second solution), tried
    in random order; ``keep`` stays whatever. Changes and returns ``given``."""
    rival = rival_for(geo)
    order = [i for i, g in enumerate(given) if g and i != keep]
    rng.shuffle(order)
    for i in order:
        given[i] = False
        if rival.differs(sol, pairs_of(sol, given)):
            given[i] = True
    return given


def swap(geo: Geometry, sol: Sequence[int], given: Sequence[bool], rng: random.Random) -> list[bool] | None:
    """One move: a random given out, and in its place an open cell that some other solution of
    the puzzle without it fills differently (only such a cell can make it unique again), tried
    in random order until one does; then minimal. The next given where none does; None where
    no swap keeps the puzzle unique."""
    rival = rival_for(geo)
    outs = [i for i, g in enumerate(given) if g]
    rng.shuffle(outs)
    for out in outs:
        moved = list(given)
        moved[out] = False
        pairs = pairs_of(sol, moved)
        if not rival.differs(sol, pairs):  # not minimal: the given goes, nothing in its place
            return minimal(geo, sol, moved, rng)
        # (asked cell by cell: the solver's verdicts are the same whatever it was asked before,
        # the solution it finds is not, and the puzzle must not depend on the worker's history)
        intos = [i for i, g in enumerate(moved) if not g and i != out and rival.differs(sol, pairs, i)]
        rng.shuffle(intos)
        for into in intos:
            moved[into] = True
            if not rival.differs(sol, pairs_of(sol, moved)):
                return minimal(geo, sol, moved, rng, keep=into)
            moved[into] = False
    return None


def harden(geo: Geometry, sol: Sequence[int], given: Sequence[bool], rng: random.Random, low: float,
           high: float, evals: int = EVALS, sideways: int = SIDEWAYS) -> list[bool] | None:
    """Which cells stay given in a unique, minimal puzzle of the solution ``sol`` rated in
    ``[low, high)`` (by ``value_of``: SE's chains below 7.5 don't finish it), climbed from
    ``given`` (a unique puzzle of ``sol``); None when ``evals`` moves didn't get there (see
    the module docstring)."""
    now = list(given)
    value = value_of(geo, sol, now)
    if value is None:
        return None
    runs = side = 0
    while not low <= value < high:
        if runs >= evals or value >= high:
            return None
        moved = swap(geo, sol, now, rng)
        if moved is None:
            return None
        got = value_of(geo, sol, moved)
        runs += 1
        if got is None or got >= high or got < value:
            continue
        if got == value:
            if side >= sideways:
                continue
            side += 1
        now, value = moved, got
    return now
