"""A user's own black-and-white pictures, read into rows of ``1`` (dark) and ``0`` (light).

A section's ``pictures:`` lists them (a variant that takes pictures says so with
``pictures_option``): each item is a PNG file, a text-art file (``.txt``), both with paths
relative to the book file, or text art written in place (a string of several lines).

PNG goes through Pillow: reportlab needs it already (it is installed with every bookgen),
the cover reads its image with it, and it reads every PNG a drawing program writes
(interlaced, 16-bit, palette, transparency) where a decoder of our own would refuse some of
them. What it is given is bounded before it decodes anything: the file's size, and the
width and height its header states (a picture of a few hundred thousand pixels at most), so
a compressed bomb is refused from its first 24 bytes; anything Pillow can't decode is a
one-line message, never a traceback.

One pixel is one cell. A picture drawn larger, each cell a square of equal pixels (pixel art
exported at 10x), is read at its cell size: the largest square that divides every run of
dark and light pixels, across and down. A pixel is dark below half luminance (ITU-R 601
weights, as Pillow's grey conversion); a transparent pixel is light.
"""

from __future__ import annotations

import io
import math
import struct
from dataclasses import dataclass
from pathlib import Path

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_PICTURE_BYTES = 2 << 20  # a PNG of a black-and-white drawing is a few KB
MAX_TEXT_ART_BYTES = 64 << 10  # 25 lines of 25 characters, with room for comments
MAX_SIDE = 2000  # pixels a side a header may state; each cell a square of up to 80 pixels at 25 cells
MAX_PIXELS = 1_000_000  # and in all (a 1000 x 1000 drawing): bounds what Pillow inflates
DARK = 128  # grey levels below this (half of 255) are filled cells


class PictureError(ValueError):
    """A picture that can't be read; the message says why, in one line."""


@dataclass(frozen=True)
class Picture:
    """A picture as a section lists it: ``name`` (the file name, or ``text art N`` for one
    written in place), ``rows`` of ``1`` and ``0``, and ``scale`` (pixels per cell a side;
    1 for text art)."""

    name: str
    rows: tuple[str, ...]
    scale: int = 1

    @property
    def rows_cols(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0]) if self.rows else 0


def is_text_art(item: str) -> bool:
    """An item of ``pictures:`` written in place: text of more than one line."""
    return "\n" in item.strip()


def read_picture(item: str, base: Path, number: int) -> Picture:
    """The picture ``item`` names (a path relative to ``base``) or holds (text art in place);
    ``number`` counts from 1 and names a picture written in place. ``PictureError`` says why
    it can't be read."""
    if is_text_art(item):
        return Picture(f"text art {number}", text_art_rows(item))
    if not item.strip():
        raise PictureError("names no file; give a PNG or a .txt text-art file, or the text art itself "
                           "on several lines")
    from bookgen.reading import read_file_bytes, read_text_file  # (config reads the book file the same way)

    path = base / item
    name = Path(item).name
    try:
        if path.suffix.lower() == ".txt":
            return Picture(name, text_art_rows(read_text_file(path, MAX_TEXT_ART_BYTES, "text art is a few lines")))
        raw = read_file_bytes(path, MAX_PICTURE_BYTES, "a black-and-white drawing is a few KB")
    except PictureError:
        raise
    except ValueError as exc:
        raise PictureError(str(exc)) from None
    rows, scale = png_rows(raw)
    return Picture(name, rows, scale)


def text_art_rows(text: str) -> tuple[str, ...]:
    """Text art as rows of ``1`` and ``0`` (``#``, ``X``, ``1`` or ``█`` filled; ``.``, ``-``,
    ``0``, ``_`` or a space empty); ``PictureError`` names a character that is neither."""
    from bookgen.solve.nonogram import read_text_art

    try:
        rows = read_text_art(text)
    except ValueError as exc:
        raise PictureError(f"line {exc}") from None
    if not rows:
        raise PictureError("holds no rows of text art (# for a filled cell, . for an empty one)")
    return rows


def png_rows(raw: bytes) -> tuple[tuple[str, ...], int]:
    """A PNG's pixels as rows of ``1`` (dark) and ``0`` (light), read at its cell size, and
    that cell size in pixels. ``PictureError`` for anything that is not a PNG Pillow decodes,
    and before decoding for one whose header states too many pixels."""
    if not raw.startswith(PNG_SIGNATURE):
        raise PictureError("is not a PNG file (a picture is a PNG, or text art in a .txt file)")
    if len(raw) < 33 or raw[12:16] != b"IHDR":
        raise PictureError("is not a complete PNG file (it ends inside its header)")
    width, height = struct.unpack(">II", raw[16:24])
    if not width or not height:
        raise PictureError(f"is a damaged PNG file (its header says {width} \u00d7 {height} pixels)")
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise PictureError(f"is {width} \u00d7 {height} pixels; a picture is one pixel a cell (5 to 25 cells "
                           f"a side), or each cell a square of equal pixels, at most {MAX_SIDE} pixels a side")
    from PIL import Image

    try:
        with Image.open(io.BytesIO(raw), formats=["PNG"]) as image:
            image.load()
            grey = _grey(image)
    except Exception as exc:  # noqa: BLE001 - Pillow raises many kinds on damaged data; each is one message
        raise PictureError(f"is a damaged PNG file ({_reason(exc)})") from None
    bits = [[1 if grey[y * width + x] < DARK else 0 for x in range(width)] for y in range(height)]
    scale = cell_scale(bits)
    rows = tuple("".join(str(bits[y][x]) for x in range(0, width, scale)) for y in range(0, height, scale))
    return rows, scale


def _grey(image) -> bytes:
    """The image's grey levels, one byte a pixel, transparent pixels on white."""
    from PIL import Image

    if image.mode in ("I", "I;16", "I;16B", "I;16L", "F"):  # 16-bit and wider grey: scale to 8 bits
        top = 65535 if image.mode.startswith("I;16") or (image.getextrema() or (0, 0))[1] > 255 else 255
        image = image.point(lambda v: v * 255 / top).convert("L")
    rgba = image.convert("RGBA")
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return Image.alpha_composite(white, rgba).convert("L").tobytes()


def _reason(exc: Exception) -> str:
    text = " ".join(str(exc).split())[:80]
    return text or type(exc).__name__


def cell_scale(bits: list[list[int]]) -> int:
    """The side, in pixels, of the largest square cell the picture is drawn in: it divides
    the width, the height and every run of equal pixels across and down (so every such
    square is one colour). 1 for a picture drawn a pixel a cell."""
    height, width = len(bits), len(bits[0])
    scale = math.gcd(width, height)
    for lines in (bits, [list(col) for col in zip(*bits)]):
        for line in lines:
            run = 1
            for a, b in zip(line, line[1:]):
                if a == b:
                    run += 1
                else:
                    scale = math.gcd(scale, run)
                    run = 1
                if scale == 1:
                    return 1
    return scale
