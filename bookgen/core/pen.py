"""The abstract pen that variants draw with.

Variants draw a puzzle in *grid units*: x to the right, y downwards, one unit
per cell, the grid's top-left corner at (0, 0). The layout maps grid units to
the page (and decides what "thin" and "bold" mean in points), so the same code
draws a full-size puzzle, a small answer key and a worked example.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Hashable, Protocol, Sequence

Point = tuple[float, float]

THIN = "thin"
BOLD = "bold"
STAMP_REACH = 1.0  # grid units: a stamp draws no farther than this from its point (a PDF form is clipped there)

# DejaVu Sans metrics, in em, so variants can fit text to a cell without the font
# machinery: cap height (text sizes are cap heights) and the bold advance widths
# of the characters clues are made of (a test checks them against the font file).
CAP_HEIGHT = 0.729
BOLD_ADVANCE = {**dict.fromkeys("0123456789", 0.6958), **dict.fromkeys("+\u2212\u00d7\u00f7=", 0.8379)}
WIDE_ADVANCE = 0.84  # anything else: no narrower than the widest glyph above


def bold_width(s: str) -> float:
    """Width of ``s`` set in DejaVu Sans Bold, in em."""
    return sum(BOLD_ADVANCE.get(ch, WIDE_ADVANCE) for ch in s)


# Blank space (left, right side bearing, in em, rounded down) inside those bold glyphs'
# advances: a clue's ink starts and ends that far inside its advance width.
BOLD_BEARINGS = {
    "0": (0.0478, 0.0478), "1": (0.1127, 0.0688), "2": (0.0791, 0.0869), "3": (0.0668, 0.0795),
    "4": (0.0449, 0.0458), "5": (0.0771, 0.0698), "6": (0.0620, 0.0537), "7": (0.0668, 0.0795),
    "8": (0.0610, 0.0620), "9": (0.0517, 0.0639),
    **dict.fromkeys("+\u2212\u00f7=", (0.1059, 0.1059)), "\u00d7": (0.1250, 0.1250),
}


def bold_lead(s: str) -> float:
    """The blank before the ink of ``s`` (its first glyph's left side bearing), in em."""
    return BOLD_BEARINGS.get(s[:1], (0.0, 0.0))[0]


def bold_ink(s: str) -> float:
    """Width of the ink of ``s`` set in DejaVu Sans Bold, in em: its advance less the
    blank before the first glyph and after the last, which need no room in a cell."""
    if not s:
        return 0.0
    return bold_width(s) - bold_lead(s) - BOLD_BEARINGS.get(s[-1], (0.0, 0.0))[1]


# Text anchors: where (x, y) sits on the text's box.
CENTER = "center"
TOP_LEFT = "top-left"


class Pen(Protocol):
    """What a variant may ask of the page.

    ``key`` is True on an answer key's pen: the variant then draws only what a solver
    needs to check an answer (the digits or symbols and the walls they lie in), and
    leaves out what states the puzzle (signs, sums, clue text)."""

    key: bool

    def line(self, x1: float, y1: float, x2: float, y2: float, weight: str = THIN) -> None:
        """A straight stroke; ``weight`` is ``THIN`` or ``BOLD``."""

    def rect(
        self, x: float, y: float, w: float, h: float,
        fill: float | None = None, stroke: str | None = None,
    ) -> None:
        """A rectangle; ``fill`` is a grey level (0 black .. 1 white), an (r, g, b) tint
        of three 0..1 values (a colour that must still read in greyscale), or None."""

    def circle(
        self, cx: float, cy: float, r: float,
        fill: float | None = None, stroke: str | None = None,
    ) -> None:
        """A circle."""

    def polygon(
        self, points: Sequence[Point], fill: float | None = None, stroke: str | None = None,
    ) -> None:
        """A closed polygon."""

    def text(
        self, x: float, y: float, s: str, size: float,
        bold: bool = False, anchor: str = CENTER, grey: float = 0.0, clue: bool = False,
    ) -> None:
        """Text ``size`` grid units tall (cap height); ``anchor`` says where (x, y) is.

        ``clue`` marks text that states the puzzle (a cage's target) rather than a
        symbol in a cell: an answer key may leave it out."""

    def stamp(self, key: Hashable, x: float, y: float, draw: Callable[["Pen"], None]) -> None:
        """What ``draw(pen)`` draws around the origin, moved to (x, y): a symbol drawn many times.

        Whatever is drawn with equal ``key`` must be the same, and within ``STAMP_REACH``
        of the origin, so a pen may keep the drawing and repeat it (a PDF draws a sun once and places it thousands of
        times, instead of repeating every point of its outline)."""


@dataclass
class RecordingPen:
    """A pen that records what was drawn: for tests and for measuring bounds."""

    ops: list[tuple] = field(default_factory=list)
    key: bool = False  # drawing an answer key (see ``Pen``)

    def line(self, x1, y1, x2, y2, weight=THIN):
        self.ops.append(("line", x1, y1, x2, y2, weight))

    def rect(self, x, y, w, h, fill=None, stroke=None):
        self.ops.append(("rect", x, y, w, h, fill, stroke))

    def circle(self, cx, cy, r, fill=None, stroke=None):
        self.ops.append(("circle", cx, cy, r, fill, stroke))

    def polygon(self, points, fill=None, stroke=None):
        self.ops.append(("polygon", tuple(points), fill, stroke))

    def text(self, x, y, s, size, bold=False, anchor=CENTER, grey=0.0, clue=False):
        self.ops.append(("text", x, y, s, size, bold, anchor, clue))

    def stamp(self, key, x, y, draw):
        draw(Moved(self, x, y))

    def kinds(self) -> dict[str, int]:
        """How many operations of each kind were recorded."""
        out: dict[str, int] = {}
        for op in self.ops:
            out[op[0]] = out.get(op[0], 0) + 1
        return out

    def texts(self) -> list[str]:
        """Every string drawn, in order."""
        return [op[3] for op in self.ops if op[0] == "text"]


@dataclass
class Moved:
    """A pen that moves everything by (dx, dy) and passes it on: how a pen without a
    memory for symbols draws a stamp."""

    pen: Pen
    dx: float
    dy: float

    @property
    def key(self) -> bool:
        """Whether the pen it passes to draws an answer key."""
        return self.pen.key

    def line(self, x1, y1, x2, y2, weight=THIN):
        self.pen.line(x1 + self.dx, y1 + self.dy, x2 + self.dx, y2 + self.dy, weight)

    def rect(self, x, y, w, h, fill=None, stroke=None):
        self.pen.rect(x + self.dx, y + self.dy, w, h, fill, stroke)

    def circle(self, cx, cy, r, fill=None, stroke=None):
        self.pen.circle(cx + self.dx, cy + self.dy, r, fill, stroke)

    def polygon(self, points, fill=None, stroke=None):
        dx, dy = self.dx, self.dy
        self.pen.polygon([(x + dx, y + dy) for x, y in points], fill, stroke)

    def text(self, x, y, s, size, bold=False, anchor=CENTER, grey=0.0, clue=False):
        self.pen.text(x + self.dx, y + self.dy, s, size, bold, anchor, grey, clue)

    def stamp(self, key, x, y, draw):
        self.pen.stamp(key, x + self.dx, y + self.dy, draw)
