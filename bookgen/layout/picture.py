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
    side = puzzle.size * unit + 2 * margin
    out = BytesIO()
    canvas = Canvas(out, pagesize=(side, side), invariant=1)
    variant.draw(CanvasPen(canvas, margin, side - margin, unit, THIN, BOLD), puzzle, solved=solved)
    canvas.showPage()
    canvas.save()
    return out.getvalue()
