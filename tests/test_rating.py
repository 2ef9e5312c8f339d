"""Ratings on the Sudoku Explainer scale, estimated minutes, and levels as bands of the rating."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from bookgen.book import check_puzzle, in_score_order, plan, puzzle_json, ramp_key, run_job
from bookgen.config import ConfigError, load_book
from bookgen.core.difficulty import Level
from bookgen.core.rating import (BANDS, SIMPLE_BELOW, TIER_RATING, TIER_REACH, TYPICAL_OPTIONS, RatedStep,
                                 from_counts, band, band_of, level_key, chain_extra, forcing_rating,
                                 minutes_of, minutes_plain, rating_and_minutes, rating_of, x_chain_rating,
                                 xy_chain_rating,
                                 tier_for, tiers_for)
from bookgen.core.types import Puzzle
from bookgen.solve.houses import geometry
from bookgen.solve.rated import rated_run
from bookgen.variants.registry import VARIANTS

# A Sudoku whose every step is a hidden single in a box (SE 1.2), and the same grid with
# a few givens gone so that some moment offers only a naked single or harder.
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _givens(line: str) -> list[tuple[int, int]]:
    return [(i, int(ch)) for i, ch in enumerate(line) if ch != "."]


def _puzzle(line: str) -> Puzzle:
    rows = tuple(line[r * 9:(r + 1) * 9] for r in range(9))
    sudoku = VARIANTS["sudoku"]
    return Puzzle("sudoku", 9, sudoku.parse_rules({}, 9), rows, tuple("." * 9 for _ in range(9)))


def test_rated_run_takes_the_easiest_step():
    steps, solved = rated_run(geometry(9, (3, 3)), _givens(EASY))
    assert solved and rating_of(steps) == 1.2  # box hidden singles all the way: SE's 1.2
    assert {s.technique for s in steps} == {"hidden_single"}
    assert all(s.options >= 1 for s in steps)


def test_rating_is_deterministic_and_in_the_json():
    sudoku = VARIANTS["sudoku"]
    first = sudoku.grade(_puzzle(EASY))
    again = sudoku.grade(_puzzle(EASY))
    assert first.rating == again.rating == 1.2
    assert first.minutes == again.minutes and first.minutes >= 1
    entry = puzzle_json(1, _puzzle(EASY).__class__(**{**_puzzle(EASY).__dict__, "grade": first}), 3)
    assert json.loads(json.dumps(entry))["rating"] == 1.2
    assert entry["difficulty"] == "beginner"  # the band the rating falls in
    assert entry["minutes"] == first.minutes


def test_minutes_follow_steps_and_bottlenecks():
    many = [RatedStep("hidden_single", 1.2, 8)] * 50
    narrow = [RatedStep("hidden_single", 1.2, 1)] * 50  # every step the only one open
    hard = many[:49] + [RatedStep("x_wing", 3.2, 0)]
    assert minutes_of(narrow, 81) > minutes_of(many, 81)
    assert minutes_of(hard, 81) > minutes_of(many, 81)
    assert minutes_of(many, 36) < minutes_of(many, 81)  # a smaller grid is scanned faster
    assert rating_of(hard) == 3.2


def test_bands_never_overlap_and_climb_with_the_tiers():
    for lower, upper in zip(BANDS, BANDS[1:]):
        assert lower.high == upper.low and lower.low < lower.high
        assert lower.tier <= upper.tier
    assert [b.key for b in BANDS[1:5]] == [lv.key for lv in Level]  # the old names keep their order
    for rating in (1.0, 1.2, 2.4, 2.5, 3.49, 5.0, 7.5, 11.9):
        assert sum(b.holds(rating) for b in BANDS) == 1
        assert band_of(rating).holds(rating)
    assert band("Extreme").key == "extreme"
    with pytest.raises(ValueError, match="expected one of beginner, easy, medium"):
        band("diabolicall")
    assert tier_for(2.5, 3.5) == Level.MEDIUM and tier_for(7.5, 12) == Level.EXPERT
    assert all(lo <= hi for lo, hi in TIER_REACH.values())


def test_ramp_follows_rating_then_minutes():
    sudoku = VARIANTS["sudoku"]
    base = _puzzle(EASY)
    a = base.__class__(**{**base.__dict__, "grade": sudoku.grade(base)})
    b_grade = a.grade.__class__(**{**a.grade.__dict__, "rating": 2.3, "score": 0.0})
    b = base.__class__(**{**base.__dict__, "grade": b_grade})
    assert sorted([b, a], key=ramp_key) == [a, b]  # the rating wins over the (lower) score


def test_rating_range_builds_puzzles_inside_it(write_config):
    book = load_book(write_config(
        "title: T\nseed: 3\nsections:\n  - variant: sudoku\n    count: 2\n"
        "    difficulty: {rating: [2.5, 3.5]}\n"))
    (section,) = book.sections
    assert section.bands == ((2.5, 3.5),) * 2 and section.levels == (Level.MEDIUM,) * 2
    for job in plan(book):
        puzzle = run_job(job)
        assert 2.5 <= puzzle.grade.rating < 3.5


def test_a_rating_range_across_tiers_is_carved_at_each(write_config):
    book = load_book(write_config(
        "title: T\nseed: 7\nsections:\n  - variant: sudoku\n    count: 2\n"
        "    difficulty: {rating: [3.0, 4.5]}\n"))
    (section,) = book.sections
    assert tiers_for(3.0, 4.5) == (Level.HARD, Level.MEDIUM)  # a naked or hidden pair rates 3.0-3.4
    assert tiers_for(1.2, 2.5) == (Level.EASY, Level.MEDIUM)  # medium's direct steps rate 1.7-2.4
    assert tiers_for(2.5, 3.5) == (Level.MEDIUM,)
    assert section.levels == (Level.HARD, Level.MEDIUM) and section.range_tiers == (Level.HARD, Level.MEDIUM)
    jobs = plan(book)
    assert [j.tiers for j in jobs] == [(Level.HARD, Level.MEDIUM)] * 2
    made = [run_job(job) for job in jobs]
    assert all(3.0 <= p.grade.rating < 4.5 for p in made)
    assert [p.grade.level for p in made] == [Level.HARD, Level.MEDIUM]  # (4.2 then 3.4 with this seed)
    # one ramp across the range, by rating, whatever tier made each puzzle
    assert [p.grade.rating for p in in_score_order(book, made)] == sorted(p.grade.rating for p in made)


def test_named_levels_carry_their_bands(write_config):
    book = load_book(write_config(
        "title: T\nseed: 3\nsections:\n  - variant: sudoku\n    count: 5\n"
        "    difficulty: {from: easy, to: expert}\n"))
    (section,) = book.sections
    assert section.bands == tuple((b.low, b.high) for b in (BANDS[1],) + BANDS[1:5])
    assert section.levels == (Level.EASY, Level.EASY, Level.MEDIUM, Level.HARD, Level.EXPERT)


@pytest.mark.parametrize("size, difficulty, where, fragment", [
    ("4", "{rating: [4.0, 6.0]}", "6:26", "no 4\u00d74 sudoku rates in [4, 6)"),
    ("9", "{rating: [6.0, 4.0]}", "6:26", "rating must be two numbers [low, high]"),
    ("9", "{rating: [0.5]}", "6:26", "rating must be two numbers"),
    ("9", "{ratin: [1, 2]}", "6:18", "unknown key 'ratin' in difficulty; did you mean 'rating'?"),
    ("9", "{rating: [9.0, 12.0]}", "6:26", "no 9\u00d79 sudoku rates in [9, 12)"),  # above what the climb makes
    ("9", "legendary", "6:17", "unknown level 'legendary'; expected one of beginner, easy, medium, hard, expert, extreme"),
])
def test_unreachable_or_malformed_range_is_refused_with_its_place(write_config, size, difficulty, where, fragment):
    path = write_config(f"title: T\nseed: 1\nsections:\n  - variant: sudoku\n    size: {size}\n"
                        f"    difficulty: {difficulty}\n    count: 2\n")
    with pytest.raises(ConfigError) as info:
        load_book(path)
    issues = [str(i) for i in info.value.issues]
    assert len(issues) == 1, issues
    assert f":{where}:" in issues[0] and fragment in issues[0], issues


# Medium Sudoku of ours with Sudoku Explainer's (Sukaku Explainer's serate) rating and the
# technique it names: pointing 2.6, claiming 2.8, direct hidden pair 2.0 (the pair leaves a
# hidden single; SE places it and keeps none of the eliminations), naked pair 3.0, hidden pair
# 3.4, direct hidden triple 2.5.
SE_RATED = [
    (".6.2...1..9...7..6.....34..95..7......2..4..77...82......1..8..8...5.2.15.....3..", 2.6),
    ("83..2..7..92.......6.....41.2.9...67....1....9..246.3.....5.4....73.........8...3", 2.8),
    ("8...5..1..4...1.9..5....2.3.9..8......23..6.5...4.5..2...29.7..7.........6...4...", 2.0),
    ("7..4..........8.4.8..31.2.6.1.......5....413.6.7...8.9....2.39....8.1.....2.7....", 3.0),
    (".9............21...836..9..........2.5.....4....89.6..1.......7.6.3....44..7..86.", 3.4),
    ("..325....6.8..........6.4..58.....7.4..7..5.....39.2......2..8.1....3....56...1..", 2.5),
]


@pytest.mark.parametrize("line, se", SE_RATED)
def test_the_rating_is_se_s_on_medium_puzzles(line, se):
    assert VARIANTS["sudoku"].grade(_puzzle(line)).rating == se


def test_chains_are_valued_by_length_as_se_values_them():
    assert [chain_extra(n) for n in (4, 6, 8, 10, 14, 18)] == [0.0, 0.0, 0.1, 0.2, 0.3, 0.4]
    assert [x_chain_rating(k) for k in (2, 3, 4, 5, 6)] == [4.0, 5.4, 5.8, 6.8, 6.9]
    assert [xy_chain_rating(k) for k in (3, 4, 5, 6, 7)] == [4.2, 5.5, 6.2, 6.6, 7.3]
    assert xy_chain_rating(4, wing=False) == 7.1  # no cell sees the rest: SE's XY forcing chain
    assert forcing_rating(6, True) == 7.5 and forcing_rating(6, False) == 8.0 < forcing_rating(20, False)


def test_named_levels_are_bands_only_where_the_rating_is_calibrated(write_config):
    # 9x9 Sudoku's levels are Sudoku Explainer bands; a Killer's or a 12x12's are their tiers
    # (their experts need forcing chains, SE 8 and up: as bands no expert could be made).
    book = load_book(write_config(
        "title: T\nseed: 3\nsections:\n"
        "  - variant: sudoku\n    size: 9\n    count: 2\n    difficulty: {from: hard, to: expert}\n"
        "  - variant: killer\n    size: 9\n    count: 2\n    difficulty: {from: hard, to: expert}\n"
        "  - variant: sudoku\n    size: 12\n    count: 1\n    difficulty: expert\n"
        "  - variant: sudoku\n    size: 12\n    count: 1\n    difficulty: {rating: [2.5, 3.5]}\n"))
    sudoku, killer, big, ranged = book.sections
    assert sudoku.bands == ((band("hard").low, band("hard").high), (band("expert").low, band("expert").high))
    assert killer.bands == (None, None) and big.bands == (None,)
    assert ranged.bands == ((2.5, 3.5),)  # a range is a band everywhere
    assert level_key(Level.EXPERT, 8.4, banded=False) == "expert"
    assert level_key(Level.EXPERT, 8.4, banded=True) == "extreme"


def test_extreme_is_refused_where_levels_are_tiers(write_config):
    with pytest.raises(ConfigError, match=r"book.yaml:6:17: extreme is a band of the SE rating"):
        load_book(write_config("title: T\nseed: 3\nsections:\n  - variant: killer\n    count: 1\n"
                               "    difficulty: extreme\n"))


def test_a_tier_level_prints_and_checks_as_its_tier_and_an_older_band_label_still_checks():
    from bookgen.core.rng import derive_seed, rng_for
    futoshiki = VARIANTS["futoshiki"]
    puzzle = futoshiki.generate(5, futoshiki.parse_rules(None, 5), Level.HARD, rng_for(derive_seed(3, 0, 0)), {})
    assert band_of(puzzle.grade.rating).key != "hard"  # rated past the hard band: the tier is what prints
    entry = json.loads(json.dumps(puzzle_json(1, puzzle, 3)))
    assert entry["difficulty"] == "hard" and check_puzzle(entry) == []
    assert check_puzzle({**entry, "difficulty": band_of(puzzle.grade.rating).key}) == []  # a book of the last release
    assert check_puzzle({**entry, "difficulty": "easy"})[0].startswith("grades hard, but is labelled")


def test_one_step_takes_at_most_twenty_minutes_to_carry_out():
    """The growth of a step's time with its rating stops at MAX_DO_SECONDS (a forcing chain
    of 8.8 took 53 minutes and a climbed extreme puzzle 3.5 hours); below it nothing moves."""
    from bookgen.core.rating import MAX_DO_SECONDS, SCAN_SECONDS, RatedStep, step_seconds
    hard = [step_seconds(RatedStep("forcing_chain", r, 3)) for r in (8.0, 8.8, 11.9)]
    assert hard[0] == hard[1] == hard[2] == MAX_DO_SECONDS + SCAN_SECONDS / 3
    assert step_seconds(RatedStep("xy_chain", 7.4, 0)) < MAX_DO_SECONDS


def test_a_variant_rated_by_its_techniques_gives_few_ratings_per_tier():
    """Takuzu rates as its hardest technique: a medium puzzle only as the whole-line step
    (2.8), a hard one as a long line or distinct lines (3.8, 4.0); the Latin variants rate on
    a scale and say None."""
    takuzu = VARIANTS["takuzu"]
    points = takuzu.rating_points(8, takuzu.parse_rules(None, 8))  # the default rules: distinct lines
    assert points[Level.MEDIUM] == {2.8} and points[Level.HARD] == {3.8, 4.0}
    assert min(points[Level.EASY]) < 2.5 <= min(points[Level.MEDIUM])
    assert VARIANTS["sudoku"].rating_points(9, {}) is None and VARIANTS["kenken"].rating_points(6, {}) is None
    assert tiers_for(2.5, 4.1, points) == (Level.MEDIUM, Level.HARD)
    assert tiers_for(3.9, 4.5, points) == (Level.HARD,)


@pytest.mark.parametrize("section, where, fragment", [
    ("variant: takuzu\n    size: 8", "6:26", "no 8\u00d78 takuzu rates in [3, 3.5)"),
    ("variant: nonogram\n    size: 10", "6:26", "no 10\u00d710 nonogram rates in [3, 3.5)"),  # not 10x10x10x10
])
def test_a_range_between_a_variants_technique_ratings_is_refused_with_its_place(write_config, section, where,
                                                                                  fragment):
    """Before, such a range was accepted and the build failed after 24 seeds each."""
    path = write_config(f"title: T\nseed: 1\nsections:\n  - {section}\n"
                        "    difficulty: {rating: [3.0, 3.5]}\n    count: 2\n")
    with pytest.raises(ConfigError) as info:
        load_book(path)
    issues = [str(i) for i in info.value.issues]
    assert len(issues) == 1 and f":{where}:" in issues[0] and fragment in issues[0], issues


def test_a_range_of_a_variant_rated_by_its_techniques_builds_inside_it(write_config):
    book = load_book(write_config(
        "title: T\nseed: 3\nsections:\n  - variant: takuzu\n    size: 6\n    count: 2\n"
        "    difficulty: {rating: [2.5, 4.1]}\n"))
    (section,) = book.sections
    assert section.range_tiers == (Level.MEDIUM, Level.HARD)
    made = [run_job(job) for job in plan(book)]
    assert all(2.5 <= p.grade.rating < 4.1 for p in made)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["pair", "balance", "line", "long_line", "trial", "x_wing", "odd"]),
                       st.integers(-1, 30)),
       st.dictionaries(st.sampled_from(["pair", "balance", "line", "long_line", "trial", "x_wing"]),
                       st.floats(1.0, 9.9, allow_nan=False)),
       st.integers(1, 400))
def test_from_counts_equals_the_steps_it_stands_for(counts, ratings, cells):
    # from_counts times each technique's step once: the same floats as rating_of and
    # minutes_of over the full list of steps (the plain version).
    steps = []
    for name, used in sorted(counts.items()):
        value = ratings.get(name, TIER_RATING[Level.EASY])
        steps += [RatedStep(name, value, TYPICAL_OPTIONS if value < SIMPLE_BELOW else 0)] * used
    assert from_counts(counts, ratings, cells) == (rating_of(steps), minutes_of(steps, cells))


def test_minutes_of_equals_its_plain_version():
    # minutes_of keeps each step object's seconds: shared and fresh objects, repeated values
    rng = random.Random(4)
    for _ in range(40):
        picks = [(rng.choice(["naked_single", "hidden_single", "cage_fix", "trial"]),
                  rng.choice([1.2, 1.5, 2.0, 2.3, 3.4, 5.5, 8.8]), rng.randrange(10))
                 for _ in range(rng.randrange(41))]
        cells = rng.randrange(1, 401)
        shared = {p: RatedStep(*p) for p in picks}
        steps = [shared[p] if k % 2 else RatedStep(*p) for k, p in enumerate(picks)]
        assert minutes_of(steps, cells) == minutes_plain(steps, cells)
        assert minutes_of(steps, cells) == minutes_plain([RatedStep(*p) for p in picks], cells)


def test_rating_and_minutes_equal_those_of_the_steps_the_runs_stand_for():
    # steps and runs of steps (technique, rating, options of the first, how many), each one option
    # fewer: the same
    # rating (the first of the highest, so 2 and 2.0 print as the steps' do) and the same minutes
    rng = random.Random(7)
    for _ in range(200):
        runs = [(rng.choice([1.0, 1.2, 2, 2.0, 2.3, 2.6, 2.8, 3.4, 5.5]), rng.randrange(12), 1 + rng.randrange(3) // 2
                 * rng.randrange(1, 9)) for _ in range(rng.randrange(30))]
        runs = [(r, max(o, c), c) for r, o, c in runs]  # (the last of a run has an option left)
        steps = [RatedStep("x", r, o - j) for r, o, c in runs for j in range(c)]
        cells = rng.randrange(1, 401)
        got = rating_and_minutes([("x", r, o) if c == 1 and k % 2 else ("x", r, o, c) for k, (r, o, c) in enumerate(runs)],
                                 cells)
        assert repr(got) == repr((rating_of(steps), minutes_plain(steps, cells)))
