"""numba kernels for the exact search: fragment behaviours built bottom-up.

A program fragment acts on the 4 x squares states ``s = square * 4 + direction``
as a function ``f[s]`` (the state it ends in) plus a visited set ``v[s]``: the
squares it stands on, as a bitset over ``words`` uint64 words. Two fragments
with the same (f, v) are interchangeable anywhere in a program, so the
library keeps one fragment per behaviour (the first found, which has the
fewest tokens). Behaviours are hashed and then compared in full.

Library arrays (``capacity`` entries):

- ``lib_f[e, s]`` int32 and ``lib_v[e, s, w]`` uint64: the behaviour;
- ``kind[e]``: 0 primitive (``arg0`` 0=F 1=L 2=R), 1 loop (``arg0`` body,
  ``arg1`` count), 2 sequence (``arg0`` head item, ``arg1`` tail entry),
  3 the empty program; ``tokens[e]`` its token count;
- ``table``: open addressing over entry ids (-1 empty), ``hashes[e]``
  (:func:`gridsolver.core.table_kernels.next_entry`). It starts small and
  the caller doubles it (:func:`rehash_library`) when an insert finds it
  half full: the builders then stop with LIBRARY_FULL, leaving in ``cursor``
  where to go on, so a level is never built twice.

This module imports numba; the CLI imports it only inside commands. The
plain-Python reference of every kernel is :mod:`gridsolver.bunny.reference`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.clock import budget_check
from gridsolver.core.table_kernels import home_slot, next_entry

KIND_PRIMITIVE, KIND_LOOP, KIND_SEQUENCE, KIND_EMPTY = 0, 1, 2, 3

# Kernel status codes.
DONE, OUT_OF_TIME, LIBRARY_FULL = 0, 1, 2

_MIX = np.uint64(0x9E3779B97F4A7C15)

# Every kernel takes its integer arguments as int64: a call passing int32 (a value read from
# ``lib_f``) or a constant (numba types ``-1`` as a literal) would compile the callee once more.
NO_SECOND = np.int64(-1)  # a loop body of one entry (see _body_step)

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
    """A 64-bit hash of one behaviour (f: int32[S], v: uint64[S, W])."""
    h = np.uint64(1469598103934665603)
    for s in range(f.shape[0]):
        h = (h ^ np.uint64(f[s])) * _MIX
        for w in range(v.shape[1]):
            h = (h ^ v[s, w]) * np.uint64(1099511628211)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=True)
def _same_behaviour(lib_f, lib_v, e, f, v):
    """True when library entry ``e`` has the behaviour (f, v)."""
    for s in range(f.shape[0]):
        if lib_f[e, s] != f[s]:
            return False
        for w in range(v.shape[1]):
            if lib_v[e, s, w] != v[s, w]:
                return False
    return True


@njit(cache=True)
def insert(buf_f, buf_v, kind, arg0, arg1, tokens, lib_f, lib_v, kinds, arg0s, arg1s, toks,
           hashes, table, counter):
    """Add a behaviour unless an equal one is stored. Returns its new id, -1 (seen) or -2 (full)."""
    h = behaviour_hash(buf_f, buf_v)
    slot = next_entry(table, hashes, h, home_slot(table, h))
    while table[slot] >= 0:  # an entry with the same hash: compare it in full
        if _same_behaviour(lib_f, lib_v, table[slot], buf_f, buf_v):
            return -1
        slot = next_entry(table, hashes, h, (slot + 1) & (table.shape[0] - 1))
    n = counter[0]
    if n >= lib_f.shape[0] or 2 * (n + 1) > table.shape[0]:
        return -2
    _copy_prefix(lib_f[n], buf_f, buf_f.shape[0])
    _copy_rows(lib_v[n], buf_v)
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
def build_loops(j, level_start, level_end, lib_f, lib_v, kinds, arg0s, arg1s, toks, hashes, table,
                counter, count_cap, limits, stats, cursor):
    """Add every new LOOP(n){b} behaviour for bodies b of j - 1 tokens.

    ``stats[0]`` counts candidate behaviours, ``stats[1]`` the largest count
    needed, ``stats[2]`` is set when some body needed counts beyond ``count_cap``.
    Bodies before ``cursor[0]`` are done already (a call that stopped with
    LIBRARY_FULL leaves there the body it stopped in: its loops already
    stored are found again, never stored twice).
    """
    n_states = lib_f.shape[1]
    words = lib_v.shape[2]
    cur_f = np.empty(n_states, np.int32)
    cur_w = np.empty((n_states, words), np.uint64)
    nxt_f = np.empty(n_states, np.int32)
    nxt_w = np.empty((n_states, words), np.uint64)
    for b in range(max(level_start[j - 1], cursor[0]), level_end[j - 1]):
        cursor[0] = b
        if _expired(limits, stats):
            return OUT_OF_TIME
        fb = lib_f[b]
        vb = lib_v[b]
        cyclic, period = cycle_structure(fb, count_cap)
        _copy_prefix(cur_f, fb, n_states)
        _copy_rows(cur_w, vb)
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
                for w in range(words):
                    x = cur_w[s, w] | vb[mid, w]
                    if x != cur_w[s, w]:
                        changed = True
                    nxt_w[s, w] = x
            if not changed and stable_at < 0:
                stable_at = n
            n += 1
            _copy_prefix(cur_f, nxt_f, n_states)
            _copy_rows(cur_w, nxt_w)
            stats[0] += 1
            if _expired(limits, stats):
                return OUT_OF_TIME
            if n > stats[1]:
                stats[1] = n
            e = insert(cur_f, cur_w, np.int64(KIND_LOOP), b, n, j, lib_f, lib_v, kinds, arg0s, arg1s, toks,
                       hashes, table, counter)
            if e == -2:
                return LIBRARY_FULL
    return DONE


@njit(cache=True)
def build_sequences(j, level_start, level_end, lib_f, lib_v, kinds, arg0s, arg1s, toks, hashes, table,
                    counter, limits, stats, cursor):
    """Add every new behaviour ``head tail`` of j tokens: head a new item of a tokens, tail j - a.

    Heads before (``cursor[1]`` tokens, entry ``cursor[2]``) are done already: see
    :func:`build_loops`.
    """
    n_states = lib_f.shape[1]
    words = lib_v.shape[2]
    buf_f = np.empty(n_states, np.int32)
    buf_v = np.empty((n_states, words), np.uint64)
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
                compose(lib_f[h], lib_v[h], lib_f[t], lib_v[t], buf_f, buf_v)
                stats[0] += 1
                e = insert(buf_f, buf_v, np.int64(KIND_SEQUENCE), h, t, j, lib_f, lib_v, kinds, arg0s, arg1s,
                           toks, hashes, table, counter)
                if e == -2:
                    return LIBRARY_FULL
    return DONE


@njit(cache=True)
def covering(first, last, lib_v, start_state, target):
    """Entries in [first, last) whose visited set from ``start_state`` covers ``target``."""
    found = []
    for e in range(first, last):
        ok = True
        for w in range(target.shape[0]):
            if (lib_v[e, start_state, w] & target[w]) != target[w]:
                ok = False
                break
        if ok:
            found.append(e)
    return found


# -- the top-level search from the single start state ------------------------------------------
# A solution is recorded as up to three pieces, each (kind, x, y, count):
PIECE_NONE, PIECE_ENTRY, PIECE_LOOP, PIECE_LOOP_PAIR = 0, 1, 2, 3
PIECE_FIELDS = 4
MAX_PIECES = 3


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


@njit(cache=True)
def _body_step(x, first, second, lib_f, lib_v, acc):
    """One iteration of a loop body (entry ``first``, then entry ``second`` unless -1)."""
    words = lib_v.shape[2]
    for w in range(words):
        acc[w] |= lib_v[first, x, w]
    x = lib_f[first, x]
    if second >= 0:
        for w in range(words):
            acc[w] |= lib_v[second, x, w]
        x = lib_f[second, x]
    return x


@njit(cache=True)
def final_loop(state, vis, first, second, lib_f, lib_v, target, stamp, stamp_id, acc):
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
        x = _body_step(x, first, second, lib_f, lib_v, acc)
        n += 1
        if _covers(acc, target):
            return n


@njit(cache=True)
def _tails(state, acc, level, level_start, level_end, lib_v, target, prefix, found, n_found, stats):
    """Record every stored entry of ``level`` tokens that completes the board from ``state``."""
    words = target.shape[0]
    k = prefix.shape[0] // PIECE_FIELDS
    stats[0] += level_end[level] - level_start[level]
    for t in range(level_start[level], level_end[level]):
        ok = True
        for w in range(words):
            if ((acc[w] | lib_v[t, state, w]) & target[w]) != target[w]:
                ok = False
                break
        if ok:
            pieces = np.zeros(prefix.shape[0] + PIECE_FIELDS, np.int64)
            _copy_prefix(pieces, prefix, prefix.shape[0])
            pieces[k * PIECE_FIELDS] = PIECE_ENTRY
            pieces[k * PIECE_FIELDS + 1] = t
            if _record(found, n_found, pieces):
                return True
    return False


@njit(cache=True)
def search_next(state, vis, top, level_start, level_end, kinds, lib_f, lib_v, target, prefix,
                found, n_found, stamp, stamp_counter, limits, stats):
    """Programs of ``top + 1`` tokens (the library holds levels 1..top) from one state.

    Either a new item of a <= top tokens followed by a stored tail of
    top + 1 - a tokens, or a final loop over a body of ``top`` tokens.
    Returns OUT_OF_TIME, or DONE (``found`` full or the level exhausted).
    """
    words = target.shape[0]
    acc = np.empty(words, np.uint64)
    k = prefix.shape[0]
    head = np.zeros(k + PIECE_FIELDS, np.int64)
    _copy_prefix(head, prefix, k)
    for a in range(1, top + 1):
        for h in range(level_start[a], level_end[a]):
            if kinds[h] > 1:  # only new items (primitives, loops) start a sequence
                continue
            stats[0] += 1
            if _expired(limits, stats):
                return OUT_OF_TIME
            for w in range(words):
                acc[w] = vis[w] | lib_v[h, state, w]
            head[k] = PIECE_ENTRY
            head[k + 1] = h
            next_state = np.int64(lib_f[h, state])
            if _tails(next_state, acc, top + 1 - a, level_start, level_end, lib_v, target, head,
                      found, n_found, stats):
                return DONE
    pieces = np.zeros(k + PIECE_FIELDS, np.int64)
    _copy_prefix(pieces, prefix, k)
    for b in range(level_start[top], level_end[top]):
        stats[0] += 1
        if _expired(limits, stats):
            return OUT_OF_TIME
        stamp_counter[0] += 1
        n = final_loop(state, vis, b, NO_SECOND, lib_f, lib_v, target, stamp, stamp_counter[0], acc)
        if n > 0:
            pieces[k] = PIECE_LOOP
            pieces[k + 1] = b
            pieces[k + 2] = -1
            pieces[k + 3] = n
            if _record(found, n_found, pieces):
                return DONE
    return DONE


@njit(cache=True)
def search_next2(state, vis, top, level_start, level_end, kinds, lib_f, lib_v, target,
                 found, n_found, stamp, stamp_counter, limits, stats):
    """Programs of ``top + 2`` tokens from one state (the library holds levels 1..top).

    The first item of such a program is a primitive (then ``top + 1`` tokens
    follow: :func:`search_next`), a stored item with a stored tail, a loop over
    a ``top``-token body with some count followed by one primitive, or a final
    loop over a ``top + 1``-token body (a new item then a stored entry).
    """
    words = target.shape[0]
    acc = np.empty(words, np.uint64)
    nxt = np.empty(words, np.uint64)
    prefix = np.zeros(PIECE_FIELDS, np.int64)
    for h in range(level_start[1], level_end[1]):
        for w in range(words):
            acc[w] = vis[w] | lib_v[h, state, w]
        prefix[0] = PIECE_ENTRY
        prefix[1] = h
        status = search_next(np.int64(lib_f[h, state]), acc, top, level_start, level_end, kinds, lib_f, lib_v,
                             target, prefix, found, n_found, stamp, stamp_counter, limits, stats)
        if status != DONE or n_found[0] >= found.shape[0]:
            return status
    for a in range(2, top + 1):
        for h in range(level_start[a], level_end[a]):
            if kinds[h] > 1:
                continue
            stats[0] += 1
            if _expired(limits, stats):
                return OUT_OF_TIME
            for w in range(words):
                acc[w] = vis[w] | lib_v[h, state, w]
            prefix[0] = PIECE_ENTRY
            prefix[1] = h
            next_state = np.int64(lib_f[h, state])
            if _tails(next_state, acc, top + 2 - a, level_start, level_end, lib_v, target, prefix,
                      found, n_found, stats):
                return DONE
    # LOOP(n){b} with b of `top` tokens, then one primitive: every count up to the closed orbit.
    n_states = lib_f.shape[1]
    for b in range(level_start[top], level_end[top]):
        stats[0] += 1
        if _expired(limits, stats):
            return OUT_OF_TIME
        stamp_counter[0] += 1
        x = state
        _copy_prefix(acc, vis, vis.shape[0])
        n = 0
        closed_at = -1
        while closed_at < 0 or n < 2 * closed_at + 1:
            if closed_at < 0 and stamp[x] == stamp_counter[0]:
                closed_at = n
            stamp[x] = stamp_counter[0]
            x = _body_step(x, b, NO_SECOND, lib_f, lib_v, acc)
            n += 1
            if n > 2 * n_states + 2:
                break
            if n >= 2:
                prefix[0] = PIECE_LOOP
                prefix[1] = b
                prefix[2] = -1
                prefix[3] = n
                if _tails(np.int64(x), acc, np.int64(1), level_start, level_end, lib_v, target, prefix, found,
                          n_found, stats):
                    return DONE
    # A final loop whose body is a new item of a tokens followed by a stored entry of top + 1 - a.
    pieces = np.zeros(PIECE_FIELDS, np.int64)
    for a in range(1, top + 1):
        for h in range(level_start[a], level_end[a]):
            if kinds[h] > 1:
                continue
            for t in range(level_start[top + 1 - a], level_end[top + 1 - a]):
                stats[0] += 1
                if _expired(limits, stats):
                    return OUT_OF_TIME
                stamp_counter[0] += 1
                n = final_loop(state, vis, h, t, lib_f, lib_v, target, stamp, stamp_counter[0], nxt)
                if n > 0:
                    pieces[0] = PIECE_LOOP_PAIR
                    pieces[1] = h
                    pieces[2] = t
                    pieces[3] = n
                    if _record(found, n_found, pieces):
                        return DONE
    return DONE
