"""The full-wrap paperback cover: back, spine and front on one PDF page.

Sizes follow Amazon KDP's paperback cover calculator and cover guide:
- spine width = page count x paper thickness: 0.002252 in per page on white
  paper, 0.0025 in on cream;
- cover width = 0.125 in bleed + trim width (back) + spine + trim width
  (front) + 0.125 in bleed; height = trim height + 2 x 0.125 in;
- text only on the spine of books with at least 79 pages, and kept
  0.0625 in from each spine fold;
- the barcode goes at the lower right of the back cover: an area of
  2 x 1.2 in, 0.25 in inside the trim's bottom and right edges, kept empty.
All text stays at least 0.25 in inside the trim of its panel. Everything
drawn goes through ``Sheet``, which records the box of every mark, so the
tests can check the barcode area and the safe zones from the marks alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from bookgen import __version__
from bookgen.core.i18n import N_
from bookgen.core.types import Puzzle, cell_count, size_label
from bookgen.i18n import DEFAULT as DEFAULT_LANGUAGE
from bookgen.i18n import translation, translator
from bookgen.layout.fonts import ASCENT, DEFAULT_FACE, DESCENT, FONT, FONT_BOLD, font_of, register_fonts
from bookgen.layout.geometry import BOLD, INCH, THIN, Box, Trim
from bookgen.layout.pen import CanvasPen, drawn_box
from bookgen.variants.registry import get_variant, printed_level

PAPERS = {"white": 0.002252, "cream": 0.0025}  # inches per page (KDP)
BLEED = 0.125 * INCH
SAFE = 0.25 * INCH  # text inside the trim of each panel
FOLD_CLEAR = 0.0625 * INCH  # spine text from either fold
SPINE_TEXT_PAGES = 79  # KDP: no spine text on thinner books
BARCODE_W, BARCODE_H = 2.0 * INCH, 1.2 * INCH
BAND_SHARE = 0.34  # the top of the cover the colour band takes
BLURB_BODY = 12.5  # points on a 6 in wide cover, scaled with the trim's width
BLURB_FLOOR = 8.0  # the blurb never shrinks below this; a longer one is refused
BLURB_LEAD = 1.4  # line pitch of the blurb, in its type size
SMALL_SHARE = 0.92  # the list under the blurb, against the blurb's size
MIN_TYPE = 6.0  # points: the least any cover text shrinks to
MIN_ART = 0.75 * INCH  # a smaller front grid is left out
ART_LINE = 0.025  # the front art's thin line, as a share of its cell
DEFAULT_COLOUR = (0.14, 0.28, 0.42)  # a dark slate blue: white type reads on it, it prints in grey
FOLD_WRAP = BLEED  # the spine's colour runs this far past each fold: a spine printed a little off
# still shows its colour there, never a white sliver (KDP's spine tolerance is 1/16 in each way)
# Cover themes: (default colour, title size on a 6 in wide front, what fills the wrap).
THEMES = {
    "classic": ((0.14, 0.28, 0.42), 34.0, "band"),     # a colour band on white, a puzzle as art
    "bold": ((0.05, 0.33, 0.36), 46.0, "full"),        # the whole wrap in colour, the title large
    "pattern": ((0.42, 0.12, 0.20), 44.0, "pattern"),  # colour with the book's own grids as a pattern
}
DEFAULT_THEME = "classic"
IMAGE_DPI = 300  # a cover image must print at least this sharp

# Every printed word of this module, in one place: English message ids, translated
# into the book's language where they are printed.
TEXT = {
    "inside": N_("Inside this book"),
    "rules": N_("How-to-play pages with worked examples"),
    "answers": N_("Answers to every puzzle"),
    "unique": N_("Every puzzle has exactly one solution, reached by logic alone"),
    "spine": "{title}  \u00b7  {author}",
    "subject": N_("Cover"),
    "too_long": "the cover blurb takes {lines} lines on the back cover, where {fit} fit above the "
                "barcode; shorten it to about {chars} characters",
}


class CoverError(ValueError):
    """A cover whose text can't fit; the message says what to shorten."""


@dataclass(frozen=True)
class CoverGeometry:
    """Where the panels of a full-wrap cover lie, in points, origin at the bottom left."""

    trim: Trim
    pages: int
    paper: str

    @property
    def spine(self) -> float:
        """The spine's width: pages x paper thickness."""
        return self.pages * PAPERS[self.paper] * INCH

    @property
    def size(self) -> tuple[float, float]:
        """Width and height of the whole page, bleed included."""
        return 2 * BLEED + 2 * self.trim.width + self.spine, self.trim.height + 2 * BLEED

    @property
    def trim_box(self) -> Box:
        """The cover once trimmed: the whole page less the bleed."""
        w, h = self.size
        return (BLEED, BLEED, w - BLEED, h - BLEED)

    @property
    def back(self) -> Box:
        """The back panel's trim."""
        return (BLEED, BLEED, BLEED + self.trim.width, BLEED + self.trim.height)

    @property
    def spine_box(self) -> Box:
        """Between the two folds."""
        x = BLEED + self.trim.width
        return (x, BLEED, x + self.spine, BLEED + self.trim.height)

    @property
    def front(self) -> Box:
        """The front panel's trim."""
        x = BLEED + self.trim.width + self.spine
        return (x, BLEED, x + self.trim.width, BLEED + self.trim.height)

    @property
    def barcode(self) -> Box:
        """The area kept empty for the barcode: lower right of the back, 0.25 in inside the trim."""
        _, y0, x1, _ = self.back
        return (x1 - SAFE - BARCODE_W, y0 + SAFE, x1 - SAFE, y0 + SAFE + BARCODE_H)

    @property
    def spine_text(self) -> bool:
        """Whether the book is thick enough for words on its spine."""
        return self.pages >= SPINE_TEXT_PAGES


def cover_geometry(trim: Trim, pages: int, paper: str) -> CoverGeometry:
    """The cover of a book with this trim, final interior page count and paper."""
    return CoverGeometry(trim, pages, paper)


def inset(box: Box, by: float) -> Box:
    """``box`` shrunk by ``by`` on every side."""
    return (box[0] + by, box[1] + by, box[2] - by, box[3] - by)


@dataclass(frozen=True)
class CoverContent:
    """What the cover says and shows."""

    title: str
    subtitle: str | None
    author: str | None
    blurb: str
    inside: tuple[str, ...]
    art: Puzzle | None
    colour: tuple[float, float, float]
    language: str = DEFAULT_LANGUAGE  # the words above are already in it; the heading follows it
    theme: str = DEFAULT_THEME
    image: str | None = None  # a PNG or JPEG for the front, checked for 300 dpi by the config
    font: str = DEFAULT_FACE  # the book's text face
    pattern: tuple[Puzzle, ...] = ()  # the book's own grids, for the pattern theme


def cover_content(book, entries) -> CoverContent:
    """The cover's words and front art from a built book (``sample`` or its largest grid)."""
    spec = book.cover
    art = None
    if entries:
        if spec.sample:
            art = entries[spec.sample - 1].puzzle
        else:
            art = max(entries, key=lambda e: (cell_count(e.puzzle.size), -e.number)).puzzle
    catalog = translator(book.language)
    t = translation(book.language)
    lines = []
    start = 0
    for section in book.sections:
        levels = [printed_level(e.puzzle)[:2] for e in entries[start:start + section.count] if e.puzzle.grade]
        start += section.count
        lo, hi = (t(level[1]).lower() for level in (min(levels), max(levels)))
        span = lo if lo == hi else t("{low} to {high}").format(low=lo, high=hi)
        sizes = sorted({e.puzzle.size for e in entries[start - section.count:start]})  # as built
        title = book.name_of(section.variant) + " " + ", ".join(size_label(n) for n in sizes)
        lines.append(catalog.ngettext("{count} {title} puzzle, {levels}", "{count} {title} puzzles, {levels}",
                                      section.count).format(count=section.count, title=title, levels=span))
    lines += [line for line in (t(TEXT["rules"]), t(TEXT["answers"]), t(TEXT["unique"]))
              if not says(spec.blurb, line)]
    theme = getattr(spec, "theme", DEFAULT_THEME)
    pattern = tuple(e.puzzle for e in entries[:12]) if theme == "pattern" else ()
    return CoverContent(book.title, book.subtitle, book.author, spec.blurb, tuple(lines), art,
                        spec.colour or THEMES[theme][0], book.language, theme, getattr(spec, "image", None),
                        getattr(book, "font", DEFAULT_FACE), pattern)


def says(blurb: str, line: str) -> bool:
    """Whether the blurb already says what a line of the list would: most of the line's
    longer words are in it (the back cover never says a thing twice)."""
    words = [w for w in re.findall(r"\w+", line.lower()) if len(w) > 3]
    have = set(re.findall(r"\w+", blurb.lower()))
    return bool(words) and sum(w in have for w in words) >= 0.6 * len(words)


@dataclass
class Sheet:
    """The canvas plus a record of the box every mark covers (kind, box, text)."""

    canvas: Canvas
    marks: list[tuple[str, Box, str]] = field(default_factory=list)
    face: str = DEFAULT_FACE

    def width(self, s: str, size: float, bold: bool = False) -> float:
        """The width of a line of text."""
        return text_width(s, size, bold, self.face)

    def text(self, x: float, y: float, s: str, size: float, bold: bool = False, align: str = "left",
             colour: tuple[float, float, float] = (0, 0, 0)) -> None:
        """One line of text with its baseline at y."""
        c = self.canvas
        w = self.width(s, size, bold)
        x0 = {"left": x, "center": x - w / 2, "right": x - w}[align]
        c.setFont(font_of(self.face, bold), size)
        c.setFillColorRGB(*colour)
        c.drawString(x0, y, s)
        self.marks.append(("text", (x0, y - DESCENT * size, x0 + w, y + ASCENT * size), s))

    def fill(self, box: Box, colour: tuple[float, float, float]) -> None:
        """A solid rectangle."""
        c = self.canvas
        c.setFillColorRGB(*colour)
        c.rect(box[0], box[1], box[2] - box[0], box[3] - box[1], stroke=0, fill=1)
        self.marks.append(("fill", box, ""))

    def spine_text(self, box: Box, s: str, size: float, colour: tuple[float, float, float]) -> None:
        """A line read top to bottom, centred between the folds and along the spine."""
        c = self.canvas
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        base = -(ASCENT - DESCENT) / 2 * size  # centres the glyph box across the spine
        w = self.width(s, size, True)
        c.saveState()
        c.translate(cx, cy)
        c.rotate(-90)  # local x runs down the spine, local y towards the front
        c.setFont(font_of(self.face, True), size)
        c.setFillColorRGB(*colour)
        c.drawCentredString(0, base, s)
        c.restoreState()
        self.marks.append(("text", (cx + base - DESCENT * size, cy - w / 2, cx + base + ASCENT * size,
                                    cy + w / 2), s))

    def art(self, puzzle: Puzzle, left: float, top: float, cell: float) -> None:
        """A puzzle drawn by its variant, as on a puzzle page, with a white ground (under its
        outside clues too); (left, top) is the corner of what it draws (``art_box``)."""
        x0, y0, x1, y1 = art_box(puzzle)
        w, h = (x1 - x0) * cell, (y1 - y0) * cell
        thin = max(THIN, cell * ART_LINE)  # lines grow with the cells, so the art reads from afar
        bold = thin * BOLD / THIN
        pad = bold / 2
        box = (left - pad, top - h - pad, left + w + pad, top + pad)
        self.canvas.setFillGray(1)
        self.canvas.rect(left, top - h, w, h, stroke=0, fill=1)
        get_variant(puzzle.variant).draw(CanvasPen(self.canvas, left - x0 * cell, top + y0 * cell, cell, thin, bold),
                                         puzzle, solved=False)
        self.marks.append(("art", box, ""))


def art_box(puzzle: Puzzle, solved: bool = False) -> Box:
    """What the puzzle's drawing covers, in cells from its grid's corner: its grid and its own
    clues. Its extent holds the longest clues a size may have, so art centred on the extent
    of a Nonogram sat off to one side of the cover."""
    return drawn_box(get_variant(puzzle.variant), puzzle, solved)


def _ink(colour: tuple[float, float, float]) -> tuple[float, float, float]:
    """Black or white, whichever reads on ``colour``."""
    r, g, b = colour
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else (1, 1, 1)


def text_width(s: str, size: float, bold: bool = False, face: str = DEFAULT_FACE) -> float:
    """The width of a line of text in the embedded fonts."""
    register_fonts()
    return stringWidth(s, font_of(face, bold), size)


def _wrap(text: str, size: float, width: float, bold: bool = False, face: str = DEFAULT_FACE) -> list[str]:
    """Greedy line breaking; a blank line in ``text`` starts a new paragraph (an empty line out)."""
    lines: list[str] = []
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text.strip())]
    for k, para in enumerate(paragraphs):
        if k:
            lines.append("")
        cur = ""
        for word in para.split():
            trial = f"{cur} {word}".strip()
            if text_width(trial, size, bold, face) <= width or not cur:
                cur = trial
            else:
                lines.append(cur)
                cur = word
        lines.append(cur)
    return lines


def _fitted(sheet: Sheet, text: str, size: float, width: float, most: int, bold: bool = True,
            least: float = MIN_TYPE) -> tuple[list[str], float]:
    """``text`` wrapped to ``width`` at the largest size up to ``size`` giving at most ``most`` lines,
    every line no wider than ``width``."""
    while True:
        lines = _wrap(text, size, width, bold, sheet.face)
        if size <= least or (len(lines) <= most and all(sheet.width(l, size, bold) <= width for l in lines)):
            return _balanced(sheet, text, size, width, bold, len(lines)), size
        size = max(least, size * 0.92)


def _balanced(sheet: Sheet, text: str, size: float, width: float, bold: bool, count: int) -> list[str]:
    """The same number of lines, as even as they go: no lone word on a title's last line."""
    lo, hi = width * 0.3, width
    for _ in range(14):
        mid = (lo + hi) / 2
        if len(_wrap(text, size, mid, bold, sheet.face)) <= count:
            hi = mid
        else:
            lo = mid
    return _wrap(text, size, hi, bold, sheet.face)


def draw_cover(sheet: Sheet, geo: CoverGeometry, content: CoverContent) -> None:
    """Lay out the whole wrap on ``sheet`` in the content's theme."""
    w, h = geo.size
    colour, ink = content.colour, _ink(content.colour)
    kind = THEMES.get(content.theme, THEMES[DEFAULT_THEME])[2]
    band_low = _band_low(geo.trim)
    x0, _, x1, _ = geo.spine_box
    if kind == "band":
        # the band runs across the whole wrap (into the bleed) and down the spine, the spine's
        # colour 1/8 in past each fold; never near the barcode
        sheet.fill((0, band_low, w, h), colour)
        sheet.fill((x0 - FOLD_WRAP, 0, x1 + FOLD_WRAP, h), colour)
        back_ink = (0, 0, 0)
    else:
        _around(sheet, (0, 0, w, h), geo.barcode, colour)  # all in colour, the barcode's box left white
        back_ink = ink
        band_low = BLEED + SAFE  # the whole front is the title's ground
        if kind == "pattern" and content.pattern:
            _pattern(sheet, geo.front, content, colour)
    _front(sheet, geo, content, band_low, ink, back_ink if kind != "band" else (0, 0, 0))
    _back(sheet, geo, content, _band_low(geo.trim), ink, back_ink)
    if geo.spine_text and spine_size(geo, content, sheet) >= MIN_TYPE:
        _spine(sheet, geo, content, ink)


def _around(sheet: Sheet, box: Box, hole: Box, colour: tuple[float, float, float]) -> None:
    """``box`` filled with ``colour`` except ``hole``: four bands around it."""
    x0, y0, x1, y1 = box
    h0, g0, h1, g1 = hole
    for part in ((x0, y0, h0, y1), (h1, y0, x1, y1), (h0, y0, h1, g0), (h0, g1, h1, y1)):
        if part[2] > part[0] and part[3] > part[1]:
            sheet.fill(part, colour)


def _pattern(sheet: Sheet, panel: Box, content: CoverContent, colour: tuple[float, float, float]) -> None:
    """The book's own grids tiled over the front and its bleed, drawn faint in a darker tone
    of the colour: a pattern that is this book's and no other's."""
    c = sheet.canvas
    x0, y0, x1, y1 = panel
    x1 += BLEED
    y0 -= BLEED
    y1 += BLEED
    tile = (x1 - x0) / 3.2
    c.saveState()
    path = c.beginPath()
    path.rect(x0, y0, x1 - x0, y1 - y0)
    c.clipPath(path, stroke=0, fill=0)
    k = 0
    row = 0
    y = y1 + tile * 0.3
    while y > y0:
        x = x0 - (tile * 0.55 if row % 2 else 0.0) + tile * 0.08
        while x < x1:
            puzzle = content.pattern[k % len(content.pattern)]
            k += 1
            bx0, by0, bx1, by1 = art_box(puzzle, solved=True)  # outside clues kept inside the tile
            cell = tile * 0.84 / max(bx1 - bx0, by1 - by0)
            get_variant(puzzle.variant).draw(CanvasPen(c, x - bx0 * cell, y + by0 * cell, cell, THIN, BOLD), puzzle,
                                             solved=True)
            x += tile
        y -= tile
        row += 1
    c.setFillColorRGB(*colour, alpha=0.86)  # the grids show through, faint
    c.rect(x0, y0, x1 - x0, y1 - y0, stroke=0, fill=1)
    c.restoreState()
    sheet.marks.append(("pattern", (panel[0], panel[1], panel[2], panel[3]), ""))


def _front(sheet: Sheet, geo: CoverGeometry, content: CoverContent, band_low: float,
           ink: tuple[float, float, float], low_ink: tuple[float, float, float] = (0, 0, 0)) -> None:
    x0, y0, x1, y1 = inset(geo.front, SAFE)
    width = x1 - x0
    mid = (x0 + x1) / 2
    scale = geo.trim.width / (6 * INCH)
    room = (y1 - SAFE * 0.6) - (band_low + SAFE * 0.5)  # the band's height for the title block
    size = THEMES.get(content.theme, THEMES[DEFAULT_THEME])[1] * scale
    kind = THEMES.get(content.theme, THEMES[DEFAULT_THEME])[2]
    if kind != "band":  # the title takes the upper half of a front all in colour
        room = (y1 - SAFE * 0.6) - (y0 + (y1 - y0) * 0.5)
    while True:
        lines, size = _fitted(sheet, content.title, size, width, 3)
        if len(lines) * size * 1.15 <= room or size <= MIN_TYPE:
            break
        size = max(MIN_TYPE, min(size * 0.92, room / (len(lines) * 1.15)))
    y = y1 - SAFE * 0.6 - size * ASCENT
    for line in lines:
        sheet.text(mid, y, line, size, bold=True, align="center", colour=ink)
        y -= size * 1.15
    if content.subtitle:
        sub, sub_size = _fitted(sheet, content.subtitle, min(15 * scale, size * 0.6), width, 2, bold=False)
        y -= sub_size * 0.4
        for line in sub:
            if y - sub_size * DESCENT < band_low + SAFE * 0.5:
                break  # the band is full: the title keeps its room
            sheet.text(mid, y, line, sub_size, align="center", colour=ink)
            y -= sub_size * 1.3
    author_size = 15 * scale
    art_low = y0 + (author_size * 2.2 if content.author else 0.0)
    if content.author:
        sheet.text(mid, y0 + author_size * DESCENT, content.author, author_size, bold=True, align="center",
                   colour=low_ink)
    if kind != "band":
        band_low = y  # the art goes under the title block
    if content.image:
        _image(sheet, content.image, (x0, art_low + SAFE * 0.3, x1, band_low - SAFE * 0.6))
        return
    if kind == "pattern":
        return  # the pattern is the art
    if content.art is not None:
        room_top, room_low = band_low - SAFE * 0.6, art_low + SAFE * 0.3
        side = min(width * 0.82, room_top - room_low)
        if side < MIN_ART:
            return  # a tiny cover: the title and author are enough
        bx0, by0, bx1, by1 = art_box(content.art)
        cell = side / max(bx1 - bx0, by1 - by0)  # the longer side spans ``side``
        w, h = (bx1 - bx0) * cell, (by1 - by0) * cell
        sheet.art(content.art, mid - w / 2, (room_top + room_low + h) / 2, cell)


def blurb_area(trim: Trim) -> tuple[float, float, float]:
    """(width, top, bottom) of the back cover's blurb: below the band, above the barcode,
    the same for every page count."""
    geo = CoverGeometry(trim, 0, "white")
    x0, _, x1, _ = inset(geo.back, SAFE)
    return x1 - x0, _band_low(trim) - SAFE * 1.2, geo.barcode[3] + SAFE * 0.5


def _band_low(trim: Trim) -> float:
    return BLEED + trim.height * (1 - BAND_SHARE)


def _blurb_height(lines: list[str], size: float) -> float:
    return (ASCENT + DESCENT + (len(lines) - 1) * BLURB_LEAD) * size if lines else 0.0


def blurb_layout(trim: Trim, blurb: str, reserve=lambda size: 0.0,
                 face: str = DEFAULT_FACE) -> tuple[float, list[str]] | None:
    """The blurb's type size and lines: the largest size, down to ``BLURB_FLOOR``, at which it
    and ``reserve(size)`` (the list below it) fit above the barcode; else the largest at which
    the blurb alone fits (the list is cut short); None when not even that fits."""
    width, top, bottom = blurb_area(trim)
    size = max(BLURB_BODY * trim.width / (6 * INCH), BLURB_FLOOR)
    alone = None
    while True:
        lines = _wrap(blurb, size, width, False, face) if blurb.strip() else []
        height = _blurb_height(lines, size)
        if height + reserve(size) <= top - bottom:
            return size, lines
        if alone is None and height <= top - bottom:
            alone = (size, lines)
        if size <= BLURB_FLOOR:
            return alone
        size = max(BLURB_FLOOR, size - 0.5)


def blurb_problem(trim: Trim, blurb: str, face: str = DEFAULT_FACE) -> str | None:
    """Why ``blurb`` can't go on the back cover of a book of this trim, or None."""
    if blurb_layout(trim, blurb, face=face) is not None:
        return None
    width, top, bottom = blurb_area(trim)
    lines = _wrap(blurb, BLURB_FLOOR, width, False, face)
    fit = max(0, int(((top - bottom) / BLURB_FLOOR - ASCENT - DESCENT) / BLURB_LEAD) + 1)
    return TEXT["too_long"].format(lines=len(lines), fit=fit, chars=len(blurb) * fit // max(1, len(lines)))


def _back(sheet: Sheet, geo: CoverGeometry, content: CoverContent, band_low: float,
          ink: tuple[float, float, float], body_ink: tuple[float, float, float] = (0, 0, 0)) -> None:
    x0, y0, x1, y1 = inset(geo.back, SAFE)
    width = x1 - x0
    scale = geo.trim.width / (6 * INCH)
    lines, size = _fitted(sheet, content.title, 17 * scale, width, 2)
    y = y1 - SAFE * 0.6 - size * ASCENT
    for line in lines:
        sheet.text(x0, y, line, size, bold=True, colour=ink)
        y -= size * 1.2
    _, blurb_top, barcode_top = blurb_area(geo.trim)

    def inside(body: float) -> float:  # the height of the list under the blurb at this size
        small = body * SMALL_SHARE
        rows = sum(len(_wrap(item, small, width - small * 1.2, False, sheet.face)) for item in content.inside)
        return body * (BLURB_LEAD + 0.8) + small * (1.6 + rows * 1.4 + len(content.inside) * 0.1)

    laid = blurb_layout(geo.trim, content.blurb, inside, sheet.face)
    if laid is None:
        raise CoverError(blurb_problem(geo.trim, content.blurb, sheet.face))
    body, blurb = laid
    y = blurb_top - body * ASCENT
    for line in blurb:
        if line:
            sheet.text(x0, y, line, body, colour=body_ink)
        y -= body * BLURB_LEAD
    y -= body * 0.8
    small = body * SMALL_SHARE
    if y - small * DESCENT > barcode_top:
        sheet.text(x0, y, translation(content.language)(TEXT["inside"]), body, bold=True, colour=body_ink)
        y -= small * 1.6
    for item in content.inside:
        for k, line in enumerate(_wrap(item, small, width - small * 1.2, False, sheet.face)):
            if y - small * DESCENT < barcode_top:
                return  # never into the barcode's row
            if k == 0:
                sheet.text(x0, y, "\u2022", small, colour=body_ink)
            sheet.text(x0 + small * 1.2, y, line, small, colour=body_ink)
            y -= small * 1.4
        y -= small * 0.1


def spine_size(geo: CoverGeometry, content: CoverContent, sheet: Sheet | None = None) -> float:
    """The size the spine's line gets: as large as the spine's width (less the fold clearance)
    and its length allow. Below ``MIN_TYPE`` the spine stays bare."""
    x0, y0, x1, y1 = geo.spine_box
    room = (x1 - x0) - 2 * FOLD_CLEAR
    size = min(14.0, room / (ASCENT + DESCENT))
    length = (y1 - y0) - 2 * SAFE
    width = (sheet.width if sheet else text_width)(_spine_line(content), size, True)
    return min(size, size * length / max(width, 1e-9))


def _spine_line(content: CoverContent) -> str:
    return TEXT["spine"].format(title=content.title, author=content.author) if content.author else content.title


def _spine(sheet: Sheet, geo: CoverGeometry, content: CoverContent, ink: tuple[float, float, float]) -> None:
    sheet.spine_text(geo.spine_box, _spine_line(content), spine_size(geo, content, sheet), ink)


def _image(sheet: Sheet, path: str, box: Box) -> None:
    """The user's picture, as large as fits ``box`` keeping its proportions, centred."""
    from reportlab.lib.utils import ImageReader

    reader = ImageReader(path)
    iw, ih = reader.getSize()
    x0, y0, x1, y1 = box
    scale = min((x1 - x0) / iw, (y1 - y0) / ih)
    w, h = iw * scale, ih * scale
    left, low = (x0 + x1 - w) / 2, (y0 + y1 - h) / 2
    sheet.canvas.drawImage(reader, left, low, w, h)
    sheet.marks.append(("image", (left, low, left + w, low + h), path))


def image_problem(path: str, trim: Trim) -> str | None:
    """Why a cover image can't print sharp (or at all), or None: it must be a PNG or JPEG
    of at least ``IMAGE_DPI`` at the size it prints (as wide as the front's safe area)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as im:
            kind, (w, h) = im.format, im.size
    except FileNotFoundError:
        return f"cover image {path} does not exist"
    except (UnidentifiedImageError, OSError):
        return f"cover image {path} is not a PNG or JPEG picture"
    if kind not in ("PNG", "JPEG"):
        return f"cover image {path} is a {kind}; use a PNG or JPEG"
    width = (trim.width - 2 * SAFE) / INCH  # the most it prints at: the front's safe width
    height = (trim.height * 0.5) / INCH
    scale = min(width / w, height / h)
    dpi = 1 / scale
    if dpi < IMAGE_DPI - 1e-6:
        need_w, need_h = round(w * IMAGE_DPI / dpi), round(h * IMAGE_DPI / dpi)
        return (f"cover image {path} is {w} \u00d7 {h} pixels, {dpi:.0f} dpi at the {w * scale:.2f} \u00d7 "
                f"{h * scale:.2f} in it prints at; print needs {IMAGE_DPI} dpi: use one of at least "
                f"{need_w} \u00d7 {need_h} pixels")
    return None


def render_cover(path: Path, geo: CoverGeometry, content: CoverContent, canvas_factory=Canvas) -> Sheet:
    """Write the cover PDF to ``path``: one page, fonts embedded, TrimBox and BleedBox set."""
    register_fonts()
    w, h = geo.size
    canvas = canvas_factory(str(path), pagesize=(w, h), invariant=1, initialFontName=FONT, pageCompression=1)
    subject = translation(content.language)(TEXT["subject"])
    canvas.setTitle(f"{content.title}: {subject.lower()}")
    canvas.setAuthor(content.author or "bookgen")
    canvas.setCreator(f"bookgen {__version__}")
    canvas.setSubject(subject)
    sheet = Sheet(canvas, face=content.font)
    draw_cover(sheet, geo, content)
    canvas.setTrimBox(list(geo.trim_box))
    canvas.setBleedBox([0, 0, w, h])
    canvas.showPage()
    canvas.save()
    return sheet
