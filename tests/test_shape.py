"""A puzzle is more than a square: the shape types, the layout asking the variant for a
puzzle's extent, and shared code that never names a variant."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from sources import nodes

import bookgen
from bookgen.book import puzzle_json
from bookgen.core.types import OutsideClues, Puzzle
from bookgen.core.variant import Extent, VariantDefaults
from bookgen.layout.geometry import Style, arrange, grid_origin, key_pages, span
from bookgen.variants.registry import VARIANTS

ROOT = Path(bookgen.__file__).parent


def _literals(every: Sequence[ast.AST]) -> list[ast.Constant]:
    """Every string constant of a module (``every``: its nodes) that is not documentation: a
    docstring, or the string statement under a model's field that documents it (the config
    reference reads those)."""
    docs = {id(node.value) for node in every if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    return [n for n in every if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def _named_variants(source: str | Path) -> list[str]:
    """Where a module (its text, or the path of a module of the package) names a variant: a
    string (not a docstring) holding a variant's name or alias as a word, or an import from one
    variant's module."""
    every = tuple(ast.walk(ast.parse(source))) if isinstance(source, str) else nodes(source)
    names = {alias for v in VARIANTS.values() for alias in (v.name, *v.aliases)}
    word = re.compile(r"\b(" + "|".join(sorted(map(re.escape, names))) + r")\b", re.IGNORECASE)
    out = []
    for node in _literals(every):
        hit = word.search(node.value)
        if hit:
            out.append(f"line {node.lineno}: {hit.group(0)!r} in {node.value[:60]!r}")
    modules = {v.__class__.__module__ for v in VARIANTS.values()}
    for node in every:
        if isinstance(node, ast.ImportFrom) and node.module in modules:
            out.append(f"line {node.lineno}: imports from {node.module}")
        elif isinstance(node, ast.Import):
            out += [f"line {node.lineno}: imports {a.name}" for a in node.names if a.name in modules]
    return out


def test_no_module_outside_variants_names_a_variant():
    # docgen.py writes the config reference's prose, which names puzzles as examples; its
    # per-variant tables come from the registry (each variant's ``rule_help``).
    files = [p for p in ROOT.rglob("*.py") if "variants" not in p.relative_to(ROOT).parts
             and p.name != "docgen.py"]
    assert len(files) >= 20
    found = {str(p.relative_to(ROOT)): hits for p in files
             if (hits := _named_variants(p))}
    assert not found, found


def test_the_name_check_can_fail():
    assert _named_variants('x = variant.name in ("takuzu", "tango")\n')
    assert _named_variants('msg = f"a {n}x{n} Futoshiki"\n')
    assert _named_variants("from bookgen.variants.kenken import MAX_CAGE\n")
    assert not _named_variants('"""A docstring may say KenKen."""\nx = "rows and columns"  # Sudoku\n')


def test_puzzle_rows_and_cols():
    square = Puzzle("x", 5, {}, ("." * 5,) * 5, ("." * 5,) * 5)
    assert (square.rows, square.cols) == (5, 5)
    wide = Puzzle("x", (3, 7), {}, ("." * 7,) * 3, ("." * 7,) * 3)
    assert (wide.rows, wide.cols) == (3, 7)
    clued = Puzzle("x", 4, {}, ("....",) * 4, ("....",) * 4, clues=OutsideClues((1, 0, 2, 0), (), (), ()),
                   regions=("AABB",) * 4)
    assert clued.clues.top == (1, 0, 2, 0) and clued.regions[0] == "AABB"


def test_json_has_rows_and_cols_for_every_square_variant():
    for variant in VARIANTS.values():
        if variant.rectangular:  # size [rows, cols]: tests/test_rectangles.py
            continue
        n = variant.default_size
        puzzle = Puzzle(variant.name, n, variant.parse_rules({}, n), ("." * n,) * n, ("." * n,) * n)
        entry = puzzle_json(1, puzzle, 1, print_="-")
        assert (entry["size"], entry["rows"], entry["cols"]) == (n, n, n), variant.name


def test_square_variants_take_their_grid_and_nothing_more():
    for variant in VARIANTS.values():
        for n in variant.sizes:
            ext = variant.extent(n, variant.parse_rules({}, n))
            if ext.width == ext.height == n:
                assert (ext.rows, ext.cols) == (n, n)
            else:  # outside clues: the grid is still N x N, the margins hold the clues
                assert (ext.rows, ext.cols) == (n, n) and min(ext.top, ext.left) > 0, variant.name
    assert VariantDefaults().extent(6, {}) == Extent(6, 6)


def test_margins_shrink_the_cell_and_move_the_grid():
    style = Style()
    plain = arrange(250.0, 300.0, 6, 1, style).cell
    framed = arrange(250.0, 300.0, Extent(6, 6, 1, 1, 1, 1), 1, style).cell
    assert arrange(250.0, 300.0, Extent(6, 6), 1, style).cell == plain
    assert framed < plain
    assert span(Extent(3, 7, 0.5, 0, 1, 0)) == (8, 3.5)
    assert grid_origin(Extent(6, 6, 1, 0, 0.5, 0), 100.0, 500.0, 20.0) == (110.0, 480.0)
    assert grid_origin(6, 100.0, 500.0, 20.0) == (100.0, 500.0)


def test_answer_key_rows_are_as_tall_as_their_extent():
    style = Style()
    square = key_pages([6] * 8, 500.0, 700.0, style, "Answers")
    framed = key_pages([Extent(6, 6, 1, 1, 1, 1)] * 8, 500.0, 700.0, style, "Answers")
    assert square == key_pages([Extent(6, 6)] * 8, 500.0, 700.0, style, "Answers")
    (_, tall, _), = framed[0].rows[:1]
    (_, short, _), = square[0].rows[:1]
    assert tall > short
