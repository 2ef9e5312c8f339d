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
from typing import Any, Literal, Union

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bookgen.core.difficulty import LEVEL_KEYS, Level
from bookgen.layout.geometry import (
    PER_PAGE, TRIMS, BookShape, PageSpec, SectionShape, Style, Trim, fit_problems, parse_length,
    trim_for,
)
from bookgen.variants.registry import get_variant, variant_names

MAX_COUNT = 100_000
PAGE_FORMATS = tuple(TRIMS)
LAYOUTS = ("book", "worksheet")
GIVENS_AMOUNTS = ("few", "normal", "many")

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
_INT = re.compile(r"[-+]?(0|[1-9][0-9_]*)$")
_HEX = re.compile(r"0x[0-9a-fA-F]+$")
_OCT = re.compile(r"0o[0-7]+$")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_YAML11_BOOLS = {"yes", "no", "on", "off", "y", "n"}


class Located:
    """Maps a data path to the (line, col) of its value and of its key."""

    def __init__(self) -> None:
        self.values: dict[Path_, tuple[int, int]] = {}
        self.keys: dict[Path_, tuple[int, int]] = {}

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
    if _INT.match(text):
        return int(text.replace("_", ""))
    if _HEX.match(text):
        return int(text, 16)
    if _OCT.match(text):
        return int(text[2:], 8)
    if _FLOAT.match(text) and any(ch.isdigit() for ch in text):
        return float(text.replace("_", ""))
    if low in (".inf", "+.inf", "-.inf", ".nan"):
        return float(low.replace(".", "")) if "nan" not in low else math.nan
    return text


class _NodeError(Exception):
    def __init__(self, node: yaml.Node, message: str):
        self.node = node
        self.message = message


def _pos(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _build(node: yaml.Node, path: Path_, where: Located, issues: list[tuple[tuple[int, int], str]]) -> Any:
    where.values[path] = _pos(node)
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), where, issues) for i, item in enumerate(node.value)]
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
            where.keys[path + (key,)] = _pos(key_node)
            out[key] = _build(value_node, path + (key,), where, issues)
        return out
    raise _NodeError(node, "unsupported YAML node")


def load_yaml(text: str, file: str) -> tuple[Any, Located]:
    """Parse YAML text into plain data plus positions; ``ConfigError`` on bad YAML."""
    where = Located()
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        raise ConfigError([ConfigIssue(file, line, col, f"YAML syntax error: {problem}")]) from None
    except yaml.YAMLError as exc:
        raise ConfigError([ConfigIssue(file, 1, 1, f"YAML error: {exc}")]) from None
    if node is None:
        raise ConfigError([ConfigIssue(file, 1, 1, "the file is empty; a book needs at least "
                                       "'title' and 'sections'")])
    dupes: list[tuple[tuple[int, int], str]] = []
    try:
        data = _build(node, (), where, dupes)
    except _NodeError as exc:
        line, col = _pos(exc.node)
        raise ConfigError([ConfigIssue(file, line, col, exc.message)]) from None
    if dupes:
        raise ConfigError([ConfigIssue(file, l, c, m) for (l, c), m in dupes])
    return data, where


# ----- the schema ------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Ramp(_Strict):
    """A difficulty ramp spread evenly over a section, in order."""

    from_: str = Field(alias="from")
    to: str


class SectionModel(_Strict):
    variant: str
    count: int | None = None
    size: int | list[int] | None = None
    difficulty: str | Ramp | list[dict[str, int]] = "medium"
    rules: dict[str, Any] | None = None
    title: str | None = None
    givens: Literal["few", "normal", "many"] | None = None
    per_page: int | None = None
    explain: bool = False


class BookModel(_Strict):
    title: str
    subtitle: str | None = None
    author: str | None = None
    seed: int = 1
    page: str | dict[str, Any] = "letter"
    bleed: bool = False
    layout: str = "book"
    per_page: int | None = None
    large_print: bool = False
    sections: list[dict[str, Any]] = Field(min_length=1)


@dataclass(frozen=True)
class Section:
    """One validated section: what to generate, in book order."""

    index: int
    variant: str
    title: str
    sizes: tuple[int, ...]
    levels: tuple[Level, ...]  # one per puzzle
    rules: tuple[tuple[str, Any], ...]
    options: tuple[tuple[str, Any], ...]
    per_page: int | None = None
    explain: bool = False  # a worked walkthrough of the first puzzle after the rules pages

    @property
    def count(self) -> int:
        """How many puzzles the section holds."""
        return len(self.levels)

    def size_of(self, i: int) -> int:
        """The grid size of the section's i-th puzzle (sizes spread evenly, in order)."""
        return self.sizes[i * len(self.sizes) // self.count]


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

    def with_seed(self, seed: int) -> "Book":
        """The same book with another seed."""
        return replace(self, seed=seed)

    @property
    def shape(self) -> BookShape:
        """What layout needs to paginate the book before any puzzle exists."""
        return book_shape(self.trim, self.bleed, self.layout, self.per_page, self.large_print,
                          self.sections)


def book_shape(trim: Trim, bleed: bool, layout: str, per_page: int | None, large_print: bool,
               sections: tuple[Section, ...]) -> BookShape:
    """The page shape of a book: page spec, type scale and each section's grid sizes."""
    worksheet = layout == "worksheet"
    shapes = tuple(SectionShape(s.title, s.variant, tuple(s.size_of(i) for i in range(s.count)), s.per_page,
                                s.explain and not worksheet) for s in sections)
    return BookShape(PageSpec(trim, bleed, mirrored=not worksheet), shapes, Style(large_print),
                     worksheet, per_page)


def _hint(word: Any, choices) -> str:
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


_FIELDS = {
    (): ("title", "subtitle", "author", "seed", "page", "bleed", "layout", "per_page", "large_print",
         "sections"),
    ("sections",): ("variant", "count", "size", "difficulty", "rules", "title", "givens", "per_page",
                    "explain"),
    ("difficulty",): ("from", "to"),
}


def _pydantic_message(err: dict, data: Any) -> tuple[Path_, bool, str]:
    """(path, point-at-key, message) for one pydantic error."""
    loc = tuple(x for x in err["loc"] if not (isinstance(x, str) and (
        x in ("str", "int", "list[int]", "Ramp", "list[dict[str,int]]") or x.startswith(("function", "literal")))))
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
    if kind in ("bool_type",) or (isinstance(value, str) and value.lower() in _YAML11_BOOLS and "bool" in kind):
        return loc, False, f"{field} must be true or false, got {value!r}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        extra = ""
        if isinstance(value, float):
            extra = " (write it without a decimal point or exponent)"
        elif isinstance(value, bool):
            extra = ""
        return loc, False, f"{field} must be a whole number, got {value!r}{extra}"
    if kind in ("string_type",):
        return loc, False, f"{field} must be text, got {value!r}"
    if kind == "too_short" and field == "sections":
        return loc, False, "a book needs at least one section"
    if kind == "literal_error":
        return loc, False, f"{field} must be one of {', '.join(GIVENS_AMOUNTS)}, got {value!r}"
    if kind in ("list_type", "dict_type", "model_type", "model_attributes_type"):
        want = {"list_type": "a list", "dict_type": "a mapping", "model_type": "a mapping",
                "model_attributes_type": "a mapping"}[kind]
        return loc, False, f"{field} must be {want}, got {value!r}"
    return loc, False, f"{field}: {err['msg']}"


def _difficulty_message(value: Any) -> str:
    return ("difficulty must be a level (" + ", ".join(LEVEL_KEYS) + "), a ramp {from: easy, to: hard}, "
            f"or a list of {{level: count}} blocks; got {value!r}")


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
    trim = None if model is None else _parse_page(model, report)
    sections: list[Section] = []
    raw_sections = data.get("sections")
    for s_index, raw in enumerate(raw_sections if isinstance(raw_sections, list) else []):
        if not isinstance(raw, dict):
            report(("sections", s_index), "each section must be a mapping with 'variant' and 'count'")
            continue
        known = _FIELDS[("sections",)]
        for key in sorted(set(raw) - set(known), key=str):
            report(("sections", s_index, key), f"unknown key {key!r}{_hint(key, known)}", key=True)
        raw = {k: v for k, v in raw.items() if k in known}
        try:
            section_model = SectionModel.model_validate(raw)
        except ValidationError as exc:
            _report_errors(exc, ("sections", s_index), raw, report)
            continue
        section = _parse_section(s_index, section_model, report)
        if section is not None:
            sections.append(section)
    if model is not None and model.layout == "worksheet":
        for section in sections:
            if section.explain:  # worksheets have no rules pages to put a walkthrough after
                report(("sections", section.index, "explain"),
                       "explain adds a walkthrough after a book's how-to-play pages; worksheets have "
                       "none (remove 'explain' or use layout: book)")
    if not issues:
        assert model is not None and trim is not None
        book = Book(file, name, model.title, model.subtitle, model.author, model.seed, trim.name,
                    tuple(sections), trim, model.bleed, model.layout, model.per_page, model.large_print)
        _check_fit(book, raw_sections, report)
    if issues:
        raise ConfigError(sorted(issues, key=lambda i: (i.line, i.col)))
    return book


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
            path = ("sections", section.index, "size", raw["size"].index(size))
        else:
            path = ("sections", section.index, "size")
        report(path, problem)


def _report_errors(exc: ValidationError, prefix: Path_, data: dict, report) -> None:
    """Turn pydantic's errors into located messages, one per problem."""
    seen = set()
    for err in exc.errors():
        loc = prefix + tuple(err["loc"])
        if "difficulty" in err["loc"]:
            if "difficulty" in seen:
                continue
            seen.add("difficulty")
            path = prefix + ("difficulty",)
            value = data.get("difficulty")
            if isinstance(value, dict) and not {"from", "to"} >= set(value):
                bad = sorted(set(value) - {"from", "to"})[0]
                report(path + (bad,), f"unknown key {bad!r} in difficulty ramp{_hint(bad, ('from', 'to'))}",
                       key=True)
            else:
                report(path, _difficulty_message(value))
            continue
        if not prefix and err["loc"][:1] == ("page",):
            if "page" not in seen:  # one message for both halves of the union
                seen.add("page")
                report(("page",), f"page must be one of {', '.join(PAGE_FORMATS)} or "
                       f"{{width: 6in, height: 9in}}, got {data.get('page')!r}")
            continue
        path, key, message = _pydantic_message(dict(err, loc=loc), data)
        report(path, message, key)


def _parse_section(s_index: int, raw: SectionModel, report) -> Section | None:
    base: Path_ = ("sections", s_index)
    ok = True
    if raw.count is not None and not 1 <= raw.count <= MAX_COUNT:
        report(base + ("count",), f"count must be between 1 and {MAX_COUNT}, got {raw.count}")
        ok = False
    try:
        variant = get_variant(raw.variant)
    except KeyError:
        report(base + ("variant",), f"unknown variant {raw.variant!r}; expected one of "
               f"{', '.join(variant_names())}{_hint(raw.variant.lower(), variant_names())}")
        return None

    sizes = raw.size if isinstance(raw.size, list) else [raw.size if raw.size is not None else variant.default_size]
    if not sizes:
        report(base + ("size",), "size list is empty")
        ok = False
    for i, size in enumerate(sizes):
        path = base + ("size",) + ((i,) if isinstance(raw.size, list) else ())
        if size not in variant.sizes:
            report(path, f"{variant.name} size must be one of {', '.join(map(str, variant.sizes))}, got {size}"
                   + ("; sizes must be even" if size % 2 and variant.name in ("takuzu", "tango") else ""))
            ok = False

    # difficulty -> one level per puzzle
    levels: list[Level] = []
    diff = raw.difficulty
    count = raw.count
    if not ok:
        return None
    try:
        if isinstance(diff, str):
            if count is None:
                report(base, "missing required key 'count'")
                return None
            levels = [Level.parse(diff)] * count
        elif isinstance(diff, Ramp):
            lo, hi = Level.parse(diff.from_), Level.parse(diff.to)
            if hi < lo:
                report(base + ("difficulty",), f"ramp goes from {lo.key} down to {hi.key}; "
                       "put the easier level in 'from'")
                return None
            if count is None:
                report(base, "missing required key 'count'")
                return None
            span = hi - lo + 1
            levels = [Level(lo + i * span // count) for i in range(count)]
        else:
            for b, block in enumerate(diff):
                if len(block) != 1:
                    report(base + ("difficulty", b), "each difficulty block is one '- level: count' pair")
                    return None
                (key, n), = block.items()
                level = Level.parse(key)
                if n < 1:
                    report(base + ("difficulty", b, key), f"block count must be at least 1, got {n}")
                    return None
                levels += [level] * n
            if count is not None and count != len(levels):
                report(base + ("count",), f"count is {count} but the difficulty blocks add up to "
                       f"{len(levels)}; drop count or make them agree")
                return None
            if not levels:
                report(base + ("difficulty",), "difficulty block list is empty")
                return None
    except ValueError as exc:
        word = str(exc).split("'")[1] if "'" in str(exc) else ""
        report(base + ("difficulty",), f"{exc}{_hint(word, LEVEL_KEYS)}")
        return None
    if len(levels) > MAX_COUNT:
        report(base + ("difficulty",), f"a section holds at most {MAX_COUNT} puzzles")
        return None

    rules: dict[str, Any] = {}
    for size in sorted(set(sizes)) if ok else []:
        try:
            rules = variant.parse_rules(raw.rules, size)
        except ValueError as exc:
            report(base + ("rules",), f"{exc}")
            ok = False
            break
        for level in sorted(set(levels)):
            problem = variant.check_request(size, rules, level)
            if problem:
                report(base + ("difficulty",), problem)
                ok = False
    options: dict[str, Any] = {}
    if raw.per_page is not None and raw.per_page not in PER_PAGE:
        report(base + ("per_page",), _per_page_message(raw.per_page))
        ok = False
    if raw.givens is not None:
        if not getattr(variant, "uses_signs", False):
            report(base + ("givens",), f"'givens' steers Tango sign/given mix; {variant.name} has no such option",
                   key=True)
            ok = False
        options["givens"] = raw.givens
    if not ok:
        return None
    title = raw.title or variant.title
    return Section(s_index, variant.name, title, tuple(sizes), tuple(levels),
                   tuple(sorted(rules.items())), tuple(sorted(options.items())), raw.per_page,
                   raw.explain)


def load_book(path: str | Path) -> Book:
    """Read and validate a book file; ``ConfigError`` for every kind of problem."""
    p = Path(path)
    file = str(path)
    if not p.exists():
        raise ConfigError([ConfigIssue(file, 1, 1, "no such file")])
    if p.is_dir():
        raise ConfigError([ConfigIssue(file, 1, 1, "is a directory, not a YAML file")])
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ConfigError([ConfigIssue(file, 1, 1, f"cannot read the file: {exc.strerror}")]) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError([ConfigIssue(file, 1, 1, f"not UTF-8 text ({exc.reason} at byte {exc.start})")]) from None
    data, where = load_yaml(text, file)
    return parse_book(data, where, file, p.stem)
