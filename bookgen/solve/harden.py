"""Climbing a puzzle's rating: from a carved puzzle to one rated higher, same solution grid.

The expert carve (``bookgen.solve.houses.carve``) stops where the hard tier and a few trials
still bring every given back; the rated run (``bookgen.solve.rated``) then finds how hard the
puzzle really is, and about a third of 9x9 expert carves rate 7.5 or more (their hardest step
a forcing chain, SE's Nishio or multiple forcing chains), the rest 5.4-7.4. ``harden`` takes
a puzzle that rates below the aim and moves its givens, keeping the solution:

- a move takes one given away and gives another open cell of the solution instead, one
  that another solution of the puzzle without it fills differently (a random swap keeps the
  puzzle unique about 1 time in 30; most of these do), then drops every given the others
  make redundant (the puzzle stays minimal);
- it is kept when the puzzle stays unique (the SAT rival, ``houses.rival_for``), the rated run
  still finishes (deduction, the trial at most last and never nested), and the rating does
  not fall, nor pass ``high``; a move that keeps the rating ("sideways") is kept a bounded
  number of times, so the search can cross a plateau without wandering on it;
- it ends when the rating lies in ``[low, high)``, or, None, when ``evals`` rated runs
  (the costly part: a move's SAT checks take a few milliseconds) found nothing: the caller
  carves a fresh grid.

Every choice comes from the caller's ``random.Random``: the same grid and generator state
give the same puzzle. Measured on 9x9 Sudoku (bench/bench_extreme.py, docs/calibration.md):
with 12 rated runs, about 6 in 10 carves below 7.5 climb to it, most within 5 runs.
"""

from __future__ import annotations

import random
from typing import Sequence

from bookgen.core.rating import rating_of
from bookgen.solve.houses import Geometry, rival_for
from bookgen.solve.rated import rated_run

EVALS = 8      # rated runs one climb may take before the caller starts afresh
SIDEWAYS = 6   # moves that keep the rating, at most, in one climb


def pairs_of(sol: Sequence[int], given: Sequence[bool]) -> list[tuple[int, int]]:
    """(cell, digit) of every given cell."""
    return [(i, sol[i]) for i, g in enumerate(given) if g]


def rating_or_none(geo: Geometry, sol: Sequence[int], given: Sequence[bool]) -> float | None:
    """The rated run's rating, or None where it doesn't finish."""
    steps, done = rated_run(geo, pairs_of(sol, given))
    return rating_of(steps) if done else None


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
    """Which cells stay given in a unique puzzle of the solution ``sol`` rated in
    ``[low, high)``, climbed from ``given`` (a unique puzzle of ``sol``), or None when
    ``evals`` rated runs didn't get there (see the module docstring)."""
    now = list(given)
    rating = rating_or_none(geo, sol, now)
    if rating is None:
        return None
    runs = side = 0
    while not low <= rating < high:
        if runs >= evals or rating >= high:
            return None
        moved = swap(geo, sol, now, rng)
        if moved is None:
            return None
        got = rating_or_none(geo, sol, moved)
        runs += 1
        if got is None or got >= high or got < rating:
            continue
        if got == rating:
            if side >= sideways:
                continue
            side += 1
        now, rating = moved, got
    return now
