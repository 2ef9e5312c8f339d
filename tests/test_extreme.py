"""The extreme level of 9x9 Sudoku: expert carves climbed to SE 7.5 and up (bookgen.solve.harden)."""

from __future__ import annotations

import random

import pytest

from bookgen.config import ConfigError, load_book
from bookgen.core.difficulty import Level
from bookgen.core.rating import band, climb_aim
from bookgen.designer import _levels_of
from bookgen.estimate import puzzle_ms
from bookgen.plan import estimate_seconds
from bookgen.solve.harden import chains_finish, harden, pairs_of, rating_or_none, swap, value_of
from bookgen.solve.houses import geometry, run_ladder
from bookgen.solve.latin_sat import prove, solutions
from bookgen.variants.registry import VARIANTS

GEO = geometry(9, (3, 3))
# A puzzle of ours rated 4.2, one swap below an extreme one (8.5), and its grid.
SOL = [int(c) for c in "293681745578234196416759238734592861951863472682417359145978623329146587867325914"]
GIVEN = [c != "." for c in ".9.6..7..5...3.....16.....8....9..6.9.....4...8.4...5...5.7.62.3........8....59.."]
# An expert carve of ours (7.2) and its grid.
SOL2 = [int(c) for c in "436719825829564371175328694917652483642831957583947162751496238364285719298173546"]
GIVEN2 = [c != "." for c in "43......5....6........28....1.....8...2......5.39..1..7..4..........5..9..81.35.."]
# Puzzles our ladder rates 7.5 and more (a forcing chain is their hardest step), and what
# Sudoku Explainer (Sukaku Explainer's serate) rates them: SE's static chains finish the first two.
SE_RATED = [
    ("...8..3...8..5....16...9.......96.......1.5.8.9..7.4..2......5...53..7....7.....9", 7.1),  # Forcing Chain
    ("8.1..9......84..25......3..5...73....7..6...4......5..7...2.86...2.....3..5..1..7", 7.2),  # Bidirectional Cycle
    ("..8.7.92..6.4......7...9..85...17......8..2...3....6..3..52.81...2...........3...", 8.3),  # Region Forcing Chains
]


def _unique(sol, given) -> bool:
    return solutions(GEO, pairs_of(sol, given)) == [sol]  # a fresh solver: nothing shared with the climb


def _minimal(sol, given) -> bool:
    return all(len(prove(GEO, pairs_of(sol, [g and j != i for j, g in enumerate(given)]))) == 2
               for i, g in enumerate(given) if g)


def test_a_climb_raises_the_rating_into_extreme_unique_minimal_and_deterministic():
    assert rating_or_none(GEO, SOL, GIVEN) == 4.2
    got = harden(GEO, SOL, GIVEN, random.Random(1), 7.5, 12.01)
    assert got is not None and got != GIVEN
    assert rating_or_none(GEO, SOL, got) >= 7.5 and not chains_finish(GEO, SOL, got)
    assert _unique(SOL, got) and _minimal(SOL, got)
    ladder = run_ladder(GEO, pairs_of(SOL, got))
    assert ladder.solved and ladder.counts.get("trial", 0) <= 1  # deduction: one trial at most, never nested
    # the same again, after the shared SAT solver has been asked about another puzzle
    swap(GEO, SOL2, GIVEN2, random.Random(3))
    assert harden(GEO, SOL, GIVEN, random.Random(1), 7.5, 12.01) == got


def test_a_climb_that_cannot_reach_its_range_in_its_budget_says_so():
    assert harden(GEO, SOL, GIVEN, random.Random(1), 11.0, 12.01, evals=1) is None
    assert harden(GEO, SOL, GIVEN, random.Random(1), 2.0, 3.0) is None  # above the range already


@pytest.mark.parametrize("line, se", SE_RATED)
def test_a_puzzle_se_s_static_chains_finish_is_not_extreme_whatever_ours_says(line, se):
    givens = [(i, int(c)) for i, c in enumerate(line) if c != "."]
    (sol,) = solutions(GEO, givens)
    given = [c != "." for c in line]
    assert rating_or_none(GEO, sol, given) >= 7.5  # our forcing chains
    assert chains_finish(GEO, sol, given) == (se < 7.5)
    assert (value_of(GEO, sol, given) < 7.5) == (se < 7.5)


def test_an_extreme_sudoku_is_made_unique_and_rated_in_its_band(seed=4):
    # Seed 4 climbs in 0.4 s, seeds 0-11 in 0.4-4.9 s; the promise holds for every seed:
    # bench/sweep_suite.py runs seeds 0-11.
    sudoku = VARIANTS["sudoku"]
    rules = sudoku.parse_rules({}, 9)
    extreme = band("extreme")
    aim = climb_aim(extreme.low, extreme.high, extreme.tier)
    puzzle = sudoku.generate(9, rules, Level.EXPERT, random.Random(seed), {"aim": aim})
    assert puzzle.grade.rating >= 7.5 and puzzle.grade.solved
    assert puzzle.grade.techniques.get("trial", 0) <= 1
    givens = [(i, int(c)) for i, c in enumerate("".join(puzzle.givens)) if c != "."]
    assert solutions(GEO, givens) == [[int(c) for c in "".join(puzzle.solution)]]


def test_extreme_is_a_level_of_classic_9x9_sudoku_and_a_range_up_there_climbs(write_config):
    book = load_book(write_config(
        "title: T\nseed: 3\nsections:\n"
        "  - variant: sudoku\n    count: 3\n    difficulty: {from: expert, to: extreme}\n"
        "  - variant: sudoku\n    count: 2\n    difficulty: {rating: [7.5, 9]}\n"
        "  - variant: sudoku\n    count: 2\n    difficulty: {rating: [6.0, 8.0]}\n"))
    ramp, climbed, filtered = book.sections
    assert ramp.bands == ((5.0, 7.5), (5.0, 7.5), (7.5, band("extreme").high))
    assert ramp.levels == (Level.EXPERT,) * 3
    assert [a.climb if a else None for a in ramp.aims] == [None, None, True]  # expert as before
    assert [(a.low, a.high, a.climb) for a in climbed.aims] == [(7.5, 9.0, True)] * 2
    assert filtered.aims == ()  # partly below the climb: the carve's puzzles filtered, as before
    # the estimate counts the climb: an extreme puzzle costs more than an expert one
    assert puzzle_ms("sudoku", 9, Level.EXPERT, {}, {"climb": True}) > puzzle_ms("sudoku", 9, Level.EXPERT)
    one = load_book(write_config("title: T\nseed: 3\nsections:\n  - variant: sudoku\n    count: 2\n"
                                 "    difficulty: expert\n", name="one"))
    two = load_book(write_config("title: T\nseed: 3\nsections:\n  - variant: sudoku\n    count: 2\n"
                                 "    difficulty: extreme\n", name="two"))
    assert estimate_seconds(two, 1)[0] > estimate_seconds(one, 1)[0]


@pytest.mark.parametrize("section, where, fragment", [
    ("variant: sudoku\n    rules: {diagonal: true}\n    difficulty: extreme",
     "7:17", "extreme is a band of the SE rating"),
    ("variant: sudoku\n    size: 12\n    difficulty: extreme", "7:17", "extreme is a band of the SE rating"),
    ("variant: sudoku\n    size: 12\n    difficulty: {rating: [7.5, 9]}", "7:26", "no 12\u00d712 sudoku rates in [7.5, 9)"),
    ("variant: killer\n    difficulty: {rating: [7.5, 9]}", "6:26", "no 9\u00d79 killer rates in [7.5, 9)"),
])
def test_extreme_stays_refused_with_its_place_where_nothing_climbs(write_config, section, where, fragment):
    with pytest.raises(ConfigError) as info:
        load_book(write_config(f"title: T\nseed: 1\nsections:\n  - count: 2\n    {section}\n"))
    (issue,) = [str(i) for i in info.value.issues]
    assert f":{where}:" in issue and fragment in issue, issue


def test_the_studio_offers_extreme_where_it_can_be_made():
    assert _levels_of(VARIANTS["sudoku"])[-1] == "extreme"
    assert "extreme" not in _levels_of(VARIANTS["killer"]) and "extreme" not in _levels_of(VARIANTS["jigsaw"])
