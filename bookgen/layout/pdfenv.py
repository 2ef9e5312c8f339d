"""reportlab reads settings from the environment: ``RL_*`` options when it is
imported and ``SOURCE_DATE_EPOCH`` when it stamps a date. A book's bytes must
depend on its config and seed alone, so the PDF is made as if neither were set.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

from reportlab import rl_config

def _ours(name: str) -> bool:
    return name.startswith("RL_") or name == "SOURCE_DATE_EPOCH"


@contextmanager
def plain_environment() -> Iterator[None]:
    """Run the block with reportlab's settings at their defaults and no date from the environment."""
    saved = {name: os.environ.pop(name) for name in list(os.environ) if _ours(name)}
    try:
        if any(name.startswith("RL_") for name in saved):
            # undo what RL_* variables set at import time (search paths aside: they only find files)
            for key, value in getattr(rl_config, "_SAVED", {}).items():
                if not key.endswith("SearchPath"):
                    setattr(rl_config, key, value)
        yield
    finally:
        os.environ.update(saved)
