"""SameGame's anytime score beam: ranked by a heuristic or by playouts (numba kernels).

The beam's parts (the next beam from the ranked children, a slot's moves
traced back) are Clickomania's (:mod:`gridsolver.clickomania.kernels.beam`);
this module holds what is SameGame's: the points, the ranking and the
playouts' whole games kept as answers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.beam import beam_children, beam_levels, next_beam, trace_path
from gridsolver.clickomania.kernels.groups import (
    CHECK_EVERY,
    MAX_COLOURS_CODE,
    colour_summary,
    find_groups,
    group_scratch,
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
    levels = beam_levels(beam_width, n)
    kids = beam_children(beam_width, n)
    points = np.zeros((2, beam_width), np.int64)  # each slot's points so far, by level as positions
    groups = group_scratch(n)  # the position's groups
    ranking = group_scratch(n)  # a child's, for its rank or its playouts
    stack = groups.stack
    child = np.empty(n, np.int8)
    counts = np.zeros(MAX_COLOURS_CODE, np.int64)
    roll = np.empty(n, np.int8)
    rseq = np.empty(n, np.int32)
    # a node ranked by playouts costs whole games (milliseconds on a 64 x 64 board): read the
    # clock at every one, or 256 of them run a second past the deadline
    clock_every = 1 if playouts > 0 else CHECK_EVERY

    copy_prefix(levels.positions[0, 0], start, n)
    size = 1
    best = np.int64(1) << 40
    best_len = -1
    nodes = 0
    depth = 0
    while size > 0:
        nc = 0
        cur = levels.positions[depth & 1]
        cur_points = points[depth & 1]
        for b in range(size):
            s = cur[b]
            ng = find_groups(s, width, height, groups.label, groups.sizes, groups.reps, stack)
            moved = False
            for g in range(ng):
                if groups.sizes[g] < 2:
                    continue
                moved = True
                move = groups.reps[g]
                copy_prefix(child, s, n)
                remove_at(child, width, height, move, stack)
                gain = (groups.sizes[g] - 2) * (groups.sizes[g] - 2)
                if playouts > 0:
                    best_rollout = -(np.int64(1) << 40)
                    for _ in range(playouts):
                        copy_prefix(roll, child, n)
                        rp, rl = playout(roll, width, height, penalty, rseq, np.int64(0), ranking.label,
                                         ranking.sizes, ranking.reps, stack, counts)
                        if rp > best_rollout:
                            best_rollout = rp
                        if -(cur_points[b] + gain + rp) < best:
                            # the playout's whole game is the best so far: keep it (anytime answer)
                            best = -(cur_points[b] + gain + rp)
                            best_len = depth + 1 + rl
                            trace_path(best_path, levels, depth, b)
                            best_path[depth] = move
                            for k in range(rl):
                                best_path[depth + 1 + k] = rseq[k]
                    kids.key[nc] = -(cur_points[b] + gain + best_rollout)
                else:
                    kids.key[nc] = score_key(child, width, height, cur_points[b] + gain, counts,
                                             ranking.label, ranking.sizes, ranking.reps, stack)
                kids.parent[nc] = b
                kids.move[nc] = move
                kids.hash[nc] = position_hash(child, zob)
                nc += 1
                nodes += 1
                if budget_check(nodes, node_limit, deadline_ns, clock_every):
                    return best, best_len, nodes, False
            if not moved:
                left, dead = colour_summary(s, counts)
                cost = -(cur_points[b] + terminal_bonus(left, penalty))
                if cost < best:
                    best = cost
                    best_len = depth
                    trace_path(best_path, levels, depth, b)
        if nc == 0:
            break
        depth += 1
        size = next_beam(kids, nc, levels, depth, width, height, stack)
        next_points = points[depth & 1]
        for k in range(size):
            removed = levels.removed[k]
            next_points[k] = cur_points[levels.parents[depth, k]] + (removed - 2) * (removed - 2)
    return best, best_len, nodes, True
