"""A pytest plugin: each test's CPU time (its process and the children it waited for), written
as TSV lines (test id, CPU s, wall s, start s) to $CPU_TSV.<worker> when the session ends (one
file per xdist worker; ``.main`` without xdist). CPU, not wall: on a shared machine the wall time
says more about the neighbours than about the test. The start column (seconds since the worker's
session began) shows the schedule: which file ran when, and which worker finished last. A last
line ``#session`` gives the worker's CPU before its first test (start-up and collection) and in
all.

Run: CPU_TSV=/tmp/cpu PYTHONPATH=.:bench python -m pytest -p cpu_per_test -p no:cacheprovider
then e.g. ``sort -t$'\t' -k2 -nr /tmp/cpu.* | head -40`` and ``python bench/cpu_per_test.py
/tmp/cpu.*`` for the CPU per file and each worker's timeline.

``getrusage`` counts only the children a process waited for: not chromium until its driver quits,
not a process pool's workers that outlive the test, not an orphaned planner. With
``CPU_CGROUP=/sys/fs/cgroup/cpuacct/NAME`` (a cgroup-v1 cpuacct folder this user may create, e.g.
as root) each worker moves itself into ``NAME/<worker>`` and a fifth column gives the CPU of
everything it and its descendants ran during the test, whoever waited for them.
"""

from __future__ import annotations

import os
import resource
import sys
import time

import pytest

_rows: list[tuple[str, float, float, float, float]] = []
_begun = time.perf_counter()
_first_cpu: list[float] = []
_tree: list[str] = []


def _join_cgroup() -> None:
    root = os.environ.get("CPU_CGROUP")
    if not root or _tree:
        return
    folder = os.path.join(root, os.environ.get("PYTEST_XDIST_WORKER", "main"))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "cgroup.procs"), "w") as f:
        f.write(str(os.getpid()))
    _tree.append(os.path.join(folder, "cpuacct.usage"))


def _tree_cpu() -> float:
    if not _tree:
        return 0.0
    with open(_tree[0]) as f:
        return int(f.read()) / 1e9


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _join_cgroup()
    cpu, wall, tree = _cpu(), time.perf_counter(), _tree_cpu()
    if not _first_cpu:
        _first_cpu.append(cpu)
    yield
    _rows.append((item.nodeid, _cpu() - cpu, time.perf_counter() - wall, wall - _begun, _tree_cpu() - tree))


def pytest_sessionfinish(session):
    out = os.environ.get("CPU_TSV")
    if out:
        with open(f"{out}.{os.environ.get('PYTEST_XDIST_WORKER', 'main')}", "w", encoding="utf-8") as f:
            f.writelines(f"{name}\t{cpu:.3f}\t{wall:.3f}\t{start:.3f}\t{tree:.3f}\n" for name, cpu, wall, start, tree in _rows)
            f.write(f"#session\t{(_first_cpu or [_cpu()])[0]:.3f}\t{_cpu():.3f}\t{time.perf_counter() - _begun:.3f}\n")


def _report(paths: list[str]) -> None:
    """Per worker: start-up CPU, then each file's run in order (start, wall, CPU); then CPU per file."""
    per_file: dict[str, list[float]] = {}
    for path in paths:
        runs: list[list] = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                name, cpu, wall, *rest = line.rstrip("\n").split("\t")
                if name == "#session":
                    print(f"== {path}: {float(cpu):.1f} s CPU before the first test, {float(wall):.1f} s in all, "
                          f"{float(rest[0]):.1f} s wall")
                    continue
                file = name.split("::")[0]
                per_file.setdefault(file, [0.0, 0.0, 0.0])
                per_file[file][0] += float(cpu)
                per_file[file][1] += float(wall)
                per_file[file][2] += float(rest[1]) if len(rest) > 1 else 0.0
                start = float(rest[0]) if rest else 0.0
                if runs and runs[-1][0] == file:
                    runs[-1][2] = start + float(wall)
                    runs[-1][3] += float(cpu)
                    runs[-1][4] += 1
                else:
                    runs.append([file, start, start + float(wall), float(cpu), 1])
        for file, start, end, cpu, n in runs:
            print(f"  {start:7.1f} {end:7.1f}  {cpu:6.1f} s CPU  {n:4d}  {file}")
    tree = any(t for _, _, t in per_file.values())
    print("== CPU, wall" + (", CPU of the process tree (CPU_CGROUP)" if tree else "") + " per file (all workers)")
    for file, (cpu, wall, tree_cpu) in sorted(per_file.items(), key=lambda kv: -max(kv[1][0], kv[1][2])):
        print(f"  {cpu:6.1f} {wall:7.1f}" + (f" {tree_cpu:6.1f}" if tree else "") + f"  {file}")


if __name__ == "__main__":
    _report(sys.argv[1:])
