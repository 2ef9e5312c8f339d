"""The studio with the newer puzzle families and in a translated interface (#21, #23 point 4):
menus show values as a reader names them in the page's language while the YAML keeps its
values; the new variants' rule options are menus; a group's switch says what it does; the
phone's bottom bar follows a build."""

from __future__ import annotations

import base64
import json
import re

import pytest
from starlette.testclient import TestClient

from bookgen import designer
from bookgen.web.app import Settings, create_app
from bookgen.web.messages import CHOICES, choice_labels

# the browser tests' server and browser, started once for that module's tests and these
from test_studio_browser import _by_id, _until, browser, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
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
    assert set(boot["choices"]["difficulty"]) == set(schema["levels"])
    assert {"false", "true", "right"} == set(boot["choices"]["new_page"])
    # the interface-language menu names each language in its own words
    assert ">Čeština<" in html and ">Русский<" in html and ">cs<" not in html


def test_english_labels_are_the_catalogs_msgids():
    labels = choice_labels(lambda text: text)
    assert labels["layout"]["worksheet"] == CHOICES["layout"]["worksheet"]
    assert labels["variant"]["starbattle"] == "Star Battle" and labels["difficulty"]["easy"] == "Easy"



@pytest.mark.browser
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_nonogram_section_in_german_and_the_phone_bar_follows_the_build(server, browser):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    url, _ = server
    data = {"title": "Bar", "sections": [{"variant": "nonogram", "count": 1, "size": 5, "difficulty": "easy"}]}
    link = url + "?lang=de#s=" + base64.urlsafe_b64encode(json.dumps({"n": "bar", "d": data}).encode()).decode().rstrip("=")
    browser.set_window_size(390, 900)
    try:
        browser.get(url)
        browser.get(link)
        browser.refresh()
        _until(lambda: _by_id(browser, "f-title").get_attribute("value") == "Bar", 60, "the shared settings")
        variant = Select(_by_id(browser, "f-sections-0-variant"))
        assert variant.first_selected_option.text == "Nonogramm" and variant.first_selected_option.get_attribute("value") == "nonogram"
        style = Select(_by_id(browser, "f-sections-0-rules-style"))
        assert [o.text for o in style.options] == ["Standard (Zufällig)", "Zufällig", "Symmetrisch (links und rechts gespiegelt)",
                                                   "Kleckse (zusammenhängend)"]
        # a section left at its default size ticks the 10x10 box, nothing typed below
        variant.select_by_value("kakuro")
        _until(lambda: _by_id(browser, "f-sections-0-size-4").is_selected(), 10, "the default size ticked")  # 10x10
        assert _by_id(browser, "f-sections-0-size-other").get_attribute("value") == ""
        assert "Zeilen 6 bis 14, Spalten 6 bis 14" in browser.find_element(
            By.CSS_SELECTOR, "label[for='f-sections-0-size-other']").text
        assert _by_id(browser, "f-imprint").find_element(By.XPATH, "following-sibling::label").text == "Impressumseite drucken"
        Select(_by_id(browser, "f-sections-0-variant")).select_by_value("nonogram")  # (the form was redrawn)
        _until(lambda: _by_id(browser, "build").is_enabled(), 60, "a buildable form")
        browser.execute_script("arguments[0].click()", _by_id(browser, "build"))
        _until(lambda: _by_id(browser, "jump-build").is_displayed(), 30, "the bar's progress")
        assert _by_id(browser, "jump-build-link").is_displayed() and not _by_id(browser, "jump-plan").is_displayed()
        _until(lambda: "Erstellt" in _by_id(browser, "jump-build-text").text, 120, "the bar's result")
    finally:
        browser.set_window_size(1280, 1000)


@pytest.mark.browser
def test_a_plan_that_cannot_be_made_in_time_says_so_under_the_draft(server, browser, monkeypatch):  # noqa: F811
    """The page kept a draft headed 'the exact plan follows' for ever when the exact plan timed
    out (a Nonogram's first how-to example under load): now it says why none follows."""
    from concurrent.futures import TimeoutError as FutureTimeout

    from bookgen.web import app as web

    def never(future, wait):
        raise FutureTimeout

    monkeypatch.setattr(web.designer, "plan_of", never)
    url, _ = server
    data = {"title": "Late", "sections": [{"variant": "sudoku", "size": 4, "count": 1, "difficulty": "easy"}]}
    browser.get(url)
    browser.get(url + "#s=" + base64.urlsafe_b64encode(json.dumps({"n": "late", "d": data}).encode()).decode().rstrip("="))
    browser.refresh()
    _until(lambda: "the plan took too long to make" in _by_id(browser, "plan").text, 60, "the reason under the draft")
    assert "Late" in _by_id(browser, "plan").text  # the draft stays
