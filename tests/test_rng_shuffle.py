"""``rng.shuffle`` (a Fisher-Yates written out) against ``random.Random.shuffle``."""

from __future__ import annotations

import random

from bookgen.core.rng import shuffle
from bookgen.solve.latin import random_latin_square


def test_shuffle_equals_random_shuffle():
    """The same order for every length met (0 to 300, past the table of bit lengths), and the
    generator left in the same state."""
    mine, theirs = random.Random(7), random.Random(7)
    for length in list(range(12)) * 20 + [255, 256, 257, 300]:
        a, b = list(range(length)), list(range(length))
        shuffle(mine, a)
        theirs.shuffle(b)
        assert a == b
    assert mine.getstate() == theirs.getstate()


def test_latin_square_draws_as_with_random_shuffle(monkeypatch):
    """``random_latin_square`` gives the square it gave with ``Random.shuffle``."""
    import bookgen.solve.latin as latin
    squares = [random_latin_square(n, random.Random(n)) for n in range(3, 10)]
    monkeypatch.setattr(latin, "shuffle", lambda rng, items: rng.shuffle(items))
    assert squares == [random_latin_square(n, random.Random(n)) for n in range(3, 10)]


def test_below_and_choice_equal_randrange_and_choice():
    """``below`` and ``choice`` give ``randrange`` and ``random.choice``'s numbers and items,
    lengths 1 (which still draws) to 300, and leave the generator in the same state."""
    from bookgen.core.rng import below, choice
    mine, theirs = random.Random(11), random.Random(11)
    for n in list(range(1, 40)) * 10 + [255, 256, 257, 300, 576 * 576]:
        assert below(mine, n) == theirs.randrange(n)
        seq = list(range(n % 300 + 1))
        assert choice(mine, seq) == theirs.choice(seq)
    assert mine.getstate() == theirs.getstate()


def test_latin_square_is_the_plain_one():
    """``random_latin_square`` (its options' shuffles written out, the search's first step
    taken without it) gives ``random_latin_square_plain``'s square and leaves the generator
    in the same state, orders 1 to 9."""
    from bookgen.solve.latin import random_latin_square_plain
    for n in range(1, 10):
        for seed in range(60):
            mine, theirs = random.Random(seed), random.Random(seed)
            assert random_latin_square(n, mine) == random_latin_square_plain(n, theirs)
            assert mine.getstate() == theirs.getstate()
