"""What the house-engine variants share (Sudoku, Sudoku X, Futoshiki, Killer).

A subclass says which houses a puzzle has (``geometry_of``), which extra
constraints plug into the ladder (``extra_of``, ``clauses_of``) and how they
are checked and drawn; checking, exact counting, grading, explaining and the
common parts of drawing and text are here, once.

Generation is one skeleton (``generate``): rules parsed, the request checked
(``check_request``, with ``never_harder`` for the sizes whose grids never
reach a level), then attempts, each one a variant's own fill, carve and grade
(``attempt``: a ``Draft`` the ladder grades exactly at the level, or None),
and the first draft proven unique by SAT before it ships.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_
from bookgen.core.rating import RatedStep, minutes_of, rating_of
from bookgen.core.pen import BOLD, CAP_HEIGHT, CENTER, THIN, Pen
from bookgen.core.symmetry import Symmetry, grid_fingerprint
from bookgen.core.types import EMPTY, GenerationError, Grade, Puzzle
from bookgen.core.variant import Step, Technique, VariantDefaults
from bookgen.solve.houses import LADDER, NO_EXTRA, Extra, Geometry, LadderResult, run_ladder, score_of
from bookgen.solve.latin_sat import Group, Numbered, proves_unique, solutions
from bookgen.solve.rated import rated_run
from bookgen.variants.gridparts import given_problems, shape_problems
from bookgen.solve.latin import symbol, symbols, value

GIVEN_FILL = 0.88      # grey behind printed givens: tells them from handwriting
ANSWER_GREY = 0.3      # solved-in digits, lighter than the givens
DIGIT_CAP = 0.42       # a digit's cap height, in cells


# The house ladder's rows carry the texts worded for any houses (rows, columns, boxes, regions,
# diagonals): the techniques past XY-wing and the trial. Every house variant lists the advanced
# ones its rules use, in the order of the how-to page (each "The same ..." follows the one it
# builds on), which is not the driver's.
# (All but the Skyscraper's: its title is a puzzle's name too, which no module outside
# ``variants/`` says, tests/test_shape.py.)
HOUSE_TEXT: dict[str, tuple[str, str]] = {
    **{t.name: (t.title, t.description) for t in LADDER.explained},
    "skyscraper_pattern": (N_("Skyscraper"), N_("A digit with two places in each of two rows, one end of each in the same column: a cell that sees both other ends can't hold it.")),
}
ADVANCED = ("swordfish", "xyz_wing", "w_wing", "unique_rectangle", "unique_loop", "naked_quad", "jellyfish",
            "hidden_quad", "bug", "skyscraper_pattern", "two_string_kite", "turbot_fish", "grouped_turbot",
            "simple_colouring", "x_chain", "als_wing", "xy_chain", "forcing_chain")
ADVANCED_TECHNIQUE_TEXT: dict[str, tuple[str, str]] = {key: HOUSE_TEXT[key] for key in ADVANCED}
# Those a Latin square with no boxes (and signs or clues beside it) can use.
# (no two-string kite: without boxes a row's end and a column's end never see each other)
LATIN_ADVANCED = ("swordfish", "xyz_wing", "w_wing", "naked_quad", "jellyfish", "hidden_quad", "skyscraper_pattern",
                  "simple_colouring", "x_chain", "als_wing", "xy_chain", "forcing_chain")


# The house techniques of a Latin square without boxes (rows and columns), worded once for
# every such variant's how-to page (Futoshiki, Skyscrapers); a variant splices its own in.
LATIN_TECHNIQUE_TEXT: dict[str, tuple[str, str]] = {
    "naked_single": (N_("Naked singles"), N_("A cell whose row and column already hold every other digit takes the one left.")),
    "hidden_single": (N_("Hidden singles"), N_("A digit that fits in only one cell of a row or column goes there.")),
    "naked_pair": (N_("Naked pairs"), N_("Two cells of a row or column that can only hold the same two digits take them both.")),
    "hidden_pair": (N_("Hidden pairs"), N_("Two digits that fit only in the same two cells of a row or column fill them.")),
    "naked_triple": (N_("Naked triples"), N_("The same with three cells that hold only three digits between them.")),
    "hidden_triple": (N_("Hidden triples"), N_("The same with three digits confined to three cells.")),
    "x_wing": (N_("X-wing"), N_("A digit that fits only in the same two columns of two rows takes both of those columns there, "
               "so the rest of both columns can't have it (and the other way round).")),
    "xy_wing": (N_("XY-wing"), N_("A cell that is x or y sees a cell x-or-z and a cell y-or-z: one of them is z, so a cell that sees both can't be z.")),
    **{key: text for key, text in ADVANCED_TECHNIQUE_TEXT.items() if key in LATIN_ADVANCED},
    "trial": HOUSE_TEXT["trial"],
}


def technique_texts(own: Sequence[Technique], after: dict[str, str]) -> dict[str, tuple[str, str]]:
    """``LATIN_TECHNIQUE_TEXT`` in its order with the texts of ``own`` (a constraint's ladder
    rows: ``Ladder.explained``) spliced in, each right after the house technique ``after``
    names for it (the order the how-to page lists them in)."""
    out: dict[str, tuple[str, str]] = {}
    for key, text in LATIN_TECHNIQUE_TEXT.items():
        out[key] = text
        out.update({t.name: (t.title, t.description) for t in own if after[t.name] == key})
    return out


@dataclass(frozen=True)
class Draft:
    """A puzzle an attempt made and the ladder graded exactly at the level asked for; it
    ships once SAT proves ``solution`` its only one (``givens`` and ``clauses`` on ``geo``)."""

    puzzle: Puzzle
    result: LadderResult
    geo: Geometry
    givens: Sequence[tuple[int, int]]
    clauses: Sequence[Sequence[int]]
    solution: Sequence[int]
    # Clause groups that recur between puzzles: ``latin_sat.proves_unique``'s ``groups``.
    groups: Sequence[Group] = ()
    # Clauses their maker numbers itself (``latin_sat.proves_unique``'s ``numbered``).
    numbered: Numbered | None = None


class HouseGrid(VariantDefaults):
    """Base class of digit grids solved by the house engine; subclasses fill in the hooks."""

    name = ""
    kind = ""  # the puzzle's name in messages ("Sudoku"); ``kind_of`` may add the rules
    weights: Mapping[str, float] = {}  # score weights of the extra constraints' techniques
    attempts = 100  # ``attempt`` calls per puzzle before giving up

    relabel = False  # whether any permutation of the digits is the same puzzle (Sudoku)
    # An easy puzzle's rated run on one integer of pairs (``rated.strikes_run``), where the
    # variant has one: ``easy_rated(geometry, givens, extra)``, None where it hands the run back
    # (a harder row's turn); ``rated_run`` is the plain version it must equal.
    easy_rated: Callable[[Geometry, Sequence[tuple[int, int]], Extra], tuple[list[RatedStep], bool] | None] | None = None
    sizes: tuple[int, ...] = ()
    max_level: Mapping[int, Level] = {}  # the hardest level a size reaches reliably (measured)

    # --- rules and requests, for variants without rule options (Sudoku's have some) ----

    def _size_problem(self, size: int) -> str | None:
        if size not in self.sizes:
            lo, hi = min(self.sizes), max(self.sizes)
            listing = (f"from {lo} to {hi}" if len(self.sizes) == hi - lo + 1
                       else "one of " + ", ".join(map(str, self.sizes)))
            return f"{self.title} size must be {listing}, not {size}"
        return None

    def parse_rules(self, raw: Mapping[str, Any] | None, size: int) -> dict[str, Any]:
        """No rule options; ``ValueError`` names any given, or a size out of range."""
        problem = self._size_problem(size)
        if problem:
            raise ValueError(problem)
        if raw and not isinstance(raw, Mapping):
            raise ValueError(f"{self.title} rules must be a mapping of options")
        if raw:
            raise ValueError(f"unknown {self.title} rule option {sorted(map(str, raw))[0]!r}; "
                             f"{self.title} has none")
        return {}

    def rules_for(self, rules: Mapping[str, Any], sizes: Sequence[int] = ()) -> tuple[str, ...]:
        """The rule sentences (no options change them)."""
        return self.rules_text

    def check_request(self, size: int, rules: Mapping[str, Any], level: Level) -> str | None:
        """Why this request can't be generated reliably (a size out of range, a level above
        what the size reaches), or None."""
        problem = self._size_problem(size)
        if problem:
            return problem
        return self.never_harder(size, rules, level, self.top_level(size, rules))

    def top_level(self, size: int, rules: Mapping[str, Any]) -> Level:
        """The hardest level ``size`` reaches reliably under ``rules`` (measured)."""
        return self.max_level.get(size, Level.EXPERT)

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

    def attempt(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
                options: Mapping[str, Any]) -> Draft | None:
        """One try at a puzzle: fill, carve and grade; None when it didn't grade ``level``."""
        raise NotImplementedError

    def drafts(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
               options: Mapping[str, Any]) -> Iterator[Draft | None]:
        """The ``attempts`` tries at one puzzle, in order; a variant whose tries share
        something (Jigsaw: a region layout serves several) keeps it here."""
        for _ in range(self.attempts):
            yield self.attempt(size, rules, level, rng, options)

    def kind_of(self, rules: Mapping[str, Any]) -> str:
        """The puzzle's name in messages, for these rules."""
        return self.kind

    def budget_text(self) -> str:
        """What ``attempts`` counts, for the message when they run out."""
        return f"{self.attempts} attempts"

    # --- generation -----------------------------------------------------------------

    def never_harder(self, size: int, rules: Mapping[str, Any], level: Level, top: Level) -> str | None:
        """The refusal of a level above ``top``, the hardest this size reaches reliably."""
        if level <= top:
            return None
        return (f"a {size}\u00d7{size} {self.kind_of(rules)} is never harder than {top.key}; "
                "choose a larger size or an easier level")

    def generate(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
                 options: Mapping[str, Any] | None = None) -> Puzzle:
        """A unique puzzle graded exactly ``level``; ``GenerationError`` when out of budget."""
        rules = self.request_rules(size, rules, level)
        for draft in self.drafts(size, rules, level, rng, options or {}):
            if draft is None:
                continue
            # The proof, independent of the ladder (which is sound: a failure is an engine bug).
            if not self.proves(draft):
                raise AssertionError(f"ladder-solved {self.kind_of(rules)} is not unique: engine bug")
            return replace(draft.puzzle, grade=self.rate(draft.puzzle, self.grade_of(draft.result, size)))
        article = "an" if level.key[0] in "aeiou" else "a"
        raise GenerationError(
            f"could not make {article} {level.key} {size}\u00d7{size} {self.kind_of(rules)} in "
            f"{self.budget_text()}; try another seed, a lower level or a larger grid")

    def proves(self, draft: Draft) -> bool:
        """Whether ``draft.solution`` is the draft's only solution, by an exact solver: SAT
        (``proves_unique``); a variant with a faster exact count may answer instead."""
        return proves_unique(draft.geo, draft.givens, draft.solution, draft.clauses, groups=draft.groups,
                             numbered=draft.numbered)

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

    def json_grids(self, data: Mapping[str, Any]) -> tuple[int, dict[str, Any], Any, Any]:
        """The size, rules, givens and solution of a book JSON entry, each checked (a size of
        this variant, its rule options, two grids of its digits); ``ValueError`` says what is
        malformed. A variant's ``from_json`` reads its own clues on from there."""
        size = data.get("size")
        if type(size) is not int or size not in self.sizes:
            raise ValueError(f"size must be a whole number from {min(self.sizes)} to {max(self.sizes)}, "
                             f"got {size!r}")
        rules = self.parse_rules(data.get("rules"), size)
        givens, solution = data.get("givens"), data.get("solution")
        check_grids(givens, solution, size)
        return size, rules, givens, solution

    def validate(self, puzzle: Puzzle) -> list[str]:
        """Every house the solution breaks, other broken constraints, givens that disagree."""
        n = puzzle.size
        digits = symbols(n)
        problems = shape_problems(puzzle.solution, n, digits, "solution")
        problems += shape_problems(puzzle.givens, n, digits + EMPTY, "givens")
        if problems:
            return problems
        geo = self.geometry_of(puzzle)
        flat = "".join(puzzle.solution)
        for h, cells in enumerate(geo.houses):
            have = {flat[i] for i in cells}
            if len(have) != n:
                problems.append(f"{geo.names[h]} lacks {', '.join(sorted(set(digits) - have))}")
        problems += self.extra_problems(puzzle)
        problems += given_problems(puzzle.givens, puzzle.solution)
        return problems

    def malformed(self, puzzle: Puzzle) -> bool:
        """Whether the clues a variant adds to the grid (regions, cages) are broken: such a
        puzzle has no solutions and grades unsolved (``validate`` says what is wrong)."""
        return False

    def solutions(self, puzzle: Puzzle, limit: int = 2) -> list[tuple[str, ...]]:
        """Up to ``limit`` solutions by the exact SAT solver (none when ``malformed``)."""
        if self.malformed(puzzle):
            return []
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
        """Hardest technique the ladder needed, a score, and technique counts (EXPERT,
        unsolved, when ``malformed``)."""
        if self.malformed(puzzle):
            return Grade(Level.EXPERT, 3.0, {}, False)
        return self.rate(puzzle, self.grade_of(self._ladder(puzzle, False), puzzle.size))

    def rating_points(self, size: Any, rules: Mapping[str, Any]) -> None:
        """None: rated by the easiest-first run, on a scale (``rating.TIER_REACH``)."""
        return None

    def rate(self, puzzle: Puzzle, grade: Grade) -> Grade:
        """``grade`` with the rating and minutes of the easiest-first run (``bookgen.solve.rated``)."""
        if not grade.solved:
            return grade
        steps = self.rated_steps(puzzle, grade)
        return replace(grade, rating=rating_of(steps), minutes=minutes_of(steps, puzzle.size ** 2))

    def rated_steps(self, puzzle: Puzzle, grade: Grade) -> list[RatedStep]:
        """The steps of the easiest-first run of a solved ``puzzle`` graded ``grade``: at easy
        ``easy_rated``'s where the variant has one and it finishes (it hands a harder run back,
        so it is asked at easy only), else ``rated_run``'s."""
        if self.easy_rated is not None and grade.level == Level.EASY:
            whole = self.easy_rated(self.geometry_of(puzzle), givens_of(puzzle), self.extra_of(puzzle))
            if whole is not None:
                return whole[0]
        return rated_run(self.geometry_of(puzzle), givens_of(puzzle), self.extra_of(puzzle))[0]

    def explain(self, puzzle: Puzzle) -> tuple[list[Step], tuple[str, ...], bool]:
        """The ladder's steps, the grid it reached, and whether it is solved."""
        res = self._ladder(puzzle, True)
        return list(res.steps or []), res.grid, res.solved

    def smallest_type(self, size: int, rules: Mapping[str, Any]) -> float:
        """The digits' font size in cells: the only type set in these grids (two-digit
        numbers, on grids past 9x9, a little smaller)."""
        return digit_cap(size) / CAP_HEIGHT

    # --- drawing and text -------------------------------------------------------------

    def shade_givens(self, pen: Pen, puzzle: Puzzle) -> None:
        """The grey behind every given, drawn before any line."""
        n = puzzle.size
        for r in range(n):
            for c in range(n):
                if puzzle.givens[r][c] != EMPTY:
                    pen.rect(c, r, 1, 1, fill=GIVEN_FILL)

    def draw_latin_grid(self, pen: Pen, puzzle: Puzzle, solved: bool) -> None:
        """A plain Latin square: shaded givens, thin cell lines, a bold frame and the digits
        (the variant draws its own clues over it)."""
        n = puzzle.size
        self.shade_givens(pen, puzzle)
        for k in range(1, n):
            pen.line(k, 0, k, n, THIN)
            pen.line(0, k, n, k, THIN)
        pen.rect(0, 0, n, n, stroke=BOLD)
        self.draw_digits(pen, puzzle, solved)

    def draw_digits(self, pen: Pen, puzzle: Puzzle, solved: bool) -> None:
        """Givens bold; with ``solved`` the rest of the solution, lighter (partial in walkthroughs)."""
        n = puzzle.size
        for r in range(n):
            for c in range(n):
                g = puzzle.givens[r][c]
                if g != EMPTY:
                    text = printed(g)
                    pen.text(c + 0.5, r + 0.5, text, digit_cap(n, text), bold=True, anchor=CENTER)
                elif solved and puzzle.solution[r][c] != EMPTY:
                    text = printed(puzzle.solution[r][c])
                    pen.text(c + 0.5, r + 0.5, text, digit_cap(n, text), anchor=CENTER, grey=ANSWER_GREY)

    def symbol_text(self, symbol: str, ascii: bool = False) -> str:
        """A digit prints as itself."""
        return symbol


def check_grids(givens: Any, solution: Any, size: int) -> None:
    """``ValueError`` naming the first problem of a JSON entry's two grids: ``size`` rows of
    ``size`` of the grid's digits (``.`` for an open cell)."""
    digits = symbols(size)
    problems = shape_problems(givens, size, digits + EMPTY, "givens")
    problems += shape_problems(solution, size, digits + EMPTY, "solution")
    if problems:
        raise ValueError(problems[0])


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


TWO_DIGITS = 0.8  # a two-digit number's cap height against a digit's: 0.57 of the cell wide, so it
                  # clears the cell's lines in the smallest answer-key cell (tests/test_keys.py)


def digit_cap(n: int, text: str = "10") -> float:
    """The cap height, in cells, of ``text`` in a grid of side ``n``: ``DIGIT_CAP``, or a
    little less for a two-digit number (grids past 9x9)."""
    return DIGIT_CAP * TWO_DIGITS if n > 9 and len(text) > 1 else DIGIT_CAP


def printed(ch: str) -> str:
    """How a cell's symbol prints on the page: its number (``G`` prints ``16``). Numbers read
    as themselves to a player ("each number from 1 to 16"), where letters beside digits
    invite B/8, D/0 and G/6 mix-ups; two digits at the usual cap height take 0.71 of a
    cell's width (DejaVu Sans Bold, ink only), so they keep the same type (docs/big-sudoku.md)."""
    return str(value(ch)) if ch != EMPTY else ch
