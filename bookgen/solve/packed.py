"""Naked and hidden singles on every digit and house at once: the carves' "does this removed
given come back?" and "where does the easy tier stall?" on one big integer.

``houses._singles`` (the plain version) keeps one cell mask per digit and visits the houses
one by one. Here each way of splitting the grid into houses (rows, columns and, where they
split it too, boxes) is a *layout*: for every digit and house a segment of ``n`` bits (the
house's cells that may still hold the digit) with a guard bit above it; a last layout holds
per cell a segment of its candidate digits. All layouts sit side by side in one integer. The
segments holding exactly one bit are found for every digit, house and cell in a few
operations: ``(x | guards) - lows`` borrows from a segment's guard only where the segment is
empty, and ``x & that`` is, per segment, ``x & (x - 1)``: zero where it held one bit. So a
pass finds every hidden single (house layouts) and naked single (the cell layout) open and
places them all, each placement one AND with a mask worked out once per geometry (the pair's
cell loses its other digits, the digit its cell's peers, in every layout).

The givens (and strikes) must agree with a solution, as a carve's always do: then singles
never meet a contradiction, and placing every open single at once reaches the fixpoint the
plain version reaches one at a time (singles only strike candidates, and what one strikes no
order of the others keeps), so the verdict and the cells placed at a stall are the same.
tests/test_packed.py holds the two together.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from bookgen.core.memo import kept_by_identity
from bookgen.solve.houses import Geometry, _singles


LARGEST = 9  # the largest order packed (a 16x16 grid's masks would be megabytes, each AND long)


class _Packed(NamedTuple):
    """A geometry's layouts side by side (the house layouts, then the cell layout). A pair
    ``k = d * n * n + i`` is digit ``d + 1`` (0-based ``d``) in cell ``i``."""

    n: int
    full: int                 # every pair in every layout
    guards: int               # every segment's guard bit
    lows: int                 # every segment's lowest bit
    house_guards: int         # ``guards`` and ``lows`` of the house layouts alone
    house_lows: int
    keep: tuple[int, ...]     # per pair: every bit but its cell's other digits and its digit's peers
    pair: dict[int, int]      # per bit position: its pair
    bit: tuple[int, ...]      # per pair: its bit in the cell layout
    one: tuple[int, ...]      # per pair: its bits in every layout


def _positions(n: int, segments: Sequence[Sequence[tuple[int, int]]], shift: int) -> list[int]:
    """Per pair, its bit in a layout of ``segments`` (each a list of (0-based digit, cell),
    in bit order) starting at bit ``shift``."""
    pos = [0] * (n * n * n)
    for s, pairs in enumerate(segments):
        for k, (d, i) in enumerate(pairs):
            pos[d * n * n + i] = shift + s * (n + 1) + k
    return pos


@kept_by_identity()
def _packed(geo: Geometry) -> _Packed | None:
    """``geo``'s layouts, kept per geometry; None unless its houses split into groups of ``n``
    that each cover the grid once (rows, columns, boxes: Sudoku X's diagonals do not), or it
    is larger than ``LARGEST`` (a 16x16 grid's masks would be megabytes, each AND long)."""
    n = geo.n
    houses = geo.houses
    if len(houses) % n or n > LARGEST:
        return None
    groups = [houses[g:g + n] for g in range(0, len(houses), n)]
    every = list(range(n * n))
    if any(sorted(i for cells in group for i in cells) != every for group in groups):
        return None
    span = n * n * (n + 1)  # a layout's width
    layouts = [[[(d, i) for i in cells] for d in range(n) for cells in group] for group in groups]
    layouts.append([[(d, i) for d in range(n)] for i in range(n * n)])
    where = [_positions(n, segments, s * span) for s, segments in enumerate(layouts)]
    width = len(layouts) * span
    guards = sum(1 << (s * (n + 1) + n) for s in range(width // (n + 1)))
    lows = sum(1 << (s * (n + 1)) for s in range(width // (n + 1)))
    full = ((1 << width) - 1) & ~guards
    pair = {pos[k]: k for pos in where for k in range(n * n * n)}
    one = [sum(1 << pos[k] for pos in where) for k in range(n * n * n)]
    keep = []
    for d in range(n):
        for i in range(n * n):
            gone = 0
            for e in range(n):
                gone |= one[e * n * n + i]
            for j in geo.peers[i]:
                gone |= one[d * n * n + j]
            keep.append(full & ~gone)
    last = (len(layouts) - 1) * span
    bit = tuple(1 << where[-1][k] for k in range(n * n * n))
    houses_only = (1 << last) - 1
    return _Packed(n, full, guards, lows, guards & houses_only, lows & houses_only, tuple(keep), pair, bit,
                   tuple(one))


def singles_come_back(geo: Geometry, givens: Sequence[tuple[int, int]], until: int, naked: bool = True) -> bool:
    """Whether naked and hidden singles from ``givens`` (cell, digit), which must agree with a
    solution, place cell ``until`` (or solve the grid): ``_singles(geo, givens, until)[0] is
    True``, the plain version this must equal (tests/test_packed.py), and the one that answers
    on a geometry whose houses don't split into layouts. ``naked=False``: hidden singles alone
    (the cell layout is not read), the plain version ``rated.hidden_singles_solve(...,
    boxes_only=False)``, house by house."""
    packed = _packed(geo)
    if packed is None:
        if not naked:
            raise ValueError("hidden singles alone need a geometry of layouts")
        return _singles(geo, givens, until)[0] is True
    return _run(packed, givens, until, naked, 0)[0]


def singles_stall(geo: Geometry, givens: Sequence[tuple[int, int]], strike: int) -> int | None:
    """None where naked and hidden singles solve ``givens`` (which, with the strikes, must
    agree with a solution), else the cells placed where they stall; ``strike``: bit ``d * n *
    n + i`` rules digit ``d + 1`` out of cell ``i`` from the start. The plain version is
    ``_singles(geo, givens, -1, strike=...)`` (per digit, its cells struck), its verdict and
    placed cells (tests/test_packed.py)."""
    packed = _packed(geo)
    if packed is None:
        n = geo.n
        every = (1 << (n * n)) - 1
        done, _, placed = _singles(geo, givens, -1, strike=[strike >> (d * n * n) & every for d in range(n)])
    else:
        done, placed = _run(packed, givens, -1, True, strike)
    return None if done else placed


_CHUNK = 8  # bits of a strike spread by one lookup
SMALL = 6   # strikes spread by tables up to this order


@kept_by_identity()
def _chunks(packed: _Packed) -> tuple[tuple[int, ...], ...]:
    """Per ``_CHUNK`` bits of a strike (bit ``d * n * n + i``), per value: those pairs' bits in
    every layout, ORed (``_spread``; kept per geometry's layouts)."""
    one = packed.one
    out = []
    for base in range(0, len(one), _CHUNK):
        row = [0] * (1 << _CHUNK)
        for v in range(1, 1 << _CHUNK):
            low = v & -v
            k = base + low.bit_length() - 1
            row[v] = row[v ^ low] | (one[k] if k < len(one) else 0)
        out.append(tuple(row))
    return tuple(out)


def _spread(packed: _Packed, strike: int) -> int:
    """The bits of every pair in ``strike`` in every layout: ``one``'s, ORed (its plain
    version: the loop over the strike's bits, tests/test_packed.py)."""
    got = 0
    if packed.n > SMALL:  # (a table would be megabytes)
        while strike:
            low = strike & -strike
            strike ^= low
            got |= packed.one[low.bit_length() - 1]
        return got
    mask = (1 << _CHUNK) - 1
    for row in _chunks(packed):
        if not strike:
            break
        got |= row[strike & mask]
        strike >>= _CHUNK
    return got


@kept_by_identity()
def _sign_masks(packed: _Packed) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per (0-based digit v, cell) at ``v * n * n + i``: the bits, in every layout, of digits
    1 to v + 1 in cell ``i`` (what a sign's larger end loses next to a placed v + 1), and of
    digits v + 1 to n (what its smaller end loses)."""
    n, one = packed.n, packed.one
    nn = n * n
    upto, from_ = [], []
    for v in range(n):
        for i in range(nn):
            upto.append(sum(one[d * nn + i] for d in range(v + 1)))
            from_.append(sum(one[d * nn + i] for d in range(v, n)))
    return tuple(upto), tuple(from_)


def signs_come_back(geo: Geometry, givens: Sequence[tuple[int, int]], until: int,
                    less: Sequence[tuple[int, int]], used: set[tuple[int, int]] | None) -> bool:
    """``singles_come_back`` with Futoshiki's signs (``less``: smaller cell, larger cell) next
    to a placed digit, tried where no single is open, the signs that struck something added
    to ``used``: ``_singles(geo, givens, until, less, used)[0] is True``, the plain version
    this must equal, verdict and ``used`` (tests/test_packed.py). The signs must agree with
    the solution the givens do."""
    packed = _packed(geo)
    if packed is None:
        return _singles(geo, givens, until, less, used)[0] is True
    return _run(packed, givens, until, True, 0, less, used)[0]


@kept_by_identity()
def _placing(packed: _Packed) -> tuple[tuple[int, int, int, int] | None, ...]:
    """Per bit position: (``keep`` of its pair, its cell's bit, the cell, the 0-based digit),
    what ``_run`` reads to place a single found there (one lookup, where the pair's number
    took a dict lookup and three operations)."""
    n = packed.n
    nn = n * n
    out: list[tuple[int, int, int, int] | None] = [None] * (max(packed.pair) + 1)
    for at, k in packed.pair.items():
        out[at] = (packed.keep[k], 1 << k % nn, k % nn, k // nn)
    return tuple(out)


def _run(packed: _Packed, givens: Sequence[tuple[int, int]], until: int, naked: bool, strike: int,
         less: Sequence[tuple[int, int]] = (), used: set[tuple[int, int]] | None = None) -> tuple[bool, int]:
    """(whether the singles solve, or place ``until``; the cells placed) on ``packed``."""
    n = packed.n
    nn = n * n
    keep, placing = packed.keep, _placing(packed)
    x = packed.full
    if strike:
        x &= ~_spread(packed, strike)
    placed = 0
    for i, d in givens:
        x &= keep[(d - 1) * nn + i]
        placed |= 1 << i
    value: list[int] = []  # (kept with signs only) the 0-based digit of each placed cell
    if less:
        value = [0] * nn
        for i, d in givens:
            value[i] = d - 1
    stop = 1 << until if until >= 0 else 0
    every = (1 << nn) - 1
    guards, lows = (packed.guards, packed.lows) if naked else (packed.house_guards, packed.house_lows)
    spread = (1 << n) - 1
    upto, from_ = _sign_masks(packed) if less else ((), ())
    while True:
        if placed & stop or placed == every:
            return True, placed
        # Per segment: ``minus`` keeps its guard where it holds a bit; ``x & minus`` is
        # ``x & (x - 1)``, zero where it held one bit.
        minus = (x | guards) - lows
        one = minus & ~((x & minus | guards) - lows) & guards
        if not one:
            # No single open: a sign next to a placed digit (in the plain version's order, from
            # the same fixpoint, so the same signs strike)
            found = False
            for a, b in less:
                done_a, done_b = placed >> a & 1, placed >> b & 1
                if done_a == done_b:
                    continue
                m = upto[value[a] * nn + b] if done_a else from_[value[b] * nn + a]
                if x & m:
                    x &= ~m
                    found = True
                    if used is not None:
                        used.add((a, b))
            if found:
                continue
            return False, placed
        got = x & (one >> n) * spread
        # ``keep`` clears the pair in every layout, so ``got &= x`` drops the same single's
        # other bits (a naked single is often a hidden one too) with the one just placed; the
        # other singles' bits stay: on givens that agree with a solution no single strikes
        # another.
        if value:
            while got:
                kept, cell, i, d = placing[(got & -got).bit_length() - 1]
                x &= kept
                placed |= cell
                value[i] = d
                got &= x
        else:
            while got:
                kept, cell, i, d = placing[(got & -got).bit_length() - 1]
                x &= kept
                placed |= cell
                got &= x
