"""Sweep: build the wheel ``pip install .`` installs and check what it holds.

Run: python bench/sweep_packaging.py

tests/test_cost_data.py::test_the_wheel_ships_every_data_file reads the files hatchling's wheel
builder selects (the list it writes, without building); this builds the wheel for real in a
temporary folder and checks that it holds every file of that selection (the cost files, the
fonts, every module) besides its own metadata, and the cost files by name.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_cost_data import FOLDER, wheel_names  # noqa: E402


def main() -> int:
    selected = wheel_names()
    with tempfile.TemporaryDirectory() as folder:
        built = wheel_names(Path(folder))
    costs = {f"bookgen/variants/costs/{p.name}" for p in FOLDER.glob("*.json")}
    missing = sorted((selected | costs | {"bookgen/variants/measured.py"}) - built)
    extra = sorted(name for name in built - selected if ".dist-info/" not in name)
    print(f"wheel: {len(built)} files, {len(selected)} selected by the builder, {len(costs)} cost files")
    for name in missing:
        print(f"missing from the wheel: {name}")
    for name in extra:
        print(f"in the wheel, not in the builder's selection: {name}")
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
