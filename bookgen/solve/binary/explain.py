"""Explanations: a player's reason for each step, built only when asked for.

Never on the closure's path: grading needs the techniques alone. Reasons
are catalog templates (``Text``/``Plural``) with the cells, lines and symbols
as values, so the layout prints them in the book's language.
"""

from __future__ import annotations

from typing import Sequence

from bookgen.core.bits import lowest, scan_forward
from bookgen.core.i18n import N_, Plural, Text, join_and
from bookgen.core.types import Cell
from bookgen.solve.binary.rules import Board, Contradiction, line_cell

_NUMBER_WORDS = (N_("no"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"),
                 N_("seven"), N_("eight"), N_("nine"))


def _count(k: int) -> str:
    """Small counts as words (``three``), larger ones as digits."""
    return _NUMBER_WORDS[k] if 0 <= k < len(_NUMBER_WORDS) else str(k)


def _line_text(n: int, line: int, capital: bool = False) -> Text:
    """``line_name`` as a translatable value of a reason (``Row 3`` to open a sentence)."""
    if line < n:
        return Text(N_("Row {row}") if capital else N_("row {row}"), row=line + 1)
    return Text(N_("Column {column}") if capital else N_("column {column}"), column=line - n + 1)


def _semis(parts: Sequence[str]) -> str:
    """``a; b; c``, translatable."""
    if len(parts) == 1:
        return parts[0]
    return Text(N_("{first}; {rest}"), first=parts[0], rest=_semis(parts[1:]))


# How a reason names each symbol: one of it, several, and a counted number of it (English
# plural forms; the catalogs give each language's). Tango's are words, Takuzu's its digits.
_SYMBOL_WORDS = {
    "sun": (N_("a sun"), N_("suns"), lambda k, num: Plural("{num} sun", "{num} suns", k, num=num)),
    "moon": (N_("a moon"), N_("moons"), lambda k, num: Plural("{num} moon", "{num} moons", k, num=num)),
    "0": ("0", N_("0s"), lambda k, num: Plural("{num} 0", "{num} 0s", k, num=num)),
    "1": ("1", N_("1s"), lambda k, num: Plural("{num} 1", "{num} 1s", k, num=num)),
}


class Explanations:
    """A player's reason for each finding and trial (mixed into ``BinaryEngine``)."""

    def _sym(self, v: int, count: int = 1) -> str:
        """``a sun`` / ``suns`` for named symbols, the bare digit (``0``) for Takuzu."""
        name = self.names[v]
        if name in _SYMBOL_WORDS:
            return _SYMBOL_WORDS[name][0 if count == 1 or not name.isalpha() else 1]
        if not name.isalpha():
            return name
        return f"a {name}" if count == 1 else f"{name}s"

    def _plural(self, v: int) -> str:
        name = self.names[v]
        return _SYMBOL_WORDS[name][1] if name in _SYMBOL_WORDS else f"{name}s"

    def _counted(self, v: int, k: int) -> str:
        """``three suns``, ``four 1s``: ``k`` (two or more) of symbol ``v``."""
        name = self.names[v]
        if name not in _SYMBOL_WORDS:
            return f"{_count(k)} {name}s"
        return _SYMBOL_WORDS[name][2](k, _count(k))

    def _at(self, line: int, js: Sequence[int]) -> str:
        """Positions along a line: ``columns 2 and 4`` in a row, ``rows 1 and 3`` in a column."""
        nums = [str(j + 1) for j in sorted(js)]
        if line < self.n:
            return Plural("column {at}", "columns {at}", len(nums), at=join_and(nums))
        return Plural("row {at}", "rows {at}", len(nums), at=join_and(nums))

    def _forced(self, ones: int, zeros: int) -> list[tuple[int, int]]:
        """(position, symbol) of every cell a finding fixes, in line order."""
        return sorted([(j, 1) for j in scan_forward(ones)] + [(j, 0) for j in scan_forward(zeros)])

    def _fills(self, line: int, cells: Sequence[tuple[int, int]]) -> str:
        """``column 1 is a moon and columns 4 and 5 are suns``."""
        parts = []
        for v in sorted((1, 0), key=lambda v: min((j for j, x in cells if x == v), default=self.n)):
            js = [j for j, x in cells if x == v]
            if js:
                parts.append(Plural("{at} is {sym}", "{at} are {sym}", len(js),
                                    at=self._at(line, js), sym=self._sym(v, len(js))))
        return join_and(parts)

    def _why(self, board: Board, technique: str, line: int, ones: int, zeros: int) -> str:
        """A player's explanation of one finding, naming the cells and symbols involved."""
        n = self.n
        where = _line_text(n, line)
        cells = self._forced(ones, zeros)
        known, value = board.known[line], board.value[line]
        if technique in ("pair", "sandwich"):
            groups: dict[tuple[int, ...], list[tuple[int, int]]] = {}
            for j, v in cells:
                for w in self.windows:
                    rest = w & ~(1 << j)
                    at_end = j in (lowest(w), w.bit_length() - 1)
                    if (w >> j) & 1 and at_end == (technique == "pair") and rest & known == rest and (
                            (value & rest == rest) if v == 0 else not value & rest):
                        groups.setdefault(tuple(scan_forward(rest)), []).append((j, v))
                        break
            parts = []
            for src, got in groups.items():
                other = 1 - got[0][1]
                k = len(src)
                at, fills = self._at(line, src), self._fills(line, got)
                if technique == "pair":
                    parts.append(Text(N_("{at} hold {syms} side by side, so {fills}, or there would be "
                                         "{num} in a row"), at=at, syms=self._counted(other, k), fills=fills,
                                      num=_count(k + 1)))
                elif k == 2:
                    parts.append(Text(N_("{at} hold {syms}, so {fills}: the same symbol between them would "
                                         "make three in a row"), at=at, syms=self._plural(other), fills=fills))
                else:
                    parts.append(Text(N_("{at} hold {syms}, so {fills}, or there would be {run} in a row"),
                                      at=at, syms=self._plural(other), fills=fills,
                                      run=self._counted(other, k + 1)))
            return Text(N_("In {line}, {parts}."), line=where, parts=_semis(parts))
        if technique == "balance":
            v = 1 if zeros else 0  # the symbol the line already holds half of
            have = [j for j in scan_forward(known) if ((value >> j) & 1) == v]
            return Text(N_("{line} already has {syms} ({at}), half of its {n} cells, so the rest are "
                           "{others}: {cells}."), line=_line_text(n, line, True),
                        syms=self._counted(v, self.half), at=self._at(line, have), n=n,
                        others=self._plural(1 - v), cells=self._at(line, [j for j, _ in cells]))
        if technique == "sign":
            parts = []
            for j, v in cells:
                for i, nb in ((j - 1, j - 1), (j, j + 1)):  # sign bit i joins cells i and i+1
                    if not 0 <= nb < n or not (known >> nb) & 1:
                        continue
                    if (board.eq[line] >> i) & 1:
                        sign, rule = "=", N_("the same symbol")
                    elif (board.neq[line] >> i) & 1:
                        sign, rule = "×", N_("the other symbol")
                    else:
                        continue
                    src = (value >> nb) & 1
                    parts.append(Text(N_("{at} is {sym} and '{sign}' joins it to {other}, which takes "
                                         "{rule}: {result}"), at=self._at(line, [nb]), sym=self._sym(src),
                                      sign=sign, other=self._at(line, [j]), rule=rule, result=self._sym(v)))
                    break
            return Text(N_("In {line}, {parts}."), line=where, parts=_semis(parts))
        if technique == "trial":
            return ""
        blanks = list(scan_forward(self.full & ~known))
        signed = bool(board.eq[line] | board.neq[line])
        if technique == "distinct":
            lo = 0 if line < n else n
            twins = [i for i in range(lo, lo + n) if i != line and board.known[i] == self.full
                     and not (board.value[i] ^ value) & known]
            cands = self.completions(board, line)[0]
            left = [p for p in cands if p not in {board.value[i] for i in twins}]
            copies = join_and([_line_text(n, i) for i in twins])
            return Plural("{line} may not be a copy of the finished {copies}. {ways}, and only {num} is "
                          "not a copy: {fills}.",
                          "{line} may not be a copy of the finished {copies}. {ways}, and only {num} are "
                          "not a copy: {fills}.", len(left), line=_line_text(n, line, True), copies=copies,
                          ways=self._ways(len(cands), signed, Text(N_("its empty {at}"), at=self._at(line, blanks))),
                          num=_count(len(left)), fills=self._fills(line, cells))
        cands = self.completions(board, line)[0]
        values = dict(line=_line_text(n, line, True), num=_count(len(blanks)), at=self._at(line, blanks),
                      ways=self._ways(len(cands), signed, N_("them")), fills=self._fills(line, cells))
        if len(cands) == 1:
            return Plural("{line} has {num} empty cells ({at}). {ways}: {fills}.",
                          "{line} has {num} empty cells ({at}). {ways}: {fills}.", len(blanks), **values)
        return Plural("{line} has {num} empty cells ({at}). {ways}, and all of them agree: {fills}.",
                      "{line} has {num} empty cells ({at}). {ways}, and all of them agree: {fills}.",
                      len(blanks), **values)

    def _ways(self, k: int, signed: bool, what: str) -> str:
        """``There are only two ways to fill WHAT without three in a row and with three of each symbol``."""
        rules = Text(N_("without {run} in a row, with {half} of each symbol and keeping its signs") if signed
                     else N_("without {run} in a row and with {half} of each symbol"),
                     run=_count(self.max_run + 1), half=_count(self.half))
        return Plural("There is only {num} way to fill {what} {rules}",
                      "There are only {num} ways to fill {what} {rules}", k, num=_count(k), what=what,
                      rules=rules)

    def _trial_why(self, board: Board, cell: Cell, v: int) -> str:
        """Why assuming the other symbol in ``cell`` fails (re-runs that one trial)."""
        r, c = cell
        trial = board.copy()
        trial.assign(r, c, 1 - v)
        clash = N_("the grid breaks a rule")
        try:
            self._stack_closure(trial, (r, self.n + c))
        except Contradiction as exc:
            clash = self._clash(trial) or str(exc)
        return Text(N_("Suppose {cell} were {sym}. Following that with the techniques above leads to a "
                       "contradiction ({clash}), so it is {result}."),
                    cell=Text(N_("row {row}, column {column}"), row=r + 1, column=c + 1), sym=self._sym(1 - v),
                    clash=clash, result=self._sym(v))

    def _clash(self, board: Board) -> str:
        """The first broken rule on a board that reached a contradiction, in words ('' if none)."""
        n, k = self.n, self.max_run
        for line in range(2 * n):
            known, value = board.known[line], board.value[line]
            where = _line_text(n, line)
            for v in (1, 0):
                have = (value if v else known & ~value).bit_count()
                if have > self.half:
                    return Text(N_("{line} would hold {syms}"), line=where, syms=self._counted(v, have))
                mine = value if v else known & ~value
                for w in self.windows:
                    if mine & w == w:
                        return Text(N_("{line} would hold {syms} in a row"), line=where,
                                    syms=self._counted(v, k + 1))
            for mask, same in ((board.eq[line], True), (board.neq[line], False)):
                for j in scan_forward(mask):
                    both = 3 << j
                    if known & both == both and (((value >> j) ^ (value >> (j + 1))) & 1 == 0) != same:
                        a, b = line_cell(n, line, j), line_cell(n, line, j + 1)
                        return Text(N_("the '{sign}' between {first} and {second} would be broken"),
                                    sign="=" if same else "×",
                                    first=Text(N_("row {row}, column {column}"), row=a[0] + 1, column=a[1] + 1),
                                    second=Text(N_("row {row}, column {column}"), row=b[0] + 1, column=b[1] + 1))
        for line in range(2 * n):
            if not self.completions(board, line)[0]:
                return Text(N_("{line} could no longer be completed"), line=_line_text(n, line))
        if self.unique_lines:
            for lo in (0, n):
                for i in range(lo, lo + n):
                    for j in range(i + 1, lo + n):
                        if board.known[i] == board.known[j] == self.full and board.value[i] == board.value[j]:
                            return Text(N_("{first} and {second} would be the same"), first=_line_text(n, i),
                                        second=_line_text(n, j))
            for line in range(2 * n):
                done = self._complete_lines(board, line)
                if done and not [p for p in self.completions(board, line)[0] if p not in done]:
                    return Text(N_("{line} could only be completed as a copy of a finished line"),
                                line=_line_text(n, line))
        return ""
