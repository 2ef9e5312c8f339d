"""Nonogram: the line solver's fast paths against the listing, the easy tier's soundness, an
independent solution count against the generator's uniqueness, text, JSON and fingerprints."""

from __future__ import annotations

import random

import pytest

from bookgen.core.difficulty import Level
from bookgen.core.pen import RecordingPen
from bookgen.core.text import PuzzleTextError
from bookgen.puzzletext import parse_text
from bookgen.solve import nonogram as engine
from bookgen.variants.registry import get_variant

NONOGRAM = get_variant("picross")


def _line_states(n: int, rng: random.Random, per_clue: int):
    """(clue, known, value) for every clue of an n-cell line, with random known cells."""
    for bits in range(1 << n):
        clue = engine.runs_of(bits, n)
        for _ in range(per_clue):
            known = rng.getrandbits(n)
            yield clue, known, rng.getrandbits(n) & known


def test_runs_of_reads_every_line():
    for n in range(1, 13):
        for bits in range(1 << n):
            text = "".join(str((bits >> j) & 1) for j in range(n))
            assert engine.runs_of(bits, n) == tuple(len(run) for run in text.split("0") if run), text
            assert engine.line_bits(text) == bits


def test_settle_agrees_with_the_listing():
    rng = random.Random(1)
    checked = 0
    for n in range(1, 9):
        for clue, known, value in _line_states(n, rng, 3):
            assert engine.settle_fast(clue, n, known, value) == engine.settle_plain(clue, n, known, value), \
                (clue, n, known, value)
            checked += 1
    found = 0
    for _ in range(300):  # long lines: known cells from the line's own filling (some news) or at random
        n = rng.randint(9, 18)
        bits = rng.getrandbits(n) & rng.getrandbits(n) | rng.getrandbits(n) & rng.getrandbits(n)
        known = rng.getrandbits(n) & rng.getrandbits(n)
        value = (bits if rng.random() < 0.8 else rng.getrandbits(n)) & known
        clue = engine.runs_of(bits, n)
        got = engine.settle_fast(clue, n, known, value)
        assert got == engine.settle_plain(clue, n, known, value), (clue, n, known, value)
        found += bool(got and got[0] | got[1])
    assert checked > 1000 and found > 100


def _push_plain(clue, n, filled, empty):
    """Runs pushed left one after another, a cell at a time: the player's count."""
    out, pos = [], 0
    for length in clue:
        s = pos
        while s + length <= n and (any((empty >> x) & 1 for x in range(s, s + length))
                                   or (s + length < n and (filled >> (s + length)) & 1)):
            s += 1
        if s + length > n:
            return None
        out.append(s)
        pos = s + length + 1
    return out


def test_the_push_is_the_players():
    rng = random.Random(4)
    flip = lambda bits, n: sum(1 << (n - 1 - j) for j in range(n) if (bits >> j) & 1)
    for _ in range(3000):
        n = rng.randint(1, 20)
        bits = rng.getrandbits(n) & rng.getrandbits(n)
        clue = engine.runs_of(bits, n)
        known = rng.getrandbits(n)
        value = (bits if rng.random() < 0.7 else rng.getrandbits(n)) & known
        filled, empty = value & known, known & ~value
        left = _push_plain(clue, n, filled, empty)
        right = _push_plain(clue[::-1], n, flip(filled, n), flip(empty, n))
        want = None if left is None or right is None else \
            (left, [n - s - length for s, length in zip(right, clue[::-1])][::-1])
        assert engine._pushes(clue, n, filled, empty) == want, (clue, n, known, value)


def test_overlap_is_sound_and_weaker_than_the_whole_line():
    rng = random.Random(2)
    found = 0
    for n in range(1, 8):
        for clue, known, value in _line_states(n, rng, 4):
            easy = engine.overlap_news(clue, n, known, value)
            whole = engine.settle_plain(clue, n, known, value)
            if whole is None:
                continue  # the easy tier may or may not see a contradiction
            assert easy is not None, (clue, n, known, value)
            assert easy[0] & ~whole[0] == 0 and easy[1] & ~whole[1] == 0, (clue, n, known, value, easy, whole)
            found += bool(easy[0] | easy[1])
    assert found > 100  # it does find things


def test_the_line_cnf_has_the_fillings_as_models():
    from bookgen.solve.sat import models

    for n in range(1, 9):
        cells = list(range(1, n + 1))
        for clue in {engine.runs_of(bits, n) for bits in range(1 << n)}:
            clauses = [c for part in engine._renumbered(clue, cells, [-v for v in reversed(cells)], n) for c in part]
            found = models(clauses, cells, limit=1 << n)
            assert {sum(1 << (v - 1) for v in model) for model in found} == set(engine.fillings(clue, n)), clue


def test_load_is_append_formula():
    from bookgen.solve.sat import SOLVER_NAME, Solver, load

    rng = random.Random(11)
    for _ in range(20):
        grid = tuple("".join(rng.choice("01") for _ in range(4)) for _ in range(4))
        clauses, cells = engine.sat_clauses(engine.Puzzle(*engine.clues_of(grid)))
        found = []
        for add in (load, lambda solver, cnf: solver.append_formula(cnf)):
            with Solver(name=SOLVER_NAME) as solver:
                add(solver, clauses)
                models = []
                while solver.solve():
                    model = [v for v in solver.get_model() if abs(v) <= cells]
                    models.append(sorted(model))
                    solver.add_clause([-v for v in model])
                found.append(sorted(models))
        assert found[0] == found[1] and found[0]


def test_sat_unique_is_the_count_of_one():
    rng = random.Random(9)
    unique = 0
    for _ in range(60):
        rows, cols = rng.choice([(3, 4), (4, 4), (5, 4)])
        grid = tuple("".join(rng.choice("01") for _ in range(cols)) for _ in range(rows))
        puzzle = engine.Puzzle(*engine.clues_of(grid))
        assert engine.sat_unique(puzzle, grid) == (engine.sat_solutions(puzzle) == [grid])
        unique += engine.sat_unique(puzzle, grid)
        wrong = (str(1 - int(grid[0][0])) + grid[0][1:],) + grid[1:]  # not a solution: no count of one
        assert not engine.sat_unique(puzzle, wrong)
    assert 10 < unique < 50


def test_the_line_memo_answers_as_the_plain_walk():
    solver = engine.LineSolver()
    clue, n = (3, 1), 7
    got = solver.answer(1, clue, n, 0b0000010, 0b0000010)
    ones, zeros = engine.settle_fast(clue, n, 0b0000010, 0b0000010)
    assert got == ones << n | zeros and solver.answer(1, clue, n, 0b0000010, 0b0000010) == got
    assert solver.answer(1, (3,), 3, 0b010, 0) == -1  # the middle cell can't be empty


def _independent_count(row_clues, col_clues, limit=2):
    """Solutions counted row by row, each row from every subset of its cells with its runs,
    columns checked at the end: shares no code with the engine."""
    rows, cols = len(row_clues), len(col_clues)

    def runs(cells):
        out, run = [], 0
        for x in cells:
            if x:
                run += 1
            elif run:
                out.append(run)
                run = 0
        return out + [run] if run else out

    options = [[bits for bits in range(1 << cols) if runs([(bits >> c) & 1 for c in range(cols)]) == list(clue)]
               for clue in row_clues]
    count = 0

    def go(r, chosen):
        nonlocal count
        if count >= limit:
            return
        if r == rows:
            if all(runs([(chosen[i] >> c) & 1 for i in range(rows)]) == list(col_clues[c]) for c in range(cols)):
                count += 1
            return
        for bits in options[r]:
            go(r + 1, chosen + [bits])

    go(0, [])
    return count


def test_an_independent_count_agrees_with_the_sat_proof_and_the_ladder():
    rng = random.Random(7)
    unique = several = 0
    for _ in range(300):
        rows, cols = rng.choice([(3, 4), (4, 4), (4, 3), (4, 5)])
        grid = tuple("".join(rng.choice("01") for _ in range(cols)) for _ in range(rows))
        row_clues, col_clues = engine.clues_of(grid)
        puzzle = engine.Puzzle(row_clues, col_clues)
        count = _independent_count(row_clues, col_clues)
        assert len(engine.sat_solutions(puzzle)) == count
        res = engine.ladder(puzzle)
        if res.solved:  # a ladder that fills the grid proves it unique
            assert count == 1 and res.grid == grid
        unique += count == 1
        several += count > 1
    assert unique > 50 and several > 50


def test_generated_puzzles_are_unique_by_the_independent_count():
    for level in (Level.EASY, Level.MEDIUM):
        for seed in range(3):
            puzzle = NONOGRAM.generate(5, {}, level, random.Random(seed))
            assert _independent_count(puzzle.clues.left, puzzle.clues.top) == 1
            assert puzzle.grade.level == level


def test_styles_shape_the_picture():
    rng = random.Random(3)
    mirrored = engine.picture(8, 9, "symmetric", 0.5, rng)
    assert all(row == row[::-1] for row in mirrored)
    noise, blobs = engine.picture(20, 20, "random", 0.5, random.Random(4)), engine.picture(20, 20, "blobs", 0.5, random.Random(4))

    def joins(grid):  # equal neighbours: clumped pictures have more
        return sum(grid[r][c] == grid[r][c + 1] for r in range(20) for c in range(19))

    assert joins(blobs) > joins(noise) + 40


def test_text_round_trip_and_errors():
    puzzle = NONOGRAM.generate(6, {"style": "blobs"}, Level.EASY, random.Random(1))
    back = parse_text(NONOGRAM.to_text(puzzle), "p.txt")
    assert back.clues == puzzle.clues and back.rules == puzzle.rules
    assert NONOGRAM.solutions(back) == [puzzle.solution]
    assert parse_text("rows:\n1\n1\n1\n1\n1\ncolumns:\n5\n0\n0\n0\n0\n", "x.txt").variant == "nonogram"
    with pytest.raises(PuzzleTextError, match=r"x.txt:3:3: 'a'"):
        parse_text("nonogram\nrows:\n1 a\n", "x.txt")
    with pytest.raises(PuzzleTextError, match="don't fit a row of 5"):
        parse_text("nonogram\nrows:\n3 3\n1\n1\n1\n1\ncolumns:\n1\n1\n1\n1\n1\n", "x.txt")
    lines = NONOGRAM.text_lines(puzzle, puzzle.solution, ascii=True)
    assert sum(line.count("#") for line in lines) == sum(row.count("1") for row in puzzle.solution)


def test_fingerprint_keeps_mirrors_and_turns_not_colours_or_transposes_of_rectangles():
    grid = ("11000", "10000", "00001")
    other = ("00111", "01111", "11110")  # the colours swapped
    make = lambda g, size: NONOGRAM._puzzle(size, {"style": "random"}, tuple("." * len(g[0]) for _ in g), g,
                                            *engine.clues_of(g))
    base = make(grid, (3, 5))
    mirrored = make(tuple(row[::-1] for row in grid), (3, 5))
    turned = make(tuple(row[::-1] for row in grid[::-1]), (3, 5))
    assert NONOGRAM.fingerprint(base) == NONOGRAM.fingerprint(mirrored) == NONOGRAM.fingerprint(turned)
    assert NONOGRAM.fingerprint(base) != NONOGRAM.fingerprint(make(other, (3, 5)))
    square = ("1100", "1000", "0000", "0001")
    transposed = tuple("".join(col) for col in zip(*square))
    assert NONOGRAM.fingerprint(make(square, 4)) == NONOGRAM.fingerprint(make(transposed, 4))


def test_json_rejects_clues_that_do_not_fit():
    puzzle = NONOGRAM.generate(5, {}, Level.EASY, random.Random(2))
    entry = {"variant": "nonogram", "size": 5, "givens": list(puzzle.givens), "solution": list(puzzle.solution),
             **NONOGRAM.to_json(puzzle)}
    assert NONOGRAM.from_json(entry).clues == puzzle.clues
    entry["clues"] = {"rows": [[3, 3]] + entry["clues"]["rows"][1:], "cols": entry["clues"]["cols"]}
    with pytest.raises(ValueError, match="clues.rows"):
        NONOGRAM.from_json(entry)


def test_the_key_is_the_picture_and_the_page_has_every_clue():
    puzzle = NONOGRAM.generate(10, {}, Level.EASY, random.Random(5))
    key = RecordingPen(key=True)
    NONOGRAM.draw(key, puzzle, solved=True)
    filled = [op for op in key.ops if op[0] == "rect" and op[5] == 0.0]
    assert len(filled) == sum(row.count("1") for row in puzzle.solution) and not key.texts()
    page = RecordingPen()
    NONOGRAM.draw(page, puzzle)
    runs = sum(max(len(c), 1) for c in puzzle.clues.left) + sum(max(len(c), 1) for c in puzzle.clues.top)
    assert len(page.texts()) == runs
    ext = NONOGRAM.extent(puzzle.size, puzzle.rules)
    xs = [op[1] for op in page.ops if op[0] == "text"]
    ys = [op[2] for op in page.ops if op[0] == "text"]
    assert min(xs) > -ext.left and min(ys) > -ext.top


def test_requests_out_of_reach_are_refused():
    assert "never harder than medium" in NONOGRAM.check_request(5, {}, Level.HARD)
    assert NONOGRAM.check_request(26, {}, Level.EASY)
    with pytest.raises(ValueError, match="style must be one of"):
        NONOGRAM.parse_rules({"style": "wavy"}, 10)


def test_text_art_is_read_with_its_mistakes_located():
    # (a picture made a puzzle, givens and all: tests/test_pictures.py)
    assert engine.read_text_art("\n#....\n.#...\n") == ("10000", "01000")
    with pytest.raises(ValueError, match="2:3: '@'"):
        engine.read_text_art("##\n.#@\n")
