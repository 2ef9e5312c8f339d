"""Draw a page plan as a PDF: title, imprint, contents, how-to-play pages and
walkthroughs, puzzle pages, answer key; or a worksheet packet and its answer key.

Where things go is decided in ``geometry`` (pure, shared with config
validation); this module only draws. Every drawing stays inside the page's
safe area. Puzzles, answers and worked examples are all drawn by the
variant's own ``draw`` through the same pen. The canvas runs in reportlab's
``invariant`` mode so the same book gives the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Mapping, Sequence

from reportlab.pdfgen.canvas import Canvas

from bookgen import __version__
from bookgen.core.difficulty import LEVELS, Level
from bookgen.core.pen import CENTER, RecordingPen
from bookgen.core.i18n import N_
from bookgen.core.rules import printed_rules
from bookgen.core.types import Puzzle
from bookgen.i18n import DEFAULT, translation, translator, with_name
from bookgen.layout.fonts import ASCENT, CAP_HEIGHT, DESCENT, FONT, font_of, register_fonts
from bookgen.layout.geometry import (
    BOLD, CONTENTS_ENTRY, CONTENTS_GAP, GUTTERS, INCH, KEY_GAP, MM, SLOT_GAP, THIN, Box, BookShape, ContentsRow,
    PagePlan, PageSpec, Plan,
    Style, contents_height, contents_pages, grid_origin, key_extent, key_label, plan_book, puzzle_extent, reminder_name, reminder_width, rule_reminder,
    worksheet_top,
)
from bookgen.layout.pdfenv import plain_environment
from bookgen.layout.pen import AnswerPen, CanvasPen, smallest_text
from bookgen.layout.textfit import (
    Room, answer_key_heading, author_room, break_lines, fit_size, heading_room, section_rooms, title_rooms,
)
from bookgen.layout.walkthrough import Walkthrough, draw_part, lay_out, step_text, walkthrough_title
from bookgen.variants.registry import get_variant, printed_level

RULE_GREY = 0.45  # header and footer rules: grey, but dark enough to photocopy
# Step markers of the worked example: a numbered disc in the middle of the cell it
# fills, clear of clues in the top-left corner and of signs on the cell's edges.
MARKER = (0.5, 0.56, 0.235)  # centre x, centre y, radius, in cells
MARKER_CAP = 0.24  # the step number's cap height, in cells
MARKER_TYPE = MARKER_CAP / CAP_HEIGHT


@dataclass(frozen=True)
class Entry:
    """A puzzle placed in the book: its number and its section's title."""

    number: int
    section: str
    puzzle: Puzzle
    version: str = ""  # class sets: "A", "B", ...
    fingerprint: str = ""  # when known: the JSON need not work it out again


@dataclass(frozen=True)
class Cover:
    """The words of the title and imprint pages."""

    title: str
    subtitle: str | None
    author: str | None
    seed: int
    publisher: str | None = None
    year: int | None = None
    isbn: str | None = None
    edition: str | None = None
    show_seed: bool = True
    names: tuple[tuple[str, str], ...] = ()  # variant -> the name this book prints
    language: str = DEFAULT

    def name_of(self, variant: str) -> str:
        """The name a variant is printed under."""
        return dict(self.names).get(variant) or translation(self.language)(get_variant(variant).title)


class Document:
    """A canvas that knows the page spec: boxes, safe area, header, folio."""

    def __init__(self, path: Path | BytesIO, cover: Cover, spec: PageSpec, style: Style, gutter: float,
                 subject: str = N_("Puzzle book")):
        register_fonts()
        self.spec, self.style, self.gutter = spec, style, gutter
        self.cover = cover
        self.face = style.face  # the text face (grids keep DejaVu Sans)
        self.t = translation(cover.language)  # every printed word goes through t or nt
        self.nt = translator(cover.language).ngettext
        with plain_environment():  # SOURCE_DATE_EPOCH would stamp a date into the file
            self.canvas = Canvas(str(path) if isinstance(path, Path) else path, pagesize=spec.media,
                                 invariant=1, initialFontName=FONT, pageCompression=1)
        self.canvas.setTitle(cover.title)
        self.canvas.setAuthor(cover.author or "bookgen")
        self.canvas.setCreator(f"bookgen {__version__}")
        self.canvas.setSubject(self.t(subject))
        self.page = 1

    @property
    def safe(self) -> Box:
        """The current page's safe area."""
        return self.spec.safe(self.page, self.gutter)

    @property
    def recto(self) -> bool:
        """A right-hand page (odd number)."""
        return self.page % 2 == 1

    def content(self, worksheet: bool = False) -> Box:
        """The safe area less header and footer bands (and a worksheet's name line)."""
        x0, y0, x1, y1 = self.safe
        band = self.style.band
        top = y1 - band - (worksheet_top(self.style) if worksheet else 0.0)
        return (x0, y0 + band, x1, top)

    def text(self, x: float, y: float, s: str, size: float, bold: bool = False, grey: float = 0.0,
             align: str = "left") -> float:
        """Draw one line of text; returns its width."""
        c = self.canvas
        font = font_of(self.face, bold)
        c.setFont(font, size)
        c.setFillGray(grey)
        {"left": c.drawString, "center": c.drawCentredString, "right": c.drawRightString}[align](x, y, s)
        return c.stringWidth(s, font, size)

    def width(self, s: str, size: float, bold: bool = False) -> float:
        """Width of a line of text."""
        return self.canvas.stringWidth(s, font_of(self.face, bold), size)

    def wrap(self, text: str, size: float, width: float, bold: bool = False,
             first_indent: float = 0.0) -> list[str]:
        """Greedy line breaking to ``width``; the first line is ``first_indent`` shorter.

        A word longer than a line is split, so no line runs past ``width``."""
        return break_lines(text, size, width, bold, first_indent, self.face)

    def heading(self, text: str, top: float, draw: bool = True) -> float:
        """A page heading at ``top``, made smaller if the line is too long, never below its floor
        (the config check refuses a heading that can't fit); returns the y below it."""
        x0, _, x1, _ = self.safe
        room = replace(heading_room(self.style, x1 - x0), face=self.face)
        size = fit_size(text, room) or room.floor
        if draw:
            self.text(x0, top - self.style.heading * ASCENT, text, size, bold=True)
        return top - self.style.heading * 2.1

    def rule(self, x0: float, y: float, x1: float, grey: float = RULE_GREY) -> None:
        """A thin horizontal rule."""
        c = self.canvas
        c.setLineWidth(THIN)
        c.setStrokeGray(grey)
        c.setLineCap(0)
        c.line(x0, y, x1, y)

    def finish(self, header: str = "", folio: bool = True, footer: str = "") -> None:
        """Running header, page number, the PDF boxes; then start the next page."""
        x0, y0, x1, y1 = self.safe
        st = self.style
        outside_left = not self.recto and self.spec.mirrored
        if header:
            base = y1 - st.small * ASCENT
            if self.spec.mirrored:
                self.text(x0 if outside_left else x1, base, header, st.small, grey=0.25,
                          align="left" if outside_left else "right")
            else:
                self.text((x0 + x1) / 2, base, header, st.small, grey=0.25, align="center")
            self.rule(x0, y1 - st.band * 0.62, x1)
        if folio or footer:
            base = y0 + st.small * DESCENT
            label = footer or str(self.page)
            if self.spec.mirrored:
                self.text(x0 if outside_left else x1, base, label, st.small, grey=0.2,
                          align="left" if outside_left else "right")
            else:
                self.text((x0 + x1) / 2, base, label, st.small, grey=0.2, align="center")
        mw, mh = self.spec.media
        self.canvas.setTrimBox(list(self.spec.trim_box(self.page)))
        self.canvas.setBleedBox([0, 0, mw, mh])
        self.canvas.showPage()
        self.page += 1

    def save(self) -> None:
        """Write the file."""
        with plain_environment():
            self.canvas.save()


def marker(doc: Document, x: float, y: float, filled: int, box: float) -> float:
    """A row of four small squares, ``filled`` of them black (a level's ``printed_level``:
    beginner none, easy one ... expert four; extreme five black squares); returns its width."""
    c = doc.canvas
    c.setLineWidth(THIN)
    c.setStrokeGray(0)
    gap = box * 0.35
    for i in range(max(len(LEVELS), filled)):
        c.setFillGray(0 if i < filled else 1)
        c.rect(x + i * (box + gap), y, box, box, stroke=1, fill=1)
    return _marker_width(box, filled)


def how_to_name(cover: Cover, shape: BookShape, first: int) -> str:
    """What the how-to-play page of the rule set starting at section ``first`` is called:
    the variant's printed name for its standard rules (the variant's first rule set, with
    the default options), with the section's title for any other rule set."""
    section = shape.sections[first]
    variant = get_variant(section.variant)
    name = cover.name_of(section.variant)
    sets = [s for s in shape.rule_sets if shape.sections[s].variant == section.variant]
    if section.title.lower() in (variant.name, *variant.aliases):
        name = section.title  # a section titled "KenKen" is told how to play KenKen
    if (first == sets[0] and default_rules(section)) or section.title == name:
        return name
    return section.title if name.lower() in section.title.lower() else f"{name}: {section.title}"


def default_rules(section) -> bool:
    """Whether a section plays by its variant's default options."""
    variant = get_variant(section.variant)  # compared as printed: a Sudoku's box follows its size
    return variant.rules_for(variant.parse_rules({}, section.sizes[0])) == variant.rules_for(dict(section.rules))


def running_header(shape: BookShape, plan: Plan, page: PagePlan, t=str) -> str:
    """The titles of the sections on a puzzle page; a section whose rules are not its
    variant's defaults says where they are ("Addition only (rules: page 5)")."""
    starts = [shape.first_item(s) for s in range(len(shape.sections))]
    sections = dict.fromkeys(max(s for s, first in enumerate(starts) if first <= i) for i in page.items)
    parts = []
    for s in sections:
        sec = shape.sections[s]
        where = "" if default_rules(sec) else t(" (rules: page {page})").format(
            page=plan.first_page('rules', shape.rule_set_of(s)))
        parts.append(sec.title + where)
    return " \u00b7 ".join(dict.fromkeys(parts))


def _marker_width(box: float, filled: int = 0) -> float:
    squares = max(len(LEVELS), filled)
    return squares * box + (squares - 1) * box * 0.35


def grid_label(doc: Document, x: float, y: float, width: float, entry: Entry) -> None:
    """'Puzzle 12' on the left, the level in words and as a 1-4 marker on the right."""
    st = doc.style
    doc.text(x, y, doc.t("Puzzle {number}").format(number=entry.number), st.label, bold=True)
    p = entry.puzzle
    # the band its rating is in, where levels are bands; its tier otherwise
    _, label, filled = printed_level(p) if p.grade else (0, Level.EASY.label, Level.EASY.marker)
    box = round(st.small * 0.72, 2)
    mw = _marker_width(box, filled)
    marker(doc, x + width - mw, y, filled, box)
    doc.text(x + width - mw - box * 0.9, y, doc.t(label), st.small, grey=0.2, align="right")


# The caption in words, then tighter for a narrow grid (a 4x4 KenKen four to a large-print
# 6 x 9 page), then the numbers alone: the type never shrinks below the caption size.
RATING_CAPTIONS = (N_("Rating {rating} \u00b7 about {minutes} min"), N_("Rating {rating} \u00b7 ~{minutes} min"),
                   N_("{rating} \u00b7 {minutes} min"))


def rating_caption(doc: Document, puzzle: Puzzle, room: float) -> str:
    """What is printed under a puzzle with ``show_rating``: its rating (in the book's decimal
    notation) and estimated minutes, in the first of ``RATING_CAPTIONS`` that fits ``room``;
    empty for a puzzle without a rating."""
    grade = puzzle.grade
    if grade is None or grade.rating is None or grade.minutes is None:
        return ""
    whole, _, tenth = f"{grade.rating:.1f}".partition(".")
    values = dict(rating=doc.t("{integer}.{fraction}").format(integer=whole, fraction=tenth),
                  minutes=f"{grade.minutes:.0f}")
    forms = [doc.t(form).format(**values) for form in RATING_CAPTIONS]
    return next((text for text in forms if doc.width(text, doc.style.small) <= room), forms[-1])


def grid_caption(doc: Document, centre: float, bottom: float, room: float, entry: Entry) -> None:
    """The rating caption, centred under a grid block whose extent ends at ``bottom``, in the
    ``caption_h`` the geometry keeps there (its letters' foot on the block's foot)."""
    st = doc.style
    text = rating_caption(doc, entry.puzzle, room)
    if text:
        doc.text(centre, bottom - st.caption_h + st.small * DESCENT, text, st.small, grey=0.2, align="center")


# ----- front matter -------------------------------------------------------------------
def title_page(doc: Document, cover: Cover) -> None:
    """The title page: a small grid as the book's mark, the title under it on the upper
    third, a double rule, the subtitle; the author low on the page and the publisher at
    its foot."""
    x0, y0, x1, y1 = doc.safe
    st = doc.style
    mid = (x0 + x1) / 2
    room = replace(title_rooms(st, x1 - x0)[0], face=doc.face)
    size = fit_size(cover.title, room) or room.floor  # the config check made sure it fits
    lines = doc.wrap(cover.title, size, x1 - x0, bold=True)
    y = y1 - (y1 - y0) * 0.3
    _grid_mark(doc, mid, y + size * 1.1, st.body * 0.9)
    for line in lines:
        doc.text(mid, y, line, size, bold=True, align="center")
        y -= size * 1.2
    y -= size * 0.15
    half = min(INCH * 1.1, (x1 - x0) * 0.3)
    c = doc.canvas
    c.setStrokeGray(0)
    c.setLineWidth(BOLD)
    c.line(mid - half, y, mid + half, y)
    doc.rule(mid - half, y - BOLD - 2.5, mid + half, grey=0)
    y -= st.body * 2.9
    if cover.subtitle:
        for line in doc.wrap(cover.subtitle, st.body * 1.35, x1 - x0):
            doc.text(mid, y, line, st.body * 1.35, grey=0.2, align="center")
            y -= st.body * 1.8
    if cover.author:
        size = fit_size(cover.author, replace(author_room(st, x1 - x0), face=doc.face)) or st.small
        doc.text(mid, y0 + (y1 - y0) * 0.16, cover.author, size, align="center")
    if cover.publisher:
        foot = cover.publisher + (f" \u00b7 {cover.year}" if cover.year else "")
        if doc.width(foot, st.small) <= x1 - x0:
            doc.text(mid, y0 + st.small * DESCENT, foot, st.small, grey=0.35, align="center")
    doc.finish(folio=False)


def _grid_mark(doc: Document, cx: float, low: float, cell: float) -> None:
    """The book's mark: a 3 x 3 grid, its diagonal shaded like givens."""
    c = doc.canvas
    left = cx - 1.5 * cell
    c.setLineWidth(THIN)
    c.setStrokeGray(0)
    for k in range(3):
        c.setFillGray(0.8)
        c.rect(left + k * cell, low + (2 - k) * cell, cell, cell, stroke=0, fill=1)
    for k in range(4):
        c.line(left + k * cell, low, left + k * cell, low + 3 * cell)
        c.line(left, low + k * cell, left + 3 * cell, low + k * cell)


def decimal(x: float, t=str) -> str:
    """A number as the book's language writes it (8.5, 8,5), in its shortest form."""
    whole, _, fraction = f"{x:g}".partition(".")
    return t("{integer}.{fraction}").format(integer=whole, fraction=fraction) if fraction else whole


def imprint_page(doc: Document, cover: Cover, entries: Sequence[Entry], pages: int) -> None:
    """The copyright page: who, what, and the seed and version that regenerate the book."""
    x0, y0, x1, y1 = doc.safe
    st = doc.style
    size = st.small
    spec = doc.spec
    t = doc.t
    trim = t("{width} by {height} in").format(width=decimal(spec.trim.width / INCH, t),
                                              height=decimal(spec.trim.height / INCH, t))
    holder = cover.author or cover.publisher
    year = f"{cover.year} " if cover.year else ""
    paras = [
        cover.title + (f": {cover.subtitle}" if cover.subtitle else ""),
        cover.edition or "",
        t("\u00a9 {year}{holder}. All rights reserved.").format(year=year, holder=holder) if holder
        else (f"\u00a9 {cover.year}." if cover.year else ""),
        t("Published by {publisher}.").format(publisher=cover.publisher) if cover.publisher else "",
        f"ISBN {cover.isbn}" if cover.isbn else "",
        doc.nt("{count} puzzle. Every puzzle has exactly one solution, and it can be reached by "
               "logic alone: no guessing is needed.",
               "{count} puzzles. Every puzzle has exactly one solution, and it can be reached by "
               "logic alone: no guessing is needed.", len(entries)).format(count=len(entries)),
        t("Made with bookgen {version} from seed {seed}. The same configuration and seed "
          "regenerate this book exactly.").format(version=__version__, seed=cover.seed) if cover.show_seed else "",
        doc.nt("Trim size {trim}; {pages} page.", "Trim size {trim}; {pages} pages.", pages).format(
            trim=trim, pages=pages),
    ]
    lines: list[tuple[str, bool]] = []
    for k, para in enumerate(p for p in paras if p):
        lines += [(line, k == 0) for line in doc.wrap(para, size, x1 - x0, bold=k == 0)]
        lines.append(("", False))
    y = y0 + len(lines) * size * 1.45
    for line, bold in lines:
        if line:
            doc.text(x0, y, line, size, bold=bold, grey=0.1)
        y -= size * 1.45
    doc.finish(folio=False)  # as published books do: the copyright page carries no number


def contents_page(doc: Document, plan: Plan, shape: BookShape, entries: Sequence[Entry], part: int = 0) -> None:
    """One page of the table of contents: the how-to pages and walkthroughs under "Before you
    start", each section with its puzzle numbers and levels under "The puzzles", the answers."""
    x0, _, x1, top = doc.content()
    st = doc.style
    t = doc.t
    y = doc.heading(t("Contents"), top)
    parts = (t("Before you start"), t("The puzzles"))
    room = replace(section_rooms(st, x1 - x0)[0], face=doc.face)
    for row in contents_pages(shape)[part]:
        if row.kind == "part":
            y -= st.body * 0.5
            doc.text(x0, y, parts[row.index], st.small, bold=True, grey=0.35)
            doc.rule(x0, y - st.small * 0.55, x1)
            y -= contents_height(row, st) - st.body * 0.5
            continue
        if row.kind == "answers":
            y -= st.body * CONTENTS_GAP
        title, detail, page = _contents_entry(doc, plan, shape, entries, row)
        w = doc.text(x0, y, title, fit_size(title, room) or st.small, bold=True)
        _leader(doc, x0 + w + 6, x1 - doc.width(str(page), st.body) - 6, y, st.body)
        doc.text(x1, y, str(page), st.body, align="right")  # after the dots: the text reads in order
        if detail:
            doc.text(x0, y - st.body * 1.15, detail, st.small, grey=0.3)
        y -= st.body * CONTENTS_ENTRY
    doc.finish(t("Contents"))


def _contents_entry(doc: Document, plan: Plan, shape: BookShape, entries: Sequence[Entry],
                    row: ContentsRow) -> tuple[str, str, int]:
    """(title, detail line, page) of one contents entry."""
    t = doc.t
    if row.kind == "rules":
        return (with_name(t, "How to play {name}", how_to_name(doc.cover, shape, row.index)),
                t("the rules, a worked example, techniques"), plan.first_page("rules", row.index))
    if row.kind == "walkthrough":
        detail = t("the first puzzle of \u201c{section}\u201d, every deduction").format(
            section=shape.sections[row.index].title)
        return (walkthrough_title(entries[shape.first_item(row.index)].number, t), detail,
                plan.first_page("walkthrough", row.index))
    if row.kind == "answers":
        return t("Answers"), t("every solution, with the page of its puzzle"), plan.first_page("answers")
    section = shape.sections[row.index]
    first = shape.first_item(row.index)
    mine = entries[first:first + len(section.sizes)]
    numbers = (t("Puzzle {number}").format(number=mine[0].number) if len(mine) == 1 else
               t("Puzzles {first}\u2013{last}").format(first=mine[0].number, last=mine[-1].number))
    levels = [printed_level(e.puzzle)[:2] for e in mine if e.puzzle.grade]
    span = ""
    if levels:
        lo, hi = min(levels), max(levels)
        low, high = t(lo[1]).lower(), t(hi[1]).lower()
        span = low if lo == hi else t("{low} to {high}").format(low=low, high=high)
    return section.title, numbers + (f" \u00b7 {span}" if span else ""), plan.puzzle_pages[first]


def notes_page(doc: Document) -> None:
    """The left-hand page before a section that opens on a right-hand one: a page for notes,
    faintly ruled, so it reads as meant and serves the solver (a bare white page looks like
    a printing fault)."""
    x0, low, x1, top = doc.content()
    st = doc.style
    y = doc.heading(doc.t("Notes"), top)
    pitch = 9 * MM  # a school ruling: wide enough for a child's hand
    y -= pitch * 0.5
    while y >= low + pitch * 0.5:
        doc.rule(x0, y, x1, grey=0.75)
        y -= pitch
    doc.finish()


def _leader(doc: Document, a: float, b: float, y: float, size: float) -> None:
    """Dot leaders between a contents title and its page number: one run of dots on a fixed
    pitch (so they line up from row to row), drawn as one string so the PDF's text reads as
    a line of the contents rather than a column of single dots."""
    step = size * 0.55
    dot = "."
    x = a - (a % step) + step
    count = int((b - doc.width(dot, size) - x) // step) + 1
    if count <= 0:
        return
    c = doc.canvas
    c.setFont(FONT, size)
    c.setFillGray(0.45)
    c.drawString(x, y, dot * count, charSpace=step - doc.width(dot, size))


# ----- how to play ----------------------------------------------------------------------
SCALES = (1.0, 0.94, 0.88, 0.82, 0.76, 0.7, 0.64)  # how far a how-to page's headings and example may shrink
SPLIT_BELOW = 0.88  # shrinking more than this runs the how-to over more pages instead


class _Flow:
    """Blocks of a how-to laid top to bottom over as many pages as they need, each page
    under its heading. Positions are kept relative to the content box's top-left corner
    (left- and right-hand pages differ in their gutter), and the drawing is kept as
    closures to replay on the page being drawn."""

    def __init__(self, doc: Document, title: str):
        x0, low, x1, top = doc.content()
        self.doc, self.title = doc, title
        self.width, self.low = x1 - x0, low - top
        self.pages: list[list] = []
        self.open()
        self.full = self.y - self.low  # the room of a fresh page

    def open(self) -> None:
        """Start a page: its heading, then room below it."""
        doc, title = self.doc, self.title
        self.pages.append([lambda ox, oy: doc.heading(title, oy, True)])
        self.y = doc.heading(title, 0.0, False) + doc.style.heading * 0.9
        self.fresh = True

    def need(self, height: float, keep: float = 0.0) -> float:
        """The top of a block ``height`` tall (with ``keep`` more that must follow it on
        the same page), on a new page when this one can't hold it; advances past it."""
        if self.y - height - keep < self.low and not self.fresh:
            self.open()
        self.fresh = False
        top = self.y
        self.y -= height
        return top

    def text(self, x: float, y: float, s: str, size: float, **kw) -> None:
        """Text at (x, y) from the content box's top-left corner."""
        doc = self.doc
        self.pages[-1].append(lambda ox, oy: doc.text(ox + x, oy + y, s, size, **kw))

    def draw(self, fn) -> None:
        """Any other drawing: ``fn(ox, oy)`` with the content box's top-left corner."""
        self.pages[-1].append(fn)


def _measuring(spec: PageSpec, style: Style, gutter: float, language: str = DEFAULT) -> Document:
    """A document that is never saved, to lay pages out before the book is drawn."""
    return Document(BytesIO(), Cover("", None, None, 0, language=language), spec, style, gutter)


def _subheading(doc: Document, text: str, body: float, width: float) -> float:
    """The size of a how-to subheading: a quarter larger than the body, less if a long
    translation needs it to stay on its line, never below the caption floor."""
    room = Room("on a how-to-play page", width, 1, body * 1.25, doc.style.small, bold=True, face=doc.face)
    return fit_size(text, room) or room.floor


def _how_to_pages(doc: Document, variant_name: str, rules: Mapping, example: Puzzle | None,
                  name: str = "", sizes: Sequence[int] = ()) -> list[list]:
    """The pages of one rule set's how-to, as lists of drawing closures: on one page when
    the rules, the worked example and the techniques fit with little shrinking; else the
    rules and example, then the techniques, each over as many pages as it needs. Running
    text never goes below the caption size (``Style.small``, the body floor); only the
    larger type and the example's cells shrink."""
    return _how_to_layout(doc, variant_name, rules, example, name, sizes)[1]


def _how_to_layout(doc: Document, variant_name: str, rules: Mapping, example: Puzzle | None,
                   name: str = "", sizes: Sequence[int] = (), plain: bool = False) -> tuple[float, list[list]]:
    """``_how_to_pages`` with the scale it chose. Each scale is laid out once, and the search
    over more pages stops at the first scale that takes two (no smaller scale can take fewer:
    one page counts as two); ``plain=True`` lays every scale out afresh and takes the minimum
    over all of them, which the other must equal (tests/test_howto.py compares them)."""
    variant = get_variant(variant_name)
    name = name or doc.cover.name_of(variant_name)
    steps = example_steps(variant, example) if example is not None else []
    laid: dict[float, list[list]] = {}

    def flow(scale: float) -> list[list]:
        if plain or scale not in laid:
            laid[scale] = _rules_body(doc, variant, rules, example, steps, scale, name, sizes).pages
        return laid[scale]

    for scale in SCALES:
        if scale < SPLIT_BELOW:
            break
        pages = flow(scale)
        if len(pages) == 1:
            return scale, pages
    # Over more pages: the fewest the type allows (one counts as two, so a single page
    # never costs more shrinking than SPLIT_BELOW), at the largest scale that takes them.
    if plain:
        return min(((scale, flow(scale)) for scale in SCALES), key=lambda laid_out: max(len(laid_out[1]), 2))
    best = SCALES[0]
    for scale in SCALES:
        if max(len(flow(scale)), 2) < max(len(flow(best)), 2):
            best = scale
        if len(flow(best)) <= 2:
            break
    return best, flow(best)


def rules_pages_needed(spec: PageSpec, style: Style, gutter: float, variant_name: str,
                       example: Puzzle | None, language: str = DEFAULT, rules: Mapping | None = None,
                       sizes: Sequence[int] = ()) -> int:
    """How many pages a rule set's how-to takes at this gutter (``sizes``: the sizes the rule
    set prints, which its rules name; the example's size when not given)."""
    doc = _measuring(spec, style, gutter, language)
    rules = example.rules if example is not None else (rules or {})
    return len(_how_to_pages(doc, variant_name, rules, example, sizes=_rule_sizes(sizes, example)))


def _rule_sizes(sizes: Sequence[int], example: Puzzle | None) -> tuple[int, ...]:
    return tuple(sizes) or ((example.size,) if example is not None else ())


def walkthrough_pages_needed(spec: PageSpec, style: Style, gutter: float, entry: Entry,
                             language: str = DEFAULT) -> int:
    """Pages the walkthrough of ``entry`` takes at this gutter."""
    return len(lay_out(_measuring(spec, style, gutter, language), entry.puzzle, entry.number, entry.section).pages)


def plan_with_rules(shape: BookShape, examples: Mapping[int, Puzzle],
                    entries: Sequence[Entry] = (), language: str = DEFAULT) -> tuple[BookShape, Plan]:
    """Paginate a book, measuring each how-to and each walkthrough (of the first of
    ``entries`` in every ``explain`` section) against the gutter the book settles on.

    A page more can widen the gutter, which narrows the text and can only add
    pages, never remove them: the counts grow until they settle, within one
    round per gutter step.
    """
    plan = plan_book(shape)
    # A count depends on the gutter alone (spec, style, rules and puzzles stay): the round that
    # confirms a gutter reads the counts the round before measured at it.
    @cache
    def how_to(s: int, gutter: float) -> int:
        return rules_pages_needed(shape.spec, shape.style, gutter, shape.sections[s].variant, examples.get(s),
                                  language, dict(shape.sections[s].rules), shape.rule_set_sizes(s))

    @cache
    def walk(s: int, gutter: float) -> int:
        return walkthrough_pages_needed(shape.spec, shape.style, gutter, entries[shape.first_item(s)], language)

    for _ in range(len(GUTTERS) + 2):
        rules = tuple(how_to(s, plan.gutter) for s in shape.rule_sets)
        walks = tuple(_guessed(shape, w) if isinstance(entries, Mapping) and shape.first_item(s) not in entries
                      else walk(s, plan.gutter)
                      for w, s in enumerate(shape.explained))
        if (rules, walks) == (shape.rules_pages, shape.walkthrough_pages):
            break
        shape = replace(shape, rules_pages=rules, walkthrough_pages=walks)
        plan = plan_book(shape)
    return shape, plan


def _guessed(shape: BookShape, w: int) -> int:
    """The pages a walkthrough is given before its puzzle is made (a plan's draft)."""
    return shape.walkthrough_pages[w] if w < len(shape.walkthrough_pages) else 1


def rules_page(doc: Document, variant_name: str, rules: Mapping, example: Puzzle | None,
               part: int = 0, parts: int = 1, name: str = "", sizes: Sequence[int] = ()) -> None:
    """Page ``part`` of a rule set's how-to (see ``_how_to_pages``): its exact rules, a worked
    example drawn by the variant itself, and the techniques by level."""
    name = name or doc.cover.name_of(variant_name)
    laid = doc.__dict__.setdefault("_how_to", {})  # one layout serves all the parts of a how-to
    sizes = _rule_sizes(sizes, example)
    key = (variant_name, repr(sorted(rules.items())), id(example), name, sizes)
    if key not in laid:
        laid[key] = (example, _how_to_pages(doc, variant_name, rules, example, name, sizes))
    pages = laid[key][1]
    assert len(pages) == parts, "how-to measured with another gutter"
    x0, _, _, top = doc.content()
    for fn in pages[part]:
        fn(x0, top)
    doc.finish(with_name(doc.t, "How to play {name}", name))


def _rules_body(doc: Document, variant, rules: Mapping, example: Puzzle | None, steps: list,
                scale: float, name: str, sizes: Sequence[int] = ()) -> _Flow:
    """Lay a how-to out at ``scale`` (running text never below ``Style.small``): the rules,
    the worked example, then the techniques, under "How to play" on the pages that show
    the rules or the example and under "... techniques" on those that only list techniques."""
    st = doc.style
    body, small = max(st.body * scale, st.small), st.small
    lead = body * 1.38
    t = doc.t
    f = _Flow(doc, with_name(t, "How to play {name}", name))
    width = f.width
    indent = body * 1.3
    for rule in map(t, printed_rules(variant, rules, sizes)):
        lines = doc.wrap(rule, body, width - indent)
        y = f.need(len(lines) * lead + body * 0.3)
        for k, line in enumerate(lines):
            y -= lead
            if k == 0:
                f.text(0.0, y, "•", body)
            f.text(indent, y, line, body)
    if example is not None:
        _worked_example(f, variant, example, steps, scale)
    f.title = with_name(t, "{name} techniques", name)  # pages from here on only list techniques
    tech_line = small * 1.35
    techniques = variant.techniques_for(rules)
    mbox = round(small * 0.72, 2)
    heading = True
    for level in LEVELS:
        techs = [tech for tech in techniques if tech.level == level]
        if not techs:
            continue
        said = []
        for tech in techs:
            tname = t(tech.title)
            tlead = t("{technique}:").format(technique=tname)  # French puts a space before the colon
            lead_w = doc.width(tlead + " ", small, bold=True)
            said.append((tlead, lead_w, doc.wrap(t(tech.description), small, width - indent,
                                                        first_indent=lead_w)))
        first = len(said[0][2]) * tech_line + small * DESCENT
        if heading and f.y - body * 2.3 - lead * 1.15 - first >= f.low:
            # "Techniques you'll need" under the example, with the first level and technique
            y = f.need(body * 2.3)
            need = t("Techniques you'll need")
            f.text(0.0, y - body * 1.8, need, _subheading(doc, need, body, width), bold=True)
        elif heading:
            f.open()  # a techniques page: its heading says what it holds
        heading = False
        if f.fresh:
            f.y -= st.heading * 0.2
        label = t(level.label)
        w = doc.width(label, body, bold=True)

        def level_label() -> float:
            y = f.need(lead * 1.15, keep=first) - lead * 1.15
            f.text(0.0, y, label, body, bold=True)
            f.draw(lambda ox, oy, x=w + body * 0.6, y=y, level=level: marker(doc, ox + x, oy + y, level.marker, mbox))
            return y

        level_label()
        for tlead, lead_w, lines in said:
            if f.y - len(lines) * tech_line - small * DESCENT < f.low:
                f.open()  # the level continues on a new page: say it again there
                f.y -= st.heading * 0.2
                first = len(lines) * tech_line + small * DESCENT
                level_label()
            y = f.need(len(lines) * tech_line, keep=small * DESCENT)
            for k, line in enumerate(lines):
                y -= tech_line
                if k == 0:
                    f.text(indent, y, tlead, small, bold=True)
                f.text(indent + (lead_w if k == 0 else 0.0), y, line, small)
    return f


def example_steps(variant, example: Puzzle) -> list:
    """The worked example's numbered steps: the first deductions, up to and including the
    first that needs more than the variant's easiest techniques (at most ``MAX_STEPS``)."""
    easiest = min(t.level for t in variant.techniques)
    tiers = {t.name: t.level for t in variant.techniques}
    steps = []
    for step in variant.explain(example)[0]:
        if not step.cells:
            continue
        steps.append(step)
        if tiers.get(step.technique, easiest) > easiest or len(steps) == MAX_STEPS:
            break
    return steps


MAX_STEPS = 5


def measured_types(entries: Sequence[Entry]) -> tuple[float, ...]:
    """Each puzzle's smallest type as drawn (a fraction of the cell), in book order."""
    return tuple(smallest_text(get_variant(e.puzzle.variant), e.puzzle) for e in entries)


def _worked_example(f: _Flow, variant, example: Puzzle, steps: list, scale: float) -> None:
    """The example puzzle with its first deductions numbered and its solution beside it, then
    those deductions in words, a block each; when two grids at a legible size don't fit
    side by side, the solution comes after the deductions (on the next page if need be)."""
    doc, st = f.doc, f.doc.style
    body, small = max(st.body * scale, st.small), st.small
    width = f.width
    ext = puzzle_extent(example)
    gap = SLOT_GAP * 1.5
    floor = st.min_type / min(smallest_text(variant, example), MARKER_TYPE)
    cell = max(min((width - gap) / (2 * ext.width) - BOLD, st.min_cell * scale * 0.9), floor)
    grid = ext.width * cell
    tall = ext.height * cell
    # a large grid (the book's own size: a 14x14 Binairo) stays inside the page, its step
    # numbers then a little under the grid floor; its own digits keep theirs (the config checks)
    cell = min(cell, (width - BOLD) / ext.width)
    grid = ext.width * cell
    tall = ext.height * cell
    indent = doc.width("0. ", small, bold=True)
    titles = {t.name: doc.t(t.title) for t in variant.techniques}
    said = [doc.wrap(doc.t("{technique}: {reason}").format(technique=titles.get(step.technique, step.technique),
                                                           reason=step_text(doc, variant, step)), small,
                     width - indent) for step in steps]
    # from the block's top: space, the title, the caption, the grid
    head = body * 1.2 + body * ASCENT + body * 1.2 + small * ASCENT + small * 0.9
    side = 2 * grid + gap + 2 * BOLD <= width
    first = len(said[0]) * small * 1.35 if said and not side else 0.0
    y = f.need(head + tall + BOLD, keep=first)  # the first step stays with a grid alone
    left = (width - (2 * grid + gap if side else grid)) / 2
    caption_y = y - head + small * 0.9
    title = doc.t("A worked example")
    f.text(0.0, y - body * 1.2 - body * ASCENT, title, _subheading(doc, title, body, width), bold=True)
    f.text(left, caption_y, doc.t("The puzzle"), small, grey=0.2)

    def puzzle(ox, oy, top=caption_y - small * 0.9):
        pen = CanvasPen(doc.canvas, *grid_origin(ext, ox + left, oy + top, cell), cell, THIN, BOLD)
        variant.draw(pen, example, solved=False)
        mx, my, mr = MARKER
        for k, step in enumerate(steps, start=1):
            for (r, c), _ in step.cells:
                pen.circle(c + mx, r + my, mr, fill=1.0, stroke="thin")
                pen.text(c + mx, r + my, str(k), MARKER_CAP, bold=True, anchor=CENTER)

    def solution(x: float, caption: float) -> None:
        f.text(x, caption, doc.t("Its solution"), small, grey=0.2)
        f.draw(lambda ox, oy, top=caption - small * 0.9: variant.draw(
            CanvasPen(doc.canvas, *grid_origin(ext, ox + x, oy + top, cell), cell, THIN, BOLD), example,
            solved=True))

    f.draw(puzzle)
    if side:
        solution(left + grid + gap, caption_y)
    for k, lines in enumerate(said, start=1):
        # the engine's reasons name the cells they fill and the symbols, so they stand alone
        y = f.need(len(lines) * small * 1.35, keep=small * DESCENT)
        for j, line in enumerate(lines):
            y -= small * 1.35
            if j == 0:
                f.text(0.0, y, f"{k}.", small, bold=True)
            f.text(indent, y, line, small)
    if not side:  # below the steps, centred like the puzzle
        below = small * 1.2 + small * ASCENT + small * 0.9
        y = f.need(below + tall + BOLD)
        solution(left, y - small * 1.2 - small * ASCENT)


# ----- puzzles and answers -----------------------------------------------------------------
def _spread(room: float, count: int, item: float) -> tuple[float, float]:
    """(first offset, pitch) sharing ``room`` evenly around ``count`` items, yet keeping
    at least ``SLOT_GAP`` between neighbours."""
    free = room - count * item
    inner = free / (count + 1)
    if count > 1 and inner < SLOT_GAP:
        inner = min(SLOT_GAP, free / (count - 1))
    return (free - (count - 1) * inner) / 2, item + inner


def slot_origins(box: Box, columns: int, rows: int, grid: float, block: float) -> list[tuple[float, float]]:
    """Top-left corners of the grid blocks, whitespace shared evenly around and between them."""
    x0, y0, x1, y1 = box
    ox, px = _spread(x1 - x0, columns, grid)
    oy, py = _spread(y1 - y0, rows, block)
    return [(x0 + ox + c * px, y1 - oy - r * py) for r in range(rows) for c in range(columns)]


def puzzle_page(doc: Document, page: PagePlan, entries: Sequence[Entry], worksheet: bool = False,
                title: str = "", answers: Sequence[int] = (), header: str = "", solved: bool = False,
                footer: str = "") -> None:
    """The puzzles of one page in the plan's arrangement: one cell size for all, each grid
    centred in its slot; the footer says where the answers are. ``solved`` draws a class
    set's answer page, whose grids sit exactly where the worksheet's do."""
    st = doc.style
    arr = page.arrangement
    assert arr is not None
    version = entries[page.items[0]].version
    if worksheet:
        worksheet_head(doc, entries[page.items[0]], key=solved,
                       sizes=sorted({entries[i].puzzle.size for i in page.items}))
        if version:
            version_label(doc, version)
    box = doc.content(worksheet)
    extents = {i: puzzle_extent(entries[i].puzzle) for i in page.items}
    grid = max(e.width for e in extents.values()) * arr.cell
    block = st.label_h + max(e.height for e in extents.values()) * arr.cell + st.caption_h
    origins = slot_origins(box, arr.columns, arr.rows, grid, block)
    # a caption keeps half the least gap from its neighbour's, and stays on the page
    pitch = origins[1][0] - origins[0][0] - SLOT_GAP / 2 if arr.columns > 1 else box[2] - box[0]
    for (x, top), index in zip(origins, page.items):
        entry = entries[index]
        ext = extents[index]
        own = ext.width * arr.cell
        x += (grid - own) / 2
        grid_label(doc, x, top - st.label_h + st.label * 0.55, own, entry)
        pen = CanvasPen(doc.canvas, *grid_origin(ext, x, top - st.label_h, arr.cell), arr.cell, THIN, BOLD)
        get_variant(entry.puzzle.variant).draw(pen, entry.puzzle, solved=solved)
        if st.rating_caption and not solved:  # a key is for marking: the rating is the puzzle's
            centre = x + own / 2
            grid_caption(doc, centre, top - st.label_h - ext.height * arr.cell,
                         min(pitch, 2 * (centre - box[0]), 2 * (box[2] - centre)), entry)
    if worksheet:
        label = title
        if version:
            label += " \u00b7 " + doc.t(VERSION_LABEL).format(version=version)
        if solved:
            label += " \u00b7 " + doc.t(KEY_WORDS)
        doc.finish(folio=False, footer=footer or doc.t("{title} \u00b7 page {page}").format(title=label, page=doc.page))
        return
    if answers:
        x0, y0, x1, _ = doc.safe
        lo, hi = min(answers), max(answers)
        where = (doc.t("Answers on page {page}").format(page=lo) if lo == hi
                 else doc.t("Answers on pages {first}\u2013{last}").format(first=lo, last=hi))
        doc.text((x0 + x1) / 2, y0 + st.small * DESCENT, where, st.small,
                 grey=0.35, align="center")
    doc.finish(header or page.header)


VERSION_LABEL = N_("Version {version}")
KEY_WORDS = N_("answer key")


def version_label(doc: Document, version: str) -> None:
    """'Version B' in bold at the top right of a class-set page, inside the header band."""
    x0, _, x1, y1 = doc.safe
    doc.text(x1, y1 - doc.style.body * ASCENT, doc.t(VERSION_LABEL).format(version=version), doc.style.body, bold=True,
             align="right")


def worksheet_head(doc: Document, entry: Entry, key: bool = False, sizes: Sequence[int] = ()) -> None:
    """The title, subtitle and author in the header band; name, date and class to fill in
    (on a key page: that it is the key); and the rules of the page's sizes, headed with the
    section's name."""
    x0, _, x1, y1 = doc.safe
    st = doc.style
    puzzle = entry.puzzle
    cover = doc.cover
    room = (x1 - x0) * (0.7 if entry.version else 1.0)  # the version's label takes the right
    base = y1 - st.body * ASCENT
    x = x0 + doc.text(x0, base, _clipped(doc, cover.title, st.body, room, True), st.body, bold=True)
    for extra in (cover.subtitle, cover.author):
        if extra:
            piece = " \u00b7 " + extra
            if x + doc.width(piece, st.small) <= x0 + room:
                x += doc.text(x, base, piece, st.small, grey=0.3)
    doc.rule(x0, y1 - st.band * 0.62, x1)
    y = y1 - st.band - st.body
    parts = ((doc.t("Name"), 0.5), (doc.t("Date"), 0.25), (doc.t("Class"), 0.25))
    x = x0
    width = x1 - x0
    if key:
        doc.text(x0, y, doc.t("Answer key"), st.body, bold=True)
        parts = ()
    for k, (word, share) in enumerate(parts):
        w = doc.text(x, y, word, st.body, bold=True)
        end = x + share * width - (st.body * 1.5 if k < len(parts) - 1 else 0)
        doc.rule(x + w + 5, y - 2, end, grey=0)
        x += share * width
    variant = get_variant(puzzle.variant)
    size = st.small  # the caption floor: the reminder wraps instead of shrinking
    name = reminder_name(entry.section, doc.cover.name_of(puzzle.variant), variant)
    text = rule_reminder(name, printed_rules(variant, puzzle.rules, tuple(sizes) or (puzzle.size,)), doc.t)
    lines = doc.wrap(text, size, reminder_width(doc.spec, st))
    top = y - st.body * 1.6
    height = max(st.reminder_lines, len(lines)) * st.small * 1.35 + 10
    c = doc.canvas
    c.setFillGray(0.9)
    c.setStrokeGray(0.45)
    c.setLineWidth(THIN)
    c.rect(x0 + THIN / 2, top - height, width - THIN, height, stroke=1, fill=1)
    ty = top - 5 - size * ASCENT - (height - 10 - len(lines) * size * 1.35) / 2
    for line in lines:
        doc.text(x0 + 8, ty, line, size, grey=0.0)
        ty -= size * 1.35


def _clipped(doc: Document, text: str, size: float, width: float, bold: bool = False) -> str:
    """``text``, cut with an ellipsis where it would run past ``width`` (a header line)."""
    if doc.width(text, size, bold) <= width:
        return text
    while text and doc.width(text + "\u2026", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


def answer_page(doc: Document, page: PagePlan, entries: Sequence[Entry], pages: Mapping[int, int],
                title: str = "", heading_text: str = N_("Answers")) -> None:
    """Solved grids in rows of one size class, each grid with its own cell size, its number
    and the page of its puzzle."""
    st = doc.style
    x0, y0, x1, y1 = doc.content()
    y = y1
    if page.first:
        doc.heading(doc.t(heading_text), y1)
        y -= st.heading * 2
    size = key_label(st)
    k = 0
    for count, height, columns in page.rows:
        slot_w = (x1 - x0 - (columns - 1) * KEY_GAP) / columns
        for col in range(count):
            index, cell = page.items[k], page.cells[k]
            k += 1
            entry = entries[index]
            ext = key_extent(puzzle_extent(entry.puzzle))
            width = ext.width * cell
            x = x0 + col * (slot_w + KEY_GAP) + (slot_w - width) / 2
            doc.text(x, y - size * ASCENT, str(entry.number), size, bold=True)
            doc.text(x + width, y - size * ASCENT, doc.t("page {page}").format(page=pages[index]), size * 0.9, grey=0.3, align="right")
            pen = AnswerPen(doc.canvas, *grid_origin(ext, x, y - size * 1.5, cell), cell, THIN, BOLD)
            get_variant(entry.puzzle.variant).draw(pen, entry.puzzle, solved=True)
        y -= height
    if title:
        doc.finish(folio=False, footer=doc.t("{title} · answer key · page {page}").format(title=title, page=doc.page))
    else:
        doc.finish(doc.t(page.header))


# ----- whole documents ------------------------------------------------------------------------
def walkthrough_page(doc: Document, page: PagePlan, walk: Walkthrough, entry: Entry,
                     puzzle_page_number: int, how_to: str) -> None:
    """One page of a laid-out walkthrough, under the running header of its rule set's how-to."""
    draw_part(doc, walk, page.part, entry.number, puzzle_page_number)
    doc.finish(with_name(doc.t, "How to play {name}", how_to))


def render_book(path: Path, cover: Cover, shape: BookShape, plan: Plan, entries: Sequence[Entry],
                examples: Mapping[int, Puzzle], progress=None) -> None:
    """Write the whole book to ``path`` following ``plan``."""
    doc = Document(path, cover, shape.spec, shape.style, plan.gutter)
    walks: dict[int, Walkthrough] = {}
    for number, page in enumerate(plan.pages, start=1):
        if progress:
            progress(number, len(plan.pages))
        if page.kind == "title":
            title_page(doc, cover)
        elif page.kind == "imprint":
            imprint_page(doc, cover, entries, len(plan.pages))
        elif page.kind == "contents":
            contents_page(doc, plan, shape, entries, page.part)
        elif page.kind == "rules":
            example = examples.get(page.section)
            rules = example.rules if example else dict(shape.sections[page.section].rules)
            parts = sum(1 for p in plan.pages if p.kind == "rules" and p.section == page.section)
            rules_page(doc, page.variant, rules, example, page.part, parts,
                       how_to_name(cover, shape, page.section), shape.rule_set_sizes(page.section))
        elif page.kind == "walkthrough":
            index = shape.first_item(page.section)
            entry = entries[index]
            if page.section not in walks:
                walks[page.section] = lay_out(doc, entry.puzzle, entry.number, entry.section)
                planned = sum(1 for p in plan.pages if p.kind == "walkthrough" and p.section == page.section)
                assert len(walks[page.section].pages) == planned, "walkthrough measured with another gutter"
            walkthrough_page(doc, page, walks[page.section], entry, plan.puzzle_pages[index],
                             how_to_name(cover, shape, shape.rule_set_of(page.section)))
        elif page.kind == "puzzles":
            header = running_header(shape, plan, page, doc.t)
            x0, _, x1, _ = doc.safe
            if doc.width(header, doc.style.small) > x1 - x0:  # sections sharing a page: the first
                header = shape.sections[page.section].title  # (its title fits: the config checks)
            puzzle_page(doc, page, entries, answers=[plan.answer_pages[i] for i in page.items],
                        header=header)
        elif page.kind == "answers":
            answer_page(doc, page, entries, plan.puzzle_pages)
        elif page.kind == "blank":  # before a section that opens on a right-hand page
            notes_page(doc)
    doc.save()


def render_worksheets(path: Path, answers_path: Path, cover: Cover, shape: BookShape, plan: Plan,
                      key: Plan, entries: Sequence[Entry], progress=None) -> None:
    """Write a worksheet packet to ``path`` and its answer key to ``answers_path``."""
    doc = Document(path, cover, shape.spec, shape.style, plan.gutter, subject=N_("Worksheets"))
    for number, page in enumerate(plan.pages, start=1):
        if progress:
            progress(number, len(plan.pages) + len(key.pages))
        puzzle_page(doc, page, entries, worksheet=True, title=cover.title)
    doc.save()
    key_title = doc.t("{title}: answer key").format(title=cover.title)
    answers = Document(answers_path, replace(cover, title=key_title), shape.spec,
                       shape.style, key.gutter, subject=N_("Answer key"))
    for page in key.pages:
        answer_page(answers, page, entries, plan.puzzle_pages, title=cover.title,
                    heading_text=answer_key_heading(cover.title, doc.t))
    answers.save()

