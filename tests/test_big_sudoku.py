"""12x12 and 16x16 Sudoku: symbols above 9 (A = 10 .. G = 16 in strings, numbers in print),
the bit-mask engine at 16 digits, text and JSON formats, fingerprints."""

from __future__ import annotations

import pytest

from bookgen.book import check_puzzle, puzzle_json
from bookgen.core.difficulty import Level
from bookgen.core.pen import CAP_HEIGHT, RecordingPen, bold_ink
from bookgen.core.rng import derive_seed, rng_for
from bookgen.core.symmetry import moved_rows, symmetries
from bookgen.core.text import PuzzleTextError
from bookgen.puzzletext import parse_text as parse_puzzle_text
from bookgen.solve.houses import geometry, random_filling, run_ladder
from bookgen.solve.latin import SYMBOLS, full_mask, symbol, symbols, value
from bookgen.variants.housegrid import DIGIT_CAP, printed
from bookgen.variants.sudoku import SUDOKU


def test_symbols_round_trip_and_match_the_plain_spelling():
    # the plain version: digits as decimal numbers, 10.. as letters from A
    plain = [str(d) if d < 10 else chr(ord("A") + d - 10) for d in range(1, 17)]
    assert [symbol(d) for d in range(1, 17)] == plain
    assert [value(ch) for ch in plain] == list(range(1, 17))
    assert value(".") == value("a") == value("H") == value("0") == 0
    assert symbols(12) == "123456789ABC" and SYMBOLS == "".join(plain)
    assert full_mask(16) == sum(1 << (d - 1) for d in range(1, 17))
    assert [printed(ch) for ch in "9AG."] == ["9", "10", "16", "."]


@pytest.fixture(scope="module")
def big():
    rules = SUDOKU.parse_rules({}, 16)
    return SUDOKU.generate(16, rules, Level.EASY, rng_for(derive_seed(16, 0, 0)))


def test_a_16x16_is_unique_graded_and_spelled_with_letters(big):
    assert big.rules["box"] == (4, 4)
    assert set("".join(big.solution)) == set(SYMBOLS)
    assert SUDOKU.validate(big) == [] and SUDOKU.solutions(big, 2) == [big.solution]
    grade = SUDOKU.grade(big)
    assert grade.solved and grade.level == Level.EASY
    entry = puzzle_json(1, big, page=1)
    assert entry["rules"]["box"] == [4, 4] and check_puzzle(entry) == []
    back = SUDOKU.from_json(entry)
    assert back.givens == big.givens and back.solution == big.solution
    # lower-case letters are not symbols of the format
    with pytest.raises(ValueError):
        SUDOKU.from_json(dict(entry, givens=[row.lower() for row in entry["givens"]]))


def test_the_engine_fills_and_solves_16_digits():
    geo = geometry(16, (4, 4))
    sol = random_filling(geo, rng_for(derive_seed(16, 1, 0)), 20000)
    assert sol is not None and sorted(sol[:16]) == list(range(1, 17))
    res = run_ladder(geo, [(i, d) for i, d in enumerate(sol) if i % 5], Level.EASY)
    assert res.solved and "".join(res.grid) == "".join(symbol(d) for d in sol)


def test_the_page_prints_numbers_that_fit_their_cells(big):
    pen = RecordingPen()
    SUDOKU.draw(pen, big, solved=True)
    texts = [op for op in pen.ops if op[0] == "text"]
    shown = {op[3] for op in texts}
    assert shown == {str(d) for d in range(1, 17)}  # 10..16 as numbers, never letters
    size = DIGIT_CAP / CAP_HEIGHT
    widest = max(bold_ink(s) for s in shown) * size
    assert widest < 0.75  # two digits leave an eighth of the cell on each side
    assert min(op[4] for op in texts) / CAP_HEIGHT >= SUDOKU.smallest_type(16, big.rules) - 1e-9


def test_the_fingerprint_relabels_letters_too(big):
    entry = puzzle_json(1, big, page=1)
    swap = str.maketrans("1G", "G1")
    turned = moved_rows(big.givens, symmetries(16)[1])
    other = SUDOKU.from_json(dict(entry, givens=[row.translate(swap) for row in turned],
                                  solution=list(moved_rows(big.solution, symmetries(16)[1]))))
    assert SUDOKU.fingerprint(other) == SUDOKU.fingerprint(big)


def test_text_reads_letters_and_locates_bad_ones(big):
    text = SUDOKU.to_text(big)
    back = parse_puzzle_text(text, "big.txt")
    assert back.givens == big.givens
    head, grid = text.split("\n", 1)
    assert "G" in grid  # 123 givens of 16 symbols: every symbol is given somewhere
    with pytest.raises(PuzzleTextError, match="unknown symbol 'H'"):
        parse_puzzle_text(head + "\n" + grid.replace("G", "H", 1), "big.txt")
    small = "sudoku\n12.4\n3.G.\n....\n....\n"
    with pytest.raises(PuzzleTextError, match=r"big.txt:3:1: digit 16 in a 4\u00d74 Sudoku"):
        parse_puzzle_text(small, "big.txt")


def test_a_12x12_reaches_expert(index=1):
    # Index 1 takes 0.13 s, indices 0-9 0.13-0.39 s; bench/sweep_suite.py runs 0-11.
    rules = SUDOKU.parse_rules({}, 12)
    assert SUDOKU.check_request(12, rules, Level.EXPERT) is None
    p = SUDOKU.generate(12, rules, Level.EXPERT, rng_for(derive_seed(12, 3, index)))
    assert p.rules["box"] == (3, 4) and SUDOKU.grade(p).level == Level.EXPERT
    assert SUDOKU.solutions(p, 2) == [p.solution]
