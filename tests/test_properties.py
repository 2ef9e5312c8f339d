"""Property tests: the config loader only ever raises ``ConfigError``; puzzles
survive the JSON round trip; KenKen's exact solver agrees with brute force
over every 4x4 Latin square."""

from __future__ import annotations

import functools
import itertools
import json
import string

import pytest
import yaml
from hypothesis import given, settings, strategies as st
from conftest import FUZZ_SCALE, examples

from bookgen.book import dumps, puzzle_json
from bookgen.config import ConfigError, load_yaml, parse_book
from bookgen.core.types import Cage, Edge, Puzzle
from bookgen.variants.kenken import KENKEN
from bookgen.variants.registry import get_variant

GOOD = """\
title: Binary Puzzles
seed: 2026
page: a4
sections:
  - variant: takuzu
    size: [6, 8]
    count: 6
    difficulty: {from: easy, to: hard}
    rules: {max_run: 2, unique_lines: true}
  - variant: tango
    givens: few
    difficulty: [{easy: 2}, {expert: 1}]
  - variant: kenken
    size: 5
    count: 2
    rules: {ops: ['+', '*'], max_cage: 3, show_ops: false, singles: none}
"""


def _load(text: str):
    data, where = load_yaml(text, "book.yaml")
    return parse_book(data, where, "book.yaml", "book")


def _read(text: str, plain: bool):
    """What ``load_yaml`` makes of a text: the data and every position, or the errors' lines;
    and the data and positions themselves (None after an error)."""
    try:
        data, where = load_yaml(text, "book.yaml", plain=plain)
    except ConfigError as exc:
        return [str(i) for i in exc.issues], None
    return (repr(data), where.values, where.keys, where.texts), (data, where)


def _only_config_errors(text: str) -> None:
    # libyaml's parser (the fast path) reads every fuzzed text as PyYAML's own (the plain one) does
    fast, loaded = _read(text, plain=False)
    assert fast == _read(text, plain=True)[0]
    if loaded is None:  # the YAML itself refused: its lines are the errors
        issues = fast
    else:  # validated as _load does, from the text read once
        try:
            parse_book(*loaded, "book.yaml", "book")
            return
        except ConfigError as exc:
            issues = [str(i) for i in exc.issues]
    assert issues and all(line.startswith("book.yaml:") for line in issues)
    assert all("\n" not in line for line in issues)  # one line per problem


def test_the_base_config_is_valid():
    book = _load(GOOD)
    assert [s.count for s in book.sections] == [6, 3, 2]


# Texts libyaml reads otherwise than PyYAML (bookgen/config.py, ``_compose``: each is sent to
# PyYAML alone), one or two of each kind the fuzzers found in the eighth session: a tab after a
# value, a byte-order mark inside the text, ``?`` inside a flow mapping, a ``#`` right after a
# block scalar's header, an empty value. Without its guard each reads otherwise on the fast path;
# the fuzzers below draw such texts only now and then.
LIBYAML_READS_OTHERWISE = ["title\t\n", "title: T\t\n", "- a\t\n", "\ufeff\ufeffa: 1\n", "{a? b: 1}\n",
                           "{a ? b: 1}\n", "a: >#\n b\n", "a: |-#\n  b\n", "{a: }\n", "{a: , b: 1}\n",
                           GOOD.replace("Puzzles", "Puzzles\t"), GOOD.replace("to: hard}", "to: }")]


@pytest.mark.parametrize("text", LIBYAML_READS_OTHERWISE, ids=[repr(t[:12]) for t in LIBYAML_READS_OTHERWISE])
def test_the_fast_reader_reads_as_pyyaml_where_libyaml_differs(text):
    _only_config_errors(text)


YAML_BITS = st.sampled_from([
    "title", "sections", "variant", "size", "count", "difficulty", "rules", "from", "to", "max_run", "ops",
    "takuzu", "kenken", "tango", "easy", "expert", ":", ": ", "- ", "-", "[", "]", "{", "}", ",", "\n", "\n  ",
    "\n    ", "\t", "&a ", "*a", "!!str ", "!!int ", "? ", "|", ">", "'", '"', "#", "~", "null", "no", "yes",
    "1e3", "0x1F", "0o17", ".inf", ".nan", "-0", "1_000", "99999999999999999999", "3.0", "<<: *a", "---",
    "...", "%YAML 1.1\n", "\ufeff", "\x00", "é",
])


@settings(max_examples=examples(50), deadline=None)
@given(st.text(max_size=200))
def test_loader_on_arbitrary_text(text):
    _only_config_errors(text)


@settings(max_examples=examples(50), deadline=None)
@given(st.lists(YAML_BITS | st.text(string.printable, max_size=3), max_size=40))
def test_loader_on_yaml_like_noise(bits):
    _only_config_errors("".join(bits))


@settings(max_examples=examples(50), deadline=None)
@given(st.data())
def test_loader_on_damaged_good_configs(data):
    lines = GOOD.splitlines(keepends=True)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        how = data.draw(st.sampled_from(["delete", "duplicate", "insert", "edit", "indent", "dedent"]))
        if how == "delete" and len(lines) > 1:
            del lines[i]
        elif how == "duplicate":
            lines.insert(i, lines[i])
        elif how == "insert":
            lines.insert(i, "".join(data.draw(st.lists(YAML_BITS, max_size=5))) + "\n")
        elif how == "edit":
            j = data.draw(st.integers(0, max(0, len(lines[i]) - 1)))
            lines[i] = lines[i][:j] + data.draw(YAML_BITS | st.text(max_size=2)) + lines[i][j + 1:]
        elif how == "indent":
            lines[i] = "  " + lines[i]
        else:
            lines[i] = lines[i][2:] if lines[i].startswith("  ") else lines[i]
    _only_config_errors("".join(lines))


DATA = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10)
    | st.sampled_from(["takuzu", "tango", "kenken", "easy", "hard", "expert", "+", "few"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["title", "sections", "variant", "size", "count", "difficulty", "rules", "seed", "page",
                         "givens", "from", "to", "max_run", "unique_lines", "ops", "max_cage", "show_ops",
                         "singles", "easy", "hard"]) | st.text(max_size=6), inner, max_size=5),
    max_leaves=25)


@settings(max_examples=examples(50), deadline=None)
@given(DATA)
def test_loader_on_any_yaml_document(data):
    """Whatever structure a YAML file holds, validation answers with located errors."""
    _only_config_errors(yaml.safe_dump(data, allow_unicode=True))


# ----- JSON round trip ----------------------------------------------------------------------------------
@st.composite
def binary_puzzles(draw):
    variant = get_variant(draw(st.sampled_from(["takuzu", "tango"])))
    n = draw(st.sampled_from(variant.sizes))
    # a byte a cell: its low bit the solution's symbol, the next whether it is given (one draw for
    # the grid: drawing each cell's symbol and mask was most of this test's time)
    cells = draw(st.binary(min_size=n * n, max_size=n * n))
    solution = tuple("".join("01"[cells[r * n + c] & 1] for c in range(n)) for r in range(n))
    givens = tuple("".join(solution[r][c] if cells[r * n + c] & 2 else "." for c in range(n)) for r in range(n))
    rules = variant.parse_rules({"max_run": draw(st.sampled_from([2, 3])) if n >= 8 else 2,
                                 "unique_lines": draw(st.booleans())}, n)
    edges = ()
    if variant.uses_signs:
        picks = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 2), st.booleans(),
                                        st.sampled_from("=x")), max_size=8, unique_by=lambda t: t[:3]))
        edges = tuple(Edge(*(((c, r), (c + 1, r)) if down else ((r, c), (r, c + 1))), sign)
                      for r, c, down, sign in picks)
    return Puzzle(variant.name, n, rules, givens, solution, edges=edges)


def _latin(n: int, rows: list[int], cols: list[int], symbols: list[int]) -> list[list[int]]:
    return [[symbols[(rows[r] + cols[c]) % n] + 1 for c in range(n)] for r in range(n)]


@st.composite
def cagings(draw, n: int):
    """A random partition of the n x n grid into connected cages of 1 to 4 cells (from a Random
    that hypothesis seeds: one draw, where a draw for each cage's growth was most of the cost)."""
    rng = draw(st.randoms(use_true_random=True))
    owner: dict[tuple[int, int], int] = {}
    cages: list[list[tuple[int, int]]] = []
    starts = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(starts)
    for start in starts:
        if start in owner:
            continue
        cage = [start]
        owner[start] = len(cages)
        for _ in range(rng.randint(0, 3)):
            frontier = sorted({(r + dr, c + dc) for r, c in cage for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                               if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr, c + dc) not in owner})
            if not frontier:
                break
            cell = rng.choice(frontier)
            owner[cell] = len(cages)
            cage.append(cell)
        cages.append(sorted(cage))
    return cages


def _value(op: str, digits: list[int]) -> int | None:
    """A cage's arithmetic, written out again here so the test does not trust the solver's."""
    if op == "":
        return digits[0] if len(digits) == 1 else None
    if op == "+":
        return sum(digits) if len(digits) >= 2 else None
    if op == "*":
        product = 1
        for d in digits:
            product *= d
        return product if len(digits) >= 2 else None
    if len(digits) != 2:
        return None
    hi, lo = max(digits), min(digits)
    if op == "-":
        return hi - lo
    return hi // lo if hi % lo == 0 else None


@st.composite
def kenken_puzzles(draw, n: int | None = None, show_ops: bool | None = None):
    """A random caging with true targets from a random Latin square (sometimes one target off by one)."""
    n = n or draw(st.integers(3, 6))
    square = _latin(n, draw(st.permutations(range(n))), draw(st.permutations(range(n))),
                    draw(st.permutations(range(n))))
    ops = draw(st.sampled_from([["+", "-", "*", "/"], ["+", "*"], ["+", "-"]]))
    cages = []
    rng = draw(st.randoms(use_true_random=True))
    for cells in draw(cagings(n)):
        digits = [square[r][c] for r, c in cells]
        options = [op for op in ([""] if len(cells) == 1 else ops) if _value(op, digits) is not None]
        op = rng.choice(options)
        cages.append(Cage(tuple(cells), op, _value(op, digits)))
    if draw(st.booleans()):
        k = draw(st.integers(0, len(cages) - 1))
        cages[k] = Cage(cages[k].cells, cages[k].op, cages[k].target + 1)
    givens = [["."] * n for _ in range(n)]
    for r, c in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3)):
        givens[r][c] = str(square[r][c])
    show = draw(st.booleans()) if show_ops is None else show_ops
    rules = KENKEN.parse_rules({"ops": ops, "show_ops": show}, n)
    return Puzzle("kenken", n, rules, tuple("".join(row) for row in givens),
                  tuple("".join(map(str, row)) for row in square), cages=tuple(cages))


@settings(max_examples=examples(60), deadline=None)
@given(binary_puzzles() | kenken_puzzles())
def test_json_round_trip(puzzle):
    variant = get_variant(puzzle.variant)
    entry = json.loads(dumps(puzzle_json(7, puzzle, page=3)))
    assert entry["number"] == 7 and entry["page"] == 3 and entry["variant"] == puzzle.variant
    back = variant.from_json(entry)
    assert (back.variant, back.size, dict(back.rules), back.givens, back.solution, back.edges, back.cages) == (
        puzzle.variant, puzzle.size, dict(puzzle.rules), puzzle.givens, puzzle.solution, puzzle.edges,
        puzzle.cages)
    assert dumps(puzzle_json(7, back, page=3)) == dumps(entry)  # byte-stable the second time round


# ----- KenKen: exact solver against brute force ------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _latin_squares(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """All n x n Latin squares over 1..n, by brute force over row permutations."""
    perms = list(itertools.permutations(range(1, n + 1)))
    out = []

    def extend(rows):
        if len(rows) == n:
            out.append(tuple(rows))
            return
        for p in perms:
            if all(p[c] != row[c] for row in rows for c in range(n)):
                extend(rows + [p])

    extend([])
    return tuple(out)


def test_there_are_576_latin_squares_of_order_4():
    assert len(_latin_squares(4)) == 576


def _brute_kenken(puzzle: Puzzle) -> list[tuple[str, ...]]:
    hidden = not puzzle.rules.get("show_ops", True)
    ops = list(puzzle.rules.get("ops", ["+", "-", "*", "/"]))
    out = []
    for square in _latin_squares(puzzle.size):
        if any(g != "." and int(g) != square[r][c] for r, row in enumerate(puzzle.givens) for c, g in enumerate(row)):
            continue
        fits = True
        for cage in puzzle.cages:
            digits = [square[r][c] for r, c in cage.cells]
            allowed = ops if hidden and len(digits) > 1 else [cage.op]
            if not any(_value(op, digits) == cage.target for op in allowed):
                fits = False
                break
        if fits:
            out.append(tuple("".join(map(str, row)) for row in square))
    return sorted(out)


@settings(max_examples=examples(60), deadline=None)
@given(kenken_puzzles(n=4))
def test_kenken_solver_agrees_with_brute_force(puzzle):
    expected = _brute_kenken(puzzle)
    assert sorted(KENKEN.solutions(puzzle, 1000)) == expected
    # with a limit, the solver stops early but never invents a solution
    some = KENKEN.solutions(puzzle, 2)
    assert len(some) == min(2, len(expected)) and set(some) <= set(expected)
    honest = all(_value(c.op, [int(puzzle.solution[r][k]) for r, k in c.cells]) == c.target for c in puzzle.cages)
    assert (KENKEN.validate(puzzle) == []) == honest  # validate notices exactly the bent target


# ----- issue 26: lists and mappings for every scalar key ------------------------------------------------
FULL = {"title": "T", "subtitle": "S", "author": "A", "seed": 1, "page": "6x9", "bleed": False,
        "layout": "book", "per_page": 2, "large_print": False, "language": "en",
        "imprint": {"publisher": "P", "year": 2026, "isbn": "0306406152", "edition": "1", "show_seed": True},
        "names": {"takuzu": "Bin"}, "replace": [1],
        "cover": {"paper": "white", "blurb": "b", "colour": "#112233", "sample": 1},
        "sections": [{"variant": "takuzu", "count": 2, "size": 6, "difficulty": "easy", "rules": {"max_run": 2},
                      "title": "t", "per_page": 2, "explain": False, "new_page": False},
                     {"variant": "kenken", "count": 2, "size": 5, "difficulty": {"from": "easy", "to": "hard"},
                      "rules": {"ops": ["+"], "max_cage": 3, "show_ops": False, "singles": "none"}},
                     {"variant": "tango", "count": 1, "size": 6, "givens": "few"}]}


def _scalar_paths(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _scalar_paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _scalar_paths(item, path + (i,))
    else:
        yield path


SCALAR_PATHS = list(_scalar_paths(FULL))


BAD = [["white"], {"a": 1}, [[1]], {"a": {"b": 1}}, [], {}, None, "x" * 300, 10**40]
# Every key once, the bad values in turn (each five times), and the two of issue 26 A7 (which
# raised TypeError: unhashable type). FUZZ_SCALE above 1 (bench/sweep_fuzz.py) takes all 43 x 9.
SCALAR_CASES = ([(path, BAD[i % len(BAD)]) for i, path in enumerate(SCALAR_PATHS)]
                + [(("cover", "paper"), ["white"]), (("cover", "paper"), {"a": 1})])


def test_every_scalar_key_given_a_list_or_mapping_is_a_located_error():
    cases = [(path, bad) for path in SCALAR_PATHS for bad in BAD] if FUZZ_SCALE > 1 else SCALAR_CASES
    for path, bad in cases:
        data = json.loads(json.dumps(FULL))
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = bad
        try:
            _only_config_errors(yaml.safe_dump(data, allow_unicode=True))
        except Exception as exc:  # noqa: BLE001 - which key and value, then what went wrong
            raise AssertionError(f"{path} = {bad!r}: {exc!r}") from exc
