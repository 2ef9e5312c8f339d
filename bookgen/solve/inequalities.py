"""Inequality signs between neighbours (Futoshiki), plugged into the house ladder.

The signs are ``Extra.less`` pairs (smaller cell, larger cell). Two
techniques join the house ladder (``bookgen.solve.houses``):

- easy ``sign_known``: a sign next to a placed digit: ``3 < x`` rules 1..3
  out of x, ``x < 3`` rules 3..N out;
- medium ``sign_bounds``: a sign between two open cells: the smaller can't
  reach the larger's highest candidate, the larger can't go down to the
  smaller's lowest. Applied again and again, it carries bounds along chains
  (``a < b < c`` keeps a below N - 1 and c above 2).

The SAT encoding adds, per sign, a clause for every pair of digits that would
break it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_, Text
from bookgen.solve import pair_ladder
from bookgen.solve.houses import (
    Extra, Geometry, Ladder, LadderResult, Run, State, Tech, cell_text, cut, describe_cuts, lines_ladder,
    merged_ladder,
)
from bookgen.solve.latin import full_mask, symbol
from bookgen.solve.latin_sat import Group
from bookgen.solve.rated import SMALL_SCAN, RatedStep, _plan, strikes_run

def t_sign_known(g: Geometry, st: State, run: Run) -> int:
    cand, placed = st.cand, st.placed
    for a, b in st.extra.less:
        if placed[a] == placed[b]:
            continue
        if placed[a]:
            x = cand[a].bit_length()
            cuts = cut(st, [b], (1 << x) - 1)  # b is more than x
        else:
            y = cand[b].bit_length()
            cuts = cut(st, [a], full_mask(g.n) & ~((1 << (y - 1)) - 1))  # a is less than y
        if cuts:
            if st.extra.used is not None:
                st.extra.used.add((a, b))
            if run.explain:
                run.reason = (
                    Text(N_("{cell} is more than {other}, which is {digit}, so {cuts}."),
                         cell=cell_text(b, g.n), other=cell_text(a, g.n), digit=x, cuts=describe_cuts(st, cuts))
                    if placed[a] else
                    Text(N_("{cell} is less than {other}, which is {digit}, so {cuts}."),
                         cell=cell_text(a, g.n), other=cell_text(b, g.n), digit=y, cuts=describe_cuts(st, cuts)))
            return 1
    return 0


def t_sign_bounds(g: Geometry, st: State, run: Run) -> int:
    cand, placed = st.cand, st.placed
    full = full_mask(g.n)
    for a, b in st.extra.less:
        if placed[a] or placed[b]:
            continue
        top = cand[b].bit_length()                 # the largest digit b may still be
        low = (cand[a] & -cand[a]).bit_length()    # the smallest digit a may still be
        cuts = cut(st, [a], full & ~((1 << (top - 1)) - 1)) + cut(st, [b], (1 << low) - 1)
        if cuts:
            if st.extra.used is not None:
                st.extra.used.add((a, b))
            if run.explain:
                run.reason = Text(N_("{a} is less than {b}; {b} is at most {top} and {a} at least {low}, "
                                     "so {cuts}."), a=cell_text(a, g.n), b=cell_text(b, g.n), top=top, low=low,
                                  cuts=describe_cuts(st, cuts))
            return 1
    return 0


TECHNIQUES = Ladder(
    Tech("sign_known", Level.EASY, t_sign_known, 0.6, 1.5, title=N_("Signs next to a digit"),
         description=N_("A sign next to a known digit: the cell it points away from is larger, so 3 < x makes x at least 4.")),
    Tech("sign_bounds", Level.MEDIUM, t_sign_bounds, 1.5, 2.8, title=N_("Sign chains"),
         description=N_("Across a sign between two open cells, the smaller can't reach the larger's highest possibility; along a chain a < b < c, a can't be the largest digit or the one below it, and c can't be 1 or 2.")),
)


_PAIR_MASKS: dict[int, tuple[list[int], list[int], list[int]]] = {}


def _pair_masks(n: int) -> tuple[list[int], list[int], list[int]]:
    """Per cell, its pairs (bit ``d * n * n + i``); per (0-based digit v, cell i) at
    ``v * n * n + i``: digits 1..v + 1 of i (a sign's larger end's loss next to a placed
    v + 1), and digits v + 1..n (its smaller end's). Made once per order."""
    got = _PAIR_MASKS.get(n)
    if got is None:
        nn = n * n
        got = _PAIR_MASKS[n] = (
            [sum(1 << (d * nn + i) for d in range(n)) for i in range(nn)],
            [sum(1 << (d * nn + i) for d in range(v + 1)) for v in range(n) for i in range(nn)],
            [sum(1 << (d * nn + i) for d in range(v, n)) for v in range(n) for i in range(nn)])
    return got


def _sign_finder(n: int, less: Sequence[tuple[int, int]]):
    """``t_sign_known`` on ``strikes_run``'s integer of pairs (bit ``d * n * n + i``: digit
    d + 1 in cell i): ``find(pairs, given, unplaced)``, the pairs the first sign next to a
    placed digit (in ``less``' order, as the technique looks) strikes, 0 where none strikes."""
    cell, upto, from_ = _pair_masks(n)
    signs = [(a, b, cell[a], cell[b]) for a, b in less]

    def find(pairs: int, given: int, unplaced: int) -> int:
        for a, b, cell_a, cell_b in signs:
            open_b = unplaced >> b & 1
            if unplaced >> a & 1 == open_b:
                continue
            # (a placed cell's pair in ``given``: its bit position is v * n * n + the cell)
            m = upto[(given & cell_a).bit_length() - 1 - a + b] if open_b else \
                from_[(given & cell_b).bit_length() - 1 - b + a]
            if pairs & m:
                return m
        return 0

    return find


def rated_whole(geo: Geometry, givens: Sequence[tuple[int, int]], extra: Extra) -> tuple[list[RatedStep], bool] | None:
    """``rated_run(geo, givens, extra)`` on one integer of pairs (``rated.strikes_run``), which
    it must equal (tests/test_futoshiki_rated.py): ``sign_known`` is the only row rated below a
    naked single, its strikes found each step by ``_sign_finder``; None where that hands the
    run back (a harder row's turn, a contradiction, a grid past ``SMALL_SCAN``), or where the
    techniques note the signs they use (a carve's ``used``)."""
    if extra.used is not None or geo.n > SMALL_SCAN:
        return None
    return strikes_run(geo, givens, _plan(extra.ladder()), {"sign_known": _sign_finder(geo.n, extra.less)})


EASY_ORDER = ("sign_known", "hidden_single", "naked_single")  # the ladder's easy rows, in order


def easy_ladder(geo: Geometry, givens: Sequence[tuple[int, int]], extra: Extra) -> LadderResult | None:
    """``run_ladder(geo, givens, Level.EXPERT, extra=extra)`` where its easy rows solve the
    puzzle, on one integer of pairs (``pair_ladder.run``, ``sign_known``'s strikes found by
    ``_sign_finder`` before each hidden single); None where it would not finish so (a harder
    row's turn, a contradiction, a grid past ``SMALL_SCAN``), and the caller runs the ladder,
    the plain version this must equal (tests/test_futoshiki_rated.py). The ladder's run was
    about a seventh of a Futoshiki 5x5 easy puzzle."""
    n = geo.n
    if n > SMALL_SCAN or len(geo.houses) != 2 * n or extra.used is not None \
            or tuple(name for name, _ in extra.up_to(Level.EXPERT)[:3]) != EASY_ORDER:
        return None
    got = pair_ladder.run(geo, givens, finder=("sign_known", _sign_finder(n, extra.less)))
    if got is None:
        return None
    counts, given = got
    nn = n * n
    digits = [""] * nn
    while given:
        b = given & -given
        given ^= b
        d, i = divmod(b.bit_length() - 1, nn)
        digits[i] = symbol(d + 1)
    return LadderResult(True, Level.EASY, counts, tuple("".join(digits[r:r + n]) for r in range(0, nn, n)), None)


@dataclass(frozen=True)
class SignExtra(Extra):
    """The signs for the house ladder, on a grid of rows and columns only: the ladder leaves out
    the house techniques that find nothing there (``houses.LINES_IDLE``); ``trimmed=False`` is
    the whole ladder, the version it must equal (tests/test_futoshiki.py). (The uniqueness
    techniques stay: with no sign left the houses are the whole rule set, and they run.)"""

    trimmed: bool = True

    def ladder(self) -> tuple[Tech, ...]:
        return lines_ladder(self.techniques) if self.trimmed else merged_ladder(self.techniques)


def extra_for(less: Sequence[tuple[int, int]]) -> Extra:
    """The house ladder's extra constraints for these signs (smaller cell, larger cell)."""
    return SignExtra(TECHNIQUES, tuple(less))


def sign_groups(n: int, less: Sequence[tuple[int, int]]) -> list[Group]:
    """The signs for ``latin_sat.proves_unique``'s ``groups``: one group per sign, the same
    clauses for every puzzle that has it, so the proof's kept solver writes each of a grid's
    few sign positions once and a puzzle loads no clauses. Together the same clauses as
    ``sign_clauses`` (the plain version; tests/test_futoshiki.py)."""
    return [Group(("sign", n, a, b), partial(sign_clauses, n, ((a, b),))) for a, b in less]


def sign_clauses(n: int, less: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Per sign, one clause per digit pair that breaks it (variable ``cell * n + digit``)."""
    out = []
    for a, b in less:
        for da in range(1, n + 1):
            for db in range(1, da + 1):
                out.append([-(a * n + da), -(b * n + db)])
    return out
