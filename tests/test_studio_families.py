"""The studio with the newer puzzle families and in a translated interface (#21, #23 point 4;
its browser tests are in test_studio_browser.py, sharing one server and browser):
menus show values as a reader names them in the page's language while the YAML keeps its
values; the new variants' rule options are menus; a group's switch says what it does; the
phone's bottom bar follows a build."""

from __future__ import annotations

import json
import re

import pytest
from starlette.testclient import TestClient

from bookgen import designer, jobs
from bookgen.web.app import Settings, create_app
from bookgen.web.messages import CHOICES, choice_labels


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    # These tests read pages and menus: no plan, no build. The studio's planner process and the
    # build server it forks from (bookgen imported there: ~1.5 s of CPU, and the server's shutdown
    # waited for them to come up) are left unstarted; tests/test_studio_api.py runs them.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(designer, "start_planner", lambda: None)
        patch.setattr(jobs, "_warm", lambda: None)
        app = create_app(Settings(root=tmp_path_factory.mktemp("studio-families"), warm=False))
    with TestClient(app) as c:
        yield c
    designer.uninstall_caches()


def _boot(html: str) -> dict:
    return json.loads(re.search(r'<script id="boot" type="application/json">(.*?)</script>', html, re.S)
                      .group(1).replace("<\\/", "</"))


def test_the_new_variants_rule_options_are_menus_from_the_models():
    variants = designer.form_schema()["variants"]
    style = next(r for r in variants["nonogram"]["rules"] if r["key"] == "style")
    assert style["kind"] == "select" and style["choices"] == ["random", "symmetric", "blobs"]
    stars = {v: next(r for r in variants[v]["rules"] if r["key"] == "stars") for v in ("starbattle", "queens")}
    assert stars["starbattle"]["kind"] == "select" and stars["starbattle"]["choices"] == [1, 2]
    assert stars["queens"]["choices"] == [1]
    assert variants["nonogram"]["size_limits"] == [5, 25, 5, 25] and variants["kakuro"]["size_limits"] == [6, 14, 6, 14]
    assert variants["sudoku"]["size_limits"] is None


@pytest.mark.parametrize("lang,words", [
    ("de", {"Nonogramm", "Leicht", "US-Letter (8,5 × 11 Zoll)", "Zufällig", "Impressumseite drucken", "Bildstil"}),
    ("cs", {"Lehká", "Pracovní listy (řádek na jméno, řešení zvlášť)", "Ne", "Vytvořit celou obálku"}),
    ("ru", {"Японский кроссворд", "Ферзи", "Кремовая", "Стиль рисунка"}),
])
def test_a_translated_page_names_menu_values_in_its_language_and_keeps_the_yaml_values(client, lang, words):
    html = client.get(f"/?lang={lang}").text
    boot = _boot(html)
    shown = {text for table in boot["choices"].values() for text in table.values()}
    shown |= set(boot["toggles"].values()) | set(boot["labels"].values())
    assert words <= shown, words - shown
    # every value a menu offers keeps its YAML spelling as the option's value: the tables key by it
    schema = boot["schema"]
    assert set(boot["choices"]["page"]) == set(next(f for f in schema["book"] if f["key"] == "page")["choices"])
    assert set(boot["choices"]["variant"]) == set(schema["variants"])
    assert set(boot["choices"]["difficulty"]) == set(schema["levels"]).union(*(v["levels"] for v in schema["variants"].values()))
    assert {"false", "true", "right"} == set(boot["choices"]["new_page"])
    # the interface-language menu names each language in its own words
    assert ">Čeština<" in html and ">Русский<" in html and ">cs<" not in html


def test_english_labels_are_the_catalogs_msgids():
    labels = choice_labels(lambda text: text)
    assert labels["layout"]["worksheet"] == CHOICES["layout"]["worksheet"]
    assert labels["variant"]["starbattle"] == "Star Battle" and labels["difficulty"]["easy"] == "Easy"
