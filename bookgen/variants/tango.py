"""Tango (the LinkedIn game): suns and moons with = and x signs.

Rules: fill every cell with a sun or a moon; no more than two equal symbols
side by side across or down; each row and column holds as many suns as
moons; cells joined by ``=`` hold the same symbol, cells joined by ``x``
opposite symbols. There is no distinct-rows rule (``unique_lines: true``
turns Takuzu's on).

Representation: the binary-grid engine with ``1`` = sun and ``0`` = moon;
the signs are ``Edge`` objects and live on the engine's lines as masks, so
whole-line reasoning sees them. The generator places signs first, carves
givens away, then drops every sign that has become redundant.

Techniques by tier:
- easy: pairs, sandwiches, balance, and signs applied locally (one end of
  a sign known fixes the other);
- medium: whole-line reasoning (every valid completion of a row or column
  under its signs agrees on a cell) on lines with up to four empty cells;
- hard: the same on longer lines, where sign chains (``a = b x c``) and
  several line deductions feed each other;
- expert: one single-cell trial refuted by the tiers above (never nested).
"""

from __future__ import annotations

from bookgen.core.difficulty import Level
from bookgen.core.i18n import C_, N_, Plural
from bookgen.core.pen import Pen
from bookgen.variants.binarygrid import BinaryGrid
from bookgen.variants.shapes import SUN_CORE, crescent, sun_rays

ANSWER_GREY = 0.55  # solved-in symbols in the answer key: lighter than printed givens

TECHNIQUE_TEXT = {
    "pair": (N_("Pairs"), N_("Two equal symbols side by side: the cells on both sides take the other symbol.")),
    "sandwich": (N_("Sandwiches"), N_("A gap between two equal symbols takes the other symbol.")),
    "balance": (N_("Balance"), N_("A row or column with three suns (on a 6x6 grid) takes moons everywhere else, and the other way round.")),
    "sign": (N_("Signs"), N_("A filled cell next to = gives its neighbour the same symbol; next to × the other one.")),
    "line": (N_("Short lines"), N_("A line with up to four empty cells: try its few fillings that respect runs, balance and signs; cells on which they all agree are fixed.")),
    "long_line": (N_("Long lines and sign chains"), N_("The same whole-line reasoning on longer stretches, where several signs in a row constrain each other.")),
    "distinct": (N_("Distinct lines"), N_("With the distinct-lines option, no two rows or columns may be the same.")),
    "trial": (N_("One trial"), N_("Assume a symbol in one cell; if the techniques above lead to a contradiction, the cell holds the other symbol.")),
}


# The title in the grammatical cases sentences need (the catalogs inflect it: ``i18n.name_forms``).
NAME_CASES = (C_("gen", "Tango"), C_("acc", "Tango"))

class Tango(BinaryGrid):
    """Tango: balanced sun/moon grid with = and × signs."""

    name = "tango"
    aliases = ("sun-moon", "sunmoon")
    title = N_("Tango")
    sizes = (4, 6, 8, 10, 12)
    default_size = 6
    default_unique = False
    uses_signs = True
    givens_option = True  # ``givens: few|normal|many`` steers the mix of signs and givens
    symbol_names = ("moon", "sun")
    symbols_in_type = False
    text_symbols = (("\u263e", "\u2600"), ("M", "S"))
    technique_text = TECHNIQUE_TEXT
    rules_text = (
        N_("Fill every cell with a sun or a moon."),
        N_("No more than two of the same symbol next to each other, across or down."),
        N_("Each row and each column holds as many suns as moons."),
        N_("Cells joined by = hold the same symbol; cells joined by × hold opposite symbols."),
        N_("There is exactly one solution, and it can be reached by deduction alone."),
    )
    run_of_three = N_("No more than three of the same symbol next to each other, across or down.")
    balance_sizes = N_("Each row and each column holds as many suns as moons: {sizes}.")

    def max_level(self, size, rules) -> Level:
        """A 4x4 board is too small for long lines or a useful trial."""
        return Level.MEDIUM if size == 4 else Level.EXPERT

    def balance_counted(self, half: int) -> str:
        return Plural("Each row and each column holds {count} sun and {count} moon.",
                      "Each row and each column holds {count} suns and {count} moons.", half)

    def draw_symbol(self, pen: Pen, r: int, c: int, v: int, given: bool) -> None:
        """A sun (disc with rays) or a moon (crescent); givens solid black."""
        fill = 0.0 if given else ANSWER_GREY
        pen.stamp(("tango", v, fill), c + 0.5, r + 0.5, lambda p: _draw_symbol(p, v, fill))


def _draw_symbol(pen: Pen, v: int, fill: float) -> None:
    """A sun (1) or a moon (0) centred on the origin."""
    if v:
        pen.circle(0.0, 0.0, SUN_CORE, fill=fill)
        for ray in sun_rays(0.0, 0.0):
            pen.polygon(ray, fill=fill)
    else:
        pen.polygon(crescent(0.0, 0.0), fill=fill)


TANGO = Tango()
