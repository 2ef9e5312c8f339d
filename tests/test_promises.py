"""Issue 26 A: the promises of "When things go wrong" under hostile and ordinary input.

Each test names the item of the issue it holds to.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bookgen.cli import app

runner = CliRunner()

TWO = """\
title: T
sections:
  - {variant: takuzu, size: 6, count: 2}
"""


def _run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def _write(tmp_path: Path, text: str, name: str = "book") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _errors(result) -> list[str]:
    return [line for line in result.output.splitlines() if line.strip()]


def _no_traceback(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


# ----- 7: no tracebacks ----------------------------------------------------------------------------
@pytest.mark.parametrize("paper", ["[white]", "{a: 1}"])
def test_7_cover_paper_of_a_list_or_mapping_is_a_located_error(tmp_path, paper):
    config = _write(tmp_path, TWO.replace("sections:", f"cover: {{paper: {paper}}}\nsections:"))
    result = _run("plan", config)
    _no_traceback(result)
    assert result.exit_code == 2
    assert f"{config}:2:16: cover paper must be one of white, cream" in result.output


# ----- 13: YAML numbers with leading zeros ---------------------------------------------------------
def test_13_leading_zeros_are_decimal_as_in_yaml_12(tmp_path):
    from bookgen.config import load_book

    config = _write(tmp_path, "title: T\nseed: 0123\nimprint: {isbn: 0306406152}\n"
                    "sections:\n  - {variant: takuzu, size: 06, count: 010}\n")
    book = load_book(config)
    assert book.seed == 123
    assert book.sections[0].sizes == (6,) and book.sections[0].count == 10
    assert book.imprint.isbn == "0306406152"


def test_13_an_unquoted_isbn_keeps_its_leading_zero_in_messages(tmp_path):
    config = _write(tmp_path, "title: T\nimprint: {isbn: 0306406153}\n" + TWO.split("\n", 1)[1])
    result = _run("plan", config)
    assert result.exit_code == 2
    assert "ISBN-10 0306406153 has check digit 3" in result.output
    assert ".0" not in result.output
