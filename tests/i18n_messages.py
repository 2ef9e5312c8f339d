"""The message ids the code marks for translation, found the way ``pybabel extract``
finds them (see babel.cfg): string literals passed to ``N_``, ``t``/``doc.t`` and, in
pairs, to ``nt``/``doc.nt``, ``ngettext`` and ``Plural``; with a context, to ``C_``; the
template of ``with_name``."""

from __future__ import annotations

import ast
from functools import lru_cache

from sources import PACKAGE, nodes
SINGULAR = {"N_", "t"}
PLURAL = {"nt", "ngettext", "Plural"}
CONTEXT = {"C_"}  # C_(context, msgid): keyed context + "\x04" + msgid, as gettext keys it


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


@lru_cache(maxsize=1)
def extract() -> dict[str | tuple[str, str], list[str]]:
    """msgid (or (singular, plural)) -> where it is used, for every marked message."""
    found: dict = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE.parent)
        for node in nodes(path):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = _name(node.func)
            key = None
            if name == "with_name" and len(node.args) >= 2:
                key = _literal(node.args[1])  # with_name(t, template, name)
            elif name in SINGULAR:
                key = _literal(node.args[0])
            elif name in CONTEXT and len(node.args) >= 2:
                context, text = _literal(node.args[0]), _literal(node.args[1])
                if context is not None and text is not None:
                    key = f"{context}\x04{text}"
            elif name in PLURAL and len(node.args) >= 2:
                one, many = _literal(node.args[0]), _literal(node.args[1])
                context = next((_literal(k.value) for k in node.keywords if k.arg == "context"), None)
                if one is not None and many is not None:
                    key = (one if context is None else f"{context}\x04{one}", many)
            if key is not None:  # where it is used: only for the marked calls (12,000 calls in all)
                found.setdefault(key, []).append(f"{module}:{node.lineno}")
    return found
