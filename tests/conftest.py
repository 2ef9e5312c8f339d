"""Shared fixtures: a tiny book config written to a temp folder."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

# Bytecode caches on, whatever the environment says (PYTHONDONTWRITEBYTECODE=1 on the CI
# machine): without them every xdist worker rewrites every test module's asserts again
# (8.7 s of collection against 2.5 s) and every build subprocess and pool worker compiles
# bookgen from source. The caches are __pycache__ folders, which git ignores.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# Hypothesis loads the "hypothesis" entry points of every installed package when it is first
# imported; trio (installed for selenium) has one, and importing trio for it was a third of
# hypothesis's import in every test process. No test uses trio, nor any hypothesis plugin.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")

# Each test's tmp_path under a folder in memory where the machine has one (Linux's /dev/shm),
# unless TMPDIR or pytest's own PYTEST_DEBUG_TEMPROOT says where. A run writes ~1,900 files
# (28 MB: books, their staging folders), and at its exit pytest deletes the folder of the
# run three before it: on the 2-core machine's disk that took 3-12 s of wall after the last
# test (the process idle, waiting for the disk), and every book a test builds is fsynced.
# The numbered folders, their locks and the three kept are pytest's as before.
# Only with room to spare: a container's /dev/shm is often 64 MB, which chromium shares.
SHM_FREE_NEEDED = 1 << 30


def _shm_has_room() -> bool:
    try:
        st = os.statvfs("/dev/shm")
    except OSError:
        return False
    return st.f_bavail * st.f_frsize >= SHM_FREE_NEEDED and os.access("/dev/shm", os.W_OK | os.X_OK)


if not (os.environ.get("PYTEST_DEBUG_TEMPROOT") or os.environ.get("TMPDIR")) and _shm_has_room():
    os.environ["PYTEST_DEBUG_TEMPROOT"] = "/dev/shm"


def _read_each_pdf_font_once() -> None:
    """pypdf's ``extract_text`` reads every font of a page again for each page (its ToUnicode map
    parsed anew): two thirds of the time the tests spent reading back a small book's text. The
    font dictionary of one open PDF is one object on every page, so the font read from it is kept
    (the last 256, each held with its dictionary so that an id is never mistaken) and each page
    gets its own copy (pypdf sets the copy's space width). If pypdf moves the method, text is
    read as before."""
    import copy
    from collections import OrderedDict

    try:
        import pypdf._page as page_module

        font_class = page_module.Font
        read = font_class.from_font_resource
    except (ImportError, AttributeError):
        return
    if hasattr(read, "plain"):  # kept already (pytest configured again in this process)
        return
    kept: OrderedDict[int, tuple[object, object]] = OrderedDict()

    def from_font_resource(pdf_font_dict):
        hit = kept.get(id(pdf_font_dict))
        if hit is None or hit[0] is not pdf_font_dict:
            hit = kept[id(pdf_font_dict)] = (pdf_font_dict, read(pdf_font_dict))
            if len(kept) > 256:
                kept.popitem(last=False)
        return copy.copy(hit[1])

    from_font_resource.plain = read  # tests/test_suite_shortcuts.py reads a book both ways
    font_class.from_font_resource = staticmethod(from_font_resource)



_FULL_COLLECTION = [False]


def _note_full_collection(phase: str, info: dict) -> None:
    if phase == "stop" and info["generation"] == 2:
        _FULL_COLLECTION[0] = True


def _freeze_what_survived() -> None:
    """Keep the cyclic garbage collector off what lives for the whole run. A worker holds
    hundreds of thousands of objects that outlive every test (modules, collected tests, the
    syntax trees of tests/sources.py, listings in lru_caches; the controller, every test's
    report), and each full collection walked them all again: 4.5 s of one worker's CPU in a run
    of the `sources` files. ``gc.freeze`` sets what is alive now aside for good (freed by
    reference counting as ever, never walked by the collector): after collection, and after any
    test during which a full collection ran, so that what survived it is set aside too. Cyclic
    garbage made in a test is still collected within that test or the next ones; a cycle alive
    at a freeze that dies later is never freed, which costs a worker some memory, not the tests'
    meaning. (CPython's documented use of ``gc.freeze``: a large heap that lives on.)"""
    import gc

    if _FULL_COLLECTION[0]:
        _FULL_COLLECTION[0] = False
        gc.freeze()


def pytest_collection_finish(session) -> None:
    import gc

    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem) -> None:
    _freeze_what_survived()


def pytest_runtest_logreport(report) -> None:  # in xdist's controller too, which keeps every report
    _freeze_what_survived()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session) -> None:
    """Before pytest's last five full collections (it looks for objects that raise in ``__del__``)."""
    import gc

    gc.freeze()


def _ctrl_c_as_python_sets_it() -> None:
    """A suite started in the background of a script (``cmd &``, ``nohup``) inherits SIGINT
    ignored, and Python then leaves it ignored: the tests that send their own process a Ctrl-C
    (tests/test_interrupt.py) saw nothing arrive and failed. The test process takes Ctrl-C as a
    Python started from a terminal does."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _compile_one(job: tuple[str, bool]) -> None:
    """One file of ``_compile_ahead``: bookgen's byte code as ``import`` writes it, or a test
    module's assert-rewritten code as pytest's import hook writes it (its own file name, the
    same checks on reading it back), so that the hook finds it current and reads it."""
    path, rewrite = job
    if not rewrite:
        import py_compile

        try:
            py_compile.compile(path, doraise=False, quiet=1)
        except Exception:  # noqa: BLE001 - the importing process compiles it then
            pass
        return
    try:
        from _pytest.assertion import rewrite as hook

        source = Path(path)
        folder = hook.get_cache_dir(source)
        pyc = folder / (source.name[:-3] + hook.PYC_TAIL)
        if hook._read_pyc(source, pyc) is not None:
            return
        folder.mkdir(exist_ok=True)
        stat, code = hook._rewrite_test(source, None)  # None: no assertion-pass hook (not enabled here)

        class _Quiet:
            trace = staticmethod(lambda message: None)

        hook._write_pyc(_Quiet(), code, stat, pyc)
    except Exception:  # noqa: BLE001 - pytest moved its hook: each worker rewrites as before
        pass


def _cache_current(path: str, rewrite: bool) -> bool:
    """Whether ``_compile_one`` would find the file's cache current: a timestamp pyc whose header
    (magic number, flags 0, the source's mtime and size) matches, the check that ``import`` and
    pytest's ``_read_pyc`` make. Anything else (a hash-based pyc, a pytest that moved its hook)
    counts as not current, and ``_compile_one`` decides as before."""
    import importlib.util

    try:
        if rewrite:
            from _pytest.assertion import rewrite as hook

            source = Path(path)
            pyc = hook.get_cache_dir(source) / (source.name[:-3] + hook.PYC_TAIL)
        else:
            pyc = Path(importlib.util.cache_from_source(path))
        stat = os.stat(path)
        with open(pyc, "rb") as f:
            head = f.read(16)
    except Exception:  # noqa: BLE001 - no cache, or pytest moved its hook
        return False
    return (len(head) == 16 and head[:4] == importlib.util.MAGIC_NUMBER and head[4:8] == bytes(4)
            and int.from_bytes(head[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF
            and int.from_bytes(head[12:16], "little") == stat.st_size & 0xFFFFFFFF)


def _compile_ahead(config) -> None:
    """Compile bookgen and rewrite the asserts of the test modules to be run, once, in the
    controller, on every core, before the workers start.

    On a fresh clone there are no caches yet, and the xdist workers, the build subprocesses
    and the pool workers of the first tests start at once: each would compile bookgen for
    itself, and each xdist worker rewrote the asserts of all 71 test modules (5 s of CPU,
    pytest's rewriting walks every assert's syntax tree) at the same time as the other. Here
    the work is shared over the cores once and the workers read the caches (docs/testing.md,
    round eight). With the caches current it is a stat and a 16-byte read of each file, in
    the controller alone: no pool is started.
    """
    from concurrent.futures import ProcessPoolExecutor

    root = Path(__file__).resolve().parents[1]
    jobs = [(str(path), False) for path in (root / "bookgen").rglob("*.py")]
    tests: set[Path] = set()
    for arg in config.args:
        target = Path(arg.split("::")[0]).resolve()
        if target.is_dir():
            tests.update(target.rglob("test_*.py"))
            tests.update(target.rglob("conftest.py"))
        elif target.name.startswith("test_") and target.suffix == ".py":
            tests.add(target)
    jobs += [(str(path), True) for path in tests]
    jobs = [job for job in jobs if not _cache_current(*job)]
    if not jobs:  # every cache current (the usual case): no pool to start
        return
    jobs.sort(key=lambda job: -os.path.getsize(job[0]))  # the largest first: the cores finish together
    try:
        with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            list(pool.map(_compile_one, jobs, chunksize=4))
    except Exception:  # noqa: BLE001 - no process pool here: the importing processes compile
        pass


@pytest.hookimpl(trylast=True)  # after xdist's, which registers "dsession" in the controller
def pytest_configure(config) -> None:
    _ctrl_c_as_python_sets_it()
    import gc

    if _note_full_collection not in gc.callbacks:
        gc.callbacks.append(_note_full_collection)
    if not config.pluginmanager.has_plugin("dsession"):
        # A process that collects and runs tests (an xdist worker, or the only process with
        # -n 0): xdist's controller does neither, so it skips hypothesis and pypdf (a quarter
        # of a second of its start, before the workers start).
        _hypothesis_profiles()
        _read_each_pdf_font_once()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    _compile_ahead(config)


# The suite runs with `--dist loadgroup` (pyproject.toml): each test goes to whichever xdist
# worker is free, except the files below, whose tests share something costly that a worker
# makes once (a module fixture, an lru_cache) and so stay together in one worker. A file joins
# this table when spreading its tests would make that thing twice; why, in docs/testing.md.
SHARED_IN_ONE_WORKER = {
    "test_studio_browser.py": "browser",  # one uvicorn server and one chromium for the run
    "test_studio_api.py": "studio-api",  # one app and its build queue (max_running=1)
    "test_studio_families.py": "studio-families",  # one app
    "test_publish.py": "publish",  # two series volumes built; generated puzzles cached
    "test_layout.py": "layout",  # the KDP book and two more built once
    "test_pages.py": "pages",  # the features book built once
    "test_cli.py": "cli",  # the tiny book built with one worker and with two
    "test_check.py": "check",  # a five-puzzle book built once
    "test_export.py": "export",  # a puzzle of every variant generated once
    "test_big_sudoku.py": "big-sudoku",  # a 16x16 Sudoku generated once
    "test_binary.py": "binary",  # every 6x6 grid listed once
    "test_howto.py": "howto",  # the worked examples generated once
    "test_interrupt.py": "interrupt",  # one interpreter with bookgen imported forks the signal tests' children
    "test_startup.py": "startup",  # one fresh interpreter lists its modules after each command
    # every module of the package parsed once (tests/sources.py, tests/i18n_messages.py)
    "test_i18n.py": "sources", "test_purity.py": "sources", "test_shape.py": "sources", "test_wording.py": "sources",
}


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the marks
def pytest_collection_modifyitems(items) -> None:
    for item in items:
        group = SHARED_IN_ONE_WORKER.get(item.path.name)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(autouse=True)
def _signals_as_they_were():
    """Every test leaves the worker's Ctrl-C and SIGTERM handlers and signal mask as it found
    them, whatever it ran in-process (the CLI's interrupt handling swaps them): otherwise the
    tests that send this process a real signal depend on which files ran before them in the
    same worker (seen once: a collected solver's re-sent SIGINT never arrived)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, ()) if hasattr(signal, "pthread_sigmask") else None
    yield
    for sig, handler in saved.items():
        if signal.getsignal(sig) is not handler and handler is not None:
            signal.signal(sig, handler)
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


TINY = """\
title: Tiny Test Book
seed: 11
page: letter
sections:
  - variant: takuzu
    size: 6
    count: 3
    difficulty: {from: easy, to: hard}
  - variant: tango
    size: 6
    count: 2
    difficulty: [{easy: 1}, {expert: 1}]
"""


@pytest.fixture
def write_config(tmp_path: Path):
    """Write YAML text to tmp_path/NAME.yaml and return its path."""

    def write(text: str, name: str = "book") -> Path:
        path = tmp_path / f"{name}.yaml"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    return write


@pytest.fixture
def tiny_config(write_config) -> Path:
    """A five-puzzle book over two variants."""
    return write_config(TINY, "tiny")


@pytest.fixture(scope="session")
def tiny_built(tmp_path_factory) -> tuple[Path, Path]:
    """The tiny book built once for the whole session: (its PDF, its JSON). Read it, don't change it."""
    from bookgen.book import build
    from bookgen.config import load_book

    folder = tmp_path_factory.mktemp("tiny-built")
    config = folder / "tiny.yaml"
    config.write_text(TINY, encoding="utf-8")
    pdf, data = build(load_book(config), folder / "out", workers=1)
    return pdf, data


def _hypothesis_profiles() -> None:
    """Property tests explore a fixed sequence of examples, so a run on CI can't fail on a
    case no developer saw; HYPOTHESIS_PROFILE=explore searches afresh for new cases."""
    from hypothesis import settings

    settings.register_profile("ci", derandomize=True)
    settings.register_profile("explore", derandomize=False)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# Property tests keep the everyday suite near a minute: each runs a modest fixed number of
# examples. A sweep runs them all deeper: FUZZ_SCALE=10 python -m pytest (with
# HYPOTHESIS_PROFILE=explore for fresh cases).
FUZZ_SCALE = float(os.environ.get("FUZZ_SCALE", "1"))


def examples(n: int) -> int:
    """A property test's example count: ``n`` in the everyday suite, ``FUZZ_SCALE`` times that in a sweep."""
    return max(1, round(n * FUZZ_SCALE))
