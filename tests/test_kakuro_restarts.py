"""Kakuro's restarts (``Headway``): a draft that stops making headway is dropped for a fresh
pattern, by counted changes only, so a seed still makes one puzzle, unique and graded at its level."""

from __future__ import annotations

import random

import pytest

from bookgen.book import Job, check_puzzle, generate, puzzle_json
from bookgen.core.difficulty import Level
from bookgen.core.rng import derive_seed
from bookgen.solve import kakuro as engine
from bookgen.variants import kakuro as kk


def _result(open_cells: int, solved: bool = False) -> engine.Result:
    return engine.Result(solved, Level.EASY, {}, (), None, tuple(range(0 if solved else open_cells)))


def test_headway_gives_up_after_a_stall_and_after_solving_too_easily():
    stuck = kk.Headway()
    assert not stuck.gives_up(_result(30))
    for _ in range(kk.STALL - 1):  # no fewer open cells than 30: a stall, not yet given up
        assert not stuck.gives_up(_result(31))
    assert not stuck.gives_up(_result(29))  # fewer: the count starts again
    for _ in range(kk.STALL - 1):
        assert not stuck.gives_up(_result(29))
    assert stuck.gives_up(_result(29))
    easy = kk.Headway()
    assert not easy.gives_up(_result(12))
    # solved (too easily) from here: TOO_EASY_MOVES changes to come right, stuck again or not
    assert [easy.gives_up(_result(4, solved=k % 2 == 0)) for k in range(kk.TOO_EASY_MOVES + 1)] == \
        [False] * kk.TOO_EASY_MOVES + [True]


def _counting_attempts(monkeypatch) -> list[bool]:
    """Record, per attempt of ``generate``, whether it was given up."""
    dropped: list[bool] = []
    attempt = kk.KakuroVariant.attempt

    def counted(self, *args):
        draft = attempt(self, *args)
        dropped.append(draft is None)
        return draft
    monkeypatch.setattr(kk.KakuroVariant, "attempt", counted)
    return dropped


@pytest.mark.parametrize("size,level,seed", [(7, Level.MEDIUM, 1), (8, Level.HARD, 3)])
def test_a_restarted_puzzle_is_the_seeds_own_unique_and_graded_at_its_level(monkeypatch, size, level, seed):
    dropped = _counting_attempts(monkeypatch)
    first = kk.KAKURO.generate(size, {}, level, random.Random(seed))
    assert sum(dropped) >= 1  # the seed was picked for at least one restart
    again = kk.KAKURO.generate(size, {}, level, random.Random(seed))
    assert again == first
    assert first.grade.level == level and first.grade.solved
    assert len(kk.KAKURO.solutions(first)) == 1
    assert check_puzzle(puzzle_json(1, first, page=1)) == []


def test_restarts_come_from_counts_not_the_clock(monkeypatch):
    """With a stall of one change nearly every draft is dropped: the puzzle is still one per seed
    (two runs agree), unique and at its level, and differs from the default's."""
    default = kk.KAKURO.generate(7, {}, Level.MEDIUM, random.Random(1))
    monkeypatch.setattr(kk, "STALL", 1)
    monkeypatch.setattr(kk, "TOO_EASY_MOVES", 1)
    dropped = _counting_attempts(monkeypatch)
    impatient = kk.KAKURO.generate(7, {}, Level.MEDIUM, random.Random(1))
    assert sum(dropped) >= 2
    assert kk.KAKURO.generate(7, {}, Level.MEDIUM, random.Random(1)) == impatient != default
    assert impatient.grade.level == Level.MEDIUM and len(kk.KAKURO.solutions(impatient)) == 1


def test_one_or_two_workers_make_the_same_restarted_puzzles():
    jobs = [Job(0, k, "kakuro", 8, (), Level.MEDIUM, derive_seed(9, "kakuro restarts", k), ()) for k in range(2)]
    one = [printed[0] for printed in generate(jobs, 1)]
    two = [printed[0] for printed in generate(jobs, 2)]
    assert one == two and all(p.grade.level == Level.MEDIUM for p in one)
