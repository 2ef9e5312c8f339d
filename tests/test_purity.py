"""core, solve and variants stay pure: no reportlab, yaml or typer."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

from sources import nodes

import bookgen

ROOT = Path(bookgen.__file__).parent
FORBIDDEN = {"reportlab", "yaml", "typer", "rich", "starlette", "uvicorn", "jinja2", "pypdfium2"}


@lru_cache(maxsize=None)  # both tests read core, solve and variants
def _imports(path: Path) -> frozenset[str]:
    out = set()
    for node in nodes(path):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return frozenset(out)


def test_pure_packages_import_no_io_libraries():
    files = [p for pkg in ("core", "solve", "variants") for p in (ROOT / pkg).rglob("*.py")]
    assert len(files) >= 8
    for path in files:
        bad = _imports(path) & FORBIDDEN
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_only_layout_imports_reportlab():
    for path in ROOT.rglob("*.py"):
        if "reportlab" in _imports(path):
            assert path.parent.name == "layout", path
