"""Issue 14: builds that don't fail at random, bounded input everywhere, no tracebacks."""

from __future__ import annotations

import hashlib

import pytest

import bookgen.book as book_mod
import bookgen.variants.binarygrid as binarygrid
from bookgen.book import Job, run_job
from bookgen.core.difficulty import Level
from bookgen.core.rng import derive_seed, rng_for
from bookgen.core.types import GenerationError
from bookgen.variants.takuzu import TAKUZU

RULES = (("max_run", 2), ("unique_lines", True))


# ----- 1. a generation budget per attempt, retried with the next seed ------------------------------
def test_attempt_zero_keeps_the_old_seed():
    """Books made before retries existed come out the same: try 0 is the seed of (book, section, index)."""
    old = hashlib.sha256(b"bookgen/6/0/38").hexdigest()[:16]
    assert derive_seed(6, 0, 38) == derive_seed(6, 0, 38, 0) == old
    job = Job(0, 38, "takuzu", 14, RULES, Level.MEDIUM, derive_seed(6, 0, 38), (), 6)
    seeds = {job.attempt_seed(k) for k in range(4)}
    assert job.attempt_seed(0) == old and len(seeds) == 4


def test_seed_6_puzzle_39_of_a_14x14_book_builds():
    """The issue's book: seed 6, 14x14 medium, puzzle 39 ran out of grid budget and failed the build."""
    job = Job(0, 38, "takuzu", 14, RULES, Level.MEDIUM, derive_seed(6, 0, 38), (), 6)
    puzzle = run_job(job)
    assert puzzle.grade.level == Level.MEDIUM and TAKUZU.solutions(puzzle, 2) == [puzzle.solution]


def test_grid_budget_running_out_is_one_failed_attempt(monkeypatch):
    real = binarygrid.random_solution
    calls = []

    def flaky(engine, rng, *args):
        calls.append(1)
        if len(calls) == 1:
            raise GenerationError("no valid 8x8 grid found within 2000 steps")
        return real(engine, rng, *args)

    monkeypatch.setattr(binarygrid, "random_solution", flaky)
    rules = TAKUZU.parse_rules({}, 8)
    puzzle = TAKUZU.generate(8, rules, Level.EASY, rng_for(derive_seed(1, 0, 0)))
    assert len(calls) >= 2 and puzzle.grade.level == Level.EASY


def test_a_failed_try_is_retried_with_the_next_seed(monkeypatch):
    """Try 0 runs out; try 1 makes the puzzle, which records the seed that regenerates it."""
    real = TAKUZU.generate
    tries = []

    def first_fails(self, size, rules, level, rng, options=None):
        tries.append(rng.getstate())
        if len(tries) == 1:
            raise GenerationError("could not make an easy 8x8 Binairo in 80 attempts")
        return real(size, rules, level, rng, options)

    monkeypatch.setattr(type(TAKUZU), "generate", first_fails)
    job = Job(2, 5, "takuzu", 8, RULES, Level.EASY, derive_seed(3, 2, 5), (), 3)
    puzzle = run_job(job)
    assert len(tries) == 2
    assert puzzle.seed == job.attempt_seed(1) == derive_seed(3, 2, 5, 1) != job.seed
    monkeypatch.undo()
    again = TAKUZU.generate(8, dict(RULES), Level.EASY, rng_for(puzzle.seed))
    assert again.givens == puzzle.givens


def test_every_try_failing_gives_a_possible_remedy(monkeypatch):
    monkeypatch.setattr(binarygrid, "MAX_ATTEMPTS", 0)
    job = Job(0, 0, "takuzu", 14, RULES, Level.HARD, derive_seed(1, 0, 0), (), 1)
    with pytest.raises(GenerationError) as info:
        book_mod._run_named(job)
    text = str(info.value)
    assert text.startswith("section 1, puzzle 1: could not make a hard 14x14 Binairo")
    assert f"any of {book_mod.SEED_ATTEMPTS} seeds" in text
    assert "larger size" not in text and "an easier level" in text


# ----- helpers for the command line ------------------------------------------------------------------
import json  # noqa: E402
import os  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

import bookgen.cli as cli  # noqa: E402
import bookgen.puzzletext as puzzletext  # noqa: E402
from bookgen.cli import app  # noqa: E402

runner = CliRunner()
BASE = "title: T\nseed: 1\nsections:\n  - variant: takuzu\n    size: 6\n    count: 2\n"


def _build(tmp_path: Path, text: str, *extra: str, name: str = "book"):
    config = tmp_path / f"{name}.yaml"
    config.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    return config, out, runner.invoke(app, ["build", str(config), "--out", str(out), "--quiet", *extra])


def _solve(path: Path, *extra: str):
    return runner.invoke(app, ["solve", str(path), *extra])


def _one_error(result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


# ----- 3. located errors instead of tracebacks --------------------------------------------------------
def test_seed_of_thousands_of_hex_digits_is_a_config_error(tmp_path):
    config, out, result = _build(tmp_path, BASE.replace("seed: 1", "seed: 0x" + "f" * 5000))
    assert _one_error(result) == f"{config}:2:7: number '0x" + "f" * 34 + "... is far too long"
    assert not out.exists()


def test_seed_beyond_the_limit_is_refused_in_config_and_on_the_command_line(tmp_path):
    config, out, result = _build(tmp_path, BASE.replace("seed: 1", "seed: " + "9" * 40))
    assert _one_error(result) == f"{config}:2:7: seed must have at most 30 digits"
    config, out, result = _build(tmp_path, BASE, "--seed", "9" * 40)
    assert _one_error(result) == "error: --seed: seed must have at most 30 digits"
    assert not out.exists()


def test_kenken_legend_target_of_thousands_of_digits(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("abc\nabc\nabc\na: " + "9" * 5000 + "+ b: 6+ c: 6+\n")
    line = _one_error(_solve(path))
    assert line.startswith(f"error: {path}:4:4: cage 'a': target 99999999999999999... is far too large")


def test_header_option_of_thousands_of_digits(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("takuzu max_run=" + "1" * 5000 + "\n0...\n....\n....\n....\n")
    assert _one_error(_solve(path)) == f"error: {path}:1:16: max_run: 11111111111111111... is not a usable number"


@pytest.mark.parametrize("entry,fragment", [
    (None, "puzzle 1: is not a JSON object but None"),
    (7, "puzzle 1: is not a JSON object but 7"),
    ("takuzu", "puzzle 1: is not a JSON object but 'takuzu'"),
    ([1, 2], "puzzle 1: is not a JSON object but [1, 2]"),
    ({"variant": "takuzu", "size": 10**30, "givens": []}, "puzzle 1: malformed: Binairo size must be one of"),
    ({"variant": "takuzu", "size": 10**9, "givens": []}, "got 1000000000"),
    ({"variant": "kenken", "size": True, "givens": []}, "size must be one of 3, 4, 5, 6, 7, 8, 9, got True"),
])
def test_solve_book_json_entry_shapes(tmp_path, entry, fragment):
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"format": "bookgen-book/1", "puzzles": [entry]}))
    assert fragment in _one_error(_solve(path))


def test_solve_refuses_fifo_and_devices(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    message = "is not a regular file (a pipe or device?); save the text to a file first"
    assert _one_error(_solve(fifo)) == f"error: {fifo}: {message}"
    assert _one_error(_solve(Path("/dev/zero"))) == f"error: /dev/zero: {message}"


def test_solve_refuses_an_oversized_text_file(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("# comment\n" * 20_000 + "takuzu\n01\n10\n")
    assert "longer than 100000 characters" in _one_error(_solve(path))


def test_solve_json_with_absurd_numbers_or_nesting(tmp_path):
    path = tmp_path / "b.json"
    path.write_text('{"puzzles": [' + "1" * 5000 + "]}")
    assert "not usable JSON" in _one_error(_solve(path))
    path.write_text("[" * 100_000)
    assert "nested too deeply" in _one_error(_solve(path))


# ----- 2. bounded work for solve ------------------------------------------------------------------------
@pytest.mark.parametrize("grid,legend,cells", [
    (["a" * 9] * 9, "a: 405+", 81),
    (["a" * 6] * 6, "a: 126+", 36),
    ([chr(97 + r) * 9 for r in range(9)], " ".join(f"{chr(97 + r)}: 45+" for r in range(9)), 9),
    (["a" * 9] * 4 + ["aaaabbbbb"] + ["b" * 9] * 4, "a: 185+ b: 220+", 40),
])
def test_solve_refuses_kenken_cages_beyond_six_cells(tmp_path, grid, legend, cells):
    path = tmp_path / "p.txt"
    path.write_text("\n".join(grid) + "\n" + legend + "\n")
    t = time.perf_counter()
    line = _one_error(_solve(path))
    assert time.perf_counter() - t < 5
    assert line == f"error: {path}:1:1: cage 'a' has {cells} cells; a Calcudoku cage has at most 6 (max_cage)"


def test_solve_refuses_a_giant_cage_in_book_json(tmp_path):
    sol = ["123456", "234561", "345612", "456123", "561234", "612345"]
    cage = {"cells": [[r, c] for r in range(6) for c in range(6)], "op": "+", "target": 126}
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"puzzles": [{"variant": "kenken", "size": 6, "givens": ["......"] * 6,
                                             "solution": sol, "cages": [cage], "rules": {"max_cage": 6}}]}))
    assert _one_error(_solve(path)) == f"error: {path}: puzzle 1: a cage has 36 cells; the rules allow at most 6"


def test_solve_has_a_time_budget(tmp_path, monkeypatch):
    """A legal puzzle that costs too much ends with a clear sentence and exit 1 (budget forced tiny)."""
    monkeypatch.setattr(cli, "SOLVE_SECONDS", 0.001)
    real = puzzletext.solve_report

    def slow(*args, **kwargs):
        time.sleep(0.5)  # stands in for a long search: the limit must cut it short
        return real(*args, **kwargs)

    monkeypatch.setattr(puzzletext, "solve_report", slow)  # (the command imports it when it runs)
    path = tmp_path / "p.txt"
    path.write_text("takuzu\n0...\n....\n....\n....\n")
    t = time.perf_counter()
    line = _one_error(_solve(path), code=1)
    assert time.perf_counter() - t < 0.4
    assert line == f"error: {path}: too hard to solve within 0.001 s; the puzzle is legal but its search is too large"


# ----- 5. config size --------------------------------------------------------------------------------------
def test_config_over_a_megabyte_is_refused_before_parsing(tmp_path):
    text = BASE + "".join(f"k{i}: {i}\n" for i in range(120_000))
    t = time.perf_counter()
    config, out, result = _build(tmp_path, text)
    assert time.perf_counter() - t < 2
    assert _one_error(result) == f"{config}:1:1: the file is larger than 1 MB (a book file is a few KB); " \
        "is it the right file?"
    assert not out.exists()


def test_many_keys_counted_while_composing_not_blamed_on_aliases(tmp_path, monkeypatch):
    import bookgen.config as config_mod

    monkeypatch.setattr(config_mod, "MAX_NODES", 2000)  # the real limit, 100000, works the same, only slower
    text = BASE + "x: {" + ", ".join(f"k{i}: 1" for i in range(1500)) + "}\n"
    config, out, result = _build(tmp_path, text)
    line = _one_error(result)
    assert line.startswith(f"{config}:7:") and line.endswith("the file holds more than 2000 values; "
                                                            "a book needs far fewer")
    assert "alias" not in line and not out.exists()


# ----- 9. smaller points -----------------------------------------------------------------------------------
@pytest.mark.parametrize("title", ["2024-01-01", "=", "2001-12-14t21:59:43.10-05:00"])
def test_plain_yaml_12_strings_are_titles(tmp_path, title):
    from bookgen.config import load_book

    config = tmp_path / "t.yaml"
    config.write_text(BASE.replace("title: T", f"title: {title}"))
    assert load_book(config).title == title


def test_underscores_in_numbers_are_not_yaml_12(tmp_path):
    config, out, result = _build(tmp_path, BASE.replace("count: 2", "count: 1_000"))
    assert _one_error(result) == f"{config}:6:12: count must be a whole number, got '1_000' " \
        "(write it without '_' separators)"


def test_utf16_config_says_so(tmp_path):
    config = tmp_path / "u.yaml"
    config.write_bytes(BASE.encode("utf-16"))
    result = runner.invoke(app, ["build", str(config), "--out", str(tmp_path / "out"), "--quiet"])
    assert _one_error(result).endswith("it looks like UTF-16: save it as UTF-8")


# ----- 7. one build at a time per output name ---------------------------------------------------------------
def test_second_build_into_the_same_name_is_refused(tmp_path):
    import fcntl

    config, out, result = _build(tmp_path, BASE)
    assert result.exit_code == 0 and sorted(p.name for p in out.iterdir()) == ["book.json", "book.pdf"]
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    fd = os.open(out / ".book.lock", os.O_RDWR | os.O_CREAT)  # a build in progress holds this
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        result = runner.invoke(app, ["build", str(config), "--out", str(out), "--quiet", "--seed", "5"])
        assert _one_error(result, 1) == (f"error: another bookgen build is writing book.pdf in {out} right now; "
                                         "wait for it to finish or choose another --out")
        assert {p.name: p.read_bytes() for p in out.iterdir() if p.name != ".book.lock"} == before
        assert [p.name for p in out.iterdir() if p.name.endswith(".tmp")] == []
    finally:
        os.close(fd)
    result = runner.invoke(app, ["build", str(config), "--out", str(out), "--quiet", "--seed", "5"])
    assert result.exit_code == 0 and (out / "book.pdf").read_bytes() != before["book.pdf"]
    assert sorted(p.name for p in out.iterdir()) == ["book.json", "book.pdf"]  # the lock file is gone


def test_a_new_output_directory_goes_again_when_the_build_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(binarygrid, "MAX_ATTEMPTS", 0)
    config, out, result = _build(tmp_path, BASE, "--jobs", "1")
    assert result.exit_code == 1 and not out.exists()


# ----- 8. the environment can't change the PDF --------------------------------------------------------------
def test_pdf_is_the_same_with_or_without_source_date_epoch_and_rl_settings(tmp_path, monkeypatch):
    from reportlab import rl_config

    config = tmp_path / "book.yaml"
    config.write_text(BASE)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    plain = tmp_path / "plain"
    assert runner.invoke(app, ["build", str(config), "--out", str(plain), "-q", "-j", "1"]).exit_code == 0
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    # what RL_pdfComments=1 in the environment does when reportlab is imported
    monkeypatch.setenv("RL_pdfComments", "1")
    monkeypatch.setattr(rl_config, "pdfComments", 1)
    dated = tmp_path / "dated"
    assert runner.invoke(app, ["build", str(config), "--out", str(dated), "-q", "-j", "1"]).exit_code == 0
    assert (dated / "book.pdf").read_bytes() == (plain / "book.pdf").read_bytes()
    assert (dated / "book.json").read_bytes() == (plain / "book.json").read_bytes()
    assert os.environ["SOURCE_DATE_EPOCH"] == "1700000000"  # the user's environment is left as it was


def test_a_page_with_no_room_says_so_instead_of_negative_cells(tmp_path):
    text = BASE.replace("seed: 1", "page: {width: 20in, height: 3in}")
    config, out, result = _build(tmp_path, text)
    line = _one_error(result)
    assert "no room for a 6x6 grid" in line and "-" not in line.split(": ", 1)[1].split("page")[0]
    assert "mm cells" not in line


def test_empty_out_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "book.yaml"
    config.write_text(BASE)
    result = runner.invoke(app, ["build", str(config), "--out", "", "--quiet"])
    assert _one_error(result) == "error: --out is empty; name the output directory (--out . for the current one)"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.yaml"]


def test_check_refuses_duplicated_tango_edges_quickly(tmp_path):
    from bookgen.book import check_book

    entry = {"variant": "tango", "size": 6, "difficulty": "easy", "givens": ["......"] * 6,
             "solution": ["101010", "010101"] * 3, "rules": {"max_run": 2, "unique_lines": False},
             "edges": [{"cells": [[0, 0], [0, 1]], "sign": "x"}] * 2}
    count, failures = check_book({"format": "bookgen-book/1", "puzzles": [entry]})
    assert failures == ["puzzle 1: malformed: edge 2 joins the same cells as edge 1"]
    entry["edges"] = entry["edges"] * 700_000
    t = time.perf_counter()
    count, failures = check_book({"format": "bookgen-book/1", "puzzles": [entry]})
    assert time.perf_counter() - t < 1
    assert failures == ["puzzle 1: malformed: 1400000 edges, but a 6x6 grid has only 60 places for one"]


def test_check_reports_progress_per_puzzle():
    from bookgen.book import check_book

    seen = []
    count, failures = check_book({"format": "bookgen-book/1", "puzzles": [{}] * 5},
                                 lambda done, total: seen.append((done, total)))
    assert count == 5 and len(failures) == 5 and seen == [(k, 5) for k in range(1, 6)]


# ----- 9. an estimate before a long build; no book past the page limit ----------------------------------------
def test_every_generatable_request_has_a_measured_cost():
    from bookgen.core.difficulty import LEVELS
    from bookgen.core.types import GridSize
    from bookgen.estimate import COST_MS
    from bookgen.variants.registry import VARIANTS

    for variant in VARIANTS.values():
        # A rectangular variant takes too many sizes to measure each: its measured rows
        # (smallest and largest square among them) cover every level they accept, and the
        # estimate scales the rest from the nearest (``bookgen.estimate``).
        sizes = list(variant.measured.costs) if variant.rectangular else variant.sizes
        if variant.rectangular:
            squares = variant.size_range.squares
            assert {GridSize(squares[0], squares[0]), GridSize(squares[-1], squares[-1])} <= set(sizes), variant.name
        for size in sizes:
            row = COST_MS[(variant.name, size)]
            rules = variant.parse_rules({}, size)
            for level in LEVELS:
                if variant.check_request(size, rules, level) is None:
                    assert row[level] is not None and row[level] > 0, (variant.name, size, level)


def test_a_build_of_hours_needs_yes(tmp_path):
    text = "title: L\nlayout: worksheet\nsections:\n  - variant: kenken\n    size: 9\n    count: 20000\n" \
           "    difficulty: expert\n"
    config, out, result = _build(tmp_path, text, "--jobs", "2")
    line = _one_error(result)
    assert line.startswith("error: this book would take about ") and " h " in line
    assert line.endswith("with 2 workers (estimated from measured puzzle times); add --yes to build it anyway, "
                         "or lower the counts or levels")
    assert not out.exists()


def test_yes_lets_a_long_build_go(tmp_path, monkeypatch):
    monkeypatch.setattr("bookgen.estimate.CONFIRM_SECONDS", 0.0)  # every build counts as long
    config, out, result = _build(tmp_path, BASE)
    assert result.exit_code == 2 and "add --yes" in result.output and not out.exists()
    config, out, result = _build(tmp_path, BASE, "--yes")
    assert result.exit_code == 0 and (out / "book.pdf").exists()


def test_a_book_past_828_pages_is_refused_but_a_worksheet_set_is_not(tmp_path):
    from bookgen.config import ConfigError, load_book

    text = "title: B\nsections:\n  - variant: takuzu\n    size: 14\n    count: 2000\n"
    config, out, result = _build(tmp_path, text)
    line = _one_error(result)
    assert line.startswith(f"{config}:5:12: the book would have about ") and "at most 828" in line
    assert not out.exists()
    config.write_text(text.replace("title: B\n", "title: B\nlayout: worksheet\n"))
    assert load_book(config).sections[0].count == 2000
    with pytest.raises(ConfigError):
        config.write_text(text)
        load_book(config)


# ----- 6. interrupts at the edges: one true sentence, exit 130/143, never a traceback ------------------------
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def own_signals():
    """Whatever a test does to the handlers, the test runner gets its own Ctrl-C and SIGTERM back."""
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    yield
    for sig, handler in saved.items():
        signal.signal(sig, handler)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_during_the_renames_reports_the_new_book(tmp_path, monkeypatch, own_signals, sig):
    real = os.replace
    calls = []

    def replace_and_signal(a, b):
        calls.append(b)
        if len(calls) == 1:
            os.kill(os.getpid(), sig)  # held until both files are in place
        real(a, b)

    config = tmp_path / "book.yaml"
    config.write_text(BASE)
    out = tmp_path / "out"
    out.mkdir()
    (out / "book.pdf").write_bytes(b"old")
    (out / "book.json").write_bytes(b"old")
    monkeypatch.setattr(book_mod.os, "replace", replace_and_signal)
    result = runner.invoke(app, ["build", str(config), "--out", str(out), "--quiet", "--jobs", "1"])
    assert result.exit_code == 128 + sig
    assert result.output == (f"error: interrupted, but the new book was already complete: {out / 'book.pdf'}, "
                             f"{out / 'book.json'}\n")
    assert (out / "book.pdf").read_bytes().startswith(b"%PDF") and (out / "book.json").read_bytes() != b"old"
    assert sorted(p.name for p in out.iterdir()) == ["book.json", "book.pdf"]


def test_sigterm_just_after_the_build_reports_the_new_book(tmp_path, monkeypatch, own_signals):
    real = book_mod.build

    def build_then_signal(*args, **kwargs):
        written = real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGTERM)
        return written

    monkeypatch.setattr(book_mod, "build", build_then_signal)
    config, out, result = _build(tmp_path, BASE, "--jobs", "1")
    assert result.exit_code == 143
    assert result.output.startswith("error: interrupted, but the new book was already complete: ")
    assert (out / "book.pdf").exists()


@pytest.mark.parametrize("delay", [0.1, 0.3])
def test_ctrl_c_while_starting_up(tmp_path, delay):
    """Ctrl-C while the program imports its modules (the interpreter itself is up: it says so first)."""
    config = tmp_path / "book.yaml"
    config.write_text(BASE)
    start = ("import sys; sys.stderr.write('up\\n'); sys.stderr.flush(); "
             f"sys.argv = ['bookgen', 'build', {str(config)!r}, '--out', 'out', '--jobs', '1']; "
             "from bookgen.__main__ import main; main()")

    def child_setup():
        os.setpgrp()
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen([sys.executable, "-c", start], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=tmp_path, preexec_fn=child_setup)
    assert proc.stderr.readline() == b"up\n"
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=30)
    text = stderr.decode()
    if proc.returncode == 0:  # the machine was quick: the book was done before the signal
        return
    assert proc.returncode == 130, text
    assert "Traceback" not in text and len(text.splitlines()) == 1, text
    assert text.startswith("error: interrupted")
    assert not (tmp_path / "out").exists()


# ----- 4. printed text: it fits its box, or is a located config error -------------------------------------------
from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from conftest import examples  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import bookgen.layout.render as render  # noqa: E402
from bookgen.config import ConfigError, load_book  # noqa: E402
from bookgen.layout.textfit import printed_text_problem, unprintable  # noqa: E402

FIELDS = ("title", "subtitle", "author", "section")
WORDS = st.sampled_from(["Puzzles", "Binary", "Grids", "Sun", "Moon", "Straße", "Ærøskøbing", "naïve", "café",
                         "Supercalifragilisticexpialidocious" * 2, "W" * 60, "i" * 150, "—", "·", "★", "数独",
                         "שלום", "مرحبا", "\u0007", "\u200b", "😀", "🧩", "x\u0301"])
SAFE = st.lists(st.sampled_from(["Puzzles", "Binary", "Grids", "Straße", "Ærøskøbing", "café", "—", "★", "Vol. 2"]),
                min_size=1, max_size=4).map(" ".join)
WILD = (st.lists(WORDS, min_size=1, max_size=25).map(" ".join)
        | st.text(min_size=1, max_size=60)
        | st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=400))


def _yaml(texts: dict[str, str], page: str = "6x9", layout: str = "book") -> str:
    q = {k: json.dumps(v) for k, v in texts.items()}  # JSON strings are YAML double-quoted scalars
    return (f"title: {q['title']}\nsubtitle: {q['subtitle']}\nauthor: {q['author']}\npage: {page}\n"
            f"layout: {layout}\nsections:\n  - variant: takuzu\n    title: {q['section']}\n    size: 4\n"
            "    count: 1\n    difficulty: easy\n")


def test_issue_cases_are_refused_at_their_place(tmp_path):
    cases = {"title": "T" * 10_000, "author": "A. " * 80, "section": "Section " * 30}
    for field, text in cases.items():
        texts = dict.fromkeys(FIELDS, "x") | {field: text}
        config, out, result = _build(tmp_path, _yaml(texts))
        assert result.exit_code == 2 and not out.exists()
        line = result.output.splitlines()[0]
        assert "too long to print" in line and "at most about" in line and f"it has {len(text.strip())}" in line
    for ch, why in [("数", "not in the book's font"), ("\U0001f9e9", "not in the book's font"),
                    ("ש", "right-to-left"), ("ع", "right-to-left"), ("\u0007", "control character"),
                    ("\u200b", "formatting character")]:
        problem = unprintable(f"ab{ch}")
        assert problem is not None and why in problem and problem.startswith("character 3")


def test_a_blank_printed_text_is_refused_at_its_place(tmp_path):
    """A title of spaces (or a full-width space) would print an empty title page: refused, nothing written."""
    for blank in ("   ", "\u3000", " \t "):
        texts = dict.fromkeys(FIELDS, "x") | {"title": blank}
        config, out, result = _build(tmp_path, _yaml(texts))
        assert result.exit_code == 2 and not out.exists(), result.output
        assert result.output.startswith(f"{config}:1:") and "title is blank" in result.output


def test_printed_text_problem_serves_any_field():
    from bookgen.layout.textfit import Room

    room = Room("on the back cover", 200, 2, 10, 8)
    assert printed_text_problem("A short blurb.", "cover.blurb", [room]) is None
    assert "cover.blurb is too long to print on the back cover" in printed_text_problem("word " * 200,
                                                                                        "cover.blurb", [room])


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(texts=st.fixed_dictionaries({f: SAFE for f in FIELDS}), wild=st.sampled_from(FIELDS), text=WILD,
       page=st.sampled_from(["6x9", "letter"]), layout=st.sampled_from(["book", "worksheet"]))
@example(texts=dict.fromkeys(FIELDS, "Grids"), wild="title", text="Fractions and Binary Grids " * 2,
         page="letter", layout="worksheet")  # its answer key's heading fits at 13.5 pt
@example(texts=dict.fromkeys(FIELDS, "Grids"), wild="title", text="Fractions and Binary Grids " * 3,
         page="letter", layout="worksheet")  # ... and at 9 pt, below the floor: refused
def test_printed_text_fits_or_is_refused(tmp_path_factory, monkeypatch, texts, wild, text, page, layout):
    """Any Unicode in a printed field: a located refusal with nothing written, or every line inside its page."""
    texts = dict(texts, **{wild: text})
    tmp = tmp_path_factory.mktemp("text")
    drawn: list[tuple[tuple[float, float, float, float], float, float, str, float, int, bool, bool]] = []
    real, real_heading = render.Document.text, render.Document.heading
    in_heading = []

    def record(self, x, y, s, size, bold=False, grey=0.0, align="left"):
        width = real(self, x, y, s, size, bold, grey, align)
        left = {"left": x, "center": x - width / 2, "right": x - width}[align]
        drawn.append((self.safe, left, left + width, s, size, self.page, bool(in_heading), bold))
        return width

    def heading(self, *args, **kwargs):
        in_heading.append(True)
        try:
            return real_heading(self, *args, **kwargs)
        finally:
            in_heading.pop()

    monkeypatch.setattr(render.Document, "text", record)
    monkeypatch.setattr(render.Document, "heading", heading)
    config, out, result = _build(tmp, _yaml(texts, page, layout), "--jobs", "1")
    assert "Traceback" not in result.output and not isinstance(result.exception, Exception) \
        or isinstance(result.exception, SystemExit)
    if os.environ.get("TEXT_FUZZ_LOG"):
        with open(os.environ["TEXT_FUZZ_LOG"], "a") as log:
            log.write(f"{result.exit_code}\n")
    if result.exit_code == 2:
        assert not out.exists()
        assert all(line.startswith(f"{config}:") for line in result.output.splitlines())
        return
    assert result.exit_code == 0, result.output
    book = load_book(config)
    style = book.shape.style
    floors = {book.author: style.small, book.sections[0].title: style.small}  # one line each
    for (x0, _, x1, _), left, right, s, size, page, is_heading, _ in drawn:
        assert x0 - 0.01 <= left and right <= x1 + 0.01, (s, left, right, x0, x1)
        if is_heading:  # 'Contents', 'How to play ...', 'Answer key: TITLE': shrunk, but not past the floor
            assert size >= style.label, (s, size)
        if s in floors:
            assert size >= floors[s], (s, size)
    if layout == "worksheet":
        assert any(h and s == f"Answer key: {book.title}" for *_, s, size, _, h, _ in drawn)
    else:
        title_lines = [size for *_, s, size, page, _, bold in drawn if page == 1 and bold and s in book.title]
        assert title_lines and min(title_lines) >= 16, title_lines
    for text in (book.title, book.subtitle, book.author, book.sections[0].title):
        assert unprintable(text) is None


def test_check_and_solve_stop_at_a_bounded_number_of_json_objects(tmp_path, monkeypatch):
    monkeypatch.setattr("bookgen.reading.MAX_JSON_OBJECTS", 1000)  # the real limit works the same, only slower
    path = tmp_path / "many.json"
    path.write_text('{"format": "bookgen-book/1", "puzzles": [' + ", ".join(["{}"] * 1500) + "]}")
    line = _one_error(runner.invoke(app, ["check", str(path)]), code=1)
    assert line == f"error: {path}: not usable JSON: more than 1000 JSON lists and objects (no book holds that many)"
    assert _one_error(_solve(path)) == line


@settings(max_examples=examples(25), deadline=None)
@given(words=st.lists(st.sampled_from(["a", "grid", "Sun", "W" * 12, "i" * 40, "Straße", "—"]), max_size=12),
       width=st.floats(30, 300), indent=st.sampled_from([0.0, 20.0]))
def test_no_broken_line_is_wider_than_its_box(words, width, indent):
    from bookgen.layout.textfit import break_lines, text_width

    text = " ".join(words)
    lines = break_lines(text, 10, width, first_indent=indent)
    for k, line in enumerate(lines):
        assert text_width(line, 10) <= width - (indent if k == 0 else 0) + 1e-6, (line, width)
    assert "".join("".join(lines).split()) == "".join(text.split())  # nothing lost, nothing added


def test_check_has_a_time_budget_per_puzzle(monkeypatch):
    import bookgen.checking as checking
    from bookgen.book import check_book

    monkeypatch.setattr(checking, "CHECK_SECONDS", 0.001)
    real = checking.check_puzzle

    def slow(entry):
        time.sleep(0.3)  # stands in for an exact search that runs long
        return real(entry)

    monkeypatch.setattr(checking, "check_puzzle", slow)
    t = time.perf_counter()
    count, failures = check_book({"format": "bookgen-book/1", "puzzles": [{}, {}]})
    assert time.perf_counter() - t < 0.3
    assert failures == [f"puzzle {k}: too hard to check within 0.001 s (its exact search is too large)"
                        for k in (1, 2)]


def test_a_huge_title_is_refused_quickly(tmp_path):
    t = time.process_time()  # CPU time: a machine busy with other work must not fail it
    config, out, result = _build(tmp_path, BASE.replace("title: T", "title: " + "word " * 180_000))
    assert time.process_time() - t < 3
    line = _one_error(result)
    assert line.startswith(f"{config}:1:8: title is too long to print on the title page") and not out.exists()


def test_a_worksheet_title_too_long_for_the_answer_key_heading_is_refused(tmp_path):
    text = "title: " + "Fractions and Binary Grids " * 3 + "\nlayout: worksheet\nsections:\n" \
           "  - variant: takuzu\n    size: 6\n    count: 1\n    difficulty: easy\n"
    config, out, result = _build(tmp_path, text)
    line = _one_error(result)
    assert line.startswith(f"{config}:1:8: title is too long to print in the answer key's heading "
                           "(one line at 12 pt or more): at most about ")
    assert not out.exists()


# ----- the page limit is counted, not laid out --------------------------------------------------------------
@settings(max_examples=examples(25), deadline=None)
@given(runs=st.lists(st.tuples(st.sampled_from([4, 6, 8, 10, 12, 14]), st.integers(1, 400)), min_size=1,
                     max_size=4),
       page=st.sampled_from(["6x9", "letter", "7x10"]), large=st.booleans(), worksheet=st.booleans(),
       per_page=st.sampled_from([None, 1, 2, 4]), explain=st.booleans(), rules=st.integers(1, 2),
       walk=st.integers(1, 20))
def test_page_count_agrees_with_the_page_plan(runs, page, large, worksheet, per_page, explain, rules, walk):
    """The config's cheap count gives the same pages and gutter as laying the book out."""
    from bookgen.layout.geometry import (
        BookShape, PageSpec, SectionShape, Style, page_count, plan_book, trim_for,
    )

    sections = tuple(SectionShape(f"S{k}", ("takuzu", "tango")[k % 2], (size,) * count, explain=explain and k == 0)
                     for k, (size, count) in enumerate(runs))
    shape = BookShape(PageSpec(trim_for(page), mirrored=not worksheet), sections, Style(large), worksheet, per_page,
                      rules_pages=(rules,) * min(2, len(sections)),
                      walkthrough_pages=(walk,) if explain and not worksheet else ())
    plan = plan_book(shape)
    assert page_count(shape) == (len(plan.pages), plan.gutter)


def test_the_page_limit_check_does_not_lay_the_book_out(tmp_path, monkeypatch):
    from bookgen.config import ConfigError, load_book
    from bookgen.layout import geometry

    def no_layout(*args, **kwargs):
        raise AssertionError("the config check laid every page out")

    monkeypatch.setattr(geometry, "_paginate", no_layout)
    config = tmp_path / "big.yaml"
    # 5,000 puzzles are over the limit as 100,000 were, counted the same way (0.3 s, not 9 s)
    config.write_text("title: B\nsections:\n  - variant: takuzu\n    size: [6, 8]\n    count: 5000\n")
    with pytest.raises(ConfigError) as caught:
        load_book(config)
    assert str(caught.value.issues[0]) == (
        f"{config}:5:12: the book would have about 1182 pages; print-on-demand services print at most 828: "
        "split it into volumes, lower the counts, or use layout: worksheet")
    config.write_text("title: B\nsections:\n  - variant: takuzu\n    size: [6, 8]\n    count: 1600\n")
    assert load_book(config).sections[0].count == 1600  # 472 pages: within the limit


def test_takuzu_8x8_expert_with_runs_of_three_and_repeated_lines_is_refused(write_config):
    """The sweep found this request failing 9 times in 2,000 puzzles: refused at the config, located."""
    from bookgen.config import ConfigError, load_book

    path = write_config("title: T\nsections:\n  - variant: takuzu\n    size: 8\n    count: 2\n"
                        "    difficulty: expert\n    rules: {max_run: 3, unique_lines: false}\n")
    with pytest.raises(ConfigError) as caught:
        load_book(path)
    assert "never harder than hard" in str(caught.value.issues[0])
    path.write_text(path.read_text().replace("expert", "hard"))
    assert load_book(path).sections[0].count == 2
