"""One puzzle on a page of its own, for ``bookgen export --format png``: the book's pen, the
book's fonts, a page just big enough for the grid."""

from __future__ import annotations

from io import BytesIO

from reportlab.pdfgen.canvas import Canvas

from bookgen.layout.fonts import register_fonts
from bookgen.layout.geometry import BOLD, THIN
from bookgen.layout.pen import CanvasPen


def puzzle_pdf(variant, puzzle, solved: bool, unit: float, margin: float) -> bytes:
    """A one-page PDF of one puzzle drawn by the layout's pen, ``unit`` points a cell."""
    register_fonts()
    ext = variant.extent(puzzle.size, puzzle.rules)  # the grid and its outside clues
    width, height = ext.width * unit + 2 * margin, ext.height * unit + 2 * margin
    out = BytesIO()
    canvas = Canvas(out, pagesize=(width, height), invariant=1)
    pen = CanvasPen(canvas, margin + ext.left * unit, height - margin - ext.top * unit, unit, THIN, BOLD)
    variant.draw(pen, puzzle, solved=solved)
    canvas.showPage()
    canvas.save()
    return out.getvalue()
