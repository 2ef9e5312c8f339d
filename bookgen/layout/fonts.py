"""The embedded fonts, from the project's ``fonts/`` (each with its licence there).

Grids (digits, clues, signs) are always set in DejaVu Sans Bold: the variants fit
their clues to its measured advances (``bookgen.core.pen``). The book's text (title,
headings, rules, captions, cover) is set in the face the config picks with ``font:``:

- ``dejavu``: DejaVu Sans, the default: wide, open, and the grids' own face.
- ``charis``: Charis SIL, a book serif (after Bitstream Charter) for running text.
- ``andika``: Andika, SIL's sans designed for beginning readers: letters that can't be
  confused (I l 1, a with its tail) for large print and the classroom.

All three cover the six catalogs' alphabets (Latin with Czech, German, French and
Spanish letters, and Russian Cyrillic); a test checks every catalog string against each.
The SIL fonts are shipped unmodified (their licence reserves their names for the
originals, so a subset would have to be renamed); reportlab embeds only the glyphs a
PDF uses.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont

from bookgen.core.pen import CAP_HEIGHT  # noqa: F401  (DejaVu cap height, in em: centres digits)

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
DEFAULT_FACE = "dejavu"
# face -> ((regular name, file), (bold name, file))
FACES = {
    "dejavu": ((FONT, "DejaVuSans.ttf"), (FONT_BOLD, "DejaVuSans-Bold.ttf")),
    "charis": (("CharisSIL", "CharisSIL-Regular.ttf"), ("CharisSIL-Bold", "CharisSIL-Bold.ttf")),
    "andika": (("Andika", "Andika-Regular.ttf"), ("Andika-Bold", "Andika-Bold.ttf")),
}
REPORTLAB_CMAP = ttfonts.makeToUnicodeCMap  # what ``to_unicode_cmap`` replaces (a test compares them)
FILES = {name: file for pair in FACES.values() for name, file in pair}
ASCENT, DESCENT = 0.93, 0.24  # DejaVu Sans, in em: keeps text boxes inside the safe area


def fonts_dir() -> Path:
    """Where the TTFs are: inside the installed package, or the source tree's ``fonts/``."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "fonts", here.parent / "fonts"):
        if (candidate / FILES[FONT]).is_file():
            return candidate
    raise FileNotFoundError("DejaVu fonts not found: reinstall bookgen (they ship in its fonts/ folder)")


def to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """The ToUnicode CMap of one embedded font subset: which character each byte code stands for,
    so copying and searching the PDF give back the text that was typed.

    A PDF spells each character in UTF-16BE hex (PDF 1.7, 9.10.3): a code point beyond U+FFFF
    (an emoji, or a mathematical letter such as U+1D538) is a surrogate pair of four bytes.
    reportlab 5 writes such code points as plain hex (``<1D538>``, an odd-length string readers
    reject), so the character extracts as nothing or as the wrong one. This map is the same,
    byte for byte, for every character up to U+FFFF; ``tests/test_extract.py`` checks both."""
    pairs = [f"<{code:02X}> <{chr(point).encode('utf-16-be').hex().upper()}>" for code, point in enumerate(subset)]
    return "\n".join([
        "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap", "/CIDSystemInfo",
        f"<< /Registry ({fontname})", f"/Ordering ({fontname})", "/Supplement 0", ">> def",
        f"/CMapName /{fontname} def", "/CMapType 2 def", "1 begincodespacerange",
        f"<00> <{len(subset) - 1:02X}>", "endcodespacerange", f"{len(subset)} beginbfchar",
        *pairs, "endbfchar", "endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"])


@lru_cache(maxsize=1)
def register_fonts() -> None:
    """Register every bundled TTF with reportlab once per process (and give its embedded
    subsets a ToUnicode map that is right beyond U+FFFF: ``to_unicode_cmap``)."""
    ttfonts.makeToUnicodeCMap = to_unicode_cmap
    folder = fonts_dir()
    for name, file in FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(folder / file)))


def face_fonts(face: str = DEFAULT_FACE) -> tuple[str, str]:
    """The (regular, bold) font names of a face."""
    (regular, _), (bold, _) = FACES.get(face, FACES[DEFAULT_FACE])
    return regular, bold


def font_of(face: str, bold: bool) -> str:
    """The font name text of ``face`` is set in."""
    return face_fonts(face)[1 if bold else 0]


@lru_cache(maxsize=None)
def glyphs_of(face: str) -> frozenset[int]:
    """Code points both fonts of a face can draw."""
    register_fonts()
    maps = [set(pdfmetrics.getFont(name).face.charToGlyph) for name in face_fonts(face)]
    return frozenset(maps[0] & maps[1])
