"""The studio in a real browser: Debian's chromium and chromedriver driven by selenium.

Without them the tests skip with a one-line reason, except under CI (``CI=true``),
where a skipped browser test would hide a broken studio: there they fail.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bookgen import designer
from bookgen.cli import app as cli
from bookgen.config import ConfigError, load_book

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SLOW = {"title": "Slow", "sections": [{"variant": "kenken", "size": 7, "count": 400, "difficulty": "hard"}]}


def _need_browser() -> None:
    missing = None
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing = "selenium is not installed (pip install -e '.[test]')"
    if missing is None and not (CHROMIUM and DRIVER):
        missing = "chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)"
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"browser tests cannot run under CI: {missing}")
        pytest.skip(missing)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    _need_browser()
    import uvicorn

    from bookgen.web.app import Settings, create_app

    root = tmp_path_factory.mktemp("studio-browser")
    application = create_app(Settings(root=root, max_running=1, max_queued=2, warm=False))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    instance = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port, log_level="warning",
                                            timeout_graceful_shutdown=1))  # a kept-alive page must not hold it
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    end = time.monotonic() + 20
    while not instance.started and time.monotonic() < end:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/", root
    instance.should_exit = True
    # The loop's close waits for threads still reading a plan from the planner (a Nonogram's
    # how-to example takes seconds); the thread is a daemon, so the tests need not wait.
    thread.join(timeout=1)
    designer.uninstall_caches()


@pytest.fixture(scope="module")
def browser(server, tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    downloads = tmp_path_factory.mktemp("downloads")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={tmp_path_factory.mktemp('profile')}", "--window-size=1280,1000"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.downloads = downloads
    yield driver
    driver.quit()


def _until(condition, timeout=60.0, what="the page", every=0.1):
    """``condition()``'s first true value, asked every ``every`` seconds (each question to the page
    is a WebDriver command: chromium's CPU), failing after ``timeout``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            value = condition()
        except Exception:  # noqa: BLE001 - the page is still changing
            value = None
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"{what} did not happen within {timeout} s")


def _by_id(driver, ident):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, ident)


def _retype(driver, ident, text):
    """Replace a field's text as a user does (select all, type), again if the form was redrawn
    under the keystrokes (a check's answer can redraw it: the element goes stale)."""
    from selenium.webdriver.common.keys import Keys

    def attempt():
        box = _by_id(driver, ident)
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(text)
        return box.get_attribute("value") == text
    _until(attempt, 60, f"typing into {ident}")


def _settled(driver):
    """The last check answered (with its plan, when the form has no errors)."""
    return driver.execute_script("return document.getElementById('status').textContent") not in ("", "Checking\u2026")


def _open_link(driver, link: str) -> None:
    """Open a share link as a new page does (its settings read from the hash at load) with one
    load of the studio (about half a second of chromium's CPU each). From another page ``get``
    loads it; from the studio's own page (only the hash differs) ``get`` just changes the hash,
    so a reload follows."""
    if driver.current_url.split("#")[0] == link.split("#")[0]:
        driver.get(link)
        driver.refresh()
    else:
        driver.get(link)


def _downloaded(folder: Path, name: str, timeout=30.0) -> Path:
    path = folder / name
    # a look at the folder, not a question to the page: asked often (a download takes milliseconds)
    _until(lambda: path.exists() and not (folder / (name + ".crdownload")).exists(), timeout, f"download of {name}",
           every=0.01)
    return path


def test_a_teacher_builds_a_worksheet_and_the_yaml_rebuilds_it_byte_for_byte(server, browser, tmp_path):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    url, root = server
    browser.get(url)
    Select(_by_id(browser, "template")).select_by_value("worksheet")
    _by_id(browser, "load-template").click()
    _until(lambda: _by_id(browser, "f-title").get_attribute("value") == "Logic Grids for the Classroom")
    _retype(browser, "f-title", "Friday puzzles for 4B")
    _retype(browser, "f-author", "Mrs Lee")
    _until(lambda: "Friday puzzles for 4B" in _by_id(browser, "plan").text, 90, "the plan to follow the title")
    assert _by_id(browser, "status").get_attribute("data-ms")  # the check's own time (measured in bench/)
    # another interface language, by keyboard: browsing the menu changes nothing, the button switches
    menu = _by_id(browser, "lang")
    menu.send_keys(Keys.ARROW_DOWN)  # en -> es
    assert browser.execute_script("return document.documentElement.lang") == "en"
    menu.send_keys(Keys.TAB)
    assert browser.switch_to.active_element.get_attribute("id") == "lang-go"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    _until(lambda: browser.execute_script("return document.documentElement.lang") == "es", 30, "the switch")
    _until(lambda: _by_id(browser, "f-author").get_attribute("value") == "Mrs Lee", 30, "the kept form")
    assert _by_id(browser, "f-title").get_attribute("value") == "Friday puzzles for 4B"
    _until(lambda: "páginas" in _by_id(browser, "plan").text and "Friday" in _by_id(browser, "plan").text, 60,
           "the plan in Spanish")
    assert " pages" not in _by_id(browser, "plan").text
    shared = browser.current_url
    _by_id(browser, "build").click()
    _until(lambda: _by_id(browser, "results").is_displayed(), 120, "the build")
    assert browser.find_elements("css selector", "#thumbs img")
    links = {a.text: a for a in browser.find_elements("css selector", "#downloads a")}
    assert set(links) == {"worksheet.pdf", "worksheet.json", "worksheet-answers.pdf", "worksheet.yaml"}
    for name in ("worksheet.pdf", "worksheet.json", "worksheet.yaml"):
        links[name].click()
        _downloaded(browser.downloads, name)
    got = browser.downloads
    yaml_text = (got / "worksheet.yaml").read_text()
    assert "Friday puzzles for 4B" in yaml_text and "Mrs Lee" in yaml_text
    shutil.copy(got / "worksheet.yaml", tmp_path / "worksheet.yaml")
    result = CliRunner().invoke(cli, ["build", str(tmp_path / "worksheet.yaml"), "--out", str(tmp_path / "cli"), "-q"])
    assert result.exit_code == 0, result.output
    for name in ("worksheet.pdf", "worksheet.json"):
        assert (tmp_path / "cli" / name).read_bytes() == (got / name).read_bytes(), name
    # the share link reopens the same form (a new load of the studio: its fields come from the link)
    _open_link(browser, shared)
    _until(lambda: _by_id(browser, "f-title").get_attribute("value") == "Friday puzzles for 4B", 60, "the shared form")
    assert _by_id(browser, "f-author").get_attribute("value") == "Mrs Lee"


def test_an_opened_yaml_shows_each_mistake_beside_its_field(server, browser, tmp_path):
    url, _ = server
    bad = tmp_path / "mistakes.yaml"
    bad.write_text("# a teacher's file with typos\ntitle: Typos\ntitel: Oops\nlayout: worksheeet\nper_page: 5\n"
                   "sections:\n  - variant: takuzu\n    size: 7\n    count: 0\n")
    with pytest.raises(ConfigError) as cli_errors:
        load_book(bad)
    messages = {i.message for i in cli_errors.value.issues}
    browser.get(url)
    _until(lambda: _settled(browser))
    _by_id(browser, "open-yaml").send_keys(str(bad))
    _until(lambda: _by_id(browser, "f-title").get_attribute("value") == "Typos", 60, "the opened file")
    _until(lambda: "problem" in _by_id(browser, "status").text, 60, "the errors")
    where = {"f-titel": "unknown key 'titel'", "f-layout": "layout must be one of",
             "f-per_page": "per_page must be one of", "f-sections-0-size": "takuzu size must be one of",
             "f-sections-0-count": "count must be between"}
    for ident, start in where.items():
        shown = _by_id(browser, "err-" + ident).text
        assert start in shown, (ident, shown)
        assert any(m in shown for m in messages if m.startswith(start)), (ident, shown)
        assert _by_id(browser, ident).get_attribute("aria-invalid") == "true"
    assert _by_id(browser, "f-sections-0-size-other").get_attribute("value") == "7"  # the size as opened
    assert not _by_id(browser, "general-errors").text  # every one of them sits at its field
    assert not _by_id(browser, "build").is_enabled()


def test_a_cancelled_build_leaves_nothing_behind(server, browser):
    url, root = server
    link = url + "#s=" + base64.urlsafe_b64encode(json.dumps({"n": "slow", "d": SLOW}).encode()).decode().rstrip("=")
    _open_link(browser, link)
    _until(lambda: _by_id(browser, "f-title").get_attribute("value") == "Slow", 60, "the shared settings")
    _until(lambda: _by_id(browser, "build").is_enabled(), 30, "a buildable form")
    _by_id(browser, "build").click()
    _until(lambda: browser.execute_script("return document.body.dataset.job") == "running", 30, "the build to start")
    _until(lambda: _by_id(browser, "progress-text").text, 10, "progress")
    folders = list((root / "jobs").iterdir())
    _by_id(browser, "cancel").click()
    _until(lambda: "Cancelled" in _by_id(browser, "build-message").text, 60, "the cancel")
    for folder in folders:  # the running build's folder, temporary files and all, is gone
        assert not any(folder.glob("**/slow*")), list(folder.glob("**/*"))
    assert _by_id(browser, "build").is_enabled()


def test_pictures_are_typed_as_text_art_and_a_file_is_refused_beside_them(server, browser, tmp_path):
    url, _ = server
    opened = tmp_path / "pics.yaml"
    opened.write_text("title: Pics\nsections:\n  - variant: nonogram\n    pictures:\n      - |\n"
                      + "".join(f"        {row}\n" for row in ("#....", ".#...", "..#..", "...#.", "....#"))
                      + "      - cat.png\n", encoding="utf-8")
    browser.get(url)
    _until(lambda: _settled(browser))
    _by_id(browser, "open-yaml").send_keys(str(opened))
    _until(lambda: _by_id(browser, "f-title").get_attribute("value") == "Pics", 60, "the opened file")
    _until(lambda: "studio reads no files" in _by_id(browser, "err-f-sections-0-pictures").text, 60, "the error")
    for hidden in ("count", "size-other", "difficulty"):  # each picture sets them
        assert not browser.find_elements("id", f"f-sections-0-{hidden}"), hidden
    assert _by_id(browser, "f-sections-0-pictures").get_attribute("value").startswith("#....\n.#...")
    _retype(browser, "f-sections-0-pictures", "..##..\n.####.\n######\n.#..#.\n.####.")
    _until(lambda: _settled(browser) and _by_id(browser, "build").is_enabled(), 60, "a buildable form")
    assert not _by_id(browser, "err-f-sections-0-pictures").text


# ----- the newer families and a translated page (#21, #23 point 4) --------------------

@pytest.mark.browser
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_nonogram_section_in_german_and_the_phone_bar_follows_the_build(server, browser, monkeypatch):  # noqa: F811
    from concurrent.futures import Future

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    # The Kakuro the form passes through below is there for its size boxes: its exact plan (a 10x10
    # worked example, 3-10 s of the planner's CPU, with the Nonogram's plan queued behind it) is
    # left queued, as a plan not yet started is when the next change comes (plan_future cancels it).
    real_plan_future = designer.plan_future

    def kakuro_plan_queued(checked, workers, language="en", wait=True):
        if checked.book is not None and any(s.variant == "kakuro" for s in checked.book.sections):
            with designer._PLAN_LOCK:
                designer._PLANS.setdefault((checked.yaml, workers, language), Future())
        return real_plan_future(checked, workers, language, wait)

    monkeypatch.setattr(designer, "plan_future", kakuro_plan_queued)
    url, _ = server
    data = {"title": "Bar", "sections": [{"variant": "nonogram", "count": 1, "size": 5, "difficulty": "easy"}]}
    link = url + "?lang=de#s=" + base64.urlsafe_b64encode(json.dumps({"n": "bar", "d": data}).encode()).decode().rstrip("=")
    browser.set_window_size(390, 900)
    try:
        _open_link(browser, link)
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
    _open_link(browser, url + "#s=" + base64.urlsafe_b64encode(json.dumps({"n": "late", "d": data}).encode()).decode().rstrip("="))
    _until(lambda: "the plan took too long to make" in _by_id(browser, "plan").text, 60, "the reason under the draft")
    assert "Late" in _by_id(browser, "plan").text  # the draft stays
