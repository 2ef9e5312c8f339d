"""The package's modules, each parsed once per test process: test_i18n (through
i18n_messages), test_purity and test_shape all read every module's syntax tree, a second
or two of parsing each time. Read the trees, don't change them."""

from __future__ import annotations

import ast
import gc
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "bookgen"


@lru_cache(maxsize=None)
def tree(path: Path) -> ast.Module:
    """The syntax tree of one source file."""
    parsed = ast.parse(path.read_text(encoding="utf-8"))
    gc.freeze()  # the tree lives for the run: the collector need not walk it again (tests/conftest.py)
    return parsed


@lru_cache(maxsize=None)
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of one source file's syntax tree, in ``ast.walk``'s order: walked once per
    test process (each file that reads the trees walked each module again, some twice or three
    times: a walk costs about as much as the parse)."""
    walked = tuple(ast.walk(tree(path)))
    gc.freeze()
    return walked
