"""Exact solving for the Latin engine (python-sat): its one encoding and its one prover.

Encoding: one boolean per (cell, digit), ``var = i * N + d`` with
``i = row * N + col`` and d in 1..N; every cell holds exactly one digit and
every house (``Geometry.houses``: rows, columns, boxes, diagonals, regions)
every digit exactly once (``house_clauses``). A constraint plug-in adds its
own clauses over these variables (Killer's sums, Futoshiki's signs, KenKen's
cages), numbering any variables of its own above ``N**3``.

``LatinSolver`` is the one incremental solver every Latin variant asks: the
house clauses are loaded once, then clauses come and go behind *switches*
(a fresh variable assumed true to turn a group on, never assumed to leave it
off, or fixed false to retire it): a puzzle's cages or signs, one optional
sign, "differs from this grid somewhere". Every answer it gives is exact
whatever it was asked before (it only ever learns consequences of what it
holds), so sharing one across puzzles keeps generation deterministic as long
as only verdicts and counts are read. Where the solutions themselves matter
to a generator (KenKen's drafts), it keeps one solver per puzzle.

``solutions`` is the one-shot form for ``check`` and ``solve``: a fresh
solver, so the solutions it lists depend on the puzzle alone.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Callable, Iterable, NamedTuple, Sequence

from bookgen.solve.sat import SOLVER_NAME, Solver, load


@lru_cache(maxsize=64)
def house_clauses(n: int, houses: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Every cell holds exactly one digit, every house every digit exactly once.

    The "at most once" pairs of a house are redundant (N cells, N digits), but
    with them a given's digit leaves its peers by unit propagation, as the
    ladder's first step does: without them an incremental solver searches tens
    of times longer. Cells first, then digit by digit every house.
    """
    out: list[tuple[int, ...]] = []
    for i in range(n * n):
        ds = [i * n + d for d in range(1, n + 1)]
        out.append(tuple(ds))
        out += [(-a, -b) for a, b in combinations(ds, 2)]
    for d in range(1, n + 1):
        for cells in houses:
            vs = [i * n + d for i in cells]
            out.append(tuple(vs))
            out += [(-a, -b) for a, b in combinations(vs, 2)]
    return tuple(out)


def grid_of(model: Sequence[int], n: int) -> list[int]:
    """The flat digits a model sets (its first ``N**3`` literals)."""
    digits = [0] * (n * n)
    for v in model[:n ** 3]:
        if v > 0:
            i, d = divmod(v - 1, n)
            digits[i] = d + 1
    return digits


class LatinSolver:
    """One incremental SAT solver over a geometry's houses (any object with ``n`` and
    ``houses``), with switched clause groups and "differs from this grid" switches."""

    def __init__(self, geo) -> None:
        self.geo = geo
        self.n = geo.n
        self.solver = Solver(name=SOLVER_NAME)
        # The same clauses in the same order as ``bootstrap_with`` would add them (so the same
        # solver), from a C-level loop (``sat.load``): a 7x7 grid's 3,234 cost a KenKen draft
        # solver 2.3 ms through pysat's per-clause wrappers.
        load(self.solver, house_clauses(geo.n, geo.houses))
        # A clause at a time (blocks, retirements): skip the wrapper's own wrapper. A group
        # of clauses goes in through ``load`` in one call.
        self.add = self.solver.solver.add_clause
        self.next_var = self.n ** 3 + 1
        self.switches: dict[object, int] = {}
        self.blocks: dict[tuple[int, ...], int] = {}
        # (first variable, how many): the own variables of every ``load_numbered`` group, reused
        # by the next one (grown when one needs more).
        self.scratch = (0, 0)
        # What a variant keeps per solver (its switches per clue, ``skyscrapers.clue_switches``):
        # gone with the solver when ``Kept`` loads it afresh.
        self.memo: dict[object, list[int]] = {}

    def fresh(self) -> int:
        """A new variable, above the grid's and every one handed out before."""
        v = self.next_var
        self.next_var += 1
        return v

    def switch(self, key: object, write: Callable[["LatinSolver", int], None]) -> int:
        """The switch of the clause group ``key`` (equal keys must mean equal clauses); the
        first time, ``write(self, switch)`` adds the group, each clause with ``-switch``."""
        got = self.switches.get(key)
        if got is None:
            got = self.switches[key] = self.fresh()
            write(self, got)
        return got

    def load(self, clauses: Sequence[Sequence[int]]) -> int:
        """A fresh switch for ``clauses`` whose own variables (above ``N**3``) are renumbered
        past every variable in use: a puzzle's clauses, asked about once."""
        on = self.fresh()
        self._write(clauses, on)
        return on

    def load_numbered(self, make: Callable[[int, int], Sequence[Sequence[int]]], own: int) -> int:
        """``load``, its plain version, for clauses their maker numbers itself: ``make(on,
        first)`` gives them each led by ``-on`` with their ``own`` variables numbered from
        ``first`` (as ``load`` writes them: no pass over every literal here). Those variables
        are the same block for every such group, not fresh ones each time: a kept solver
        otherwise gains a puzzle's worth of variables at every proof, and each question
        assigns every variable it has (a Killer's two questions cost twice as much after 200
        proofs as after 20). Sound while no two such groups are turned on in one question
        (every clause of a group holds ``-on``, and so does everything the solver learns from
        it, so with its switch off or retired a group says nothing about the block)."""
        on = self.fresh()
        first, size = self.scratch
        if own > size:
            first = self.next_var
            self.next_var += own
            self.scratch = (first, own)
        load(self.solver, make(on, first))
        self.next_var = max(self.next_var, self.solver.nof_vars() + 1)
        return on

    def group(self, key: object, make: Callable[[], Sequence[Sequence[int]]],
              numbered: Callable[[int], Iterable[Sequence[int]]] | None = None) -> int:
        """The switch of a clause group that recurs from puzzle to puzzle (a line's clauses,
        whatever a clue on it says: ``Group``), its clauses (``make()``, own variables above
        ``N**3`` as in ``load``) written the first time only: a puzzle made of such groups
        is then asked about by assumptions alone, not thousands of clauses loaded afresh.
        ``numbered(on)``: the same clauses as written behind the switch ``on`` (each led by
        ``-on``, own variables renumbered as ``_write`` does), made so by the caller at no
        cost per literal here; ``make`` is the plain version they must equal."""
        if numbered is None:
            return self.switch(("group", key), lambda ls, on: ls._write(make(), on))
        return self.switch(("group", key), lambda ls, on: ls._add_all(numbered(on)))

    def _add_all(self, clauses: Iterable[Sequence[int]]) -> None:
        add = self.add
        for clause in clauses:
            add(clause)
        self.next_var = max(self.next_var, self.solver.nof_vars() + 1)

    def _write(self, clauses: Sequence[Sequence[int]], on: int) -> None:
        base = self.n ** 3
        shift = on - base
        load(self.solver, [[-on] + [v + shift if v > base else v - shift if v < -base else v for v in clause]
                           for clause in clauses])
        self.next_var = max(self.next_var, self.solver.nof_vars() + 1)

    def own(self, on: int, lits: Sequence[int]) -> list[int]:
        """``lits`` numbered as a group's clauses (own variables above ``N**3``) as they are in
        the solver once written behind the switch ``on`` (``_write``'s renumbering)."""
        base = self.n ** 3
        shift = on - base
        return [v + shift if v > base else v - shift if v < -base else v for v in lits]

    def retire(self, switch: int) -> None:
        """Turn a switch off for good (its clauses then never bind again)."""
        self.add([-switch])

    def differs(self, grid: Sequence[int]) -> int:
        """The switch of "the solution differs from ``grid`` (flat digits) somewhere"."""
        key = tuple(grid)
        got = self.blocks.get(key)
        if got is None:
            got = self.blocks[key] = self.fresh()
            n = self.n
            self.add([-got] + [-(i * n + d) for i, d in enumerate(key)])
        return got

    def ask(self, assume: Sequence[int]) -> bool:
        """Whether the clauses turned on by ``assume`` have a solution."""
        return self.solver.solve(assumptions=list(assume))

    def solutions(self, assume: Sequence[int], limit: int, budget: int | None = None,
                  keep: bool = False) -> tuple[list[list[int]], bool]:
        """Up to ``limit`` solutions (flat digit lists) under ``assume``, and whether the first
        question was answered within the conflict ``budget`` (None: no budget). Those found are
        blocked behind a switch retired afterwards, so later questions see none of it (``keep``:
        blocked for good, for a solver asked once); a solution after the first not found
        within the budget is simply not listed."""
        lits = list(assume)
        n = self.n
        found: list[list[int]] = []
        guard = 0
        sat = None
        while len(found) < limit:
            if budget is None:
                sat = self.solver.solve(assumptions=lits)
            else:
                self.solver.conf_budget(budget)
                sat = self.solver.solve_limited(assumptions=lits)
            if not sat:
                break
            # The grid's true variables, one per cell and in cell order (exactly one digit each).
            true_vars = [lit for lit in self.solver.get_model()[:n ** 3] if lit > 0]
            found.append([(lit - 1) % n + 1 for lit in true_vars])
            if keep:
                self.add([-v for v in true_vars])
            elif len(found) < limit:
                if not guard:
                    guard = self.fresh()
                    lits.append(guard)
                self.add([-guard] + [-v for v in true_vars])
        if guard:
            self.retire(guard)
        return found, bool(found) or sat is not None

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()


KEPT_SOLVERS = 32  # geometries whose solvers a process keeps loaded at once


class Kept:
    """A ``LatinSolver`` per geometry kept for the process and loaded afresh after ``limit``
    uses (its clauses pile up: each puzzle's cages, each grid asked about)."""

    def __init__(self, limit: int, make: Callable[[object], LatinSolver] = LatinSolver) -> None:
        self.limit, self.make = limit, make
        self.kept: dict[object, list] = {}  # key -> [geometry, solver, uses]

    def get(self, geo, key: object = None) -> LatinSolver:
        """The solver for ``geo`` (an object kept alive here, so its id stays its own)."""
        k = (id(geo), key)
        got = self.kept.get(k)
        if got is None or got[0] is not geo or got[2] >= self.limit:
            if got is not None and got[0] is geo:
                got[1].close()
            elif len(self.kept) >= KEPT_SOLVERS:  # bounded: every Jigsaw layout is a geometry of its own
                del self.kept[next(iter(self.kept))]  # pysat frees it when its last user lets go
            got = self.kept[k] = [geo, self.make(geo), 0]
        got[2] += 1
        return got[1]


_PROOFS = Kept(200)


class Group(NamedTuple):
    """A clause group that recurs between puzzles (``LatinSolver.group``): its key, ``make``
    for its clauses (own variables above ``N**3``), and ``assume``: literals numbered as those
    clauses, assumed with its switch (what a puzzle says on top of the group: a clue's number
    on its line's clauses, so one group serves every number)."""

    key: object
    make: Callable[[], Sequence[Sequence[int]]]
    assume: Sequence[int] = ()
    # The clauses as written behind a switch (``LatinSolver.group``'s ``numbered``), if the
    # group can number them itself.
    numbered: Callable[[int], Iterable[Sequence[int]]] | None = None


def prove(geo, givens: Sequence[tuple[int, int]], clauses: Sequence[Sequence[int]] = (),
          limit: int = 2, groups: Sequence[Group] = ()) -> list[list[int]]:
    """Up to ``limit`` solutions of a generated puzzle: ``givens`` (cell, digit) and its
    constraint's ``clauses`` (own variables above ``N**3``), on the process's kept solver
    (loading the houses costs more than the question), and ``groups`` that recur between
    puzzles, each with what it assumes: together the same as the constraint's clauses.
    For verdicts and counts: which solutions come back depends on what was asked before."""
    ls = _PROOFS.get(geo)
    n = ls.n
    on = ls.load(clauses)
    found, _ = ls.solutions([on] + group_switches(ls, groups) + [i * n + d for i, d in givens], limit)
    ls.retire(on)
    return found


def group_switches(ls: LatinSolver, groups: Sequence[Group]) -> list[int]:
    """The assumptions that bring ``groups`` in: each group's switch (its clauses written the
    first time) and what it assumes on top, numbered as in the solver."""
    switches: list[int] = []
    for group in groups:
        got = ls.group(group.key, group.make, group.numbered)
        switches.append(got)
        switches += ls.own(got, group.assume)
    return switches


class Numbered(NamedTuple):
    """A puzzle's clauses as their maker numbers them behind a switch (``LatinSolver.load_numbered``):
    ``make(on, first)`` and how many variables of their own they use."""

    make: Callable[[int, int], Sequence[Sequence[int]]]
    own: int


def proves_unique(geo, givens: Sequence[tuple[int, int]], solution: Sequence[int],
                  clauses: Sequence[Sequence[int]] = (), groups: Sequence[Group] = (),
                  numbered: Numbered | None = None) -> bool:
    """Whether ``solution`` (flat digits) is the only solution of a generated puzzle: exactly
    when ``prove`` (its plain version, tests/test_latin_fast.py) returns ``[list(solution)]``.
    The solution is checked with its own digits assumed (unit propagation through the houses
    and the constraint's clauses, no search), then one solve asks for any other; ``prove``
    first searches for the solution itself, which is most of a Killer's proof (2-3 ms), as
    KenKen's and the binary puzzles' proofs already do. ``numbered``: clauses (beside
    ``clauses``) their maker numbers itself, on the solver's reused block of variables."""
    ls = _PROOFS.get(geo)
    n = ls.n
    if len(solution) != n * n or any(not 1 <= d <= n for d in solution) or \
            any(solution[i] != d for i, d in givens):
        return False
    on = ls.load(clauses)
    switches = [on] + group_switches(ls, groups)
    if numbered is not None:
        switches.append(ls.load_numbered(numbered.make, numbered.own))
    grid = [i * n + d for i, d in enumerate(solution)]
    unique = ls.ask(switches + grid)
    if unique:
        other = ls.fresh()  # "differs from the solution somewhere", for this question only
        ls.add([-other] + [-v for v in grid])
        unique = not ls.ask(switches + [i * n + d for i, d in givens] + [other])
        ls.retire(other)
    ls.retire(on)
    if numbered is not None:
        ls.retire(switches[-1])
    return unique


def other_solution(geo, givens: Sequence[tuple[int, int]], solution: Sequence[int], groups: Sequence[Group] = (),
                   assume: Sequence[int] = (), kept: Kept = _PROOFS,
                   switches: Callable[[LatinSolver], list[int]] | None = None) -> bool:
    """Whether a puzzle (``givens`` and recurring clause ``groups``) of which ``solution`` is a
    solution has another one satisfying ``assume`` (literals every solution satisfies, such as
    the candidates a sound ladder struck: they only cut the search): a generator's question
    while it carves, answered on ``kept``'s solver. ``proves_unique`` asks the same with
    nothing assumed (and checks ``solution`` first). ``switches(ls)``: instead of ``groups``,
    the same assumptions as ``group_switches(ls, groups)`` (its plain version), kept by the caller."""
    ls = kept.get(geo)
    n = ls.n
    on = group_switches(ls, groups) if switches is None else switches(ls)
    return ls.ask(on + [i * n + d for i, d in givens] + list(assume) + [ls.differs(solution)])


def solutions(geo, givens: Sequence[tuple[int, int]], limit: int = 2,
              clauses: Sequence[Sequence[int]] = ()) -> list[list[int]]:
    """Up to ``limit`` solutions (flat digit lists) of ``givens`` and ``clauses`` on a fresh
    solver: what ``check`` and ``solve`` show depends on the puzzle alone."""
    n = geo.n
    for i, d in givens:
        if not 1 <= d <= n:
            return []
    ls = LatinSolver(geo)
    try:
        on = ls.load(clauses)
        found, _ = ls.solutions([on] + [i * n + d for i, d in givens], limit)
    finally:
        ls.close()
    return found
