"""Vector symbols (pure geometry, in cell units): sun and moon for Tango.

Drawn as polygons rather than font glyphs so they print crisply at any size
and read in black and white.
"""

from __future__ import annotations

import math
from functools import lru_cache

from bookgen.core.pen import Point

SUN_CORE = 0.17
SUN_RAY_IN, SUN_RAY_OUT, SUN_RAYS = 0.22, 0.34, 8
MOON_R = 0.3
MOON_CUT = (0.13, -0.1, 0.25)  # dx, dy, radius of the circle that bites the crescent


def sun_rays(cx: float, cy: float) -> list[list[Point]]:
    """Triangular rays around a sun centred at (cx, cy)."""
    return [[(cx + dx, cy + dy) for dx, dy in ray] for ray in _ray_offsets()]


@lru_cache(maxsize=None)
def _ray_offsets() -> tuple[tuple[Point, ...], ...]:
    # The same products as summed in place before, so every point is the same float.
    rays = []
    half = math.pi / SUN_RAYS * 0.45
    for k in range(SUN_RAYS):
        a = 2 * math.pi * k / SUN_RAYS
        rays.append((
            (SUN_RAY_IN * math.cos(a - half), SUN_RAY_IN * math.sin(a - half)),
            (SUN_RAY_OUT * math.cos(a), SUN_RAY_OUT * math.sin(a)),
            (SUN_RAY_IN * math.cos(a + half), SUN_RAY_IN * math.sin(a + half)),
        ))
    return tuple(rays)


def _arc(cx, cy, r, a0, a1, steps) -> list[Point]:
    return [(cx + dx, cy + dy) for dx, dy in _arc_offsets(r, a0, a1, steps)]


@lru_cache(maxsize=None)
def _arc_offsets(r, a0, a1, steps) -> tuple[Point, ...]:
    return tuple((r * math.cos(a0 + (a1 - a0) * i / steps), r * math.sin(a0 + (a1 - a0) * i / steps))
                 for i in range(steps + 1))


def crescent(cx: float, cy: float, steps: int = 28) -> list[Point]:
    """A crescent: the disc of radius MOON_R minus an offset disc, as one polygon.

    Drawing a Tango book computes thousands of these: the geometry relative
    to the centre is worked out once (``_arc_offsets``) and only moved here.
    """
    dx, dy, r2 = MOON_CUT
    r1 = MOON_R
    d = math.hypot(dx, dy)
    # where the two circles cross, seen from each centre
    a = (r1 * r1 - r2 * r2 + d * d) / (2 * d)
    h = math.sqrt(r1 * r1 - a * a)
    base = math.atan2(dy, dx)
    spread1 = math.atan2(h, a)
    spread2 = math.atan2(h, a - d)
    # outer arc: the long way round, away from the biting disc
    outer = _arc(cx, cy, r1, base + spread1, base + 2 * math.pi - spread1, steps)
    # inner arc: the biting disc's edge inside the moon, back to the start
    inner = _arc(cx + dx, cy + dy, r2, base - spread2 + 2 * math.pi, base + spread2, steps)
    return outer + inner
