"""The KenKen search's shortcuts against what they stand for: ``_Layout.swapped`` (a second
solution found without SAT) against the intercalates listed by their definition and against
the draft solver, ``_rule_out`` against the other solution it is given, ``_pick_table``
against its plain version, and the small easy tiling's ``_swap_kept`` against the definition."""

from __future__ import annotations

import random

import pytest

from bookgen.core.difficulty import Level
from bookgen.solve.arithmetic import DraftSolver
from bookgen.solve.latin import cage_value, is_latin, random_latin_square
from bookgen.variants.kenken import KENKEN, _Layout, singles_cap

RULES = {"ops": ["+", "-", "*", "/"], "max_cage": 4, "show_ops": True, "singles": "few"}


def _layout(n: int, seed: int) -> tuple[_Layout, list[int]]:
    rng = random.Random(seed)
    square = random_latin_square(n, rng)
    layout = _Layout(n, square, RULES, Level.HARD, rng)
    while not layout.tile():  # (a tiling over the singles' cap is redrawn, as ``_tilings`` does)
        pass
    return layout, [d for row in layout.square for d in row]


def _plain_intercalates(square: list[list[int]]) -> set[tuple[int, ...]]:
    """Every 2x2 sub-square ``a b / b a``, by the definition."""
    n = len(square)
    return {(r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            for r1 in range(n) for r2 in range(r1 + 1, n) for c1 in range(n) for c2 in range(c1 + 1, n)
            if square[r1][c1] == square[r2][c2] and square[r1][c2] == square[r2][c1]}


def _fits(layout: _Layout, grid: list[int]) -> bool:
    return all(tuple(grid[i] for i in idx) in assigns for _, idx, assigns in layout.sat_cages())


@pytest.mark.parametrize("n", [6, 7])
def test_swapped_is_a_second_solution_exactly_when_an_intercalate_fits(n):
    met = {True: 0, False: 0}
    for seed in range(12):
        layout, flat = _layout(n, seed)
        listed = layout._intercalates()
        assert {cells for cells, _ in listed} == _plain_intercalates(layout.square)
        solver = DraftSolver(n)
        try:
            for _ in range(4):
                got = layout.swapped()
                fitting = [grid for _, grid in listed if _fits(layout, grid)]
                if got is None:
                    assert not fitting
                else:
                    met[True] += 1
                    assert got in fitting and got != flat and is_latin([got[r * n:(r + 1) * n] for r in range(n)], n)
                    other, complete = solver.second_solution(flat, layout.sat_cages())
                    assert complete and other is not None  # SAT agrees the draft is ambiguous
                met[False] += got is None
                if not layout.tighten():
                    break
        finally:
            solver.close()
    assert met[True] and met[False]  # both branches were exercised


def test_rule_out_loosens_where_the_other_solution_differs():
    ruled = 0
    for seed in range(20):
        layout, flat = _layout(6, seed)
        other = layout.swapped()
        if other is None:
            continue
        before = (layout.cage_list(), dict(layout.owner))
        assert KENKEN._rule_out(layout, flat, other)
        assert layout.cage_list() != before[0]
        # Only cages over cells where the solutions differ were touched.
        diff = {divmod(i, 6) for i in range(36) if other[i] != flat[i]}
        kept = {c for c in before[0] if not diff & set(c.cells)}
        assert len(kept - set(layout.cage_list())) <= 1  # (a re-cut takes one neighbour along)
        ruled += not layout.admits(other, [i for i in range(36) if other[i] != flat[i]])
    assert ruled  # the loosening usually leaves the other solution out


def test_admits_by_sets_is_the_plain_scan():
    met = {True: 0, False: 0}
    for seed in range(12):
        layout, flat = _layout(6, seed)
        rng = random.Random(seed)
        for step in range(6):
            grids = [grid for _, grid in layout._intercalates()]
            grids.append(flat)
            for grid in grids:
                cells = [i for i in range(36) if grid[i] != flat[i]] or rng.sample(range(36), 3)
                got = layout.admits(grid, cells)
                assert got == layout.admits_plain(grid, cells)
                met[got] += 1
            layout.loosen(divmod(rng.randrange(36), 6)) if step % 2 else layout.tighten()
    assert met[True] and met[False]


def test_small_hard_puzzles_use_no_single_cell_cage_under_few_singles():
    # A hard 4x4 or 5x5 with ``singles: few`` shows none (``HARD_NO_SINGLE``); larger grids and
    # ``singles: normal`` keep theirs.
    assert singles_cap("few", Level.HARD, 4) == singles_cap("few", Level.HARD, 5) == 0
    assert singles_cap("few", Level.HARD, 6) == 1
    assert singles_cap("few", Level.HARD, 5, pairs_only=True) == 1  # (25 cells can't all pair up)
    assert singles_cap("normal", Level.HARD, 4) == 2
    rules = KENKEN.parse_rules(RULES, 4)
    for seed in range(3):
        puzzle = KENKEN.generate(4, rules, Level.HARD, random.Random(seed))
        assert puzzle.grade.level == Level.HARD
        assert all(len(cage.cells) > 1 for cage in puzzle.cages)
        assert len(KENKEN.solutions(puzzle, 2)) == 1


def test_split_cuts_no_single_where_a_small_hard_grid_shows_none():
    rng = random.Random(3)
    square = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    hard = _Layout(4, square, KENKEN.parse_rules(RULES, 4), Level.HARD, rng)
    medium = _Layout(4, square, KENKEN.parse_rules(RULES, 4), Level.MEDIUM, rng)
    assert (hard.least_part, medium.least_part) == (2, 1)
    assert hard._split([(0, 0), (0, 1), (1, 1)]) is None  # (every cut leaves a single)
    block = [(0, 0), (0, 1), (1, 0), (1, 1)]
    for _ in range(20):
        parts = hard._split(block)
        assert parts is not None and sorted(map(len, parts)) == [2, 2]
    assert any(min(map(len, medium._split(block) or ([], []))) == 1 for _ in range(40))


def _swap_kept_plain(layout: _Layout) -> bool:
    """By the definition: some intercalate whose swap leaves every cage's digits as they were."""
    n, sq = layout.n, layout.square
    flat = [d for row in sq for d in row]
    for cells in _plain_intercalates(sq):
        grid = flat[:]
        grid[cells[0]], grid[cells[1]] = grid[cells[1]], grid[cells[0]]
        grid[cells[2]], grid[cells[3]] = grid[cells[3]], grid[cells[2]]
        if all(sorted(flat[r * n + c] for r, c in cage) == sorted(grid[r * n + c] for r, c in cage)
               for cage in layout.cages):
            return True
    return False


@pytest.mark.parametrize("n", [4, 5])
def test_small_easy_tiling_reshuffles_the_square_while_an_intercalate_swaps(n):
    # ``_swap_kept`` answers the definition on every tiling met; where it holds, the draft has a
    # second solution whatever operations were picked (``swapped``: its cages admit the swap);
    # ``tile`` shuffles the square's rows and columns, never its cages, so the cut is the one a
    # tiling of the first square makes from the same draws, and the square stays a Latin square.
    kept = {True: 0, False: 0}
    for seed in range(60):
        rng = random.Random(seed)
        square = random_latin_square(n, rng)
        layout = _Layout(n, square, RULES, Level.EASY, rng)
        cut = _Layout(n, square, RULES, Level.EASY, random.Random(seed))
        cut.rng.setstate(rng.getstate())
        if not layout.tile():
            continue
        assert cut._cut() and cut.cages == layout.cages
        assert is_latin(layout.square, n)
        got = layout._swap_kept() is not None
        assert got == _swap_kept_plain(layout)
        sq = layout.square  # ``_reshuffle``'s test by rectangles, on the square as it stands
        assert got == any(sq[r1][c1] == sq[r2][c2] and sq[r1][c2] == sq[r2][c1]
                          for r1, r2, c1, c2 in layout._pair_rects())
        assert (layout.swapped() is not None) >= got
        kept[got] += 1
        layout._reshuffle()
        assert (layout._swap_kept() is not None) == _swap_kept_plain(layout)
        layout.loosen(layout.cages[0][0])  # (the search asks again after each loosening)
        assert (layout._swap_kept() is not None) == _swap_kept_plain(layout)
    assert kept[False] > 0


def test_tilings_yield_the_square_the_layout_was_tiled_on():
    from bookgen.variants.kenken import _table_square, _tilings
    for seed in range(20):
        for square, flat, layout in _tilings(4, RULES, Level.EASY, random.Random(seed), 3, _table_square):
            assert square is layout.square and flat == [d for row in square for d in row]


@pytest.mark.parametrize("level", [Level.EASY, Level.HARD])
def test_pick_table_and_a_tilings_specs_are_the_plain_ones(level):
    # ``_pick_table`` (remembered per process) against ``op_options`` and ``_op_weights``, on the
    # cages of tilings and of their loosenings, ops shown and hidden; and ``cage_specs``, whose
    # targets ``tile`` reads off the pick tables, against ``cage_value`` on the square (what
    # ``_made_spec`` works out), on 4x4 to 6x6 (reshuffled squares among them).
    seen = 0
    for seed in range(30):
        rng = random.Random(seed)
        n = 4 + seed % 3
        rules = dict(RULES, show_ops=bool(seed % 2), ops=["+", "-", "*", "/"] if seed % 4 else ["+", "*"])
        layout = _Layout(n, random_latin_square(n, rng), rules, level, rng)
        if not layout.tile():
            continue
        for _ in range(4):
            plain = [(tuple(cells), op, cage_value(op, [layout.square[r][c] for r, c in cells]))
                     for cells, op in zip(layout.cages, layout.ops)]
            assert layout.cage_specs() == plain
            seen += 1
            for cells in layout.cages:
                key = tuple(cells)
                assert layout._pick_table(key) == layout._pick_table_plain(key)
            layout.loosen(layout.cages[0][0])
    assert seen > 40


@pytest.mark.parametrize("level", list(Level))
def test_cut_is_the_plain_cut(level):
    # ``_cut`` (draws written out, the mix kept per rules) against ``_cut(plain=True)``
    # (``random``'s own methods): the same cages, owners and verdict from the same draws, the generator left
    # in the same state; every size, singles mode and cage bound, and ops without '+'.
    met = {True: 0, False: 0}
    for seed in range(40):
        n = 3 + seed % 7
        rules = dict(RULES, singles=("few", "none", "normal")[seed % 3], max_cage=2 + seed % 5,
                     ops=["+", "-", "*", "/"] if seed % 4 else ["*", "-"])
        square = random_latin_square(n, random.Random(seed))
        fast = _Layout(n, square, rules, level, random.Random(seed))
        plain = _Layout(n, square, rules, level, random.Random(seed))
        for _ in range(3):
            got = fast._cut()
            assert got == plain._cut(plain=True)
            assert fast.cages == plain.cages and fast.owner == plain.owner
            assert fast.rng.getstate() == plain.rng.getstate()
            met[got] += 1
    assert met[True]


def test_some_op_fits_any_cells_when_plus_or_times_is_allowed():
    # ``_Layout.big``: the moves skip ``op_options`` (never empty then) as a test of whether a
    # cage may be made; with only '-' and '/' they ask it.
    rng = random.Random(5)
    for ops in (["+"], ["*"], ["+", "-"], ["*", "/"], ["-", "/"]):
        for n in (4, 6):
            layout = _Layout(n, random_latin_square(n, rng), dict(RULES, ops=ops), Level.EASY, rng)
            assert layout.big == ("+" in ops or "*" in ops)
            for _ in range(200):
                r, c = rng.randrange(n), rng.randrange(n)
                cells = [(r, c)]
                while len(cells) < rng.randint(1, 5):
                    x, y = rng.choice(cells)
                    nb = rng.choice([(x + dx, y + dy) for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))
                                     if 0 <= x + dx < n and 0 <= y + dy < n])
                    if nb not in cells:
                        cells.append(nb)
                if layout.big:
                    assert layout.op_options(cells)


def test_request_rules_remembered_is_the_plain_one():
    # ``KenKenVariant.request_rules`` (remembered by the rules as given) against
    # ``VariantDefaults.request_rules``: the same rules or the same error, asked twice each (the
    # second from the memo), a fresh dict and lists each time, ``True`` and ``1`` told apart.
    from bookgen.core.types import GenerationError
    from bookgen.core.variant import VariantDefaults

    def outcome(fn, size, rules, level):
        try:
            return fn(size, rules, level)
        except (ValueError, GenerationError) as e:
            return type(e), str(e)

    asks = [(4, None, Level.EASY), (4, {}, Level.EASY), (5, {"ops": ["+", "x"]}, Level.HARD),
            (4, {"show_ops": True}, Level.EASY), (4, {"show_ops": 1}, Level.EASY),
            (4, {"max_cage": 2, "singles": "none"}, Level.EASY), (5, {"max_cage": 2, "singles": "none"}, Level.EASY),
            (6, {"ops": ["-", "/"]}, Level.EASY), (3, {}, Level.HARD), (4, {"ops": [["+"]]}, Level.EASY),
            (4, {"colour": "red"}, Level.EASY), (4, {"max_cage": 4.0}, Level.EASY)]
    errors = 0
    for size, rules, level in asks * 2:
        got = outcome(KENKEN.request_rules, size, rules, level)
        assert got == outcome(lambda *a: VariantDefaults.request_rules(KENKEN, *a), size, rules, level)
        if isinstance(got, dict):
            got["ops"].append("?")  # (the next answer is not this one)
        else:
            errors += 1
    assert errors and KENKEN.request_rules(4, {}, Level.EASY)["ops"] == ["+", "-", "*", "/"]


def test_quads_are_the_intercalates_in_order():
    """``_quads`` lists every intercalate of the square by the definition, in its order (rows,
    then the first column, ascending): ``_swap_kept`` answers with the first one."""
    from bookgen.variants.kenken import _quads
    rng = random.Random(5)
    met = 0
    for n in range(2, 10):
        for _ in range(25):
            sq = random_latin_square(n, rng)
            plain = [(r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                     for r1 in range(n) for r2 in range(r1 + 1, n) for c1 in range(n) for c2 in range(c1 + 1, n)
                     if sq[r1][c1] == sq[r2][c2] and sq[r1][c2] == sq[r2][c1]]
            assert list(_quads(sq)) == plain
            met += len(plain) > 1
    assert met
