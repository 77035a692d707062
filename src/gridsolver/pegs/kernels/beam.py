"""Beam search over jumps: keep the ``width`` best positions of each depth.

This module imports numba: import it only inside command functions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.bits import ONE, ZERO, flip_bit, get_bit
from gridsolver.core.kernels.clock import budget_check
from gridsolver.core.kernels.stops import DOOMED, EXHAUSTED, FOUND
from gridsolver.core.kernels.table import find_key
from gridsolver.pegs.kernels.bitboard import count_pegs, generate, jump_of
from gridsolver.pegs.kernels.doom import (
    count_doomed,
    isolated_around,
    isolated_mask,
    marked_around,
    pull_totals,
)


@njit(cache=True, inline="always")
def _keep_ranked(values, order, keep):
    """``values[:keep] = values[order[:keep]]`` (the gather reads a copy, as numpy's does)."""
    before = values.copy()
    for i in range(keep):
        values[i] = before[order[i]]


@njit(cache=True)
def beam(start, board, ranking, doom, width, seed, node_limit, deadline_ns, best_path, stats):
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

    ``board``: :class:`gridsolver.pegs.layout.Geometry`; ``ranking``
    (:class:`gridsolver.pegs.layout.Ranking`): ``phi``, ``iso_weight``,
    ``noise``, ``pool_factor`` and ``mobility_weight``; ``doom``
    (:class:`gridsolver.pegs.layout.Doom`): ``pull`` (empty: no doomed-peg
    stop) and ``stop_pegs``.
    """
    holes, offsets, zobrist = board.holes, board.offsets, board.zobrist
    phi, iso_weight, noise = ranking.phi, ranking.iso_weight, ranking.noise
    pool_factor, mobility_weight = ranking.pool_factor, ranking.mobility_weight
    pull, stop_pegs = doom.pull, doom.stop_pegs
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
    copy_prefix(cur[0], start, nw)
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
                a, o = jump_of(m, offsets)
                cells[0] = a
                cells[1] = a + o
                cells[2] = a + 2 * o
                before = 0
                after = 0
                if iso_weight > 0:
                    stamp += 1
                    before = marked_around(parent_iso, offsets, nbits, cells, mark, stamp)
                    copy_prefix(child, cur[i], nw)
                    flip_bit(child, a)
                    flip_bit(child, a + o)
                    flip_bit(child, a + 2 * o)
                    stamp += 1
                    after = isolated_around(child, offsets, nbits, cells, mark, stamp)
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
            a, o = jump_of(m, offsets)
            copy_prefix(pool_pos[pooled], cur[p], nw)
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
            copy_prefix(nxt_pos[t], pool_pos[q], nw)
            nxt_hash[t] = cand_hash[c]
            nxt_h[t] = cand_h[c]
            parent[depth + 1, t] = cand_parent[c]
            move[depth + 1, t] = cand_move[c]
            if doom:
                # the child's weights (three rows of the table), then the fewest pegs it can end with
                p = cand_parent[c]
                m = cand_move[c]
                a, o = jump_of(m, offsets)
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
