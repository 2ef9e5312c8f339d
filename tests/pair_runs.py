"""The check shared by the pair-integer fast paths of Futoshiki and Skyscrapers
(``rated_whole`` and ``easy_ladder`` in ``solve/inequalities.py`` and ``solve/skyscrapers.py``):
each equals its plain version wherever it answers, and hands back (None) elsewhere."""

from __future__ import annotations

from bookgen.core.difficulty import Level
from bookgen.solve.houses import run_ladder
from bookgen.solve.rated import rated_run


def plain_rated(geo, givens, extra):
    """``rated_whole``'s plain version: the rated run step by step."""
    return rated_run(geo, givens, extra, fast=False)


def plain_ladder(geo, givens, extra):
    """``easy_ladder``'s plain version: the ladder's own run."""
    return run_ladder(geo, givens, Level.EXPERT, extra=extra)


def same_rated(a, b) -> bool:
    return a == b


def same_ladder(a, b) -> bool:
    return a == b and list(a.counts.items()) == list(b.counts.items())


def compare(geo, cases, fast, plain, same) -> list:
    """``fast`` against ``plain`` on ``cases`` (pairs of givens and extra): ``same`` wherever
    ``fast`` answers; both an answer and a hand-back met. The answers, for further checks."""
    answers = []
    handed_back = 0
    for givens, extra in cases:
        got = fast(geo, givens, extra)
        if got is None:
            handed_back += 1
            continue
        assert same(got, plain(geo, givens, extra))
        answers.append(got)
    assert answers and handed_back
    return answers
