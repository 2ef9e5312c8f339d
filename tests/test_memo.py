"""The bounded memo and the bit helpers the engines share."""

from __future__ import annotations

from hypothesis import given, strategies as st

from bookgen.core.bits import bits_of, lowest, nth_bit, scan_forward, scan_reversed
from bookgen.core.memo import BoundedMemo, MemoBounds, linked


def test_memo_clears_past_its_bound_and_keeps_the_new_entry():
    memo = BoundedMemo(3)
    for key in range(4):
        assert memo.put(key, key * 10) == key * 10
    assert dict(memo) == {0: 0, 1: 10, 2: 20, 3: 30}  # at the bound plus one: not yet cleared
    memo.put(4, 40)
    assert dict(memo) == {4: 40}
    assert len(memo) <= memo.limit + 1


def test_memo_never_grows_past_its_bound():
    memo = BoundedMemo(100)
    for key in range(10_000):
        memo.put(key, key)
        assert len(memo) <= 101
    assert memo[9_999] == 9_999


def test_put_default_builds_only_on_a_miss():
    memo = BoundedMemo(10)
    made = []
    first = memo.put_default("a", lambda: made.append(1) or [])
    assert memo.put_default("a", lambda: made.append(2) or []) is first
    assert made == [1]


def test_linked_memos_clear_together():
    a, b = linked(BoundedMemo(2), BoundedMemo(100))
    a.put(1, "x")
    b.put(1, 9)
    a.put(2, "y")
    a.put(3, "z")
    a.put(4, "w")  # a is past its bound: both go
    assert dict(a) == {4: "w"} and dict(b) == {}


def test_memo_bounds_trim_like_put_at_each_checkpoint():
    """``MemoBounds`` (plain dicts, trimmed at checkpoints) against ``BoundedMemo.put`` (its plain
    version): a checkpoint before every store gives the same memo; between checkpoints a memo
    may pass its bound, and the next checkpoint clears it and its linked partner."""
    bounds, plain = MemoBounds(), BoundedMemo(5)
    memo = bounds.new(5)
    a, b = bounds.linked(2, 2)
    for key in range(40):
        bounds.trim()
        memo[key] = key
        plain.put(key, key)
        assert memo == dict(plain)
    for key in range(4):
        a[key] = key
    b[0] = 0
    assert len(a) == 4  # no checkpoint yet
    bounds.trim()
    assert a == {} and b == {}
    bounds.trim()  # nothing past its bound: nothing goes
    assert memo == dict(plain)
    assert type(memo) is dict  # an exact dict: its lookups stay specialised


@given(st.integers(0, (1 << 70) - 1))
def test_bit_helpers_match_the_plain_definitions(mask):
    plain = [i for i in range(70) if mask >> i & 1]
    assert list(scan_forward(mask)) == plain
    assert list(scan_reversed(mask)) == plain[::-1]
    assert bits_of(plain) == mask
    if mask:
        assert lowest(mask) == plain[0]
        for i, bit in enumerate(plain):
            assert nth_bit(mask, i) == bit


def test_kept_by_identity_equals_its_plain_version_and_follows_the_object():
    from bookgen.core.memo import kept_by_identity
    from bookgen.solve.houses import _bitboards, _slots, geometry

    calls = []

    @kept_by_identity(limit=2)
    def size_of(obj):
        calls.append(obj)
        return len(obj)

    a, b, c = [1], [1, 2], [1, 2, 3]
    assert [size_of(a), size_of(a), size_of(b)] == [1, 1, 2] and calls == [a, b]
    a.append(9)  # the same object: its value is kept, not worked out again
    assert size_of(a) == 1 and calls == [a, b]
    equal = [1]  # equal to a once was, but another object: worked out afresh
    assert size_of(equal) == 1 and calls[-1] is equal
    assert len(size_of.table) == 3
    size_of(c)  # past the limit: the table is cleared and holds the new one only
    assert list(size_of.table) == [id(c)]
    for geo in (geometry(4, (2, 2)), geometry(9, (3, 3), diagonal=True), geometry(5)):
        assert _slots(geo) == _slots.plain(geo) and _bitboards(geo) == _bitboards.plain(geo)


def test_kept_by_identity_of_an_attribute_is_shared_by_its_owners():
    from types import SimpleNamespace

    from bookgen.core.memo import kept_by_identity

    @kept_by_identity(of="houses")
    def count(obj):
        return (obj.name, len(obj.houses))

    houses = ((0, 1), (2, 3))
    first, second = SimpleNamespace(name="first", houses=houses), SimpleNamespace(name="second", houses=houses)
    assert count(first) == ("first", 2) and count(second) == ("first", 2)  # the houses' table
    assert count(SimpleNamespace(name="third", houses=((0,),))) == ("third", 1)
