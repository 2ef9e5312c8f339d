"""Star Battle and Queens: the engine's fast paths against their plain versions, an
independent solution count, the text format, fingerprints, refusals and the drawing."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from conftest import examples

from bookgen.core.difficulty import Level
from bookgen.core.pen import BOLD, RecordingPen
from bookgen.core.symmetry import moved_rows, symmetries
from bookgen.core.text import PuzzleTextError, TextLine
from bookgen.solve import stars
from bookgen.variants.regions import region_rows
from bookgen.variants.registry import get_variant
from bookgen.variants.starbattle import pattern_of

SB, QUEENS = get_variant("starbattle"), get_variant("queens")


@pytest.fixture(scope="module")
def two_star():
    """A two-star 8x8 puzzle (hard), which the contract's one-star default doesn't cover."""
    return SB.generate(8, {"stars": 2}, Level.HARD, random.Random("two-star"))


# ----- an independent count: brute force, sharing nothing with the engine -----------------

def brute_count(regions: list[str], k: int, givens: list[str] | None = None, limit: int = 2) -> int:
    """Solutions of a Star Battle by plain backtracking row by row (k stars a row, then the
    columns, regions and touching checked on tuples), up to ``limit``."""
    n = len(regions)
    rows_options = []
    for r in range(n):
        opts = []
        for cols in _combos(n, k):
            if any(b - a < 2 for a, b in zip(cols, cols[1:])):
                continue
            if givens and any((givens[r][c] == "1") != (c in cols) for c in range(n) if givens[r][c] != "."):
                continue
            opts.append(cols)
        rows_options.append(opts)
    found = 0

    def go(r, prev, col_count, reg_count):
        nonlocal found
        if found >= limit:
            return
        if r == n:
            if all(v == k for v in col_count.values()) and all(v == k for v in reg_count.values()):
                found += 1
            return
        for cols in rows_options[r]:
            if any(abs(c - p) <= 1 for c in cols for p in prev):
                continue
            cc, rc = dict(col_count), dict(reg_count)
            for c in cols:
                cc[c] = cc.get(c, 0) + 1
                rc[regions[r][c]] = rc.get(regions[r][c], 0) + 1
            if max(cc.values()) > k or max(rc.values()) > k:
                continue
            go(r + 1, cols, cc, rc)

    go(0, (), {}, {})
    return found


def _combos(n, k):
    if k == 0:
        return [()]
    return [(a,) + rest for a in range(n) for rest in _combos(n, k - 1) if not rest or rest[0] > a]


def _random_puzzle(n, k, rng, mend_rounds):
    """Regions grown around a random star placement, mended for ``mend_rounds`` rounds
    (0: as grown, usually several solutions)."""
    while True:
        star = stars.random_stars(n, k, rng)
        regions = stars.grow_regions(n, k, star, rng)
        if regions is None:
            continue
        if mend_rounds:
            regions = stars.mend(n, k, star, regions, rng, mend_rounds) or regions
        return region_rows(regions, n)


def test_sat_count_agrees_with_brute_force_on_random_small_puzzles():
    rng = random.Random(23)
    agree = {1: 0, 2: 0}  # unique / not unique
    tries = examples(120)  # (240 before: bench/sweep_suite.py)
    for trial in range(tries):
        n = rng.choice((5, 6))
        rows = _random_puzzle(n, 1, rng, rng.choice((0, 0, 15)))
        puzzle = SB.from_json({"size": n, "rules": {"stars": 1}, "givens": ["." * n] * n,
                               "solution": ["." * n] * n, "regions": list(rows)})
        sat = len(SB.solutions(puzzle, 2))
        assert sat == brute_count(list(rows), 1), rows
        agree[1 if sat == 1 else 2] += 1
    assert agree[1] >= tries // 8 and agree[2] >= tries // 8, agree  # both kinds were tried


def test_sat_count_agrees_with_brute_force_on_two_star_grids():
    rng = random.Random(5)
    for trial in range(12):
        rows = _random_puzzle(8, 2, rng, rng.choice((0, 30)))
        lay = stars.layout(8, 2, stars.canonical(_regions(rows)))
        assert len(stars.count(lay, (), 2)) == brute_count(list(rows), 2)


def _regions(rows):
    found = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            found.setdefault(ch, []).append(r * len(rows) + c)
    return list(found.values())


def test_generated_puzzles_are_unique_by_brute_force():
    for level in (Level.EASY, Level.HARD):
        puzzle = SB.generate(6, {"stars": 1}, level, random.Random(f"bf-{level.key}"))
        assert brute_count(list(puzzle.regions), 1) == 1
    assert brute_count(list(QUEENS.generate(5, {}, Level.MEDIUM, random.Random(3)).regions), 1) == 1


# ----- fast paths against their plain versions ---------------------------------------------

def test_block_cover_bits_equal_the_plain_cover():
    rng = random.Random(1)
    for _ in range(400):
        n = rng.randrange(3, 13)
        cells = {(r, c) for r in range(n) for c in range(n) if rng.random() < rng.random()}
        mask = sum(1 << (r * n + c) for r, c in cells)
        assert stars.block_cover(mask, n) == stars.block_cover_plain(cells, n)


def test_squeeze_on_nearby_units_equals_looking_at_every_unit():
    rng = random.Random(2)
    checked = 0
    for _ in range(60):
        n, k = rng.choice(((6, 1), (8, 1), (8, 2), (10, 2)))
        rows = _random_puzzle(n, k, rng, 0)
        lay = stars.layout(n, k, stars.canonical(_regions(rows)))
        st = stars.State()
        for i in rng.sample(range(n * n), rng.randrange(0, n * n // 2)):
            if not (st.star | st.out) >> i & 1:
                if rng.random() < 0.15 and not lay.halo[i] & st.star:
                    st.star |= 1 << i
                else:
                    st.out |= 1 << i
        for capacity, bands in ((int.bit_count, False), (lambda m: stars.block_cover(m, n), True)):
            try:
                fast = stars._squeezed(lay, st, capacity, bands)
            except stars.Contradiction:
                fast = "contradiction"
            try:
                plain = stars._squeezed_plain(lay, st, capacity, bands)
            except stars.Contradiction:
                plain = "contradiction"
            assert fast == plain
            checked += 1
    assert checked == 120


# ----- the variant ---------------------------------------------------------------------------

def test_two_star_puzzle_keeps_the_contract(two_star):
    p = two_star
    assert SB.solutions(p) == [p.solution] and SB.validate(p) == []
    grade = SB.grade(p)
    assert grade.solved and grade.level == Level.HARD and grade.score == p.grade.score
    assert all(row.count("1") == 2 for row in p.solution)
    steps, reached, solved = SB.explain(p)
    assert solved and reached == p.solution
    assert {t.name for t in SB.techniques_for(p.rules)} >= set(grade.techniques)
    assert "two_by_two" in {t.name for t in SB.techniques_for(p.rules)}
    assert "two_by_two" not in {t.name for t in SB.techniques_for({"stars": 1})}
    assert "two stars" in SB.rules_for(p.rules)[0]


def test_two_star_expert_needs_one_trial(seed="two-star-expert-5"):
    # This seed generates in 0.05 s ("two-star-expert" and -1 to -9 in 0.04-0.28 s);
    # bench/sweep_suite.py runs "two-star-expert" and -1 to -11.
    p = SB.generate(8, {"stars": 2}, Level.EXPERT, random.Random(seed))
    assert SB.solutions(p) == [p.solution]
    grade = SB.grade(p)
    assert grade.solved and grade.level == Level.EXPERT and grade.techniques.get("trial", 0) >= 1


def test_two_star_medium_on_8x8_needs_no_two_by_two():
    """15% of two-star 8x8 layouts grade medium (squeezes only): the request is accepted."""
    p = SB.generate(8, {"stars": 2}, Level.MEDIUM, random.Random("two-star-medium"))
    assert SB.solutions(p) == [p.solution]
    grade = SB.grade(p)
    assert grade.solved and grade.level == Level.MEDIUM and "two_by_two" not in grade.techniques


def test_validate_names_what_is_broken(two_star):
    p = two_star
    bad = list(p.solution)
    bad[0] = "1" * 8
    assert any("row 1 has 8 stars" in m for m in SB.validate(replace(p, solution=tuple(bad))))
    merged = tuple(row.replace("B", "A") for row in p.regions)
    assert "there must be 8 regions" in SB.validate(replace(p, regions=merged))[0]


def test_fingerprint_follows_the_grid_and_ignores_letters(two_star):
    p = two_star
    for move in symmetries(8):
        turned = replace(p, regions=tuple(region_rows(_regions(moved_rows(p.regions, move)), 8)),
                         givens=tuple(moved_rows(p.givens, move)))
        assert SB.fingerprint(turned) == SB.fingerprint(p)
    relettered = replace(p, regions=tuple(row.swapcase() for row in p.regions))
    assert SB.fingerprint(relettered) == SB.fingerprint(p)
    other = SB.generate(8, {"stars": 2}, Level.HARD, random.Random("other"))
    assert SB.fingerprint(other) != SB.fingerprint(p)
    queen = replace(p, variant="queens")
    assert QUEENS.fingerprint(queen) != SB.fingerprint(p)


def _lines(text):
    return [TextLine(i + 1, line) for i, line in enumerate(text.splitlines()) if line.strip()]


def test_text_round_trip_and_located_errors(two_star):
    p = two_star
    text = SB.to_text(p)
    assert text.startswith("starbattle stars=2\n")
    head, *body = _lines(text)
    back = SB.parse_text(body, {"stars": 2}, head, "p.txt")
    assert back.regions == p.regions and back.givens == p.givens
    with_givens = SB.to_text(replace(p, givens=("1" + "." * 7,) + ("." * 8,) * 7))
    head, *body = _lines(with_givens)
    assert SB.parse_text(body, {"stars": 2}, head, "p.txt").givens[0][0] == "1"
    # a region split in two: the stray cell is named by line and column
    rows = [list(row) for row in p.regions]
    far = next((r, c) for r in range(8) for c in range(8) if rows[r][c] != rows[0][0]
               and all(rows[rr][cc] != rows[0][0] for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                       if 0 <= rr < 8 and 0 <= cc < 8))
    rows[far[0]][far[1]] = rows[0][0]
    broken = "\n".join(" ".join(row) for row in rows)
    with pytest.raises(PuzzleTextError) as err:
        SB.parse_text(_lines(broken), {"stars": 2}, None, "p.txt")
    assert str(err.value).startswith(f"p.txt:{far[0] + 1}:{2 * far[1] + 1}: region")
    with pytest.raises(PuzzleTextError, match=r"p.txt:9:3: unknown symbol '\?'"):
        SB.parse_text(_lines("\n".join(" ".join(r) for r in p.regions) + "\n. ? . . . . . .\n" +
                             "\n".join([". " * 8] * 7)), {"stars": 2}, None, "p.txt")


def test_rules_and_refusals():
    assert SB.parse_rules({}, 8) == {"stars": 1} and SB.parse_rules({}, 12) == {"stars": 2}
    with pytest.raises(ValueError, match="stars: 2 fits grids of 8"):
        SB.parse_rules({"stars": 2}, 6)
    with pytest.raises(ValueError, match="stars must be 1 or 2"):
        SB.parse_rules({"stars": 3}, 8)
    with pytest.raises(ValueError, match="stars must be 1"):
        QUEENS.parse_rules({"stars": 2}, 8)
    assert "never easier than medium" in SB.check_request(8, {"stars": 2}, Level.EASY)
    assert SB.check_request(8, {"stars": 2}, Level.MEDIUM) is None
    assert "never easier than hard" in SB.check_request(9, {"stars": 2}, Level.MEDIUM)
    assert SB.check_request(11, {"stars": 2}, Level.HARD) is None
    assert "bounded time" in SB.check_request(12, {"stars": 2}, Level.EXPERT)
    assert QUEENS.check_request(7, {"stars": 1}, Level.EXPERT) is None


def test_a_refused_request_is_a_located_config_error(write_config):
    from bookgen.config import ConfigError, load_book

    path = write_config("title: T\nsections:\n  - variant: starbattle\n    size: 9\n    rules: {stars: 2}\n"
                        "    count: 2\n    difficulty: easy\n")
    with pytest.raises(ConfigError) as err:
        load_book(path)
    assert re.search(r"book\.yaml:\d+:\d+: a 9\u00d79 Star Battle with 2 stars is never easier than hard", str(err.value))


def test_queens_tints_each_region_and_neighbours_never_share_a_pattern():
    p = QUEENS.generate(7, {}, Level.EASY, random.Random(9))
    pen = RecordingPen()
    QUEENS.draw(pen, p)
    tints = {op[5] for op in pen.ops if op[0] == "rect" and isinstance(op[5], tuple)}
    assert len(tints) == 7  # one colour a region
    patterns = pattern_of(p.regions)
    letters = sorted({ch for row in p.regions for ch in row})
    for r in range(7):
        for c in range(6):
            a, b = p.regions[r][c], p.regions[r][c + 1]
            if a != b:
                assert patterns[letters.index(a)] != patterns[letters.index(b)]
            a, b = p.regions[c][r], p.regions[c + 1][r]
            if a != b:
                assert patterns[letters.index(a)] != patterns[letters.index(b)]
    assert any(op[-1] == BOLD for op in pen.ops if op[0] == "line")  # walls too
    key = RecordingPen(key=True)
    QUEENS.draw(key, p, solved=True)
    crowns = [op for op in key.ops if op[0] == "polygon" and len(op[1]) == 7]
    assert len(crowns) == 7  # a crown per queen, drawn as a shape, not a font glyph
    assert not [op for op in key.ops if op[0] == "text"]
