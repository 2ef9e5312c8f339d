"""The studio's book designer, without the web: the form, the check and the plan.

The form is generated from the same pydantic models that validate a YAML
file (``BookModel``, ``SectionModel``), from the imprint and cover dataclasses
and from each variant's own rule defaults, so a key or variant added there
shows up in the studio without editing a page. A form's values are plain
YAML data; checking them writes that data as the YAML a user downloads and
runs the very same ``load_yaml``/``parse_book`` as ``bookgen build``, so every
message is the CLI's, placed beside the field its line and column point to.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import types
import typing
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic_core import PydanticUndefined

from bookgen.config import (
    _FIELDS, GIVENS_AMOUNTS, LAYOUTS, MAX_CONFIG_BYTES, PAGE_FORMATS, Book, BookModel, ConfigError,
    CoverSpec, Imprint, Located, SectionModel, load_yaml, parse_book,
)
from bookgen.core.difficulty import LEVEL_KEYS
from bookgen.core.rating import BANDS, reachable
from bookgen.jobs import forkserver_context
from bookgen.i18n import languages
from bookgen.layout.geometry import PER_PAGE
from bookgen.pictures import is_text_art
from bookgen.templates import TEMPLATES, template_text
from bookgen.variants.registry import VARIANTS, get_variant

Path_ = tuple[Any, ...]
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,59}")  # a book's file name: no folders, no dots first
UPLOAD_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._ -]{0,99}\.json")

# Fixed choices the models spell as plain types: one table, read from the config's own constants.
CHOICES: dict[tuple[str, str], tuple] = {
    ("book", "layout"): LAYOUTS,
    ("book", "page"): PAGE_FORMATS,
    ("book", "per_page"): tuple(PER_PAGE),
    ("section", "per_page"): tuple(PER_PAGE),
    ("section", "variant"): tuple(VARIANTS),
    ("cover", "paper"): ("white", "cream"),
    ("book", "language"): languages(),
}
# Keys drawn by a widget of their own (what their value means is more than its type).
WIDGETS = {("book", "sections"): "sections", ("book", "exclude"): "files", ("book", "names"): "names",
           ("book", "page"): "page", ("section", "size"): "sizes", ("section", "difficulty"): "difficulty",
           ("section", "rules"): "rules", ("cover", "blurb"): "textarea", ("cover", "colour"): "colour",
           ("book", "replace"): "numbers", ("section", "pictures"): "pictures"}
GROUPS = {"imprint": Imprint, "cover": CoverSpec}  # mapping keys and the dataclass that holds their fields


def _types(annotation: Any) -> list[Any]:
    """The members of a union annotation, ``None`` left out."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [a for a in typing.get_args(annotation) if a is not type(None)]
    return [annotation]


def _kind(annotation: Any, default: Any = None) -> tuple[str, tuple]:
    """(widget kind, choices) for a value of this type: the fallback when no table names one."""
    members = _types(annotation)
    if len(members) == 1 and typing.get_origin(members[0]) is Literal:
        return "select", typing.get_args(members[0])
    if members == [bool]:
        return "checkbox", ()
    if bool in members and all(m is bool or typing.get_origin(m) is Literal for m in members):
        return "select", (False, True, *(a for m in members if m is not bool for a in typing.get_args(m)))
    if members == [int]:
        return "number", ()
    if members == [str]:
        return "text", ()
    if members == [float]:
        return "number", ()
    if all(typing.get_origin(m) is tuple for m in members) or members == [list[int]]:
        return "yaml", ()
    return "yaml", ()  # anything else is typed as a YAML value: every key stays editable


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _model_fields(model, scope: str) -> list[dict[str, Any]]:
    out = []
    for key, info in model.model_fields.items():
        key = info.alias or key
        kind, choices = _kind(info.annotation)
        choices = CHOICES.get((scope, key), choices)
        if choices and kind != "checkbox":
            kind = "select"
        kind = WIDGETS.get((scope, key), kind)
        default = None if info.default is PydanticUndefined or info.default is None else info.default
        field: dict[str, Any] = {"key": key, "kind": kind, "label": _label(key), "required": info.is_required(),
                                 "default": default}
        if choices:
            field["choices"] = list(choices)
        if key in GROUPS:
            field["kind"] = "group"
            field["fields"] = _dataclass_fields(GROUPS[key], key)
        out.append(field)
    return out


def _dataclass_fields(cls, scope: str) -> list[dict[str, Any]]:
    out = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        kind, choices = _kind(hints[f.name])
        choices = CHOICES.get((scope, f.name), choices)
        if choices:
            kind = "select"
        kind = WIDGETS.get((scope, f.name), kind)
        default = f.default if f.default is not dataclasses.MISSING else None
        if isinstance(default, tuple):
            default = None
        field = {"key": f.name, "kind": kind, "label": _label(f.name), "required": False, "default": default}
        if choices:
            field["choices"] = list(choices)
        out.append(field)
    return out


def rule_fields(variant_name: str) -> list[dict[str, Any]]:
    """A variant's rule options as form fields, from its own defaults (``parse_rules(None)``)."""
    variant = get_variant(variant_name)
    defaults = variant.parse_rules(None, variant.default_size)
    menus = getattr(variant, "rule_choices", {})
    out = []
    for key, value in defaults.items():
        if key in menus:
            field = {"kind": "select", "choices": list(menus[key])}
        elif isinstance(value, bool):
            field = {"kind": "checkbox"}
        elif isinstance(value, int):
            field = {"kind": "number"}
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            field = {"kind": "multi", "choices": list(value)}  # the default is every choice
        elif isinstance(value, str):
            field = {"kind": "text"}
        else:
            field = {"kind": "yaml"}
        out.append({"key": key, "label": _label(key), "default": value, "required": False, **field})
    return out


def _levels_of(variant) -> list[str]:
    """The named levels the form offers a variant at its default size: where its levels are
    bands of the rating, the bands the config check would accept there (``beginner`` too, and
    ``extreme`` where the variant climbs to it); else the tiers. (Another size may not have
    them all: the check then says so beside the field.)"""
    size = variant.default_size
    rules = variant.parse_rules({}, size)
    if not variant.banded_levels(size, rules):
        return list(LEVEL_KEYS)
    return [b.key for b in BANDS
            if reachable(b.low, b.high, lambda tier: variant.check_request(size, rules, tier) is None,
                         variant.climbs(size, rules))]


@lru_cache(maxsize=1)
def form_schema() -> dict[str, Any]:
    """Everything the page needs to draw the designer, as JSON-ready data."""
    variants = {}
    for name, v in VARIANTS.items():
        default = v.default_size if isinstance(v.default_size, int) else str(v.default_size)
        # a rectangular variant: its square sizes as boxes, any other rows x cols typed (``15x10``)
        variants[name] = {"title": v.title, "sizes": list(v.sizes), "default_size": default,
                          "rectangular": bool(v.rectangular),
                          "size_range": str(v.size_range) if v.size_range else "",
                          "size_limits": ([v.size_range.min_rows, v.size_range.max_rows, v.size_range.min_cols,
                                           v.size_range.max_cols] if v.size_range else None),
                          "rules": rule_fields(name),
                          "givens": bool(getattr(v, "uses_signs", False) or getattr(v, "givens_option", False)),
                          "pictures": bool(v.pictures_option), "levels": _levels_of(v)}
    section = _model_fields(SectionModel, "section")
    section.sort(key=lambda f: f["key"] != "variant" and (f["key"] != "title") + 1)  # a section's name first
    return {"book": _model_fields(BookModel, "book"), "section": section,
            "ramp": ["from", "to"], "levels": list(LEVEL_KEYS), "givens": list(GIVENS_AMOUNTS),
            "languages": list(languages()), "variants": variants,
            "templates": [{"name": k, "label": v} for k, v in TEMPLATES.items()]}


# ----- form values <-> YAML -------------------------------------------------------
class _Dumper(yaml.SafeDumper):
    """Block mappings, short lists and ramps on one line, no aliases."""

    def ignore_aliases(self, data):  # noqa: D102 - PyYAML hook
        return True


def _ordered(data: Any, order: tuple[str, ...]) -> Any:
    if not isinstance(data, dict):
        return data
    known = [k for k in order if k in data]
    return {k: data[k] for k in known + [k for k in data if k not in order]}


def to_yaml(data: Any, name: str = "book") -> str:
    """The YAML file a form's values make: keys in the models' order, a header comment.

    ``load_yaml`` reads it back as ``data`` (a test checks it), so what the studio
    checks and builds is what a user downloads."""
    if isinstance(data, dict):
        data = _ordered(data, _FIELDS[()])
        if isinstance(data.get("sections"), list):
            order = ("variant", "title") + _FIELDS[("sections",)]  # a section reads as its name first
            data["sections"] = [_ordered(s, order) for s in data["sections"]]
    body = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None,
                     width=100)
    return (f"# {name}.yaml, made with the bookgen studio (comments of an uploaded file are not kept).\n"
            f"# Build it with: bookgen build {name}.yaml\n" + body)


def from_yaml(text: str, file: str = "book.yaml") -> Any:
    """Form values from YAML text (comments are lost); ``ConfigError`` on bad YAML."""
    data, _ = load_yaml(text, file)
    return data


def template_data(name: str) -> Any:
    """A template's values, for the form."""
    return from_yaml(template_text(name), f"{name}.yaml")


# ----- checking -------------------------------------------------------------------
@dataclasses.dataclass
class Checked:
    """A form's values checked: the YAML, the book (None when it has errors) and its errors."""

    yaml: str
    book: Book | None
    errors: list[dict[str, Any]]


def name_problem(name: Any) -> str | None:
    """Why ``name`` can't name a book's files, or None."""
    if not isinstance(name, str) or not NAME_RE.fullmatch(name) or ".." in name:
        return ("the file name may hold letters, digits, '.', '-' and '_' (up to 60, no folders), "
                f"got {str(name)[:40]!r}")
    return None


def exclude_names(data: Any) -> list[str]:
    """The file names a config's ``exclude`` lists (whatever their type)."""
    value = data.get("exclude") if isinstance(data, dict) else None
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [x for x in items if isinstance(x, str)]


def _path_of(where: Located, line: int, col: int) -> Path_:
    """The deepest data path whose value (else key) starts at (line, col)."""
    for table in (where.values, where.keys):
        hits = [p for p, at in table.items() if at == (line, col)]
        if hits:
            return max(hits, key=len)
    return ()


def check(data: Any, name: str, folder: Path | None = None) -> Checked:
    """Check form values as ``bookgen build NAME.yaml`` would, in ``folder`` (where the uploaded
    earlier volumes are; none reachable otherwise). Every error is the CLI's message, with the data
    path of the field it belongs to."""
    problem = name_problem(name)
    text = to_yaml(data, name if problem is None else "book")
    file = f"{name if problem is None else 'book'}.yaml"
    errors: list[dict[str, Any]] = []
    if problem:
        errors.append({"path": ["_name"], "message": problem, "where": ""})
    if len(text.encode()) > MAX_CONFIG_BYTES:
        errors.append({"path": [], "message": f"the book's settings are larger than {MAX_CONFIG_BYTES >> 20} MB",
                       "where": ""})
        return Checked(text, None, errors)
    for i, item in enumerate(exclude_names(data)):
        if not UPLOAD_NAME_RE.fullmatch(item) or folder is None or not (folder / item).is_file():
            path = ["exclude", i] if isinstance(data.get("exclude"), list) else ["exclude"]
            errors.append({"path": path, "message": f"exclude {item}: upload this earlier volume's JSON "
                           "file here (the studio reads no other files)", "where": ""})
    blocked = any(e["path"][:1] == ["exclude"] for e in errors)  # no path of those may reach parse_book
    cover = data.get("cover") if isinstance(data, dict) else None
    image = isinstance(cover, dict) and cover.get("image") not in (None, "")
    if image:  # a picture is a path on the server: the studio opens none (the CLI does)
        errors.append({"path": ["cover", "image"], "message": "cover image: the studio reads no files from "
                       "its computer; build with 'bookgen build' to print your own picture", "where": ""})
    files = picture_files(data)
    where = Located()
    book = None
    try:
        parsed, where = load_yaml(text, file)
        if blocked and isinstance(parsed, dict):
            parsed = {k: v for k, v in parsed.items() if k != "exclude"}
        if image and isinstance(parsed, dict) and isinstance(parsed.get("cover"), dict):
            parsed = {**parsed, "cover": {k: v for k, v in parsed["cover"].items() if k != "image"}}
        base = folder if folder is not None else Path("/nonexistent-bookgen-studio")
        book = parse_book(parsed, where, str(base / file), name if problem is None else "book")
    except ConfigError as exc:
        for issue in exc.issues:
            path = list(_path_of(where, issue.line, issue.col))
            message = issue.message
            if tuple(path[:4]) in files:  # a picture is a file on the user's computer: the studio opens none
                message = (f"picture {files[tuple(path[:4])]!r}: the studio reads no files from your computer; "
                           "type the picture here as text art (lines of # and .), or build with 'bookgen build'")
            errors.append({"path": path, "message": message, "where": f"{file}:{issue.line}:{issue.col}"})
    return Checked(text, None if errors else book, errors)


def picture_files(data: Any) -> dict[tuple, str]:
    """The ``pictures:`` items that name files, by their data path: (sections, i, pictures, j) -> name."""
    sections = data.get("sections") if isinstance(data, dict) else None
    out = {}
    for i, section in enumerate(sections if isinstance(sections, list) else ()):
        items = section.get("pictures") if isinstance(section, dict) else None
        for j, item in enumerate(items if isinstance(items, list) else ()):
            if isinstance(item, str) and not is_text_art(item):
                out[("sections", i, "pictures", j)] = item
    return out


# ----- the plan, fast enough to follow typing --------------------------------------
_CACHED = False
_ORIGINALS: dict = {}
_TABLES: dict[str, dict] = {}  # the memos' tables, by function name
_STANDINS: dict[tuple, Any] = {}  # (variant, rules, printed sizes) -> a worked example made for some seed
_HOWTO_PAGES: dict[tuple, tuple[int, bool]] = {}  # how-to pages without the seed -> (pages, measured with an example)
_DRAFTING = threading.local()
_PLANS: dict[tuple[str, int, str], Future] = {}
_PLAN_LOCK = threading.Lock()
_PLANNER: list[ProcessPoolExecutor] = []  # one process makes exact plans: no generation holds the GIL here
MAX_PLANS = 200
MAX_KEPT = 2000


def _memo(fn, key, name: str):
    table: dict = _TABLES.setdefault(name, {})

    def wrapper(*args, **kwargs):
        k = key(*args, **kwargs)
        if k not in table:
            if len(table) > 500:
                table.clear()
            table[k] = fn(*args, **kwargs)
        return table[k]
    wrapper.__wrapped__ = fn
    return wrapper


def _keep(table: dict, key: Any, value: Any) -> None:
    """A stand-in table entry; a table past MAX_KEPT entries starts again (a server runs for days)."""
    if key not in table and len(table) >= MAX_KEPT:
        table.clear()
    table[key] = value


def _rules_key(rules: Any) -> str:
    return repr(sorted(dict(rules).items()))


def _walk_key(job) -> tuple:
    """A walkthrough's puzzle without its seed: what a draft measures another seed's with."""
    return ("walk", job.variant, job.size, job.rules, job.level, job.options)


def install_caches() -> None:
    """Remember worked examples, how-to and walkthrough page counts and walkthrough puzzles in
    this process.

    All four are pure functions of their arguments (the book seed, the rules, the page);
    ``plan_report`` with the caches gives the text it gives without them (a test checks
    it). A studio user changing a title or a count then waits for the page arithmetic only.
    Besides, each worked example and how-to count is remembered without its seed: a first
    plan (``draft_text``) is made from those while the exact one is being made.
    """
    global _CACHED
    if _CACHED:
        return
    import bookgen.book as book_module
    import bookgen.layout.render as render_module
    import bookgen.plan as plan_module

    _ORIGINALS.update({(book_module, "worked_example"): book_module.worked_example,
                       (render_module, "rules_pages_needed"): render_module.rules_pages_needed,
                       (render_module, "walkthrough_pages_needed"): render_module.walkthrough_pages_needed,
                       (plan_module, "run_job"): plan_module.run_job})
    examples = _memo(book_module.worked_example,
                     lambda seed, variant, rules, printed=(): (seed, variant, _rules_key(rules), tuple(printed)),
                     "worked_example")

    def example(seed, variant, rules, printed=()):
        puzzle = examples(seed, variant, rules, printed)
        _keep(_STANDINS, (variant, _rules_key(rules), tuple(printed)), puzzle)
        return puzzle

    pages = _memo(render_module.rules_pages_needed, lambda *a, **k: repr((a, k)), "rules_pages_needed")

    def how_to_pages(spec, style, gutter, variant_name, example, language="en", rules=None, sizes=()):
        free = repr((spec, style, gutter, variant_name, language, _rules_key(rules or {}), tuple(sizes)))
        known = _HOWTO_PAGES.get(free)
        if getattr(_DRAFTING, "on", False) and known is not None:
            return known[0]  # a draft: the count another seed's example gave
        n = pages(spec, style, gutter, variant_name, example, language, rules, sizes)
        if example is not None or known is None:
            _keep(_HOWTO_PAGES, free, (n, example is not None))
        return n

    made = _memo(plan_module.run_job, lambda job: repr(job), "run_job")

    def run(job):
        puzzle = made(job)
        _keep(_STANDINS, _walk_key(job), puzzle)
        return puzzle

    book_module.worked_example = example
    render_module.rules_pages_needed = how_to_pages
    render_module.walkthrough_pages_needed = _memo(render_module.walkthrough_pages_needed,
                                                   lambda *a, **k: repr((a, k)), "walkthrough_pages_needed")
    plan_module.run_job = run
    _CACHED = True


def uninstall_caches() -> None:
    """Put the plain functions back (tests compare the two)."""
    global _CACHED
    for (module, name), fn in _ORIGINALS.items():
        setattr(module, name, fn)
    _ORIGINALS.clear()
    for table in (_TABLES, _STANDINS, _HOWTO_PAGES, _WARMED):
        table.clear()
    _CACHED = False
    with _PLAN_LOCK:
        _PLANS.clear()
    stop_planner()


def _shown(text: str, book: Book) -> str:
    return text.replace(f"({book.source})", f"({Path(book.source).name})", 1)  # no server folder shown


def plan_text(book: Book, workers: int, language: str = "en") -> str:
    """What ``bookgen plan`` prints for the book, in the studio's ``language``."""
    from bookgen.i18n import translation
    from bookgen.plan import plan_report

    return _shown(plan_report(book, workers, translation(language)), book)


def draft_text(book: Book, workers: int, language: str = "en") -> str:
    """The plan from what is already known, generating nothing: worked examples of another seed
    (their type sizes), how-to page counts another seed's example gave (else measured without
    one), walkthroughs of another seed's puzzle of the same kind (else one page). It opens with a line
    saying so; it is what the page shows until ``plan_text`` is ready."""
    from bookgen.i18n import translation
    from bookgen.plan import _walked, plan_report

    examples = {}
    for s in book.shape.rule_sets:
        section = book.sections[s]
        found = _STANDINS.get((section.variant, _rules_key(section.rules), tuple(book.shape.rule_set_sizes(s))))
        if found is not None:
            examples[s] = found
    made = _TABLES.get("run_job", {})
    walked = _walked(book, book.shape, lambda job: made.get(repr(job), _STANDINS.get(_walk_key(job))))
    _DRAFTING.on = True
    try:
        return _shown(plan_report(book, workers, translation(language), examples, walked), book)
    finally:
        _DRAFTING.on = False


def _exact_plan(book: Book, workers: int, language: str) -> tuple[str, dict, dict]:
    """In the planner process: the plan, and what a draft in the server can use of what it made
    (the worked examples and walkthrough puzzles of this book, every how-to count)."""
    install_caches()
    text = plan_text(book, workers, language)
    keys = {(book.sections[s].variant, _rules_key(book.sections[s].rules), tuple(book.shape.rule_set_sizes(s)))
            for s in book.shape.rule_sets}
    from bookgen.book import plan

    jobs = plan(book)
    keys |= {_walk_key(jobs[book.shape.first_item(s)]) for s in book.shape.explained}
    return text, {k: _STANDINS[k] for k in keys if k in _STANDINS}, dict(_HOWTO_PAGES)


def _learn(future: Future) -> None:
    """Keep what an exact plan made for the drafts to come."""
    if future.cancelled() or future.exception() is not None:
        return
    _, standins, pages = future.result()
    for key, puzzle in standins.items():
        _keep(_STANDINS, key, puzzle)
    for key, (n, exact) in pages.items():
        if exact or key not in _HOWTO_PAGES:
            _keep(_HOWTO_PAGES, key, (n, exact))


_STARTING = threading.RLock()  # (re-entered: _start_unless_stopped holds it around _planner())
STOP_WAIT = 10.0  # seconds a stop waits for the planner process being started
_READY = threading.Event()  # the planner process is up
_STOPS = [0]  # stops so far: a start asked for before the latest stop starts nothing


def _planner() -> ProcessPoolExecutor:
    with _STARTING:
        if not _PLANNER:
            pool = ProcessPoolExecutor(max_workers=1, mp_context=forkserver_context())
            _PLANNER.append(pool)
            pool.submit(int).result()  # (starting a process takes seconds on a busy machine)
            _READY.set()
            return pool
        return _PLANNER[0]


def start_planner() -> None:
    """Start the planner process in the background; until it is up, checks answer with drafts."""
    threading.Thread(target=_start_unless_stopped, args=(_STOPS[0],), daemon=True, name="bookgen-planner").start()


def _start_unless_stopped(stops: int) -> None:
    """``_planner()``, unless the server stopped after asking for it. A Ctrl-C in the studio's
    first instant can stop the planner before this thread has run at all: it would then start a
    process in an interpreter that is exiting (multiprocessing's tracker warned of a leaked
    semaphore at the exit, or the process outlived the stop)."""
    with _STARTING:
        if _STOPS[0] != stops:
            return
        _planner()


def stop_planner() -> None:
    """End the planner process (the server stops). A plan it is making is dropped, not waited
    for: nobody reads it now, and the interpreter's exit joins a pool whose process is still at
    work, so the server's (and a test process's) exit waited until that plan was done (seconds
    for a book whose worked examples are dear)."""
    _READY.clear()
    _STOPS[0] += 1  # (before the lock: a start that has not taken it yet will see it)
    # A start under way finishes first (bounded): its process, spawned from the fork server
    # after this one has gone, would find the pool's semaphore removed and print a traceback.
    starting = _STARTING.acquire(timeout=STOP_WAIT)
    try:
        while _PLANNER:
            pool = _PLANNER.pop()
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
    finally:
        if starting:
            _STARTING.release()


def plan_of(future: Future, timeout: float) -> str:
    """The text of a ``plan_future`` (``TimeoutError``, ``CancelledError`` as ``Future.result``)."""
    return future.result(timeout)[0]


def plan_future(checked: Checked, workers: int, language: str = "en", wait: bool = True) -> Future | None:
    """The exact plan of a checked book, made once per YAML text and language, in the planner
    process (a plan that generates for seconds slows no check in the server); its text is
    ``plan_of(future, timeout)``. None when the planner is still starting and ``wait`` is false."""
    if not wait and not _READY.is_set():
        return None
    key = (checked.yaml, workers, language)
    with _PLAN_LOCK:
        if key not in _PLANS or _PLANS[key].cancelled():
            if len(_PLANS) > MAX_PLANS:
                for k in [k for k, f in _PLANS.items() if f.done()][: MAX_PLANS // 2]:  # (cancelled too)
                    del _PLANS[k]
            for stale in _PLANS.values():  # typing: only the newest plan is worth making
                stale.cancel()  # (a plan already being made finishes, and is kept)
            try:
                future = _planner().submit(_exact_plan, checked.book, workers, language)
            except BrokenProcessPool:  # the planner died (killed, out of memory): a new one
                stop_planner()
                future = _planner().submit(_exact_plan, checked.book, workers, language)
            future.add_done_callback(_learn)
            _PLANS[key] = future
        return _PLANS[key]


_WARMED: set[str] = set()


def warm(language: str, workers: int) -> threading.Thread | None:
    """Check every template and measure its how-to pages for drafts in ``language``, in a
    background thread (once per language; None when done before): the first check after
    loading a template then measures nothing, and finds the checking code warm."""
    with _PLAN_LOCK:
        if language in _WARMED:
            return None
        _WARMED.add(language)

    def run():
        for name in TEMPLATES:
            try:
                checked = check(template_data(name), name)
                if checked.book is not None:
                    draft_text(checked.book, workers, language)
            except Exception:  # noqa: BLE001 - a template's own check shows what is wrong
                pass

    thread = threading.Thread(target=run, daemon=True, name="bookgen-warm")
    thread.start()
    return thread
