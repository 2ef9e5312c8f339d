"""Marking text for translation without doing any I/O.

Variants and solvers are pure: they keep their printed sentences in English and
mark each with ``N_`` (a fixed sentence) or build it as a ``Text`` (a sentence
with values filled in), so that ``pybabel extract`` (see babel.cfg) and the
catalog test find every one. The layout translates them when it prints
(``bookgen.i18n.translate``): a marked string is its own message id.
"""

from __future__ import annotations

from typing import Any


def N_(text: str) -> str:
    """Mark ``text`` as a message to translate later; returns it unchanged."""
    return text


def C_(context: str, text: str) -> str:
    """Mark ``text`` as a message to translate in ``context`` (gettext's ``msgctxt``): the
    same English words that another language says two ways, such as a box that is a square
    or a rectangle, or a name in the genitive. Returns ``text`` unchanged; build it into a
    ``Text`` with ``context=`` so the translation looks it up in that context."""
    return text


# The grammatical cases a translation may ask of a puzzle name it is given beside the
# nominative ``{name}``: ``{name_gen}``, ``{name_acc}`` (msgctxt of a name's case forms).
CASES = ("gen", "acc")


class Text(str):
    """An English sentence made from a marked template and its values.

    It is the English string (so English output and every caller are unchanged)
    and remembers the template and values, so the layout can translate the
    template and fill the values in again, translating any value that is itself
    a marked message (an operation's name, a list of them).
    """

    template: str
    params: tuple[tuple[str, Any], ...]
    plural: str | None = None  # the English plural template, for a count (see ``Plural``)
    count: int = 1
    context: str | None = None  # the msgctxt the template is translated in (see ``C_``)

    def __new__(cls, template: str, context: str | None = None, **params: Any) -> "Text":
        self = super().__new__(cls, template.format(**params))
        self.template = template
        self.params = tuple(sorted(params.items()))
        self.context = context
        return self

    def __reduce__(self):
        return (_rebuild, (self.template, self.params, self.plural, self.count, self.context))


def Plural(one: str, many: str, count: int, context: str | None = None, **params: Any) -> Text:
    """A sentence about ``count`` things: ``one`` or ``many`` in English, and the right
    plural form of the language it is translated into (``{count}`` is filled in)."""
    text = Text(one if count == 1 else many, context=context, count=count, **params)
    text.template, text.plural, text.count = one, many, count
    return text


def _rebuild(template: str, params: tuple[tuple[str, Any], ...], plural: str | None, count: int,
             context: str | None = None) -> Text:
    if plural is None:
        return Text(template, context=context, **dict(params))
    rest = {k: v for k, v in params if k != "count"}
    return Plural(template, plural, count, context=context, **rest)


def _commas(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return Text(N_("{first}, {rest}"), first=items[0], rest=_commas(items[1:]))


def join_commas(items: list[str]) -> str:
    """``a``, ``a, b``, ``a, b, c``: a list with no conjunction, translatable."""
    return _commas(items)


def join_or(items: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: a list as one translatable phrase."""
    if len(items) == 1:
        return items[0]
    return Text(N_("{items} or {last}"), items=_commas(items[:-1]), last=items[-1])


def join_and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: a list as one translatable phrase."""
    if len(items) == 1:
        return items[0]
    return Text(N_("{first} and {last}"), first=_commas(items[:-1]), last=items[-1])
