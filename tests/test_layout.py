"""Print-ready layout: page boxes, margins and gutters, drawn bounds, worksheets,
page formats in the config, and determinism for every format."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

import bookgen.layout.render as render
from bookgen.book import build, rule_sets, worked_example
from bookgen.config import ConfigError, load_book
from bookgen.layout.walkthrough import sentence
from bookgen.variants.registry import get_variant
from bookgen.layout.geometry import (
    INCH, MM, BookShape, PageSpec, SectionShape, Style, content_size, fit_problem, fit_problems,
    comfortable_gutter, gutter_for, plan_book, trim_for,
)

ROOT = Path(__file__).resolve().parent.parent
_NUM = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)")  # reportlab writes 0.5 as .5


class TrackingCanvas(Canvas):
    """A reportlab canvas that records, per page, the box every mark covers, the
    strings drawn and the thinnest stroke, so tests can check them against the page.

    Marks made inside a form (a pen's stamp) count where the form is placed, as
    often as it is placed; only translations move the origin (the pens use no other)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pages: list[dict] = []
        self.forms: dict[str, dict] = {}
        self.origin, self.origins, self.page_marks = (0.0, 0.0), [], None
        self._reset()

    def _reset(self):
        self.cur = {"box": [1e9, 1e9, -1e9, -1e9], "texts": [], "thinnest": 1e9}

    def _mark(self, x0, y0, x1, y1, stroke=True):
        pad = self._lineWidth / 2 if stroke else 0.0
        if stroke:
            self.cur["thinnest"] = min(self.cur["thinnest"], self._lineWidth)
        self._cover(x0 + self.origin[0], y0 + self.origin[1], x1 + self.origin[0], y1 + self.origin[1], pad)

    def _cover(self, x0, y0, x1, y1, pad=0.0):
        b = self.cur["box"]
        b[0], b[1] = min(b[0], min(x0, x1) - pad), min(b[1], min(y0, y1) - pad)
        b[2], b[3] = max(b[2], max(x0, x1) + pad), max(b[3], max(y0, y1) + pad)

    def saveState(self):
        self.origins.append(self.origin)
        super().saveState()

    def restoreState(self):
        self.origin = self.origins.pop()
        super().restoreState()

    def translate(self, dx, dy):
        self.origin = (self.origin[0] + dx, self.origin[1] + dy)
        super().translate(dx, dy)

    def beginForm(self, name, *args, **kwargs):
        self.page_marks = (self.cur, self.origin, self.origins, name)
        self.origin, self.origins = (0.0, 0.0), []
        self._reset()
        super().beginForm(name, *args, **kwargs)

    def endForm(self, **kwargs):
        super().endForm(**kwargs)
        *page, name = self.page_marks
        self.forms[name] = self.cur
        self.cur, self.origin, self.origins = page

    def doForm(self, name):
        form = self.forms[name]
        (x0, y0, x1, y1), (ox, oy) = form["box"], self.origin
        if x0 <= x1:
            self._cover(x0 + ox, y0 + oy, x1 + ox, y1 + oy)
        self.cur["thinnest"] = min(self.cur["thinnest"], form["thinnest"])
        self.cur["texts"] += [(a + ox, b + ox, y + oy, t) for a, b, y, t in form["texts"]]
        super().doForm(name)

    def line(self, x1, y1, x2, y2):
        if self._lineCap == 0 and (x1 == x2 or y1 == y2):
            # butt caps end flush: only the width across the line adds to its box
            pad = self._lineWidth / 2
            self.cur["thinnest"] = min(self.cur["thinnest"], self._lineWidth)
            dx, dy = (pad, 0.0) if x1 == x2 else (0.0, pad)
            self._mark(x1 - dx, y1 - dy, x2 + dx, y2 + dy, stroke=False)
        else:
            self._mark(x1, y1, x2, y2)
        super().line(x1, y1, x2, y2)

    def rect(self, x, y, width, height, stroke=1, fill=0):
        self._mark(x, y, x + width, y + height, bool(stroke))
        super().rect(x, y, width, height, stroke=stroke, fill=fill)

    def circle(self, x_cen, y_cen, r, stroke=1, fill=0):
        self._mark(x_cen - r, y_cen - r, x_cen + r, y_cen + r, bool(stroke))
        super().circle(x_cen, y_cen, r, stroke=stroke, fill=fill)

    def drawPath(self, aPath, stroke=1, fill=0, **kw):
        nums = [float(v) for op in aPath._code for v in _NUM.findall(op)]
        xs, ys = nums[0::2], nums[1::2]
        self._mark(min(xs), min(ys), max(xs), max(ys), bool(stroke))
        super().drawPath(aPath, stroke=stroke, fill=fill, **kw)

    def _text(self, x, y, text, align):
        w = stringWidth(text, self._fontname, self._fontsize)
        x0 = {"left": x, "center": x - w / 2, "right": x - w}[align]
        self._mark(x0, y - 0.24 * self._fontsize, x0 + w, y + 0.93 * self._fontsize, stroke=False)
        ox, oy = self.origin
        self.cur["texts"].append((x0 + ox, x0 + w + ox, y + oy, text))

    def drawString(self, x, y, text, *a, **kw):
        self._text(x, y, text, "left")
        super().drawString(x, y, text, *a, **kw)

    def drawCentredString(self, x, y, text, *a, **kw):
        self._text(x, y, text, "center")
        super().drawCentredString(x, y, text, *a, **kw)

    def drawRightString(self, x, y, text, *a, **kw):
        self._text(x, y, text, "right")
        super().drawRightString(x, y, text, *a, **kw)

    def showPage(self):
        self.pages.append(self.cur)
        self._reset()
        super().showPage()


@pytest.fixture
def tracked(monkeypatch):
    """Every canvas the renderer opens, recording its marks."""
    made: list[TrackingCanvas] = []

    def factory(*args, **kwargs):
        canvas = TrackingCanvas(*args, **kwargs)
        made.append(canvas)
        return canvas

    monkeypatch.setattr(render, "Canvas", factory)
    return made


def _fonts_embedded(reader: PdfReader) -> set[str]:
    fonts = set()
    for page in reader.pages:
        for font in ((page.get("/Resources") or {}).get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            assert descriptor is not None and any(
                k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3")), font
            fonts.add(str(font["/BaseFont"]))
    return fonts


@pytest.fixture(scope="module")
def kdp(tmp_path_factory):
    """configs/kdp-6x9.yaml built once, with every canvas mark recorded."""
    mp = pytest.MonkeyPatch()
    made: list[TrackingCanvas] = []
    mp.setattr(render, "Canvas", lambda *a, **k: made.append(TrackingCanvas(*a, **k)) or made[-1])
    try:
        out = tmp_path_factory.mktemp("kdp")
        book = load_book(ROOT / "configs" / "kdp-6x9.yaml")
        warnings: list[str] = []
        build(book, out, workers=2, warn=warnings.append)
    finally:
        mp.undo()
    drawn = [c for c in made if isinstance(c._filename, str)]  # not the measuring canvases
    assert len(drawn) == 1
    return book, out, drawn[0].pages, warnings


@pytest.fixture(scope="module")
def kdp_texts(kdp):
    """The text of every page of the kdp book, as the canvas drew it: line by line, top down.

    (pypdf reads it back too, but takes seconds a page where a page places many stamps:
    ``test_kdp_texts_read_back_from_the_pdf`` compares the two on the pages it reads fast.)"""
    return [_page_text(page) for page in kdp[2]]


def _page_text(page: dict) -> str:
    lines: dict[float, list[tuple[float, str]]] = {}
    for x0, _, y, text in page["texts"]:
        lines.setdefault(round(y, 1), []).append((x0, text))
    return "\n".join(" ".join(t for _, t in sorted(row)) for _, row in sorted(lines.items(), reverse=True))


def test_kdp_texts_read_back_from_the_pdf(kdp, kdp_texts):
    """Every word the canvas drew on the front matter and the first puzzle pages is in the PDF's text."""
    reader = PdfReader(str(kdp[1] / "kdp-6x9.pdf"))
    data = json.loads((kdp[1] / "kdp-6x9.json").read_text())
    first = data["puzzles"][0]["page"]
    for n in (0, 1, 2, first - 1, first):
        read = " ".join(reader.pages[n].extract_text().split())
        for word in kdp_texts[n].split():
            assert word in read, (n + 1, word)


def test_kdp_pages_are_trim_plus_bleed_with_mirrored_trim_boxes(kdp):
    book, out, _, warnings = kdp
    reader = PdfReader(str(out / "kdp-6x9.pdf"))
    assert len(reader.pages) > 24 and warnings == []
    assert len({v for s in book.sections for v in [s.variant]}) >= 2
    for n, page in enumerate(reader.pages, start=1):
        media = [float(v) for v in page.mediabox]
        trim = [float(v) for v in page.trimbox]
        assert media == pytest.approx([0, 0, 6.125 * INCH, 9.25 * INCH])
        assert [float(v) for v in page.bleedbox] == pytest.approx(media)
        assert trim[2] - trim[0] == pytest.approx(6 * INCH) and trim[3] - trim[1] == pytest.approx(9 * INCH)
        # bleed on top, bottom and the outside edge: left on even (left-hand) pages
        assert trim[1] == pytest.approx(0.125 * INCH)
        assert trim[0] == pytest.approx(0.125 * INCH if n % 2 == 0 else 0.0)
    assert _fonts_embedded(reader) and all("DejaVuSans" in f for f in _fonts_embedded(reader))


def test_kdp_drawings_stay_in_the_safe_area_with_the_gutter_of_its_page_count(kdp):
    _, out, pages, _ = kdp
    reader = PdfReader(str(out / "kdp-6x9.pdf"))
    assert len(pages) == len(reader.pages)
    gutter = comfortable_gutter(len(pages))  # the service's minimum and 1/8 in to write near the spine
    least = 0.375 * INCH  # top, bottom, outside with bleed
    tightest_inside = 1e9
    for n, (page, marks) in enumerate(zip(reader.pages, pages), start=1):
        tx0, ty0, tx1, ty1 = (float(v) for v in page.trimbox)
        x0, y0, x1, y1 = marks["box"]
        assert x0 < x1, f"page {n} is blank"
        inside = x0 - tx0 if n % 2 else tx1 - x1
        outside = tx1 - x1 if n % 2 else x0 - tx0
        assert inside >= gutter - 1e-6, f"page {n}: {inside / INCH:.3f} in from the spine"
        assert outside >= least - 1e-6 and y0 - ty0 >= least - 1e-6 and ty1 - y1 >= least - 1e-6, n
        assert marks["thinnest"] >= 0.75, f"page {n} strokes a {marks['thinnest']} pt line"
        tightest_inside = min(tightest_inside, inside)
    # the gutter really is the table's value for this page count, not a looser one
    assert tightest_inside == pytest.approx(gutter, abs=1.0)


def test_page_numbers_sit_outside_even_on_the_left(kdp):
    _, _, pages, _ = kdp
    width = 6.125 * INCH
    for n, marks in enumerate(pages, start=1):
        if n in (1, 2):  # the title and copyright pages carry no folio, as published books
            continue
        folios = [t for t in marks["texts"] if t[3] == str(n)]
        assert folios, f"page {n} has no page number"
        lowest = min(folios, key=lambda t: t[2])
        assert (lowest[1] < width / 2) == (n % 2 == 0), n


def test_kdp_front_matter_and_json_pages(kdp, kdp_texts):
    book, out, _, _ = kdp
    texts = kdp_texts
    assert book.title in texts[0] and book.subtitle in texts[0] and book.author in texts[0]
    assert f"seed {book.seed}" in texts[1] and "bookgen" in texts[1]
    assert "Contents" in texts[2]
    for section in book.sections:
        assert section.title in texts[2]
    for variant in ("Binairo", "Tango", "Calcudoku"):
        page = next(i for i, t in enumerate(texts) if f"How to play {variant}" in t and "worked example" in t)
        assert f"How to play {variant}" in texts[2] and str(page + 1) in texts[2]
    data = json.loads((out / "kdp-6x9.json").read_text())
    for p in data["puzzles"]:
        assert f"Puzzle {p['number']}" in texts[p["page"] - 1]
        assert p["difficulty"].capitalize() in texts[p["page"] - 1]
    answers = [t for t in texts if "Answers" in t]
    assert answers and any(f"page {data['puzzles'][-1]['page']}" in t for t in answers)


def test_kdp_walkthrough_follows_the_tango_rules_and_is_in_the_contents(kdp, kdp_texts):
    book, out, _, _ = kdp
    texts = kdp_texts
    data = json.loads((out / "kdp-6x9.json").read_text())
    s = next(i for i, section in enumerate(book.sections) if section.explain)
    first = data["puzzles"][sum(section.count for section in book.sections[:s])]
    title = f"Puzzle {first['number']}, step by step"
    start = next(n for n, t in enumerate(texts, start=1) if title in t and n > 3)  # not the contents
    end = next(n for n, t in enumerate(texts, start=1) if "How to play Calcudoku" in t and n > 3)
    assert end - start >= 2  # a 6x6 Tango takes more than one page; the next variant's rules follow
    assert f"Puzzle {first['number']}, page {first['page']}" in texts[start - 1]
    assert all("How to play Tango" in texts[n - 1] for n in range(start - 1, end))
    assert "Tango" in texts[start - 2] and "techniques" in texts[start - 2]  # the rules come first
    walk = [start]
    contents = " ".join(texts[2].split())
    assert f"{title} " in contents and re.search(rf"{re.escape(title)}[ .]*{walk[0]}\b", contents), contents


def test_how_to_worked_examples_teach_a_technique_above_the_easiest(kdp, kdp_texts):
    book = kdp[0]
    texts = [" ".join(t.split()) for t in kdp_texts]
    for first, (variant, rules) in zip(book.shape.rule_sets, rule_sets(book)):
        v = get_variant(variant)
        title = v.title
        page = next(t for t in texts if f"How to play {title}" in t and "A worked example" in t)
        example = worked_example(book.seed, variant, rules, book.shape.rule_set_sizes(first))
        assert example.size == min(book.shape.rule_set_sizes(first))  # the book's own smallest size
        steps = render.example_steps(v, example)
        tiers = {t.name: t.level for t in v.techniques}
        assert 2 <= len(steps) <= render.MAX_STEPS
        assert max(tiers[s.technique] for s in steps) > min(tiers.values()), title
        names = {t.name: t.title for t in v.techniques}
        for k, step in enumerate(steps, start=1):  # the reasons name their cells: no second naming
            assert f"{k}. {names[step.technique]}: {sentence(step.reason)}" in page, (title, k)


def test_gutter_table():
    table = {24: 0.375, 150: 0.375, 151: 0.5, 300: 0.5, 301: 0.625, 500: 0.625, 501: 0.75,
             700: 0.75, 701: 0.875, 828: 0.875}
    for pages, inches in table.items():
        assert gutter_for(pages) == pytest.approx(inches * INCH), pages


def test_bigger_books_get_wider_gutters_and_cells_never_shrink_below_the_minimum():
    spec = PageSpec(trim_for("6x9"), bleed=True)
    gutters = []
    for count in (40, 300, 600, 1000):
        shape = BookShape(spec, (SectionShape("A", "takuzu", (8,) * count),
                                 SectionShape("B", "tango", (12,) * (count // 10))))
        plan = plan_book(shape)
        assert plan.gutter == pytest.approx(comfortable_gutter(len(plan.pages)))
        assert plan_book(shape, minimum=True).gutter == pytest.approx(gutter_for(len(plan_book(shape, minimum=True).pages)))
        cells = [p.arrangement.cell for p in plan.pages if p.kind == "puzzles"]
        assert min(cells) >= 8 * MM
        gutters.append(plan.gutter)
    assert gutters == sorted(set(gutters)) and gutters[0] == pytest.approx(0.5 * INCH)


def test_large_print_raises_the_cell_minimum():
    w, h = content_size(PageSpec(trim_for("letter"), mirrored=False), 0.0, Style(True), True)
    assert fit_problem(w, h, 10, 1, Style(False), "letter") is None
    assert fit_problem(w, h, 10, 4, Style(False), "letter") is None
    problem = fit_problem(w, h, 10, 4, Style(True), "letter")
    assert problem and "12 mm (large print)" in problem
    for large in (False, True):
        shape = BookShape(PageSpec(trim_for("a4"), mirrored=False),
                          (SectionShape("A", "tango", (6,) * 7), SectionShape("B", "takuzu", (10,) * 3)),
                          Style(large), worksheet=True)
        cells = [p.arrangement.cell for p in plan_book(shape).pages]
        assert min(cells) >= Style(large).min_cell


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    out = tmp_path_factory.mktemp("classroom")
    book = load_book(ROOT / "configs" / "classroom.yaml")
    written = build(book, out, workers=1)
    return book, out, written


def test_classroom_writes_worksheets_json_and_a_separate_answer_pdf(classroom):
    book, out, written = classroom
    assert book.layout == "worksheet"
    assert sorted(p.name for p in out.iterdir()) == ["classroom-answers.pdf", "classroom.json", "classroom.pdf"]
    assert {p.name for p in written} == {"classroom-answers.pdf", "classroom.json", "classroom.pdf"}
    sheets = [p.extract_text() for p in PdfReader(str(out / "classroom.pdf")).pages]
    data = json.loads((out / "classroom.json").read_text())
    for text in sheets:
        assert "Name" in text and "Date" in text and "Class" in text and "rules:" in text
        assert "Answers" not in text
    for p in data["puzzles"]:
        assert f"Puzzle {p['number']}" in sheets[p["page"] - 1]
    key = "\n".join(p.extract_text() for p in PdfReader(str(out / "classroom-answers.pdf")).pages)
    assert "Answer key" in key
    for p in data["puzzles"]:
        assert f"page {p['page']}" in key
    assert [p["number"] for p in data["puzzles"]] == list(range(1, len(data["puzzles"]) + 1))


FORMATS = {
    "6x9-bleed": "page: 6x9\nbleed: true\n",
    "6x9-large": "page: 6x9\nlarge_print: true\n",
    "a4-large": "page: a4\nlarge_print: true\n",
    "custom": "page: {width: 150mm, height: 8.5in}\nper_page: 2\n",
    "worksheet-letter-large": "page: letter\nlayout: worksheet\nlarge_print: true\n",
    "worksheet-a4": "page: a4\nlayout: worksheet\nper_page: 4\n",
}
# Built a second time with two workers and compared byte for byte: a book with bleed and a
# worksheet set with its answers file (the byte-for-byte check of the others cost a build
# each; the page layout is the same code whatever the format)
TWICE = ("6x9-bleed", "worksheet-a4")
SMALL = """\
title: Format Test
subtitle: Small
author: T. Ester
seed: 5
{format}sections:
  - variant: takuzu
    size: 6
    count: 3
    difficulty: easy
  - variant: tango
    size: 6
    count: 2
    difficulty: medium
{explain}  - variant: kenken
    size: 4
    count: 1
    difficulty: easy
{explain}"""


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_format_is_deterministic_and_stays_in_its_safe_area(name, write_config, tmp_path, tracked):
    # books walk through their Tango and KenKen puzzles; worksheets have no rules pages for it
    explain = "" if "worksheet" in name else "    explain: true\n"
    config = write_config(SMALL.format(format=FORMATS[name], explain=explain), "fmt")
    book = load_book(config)
    warnings: list[str] = []
    build(book, tmp_path / "a", workers=1, warn=warnings.append)
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert ("fmt-answers.pdf" in files) == (book.layout == "worksheet")
    if name in TWICE:  # the same bytes again, from two workers
        build(book, tmp_path / "b", workers=2)
        assert files == sorted(p.name for p in (tmp_path / "b").iterdir())
        for file in files:
            assert (tmp_path / "a" / file).read_bytes() == (tmp_path / "b" / file).read_bytes(), file
    short = book.layout == "book" and len(PdfReader(str(tmp_path / "a" / "fmt.pdf")).pages) < 24
    assert short == any("at least 24" in w for w in warnings)
    spec = book.shape.spec
    by_name = {c._filename: c for c in tracked
               if isinstance(c._filename, str) and Path(c._filename).parent.parent.name == "a"}
    # files are written into a staging folder in "a" under their final names, then renamed into place
    for file in [f for f in files if f.endswith(".pdf")]:
        canvas = next(c for name, c in by_name.items() if Path(name).name == file)
        reader = PdfReader(str(tmp_path / "a" / file))
        gutter = gutter_for(len(reader.pages)) if spec.mirrored else spec.margin
        walkthrough = [n for n, marks in enumerate(canvas.pages, start=1)
                       if any("step by step" in t[3] for t in marks["texts"])]
        assert len(walkthrough) == (3 if file == "fmt.pdf" and book.layout == "book" else 0), file
        for n, (page, marks) in enumerate(zip(reader.pages, canvas.pages), start=1):
            sx0, sy0, sx1, sy1 = spec.safe(n, gutter)
            x0, y0, x1, y1 = marks["box"]
            assert sx0 - 1e-6 <= x0 and x1 <= sx1 + 1e-6 and sy0 - 1e-6 <= y0 and y1 <= sy1 + 1e-6, (file, n)
            assert [float(v) for v in page.trimbox] == pytest.approx(list(spec.trim_box(n)))


def _errors(write_config, text):
    with pytest.raises(ConfigError) as info:
        load_book(write_config(text))
    return [str(i) for i in info.value.issues]


BASE = "title: T\nseed: 1\n{top}sections:\n  - variant: takuzu\n    size: {size}\n    count: 4\n{section}"
CASES = [
    ("grid too big for the page", dict(top="page: {width: 4in, height: 5in}\n", size=14, section=""),
         "6:11", "below the 8 mm needed for handwriting"),
    ("per_page too many", dict(top="page: 6x9\n", size=12, section="    per_page: 6\n"),
         "8:15", "6 12x12 grids per page on a 6x9 page"),
    ("book per_page too many", dict(top="page: 6x9\nper_page: 6\n", size=12, section=""),
         "4:11", "choose fewer per page"),
    ("large print too big", dict(top="page: 6x9\nlarge_print: true\n", size=14, section=""),
         "7:11", "12 mm (large print)"),
    ("per_page not allowed", dict(top="", size=8, section="    per_page: 3\n"),
         "7:15", "per_page must be one of 1, 2, 4, 6, got 3"),
    ("length without unit", dict(top="page: {width: 6, height: 9in}\n", size=8, section=""),
         "3:15", "a length is a number with a unit"),
    ("unknown unit", dict(top="page: {width: 6cm, height: 9in}\n", size=8, section=""),
         "3:15", "a length is a number with a unit"),
    ("missing height", dict(top="page: {width: 6in}\n", size=8, section=""),
         "3:7", "a custom page needs 'height'"),
    ("page key typo", dict(top="page: {width: 6in, hieght: 9in}\n", size=8, section=""),
         "3:20", "did you mean 'height'?"),
    ("page too small", dict(top="page: {width: 2in, height: 9in}\n", size=8, section=""),
         "3:7", "between 3in and 20in"),
    ("page name typo", dict(top="page: 6x10\n", size=8, section=""), "3:7", "page must be one of"),
    ("page not a name or mapping", dict(top="page: [6, 9]\n", size=8, section=""), "3:7",
     "page must be one of letter, a4, 6x9, 7x10, 8x10, 8.5x11 or {width"),
    ("layout typo", dict(top="layout: worksheets\n", size=8, section=""), "3:9", "did you mean 'worksheet'?"),
    ("bleed on a worksheet", dict(top="layout: worksheet\nbleed: true\n", size=8, section=""),
         "4:8", "bleed is for print-on-demand books"),
    ("bleed yes", dict(top="bleed: yes\n", size=8, section=""), "3:8", "bleed must be true or false"),
    ("large_print type", dict(top="large_print: 1\n", size=8, section=""), "3:14", "must be true or false"),
    ("explain on a worksheet", dict(top="layout: worksheet\n", size=8, section="    explain: true\n"),
         "8:14", "worksheets have none"),
]


@pytest.mark.parametrize("name,parts,where,fragment", CASES, ids=[c[0] for c in CASES])
def test_layout_config_errors(write_config, name, parts, where, fragment):
    errors = _errors(write_config, BASE.format(**parts))
    assert any(f"book.yaml:{where}:" in e and fragment in e for e in errors), errors


def test_layout_config_accepts_every_format(write_config):
    for page, size in (("letter", (8.5, 11)), ("a4", (210 / 25.4, 297 / 25.4)), ("6x9", (6, 9)),
                       ("7x10", (7, 10)), ("8x10", (8, 10)), ("8.5x11", (8.5, 11)),
                       ("{width: 432pt, height: 228.6mm}", (6, 9))):
        book = load_book(write_config(BASE.format(top=f"page: {page}\n", size=8, section="")))
        assert (book.trim.width / INCH, book.trim.height / INCH) == pytest.approx(size), page
    book = load_book(write_config(BASE.format(top="page: 6x9\nbleed: true\nper_page: 2\n", size=8,
                                              section="    per_page: 1\n")))
    assert book.bleed and book.per_page == 2 and book.sections[0].per_page == 1 and book.page == "6x9"


def test_walkthrough_pages_follow_their_variants_rules_and_count_for_the_gutter():
    spec = PageSpec(trim_for("6x9"), bleed=True)
    sections = (SectionShape("A", "takuzu", (6,) * 40, explain=True), SectionShape("B", "tango", (6,) * 40),
                SectionShape("C", "takuzu", (8,) * 30, explain=True))
    shape = BookShape(spec, sections, rules_pages=(2, 1), walkthrough_pages=(3, 4))
    plan = plan_book(shape)
    kinds = [(p.kind, p.variant, p.section, p.part) for p in plan.pages[:13]]
    assert kinds == [("title", "", -1, 0), ("imprint", "", -1, 0), ("contents", "", -1, 0),
                     ("rules", "takuzu", 0, 0), ("rules", "takuzu", 0, 1),
                     *[("walkthrough", "takuzu", 0, i) for i in range(3)],
                     *[("walkthrough", "takuzu", 2, i) for i in range(4)],
                     ("rules", "tango", 1, 0)]
    assert plan.first_page("walkthrough", 2) == 9 and plan.first_page("puzzles", 0) == 14
    # the same book without the walkthroughs is seven pages shorter; near 150 pages that moves the gutter
    bare = plan_book(BookShape(spec, tuple(SectionShape(s.title, s.variant, s.sizes) for s in sections),
                               rules_pages=(2, 1)))
    def grids(p: Plan) -> int:  # (the key may take a page more in a longer book: its share is a tenth)
        return sum(1 for page in p.pages if page.kind != "answers")

    assert grids(plan) == grids(bare) + 7
    long = BookShape(spec, sections, rules_pages=(2, 1), walkthrough_pages=(3, 150 - len(plan.pages) + 5))
    assert plan.gutter == comfortable_gutter(len(plan.pages)) and plan_book(long).gutter > plan.gutter


def test_fit_problems_check_the_gutter_a_book_really_got():
    spec = PageSpec(trim_for("6x9"), bleed=True)
    shape = BookShape(spec, (SectionShape("A", "takuzu", (14,) * 4, per_page=1, explain=True),))
    assert fit_problems(shape) == []
    assert fit_problems(shape, gutter=3 * INCH)[0][:2] == (0, 14)


def test_a_stamp_is_drawn_once_per_document_and_placed_wherever_it_recurs():
    import random
    from io import BytesIO

    from bookgen.core.difficulty import Level
    from bookgen.core.pen import RecordingPen
    from bookgen.layout.pen import CanvasPen

    tango = get_variant("tango")
    puzzle = tango.generate(6, tango.parse_rules({}, 6), Level.EASY, random.Random(3))
    keys = []

    class Counting(RecordingPen):
        def stamp(self, key, x, y, draw):
            keys.append(key)
            super().stamp(key, x, y, draw)

    tango.draw(Counting(), puzzle, solved=True)
    assert len(keys) == 36 + len(puzzle.edges) and len(set(keys)) >= 3  # suns, moons, signs
    canvas = Canvas(BytesIO())
    for left in (50, 300):  # the same puzzle twice on one page: no new forms the second time
        tango.draw(CanvasPen(canvas, left, 700, 30), puzzle, solved=True)
    code = "\n".join(canvas._code)
    assert code.count(" Do") == 2 * len(keys)
    assert len(set(re.findall(r"/(\S+) Do", code))) == len(set(keys))
    assert " h\n" not in code  # no outline is written out on the page itself (a polygon closes with h)
    canvas.showPage()
    canvas.save()


def test_reused_text_writes_the_same_bytes_as_drawing_afresh():
    from io import BytesIO

    from bookgen.core.pen import TOP_LEFT
    from bookgen.layout.fonts import register_fonts
    from bookgen.layout.pen import _SET_TEXT, CanvasPen

    class Watching(Canvas):  # a canvas that intercepts text is never given reused text
        def drawCentredString(self, *a, **kw):
            return super().drawCentredString(*a, **kw)

    register_fonts()
    codes, canvases = [], []
    for kind in (Canvas, Watching):
        canvas = kind(BytesIO())
        canvases.append(canvas)
        pen = CanvasPen(canvas, 40.3, 700.7, 23.1)
        for i in range(40):
            pen.text(i % 7 + 0.5, i // 7 + 0.5, "0123456789"[i % 3], 0.5, bold=i % 2 == 0, grey=0.3 * (i % 2))
            pen.text(i % 7, i // 7, ["12+", "3÷", "Ω"][i % 3], 0.25, bold=True, anchor=TOP_LEFT)
        codes.append("\n".join(canvas._code))
    assert codes[0] == codes[1]
    assert len(_SET_TEXT[canvases[0]]) == 9 and canvases[1] not in _SET_TEXT  # 3 digits x 2 weights, 3 clues
    assert codes[0].count(" Tj ") == 80


def test_an_extents_cached_hash_is_the_hash_of_its_fields():
    """Extent caches its hash (the page planner looks extents up once per puzzle): it must stay
    the plain dataclass hash of its fields, and equal extents hash alike."""
    import dataclasses

    from bookgen.core.variant import Extent

    a, b = Extent(9, 9, top=1.0, key_scale=1.25), Extent(9, 9, top=1.0, key_scale=1.25)
    fields = tuple(getattr(a, f.name) for f in dataclasses.fields(Extent))
    assert hash(a) == hash(a) == hash(fields) == hash(b) and a == b
    assert hash(Extent(9, 9)) != hash(a) and Extent(9, 9) != a
    assert "_hash" not in repr(a) and dataclasses.replace(a, rows=8) == Extent(8, 9, top=1.0, key_scale=1.25)
