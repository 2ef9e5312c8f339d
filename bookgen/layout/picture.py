"""One puzzle alone on a one-page PDF, drawn by the book's own pen: what ``bookgen
export --format png`` rasterises, so a picture is the printed puzzle itself."""

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
