"""Live feedback in the studio: how long /api/check takes to answer with errors and the plan.

For every template: the first check (cold: worked examples made, how-to pages measured)
and then edits a user makes while typing (title, a count, the seed), each answered
with the full plan. Prints median and worst per template, in ms.

    PYTHONPATH=$PWD python bench/studio_latency.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", category=DeprecationWarning)

from starlette.testclient import TestClient  # noqa: E402

from bookgen import designer  # noqa: E402
from bookgen.templates import template_names  # noqa: E402
from bookgen.web.app import Settings, create_app  # noqa: E402


def main() -> None:
    app = create_app(Settings(root=Path(tempfile.mkdtemp())))
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    with TestClient(app) as client:
        print(f"{'template':<15} {'cold':>7} {'typing median':>14} {'typing worst':>13} {'errors only':>12}")
        for name in template_names():
            data = designer.template_data(name)

            def ask(body):
                started = time.perf_counter()
                r = client.post("/api/check", json=body).json()
                if r["plan_pending"]:
                    r = client.post("/api/plan", json=body).json()
                assert r["plan"] or r.get("errors"), r
                return (time.perf_counter() - started) * 1000

            cold = ask({"name": name, "data": data})
            typing = []
            for i in range(rounds):
                edited = dict(data, title=f"{data['title']} {i}")
                edited["sections"] = [dict(s) for s in data["sections"]]
                edited["sections"][0]["title"] = f"Part {i}"
                typing.append(ask({"name": name, "data": edited}))
            bad = []
            for i in range(rounds):
                broken = dict(data, per_page=5 + i % 2 * 2)
                bad.append(ask({"name": name, "data": broken}))
            print(f"{name:<15} {cold:7.0f} {statistics.median(typing):14.0f} {max(typing):13.0f} "
                  f"{statistics.median(bad):12.0f}")
    designer.uninstall_caches()


if __name__ == "__main__":
    main()
