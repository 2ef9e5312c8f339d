"""Sudoku (and Sudoku X with ``diagonal: true``).

Rules: fill an N x N grid (N = 4, 6, 8, 9, 12 or 16) so that every row, every
column and every box (2x2, 2x3, 2x4, 3x3, 3x4 or 4x4 cells: R rows by C
columns, R x C = N) holds each digit 1..N exactly once. With ``diagonal: true`` (Sudoku X) both
main diagonals hold every digit once too.

Representation: a ``Puzzle`` with ``variant="sudoku"``, givens as N row
strings of symbols and ``.``, the solution as N symbol strings (one character
a cell: ``1``..``9``, then ``A`` = 10 .. ``G`` = 16; pages print the numbers
10..16, see ``housegrid.printed``), and rules
``{"box": (R, C), "diagonal": bool}`` (the box is fixed by the size; JSON
writes it as a list). Solving, grading and counting are the house engine
(``bookgen.solve.houses``): rows and columns of a Latin square plus the
boxes and, for Sudoku X, the diagonals as extra houses.

Techniques by tier (the house ladder, ``bookgen.solve.houses.LADDER``, with
each technique's Sudoku Explainer value; docs/grading.md lists them):
- easy: hidden singles in a box, hidden singles in a row, column or
  diagonal, naked singles;
- medium: locked candidates (pointing and claiming), confined candidates
  (Sudoku X: a digit with two or three places on a diagonal leaves every cell
  that sees them all), naked and hidden pairs;
- hard: X-wing, naked triples, Swordfish, hidden triples, XY-wing, XYZ-wing,
  W-wing, unique rectangles and unique loops (they assume one solution), naked quads,
  Jellyfish, hidden quads, BUG+1, Skyscraper, two-string kite, turbot fish (also grouped);
- expert: simple colouring, X-chains, almost locked sets, XY-chains, forcing chains, then one
  trial on a two-candidate cell refuted by the tiers above; never nested.

Generation: a random full grid (depth first, fewest candidates first, digits
in random order), then givens are removed in random order: first every
given the others give back at once by a single, then (above easy) every
given the target tier's techniques still recover; at expert, a given the
hard tier can't recover may also go when one trial on it does (a few per
puzzle, taken during the carve while the board is rich enough to stay
unique). A 9x9 puzzle aimed at a rating inside its level's band (``options["aim"]``,
``bookgen.core.rating.aims``: beginner and easy) is carved on past the singles while singles
still solve, to that rating (``bookgen.solve.rated.carve_to_rating``; with ``Aim.floor``, to
the floor's rating where its grid's carve never reaches the aim). A 9x9 puzzle aimed
above the expert carve (``extreme``, SE 7.5 and up: ``Aim.climb``) is carved at expert, then
climbed there by moving its givens on the same grid (``bookgen.solve.harden``), from up to
``CLIMB_ATTEMPTS`` grids a seed. The result is kept only when the ladder grades it exactly at
the target level (a climbed puzzle: on one trial at most), and the SAT solver proves it unique.
"""

from __future__ import annotations

import random
from typing import Any, Iterator, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import C_, N_
from bookgen.core.rules import box_rule
from bookgen.core.pen import BOLD, THIN, Pen
from bookgen.core.text import PuzzleTextError
from bookgen.core.text import TextLine as _Line
from bookgen.core.text import rules_at as _rules
from bookgen.core.text import square as _square
from bookgen.core.types import EMPTY, GenerationError, Puzzle, Size
from bookgen.core.variant import Extent, Technique, rule_options, techniques_of
from bookgen.solve.houses import (
    TECHNIQUE_LEVEL, Geometry, carve, fits, geometry, random_filling, run_ladder,
)
from bookgen.solve.harden import harden
from bookgen.solve.latin import SYMBOLS
from bookgen.solve.rated import carve_to_rating
from bookgen.variants.gridparts import given_count
from bookgen.variants.housegrid import ADVANCED_TECHNIQUE_TEXT, HOUSE_TEXT, TWO_DIGITS, Draft, HouseGrid, check_digits, check_grids, digit_rows

BOXES: dict[int, tuple[int, int]] = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4), 16: (4, 4)}
SIZES: tuple[int, ...] = tuple(BOXES)
ATTEMPTS = 300         # fresh grids per puzzle before giving up (9x9 hard: about 1 in 9 grades hard)
FILL_BUDGET = 20000    # search nodes for one random full grid
EXPERT_EXTRA = 4       # givens at most that only a trial brings back, at expert
CLIMB_ATTEMPTS = 12    # grids one extreme puzzle's seed climbs from (3 in 10 miss: 12 all miss about 1 in 10^6)
CLIMBED_TRIALS = 1     # trials at most in the ladder's solve of a climbed (extreme) puzzle
AIM_TRIES = 8          # grids tried at a puzzle's step of its level's ramp before it takes any rating in its band
DIAGONAL_GAP = 0.27    # of a Sudoku X diagonal: how far into a cell each corner's stroke reaches
# The hardest level each size reaches reliably (measured with bench/bench_sudoku.py).
MAX_LEVEL: dict[tuple[int, bool], Level] = {
    (4, False): Level.EASY, (4, True): Level.EASY,
    (6, False): Level.EASY,  # 0 mediums in 200 minimal 6x6 grids; with diagonals all levels occur
}

TECHNIQUE_TEXT: dict[str, tuple[str, str]] = {
    "hidden_single_box": (N_("Hidden singles in a box"), N_("A digit that fits in only one cell of a box goes there: "
                          "the first thing to look for.")),
    "naked_single": (N_("Naked singles"), N_("A cell whose row, column and box already hold every other digit takes the one left.")),
    "hidden_single": (N_("Hidden singles"), N_("A digit that fits in only one cell of a row, column or box goes there.")),
    "locked_candidates": (N_("Locked candidates"), N_("If a digit of a box can only go in one row (or column), the rest of that row can't have it; "
                          "and if a digit of a row can only go in one box, the rest of that box can't.")),
    "naked_pair": (N_("Naked pairs"), N_("Two cells of a row, column or box that can only hold the same two digits take them both: no other cell there can.")),
    "confined_candidates": (N_("Confined candidates"), N_("A digit that can only go in two or three cells of a house "
                            "(a diagonal, say) can't be in any cell that sees all of them.")),
    "hidden_pair": (N_("Hidden pairs"), N_("Two digits that fit only in the same two cells of a row, column or box fill them: those cells hold nothing else.")),
    "naked_triple": (N_("Naked triples"), N_("The same with three cells that hold only three digits between them.")),
    "hidden_triple": (N_("Hidden triples"), N_("The same with three digits confined to three cells of a row, column or box.")),
    "x_wing": (N_("X-wing"), N_("A digit that fits only in the same two columns of two rows fills those four corners two ways; "
               "either way the rest of both columns can't have it (and the same with rows and columns swapped).")),
    "xy_wing": (N_("XY-wing"), N_("A cell with two candidates xy sees a cell xz and a cell yz: whichever it is, one of them is z, "
                "so a cell that sees both can't be z.")),
    **ADVANCED_TECHNIQUE_TEXT,
    "trial": HOUSE_TEXT["trial"],
}


# The title in the grammatical cases sentences need (the catalogs inflect it: ``i18n.name_forms``).
NAME_CASES = (C_("gen", "Sudoku"), C_("acc", "Sudoku"))

class SudokuVariant(HouseGrid):
    """Sudoku on 4x4 to 9x9 grids, optionally with both diagonals (Sudoku X); stateless."""

    name = "sudoku"
    relabel = True  # the digits are only labels: any permutation is the same puzzle
    aliases: tuple[str, ...] = ("classic-sudoku",)
    title = N_("Sudoku")
    rules_text: tuple[str, ...] = (
        N_("Fill the grid so that every row, every column and every bold box holds each digit exactly once."),
        N_("Some digits are given; they can't be changed."),
        N_("Each puzzle has exactly one solution, reachable by logic alone."),
    )
    diagonal_rule = N_("Sudoku X: both long diagonals, marked in the grid, also hold each digit once.")
    techniques: tuple[Technique, ...] = techniques_of(TECHNIQUE_TEXT, TECHNIQUE_LEVEL)
    sizes: tuple[int, ...] = SIZES
    default_size = 9
    rule_help = {  # what each rule option means, for the config reference (docs/config.md)
        "diagonal": "true: both long diagonals also hold every digit once "
                    "(Sudoku X; drawn as two thin diagonal lines)",
        "box": "set by the size (4: 2×2, 6: 2×3, 8: 2×4, 9: 3×3, 12: 3×4, 16: 4×4); "
               "may be written only with that value",
    }
    kind = "Sudoku"
    attempts = ATTEMPTS

    # --- rules ----------------------------------------------------------------------

    def parse_rules(self, raw: Mapping[str, Any] | None, size: int) -> dict[str, Any]:
        """Complete and check the rule options; ``ValueError`` with a one-line message.

        ``box`` is fixed by the size; a box that belongs to another Sudoku size
        (a section listing several sizes) is replaced by this size's box.
        """
        problem = self._size_problem(size)
        if problem:
            raise ValueError(problem)
        raw = rule_options(raw, "Sudoku", ("box", "diagonal"), "diagonal (or box)")
        diagonal = raw.get("diagonal", False)
        if type(diagonal) is not bool:
            raise ValueError(f"diagonal must be true or false, got {diagonal!r}")
        box = BOXES[size]
        if "box" in raw:
            got = raw["box"]
            ok = isinstance(got, (list, tuple)) and len(got) == 2 and all(type(x) is int for x in got)
            if not ok or (tuple(got) != box and tuple(got) not in BOXES.values()):
                raise ValueError(f"a {size}\u00d7{size} Sudoku has boxes of {box[0]}\u00d7{box[1]} cells "
                                 f"(box: [{box[0]}, {box[1]}]), not {got!r}")
        return {"box": box, "diagonal": diagonal}

    def rules_for(self, rules: Mapping[str, Any], sizes: Sequence[int] = ()) -> tuple[str, ...]:
        """The rule sentences for these options (Sudoku X adds the diagonals), naming the
        digits and box shape of each of ``sizes``."""
        lines = list(self.rules_text)
        if sizes:
            lines[0] = box_rule(sizes, BOXES)
        if rules.get("diagonal"):
            lines.insert(1, self.diagonal_rule)
        return tuple(lines)

    def banded_levels(self, size: Size, rules: Mapping[str, Any]) -> bool:
        """Classic 9x9 Sudoku: its levels are Sudoku Explainer bands (docs/calibration.md,
        60 puzzles a level). Other sizes and Sudoku X are not calibrated: their expert
        puzzles need forcing chains (SE 8 and up) that no 9x9 expert of ours needs."""
        return size == 9 and not rules.get("diagonal")

    def climbs(self, size: Size, rules: Mapping[str, Any]) -> bool:
        """Classic 9x9 Sudoku, the calibrated one: ``extreme`` (SE 7.5 and up) and ranges up
        there are expert carves climbed on (``bookgen.solve.harden``; measured against SE in
        docs/calibration.md)."""
        return self.banded_levels(size, rules)

    def top_level(self, size: int, rules: Mapping[str, Any]) -> Level:
        """The hardest level a size reaches reliably, with or without the diagonals."""
        return MAX_LEVEL.get((size, bool(rules.get("diagonal"))), Level.EXPERT)

    def kind_of(self, rules: Mapping[str, Any]) -> str:
        return "Sudoku X" if rules.get("diagonal") else "Sudoku"

    def techniques_for(self, rules: Mapping[str, Any]) -> tuple[Technique, ...]:
        """Every technique but confined candidates, which only diagonals need (in boxes, rows
        and columns it is locked candidates)."""
        if rules.get("diagonal"):
            return self.techniques
        return tuple(t for t in self.techniques if t.name != "confined_candidates")

    # --- generation -----------------------------------------------------------------

    def drafts(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
               options: Mapping[str, Any]) -> Iterator[Draft | None]:
        """The tries at one puzzle; one aimed at a step of its level's ramp (``options["aim"]``,
        an ``Aim``) tries ``AIM_TRIES`` grids at that step, then aims at its whole band."""
        aim = options.get("aim")
        if aim is not None and aim.climb:  # a bounded search: out of it, the next seed
            for _ in range(CLIMB_ATTEMPTS):
                yield self.attempt(size, rules, level, rng, options)
            raise GenerationError(f"could not climb a {size}\u00d7{size} {self.kind_of(rules)} to a rating in "
                                  f"[{aim.low:g}, {aim.high:g}) from {CLIMB_ATTEMPTS} grids; try another seed or a "
                                  "lower level")
        for k in range(self.attempts):
            if aim is not None and k == AIM_TRIES:
                options = {**options, "aim": aim.widened()}
            yield self.attempt(size, rules, level, rng, options)

    def attempt(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
                options: Mapping[str, Any]) -> Draft | None:
        """A random full grid, carved while the level's tier still solves it (at easy, with an
        ``aim``, on to the rating it aims at: ``carve_to_rating``), then graded."""
        geo = _geometry(size, rules)
        sol = random_filling(geo, rng, FILL_BUDGET)
        if sol is None:
            return None
        aim = options.get("aim")
        climb = aim is not None and aim.climb
        if aim is not None and level == Level.EASY:
            aimed = carve_to_rating(geo, sol, rng, aim.low, aim.high, aim.depth, floor=aim.floor)
            if aimed is None:
                return None
            given = aimed
        else:
            given, _ = carve(geo, sol, level, rng, EXPERT_EXTRA)
        if climb:  # above the carve's band: climbed on from its puzzle, the grid kept
            climbed = harden(geo, sol, given, rng, aim.low, aim.high)
            if climbed is None:
                return None
            given = climbed
        givens = [(i, sol[i]) for i in range(size * size) if given[i]]
        res = run_ladder(geo, givens, Level.EXPERT)
        if not fits(res, level, CLIMBED_TRIALS if climb else None):
            return None
        puzzle = Puzzle(self.name, size, rules, digit_rows(given, sol, size), digit_rows(None, sol, size))
        return Draft(puzzle, res, geo, givens, [], sol)

    # --- the house engine's hooks ---------------------------------------------------

    def geometry_of(self, puzzle: Puzzle) -> Geometry:
        """Rows, columns, boxes and (Sudoku X) the diagonals."""
        return _geometry(puzzle.size, puzzle.rules)

    # --- drawing --------------------------------------------------------------------

    def extent(self, size: int, rules: Mapping[str, Any]) -> Extent:
        """An N x N grid; past 9x9 its two-digit numbers need a larger answer-key cell."""
        return Extent(size, size, key_scale=1 / TWO_DIGITS if size > 9 else 1.0)

    def draw(self, pen: Pen, puzzle: Puzzle, solved: bool = False) -> None:
        """Shaded givens, thin cell lines, bold box lines and frame, diagonals for Sudoku X."""
        n = puzzle.size
        rows, cols = BOXES[n]
        self.shade_givens(pen, puzzle)
        if puzzle.rules.get("diagonal"):
            draw_diagonals(pen, n)
        for k in range(1, n):
            pen.line(k, 0, k, n, BOLD if k % cols == 0 else THIN)
            pen.line(0, k, n, k, BOLD if k % rows == 0 else THIN)
        pen.rect(0, 0, n, n, stroke=BOLD)
        self.draw_digits(pen, puzzle, solved)

    # --- JSON -----------------------------------------------------------------------

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """``{"rules": {"box": [R, C], "diagonal": false}}``."""
        return {"rules": {"box": list(puzzle.rules["box"]), "diagonal": puzzle.rules["diagonal"]}}

    def from_json(self, data: Mapping[str, Any]) -> Puzzle:
        """Rebuild a puzzle from a book JSON entry; ``ValueError`` says what is malformed."""
        size = data.get("size")
        if type(size) is not int or size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(map(str, SIZES))}, got {size!r}")
        raw_rules = data.get("rules")
        if isinstance(raw_rules, Mapping) and "box" in raw_rules and \
                (not isinstance(raw_rules["box"], (list, tuple)) or tuple(raw_rules["box"]) != BOXES[size]):
            box = BOXES[size]
            raise ValueError(f"a {size}\u00d7{size} Sudoku has boxes [{box[0]}, {box[1]}], not {raw_rules['box']!r}")
        rules = self.parse_rules(raw_rules, size)
        givens, solution = data.get("givens"), data.get("solution")
        check_grids(givens, solution, size)
        return Puzzle(self.name, size, rules, tuple(givens), tuple(solution))

    # --- text (``bookgen solve``) ------------------------------------------------------

    def sniff_text(self, text: str) -> int:
        """Digits 2..9 in a grid say Sudoku (a legend with ``:`` says KenKen first)."""
        return 20 if any(ch in text for ch in "23456789") else 0

    def parse_text(self, lines: Sequence[_Line], options: dict[str, Any], header: _Line | None,
                   file: str) -> Puzzle:
        """Rows of digits with ``.`` (or ``0``) for an empty cell; ``|`` and rule lines are ignored."""
        rows: list[list[str]] = []
        row_lines: list[_Line] = []
        for line in lines:
            if all(ch in "-+|=_ " for ch in line.text):
                continue  # a box rule such as ------+-------+------
            cells = []
            for k, ch in enumerate(line.text):
                if ch.isspace() or ch == "|":
                    continue
                if ch in "0.":
                    cells.append(EMPTY)
                elif ch in SYMBOLS:
                    cells.append(ch)
                else:
                    raise PuzzleTextError(file, line.number, k + 1, f"unknown symbol {ch!r}; Sudoku cells "
                                          "are digits (A to G for 10 to 16), or . (or 0) for an empty cell")
            rows.append(cells)
            row_lines.append(line)
        if not rows:
            raise PuzzleTextError(file, lines[0].number, None, "no grid rows found")
        n = _square(rows, row_lines, SIZES, self.title, file)
        check_digits(rows, row_lines, n, self.title, PuzzleTextError, file)
        rules = _rules(self, options, n, header, file)
        blank = tuple(EMPTY * n for _ in range(n))
        return Puzzle(self.name, n, rules, tuple("".join(r) for r in rows), blank)

    def to_text(self, puzzle: Puzzle) -> str:
        """The puzzle in the text format ``parse_text`` reads (header line included)."""
        head = self.name + (" diagonal=true" if puzzle.rules.get("diagonal") else "")
        return head + "\n" + "\n".join(self.text_lines(puzzle, puzzle.givens, ascii=True)) + "\n"

    def text_lines(self, puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
        """``rows`` with ``|`` between boxes and a rule line between bands of boxes."""
        n = puzzle.size
        box_rows, box_cols = BOXES[n]
        out = []
        for r, row in enumerate(rows):
            if r and r % box_rows == 0:
                out.append("-+-".join("-" * (2 * box_cols - 1) for _ in range(n // box_cols)))
            out.append(" | ".join(" ".join(row[c:c + box_cols]) for c in range(0, n, box_cols)))
        return out

    def clue_counts(self, puzzle: Puzzle) -> list[str]:
        """``30 givens`` (and ``diagonals`` for Sudoku X)."""
        parts = [f"{given_count(puzzle.givens)} givens"]
        if puzzle.rules.get("diagonal"):
            parts.append("diagonals")
        return parts


def draw_diagonals(pen: Pen, n: int) -> None:
    """Both main diagonals of an N x N grid, for every variant with Sudoku X's rule. They run
    corner to corner in every diagonal cell, but stop short of the middle where the digit
    goes, so no digit is struck through."""
    g = DIAGONAL_GAP
    for k in range(n):
        pen.line(k, k, k + g, k + g, THIN)
        pen.line(k + 1 - g, k + 1 - g, k + 1, k + 1, THIN)
        pen.line(n - k, k, n - k - g, k + g, THIN)
        pen.line(n - k - 1 + g, k + 1 - g, n - k - 1, k + 1, THIN)


def _geometry(n: int, rules: Mapping[str, Any]) -> Geometry:
    return geometry(n, BOXES[n], bool(rules.get("diagonal")))


SUDOKU = SudokuVariant()
