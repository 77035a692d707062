"""SameGame's anytime score beam: ranked by a heuristic or by playouts (numba kernels).

The beam's parts (the next beam from the ranked children, a slot's moves
traced back) are Clickomania's (:mod:`gridsolver.clickomania.kernels.beam`);
this module holds what is SameGame's: the points, the ranking and the
playouts' whole games kept as answers.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.beam import beam_children, beam_levels, beam_start, next_beam, trace_path
from gridsolver.clickomania.kernels.exact import tt_seen
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
from gridsolver.samegame.kernels.endgame import endgame_line, endgame_value
from gridsolver.samegame.kernels.playout import playout
from gridsolver.samegame.kernels.scoring import terminal_bonus

#: A score beam's room (:func:`score_beam`): Clickomania's levels and children, each slot's points so
#: far (by level, as the positions), the groups of the position expanded and of a child (for its rank
#: or its playouts), a child, colour counts, and a playout's board and moves.
ScoreBeam = namedtuple("ScoreBeam", "levels kids points groups ranking child counts roll rseq")
#: A tabu beam's settings (:func:`tabu_beam`, made by :func:`tabu_plan`).
TabuPlan = namedtuple("TabuPlan",
                      "beam_width penalty tabu weights per_parent playouts endgame_groups endgame_nodes")


@njit(cache=True)
def score_beam(beam_width, n):
    """A :class:`ScoreBeam` for ``beam_width`` positions of ``n`` cells."""
    return ScoreBeam(beam_levels(beam_width, n), beam_children(beam_width, n),
                     np.zeros((2, beam_width), np.int64), group_scratch(n), group_scratch(n),
                     np.empty(n, np.int8), np.zeros(MAX_COLOURS_CODE, np.int64), np.empty(n, np.int8),
                     np.empty(n, np.int32))


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
    levels, kids, points, groups, ranking, child, counts, roll, rseq = score_beam(beam_width, n)
    stack = groups.stack
    # a node ranked by playouts costs whole games (milliseconds on a 64 x 64 board): read the
    # clock at every one, or 256 of them run a second past the deadline
    clock_every = 1 if playouts > 0 else CHECK_EVERY

    size, best, best_len, nodes, depth = beam_start(levels, start)
    while size > 0:
        nc = np.int64(0)  # np.int64: from a literal 0 numba compiles what it is passed to once more
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


# -- the tabu beam: whole positions ranked by what they can still give -----------------------------
# weights of :func:`tabu_value`, in eighths of a point (indices into the ``weights`` array)
W_GROUPS = 0  # the other colours' current groups, (size - 2)^2 each
#: the other colours' counts, (count - 2)^2 each, times how joined each colour is already (the sum of
#: its groups' squared sizes over its count squared: 1 once it is one group, when the term is the
#: points it would give)
W_POTENTIAL = 1
W_CLEAR = 2  # the clearing bonus while no colour is down to one cell
W_STRANDED = 3  # per colour down to one cell (never cleared)
W_SINGLES = 4  # per single cell of another colour than the tabu one
W_TABU_SPLIT = 5  # per group of the tabu colour beyond the first
W_TABU_GROUPS = 6  # the tabu colour's current groups, (size - 2)^2 each
W_TABU_WHOLE = 7  # the tabu colour in one group, (count - 2)^2
N_WEIGHTS = 8
# tuned on standard positions 1-10 (see the research notes)
TABU_WEIGHTS = (8, 4, 8000, 0, 300, 600, 4, 4)


@njit(cache=True)
def tabu_value(cells, width, height, points, tabu, weights, counts, squares, label, sizes, reps, stack):
    """What a position is worth, in eighths of a point (larger is better), and whether it is a game end.

    ``points`` so far, plus the tabu colour taken last in one group ((count - 2)^2), plus the
    weighted other colours' groups and counts (each count's term scaled by how joined the colour is:
    :data:`W_POTENTIAL`), the clearing bonus while no colour has one cell left,
    and penalties for colours down to one cell, single cells and the tabu colour in several groups.
    A game end is worth its exact points.
    """
    colour_summary(cells, counts)
    ng = find_groups(cells, width, height, label, sizes, reps, stack)
    groups_value = 0
    singles = 0
    tabu_groups = 0
    tabu_value_now = 0
    movable = False
    for k in range(squares.shape[0]):  # each colour's groups' squared sizes, summed
        squares[k] = 0
    for g in range(ng):
        s = sizes[g]
        squares[cells[reps[g]]] += s * s
        if s >= 2:
            movable = True
        if cells[reps[g]] == tabu:
            tabu_groups += 1
            if s > 2:
                tabu_value_now += (s - 2) * (s - 2)
        elif s > 2:
            groups_value += (s - 2) * (s - 2)
        elif s == 1:
            singles += 1
    if not movable:
        left = np.int64(0)  # np.int64, np.bool_: literals would compile terminal_bonus once more each
        for k in range(counts.shape[0]):
            left += counts[k]
        return 8 * (points + terminal_bonus(left, np.bool_(False))), True
    value = (8 * points + weights[W_GROUPS] * groups_value + weights[W_TABU_GROUPS] * tabu_value_now
             - weights[W_SINGLES] * singles)
    stranded = 0
    for k in range(counts.shape[0]):
        c = counts[k]
        if c == 1:
            stranded += 1
        elif c > 2:
            if k == tabu:
                value += weights[W_TABU_WHOLE] * (c - 2) * (c - 2)
            else:
                value += weights[W_POTENTIAL] * (c - 2) * (c - 2) * squares[k] // (c * c)
    if stranded == 0:
        value += weights[W_CLEAR]
    value -= weights[W_STRANDED] * stranded
    if tabu_groups > 1:
        value -= weights[W_TABU_SPLIT] * (tabu_groups - 1)
    return value, False


@njit(cache=True)
def next_beam_capped(children, nc, levels, depth, width, height, stack, per_parent, kept):
    """:func:`~gridsolver.clickomania.kernels.beam.next_beam` keeping at most ``per_parent`` children
    of any one position (0: no cap); ``kept`` is room for a count per slot of the level before."""
    if per_parent <= 0:
        return next_beam(children, nc, levels, depth, width, height, stack)
    n = width * height
    cur = levels.positions[(depth - 1) & 1]
    nxt = levels.positions[depth & 1]
    ranked = np.argsort(children.key[:nc], kind="mergesort")
    children.seen[:] = 0
    kept[:] = 0
    size = 0
    for r in range(nc):
        i = ranked[r]
        parent = children.parent[i]
        if kept[parent] >= per_parent or tt_seen(children.seen, children.hash[i]):
            continue
        kept[parent] += 1
        copy_prefix(nxt[size], cur[parent], n)
        levels.removed[size] = remove_at(nxt[size], width, height, children.move[i], stack)
        levels.parents[depth, size] = parent
        levels.moves[depth, size] = children.move[i]
        size += 1
        if size == nxt.shape[0]:
            break
    return size


@njit(cache=True)
def tabu_beam(start, width, height, zob, plan, table, best_path, deadline_ns, node_limit):
    """Beam search for the most points over whole positions, under the settings ``plan`` (a
    :class:`TabuPlan`): after every move keep the ``beam_width``
    distinct positions (by Zobrist hash) of highest :func:`tabu_value`, at most ``per_parent`` (0: any
    number) children of one position. With ``playouts`` > 0, that many random tabu-colour games are
    played from every position kept, each a candidate answer (they do not rank anything). A position
    of at most ``endgame_groups`` groups (single cells included) is solved exactly instead of expanded
    (:func:`~gridsolver.samegame.kernels.endgame.endgame_value`, at most ``endgame_nodes`` nodes, in
    ``table`` = (keys, values, best moves), which every such position shares and which is emptied
    when a search does not finish); it is expanded when that search does not finish.

    A child that is a game end is scored at once (with ``penalty``, the end penalty too) and takes
    no place in the beam. Returns (minus the most points at a game end, path length or -1 when no
    game end was reached, nodes, finished).
    """
    beam_width, penalty, tabu, weights, per_parent, playouts, endgame_groups, endgame_nodes = plan
    n = width * height
    levels, kids, points, groups, ranking, child, counts, roll, rseq = score_beam(beam_width, n)
    squares = np.zeros_like(counts)  # tabu_value's per colour
    stack = groups.stack
    kept = np.zeros(beam_width, np.int32)
    line = np.empty(n, np.int32)

    size, best, best_len, nodes, depth = beam_start(levels, start)
    while size > 0:
        nc = np.int64(0)  # np.int64: from a literal 0 numba compiles what it is passed to once more
        cur = levels.positions[depth & 1]
        cur_points = points[depth & 1]
        for b in range(size):
            s = cur[b]
            ng = find_groups(s, width, height, groups.label, groups.sizes, groups.reps, stack)
            if ng <= endgame_groups:
                value, used, complete = endgame_value(s, width, height, zob, table[0], table[1], table[2],
                                                      penalty, endgame_nodes, deadline_ns)
                nodes += used
                if complete:
                    if -(cur_points[b] + value) < best:
                        length = endgame_line(s, width, height, zob, table[0], table[1], table[2], line)
                        if length >= 0:
                            best = -(cur_points[b] + value)
                            best_len = depth + length
                            trace_path(best_path, levels, depth, b)
                            for j in range(length):
                                best_path[depth + j] = line[j]
                    continue
                table[0][:] = 0
                if budget_check(nodes, node_limit, deadline_ns, 1):
                    return best, best_len, nodes, False
            for g in range(ng):
                if groups.sizes[g] < 2:
                    continue
                move = groups.reps[g]
                copy_prefix(child, s, n)
                remove_at(child, width, height, move, stack)
                gained = cur_points[b] + (groups.sizes[g] - 2) * (groups.sizes[g] - 2)
                value, over = tabu_value(child, width, height, gained, tabu, weights, counts, squares,
                                         ranking.label, ranking.sizes, ranking.reps, stack)
                nodes += 1
                if over:
                    left, _ = colour_summary(child, counts)
                    cost = -(gained + terminal_bonus(left, penalty))
                    if cost < best:
                        best = cost
                        best_len = depth + 1
                        trace_path(best_path, levels, depth, b)
                        best_path[depth] = move
                else:
                    kids.key[nc] = -value
                    kids.parent[nc] = b
                    kids.move[nc] = move
                    kids.hash[nc] = position_hash(child, zob)
                    nc += 1
                if budget_check(nodes, node_limit, deadline_ns, CHECK_EVERY):
                    return best, best_len, nodes, False
        if nc == 0:
            break
        depth += 1
        size = next_beam_capped(kids, nc, levels, depth, width, height, stack, per_parent, kept)
        next_points = points[depth & 1]
        nxt = levels.positions[depth & 1]
        for k in range(size):
            removed = levels.removed[k]
            next_points[k] = cur_points[levels.parents[depth, k]] + (removed - 2) * (removed - 2)
            for _ in range(playouts):
                copy_prefix(roll, nxt[k], n)
                rp, rl = playout(roll, width, height, penalty, rseq, np.int64(0), ranking.label,
                                 ranking.sizes, ranking.reps, stack, counts)
                nodes += 1
                if -(next_points[k] + rp) < best:
                    best = -(next_points[k] + rp)
                    best_len = depth + rl
                    trace_path(best_path, levels, depth, k)
                    for j in range(rl):
                        best_path[depth + j] = rseq[j]
    return best, best_len, nodes, True


def tabu_plan(beam_width, penalty, tabu, weights, per_parent=0, playouts=0, endgame_groups=0,
              endgame_nodes=0):
    """A :class:`TabuPlan` with every field of the one type :func:`tabu_beam` is compiled for."""
    return TabuPlan(np.int64(beam_width), bool(penalty), np.int64(tabu), np.asarray(weights, np.int64),
                    np.int64(per_parent), np.int64(playouts), np.int64(endgame_groups),
                    np.int64(endgame_nodes))
