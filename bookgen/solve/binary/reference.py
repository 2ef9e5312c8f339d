"""The plain deductions: the per-line techniques as the rules state them, ``deduce``, and
the stack closure explanations use. Every fast path of the engine names the function
here it must equal, and a test checks the two against each other.
"""

from __future__ import annotations

from array import array
from typing import Sequence

from bookgen.core.bits import scan_forward
from bookgen.core.difficulty import Level
from bookgen.solve.binary.rules import HARD, SHORT_LINE, Board, Contradiction, line_cell, line_name, line_patterns


class ReferenceDeduction:
    """The plain deductions every fast path must equal (mixed into ``BinaryEngine``)."""

    def completions(self, board: Board, line: int) -> tuple[tuple[int, ...], int, int]:
        """Valid completions of a line, and their AND and OR masks (memoised)."""
        return self.line_options(board.known[line], board.value[line],
                                 board.eq[line], board.neq[line])

    def line_options(self, known: int, value: int, eq: int = 0,
                     neq: int = 0) -> tuple[Sequence[int], int, int]:
        """Completions of a line given as masks, with their AND and OR (memoised).

        The memo maps one int key to the completions packed in ``bytes`` and
        one int to the packed AND/OR: objects the garbage collector never
        tracks, so a large memo costs no collection pause.
        """
        n = self.n
        key = known | value << n | eq << 2 * n | neq << 3 * n
        packed = self._cands.get(key)
        if packed is None:
            if eq | neq:
                # Signs differ from puzzle to puzzle, cells' states recur:
                # filter the unsigned completions (memoised, shared) by the signs.
                cands = array(self._code, [p for p in self.line_options(known, value)[0]
                                    if not ((p ^ p >> 1) & eq) and not (~(p ^ p >> 1) & neq)])
            elif known:
                # Filter the (memoised) completions of the state with one cell
                # fewer: a short list instead of every pattern.
                high = 1 << (known.bit_length() - 1)
                parent = self.line_options(known ^ high, value & ~high)[0]
                if value & high:
                    cands = array(self._code, [p for p in parent if p & high])
                else:
                    cands = array(self._code, [p for p in parent if not p & high])
            else:
                cands = array(self._code, line_patterns(n, self.max_run))
            a, o = self.full, 0
            for p in cands:
                a &= p
                o |= p
            self._cands[key] = cands.tobytes()
            self._masks[key] = a << n | o
            return cands, a, o
        both = self._masks[key]
        return memoryview(packed).cast(self._code), both >> n, both & self.full

    def _enumerate(self, board: Board, line: int, exclude: frozenset[int] = frozenset()):
        if not exclude:
            n = self.n
            known = board.known[line]
            both = self.line_masks(known, board.value[line], board.eq[line], board.neq[line])
            a, o = both >> n, both & self.full
            if a & ~o:
                raise Contradiction(f"{line_name(self.n, line)} has no valid completion")
            unknown = self.full & ~known
            return a & unknown, ~o & unknown
        cands, a, o = self.completions(board, line)
        if exclude:
            cands = [p for p in cands if p not in exclude]
            a, o = self.full, 0
            for p in cands:
                a &= p
                o |= p
        if not cands:
            raise Contradiction(f"{line_name(self.n, line)} has no valid completion")
        unknown = self.full & ~board.known[line]
        return a & unknown, ~o & unknown

    def _runs(self, board: Board, line: int) -> tuple[int, int, int, int]:
        """Cells forced by pairs and by sandwiches: (pair1, pair0, sand1, sand0)."""
        known, value = board.known[line], board.value[line]
        ones, zeros = value, known & ~value
        unknown = self.full & ~known
        k = self.max_run
        if k == 2:  # the usual rule, as shifts: a bit per window start
            if ones & ones >> 1 & ones >> 2 or zeros & zeros >> 1 & zeros >> 2:
                raise Contradiction(f"{line_name(self.n, line)} has a run too long")
            o2, z2 = ones & ones >> 1, zeros & zeros >> 1
            return ((z2 << 2 | z2 >> 1) & unknown, (o2 << 2 | o2 >> 1) & unknown,
                    (zeros & zeros >> 2) << 1 & unknown, (ones & ones >> 2) << 1 & unknown)
        p1 = p0 = s1 = s0 = 0
        for w in self.windows:
            hole = unknown & w
            if not hole or hole & (hole - 1):
                if not hole and ((ones & w) == w or (zeros & w) == w):
                    raise Contradiction(f"{line_name(self.n, line)} has a run too long")
                continue
            end = hole == (w & -w) or hole == 1 << (w.bit_length() - 1)
            if (ones & w).bit_count() == k:
                if end:
                    p0 |= hole
                else:
                    s0 |= hole
            elif (zeros & w).bit_count() == k:
                if end:
                    p1 |= hole
                else:
                    s1 |= hole
        return p1, p0, s1, s0

    def _balance(self, board: Board, line: int) -> tuple[int, int]:
        known, value = board.known[line], board.value[line]
        unknown = self.full & ~known
        ones = value.bit_count()
        zeros = known.bit_count() - ones
        if ones > self.half or zeros > self.half:
            raise Contradiction(f"{line_name(self.n, line)} has too many of one symbol")
        if not unknown:
            return 0, 0
        if ones == self.half:
            return 0, unknown
        if zeros == self.half:
            return unknown, 0
        return 0, 0

    def _signs(self, board: Board, line: int) -> tuple[int, int]:
        """Cells a sign fixes from its known end: (ones, zeros). Bit j of a sign mask joins cells j, j+1."""
        known, value = board.known[line], board.value[line]
        eq, neq = board.eq[line], board.neq[line]
        if not (eq | neq):
            return 0, 0
        differ = value ^ value >> 1
        both = known & known >> 1
        if eq & both & differ or neq & both & ~differ:
            raise Contradiction(f"a sign in {line_name(self.n, line)} is broken")
        low = known & ~(known >> 1)  # cell j known, j + 1 not: j + 1 follows j
        high = ~known & known >> 1  # cell j + 1 known, j not: j follows j + 1
        above = value >> 1
        f1 = ((eq & low & value) | (neq & low & ~value)) << 1
        f0 = ((eq & low & ~value) | (neq & low & value)) << 1
        f1 |= (eq & high & above) | (neq & high & ~above)
        f0 |= (eq & high & ~above) | (neq & high & above)
        return f1, f0

    def _local(self, board: Board, line: int) -> tuple[int, int]:
        p1, p0, s1, s0 = self._runs(board, line)
        b1, b0 = self._balance(board, line)
        g1, g0 = self._signs(board, line)
        return p1 | s1 | b1 | g1, p0 | s0 | b0 | g0

    def _complete_lines(self, board: Board, line: int) -> frozenset[int]:
        """Finished lines parallel to ``line`` that it could still turn into a copy of."""
        lo = 0 if line < self.n else self.n
        known, value, full = board.known, board.value, self.full
        mine_k, mine_v = known[line], value[line]
        return frozenset(value[i] for i in range(lo, lo + self.n)
                         if known[i] == full and i != line and not (value[i] ^ mine_v) & mine_k)

    def _check_distinct(self, board: Board, line: int) -> None:
        if self.unique_lines and board.known[line] == self.full:
            if self._complete_lines(board, line):  # a full line "compatible" with it is equal
                raise Contradiction(f"{line_name(self.n, line)} copies another line")

    def deduce(self, board: Board, line: int, level: Level) -> tuple[int, int]:
        """Everything the techniques up to ``level`` fix on one line (ones, zeros).

        What a line forces depends only on its own masks (and, for ``distinct``,
        on the finished parallel lines): ``closure`` memoises the answers.
        """
        if board.known[line] == self.full:
            if not self.completions(board, line)[0]:
                raise Contradiction(f"{line_name(self.n, line)} breaks a rule")
            self._check_distinct(board, line)
            return 0, 0
        empty = self.n - board.known[line].bit_count()
        if level >= Level.HARD:
            exclude = self._complete_lines(board, line) if self.unique_lines else frozenset()
            return self._enumerate(board, line, exclude)
        if level >= Level.MEDIUM and empty <= SHORT_LINE:
            return self._enumerate(board, line)
        f1, f0 = self._local(board, line)
        if f1 & f0:
            raise Contradiction(f"{line_name(self.n, line)} needs both symbols in one cell")
        return f1, f0

    def _stack_closure(self, board: Board, start: Sequence[int]) -> None:
        """``closure(board, HARD, start=start)`` through ``deduce``, lines taken from a stack.

        Where a contradiction surfaces (and so the rule ``_clash`` names)
        depends on the order lines are visited in. Explanations keep this one
        fixed order (a stack, lines queued as assigning cell by cell queues
        them), so a walkthrough reads the same whatever the fast closure does.
        It is also the reference the memoised closure (``_propagate``) must
        reach the same fixpoint as.
        """
        n, full, unique = self.n, self.full, self.unique_lines
        dirty = list(start)
        flagged = [False] * (2 * n)
        for line in dirty:
            flagged[line] = True
        while dirty:
            line = dirty.pop()
            flagged[line] = False
            ones, zeros = self.deduce(board, line, Level.HARD)  # raises on a broken rule
            if not ones | zeros:
                continue
            done = []  # lines this step finished, in the order they filled up
            for v, mask in ((1, ones), (0, zeros)):
                for j in scan_forward(mask):
                    r, c = line_cell(n, line, j)
                    board.assign(r, c, v)
                    cross = n + c if line < n else r
                    if unique and board.known[cross] == full:
                        done.append(cross)
                    if not flagged[cross]:
                        flagged[cross] = True
                        dirty.append(cross)
            if unique:
                if board.known[line] == full:
                    done.append(line)
                for line_done in done:  # distinct: parallel lines it could be a copy of look again
                    lo = 0 if line_done < n else n
                    for other in range(lo, lo + n):
                        if not flagged[other] and \
                                not (board.value[other] ^ board.value[line_done]) & board.known[other]:
                            flagged[other] = True
                            dirty.append(other)
        if unique and board.known.count(full) == 2 * n:
            for line in range(2 * n):
                self._check_distinct(board, line)

    def _check_lines(self, board: Board) -> None:
        """Raise ``Contradiction`` where ``deduce(board, line, EASY)`` would, for every line.

        A line state the closure's memo holds (at any tier) passed ``deduce``
        before (a contradiction is never stored): no technique found a rule
        broken on it, so the easy tier raises nothing either. Whether a
        finished line copies another depends on the other lines: always checked.
        """
        n, full, tables = self.n, self.full, self._tables
        known, value, eq, neq = board.known, board.value, board.eq, board.neq
        for line in range(2 * n):
            key = known[line] << n | value[line]
            for tier in (0, 1, HARD):
                memo = tables.get((tier, eq[line], neq[line]))
                if memo is not None and key in memo:
                    if self.unique_lines and known[line] == full:
                        self._check_distinct(board, line)
                    break
            else:
                self.deduce(board, line, Level.EASY)
