"""The studio's routes: the page, the live check and plan, uploads, builds and downloads."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
import json
import re
import secrets
import shutil
import tempfile
import threading
import time
from concurrent.futures import CancelledError, TimeoutError as FutureTimeout
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bookgen import designer
from bookgen.book import MAX_JSON_BYTES, CheckError, load_json
from bookgen.config import MAX_CONFIG_BYTES, ConfigError
from bookgen.core.i18n import N_, Text
from bookgen.estimate import CONFIRM_SECONDS, say_duration
from bookgen.export import ExportError, puzzle_png, puzzle_svg
from bookgen.i18n import DEFAULT, languages, translation
from bookgen.jobs import Busy, Jobs
from bookgen.templates import template_names
from bookgen.web.messages import LANGUAGE_NAMES, choice_labels, label_of, toggle_labels, ui_messages

HERE = Path(__file__).parent
PLAN_WAIT = 0.1  # seconds the check waits for the exact plan when no draft could be made
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
TOKEN = re.compile(r"[0-9a-f]{24}")  # an upload's folder: secrets.token_hex(12)


@dataclass
class Settings:
    """How a studio runs: where it keeps files, its limits."""

    root: Path
    host: str = "127.0.0.1"
    max_request: int = MAX_CONFIG_BYTES  # a form's settings
    max_upload: int = MAX_JSON_BYTES  # an earlier volume's JSON
    max_running: int = 2
    max_queued: int = 4
    keep_seconds: float = 3600.0
    workers: int = 0
    warm: bool = True  # check the templates and measure their how-to pages at start-up (tests: no need)


class Refused(Exception):
    """A request the studio answers with a message and a status. The message is a marked
    message (``N_``, or a ``Text`` with its values): it reaches the page in the page's language."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


NOT_A_BOOK = N_("{name} is not a book JSON file (the JSON 'bookgen build' writes)")


def _language(request: Request) -> str:
    """The page's language: ?lang=, else the browser's first known one, else English."""
    return _language_of(request.query_params.get("lang", ""), request.headers.get("accept-language", ""))


def _language_of(asked: str, accept: str) -> str:
    """``_language`` from the raw values, for code that sees the headers before a ``Request``
    exists (the guard). The page's script sends its own language as Accept-Language."""
    known = languages()
    if asked in known:
        return asked
    for part in accept.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in known:
            return code
    return DEFAULT


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused past ``limit`` bytes (before reading, when it says its length)."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limit):
        raise Refused(413, Text(N_("the request is larger than {size}; a book's settings are a few KB"),
                                size=_mb(limit)))
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(413, Text(N_("the request is larger than {size}"), size=_mb(limit)))
    return bytes(body)


def _mb(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n >> 10} KB"


async def _json(request: Request, limit: int) -> dict[str, Any]:
    raw = await _body(request, limit)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise Refused(400, "the request is not valid JSON") from None
    if not isinstance(data, dict):
        raise Refused(400, "the request must be a JSON object")
    return data


def create_app(settings: Settings) -> Starlette:
    """The studio as an ASGI app."""
    root = settings.root
    root.mkdir(parents=True, exist_ok=True)
    uploads = root / "uploads"
    uploads.mkdir(exist_ok=True)
    scratch = root / "scratch"
    scratch.mkdir(exist_ok=True)
    jobs = Jobs(root, settings.max_running, settings.max_queued, settings.keep_seconds, settings.workers)
    designer.install_caches()
    designer.start_planner()
    app_warming = designer.warm(DEFAULT, jobs.workers) if settings.warm else None  # (while the browser opens)
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]))
    page_template = env.get_template("studio.html")
    workers = jobs.workers

    def upload_files(tokens: Any) -> dict[str, Path]:
        """Uploaded earlier volumes by the names the form gives them; unknown tokens are left out."""
        out: dict[str, Path] = {}
        for name, token in (tokens or {}).items() if isinstance(tokens, dict) else ():
            if not (isinstance(name, str) and designer.UPLOAD_NAME_RE.fullmatch(name) and isinstance(token, str)
                    and TOKEN.fullmatch(token)):
                continue
            path = uploads / token / name
            if path.parent.parent == uploads and path.is_file():
                out[name] = path
        return out

    def checked(body: dict[str, Any]):
        name = body.get("name", "book")
        files = upload_files(body.get("uploads"))
        folder = None
        if files:
            folder = Path(tempfile.mkdtemp(dir=scratch))
            for file, source in files.items():
                try:
                    (folder / file).hardlink_to(source)
                except OSError:
                    shutil.copyfile(source, folder / file)
        try:
            return designer.check(body.get("data"), name, folder), files
        finally:
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)

    def estimate(book) -> float:
        from bookgen.plan import estimate_seconds

        return estimate_seconds(book, workers)[0]

    async def page(request: Request) -> Response:
        lang = _language(request)
        if settings.warm:
            designer.warm(lang, workers)
        t = translation(lang)
        schema = designer.form_schema()
        labels = {f["key"]: label_of(f["key"], t) for f in schema["book"] + schema["section"]}
        for group in schema["book"]:
            for f in group.get("fields", ()):
                labels[f["key"]] = label_of(f["key"], t)
        for variant in schema["variants"].values():
            for f in variant["rules"]:
                labels[f["key"]] = label_of(f["key"], t)
        menu = [{"name": x["name"], "label": t(x["label"])} for x in schema["templates"]]
        boot = {"schema": schema, "messages": ui_messages(t), "labels": labels, "lang": lang,
                "choices": choice_labels(t), "toggles": toggle_labels(t)}
        html = page_template.render(lang=lang, t=t, languages=languages(), names=LANGUAGE_NAMES,
                                    boot=json.dumps(boot), templates=menu)
        return HTMLResponse(html)

    async def schema(request: Request) -> Response:
        return JSONResponse(designer.form_schema())

    async def template(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in template_names():
            raise Refused(404, f"no template {name!r}; there are {', '.join(template_names())}")
        return JSONResponse({"name": name, "data": designer.template_data(name)})

    async def open_yaml(request: Request) -> Response:
        raw = await _body(request, settings.max_request)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise Refused(400, N_("the file is not UTF-8 text; save it as UTF-8")) from None
        file = request.query_params.get("file", "book.yaml")
        stem = Path(file).name.rsplit(".", 1)[0] or "book"
        name = stem if designer.name_problem(stem) is None else "book"
        try:
            data = await asyncio.to_thread(designer.from_yaml, text, f"{name}.yaml")
        except ConfigError as exc:
            return JSONResponse({"name": name, "data": None,
                                 "errors": [{"path": [], "message": i.message,
                                             "where": f"{name}.yaml:{i.line}:{i.col}"} for i in exc.issues]})
        return JSONResponse({"name": name, "data": data, "errors": []})

    def lang_of(body: dict[str, Any]) -> str:
        lang = body.get("lang")
        return lang if isinstance(lang, str) and lang in languages() else DEFAULT

    async def check(request: Request) -> Response:
        body = await _json(request, settings.max_request)
        started = time.perf_counter()
        lang = lang_of(body)
        result, _ = await asyncio.to_thread(checked, body)
        out: dict[str, Any] = {"yaml": result.yaml, "errors": result.errors, "plan": None, "plan_pending": False}
        if result.book is not None:
            seconds = estimate(result.book)
            out["estimate"] = say_duration(seconds, translation(lang))
            out["confirm"] = seconds > CONFIRM_SECONDS
            future = await asyncio.to_thread(designer.plan_future, result, workers, lang, False)
            if future is None or not future.done():  # while the planner makes the exact plan: the draft, from what is known
                try:
                    out["draft"] = await asyncio.to_thread(designer.draft_text, result.book, workers, lang)
                except Exception:  # noqa: BLE001 - the exact plan will say what is wrong
                    pass
            try:
                if future is None:  # (the planner is starting: /api/plan waits for it)
                    raise FutureTimeout
                out["plan"] = await asyncio.to_thread(designer.plan_of, future, 0 if "draft" in out else PLAN_WAIT)
                out.pop("draft", None)
            except (FutureTimeout, CancelledError):  # (cancelled: a newer change came in)
                out["plan_pending"] = True
            except Exception as exc:  # noqa: BLE001 - a plan that can't be made is a message
                out["errors"] = [{"path": [], "message": str(exc), "where": ""}]
                out.pop("draft", None)
        out["ms"] = round((time.perf_counter() - started) * 1000)
        return JSONResponse(out)

    async def plan(request: Request) -> Response:
        body = await _json(request, settings.max_request)
        result, _ = await asyncio.to_thread(checked, body)
        if result.book is None:
            return JSONResponse({"plan": None, "errors": result.errors})
        future = designer.plan_future(result, workers, lang_of(body))
        try:
            text = await asyncio.to_thread(designer.plan_of, future, 60)
        except FutureTimeout:
            raise Refused(503, N_("the plan took too long to make")) from None
        except CancelledError:  # a newer change replaced this one: the page asks again for that
            return JSONResponse({"plan": None, "errors": [], "stale": True})
        except Exception as exc:  # noqa: BLE001
            return JSONResponse({"plan": None, "errors": [{"path": [], "message": str(exc), "where": ""}]})
        return JSONResponse({"plan": text, "errors": []})

    async def upload_volume(request: Request) -> Response:
        name = Path(request.query_params.get("name", "")).name
        if not designer.UPLOAD_NAME_RE.fullmatch(name):
            raise Refused(400, N_("an earlier volume is its book JSON file (NAME.json: letters, digits, '.', '-', "
                                  "'_' and spaces)"))
        raw = await _body(request, settings.max_upload)
        try:
            data = await asyncio.to_thread(load_json, raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError, CheckError, RecursionError):
            raise Refused(400, Text(NOT_A_BOOK, name=name)) from None
        if not isinstance(data, dict) or not isinstance(data.get("puzzles"), list):
            raise Refused(400, Text(NOT_A_BOOK, name=name))
        token = secrets.token_hex(12)
        folder = uploads / token
        folder.mkdir()
        (folder / name).write_bytes(raw)
        return JSONResponse({"name": name, "token": token})

    async def build(request: Request) -> Response:
        body = await _json(request, settings.max_request)
        result, files = await asyncio.to_thread(checked, body)
        if result.book is None:
            return JSONResponse({"errors": result.errors, "error": translation(lang_of(body))(
                N_("fix the problems shown first"))}, status_code=422)
        seconds = estimate(result.book)
        if seconds > CONFIRM_SECONDS and body.get("confirm") is not True:
            raise Refused(409, Text(N_("this book would take {time} to build; confirm to build it anyway "
                                       "(as --yes does), or lower the counts or levels"),
                                    time=say_duration(seconds, translation(lang_of(body)))))
        name = body["name"]
        used = {n: p for n, p in files.items() if n in designer.exclude_names(body.get("data"))}
        try:
            job = await asyncio.to_thread(jobs.submit, result.yaml, name, used, seconds)
        except Busy as exc:
            raise Refused(429, exc.args[0]) from None
        return JSONResponse(job.view(), status_code=202)

    def job_of(request: Request):
        job = jobs.get(request.path_params["id"])
        if job is None:
            raise Refused(404, N_("no such build (finished builds are removed after a while)"))
        return job

    async def job_status(request: Request) -> Response:
        return JSONResponse(job_of(request).view())

    async def events(request: Request) -> Response:
        job = job_of(request)

        async def stream():
            last = None
            while True:
                view = job.view()
                text = json.dumps(view)
                if text != last:
                    yield f"data: {text}\n\n"
                    last = text
                if view["state"] not in ("queued", "running"):
                    return
                if await request.is_disconnected():
                    return
                await asyncio.sleep(0.25)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def cancel(request: Request) -> Response:
        job = job_of(request)
        if not await asyncio.to_thread(jobs.cancel, job.id):
            raise Refused(409, N_("the build has already ended"))
        return JSONResponse(job.view())

    async def download(request: Request) -> Response:
        path = jobs.file(request.path_params["id"], "out", request.path_params["file"])
        if path is None or not path.is_file():
            raise Refused(404, N_("no such file in this build"))
        return FileResponse(path, filename=path.name)

    async def thumb(request: Request) -> Response:
        path = jobs.file(request.path_params["id"], "thumbs", request.path_params["file"])
        if path is None or not path.is_file():
            raise Refused(404, N_("no such preview"))
        return FileResponse(path, media_type="image/png")

    async def picture(request: Request) -> Response:
        job = job_of(request)
        number, fmt = request.path_params["number"], request.path_params["fmt"]
        path = jobs.file(job.id, "out", f"{job.name}.json")
        if path is None:
            raise Refused(404, N_("the book is not built yet"))
        data = await asyncio.to_thread(lambda: json.loads(path.read_text("utf-8")))
        version = request.query_params.get("version", "")
        entry = next((p for p in data["puzzles"] if p.get("number") == number
                      and (not version or p.get("version") == version)), None)  # (class sets: version A first)
        if entry is None:
            raise Refused(404, Text(N_("the book has no puzzle {number}"), number=number))
        solved = request.query_params.get("answer") in ("1", "true")
        try:
            if fmt == "svg":
                blob = await asyncio.to_thread(puzzle_svg, entry, solved)
                kind = "image/svg+xml"
            else:
                blob = await asyncio.to_thread(puzzle_png, entry, solved, 150.0)
                kind = "image/png"
        except ExportError as exc:
            raise Refused(400, str(exc)) from None
        file = f"{job.name}-{number:03d}{entry.get('version') or ''}{'-answer' if solved else ''}.{fmt}"
        return Response(blob, media_type=kind, headers={"Content-Disposition": f'attachment; filename="{file}"'})

    async def refused(request: Request, exc: Refused) -> Response:
        return JSONResponse({"error": translation(_language(request))(exc.message)}, status_code=exc.status)

    async def http_error(request: Request, exc: HTTPException) -> Response:
        return JSONResponse({"error": exc.detail or "not found"}, status_code=exc.status_code)

    async def crashed(request: Request, exc: Exception) -> Response:
        # never a traceback on the page: one sentence, and the server keeps serving
        return JSONResponse({"error": translation(_language(request))(
            Text(N_("the studio could not do that ({error}); nothing was changed"), error=type(exc).__name__))},
            status_code=500)

    routes = [
        Route("/", page), Route("/api/schema", schema), Route("/api/templates/{name}", template),
        Route("/api/open", open_yaml, methods=["POST"]), Route("/api/check", check, methods=["POST"]),
        Route("/api/plan", plan, methods=["POST"]), Route("/api/volumes", upload_volume, methods=["POST"]),
        Route("/api/builds", build, methods=["POST"]), Route("/api/builds/{id}", job_status),
        Route("/api/builds/{id}/events", events), Route("/api/builds/{id}/cancel", cancel, methods=["POST"]),
        Route("/api/builds/{id}/files/{file}", download), Route("/api/builds/{id}/thumbs/{file}", thumb),
        Route("/api/builds/{id}/puzzles/{number:int}.{fmt:str}", picture),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={Refused: refused, HTTPException: http_error,
                                                        Exception: crashed},
                    lifespan=_lifespan(jobs))
    app.state.jobs = jobs
    app.state.warming = app_warming
    app.state.settings = settings
    app.add_middleware(Guard, host=settings.host)
    app.add_middleware(ServerErrors)
    _sweeper(jobs, uploads, scratch, settings.keep_seconds)
    return app


def _lifespan(jobs: Jobs):
    @asynccontextmanager
    async def lifespan(app):
        yield
        jobs.shutdown()  # the server stops: so do its builds
        designer.stop_planner()
    return lifespan


class Guard:
    """Refuses requests a page on another site could send: anything that changes state without
    this studio's own Origin, and (on a loopback-only studio) a Host other than this machine's
    (DNS rebinding).

    Browsers send Origin with every POST (fetch and forms alike), so a request without one comes
    from a program, not a page; it is refused too, so the rule has no gap to reason about (an
    old browser, a proxy or an extension that drops the header). A script says where it calls
    from: ``curl -H "Origin: http://127.0.0.1:8000" ...`` (see docs/studio.md)."""

    def __init__(self, app, host: str):
        self.app = app
        self.loopback = host in LOOPBACK

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        hostname = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        problem: str | Text | None = None
        if self.loopback and hostname not in LOOPBACK and hostname != "testserver":
            problem = N_("this studio answers only to its own address (127.0.0.1 or localhost)")
        elif scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            origin = headers.get("origin")
            if origin is None:
                problem = Text(N_("a request that changes something must say where it comes from: send the header "
                                  "'Origin: http://{host}' (browsers do)"), host=host)
            elif origin.split("://", 1)[-1] != host or headers.get("sec-fetch-site") in ("cross-site", "same-site"):
                problem = N_("a page from another site may not change anything in this studio")
        if problem:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            lang = _language_of((query.get("lang") or [""])[0], headers.get("accept-language", ""))
            response = JSONResponse({"error": translation(lang)(problem)}, status_code=403)
            return await response(scope, receive, send)
        return await self.app(scope, receive, send)


class ServerErrors:
    """The last net: whatever escapes the routes becomes a one-line message, never a traceback."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        started = False

        async def watch(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as exc:  # noqa: BLE001
            if started or scope["type"] != "http":
                return
            response = JSONResponse({"error": f"the studio could not do that ({type(exc).__name__})"},
                                    status_code=500)
            await response(scope, receive, send)


def _sweeper(jobs: Jobs, uploads: Path, scratch: Path, keep: float) -> None:
    """Every minute: remove ended builds and uploads older than ``keep`` seconds."""

    def loop():
        while True:
            time.sleep(min(60.0, max(1.0, keep / 2)))
            sweep_once(jobs, uploads, scratch, keep)

    threading.Thread(target=loop, daemon=True, name="bookgen-sweeper").start()


def sweep_once(jobs: Jobs, uploads: Path, scratch: Path, keep: float) -> None:
    """Remove ended builds, uploads and scratch folders older than ``keep`` seconds."""
    jobs.sweep()
    now = time.time()
    for folder in [*uploads.iterdir(), *scratch.iterdir()]:
        try:
            if now - folder.stat().st_mtime > keep:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            pass
