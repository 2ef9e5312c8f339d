"""One line's answer from bit sets and memos, for the closure's memo misses.

Each function here is a fast version of a plain one in ``reference.py`` and
names it, with the test that checks the two against each other.
"""

from __future__ import annotations

from bookgen.solve.binary.rules import HARD, SHORT_LINE, Board, Contradiction, line_patterns


class LineShortcuts:
    """One line's answers from bit sets and packed memos (mixed into ``BinaryEngine``)."""

    def _pattern_sets(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
        """The line patterns as bit sets over their indices, built once per engine.

        Per cell j, (patterns with a 0 there, patterns with a 1 there); per
        sign position j, (patterns whose cells j and j+1 differ, those where
        they are the same); and the set of all patterns.
        """
        sets = self.__dict__.get("_sets")
        if sets is None:
            pats = line_patterns(self.n, self.max_run)
            cell = [(sum(1 << i for i, p in enumerate(pats) if not (p >> j) & 1),
                     sum(1 << i for i, p in enumerate(pats) if (p >> j) & 1)) for j in range(self.n)]
            sign = [(sum(1 << i for i, p in enumerate(pats) if ((p ^ p >> 1) >> j) & 1),
                     sum(1 << i for i, p in enumerate(pats) if not ((p ^ p >> 1) >> j) & 1))
                    for j in range(self.n - 1)]
            sets = self._sets = (cell, sign, (1 << len(pats)) - 1)
        return sets

    def line_masks(self, known: int, value: int, eq: int = 0, neq: int = 0) -> int:
        """``AND << n | OR`` of a line's completions (``line_options``' masks), without listing them.

        No completion gives AND = all ones and OR = 0 (never so otherwise).
        The patterns are bit sets over their indices, so the completions of a
        line state are a few ANDs of precomputed sets, one per known cell and
        sign, and what they agree on is remembered per set.

        Reference: the AND and OR of ``line_options``' list (``reference.py``);
        checked by ``test_fast_line_answers_agree_with_the_listing_ones``
        (tests/test_binary.py).
        """
        if eq | neq:
            # A line's cells with its signs (Tango's) rarely meet again in another puzzle: not
            # remembered whole, only in parts (the cells' set, the signs' set, what a set agrees on).
            fit = self._fit_set(known, value, eq, neq)
            both = self._agree.get(fit)
            return both if both is not None else self._agree_of(fit, known, value)
        key = known | value << self.n
        both = self._masks.get(key)
        if both is not None:
            return both
        fit = self._fit_set(known, value, 0, 0)
        both = self._agree.get(fit)  # what a set agrees on depends on the set alone
        if both is None:
            both = self._agree_of(fit, known, value)
        self._masks[key] = both
        return both

    def _fit_set(self, known: int, value: int, eq: int, neq: int) -> int:
        """The patterns (a bit per pattern index) that fit a line's known cells and keep its signs:
        the patterns that fit its low half, and its high half, each read from a table (``_halves``).

        Reference: the AND of ``_pattern_sets``' set for each known cell and each sign; ``line_masks``
        and ``line_masks_without`` are checked against listing the completions
        (``test_fast_line_answers_agree_with_the_listing_ones``,
        ``test_line_masks_without_a_copy_is_the_listing_without_it``).
        """
        h, mask, low, high, signs = self._cells_halves or self._halves()
        fit = low[known & mask | (value & mask) << h] & high[known >> h | (value >> h) << (self.n - h)]
        if eq | neq:
            s, smask, slow, shigh = signs or self._sign_halves()
            fit &= slow[eq & smask | (neq & smask) << s] & shigh[eq >> s | (neq >> s) << (self.n - 1 - s)]
        return fit

    def _halves(self) -> tuple:
        """``_fit_set``'s tables for the cells, built once per engine: per half of a line (its low
        ``h`` cells, its high ``n - h``), indexed by that half's ``known | value << width``, the
        patterns that fit it (every state whose value lies within its known cells)."""
        cell, _, alive = self._pattern_sets()
        n, h = self.n, self.n // 2
        tables = []
        for first, width in ((0, h), (h, n - h)):
            table = [alive] * (1 << 2 * width)
            for known in range(1 << width):
                value = known
                while True:  # every value within the known cells
                    fit = alive
                    for j in range(width):
                        if known >> j & 1:
                            fit &= cell[first + j][value >> j & 1]
                    table[known | value << width] = fit
                    if not value:
                        break
                    value = (value - 1) & known
            tables.append(table)
        self._cells_halves = (h, (1 << h) - 1, tables[0], tables[1], None)
        return self._cells_halves

    def _sign_halves(self) -> tuple:
        """``_fit_set``'s tables for the signs (built at the first signed line): per half of the
        sign positions, indexed by ``eq | neq << width``, the patterns that keep them."""
        _, sign, alive = self._pattern_sets()
        n = self.n
        s = (n - 1) // 2
        tables = []
        for first, width in ((0, s), (s, n - 1 - s)):
            table = []
            for index in range(1 << 2 * width):
                keep = alive
                for j in range(width):
                    if index >> j & 1:  # = between cells first + j and first + j + 1
                        keep &= sign[first + j][1]
                    if index >> (width + j) & 1:  # x
                        keep &= sign[first + j][0]
                table.append(keep)
            tables.append(table)
        signs = (s, (1 << s) - 1, tables[0], tables[1])
        self._cells_halves = self._cells_halves[:4] + (signs,)
        return signs

    def _agree_of(self, fit: int, known: int, value: int) -> int:
        """``AND << n | OR`` of the patterns of ``fit``, all of which agree with the known cells
        (``full << n`` for none), stored in ``_agree``: it depends on the set alone, and the same
        sets turn up under many keys (other cells, other signs). Callers look there first."""
        if fit:
            # The known cells agree by construction; one test per empty cell.
            cell = self._pattern_sets()[0]
            a = o = value & known
            m = self.full & ~known
            while m:  # scan_forward, written out: a memo miss of every line state runs through here
                low = m & -m
                m ^= low
                zeros, ones = cell[low.bit_length() - 1]
                if not fit & zeros:
                    a |= low
                if fit & ones:
                    o |= low
        else:
            a, o = self.full, 0
        both = self._agree[fit] = a << self.n | o
        return both

    def line_masks_without(self, known: int, value: int, eq: int, neq: int, copy: int) -> int:
        """``line_masks`` with one more line ruled out: ``copy``, the one finished parallel line
        this line could still turn into (distinct lines, the hard tier), its pattern's bit taken
        out of the set that fits. A ``copy`` that is no valid line rules nothing out.

        Reference: the AND and OR of ``line_options``' list without ``copy`` (what ``deduce``
        enumerates at the hard tier with that one finished line to avoid); checked by
        ``test_line_masks_without_a_copy_is_the_listing_without_it`` (tests/test_binary.py).
        """
        index = self.__dict__.get("_pattern_bit")
        if index is None:
            index = self._pattern_bit = {p: 1 << i for i, p in enumerate(line_patterns(self.n, self.max_run))}
        fit = self._fit_set(known, value, eq, neq) & ~index.get(copy, 0)
        both = self._agree.get(fit)
        return both if both is not None else self._agree_of(fit, known, value)

    def _local_answer(self, k: int, v: int, eq: int, neq: int) -> int | None:
        """``_local`` on a line given as masks (runs of two), as ``ones << n | zeros``.

        None where a rule is broken: the caller then asks ``deduce``, which
        raises the contradiction with its own words. One function of bit
        operations for the closure's memo misses, which at the easy tier are
        mostly lines whose signs no earlier puzzle had.

        Reference: ``_local`` (``reference.py``: ``_runs``, ``_balance`` and
        ``_signs``, None where one raises or they clash); checked by
        ``test_fast_line_answers_agree_with_the_listing_ones`` (tests/test_binary.py).
        """
        return self._easy_fixpoint(k, v, eq, neq, 0, True)

    def _line_answer(self, itier: int, k: int, v: int, eq: int, neq: int) -> int | None:
        """``deduce`` at a tier on a line that is not full, given as masks: ``ones << n | zeros``.

        None where a rule is broken (``deduce`` would raise). Without the
        distinct-lines rule, which looks at other lines.

        Reference: ``deduce`` (``reference.py``) on a board holding only this
        line; checked by ``test_line_answer_is_deduce_on_one_line`` (tests/test_binary.py).
        """
        n, full = self.n, self.full
        unknown = full & ~k
        if itier >= HARD or (itier == 1 and unknown.bit_count() <= SHORT_LINE):
            both = self.line_masks(k, v, eq, neq)
            a, o = both >> n, both & full
            return None if a & ~o else (a & unknown) << n | (~o & unknown)
        if self.max_run == 2:
            return self._local_answer(k, v, eq, neq)
        board = Board(n)
        board.known[0], board.value[0], board.eq[0], board.neq[0] = k, v, eq, neq
        try:
            ones, zeros = self._local(board, 0)
        except Contradiction:
            return None
        return None if ones & zeros else ones << n | zeros

    def _line_fixpoint(self, itier: int, k: int, v: int, eq: int, neq: int) -> int | None:
        """Everything one line brings on its own below the hard tier: ``_line_answer`` applied to
        its own news until it fixes nothing more, as ``ones << n | zeros``; None where a rule breaks
        on the way (a line it fills up must be a valid line that keeps its signs).

        Below hard, a line's answer can let its own rules say more (a pair's new cell starts a
        sandwich, balance fills the rest): without distinct lines the closure stores this answer,
        so a line never goes back on the queue for its own news, only for its crossing lines'
        (the same fixpoint, fewer visits). At the hard tier ``_line_answer`` is already this.

        Reference: ``deduce`` (``reference.py``) on a board holding only this line, repeated until
        it fixes nothing; checked by ``test_line_fixpoint_is_deduce_repeated`` (tests/test_binary.py).
        """
        if itier < HARD and self.max_run == 2:
            return self._easy_fixpoint(k, v, eq, neq, SHORT_LINE if itier else 0)
        n, full = self.n, self.full
        ones = zeros = 0
        while True:
            hit = self._line_answer(itier, k, v, eq, neq)
            if hit is None:
                return None
            if not hit:
                return ones << n | zeros
            o = hit >> n
            ones |= o
            zeros |= hit & full
            v |= o
            k |= o | hit & full
            if k == full:
                differ = v ^ v >> 1
                if v not in self._valid_lines() or eq & differ or neq & ~differ:
                    return None
                return ones << n | zeros


    def _easy_fixpoint(self, k: int, v: int, eq: int, neq: int, short: int = 0, once: bool = False) -> int | None:
        """``_line_fixpoint`` below the hard tier with runs of two: ``_line_answer`` applied to its
        own news until it fixes nothing, in one loop (the local rules written out, no call a step).
        ``short`` is the medium tier's ``SHORT_LINE`` (0 at easy): a line with at most that many
        empty cells takes what its completions agree on (``line_masks``), after which its rules
        say nothing more. ``once`` stops after the first step of the local rules (``_local_answer``).
        The closure's memo misses below the hard tier run through here: on a
        fresh sign layout (Tango) most of its lines' states are new, so a fresh process spends
        a good part of each early puzzle here.

        Reference: ``deduce`` repeated on a one-line board, as for ``_line_fixpoint``; checked
        by ``test_line_fixpoint_is_deduce_repeated`` and, against the loop over
        ``_line_answer``, ``test_easy_fixpoint_is_line_answer_repeated`` (tests/test_binary.py).
        """
        n, half, full = self.n, self.half, self.full
        pop = self._popcounts()
        k0 = k
        # Plain ints that stay positive (``full ^ x``, not ``~x``) and popcounts from a list:
        # each operation here is an interpreter step, and a miss takes a few dozen of them.
        while True:
            if short and pop[full ^ k] <= short:
                both = self.line_masks(k, v, eq, neq)
                a, o = both >> n, both & full
                if a & ~o:
                    return None
                unknown = full ^ k
                k |= (a | full ^ o) & unknown
                v |= a & unknown
                break  # the completions' agreement: nothing more to say on this line
            zeros = k ^ v
            if v & v >> 1 & v >> 2 or zeros & zeros >> 1 & zeros >> 2:
                return None
            c1, c0 = pop[v], pop[zeros]
            if c1 > half or c0 > half:
                return None
            unknown = full ^ k
            o2, z2 = v & v >> 1, zeros & zeros >> 1
            f1 = (z2 << 2 | z2 >> 1 | (zeros & zeros >> 2) << 1) & unknown
            f0 = (o2 << 2 | o2 >> 1 | (v & v >> 2) << 1) & unknown
            if c1 == half:
                f0 |= unknown
            elif c0 == half:
                f1 |= unknown
            if eq | neq:
                differ = v ^ v >> 1
                both = k & k >> 1
                if both & (eq & differ | neq & (full ^ differ)):
                    return None
                low = k & unknown >> 1  # cell j known, j + 1 not
                high = unknown & k >> 1  # cell j + 1 known, j not
                above, off = v >> 1, zeros >> 1
                f1 |= (eq & low & v | neq & low & zeros) << 1 | high & (eq & above | neq & off)
                f0 |= (eq & low & zeros | neq & low & v) << 1 | high & (eq & off | neq & above)
            if f1 & f0:
                return None
            if once:
                return f1 << n | f0
            if not f1 | f0:
                break
            v |= f1
            k |= f1 | f0
            if k == full:
                differ = v ^ v >> 1
                if v not in self._valid_lines() or eq & differ or neq & (full ^ differ):
                    return None
                break
        news = k ^ k0
        return (v & news) << n | news ^ (v & news)

    def _popcounts(self) -> list[int]:
        """Per mask of a line, its number of set bits (a list index is cheaper than a call)."""
        pop = self.__dict__.get("_pop")
        if pop is None:
            pop = self._pop = [m.bit_count() for m in range(1 << self.n)]
        return pop
