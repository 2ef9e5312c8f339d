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
from itertools import groupby
from typing import Sequence

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
KEY_GRIDS = ((3, 4), (3, 3), (2, 4), (2, 3))  # answer-key arrangements, most first
THIN = 0.75  # every printed rule is at least this wide
BOLD = 3 * THIN
MIN_SIZE, MAX_SIZE = 3 * INCH, 20 * INCH
_LENGTH = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(in|mm|pt)\s*$")


@dataclass(frozen=True)
class Style:
    """The type scale and cell limits: normal, or large print (bigger cells and type)."""

    large_print: bool = False

    def _pick(self, normal: float, large: float) -> float:
        return large if self.large_print else normal

    @property
    def min_cell(self) -> float:
        """The smallest cell a pencil symbol fits in comfortably."""
        return self._pick(8 * MM, 12 * MM)

    @property
    def roomy_cell(self) -> float:
        """Default per_page picks the most puzzles per page that keep cells this big."""
        return self._pick(10 * MM, 14 * MM)

    @property
    def max_cell(self) -> float:
        """Cells never grow past this, however much room there is."""
        return self._pick(16 * MM, 22 * MM)

    @property
    def key_cell(self) -> tuple[float, float]:
        """(smallest, largest) cell of an answer-key grid."""
        return (self._pick(3.2 * MM, 4.5 * MM), self._pick(6 * MM, 8 * MM))

    @property
    def body(self) -> float:
        """Running text."""
        return self._pick(10.5, 14.0)

    @property
    def small(self) -> float:
        """Captions, header, footer."""
        return self._pick(8.5, 11.5)

    @property
    def label(self) -> float:
        """'Puzzle 12' above a grid."""
        return self._pick(12.0, 16.0)

    @property
    def heading(self) -> float:
        """Page headings ('Contents', 'How to play ...')."""
        return self._pick(20.0, 26.0)

    @property
    def label_h(self) -> float:
        """Room above a grid for its label line."""
        return round(self.label * 1.9, 2)

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
    return style.body * 2.6 + style.small * (1.35 * REMINDER_LINES) + 18


REMINDER_LINES = 3
SLOT_GAP = 0.3 * INCH  # least space between neighbouring puzzles


def arrange(width: float, height: float, size: int, per_page: int, style: Style) -> Arrangement:
    """The cell size ``per_page`` puzzles of ``size`` get in a width x height area."""
    cols, rows = PER_PAGE[per_page]
    slot_w = (width - (cols - 1) * SLOT_GAP) / cols - BOLD
    slot_h = (height - (rows - 1) * SLOT_GAP) / rows - style.label_h - BOLD
    cell = min(slot_w / size, slot_h / size, style.max_cell)
    return Arrangement(cols, rows, cell)


def best_per_page(width: float, height: float, size: int, style: Style) -> int:
    """Default puzzles per page: the most that keep cells roomy, else the most that fit."""
    for want in (style.roomy_cell, style.min_cell):
        for count in sorted(PER_PAGE, reverse=True):
            if arrange(width, height, size, count, style).cell >= want - 1e-9:
                return count
    return 1


def fit_problem(width: float, height: float, size: int, per_page: int | None, style: Style,
                page_name: str) -> str | None:
    """Why ``size`` grids at ``per_page`` don't fit the area (None when they do)."""
    count = per_page or best_per_page(width, height, size, style)
    cell = arrange(width, height, size, count, style).cell
    if cell >= style.min_cell - 1e-9:
        return None
    need = "12 mm (large print)" if style.large_print else "8 mm"
    many = f"{count} {size}x{size} grids per page" if count > 1 else f"a {size}x{size} grid"
    fix = "fewer per page, a larger page or a smaller size" if count > 1 else "a larger page or a smaller size"
    verb = "get" if count > 1 else "gets"
    if cell <= 0:  # the margins, header and labels alone fill the page
        return (f"a {page_name} page has no room for {many} once its margins and header are taken; "
                f"choose {fix}")
    return (f"{many} on a {page_name} page {verb} {cell / MM:.1f} mm cells, below the {need} "
            f"needed for handwriting; choose {fix}")


# ----- the page plan --------------------------------------------------------------
@dataclass(frozen=True)
class SectionShape:
    """What pagination needs to know of a section: title, variant, sizes in order, per_page,
    and whether its first puzzle gets a step-by-step walkthrough (``explain``)."""

    title: str
    variant: str
    sizes: tuple[int, ...]  # one per puzzle
    per_page: int | None = None
    explain: bool = False


@dataclass(frozen=True)
class BookShape:
    """What pagination needs to know of a book."""

    spec: PageSpec
    sections: tuple[SectionShape, ...]
    style: Style = Style()
    worksheet: bool = False
    per_page: int | None = None  # the book's default, under each section's own
    rules_pages: tuple[int, ...] = ()  # how-to-play pages per variant (1 when not measured)
    walkthrough_pages: tuple[int, ...] = ()  # pages per explained section (1 when not measured)

    @property
    def variants(self) -> tuple[str, ...]:
        """Each variant once, in order of first use: one how-to-play page each."""
        return tuple(dict.fromkeys(s.variant for s in self.sections))

    @property
    def explained(self) -> tuple[int, ...]:
        """Indices of the sections whose first puzzle is walked through, in book order."""
        return tuple(s for s, section in enumerate(self.sections) if section.explain)

    def first_item(self, section: int) -> int:
        """Book-order index (zero-based) of a section's first puzzle."""
        return sum(len(s.sizes) for s in self.sections[:section])


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


@dataclass(frozen=True)
class Plan:
    """A laid-out document: its pages and the gutter it was laid out with."""

    pages: tuple[PagePlan, ...]
    gutter: float
    puzzle_pages: dict[int, int] = field(default_factory=dict)  # puzzle index -> page

    def first_page(self, kind: str, section: int = -1) -> int:
        """The page number where pages of ``kind`` (and ``section``) begin."""
        for n, page in enumerate(self.pages, start=1):
            if page.kind == kind and (section < 0 or page.section == section):
                return n
        raise KeyError(kind)


def contents_lines(shape: BookShape) -> int:
    """Entries in the table of contents: how-to pages, walkthroughs, sections, the answer key."""
    return len(shape.variants) + len(shape.explained) + len(shape.sections) + 1


def _grid_pages(shape: BookShape, gutter: float) -> list[PagePlan]:
    width, height = content_size(shape.spec, gutter, shape.style, shape.worksheet)
    pages: list[PagePlan] = []
    index = 0
    for s, section in enumerate(shape.sections):
        i = 0
        while i < len(section.sizes):
            size = section.sizes[i]
            count = section.per_page or shape.per_page or best_per_page(width, height, size, shape.style)
            batch = 1
            while batch < count and i + batch < len(section.sizes) and section.sizes[i + batch] == size:
                batch += 1
            arrangement = arrange(width, height, size, count, shape.style)
            items = tuple(range(index + i, index + i + batch))
            pages.append(PagePlan("puzzles", section.title, items, arrangement, s, section.variant))
            i += batch
        index += len(section.sizes)
    return pages


def key_pages(sizes: Sequence[int], width: float, height: float, style: Style,
              header: str) -> list[PagePlan]:
    """Answer-key pages: as many solved grids per page as keep their cells legible.

    Each page takes the densest arrangement whose cells, sized for the page's
    largest grid, stay legible; one cell size serves a whole page so it reads
    as an even table. Every page keeps room for the heading, so grids sit at
    the same height on every page.
    """
    low, high = style.key_cell
    label = style.small * 2.2
    pages: list[PagePlan] = []
    start = 0
    while start < len(sizes):
        chosen = None
        for cols, rows in KEY_GRIDS:
            biggest = max(sizes[start:start + cols * rows])
            slot_w = (width - (cols - 1) * SLOT_GAP) / cols - BOLD
            slot_h = (height - style.heading * 2) / rows - label - SLOT_GAP
            cell = min(slot_w / biggest, slot_h / biggest, high)
            chosen = Arrangement(cols, rows, cell)
            if cell >= low - 1e-9:
                break
        assert chosen is not None
        items = tuple(range(start, min(start + chosen.count, len(sizes))))
        pages.append(PagePlan("answers", header, items, chosen, first=not pages))
        start += chosen.count
    return pages


def _paginate(shape: BookShape, gutter: float) -> Plan:
    pages: list[PagePlan] = []
    if not shape.worksheet:
        pages.append(PagePlan("title"))
        pages.append(PagePlan("imprint"))
        pages.append(PagePlan("contents", "Contents", first=True))
        for k, variant in enumerate(shape.variants):
            count = shape.rules_pages[k] if k < len(shape.rules_pages) else 1
            pages += [PagePlan("rules", "How to play", variant=variant, first=i == 0, part=i)
                      for i in range(count)]
            # walkthroughs follow the rules they use, one after another in section order
            for w, s in enumerate(shape.explained):
                if shape.sections[s].variant != variant:
                    continue
                count = shape.walkthrough_pages[w] if w < len(shape.walkthrough_pages) else 1
                pages += [PagePlan("walkthrough", "Worked example", section=s, variant=variant,
                                   first=i == 0, part=i) for i in range(count)]
    grid = _grid_pages(shape, gutter)
    pages += grid
    if not shape.worksheet:
        width, height = content_size(shape.spec, gutter, shape.style, False)
        sizes = [size for s in shape.sections for size in s.sizes]
        pages += key_pages(sizes, width, height, shape.style, "Answers")
    where = {i: n for n, page in enumerate(pages, start=1) for i in page.items if page.kind == "puzzles"}
    return Plan(tuple(pages), gutter, where)


def plan_book(shape: BookShape) -> Plan:
    """Paginate a book, settling the gutter its own page count calls for.

    The gutter narrows the content area, which can change how many puzzles
    fit a page and so the page count; a few rounds settle it. Should the count
    ever oscillate between two gutters, the wider one is kept: it is still
    at least what the service asks for.
    """
    if not shape.spec.mirrored:
        return _paginate(shape, shape.spec.margin)
    gutter = gutter_for(0)
    seen: dict[float, Plan] = {}
    while gutter not in seen:
        seen[gutter] = _paginate(shape, gutter)
        gutter = gutter_for(len(seen[gutter].pages))
    enough = [g for g, plan in seen.items() if g >= gutter_for(len(plan.pages))]
    return seen[max(enough)] if enough else _paginate(shape, GUTTERS[-1][1])


def page_count(shape: BookShape) -> tuple[int, float]:
    """(pages, gutter) of ``plan_book(shape)``, counted without laying out every page.

    The config check runs this on books of up to hundreds of thousands of
    puzzles; the grid pages of a run of same-size puzzles are one division.
    The gutter settles by the same rule as in ``plan_book``.
    """
    if not shape.spec.mirrored:
        return _count_pages(shape, shape.spec.margin), shape.spec.margin
    gutter = gutter_for(0)
    seen: dict[float, int] = {}
    while gutter not in seen:
        seen[gutter] = _count_pages(shape, gutter)
        gutter = gutter_for(seen[gutter])
    enough = [g for g, pages in seen.items() if g >= gutter_for(pages)]
    gutter = max(enough) if enough else GUTTERS[-1][1]
    return (seen[gutter] if gutter in seen else _count_pages(shape, gutter)), gutter


def _count_pages(shape: BookShape, gutter: float) -> int:
    """``len(_paginate(shape, gutter).pages)``, by arithmetic where it can."""
    pages = 0
    if not shape.worksheet:
        pages += 3  # title, imprint, contents
        pages += sum(shape.rules_pages[k] if k < len(shape.rules_pages) else 1
                     for k in range(len(shape.variants)))
        pages += sum(shape.walkthrough_pages[w] if w < len(shape.walkthrough_pages) else 1
                     for w in range(len(shape.explained)))
    width, height = content_size(shape.spec, gutter, shape.style, shape.worksheet)
    per_page: dict[int, int] = {}
    for section in shape.sections:
        for size, run in groupby(section.sizes):
            count = section.per_page or shape.per_page or per_page.setdefault(
                size, best_per_page(width, height, size, shape.style))
            pages += -(-sum(1 for _ in run) // count)
    if not shape.worksheet:
        width, height = content_size(shape.spec, gutter, shape.style, False)
        sizes = [size for s in shape.sections for size in s.sizes]
        pages += len(key_pages(sizes, width, height, shape.style, "Answers"))
    return pages


def plan_answers(shape: BookShape) -> Plan:
    """The teacher's separate answer-key document for a worksheet packet."""
    width, height = content_size(shape.spec, shape.spec.margin, shape.style, False)
    sizes = [size for s in shape.sections for size in s.sizes]
    return Plan(tuple(key_pages(sizes, width, height, shape.style, "Answer key")), shape.spec.margin)


def fit_problems(shape: BookShape, gutter: float | None = None) -> list[tuple[int, int, str]]:
    """(section, size, why) for every section size the page can't hold legibly,
    with ``gutter`` or, by default, the gutter the book is expected to get.

    Before the how-to-play pages are measured, each is counted as two pages
    (the gutter can only come out wider than in the real book, never
    narrower), and each walkthrough as ``walkthrough_guess`` pages: a
    walkthrough's length depends on its puzzle, so a build checks again with
    the gutter it really got.
    """
    if not shape.rules_pages:
        shape = replace(shape, rules_pages=(2,) * len(shape.variants))
    if not shape.walkthrough_pages:
        shape = replace(shape, walkthrough_pages=tuple(walkthrough_guess(shape.sections[s].sizes[0])
                                                        for s in shape.explained))
    if gutter is None:
        gutter = page_count(shape)[1]
    width, height = content_size(shape.spec, gutter, shape.style, shape.worksheet)
    out = []
    for s, section in enumerate(shape.sections):
        for size in sorted(set(section.sizes)):
            problem = fit_problem(width, height, size, section.per_page or shape.per_page,
                                  shape.style, shape.spec.trim.name)
            if problem:
                out.append((s, size, problem))
    return out


def walkthrough_guess(size: int) -> int:
    """A generous estimate of the pages a walkthrough of a ``size`` grid takes.

    Puzzles take one to two steps per cell (KenKen also rules digits out), and
    a 6 x 9 page in large print holds about five steps; letter pages in normal
    print hold four times as many. Measured: 6 pages for a 6 x 6 Tango and 17
    for a 7 x 7 expert KenKen in 6 x 9 large print, where this gives 13 and 18.
    """
    return 1 + -(-size * size // 3)


def page_count_warning(pages: int, trim: Trim) -> str | None:
    """A warning when print-on-demand services would refuse this many pages."""
    if pages < MIN_PAGES:
        return (f"the book has {pages} pages; print-on-demand services need at least {MIN_PAGES} "
                f"for a {trim.name} trim: add puzzles or sections")
    if pages > MAX_PAGES:
        return (f"the book has {pages} pages; print-on-demand services print at most {MAX_PAGES} "
                f"for a {trim.name} trim: split it into volumes")
    return None
