"""``show_rating: true`` (#25 point 2): each puzzle's rating and estimated minutes printed on a
caption line under its grid, in every page arrangement, format and print size, clear of the
grid, its outside clues, the next row's label, the neighbouring caption and the page foot;
and nothing of it, nor any room for it, without the key. Fast: the puzzle pages are laid out
from the config's own plan with one tiny puzzle per size, and the captions' numbers are set
wide on purpose (ratings 10.0 and up, three-digit minutes), in the widest catalogs."""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO

import pytest

import bookgen.layout.render as render
from bookgen.config import load_book
from bookgen.core.difficulty import Level
from bookgen.core.rng import derive_seed, rng_for
from bookgen.core.types import Grade
from bookgen.i18n import translation
from bookgen.layout.geometry import (
    MM, SLOT_GAP, BookShape, PageSpec, SectionShape, Style, arrange, content_size, plan_book, trim_for,
)
from bookgen.variants.registry import get_variant
from test_layout import TrackingCanvas

CASES = {  # name -> (config lines past the title, language)
    "letter 4-up sudoku": ("page: letter\nper_page: 4\nsections:\n  - {variant: sudoku, size: 9, count: 5}\n", "en"),
    "letter 6-up 6x6 then 4x4": ("page: letter\nsections:\n  - {variant: sudoku, size: 6, count: 2, per_page: 6, difficulty: easy}\n"
                                   "  - {variant: sudoku, size: 4, count: 4, per_page: 6, difficulty: easy}\n", "de"),
    "6x9 large print": ("page: 6x9\nlarge_print: true\nsections:\n  - {variant: kenken, size: 4, count: 3}\n"
                        "  - {variant: skyscrapers, size: 5, count: 2}\n", "de"),
    "6x9 6-up": ("page: 6x9\nsections:\n  - {variant: sudoku, size: 4, count: 7, per_page: 6, difficulty: easy}\n",
                 "ru"),
    "a4 nonogram": ("page: a4\nsections:\n  - {variant: nonogram, size: 10x10, count: 3, per_page: 2}\n", "fr"),
    "a5 kakuro": ("page: {width: 148mm, height: 210mm}\nsections:\n  - {variant: kakuro, size: 6x6, count: 3}\n", "es"),
    "class set": ("page: letter\nlayout: worksheet\nversions: 2\nsections:\n"
                  "  - {variant: takuzu, size: 6, count: 6, per_page: 6}\n", "cs"),
    "a4 large-print worksheet": ("page: a4\nlayout: worksheet\nlarge_print: true\nsections:\n"
                                 "  - {variant: skyscrapers, size: 5, count: 3, per_page: 2}\n", "de"),
}
CLEAR = 1.0 * MM  # the least space between a caption's letters and anything else on its page


class Marks(TrackingCanvas):
    """A tracking canvas that also keeps every mark's box and every text's size, one by one."""

    def _reset(self):
        super()._reset()
        self.cur.update(marks=[], sized=[])
        self._writing = False

    def _cover(self, x0, y0, x1, y1, pad=0.0):
        super()._cover(x0, y0, x1, y1, pad)
        if not self._writing:
            self.cur["marks"].append((min(x0, x1) - pad, min(y0, y1) - pad, max(x0, x1) + pad, max(y0, y1) + pad))

    def _text(self, x, y, text, align):
        self._writing = True
        super()._text(x, y, text, align)
        self._writing = False
        x0, x1, y, _ = self.cur["texts"][-1]
        size = self._fontsize
        self.cur["sized"].append((text, size, (x0, y - 0.24 * size, x1, y + 0.93 * size)))


def _document(shape: BookShape, gutter: float, language: str) -> tuple[render.Document, Marks]:
    """A document drawing on a ``Marks`` canvas."""
    made: list[Marks] = []
    original = render.Canvas
    render.Canvas = lambda *a, **k: made.append(Marks(*a, **k)) or made[-1]
    try:
        doc = render.Document(BytesIO(), render.Cover("Rated", None, None, 1, language=language), shape.spec,
                              shape.style, gutter)
    finally:
        render.Canvas = original
    return doc, made[0]


_PUZZLES: dict = {}


def _puzzle(variant: str, size, rules: dict):
    key = (variant, size, repr(sorted(rules.items())))
    if key not in _PUZZLES:
        v = get_variant(variant)
        _PUZZLES[key] = v.generate(size, v.parse_rules(rules, size), Level.EASY, rng_for(derive_seed(25, 2, len(_PUZZLES))))
    return _PUZZLES[key]


def laid_out(write_config, case: str, show: bool = True):
    """The case's book (with or without ``show_rating``), its entries (puzzles with wide
    ratings and minutes, each caption its own) and every puzzle page drawn: (book, shape,
    entries, [(page plan, marks, content box)])."""
    text, language = CASES[case]
    config = write_config(f"title: Rated\nlanguage: {language}\nshow_rating: {'true' if show else 'false'}\n" + text,
                          "rated")
    book = load_book(config)
    shape = book.shape
    per_version = sum(s.count for s in book.sections)  # a class set: versions A, B ... in turn
    entries = []
    for section in book.sections * book.versions:
        for i in range(section.count):
            k = len(entries)
            puzzle = _puzzle(section.variant, section.size_of(i), dict(section.rules))
            grade = replace(puzzle.grade, rating=10.0 + (k % 10) / 10, minutes=100.0 + k)
            version = "ABC"[k // per_version] if book.versions > 1 else ""
            entries.append(render.Entry(k % per_version + 1, section.title, replace(puzzle, grade=grade),
                                        version=version))
    if shape.worksheet:
        shape = replace(shape, sections=shape.sections * book.versions)
    shape = replace(shape, item_types=render.measured_types(entries))
    plan = plan_book(shape)
    doc, canvas = _document(shape, plan.gutter, language)
    pages = []
    for number, page in enumerate(plan.pages, start=1):
        if page.kind != "puzzles":
            continue
        doc.page = number
        box = doc.content(shape.worksheet)
        if shape.worksheet:
            render.puzzle_page(doc, page, entries, worksheet=True, title="Rated")
        else:
            render.puzzle_page(doc, page, entries, answers=[plan.answer_pages[i] for i in page.items],
                               header=page.header)
        pages.append((page, canvas.pages[-1], box))
    return book, shape, entries, pages


def _captions(doc_language: str, entry: render.Entry) -> tuple[str, ...]:
    """The captions a puzzle may print, longest first."""
    t = translation(doc_language)
    g = entry.puzzle.grade
    whole, _, tenth = f"{g.rating:.1f}".partition(".")
    values = dict(rating=t("{integer}.{fraction}").format(integer=whole, fraction=tenth), minutes=f"{g.minutes:.0f}")
    return tuple(t(form).format(**values) for form in render.RATING_CAPTIONS)


def _gap(a, b) -> float:
    """The distance between two boxes (negative when they overlap)."""
    return max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])


def measure(write_config, case: str) -> tuple[float, float, list[int]]:
    """Lay the case out and check every caption; returns (smallest caption type in pt, least
    gap to any other mark in mm, how many captions took each of ``RATING_CAPTIONS``)."""
    book, shape, entries, pages = laid_out(write_config, case)
    _, language = CASES[case]
    smallest, least, used = 1e9, 1e9, [0] * len(render.RATING_CAPTIONS)
    assert pages
    for page, marks, (x0, y0, x1, y1) in pages:
        texts = marks["sized"]
        for index in page.items:
            forms = _captions(language, entries[index])
            found = [(k, t) for k, t in enumerate(texts) if t[0] in forms]
            assert len(found) == 1, (case, index, forms, [t[0] for t in texts])
            k, (text, size, cbox) = found[0]
            used[forms.index(text)] += 1
            smallest = min(smallest, size)
            assert size >= shape.style.small - 1e-9  # the captions' floor, large print's too
            # on the page, above the foot's band (page number, "Answers on page ...")
            assert x0 - 1e-6 <= cbox[0] and cbox[2] <= x1 + 1e-6 and cbox[1] >= y0 - 1e-6, (case, text)
            others = [t[2] for j, t in enumerate(texts) if j != k]
            drawn = [m for m in marks["marks"] if m != cbox and all(abs(m[i] - cbox[i]) > 1e-6 for i in (0, 2))]
            gaps = [_gap(cbox, o) for o in others + drawn]
            assert min(gaps) >= CLEAR, (case, text, min(gaps) / MM)
            least = min(least, min(gaps))
    return smallest, least / MM, used


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_puzzle_has_its_caption_under_it_clear_of_everything_else(write_config, case):
    smallest, gap, used = measure(write_config, case)
    assert smallest >= 8.5 - 1e-9 and gap >= 1.0
    if case != "6x9 large print":
        assert used[0] == sum(used)  # in words, "about" included, wherever the grid is wide enough
    else:  # a 4x4 KenKen four to a large-print 6 x 9 page is narrower than "Schwierigkeit 10,2 ..."
        assert used[0] and used[2]


def test_a_narrow_grid_gets_the_caption_tighter_never_smaller():
    """The words, then "~" for "about", then the numbers alone: measured at the caption size."""
    style = Style(large_print=True)
    doc = render.Document(BytesIO(), render.Cover("T", None, None, 1, language="de"), PageSpec(trim_for("6x9")),
                          style, 36.0)
    puzzle = replace(_puzzle("kenken", 4, {}), grade=Grade(Level.EASY, 0.2, {}, rating=2.3, minutes=2.0))
    texts = ["Schwierigkeit 2,3 \u00b7 etwa 2 Min.", "Schwierigkeit 2,3 \u00b7 ~2 Min.", "2,3 \u00b7 2 Min."]
    widths = [doc.width(t, style.small) for t in texts]
    assert widths[0] > widths[1] > widths[2]
    for room, want in ((widths[0], 0), (widths[0] - 0.1, 1), (widths[1] - 0.1, 2), (1.0, 2)):
        assert render.rating_caption(doc, puzzle, room) == texts[want]
    assert render.rating_caption(doc, replace(puzzle, grade=Grade(Level.EASY, 0.2, {})), 500) == ""


def test_the_caption_sits_under_its_own_grid_and_above_the_next_rows_label(write_config):
    """The caption of a 4-up page is below its grid's bottom edge and above the 'Puzzle N'
    of the grid under it, not beside the label as the rating once was."""
    _, shape, entries, pages = laid_out(write_config, "letter 4-up sudoku")
    page, marks, _ = pages[0]
    texts = marks["sized"]
    caption = next(t for t in texts if t[0] == _captions("en", entries[page.items[0]])[0])
    label = next(t for t in texts if t[0] == f"Puzzle {entries[page.items[2]].number}")
    own = next(t for t in texts if t[0] == f"Puzzle {entries[page.items[0]].number}")
    assert label[2][3] < caption[2][1] < own[2][1]
    # no rating beside the level: the label line reads as it does without show_rating
    assert not any("10." in t[0] and t[2][1] > caption[2][3] for t in texts if t is not caption)


def test_without_show_rating_no_caption_and_no_room_for_one(write_config):
    for case in ("letter 4-up sudoku", "class set"):
        book, shape, entries, pages = laid_out(write_config, case, show=False)
        assert not book.shape.style.rating_caption and shape.style.caption_h == 0.0
        _, language = CASES[case]
        forms = {f for e in entries for f in _captions(language, e)}
        assert not any(t[0] in forms or "\u00b7 1" in t[0] for _, marks, _ in pages for t in marks["sized"])
        assert laid_out(write_config, case)[1].style.caption_h > 0


def test_caption_room_is_one_line_at_the_caption_size_and_shrinks_the_cells():
    spec = PageSpec(trim_for("6x9"))
    for large in (False, True):
        off, on = Style(large), Style(large, rating_caption=True)
        assert off.caption_h == 0.0 and on.small * 1.17 + 1.125 < on.caption_h < on.small * 2
        # a page whose height sets the cell: the caption's room comes out of the grids
        assert arrange(400, 400, 9, 4, on).cell < arrange(400, 400, 9, 4, off).cell
        shape = BookShape(spec, (SectionShape("S", "sudoku", (9,) * 6),), on, per_page=2)
        plan = plan_book(shape)
        height = content_size(spec, plan.gutter, on, False)[1]
        for page in plan.pages:
            if page.kind == "puzzles":  # label, grid, caption and the gaps between the rows fit
                arr = page.arrangement
                blocks = arr.rows * (on.label_h + 9 * arr.cell + on.caption_h) + (arr.rows - 1) * SLOT_GAP
                assert blocks <= height + 1e-6


def test_the_answer_key_prints_no_rating(write_config):
    """The key is for marking: the rating belongs with the puzzle (docs/printing.md)."""
    book, shape, entries, _ = laid_out(write_config, "letter 4-up sudoku")
    plan = plan_book(shape)
    doc, canvas = _document(shape, plan.gutter, "en")
    keys = [p for p in plan.pages if p.kind == "answers"]
    assert keys
    for page in keys:
        render.answer_page(doc, page, entries, plan.puzzle_pages)
    texts = [t[0] for marks in canvas.pages for t in marks["sized"]]
    assert any(t == str(entries[0].number) for t in texts)
    assert not any("Rating" in t or "min" in t for t in texts)


def test_printing_ratings_keeps_the_puzzles_per_page_that_were_roomy_without(write_config):
    """8x8 Binairo go two to a 6 x 9 page with bleed at 10.1 mm cells; the caption's line would
    take them under the roomy 10 mm and, by the default per_page, one to a page (the series'
    volume 1 went from 106 pages to 138). Roomy is judged without the caption: two to a page,
    at 9.5 mm, over the 8 mm floor."""
    plans = []
    for show in ("false", "true"):
        book = load_book(write_config(f"title: T\npage: 6x9\nbleed: true\nshow_rating: {show}\nsections:\n"
                                      "  - {variant: takuzu, size: 8, count: 8}\n", "roomy"))
        plans.append([p for p in plan_book(book.shape).pages if p.kind == "puzzles"])
    off, on = plans
    assert [p.arrangement.count for p in on] == [p.arrangement.count for p in off] == [2] * 4
    assert Style().min_cell <= on[0].arrangement.cell < off[0].arrangement.cell
