"""Single puzzles as pictures (``bookgen export`` and the studio's per-puzzle downloads).

One file per puzzle of a book JSON, drawn by the variant's own ``draw`` through
a pen: SVG by ``bookgen.export.svg`` (pure Python), PNG by the book's reportlab
pen rasterised with PDFium (``bookgen.export.png``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bookgen.export.svg import SvgPen

FORMATS = ("svg", "png")
UNIT = 36.0  # points a cell: half an inch, a comfortable picture
MARGIN = 4.0  # points around the grid: room for the bold frame
MIN_DPI, MAX_DPI = 36, 1200
MAX_PICTURES = 10_000  # one export; a 100,000-puzzle set is exported in parts (--numbers)


class ExportError(Exception):
    """A request that can't be exported; the message says why."""


@dataclass(frozen=True)
class Picture:
    """One puzzle's picture: its file name and bytes."""

    name: str
    data: bytes


def parse_numbers(text: str | None, top: int) -> list[int] | None:
    """``"1-10,15"`` -> [1..10, 15] within 1..top; None for all; ``ExportError`` when malformed."""
    if text is None or not text.strip():
        return None
    out: list[int] = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d{1,7})\s*(?:-\s*(\d{1,7})\s*)?", part)
        if not m:
            raise ExportError(f"--numbers: {part.strip()!r} is not a number or a range such as 1-10")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if not 1 <= lo <= hi <= top:
            raise ExportError(f"--numbers: {part.strip()} is outside the book's puzzles 1 to {top}")
        out.extend(range(lo, hi + 1))
    return sorted(set(out))


def _puzzle(entry: dict):
    from bookgen.variants.registry import variant_of

    variant = variant_of(entry)
    if variant is None:
        raise ExportError(f"puzzle {entry.get('number', '?')}: unknown variant {entry.get('variant')!r}")
    try:
        return variant, variant.from_json(entry)
    except (ValueError, KeyError, TypeError) as exc:
        raise ExportError(f"puzzle {entry.get('number', '?')}: {exc}") from None


def puzzle_svg(entry: dict, solved: bool = False, unit: float = UNIT) -> bytes:
    """One book-JSON puzzle entry as an SVG file."""
    variant, puzzle = _puzzle(entry)
    ext = variant.extent(puzzle.size, puzzle.rules)  # the grid and its outside clues
    pen = SvgPen(unit, MARGIN + ext.left * unit, MARGIN + ext.top * unit)
    variant.draw(pen, puzzle, solved=solved)
    title = f"{variant.title} {entry.get('number', '')}{' (answer)' if solved else ''}"
    return pen.document(ext.width * unit + 2 * MARGIN, ext.height * unit + 2 * MARGIN, title).encode("utf-8")


def puzzle_png(entry: dict, solved: bool = False, dpi: float = 150.0, unit: float = UNIT) -> bytes:
    """One book-JSON puzzle entry as a greyscale PNG at ``dpi``."""
    from bookgen.export.png import pdf_page_png
    from bookgen.layout.picture import puzzle_pdf

    if not MIN_DPI <= dpi <= MAX_DPI:
        raise ExportError(f"--dpi must be between {MIN_DPI} and {MAX_DPI}, got {dpi:g}")
    variant, puzzle = _puzzle(entry)
    return pdf_page_png(puzzle_pdf(variant, puzzle, solved, unit, MARGIN), 0, dpi)


def picture_name(stem: str, entry: dict, fmt: str, solved: bool) -> str:
    """``STEM-007.svg``, ``STEM-007B-answer.png`` (class sets repeat numbers in each version)."""
    number = entry.get("number", 0)
    version = entry.get("version") or ""
    return f"{stem}-{int(number):03d}{version}{'-answer' if solved else ''}.{fmt}"


def pictures(data: Any, stem: str, fmt: str, numbers: str | None = None, answers: bool = False,
             dpi: float = 150.0) -> list[Picture]:
    """Every chosen puzzle of a book JSON document as pictures (and its answer with ``answers``)."""
    if fmt not in FORMATS:
        raise ExportError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    puzzles = data.get("puzzles") if isinstance(data, dict) else None
    if not isinstance(puzzles, list) or not puzzles:
        raise ExportError("not a book JSON file with puzzles (the JSON 'bookgen build' writes beside the PDF)")
    top = max((p.get("number", 0) for p in puzzles if isinstance(p, dict)), default=0)
    chosen = parse_numbers(numbers, top)
    picked = [p for p in puzzles if isinstance(p, dict) and (chosen is None or p.get("number") in chosen)]
    if len(picked) * (2 if answers else 1) > MAX_PICTURES:
        raise ExportError(f"that is {len(picked)} puzzles; export at most {MAX_PICTURES} pictures at a time "
                          "(choose some with --numbers)")
    out = []
    for entry in picked:
        for solved in ((False, True) if answers else (False,)):
            data_ = puzzle_svg(entry, solved) if fmt == "svg" else puzzle_png(entry, solved, dpi)
            out.append(Picture(picture_name(stem, entry, fmt, solved), data_))
    return out


def write_pictures(items: list[Picture], out_dir: Path) -> list[Path]:
    """Write pictures into ``out_dir`` (made if missing), each whole or not at all."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for item in items:
        final = out_dir / item.name
        tmp = out_dir / f".{item.name}.tmp{os.getpid()}"
        try:
            tmp.write_bytes(item.data)
            os.replace(tmp, final)
        finally:
            tmp.unlink(missing_ok=True)
        written.append(final)
    return written
