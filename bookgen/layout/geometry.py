"""Page geometry and pagination, in points, without reportlab.

Everything about *where* things go that can be decided before drawing lives
here: trim sizes and units, bleed and the PDF boxes, print-on-demand margins
and the gutter that grows with the page count, the type scale (normal or
large print), how many puzzles fit on a page and at what cell size, and the
page plan of a whole book or worksheet packet. The config validator uses it
to reject a page format too small for a grid, and the renderer draws the
plan it returns, so both always agree.

Coordinates follow PDF: origin at the bottom-left of the media box, y up.
Pages are numbered from 1; odd pages are right-hand (recto) pages, so their
inside (spine) edge is on the left.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import groupby
from typing import Any, Sequence

from bookgen.core.i18n import N_
from bookgen.i18n import with_name
from bookgen.core.pen import CAP_HEIGHT
from bookgen.core.types import Puzzle, Size, cell_count
from bookgen.core.variant import Extent
from bookgen.variants.registry import get_variant

INCH = 72.0
MM = 72.0 / 25.4
UNITS = {"in": INCH, "mm": MM, "pt": 1.0}
TRIMS = {  # name -> (width, height) of the trimmed page
    "letter": (8.5 * INCH, 11 * INCH),
    "a4": (210 * MM, 297 * MM),
    "6x9": (6 * INCH, 9 * INCH),
    "7x10": (7 * INCH, 10 * INCH),
    "8x10": (8 * INCH, 10 * INCH),
    "8.5x11": (8.5 * INCH, 11 * INCH),
}
BLEED = 0.125 * INCH
MIN_MARGIN, MIN_MARGIN_BLEED = 0.25 * INCH, 0.375 * INCH  # top, bottom, outside
# Print-on-demand inside margins: (most pages, gutter).
GUTTERS = ((150, 0.375 * INCH), (300, 0.5 * INCH), (500, 0.625 * INCH),
           (700, 0.75 * INCH), (828, 0.875 * INCH))
MIN_PAGES, MAX_PAGES = 24, 828
PER_PAGE = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}  # count -> (columns, rows)
KEY_DIGIT = 0.42 / CAP_HEIGHT  # an answer digit's font size, in cells (the variants' digit cap 0.42)
KEY_SHARE = 0.1  # the most of a book's pages its answer key should take
KEY_COLUMNS = 8  # answer grids side by side, at most
KEY_GAP = 0.15 * INCH  # between answer grids side by side: they are small, and numbered
SHARE = 0.8  # puzzles share a page when none of them loses more than a fifth of its cell size
THIN = 0.75  # every printed rule is at least this wide
BOLD = 3 * THIN
# A rating caption's line, in its type size: the face's ascent and descent (1.17 em,
# ``bookgen.layout.fonts``) and 0.45 em of space between the grid's bold edge and its letters.
CAPTION_LINE = 1.62
MIN_SIZE, MAX_SIZE = 3 * INCH, 20 * INCH
_LENGTH = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(in|mm|pt)\s*$")


class Scaled:
    """One measure of a ``Style``'s scale, in points: ``normal`` on an ordinary page,
    ``large`` in large print; read on a style, it is that style's value."""

    def __init__(self, normal: float, large: float, doc: str) -> None:
        self.normal, self.large, self.__doc__ = normal, large, doc

    def __get__(self, style: Any, owner: type | None = None) -> Any:
        if style is None:  # on the class: the measure itself (its doc, its two values)
            return self
        return self.large if style.large_print else self.normal


@dataclass(frozen=True)
class Style:
    """The type scale and cell limits: normal, or large print (bigger cells and type)."""

    large_print: bool = False
    # Lines of the worksheet rule reminder, set at the caption size: as many as the
    # longest reminder of the book needs, so its type never shrinks below the floor.
    reminder_lines: int = 3
    face: str = "dejavu"  # the text face (``bookgen.layout.fonts.FACES``); grids keep DejaVu Sans
    # ``show_rating``: a caption line under each puzzle (its rating and minutes). Off, no room
    # is taken for it, so a book without it is laid out to the same points as before.
    rating_caption: bool = False

    def _pick(self, normal: float, large: float) -> float:
        return large if self.large_print else normal

    # The scale in points, ordinary and large print side by side (``Scaled``: normal, large, what it is).
    min_cell = Scaled(8 * MM, 12 * MM, "The smallest cell a pencil symbol fits in comfortably.")
    roomy_cell = Scaled(10 * MM, 14 * MM, "Default per_page picks the most puzzles per page that keep cells this big.")
    max_cell = Scaled(16 * MM, 22 * MM, "Cells never grow past this, however much room there is.")
    min_type = Scaled(8.0, 11.0, "The legibility floor of anything printed in a puzzle grid (clues included).")
    min_key_type = Scaled(6.0, 8.0, "The floor of answer digits in the answer key.")
    body = Scaled(10.5, 14.0, "Running text.")
    small = Scaled(8.5, 11.5, "Captions, header, footer.")
    label = Scaled(12.0, 16.0, "'Puzzle 12' above a grid.")
    heading = Scaled(20.0, 26.0, "Page headings ('Contents', 'How to play ...').")

    @property
    def key_cell(self) -> tuple[float, float]:
        """(smallest, largest) cell of an answer-key grid: the smallest keeps answer digits
        (0.576 of the cell) at ``min_key_type``."""
        return (self.min_key_type / KEY_DIGIT, self._pick(6 * MM, 8 * MM))

    def floor_cell(self, type_scale: float = 1.0, mark_cell_mm: float = 0.0) -> float:
        """The smallest cell for a puzzle whose smallest type is ``type_scale`` of the cell
        (and whose marks need ``mark_cell_mm``, when the grid says so: ``Extent``; large
        print scales it as it scales the handwriting floor)."""
        cell = self.min_cell
        if mark_cell_mm:
            cell = mark_cell_mm * MM * self._pick(1.0, 12 / 8)
        return max(cell, self.min_type / type_scale)

    @property
    def label_h(self) -> float:
        """Room above a grid for its label line."""
        return round(self.label * 1.9, 2)

    @property
    def caption_h(self) -> float:
        """Room under a grid for its rating caption: the grid's bold edge, a gap and one line
        at the caption size (``small``, the captions' floor); 0 without ``rating_caption``."""
        if not self.rating_caption:
            return 0.0
        return round(BOLD / 2 + self.small * CAPTION_LINE, 2)

    @property
    def band(self) -> float:
        """Height of the running-header band and of the footer band."""
        return round(self.small * 2.6, 2)


@dataclass(frozen=True)
class Trim:
    """A trimmed page size: a format name and its width and height in points."""

    name: str
    width: float
    height: float


def parse_length(text: str) -> float:
    """``'6in'``, ``'152.4 mm'`` or ``'432pt'`` -> points; ``ValueError`` otherwise."""
    m = _LENGTH.match(text) if isinstance(text, str) else None
    if not m:
        raise ValueError(f"a length is a number with a unit (in, mm or pt), like '6in' or '210mm'; got {text!r}")
    return float(m.group(1)) * UNITS[m.group(2)]


def trim_for(value: object) -> Trim:
    """A trim from a format name or ``{width, height}``; ``ValueError`` says what is wrong."""
    if isinstance(value, str):
        key = value.strip().lower()
        if key not in TRIMS:
            raise ValueError(f"page must be one of {', '.join(TRIMS)} or {{width, height}}, got {value!r}")
        return Trim(key, *TRIMS[key])
    if isinstance(value, dict):
        extra = sorted(set(value) - {"width", "height"}, key=str)
        if extra or set(value) != {"width", "height"}:
            raise ValueError("a custom page is {width: 6in, height: 9in}"
                             + (f"; unknown key {extra[0]!r}" if extra else ""))
        w, h = parse_length(value["width"]), parse_length(value["height"])
        for what, v in (("width", w), ("height", h)):
            if not MIN_SIZE <= v <= MAX_SIZE:
                raise ValueError(f"page {what} must be between 3in and 20in, got {value[what]!r}")
        return Trim(f"{_fmt(w)}x{_fmt(h)}in", w, h)
    raise ValueError(f"page must be a format name or {{width, height}}, got {value!r}")


def _fmt(points: float) -> str:
    return f"{points / INCH:.3f}".rstrip("0").rstrip(".")


def gutter_for(pages: int) -> float:
    """The inside margin print-on-demand services ask for at this page count."""
    for most, gutter in GUTTERS:
        if pages <= most:
            return gutter
    return GUTTERS[-1][1]


# What a bound book gets past the service's minimum: a perfect binding glues about 1/8 in
# of every page into the spine and the page curves into it, so a grid at the bare minimum
# is hard to write in near the spine; 1/8 in more keeps its inner cells flat and open.
COMFORT = 0.125 * INCH


def comfortable_gutter(pages: int, chosen: float | None = None) -> float:
    """The inside margin a book of ``pages`` gets: the one set in its config, or the
    service's minimum plus ``COMFORT``."""
    return chosen if chosen is not None else gutter_for(pages) + COMFORT


Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class PageSpec:
    """A page format: trim, bleed, whether left and right pages mirror, and margins."""

    trim: Trim
    bleed: bool = False
    mirrored: bool = True  # a bound book; a worksheet is printed one-sided

    @property
    def bleed_w(self) -> float:
        """How far the media runs past the trim on top, bottom and outside."""
        return BLEED if self.bleed else 0.0

    @property
    def media(self) -> tuple[float, float]:
        """The PDF page size: trim plus bleed on the outside, top and bottom."""
        return self.trim.width + self.bleed_w, self.trim.height + 2 * self.bleed_w

    @property
    def margin(self) -> float:
        """Top, bottom and outside margin: the service's minimum, or more on larger pages."""
        least = MIN_MARGIN_BLEED if self.bleed else MIN_MARGIN
        design = max(0.5 * INCH, round(0.07 * self.trim.width / (INCH / 16)) * INCH / 16)
        return max(least, design)

    def trim_box(self, page: int) -> Box:
        """Where the trimmed page sits on the media: bleed is on the outside edge."""
        b = self.bleed_w
        x0 = b if (page % 2 == 0 and self.mirrored) else 0.0
        return (x0, b, x0 + self.trim.width, b + self.trim.height)

    def safe(self, page: int, gutter: float) -> Box:
        """The area everything is drawn in: the trim minus margins, the gutter inside."""
        x0, y0, x1, y1 = self.trim_box(page)
        m = self.margin
        inside = gutter if self.mirrored else m
        left, right = (inside, m) if page % 2 == 1 or not self.mirrored else (m, inside)
        return (x0 + left, y0 + m, x1 - right, y1 - m)


@dataclass(frozen=True)
class Arrangement:
    """Puzzles on one page: columns x rows of slots and the common cell size."""

    columns: int
    rows: int
    cell: float

    @property
    def count(self) -> int:
        """Slots per page."""
        return self.columns * self.rows


def content_size(spec: PageSpec, gutter: float, style: Style, worksheet: bool) -> tuple[float, float]:
    """Width and height left for puzzles inside the safe area, header and footer."""
    width = spec.trim.width - spec.margin - (gutter if spec.mirrored else spec.margin)
    height = spec.trim.height - 2 * spec.margin - 2 * style.band
    if worksheet:
        height -= worksheet_top(style)
    return width, height


def worksheet_top(style: Style) -> float:
    """The name line and the rule reminder above a worksheet's puzzles."""
    return style.body * 2.6 + style.small * (1.35 * style.reminder_lines) + 18


REMINDER_LINES = 3  # the reminder's room when its text is shorter


def rule_reminder(name: str, rules: Sequence[str], t=str) -> str:
    """A worksheet's rule reminder: the variant's printed name and its rules, less the closing
    line, in the book's language (``t`` translates)."""
    text = " ".join(t(rule) for rule in (rules[:-1] if len(rules) > 2 else rules))
    return with_name(t, "{name} rules: {text}", name, text=text)


def reminder_name(title: str, name: str, variant) -> str:
    """What a worksheet's rule box is headed with: the section's title where it names the
    puzzle (so the box and the page agree: "KenKen (addition) rules"), else the title and
    the printed name ("Warm-up (Sudoku) rules")."""
    low = title.lower()
    if any(n and n.lower() in low for n in (name, variant.name, variant.title, *variant.aliases)):
        return title
    return f"{title} ({name})"


def reminder_width(spec: "PageSpec", style: Style) -> float:
    """The width the reminder's lines are broken to (inside its grey box)."""
    return content_size(spec, 0.0, style, False)[0] - 16
SLOT_GAP = 0.3 * INCH  # least space between neighbouring puzzles


# ----- a puzzle's extent: the one place the layout learns a puzzle's shape -------------
def extent_of(variant: str, size: Size, rules: Sequence[tuple] | dict = ()) -> Extent:
    """The cells a ``variant`` puzzle of ``size`` takes on the page, outside clues included:
    what the variant says (``Variant.extent``). Every grid the layout places, sizes or
    draws (puzzle pages, worksheets, the answer key, how-to examples, walkthroughs, the
    cover) goes through here."""
    return get_variant(variant).extent(size, dict(rules))


def puzzle_extent(puzzle: Puzzle) -> Extent:
    """``extent_of`` a built puzzle."""
    return extent_of(puzzle.variant, puzzle.size, puzzle.rules)


def key_extent(ext: Extent) -> Extent:
    """What an answer key draws of a puzzle of extent ``ext``: the grid alone. A key's pen
    (``Pen.key``) leaves out what states the puzzle, so outside clues (a Nonogram's runs,
    Skyscrapers' counts) never print there, and their margins would only push the grid
    off its number and shrink it."""
    if not (ext.top or ext.bottom or ext.left or ext.right):
        return ext
    return replace(ext, top=0.0, bottom=0.0, left=0.0, right=0.0)


def span(size: int | Extent) -> tuple[float, float]:
    """(cells across, cells down) of a square grid's side or of an ``Extent``."""
    return (size.width, size.height) if isinstance(size, Extent) else (size, size)


def grid_origin(size: int | Extent, x: float, top: float, cell: float) -> tuple[float, float]:
    """The grid's top-left corner in a block whose top-left is (x, top): past the margins
    left of and above the grid, where its outside clues go."""
    if not isinstance(size, Extent):
        return x, top
    return x + size.left * cell, top - size.top * cell


def size_label(size: int | Extent) -> str:
    """``6x6``, as the fit messages name a grid."""
    return size.label if isinstance(size, Extent) else f"{size}x{size}"


def arrange(width: float, height: float, size: int | Extent, per_page: int, style: Style) -> Arrangement:
    """The cell size ``per_page`` puzzles of ``size`` (a square grid's side, or an
    ``Extent``) get in a width x height area."""
    cols, rows = PER_PAGE[per_page]
    slot_w = (width - (cols - 1) * SLOT_GAP) / cols - BOLD
    slot_h = (height - (rows - 1) * SLOT_GAP) / rows - style.label_h - style.caption_h - BOLD
    across, down = span(size)
    cell = min(slot_w / across, slot_h / down, style.max_cell)
    return Arrangement(cols, rows, cell)


def _mark_cell(size: int | Extent) -> float:
    """The mark floor a grid's extent asks for, in mm (0: none of its own)."""
    return size.mark_cell_mm if isinstance(size, Extent) else 0.0


def best_per_page(width: float, height: float, size: int | Extent, style: Style, type_scale: float = 1.0) -> int:
    """Default puzzles per page: the most that keep cells roomy, else the most that keep
    cells and their type (``type_scale`` of the cell) above the floors."""
    floor = style.floor_cell(type_scale, _mark_cell(size))
    # Roomy is judged without the rating caption: printing the ratings keeps a book's
    # puzzles per page (and so its page count), its cells a little smaller, never below the floor.
    plain = replace(style, rating_caption=False)
    for want in (max(style.roomy_cell, floor), floor):
        for count in sorted(PER_PAGE, reverse=True):
            if (arrange(width, height, size, count, plain).cell >= want - 1e-9
                    and arrange(width, height, size, count, style).cell >= floor - 1e-9):
                return count
    return 1


def fit_problem(width: float, height: float, size: int | Extent, per_page: int | None, style: Style,
                page_name: str, type_scale: float = 1.0) -> str | None:
    """Why ``size`` grids at ``per_page`` don't fit the area (None when they do): cells
    too small to write in, or type (``type_scale`` of the cell) below the floor."""
    count = per_page or best_per_page(width, height, size, style, type_scale)
    cell = arrange(width, height, size, count, style).cell
    floor = style.floor_cell(type_scale, _mark_cell(size))
    if cell >= floor - 1e-9:
        return None
    many = f"{count} {size_label(size)} grids per page" if count > 1 else f"a {size_label(size)} grid"
    fix = "fewer per page, a larger page or a smaller size" if count > 1 else "a larger page or a smaller size"
    verb = "get" if count > 1 else "gets"
    if cell <= 0:  # the margins, header and labels alone fill the page
        return (f"a {page_name} page has no room for {many} once its margins and header are taken; "
                f"choose {fix}")
    if cell < style.floor_cell(1e9, _mark_cell(size)) - 1e-9:  # the floor of the cell alone
        need = f"{style.floor_cell(1e9, _mark_cell(size)) / MM:g} mm" + (" (large print)" if style.large_print else "")
        return (f"{many} on a {page_name} page {verb} {cell / MM:.1f} mm cells, below the {need} "
                f"needed for handwriting; choose {fix}")
    need = f"{style.min_type:g} pt" + (" (large print)" if style.large_print else "")
    return (f"{many} on a {page_name} page {verb} {cell / MM:.1f} mm cells, where the longest clues "
            f"print at {type_scale * cell:.1f} pt, below the {need} floor; choose {fix}, or rules "
            "with shorter clues (a smaller max_cage, or no '*')")


# ----- the page plan --------------------------------------------------------------
@dataclass(frozen=True)
class SectionShape:
    """What pagination needs to know of a section: title, variant, sizes in order, per_page,
    and whether its first puzzle gets a step-by-step walkthrough (``explain``)."""

    title: str
    variant: str
    sizes: tuple[Size, ...]  # one per puzzle: ints N, or a rectangular variant's ``GridSize``s
    per_page: int | None = None
    explain: bool = False
    rules: tuple = ()  # the section's complete rule options, sorted (key, value) pairs
    new_page: bool = False  # starts on a fresh page, and the next section does too
    type_scale: float = 1.0  # the smallest type its puzzles print, as a fraction of the cell
    rule_text: tuple[str, ...] = ()  # the rules as printed (the variant's rules_for)
    right: bool = False  # opens on a right-hand page (``new_page: right``): a blank page before if need be

    @property
    def rule_key(self) -> tuple:
        """What makes a rule set distinct: the rules as printed, so options a variant
        derives from the size (a Sudoku's box) don't split one rule set into several."""
        return (self.variant, self.rule_text or self.rules)


@dataclass(frozen=True)
class BookShape:
    """What pagination needs to know of a book."""

    spec: PageSpec
    sections: tuple[SectionShape, ...]
    style: Style = Style()
    worksheet: bool = False
    per_page: int | None = None  # the book's default, under each section's own
    rules_pages: tuple[int, ...] = ()  # how-to-play pages per rule set (1 when not measured)
    walkthrough_pages: tuple[int, ...] = ()  # pages per explained section (1 when not measured)
    item_types: tuple[float, ...] = ()  # each puzzle's smallest type, measured once they exist
    gutter: float | None = None  # the inside margin the config sets (None: ``comfortable_gutter``)

    @property
    def variants(self) -> tuple[str, ...]:
        """Each variant once, in order of first use: one how-to-play page each."""
        return tuple(dict.fromkeys(s.variant for s in self.sections))

    @property
    def rule_sets(self) -> tuple[int, ...]:
        """The first section of each distinct (variant, rules), grouped by variant in order of
        first use: one how-to-play page (or two) each."""
        first: dict[tuple, int] = {}
        for s, section in enumerate(self.sections):
            first.setdefault(section.rule_key, s)
        return tuple(s for v in self.variants for (variant, _), s in first.items() if variant == v)

    def rule_set_sizes(self, first: int) -> tuple[Size, ...]:
        """Every grid size the rule set starting at section ``first`` prints, smallest first:
        what its rules text and worked example are for."""
        key = self.sections[first].rule_key
        return tuple(sorted({n for s in self.sections if s.rule_key == key for n in s.sizes}))

    def rule_set_of(self, section: int) -> int:
        """The first section sharing ``section``'s variant and rules."""
        own = self.sections[section]
        return next(s for s in self.rule_sets
                    if self.sections[s].rule_key == own.rule_key)

    @property
    def explained(self) -> tuple[int, ...]:
        """Indices of the sections whose first puzzle is walked through, in book order."""
        return tuple(s for s, section in enumerate(self.sections) if section.explain)

    def first_item(self, section: int) -> int:
        """Book-order index (zero-based) of a section's first puzzle."""
        return sum(len(s.sizes) for s in self.sections[:section])

    def extents(self) -> dict[tuple[int, int], Extent]:
        """(section, size) -> the extent of its puzzles (``extent_of``)."""
        return {(s, size): extent_of(section.variant, size, section.rules)
                for s, section in enumerate(self.sections) for size in set(section.sizes)}

    def item_extents(self) -> list[Extent]:
        """Every puzzle's key extent (``key_extent``), in book order: what the answer key lays out."""
        extents = {k: key_extent(e) for k, e in self.extents().items()}
        return [extents[s, size] for s, section in enumerate(self.sections) for size in section.sizes]


@dataclass(frozen=True)
class PagePlan:
    """One page: its kind, its running header and, for grid pages, what goes where."""

    kind: str  # title, imprint, contents, rules, walkthrough, puzzles, answers
    header: str = ""
    items: tuple[int, ...] = ()  # puzzle indices (book order, zero-based)
    arrangement: Arrangement | None = None
    section: int = -1
    variant: str = ""
    first: bool = False  # the first page of its kind: carries the heading
    part: int = 0  # a how-to-play or walkthrough page's place among its pages
    cells: tuple[float, ...] = ()  # answer key: each grid's own cell size
    rows: tuple[tuple[int, float, int], ...] = ()  # answer key: (grids, height, columns) per row


@dataclass(frozen=True)
class Plan:
    """A laid-out document: its pages and the gutter it was laid out with."""

    pages: tuple[PagePlan, ...]
    gutter: float
    puzzle_pages: dict[int, int] = field(default_factory=dict)  # puzzle index -> page
    answer_pages: dict[int, int] = field(default_factory=dict)  # puzzle index -> its answer's page

    def first_page(self, kind: str, section: int = -1) -> int:
        """The page number where pages of ``kind`` (and ``section``) begin."""
        for n, page in enumerate(self.pages, start=1):
            if page.kind == kind and (section < 0 or page.section == section):
                return n
        raise KeyError(kind)


CONTENTS_ENTRY = 2.5  # an entry's height in body sizes: its title, its detail line, the space after
CONTENTS_PART = 2.6  # a part's heading and its rule, in body sizes
CONTENTS_GAP = 0.6  # the space that sets the answers apart from the last section, in body sizes


@dataclass(frozen=True)
class ContentsRow:
    """One row of the table of contents: a part's heading (``kind`` "part", ``index`` the
    part: 0 before you start, 1 the puzzles) or an entry ("rules" of a rule set, the
    "walkthrough" of a section, a "section", the "answers")."""

    kind: str
    index: int = 0


def contents_rows(shape: BookShape) -> list[ContentsRow]:
    """The table of contents in reading order: how-to pages with their walkthroughs under
    "Before you start", the sections under "The puzzles", then the answers."""
    rows = [ContentsRow("part", 0)] if shape.rule_sets else []
    for first in shape.rule_sets:
        rows.append(ContentsRow("rules", first))
        rows += [ContentsRow("walkthrough", s) for s in shape.explained if shape.rule_set_of(s) == first]
    rows.append(ContentsRow("part", 1))
    rows += [ContentsRow("section", s) for s in range(len(shape.sections))]
    rows.append(ContentsRow("answers"))
    return rows


def contents_pages(shape: BookShape) -> list[list[ContentsRow]]:
    """The contents rows page by page: as many pages as the rows need (a book of thirty
    sections runs over two), a part's heading never last on its page."""
    _, height = content_size(shape.spec, shape.spec.margin, shape.style, False)
    room = height - shape.style.heading * 2.1
    pages: list[list[ContentsRow]] = [[]]
    used = 0.0
    rows = contents_rows(shape)
    for k, row in enumerate(rows):
        need = contents_height(row, shape.style)
        if row.kind == "part" and k + 1 < len(rows):  # keep the heading with its first entry
            need += contents_height(rows[k + 1], shape.style)
        if used + need > room and pages[-1]:
            pages.append([])
            used = 0.0
        pages[-1].append(row)
        used += contents_height(row, shape.style)
    return pages


def contents_height(row: ContentsRow, style: Style) -> float:
    """The height one contents row takes on the page."""
    return style.body * {"part": CONTENTS_PART, "answers": CONTENTS_ENTRY + CONTENTS_GAP}.get(row.kind, CONTENTS_ENTRY)


def _grid_pages(shape: BookShape, gutter: float, count_only: bool = False, before: int = 0) -> list[PagePlan]:
    """Puzzle pages: puzzles flow from size to size and section to section.

    A puzzle joins the page being filled when it has room, no ``new_page`` (or, on
    a worksheet, whose rule box serves one section, no section) parts them, and
    one cell size serves the whole page with every puzzle keeping its type floor
    and at least ``SHARE`` of the cell it would get alone. A page left less than
    half full (the last one, or before a ``new_page``) is laid out again for the
    puzzles it holds: centred, at the cell size of the page it would have filled, so
    a section's cells don't grow on its last page (a section wholly on one page may grow).
    """
    width, height = content_size(shape.spec, gutter, shape.style, shape.worksheet)
    style = shape.style
    pages: list[PagePlan] = []
    current: list[tuple[int, int, Extent]] = []  # (index, section, extent) on the page being filled
    count = 0
    begun: set[int] = set()  # sections with a page closed: their cell size is set

    def own(i: int, s: int, size: Extent) -> tuple[int, float, float]:
        """A puzzle's own per_page, cell and floor: from its section's bound on the type, or
        from the type it really prints once measured (a 9x9 without four-digit clues may
        share its page)."""
        section = shape.sections[s]
        scale = shape.item_types[i] if i < len(shape.item_types) else section.type_scale
        return alone(section.per_page or shape.per_page, size, scale)

    @lru_cache(maxsize=None)
    def alone(per: int | None, size: Extent, scale: float) -> tuple[int, float, float]:
        per = per or best_per_page(width, height, size, style, scale)
        return per, cell_of(size, per), style.floor_cell(scale, _mark_cell(size))

    @lru_cache(maxsize=None)
    def cell_of(size: Extent, per: int) -> float:
        return arrange(width, height, size, per, style).cell

    def cell_for(items: list[tuple[int, int, Extent]], per: int) -> float:
        return min(cell_of(size, per) for _, _, size in items)

    def fits(items: list[tuple[int, int, Extent]], per: int) -> bool:
        cell = cell_for(items, per)
        return all(cell >= max(own(*it)[2], SHARE * own(*it)[1]) - 1e-9 for it in items)

    def close(last: bool) -> None:
        per = count
        sections = tuple(dict.fromkeys(s for _, s, _ in current))
        cell = cell_for(current, count)
        if last or 2 * len(current) <= count:
            per = min(k for k in PER_PAGE if k >= len(current))
            per = per if fits(current, per) else count
            if not begun.intersection(sections):  # the whole section is here: it may grow
                cell = cell_for(current, per)  # (else it keeps its cell: centred, not enlarged)
        begun.update(sections)
        cols, rows = PER_PAGE[per]
        header = " · ".join(dict.fromkeys(shape.sections[s].title for s in sections))
        first = shape.sections[sections[0]]
        pages.append(PagePlan("puzzles", header, tuple(i for i, _, _ in current),
                              Arrangement(cols, rows, cell), sections[0], first.variant))

    extents = shape.extents()
    items = [(i, s, extents[s, size]) for s, section in enumerate(shape.sections)
             for i, size in enumerate(section.sizes, start=shape.first_item(s))]

    def kind(k: int) -> tuple:
        i, s, size = items[k]
        return s, size, shape.item_types[i] if i < len(shape.item_types) else None

    starts = {shape.first_item(s): s for s, section in enumerate(shape.sections) if section.right}
    k = 0
    while k < len(items):
        item = items[k]
        i, s, size = item
        section = shape.sections[s]
        if i in starts and shape.spec.mirrored:  # opens on a right-hand (odd) page
            if current:
                close(False)
                current = []
            if (before + len(pages)) % 2:
                pages.append(PagePlan("blank"))
        if not current:
            # a run of like puzzles fills whole pages at once (cheap for huge sections)
            per = own(*item)[0]
            run = k
            while run < len(items) and kind(run) == kind(k):
                run += 1
            full = (run - k) // per
            if full > 1:
                for f in range(full - 1):
                    chunk = items[k + f * per:k + (f + 1) * per]
                    if count_only:
                        pages.append(None)  # type: ignore[arg-type]
                    else:
                        current[:] = chunk
                        count = per
                        close(False)
                        current = []
                k += (full - 1) * per
                continue
        joins = bool(current) and len(current) < count
        if joins and s != current[-1][1]:
            before = shape.sections[current[-1][1]]
            joins = not (section.new_page or before.new_page or shape.worksheet)
        if joins and not fits(current + [item], count):
            # the page may still take the newcomer's arrangement, if all it holds fit it
            per = own(*item)[0]
            joins = len(current) < per and fits(current + [item], per)
            count = per if joins else count
        if current and not joins:
            close(False)
            current = []
        if not current:
            count = own(*item)[0]
        current.append(item)
        k += 1
    if current:
        close(True)
    return pages


def key_pages(sizes: Sequence[int | Extent], width: float, height: float, style: Style,
              header: str, largest: float | None = None) -> list[PagePlan]:
    """Answer-key pages: solved grids in rows, in puzzle order, as many as stay legible.

    A row holds grids of one size class: the grids that fit the same number of
    columns at the smallest key cell. Each grid then gets the cell its own size
    allows in that column (up to ``largest``, by default the largest key cell), so
    a 6x6 beside 6x6s is not shrunk to the cell a 14x14 needs. Rows stack down the page; only the
    first page gives room to the heading: the key is paid for in every copy.
    """
    low, high = style.key_cell
    high = max(low, largest if largest is not None else high)
    label = key_label(style) * 1.5
    gap = key_label(style) * 0.6
    heading = style.heading * 2

    known: dict[int | Extent, int] = {}  # a book has a handful of sizes and up to 10^5 grids

    def columns(size: int | Extent) -> int:
        if size not in known:
            least = low * (size.key_scale if isinstance(size, Extent) else 1.0)
            known[size] = next((k for k in range(KEY_COLUMNS, 1, -1)
                                if ((width - (k - 1) * KEY_GAP) / k - BOLD) / span(size)[0] >= least - 1e-9), 1)
        return known[size]

    # A row's height and cells depend only on the sizes in it: a key of 10^5 grids has a
    # handful of distinct rows, worked out once each.
    # Each grid's size is looked up once, as a small number: the rows below compare numbers.
    number: dict[int | Extent, int] = {}
    ids = [number.setdefault(size, len(number)) for size in sizes]
    distinct = list(number)
    ks = [columns(size) for size in distinct]
    shapes: dict[tuple[int, ...], tuple[float, list[float]]] = {}
    rows: list[tuple[range, float, list[float], int]] = []  # items, height, cells, columns
    i, total = 0, len(sizes)
    while i < total:
        k = ks[ids[i]]
        end = i + 1
        while end - i < k and end < total and ks[ids[end]] == k:
            end += 1
        row_ids = tuple(ids[i:end])
        shape = shapes.get(row_ids)
        if shape is None:
            row_sizes = [distinct[j] for j in row_ids]
            slot = (width - (k - 1) * KEY_GAP) / k - BOLD
            cells = [min(slot / span(size)[0], high) for size in row_sizes]
            shape = shapes[row_ids] = (label + max(span(size)[1] * c for size, c in zip(row_sizes, cells))
                                         + BOLD + gap, cells)
        rows.append((range(i, end), shape[0], shape[1], k))
        i = end
    pages: list[PagePlan] = []
    page_rows: list[tuple[range, float, list[float], int]] = []
    used = 0.0  # the height of page_rows, summed in order as ``sum`` would
    for row in rows + [None]:  # type: ignore[list-item]
        room = height - (heading if not pages else 0.0)
        if row is not None and (not page_rows or used + row[1] <= room):
            page_rows.append(row)
            used += row[1]
            continue
        items = tuple(j for r in page_rows for j in r[0])
        pages.append(PagePlan("answers", header, items, None, first=not pages,
                              cells=tuple(c for r in page_rows for c in r[2]),
                              rows=tuple((len(r[0]), r[1], r[3]) for r in page_rows)))
        page_rows = [row] if row is not None else []
        used = row[1] if row is not None else 0.0
    return pages


def key_label(style: Style) -> float:
    """Type size of an answer's number and puzzle page above its grid."""
    return round(style.small * 0.85, 2)


def _paginate(shape: BookShape, gutter: float) -> Plan:
    pages = _pages(shape, gutter)
    where = {i: n for n, page in enumerate(pages, start=1) for i in page.items if page.kind == "puzzles"}
    answers = {i: n for n, page in enumerate(pages, start=1) for i in page.items if page.kind == "answers"}
    return Plan(tuple(pages), gutter, where, answers)


def _pages(shape: BookShape, gutter: float, count_only: bool = False) -> list[PagePlan]:
    """Every page of the book; with ``count_only``, whole pages of like puzzles are only
    counted (``None`` in their place)."""
    pages: list[PagePlan] = []
    if not shape.worksheet:
        pages.append(PagePlan("title"))
        pages.append(PagePlan("imprint"))
        pages += [PagePlan("contents", "Contents", first=k == 0, part=k)
                  for k in range(len(contents_pages(shape)))]
        for k, first in enumerate(shape.rule_sets):
            count = shape.rules_pages[k] if k < len(shape.rules_pages) else 1
            variant = shape.sections[first].variant
            pages += [PagePlan("rules", "How to play", section=first, variant=variant, first=i == 0, part=i)
                      for i in range(count)]
            # walkthroughs follow the rules they use, one after another in section order
            for w, s in enumerate(shape.explained):
                if shape.rule_set_of(s) != first:
                    continue
                count = shape.walkthrough_pages[w] if w < len(shape.walkthrough_pages) else 1
                pages += [PagePlan("walkthrough", "Worked example", section=s, variant=variant,
                                   first=i == 0, part=i) for i in range(count)]
    pages += _grid_pages(shape, gutter, count_only, len(pages))
    if not shape.worksheet:
        width, height = content_size(shape.spec, gutter, shape.style, False)
        sizes = shape.item_extents()
        low = shape.style.key_cell[0]
        # the key is paid for in every copy: tighter cells (never below the floor) until
        # it takes at most KEY_SHARE of the book
        for largest in (None, low * 1.25, low * 1.1, low):
            key = key_pages(sizes, width, height, shape.style, N_("Answers"), largest)
            if len(key) <= KEY_SHARE * (len(pages) + len(key)):
                break
        pages += key
    return pages


def plan_book(shape: BookShape, minimum: bool = False) -> Plan:
    """Paginate a book, settling the gutter its own page count calls for.

    The gutter narrows the content area, which can change how many puzzles
    fit a page and so the page count; a few rounds settle it. Should the count
    ever oscillate between two gutters, the wider one is kept: it is still
    at least what the service asks for. A gutter set in the config is used as
    it is (the config check made sure it is enough); ``minimum`` settles on the
    service's bare minimum instead of the comfortable default.
    """
    if not shape.spec.mirrored:
        return _paginate(shape, shape.spec.margin)
    if shape.gutter is not None:
        return _paginate(shape, shape.gutter)
    extra = 0.0 if minimum else COMFORT
    gutter = gutter_for(0) + extra
    seen: dict[float, Plan] = {}
    while gutter not in seen:
        seen[gutter] = _paginate(shape, gutter)
        gutter = gutter_for(len(seen[gutter].pages)) + extra
    enough = [g for g, plan in seen.items() if g >= gutter_for(len(plan.pages)) + extra - 1e-9]
    return seen[max(enough)] if enough else _paginate(shape, GUTTERS[-1][1] + extra)


@lru_cache(maxsize=8)  # the config check asks twice (fit, page limit) about one frozen shape
def page_count(shape: BookShape, minimum: bool = False) -> tuple[int, float]:
    """(pages, gutter) of ``plan_book(shape, minimum)``, counted without laying out every page.

    The config check runs this on books of up to hundreds of thousands of
    puzzles; the grid pages of a run of same-size puzzles are one division.
    The gutter settles by the same rule as in ``plan_book``.
    """
    if not shape.spec.mirrored:
        return _count_pages(shape, shape.spec.margin), shape.spec.margin
    if shape.gutter is not None:
        return _count_pages(shape, shape.gutter), shape.gutter
    extra = 0.0 if minimum else COMFORT
    gutter = gutter_for(0) + extra
    seen: dict[float, int] = {}
    while gutter not in seen:
        seen[gutter] = _count_pages(shape, gutter)
        gutter = gutter_for(seen[gutter]) + extra
    enough = [g for g, pages in seen.items() if g >= gutter_for(pages) + extra - 1e-9]
    gutter = max(enough) if enough else GUTTERS[-1][1] + extra
    if minimum:  # the least the service takes for the pages counted
        pages = seen[gutter] if gutter in seen else _count_pages(shape, gutter)
        return pages, gutter_for(pages)
    return (seen[gutter] if gutter in seen else _count_pages(shape, gutter)), gutter


def _count_pages(shape: BookShape, gutter: float) -> int:
    """``len(_paginate(shape, gutter).pages)``, without drawing up every page: runs of like
    puzzles fill whole pages by count, and only the pages where runs meet are walked."""
    return len(_pages(shape, gutter, count_only=True))


def plan_answers(shape: BookShape) -> Plan:
    """The teacher's separate answer-key document for a worksheet packet."""
    width, height = content_size(shape.spec, shape.spec.margin, shape.style, False)
    pages = key_pages(shape.item_extents(), width, height, shape.style, N_("Answer key"))
    answers = {i: n for n, page in enumerate(pages, start=1) for i in page.items}
    return Plan(tuple(pages), shape.spec.margin, answer_pages=answers)


def fit_problems(shape: BookShape, gutter: float | None = None) -> list[tuple[int, Size, str]]:
    """(section, size, why) for every section size the page can't hold legibly,
    with ``gutter`` or, by default, the gutter the book is expected to get.

    Before the how-to-play pages are measured, each is counted as two pages
    (the gutter can only come out wider than in the real book, never
    narrower), and each walkthrough as ``walkthrough_guess`` pages: a
    walkthrough's length depends on its puzzle, so a build checks again with
    the gutter it really got.
    """
    if not shape.rules_pages:
        shape = replace(shape, rules_pages=(2,) * len(shape.rule_sets))
    if not shape.walkthrough_pages:
        shape = replace(shape, walkthrough_pages=tuple(walkthrough_guess(shape.sections[s].sizes[0])
                                                        for s in shape.explained))
    if gutter is None:
        gutter = page_count(shape)[1]
    width, height = content_size(shape.spec, gutter, shape.style, shape.worksheet)
    out = []
    extents = shape.extents()
    for s, section in enumerate(shape.sections):
        for size in sorted(set(section.sizes)):
            problem = fit_problem(width, height, extents[s, size], section.per_page or shape.per_page,
                                  shape.style, shape.spec.trim.name, section.type_scale)
            if problem:
                out.append((s, size, problem))
    return out


def walkthrough_guess(size: Size) -> int:
    """A generous estimate of the pages a walkthrough of a ``size`` grid (N, or a ``GridSize``) takes.

    Puzzles take one to two steps per cell (KenKen also rules digits out), and
    a 6 x 9 page in large print holds about five steps; letter pages in normal
    print hold four times as many. Measured: 6 pages for a 6 x 6 Tango and 17
    for a 7 x 7 expert KenKen in 6 x 9 large print, where this gives 13 and 18.
    """
    return 1 + -(-cell_count(size) // 3)


def page_count_warning(pages: int, trim: Trim) -> str | None:
    """A warning when print-on-demand services would refuse this many pages."""
    if pages < MIN_PAGES:
        return (f"the book has {pages} pages; print-on-demand services need at least {MIN_PAGES} "
                f"for a {trim.name} trim: add puzzles or sections")
    if pages > MAX_PAGES:
        return (f"the book has {pages} pages; print-on-demand services print at most {MAX_PAGES} "
                f"for a {trim.name} trim: split it into volumes")
    return None
