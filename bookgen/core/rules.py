"""Rule sentences that say what a child needs to know of the sizes a rule set prints.

A rules text never says "1 to N": it names the digits of each grid size it covers
("the digits 1 to 9"), the shape of the boxes ("each bold 2×3 box", a rectangle,
which some languages call by another word than a 3×3 square: the sentence is
translated in the context ``square box`` or ``rectangular box``), and for the binary
grids how many of each symbol a line holds at that size (in the language's plural
forms). A rule set used at several sizes says it per size, in one sentence.

``printed_rules`` is how the layout asks a variant for its rules: with the sizes when
the variant's ``rules_for`` takes them.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Mapping, Sequence

from bookgen.core.i18n import C_, N_, Plural, Text


def grid(size: int) -> str:
    """A grid's size as printed: ``9×9``."""
    return f"{size}\u00d7{size}"


def _sizes_list(parts: list[str]) -> str:
    """Per-size parts of one sentence, separated by semicolons."""
    if len(parts) == 1:
        return parts[0]
    return Text(N_("{first}; {rest}"), first=parts[0], rest=_sizes_list(parts[1:]))


def latin_rule(sizes: Sequence[int]) -> str:
    """Rows and columns (Futoshiki, Calcudoku): each digit of the size once."""
    sizes = sorted(set(sizes))
    if len(sizes) == 1:
        return Text(N_("Fill the grid so that every row and every column holds each of the digits "
                       "1 to {last} exactly once."), last=sizes[0])
    return Text(N_("Fill the grid so that every row and every column holds each digit exactly once: {sizes}."),
                sizes=_sizes_list([Text(N_("on {grid} grids the digits 1 to {last}"), grid=grid(n), last=n)
                                   for n in sizes]))


def sized_rule(sizes: Sequence[int], one: str, many: str, each: str) -> str:
    """A rule that names the symbols of each size: ``one`` (with ``{last}``) for a single
    size, else ``many`` (with ``{sizes}``), listing ``each`` (``{grid}``, ``{last}``) per size."""
    sizes = sorted(set(sizes))
    if len(sizes) == 1:
        return Text(one, last=sizes[0])
    return Text(many, sizes=_sizes_list([Text(each, grid=grid(n), last=n) for n in sizes]))


def box_context(box: tuple[int, int]) -> str:
    """The msgctxt of a sentence naming a box: a square and a rectangle are different
    words in some languages (Czech čtverec, obdélník)."""
    return "square box" if box[0] == box[1] else "rectangular box"


def box_rule(sizes: Sequence[int], boxes: Mapping[int, tuple[int, int]]) -> str:
    """Rows, columns and boxes (Sudoku, Killer): each digit of the size once, in boxes of
    ``boxes[size]`` (rows × columns)."""
    sizes = sorted(set(sizes))
    if len(sizes) == 1:
        n = sizes[0]
        rows, cols = boxes[n]
        if rows == cols:
            return Text(C_("square box", "Fill the grid so that every row, every column and every bold "
                                         "{box} box holds each of the digits 1 to {last} exactly once."),
                        context="square box", box=f"{rows}\u00d7{cols}", last=n)
        return Text(C_("rectangular box", "Fill the grid so that every row, every column and every bold "
                                          "{box} box holds each of the digits 1 to {last} exactly once."),
                    context="rectangular box", box=f"{rows}\u00d7{cols}", last=n)
    parts = []
    for n in sizes:
        rows, cols = boxes[n]
        if rows == cols:
            parts.append(Text(C_("square box", "on {grid} grids the digits 1 to {last} and {box} boxes"),
                              context="square box", grid=grid(n), last=n, box=f"{rows}\u00d7{cols}"))
        else:
            parts.append(Text(C_("rectangular box", "on {grid} grids the digits 1 to {last} and {box} boxes"),
                              context="rectangular box", grid=grid(n), last=n, box=f"{rows}\u00d7{cols}"))
    return Text(N_("Fill the grid so that every row, every column and every bold box holds each digit "
                   "exactly once: {sizes}."), sizes=_sizes_list(parts))


def balance_rule(sizes: Sequence[int], counted: Callable[[int], str], as_many: str, each: Callable[[int, int], str]) -> str:
    """How many of each symbol a line of a binary grid holds: ``counted(half)`` for one
    size, else ``as_many`` (a sentence with ``{sizes}``) and ``each(half, size)`` per size."""
    sizes = sorted(set(sizes))
    if len(sizes) == 1:
        return counted(sizes[0] // 2)
    return Text(as_many, sizes=_sizes_list([each(n // 2, n) for n in sizes]))


def per_size(count: int, size: int) -> str:
    """``3 of each on 6×6 grids``: a binary grid's balance at one size."""
    return Plural("{count} of each on {grid} grids", "{count} of each on {grid} grids", count, grid=grid(size))


def printed_rules(variant: Any, rules: Mapping[str, Any], sizes: Sequence[int] = ()) -> tuple[str, ...]:
    """The variant's rules for ``sizes`` (all the sizes the rule set prints): through
    ``rules_for(rules, sizes)`` where the variant takes the sizes, else ``rules_for(rules)``."""
    if sizes and "sizes" in inspect.signature(variant.rules_for).parameters:
        return tuple(variant.rules_for(rules, tuple(sizes)))
    return tuple(variant.rules_for(rules))
