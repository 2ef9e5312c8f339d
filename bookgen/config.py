"""YAML book description -> validated, frozen settings.

Every problem is reported as ``FILE:LINE:COL: message`` (with a hint where
one helps), all of them at once. YAML is read through our own resolver so
that duplicate keys are caught and the YAML 1.1 surprises (``no`` read as
false, ``1e3`` read as a string) cannot slip through silently: plain
scalars follow YAML 1.2's core schema, and a bool field given ``yes``/``no``
is told why.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, replace
from pathlib import Path
import typing
from typing import Any, Callable, Literal, Sequence, Union

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bookgen.core.difficulty import Level
from bookgen.core.rating import BAND_KEYS, BANDS, TOP, Aim, Band, aims, band, climb_aim, reachable, tiers_for
from bookgen.core.i18n import N_
from bookgen.core.rules import printed_rules
from bookgen.core.types import GridSize, Size, cell_count, size_label
from bookgen.i18n import DEFAULT as DEFAULT_LANGUAGE, language_problem, translation, with_name
from bookgen.layout.geometry import (
    COMFORT, GUTTERS, INCH, MAX_PAGES, comfortable_gutter, walkthrough_guess, PER_PAGE, REMINDER_LINES, TRIMS, BookShape, PageSpec, SectionShape, Style, Trim,
    content_size, fit_problems, page_count, parse_length, reminder_name, reminder_width, rule_reminder, trim_for,
)
from bookgen.layout.textfit import (
    author_room, break_lines, fit_size, heading_room, imprint_room, printed_text_problem, section_rooms, subtitle_room, title_rooms,
)
from bookgen.layout.fonts import DEFAULT_FACE, FACES
from bookgen.layout.walkthrough import walkthrough_title
from bookgen.limits import MAX_BUILD_MB, MAX_BUILD_PUZZLES, build_memory_mb
from bookgen.pictures import Picture, PictureError, read_picture
from bookgen.reading import MAX_CONFIG_BYTES, read_file_bytes, read_text_file  # (offered here too)
from bookgen.variants.registry import VARIANTS, get_variant, variant_names

MAX_COUNT = 100_000
MAX_NODES = 100_000  # YAML values after alias expansion: a "billion laughs" file stops here
MAX_DEPTH = 32  # nesting of lists and mappings; a book needs about six
PAGE_FORMATS = tuple(TRIMS)
LAYOUTS = ("book", "worksheet")
GIVENS_AMOUNTS = ("few", "normal", "many")
MAX_VERSIONS = 26  # class-set versions are lettered A to Z
MAX_STUDENTS = 200  # copies in one class-set file: a year group, not a print run
MAX_REPLACE_TIMES = 5  # a number listed twice is replaced twice; far more is a mistake (and runs dry)
MAX_BLURB = 1500  # characters: what a back cover holds at a readable size

Path_ = tuple[Union[str, int], ...]


@dataclass(frozen=True)
class ConfigIssue:
    """One problem in a config file, with where it is."""

    file: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.message}"


class ConfigError(Exception):
    """A config that can't be used; ``issues`` lists every problem found."""

    def __init__(self, issues: list[ConfigIssue]):
        self.issues = issues
        super().__init__("\n".join(str(i) for i in issues))


# ----- YAML with positions --------------------------------------------------
_INT = re.compile(r"[-+]?[0-9]+$")  # YAML 1.2 core: leading zeros are decimal (0123 is 123), no '_'

HUGE = 10**100  # numbers this long are refused where they are read
MAX_SEED = 10**30
_HEX = re.compile(r"0x[0-9a-fA-F]+$")
_OCT = re.compile(r"0o[0-7]+$")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_YAML11_BOOLS = {"yes", "no", "on", "off", "y", "n"}


class Located:
    """Maps a data path to the (line, col) of its value and of its key."""

    def __init__(self) -> None:
        self.values: dict[Path_, tuple[int, int]] = {}
        self.keys: dict[Path_, tuple[int, int]] = {}
        self.texts: dict[Path_, str] = {}  # plain scalars as written (an ISBN's leading zero)

    def at(self, path: Path_, key: bool = False) -> tuple[int, int]:
        """Position of the deepest known prefix of ``path``."""
        table = self.keys if key else self.values
        for cut in range(len(path), -1, -1):
            hit = table.get(path[:cut]) or (self.values.get(path[:cut]) if key else None)
            if hit:
                return hit
        return (1, 1)


def _scalar(node: yaml.ScalarNode) -> Any:
    text = node.value
    if node.style is not None and node.style != "":  # quoted or block: always a string
        return text
    if node.tag not in ("tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
                        "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"):
        raise _NodeError(node, f"unsupported YAML tag {node.tag}")
    low = text.lower()
    if low in ("", "~", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    try:
        number = None
        if _INT.match(text):
            number = int(text)
        elif _HEX.match(text):
            number = int(text, 16)
        elif _OCT.match(text):
            number = int(text[2:], 8)
    except ValueError:  # Python refuses to convert integers of thousands of digits
        number = HUGE
    if number is not None:
        if abs(number) >= HUGE:  # no setting needs it, and printing it back could fail
            raise _NodeError(node, f"number {_show(text)} is far too long")
        return number
    if _FLOAT.match(text) and any(ch.isdigit() for ch in text):
        return float(text)
    if low in (".inf", "+.inf", "-.inf", ".nan"):
        return float(low.replace(".", "")) if "nan" not in low else math.nan
    return text


class _NodeError(Exception):
    def __init__(self, node: yaml.Node, message: str, at: tuple[int, int] | None = None):
        self.node = node
        self.message = message
        self.at = at or _pos(node)


def _pos(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Budget:
    """Counts built values and remembers the nodes being built, so aliases can't loop or explode."""

    def __init__(self) -> None:
        self.nodes = 0
        self.open: set[int] = set()


def _build(node: yaml.Node, path: Path_, where: Located, issues: list[tuple[tuple[int, int], str]],
           budget: _Budget) -> Any:
    budget.nodes += 1
    if budget.nodes > MAX_NODES:
        # aliases expand in place, so point at the top-level entry that grew too big
        raise _NodeError(node, f"the file holds more than {MAX_NODES} values (YAML aliases "
                         "expanding?); a book needs far fewer", where.keys.get(path[:1]))
    if len(path) > MAX_DEPTH:
        raise _NodeError(node, f"lists and mappings are nested more than {MAX_DEPTH} deep")
    where.values.setdefault(path, _pos(node))
    if isinstance(node, yaml.ScalarNode):
        if not node.style:
            where.texts[path] = node.value
        return _scalar(node)
    if id(node) in budget.open:
        raise _NodeError(node, "a YAML alias refers to the value that contains it")
    budget.open.add(id(node))
    try:
        if isinstance(node, yaml.SequenceNode):
            return [_build(item, path + (i,), where, issues, budget) for i, item in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise _NodeError(key_node, "YAML merge keys (<<) are not supported")
                if not isinstance(key_node, yaml.ScalarNode):
                    raise _NodeError(key_node, "mapping keys must be plain words")
                key = key_node.value
                if key in out:
                    issues.append((_pos(key_node), f"duplicate key {key!r} (YAML would silently keep "
                                   "only the last one); remove one of them"))
                    continue
                where.keys.setdefault(path + (key,), _pos(key_node))
                out[key] = _build(value_node, path + (key,), where, issues, budget)
            return out
    finally:
        budget.open.discard(id(node))
    raise _NodeError(node, "unsupported YAML node")


class _Counting:
    """Composes nodes, counting them as they are made, with no implicit tags but ``<<``.

    Plain scalars are typed by ``_scalar`` under YAML 1.2's core schema, so the
    1.1 resolvers (timestamps, ``=``) must not tag ``2024-01-01`` or ``=`` as
    anything but text.
    """

    yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag == "tag:yaml.org,2002:merge"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    composed = 0

    def compose_node(self, parent, index):  # noqa: D102 - PyYAML hook
        self.composed += 1
        if self.composed > MAX_NODES:
            raise _TooMany(self.peek_event().start_mark)
        return super().compose_node(parent, index)


class _Loader(_Counting, yaml.SafeLoader):
    """PyYAML's reader, scanner and parser in Python: the plain version, and every error's words."""


try:
    from yaml._yaml import CParser as _CParser  # libyaml, in PyYAML's wheels
except ImportError:  # pragma: no cover - a PyYAML built without it reads with _Loader alone
    _CParser = None
else:
    class _FastLoader(_Counting, yaml.composer.Composer, _CParser, yaml.resolver.Resolver):
        """libyaml's scanner and parser (in C: about 8x quicker over the configs/ files, the
        suite's dearest config step) feeding PyYAML's composer, so the node count, the tags and
        the marks are made as ``_Loader`` makes them."""

        def __init__(self, stream: str):
            _CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.resolver.Resolver.__init__(self)

        def compose_scalar_node(self, anchor):  # noqa: D102 - PyYAML hook
            event = self.peek_event()
            if not event.value and not event.style:  # an empty value: libyaml marks it elsewhere ({a: })
                raise _Unlike(event.start_mark)
            return super().compose_scalar_node(anchor)


class _Unlike(Exception):
    """A text the fast loader would read otherwise than PyYAML: read it with ``_Loader``."""


class _TooMany(Exception):
    def __init__(self, mark):
        self.mark = mark


# what libyaml reads otherwise than PyYAML (``_compose``); a block scalar's plain header (``|``,
# ``>-``, ``|2`` before a space or a line end: the blurbs of configs/) is read alike
_PYYAML_ONLY = re.compile("[\t\ufeff?!]|[|>](?![-+0-9]{0,2}(?:[ \r\n]|$))")


def _compose(text: str, plain: bool) -> yaml.Node | None:
    """The document's node tree: libyaml's parser under the same composer where PyYAML has it,
    else (and for any text libyaml refuses) PyYAML's own parser, whose errors are the ones
    reported. libyaml reads some texts otherwise than PyYAML: it takes tabs where PyYAML refuses
    them (``title\t``), a ``? `` inside a flow value (``{a? b: 1}``), a ``#`` after a block
    scalar's ``>`` and odd characters in a ``!tag``, reads a byte-order mark inside the text
    otherwise, and marks an empty value elsewhere (the fuzzers in tests/test_properties.py found
    each). A text holding any of those characters, or an empty value, is read by PyYAML alone.
    ``plain=True`` is the plain version the fast one must equal (the fuzzers compare them on
    every document they make)."""
    if not plain and _CParser is not None and not _PYYAML_ONLY.search(text):
        try:
            loader = _FastLoader(text)
            try:
                return loader.get_single_node()
            finally:
                loader.dispose()
        except (_TooMany, RecursionError):  # the same composer on the same events: PyYAML would stop there too
            raise  # (its scanner, in Python, takes time growing with the square of the open brackets)
        except Exception:  # noqa: BLE001 - refused, not encodable: PyYAML says why, as before
            pass
    loader = _Loader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def load_yaml(text: str, file: str, plain: bool = False) -> tuple[Any, Located]:
    """Parse YAML text into plain data plus positions; ``ConfigError`` on bad YAML."""
    where = Located()
    try:
        node = _compose(text, plain)
    except _TooMany as exc:
        raise ConfigError([ConfigIssue(file, exc.mark.line + 1, exc.mark.column + 1,
                                       f"the file holds more than {MAX_NODES} values; a book needs "
                                       "far fewer")]) from None
    except RecursionError:
        raise ConfigError([ConfigIssue(file, 1, 1, f"lists and mappings are nested more than "
                                       f"{MAX_DEPTH} deep")]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = ", ".join(x for x in (exc.context, exc.problem) if x) or "invalid YAML"
        if exc.problem == "but found another document":
            problem = "a book file is one YAML document, but a second one starts here"
        raise ConfigError([ConfigIssue(file, line, col, f"YAML syntax error: {problem}")]) from None
    except yaml.reader.ReaderError as exc:  # a control character: no mark, only an offset
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise ConfigError([ConfigIssue(file, line, col, f"character U+{exc.character:04X} is not allowed "
                                       "in a YAML file")]) from None
    except yaml.YAMLError as exc:
        message = " ".join(str(exc).split())
        raise ConfigError([ConfigIssue(file, 1, 1, f"YAML error: {message}")]) from None
    if node is None:
        raise ConfigError([ConfigIssue(file, 1, 1, "the file is empty; a book needs at least "
                                       "'title' and 'sections'")])
    dupes: list[tuple[tuple[int, int], str]] = []
    try:
        data = _build(node, (), where, dupes, _Budget())
    except _NodeError as exc:
        line, col = exc.at
        raise ConfigError([ConfigIssue(file, line, col, exc.message)]) from None
    if dupes:
        raise ConfigError([ConfigIssue(file, l, c, m) for (l, c), m in dupes])
    return data, where


# ----- the schema ------------------------------------------------------------
class _Strict(BaseModel):
    # Attribute docstrings are the config reference: ``python -m bookgen.docgen`` writes
    # docs/config.md from them, and a test fails when that file is stale.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, use_attribute_docstrings=True)


class Ramp(_Strict):
    """A difficulty ramp spread evenly over a section, in order."""

    from_: str = Field(alias="from")
    """The first level of the ramp."""
    to: str
    """The last level of the ramp."""


class RatingRange(_Strict):
    """Puzzles rated inside a range of the rating scale (Sudoku Explainer's, 1.0-12)."""

    rating: list[float]
    """``[low, high]``: every puzzle of the section rates at least ``low`` and below ``high``."""


class SectionModel(_Strict):
    """One item of ``sections:``: what to generate, in book order."""

    variant: str
    """The puzzle: a variant name or alias (see the variants table below)."""
    count: int | None = None
    """Puzzles in the section, 1 to 100,000; may be left out when ``difficulty`` is a list of blocks (their total)."""
    size: int | str | list[int | str] | None = None
    """One grid size, or a list (``[10, 12]``) that spreads the count evenly over the sizes, in order (earlier sizes take the remainder). A number N is an N×N grid; a variant that takes rectangles also takes ``ROWSxCOLS`` (``15x10``). Default: the variant's default size."""
    difficulty: str | Ramp | RatingRange | list[dict[str, int]] = "medium"
    """One level (``beginner``, ``easy``, ``medium``, ``hard``, ``expert``, ``extreme``), a ramp ``{from: easy, to: hard}``, a list of ``{LEVEL: N}`` blocks, or a range of the rating ``{rating: [4.0, 6.0]}`` (see Difficulty below and docs/calibration.md)."""
    rules: dict[str, Any] | None = None
    """The variant's rule options, e.g. ``{max_run: 2, unique_lines: true}`` (see Rules below). Default: the variant's standard rules."""
    title: str | None = None
    """The section's running-header and contents title. Default: the variant's printed name (KenKen prints as "Calcudoku")."""
    givens: Literal["few", "normal", "many"] | None = None
    """Tango: how many given symbols against signs (``few``, ``normal`` the default, ``many``); Killer Sudoku: given digits, none by default (``few`` at most 6 % of the cells, ``normal`` 12 %, ``many`` 20 %)."""
    per_page: int | None = None
    """Puzzles per page for this section: 1, 2, 4 or 6. Default: the book's ``per_page``."""
    explain: bool = False
    """``true`` adds a worked walkthrough of the section's first puzzle after its how-to-play pages (books only, not worksheets)."""
    new_page: bool | Literal["right"] = False
    """``true`` starts the section on a fresh page (and so does the section after it); ``right`` on a fresh right-hand page, as a book's chapters open."""
    pictures: list[str] | None = None
    """Nonogram: your own black-and-white pictures, one puzzle each, in this order: PNG files or text-art files (``.txt``; paths relative to the book file), or text art written in place (a block of lines of ``#`` and ``.``). Each picture sets its own size and level; leave out ``size``, ``difficulty`` and ``rules`` (see docs/nonogram.md)."""


class BookModel(_Strict):
    """The top level of a book file."""

    title: str
    """Required. The book's title (title page, contents, worksheet footers)."""
    subtitle: str | None = None
    """Printed on the title page."""
    author: str | None = None
    """Printed on the title page and in the copyright line."""
    seed: int = 1
    """A whole number of at most 30 digits; the same config and seed give the same book."""
    page: str | dict[str, Any] = "letter"
    """The trim size: ``letter``, ``a4``, ``6x9``, ``7x10``, ``8x10``, ``8.5x11``, or a custom ``{width: 6in, height: 9in}`` (units ``in``, ``mm`` or ``pt``)."""
    bleed: bool = False
    """``true`` prints to the edge: each page is the trim plus 0.125 in on the top, bottom and outside edges."""
    layout: str = "book"
    """``book`` (title page, how-to-play pages, puzzles, answer key) or ``worksheet`` (letter or a4 pages with a name line and the rules, answers in NAME-answers.pdf)."""
    per_page: int | None = None
    """Puzzles per page: 1, 2, 4 or 6. Default: the most a page holds with roomy cells and the legibility floors kept."""
    large_print: bool = False
    """``true``: cells of at least 12 mm and larger type."""
    show_rating: bool = False
    """``true``: under each puzzle, its rating and estimated solving time ("Rating 4.2 · about 9 min"; see docs/printing.md). The answer key leaves them out."""
    imprint: dict[str, Any] | None = None
    """The copyright page (see the ``imprint:`` keys below)."""
    names: dict[str, Any] | None = None
    """The name a variant is printed under, e.g. ``{kenken: KenKen, takuzu: Binairo}`` (at most 40 characters)."""
    language: str = DEFAULT_LANGUAGE
    """The language every printed word is in: ``en``, ``cs``, ``de``, ``fr``, ``es`` or ``ru``."""
    sections: list[dict[str, Any]] = Field(min_length=1)
    """Required, at least one: the sections of puzzles (see the section keys below)."""
    exclude: str | list[str] | None = None
    """Earlier volumes' JSON files (paths relative to the book file) whose puzzles this book must not repeat."""
    replace: list[int] | None = None
    """New puzzles at these numbers, everything else unchanged; a number twice replaces the replacement too (not in class sets)."""
    versions: int | None = None
    """Worksheets only: a class set of 1 to 26 versions (A, B, C ...) of every page."""
    gutter: str | None = None
    """A bound book's inside margin, e.g. ``0.75in`` (at least KDP's minimum for the page count). Default: KDP's minimum plus a comfortable allowance (see docs/printing.md)."""
    font: Literal[tuple(FACES)] = DEFAULT_FACE  # type: ignore[valid-type]  # (the faces bookgen ships)
    """The text face: ``dejavu`` (sans, the default), ``charis`` (serif) or ``andika`` (large print, made for readers learning to read)."""
    duplex: bool | None = None
    """Class sets: each version padded to an even page count, so it starts on a fresh sheet when printed double-sided (default ``true``)."""
    students: int | None = None
    """Class sets: also write one file of this many copies, versions dealt A, B, C, A, ... ready to print once."""
    cover: dict[str, Any] | None = None
    """Also write NAME-cover.pdf, the full-wrap paperback cover (see the ``cover:`` keys below); books only."""


class ImprintModel(_Strict):
    """The ``imprint:`` block: the copyright page. Every key is optional."""

    publisher: str | None = None
    """"Published by PUBLISHER"; also the copyright holder when there is no author."""
    year: int | None = None
    """The copyright year, four digits. Default: no year printed."""
    isbn: str | None = None
    """An ISBN-10 or ISBN-13 (hyphens allowed), check digit validated, printed as given."""
    edition: str | None = None
    """E.g. "First edition"."""
    show_seed: bool = True
    """``false`` leaves out the seed and generator line that regenerate the book. Default: ``true``, but ``false`` in a book with an ISBN."""


class CoverModel(_Strict):
    """The ``cover:`` block: the full-wrap paperback cover (books only)."""

    paper: str = "white"
    """``white`` or ``cream``: sets the spine width (KDP's pages × 0.002252 in or × 0.0025 in)."""
    blurb: str = ""
    """The back-cover text (at most 1,500 characters); a blank line starts a paragraph."""
    colour: str | None = None
    """The band behind the titles, a hex colour like ``"#1f4e79"`` (quote it: YAML reads # as a comment)."""
    sample: int | None = None
    """The puzzle number drawn large on the front. Default: the first of the largest grids."""
    theme: str = "classic"
    """The cover's design: ``classic`` (a colour band on white, a puzzle as art), ``bold`` (the whole wrap in colour, the title large) or ``pattern`` (colour with the book's own grids as a pattern)."""
    image: str | None = None
    """Your own front picture, a PNG or JPEG (path relative to the book file), at least 300 dpi at its printed size."""


IMPRINT_KEYS = tuple(ImprintModel.model_fields)  # the model documents them
MAX_NAME = 40  # characters of a printed variant name: it heads pages and contents lines


@dataclass(frozen=True)
class Imprint:
    """What a publisher prints on the copyright page; every field optional."""

    publisher: str | None = None
    year: int | None = None
    isbn: str | None = None  # as given (hyphens kept), check digit validated
    edition: str | None = None
    show_seed: bool = True  # the seed and generator line (default off in a book with an ISBN)


def isbn_problem(text: str) -> str | None:
    """Why ``text`` is not a valid ISBN-10 or ISBN-13 (hyphens and spaces allowed), or None."""
    raw = re.sub(r"[\s-]", "", text)
    if re.fullmatch(r"[0-9]{9}[0-9Xx]", raw):
        total = sum((10 - i) * int(ch) for i, ch in enumerate(raw[:9]))
        want = (11 - total % 11) % 11
        got = 10 if raw[9] in "Xx" else int(raw[9])
        if got != want:
            return (f"ISBN-10 {text} has check digit {raw[9]}, but its first nine digits call for "
                    f"{'X' if want == 10 else want}; check the number")
        return None
    if re.fullmatch(r"[0-9]{13}", raw):
        if not raw.startswith(("978", "979")):
            return f"ISBN-13 {text} must start with 978 or 979"
        total = sum(int(ch) * (1 if i % 2 == 0 else 3) for i, ch in enumerate(raw[:12]))
        want = (10 - total % 10) % 10
        if int(raw[12]) != want:
            return (f"ISBN-13 {text} has check digit {raw[12]}, but its first twelve digits call for "
                    f"{want}; check the number")
        return None
    return (f"isbn must be an ISBN-10 or ISBN-13 (10 or 13 digits, hyphens allowed), got {_show(text)}")


@dataclass(frozen=True)
class Section:
    """One validated section: what to generate, in book order."""

    index: int
    variant: str
    title: str
    sizes: tuple[Size, ...]  # ints N for a square-only variant, ``GridSize``s for a rectangular one
    levels: tuple[Level, ...]  # one per puzzle: the ladder tier it is carved at
    rules: tuple[tuple[str, Any], ...]
    options: tuple[tuple[str, Any], ...]
    per_page: int | None = None
    explain: bool = False  # a worked walkthrough of the first puzzle after the rules pages
    new_page: bool = False  # starts on a fresh page; so does the section after it
    right: bool = False  # starts on a right-hand (odd) page: ``new_page: right``
    # One per puzzle: the rating band ``[low, high)`` it must fall in (a named level's where the
    # variant's levels are bands, ``banded_levels``, or the section's ``{rating: [low, high]}``);
    # None: its level is its ladder tier. Empty: no bands (a section built before ratings).
    bands: tuple[tuple[float, float] | None, ...] = ()
    # ``pictures:``: the user's own pictures, one puzzle each in this order (its size is the
    # picture's, its level the one the picture needs); empty: the variant draws its own.
    pictures: tuple[Picture, ...] = ()
    # A ``{rating: ...}`` range's tiers this variant makes at its sizes: a puzzle whose own tier
    # misses the range tries the others in turn. Empty for named levels (one tier each).
    range_tiers: tuple[Level, ...] = ()
    # One per puzzle: where in its level's ramp it is carved to (``rating.aims``), or None.
    # Empty: no puzzle of the section is aimed (tiers, ranges, pictures).
    aims: tuple[Aim | None, ...] = ()

    @property
    def count(self) -> int:
        """How many puzzles the section holds."""
        return len(self.levels)

    def size_of(self, i: int) -> Size:
        """The grid size of the section's i-th puzzle (sizes spread evenly, in order)."""
        return self.sizes[i * len(self.sizes) // self.count]

    def sizes_printed(self) -> list[Size]:
        """The sizes some puzzle of the section has, smallest first: every listed size once
        the count reaches the list's length (then without visiting each puzzle: a count may
        be 100,000)."""
        if self.count >= len(self.sizes):
            return sorted(set(self.sizes))
        return sorted({self.size_of(i) for i in range(self.count)})


@dataclass(frozen=True)
class CoverSpec:
    """The ``cover:`` block: paper, back-cover text, band colour (RGB 0..1), front-art puzzle number."""

    paper: str = "white"
    blurb: str = ""
    colour: tuple[float, float, float] | None = None
    sample: int | None = None
    theme: str = "classic"  # classic (colour band), bold (all colour, title large), pattern (the book's grids)
    image: str | None = None  # a PNG or JPEG for the front (path as resolved), at least 300 dpi where it prints


@dataclass(frozen=True)
class Book:
    """A validated book description."""

    source: str
    name: str
    title: str
    subtitle: str | None
    author: str | None
    seed: int
    page: str  # the format's name ("6x9", or "6.5x9.5in" for a custom size)
    sections: tuple[Section, ...]
    trim: Trim = Trim("letter", *TRIMS["letter"])
    bleed: bool = False
    layout: str = "book"
    per_page: int | None = None
    large_print: bool = False
    excluded: frozenset[str] = frozenset()  # fingerprints of earlier volumes' puzzles
    exclude_files: tuple[str, ...] = ()  # where they came from
    exclude_isbns: tuple[tuple[str, str], ...] = ()  # (file, ISBN) of the earlier volumes that printed one
    replace: tuple[int, ...] = ()  # puzzle numbers to regenerate; a number twice: replaced twice
    versions: int = 1  # a worksheet class set: this many versions of every page
    gutter: float | None = None  # the inside margin set in the config, in points (None: the default)
    font: str = "dejavu"  # the text face (see ``bookgen.layout.fonts.FACES``)
    duplex: bool = True  # a class set printed on both sides: every version starts on a fresh sheet
    students: int = 0  # a class set printed as one file of this many copies (0: each version once)
    cover: CoverSpec | None = None
    imprint: Imprint = Imprint()
    names: tuple[tuple[str, str], ...] = ()  # variant -> printed name, where the book renames one
    language: str = DEFAULT_LANGUAGE  # the catalog every printed word comes from
    show_rating: bool = False  # each puzzle's rating and minutes printed under it

    def name_of(self, variant: str) -> str:
        """The name a variant is printed under in this book."""
        return dict(self.names).get(variant) or translation(self.language)(get_variant(variant).title)

    def with_seed(self, seed: int) -> "Book":
        """The same book with another seed."""
        return replace(self, seed=seed)

    @property
    def shape(self) -> BookShape:
        """What layout needs to paginate the book before any puzzle exists."""
        shape = book_shape(self.trim, self.bleed, self.layout, self.per_page, self.large_print,
                           self.sections, self.name_of, translation(self.language))
        if self.font != DEFAULT_FACE:
            shape = replace(shape, style=replace(shape.style, face=self.font))
        if self.show_rating:  # a caption line under each grid: the fit checks count its room
            shape = replace(shape, style=replace(shape.style, rating_caption=True))
        return replace(shape, gutter=self.gutter) if self.gutter is not None else shape


def type_scale(section: Section) -> float:
    """The smallest type (as a fraction of the cell) any puzzle of the section may print."""
    variant = get_variant(section.variant)
    return min(variant.smallest_type(size, dict(section.rules)) for size in set(section.sizes))


def book_shape(trim: Trim, bleed: bool, layout: str, per_page: int | None, large_print: bool,
               sections: tuple[Section, ...], name_of=None, t=str) -> BookShape:
    """The page shape of a book: page spec, type scale and each section's grid sizes."""
    worksheet = layout == "worksheet"
    spec = PageSpec(trim, bleed, mirrored=not worksheet)
    style = Style(large_print)
    if worksheet:  # room for the longest rule reminder at the caption size
        name_of = name_of or (lambda v: get_variant(v).title)
        width = reminder_width(spec, style)
        lines = max(len(break_lines(rule_reminder(reminder_name(s.title, name_of(s.variant), get_variant(s.variant)),
                                                  printed_rules(get_variant(s.variant), dict(s.rules),
                                                                s.sizes_printed()), t),
                                    style.small, width))
                    for s in sections)
        style = replace(style, reminder_lines=max(REMINDER_LINES, lines))
    shapes = tuple(SectionShape(s.title, s.variant, tuple(s.size_of(i) for i in range(s.count)), s.per_page,
                                s.explain and not worksheet,
                                tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in s.rules),
                                s.new_page, type_scale(s), get_variant(s.variant).rules_for(dict(s.rules)),
                                s.right and not worksheet)
                   for s in sections)
    return BookShape(spec, shapes, style, worksheet, per_page)


def seed_problem(seed: int) -> str | None:
    """Why a book seed can't be used, or None (the config's and ``--seed``'s check)."""
    if not -MAX_SEED < seed < MAX_SEED:
        return f"seed must have at most {len(str(MAX_SEED)) - 1} digits"
    return None


def _show(value: Any, limit: int = 40) -> str:
    """``repr`` cut short, so one bad value can't flood the terminal."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _hint(word: Any, choices) -> str:
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


_FIELDS = {
    (): ("title", "subtitle", "author", "seed", "page", "bleed", "layout", "per_page", "large_print",
         "show_rating", "imprint", "names", "language", "sections", "exclude", "replace", "versions", "duplex", "students",
         "gutter", "font",
         "cover"),
    ("sections",): ("variant", "count", "size", "difficulty", "rules", "title", "givens", "per_page",
                    "explain", "new_page", "pictures"),
    ("difficulty",): ("from", "to", "rating"),
}


def _pydantic_message(err: dict, data: Any) -> tuple[Path_, bool, str]:
    """(path, point-at-key, message) for one pydantic error."""
    loc = tuple(x for x in err["loc"] if not (isinstance(x, str) and (
        x in ("str", "int", "list[int]", "Ramp", "RatingRange", "list[dict[str,int]]") or x.startswith(("function", "literal")))))
    kind = err["type"]
    value = err.get("input")
    field = next((str(x) for x in reversed(loc) if isinstance(x, str)), "value")
    if kind == "extra_forbidden":
        parent = ("sections",) if "sections" in loc[:-1] and loc[-1] != "sections" else ()
        if loc[-2:-1] == ("difficulty",):
            parent = ("difficulty",)
        return loc, True, f"unknown key {loc[-1]!r}{_hint(loc[-1], _FIELDS.get(parent, ()))}"
    if kind == "missing":
        return loc[:-1], False, f"missing required key {loc[-1]!r}"
    if value is None and kind not in ("extra_forbidden", "missing"):
        return loc, False, f"{field} has no value"
    if kind in ("bool_type",) or (isinstance(value, str) and value.lower() in _YAML11_BOOLS and "bool" in kind):
        return loc, False, (f"{field} must be true or false, got {_show(value)}"
                            + (" (YAML 1.1 would have read it as a boolean)" if isinstance(value, str) else ""))
    if kind in ("int_type", "int_parsing", "int_from_float"):
        extra = ""
        if isinstance(value, float):
            extra = " (write it without a decimal point or exponent)"
        elif isinstance(value, str) and "_" in value and value.replace("_", "").isdigit():
            extra = " (write it without '_' separators)"
        elif isinstance(value, bool):
            extra = ""
        return loc, False, f"{field} must be a whole number, got {_show(value)}{extra}"
    if kind in ("string_type",):
        return loc, False, f"{field} must be text, got {_show(value)}"
    if kind == "too_short" and field == "sections":
        return loc, False, "a book needs at least one section"
    if kind == "literal_error":
        return loc, False, f"{field} must be one of {', '.join(_choices(field))}, got {_show(value)}"
    if kind in ("list_type", "dict_type", "model_type", "model_attributes_type"):
        want = {"list_type": "a list", "dict_type": "a mapping", "model_type": "a mapping",
                "model_attributes_type": "a mapping"}[kind]
        return loc, False, f"{field} must be {want}, got {_show(value)}"
    return loc, False, f"{field}: {err['msg']}"


def _choices(field: Any) -> tuple[str, ...]:
    """The words a key typed as a ``Literal`` in the models allows (its first such key)."""
    for model in (BookModel, SectionModel):
        info = model.model_fields.get(field)
        if info is None:
            continue
        annotation = info.annotation
        members = (annotation,) if typing.get_origin(annotation) is Literal else typing.get_args(annotation)
        for member in members:
            if typing.get_origin(member) is Literal:
                return tuple(str(a) for a in typing.get_args(member))
    return GIVENS_AMOUNTS


def _difficulty_message(value: Any) -> str:
    return ("difficulty must be a level (" + ", ".join(BAND_KEYS) + "), a ramp {from: easy, to: hard}, "
            f"a list of {{level: count}} blocks or a rating range {{rating: [4.0, 6.0]}}; got {_show(value)}")


def parse_book(data: Any, where: Located, file: str, name: str) -> Book:
    """Validate plain data into a ``Book``; ``ConfigError`` lists every problem."""
    issues: list[ConfigIssue] = []

    def report(path: Path_, message: str, key: bool = False) -> None:
        line, col = where.at(path, key)
        issues.append(ConfigIssue(file, line, col, message))

    if not isinstance(data, dict):
        report((), "a book file must be a mapping with 'title' and 'sections' at the top level")
        raise ConfigError(issues)
    model = None
    known = _FIELDS[()]
    for key in sorted(set(data) - set(known), key=str):
        report((key,), f"unknown key {key!r}{_hint(key, known)}", key=True)
    try:
        model = BookModel.model_validate({k: v for k, v in data.items() if k in known})
    except ValidationError as exc:
        _report_errors(exc, (), data, report)
        model = _rest_of_book(exc, data, known)  # the other fields are checked too, in the same run
    trim = None if model is None else _parse_page(model, report)
    imprint = _parse_imprint(model.imprint if model else None, report, where.texts)
    names = _parse_names(model.names if model else None, report)
    language = DEFAULT_LANGUAGE
    if model is not None and language_problem(model.language):
        report(("language",), language_problem(model.language))
    elif model is not None:
        language = model.language
    if model is not None and seed_problem(model.seed):
        report(("seed",), seed_problem(model.seed))
    sections: list[Section] = []
    seen_pictures: dict[str, str] = {}  # a picture's key (``picture_key``) -> the first picture with it
    raw_sections = data.get("sections")
    for s_index, raw in enumerate(raw_sections if isinstance(raw_sections, list) else []):
        if not isinstance(raw, dict):
            report(("sections", s_index), "each section must be a mapping with 'variant' and 'count'")
            continue
        known = _FIELDS[("sections",)]
        for key in sorted(set(raw) - set(known), key=str):
            report(("sections", s_index, key), f"unknown key {key!r}{_hint(key, known)}", key=True)
        raw = {k: v for k, v in raw.items() if k in known}
        bad: set[str] = set()
        try:
            section_model = SectionModel.model_validate(raw)
        except ValidationError as exc:
            _report_errors(exc, ("sections", s_index), raw, report)
            # check the rest of the section too, so every mistake shows up in one run
            bad = {str(err["loc"][0]) for err in exc.errors()}
            try:
                section_model = SectionModel.model_validate({k: v for k, v in raw.items() if k not in bad})
            except ValidationError:
                continue
        section = _parse_section(s_index, section_model, report, frozenset(bad), dict(names), language,
                                 Path(file).parent, seen_pictures)
        if section is not None:
            sections.append(section)
    if model is not None and model.layout == "worksheet":
        for section in sections:
            if section.explain:  # worksheets have no rules pages to put a walkthrough after
                report(("sections", section.index, "explain"),
                       "explain adds a walkthrough after a book's how-to-play pages; worksheets have "
                       "none (remove 'explain' or use layout: book)")
    complete = isinstance(raw_sections, list) and len(sections) == len(raw_sections)
    extras = _parse_publishing(model, sections, file, report, complete, trim) if model is not None else None
    small = sum(s.count for s in sections) <= MAX_BUILD_PUZZLES  # a refused giant set is not laid out
    if model is not None and trim is not None and extras is not None and sections and (small or not issues):
        # the sound sections are laid out and their texts measured even when others have problems
        found = len(issues)
        book = Book(file, name, printed(model.title), printed(model.subtitle), printed(model.author),
                    model.seed if not seed_problem(model.seed) else 1, trim.name,
                    tuple(sections), trim, model.bleed, model.layout, model.per_page, model.large_print,
                    imprint=imprint, names=names, language=language, show_rating=model.show_rating, **extras)
        _check_fit(book, raw_sections, report)
        if not found:  # a page count of part of the book would mislead
            _check_pages(book, report)
        _check_texts(book, report)
    if issues:
        raise ConfigError(sorted(set(issues), key=lambda i: (i.line, i.col, i.message)))
    return book


def _rest_of_book(exc: ValidationError, data: dict, known) -> BookModel | None:
    """The book's model without the fields ``exc`` found bad (reported already), so the rest
    can be checked in the same run; None when even that can't be validated."""
    bad = {str(err["loc"][0]) for err in exc.errors()
           if not (err["loc"][0] == "sections" and len(err["loc"]) > 1)}  # bad items: checked one by one
    rest = {k: v for k, v in data.items() if k in known and k not in bad}
    rest.setdefault("title", "?")
    sections = rest.get("sections")
    rest["sections"] = [s for s in sections if isinstance(s, dict)] if isinstance(sections, list) else []
    if not rest["sections"]:
        rest["sections"] = [{}]
    try:
        return BookModel.model_validate(rest)
    except ValidationError:
        return None


def _parse_publishing(model: BookModel, sections: list[Section], file: str, report,
                      complete: bool = True, trim: Trim | None = None) -> dict[str, Any]:
    """``exclude``, ``replace``, ``versions`` and ``cover``: Book fields, after reporting problems."""
    from bookgen.layout.cover import PAPERS, blurb_problem  # cover geometry lives with the cover
    from bookgen.series import ExcludeError, book_fingerprints, load_book_data

    out: dict[str, Any] = {}
    total = sum(s.count for s in sections) if complete else MAX_COUNT * len(model.sections)
    worksheet = model.layout == "worksheet"
    excluded: set[str] = set()
    isbns: list[tuple[str, str]] = []  # (exclude file, the ISBN its book printed)
    names = [model.exclude] if isinstance(model.exclude, str) else model.exclude or []
    for i, name in enumerate(names):
        path = Path(file).parent / name
        if not name.strip():  # Path("") is the config's own folder: never what was meant
            report(("exclude", i) if isinstance(model.exclude, list) else ("exclude",),
                   "exclude names no file; give the earlier book's JSON file (e.g. vol1.json)")
            continue
        try:
            data = load_book_data(path)
            excluded |= {fp for _, fp in book_fingerprints(data)}
            isbn = data.get("isbn") if isinstance(data, dict) else None
            if isinstance(isbn, str):
                isbns.append((name, isbn))
        except ExcludeError as exc:
            report(("exclude", i) if isinstance(model.exclude, list) else ("exclude",), f"exclude {name}: {exc}")
    out["excluded"] = frozenset(excluded)
    out["exclude_files"] = tuple(str(Path(file).parent / name) for name in names)
    out["exclude_isbns"] = tuple(isbns)
    if model.versions is not None:
        if not worksheet:
            report(("versions",), "versions makes a class set of worksheets; it needs layout: worksheet")
        elif not 1 <= model.versions <= MAX_VERSIONS:
            report(("versions",), f"versions must be between 1 and {MAX_VERSIONS} (A to Z), "
                   f"got {model.versions}")
        out["versions"] = model.versions
    if model.gutter is not None:
        try:
            gutter = parse_length(model.gutter)
        except ValueError as exc:
            report(("gutter",), f"gutter: {exc}")
        else:
            if worksheet:
                report(("gutter",), "gutter is the inside margin of a bound book; worksheets are printed "
                       "one-sided with even margins (remove it or use layout: book)")
            elif not 0 < gutter <= 2 * INCH:
                report(("gutter",), f"gutter must be between 0in and 2in, got {model.gutter!r}")
            else:
                out["gutter"] = gutter
    out["font"] = model.font  # (one of FACES: the model's Literal says so)
    for key in ("duplex", "students"):
        if getattr(model, key) is not None and (model.versions or 1) < 2:
            report((key,), f"{key} is for a class set of worksheets; it needs versions: 2 or more")
    if model.duplex is not None:
        out["duplex"] = model.duplex
    if model.students is not None:
        if not 1 <= model.students <= MAX_STUDENTS:
            report(("students",), f"students must be between 1 and {MAX_STUDENTS}, got {model.students}")
        out["students"] = model.students
    versions = model.versions if isinstance(model.versions, int) and 1 <= model.versions <= MAX_VERSIONS else 1
    if complete and worksheet and sections and total * versions > MAX_BUILD_PUZZLES:
        biggest = max(sections, key=lambda s: s.count)
        report(("versions",) if versions > 1 else ("sections", biggest.index, "count"),
               f"the set holds {total * versions:,} puzzles{f' ({versions} versions of {total:,})' if versions > 1 else ''}; "
               f"one build makes at most {MAX_BUILD_PUZZLES:,} (what its memory, and 'check' after it, "
               "can hold): split it into several configs")
    elif complete and sections and total * versions <= MAX_BUILD_PUZZLES:  # (a book: its page limit speaks)
        # the largest grid of each section, every puzzle of every version
        need = build_memory_mb((get_variant(s.variant).measured.memory_kb_per_cell, max(cell_count(size) for size in s.sizes),
                                s.count * versions) for s in sections)
        if need > MAX_BUILD_MB:
            biggest = max(sections, key=lambda s: s.count * max(cell_count(size) for size in s.sizes))
            report(("versions",) if versions > 1 else ("sections", biggest.index, "count"),
                   f"building these {total * versions:,} puzzles would take about {need / 1024:.1f} GB of "
                   f"memory, and one build may take at most {MAX_BUILD_MB / 1024:g} GB (a puzzle holds its "
                   "page until the PDF is saved): split it into several configs, or use smaller grids")
    numbers = model.replace or []
    if numbers and (model.versions or 1) > 1:
        report(("replace",), "replace picks puzzles by number, and a class set repeats every number "
               "in each version; build the class set without replace")
    explained = {1 + sum(s.count for s in sections[:k.index]) for k in sections if k.explain}
    drawn = {}  # puzzle number -> the user's picture it is (one puzzle a picture: nothing to replace it with)
    for k, section in enumerate(sections):
        first = 1 + sum(s.count for s in sections[:k])
        drawn.update({first + i: picture.name for i, picture in enumerate(section.pictures)})
        if section.pictures and (model.versions or 1) > 1:
            report(("sections", section.index, "pictures"), "pictures make one puzzle each, and a class set needs "
                   "a different puzzle in each version; build the class set without pictures", key=True)
    times: dict[int, int] = {}
    for i, number in enumerate(numbers):
        times[number] = times.get(number, 0) + 1
        if times[number] == MAX_REPLACE_TIMES + 1:  # each listing replaces the puzzle once more
            report(("replace", i), f"replace lists puzzle {number} more than {MAX_REPLACE_TIMES} times; "
                   f"list a number once for a new puzzle (up to {MAX_REPLACE_TIMES} times to go further)")
        if not 1 <= number <= total:
            report(("replace", i), f"replace: the book has puzzles 1 to {total}, got {number}")
        elif number in drawn:
            report(("replace", i), f"replace: puzzle {number} is your picture {drawn[number]!r}, which makes that "
                   "one puzzle only; change or drop the picture instead")
        elif number in explained and not worksheet:
            report(("replace", i), f"replace: puzzle {number} is walked through after the how-to-play "
                   "pages; a new one could change the walkthrough's length and move every later page "
                   "(remove explain from its section, or keep this puzzle)")
    out["replace"] = tuple(sorted(numbers))
    if model.cover is not None:
        out["cover"] = _parse_cover(model.cover, worksheet, total, PAPERS, report, Path(file).parent, trim)
        blurb = out["cover"].blurb if out["cover"] else ""
        problem = printed_text_problem(" ".join(blurb.split()), "cover blurb") if blurb else None  # glyphs
        if problem is None and trim is not None and blurb:
            problem = blurb_problem(trim, blurb, model.font if model.font in FACES else DEFAULT_FACE)
        if problem:
            report(("cover", "blurb"), problem)
            out["cover"] = None
    return out


def _parse_cover(raw: dict[str, Any], worksheet: bool, total: int, papers, report,
                 base: Path | None = None, trim: Trim | None = None) -> CoverSpec | None:
    """The ``cover:`` block, or None after reporting its problems."""
    from bookgen.layout.cover import THEMES, image_problem

    known = tuple(CoverModel.model_fields)  # the model documents them
    ok = True
    for key in sorted(set(raw) - set(known), key=str):
        report(("cover", key), f"unknown key {key!r} in cover{_hint(key, known)}", key=True)
        ok = False
    if worksheet:
        report(("cover",), "a cover is for a bound paperback; worksheets have none (remove 'cover' or "
               "use layout: book)", key=True)
        ok = False
    paper = raw.get("paper", "white")
    if not isinstance(paper, str) or paper not in papers:  # a list or mapping can't be looked up
        report(("cover", "paper"), f"cover paper must be one of {', '.join(papers)}, got {_show(paper)}"
               f"{_hint(paper, papers)}")
        ok = False
    blurb = raw.get("blurb", "")
    if blurb is None:
        blurb = ""
    if not isinstance(blurb, str):
        report(("cover", "blurb"), f"cover blurb must be text, got {_show(blurb)}")
        ok = False
    elif len(blurb) > MAX_BLURB:
        report(("cover", "blurb"), f"cover blurb has {len(blurb)} characters; a back cover holds at most "
               f"{MAX_BLURB}")
        ok = False
    colour = raw.get("colour")
    rgb = None
    if colour is not None:
        if isinstance(colour, str) and re.fullmatch(r"#?[0-9a-fA-F]{6}", colour.strip()):
            hexa = colour.strip().lstrip("#")
            rgb = tuple(int(hexa[k:k + 2], 16) / 255 for k in (0, 2, 4))
        else:
            report(("cover", "colour"), f"cover colour must be a hex colour like '#1f4e79' (quote it: "
                   f"YAML reads # as a comment), got {_show(colour)}")
            ok = False
    sample = raw.get("sample")
    if sample is not None and (type(sample) is not int or not 1 <= sample <= total):
        report(("cover", "sample"), f"cover sample must be a puzzle number from 1 to {total}, "
               f"got {_show(sample)}")
        ok = False
    theme = raw.get("theme", "classic")
    if theme not in THEMES:
        report(("cover", "theme"), f"cover theme must be one of {', '.join(THEMES)}, got {_show(theme)}"
               f"{_hint(str(theme), THEMES)}")
        ok = False
    image = raw.get("image")
    if image is not None:
        if not isinstance(image, str) or not image.strip():
            report(("cover", "image"), f"cover image must be the path of a PNG or JPEG file, got {_show(image)}")
            ok = False
        else:
            image = str((base or Path(".")) / image)
            problem = image_problem(image, trim) if trim is not None else None
            if problem:
                report(("cover", "image"), problem)
                ok = False
    return CoverSpec(paper, blurb, rgb, sample, theme, image) if ok else None  # type: ignore[arg-type]
def _parse_imprint(raw: dict[str, Any] | None, report, texts: dict[Path_, str] | None = None) -> Imprint:
    """The imprint block; each bad field is reported where it is. ``texts``: plain scalars as
    written, so an unquoted ISBN keeps its leading zero."""
    if not raw:
        return Imprint()
    good: dict[str, Any] = {}
    for key, value in raw.items():
        path: Path_ = ("imprint", key)
        if key not in IMPRINT_KEYS:
            report(path, f"unknown key {key!r} in imprint{_hint(key, IMPRINT_KEYS)}", key=True)
        elif key == "show_seed":
            if isinstance(value, bool):
                good[key] = value
            else:
                yaml11 = " (YAML 1.1 would have read it as a boolean)" if isinstance(value, str) and \
                    value.lower() in _YAML11_BOOLS else ""
                report(path, f"show_seed must be true or false, got {_show(value)}{yaml11}")
        elif key == "year":
            if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 9999:
                good[key] = value
            else:
                report(path, f"year must be a four-digit year such as 2026, got {_show(value)}")
        elif key == "isbn":
            text = (texts or {}).get(path, str(value)) if type(value) is int else value
            if not isinstance(text, str):
                report(path, f"isbn must be text such as 979-8-12345-678-9, got {_show(value)}")
                continue
            problem = isbn_problem(text.strip())
            if problem:
                report(path, problem)
            else:
                good[key] = text.strip()
        elif not isinstance(value, str) or not value.strip():
            report(path, f"{key} must be text, got {_show(value)}")
        else:
            good[key] = printed(value)
    if "isbn" in good and "show_seed" not in raw:
        good["show_seed"] = False  # a published book keeps the generator line off its copyright page
    return Imprint(**good)


def _parse_names(raw: dict[str, Any] | None, report) -> tuple[tuple[str, str], ...]:
    """``names:``: variant (or alias) -> the name the book prints for it."""
    out: dict[str, str] = {}
    for key, value in (raw or {}).items():
        path: Path_ = ("names", key)
        try:
            variant = get_variant(str(key))
        except KeyError:
            report(path, f"unknown variant {_show(key)} in names; expected one of "
                   f"{', '.join(variant_names())}{_hint(str(key).lower(), variant_names())}", key=True)
            continue
        if not isinstance(value, str) or not value.strip() or len(value.strip()) > MAX_NAME:
            report(path, f"the name printed for {variant.name} must be text of 1 to {MAX_NAME} "
                   f"characters, got {_show(value)}")
            continue
        if variant.name in out:
            report(path, f"names gives {variant.name} two names; keep one", key=True)
            continue
        out[variant.name] = printed(value)
    return tuple(sorted(out.items()))


def _parse_page(model: BookModel, report) -> Trim | None:
    """The page format, layout and per-page options of the book; None after a problem."""
    trim = None
    if isinstance(model.page, str):
        try:
            trim = trim_for(model.page)
        except ValueError:
            report(("page",), f"page must be one of {', '.join(PAGE_FORMATS)} or {{width: 6in, height: 9in}}, "
                   f"got {model.page!r}{_hint(model.page.lower(), PAGE_FORMATS)}")
    else:
        for key in sorted(set(model.page) - {"width", "height"}, key=str):
            report(("page", key), f"unknown key {key!r} in page{_hint(key, ('width', 'height'))}", key=True)
        good = True
        for key in ("width", "height"):
            if key not in model.page:
                report(("page",), f"a custom page needs '{key}', e.g. {{width: 6in, height: 9in}}")
                good = False
                continue
            try:
                parse_length(model.page[key])
            except ValueError as exc:
                report(("page", key), f"page {key}: {exc}")
                good = False
        if good and set(model.page) == {"width", "height"}:
            try:
                trim = trim_for(model.page)
            except ValueError as exc:
                report(("page",), str(exc))
    if model.layout not in LAYOUTS:
        report(("layout",), f"layout must be one of {', '.join(LAYOUTS)}, got {model.layout!r}"
               f"{_hint(model.layout, LAYOUTS)}")
        trim = None
    elif model.layout == "worksheet" and model.bleed:
        report(("bleed",), "bleed is for print-on-demand books; worksheets print on office paper "
               "(remove 'bleed' or use layout: book)")
        trim = None
    if model.per_page is not None and model.per_page not in PER_PAGE:
        report(("per_page",), _per_page_message(model.per_page))
        trim = None
    return trim


def _per_page_message(value: int) -> str:
    return f"per_page must be one of {', '.join(map(str, PER_PAGE))}, got {value}"


def _check_fit(book: Book, raw_sections: list, report) -> None:
    """Report every section whose grids the page cannot hold at a writable cell size."""
    for s, size, problem in fit_problems(book.shape):
        section = book.sections[s]
        raw = raw_sections[section.index]
        if section.per_page is not None:
            path: Path_ = ("sections", section.index, "per_page")
        elif book.per_page is not None:
            path = ("per_page",)
        elif isinstance(raw.get("size"), list):
            variant = get_variant(section.variant)
            path = ("sections", section.index, "size",
                    next(i for i, item in enumerate(raw["size"]) if _grid_size(variant, item, True)[0] == size))
        else:
            path = ("sections", section.index, "size")
        report(path, problem)


def printed_width(book: Book) -> float:
    """The width of a line of text on every page of the book (with the widest gutter it could get)."""
    shape = book.shape
    if not shape.spec.mirrored:
        return content_size(shape.spec, shape.spec.margin, shape.style, shape.worksheet)[0]
    if shape.gutter is not None:
        return content_size(shape.spec, shape.gutter, shape.style, shape.worksheet)[0]
    # the gutter of the pages counted now, with room for the how-to pages and walkthroughs
    # to add a tenth (they are measured only once the puzzles exist)
    pages, _ = page_count(replace(shape, rules_pages=(2,) * len(shape.rule_sets),
                                  walkthrough_pages=tuple(walkthrough_guess(shape.sections[s].sizes[0])
                                                          for s in shape.explained)))
    return content_size(shape.spec, comfortable_gutter(pages + pages // 10 + 8), shape.style, shape.worksheet)[0]


def _check_texts(book: Book, report) -> None:
    """Every config text the book prints: drawable by its fonts, and fitting where it goes."""
    style, width = book.shape.style, printed_width(book)
    worksheet = book.layout == "worksheet"
    t = translation(book.language)
    fields = [(("title",), "title", book.title, title_rooms(style, width, worksheet, t)),
              (("subtitle",), "subtitle", book.subtitle, [subtitle_room(style, width)]),
              (("author",), "author", book.author, [author_room(style, width)])]
    for section in book.sections:
        fields.append((("sections", section.index, "title"), "section title", section.title,
                       section_rooms(style, width, section.explain and not worksheet, t)))
    im = book.imprint
    if not worksheet:  # the copyright page: each a few lines at the caption size, or refused
        fields += [(("imprint", key), key, getattr(im, key), [imprint_room(style, width, lines)])
                   for key, lines in (("publisher", 2), ("edition", 4), ("isbn", 1))]
    for variant, text in book.names:  # a printed name heads how-to pages and contents rows
        heads = [replace(heading_room(style, width, "in the heading \u201c" + t(h).format(name=text) + "\u201d"),
                         prefix=t(h).format(name="")) for h in ("How to play {name}", "{name} techniques")]
        fields.append((("names", variant), "name", text,
                       section_rooms(style, width, False, t) + ([] if worksheet else heads)))
    for path, what, text, rooms in fields:
        rooms = [replace(room, face=book.font) for room in rooms] or [imprint_room(style, width, 99, book.font)]
        problem = printed_text_problem(text, what, rooms) if text is not None else None
        if problem:
            report(path, problem)
    if not worksheet:  # the book's own headings, set by the same rule: a page too narrow for them
        room = heading_room(style, width)
        for heading in _headings(book):
            if fit_size(heading, room) is None:
                report(("page",), f"the page is too narrow for the heading \u201c{heading}\u201d (one line at "
                       f"{room.floor:g} pt or more); choose a wider page")
                break


def _headings(book: Book) -> list[str]:
    """The page headings a book prints besides its config texts, in its language."""
    t = translation(book.language)
    names = dict.fromkeys(t(get_variant(s.variant).title) for s in book.sections)
    headings = [t("Contents"), t("Answers")] + [with_name(t, h, name) for name in names
                                                for h in (N_("How to play {name}"), N_("{name} techniques"))]
    if any(s.explain for s in book.sections):
        headings.append(walkthrough_title(sum(s.count for s in book.sections), t))
    return headings


def printed(text: str | None) -> str | None:
    """Config text as it is printed: runs of spaces, tabs and line breaks become one space."""
    return None if text is None else " ".join(text.split())


def _check_pages(book: Book, report) -> None:
    """Refuse a book longer than print-on-demand prints; worksheet sets may be any length.
    A gutter set in the config must be at least what the service asks for at the page count."""
    if book.gutter is not None:
        pages, least = page_count(replace(book.shape, gutter=None), minimum=True)
        if book.gutter < least - 1e-9:
            report(("gutter",), f"the book has about {pages} pages, for which print-on-demand services "
                   f"ask an inside margin of at least {least / INCH:g}in; got {book.gutter / INCH:g}in")
    if book.layout == "worksheet" or sum(s.count for s in book.sections) <= MAX_PAGES // 2:
        return  # (two puzzles a page at the least, answers apart: a smaller book can't get there)
    pages, _ = page_count(book.shape)  # counted, not laid out: cheap for any count
    if pages > MAX_PAGES:
        biggest = max(book.sections, key=lambda s: s.count)
        report(("sections", biggest.index, "count"),
               f"the book would have about {pages} pages; print-on-demand services print at most "
               f"{MAX_PAGES}: split it into volumes, lower the counts, or use layout: worksheet")


# A book key whose type is a union (pydantic reports each half): its one message, from the value.
_UNION_MESSAGES: dict[str, Callable[[Any], str]] = {
    "exclude": lambda value: f"exclude must be a book JSON file name or a list of them, got {_show(value)}",
    "page": lambda value: (f"page must be one of {', '.join(PAGE_FORMATS)} or {{width: 6in, height: 9in}}, "
                           f"got {value!r}"),
}


def _report_errors(exc: ValidationError, prefix: Path_, data: dict, report) -> None:
    """Turn pydantic's errors into located messages, one per problem."""
    seen = set()
    for err in exc.errors():
        loc = prefix + tuple(err["loc"])
        if not prefix and err["loc"][0] == "sections" and len(err["loc"]) > 1:
            continue  # a bad section item: the per-section pass reports it, once
        if err["loc"][0] == "size":
            # one union (a size or a list of sizes): one message, at each bad list item if any
            # (text items are sizes like ``15x10``: the section pass reads those)
            value = data.get("size")
            if "size" in seen:
                continue
            seen.add("size")
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if not isinstance(item, (int, str)) or isinstance(item, bool):
                        path, key, message = _pydantic_message(
                            {"loc": prefix + ("size", i), "type": "int_type", "input": item}, data)
                        report(path, message, key)
                continue
            extra = " (write it without a decimal point)" if isinstance(value, float) else ""
            report(prefix + ("size",), f"size must be a whole number or a list of them, "
                   f"got {_show(value)}{extra}")
            continue
        if "difficulty" in err["loc"]:
            if "difficulty" in seen:
                continue
            seen.add("difficulty")
            path = prefix + ("difficulty",)
            value = data.get("difficulty")
            if isinstance(value, dict) and "rating" in value and len(value) == 1:
                report(path + ("rating",), _range_message(value["rating"]))
            elif isinstance(value, dict) and not {"from", "to"} >= set(value):
                bad = sorted(set(value) - {"from", "to"})[0]
                where = "difficulty ramp" if set(value) & {"from", "to"} else "difficulty"
                report(path + (bad,), f"unknown key {bad!r} in {where}{_hint(bad, ('from', 'to', 'rating'))}",
                       key=True)
            else:
                report(path, _difficulty_message(value))
            continue
        top = err["loc"][0]
        if not prefix and top in _UNION_MESSAGES:
            if top not in seen:  # one message for both halves of the union
                seen.add(top)
                report((top,), _UNION_MESSAGES[top](data.get(top)))
            continue
        path, key, message = _pydantic_message(dict(err, loc=loc), data)
        report(path, message, key)


def _parse_section(s_index: int, raw: SectionModel, report, bad: frozenset[str] = frozenset(),
                   names: dict[str, str] | None = None, language: str = DEFAULT_LANGUAGE,
                   folder: Path = Path("."), seen: dict[str, str] | None = None) -> Section | None:
    """A ``Section``, or None after reporting its problems; ``bad`` fields were reported already.
    A section without a title is headed by its variant's name in the book's ``language``.
    ``pictures`` are read from ``folder`` (the book file's); ``seen`` holds the book's
    pictures so far, so that one printed twice is refused."""
    base: Path_ = ("sections", s_index)
    ok = not bad
    count = raw.count
    if count is not None and not 1 <= count <= MAX_COUNT:
        report(base + ("count",), f"count must be between 1 and {MAX_COUNT}, got {_show(count)}")
        ok = False
    try:
        variant = get_variant(raw.variant)
    except KeyError:
        report(base + ("variant",), f"unknown variant {_show(raw.variant)}; expected one of "
               f"{', '.join(variant_names())}{_hint(raw.variant.lower(), variant_names())}")
        return None
    if "pictures" in bad:
        return None  # reported already; without them the section would be read as another kind
    if raw.pictures is not None:
        return _picture_section(s_index, raw, variant, report, ok, folder, {} if seen is None else seen,
                                names, language)

    listed = raw.size if isinstance(raw.size, list) else [raw.size if raw.size is not None else variant.default_size]
    sizes: list[Size] = []
    if "size" in bad:
        listed = []  # reported already; the rules are checked against the default size below
    elif not listed:
        report(base + ("size",), "size list is empty")
        ok = False
    for i, item in enumerate(listed):
        path = base + ("size",) + ((i,) if isinstance(raw.size, list) else ())
        size, problem = _grid_size(variant, item, isinstance(raw.size, list))
        if problem:
            report(path, problem)
            ok = False
        else:
            sizes.append(size)

    count_ok = "count" not in bad and (count is None or 1 <= count <= MAX_COUNT)
    targets = _levels(base, raw.difficulty, count, report, count_ok=count_ok)
    if targets is None:
        ok = False
    levels = [t.tier for t in targets] if targets is not None else None

    rules: dict[str, Any] = {}
    default = _grid_size(variant, variant.default_size, False)[0]
    accepted: set[Level] | None = None  # a rating range's tiers every size of the section makes
    ranged = isinstance(raw.difficulty, RatingRange)
    for size in sorted(set(sizes)) or [default]:  # a bad size: still check
        try:
            rules = variant.parse_rules(raw.rules, size)
        except ValueError as exc:
            # one option at a time first, so that each bad one gets its own line
            problems = []
            for k, v in (raw.rules or {}).items():
                try:
                    variant.parse_rules({k: v}, size)
                except ValueError as one:
                    problems.append(one)
            for problem in problems or [exc]:
                path, key = _rule_path(raw.rules, str(problem))
                value = raw.rules.get(path[0]) if raw.rules and path and not key else None
                yaml11 = (" (YAML 1.1 would have read it as a boolean; write true or false)"
                          if isinstance(value, str) and value.lower() in _YAML11_BOOLS else "")
                report(base + ("rules",) + path, f"{problem}{yaml11}", key)
            ok = False
            break
        for level in sorted(set(levels or ())) if not isinstance(raw.difficulty, RatingRange) else ():
            problem = variant.check_request(size, rules, level)
            if problem:
                path, _ = _rule_path(raw.rules, problem)
                report(base + (("rules",) + path if path else ("difficulty",)), problem)
                ok = False
        for low, high, tier, key in sorted({(t.low, t.high, t.tier, t.key) for t in targets or ()}):
            if not ranged and variant.check_request(size, rules, tier) is not None:
                continue  # the level itself was refused above
            if not ranged and not variant.banded_levels(size, rules):
                if key == tier.key:
                    continue  # here the level is its tier, not a band of the rating
                report(base + ("difficulty",), f"{key} is a band of the SE rating, calibrated for one puzzle "
                       f"and size only (docs/calibration.md); a {size_label(size)} {variant.name}'s levels are "
                       "easy to expert")
                ok = False
                break
            if not reachable(low, high, lambda tier: variant.check_request(size, rules, tier) is None,
                             variant.climbs(size, rules), variant.rating_points(size, rules)):
                report(base + (("difficulty", "rating") if ranged else ("difficulty",)),
                       f"no {size_label(size)} {variant.name} rates in [{low:g}, {high:g}): the ratings "
                       "this size reaches lie elsewhere (see docs/calibration.md); choose another "
                       + ("range" if ranged else "level") + " or size")
                ok = False
                break
        if ranged and targets:
            points = variant.rating_points(size, rules)
            here = {t for t in tiers_for(targets[0].low, targets[0].high, points)
                    if variant.check_request(size, rules, t) is None}
            accepted = here if accepted is None else accepted & here
    range_tiers: tuple[Level, ...] = ()
    if accepted and targets and levels is not None:
        range_tiers = tuple(t for t in tiers_for(targets[0].low, targets[0].high,
                                                 variant.rating_points(sizes[0], rules) if sizes else None)
                            if t in accepted)
        levels = [range_tiers[i % len(range_tiers)] for i in range(len(levels))]
    bands = tuple((t.low, t.high) if ranged or (sizes and variant.banded_levels(
        sizes[i * len(sizes) // len(targets)], rules)) else None for i, t in enumerate(targets or ()))
    return _finish_section(s_index, raw, variant, report, ok, sizes, levels, rules, names, language, bands,
                           range_tiers=range_tiers if len(range_tiers) > 1 else (),
                           aims=() if not sizes else _range_aims(variant, rules, targets or (), sizes) if ranged
                           else _ramp_aims(targets or (), bands, sizes))


def _range_aims(variant, rules, targets: Sequence[Band], sizes: Sequence[Size]) -> tuple[Aim | None, ...]:
    """One aim a puzzle of a ``{rating: ...}`` range (or None): a range above its tier's carve
    is climbed into where the variant climbs at the puzzle's size (``rating.climb_aim``); the
    other ranges filter the carve's puzzles by their rating."""
    count = len(targets)
    out = [climb_aim(t.low, t.high, t.tier) if variant.climbs(sizes[i * len(sizes) // count], rules) else None
           for i, t in enumerate(targets)]
    return tuple(out) if any(a is not None for a in out) else ()


def _ramp_aims(targets: Sequence[Band], bands: Sequence[tuple[float, float] | None],
               sizes: Sequence[Size]) -> tuple[Aim | None, ...]:
    """One aim a puzzle (or None): each run of a named level that is a band, at one size (the
    run a book prints sorted by rating), spread over the band's ramp values (``rating.aims``),
    so an easy section climbs from its first puzzle to its last."""
    out: list[Aim | None] = []
    count = len(targets)
    key = [(bands[i], sizes[i * len(sizes) // count]) if bands and bands[i] else None for i in range(count)]
    i = 0
    while i < count:
        j = i
        while j < count and key[j] == key[i]:
            j += 1
        out += aims(targets[i].low, targets[i].high, targets[i].tier, j - i) if key[i] else [None] * (j - i)
        i = j
    return tuple(out) if any(a is not None for a in out) else ()


def _finish_section(s_index: int, raw: SectionModel, variant, report, ok: bool, sizes, levels, rules,
                    names: dict[str, str] | None, language: str, bands: tuple[tuple[float, float] | None, ...],
                    pictures: tuple[Picture, ...] = (), range_tiers: tuple[Level, ...] = (),
                    aims: tuple[Aim | None, ...] = ()) -> Section | None:
    """The keys every section has beside its puzzles (per page, givens, title), and the
    ``Section``; None when it or they had problems."""
    base: Path_ = ("sections", s_index)
    options: dict[str, Any] = {}
    if raw.per_page is not None and raw.per_page not in PER_PAGE:
        report(base + ("per_page",), _per_page_message(raw.per_page))
        ok = False
    if raw.givens is not None:
        if not variant.givens_option:
            having = " and ".join(v.name for v in VARIANTS.values() if v.givens_option)
            report(base + ("givens",), f"'givens' steers how many clues are given, in {having} only; "
                   f"{variant.name} has no such option", key=True)
            ok = False
        options["givens"] = raw.givens
    if not ok:
        return None
    title = printed(raw.title) or (names or {}).get(variant.name) or translation(language)(variant.title)
    return Section(s_index, variant.name, title, tuple(sizes), tuple(levels),
                   tuple(sorted(rules.items())), tuple(sorted(options.items())), raw.per_page,
                   raw.explain, bool(raw.new_page), raw.new_page == "right", bands, pictures, range_tiers, aims)


PICTURE_LEVEL = Level.MEDIUM  # a picture's level is known once it is made; plans and estimates take this one


def _picture_section(s_index: int, raw: SectionModel, variant, report, ok: bool, folder: Path,
                     seen: dict[str, str], names: dict[str, str] | None, language: str) -> Section | None:
    """A section of the user's own pictures (``pictures:``): each picture read, its size in
    the variant's range and any problem the variant sees in it reported as
    ``picture 'NAME': why``; or None after reporting."""
    base: Path_ = ("sections", s_index)
    if not variant.pictures_option:
        having = " and ".join(v.name for v in VARIANTS.values() if v.pictures_option)
        report(base + ("pictures",), f"'pictures' makes puzzles of your own pictures, in {having} only; "
               f"{variant.name} has no such option", key=True)
        return None
    given = raw.model_fields_set
    for key, why in (("size", "each picture's size is its own"),
                     ("difficulty", "each picture's level is the one it needs (printed beside it)"),
                     ("rules", "the rule options shape the pictures bookgen draws itself")):
        if key in given and getattr(raw, key) is not None:
            report(base + (key,), f"{key} does not go with pictures: {why}; remove {key}", key=True)
            ok = False
    if not raw.pictures:
        report(base + ("pictures",), "pictures list is empty; list your PNG or text-art files")
        return None
    if raw.count is not None and raw.count != len(raw.pictures):
        report(base + ("count",), f"count is {raw.count} but pictures lists {len(raw.pictures)}: one puzzle "
               "a picture; drop count or make them agree")
        ok = False
    pictures = []
    for i, item in enumerate(raw.pictures):
        where = base + ("pictures", i)
        label = repr(item) if "\n" not in item.strip() else f"'text art {i + 1}'"
        try:
            picture = read_picture(item, folder, i + 1)
        except PictureError as exc:
            report(where, f"picture {label}: {exc}")
            ok = False
            continue
        rows, cols = picture.rows_cols
        pixels = f" ({rows * picture.scale} \u00d7 {cols * picture.scale} pixels)" if picture.scale > 1 else ""
        problem = (None if GridSize(rows, cols) in variant.size_range else
                   f"is {rows} \u00d7 {cols} cells{pixels}; a {variant.name} picture has {variant.size_range}")
        problem = problem or variant.picture_problem(picture.rows)
        key = variant.picture_key(picture.rows)
        if problem is None and key in seen:
            problem = f"is the same puzzle as {seen[key]} (a turned or mirrored picture is the same puzzle)"
        if problem:
            report(where, f"picture {label}: {problem}")
            ok = False
            continue
        seen[key] = label
        pictures.append(picture)
    sizes = [GridSize(*p.rows_cols) for p in pictures]
    rules = variant.parse_rules(None, sizes[0] if sizes else variant.default_size)
    return _finish_section(s_index, raw, variant, report, ok, sizes, [PICTURE_LEVEL] * len(sizes), rules,
                           names, language, (), tuple(pictures))


def _grid_size(variant, item: Any, in_list: bool) -> tuple[Size, str | None]:
    """A config's size item as the variant takes it (an int N for a square-only variant, a
    ``GridSize`` for one that takes rectangles), or why not (a one-line message)."""
    if isinstance(item, str):
        grid = GridSize.parse(item)
        if grid is None:
            shape = " or ROWSxCOLS (e.g. 15x10)" if variant.rectangular else ""
            extra = " (write it without '_' separators)" if item.replace("_", "").isdigit() and "_" in item else ""
            return 0, (f"size must be a whole number{shape}, got {_show(item)}{extra}" if in_list else
                       f"size must be a whole number{shape} or a list of them, got {_show(item)}")
        if not variant.rectangular:
            if not grid.is_square:
                return 0, (f"{variant.name} takes only square sizes (one number, e.g. {variant.default_size}), "
                           f"got {_show(item)}")
            grid = grid.rows
        item = grid
    if not variant.rectangular:
        if item not in variant.sizes:
            return 0, (f"{variant.name} size must be one of {', '.join(map(str, variant.sizes))}, "
                       f"got {_show(item)}" + (f"; {variant.size_note}" if variant.size_note else ""))
        return item, None
    grid = item if isinstance(item, GridSize) else GridSize(item, item)
    if grid not in variant.size_range:
        return 0, (f"{variant.name} size must have {variant.size_range}, got {_show(str(grid))}"
                   + (f"; {variant.size_note}" if variant.size_note else ""))
    return grid, None


def _range_message(value: Any) -> str:
    return ("rating must be two numbers [low, high] with 1.0 <= low < high <= "
            f"{TOP:g} (the rating scale, see docs/calibration.md), got {_show(value)}")


def _levels(base: Path_, diff: Any, count: int | None, report, count_ok: bool = True) -> list[Band] | None:
    """One level per puzzle from a section's difficulty, as the band of the rating it must
    fall in (its ``tier`` is the ladder tier it is carved at), or None after reporting why not.

    With ``count_ok`` false (a bad count was reported already) only the levels are checked.
    """
    if not count_ok:
        count = 1 if isinstance(diff, (str, Ramp, RatingRange)) else None
    try:
        if isinstance(diff, RatingRange):
            got = diff.rating
            if len(got) != 2 or not 1.0 <= got[0] < got[1] <= TOP:
                report(base + ("difficulty", "rating"), _range_message(got))
                return None
            if count is None:
                report(base, "missing required key 'count'")
                return None
            # A range across tiers: puzzle i is carved at the i-th of them first (then the others)
            tiers = tiers_for(got[0], got[1])
            return [Band("rating", got[0], got[1], tiers[i % len(tiers)], "") for i in range(count)] if count_ok else None
        if isinstance(diff, (str, Ramp)):
            if isinstance(diff, str):
                lo = hi = band(diff.strip())
            else:
                lo, hi = band(diff.from_.strip()), band(diff.to.strip())
            if BANDS.index(hi) < BANDS.index(lo):
                report(base + ("difficulty",), f"ramp goes from {lo.key} down to {hi.key}; "
                       "put the easier level in 'from'")
                return None
            if count is None:
                report(base, "missing required key 'count'")
                return None
            span = BANDS[BANDS.index(lo):BANDS.index(hi) + 1]
            if not count_ok:
                return None
            # puzzle i gets level lo + i * span // count: runs of one level, built a run at a time
            starts = [-(-k * count // len(span)) for k in range(len(span) + 1)]
            return [b for k in range(len(span)) for b in [span[k]] * (starts[k + 1] - starts[k])]
        levels: list[Band] = []
        for b, block in enumerate(diff):
            if len(block) != 1:
                report(base + ("difficulty", b), "each difficulty block is one '- level: count' pair")
                return None
            (key, n), = block.items()
            level = band(key.strip())
            if not 1 <= n <= MAX_COUNT - len(levels):
                report(base + ("difficulty", b, key), f"block count must be at least 1, got {n}" if n < 1 else
                       f"the difficulty blocks add up to more than {MAX_COUNT} puzzles")
                return None
            levels += [level] * n
        if count is not None and count != len(levels):
            report(base + ("count",), f"count is {count} but the difficulty blocks add up to "
                   f"{len(levels)}; drop count or make them agree")
            return None
        if not levels:
            report(base + ("difficulty",), "difficulty block list is empty")
            return None
        return levels if count_ok else None
    except ValueError as exc:
        word = str(exc).split("'")[1] if "'" in str(exc) else ""
        report(base + ("difficulty",), f"{exc}{_hint(word, BAND_KEYS)}")
        return None


def _rule_path(rules: Any, message: str) -> tuple[Path_, bool]:
    """Which rule option a variant's message is about: (path inside rules, point at its key)."""
    if not isinstance(rules, dict):
        return (), False
    named = [(message.find(key), key) for key in rules if isinstance(key, str) and key in message]
    if not named:
        return (), False
    _, key = min(named)
    return (key,), "unknown" in message


def load_book(path: str | Path) -> Book:
    """Read and validate a book file; ``ConfigError`` for every kind of problem."""
    file = str(path)
    try:
        text = read_text_file(path)
    except ValueError as exc:
        raise ConfigError([ConfigIssue(file, 1, 1, str(exc))]) from None
    data, where = load_yaml(text, file)
    return parse_book(data, where, file, Path(path).stem)


def same_isbn_warnings(book: Book) -> list[str]:
    """A warning for each earlier volume (``exclude``) printed with this book's ISBN: every
    volume and edition needs its own."""
    mine = book.imprint.isbn
    if not mine:
        return []
    digits = re.sub(r"[^0-9Xx]", "", mine).upper()
    return [f"exclude {name}: that volume has the same ISBN as this book ({mine}); every volume "
            "and edition needs its own ISBN (imprint: isbn)"
            for name, isbn in book.exclude_isbns if re.sub(r"[^0-9Xx]", "", isbn).upper() == digits]
