"""Languages: complete catalogs, matching placeholders, drawable glyphs, the
``language`` key, and books printed from the catalogs."""

from __future__ import annotations

import gettext
import pickle
import re
from pathlib import Path
from io import BytesIO

import pytest
from pypdf import PdfReader

from bookgen.book import build
from bookgen.config import ConfigError, load_book
from bookgen.core.i18n import CASES, N_, Plural, Text, join_and, join_or
from bookgen.i18n import catalog_path, languages, mo_bytes, read_po, translate, translation, translator, with_name
from bookgen.layout.textfit import unprintable
from bookgen.variants.registry import get_variant
from i18n_messages import extract

SHIPPED = ("cs", "de", "en", "es", "fr", "ru")
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
NPLURALS = re.compile(r"nplurals\s*=\s*(\d+)")


def catalog(language: str) -> dict:
    return read_po(catalog_path(language).read_text("utf-8"))


def placeholders(text: str) -> list[str]:
    """The placeholders of a message; a name asked for in a case (``{name_gen}``) counts as
    the ``{name}`` it is a form of."""
    return sorted(re.sub(r"^name_(%s)$" % "|".join(CASES), "name", p) for p in PLACEHOLDER.findall(text))


def test_the_promised_languages_ship():
    assert set(SHIPPED) <= set(languages())


def test_remembered_titles_and_languages_equal_the_plain_ones():
    """``name_forms`` keeps each language's printed titles (``i18n._TITLES``) and ``languages``
    its listing of the catalogs: both as read afresh."""
    import bookgen.i18n as i18n

    assert languages() == languages.__wrapped__()
    for language in SHIPPED:
        forms = i18n.name_forms(translation(language), "Tango")
        assert i18n._TITLES[language] == i18n.titles_plain(language), language
        assert forms == i18n.name_forms(translation(language), "Tango")
    assert with_name(translation("cs"), "How to play {name}", "Tango") != "How to play Tango"


def test_the_code_marks_its_printed_words():
    """The extraction sees the layout, the levels and every variant's text."""
    found = extract()
    assert "How to play {name}" in found and "Expert" in found
    assert ("Trim size {trim}; {pages} page.", "Trim size {trim}; {pages} pages.") in found
    for name in ("takuzu", "tango", "kenken", "sudoku", "futoshiki", "killer"):
        variant = get_variant(name)
        assert variant.title in found, name
        for technique in variant.techniques:
            assert technique.title in found and technique.description in found, (name, technique.name)


@pytest.mark.parametrize("language", languages())
def test_every_catalog_is_complete_and_current(language):
    """Every message the code marks is translated (each plural form too), and the catalog
    holds no message the code no longer uses."""
    messages = catalog(language)
    header = messages.pop("")
    nplurals = int(NPLURALS.search(header).group(1))
    wanted = set(extract())
    missing = sorted(map(str, wanted - set(messages)))
    assert not missing, f"{language}: missing {missing[:5]}"
    stale = sorted(map(str, set(messages) - wanted))
    assert not stale, f"{language}: no longer in the code {stale[:5]}"
    for key, value in messages.items():
        if isinstance(key, tuple):
            assert len(value) == nplurals and all(value), (language, key)
        else:
            assert value, (language, key)


@pytest.mark.parametrize("language", languages())
def test_translations_keep_the_placeholders(language):
    for key, value in catalog(language).items():
        if key == "":
            continue
        if isinstance(key, tuple):
            # the form for many says all the plural says; one for a single thing may say less
            # (English "the one cell left ... must be 4" has no list of struck candidates)
            assert placeholders(value[-1]) == placeholders(key[1]), (language, key, value[-1])
            allowed = set(placeholders(key[0].split("\x04")[-1])) | set(placeholders(key[1]))
            for form in value:
                assert set(placeholders(form)) <= allowed, (language, key, form)
        else:
            assert placeholders(value) == placeholders(key), (language, key, value)


@pytest.mark.parametrize("language", languages())
def test_the_fonts_draw_every_translation(language):
    """Every character of every catalog string is in DejaVu Sans and Sans Bold."""
    for key, value in catalog(language).items():
        if key == "":
            continue
        for text in value if isinstance(value, list) else [value]:
            assert unprintable(text) is None, (language, text, unprintable(text))


def test_compiled_catalogs_follow_gettext():
    """The in-memory .mo reads back through gettext, plural rules included."""
    cs = translator("cs")
    assert isinstance(cs, gettext.GNUTranslations)
    trim = ("Trim size {trim}; {pages} page.", "Trim size {trim}; {pages} pages.")
    forms = [cs.ngettext(*trim, n).format(trim="A4", pages=n) for n in (1, 3, 5)]
    assert forms == ["Formát A4; 1 strana.", "Formát A4; 3 strany.", "Formát A4; 5 stran."]
    ru = translator("ru")
    assert [ru.ngettext(*trim, n).format(trim="A4", pages=n) for n in (21, 22, 25, 11)] == [
        "Формат A4; 21 страница.", "Формат A4; 22 страницы.", "Формат A4; 25 страниц.", "Формат A4; 11 страниц."]
    fuzzy = read_po('msgid "a"\nmsgstr "b"\n\n#, fuzzy\nmsgid "c"\nmsgstr "d"\n')
    assert fuzzy == {"a": "b"}
    one = gettext.GNUTranslations(BytesIO(mo_bytes({"": "", "x": "y"})))
    assert one.gettext("x") == "y" and one.gettext("z") == "z"


def test_texts_translate_whole_and_survive_pickling():
    ops = join_and([N_("subtracting"), N_("dividing")])
    text = Text(N_("For {ops}, take the larger digit first; these cages always have two cells."), ops=ops)
    assert text == "For subtracting and dividing, take the larger digit first; these cages always have two cells."
    assert translate(translator("cs"), text).startswith("Klece s odčítáním a dělením mají")
    listed = join_or(["+", "\u2212", "\u00d7"])
    assert listed == "+, \u2212 or \u00d7" and translation("de")(listed) == "+, \u2212 oder \u00d7"
    assert pickle.loads(pickle.dumps(text)) == text
    assert translate(translator("cs"), pickle.loads(pickle.dumps(text))) == translate(translator("cs"), text)
    cage = Plural("A cage has at most {count} cell.", "A cage has at most {count} cells.", 5)
    assert cage == "A cage has at most 5 cells."
    assert translation("cs")(cage) == "Klec má nejvýše 5 políček."
    assert translation("de")(pickle.loads(pickle.dumps(cage))) == "Ein Käfig hat höchstens 5 Felder."
    assert translation("en")("An unmarked title") == "An unmarked title"


def test_every_rules_variant_translates(tmp_path):
    """Each option combination's rule sentences are in the catalog, for every language."""
    combos = {"takuzu": [{}, {"max_run": 3}, {"unique_lines": False}],
              "tango": [{}, {"max_run": 3, "unique_lines": True}],
              "kenken": [{}, {"ops": ["+"], "show_ops": False}, {"ops": ["+", "-"], "show_ops": False},
                         {"ops": ["+", "/"]}, {"singles": "none", "max_cage": 6}],
              "sudoku": [{}, {"diagonal": True}], "futoshiki": [{}], "killer": [{}, {"diagonal": True}]}
    for name, options in combos.items():
        variant = get_variant(name)
        for raw in options:
            rules = variant.parse_rules(raw, 9 if name == "killer" else 8)
            for language in languages():
                if language == "en":
                    continue
                t = translation(language)
                for line in variant.rules_for(rules):
                    assert t(line) != line, (name, raw, language, line)


def test_an_unknown_language_is_a_located_error(write_config):
    path = write_config("title: T\nlanguage: klingon\nsections:\n  - variant: takuzu\n    count: 2\n")
    with pytest.raises(ConfigError) as err:
        load_book(path)
    message = str(err.value)
    assert f"{path}:2:11:" in message
    assert "unknown language 'klingon'" in message and "cs, de, en, es, fr, ru" in message


CZECH = """\
title: Malá kniha
author: Jana Nováková
seed: 5
language: cs
sections:
  - variant: takuzu
    size: 6
    count: 2
    difficulty: easy
  - variant: sudoku
    size: 4
    count: 1
    difficulty: easy
"""


def test_a_czech_book_prints_czech_and_stays_deterministic(write_config, tmp_path):
    book = load_book(write_config(CZECH))
    assert [s.title for s in book.sections] == ["Binairo", "Sudoku"]
    build(book, tmp_path / "a", workers=1)
    build(book, tmp_path / "b", workers=2)
    for name in ("book.pdf", "book.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "a" / "book.pdf").pages)
    text = " ".join(text.split())
    for words in ("Obsah", "Návod k luštění Binairo", "Řešený příklad", "Postupy, které budete potřebovat",
                  "Lehká", "Úloha 1", "Řešení na straně", "Všechna práva", "3 úlohy"):
        assert words in text, words
    for english in ("How to play", "Contents", "Answers on", "Techniques you'll need", "Puzzle 1"):
        assert english not in text, english


def test_worksheet_rule_boxes_are_sized_for_the_translation(write_config):
    """A worksheet's rules box gets as many lines as the translated reminder takes at the
    caption size, so a longer language grows the box instead of overflowing it."""
    from bookgen.layout.geometry import reminder_width, rule_reminder
    from bookgen.layout.textfit import break_lines

    sections = ("  - variant: kenken\n    size: 5\n    count: 1\n    difficulty: easy\n"
                "    rules: {ops: [+, -], show_ops: false}\n")
    counts = {}
    for language in languages():
        book = load_book(write_config(f"title: T\nlayout: worksheet\npage: a4\nlanguage: {language}\n"
                                      f"sections:\n{sections}", language))
        shape, t = book.shape, translation(language)
        variant = get_variant("kenken")
        text = rule_reminder(t(variant.title), variant.rules_for(dict(book.sections[0].rules)), t)
        lines = break_lines(text, shape.style.small, reminder_width(shape.spec, shape.style))
        assert shape.style.reminder_lines >= len(lines), language
        counts[language] = len(lines)
    assert counts["de"] > counts["en"]  # German takes more room, and gets it


@pytest.mark.parametrize("large", [False, True])
def test_translated_headings_fit_a_6x9_page(write_config, large):
    """Every translated heading ("Jak hrát Kalkudoku", "Калькудоку: приёмы", the walkthrough's)
    fits one line of a 6 x 9 in page at no less than its floor: the config check measures the
    book's headings in its language and would refuse the page otherwise."""
    from bookgen.layout.geometry import Style
    from bookgen.layout.textfit import fit_size, heading_room

    variants = ("takuzu", "tango", "kenken", "sudoku", "futoshiki", "killer")
    sections = "".join(f"  - variant: {v}\n    size: 6\n    count: 1\n    difficulty: easy\n    explain: true\n"
                       for v in variants)
    for language in languages():
        book = load_book(write_config(f"title: T\npage: 6x9\nlarge_print: {str(large).lower()}\n"
                                      f"language: {language}\nsections:\n{sections}", language))
        t = translation(language)
        room = heading_room(Style(large), 4.5 * 72)  # 6 in less the widest gutter and margins
        for v in variants:
            name = t(get_variant(v).title)
            for heading in (with_name(t, "How to play {name}", name), with_name(t, "{name} techniques", name)):
                assert fit_size(heading, room) is not None, (language, heading)
        assert book.language == language


def test_numbers_take_the_languages_decimal_mark():
    from bookgen.layout.render import decimal

    assert decimal(8.5, translation("en")) == "8.5" and decimal(8.5, translation("de")) == "8,5"
    assert decimal(11.0, translation("cs")) == "11"


def _translated_whole(reasons, english):
    """Each reason: English as its ``str``, survives pickling, and no ``english`` word left in
    any other language."""
    for reason in reasons:
        assert translation("en")(reason) == str(reason)
        assert pickle.loads(pickle.dumps(reason)) == reason
        for language in SHIPPED:
            if language != "en":
                said = translation(language)(reason)
                assert not english.search(said), (language, said)


def test_latin_square_reasons_translate_whole():
    """The Latin-square engines' reasons (houses, signs, cages) are ``Text``s: English as ``str`` (what
    ``solve --explain`` prints), and in every other language with no English word left,
    the cells, houses and digits filled in as values in that language."""
    import random

    from bookgen.core.difficulty import Level
    from bookgen.solve.houses import cell_text

    reasons = []
    # the hard Killer from "reasons-6": about half the time of "reasons", and every reason it gave and three more
    for name, size, seed in (("sudoku", 9, "reasons"), ("futoshiki", 5, "reasons"), ("kenken", 6, "reasons"),
                             ("killer", 9, "reasons-6")):
        variant = get_variant(name)
        puzzle = variant.generate(size, variant.parse_rules({}, size), Level.HARD, random.Random(seed))
        steps = variant.explain(puzzle)[0]
        assert steps and all(isinstance(step.reason, Text) for step in steps), name
        reasons += [step.reason for step in steps]
    assert any(reason.template.startswith("{region} must add up") for reason in reasons)  # Killer's rule of 45
    english = re.compile(r"\b(rows?|columns?|box|can|only|must|fits?|every|digits?|either|suppose|cells?|"
                         r"adds?|inside|outside|wholly|stick|edge|less|lying)\b")
    _translated_whole(reasons, english)
    cs = translation("cs")(Text(N_("{cell} must be {digit}"), cell=cell_text(21, 9), digit=4))
    assert cs == "políčko (řádek 3, sloupec 4) musí být 4"


def test_binary_grid_reasons_translate_whole():
    """Takuzu's and Tango's reasons (pairs, sandwiches, balance, signs, copies, trials) are
    ``Text``s: English as ``str``, in every other language with no English word left, the
    symbols named as the book prints them and counted in the language's plural forms."""
    import random

    from bookgen.core.difficulty import Level

    reasons = []
    for name, size, level in (("takuzu", 8, Level.HARD), ("tango", 6, Level.HARD),
                              ("takuzu", 6, Level.EXPERT), ("tango", 6, Level.EXPERT)):
        variant = get_variant(name)
        for seed in range(3):
            puzzle = variant.generate(size, variant.parse_rules({}, size), level, random.Random(f"reasons{seed}"))
            steps = variant.explain(puzzle)[0]
            assert steps and all(isinstance(step.reason, Text) for step in steps), name
            reasons += [step.reason for step in steps]
    opening = {reason.template.split(" ")[0] for reason in reasons}
    assert {"In", "Suppose", "{line}"} <= opening, opening
    english = re.compile(r"\b(rows?|columns?|suns?|moons?|[01]s|hold|side|half|ways?|only|copy|empty|agree|"
                         r"already|would|suppose|cells?|two|three|four|five|six)\b")
    _translated_whole(reasons, english)
    from bookgen.solve.binary import BinaryEngine

    engine = BinaryEngine(6, 2, False, ("moon", "sun"))
    assert [translation(lang)(engine._counted(1, 5)) for lang in ("cs", "ru")] == ["5 sluncí", "5 солнц"]
    assert [translation(lang)(engine._counted(0, 3)) for lang in ("cs", "ru")] == ["3 měsíce", "3 луны"]


def test_kakuro_and_star_battle_reasons_translate_whole():
    """Kakuro's, Star Battle's and Queens' reasons are ``Text``s too: English as ``str``, in
    every other language with no English word left (the units and cells filled in as values)."""
    import random

    from bookgen.core.difficulty import Level

    reasons = []
    # seeds that generate in a fraction of a second (a hard 8x8 Kakuro from "reasons" took 2.4 s; the
    # expert Star Battle from "reasons-1" gives the same reasons as from "reasons" in a twentieth of the time)
    for name, size, rules, level, seed in (("kakuro", 8, {}, Level.HARD, "reasons-1"),
                                           ("starbattle", 8, {}, Level.EXPERT, "reasons-1"),
                                           ("starbattle", 8, {"stars": 2}, Level.HARD, "reasons"),
                                           ("queens", 7, {}, Level.HARD, "reasons")):
        variant = get_variant(name)
        puzzle = variant.generate(size, variant.parse_rules(rules, size), level, random.Random(seed))
        steps = variant.explain(puzzle)[0]
        assert steps and all(isinstance(step.reason, Text) for step in steps), name
        reasons += [step.reason for step in steps]
    used = {reason.template for reason in reasons}
    assert any("queen" in t for t in used) and any("2\u00d72" in t for t in used) and any("{inner}" in t for t in used)
    english = re.compile(r"\b(rows?|columns?|regions?|stars?|queens?|cells?|empty|around|inside|holds?|"
                         r"touch|would|assume|sums?|runs?|only|less|ways?)\b")
    _translated_whole(reasons, english)


def test_the_plan_says_one_page_in_the_singular():
    # "Lösungsdatei …: 1 Seiten" was the studio's German plan of a one-page answer key
    from bookgen.config import load_book
    from bookgen.i18n import translate, translator
    from bookgen.plan import plan_report

    book = load_book(Path(__file__).parent.parent / "configs" / "classroom.yaml")
    german = translator("de")
    lines = plan_report(book, 1, lambda s: translate(german, s)).splitlines()
    assert [line for line in lines if "answers.pdf" in line] == ["Lösungsdatei classroom-answers.pdf: 1 Seite"]
    assert "answer file classroom-answers.pdf: 1 page" in plan_report(book, 1).splitlines()


@pytest.mark.parametrize("language", languages())
def test_po_strings_read_as_python_reads_them(language):
    """``po_string`` (no AST: thread-safe on CPython 3.11) reads every quoted string of a shipped
    catalog as ``ast.literal_eval`` does."""
    import ast

    from bookgen.i18n import po_string

    quoted = [line.strip() if line.strip().startswith('"') else line.strip().partition(" ")[2].strip()
              for line in catalog_path(language).read_text("utf-8").splitlines()
              if line.strip().startswith(('"', "msgid", "msgstr", "msgctxt"))]
    assert len(quoted) > 1000
    for text in quoted + ['"a\\"b\\\\c\\td\\n"']:
        assert po_string(text) == ast.literal_eval(text), text


def test_queens_steps_say_colour_region_as_its_rules_do():
    """Queens' rules say "colour region" ("Farbregion"); its steps and technique titles say it
    too, while Star Battle's say "Gebiet" (the two share their step messages)."""
    import random

    from bookgen.core.difficulty import Level
    from bookgen.variants.registry import get_variant

    de = translation("de")
    for name, want, not_want in (("queens", "Farbregion", "Gebiet"), ("starbattle", "Gebiet", "Farbregion")):
        variant = get_variant(name)
        puzzle = variant.generate(7, variant.parse_rules({}, 7), Level.MEDIUM, random.Random(5))
        words = [de(step.reason) for step in variant.explain(puzzle)[0]]
        words += [de(t.title) for t in variant.techniques]
        regions = [w for w in words if want in w]
        assert regions and not any(not_want in w for w in words), (name, words)
