"""The published comesolo method: visited hashes, one queue per score, biased picks.

This module imports numba: import it only inside command functions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.bits import ONE, ZERO, flip_bit, get_bit
from gridsolver.core.kernels.clock import budget_check, time_remains
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, OUT_OF_MEMORY, OUT_OF_TIME
from gridsolver.core.kernels.table import find_key, is_full
from gridsolver.core.table import PROBES
from gridsolver.pegs.kernels.bitboard import CHECK_EVERY, count_pegs, generate, jump_of

# An int64, not the Python constant (as in the other kernels: one compilation of find_key).
_PROBES = np.int64(PROBES)

FIRST_CAPACITY = 1 << 12  # entries the published method's arrays start with (they double as they fill)
REHASH_CLOCK_EVERY = 1 << 16  # keys moved between two clock readings while the visited set grows


@njit(cache=True)
def _grown_rows(rows, capacity):
    """``rows`` (2-d) copied into the first rows of a zeroed array of ``capacity`` rows."""
    out = np.zeros((capacity, rows.shape[1]), dtype=rows.dtype)
    for i in range(rows.shape[0]):
        copy_prefix(out[i], rows[i], rows.shape[1])
    return out


@njit(cache=True)
def _grown(values, capacity):
    """``values`` (1-d) copied into the start of a zeroed array of ``capacity`` entries."""
    out = np.zeros(capacity, dtype=values.dtype)
    copy_prefix(out, values, values.shape[0])
    return out


@njit(cache=True)
def _regrown_set(seen, slots, deadline_ns):
    """The keys of ``seen`` (a set of keys homed at themselves) in a new set of ``slots`` slots.

    A big set takes a while to move, so the clock is read as it goes; past the deadline an
    empty array comes back (the search is over and its visited set no longer matters).
    """
    out = np.zeros(slots, dtype=np.uint64)
    moved = 0
    for i in range(seen.shape[0]):
        key = seen[i]
        if key == ZERO:
            continue
        moved += 1
        if moved % REHASH_CLOCK_EVERY == 0 and not time_remains(deadline_ns):
            return np.zeros(0, dtype=np.uint64)
        # probing the whole (at most half full) set always places a key; one placed farther than
        # a lookup probes is only ever forgotten, which costs the method a repeated position
        j = find_key(out, key, key, slots)
        out[-1 - j] = key
    return out


@njit(cache=True)
def published(start, board, ceilings, bias, seed, node_limit, deadline_ns, best_path, stats):
    """The published comesolo method: visited hashes, one queue per score, biased picks.

    Every new position's 64-bit Zobrist hash goes into a set; new positions
    wait in the queue of their score (jumps so far). The next position to
    expand comes from the best non-empty queue with probability ``bias``
    (0.31), else the next one down with the same chance, and so on (31%,
    21%, 14%, 10%, ...). It stops at one peg, or when the pool, the record
    of parents or the hash set would pass its maximum (the method's "memory
    exhausted"), or on the budget.

    The three start small and double as they fill (the set at 70% load), so
    memory follows the positions met, never the maximum: a big budget costs
    nothing until it is used. ``board``: :class:`gridsolver.pegs.layout.Geometry`;
    ``ceilings`` (:class:`gridsolver.pegs.layout.Ceilings`): the most pool
    positions, parent records and hash-set slots. Returns an exit code;
    stats = [nodes, best score, positions, bytes the arrays hold at the end].
    """
    holes, offsets, zobrist = board.holes, board.offsets, board.zobrist
    max_positions, max_records, max_seen_slots = ceilings.positions, ceilings.records, ceilings.seen_slots
    np.random.seed(seed)
    nw = start.shape[0]
    dcount = offsets.shape[0]
    max_score = count_pegs(start) - 1
    first = min(FIRST_CAPACITY, max_positions)
    pool = np.zeros((first, nw), dtype=np.uint64)
    pool_hash = np.zeros(first, dtype=np.uint64)
    pool_record = np.zeros(first, dtype=np.int64)
    pool_next = np.zeros(first, dtype=np.int64)  # queue links, and the free list's links
    free = -1  # freed slots, reused first
    fresh = 0  # slots from here on were never used
    head = np.full(max_score + 1, -1, dtype=np.int64)
    record_parent = np.zeros(min(FIRST_CAPACITY, max_records), dtype=np.int64)
    record_move = np.zeros(record_parent.shape[0], dtype=np.int32)
    seen = np.zeros(min(2 * FIRST_CAPACITY, max_seen_slots), dtype=np.uint64)
    codes = np.zeros(nw * 64 * dcount, dtype=np.int32)
    scratch = np.zeros((3, nw), dtype=np.uint64)
    child = np.zeros(nw, dtype=np.uint64)
    h0 = ZERO
    for b in range(nw * 64):
        if get_bit(start, b):
            h0 ^= zobrist[b]
    # the start: record 0, in queue 0
    slot = fresh
    fresh += 1
    copy_prefix(pool[slot], start, nw)
    pool_hash[slot] = h0
    pool_record[slot] = 0
    record_parent[0] = -1
    records = 1
    pool_next[slot] = -1
    head[0] = slot
    top = 0  # highest score with a non-empty queue (or lower)
    best = 0
    best_record = 0
    nodes = 0
    code = EXHAUSTED
    while True:
        while top >= 0 and head[top] < 0:
            top -= 1
        if top < 0:
            break
        # biased choice: walk down the non-empty queues, taking each with probability bias
        pick = -1
        while pick < 0:
            for s in range(top, -1, -1):
                if head[s] >= 0 and np.random.random() < bias:
                    pick = s
                    break
        slot = head[pick]
        head[pick] = pool_next[slot]
        pos = pool[slot].copy()
        h = pool_hash[slot]
        rec = pool_record[slot]
        pool_next[slot] = free
        free = slot
        n = generate(pos, holes, offsets, codes, scratch)
        score = pick + 1
        stop = False
        for i in range(n):
            nodes += 1
            code = budget_check(nodes, node_limit, deadline_ns, CHECK_EVERY)
            if code != EXHAUSTED:
                stop = True
                break
            m = codes[i]
            a, o = jump_of(m, offsets)
            copy_prefix(child, pos, nw)
            flip_bit(child, a)
            flip_bit(child, a + o)
            flip_bit(child, a + 2 * o)
            ch = h ^ zobrist[a] ^ zobrist[a + o] ^ zobrist[a + 2 * o]
            key = ch | ONE
            j = find_key(seen, key, key, _PROBES + 1)
            if j >= 0:
                continue
            slots = seen.shape[0]
            while (is_full(j, slots) or 10 * records >= 7 * slots) and slots < max_seen_slots:
                seen = _regrown_set(seen, min(2 * slots, max_seen_slots), deadline_ns)
                if seen.shape[0] == 0:  # the deadline passed while it grew
                    code = OUT_OF_TIME
                    stop = True
                    break
                slots = seen.shape[0]
                j = find_key(seen, key, key, _PROBES + 1)
            if stop:
                break
            if records == record_parent.shape[0] and records < max_records:
                record_parent = _grown(record_parent, min(2 * records, max_records))
                record_move = _grown(record_move, record_parent.shape[0])
            if free < 0 and fresh == pool.shape[0] and fresh < max_positions:
                grown = min(2 * fresh, max_positions)
                pool = _grown_rows(pool, grown)
                pool_hash = _grown(pool_hash, grown)
                pool_record = _grown(pool_record, grown)
                pool_next = _grown(pool_next, grown)
            pool_full = free < 0 and fresh >= pool.shape[0]
            if is_full(j, slots) or records >= record_parent.shape[0] or pool_full:
                code = OUT_OF_MEMORY
                stop = True
                break
            seen[-1 - j] = key
            record_parent[records] = rec
            record_move[records] = m
            if score > best:
                best = score
                best_record = records
            records += 1
            if score == max_score:
                code = FOUND
                stop = True
                break
            if free >= 0:
                slot = free
                free = pool_next[slot]
            else:
                slot = fresh
                fresh += 1
            copy_prefix(pool[slot], child, nw)
            pool_hash[slot] = ch
            pool_record[slot] = records - 1
            pool_next[slot] = head[score]
            head[score] = slot
            if score > top:
                top = score
        if stop:
            break
    # the path of the best record, walking parents back to the start
    r = best_record
    k = best
    while r > 0:
        k -= 1
        best_path[k] = record_move[r]
        r = record_parent[r]
    stats[0] = nodes
    stats[1] = best
    stats[2] = records
    stats[3] = (pool.nbytes + pool_hash.nbytes + pool_record.nbytes + pool_next.nbytes
                + record_parent.nbytes + record_move.nbytes + seen.nbytes)
    return code
