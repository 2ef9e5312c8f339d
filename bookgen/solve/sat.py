"""Exact solution counting with a SAT solver (python-sat).

Every puzzle that ships is proven unique here: find a model, block it, ask
again. Variants build the clauses; this module only counts.
"""

from __future__ import annotations

import os
import signal
import threading
from collections import deque
from itertools import repeat
from typing import Callable, Iterable, Sequence

import pysolvers  # pysat's C module: ``load`` calls its clause loader directly
from pysat import solvers

SOLVER_NAME = "glucose3"
_HELD = {signal.SIGINT, signal.SIGTERM}


class Solver(solvers.Solver):
    """pysat's solver, freed with Ctrl-C and SIGTERM held until it is gone.

    pysat frees the C solver and then forgets its pointer, in two steps; a signal
    whose handler raised between them left the pointer to be freed again when the
    object was collected: a segfault on the way out of an interrupted ``check``
    (about one run in 40). Every solver bookgen makes is this one.
    """

    def delete(self) -> None:
        # Python runs signal handlers only in the main thread, so only there can one raise
        # between the two steps. Alone in its process, that thread masks the signals (cheap).
        # With other threads (a worker pool's, the studio's, a test runner's) a masked signal
        # is taken by another thread and the handler still runs here: the handlers are then
        # swapped for a recorder instead (some 10 us more a solver).
        if threading.current_thread() is not threading.main_thread():
            super().delete()
            return
        if threading.active_count() == 1 and hasattr(signal, "pthread_sigmask"):
            held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
            try:
                super().delete()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held signal is acted on now
            return
        for sig in dict.fromkeys(_held(super().delete)):
            signal.raise_signal(sig)  # a held signal is acted on now, by its own handler

    def __del__(self) -> None:
        # The garbage collector's call (an engine that kept its solver was collected). Python
        # drops an exception raised in here, so a signal acted on inside would be lost and an
        # interrupted ``check`` would run on: it is held, and sent again from a helper thread
        # a moment after this returns.
        if getattr(self, "solver", None) is None:
            return
        if threading.current_thread() is not threading.main_thread():
            super().delete()
            return
        for sig in dict.fromkeys(_held(super().delete)):
            threading.Timer(0.01, os.kill, (os.getpid(), sig)).start()


def _held(free: Callable[[], None]) -> list[int]:
    """Run ``free`` with Ctrl-C and SIGTERM recorded instead of handled; the signals caught."""
    caught: list[int] = []
    saved = {}
    for sig in _HELD:
        if signal.getsignal(sig) is not None:  # (None: a handler not set from Python; left alone)
            saved[sig] = signal.signal(sig, lambda number, frame: caught.append(number))
    try:
        free()
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    return caught


def models(
    clauses: Iterable[Sequence[int]],
    watch: Sequence[int],
    limit: int = 2,
    assumptions: Sequence[int] = (),
) -> list[frozenset[int]]:
    """Up to ``limit`` models, each given as the set of ``watch`` variables that are true.

    Two models count as different only when they differ on ``watch`` (the
    puzzle's own variables), so auxiliary encoding variables never inflate
    the count.
    """
    found: list[frozenset[int]] = []
    with Solver(name=SOLVER_NAME, bootstrap_with=[list(c) for c in clauses]) as solver:
        while len(found) < limit and solver.solve(assumptions=list(assumptions)):
            model = solver.get_model()
            true = {lit for lit in model if lit > 0}
            chosen = frozenset(v for v in watch if v in true)
            found.append(chosen)
            solver.add_clause([-v if v in chosen else v for v in watch])
    return found


def incremental(clauses: Iterable[Sequence[int]]) -> Solver:
    """A solver loaded with ``clauses``, to be asked many times under different assumptions
    (``solve(assumptions=...)``); the caller deletes it (``with`` or ``delete()``)."""
    solver = Solver(name=SOLVER_NAME)
    solver.append_formula(clauses)  # tuples as they come: copying them into lists costs more than the load
    return solver


def load(solver: Solver, clauses: Iterable[Sequence[int]]) -> None:
    """Add ``clauses`` to ``solver``, as ``solver.append_formula`` does. pysat's
    ``append_formula`` calls two Python methods per clause before the C function that takes
    it; for Glucose that function is called here directly, from a C-level loop (``map``
    drained by a zero-length ``deque``), for the Nonogram proof's thousands of short
    clauses. ``test_load_is_append_formula`` (tests/test_nonogram.py) checks both give the
    same models."""
    handle = getattr(getattr(solver, "solver", None), "glucose", None)
    if SOLVER_NAME != "glucose3" or handle is None:  # another solver, or pysat's insides changed
        solver.append_formula(clauses)
        return
    deque(map(pysolvers.glucose3_add_cl, repeat(handle), clauses), maxlen=0)

