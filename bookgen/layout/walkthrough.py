"""A worked walkthrough of one puzzle: the puzzle, then every step in words.

Each step that fills cells gets a small snapshot of the grid after it, the
cells it filled outlined in bold, beside its number, technique and reason.
Steps flow down two columns per page and on to further pages as needed.
The steps are the variant's own ``explain``, so the walkthrough always
matches how the puzzle was graded.
"""

from __future__ import annotations

from dataclasses import replace

from reportlab.lib.utils import simpleSplit

from bookgen.core.pen import BOLD
from bookgen.core.types import EMPTY, Puzzle
from bookgen.layout.fonts import FONT, FONT_BOLD
from bookgen.layout.pen import CanvasPen
from bookgen.variants.registry import get_variant

TEXT_SIZE = 8.5
LEADING = 10.5
COLUMNS = 2
COLUMN_GAP = 18
BLOCK_GAP = 8
PUZZLE_CELL = 18.0  # the puzzle shown at the top, points per cell
SNAP_GRID = 50.0    # a snapshot grid's side, points (cells shrink on bigger grids)


def snapshot(puzzle: Puzzle, rows: tuple[str, ...]) -> Puzzle:
    """The puzzle with a partly filled grid as its 'solution', for drawing one state."""
    return replace(puzzle, solution=rows)


def walkthrough_pages(doc, number: int, section: str, puzzle: Puzzle) -> None:
    """Draw the walkthrough of ``puzzle`` (Puzzle ``number`` of ``section``) on new pages."""
    variant = get_variant(puzzle.variant)
    c, f = doc.canvas, doc.frame
    steps, reached, solved = variant.explain(puzzle)
    titles = {t.name: t.title for t in variant.techniques}
    doc.header = f"Worked example: {variant.title}"
    top = f.height - f.top - 20
    c.setFillGray(0)
    c.setFont(FONT_BOLD, 18)
    c.drawString(f.left, top, f"Worked example: Puzzle {number}")
    intro = (f"The first puzzle of \u201c{section}\u201d, solved step by step with the techniques "
             "of the previous page, easiest first. Each small grid shows the position after its "
             "step; the cells the step filled are outlined.")
    y = top - 22
    c.setFont(FONT, 10)
    for line in simpleSplit(intro, FONT, 10, f.inner_w):
        c.drawString(f.left, y, line)
        y -= 13
    y -= 8
    cell = min(PUZZLE_CELL, 170.0 / puzzle.size)
    variant.draw(CanvasPen(c, f.left, y, cell, 0.6, 1.8), puzzle, solved=False)
    y -= puzzle.size * cell + 22

    col_w = (f.inner_w - COLUMN_GAP * (COLUMNS - 1)) / COLUMNS
    snap_cell = SNAP_GRID / puzzle.size
    snap = puzzle.size * snap_cell
    text_w = col_w - snap - 8
    column, y_top = 0, y
    state = [list(row) for row in puzzle.givens]
    for i, step in enumerate(steps, start=1):
        for (r, col), symbol in step.cells:
            state[r][col] = symbol
        head = f"{i}. {titles.get(step.technique, step.technique)}"
        body = simpleSplit(step.reason[:1].upper() + step.reason[1:], FONT, TEXT_SIZE, text_w)
        height = max(snap if step.cells else 0, LEADING * (1 + len(body))) + BLOCK_GAP
        if y - height < f.bottom:
            column += 1
            y = y_top
            if column == COLUMNS:
                doc.new_page()
                column, y_top = 0, f.height - f.top - 10
                y = y_top
        x = f.left + column * (col_w + COLUMN_GAP)
        if step.cells:
            rows = tuple("".join(row) for row in state)
            pen = CanvasPen(c, x, y, snap_cell, 0.3, 1.4)
            variant.draw(pen, snapshot(puzzle, rows), solved=True)
            for (r, col), _ in step.cells:
                pen.rect(col, r, 1, 1, stroke=BOLD)
        tx = x + snap + 8
        c.setFillGray(0)
        c.setFont(FONT_BOLD, TEXT_SIZE + 0.5)
        c.drawString(tx, y - TEXT_SIZE, head)
        c.setFont(FONT, TEXT_SIZE)
        ty = y - TEXT_SIZE - LEADING
        for line in body:
            c.drawString(tx, ty, line)
            ty -= LEADING
        y -= height
    if not solved:
        empty = sum(ch == EMPTY for row in reached for ch in row)
        c.setFont(FONT_BOLD, TEXT_SIZE + 0.5)
        c.drawString(f.left + column * (col_w + COLUMN_GAP), max(y - TEXT_SIZE, f.bottom),
                     f"Here the techniques run out with {empty} cells left.")
    doc.new_page()
