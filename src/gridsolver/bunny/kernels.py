"""numba kernels for the exact search: fragment behaviours built bottom-up.

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

This module imports numba; the CLI imports it only inside commands. The
plain-Python reference of every kernel is :mod:`gridsolver.bunny.reference`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.kernels.clock import budget_check
from gridsolver.core.kernels.table import home_slot, next_entry

KIND_PRIMITIVE, KIND_LOOP, KIND_SEQUENCE, KIND_EMPTY = 0, 1, 2, 3

# Kernel status codes.
DONE, OUT_OF_TIME, LIBRARY_FULL = 0, 1, 2

_MIX = np.uint64(0x9E3779B97F4A7C15)

# Every kernel takes its integer arguments as int64: a call passing int32 (a value read from
# ``lib_f``) or a constant (numba types ``-1`` as a literal) would compile the callee once more.
NO_SECOND = np.int64(-1)  # a loop body of one entry (see _body_step)
ZERO, ONE, TWO, THREE = np.int64(0), np.int64(1), np.int64(2), np.int64(3)  # sizes passed as arguments

# Copies are written as element loops, never as slice assignment (``a[i, :] = b``): numba's code
# for assigning an array to a slice (broadcasting, and formatting its shape-mismatch error) took
# more than half of these kernels' compile time, which a new user waits for on the first run.


@njit(cache=True, inline="always")
def _copy_prefix(dst, src, n):
    """``dst[:n] = src[:n]`` (1-D)."""
    for i in range(n):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def _copy_rows(dst, src):
    """``dst[:, :] = src`` (2-D, same shape)."""
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True)
def _expired(limits, stats):
    """Whether the budget is spent; ``stats[0]`` counts nodes.

    ``limits`` = (deadline on the monotonic clock in ns, node limit, nodes between clock
    readings, node count of the next reading). A node costs up to 4 x squares x words word
    operations, milliseconds on a board of thousands of squares, so the search sets the
    interval from the board; and the top-level search adds many nodes at once, so the clock is
    read once the count has passed the next reading, not at exact multiples. A two-entry
    ``limits`` reads the clock every 1,024 nodes.
    """
    if limits.shape[0] < 4:
        return budget_check(stats[0], limits[1], limits[0], 1024) != 0
    if stats[0] < limits[3] and stats[0] < limits[1]:
        return False
    limits[3] = stats[0] + limits[2]
    return budget_check(stats[0], limits[1], limits[0], 1) != 0


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


@njit(cache=True)
def rehash_rows(pool_hash, count, row_table):
    """File the pool's first ``count`` rows into ``row_table`` (all -1, larger than 2 x count)."""
    mask = row_table.shape[0] - 1
    for r in range(count):
        slot = home_slot(row_table, pool_hash[r])
        while row_table[slot] >= 0:
            slot = (slot + 1) & mask
        row_table[slot] = _row_slot(pool_hash[r], r)


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
def insert(buf_f, buf_v, buf_r, kind, arg0, arg1, tokens, lib_f, lib_r, kinds, arg0s, arg1s, toks,
           hashes, table, counter, pool, pool_hash, row_table, rows, mem):
    """Add a behaviour unless an equal one is stored. Returns its new id, -1 (seen) or -2 (full).

    ``buf_r[s]`` is the pool id of the row ``buf_v[s]`` when the caller knows it, else -1; a
    new or seen behaviour leaves every row's id there. ``mem`` = (byte limit, bytes per entry,
    bytes per pooled row): entries and rows together stay within the limit.
    """
    h = behaviour_hash(buf_f, buf_v)
    slot = next_entry(table, hashes, h, home_slot(table, h))
    while table[slot] >= 0:  # an entry with the same hash: compare it in full
        e = table[slot]
        if _same_behaviour(lib_f, lib_r, pool, e, buf_f, buf_v, buf_r):
            _copy_prefix(buf_r, lib_r[e], buf_r.shape[0])
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
    _copy_prefix(lib_f[n], buf_f, buf_f.shape[0])
    _copy_prefix(lib_r[n], buf_r, buf_r.shape[0])
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
    mask = table.shape[0] - 1
    for e in range(count):
        slot = home_slot(table, hashes[e])
        while table[slot] >= 0:  # entries are distinct: the first free slot is this one's
            slot = (slot + 1) & mask
        table[slot] = e


@njit(cache=True)
def compose(fa, va, fb, vb, out_f, out_v):
    """``a`` then ``b``: out_f = fb after fa, out_v[s] = va[s] | vb[fa[s]]."""
    for s in range(fa.shape[0]):
        mid = fa[s]
        out_f[s] = fb[mid]
        for w in range(va.shape[1]):
            out_v[s, w] = va[s, w] | vb[mid, w]


@njit(cache=True)
def cycle_structure(f, cap):
    """(is_cyclic[S], period) of the function f; period = lcm of cycle lengths, capped at cap + 1."""
    n = f.shape[0]
    stamp = np.full(n, -1, np.int64)
    position = np.zeros(n, np.int64)
    cyclic = np.zeros(n, np.bool_)
    period = np.int64(1)
    for start in range(n):
        if stamp[start] >= 0:
            continue
        s = start
        k = 0
        while stamp[s] < 0:
            stamp[s] = start
            position[s] = k
            k += 1
            s = f[s]
        if stamp[s] == start:  # a new cycle, entered at s
            length = k - position[s]
            t = s
            for _ in range(length):
                cyclic[t] = True
                t = f[t]
            a, b = period, np.int64(length)
            while b:
                a, b = b, a % b
            period = period // a * length
            if period > cap:
                period = cap + 1
    return cyclic, period


@njit(cache=True)
def build_loops(j, level_start, level_end, lib_f, lib_r, kinds, arg0s, arg1s, toks, hashes, table,
                counter, pool, pool_hash, row_table, rows, mem, count_cap, limits, stats, cursor):
    """Add every new LOOP(n){b} behaviour for bodies b of j - 1 tokens.

    ``stats[0]`` counts candidate behaviours, ``stats[1]`` the largest count
    needed, ``stats[2]`` is set when some body needed counts beyond ``count_cap``.
    Bodies before ``cursor[0]`` are done already (a call that stopped with
    LIBRARY_FULL leaves there the body it stopped in: its loops already
    stored are found again, never stored twice).
    """
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
        if _expired(limits, stats):
            return OUT_OF_TIME
        fb = lib_f[b]
        rb = lib_r[b]
        cyclic, period = cycle_structure(fb, count_cap)
        _copy_prefix(cur_f, fb, n_states)
        _copy_prefix(cur_r, rb, n_states)
        for s in range(n_states):  # the body's rows side by side: read once per count below
            for w in range(words):
                body_w[s, w] = pool[rb[s], w]
        _copy_rows(cur_w, body_w)
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
            if _expired(limits, stats):
                return OUT_OF_TIME
            if n > stats[1]:
                stats[1] = n
            e = insert(cur_f, cur_w, cur_r, np.int64(KIND_LOOP), b, n, j, lib_f, lib_r, kinds, arg0s, arg1s,
                       toks, hashes, table, counter, pool, pool_hash, row_table, rows, mem)
            if e == -2:
                return LIBRARY_FULL
    return DONE


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
def build_sequences(j, level_start, level_end, lib_f, lib_r, kinds, arg0s, arg1s, toks, hashes, table,
                    counter, pool, pool_hash, row_table, rows, mem, limits, stats, cursor):
    """Add every new behaviour ``head tail`` of j tokens: head a new item of a tokens, tail j - a.

    Heads before (``cursor[1]`` tokens, entry ``cursor[2]``) are done already: see
    :func:`build_loops`.
    """
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
            if kinds[h] != KIND_PRIMITIVE and kinds[h] != KIND_LOOP:
                continue
            for t in range(level_start[j - a], level_end[j - a]):
                if _expired(limits, stats):
                    return OUT_OF_TIME
                compose_stored(h, t, lib_f, lib_r, pool, buf_f, buf_v, buf_r)
                stats[0] += 1
                e = insert(buf_f, buf_v, buf_r, np.int64(KIND_SEQUENCE), h, t, j, lib_f, lib_r, kinds, arg0s,
                           arg1s, toks, hashes, table, counter, pool, pool_hash, row_table, rows, mem)
                if e == -2:
                    return LIBRARY_FULL
    return DONE


@njit(cache=True)
def covering(first, last, lib_r, pool, start_state, target):
    """Entries in [first, last) whose visited set from ``start_state`` covers ``target``."""
    found = []
    for e in range(first, last):
        ok = True
        r = lib_r[e, start_state]
        for w in range(target.shape[0]):
            if (pool[r, w] & target[w]) != target[w]:
                ok = False
                break
        if ok:
            found.append(e)
    return found


# -- the top-level search from the single start state ------------------------------------------
# A solution is recorded as up to MAX_PIECES pieces, each (kind, x, y, z, count, inner): PIECE_ENTRY
# is the stored entry x; PIECE_LOOP is LOOP(count){x y z}, a body of up to three stored entries
# (y and z are -1 when absent); PIECE_LOOP_INNER is LOOP(count){x LOOP(inner){y} z}.
PIECE_NONE, PIECE_ENTRY, PIECE_LOOP, PIECE_LOOP_INNER = 0, 1, 2, 3
PIECE_FIELDS = 6
MAX_PIECES = 4  # a primitive, a primitive, an item and a tail: search_next3 -> search_next2 -> search_next


@njit(cache=True)
def _covers(acc, target):
    for w in range(target.shape[0]):
        if (acc[w] & target[w]) != target[w]:
            return False
    return True


@njit(cache=True)
def _record(found, n_found, pieces):
    row = found[n_found[0]]
    for i in range(row.shape[0]):
        row[i] = pieces[i] if i < pieces.shape[0] else 0
    n_found[0] += 1
    return n_found[0] >= found.shape[0]


@njit(cache=True, inline="always")
def _apply(x, e, lib_f, lib_r, pool, acc):
    """Entry ``e`` from state ``x``: its squares into ``acc``; returns the state it ends in."""
    for w in range(pool.shape[1]):
        acc[w] |= pool[lib_r[e, x], w]
    return np.int64(lib_f[e, x])


@njit(cache=True)
def _body_step(x, first, second, third, lib_f, lib_r, pool, acc):
    """One iteration of a loop body: entry ``first``, then ``second`` and ``third`` unless -1."""
    x = _apply(x, first, lib_f, lib_r, pool, acc)
    if second >= 0:
        x = _apply(x, second, lib_f, lib_r, pool, acc)
    if third >= 0:
        x = _apply(x, third, lib_f, lib_r, pool, acc)
    return x


@njit(cache=True)
def final_loop(state, vis, first, second, third, lib_f, lib_r, pool, target, stamp, stamp_id, acc):
    """Iterate a loop body from ``state`` until its orbit closes.

    Returns the smallest count after which everything in ``target`` is
    visited, or 0 when even endless iteration cannot do it.
    """
    _copy_prefix(acc, vis, vis.shape[0])
    x = state
    n = 0
    while True:
        if stamp[x] == stamp_id:
            return 0
        stamp[x] = stamp_id
        x = _body_step(x, first, second, third, lib_f, lib_r, pool, acc)
        n += 1
        if _covers(acc, target):
            return n


@njit(cache=True, inline="always")
def _set_piece(pieces, at, kind, x, y, z, count, inner=0):
    pieces[at] = kind
    pieces[at + 1] = x
    pieces[at + 2] = y
    pieces[at + 3] = z
    pieces[at + 4] = count
    pieces[at + 5] = inner


@njit(cache=True)
def _with_piece(prefix):
    """A copy of ``prefix`` with room for one more piece."""
    out = np.zeros(prefix.shape[0] + PIECE_FIELDS, np.int64)
    _copy_prefix(out, prefix, prefix.shape[0])
    return out


@njit(cache=True)
def _tails(state, acc, level, level_start, level_end, lib_r, pool, target, prefix, found, n_found, stats):
    """Record every stored entry of ``level`` tokens that completes the board from ``state``."""
    words = target.shape[0]
    stats[0] += level_end[level] - level_start[level]
    for t in range(level_start[level], level_end[level]):
        ok = True
        for w in range(words):
            if ((acc[w] | pool[lib_r[t, state], w]) & target[w]) != target[w]:
                ok = False
                break
        if ok:
            pieces = _with_piece(prefix)
            _set_piece(pieces, prefix.shape[0], PIECE_ENTRY, t, -1, -1, 0)
            if _record(found, n_found, pieces):
                return True
    return False


GO_ON = np.int64(-1)  # not a status: the case is exhausted without a stop, the caller goes on


@njit(cache=True)
def _items_then_tails(state, vis, first_size, last_size, total, level_start, level_end, kinds, lib_f, lib_r,
                      pool, target, head, k, found, n_found, limits, stats):
    """Programs ``h t`` from ``state``: a new item h of a = first_size..last_size tokens, then a stored
    tail t of ``total - a`` tokens (at most the library's top), h written as piece ``k`` of ``head``.
    Returns DONE when ``found`` is full, OUT_OF_TIME, or GO_ON."""
    acc = np.empty(target.shape[0], np.uint64)
    for a in range(first_size, last_size + 1):
        for h in range(level_start[a], level_end[a]):
            if kinds[h] > 1:  # only new items (primitives, loops) start a sequence
                continue
            stats[0] += 1
            if _expired(limits, stats):
                return OUT_OF_TIME
            for w in range(target.shape[0]):
                acc[w] = vis[w] | pool[lib_r[h, state], w]
            _set_piece(head, k, PIECE_ENTRY, h, -1, -1, 0)
            if _tails(np.int64(lib_f[h, state]), acc, total - a, level_start, level_end, lib_r, pool, target,
                      head, found, n_found, stats):
                return DONE
    return GO_ON


@njit(cache=True)
def _pair_finals(state, vis, p, first_size, last_size, total, level_start, level_end, kinds, lib_f, lib_r,
                 pool, target, prefix, found, n_found, stamp, stamp_counter, limits, stats):
    """Final loops ``LOOP{[p] h t}`` from ``state``: h a new item of c = first_size..last_size tokens,
    t a stored entry of ``total - c``, after the primitive p unless p is NO_SECOND.
    Returns DONE when one completes the board and ``found`` is full, OUT_OF_TIME, or GO_ON."""
    acc = np.empty(target.shape[0], np.uint64)
    for c in range(first_size, last_size + 1):
        for h in range(level_start[c], level_end[c]):
            if kinds[h] > 1:
                continue
            for t in range(level_start[total - c], level_end[total - c]):
                stats[0] += 1
                if _expired(limits, stats):
                    return OUT_OF_TIME
                if p < 0:
                    done = _final(state, vis, h, t, NO_SECOND, lib_f, lib_r, pool, target, prefix, found,
                                  n_found, stamp, stamp_counter, acc)
                else:
                    done = _final(state, vis, p, h, t, lib_f, lib_r, pool, target, prefix, found, n_found,
                                  stamp, stamp_counter, acc)
                if done:
                    return DONE
    return GO_ON


@njit(cache=True)
def search_next(state, vis, top, level_start, level_end, kinds, lib_f, lib_r, pool, target, prefix,
                found, n_found, stamp, stamp_counter, limits, stats):
    """Programs of ``top + 1`` tokens (the library holds levels 1..top) from one state.

    Either a new item of a <= top tokens followed by a stored tail of
    top + 1 - a tokens, or a final loop over a body of ``top`` tokens.
    Returns OUT_OF_TIME, or DONE (``found`` full or the level exhausted).
    """
    acc = np.empty(target.shape[0], np.uint64)
    k = prefix.shape[0]
    head = _with_piece(prefix)
    status = _items_then_tails(state, vis, ONE, top, top + 1, level_start, level_end, kinds, lib_f, lib_r,
                               pool, target, head, k, found, n_found, limits, stats)
    if status != GO_ON:
        return status
    for b in range(level_start[top], level_end[top]):
        if kinds[b] == KIND_LOOP:  # LOOP{LOOP(n){c}} behaves as LOOP{c}, one token shorter
            continue
        stats[0] += 1
        if _expired(limits, stats):
            return OUT_OF_TIME
        stamp_counter[0] += 1
        n = final_loop(state, vis, b, NO_SECOND, NO_SECOND, lib_f, lib_r, pool, target, stamp,
                       stamp_counter[0], acc)
        if n > 0:
            _set_piece(head, k, PIECE_LOOP, b, -1, -1, n)
            if _record(found, n_found, head):
                return DONE
    return DONE


@njit(cache=True)
def _loop_then_tail(state, vis, first, second, tail_level, level_start, level_end, lib_f, lib_r, pool, target,
                    prefix, found, n_found, stamp, stamp_counter, stats):
    """``LOOP(n){first second}`` from ``state`` for every count n >= 2 that can differ, then a stored
    tail of ``tail_level`` tokens. The loop is entered once, so counts past its closed orbit and
    once round again repeat what smaller ones give. True when ``found`` is full."""
    n_states = lib_f.shape[1]
    acc = np.empty(target.shape[0], np.uint64)
    head = _with_piece(prefix)
    k = prefix.shape[0]
    stamp_counter[0] += 1
    x = state
    _copy_prefix(acc, vis, vis.shape[0])
    n = 0
    closed_at = -1
    while closed_at < 0 or n < 2 * closed_at + 1:
        if closed_at < 0 and stamp[x] == stamp_counter[0]:
            closed_at = n
        stamp[x] = stamp_counter[0]
        x = _body_step(x, first, second, NO_SECOND, lib_f, lib_r, pool, acc)
        n += 1
        if n > 2 * n_states + 2:
            break
        if n >= 2:  # LOOP(1){b} is b, one token shorter
            _set_piece(head, k, PIECE_LOOP, first, second, -1, n)
            if _tails(np.int64(x), acc, tail_level, level_start, level_end, lib_r, pool, target, head, found,
                      n_found, stats):
                return True
    return False


@njit(cache=True)
def _final(state, vis, first, second, third, lib_f, lib_r, pool, target, prefix, found, n_found, stamp,
           stamp_counter, acc):
    """Record ``LOOP{first second third}`` when iterating it from ``state`` completes the board."""
    stamp_counter[0] += 1
    n = final_loop(state, vis, first, second, third, lib_f, lib_r, pool, target, stamp, stamp_counter[0], acc)
    if n == 0:
        return False
    pieces = _with_piece(prefix)
    _set_piece(pieces, prefix.shape[0], PIECE_LOOP, first, second, third, n)
    return _record(found, n_found, pieces)


@njit(cache=True)
def search_next2(state, vis, top, level_start, level_end, kinds, lib_f, lib_r, pool, target, prefix,
                 found, n_found, stamp, stamp_counter, limits, stats):
    """Programs of ``top + 2`` tokens from one state (the library holds levels 1..top).

    The first item of such a program is a primitive (then ``top + 1`` tokens
    follow: :func:`search_next`), a stored item with a stored tail, a loop over
    a ``top``-token body with some count followed by one primitive, or a final
    loop over a ``top + 1``-token body (a new item then a stored entry).
    """
    words = target.shape[0]
    acc = np.empty(words, np.uint64)
    k = prefix.shape[0]
    head = _with_piece(prefix)
    for h in range(level_start[1], level_end[1]):
        for w in range(words):
            acc[w] = vis[w] | pool[lib_r[h, state], w]
        _set_piece(head, k, PIECE_ENTRY, h, -1, -1, 0)
        status = search_next(np.int64(lib_f[h, state]), acc, top, level_start, level_end, kinds, lib_f, lib_r,
                             pool, target, head, found, n_found, stamp, stamp_counter, limits, stats)
        if status != DONE or n_found[0] >= found.shape[0]:
            return status
    status = _items_then_tails(state, vis, TWO, top, top + 2, level_start, level_end, kinds, lib_f, lib_r,
                               pool, target, head, k, found, n_found, limits, stats)
    if status != GO_ON:
        return status
    # LOOP(n){b} with b of `top` tokens, then one primitive.
    for b in range(level_start[top], level_end[top]):
        if kinds[b] == KIND_LOOP:  # LOOP(n){LOOP(m){c}} is LOOP(nm){c}, one token shorter
            continue
        stats[0] += 1
        if _expired(limits, stats):
            return OUT_OF_TIME
        if _loop_then_tail(state, vis, b, NO_SECOND, ONE, level_start, level_end, lib_f, lib_r, pool,
                           target, prefix, found, n_found, stamp, stamp_counter, stats):
            return DONE
    # A final loop whose body is a new item of a tokens followed by a stored entry of top + 1 - a.
    status = _pair_finals(state, vis, NO_SECOND, ONE, top, top + 1, level_start, level_end, kinds, lib_f,
                          lib_r, pool, target, prefix, found, n_found, stamp, stamp_counter, limits, stats)
    return OUT_OF_TIME if status == OUT_OF_TIME else DONE


@njit(cache=True)
def count_bound(f, cap):
    """A count past which ``LOOP(n){b}`` (b with end states f) gives nothing new, from f alone.

    Every state is on a cycle after r iterations (the longest tail); from then on f^n repeats
    with period P (the lcm of the cycle lengths), and the visited sets stop growing once every
    state has gone once round its cycle, by r + C (C the longest cycle). So counts up to
    r + C + P - 1 give every behaviour; the result is capped at ``cap`` (P is capped there too).
    """
    n = f.shape[0]
    cyclic, period = cycle_structure(f, cap)
    depth = np.full(n, -1, np.int64)  # steps to reach a cycle
    longest_cycle = np.int64(0)
    trail = np.empty(n, np.int64)
    for s in range(n):
        if cyclic[s]:
            depth[s] = 0
    for s in range(n):
        if cyclic[s] and depth[s] == 0:
            length = np.int64(1)  # its cycle's length
            t = f[s]
            while t != s:
                length += 1
                t = f[t]
            longest_cycle = max(longest_cycle, length)
    tail = np.int64(0)
    for s in range(n):
        k = 0
        t = s
        while depth[t] < 0:
            trail[k] = t
            k += 1
            t = f[t]
        d = depth[t]
        for i in range(k - 1, -1, -1):
            d += 1
            depth[trail[i]] = d
        tail = max(tail, depth[s])
    return min(cap, tail + longest_cycle + period - 1)


@njit(cache=True)
def _final_inner(state, vis, first, body, count, last, lib_f, lib_r, pool, target, stamp, stamp_id, acc):
    """:func:`final_loop` for the body ``first LOOP(count){body} last`` (first, last -1 when absent)."""
    _copy_prefix(acc, vis, vis.shape[0])
    x = state
    n = 0
    while True:
        if stamp[x] == stamp_id:
            return 0
        stamp[x] = stamp_id
        if first >= 0:
            x = _apply(x, first, lib_f, lib_r, pool, acc)
        for _ in range(count):
            x = _apply(x, body, lib_f, lib_r, pool, acc)
        if last >= 0:
            x = _apply(x, last, lib_f, lib_r, pool, acc)
        n += 1
        if _covers(acc, target):
            return n


@njit(cache=True)
def _layer_finals(state, vis, top, level_start, level_end, kinds, lib_f, lib_r, pool, target, found, n_found,
                  stamp, stamp_counter, count_cap, limits, stats):
    """The final loops ``LOOP{p LOOP(n){b}}`` and ``LOOP{LOOP(n){b} p}`` (p a primitive, b of ``top``
    tokens, every count n that can differ) without the loop layer stored: each inner loop is run
    count by count. Returns OUT_OF_TIME, or DONE (``found`` full or all tried)."""
    acc = np.empty(target.shape[0], np.uint64)
    pieces = np.zeros(PIECE_FIELDS, np.int64)
    no = NO_SECOND
    for b in range(level_start[top], level_end[top]):
        if kinds[b] == KIND_LOOP:  # LOOP(n){LOOP(m){c}} is LOOP(nm){c}
            continue
        last_count = count_bound(lib_f[b], count_cap)
        for n in range(2, last_count + 1):
            for p in range(level_start[1], level_end[1]):
                for before in range(2):
                    stats[0] += 1 + n // 16
                    if _expired(limits, stats):
                        return OUT_OF_TIME
                    first = p if before == 1 else no
                    last = no if before == 1 else p
                    stamp_counter[0] += 1
                    outer = _final_inner(state, vis, first, b, n, last, lib_f, lib_r, pool, target, stamp,
                                         stamp_counter[0], acc)
                    if outer > 0:
                        _set_piece(pieces, 0, PIECE_LOOP_INNER, first, b, last, outer, n)
                        if _record(found, n_found, pieces):
                            return DONE
    return DONE


@njit(cache=True)
def search_next3(state, vis, top, level_start, level_end, kinds, lib_f, lib_r, pool, target,
                 found, n_found, stamp, stamp_counter, virtual, count_cap, limits, stats):
    """Programs of ``top + 3`` tokens from one state: levels 1..top complete, plus the loop layer.

    The loop layer, level ``top + 1`` of the library, holds the new ``LOOP(n){b}`` behaviours with
    b of ``top`` tokens (every count) but none of that level's sequences. When ``virtual`` is set
    (top >= 2), the layer is not stored: its loops are run from the states where they start
    instead (from the start state, every count up to the closed orbit; inside a final loop, every
    count up to :func:`count_bound`). The first item of a program is (searched in the order
    third case, fourth, then the first two: those hold by far the most programs, so a program of
    the others is found sooner; on 400-square 8-token boards this halved the nodes to the optimum):

    - a primitive, then ``top + 2`` tokens (:func:`search_next2`);
    - a stored item of 2..top + 1 tokens, then the rest: a stored tail, or :func:`search_next`
      when ``top + 1`` tokens are left (only when top = 1 or for two-token items);
    - a loop of ``top + 2`` tokens (its body a new item of c <= top tokens and a stored entry of
      top + 1 - c) with every count that can differ, then one primitive;
    - the final loop, over ``top + 2`` tokens: a primitive, a new item and a stored entry (or
      a primitive and a loop-layer item); a new item of 2..top tokens and a stored entry; or a
      loop-layer item and a primitive. (A body that is one loop is one token too many:
      ``LOOP{LOOP(n){b}}`` behaves as ``LOOP{b}``.)
    """
    words = target.shape[0]
    acc = np.empty(words, np.uint64)
    head = np.zeros(PIECE_FIELDS, np.int64)
    empty = np.zeros(0, np.int64)
    no = NO_SECOND
    layer = top + 1
    stored_layer = layer if virtual == 0 else top  # the last level whose items are stored
    if virtual != 0:  # a layer loop first (entered once: its orbit's counts), then two tokens
        for b in range(level_start[top], level_end[top]):
            if kinds[b] == KIND_LOOP:  # LOOP(n){LOOP(m){c}} is LOOP(nm){c}
                continue
            stats[0] += 1
            if _expired(limits, stats):
                return OUT_OF_TIME
            if _loop_then_tail(state, vis, b, no, TWO, level_start, level_end, lib_f, lib_r, pool,
                               target, empty, found, n_found, stamp, stamp_counter, stats):
                return DONE
    # LOOP(n){h t} (h a new item of c tokens, t stored of top + 1 - c), then one primitive.
    for c in range(1, top + 1):
        for h in range(level_start[c], level_end[c]):
            if kinds[h] > 1:
                continue
            for t in range(level_start[top + 1 - c], level_end[top + 1 - c]):
                stats[0] += 1
                if _expired(limits, stats):
                    return OUT_OF_TIME
                if _loop_then_tail(state, vis, h, t, ONE, level_start, level_end, lib_f, lib_r, pool,
                                   target, empty, found, n_found, stamp, stamp_counter, stats):
                    return DONE
    # The final loop over top + 2 tokens.
    for p in range(level_start[1], level_end[1]):
        status = _pair_finals(state, vis, np.int64(p), ONE, top, top + 1, level_start, level_end, kinds,
                              lib_f, lib_r, pool, target, empty, found, n_found, stamp, stamp_counter, limits,
                              stats)
        if status != GO_ON:
            return status
        for h in range(level_start[layer], level_end[layer] if virtual == 0 else level_start[layer]):
            stats[0] += 1
            if _expired(limits, stats):
                return OUT_OF_TIME
            if _final(state, vis, p, h, no, lib_f, lib_r, pool, target, empty, found, n_found, stamp,
                      stamp_counter, acc):
                return DONE
    status = _pair_finals(state, vis, no, TWO, stored_layer, top + 2, level_start, level_end, kinds, lib_f,
                          lib_r, pool, target, empty, found, n_found, stamp, stamp_counter, limits, stats)
    if status != GO_ON:
        return status
    if virtual != 0:
        status = _layer_finals(state, vis, top, level_start, level_end, kinds, lib_f, lib_r, pool, target,
                               found, n_found, stamp, stamp_counter, count_cap, limits, stats)
        if status != DONE or n_found[0] >= found.shape[0]:
            return status
    # Last, the cases that open with a stored item: by far the most programs, so a program of
    # the cases above is found before them (the level's proof needs every case either way).
    for h in range(level_start[1], level_end[1]):
        for w in range(words):
            acc[w] = vis[w] | pool[lib_r[h, state], w]
        _set_piece(head, 0, PIECE_ENTRY, h, -1, -1, 0)
        status = search_next2(np.int64(lib_f[h, state]), acc, top, level_start, level_end, kinds, lib_f,
                              lib_r, pool, target, head, found, n_found, stamp, stamp_counter, limits, stats)
        if status != DONE or n_found[0] >= found.shape[0]:
            return status
    # A two-token item leaves top + 1 tokens (search_next); a larger one, a stored tail.
    for h in range(level_start[2], level_end[2] if stored_layer >= 2 else level_start[2]):
        if kinds[h] > 1:
            continue
        stats[0] += 1
        if _expired(limits, stats):
            return OUT_OF_TIME
        for w in range(words):
            acc[w] = vis[w] | pool[lib_r[h, state], w]
        _set_piece(head, 0, PIECE_ENTRY, h, -1, -1, 0)
        status = search_next(np.int64(lib_f[h, state]), acc, top, level_start, level_end, kinds, lib_f, lib_r,
                             pool, target, head, found, n_found, stamp, stamp_counter, limits, stats)
        if status != DONE or n_found[0] >= found.shape[0]:
            return status
    status = _items_then_tails(state, vis, THREE, stored_layer, top + 3, level_start, level_end, kinds, lib_f,
                               lib_r, pool, target, head, ZERO, found, n_found, limits, stats)
    if status != GO_ON:
        return status
    return DONE
