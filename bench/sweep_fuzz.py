"""Sweep: the suite's fuzzers run deep, with fresh examples.

Run: python bench/sweep_fuzz.py [SCALE]   (SCALE 10 by default; a few minutes on 2 cores)

The everyday suite runs each property test's modest fixed count of examples (``examples(n)``
in tests/conftest.py): 50 each for the config loader's four fuzzers, one case per key for
``test_every_scalar_key_...`` (every key, the bad values in turn). This runs the property tests
of the loader, the JSON round trip, KenKen's brute force and ``check``'s damaged books with
``FUZZ_SCALE=SCALE`` (SCALE times the examples; every key with every bad value, 43 x 9) and
``HYPOTHESIS_PROFILE=explore`` (fresh examples, not the suite's fixed sequence), and exits
non-zero if any fails: how the libyaml differences of tests/test_properties.py's
``LIBYAML_READS_OTHERWISE`` were found.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ["tests/test_properties.py", "tests/test_check.py"]


def main() -> int:
    scale = sys.argv[1] if len(sys.argv) > 1 else "10"
    env = dict(os.environ, FUZZ_SCALE=scale, HYPOTHESIS_PROFILE="explore")
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-k", "not reads_as", *FILES]
    print(f"FUZZ_SCALE={scale} HYPOTHESIS_PROFILE=explore {' '.join(command[1:])}", flush=True)
    return subprocess.call(command, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
