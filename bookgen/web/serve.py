"""``bookgen serve``: the studio on uvicorn, with its address printed and a folder of its own."""

from __future__ import annotations

import asyncio
import shutil
import socket
import tempfile
import threading
import webbrowser
from pathlib import Path
from typing import Callable

from bookgen import designer
from bookgen.web.app import Settings, create_app


def serve(host: str, port: int, open_browser: bool, folder: Path | None, keep_seconds: float,
          builds: int, queue: int, say: Callable[[str], None]) -> None:
    """Run the studio until Ctrl-C; a temporary folder of its own is removed at the end."""
    import uvicorn

    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:  # a clear error, early
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))
    own = folder is None
    root = Path(tempfile.mkdtemp(prefix="bookgen-studio-")) if own else folder
    try:  # whatever ends the studio (Ctrl-C raised as KeyboardInterrupt included), its own folder goes
        app = create_app(Settings(root=root, host=host, max_running=builds, max_queued=queue,
                                  keep_seconds=keep_seconds))
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        url = f"http://{shown}:{port}/"
        say(f"bookgen studio: {url}  (Ctrl-C to stop)")
        if host in ("0.0.0.0", "::"):
            say("listening on every network of this machine: anyone who can reach it can design and build books")
        if open_browser:
            threading.Timer(1.0, lambda: webbrowser.open(url)).start()
        # uvicorn.run would turn a Ctrl-C before the server is up into exit 3, and a signal that
        # comes before the coroutine starts would leave it never awaited (a warning on stderr):
        # the coroutine is ours to close, and the KeyboardInterrupt reaches the caller.
        server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False))
        running = server.serve()
        try:
            asyncio.run(running)
        finally:
            running.close()  # (a no-op once it has run)
    finally:
        designer.stop_planner()  # (the app's lifespan stops it too, if the server ever started)
        if own:
            shutil.rmtree(root, ignore_errors=True)
