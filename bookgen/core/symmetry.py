"""Grid symmetries and puzzle fingerprints.

Two puzzles are "the same puzzle" when one is the other turned, mirrored or
transposed (the eight symmetries of the square; a rectangle that is not square
has four: identity, half turn and the two mirrors) and, for variants whose
symbols are interchangeable, with its symbols relabelled. A fingerprint is a
short hash of a canonical form: the smallest, over the eight symmetries, of
the puzzle's clues written out after the symmetry (and after relabelling
the symbols in order of first appearance, which makes the form the same for
every relabelling at once). Only what the player is given counts: givens,
signs, cages and the rule options; the solution follows from them.

The pieces are shared: binary grids relabel two symbols, Sudoku will
relabel nine digits with the same ``first_seen`` helper, KenKen relabels
nothing because arithmetic fixes the digits.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Callable, Iterable, Mapping, Sequence

from bookgen.core.types import EMPTY, Cell

Symmetry = Callable[[Cell], Cell]
FINGERPRINT_HEX = 16  # 64 bits: collisions among a few million puzzles stay unlikely


def symmetries(n: int, cols: int | None = None) -> list[Symmetry]:
    """The eight symmetries of an N x N grid as cell maps, identity first; with ``cols``
    other than ``n``, the four of an ``n`` x ``cols`` rectangle (a quarter turn or a
    transpose would make it ``cols`` x ``n``, another grid)."""
    if cols is not None and cols != n:
        last_row, last_col = n - 1, cols - 1
        return [
            lambda p: (p[0], p[1]),                        # identity
            lambda p: (last_row - p[0], last_col - p[1]),  # half turn
            lambda p: (p[0], last_col - p[1]),             # mirror left-right
            lambda p: (last_row - p[0], p[1]),             # mirror top-bottom
        ]
    m = n - 1
    return [
        lambda p: (p[0], p[1]),          # identity
        lambda p: (p[1], m - p[0]),      # quarter turn clockwise
        lambda p: (m - p[0], m - p[1]),  # half turn
        lambda p: (m - p[1], p[0]),      # quarter turn anticlockwise
        lambda p: (p[0], m - p[1]),      # mirror left-right
        lambda p: (m - p[0], p[1]),      # mirror top-bottom
        lambda p: (p[1], p[0]),          # transpose
        lambda p: (m - p[1], m - p[0]),  # anti-transpose
    ]


def moved_rows(rows: Sequence[str], move: Symmetry) -> list[str]:
    """The grid ``rows`` after ``move``: the symbol at cell p lands on ``move(p)`` (a move of
    ``symmetries``: a rectangle keeps its shape)."""
    out = [[EMPTY] * len(rows[0]) for _ in rows] if rows else []
    for r, row in enumerate(rows):
        for c, symbol in enumerate(row):
            r2, c2 = move((r, c))
            out[r2][c2] = symbol
    return ["".join(row) for row in out]


def first_seen(rows: Sequence[str], empty: str = EMPTY) -> str:
    """The grid read row by row with symbols renamed a, b, c ... in order of first
    appearance: the same string for every relabelling of the symbols."""
    names: dict[str, str] = {}
    out = []
    for row in rows:
        for symbol in row:
            if symbol == empty:
                out.append(empty)
            else:
                out.append(names.setdefault(symbol, chr(ord("a") + len(names))))
        out.append("/")
    return "".join(out)


def moved_cells(cells: Iterable[Cell], move: Symmetry) -> tuple[Cell, ...]:
    """Cells after ``move``, sorted (so the order they were listed in doesn't count)."""
    return tuple(sorted(move(cell) for cell in cells))


def canonical_fingerprint(kind: str, rules: Mapping[str, Any], forms: Iterable[str]) -> str:
    """The fingerprint of a puzzle from its forms under every symmetry: a hash of the
    variant, size and rules (``kind``) and the smallest form."""
    rules_text = json.dumps({k: list(v) if isinstance(v, (tuple, list)) else v
                             for k, v in sorted(rules.items())}, sort_keys=True)
    text = f"{kind}|{rules_text}|{min(forms)}"
    return hashlib.sha256(text.encode()).hexdigest()[:FINGERPRINT_HEX]


def grid_fingerprint(kind: str, rules: Mapping[str, Any], givens: Sequence[str], relabel: bool,
                     clues: Callable[[Symmetry], str] = lambda move: "") -> str:
    """The fingerprint of a grid puzzle: its ``givens`` (relabelled by first appearance
    when the variant's symbols are interchangeable) and whatever ``clues`` writes out for
    each symmetry (signs, cages, inequalities), for all eight symmetries of a square or
    the four of a rectangle."""
    forms = []
    for move in symmetries(len(givens), len(givens[0]) if givens else 0):
        rows = moved_rows(givens, move)
        forms.append((first_seen(rows) if relabel else "/".join(rows)) + "|" + clues(move))
    return canonical_fingerprint(kind, rules, forms)
