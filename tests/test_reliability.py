"""Issue 14: builds that don't fail at random, bounded input everywhere, no tracebacks."""

from __future__ import annotations

import hashlib

import pytest

import bookgen.book as book_mod
import bookgen.variants.binarygrid as binarygrid
from bookgen.book import Job, run_job
from bookgen.core.difficulty import Level
from bookgen.core.rng import derive_seed, rng_for
from bookgen.core.types import GenerationError
from bookgen.variants.takuzu import TAKUZU

RULES = (("max_run", 2), ("unique_lines", True))


# ----- 1. a generation budget per attempt, retried with the next seed ------------------------------
def test_attempt_zero_keeps_the_old_seed():
    """Books made before retries existed come out the same: try 0 is the seed of (book, section, index)."""
    old = hashlib.sha256(b"bookgen/6/0/38").hexdigest()[:16]
    assert derive_seed(6, 0, 38) == derive_seed(6, 0, 38, 0) == old
    job = Job(0, 38, "takuzu", 14, RULES, Level.MEDIUM, derive_seed(6, 0, 38), (), 6)
    seeds = {job.attempt_seed(k) for k in range(4)}
    assert job.attempt_seed(0) == old and len(seeds) == 4


def test_seed_6_puzzle_39_of_a_14x14_book_builds():
    """The issue's book: seed 6, 14x14 medium, puzzle 39 ran out of grid budget and failed the build."""
    job = Job(0, 38, "takuzu", 14, RULES, Level.MEDIUM, derive_seed(6, 0, 38), (), 6)
    puzzle = run_job(job)
    assert puzzle.grade.level == Level.MEDIUM and TAKUZU.solutions(puzzle, 2) == [puzzle.solution]


def test_grid_budget_running_out_is_one_failed_attempt(monkeypatch):
    real = binarygrid.random_solution
    calls = []

    def flaky(engine, rng, *args):
        calls.append(1)
        if len(calls) == 1:
            raise GenerationError("no valid 8x8 grid found within 2000 steps")
        return real(engine, rng, *args)

    monkeypatch.setattr(binarygrid, "random_solution", flaky)
    rules = TAKUZU.parse_rules({}, 8)
    puzzle = TAKUZU.generate(8, rules, Level.EASY, rng_for(derive_seed(1, 0, 0)))
    assert len(calls) >= 2 and puzzle.grade.level == Level.EASY


def test_a_failed_try_is_retried_with_the_next_seed(monkeypatch):
    """Try 0 runs out; try 1 makes the puzzle, which records the seed that regenerates it."""
    real = TAKUZU.generate
    tries = []

    def first_fails(self, size, rules, level, rng, options=None):
        tries.append(rng.getstate())
        if len(tries) == 1:
            raise GenerationError("could not make an easy 8x8 Binairo in 80 attempts")
        return real(size, rules, level, rng, options)

    monkeypatch.setattr(type(TAKUZU), "generate", first_fails)
    job = Job(2, 5, "takuzu", 8, RULES, Level.EASY, derive_seed(3, 2, 5), (), 3)
    puzzle = run_job(job)
    assert len(tries) == 2
    assert puzzle.seed == job.attempt_seed(1) == derive_seed(3, 2, 5, 1) != job.seed
    monkeypatch.undo()
    again = TAKUZU.generate(8, dict(RULES), Level.EASY, rng_for(puzzle.seed))
    assert again.givens == puzzle.givens


def test_every_try_failing_gives_a_possible_remedy(monkeypatch):
    monkeypatch.setattr(binarygrid, "MAX_ATTEMPTS", 0)
    job = Job(0, 0, "takuzu", 14, RULES, Level.HARD, derive_seed(1, 0, 0), (), 1)
    with pytest.raises(GenerationError) as info:
        book_mod._run_named(job)
    text = str(info.value)
    assert text.startswith("section 1, puzzle 1: could not make a hard 14x14 Binairo")
    assert f"any of {book_mod.SEED_ATTEMPTS} seeds" in text
    assert "larger size" not in text and "an easier level" in text
