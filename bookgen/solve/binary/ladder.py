"""The ladder: solve like a person, always the easiest technique that makes progress.

Grades puzzles (``explain=False``: the techniques only) and writes
walkthroughs (``explain=True``: each step's cells and reason).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from bookgen.core.bits import scan_forward
from bookgen.core.variant import Step
from bookgen.solve.binary.rules import (
    HARD, LINE_TECHNIQUES, SHORT_LINE, SIGN_FREE, STATE_MEMO, TECHNIQUE_LEVEL, WHOLE_LINE, Board, Contradiction,
    line_cell,
)


# The single-line techniques whose answers are memoised per line state
# (``distinct`` also looks at other lines, ``trial`` at the whole board).
MEMOISED = LINE_TECHNIQUES - {"distinct"}


@dataclass(slots=True)
class LineFind:
    """What one technique found on one line."""

    technique: str
    line: int
    ones: int
    zeros: int
    why: str


class _Scan:
    """What the ladder knows between steps: the techniques easiest first, each one's memo
    (None where not memoised), and per technique the lines it was seen to fix nothing on
    since they last changed (a bit each). A step changes a few lines only, so the
    scans after it skip the rest."""

    __slots__ = ("order", "memos", "clean", "memoised")

    def __init__(self, order: tuple[str, ...], memos: list) -> None:
        self.order, self.memos = order, memos
        self.clean = [0] * len(order)
        # ``_scan_news``' entries: (index, technique, memo, keyed by signs too, a whole-line answer)
        self.memoised = [_entry(i, t, memo) for i, (t, memo) in enumerate(zip(order, memos)) if memo is not None]

    def changed(self, lines: int) -> None:
        """These lines changed: every technique must look at them again."""
        self.clean[:] = [m & ~lines for m in self.clean]


class Ladder:
    """The ladder of techniques, grading and walkthroughs (mixed into ``BinaryEngine``)."""

    def ladder(self, board: Board, techniques: Sequence[str],
               explain: bool = True, solution: Board | None = None) -> tuple[list[Step], bool]:
        """Solve like a person: always the easiest technique that makes progress.

        Returns the steps and whether the board got filled. ``board`` is
        filled in place. The steps' cells and reasons are only written when
        ``explain`` (grading needs just the techniques). Raises
        ``Contradiction`` for a broken position. ``solution``, a full grid
        the givens and signs agree with (the generator's), only spares trials
        of right symbols, which never fail, and the check of the givens' lines,
        which cannot break a rule: the steps are the same.
        """
        order = _ladder_order(tuple(techniques))
        self._trim_memos()
        if solution is None:
            self._check_lines(board)  # surface contradictions in the givens
        scan = _Scan(order, [self._found_memo(t) if t in MEMOISED else None for t in order])
        if not explain:
            return self._graded(board, scan, solution)
        steps: list[Step] = []
        empty = board.empty_count()
        while empty:
            found = self._easiest(board, scan, explain, solution)
            if found is None:
                return steps, False
            cells, changed = self._fill(board, found, True)
            empty -= (found.ones | found.zeros).bit_count()
            scan.changed(changed)
            steps.append(Step(found.technique, cells, found.why))
        self._check_lines(board)  # full lines: checks every rule
        return steps, True

    def _graded(self, board: Board, scan: "_Scan", solution: Board | None) -> tuple[list[Step], bool]:
        """``ladder`` without explanations, as the grader runs it for every carved puzzle: the
        same steps, with the single-line techniques' scan and the writing of their news done
        here, not per step through ``_easiest`` and ``_fill``. Steps carry only their technique
        (one shared ``Step`` each), but a trial's names its cell.

        Reference: ``ladder`` with ``explain=True`` (``_easiest`` and ``_fill`` step by step);
        the same techniques in the same order and the same grid, checked by
        ``test_graded_ladder_takes_the_explained_ladders_steps`` (tests/test_binary.py).
        """
        n, full = self.n, self.full
        known, value = board.known, board.value
        cols_of, rows_of = self._crossings
        clean = scan.clean
        scan_news, memoised = self._scan_news, scan.memoised
        bare = {t: Step(t, (), "") for t in scan.order}  # grading reads only the techniques: one shared step each
        steps: list[Step] = []
        empty = board.empty_count()
        while empty:
            news = scan_news(board, memoised, clean)
            if news is None:  # no single-line technique finds anything: the others, as ``ladder`` asks them
                found = self._easiest(board, scan, False, solution)
                if found is None:
                    return steps, False
                listed = found.technique == "trial"  # a trial step always names its cell
                cells, changed = self._fill(board, found, listed)
                empty -= (found.ones | found.zeros).bit_count()
                scan.changed(changed)
                steps.append(Step(found.technique, cells, found.why) if listed else bare[found.technique])
                continue
            # ``_fill`` unlisted: the news straight into the masks, the changed lines a bit each.
            technique, line, hit = news
            ones, zeros = hit >> n, hit & full
            known[line] |= ones | zeros
            value[line] |= ones
            if line < n:
                crossing, bit = cols_of, 1 << line
                changed = ~((ones | zeros) << n | 1 << line)
            else:
                crossing, bit = rows_of, 1 << (line - n)
                changed = ~(ones | zeros | 1 << line)
            for cross in crossing[ones]:
                known[cross] |= bit
                value[cross] |= bit
            for cross in crossing[zeros]:
                known[cross] |= bit
            clean[:] = [m & changed for m in clean]  # ``_Scan.changed``
            empty -= (ones | zeros).bit_count()
            steps.append(bare[technique])
        if not self._full_board_holds(board):  # ``_check_lines`` on the full board
            raise Contradiction("the filled grid breaks a rule")
        return steps, True

    def _full_board_holds(self, board: Board) -> bool:
        """Whether a full board keeps every rule: each line one of the valid patterns that
        keeps its signs, no line copying a parallel one where lines must differ. What
        ``_check_lines`` (the plain version) asks of a full board, line by line through the
        memos and ``deduce``, in a few set operations (``test_full_board_check_is_check_lines``)."""
        n, value = self.n, board.value
        if not self._valid_lines().issuperset(value):
            return False
        if self.unique_lines and (len(set(value[:n])) < n or len(set(value[n:])) < n):
            return False
        for v, eq, neq in zip(value, board.eq, board.neq):
            if eq | neq:
                differ = v ^ v >> 1  # bit j: cells j and j + 1 differ
                if differ & eq or ~differ & neq:
                    return False
        return True

    def _easiest(self, board: Board, scan: "_Scan", explain: bool, solution: Board | None) -> LineFind | None:
        """The first finding of the easiest technique that finds anything (None: stuck)."""
        n = self.n
        entries = {entry[0]: entry for entry in scan.memoised}
        for i, technique in enumerate(scan.order):
            if i in entries:
                news = self._scan_news(board, (entries[i],), scan.clean)
                if news is None:
                    continue
                _, line, hit = news
                ones, zeros = hit >> n, hit & self.full
                why = self._why(board, technique, line, ones, zeros) if explain else ""
                return LineFind(technique, line, ones, zeros, why)
            if technique == "trial":
                hit = self._trial(board, solution=solution)
                if hit is None:
                    continue
                (r, c), v = hit
                why = self._trial_why(board, (r, c), v) if explain else ""
                return LineFind("trial", r, v << c, (1 - v) << c, why)  # the cell, as a finding on its row
            found = self._find(board, technique, explain, 0)
            if found is not None:
                return found
        return None

    def _fill(self, board: Board, found: LineFind, listed: bool) -> tuple[tuple, int]:
        """Write a finding's cells into ``board``: (the step's cells when ``listed``, else (); the
        lines that changed, a bit each). Unlisted, they go straight into the masks, as the
        closure writes them."""
        n, line, ones, zeros = self.n, found.line, found.ones, found.zeros
        changed = 1 << line
        if listed:
            cells = sorted([(line_cell(n, line, j), "1") for j in scan_forward(ones)]
                           + [(line_cell(n, line, j), "0") for j in scan_forward(zeros)])
            for (r, c), v in cells:
                board.assign(r, c, int(v))
                changed |= 1 << r | 1 << (n + c)
            return tuple(cells), changed
        known, value = board.known, board.value
        known[line] |= ones | zeros
        value[line] |= ones
        cols_of, rows_of = self._crossings
        if line < n:
            crossing, bit = cols_of, 1 << line
            changed |= (ones | zeros) << n
        else:
            crossing, bit = rows_of, 1 << (line - n)
            changed |= ones | zeros
        for cross in crossing[ones]:
            known[cross] |= bit
            value[cross] |= bit
        for cross in crossing[zeros]:
            known[cross] |= bit
        return (), changed

    def _found_memo(self, technique: str) -> dict[int, int]:
        """The ladder's memo of one single-line technique: line state -> ``ones << n | zeros``."""
        memo = self._found.get(technique)
        if memo is None:
            memo = self._found[technique] = self._bounds.new(STATE_MEMO)
        return memo

    def _find(self, board: Board, technique: str, explain: bool = True, clean: int = 0) -> LineFind | None:
        """The first line on which ``technique`` fixes cells; ``why`` only when ``explain``.

        Lines whose bit is set in ``clean`` are known to give nothing (the
        ladder saw them unchanged since): skipping them finds the same line.
        """
        if technique not in LINE_TECHNIQUES:
            return None
        n, full = self.n, self.full
        todo = ~clean & ((1 << 2 * n) - 1)  # the lines not known to give nothing, lowest first
        if technique != "distinct":
            news = self._scan_news(board, (_entry(0, technique, self._found_memo(technique)),), [clean])
            if news is None:
                return None
            _, line, hit = news
            ones, zeros = hit >> n, hit & full
            why = self._why(board, technique, line, ones, zeros) if explain else ""
            return LineFind(technique, line, ones, zeros, why)
        for line in scan_forward(todo):
            if board.known[line] == full:
                continue
            done = self._complete_lines(board, line)
            if not done:
                continue
            ones, zeros = self._enumerate(board, line, done)
            if ones | zeros:
                why = self._why(board, technique, line, ones, zeros) if explain else ""
                return LineFind(technique, line, ones, zeros, why)
        return None

    def _scan_news(self, board: Board, memoised, clean: list[int]) -> tuple[str, int, int] | None:
        """(technique, line, ``ones << n | zeros``) of the first technique of ``memoised``
        (``_Scan.memoised``' entries, easiest first) that fixes cells on a line, and of its
        first such line, or None. A technique's lines with their bit set in ``clean`` (at
        its index) are known to give nothing; the scan sets the bits of those it saw give
        nothing. Its answers are memoised per line state.

        Pairs, sandwiches and balance never look at signs: their memo is keyed
        by the cells alone, so a line state learnt under one puzzle's signs
        serves every other. Whole-line answers the closure's hard-tier memo
        already holds for the line (its cells and signs) are taken from there.
        """
        n, full, every = self.n, self.full, self._every
        known, value, eq, neq = board.known, board.value, board.eq, board.neq
        n2, n3 = 2 * n, 3 * n
        for i, technique, memo, signed, whole in memoised:
            todo = ~clean[i] & every
            while todo:  # scan_forward, written out: the ladder's scans of every step run through here
                low = todo & -todo
                todo ^= low
                line = low.bit_length() - 1
                k = known[line]
                if k == full:
                    continue
                key = k | value[line] << n
                if signed:
                    key |= eq[line] << n2 | neq[line] << n3
                hit = memo.get(key)
                if hit is None:
                    hit = self._news_missed(board, line, technique, memo, key, whole)
                if hit:
                    clean[i] |= low - 1  # the lines before it gave nothing
                    return technique, line, hit
            clean[i] = every
        return None

    def _news_missed(self, board: Board, line: int, technique: str, memo: dict, key: int, whole: bool) -> int:
        """``_scan_news``' answer for a line state its memo does not hold yet, stored there."""
        hit = None
        if whole:
            # What the completions agree on: the closure's hard-tier answer
            # (never a contradiction), when its memo has met this line.
            n, k = self.n, board.known[line]
            table = self._tables.get((HARD, board.eq[line], board.neq[line]))
            hit = table.get(k << n | board.value[line]) if table is not None else None
            if hit is not None and (technique == "line") != (n - k.bit_count() <= SHORT_LINE):
                hit = 0
        if hit is None:
            hit = self._line_finds(board, line, technique, key)  # a contradiction raises, uncached
        memo[key] = hit
        return hit

    def _line_finds(self, board: Board, line: int, technique: str, key: int) -> int:
        """``ones << n | zeros`` one single-line technique fixes on ``line`` (memo ``key``).

        Pairs and sandwiches come from one look at the runs: the other's
        answer goes into its memo too (both are keyed by the cells alone).
        """
        n = self.n
        if technique in ("pair", "sandwich"):
            p1, p0, s1, s0 = self._runs(board, line)
            pair, sandwich = p1 << n | p0, s1 << n | s0
            self._found_memo("sandwich" if technique == "pair" else "pair")[key] = \
                sandwich if technique == "pair" else pair
            return pair if technique == "pair" else sandwich
        if technique == "balance":
            ones, zeros = self._balance(board, line)
        elif technique == "sign":
            ones, zeros = self._signs(board, line)
        elif (technique == "line") != (n - board.known[line].bit_count() <= SHORT_LINE):
            return 0
        else:
            ones, zeros = self._enumerate(board, line)
        return ones << n | zeros


def _entry(i: int, technique: str, memo: dict) -> tuple[int, str, dict, bool, bool]:
    """A memoised technique as ``_scan_news`` reads it: its index in the ladder's order, its
    name, its memo, whether its memo is keyed by signs too, whether it answers for the whole line."""
    return i, technique, memo, technique not in SIGN_FREE, technique in WHOLE_LINE


@lru_cache(maxsize=None)
def _ladder_order(techniques: tuple[str, ...]) -> tuple[str, ...]:
    """Techniques easiest first, ties in ``TECHNIQUE_LEVEL``'s order."""
    return tuple(sorted(techniques, key=lambda t: (TECHNIQUE_LEVEL[t], list(TECHNIQUE_LEVEL).index(t))))
