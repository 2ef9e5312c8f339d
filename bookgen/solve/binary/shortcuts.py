"""Generator shortcuts: the closure's verdicts on one question, reached sooner.
"""

from __future__ import annotations

from typing import Sequence

from bookgen.core.difficulty import Level
from bookgen.core.types import Cell, Edge
from bookgen.solve.binary.rules import HARD, Board, Contradiction


class GeneratorShortcuts:
    """Questions the generator asks of the closure, answered sooner (mixed into ``BinaryEngine``)."""

    def forced_by_own_lines(self, board: Board, cell: Cell, level: Level) -> bool:
        """Whether ``cell``'s row or column alone brings it back once it is emptied.

        ``closure(board, level, target=cell)`` looks at the cell's row first
        and then its column, and returns True as soon as either fills it: a
        True here is that verdict, reached without copying the board (the
        line's answer comes from the closure's memo, or is worked out and
        stored there as the closure would). False means "not known": ask the
        closure. With distinct lines the line's answer is taken without them
        (``_own_line``): less than the closure may find, never more.

        Reference: ``closure(board, level, target=cell)`` on a copy with the cell
        emptied; a True here is never a False there, checked by
        ``test_own_line_shortcuts_agree_with_the_closure`` (tests/test_binary.py).
        """
        r, c = cell
        n = self.n
        itier = HARD if level > HARD else int(level)
        memos = board.memos.get(self._memo_keys[itier]) or self._line_memos(board, itier)
        known, value = board.known, board.value
        bit = 1 << c  # the row first
        k = known[r] & ~bit
        key = k << n | value[r] & ~bit
        hit = memos[r].get(key)
        if hit is None:
            hit = self._own_line(board, itier, r, k, key, memos[r])
        if hit and (hit >> n | hit) & bit:
            return True
        line, bit = n + c, 1 << r
        k = known[line] & ~bit
        key = k << n | value[line] & ~bit
        hit = memos[line].get(key)
        if hit is None:
            hit = self._own_line(board, itier, line, k, key, memos[line])
        return bool(hit and (hit >> n | hit) & bit)

    def _own_line(self, board: Board, itier: int, line: int, k: int, key: int, memo: dict[int, int]) -> int | None:
        """``forced_by_own_lines``' memo miss: the line's answer with the cell emptied (cells
        ``key``, known mask ``k``), stored in its memo; None where a rule is broken.

        With distinct lines at the hard tier this is the answer without them (what every
        completion agrees on), the one the closure stores under the same key when no
        finished parallel line could be copied: the closure's answer for the line holds
        it, and more where a copy is ruled out, so a cell it fills the closure fills.
        """
        if itier < HARD and not self.unique_lines:  # what ``_line_news`` stores there
            hit = self._line_fixpoint(itier, k, key & self.full, board.eq[line], board.neq[line])
        else:
            hit = self._line_answer(itier, k, key & self.full, board.eq[line], board.neq[line])
        if hit is not None:
            memo[key] = hit
        return hit

    def settles_ends(self, board: Board, level: Level, edge: Edge) -> bool:
        """Whether ``board`` (a solvable one with ``edge`` taken away) is still solved at ``level``.

        The same verdict as ``closure(board, level)``, reached sooner: once
        both cells of the sign are filled, the sign can tell no technique
        anything more, so the closure without it is a closure with it, which
        fills the board. ``board`` is changed (as by ``closure``).

        When the memo already knows that each end still empty is forced by
        its own row or column, the answer is True without a closure: the
        first closure then fills (or, its target already known, reaches news
        at) that end, and the second finds the other one forced on a board
        that knows more (every technique keeps forcing a cell as the
        knowledge around it grows).

        Reference: ``closure(board, level)``, checked by
        ``test_own_line_shortcuts_agree_with_the_closure`` (tests/test_binary.py).
        """
        a_known, b_known = board.get(*edge.a) >= 0, board.get(*edge.b) >= 0
        if not (a_known and b_known) and \
                (a_known or self.forced_by_own_lines(board, edge.a, level)) and \
                (b_known or self.forced_by_own_lines(board, edge.b, level)):
            return True
        # ``closure(target=a)``, then on to ``b`` with the same queue: the
        # lines the first one left unvisited are exactly what a second
        # closure would have to redo (the fixpoint is the same either way).
        tier = HARD if level > HARD else int(level)
        left = self._propagate(board, tier, (1 << 2 * self.n) - 1, edge.a)
        if left < 0:
            return not board.empty_count()
        return board.get(*edge.b) >= 0 or self._propagate(board, tier, left, edge.b) >= 0 \
            or not board.empty_count()

    def trials_solve(self, board: Board, cells: Sequence[Cell], solution: Board | None = None,
                     closed: bool = False) -> bool:
        """Whether the hard tier plus trials on ``cells`` only fills the board.

        A cheap, sufficient test that a board is expert-solvable (the full
        test tries every empty cell): the generator uses it to let a sign go.
        ``solution``, when the caller knows the board's (the generator does),
        spares the trial of each cell's right symbol, which never fails.
        ``closed`` says ``board`` is already the hard tier's fixpoint (as a
        failed ``settles_ends`` leaves it), so the first closure has nothing to do.
        """
        state = board.copy()
        start = () if closed else None
        try:
            while not self.closure(state, Level.HARD, start=start):
                hit = self._trial(state, cells=cells, solution=solution)
                if hit is None:
                    return False
                (r, c), v = hit
                state.assign(r, c, v)
                start = (r, self.n + c)  # the rest was closed: only this cell's lines have news
            return True
        except Contradiction:
            return False
