"""The shared open-addressing table: numba kernels against the plain-Python reference and a model."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.core import reference as R
from gridsolver.core.budget import Budget
from gridsolver.core.kernels import table as K
from gridsolver.core.table import GrowingTable

keys64 = st.integers(min_value=1, max_value=2**63 - 1)


def _insert_key(find, keys, key, probes):
    found = find(keys, key, key, probes)
    if found < 0 and not R.is_full(found, len(keys)):
        keys[-1 - found] = key
    return found


@settings(max_examples=60, deadline=None)
@given(st.lists(keys64, max_size=40), st.sampled_from([8, 16, 64]), st.integers(1, 70))
def test_find_key_matches_reference_and_a_set(inserted, slots, probes):
    fast = np.zeros(slots, np.int64)
    slow = [0] * slots
    stored = set()
    for key in inserted:
        a = _insert_key(K.find_key, fast, np.int64(key), probes)
        b = _insert_key(R.find_key, slow, key, probes)
        assert a == b
        if a >= 0 or not R.is_full(a, slots):
            stored.add(key)
    assert list(fast) == slow
    for key in inserted + [12345]:  # a stored key is always found; an unstored one never
        found = K.find_key(fast, np.int64(key), np.int64(key), probes)
        assert (found >= 0) == (key in stored)


def test_find_key_reports_a_full_neighbourhood():
    keys = np.zeros(8, np.uint64)
    for key in (1, 9, 17):  # all three share home slot 1
        found = K.find_key(keys, np.uint64(key), np.uint64(key), 2)
        if found < 0 and not K.is_full(found, 8):
            keys[-1 - found] = key
    assert list(keys[1:3]) == [1, 9]
    assert K.find_key(keys, np.uint64(17), np.uint64(17), 2) == -1 - 8
    assert K.find_key(keys, np.uint64(17), np.uint64(17), 3) == -1 - 3  # one more probe finds room


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 3), st.integers(0, 3)), max_size=30))
def test_wide_table_matches_reference_and_survives_rehash(items):
    slots, words = 32, 2
    fast_h, fast_k = np.zeros(slots, np.uint64), np.zeros((slots, words), np.uint64)
    slow_h, slow_k = [0] * slots, [[0] * words for _ in range(slots)]
    stored = []
    for h, a, b in items:
        h &= 0xFF  # few distinct hashes: equal hashes with different keys must stay apart
        key = [a, b]
        found = K.find_wide(fast_h, fast_k, np.uint64(h), np.array(key, np.uint64), 64)
        assert found == R.find_wide(slow_h, slow_k, h, key, 64)
        if found < 0 and not K.is_full(found, slots):
            K.store_wide(fast_h, fast_k, -1 - found, np.uint64(h), np.array(key, np.uint64))
            R.store_wide(slow_h, slow_k, -1 - found, h, key)
            stored.append((h, key))
    assert [int(x) for x in fast_h] == slow_h
    bigger_h, bigger_k = np.zeros(2 * slots, np.uint64), np.zeros((2 * slots, words), np.uint64)
    assert K.rehash_wide(fast_h, fast_k, bigger_h, bigger_k, 64) == len(stored)
    for h, key in stored:
        assert K.find_wide(bigger_h, bigger_k, np.uint64(h), np.array(key, np.uint64), 64) >= 0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=1, max_size=12))
def test_next_entry_walks_the_probe_chain(entry_hashes):
    """Entries inserted with next_entry are found again by it (hashes collide a lot here)."""
    table = np.full(32, -1, np.int32)
    hashes = np.array(entry_hashes, np.uint64)
    for e, h in enumerate(entry_hashes):
        slot = K.next_entry(table, hashes, np.uint64(h), K.home_slot(table, np.uint64(h)))
        while table[slot] >= 0:  # same hash, another entry: keep walking
            slot = K.next_entry(table, hashes, np.uint64(h), (slot + 1) & 31)
        assert slot == _reference_free_slot(list(table), entry_hashes, h)
        table[slot] = e
    for e, h in enumerate(entry_hashes):
        slot = K.next_entry(table, hashes, np.uint64(h), K.home_slot(table, np.uint64(h)))
        while table[slot] != e:
            assert table[slot] >= 0, "entry lost"
            slot = K.next_entry(table, hashes, np.uint64(h), (slot + 1) & 31)


def _reference_free_slot(table, entry_hashes, h):
    slot = R.next_entry(table, entry_hashes, h, R.home_slot(table, h))
    while table[slot] >= 0:
        slot = R.next_entry(table, entry_hashes, h, (slot + 1) % len(table))
    return slot


def test_growing_table_doubles_up_to_its_memory_share():
    table = GrowingTable(Budget(time_s=None, memory_mb=1), words=1, first_slots=1 << 10)
    assert table.max_slots == 1 << 15  # half of 1 MiB at 16 bytes a slot
    K.store_wide(table.hash, table.keys, 5, np.uint64(5), np.array([77], np.uint64))
    while table.grow_at:
        table.grow()
    assert len(table.hash) == table.max_slots
    assert K.find_wide(table.hash, table.keys, np.uint64(5), np.array([77], np.uint64), 64) >= 0
