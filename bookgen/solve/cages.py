"""Killer Sudoku's sum cages, plugged into the house ladder (``bookgen.solve.houses``).

A cage is a group of cells whose digits all differ and add up to its sum.
Distinctness is handled by the engine itself: ``cage_geometry`` makes the
cells of a cage peers of each other (a cage is a *unit* for "all different",
though not a house, since it need not hold every digit), so placing a digit
clears it from the rest of its cage as it does from its row, column and box.
The sums come in as an ``Extra`` (``CageExtra``) with these techniques:

- easy ``cage_last``: a cage with one open cell left (or a one-cell cage):
  the sum minus the placed digits; ``cage_static``: the cage's combination
  table alone, before any candidate is looked at (two cells making 3 are 1
  and 2; three cells making 23 are 6, 8 and 9); ``cage_combos``: the
  combinations of the cage's size and sum (``sum_combinations``) that still
  fit its cells' candidates and placed digits; digits no surviving
  combination uses go; ``rule45``: the 45 rule on one row, column or box (it
  adds up to N(N+1)/2: subtract the cages lying inside it, and the cells left
  over, the *innies*, or the cells of its straddling cages that stick out,
  the *outies*, add up to what is left);
- medium ``cage_confined``: a digit every surviving combination holds, with
  the cage's cells for it all in one row, column or box, is cleared from the
  rest of that house;
- hard ``cage_clash``: two cages lying in one house share no digit, so a
  combination of one that leaves the other none of its combinations goes;
- hard ``rule45_union``: the same rule on unions of two or three neighbouring
  rows, of neighbouring columns, and of two neighbouring boxes.

The SAT encoding (``sum_clauses``) adds one selector per combination (a set
of digits) of each cage: some selector holds, a selector keeps every cell of
the cage inside its set, every digit of a cell needs a selector that has it,
and no digit appears twice in a cage; with as many cells as digits in the
set, the cage then holds exactly that set.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import Any, Callable, NamedTuple, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_, Plural, Text, join_and
from bookgen.solve.houses import (
    Contradiction, Extra, Geometry, Ladder, Run, State, Tech, and_list, cell_text, cut, describe_cuts, seen_table,
)
from bookgen.solve.latin import digits_of

# The 45 rule adds up at most this many innies (or outies) at once: a player sums a few cells.
RULE45_CELLS = 3
_TOTAL = {n: n * (n + 1) // 2 for n in range(1, 10)}
# Unions of up to this many neighbouring rows (columns, boxes) for rule45_union.
UNION_MAX = 3


@lru_cache(maxsize=None)
def sum_combinations(k: int, target: int, n: int) -> tuple[int, ...]:
    """Every set of ``k`` different digits 1..n adding up to ``target``, as digit bitmasks."""
    out = []
    for combo in combinations(range(1, n + 1), k):
        if sum(combo) == target:
            out.append(sum(1 << (d - 1) for d in combo))
    return tuple(out)


@lru_cache(maxsize=None)
def combination_digits(k: int, target: int, n: int) -> int:
    """The digits some combination of ``k`` different digits adding up to ``target`` uses."""
    out = 0
    for m in sum_combinations(k, target, n):
        out |= m
    return out


class Region(NamedTuple):
    """A union of houses for the 45 rule: its cells, total, the cages inside and the straddlers.
    (A named tuple: a draft's regions are made afresh at every judge, 27 or more each.)"""

    name: str
    total: int
    inner: tuple[int, ...]     # cages lying wholly inside
    innies: tuple[int, ...]    # cells of straddling cages inside the region
    outies: tuple[int, ...]    # cells of straddling cages outside it
    straddle: tuple[int, ...]  # the straddling cages


@dataclass(frozen=True)
class CageExtra(Extra):
    """The cages for the ladder: cells (cell indices) and sums, and the 45-rule regions."""

    cells: tuple[tuple[int, ...], ...] = ()
    sums: tuple[int, ...] = ()
    single: tuple[Region, ...] = ()   # one row, column or box
    union: tuple[Region, ...] = ()    # neighbouring rows, columns or boxes
    # Worked out once from the above, as the ladder asks every step:
    static: tuple[tuple[int, int], ...] = ()  # (cage, digits its sum allows) where that rules some out
    single_sides: tuple[tuple[int, tuple[tuple[int, tuple[int, ...], int], ...]], ...] = ()
    union_sides: tuple[tuple[int, tuple[tuple[int, tuple[int, ...], int], ...]], ...] = ()
    # per region: (sum of the cages inside, ((0, innies, their sum), (1, outies, their sum)))
    # Per cell, the stamps (``KillerState.cstamp``) a change to it bumps: its cage's (k), and
    # each 45-rule side it is on: single region r's innies and outies at len(cells) + 2r and
    # + 2r + 1, then the union regions' after them. ``slots``: how many stamps in all.
    watch: tuple[tuple[int, ...], ...] = ()
    slots: int = 0
    sizes: tuple[int, ...] = ()  # per stamp, how many cells it watches (``KillerState.opens``)
    # False: a plain ``State``, every cage technique looks at every cage every time (the plain
    # version the stamped ``KillerState`` must equal; tests/test_killer.py).
    stamped: bool = True

    def new_state(self, geo: Geometry) -> State:
        return KillerState(geo, self) if self.stamped and self.watch else State(geo, self)


class KillerState(State):
    """The engine's state and, per cage and per side of a 45-rule region, a counter of changes
    to its cells (a candidate gone, a cell placed), so ``cage_last``, ``cage_static``,
    ``cage_combos``, ``rule45`` and ``rule45_union``, which each read one cage's or one side's
    cells only, skip those unchanged since they last looked and found nothing (as KenKen's
    ``CageState`` does). It must give what a plain ``State`` gives, technique by
    technique (tests/test_killer.py). ``opens`` counts, per cage and side, its open cells,
    so ``cage_last`` passes over a cage without exactly one and ``rule45`` over a side with
    none or more than ``RULE45_CELLS`` without reading their cells (a placement changes the
    stamps of most sides, so most were read again at every step only to find four open)."""

    __slots__ = ("cstamp", "cseen", "opens")

    def __init__(self, geo: Geometry, extra: "CageExtra") -> None:
        super().__init__(geo, extra)
        self.cstamp = [0] * extra.slots
        self.cseen: dict[str, list[int]] = {}
        self.opens = list(extra.sizes)

    def started(self) -> None:
        opens, watch = self.opens, self.extra.watch  # type: ignore[attr-defined]
        for i, p in enumerate(self.placed):
            if p:
                for k in watch[i]:
                    opens[k] -= 1

    def copy(self) -> "KillerState":
        other = super().copy()
        other.cstamp = self.cstamp[:]
        other.cseen = {k: v[:] for k, v in self.cseen.items()}
        other.opens = self.opens[:]
        return other

    def cage_seen(self, name: str) -> list[int]:
        """Per cage, the ``cstamp`` technique ``name`` last looked at it with and found nothing."""
        return seen_table(self.cseen, name, len(self.cstamp))

    def elim(self, i: int, mask: int) -> bool:
        if not State.elim(self, i, mask):
            return False
        stamp = self.cstamp
        for k in self.extra.watch[i]:  # type: ignore[attr-defined]
            stamp[k] += 1
        return True

    def place(self, i: int) -> None:
        watch = self.extra.watch  # type: ignore[attr-defined]
        stamp = self.cstamp
        b = self.cand[i]
        cand = self.cand
        opens = self.opens
        for k in watch[i]:
            stamp[k] += 1
            opens[k] -= 1
        for j in self.board.peers[i]:  # the peers State.place below takes b from
            if cand[j] & b:
                for k in watch[j]:
                    stamp[k] += 1
        State.place(self, i)


# The houses of a Killer cell, as the naked single's reason names them (see HOUSE_KINDS).
CAGE_KINDS = {N_("row or column"): N_("row, column or cage"),
              N_("row, column or box"): N_("row, column, box or cage"),
              N_("row, column or diagonal"): N_("row, column, diagonal or cage"),
              N_("row, column, box or diagonal"): N_("row, column, box, diagonal or cage")}


def cage_geometry_plain(geo: Geometry, cages: Sequence[Sequence[int]]) -> Geometry:
    """``geo`` with the cells of each cage made peers of each other (they all differ): the
    plain version of ``cage_geometry`` (tests/test_killer.py)."""
    mates: list[set[int]] = [set(p) for p in geo.peers]
    for cells in cages:
        for i in cells:
            mates[i].update(j for j in cells if j != i)
    return replace(geo, peers=tuple(tuple(sorted(m)) for m in mates), kinds=_cage_kinds(geo))


def _cage_kinds(geo: Geometry) -> str:
    return CAGE_KINDS.get(geo.kinds, geo.kinds.replace(" or ", ", ") + " or cage")


_CAGE_PEERS: dict[tuple[int, tuple[int, ...]], tuple[Geometry, tuple[tuple[int, ...], ...]]] = {}
CAGE_MEMO = 4096  # cages whose cells' peers are kept (a Killer draft changes one or two a move)


def cage_geometry(geo: Geometry, cages: Sequence[Sequence[int]]) -> Geometry:
    """``cage_geometry_plain``, which it must equal: each cage's cells' peers are kept per
    (geometry, cage), so a Killer draft, judged after every move that splits or recuts a cage
    or two, works out only those again. Cages that share a cell (never in a shipped puzzle)
    take the plain way."""
    if sum(map(len, cages)) != len({i for cells in cages for i in cells}):
        return cage_geometry_plain(geo, cages)
    peers = list(geo.peers)
    for cells in cages:
        key = (id(geo), tuple(cells))
        got = _CAGE_PEERS.get(key)
        if got is None or got[0] is not geo:
            if len(_CAGE_PEERS) > CAGE_MEMO:
                _CAGE_PEERS.clear()
            got = _CAGE_PEERS[key] = (geo, tuple(tuple(sorted(set(geo.peers[i]).union(j for j in cells if j != i)))
                                                 for i in cells))
        for i, mates in zip(cells, got[1]):
            peers[i] = mates
    return replace(geo, peers=tuple(peers), kinds=_cage_kinds(geo))


def _region(name: str, cells: frozenset[int], total: int, cages: Sequence[Sequence[int]],
            cage_of: Sequence[int]) -> Region:
    inner, straddle, innies, outies = [], [], [], []
    for k in sorted({cage_of[i] for i in cells} - {-1}):
        cc = cages[k]
        inside = [i for i in cc if i in cells]
        if len(inside) == len(cc):
            inner.append(k)
        else:
            straddle.append(k)
            innies += inside
            outies += [i for i in cc if i not in cells]
    return Region(name, total, tuple(inner), tuple(sorted(innies)), tuple(sorted(outies)), tuple(straddle))


@lru_cache(maxsize=16)
def _unions(geo: Geometry, box: tuple[int, int] | None) -> tuple[tuple[str, frozenset[int], int], ...]:
    """Unions of 2..UNION_MAX neighbouring rows, columns and (in a band or stack) boxes."""
    n = geo.n
    out = []
    for size in range(2, UNION_MAX + 1):
        for start in range(0, n - size + 1):
            for base, word in ((0, N_("rows {first}-{last}")), (n, N_("columns {first}-{last}"))):
                cells = frozenset(i for h in range(base + start, base + start + size) for i in geo.houses[h])
                out.append((Text(word, first=start + 1, last=start + size), cells, size))
    if box:
        rows, cols = box
        per_row = n // cols
        per_col = n // rows
        for b in range(n):
            br, bc = divmod(b, per_row)
            for other, next_ok in ((b + 1, bc + 1 < per_row), (b + per_row, br + 1 < per_col)):
                if next_ok:
                    cells = frozenset(geo.houses[2 * n + b]) | frozenset(geo.houses[2 * n + other])
                    out.append((join_and([geo.names[2 * n + b], geo.names[2 * n + other]]), cells, 2))
    return tuple(out)


_HOUSE_PARTS: dict[tuple, tuple[Geometry, tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]]] = {}


def _house_parts(geo: Geometry, below: int, cells: tuple[int, ...]
                 ) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
    """Per house ``h < below`` that a cage's ``cells`` touch, ascending: (h, its cells inside
    ``h``, those outside), in the cage's order; kept per (geometry, cage), as a draft's
    moves change one or two cages and the judge asks for every cage's regions again."""
    key = (id(geo), below, cells)
    got = _HOUSE_PARTS.get(key)
    if got is None or got[0] is not geo:
        if len(_HOUSE_PARTS) > CAGE_MEMO:
            _HOUSE_PARTS.clear()
        houses_of = geo.houses_of
        touched = sorted({h for i in cells for h in houses_of[i] if h < below})
        got = _HOUSE_PARTS[key] = (geo, tuple(
            (h, tuple(i for i in cells if h in houses_of[i]), tuple(i for i in cells if h not in houses_of[i]))
            for h in touched))
    return got[1]


def _union_parts(geo: Geometry, box: tuple[int, int] | None, cells: tuple[int, ...]
                 ) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
    """``_house_parts`` for the unions of ``_unions(geo, box)`` (by their index there)."""
    key = (id(geo), ("unions", box), cells)
    got = _HOUSE_PARTS.get(key)
    if got is None or got[0] is not geo:
        if len(_HOUSE_PARTS) > CAGE_MEMO:
            _HOUSE_PARTS.clear()
        parts = []
        for u, (_, inside, _) in enumerate(_unions(geo, box)):
            part = tuple(i for i in cells if i in inside)
            if part:
                parts.append((u, part, tuple(i for i in cells if i not in inside)))
        got = _HOUSE_PARTS[key] = (geo, tuple(parts))
    return got[1]


def _regions_from_parts(count: int, parts: Sequence[Sequence[tuple[int, tuple[int, ...], tuple[int, ...]]]],
                        names: Sequence[str], totals: Sequence[int]) -> tuple[Region, ...]:
    """The regions (``count`` of them) that a cage straddles: what ``_region`` (the plain version,
    ``extra_for(..., plain=True)``; tests/test_killer.py) gives for them, from each cage's
    parts per region (``parts``, per cage: ``_house_parts`` or ``_union_parts``, kept per cage)
    in one pass over the cages, instead of a pass over every region's cells and cages (0.5 ms
    a 9x9 draft, judged ten times a puzzle)."""
    inner: list[list[int]] = [[] for _ in range(count)]
    straddle: list[list[int]] = [[] for _ in range(count)]
    innies: list[list[int]] = [[] for _ in range(count)]
    outies: list[list[int]] = [[] for _ in range(count)]
    for k, cage_parts in enumerate(parts):
        for h, inside, outside in cage_parts:
            if outside:
                straddle[h].append(k)
                innies[h] += inside
                outies[h] += outside
            else:
                inner[h].append(k)
    return tuple(Region(names[h], totals[h], tuple(inner[h]), tuple(sorted(innies[h])), tuple(sorted(outies[h])),
                        tuple(straddle[h])) for h in range(count) if straddle[h])


def extra_for(geo: Geometry, box: tuple[int, int] | None, cages: Sequence[Sequence[int]],
              sums: Sequence[int], unions: bool = True, plain: bool = False) -> CageExtra:
    """The ladder's extra constraints for these cages (cell indices) and sums; without
    ``unions`` no regions for ``rule45_union`` (the hard tier's: a generator judging an
    easier level needn't find them). ``plain``: each region by ``_region``, the version the
    default (``_regions_from_parts``) must equal."""
    n = geo.n
    total = n * (n + 1) // 2
    cages = [tuple(c) for c in cages]
    watch: list[list[int]] = [[] for _ in range(n * n)]
    for k, cc in enumerate(cages):
        for i in cc:
            watch[i].append(k)
    if plain or sum(map(len, cages)) != n * n - watch.count([]):  # (cages that share a cell: the plain way)
        cage_of = [-1] * (n * n)
        for k, cc in enumerate(cages):
            for i in cc:
                cage_of[i] = k
        single = tuple(_region(geo.names[h], frozenset(cells), total, cages, cage_of)
                       for h, cells in enumerate(geo.houses) if h < 2 * n or box and h < 3 * n)
        union = tuple(_region(name, cells, k * total, cages, cage_of) for name, cells, k in _unions(geo, box)) \
            if unions else ()
    else:
        below = 3 * n if box else 2 * n
        single = _regions_from_parts(below, [_house_parts(geo, below, cells) for cells in cages], geo.names,
                                     [total] * below)
        if unions:
            regions = _unions(geo, box)
            union = _regions_from_parts(len(regions), [_union_parts(geo, box, cells) for cells in cages],
                                        [name for name, _, _ in regions], [k * total for _, _, k in regions])
        else:
            union = ()
    # Only regions where the rule can say anything: some straddling cage.
    single = tuple(r for r in single if r.straddle)
    union = tuple(r for r in union if r.straddle)
    full = (1 << n) - 1
    static = tuple((k, allowed) for k, (cc, s) in enumerate(zip(cages, sums)) if len(cc) >= 2
                   for allowed in (combination_digits(len(cc), s, n),) if allowed != full)

    def sides(regions: Sequence[Region]) -> tuple:
        out = []
        for reg in regions:
            inner = sum([sums[k] for k in reg.inner])
            straddle = sum([sums[k] for k in reg.straddle])
            # innies add up to total - inner; outies to straddle - (total - inner)
            out.append((inner, ((0, reg.innies, reg.total - inner), (1, reg.outies, straddle - reg.total + inner))))
        return tuple(out)

    slot = len(cages)
    for reg in single + union:
        for cells in (reg.innies, reg.outies):
            for i in cells:
                watch[i].append(slot)
            slot += 1
    return CageExtra(TECHNIQUES, cells=tuple(cages), sums=tuple(sums), single=single, union=union, static=static,
                     single_sides=sides(single), union_sides=sides(union),
                     watch=tuple(map(tuple, watch)), slots=slot,
                     sizes=tuple(map(len, cages)) + tuple(len(cells) for reg in single + union
                                                          for cells in (reg.innies, reg.outies)))


def _unseen(st: State, name: str):
    """(seen list, stamps) of technique ``name`` on a ``KillerState``; (None, None) on a plain
    state, where every cage is looked at."""
    if type(st) is KillerState:
        got = st.cseen.get(name)  # (``cage_seen``, inlined: every cage technique asks at every step)
        return (got if got is not None else st.cage_seen(name)), st.cstamp
    return None, None


# --- easy ------------------------------------------------------------------------

# The easy cage techniques each have a finder (``_last_found`` ...): the first cage, in order,
# where the technique strikes something, marking on a ``KillerState`` the cages it found
# settled (not the one it returns). The technique acts on what it returns (``_acting_on``); its probe
# (``Tech.probe``, for the rated run) only asks whether there is one, and leaves the marks,
# so the copy the rated run then tries the technique on starts where the probe stopped.

def _probe(finder: Callable[[Geometry, State], object]) -> Callable[[Geometry, State], bool]:
    """The probe of the technique whose finder is ``finder``: whether it finds something."""
    def probe(g: Geometry, st: State) -> bool:
        return finder(g, st) is not None
    return probe


def _taken(st: State, name: str, k: int) -> None:
    """Technique ``name`` acts on cage ``k``: marked seen at its stamp now, as the cut it makes
    then changes the stamp again."""
    if type(st) is KillerState:
        st.cage_seen(name)[k] = st.cstamp[k]


def _acting_on(name: str, finder: Callable[[Geometry, State], Any]) -> Callable[[Callable[..., None]], Callable[..., int]]:
    """Makes technique ``name`` of the function it decorates, ``act(g, st, run, *found)``: the
    technique acts on what ``finder`` finds (a cage first, marked taken: ``_taken``) and
    makes one use of it, or finds nothing (0) where the finder finds nothing."""
    def technique_of(act: Callable[..., None]) -> Callable[[Geometry, State, Run], int]:
        def technique(g: Geometry, st: State, run: Run) -> int:
            found = finder(g, st)
            if found is None:
                return 0
            _taken(st, name, found[0])
            act(g, st, run, *found)
            return 1
        technique.__name__ = technique.__qualname__ = act.__name__
        technique.__doc__ = act.__doc__
        return technique
    return technique_of


def _last_found(g: Geometry, st: State) -> tuple[int, int, int] | None:
    """(cage, its one open cell, the digit its sum leaves) of the first cage, in order, whose
    last open cell has another digit left: what ``t_cage_last`` acts on. On a ``KillerState``
    each cage looked at and found settled is marked seen (``KillerState.cage_seen``), the one
    found is not, so the probe (``p_cage_last``) and the technique share the marks."""
    cand, placed = st.cand, st.placed
    ex: CageExtra = st.extra  # type: ignore[assignment]
    seen, stamp = _unseen(st, "cage_last")
    opens = st.opens if seen is not None else None  # type: ignore[attr-defined]
    for k, cells in enumerate(ex.cells):
        if seen is not None:  # (a cage unchanged since it was last looked at has nothing new)
            if seen[k] == stamp[k]:
                continue
            if opens[k] != 1:  # (no last open cell)
                seen[k] = stamp[k]
                continue
        i = -1  # the one open cell; -2 once there are two
        for j in cells:
            if not placed[j]:
                if i != -1:
                    i = -2
                    break
                i = j
        if i >= 0:
            d = ex.sums[k] - sum(cand[j].bit_length() for j in cells if placed[j])
            if not 1 <= d <= g.n:
                raise Contradiction(f"the {ex.sums[k]} cage can't add up")
            if cand[i] & ~(1 << (d - 1)):
                return k, i, d
        if seen is not None:
            seen[k] = stamp[k]
    return None


@_acting_on("cage_last", _last_found)
def t_cage_last(g: Geometry, st: State, run: Run, k: int, i: int, d: int) -> None:
    ex: CageExtra = st.extra  # type: ignore[assignment]
    cut(st, [i], ~(1 << (d - 1)))
    if run.explain:
        cells, cand = ex.cells[k], st.cand
        if len(cells) == 1:
            run.reason = Text(N_("{cell} is a cage of one cell with the sum {digit}, so it is {digit}."),
                              cell=cell_text(i, g.n), digit=d)
        else:
            have = and_list([str(cand[j].bit_length()) for j in cells if j != i])
            run.reason = Text(N_("{cage} adds up to {total} and already holds {digits}, so {cell} is "
                                 "{digit}."), cage=_cage_name(g, ex, k), total=ex.sums[k], digits=have,
                              cell=cell_text(i, g.n), digit=d)


def _static_found(g: Geometry, st: State) -> tuple[int, int] | None:
    """(cage, the digits its sum allows) of the first cage whose sum alone rules out a
    candidate of an open cell: what ``t_cage_static`` acts on (marks as ``_last_found``)."""
    ex: CageExtra = st.extra  # type: ignore[assignment]
    cand, placed = st.cand, st.placed
    seen, stamp = _unseen(st, "cage_static")
    for k, allowed in ex.static:  # other cages' sums rule nothing out
        if seen is not None and seen[k] == stamp[k]:
            continue
        for i in ex.cells[k]:
            if cand[i] & ~allowed and not placed[i]:
                return k, allowed
        if seen is not None:
            seen[k] = stamp[k]
    return None


@_acting_on("cage_static", _static_found)
def t_cage_static(g: Geometry, st: State, run: Run, k: int, allowed: int) -> None:
    ex: CageExtra = st.extra  # type: ignore[assignment]
    cells = ex.cells[k]
    cuts = cut(st, [i for i in cells if not st.placed[i]], ~allowed)
    if run.explain:
        combos = sum_combinations(len(cells), ex.sums[k], g.n)
        run.reason = Plural("{cage}: {count} different digits adding up to {total} can only be {ways}, "
                            "so {cuts}.",
                            "{cage}: {count} different digits adding up to {total} can only be {ways}, "
                            "so {cuts}.", len(cells), cage=_cage_name(g, ex, k),
                            total=ex.sums[k], ways=_combos_text(combos), cuts=describe_cuts(st, cuts))


# --- medium ----------------------------------------------------------------------

def _live(g: Geometry, st: State, ex: CageExtra, k: int) -> tuple[tuple[int, ...], list[int]]:
    """(surviving combinations, open cells) of cage ``k``: sets holding its placed digits
    whose other digits each still fit some open cell and that leave every open cell a digit."""
    cells = ex.cells[k]
    have, open_, cands = _cage_now(st.cand, st.placed, cells)
    live = _surviving(len(cells), ex.sums[k], g.n, have, cands)
    if not live:
        raise Contradiction(f"the {ex.sums[k]} cage has no combination left")
    return live, open_


def _cage_now(cand: Sequence[int], placed: Sequence[bool], cells: Sequence[int]
              ) -> tuple[int, list[int], tuple[int, ...]]:
    """(digits placed in the cage, its open cells, their candidates)."""
    have = 0
    open_ = []
    for i in cells:
        if placed[i]:
            have |= cand[i]
        else:
            open_.append(i)
    return have, open_, tuple([cand[i] for i in open_])


@lru_cache(maxsize=1 << 16)
def _surviving(k: int, target: int, n: int, have: int, cands: tuple[int, ...]) -> tuple[int, ...]:
    live = []
    for m in sum_combinations(k, target, n):
        if m & have != have:
            continue
        rest = m & ~have
        reach = 0
        for c in cands:
            c &= rest
            if not c:
                break
            reach |= c
        else:
            if reach == rest:
                live.append(m)
    return tuple(live)


@lru_cache(maxsize=1 << 16)
def _allowed(k: int, target: int, n: int, have: int, cands: tuple[int, ...]) -> int:
    """The digits the surviving combinations use (``_surviving``), -1 when none survives."""
    live = _surviving(k, target, n, have, cands)
    out = 0
    for m in live:
        out |= m
    return out if live else -1


def _combos_found(g: Geometry, st: State) -> tuple[int, list[int], int, int, tuple[int, ...]] | None:
    """(cage, open cells, digits its surviving combinations use, digits placed in it, the open
    cells' candidates) of the first cage whose combinations rule out a candidate: what
    ``t_cage_combos`` acts on (marks as ``_last_found``)."""
    ex: CageExtra = st.extra  # type: ignore[assignment]
    cand, placed = st.cand, st.placed
    n = g.n
    seen, stamp = _unseen(st, "cage_combos")
    for k, cells in enumerate(ex.cells):
        if len(cells) < 2:
            continue
        if seen is not None and seen[k] == stamp[k]:
            continue
        have, open_, cands = _cage_now(cand, placed, cells)
        allowed = _allowed(len(cells), ex.sums[k], n, have, cands)
        if allowed < 0:
            raise Contradiction(f"the {ex.sums[k]} cage has no combination left")
        for c in cands:
            if c & ~allowed:
                return k, open_, allowed, have, cands
        if seen is not None:
            seen[k] = stamp[k]
    return None


@_acting_on("cage_combos", _combos_found)
def t_cage_combos(g: Geometry, st: State, run: Run, k: int, open_: list[int], allowed: int, have: int,
                  cands: tuple[int, ...]) -> None:
    ex: CageExtra = st.extra  # type: ignore[assignment]
    cuts = cut(st, open_, ~allowed)
    if run.explain:
        cells = ex.cells[k]
        live = _surviving(len(cells), ex.sums[k], g.n, have, cands)
        run.reason = Plural("of the ways to make {total} from {count} different digits, only {ways} "
                            "fit {cage}, so {cuts}.",
                            "of the ways to make {total} from {count} different digits, only {ways} "
                            "fit {cage}, so {cuts}.", len(cells), total=ex.sums[k],
                            ways=_combos_text(live), cage=_cage_name(g, ex, k), cuts=describe_cuts(st, cuts))


def t_cage_confined(g: Geometry, st: State, run: Run) -> int:
    ex: CageExtra = st.extra  # type: ignore[assignment]
    cand, placed = st.cand, st.placed
    for k, cells in enumerate(ex.cells):
        if len(cells) < 2:
            continue
        live, open_ = _live(g, st, ex, k)
        if len(open_) < 2:
            continue
        need = -1
        for m in live:
            need &= m
        for d in digits_of(need & ~_placed_mask(st, cells)):
            b = 1 << (d - 1)
            where = [i for i in open_ if cand[i] & b]
            common = set(g.houses_of[where[0]])
            for i in where[1:]:
                common &= set(g.houses_of[i])
            for h in sorted(common):
                others = [i for i in g.houses[h] if i not in cells and not placed[i]]
                cuts = cut(st, others, b)
                if cuts:
                    if run.explain:
                        run.reason = Text(N_("every way left to fill {cage} uses {digit}, and in the cage {digit} "
                                             "can only go in {house}, so the rest of {house} can't be {digit}; "
                                             "{cuts}."), cage=_cage_name(g, ex, k), digit=d, house=g.names[h],
                                          cuts=describe_cuts(st, cuts))
                    return 1
    return 0


def _clash_pairs(g: Geometry, ex: CageExtra) -> tuple[tuple[int, int, int], ...]:
    """(cage, cage, house) for every two cages of two or more cells lying in one house: their
    digits differ. Worked out once per constraint (kept on it, as the ladder asks every step)."""
    got = ex.__dict__.get("_clash")
    if got is None:
        inside = []
        for k, cells in enumerate(ex.cells):
            common = set(g.houses_of[cells[0]])
            for i in cells[1:]:
                common &= set(g.houses_of[i])
            inside.append(common if len(cells) >= 2 else set())
        got = tuple((a, b, min(inside[a] & inside[b])) for a, b in combinations(range(len(ex.cells)), 2)
                    if inside[a] & inside[b])
        object.__setattr__(ex, "_clash", got)  # (a frozen dataclass: not a field)
    return got


def t_cage_clash(g: Geometry, st: State, run: Run) -> int:
    """Combinations across cages: two cages in one house share no digit, so a way to fill one
    that leaves the other none of its ways is out."""
    ex: CageExtra = st.extra  # type: ignore[assignment]
    for a, b, h in _clash_pairs(g, ex):
        for k, other in ((a, b), (b, a)):
            live, open_ = _live(g, st, ex, k)
            if not open_:
                continue
            rest, _ = _live(g, st, ex, other)
            keep = [m for m in live if any(not m & r for r in rest)]
            allowed = 0
            for m in keep:
                allowed |= m
            cuts = cut(st, open_, ~allowed)
            if cuts:
                if run.explain:
                    run.reason = Text(N_("{cage} and {other} both lie in {house}, so they share no digit; only "
                                         "{ways} leave {other} a way to be filled, so {cuts}."),
                                      cage=_cage_name(g, ex, k), other=_cage_name(g, ex, other), house=g.names[h],
                                      ways=_combos_text(keep), cuts=describe_cuts(st, cuts))
                return 1
    return 0


def _placed_mask(st: State, cells: Sequence[int]) -> int:
    m = 0
    for i in cells:
        if st.placed[i]:
            m |= st.cand[i]
    return m


def _rule45(regions: Sequence[Region], wants: Sequence, g: Geometry, st: State, run: Run, name: str,
            slot: int) -> int:
    """The 45 rule on ``regions``, whose sides' stamps start at ``slot`` (``CageExtra.watch``)."""
    cand, placed = st.cand, st.placed
    seen, stamp = _unseen(st, name)
    opens = st.opens if seen is not None else None  # type: ignore[attr-defined]
    for reg, (inner, sides) in zip(regions, wants):
        for side, cells, want in sides:
            if seen is not None:  # (a side unchanged since it was last looked at has nothing new)
                if seen[slot] == stamp[slot]:
                    slot += 1
                    continue
                seen[slot] = stamp[slot]  # a cut below changes the stamp again
                if not 1 <= opens[slot] <= RULE45_CELLS:  # (what the count below would find)
                    slot += 1
                    continue
            slot += 1
            open_ = []
            rest = want
            for i in cells:
                if placed[i]:
                    rest -= cand[i].bit_length()
                else:
                    open_.append(i)
                    if len(open_) > RULE45_CELLS:
                        break
            if not 1 <= len(open_) <= RULE45_CELLS:
                continue
            union = _sum_union(g, open_, cand, rest)
            if not union[0]:
                raise Contradiction(f"{reg.name} can't add up")
            cuts = []
            for i, u in zip(open_, union):
                if cand[i] & ~u:
                    cuts += cut(st, [i], ~u)
            if cuts:
                if run.explain:
                    run.reason = _rule45_text(reg, g, inner, side, open_, want, rest, st, cuts)
                return 1
    return 0


def _rule45_text(reg: Region, g: Geometry, inner: int, side: int, open_: Sequence[int], want: int, rest: int,
                 st: State, cuts: list) -> Text:
    """The rule-of-45 reason as a child can check it: what the region must add up to, what
    is already known of it (the cages lying inside it, or the cages that cover it, and
    digits already placed), the subtraction that leaves the open cells' sum, and the
    candidates struck. Innies (``side`` 0) are the region's cells left over; outies
    (``side`` 1) the cells of its covering cages that stick out of it."""
    placed = want - rest  # the digits already placed among the cells that cross the edge
    houses = reg.total // _TOTAL[g.n]  # "rows 1-2" are two: "inside them"
    known = []
    if side == 0:
        if reg.inner:
            known.append(Plural("the cages lying wholly inside it add up to {total}",
                                "the cages lying wholly inside them add up to {total}", houses, total=inner))
        if placed:
            known.append(Plural("the digits already placed in its other cells add up to {total}",
                                "the digits already placed in their other cells add up to {total}", houses,
                                total=placed))
        terms = [reg.total] + ([inner] if reg.inner else []) + ([placed] if placed else [])
    else:
        covering = want + reg.total
        known.append(Plural("the cages that cover it add up to {total}", "the cages that cover them add up to {total}",
                            houses, total=covering))
        if placed:
            known.append(Text(N_("the digits already placed where those cages stick out add up to {total}"),
                              total=placed))
        terms = [covering, reg.total] + ([placed] if placed else [])
    arithmetic = " \u2212 ".join(map(str, terms)) + f" = {rest}"
    cells = and_list([cell_text(i, g.n) for i in open_])
    values = dict(region=reg.name, total=reg.total, known=join_and(known), cells=cells, sum=arithmetic,
                  cuts=describe_cuts(st, cuts))
    if side == 0:
        return Plural("{region} must add up to {total}; {known}, so the one cell left ({cells}) must be {sum}.",
                      "{region} must add up to {total}; {known}, so the cells left ({cells}) must add up to {sum}; "
                      "{cuts}.", len(open_), **values)
    return Plural("{region} must add up to {total}; {known}, so the one cell sticking out ({cells}) must be {sum}.",
                  "{region} must add up to {total}; {known}, so the cells sticking out ({cells}) must add up to "
                  "{sum}; {cuts}.", len(open_), **values)


def _sum_union(g: Geometry, cells: Sequence[int], cand: Sequence[int], target: int) -> tuple[int, ...]:
    """Per cell (in order), the digits it takes in some filling of ``cells`` adding up to
    ``target`` (cells that are peers differ)."""
    return _fillings(tuple([cand[i] for i in cells]), target, _clash(g, tuple(cells)))


_CLASHES: list = [None, {}]  # the geometry asked about last, and its cells' clashes


def _clash(g: Geometry, cells: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per cell, the earlier of ``cells`` that are its peers; kept for the geometry asked about
    last (a judge's or a rated run's), as the 45 rule asks about the same few cells of a region
    at step after step (the peers' tuples were searched every time)."""
    if _CLASHES[0] is not g:
        _CLASHES[:] = [g, {}]
    kept = _CLASHES[1]
    got = kept.get(cells)
    if got is None:
        got = kept[cells] = tuple(tuple(j for j in range(k) if cells[j] in g.peers[cells[k]])
                                  for k in range(len(cells)))
    return got


@lru_cache(maxsize=1 << 16)
def _fillings(cands: tuple[int, ...], target: int, clash: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """``_fillings_plain``, which it must equal (tests/test_killer.py), written out as loops for
    one to three cells (the 45 rule's, ``RULE45_CELLS``): a draft's judge works out thousands
    of new ones, and the recursion's calls and slices were a third of its 45 rule."""
    k = len(cands)
    if k == 2:
        c0, c1 = cands
        differ = bool(clash[1])
        u0 = u1 = 0
        for d0 in digits_of(c0):
            d1 = target - d0
            if 1 <= d1 <= 9 and c1 >> (d1 - 1) & 1 and not (differ and d1 == d0):
                u0 |= 1 << (d0 - 1)
                u1 |= 1 << (d1 - 1)
        return u0, u1
    if k == 3:
        c0, c1, c2 = cands
        d10, d20, d21 = 0 in clash[1], 0 in clash[2], 1 in clash[2]
        u0 = u1 = u2 = 0
        seconds = digits_of(c1)
        for d0 in digits_of(c0):
            for d1 in seconds:
                if d10 and d1 == d0:
                    continue
                d2 = target - d0 - d1
                if 1 <= d2 <= 9 and c2 >> (d2 - 1) & 1 and not (d20 and d2 == d0) and not (d21 and d2 == d1):
                    u0 |= 1 << (d0 - 1)
                    u1 |= 1 << (d1 - 1)
                    u2 |= 1 << (d2 - 1)
        return u0, u1, u2
    return _fillings_plain(cands, target, clash)


def _fillings_plain(cands: tuple[int, ...], target: int, clash: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Per cell, the digits it takes in some choice of one candidate per cell adding up to
    ``target``, cells listed in ``clash`` of each other differing (a few cells only)."""
    k = len(cands)
    union = [0] * k
    opts = [digits_of(c) for c in cands]
    lows = [o[0] if o else 0 for o in opts]
    highs = [o[-1] if o else 0 for o in opts]
    chosen = [0] * k

    def rec(j: int, left: int) -> None:
        if j == k - 1:
            d = left
            if 1 <= d <= 9 and cands[j] >> (d - 1) & 1 and all(chosen[x] != d for x in clash[j]):
                chosen[j] = d
                for x in range(k):
                    union[x] |= 1 << (chosen[x] - 1)
            return
        lo = sum(lows[j + 1:])
        hi = sum(highs[j + 1:])
        for d in opts[j]:
            if not lo <= left - d <= hi or any(chosen[x] == d for x in clash[j]):
                continue
            chosen[j] = d
            rec(j + 1, left - d)

    if k:
        rec(0, target)
    return tuple(union)


def t_rule45(g: Geometry, st: State, run: Run) -> int:
    ex: CageExtra = st.extra  # type: ignore[assignment]
    return _rule45(ex.single, ex.single_sides, g, st, run, "rule45", len(ex.cells))


def t_rule45_union(g: Geometry, st: State, run: Run) -> int:
    ex: CageExtra = st.extra  # type: ignore[assignment]
    return _rule45(ex.union, ex.union_sides, g, st, run, "rule45_union", len(ex.cells) + 2 * len(ex.single))


def _cage_name(g: Geometry, ex: CageExtra, k: int) -> str:
    i = ex.cells[k][0]
    return Text(N_("the {total} cage at {cell}"), total=ex.sums[k], cell=cell_text(i, g.n))


def _combos_text(masks: Sequence[int]) -> str:
    shown = ["+".join(str(d) for d in digits_of(m)) for m in masks[:5]]
    if len(masks) <= 5:
        return and_list(shown, "or")
    return Plural("{ways} and {count} more", "{ways} and {count} more", len(masks) - 5,
                  ways=and_list(shown, "or"))


p_cage_last, p_cage_static, p_cage_combos = _probe(_last_found), _probe(_static_found), _probe(_combos_found)
TECHNIQUES = Ladder(
    Tech("cage_last", Level.EASY, t_cage_last, 0.5, 1.5, p_cage_last, title=N_("Last cell of a cage"),
         description=N_("When all but one cell of a cage are filled, its sum fixes the last one; a cage of one cell shows its digit.")),
    Tech("cage_static", Level.EASY, t_cage_static, 0.8, 2.0, p_cage_static, title=N_("Cage combinations"),
         description=N_("Some sums can be made only one way: two cells making 3 are 1 and 2, two making 17 are 8 and 9, three making 6 are 1, 2 and 3.")),
    Tech("cage_combos", Level.EASY, t_cage_combos, 2.0, 2.2, p_cage_combos, title=N_("Combinations that fit"),
         description=N_("List the sets of different digits that make a cage's sum, strike those that clash with its row, column and box, and cross out the digits no set left uses.")),
    Tech("rule45", Level.EASY, t_rule45, 2.5, 2.4, title=N_("Row, column and box sums"),
         description=N_("A row, column or box holds each digit once, so its digits always add up to the same total: 45 on a 9\u00d79 grid (1 + 2 + \u2026 + 9), 21 on a 6\u00d76, 10 on a 4\u00d74 (on a 9\u00d79 this is called the 45 rule). Take away the cages lying wholly inside it: the cells left over make up the rest. Or take the total away from the cages that cover it: the cells sticking out make up the difference.")),
    Tech("cage_confined", Level.MEDIUM, t_cage_confined, 2.5, 2.8, title=N_("A digit the cage must hold"),
         description=N_("If every set left for a cage holds a digit, and in the cage it can only go in one row, column or box, no other cell of that row, column or box has it.")),
    Tech("rule45_union", Level.HARD, t_rule45_union, 4.0, 3.8, title=N_("Sums of neighbouring rows, columns or boxes"),
         description=N_("The same with two or three neighbouring rows, columns or boxes together: they add up to two or three times the total (90 or 135 on a 9\u00d79 grid).")),
    Tech("cage_clash", Level.HARD, t_cage_clash, 4.0, 4.0, title=N_("Cages in one house"),
         description=N_("Two cages in one row, column or box share no digit.")),
)


def sum_clauses_plain(n: int, cages: Sequence[Sequence[int]], sums: Sequence[int],
                      first: int | None = None) -> list[list[int]]:
    """SAT clauses for the cages (variable ``cell * n + digit``, digits 1..n; selectors from
    ``first``, after ``n**3`` unless said: a grid of other than n x n cells says where its
    variables end). The plain version of ``sum_clauses`` (tests/test_latin_fast.py)."""
    out: list[list[int]] = []
    nxt = n * n * n + 1 if first is None else first
    for cells, target in zip(cages, sums):
        combos = sum_combinations(len(cells), target, n)
        if not combos:
            return [[1], [-1]]
        for a, b in combinations(cells, 2):
            for d in range(1, n + 1):
                out.append([-(a * n + d), -(b * n + d)])
        sels = list(range(nxt, nxt + len(combos)))
        nxt += len(combos)
        out.append(sels)
        for s, m in zip(sels, combos):
            ds = digits_of(m)
            for i in cells:
                out.append([-s] + [i * n + d for d in ds])
        for i in cells:
            for d in range(1, n + 1):
                sup = [s for s, m in zip(sels, combos) if m >> (d - 1) & 1]
                out.append([-(i * n + d)] + sup)
    return out


@lru_cache(maxsize=None)
def _sum_shape(k: int, target: int, n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Of the combinations of ``k`` digits adding up to ``target``: each one's digits, and per
    digit 1..n the positions of the combinations holding it."""
    combos = sum_combinations(k, target, n)
    return (tuple(tuple(digits_of(m)) for m in combos),
            tuple(tuple(j for j, m in enumerate(combos) if m >> (d - 1) & 1) for d in range(1, n + 1)))


def sum_clauses(n: int, cages: Sequence[Sequence[int]], sums: Sequence[int],
                first: int | None = None) -> list[list[int]]:
    """``sum_clauses_plain``, which it must equal (the same clauses in the same order), from
    each cage size and sum's digit lists worked out once (``_sum_shape``): a Killer's proof
    built them per cell, digit and combination (2-3 ms a 9x9 puzzle)."""
    out: list[list[int]] = []
    nxt = n * n * n + 1 if first is None else first
    digits = range(1, n + 1)
    for cells, target in zip(cages, sums):
        ways, holding = _sum_shape(len(cells), target, n)
        if not ways:
            return [[1], [-1]]
        for a, b in combinations(cells, 2):
            a, b = -a * n, -b * n
            out += [[a - d, b - d] for d in digits]
        out.append(list(range(nxt, nxt + len(ways))))
        for s, ds in enumerate(ways, nxt):
            out += [[-s] + [i * n + d for d in ds] for i in cells]
        for i in cells:
            at = i * n
            out += [[-(at + d)] + [nxt + j for j in js] for d, js in zip(digits, holding)]
        nxt += len(ways)
    return out


def _shares_house(geo: Geometry, a: int, b: int) -> bool:
    return not set(geo.houses_of[a]).isdisjoint(geo.houses_of[b])


def proof_clauses_plain(geo: Geometry, cages: Sequence[Sequence[int]], sums: Sequence[int], on: int,
                        first: int) -> list[list[int]]:
    """``sum_clauses`` as the generator's proof loads them on ``geo``'s house clauses
    (``latin_sat.LatinSolver.load_numbered``): each led by ``-on``, the selectors numbered
    from ``first``, and without the "no digit twice" pair of two cells of a cage that share a
    house of ``geo`` (its house clauses already say so: the same solutions). The plain version
    of ``proof_clauses`` (tests/test_killer.py)."""
    n = geo.n
    base = n ** 3
    shift = first - base - 1
    out = []
    for clause in sum_clauses(n, cages, sums):
        if len(clause) == 2 and -base <= clause[0] < 0 and -base <= clause[1] < 0 and \
                _shares_house(geo, (-clause[0] - 1) // n, (-clause[1] - 1) // n):
            continue
        out.append([-on] + [v + shift if v > base else v - shift if v < -base else v for v in clause])
    return out


def proof_clauses(geo: Geometry, cages: Sequence[Sequence[int]], sums: Sequence[int], on: int,
                  first: int) -> list[list[int]]:
    """``proof_clauses_plain``, which it must equal (the same clauses in the same order), written
    numbered from the start (no pass over the literals again): a 9x9 Killer's proof loaded
    ``sum_clauses`` renumbered behind a fresh switch, 1.3 ms of its 8, and its two-cell
    cages' pairs of clauses, which its rows and columns already hold, a third of them."""
    n = geo.n
    lead = -on
    out: list[list[int]] = []
    nxt = first
    digits = range(1, n + 1)
    for cells, target in zip(cages, sums):
        ways, holding = _sum_shape(len(cells), target, n)
        if not ways:
            return [[lead, 1], [lead, -1]]
        for a, b in combinations(cells, 2):
            if not _shares_house(geo, a, b):
                a, b = -a * n, -b * n
                out += [[lead, a - d, b - d] for d in digits]
        out.append([lead] + list(range(nxt, nxt + len(ways))))
        for s, ds in enumerate(ways, nxt):
            out += [[lead, -s] + [i * n + d for d in ds] for i in cells]
        for i in cells:
            at = i * n
            out += [[lead, -(at + d)] + [nxt + j for j in js] for d, js in zip(digits, holding)]
        nxt += len(ways)
    return out


def proof_variables(n: int, cages: Sequence[Sequence[int]], sums: Sequence[int]) -> int:
    """How many variables of their own (selectors) ``proof_clauses`` numbers."""
    return sum(len(_sum_shape(len(cells), target, n)[0]) for cells, target in zip(cages, sums))
