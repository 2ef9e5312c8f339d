"""Takuzu (also sold as Binairo or Binary puzzle).

Rules: fill every cell with 0 or 1; no more than ``max_run`` (2, or 3 on
grids of 8x8 and up) equal symbols side by side in a row or column; every
row and column holds as many 0s as 1s; with ``unique_lines`` (on by
default) no two rows and no two columns are the same.

Representation: N x N, N even from 4 to 14; givens and solution are row
strings of ``0``, ``1`` and ``.``. Solving, grading and generation are the
shared binary-grid engine (``bookgen.solve.binary``).

Techniques by tier:
- easy: pairs (``00_`` -> ``001``), sandwiches (``0_0`` -> ``010``),
  balance (a line with N/2 of one symbol takes the other elsewhere);
- medium: whole-line reasoning on a line with at most four empty cells;
- hard: whole-line reasoning on longer stretches, and distinct lines (a row
  may not be completed into a copy of a finished row);
- expert: one single-cell trial refuted by the tiers above (never nested).
"""

from __future__ import annotations

from bookgen.core.difficulty import Level
from bookgen.core.i18n import C_, N_, Plural
from bookgen.variants.binarygrid import BinaryGrid

TECHNIQUE_TEXT = {
    "pair": (N_("Pairs"), N_("Two equal symbols side by side: both neighbours take the other symbol (00_ gives 001).")),
    "sandwich": (N_("Sandwiches"), N_("A gap between two equal symbols takes the other symbol (0_0 gives 010).")),
    "balance": (N_("Balance"), N_("A line that already holds half its cells of one symbol takes the other symbol everywhere else.")),
    "line": (N_("Short lines"), N_("A line with up to four empty cells: try its few balanced fillings without long runs; cells on which they all agree are fixed.")),
    "long_line": (N_("Long lines"), N_("The same whole-line reasoning on a line with more empty cells.")),
    "distinct": (N_("Distinct lines"), N_("No two rows (or columns) may be identical, so a filling that would copy a finished line is ruled out.")),
    "trial": (N_("One trial"), N_("Assume a symbol in one cell; if the techniques above lead to a contradiction, the cell holds the other symbol.")),
}


# The title in the grammatical cases sentences need (the catalogs inflect it: ``i18n.name_forms``).
NAME_CASES = (C_("gen", "Binairo"), C_("acc", "Binairo"))

class Takuzu(BinaryGrid):
    """Takuzu / Binairo: balanced binary grid, short runs, distinct lines."""

    name = "takuzu"
    aliases = ("binairo", "binary")
    title = N_("Binairo")
    sizes = (4, 6, 8, 10, 12, 14)
    default_size = 8
    default_unique = True
    uses_signs = False
    symbol_names = ("0", "1")
    technique_text = TECHNIQUE_TEXT
    rules_text = (
        N_("Fill every cell with 0 or 1."),
        N_("No more than two equal symbols may stand next to each other in a row or column."),
        N_("Each row and each column holds as many 0s as 1s."),
        N_("Each puzzle has exactly one solution, reachable by logic alone."),
    )
    run_of_three = N_("No more than three equal symbols may stand next to each other in a row or column.")
    balance_sizes = N_("Each row and each column holds as many 0s as 1s: {sizes}.")

    def max_level(self, size, rules) -> Level:
        """4x4 grids only ever need pairs and balance; without distinct lines a 6x6 tops out at
        medium, and an 8x8 with runs of three at hard (bench/sweep_binary.py: a quarter of its
        expert puzzles needed a second seed and 9 of 2,000 failed all four)."""
        if size == 4:
            return Level.EASY
        if size == 6 and not rules.get("unique_lines", True):
            return Level.MEDIUM
        if size == 8 and not rules.get("unique_lines", True) and rules.get("max_run", 2) == 3:
            return Level.HARD
        return Level.EXPERT

    def balance_counted(self, half: int) -> str:
        return Plural("Each row and each column holds {count} 0 and {count} 1.",
                      "Each row and each column holds {count} 0s and {count} 1s.", half)


TAKUZU = Takuzu()
