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


def pytest_configure(config) -> None:
    """Compile bookgen once, in the controller, before the workers start (1.2 s).

    On a fresh clone there are no caches yet, and the xdist workers, the build subprocesses
    and the pool workers of the first tests start at once: this way none of them compiles
    bookgen for itself. (What it saves a whole run is within the machine's noise: cold and
    warm runs of the suite differed by -6 to +26 s.)
    """
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    import compileall

    compileall.compile_dir(str(Path(__file__).resolve().parents[1] / "bookgen"), quiet=1, workers=0)


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


# Property tests explore a fixed sequence of examples, so a run on CI can't fail on a
# case no developer saw; HYPOTHESIS_PROFILE=explore searches afresh for new cases.
from hypothesis import settings as _settings  # noqa: E402

_settings.register_profile("ci", derandomize=True)
_settings.register_profile("explore", derandomize=False)
_settings.load_profile(__import__("os").environ.get("HYPOTHESIS_PROFILE", "ci"))


# Property tests keep the everyday suite near a minute: each runs a modest fixed number of
# examples. A sweep runs them all deeper: FUZZ_SCALE=10 python -m pytest (with
# HYPOTHESIS_PROFILE=explore for fresh cases).
FUZZ_SCALE = float(os.environ.get("FUZZ_SCALE", "1"))


def examples(n: int) -> int:
    """A property test's example count: ``n`` in the everyday suite, ``FUZZ_SCALE`` times that in a sweep."""
    return max(1, round(n * FUZZ_SCALE))
