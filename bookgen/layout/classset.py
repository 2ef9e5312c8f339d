"""A class set of worksheets: every page in several versions, and a key that lies
over a student's sheet.

The worksheet pages are the usual ones, each version's after the other's,
with "Version A", "B" ... at the top right and in the footer. The key is
not the compact answer table: it repeats the worksheet's own pages, one
answer page per worksheet page, with the full-size grids solved in exactly
the same place, so a teacher can hold it over a student's sheet.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Sequence

from bookgen.layout.geometry import BookShape, Plan
from bookgen.core.i18n import N_
from bookgen.i18n import translation
from bookgen.layout.render import Cover, Document, Entry, puzzle_page


def render_class_set(path: Path, key_path: Path, cover: Cover, shape: BookShape, plan: Plan,
                     entries: Sequence[Entry]) -> None:
    """Write the versions' worksheets to ``path`` and their overlay key to ``key_path``."""
    for target, solved in ((path, False), (key_path, True)):
        t = translation(cover.language)
        title = t("{title}: answer key").format(title=cover.title) if solved else cover.title
        doc = Document(target, replace(cover, title=title), shape.spec,
                       shape.style, plan.gutter, subject=N_("Answer key") if solved else N_("Worksheets"))
        for page in plan.pages:
            puzzle_page(doc, page, entries, worksheet=True, title=cover.title, solved=solved)
        doc.save()
