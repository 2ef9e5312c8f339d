"""Lay a book out as a PDF: title page, rules pages, puzzle pages, answer key.

Everything is drawn with the embedded DejaVu fonts; the canvas runs in
reportlab's ``invariant`` mode so the same book gives the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import inch, mm
from reportlab.pdfgen.canvas import Canvas

from bookgen import __version__
from bookgen.core.difficulty import LEVELS, Level
from bookgen.core.types import Puzzle
from bookgen.layout.fonts import FONT, FONT_BOLD, register_fonts
from bookgen.layout.pen import CanvasPen
from bookgen.layout.walkthrough import walkthrough_pages
from bookgen.variants.registry import get_variant

PAGE_SIZES = {"letter": LETTER, "a4": A4}
MIN_CELL = 10 * mm  # roomy enough to write a symbol by hand
FLOOR_CELL = 9 * mm  # never smaller than this for puzzles up to 10x10
MAX_CELL = 16 * mm
LABEL_H = 26  # points above each grid for its number and difficulty
PER_PAGE = ((6, 2, 3), (4, 2, 2), (2, 1, 2), (1, 1, 1))  # (count, columns, rows)
KEY_COLUMNS, KEY_ROWS = 3, 4
THIN, BOLD = 0.75, 2.25


@dataclass(frozen=True)
class Entry:
    """A puzzle placed in the book: its number and its section's title."""

    number: int
    section: str
    puzzle: Puzzle


@dataclass(frozen=True)
class Frame:
    """The printable area of a page, in points."""

    width: float
    height: float
    left: float
    right: float
    top: float
    bottom: float

    @property
    def inner_w(self) -> float:
        return self.width - self.left - self.right

    @property
    def inner_h(self) -> float:
        return self.height - self.top - self.bottom


def frame_for(page: str) -> Frame:
    """Page size and margins for a page format name."""
    w, h = PAGE_SIZES[page]
    return Frame(w, h, 0.6 * inch, 0.6 * inch, 0.75 * inch, 0.75 * inch)


def slots_for(size: int, frame: Frame) -> tuple[int, int, int, float]:
    """(per page, columns, rows, cell size): the most puzzles that keep cells roomy."""
    best = None
    for count, cols, rows in PER_PAGE:
        slot_w = frame.inner_w / cols
        slot_h = frame.inner_h / rows
        cell = min((slot_w - 18) / size, (slot_h - LABEL_H - 18) / size, MAX_CELL)
        if cell >= MIN_CELL or (count == 1):
            best = (count, cols, rows, cell)
            if cell >= MIN_CELL:
                break
    return best


class Document:
    """A canvas with page bookkeeping: numbers, running header, footer."""

    def __init__(self, path: Path, title: str, page: str):
        register_fonts()
        self.frame = frame_for(page)
        self.canvas = Canvas(str(path), pagesize=(self.frame.width, self.frame.height),
                             invariant=1, initialFontName=FONT, pageCompression=1)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("bookgen")
        self.canvas.setCreator(f"bookgen {__version__}")
        self.canvas.setSubject("Puzzle book")
        self.page = 1
        self.header = ""

    def new_page(self) -> None:
        """Finish the current page (footer and header) and start the next."""
        c, f = self.canvas, self.frame
        if self.page > 1:
            c.setFont(FONT, 9)
            c.setFillGray(0.25)
            c.drawCentredString(f.width / 2, f.bottom / 2, str(self.page))
            if self.header:
                c.drawCentredString(f.width / 2, f.height - f.top / 2, self.header)
                c.setStrokeGray(0.6)
                c.setLineWidth(0.5)
                c.line(f.left, f.height - f.top + 10, f.width - f.right, f.height - f.top + 10)
        c.showPage()
        self.page += 1

    def save(self) -> None:
        self.canvas.save()


def _text(c: Canvas, x: float, y: float, s: str, size: float, bold: bool = False,
          grey: float = 0.0, align: str = "left") -> None:
    c.setFont(FONT_BOLD if bold else FONT, size)
    c.setFillGray(grey)
    {"left": c.drawString, "center": c.drawCentredString, "right": c.drawRightString}[align](x, y, s)


def _wrap(text: str, font: str, size: float, width: float, c: Canvas) -> list[str]:
    words, lines, cur = text.split(), [], ""
    for word in words:
        trial = f"{cur} {word}".strip()
        if c.stringWidth(trial, font, size) <= width or not cur:
            cur = trial
        else:
            lines.append(cur)
            cur = word
    if cur:
        lines.append(cur)
    return lines


def _marker(c: Canvas, x: float, y: float, level: Level, box: float = 6.0) -> None:
    """A 1-4 row of small squares, filled up to the level: readable in black and white."""
    for i in range(len(LEVELS)):
        c.setLineWidth(0.6)
        c.setStrokeGray(0)
        c.setFillGray(0 if i <= level else 1)
        c.rect(x + i * (box + 2), y, box, box, stroke=1, fill=1)


def title_page(doc: Document, title: str, subtitle: str | None, author: str | None,
               entries: Sequence[Entry], seed: int) -> None:
    """Title, subtitle, author, what is inside, and the seed that regenerates the book."""
    c, f = doc.canvas, doc.frame
    y = f.height * 0.62
    for line in _wrap(title, FONT_BOLD, 30, f.inner_w, c):
        _text(c, f.width / 2, y, line, 30, bold=True, align="center")
        y -= 38
    if subtitle:
        _text(c, f.width / 2, y - 4, subtitle, 16, align="center", grey=0.2)
        y -= 30
    if author:
        _text(c, f.width / 2, y - 10, author, 13, align="center", grey=0.2)
        y -= 30
    kinds: dict[str, int] = {}
    for e in entries:
        kinds[e.section] = kinds.get(e.section, 0) + 1
    summary = " · ".join(f"{n} {name}" for name, n in kinds.items())
    _text(c, f.width / 2, y - 30, f"{len(entries)} puzzles with solutions", 12, align="center")
    _text(c, f.width / 2, y - 48, summary, 10, align="center", grey=0.3)
    _text(c, f.width / 2, f.bottom, f"Generated by bookgen {__version__} · seed {seed}", 8,
          align="center", grey=0.4)
    doc.new_page()


def rules_page(doc: Document, variant_name: str, rules: dict, example: Puzzle | None) -> None:
    """How to play one variant: the exact rules and the techniques by level."""
    variant = get_variant(variant_name)
    c, f = doc.canvas, doc.frame
    doc.header = f"How to play {variant.title}"
    y = f.height - f.top - 20
    _text(c, f.left, y, f"How to play {variant.title}", 22, bold=True)
    y -= 34
    rule_lines = variant.rules_for(rules) if hasattr(variant, "rules_for") else variant.rules_text
    for rule in rule_lines:
        for k, line in enumerate(_wrap(rule, FONT, 11.5, f.inner_w - 16, c)):
            if k == 0:
                _text(c, f.left, y, "•", 11.5)
            _text(c, f.left + 14, y, line, 11.5)
            y -= 16
        y -= 4
    if example is not None:
        y -= 8
        cell = min(22.0, 150.0 / example.size)
        left = f.left + 14
        variant.draw(CanvasPen(c, left, y, cell, THIN, BOLD), example, solved=False)
        variant.draw(CanvasPen(c, left + example.size * cell + 40, y, cell, THIN, BOLD), example, solved=True)
        _text(c, left, y - example.size * cell - 14, "A small puzzle", 9, grey=0.3)
        _text(c, left + example.size * cell + 40, y - example.size * cell - 14, "and its solution", 9, grey=0.3)
        y -= example.size * cell + 40
    y -= 10
    _text(c, f.left, y, "Techniques you'll need", 15, bold=True)
    y -= 24
    for level in LEVELS:
        techs = [t for t in variant.techniques if t.level == level]
        if not techs:
            continue
        _text(c, f.left, y, level.label, 11.5, bold=True)
        _marker(c, f.left + 70, y, level)
        y -= 17
        for t in techs:
            lines = _wrap(f"{t.title}: {t.description}", FONT, 10.5, f.inner_w - 16, c)
            for line in lines:
                _text(c, f.left + 14, y, line, 10.5)
                y -= 14
            y -= 3
        y -= 6
    doc.new_page()


def puzzle_pages(doc: Document, entries: Sequence[Entry]) -> dict[int, int]:
    """Puzzles, several per page by size; returns puzzle number -> page."""
    pages: dict[int, int] = {}
    c, f = doc.canvas, doc.frame
    i = 0
    while i < len(entries):
        first = entries[i]
        count, cols, rows, cell = slots_for(first.puzzle.size, f)
        batch = [first]
        while len(batch) < count and i + len(batch) < len(entries):
            nxt = entries[i + len(batch)]
            if nxt.section != first.section or nxt.puzzle.size != first.puzzle.size:
                break
            batch.append(nxt)
        doc.header = first.section
        slot_w, slot_h = f.inner_w / cols, f.inner_h / rows
        for k, entry in enumerate(batch):
            col, row = k % cols, k // cols
            p = entry.puzzle
            grid = p.size * cell
            x0 = f.left + col * slot_w + (slot_w - grid) / 2
            top = f.height - f.top - row * slot_h
            block = LABEL_H + grid
            y_label = top - (slot_h - block) / 2
            _text(c, x0, y_label - 14, f"Puzzle {entry.number}", 13, bold=True)
            level = p.grade.level if p.grade else Level.EASY
            _marker(c, x0 + grid - 4 * 8 + 2, y_label - 14, level)
            _text(c, x0 + grid - 4 * 8 - 4, y_label - 13, level.label, 9.5, grey=0.25, align="right")
            variant = get_variant(p.variant)
            variant.draw(CanvasPen(c, x0, y_label - LABEL_H, cell, THIN, BOLD), p, solved=False)
            pages[entry.number] = doc.page
        doc.new_page()
        i += len(batch)
    return pages


def answer_key(doc: Document, entries: Sequence[Entry], pages: dict[int, int]) -> None:
    """Solved grids, several per page, each labelled with its number and page."""
    c, f = doc.canvas, doc.frame
    doc.header = "Answers"
    per = KEY_COLUMNS * KEY_ROWS
    slot_w = f.inner_w / KEY_COLUMNS
    heading = 34
    slot_h = (f.inner_h - heading) / KEY_ROWS
    for start in range(0, len(entries), per):
        batch = entries[start:start + per]
        _text(c, f.left, f.height - f.top - 18, "Answers", 18, bold=True)
        for k, entry in enumerate(batch):
            p = entry.puzzle
            col, row = k % KEY_COLUMNS, k // KEY_COLUMNS
            cell = min((slot_w - 24) / p.size, (slot_h - 30) / p.size, 7 * mm)
            grid = p.size * cell
            x0 = f.left + col * slot_w + (slot_w - grid) / 2
            top = f.height - f.top - heading - row * slot_h - 6
            _text(c, x0, top - 11, f"{entry.number}", 10, bold=True)
            _text(c, x0 + grid, top - 11, f"page {pages[entry.number]}", 8, grey=0.35, align="right")
            get_variant(p.variant).draw(CanvasPen(c, x0, top - 16, cell, 0.5, 1.5), p, solved=True)
        doc.new_page()


def render_book(path: Path, title: str, subtitle: str | None, author: str | None, seed: int,
                page: str, entries: Sequence[Entry], rule_sets: Sequence[tuple[str, dict]],
                walkthroughs: Sequence[Entry] = ()) -> dict[int, int]:
    """Write the whole PDF to ``path``; returns puzzle number -> page.

    ``walkthroughs`` (puzzles of ``explain: true`` sections) follow their variant's rules page.
    """
    doc = Document(path, title, page)
    title_page(doc, title, subtitle, author, entries, seed)
    for variant_name, rules in rule_sets:
        rules_page(doc, variant_name, rules, None)
        for entry in walkthroughs:
            if entry.puzzle.variant == variant_name:
                walkthrough_pages(doc, entry.number, entry.section, entry.puzzle)
    pages = puzzle_pages(doc, entries)
    answer_key(doc, entries, pages)
    doc.save()
    return pages
