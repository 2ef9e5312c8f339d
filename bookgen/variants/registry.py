"""Name -> variant lookup, aliases included."""

from __future__ import annotations

import importlib

from bookgen.core.rating import BAND_KEYS, band, level_key, marker_of
from bookgen.core.variant import Variant

# module, attribute: each module exposes one stateless variant object.
_MODULES = (
    ("bookgen.variants.takuzu", "TAKUZU"),
    ("bookgen.variants.tango", "TANGO"),
    ("bookgen.variants.kenken", "KENKEN"),
    ("bookgen.variants.sudoku", "SUDOKU"),
    ("bookgen.variants.futoshiki", "FUTOSHIKI"),
    ("bookgen.variants.killer", "KILLER"),
    ("bookgen.variants.skyscrapers", "SKYSCRAPERS"),
    ("bookgen.variants.jigsaw", "JIGSAW"),
    ("bookgen.variants.nonogram", "NONOGRAM"),
    ("bookgen.variants.starbattle", "STARBATTLE"),
    ("bookgen.variants.starbattle", "QUEENS"),
    ("bookgen.variants.kakuro", "KAKURO"),
)


def _load() -> dict[str, Variant]:
    found: dict[str, Variant] = {}
    for module_name, attr in _MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:  # a real import error inside the module
                raise
            continue
        variant = getattr(module, attr)
        found[variant.name] = variant
    return found


VARIANTS: dict[str, Variant] = _load()
_ALIASES: dict[str, str] = {
    alias: v.name for v in VARIANTS.values() for alias in (v.name, *v.aliases)
}


def variant_names() -> list[str]:
    """Every accepted name, canonical names and aliases, sorted."""
    return sorted(_ALIASES)


def variant_of(entry: object) -> Variant | None:
    """The variant a JSON puzzle entry names, or None when it names none we know."""
    name = entry.get("variant") if isinstance(entry, dict) else None
    if not isinstance(name, str):
        return None
    try:
        return get_variant(name)
    except KeyError:
        return None


def get_variant(name: str) -> Variant:
    """The variant called ``name`` (or one of its aliases); ``KeyError`` otherwise."""
    key = name.strip().lower()
    if key not in _ALIASES:
        raise KeyError(name)
    return VARIANTS[_ALIASES[key]]


def banded(puzzle) -> bool:
    """Whether ``puzzle``'s level is the band its rating falls in (``banded_levels``)."""
    try:
        variant = get_variant(puzzle.variant)
    except KeyError:
        return False
    return variant.banded_levels(puzzle.size, dict(puzzle.rules))


def printed_level(puzzle) -> tuple[int, str, int]:
    """How a graded puzzle's level prints: its place among the named levels (``beginner`` 0,
    ``easy`` 1 ... : levels of a book compare by it), its name (an English message id) and how
    many of the four marker squares it fills. The band its rating falls in where levels are
    bands (``banded``), its ladder tier otherwise."""
    grade = puzzle.grade
    key = level_key(grade.level, grade.rating, banded(puzzle))
    label = band(key).label if key in BAND_KEYS else grade.level.label
    return BAND_KEYS.index(key), label, marker_of(key)
