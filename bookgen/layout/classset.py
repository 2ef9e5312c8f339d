"""A class set of worksheets: every page in several versions, ready for the copier, and a
compact key for the teacher.

Each version's pages are numbered on their own ("Version B · page 1 of 2") and,
printed double-sided (``duplex``, the default), padded with a blank page to an even
count, so every version starts on a fresh sheet and no version prints on the back
of another. With ``students`` the file holds that many copies, the versions dealt
in turn (A, B, C, A, ...), to be printed once and handed out in order.

The key has one page per worksheet page: the answers of every version for that
page, a row per version, the grids as large as the page allows (never below the
key floor), so a teacher marks a whole stack from one sheet.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Sequence

from bookgen.core.i18n import N_
from bookgen.i18n import translation
from bookgen.layout.fonts import ASCENT
from bookgen.layout.geometry import BOLD, KEY_GAP, THIN, BookShape, PagePlan, Plan, key_label
from bookgen.layout.pen import AnswerPen
from bookgen.layout.render import VERSION_LABEL, Cover, Document, Entry, puzzle_page
from bookgen.variants.registry import get_variant

PAGE_OF = N_("{title} \u00b7 {version} \u00b7 page {page} of {pages}")
KEY_TITLE = N_("{title}: answer key")
BLANK_BACK = N_("This side is left blank: the next version starts on a fresh sheet.")
KEY_FOOTER = N_("{title} \u00b7 answer key \u00b7 page {page} of {pages}")
WORKSHEET_PAGE = N_("Worksheet page {page}")
KEY_CELL = 8.0 * 72 / 25.4  # the largest key cell: bigger answers only spread the rows apart


def version_pages(plan: Plan, entries: Sequence[Entry]) -> dict[str, list[PagePlan]]:
    """Each version's worksheet pages, in order, by version letter."""
    out: dict[str, list[PagePlan]] = {}
    for page in plan.pages:
        out.setdefault(entries[page.items[0]].version, []).append(page)
    return out


def sheet_count(pages: int, duplex: bool) -> int:
    """Pages a version takes in the file: padded to an even count when printed on both sides."""
    return pages + (pages % 2 if duplex else 0)


def deal(versions: Sequence[str], students: int) -> list[str]:
    """The version each student's copy is, in the order they are printed: A, B, C, A, ..."""
    return [versions[k % len(versions)] for k in range(students or len(versions))]


def render_class_set(path: Path, key_path: Path, cover: Cover, shape: BookShape, plan: Plan,
                     entries: Sequence[Entry], duplex: bool = True, students: int = 0) -> int:
    """Write the versions' worksheets to ``path`` (``students`` copies, dealt in turn, or each
    version once) and the compact key to ``key_path``; returns the worksheet file's pages."""
    t = translation(cover.language)
    doc = Document(path, cover, shape.spec, shape.style, plan.gutter, subject=N_("Worksheets"))
    by_version = version_pages(plan, entries)
    for version in deal(list(by_version), students):
        pages = by_version[version]
        label = t(VERSION_LABEL).format(version=version)
        for k, page in enumerate(pages, start=1):
            footer = t(PAGE_OF).format(title=cover.title, version=label, page=k, pages=len(pages))
            puzzle_page(doc, page, entries, worksheet=True, title=cover.title, footer=footer)
        for _ in range(sheet_count(len(pages), duplex) - len(pages)):
            blank_back(doc, t)
    written = doc.page - 1
    doc.save()
    render_class_key(key_path, cover, shape, plan, entries, by_version)
    return written


def blank_back(doc: Document, t) -> None:
    """The back of a version's last sheet: blank but for one small line, so that neither
    the teacher at the copier nor a pupil takes it for a page that failed to print."""
    x0, low, x1, top = doc.content(worksheet=False)
    doc.text((x0 + x1) / 2, (low + top) / 2, t(BLANK_BACK), doc.style.small, grey=0.45, align="center")
    doc.finish(folio=False)


def render_class_key(path: Path, cover: Cover, shape: BookShape, plan: Plan, entries: Sequence[Entry],
                     by_version: dict[str, list[PagePlan]]) -> None:
    """One key page per worksheet page (more only when the versions' rows can't fit one at
    the key floor): a row of answers per version, labelled with the version and puzzle."""
    t = translation(cover.language)
    doc = Document(path, replace(cover, title=t(KEY_TITLE).format(title=cover.title)), shape.spec,
                   shape.style, plan.gutter, subject=N_("Answer key"))
    st = shape.style
    versions = list(by_version)
    x0, y0, x1, y1 = doc.content()
    label = key_label(st)
    heading = st.body * 2.4
    low = st.key_cell[0]
    sheets: list[tuple[int, list[str]]] = []  # (worksheet page, versions on this key page)
    for p in range(len(by_version[versions[0]])):
        size = max(entries[i].puzzle.rows for i in by_version[versions[0]][p].items)  # the tallest grid
        row_h = label * 1.6 + size * low + BOLD + st.small
        fit = max(1, int((y1 - y0 - heading) // row_h))
        for start in range(0, len(versions), fit):
            sheets.append((p, versions[start:start + fit]))
    for n, (p, rows) in enumerate(sheets, start=1):
        items = by_version[versions[0]][p].items
        columns = len(items)
        size = max(entries[i].puzzle.rows for i in items)  # the tallest grid (rows; a square's side)
        wide = max(entries[i].puzzle.cols for i in items)
        room_h = (y1 - y0 - heading) / len(rows) - label * 1.6 - BOLD - st.small
        slot_w = (x1 - x0 - (columns - 1) * KEY_GAP) / columns
        cell = max(low, min(KEY_CELL, room_h / size, (slot_w - BOLD) / wide))
        y = y1
        doc.text(x0, y - st.body * ASCENT, t(WORKSHEET_PAGE).format(page=p + 1), st.body, bold=True)
        y -= heading
        for version in rows:
            for col, index in enumerate(by_version[version][p].items):
                entry = entries[index]
                width = entry.puzzle.cols * cell
                x = x0 + col * (slot_w + KEY_GAP) + (slot_w - width) / 2
                doc.text(x, y - label * ASCENT, t("Puzzle {number}").format(number=entry.number), label, bold=True)
                doc.text(x + width, y - label * ASCENT, t(VERSION_LABEL).format(version=version), label,
                         grey=0.3, align="right")
                pen = AnswerPen(doc.canvas, x, y - label * 1.6, cell, THIN, BOLD)
                get_variant(entry.puzzle.variant).draw(pen, entry.puzzle, solved=True)
            y -= label * 1.6 + size * cell + BOLD + st.small
        doc.finish(folio=False, footer=t(KEY_FOOTER).format(title=cover.title, page=n, pages=len(sheets)))
    doc.save()
