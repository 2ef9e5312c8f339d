"""The words a reader meets: rules that name the digits, box shapes and symbol counts of
the sizes they cover, never a bare "N"; worked examples of a size the section prints;
the grammatical forms that vary by language (box shape words per size, plural forms of
counts, puzzle names in the case a sentence needs)."""

from __future__ import annotations

import re

import pytest

from bookgen.book import worked_example
from bookgen.core.i18n import Plural
from bookgen.core.rules import printed_rules
from bookgen.i18n import languages, name_forms, translation, with_name
from bookgen.layout.geometry import BookShape, PageSpec, SectionShape, Trim, rule_reminder
from bookgen.variants.binarygrid import BinaryGrid
from bookgen.variants.registry import VARIANTS as REGISTERED
from bookgen.variants.registry import get_variant
from i18n_messages import extract

VARIANTS = ("takuzu", "tango", "kenken", "sudoku", "futoshiki", "killer")
BARE_N = re.compile(r"\bN\b|N\s*[−-]\s*1|N\(N")


def rules_at(name: str, sizes: tuple[int, ...], language: str = "en") -> str:
    variant = get_variant(name)
    t = translation(language)
    return " ".join(t(line) for line in printed_rules(variant, variant.parse_rules({}, sizes[0]), sizes))


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_every_size_names_its_digits_or_counts(name):
    """At each size a variant prints, its rules say which digits (or how many of each
    symbol a line holds) in every language: "1 to 9", "1 až 9", "от 1 до 9", "5 nul".
    Every registered variant whose rules speak of digits, and every binary grid."""
    variant = get_variant(name)
    binary = isinstance(variant, BinaryGrid)
    # Star Battle, Queens and Nonograms have no digits to name: only the bare-N check applies
    digits = binary or re.search(r"digit|height", rules_at(name, (variant.default_size,)))
    for size in variant.sizes:
        for language in languages():
            text = rules_at(name, (size,), language)
            if binary:
                assert re.search(rf"\b{size // 2}\b", text), (name, size, language, text)
            elif digits:  # Kakuro's digits are 1 to 9 at every size (its size counts blocks)
                last = 9 if variant.rectangular else size
                assert re.search(rf"\b1\b.{{1,12}}\b{last}\b", text), (name, size, language, text)
            assert not BARE_N.search(text), (name, size, language, text)


def test_no_printed_text_says_a_bare_n():
    """Neither a rules sentence nor a technique nor any other message a book prints tells a
    child "1 to N" or "N(N+1)/2", in any language."""
    for language in languages():
        t = translation(language)
        for key in extract():
            if isinstance(key, tuple) or "\x04" in key:
                continue
            assert not BARE_N.search(t(key)), (language, key, t(key))


def test_a_rule_set_of_several_sizes_names_each():
    text = rules_at("sudoku", (6, 9))
    assert "on 6\u00d76 grids the digits 1 to 6 and 2\u00d73 boxes" in text
    assert "on 9\u00d79 grids the digits 1 to 9 and 3\u00d73 boxes" in text
    futoshiki = rules_at("futoshiki", (5, 7))
    assert "on 5\u00d75 grids the digits 1 to 5; on 7\u00d77 grids the digits 1 to 7" in futoshiki
    assert "3 of each on 6\u00d76 grids; 4 of each on 8\u00d78 grids" in rules_at("takuzu", (6, 8))
    assert "1 to 9" in rules_at("killer", (9,)) and "3\u00d73 box" in rules_at("killer", (9,))


@pytest.mark.parametrize("language, square, rectangle", [
    ("en", "every bold 3\u00d73 box", "every bold 2\u00d73 box"),
    ("cs", "tučně ohraničený čtverec 3\u00d73", "tučně ohraničený obdélník 2\u00d73"),
    ("ru", "каждом квадрате 3\u00d73", "каждом прямоугольнике 2\u00d73"),
    ("de", "jedes fett umrandete 3\u00d73-Quadrat", "jedes fett umrandete 2\u00d73-Rechteck"),
    ("fr", "chaque carré 3\u00d73", "chaque rectangle 2\u00d73"),
    ("es", "cada cuadrado de 3\u00d73", "cada rectángulo de 2\u00d73"),
])
def test_box_shape_words_follow_the_size(language, square, rectangle):
    """A 6×6 Sudoku's 2×3 boxes are rectangles, a 9×9's and a 4×4's squares: the words
    differ where the language has two (Czech obdélník / čtverec)."""
    assert square in rules_at("sudoku", (9,), language)
    assert rectangle in rules_at("sudoku", (6,), language)
    assert square.replace("3\u00d73", "2\u00d72") in rules_at("sudoku", (4,), language)
    assert rectangle not in rules_at("sudoku", (9,), language)
    assert rectangle in rules_at("killer", (6,), language)


ONE = "Each row and each column holds {count} 0 and {count} 1."
MANY = "Each row and each column holds {count} 0s and {count} 1s."


@pytest.mark.parametrize("language, expected", [
    ("cs", {1: "1 nulu a 1 jedničku", 2: "2 nuly a 2 jedničky", 5: "5 nul a 5 jedniček", 21: "21 nul a 21 jedniček"}),
    ("ru", {1: "1 ноль и 1 единица", 2: "2 нуля и 2 единицы", 5: "5 нулей и 5 единиц", 21: "21 ноль и 21 единица"}),
    ("de", {1: "1 Null und 1 Eins", 2: "2 Nullen und 2 Einsen", 5: "5 Nullen und 5 Einsen", 21: "21 Nullen und 21 Einsen"}),
])
def test_counts_take_the_languages_plural_forms(language, expected):
    t = translation(language)
    for count, words in expected.items():
        assert words in t(Plural(ONE, MANY, count)), (language, count)
    tango = translation(language)(get_variant("tango").rules_for({}, (8,))[2])
    assert {"cs": "4 slunce a 4 měsíce", "ru": "4 солнца и 4 луны", "de": "4 Sonnen und 4 Monde"}[language] in tango


def test_names_take_the_case_a_sentence_needs():
    """The Czech how-to heading and rules box put the name in the genitive ("Pravidla Tanga"),
    the Russian heading in the accusative; a name the catalog doesn't know (a section's own
    title) gets a noun that carries the case ("Pravidla hlavolamu KenKen", "головоломку «…»")."""
    cs, ru, en = translation("cs"), translation("ru"), translation("en")
    assert with_name(cs, "How to play {name}", "Tango") == "Návod k luštění Tanga"
    assert with_name(cs, "How to play {name}", "Sudoku") == "Návod k luštění sudoku"
    assert rule_reminder("KenKen", ["A.", "B.", "C."], cs).startswith("Pravidla hlavolamu KenKen: ")
    assert rule_reminder("Tango", ["A.", "B.", "C."], cs).startswith("Pravidla Tanga: ")
    assert with_name(ru, "How to play {name}", "KenKen") == "Как решать головоломку «KenKen»"
    assert with_name(ru, "{name} rules: {text}", "Судоку", text="…") == "Правила судоку: …"
    assert with_name(en, "How to play {name}", "KenKen") == "How to play KenKen"
    assert name_forms(translation("fr"), "Takuzu")["name_gen"] == "du takuzu"


def test_every_title_has_the_case_forms_its_catalog_asks_for():
    """A catalog whose templates ask for ``{name_gen}`` gives each variant title in that case
    (else the title would print with the stand-in noun of an unknown name)."""
    from bookgen.i18n import translator

    for language in languages():
        catalog = translator(language)
        asked = {case for key in ("How to play {name}", "{name} rules: {text}", "{name} techniques")
                 for case in re.findall(r"\{name_(\w+)\}", catalog.gettext(key))}
        for name in VARIANTS:
            title = get_variant(name).title
            for case in asked:
                assert f"{case}\x04{title}" in catalog._catalog, (language, case, title)


def test_rule_sets_and_examples_take_the_sizes_they_print(monkeypatch):
    import bookgen.book as book_module
    from types import SimpleNamespace

    # Which size the example takes is the point; making it (seconds at 9x9) is tested elsewhere.
    monkeypatch.setattr(book_module, "_teaching_example", lambda variant, size, *rest: SimpleNamespace(size=size))
    spec = PageSpec(Trim("letter", 612, 792))
    sections = (SectionShape("A", "sudoku", (9, 9), rule_text=("x",)),
                SectionShape("B", "sudoku", (6,), rule_text=("x",)),
                SectionShape("C", "killer", (9,), rule_text=("y",)))
    shape = BookShape(spec, sections)
    assert shape.rule_set_sizes(0) == (6, 9) and shape.rule_set_sizes(2) == (9,)
    # a 9x9-only Sudoku book explains a 9x9; a Killer book of 6x6 and 9x9 the 6x6
    assert worked_example(7, "sudoku", {}, (9,)).size == 9
    assert worked_example(7, "killer", {}, (9, 6)).size == 6
    assert worked_example(7, "sudoku", {}).size == 6  # a how-to on its own: the smallest that teaches


def test_contexts_compile_as_gettext_reads_them():
    """A msgctxt entry is keyed as a .mo file keys it, and pgettext finds it (plural ones too);
    the same English in two contexts keeps two translations."""
    import gettext
    from io import BytesIO

    from bookgen.i18n import mo_bytes, read_po

    po = ('msgctxt "square box"\nmsgid "box"\nmsgstr "čtverec"\n\n'
          'msgctxt "rectangular box"\nmsgid "box"\nmsgstr "obdélník"\n\n'
          'msgctxt "c"\nmsgid "{count} x"\nmsgid_plural "{count} xs"\nmsgstr[0] "a"\nmsgstr[1] "b"\n')
    messages = read_po(po)
    assert messages["square box\x04box"] == "čtverec" and messages["rectangular box\x04box"] == "obdélník"
    header = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n != 1);\n"
    catalog = gettext.GNUTranslations(BytesIO(mo_bytes({"": header, **messages})))
    assert catalog.pgettext("square box", "box") == "čtverec"
    assert catalog.pgettext("rectangular box", "box") == "obdélník"
    assert catalog.npgettext("c", "{count} x", "{count} xs", 5) == "b"


def test_the_german_catalog_addresses_the_reader_one_way():
    """Books, how-to pages and the studio speak to the reader as "Sie" throughout: a page that
    switched to "du" mid-book (as the first Skyscrapers strings did) reads like two authors."""
    from bookgen.i18n import catalog_path, read_po

    informal = re.compile(r"\b(du|dich|dir|dein|deine|deinen|deinem|deiner|deines)\b", re.IGNORECASE)
    catalog = read_po(catalog_path("de").read_text(encoding="utf-8"))
    assert len(catalog) > 300
    found = {msgid: text for msgid, text in catalog.items()
             if any(informal.search(t) for t in (text if isinstance(text, (list, tuple)) else [text]))}
    assert not found
