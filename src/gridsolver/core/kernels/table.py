"""Open-addressing hash tables on numpy arrays: the one table every game's kernels use.

A table is a power-of-two number of slots probed linearly from a home slot
(``hash & (slots - 1)``), so a lookup touches one or two cache lines. Its
largest size comes from the memory budget (:meth:`gridsolver.core.budget.Budget.table_slots`):
searches start with a small table and double it as it fills (a rebuild into the
larger arrays), never past that bound, so a full table at the bound costs
pruning, never memory. Three
shapes, all with the same answer convention:

- **keys**: one integer per slot, 0 = empty (callers map a zero key to 1).
  Clickomania and SameGame store 64-bit position hashes; pegs' meet-in-the-middle
  stores positions themselves (with a separate home hash).
- **wide keys**: a 64-bit hash per slot (stored with its low bit set, so 0
  still means empty) plus ``words`` uint64 words compared in full, for keys that
  must never collide (pegs positions of more than 64 holes).
- **entries**: slots hold ids (-1 = empty) of entries kept elsewhere, each with
  its hash in ``entry_hashes``; the caller compares the entry itself (bunny's
  fragment library, whose behaviours are too big to copy into the table).

The find functions return the slot holding the key (>= 0); when it is absent,
``-1 - slot`` for the free slot where it would go; and ``-1 - slots`` (see
:func:`is_full`) when ``probes`` slots from its home are all taken.

This module imports numba; import it only from kernel modules. The
plain-Python reference is :mod:`gridsolver.core.reference`; a table that grows
with the search up to the memory budget is :class:`gridsolver.core.table.GrowingTable`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_LOW_BIT = np.uint64(1)


@njit(cache=True, inline="always")
def is_full(found: int, slots: int) -> bool:
    """True when a find answered "absent and no free slot within the probes"."""
    return found == -1 - slots


@njit(cache=True)
def find_key(keys, key, home, probes):
    """Where ``key`` (not 0) is in a table of ``keys``, probing from ``home`` (any integer hash)."""
    slots = keys.shape[0]
    mask = slots - 1
    slot = np.int64(home) & mask
    for _ in range(min(probes, slots)):
        k = keys[slot]
        if k == key:
            return slot
        if k == 0:
            return -1 - slot
        slot = (slot + 1) & mask
    return -1 - slots


@njit(cache=True)
def find_wide(hashes, keys, h, key, probes):
    """Where the ``words``-word ``key`` with 64-bit hash ``h`` is (``hashes``: uint64[slots],
    ``keys``: uint64[slots, words])."""
    slots = hashes.shape[0]
    mask = slots - 1
    h = h | _LOW_BIT
    slot = np.int64(h & np.uint64(mask))
    for _ in range(min(probes, slots)):
        stored = hashes[slot]
        if stored == 0:
            return -1 - slot
        if stored == h:
            same = True
            for w in range(key.shape[0]):
                if keys[slot, w] != key[w]:
                    same = False
                    break
            if same:
                return slot
        slot = (slot + 1) & mask
    return -1 - slots


@njit(cache=True)
def store_wide(hashes, keys, slot, h, key):
    """Put ``key`` with hash ``h`` in the free ``slot`` that :func:`find_wide` gave."""
    hashes[slot] = h | _LOW_BIT
    for w in range(key.shape[0]):
        keys[slot, w] = key[w]


@njit(cache=True)
def rehash_wide(old_hashes, old_keys, new_hashes, new_keys, probes):
    """Copy every entry of a wide table into a bigger one; returns how many were copied."""
    moved = 0
    for i in range(old_hashes.shape[0]):
        if old_hashes[i] != 0:
            slot = find_wide(new_hashes, new_keys, old_hashes[i], old_keys[i], probes)
            if slot < 0 and not is_full(slot, new_hashes.shape[0]):
                store_wide(new_hashes, new_keys, -1 - slot, old_hashes[i], old_keys[i])
                moved += 1
    return moved


@njit(cache=True)
def next_entry(table, entry_hashes, h, slot):
    """From ``slot`` on, the first slot that is empty (``table[slot] < 0``) or holds an entry
    whose hash is ``h``: the caller compares that entry in full and, if it differs, asks
    again from the next slot. Start at ``home_slot(table, h)``; the table must never be
    full (keep it at most half full)."""
    mask = table.shape[0] - 1
    while True:
        e = table[slot]
        if e < 0 or entry_hashes[e] == h:
            return slot
        slot = (slot + 1) & mask


@njit(cache=True, inline="always")
def home_slot(table, h):
    """The slot where probing for hash ``h`` starts."""
    return np.int64(h & np.uint64(table.shape[0] - 1))
