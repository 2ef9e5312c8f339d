"""The reportlab implementation of the abstract pen.

Grid units (x right, y down, one unit per cell) are mapped onto a page box;
``thin`` and ``bold`` become real line widths chosen by the caller, so the
same variant code draws a full-size puzzle and a small answer key.
"""

from __future__ import annotations

import re
from weakref import WeakKeyDictionary

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from bookgen.core.pen import BOLD, CAP_HEIGHT, CENTER, STAMP_REACH, TOP_LEFT, RecordingPen

# Per document: stamp key (with the pen's scale) -> the name of the form that draws it.
_FORMS: "WeakKeyDictionary[Canvas, dict]" = WeakKeyDictionary()
# Per document: (font, size, string, anchor) -> (width, the text operators after its position).
_SET_TEXT: "WeakKeyDictionary[Canvas, dict]" = WeakKeyDictionary()
_TEXT_LINE = re.compile(r"BT 1 0 0 1 \S+ \S+ Tm (.*)\Z", re.S)
from bookgen.layout.fonts import CAP_HEIGHT, FONT, FONT_BOLD


class CanvasPen:
    """Draws grid-unit shapes on a canvas at (left, top) with ``unit`` points per cell."""

    key = False  # a puzzle, an example or a walkthrough: everything the variant draws

    def __init__(self, canvas: Canvas, left: float, top: float, unit: float,
                 thin: float = 0.75, bold: float = 2.25):
        self.c = canvas
        self.left, self.top, self.unit = left, top, unit
        self.widths = {BOLD: bold}
        self.thin = thin

    def _xy(self, x: float, y: float) -> tuple[float, float]:
        return self.left + x * self.unit, self.top - y * self.unit

    def _stroke(self, weight: str | None) -> None:
        if weight:
            self.c.setLineWidth(self.widths.get(weight, self.thin))
            self.c.setStrokeGray(0)

    def line(self, x1, y1, x2, y2, weight="thin"):
        self._stroke(weight)
        self.c.setLineCap(2 if weight == BOLD else 0)  # square caps: bold corners meet cleanly
        self.c.line(*self._xy(x1, y1), *self._xy(x2, y2))

    def rect(self, x, y, w, h, fill=None, stroke=None):
        px, py = self._xy(x, y + h)
        if fill is not None:
            _set_fill(self.c, fill)
        self._stroke(stroke)
        self.c.setLineJoin(0)
        self.c.rect(px, py, w * self.unit, h * self.unit, stroke=1 if stroke else 0,
                    fill=1 if fill is not None else 0)

    def circle(self, cx, cy, r, fill=None, stroke=None):
        if fill is not None:
            _set_fill(self.c, fill)
        self._stroke(stroke)
        self.c.circle(*self._xy(cx, cy), r * self.unit, stroke=1 if stroke else 0,
                      fill=1 if fill is not None else 0)

    def polygon(self, points, fill=None, stroke=None):
        path = self.c.beginPath()
        left, top, unit = self.left, self.top, self.unit  # _xy inlined: symbols are thousands of points
        (x, y), *rest = points
        path.moveTo(left + x * unit, top - y * unit)
        line_to = path.lineTo
        for x, y in rest:
            line_to(left + x * unit, top - y * unit)
        path.close()
        if fill is not None:
            _set_fill(self.c, fill)
        self._stroke(stroke)
        self.c.setLineJoin(1)
        self.c.drawPath(path, stroke=1 if stroke else 0, fill=1 if fill is not None else 0)

    def text(self, x, y, s, size, bold=False, anchor=CENTER, grey=0.0, clue=False):
        c = self.c
        cap = size * self.unit
        font = FONT_BOLD if bold else FONT
        font_size = cap / CAP_HEIGHT
        c.setFillGray(grey)
        px, py = self._xy(x, y)
        left = anchor == TOP_LEFT
        py -= cap if left else cap / 2
        # An answer key sets the same few digits thousands of times. reportlab's text path
        # (shaping, subset encoding) costs more than the rest of a page; its output for
        # one string at one size differs only in the position, so the rest is kept and
        # reused: the same bytes as drawing it afresh.
        done = _SET_TEXT.setdefault(c, {}) if _plain_text(c) else {}
        key = (font, font_size, s, left)
        if key in done:
            width, tail = done[key]
            c._code.append(f"BT 1 0 0 1 {fp_str(px if left else px - 0.5 * width, py)} Tm {tail}")
            return
        c.setFont(font, font_size)
        before = len(c._code)
        (c.drawString if left else c.drawCentredString)(px, py, s)
        line = _TEXT_LINE.match(c._code[-1]) if len(c._code) == before + 1 else None
        if line:  # anything else (a future reportlab's own format): always draw afresh
            done[key] = (c.stringWidth(s, font, font_size), line.group(1))


    def stamp(self, key, x, y, draw):
        """Draw the symbol once per document as a PDF form, and place it: a Tango book
        has thousands of suns and moons, each dozens of points."""
        c = self.c
        forms = _FORMS.setdefault(c, {})
        bold = self.widths[BOLD]
        form_key = (type(self), key, self.unit, self.thin, bold)
        name = forms.get(form_key)
        if name is None:
            name = f"stamp{len(forms)}"
            reach = STAMP_REACH * self.unit
            c.beginForm(name, -reach, -reach, reach, reach)
            draw(type(self)(c, 0.0, 0.0, self.unit, self.thin, bold))
            c.endForm()
            forms[form_key] = name
        c.saveState()
        c.translate(*self._xy(x, y))
        c.doForm(name)
        c.restoreState()


def _set_fill(c: Canvas, fill) -> None:
    """A grey level (0 black .. 1 white), or an (r, g, b) tint of three 0..1 values."""
    if isinstance(fill, tuple):
        c.setFillColorRGB(*fill)
    else:
        c.setFillGray(fill)


def _plain_text(c: Canvas) -> bool:
    """Whether ``c`` sets text reportlab's own way: a canvas that watches its text (a
    test's recorder) sees every string drawn, none reused behind its back."""
    return (getattr(c.drawString, "__func__", None) is Canvas.drawString
            and getattr(c.drawCentredString, "__func__", None) is Canvas.drawCentredString)


class AnswerPen(CanvasPen):
    """A pen for solved grids at answer-key size: answers and walls, but no clue text (it
    would be too small to read, and the digits already answer it). Variants see ``key``
    and leave out signs and sums too."""

    key = True

    def text(self, x, y, s, size, bold=False, anchor=CENTER, grey=0.0, clue=False):
        if not clue:
            super().text(x, y, s, size, bold, anchor, grey)


def smallest_text(variant, puzzle) -> float:
    """The smallest font size a puzzle's drawing sets, as a fraction of the cell (1.0 when
    it sets no type), measured with a recording pen."""
    pen = RecordingPen()
    variant.draw(pen, puzzle, solved=False)
    sizes = [op[4] for op in pen.ops if op[0] == "text"]
    return min(sizes, default=CAP_HEIGHT) / CAP_HEIGHT


def drawn_box(variant, puzzle, solved: bool = False) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of everything a puzzle's drawing marks, in cells from the
    grid's top-left corner (outside clues give negative left and top), measured with a
    recording pen and the fonts' widths. An extent is the room the largest clues of a size
    may need; this is what this puzzle's own clues take (a cover centres its art on it)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from bookgen.layout.fonts import register_fonts

    register_fonts()
    pen = RecordingPen()
    variant.draw(pen, puzzle, solved=solved)
    xs: list[float] = [0.0, float(puzzle.cols)]
    ys: list[float] = [0.0, float(puzzle.rows)]
    for op in pen.ops:
        kind = op[0]
        if kind == "line":
            xs += [op[1], op[3]]
            ys += [op[2], op[4]]
        elif kind == "rect":
            xs += [op[1], op[1] + op[3]]
            ys += [op[2], op[2] + op[4]]
        elif kind == "circle":
            xs += [op[1] - op[3], op[1] + op[3]]
            ys += [op[2] - op[3], op[2] + op[3]]
        elif kind == "polygon":
            xs += [p[0] for p in op[1]]
            ys += [p[1] for p in op[1]]
        elif kind == "text":
            _, x, y, s, size, bold, anchor, _clue = op
            width = stringWidth(s, FONT_BOLD if bold else FONT, size / CAP_HEIGHT)
            left = x if anchor == TOP_LEFT else x - width / 2
            top = y if anchor == TOP_LEFT else y - size / 2
            xs += [left, left + width]
            ys += [top, top + size]
    return min(xs), min(ys), max(xs), max(ys)
