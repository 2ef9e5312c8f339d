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
from collections.abc import Callable, Mapping
from typing import Any

from bookgen.book import _examples, plan, run_job
from bookgen.config import Book
from bookgen.core.i18n import N_, Plural
from bookgen.core.pen import RecordingPen
from bookgen.core.types import size_label
from bookgen.estimate import COST_MS, build_seconds, say_duration
from bookgen.layout.classset import sheet_count
from bookgen.layout.cover import SPINE_TEXT_PAGES, cover_geometry
from bookgen.layout.fonts import CAP_HEIGHT
from bookgen.layout.geometry import COMFORT, GUTTERS, INCH, MM, gutter_for, plan_answers, plan_book
from bookgen.layout.render import Entry, plan_with_rules
from bookgen.variants.registry import get_variant

# Every printed word of this module, in one place: msgids of the catalogs (the studio shows the
# plan in its interface language; the CLI prints the English).
TEXT = {
    "head": N_("{title} ({source}): {trim}{bleed}, {layout}"),
    "bleed": N_(", printed to the edge"),
    "totals": N_("{pages} pages, gutter {gutter:g} in{why}"),
    "sheets": N_("{pages} pages, one-sided, margins {margin:g} in"),
    "gutter_why": N_(" (the {least:g} in print-on-demand asks for up to {most} pages, plus {extra:g} in to write "
                     "near the spine)"),
    "gutter_set": N_(" (as set; at least {least:g} in for up to {most} pages)"),
    "blank": N_("notes page (the next section opens on a right-hand page)"),
    "table": "  {pages:>5}  {what}",
    "pages": N_("pages"),
    "part": N_("part"),
    "title": N_("title page"),
    "imprint": N_("imprint"),
    "contents": N_("contents"),
    "rules": N_("how to play {variant}"),
    "walkthrough": N_("worked example of puzzle {number} (about: its length depends on the puzzle)"),
    "puzzles": N_("{title}: {count} {variant} {size}{each}, {per} per page, cells {cell} mm{type}"),
    "each": N_(" in each version"),
    "type": N_(", digits {big:.1f} pt"),
    "clues": N_(", clues {small:.1f} pt"),
    "answers": N_("answer key: {count} grids, up to {per} per page, cells {cell} mm"),
    "blank_back": N_(" and a blank back, so each starts on a fresh sheet"),
    "students": N_("{students} copies in one file, versions dealt A to {last} in turn"),
    "set": N_("{pages} pages, {sides}, margins {margin:g} in"),
    "duplex": N_("printed on both sides"),
    "simplex": N_("one-sided"),
    "cover": N_("cover {name}-cover.pdf: {width:.3f} \u00d7 {height:.3f} in, spine {spine:.4f} in on {paper} paper, "
                "{spine_text}"),
    "spine_yes": N_("title on the spine"),
    "spine_no": N_("no spine text (needs {least} pages)"),
    "exclude": N_("excludes {count} puzzles of earlier volumes"),
    "replace": N_("replaces puzzle(s) {numbers}"),
    "estimate": N_("estimated build time: {seconds} with {workers} worker(s) ({puzzles} puzzles)"),
    "unknown": N_(" (no measured cost for {what}: estimated from the nearest size)"),
    "draft": N_("(a first plan: how-to pages measured with another seed's example, about; the exact plan follows)"),
}


def _same(text: str) -> str:
    return text


def estimate_seconds(book: Book, workers: int) -> tuple[float, list[str]]:
    """(wall seconds, sizes without a measured cost) from ``bookgen.estimate``'s table, computed
    from the sections' counts: no job is made, so any count is estimated at once."""
    runs: list[tuple] = []
    for s in book.sections:
        k = len(s.sizes)
        for j, size in enumerate(s.sizes):  # puzzle i has size sizes[i * k // count]: one run per size
            start, end = -(-j * s.count // k), -(-(j + 1) * s.count // k)
            # a puzzle climbed above its tier's carve (extreme) costs more: the option ``climb``
            climbs = [bool(s.aims and s.aims[i] and s.aims[i].climb) for i in range(start, end)]
            for (level, climb), n in Counter(zip(s.levels[start:end], climbs)).items():
                options = dict(s.options, **({"climb": True} if climb else {}))
                runs.append((s.variant, size, level, dict(s.rules), options, n * book.versions))
    unknown = sorted({f"{v} {size_label(n)}" for v, n, *_ in runs if (v, n) not in COST_MS})
    return build_seconds(runs, workers), unknown


def _example_of(examples, variant: str):
    """A worked example of ``variant`` (type is drawn in grid units, so any one will do)."""
    return next((e for e in examples.values() if e.variant == variant), None)


def _type_sizes(T: Mapping[str, str], variant_name: str, example, cell: float) -> str:
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
    out = T["type"].format(big=points[-1])
    if len(points) > 1:
        out += T["clues"].format(small=points[0])
    return out


def plan_report(book: Book, workers: int, t: Callable[[str], str] = _same,
                examples: Mapping[int, Any] | None = None, walked: Mapping[int, Entry] | None = None) -> str:
    """The text ``bookgen plan`` prints, in ``t``'s language.

    ``examples`` and ``walked`` stand in for the worked examples and the first puzzles of
    ``explain`` sections (the studio's first plan, made before they are): given, the text
    opens with a line saying the how-to pages are about (a walkthrough's always is); a
    walkthrough without its puzzle counts one page."""
    T = {k: t(v) for k, v in TEXT.items()}
    worksheet = book.layout == "worksheet"
    draft = examples is not None
    if examples is None:
        examples = _examples(book)  # tiny easy puzzles: they measure the how-to pages and the type
    shape = book.shape
    if worksheet:
        layout = plan_book(shape)  # one version's pages: every version has the same
    else:
        shape, layout = plan_with_rules(shape, examples, _walked(book, shape) if walked is None else walked,
                                        book.language)
    trim = book.trim
    lines = [T["draft"]] if draft else []
    lines += [T["head"].format(title=book.title, source=book.source, trim=format_name(book.page, trim),
                                 bleed=T["bleed"] if book.bleed else "", layout=book.layout)]
    pages = len(layout.pages)
    least = gutter_for(pages)
    most = next((m for m, g in GUTTERS if g == least), None)
    why = ""
    if shape.spec.mirrored and book.gutter is not None:
        why = T["gutter_set"].format(least=least / INCH, most=most)
    elif shape.spec.mirrored and most:
        why = T["gutter_why"].format(least=least / INCH, most=most, extra=COMFORT / INCH)
    if shape.spec.mirrored:
        lines.append(T["totals"].format(pages=pages * book.versions, gutter=layout.gutter / INCH, why=why))
    elif book.versions > 1:  # a class set's file: each version padded for the copier, or every student's copy
        each = sheet_count(pages, book.duplex)
        lines.append(T["set"].format(pages=each * (book.students or book.versions),
                                        sides=T["duplex" if book.duplex else "simplex"],
                                        margin=shape.spec.margin / INCH))
    else:
        lines.append(T["sheets"].format(pages=pages, margin=shape.spec.margin / INCH))
    if book.versions > 1:
        last = chr(ord("A") + book.versions - 1)
        blank = T["blank_back"] if sheet_count(pages, book.duplex) > pages else ""
        each = Plural("{versions} versions (A to {last}), each {pages} page",
                      "{versions} versions (A to {last}), each {pages} pages", pages,
                      versions=book.versions, last=last, pages=pages)  # (a worksheet is often one page)
        lines.append(t(each) + blank)
        if book.students:
            lines.append(T["students"].format(students=book.students, last=last))
    lines.append(T["table"].format(pages=T["pages"], what=T["part"]))
    rows: list[tuple[int, str]] = []
    key: list = []
    groups: dict[tuple[int, int], list] = {}  # (section, size) -> [its row, its pages, pages it opens]
    owner = [(s, size) for s, section in enumerate(shape.sections) for size in section.sizes]  # by item
    for page in layout.pages:
        if page.kind in ("title", "imprint", "blank"):
            rows.append((1, T[page.kind]))
        elif page.kind == "contents":
            _add(rows, T["contents"])
        elif page.kind == "rules":
            _add(rows, T["rules"].format(variant=t(get_variant(page.variant).title)))
        elif page.kind == "walkthrough":
            _add(rows, T["walkthrough"].format(number=shape.first_item(page.section) + 1))
        elif page.kind == "puzzles":  # a page shared by sections counts once, for the first of them
            for k, part in enumerate(dict.fromkeys(owner[i] for i in page.items)):
                group = groups.setdefault(part, [len(rows), [], 0])
                if group[0] == len(rows):
                    rows.append((0, ""))
                group[1].append(page)
                group[2] += k == 0
        elif page.kind == "answers":
            key.append(page)
    for (s, size), (row, group, opened) in groups.items():  # one line per section and size
        section = shape.sections[s]
        cells = sorted({round(p.arrangement.cell / MM, 1) for p in group})
        cell = f"{cells[0]:.1f}" if len(cells) == 1 else f"{cells[0]:.1f}\u2013{cells[-1]:.1f}"
        text = T["puzzles"].format(title=section.title, count=sum(1 for n in section.sizes if n == size),
                                      variant=book.name_of(section.variant), size=size_label(size),
                                      each=T["each"] if book.versions > 1 else "",
                                      per=max(sum(owner[i] == (s, size) for i in p.items) for p in group),
                                      cell=cell,
                                      type=_type_sizes(T, section.variant, _example_of(examples, section.variant),
                                                       group[0].arrangement.cell))
        rows[row] = (opened or "\u00b7", text)  # (a dot: on pages the rows above count)
    if key:
        rows.append((len(key), _key_row(T, key)))
    lines += [T["table"].format(pages=n, what=what) for n, what in rows]
    if worksheet:
        key_pages = pages if book.versions > 1 else _key_pages(shape)  # a set: a key page per worksheet page
        lines.append(t(Plural("answer file {name}-answers.pdf: {pages} page",
                              "answer file {name}-answers.pdf: {pages} pages", key_pages,
                              name=book.name, pages=key_pages)))
    if book.cover is not None:
        geo = cover_geometry(trim, pages, book.cover.paper)
        w, h = geo.size
        spine_text = T["spine_yes"] if geo.spine_text else T["spine_no"].format(least=SPINE_TEXT_PAGES)
        lines.append(T["cover"].format(name=book.name, width=w / INCH, height=h / INCH,
                                          spine=geo.spine / INCH, paper=book.cover.paper, spine_text=spine_text))
    if book.excluded:
        lines.append(T["exclude"].format(count=len(book.excluded)))
    if book.replace:
        lines.append(T["replace"].format(numbers=", ".join(map(str, book.replace))))
    wall, unknown = estimate_seconds(book, workers)
    count = sum(s.count for s in book.sections) * book.versions
    line = T["estimate"].format(seconds=say_duration(wall, t), workers=workers, puzzles=count)
    if unknown:
        line += T["unknown"].format(what=", ".join(unknown))
    lines.append(line)
    return "\n".join(lines) + "\n"


FORMATS = {"letter": "Letter, 8.5 \u00d7 11 in", "a4": "A4, 210 \u00d7 297 mm"}


def format_name(page: str, trim) -> str:
    """A page format as a person names it: "A4, 210 × 297 mm", "6 × 9 in"."""
    if page in FORMATS:
        return FORMATS[page]
    return f"{trim.width / INCH:g} \u00d7 {trim.height / INCH:g} in"


def _key_row(T: Mapping[str, str], key: list) -> str:
    """The answer key's line: how many grids, at most how many a page, and the cell sizes."""
    cells = [cell for page in key for cell in _cells(page)]
    low, high = min(cells) / MM, max(cells) / MM
    span = f"{low:.1f}" if round(low, 1) == round(high, 1) else f"{low:.1f}\u2013{high:.1f}"
    return T["answers"].format(count=sum(len(p.items) for p in key), per=max(len(p.items) for p in key),
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


def _walked(book: Book, shape, run: Callable | None = None) -> dict[int, Entry]:
    """The first puzzle of each ``explain`` section, the one puzzle ``plan`` makes: its
    walkthrough's length depends on it (keyed by book-order index, as ``entries`` are).
    ``run`` makes a job's puzzle (``run_job``); one that gives None leaves its section out."""
    jobs = plan(book)
    out = {}
    for s in shape.explained:
        first = shape.first_item(s)
        puzzle = (run or run_job)(jobs[first])
        if puzzle is not None:
            out[first] = Entry(first + 1, book.sections[s].title, puzzle)
    return out


def _key_pages(shape) -> int:
    return len(plan_answers(shape).pages)
