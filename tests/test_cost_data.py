"""The measured costs as data: each variant's ``bookgen/variants/costs/NAME.json``, read through
``Variant.measured`` (``bookgen.variants.measured``), written by ``bench/fit_costs.py --write``
and shipped in the wheel (docs/estimates.md).

``data/estimates.json`` holds the estimate of every variant, size, level and rule option (each
alone and every pair) and each variant's memory figure, as the tables gave them when they were
Python in the variant modules (e71df2f): moving them into files changed no estimate. A refit
changes them on purpose: then ``python tests/test_cost_data.py --regen`` writes the file anew,
and its diff is the refit's effect on the estimate."""

from __future__ import annotations

import itertools
import json
import sys
import zipfile
from pathlib import Path

import pytest

from bookgen.core.difficulty import LEVELS
from bookgen.core.types import GridSize
from bookgen.core.variant import Measured, VariantDefaults
from bookgen.estimate import puzzle_ms
from bookgen.variants import measured
from bookgen.variants.registry import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "data" / "estimates.json"
FOLDER = ROOT / "bookgen" / "variants" / measured.FOLDER


def _accepts(v, rules: dict, size) -> bool:
    try:
        v.parse_rules(rules, size)
        return True
    except ValueError:
        return False


def _requests(v):
    """(label, size, rules, options) of every size the tables and the sizes around them name,
    with no option, each option alone and every pair of different options."""
    m = v.measured
    sizes = set(m.costs) | {s for table in m.rule_cost_rows.values() for s in table}
    if v.rectangular:
        sizes |= {GridSize(r, c) for r, c in ((4, 4), (5, 10), (7, 13), (12, 20), (25, 20), (30, 30), (13, 6))}
    else:
        sizes |= set(range(min(v.sizes) - 1, max(v.sizes) + 3))
    rule_keys = set(v.parse_rules({}, v.default_size))
    keys = sorted(set(m.rule_costs) | set(m.rule_cost_rows), key=repr)
    combos = [()] + [(k,) for k in keys] + [p for p in itertools.combinations(keys, 2) if p[0][0] != p[1][0]]
    for size in sorted(sizes, key=lambda s: (s.rows, s.cols) if isinstance(s, GridSize) else (s, s)):
        for combo in combos:
            rules = {k: list(x) if isinstance(x, tuple) else x for k, x in combo if k in rule_keys}
            options = {k: x for k, x in combo if k not in rule_keys}
            if rules and not (_accepts(v, rules, size) or _accepts(v, rules, v.default_size)):
                continue  # refused before any estimate (Queens with two stars)
            yield json.dumps([measured.size_key(size), rules, options], sort_keys=True), size, rules, options


def estimates() -> dict:
    """Every variant's memory figure and estimates, as ``data/estimates.json`` holds them."""
    return {v.name: {"memory_kb_per_cell": v.measured.memory_kb_per_cell,
                     "estimates": {label: [puzzle_ms(v.name, size, level, rules, options) for level in LEVELS]
                                   for label, size, rules, options in _requests(v)}}
            for v in VARIANTS.values()}


def _differences(golden: dict, now: dict) -> list[str]:
    out = []
    for name in sorted(set(golden) | set(now)):
        was, new = golden.get(name, {}), now.get(name, {})
        if was.get("memory_kb_per_cell") != new.get("memory_kb_per_cell"):
            out.append(f"{name} memory_kb_per_cell {was.get('memory_kb_per_cell')} -> {new.get('memory_kb_per_cell')}")
        a, b = was.get("estimates", {}), new.get("estimates", {})
        out += [f"{name} {key}: {a.get(key)} -> {b.get(key)}" for key in sorted(set(a) | set(b)) if a.get(key) != b.get(key)]
    return out


def test_every_estimate_is_the_one_the_python_tables_gave():
    golden = json.loads(GOLDEN.read_text())
    assert set(golden) == set(VARIANTS)
    assert sum(len(v["estimates"]) for v in golden.values()) > 700
    assert _differences(golden, estimates()) == []


def test_the_comparison_sees_one_changed_figure(monkeypatch):
    golden = json.loads(GOLDEN.read_text())
    real = measured.load

    def nudged(name: str) -> Measured:
        m = real(name)
        if name != "kenken":
            return m
        factors = {**m.rule_costs, ("show_ops", False): (1.9, 1.1, 1.3, 1.2)}  # expert 1.1 -> 1.2
        return Measured(m.costs, factors, m.rule_cost_rows, m.memory_kb_per_cell)

    monkeypatch.setattr(measured, "load", nudged)
    found = _differences(golden, estimates())
    assert found and all(line.startswith("kenken ") and "show_ops" in line for line in found)


def test_every_data_file_belongs_to_a_variant_and_reads_back_as_written():
    files = sorted(FOLDER.glob("*.json"))
    assert {p.stem for p in files} == set(VARIANTS)  # no stray file, none missing
    for path in files:
        text = path.read_text(encoding="utf-8")
        m = measured.read(text, path.name)
        assert m.costs and m.memory_kb_per_cell > 0, path.name
        assert measured.dump(m, json.loads(text).get("note", ())) == text, path.name  # fit_costs --write's form
        assert VARIANTS[path.stem].measured == m


def test_a_variant_without_a_file_has_nothing_measured():
    class Unmeasured(VariantDefaults):
        name = "no-such-puzzle"

    assert Unmeasured().measured == Measured()
    assert Measured().memory_kb_per_cell == 1.0 and not Measured().costs


def test_a_malformed_file_is_named():
    for text in ('{"costs": {"9": [1.0, 2.0]}}', '{"cost": {}}', '{"rules": [{"value": 2}]}', "[1]", "{"):
        with pytest.raises(ValueError, match="kenken.json"):
            measured.read(text, "kenken.json")


def test_fit_costs_writes_what_the_rows_measured_and_keeps_the_rest(tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    import fit_costs

    before = measured.load("tango")
    (tmp_path / "tango.json").write_text((FOLDER / "tango.json").read_text(encoding="utf-8"), encoding="utf-8")
    rows = [{"variant": "tango", "size": 6, "level": level, "rules": raw, "options": {}, "seeds": 2,
             "actual": ms, "each": [ms, ms]}
            for level, ms in (("easy", 10.0), ("medium", 20.0))
            for raw, ms in (({}, ms), ({"max_run": 3}, 3 * ms), ({"unique_lines": True}, ms))]
    sweep = tmp_path / "fit.jsonl"
    sweep.write_text("\n".join(json.dumps(r) for r in rows))
    monkey_argv = ["fit_costs.py", str(sweep), "--write", "--dir", str(tmp_path)]
    old_argv, sys.argv = sys.argv, monkey_argv
    try:
        fit_costs.main()
    finally:
        sys.argv = old_argv
    after = measured.read((tmp_path / "tango.json").read_text(encoding="utf-8"))
    assert after.costs[6] == (10.0, 20.0, *before.costs[6][2:])  # the measured figures, the others kept
    assert {s: r for s, r in after.costs.items() if s != 6} == {s: r for s, r in before.costs.items() if s != 6}
    assert after.rule_costs[("max_run", 3)] == (3.0, 3.0, 1.0, 1.0)  # 3x the default where measured
    assert ("unique_lines", True) not in after.rule_costs  # measured at 1x: no factor
    assert after.rule_cost_rows == before.rule_cost_rows  # givens: not in the rows, kept
    assert after.memory_kb_per_cell == before.memory_kb_per_cell
    assert json.loads((tmp_path / "tango.json").read_text())["note"] == json.loads(
        (FOLDER / "tango.json").read_text())["note"]


def wheel_names(folder: Path | None = None) -> set[str]:
    """The files of the wheel hatchling builds for ``pip install .`` (not editable): the files its
    builder selects, each under the name it is written as; with ``folder``, the names in the wheel
    really built there (0.3 s of CPU, most of it compressing the fonts: bench/sweep_packaging.py)."""
    from hatchling.builders.wheel import WheelBuilder

    builder = WheelBuilder(str(ROOT))
    if folder is None:
        return {included.distribution_path for included in builder.recurse_included_files()}
    wheel = next(iter(builder.build(directory=str(folder), versions=["standard"])))
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_the_wheel_ships_every_data_file():
    """``pip install .`` (not editable) installs the wheel hatchling builds: the data files must be in it."""
    names = wheel_names()
    assert {f"bookgen/variants/costs/{p.name}" for p in FOLDER.glob("*.json")} <= names
    assert "bookgen/variants/measured.py" in names


if __name__ == "__main__" and sys.argv[1:] == ["--regen"]:
    lines = ",\n".join(f"  {json.dumps(name)}: {{\"memory_kb_per_cell\": {json.dumps(e['memory_kb_per_cell'])}, "
                       f"\"estimates\": {{\n" + ",\n".join(f"    {json.dumps(k)}: {json.dumps(x)}"
                                                         for k, x in e["estimates"].items()) + "\n  }}"
                       for name, e in estimates().items())
    GOLDEN.write_text("{\n" + lines + "\n}\n")
