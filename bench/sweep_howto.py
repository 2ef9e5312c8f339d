"""Sweep: how-to-play pages of every rule set, page format, large print and language.

Run: python bench/sweep_howto.py
Prints, per format and type scale, the smallest running text on the how-to pages
(the floor is 8.5 pt, 11.5 pt with large print) and the fewest and most pages a
how-to takes; fails if any text is below its floor or outside the safe area (the
checks of tests/test_howto.py, over every language shipped).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bookgen.i18n import languages  # noqa: E402
from test_howto import FORMATS, RULE_SETS, how_to, test_how_to_text_keeps_the_floor_and_the_safe_area  # noqa: E402

# worked examples of the largest size a book may print alone (the example is of the book's size);
# a 14x14 Binairo example fits a 6x9 page only with its step numbers under the grid floor
PRINTED = [("killer", {}, (9,)), ("futoshiki", {}, (9,)), ("sudoku", {}, (9,)), ("kenken", {}, (9,)),
           ("tango", {}, (12,))]


def main() -> None:
    for fmt in FORMATS:
        for large in (False, True):
            smallest, pages = [], []
            for language in languages():
                printed = [] if large else PRINTED  # large print takes these sizes on larger pages only
                test_how_to_text_keeps_the_floor_and_the_safe_area(fmt, large, language, printed)
                for name, rules, sizes in [(name, rules, ()) for name, rules in RULE_SETS] + printed:
                    count, _, _, body, _ = how_to(fmt, large, language, name, rules, sizes)
                    smallest.append(min(size for _, size in body))
                    pages.append(count)
            print(f"{fmt:7} {'large print' if large else 'normal     '} smallest running text "
                  f"{min(smallest):5.2f} pt, {min(pages)}-{max(pages)} pages per how-to")


if __name__ == "__main__":
    main()
