"""Starter books: commented YAML files, one per kind of user.

The same files feed ``bookgen init`` (written out with their comments) and the
studio's "start from a template" menu (read into the form), so a template
lives in one place.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent
DEFAULT = "worksheet"
# name -> what it is, in menu order (the file is NAME.yaml beside this module)
TEMPLATES = {
    "worksheet": "Classroom worksheet",
    "class-set": "Class set (several versions)",
    "kdp-paperback": "KDP paperback (6 x 9 in, cover)",
    "large-print": "Large-print book",
    "sampler": "Sampler of every puzzle",
}


def template_names() -> tuple[str, ...]:
    """Every template's name, in menu order."""
    return tuple(TEMPLATES)


def template_text(name: str) -> str:
    """The commented YAML of template ``name``; ``KeyError`` for an unknown one."""
    if name not in TEMPLATES:
        raise KeyError(name)
    return (HERE / f"{name}.yaml").read_text("utf-8")
