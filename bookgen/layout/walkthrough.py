"""A worked walkthrough of one puzzle: the puzzle, then every step in words.

Each step that fills cells gets a small snapshot of the grid after it, the
cells it filled outlined in bold, beside its number, technique and reason.
Steps flow down the columns of a page and on to further pages as needed.
The steps are the variant's own ``explain``, so the walkthrough always
matches how the puzzle was graded.

Laying out and drawing are separate: ``lay_out`` places every block before
anything is drawn, so the page plan can count a walkthrough's pages (with a
measuring document) and ``draw_part`` later draws exactly those pages.
Everything stays inside the document's content box (the safe area less the
header and footer bands), whatever the page format or type scale.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bookgen.core.i18n import Text
from bookgen.core.pen import BOLD as BOLD_STROKE
from bookgen.core.types import EMPTY, Puzzle
from bookgen.core.variant import Step
from bookgen.i18n import DEFAULT
from bookgen.layout.fonts import ASCENT
from bookgen.layout.geometry import BOLD, THIN, grid_origin, puzzle_extent
from bookgen.layout.pen import AnswerPen, CanvasPen, smallest_text
from bookgen.variants.registry import get_variant

COLUMN_GAP = 18.0
SNAP_EM = 7.0        # a snapshot grid's side, in the page's small type size
SNAP_MIN_CELL = 4.5  # points: a big grid's snapshot grows rather than shrink below this
TEXT_MIN_EM = 12.0   # two columns only when each keeps this much text width (in small type)


@dataclass(frozen=True)
class Block:
    """One step (or the closing note, ``step == -1``) placed on a page."""

    step: int
    column: int
    top: float  # distance below the top of the page's step area
    lines: tuple[str, ...]
    bold: int  # how many of the lines, from the first, are the bold head


@dataclass(frozen=True)
class Walkthrough:
    """A walkthrough laid out for one content width and height, ready to draw page by page."""

    puzzle: Puzzle
    steps: tuple[Step, ...]
    states: tuple[tuple[str, ...], ...]  # the grid after each step
    intro: tuple[str, ...]
    cell: float       # the puzzle at the top of the first page
    snap_cell: float  # each step's snapshot
    columns: int
    column_w: float
    text_dx: float  # a step's text starts this far right of its column, clear of the snapshot
    first_top: float  # the first page's step area starts this far below the content top
    pages: tuple[tuple[Block, ...], ...]


def snapshot(puzzle: Puzzle, rows: tuple[str, ...]) -> Puzzle:
    """The puzzle with a partly filled grid as its 'solution', for drawing one state."""
    return replace(puzzle, solution=rows)


def sentence(reason: str) -> str:
    """A step's reason as a printed sentence: capitalised, with a full stop."""
    text = reason[:1].upper() + reason[1:]
    return text if text.endswith(".") else text + "."


def step_text(doc, variant, step) -> str:
    """What a step says under its technique's name: the engine's reason, which names the
    cells it fills and why. A reason built as a ``Text`` (its cells, houses and digits values
    of its template) prints in the book's language; in another language a reason still in
    plain English (not yet in the catalogs) gives way to each cell the step fills and its
    symbol."""
    if doc.cover.language == DEFAULT:
        return sentence(step.reason)
    if isinstance(step.reason, Text):
        return sentence(doc.t(step.reason))
    cells = [doc.t("row {row}, column {column}: {symbol}").format(
        row=r + 1, column=c + 1, symbol=variant.symbol_text(symbol)) for (r, c), symbol in step.cells]
    return sentence("; ".join(cells)) if cells else ""


def _intro(section: str, t=str) -> str:
    return t("The first puzzle of \u201c{section}\u201d, solved step by step with the techniques of "
             "the previous pages, easiest first. Each small grid shows the position after its step; "
             "the cells that step filled are outlined.").format(section=section)


def walkthrough_title(number: int, t=str) -> str:
    """The walkthrough's heading, also its line in the contents (``t`` translates)."""
    return t("Puzzle {number}, step by step").format(number=number)


def lay_out(doc, puzzle: Puzzle, number: int, section: str) -> Walkthrough:
    """Place the heading, the puzzle and every step block on pages of ``doc``'s content box.

    ``doc`` is a render ``Document``; only its type scale, text measure and
    content box are used, so a measuring document gives the same layout.
    """
    variant = get_variant(puzzle.variant)
    st = doc.style
    x0, y0, x1, y1 = doc.content()
    width, height = x1 - x0, y1 - y0
    small, body = st.small, st.body
    lead = small * 1.3
    ext = puzzle_extent(puzzle)
    across, down = ext.width, ext.height

    steps, reached, solved = variant.explain(puzzle)
    titles = {t.name: doc.t(t.title) for t in variant.techniques}
    state = [list(row) for row in puzzle.givens]
    states = []
    for step in steps:
        for (r, c), symbol in step.cells:
            state[r][c] = symbol
        states.append(tuple("".join(row) for row in state))

    # the first page: heading, intro, the puzzle; the steps below it
    y = doc.heading(walkthrough_title(number, doc.t), y1, draw=False) + st.heading * 0.9
    intro = tuple(doc.wrap(_intro(section, doc.t), body, width))
    y -= len(intro) * body * 1.38 + body * 0.8
    cell = min(st.min_cell * 0.9, width * 0.5 / across, height * 0.3 / down)  # leave room for steps
    cell = max(cell, st.min_type / smallest_text(variant, puzzle))  # but keep its type legible
    y -= small * ASCENT + small * 0.9 + down * cell + BOLD + body * 1.2
    first_top = y1 - y

    snap_cell = max(small * SNAP_EM / across, SNAP_MIN_CELL, st.key_cell[0])  # digits as in the key
    snap = across * snap_cell
    pad = small * 0.9
    columns = 2 if (width - COLUMN_GAP) / 2 - snap - pad >= small * TEXT_MIN_EM else 1
    column_w = (width - COLUMN_GAP * (columns - 1)) / columns
    text_w = column_w - snap - pad

    blocks: list[tuple[int, tuple[str, ...], int, float]] = []  # step, lines, bold lines, height
    for i, step in enumerate(steps):
        head = doc.wrap(f"{i + 1}. {titles.get(step.technique, step.technique)}", small, text_w, bold=True)
        lines = (*head, *doc.wrap(step_text(doc, variant, step), small, text_w))
        blocks.append((i, lines, len(head), max(down * snap_cell + BOLD if step.cells else 0.0,
                                                lead * len(lines))))
    if not solved:
        empty = sum(ch == EMPTY for row in reached for ch in row)
        note = doc.nt("Here the techniques run out with {count} cell left.",
                      "Here the techniques run out with {count} cells left.", empty).format(count=empty)
        lines = tuple(doc.wrap(note, small, column_w, bold=True))
        blocks.append((-1, lines, len(lines), lead * len(lines)))

    pages: list[list[Block]] = [[]]
    column, top, room = 0, 0.0, height - first_top
    gap = small
    for i, lines, bold, h in blocks:
        # on to the next column or page; a block too tall for a whole column still gets one to itself
        while top + h > room and (top > 0 or room < height):
            column, top = column + 1, 0.0
            if column == columns:
                pages.append([])
                column, room = 0, height
        pages[-1].append(Block(i, column, top, lines, bold))
        top += h + gap
    return Walkthrough(puzzle, tuple(steps), tuple(states), intro, cell, snap_cell, columns, column_w,
                       snap + pad, first_top, tuple(tuple(p) for p in pages))


def draw_part(doc, walk: Walkthrough, part: int, number: int, page: int | None) -> None:
    """Draw page ``part`` of a laid-out walkthrough on ``doc``'s current page (no finishing)."""
    variant = get_variant(walk.puzzle.variant)
    st = doc.style
    x0, _, x1, y1 = doc.content()
    small, body = st.small, st.body
    lead = small * 1.3
    ext = puzzle_extent(walk.puzzle)
    area_top = y1
    if part == 0:
        y = doc.heading(walkthrough_title(number, doc.t), y1) + st.heading * 0.9
        for line in walk.intro:
            y -= body * 1.38
            doc.text(x0, y, line, body)
        y -= body * 0.8
        grid = ext.width * walk.cell
        left = x0 + (x1 - x0 - grid) / 2
        caption = (doc.t("Puzzle {number}, page {page}") if page else doc.t("Puzzle {number}")).format(
            number=number, page=page)
        doc.text(left, y - small * ASCENT, caption, small, grey=0.2)
        y -= small * ASCENT + small * 0.9
        variant.draw(CanvasPen(doc.canvas, *grid_origin(ext, left, y, walk.cell), walk.cell, THIN, BOLD),
                     walk.puzzle, solved=False)
        area_top = y1 - walk.first_top
    for block in walk.pages[part]:
        x = x0 + block.column * (walk.column_w + COLUMN_GAP)
        y = area_top - block.top
        step = walk.steps[block.step] if block.step >= 0 else None
        tx = x
        if step and step.cells:
            # a snapshot is a thumbnail of the position: answers and walls, no clues
            pen = AnswerPen(doc.canvas, *grid_origin(ext, x + BOLD / 2, y - BOLD / 2, walk.snap_cell), walk.snap_cell,
                            THIN, BOLD)
            variant.draw(pen, snapshot(walk.puzzle, walk.states[block.step]), solved=True)
            for (r, c), _ in step.cells:
                pen.rect(c, r, 1, 1, stroke=BOLD_STROKE)
        if step:
            tx = x + walk.text_dx
        for k, line in enumerate(block.lines):
            doc.text(tx, y - small * ASCENT - k * lead, line, small, bold=k < block.bold)

