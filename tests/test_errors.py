"""Bad input, end to end through ``bookgen build``: one table row per error class.

Each row asserts the exit code, the message, its ``FILE:LINE:COL`` and that
no output was created (not even the output directory). Then the cases that
need a real file-system object (a directory, a FIFO, an unreadable file, an
output path that is a file) and the generation budget running out.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bookgen.cli import app
from bookgen.variants.registry import variant_names

runner = CliRunner()

BASE = "title: T\nseed: 1\nsections:\n  - variant: takuzu\n    size: 8\n    count: 4\n"
KENKEN = "title: T\nsections:\n  - variant: kenken\n    size: 3\n    count: 2\n"
LAUGHS = "".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}" if i else "x"] * 10) + "]\n" for i in range(6))


def _run(config: Path, out: Path, *extra: str):
    return runner.invoke(app, ["build", str(config), "--out", str(out), "--quiet", *extra])


def _nothing_written(out: Path) -> bool:
    return not out.exists()


# (id, config text, "LINE:COL" of the first expected error, a fragment of its message)
CASES = [
    # YAML itself
    ("syntax error", "title: [unclosed\nsections: []\n", "2:9", "YAML syntax error: while parsing a flow sequence"),
    ("tab indent", "title: T\n\tsections: []\n", "2:1", "found character '\\t' that cannot start any token"),
    ("two documents", BASE + "---\ntitle: U\n", "7:1", "a book file is one YAML document"),
    ("duplicate key", BASE + "seed: 2\n", "7:1", "duplicate key 'seed' (YAML would silently keep only the last one)"),
    ("duplicate section key", BASE + "    count: 5\n", "7:5", "duplicate key 'count'"),
    ("empty file", "", "1:1", "the file is empty"),
    ("comments only", "# nothing yet\n", "1:1", "the file is empty"),
    ("a list, not a mapping", "- title: T\n- sections: []\n", "1:1", "a book file must be a mapping"),
    ("a bare word", "hello\n", "1:1", "a book file must be a mapping"),
    ("unsupported tag", BASE.replace("title: T", "title: !!binary aGk="), "1:8", "unsupported YAML tag"),
    ("alias loop", "title: T\nsections: &s [*s]\n", "2:11", "a YAML alias refers to the value that contains it"),
    ("billion laughs", "title: T\n" + LAUGHS, "6:1", "more than 100000 values"),
    ("deep nesting", "title: " + "[" * 2000 + "]" * 2000 + "\n", "1:1", "nested more than 32 deep"),
    ("absurd number", BASE.replace("seed: 1", "seed: " + "9" * 5000), "2:7", "is far too long"),
    # keys and types
    ("unknown top key", BASE + "pgae: a4\n", "7:1", "unknown key 'pgae'; did you mean 'page'?"),
    ("unknown section key", BASE + "    dificulty: easy\n", "7:5", "unknown key 'dificulty'; did you mean 'difficulty'?"),
    ("unknown rule", BASE + "    rules: {maxrun: 3}\n", "7:13", "unknown rule option 'maxrun'"),
    ("unknown ramp key", BASE + "    difficulty: {from: easy, too: hard}\n", "7:30", "did you mean 'to'?"),
    ("missing title", BASE.replace("title: T\n", ""), "1:1", "missing required key 'title'"),
    ("missing variant", BASE.replace("variant: takuzu\n    ", ""), "4:5", "missing required key 'variant'"),
    ("missing count", BASE.replace("    count: 4\n", ""), "4:5", "missing required key 'count'"),
    ("title has no value", BASE.replace("title: T", "title:"), "1:7", "title has no value"),
    ("count is a word", BASE.replace("count: 4", "count: four"), "6:12", "count must be a whole number, got 'four'"),
    ("count is a bool", BASE.replace("count: 4", "count: true"), "6:12", "count must be a whole number, got True"),
    ("count is quoted", BASE.replace("count: 4", "count: '4'"), "6:12", "count must be a whole number, got '4'"),
    ("title is a number", BASE.replace("title: T", "title: 5"), "1:8", "title must be text, got 5"),
    ("size is a word", BASE.replace("size: 8", "size: big"), "5:11", "size must be a whole number or a list"),
    ("size list item", BASE.replace("size: 8", "size: [8, ten]"), "5:15", "size must be a whole number, got 'ten'"),
    ("sections not a list", "title: T\nsections: {variant: takuzu}\n", "2:11", "sections must be a list"),
    ("section not a mapping", "title: T\nsections:\n  - takuzu\n", "3:5", "each section must be a mapping"),
    ("no sections", "title: T\nsections: []\n", "2:11", "a book needs at least one section"),
    ("rules not a mapping", BASE + "    rules: [2]\n", "7:12", "rules must be a mapping"),
    # YAML 1.1 surprises
    ("no is not false", BASE + "    rules: {unique_lines: no}\n", "7:27",
     "unique_lines must be true or false, got 'no' (YAML 1.1 would have read it as a boolean"),
    ("1e3 is not a count", BASE.replace("count: 4", "count: 1e3"), "6:12",
     "count must be a whole number, got 1000.0 (write it without a decimal point or exponent)"),
    ("2.0 is not a size", BASE.replace("size: 8", "size: 8.0"), "5:11", "(write it without a decimal point)"),
    ("seed 1.5", BASE.replace("seed: 1", "seed: 1.5"), "2:7", "seed must be a whole number, got 1.5"),
    # names
    ("unknown variant", BASE.replace("variant: takuzu", "variant: no-such-puzzle"), "4:14", "unknown variant 'no-such-puzzle'; expected one of"),
    ("variant typo", BASE.replace("variant: takuzu", "variant: tanga"), "4:14", "did you mean 'tango'?"),
    ("unknown level", BASE + "    difficulty: hardest\n", "7:17", "unknown level 'hardest'"),
    ("level typo in ramp", BASE + "    difficulty: {from: easy, to: meduim}\n", "7:17", "did you mean 'medium'?"),
    ("ramp backwards", BASE + "    difficulty: {from: hard, to: easy}\n", "7:17", "put the easier level in 'from'"),
    ("bad page", BASE + "page: a5\n", "7:7", "page must be one of letter, a4, 6x9, 7x10, 8x10, 8.5x11 or {width: 6in, height: 9in}, got 'a5'"),
    ("bad givens amount", BASE.replace("takuzu", "tango").replace("size: 8", "size: 6") + "    givens: lots\n",
     "7:13", "givens must be one of few, normal, many"),
    # sizes
    ("odd size", BASE.replace("size: 8", "size: 7"), "5:11", "takuzu size must be one of 4, 6, 8, 10, 12, 14, got 7; sizes must be even"),
    ("size too big", BASE.replace("size: 8", "size: 16"), "5:11", "got 16"),
    ("size too small", BASE.replace("size: 8", "size: 2"), "5:11", "got 2"),
    ("kenken size", KENKEN.replace("size: 3", "size: 10"), "4:11", "kenken size must be one of 3, 4, 5, 6, 7, 8, 9, got 10"),
    ("empty size list", BASE.replace("size: 8", "size: []"), "5:11", "size list is empty"),
    # counts
    ("count zero", BASE.replace("count: 4", "count: 0"), "6:12", "count must be between 1 and 100000, got 0"),
    ("count negative", BASE.replace("count: 4", "count: -2"), "6:12", "count must be between 1 and 100000, got -2"),
    ("count absurd", BASE.replace("count: 4", "count: 100001"), "6:12", "count must be between 1 and 100000, got 100001"),
    ("count astronomically absurd", BASE.replace("count: 4", "count: 10000000000000"), "6:12", "between 1 and 100000"),
    ("block count absurd", BASE.replace("    count: 4\n", "") + "    difficulty: [{easy: 99999}, {hard: 2}]\n",
     "6:40", "the difficulty blocks add up to more than 100000 puzzles"),
    ("block count zero", BASE.replace("    count: 4\n", "") + "    difficulty: [{easy: 0}]\n", "6:25",
     "block count must be at least 1, got 0"),
    ("blocks disagree with count", BASE + "    difficulty: [{easy: 1}, {hard: 1}]\n", "6:12", "add up to 2"),
    # requests a variant can't honour
    ("expert 3x3 kenken", KENKEN + "    difficulty: expert\n", "6:17", "an expert Calcudoku needs at least a 4×4 grid"),
    ("hard 3x3 kenken", KENKEN + "    difficulty: hard\n", "6:17", "a hard Calcudoku needs at least a 4×4 grid"),
    ("kenken without + or *", KENKEN.replace("size: 3", "size: 5") + "    rules: {ops: ['-', '/']}\n", "6:18",
     "Calcudoku needs '+' or '*' among its ops"),
    ("max_run 3 on 6x6", BASE.replace("size: 8", "size: 6") + "    rules: {max_run: 3}\n", "7:22",
     "max_run: 3 needs a grid of at least 8x8 (this one is 6x6)"),
    ("max_run 4", BASE + "    rules: {max_run: 4}\n", "7:22", "max_run must be 2 or 3, got 4"),
    ("hard 4x4 takuzu", BASE.replace("size: 8", "size: 4") + "    difficulty: hard\n", "7:17",
     "a 4x4 Binairo is never harder than easy under these rules; choose a larger size or an easier level"),
    ("givens on takuzu", BASE + "    givens: few\n", "7:5", "'givens' steers how many clues are given, in tango and killer only; takuzu has no such option"),
    # the page (issue 5's formats): grids too small to write in
    ("page too small for the grids", BASE.replace("size: 8", "size: 14") + "    per_page: 6\npage: 6x9\n", "7:15",
     "6 14x14 grids per page on a 6x9 page get 3.5 mm cells, below the 8 mm needed for handwriting"),
]


@pytest.mark.parametrize("name,text,where,fragment", CASES, ids=[c[0] for c in CASES])
def test_config_error(tmp_path, name, text, where, fragment):
    config = tmp_path / "book.yaml"
    config.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    result = _run(config, out)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.splitlines()
    assert lines and all(line.startswith(f"{config}:") for line in lines), lines  # only located lines
    assert any(line.startswith(f"{config}:{where}") and fragment in line for line in lines), lines
    assert _nothing_written(out)


DEEP = ["title: " + "[" * 150 + "]" * 150 + "\n",  # flow lists
        "title: " + "{a: " * 150 + "1" + "}" * 150 + "\n",  # flow mappings
        "".join(" " * i + "- \n" for i in range(150)) + " " * 150 + "x\n",  # block lists
        "title: " + "[" * 150 + "]" * 149 + "\n",  # and a syntax error past the depth
        "title: [}\n" + "x: " + "[" * 150 + "]" * 150 + "\n"]  # before it


@pytest.mark.parametrize("text", DEEP, ids=["flow lists", "flow mappings", "block lists", "unclosed", "error first"])
def test_nesting_too_deep_for_the_composer_reads_as_pyyaml_reads_it(text):
    """The libyaml path stops where the composer's recursion does, without asking PyYAML's own
    parser (whose scanner took 0.5 s to reach that depth): the plain version must say the same.
    The recursion limit is lowered so that the plain version is quick here too."""
    import sys

    from bookgen.config import ConfigError, load_yaml

    def said(plain):
        try:
            load_yaml(text, "deep.yaml", plain=plain)
        except ConfigError as exc:
            return str(exc)
        return "read"

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(300)
    try:
        fast, plain = said(False), said(True)
    finally:
        sys.setrecursionlimit(limit)
    assert fast == plain


MANY_MISTAKES = """\
title: Puzzles for the Train
seed: 7
pgae: a4
sections:
  - variant: takuzu
    size: 7
    count: 1e3
  - variant: tanga
    count: 10
  - variant: kenken
    size: 3
    count: 4
    difficulty: expert
  - variant: takuzu
    size: 6
    count: 12
    dificulty: hard
    rules: {max_run: 3, unique_lines: no}
"""


def test_every_error_at_once_in_file_order(tmp_path):
    """The README's example, line for line: each mistake once, even several in one section."""
    config = tmp_path / "book.yaml"
    config.write_text(MANY_MISTAKES)
    result = _run(config, tmp_path / "out")
    assert result.exit_code == 2
    assert result.output.replace(f"{config}:", "book.yaml:").splitlines() == [
        "book.yaml:3:1: unknown key 'pgae'; did you mean 'page'?",
        "book.yaml:6:11: takuzu size must be one of 4, 6, 8, 10, 12, 14, got 7; sizes must be even",
        "book.yaml:7:12: count must be a whole number, got 1000.0 (write it without a decimal point or exponent)",
        f"book.yaml:8:14: unknown variant 'tanga'; expected one of {', '.join(variant_names())}; "
        "did you mean 'tango'?",
        "book.yaml:13:17: an expert Calcudoku needs at least a 4×4 grid",
        "book.yaml:17:5: unknown key 'dificulty'; did you mean 'difficulty'?",
        "book.yaml:18:22: max_run: 3 needs a grid of at least 8x8 (this one is 6x6)",
        "book.yaml:18:39: unique_lines must be true or false, got 'no' (YAML 1.1 would have read it as a boolean; "
        "write true or false)",
    ]
    assert _nothing_written(tmp_path / "out")


# ----- the file itself ------------------------------------------------------------------------------
def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


FILE_CASES = [
    ("missing file", lambda p: p / "nope.yaml", "no such file"),
    ("a directory", lambda p: (p / "dir.yaml").mkdir() or p / "dir.yaml", "is a directory, not a file"),
    ("a FIFO (would block forever)", lambda p: _fifo(p / "pipe.yaml"), "is not a regular file (a pipe or device?); save the text to a file first"),
    ("not UTF-8", lambda p: (p / "latin1.yaml").write_bytes(b"title: Caf\xe9\nsections: []\n") and p / "latin1.yaml",
     "not UTF-8 text (invalid continuation byte at byte 10, line 1); it looks like a Latin-1/Windows-1252 "
     "file: save it as UTF-8"),
]


@pytest.mark.parametrize("name,make,fragment", FILE_CASES, ids=[c[0] for c in FILE_CASES])
def test_config_file_problems(tmp_path, name, make, fragment):
    config = make(tmp_path)
    out = tmp_path / "out"
    result = _run(config, out)
    assert result.exit_code == 2, result.output
    assert result.output == f"{config}:1:1: {fragment}\n"
    assert _nothing_written(out)


def test_unreadable_config(tmp_path, monkeypatch):
    config = tmp_path / "book.yaml"
    config.write_text(BASE)
    config.chmod(0)
    if os.access(config, os.R_OK):  # root reads anything: make the read fail the way it would for a user
        def refuse(self):
            raise PermissionError(13, "Permission denied", str(self))
        monkeypatch.setattr(Path, "read_bytes", refuse)
    out = tmp_path / "out"
    result = _run(config, out)
    config.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert result.exit_code == 2
    assert result.output == f"{config}:1:1: cannot read the file: Permission denied\n"
    assert _nothing_written(out)


# ----- the command line ---------------------------------------------------------------------------
def test_out_is_an_existing_file(tmp_path):
    config = tmp_path / "book.yaml"
    config.write_text(BASE)
    out = tmp_path / "taken"
    out.write_text("keep me")
    result = _run(config, out)
    assert result.exit_code == 2
    assert result.output == f"error: --out {out}: is a file, not a directory\n"
    assert out.read_text() == "keep me" and sorted(p.name for p in tmp_path.iterdir()) == ["book.yaml", "taken"]


def test_out_below_a_file(tmp_path):
    config = tmp_path / "book.yaml"
    config.write_text(BASE)
    (tmp_path / "taken").write_text("keep me")
    result = _run(config, tmp_path / "taken" / "books")
    assert result.exit_code == 2
    assert result.output.startswith(f"error: --out {tmp_path / 'taken' / 'books'}: cannot create the directory: ")
    assert (tmp_path / "taken").read_text() == "keep me"


def test_out_not_writable(tmp_path, monkeypatch):
    config = tmp_path / "book.yaml"
    config.write_text(BASE)
    out = tmp_path / "locked"
    out.mkdir()
    out.chmod(stat.S_IRUSR | stat.S_IXUSR)
    real_open = os.open
    if os.access(out, os.W_OK):  # root writes anywhere: refuse the way a read-only disk would
        def refuse(path, *args, **kwargs):
            if Path(path).parent == out:
                raise PermissionError(13, "Permission denied", str(path))
            return real_open(path, *args, **kwargs)
        monkeypatch.setattr(os, "open", refuse)
    result = _run(config, out)
    out.chmod(stat.S_IRWXU)
    assert result.exit_code == 2
    assert result.output == f"error: --out {out}: the directory is not writable: Permission denied\n"
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("jobs", ["-1", "100000"])
def test_jobs_out_of_range(tmp_path, jobs):
    config = tmp_path / "book.yaml"
    config.write_text(BASE)
    result = _run(config, tmp_path / "out", "--jobs", jobs)
    assert result.exit_code == 2 and "--jobs must be between 0 (all cores) and 256" in result.output
    assert _nothing_written(tmp_path / "out")


def test_jobs_not_a_number(tmp_path):
    config = tmp_path / "book.yaml"
    config.write_text(BASE)
    result = _run(config, tmp_path / "out", "--jobs", "two")
    assert result.exit_code == 2 and "Invalid value for '--jobs'" in result.output
    assert "Traceback" not in result.output and _nothing_written(tmp_path / "out")


# ----- generation within budget ----------------------------------------------------------------------
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_budget_exhausted_names_the_section(tmp_path, monkeypatch, jobs):
    """A request the generator can't meet stops the build, naming the section and what to change."""
    import bookgen.variants.binarygrid as binarygrid

    monkeypatch.setattr(binarygrid, "MAX_ATTEMPTS", 0)  # forked workers inherit the patch
    config = tmp_path / "book.yaml"
    config.write_text("title: T\nsections:\n  - variant: kenken\n    size: 4\n    count: 1\n"
                      "  - variant: takuzu\n    size: 6\n    count: 3\n    difficulty: hard\n")
    out = tmp_path / "out"
    result = _run(config, out, "--jobs", jobs)
    assert result.exit_code == 1
    # with two workers either of the section's puzzles may be the first to give up
    assert re.fullmatch(r"error: section 2, puzzle [123]: could not make a hard 6x6 Binairo in 0 attempts "
                        r"with any of 4 seeds; try an easier level, a larger size, fewer restrictions or "
                        r"another seed\n", result.output), result.output
    assert len(result.output.splitlines()) == 1
    assert _nothing_written(out)


def test_failed_build_keeps_the_previous_book(tmp_path, monkeypatch):
    import bookgen.variants.binarygrid as binarygrid

    config = tmp_path / "book.yaml"
    config.write_text("title: T\nsections:\n  - variant: takuzu\n    size: 6\n    count: 2\n")
    out = tmp_path / "out"
    assert _run(config, out, "--jobs", "1").exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    monkeypatch.setattr(binarygrid, "MAX_ATTEMPTS", 0)
    result = _run(config.parent / "book.yaml", out, "--jobs", "1", "--seed", "9")
    assert result.exit_code == 1
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


# ----- issue 26: hostile paths and files that are not books ----------------------------------------------
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.sampled_from(["puzzles", "format", "variant", "size", "x"]),
                                             inner, max_size=3), max_leaves=10)


@pytest.fixture(scope="module")
def built_book(tmp_path_factory):
    """A one-puzzle book: each example checks it again before reading the other file."""
    folder = tmp_path_factory.mktemp("against")
    config = folder / "book.yaml"
    config.write_text(BASE.replace("size: 8\n    count: 4", "size: 6\n    count: 1"))
    assert _run(config, folder).exit_code == 0
    return folder / "book.json"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=JSON_VALUES)
def test_check_against_any_json_is_a_book_or_one_line(built_book, tmp_path, value):
    other = tmp_path / "other.json"
    other.write_text(json.dumps(value))
    result = CliRunner().invoke(app, ["check", str(built_book), "--against", str(other)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1  # none of these is a book
    assert result.output.startswith(f"error: {other}: ")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.integers(200, 400), min_size=1, max_size=20))
def test_any_long_out_path_is_one_line(tmp_path, parts):
    config = tmp_path / "book.yaml"
    config.write_text(BASE.replace("size: 8\n    count: 4", "size: 6\n    count: 1"))  # the path is the point: a small book
    out = tmp_path.joinpath(*["d" * n for n in parts])
    result = CliRunner().invoke(app, ["build", str(config), "--out", str(out), "--quiet"])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code:
        assert len(result.output.strip().splitlines()) == 1
