"""`bookgen solve`: hand-typed puzzles, explained steps, exit codes, bad input."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import product

import pytest
from typer.testing import CliRunner

from bookgen.book import FORMAT, puzzle_json
from bookgen.cli import app
from bookgen.core.difficulty import Level
from bookgen.core.rng import derive_seed, rng_for
from bookgen.core.types import EMPTY, Puzzle
from bookgen.puzzletext import PuzzleTextError, grid_lines, parse_text, solve_report, to_text
from bookgen.variants.registry import get_variant

runner = CliRunner()
SUN, MOON = "\u2600", "\u263e"

TAKUZU_6 = """\
# Binairo from a magazine: 0, 1 and . for an empty cell
. . . . 1 .
. 0 . 0 . .
. . 1 . . .
. 0 . . 0 .
. . . . . 0
. . 1 . 1 .
"""

# A LinkedIn-style Tango typed by hand: six givens, seven signs.
TANGO_LINKEDIN = """\
tango
S   . = .   S   .   .

.   .   .   .   .   M
        x
.   .   .   .   . = .
            x
.   .   .   .   S   .
=
.   S   .   .   . x .

.   . = .   .   .   M
"""

KENKEN_4 = """\
# one letter per cage, then the clues
a a b c
d d b c
d e f f
g h h h

a: 1-   b: 4+   c: 2/   d: 10+
e: 4    f: 2/   g: 2    h: 8+
"""

# Unique (the SAT solver says so) but beyond one trial: a player must guess.
TAKUZU_STUCK = """\
takuzu
1.1....0..
.........0
1.......0.
1..0...1.1
......0...
..........
..0..1.0..
..........
0......1.0
.01...0..0
"""

HAND_TYPED = {"takuzu": TAKUZU_6, "tango": TANGO_LINKEDIN, "kenken": KENKEN_4}


def _solve_file(tmp_path, text, *args, name="puzzle.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, runner.invoke(app, ["solve", str(path), *args])


def _unique(puzzle: Puzzle) -> tuple[str, ...]:
    found = get_variant(puzzle.variant).solutions(puzzle, 2)
    assert len(found) == 1, "test puzzle must have exactly one solution"
    return found[0]


# ----- hand-typed puzzles of every variant --------------------------------------------
@pytest.mark.parametrize("name", sorted(HAND_TYPED))
def test_hand_typed_puzzle_solves(name, tmp_path):
    puzzle = parse_text(HAND_TYPED[name], "hand.txt")
    assert puzzle.variant == name
    solution = _unique(puzzle)
    variant = get_variant(name)
    assert variant.validate(replace(puzzle, solution=solution)) == []  # rules hold, givens kept
    _, result = _solve_file(tmp_path, HAND_TYPED[name])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    drawn = grid_lines(puzzle, solution)
    at = lines.index("Solution:") + 2
    assert lines[at:at + len(drawn)] == drawn
    assert "Difficulty: " in result.output and "Traceback" not in result.output


def test_linkedin_tango_reads_signs_in_both_directions():
    puzzle = parse_text(TANGO_LINKEDIN, "t.txt")
    assert puzzle.size == 6
    assert sum(ch != EMPTY for row in puzzle.givens for ch in row) == 6
    signs = {(e.a, e.b): e.sign for e in puzzle.edges}
    assert signs == {((0, 1), (0, 2)): "=", ((1, 2), (2, 2)): "x", ((2, 4), (2, 5)): "=",
                     ((2, 3), (3, 3)): "x", ((3, 0), (4, 0)): "=", ((4, 4), (4, 5)): "x",
                     ((5, 1), (5, 2)): "="}
    assert puzzle.givens[0] == "1..1.." and puzzle.givens[1][5] == "0"


# ----- every explained step is a valid deduction ----------------------------------------
def _line_fillings(n: int, max_run: int, eq: set[int], neq: set[int]):
    """Every valid line by brute force (independent of the engine's bitmask tables)."""
    for bits in product("01", repeat=n):
        line = "".join(bits)
        if line.count("1") * 2 != n:
            continue
        if "0" * (max_run + 1) in line or "1" * (max_run + 1) in line:
            continue
        if any(line[j] != line[j + 1] for j in eq) or any(line[j] == line[j + 1] for j in neq):
            continue
        yield line


def _lines_of(cells):
    """The row and/or column holding every cell a step fills."""
    rows = {r for (r, _), _ in cells}
    cols = {c for (_, c), _ in cells}
    out = [("row", r) for r in rows if len(rows) == 1] + [("col", c) for c in cols if len(cols) == 1]
    assert out, f"a line step fills cells of one row or one column: {cells}"
    return out


def _forced_by_line(puzzle: Puzzle, state, step, kind: str, k: int) -> bool:
    """Whether every valid filling of that one line (brute force) agrees with the step."""
    n, rules = puzzle.size, puzzle.rules
    cells = [(r, c) for r in range(n) for c in range(n) if (r if kind == "row" else c) == k]
    now = "".join(state[r][c] for r, c in cells)
    eq, neq = set(), set()
    for e in puzzle.edges:
        if e.a in cells and e.b in cells:
            j = min(cells.index(e.a), cells.index(e.b))
            (eq if e.sign == "=" else neq).add(j)
    fits = [f for f in _line_fillings(n, rules["max_run"], eq, neq)
            if all(a == EMPTY or a == b for a, b in zip(now, f))]
    if step.technique == "distinct":
        parallel = [state[i] if kind == "row" else [state[r][i] for r in range(n)] for i in range(n) if i != k]
        finished = {"".join(x) for x in parallel if EMPTY not in x}
        fits = [f for f in fits if f not in finished]
    assert fits, "the line had no valid filling before the step"
    return all({f[cells.index(cell)] for f in fits} == {sym} for cell, sym in step.cells)


def _check_binary_step(puzzle: Puzzle, state: list[list[str]], step) -> None:
    if step.technique == "trial":
        ((r, c), sym), = step.cells
        trial = [row[:] for row in state]
        trial[r][c] = "1" if sym == "0" else "0"
        other = replace(puzzle, givens=tuple("".join(row) for row in trial))
        assert get_variant(puzzle.variant).solutions(other, 1) == []
        assert f"row {r + 1}, column {c + 1}" in step.reason
        return
    lines = [(kind, k) for kind, k in _lines_of(step.cells) if _forced_by_line(puzzle, state, step, kind, k)]
    assert lines, f"{step.technique} {step.cells} does not follow from its row or column"
    kind, k = lines[0]
    # the reason names the line and each filled cell's place along it
    named = [f"{'row' if kind == 'row' else 'column'} {k + 1}" for kind, k in lines]
    assert any(x in step.reason.lower() for x in named), step.reason
    for (r, c), _ in step.cells:
        assert str((c if kind == "row" else r) + 1) in step.reason


def _generated(name: str, level: Level) -> Puzzle:
    variant = get_variant(name)
    size = 6 if name != "kenken" else 5
    return variant.generate(size, variant.parse_rules({}, size), level, rng_for(derive_seed(5, int(level), 7)))


EXPLAINED = [(name, HAND_TYPED[name]) for name in sorted(HAND_TYPED)] + [("takuzu-stuck", TAKUZU_STUCK)]


@pytest.mark.parametrize("name,text", EXPLAINED, ids=[n for n, _ in EXPLAINED])
def test_every_step_is_a_valid_deduction_and_the_steps_replay(name, text):
    puzzle = parse_text(text, "p.txt")
    _check_steps(puzzle)


@pytest.mark.parametrize("name,level", [("tango", Level.HARD), ("takuzu", Level.EXPERT),
                                        ("tango", Level.EXPERT), ("kenken", Level.HARD)])
def test_generated_puzzles_explain_validly(name, level):
    _check_steps(_generated(name, level))


def _check_steps(puzzle: Puzzle) -> None:
    variant = get_variant(puzzle.variant)
    solution = _unique(puzzle)
    steps, reached, solved = variant.explain(replace(puzzle, solution=solution))
    assert steps
    state = [list(row) for row in puzzle.givens]
    for step in steps:
        assert step.reason, f"step {step.technique} gives no reason"
        if puzzle.variant != "kenken":
            _check_binary_step(puzzle, state, step)
        for (r, c), sym in step.cells:
            assert state[r][c] == EMPTY, "a step fills a cell that is already filled"
            assert solution[r][c] == sym, "a step writes a symbol the unique solution does not have"
            state[r][c] = sym
    assert tuple("".join(row) for row in state) == reached  # the steps alone reach the final grid
    assert solved == (reached == solution)
    if puzzle.variant == "tango":
        assert all("1s" not in s.reason and "0s" not in s.reason for s in steps)
        assert any("sun" in s.reason for s in steps) and any("moon" in s.reason for s in steps)


def test_explain_prints_numbered_steps_with_cells(tmp_path):
    _, result = _solve_file(tmp_path, TANGO_LINKEDIN, "--explain")
    assert result.exit_code == 0
    puzzle = parse_text(TANGO_LINKEDIN, "t.txt")
    steps, _, _ = get_variant("tango").explain(replace(puzzle, solution=_unique(puzzle)))
    for i, step in enumerate(steps, start=1):
        cells = ", ".join(f"r{r + 1}c{c + 1} {SUN if s == '1' else MOON}" for (r, c), s in step.cells)
        assert any(line.startswith(f"{i:>2}. ") and line.endswith(cells) for line in result.output.splitlines())


# ----- exit codes: unique, several, none, guessing ---------------------------------------
def test_several_solutions_shows_two_and_exits_1(tmp_path):
    text = TANGO_LINKEDIN.replace(".   .   .   .   . = .", ".   .   .   .   .   .")
    _, result = _solve_file(tmp_path, text)
    assert result.exit_code == 1
    assert "More than one solution" in result.output
    puzzle = parse_text(text, "x.txt")
    a, b = get_variant("tango").solutions(puzzle, 2)
    assert a != b
    out = result.output
    for sol in (a, b):  # each solution's first row is printed side by side
        assert grid_lines(puzzle, sol)[0] in out


def test_no_solution_exits_1(tmp_path):
    _, result = _solve_file(tmp_path, "takuzu\n1 1 1 . . .\n" + ". . . . . .\n" * 5)
    assert result.exit_code == 1 and "No solution" in result.output


def test_guessing_needed_exits_1_and_says_where(tmp_path):
    _, result = _solve_file(tmp_path, TAKUZU_STUCK)
    assert result.exit_code == 1
    puzzle = parse_text(TAKUZU_STUCK, "s.txt")
    steps, _, solved = get_variant("takuzu").explain(replace(puzzle, solution=_unique(puzzle)))
    assert not solved
    assert f"The techniques run out after step {len(steps)}," in result.output
    assert "It does have exactly one solution" in result.output


def test_ascii_output_is_plain(tmp_path):
    _, result = _solve_file(tmp_path, TANGO_LINKEDIN, "--explain", "--ascii")
    assert result.exit_code == 0
    assert result.output.isascii() and "S   M = M" in result.output


# ----- book JSON -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def book_file(tmp_path_factory):
    puzzles = [_generated("takuzu", Level.EASY), _generated("tango", Level.MEDIUM),
               _generated("kenken", Level.EASY)]
    path = tmp_path_factory.mktemp("book") / "book.json"
    data = {"format": FORMAT, "title": "T", "seed": 1,
            "puzzles": [puzzle_json(i + 1, p, 3) for i, p in enumerate(puzzles)]}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, puzzles


@pytest.mark.parametrize("number", [1, 2, 3])
def test_solve_puzzle_from_book_json(book_file, number):
    path, puzzles = book_file
    result = runner.invoke(app, ["solve", str(path), "--number", str(number), "--explain"])
    assert result.exit_code == 0, result.output
    expected = puzzles[number - 1]
    drawn = grid_lines(expected, expected.solution)
    lines = result.output.splitlines()
    at = lines.index("Solution:") + 2
    assert lines[at:at + len(drawn)] == drawn
    assert f"Difficulty: {expected.grade.level.key} " in result.output


def test_book_json_needs_a_valid_number(book_file):
    path, _ = book_file
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 2 and "choose one with --number" in result.output
    result = runner.invoke(app, ["solve", str(path), "--number", "9"])
    assert result.exit_code == 2 and "no puzzle number 9 (it has 1..3)" in result.output


# ----- the text format round-trips ---------------------------------------------------------
@pytest.mark.parametrize("name,level", [("takuzu", Level.MEDIUM), ("tango", Level.EASY),
                                        ("kenken", Level.MEDIUM)])
def test_to_text_parses_back_to_the_same_puzzle(name, level):
    puzzle = _generated(name, level)
    back = parse_text(to_text(puzzle), "rt.txt")
    assert (back.variant, back.size, back.givens, back.edges, back.cages) == \
        (puzzle.variant, puzzle.size, puzzle.givens, puzzle.edges, puzzle.cages)
    assert back.rules == puzzle.rules


def test_printed_tango_grid_reads_back(tmp_path):
    puzzle = parse_text(TANGO_LINKEDIN, "t.txt")
    printed = "tango\n" + "\n".join(grid_lines(puzzle, puzzle.givens)) + "\n"  # with ☀, ☾ and ×
    again = parse_text(printed, "p.txt")
    assert (again.givens, again.edges) == (puzzle.givens, puzzle.edges)


# ----- bad input: FILE:LINE:COL: message, exit 2 ----------------------------------------------
BAD = [
    ("ragged rows", "takuzu\n0 1 . .\n. . .\n. . . .\n. . . .\n", "3:1", "this row has 3 cells but the first row has 4"),
    ("not square", "0 1 . .\n. . . .\n. . . .\n", "3:1", "the grid has 3 rows of 4 cells; it must be square"),
    ("unknown symbol", "takuzu\n0 1 . .\n. 2 . .\n. . . .\n. . . .\n", "3:3", "unknown symbol '2'"),
    ("unknown tango symbol", "tango\nS M . .\n. . Q .\n. . . .\n. . . .\n", "3:5", "unknown symbol 'Q'"),
    ("odd size", "tango\nS . .\n. . .\n. . .\n", "2:1", "Tango grids are 4, 6, 8, 10 or 12 cells across, not 3"),
    ("sign between non-neighbours", "tango\nS   .   .   .\n  x\n.   .   .   .\n.   .   .   .\n.   .   .   .\n",
     "3:3", "this sign is not under a cell"),
    ("sign with no left cell", "tango\n= S . . .\n. . . .\n. . . .\n. . . .\n", "2:1", "no cell on its left"),
    ("two signs side by side", "tango\nS = x M . .\n", "2:5", "two signs side by side"),
    ("sign at row end", "tango\nS . . . =\n", "2:9", "no cell on its right"),
    ("signs below last row", "tango\nS . . .\n. . . .\n. . . .\n. . . .\nx\n", "6:1", "signs below the last row"),
    ("takuzu has no signs", "takuzu\n0 = 1 . \n", "2:3", "Takuzu has no signs"),
    ("bad rule option", "takuzu max_run=5\n0 1 . .\n. . . .\n. . . .\n. . . .\n", "1:1", "max_run must be 2 or 3"),
    ("option syntax", "takuzu max_run\n0 1 . .\n", "1:8", "expected a rule option as key=value"),
    ("cannot tell", ". . . .\n. . . .\n. . . .\n. . . .\n", "1:1", "can't tell which puzzle this is"),
    ("empty", "# nothing\n\n", "1:1", "the file holds no puzzle"),
    ("cage not connected", "a a b\nb c a\nc c b\na: 4+ b: 6+ c: 6+\n", "2:5", "cage 'a' is not connected"),
    ("target impossible for the cage", "a a b\nc c b\nd d d\na: 9+ b: 3+ c: 4+ d: 6+\n", "4:1",
     "cage 'a' can't make 9+ with 2 cells of digits 1 to 3: they add up to at most 5"),
    ("difference too big", "a a b\nc c b\nd d d\na: 2- b: 5- c: 1- d: 6x\n", "4:7",
     "cage 'b' can't make 5\u2212 with 2 cells"),
    ("minus on three cells", "a a b\nc c b\nd d d\na: 1- b: 1- c: 1- d: 2-\n", "4:19",
     "cage 'd' has 3 cells, but \u2212 needs exactly two"),
    ("single cell out of range", "a a b\nc c b\nd e e\na: 3+ b: 3+ c: 3+ d: 7 e: 3+\n", "4:19",
     "cage 'd' is one cell, so its target must be a digit from 1 to 3, not 7"),
    ("cage without a clue", "a a b\nc c b\nd d d\na: 3+ b: 3+ c: 3+\n", "3:1", "cage 'd' has no clue"),
    ("clue for no cage", "a a b\nc c b\nd d d\na: 3+ b: 3+ c: 3+ d: 6+ q: 3\n", "4:25", "cage 'q' is not in the grid"),
    ("clue twice", "a a b\nc c b\nd d d\na: 3+ b: 3+ c: 3+ d: 6+\na: 3+\n", "5:1", "cage 'a' has two clues"),
    ("legend syntax", "a a b\nc c b\nd d d\na: 3+ b 3+\n", "4:7", "expected 'label: target op'"),
    ("bad grid label", "a a b\nc ? b\nd d d\na: 3+\n", "2:3", "unknown symbol '?'"),
    ("grid after legend", "a a b\na: 3+\nc c b\n", "3:1", "grid rows must come before the legend"),
    ("mixed hidden ops", "a a b\nc c b\nd d d\na: 3+ b: 3 c: 3+ d: 6+\n", "4:7", "cage 'b' has no operation but others do"),
]


@pytest.mark.parametrize("case,text,where,message", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_reported_with_its_position(case, text, where, message, tmp_path):
    path, result = _solve_file(tmp_path, text)
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: {path}:{where}: "), result.output
    assert message in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_bad_json_and_files(tmp_path, book_file):
    path, result = _solve_file(tmp_path, '{"puzzles": [\n  {"variant": }\n]}', name="b.json")
    assert result.exit_code == 2 and result.output.startswith(f"error: {path}:2:")
    result = runner.invoke(app, ["solve", str(tmp_path / "missing.txt")])
    assert result.exit_code == 2 and "no such file" in result.output
    text_path, result = _solve_file(tmp_path, TAKUZU_6, "--number", "2")
    assert result.exit_code == 2 and "--number picks a puzzle from a book JSON file" in result.output
    data = json.loads(book_file[0].read_text())
    data["puzzles"][1]["edges"] = [{"cells": [[0, 0], [2, 2]], "sign": "="}]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = runner.invoke(app, ["solve", str(bad), "--number", "2"])
    assert result.exit_code == 2 and "puzzle 2: malformed: edge 1" in result.output


def test_parse_error_str_has_file_line_col():
    with pytest.raises(PuzzleTextError) as info:
        parse_text("takuzu\n0 1 . .\n. . Z .\n. . . .\n. . . .\n", "mag.txt")
    assert str(info.value).startswith("mag.txt:3:5: unknown symbol 'Z'")


def test_report_object_matches_cli(tmp_path):
    puzzle = parse_text(KENKEN_4, "k.txt")
    report = solve_report(puzzle, explain=True)
    _, result = _solve_file(tmp_path, KENKEN_4, "--explain")
    assert report.code == result.exit_code == 0 and report.text == result.output
    assert report.solution == _unique(puzzle)


# ----- explain: true puts a walkthrough on the rules pages ---------------------------------
def test_explain_section_adds_a_walkthrough(write_config, tmp_path):
    from pypdf import PdfReader

    from bookgen.config import load_book

    config = write_config("""\
        title: Walkthrough
        seed: 4
        sections:
          - variant: tango
            title: Warm-up
            size: 6
            count: 2
            difficulty: easy
            explain: true
          - variant: takuzu
            size: 6
            count: 1
            difficulty: easy
        """)
    book = load_book(config)
    assert [s.explain for s in book.sections] == [True, False]
    result = runner.invoke(app, ["build", str(config), "--out", str(tmp_path), "--quiet", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "book.json").read_text())
    first = data["puzzles"][0]
    texts = [page.extract_text() for page in PdfReader(str(tmp_path / "book.pdf")).pages]
    at = [i for i, t in enumerate(texts) if "Puzzle 1, step by step" in t and "Contents" not in t]
    assert len(at) == 1
    assert "How to play Tango" in texts[at[0] - 1]  # right after its rules pages
    assert "How to play Binairo" in texts[at[-1] + 1] or "How to play Binairo" in texts[at[-1] + 2]
    assert at[0] + 1 < first["page"]  # before the puzzle itself
    assert f"Puzzle 1, page {first['page']}" in texts[at[0]]
    puzzle = get_variant("tango").from_json(first)
    steps, _, _ = get_variant("tango").explain(puzzle)
    body = " ".join(" ".join(texts[at[0]:first["page"] - 1]).split())
    titles = {t.name: t.title for t in get_variant("tango").techniques}
    places = [body.find(f"{i}. {titles[step.technique]}") for i, step in enumerate(steps, start=1)]
    assert -1 not in places and places == sorted(places)  # every step, in order
    assert not any("step by step" in t for t in texts[first["page"] - 1:])  # takuzu: none


def test_explain_must_be_a_bool(write_config):
    from bookgen.config import ConfigError, load_book

    config = write_config("title: T\nsections:\n  - variant: tango\n    count: 1\n    explain: yes\n")
    with pytest.raises(ConfigError) as info:
        load_book(config)
    assert "book.yaml:5:14: explain must be true or false, got 'yes'" in str(info.value)


def test_kenken_without_operations_uses_every_op(tmp_path):
    text = KENKEN_4.replace("1-", "1").replace("4+", "4").replace("2/", "2").replace("10+", "10").replace("8+", "8")
    puzzle = parse_text(text, "k.txt")
    assert puzzle.rules["show_ops"] is False
    found = get_variant("kenken").solutions(puzzle, 2)
    _, result = _solve_file(tmp_path, text)
    assert result.exit_code == (0 if len(found) == 1 else 1)
    assert "|10 " in result.output and "10+" not in result.output  # targets only, as printed
