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

from reportlab.pdfbase import pdfmetrics
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
FILES = {name: file for pair in FACES.values() for name, file in pair}
ASCENT, DESCENT = 0.93, 0.24  # DejaVu Sans, in em: keeps text boxes inside the safe area


def fonts_dir() -> Path:
    """Where the TTFs are: inside the installed package, or the source tree's ``fonts/``."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "fonts", here.parent / "fonts"):
        if (candidate / FILES[FONT]).is_file():
            return candidate
    raise FileNotFoundError("DejaVu fonts not found: reinstall bookgen (they ship in its fonts/ folder)")


@lru_cache(maxsize=1)
def register_fonts() -> None:
    """Register every bundled TTF with reportlab once per process."""
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
