"""How long a build will take, from measured per-puzzle costs, before it starts.

``COST_MS`` is the mean time to make one puzzle (default rules, one process,
the 2-core CI machine while busy), per (variant, size) and level easy..expert,
as printed by ``python bench/measure_costs.py``; None where a level is
refused. Re-measure after a change that moves generation speed. The figures
are a guide, not a promise: rules, seeds and the machine move them.
"""

from __future__ import annotations

from typing import Iterable

from bookgen.core.difficulty import Level

EXTRA_MS_PER_PUZZLE = 8.0  # laying out and drawing a puzzle and its answer
CONFIRM_SECONDS = 3600.0  # longer builds need --yes

COST_MS: dict[tuple[str, int], tuple[float | None, ...]] = {
    ("takuzu", 4): (3.6, None, None, None),
    ("takuzu", 6): (17.2, 27.6, 21.7, 150.5),
    ("takuzu", 8): (35.0, 37.2, 41.2, 201.9),
    ("takuzu", 10): (101.0, 81.2, 111.0, 193.3),
    ("takuzu", 12): (205.4, 153.1, 208.8, 293.2),
    ("takuzu", 14): (245.7, 244.3, 254.2, 588.5),
    ("tango", 4): (1.8, 2.8, None, None),
    ("tango", 6): (14.1, 9.9, 9.2, 53.0),
    ("tango", 8): (54.5, 24.3, 18.9, 66.2),
    ("tango", 10): (78.2, 65.6, 59.3, 126.9),
    ("tango", 12): (241.1, 636.1, 722.0, 574.3),
    ("kenken", 3): (3.4, 51.2, None, None),
    ("kenken", 4): (9.5, 9.5, 16.5, 26.1),
    ("kenken", 5): (6.7, 6.4, 53.3, 106.9),
    ("kenken", 6): (27.0, 26.3, 63.0, 155.7),
    ("kenken", 7): (79.0, 91.0, 726.4, 1638.8),
    ("kenken", 8): (429.9, 553.0, 250.3, 572.9),
    ("kenken", 9): (308.6, 299.0, 824.3, 2104.5),
    ("sudoku", 4): (1.3, None, None, None),
    ("sudoku", 6): (0.7, None, None, None),
    ("sudoku", 8): (1.3, 121.3, 269.5, 216.6),
    ("sudoku", 9): (1.9, 95.5, 179.8, 268.9),
    ("futoshiki", 4): (1.7, 4.0, 93.3, None),
    ("futoshiki", 5): (2.1, 4.3, 114.6, 140.6),
    ("futoshiki", 6): (8.1, 14.4, 53.3, 191.6),
    ("futoshiki", 7): (10.2, 24.3, 206.1, 125.6),
    ("futoshiki", 8): (39.0, 82.2, 140.0, 286.2),
    ("futoshiki", 9): (39.1, 117.9, 246.8, 399.1),
    ("killer", 4): (2.2, None, None, None),
    ("killer", 6): (15.8, 20.2, None, None),
    ("killer", 9): (244.5, 98.8, 213.3, 1006.7),
}


def puzzle_ms(variant: str, size: int, level: Level) -> float:
    """The expected time to make one puzzle; unmeasured cases take the nearest measured ones."""
    row = COST_MS.get((variant, size))
    if row is None:
        sizes = sorted(s for v, s in COST_MS if v == variant)
        if not sizes:
            return 1000.0
        near = min(sizes, key=lambda s: abs(s - size))
        row = COST_MS[(variant, near)]
        scale = (size / near) ** 3
    else:
        scale = 1.0
    known = [x for x in row if x is not None]
    value = row[level] if row[level] is not None else max(known)
    return value * scale


def build_seconds(jobs: Iterable[tuple[str, int, Level]], workers: int) -> float:
    """Expected wall-clock seconds to build puzzles (variant, size, level) with ``workers`` processes."""
    total = sum(puzzle_ms(v, s, lv) + EXTRA_MS_PER_PUZZLE for v, s, lv in jobs)
    return total / 1000.0 / max(1, workers)


def say_duration(seconds: float) -> str:
    """``about 3 h 20 min``, ``about 12 min``, ``under a minute``."""
    if seconds < 60:
        return "under a minute"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"about {minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"about {hours} h {minutes} min" if minutes else f"about {hours} h"
