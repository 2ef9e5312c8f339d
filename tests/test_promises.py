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


# ----- 7 and 15: paths ------------------------------------------------------------------------------
@pytest.mark.parametrize("out", ["a" * 300, "/".join(["b" * 200] * 30)], ids=["300-char-name", "6000-char-path"])
def test_7_a_too_long_out_is_one_line_not_a_traceback(tmp_path, monkeypatch, out):
    monkeypatch.chdir(tmp_path)
    config = _write(tmp_path, TWO)
    result = _run("build", config, "--out", out, "-q")
    _no_traceback(result)
    assert result.exit_code == 2
    (line,) = _errors(result)
    assert "too long for the file system" in line and len(line) < 300


def test_7_a_too_long_config_name_is_one_line(tmp_path):
    result = _run("build", tmp_path / ("c" * 300 + ".yaml"))
    _no_traceback(result)
    assert result.exit_code == 2 and "File name too long" in result.output


def test_15_out_at_a_symlink_loop_says_so(tmp_path):
    config = _write(tmp_path, TWO)
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    result = _run("build", config, "--out", tmp_path / "a", "-q")
    assert result.exit_code == 2
    assert "symbolic links loop" in result.output and "File exists" not in result.output


def test_15_exclude_of_an_empty_name_is_not_a_directory(tmp_path):
    config = _write(tmp_path, TWO.replace("sections:", 'exclude: ""\nsections:'))
    result = _run("plan", config)
    assert result.exit_code == 2
    assert f"{config}:2:10: exclude names no file" in result.output and "directory" not in result.output


def test_15_exclude_of_a_pdf_asks_for_the_json(tmp_path):
    (tmp_path / "vol1.pdf").write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")
    config = _write(tmp_path, TWO.replace("sections:", "exclude: [vol1.pdf]\nsections:"))
    result = _run("plan", config)
    assert result.exit_code == 2
    assert "is a PDF" in result.output and "vol1.json" in result.output and "UTF-8" not in result.output


# ----- 15: text puzzles ----------------------------------------------------------------------------
def test_15_tab_aligned_futoshiki_signs_are_read_under_the_cell_they_appear_under(tmp_path):
    # cells 8 columns apart; the sign, after three tabs, is under the fourth cell (column 25)
    grid = "futoshiki\n1\t.\t.\t.\n\t\t\tv\n.\t.\t.\t.\n.\t.\t.\t2\n.\t.\t.\t.\n"
    (tmp_path / "f.txt").write_text(grid)
    from bookgen.puzzletext import read_puzzle

    puzzle = read_puzzle(tmp_path / "f.txt")
    assert [(e.a, e.b, e.sign) for e in puzzle.edges] == [((0, 3), (1, 3), ">")]
    # four tabs under cells four columns apart reach column 33: under no cell, and said so
    (tmp_path / "g.txt").write_text("futoshiki\n1   .   .   .\n\t\t\t\tv\n" + ".   .   .   .\n" * 3)
    result = _run("solve", tmp_path / "g.txt")
    assert result.exit_code == 2 and "g.txt:3:5: this sign is not under a cell" in result.output


def test_15_solve_grid_errors_give_a_column(tmp_path):
    (tmp_path / "p.txt").write_text("takuzu\n0 1 . .\n  . . .\n. . . .\n. . . .\n")
    result = _run("solve", tmp_path / "p.txt")
    assert result.exit_code == 2
    assert f"{tmp_path / 'p.txt'}:3:3: this row has 3 cells" in result.output


# ----- 15: command-line mistakes ---------------------------------------------------------------------
@pytest.mark.parametrize("args,fragment", [
    (["build", "x.yaml", "--jbos", "2"], "no such option --jbos; did you mean --jobs?"),
    (["build", "x.yaml", "--number", "2"], "no such option --number (see"),
    (["build", "x.yaml", "--jobs", "x"], "Invalid value for '--jobs'"),
    (["check"], "Missing argument"),
])
def test_15_option_errors_are_one_line(args, fragment):
    result = _run(*args)
    assert result.exit_code == 2
    (line,) = _errors(result)
    assert line.startswith("error: ") and fragment in line
    assert "Possible options" not in line


# ----- 1: a failed write leaves the previous book whole -----------------------------------------------
WORKSHEET = """\
title: W
layout: worksheet
sections:
  - {variant: takuzu, size: 6, count: 2, difficulty: easy}
"""


def test_1_a_failed_rename_puts_the_previous_book_back(tmp_path, monkeypatch):
    import bookgen.book as book_mod

    config = _write(tmp_path, WORKSHEET)
    out = tmp_path / "out"
    assert _run("build", config, "--out", out, "-q").exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert sorted(before) == ["book-answers.pdf", "book.json", "book.pdf"]
    real = os.replace

    def answers_stuck(src, dst):  # the answers PDF can't be replaced (open in a viewer, immutable ...)
        if Path(dst) == out / "book-answers.pdf" or Path(src) == out / "book-answers.pdf":
            raise PermissionError(1, "Operation not permitted")
        return real(src, dst)

    monkeypatch.setattr(book_mod.os, "replace", answers_stuck)
    result = _run("build", config, "--out", out, "-q", "--seed", "9")
    assert result.exit_code == 1
    (line,) = _errors(result)
    assert "book-answers.pdf: Operation not permitted" in line
    assert "the previous book is unchanged (book.pdf, book.json, book-answers.pdf)" in line
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # no staging folder left either


def test_1_a_failed_first_write_leaves_nothing(tmp_path, monkeypatch):
    import bookgen.book as book_mod

    config = _write(tmp_path, WORKSHEET)
    out = tmp_path / "out"
    out.mkdir()
    real = os.replace

    def json_stuck(src, dst):
        if Path(dst).name == "book.json":
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(book_mod.os, "replace", json_stuck)
    result = _run("build", config, "--out", out, "-q")
    assert result.exit_code == 1 and "no file was written" in result.output
    assert list(out.iterdir()) == []


def test_1_the_swap_puts_back_what_it_moved(tmp_path, monkeypatch):
    import bookgen.book as book_mod
    from bookgen.book import SwapError, swap_in

    stage, out = tmp_path / "stage", tmp_path / "out"
    stage.mkdir()
    out.mkdir()
    for name in "abc":
        (stage / name).write_text("new " + name)
    (out / "a").write_text("old a")
    (out / "c").write_text("old c")
    real = os.replace

    def third_fails(src, dst):
        if Path(src) == stage / "c":
            raise OSError(30, "Read-only file system")
        return real(src, dst)

    monkeypatch.setattr(book_mod.os, "replace", third_fails)
    with pytest.raises(SwapError, match=r"c: Read-only file system; the previous book is unchanged \(a, c\)"):
        swap_in([stage / n for n in "abc"], [out / n for n in "abc"], stage / "previous")
    assert {p.name: p.read_text() for p in out.iterdir()} == {"a": "old a", "c": "old c"}
    assert sorted(p.name for p in stage.iterdir() if p.is_file()) == ["a", "b", "c"]


# ----- 5 and 6: one set of size limits --------------------------------------------------------------
def _book_json(tmp_path: Path, text: str = TWO, name: str = "vol1") -> Path:
    config = _write(tmp_path, text, name)
    assert _run("build", config, "--out", tmp_path, "-q").exit_code == 0
    return tmp_path / f"{name}.json"


@pytest.fixture(scope="module")
def two_book(tmp_path_factory) -> Path:
    """The two-puzzle book's JSON, built once per worker for the tests that only read it."""
    return _book_json(tmp_path_factory.mktemp("two"))


def test_5_exclude_reads_a_book_json_over_a_megabyte(tmp_path, two_book):
    path = tmp_path / "vol1.json"
    data = json.loads(two_book.read_text())
    data["padding"] = "x" * (1_100_000)  # a 259-page volume's JSON is about this size
    path.write_text(json.dumps(data))
    config = _write(tmp_path, TWO.replace("sections:", "exclude: vol1.json\nsections:"), "vol2")
    result = _run("plan", config)
    assert result.exit_code == 0, result.output


def test_5_what_build_writes_check_and_exclude_can_read():
    from bookgen.book import MAX_JSON_BYTES, MAX_JSON_OBJECTS, Job, dumps, puzzle_json, run_job
    from bookgen.config import MAX_CONFIG_BYTES
    from bookgen.core.difficulty import Level
    from bookgen.limits import MAX_BUILD_PUZZLES
    from bookgen.variants.kenken import KENKEN

    rules = tuple(sorted(KENKEN.parse_rules({}, 9).items()))
    puzzle = run_job(Job(0, 0, "kenken", 9, rules, Level.EASY, "2626", (), 1))
    entry = dumps({"puzzles": [puzzle_json(MAX_BUILD_PUZZLES, puzzle, 9999, "Z")]}).decode()
    assert MAX_BUILD_PUZZLES * len(entry.encode()) < MAX_JSON_BYTES
    assert MAX_BUILD_PUZZLES * (entry.count("[") + entry.count("{")) < MAX_JSON_OBJECTS
    assert MAX_CONFIG_BYTES < MAX_JSON_BYTES  # (exclude no longer reads through the config's limit)


def test_5_a_worksheet_set_beyond_what_a_build_holds_is_a_located_error(tmp_path):
    from bookgen.limits import MAX_BUILD_PUZZLES

    text = ("title: W\nlayout: worksheet\nversions: 26\nsections:\n"
            + "  - {variant: takuzu, size: 6, count: 1000}\n")
    result = _run("plan", _write(tmp_path, text))
    assert result.exit_code == 2
    assert (f":3:11: the set holds 26,000 puzzles (26 versions of 1,000); one build makes at most "
            f"{MAX_BUILD_PUZZLES:,}") in result.output


def test_5_a_set_whose_build_would_outgrow_its_memory_is_a_located_error(tmp_path, monkeypatch):
    """The bound comes from the counts, the grids and the variant's measured memory per cell; here
    it is lowered to 300 MB so that a small config reaches it."""
    import bookgen.config as config_mod
    from bookgen.limits import MAX_BUILD_MB, build_memory_mb
    from bookgen.variants.registry import VARIANTS

    monkeypatch.setattr(config_mod, "MAX_BUILD_MB", 300)
    text = "title: M\nlayout: worksheet\nversions: 26\nsections:\n  - {variant: takuzu, size: SIZE, count: 300}\n"
    result = _run("plan", _write(tmp_path, text.replace("SIZE", "14")))  # 7,800 puzzles of 196 cells
    assert result.exit_code == 2
    (line,) = _errors(result)
    assert ":3:11: building these 7,800 puzzles would take about 0.5 GB of memory" in line
    result = _run("plan", _write(tmp_path, text.replace("SIZE", "6")))  # the same count of 36 cells fits
    assert result.exit_code == 0, result.output
    # grows with cells and count; every variant has a measured (or cautious) figure; at the real bound
    # 20,000 puzzles of the largest 9x9 (a KenKen: 39.8 KB measured) fit
    assert build_memory_mb([(0.3, 36, 1000)]) < build_memory_mb([(0.3, 196, 1000)]) < build_memory_mb([(0.3, 196, 2000)])
    assert all(v.measured.memory_kb_per_cell > 0 for v in VARIANTS.values())
    assert build_memory_mb([(VARIANTS["kenken"].measured.memory_kb_per_cell, 81, 20_000)]) < MAX_BUILD_MB


def test_5_the_book_json_is_written_entry_by_entry_as_the_same_bytes(tmp_path):
    import weakref

    from bookgen.book import _MadeInTurn, dumps, write_json

    class Entry(dict):  # (a plain dict can't be watched by a weak reference)
        pass

    alive = []

    def make(i):
        if i >= 2:  # the entry before last is gone: entries are made and dropped in turn
            assert alive[i - 2]() is None
        entry = Entry(b=[i, "\u00fc\u2028", {"z": None, "a": 1.5}], a="x")
        alive.append(weakref.ref(entry))
        return entry

    write_json(tmp_path / "a.json", {"z": 1, "puzzles": _MadeInTurn(4, make), "none": _MadeInTurn(0, make)})
    expected = dumps({"z": 1, "puzzles": [dict(make(i)) for i in range(4)], "none": []})
    assert (tmp_path / "a.json").read_bytes() == expected and len(alive) == 8


def test_5_messages_state_real_json_sizes(tmp_path):
    path = tmp_path / "big.json"
    with open(path, "wb") as fh:
        fh.truncate(300 << 20)
    result = _run("check", path)
    assert result.exit_code == 1 and "1 to 10 KB a puzzle" in result.output and "1 KB per" not in result.output


def test_6_millions_of_empty_lists_are_refused_before_parsing(tmp_path, monkeypatch):
    import bookgen.book as book_mod

    monkeypatch.setattr("bookgen.reading.MAX_JSON_OBJECTS", 1000)  # the real limit works the same, only slower
    path = tmp_path / "lists.json"
    path.write_text('{"format": "bookgen-book/1", "puzzles": [' + ", ".join(["[]"] * 1500) + "]}")
    for args in (["check", path], ["solve", path]):
        result = _run(*args)
        assert result.exit_code in (1, 2)
        (line,) = _errors(result)
        assert line == f"error: {path}: not usable JSON: more than 1000 JSON lists and objects (no book holds that many)"


# ----- 8: --against refuses what is not a book ----------------------------------------------------------
@pytest.mark.parametrize("text", ["{}", "[]", "42", '{"puzzles": "nope"}', "renamed"])
def test_8_check_against_refuses_files_that_are_not_books(tmp_path, two_book, text):
    book = two_book
    other = tmp_path / "other.json"
    if text == "renamed":
        data = json.loads(book.read_text())
        for entry in data["puzzles"]:
            entry["variant"] = "nonesuch"
        text = json.dumps(data)
    other.write_text(text)
    result = _run("check", book, "--against", other)
    assert result.exit_code == 1
    (line,) = _errors(result)
    assert line.startswith(f"error: {other}: ") and "none repeats" not in line


# ----- 9: replace ----------------------------------------------------------------------------------------
def test_9_one_number_listed_many_times_in_replace_is_a_located_error(tmp_path):
    config = _write(tmp_path, TWO.replace("sections:", "replace: [" + ", ".join(["2"] * 31) + "]\nsections:"))
    result = _run("plan", config)
    assert result.exit_code == 2
    (line,) = _errors(result)
    assert line.startswith(f"{config}:2:")  # at the sixth listing of the number
    assert "replace lists puzzle 2 more than 5 times" in line


# ----- 11: output names of two books ---------------------------------------------------------------------
@pytest.mark.parametrize("first,second,extra", [
    ("vol", "vol-cover", "cover: {paper: white}\n"),
    ("vol-cover", "vol", "cover: {paper: white}\n"),
])
def test_11_a_book_never_replaces_another_books_cover(tmp_path, first, second, extra):
    book_text = "title: V\n" + extra + "sections:\n  - {variant: takuzu, size: 6, count: 30}\n"
    plain = "title: V\nsections:\n  - {variant: takuzu, size: 6, count: 30}\n"
    out = tmp_path / "out"
    texts = {"vol": book_text, "vol-cover": plain}
    assert _run("build", _write(tmp_path, texts[first], first), "--out", out, "-q").exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    result = _run("build", _write(tmp_path, texts[second], second), "--out", out, "-q")
    assert result.exit_code == 2
    assert "is also a file of the book" in result.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_11_a_book_named_like_a_worksheets_answers_is_refused(tmp_path):
    out = tmp_path / "out"
    assert _run("build", _write(tmp_path, WORKSHEET, "x"), "--out", out, "-q").exit_code == 0
    before = (out / "x-answers.pdf").read_bytes()
    result = _run("build", _write(tmp_path, TWO, "x-answers"), "--out", out, "-q")
    assert result.exit_code == 2 and "x-answers.pdf is also a file of the book x" in result.output
    assert (out / "x-answers.pdf").read_bytes() == before


# ----- 2 and 3: the estimate and the refusal ---------------------------------------------------------------
LONG = "title: L\nlayout: worksheet\nsections:\n  - {variant: kenken, size: 9, count: 20000, difficulty: expert}\n"
# over an hour with two workers from 1,000 puzzles (the rules make each ~10x dearer): a plan of 1,000
# pages where LONG's is 20,000 (0.3 s of laying them out, which no estimate reads)
DEAR = ("title: D\nlayout: worksheet\nsections:\n  - {variant: kenken, size: 9, count: 1000, difficulty: expert,"
        " rules: {max_cage: 6, show_ops: false}}\n")


@pytest.fixture
def no_building(monkeypatch):
    """Any build that starts fails the test at once (and no job list is ever made)."""
    import bookgen.book as book_mod
    import bookgen.cli as cli_mod
    import bookgen.plan as plan_mod

    def started(*args, **kwargs):
        raise AssertionError("the build started or made every job")

    monkeypatch.setattr(book_mod, "build", started)
    monkeypatch.setattr(cli_mod, "plan", started, raising=False)  # (where the command line made jobs itself)
    monkeypatch.setattr(book_mod, "plan", started)
    monkeypatch.setattr(plan_mod, "plan", started)


def _no_worked_example(monkeypatch) -> None:
    """The plan's worked example (a 9x9 KenKen, ~1 s) plays no part in the estimate these tests read."""
    import bookgen.plan as plan_module

    monkeypatch.setattr(plan_module, "_examples", lambda book: {})


def test_2_refusal_and_plan_come_from_the_counts_not_the_jobs(tmp_path, monkeypatch, no_building):
    _no_worked_example(monkeypatch)
    config = _write(tmp_path, LONG)
    result = _run("build", config, "--jobs", "2", "-q")
    assert result.exit_code == 2 and "add --yes" in result.output
    result = _run("plan", config, "--jobs", "2")
    assert result.exit_code == 0 and "estimated build time: about 1 h" in result.output


def test_2_a_class_set_of_millions_is_refused_in_bounded_time(tmp_path, no_building):
    text = "title: C\nlayout: worksheet\nversions: 26\nsections:\n" + \
        "  - {variant: takuzu, size: 6, count: 100000}\n" * 10
    config = _write(tmp_path, text)
    t = time.process_time()
    result = _run("build", config, "-q")
    assert time.process_time() - t < 5  # CPU seconds: a loaded machine can't fail it (1.3 s measured)
    assert result.exit_code == 2 and "MemoryError" not in result.output
    (line,) = _errors(result)
    assert "26,000,000 puzzles" in line


def test_3_jobs_beyond_the_cores_do_not_shorten_the_estimate(tmp_path, monkeypatch, no_building):
    import bookgen.estimate as estimate

    monkeypatch.setattr(estimate, "cores", lambda: 2)
    _no_worked_example(monkeypatch)
    config = _write(tmp_path, DEAR)
    for jobs in ("2", "16", "256"):
        result = _run("build", config, "--jobs", jobs, "-q")
        assert result.exit_code == 2 and "with 2 workers" in result.output and "add --yes" in result.output, jobs
    result = _run("plan", config, "--jobs", "256")
    assert "about 1 h" in result.output and "with 2 worker(s)" in result.output


# ----- 14: every independent error in one run ----------------------------------------------------------
def test_14_every_independent_error_of_a_config_in_one_run(tmp_path):
    config = _write(tmp_path, "title: T\npage: lettr\nseed: 1.5\nlayout: worksheet\nimprint: {isbn: 123}\n"
                    "sections:\n"
                    "  - {variant: kenken, size: 10, count: 2, rules: {ops: addition}, difficulty: hardd}\n"
                    "  - {variant: takuzu, size: 7, count: 2}\n")
    result = _run("plan", config)
    assert result.exit_code == 2
    lines = _errors(result)
    assert [":".join(line[len(str(config)) + 1:].split(":")[:2]) for line in lines] == \
        ["2:7", "3:7", "5:17", "7:29", "7:56", "7:79", "8:29"]
    for line, fragment in zip(lines, ["page must be", "seed must be", "isbn must be", "kenken size must",
                                      "'ops' must be a list", "unknown level 'hardd'", "takuzu size must"]):
        assert fragment in line, line


# ----- 4: the estimate counts the rules -------------------------------------------------------------------
def test_4_kenken_rules_that_multiply_the_cost_are_estimated(tmp_path, monkeypatch):
    import bookgen.estimate as estimate
    import bookgen.plan as plan_module

    monkeypatch.setattr(estimate, "cores", lambda: 2)
    # The worked example (a 9x9 under these rules: ~13 s CPU) plays no part in the estimate;
    # without it the plan prints the same estimate and no type sizes.
    monkeypatch.setattr(plan_module, "_examples", lambda book: {})
    # measured 3.6-13.3 s a puzzle (the default rules' 0.115 s is 30-100x short): 700 once passed as "under a minute"
    text = ("title: K\nlayout: worksheet\nsections:\n  - {variant: kenken, size: 9, count: 700, difficulty: hard,"
            " rules: {max_cage: 6, show_ops: false}}\n")
    result = _run("plan", _write(tmp_path, text), "--jobs", "2")
    assert result.exit_code == 0
    (line,) = [x for x in _errors(result) if x.startswith("estimated build time")]
    minutes = int(line.split("about ")[1].split(" min")[0])
    assert minutes >= 5, line


def _opened_levels():
    """(variant, option, size, level) where a rule option accepts a level the default rules refuse."""
    from bookgen.core.difficulty import LEVELS
    from bookgen.variants.registry import VARIANTS

    for v in VARIANTS.values():
        for option, value in {**v.measured.rule_costs, **v.measured.rule_cost_rows}:
            for size in v.sizes:
                try:
                    rules = v.parse_rules({option: list(value) if isinstance(value, tuple) else value}, size)
                except ValueError:
                    continue
                default = v.parse_rules({}, size)
                for level in LEVELS:
                    if v.check_request(size, rules, level) is None and v.check_request(size, default, level):
                        yield v, (option, value), size, level


def test_4_a_level_only_an_option_opens_has_a_measured_cost_of_its_own():
    """Sudoku X opens medium..expert on 6x6, which plain 6x6 refuses: no factor of a refused
    level's cost can estimate it, so the option's own table must hold it."""
    opened = list(_opened_levels())
    assert any(v.name == "sudoku" and size == 6 for v, _, size, _ in opened)  # the case is real
    for v, key, size, level in opened:
        assert key in v.measured.rule_cost_rows, (v.name, key, size, level)
        row = v.measured.rule_cost_rows[key].get(size)
        assert row is not None and row[level] is not None and row[level] > 0, (v.name, key, size, level)


def test_4_an_option_at_its_default_changes_nothing_and_an_own_table_is_read():
    from bookgen.core.difficulty import Level
    from bookgen.estimate import puzzle_ms
    from bookgen.variants.registry import VARIANTS

    sudoku = VARIANTS["sudoku"]
    x = sudoku.parse_rules({"diagonal": True}, 6)
    assert puzzle_ms("sudoku", 6, Level.EXPERT, x) == \
        sudoku.measured.rule_cost_rows[("diagonal", True)][6][Level.EXPERT]
    assert puzzle_ms("sudoku", 9, Level.HARD, sudoku.parse_rules({"diagonal": False}, 9)) == \
        puzzle_ms("sudoku", 9, Level.HARD) == sudoku.measured.costs[9][Level.HARD]
    takuzu = VARIANTS["takuzu"]
    runs3 = takuzu.parse_rules({"max_run": 3}, 10)
    assert puzzle_ms("takuzu", 10, Level.EXPERT, runs3) == pytest.approx(
        takuzu.measured.costs[10][Level.EXPERT] * takuzu.measured.rule_costs[("max_run", 3)][Level.EXPERT])
