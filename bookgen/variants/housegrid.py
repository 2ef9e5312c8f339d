"""What the house-engine variants share (Sudoku, Futoshiki; Killer next).

A subclass says which houses a puzzle has (``geometry_of``), which extra
constraints plug into the ladder (``extra_of``, ``clauses_of``) and how they
are checked and drawn; checking, exact counting, grading, explaining and the
common parts of drawing and text are here, once.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.pen import CAP_HEIGHT, CENTER, Pen
from bookgen.core.symmetry import Symmetry, grid_fingerprint
from bookgen.core.types import EMPTY, Grade, Puzzle
from bookgen.core.variant import Step, Technique
from bookgen.solve.houses import NO_EXTRA, Extra, Geometry, LadderResult, run_ladder, score_of, solutions
from bookgen.solve.latin import symbol, symbols, value
from bookgen.variants.binarygrid import _shape_problems

GIVEN_FILL = 0.88      # grey behind printed givens: tells them from handwriting
ANSWER_GREY = 0.3      # solved-in digits, lighter than the givens
DIGIT_CAP = 0.42       # a digit's cap height, in cells


class HouseGrid:
    """Base class of digit grids solved by the house engine; subclasses fill in the hooks."""

    name = ""
    weights: Mapping[str, float] = {}  # score weights of the extra constraints' techniques

    relabel = False  # whether any permutation of the digits is the same puzzle (Sudoku)

    # --- hooks ----------------------------------------------------------------------

    def geometry_of(self, puzzle: Puzzle) -> Geometry:
        """The houses of this puzzle's rules."""
        raise NotImplementedError

    def extra_of(self, puzzle: Puzzle) -> Extra:
        """The constraints beside the houses, for the ladder."""
        return NO_EXTRA

    def clauses_of(self, puzzle: Puzzle) -> list[list[int]]:
        """The constraints beside the houses, for the SAT solver."""
        return []

    def extra_problems(self, puzzle: Puzzle) -> list[str]:
        """Broken constraints beside the houses, on a well-formed solution."""
        return []

    # --- checking -------------------------------------------------------------------

    def fingerprint_clues(self, puzzle: Puzzle, move: Symmetry) -> str:
        """The clues beside the givens (signs, cages) after ``move``, written out in a
        fixed order; none by default."""
        return ""

    def fingerprint(self, puzzle: Puzzle) -> str:
        """Same for rotations, reflections and transposes (and, with ``relabel``, any
        permutation of the digits); computed from the givens and the clues only. A
        turned 6x6 Sudoku has its boxes the other way, so it never matches a real one."""
        return grid_fingerprint(f"{self.name}/{puzzle.size}", puzzle.rules, puzzle.givens, self.relabel,
                                lambda move: self.fingerprint_clues(puzzle, move))

    def validate(self, puzzle: Puzzle) -> list[str]:
        """Every house the solution breaks, other broken constraints, givens that disagree."""
        n = puzzle.size
        digits = symbols(n)
        problems = _shape_problems(puzzle.solution, n, digits, "solution")
        problems += _shape_problems(puzzle.givens, n, digits + EMPTY, "givens")
        if problems:
            return problems
        geo = self.geometry_of(puzzle)
        flat = "".join(puzzle.solution)
        for h, cells in enumerate(geo.houses):
            have = {flat[i] for i in cells}
            if len(have) != n:
                problems.append(f"{geo.names[h]} lacks {', '.join(sorted(set(digits) - have))}")
        problems += self.extra_problems(puzzle)
        for r in range(n):
            for c in range(n):
                g = puzzle.givens[r][c]
                if g != EMPTY and g != puzzle.solution[r][c]:
                    problems.append(f"given {g} at row {r + 1}, column {c + 1} disagrees with the solution")
        return problems

    def solutions(self, puzzle: Puzzle, limit: int = 2) -> list[tuple[str, ...]]:
        """Up to ``limit`` solutions by the exact SAT solver."""
        n = puzzle.size
        found = solutions(self.geometry_of(puzzle), givens_of(puzzle), limit, self.clauses_of(puzzle))
        return [tuple("".join(symbol(d) for d in flat[r * n:(r + 1) * n]) for r in range(n)) for flat in found]

    def _ladder(self, puzzle: Puzzle, explain: bool) -> LadderResult:
        return run_ladder(self.geometry_of(puzzle), givens_of(puzzle), Level.EXPERT, explain,
                          extra=self.extra_of(puzzle))

    def grade_of(self, res: LadderResult, n: int) -> Grade:
        """The grade a ladder run gives: level, score and technique counts."""
        tiers = {t.name: t.level for t in self.techniques}
        return Grade(res.level, score_of(res.counts, res.level, n, self.weights, tiers),
                     dict(sorted(res.counts.items())), res.solved)

    def grade(self, puzzle: Puzzle) -> Grade:
        """Hardest technique the ladder needed, a score, and technique counts."""
        return self.grade_of(self._ladder(puzzle, False), puzzle.size)

    def explain(self, puzzle: Puzzle) -> tuple[list[Step], tuple[str, ...], bool]:
        """The ladder's steps, the grid it reached, and whether it is solved."""
        res = self._ladder(puzzle, True)
        return list(res.steps or []), res.grid, res.solved

    def techniques_for(self, rules: Mapping[str, Any]) -> tuple[Technique, ...]:
        """Every technique serves every rule set of these variants."""
        return self.techniques

    def smallest_type(self, size: int, rules: Mapping[str, Any]) -> float:
        """The digits' font size in cells: the only type set in these grids."""
        return DIGIT_CAP / CAP_HEIGHT

    # --- drawing and text -------------------------------------------------------------

    def shade_givens(self, pen: Pen, puzzle: Puzzle) -> None:
        """The grey behind every given, drawn before any line."""
        n = puzzle.size
        for r in range(n):
            for c in range(n):
                if puzzle.givens[r][c] != EMPTY:
                    pen.rect(c, r, 1, 1, fill=GIVEN_FILL)

    def draw_digits(self, pen: Pen, puzzle: Puzzle, solved: bool) -> None:
        """Givens bold; with ``solved`` the rest of the solution, lighter (partial in walkthroughs)."""
        n = puzzle.size
        for r in range(n):
            for c in range(n):
                g = puzzle.givens[r][c]
                if g != EMPTY:
                    pen.text(c + 0.5, r + 0.5, printed(g), DIGIT_CAP, bold=True, anchor=CENTER)
                elif solved and puzzle.solution[r][c] != EMPTY:
                    pen.text(c + 0.5, r + 0.5, printed(puzzle.solution[r][c]), DIGIT_CAP, anchor=CENTER,
                             grey=ANSWER_GREY)

    def symbol_text(self, symbol: str, ascii: bool = False) -> str:
        """A digit prints as itself."""
        return symbol


def givens_of(puzzle: Puzzle) -> list[tuple[int, int]]:
    """(cell index, digit) of every given."""
    n = puzzle.size
    return [(r * n + c, value(ch)) for r, row in enumerate(puzzle.givens) for c, ch in enumerate(row) if ch != EMPTY]


def digit_rows(given: Sequence[bool] | None, sol: Sequence[int], n: int) -> tuple[str, ...]:
    """Row strings of ``sol`` (flat digits), ``.`` where ``given`` is False."""
    return tuple("".join(symbol(sol[r * n + c]) if given is None or given[r * n + c] else EMPTY
                         for c in range(n)) for r in range(n))


def check_digits(rows: Sequence[Sequence[str]], row_lines: Sequence[Any], n: int, title: str,
                 error: Any, file: str) -> None:
    """A text grid's digits must be 1..n: ``error`` (PuzzleTextError) names the first that isn't."""
    for cells, line in zip(rows, row_lines):
        for ch in cells:
            if ch != EMPTY and value(ch) > n:
                raise error(file, line.number, None, f"digit {printed(ch)} in a {n}\u00d7{n} {title}, "
                            f"whose digits are 1 to {n}" + (f" ({symbols(n)[-1]} = {n})" if n > 9 else ""))


def printed(ch: str) -> str:
    """How a cell's symbol prints on the page: its number (``G`` prints ``16``). Numbers read
    as themselves to a player ("each number from 1 to 16"), where letters beside digits
    invite B/8, D/0 and G/6 mix-ups; two digits at the usual cap height take 0.71 of a
    cell's width (DejaVu Sans Bold, ink only), so they keep the same type (docs/big-sudoku.md)."""
    return str(value(ch)) if ch != EMPTY else ch
