"""A variant's measured costs, read from its data file ``costs/NAME.json`` beside this module.

The figures are measured, not written: ``bench/fit_costs.py --write`` fits them to the rows of
``bench/sweep_estimates.py`` and writes the file; ``memory_kb_per_cell`` comes from
``bench/measure_memory.py``. The format (docs/estimates.md), one row a line so that a figure
can be pasted in by hand::

    {
      "note": ["where the figures come from, one line an item"],
      "memory_kb_per_cell": 0.5,
      "costs": {
        "9": [64.3, 70.4, 138.0, 498.0]
      },
      "rules": [
        {"option": "max_cage", "value": 6, "factor": [1.2, 1.4, 4.5, 5.4], "costs": {
          "9": [124.0, 178.0, 2090.0, 7530.0]
        }}
      ]
    }

A size is ``"9"`` (a square side) or ``"10x12"`` (rows x cols: a rectangular variant's
``GridSize``); a row is CPU ms a puzzle easy..expert, ``null`` where the level is refused. An
entry of ``rules`` is a rule or section option with its ``factor`` on ``costs``, its own
``costs`` table, or both (``bookgen.core.variant.Measured``). Every key but ``costs`` may be
left out; a variant without a file has nothing measured (``Measured()``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from bookgen.core.types import GridSize, Size
from bookgen.core.variant import Measured, Row

FOLDER = "costs"  # beside this module, shipped as package data


def size_key(size: Size) -> str:
    """``"9"``, or ``"10x12"`` for a ``GridSize``."""
    return str(size) if isinstance(size, int) else f"{size.rows}x{size.cols}"


def _size(key: str) -> Size:
    rows, x, cols = key.partition("x")
    return GridSize(int(rows), int(cols)) if x else int(key)


def _row(values: list) -> Row:
    if not isinstance(values, list) or len(values) != 4:
        raise ValueError(f"a row is four figures easy..expert, got {values!r}")
    return tuple(None if v is None else float(v) for v in values)


def _table(raw: Mapping[str, list]) -> dict[Size, Row]:
    return {_size(key): _row(values) for key, values in raw.items()}


def _value(value: Any) -> Any:
    """An option's value as ``bookgen.estimate`` compares it (a list as a sorted tuple)."""
    return tuple(sorted(value)) if isinstance(value, list) else value


def parse(data: Mapping[str, Any]) -> Measured:
    """The ``Measured`` of a data file's JSON object; ``ValueError`` where it is malformed."""
    unknown = set(data) - {"note", "memory_kb_per_cell", "costs", "rules"}
    if unknown:
        raise ValueError(f"unknown key {sorted(unknown)[0]!r}")
    factors: dict[tuple[str, Any], tuple[float, ...]] = {}
    own: dict[tuple[str, Any], dict[Size, Row]] = {}
    for entry in data.get("rules", ()):
        key = (entry["option"], _value(entry["value"]))
        if "factor" in entry:
            factors[key] = tuple(float(x) for x in _row(entry["factor"]))  # type: ignore[arg-type]
        if "costs" in entry:
            own[key] = _table(entry["costs"])
    return Measured(_table(data.get("costs", {})), factors, own,
                    float(data.get("memory_kb_per_cell", Measured.memory_kb_per_cell)))


def _rows(table: Mapping[Size, Row], indent: str) -> list[str]:
    return [f'{indent}{json.dumps(size_key(s))}: {json.dumps(list(row))}' for s, row in table.items()]


def _block(lines: list[str], indent: str, close: str) -> str:
    body = ",\n".join(lines)
    return "{\n" + body + "\n" + indent + close if lines else "{" + close


def dump(measured: Measured, note: list[str] | tuple[str, ...] = ()) -> str:
    """The data file's text for ``measured``: ``parse(json.loads(dump(m))) == m``, one row a line."""
    parts = []
    if note:
        parts.append('  "note": [\n' + ",\n".join(f"    {json.dumps(line, ensure_ascii=False)}" for line in note)
                     + "\n  ]")
    parts.append(f'  "memory_kb_per_cell": {json.dumps(measured.memory_kb_per_cell)}')
    parts.append('  "costs": ' + _block(_rows(measured.costs, "    "), "  ", "}"))
    entries = []
    for key in dict.fromkeys([*measured.rule_costs, *measured.rule_cost_rows]):
        option, value = key
        head = f'{{"option": {json.dumps(option)}, "value": {json.dumps(list(value) if isinstance(value, tuple) else value)}'
        if key in measured.rule_costs:
            head += f', "factor": {json.dumps(list(measured.rule_costs[key]))}'
        if key in measured.rule_cost_rows:
            head += ', "costs": ' + _block(_rows(measured.rule_cost_rows[key], "      "), "    ", "}")
        entries.append("    " + head + "}")
    if entries:
        parts.append('  "rules": [\n' + ",\n".join(entries) + "\n  ]")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def read(text: str, where: str = "") -> Measured:
    """``parse`` of a data file's text; ``ValueError`` naming ``where`` when it is malformed."""
    try:
        return parse(json.loads(text))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"{where}: not a cost data file ({exc})") from None


def path_of(name: str):
    """Where variant ``name``'s data file is (it may not exist)."""
    return resources.files(__package__).joinpath(FOLDER, f"{name}.json")


@lru_cache(maxsize=None)
def load(name: str) -> Measured:
    """Variant ``name``'s measured costs: its data file, or nothing measured where it has none."""
    path = path_of(name)
    if not path.is_file():
        return Measured()
    return read(path.read_text(encoding="utf-8"), f"{FOLDER}/{name}.json")
