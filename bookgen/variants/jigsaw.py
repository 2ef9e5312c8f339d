"""Jigsaw Sudoku (irregular Sudoku), optionally with both diagonals.

Rules: fill an N x N grid (N = 5 to 9) so that every row, every column and
every region outlined in bold holds each digit 1..N exactly once. A region
is N connected cells of any shape; with ``diagonal: true`` both main
diagonals hold every digit once too.

Representation: a ``Puzzle`` with ``variant="jigsaw"``, givens and solution
as N row strings as for Sudoku, and ``regions``: N strings of N letters, one
letter per region (``A``, ``B`` ... in order of each region's first cell in
reading order). Rules ``{"diagonal": bool, "plain_regions": bool}``;
``plain_regions`` (default false) lets the generator keep a region that is
a plain rectangle (a box or a straight line), which a Jigsaw otherwise
never has. Solving, grading and counting are the house engine
(``bookgen.solve.houses``) with the regions as houses.

Techniques by tier (the Sudoku ladder, with regions where Sudoku has boxes):
- easy: naked singles, hidden singles (in a row, column or region);
- medium: locked candidates (a digit of a region confined to one row or
  column, or of a row or column confined to one region, wherever they meet
  in two or more cells), naked and hidden pairs;
- hard: naked and hidden triples, X-wing, XY-wing;
- expert: one trial on a two-candidate cell refuted by the tiers above.

Generation: random regions from the puzzle's rng (``jigsaw_regions``), a
random full grid for them by a search that places every naked and hidden
single after each guess (``solve.filling``; a layout with none, or none found
within the budget, is replaced), then Sudoku's carve, grade and SAT proof. A layout
serves up to ``FILLS_PER_LAYOUT`` grids before a new one is drawn.
"""

from __future__ import annotations

import random
from typing import Any, Iterator, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_
from bookgen.core.pen import BOLD, THIN, Pen
from bookgen.core.rules import sized_rule
from bookgen.core.symmetry import first_seen, grid_fingerprint, moved_rows
from bookgen.core.text import PuzzleTextError
from bookgen.core.text import TextLine as _Line
from bookgen.core.text import rules_at as _rules
from bookgen.core.types import EMPTY, Puzzle
from bookgen.core.variant import Technique, rule_options, techniques_of
from bookgen.solve.filling import propagated_filling
from bookgen.solve.houses import TECHNIQUE_LEVEL, Geometry, carve, fits, geometry, run_ladder
from bookgen.solve.latin import SYMBOLS, symbols
from bookgen.variants.gridparts import given_count, shape_problems
from bookgen.variants.housegrid import Draft, HouseGrid, check_digits, digit_rows
from bookgen.variants.jigsaw_regions import random_regions
from bookgen.variants.regions import (
    draw_walls, read_givens, read_region_grid, region_problems, region_rows, region_text_lines, regions_of,
)
from bookgen.variants.sudoku import TECHNIQUE_TEXT as SUDOKU_TEXT
from bookgen.variants.sudoku import draw_diagonals

SIZES: tuple[int, ...] = (5, 6, 7, 8, 9)
TEXT_CELLS = {".": EMPTY, "0": EMPTY, **{ch: ch for ch in SYMBOLS}}  # a given as puzzle text writes it
ATTEMPTS = 300         # grids per puzzle before giving up
FILLS_PER_LAYOUT = 6   # grids tried on one region layout before a new one is drawn
FILL_BUDGET = 100      # guesses for one random full grid (a layout may have none) ...
FILL_TRIES = 3         # ... and fresh searches on one layout before it is dropped (measured:
                       # 28 of 30 random 9x9 layouts filled, about 9 ms each; docs/jigsaw.md)
EXPERT_EXTRA = 4       # givens at most that only a trial brings back, at expert
OPTIONS = ("diagonal", "plain_regions")
# The hardest level each size reaches reliably (measured: docs/jigsaw.md).
# Sudoku's wording wherever it names no box; the rest says region.
TECHNIQUE_TEXT: dict[str, tuple[str, str]] = {
    **SUDOKU_TEXT,
    "hidden_single_box": (N_("Hidden singles in a region"), N_(
        "A digit that fits in only one cell of a region goes there: the first thing to look for.")),
    "naked_single": (SUDOKU_TEXT["naked_single"][0], N_(
        "A cell whose row, column and region already hold every other digit takes the one left.")),
    "hidden_single": (SUDOKU_TEXT["hidden_single"][0], N_(
        "A digit that fits in only one cell of a row, column or region goes there.")),
    "locked_candidates": (SUDOKU_TEXT["locked_candidates"][0], N_(
        "If a digit of a region can only go where the region meets one row (or column), the rest of that "
        "row can't have it; and if a digit of a row can only go in one region, the rest of that region can't.")),
    "naked_pair": (SUDOKU_TEXT["naked_pair"][0], N_(
        "Two cells of a row, column or region that can only hold the same two digits take them both: "
        "no other cell there can.")),
    "hidden_pair": (SUDOKU_TEXT["hidden_pair"][0], N_(
        "Two digits that fit only in the same two cells of a row, column or region fill them: those cells "
        "hold nothing else.")),
    "hidden_triple": (SUDOKU_TEXT["hidden_triple"][0], N_(
        "The same with three digits confined to three cells of a row, column or region.")),
}


class JigsawVariant(HouseGrid):
    """Jigsaw Sudoku on 5x5 to 9x9 grids with irregular regions; stateless."""

    name = "jigsaw"
    kind = "Jigsaw Sudoku"
    attempts = ATTEMPTS
    relabel = True  # the digits are only labels: any permutation is the same puzzle
    aliases: tuple[str, ...] = ("jigsaw-sudoku", "irregular-sudoku")
    title = N_("Jigsaw Sudoku")
    rules_text: tuple[str, ...] = (
        N_("Fill the grid so that every row, every column and every region outlined in bold holds each "
           "digit exactly once. The regions have irregular shapes."),
        N_("Some digits are given; they can't be changed."),
        N_("Each puzzle has exactly one solution, reachable by logic alone."),
    )
    techniques: tuple[Technique, ...] = techniques_of(TECHNIQUE_TEXT, TECHNIQUE_LEVEL)
    sizes: tuple[int, ...] = SIZES
    default_size = 9
    # 5x5 expert: two of three seeds failed after 4 s each (bench/sweep_estimates.py, issue 26)
    max_level = {5: Level.HARD}
    # With the diagonals, 5x5 hard failed on 3 seeds of 7 after 13-17 s of CPU each (the others
    # took 2-16 s), 6x6 expert on 4 of 4 after 32-35 s (bench/sweep_estimates.py, issue 26;
    # docs/estimates.md): a build of a few such puzzles would most likely fail after minutes
    max_level_diagonal = {5: Level.MEDIUM, 6: Level.HARD}
    rule_help = {  # what each rule option means, for the config reference (docs/config.md)
        "diagonal": "true: both long diagonals also hold every digit once (drawn as two thin diagonal lines)",
        "plain_regions": "true lets a region be a plain rectangle or a straight line (default: never)",
    }

    # --- rules ----------------------------------------------------------------------

    def parse_rules(self, raw: Mapping[str, Any] | None, size: int) -> dict[str, Any]:
        """Complete and check the rule options; ``ValueError`` with a one-line message."""
        problem = self._size_problem(size)
        if problem:
            raise ValueError(problem)
        raw = rule_options(raw, "Jigsaw Sudoku", OPTIONS, "diagonal or plain_regions")
        out = {}
        for key in OPTIONS:
            got = raw.get(key, False)
            if type(got) is not bool:
                raise ValueError(f"{key} must be true or false, got {got!r}")
            out[key] = got
        return out

    def rules_for(self, rules: Mapping[str, Any], sizes: Sequence[int] = ()) -> tuple[str, ...]:
        """The rule sentences for these options (the diagonal rule when it is on), naming the
        digits of each of ``sizes``."""
        lines = list(self.rules_text)
        if sizes:
            lines[0] = sized_rule(
                sizes,
                N_("Fill the grid so that every row, every column and every region outlined in bold holds each "
                   "of the digits 1 to {last} exactly once. The regions have irregular shapes."),
                N_("Fill the grid so that every row, every column and every region outlined in bold holds each "
                   "digit exactly once ({sizes}). The regions have irregular shapes."),
                N_("on {grid} grids the digits 1 to {last}"))
        if rules.get("diagonal"):
            lines.insert(1, N_("Both long diagonals, marked in the grid, also hold each digit once."))
        return tuple(lines)

    def top_level(self, size: int, rules: Mapping[str, Any]) -> Level:
        """The hardest level a size reaches reliably, with or without the diagonals (measured)."""
        table = self.max_level_diagonal if rules.get("diagonal") else self.max_level
        return table.get(size, Level.EXPERT)

    def kind_of(self, rules: Mapping[str, Any]) -> str:
        return "Jigsaw Sudoku with diagonals" if rules.get("diagonal") else "Jigsaw Sudoku"

    # --- generation -----------------------------------------------------------------

    def drafts(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
               options: Mapping[str, Any]) -> Iterator[Draft | None]:
        """``ATTEMPTS`` tries, a region layout serving up to ``FILLS_PER_LAYOUT`` of them
        (a layout none of whose searches found a filling is dropped at once)."""
        geo = None
        fills = 0
        for _ in range(ATTEMPTS):
            if geo is None or fills >= FILLS_PER_LAYOUT:
                regions = random_regions(size, rng, rules["plain_regions"])
                if regions is None:
                    yield None
                    continue
                # in the order the printed letters give them, so the houses are scanned as a
                # regrade of the printed puzzle scans them (the same grade, hidden singles and all)
                regions = regions_of(region_rows(regions, size))
                geo, fills = geometry(size, None, rules["diagonal"], regions), 0
            fills += 1
            sol = None
            for _ in range(FILL_TRIES):  # restarts: a search that goes astray rarely recovers
                sol = propagated_filling(geo, rng, FILL_BUDGET)
                if sol is not None:
                    break
            if sol is None:
                geo = None  # a layout with no filling found: draw another
                yield None
                continue
            yield self._graded(geo, regions, sol, size, rules, level, rng)

    def _graded(self, geo: Geometry, regions: list[list[int]], sol: list[int], size: int,
                rules: Mapping[str, Any], level: Level, rng: random.Random) -> Draft | None:
        """Sudoku's carve and grade of one filled layout; None unless it grades ``level``."""
        given, _ = carve(geo, sol, level, rng, EXPERT_EXTRA)
        givens = [(i, sol[i]) for i in range(size * size) if given[i]]
        res = run_ladder(geo, givens, Level.EXPERT)
        if not fits(res, level):
            return None
        puzzle = Puzzle(self.name, size, rules, digit_rows(given, sol, size), digit_rows(None, sol, size),
                        regions=region_rows(regions, size))
        return Draft(puzzle, res, geo, givens, (), sol)

    # --- the house engine's hooks ---------------------------------------------------

    def geometry_of(self, puzzle: Puzzle) -> Geometry:
        """Rows, columns, the regions and (with ``diagonal``) both diagonals."""
        return geometry(puzzle.size, None, bool(puzzle.rules.get("diagonal")), regions_of(puzzle.regions))

    def validate(self, puzzle: Puzzle) -> list[str]:
        """Malformed regions first; then every house the solution breaks, as for Sudoku."""
        return region_problems(puzzle.regions, puzzle.size) or super().validate(puzzle)

    def malformed(self, puzzle: Puzzle) -> bool:
        """Regions that are not N connected regions of N cells."""
        return bool(region_problems(puzzle.regions, puzzle.size))

    def fingerprint(self, puzzle: Puzzle) -> str:
        """Same for the grid's symmetries (the regions move with the grid, whatever their
        letters) and any permutation of the digits; the generator's ``plain_regions`` knob
        makes no other puzzle."""
        shown = {"diagonal": bool(puzzle.rules.get("diagonal"))}
        return grid_fingerprint(f"{self.name}/{puzzle.size}", shown, puzzle.givens, True,
                                lambda move: first_seen(moved_rows(puzzle.regions, move)))

    # --- drawing --------------------------------------------------------------------

    def draw(self, pen: Pen, puzzle: Puzzle, solved: bool = False) -> None:
        """Shaded givens, thin cell lines, bold region walls (as whole runs) and frame,
        diagonals when the rule is on, digits."""
        n = puzzle.size
        reg = puzzle.regions
        self.shade_givens(pen, puzzle)
        if puzzle.rules.get("diagonal"):
            draw_diagonals(pen, n)
        for k in range(1, n):
            pen.line(0, k, n, k, THIN)
            pen.line(k, 0, k, n, THIN)
        draw_walls(pen, reg)
        pen.rect(0, 0, n, n, stroke=BOLD)
        self.draw_digits(pen, puzzle, solved)

    # --- JSON -----------------------------------------------------------------------

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """``{"rules": {"diagonal": false, "plain_regions": false}, "regions": [N strings]}``."""
        return {"rules": {key: bool(puzzle.rules.get(key)) for key in OPTIONS}, "regions": list(puzzle.regions)}

    def from_json(self, data: Mapping[str, Any]) -> Puzzle:
        """Rebuild a puzzle from a book JSON entry; ``ValueError`` says what is malformed."""
        size = data.get("size")
        if type(size) is not int or size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(map(str, SIZES))}, got {size!r}")
        rules = self.parse_rules(data.get("rules"), size)
        givens, solution, regions = data.get("givens"), data.get("solution"), data.get("regions")
        digits = symbols(size)
        problems = shape_problems(givens, size, digits + EMPTY, "givens")
        problems += shape_problems(solution, size, digits + EMPTY, "solution")
        if not isinstance(regions, list):
            problems.append("'regions' must be a list of strings")
        else:
            problems += region_problems(regions, size)
        if problems:
            raise ValueError(problems[0])
        return Puzzle(self.name, size, rules, tuple(givens), tuple(solution), regions=tuple(regions))

    # --- text (``bookgen solve``) ------------------------------------------------------

    def sniff_text(self, text: str) -> int:
        """Never guessed: a grid of region letters could be anything, so a Jigsaw file starts
        with a ``jigsaw`` line."""
        return 0

    def parse_text(self, lines: Sequence[_Line], options: dict[str, Any], header: _Line | None,
                   file: str) -> Puzzle:
        """A grid of region letters (one letter per cell, the same for every cell of a region),
        then a grid of givens of the same size (digits, ``.`` or ``0`` for an empty cell;
        ``|`` ignored); without the second grid every cell is empty."""
        n, regions, given_lines = read_region_grid(lines, SIZES, self.title, file)
        givens = read_givens(given_lines, n, TEXT_CELLS, "digits, or . (or 0) for an empty cell", file)
        if given_lines:
            check_digits(givens, given_lines, n, self.title, PuzzleTextError, file)
        rules = _rules(self, options, n, header, file)
        blank = tuple(EMPTY * n for _ in range(n))
        return Puzzle(self.name, n, rules, tuple("".join(r) for r in givens), blank, regions=regions)

    def to_text(self, puzzle: Puzzle) -> str:
        """The puzzle in the text format ``parse_text`` reads (header line included)."""
        head = self.name + (" diagonal=true" if puzzle.rules.get("diagonal") else "")
        out = [head] + [" ".join(row) for row in puzzle.regions] + [" ".join(row) for row in puzzle.givens]
        return "\n".join(out) + "\n"

    def text_lines(self, puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
        """``rows`` with the region walls drawn as ``|`` and ``---``."""
        return region_text_lines(puzzle.regions, rows)

    def clue_counts(self, puzzle: Puzzle) -> list[str]:
        """``30 givens`` (and ``diagonals`` when the rule is on)."""
        parts = [f"{given_count(puzzle.givens)} givens"]
        if puzzle.rules.get("diagonal"):
            parts.append("diagonals")
        return parts


JIGSAW = JigsawVariant()
