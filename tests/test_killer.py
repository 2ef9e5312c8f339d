"""Killer Sudoku: cage techniques, the 45 rule, tiers, exact counting, text, drawing."""

from __future__ import annotations

import random

import pytest
from conftest import examples
from test_sudoku import _all_grids  # the 4x4 brute force, no engine code
from typer.testing import CliRunner

from bookgen.cli import app
from bookgen.core.difficulty import Level
from bookgen.core.pen import BOLD, THIN, RecordingPen
from bookgen.core.rng import rng_for
from bookgen.core.types import EMPTY, Cage, GenerationError, Puzzle
from bookgen.puzzletext import PuzzleTextError, parse_text, solve_report, to_text
from bookgen.solve.cages import (
    KillerState, cage_geometry, cage_geometry_plain, extra_for, sum_clauses, sum_combinations, t_cage_combos, t_cage_confined, t_cage_last, t_rule45,
    t_rule45_union,
)
from bookgen.solve.houses import Run, geometry, random_filling, run_ladder, start
from bookgen.solve.latin_sat import prove
from bookgen.solve.latin import bit
from bookgen.variants.killer import INSET, KILLER, _tile, cage_outline

runner = CliRunner()
G4 = geometry(4, (2, 2), False)
G9 = geometry(9, (3, 3), False)
# A 4x4 Sudoku the hand-made positions below are cut from.
S4 = ("1234", "3412", "2143", "4321")


def _state(geo, cages, sums, givens=()):
    """The start state of a puzzle with these cages ((row, col) lists) and sums."""
    n = geo.n
    idx = [[r * n + c for r, c in cells] for cells in cages]
    extra = extra_for(geo, (2, 2) if n == 4 else (3, 3), idx, sums)
    return start(cage_geometry(geo, idx), [(r * n + c, d) for (r, c), d in givens], extra)


def _cand(st, r, c):
    n = st.board.n
    return {d for d in range(1, n + 1) if st.cand[r * n + c] & bit(d)}


def _sums(cages):
    return [sum(int(S4[r][c]) for r, c in cells) for cells in cages]


def test_sum_combinations_are_every_set_of_different_digits():
    assert sum_combinations(2, 3, 9) == (0b11,)
    assert sum_combinations(2, 17, 9) == (0b110000000,)
    assert len(sum_combinations(3, 15, 9)) == 8
    assert sum_combinations(2, 2, 9) == ()  # 1+1 repeats a digit
    assert sum_combinations(9, 45, 9) == ((1 << 9) - 1,)


# ----- one hand-made position per cage technique ------------------------------------------------
def test_cage_last_fills_the_last_cell():
    st = _state(G9, [[(0, 0), (0, 1), (0, 2)]], [10], givens=[((0, 0), 2), ((0, 1), 3)])
    run = Run(explain=True)
    assert t_cage_last(G9, st, run) == 1
    assert _cand(st, 0, 2) == {5} and "already holds 2 and 3" in run.reason


def test_cage_combos_keep_only_the_sets_that_fit():
    # 10 from three cells is 1+2+7, 1+3+6, 1+4+5 or 2+3+5; with no 1 in the cage only 2+3+5 fits
    st = _state(G9, [[(0, 0), (0, 1), (0, 2)]], [10])
    for c in range(3):
        st.cand[c] &= ~bit(1)
    run = Run(explain=True)
    assert t_cage_combos(G9, st, run) == 1
    assert all(_cand(st, 0, c) == {2, 3, 5} for c in range(3))
    assert "only 2+3+5 fit" in run.reason


def test_a_digit_the_cage_must_hold_leaves_the_rest_of_its_house():
    # 3 from two cells of column 1 is 1 and 2: no other cell of column 1 (or of the box) has them
    st = _state(G9, [[(0, 0), (1, 0)]], [3])
    st.cand[0] &= bit(1) | bit(2)
    st.cand[9] &= bit(1) | bit(2)
    run = Run(explain=True)
    assert t_cage_confined(G9, st, run) == 1 and "uses 1" in run.reason
    while t_cage_confined(G9, st, Run()):
        pass
    assert 1 not in _cand(st, 5, 0) and 2 not in _cand(st, 8, 0) and 1 in _cand(st, 5, 1)


def test_the_45_rule_on_one_row_finds_an_innie():
    # Row 1 adds up to 10; the 6 cage lies inside it, so the cell the cage at the right brings in is 4.
    cages = [[(0, 0), (0, 1), (0, 2)], [(0, 3), (1, 3)], [(1, 0), (1, 1)], [(1, 2), (2, 2)],
             [(2, 0), (3, 0)], [(2, 1), (3, 1)], [(2, 3), (3, 3)], [(3, 2)]]
    st = _state(G4, cages, _sums(cages))
    run = Run(explain=True)
    assert t_rule45(G4, st, run) == 1
    assert _cand(st, 0, 3) == {4}
    # what it adds up to, what is known, the subtraction: a child can check every number
    assert run.reason == ("row 1 must add up to 10; the cages lying wholly inside it add up to 6, so the one cell "
                          "left (row 1, column 4) must be 10 \u2212 6 = 4.")


def test_the_45_rule_on_two_rows_finds_an_outie():
    # Rows 1-2 add up to 20; the 3, 7 and 4 cages lie inside, so the 9 cage's cells in them make 6
    # and the one that sticks out below is 3.
    cages = [[(0, 0), (0, 1)], [(1, 0), (1, 1)], [(0, 2), (1, 2)], [(0, 3), (1, 3), (2, 3)],
             [(2, 0), (3, 0)], [(2, 1), (3, 1)], [(2, 2), (3, 2)], [(3, 3)]]
    st = _state(G4, cages, _sums(cages))
    said = []
    for _ in range(4):
        run = Run(explain=True)
        if not t_rule45_union(G4, st, run):
            break
        said.append(run.reason)
    assert ("rows 1-2 must add up to 20; the cages that cover them add up to 23, so the one cell sticking out "
            "(row 3, column 4) must be 23 \u2212 20 = 3.") in said
    assert _cand(st, 2, 3) == {3}
    assert _cand(st, 0, 3) == {2, 4}  # the innies: 6 from two cells of one column is 2+4


# ----- whole puzzles: each tier needs its own techniques --------------------------------------------
TIER_PUZZLES = [
    (Level.EASY, 'a b b c c d\ne f g g c d\nf f f g g d\nh i i j k k\nh l l j m n\no p l m m n\na: 5   b: 3   c: 10   d: 10   e: 4   f: 16\ng: 15   h: 7   i: 10   j: 6   k: 5   l: 10\nm: 11   n: 9   o: 2   p: 3\n'),
    (Level.MEDIUM, 'a a a b b c d d d\na e f g g c c h h\ni i j j g k l l h\nm n n o k k p p h\nm q q o o r p h h\nq q s o r r r r t\nu u s v v w w r t\nu u x x y y z t t\nu A A B B B z C C\na: 21   b: 12   c: 12   d: 12   e: 9   f: 4\ng: 14   h: 30   i: 4   j: 13   k: 8   l: 14\nm: 13   n: 13   o: 21   p: 13   q: 17   r: 32\ns: 11   t: 27   u: 27   v: 8   w: 9   x: 7\ny: 10   z: 9   A: 3   B: 21   C: 11\n'),
    (Level.HARD, 'a b b b c c d d d\na e b f f c g g h\ni e e f j k k l h\ni e j j j m m l n\no o p p q r r l n\ns o t p q u u l n\ns s t t v u w x n\ns y t z v v w x x\ny y y z A A B B C\na: 13   b: 24   c: 8   d: 12   e: 19   f: 15\ng: 14   h: 10   i: 9   j: 17   k: 10   l: 22\nm: 12   n: 16   o: 16   p: 18   q: 13   r: 15\ns: 19   t: 17   u: 16   v: 16   w: 9   x: 11\ny: 15   z: 14   A: 9   B: 11   C: 5\n'),
    (Level.EXPERT, 'a a b b c c c d d\na e f f g g h i j\nk e e e g l h i j\nk e m n l l l o o\nk m m n p p q r o\ns s t n p p q q q\nu u t t p p v q w\nu x x t y v v v w\nu u x x y y z z w\na: 14   b: 3   c: 16   d: 15   e: 32   f: 11\ng: 24   h: 7   i: 12   j: 3   k: 16   l: 16\nm: 11   n: 19   o: 13   p: 27   q: 27   r: 8\ns: 9   t: 20   u: 26   v: 16   w: 19   x: 19\ny: 12   z: 10\n'),
]


@pytest.mark.parametrize("level,text", TIER_PUZZLES, ids=[lv.key for lv, _ in TIER_PUZZLES])
def test_each_tier_has_a_puzzle_the_tiers_below_cannot_solve(level, text):
    puzzle = parse_text("killer\n" + text, "p.txt")
    geo, extra = KILLER.geometry_of(puzzle), KILLER.extra_of(puzzle)
    if level > Level.EASY:
        assert not run_ladder(geo, [], Level(level - 1), extra=extra).solved
    full = run_ladder(geo, [], level, extra=extra)
    assert full.solved and full.level == level
    assert KILLER.grade(puzzle).level == level
    assert len(KILLER.solutions(puzzle, 2)) == 1
    if level == Level.HARD:
        assert "rule45_union" in full.counts or "x_wing" in full.counts or "naked_triple" in full.counts \
            or "hidden_triple" in full.counts or "xy_wing" in full.counts or "cage_clash" in full.counts


# ----- exact counting against brute force on 4x4 ---------------------------------------------
def test_sat_counts_agree_with_brute_force_on_4x4():
    grids = _all_grids(False)
    rng = random.Random(12)
    checked = 0
    for _ in range(40):
        base = rng.choice(grids)
        puzzle = KILLER.generate(4, KILLER.parse_rules({}, 4), Level.EASY, rng)
        # the generator's cages, with some sums nudged and some cages merged away: 0, 1 or many solutions
        cages = list(puzzle.cages)
        if rng.random() < 0.4:
            k = rng.randrange(len(cages))
            cages[k] = Cage(cages[k].cells, "+", cages[k].target + rng.choice((-1, 1)))
        givens = tuple("".join(ch if rng.random() < 0.1 else EMPTY for ch in row) for row in puzzle.solution)
        if rng.random() < 0.3:
            givens = tuple("".join(str(base[r * 4 + c]) if rng.random() < 0.2 else EMPTY for c in range(4))
                           for r in range(4))
        cages = [c for c in cages if len(c.cells) <= 4 and sum_combinations(len(c.cells), c.target, 4)]
        cells = {cell for c in cages for cell in c.cells}
        cages += [Cage((cell,), "+", int(puzzle.solution[cell[0]][cell[1]]))
                  for cell in ((r, c) for r in range(4) for c in range(4)) if cell not in cells]
        test = Puzzle("killer", 4, puzzle.rules, givens, puzzle.solution, cages=tuple(cages))
        expect = [g for g in grids
                  if all(sum(g[r * 4 + c] for r, c in cage.cells) == cage.target
                         and len({g[r * 4 + c] for r, c in cage.cells}) == len(cage.cells) for cage in cages)
                  and all(ch == EMPTY or int(ch) == g[r * 4 + c] for r, row in enumerate(givens)
                          for c, ch in enumerate(row))]
        got = KILLER.solutions(test, 3)
        assert len(got) == min(3, len(expect))
        assert all(tuple(int(ch) for row in s for ch in row) in expect for s in got)
        # The generator's proof: one solver for puzzle after puzzle, each one's cages switched in.
        given_pairs = [(r * 4 + c, int(ch)) for r, row in enumerate(givens) for c, ch in enumerate(row) if ch != EMPTY]
        proved = prove(
            geometry(4, (2, 2)), given_pairs, sum_clauses(4, [[r * 4 + c for r, c in cage.cells] for cage in cages],
                                        [cage.target for cage in cages]), 3)
        assert len(proved) == len(got) and all(tuple(p) in expect for p in proved)
        checked += len(expect) != 1
    assert checked  # some cases had no or several solutions, not only the unique ones


# ----- generation -----------------------------------------------------------------------------
def test_requests_out_of_reach_are_refused():
    assert KILLER.check_request(4, {}, Level.MEDIUM) and KILLER.check_request(6, {}, Level.HARD)
    assert KILLER.check_request(9, {}, Level.EXPERT) is None
    with pytest.raises(GenerationError, match="never harder than easy"):
        KILLER.generate(4, KILLER.parse_rules({}, 4), Level.HARD, rng_for("1"))
    with pytest.raises(ValueError, match="4, 6, 9"):
        KILLER.parse_rules({}, 8)


def test_givens_few_gives_some_digits_and_none_by_default():
    rules = KILLER.parse_rules({}, 9)
    plain = KILLER.generate(9, rules, Level.MEDIUM, rng_for("5"))
    assert all(row == EMPTY * 9 for row in plain.givens)
    assert max(len(c.cells) for c in plain.cages) >= 3
    found = [KILLER.generate(9, rules, Level.MEDIUM, rng_for(str(k)), {"givens": "few"}) for k in range(2)]
    counts = [sum(ch != EMPTY for row in p.givens for ch in row) for p in found]
    assert max(counts) > 0 and max(counts) <= round(0.06 * 81)


def test_validate_catches_a_cage_that_does_not_add_up_or_repeats():
    puzzle = parse_text("killer\n" + TIER_PUZZLES[0][1], "p.txt")
    solved = Puzzle(puzzle.variant, 6, puzzle.rules, puzzle.givens, KILLER.solutions(puzzle, 1)[0],
                    cages=puzzle.cages)
    assert KILLER.validate(solved) == []
    cages = list(solved.cages)
    cages[0] = Cage(cages[0].cells, "+", cages[0].target + 1)
    assert any("should add up" in p for p in KILLER.validate(Puzzle("killer", 6, puzzle.rules, puzzle.givens,
                                                                     solved.solution, cages=tuple(cages))))


# ----- text ------------------------------------------------------------------------------------
def test_text_round_trip_with_and_without_givens():
    for options in ({}, {"givens": "few"}):  # easy: the text is the same at any level, at a tenth of hard's cost
        puzzle = KILLER.generate(9, KILLER.parse_rules({}, 9), Level.EASY, rng_for("3"), options)
        assert puzzle.cages and (any(ch != "." for row in puzzle.givens for ch in row) == bool(options))
        back = parse_text(to_text(puzzle), "p.txt")
        assert (back.variant, back.size, back.cages, back.givens, back.rules) == (
            "killer", 9, puzzle.cages, puzzle.givens, puzzle.rules)


@pytest.mark.parametrize("text,where,message", [
    ("killer\na a\nb b\na: 3 b: 3\n", "p.txt:2", "grids are 4, 6 or 9"),
    ("killer\n" + "a a b b\n" * 2 + "c c d d\n" * 2 + "a: 10 b: 30 c: 10 d: 10\n", "p.txt:6:7", "can't add up to 30"),
    ("killer\n" + "a a b b\n" * 2 + "c c d d\n" * 2 + "a: 10 b: 10 c: 10\n", "p.txt:4:5", "'d' has no sum"),
    ("killer\n" + "a b a b\n" + "c c d d\n" * 3 + "a: 3 b: 7 c: 10 d: 10\n", "p.txt:2:5", "not connected"),
    ("killer\n" + "a a b b\n" * 2 + "c c d d\n" * 2 + "a: 10 b: 10 c: 10 d: 10 e: 4\n", "p.txt:6:25", "not in the grid"),
    ("killer\n" + "a a b b\n" * 2 + "c c d d\n" * 2 + "1 . . .\n. . 7 .\n" + ". . . .\n" * 2 + "a: 10 b: 10 c: 10 d: 10\n",
     "p.txt:7", "digit 7"),
])
def test_bad_text_is_located(text, where, message):
    with pytest.raises(PuzzleTextError) as err:
        parse_text(text, "p.txt")
    assert str(err.value).startswith(where) and message in str(err.value)


def test_cli_solves_and_explains_a_typed_in_killer(tmp_path):
    path = tmp_path / "k.txt"
    path.write_text("killer\n" + TIER_PUZZLES[0][1], encoding="utf-8")
    result = runner.invoke(app, ["solve", str(path), "--explain"])
    assert result.exit_code == 0, result.output
    assert "Easy" in result.output or "easy" in result.output
    assert "cage" in result.output and "|" in result.output
    report = solve_report(parse_text(path.read_text(), str(path)), explain=True)
    assert report.code == 0


# ----- drawing ---------------------------------------------------------------------------------
def test_cages_are_dashed_inside_the_cells_and_sums_sit_clear_of_them():
    puzzle = parse_text("killer\n" + TIER_PUZZLES[2][1], "p.txt")
    pen = RecordingPen()
    KILLER.draw(pen, puzzle)
    lines = [op for op in pen.ops if op[0] == "line"]
    bold = [op for op in lines if op[5] == BOLD]
    assert {op[1] for op in bold if op[1] == op[3]} == {3, 6}  # box lines bold, cell lines thin
    dashes = [op for op in lines if op[5] == THIN and op[1] % 1 and op[1] == op[3] or
              op[0] == "line" and op[5] == THIN and op[2] % 1 and op[2] == op[4]]
    assert len(dashes) > 300
    # every dash stays at least the inset away from the grid line it runs along
    for _, x1, y1, x2, y2, _w in dashes:
        fixed = x1 if x1 == x2 else y1
        assert min(fixed % 1, 1 - fixed % 1) >= INSET - 1e-9
    # each sum has a white patch drawn after every dash, inside its cell, covering the text
    rects = [(k, op) for k, op in enumerate(pen.ops) if op[0] == "rect" and op[5] == 1.0]
    texts = [op for op in pen.ops if op[0] == "text" and op[6] == "top-left"]
    last_dash = max(k for k, op in enumerate(pen.ops) if op in dashes)
    assert len(rects) == len(texts) == len(puzzle.cages)
    for (k, (_, x, y, w, h, _f, _s)), text in zip(rects, texts):
        assert k > last_dash
        cx, cy = int(x), int(y)
        assert cx < x and cy < y and x + w < cx + 1 and y + h < cy + 0.5  # off the grid lines, above the digit
        assert x <= text[1] and y <= text[2] and text[2] + text[4] <= y + h


def test_fingerprint_turns_with_the_grid_but_not_with_the_digits():
    puzzle = parse_text("killer\n" + TIER_PUZZLES[0][1], "p.txt")
    n = puzzle.size
    turned = Puzzle("killer", n, puzzle.rules, puzzle.givens, puzzle.solution,
                    cages=tuple(Cage(tuple(sorted((c, n - 1 - r) for r, c in cage.cells)), "+", cage.target)
                                for cage in puzzle.cages))
    assert KILLER.fingerprint(turned) == KILLER.fingerprint(puzzle)
    cages = list(puzzle.cages)
    k = next(k for k, c in enumerate(cages) if len(c.cells) == 2)
    cages[k] = Cage(cages[k].cells, "+", cages[k].target + 1)
    other = Puzzle("killer", n, puzzle.rules, puzzle.givens, puzzle.solution, cages=tuple(cages))
    assert KILLER.fingerprint(other) != KILLER.fingerprint(puzzle)


def test_outline_of_an_l_shaped_cage_is_closed():
    cage = Cage(((0, 0), (1, 0), (1, 1)), "+", 6)
    runs = cage_outline(4, [cage])
    ends: dict[tuple[float, float], int] = {}
    for x1, y1, x2, y2 in runs:
        for p in ((round(x1, 6), round(y1, 6)), (round(x2, 6), round(y2, 6))):
            ends[p] = ends.get(p, 0) + 1
    assert len(runs) == 6 and all(v == 2 for v in ends.values())  # six sides, every corner joins two


def test_cage_geometry_equals_the_plain_version():
    # Cages' peers kept per (geometry, cage) against the sets built afresh: the same geometry
    # for random tilings, with a cage cut short, and for cages that share a cell.
    rng = random.Random(5)
    for _ in range(4):
        cages = _tile(random_filling(G9, rng), 9, Level.EASY, rng)
        assert cage_geometry(G9, cages) == cage_geometry_plain(G9, cages)
        cages[0] = cages[0][:1]  # a cage cut short: its other cells in no cage
        assert cage_geometry(G9, cages) == cage_geometry_plain(G9, cages)
    shared = [[0, 1, 2], [2, 11], [40, 41]]
    assert cage_geometry(G9, shared) == cage_geometry_plain(G9, shared)


def test_clash_memo_equals_the_peers_searched():
    # The 45 rule's clashes (earlier cells that are peers), kept for the geometry asked last,
    # against the peers searched afresh, switching between two cage geometries and back.
    from bookgen.solve.cages import _clash
    first = cage_geometry(G9, [[2, 12], [13, 22]])  # 2 and 12 (or 13) share no house: peers by a cage
    second = cage_geometry(G9, [[2, 13], [12, 22]])
    cells = (2, 12, 13, 22, 40)
    for geo in (first, second, first):
        want = tuple(tuple(j for j in range(k) if cells[j] in geo.peers[cells[k]]) for k in range(len(cells)))
        assert _clash(geo, cells) == want
    assert _clash(first, cells) != _clash(second, cells)


def test_cage_stamps_equal_the_plain_state():
    # KillerState's change stamps let cage_last, cage_static and cage_combos skip cages, and
    # rule45 and rule45_union sides of a region, unchanged since they last looked: a ladder (every step and reason) and a rated
    # run on it must equal those on a plain State, where every cage is looked at every time.
    from dataclasses import replace

    from bookgen.solve.houses import State
    from bookgen.solve.rated import rated_run
    rng = random.Random(11)
    skipped = 0
    for keep in (30, 22, 14):
        sol = random_filling(G9, rng)
        cages = _tile(sol, 9, Level.EASY, rng)
        sums = [sum(sol[i] for i in cc) for cc in cages]
        geo = cage_geometry(G9, cages)
        givens = [(i, sol[i]) for i in sorted(rng.sample(range(81), keep))]
        stamped = extra_for(G9, (3, 3), cages, sums)
        plain = replace(stamped, stamped=False)
        assert type(stamped.new_state(geo)) is KillerState and type(plain.new_state(geo)) is State
        a = run_ladder(geo, givens, Level.HARD, explain=True, extra=stamped)
        b = run_ladder(geo, givens, Level.HARD, explain=True, extra=plain)
        assert (a.solved, a.level, a.counts, a.grid) == (b.solved, b.level, b.counts, b.grid)
        assert [(s.technique, s.cells, str(s.reason)) for s in a.steps] == \
            [(s.technique, s.cells, str(s.reason)) for s in b.steps]
        assert rated_run(geo, givens, stamped) == rated_run(geo, givens, plain)
        # The cage techniques' probes (``p_cage_last``, ``p_cage_static``, ``p_cage_combos``),
        # which also mark the cages they found settled, against trying each on a copy.
        assert rated_run(geo, givens, stamped) == rated_run(geo, givens, stamped, probes=False)
        st = start(geo, givens, stamped)
        while t_cage_combos(G9, st, Run()):
            pass
        before = st.cage_seen("cage_combos")[:len(cages)]
        t_cage_combos(G9, st, Run())  # nothing changed: every cage skipped, none looked at again
        skipped += before == st.cage_seen("cage_combos")[:len(cages)] and max(before) >= 0
    assert skipped == 3


def test_extra_for_regions_equal_the_plain_version():
    # extra_for's regions (rows, columns, boxes and their unions) come from each cage's parts per
    # region, kept per cage (``_regions_from_parts``); ``plain=True`` works each region out from
    # its cells (``_region``).
    rng = random.Random(5)
    for level, rules in ((Level.EASY, {}), (Level.HARD, {}), (Level.MEDIUM, {"diagonal": True})):
        base = KILLER._base(9, KILLER.parse_rules(rules, 9))
        sol = random_filling(base, rng)
        cages = _tile(sol, 9, level, rng)
        sums = [sum(sol[i] for i in cc) for cc in cages]
        for unions in (False, True):
            fast = extra_for(base, (3, 3), cages, sums, unions)
            assert fast == extra_for(base, (3, 3), cages, sums, unions, plain=True)
            assert fast.single and fast == extra_for(base, (3, 3), cages, sums, unions)  # from the kept parts


def test_judge_equals_the_plain_order():
    # The draft judge takes its verdict from the ladder with naked singles first and runs the
    # ladder's own order only on a draft that fits; ``plain=True`` runs the own order every
    # time. Every verdict of a generation (cells, state stalled in, counts) must agree.
    from bookgen.solve.houses import Fits, Stuck

    seen = {"judged": 0, "stuck": 0, "fits": 0}

    class Both(type(KILLER)):
        def _judge(self, *args, **kwargs):
            fast = super()._judge(*args, **kwargs)
            plain = super()._judge(*args, **kwargs, plain=True)
            assert type(fast) is type(plain)
            if isinstance(fast, Stuck):
                assert list(fast.cells) == list(plain.cells)
                assert (fast.state.cand, fast.state.placed) == (plain.state.cand, plain.state.placed)
                seen["stuck"] += 1
            if isinstance(fast, Fits):
                assert (fast.counts, fast.level) == (plain.counts, plain.level)
                seen["fits"] += 1
            seen["judged"] += 1
            return fast

    both = Both()
    for n, level, options, seed in ((9, Level.EASY, {}, 1), (9, Level.EASY, {"givens": "few"}, 2),
                                    (9, Level.MEDIUM, {}, 5), (6, Level.EASY, {}, 4)):
        both.generate(n, both.parse_rules({}, n), level, rng_for(str(seed)), options)
    assert seen["stuck"] >= 4 and seen["fits"] == 4


def test_proof_clauses_equal_the_plain_version_and_prove_the_same():
    # The proof's cage clauses are written behind their switch on a reused block of variables
    # (``proof_clauses`` against ``proof_clauses_plain``; ``LatinSolver.load_numbered``): the
    # verdict of ``proves_unique`` must be that of the fresh solver's count of solutions, on
    # unique drafts and on drafts with merged cages that are not.
    from bookgen.solve.cages import proof_clauses, proof_clauses_plain, proof_variables
    from bookgen.solve.latin_sat import LatinSolver, Numbered, proves_unique, solutions

    rng = random.Random(9)
    verdicts = set()
    for _ in range(examples(2)):  # (4 before: bench/sweep_suite.py)
        sol = random_filling(G9, rng)
        cages = _tile(sol, 9, Level.MEDIUM, rng)
        for merges in (0, 4, 8):
            cs = [list(c) for c in cages]
            for _ in range(merges):
                a = rng.randrange(len(cs))
                near = [b for b in range(len(cs)) if b != a and len(cs[a]) + len(cs[b]) <= 6
                        and any(abs(x - y) in (1, 9) for x in cs[a] for y in cs[b])
                        and not {sol[x] for x in cs[a]} & {sol[y] for y in cs[b]}]
                if near:
                    b = rng.choice(near)
                    cs[a] = sorted(cs[a] + cs[b])
                    del cs[b]
            sums = [sum(sol[i] for i in c) for c in cs]
            assert proof_clauses(G9, cs, sums, 900, 1000) == proof_clauses_plain(G9, cs, sums, 900, 1000)
            want = solutions(G9, [], 2, sum_clauses(9, cs, sums)) == [sol]
            numbered = Numbered(lambda on, first, cs=cs, sums=sums: proof_clauses(G9, cs, sums, on, first),
                                proof_variables(9, cs, sums))
            assert proves_unique(G9, [], sol, (), numbered=numbered) == want
            verdicts.add(want)
    assert verdicts == {True, False}
    ls = LatinSolver(G9)  # the block is reused, and grown when a group needs more
    first = ls.load_numbered(lambda on, first: [[-on, first, first + 1]], 2)
    assert ls.scratch == (first + 1, 2)
    ls.load_numbered(lambda on, first: [[-on, first]], 1)
    assert ls.scratch == (first + 1, 2)
    ls.load_numbered(lambda on, first: [[-on, first, first + 2]], 3)
    assert ls.scratch[1] == 3 and ls.scratch[0] > first + 2
    ls.close()


def test_fillings_equal_the_plain_version():
    # The 45 rule's fillings of one to three cells as loops (``_fillings``) against the recursion.
    from bookgen.solve.cages import _fillings, _fillings_plain

    rng = random.Random(4)
    clashes = {1: [((),)], 2: [((), ()), ((), (0,))],
               3: [((), (), ()), ((), (0,), ()), ((), (), (0, 1)), ((), (0,), (0, 1)), ((), (), (1,))]}
    found = 0
    for _ in range(3000):
        k = rng.randint(1, 3)
        cands = tuple(rng.choice((0, rng.randrange(512), rng.randrange(512) & rng.randrange(512))) for _ in range(k))
        target = rng.randint(0, 26)
        clash = rng.choice(clashes[k])
        got = _fillings(cands, target, clash)
        assert got == _fillings_plain(cands, target, clash)
        found += any(got)
    assert found > 200  # (not all empty: fillings found)
