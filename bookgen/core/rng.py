"""Deterministic randomness: every puzzle gets its own ``random.Random``.

The seed string is derived from (book seed, section index, puzzle index) by
SHA-256, so a puzzle does not depend on which worker made it or on how many
puzzles came before it in other sections.
"""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache


def derive_seed(book_seed: int, section: int, index: int, attempt: int = 0) -> str:
    """The printable seed of one puzzle (16 hex digits).

    ``attempt`` > 0 gives the seeds tried after a generation attempt ran out of
    budget; attempt 0 is the seed every puzzle has always had, so books made
    before retries existed come out the same.
    """
    suffix = f"/{attempt}" if attempt else ""
    text = f"bookgen/{book_seed}/{section}/{index}{suffix}".encode()
    return hashlib.sha256(text).hexdigest()[:16]


def example_seed(book_seed: int, label: str) -> str:
    """A seed for something a book shows once, like a rules page's worked example."""
    text = f"bookgen/{book_seed}/example/{label}".encode()
    return hashlib.sha256(text).hexdigest()[:16]


def rng_for(seed: str) -> random.Random:
    """A private generator for a derived seed string."""
    return random.Random(int(seed, 16))


def version_seed(book_seed: int, section: int, index: int, version: int, attempt: int = 0) -> str:
    """The seed of one puzzle of a class set: version 0 (A) has the book's usual seeds
    (``derive_seed``), versions B, C ... seeds of their own, with the same attempts."""
    if not version:
        return derive_seed(book_seed, section, index, attempt)
    suffix = f"/{attempt}" if attempt else ""
    text = f"bookgen/{book_seed}/{section}/{index}/version/{version}{suffix}".encode()
    return hashlib.sha256(text).hexdigest()[:16]


_BITS = tuple(n.bit_length() for n in range(257))  # ``int.bit_length`` of each bound ``below`` meets most


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` >= 1 (``Random._randbelow``), which it must equal: the same
    number from the same draws (tests/test_rng_shuffle.py), without the two method calls around
    ``getrandbits`` (a small grid's cage cut draws a few dozen)."""
    k = _BITS[n] if n < 257 else n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j


def choice(rng: random.Random, seq):
    """``rng.choice(seq)`` for a non-empty ``seq``, by ``below``: the same item and draws."""
    return seq[below(rng, len(seq))]


def shuffle(rng: random.Random, items: list) -> None:
    """``rng.shuffle(items)``, which it must equal (the same order and the same draws, so
    everything drawn after it is the same too; tests/test_rng_shuffle.py): CPython's
    Fisher-Yates, each index below ``i + 1`` drawn by ``getrandbits`` as ``Random._randbelow``
    draws it, written out so a short list costs no method calls per element (the Latin
    squares' shuffles of 4 to 9 digits, a sixth of a small puzzle's square)."""
    getrandbits = rng.getrandbits
    for i, n, k in shuffle_steps(len(items)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


@lru_cache(maxsize=1 << 10)
def shuffle_steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """``shuffle``'s steps for a list of ``length``: (index, its bound ``index + 1``, the bound's
    bit length), last index first, read once a length rather than worked out each element (also
    by shuffles written out inline, as ``solve.latin.random_latin_square``'s)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1))
