"""SameGame's anytime score beam: ranked by a heuristic or by playouts (numba kernels).

The beam's parts (the next beam from the ranked children, a slot's moves
traced back) are Clickomania's (:mod:`gridsolver.clickomania.kernels.beam`);
this module holds what is SameGame's: the points, the ranking and the
playouts' whole games kept as answers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.beam import next_beam, trace_path
from gridsolver.clickomania.kernels.groups import (
    CHECK_EVERY,
    MAX_COLOURS_CODE,
    colour_summary,
    find_groups,
    position_hash,
    remove_at,
)
from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.clock import budget_check
from gridsolver.samegame.kernels.playout import playout
from gridsolver.samegame.kernels.scoring import terminal_bonus


@njit(cache=True)
def score_key(cells, width, height, points, counts, label, sizes, reps, stack):
    """Heuristic for SameGame (smaller is better): minus an estimate of the final points.

    Points so far, plus half of what each colour could give in one group
    ((count-2)^2 each, optimistic) and half of what the current groups give.
    """
    colour_summary(cells, counts)
    potential = 0
    for k in range(counts.shape[0]):
        if counts[k] > 2:
            potential += (counts[k] - 2) * (counts[k] - 2)
    ng = find_groups(cells, width, height, label, sizes, reps, stack)
    clusters = 0
    for g in range(ng):
        if sizes[g] > 2:
            clusters += (sizes[g] - 2) * (sizes[g] - 2)
    return -(points * 4 + potential + clusters * 2) // 4


@njit(cache=True)
def beam_search(start, width, height, zob, beam_width, penalty, deadline_ns, node_limit, best_path,
                playouts=0):
    """Beam search for the most points: keep the ``beam_width`` best distinct positions (by hash)
    after every move.

    Children are ranked by :func:`score_key`, or with ``playouts`` > 0 by
    points plus the best of that many tabu-colour playouts (a Monte-Carlo
    beam; every playout's whole game is also a candidate answer). Returns
    (minus the most points at a game end, path length or -1 when no game end
    was reached, nodes, finished).
    """
    n = width * height
    max_depth = n // 2 + 2
    max_moves = n // 2 + 1
    cur = np.empty((beam_width, n), np.int8)
    nxt = np.empty((beam_width, n), np.int8)
    cur_points = np.zeros(beam_width, np.int64)
    nxt_points = np.zeros(beam_width, np.int64)
    removed = np.empty(beam_width, np.int64)
    parents = np.empty((max_depth, beam_width), np.int32)
    moves = np.empty((max_depth, beam_width), np.int32)
    cap = beam_width * max_moves
    cand_key = np.empty(cap, np.int64)
    cand_parent = np.empty(cap, np.int32)
    cand_move = np.empty(cap, np.int32)
    cand_hash = np.empty(cap, np.int64)
    seen = np.zeros(1 << max(4, int(np.ceil(np.log2(beam_width * 4)))), np.int64)
    child = np.empty(n, np.int8)
    label = np.empty(n, np.int32)
    sizes = np.empty(n, np.int32)
    reps = np.empty(n, np.int32)
    stack = np.empty(n, np.int32)
    label2 = np.empty(n, np.int32)
    sizes2 = np.empty(n, np.int32)
    reps2 = np.empty(n, np.int32)
    counts = np.zeros(MAX_COLOURS_CODE, np.int64)
    roll = np.empty(n, np.int8)
    rseq = np.empty(n, np.int32)
    # a node ranked by playouts costs whole games (milliseconds on a 64 x 64 board): read the
    # clock at every one, or 256 of them run a second past the deadline
    clock_every = 1 if playouts > 0 else CHECK_EVERY

    copy_prefix(cur[0], start, n)
    cur_points[0] = 0
    size = 1
    best = np.int64(1) << 40
    best_len = -1
    nodes = 0
    depth = 0
    while size > 0:
        nc = 0
        for b in range(size):
            s = cur[b]
            ng = find_groups(s, width, height, label, sizes, reps, stack)
            moved = False
            for g in range(ng):
                if sizes[g] < 2:
                    continue
                moved = True
                copy_prefix(child, s, n)
                remove_at(child, width, height, reps[g], stack)
                gain = (sizes[g] - 2) * (sizes[g] - 2)
                if playouts > 0:
                    best_rollout = -(np.int64(1) << 40)
                    for _ in range(playouts):
                        copy_prefix(roll, child, n)
                        rp, rl = playout(roll, width, height, penalty, rseq, np.int64(0), label2, sizes2,
                                         reps2, stack, counts)
                        if rp > best_rollout:
                            best_rollout = rp
                        if -(cur_points[b] + gain + rp) < best:
                            # the playout's whole game is the best so far: keep it (anytime answer)
                            best = -(cur_points[b] + gain + rp)
                            best_len = depth + 1 + rl
                            trace_path(best_path, moves, parents, depth, b)
                            best_path[depth] = reps[g]
                            for k in range(rl):
                                best_path[depth + 1 + k] = rseq[k]
                    cand_key[nc] = -(cur_points[b] + gain + best_rollout)
                else:
                    cand_key[nc] = score_key(child, width, height, cur_points[b] + gain, counts, label2,
                                             sizes2, reps2, stack)
                cand_parent[nc] = b
                cand_move[nc] = reps[g]
                cand_hash[nc] = position_hash(child, zob)
                nc += 1
                nodes += 1
                if budget_check(nodes, node_limit, deadline_ns, clock_every):
                    return best, best_len, nodes, 0
            if not moved:
                left, dead = colour_summary(s, counts)
                cost = -(cur_points[b] + terminal_bonus(left, penalty))
                if cost < best:
                    best = cost
                    best_len = depth
                    trace_path(best_path, moves, parents, depth, b)
        if nc == 0:
            break
        depth += 1
        size = next_beam(cand_key, cand_hash, cand_parent, cand_move, nc, seen, cur, nxt, removed, parents,
                         moves, depth, width, height, stack)
        for k in range(size):
            nxt_points[k] = cur_points[parents[depth, k]] + (removed[k] - 2) * (removed[k] - 2)
        cur, nxt = nxt, cur
        cur_points, nxt_points = nxt_points, cur_points
    return best, best_len, nodes, 1
