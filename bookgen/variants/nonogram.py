"""Nonogram (also sold as Picross, Hanjie or Griddlers): a picture drawn from run clues.

Rules: fill some cells of the grid and leave the others empty. The numbers beside each
row (left to right) and above each column (top to bottom) are the lengths of that line's
runs of filled cells, in order; runs are separated by at least one empty cell. A few
cells may be given (filled, or marked empty with a dot) where the picture alone would
have two solutions.

Representation: a ``Puzzle`` whose ``solution`` rows are ``1`` (filled) and ``0``
(empty), ``givens`` ``.`` except given cells; ``clues`` is an ``OutsideClues`` whose
``top`` holds each column's runs and ``left`` each row's (tuples of run lengths, ``()``
for an empty line), as the JSON's ``clues.cols`` and ``clues.rows``. Rules are
``{"style": "random" | "symmetric" | "blobs"}``. Sizes are rectangles (``GridSize``, the
rectangle protocol of docs/rectangles.md): rows and columns each 5 to 25; every size
question goes through ``dims`` (rows, cols). Solving is the Nonogram engine
(``bookgen.solve.nonogram``); the page gives the clues a margin above and left of the
grid (``extent``).

Techniques by tier (the engine's ``TECHNIQUES`` table):
- easy: ``overlap`` (runs pushed left and right: cells covered both ways are filled) and
  ``reach`` (cells no run reaches are empty);
- medium: ``line`` (whatever every way of placing one line's runs agrees on);
- hard: ``chain`` (two lines at once: a supposition refuted by settling its row, its
  column and the lines they change);
- expert: ``trial`` (one supposition refuted by line-by-line reasoning; never nested).

Generation: a picture in the section's style (noise, mirrored noise, or blobs) at a
density set by the level; while the whole-line closure stalls, a cell it left open flips.
Kept when the ladder grades it exactly at the level; the SAT solver proves it unique.

A user's own picture (a section's ``pictures:``, ``options["picture"]``) is kept as drawn:
where its clues allow a second solution, or the ladder gets stuck on it, a cell is given
(``picture_givens``), and the puzzle's level is the one the picture needs. Its rules are
``{"style": "picture", "picture": NAME}``.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import C_, N_
from bookgen.core.pen import BOLD, CAP_HEIGHT, CENTER, THIN, Pen, bold_width
from bookgen.core.score import work_score
from bookgen.core.symmetry import canonical_fingerprint
from bookgen.core.text import PuzzleTextError
from bookgen.core.text import TextLine as _Line
from bookgen.core.text import rules_at as _rules
from bookgen.core.types import EMPTY, GenerationError, Grade, GridSize, OutsideClues, Puzzle, SizeRange, rows_cols
from bookgen.core.variant import Extent, Step, VariantDefaults
from bookgen.solve import nonogram as engine
from bookgen.solve.nonogram import STYLES, TECHNIQUES, Clue
from bookgen.variants.gridparts import and_givens, given_count, given_problems

SIZE_RANGE = SizeRange(5, 25, 5, 25)  # any rows x cols, each 5 to 25
PICTURE = "picture"     # the style of a puzzle made from a user's picture (never a section's rule option)
ATTEMPTS = 600          # generation attempts per puzzle before giving up (an expert 10x10 hits 1 in 50)
CLUE_CAP = 0.42         # a clue digit's cap height, in cells (as the digits of the other grids)
CLUE_FONT = CLUE_CAP / CAP_HEIGHT  # its font size, in cells
CLUE_GAP = 0.22         # space between two clue numbers, in cells
CLUE_STEP = 0.62        # a column clue's numbers, one under the other, in cells
MARGIN_PAD = 0.3        # room between the clues and the grid's frame, in cells
FILL = 0.0              # a filled cell, in the puzzle's answer and the key
GIVEN_FILL = 0.35       # a given filled cell: dark grey, so it reads as printed, not pencilled
DOT = 0.09              # the radius of the dot that marks a given empty cell, in cells
BLOCK = 5               # a bold line every five cells, as printed Nonograms have
MARK_CELL_MM = 5.0      # a filled square or a dot is legible in a 5 mm cell (the digit grids need 8 mm)
KEY_SCALE = 0.6         # the key is the picture, no digits: its cells may be 0.6 of the digit key's floor
                        # (2.2 mm, 2.9 mm in large print), so a 25x25 answer is one of three across a row
# The hardest level each size reaches reliably (measured: bench/sweep_nonogram.py).
# What a style reaches: (level below a side of, that side, level from it). Blobs (long runs
# give themselves away) reach medium from 12 cells a side, never more (2 hard 15x15 puzzles
# in 300 attempts); a mirrored grid under 7 cells has too few free cells to be anything but
# easy reliably (0 medium 5x5 and 1 medium 6x6 in 400 attempts; bench/sweep_nonogram.py).
STYLE_LEVEL: dict[str, tuple[Level, int, Level]] = {
    "blobs": (Level.EASY, 12, Level.MEDIUM),
    "symmetric": (Level.EASY, 7, Level.EXPERT),
}
MAX_LEVEL: dict[int, Level] = {5: Level.MEDIUM, 6: Level.HARD, 7: Level.HARD, 8: Level.HARD, 9: Level.HARD}


def dims(size: Any) -> tuple[int, int]:
    """(rows, cols) of a size (a ``GridSize``, or a square's side): the one place that reads one."""
    return rows_cols(size)


def grid_size(size: Any) -> GridSize:
    """Any size as the ``GridSize`` a puzzle carries (``10`` is 10 x 10)."""
    return size if isinstance(size, GridSize) else GridSize(*dims(size))


def max_runs(n: int) -> int:
    """The most runs a line of ``n`` cells may have in a puzzle this variant makes: lines
    with more would need a wider clue box for a rare picture (the generator avoids them)."""
    return min((n + 1) // 2, n // 3 + 2)


def _width(text: str) -> float:
    """A clue number's width, in cells."""
    return bold_width(text) * CLUE_FONT


def row_clue_width(clue: Clue) -> float:
    """How wide a row's clue prints: its numbers and the gaps between them."""
    return sum(_width(str(v)) for v in clue) + CLUE_GAP * max(len(clue) - 1, 0)


# The title in the grammatical cases sentences need (the catalogs inflect it: ``i18n.name_forms``).
NAME_CASES = (C_("gen", "Nonogram"), C_("acc", "Nonogram"))



def _clues(puzzle: Puzzle) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """(row clues, column clues); no runs anywhere for a puzzle without clues."""
    if puzzle.clues is None:
        return ((),) * puzzle.rows, ((),) * puzzle.cols
    return tuple(puzzle.clues.left), tuple(puzzle.clues.top)


def _engine_puzzle(puzzle: Puzzle) -> engine.Puzzle:
    return engine.Puzzle(*_clues(puzzle))


def _givens(puzzle: Puzzle) -> tuple[str, ...] | None:
    return puzzle.givens if any(ch != EMPTY for row in puzzle.givens for ch in row) else None


class NonogramVariant(VariantDefaults):
    """Nonograms of any rows x cols from 5 to 25 (``size: 15x10``); stateless."""

    name = "nonogram"
    aliases: tuple[str, ...] = ("picross", "hanjie", "griddlers")
    title = N_("Nonogram")
    rules_text: tuple[str, ...] = (
        N_("Fill some cells and leave the others empty to reveal a picture."),
        N_("The numbers beside a row, and above a column, give the lengths of its runs of filled cells, in order; "
           "between two runs there is at least one empty cell."),
        N_("Each puzzle has exactly one solution, reachable by logic alone."),
    )
    ladder = TECHNIQUES  # its rows carry the how-to texts: ``techniques`` and ``rating_table``
    rectangular = True
    pictures_option = True
    size_range = SIZE_RANGE
    sizes: tuple[int, ...] = SIZE_RANGE.squares  # the square sides menus and examples offer
    default_size = GridSize(10, 10)
    rule_help = {"style": "random, symmetric (mirrored left to right) or blobs (clumped): how the pictures look"}
    rule_choices = {"style": STYLES}  # the studio offers these as a menu

    # --- rules and requests --------------------------------------------------------

    def parse_rules(self, raw: Mapping[str, Any] | None, size: Any) -> dict[str, Any]:
        """``{"style": ...}`` with its default; ``ValueError`` on a bad option or size."""
        problem = self._size_problem(size)
        if problem:
            raise ValueError(problem)
        if raw is not None and not isinstance(raw, Mapping):
            raise ValueError("Nonogram rules must be a mapping of options")
        raw = dict(raw or {})
        unknown = sorted(set(map(str, raw)) - {"style"})
        if unknown:
            raise ValueError(f"unknown Nonogram rule option {unknown[0]!r} (expected style)")
        style = raw.get("style", "random")
        if style not in STYLES:
            raise ValueError(f"style must be one of {', '.join(STYLES)}, got {style!r}")
        return {"style": style}

    def _size_problem(self, size: Any) -> str | None:
        try:
            grid = grid_size(size)
        except (TypeError, ValueError, IndexError):
            return f"a Nonogram size is ROWSxCOLS with {SIZE_RANGE}, not {size!r}"
        if grid not in SIZE_RANGE:
            return f"nonogram size must have {SIZE_RANGE}, got {grid}"
        return None

    def rules_for(self, rules: Mapping[str, Any], sizes: Sequence[int] = ()) -> tuple[str, ...]:
        """The rule sentences (the style changes only how pictures look)."""
        return self.rules_text

    def check_request(self, size: Any, rules: Mapping[str, Any], level: Level) -> str | None:
        """A size out of range, or a level above what the size reaches reliably."""
        problem = self._size_problem(size)
        if problem:
            return problem
        rows, cols = dims(size)
        top = MAX_LEVEL.get(min(rows, cols), Level.EXPERT)
        style = rules.get("style", "random")
        if style in STYLE_LEVEL:
            below, side, above = STYLE_LEVEL[style]
            top = min(top, below if min(rows, cols) < side else above)
            if level > top:
                return (f"a {rows}\u00d7{cols} Nonogram in style {style} is never harder than {top.key}; "
                        "choose style random, a larger size or an easier level")
        if level > top:
            return (f"a {rows}\u00d7{cols} Nonogram is never harder than {top.key}; "
                    "choose a larger size or an easier level")
        return None

    def extent(self, size: Any, rules: Mapping[str, Any]) -> Extent:
        """The grid, the row clues' band on the left and the column clues' band on top, each
        as deep as the most runs a line of that length may have (``max_runs``)."""
        rows, cols = dims(size)
        left = max_runs(cols) * (_width("0") + CLUE_GAP) - CLUE_GAP + MARGIN_PAD
        top = max_runs(rows) * CLUE_STEP + MARGIN_PAD - (CLUE_STEP - CLUE_CAP) / 2
        return Extent(rows, cols, top=round(top, 3), left=round(left, 3), key_scale=KEY_SCALE,
                      mark_cell_mm=MARK_CELL_MM)

    def smallest_type(self, size: Any, rules: Mapping[str, Any]) -> float:
        """The clue digits' font size in cells: the only type printed."""
        return CLUE_FONT

    # --- generation -----------------------------------------------------------------

    def generate(self, size: Any, rules: Mapping[str, Any], level: Level, rng: random.Random,
                 options: Mapping[str, Any] | None = None) -> Puzzle:
        """A picture in the section's style, graded exactly ``level``, proven unique; or, with
        ``options["picture"]``, the user's picture (givens added where it needs them), graded
        at the level it needs."""
        picture = (options or {}).get("picture")
        if picture is not None:
            return self.from_picture(picture.rows, picture.name)
        rules = self.request_rules(size, rules, level)
        rows, cols = dims(size)
        size = grid_size(size)
        for _ in range(ATTEMPTS):
            made = engine.attempt(rows, cols, rules["style"], level, rng)
            if made is None:
                continue
            row_clues, col_clues = engine.clues_of(made.solution)
            if max(map(len, row_clues)) > max_runs(cols) or max(map(len, col_clues)) > max_runs(rows):
                continue  # a line with more runs than the clue band holds
            # The proof, independent of the ladder: no other solution.
            if not engine.sat_unique(engine.Puzzle(row_clues, col_clues), made.solution):
                raise AssertionError("ladder-solved Nonogram is not unique: engine bug")
            puzzle = self._puzzle(size, rules, tuple("." * cols for _ in range(rows)), made.solution,
                                  row_clues, col_clues)
            return Puzzle(**{**puzzle.__dict__, "grade": self._grade_of(made.result, rows * cols)})
        raise GenerationError(f"could not make {'an' if level.key[0] in 'aeiou' else 'a'} {level.key} "
                              f"{rows}\u00d7{cols} Nonogram in {ATTEMPTS} attempts; try another seed, "
                              "a lower level or a larger grid")

    def from_picture(self, rows: Sequence[str], name: str = "") -> Puzzle:
        """The puzzle of a user's picture (rows of ``1`` and ``0``): givens where it needs them,
        proven unique by SAT, graded by the ladder at whatever level it needs."""
        solution = tuple(rows)
        givens, result = picture_givens(solution)
        row_clues, col_clues = engine.clues_of(solution)
        size = GridSize(len(solution), len(solution[0]))
        if engine.sat_solutions(engine.Puzzle(row_clues, col_clues), givens) != [solution]:
            raise AssertionError("a picture's givens left it open: engine bug")  # the proof, once more
        puzzle = self._puzzle(size, {"style": PICTURE, "picture": name}, givens, solution, row_clues, col_clues)
        return Puzzle(**{**puzzle.__dict__, "grade": self._grade_of(result, size.rows * size.cols)})

    def picture_problem(self, rows: Sequence[str]) -> str | None:
        """A picture with no filled cell, or with a line of more runs than the clue band holds."""
        if not any("1" in row for row in rows):
            return "has no filled cell (a blank grid is no puzzle); is it the right file?"
        row_clues, col_clues = engine.clues_of(tuple(rows))
        for kind, clues, n in (("row", row_clues, len(rows[0])), ("column", col_clues, len(rows))):
            for k, clue in enumerate(clues):
                if len(clue) > max_runs(n):
                    return (f"{kind} {k + 1} has {len(clue)} runs of filled cells; a {kind} of {n} cells "
                            f"prints at most {max_runs(n)} (join some, or drop single specks)")
        return None

    def picture_key(self, rows: Sequence[str]) -> str:
        """The same for a picture and its half turn and mirror images (and, square, its
        transposes): they give the same puzzle, as ``fingerprint`` says."""
        grids = [tuple(rows), tuple(rows[::-1])]
        grids += [tuple(row[::-1] for row in g) for g in grids]
        if len(rows) == len(rows[0]):
            grids += [tuple("".join(col) for col in zip(*g)) for g in grids]
        return min("\n".join(g) for g in grids)

    def _puzzle(self, size: Any, rules: Mapping[str, Any], givens: tuple[str, ...], solution: tuple[str, ...],
                row_clues: Sequence[Clue], col_clues: Sequence[Clue]) -> Puzzle:
        return Puzzle(self.name, grid_size(size), dict(rules), givens, solution,
                      clues=OutsideClues(top=tuple(col_clues), left=tuple(row_clues)))

    # --- checking and grading -----------------------------------------------------------

    def validate(self, puzzle: Puzzle) -> list[str]:
        """Shape problems, clues the solution does not show, givens that disagree."""
        rows, cols = puzzle.rows, puzzle.cols
        problems = []
        for what, grid, alphabet in (("solution", puzzle.solution, "01"), ("givens", puzzle.givens, "01.")):
            if len(grid) != rows or any(len(row) != cols or set(row) - set(alphabet) for row in grid):
                problems.append(f"{what} must be {rows} rows of {cols} of {', '.join(alphabet)}")
        if problems:
            return problems
        row_clues, col_clues = _clues(puzzle)
        if len(row_clues) != rows or len(col_clues) != cols:
            return [f"clues must have {rows} rows and {cols} columns"]
        shown_rows, shown_cols = engine.clues_of(puzzle.solution)
        for kind, want, shown in (("row", row_clues, shown_rows), ("column", col_clues, shown_cols)):
            for k, (a, b) in enumerate(zip(want, shown)):
                if tuple(a) != tuple(b):
                    problems.append(f"{kind} {k + 1}: the clue {_clue_text(a)} but the solution shows {_clue_text(b)}")
        problems += given_problems(puzzle.givens, puzzle.solution)
        return problems

    def solutions(self, puzzle: Puzzle, limit: int = 2) -> list[tuple[str, ...]]:
        """Up to ``limit`` solutions by the exact SAT solver."""
        return engine.sat_solutions(_engine_puzzle(puzzle), _givens(puzzle), limit)

    def _grade_of(self, res: engine.LadderResult, cells: int) -> Grade:
        score = work_score(res.counts, TECHNIQUES.weight, TECHNIQUES.tier, res.level, cells)
        return self.rate_counts(Grade(res.level, score, dict(sorted(res.counts.items())), res.solved), cells)

    def grade(self, puzzle: Puzzle) -> Grade:
        """Hardest technique the ladder needed, a score, and technique counts."""
        res = engine.ladder(_engine_puzzle(puzzle), _givens(puzzle))
        return self._grade_of(res, puzzle.rows * puzzle.cols)

    def explain(self, puzzle: Puzzle) -> tuple[list[Step], tuple[str, ...], bool]:
        """The ladder's steps, the grid it reached, and whether it is solved."""
        res = engine.ladder(_engine_puzzle(puzzle), _givens(puzzle), explain=True)
        return list(res.steps), res.grid, res.solved

    def fingerprint(self, puzzle: Puzzle) -> str:
        """Equal for a puzzle and its half turn and mirror images (and, on a square grid,
        its transposes); filled and empty never swap. From the clues and givens only."""
        rows, cols = puzzle.rows, puzzle.cols
        row_clues, col_clues = _clues(puzzle)
        forms = []
        moves = [(False, False, False), (True, False, False), (False, True, False), (True, True, False)]
        if rows == cols:
            moves += [(flip_r, flip_c, True) for flip_r, flip_c, _ in moves]
        for flip_r, flip_c, turn in moves:
            rc, cc, g = list(row_clues), list(col_clues), [list(row) for row in puzzle.givens]
            if flip_r:  # top to bottom: row order and each column's runs reverse
                rc, g = rc[::-1], g[::-1]
                cc = [tuple(c[::-1]) for c in cc]
            if flip_c:  # left to right
                cc, g = cc[::-1], [row[::-1] for row in g]
                rc = [tuple(c[::-1]) for c in rc]
            if turn:  # transpose
                rc, cc = cc, rc
                g = [list(col) for col in zip(*g)]
            forms.append(repr((tuple(map(tuple, rc)), tuple(map(tuple, cc)), tuple("".join(row) for row in g))))
        rules = {k: v for k, v in puzzle.rules.items() if k != "picture"}  # a picture's name is not its puzzle
        return canonical_fingerprint(f"{self.name}/{rows}x{cols}", rules, forms)

    # --- drawing --------------------------------------------------------------------

    def draw(self, pen: Pen, puzzle: Puzzle, solved: bool = False) -> None:
        """Thin cell lines, bold every five cells and round the frame, the clues in their
        bands (not in a key: the key is the picture itself), givens, and with ``solved``
        the filled cells."""
        rows, cols = puzzle.rows, puzzle.cols
        for r in range(rows):
            for c in range(cols):
                g = puzzle.givens[r][c]
                if g == "1":
                    pen.rect(c, r, 1, 1, fill=FILL if pen.key else GIVEN_FILL)
                elif solved and g == EMPTY and puzzle.solution[r][c] == "1":
                    pen.rect(c, r, 1, 1, fill=FILL)
        if not pen.key:
            for r in range(rows):
                for c in range(cols):
                    if puzzle.givens[r][c] == "0":
                        pen.circle(c + 0.5, r + 0.5, DOT, fill=0.0)
        for k in range(1, cols):
            pen.line(k, 0, k, rows, BOLD if k % BLOCK == 0 and not pen.key else THIN)
        for k in range(1, rows):
            pen.line(0, k, cols, k, BOLD if k % BLOCK == 0 and not pen.key else THIN)
        pen.rect(0, 0, cols, rows, stroke=BOLD)
        if pen.key:
            return
        row_clues, col_clues = _clues(puzzle)
        for r, clue in enumerate(row_clues):
            x = -MARGIN_PAD
            for v in reversed(clue or (0,)):
                text = str(v)
                w = _width(text)
                pen.text(x - w / 2, r + 0.5, text, CLUE_CAP, bold=True, anchor=CENTER, clue=True)
                x -= w + CLUE_GAP
        for c, clue in enumerate(col_clues):
            y = -MARGIN_PAD - CLUE_CAP / 2
            for v in reversed(clue or (0,)):
                pen.text(c + 0.5, y, str(v), CLUE_CAP, bold=True, anchor=CENTER, clue=True)
                y -= CLUE_STEP

    # --- JSON -----------------------------------------------------------------------

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """``{"rules": {"style": ...}, "clues": {"rows": [[3, 1], []...], "cols": [...]}}``."""
        row_clues, col_clues = _clues(puzzle)
        out: dict[str, Any] = {"rules": {k: v for k, v in puzzle.rules.items() if k != "picture"},
                               "clues": {"rows": [list(c) for c in row_clues], "cols": [list(c) for c in col_clues]}}
        if puzzle.rules.get("style") == PICTURE:  # the JSON names the picture beside the rules
            out["picture"] = str(puzzle.rules.get("picture", ""))
        return out

    def from_json(self, data: Mapping[str, Any]) -> Puzzle:
        """Rebuild a puzzle from a book JSON entry; ``ValueError`` says what is malformed."""
        raw_size = data.get("size")
        size = GridSize.from_json(raw_size) or (GridSize(raw_size, raw_size) if type(raw_size) is int else None)
        if size is None or size not in SIZE_RANGE:
            raise ValueError(f"size must be [rows, cols] with {SIZE_RANGE}, got {raw_size!r}")
        raw_rules = data.get("rules")
        if isinstance(raw_rules, Mapping) and raw_rules.get("style") == PICTURE and set(raw_rules) == {"style"}:
            name = data.get("picture", "")
            if not isinstance(name, str):
                raise ValueError(f"picture must be the picture's name, got {name!r}")
            rules = {"style": PICTURE, "picture": name}
        else:
            rules = self.parse_rules(raw_rules, size)
        rows, cols = dims(size)
        givens, solution = data.get("givens"), data.get("solution")
        for what, grid, alphabet in (("givens", givens, "01."), ("solution", solution, "01")):
            if not isinstance(grid, list) or len(grid) != rows or not all(
                    isinstance(row, str) and len(row) == cols and not set(row) - set(alphabet) for row in grid):
                raise ValueError(f"{what} must be {rows} strings of {cols} characters {', '.join(alphabet)}")
        raw = data.get("clues")
        if not isinstance(raw, Mapping):
            raise ValueError("clues must be {'rows': [[...], ...], 'cols': [[...], ...]}")
        lines = {}
        for key, count, n in (("rows", rows, cols), ("cols", cols, rows)):
            got = raw.get(key)
            if not isinstance(got, list) or len(got) != count or not all(
                    isinstance(c, list) and all(type(v) is int and v >= 1 for v in c)
                    and engine.clue_fits(tuple(c), n) for c in got):
                raise ValueError(f"clues.{key} must be {count} lists of run lengths that fit {n} cells")
            lines[key] = tuple(tuple(c) for c in got)
        return self._puzzle(size, rules, tuple(givens), tuple(solution), lines["rows"], lines["cols"])

    # --- text (``bookgen solve``) ------------------------------------------------------

    def sniff_text(self, text: str) -> int:
        """A file with ``rows:`` and ``columns:`` sections is a Nonogram."""
        low = text.lower()
        return 50 if "rows:" in low and ("columns:" in low or "cols:" in low) else 0

    def parse_text(self, lines: Sequence[_Line], options: dict[str, Any], header: _Line | None,
                   file: str) -> Puzzle:
        """``rows:`` then one line per row clue (its run lengths, ``0`` or ``-`` for an empty
        row), ``columns:`` then one line per column clue, and optionally ``givens:`` then the
        rows of the grid (``1`` filled, ``0`` empty, ``.`` unknown)."""
        sections: dict[str, list[_Line]] = {}
        current = None
        for line in lines:
            word = line.text.strip().lower().rstrip(":")
            if line.text.strip().endswith(":") and word in ("rows", "columns", "cols", "givens"):
                current = "columns" if word == "cols" else word
                if current in sections:
                    raise PuzzleTextError(file, line.number, 1, f"a second {current}: section")
                sections[current] = []
                continue
            if current is None:
                raise PuzzleTextError(file, line.number, 1, "a Nonogram file is a rows: section and a columns: "
                                      "section (each one line of run lengths per line of the grid)")
            sections[current].append(line)
        row_clues = [_read_clue(line, file) for line in sections.get("rows", [])]
        col_clues = [_read_clue(line, file) for line in sections.get("columns", [])]
        for need in ("rows", "columns"):
            if not sections.get(need):
                where = lines[-1].number if lines else 1
                raise PuzzleTextError(file, where, 1, f"no {need}: section with its clues")
        rows, cols = len(row_clues), len(col_clues)
        size = GridSize(rows, cols)
        problem = self._size_problem(size)
        if problem:
            raise PuzzleTextError(file, sections["rows"][0].number, 1, problem)
        for clues, section, n, kind in ((row_clues, sections["rows"], cols, "row"),
                                        (col_clues, sections["columns"], rows, "column")):
            for clue, line in zip(clues, section):
                if not engine.clue_fits(clue, n):
                    raise PuzzleTextError(file, line.number, 1, f"the runs {_clue_text(clue)} don't fit a {kind} of "
                                          f"{n} cells")
        givens = tuple("." * cols for _ in range(rows))
        if sections.get("givens"):
            grid = []
            for line in sections["givens"]:
                cells = line.text.replace(" ", "")
                bad = set(cells) - set("01.")
                if bad:
                    raise PuzzleTextError(file, line.number, line.text.index(sorted(bad)[0]) + 1,
                                          f"unknown cell {sorted(bad)[0]!r}; cells are 1 (filled), 0 (empty) or .")
                if len(cells) != cols:
                    raise PuzzleTextError(file, line.number, 1, f"this row has {len(cells)} cells; the grid has {cols}")
                grid.append(cells)
            if len(grid) != rows:
                raise PuzzleTextError(file, sections["givens"][-1].number, 1,
                                      f"givens: has {len(grid)} rows; the grid has {rows}")
            givens = tuple(grid)
        rules = _rules(self, options, size, header, file)
        return self._puzzle(size, rules, givens, tuple("." * cols for _ in range(rows)), row_clues, col_clues)

    def to_text(self, puzzle: Puzzle) -> str:
        """The puzzle in the text format ``parse_text`` reads (header line included)."""
        row_clues, col_clues = _clues(puzzle)
        style = puzzle.rules.get("style", "random")
        shown = style != "random" and style in STYLES  # a picture's puzzle reads back as any other
        out = [self.name + (f" style={style}" if shown else ""), "rows:"]
        out += [_clue_text(c) for c in row_clues]
        out.append("columns:")
        out += [_clue_text(c) for c in col_clues]
        if _givens(puzzle):
            out.append("givens:")
            out += list(puzzle.givens)
        return "\n".join(out) + "\n"

    def text_lines(self, puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
        """The column clues stacked above the grid, each row after its clue; ``#`` filled,
        ``-`` empty, ``.`` unknown (``█`` and ``·`` without ``ascii``)."""
        row_clues, col_clues = _clues(puzzle)
        left = [_clue_text(c) for c in row_clues]
        pad = max(map(len, left), default=0)
        width = max((len(str(v)) for c in col_clues for v in c), default=1)
        depth = max(map(len, col_clues), default=0)
        out = []
        for k in range(depth):
            cells = []
            for clue in col_clues:
                at = k - (depth - len(clue))
                cells.append(str(clue[at]).rjust(width) if at >= 0 else " " * width)
            out.append(" " * pad + " | " + " ".join(cells))
        out.append(" " * pad + " +" + "-" * (len(col_clues) * (width + 1)))
        for text, row in zip(left, rows):
            out.append(text.rjust(pad) + " | " + " ".join(self.symbol_text(ch, ascii).rjust(width) for ch in row))
        return out

    def symbol_text(self, symbol: str, ascii: bool = False) -> str:
        """``#`` (``█``) filled, ``-`` (``·``) empty, ``.`` unknown."""
        if symbol == "1":
            return "#" if ascii else "\u2588"
        if symbol == "0":
            return "-" if ascii else "\u00b7"
        return symbol

    def clue_counts(self, puzzle: Puzzle) -> list[str]:
        """``37 runs`` and the givens, if any."""
        row_clues, col_clues = _clues(puzzle)
        return and_givens(f"{sum(map(len, row_clues)) + sum(map(len, col_clues))} runs", given_count(puzzle.givens))


def picture_givens(solution: tuple[str, ...]) -> tuple[tuple[str, ...], engine.LadderResult]:
    """The givens (``.`` elsewhere) that make a user's picture a puzzle with one solution
    the ladder finds, and the ladder's result with them.

    Greedy, then pruned: while the SAT solver finds a second solution, one of the cells where
    the two differ is given; while the ladder gets stuck (the clues allow one solution, but
    only nested guessing finds it), one of the cells it left open. Of those, the cell whose
    colour settles the most others under the whole-line closure goes first (ties: the first
    in reading order). Then each given, in reading order, goes again where the picture stays
    unique and solved without it. Not proven the fewest (that is a set-cover search), but
    none left can go. No randomness: the same picture gets the same givens."""
    puzzle = engine.Puzzle(*engine.clues_of(solution))
    cells: set[tuple[int, int]] = set()
    while True:
        other, result = _picture_verdict(puzzle, solution, cells)
        if result is not None and result.solved:
            break
        open_grid = result.grid if result is not None else None
        candidates = [(r, c) for r, row in enumerate(solution) for c in range(len(row))
                      if (other[r][c] != row[c] if other is not None else open_grid[r][c] == EMPTY)]
        cells.add(_most_telling(puzzle, solution, cells, candidates))
    for cell in sorted(cells):
        other, trial = _picture_verdict(puzzle, solution, cells - {cell})
        if trial is not None and trial.solved:
            cells.discard(cell)
            result = trial
    return _given_rows(solution, cells), result


def _given_rows(solution: tuple[str, ...], cells: set[tuple[int, int]]) -> tuple[str, ...]:
    return tuple("".join(ch if (r, c) in cells else EMPTY for c, ch in enumerate(row))
                 for r, row in enumerate(solution))


def _picture_verdict(puzzle: engine.Puzzle, solution: tuple[str, ...], cells: set[tuple[int, int]]
                     ) -> tuple[tuple[str, ...] | None, engine.LadderResult | None]:
    """(a second solution, None) when the clues and these givens allow one; else (None, the
    ladder's result)."""
    givens = _given_rows(solution, cells) if cells else None
    other = next((found for found in engine.sat_solutions(puzzle, givens, 2) if found != solution), None)
    if other is not None:
        return other, None
    return None, engine.ladder(puzzle, givens, solution=solution)


def _most_telling(puzzle: engine.Puzzle, solution: tuple[str, ...], cells: set[tuple[int, int]],
                  candidates: list[tuple[int, int]]) -> tuple[int, int]:
    """The candidate cell whose colour, given, lets the whole-line closure settle the most cells."""
    board = puzzle.board(_given_rows(solution, cells) if cells else None)
    engine.close(puzzle, board, 1)
    best, best_gain = candidates[0], -1
    for r, c in candidates:
        if board.get(r, c) >= 0:
            continue
        trial = board.copy()
        trial.assign(r, c, int(solution[r][c]))
        engine.close(puzzle, trial, 1, 1 << r | 1 << (puzzle.rows + c))
        gain = sum(k.bit_count() for k in trial.known[:puzzle.rows])
        if gain > best_gain:
            best, best_gain = (r, c), gain
    return best


def _clue_text(clue: Sequence[int]) -> str:
    return " ".join(map(str, clue)) or "0"


def _read_clue(line: _Line, file: str) -> Clue:
    """One line of run lengths: numbers apart by spaces or commas; ``0`` or ``-`` alone for none."""
    parts = line.text.replace(",", " ").split()
    if parts in (["0"], ["-"]):
        return ()
    out = []
    for part in parts:
        if not part.isdigit() or int(part) < 1:
            col = line.text.index(part) + 1
            raise PuzzleTextError(file, line.number, col, f"{part!r}: a run length is a whole number from 1 up "
                                  "(0 or - alone for a line with no filled cell)")
        out.append(int(part))
    return tuple(out)


NONOGRAM = NonogramVariant()
