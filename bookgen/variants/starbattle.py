"""Star Battle and Queens (LinkedIn's one-star Star Battle).

Rules: an N x N grid is cut into N regions outlined in bold. Place stars so that every
row, every column and every region holds exactly ``stars`` of them (1 on 5x5 to 10x10,
2 on 8x8 to 12x12), and no two stars touch, not even diagonally. Queens is the one-star
puzzle in LinkedIn's words, with a crown for a star and each region tinted with its
own light colour and, for greyscale printing, its own pattern (neighbours never share
one).

Representation: a ``Puzzle`` with ``rules = {"stars": 1 | 2}``, ``regions`` as N rows of
letters (as Jigsaw's, but regions of any size), ``solution`` rows of ``1`` (star) and
``0``, ``givens`` ``.`` except given cells (``1`` a star, ``0`` an empty cell; the
generator gives none: the regions are the clue).

Techniques by tier (``bookgen.solve.stars.LADDER``, one ordered table):
- easy: halo (the neighbours of a star are empty), full unit, last room (a unit with
  as many open cells as stars to place), band (a region confined to one row or column
  takes its stars; a line confined to one region empties the rest of the region);
- medium: squeeze (a cell whose star would leave a unit too little room is empty);
- hard: pigeonhole (k regions inside k rows or columns, and the other way round), the
  2x2 rule (two-star puzzles: a 2x2 block holds one star at most);
- expert: one trial (a star assumed in one cell, refuted by the tiers above).
"""

from __future__ import annotations

import math
import random
from typing import Any, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_
from bookgen.core.pen import BOLD, THIN, Pen
from bookgen.core.symmetry import first_seen, grid_fingerprint, moved_rows
from bookgen.core.text import TextLine as _Line
from bookgen.core.text import rules_at as _rules
from bookgen.core.types import EMPTY, GenerationError, Grade, Puzzle
from bookgen.core.variant import Step, Technique, VariantDefaults, rule_options
from bookgen.solve import stars as engine
from bookgen.variants.gridparts import and_givens, given_count, given_problems, shape_problems
from bookgen.variants.regions import (
    LETTERS, draw_walls, read_givens, read_region_grid, region_problems, region_rows, region_text_lines,
    regions_of,
)

ONE_STAR = tuple(range(5, 11))   # sizes of one-star puzzles
TWO_STARS = tuple(range(8, 13))  # sizes of two-star puzzles
ATTEMPTS = 400                   # star placements per puzzle before giving up
ANSWER_GREY = 0.3                # a star the walkthrough placed, lighter than a given one
STAR_RADIUS = 0.34               # the star's outer points, in cells
DOT_RADIUS = 0.07                # a cell marked empty (walkthroughs, given empties)
# The levels each (stars, size) reaches: lowest and highest, measured by
# ``bench/sweep_starbattle.py --reach`` (docs/starbattle.md); a level outside is refused.
# Two stars: no layout of 8x8 to 10x10 graded easy (the 2x2 rule or a pigeonhole is always
# needed); 15% of 8x8 ones graded medium, none of 38 9x9 ones. On 12x12 mending rarely
# converges (one expert puzzle took 13 s of CPU, the next over a minute): refused until the
# generator gets there in bounded time.
REACH: dict[tuple[int, int], tuple[Level, Level] | None] = {
    **{(1, n): (Level.EASY, Level.EXPERT) for n in ONE_STAR},
    (2, 8): (Level.MEDIUM, Level.EXPERT),
    **{(2, n): (Level.HARD, Level.EXPERT) for n in (9, 10, 11)},
    (2, 12): None,
}

# LinkedIn-like pastel tints, one per region (12 for the largest grid), and patterns
# for greyscale: neighbouring regions never share a pattern.
TINTS: tuple[tuple[float, float, float], ...] = (
    (0.98, 0.80, 0.62), (0.73, 0.85, 0.98), (0.80, 0.93, 0.72), (0.99, 0.93, 0.62),
    (0.87, 0.78, 0.96), (0.98, 0.75, 0.78), (0.75, 0.93, 0.90), (0.90, 0.90, 0.90),
    (0.95, 0.84, 0.95), (0.84, 0.82, 0.70), (0.70, 0.80, 0.85), (0.96, 0.88, 0.80),
)
PATTERNS = ("plain", "dots", "rows", "cols", "checks", "plus", "diamond")
PATTERN_GREY = 0.55

QUEEN_TEXT = {
    "halo": N_("The eight cells around a queen can't hold a queen: mark them with X."),
    "full_unit": N_("A row, column or colour region that has its queen: mark its other cells with X."),
    "last_room": N_("A row, column or colour region with one cell left without an X: the queen goes there."),
    "band": N_("A colour region whose free cells all lie in one row (or column) holds that line's queen: "
               "mark the rest of the line. The same for a line whose free cells lie in one region."),
    "squeeze": N_("A cell whose queen would cross out every free cell of a row, column or colour region "
                  "can't hold a queen."),
    "pigeonhole": N_("Two (or more) colour regions whose free cells all lie in as many rows hold the queens "
                     "of those rows: mark the rest of the rows. Also for columns, and lines inside regions."),
    "trial": N_("Assume a queen in a cell; if the techniques above lead to a contradiction, mark the cell with X."),
}


class StarBattle(VariantDefaults):
    """Star Battle, one or two stars a unit; stateless."""

    name = "starbattle"
    aliases: tuple[str, ...] = ("star-battle", "two-not-touch")
    title = N_("Star Battle")
    queens = False  # LinkedIn's wording, crowns, tinted regions
    rules_text: tuple[str, ...] = (
        N_("Place stars in the grid so that every row, every column and every region outlined in bold holds "
           "exactly one star."),
        N_("Stars never touch each other, not even diagonally."),
        N_("Each puzzle has exactly one solution, reachable by logic alone."),
    )
    ladder = engine.LADDER  # its rows carry Star Battle's how-to texts: ``techniques`` and ``rating_table``
    sizes: tuple[int, ...] = tuple(sorted(set(ONE_STAR) | set(TWO_STARS)))
    default_size = 8
    size_note = "one star: 5 to 10; two stars: 8 to 12"
    rule_choices = {"stars": (1, 2)}  # the studio offers these as a menu
    rule_help = {
        "stars": "1 or 2: stars in every row, column and region (1 on 5x5 to 10x10, 2 on 8x8 to 12x12); "
                 "default 1, and 2 on 11x11 and 12x12",
    }

    def techniques_for(self, rules: Mapping[str, Any]) -> tuple[Technique, ...]:
        """No 2x2 rule where a unit holds one star."""
        names = {t.name for t in engine.techniques_for(int(rules.get("stars", 1)))}
        return tuple(t for t in self.techniques if t.name in names)

    # --- rules ----------------------------------------------------------------------

    def sizes_for(self, stars: int) -> tuple[int, ...]:
        return ONE_STAR if stars == 1 else TWO_STARS

    def parse_rules(self, raw: Mapping[str, Any] | None, size: int) -> dict[str, Any]:
        """``{"stars": 1 | 2}``; ``ValueError`` on an unknown option or a size the stars don't fit."""
        raw = rule_options(raw, self.title, ("stars",), "stars")
        stars = raw.get("stars", 2 if size > max(ONE_STAR) and not self.queens else 1)
        if type(stars) is not int or stars not in ((1,) if self.queens else (1, 2)):
            raise ValueError(f"stars must be {'1 (a queen per row, column and region)' if self.queens else '1 or 2'}, "
                             f"got {stars!r}")
        fits = self.sizes_for(stars)
        if size not in fits:
            raise ValueError(f"stars: {stars} fits grids of {min(fits)}\u00d7{min(fits)} to {max(fits)}\u00d7{max(fits)}, "
                             f"not {size}\u00d7{size}")
        return {"stars": stars}

    def rules_for(self, rules: Mapping[str, Any]) -> tuple[str, ...]:
        """The rule sentences for one or two stars."""
        lines = list(self.rules_text)
        if rules.get("stars") == 2:
            lines[0] = N_("Place stars in the grid so that every row, every column and every region outlined in "
                          "bold holds exactly two stars.")
        return tuple(lines)

    def smallest_type(self, size: int, rules: Mapping[str, Any]) -> float:
        """No type in the grid: stars are drawn."""
        return 1.0

    def check_request(self, size: int, rules: Mapping[str, Any], level: Level) -> str | None:
        """A size the stars don't fit, or a level this size never (or hardly ever) grades."""
        stars = int(rules.get("stars", 1))
        if size not in self.sizes_for(stars):
            fits = self.sizes_for(stars)
            return f"{self.title} with {stars} star{'s' if stars > 1 else ''} is {min(fits)}x{min(fits)} to {max(fits)}x{max(fits)}"
        reach = REACH[(stars, size)]
        if reach is None:
            return (f"a {size}\u00d7{size} {self.title} with {stars} stars can't be made in bounded time yet; "
                    "choose 8x8 to 11x11")
        low, high = reach
        what = f"a {size}\u00d7{size} {self.title}" + ("" if self.queens else f" with {stars} star{'s' if stars > 1 else ''}")
        if level > high:
            return f"{what} is never harder than {high.key}; choose a larger size or an easier level"
        if level < low:
            return f"{what} is never easier than {low.key}; choose a smaller size, one star or a harder level"
        return None

    # --- generation -----------------------------------------------------------------

    def generate(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
                 options: Mapping[str, Any] | None = None) -> Puzzle:
        """A unique puzzle graded exactly ``level``; ``GenerationError`` when out of budget."""
        rules = self.request_rules(size, rules, level)
        for _ in range(ATTEMPTS):
            made = engine.attempt(size, rules["stars"], level, rng)
            if made is None:
                continue
            grade = self.rate_counts(Grade(made.result.level, made.result.score(size),
                                           dict(sorted(made.result.counts.items()))), size * size)
            return Puzzle(self.name, size, rules, made.givens, made.solution, grade=grade,
                          regions=region_rows(made.regions, size))
        article = "an" if level.key[0] in "aeiou" else "a"
        raise GenerationError(f"could not make {article} {level.key} {size}\u00d7{size} {self.title} in "
                              f"{ATTEMPTS} attempts; try another seed, a lower level or another size")

    # --- checking -------------------------------------------------------------------

    def layout_of(self, puzzle: Puzzle) -> engine.Layout:
        regions = engine.canonical(regions_of(puzzle.regions))
        return engine.layout(puzzle.size, int(puzzle.rules.get("stars", 1)), regions)

    def _broken(self, puzzle: Puzzle) -> list[str]:
        n = puzzle.size
        problems = region_problems(puzzle.regions, n, equal=False)
        if not problems and len(regions_of(puzzle.regions)) != n:
            problems.append(f"there must be {n} regions, not {len(regions_of(puzzle.regions))}")
        return problems

    def validate(self, puzzle: Puzzle) -> list[str]:
        """Malformed regions or grids; rows, columns and regions with the wrong number of
        stars; touching stars; givens the solution disagrees with."""
        n = puzzle.size
        problems = self._broken(puzzle)
        problems += shape_problems(puzzle.solution, n, "01", "solution")
        problems += shape_problems(puzzle.givens, n, "01" + EMPTY, "givens")
        if problems:
            return problems
        lay = self.layout_of(puzzle)
        star = engine.start(lay, puzzle.solution).star
        for u, name in zip(lay.units, lay.names):
            got = (u & star).bit_count()
            if got != lay.stars:
                problems.append(f"{name} has {got} stars, not {lay.stars}")
        for i in range(n * n):
            if star >> i & 1 and lay.halo[i] & star & ~((1 << (i + 1)) - 1):
                problems.append(f"the star at {engine.cell_name(i, n)} touches another")
        problems += given_problems(puzzle.givens, puzzle.solution)
        return problems

    def solutions(self, puzzle: Puzzle, limit: int = 2) -> list[tuple[str, ...]]:
        """Up to ``limit`` solutions by SAT (none when the regions are malformed)."""
        if self._broken(puzzle):
            return []
        lay = self.layout_of(puzzle)
        return [engine.star_rows(s, puzzle.size) for s in engine.count(lay, puzzle.givens, limit)]

    def grade(self, puzzle: Puzzle) -> Grade:
        """The hardest tier the table needed (EXPERT, unsolved, when it got stuck)."""
        if self._broken(puzzle):
            return Grade(Level.EXPERT, 3.0, {}, False)
        res = engine.run_ladder(self.layout_of(puzzle), puzzle.givens)
        return self.rate(puzzle, Grade(res.level, res.score(puzzle.size), dict(sorted(res.counts.items())), res.solved))

    def explain(self, puzzle: Puzzle) -> tuple[list[Step], tuple[str, ...], bool]:
        """The table's steps, the grid reached (``1`` star, ``0`` empty, ``.`` open), solved or not."""
        if self._broken(puzzle):
            return [], puzzle.givens, False
        res = engine.run_ladder(self.layout_of(puzzle), puzzle.givens, explain=True,
                               noun="queen" if self.queens else "star")
        return res.steps, res.rows, res.solved

    def fingerprint(self, puzzle: Puzzle) -> str:
        """Same under the square's eight symmetries, the regions moving with the grid
        whatever their letters."""
        return grid_fingerprint(f"{self.name}/{puzzle.size}", {"stars": int(puzzle.rules.get("stars", 1))},
                                puzzle.givens, False, lambda move: first_seen(moved_rows(puzzle.regions, move)))

    # --- JSON -----------------------------------------------------------------------

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """``{"rules": {"stars": 1}, "regions": [N strings]}``."""
        return {"rules": {"stars": int(puzzle.rules.get("stars", 1))}, "regions": list(puzzle.regions)}

    def from_json(self, data: Mapping[str, Any]) -> Puzzle:
        """Rebuild a puzzle from a book JSON entry; ``ValueError`` says what is malformed."""
        size = data.get("size")
        if type(size) is not int or size not in self.sizes:
            raise ValueError(f"size must be one of {', '.join(map(str, self.sizes))}, got {size!r}")
        rules = self.parse_rules(data.get("rules"), size)
        givens, solution, regions = data.get("givens"), data.get("solution"), data.get("regions")
        problems = shape_problems(givens, size, "01" + EMPTY, "givens")
        problems += shape_problems(solution, size, "01" + EMPTY, "solution")
        if not isinstance(regions, list):
            problems.append("'regions' must be a list of strings")
        else:
            problems += region_problems(regions, size, equal=False)
            if not problems and len(regions_of(regions)) != size:
                problems.append(f"there must be {size} regions")
        if problems:
            raise ValueError(problems[0])
        return Puzzle(self.name, size, rules, tuple(givens), tuple(solution), regions=tuple(regions))

    # --- text (``bookgen solve``) ----------------------------------------------------

    def sniff_text(self, text: str) -> int:
        """Never guessed: a grid of region letters could be anything, so the file starts
        with the puzzle's name."""
        return 0

    def parse_text(self, lines: Sequence[_Line], options: dict[str, Any], header: _Line | None,
                   file: str) -> Puzzle:
        """A grid of region letters (one per cell, the same for every cell of a region), then
        optionally a grid of givens of the same size: ``*`` (or ``1``) a star, ``x`` (or
        ``0``) an empty cell, ``.`` open; ``|`` ignored."""
        n, regions, given_lines = read_region_grid(lines, self.sizes, self.title, file, equal=False)
        givens = read_givens(given_lines, n, TEXT_CELLS, "* (a star), x (an empty cell) or . (open)", file)
        rules = _rules(self, options, n, header, file)
        blank = tuple(EMPTY * n for _ in range(n))
        return Puzzle(self.name, n, rules, tuple("".join(r) for r in givens), blank, regions=regions)

    def to_text(self, puzzle: Puzzle) -> str:
        """The puzzle in the text format ``parse_text`` reads (header line included)."""
        head = self.name + (" stars=2" if puzzle.rules.get("stars") == 2 else "")
        out = [head] + [" ".join(row) for row in puzzle.regions]
        if any(ch != EMPTY for row in puzzle.givens for ch in row):
            out += [" ".join(self.symbol_text(ch, ascii=True) for ch in row) for row in puzzle.givens]
        return "\n".join(out) + "\n"

    def text_lines(self, puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
        """``rows`` with the region walls drawn as ``|`` and ``---``."""
        return region_text_lines(puzzle.regions, rows, lambda ch: self.symbol_text(ch, ascii))

    def symbol_text(self, symbol: str, ascii: bool = False) -> str:
        """A star ``★`` (``*``; Queens ``♛``, ``Q``), an empty cell ``·`` (``x``)."""
        if symbol == engine.STAR:
            return ("Q" if self.queens else "*") if ascii else ("\u265b" if self.queens else "\u2605")
        if symbol == engine.NO_STAR:
            return "x" if ascii else "\u00b7"
        return symbol

    def clue_counts(self, puzzle: Puzzle) -> list[str]:
        """``8 regions`` (and the givens, when there are any)."""
        return and_givens(f"{puzzle.size} regions", given_count(puzzle.givens))

    # --- drawing --------------------------------------------------------------------

    def draw(self, pen: Pen, puzzle: Puzzle, solved: bool = False) -> None:
        """Tints and patterns (Queens), thin cell lines, bold region walls and frame, given
        cells, and with ``solved`` the stars (an answer key: only the stars; a walkthrough's
        partial grid: its empty cells as dots too)."""
        n = puzzle.size
        if self.queens:
            self.draw_tints(pen, puzzle)
        for k in range(1, n):
            pen.line(0, k, n, k, THIN)
            pen.line(k, 0, k, n, THIN)
        draw_walls(pen, puzzle.regions)
        pen.rect(0, 0, n, n, stroke=BOLD)
        for r in range(n):
            for c in range(n):
                given = puzzle.givens[r][c]
                shown = given if given != EMPTY else puzzle.solution[r][c] if solved else EMPTY
                if shown == engine.STAR:
                    self.draw_star(pen, r, c, 0.0 if given != EMPTY or pen.key else ANSWER_GREY)
                elif shown == engine.NO_STAR and (given != EMPTY or not pen.key):
                    pen.stamp(("star-dot", given != EMPTY), c + 0.5, r + 0.5,
                              lambda p, g=given != EMPTY: p.circle(0.0, 0.0, DOT_RADIUS, fill=0.0 if g else ANSWER_GREY))

    def draw_star(self, pen: Pen, r: int, c: int, grey: float) -> None:
        """A five-pointed star (Queens: a crown), drawn as a polygon."""
        shape = crown if self.queens else star_points
        pen.stamp((self.name, grey), c + 0.5, r + 0.5, lambda p: p.polygon(shape(), fill=grey))

    def draw_tints(self, pen: Pen, puzzle: Puzzle) -> None:
        """Each region's tint, and its pattern (none in an answer key, where the cells are small)."""
        n = puzzle.size
        letters = sorted({ch for row in puzzle.regions for ch in row}, key=LETTERS.index)
        index = {ch: k for k, ch in enumerate(letters)}
        patterns = pattern_of(puzzle.regions)
        for r in range(n):
            for c in range(n):
                k = index[puzzle.regions[r][c]]
                pen.rect(c, r, 1, 1, fill=TINTS[k % len(TINTS)])
                if not pen.key and patterns[k]:
                    pen.stamp(("region-pattern", patterns[k]), c + 0.5, r + 0.5,
                              lambda p, kind=PATTERNS[patterns[k]]: draw_pattern(p, kind))


def pattern_of(regions: Sequence[str]) -> list[int]:
    """A pattern index per region (in letter order) such that touching regions differ:
    greedy colouring in letter order, the plain pattern first."""
    n = len(regions)
    letters = sorted({ch for row in regions for ch in row}, key=LETTERS.index)
    index = {ch: k for k, ch in enumerate(letters)}
    touch: list[set[int]] = [set() for _ in letters]
    for r in range(n):
        for c in range(n):
            for r2, c2 in ((r + 1, c), (r, c + 1)):
                if r2 < n and c2 < n and regions[r][c] != regions[r2][c2]:
                    a, b = index[regions[r][c]], index[regions[r2][c2]]
                    touch[a].add(b)
                    touch[b].add(a)
    out: list[int] = []
    for k in range(len(letters)):
        taken = {out[j] for j in touch[k] if j < k}
        out.append(next((p for p in range(len(PATTERNS)) if p not in taken), k % len(PATTERNS)))
    return out


def draw_pattern(pen: Pen, kind: str) -> None:
    """One cell's greyscale pattern around the origin, light and clear of the cell's middle
    where a star or crown sits."""
    g = PATTERN_GREY
    w = 0.035
    if kind == "dots":
        for dx in (-0.36, 0.36):
            for dy in (-0.36, 0.36):
                pen.circle(dx, dy, 0.05, fill=g)
    elif kind == "rows":  # short bars inside the cell, clear of its lines (not to be read as walls)
        for dy in (-0.36, 0.36):
            pen.rect(-0.3, dy - w, 0.6, 2 * w, fill=g)
    elif kind == "cols":
        for dx in (-0.36, 0.36):
            pen.rect(dx - w, -0.3, 2 * w, 0.6, fill=g)
    elif kind == "checks":
        for dx, dy in ((-0.38, -0.38), (0.38, 0.38)):
            pen.rect(dx - 0.07, dy - 0.07, 0.14, 0.14, fill=g)
    elif kind == "plus":
        for dx in (-0.38, 0.38):
            for dy in (-0.38, 0.38):
                pen.rect(dx - 0.07, dy - w / 2, 0.14, w, fill=g)
                pen.rect(dx - w / 2, dy - 0.07, w, 0.14, fill=g)
    elif kind == "diamond":
        for dx, dy in ((-0.38, 0.38), (0.38, -0.38)):
            pen.polygon([(dx, dy - 0.08), (dx + 0.08, dy), (dx, dy + 0.08), (dx - 0.08, dy)], fill=g)


def star_points() -> list[tuple[float, float]]:
    """A five-pointed star around the origin, point up."""
    pts = []
    for k in range(10):
        radius = STAR_RADIUS if k % 2 == 0 else STAR_RADIUS * 0.42
        angle = math.pi / 2 + k * math.pi / 5
        pts.append((round(radius * math.cos(angle), 4), round(-radius * math.sin(angle), 4)))
    return pts


def crown() -> list[tuple[float, float]]:
    """A crown around the origin: a band with three points."""
    s = STAR_RADIUS
    return [(-0.9 * s, 0.65 * s), (-0.95 * s, -0.55 * s), (-0.45 * s, -0.05 * s), (0.0, -0.75 * s),
            (0.45 * s, -0.05 * s), (0.95 * s, -0.55 * s), (0.9 * s, 0.65 * s)]


TEXT_CELLS = {"*": engine.STAR, "1": engine.STAR, "\u2605": engine.STAR, "Q": engine.STAR, "\u265b": engine.STAR,
              "x": engine.NO_STAR, "X": engine.NO_STAR, "0": engine.NO_STAR, "\u00b7": engine.NO_STAR, ".": EMPTY}


class Queens(StarBattle):
    """LinkedIn's Queens: one crown a row, column and colour region; stateless."""

    name = "queens"
    aliases: tuple[str, ...] = ("linkedin-queens",)
    title = N_("Queens")
    queens = True
    rule_choices = {"stars": (1,)}
    rules_text: tuple[str, ...] = (
        N_("Your goal is to have exactly one queen (a crown) in each row, each column and each colour region."),
        N_("Two queens cannot touch each other, not even diagonally."),
        N_("Mark a cell with X when it can't hold a queen. In black and white, each region keeps its own "
           "pattern and bold outline."),
        N_("Each puzzle has exactly one solution, reachable by logic alone."),
    )
    # Queens' own words for the ladder's techniques (no 2x2 rule): its rules say "queen" and
    # "colour region" (German "Farbregion", where Star Battle's say "Gebiet").
    technique_titles = {"full_unit": N_("Full lines and colour regions"), "band": N_("A colour region in one line")}

    @property
    def techniques(self) -> tuple[Technique, ...]:
        """Star Battle's table in Queens' words, as the how-to page lists it, easiest first."""
        return tuple(Technique(t.name, t.level, self.technique_titles.get(t.name, t.title), QUEEN_TEXT[t.name])
                     for t in engine.LADDER.explained if t.name in QUEEN_TEXT)
    sizes: tuple[int, ...] = ONE_STAR
    default_size = 8
    size_note = ""
    rule_help = {"stars": "always 1: a queen in every row, column and colour region (LinkedIn's rules)"}

    def rules_for(self, rules: Mapping[str, Any]) -> tuple[str, ...]:
        """LinkedIn's rules (no options change them)."""
        return self.rules_text


STARBATTLE = StarBattle()
QUEENS = Queens()
