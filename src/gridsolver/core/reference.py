"""Plain-Python reference of :mod:`gridsolver.core.kernels.table`, for the tests.

Same arguments, same answers, written for reading rather than speed.
"""

from __future__ import annotations

from typing import Any

_MASK64 = (1 << 64) - 1


def is_full(found: int, slots: int) -> bool:
    return found == -1 - slots


def find_key(keys: Any, key: int, home: int, probes: int) -> int:
    slots = len(keys)
    start = (int(home) & _MASK64) % slots
    for step in range(min(probes, slots)):
        slot = (start + step) % slots
        if keys[slot] == key:
            return slot
        if keys[slot] == 0:
            return -1 - slot
    return -1 - slots


def find_wide(hashes: Any, keys: Any, h: int, key: Any, probes: int) -> int:
    slots = len(hashes)
    tagged = int(h) | 1
    start = tagged % slots
    for step in range(min(probes, slots)):
        slot = (start + step) % slots
        if hashes[slot] == 0:
            return -1 - slot
        if hashes[slot] == tagged and list(keys[slot]) == list(key):
            return slot
    return -1 - slots


def store_wide(hashes: Any, keys: Any, slot: int, h: int, key: Any) -> None:
    hashes[slot] = int(h) | 1
    keys[slot][:] = key


def rehash_wide(old_hashes: Any, old_keys: Any, new_hashes: Any, new_keys: Any, probes: int) -> int:
    moved = 0
    for i, h in enumerate(old_hashes):
        if h != 0:
            slot = find_wide(new_hashes, new_keys, h, old_keys[i], probes)
            if slot < 0 and not is_full(slot, len(new_hashes)):
                store_wide(new_hashes, new_keys, -1 - slot, h, old_keys[i])
                moved += 1
    return moved


def home_slot(table: Any, h: int) -> int:
    return int(h) % len(table)


def next_entry(table: Any, entry_hashes: Any, h: int, slot: int) -> int:
    while table[slot] >= 0 and entry_hashes[table[slot]] != h:
        slot = (slot + 1) % len(table)
    return slot
