"""What the speed work (issue 13) must not change: the order workers get puzzles
in is the only thing scheduling touches, and reportlab's optional C accelerator
writes the same bytes as its pure-Python fallback."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import textwrap
from pathlib import Path

from bookgen.book import plan, schedule
from bookgen.config import load_book

ROOT = Path(__file__).resolve().parent.parent


def test_schedule_is_a_permutation_hardest_and_largest_first():
    jobs = plan(load_book(ROOT / "configs" / "sampler.yaml"))
    order = schedule(jobs)
    assert sorted(order) == list(range(len(jobs)))
    keys = [(jobs[i].level, jobs[i].size) for i in order]
    assert keys == sorted(keys, reverse=True)
    assert order != list(range(len(jobs)))  # the plan itself runs easy to hard


BUILD = textwrap.dedent("""
    import hashlib, sys
    from pathlib import Path
    if sys.argv[3] == "pure":
        sys.modules["_rl_accel"] = None  # reportlab then uses its pure-Python fallback
    import reportlab.lib.rl_accel as accel
    from bookgen.book import build
    from bookgen.config import load_book
    paths = build(load_book(sys.argv[1]), Path(sys.argv[2]), 1)
    print(type(accel.fp_str).__name__, hashlib.sha256(b"".join(p.read_bytes() for p in paths)).hexdigest())
""")


def test_pdf_bytes_do_not_depend_on_reportlabs_accelerator(write_config, tmp_path):
    config = write_config("""
        title: Accel
        seed: 5
        sections:
          - {variant: tango, size: 6, count: 2, difficulty: easy}
          - {variant: kenken, size: 4, count: 2, difficulty: easy}
    """)
    out = {}
    for mode in ("pure", "default"):
        done = subprocess.run([sys.executable, "-c", BUILD, str(config), str(tmp_path / mode), mode],
                              capture_output=True, text=True, check=True, cwd=ROOT)
        out[mode] = done.stdout.split()
    assert out["pure"][0] == "function"  # the fallback really ran
    assert out["pure"][1] == out["default"][1]
