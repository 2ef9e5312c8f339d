"""Exact solving of Latin squares with cage constraints (python-sat).

Encoding: one boolean per (cell, digit), ``var = i * N + d`` with
``i = row * N + col`` and d in 1..N. Every cell holds exactly one digit, every
row and column holds every digit exactly once. A cage with several cells gets
one selector variable per admissible assignment: at least one selector is on,
a selector forces its digits, and every (cell, digit) of the cage needs a
selector that supports it, so unit propagation already prunes like the cage
enumeration a human would do. Solutions are counted by finding one, blocking
it, and asking again.

A ``DraftSolver`` keeps one solver for many questions about one order: the
Latin clauses are loaded once, each cage's clauses once, switched on by an
activation literal per cage (a pair of cells needs no selectors: every digit of
one cell needs a partner in the other). The generator asks one per puzzle about
its drafts; ``proves_unique`` keeps one per order and process.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from bookgen.solve.sat import SOLVER_NAME, Solver

# A cage for the solver: cell indices and the digit tuples it admits.
CageSpec = tuple[tuple[int, ...], Sequence[tuple[int, ...]]]


@lru_cache(maxsize=None)
def latin_clauses(n: int) -> tuple[tuple[int, ...], ...]:
    """The clauses saying "this is a Latin square of order n" (cached per n)."""

    def var(r: int, c: int, d: int) -> int:
        return (r * n + c) * n + d

    out: list[tuple[int, ...]] = []
    groups: list[list[int]] = []
    for r in range(n):
        for c in range(n):
            groups.append([var(r, c, d) for d in range(1, n + 1)])
    for d in range(1, n + 1):
        for r in range(n):
            groups.append([var(r, c, d) for c in range(n)])
        for c in range(n):
            groups.append([var(r, c, d) for r in range(n)])
    for g in groups:
        out.append(tuple(g))
        for a in range(len(g)):
            for b in range(a + 1, len(g)):
                out.append((-g[a], -g[b]))
    return tuple(out)


def proves_unique(n: int, cages: Sequence[CageSpec], square: Sequence[int]) -> bool:
    """Whether SAT finds ``square`` (flat, row-major digits) as the only solution of these cages.

    The generator's final, independent check. The square is checked against the
    rules and the cages directly; then one solve asks for any other solution. The
    solver is kept per order and process (a ``DraftSolver``, reloaded every few proofs):
    loading the Latin-square clauses cost more than the question. Its answer is exact
    whatever it was asked before, so sharing it keeps generation deterministic.
    """
    if len(square) != n * n or not _is_latin(n, square):
        return False
    for cells, assigns in cages:
        if tuple(square[i] for i in cells) not in assigns:
            return False
    prover = _prover(n)  # lean: only the verdict counts here
    other, _ = prover.second_solution(square, [((cells, tuple(assigns)), cells, assigns) for cells, assigns in cages])
    return other is None


# A prover is loaded afresh after this many proofs: the cages of earlier puzzles pile
# up and slow it down (per proof at 5x5: 0.25 ms with a fresh solver each time, 0.15 ms
# reloading every 16, 0.2 ms and growing reloading every few thousand).
PROVER_PROOFS = 16
_PROVERS: dict[int, list] = {}  # order -> [DraftSolver, proofs made]


def _prover(n: int) -> "DraftSolver":
    got = _PROVERS.get(n)
    if got is None or got[1] >= PROVER_PROOFS:
        if got is not None:
            got[0].close()
        got = _PROVERS[n] = [DraftSolver(n, lean=True), 0]
    got[1] += 1
    return got[0]


def _is_latin(n: int, square: Sequence[int]) -> bool:
    want = set(range(1, n + 1))
    return all(set(square[r * n:(r + 1) * n]) == want for r in range(n)) and all(
        set(square[c::n]) == want for c in range(n))


def cage_clauses(n: int, cages: Sequence[CageSpec]) -> list[list[int]]:
    """Clauses for the cages; selector variables are numbered after the grid's."""
    out: list[list[int]] = []
    nxt = n * n * n + 1
    for cells, assigns in cages:
        if not assigns:
            return [[1], [-1]]  # a cage nothing can satisfy: unsatisfiable
        if len(cells) == 1:
            out.append([cells[0] * n + a[0] for a in assigns])
            continue
        sels = list(range(nxt, nxt + len(assigns)))
        nxt += len(assigns)
        out.append(sels)
        support: dict[int, list[int]] = {}
        for s, a in zip(sels, assigns):
            for i, d in zip(cells, a):
                v = i * n + d
                out.append([-s, v])
                support.setdefault(v, []).append(s)
        for i in cells:
            for d in range(1, n + 1):
                v = i * n + d
                if v in support:
                    out.append([-v, *support[v]])
                else:
                    out.append([-v])
    return out


def latin_solutions(
    n: int, cages: Sequence[CageSpec], limit: int = 2,
    cand: Sequence[int] | None = None, exclude: Sequence[Sequence[int]] = (),
) -> list[list[int]]:
    """Up to ``limit`` solutions, each a flat row-major list of digits (exact, no budget).

    ``cand`` (one bitmask per cell, bit d-1 = digit d) narrows each cell to
    digits already known possible, e.g. by sound deductions; ``exclude``
    lists solutions not to report again (known ones), so "is there another
    solution?" costs one call.
    """
    found, _ = search_solutions(n, cages, limit, cand, exclude)
    return found


def search_solutions(
    n: int, cages: Sequence[CageSpec], limit: int = 2,
    cand: Sequence[int] | None = None, exclude: Sequence[Sequence[int]] = (),
    budget: int | None = None,
) -> tuple[list[list[int]], bool]:
    """Like ``latin_solutions``, with an optional conflict ``budget`` per call.

    Returns (solutions, complete): ``complete`` is False when the budget ran
    out before the search could say whether more solutions exist. Latin
    squares with weak cages are close kin of quasigroup completion, a classic
    hard SAT family, so the generator bounds its exploratory calls.
    """
    found: list[list[int]] = []
    grid_vars = n * n * n
    with Solver(name=SOLVER_NAME, bootstrap_with=latin_clauses(n)) as solver:
        solver.append_formula(cage_clauses(n, cages))
        if cand is not None:
            for i, mask in enumerate(cand):
                for d in range(1, n + 1):
                    if not mask >> (d - 1) & 1:
                        solver.add_clause([-(i * n + d)])
        for sol in exclude:
            solver.add_clause([-(i * n + d) for i, d in enumerate(sol)])
        while len(found) < limit:
            if budget is None:
                sat = solver.solve()
            else:
                solver.conf_budget(budget)
                sat = solver.solve_limited()
                if sat is None:
                    return found, False
            if not sat:
                break
            model = solver.get_model()
            digits = [0] * (n * n)
            true_vars = []
            for lit in model[:grid_vars]:
                if lit > 0:
                    i, d = divmod(lit - 1, n)
                    digits[i] = d + 1
                    true_vars.append(lit)
            found.append(digits)
            solver.add_clause([-v for v in true_vars])
    return found, True


class DraftSolver:
    """One SAT solver for the many drafts a generator tries over one Latin square.

    Loading the Latin-square clauses costs more than most questions asked of
    them, and consecutive drafts share most of their cages. So the clauses go
    in once; every distinct cage gets its clauses once, guarded by an
    activation literal, and a draft is asked about by assuming its cages'
    literals. The intended square is blocked once, under its own literal, so
    "is there a second solution?" is a single solve. Everything the solver
    learns follows from the Latin clauses and the guarded cages, so answers
    stay exact; they depend only on the sequence of questions, so a generator
    that makes one ``DraftSolver`` per puzzle stays deterministic.
    """

    def __init__(self, n: int, lean: bool = False) -> None:
        """``lean``: leave out the clauses that only speed propagation up (a (cell, digit)
        needs a selector that supports it; a pair constrained from its second cell too).
        Answers stay exact, but the search and so the other solutions found differ: only
        for a solver whose answer is a plain yes or no (the final proof, where the lean
        clauses cut its cost at 5x5 easy from 0.18 to 0.13 ms)."""
        self.n = n
        self.lean = lean
        self.solver = Solver(name=SOLVER_NAME, bootstrap_with=LATIN_ENCODING(n))
        # Cages add thousands of clauses: skip the wrapper's own wrapper for each.
        self._add = self.solver.solver.add_clause
        self.next_var = n * n * n + 1
        self.active: dict[object, int] = {}
        self.blocks: dict[tuple[int, ...], int] = {}

    def _block(self, square: Sequence[int]) -> int:
        """The literal that, assumed, rules out ``square`` (flat, row-major digits)."""
        key = tuple(square)
        got = self.blocks.get(key)
        if got is None:
            got = self.blocks[key] = self._fresh()
            self.solver.add_clause([-got] + [-(i * self.n + d) for i, d in enumerate(key)])
        return got

    def _fresh(self) -> int:
        v = self.next_var
        self.next_var += 1
        return v

    def _cage_literal(self, key: object, cells: Sequence[int], assigns: Sequence[tuple[int, ...]]) -> int:
        got = self.active.get(key)
        if got is not None:
            return got
        n = self.n
        act = self._fresh()
        self.active[key] = act
        add = self._add
        if not assigns:
            add([-act])
            return act
        if len(cells) == 1:
            add([-act] + [cells[0] * n + a[0] for a in assigns])
            return act
        if len(cells) == 2:
            # Two cells need no selectors: each digit of one cell needs a partner in the other.
            a_cell, b_cell = cells
            partners: dict[int, list[int]] = {}
            for x, y in assigns:
                partners.setdefault(a_cell * n + x, []).append(b_cell * n + y)
                partners.setdefault(b_cell * n + y, []).append(a_cell * n + x)
            for i in cells[:1] if self.lean else cells:
                for v in range(i * n + 1, i * n + n + 1):
                    add([-act, -v, *partners.get(v, ())])
            return act
        sels = list(range(self.next_var, self.next_var + len(assigns)))
        self.next_var += len(assigns)
        add([-act, *sels])
        if self.lean:
            for s, a in zip(sels, assigns):
                for i, d in zip(cells, a):
                    add([-s, i * n + d])
            return act
        support: dict[int, list[int]] = {}
        for s, a in zip(sels, assigns):
            for i, d in zip(cells, a):
                v = i * n + d
                add([-s, v])
                support.setdefault(v, []).append(s)
        for i in cells:
            for d in range(1, n + 1):
                v = i * n + d
                add([-act, -v, *support.get(v, ())])
        return act

    def second_solution(
        self, square: Sequence[int], cages: Sequence[tuple[object, Sequence[int], Sequence[tuple[int, ...]]]],
        budget: int | None = None,
    ) -> tuple[list[int] | None, bool]:
        """(a solution of these cages other than ``square``, or None; complete).

        ``cages`` are (key, cell indices, assignments): a key names a cage's
        clauses for later drafts, so equal keys must mean equal cages. With a
        conflict ``budget`` the answer may be incomplete ((None, False)).
        """
        found, complete = self.other_solutions(square, cages, 1, budget)
        return (found[0] if found else None), complete

    def other_solutions(
        self, square: Sequence[int], cages: Sequence[tuple[object, Sequence[int], Sequence[tuple[int, ...]]]],
        limit: int, budget: int | None = None,
    ) -> tuple[list[list[int]], bool]:
        """Up to ``limit`` solutions of these cages other than ``square`` (flat digit lists),
        and whether the first question was answered within ``budget`` (see ``second_solution``).
        Solutions after the first are asked for with the same budget; one not found in
        time is simply not listed."""
        known = self.active.get  # (most of a draft's cages were asked about before)
        lits = [known(key) or self._cage_literal(key, cells, assigns) for key, cells, assigns in cages]
        lits.append(self._block(square))
        n = self.n
        found: list[list[int]] = []
        guard = 0
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
            if len(found) < limit:
                if not guard:  # blocks this draft's solutions, retired below
                    guard = self._fresh()
                    lits.append(guard)
                self._add([-guard] + [-v for v in true_vars])
        if guard:
            self._add([-guard])
        return found, bool(found) or sat is not None

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()


LATIN_ENCODING = latin_clauses
