"""Config loading: a good book parses; every mistake is one located line."""

from __future__ import annotations

import pytest

from bookgen.config import ConfigError, load_book
from bookgen.core.difficulty import Level

GOOD = """\
title: Binary Puzzles, Volume 1
seed: 2026
page: letter
sections:
  - variant: binairo
    size: 8
    count: 6
    difficulty: {from: easy, to: hard}
    rules: {max_run: 2, unique_lines: true}
  - variant: takuzu
    size: [10, 12]
    count: 5
    difficulty: hard
  - variant: tango
    count: 3
    difficulty: [{easy: 2}, {expert: 1}]
"""


def test_good_book(write_config):
    book = load_book(write_config(GOOD, "vol1"))
    assert book.name == "vol1" and book.seed == 2026 and book.page == "letter"
    s0, s1, s2 = book.sections
    assert s0.variant == "takuzu" and s0.count == 6
    assert s0.levels == (Level.EASY,) * 2 + (Level.MEDIUM,) * 2 + (Level.HARD,) * 2
    assert [s1.size_of(i) for i in range(5)] == [10, 10, 10, 12, 12]
    assert s2.variant == "tango" and s2.sizes == (6,) and s2.levels == (0, 0, 3)
    assert dict(s2.rules) == {"max_run": 2, "unique_lines": False}


def _errors(write_config, text):
    with pytest.raises(ConfigError) as info:
        load_book(write_config(text))
    return [str(i) for i in info.value.issues]


BASE = "title: T\nseed: 1\nsections:\n  - variant: takuzu\n    size: 8\n    count: 4\n"

# (name, yaml text, expected line:col, a fragment of the message)
CASES = [
    ("unknown top key", BASE + "pgae: a4\n", "7:1", "unknown key 'pgae'; did you mean 'page'?"),
    ("unknown section key", BASE + "    dificulty: easy\n", "7:5", "did you mean 'difficulty'?"),
    ("wrong type", BASE.replace("count: 4", "count: four"), "6:12", "count must be a whole number"),
    ("odd size", BASE.replace("size: 8", "size: 7"), "5:11", "sizes must be even"),
    ("size too big", BASE.replace("size: 8", "size: 16"), "5:11", "size must be one of"),
    ("size in list", BASE.replace("size: 8", "size: [8, 9]"), "5:15", "got 9"),
    ("max_run 3 too small", BASE.replace("size: 8", "size: 6") + "    rules: {max_run: 3}\n", "7:22",
     "max_run: 3 needs a grid of at least 8x8"),
    ("count zero", BASE.replace("count: 4", "count: 0"), "6:12", "count must be between 1 and"),
    ("unknown variant", BASE.replace("variant: takuzu", "variant: no-such-puzzle"), "4:14", "unknown variant 'no-such-puzzle'"),
    ("variant typo", BASE.replace("variant: takuzu", "variant: tanga"), "4:14", "did you mean 'tango'?"),
    ("unknown level", BASE + "    difficulty: hardest\n", "7:17", "unknown level 'hardest'"),
    ("ramp backwards", BASE + "    difficulty: {from: hard, to: easy}\n", "7:17", "put the easier level"),
    ("blocks disagree", BASE + "    difficulty: [{easy: 1}, {hard: 1}]\n", "6:12", "add up to 2"),
    ("missing title", BASE.replace("title: T\n", ""), "1:1", "missing required key 'title'"),
    ("bad page", BASE + "page: a5\n", "7:7", "page must be one of"),
    ("yaml 1.1 bool", BASE + "    rules: {unique_lines: no}\n", "7:27", "unique_lines must be true or false"),
    ("duplicate key", BASE + "seed: 2\n", "7:1", "duplicate key 'seed'"),
    ("syntax error", "title: [unclosed\nsections: []\n", "2:", "YAML syntax error"),
    ("not a mapping", "- just\n- a list\n", "1:1", "must be a mapping"),
    ("empty file", "", "1:1", "the file is empty"),
    ("no sections", "title: T\nsections: []\n", "2:11", "at least one section"),
    ("hard 4x4", BASE.replace("size: 8", "size: 4") + "    difficulty: hard\n", "7:17", "never harder than easy"),
]


@pytest.mark.parametrize("name,text,where,fragment", CASES, ids=[c[0] for c in CASES])
def test_config_errors(write_config, name, text, where, fragment):
    errors = _errors(write_config, text)
    assert any(f"book.yaml:{where}" in e and fragment in e for e in errors), errors


def test_all_errors_at_once(write_config):
    text = BASE.replace("count: 4", "count: 0") + "  - variant: takuzu\n    size: 5\n    count: 1\n"
    errors = _errors(write_config, text)
    assert len(errors) == 2 and ":6:" in errors[0] and ":8:" in errors[1]


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load_book(tmp_path / "nope.yaml")
