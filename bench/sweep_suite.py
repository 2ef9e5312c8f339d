"""Sweep: the everyday suite's checks of fast paths and generators, as deep as before they were
made cheaper (docs/testing.md, "Round eleven, suite7a") and deeper.

Run: python bench/sweep_suite.py [SCALE] [SEEDS]

Two parts, exit status 1 if anything fails:

- The tests whose loops over random cagings, grids and states take ``examples(n)``: run by pytest
  in one process with ``FUZZ_SCALE=SCALE`` (default 2: the counts they had before, or more).
- The tests that make one puzzle from a seed chosen because it generates quickly: called with
  seeds 0..SEEDS-1 (default 12) of the same request, and the Kakuro count and the Jigsaw filler
  with the inputs they had before (seed 23's 60 puzzles; room for 10**5 guesses). The contract's
  seeds are bench/sweep_contract.py's.

Each line prints the case and its CPU seconds, so a slow or failing seed shows.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

# the tests with examples(n) loops, every test of their files
FUZZED = [
    "tests/test_binary.py::test_incremental_uniqueness_proof_agrees_with_brute_force",
    "tests/test_engine.py::test_locked_candidates_equal_the_plain_version",
    "tests/test_kakuro.py::test_skipping_unchanged_runs_changes_no_grade",
    "tests/test_kenken.py::test_open_after_agrees_with_the_ladder_up_to_easy_and_medium",
    "tests/test_kenken.py::test_sat_agrees_with_backtracking",
    "tests/test_kenken.py::test_cage_uses_by_columns_equal_the_table_by_assignments",
    "tests/test_kenken.py::test_table_proof_agrees_with_sat_count_on_random_cagings",
    "tests/test_kenken.py::test_easy_ladder_is_the_counted_ladder_run",
    "tests/test_kenken_probes.py::test_rated_run_with_probes_equals_the_plain_run",
    "tests/test_kenken_rated.py::test_steps_taken_cage_by_cage_equal_the_runs_own_search",
    "tests/test_kenken_rated.py::test_a_taker_that_gives_up_left_no_direct_step",
    "tests/test_kenken_rated.py::test_the_run_at_once_on_bits_is_the_taker_call_by_call",
    "tests/test_killer.py::test_proof_clauses_equal_the_plain_version_and_prove_the_same",
    "tests/test_rated_direct.py::test_direct_equals_plain",
    "tests/test_rated_scan.py::test_scan_equals_full_rescan",
    "tests/test_sky_carve.py::test_carving_on_from_fixpoints_equals_carving_afresh",
    "tests/test_sky_carve.py::test_the_small_carve_equals_the_plain_carve_and_bisects",
    "tests/test_skyscrapers.py::test_line_options_equal_the_plain_version",
    "tests/test_starbattle.py::test_sat_count_agrees_with_brute_force_on_random_small_puzzles",
]


def _seeded(seeds: int) -> list[tuple[str, object]]:
    from test_big_sudoku import test_a_12x12_reaches_expert
    from test_extreme import test_an_extreme_sudoku_is_made_unique_and_rated_in_its_band
    from test_jigsaw import (
        test_diagonal_jigsaw_keeps_its_diagonals,
        test_the_propagating_filler_keeps_every_house_and_fails_only_without_a_filling,
    )
    from test_kakuro import test_an_independent_count_agrees_with_sat
    from test_starbattle import test_two_star_expert_needs_one_trial

    cases: list[tuple[str, object]] = []
    for k in range(seeds):
        cases.append((f"extreme 9x9 sudoku, seed {k}",
                      lambda k=k: test_an_extreme_sudoku_is_made_unique_and_rated_in_its_band(seed=k)))
        cases.append((f"12x12 sudoku expert, index {k}", lambda k=k: test_a_12x12_reaches_expert(index=k)))
        cases.append((f"diagonal 7x7 jigsaw hard, index {k}", lambda k=k: test_diagonal_jigsaw_keeps_its_diagonals(index=k)))
        name = "two-star-expert" + (f"-{k}" if k else "")
        cases.append((f"two-star 8x8 star battle expert, seed {name!r}",
                      lambda name=name: test_two_star_expert_needs_one_trial(seed=name)))
    cases.append(("kakuro independent count, seed 23, 60 puzzles",
                  lambda: test_an_independent_count_agrees_with_sat(seed=23, count=60)))
    for n in (5, 6):
        cases.append((f"jigsaw propagating filler {n}x{n}, room 10**5",
                      lambda n=n: test_the_propagating_filler_keeps_every_house_and_fails_only_without_a_filling(
                          n, room=10**5)))
    return cases


def main() -> int:
    scale = sys.argv[1] if len(sys.argv) > 1 else "2"
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    failed = 0
    start = time.perf_counter()
    print(f"pytest, FUZZ_SCALE={scale}: {len(FUZZED)} tests", flush=True)
    env = dict(os.environ, FUZZ_SCALE=scale)
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider", *FUZZED],
                          cwd=ROOT, env=env)
    failed += done.returncode != 0
    print(f"  {time.perf_counter() - start:.1f} s wall, exit {done.returncode}", flush=True)
    for label, case in _seeded(seeds):
        began = time.process_time()
        try:
            case()
            verdict = "ok"
        except Exception:  # noqa: BLE001 - a sweep reports every failure, then goes on
            failed += 1
            verdict = "FAILED"
            traceback.print_exc()
        print(f"{verdict:6} {label}: {time.process_time() - began:.2f} s CPU", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
