"""How long a build will take, from measured per-puzzle costs, before it starts.

``COST_MS`` is the mean CPU time to make one puzzle (default rules, one
process), per (variant, size) and level easy..expert, gathered from each
variant's measured ``costs`` (its data file ``bookgen/variants/costs/NAME.json``,
written by ``bench/fit_costs.py --write``; docs/estimates.md); None where a
level is refused.
Measured on the 2-core team machine (load average 3.4-3.8 from other work;
CPU time, unlike the wall clock, barely moves with that). The table it
replaced was wall-clock time on a busy machine before the speed work on the
generators, and ran 1.2 to 30 times high, 4.5 times at the median (takuzu
14 easy 246 ms, now 96; kenken 9 expert 2105 ms, now 457). Re-measure after
a change that moves generation speed. The figures are a guide, not a
promise: rules, seeds and a machine shared with other work move them. Means
over 8 seeds differed from these (30 seeds) by 12 % at the median and up to
58 % (expert KenKen, whose cost varies most from seed to seed).
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable, Iterable, Mapping

from bookgen.core.difficulty import Level
from bookgen.core.types import Size, cell_count
from bookgen.variants.registry import VARIANTS

EXTRA_MS_PER_PUZZLE = 8.0  # laying out and drawing a puzzle and its answer
CONFIRM_SECONDS = 3600.0  # longer builds need --yes

# (variant, size) -> mean ms per puzzle easy..expert: each variant's measured ``costs``.
COST_MS: dict[tuple[str, Size], tuple[float | None, ...]] = {
    (variant.name, size): row for variant in VARIANTS.values() for size, row in variant.measured.costs.items()
}


def _side(size: Size) -> float:
    """A square's side, or the side of the square with as many cells as a ``GridSize``."""
    return size if isinstance(size, int) else math.sqrt(cell_count(size))


def puzzle_ms(variant: str, size: Size, level: Level, rules: Mapping[str, Any] | None = None,
              options: Mapping[str, Any] | None = None) -> float:
    """The expected time to make one puzzle under ``rules`` and section ``options``;
    unmeasured sizes take the nearest measured ones (a rectangle: the nearest in cells;
    a variant's ``costs`` may key rectangles by ``GridSize``). An option with a table of its
    own (``rule_cost_rows``) is looked up there; the others multiply (``rule_costs``)."""
    if variant not in VARIANTS:
        return 1000.0
    m = VARIANTS[variant].measured
    rectangular = VARIANTS[variant].rectangular
    chosen = chosen_options(variant, size, rules or {}, options or {})
    # an own table that lacks the size leaves it to the default's (a rectangle: its side's square),
    # except where sizes run in a range (a rectangular variant): then its nearest size measured
    # at this level, where it has one
    own = [key for key in chosen if any(_side(k) == _side(size) for k in m.rule_cost_rows.get(key, ()))]
    if not own and rectangular:
        own = [key for key in chosen if any(row[level] is not None for row in m.rule_cost_rows.get(key, {}).values())]
    table = m.rule_cost_rows[own[0]] if own else m.costs
    if own and rectangular and table.get(size) is None:
        table = {s: row for s, row in table.items() if row[level] is not None}
    row = table.get(size)
    scale = 1.0
    if row is None:
        if not table:
            return 1000.0
        near = min(table, key=lambda s: abs(_side(s) - _side(size)))
        row = table[near]
        scale = (_side(size) / _side(near)) ** 3
    known = [x for x in row if x is not None]
    value = row[level] if row[level] is not None else max(known, default=1000.0)
    for key in chosen:
        if key in m.rule_costs and key not in own[:1]:
            value *= m.rule_costs[key][level]
    return value * scale


def _normal(value: Any) -> Any:
    """A rule value as ``rule_costs`` keys it (a list as a sorted tuple)."""
    return tuple(sorted(value)) if isinstance(value, (list, tuple)) else value


def chosen_options(variant: str, size: Size, rules: Mapping[str, Any],
                   options: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The (option, value) pairs of ``rules`` that differ from ``size``'s default rules, and the
    section ``options``: what may move the cost away from ``costs``."""
    try:
        default = VARIANTS[variant].parse_rules({}, size)
    except (KeyError, ValueError):
        default = {}
    chosen = [(k, _normal(v)) for k, v in rules.items() if k not in default or _normal(default[k]) != _normal(v)]
    return chosen + [(k, _normal(v)) for k, v in options.items()]


def build_seconds(jobs: Iterable[tuple], workers: int) -> float:
    """Expected wall-clock seconds to build puzzles with ``workers`` processes (as many as run at
    once: see ``workers_that_run``). Each job is (variant, size, level), optionally followed by
    rules, options and how many such puzzles."""
    total = 0.0
    for job in jobs:
        variant, size, level, rules, options, count = (tuple(job) + (None, None, 1))[:6]
        total += count * (puzzle_ms(variant, size, level, rules, options) + EXTRA_MS_PER_PUZZLE)
    return total / 1000.0 / max(1, workers)


def cores() -> int:
    """The processor cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def workers_that_run(jobs: int) -> int:
    """The worker processes that really run at once for ``--jobs`` (0: all cores): no more than
    the cores present, however many are asked for."""
    return max(1, min(jobs or cores(), cores()))


def say_duration(seconds: float, t: Callable[[str], str] = lambda text: text) -> str:
    """``about 3 h 20 min``, ``about 12 min``, ``under a minute`` (in ``t``'s language)."""
    if seconds < 60:
        return t("under a minute")
    minutes = round(seconds / 60)
    if minutes < 60:
        return t("about {minutes} min").format(minutes=minutes)
    hours, minutes = divmod(minutes, 60)
    if minutes:
        return t("about {hours} h {minutes} min").format(hours=hours, minutes=minutes)
    return t("about {hours} h").format(hours=hours)
