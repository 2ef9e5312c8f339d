"""The embedded fonts: DejaVu Sans and Sans Bold from the project's ``fonts/``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from bookgen.core.pen import CAP_HEIGHT  # noqa: F401  (DejaVu cap height, in em: centres digits)

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
FILES = {FONT: "DejaVuSans.ttf", FONT_BOLD: "DejaVuSans-Bold.ttf"}
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
    """Register both TTFs with reportlab once per process."""
    folder = fonts_dir()
    for name, file in FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(folder / file)))
