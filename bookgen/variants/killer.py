"""Killer Sudoku (also sold as Sumdoku): Sudoku with sum cages instead of givens.

Rules: fill an N x N grid (N = 4, 6 or 9) so that every row, column and box
holds each digit 1..N once. Dashed cages cover the grid; the digits of a
cage all differ and add up to the small number in its corner. There are no
given digits unless the section asks for a few (``givens: few``).

Representation: a ``Puzzle`` with ``variant="killer"``, givens (usually all
``.``) and solution as digit rows, Sudoku's rules (``{"box": (R, C),
"diagonal": false}``) and ``cages`` as ``Cage(cells, "+", sum)`` with cells
sorted row-major, cages sorted by their first cell. Solving is the house
engine (``bookgen.solve.houses``) on Sudoku's houses, with every cage's
cells made peers and the sums plugged in (``bookgen.solve.cages``).

Techniques by tier (measured against Solo's Killer levels in the README):
- easy: naked and hidden singles; a cage's last open cell (its sum less the
  digits in it; a one-cell cage shows its digit); cage combinations: the
  sets of different digits that make the sum (two cells making 3 are 1 and
  2), of which only those that fit the cells' candidates survive, and digits
  none of them use go; the 45 rule on one row, column or box (it adds up to
  N(N+1)/2, so the cells of its crossing cages inside it, the innies, or
  outside it, the outies, add up to what the cages lying inside leave);
- medium: a digit every surviving combination needs, confined to one row,
  column or box within the cage, leaves the rest of that house; locked
  candidates, naked and hidden pairs;
- hard: the 45 rule on unions of two or three neighbouring rows or columns,
  or two neighbouring boxes; two cages inside one house share no digit
  (``cage_clash``); the house ladder's hard tier but unique rectangles and
  BUG+1 (cages can tell a rectangle's two fillings apart);
- expert: simple colouring, X-chains, almost locked sets, XY-chains, forcing chains, then one trial
  on a two-candidate cell refuted by the tiers above; never nested.

Generation: a random full Sudoku grid, cut into random connected cages of
different digits (smaller cages at the easier levels), then changed locally
until the ladder grades it exactly at the target level: a cage around a cell
the ladder can't reach is split (or, with ``givens``, that cell is given), a
puzzle that grades too easy gets two neighbouring cages merged. Every
change is bounded (``ATTEMPTS`` grids of ``MOVES`` changes each), and the SAT
solver proves the result unique.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from functools import partial
from typing import Any, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import C_, N_
from bookgen.core.pen import CAP_HEIGHT, THIN, TOP_LEFT, Pen, bold_width
from bookgen.core.symmetry import moved_cells
from bookgen.core.text import PuzzleTextError
from bookgen.core.text import TextLine as _Line
from bookgen.core.text import first_col as _first_col
from bookgen.core.text import rules_at as _rules
from bookgen.core.text import square as _square
from bookgen.core.types import EMPTY, Cage, Cell, Puzzle, Size
from bookgen.core.variant import Technique
from bookgen.solve.cages import (
    TECHNIQUES, cage_geometry, extra_for, proof_clauses, proof_variables, sum_clauses,
    sum_combinations,
)
from bookgen.solve.houses import (
    TOO_EASY, Contradiction, Extra, Fits, Geometry, LadderResult, Run, State, Stuck, Verdict, level_of,
    merged_ladder, random_filling, solve, start,
)
from bookgen.solve.latin_sat import Numbered
from bookgen.variants.gridparts import (
    CAGE_LABELS, and_givens, cage_problems, cage_text_lines, cage_where, cages_from_json, connected, disconnected,
    given_count,
)
from bookgen.variants.housegrid import ADVANCED_TECHNIQUE_TEXT, Draft, check_digits, digit_rows
from bookgen.variants.sudoku import BOXES, FILL_BUDGET, SudokuVariant
from bookgen.variants.sudoku import TECHNIQUE_TEXT as SUDOKU_TEXT

SIZES: tuple[int, ...] = (4, 6, 9)
ATTEMPTS = 60          # fresh grids per puzzle
MOVES = 40             # local changes (split, merge, give) per grid
# Relative weights of cage sizes per level; a cage never repeats a digit.
SIZE_MIX: dict[Level, dict[int, float]] = {
    Level.EASY: {2: 5, 3: 3, 4: 1},
    Level.MEDIUM: {2: 4, 3: 4, 4: 2, 5: 0.5},
    Level.HARD: {2: 3, 3: 4, 4: 3, 5: 1},
    Level.EXPERT: {2: 5, 3: 3, 4: 1},  # small cages, split less often before a trial finishes (~2x faster)
}
MAX_CAGE = {4: 3, 6: 4, 9: 6}
# The most one-cell cages (givens in disguise) a puzzle may have, as a share of N.
SINGLES: dict[Level, float] = {Level.EASY: 0.5, Level.MEDIUM: 0.25, Level.HARD: 0.12, Level.EXPERT: 0.12}
GIVENS_CAP = {"few": 0.06, "normal": 0.12, "many": 0.2}  # share of the cells that may be given
# The hardest level each size reaches reliably (measured; see tests/test_killer.py).
MAX_LEVEL: dict[int, Level] = {4: Level.EASY, 6: Level.MEDIUM}  # 6x6 hard and expert fail a third of seeds
# Dashed cage outlines: inset from the cell edges, dash and gap lengths, in cells.
INSET = 0.09
DASH, GAP = 0.07, 0.055
CLUE_SIZE = 0.17       # cap height of the sums
LEGEND = re.compile(r"\s*(?P<label>[A-Za-z0-9])\s*:\s*(?P<target>\d{1,3})\s*\+?\s*[,;]?")

LEVELS = merged_ladder(TECHNIQUES).tier  # the ladder's tiers, as it states them
# The how-to texts: Sudoku's for the house techniques, the cage ladder's own for the cages'.
TEXT = {**SUDOKU_TEXT, **{t.name: (t.title, t.description) for t in TECHNIQUES.explained}}
_ORDER = ("hidden_single_box", "naked_single", "hidden_single", "cage_last", "cage_static", "cage_combos", "rule45",
          "cage_confined", "locked_candidates", "confined_candidates", "naked_pair", "hidden_pair", "rule45_union", "cage_clash",
          "naked_triple", "hidden_triple", "x_wing", "xy_wing",
          *(key for key in ADVANCED_TECHNIQUE_TEXT if key not in ("unique_rectangle", "unique_loop", "bug")), "trial")


# The title in the grammatical cases sentences need (the catalogs inflect it: ``i18n.name_forms``).
NAME_CASES = (C_("gen", "Killer Sudoku"), C_("acc", "Killer Sudoku"))

class KillerVariant(SudokuVariant):
    """Killer Sudoku on 4x4, 6x6 and 9x9 grids; stateless. Sudoku's rules, drawing and
    houses, with sum cages on top."""

    name = "killer"
    aliases: tuple[str, ...] = ("killer-sudoku", "sumdoku")
    title = N_("Killer Sudoku")
    rules_text: tuple[str, ...] = (
        N_("Fill the grid so that every row, every column and every bold box holds each digit exactly once."),
        N_("The dashed outlines mark cages. The digits of a cage are all different and add up to the "
           "small number in its corner."),
        N_("Each puzzle has exactly one solution, reachable by logic alone."),
    )
    diagonal_rule = N_("Killer X: both long diagonals, marked in the grid, also hold each digit once.")
    techniques: tuple[Technique, ...] = tuple(
        Technique(key, LEVELS[key], *TEXT[key]) for key in _ORDER)
    sizes: tuple[int, ...] = SIZES
    default_size = 9
    rule_help = {**SudokuVariant.rule_help,  # Sudoku's options, under Killer's name for the diagonals
                 "diagonal": "true: both long diagonals also hold every digit once "
                             "(Killer X; drawn as two thin diagonal lines)"}
    weights = TECHNIQUES.weight
    kind = "Killer Sudoku"
    attempts = ATTEMPTS
    givens_option = True  # ``givens: few`` in a section allows some given digits
    relabel = False       # the sums fix which digit is which

    # --- rules ----------------------------------------------------------------------

    def parse_rules(self, raw: Mapping[str, Any] | None, size: int) -> dict[str, Any]:
        """Sudoku's options (``box``, ``diagonal``) on the Killer sizes."""
        if size not in SIZES:
            raise ValueError(f"Killer Sudoku size must be one of {', '.join(map(str, SIZES))}, not {size}")
        return super().parse_rules(raw, size)

    def banded_levels(self, size: Size, rules: Mapping[str, Any]) -> bool:
        """Not bands: Killer's rating isn't calibrated against SE, and its experts need forcing
        chains (8.0 and up), past the expert band (docs/calibration.md)."""
        return False

    def check_request(self, size: int, rules: Mapping[str, Any], level: Level) -> str | None:
        """Why this request can't be generated reliably, or None."""
        if size not in SIZES:
            return f"Killer Sudoku size must be one of {', '.join(map(str, SIZES))}, not {size}"
        return self.never_harder(size, rules, level, MAX_LEVEL.get(size, Level.EXPERT))

    def kind_of(self, rules: Mapping[str, Any]) -> str:
        return self.kind

    def budget_text(self) -> str:
        return f"{ATTEMPTS} grids of {MOVES} changes each"

    # --- generation -----------------------------------------------------------------

    def attempt(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
                options: Mapping[str, Any]) -> Draft | None:
        """A random full grid tiled into cages, then changed locally (cages split, merged or
        recut, a digit given) until the ladder grades it exactly ``level``, or ``MOVES`` run out."""
        n = size
        cap = round(GIVENS_CAP.get(options.get("givens", ""), 0.0) * n * n)
        base = self._base(n, rules)
        singles = max(1, int(SINGLES[level] * n))
        sol = random_filling(base, rng, FILL_BUDGET)
        if sol is None:
            return None
        cages = _tile(sol, n, level, rng)
        given: list[int] = []
        # Easy: the state the last judge stalled in; the next judge goes on from it (see ``_judge``).
        carry: State | None = None
        for _ in range(MOVES):
            cages.sort()  # the puzzle's own order, so that grading it again agrees
            given.sort()
            sums = [sum(sol[i] for i in c) for c in cages]
            verdict = self._judge(base, rules, cages, sums, given, sol, level, carry)
            carry = verdict.state if level == Level.EASY and isinstance(verdict, Stuck) else None
            if isinstance(verdict, Fits):
                res = LadderResult(True, verdict.level, verdict.counts, (), None)
                cells = tuple(map(tuple, cages))
                return Draft(self._puzzle(n, rules, sol, cages, given), res, base,
                             [(i, sol[i]) for i in given], (), sol,
                             numbered=Numbered(partial(proof_clauses, base, cells, tuple(sums)),
                                               proof_variables(n, cells, sums)))
            if verdict is TOO_EASY:
                if not _merge(cages, sol, n, MAX_CAGE[n], rng):
                    return None
                continue
            stuck = [i for i in verdict.cells if i not in given]
            if not stuck:
                return None
            i = rng.choice(stuck)
            if len(given) < cap and rng.random() < 0.5:
                given.append(i)
            elif not _split(cages, i, n, rng, sum(len(c) == 1 for c in cages) < singles) and \
                    not _recut(cages, i, sol, n, MAX_CAGE[n], rng):
                if len(given) >= cap:
                    return None
                given.append(i)
        return None

    def _judge(self, base: Geometry, rules: Mapping[str, Any], cages: list[list[int]], sums: list[int],
               given: list[int], sol: list[int], level: Level, carry: State | None = None,
               plain: bool = False) -> Verdict:
        """``Fits``, ``TOO_EASY``, or ``Stuck``: the cells the ladder left open and the state
        it stalled in.

        With ``carry`` (the state the last version of this puzzle stalled in, before a cage
        was split or recut or a digit given) the ladder first goes on from there, which only
        costs the new steps. Every candidate that state struck is wrong for the filled grid,
        but this puzzle's own ladder may not strike it (the old cages said more: a split
        cage's digits all differed), so it only says where to change next; a puzzle it
        finishes is judged afresh, and that verdict is the one kept.

        Below expert the verdict comes from the ladder with naked singles first (``solve``'s
        ``fast``), and only a draft that fits is run again in the ladder's own order, for the
        counts its grade keeps. ``plain``: every run in the ladder's own order, the version
        this must equal (tests/test_killer.py). They agree because the easy tier's techniques are sound
        and monotone (fewer candidates never let one of them strike less: singles, a cage's
        last cell, its combinations, the 45 rule on at most ``RULE45_CELLS`` open cells), so
        from one state every order of them stalls in the same state, the largest one they
        all leave alone that holds the grid; a harder technique is tried only there, in the
        same order either way, so both runs take the same harder steps, stall in the same
        state and use the same tiers. Most drafts stall: the order that first looks at the
        cages after every single cost them about 2.5 times as much."""
        geo = cage_geometry(base, cages)
        extra = extra_for(base, BOXES[base.n], cages, sums, unions=level >= Level.HARD)
        givens = [(i, sol[i]) for i in given]
        tier = min(level, Level.HARD)
        # (Not at expert: its drafts that fit end in trials, whose second run cost more than
        # the order saved on the ones that stall.)
        fast = not plain and level < Level.EXPERT
        if carry is not None:
            try:
                st = _resume(geo, extra, carry, givens)
                if not solve(st, tier, Run(), fast=fast):
                    return Stuck([i for i in range(base.n * base.n) if not st.placed[i]], st)
                fast = False  # (the fresh run will most likely finish: in the own order at once)
            except Contradiction:  # pragma: no cover - every step is sound and the state keeps ``sol``
                pass
        run = Run()
        try:
            st = start(geo, givens, extra)
            solved = _climb(st, level, tier, run, fast)
        except Contradiction:  # pragma: no cover - the grid itself is a solution
            return Stuck(list(range(base.n * base.n)))
        if not solved:
            return Stuck([i for i in range(base.n * base.n) if not st.placed[i]], st)
        used = max((level_of(t, extra) for t in run.counts), default=Level.EASY)
        if used != level:
            return TOO_EASY
        if fast:
            run = Run()
            _climb(start(geo, givens, extra), level, tier, run, False)
        return Fits(run.counts, used)

    def _base(self, n: int, rules: Mapping[str, Any]) -> Geometry:
        return super().geometry_of(Puzzle(self.name, n, rules, (), ()))

    def _puzzle(self, n: int, rules: Mapping[str, Any], sol: Sequence[int], cages: Sequence[Sequence[int]],
                given: Sequence[int]) -> Puzzle:
        keep = [i in given for i in range(n * n)]
        out = sorted((tuple(sorted(divmod(i, n) for i in c)), sum(sol[i] for i in c)) for c in cages)
        return Puzzle(self.name, n, dict(rules), digit_rows(keep, sol, n), digit_rows(None, sol, n),
                      cages=tuple(Cage(cells, "+", s) for cells, s in out))

    # --- the house engine's hooks ---------------------------------------------------

    def geometry_of(self, puzzle: Puzzle) -> Geometry:
        """Rows, columns, boxes (and diagonals), each cage's cells peers of each other."""
        return cage_geometry(self._base(puzzle.size, puzzle.rules), _cells(puzzle))

    def extra_of(self, puzzle: Puzzle) -> Extra:
        """The sums, for the ladder."""
        return extra_for(self._base(puzzle.size, puzzle.rules), BOXES[puzzle.size], _cells(puzzle),
                         [c.target for c in puzzle.cages])

    def clauses_of(self, puzzle: Puzzle) -> list[list[int]]:
        """The cages (all different, adding up), for the SAT solver."""
        return sum_clauses(puzzle.size, _cells(puzzle), [c.target for c in puzzle.cages])

    def extra_problems(self, puzzle: Puzzle) -> list[str]:
        """Cages that are malformed, repeat a digit or don't add up."""
        problems = _cage_problems(puzzle.cages, puzzle.size)
        if problems:
            return problems
        for cage in puzzle.cages:
            digits = [int(puzzle.answer(cell)) for cell in cage.cells]
            where = cage_where(cage.cells)
            if len(set(digits)) != len(digits):
                problems.append(f"cage at {where} repeats a digit")
            if sum(digits) != cage.target:
                problems.append(f"cage at {where} should add up to {cage.target} but makes {sum(digits)}")
        return problems

    def malformed(self, puzzle: Puzzle) -> bool:
        """Cages that don't partition the grid into connected cages with sums they can make."""
        return bool(_cage_problems(puzzle.cages, puzzle.size))

    def fingerprint_clues(self, puzzle: Puzzle, move) -> str:
        """The cages (cells after ``move``, and sums)."""
        return repr(sorted((moved_cells(cage.cells, move), cage.target) for cage in puzzle.cages))

    def smallest_type(self, size: int, rules: Mapping[str, Any]) -> float:
        """The sums' font size in cells: the smallest type in these grids."""
        return CLUE_SIZE / CAP_HEIGHT

    # --- drawing --------------------------------------------------------------------

    def draw(self, pen: Pen, puzzle: Puzzle, solved: bool = False) -> None:
        """Sudoku's grid (thin cell lines, bold boxes and frame, digits) with dashed cages
        inset inside the cells and each sum on a white patch in its cage's top-left cell. An
        answer key (``pen.key``) is the solved Sudoku alone: the digits are what a solver
        checks, and dashes and small sums in a key-sized cell only blur them."""
        super().draw(pen, puzzle, solved)
        if not pen.key:
            draw_cages(pen, puzzle.size, puzzle.cages)

    # --- JSON -----------------------------------------------------------------------

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """Sudoku's ``rules`` and ``cages``: ``[{"cells": [[r, c], ...], "op": "+", "target": 23}, ...]``."""
        out = super().to_json(puzzle)
        out["cages"] = [{"cells": [list(cell) for cell in c.cells], "op": "+", "target": c.target}
                        for c in puzzle.cages]
        return out

    def from_json(self, data: Mapping[str, Any]) -> Puzzle:
        """Rebuild a puzzle from a book JSON entry; ``ValueError`` says what is malformed."""
        size = data.get("size")
        if type(size) is not int or size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(map(str, SIZES))}, got {size!r}")
        puzzle = super().from_json(data)
        cages = cages_from_json(
            data.get("cages"), size, "Killer Sudoku",
            lambda op: None if op == "+" else f"a Killer cage's op is '+', not {op!r}",
            lambda t: None if type(t) is int and 1 <= t <= 45 else f"target must be a whole number from 1 to 45, not {t!r}",
            default_op="+")
        problems = _cage_problems(cages, size)
        if problems:
            raise ValueError(problems[0])
        return replace(puzzle, cages=cages)

    # --- text (``bookgen solve``) ------------------------------------------------------

    def sniff_text(self, text: str) -> int:
        """Never guessed: a legend of sums looks like a KenKen without operations, so a Killer
        Sudoku file starts with a ``killer`` line."""
        return 0

    def parse_text(self, lines: Sequence[_Line], options: dict[str, Any], header: _Line | None,
                   file: str) -> Puzzle:
        """A grid of cage labels, optionally a grid of givens (digits and ``.``) of the same size,
        then a legend of ``label: sum`` entries."""
        grid = [ln for ln in lines if ":" not in ln.text]
        legend = [ln for ln in lines if ":" in ln.text]
        if not grid:
            raise PuzzleTextError(file, lines[0].number, None, "no grid of cage labels before the legend")
        if legend and any(ln.number > legend[0].number for ln in grid):
            ln = next(ln for ln in grid if ln.number > legend[0].number)
            raise PuzzleTextError(file, ln.number, _first_col(ln.text), "grid rows must come before the legend (label: sum)")
        rows = [[ch for ch in ln.text if not ch.isspace()] for ln in grid]
        n = len(rows[0])
        label_lines, given_lines = grid, []
        if len(grid) == 2 * n:
            label_lines, given_lines = grid[:n], grid[n:]
        labels = [[ch for ch in ln.text if not ch.isspace()] for ln in label_lines]
        for ln in label_lines:
            for k, ch in enumerate(ln.text):
                if not ch.isspace() and ch not in CAGE_LABELS:
                    raise PuzzleTextError(file, ln.number, k + 1, f"unknown symbol {ch!r}; the cage grid holds "
                                          "one label (a letter or digit) per cell, the same for every cell of a cage")
        n = _square(labels, label_lines, SIZES, self.title, file)
        givens = [[EMPTY] * n for _ in range(n)]
        if given_lines:
            for r, ln in enumerate(given_lines):
                row = []
                for k, ch in enumerate(ln.text):
                    if ch.isspace() or ch == "|":
                        continue
                    if ch not in ".0123456789":
                        raise PuzzleTextError(file, ln.number, k + 1, f"unknown symbol {ch!r}; the grid of givens "
                                              "holds digits, or . for an empty cell")
                    row.append(EMPTY if ch in ".0" else ch)
                givens[r] = row
            _square(givens, given_lines, (n,), "the grid of givens", file)
            check_digits(givens, given_lines, n, self.title, PuzzleTextError, file)
        where: dict[str, list[tuple[Cell, int, int]]] = {}
        for r, ln in enumerate(label_lines):
            c = 0
            for k, ch in enumerate(ln.text):
                if not ch.isspace():
                    where.setdefault(ch, []).append(((r, c), ln.number, k + 1))
                    c += 1
        sums: dict[str, int] = {}
        for ln in legend:
            pos = 0
            while pos < len(ln.text):
                m = LEGEND.match(ln.text, pos)
                if not m or m.end() == pos:
                    raise PuzzleTextError(file, ln.number, pos + _first_col(ln.text[pos:]),
                                          "expected 'label: sum' such as 'a: 12' or 'b: 23'")
                label, col = m.group("label"), m.start("label") + 1
                if label in sums:
                    raise PuzzleTextError(file, ln.number, col, f"cage {label!r} has two sums")
                if label not in where:
                    raise PuzzleTextError(file, ln.number, col, f"cage {label!r} is not in the grid")
                cells = sorted(cell for cell, _, _ in where[label])
                target = int(m.group("target"))
                stray = disconnected(cells)
                if stray is not None:
                    _, line_no, c = next(s for s in where[label] if s[0] == stray)
                    raise PuzzleTextError(file, line_no, c, f"cage {label!r} is not connected: this cell does not "
                                          "touch the rest of the cage (give a separate cage its own label)")
                if len(cells) > n:
                    raise PuzzleTextError(file, ln.number, col, f"cage {label!r} has {len(cells)} cells, but its "
                                          f"digits must all differ and there are only {n}")
                if not sum_combinations(len(cells), target, n):
                    raise PuzzleTextError(file, ln.number, col, f"cage {label!r}: {len(cells)} different digits "
                                          f"from 1 to {n} can't add up to {target}")
                sums[label] = target
                pos = m.end()
        for label in sorted(where, key=lambda x: (where[x][0][1], where[x][0][2])):
            if label not in sums:
                _, line_no, col = where[label][0]
                raise PuzzleTextError(file, line_no, col, f"cage {label!r} has no sum; add '{label}: SUM' to the legend")
        cages = sorted((Cage(tuple(sorted(c for c, _, _ in where[lb])), "+", s) for lb, s in sums.items()),
                       key=lambda cage: cage.cells)
        rules = _rules(self, options, n, header, file)
        blank = tuple(EMPTY * n for _ in range(n))
        return Puzzle(self.name, n, rules, tuple("".join(r) for r in givens), blank, cages=tuple(cages))

    def to_text(self, puzzle: Puzzle) -> str:
        """The puzzle in the text format ``parse_text`` reads (header line included)."""
        n = puzzle.size
        if len(puzzle.cages) > len(CAGE_LABELS):
            raise ValueError(f"a text Killer Sudoku has at most {len(CAGE_LABELS)} cages")
        label = {cell: CAGE_LABELS[k] for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
        out = [self.name + (" diagonal=true" if puzzle.rules.get("diagonal") else "")]
        out += [" ".join(label[(r, c)] for c in range(n)) for r in range(n)]
        if any(ch != EMPTY for row in puzzle.givens for ch in row):
            out += [" ".join(row) for row in puzzle.givens]
        legend = [f"{CAGE_LABELS[k]}: {cage.target}" for k, cage in enumerate(puzzle.cages)]
        out += ["   ".join(legend[k:k + 6]) for k in range(0, len(legend), 6)]
        return "\n".join(out) + "\n"

    def text_lines(self, puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
        """KenKen's boxed grid: cage walls as ``|`` and ``---``, each sum in its cage's first cell."""
        return cage_text_lines(replace(puzzle, rules={"show_ops": False}), rows, ascii)

    def clue_counts(self, puzzle: Puzzle) -> list[str]:
        """``29 cages`` (and ``3 givens`` when there are any)."""
        return and_givens(f"{len(puzzle.cages)} cages", given_count(puzzle.givens))


def _cells(puzzle: Puzzle) -> list[tuple[int, ...]]:
    n = puzzle.size
    return [tuple(r * n + c for r, c in cage.cells) for cage in puzzle.cages]


def _cage_problems(cages: Sequence[Cage], n: int) -> list[str]:
    """Why the cages are not a partition into connected cages with sums they can make ([] when fine)."""
    def sums(cage: Cage, where: str) -> list[str]:
        if len(cage.cells) > n or not sum_combinations(len(cage.cells), cage.target, n):
            return [f"cage at {where}: {len(cage.cells)} different digits can't add up to {cage.target}"]
        return []
    return cage_problems(cages, n, sums)


# --- generation helpers ------------------------------------------------------------

def _climb(st: State, level: Level, tier: Level, run: Run, fast: bool) -> bool:
    """The judge's ladder run: up to ``tier``, and on to the expert tier from where it stalls
    when the target is expert."""
    solved = solve(st, tier, run, fast=fast)
    if not solved and level == Level.EXPERT:
        solved = solve(st, Level.EXPERT, run, fast=fast)  # goes on exactly as a fresh expert run would
    return solved


def _resume(geo: Geometry, extra: Extra, carry: State, givens: Sequence[tuple[int, int]]) -> State:
    """A state of the puzzle ``geo`` and ``extra`` with ``carry``'s candidates and ``givens``
    (the constraint's own state, with its stamps, as ``start`` gives)."""
    st = extra.new_state(geo)
    st.cand, st.placed, st.unplaced = carry.cand[:], carry.placed[:], carry.unplaced
    st.started()
    for i, d in givens:
        if not st.placed[i]:
            st.give(i, d)
    cand = st.cand
    st.fresh = [i for i in range(len(cand)) if not st.placed[i] and not cand[i] & (cand[i] - 1)]
    return st


def _neighbours(i: int, n: int) -> list[int]:
    r, c = divmod(i, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)) if 0 <= rr < n and 0 <= cc < n]


def _tile(sol: Sequence[int], n: int, level: Level, rng: random.Random) -> list[list[int]]:
    """Random connected cages of different digits, sizes drawn from the level's mix."""
    mix = {s: w for s, w in SIZE_MIX[level].items() if s <= MAX_CAGE[n]}
    sizes, weights = list(mix), list(mix.values())
    owner = [-1] * (n * n)
    cages: list[list[int]] = []
    order = list(range(n * n))
    rng.shuffle(order)
    for i in order:
        if owner[i] >= 0:
            continue
        want = rng.choices(sizes, weights=weights)[0]
        cage, digits = [i], 1 << sol[i]
        owner[i] = len(cages)
        while len(cage) < want:
            frontier = sorted({j for x in cage for j in _neighbours(x, n) if owner[j] < 0 and not digits >> sol[j] & 1})
            if not frontier:
                break
            j = rng.choice(frontier)
            cage.append(j)
            owner[j] = len(cages)
            digits |= 1 << sol[j]
        cages.append(cage)
    # Cells left alone join a neighbouring cage where they can (a few singles stay at easy).
    for k, cage in enumerate(cages):
        if len(cage) != 1:
            continue
        i = cage[0]
        nbs = sorted({owner[j] for j in _neighbours(i, n)} - {k})
        rng.shuffle(nbs)
        for j in nbs:
            other = cages[j]
            if 0 < len(other) < MAX_CAGE[n] and all(sol[x] != sol[i] for x in other):
                other.append(i)
                owner[i] = j
                cages[k] = []
                break
    return [sorted(c) for c in cages if c]


def _merge(cages: list[list[int]], sol: Sequence[int], n: int, biggest: int, rng: random.Random) -> bool:
    """Join two neighbouring cages whose digits differ (a puzzle that grades too easy)."""
    owner = {i: k for k, c in enumerate(cages) for i in c}
    order = list(range(len(cages)))
    rng.shuffle(order)
    for k in order:
        digits = {sol[i] for i in cages[k]}
        nbs = sorted({owner[j] for i in cages[k] for j in _neighbours(i, n)} - {k})
        rng.shuffle(nbs)
        for j in nbs:
            if len(cages[k]) + len(cages[j]) <= biggest and not digits & {sol[i] for i in cages[j]}:
                cages[k] = sorted(cages[k] + cages[j])
                del cages[j]
                return True
    return False


def _split(cages: list[list[int]], cell: int, n: int, rng: random.Random, single: bool) -> bool:
    """Cut the cage holding ``cell`` in two connected parts (a puzzle the ladder can't finish);
    one of them may be a single cell only when ``single``."""
    k = next(k for k, c in enumerate(cages) if cell in c)
    cage = cages[k]
    low = 1 if single else 2
    if len(cage) < 2 * low:
        return False
    for _ in range(8):
        size = rng.randint(low, len(cage) - low)
        part = [cell]
        while len(part) < size:
            frontier = sorted({j for x in part for j in _neighbours(x, n) if j in cage and j not in part})
            if not frontier:
                break
            part.append(rng.choice(frontier))
        rest = [i for i in cage if i not in part]
        if rest and connected([divmod(i, n) for i in rest]):
            cages[k] = sorted(part)
            cages.append(sorted(rest))
            return True
    return False


def _recut(cages: list[list[int]], cell: int, sol: Sequence[int], n: int, biggest: int,
           rng: random.Random) -> bool:
    """Join the cage holding ``cell`` with a neighbouring one and cut the union anew into two
    connected cages of two or more cells with different digits (new sums, no single cells)."""
    k = next(k for k, c in enumerate(cages) if cell in c)
    owner = {i: j for j, c in enumerate(cages) for i in c}
    nbs = sorted({owner[j] for i in cages[k] for j in _neighbours(i, n)} - {k})
    rng.shuffle(nbs)
    for j in nbs[:3]:
        union = cages[k] + cages[j]
        before = {tuple(sorted(cages[k])), tuple(sorted(cages[j]))}
        trial = [union]
        if _split(trial, cell, n, rng, False) and {tuple(c) for c in trial} != before and \
                all(len(c) <= biggest and len({sol[i] for i in c}) == len(c) for c in trial):
            for x in sorted((k, j), reverse=True):
                del cages[x]
            cages.extend(trial)
            return True
    return False


# --- drawing -----------------------------------------------------------------------

def cage_outline(n: int, cages: Sequence[Cage], inset: float = INSET) -> list[tuple[float, float, float, float]]:
    """The cages' outlines inset within their cells, as straight runs (x1, y1, x2, y2) in grid units.

    Each cell side on a cage's border gives a stretch ``inset`` inside the cell;
    it reaches into the neighbouring cell of the same cage, to the inset line of
    an inner corner, so the runs of one cage join into a closed outline.
    """
    owner = {cell: k for k, cage in enumerate(cages) for cell in cage.cells}

    def same(a: Cell, b: Cell) -> bool:
        return b in owner and owner[b] == owner.get(a)

    d = inset
    horizontal: dict[float, list[tuple[float, float]]] = {}
    vertical: dict[float, list[tuple[float, float]]] = {}
    for (r, c) in owner:
        for side in ("top", "bottom", "left", "right"):
            if side in ("top", "bottom"):
                dr = -1 if side == "top" else 1
                if same((r, c), (r + dr, c)):
                    continue
                y = r + d if side == "top" else r + 1 - d
                x1 = c + d if not same((r, c), (r, c - 1)) else (c - d if same((r, c), (r + dr, c - 1)) else c)
                x2 = c + 1 - d if not same((r, c), (r, c + 1)) else (c + 1 + d if same((r, c), (r + dr, c + 1)) else c + 1)
                horizontal.setdefault(round(y, 6), []).append((x1, x2))
            else:
                dc = -1 if side == "left" else 1
                if same((r, c), (r, c + dc)):
                    continue
                x = c + d if side == "left" else c + 1 - d
                y1 = r + d if not same((r, c), (r - 1, c)) else (r - d if same((r, c), (r - 1, c + dc)) else r)
                y2 = r + 1 - d if not same((r, c), (r + 1, c)) else (r + 1 + d if same((r, c), (r + 1, c + dc)) else r + 1)
                vertical.setdefault(round(x, 6), []).append((y1, y2))
    out = []
    for y, spans in sorted(horizontal.items()):
        for a, b in _join(spans):
            out.append((a, y, b, y))
    for x, spans in sorted(vertical.items()):
        for a, b in _join(spans):
            out.append((x, a, x, b))
    return out


def _join(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Touching stretches on one line merged into runs, so dashes run on evenly."""
    out: list[list[float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1] + 1e-9:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _dashes(pen: Pen, x1: float, y1: float, x2: float, y2: float) -> None:
    length = abs(x2 - x1) + abs(y2 - y1)
    count = max(1, round((length + GAP) / (DASH + GAP)))
    dash = length / (count * (DASH + GAP) - GAP) * DASH  # stretched so both ends are dashes
    gap = dash * GAP / DASH
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    t = 0.0
    for _ in range(count):
        e = min(length, t + dash)
        pen.line(x1 + ux * t, y1 + uy * t, x1 + ux * e, y1 + uy * e, THIN)
        t = e + gap


def draw_cages(pen: Pen, n: int, cages: Sequence[Cage]) -> None:
    """Dashed cage outlines inset within the cells; each sum on a white patch (so no dash
    runs through it) in the top-left cell of its cage."""
    for x1, y1, x2, y2 in cage_outline(n, cages):
        _dashes(pen, x1, y1, x2, y2)
    for cage in cages:
        r, c = min(cage.cells)
        text = str(cage.target)
        w = bold_width(text) * CLUE_SIZE / CAP_HEIGHT + 0.06  # clear of the grid lines either side
        pen.rect(c + 0.04, r + 0.04, w, CLUE_SIZE + 0.08, fill=1.0, stroke=None)
        pen.text(c + 0.07, r + 0.08, text, CLUE_SIZE, bold=True, anchor=TOP_LEFT, clue=True)


KILLER = KillerVariant()
