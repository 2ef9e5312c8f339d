"""The remembered line breaking is the plain greedy one."""

from __future__ import annotations

import random

from bookgen.layout import textfit
from bookgen.layout.textfit import break_lines, break_lines_plain

WORDS = ("a", "grid", "Binairo", "Sudoku-Explainer", "Überschrift", "x" * 40, "три", "digits,", "(1-9)", "—")


def test_break_lines_equals_the_plain_version():
    rng = random.Random(5)
    for _ in range(300):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 30)))
        args = (text, rng.choice((6.0, 8.5, 11.0, 14.0)), rng.choice((20.0, 90.0, 200.0, 431.5)),
                rng.random() < 0.3, rng.choice((0.0, 12.0)), rng.choice(("dejavu", "charis", "andika")))
        assert break_lines(*args) == break_lines_plain(*args), args
        assert break_lines(*args) == break_lines_plain(*args), args  # and again, from the memo


def test_a_caller_changing_its_lines_changes_nothing_remembered():
    first = break_lines("one two three four five six", 10.0, 40.0)
    first.append("changed")
    assert break_lines("one two three four five six", 10.0, 40.0) == \
        break_lines_plain("one two three four five six", 10.0, 40.0)


def test_a_full_memo_starts_again(monkeypatch):
    memo = textfit._BROKEN
    monkeypatch.setattr(memo, "limit", 5)
    for i in range(12):
        break_lines(f"word{i} more words", 9.0, 30.0)
        assert len(memo) <= 6
    assert break_lines("word11 more words", 9.0, 30.0) == break_lines_plain("word11 more words", 9.0, 30.0)
