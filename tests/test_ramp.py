"""A named level's puzzles span its band (an easy section climbs), and the beginner level."""

from __future__ import annotations

import random

import pytest

from bookgen.book import check_puzzle, in_score_order, plan, puzzle_json, run_job
from bookgen.config import ConfigError, load_book
from bookgen.core.difficulty import Level
from bookgen.core.rating import RAMP_VALUES, Aim, aims, band, marker_of, was_band
from bookgen.core.rating import rating_of
from bookgen.solve.houses import closure, drop_singles, geometry, random_filling
from bookgen.solve.rated import carve_to_rating, hidden_singles_solve, rated_run
from bookgen.variants.registry import printed_level


def _section(write_config, difficulty: str, count: int, variant: str = "sudoku", seed: int = 5):
    return load_book(write_config(f"title: T\nseed: {seed}\nsections:\n  - variant: {variant}\n"
                                  f"    count: {count}\n    difficulty: {difficulty}\n"))


def test_aims_spread_a_run_over_the_band_easiest_first():
    easy = band("easy")
    got = aims(easy.low, easy.high, easy.tier, 6)
    # the first at the band's lowest ramp value, the last at its highest; the others at the
    # highest, or the lowest where their grid's carve never gets there
    assert [a.low for a in got] == [1.5, 2.0, 2.0, 2.0, 2.0, 2.0]
    assert [a.high for a in got] == [2.0, 2.5, 2.5, 2.5, 2.5, 2.5]
    assert [a.floor for a in got] == [None, 1.5, 1.5, 1.5, 1.5, None]
    assert [a.depth for a in got] == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]  # deeper (fewer givens) along the run
    assert all((a.band_low, a.band_high) == (1.5, 2.5) for a in got)
    assert [(a.low, a.floor) for a in aims(easy.low, easy.high, easy.tier, 2)] == [(1.5, None), (2.0, None)]
    assert aims(easy.low, easy.high, easy.tier, 1) == (Aim(1.5, 2.0, 0.0, 1.5, 2.5),)
    beginner = band("beginner")
    assert [(a.low, a.high, a.depth, a.floor) for a in aims(beginner.low, beginner.high, beginner.tier, 3)] == \
        [(1.2, 1.5, 0.0, None), (1.2, 1.5, 0.5, None), (1.2, 1.5, 1.0, None)]
    assert aims(2.5, 3.5, Level.MEDIUM, 3) == (None,) * 3  # a minimal carve: no ramp values to aim at
    assert Aim(2.0, 2.5, 0.5, 1.5, 2.5, floor=1.5).widened() == Aim(1.5, 2.5, 0.5, 1.5, 2.5)
    assert all(v < band("medium").low for v in RAMP_VALUES[Level.EASY])


def test_an_easy_section_climbs_across_its_band(write_config):
    book = _section(write_config, "easy", 4)
    (section,) = book.sections
    assert [a.low for a in section.aims] == [1.5, 2.0, 2.0, 2.0]
    jobs = plan(book)
    made = in_score_order(book, [run_job(job) for job in jobs])
    ratings = [p.grade.rating for p in made]
    assert all(1.5 <= r < 2.5 for r in ratings), ratings
    assert ratings == sorted(ratings) and ratings[0] < ratings[-1] and len(set(ratings)) > 1
    assert {printed_level(p)[1] for p in made} == {"Easy"}
    assert run_job(jobs[2]) == run_job(jobs[2])  # an aimed carve is a function of its seed


def test_beginner_builds_in_its_band_and_says_so(write_config):
    book = _section(write_config, "{from: beginner, to: easy}", 2)
    jobs = plan(book)
    assert [j.band for j in jobs] == [(1.0, 1.5), (1.5, 2.5)]
    first = run_job(jobs[0])
    assert first.grade.rating == 1.2 and first.grade.level == Level.EASY
    entry = puzzle_json(1, first, 0)
    assert entry["difficulty"] == "beginner" and check_puzzle(entry) == []
    assert printed_level(first) == (0, "Beginner", 0)  # below easy: no marker square filled
    # a book made while easy spanned 1.0-2.5 still checks out
    assert check_puzzle({**entry, "difficulty": "easy"}) == []
    assert check_puzzle({**entry, "difficulty": "medium"}) != []
    assert was_band("easy", 1.2) and not was_band("easy", 2.6) and not was_band("hard", 4.0)
    assert [marker_of(k) for k in ("beginner", "easy", "medium", "hard", "expert", "extreme")] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("variant, extra", [("killer", ""), ("sudoku", "    size: 6\n"),
                                            ("sudoku", "    rules: {diagonal: true}\n")])
def test_beginner_is_refused_where_levels_are_tiers(write_config, variant, extra):
    path = write_config(f"title: T\nsections:\n  - variant: {variant}\n{extra}    count: 2\n"
                        "    difficulty: beginner\n")
    with pytest.raises(ConfigError) as info:
        load_book(path)
    (issue,) = [str(i) for i in info.value.issues]
    line = 5 + extra.count("\n")
    assert issue.startswith(f"{path}:{line}:17: beginner is a band of the SE rating"), issue
    assert "levels are easy to expert" in issue


def test_hidden_singles_solve_equals_the_rated_run():
    """The carve's cheap test against its plain version: hidden singles in boxes (and full
    houses) solve exactly the puzzles the rated run rates below 1.5, all hidden singles those
    below 1.7."""
    geo = geometry(9, (3, 3))
    rng = random.Random(25)
    seen = set()
    for _ in range(20):  # until a grid rated 1.7 or more was met (1 in 3 or 4)
        if max(seen, default=0.0) >= 1.7:
            break
        sol = random_filling(geo, rng)
        cells = list(range(81))
        rng.shuffle(cells)
        given = drop_singles(geo, sol, cells).given
        for i in cells:  # on past the singles carve, one given at a time, as carve_to_rating goes
            if not given[i]:
                continue
            given[i] = False
            pairs = [(j, sol[j]) for j in range(81) if given[j]]
            if not closure(geo, pairs, Level.EASY)[0]:  # singles no longer solve it
                given[i] = True
                continue
            rating = rating_of(rated_run(geo, pairs)[0])
            seen.add(rating)
            assert hidden_singles_solve(geo, pairs, boxes_only=True) == (rating < 1.5)
            assert hidden_singles_solve(geo, pairs, boxes_only=False) == (rating < 1.7)
    assert {1.2, 1.5} <= seen and max(seen) >= 1.7  # both sides of both thresholds were met


@pytest.mark.parametrize("n,box", [(9, (3, 3)), (6, (2, 3))])
def test_box_hidden_singles_equal_the_house_by_house_version(n, box):
    """Hidden singles in boxes (and full houses), a digit's boxes at once on one int, against
    ``plain=True``, house by house: the same verdict, with and without ``until``, on puzzles
    carved past the singles carve one given at a time (both sides met)."""
    geo = geometry(n, box)
    rng = random.Random(n)
    verdicts = set()
    for _ in range(3):
        sol = random_filling(geo, rng)
        cells = list(range(n * n))
        rng.shuffle(cells)
        given = drop_singles(geo, sol, cells).given
        for i in cells:
            given[i] = False
            pairs = [(j, sol[j]) for j in range(n * n) if given[j]]
            for until in (-1, i, rng.randrange(n * n)):
                got = hidden_singles_solve(geo, pairs, True, until)
                assert got == hidden_singles_solve(geo, pairs, True, until, plain=True)
                verdicts.add(got)
    assert verdicts == {True, False}


def test_aimed_carve_equals_its_plain_version():
    """``carve_to_rating`` skips the singles where a removal opens a deadly rectangle;
    ``plain=True`` asks ``closure`` every time: the same puzzles, or None, at every aim."""
    geo = geometry(9, (3, 3))
    rng = random.Random(4)
    made = 0
    for k in range(4):
        sol = random_filling(geo, rng)
        for low, high in ((1.2, 1.5), (1.5, 2.0), (2.0, 2.5), (1.5, 2.5)):
            seed = rng.random()
            depth = (k % 3) / 2
            fast = carve_to_rating(geo, sol, random.Random(seed), low, high, depth)
            assert fast == carve_to_rating(geo, sol, random.Random(seed), low, high, depth, plain=True)
            made += fast is not None
    assert made >= 4


def test_an_aim_missed_takes_the_lower_value_of_the_same_carve():
    """Aimed at 2.0 with a floor of 1.5, a grid whose carve never needs more than hidden
    singles gives the puzzle that carve aimed at [1.5, 2.0) gives, rather than None; a grid
    that gets to 2.0 gives the puzzle without the floor. The fast and the plain version agree."""
    geo = geometry(9, (3, 3))
    rng = random.Random(9)
    fell = hit = 0
    for k in range(8):
        sol = random_filling(geo, rng)
        seed, depth = rng.random(), (k % 3) / 2
        fast = carve_to_rating(geo, sol, random.Random(seed), 2.0, 2.5, depth, floor=1.5)
        assert fast == carve_to_rating(geo, sol, random.Random(seed), 2.0, 2.5, depth, plain=True, floor=1.5)
        aimed = carve_to_rating(geo, sol, random.Random(seed), 2.0, 2.5, depth)
        if aimed is None:
            assert fast == carve_to_rating(geo, sol, random.Random(seed), 1.5, 2.0, depth)
            fell += fast is not None
        else:
            assert fast == aimed
            hit += 1
        if fast is not None:
            rating = rating_of(rated_run(geo, [(i, sol[i]) for i in range(81) if fast[i]])[0])
            assert 1.5 <= rating < 2.5 and (rating >= 1.7) == (aimed is not None)
    assert fell and hit  # both sides were met

