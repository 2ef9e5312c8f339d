"""The docs: the config reference is current and complete, links resolve, the README stays a front door."""

from __future__ import annotations

import re
from pathlib import Path

from bookgen import docgen

ROOT = Path(__file__).resolve().parent.parent


def test_config_reference_is_current():
    committed = docgen.TARGET.read_text(encoding="utf-8") if docgen.TARGET.exists() else ""
    assert committed == docgen.render(), (
        f"docs/config.md is stale (a config key or its docstring changed); regenerate it with: {docgen.COMMAND}")


def test_every_config_key_is_documented():
    assert docgen.missing() == [], (
        "these config keys have no description: add a docstring under the field in bookgen/config.py "
        f"(or a rule_help entry in the variant for a rule option), then run: {docgen.COMMAND}")


def test_reference_lists_every_key():
    text = docgen.render()
    for model in (docgen.BookModel, docgen.SectionModel, docgen.ImprintModel, docgen.CoverModel):
        for name, field in model.model_fields.items():
            assert f"| `{field.alias or name}` |" in text, name


def test_undocumented_key_is_caught(monkeypatch):
    field = docgen.CoverModel.model_fields["paper"]
    monkeypatch.setattr(field, "description", None)
    assert "CoverModel.paper" in docgen.missing()
    assert "(not documented yet)" in docgen.render()


def test_check_mode_reports_stale_file(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "config.md"
    stale.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(docgen, "TARGET", stale)
    monkeypatch.setattr(docgen, "ROOT", tmp_path)
    assert docgen.main(["--check"]) == 1
    assert docgen.COMMAND in capsys.readouterr().err
    assert docgen.main([]) == 0 and docgen.main(["--check"]) == 0


def _anchors(text: str) -> set[str]:
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"(?m)^#+ (.*)$", text)}


def test_doc_links_resolve():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for target, anchor in re.findall(r"\]\(([^)#\s]*)(#[^)\s]*)?\)", page.read_text(encoding="utf-8")):
            if target.startswith(("http:", "https:")):
                continue
            path = page.parent / target if target else page
            if not path.exists():
                broken.append(f"{page.name}: {target}")
            elif anchor and path.suffix == ".md" and anchor[1:] not in _anchors(path.read_text(encoding="utf-8")):
                broken.append(f"{page.name}: {target}{anchor}")
    assert broken == []


def test_readme_is_a_front_door():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 400
    assert "pip install -e . && bookgen build configs/sampler.yaml" in text
    assert "pip install -e '.[test]' && python -m pytest" in text
    assert (ROOT / "docs" / "sample-page.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_both_samplers_show_every_variant(tmp_path):
    """The quick-start book and the studio's sampler say they tour every puzzle bookgen makes."""
    from bookgen.config import load_book
    from bookgen.templates import template_text
    from bookgen.variants.registry import VARIANTS

    (tmp_path / "sampler.yaml").write_text(template_text("sampler"), encoding="utf-8")
    for path in (ROOT / "configs" / "sampler.yaml", tmp_path / "sampler.yaml"):
        shown = {section.variant for section in load_book(path).sections}
        assert shown == set(VARIANTS), (path.name, sorted(set(VARIANTS) - shown))
