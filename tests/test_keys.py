"""Answer keys drawn for reading and Futoshiki as newspapers print it (#24.1, #24.2):
measured with a recording pen, in points at the smallest cell each is printed at."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from bookgen.core.pen import CAP_HEIGHT, CENTER, RecordingPen
from bookgen.core.types import Cage, Edge, OutsideClues, Puzzle
from bookgen.solve.latin import symbol, value
from bookgen.solve import stars
from bookgen.solve.skyscrapers import clues_of
from bookgen.layout.fonts import FONT, FONT_BOLD, register_fonts
from bookgen.layout.geometry import BOLD, THIN, Style
from bookgen.variants.regions import region_rows
from bookgen.variants.registry import VARIANTS, get_variant

CLEAR = 0.5  # points: the least white between two marks that must not touch
STARS = ("starbattle", "queens")  # keys that show a star where there is one, nothing in an empty cell


def sample(name: str, n: int) -> Puzzle:
    """A solved grid of every variant and size with the most a key could carry: half the
    cells given, a sign on every edge, two-cell cages with two-digit sums."""
    variant = get_variant(name)
    rules = variant.parse_rules({}, n)
    if name in STARS:  # a real star layout: stars, regions grown around them, no givens
        star = stars.random_stars(n, rules["stars"], random.Random(n))
        regions = region_rows(stars.grow_regions(n, rules["stars"], star, random.Random(n)), n)
        return Puzzle(name, n, rules, ("." * n,) * n, stars.star_rows(star, n), regions=regions)
    if name in ("takuzu", "tango", "nonogram"):
        rows = ["".join("01"[((r // 2) + c) % 2] for c in range(n)) for r in range(n)]
    else:
        rows = ["".join(symbol((r * (n // 3 if n % 3 == 0 and n > 3 else 1) + r // 3 + c) % n + 1)
                        for c in range(n)) for r in range(n)]
    givens = tuple("".join(ch if (r + c) % 2 else "." for c, ch in enumerate(row)) for r, row in enumerate(rows))
    edges, cages = [], []
    for r in range(n):
        for c in range(n):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < n and c2 < n:
                    sign = ("<" if rows[r][c] < rows[r2][c2] else ">") if name == "futoshiki" else \
                        ("=" if rows[r][c] == rows[r2][c2] else "x")
                    edges.append(Edge((r, c), (r2, c2), sign))
    if name in ("kenken", "killer"):
        givens = ("." * n,) * n if name == "kenken" else givens
        for r in range(n):
            for c in range(0, n - 1, 2):
                cages.append(Cage(((r, c), (r, c + 1)), "+", 17))
            if n % 2:
                cages.append(Cage(((r, n - 1),), "", 9))
    # what the shape carries: irregular regions (here each a row) and clues outside the grid
    regions = tuple(chr(ord("A") + r) * n for r in range(n)) if name == "jigsaw" else ()
    clues = None
    if name == "skyscrapers":
        clues = OutsideClues(**clues_of([[value(ch) for ch in row] for row in rows]))
    return Puzzle(name, n, rules, givens, tuple(rows),
                  edges=tuple(edges) if name in ("futoshiki", "tango") else (), cages=tuple(cages),
                  regions=regions, clues=clues)


class GlyphPen(RecordingPen):
    """Records like its parent, but a stamp (a sign, a sun) as one glyph: its outline's box."""

    def stamp(self, key, x, y, draw):
        inner = RecordingPen()
        draw(inner)
        xs, ys = [], []
        for op in inner.ops:
            if op[0] == "polygon":
                xs += [p[0] for p in op[1]]
                ys += [p[1] for p in op[1]]
            elif op[0] == "circle":
                xs += [op[1] - op[3], op[1] + op[3]]
                ys += [op[2] - op[3], op[2] + op[3]]
        self.ops.append(("stamp", x + min(xs), y + min(ys), x + max(xs), y + max(ys), key))


def marks(pen: RecordingPen, unit: float, thin: float = THIN, bold: float = BOLD):
    """(glyphs, lines) as drawn, in points: each text's ink box and each sign's outline box;
    each stroke as a box its width wide."""
    register_fonts()
    glyphs, lines = [], []
    for op in pen.ops:
        if op[0] == "text":
            _, x, y, s, cap, is_bold, anchor, _ = op
            w = stringWidth(s, FONT_BOLD if is_bold else FONT, cap / CAP_HEIGHT * unit)
            h = cap * unit
            x0 = x * unit - (w / 2 if anchor == CENTER else 0.0)
            y0 = y * unit - (h / 2 if anchor == CENTER else 0.0)
            glyphs.append(("text " + s, (x0, y0, x0 + w, y0 + h)))
        elif op[0] == "stamp":
            glyphs.append((op[5], tuple(v * unit for v in op[1:5])))
        elif op[0] == "polygon":
            xs, ys = [p[0] * unit for p in op[1]], [p[1] * unit for p in op[1]]
            glyphs.append(("shape", (min(xs), min(ys), max(xs), max(ys))))
        elif op[0] == "circle":
            _, cx, cy, r, *_ = op
            glyphs.append(("disc", ((cx - r) * unit, (cy - r) * unit, (cx + r) * unit, (cy + r) * unit)))
        elif op[0] == "line":
            _, x1, y1, x2, y2, weight = op
            half = (bold if weight == "bold" else thin) / 2
            lines.append((min(x1, x2) * unit - half, min(y1, y2) * unit - half,
                          max(x1, x2) * unit + half, max(y1, y2) * unit + half))
        elif op[0] == "rect" and op[6]:
            _, x, y, w, h, _, weight = op
            half = (bold if weight == "bold" else thin) / 2
            for x1, y1, x2, y2 in ((x, y, x + w, y), (x, y + h, x + w, y + h), (x, y, x, y + h), (x + w, y, x + w, y + h)):
                lines.append((x1 * unit - half, y1 * unit - half, x2 * unit + half, y2 * unit + half))
    return glyphs, lines


def gap(a, b) -> float:
    """The white between two boxes (negative when they overlap)."""
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])


def clearances(glyphs, lines):
    """The least white from a glyph to another glyph and to a line."""
    to_glyph = min((gap(a[1], b[1]) for k, a in enumerate(glyphs) for b in glyphs[k + 1:]), default=99.0)
    to_line = min((gap(a[1], line) for a in glyphs for line in lines), default=99.0)
    return to_glyph, to_line


CASES = [(name, n) for name in sorted(VARIANTS) for n in VARIANTS[name].sizes]


@pytest.mark.parametrize("name,n", CASES, ids=[f"{a}-{b}" for a, b in CASES])
def test_answer_keys_show_only_answers_and_no_glyph_touches_another_or_a_line(name, n):
    """At the smallest key cell (normal and large print), a key carries digits or symbols and
    lines, no sign, sum or clue text, and every glyph has white around it."""
    variant = get_variant(name)
    puzzle = sample(name, n)
    pen = GlyphPen(key=True)
    variant.draw(pen, puzzle, solved=True)
    assert not [op for op in pen.ops if op[0] == "text" and op[-1]], "clue text in a key"
    # what states the puzzle leaves no mark: the same key without its signs, and with other sums
    bare = GlyphPen(key=True)
    variant.draw(bare, replace(puzzle, edges=(), cages=tuple(replace(c, target=1) for c in puzzle.cages)),
                 solved=True)
    assert bare.ops == pen.ops
    answers = [op for op in pen.ops if op[0] in ("text", "stamp")]
    picture = [op for op in pen.ops if op[0] == "rect" and op[5] == 0.0]  # a key that is the picture itself
    shown = sum(row.count("1") for row in puzzle.solution) if name in STARS else n * n
    assert len(answers) == shown or (not answers and len(picture) == "".join(puzzle.solution).count("1"))
    for style in (Style(), Style(large_print=True)):
        unit = style.key_cell[0] * variant.extent(n, puzzle.rules).key_scale  # the layout's least key cell
        glyphs, lines = marks(pen, unit)
        to_glyph, to_line = clearances(glyphs, lines)
        assert to_glyph >= CLEAR and to_line >= CLEAR, (name, n, style.large_print, to_glyph, to_line)
        digits = [op for op in answers if op[0] == "text"]
        if digits:
            assert min(op[4] for op in digits) / CAP_HEIGHT * unit >= style.min_key_type - 1e-6


def test_a_puzzle_still_draws_what_its_key_leaves_out():
    """The key's omissions are the pen's doing: the same puzzle on a page keeps its signs and sums."""
    for name in ("futoshiki", "killer", "tango"):
        puzzle = sample(name, 6)
        pen, bare = RecordingPen(), RecordingPen()
        get_variant(name).draw(pen, puzzle)
        get_variant(name).draw(bare, replace(puzzle, edges=(), cages=()))
        assert len(pen.ops) > len(bare.ops), name


@pytest.mark.parametrize("n", VARIANTS["futoshiki"].sizes)
def test_futoshiki_cells_stand_apart_with_the_signs_in_the_gaps(n):
    """Each cell a box of its own; every sign in the gap between two boxes, clear of every
    digit, every box line and every given's grey, at the smallest cell a page prints."""
    puzzle = sample("futoshiki", n)
    pen = GlyphPen()
    get_variant("futoshiki").draw(pen, puzzle, solved=True)
    boxes = [op for op in pen.ops if op[0] == "rect"]
    assert len(boxes) == n * n and all(op[6] for op in boxes)
    assert not [op for op in pen.ops if op[0] == "line"]  # no shared grid lines
    assert len([op for op in pen.ops if op[0] == "stamp"]) == len(puzzle.edges)
    for style in (Style(), Style(large_print=True)):
        unit = style.min_cell
        glyphs, lines = marks(pen, unit)
        shading = [(op[1] * unit, op[2] * unit, (op[1] + op[3]) * unit, (op[2] + op[4]) * unit)
                   for op in boxes if op[5] is not None]
        assert shading
        signs = [g for g in glyphs if not isinstance(g[0], str)]
        digits = [g for g in glyphs if isinstance(g[0], str)]
        for _, sign in signs:
            assert min(gap(sign, d[1]) for d in digits) >= CLEAR
            assert min(gap(sign, line) for line in lines) >= CLEAR
            assert min(gap(sign, box) for box in shading) >= CLEAR
        # the boxes themselves are apart: the gap between neighbours is white
        first, right = boxes[0], boxes[1]
        assert (right[1] - first[1] - first[3]) * unit >= 3 * CLEAR


def test_a_section_keeps_one_cell_size_and_its_short_last_page_is_not_enlarged(write_config):
    """Five 6x6 Futoshiki at four a page: the fifth sits alone on its page, centred, at the
    cell the other four got (the last page once grew from 10.1 to 13.5 mm)."""
    from bookgen.config import load_book
    from bookgen.layout.geometry import plan_book

    for variant in sorted(VARIANTS):
        n = VARIANTS[variant].sizes[1]  # 4x4 to 6x6: four fit a letter page
        book = load_book(write_config(f"title: T\npage: letter\nsections:\n  - variant: {variant}\n"
                                      f"    size: {n}\n    count: 5\n    difficulty: easy\n    per_page: 4\n"))
        pages = [p for p in plan_book(book.shape).pages if p.kind == "puzzles"]
        assert [len(p.items) for p in pages] == [4, 1]
        assert pages[0].arrangement.cell == pages[1].arrangement.cell, variant
        assert pages[1].arrangement.count == 1  # laid out alone: centred on its page
