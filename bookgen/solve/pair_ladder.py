"""The ladder's easy run on one integer of pairs, for a grid of rows and columns whose
constraint rows below the hidden single strike candidates (Skyscrapers' clue rows,
Futoshiki's sign next to a placed digit).

The state is ``rated.strikes_run``'s: bit ``d * n * n + i`` is digit d + 1 still open in the
open cell i; a placement is one AND with ``rated.pair_drops``' mask. ``run`` counts the uses
of each row the way ``houses.solve`` does when it runs the ladder (starting again from the
first row after each use) and hands back (None) wherever the ladder would not finish with
those rows alone; the callers' plain version is ``houses.run_ladder``.
"""

from __future__ import annotations

from typing import Callable, Sequence

from bookgen.solve.houses import Geometry, _bitboards
from bookgen.solve.rated import pair_drops

# ``find(pairs, given, unplaced)``: the strike of a row's first use that strikes something
# (open cells' pairs only), 0 where none does.
Finder = Callable[[int, int, int], int]


def run(geo: Geometry, givens: Sequence[tuple[int, int]], fixed: Sequence[tuple[str, Sequence[int]]] = (),
        finder: tuple[str, Finder] | None = None) -> tuple[dict[str, int], int] | None:
    """(the ladder's counts, the placed pairs) where the ladder's rows ``fixed``, ``finder``,
    ``hidden_single``, ``naked_single`` (in that order, each row's turn only where the rows
    before it find nothing) solve ``givens``; None where they would not, or where the ladder
    would meet a contradiction (a cell or a house that lost every place for a digit never gets
    one back, and every placement here checks that its digit is still open, so such a run
    never finishes).

    ``fixed``: rows whose strikes (each a use, in the order the row looks at them) are the
    same whatever is placed: once struck, none strikes again, so all are used first. A strike
    on a placed digit hands back. ``finder``: a row whose strike depends on what is placed,
    asked before each hidden single. Each use places the cells its strike left one digit
    (uncounted, as the ladder's driver places them). Then, while one is open, the first hidden
    single in the geometry's scan order (lowest digit first) whose cell has other digits;
    where none is, every naked single, one after another until none is left (any order places
    the same cells), each counted."""
    n = geo.n
    nn = n * n
    every = (1 << nn) - 1
    drop = pair_drops(geo)
    shifts = range(0, n * nn, nn)
    pairs = (1 << (n * nn)) - 1  # the open cells' digits
    unplaced = every
    given = 0                    # the placed cells' digits
    for i, d in givens:
        k = (d - 1) * nn + i
        if not pairs >> k & 1:
            return None
        pairs &= drop[k]
        unplaced &= ~(1 << i)
        given |= 1 << k
    counts: dict[str, int] = {}

    def singles() -> int:
        """The open cells with one digit left."""
        once = more = 0
        for s in shifts:
            x = pairs >> s & every
            more |= once & x
            once |= x
        return once & ~more

    def place_all(cells: int) -> bool:
        """Place each of ``cells`` (one digit each, open); False where a peer placed before
        took it (then two of them clash)."""
        nonlocal pairs, unplaced, given
        left = cells
        for s in shifts:
            x = pairs >> s & left
            while x:
                b = x & -x
                x ^= b
                k = s + b.bit_length() - 1
                if not pairs >> k & 1:
                    return False
                pairs &= drop[k]
                given |= 1 << k
                left ^= b
        unplaced &= ~cells
        return not left

    lone = singles()
    for name, strikes in fixed:
        for m in strikes:
            if not (pairs | given) & m:
                continue
            if given & m:
                return None
            pairs &= ~m
            counts[name] = counts.get(name, 0) + 1
            if not place_all(singles() & ~lone):  # (the cells its strikes left one digit)
                return None
            lone = singles()
    name, find = finder if finder is not None else ("", None)
    house_bits = _bitboards(geo)[0]
    scan_bits = [house_bits[h] for h in geo.lines or geo.scan]
    while unplaced:
        pos = []
        once = more = 0
        for s in shifts:
            x = pairs >> s & every
            pos.append(x)
            more |= once & x
            once |= x
        lone = once & ~more
        if find is not None:
            m = find(pairs, given, unplaced)
            if m:
                pairs &= ~m
                counts[name] = counts.get(name, 0) + 1
                if not place_all(singles() & ~lone):  # (the cells its strike left one digit)
                    return None
                continue
        # the first hidden single in scan order, lowest digit first, whose cell has other digits
        # (house by house, as ``houses._hidden_single`` looks, stopping at the first: most
        # masks of a digit's open cells are new to a memo of them, and a miss visits every house)
        best = None
        for hb in scan_bits:
            for d, x in enumerate(pos):
                y = x & hb
                if y and not y & (y - 1) and not y & lone:
                    best = d, y.bit_length() - 1
                    break
            if best is not None:
                break
        if best is not None:
            d, i = best
            k = d * nn + i
            pairs &= drop[k]
            unplaced &= ~(1 << i)
            given |= 1 << k
            counts["hidden_single"] = counts.get("hidden_single", 0) + 1
            continue
        placed = 0
        while lone:
            if not place_all(lone):
                return None
            placed += lone.bit_count()
            lone = singles()
        if not placed:
            return None  # (a harder row's turn, or a contradiction's)
        counts["naked_single"] = counts.get("naked_single", 0) + placed
    return counts, given
