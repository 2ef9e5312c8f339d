"""The message ids the code marks for translation, found the way ``pybabel extract``
finds them (see babel.cfg): string literals passed to ``N_``, ``t``/``doc.t`` and, in
pairs, to ``nt``/``doc.nt``, ``ngettext`` and ``Plural``."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "bookgen"
SINGULAR = {"N_", "t"}
PLURAL = {"nt", "ngettext", "Plural"}


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
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = _name(node.func)
            where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
            if name in SINGULAR and (text := _literal(node.args[0])) is not None:
                found.setdefault(text, []).append(where)
            elif name in PLURAL and len(node.args) >= 2:
                one, many = _literal(node.args[0]), _literal(node.args[1])
                if one is not None and many is not None:
                    found.setdefault((one, many), []).append(where)
    return found
