"""numba kernels: multi-word bitboard jump generation and whole searches.

A position is a ``uint64[W]`` array in the bit numbering of
:mod:`gridsolver.pegs.rules` (bit ``r * (cols + 1) + c``). All jumps in one
direction with bit offset ``o`` come from three word shifts:
``from = P & (P >> o) & (E >> 2o)`` with ``E = holes & ~P``; the spare column
per row keeps a shift from wrapping a jump round a row end.

A jump is coded ``from_bit * D + direction``. Searches run entirely inside a
kernel and check the clock every 4096 nodes. Transposition tables are open
addressing on numpy arrays: ``tt_hash[slot]`` (0 = empty, else Zobrist|1)
and ``tt_keys[slot, :]`` the full position, so a lookup never confuses two
positions and proofs stay sound. This module imports numba: import it only
inside command functions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.kernels.clock import budget_check, time_remains
from gridsolver.core.kernels.stops import OUT_OF_MEMORY, OUT_OF_NODES, OUT_OF_TIME  # noqa: F401  (re-exported codes)
from gridsolver.core.kernels.table import find_key, find_wide, is_full, store_wide
from gridsolver.core.table import PROBES
from gridsolver.pegs.meet import canonical

ONE = np.uint64(1)
ZERO = np.uint64(0)
CHECK_EVERY = 4096

# An int64, not the Python constant: numba would compile find_wide once more for a literal 64.
_PROBES = np.int64(PROBES)

# kernel exit codes (OUT_OF_TIME, OUT_OF_NODES and OUT_OF_MEMORY are core's: 2, 3, 4)
EXHAUSTED, FOUND, TABLE_FULL, DOOMED = 0, 1, 5, 6


# Copies are written as element loops, never as slice assignment (``a[i, :] = b``): numba's code
# for assigning an array to a slice (broadcasting, and formatting its shape-mismatch error) took
# much of these kernels' compile time, which a new user waits for on the first run.


@njit(cache=True, inline="always")
def _copy_prefix(dst, src, n):
    """``dst[:n] = src[:n]`` (1-D)."""
    for i in range(n):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def _keep_ranked(values, order, keep):
    """``values[:keep] = values[order[:keep]]`` (the gather reads a copy, as numpy's does)."""
    before = values.copy()
    for i in range(keep):
        values[i] = before[order[i]]


@njit(cache=True, inline="always")
def get_bit(words, i):
    return (words[i >> 6] >> np.uint64(i & 63)) & ONE


@njit(cache=True, inline="always")
def flip_bit(words, i):
    words[i >> 6] ^= ONE << np.uint64(i & 63)


@njit(cache=True)
def fetch(src, k, dst):
    """``dst`` bit i = ``src`` bit i + k (zero outside); k may be negative."""
    n = src.shape[0]
    q = abs(k) >> 6
    r = np.uint64(abs(k) & 63)
    back = np.uint64(64) - r
    for w in range(n):
        if k >= 0:
            lo = w + q
            v = src[lo] >> r if lo < n else ZERO
            if r != 0 and lo + 1 < n:
                v |= src[lo + 1] << back
        else:
            hi = w - q
            v = src[hi] << r if hi >= 0 else ZERO
            if r != 0 and hi - 1 >= 0:
                v |= src[hi - 1] >> back
        dst[w] = v


@njit(cache=True)
def popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True)
def count_pegs(pos):
    total = 0
    for w in range(pos.shape[0]):
        total += np.int64(popcount(pos[w]))
    return total


@njit(cache=True, inline="always")
def trailing_zeros(x):
    return np.int64(popcount((x & (~x + ONE)) - ONE))


@njit(cache=True)
def generate(pos, holes, offsets, out, scratch):
    """Write the codes of every legal jump into ``out``; return how many.

    ``scratch`` is a ``uint64[3, W]`` work area. Codes come by direction,
    then by from-bit.
    """
    nw = pos.shape[0]
    dcount = offsets.shape[0]
    empty = scratch[0]
    over = scratch[1]
    land = scratch[2]
    for w in range(nw):
        empty[w] = holes[w] & ~pos[w]
    n = 0
    for d in range(dcount):
        o = offsets[d]
        fetch(pos, o, over)
        fetch(empty, 2 * o, land)
        for w in range(nw):
            m = pos[w] & over[w] & land[w]
            while m != ZERO:
                low = m & (~m + ONE)
                bit = w * 64 + trailing_zeros(low)
                out[n] = bit * dcount + d
                n += 1
                m ^= low
    return n


@njit(cache=True)
def smallest_image(images, nsym):
    """Index of the lexicographically smallest of ``images[0:nsym]`` (top word first)."""
    best = 0
    nw = images.shape[1]
    for s in range(1, nsym):
        for w in range(nw - 1, -1, -1):
            a = images[s, w]
            b = images[best, w]
            if a != b:
                if a < b:
                    best = s
                break
    return best


@njit(cache=True)
def order_moves(codes, n, weights, noise, keys):
    """Sort ``codes[:n]`` by weight (+ noise), best first."""
    for i in range(n):
        keys[i] = -weights[codes[i]] - (noise * np.random.random() if noise > 0 else 0.0)
    if n > 24:
        idx = np.argsort(keys[:n])
        tmp = codes[:n].copy()
        for i in range(n):
            codes[i] = tmp[idx[i]]
        return
    for i in range(1, n):
        c = codes[i]
        k = keys[i]
        j = i - 1
        while j >= 0 and keys[j] > k:
            keys[j + 1] = keys[j]
            codes[j + 1] = codes[j]
            j -= 1
        keys[j + 1] = k
        codes[j + 1] = c


@njit(cache=True)
def _in_endgame(complement, layer, images):
    """True when the canonical ``complement`` is in the sorted ``layer``."""
    key = canonical(complement, images)
    i = np.searchsorted(layer, key)
    return i < layer.shape[0] and layer[i] == key


@njit(cache=True)
def dfs(start, holes, offsets, weights, zobrist, perms, nsym, target, pagoda, pagoda_floor, tt_hash, tt_keys,
        grow_at, noise, seed, node_limit, deadline_ns, best_path, stats, end_depth, end_layer,
        end_images):
    """Depth-first search over jumps with a table of fully explored positions.

    ``target < 0``: most jumps (stop at one peg); else one peg in bit
    ``target``. ``perms[s]`` maps bit indices under the s-th symmetry (the
    caller passes only symmetries valid for the objective). A position is
    stored (as its smallest symmetric image) once its whole subtree is
    explored; since every position has a fixed depth (pegs removed), a stored
    position never needs another visit, for either objective.

    ``pagoda`` weighs holes so that no jump raises the total weight of the
    pegs (w(from) + w(over) >= w(to)); a position whose total is below
    ``pagoda_floor`` (the finish's weight) can never finish and is cut. Pass
    a floor below zero to switch this off.

    ``end_depth >= 0`` (finish only, one-word positions): at that depth the
    search asks an endgame layer instead of going on (see
    :mod:`gridsolver.pegs.endgame`): ``end_layer`` is the sorted canonical
    complements (``holes ^ position``, smallest image under ``end_images``,
    see :func:`gridsolver.pegs.meet.canonical`) of the positions with that
    many pegs that can finish. A position found there is FOUND with
    ``stats[1]`` = ``end_depth`` (the caller finishes the line); any other
    is dead.

    When the table holds ``grow_at`` entries (> 0) the search stops with
    TABLE_FULL so the caller can give it a bigger table and run again (the
    stored positions stay valid). Returns an exit code; ``stats`` gets
    [nodes, best depth, table entries];
    ``best_path[:best depth]`` the jumps of the deepest (or winning) line.
    """
    np.random.seed(seed)
    nw = start.shape[0]
    dcount = offsets.shape[0]
    pegs = count_pegs(start)
    max_depth = pegs - 1
    maxmoves = nw * 64 * dcount
    images = np.zeros((max_depth + 1, nsym, nw), dtype=np.uint64)
    hashes = np.zeros((max_depth + 1, nsym), dtype=np.uint64)
    moves = np.zeros((max_depth + 1, min(maxmoves, 4 * pegs * dcount + 8)), dtype=np.int32)
    count = np.zeros(max_depth + 1, dtype=np.int64)
    nxt = np.zeros(max_depth + 1, dtype=np.int64)
    path = np.zeros(max_depth + 1, dtype=np.int32)
    codes = np.zeros(maxmoves, dtype=np.int32)
    keys = np.zeros(maxmoves, dtype=np.float64)
    scratch = np.zeros((3, nw), dtype=np.uint64)
    weight = np.zeros(max_depth + 1, dtype=np.float64)
    for b in range(nw * 64):
        if get_bit(start, b):
            weight[0] += pagoda[b]
    for s in range(nsym):
        for b in range(nw * 64):
            if get_bit(start, b):
                p = perms[s, b]
                flip_bit(images[0, s], p)
                hashes[0, s] ^= zobrist[p]
    entries = stats[2]
    nodes = 0
    best = 0
    depth = 0
    n = generate(images[0, 0], holes, offsets, codes, scratch)
    order_moves(codes, n, weights, noise, keys)
    _copy_prefix(moves[0], codes, n)
    count[0] = n
    nxt[0] = 0
    code = EXHAUSTED
    while True:
        if nxt[depth] < count[depth]:
            m = moves[depth, nxt[depth]]
            nxt[depth] += 1
            nodes += 1
            code = budget_check(nodes, node_limit, deadline_ns, CHECK_EVERY)
            if code != EXHAUSTED:
                break
            a = m // dcount
            o = offsets[m % dcount]
            b = a + o
            c = b + o
            child = depth + 1
            for s in range(nsym):
                _copy_prefix(images[child, s], images[depth, s], nw)
                pa = perms[s, a]
                pb = perms[s, b]
                pc = perms[s, c]
                flip_bit(images[child, s], pa)
                flip_bit(images[child, s], pb)
                flip_bit(images[child, s], pc)
                hashes[child, s] = hashes[depth, s] ^ zobrist[pa] ^ zobrist[pb] ^ zobrist[pc]
            path[depth] = m
            weight[child] = weight[depth] - pagoda[a] - pagoda[b] + pagoda[c]
            if target < 0:
                if child > best:
                    best = child
                    _copy_prefix(best_path, path, child)
                    if child == max_depth:
                        code = FOUND
                        break
            else:
                if child > best:
                    best = child
                if child == max_depth:
                    if get_bit(images[child, 0], target):
                        _copy_prefix(best_path, path, child)
                        code = FOUND
                        break
                    continue
                if weight[child] < pagoda_floor:
                    continue
                if child == end_depth:
                    if _in_endgame(holes[0] ^ images[child, 0, 0], end_layer, end_images):
                        _copy_prefix(best_path, path, child)
                        best = child
                        code = FOUND
                        break
                    continue
            s = smallest_image(images[child], nsym)
            if find_wide(tt_hash, tt_keys, hashes[child, s], images[child, s], _PROBES) >= 0:
                continue
            n = generate(images[child, 0], holes, offsets, codes, scratch)
            if n == 0:
                continue
            order_moves(codes, n, weights, noise, keys)
            _copy_prefix(moves[child], codes, n)
            count[child] = n
            nxt[child] = 0
            depth = child
        else:
            if depth == 0:
                break
            s = smallest_image(images[depth], nsym)
            slot = find_wide(tt_hash, tt_keys, hashes[depth, s], images[depth, s], _PROBES)
            if slot < 0 and not is_full(slot, tt_hash.shape[0]):
                store_wide(tt_hash, tt_keys, -1 - slot, hashes[depth, s], images[depth, s])
                entries += 1
                if entries == grow_at:
                    code = TABLE_FULL
                    break
            depth -= 1
    stats[0] = nodes
    stats[1] = best
    stats[2] = entries
    return code


FIRST_CAPACITY = 1 << 12  # entries the published method's arrays start with (they double as they fill)
REHASH_CLOCK_EVERY = 1 << 16  # keys moved between two clock readings while the visited set grows


@njit(cache=True)
def _grown_rows(rows, capacity):
    """``rows`` (2-d) copied into the first rows of a zeroed array of ``capacity`` rows."""
    out = np.zeros((capacity, rows.shape[1]), dtype=rows.dtype)
    for i in range(rows.shape[0]):
        _copy_prefix(out[i], rows[i], rows.shape[1])
    return out


@njit(cache=True)
def _grown(values, capacity):
    """``values`` (1-d) copied into the start of a zeroed array of ``capacity`` entries."""
    out = np.zeros(capacity, dtype=values.dtype)
    _copy_prefix(out, values, values.shape[0])
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
def published(start, holes, offsets, zobrist, max_positions, max_records, max_seen_slots, bias, seed,
              node_limit, deadline_ns, best_path, stats):
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
    nothing until it is used. Returns an exit code; stats = [nodes, best
    score, positions, bytes the arrays hold at the end].
    """
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
    _copy_prefix(pool[slot], start, nw)
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
            a = m // dcount
            o = offsets[m % dcount]
            _copy_prefix(child, pos, nw)
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
            _copy_prefix(pool[slot], child, nw)
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


@njit(cache=True)
def fewest_moves(start, holes, offsets, must_move, target, free_survivor, limit, tt_hash, tt_keys,
                 grow_at, node_limit, deadline_ns, best_path, stats):
    """Depth-first search for one peg left (in bit ``target``, or anywhere when < 0) in at
    most ``limit`` moves, a move being a run of jumps by one peg.

    The state is the position plus the bit of the peg that moved last (it may
    go on jumping for free). Lower bound: every peg on a ``must_move`` hole
    (a hole no jump can pass over) must make a move of its own, except the
    peg that moved last and a survivor allowed to stay there
    (``free_survivor``). The table keeps, per state, the largest remaining
    move budget shown to be too small: a wide table (see
    :class:`gridsolver.core.table.GrowingTable`) whose rows are the state's
    W + 1 words and then that budget, a word lookups do not compare (so it
    moves with its state when the table grows). When the table holds
    ``grow_at`` entries (> 0) the search stops with TABLE_FULL for a bigger
    table and is run again with the same limit (what the table holds stays
    true). Returns FOUND (``best_path`` holds the jumps, ``stats[1]`` their
    number), EXHAUSTED (no solution within ``limit``), TABLE_FULL or a budget
    code; stats[0] += nodes, stats[2] = table entries.
    """
    nw = start.shape[0]
    dcount = offsets.shape[0]
    pegs = count_pegs(start)
    max_depth = pegs - 1
    maxmoves = nw * 64 * dcount
    pos = np.zeros((max_depth + 1, nw), dtype=np.uint64)
    last = np.full(max_depth + 1, -1, dtype=np.int64)
    used = np.zeros(max_depth + 1, dtype=np.int64)
    moves = np.zeros((max_depth + 1, min(maxmoves, 4 * pegs * dcount + 8)), dtype=np.int32)
    count = np.zeros(max_depth + 1, dtype=np.int64)
    nxt = np.zeros(max_depth + 1, dtype=np.int64)
    path = np.zeros(max_depth + 1, dtype=np.int32)
    codes = np.zeros(maxmoves, dtype=np.int32)
    scratch = np.zeros((3, nw), dtype=np.uint64)
    key = np.zeros(nw + 1, dtype=np.uint64)
    budget_word = nw + 1  # the column of a table row that holds its move budget
    entries = stats[2]
    _copy_prefix(pos[0], start, nw)
    n = generate(pos[0], holes, offsets, codes, scratch)
    _copy_prefix(moves[0], codes, n)
    count[0] = n
    nodes = 0
    depth = 0
    code = EXHAUSTED
    while True:
        if nxt[depth] < count[depth]:
            m = moves[depth, nxt[depth]]
            nxt[depth] += 1
            nodes += 1
            code = budget_check(nodes, node_limit, deadline_ns, CHECK_EVERY)
            if code != EXHAUSTED:
                break
            a = m // dcount
            o = offsets[m % dcount]
            child = depth + 1
            cost = used[depth] + (0 if a == last[depth] else 1)
            if cost > limit:
                continue
            _copy_prefix(pos[child], pos[depth], nw)
            flip_bit(pos[child], a)
            flip_bit(pos[child], a + o)
            flip_bit(pos[child], a + 2 * o)
            last[child] = a + 2 * o
            used[child] = cost
            path[depth] = m
            if child == max_depth:
                if target < 0 or get_bit(pos[child], target):
                    _copy_prefix(best_path, path, child)
                    stats[1] = child
                    code = FOUND
                    break
                continue
            bound = 0
            for w in range(nw):
                bound += np.int64(popcount(pos[child, w] & must_move[w]))
            if get_bit(must_move, last[child]):
                bound -= 1
            if free_survivor:
                bound -= 1
            remaining = limit - cost
            if bound > remaining:
                continue
            _copy_prefix(key, pos[child], nw)
            key[nw] = np.uint64(last[child])
            h = position_hash(key)
            slot = find_wide(tt_hash, tt_keys, h, key, _PROBES)
            if slot >= 0 and np.int64(tt_keys[slot, budget_word]) >= remaining:
                continue
            n = generate(pos[child], holes, offsets, codes, scratch)
            _copy_prefix(moves[child], codes, n)
            count[child] = n
            nxt[child] = 0
            depth = child
        else:
            if depth == 0:
                break
            _copy_prefix(key, pos[depth], nw)
            key[nw] = np.uint64(last[depth])
            h = position_hash(key)
            remaining = limit - used[depth]
            slot = find_wide(tt_hash, tt_keys, h, key, _PROBES)
            if slot >= 0:
                if np.int64(tt_keys[slot, budget_word]) < remaining:
                    tt_keys[slot, budget_word] = np.uint64(remaining)
            elif not is_full(slot, tt_hash.shape[0]):
                store_wide(tt_hash, tt_keys, -1 - slot, h, key)
                tt_keys[-1 - slot, budget_word] = np.uint64(remaining)
                entries += 1
                if entries == grow_at:
                    code = TABLE_FULL
                    break
            depth -= 1
    stats[0] += nodes
    stats[2] = entries
    return code


@njit(cache=True)
def position_hash(key):
    """A 64-bit mix of the words of ``key`` (splitmix64 finaliser per word)."""
    h = np.uint64(0x243F6A8885A308D3)
    for w in range(key.shape[0]):
        x = key[w] + h + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        h = x ^ (x >> np.uint64(31))
    return h


@njit(cache=True)
def _isolated_around(pos, offsets, nbits, cells, mark, stamp):
    """Pegs with no peg next to them (along a jump direction) among ``cells`` and their neighbours.

    ``mark``/``stamp`` count each hole once.
    """
    total = 0
    for k in range(cells.shape[0]):
        x = cells[k]
        for j in range(-1, offsets.shape[0]):
            y = x if j < 0 else x + offsets[j]
            if y < 0 or y >= nbits or mark[y] == stamp:
                continue
            mark[y] = stamp
            if get_bit(pos, y) == ZERO:
                continue
            alone = True
            for i in range(offsets.shape[0]):
                z = y + offsets[i]
                if 0 <= z < nbits and get_bit(pos, z) != ZERO:
                    alone = False
                    break
            if alone:
                total += 1
    return total


@njit(cache=True)
def _marked_around(bits, offsets, nbits, cells, mark, stamp):
    """How many of ``cells`` and their neighbours are set in ``bits`` (each hole once)."""
    total = 0
    for k in range(cells.shape[0]):
        x = cells[k]
        for j in range(-1, offsets.shape[0]):
            y = x if j < 0 else x + offsets[j]
            if y < 0 or y >= nbits or mark[y] == stamp:
                continue
            mark[y] = stamp
            if get_bit(bits, y) != ZERO:
                total += 1
    return total


@njit(cache=True)
def isolated_mask(pos, offsets, out, shifted):
    """``out`` = pegs with no peg next to them along a jump direction (bitwise, whole board)."""
    nw = pos.shape[0]
    for w in range(nw):
        out[w] = pos[w]
    for i in range(offsets.shape[0]):
        fetch(pos, offsets[i], shifted)
        for w in range(nw):
            out[w] &= ~shifted[w]


@njit(cache=True)
def isolated_pegs(pos, offsets):
    """Pegs with no neighbouring peg along any jump direction (whole board; for tests)."""
    nbits = pos.shape[0] * 64
    total = 0
    for y in range(nbits):
        if get_bit(pos, y) == ZERO:
            continue
        alone = True
        for i in range(offsets.shape[0]):
            z = y + offsets[i]
            if 0 <= z < nbits and get_bit(pos, z) != ZERO:
                alone = False
                break
        if alone:
            total += 1
    return total


GOLDEN = (5 ** 0.5 - 1) / 2
# geometry.doomed_pegs: a peg whose every neighbouring hole weighs less than this toward it (its own
# g included) never moves again
DOOM_BELOW = 1.0 + GOLDEN - 1e-9


@njit(cache=True)
def pull_totals(pos, pull, out):
    """``out[x]`` = sum of ``pull[q, x]`` (g^distance, geometry.pull_matrix) over the pegs q of ``pos``."""
    n = pull.shape[0]
    for x in range(n):
        out[x] = 0.0
    for q in range(n):
        if get_bit(pos, q) != ZERO:
            for x in range(n):
                out[x] += pull[q, x]


@njit(cache=True)
def count_doomed(pos, totals, offsets):
    """Pegs of ``pos`` that never move again: every neighbouring hole weighs less than 1 toward it
    from the other pegs (``totals``: :func:`pull_totals`; geometry.doomed_pegs is the reference)."""
    n = totals.shape[0]
    total = 0
    for y in range(n):
        if get_bit(pos, y) == ZERO:
            continue
        doomed = True
        for i in range(offsets.shape[0]):
            z = y + offsets[i]
            if 0 <= z < n and totals[z] >= DOOM_BELOW:
                doomed = False
                break
        if doomed:
            total += 1
    return total


@njit(cache=True)
def beam(start, holes, offsets, zobrist, phi, iso_weight, width, noise, seed, node_limit, deadline_ns,
         best_path, stats, pool_factor=1, mobility_weight=0.0, pull=None, stop_pegs=0):
    """:func:`beam_search`, the doomed-peg stop optional (``pull`` None: none)."""
    # one call with one set of types, so that beam_search compiles once
    if pull is None:
        table = np.zeros((0, 0), dtype=np.float64)
    else:
        table = pull
    return beam_search(start, holes, offsets, zobrist, phi, iso_weight, width, noise, seed, node_limit,
                       deadline_ns, best_path, stats, np.int64(pool_factor), np.float64(mobility_weight),
                       table, np.int64(stop_pegs))


@njit(cache=True)
def beam_search(start, holes, offsets, zobrist, phi, iso_weight, width, noise, seed, node_limit, deadline_ns,
                best_path, stats, pool_factor, mobility_weight, pull, stop_pegs):
    """Beam search over jumps: keep the ``width`` best positions of each depth.

    Positions of one depth all have the same number of pegs, so they are
    ranked by ``iso_weight`` times the number of isolated pegs (no peg next
    to them along a jump direction: such a peg needs another to come to it
    before it can leave), updated locally after each jump, plus the sum of
    ``phi`` over the pegs (``phi`` grows away from the centre, so compact
    positions rank first), plus ``noise`` times a random number. Duplicate
    positions (same Zobrist hash) are dropped.

    With ``mobility_weight`` > 0 the best ``pool_factor * width`` distinct
    candidates are ranked again, each less ``mobility_weight`` times its
    number of legal jumps, and the best ``width`` of them are kept: counting
    jumps needs the whole child position, too dear for every candidate, and
    a position with more jumps has more ways to gather its pegs (on random
    comesolo boards it keeps far fewer pegs stranded: see docs/pegs.md).
    With ``pull`` (g^distance between holes, geometry.pull_matrix) and
    ``stop_pegs`` > 0, each kept position carries the golden weights of every
    hole and counts its doomed pegs (pegs no other peg can ever come next to:
    geometry.doomed_pegs), and the search stops (DOOMED) at the first depth
    where every kept position is sure to end with at least ``stop_pegs``
    pegs (its doomed pegs, plus one if it has others): from there no line of
    this beam can end with fewer.
    Returns FOUND at one peg, EXHAUSTED when the beam dies out, DOOMED, or a
    budget code; ``best_path`` gets the deepest line and stats = [nodes, best
    depth, the depth of the DOOMED stop or 0].
    """
    np.random.seed(seed)
    nw = start.shape[0]
    nbits = nw * 64
    dcount = offsets.shape[0]
    max_depth = count_pegs(start) - 1
    cur = np.zeros((width, nw), dtype=np.uint64)
    nxt_pos = np.zeros((width, nw), dtype=np.uint64)
    cur_hash = np.zeros(width, dtype=np.uint64)
    nxt_hash = np.zeros(width, dtype=np.uint64)
    cur_h = np.zeros(width, dtype=np.float64)
    nxt_h = np.zeros(width, dtype=np.float64)
    parent = np.zeros((max_depth + 1, width), dtype=np.int32)
    move = np.zeros((max_depth + 1, width), dtype=np.int32)
    cap = width * 64 + 4096
    cand_key = np.zeros(cap, dtype=np.float64)
    cand_parent = np.zeros(cap, dtype=np.int32)
    cand_move = np.zeros(cap, dtype=np.int32)
    cand_hash = np.zeros(cap, dtype=np.uint64)
    cand_h = np.zeros(cap, dtype=np.float64)
    pool_cap = width * max(1, pool_factor) if mobility_weight > 0 else width
    pool_pos = np.zeros((pool_cap, nw), dtype=np.uint64)
    pool_cand = np.zeros(pool_cap, dtype=np.int64)
    pool_key = np.zeros(pool_cap, dtype=np.float64)
    seen_size = 1
    while seen_size < 4 * pool_cap:
        seen_size *= 2
    seen = np.zeros(seen_size, dtype=np.uint64)
    codes = np.zeros(nbits * dcount, dtype=np.int32)
    scratch = np.zeros((3, nw), dtype=np.uint64)
    child = np.zeros(nw, dtype=np.uint64)
    cells = np.zeros(3, dtype=np.int64)
    mark = np.zeros(nbits, dtype=np.int64)
    parent_iso = np.zeros(nw, dtype=np.uint64)
    shifted = np.zeros(nw, dtype=np.uint64)
    stamp = 0
    doom = stop_pegs > 0 and pull.shape[0] > 0
    rows = width if doom else 1
    cur_t = np.zeros((rows, pull.shape[0]), dtype=np.float64)  # golden weight of each hole (doom stop)
    nxt_t = np.zeros((rows, pull.shape[0]), dtype=np.float64)
    stats[2] = 0
    _copy_prefix(cur[0], start, nw)
    if doom:
        pull_totals(start, pull, cur_t[0])
    h0 = ZERO
    for b in range(nbits):
        if get_bit(start, b):
            h0 ^= zobrist[b]
    cur_hash[0] = h0
    size = 1
    nodes = 0
    depth = 0
    code = EXHAUSTED
    while size > 0 and depth < max_depth:
        ncand = 0
        for i in range(size):
            n = generate(cur[i], holes, offsets, codes, scratch)
            if iso_weight > 0:
                isolated_mask(cur[i], offsets, parent_iso, shifted)
            for k in range(n):
                nodes += 1
                m = codes[k]
                a = m // dcount
                o = offsets[m % dcount]
                cells[0] = a
                cells[1] = a + o
                cells[2] = a + 2 * o
                before = 0
                after = 0
                if iso_weight > 0:
                    stamp += 1
                    before = _marked_around(parent_iso, offsets, nbits, cells, mark, stamp)
                    _copy_prefix(child, cur[i], nw)
                    flip_bit(child, a)
                    flip_bit(child, a + o)
                    flip_bit(child, a + 2 * o)
                    stamp += 1
                    after = _isolated_around(child, offsets, nbits, cells, mark, stamp)
                if ncand == cap:
                    # keep the better half and go on collecting
                    order = np.argsort(cand_key[:ncand])
                    keep = cap // 2
                    _keep_ranked(cand_key, order, keep)
                    _keep_ranked(cand_parent, order, keep)
                    _keep_ranked(cand_move, order, keep)
                    _keep_ranked(cand_hash, order, keep)
                    _keep_ranked(cand_h, order, keep)
                    ncand = keep
                h = cur_h[i] + iso_weight * (after - before) - phi[a] - phi[a + o] + phi[a + 2 * o]
                cand_h[ncand] = h
                cand_key[ncand] = h + noise * np.random.random()
                cand_parent[ncand] = i
                cand_move[ncand] = m
                cand_hash[ncand] = cur_hash[i] ^ zobrist[a] ^ zobrist[a + o] ^ zobrist[a + 2 * o]
                ncand += 1
            # nodes count candidates, so a multiple of CHECK_EVERY may be skipped: check every 16 parents
            if (i & 15) == 0 or nodes >= node_limit:
                code = budget_check(nodes, node_limit, deadline_ns, 1)
                if code != EXHAUSTED:
                    break
        if code != EXHAUSTED or ncand == 0:
            break
        order = np.argsort(cand_key[:ncand])
        for j in range(seen_size):
            seen[j] = ZERO
        pooled = 0
        for r in range(ncand):
            c = order[r]
            key = cand_hash[c] | ONE
            j = find_key(seen, key, key, seen_size)  # never full: 4 slots per pooled candidate
            if j >= 0:
                continue
            seen[-1 - j] = key
            p = cand_parent[c]
            m = cand_move[c]
            a = m // dcount
            o = offsets[m % dcount]
            _copy_prefix(pool_pos[pooled], cur[p], nw)
            flip_bit(pool_pos[pooled], a)
            flip_bit(pool_pos[pooled], a + o)
            flip_bit(pool_pos[pooled], a + 2 * o)
            pool_cand[pooled] = c
            pool_key[pooled] = cand_key[c]
            if mobility_weight > 0:
                jumps = generate(pool_pos[pooled], holes, offsets, codes, scratch)
                pool_key[pooled] -= mobility_weight * jumps
            pooled += 1
            if pooled == pool_cap:
                break
            # counting jumps is the dear part of a wide beam's step: read the clock as it goes
            if (pooled & 1023) == 0:
                code = budget_check(nodes, node_limit, deadline_ns, 1)
                if code != EXHAUSTED:
                    break
        if code != EXHAUSTED:
            break
        if mobility_weight > 0:
            ranked = np.argsort(pool_key[:pooled])
        else:
            ranked = np.arange(pooled)  # already in key order
        taken = min(width, pooled)
        fewest_final = max_depth + 1
        for t in range(taken):
            q = ranked[t]
            c = pool_cand[q]
            _copy_prefix(nxt_pos[t], pool_pos[q], nw)
            nxt_hash[t] = cand_hash[c]
            nxt_h[t] = cand_h[c]
            parent[depth + 1, t] = cand_parent[c]
            move[depth + 1, t] = cand_move[c]
            if doom:
                # the child's weights (three rows of the table), then the fewest pegs it can end with
                p = cand_parent[c]
                m = cand_move[c]
                a = m // dcount
                o = offsets[m % dcount]
                for x in range(pull.shape[0]):
                    nxt_t[t, x] = cur_t[p, x] - pull[a, x] - pull[a + o, x] + pull[a + 2 * o, x]
                doomed = count_doomed(nxt_pos[t], nxt_t[t], offsets)
                final = doomed + (1 if doomed < max_depth - depth else 0)  # max_depth - depth: its pegs
                fewest_final = min(fewest_final, final)
        cur, nxt_pos = nxt_pos, cur
        cur_hash, nxt_hash = nxt_hash, cur_hash
        cur_h, nxt_h = nxt_h, cur_h
        cur_t, nxt_t = nxt_t, cur_t
        size = taken
        depth += 1
        if doom and fewest_final >= stop_pegs and depth < max_depth:
            code = DOOMED
            stats[2] = depth
            break
    if depth == max_depth:
        code = FOUND
    # the line to the first (best ranked) position of the deepest level reached
    idx = 0
    for d in range(depth, 0, -1):
        best_path[d - 1] = move[d, idx]
        idx = parent[d, idx]
    stats[0] = nodes
    stats[1] = depth
    return code
