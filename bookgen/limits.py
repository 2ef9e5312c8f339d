"""A wall-clock budget for work whose cost the input decides (``solve``, ``check``).

The generator has counted budgets; a hand-typed puzzle can still be legal
and yet too costly to solve, so the commands that take one put a time limit
around the work and say so plainly instead of running on. Ctrl-C and SIGTERM
become ``Interrupted`` here too: the light commands (``solve``) need them
without importing the book machinery.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterable, Iterator


class TooSlow(Exception):
    """The work did not finish within its time limit."""

    def __init__(self, seconds: float):
        super().__init__(f"too hard to solve within {seconds:g} s")
        self.seconds = seconds


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ``TooSlow`` in the block once ``seconds`` have passed (main thread only; elsewhere no limit)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum, frame):
        raise TooSlow(seconds)

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ----- sizes ------------------------------------------------------------------------------------------
# One set of limits for everything that writes or reads a book, so that whatever ``build`` can
# write, ``check``, ``solve`` and ``exclude`` read (see docs/troubleshooting.md).
MAX_BUILD_PUZZLES = 20_000  # puzzles one build makes (every version of a class set counted)
JSON_BYTES_PER_PUZZLE = 12_000  # the largest entry measured: a 9×9 KenKen or Killer, about 9.9 KB
JSON_CONTAINERS_PER_PUZZLE = 250  # lists and objects in the largest entry: about 170
MAX_BOOK_JSON_BYTES = MAX_BUILD_PUZZLES * JSON_BYTES_PER_PUZZLE + (1 << 20)
MAX_BOOK_JSON_CONTAINERS = MAX_BUILD_PUZZLES * JSON_CONTAINERS_PER_PUZZLE + 1000
BOOK_JSON_SIZE = (f"a book's JSON takes 1 to 10 KB a puzzle, and a build writes at most "
                  f"{MAX_BUILD_PUZZLES:,} puzzles")


# ----- memory -------------------------------------------------------------------------------------------
# A build holds every puzzle of the set until its PDFs are written (reportlab keeps each page's
# drawing until it saves the file; the JSON is written entry by entry), so its peak memory grows
# with the puzzles and their cells: ``PUZZLE_KB_FIXED`` plus the variant's ``memory_kb_per_cell``
# per cell, measured by ``bench/measure_memory.py`` (docs/estimates.md, "Memory"). A set whose
# build would pass ``MAX_BUILD_MB`` is refused at its count before anything is made.
MAX_BUILD_MB = 2048  # the peak memory one build may need
BUILD_BASE_MB = 100  # the process before its first puzzle: Python, reportlab, fonts (70-80 MB measured)
PUZZLE_KB_FIXED = 8.0  # what one puzzle adds to the peak whatever its grid (its page, its entry)


def build_memory_mb(puzzles: Iterable[tuple[float, int, int]]) -> float:
    """The peak memory in MB of a build of ``(KB per cell, cells, count)`` puzzles."""
    kb = sum(count * (PUZZLE_KB_FIXED + per_cell * cells) for per_cell, cells, count in puzzles)
    return BUILD_BASE_MB + kb / 1024


DEFERRED = (signal.SIGINT, signal.SIGTERM)  # the signals held back while workers start or files are renamed


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or a termination signal; ``signum`` says which."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signum)
        self.signum = signum


@contextmanager
def interrupts_handled(ignore_after: bool = False) -> Iterator[None]:
    """Turn Ctrl-C and SIGTERM into ``Interrupted``, so both clean up the same way.

    The first signal raises; any further one is ignored, so a second Ctrl-C
    can't break into the cleanup (or the interpreter's shutdown) that the first
    started. With ``ignore_after`` signals stay ignored once the block is left:
    the command's work is done and its last word said.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        for sig in DEFERRED:
            signal.signal(sig, signal.SIG_IGN)
        raise Interrupted(signum)

    old = {sig: signal.signal(sig, stop) for sig in DEFERRED}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, signal.SIG_IGN if ignore_after else handler)
