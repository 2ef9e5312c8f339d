"""The complete house ladder: one worked position per technique that it solves (or where it
makes its elimination) and no technique before it in the ladder does; the ladder's order (the
easiest step on Sudoku Explainer's scale first); an unsolved grade is no level."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from bookgen.core.difficulty import Level
from bookgen.core.rating import rating_of
from bookgen.core.types import Grade, Unsolved
from bookgen.puzzletext import parse_text, solve_report
from bookgen.solve.houses import LADDER, Extra, Run, State, geometry, run_ladder
from bookgen.solve.rated import rated_run
from bookgen.solve.latin import bit
from bookgen.variants.killer import KILLER
from bookgen.variants.sudoku import SUDOKU

G9 = geometry(9, (3, 3), False)
GX = geometry(9, (3, 3), True)
ORDER = [t.name for t in LADDER]
POSITIONS = json.loads((Path(__file__).parent / "data" / "ladder_positions.json").read_text("utf-8"))


def _state(cands: dict[tuple[int, int], set[int]], geo=G9) -> State:
    """An open grid (every digit possible everywhere) except the cells listed."""
    st = State(geo)
    for (r, c), digits in cands.items():
        st.cand[r * geo.n + c] = sum(bit(d) for d in digits)
    return st


def _without(digit: int, cells) -> dict[tuple[int, int], set[int]]:
    return {cell: set(range(1, 10)) - {digit} for cell in cells}


def _before(st: State, name: str) -> list[str]:
    """The techniques before ``name`` in the ladder that make progress on a copy of ``st``."""
    out = []
    for t in LADDER[:ORDER.index(name)]:
        trial = st.copy()
        if t.fn(trial.board, trial, Run()):
            out.append(t.name)
    return out


def _apply(st: State, name: str) -> str:
    fn = LADDER[ORDER.index(name)].fn
    run = Run(explain=True)
    assert fn(st.board, st, run) == 1
    assert run.reason
    return run.reason


def _has(st: State, r: int, c: int, d: int) -> bool:
    return bool(st.cand[r * st.board.n + c] & bit(d))


def _row_only(digit: int, row: int, cols) -> dict[tuple[int, int], set[int]]:
    return _without(digit, [(row, c) for c in range(9) if c not in cols])


# ----- hand-made positions ---------------------------------------------------------------------
def test_swordfish():
    # 1 in rows 1, 5 and 9 only in columns 1, 5 and 9, two of them per row: no X-wing.
    cands = {**_row_only(1, 0, (0, 4)), **_row_only(1, 4, (4, 8)), **_row_only(1, 8, (0, 8))}
    st = _state(cands)
    assert _before(st, "swordfish") == []
    reason = _apply(st, "swordfish")
    assert not any(_has(st, r, c, 1) for r in range(9) if r not in (0, 4, 8) for c in (0, 4, 8))
    assert _has(st, 0, 0, 1) and _has(st, 2, 2, 1) and "column 5" in reason


def test_jellyfish():
    # 1 in rows 1, 4, 7 and 9 only in columns 1, 2, 4 and 7, three per row (any two rows cover
    # all four columns: no X-wing or Swordfish; no row with two places: no skyscraper or kite;
    # never in one box: no locked candidates).
    cands = {**_row_only(1, 0, (0, 1, 3)), **_row_only(1, 3, (0, 3, 6)), **_row_only(1, 6, (1, 3, 6)),
             **_row_only(1, 8, (0, 1, 6))}
    st = _state(cands)
    assert _before(st, "jellyfish") == []
    _apply(st, "jellyfish")
    assert not any(_has(st, r, c, 1) for r in range(9) if r not in (0, 3, 6, 8) for c in (0, 1, 3, 6))
    assert _has(st, 1, 2, 1) and _has(st, 0, 3, 1)


def test_naked_quad():
    st = _state({(0, 0): {1, 2}, (0, 2): {2, 3}, (0, 4): {3, 4}, (0, 8): {1, 4}})
    assert _before(st, "naked_quad") == []
    _apply(st, "naked_quad")
    assert not any(_has(st, 0, c, d) for c in (1, 3, 5, 6, 7) for d in (1, 2, 3, 4))


def test_hidden_quad():
    # 1-4 fit only in r1c1, r1c4, r1c7, r1c8 (each digit in two of them, never in one box).
    cands = {(0, c): set(range(5, 10)) for c in (1, 2, 4, 5, 8)}
    cands.update({(0, 0): {1, 4, 5, 6}, (0, 3): {2, 3, 7, 8}, (0, 6): {1, 2, 5, 9}, (0, 7): {3, 4, 6, 7}})
    st = _state(cands)
    assert _before(st, "hidden_quad") == []
    _apply(st, "hidden_quad")
    assert [st.cand[i] for i in (0, 3, 6, 7)] == [bit(1) | bit(4), bit(2) | bit(3), bit(1) | bit(2), bit(3) | bit(4)]


def test_xyz_wing():
    # Pivot r1c1 = 1, 2 or 3; r1c5 = 1 or 3; r2c2 = 2 or 3: r1c2 and r1c3 see all three, not 3.
    st = _state({(0, 0): {1, 2, 3}, (0, 4): {1, 3}, (1, 1): {2, 3}})
    assert _before(st, "xyz_wing") == []
    _apply(st, "xyz_wing")
    assert not _has(st, 0, 1, 3) and not _has(st, 0, 2, 3) and _has(st, 0, 3, 3) and _has(st, 1, 0, 3)


def test_w_wing():
    # r1c1 and r5c5 are 1 or 2; row 9 has 1 only in r9c1 and r9c5, one under each: r1c5, r5c1 not 2.
    cands = {(0, 0): {1, 2}, (4, 4): {1, 2}, **_row_only(1, 8, (0, 4))}
    st = _state(cands)
    assert _before(st, "w_wing") == []
    reason = _apply(st, "w_wing")
    assert not _has(st, 0, 4, 2) and not _has(st, 4, 0, 2) and _has(st, 0, 5, 2)
    assert "row 9" in reason


def test_skyscraper():
    # 1 in row 1 only at r1c1, r1c5; in row 5 only at r5c1, r5c6: r1c5 or r5c6 is 1.
    st = _state({**_row_only(1, 0, (0, 4)), **_row_only(1, 4, (0, 5))})
    assert _before(st, "skyscraper_pattern") == []
    _apply(st, "skyscraper_pattern")
    assert not any(_has(st, r, 5, 1) for r in (1, 2)) and not any(_has(st, r, 4, 1) for r in (3, 5))
    assert _has(st, 6, 4, 1)


def test_two_string_kite():
    # 1 in row 1 only at r1c2, r1c7; in column 1 only at r3c1, r7c1; r1c2 and r3c1 share a box.
    cands = {**_row_only(1, 0, (1, 6)), **_without(1, [(r, 0) for r in range(9) if r not in (2, 6)])}
    st = _state(cands)
    assert _before(st, "two_string_kite") == []
    _apply(st, "two_string_kite")
    assert not _has(st, 6, 6, 1) and _has(st, 6, 5, 1)


def test_turbot_fish():
    # The top-left box has 1 only at r1c1, r3c2; row 6 only at r6c2, r6c8: r1c1 or r6c8 is 1.
    box = [(r, c) for r in range(3) for c in range(3) if (r, c) not in ((0, 0), (2, 1))]
    st = _state({**_without(1, box), **_row_only(1, 5, (1, 7))})
    assert _before(st, "turbot_fish") == []
    _apply(st, "turbot_fish")
    assert not _has(st, 0, 7, 1) and not _has(st, 5, 0, 1) and _has(st, 0, 6, 1)


def test_unique_rectangle_type_1():
    # r1c1, r1c4, r2c1 are 1 or 2 and r2c4 1, 2 or 5: only 5 keeps two solutions away.
    cands = {(0, 0): {1, 2}, (0, 3): {1, 2}, (1, 0): {1, 2}, (1, 3): {1, 2, 5}}
    others = [(0, c) for c in range(9) if c not in (0, 3)] + [(r, 0) for r in range(2, 9)] + \
        [(r, c) for r in range(1, 3) for c in range(1, 3)]
    cands.update({cell: set(range(3, 10)) for cell in others})
    st = _state(cands)
    assert _before(st, "unique_rectangle") == []
    _apply(st, "unique_rectangle")
    assert st.cand[1 * 9 + 3] == bit(5)


def test_unique_rectangle_type_2():
    # r1c1, r2c1 are 1 or 2; r1c4, r2c4 are 1, 2 or 7: one of the two is 7.
    cands = {(0, 0): {1, 2}, (1, 0): {1, 2}, (0, 3): {1, 2, 7}, (1, 3): {1, 2, 7}}
    others = [(r, 0) for r in range(2, 9)] + [(r, c) for r in range(3) for c in range(1, 3)]
    cands.update({cell: set(range(3, 10)) for cell in others})
    st = _state(cands)
    assert _before(st, "unique_rectangle") == []
    _apply(st, "unique_rectangle")
    assert not any(_has(st, r, 3, 7) for r in range(2, 9)) and not _has(st, 2, 4, 7) and _has(st, 0, 3, 7)


# A loop of six cells, each seeing the next, two of them in every house it meets (rows 2, 3, 9;
# columns 2, 7, 8; boxes 1, 3, 9): the houses of the loop hold 1 and 2 nowhere else, except
# ``open_houses`` (those of the cells with more digits: else a hidden pair would strike them).
LOOP = [(1, 1), (1, 7), (2, 1), (2, 6), (8, 6), (8, 7)]


def _loop_state(more: dict[tuple[int, int], set[int]], open_houses: set[tuple[str, int]]) -> State:
    def houses(r, c):
        return {("row", r), ("col", c), ("box", r // 3 * 3 + c // 3)}

    cands = {cell: {1, 2} for cell in LOOP} | more
    cleared = set().union(*(houses(*cell) for cell in LOOP)) - open_houses
    cands.update({(r, c): set(range(3, 10)) for r in range(9) for c in range(9)
                  if (r, c) not in cands and houses(r, c) & cleared})
    return _state(cands)


def test_unique_loop_type_1():
    # r2c2 is 1, 2 or 5, the other five cells 1 or 2: only 5 keeps two solutions away.
    st = _loop_state({(1, 1): {1, 2, 5}}, {("row", 1), ("col", 1), ("box", 0)})
    assert _before(st, "unique_loop") == []
    reason = _apply(st, "unique_loop")
    assert st.cand[1 * 9 + 1] == bit(5)
    assert "is a loop of cells that can all hold" in reason


def test_unique_loop_type_2():
    # r2c2 and r3c2 are 1, 2 or 7: one of them is 7, so the rest of column 2 and box 1 isn't.
    st = _loop_state({(1, 1): {1, 2, 7}, (2, 1): {1, 2, 7}}, {("row", 1), ("row", 2), ("col", 1), ("box", 0)})
    assert _before(st, "unique_loop") == []
    run = Run()
    run.best = True  # the rated run's search: the shortest loop, valued by its length
    assert LADDER[ORDER.index("unique_loop")].fn(G9, st, run) == 1 and run.value == 4.6
    gone = {(r, c) for r in range(9) for c in range(9) if not _has(st, r, c, 7)}
    assert gone - set(LOOP) == {(r, 1) for r in range(9) if r not in (1, 2)} | \
        {(r, c) for r in range(3) for c in range(3) if c != 1}
    assert _has(st, 1, 1, 7) and _has(st, 2, 1, 7)


def test_unique_loop_assumes_uniqueness_only_where_the_houses_are_the_rules():
    # A cage or a sign could tell the two fillings apart: Killer's or Futoshiki's ladder skips it.
    st = _loop_state({(1, 1): {1, 2, 5}}, {("row", 1), ("col", 1), ("box", 0)})
    caged = State(G9, Extra(techniques=(LADDER[0],)))
    caged.cand = st.cand[:]
    assert LADDER[ORDER.index("unique_loop")].fn(G9, caged, Run()) == 0
    assert "unique_loop" not in {t.name for t in KILLER.techniques}


# One of our expert Sudoku (bench/calibrate.py's seeds, before the unique loop): SE rates it 4.6
# by a unique loop of six cells (type 2); without one the hard tier stalls and our rating was
# 5.4 (an X-chain), outside the band of the level the puzzle was printed at.
LOOPED = ".653....84.......7..3...95.8..5...4....64........3..8151.....6....4.5.3..2....1.."


@dataclass(frozen=True)
class _NoLoop(Extra):
    def ladder(self):
        return tuple(t for t in LADDER if t.name != "unique_loop")


def test_a_puzzle_se_rates_by_a_unique_loop_rates_as_se_does():
    assert not run_ladder(G9, _givens(LOOPED), Level.HARD, extra=_NoLoop()).solved
    res = run_ladder(G9, _givens(LOOPED), Level.HARD)
    assert res.solved and res.counts.get("unique_loop")
    steps, solved = rated_run(G9, _givens(LOOPED))
    assert solved and rating_of(steps) == 4.6 and max(steps, key=lambda s: s.rating).technique == "unique_loop"


def test_confined_candidates_on_a_diagonal():
    # Sudoku X: 1 on the main diagonal only at r1c1 and r5c5: r1c5 and r5c1 see both.
    diag = [(k, k) for k in range(9) if k not in (0, 4)]
    st = _state(_without(1, diag), GX)
    assert _before(st, "confined_candidates") == []
    _apply(st, "confined_candidates")
    assert not _has(st, 0, 4, 1) and not _has(st, 4, 0, 1) and _has(st, 0, 5, 1)
    # Without the diagonals it is locked candidates' business: nothing to do here.
    plain = _state(_without(1, diag))
    assert LADDER[ORDER.index("confined_candidates")].fn(G9, plain, Run()) == 0


# ----- positions from real puzzles (Solo's and our own, graded by the ladder; see the data file) --
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_a_position_from_a_puzzle(name):
    pos = POSITIONS[name]
    geo = GX if pos["diagonal"] else G9
    st = State(geo)
    st.cand = [sum(bit(int(d)) for d in cell) for cell in pos["cand"].split()]
    st.placed = [ch == "1" for ch in pos["placed"]]
    st.unplaced = st.placed.count(False)
    assert _before(st, name) == []
    _apply(st, name)
    solution = [int(ch) for ch in pos["solution"]]
    assert all(st.cand[i] & bit(d) for i, d in enumerate(solution))  # sound: the answer stays


# ----- the ladder's order and the honest grade -------------------------------------------------
def test_the_ladder_takes_the_easiest_step_on_the_se_scale_within_each_tier():
    for a, b in zip(LADDER, LADDER[1:]):
        assert a.tier <= b.tier
        if a.tier == b.tier and b.rating is not None:
            assert a.rating <= b.rating, (a.name, b.name)
    assert all(t.rating is not None for t in LADDER if t.name != "trial")
    assert ORDER[:3] == ["hidden_single_box", "hidden_single", "naked_single"]


def test_an_easy_puzzle_is_solved_by_hidden_singles_in_boxes_first():
    puzzle = parse_text("sudoku\n" + EASY, "e.txt")
    grade = SUDOKU.grade(puzzle)
    assert grade.level == Level.EASY and grade.techniques["hidden_single_box"] > grade.techniques.get("naked_single", 0)


EASY = "..3.2.6..\n9..3.5..1\n..18.64..\n..81.29..\n7.......8\n..67.82..\n..26.95..\n8..2.3..9\n..5.1.3.."
EASTER_MONSTER = "1.......2\n.9.4...5.\n..6...7..\n.5.9.3...\n....7....\n...85..4.\n7.....6..\n.3...9.8.\n..2.....1"


def test_an_unsolved_grade_is_no_level():
    puzzle = parse_text("sudoku\n" + EASTER_MONSTER, "em.txt")
    grade = SUDOKU.grade(puzzle)
    assert not grade.solved
    assert isinstance(grade.level, Unsolved) and grade.level.key == "unsolved"
    assert grade.level != Level.EASY and grade.level not in tuple(Level)
    with pytest.raises(TypeError):
        grade.level > Level.EASY  # noqa: B015 - it compares with no level
    with pytest.raises(AttributeError):
        grade.level.marker  # noqa: B018
    assert "unsolved" in str(grade.level)
    with pytest.raises(ValueError):
        Grade(Unsolved(Level.EASY), 0.0, {}, True)


def test_the_cli_says_unsolved_not_a_level(tmp_path):
    puzzle = parse_text("sudoku\n" + EASTER_MONSTER, "em.txt")
    report = solve_report(puzzle)
    assert report.code == 1
    assert "Difficulty: unsolved (stuck after " in report.text and "Difficulty: easy" not in report.text


# One of our expert Sudoku (bench/calibrate.py's seeds): the hard tier stalls, chains finish
# it, no trial. (Solo's "Unreasonable" that stood here falls to a grouped turbot fish now.)
CHAINS = ".5.6.9..73.9.......2.1......9..........2.6.1...3.4..86......8..1.648......7.....5"


def test_the_expert_tier_solves_by_chains_before_any_trial():
    assert not run_ladder(G9, _givens(CHAINS), Level.HARD).solved
    res = run_ladder(G9, _givens(CHAINS), Level.EXPERT)
    assert res.solved and res.level == Level.EXPERT and "trial" not in res.counts
    assert {"x_chain", "xy_chain"} & set(res.counts)


def _givens(text: str) -> list[tuple[int, int]]:
    return [(i, int(ch)) for i, ch in enumerate(text) if ch != "."]


# ----- Killer: combinations across two cages of one house ---------------------------------------
KILLER_CLASH = (
    "killer\na b b b c c c d d\na a e e e f g h h\na a i i f f g h h\nj k i i l l m n o\nj k k p q m m n o\n"
    "r k k p q s s n o\nr t k p q u v w w\nx x p p q u v y y\nz z z u u u v A A\n"
    "a: 25   b: 22   c: 14   d: 6   e: 18   f: 9\ng: 15   h: 16   i: 19   j: 10   k: 30   l: 16\n"
    "m: 15   n: 15   o: 16   p: 21   q: 20   r: 7\ns: 11   t: 3   u: 24   v: 8   w: 13   x: 8\n"
    "y: 14   z: 20   A: 10\n")


def test_cage_clash_on_a_killer_position():
    from dataclasses import replace

    from bookgen.variants.killer import KILLER

    puzzle = parse_text(KILLER_CLASH, "k.txt")
    extra = KILLER.extra_of(puzzle)
    clash = next(t.fn for t in extra.techniques if t.name == "cage_clash")
    seen: list[State] = []

    def spy(g, st, run):  # the first position where it fires, as it was before
        before = st.copy()
        used = clash(g, st, run)
        if used and not seen:
            seen.append(before)
        return used

    spied = replace(extra, techniques=tuple(t._replace(fn=spy) if t.name == "cage_clash" else t
                                            for t in extra.techniques))
    geo = KILLER.geometry_of(puzzle)
    res = run_ladder(geo, [], Level.EXPERT, extra=spied)
    assert res.solved and res.counts.get("cage_clash") and seen
    ladder = extra.ladder()
    names = [t.name for t in ladder]
    for t in ladder[:names.index("cage_clash")]:  # nothing before it in the ladder does anything
        assert not t.fn(geo, seen[0].copy(), Run()), t.name
    run = Run(explain=True)
    assert clash(geo, seen[0], run) == 1 and "share no digit" in run.reason


def test_the_fast_order_reaches_the_same_verdict_and_grid():
    """The generator's order (naked singles first) against the ladder's own, tier by tier:
    the same verdict and the same cells placed."""
    from bookgen.solve.houses import start, solve

    for text in (EASY.replace("\n", ""), CHAINS, HARD):
        for level in (Level.EASY, Level.MEDIUM, Level.HARD, Level.EXPERT):
            ends = []
            for fast in (False, True):
                st = start(G9, _givens(text))
                ends.append((solve(st, level, Run(), fast=fast), st.grid()))
            assert ends[0] == ends[1], (text, level)


HARD = "..9.3....6..89......2....7...1.....6.5.927........5........45.8.17....3....1....4"
