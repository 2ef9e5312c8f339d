"""The check that a ladder left without house techniques that find nothing on its grid
(``houses.lines_ladder``: Skyscrapers' ``SkyExtra.trimmed``, Futoshiki's ``SignExtra.trimmed``)
takes the whole ladder's steps."""

from __future__ import annotations

from bookgen.core.difficulty import Level
from bookgen.solve.houses import Run, closure, run_ladder
from bookgen.solve.rated import rated_run


def same_steps(geo, givens, trimmed, full, idle) -> int:
    """Assert that ``trimmed`` and ``full`` (the same constraint, its ladder trimmed and whole)
    give the same explained ladder run and the same rated run of ``givens``, and that each
    technique of ``idle`` finds nothing where the whole ladder's medium and hard tiers stall;
    how many such tries there were."""
    a = run_ladder(geo, givens, Level.EXPERT, explain=True, extra=trimmed)
    b = run_ladder(geo, givens, Level.EXPERT, explain=True, extra=full)
    assert (a.solved, a.counts, a.grid, a.steps) == (b.solved, b.counts, b.grid, b.steps)
    assert rated_run(geo, givens, trimmed) == rated_run(geo, givens, full)
    looked = 0
    for level in (Level.MEDIUM, Level.HARD):
        done, st = closure(geo, givens, level, extra=full)
        if st is not None:
            for t in idle:
                looked += 1
                assert t.fn(geo, st.copy(), Run()) == 0
    return looked
