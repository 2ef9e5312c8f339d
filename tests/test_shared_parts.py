"""The pieces several variants share instead of each keeping a copy: givens against the
solution, cage partitions, rule options, how-to technique tables, a text grid of givens."""

from __future__ import annotations

import pytest

from bookgen.core.difficulty import Level
from bookgen.core.text import PuzzleTextError, TextLine
from bookgen.core.types import EMPTY, Cage, Puzzle
from bookgen.core.variant import Technique, VariantDefaults, rule_options, techniques_of
from bookgen.solve.houses import Ladder, Tech
from bookgen.variants.gridparts import and_givens, cage_problems, given_count, given_problems
from bookgen.variants.regions import read_givens
from bookgen.variants.killer import KILLER


def test_given_problems_names_each_disagreeing_given_and_skips_empty_cells():
    givens = ("1" + EMPTY + "3", EMPTY * 3, "2" + EMPTY * 2)
    solution = ("123", "231", "312")
    assert given_problems(givens, solution) == [
        "given 2 at row 3, column 1 disagrees with the solution"]
    assert given_problems(("1..", "...", "3.."), solution) == []
    assert given_count(givens) == 3


def test_and_givens_adds_the_givens_only_when_there_are_some():
    assert and_givens("12 cages", 0) == ["12 cages"]
    assert and_givens("12 cages", 3) == ["12 cages", "3 givens"]


def test_cage_problems_keeps_the_cages_order_and_asks_the_variant_about_each():
    cages = (Cage(((0, 0), (0, 1)), "+", 3), Cage(((0, 1), (1, 1)), "+", 9), Cage(((1, 0), (2, 2)), "+", 4))
    asked = []

    def own(cage: Cage, where: str) -> list[str]:
        asked.append(where)
        return [f"own {where}"] if cage.target == 9 else []

    assert cage_problems(cages, 3, own) == [
        "cell (1,2) is in two cages",
        "own (1,2),(2,2)",
        "cage at (2,1),(3,3) is not connected",
        "cages miss 4 cell(s), e.g. (1,3)",
    ]
    assert asked == ["(1,1),(1,2)", "(1,2),(2,2)", "(2,1),(3,3)"]


def test_killer_cage_problems_add_the_sums_a_cage_cannot_make():
    n = 4
    cages = [Cage(((r, 0), (r, 1)), "", 2) for r in range(n)] + [Cage(((r, 2), (r, 3)), "", 5) for r in range(n)]
    puzzle = Puzzle("killer", n, KILLER.parse_rules({}, n), ("....",) * n, ("1234", "3412", "2143", "4321"),
                    cages=tuple(cages))
    problems = KILLER.validate(puzzle)
    assert KILLER.malformed(puzzle) and KILLER.solutions(puzzle) == [] and not KILLER.grade(puzzle).solved
    assert "cage at (1,1),(1,2): 2 different digits can't add up to 2" in problems


def test_rule_options_refuses_what_is_no_mapping_and_names_the_first_unknown_option():
    assert rule_options(None, "Sudoku", ("diagonal",), "diagonal") == {}
    assert rule_options({"diagonal": True}, "Sudoku", ("diagonal",), "diagonal") == {"diagonal": True}
    with pytest.raises(ValueError, match="^Sudoku rules must be a mapping of options$"):
        rule_options([1], "Sudoku", ("diagonal",), "diagonal")
    with pytest.raises(ValueError, match=r"^unknown Sudoku rule option 'b'; expected diagonal \(or box\)$"):
        rule_options({"c": 1, "b": 2, "diagonal": 1}, "Sudoku", ("diagonal",), "diagonal (or box)")


def test_techniques_of_keeps_the_table_order_and_leaves_out_what_it_is_told():
    text = {"b": ("B", "the b"), "a": ("A", "the a"), "c": ("C", "the c")}
    levels = {"a": Level.EASY, "b": Level.HARD, "c": Level.MEDIUM}
    assert techniques_of(text, levels, leave_out=("c",)) == (
        Technique("b", Level.HARD, "B", "the b"), Technique("a", Level.EASY, "A", "the a"))


def _nothing(g, st, run) -> int:
    return 0


def test_a_ladder_explains_its_rows_once_and_a_variant_naming_it_reads_them():
    ladder = Ladder(Tech("b", Level.EASY, _nothing, 0.5, 1.2, title="B", description="the b"),
                    Tech("a", Level.MEDIUM, _nothing, 2.0),  # worded by each variant: no text here
                    Tech("c", Level.HARD, _nothing, 4.0, 3.6, title="C", description="the c"))
    assert ladder.explained == (Technique("b", Level.EASY, "B", "the b"), Technique("c", Level.HARD, "C", "the c"))

    class Named(VariantDefaults):
        name = "named"

    Named.ladder = ladder
    assert Named().techniques == Named().techniques_for({}) == ladder.explained
    assert Named().rating_table == {"b": 1.2, "a": None, "c": 3.6}
    assert VariantDefaults().rating_table == {}


def test_a_variant_shows_the_texts_its_ladder_carries():
    from bookgen.variants.registry import VARIANTS
    for variant in VARIANTS.values():
        ladder = getattr(variant, "ladder", None)
        if ladder is not None and variant.name != "queens":  # Queens re-words Star Battle's rows
            assert set(ladder.explained) <= set(variant.techniques), variant.name


def test_read_givens_maps_each_symbol_and_locates_an_unknown_one():
    cells = {".": EMPTY, "*": "1"}
    lines = [TextLine(5, ". * |"), TextLine(6, "* .")]
    assert read_givens(lines, 2, cells, "* or .", "p.txt") == [[EMPTY, "1"], ["1", EMPTY]]
    assert read_givens([], 2, cells, "* or .", "p.txt") == [[EMPTY, EMPTY], [EMPTY, EMPTY]]
    with pytest.raises(PuzzleTextError, match=r"^p.txt:6:3: unknown symbol 'q'; the grid of givens holds \* or \.$"):
        read_givens([TextLine(5, ". *"), TextLine(6, "* q")], 2, cells, "* or .", "p.txt")
