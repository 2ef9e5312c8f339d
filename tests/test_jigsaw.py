"""Jigsaw Sudoku: random regions, the house engine with regions as houses, the JSON and
text formats, the checker, fingerprints and drawing."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bookgen.book import check_puzzle, puzzle_json
from bookgen.core.difficulty import Level
from bookgen.core.pen import BOLD, RecordingPen
from bookgen.core.rng import derive_seed, rng_for
from bookgen.core.symmetry import moved_rows, symmetries
from bookgen.core.text import PuzzleTextError
from bookgen.puzzletext import parse_text
from bookgen.solve.filling import propagated_filling
from bookgen.solve.houses import geometry
from bookgen.solve.latin_sat import solutions
from bookgen.variants.jigsaw import JIGSAW
from bookgen.variants.jigsaw_regions import _masks, connected_mask, is_plain, random_regions
from bookgen.variants.regions import connected, region_problems, region_rows, regions_of


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9])
def test_random_regions_are_connected_equal_and_never_plain(n):
    rng = random.Random(n)
    for _ in range(3):
        regions = random_regions(n, rng)
        if regions is None:
            continue
        assert sorted(i for cells in regions for i in cells) == list(range(n * n))
        assert all(len(cells) == n and connected(cells, n) and not is_plain(cells, n) for cells in regions)
        rows = region_rows(regions, n)
        assert region_problems(rows, n) == []
        assert sorted(map(sorted, regions_of(rows))) == sorted(map(sorted, regions))


def test_the_bitmask_flood_fill_equals_the_plain_search():
    rng = random.Random(3)
    for n in (5, 9):
        masks = _masks(n)
        for _ in range(300):
            cells = rng.sample(range(n * n), rng.randint(1, 2 * n))
            mask = sum(1 << i for i in cells)
            assert connected_mask(mask, n, masks) == connected(cells, n), (n, sorted(cells))


@pytest.mark.parametrize("n", [5, 6])
def test_the_propagating_filler_keeps_every_house_and_fails_only_without_a_filling(n, room=1000):
    # The plain reference is SAT (latin_sat.solutions): a layout has a filling or not; the
    # filler, given room, must agree (random 5x5 and 6x6 layouts include unfillable ones).
    # Room: 1,000 guesses, 10 times the generator's FILL_BUDGET (every fillable layout here
    # fills in under 20); the 6x6 unfillable layout spends them all (at 10**5: 5 s; at 5,000
    # 0.2 s). bench/sweep_suite.py gives the same layouts room for 10**5.
    rng = random.Random(1)
    seen = set()
    for _ in range(12):
        geo = geometry(n, None, False, random_regions(n, rng, True))
        sol = propagated_filling(geo, rng, room)
        assert (sol is not None) == bool(solutions(geo, [], 1))
        if sol is not None:
            assert all(sorted(sol[i] for i in house) == list(range(1, n + 1)) for house in geo.houses)
        seen.add(sol is not None)
    assert seen == {True, False}


def test_rectangles_are_plain():
    assert is_plain([0, 1, 2, 3, 4, 5], 6)                 # a row of a 6x6
    assert is_plain([0, 1, 2, 6, 7, 8], 6)                 # a 2x3 box
    assert not is_plain([0, 1, 2, 6, 7, 12], 6)            # an L
    assert random_regions(6, random.Random(1), plain=True) is not None


@pytest.fixture(scope="module")
def puzzle():
    rules = JIGSAW.parse_rules({}, 6)
    return JIGSAW.generate(6, rules, Level.MEDIUM, rng_for(derive_seed(6, 1, 0)))


def test_generated_puzzle_is_unique_graded_and_regions_are_houses(puzzle):
    assert JIGSAW.validate(puzzle) == [] and JIGSAW.solutions(puzzle, 2) == [puzzle.solution]
    assert JIGSAW.grade(puzzle).level == Level.MEDIUM
    for cells in regions_of(puzzle.regions):
        assert sorted(puzzle.solution[i // 6][i % 6] for i in cells) == list("123456")
    # the same answer under other regions (2x3 boxes) breaks some of them, named as regions
    boxes = ("AAABBB", "AAABBB", "CCCDDD", "CCCDDD", "EEEFFF", "EEEFFF")
    problems = JIGSAW.validate(replace(puzzle, regions=boxes))
    assert problems and all(p.startswith("the region at") and "lacks" in p for p in problems)
    geo = JIGSAW.geometry_of(puzzle)
    assert any("region" in str(name) for name in geo.names)


def test_json_round_trip_and_checker(puzzle):
    entry = puzzle_json(1, puzzle, page=2)
    assert entry["regions"] == list(puzzle.regions) and entry["rules"] == {"diagonal": False, "plain_regions": False}
    assert check_puzzle(entry) == []
    back = JIGSAW.from_json(entry)
    assert back.regions == puzzle.regions and back.givens == puzzle.givens
    # a region of the wrong size, and a split region, are malformed
    rows = list(puzzle.regions)
    other = next(ch for ch in rows[0] if ch != rows[0][0])
    grown = [rows[0].replace(other, rows[0][0], 1)] + rows[1:]
    assert "cells, not 6" in check_puzzle(dict(entry, regions=grown))[0]
    split = ["AAABBB", "AAABBB", "CCCDDD", "CCCDDD", "EEFFEE", "EEFFFF"]
    assert any("not connected" in p for p in check_puzzle(dict(entry, regions=split)))
    assert check_puzzle(dict(entry, regions="AAAAAA"))[0].startswith("malformed")


def test_fingerprint_follows_the_grid_and_ignores_letters_and_digit_names(puzzle):
    entry = puzzle_json(1, puzzle, page=2)
    move = symmetries(6)[1]
    swap = str.maketrans("16", "61")
    turned = dict(entry, givens=[row.translate(swap) for row in moved_rows(puzzle.givens, move)],
                  solution=[row.translate(swap) for row in moved_rows(puzzle.solution, move)],
                  regions=list(region_rows(regions_of(moved_rows(puzzle.regions, move)), 6)))
    assert JIGSAW.fingerprint(JIGSAW.from_json(turned)) == JIGSAW.fingerprint(puzzle)
    # the same givens in other regions are another puzzle
    other = JIGSAW.from_json(dict(entry, regions=["AAABBB", "AAABBB", "CCCDDD", "CCCDDD", "EEEFFF", "EEEFFF"]))
    assert JIGSAW.fingerprint(other) != JIGSAW.fingerprint(puzzle)


def test_walls_are_bold_exactly_between_regions(puzzle):
    pen = RecordingPen()
    JIGSAW.draw(pen, puzzle)
    bold = sum(op[3] - op[1] + op[4] - op[2] for op in pen.ops if op[0] == "line" and op[-1] == BOLD)
    reg = puzzle.regions
    walls = sum(reg[r][c] != reg[r][c + 1] for r in range(6) for c in range(5)) + \
        sum(reg[r][c] != reg[r + 1][c] for r in range(5) for c in range(6))
    assert bold == walls


def test_text_round_trip_and_errors_are_located(puzzle):
    text = JIGSAW.to_text(puzzle)
    back = parse_text(text, "j.txt")
    assert back.variant == "jigsaw" and back.regions == puzzle.regions and back.givens == puzzle.givens
    lines = text.splitlines()
    broken = "\n".join([lines[0], lines[1].replace(lines[1][0], "?", 1)] + lines[2:]) + "\n"
    with pytest.raises(PuzzleTextError, match=r"j.txt:2:1: unknown symbol '\?'"):
        parse_text(broken, "j.txt")
    split = "jigsaw\nA A A B B B\nA A A B B B\nC C C D D D\nC C C D D D\nE E F F E E\nE E F F F F\n"
    with pytest.raises(PuzzleTextError, match=r"j.txt:6:9: region 'E' is not connected"):
        parse_text(split, "j.txt")
    short = "jigsaw\nA A A B B B\nA A A B B B\nC C C D D D\nC C C D D D\nE E E F F F\nE E E F F A\n"
    with pytest.raises(PuzzleTextError, match=r"j.txt:2:1: region 'A' has 7 cells, not 6"):
        parse_text(short, "j.txt")
    assert any("|" in line for line in JIGSAW.text_lines(puzzle, puzzle.solution))


def test_rule_options_and_refusals():
    assert JIGSAW.parse_rules({"diagonal": True}, 9) == {"diagonal": True, "plain_regions": False}
    with pytest.raises(ValueError, match="unknown Jigsaw Sudoku rule option 'box'"):
        JIGSAW.parse_rules({"box": [3, 3]}, 9)
    with pytest.raises(ValueError, match="Jigsaw Sudoku size must be from 5 to 9, not 10"):
        JIGSAW.parse_rules({}, 10)
    assert JIGSAW.check_request(4, {}, Level.EASY)


def test_diagonal_jigsaw_keeps_its_diagonals(index=6):
    # Index 6 generates in 0.05 s, indices 0-9 in 0.05-0.37 s; bench/sweep_suite.py runs 0-11.
    rules = JIGSAW.parse_rules({"diagonal": True}, 7)
    p = JIGSAW.generate(7, rules, Level.HARD, rng_for(derive_seed(7, 2, index)))
    assert JIGSAW.validate(p) == [] and JIGSAW.solutions(p, 2) == [p.solution]
    assert len({p.solution[k][k] for k in range(7)}) == 7 == len({p.solution[k][6 - k] for k in range(7)})
    assert "Both long diagonals" in " ".join(JIGSAW.rules_for(p.rules))


def test_a_diagonal_6x6_expert_is_refused_where_the_config_asks_for_it(write_config):
    """It failed on every seed measured, after 32-35 s of CPU each, and 5x5 hard on 3 of 7
    (docs/estimates.md): a located config error, not a build that runs half a minute a puzzle
    and then fails."""
    from bookgen.config import ConfigError, load_book

    diagonal = JIGSAW.parse_rules({"diagonal": True}, 6)
    assert "never harder than hard" in JIGSAW.check_request(6, diagonal, Level.EXPERT)
    assert JIGSAW.check_request(6, diagonal, Level.HARD) is None
    assert "never harder than medium" in JIGSAW.check_request(5, JIGSAW.parse_rules({"diagonal": True}, 5), Level.HARD)
    assert JIGSAW.check_request(5, JIGSAW.parse_rules({}, 5), Level.HARD) is None
    assert JIGSAW.check_request(6, JIGSAW.parse_rules({}, 6), Level.EXPERT) is None  # the plain grid still reaches it
    assert JIGSAW.check_request(7, JIGSAW.parse_rules({"diagonal": True}, 7), Level.EXPERT) is None
    text = ("title: J\nsections:\n  - variant: jigsaw\n    size: 6\n    count: 2\n    difficulty: expert\n"
            "    rules: {diagonal: true}\n")
    with pytest.raises(ConfigError) as info:
        load_book(write_config(text))
    (issue,) = [str(i) for i in info.value.issues]
    assert "book.yaml:7:23" in issue and "6\u00d76 Jigsaw Sudoku with diagonals is never harder than hard" in issue
