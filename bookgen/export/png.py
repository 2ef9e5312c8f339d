"""A puzzle as a PNG: drawn on a one-page PDF by the book's own reportlab pen
(``bookgen.layout.picture``), then
rasterised by PDFium (``pypdfium2``, wheels for Linux, macOS and Windows with
the library inside: no system packages) and written as a PNG by hand: in colour,
as the PDF prints it (Queens' tinted regions), or in grey.

Going through the PDF means the picture is the printed puzzle itself: the
same pen, the same embedded fonts. PDFium is the rasteriser Chrome uses; the
PNG encoder is a few lines of zlib, so Pillow is not needed.
"""

from __future__ import annotations

import struct
import zlib


def png_bytes(width: int, height: int, rows: bytes, stride: int, channels: int = 1) -> bytes:
    """An 8-bit PNG of ``height`` rows of ``width`` pixels (``stride`` bytes apart in ``rows``):
    greyscale with one channel, RGB with three."""
    span = width * channels
    raw = b"".join(b"\0" + rows[y * stride:y * stride + span] for y in range(height))
    kind = {1: 0, 3: 2}[channels]  # PNG colour types: grey, truecolour

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, kind, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def bitmap_png(page, scale: float, colour: bool = True) -> bytes:
    """A PDFium page rendered at ``scale`` (pixels a point) as PNG bytes."""
    bitmap = page.render(scale=scale, grayscale=not colour, rev_byteorder=colour)
    channels = bitmap.n_channels
    buffer = bytes(bitmap.buffer)
    if channels == 4:  # (a format with a fourth byte: dropped, the page is opaque)
        buffer = b"".join(buffer[i:i + 3] for i in range(0, len(buffer), 4))
        return png_bytes(bitmap.width, bitmap.height, buffer, bitmap.width * 3, 3)
    return png_bytes(bitmap.width, bitmap.height, buffer, bitmap.stride, channels)


def pdf_page_png(pdf: bytes | str, page: int = 0, dpi: float = 150.0, colour: bool = True) -> bytes:
    """Page ``page`` (from 0) of a PDF (bytes or a file name) as PNG bytes at ``dpi``."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return bitmap_png(doc[page], dpi / 72.0, colour)
    finally:
        doc.close()
