"""Exact counting by SAT: the uniqueness proof every shipped puzzle gets, and solution listing.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from bookgen.core.types import Cell, Edge, EMPTY
from bookgen.solve.binary.grids import TABLE_PATTERNS, grid_table
from bookgen.solve.binary.rules import Board, _row_text, line_patterns
from bookgen.solve.binary.swaps import TwoLineSwaps
from bookgen.solve.sat import SOLVER_NAME, Solver, models

SAT_RENEW = 2_000  # uniqueness proofs per incremental solver before a fresh one (bounds its memory)


class SatProof:
    """The exact count (mixed into ``BinaryEngine``): SAT, no technique involved."""

    def proves_unique(self, rows: Sequence[str], edges: Iterable[Edge], solution: Sequence[str]) -> bool:
        """Whether ``solution`` is the one solution of these givens and signs: the generator's
        proof for every puzzle it returns. Where every valid grid is listed (``grid_table``:
        4x4, 6x6), a count over that list (``_table_proves_unique``); else by SAT
        (``_sat_proves_unique``, the plain version the count must equal:
        ``test_table_proof_is_the_sat_proof`` in tests/test_binary.py)."""
        if len(line_patterns(self.n, self.max_run)) <= TABLE_PATTERNS:
            return self._table_proves_unique(rows, edges, solution)
        return self._sat_proves_unique(rows, edges, solution)

    def _table_proves_unique(self, rows: Sequence[str], edges: Iterable[Edge], solution: Sequence[str]) -> bool:
        """``_sat_proves_unique`` by counting: of every valid grid, those that agree with the
        givens and keep the signs, as one bit set ANDed per clue (a few dozen big-int
        operations: a 6x6 proof takes tens of microseconds, a SAT call several times that).
        The answer is whether that set holds exactly one grid, and that grid is ``solution``."""
        n = self.n
        if len(rows) != n or len(solution) != n or any(len(line) != n for line in (*rows, *solution)):
            return False
        table, ones, every = self._grid_sets()
        found = every
        for cell, ch in enumerate("".join(rows)):
            if ch == "1":
                found &= ones[cell]
            elif ch == "0":
                found &= every ^ ones[cell]
            elif ch != EMPTY:
                return False
        for edge in edges:
            differ = ones[edge.a[0] * n + edge.a[1]] ^ ones[edge.b[0] * n + edge.b[1]]
            found &= every ^ differ if edge.sign == "=" else differ
        if found.bit_count() != 1:
            return False
        grid = table[found.bit_length() - 1]
        return all(line == _row_text(n, self.full, p) for line, p in zip(solution, grid))

    def _grid_sets(self) -> tuple[tuple[tuple[int, ...], ...], list[int], int]:
        """``grid_table`` for these rules, and per cell (row-major) the set of its grids (bit i:
        grid i) where that cell is 1, and the set of them all; built once per engine."""
        sets = self.__dict__.get("_grid_bits")
        if sets is None:
            n = self.n
            table = grid_table(n, self.max_run, self.unique_lines)
            # Row masks fit a byte (tabled lines are at most 6 long): row r of every grid as one
            # bytes object, last grid first, so that ``int(text, 2)`` puts grid i at bit i.
            flat = bytes(mask for grid in reversed(table) for mask in grid)
            digits = [bytes(48 + (x >> c & 1) for x in range(256)) for c in range(n)]  # mask -> "0"/"1"
            ones = [int(flat[r::n].translate(digits[c]), 2) for r in range(n) for c in range(n)]
            sets = self._grid_bits = (table, ones, (1 << len(table)) - 1)
        return sets

    def _cell_grid_sets(self) -> list[tuple[int, int]]:
        """Per cell (row-major), the listed grids where it is 0 and those where it is 1
        (``_grid_sets``' ones and their complements): a carve's clue sets are read from here,
        not worked out again every attempt. Built once per engine."""
        both = self.__dict__.get("_cell_grids")
        if both is None:
            _, ones, every = self._grid_sets()
            both = self._cell_grids = [(every ^ grids, grids) for grids in ones]
        return both

    def second_grids(self, solution: Board, edges: Sequence[Edge],
                     cells: Sequence[Cell]) -> SecondGrids | TwoLineSwaps:
        """For a carve of ``solution`` that tests its givens in the order ``cells`` with the
        signs ``edges`` on, then those signs: whether the board with one clue gone has a second
        solution. Exact where every grid is listed (``grid_table``: ``SecondGrids``); elsewhere
        where two rows can trade cells (``TwoLineSwaps``: a no there is "not known")."""
        if len(line_patterns(self.n, self.max_run)) > TABLE_PATTERNS:
            return TwoLineSwaps(self, solution, edges, cells)
        return SecondGrids(self, solution, edges, cells)

    def _sat_proves_unique(self, rows: Sequence[str], edges: Iterable[Edge], solution: Sequence[str]) -> bool:
        """Whether SAT finds ``solution`` and no other solution for these givens and signs.

        One incremental
        solver per engine holds the rules; givens and signs are assumptions,
        so a call costs one solve instead of building the whole formula: that
        ``solution`` keeps every rule, given and sign is checked directly, and
        the solver proves that nothing else does. The answer is exact,
        whatever the solver learned from earlier calls.
        """
        edges = list(edges)
        if not self._is_solution(rows, edges, solution):
            return False
        if self._sat is None or self._sat_calls >= SAT_RENEW:
            self._new_sat()
        self._sat_calls += 1
        solver = self._sat
        # Cell (r, c) is variable r * n + c + 1 (``_var``): row-major order, counted from 1.
        assume = [v if ch == "1" else -v for v, ch in enumerate("".join(rows), 1) if ch != EMPTY]
        for edge in edges:
            assume.append(self._edge_selector(edge))
        self._sat_top += 1
        act = self._sat_top
        solver.add_clause([-act] + [-v if ch == "1" else v for v, ch in enumerate("".join(solution), 1)])
        other = solver.solve(assumptions=assume + [act])
        solver.add_clause([-act])  # retire this call's blocking clause
        return not other

    def _is_solution(self, rows: Sequence[str], edges: Sequence[Edge], solution: Sequence[str]) -> bool:
        """Whether ``solution`` is a full grid that keeps every rule, agrees with the givens and keeps the signs."""
        n = self.n
        valid = self._valid_texts()  # every valid line as text: n symbols 0 and 1, so shapes are checked too
        if len(solution) != n or len(rows) != n or not valid.issuperset(solution) \
                or any(len(line) != n for line in rows):  # (``proves_unique`` numbers the cells in a row-major join)
            return False
        cols = list(map("".join, zip(*solution)))
        if not valid.issuperset(cols):
            return False
        if self.unique_lines and (len(set(solution)) != n or len(set(cols)) != n):
            return False
        for given, line in zip(rows, solution):
            if any(g != EMPTY and g != ch for g, ch in zip(given, line)):
                return False
        for edge in edges:
            same = solution[edge.a[0]][edge.a[1]] == solution[edge.b[0]][edge.b[1]]
            if same != (edge.sign == "="):
                return False
        return True

    def _valid_lines(self) -> frozenset[int]:
        valid = self.__dict__.get("_valid")
        if valid is None:
            valid = self._valid = frozenset(line_patterns(self.n, self.max_run))
        return valid

    def _valid_texts(self) -> frozenset[str]:
        """``_valid_lines`` as row text (character j is cell j), for ``_is_solution``'s set tests."""
        valid = self.__dict__.get("_texts")
        if valid is None:
            n = self.n
            valid = self._texts = frozenset("".join(str(p >> j & 1) for j in range(n)) for p in self._valid_lines())
        return valid

    def _new_sat(self) -> None:
        if self._sat is not None:
            self._sat.delete()
        base, top = _base_cnf(self.n, self.max_run, self.unique_lines)
        self._sat = Solver(name=SOLVER_NAME, bootstrap_with=[list(c) for c in base])
        self._sat_top = top
        self._sat_calls = 0
        self._selectors: dict[tuple[Cell, Cell, str], int] = {}

    def _edge_selector(self, edge: Edge) -> int:
        """A variable that, assumed true, imposes ``edge``'s sign (clauses added once per solver)."""
        key = (edge.a, edge.b, edge.sign)
        sel = self._selectors.get(key)
        if sel is None:
            self._sat_top += 1
            sel = self._selectors[key] = self._sat_top
            a, b = _var(self.n, *edge.a), _var(self.n, *edge.b)
            if edge.sign == "=":
                self._sat.append_formula([[-sel, a, -b], [-sel, -a, b]])
            else:
                self._sat.append_formula([[-sel, a, b], [-sel, -a, -b]])
        return sel

    def sat_solutions(self, rows: Sequence[str], edges: Iterable[Edge] = (),
                      limit: int = 2) -> list[tuple[str, ...]]:
        """Up to ``limit`` solutions by SAT (no technique involved)."""
        n = self.n
        base, top = _base_cnf(n, self.max_run, self.unique_lines)
        clauses = list(base)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch != EMPTY:
                    clauses.append([_var(n, r, c) if ch == "1" else -_var(n, r, c)])
        for edge in edges:
            a, b = _var(n, *edge.a), _var(n, *edge.b)
            if edge.sign == "=":
                clauses += [[a, -b], [-a, b]]
            else:
                clauses += [[a, b], [-a, -b]]
        watch = list(range(1, n * n + 1))
        out = []
        for model in models(clauses, watch, limit):
            out.append(tuple("".join("1" if _var(n, r, c) in model else "0" for c in range(n))
                             for r in range(n)))
        return out


def _var(n: int, r: int, c: int) -> int:
    return r * n + c + 1


@lru_cache(maxsize=64)
def _base_cnf(n: int, max_run: int, unique: bool) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The rule clauses of an empty grid (runs, balance, distinct lines)."""
    pool = IDPool(start_from=n * n + 1)
    clauses: list[tuple[int, ...]] = []
    lines = [[_var(n, r, c) for c in range(n)] for r in range(n)]
    lines += [[_var(n, r, c) for r in range(n)] for c in range(n)]
    for cells in lines:
        for s in range(n - max_run):
            window = cells[s: s + max_run + 1]
            clauses.append(tuple(window))
            clauses.append(tuple(-v for v in window))
        card = CardEnc.equals(lits=cells, bound=n // 2, vpool=pool, encoding=EncType.seqcounter)
        clauses.extend(tuple(c) for c in card.clauses)
    if unique:
        for group in (lines[:n], lines[n:]):
            for i in range(n):
                for k in range(i + 1, n):
                    diffs = []
                    for a, b in zip(group[i], group[k]):
                        d = pool.id(("diff", a, b))
                        clauses.append((-d, a, b))
                        clauses.append((-d, -a, -b))
                        diffs.append(d)
                    clauses.append(tuple(diffs))
    return tuple(clauses), pool.top


class SecondGrids:
    """Whether a carve's board with one clue gone has a second solution, from the list of
    every grid (4x4, 6x6): such a board no sound technique can solve, nor a trial, so the
    clue stays without a closure (at 6x6 most of the givens a carve keeps are kept for that).

    The carve tests its givens in a fixed order with every sign on, then its signs: when a
    clue is tested, the board holds the clues kept so far and every clue not yet tested.
    Each clue is the set of listed grids that agree with it (``_grid_sets``): the grids
    that fit the board without the tested clue are the set of the kept clues (and, in the
    givens' pass, every sign; in the signs' pass, the givens kept) AND the set of the clues
    after it in the order (ANDed once per pass, from the back). The solution is always
    among them: a second one is a second bit.

    Plain version: ``closure(board, level, target=cell)`` (and a trial) failing on that
    board, and SAT counting two solutions; ``test_second_grids_are_what_sat_and_the_closure_say``
    (tests/test_binary.py) compares them.
    """

    __slots__ = ("_ones", "_every", "_n", "_clues", "_after", "_kept", "_givens")

    def __init__(self, engine: SatProof, solution: Board, edges: Sequence[Edge], cells: Sequence[Cell]):
        _, self._ones, self._every = engine._grid_sets()
        n = self._n = engine.n
        signs = self._every
        for edge in edges:
            signs &= self._edge_set(edge)
        self._givens = self._every
        both, value = engine._cell_grid_sets(), solution.value  # a carve's grid is full
        self._start([both[r * n + c][value[r] >> c & 1] for r, c in cells], signs)

    def _edge_set(self, edge: Edge) -> int:
        n, ones = self._n, self._ones
        differ = ones[edge.a[0] * n + edge.a[1]] ^ ones[edge.b[0] * n + edge.b[1]]
        return self._every ^ differ if edge.sign == "=" else differ

    def _start(self, clues: list[int], kept: int) -> None:
        after = [self._every] * (len(clues) + 1)  # after[i]: the clues from the i-th on
        for i in range(len(clues) - 1, -1, -1):
            after[i] = after[i + 1] & clues[i]
        self._clues, self._after, self._kept = clues, after, kept

    def has_two(self, i: int, board: Board) -> bool:
        """Whether the board without the ``i``-th clue of the pass has a second solution (the
        board itself is not read: the kept clues are tracked here)."""
        grids = self._kept & self._after[i + 1]
        return grids & (grids - 1) != 0

    def keep(self, i: int) -> None:
        """The ``i``-th clue of the pass stays on the board."""
        self._kept &= self._clues[i]
        if self._givens is not None:
            self._givens &= self._clues[i]

    def signs_pass(self, edges: Sequence[Edge], board: Board) -> None:
        """From here on the signs are tested, in the order ``edges``, with the givens kept (the
        board is not read)."""
        givens, self._givens = self._givens, None
        self._start([self._edge_set(edge) for edge in edges], givens)
