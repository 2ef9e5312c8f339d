"""The Latin engine: every fast path against the plain version it must equal, and the
plug-in interface (a constraint brings techniques, state, clauses and a validator)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from conftest import examples

from bookgen.core.difficulty import Level
from bookgen.solve import houses
from bookgen.solve.arithmetic import Board, _fitting
from bookgen.solve.houses import (
    Contradiction, Extra, Run, State, Tech, cut, geometry, random_filling, run_ladder, solve, start,
)
from bookgen.solve.inequalities import extra_for
from bookgen.solve.latin import bit, positions, random_latin_square
from bookgen.solve.latin_sat import house_clauses, solutions
from bookgen.variants.kenken import _cell_bits, _joined_bits
from bookgen.variants.gridparts import connected

SUDOKU = geometry(9, (3, 3))
SUDOKU_X6 = geometry(6, (2, 3), True)
SQUARE5 = geometry(5)


def _givens(rng: random.Random, geo, keep: float) -> tuple[list[int], list[tuple[int, int]]]:
    sol = random_filling(geo, rng)
    assert sol is not None
    return sol, [(i, sol[i]) for i in range(geo.n ** 2) if rng.random() < keep]


def _easy_ladder(geo, givens, extra=houses.NO_EXTRA) -> tuple[bool | None, list[int], list[bool]]:
    """The plain easy tier: the candidate-per-cell ladder up to EASY."""
    try:
        st = start(geo, givens, extra)
        done = solve(st, Level.EASY, Run())
    except Contradiction:
        return False, [], []
    return (True if done else None), st.cand, st.placed


def _as_candidates(geo, pos: list[int], placed: int) -> tuple[list[int], list[bool]]:
    n = geo.n
    cand = [sum(1 << d for d in range(n) if pos[d] >> i & 1) for i in range(n * n)]
    return cand, [bool(placed >> i & 1) for i in range(n * n)]


@pytest.mark.parametrize("geo", [SUDOKU, SUDOKU_X6, SQUARE5], ids=["sudoku9", "sudokux6", "latin5"])
def test_bitboard_singles_equal_the_ladders_easy_tier(geo):
    # ``_singles`` is the easy tier on bitboards: same verdict, same placed cells, same
    # candidates as the ladder's naked and hidden singles reach.
    rng = random.Random(5)
    seen = set()
    for k in range(60):
        sol, givens = _givens(rng, geo, rng.choice((0.25, 0.4, 0.6)))
        if k % 7 == 0 and givens:  # now and then a clash: a wrong digit
            i, d = givens[0]
            givens[0] = (i, d % geo.n + 1)
        done, pos, placed = houses._singles(geo, givens, -1)
        want, cand, flags = _easy_ladder(geo, givens)
        assert done == want
        if done is not False:
            assert _as_candidates(geo, pos, placed) == (cand, flags)
        seen.add(done)
    assert seen == {True, False, None}  # solved, contradicted and stuck all came up


def test_bitboard_singles_with_signs_equal_the_easy_tier():
    # Futoshiki's easy tier adds ``sign_known``, which the bitboards run too.
    geo = SQUARE5
    rng = random.Random(8)
    pairs = [(r * 5 + c, r * 5 + c + 1) for r in range(5) for c in range(4)]
    pairs += [(r * 5 + c, (r + 1) * 5 + c) for r in range(4) for c in range(5)]
    seen = set()
    for _ in range(80):
        sol, givens = _givens(rng, geo, rng.choice((0.1, 0.3)))
        less = [(a, b) if sol[a] < sol[b] else (b, a) for a, b in rng.sample(pairs, 8)]
        extra = extra_for(less)
        done, pos, placed = houses._singles(geo, givens, -1, extra.less)
        want, cand, flags = _easy_ladder(geo, givens, extra)
        assert done == want
        if done is not False:
            assert _as_candidates(geo, pos, placed) == (cand, flags)
        seen.add(done)
    assert {True, None} <= seen


def test_carve_single_check_equals_the_plain_one():
    # ``_Givens.single_here`` (per-house digit masks) against candidates worked out plainly.
    rng = random.Random(2)
    geo = SUDOKU
    hits = 0
    for _ in range(25):
        sol = random_filling(geo, rng)
        gv = houses._Givens(geo, sol)
        for i in rng.sample(range(81), 50):
            gv.remove(i)
        for i in range(81):
            if gv.given[i]:
                continue
            st = start(geo, gv.pairs())
            naked = st.cand[i] == bit(sol[i])
            hidden = any(sum(1 for j in geo.houses[h] if not gv.given[j] and st.cand[j] & bit(sol[i])) == 1
                         for h in geo.houses_of[i])
            assert gv.single_here(i) == (naked or hidden)
            hits += naked or hidden
    assert hits


@pytest.mark.parametrize("geo", [SUDOKU, SUDOKU_X6, SQUARE5, geometry(7)], ids=["sudoku", "sudoku-x 6", "latin 5", "latin 7"])
def test_drop_singles_equals_the_plain_one(geo):
    # The written-out carve against ``_Givens``' methods: the same givens, masks and digits' cells.
    rng = random.Random(5)
    kept = 0
    for _ in range(20):
        sol = random_filling(geo, rng)
        cells = list(range(geo.n * geo.n))
        rng.shuffle(cells)
        fast, plain = houses.drop_singles(geo, sol, cells), houses.drop_singles(geo, sol, cells, plain=True)
        assert (fast.given, fast.mask, fast.have, fast.at) == (plain.given, plain.mask, plain.have, plain.at)
        kept += sum(fast.given)
    assert 0 < kept < 20 * geo.n * geo.n


@pytest.mark.parametrize("geo", [SUDOKU, geometry(9, (3, 3), True), SUDOKU_X6, SQUARE5, geometry(12, (3, 4))],
                         ids=["sudoku", "sudoku-x", "sudoku-x 6", "latin 5", "sudoku 12"])
def test_random_filling_equals_the_plain_one(geo):
    """The same grid (or None past the budget) and the same draws, on budgets that run out
    mid-fill too."""
    outcomes = set()
    for seed in range(6):
        for budget in (geo.n ** 2 - 3, geo.n ** 2 + 6, 20000):
            a, b = random.Random(seed), random.Random(seed)
            got, want = random_filling(geo, a, budget), houses.random_filling_plain(geo, b, budget)
            assert got == want
            assert a.getstate() == b.getstate()
            outcomes.add(got is None)
    assert outcomes == {True, False}


def test_start_equals_giving_the_givens_one_by_one():
    # ``start`` sets every candidate in one pass; the plain way gives each digit and places it.
    rng = random.Random(4)
    for geo in (SUDOKU, SUDOKU_X6):
        for _ in range(10):
            _, givens = _givens(rng, geo, 0.3)
            st = start(geo, givens)
            plain = State(geo)
            for i, d in givens:
                plain.give(i, d)
            assert st.cand == plain.cand and st.placed == plain.placed and st.unplaced == plain.unplaced


def test_start_without_givens_is_the_state_the_full_pass_makes():
    # With no givens ``start`` returns the new state at once, where its pass over every cell (the
    # plain version, which a 1x1 grid still takes) leaves every digit open, no cell placed and
    # no single (but a 1x1 grid's one cell).
    for geo in (SUDOKU, SUDOKU_X6, geometry(1), geometry(4)):
        st = start(geo, [])
        full = (1 << geo.n) - 1
        assert st.cand == [full] * (geo.n * geo.n) and st.placed == [False] * (geo.n * geo.n)
        assert st.unplaced == geo.n * geo.n
        assert st.fresh == ([0] if geo.n == 1 else [])


def test_house_positions_memo_equals_a_fresh_table():
    # Hidden subsets and X-wings read ``house_positions``, kept until the candidates change
    # and then updated at the cells that changed (a copy shares its table until it changes).
    rng = random.Random(6)
    _, givens = _givens(rng, SUDOKU, 0.3)
    st = start(SUDOKU, givens)
    kept = []
    for step in range(60):
        table = houses.house_positions(SUDOKU, st)
        assert table == [positions(st.cand, cells, st.placed, 9) for cells in SUDOKU.houses]
        for other in kept:  # an update never changes a table another state holds
            assert other.memo[2] == [positions(other.memo[0], cells, other.memo[1], 9) for cells in SUDOKU.houses]
        open_cells = [i for i in range(81) if not st.placed[i] and st.cand[i].bit_count() > 2]
        if not open_cells:
            break
        if step % 7 == 3:
            copy = st.copy()
            copy.memo = st.memo
            kept.append(st)
            st = copy
        i = rng.choice(open_cells)
        cut(st, [i], st.cand[i] & -st.cand[i])  # strike its lowest candidate
        singles = [j for j in range(81) if not st.placed[j] and not st.cand[j] & (st.cand[j] - 1)]
        if singles and step % 3 == 0:
            st.place(singles[0])


def test_unrolled_fitting_equals_the_plain_filter():
    # ``_fitting`` unrolls the filter for up to four positions; the loop at its end is the plain one.
    rng = random.Random(3)
    for _ in range(300):
        k = rng.randint(1, 6)
        live = [tuple(rng.randint(1, 6) for _ in range(k)) for _ in range(rng.randint(0, 12))]
        idx = list(range(k))
        cand = [rng.randint(0, 63) for _ in range(k)]
        at = sorted(rng.sample(range(k), rng.randint(1, k)))
        plain = [a for a in live if all(cand[idx[j]] >> (a[j] - 1) & 1 for j in at)]
        assert _fitting(live, idx, cand, at) == plain


def test_bitset_flood_fill_equals_connected():
    # KenKen's cage growth tests connectivity on bit sets; ``connected`` is the plain version.
    rng = random.Random(9)
    n = 5
    bits = _cell_bits(n)[0]
    for _ in range(300):
        cells = rng.sample([(r, c) for r in range(n) for c in range(n)], rng.randint(1, 7))
        mask = sum(bits[cell] for cell in cells)
        assert _joined_bits(mask, n) == connected(cells)


def test_plain_square_clauses_keep_the_historic_order():
    # KenKen's drafts read the solver's models, which follow the clause order: the one
    # encoding must list a plain square's clauses cells first, then digit by digit rows
    # and columns (as the square-only encoding did).
    n = 3
    clauses = house_clauses(n, geometry(n).houses)
    cell0 = tuple(range(1, n + 1))
    assert clauses[0] == cell0
    first_house = clauses[n * n * (1 + n * (n - 1) // 2)]
    assert first_house == (0 * n + 1, 1 * n + 1, 2 * n + 1)  # digit 1 in row 1


# --- the plug-in interface --------------------------------------------------------

def t_odd_corner(g, st, run) -> int:
    """A toy technique: the top-left cell holds an odd digit."""
    even = sum(bit(d) for d in range(2, g.n + 1, 2))
    return 1 if cut(st, [0], even) else 0


@dataclass(frozen=True)
class OddCorner(Extra):
    """A toy constraint: cell 0 is odd. Techniques, clauses and a validator."""

    def check(self, st: State) -> None:
        if not st.cand[0].bit_length() % 2:
            raise Contradiction("the corner is even")

    def clauses(self, n: int) -> list[list[int]]:
        return [[d for d in range(1, n + 1, 2)]]  # variable 0 * n + d: cell 0 holds d


def _rectangle_square(n: int) -> tuple[list[int], int]:
    """A square whose cells 0 and 1 (odd, even) swap with the same two cells of another row."""
    rng = random.Random(1)
    while True:
        sq = [d for row in random_latin_square(n, rng) for d in row]
        for r in range(1, n):
            if sq[r * n] == sq[1] and sq[r * n + 1] == sq[0] and sq[0] % 2 and not sq[1] % 2:
                return sq, r


def test_a_constraint_plugs_in_with_techniques_clauses_and_validator():
    n = 4
    geo = geometry(n)
    extra = OddCorner((Tech("odd_corner", Level.EASY, t_odd_corner, 0.3),))
    assert [t.name for t in extra.ladder()][:4] == ["odd_corner", "hidden_single_box", "hidden_single", "naked_single"]
    square, r = _rectangle_square(n)
    rect = {0, 1, r * n, r * n + 1}
    givens = [(i, square[i]) for i in range(n * n) if i not in rect]
    # The houses alone leave the rectangle's two fillings; the constraint picks one.
    assert len(solutions(geo, givens, 3)) == 2
    assert solutions(geo, givens, 3, extra.clauses(n)) == [square]
    res = run_ladder(geo, givens, Level.EXPERT, extra=extra)
    assert res.solved and res.level == Level.EASY and res.counts["odd_corner"] == 1
    assert not run_ladder(geo, givens, Level.EXPERT).solved  # without it, a trial can't choose
    # The validator rejects a full grid the techniques never looked at.
    swapped = dict(givens) | {0: square[1], 1: square[0], r * n: square[0], r * n + 1: square[1]}
    st = start(geo, sorted(swapped.items()), OddCorner())
    with pytest.raises(Contradiction):
        solve(st, Level.EXPERT, Run())


def test_kenken_board_is_an_engine_constraint():
    # KenKen's cages ride on the engine: its own ladder, a state a trial copies, a validator.
    board = Board.build(3, [([(0, 0), (0, 1)], "+", 3), ([(0, 2)], "", 3), ([(1, 0), (2, 0)], "+", 5),
                            ([(1, 1), (1, 2)], "*", 2), ([(2, 1), (2, 2)], "+", 4)])
    st = board.new_state(board.geo)
    copy = st.copy()
    assert type(copy) is type(st) and copy.live == st.live and copy.live is not st.live
    res = run_ladder(board.geo, [], Level.EXPERT, extra=board)
    assert res.solved and res.grid[0][2] == "3"
    assert {t.name for t in board.ladder()} >= {"single_cage", "cage_combos", "hidden_single", "trial"}


def test_the_one_expert_trial_rule():
    # The rule every carve asks (houses.carve, Futoshiki's carve): expert only, capped, and
    # only with something to go on from.
    from bookgen.solve.houses import may_try
    stall = start(geometry(4), [])
    assert may_try(Level.EXPERT, [], 2, stall)
    assert may_try(Level.EXPERT, [(0, 1)], 2, None)
    assert not may_try(Level.EXPERT, [], 2, None)
    assert not may_try(Level.EXPERT, [(0, 1), (1, 2)], 2, stall)
    assert not may_try(Level.HARD, [], 2, stall)


@pytest.mark.parametrize("geo", [SUDOKU, SUDOKU_X6, SQUARE5], ids=["sudoku9", "sudokux6", "latin5"])
def test_deadly_rectangles_equal_the_plain_search(geo):
    # The second column by a lookup against every pair of columns tried: the same rectangles
    # in the same order, on grids with and without them (a Latin square of order 5 has many).
    rng = random.Random(12)
    found = 0
    for _ in range(6):
        sol = random_filling(geo, rng)
        fast = houses.deadly_rectangles(geo, sol)
        assert fast == houses.deadly_rectangles_plain(geo, sol)
        found += sum(map(len, fast))
    assert found > 0


@pytest.mark.parametrize("geo", [SUDOKU, SUDOKU_X6, SQUARE5], ids=["sudoku9", "sudokux6", "latin5"])
def test_swap_cycles_are_unavoidable_sets(geo):
    # Each set, its two lines' digits swapped, is another solution (so a carve that opens it all
    # has two); a Sudoku's deadly rectangles are among them.
    rng = random.Random(8)
    n = geo.n
    for _ in range(4):
        sol = random_filling(geo, rng)
        cycles = houses.swap_cycles(geo, sol)
        sets = {m for per_cell in cycles for m in per_cell}
        assert sets
        for m in sets:
            cells = [i for i in range(n * n) if m >> i & 1]
            assert all(m in cycles[i] for i in cells)
            rows = {i // n for i in cells}
            step = n if len(rows) == 2 else 1  # two rows: a cell trades with its column's other cell
            other = list(sol)
            for i in cells:
                partner = next(j for j in cells if j != i and (j % n == i % n if step == n else j // n == i // n))
                other[i] = sol[partner]
            assert other != list(sol)
            assert all(sorted(other[i] for i in h) == list(range(1, n + 1)) for h in geo.houses)
        if geo is SUDOKU:
            rectangles = {sum(1 << i for i in r) for per_cell in houses.deadly_rectangles(geo, sol) for r in per_cell}
            assert rectangles <= sets


@pytest.mark.parametrize("geo", [geometry(9, (3, 3), True), SUDOKU_X6], ids=["sudokux9", "sudokux6"])
def test_confined_candidates_equal_the_plain_version(geo):
    # Positions from Sudoku X solves stalled at the medium tier's other techniques and at random
    # strikes: the same verdict, the same cut (house, digit and cells first found).
    rng = random.Random(21)
    n, fired = geo.n, 0
    for _ in range(6):
        sol, givens = _givens(rng, geo, 0.25)
        try:
            st = start(geo, givens)
        except Contradiction:
            continue
        for _ in range(40):
            fast, plain = st.copy(), st.copy()
            try:
                got = houses.t_confined(geo, fast, Run())
            except Contradiction:
                with pytest.raises(Contradiction):
                    houses.t_confined_plain(geo, plain, Run())
                break
            assert got == houses.t_confined_plain(geo, plain, Run())
            assert fast.cand == plain.cand and fast.placed == plain.placed
            fired += got
            open_cells = [i for i in range(n * n) if not st.placed[i] and st.cand[i].bit_count() > 1]
            if not open_cells:
                break
            i = rng.choice(open_cells)
            try:
                cut(st, [i], st.cand[i] & -st.cand[i])
                solve(st, Level.EASY, Run())
            except Contradiction:
                break
    assert fired > 3


def _stalled_states(geo, seed: int, count: int, level: Level = Level.MEDIUM) -> list:
    """States where ``level``'s tier stalls, from random givens of filled grids of ``geo``."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        _, givens = _givens(rng, geo, 0.33)
        try:
            st = start(geo, givens)
            solve(st, level, Run())
        except Contradiction:
            continue
        if st.unplaced:
            out.append(st)
    return out


@pytest.mark.parametrize("diagonal", [True, False], ids=["sudokux", "sudoku"])
def test_strong_link_patterns_equal_their_plain_versions(diagonal):
    # Skyscraper, kite, turbot fish and the grouped turbot each against its plain version on
    # stalled positions: the same verdict and the same cut.
    geo = geometry(9, (3, 3), diagonal)
    states = _stalled_states(geo, 4, 40)
    pairs = [(houses.strong_link_technique(kind), houses.strong_link_technique(kind, plain=True))
             for kind in ("skyscraper_pattern", "two_string_kite", "turbot_fish")]
    pairs.append((houses.t_grouped_turbot, houses.t_grouped_turbot_plain))
    for fast_fn, plain_fn in pairs:
        fired = 0
        for st in states:
            fast, plain = st.copy(), st.copy()
            got = fast_fn(geo, fast, Run())
            assert got == plain_fn(geo, plain, Run())
            assert fast.cand == plain.cand
            fired += got
        assert fired > 0


@pytest.mark.parametrize("geo", [geometry(9, (3, 3), True), SUDOKU, SUDOKU_X6], ids=["sudokux9", "sudoku9", "sudokux6"])
def test_locked_candidates_equal_the_plain_version(geo):
    # From the unions over the shared cells of two houses against every cell read per overlap:
    # the same verdict and cut (pointing before claiming), where it fires and where it doesn't.
    fired = 0
    # (30 and 30 before: bench/sweep_suite.py)
    for st in _stalled_states(geo, 9, examples(15)) + _stalled_states(geo, 10, examples(15), Level.EASY):
        for _ in range(3):
            fast, plain = st.copy(), st.copy()
            got = houses.t_locked_candidates(geo, fast, Run())
            assert got == houses.t_locked_candidates_plain(geo, plain, Run())
            assert fast.cand == plain.cand
            fired += got
            st = fast
    assert fired > 0


@pytest.mark.parametrize("diagonal", [False, True], ids=["sudoku", "sudokux"])
def test_carve_with_unavoidable_sets_equals_the_rival_alone(diagonal, monkeypatch):
    # A removal that opens an unavoidable set is refused before the singles and the rival's
    # SAT question; the rival alone (no sets) is the plain version: the same givens and trials.
    geo = geometry(9, (3, 3), diagonal)
    for seed, level in ((1, Level.MEDIUM), (2, Level.HARD)):
        sol = random_filling(geo, random.Random(seed))
        fast = houses.carve(geo, sol, level, random.Random(seed), 4)
        with monkeypatch.context() as m:
            m.setattr(houses, "swap_cycles", lambda geo, sol: [[] for _ in range(geo.n * geo.n)])
            assert houses.carve(geo, sol, level, random.Random(seed), 4) == fast
