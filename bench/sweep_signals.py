"""Sweep: the signal tests' children as fresh interpreters, the signal at several moments.

Run: python bench/sweep_signals.py [ROUNDS]   (default 3)

In the suite, tests/test_interrupt.py forks its mid-build and mid-check children from one
interpreter that has imported bookgen (a fresh ``python -m bookgen`` paid ~0.4 s of CPU for its
imports each time). This runs those tests as they were: each child a fresh ``python -c``
(``FRESH_CHILDREN=1``: Python's own start-up, bookgen's imports, the fonts read in the child),
with the signal 0.05 s (as in the suite), 0.3 s and 1 s after the child is at work
(``SIGNAL_SETTLE``), ROUNDS times each. Fails if any run fails; prints the passes per moment.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SELECT = "mid_build or second_ctrl_c or signal_during_check"
SETTLES = ("0.05", "0.3", "1.0")


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    failed = 0
    for settle in SETTLES:
        passed = 0
        for _ in range(rounds):
            env = dict(os.environ, FRESH_CHILDREN="1", SIGNAL_SETTLE=settle)
            run = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider",
                                  "tests/test_interrupt.py", "-k", SELECT], cwd=ROOT, env=env,
                                 capture_output=True, text=True)
            if run.returncode == 0:
                passed += 1
            else:
                failed += 1
                print(run.stdout[-3000:], run.stderr[-2000:], sep="\n")
        print(f"signal {settle} s after the child is at work: {passed} of {rounds} runs passed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
