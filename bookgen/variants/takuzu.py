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
from bookgen.core.rules import balance_rule, per_size
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
    memory_kb_per_cell = 0.25  # bench/measure_memory.py: 40.1 KB a 14x14 (docs/estimates.md)
    # CPU ms per puzzle, easy..expert (None: refused), default rules; what a rule option does to
    # it: factors, or a table of its own. Fitted by bench/fit_costs.py to the rows of
    # bench/sweep_estimates.py (docs/estimates.md), the rating included.
    costs = {
        4: (1.9, None, None, None),
        6: (2.8, 5.5, 5.3, 8.8),
        8: (6.1, 10.6, 9.2, 21.5),
        10: (11.1, 14.6, 22.5, 30.2),
        12: (20.7, 21.9, 35.1, 56.7),
        14: (51.4, 46.9, 73.9, 102.0),
    }
    rule_costs = {
        ("max_run", 3): (1.4, 1.7, 1.2, 2.3),
        ("unique_lines", False): (0.6, 1.1, 0.9, 1.0),
    }
    rule_cost_rows = {
        ("unique_lines", False): {
            4: (0.8, None, None, None),
            6: (1.7, 3.8, None, None),
            8: (4.1, 8.5, 79.0, 14.9),
            10: (12.0, 15.5, 22.8, 25.4),
            12: (21.2, 28.8, 23.9, 69.6),
            14: (32.2, 63.2, 52.4, 111.0),
        },
    }
    default_unique = True
    uses_signs = False
    symbol_names = ("0", "1")
    technique_text = TECHNIQUE_TEXT
    rules_text = (
        N_("Fill every cell with 0 or 1."),
        N_("No more than two equal symbols may stand next to each other in a row or column."),
        N_("Each row and each column holds as many 0s as 1s."),
        N_("No two rows are the same, and no two columns are the same."),
        N_("Each puzzle has exactly one solution, reachable by logic alone."),
    )

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

    def rules_for(self, rules, sizes=()) -> tuple[str, ...]:
        """The rules text adjusted to a section's options, with how many 0s and 1s a line
        of each of ``sizes`` holds."""
        lines = list(self.rules_text)
        if sizes:
            lines[2] = balance_rule(
                sizes, lambda half: Plural("Each row and each column holds {count} 0 and {count} 1.",
                                           "Each row and each column holds {count} 0s and {count} 1s.", half),
                N_("Each row and each column holds as many 0s as 1s: {sizes}."), per_size)
        if rules.get("max_run", 2) == 3:
            lines[1] = N_("No more than three equal symbols may stand next to each other in a row or column.")
        if not rules.get("unique_lines", True):
            lines.pop(3)
        return tuple(lines)


TAKUZU = Takuzu()
