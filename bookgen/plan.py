"""``bookgen plan``: a book's page plan and a build-time estimate, without generating it.

The page plan is the one ``build`` follows: how-to-play pages are measured
with each variant's small worked example (generated from the book's seed, as
the build does), a walkthrough with the first puzzle its section generates
(the only puzzles ``plan`` makes), everything else is exact.

The time estimate is the one ``build`` makes, from the measured per-puzzle
costs of ``bookgen.estimate``.
"""

from __future__ import annotations

from collections import Counter

from bookgen.book import _examples, plan, run_job
from bookgen.config import Book
from bookgen.core.pen import RecordingPen
from bookgen.core.types import size_label
from bookgen.estimate import COST_MS, build_seconds, say_duration
from bookgen.layout.classset import sheet_count
from bookgen.layout.cover import SPINE_TEXT_PAGES, cover_geometry
from bookgen.layout.fonts import CAP_HEIGHT
from bookgen.layout.geometry import COMFORT, GUTTERS, INCH, MM, gutter_for, plan_answers, plan_book
from bookgen.layout.render import Entry, plan_with_rules
from bookgen.variants.registry import get_variant

# Every printed word of this module, in one place (for translation later).
TEXT = {
    "head": "{title} ({source}): {trim}{bleed}, {layout}",
    "bleed": ", printed to the edge",
    "totals": "{pages} pages, gutter {gutter:g} in{why}",
    "sheets": "{pages} pages, one-sided, margins {margin:g} in",
    "gutter_why": " (the {least:g} in print-on-demand asks for up to {most} pages, plus {extra:g} in to write near the spine)",
    "gutter_set": " (as set; at least {least:g} in for up to {most} pages)",
    "blank": "notes page (the next section opens on a right-hand page)",
    "table": "  {pages:>5}  {what}",
    "pages": "pages",
    "part": "part",
    "title": "title page",
    "imprint": "imprint",
    "contents": "contents",
    "rules": "how to play {variant}",
    "walkthrough": "worked example of puzzle {number} (about: its length depends on the puzzle)",
    "puzzles": "{title}: {count} {variant} {size}{each}, {per} per page, cells {cell} mm{type}",
    "each": " in each version",
    "type": ", digits {big:.1f} pt",
    "clues": ", clues {small:.1f} pt",
    "answers": "answer key: {count} grids, up to {per} per page, cells {cell} mm",
    "versions": "{count} versions (A to {last}), each {pages} pages",
    "blank_back": " and a blank back, so each starts on a fresh sheet",
    "students": "{students} copies in one file, versions dealt A to {last} in turn",
    "set": "{pages} pages, {sides}, margins {margin:g} in",
    "duplex": "printed on both sides",
    "simplex": "one-sided",
    "key": "answer file {name}-answers.pdf: {pages} pages",
    "cover": "cover {name}-cover.pdf: {width:.3f} \u00d7 {height:.3f} in, spine {spine:.4f} in on {paper} paper, {spine_text}",
    "spine_yes": "title on the spine",
    "spine_no": "no spine text (needs {least} pages)",
    "exclude": "excludes {count} puzzles of earlier volumes",
    "replace": "replaces puzzle(s) {numbers}",
    "estimate": "estimated build time: {seconds} with {workers} worker(s) ({puzzles} puzzles)",
    "unknown": " (no measured cost for {what}: estimated from the nearest size)",
}


def estimate_seconds(book: Book, workers: int) -> tuple[float, list[str]]:
    """(wall seconds, sizes without a measured cost) from ``bookgen.estimate``'s table, computed
    from the sections' counts: no job is made, so any count is estimated at once."""
    runs: list[tuple] = []
    for s in book.sections:
        k = len(s.sizes)
        for j, size in enumerate(s.sizes):  # puzzle i has size sizes[i * k // count]: one run per size
            start, end = -(-j * s.count // k), -(-(j + 1) * s.count // k)
            for level, n in Counter(s.levels[start:end]).items():
                runs.append((s.variant, size, level, dict(s.rules), dict(s.options), n * book.versions))
    unknown = sorted({f"{v} {size_label(n)}" for v, n, *_ in runs if (v, n) not in COST_MS})
    return build_seconds(runs, workers), unknown


def _example_of(examples, variant: str):
    """A worked example of ``variant`` (type is drawn in grid units, so any one will do)."""
    return next((e for e in examples.values() if e.variant == variant), None)


def _type_sizes(variant_name: str, example, cell: float) -> str:
    """The printed digit and clue sizes at ``cell`` points per cell, from the worked example's
    drawing (type is drawn in grid units, so any size of grid gives the same answer)."""
    if example is None:
        return ""
    pen = RecordingPen()
    get_variant(variant_name).draw(pen, example, solved=True)
    sizes = sorted({op[4] for op in pen.ops if op[0] == "text"})
    if not sizes:
        return ""
    points = [s * cell / CAP_HEIGHT for s in sizes]
    out = TEXT["type"].format(big=points[-1])
    if len(points) > 1:
        out += TEXT["clues"].format(small=points[0])
    return out


def plan_report(book: Book, workers: int) -> str:
    """The text ``bookgen plan`` prints."""
    worksheet = book.layout == "worksheet"
    examples = _examples(book)  # tiny easy puzzles: they measure the how-to pages and the type
    shape = book.shape
    if worksheet:
        layout = plan_book(shape)  # one version's pages: every version has the same
    else:
        shape, layout = plan_with_rules(shape, examples, _walked(book, shape), book.language)
    trim = book.trim
    lines = [TEXT["head"].format(title=book.title, source=book.source, trim=format_name(book.page, trim),
                                 bleed=TEXT["bleed"] if book.bleed else "", layout=book.layout)]
    pages = len(layout.pages)
    least = gutter_for(pages)
    most = next((m for m, g in GUTTERS if g == least), None)
    why = ""
    if shape.spec.mirrored and book.gutter is not None:
        why = TEXT["gutter_set"].format(least=least / INCH, most=most)
    elif shape.spec.mirrored and most:
        why = TEXT["gutter_why"].format(least=least / INCH, most=most, extra=COMFORT / INCH)
    if shape.spec.mirrored:
        lines.append(TEXT["totals"].format(pages=pages * book.versions, gutter=layout.gutter / INCH, why=why))
    elif book.versions > 1:  # a class set's file: each version padded for the copier, or every student's copy
        each = sheet_count(pages, book.duplex)
        lines.append(TEXT["set"].format(pages=each * (book.students or book.versions),
                                        sides=TEXT["duplex" if book.duplex else "simplex"],
                                        margin=shape.spec.margin / INCH))
    else:
        lines.append(TEXT["sheets"].format(pages=pages, margin=shape.spec.margin / INCH))
    if book.versions > 1:
        last = chr(ord("A") + book.versions - 1)
        blank = TEXT["blank_back"] if sheet_count(pages, book.duplex) > pages else ""
        lines.append(TEXT["versions"].format(count=book.versions, last=last, pages=pages) + blank)
        if book.students:
            lines.append(TEXT["students"].format(students=book.students, last=last))
    lines.append(TEXT["table"].format(pages=TEXT["pages"], what=TEXT["part"]))
    rows: list[tuple[int, str]] = []
    key: list = []
    groups: dict[tuple[int, int], list] = {}  # (section, size) -> [its row, its pages]
    for page in layout.pages:
        if page.kind in ("title", "imprint", "blank"):
            rows.append((1, TEXT[page.kind]))
        elif page.kind == "contents":
            _add(rows, TEXT["contents"])
        elif page.kind == "rules":
            _add(rows, TEXT["rules"].format(variant=get_variant(page.variant).title))
        elif page.kind == "walkthrough":
            _add(rows, TEXT["walkthrough"].format(number=shape.first_item(page.section) + 1))
        elif page.kind == "puzzles":
            section = shape.sections[page.section]
            size = section.sizes[page.items[0] - shape.first_item(page.section)]
            group = groups.setdefault((page.section, size), [len(rows), []])
            if group[0] == len(rows):
                rows.append((0, ""))
            group[1].append(page)
        elif page.kind == "answers":
            key.append(page)
    for (s, size), (row, group) in groups.items():  # one line per section and size
        section = shape.sections[s]
        cells = sorted({round(p.arrangement.cell / MM, 1) for p in group})
        cell = f"{cells[0]:.1f}" if len(cells) == 1 else f"{cells[0]:.1f}\u2013{cells[-1]:.1f}"
        text = TEXT["puzzles"].format(title=section.title, count=sum(1 for n in section.sizes if n == size),
                                      variant=book.name_of(section.variant), size=size_label(size),
                                      each=TEXT["each"] if book.versions > 1 else "",
                                      per=max(p.arrangement.count for p in group), cell=cell,
                                      type=_type_sizes(section.variant, _example_of(examples, section.variant),
                                                       group[0].arrangement.cell))
        rows[row] = (len(group), text)
    if key:
        rows.append((len(key), _key_row(key)))
    lines += [TEXT["table"].format(pages=n, what=what) for n, what in rows]
    if worksheet:
        key_pages = pages if book.versions > 1 else _key_pages(shape)  # a set: a key page per worksheet page
        lines.append(TEXT["key"].format(name=book.name, pages=key_pages))
    if book.cover is not None:
        geo = cover_geometry(trim, pages, book.cover.paper)
        w, h = geo.size
        spine_text = TEXT["spine_yes"] if geo.spine_text else TEXT["spine_no"].format(least=SPINE_TEXT_PAGES)
        lines.append(TEXT["cover"].format(name=book.name, width=w / INCH, height=h / INCH,
                                          spine=geo.spine / INCH, paper=book.cover.paper, spine_text=spine_text))
    if book.excluded:
        lines.append(TEXT["exclude"].format(count=len(book.excluded)))
    if book.replace:
        lines.append(TEXT["replace"].format(numbers=", ".join(map(str, book.replace))))
    wall, unknown = estimate_seconds(book, workers)
    count = sum(s.count for s in book.sections) * book.versions
    line = TEXT["estimate"].format(seconds=say_duration(wall), workers=workers, puzzles=count)
    if unknown:
        line += TEXT["unknown"].format(what=", ".join(unknown))
    lines.append(line)
    return "\n".join(lines) + "\n"


FORMATS = {"letter": "Letter, 8.5 \u00d7 11 in", "a4": "A4, 210 \u00d7 297 mm"}


def format_name(page: str, trim) -> str:
    """A page format as a person names it: "A4, 210 × 297 mm", "6 × 9 in"."""
    if page in FORMATS:
        return FORMATS[page]
    return f"{trim.width / INCH:g} \u00d7 {trim.height / INCH:g} in"


def _key_row(key: list) -> str:
    """The answer key's line: how many grids, at most how many a page, and the cell sizes."""
    cells = [cell for page in key for cell in _cells(page)]
    low, high = min(cells) / MM, max(cells) / MM
    span = f"{low:.1f}" if round(low, 1) == round(high, 1) else f"{low:.1f}\u2013{high:.1f}"
    return TEXT["answers"].format(count=sum(len(p.items) for p in key), per=max(len(p.items) for p in key),
                                  cell=span)


def _cells(page) -> tuple[float, ...]:
    """An answer page's cell sizes: one for the page, or (a layout giving each grid its own) each."""
    own = tuple(getattr(page, "cells", ()))
    return own or (page.arrangement.cell,)


def _add(rows: list[tuple[int, str]], what: str) -> None:
    """Count a page towards the previous row when it is the same part."""
    if rows and rows[-1][1] == what:
        rows[-1] = (rows[-1][0] + 1, what)
    else:
        rows.append((1, what))


def _walked(book: Book, shape) -> dict[int, Entry]:
    """The first puzzle of each ``explain`` section, the one puzzle ``plan`` makes: its
    walkthrough's length depends on it (keyed by book-order index, as ``entries`` are)."""
    jobs = plan(book)
    out = {}
    for s in shape.explained:
        first = shape.first_item(s)
        out[first] = Entry(first + 1, book.sections[s].title, run_job(jobs[first]))
    return out


def _key_pages(shape) -> int:
    return len(plan_answers(shape).pages)
