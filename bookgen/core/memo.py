"""A memo table with a bound, for caches that live as long as a worker process.

The engines memoise per line state; a long build meets millions of states, so
every table needs a bound. ``BoundedMemo`` is a dict (lookups stay C-speed:
``get`` and ``[]`` are dict's own) whose ``put`` forgets everything once the
table holds more than ``limit`` entries. Clearing is cheaper than evicting one entry at a
time, and the states a generator meets again refill the table at once.
"""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable


class BoundedMemo(dict):
    """A dict that clears itself (and its ``partners``) when ``put`` finds it past ``limit`` entries.

    ``partners`` are memos whose entries refer to this one's keys: they are
    cleared with it, so a key found in one is never missing from the other.
    """

    __slots__ = ("limit", "partners")

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.partners: tuple["BoundedMemo", ...] = ()

    def put(self, key: Any, value: Any) -> Any:
        """Store ``value`` under ``key`` (after clearing a full table) and return it."""
        if len(self) > self.limit:
            self.forget()
        self[key] = value
        return value

    def put_default(self, key: Any, make) -> Any:
        """``setdefault(key, make())``, with the bound: ``make`` is called only on a miss."""
        value = self.get(key)
        if value is None:
            value = self.put(key, make())
        return value

    def forget(self) -> None:
        """Clear this memo and its partners."""
        self.clear()
        for other in self.partners:
            other.clear()


def linked(*memos: BoundedMemo) -> tuple[BoundedMemo, ...]:
    """Make ``memos`` clear together (each one's entries refer to the others' keys)."""
    for memo in memos:
        memo.partners = tuple(m for m in memos if m is not memo)
    return memos


class MemoBounds:
    """Bounds on plain-dict memos, enforced when their owner calls ``trim`` at a checkpoint.

    For memos looked up in an engine's innermost loops, where ``BoundedMemo``'s dict
    subclass costs on every lookup: CPython specialises ``d.get(k)``, ``d[k]`` and
    ``d[k] = v`` for exact dicts only, and the garbage collector walks a subclass's
    entries (it stops tracking an exact dict holding only ints). The memos stay plain
    dicts, stores are plain ``d[k] = v``, and ``trim`` clears each group past its limit,
    so between two checkpoints a memo holds at most its limit plus what the work between
    them stored. The plain version is ``BoundedMemo.put``; tests/test_memo.py checks both.
    """

    __slots__ = ("groups",)

    def __init__(self) -> None:
        self.groups: list[tuple[int, tuple[dict, ...]]] = []

    def new(self, limit: int) -> dict:
        """A fresh memo of at most ``limit`` entries (at each ``trim``)."""
        return self.linked(limit, 1)[0]

    def linked(self, limit: int, count: int) -> tuple[dict, ...]:
        """``count`` memos cleared together (each one's entries refer to the others' keys)."""
        memos = tuple({} for _ in range(count))
        self.groups.append((limit, memos))
        return memos

    def trim(self) -> None:
        """Clear every group one of whose memos holds more than its limit."""
        for limit, memos in self.groups:
            for memo in memos:
                if len(memo) > limit:
                    for other in memos:
                        other.clear()
                    break


def kept_by_identity(limit: int = 64, of: str | None = None) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Keep what ``make(obj)`` works out from an object many calls share (a geometry, a ladder
    table) while that object lives.

    Kept by ``id(obj)`` (or of its attribute ``of``, which several objects may share, as a
    Killer draft's geometry shares its rule set's overlaps) and checked by identity, because a
    freed object's id is given to the next; hashing the object itself (tuples of tuples) cost
    more than the work saved. Past ``limit`` objects the table is cleared. The plain version is
    ``make`` itself, kept as the result's ``plain`` (tests/test_memo.py compares them).
    """

    def wrap(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
        table: dict[int, tuple[Any, Any]] = {}

        def kept(obj: Any) -> Any:
            owner = obj if of is None else getattr(obj, of)
            got = table.get(id(owner))
            if got is None or got[0] is not owner:
                if len(table) > limit:
                    table.clear()
                got = table[id(owner)] = (owner, make(obj))
            return got[1]

        kept.plain = make  # type: ignore[attr-defined]
        kept.table = table  # type: ignore[attr-defined]
        return wraps(make)(kept)

    return wrap
