"""Shared fixtures: a tiny book config written to a temp folder."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

TINY = """\
title: Tiny Test Book
seed: 11
page: letter
sections:
  - variant: takuzu
    size: 6
    count: 3
    difficulty: {from: easy, to: hard}
  - variant: tango
    size: 6
    count: 2
    difficulty: [{easy: 1}, {expert: 1}]
"""


@pytest.fixture
def write_config(tmp_path: Path):
    """Write YAML text to tmp_path/NAME.yaml and return its path."""

    def write(text: str, name: str = "book") -> Path:
        path = tmp_path / f"{name}.yaml"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    return write


@pytest.fixture
def tiny_config(write_config) -> Path:
    """A five-puzzle book over two variants."""
    return write_config(TINY, "tiny")


# Property tests explore a fixed sequence of examples, so a run on CI can't fail on a
# case no developer saw; HYPOTHESIS_PROFILE=explore searches afresh for new cases.
from hypothesis import settings as _settings  # noqa: E402

_settings.register_profile("ci", derandomize=True)
_settings.register_profile("explore", derandomize=False)
_settings.load_profile(__import__("os").environ.get("HYPOTHESIS_PROFILE", "ci"))
