"""A pytest plugin: each test's CPU time (its process and the children it waited for), written
as TSV lines (test id, CPU s, wall s) to $CPU_TSV.<worker> when the session ends (one file per
xdist worker; ``.main`` without xdist). CPU, not wall: on a shared machine the wall time says
more about the neighbours than about the test.

Run: CPU_TSV=/tmp/cpu PYTHONPATH=.:bench python -m pytest -p cpu_per_test -p no:cacheprovider
then e.g. ``sort -t$'\t' -k2 -nr /tmp/cpu.* | head -40``.
"""

from __future__ import annotations

import os
import resource
import time

import pytest

_rows: list[tuple[str, float, float]] = []


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cpu, wall = _cpu(), time.perf_counter()
    yield
    _rows.append((item.nodeid, _cpu() - cpu, time.perf_counter() - wall))


def pytest_sessionfinish(session):
    out = os.environ.get("CPU_TSV")
    if out:
        with open(f"{out}.{os.environ.get('PYTEST_XDIST_WORKER', 'main')}", "w", encoding="utf-8") as f:
            f.writelines(f"{name}\t{cpu:.3f}\t{wall:.3f}\n" for name, cpu, wall in _rows)
