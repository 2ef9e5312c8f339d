"""Skyscrapers 4x4: where the hard tier stalls against what the table of Latin squares says.

Run: ``python bench/sky_table_stalls.py [--level hard|medium] [--squares N]``.

``variants/skyscrapers._small_carve`` makes the hard carve's given search on 4x4 by the table
(``latin_table``): with every clue and the givens drawn so far, it takes the hard tier to
stall exactly where the squares that fit are two or more, with exactly the cells those
squares agree on placed, so it draws among the other cells as ``_needed_givens`` draws among
the stall's open ones. This checks that claim on every state the search can reach: from
every 4x4 Latin square whose 16 clues show another square too, every set of givens the
search can add (each on an open cell of the stall before it), the ladder's ``closure`` at the
tier against ``table_solutions`` and ``latin_table.open_cells``. Prints the states visited
and the ones where they differ; exits 1 on any difference. At hard (about 11,000 states, 10 s)
there is none; at medium there are some, so the medium carve searches with the ladder.
tests/test_sky_carve.py checks a sample of the squares.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bookgen.core.difficulty import Level  # noqa: E402
from bookgen.solve.houses import closure, geometry  # noqa: E402
from bookgen.solve.latin_table import latin_table, open_cells  # noqa: E402
from bookgen.solve.skyscrapers import clues_of, extra_for, table_solutions  # noqa: E402


def stalls_differ(level: Level, squares: int | None = None) -> tuple[int, int]:
    """(states visited, states where the tier's stall and the table differ), over the first
    ``squares`` of the 4x4 Latin squares whose clues are ambiguous (all of them: None)."""
    geo = geometry(4)
    visited = differ = 0
    ambiguous = []
    for flat in latin_table(4)[0]:
        clues = clues_of([flat[r * 4:r * 4 + 4] for r in range(4)])
        fits = table_solutions(4, [], clues)
        if fits & (fits - 1):
            ambiguous.append((flat, clues))
    for flat, clues in ambiguous[:squares]:
        extra = extra_for(4, clues, verdict=True)
        seen: set[tuple[int, ...]] = set()
        stack: list[tuple[int, ...]] = [()]
        while stack:
            cells = stack.pop()
            if cells in seen:
                continue
            seen.add(cells)
            givens = [(i, flat[i]) for i in cells]
            visited += 1
            done, st = closure(geo, givens, level, extra=extra)
            fits = table_solutions(4, givens, clues)
            many = bool(fits & (fits - 1))
            if done or st is None:
                differ += many or st is None and not done
                continue
            open_now = [i for i in range(16) if not st.placed[i]]
            differ += not many or open_now != open_cells(4, fits)
            stack += [tuple(sorted(cells + (i,))) for i in open_now]
    return visited, differ


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--level", default="hard")
    ap.add_argument("--squares", type=int, default=None)
    args = ap.parse_args()
    visited, differ = stalls_differ(Level.parse(args.level), args.squares)
    print(f"{args.level}: {visited} states, {differ} where the stall and the table differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
