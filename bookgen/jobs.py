"""Studio builds: each in its own process, with progress, a cap, cancelling and clean-up.

A build runs ``bookgen.book.build`` in a fresh process (which starts its own
worker processes), so the web server never waits on it and a cancel can stop
it the way Ctrl-C stops the CLI: the build removes its temporary files, then
the whole job folder goes. Job folders have unguessable names and are removed
a configurable time after the build ends.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import queue as queue_module
import secrets
import shutil
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bookgen.core.i18n import Plural

KEEP_SECONDS = 3600.0  # a finished build's files stay this long
MAX_RUNNING = 2  # builds at once (the cores are shared between them)
MAX_QUEUED = 4  # builds waiting for a turn
THUMB_WIDTH = 220  # pixels
CANCEL_GRACE = 10.0  # seconds a cancelled build has to clean up before it is killed


class Busy(Exception):
    """Too many builds running and waiting; the message says so."""


@dataclass
class Job:
    """One studio build and what the page shows of it."""

    id: str
    folder: Path
    name: str
    estimate: float
    state: str = "queued"  # queued, running, done, failed, cancelled
    done: int = 0
    total: int = 0
    stage: str = "generating"
    stage_started: float = 0.0
    started: float = 0.0
    finished: float = 0.0
    message: str = ""
    files: list[str] = field(default_factory=list)
    thumbs: list[tuple[str, str]] = field(default_factory=list)  # (file, what it shows)
    pages: int = 0
    puzzles: int = 0
    process: Any = None

    def view(self) -> dict[str, Any]:
        """What the page is told about the job (no server paths)."""
        now = time.monotonic()
        eta = None
        if self.state == "running" and self.total and self.done:
            spent = now - self.stage_started
            eta = spent * (self.total - self.done) / self.done
        elif self.state == "running" and self.stage == "generating":
            eta = max(0.0, self.estimate - (now - self.started))
        return {"id": self.id, "state": self.state, "done": self.done, "total": self.total,
                "stage": self.stage, "eta": None if eta is None else round(eta, 1),
                "elapsed": round((self.finished or now) - self.started, 1) if self.started else 0.0,
                "message": self.message, "files": self.files, "thumbs": [list(t) for t in self.thumbs],
                "pages": self.pages, "puzzles": self.puzzles}


def _run(folder: str, name: str, workers: int, events) -> None:
    """The build process: build NAME.yaml in ``folder`` into ``folder/out``, then thumbnails."""
    os.setpgrp()  # its workers with it: a last-resort kill reaches them all
    from bookgen.book import BuildError, Interrupted, build, interrupts_handled
    from bookgen.config import ConfigError, load_book
    from bookgen.core.types import GenerationError

    where = Path(folder)
    try:
        with interrupts_handled():
            book = load_book(where / f"{name}.yaml")
            summary: dict = {}
            written = build(book, where / "out", workers,
                            lambda done, total, stage=None: events.put(("progress", done, total, stage)),
                            None, None, summary)
            events.put(("progress", 1, 1, "previews"))
            thumbs = thumbnails(where / "out", name, book.language, where / "thumbs")
            events.put(("done", [p.name for p in written], thumbs, summary.get("pages", 0),
                        summary.get("puzzles", 0)))
    except Interrupted:
        events.put(("cancelled",))
    except ConfigError as exc:
        events.put(("failed", "\n".join(str(i).replace(str(where) + os.sep, "") for i in exc.issues)))
    except (BuildError, GenerationError) as exc:
        events.put(("failed", str(exc).replace(str(where) + os.sep, "")))
    except Exception as exc:  # noqa: BLE001 - the page gets a sentence, never a traceback
        events.put(("failed", f"the build failed: {type(exc).__name__}: {exc}".replace(str(where) + os.sep, "")))


def thumbnails(out: Path, name: str, language: str, target: Path) -> list[tuple[str, str]]:
    """Small PNGs of the title, a how-to, a puzzle and an answer page, and the cover."""
    import json

    import pypdfium2 as pdfium

    from bookgen.export.png import bitmap_png
    from bookgen.i18n import translation

    t = translation(language)
    target.mkdir(exist_ok=True)
    shots: list[tuple[str, str]] = []

    def shoot(pdf: Path, index: int, what: str) -> None:
        if index is None or not pdf.exists():
            return
        doc = pdfium.PdfDocument(str(pdf))
        try:
            if not 0 <= index < len(doc):
                return
            page = doc[index]
            file = f"{what}.png"
            (target / file).write_bytes(bitmap_png(page, THUMB_WIDTH / page.get_width()))  # in colour: the cover's
            shots.append((file, what))
        finally:
            doc.close()

    def find(pdf: Path, text: str, last: bool = False) -> int | None:
        """The first (or last) page with ``text`` that is not the contents page (which lists every
        heading); the answer key closes a book, and puzzle pages may point to it."""
        doc = pdfium.PdfDocument(str(pdf))
        try:
            for i in (reversed(range(len(doc))) if last else range(len(doc))):
                words = doc[i].get_textpage().get_text_range()
                if text in words and t("Contents") not in words:
                    return i
        finally:
            doc.close()
        return None

    book_pdf = out / f"{name}.pdf"
    data = json.loads((out / f"{name}.json").read_text("utf-8"))
    first = data["puzzles"][0]["page"] - 1 if data.get("puzzles") else None
    answers = out / f"{name}-answers.pdf"
    if first != 0:  # (a worksheet set has no title page: its first page is a puzzle page)
        shoot(book_pdf, 0, "title")
    if not answers.exists():
        shoot(book_pdf, find(book_pdf, t("How to play {name}").split("{")[0].strip()), "how-to")
    shoot(book_pdf, first, "puzzle")
    if answers.exists():
        shoot(answers, 0, "answers")
    else:
        shoot(book_pdf, find(book_pdf, t("Answers"), last=True), "answers")
    shoot(out / f"{name}-cover.pdf", 0, "cover")
    return shots


class Jobs:
    """The studio's builds: at most ``max_running`` at once, ``max_queued`` waiting."""

    def __init__(self, root: Path, max_running: int = MAX_RUNNING, max_queued: int = MAX_QUEUED,
                 keep_seconds: float = KEEP_SECONDS, workers: int = 0):
        self.root = root / "jobs"
        self.root.mkdir(parents=True, exist_ok=True)
        self.max_running, self.max_queued, self.keep = max_running, max_queued, keep_seconds
        self.workers = workers or max(1, (os.cpu_count() or 1) // max_running)
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        # Each build is forked from a small server process that has already imported the generator
        # and the layout: a clean process (not a copy of the web server and its threads), started fast.
        self.context = forkserver_context()
        self.context.set_forkserver_preload(["bookgen.book", "bookgen.config", "bookgen.plan", "pypdfium2"])
        threading.Thread(target=_warm, daemon=True).start()  # the first build needn't wait for it

    def submit(self, yaml_text: str, name: str, uploads: dict[str, Path], estimate: float) -> Job:
        """Queue a build of ``yaml_text`` (its ``exclude`` names among ``uploads``); ``Busy`` when full."""
        with self.lock:
            self._sweep()
            active = [j for j in self.jobs.values() if j.state in ("queued", "running")]
            running = sum(j.state == "running" for j in active)
            if len(active) - running >= self.max_queued and running >= self.max_running:
                raise Busy(Plural("{count} build running and {waiting} waiting: the studio takes no more "
                                  "for now; try again when one has finished",
                                  "{count} builds running and {waiting} waiting: the studio takes no more "
                                  "for now; try again when one has finished", running, waiting=len(active) - running))
            ident = secrets.token_urlsafe(18)
            folder = self.root / ident
            folder.mkdir()
            (folder / f"{name}.yaml").write_text(yaml_text, "utf-8")
            for file, source in uploads.items():
                _link(source, folder / file)
            job = Job(ident, folder, name, estimate)
            self.jobs[ident] = job
            self._next()
            return job

    def get(self, ident: str) -> Job | None:
        """The job with this id (None when unknown or cleaned up)."""
        return self.jobs.get(ident) if isinstance(ident, str) else None

    def file(self, ident: str, kind: str, file: str) -> Path | None:
        """A finished job's download or thumbnail, only by the names the job lists."""
        job = self.get(ident)
        if job is None or job.state != "done":
            return None
        if kind == "out" and (file in job.files or file == f"{job.name}.yaml"):
            return job.folder / ("out" if file in job.files else "") / file
        if kind == "thumbs" and file in {t[0] for t in job.thumbs}:
            return job.folder / "thumbs" / file
        return None

    def cancel(self, ident: str) -> bool:
        """Stop a queued or running build; False when it had already ended."""
        with self.lock:
            job = self.get(ident)
            if job is None or job.state not in ("queued", "running"):
                return False
            if job.state == "queued":
                job.state = "cancelled"
                job.message = "cancelled before it started; nothing was written"
                shutil.rmtree(job.folder, ignore_errors=True)
                return True
            job.message = "cancelling"
            process = job.process
        if process is not None and process.is_alive():
            process.terminate()  # SIGTERM: the build stops its workers and removes its temporary files
        return True

    def _next(self) -> None:
        running = sum(j.state == "running" for j in self.jobs.values())
        for job in self.jobs.values():
            if running >= self.max_running:
                break
            if job.state == "queued":
                self._start(job)
                running += 1

    def _start(self, job: Job) -> None:
        events = self.context.Queue()
        job.state, job.started = "running", time.monotonic()
        job.stage_started = job.started
        job.process = self.context.Process(target=_run, args=(str(job.folder), job.name, self.workers, events),
                                           daemon=False)
        job.process.start()
        threading.Thread(target=self._watch, args=(job, events), daemon=True).start()

    def _watch(self, job: Job, events) -> None:
        """Follow one build's messages until its process ends."""
        ended = None
        cancel_at = None
        while ended is None:
            try:
                event = events.get(timeout=0.2)
            except queue_module.Empty:
                if job.message == "cancelling" and cancel_at is None:
                    cancel_at = time.monotonic()
                if cancel_at and time.monotonic() - cancel_at > CANCEL_GRACE and job.process.is_alive():
                    try:
                        os.killpg(job.process.pid, signal.SIGKILL)
                    except OSError:
                        pass
                if not job.process.is_alive():
                    try:
                        event = events.get(timeout=0.5)
                    except queue_module.Empty:
                        ended = ("failed", "the build process stopped unexpectedly (out of memory?)")
                        break
                else:
                    continue
            kind = event[0]
            if kind == "progress":
                _, done, total, stage = event
                if stage and stage != job.stage:
                    job.stage, job.stage_started = stage, time.monotonic()
                job.done, job.total = done, total
            else:
                ended = event
        job.process.join(timeout=CANCEL_GRACE)
        with self.lock:
            kind = ended[0]
            # The folder goes before the state says so: a view is read without the lock, and
            # "cancelled" or "failed" promises that nothing is left.
            if job.message == "cancelling" or kind == "cancelled":
                shutil.rmtree(job.folder, ignore_errors=True)  # no half-written book stays behind
                job.state, job.message = "cancelled", "cancelled; nothing was written"
            elif kind == "done":
                job.files, job.thumbs, job.pages, job.puzzles = ended[1], ended[2], ended[3], ended[4]
                job.message = ""
                job.state = "done"
            else:
                shutil.rmtree(job.folder, ignore_errors=True)
                job.state, job.message = "failed", ended[1]
            job.finished = time.monotonic()
            job.process = None
            self._next()

    def _sweep(self) -> None:
        """Forget and delete jobs that ended more than ``keep`` seconds ago."""
        now = time.monotonic()
        for ident, job in list(self.jobs.items()):
            if job.state in ("done", "failed", "cancelled") and now - job.finished > self.keep:
                shutil.rmtree(job.folder, ignore_errors=True)
                del self.jobs[ident]

    def sweep(self) -> None:
        """Clean up now (the server calls this every minute)."""
        with self.lock:
            self._sweep()

    def shutdown(self) -> None:
        """Stop every build (the server is stopping)."""
        for ident in list(self.jobs):
            self.cancel(ident)


SOCKET_FOLDER_ROOM = 70  # bytes of a temporary folder's path that leave room for the fork server's socket


@functools.cache  # once a process: the temporary folder it picks is kept by multiprocessing
def forkserver_context() -> multiprocessing.context.BaseContext:
    """multiprocessing's fork-server context, with its socket where a socket fits.

    The fork server listens on a Unix socket in a folder it makes in the temporary folder, and
    a socket's path holds at most 107 bytes: under a long TMPDIR the studio's planner and
    builds could not start ("AF_UNIX path too long"). Such a TMPDIR keeps the studio's files;
    the socket's folder goes to /tmp (Python 3.13 does the same itself). Once a process, so the
    module-wide ``tempfile.tempdir`` is swapped at most once, at the studio's start.
    """
    from multiprocessing import util

    if len(tempfile.gettempdir()) > SOCKET_FOLDER_ROOM:
        for base in ("/tmp", "/var/tmp"):
            if os.path.isdir(base) and os.access(base, os.W_OK | os.X_OK):
                saved, tempfile.tempdir = tempfile.tempdir, base
                try:
                    util.get_temp_dir()  # made once a process, removed at its exit
                finally:
                    tempfile.tempdir = saved
                break
    return multiprocessing.get_context("forkserver")


def _warm() -> None:
    from multiprocessing import forkserver

    try:
        forkserver.ensure_running()
    except (OSError, ValueError):
        pass  # the first build starts it instead


def _link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
