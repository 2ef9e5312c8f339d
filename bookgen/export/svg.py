"""An SVG implementation of the abstract pen: a puzzle as a standalone picture.

Pure string building, no reportlab: the same ``variant.draw`` code that lays
out a PDF page draws here, so a picture for a slide or a shop listing shows
exactly what the book prints. Sizes are in points at ``unit`` points a cell,
with the book's own rule widths (a test checks they equal the layout's).
"""

from __future__ import annotations

from typing import Hashable

from bookgen.core.pen import BOLD, CAP_HEIGHT, TOP_LEFT

THIN_PT = 0.75  # = bookgen.layout.geometry.THIN: every printed rule is at least this wide
BOLD_PT = 3 * THIN_PT  # = bookgen.layout.geometry.BOLD
FONT = "'DejaVu Sans', 'Verdana', sans-serif"  # the book's face (embedded in the PDF, named here)


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities, as xml.sax.saxutils.escape does.

    Written here because importing xml.sax.saxutils pulls in urllib.request,
    http.client and ssl: tens of milliseconds on every ``bookgen`` command.
    """
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """An attribute value escaped and quoted, as xml.sax.saxutils.quoteattr does (a test compares)."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def _n(v: float) -> str:
    """A coordinate: short, and the same text for the same number."""
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _grey(level) -> str:
    """A grey level (0 black .. 1 white), or an (r, g, b) tint, as an SVG colour."""
    parts = level if isinstance(level, tuple) else (level,) * 3
    return "#" + "".join(f"{max(0, min(255, round(v * 255))):02x}" for v in parts)


class SvgPen:
    """Collects SVG elements for shapes drawn in grid units at (left, top), ``unit`` points a cell."""

    key = False  # a picture shows the whole puzzle (with --answers, its clues too), never a bare key

    def __init__(self, unit: float = 36.0, left: float = 0.0, top: float = 0.0,
                 thin: float = THIN_PT, bold: float = BOLD_PT, _defs: dict | None = None):
        self.unit, self.left, self.top = unit, left, top
        self.thin, self.bold = thin, bold
        self.parts: list[str] = []
        self.defs: dict[Hashable, tuple[str, str]] = {} if _defs is None else _defs  # key -> (id, body)

    def _xy(self, x: float, y: float) -> tuple[str, str]:
        return _n(self.left + x * self.unit), _n(self.top + y * self.unit)

    def _paint(self, fill: float | None, stroke: str | None) -> str:
        out = f' fill="{_grey(fill)}"' if fill is not None else ' fill="none"'
        if stroke:
            out += f' stroke="#000" stroke-width="{_n(self.bold if stroke == BOLD else self.thin)}"'
        return out

    def line(self, x1, y1, x2, y2, weight="thin"):
        (a, b), (c, d) = self._xy(x1, y1), self._xy(x2, y2)
        cap = "square" if weight == BOLD else "butt"  # as the PDF: bold corners meet cleanly
        width = self.bold if weight == BOLD else self.thin
        self.parts.append(f'<line x1="{a}" y1="{b}" x2="{c}" y2="{d}" stroke="#000" '
                          f'stroke-width="{_n(width)}" stroke-linecap="{cap}"/>')

    def rect(self, x, y, w, h, fill=None, stroke=None):
        px, py = self._xy(x, y)
        self.parts.append(f'<rect x="{px}" y="{py}" width="{_n(w * self.unit)}" height="{_n(h * self.unit)}"'
                          f'{self._paint(fill, stroke)}/>')

    def circle(self, cx, cy, r, fill=None, stroke=None):
        px, py = self._xy(cx, cy)
        self.parts.append(f'<circle cx="{px}" cy="{py}" r="{_n(r * self.unit)}"{self._paint(fill, stroke)}/>')

    def polygon(self, points, fill=None, stroke=None):
        text = " ".join(",".join(self._xy(x, y)) for x, y in points)
        self.parts.append(f'<polygon points="{text}"{self._paint(fill, stroke)} stroke-linejoin="round"/>')

    def text(self, x, y, s, size, bold=False, anchor="center", grey=0.0, clue=False):
        cap = size * self.unit
        px, py = self.left + x * self.unit, self.top + y * self.unit
        base = py + (cap if anchor == TOP_LEFT else cap / 2)  # (x, y) is the cap box's corner or centre
        where = "start" if anchor == TOP_LEFT else "middle"
        weight = ' font-weight="bold"' if bold else ""
        kind = "clue" if clue else "symbol"
        self.parts.append(f'<text x="{_n(px)}" y="{_n(base)}" font-size="{_n(cap / CAP_HEIGHT)}"{weight} '
                          f'text-anchor="{where}" fill="{_grey(grey)}" class="{kind}">{escape(s)}</text>')

    def stamp(self, key, x, y, draw):
        """Drawn once into ``<defs>`` and placed with ``<use>``, as the PDF keeps a form."""
        if key not in self.defs:
            inner = SvgPen(self.unit, 0.0, 0.0, self.thin, self.bold, self.defs)
            draw(inner)
            self.defs[key] = (f"s{len(self.defs)}", "".join(inner.parts))
        ident = self.defs[key][0]
        px, py = self._xy(x, y)
        label = " ".join(map(str, key)) if isinstance(key, tuple) else str(key)
        self.parts.append(f'<use href="#{ident}" x="{px}" y="{py}" data-stamp={quoteattr(label)}/>')

    def document(self, width: float, height: float, title: str = "") -> str:
        """The whole SVG file, ``width`` x ``height`` points."""
        defs = "".join(f'<g id="{ident}">{body}</g>' for ident, body in self.defs.values())
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}pt" height="{_n(height)}pt" '
                f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="{FONT}">')
        name = f"<title>{escape(title)}</title>" if title else ""
        background = f'<rect width="{_n(width)}" height="{_n(height)}" fill="#fff"/>'
        return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + head + name
                + (f"<defs>{defs}</defs>" if defs else "") + background + "".join(self.parts) + "</svg>\n")
