"""Every word of the studio's page, marked for the catalogs the books use.

The page's script receives them translated into the chosen language, keyed
by the English text; field labels come from here too (a key added to the
config models gets its key as a label until it gains one here).
"""

from __future__ import annotations

from typing import Callable


def N_(text: str) -> str:
    """Marks a message for extraction; the page translates it."""
    return text


UI = (
    N_("bookgen studio"), N_("Design a puzzle book"), N_("Start from a template"), N_("Open a YAML file"),
    N_("Load"), N_("Interface language"), N_("Book"), N_("File name"), N_("Sections"), N_("Section {n}"),
    N_("Add a section"), N_("Remove this section"), N_("Move up"), N_("Default"), N_("Custom size"),
    N_("Other sizes (rows\u00d7columns)"),
    N_("Width"), N_("Height"), N_("One level"), N_("A ramp"), N_("Blocks"), N_("From"), N_("To"),
    N_("Blocks such as easy: 4, medium: 4"), N_("Rules"), N_("Printed names"), N_("Printed name of {name}"),
    N_("Earlier volumes (their JSON files): no puzzle of theirs is repeated"), N_("Remove"),
    N_("Puzzle numbers to regenerate, such as 3, 17"), N_("Use"), N_("Page plan"), N_("Checking\u2026"),
    N_("{count} problem(s) to fix before building"), N_("No problems found"), N_("Build the book"),
    N_("This build is expected to take over an hour; build it anyway"), N_("Cancel"), N_("Building"),
    N_("{done} of {total}"), N_("about {seconds} s left"), N_("Built: {pages} pages, {puzzles} puzzles"),
    N_("Downloads"), N_("Preview"), N_("Single puzzles as pictures"), N_("Puzzle number"), N_("with answer"),
    N_("Share link"), N_("Link copied"), N_("The link holds the settings (not uploaded files)."),
    N_("Download YAML"), N_("Comments of an opened file are not kept."), N_("Other settings"),
    N_("Cancelled; nothing was written."), N_("generating"), N_("laying out"), N_("previews"),
    N_("waiting for a free slot"), N_("title page"), N_("how-to page"), N_("puzzle page"),
    N_("answer page"), N_("cover"), N_("book PDF"), N_("answers PDF"), N_("cover PDF"), N_("book JSON"),
    N_("settings YAML"), N_("Skip to the form"), N_("Sizes"), N_("The studio could not be reached."),
    N_("Difficulty"), N_("Variant"), N_("Title"), N_("Subtitle"), N_("Author"), N_("Seed"), N_("Page"),
    N_("Print to the edge (bleed)"), N_("Layout"), N_("Puzzles per page"), N_("Large print"), N_("Imprint"),
    N_("Language"), N_("Versions (class set)"), N_("Cover"), N_("Count"), N_("Givens"),
    N_("Worked example (explain)"), N_("Start on a new page"), N_("Publisher"), N_("Year"), N_("ISBN"),
    N_("Edition"), N_("Print the seed"), N_("Paper"), N_("Back-cover text"), N_("Band colour"),
    N_("Puzzle on the front"), N_("Replace puzzles"), N_("Exclude earlier volumes"),
    N_("Classroom worksheet"), N_("Class set (several versions)"), N_("KDP paperback (6 x 9 in, cover)"),
    N_("Large-print book"), N_("Sampler of every puzzle"),
    # rule options of the puzzles (a new option is labelled with its key until it gains one here)
    N_("Longest run of one symbol"),
    N_("No two rows or columns alike"),
    N_("Operations"),
    N_("Print the operation"),
    N_("Single-cell cages"),
    N_("Largest cage (cells)"),
    N_("Box (rows × columns)"),
    N_("Diagonals too (X)"),
    N_("Inside margin (gutter)"),
    N_("Typeface"),
    N_("Double-sided (each version on fresh sheets)"),
    N_("Students (one file, versions dealt in turn)"),
    N_("Cover theme"),
    N_("Cover picture (PNG or JPEG, 300 dpi)"),
    N_("Plain rectangles or lines allowed as regions"),
    N_("Switch"), N_("Show the page plan"), N_("Back to the form"), N_("Other sizes"),
    N_("Print each puzzle's rating and time"),
    N_("Picture style"), N_("Stars in every row, column and region"),
    N_("Print a copyright page (imprint)"), N_("Make a full-wrap cover"),
    N_("rows {low} to {high}, columns {low2} to {high2}"), N_("Show the build"),
    N_("Your own pictures (text art: # filled, . empty; a blank line between two)"),
)

# config key -> label msgid (a key without one is labelled with its own name)
LABELS = {
    "title": "Title", "subtitle": "Subtitle", "author": "Author", "seed": "Seed", "page": "Page",
    "bleed": "Print to the edge (bleed)", "layout": "Layout", "per_page": "Puzzles per page",
    "large_print": "Large print", "imprint": "Imprint", "names": "Printed names", "language": "Language",
    "show_rating": "Print each puzzle's rating and time",
    "sections": "Sections", "exclude": "Exclude earlier volumes", "replace": "Replace puzzles",
    "versions": "Versions (class set)", "cover": "Cover", "variant": "Variant", "count": "Count",
    "size": "Sizes", "difficulty": "Difficulty", "rules": "Rules", "givens": "Givens",
    "explain": "Worked example (explain)", "new_page": "Start on a new page", "publisher": "Publisher",
    "year": "Year", "isbn": "ISBN", "edition": "Edition", "show_seed": "Print the seed", "paper": "Paper",
    "blurb": "Back-cover text", "colour": "Band colour", "sample": "Puzzle on the front",
    "max_run": "Longest run of one symbol",
    "unique_lines": "No two rows or columns alike",
    "ops": "Operations",
    "show_ops": "Print the operation",
    "singles": "Single-cell cages",
    "max_cage": "Largest cage (cells)",
    "box": "Box (rows × columns)",
    "diagonal": "Diagonals too (X)",
    "gutter": "Inside margin (gutter)",
    "font": "Typeface",
    "duplex": "Double-sided (each version on fresh sheets)",
    "students": "Students (one file, versions dealt in turn)",
    "theme": "Cover theme",
    "image": "Cover picture (PNG or JPEG, 300 dpi)",
    "plain_regions": "Plain rectangles or lines allowed as regions",
    "style": "Picture style",
    "stars": "Stars in every row, column and region",
    "pictures": "Your own pictures (text art: # filled, . empty; a blank line between two)",
}

# A group's switch (imprint:, cover:) says what switching it on does.
TOGGLES = {"imprint": N_("Print a copyright page (imprint)"), "cover": N_("Make a full-wrap cover")}

# Menu values as a reader names them: config key -> {value as the YAML writes it: label msgid}.
# The menus keep the YAML values (what the file and the share link hold); only the text shown
# is translated. A value missing here shows as written.
CHOICES = {
    "page": {"letter": N_("US Letter (8.5 × 11 in)"), "a4": N_("A4 (210 × 297 mm)"), "6x9": N_("6 × 9 in"),
             "7x10": N_("7 × 10 in"), "8x10": N_("8 × 10 in"), "8.5x11": N_("8.5 × 11 in")},
    "layout": {"book": N_("Book (title page, how-to pages, answer key)"),
               "worksheet": N_("Worksheets (a name line, answers in a separate file)")},
    "new_page": {"false": N_("No"), "true": N_("Yes"), "right": N_("Yes, on a right-hand page")},
    "givens": {"few": N_("Few"), "normal": N_("Normal"), "many": N_("Many")},
    "singles": {"none": N_("None"), "few": N_("Few"), "normal": N_("Normal")},
    "paper": {"white": N_("White"), "cream": N_("Cream")},
    "theme": {"classic": N_("Classic: a colour band and a puzzle"), "bold": N_("Bold: all in colour"),
              "pattern": N_("Pattern: the book's own grids")},
    "style": {"random": N_("Random"), "symmetric": N_("Symmetric (mirrored left to right)"),
              "blobs": N_("Blobs (clumped)")},
    "font": {"dejavu": N_("DejaVu Sans"), "charis": N_("Charis (serif)"),
             "andika": N_("Andika (for young readers)")},
}

# Each language by its own name, as a language menu lists them (never translated).
LANGUAGE_NAMES = {"cs": "Čeština", "de": "Deutsch", "en": "English", "es": "Español", "fr": "Français",
                  "ru": "Русский"}


def ui_messages(t: Callable[[str], str]) -> dict[str, str]:
    """English text -> its translation, for the page's script."""
    return {text: t(text) for text in UI}


def choice_labels(t: Callable[[str], str]) -> dict[str, dict[str, str]]:
    """Config key -> {YAML value: the text its menu shows}, in the page's language: the tables
    above, the levels and the variants under their printed names."""
    from bookgen.core.difficulty import LEVELS
    from bookgen.core.rating import BANDS
    from bookgen.designer import form_schema
    from bookgen.variants.registry import VARIANTS

    out = {key: {value: t(text) for value, text in table.items()} for key, table in CHOICES.items()}
    out["language"] = dict(LANGUAGE_NAMES)
    offered = {key for v in form_schema()["variants"].values() for key in v["levels"]}
    out["difficulty"] = {level.key: t(level.label) for level in LEVELS} | {b.key: t(b.label) for b in BANDS
                                                                            if b.key in offered}
    out["variant"] = {name: t(v.title) for name, v in VARIANTS.items()}
    return out


def toggle_labels(t: Callable[[str], str]) -> dict[str, str]:
    """A group's switch, in the page's language."""
    return {key: t(text) for key, text in TOGGLES.items()}


def label_of(key: str, t: Callable[[str], str]) -> str:
    """A field's label in the page's language."""
    return t(LABELS[key]) if key in LABELS else key.replace("_", " ").capitalize()
