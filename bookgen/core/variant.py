"""The one small interface every puzzle variant implements.

Modelled on Simon Tatham's collection: generate, validate, count solutions,
grade, explain, draw, and a JSON mapping. The book, the checker and the CLI
only ever talk to a variant through this protocol.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields, replace
from typing import Any, Collection, Mapping, Protocol, Sequence

from bookgen.core.difficulty import Level
from bookgen.core.pen import Pen
from bookgen.core.rating import from_counts, technique_rating
from bookgen.core.text import TextLine
from bookgen.core.types import MAX_CAGE, GenerationError, Grade, Puzzle, Size, SizeRange, rows_cols


@dataclass(frozen=True)
class Technique:
    """A named deduction, the tier it belongs to, and how to explain it to a player."""

    name: str
    level: Level
    title: str
    description: str


def techniques_of(text: Mapping[str, tuple[str, str]], levels: Mapping[str, Level],
                  leave_out: Sequence[str] = ()) -> tuple[Technique, ...]:
    """The techniques of a how-to page, in the order of ``text`` (name -> (title,
    description)), each at the tier ``levels`` (its ladder's) gives it; ``leave_out`` names
    those a variant's rules never use."""
    return tuple(Technique(key, levels[key], title, description)
                 for key, (title, description) in text.items() if key not in leave_out)


def rule_options(raw: Any, kind: str, known: Collection[str], expected: str) -> Mapping[str, Any]:
    """A section's ``rules:`` (None: no options) as a mapping of ``known`` options only;
    ``ValueError`` when it is no mapping, or naming the first unknown option and what
    ``kind`` (the variant, as messages name it) ``expected``."""
    raw = {} if raw is None else raw
    if not isinstance(raw, Mapping):
        raise ValueError(f"{kind} rules must be a mapping of options")
    unknown = sorted(str(k) for k in raw if k not in known)
    if unknown:
        raise ValueError(f"unknown {kind} rule option {unknown[0]!r}; expected {expected}")
    return raw


@dataclass(frozen=True)
class Step:
    """One deduction: the technique, the cells it fixed (with symbols), and why."""

    technique: str
    cells: tuple[tuple[tuple[int, int], str], ...]
    reason: str


@dataclass(frozen=True)
class Extent:
    """What a puzzle takes on the page, in cells: its grid (``rows`` x ``cols``) and a margin
    on each side for clues printed outside the grid. The variant draws its grid from (0, 0)
    to (cols, rows) and its outside clues into the margins (negative coordinates above and
    left of the grid); the layout sizes and places ``width`` x ``height`` cells."""

    rows: int
    cols: int
    top: float = 0.0
    bottom: float = 0.0
    left: float = 0.0
    right: float = 0.0
    # How much larger than the smallest answer-key cell this grid's key cell must be for its
    # symbols to keep the key's type floor and clear the lines (two-digit numbers: 1.25; a key
    # with no digits at all, a Nonogram's picture, may go below 1).
    key_scale: float = 1.0
    # The smallest cell a player's mark needs, in mm (0: the page's floor for a handwritten
    # symbol). A grid filled with strokes and dots (a Nonogram's) is legible in smaller cells
    # than one filled with written digits, so its largest sizes still fit a page.
    mark_cell_mm: float = 0.0

    def __hash__(self) -> int:
        # The page planner keys dicts by extent once per puzzle (10^5 of them in a config
        # check): the field tuple is hashed once, not on every lookup. Equal to the
        # generated hash of the same fields (tests/test_layout.py checks it).
        try:
            return self.__dict__["_hash"]
        except KeyError:
            h = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", h)
            return h

    @property
    def width(self) -> float:
        """Cells across, margins included."""
        return self.left + self.cols + self.right

    @property
    def height(self) -> float:
        """Cells down, margins included."""
        return self.top + self.rows + self.bottom

    @property
    def label(self) -> str:
        """``6x6``: the grid's size as the messages name it."""
        return f"{self.rows}x{self.cols}"


Row = tuple[float | None, ...]  # CPU ms a puzzle, easy..expert; None where the level is refused


@dataclass(frozen=True)
class Measured:
    """What one puzzle of a variant costs to make and to hold, as measured in ``bench/``: the
    build-time estimate (``bookgen.estimate``) and the memory limit (``bookgen.limits``) read
    it. The defaults are a variant with nothing measured: no table (the estimate assumes 1 s a
    puzzle) and a cautious 1 KB a cell."""

    # Mean CPU ms to make one puzzle with the default rules, per size, easy..expert.
    costs: Mapping[Size, Row] = field(default_factory=dict)
    # (rule option, value) -> how much it multiplies ``costs``, easy..expert, where measured
    # over 1.5x (``bookgen.estimate.puzzle_ms``; a list value as a sorted tuple).
    rule_costs: Mapping[tuple[str, Any], tuple[float, ...]] = field(default_factory=dict)
    # (rule option, value) -> its own ``costs`` table, for an option that is a puzzle of its own
    # cost (Sudoku X, two stars): it opens levels the default rules refuse, or its cost is no
    # one factor of the default's across sizes. A value that is a size's default is no option.
    rule_cost_rows: Mapping[tuple[str, Any], Mapping[Size, Row]] = field(default_factory=dict)
    # KB of memory a puzzle adds to a build per cell of its grid, on top of
    # ``bookgen.limits.PUZZLE_KB_FIXED``: its page and answer drawings, held until the PDF is
    # saved, and its entry (``bench/measure_memory.py`` at the largest size, with a margin).
    memory_kb_per_cell: float = 1.0


class VariantDefaults:
    """The protocol's answers for a variant that says nothing else: a square grid of
    ``size`` cells with nothing outside it, no note on sizes, no ``givens`` option and no
    measured costs. Variants inherit it and override what differs."""

    # The most cells a cage of a JSON entry may have before ``bookgen solve`` refuses it
    # (its solvers enumerate cages); a variant whose cages are longer says so.
    largest_cage = MAX_CAGE
    size_note = ""  # said after a refused size ("sizes must be even")
    givens_option = False  # whether a section's ``givens: few|normal|many`` steers the generator
    # Whether a section's ``pictures:`` (the user's own pictures, one puzzle each) applies; such
    # a variant's ``generate`` makes the puzzle of ``options["picture"]`` (a ``Picture``).
    pictures_option = False
    rule_help: Mapping[str, str] = {}  # rule option -> what it means (the config reference)
    # Square grids only: sizes are ints N (N x N) from ``sizes``. A variant that takes
    # rectangles sets ``rectangular = True`` and ``size_range``; it then gets a
    # ``GridSize(rows, cols)`` for every size (a config's ``10`` as 10 x 10), and
    # ``sizes`` lists the square sides it offers in menus (docs/rectangles.md).
    rectangular = False
    size_range: SizeRange | None = None

    # The ladder table the variant grades by (``bookgen.solve.houses.Ladder``), where its rows
    # carry the how-to texts: the variant's ``techniques`` and ``rating_table`` are read off
    # it. A variant whose ladder serves others too, worded otherwise, says both itself.
    ladder: Any = None

    @property
    def techniques(self) -> tuple[Technique, ...]:
        """The techniques of the how-to page, in the ladder's order (``Ladder.explained``)."""
        return self.ladder.explained

    def techniques_for(self, rules: Mapping[str, Any]) -> tuple[Technique, ...]:
        """Every technique serves every rule set (a variant whose options switch some off
        says which)."""
        return self.techniques

    @property
    def rating_table(self) -> Mapping[str, float | None]:
        """Technique -> the value of one use on the rating scale (``bookgen.core.rating``; a
        technique missing or without one rates by its tier): the ladder's ``Tech`` ratings."""
        return self.ladder.rating if self.ladder is not None else {}

    @property
    def measured(self) -> Measured:
        """The variant's measured costs: its data file ``bookgen/variants/costs/NAME.json``,
        read once, or ``Measured()`` where it has none (docs/estimates.md)."""
        # The file is package data beside the variant modules; reading it is their business
        # (core does no I/O), so the loader lives there and is imported when first asked.
        from bookgen.variants.measured import load
        return load(self.name)

    def extent(self, size: Size, rules: Mapping[str, Any]) -> Extent:
        """The grid (N x N, or rows x cols), nothing drawn outside it."""
        return Extent(*rows_cols(size))

    def request_rules(self, size: Size, rules: Mapping[str, Any] | None, level: Level) -> dict[str, Any]:
        """``rules`` completed (``parse_rules``) for a puzzle ``generate`` is to make;
        ``GenerationError`` with ``check_request``'s reason when it can't be made."""
        parsed = self.parse_rules(rules, size)  # type: ignore[attr-defined]
        problem = self.check_request(size, parsed, level)  # type: ignore[attr-defined]
        if problem:
            raise GenerationError(problem)
        return parsed

    def banded_levels(self, size: Size, rules: Mapping[str, Any]) -> bool:
        """Whether a named level at ``size`` is a band of the rating its puzzles must fall in
        and print as: only where the rating was calibrated against Sudoku Explainer's
        (docs/calibration.md). Elsewhere a named level is the ladder tier the puzzle is
        carved at, and its rating is reported beside it (a ``{rating: ...}`` range is a band
        everywhere)."""
        return False

    def climbs(self, size: Size, rules: Mapping[str, Any]) -> bool:
        """Whether a puzzle aimed above its tier's carve (``rating.CLIMB_FROM``: extreme) is
        climbed there at ``size`` (``bookgen.solve.harden``; the option ``aim`` with
        ``climb``), so such a level or range is reachable (``rating.CLIMBED_REACH``)."""
        return False

    def picture_problem(self, rows: Sequence[str]) -> str | None:
        """Why a picture (rows of ``1`` dark and ``0`` light, of a size in range) can't be a
        puzzle, or None (only asked of a variant with ``pictures_option``)."""
        return None

    def picture_key(self, rows: Sequence[str]) -> str:
        """Equal for two pictures that make the same puzzle (a book prints each once)."""
        return "\n".join(rows)

    def rate(self, puzzle: Puzzle, grade: Grade) -> Grade:
        """``grade`` with its rating and minutes, from the technique counts (the hardest
        technique used; each use timed as a typical step). A variant on the Latin engine
        rates by the easiest-first run instead (``bookgen.solve.rated``)."""
        return self.rate_counts(grade, puzzle.rows * puzzle.cols)

    def rating_points(self, size: Size, rules: Mapping[str, Any]) -> Mapping[Level, frozenset[float]] | None:
        """The ratings a puzzle carved at each tier can have, where there are few: rated from
        its technique counts (``rate``), a puzzle rates as the hardest technique it used, so
        one of tier T rates as a technique of tier T or below, no lower than T's easiest. The
        config check asks it before it accepts a ``{rating: ...}`` range. None where the
        rating runs on a scale (the Latin engine's rated run: ``rating.TIER_REACH``)."""
        techniques = self.techniques_for(rules)
        value = {t.name: technique_rating(self.rating_table.get(t.name), t.level) for t in techniques}
        points: dict[Level, frozenset[float]] = {}
        for tier in sorted({t.level for t in techniques}):
            floor = min(value[t.name] for t in techniques if t.level == tier)
            points[tier] = frozenset(value[t.name] for t in techniques if t.level <= tier and value[t.name] >= floor)
        return points

    def rate_counts(self, grade: Grade, cells: int) -> Grade:
        """``rate`` where the cells a solver fills are not the whole grid (Kakuro's blocks)
        or the puzzle is not built yet."""
        if not grade.solved:
            return grade
        tiers = {t.name: t.level for t in self.techniques}  # type: ignore[attr-defined]
        ratings = {name: technique_rating(self.rating_table.get(name), tiers.get(name, Level.EXPERT))
                   for name in grade.techniques}
        rating, minutes = from_counts(grade.techniques, ratings, cells)
        return replace(grade, rating=rating, minutes=minutes)


class Variant(Protocol):
    """A puzzle variant. Instances are stateless and picklable."""

    name: str
    aliases: tuple[str, ...]
    title: str
    rules_text: tuple[str, ...]
    techniques: tuple[Technique, ...]
    sizes: tuple[int, ...]  # square sides (a rectangular variant: those its menus offer)
    default_size: Size  # an int N, or a rectangular variant's GridSize
    size_note: str
    givens_option: bool
    pictures_option: bool
    rule_help: Mapping[str, str]
    measured: Measured  # build cost and memory a puzzle, as measured (docs/estimates.md)
    rectangular: bool  # takes rows x cols grids: sizes are ``GridSize``s inside ``size_range``
    size_range: SizeRange | None  # the rows and cols a rectangular variant takes (None: square only)

    def extent(self, size: Size, rules: Mapping[str, Any]) -> Extent:
        """The cells a puzzle of this size and rules takes on the page: its grid and the
        margins its outside clues need. The layout plans pages from this before any puzzle
        exists, so it depends on size and rules only."""

    def parse_rules(self, raw: Mapping[str, Any] | None, size: Size) -> dict[str, Any]:
        """Complete and validate rule options for ``size``; ``ValueError`` on a bad option."""

    def rules_for(self, rules: Mapping[str, Any], sizes: Sequence[Size] = ()) -> tuple[str, ...]:
        """The rules as printed for a section with these (complete) rule options, one
        sentence per item: what a player must be told, and nothing the options switch off.
        With ``sizes`` (every size the rule set prints) they name the digits, box shapes
        or symbol counts of those sizes (see ``bookgen.core.rules``); without, the same
        rules in words that hold for any size (what tells two rule sets apart)."""

    def techniques_for(self, rules: Mapping[str, Any]) -> tuple[Technique, ...]:
        """The techniques the grader may use under these rules, easiest first (the how-to
        page lists these: no technique for a rule the section switched off)."""

    def smallest_type(self, size: Size, rules: Mapping[str, Any]) -> float:
        """The smallest font size any puzzle of this size and rules may print, as a
        fraction of the cell (the longest possible clue included); the layout sizes cells
        so that this stays legible."""

    def banded_levels(self, size: Size, rules: Mapping[str, Any]) -> bool:
        """Whether a named level at ``size`` is a band of the rating (see ``VariantDefaults``)."""

    def climbs(self, size: Size, rules: Mapping[str, Any]) -> bool:
        """Whether an aim above the tier's carve is climbed (see ``VariantDefaults``)."""

    def check_request(self, size: Size, rules: Mapping[str, Any], level: Level) -> str | None:
        """Why this request can't be generated, or None when it can."""

    def picture_problem(self, rows: Sequence[str]) -> str | None:
        """Why a user's picture can't be a puzzle of this variant, or None."""

    def picture_key(self, rows: Sequence[str]) -> str:
        """Equal for two pictures that make the same puzzle."""

    def generate(
        self, size: Size, rules: Mapping[str, Any], level: Level, rng: random.Random,
        options: Mapping[str, Any] | None = None,
    ) -> Puzzle:
        """A unique puzzle graded exactly ``level``; ``GenerationError`` when out of budget."""

    def validate(self, puzzle: Puzzle) -> list[str]:
        """Rule violations of the solution and givens/solution mismatches ([] when fine)."""

    def solutions(self, puzzle: Puzzle, limit: int = 2) -> list[tuple[str, ...]]:
        """Up to ``limit`` solutions found by the exact solver."""

    def grade(self, puzzle: Puzzle) -> Grade:
        """Grade by the human-technique ladder; ``level`` is EXPERT+ when it gets stuck."""

    def explain(self, puzzle: Puzzle) -> tuple[list[Step], tuple[str, ...], bool]:
        """The ladder's steps, the grid it reached, and whether it is solved."""

    def draw(self, pen: Pen, puzzle: Puzzle, solved: bool = False) -> None:
        """Draw the puzzle (or its answer) in grid units."""

    def fingerprint(self, puzzle: Puzzle) -> str:
        """A short string equal for two puzzles exactly when one is the other under a grid
        symmetry and the variant's relabellings; computed from givens and clues only."""

    def to_json(self, puzzle: Puzzle) -> dict[str, Any]:
        """The variant-specific JSON fields (``rules``, ``edges``, ``cages`` ...)."""

    def from_json(self, data: Mapping[str, Any]) -> Puzzle:
        """Rebuild a puzzle from a book JSON entry; ``ValueError`` on a malformed one."""

    # The text format of ``bookgen solve`` (generic parts live in bookgen.puzzletext).
    def sniff_text(self, text: str) -> int:
        """How strongly a header-less puzzle file's symbols point to this variant (0: not at all)."""

    def parse_text(
        self, lines: Sequence[TextLine], options: dict[str, Any], header: TextLine | None, file: str,
    ) -> Puzzle:
        """The puzzle in ``lines`` (the header line removed); ``PuzzleTextError`` when malformed."""

    def to_text(self, puzzle: Puzzle) -> str:
        """The puzzle as text that ``parse_text`` reads back, header line included."""

    def text_lines(self, puzzle: Puzzle, rows: Sequence[str], ascii: bool = False) -> list[str]:
        """A state ``rows`` of the puzzle's grid drawn as text lines, clues included."""

    def symbol_text(self, symbol: str, ascii: bool = False) -> str:
        """How one cell's symbol prints in text."""

    def clue_counts(self, puzzle: Puzzle) -> list[str]:
        """What the puzzle gives, for its one-line description (``8 givens``, ``6 signs``)."""
