"""Named helpers for ints used as bit sets (after python-chess's ``scan_forward``).

A line of a grid, a set of lines or a set of patterns is one int; these say
what an inline ``while mask: low = mask & -mask ...`` loop means.
"""

from __future__ import annotations

from typing import Iterator


def lowest(mask: int) -> int:
    """The index of the lowest set bit (``mask`` non-zero)."""
    return (mask & -mask).bit_length() - 1


def scan_forward(mask: int) -> Iterator[int]:
    """The indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def scan_reversed(mask: int) -> Iterator[int]:
    """The indices of the set bits, highest first."""
    while mask:
        top = mask.bit_length() - 1
        yield top
        mask ^= 1 << top


def nth_bit(mask: int, i: int) -> int:
    """The index of the ``i``-th set bit of ``mask``, counting from the lowest (0) up."""
    for _ in range(i):
        mask &= mask - 1  # drop the lowest set bit
    return lowest(mask)


def bits_of(indices) -> int:
    """The bit set holding ``indices``."""
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask
