"""Live feedback in the studio: how long /api/check takes to answer with errors and a plan.

The server starts warming (checks the templates, measures their how-to pages for drafts) in
the background; the bench waits for that as a user opening the browser would, then, for
every template: the template's first check (cold: nothing of it made yet),
edits a user makes while typing (title, a section's title), a new seed each time (worked
examples and walkthrough puzzles to make again) and a mistake (errors only).
``feedback`` is the check's answer: errors and a plan, the exact one or, while that is
being made, the draft (``designer.draft_text``); ``exact`` waits for the exact plan too.
Prints ms; ``--lang de`` asks in another interface language.

    PYTHONPATH=$PWD python bench/studio_latency.py [ROUNDS] [--lang LANG]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", category=DeprecationWarning)

from starlette.testclient import TestClient  # noqa: E402

from bookgen import designer  # noqa: E402
from bookgen.templates import template_names  # noqa: E402
from bookgen.web.app import Settings, create_app  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("rounds", nargs="?", type=int, default=5)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    started = time.perf_counter()
    app = create_app(Settings(root=Path(tempfile.mkdtemp())))
    headers = {"Origin": "http://testserver"}
    with TestClient(app, headers=headers) as client:
        client.get(f"/?lang={args.lang}")
        for thread in threading.enumerate():
            if thread.name == "bookgen-warm":
                thread.join()
        print(f"start-up warm-up (checks and how-to measures of the templates, in the background): "
              f"{time.perf_counter() - started:.1f} s")
        print(f"{'template':<14} {'first: feedback':>15} {'exact':>6} {'typing: median':>15} {'worst':>6} "
              f"{'new seed: median':>17} {'worst':>6} {'exact':>6} {'errors':>7}")
        for name in template_names():
            data = designer.template_data(name)

            def ask(body):
                """(ms to the check's answer, ms to the exact plan)"""
                body = dict(body, lang=args.lang)
                started = time.perf_counter()
                r = client.post("/api/check", json=body, headers=headers).json()
                first = (time.perf_counter() - started) * 1000
                assert r["plan"] or r.get("draft") or r.get("errors"), r
                if r["plan_pending"]:
                    r = client.post("/api/plan", json=body, headers=headers).json()
                return first, (time.perf_counter() - started) * 1000

            cold = ask({"name": name, "data": data})
            typing, seeds, seeds_exact, bad = [], [], [], []
            for i in range(args.rounds):
                edited = dict(data, title=f"{data['title']} {i}")
                edited["sections"] = [dict(s) for s in data["sections"]]
                edited["sections"][0]["title"] = f"Part {i}"
                typing.append(ask({"name": name, "data": edited})[0])
                fast, exact = ask({"name": name, "data": dict(edited, seed=1000 + i)})
                seeds.append(fast)
                seeds_exact.append(exact)
                bad.append(ask({"name": name, "data": dict(data, per_page=5 + i % 2 * 2)})[0])
            print(f"{name:<14} {cold[0]:15.0f} {cold[1]:6.0f} {statistics.median(typing):15.0f} {max(typing):6.0f} "
                  f"{statistics.median(seeds):17.0f} {max(seeds):6.0f} {statistics.median(seeds_exact):6.0f} "
                  f"{statistics.median(bad):7.0f}")
    designer.uninstall_caches()


if __name__ == "__main__":
    main()
