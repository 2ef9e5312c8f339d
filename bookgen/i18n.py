"""Message catalogs: the printed words of a book in the language it asks for.

Catalogs are standard gettext ``.po`` files under ``bookgen/locale/LANG/LC_MESSAGES/
bookgen.po``. They are compiled in memory the first time a language is used
(``.po`` -> ``.mo`` bytes -> ``gettext.GNUTranslations``), so there is no
``msgfmt`` step at install time and nothing is written to disk; plural forms
come from each catalog's ``Plural-Forms`` header as gettext reads them.
"""

from __future__ import annotations

import gettext
import re
import struct
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import Callable

from bookgen.core.i18n import C_, CASES, Text
from bookgen.core.memo import BoundedMemo

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "bookgen"
DEFAULT = "en"


def catalog_path(language: str) -> Path:
    """Where a language's ``.po`` file lives."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=1)  # read once a process, as ``translator`` reads each catalog once
def languages() -> tuple[str, ...]:
    """The language codes that have a catalog, sorted (``languages.__wrapped__`` reads the
    folder again: tests/test_i18n.py compares the two)."""
    return tuple(sorted(p.name for p in LOCALE_DIR.iterdir() if catalog_path(p.name).is_file()))


_PO_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_PO_ESCAPE = re.compile(r"\\(.)")


def po_string(quoted: str) -> str:
    """A quoted ``.po`` string's text (C escapes: ``\\n``, ``\\"``, ``\\\\`` ...).

    Not ``ast.literal_eval``: CPython 3.11's AST conversion keeps one recursion count per
    interpreter, and two threads converting at once (the studio compiling two catalogs, or a
    catalog while anything else parses Python) fail with "AST constructor recursion depth
    mismatch". ``tests/test_i18n.py`` checks the two read every shipped catalog alike."""
    if len(quoted) < 2 or quoted[0] != '"' or quoted[-1] != '"':
        raise ValueError(f"not a quoted .po string: {quoted[:40]!r}")
    return _PO_ESCAPE.sub(lambda m: _PO_ESCAPES.get(m.group(1), m.group(1)), quoted[1:-1])


def read_po(text: str) -> dict[str | tuple[str, str], str | list[str]]:
    """A ``.po`` file's messages: ``msgid -> msgstr`` (``(msgid, msgid_plural) -> [forms]``
    for plural messages; ``""`` is the header). A message with a ``msgctxt`` is keyed
    ``context + "\\x04" + msgid``, as a ``.mo`` file keys it. Fuzzy and obsolete entries are
    skipped."""
    out: dict = {}
    entry: dict[str, str] = {}
    fuzzy = False
    key = None

    def flush() -> None:
        nonlocal entry, fuzzy
        if "msgid" in entry and not fuzzy:
            msgid = entry["msgid"] if "msgctxt" not in entry else f"{entry['msgctxt']}\x04{entry['msgid']}"
            if "msgid_plural" in entry:
                forms = [entry[k] for k in sorted((k for k in entry if k.startswith("msgstr[")),
                                                   key=lambda k: int(k[7:-1]))]
                out[(msgid, entry["msgid_plural"])] = forms
            else:
                out[msgid] = entry.get("msgstr", "")
        entry, fuzzy = {}, False

    for raw in text.splitlines() + [""]:
        line = raw.strip()
        if not line:
            flush()
            key = None
        elif line.startswith("#~"):
            continue
        elif line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if "msgid" in entry:
                    flush()
                fuzzy = True
        elif line.startswith('"'):
            if key is not None:
                entry[key] += po_string(line)
        else:
            key, _, value = line.partition(" ")
            if key in ("msgid", "msgctxt") and "msgid" in entry:
                keep = fuzzy
                fuzzy = False
                flush()
                fuzzy = keep
            entry[key] = po_string(value.strip())
    return out


def mo_bytes(messages: dict) -> bytes:
    """The messages of ``read_po`` as a GNU ``.mo`` file (what ``msgfmt`` writes)."""
    pairs = []
    for key, value in messages.items():
        if isinstance(key, tuple):
            if not all(value):
                continue  # untranslated: gettext falls back to the English
            pairs.append(("\0".join(key).encode(), "\0".join(value).encode()))
        elif value or key == "":
            pairs.append((key.encode(), value.encode()))
    pairs.sort()
    n = len(pairs)
    ids_start = 7 * 4
    strs_start = ids_start + n * 8
    data_start = strs_start + n * 8
    ids, strs, blob = [], [], b""
    for k, _ in pairs:
        ids.append((len(k), data_start + len(blob)))
        blob += k + b"\0"
    for _, v in pairs:
        strs.append((len(v), data_start + len(blob)))
        blob += v + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, n, ids_start, strs_start, 0, data_start)
    table = b"".join(struct.pack("<2I", *p) for p in ids) + b"".join(struct.pack("<2I", *p) for p in strs)
    return head + table + blob


@lru_cache(maxsize=None)
def translator(language: str = DEFAULT) -> gettext.GNUTranslations:
    """The compiled catalog of ``language`` (``KeyError`` when there is none)."""
    path = catalog_path(language)
    if not path.is_file():
        raise KeyError(language)
    return gettext.GNUTranslations(BytesIO(mo_bytes(read_po(path.read_text("utf-8")))))


def translate(catalog: gettext.NullTranslations, text: str) -> str:
    """``text`` in the catalog's language: a ``Text`` by its template, its values translated
    in turn; any other string as a message id (unknown ids, such as a book's own titles, print
    as they are)."""
    if isinstance(text, Text):
        if text.context is not None:
            template = (catalog.pgettext(text.context, text.template) if text.plural is None
                        else catalog.npgettext(text.context, text.template, text.plural, text.count))
        else:
            template = (catalog.gettext(text.template) if text.plural is None
                        else catalog.ngettext(text.template, text.plural, text.count))
        return template.format(
            **{k: translate(catalog, v) if isinstance(v, str) else v for k, v in text.params})
    return catalog.gettext(text)


def translation(language: str = DEFAULT) -> Callable[[str], str]:
    """The function that translates a printed string into ``language`` (its ``language``
    attribute names the language, for ``name_forms``)."""
    catalog = translator(language)

    def t(text: str) -> str:
        return translate(catalog, text)
    t.language = language  # type: ignore[attr-defined]
    return t


UNKNOWN_NAME = "{name}"  # msgid of the case forms of a name the catalog doesn't know

# The case forms of any name the catalog doesn't know (each ``C_(case, msgid)`` is a
# catalog entry); a variant marks its own title's forms in its module (``NAME_CASES``), and a
# title without its forms (a new variant) takes those of ``{name}``.
NAME_CASES = (C_("gen", "{name}"), C_("acc", "{name}"))


def titles_plain(language: str) -> dict[str, str]:
    """Each variant's title as ``language`` prints it, to the title. ``name_forms`` asks on
    every printed name (thousands of times a book: every how-to heading, step and caption), so
    it keeps each language's in ``_TITLES``; tests/test_i18n.py checks the two agree."""
    from bookgen.variants.registry import get_variant, variant_names  # the registry needs the catalogs' users

    catalog = translator(language)
    return {catalog.gettext(get_variant(v).title): get_variant(v).title for v in variant_names()}


# per language, as ``translator`` keeps its catalog: the variants and the catalogs are fixed a process
_TITLES = BoundedMemo(64)


def name_forms(t: Callable[[str], str], name: str) -> dict[str, str]:
    """What a template may call a printed puzzle name: ``{name}`` as printed and, for each
    grammatical case, ``{name_gen}``, ``{name_acc}`` ... A variant's own title takes its case
    forms from the catalog (msgctxt ``gen`` ... on the title: Czech "Pravidla tanga"); any
    other name (a section's title, a book's ``names:``) takes the catalog's form of
    ``{name}`` in that case, which may add a noun that carries the case for it (Czech
    "hlavolamu {name}"), else prints as it is."""
    language = getattr(t, "language", DEFAULT)
    catalog = translator(language)
    titles = _TITLES.put_default(language, lambda: titles_plain(language))
    forms = {"name": name}
    title = titles.get(name)
    for case in CASES:
        if title is not None and f"{case}\x04{title}" in catalog._catalog:  # the catalog inflects it
            form = catalog.pgettext(case, title)
        else:  # not a title, or a title without its forms
            form = catalog.pgettext(case, UNKNOWN_NAME).format(name=name)
        forms[f"name_{case}"] = form
    return forms


def with_name(t: Callable[[str], str], template: str, name: str, **values) -> str:
    """``template`` translated by ``t`` with a puzzle name in whatever case it asks for."""
    return t(template).format(**name_forms(t, name), **values)


def language_problem(language: object) -> str | None:
    """Why ``language`` can't be printed, naming the available ones, or None."""
    known = languages()
    if isinstance(language, str) and language in known:
        return None
    return f"unknown language {language!r}; available: {', '.join(known)}"
