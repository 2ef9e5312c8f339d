"""One difficulty score for every variant: the level plus the work done inside it.

A puzzle's level is the hardest technique it needs; its score orders puzzles of
one level. The work counts every deduction the grader made, weighted by how
hard its technique is; deductions of the puzzle's own level (the ones that
make it that level) count in full, easier ones a tenth (every puzzle needs
roughly one easy step per cell, which says little), and the total is divided
by the number of cells, so a 6x6 and a 10x10 that need the same reasoning per cell score alike.
The fraction ``work / (work + 1)`` keeps the score in ``[level, level + 1)``:
levels never overlap, and more work always scores higher.
"""

from __future__ import annotations

from typing import Mapping

from bookgen.core.difficulty import Level

LOWER_TIER_FACTOR = 0.1  # deductions below the puzzle's level: the routine part of its work
DIGITS = 3  # scores are rounded so they print and compare the same everywhere


def work_score(counts: Mapping[str, int], weights: Mapping[str, float], tiers: Mapping[str, Level],
               level: Level, cells: int) -> float:
    """The score of a puzzle graded ``level`` whose grader used technique ``t`` ``counts[t]``
    times; ``weights`` is the effort of one use, ``tiers`` each technique's level."""
    work = 0.0
    for name, used in counts.items():
        factor = 1.0 if tiers.get(name) == level else LOWER_TIER_FACTOR
        work += weights.get(name, 1.0) * factor * used
    work /= max(cells, 1)
    top = 1.0 - 10.0 ** -DIGITS
    return round(int(level) + min(work / (work + 1.0), top), DIGITS)
