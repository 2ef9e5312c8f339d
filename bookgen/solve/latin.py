"""Latin squares and cage arithmetic, shared by the KenKen solvers and generator.

A Latin square of order N holds 1..N once in every row and column. Here cells
are indexed ``i = row * N + col`` and candidate sets are bitmasks (bit d-1
stands for digit d), so set operations are single integer operations.

A *cage* is a connected group of cells with an operation and a target. Its
*assignments* are all digit tuples (one digit per cell, in the cage's cell
order) that reach the target and repeat no digit within a row or column of
the cage. They depend only on the cage's shape, operation, target and N, so
they are enumerated once and cached.
"""

from __future__ import annotations

import random
from functools import lru_cache
from math import prod
from itertools import combinations, product
from typing import Iterator, Sequence

from bookgen.core.memo import BoundedMemo
from bookgen.core.rng import shuffle, shuffle_steps
from bookgen.core.types import Cell

OPS: tuple[str, ...] = ("+", "-", "*", "/")
# Operations that only make sense between exactly two cells.
PAIR_OPS: frozenset[str] = frozenset({"-", "/"})
# What the book prints for each operation (real minus, times and division signs).
OP_GLYPHS: dict[str, str] = {"+": "+", "-": "\u2212", "*": "\u00d7", "/": "\u00f7", "": ""}


def bit(d: int) -> int:
    """The candidate bit of digit ``d`` (1-based)."""
    return 1 << (d - 1)


def full_mask(n: int) -> int:
    """The candidate mask holding every digit 1..n."""
    return (1 << n) - 1


# A cell's symbol in grid strings, JSON and text: one character per digit, ``A`` = 10 ...
# ``G`` = 16 (the book JSON spec); how a page prints it is the variant's choice.
SYMBOLS = "123456789ABCDEFG"
MAX_ORDER = len(SYMBOLS)


def symbol(d: int) -> str:
    """The one-character symbol of digit ``d`` (1..16): ``1``..``9``, then ``A``..``G``."""
    return SYMBOLS[d - 1]


def value(ch: str) -> int:
    """The digit a one-character symbol stands for (``A`` = 10 ... ``G`` = 16); 0 for
    anything else."""
    return SYMBOLS.find(ch) + 1 if len(ch) == 1 else 0


def symbols(n: int) -> str:
    """The symbols of digits 1..n, in order."""
    return SYMBOLS[:n]


def digits_of(mask: int) -> list[int]:
    """The digits in a candidate mask, ascending."""
    out = []
    d = 1
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return out


def naked_subsets(cells: Sequence[int], cand: Sequence[int], placed: Sequence[bool],
                  size: int) -> Iterator[tuple[tuple[int, ...], int, list[int]]]:
    """Naked subsets of one line or house (shared by every Latin-square ladder): each group of
    ``size`` open cells of ``cells`` whose candidates add up to ``size`` digits, as (group,
    their digits' mask, the line's other open cells), in a fixed order. A caller cuts the
    digits from the other cells and stops at the first group that cuts something."""
    open_all = [i for i in cells if not placed[i]]
    if len(open_all) <= size:
        return
    small = [i for i in open_all if cand[i].bit_count() <= size]
    for group in combinations(small, size):
        u = 0
        for i in group:
            u |= cand[i]
        if u.bit_count() == size:
            yield group, u, [i for i in open_all if i not in group]


def positions(cand: Sequence[int], cells: Sequence[int], placed: Sequence[bool], n: int) -> list[int]:
    """Per digit (0-based), a bitmask of the positions (indexes into ``cells``) of the open
    cells where it is still possible."""
    pos = [0] * n
    for j, i in enumerate(cells):
        if placed[i]:
            continue
        m = cand[i]
        while m:
            b = m & -m
            pos[b.bit_length() - 1] |= 1 << j
            m ^= b
    return pos


def hidden_subsets(pos: Sequence[int], size: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Hidden subsets of one line or house from its ``positions``: each ``size`` digits
    (0-based) that fit in only ``size`` positions between them, as (digits, positions mask)."""
    digits = [d for d in range(len(pos)) if pos[d] and pos[d].bit_count() <= size]
    for ds in combinations(digits, size):
        u = 0
        for d in ds:
            u |= pos[d]
        if u.bit_count() == size:
            yield ds, u


def random_latin_square(n: int, rng: random.Random) -> list[list[int]]:
    """A random Latin square of order ``n`` (rows of digits 1..n).

    Rows are added one at a time as a random perfect matching between columns
    and the digits each column still lacks. Hall's theorem guarantees that a
    Latin rectangle always extends, so this never backtracks over rows; the
    random order of the augmenting-path search gives a rich spread of squares
    (far beyond cyclic shifts). Rows, columns and symbols are shuffled at the
    end on top.

    ``random_latin_square_plain`` is the version it must equal, square and draws
    (tests/test_rng_shuffle.py): here each column's lacking digits are a sorted list
    kept as digits leave it, and the shuffles of each row's options are written out
    (a 5x5 square shuffles 25 of them, most of the time a small grid's square took).
    """
    getrandbits = rng.getrandbits
    missing = [list(range(1, n + 1)) for _ in range(n)]  # digits column c still lacks, ascending
    rows: list[list[int]] = []
    for r in range(n):
        steps = shuffle_steps(n - r)
        options = []
        for lack in missing:
            opt = lack[:]
            for i, bound, k in steps:  # (``shuffle``, written out: the same draws)
                j = getrandbits(k)
                while j >= bound:
                    j = getrandbits(k)
                opt[i], opt[j] = opt[j], opt[i]
            options.append(opt)
        row = [0] * n
        for d, c in _row_matching(options, rng).items():
            row[c] = d
            missing[c].remove(d)
        rows.append(row)
    return _shuffled_square(rows, rng)


def random_latin_square_plain(n: int, rng: random.Random) -> list[list[int]]:
    """``random_latin_square`` as first written: each column's lacking digits a set, sorted
    and shuffled for each row; the matching's search started from every column."""
    missing = [set(range(1, n + 1)) for _ in range(n)]  # digits column c still lacks
    rows: list[list[int]] = []
    for _ in range(n):
        # Sorted before shuffling so the order never depends on set hashing.
        options = [sorted(missing[c]) for c in range(n)]
        for opt in options:
            shuffle(rng, opt)
        row = [0] * n
        for d, c in _row_matching(options, rng, plain=True).items():
            row[c] = d
            missing[c].discard(d)
        rows.append(row)
    return _shuffled_square(rows, rng)


def _row_matching(options: list[list[int]], rng: random.Random, plain: bool = False) -> dict[int, int]:
    """A perfect matching of the columns (each with ``options``, the digits it lacks in a
    random order) to digits, as {digit: column}: an augmenting path from each column in a
    random order, tried in the column's order. Where a column's first digit is free the
    search would take it at once, so it is taken without the search (``plain``: searched)."""
    owner: dict[int, int] = {}  # digit -> column using it in this row

    def augment(c: int, seen: set[int]) -> bool:
        for d in options[c]:
            if d in seen:
                continue
            seen.add(d)
            if d not in owner or augment(owner[d], seen):
                owner[d] = c
                return True
        return False

    cols = list(range(len(options)))
    shuffle(rng, cols)
    for c in cols:
        d = options[c][0]
        if d not in owner and not plain:
            owner[d] = c
        elif not augment(c, set()):  # pragma: no cover - impossible by Hall's theorem
            raise RuntimeError("Latin rectangle failed to extend")
    return owner


def _shuffled_square(rows: list[list[int]], rng: random.Random) -> list[list[int]]:
    """``rows`` (a Latin square) with its rows, columns and symbols shuffled."""
    n = len(rows)
    row_order = list(range(n))
    col_order = list(range(n))
    symbols = list(range(1, n + 1))
    shuffle(rng, row_order)
    shuffle(rng, col_order)
    shuffle(rng, symbols)
    return [[symbols[rows[r][c] - 1] for c in col_order] for r in row_order]


def is_latin(grid: Sequence[Sequence[int]], n: int) -> bool:
    """True when ``grid`` is an n x n Latin square over 1..n."""
    want = set(range(1, n + 1))
    if len(grid) != n or any(len(row) != n for row in grid):
        return False
    return all(set(row) == want for row in grid) and all(
        {grid[r][c] for r in range(n)} == want for c in range(n)
    )


def cage_value(op: str, digits: Sequence[int]) -> int | None:
    """What ``digits`` make under ``op``, or None when the operation doesn't apply.

    ``-`` and ``/`` take exactly two digits (larger minus/over smaller); ``/``
    must divide exactly; ``""`` is a single cell's own value.
    """
    if op == "":
        return digits[0] if len(digits) == 1 else None
    if op == "+":
        return sum(digits)
    if op == "*":
        out = 1
        for d in digits:
            out *= d
        return out
    if len(digits) != 2:
        return None
    hi, lo = max(digits), min(digits)
    if op == "-":
        return hi - lo
    if op == "/":
        return hi // lo if hi % lo == 0 else None
    return None


def normal_shape(cells: Sequence[Cell]) -> tuple[Cell, ...]:
    """The cage's cells moved to the origin, in the given order (the cache key)."""
    r0 = min([r for r, _ in cells])
    c0 = min([c for _, c in cells])
    return tuple([(r - r0, c - c0) for r, c in cells])


# ``normal_shape`` remembered: a generator asks for the assignments of each draft cage
# twice (its ladder board and its SAT clauses).
cached_normal_shape = lru_cache(maxsize=1 << 16)(normal_shape)


def _clashes(shape: Sequence[Cell]) -> tuple[tuple[int, ...], ...]:
    """Per cell of ``shape``, the earlier cells it shares a row or a column with: all that a
    cage's assignments read of its shape (its digits differ exactly there)."""
    return tuple(tuple(j for j in range(i) if shape[j][0] == cell[0] or shape[j][1] == cell[1])
                 for i, cell in enumerate(shape))


_CLASH_FORMS = BoundedMemo(1 << 12)  # clashes -> the first shape met with them


@lru_cache(maxsize=1 << 12)
def clash_form(shape: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """The shape that stands for every shape with ``shape``'s clashes (``_clashes``): the first
    of them met. Shapes with the same clashes have the same assignments for every op and target
    (``_grown``, ``_prefixes`` and ``_search`` read nothing else of a shape), so they are listed
    once and share the answers (a 4x4 grid's 27 cage shapes of two to four cells have 20 forms:
    the two dominoes one, the two straight lines of three one, of four one). ``shape`` itself is the plain version
    (tests/test_kenken.py)."""
    key = _clashes(shape)
    got = _CLASH_FORMS.get(key)
    return _CLASH_FORMS.put(key, shape) if got is None else got


@lru_cache(maxsize=1 << 16)
def cached_clash_form(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """``clash_form`` of the cells' ``normal_shape``, remembered by the cells."""
    return clash_form(cached_normal_shape(cells))


# A shape with at most this many digit tuples (N ** cells) has all its fillings listed
# at once and sorted by what each op makes of them: one pass per shape instead of a
# search per target (a 4x4 generator asks for a few hundred targets on a few dozen shapes).
# Larger shapes go by their prefixes (below): a 5x5 four-cell shape (625 tuples, listed
# up to this session) is asked for two or three targets, which its prefixes answer for less,
# in a fresh process and after 300 puzzles alike (docs/benchmarks.md, kk9e).
LISTED_FILLINGS = 600


# Above that, a shape whose cells but the last have at most this many fillings finds a
# target's fillings in the list of those: the last digit is what the target leaves (a 7x7
# four-cell cage: 343 prefixes, 0.03 ms a target, where the search took 0.2 ms).
PREFIX_FILLINGS = 4096


def _grown(shape: tuple[Cell, ...], n: int) -> list[tuple[int, ...]]:
    """Every filling of a cage of this shape (digits differ where cells share a row or a
    column), in lexicographic order."""
    # Grown cell by cell in lexicographic order, dropping a digit its row or column already
    # holds as soon as it is placed (half the time of filtering every tuple of the full product).
    # A cell clashing with several earlier ones takes the digits left once theirs are out
    # (one set a prefix: a test per clash per digit, by a generator each, cost five times that).
    digits = range(1, n + 1)
    fills: list[tuple[int, ...]] = [()]
    for i, cell in enumerate(shape):
        clash = [j for j in range(i) if shape[j][0] == cell[0] or shape[j][1] == cell[1]]
        if not clash:
            fills = [t + (d,) for t in fills for d in digits]
        elif len(clash) == 1:
            j = clash[0]
            fills = [t + (d,) for t in fills for d in digits if t[j] != d]
        else:
            fills = [t + (d,) for t in fills for bad in ({t[j] for j in clash},) for d in digits if d not in bad]
    return fills


def _grown_plain(shape: tuple[Cell, ...], n: int) -> list[tuple[int, ...]]:
    """``_grown``'s fillings from every digit tuple, in order (tests/test_kenken.py)."""
    clash = [(i, j) for i in range(len(shape)) for j in range(i)
             if shape[j][0] == shape[i][0] or shape[j][1] == shape[i][1]]
    return [t for t in product(range(1, n + 1), repeat=len(shape)) if all(t[i] != t[j] for i, j in clash)]


@lru_cache(maxsize=None)
def _fillings(shape: tuple[Cell, ...], n: int) -> dict[tuple[str, int], tuple[tuple[int, ...], ...]]:
    """Every filling of a cage of this shape, by (op, target) for ``+`` and ``*``, each list
    in lexicographic order as ``shape_assignments``' search finds them (``_fillings_plain`` is
    the version it must equal, tests/test_kenken.py). ``shape_assignments`` asks for a shape's
    ``clash_form`` only, so shapes with the same clashes share one table."""
    # Per op, the values made at once (``map``) and grouped by a dict of plain ints (a
    # ``setdefault`` per filling and op, on a new (op, value) key each, cost twice as much).
    fills = _grown(shape, n)
    out: dict[tuple[str, int], tuple[tuple[int, ...], ...]] = {}
    for op, value in (("+", sum), ("*", prod)):
        by: dict[int, list[tuple[int, ...]]] = {}
        for got, t in zip(map(value, fills), fills):
            found = by.get(got)
            if found is None:
                by[got] = [t]
            else:
                found.append(t)
        for got, found in by.items():
            out[op, got] = tuple(found)
    return out


def _fillings_plain(shape: tuple[Cell, ...], n: int) -> dict[tuple[str, int], tuple[tuple[int, ...], ...]]:
    """``_fillings``, a filling at a time (tests/test_kenken.py)."""
    out: dict[tuple[str, int], list[tuple[int, ...]]] = {}
    for t in _grown_plain(shape, n):
        out.setdefault(("+", sum(t)), []).append(t)
        out.setdefault(("*", prod(t)), []).append(t)
    return {key: tuple(found) for key, found in out.items()}


@lru_cache(maxsize=None)
def _prefixes(shape: tuple[Cell, ...], n: int) -> tuple[list[tuple[int, ...]], dict, dict, list[int]]:
    """(every filling of the shape's cells but the last, in lexicographic order; per op, the
    positions in that list of the prefixes by their sum or product, ascending; per op, each
    prefix's sum or product; per prefix, the digits (a bit each) of the earlier cells the last
    one shares a row or a column with): ``_prefixes_plain``'s, which it must equal
    (tests/test_kenken.py). The fillings of the cells but the last depend on which of them share
    a line, not on where they lie, and the last digits' clashes on which of them it shares one
    with: both are kept by those patterns (``_PREFIX_PARTS``), which the shapes of a size share
    (the fourteen four-cell shapes of 30 5x5 puzzles have six such prefixes), so each
    shape's tables are made once a pattern, not once a shape. The lists are shared: read only."""
    head, last = shape[:-1], shape[-1]
    clash = tuple(j for j, cell in enumerate(head) if cell[0] == last[0] or cell[1] == last[1])
    key = (_clashes(head), n)
    got = _PREFIX_PARTS.get(key)
    if got is None:
        fills = _grown(head, n)  # (any shape with these clashes grows the same list)
        got = _PREFIX_PARTS.put(key, (fills, *_prefix_values(fills), {}))
    fills, made, values, takens = got
    taken = takens.get(clash)
    if taken is None:
        taken = takens[clash] = _prefix_taken(fills, clash)
    return fills, made, values, taken


_PREFIX_PARTS = BoundedMemo(1 << 10)  # ``_prefixes``' parts, by the clashes of the cells but the last


def _prefixes_plain(shape: tuple[Cell, ...], n: int) -> tuple[list[tuple[int, ...]], dict, dict, list[int]]:
    """``_prefixes`` worked out for the shape itself."""
    fills = _grown(shape[:-1], n)
    last = shape[-1]
    clash = [j for j, cell in enumerate(shape[:-1]) if cell[0] == last[0] or cell[1] == last[1]]
    return (fills, *_prefix_values(fills), _prefix_taken(fills, clash))


def _prefix_values(fills: list[tuple[int, ...]]) -> tuple[dict, dict]:
    """``_prefixes``' middle parts: per op, the positions of the prefixes by their sum or
    product; per op, each prefix's sum or product."""
    made: dict[str, dict[int, list[int]]] = {"+": {}, "*": {}}
    values: dict[str, list[int]] = {}
    for op, value in (("+", sum), ("*", prod)):
        by = made[op]
        got_all = values[op] = list(map(value, fills))
        for k, got in enumerate(got_all):
            at = by.get(got)
            if at is None:
                by[got] = [k]
            else:
                at.append(k)
    return made, values


def _prefix_taken(fills: list[tuple[int, ...]], clash: Sequence[int]) -> list[int]:
    """Per prefix, the digits (a bit each) of its cells ``clash``."""
    taken = []
    for t in fills:
        m = 0
        for j in clash:
            m |= 1 << t[j]
        taken.append(m)
    return taken


def _by_prefix(shape: tuple[Cell, ...], op: str, target: int, n: int) -> tuple[tuple[int, ...], ...]:
    """``shape_assignments``' search (``_search``, which this must equal: tests/test_kenken.py)
    for ``+`` and ``*``, read off ``_prefixes``: a prefix leaves the last cell at most one
    digit (what the target leaves of its sum or product), the prefixes that leave one in 1..N
    are looked up by their sum or product, and taken in their list's order (one prefix, one
    last digit: sorting the positions sorts the fillings), so the fillings come out in the
    search's lexicographic order."""
    fills, made, values, taken = _prefixes(shape, n)
    by = made[op]
    at: list[int] = []
    for d in range(1, n + 1):
        if op == "+":
            got = by.get(target - d)
        else:
            got = by.get(target // d) if not target % d else None
        if got:
            at += got
    at.sort()
    value = values[op]
    if op == "+":
        lasts = [(k, target - value[k]) for k in at]
    else:
        lasts = [(k, target // value[k]) for k in at]
    return tuple([fills[k] + (d,) for k, d in lasts if not taken[k] >> d & 1])


@lru_cache(maxsize=None)
def shape_assignments(shape: tuple[Cell, ...], op: str, target: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Every digit tuple for a cage of this shape that reaches ``target`` with ``op``.

    Cells of the cage sharing a row or a column get different digits. The
    search prunes on sums and on divisibility so even six-cell cages at N=9
    stay quick.
    """
    form = clash_form(shape)
    if form != shape:  # (the same assignments, listed and kept once for every shape of the form)
        return shape_assignments(form, op, target, n)
    k = len(shape)
    if op == "":
        return ((target,),) if k == 1 and 1 <= target <= n else ()
    if op in PAIR_OPS and k != 2:
        return ()
    if k == 1:
        return ()
    if op not in PAIR_OPS and n ** k <= LISTED_FILLINGS:
        return _fillings(shape, n).get((op, target), ())
    if op in ("+", "*") and n ** (k - 1) <= PREFIX_FILLINGS:
        return _by_prefix(shape, op, target, n)
    return _search(shape, op, target, n)


def _search(shape: tuple[Cell, ...], op: str, target: int, n: int) -> tuple[tuple[int, ...], ...]:
    """``shape_assignments`` of a multi-cell cage by a search in lexicographic order, pruned on
    sums and divisibility (every op; the plain version of the listed and prefix paths)."""
    k = len(shape)
    # For each cell, the earlier cells it must differ from.
    clash = [
        [j for j in range(i) if shape[j][0] == shape[i][0] or shape[j][1] == shape[i][1]]
        for i in range(k)
    ]
    out: list[tuple[int, ...]] = []
    cur = [0] * k
    if op in PAIR_OPS:
        for a in range(1, n + 1):
            for b in range(1, n + 1):
                if a != b and cage_value(op, (a, b)) == target:
                    out.append((a, b))
        return tuple(out)

    def rec(i: int, acc: int) -> None:
        if i == k:
            if acc == target:
                out.append(tuple(cur))
            return
        forbidden = 0
        for j in clash[i]:
            forbidden |= 1 << cur[j]
        left = k - i - 1  # cells still to fill after this one
        if op == "+":
            lo = max(1, target - acc - left * n)
            hi = min(n, target - acc - left)
            for d in range(lo, hi + 1):
                if not forbidden >> d & 1:
                    cur[i] = d
                    rec(i + 1, acc + d)
        else:
            for d in range(1, n + 1):
                if not forbidden >> d & 1 and not target % (acc * d):
                    cur[i] = d
                    rec(i + 1, acc * d)

    rec(0, 0 if op == "+" else 1)
    return tuple(out)


def cage_assignments(
    cells: Sequence[Cell], op: str, target: int, n: int, hidden_ops: Sequence[str] | None = None,
) -> tuple[tuple[int, ...], ...]:
    """Admissible digit tuples of a cage (aligned with ``cells``).

    With ``hidden_ops`` (the operations a puzzle with unprinted operations may
    use) the cage may use any of them that reaches ``target``.
    """
    shape = cached_normal_shape(tuple(cells))
    if len(cells) == 1 or hidden_ops is None:
        return shape_assignments(shape, op, target, n)
    return _hidden_assignments(shape, tuple(hidden_ops), target, n)


@lru_cache(maxsize=None)
def _hidden_assignments(shape: tuple[Cell, ...], ops: tuple[str, ...], target: int, n: int) -> tuple[tuple[int, ...], ...]:
    seen: set[tuple[int, ...]] = set()
    for op in ops:
        seen.update(shape_assignments(shape, op, target, n))
    return tuple(sorted(seen))
