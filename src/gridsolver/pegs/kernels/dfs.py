"""Depth-first search over jumps with a table of fully explored positions.

One search serves two objectives: most jumps (fewest pegs left) and one peg
in a finish hole. Positions are stored in the table under their smallest
symmetric image once their whole subtree is explored. Transposition tables
are open addressing on numpy arrays: ``hash[slot]`` (0 = empty, else
Zobrist|1) and ``keys[slot, :]`` the full position, so a lookup never
confuses two positions and proofs stay sound.

This module imports numba: import it only inside command functions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.bits import ZERO, flip_bit, get_bit
from gridsolver.core.kernels.clock import budget_check
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, TABLE_FULL
from gridsolver.core.kernels.table import find_wide, is_full, store_wide
from gridsolver.core.kernels.watch import report_best
from gridsolver.core.table import PROBES
from gridsolver.pegs.kernels.bitboard import CHECK_EVERY, count_pegs, generate, jump_of
from gridsolver.pegs.kernels.stack import new_stack, next_move, push

# An int64, not the Python constant: numba would compile find_wide once more for a literal 64.
_PROBES = np.int64(PROBES)


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
def endgame_key(position, all_holes, lookup):
    """The smallest dense image of the complement of ``position`` (words in the board's numbering):
    ``lookup[s, k, v]`` is the dense image under symmetry ``s`` of byte value ``v`` at byte ``k``, and
    ``all_holes`` the dense mask of every hole (the image of the complement is its complement)."""
    best = ~ZERO
    for s in range(lookup.shape[0]):
        img = ZERO
        for w in range(position.shape[0]):
            word = position[w]
            for k in range(8):
                img |= lookup[s, 8 * w + k, np.int64((word >> np.uint64(8 * k)) & np.uint64(255))]
        img ^= all_holes
        if img < best:
            best = img
    return best


@njit(cache=True)
def _in_endgame(position, all_holes, layer, lookup):
    """True when the complement of ``position`` is in the sorted ``layer`` (see :func:`endgame_key`)."""
    key = endgame_key(position, all_holes, lookup)
    i = np.searchsorted(layer, key)
    return i < layer.shape[0] and layer[i] == key


@njit(cache=True)
def dfs(start, board, finish, order, table, node_limit, deadline_ns, best_path, stats):
    """Depth-first search from ``start`` over jumps, with a table of fully explored positions.

    ``board`` (:class:`gridsolver.pegs.layout.Geometry`): the holes, jump
    offsets, Zobrist keys and the symmetries ``perms`` (``perms[s]`` maps bit
    indices under the s-th; the caller passes only symmetries valid for the
    objective). ``finish`` (:class:`gridsolver.pegs.layout.Finish`):
    ``target < 0``: most jumps (stop at one peg); else one peg in bit
    ``target``. A position is stored (as its smallest symmetric image) once
    its whole subtree is explored; since every position has a fixed depth
    (pegs removed), a stored position never needs another visit, for either
    objective.

    ``finish.pagoda[k]`` (K rows, one weight per bit; K may be 0) weighs
    holes so that no jump raises the total weight of the pegs (w(from) +
    w(over) >= w(to)); a position whose total under some row is below
    ``finish.floor[k]`` (the finish's weight) can never finish and is cut.

    ``finish.end_depth >= 0`` (finish only, boards of at most 64 holes): at that
    depth the search asks an endgame layer instead of going on (see
    :mod:`gridsolver.pegs.endgame`): ``end_layer`` is the sorted canonical
    complements, in the dense numbering of the holes (see
    :func:`endgame_key`: ``end_images`` maps the position's bytes to dense
    images, ``end_holes`` is every dense hole) of the positions with that
    many pegs that can finish. A position found there is FOUND
    with ``stats[1]`` = ``end_depth`` (the caller finishes the line); any
    other is dead.

    ``order`` (:class:`gridsolver.pegs.layout.Order`): move-order weights per
    jump code, plus ``noise`` times a random number (seeded by ``seed``).
    ``table`` (:class:`gridsolver.pegs.layout.Table`): when it holds
    ``grow_at`` entries (> 0) the search stops with TABLE_FULL so the caller
    can give it a bigger table and run again (the stored positions stay
    valid). Returns an exit code; ``stats`` gets [nodes, best depth, table
    entries]; ``best_path[:best depth]`` the jumps of the deepest (or
    winning) line.
    """
    holes, offsets, zobrist, perms = board.holes, board.offsets, board.zobrist, board.perms
    target, pagoda, pagoda_floor = finish.target, finish.pagoda, finish.floor
    npag = pagoda.shape[0]
    end_depth, end_layer, end_images = finish.end_depth, finish.end_layer, finish.end_images
    end_holes = finish.end_holes
    weights, noise = order.weights, order.noise
    tt_hash, tt_keys, grow_at = table.hash, table.keys, table.grow_at
    np.random.seed(order.seed)
    nsym = perms.shape[0]
    nw = start.shape[0]
    dcount = offsets.shape[0]
    pegs = count_pegs(start)
    max_depth = pegs - 1
    maxmoves = nw * 64 * dcount
    images = np.zeros((max_depth + 1, nsym, nw), dtype=np.uint64)
    hashes = np.zeros((max_depth + 1, nsym), dtype=np.uint64)
    moves, count, nxt = new_stack(max_depth + 1, min(maxmoves, 4 * pegs * dcount + 8))
    path = np.zeros(max_depth + 1, dtype=np.int32)
    codes = np.zeros(maxmoves, dtype=np.int32)
    keys = np.zeros(maxmoves, dtype=np.float64)
    scratch = np.zeros((3, nw), dtype=np.uint64)
    weight = np.zeros((max_depth + 1, npag), dtype=np.float64)
    for b in range(nw * 64):
        if get_bit(start, b):
            for k in range(npag):
                weight[0, k] += pagoda[k, b]
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
    push(moves, count, nxt, 0, codes, n)
    code = EXHAUSTED
    while True:
        m = next_move(moves, count, nxt, depth)
        if m >= 0:
            nodes += 1
            code = budget_check(nodes, node_limit, deadline_ns, CHECK_EVERY)
            if code != EXHAUSTED:
                break
            a, o = jump_of(m, offsets)
            b = a + o
            c = b + o
            child = depth + 1
            for s in range(nsym):
                copy_prefix(images[child, s], images[depth, s], nw)
                pa = perms[s, a]
                pb = perms[s, b]
                pc = perms[s, c]
                flip_bit(images[child, s], pa)
                flip_bit(images[child, s], pb)
                flip_bit(images[child, s], pc)
                hashes[child, s] = hashes[depth, s] ^ zobrist[pa] ^ zobrist[pb] ^ zobrist[pc]
            path[depth] = m
            light = False
            for k in range(npag):
                weight[child, k] = weight[depth, k] - pagoda[k, a] - pagoda[k, b] + pagoda[k, c]
                if weight[child, k] < pagoda_floor[k]:
                    light = True
            if target < 0:
                if child > best:
                    best = child
                    copy_prefix(best_path, path, child)
                    report_best(child)
                    if child == max_depth:
                        code = FOUND
                        break
            else:
                if child > best:
                    best = child
                if child == max_depth:
                    if get_bit(images[child, 0], target):
                        copy_prefix(best_path, path, child)
                        code = FOUND
                        break
                    continue
                if light:
                    continue
                if child == end_depth:
                    if _in_endgame(images[child, 0], end_holes, end_layer, end_images):
                        copy_prefix(best_path, path, child)
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
            push(moves, count, nxt, child, codes, n)
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
