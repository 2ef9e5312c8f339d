"""Deterministic randomness: every puzzle gets its own ``random.Random``.

The seed string is derived from (book seed, section index, puzzle index) by
SHA-256, so a puzzle does not depend on which worker made it or on how many
puzzles came before it in other sections.
"""

from __future__ import annotations

import hashlib
import random


def derive_seed(book_seed: int, section: int, index: int, attempt: int = 0, version: int = 0) -> str:
    """The printable seed of one puzzle (16 hex digits).

    ``attempt`` > 0 gives the puzzle's next candidate, when an earlier one had
    to be dropped (a repeat, a replaced puzzle); ``version`` > 0 the same
    puzzle slot in another version of a class set. Both 0 give the seed every
    earlier bookgen gave, so books keep regenerating exactly."""
    text = f"bookgen/{book_seed}/{section}/{index}"
    if version:
        text += f"/version/{version}"
    if attempt:
        text += f"/attempt/{attempt}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def example_seed(book_seed: int, label: str) -> str:
    """A seed for something a book shows once, like a rules page's worked example."""
    text = f"bookgen/{book_seed}/example/{label}".encode()
    return hashlib.sha256(text).hexdigest()[:16]


def rng_for(seed: str) -> random.Random:
    """A private generator for a derived seed string."""
    return random.Random(int(seed, 16))
