"""A puzzle as a PNG: drawn on a one-page PDF by the book's own reportlab pen
(``bookgen.layout.picture``), then
rasterised by PDFium (``pypdfium2``, wheels for Linux, macOS and Windows with
the library inside: no system packages) and written as a greyscale PNG by hand.

Going through the PDF means the picture is the printed puzzle itself: the
same pen, the same embedded fonts. PDFium is the rasteriser Chrome uses; the
PNG encoder is a few lines of zlib, so Pillow is not needed.
"""

from __future__ import annotations

import struct
import zlib


def png_bytes(width: int, height: int, rows: bytes, stride: int) -> bytes:
    """A greyscale 8-bit PNG of ``height`` rows of ``width`` bytes each (``stride`` apart in ``rows``)."""
    raw = b"".join(b"\0" + rows[y * stride:y * stride + width] for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def pdf_page_png(pdf: bytes | str, page: int = 0, dpi: float = 150.0) -> bytes:
    """Page ``page`` (from 0) of a PDF (bytes or a file name) as PNG bytes at ``dpi``."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        bitmap = doc[page].render(scale=dpi / 72.0, grayscale=True)
        buffer = bytes(bitmap.buffer)
        return png_bytes(bitmap.width, bitmap.height, buffer, bitmap.stride)
    finally:
        doc.close()
