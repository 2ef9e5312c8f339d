"""Bounded reading of the files bookgen is handed: a book's YAML, a book's JSON, a typed puzzle.

Regular files only, of a bounded size, decoded as UTF-8 with advice when they
are not, and JSON with a bounded count of lists and objects. Light on purpose
(no pydantic, no reportlab): ``solve`` reads through here without importing
the config or the book machinery.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from bookgen.limits import MAX_BOOK_JSON_BYTES, MAX_BOOK_JSON_CONTAINERS

MAX_CONFIG_BYTES = 1 << 20  # a book file is a few KB; refused before parsing beyond this


def read_text_file(path: str | Path, limit: int = MAX_CONFIG_BYTES, what: str = "a book file is a few KB") -> str:
    """A regular UTF-8 text file's contents; ``OSError``-free: problems become ``ValueError``.
    As ``read_file_bytes``, then decoded."""
    raw = read_file_bytes(path, limit, what)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        hint = _encoding_hint(raw)
        raise ValueError(f"not UTF-8 text ({exc.reason} at byte {exc.start}, line {line}){hint}") from None


def read_file_bytes(path: str | Path, limit: int = MAX_CONFIG_BYTES, what: str = "a book file is a few KB") -> bytes:
    """A regular file's bytes; ``OSError``-free: problems become ``ValueError``.

    Only regular files are read: a FIFO or device could block forever. A file
    over ``limit`` bytes is refused before it is read (``what`` says why the
    limit is plenty).
    """
    p = Path(path)
    try:
        info = p.stat()
    except FileNotFoundError:
        raise ValueError("no such file") from None
    except OSError as exc:
        raise ValueError(f"cannot read the file: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise ValueError("is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("is not a regular file (a pipe or device?); save the text to a file first")
    too_big = ValueError(f"the file is larger than {_bytes(limit)} ({what}); is it the right file?")
    if info.st_size > limit:
        raise too_big
    try:
        raw = p.read_bytes()  # a regular file: finite, and checked small above
    except OSError as exc:
        raise ValueError(f"cannot read the file: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise too_big
    return raw


def _encoding_hint(raw: bytes) -> str:
    """A guess at the encoding of text that is not UTF-8, as advice to append to the message."""
    head = raw[:4096]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or head.count(b"\0") * 4 > len(head):
        return "; it looks like UTF-16: save it as UTF-8"
    try:
        head.decode("cp1252")
    except UnicodeDecodeError:
        return "; save it as UTF-8"
    return "; it looks like a Latin-1/Windows-1252 file: save it as UTF-8"


def _bytes(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n >> 10} KB"


MAX_JSON_BYTES = MAX_BOOK_JSON_BYTES  # what the largest build writes (``bookgen.limits``)
MAX_JSON_OBJECTS = MAX_BOOK_JSON_CONTAINERS  # lists and objects: ~170 a puzzle entry at the most


class TooManyObjects(ValueError):
    """A JSON document with more lists and objects than any book holds (memory would run out first)."""


def load_json(text: str) -> Any:
    """``json.loads`` of a document with at most ``MAX_JSON_OBJECTS`` lists and objects.

    Small containers in a file of bounded size could still take gigabytes in memory
    (22 million empty lists fit in 63 MB), so they are counted before parsing: every
    one opens with ``[`` or ``{`` (a bracket inside a string counts too, which only
    errs on the safe side, and no book's strings hold many).
    """
    if text.count("[") + text.count("{") > MAX_JSON_OBJECTS:
        raise TooManyObjects(f"more than {MAX_JSON_OBJECTS} JSON lists and objects (no book holds that many)")
    return json.loads(text)
