"""The memoised closure: every technique up to a tier, applied until nothing changes.
"""

from __future__ import annotations

from typing import Sequence

from bookgen.core.bits import bits_of, scan_forward
from bookgen.core.difficulty import Level
from bookgen.core.types import Cell
from bookgen.solve.binary.rules import HARD, LINE_MEMO, SHORT_LINE, Board, Contradiction, line_name


def _finished_values(board: Board, n: int) -> tuple[list[int], list[int]]:
    """The values of the finished rows and of the finished columns. The closure keeps them up
    to date as lines finish (a finished line no longer changes): ``distinct`` compares
    against them, and a finished line is a copy when its value is there twice."""
    known, value, full = board.known, board.value, (1 << n) - 1
    if full not in known:  # the carve's tail: no line finished yet
        return [], []
    return ([value[i] for i in range(n) if known[i] == full],
            [value[i] for i in range(n, 2 * n) if known[i] == full])


class MemoClosure:
    """The memoised closure and the expert tier's trial (mixed into ``BinaryEngine``)."""

    def closure(self, board: Board, level: Level, target: Cell | None = None,
                start: Sequence[int] | None = None) -> bool:
        """Apply every technique up to ``level`` until nothing changes.

        Returns True when the board is full (or ``target`` got filled: the
        early exit that makes "may this given go?" cheap). The techniques are
        monotone, so the result does not depend on the order. ``start`` names
        the only lines that may have changed since the board was last closed
        (a trial touches one row and one column). Raises ``Contradiction``.
        """
        n = self.n
        # Plain ints from here: a closure is called hundreds of times a puzzle.
        tier = HARD if level > HARD else int(level)
        if start is None:
            dirty = self._every
        else:
            dirty = 0
            for line in start:
                dirty |= 1 << line
        while True:
            if self._propagate(board, tier, dirty, target) >= 0:
                return True
            if board.known.count(self.full) == 2 * n:  # every line full: the board is
                if self.unique_lines:
                    value = board.value
                    if len(set(value[:n])) < n or len(set(value[n:])) < n:  # a copy: say which
                        for line in range(2 * n):
                            self._check_distinct(board, line)
                return True
            if level <= HARD:
                return False
            hit = self._trial(board, first=target)
            if hit is None:
                return False
            (r, c), v = hit
            board.assign(r, c, v)
            if target is not None and (r, c) == target:
                return True
            dirty = 1 << r | 1 << (n + c)

    def _propagate(self, board: Board, tier: int, dirty: int, target: Cell | None) -> int:
        """Run ``deduce`` on the lines of ``dirty`` (a bit per line) until none is left.

        Returns -1 once the queue is empty, or, as soon as ``target`` is
        filled, what is left of the queue (a caller may go on to another
        target with it). The hot loop of every generator: answers come from
        the per-line memo and are written straight into the masks; the queue
        is a bit set, so a line's news queues every crossing line in one OR.
        Engines with distinct lines take ``_propagate_distinct``.

        Reference: ``_stack_closure`` (``reference.py``: ``deduce`` line by
        line from a stack); both reach the same fixpoint or both a
        contradiction, checked by ``test_closure_reaches_the_fixpoint_of_line_by_line_deduction``
        (tests/test_binary.py) and ``test_closure_is_a_fixpoint_reached_in_any_order``
        (tests/test_speed.py); below the hard tier, where each line's answer is its own
        fixpoint, ``test_closure_below_hard_is_the_fixpoint_of_deduce`` (tests/test_binary.py).
        """
        if not dirty:
            return -1
        if self.unique_lines:
            return self._propagate_distinct(board, tier, dirty, target)
        n, full = self.n, self.full
        known, value = board.known, board.value
        memos = board.memos.get(self._memo_keys[tier]) or self._line_memos(board, tier)
        cols_of, rows_of = self._crossings
        line_bit = self._line_bits  # bit j of a row is column j (line n + j); bit j of a column is row j
        # A line's answer is everything it brings on its own (at the hard tier what its
        # completions agree on, below it its rules' fixpoint, ``_line_fixpoint``): after it
        # is written the line has nothing more to say, so only its crossing lines are queued.
        if target is not None:
            t_line, t_bit = target[0], 1 << target[1]
        else:
            t_line, t_bit = 0, 0
        # Rows and columns in turn: a row's news queues only columns and a column's only
        # rows, so each pass walks a fixed set of lines (no bit picked off a changing
        # queue) and visits each of them once. The fixpoint does not depend on the order.
        # ``here``: this pass's lines, a bit each (line ``base + j`` is bit j: rows from 0,
        # columns from n); ``there``: the crossing lines its news queues for the next pass.
        here, there = dirty & full, dirty >> n
        here_of, there_of, base = rows_of, cols_of, 0
        while here or there:
            for line in here_of[here]:
                k = known[line]
                hit = memos[line].get(k << n | value[line])
                if hit == 0:  # the common case, kept short: a known answer with no news
                    continue
                if hit is None:
                    hit = self._line_news(board, line, tier, memos[line])  # a contradiction raises
                    if not hit:
                        continue
                ones, zeros = hit >> n, hit & full
                known[line] = k | ones | zeros
                value[line] |= ones
                bit = line_bit[line]
                for cross in there_of[ones]:
                    known[cross] |= bit
                    value[cross] |= bit
                for cross in there_of[zeros]:
                    known[cross] |= bit
                there |= ones | zeros
                if t_bit and known[t_line] & t_bit:  # what is left: this pass's lines after this one, the queued
                    j = line - base + 1
                    return (here >> j << j) << base | there << n - base
            here, there = there, 0
            here_of, there_of, base = there_of, here_of, n - base
        return -1

    def _line_memos(self, board: Board, tier: int) -> list[dict[int, int]]:
        """The board's memo of each line at ``tier``: one per (tier, signs of the line), shared
        by every board, so a line's answer is looked up by one small int (its cells).

        A line memo maps a line state (``known << n | value``) to ``ones << n | zeros``.
        Boards take their memos here once per puzzle attempt (and per sign change):
        the checkpoint where every memo's bound is enforced (``_trim_memos``).
        """
        self._trim_memos()
        eq, neq = board.eq, board.neq
        memos = board.memos[self._memo_keys[tier]] = [self._line_table(tier, eq[i], neq[i]) for i in range(2 * self.n)]
        return memos

    def _line_table(self, tier: int, eq: int, neq: int) -> dict[int, int]:
        """The memo of a line with these signs at ``tier`` (``_line_memos``' entry for it),
        emptied when it holds more than ``LINE_MEMO`` entries."""
        table = self._tables.get((tier, eq, neq))
        if table is None:
            table = self._tables[tier, eq, neq] = {}
        elif len(table) > LINE_MEMO:
            table.clear()
        return table

    def _line_news(self, board: Board, line: int, tier: int, memo: dict[int, int]) -> int:
        """``deduce`` on a line the memo does not know yet, as ``ones << n | zeros``, stored there.

        Raises ``Contradiction`` (and stores nothing) on a broken rule. Not
        for a line whose answer depends on finished parallel lines (distinct).
        Its shortcuts (``_local_answer``, ``line_masks``) each name their reference.
        """
        n, full = self.n, self.full
        k, v = board.known[line], board.value[line]
        key = k << n | v
        if k == full:  # a finished line, first seen: check it breaks no rule
            self._check_finished(board, line, tier)  # raises on a broken rule
            memo[key] = 0
            return 0
        hit = None
        if tier < HARD:
            if not self.unique_lines:
                # The line's own fixpoint (``_propagate`` puts no line back for its own news).
                hit = self._line_fixpoint(tier, k, v, board.eq[line], board.neq[line])
                if hit is None:
                    self.deduce(board, line, tier)  # raises in its own words where the first step breaks a rule
                    raise Contradiction(f"{line_name(n, line)} breaks a rule")
                memo[key] = hit
                return hit
            # Below hard, most lines take the local rules.
            if self.max_run == 2 and (not tier or n - k.bit_count() > SHORT_LINE):
                hit = self._local_answer(k, v, board.eq[line], board.neq[line])
        else:
            # ``deduce`` at the hard tier, no copies to rule out: what the completions agree on.
            both = self.line_masks(k, v, board.eq[line], board.neq[line])
            a, o = both >> n, both & full
            if not a & ~o:  # else no completion: ``deduce`` raises it below
                hit = (a & ~k) << n | (~o & full & ~k)
        if hit is None:
            ones, zeros = self.deduce(board, line, tier)  # a contradiction raises, uncached
            hit = ones << n | zeros
        memo[key] = hit
        return hit

    def _check_finished(self, board: Board, line: int, tier: int) -> None:
        """``deduce`` on a finished line (which fixes nothing): raises where it breaks a rule. A
        valid pattern that keeps its signs, checked by a set lookup and two masks; ``deduce``
        (the plain version: it lists the line's completions) only to raise in its own words,
        and, with distinct lines, the check that it copies no finished line."""
        v, full = board.value[line], self.full
        differ = v ^ v >> 1
        if v not in self._valid_lines() or board.eq[line] & differ or board.neq[line] & (full ^ differ):
            self.deduce(board, line, tier)  # raises
            raise Contradiction(f"{line_name(self.n, line)} breaks a rule")
        if self.unique_lines:
            self._check_distinct(board, line)

    def _propagate_distinct(self, board: Board, tier: int, dirty: int, target: Cell | None,
                            own_check: bool = False) -> int:
        """``_propagate`` with distinct lines: a finished line may rule out completions of the
        lines parallel to it (and must not copy one), so those get another look.

        Must reach the fixpoint of ``_stack_closure`` (``deduce`` line by line), or
        its contradiction: ``test_closure_reaches_the_fixpoint_of_line_by_line_deduction``
        checks it with and without distinct lines. Lines come off a stack, the
        target's own lines first: with distinct lines that order visits fewer
        lines than the bit set's. The answer for a line state is memoised under
        the finished parallel line it could still copy. ``own_check`` (tests only) takes the
        plain path for a line its own answer finished: back on the stack for a second look.
        """
        n, full = self.n, self.full
        known, value = board.known, board.value
        memos = board.memos.get(self._memo_keys[tier]) or self._line_memos(board, tier)
        cols_of, rows_of = self._crossings
        stack, flagged = self._first_stack(dirty, target)
        # Only the hard tier knows the distinct-lines rule. There a line's answer is
        # everything its completions agree on (lines finishing later queue it
        # again): once written, the line has nothing more to say. Below it, its
        # own news may let its rules say more: it goes back on the stack.
        distinct = tier == HARD
        again = tier != HARD
        finished = _finished_values(board, n)  # (rows, columns)
        newly_finished: list[int] = []
        t_line, t_bit = (target[0], 1 << target[1]) if target is not None else (0, 0)
        tag, shift = 1 << n, 2 * n
        parallel = self._parallel  # the rows, the columns
        pop, push = stack.pop, stack.append
        while stack:
            line = pop()
            flagged[line] = False
            k, v = known[line], value[line]
            memo = memos[line]
            done = finished[line >= n]  # the finished parallel lines it must not copy
            key = k << n | v
            if k == full:  # finished: it breaks no rule (checked once per state) and copies no other
                if key not in memo:
                    self._check_finished(board, line, tier)  # raises on a broken rule
                    memo[key] = 0
                elif done.count(v) > 1:  # its own value and another's
                    self.deduce(board, line, tier)  # raises: a copy
                continue
            # The finished parallel lines it could still turn into (distinct): they
            # agree with it on every known cell. None, one, or several.
            copy, several = None, False
            if distinct:
                for u in done:
                    if not (u ^ v) & k:
                        if copy is not None:
                            several = True
                            break
                        copy = u
            if copy is None:
                hit = memo.get(key)
                if hit is None:
                    hit = self._line_news(board, line, tier, memo)  # a contradiction raises
            elif not several:  # the common case: one finished line it could turn into
                # Its answer is memoised in the line's own table under the state and that
                # line's value, tagged with bit n (an all-0 copy counts), above the state's
                # 2n bits: never equal to a plain state's key.
                key |= (copy | tag) << shift
                hit = memo.get(key)
                if hit is None:
                    hit = memo[key] = self._answer_without(board, line, tier, copy)
            else:
                hit = self._answer_with_copies(board, line, tier, key, [u for u in done if not (u ^ v) & k])
            if not hit:
                continue
            # Write the news into the line and the lines crossing it. They are
            # stacked as assigning cell by cell would stack them: a row before the
            # columns of its cells, a column after the row of its first cell.
            ones, zeros = hit >> n, hit & full
            known[line] = k | ones | zeros
            value[line] = v | ones
            row = line < n
            crossing, bit = (cols_of, 1 << line) if row else (rows_of, 1 << (line - n))
            back = again and not flagged[line]
            if back and row:
                flagged[line] = True
                push(line)
                back = False
            for cross in crossing[ones]:
                value[cross] |= bit
            for cross in crossing[ones | zeros]:
                known[cross] |= bit
                if known[cross] == full:
                    finished[row].append(value[cross])  # a row crosses columns, a column rows
                    newly_finished.append(cross)
                if not flagged[cross]:
                    flagged[cross] = True
                    push(cross)
                if back:  # a column, after its first cell's row
                    flagged[line] = True
                    push(line)
                    back = False
            own = known[line] == full
            if own:
                done.append(value[line])
                newly_finished.append(line)
                # At the hard tier a line that its own answer finished is the one completion
                # that keeps its rules and copies no finished line: its pop would only check
                # that again (the plain version, ``own_check=True``, pushes it back; a line
                # finishing later as its copy is pushed and caught there). Flagged so the
                # loop below passes it over.
                own = distinct and not own_check
                if own:
                    flagged[line] = True
            if newly_finished:
                # Lines that just finished can rule out completions of their parallel
                # lines (distinct): those that still agree with one on their known cells
                # could copy it, so they get another look (the others would give the
                # same answer as before).
                for done_line in newly_finished:
                    done_v = value[done_line]
                    for other in parallel[done_line >= n]:
                        if not flagged[other] and not (value[other] ^ done_v) & known[other]:
                            flagged[other] = True
                            push(other)
                newly_finished.clear()
                if own:
                    flagged[line] = False
            if t_bit and known[t_line] & t_bit:
                return bits_of(stack)
        return -1

    def _first_stack(self, dirty: int, target: Cell | None) -> tuple[list[int], list[bool]]:
        """The stack ``_propagate_distinct`` starts from, the lowest line on top (popped
        first), and which lines are on it. Every line: built once per target, the
        target's column and row above the others."""
        lines = 2 * self.n
        if dirty != self._every:
            stack = []
            while dirty:  # scan_reversed, written out (once per closure): the highest line first
                line = dirty.bit_length() - 1
                stack.append(line)
                dirty ^= 1 << line
            flagged = [False] * lines
            for line in stack:
                flagged[line] = True
            return stack, flagged
        stack = self._full_queues.get(target)
        if stack is None:
            stack = list(range(lines - 1, -1, -1))
            if target is not None:
                for line in (self.n + target[1], target[0]):
                    stack.remove(line)
                    stack.append(line)
            self._full_queues[target] = stack
        return stack[:], [True] * lines

    def _deduced(self, board: Board, line: int, tier: int) -> int:
        """``deduce`` packed as ``ones << n | zeros`` (a contradiction raises, nothing stored)."""
        ones, zeros = self.deduce(board, line, tier)
        return ones << self.n | zeros

    def _answer_without(self, board: Board, line: int, tier: int, copy: int) -> int:
        """``_deduced`` for a line (at the hard tier, where distinct lines apply) that could turn
        into one finished parallel line, ``copy``: what its other completions agree on, from the
        pattern sets (``line_masks_without``) instead of listing them.

        Reference: ``_deduced`` (``deduce``, which lists the completions and drops the finished
        lines it could copy); the closure with distinct lines is checked against ``deduce`` line by
        line by ``test_closure_reaches_the_fixpoint_of_line_by_line_deduction`` (tests/test_binary.py).
        """
        n, full = self.n, self.full
        k = board.known[line]
        both = self.line_masks_without(k, board.value[line], board.eq[line], board.neq[line], copy)
        a, o = both >> n, both & full
        if a & ~o:  # no completion left: ``deduce`` raises it in its own words
            return self._deduced(board, line, tier)
        return (a & ~k) << n | (~o & full & ~k)

    def _answer_with_copies(self, board: Board, line: int, tier: int, key: int, copies: list[int]) -> int:
        """The answer for a line that could turn into any of several finished lines (rare):
        memoised apart, under its signs, its cells and the set of those lines."""
        memo_key = (tier, board.eq[line], board.neq[line], key, frozenset(copies))
        hit = self._copied.get(memo_key)
        if hit is None:
            hit = self._copied[memo_key] = self._deduced(board, line, tier)
        return hit

    def _trial(self, board: Board, first: Cell | None = None,
               cells: Sequence[Cell] | None = None, solution: Board | None = None) -> tuple[Cell, int] | None:
        """The first empty cell (row-major, or of ``cells``) one of whose symbols fails by the hard tier.

        ``first`` is tried before the others: when the closure only asks
        whether one cell can be reached, trying it first often answers at once.
        With the board's ``solution`` known, only each cell's wrong symbol is
        tried: the right one agrees with a full solution, so no sound
        technique can fail on it (the same answer, half the closures).
        """
        n = self.n
        if cells is None:
            order = [(r, c) for r in range(n) for c in scan_forward(self.full & ~board.known[r])]
        else:
            order = [(r, c) for r, c in cells if board.get(r, c) < 0]
        if first is not None and first in order:
            order.remove(first)
            order.insert(0, first)
        for r, c in order:
            for v in ((1 - solution.get(r, c),) if solution is not None else (0, 1)):
                trial = board.copy()
                trial.assign(r, c, v)
                try:
                    if self.unique_lines:
                        self.closure(trial, Level.HARD, start=(r, n + c))
                    else:  # ``closure`` at the hard tier, without its checks for copied lines
                        self._propagate(trial, HARD, 1 << r | 1 << (n + c), None)
                except Contradiction:
                    return (r, c), 1 - v
        return None
