"""The fragment library: every distinct behaviour of up to ``top`` tokens, built level by level.

A program fragment acts on the 4 x squares states ``s = square * 4 + direction``
as a function ``f[s]`` (the state it ends in) plus a visited set ``v[s]``: the
squares it stands on, as a bitset over ``words`` uint64 words. Two fragments
with the same (f, v) are interchangeable anywhere in a program, so the
library keeps one fragment per behaviour (the first found, which has the
fewest tokens). Behaviours are hashed and then compared in full.

Library arrays (``capacity`` entries):

- ``lib_f[e, s]`` int16 and ``lib_r[e, s]`` int32: the behaviour, its visited
  sets as ids of rows in a shared pool: ``v[s]`` is ``pool[lib_r[e, s]]``.
  Each distinct row is stored once (``pool_hash``, ``row_table``, ``rows``
  its count): on a 400-square board about one row in thirty is new, so an
  entry takes 8 bytes a state instead of 4 + 8 x words;
- ``kind[e]``: 0 primitive (``arg0`` 0=F 1=L 2=R), 1 loop (``arg0`` body,
  ``arg1`` count), 2 sequence (``arg0`` head item, ``arg1`` tail entry),
  3 the empty program; ``tokens[e]`` its token count;
- ``table``: open addressing over entry ids (-1 empty), ``hashes[e]``
  (:func:`gridsolver.core.kernels.table.next_entry`); ``row_table`` the
  same over pool rows, its slots holding part of the hash too. Both start small and the caller doubles them
  (:func:`rehash_library`, :func:`rehash_rows`) when an insert finds one half full: the builders
  then stop with LIBRARY_FULL, leaving in ``cursor`` where to go on, so a
  level is never built twice. ``mem`` = (byte limit, bytes per entry, bytes
  per row) keeps entries and rows together within the memory budget.

The builders return :data:`~gridsolver.core.kernels.stops.EXHAUSTED` (the
level is complete), :data:`~gridsolver.core.kernels.stops.OUT_OF_TIME` or
:data:`~gridsolver.core.kernels.stops.LIBRARY_FULL`.

This module imports numba; import it only from kernel modules. The
plain-Python reference of every kernel is :mod:`gridsolver.bunny.reference`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.bunny.kernels.budget import expired
from gridsolver.bunny.kernels.orbit import cycle_structure
from gridsolver.core.kernels.arrays import copy_prefix, copy_rows
from gridsolver.core.kernels.stops import EXHAUSTED, LIBRARY_FULL, OUT_OF_TIME
from gridsolver.core.kernels.table import home_slot, next_entry

KIND_PRIMITIVE, KIND_LOOP, KIND_SEQUENCE, KIND_EMPTY = 0, 1, 2, 3

_MIX = np.uint64(0x9E3779B97F4A7C15)

#: The library's arrays, as described above (``arg0s``, ``arg1s``, ``toks``: each entry's
#: ``arg0``, ``arg1`` and tokens; ``counter[0]`` entries, ``rows[0]`` pool rows so far).
Store = namedtuple("Store", ["lib_f", "lib_r", "kinds", "arg0s", "arg1s", "toks", "hashes", "table",
                             "counter", "pool", "pool_hash", "row_table", "rows", "mem"])


@njit(cache=True, inline="always")
def new_item(kinds, e):
    """Whether entry ``e`` is a primitive or a loop: the items a sequence is made of, a head
    followed by any entry (a sequence's own head is an item stored before it)."""
    return kinds[e] == KIND_PRIMITIVE or kinds[e] == KIND_LOOP


@njit(cache=True)
def behaviour_hash(f, v):
    """A 64-bit hash of one behaviour (f: int32[S], v: uint64[S, W]).

    Each state is hashed on its own and the results summed, so the multiply chains of different
    states overlap in the processor (one chain through every word took several times longer).
    """
    h = np.uint64(0)
    for s in range(f.shape[0]):
        x = (np.uint64(f[s]) + np.uint64(s) * np.uint64(0x9E3779B97F4A7C15)) * _MIX
        for w in range(v.shape[1]):
            x = (x ^ v[s, w]) * np.uint64(0xD6E8FEB86659FD93)
        h += x ^ (x >> np.uint64(29))
    h ^= h >> np.uint64(32)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    return h ^ (h >> np.uint64(29))


@njit(cache=True, inline="always")
def _row_hash(v, s):
    """A 64-bit hash of the visited row ``v[s]`` (mixed down into the low bits the table uses)."""
    h = np.uint64(0x243F6A8885A308D3)
    for w in range(v.shape[1]):
        h = (h ^ v[s, w]) * _MIX
        h ^= h >> np.uint64(32)
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    return h ^ (h >> np.uint64(31))


@njit(cache=True, inline="always")
def _row_slot(h, r):
    """A row table slot: the row's id below the top 31 bits of its hash, so that probing
    compares hashes without reading ``pool_hash`` (one memory access fewer per probe)."""
    return (np.int64(h >> np.uint64(33)) << np.int64(32)) | np.int64(r)


@njit(cache=True)
def _intern(v, s, n_entries, pool, pool_hash, row_table, rows, mem):
    """The id of the row ``v[s]`` in the pool, added if new; -1 when the pool or its table is full."""
    h = _row_hash(v, s)
    tag = np.int64(h >> np.uint64(33))
    words = v.shape[1]
    mask = row_table.shape[0] - 1
    slot = home_slot(row_table, h)
    while row_table[slot] >= 0:
        x = row_table[slot]
        if (x >> np.int64(32)) == tag:
            r = x & np.int64(0xFFFFFFFF)
            same = True
            for w in range(words):
                if pool[r, w] != v[s, w]:
                    same = False
                    break
            if same:
                return r
        slot = (slot + 1) & mask
    m = rows[0]
    if (m >= pool.shape[0] or 2 * (m + 1) > row_table.shape[0]
            or (n_entries + 1) * mem[1] + (m + 1) * mem[2] > mem[0]):
        return np.int64(-1)
    for w in range(words):
        pool[m, w] = v[s, w]
    pool_hash[m] = h
    row_table[slot] = _row_slot(h, m)
    rows[0] = m + 1
    return m


@njit(cache=True, inline="always")
def _file(table, h, value):
    """Put ``value`` in the first free slot (-1) from hash ``h``'s home: for values known to be absent."""
    mask = table.shape[0] - 1
    slot = home_slot(table, h)
    while table[slot] >= 0:
        slot = (slot + 1) & mask
    table[slot] = value


@njit(cache=True)
def rehash_rows(pool_hash, count, row_table):
    """File the pool's first ``count`` rows into ``row_table`` (all -1, larger than 2 x count)."""
    for r in range(count):
        _file(row_table, pool_hash[r], _row_slot(pool_hash[r], r))


@njit(cache=True)
def _same_behaviour(lib_f, lib_r, pool, e, f, v, r):
    """True when library entry ``e`` has the behaviour (f, v); ``r[s]`` is v[s]'s row id or -1."""
    for s in range(f.shape[0]):
        if lib_f[e, s] != f[s]:
            return False
        stored = lib_r[e, s]
        if r[s] >= 0:  # interned rows are distinct: equal ids, equal rows
            if stored != r[s]:
                return False
            continue
        for w in range(v.shape[1]):
            if pool[stored, w] != v[s, w]:
                return False
    return True


@njit(cache=True)
def insert(buf_f, buf_v, buf_r, kind, arg0, arg1, tokens, store):
    """Add a behaviour unless an equal one is stored. Returns its new id, -1 (seen) or -2 (full).

    ``buf_r[s]`` is the pool id of the row ``buf_v[s]`` when the caller knows it, else -1; a
    new or seen behaviour leaves every row's id there. ``mem`` = (byte limit, bytes per entry,
    bytes per pooled row): entries and rows together stay within the limit.
    """
    (lib_f, lib_r, kinds, arg0s, arg1s, toks, hashes, table, counter, pool, pool_hash, row_table, rows,
     mem) = store
    h = behaviour_hash(buf_f, buf_v)
    slot = next_entry(table, hashes, h, home_slot(table, h))
    while table[slot] >= 0:  # an entry with the same hash: compare it in full
        e = table[slot]
        if _same_behaviour(lib_f, lib_r, pool, e, buf_f, buf_v, buf_r):
            copy_prefix(buf_r, lib_r[e], buf_r.shape[0])
            return -1
        slot = next_entry(table, hashes, h, (slot + 1) & (table.shape[0] - 1))
    n = counter[0]
    if n >= lib_f.shape[0] or 2 * (n + 1) > table.shape[0] or (n + 1) * mem[1] + rows[0] * mem[2] > mem[0]:
        return -2
    for s in range(buf_f.shape[0]):
        if buf_r[s] < 0:
            r = _intern(buf_v, s, n, pool, pool_hash, row_table, rows, mem)
            if r < 0:
                return -2
            buf_r[s] = r
    copy_prefix(lib_f[n], buf_f, buf_f.shape[0])
    copy_prefix(lib_r[n], buf_r, buf_r.shape[0])
    kinds[n] = kind
    arg0s[n] = arg0
    arg1s[n] = arg1
    toks[n] = tokens
    hashes[n] = h
    table[slot] = n
    counter[0] = n + 1
    return n


@njit(cache=True)
def rehash_library(hashes, count, table):
    """File the library's first ``count`` entries into ``table`` (all -1, larger than 2 x count)."""
    for e in range(count):  # entries are distinct: the first free slot is this one's
        _file(table, hashes[e], e)


@njit(cache=True)
def compose(fa, va, fb, vb, out_f, out_v):
    """``a`` then ``b``: out_f = fb after fa, out_v[s] = va[s] | vb[fa[s]]."""
    for s in range(fa.shape[0]):
        mid = fa[s]
        out_f[s] = fb[mid]
        for w in range(va.shape[1]):
            out_v[s, w] = va[s, w] | vb[mid, w]


@njit(cache=True)
def compose_stored(h, t, lib_f, lib_r, pool, out_f, out_v, out_r):
    """Entry ``h`` then entry ``t`` into (out_f, out_v), with the row ids known without a lookup:
    a row equal to one of the two it is made of has that row's id, other rows get -1."""
    words = pool.shape[1]
    for s in range(lib_f.shape[1]):
        mid = lib_f[h, s]
        out_f[s] = lib_f[t, mid]
        ra = lib_r[h, s]
        rb = lib_r[t, mid]
        is_a = True
        is_b = True
        for w in range(words):
            x = pool[ra, w] | pool[rb, w]
            if x != pool[ra, w]:
                is_a = False
            if x != pool[rb, w]:
                is_b = False
            out_v[s, w] = x
        out_r[s] = rb if is_b else (ra if is_a else -1)


@njit(cache=True)
def build_loops(j, level_start, level_end, store, count_cap, limits, stats, cursor):
    """Add every new LOOP(n){b} behaviour for bodies b of j - 1 tokens.

    ``stats[0]`` counts candidate behaviours, ``stats[1]`` the largest count
    needed, ``stats[2]`` is set when some body needed counts beyond ``count_cap``.
    Bodies before ``cursor[0]`` are done already (a call that stopped with
    LIBRARY_FULL leaves there the body it stopped in: its loops already
    stored are found again, never stored twice).
    """
    lib_f, lib_r, kinds, pool = store.lib_f, store.lib_r, store.kinds, store.pool
    n_states = lib_f.shape[1]
    words = pool.shape[1]
    cur_f = np.empty(n_states, np.int32)
    cur_w = np.empty((n_states, words), np.uint64)
    cur_r = np.empty(n_states, np.int32)
    nxt_f = np.empty(n_states, np.int32)
    nxt_w = np.empty((n_states, words), np.uint64)
    nxt_r = np.empty(n_states, np.int32)
    body_w = np.empty((n_states, words), np.uint64)
    for b in range(max(level_start[j - 1], cursor[0]), level_end[j - 1]):
        cursor[0] = b
        if kinds[b] == KIND_LOOP:  # LOOP(n){LOOP(m){c}} is LOOP(nm){c}: nothing new (see the docs)
            continue
        if expired(limits, stats):
            return OUT_OF_TIME
        fb = lib_f[b]
        rb = lib_r[b]
        cyclic, period = cycle_structure(fb, count_cap)
        copy_prefix(cur_f, fb, n_states)
        copy_prefix(cur_r, rb, n_states)
        for s in range(n_states):  # the body's rows side by side: read once per count below
            for w in range(words):
                body_w[s, w] = pool[rb[s], w]
        copy_rows(cur_w, body_w)
        stable_at = -1  # first n with W_n == W_{n+1}
        cyclic_at = -1  # first n with every f^n(s) on a cycle
        n = 1
        while True:
            if cyclic_at < 0:
                all_cyclic = True
                for s in range(n_states):
                    if not cyclic[cur_f[s]]:
                        all_cyclic = False
                        break
                if all_cyclic:
                    cyclic_at = n
            if stable_at >= 0 and cyclic_at >= 0:
                last = max(stable_at, cyclic_at) + period - 1
                if n >= last:
                    break
            if n >= count_cap:
                stats[2] = 1
                break
            # n + 1 iterations: n of them, then the body once more.
            changed = False
            for s in range(n_states):
                mid = cur_f[s]
                nxt_f[s] = fb[mid]
                grew = False  # the row gained squares
                within = True  # the new row is the body's row at mid
                for w in range(words):
                    x = cur_w[s, w] | body_w[mid, w]
                    if x != cur_w[s, w]:
                        grew = True
                    if x != body_w[mid, w]:
                        within = False
                    nxt_w[s, w] = x
                if grew:
                    changed = True
                if not grew:
                    nxt_r[s] = cur_r[s]
                elif within:
                    nxt_r[s] = rb[mid]
                else:  # n + 1 iterations are also the body once, then n from where it ends
                    after = fb[s]
                    inside = True
                    for w in range(words):
                        if (body_w[s, w] & cur_w[after, w]) != body_w[s, w]:
                            inside = False
                            break
                    nxt_r[s] = cur_r[after] if inside else -1
            if not changed and stable_at < 0:
                stable_at = n
            n += 1
            cur_f, nxt_f = nxt_f, cur_f
            cur_w, nxt_w = nxt_w, cur_w
            cur_r, nxt_r = nxt_r, cur_r
            stats[0] += 1
            if expired(limits, stats):
                return OUT_OF_TIME
            if n > stats[1]:
                stats[1] = n
            e = insert(cur_f, cur_w, cur_r, np.int64(KIND_LOOP), b, n, j, store)
            if e == -2:
                return LIBRARY_FULL
    return EXHAUSTED


@njit(cache=True)
def build_sequences(j, level_start, level_end, store, limits, stats, cursor):
    """Add every new behaviour ``head tail`` of j tokens: head a new item of a tokens, tail j - a.

    Heads before (``cursor[1]`` tokens, entry ``cursor[2]``) are done already: see
    :func:`build_loops`.
    """
    lib_f, lib_r, kinds, pool = store.lib_f, store.lib_r, store.kinds, store.pool
    n_states = lib_f.shape[1]
    words = pool.shape[1]
    buf_f = np.empty(n_states, np.int32)
    buf_v = np.empty((n_states, words), np.uint64)
    buf_r = np.empty(n_states, np.int32)
    for a in range(max(1, cursor[1]), j):
        first = max(level_start[a], cursor[2]) if a == cursor[1] else level_start[a]
        for h in range(first, level_end[a]):
            cursor[1] = a
            cursor[2] = h
            if not new_item(kinds, h):
                continue
            for t in range(level_start[j - a], level_end[j - a]):
                if expired(limits, stats):
                    return OUT_OF_TIME
                compose_stored(h, t, lib_f, lib_r, pool, buf_f, buf_v, buf_r)
                stats[0] += 1
                e = insert(buf_f, buf_v, buf_r, np.int64(KIND_SEQUENCE), h, t, j, store)
                if e == -2:
                    return LIBRARY_FULL
    return EXHAUSTED
