"""What Takuzu and Tango share: one variant class over the binary-grid engine.

A subclass only states its rule defaults, its sizes, whether the generator
places ``=``/``x`` signs, and how a symbol is drawn. Generation, grading,
explanation, validation, exact counting and JSON are all here, once.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import lru_cache
from typing import Any, Mapping, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.i18n import N_
from bookgen.core.pen import BOLD, CAP_HEIGHT, THIN, Pen
from bookgen.core.rating import from_counts, technique_rating
from bookgen.core.rules import balance_rule, per_size
from bookgen.core.score import work_score
from bookgen.core.symmetry import grid_fingerprint, moved_cells
from bookgen.core.text import PuzzleTextError
from bookgen.core.text import TextLine as _Line
from bookgen.core.text import read_sign_grid
from bookgen.core.text import rules_at as _rules
from bookgen.core.text import square as _square
from bookgen.core.types import EMPTY, Cell, Edge, GenerationError, Grade, Puzzle
from bookgen.core.variant import Step, Technique, VariantDefaults, techniques_of
from bookgen.solve.binary import (
    TECHNIQUE_LEVEL,
    TECHNIQUE_RATING,
    TECHNIQUE_WEIGHT,
    BinaryEngine,
    Board,
    Contradiction,
    random_solution,
)
from bookgen.variants.gridparts import edges_from_json, given_count, given_problems, shape_problems

SYMBOL_CAP = 0.42  # a digit's cap height, in cells
GIVEN_FILL = 0.88  # grey behind printed givens: tells them from handwriting
SIGN_FILL = 1.0
MAX_ATTEMPTS = 80  # fresh grids per puzzle before giving up
EXPERT_EXTRA = 3  # givens removed beyond the hard-minimal puzzle at expert
SIGN_SHARE = {"few": 0.25, "normal": 0.15, "many": 0.08}  # LinkedIn-like at normal: ~5 givens, ~6 signs on 6x6


@lru_cache(maxsize=64)
def engine_for(n: int, max_run: int, unique_lines: bool, names: tuple[str, str]) -> BinaryEngine:
    """One engine (and its line memo) per rule set and process."""
    return BinaryEngine(n, max_run, unique_lines, names)


@lru_cache(maxsize=None)
def _ladder_names(cls: type, unique: bool) -> tuple[str, ...]:
    """A variant's ladder under one rule set: asked for every graded puzzle, built once."""
    return cls()._ladder_names(unique)


@lru_cache(maxsize=None)
def _technique_ratings(cls: type) -> dict[str, float]:
    """Each ladder technique's rating, as ``rate_counts`` works it out for every puzzle."""
    variant = cls()
    return {t.name: technique_rating(variant.rating_table.get(t.name), t.level) for t in variant.techniques}


@lru_cache(maxsize=None)
def all_edges(n: int) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """Every pair of orthogonal neighbours, row-major, right neighbour first (built once per size)."""
    out = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                out.append(((r, c), (r, c + 1)))
            if r + 1 < n:
                out.append(((r, c), (r + 1, c)))
    return tuple(out)


class BinaryGrid(VariantDefaults):
    """Base class for binary-grid variants; subclasses set the class attributes."""

    name = ""
    aliases: tuple[str, ...] = ()
    title = ""
    rules_text: tuple[str, ...] = ()
    sizes: tuple[int, ...] = ()
    default_size = 8
    rating_table = TECHNIQUE_RATING
    rule_help = {  # what each rule option means, for the config reference (docs/config.md)
        "max_run": "2, or 3 on grids of 8×8 and up: the longest run of equal symbols",
        "unique_lines": "true/false: no two rows (or columns) identical",
    }
    size_note = "sizes must be even"
    default_unique = True
    uses_signs = False
    symbol_names = ("0", "1")
    symbols_in_type = True  # 0 and 1 are printed as digits; Tango draws suns and moons
    text_symbols: tuple[tuple[str, str], tuple[str, str]] = (("0", "1"), ("0", "1"))  # (unicode, ascii) by value
    technique_text: dict[str, tuple[str, str]] = {}

    # ----- description -----------------------------------------------------
    @property
    def techniques(self) -> tuple[Technique, ...]:
        """The ladder as printed on the rules page, easiest first."""
        return tuple(sorted(techniques_of(self.technique_text, TECHNIQUE_LEVEL), key=lambda t: t.level))

    def ladder_techniques(self, rules: Mapping[str, Any]) -> list[str]:
        """Technique names the grader may use under these rules."""
        return list(_ladder_names(type(self), bool(rules.get("unique_lines"))))

    def _ladder_names(self, unique: bool) -> tuple[str, ...]:
        names = [t.name for t in self.techniques]
        if not unique:
            names = [t for t in names if t != "distinct"]
        if not self.uses_signs:
            names = [t for t in names if t != "sign"]
        return tuple(names)

    # The rules lines a section's options change, worded by each subclass for its symbols:
    # the run line where runs of three are allowed, and the balance line naming the counts
    # (``balance_counted(half)`` for one size, ``balance_sizes`` with ``{sizes}`` for several).
    run_of_three = ""
    balance_sizes = ""
    distinct_rule = N_("No two rows are the same, and no two columns are the same.")

    def balance_counted(self, half: int) -> str:
        """The balance line for one size: ``half`` of each symbol in a line."""
        raise NotImplementedError

    def rules_for(self, rules: Mapping[str, Any], sizes: Sequence[int] = ()) -> tuple[str, ...]:
        """The printed rules for these options: ``rules_text`` (run, balance and any rule of
        the subclass's own, then the closing line) with the balance of each of ``sizes``, runs
        of three where allowed, and the distinct-lines rule before the closing line where on."""
        lines = list(self.rules_text)
        if sizes:
            lines[2] = balance_rule(sizes, self.balance_counted, self.balance_sizes, per_size)
        if rules.get("max_run", 2) == 3:
            lines[1] = self.run_of_three
        if rules.get("unique_lines", self.default_unique):
            lines.insert(len(lines) - 1, self.distinct_rule)
        return tuple(lines)

    def techniques_for(self, rules: Mapping[str, Any]) -> tuple[Technique, ...]:
        """The ladder under these rules: no distinct lines where lines may repeat."""
        allowed = set(self.ladder_techniques(rules))
        return tuple(t for t in self.techniques if t.name in allowed)

    def smallest_type(self, size: int, rules: Mapping[str, Any]) -> float:
        """The symbols' font size in cells (1.0 when symbols are drawn, not set in type)."""
        return SYMBOL_CAP / CAP_HEIGHT if self.symbols_in_type else 1.0

    def parse_rules(self, raw: Mapping[str, Any] | None, size: int) -> dict[str, Any]:
        """Rule options with defaults filled in; ``ValueError`` on a bad one."""
        raw = dict(raw or {})
        unknown = sorted(set(raw) - {"max_run", "unique_lines"})
        if unknown:
            raise ValueError(f"unknown rule option {unknown[0]!r} for {self.name} "
                             "(expected max_run, unique_lines)")
        max_run = raw.get("max_run", 2)
        if type(max_run) is not int or max_run not in (2, 3):
            raise ValueError(f"max_run must be 2 or 3, got {max_run!r}")
        if max_run == 3 and size < 8:
            raise ValueError(f"max_run: 3 needs a grid of at least 8x8 (this one is {size}x{size})")
        unique = raw.get("unique_lines", self.default_unique)
        if type(unique) is not bool:
            raise ValueError(f"unique_lines must be true or false, got {unique!r}")
        return {"max_run": max_run, "unique_lines": unique}

    def check_request(self, size: int, rules: Mapping[str, Any], level: Level) -> str | None:
        """Why a size/level combination can't be generated, or None."""
        if size not in self.sizes:
            return f"{self.name} sizes are {', '.join(map(str, self.sizes))}; got {size}"
        top = self.max_level(size, rules)
        if level > top:
            return (f"a {size}x{size} {self.title} is never harder than {top.key} under these rules; "
                    "choose a larger size or an easier level")
        return None

    def max_level(self, size: int, rules: Mapping[str, Any]) -> Level:
        """The hardest level the generator reliably reaches (measured, see bench/)."""
        return Level.EXPERT

    def engine(self, size: int, rules: Mapping[str, Any]) -> BinaryEngine:
        """The engine for a puzzle's rules."""
        return engine_for(size, rules["max_run"], rules["unique_lines"], self.symbol_names)

    # ----- generation ------------------------------------------------------
    def generate(self, size: int, rules: Mapping[str, Any], level: Level, rng: random.Random,
                 options: Mapping[str, Any] | None = None) -> Puzzle:
        """A unique puzzle that grades exactly ``level``."""
        rules = self.request_rules(size, rules, level)
        engine = self.engine(size, rules)
        share = SIGN_SHARE[(options or {}).get("givens", "normal")] if self.uses_signs else 0.0
        for _ in range(MAX_ATTEMPTS):
            try:
                solution = random_solution(engine, rng)
            except GenerationError:
                continue  # this grid's search ran out of budget: one failed attempt, not the puzzle's end
            board, edges, trials = self._carve(engine, solution, level, rng, share)
            if level == Level.EXPERT:
                if not trials:
                    continue  # every clue went by the hard tier: it solves the rest
            elif level > Level.EASY and engine.closure(board.copy(), Level(level - 1)):
                continue  # too easy: one closure says so before the (slower) graded ladder
            puzzle = Puzzle(self.name, size, rules, board.rows(), solution.rows(), edges=edges)
            grade = self._grade(puzzle, solution, board)  # the carve's board: not read back from text
            if grade.solved and grade.level == level:
                if not engine.proves_unique(puzzle.givens, edges, puzzle.solution):  # independent of the ladder
                    raise AssertionError("ladder-solved puzzle is not unique: engine bug")
                return Puzzle(self.name, size, rules, puzzle.givens, puzzle.solution,
                              grade=grade, edges=edges)
        raise GenerationError(
            f"could not make {_article(level.key)} {level.key} {size}x{size} {self.title} "
            f"in {MAX_ATTEMPTS} attempts")

    def _carve(self, engine: BinaryEngine, solution: Board, level: Level, rng: random.Random,
               share: float) -> tuple[Board, tuple[Edge, ...], bool]:
        """Remove clues in random order while the level's techniques still solve it.

        The flag says whether a clue went by a trial (expert). Without one the
        hard tier solves the carved board (each clue went because it brought
        the clue back); with one it cannot (that clue did not come back on a
        richer board): the same verdict as closing the board at the hard tier.
        """
        n = engine.n
        board = solution.copy()
        edges: list[Edge] = []
        if share:
            pairs = all_edges(n)
            for a, b in rng.sample(pairs, round(share * len(pairs))):
                same = solution.get(*a) == solution.get(*b)
                edges.append(Edge(a, b, "=" if same else "x"))
            board.add_edges(edges)
        cells = [(r, c) for r in range(n) for c in range(n)]
        rng.shuffle(cells)
        first = min(level, Level.HARD)
        expert = level == Level.EXPERT
        removed = 0  # givens that only a trial brings back (expert)
        trial_cells: list[tuple[int, int]] = []  # those cells, when signs are pruned later
        forced, closure, clear = engine.forced_by_own_lines, engine.closure, board.clear  # once, not per cell
        # A given whose board without it has a second solution stays without a closure (no
        # technique or trial could bring it back): known exactly where every grid is listed,
        # elsewhere where two rows can trade four of the empty cells.
        second = engine.second_grids(solution, edges, cells)
        for i, cell in enumerate(cells):
            r, c = cell
            if forced(board, cell, first):
                clear(r, c)  # the closure's verdict, without copying the board for it
                continue
            if second.has_two(i, board):
                second.keep(i)
                continue
            trial = board.copy()
            trial.clear(r, c)
            if closure(trial, first, target=cell):
                clear(r, c)
                continue
            if expert and removed < EXPERT_EXTRA:
                # A trial-only given can go while the board is still rich, where
                # such givens are far more common; signs are then pruned with
                # trials on those cells.
                if self._refutes(engine, board, cell, closed=trial):
                    board.clear(*cell)
                    removed += 1
                    trial_cells.append(cell)
                    continue
            second.keep(i)
        # No second pass over the givens kept: each failed the trial test
        # above on a richer board, and with fewer givens a wrong symbol can
        # only be harder to refute (the techniques are monotone).
        if edges:
            rng.shuffle(edges)
            kept: list[Edge] = []
            current = board.copy()  # the givens, kept signs and those still to try
            second.signs_pass(edges, current)
            for i, edge in enumerate(edges):
                if second.has_two(i, current):
                    second.keep(i)  # a second solution: no closure nor trial can settle it
                    kept.append(edge)
                    continue
                trial = current.copy()
                trial.remove_edge(edge)
                if trial_cells:
                    # After trial-only removals, a sign may go if trials on
                    # those same cells still settle the board.
                    goes = engine.trials_solve(trial, trial_cells, solution)
                else:
                    goes = engine.settles_ends(trial, first, edge)
                    if not goes and level == Level.EXPERT:
                        # No given could go by a trial: let this sign go when a
                        # trial on one of its cells settles the rest (``trial``
                        # is already the hard tier's fixpoint without it). Tried
                        # here, while the other signs are still there, it goes
                        # far more often than on the pruned board; the signs
                        # after it are then pruned with trials on its cells.
                        goes = engine.trials_solve(trial, (edge.a, edge.b), solution, closed=True)
                        if goes:
                            trial_cells = [edge.a, edge.b]
                if goes:
                    current.take_signs(trial)  # ``current.remove_edge(edge)``, already done on the copy
                else:
                    kept.append(edge)
                    second.keep(i)
            edges = sorted(kept, key=lambda e: (e.a, e.b))
            board = current
        return board, tuple(edges), bool(trial_cells)

    @staticmethod
    def _refutes(engine: BinaryEngine, board: Board, cell: tuple[int, int],
                 closed: Board | None = None) -> bool:
        """Whether, with this given gone, assuming its wrong symbol fails by the hard tier.

        ``closed``, when given, is the board without this given already
        closed at the hard tier (a failed removal test leaves exactly that):
        the trial then only follows the news from the cell's row and column,
        and reaches the same verdict as a closure from scratch.
        """
        r, c = cell
        if closed is not None:
            trial, start = closed, (r, engine.n + c)
        else:
            trial, start = board.copy(), None
            trial.clear(r, c)
        trial.assign(r, c, 1 - board.get(r, c))
        try:
            engine.closure(trial, Level.HARD, start=start)
        except Contradiction:
            return True
        return False

    # ----- checking ----------------------------------------------------------
    def solutions(self, puzzle: Puzzle, limit: int = 2) -> list[tuple[str, ...]]:
        """Up to ``limit`` solutions by the exact SAT solver."""
        return self.engine(puzzle.size, puzzle.rules).sat_solutions(puzzle.givens, puzzle.edges, limit)

    def explain(self, puzzle: Puzzle) -> tuple[list[Step], tuple[str, ...], bool]:
        """The ladder's steps, the grid it reached, and whether that grid is full."""
        return self._ladder(puzzle, explain=True)

    def _ladder(self, puzzle: Puzzle, explain: bool, solution: Board | None = None,
                board: Board | None = None) -> tuple[list[Step], tuple[str, ...], bool]:
        """The ladder on the puzzle; ``board``, when given, is the puzzle's board (its givens and
        signs, as ``Board.from_rows`` reads them: the generator passes the one it carved), and is
        filled in place."""
        engine = self.engine(puzzle.size, puzzle.rules)
        if board is None:
            board = Board.from_rows(puzzle.givens, puzzle.edges)
        try:
            steps, solved = engine.ladder(board, self.ladder_techniques(puzzle.rules), explain, solution)
        except Contradiction:
            return [], board.rows(), False
        return steps, board.rows(), solved

    def grade(self, puzzle: Puzzle) -> Grade:
        """Hardest technique the ladder needed, a score, and technique counts."""
        return self._grade(puzzle)

    def _grade(self, puzzle: Puzzle, solution: Board | None = None, board: Board | None = None) -> Grade:
        """``grade``; the generator passes the grid it carved from, which spares trials, and the
        board it carved (the same grade: ``test_generation_hits_level_and_is_unique``)."""
        steps, _, solved = self._ladder(puzzle, explain=False, solution=solution, board=board)
        counts = Counter(step.technique for step in steps)
        level = max((TECHNIQUE_LEVEL[t] for t in counts), default=Level.EASY)
        score = work_score(counts, TECHNIQUE_WEIGHT, TECHNIQUE_LEVEL, level, puzzle.size ** 2)
        return self.rate(puzzle, Grade(level, score, dict(sorted(counts.items())), solved))

    def rate(self, puzzle: Puzzle, grade: Grade) -> Grade:
        """``VariantDefaults.rate`` (the plain version it must equal: ``rate_counts``), with
        the ladder's ratings looked up once per variant instead of once per puzzle: the
        generator rates every puzzle it grades (``test_binary_rate_equals_rate_counts``)."""
        ratings = _technique_ratings(type(self))
        if not grade.solved or not ratings.keys() >= grade.techniques.keys():
            return self.rate_counts(grade, puzzle.size ** 2)
        rating, minutes = from_counts(grade.techniques, ratings, puzzle.size ** 2)
        return Grade(grade.level, grade.score, grade.techniques, grade.solved, rating, minutes)

    def validate(self, puzzle: Puzzle) -> list[str]:
        """Every rule the solution breaks, and givens that disagree with it."""
        n, rules = puzzle.size, puzzle.rules
        problems = shape_problems(puzzle.solution, n, "01", "solution")
        problems += shape_problems(puzzle.givens, n, "01" + EMPTY, "givens")
        if problems:
            return problems
        rows = list(puzzle.solution)
        cols = ["".join(row[c] for row in rows) for c in range(n)]
        for kind, lines in (("row", rows), ("column", cols)):
            for i, line in enumerate(lines):
                ones = line.count("1")
                if ones * 2 != n:
                    problems.append(f"{kind} {i + 1} has {ones} 1s and {n - ones} 0s")
                for sym in "01":
                    if sym * (rules["max_run"] + 1) in line:
                        problems.append(f"{kind} {i + 1} has more than {rules['max_run']} {sym}s in a row")
            if rules["unique_lines"]:
                seen: dict[str, int] = {}
                for i, line in enumerate(lines):
                    if line in seen:
                        problems.append(f"{kind}s {seen[line] + 1} and {i + 1} are identical")
                    seen.setdefault(line, i)
        for edge in puzzle.edges:
            same = puzzle.answer(edge.a) == puzzle.answer(edge.b)
            if same != (edge.sign == "="):
                problems.append(f"sign {edge.sign!r} between {_cell_name(edge.a)} and "
                                f"{_cell_name(edge.b)} does not hold")
        problems += given_problems(puzzle.givens, puzzle.solution)
        return problems

    # ----- identity -----------------------------------------------------------
    def fingerprint(self, puzzle: Puzzle) -> str:
        """Same for rotations, reflections, transposes and the two symbols swapped.

        Signs travel with their cells; swapping the symbols leaves ``=`` and
        ``x`` as they are, so they need no relabelling."""
        def signs(move) -> str:
            return repr(sorted((moved_cells((e.a, e.b), move), e.sign) for e in puzzle.edges))

        return grid_fingerprint(f"{self.name}/{puzzle.size}", puzzle.rules, puzzle.givens, True, signs)

    # ----- JSON --------------------------------------------------------------
    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """Variant fields of the book JSON: rules, and edges for signed variants."""
        out: dict[str, Any] = {"rules": dict(sorted(puzzle.rules.items()))}
        if self.uses_signs:
            out["edges"] = [{"cells": [list(e.a), list(e.b)], "sign": e.sign} for e in puzzle.edges]
        return out

    def from_json(self, data: Mapping[str, Any]) -> Puzzle:
        """A puzzle from a book JSON entry; ``ValueError`` says what is malformed."""
        size = data.get("size")
        if type(size) is not int or size not in self.sizes:
            raise ValueError(f"size must be one of {', '.join(map(str, self.sizes))}, got {size!r}")
        rules = self.parse_rules(data.get("rules"), size)
        givens, solution = data.get("givens"), data.get("solution")
        problems = shape_problems(givens, size, "01" + EMPTY, "givens")
        problems += shape_problems(solution, size, "01", "solution")
        if problems:
            raise ValueError(problems[0])
        raw_edges = data.get("edges", [])
        if not self.uses_signs and raw_edges:
            raise ValueError(f"{self.name} puzzles have no edges")
        edges = edges_from_json(raw_edges, size, ("=", "x"))
        return Puzzle(self.name, size, rules, tuple(givens), tuple(solution), edges=tuple(edges))

    # ----- text (``bookgen solve``) ------------------------------------------------
    def sniff_text(self, text: str) -> int:
        """How strongly a header-less puzzle file's symbols say it is this variant (0: not)."""
        if self.uses_signs:
            return 30 if any(ch in text for ch in "SsMm\u2600\u263e=\u00d7") or re.search(r"[xX]", text) else 0
        return 10 if any(ch in text for ch in "01") else 0

    def parse_text(self, lines: Sequence[_Line], options: dict[str, Any], header: _Line | None,
                   file: str) -> Puzzle:
        """The grid of a puzzle file (header removed); ``PuzzleTextError`` when malformed."""
        return _parse_binary(self, lines, options, header, file)

    def to_text(self, puzzle: Puzzle) -> str:
        """The puzzle in the text format ``parse_text`` reads (header line included)."""
        rules = puzzle.rules
        defaults = self.parse_rules({}, puzzle.size)
        opts = "".join(f" {k}={str(v).lower()}" for k, v in sorted(rules.items()) if defaults.get(k) != v)
        return f"{puzzle.variant}{opts}\n" + "\n".join(self.text_lines(puzzle, puzzle.givens, ascii=True)) + "\n"

    def text_lines(self, puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
        """``rows`` (a state of the puzzle's grid) drawn as text lines, signs included."""
        n = puzzle.size
        symbols = self.text_symbols[1 if ascii else 0]
        if not self.uses_signs:
            return [" ".join(symbols[int(ch)] if ch != EMPTY else EMPTY for ch in row) for row in rows]
        times = "x" if ascii else "\u00d7"
        right: dict[Cell, str] = {}
        below: dict[Cell, str] = {}
        for e in puzzle.edges:
            a, b = sorted((e.a, e.b))
            sign = "=" if e.sign == "=" else times
            (right if a[0] == b[0] else below)[a] = sign
        out = []
        for r, row in enumerate(rows):
            parts = []
            for c, ch in enumerate(row):
                if c:
                    parts.append(f" {right.get((r, c - 1), ' ')} ")
                parts.append(symbols[int(ch)] if ch != EMPTY else EMPTY)
            out.append("".join(parts))
            if r + 1 < n:
                out.append("   ".join(below.get((r, c), " ") for c in range(n)).rstrip())
        return out

    def symbol_text(self, symbol: str, ascii: bool = False) -> str:
        """How one cell's symbol prints (``☀`` for a Tango 1)."""
        if symbol in "01":
            return self.text_symbols[1 if ascii else 0][int(symbol)]
        return symbol

    def clue_counts(self, puzzle: Puzzle) -> list[str]:
        """What the puzzle gives, for its one-line description: ``8 givens``, ``6 signs``."""
        parts = [f"{given_count(puzzle.givens)} givens"]
        if self.uses_signs:
            parts.append(f"{len(puzzle.edges)} signs")
        return parts

    # ----- drawing -------------------------------------------------------------
    def draw(self, pen: Pen, puzzle: Puzzle, solved: bool = False) -> None:
        """Grid, givens (shaded, solid), answers when ``solved``, and signs (not in an answer
        key: the symbols answer them)."""
        n = puzzle.size
        for r in range(n):
            for c in range(n):
                if puzzle.givens[r][c] != EMPTY:
                    pen.rect(c, r, 1, 1, fill=GIVEN_FILL)
        for i in range(1, n):
            pen.line(i, 0, i, n, THIN)
            pen.line(0, i, n, i, THIN)
        pen.rect(0, 0, n, n, stroke=BOLD)
        for r in range(n):
            for c in range(n):
                given = puzzle.givens[r][c]
                if given != EMPTY:
                    self.draw_symbol(pen, r, c, int(given), given=True)
                elif solved and puzzle.solution[r][c] != EMPTY:  # a walkthrough draws partial grids
                    self.draw_symbol(pen, r, c, int(puzzle.solution[r][c]), given=False)
        if not pen.key:
            for edge in puzzle.edges:
                draw_sign(pen, edge)

    def draw_symbol(self, pen: Pen, r: int, c: int, v: int, given: bool) -> None:
        """One symbol in cell (r, c); givens bold and black, answers lighter."""
        pen.text(c + 0.5, r + 0.5, str(v), SYMBOL_CAP, bold=given, grey=0.0 if given else 0.3)


def draw_sign(pen: Pen, edge: Edge) -> None:
    """``=`` or ``x`` centred on the shared edge, on a white disc so grid lines don't cut it."""
    (r1, c1), (r2, c2) = edge.a, edge.b
    pen.stamp(("binary-sign", edge.sign), (c1 + c2) / 2 + 0.5, (r1 + r2) / 2 + 0.5,
              lambda p: _draw_sign(p, edge.sign))


def _draw_sign(pen: Pen, sign: str) -> None:
    """``=`` or ``x`` on its disc, centred on the origin."""
    x = y = 0.0
    pen.circle(x, y, 0.19, fill=SIGN_FILL, stroke=None)
    t, h = 0.04, 0.11  # half stroke thickness, half length
    if sign == "=":
        for dy in (-0.055, 0.055):
            pen.polygon([(x - h, y + dy - t), (x + h, y + dy - t),
                         (x + h, y + dy + t), (x - h, y + dy + t)], fill=0.0)
    else:
        for sx in (1, -1):
            # a bar from (-h, -h) to (h, h), mirrored for the second stroke
            pts = [(-h - t * 0.7, -h + t * 0.7), (-h + t * 0.7, -h - t * 0.7),
                   (h + t * 0.7, h - t * 0.7), (h - t * 0.7, h + t * 0.7)]
            pen.polygon([(x + sx * px, y + py) for px, py in pts], fill=0.0)


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _cell_name(cell: tuple[int, int]) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


# ----- text ------------------------------------------------------------------
# What a Tango cell may be typed as, and what it means (1 sun, 0 moon).
TANGO_CELLS = {"S": "1", "s": "1", "\u2600": "1", "1": "1", "M": "0", "m": "0", "\u263e": "0", "0": "0"}
TAKUZU_CELLS = {"0": "0", "1": "1"}
SIGNS = {"=": "=", "x": "x", "X": "x", "\u00d7": "x"}


def _parse_binary(variant: BinaryGrid, lines: Sequence[_Line], options: dict[str, Any],
                  header: _Line | None, file: str) -> Puzzle:
    signed = variant.uses_signs
    alphabet = TANGO_CELLS if signed else TAKUZU_CELLS
    expect = ("S (sun), M (moon) or . (empty), with = or x between cells" if signed
              else "0, 1 or . (empty)")

    def unknown(ch: str) -> str:
        if ch in SIGNS:  # only reached without signs: Takuzu
            return (f"unknown symbol {ch!r}: Takuzu has no signs (for suns, moons and signs, "
                    "start the file with 'tango')")
        return f"unknown symbol {ch!r}; {variant.title} cells are {expect}"

    grid = read_sign_grid(lines, file, lambda ch: EMPTY if ch == EMPTY else alphabet.get(ch),
                          SIGNS if signed else {}, SIGNS if signed else {}, unknown)
    rows, row_lines, edges = grid.rows, grid.row_lines, grid.edges
    n = _square(rows, row_lines, variant.sizes, variant.title, file)
    rules = _rules(variant, options, n, header, file)
    givens = tuple("".join(r) for r in rows)
    return Puzzle(variant.name, n, rules, givens, tuple(EMPTY * n for _ in range(n)), edges=tuple(edges))
