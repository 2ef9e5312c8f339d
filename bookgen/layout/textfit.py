"""Text a book prints from its config: can the fonts draw it, and does it fit its box?

One check serves every printed config text (title, subtitle, author, section
titles, and whatever a config adds later): ``printed_text_problem(text,
what, rooms)`` says what is wrong, or None. A ``Room`` is one place the text
is set: its width, how many lines it may wrap to, its type size and the
smallest size it may shrink to (the type floor). The renderer sets text with
the same ``break_lines`` and ``fit_size``, so what passes here fits there.

Refused: control and format characters, right-to-left scripts (the layout
sets text left to right, with no shaping), and characters the embedded
DejaVu fonts have no glyph for (they would print as empty boxes).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterable

from reportlab.pdfbase import pdfmetrics

from bookgen.core.i18n import N_
from bookgen.core.memo import BoundedMemo
from bookgen.layout.fonts import DEFAULT_FACE, font_of, glyphs_of, register_fonts

MAX_CHARS = 2000  # no box in a book holds more; longer text is refused before it is measured
RTL = {"R", "AL"}  # bidirectional classes of right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko ...)


@dataclass(frozen=True)
class Room:
    """One place a text is printed."""

    where: str     # "on the title page"
    width: float   # points
    lines: int     # lines it may wrap to
    size: float    # the type size it is set in
    floor: float   # the smallest size it may shrink to
    bold: bool = False
    prefix: str = ""  # printed before the text on the same line ("Answer key: "), in the same type
    face: str = DEFAULT_FACE  # the book's text face (``font:``)

    def lead(self, size: float) -> float:
        """The width the prefix takes at ``size``."""
        return text_width(self.prefix, size, self.bold, self.face) if self.prefix else 0.0


def _glyphs(face: str = DEFAULT_FACE) -> frozenset[int]:
    """Code points the face's fonts can draw."""
    return glyphs_of(face)


def _name(ch: str) -> str:
    return f"{ch!r} (U+{ord(ch):04X}{' ' + unicodedata.name(ch) if unicodedata.name(ch, '') else ''})"


def unprintable(text: str, face: str = DEFAULT_FACE) -> str | None:
    """Why ``text`` can't be printed as typed (the first offending character, by position), or None."""
    glyphs = None
    for i, ch in enumerate(text, start=1):
        if ch in " \u00a0":
            continue
        category = unicodedata.category(ch)
        if category[0] == "C" or category in ("Zl", "Zp"):
            kind = "a control character" if category == "Cc" else "an invisible formatting character"
            return f"character {i} is {kind}, U+{ord(ch):04X}, which can't be printed; remove it"
        if unicodedata.bidirectional(ch) in RTL:
            return (f"character {i}, {_name(ch)}, is right-to-left script; bookgen sets text left to "
                    "right only and would print it reversed and unshaped, so it is not supported yet")
        if ord(ch) > 0x7E:
            glyphs = glyphs or _glyphs(face)
            if ord(ch) not in glyphs:
                font = font_of(face, False).replace("SIL", " SIL").replace("Sans", " Sans")
                return (f"character {i}, {_name(ch)}, is not in the book's font ({font}), which "
                        "would print it as an empty box; remove or replace it")
    return None


def text_width(text: str, size: float, bold: bool = False, face: str = DEFAULT_FACE) -> float:
    """Width of one line of text in points."""
    register_fonts()
    return pdfmetrics.stringWidth(text, font_of(face, bold), size)


def break_lines_plain(text: str, size: float, width: float, bold: bool = False,
                      first_indent: float = 0.0, face: str = DEFAULT_FACE) -> list[str]:
    """Greedy line breaking to ``width`` (the first line ``first_indent`` shorter): the reference
    ``break_lines`` must equal.

    A word too long for a line of its own is split between characters, so no
    line is ever wider than the box.
    """
    lines: list[str] = []
    cur = ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        room = width - (first_indent if not lines else 0.0)
        if text_width(trial, size, bold, face) <= room:
            cur = trial
            continue
        if cur or (not lines and text_width(word, size, bold, face) <= width):
            lines.append(cur)  # (an empty first line when the word only misses the indented one)
            room = width
            if text_width(word, size, bold, face) <= room:
                cur = word
                continue
        cur = ""
        for ch in word:  # only reached by a word wider than the line
            if cur and text_width(cur + ch, size, bold, face) > room:
                lines.append(cur)
                cur, room = "", width
            cur += ch
    return lines + ([cur] if cur else [])


# A book sets the same paragraphs at the same sizes and widths many times over (a how-to page
# is laid out to count its pages and again to draw them; the config check measures the texts
# the pages then set; the studio's plan reruns it on every keystroke), and greedy breaking
# measures every line prefix again per word. ``tests/test_textfit.py`` checks it against
# ``break_lines_plain``.
_BROKEN = BoundedMemo(20_000)


def break_lines(text: str, size: float, width: float, bold: bool = False,
                first_indent: float = 0.0, face: str = DEFAULT_FACE) -> list[str]:
    """``break_lines_plain``, remembered: a fresh list each call (callers may change it)."""
    key = (text, size, width, bold, first_indent, face)
    lines = _BROKEN.get(key)
    if lines is None:
        lines = _BROKEN.put(key, tuple(break_lines_plain(text, size, width, bold, first_indent, face)))
    return list(lines)


def fit_size(text: str, room: Room) -> float | None:
    """The largest size, from ``room.size`` down to its floor, at which ``text`` fits; None if none does."""
    size = room.size
    while True:
        if len(break_lines(text, size, room.width - room.lead(size), room.bold, face=room.face)) <= room.lines:
            return size
        if size <= room.floor:
            return None
        size = max(room.floor, size - 0.5)


def _longest(text: str, room: Room) -> int:
    """How many characters of ``text`` fit the room at its floor."""
    lo, hi = 0, min(len(text), MAX_CHARS)
    floor = replace(room, size=room.floor)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fit_size(text[:mid], floor) is not None:
            lo = mid
        else:
            hi = mid - 1
    return lo


def printed_text_problem(text: str, what: str, rooms: Iterable[Room] = ()) -> str | None:
    """Why ``text`` can't be printed in all of ``rooms`` (``what`` names it: "title"), or None;
    its characters are checked against the rooms' face."""
    rooms = list(rooms)
    if not text.strip():  # a blank title prints nothing: the page would be missing what it announces
        return f"{what} is blank; write the text, or leave the key out where it is optional"
    bad = unprintable(text, next((room.face for room in rooms), DEFAULT_FACE))
    if bad:
        return f"{what}: {bad}"
    for room in rooms:
        if len(text) > MAX_CHARS or fit_size(text, room) is None:
            most = _longest(text, room)
            lines = f"{room.lines} lines" if room.lines > 1 else "one line"
            return (f"{what} is too long to print {room.where} ({lines} at {room.floor:g} pt or more): "
                    f"at most about {most} characters fit, it has {len(text)}; shorten it")
    return None


# ----- where a book prints its config texts (the renderer sets them by these same rooms) -----
CONTENTS_NUMBER = "9999"  # the widest page number a contents row keeps room for
TITLE_FLOOR = 16.0  # a title page's title never shrinks below this


ANSWER_KEY = N_("Answer key: ")  # a worksheet key's heading: this (translated), then the title


def answer_key_heading(title: str, t=str) -> str:
    """A worksheet answer key's heading in the book's language (``t`` translates)."""
    return t(ANSWER_KEY) + title


def heading_room(style, width: float, where: str = "as a page heading") -> Room:
    """A page heading: one bold line, shrunk no smaller than the labels above the grids."""
    return Room(where, width, 1, style.heading, style.label, bold=True)


def title_rooms(style, width: float, worksheet: bool = False, t=str) -> list[Room]:
    """The title: three lines on the title page; on worksheets, one line in every footer
    and in the answer key's heading."""
    rooms = [Room("on the title page", width, 3, style.heading * 1.6, TITLE_FLOOR, bold=True)]
    if worksheet:
        rest = text_width(t("{title} \u00b7 answer key \u00b7 page {page}").format(title="", page=9999), style.small)
        rooms.append(Room("in the worksheet footers", width - rest, 1, style.small, style.small))
        rooms.append(replace(heading_room(style, width, "in the answer key's heading"), prefix=t(ANSWER_KEY)))
    return rooms


def subtitle_room(style, width: float) -> Room:
    """The subtitle: up to four lines under the title."""
    return Room("on the title page", width, 4, style.body * 1.35, style.body * 1.35)


def author_room(style, width: float) -> Room:
    """The author: one line at the foot of the title page, shrunk to the floor if need be."""
    return Room("on the title page", width, 1, style.body * 1.25, style.small)


def imprint_room(style, width: float, lines: int, face: str = DEFAULT_FACE) -> Room:
    """A field of the copyright page: ``lines`` lines at the caption size, which it keeps."""
    return Room("on the copyright page", width, lines, style.small, style.small, face=face)


def section_rooms(style, width: float, explained: bool = False, t=str) -> list[Room]:
    """A section title: a contents row beside its page number, and the running header."""
    rooms = [Room("in the contents", width - text_width(CONTENTS_NUMBER, style.body) - 24, 1, style.body,
                  style.small, bold=True),
             Room("in the running header", width, 1, style.small, style.small)]
    if explained:  # the walkthrough's contents line quotes it
        rest = text_width(t("the first puzzle of \u201c{section}\u201d, every deduction").format(section=""), style.small)
        rooms.append(Room("in the contents", width - rest, 1, style.small, style.small))
    return rooms
