"""Publishing: fingerprints, series without repeats (exclude, check --against),
replace, class sets (versions) and ``bookgen plan``."""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from dataclasses import replace as dc_replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from conftest import examples
from pypdf import PdfReader
from typer.testing import CliRunner

import bookgen.layout.render as render
from bookgen.book import build, fingerprint, generate, plan, puzzle_json
from bookgen.cli import app
from bookgen.config import ConfigError, load_book
from bookgen.core.types import GridSize
from bookgen.core.difficulty import Level
from bookgen.core.rng import derive_seed, rng_for
from bookgen.core.types import Cage, Edge, OutsideClues
from bookgen.series import entry_fingerprint
from bookgen.variants.registry import VARIANTS

runner = CliRunner()
# Sizes that make quickly (Kakuro 10x10: 3 s a puzzle; the default 9x9 Jigsaw and 8x8 Queens and
# Star Battle take longer to make); 7, not 6, for Queens and Star Battle: a 6x6 solution has too
# few distinct symmetric images for the eight-symmetries test. Killer keeps its 3x3 boxes.
SIZES = {"takuzu": 8, "tango": 6, "kenken": 5, "kakuro": GridSize(7, 7), "jigsaw": 6, "queens": 7, "starbattle": 7}


@lru_cache(maxsize=None)  # each made once per worker: index 0 serves three tests (a 9x9 Killer: 0.3 s)
def _puzzle(name: str, index: int = 0, level: Level = Level.MEDIUM):
    variant = VARIANTS[name]
    size = SIZES.get(name, variant.default_size)
    rules = variant.parse_rules({}, size)
    return variant.generate(size, rules, level, rng_for(derive_seed(7, 3, index)))


def _eight(n: int):
    """The eight symmetries, built here from a quarter turn and a mirror (not the engine's list)."""
    def turn(k, mirror):
        def move(cell):
            r, c = cell
            if mirror:
                c = n - 1 - c
            for _ in range(k):
                r, c = c, n - 1 - r
            return r, c
        return move
    return [turn(k, m) for k in range(4) for m in (False, True)]


def _moved(puzzle, move):
    """The puzzle turned or mirrored by ``move`` (givens, solution, signs, cages, regions)."""
    n = puzzle.rows  # a square grid (every variant here, at the sizes this file makes)

    def rows(grid):
        out = [["."] * n for _ in range(n)]
        for r in range(n):
            for c in range(n):
                r2, c2 = move((r, c))
                out[r2][c2] = grid[r][c]
        return tuple("".join(row) for row in out)

    edges = tuple(Edge(move(e.a), move(e.b), e.sign) for e in reversed(puzzle.edges))
    cages = tuple(Cage(tuple(sorted(move(c) for c in cage.cells)), cage.op, cage.target)
                  for cage in reversed(puzzle.cages))
    clues = None
    if puzzle.variant == "nonogram":  # run clues: read again off the moved picture
        moved_solution = rows(puzzle.solution)
        clues = OutsideClues(top=tuple(_runs("".join(row[c] for row in moved_solution)) for c in range(n)),
                             left=tuple(_runs(row) for row in moved_solution))
    elif puzzle.clues is not None:  # each clue stands on the cell just outside its line's end
        moved = {side: [0] * n for side in ("top", "bottom", "left", "right")}
        for side, at in (("top", lambda k: (-1, k)), ("bottom", lambda k: (n, k)),
                         ("left", lambda k: (k, -1)), ("right", lambda k: (k, n))):
            for k, clue in enumerate(getattr(puzzle.clues, side)):
                r, c = move(at(k))
                where = ("top", c) if r < 0 else ("bottom", c) if r >= n else ("left", r) if c < 0 else ("right", r)
                moved[where[0]][where[1]] = clue
        clues = OutsideClues(**{side: tuple(v) for side, v in moved.items()})
    return dc_replace(puzzle, givens=rows(puzzle.givens), solution=rows(puzzle.solution), edges=edges,
                      cages=cages, regions=rows(puzzle.regions) if puzzle.regions else (), clues=clues)


def _runs(line: str) -> tuple[int, ...]:
    """A Nonogram line's run lengths (written here, not the engine's)."""
    return tuple(len(run) for run in line.split("0") if run)


def _swapped(puzzle):
    table = str.maketrans("01", "10")
    return dc_replace(puzzle, givens=tuple(r.translate(table) for r in puzzle.givens),
                      solution=tuple(r.translate(table) for r in puzzle.solution))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_fingerprint_agrees_under_all_eight_symmetries(name):
    variant = VARIANTS[name]
    puzzle = _puzzle(name)
    print_ = variant.fingerprint(puzzle)
    moves = _eight(puzzle.rows)
    seen_grids = set()
    for move in moves:
        moved = _moved(puzzle, move)
        seen_grids.add(moved.solution)
        assert variant.validate(moved) == []  # still a sound puzzle: the test moves it correctly
        assert variant.fingerprint(moved) == print_
        if name in ("takuzu", "tango"):  # the symbols swapped, signs carried along
            assert variant.fingerprint(_swapped(moved)) == print_
        if name in ("sudoku", "jigsaw"):  # any permutation of the digits
            digits = "123456789"[:puzzle.rows]
            table = str.maketrans(digits, digits[1:] + digits[0])
            shifted = dc_replace(moved, givens=tuple(r.translate(table) for r in moved.givens),
                                 solution=tuple(r.translate(table) for r in moved.solution))
            assert variant.fingerprint(shifted) == print_
    assert len(seen_grids) == 8  # eight different grids: the moves are the eight symmetries


# easy Queens and Star Battle 7x7 from indices 6-9 and 11 take 2-5 ms each, from 1-5 10-21 ms;
# an easy 7x7 Kakuro from 1, 5, 9, 13, 15 3-17 ms, from 1-5 5-31 ms
OTHERS = {"queens": (6, 7, 8, 9, 11), "starbattle": (6, 7, 8, 9, 11), "kakuro": (1, 5, 9, 13, 15)}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_fingerprint_differs_for_other_puzzles(name):
    variant = VARIANTS[name]
    # six different puzzles, six prints: five besides index 0 at easy (a medium Killer or
    # Jigsaw costs two to three times as much to make, and the level plays no part in a print),
    # from indices that make quickly where the first five don't
    prints = {variant.fingerprint(_puzzle(name, i, Level.EASY if i else Level.MEDIUM))
              for i in (0, *OTHERS.get(name, range(1, 6)))}
    assert len(prints) == 6
    puzzle = _puzzle(name)
    if puzzle.cages:  # one cage's target changed is another puzzle
        cage = puzzle.cages[0]
        other = dc_replace(puzzle, cages=(dc_replace(cage, target=cage.target + 1),) + puzzle.cages[1:])
    else:  # one more given is another puzzle
        r, c = next((r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)
                    if puzzle.givens[r][c] == ".")
        row = puzzle.givens[r]
        givens = puzzle.givens[:r] + (row[:c] + puzzle.solution[r][c] + row[c + 1:],) + puzzle.givens[r + 1:]
        other = dc_replace(puzzle, givens=givens)
    assert variant.fingerprint(other) != variant.fingerprint(puzzle)
    # other rules make another puzzle, even with the same clues; generator knobs don't
    if name == "takuzu":
        loose = dc_replace(puzzle, rules=dict(puzzle.rules, unique_lines=False))
        assert variant.fingerprint(loose) != variant.fingerprint(puzzle)
    if name == "kenken":
        knobs = dc_replace(puzzle, rules=dict(puzzle.rules, singles="none", max_cage=6, ops=["+", "*"]))
        assert variant.fingerprint(knobs) == variant.fingerprint(puzzle)
        hidden = dc_replace(puzzle, rules=dict(puzzle.rules, show_ops=False))
        assert variant.fingerprint(hidden) != variant.fingerprint(puzzle)
        relabelled = dc_replace(hidden, cages=tuple(dc_replace(c, op="+" if c.op else "") for c in hidden.cages))
        assert variant.fingerprint(relabelled) == variant.fingerprint(hidden)  # hidden ops print the same


def test_fingerprint_is_computed_not_trusted():
    puzzle = _puzzle("tango")
    entry = puzzle_json(1, puzzle, page=5)
    assert entry["fingerprint"] == fingerprint(puzzle)
    for forged in (dict(entry, fingerprint="0" * 16), {k: v for k, v in entry.items() if k != "fingerprint"}):
        assert entry_fingerprint(forged) == entry["fingerprint"]
    turned = puzzle_json(1, _moved(puzzle, _eight(puzzle.rows)[2]), page=5)
    assert turned["givens"] != entry["givens"] and entry_fingerprint(turned) == entry["fingerprint"]


# ----- books ---------------------------------------------------------------------------------
SERIES = """\
title: Calcudoku, Volume {volume}
seed: {seed}
page: 6x9
{extra}
sections:
  - variant: kenken
    size: 4
    count: 20
    difficulty: easy
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def series(tmp_path_factory):
    """Volume 1, and volume 2 built from the SAME seed with exclude: every puzzle would repeat."""
    folder = tmp_path_factory.mktemp("series")
    (folder / "books").mkdir()
    one = _write(folder, "vol1", SERIES.format(volume=1, seed=3, extra=""))
    build(load_book(one), folder / "books", workers=2)
    two = _write(folder, "vol2", SERIES.format(volume=2, seed=3, extra="exclude: [books/vol1.json]"))
    build(load_book(two), folder / "books", workers=2)
    return folder


def test_volume_two_shares_no_fingerprint_with_volume_one(series):
    one, two = _json(series / "books" / "vol1.json"), _json(series / "books" / "vol2.json")
    prints_one = {entry_fingerprint(e) for e in one["puzzles"]}
    prints_two = {entry_fingerprint(e) for e in two["puzzles"]}
    assert len(prints_one) == len(prints_two) == 20
    assert not prints_one & prints_two
    # the same seed without exclude would have repeated every puzzle
    first_seeds = {derive_seed(3, 0, i) for i in range(20)}
    assert {e["seed"] for e in one["puzzles"]} == first_seeds
    assert not {e["seed"] for e in two["puzzles"]} & first_seeds
    assert all(e["difficulty"] == "easy" and e["size"] == 4 for e in two["puzzles"])


def test_check_against_reports_repeats(series):
    books = series / "books"
    ok = runner.invoke(app, ["check", str(books / "vol2.json"), "--against", str(books / "vol1.json")])
    assert ok.exit_code == 0, ok.output
    assert "all 20 puzzles check out, and none repeats a puzzle of" in ok.output
    # a copy of volume 1, turned a quarter and renumbered, repeats every puzzle
    data = _json(books / "vol1.json")
    turned = []
    for entry in data["puzzles"][:3]:
        puzzle = VARIANTS["kenken"].from_json(entry)
        moved = _moved(puzzle, _eight(4)[2])
        turned.append(dict(puzzle_json(entry["number"], moved, 1), difficulty=entry["difficulty"]))
    (series / "copy.json").write_text(json.dumps(dict(data, puzzles=turned)), encoding="utf-8")
    bad = runner.invoke(app, ["check", str(series / "copy.json"), "--against", str(books / "vol2.json"),
                              str(books / "vol1.json")])
    assert bad.exit_code == 1
    lines = [l for l in bad.output.splitlines() if "repeats" in l]
    assert len(lines) == 3 and "puzzle 1 repeats puzzle 1 of" in lines[0] and "vol1.json" in lines[0]
    # a repeat inside one book is reported without --against
    twice = dict(data, puzzles=[data["puzzles"][0], dict(data["puzzles"][0], number=2)])
    (series / "twice.json").write_text(json.dumps(twice), encoding="utf-8")
    inside = runner.invoke(app, ["check", str(series / "twice.json")])
    assert inside.exit_code == 1 and "puzzle 2 repeats puzzle 1 of the same book" in inside.output
    # two books without --against is a usage mistake
    assert runner.invoke(app, ["check", str(books / "vol1.json"), str(books / "vol2.json")]).exit_code == 2


def test_no_repeats_within_a_book(tmp_path, monkeypatch):
    text = "title: Small\nseed: 1\nsections:\n  - variant: takuzu\n    size: 4\n    count: 40\n    difficulty: easy\n"
    book = load_book(_write(tmp_path, "small", text))
    raw = generate(plan(book))
    assert all(f == fingerprint(p) for p, f in raw)  # each puzzle comes with its own fingerprint
    assert max(Counter(f for _, f in raw).values()) > 1  # made blindly, 4x4 grids repeat
    build(book, tmp_path / "out")
    entries = _json(tmp_path / "out" / "small.json")["puzzles"]
    assert len({entry_fingerprint(e) for e in entries}) == 40
    build(book, tmp_path / "two", workers=2)  # the rounds of remaking don't depend on the workers
    for name in ("small.json", "small.pdf"):
        assert (tmp_path / "two" / name).read_bytes() == (tmp_path / "out" / name).read_bytes()
    # a section that runs out of distinct puzzles stops with a message, and writes nothing
    import bookgen.book as book_module

    monkeypatch.setattr(book_module, "MAX_REPEATS", 0)
    with pytest.raises(book_module.BuildError, match=r"section 1, puzzle \d+: .*run out of distinct puzzles"):
        build(book, tmp_path / "none")
    assert not (tmp_path / "none").exists()


def test_exclude_files_missing_or_damaged_are_located_config_errors(tmp_path):
    (tmp_path / "broken.json").write_text('{"puzzles": [1, }', encoding="utf-8")
    (tmp_path / "odd.json").write_text('{"puzzles": [{"variant": "kenken", "size": 4}]}', encoding="utf-8")
    text = SERIES.format(volume=2, seed=3, extra="exclude:\n  - nothere.json\n  - broken.json\n  - odd.json")
    with pytest.raises(ConfigError) as info:
        load_book(_write(tmp_path, "vol2", text))
    lines = [str(i) for i in info.value.issues]
    assert len(lines) == 3
    assert lines[0].startswith(f"{tmp_path / 'vol2.yaml'}:5:5: exclude nothere.json: no such file")
    assert lines[1].startswith(f"{tmp_path / 'vol2.yaml'}:6:5: exclude broken.json:")
    assert "broken.json:1:17: not valid JSON" in lines[1]
    assert lines[2].startswith(f"{tmp_path / 'vol2.yaml'}:7:5: exclude odd.json: puzzle 1:")
    result = runner.invoke(app, ["build", str(tmp_path / "vol2.yaml"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "exclude nothere.json: no such file" in result.output
    assert not (tmp_path / "out").exists()


REPLACE = """\
title: Replace Test
seed: 8
page: 6x9
{extra}
sections:
  - variant: takuzu
    size: 6
    count: 10
    difficulty: {{from: easy, to: medium}}
  - variant: kenken
    size: 4
    count: 8
    difficulty: [{{easy: 4}}, {{medium: 4}}]
"""


def _page_streams(path: Path) -> list[bytes]:
    return [page.get_contents().get_data() for page in PdfReader(str(path)).pages]


def test_replace_changes_only_the_replaced_puzzles(tmp_path):
    base = load_book(_write(tmp_path, "book", REPLACE.format(extra="")))
    build(base, tmp_path / "a")
    changed = load_book(_write(tmp_path, "book", REPLACE.format(extra="replace: [3, 14]")))
    build(changed, tmp_path / "b")
    a, b = _json(tmp_path / "a" / "book.json"), _json(tmp_path / "b" / "book.json")
    assert len(a["puzzles"]) == len(b["puzzles"]) == 18
    for old, new in zip(a["puzzles"], b["puzzles"]):
        if old["number"] in (3, 14):
            assert entry_fingerprint(old) != entry_fingerprint(new)
            for key in ("variant", "size", "difficulty", "page", "number", "rules"):
                assert old[key] == new[key]
        else:
            assert json.dumps(old, sort_keys=True) == json.dumps(new, sort_keys=True)
    # pages: only the two puzzle pages and the answer pages holding them differ
    pa, pb = _page_streams(tmp_path / "a" / "book.pdf"), _page_streams(tmp_path / "b" / "book.pdf")
    assert len(pa) == len(pb)
    differ = [n for n, (x, y) in enumerate(zip(pa, pb), start=1) if x != y]
    puzzle_pages = {e["page"] for e in a["puzzles"] if e["number"] in (3, 14)}
    assert puzzle_pages <= set(differ)
    assert len(set(differ) - puzzle_pages) <= 2 and all(n > max(puzzle_pages) for n in set(differ) - puzzle_pages)
    # the same replace again gives the same book, and replacing twice gives a third puzzle
    build(changed, tmp_path / "c")
    assert (tmp_path / "c" / "book.pdf").read_bytes() == (tmp_path / "b" / "book.pdf").read_bytes()
    twice = load_book(_write(tmp_path, "book", REPLACE.format(extra="replace: [3, 3]")))
    build(twice, tmp_path / "d")
    d = _json(tmp_path / "d" / "book.json")
    assert len({entry_fingerprint(x["puzzles"][2]) for x in (a, b, d)}) == 3


def test_replace_and_versions_mistakes_are_located(tmp_path):
    text = REPLACE.format(extra="replace: [0, 19]\nversions: 2")
    with pytest.raises(ConfigError) as info:
        load_book(_write(tmp_path, "bad", text))
    lines = [str(i).split(":", 1)[1] for i in info.value.issues]
    assert any(l.startswith("4:11: replace: the book has puzzles 1 to 18, got 0") for l in lines), lines
    assert any(l.startswith("4:14: replace: the book has puzzles 1 to 18, got 19") for l in lines), lines
    assert any(l.startswith("5:11: versions makes a class set") for l in lines), lines


CLASS = """\
title: Class Set
seed: 4
page: letter
layout: worksheet
versions: 3
sections:
  - variant: tango
    size: 6
    count: 4
    per_page: 2
    difficulty: easy
  - variant: kenken
    size: 5
    count: 1
    per_page: 1
    difficulty: medium
"""


def _json_file(folder: Path, puzzles: list) -> Path:
    path = folder / "forged.json"
    path.write_text(json.dumps({"format": "bookgen-book/1", "puzzles": puzzles}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def class_set(tmp_path_factory):
    """The class set built once, with each grid's place and cell size as drawn: (its folder, the places)."""
    folder = tmp_path_factory.mktemp("class")
    placed: list[tuple] = []
    real = render.CanvasPen

    def pen(canvas, left, top, unit, *a):
        placed.append((canvas._filename, round(left, 3), round(top, 3), round(unit, 3)))
        return real(canvas, left, top, unit, *a)

    mp = pytest.MonkeyPatch()
    mp.setattr(render, "CanvasPen", pen)
    try:
        build(load_book(_write(folder, "class", CLASS)), folder / "out")
    finally:
        mp.undo()
    return folder, placed


def test_class_set_versions(class_set, tmp_path):
    built, placed = class_set
    data = _json(built / "out" / "class.json")["puzzles"]
    assert [e["version"] for e in data] == ["A"] * 5 + ["B"] * 5 + ["C"] * 5
    assert [e["number"] for e in data] == [1, 2, 3, 4, 5] * 3
    by_number = {}
    for e in data:
        by_number.setdefault(e["number"], []).append(entry_fingerprint(e))
    assert all(len(set(prints)) == 3 for prints in by_number.values())  # different puzzle by puzzle
    forged = dict(data[5], version="A")  # version B's first puzzle copied into version A
    repeat = runner.invoke(app, ["check", str(_json_file(tmp_path, [data[0], forged, data[5]]))])
    assert "puzzle 1 (version B) repeats puzzle 1 (version A)" in repeat.output
    sheets = PdfReader(str(built / "out" / "class.pdf"))
    key = PdfReader(str(built / "out" / "class-answers.pdf"))
    # 3 pages a version, padded to 4 for double-sided copies; one key page per worksheet page
    assert len(sheets.pages) == 12 and len(key.pages) == 3
    for n, sheet in enumerate(sheets.pages):
        letter, k = "ABC"[n // 4], n % 4 + 1
        text = sheet.extract_text()
        if k == 4:
            assert "Puzzle" not in text and "left blank" in text  # the back of the version's last sheet
        else:
            assert f"Version {letter} · page {k} of 3" in text and "Name" in text
    for answer in key.pages:
        text = answer.extract_text()
        assert all(f"Version {v}" in text for v in "ABC")
    # the worksheet's grids are drawn full size, the key's at most 8 mm a cell
    assert min(unit for name, _, _, unit in placed if "answers" not in name) > 10 * 72 / 25.4


def test_plan_prints_the_page_plan_and_writes_nothing(tmp_path):
    path = _write(tmp_path, "book", REPLACE.format(extra="cover: {paper: white}"))
    before = sorted(tmp_path.rglob("*"))
    result = runner.invoke(app, ["plan", str(path), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert sorted(tmp_path.rglob("*")) == before
    build(load_book(path), tmp_path / "out")
    pages = len(PdfReader(str(tmp_path / "out" / "book.pdf")).pages)
    out = result.output
    assert f"{pages} pages, gutter 0.5 in (the 0.375 in print-on-demand asks" in out
    assert "Binairo: 10 Binairo 6×6, 2 per page, cells" in out and "digits" in out  # (the 1/8 in more gutter)
    assert "clues" in out  # Calcudoku's cage clues
    assert "estimated build time: " in out and "2 worker(s)" in out
    spine = pages * 0.002252
    assert f"spine {spine:.4f} in on white paper" in out
    bad = runner.invoke(app, ["plan", str(_write(tmp_path, "bad", "title: x\nsections: []\n"))])
    assert bad.exit_code == 2 and "bad.yaml:2:" in bad.output


def test_solve_picks_a_class_set_version(class_set):
    path = class_set[0] / "out" / "class.json"
    data = _json(path)["puzzles"]
    for letter, entry in (("A", data[0]), ("c", data[10])):
        result = runner.invoke(app, ["solve", str(path), "--number", "1", "--version", letter, "--ascii"])
        assert result.exit_code == 0, result.output
        solved = "".join(ch for ch in result.output if ch in "SM")
        assert "".join(entry["solution"]).translate(str.maketrans("10", "SM")) in solved
    wrong = runner.invoke(app, ["solve", str(path), "--number", "1", "--version", "D"])
    assert wrong.exit_code == 2 and "no version 'D'; it has A, B, C" in wrong.output


def test_a_book_may_not_exclude_its_own_output(series):
    text = SERIES.format(volume=1, seed=3, extra="exclude: [books/vol1.json]")
    path = _write(series, "vol1", text)
    result = runner.invoke(app, ["build", str(path), "--out", str(series / "books")])
    assert result.exit_code == 2 and "which its exclude list names" in result.output
    _write(series, "vol1", SERIES.format(volume=1, seed=3, extra=""))


def test_plan_estimate_follows_the_cost_table(tmp_path):
    from bookgen.estimate import COST_MS
    from bookgen.plan import estimate_seconds

    text = "title: T\nsections:\n  - variant: kenken\n    size: {size}\n    count: {n}\n    difficulty: expert\n"
    small = load_book(_write(tmp_path, "a", text.format(size=9, n=40)))
    big = load_book(_write(tmp_path, "b", text.format(size=9, n=400)))
    one, unknown = estimate_seconds(small, 1)
    ten, _ = estimate_seconds(big, 1)
    assert unknown == [] and ten == pytest.approx(10 * one)
    assert one >= 40 * COST_MS[("kenken", 9)][3] / 1000
    assert estimate_seconds(big, 2)[0] < ten * 0.6



# ----- fingerprints against an independent orbit computation ---------------------------------


def _orbit(rows: tuple[str, ...]) -> set[tuple[str, ...]]:
    """Every turn and mirror of a grid, with 0 and 1 swapped too: computed with zip, not the engine."""
    out = set()
    grid = rows
    for _ in range(4):
        grid = tuple("".join(col) for col in zip(*grid[::-1]))  # a quarter turn
        for g in (grid, tuple(r[::-1] for r in grid)):
            out.add(g)
            out.add(tuple(r.translate(str.maketrans("01", "10")) for r in g))
    return out


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 3 ** 16 - 1), st.integers(0, 3 ** 16 - 1), st.integers(-8, 15))
def test_binary_fingerprints_match_the_orbits(a, b, pick):
    variant = VARIANTS["takuzu"]
    base = _puzzle("takuzu")

    def grid(code: int) -> tuple[str, ...]:
        cells = []
        for _ in range(16):
            code, digit = divmod(code, 3)
            cells.append(".01"[digit])
        return tuple("".join(cells[r * 4:r * 4 + 4]) for r in range(4))

    first = grid(a)
    orbit = sorted(_orbit(first))
    second = orbit[pick % len(orbit)] if pick >= 0 else grid(b)  # a relative, or most likely a stranger

    def fp(rows):
        return variant.fingerprint(dc_replace(base, size=4, givens=rows, solution=rows))

    assert all(fp(g) == fp(first) for g in _orbit(first))
    assert (fp(first) == fp(second)) == (second in _orbit(first))


def test_a_remade_puzzle_takes_the_seeds_after_the_one_that_made_it():
    from bookgen.book import Job
    from bookgen.core.rng import version_seed

    job = Job(2, 5, "takuzu", 6, (), Level.EASY, derive_seed(9, 2, 5), (), book_seed=9)
    assert [job.attempt_seed(k) for k in range(3)] == [derive_seed(9, 2, 5, k) for k in range(3)]
    after = job.next_attempt(job.attempt_seed(2))  # tries 0 and 1 failed, try 2 made a repeat
    assert after.attempt == 3 and after.seed == derive_seed(9, 2, 5, 3)
    assert after.attempt_seed(1) == derive_seed(9, 2, 5, 4)
    other = Job(2, 5, "takuzu", 6, (), Level.EASY, version_seed(9, 2, 5, 1), (), book_seed=9, version=1)
    assert other.seed != job.seed and other.next_attempt(other.seed).seed == version_seed(9, 2, 5, 1, 1)
