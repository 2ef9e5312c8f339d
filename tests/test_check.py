"""``bookgen check`` on damaged and hand-edited book JSON: every problem is
reported per puzzle, the exit code is non-zero, and nothing ever crashes."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from conftest import examples
from typer.testing import CliRunner

from bookgen.book import build, check_book
from bookgen.cli import app
from bookgen.config import load_book

runner = CliRunner()

BOOK = """\
title: Check Me
seed: 3
sections:
  - variant: takuzu
    size: 6
    count: 2
    difficulty: {from: easy, to: medium}
  - variant: tango
    size: 6
    count: 1
    difficulty: hard
  - variant: kenken
    size: 4
    count: 2
    difficulty: {from: easy, to: medium}
"""


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> dict:
    """A real five-puzzle book JSON over all three variants (puzzles 1-2 takuzu, 3 tango, 4-5 kenken)."""
    folder = tmp_path_factory.mktemp("check")
    config = folder / "book.yaml"
    config.write_text(BOOK)
    _, data = build(load_book(config), folder / "out")
    doc = json.loads(data.read_text())
    assert check_book(doc) == (5, [])
    return doc


def _damaged(book: dict, number: int, **changes) -> dict:
    """The book with puzzle ``number``'s fields changed (a value of ``...`` deletes the field)."""
    doc = copy.deepcopy(book)
    entry = doc["puzzles"][number - 1]
    for key, value in changes.items():
        if value is ...:
            del entry[key]
        else:
            entry[key] = value(entry[key]) if callable(value) else value
    return doc


def _flip_first_given(rows):
    """Swap 0 and 1 in the first given cell."""
    r, c = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != ".")
    return rows[:r] + [rows[r][:c] + "10"[int(rows[r][c])] + rows[r][c + 1:]] + rows[r + 1:]


# (id, puzzle number, changes, expected failure lines)
DAMAGE = [
    ("missing fields", 1, dict(givens=..., solution=...),
     ["puzzle 1: missing field 'givens'", "puzzle 1: missing field 'solution'"]),
    ("two solutions", 2, dict(givens=["......"] * 6), ["puzzle 2: has more than one solution"]),
    ("answer breaks a rule", 1, dict(solution=lambda rows: ["111000"] + rows[1:]),
     None),  # checked below: several rule lines
    ("given disagrees", 1, dict(givens=_flip_first_given), None),
    ("unknown variant", 1, dict(variant="no-such-puzzle"), ["puzzle 1: unknown variant 'no-such-puzzle'"]),
    ("no variant", 1, dict(variant=...), ["puzzle 1: missing field 'variant'"]),
    ("size is text", 1, dict(size="6"), ["puzzle 1: malformed: size must be one of 4, 6, 8, 10, 12, 14, got '6'"]),
    ("size absurd", 1, dict(size=10**40), ["puzzle 1: malformed: size must be one of 4, 6, 8, 10, 12, 14, got "
                                           "10000000000000000000000000000000000000000"]),
    ("givens a string", 1, dict(givens="......"), ["puzzle 1: malformed: givens must be a list of 6 row strings"]),
    ("short row", 2, dict(solution=lambda rows: rows[:5] + ["01"]),
     ["puzzle 2: malformed: solution row 6 must be a string of 6 characters"]),
    ("rows of numbers", 2, dict(solution=[[0, 1, 0, 1, 0, 1]] * 6),
     ["puzzle 2: malformed: solution row 1 must be a string of 6 characters"]),
    ("bad symbol", 2, dict(givens=lambda rows: ["x" + rows[0][1:]] + rows[1:]),
     ["puzzle 2: malformed: givens row 1 has unexpected symbol 'x'"]),
    ("bad rules", 1, dict(rules={"max_run": 7}), ["puzzle 1: malformed: max_run must be 2 or 3, got 7"]),
    ("rules a list", 1, dict(rules=[1, 2]), None),
    ("edges not a list", 3, dict(edges={"cells": 1}), ["puzzle 3: malformed: edges must be a list"]),
    ("edge far apart", 3, dict(edges=[{"cells": [[0, 0], [3, 3]], "sign": "="}]),
     ["puzzle 3: malformed: edge 1: cells [(0, 0), (3, 3)] are not neighbours inside the grid"]),
    ("edge outside", 3, dict(edges=[{"cells": [[5, 5], [5, 6]], "sign": "="}]),
     ["puzzle 3: malformed: edge 1: cells [(5, 5), (5, 6)] are not neighbours inside the grid"]),
    ("edge sign", 3, dict(edges=[{"cells": [[0, 0], [0, 1]], "sign": "?"}]),
     ["puzzle 3: malformed: edge 1: sign must be '=' or 'x', got '?'"]),
    ("edge huge float", 3, dict(edges=[{"cells": [[1e308 * 10, 0], [0, 1]], "sign": "="}]),
     ["puzzle 3: malformed: edge 1 must be {'cells': [[r, c], [r, c]], 'sign': '=' or 'x'}"]),
    ("edge cells a string", 3, dict(edges=[{"cells": "ab", "sign": "="}]),
     ["puzzle 3: malformed: edge 1 must be {'cells': [[r, c], [r, c]], 'sign': '=' or 'x'}"]),
    ("edges on takuzu", 1, dict(edges=[{"cells": [[0, 0], [0, 1]], "sign": "="}]),
     ["puzzle 1: malformed: takuzu puzzles have no edges"]),
    ("cages missing", 4, dict(cages=...), ["puzzle 4: malformed: Calcudoku 'cages' must be a non-empty list"]),
    ("cage overlap", 4, dict(cages=lambda cages: cages + [cages[0]]), None),
    ("cage target absurd", 4, dict(cages=lambda cages: [dict(cages[0], target=10**30)] + cages[1:]), None),
    ("cage bad op", 5, dict(cages=lambda cages: [dict(cages[0], op="%")] + cages[1:]), None),
    ("cage cell outside", 5, dict(cages=lambda cages: [dict(cages[0], cells=[[9, 9]])] + cages[1:]), None),
    # a cage beyond the rules' max_cage: at 9x9 its table of fillings would take the exact solver forever
    ("cage too big", 4, dict(cages=lambda cages: [{"cells": [[r, c] for r in range(4) for c in range(4)],
                                                   "op": "+", "target": 40}]),
     ["puzzle 4: cage at (1,1),(1,2),(1,3),(1,4),(2,1),(2,2),(2,3),(2,4),(3,1),(3,2),(3,3),(3,4),(4,1),(4,2),(4,3),"
     "(4,4) has 16 cells; the rules allow at most 4"]),
    ("wrong label", 1, dict(difficulty="expert"), ["puzzle 1: grades easy, but is labelled 'expert'"]),
    ("label not a word", 1, dict(difficulty=3), ["puzzle 1: grades easy, but is labelled 3"]),
]


@pytest.mark.parametrize("name,number,changes,expected", DAMAGE, ids=[d[0] for d in DAMAGE])
def test_damage_is_reported_per_puzzle(book, name, number, changes, expected):
    count, failures = check_book(_damaged(book, number, **changes))
    assert count == 5
    assert failures and all(line.startswith(f"puzzle {number}: ") for line in failures), failures
    if expected is not None:
        assert failures == expected


def test_a_rating_is_checked_but_a_book_from_before_ratings_passes(book):
    """A wrong rating is a failure; ``null`` is what a book says that was made before its
    variant was rated (Nonogram, Kakuro, Star Battle and Queens until 2026-11-27)."""
    rating = book["puzzles"][0]["rating"]
    assert rating is not None
    _, failures = check_book(_damaged(book, 1, rating=rating + 1))
    assert failures == [f"puzzle 1: rates {rating}, but is labelled rating {rating + 1}"]
    assert check_book(_damaged(book, 1, rating=None, minutes=None)) == (5, [])


def test_rule_breaking_answer_lists_each_broken_rule(book):
    _, failures = check_book(_damaged(book, 1, solution=lambda rows: ["111000"] + rows[1:]))
    assert "puzzle 1: row 1 has more than 2 1s in a row" in failures
    assert any(line.startswith("puzzle 1: column ") for line in failures)


def test_problems_in_several_puzzles_are_each_reported(book):
    doc = _damaged(book, 2, givens=["......"] * 6)
    doc["puzzles"][3]["difficulty"] = "hard"
    doc["puzzles"][4] = "not a puzzle"
    doc["format"] = "bookgen-book/0"
    count, failures = check_book(doc)
    assert count == 5
    assert failures[0] == "format is 'bookgen-book/0', expected 'bookgen-book/1'"
    assert failures[1] == "puzzle 2: has more than one solution"
    assert failures[2].startswith("puzzle 4: grades ") and failures[2].endswith("but is labelled 'hard'")
    assert failures[3] == "puzzle 5: is not a JSON object but 'not a puzzle'"
    assert len(failures) == 4


@pytest.mark.parametrize("doc,expected", [
    ([], ["not a bookgen book: the top level is not a JSON object"]),
    ({"format": "bookgen-book/1"}, ["missing 'puzzles' list"]),
    ({"format": "bookgen-book/1", "puzzles": {}}, ["missing 'puzzles' list"]),
    ({"puzzles": []}, ["format is None, expected 'bookgen-book/1'"]),
])
def test_not_a_book(doc, expected):
    assert check_book(doc)[1] == expected


# ----- through the command line -------------------------------------------------------------------
def test_check_cli_exit_codes(book, tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(book))
    assert runner.invoke(app, ["check", str(good)]).exit_code == 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_damaged(book, 3, edges=[{"cells": [[0, 0], [0, 1]], "sign": "?"}])))
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}: puzzle 3: malformed: edge 1: sign must be '=' or 'x', got '?'" in result.output
    assert "1 problem(s) in 5 puzzles" in result.output


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


UNREADABLE = [
    ("syntax", lambda p: (p / "x.json").write_text('{"format": "bookgen-book/1",\n  "puzzles": [1,]}') and p / "x.json",
     ":2:17: not valid JSON: Expecting value"),
    ("deep nesting", lambda p: (p / "x.json").write_text("[" * 100000 + "]" * 100000) and p / "x.json",
     ": not usable JSON: nested too deeply"),
    ("huge number", lambda p: (p / "x.json").write_text('{"seed": ' + "9" * 5000 + "}") and p / "x.json",
     ": not usable JSON: Exceeds the limit (4300 digits) for integer string conversion"),
    ("missing", lambda p: p / "none.json", ": no such file"),
    ("directory", lambda p: (p / "d.json").mkdir() or p / "d.json", ": is a directory, not a file"),
    ("fifo", lambda p: _fifo(p / "f.json"), ": is not a regular file"),
    ("not utf-8", lambda p: (p / "x.json").write_bytes(b'{"title": "\xff"}') and p / "x.json", ": not UTF-8 text"),
]


@pytest.mark.parametrize("name,make,fragment", UNREADABLE, ids=[u[0] for u in UNREADABLE])
def test_check_unreadable_files(tmp_path, name, make, fragment):
    path = make(tmp_path)
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    assert result.output.startswith(f"error: {path}{fragment}"), result.output
    assert len(result.output.splitlines()) == 1


# ----- fuzzing: random damage never crashes the checker ---------------------------------------------
NASTY = [None, True, False, 0, -1, 1, 2, 7, 10**20, -(10**20), 1.5, float("inf"), float("-inf"), float("nan"), "",
         "x", "1", "=", [], {}, [[]], [0, 0], [-1, 0], [[0, 0], [0, 1]], [[0, 0], [0, 0]], "......", ["......"],
         {"cells": [[0, 0]], "op": "+", "target": 1}, {"cells": [[0, 0], [0, 1]], "sign": "="}]
SCALARS = (st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.integers(-3, 15)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8)
           | st.sampled_from(["", ".", "0", "1", "=", "x", "+", "/", "easy", "expert", "takuzu", "tango", "kenken",
                              "......", "010101", "1234", "12", "cells", "sign", "op", "target"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.sampled_from(["cells", "sign", "op", "target", "max_run", "unique_lines",
                                                         "ops", "max_cage", "show_ops", "singles"]) | st.text(max_size=5),
                                        inner, max_size=4), max_leaves=12)


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key in sorted(node):
            yield from _paths(node[key], path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _paths(item, path + (i,))


def _mutate(doc, path, how, value):
    if not path:
        return value if how == "replace" else doc
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    old = parent[last]
    if how == "delete":
        del parent[last]
    elif how == "replace":
        parent[last] = value
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(old))
    elif how == "nudge":  # the same kind of value, slightly or absurdly wrong
        if isinstance(old, bool):
            parent[last] = not old
        elif isinstance(old, int):
            parent[last] = [old + 1, old - 1, -old, float(old), old * 10**20, float("inf")][len(repr(value)) % 6]
        elif isinstance(old, str) and old:
            parent[last] = old[1:] + old[:1] if len(old) > 1 else old + old
        elif isinstance(old, list) and old:
            parent[last] = old[:-1]
    return doc


def _damage(book: dict, number: int, data) -> dict:
    """Puzzle ``number`` of the book alone, with one to three random mutations drawn from ``data``."""
    doc = copy.deepcopy(book)
    doc["puzzles"] = [doc["puzzles"][number - 1]]
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        path = data.draw(st.sampled_from(list(_paths(doc))), label="path")
        how = data.draw(st.sampled_from(["delete", "replace", "duplicate", "nudge"]), label="how")
        value = data.draw(st.sampled_from(NASTY) | VALUES, label="value")
        doc = _mutate(doc, path, how, copy.deepcopy(value))  # NASTY's lists must stay as they are
    return doc


@pytest.mark.parametrize("number", [1, 3, 4], ids=["takuzu", "tango", "kenken"])
@settings(max_examples=int(os.environ.get("FUZZ", 0)) or examples(20), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_damage_never_crashes(book, number, data):
    count, failures = check_book(_damage(book, number, data))
    assert isinstance(count, int) and all(isinstance(line, str) and len(line) < 250 for line in failures)


@pytest.mark.parametrize("number", [1, 3, 4], ids=["takuzu", "tango", "kenken"])
@settings(max_examples=int(os.environ.get("FUZZ", 0)) or examples(15), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_damage_never_crashes_solve(book, number, data):
    """The same damage through ``bookgen solve``'s reader: a located refusal or a puzzle it solves in bounds."""
    from bookgen.limits import TooSlow, time_limit
    from bookgen.puzzletext import PuzzleTextError, parse_book_json, solve_report

    doc = _damage(book, number, data)
    try:
        text = json.dumps(doc)
    except ValueError:  # nan and inf are fine; only what json itself refuses to write is skipped
        return
    try:
        puzzle = parse_book_json(text, "b.json")
    except PuzzleTextError as exc:
        assert str(exc).startswith("b.json") and len(str(exc)) < 300
        return
    try:
        with time_limit(10):
            report = solve_report(puzzle)
    except TooSlow:
        return
    assert report.code in (0, 1) and isinstance(report.text, str)
