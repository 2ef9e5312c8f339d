"""The ``bookgen`` command line: build, check, solve. Commands only; the work is elsewhere."""

from __future__ import annotations

import difflib
import os
import signal
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, List, Optional

import typer
from typer.core import TyperGroup

try:  # typer 0.2x carries its own copy of click; older ones use click itself
    from typer import _click as click
except ImportError:  # pragma: no cover - depends on the installed typer
    import click  # type: ignore[no-redef]

from bookgen import __version__
from bookgen.limits import DEFERRED, Interrupted, TooSlow, interrupts_handled, time_limit
from bookgen.templates import DEFAULT as DEFAULT_TEMPLATE, template_names, template_text

# The book machinery (config and pydantic, layout and reportlab, the variants) is
# imported inside the commands that use it: every command, --help included, would
# otherwise pay a second of start-up for it (docs/benchmarks.md, "CLI start-up").


class _OneLineErrors(TyperGroup):
    """Command-line mistakes as one ``error:`` line, exit 2, like every other bad input.

    Click prints a usage line, a hint and the error, and suggests options by a
    loose likeness (``--jbos`` -> ``--jobs`` but also unrelated ones); here only
    a close match is suggested.
    """

    def main(self, *args, standalone_mode: bool = True, **kwargs):  # noqa: D102 - click hook
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.ClickException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError" and getattr(exc, "ctx", None) is not None:
                typer.echo(exc.ctx.get_help())  # the command alone: its help, as click prints it
                sys.exit(exc.exit_code)
            typer.echo(f"error: {_usage_message(exc)}", err=True)
            sys.exit(exc.exit_code)
        except typer.Abort:
            typer.echo("error: aborted", err=True)
            sys.exit(EXIT_FAIL)
        sys.exit(code if isinstance(code, int) else 0)


def _usage_message(exc) -> str:
    if isinstance(exc, click.exceptions.NoSuchOption):
        close = difflib.get_close_matches(exc.option_name, exc.possibilities or [], n=1, cutoff=0.75)
        message = f"no such option {exc.option_name}" + (f"; did you mean {close[0]}?" if close else "")
    else:
        message = " ".join(exc.format_message().split())
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.exceptions.UsageError) and ctx is not None:
        message += f" (see '{ctx.command_path} --help')"
    return message


app = typer.Typer(cls=_OneLineErrors, add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Printable puzzle books with proven-unique, deduction-solvable puzzles.")

EXIT_FAIL = 1
EXIT_CONFIG = 2  # also a bad option or output directory: the command line is the input
MAX_JOBS = 256  # more worker processes than this is a typo, not a plan
_STANDALONE = False  # True when this process is the bookgen program (not a test calling the app)
SOLVE_SECONDS = 60.0  # a legal puzzle that takes longer is reported, not waited on


def _fail(message: str, code: int = EXIT_FAIL) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _load(config: Path):
    """The validated book, or every config problem printed and exit code 2."""
    from bookgen.config import ConfigError, load_book

    try:
        return load_book(config)
    except ConfigError as exc:
        for issue in exc.issues:
            typer.echo(str(issue), err=True)
        raise typer.Exit(EXIT_CONFIG)


def _interrupt_signal(exc: BaseException) -> int | None:
    """The signal behind ``exc`` if it is an interrupt, else None.

    pysat answers Ctrl-C during a search with its own ``pysolvers.error``
    ("Caught keyboard interrupt") instead of Python's handler: that is an
    interrupt too.
    """
    if isinstance(exc, Interrupted):
        return exc.signum
    if isinstance(exc, KeyboardInterrupt) or "keyboard interrupt" in str(exc).lower() \
            and type(exc).__module__ in ("pysolvers", "pycard"):
        return signal.SIGINT
    return None


@contextmanager
def _interruptible(said: Callable[[], str]):
    """Ctrl-C or SIGTERM in the block: ``error: <said()>`` and exit 130 or 143, never a traceback."""
    with interrupts_handled(ignore_after=_STANDALONE):
        try:
            yield
        except (KeyboardInterrupt, Exception) as exc:
            signum = _interrupt_signal(exc)
            if signum is None:
                raise
            for sig in DEFERRED:  # a second signal must not break into the last word
                signal.signal(sig, signal.SIG_IGN)
            _fail(said(), 128 + signum)


def _progress(enabled: bool, what: str = "generating"):
    if not enabled:
        return None, None
    from rich.console import Console
    from rich.progress import (
        BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn,
    )

    bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), "eta", TimeRemainingColumn(), transient=True,
                   console=Console(stderr=True))
    task = bar.add_task(what, total=None)
    phase = [what]

    def update(done: int, total: int, stage: str | None = None) -> None:
        if stage and stage != phase[0]:  # a new phase: its own bar and ETA (laying out the PDF, pages)
            phase[0] = stage
            bar.reset(task, total=total, description=stage)
        bar.update(task, completed=done, total=total)

    return bar, update


@app.command()
def build(
    config: Path = typer.Argument(..., help="The book's YAML file."),
    seed: Optional[int] = typer.Option(None, help="Override the config's seed."),
    out: str = typer.Option("output", "--out", help="Output directory."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes (0: all cores)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or summary."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Build even when it is expected to take over an hour."),
) -> None:
    """Generate a book: NAME.pdf and NAME.json in the output directory."""
    written: list[Path] = []

    def said() -> str:
        if written:
            return f"interrupted, but the new book was already complete: {', '.join(map(str, written))}"
        return "interrupted; no partial files were left behind"

    with _interruptible(said):
        _build(config, seed, out, jobs, quiet, yes, written.extend)


def _build(config: Path, seed: Optional[int], out_text: str, jobs: int, quiet: bool, yes: bool,
           complete) -> None:
    from bookgen.book import BuildError, OutputError, build as build_book
    from bookgen.config import seed_problem
    from bookgen.core.types import GenerationError
    from bookgen.estimate import CONFIRM_SECONDS, say_duration, workers_that_run
    from bookgen.plan import estimate_seconds

    if not out_text.strip():  # Path("") is the current directory: never what an empty --out meant
        _fail("--out is empty; name the output directory (--out . for the current one)", EXIT_CONFIG)
    out = Path(out_text)
    book = _load(config)
    if seed is not None:
        if seed_problem(seed):
            _fail(f"--seed: {seed_problem(seed)}", EXIT_CONFIG)
        book = book.with_seed(seed)
    if not 0 <= jobs <= MAX_JOBS:
        _fail(f"--jobs must be between 0 (all cores) and {MAX_JOBS}, got {jobs}", EXIT_CONFIG)
    workers = jobs or os.cpu_count() or 1
    running = workers_that_run(jobs)  # --jobs 16 on 2 cores is no faster than 2
    seconds = estimate_seconds(book, running)[0]
    if seconds > CONFIRM_SECONDS and not yes:
        _fail(f"this book would take {say_duration(seconds)} to build with {running} worker"
              f"{'s' if running > 1 else ''} (estimated from measured puzzle times); add --yes to build "
              "it anyway, or lower the counts or levels", EXIT_CONFIG)
    if seconds >= 60 and not quiet:
        typer.echo(f"estimated build time: {say_duration(seconds)} with {running} worker"
                   f"{'s' if running > 1 else ''}", err=True)
    bar, update = _progress(not quiet and sys.stderr.isatty())
    warnings: list[str] = []
    summary: dict = {}
    started = time.monotonic()
    try:
        if bar:
            with bar:
                written = build_book(book, out, workers, update, warnings.append, complete, summary)
        else:
            written = build_book(book, out, workers, None, warnings.append, complete, summary)
    except OutputError as exc:
        _fail(str(exc), EXIT_CONFIG)
    except (BuildError, GenerationError) as exc:
        _fail(str(exc))
    for message in warnings:
        typer.echo(f"warning: {message}", err=True)
    if not quiet:
        count = sum(s.count for s in book.sections) * book.versions  # as plan counts them
        took = time.monotonic() - started
        pages = summary.get("pages", 0)
        typer.echo(f"wrote {', '.join(map(str, written))}: {pages} page{'s' * (pages != 1)}, "
                   f"{count} puzzle{'s' * (count != 1)} in {took:.1f} s", err=True)


@app.command()
def check(
    files: List[Path] = typer.Argument(..., help="A book JSON file written by 'bookgen build' "
                                       "(after --against: more books to compare with)."),
    against: Optional[List[Path]] = typer.Option(None, "--against", help="Books whose puzzles this one "
                                                 "must not repeat (several may follow)."),
) -> None:
    """Re-verify every puzzle of a book JSON: rules, answer, uniqueness, grade, no repeats."""
    file, others = files[0], list(against or []) + files[1:]
    if len(files) > 1 and not against:
        _fail("check takes one book; compare it with others with --against OTHER.json ...", EXIT_CONFIG)
    done = [0, 0]  # puzzles checked, of how many

    def said() -> str:
        if done[1]:
            return f"interrupted after checking {done[0]} of {done[1]} puzzles; the check did not finish"
        return "interrupted before any puzzle was checked"

    with _interruptible(said):
        count, failures = _check(file, done, others)
    for line in failures:  # (after the work: signals are ignored by now, the report is whole)
        typer.echo(f"{file}: {line}")
    if failures:
        typer.echo(f"{len(failures)} problem(s) in {count} puzzles", err=True)
        raise typer.Exit(EXIT_FAIL)
    against_text = f", and none repeats a puzzle of {', '.join(map(str, others))}" if others else ""
    typer.echo(f"{file}: all {count} puzzles check out{against_text}")


def _check(file: Path, done: list[int], others: list[Path]) -> tuple[int, list[str]]:
    from bookgen.checking import CheckError, check_book, read_book_json
    from bookgen.series import ExcludeError, book_fingerprints, repeats

    try:
        data = read_book_json(file)
        references = [(str(other), read_book_json(other)) for other in others]
        for name, other in references:  # a file that is no book would compare with nothing: refused
            try:
                book_fingerprints(other, "comparison")
            except ExcludeError as exc:
                raise CheckError(f"{name}: {exc}") from None
    except CheckError as exc:
        message = str(exc)
        if "not valid JSON" in message:
            message += ("; 'check' expects the book JSON file that 'bookgen build' writes beside the PDF"
                        + (f" (for {file}, run 'bookgen build {file}' first)"
                           if file.suffix.lower() in (".yaml", ".yml") else ""))
        _fail(message)
    bar, show = _progress(sys.stderr.isatty(), "checking")

    def update(checked: int, total: int) -> None:
        done[:] = [checked, total]
        if show:
            show(checked, total)

    if bar:
        with bar:
            count, failures = check_book(data, update)
    else:
        count, failures = check_book(data, update)
    return count, failures + repeats(data, references)


@app.command()
def solve(
    file: Path = typer.Argument(..., help="A puzzle typed as text, or a book JSON file."),
    number: Optional[int] = typer.Option(None, "--number", "-n", help="Which puzzle of a book JSON file."),
    version: Optional[str] = typer.Option(None, "--version", help="A class set's version (A, B ...); default A."),
    explain: bool = typer.Option(False, "--explain", "-e", help="Print every deduction, in order."),
    grids: bool = typer.Option(False, "--grids", help="With --explain: the grid after each step."),
    ascii: bool = typer.Option(False, "--ascii", help="S and M instead of \u2600 and \u263e."),
) -> None:
    """Solve one puzzle: its solution, difficulty and (--explain) the steps. Exit 0 only if unique and solved."""
    with _interruptible(lambda: "interrupted before the puzzle was solved; nothing was printed"):
        report = _solve(file, number, explain, ascii, grids, version)
    typer.echo(report.text, nl=False)  # signals are ignored by now: the report is printed whole
    raise typer.Exit(report.code)


def _solve(file: Path, number: Optional[int], explain: bool, ascii: bool, grids: bool,
           version: Optional[str] = None):
    from bookgen.puzzletext import PuzzleTextError, can_print, read_puzzle, solve_report

    try:
        puzzle = read_puzzle(file, number, version)
    except PuzzleTextError as exc:
        _fail(str(exc), EXIT_CONFIG)
    try:
        with time_limit(SOLVE_SECONDS):
            return solve_report(puzzle, explain, ascii or not can_print(sys.stdout), grids)
    except TooSlow as exc:
        _fail(f"{file}: {exc}; the puzzle is legal but its search is too large")


@app.command("plan")
def plan_command(
    config: Path = typer.Argument(..., help="The book's YAML file."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes the estimate assumes (0: all cores)."),
) -> None:
    """Print the page plan and a build-time estimate without generating; writes nothing."""
    if not 0 <= jobs <= MAX_JOBS:
        _fail(f"--jobs must be between 0 (all cores) and {MAX_JOBS}, got {jobs}", EXIT_CONFIG)
    from bookgen.estimate import workers_that_run

    with _interruptible(lambda: "interrupted before the plan was made; nothing was printed"):
        report = _plan(config, workers_that_run(jobs))
    typer.echo(report, nl=False)


def _plan(config: Path, workers: int) -> str:
    from bookgen.book import BuildError
    from bookgen.plan import plan_report

    book = _load(config)
    try:
        return plan_report(book, workers)
    except BuildError as exc:
        _fail(str(exc))


@app.command("export")
def export_command(
    book: Path = typer.Argument(..., help="A book JSON file written by 'bookgen build'."),
    format: str = typer.Option("svg", "--format", "-f", help="svg or png."),
    numbers: Optional[str] = typer.Option(None, "--numbers", "-n", help="Which puzzles, e.g. 1-10,15 (default all)."),
    answers: bool = typer.Option(False, "--answers", help="Also each puzzle's answer (NAME-007-answer.svg)."),
    dpi: float = typer.Option(150.0, "--dpi", help="PNG resolution."),
    out: Path = typer.Option(Path("output"), "--out", help="Output directory."),
) -> None:
    """Write one picture per puzzle (SVG or PNG), drawn as the PDF draws it."""
    from bookgen.checking import CheckError, read_book_json
    from bookgen.export import ExportError, pictures, write_pictures

    try:
        data = read_book_json(book)
        items = pictures(data, book.stem, format.lower(), numbers, answers, dpi)
    except CheckError as exc:
        _fail(str(exc), EXIT_CONFIG)
    except ExportError as exc:
        _fail(f"{book}: {exc}", EXIT_CONFIG)
    try:
        written = write_pictures(items, out)
    except OSError as exc:
        _fail(f"cannot write to {out}: {exc.strerror or exc}")
    typer.echo(f"wrote {len(written)} file{'s' * (len(written) != 1)} to {out}")


@app.command()
def serve(
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every network "
                             "this machine is on; see docs/studio.md)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the studio in the web browser."),
    folder: Optional[Path] = typer.Option(None, "--folder", help="Where builds are kept (default: a new "
                                          "temporary folder)."),
    keep: float = typer.Option(60.0, "--keep", help="Minutes a finished build's files are kept."),
    builds: int = typer.Option(2, "--builds", help="Builds that may run at once."),
    queue: int = typer.Option(4, "--queue", help="Builds that may wait for a turn."),
) -> None:
    """Start the studio: design, preview and build books in the web browser."""
    from bookgen.web.serve import serve as run_studio

    if not 1 <= port <= 65535:
        _fail(f"--port must be between 1 and 65535, got {port}", EXIT_CONFIG)
    if not (0 < keep <= 7 * 24 * 60 and 1 <= builds <= 16 and 0 <= queue <= 100):
        _fail("--keep must be 0 to 10080 minutes, --builds 1 to 16 and --queue 0 to 100", EXIT_CONFIG)
    # Ctrl-C is how the studio stops, not an interruption. uvicorn takes SIGINT and SIGTERM
    # while it serves, shuts down, puts back the handlers it found and raises the signal again:
    # with __main__'s start-up handler still in place that second signal ended the process at
    # once ("interrupted while starting", exit 130) and the studio's folder and planner were
    # left behind. Here it unwinds through the studio's cleanup instead.
    def stop(signum, frame):
        raise KeyboardInterrupt

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)
    try:
        run_studio(host, port, open_browser, folder, keep * 60, builds, queue, typer.echo)
    except KeyboardInterrupt:  # (from stop: before uvicorn serves, or raised again by it once shut down)
        pass
    except OSError as exc:
        _fail(f"cannot start the studio on {host}:{port}: {exc.strerror or exc}")
    for sig in DEFERRED:  # a second Ctrl-C must not break into the last word
        signal.signal(sig, signal.SIG_IGN)
    typer.echo("bookgen studio stopped")


@app.command()
def init(
    template: str = typer.Argument(DEFAULT_TEMPLATE, help="Which starter: " + ", ".join(template_names()) + "."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="File to write (default: TEMPLATE.yaml)."),
    force: bool = typer.Option(False, "--force", help="Replace the file if it exists."),
) -> None:
    """Write a commented starter config to edit and build."""
    try:
        text = template_text(template)
    except KeyError:
        _fail(f"unknown template {template!r}; choose one of {', '.join(template_names())}", EXIT_CONFIG)
    target = out or Path(f"{template}.yaml")
    if target.exists() and not force:
        _fail(f"{target} already exists; choose another --out or add --force", EXIT_CONFIG)
    try:
        target.write_text(text, "utf-8")
    except OSError as exc:
        _fail(f"cannot write {target}: {exc.strerror or exc}", EXIT_CONFIG)
    typer.echo(f"wrote {target}; build it with: bookgen build {target}")


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"bookgen {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Printable puzzle books with proven-unique, deduction-solvable puzzles."""


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(f"bookgen {__version__}")


def main() -> None:
    """Console-script entry point."""
    global _STANDALONE
    _STANDALONE = True  # once a build has said its last word, later signals can only be ignored
    app()


if __name__ == "__main__":
    main()
