"""Exhaustive branch and bound for the fewest cells left, with its transposition table (numba kernels).

Children are ordered by :func:`clear_key`, the clearing ranking the beam
search (:mod:`.beam`) uses too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.groups import (
    CHECK_EVERY,
    EMPTY,
    MAX_COLOURS_CODE,
    colour_summary,
    find_groups,
    group_scratch,
    position_hash,
    remove_at,
)
from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.clock import budget_check, time_remains
from gridsolver.core.kernels.table import find_key, is_full
from gridsolver.core.kernels.watch import report_best

DEAD_WEIGHT = 1 << 20  # a dead colour (one cell left) outweighs any group count


@njit(cache=True)
def clear_key(cells, width, height, label, sizes, reps, stack, counts):
    """Heuristic for clearing (smaller is better): dead colours, then 2 x single cells + groups.

    A colour with one cell left can never be removed, so dead colours dominate;
    among the rest, fewer groups means larger, better connected groups, and a
    single cell is the next thing to a dead one (measured on clearable boards:
    counting single cells twice cleared 37x37 boards the plain group count
    did not).
    """
    left, dead = colour_summary(cells, counts)
    groups = find_groups(cells, width, height, label, sizes, reps, stack)
    single = 0
    for g in range(groups):
        if sizes[g] == 1:
            single += 1
    return dead * DEAD_WEIGHT + 2 * single + groups


@njit(cache=True)
def tt_seen(table, key):
    """True if ``key`` is in the table, else insert it (unless its neighbourhood is full: that loses
    pruning, never soundness)."""
    # a typed 32: a literal would compile find_key once more for that literal
    slot = find_key(table, key, key, np.int64(32))
    if slot >= 0:
        return True
    if not is_full(slot, table.shape[0]):
        table[-slot - 1] = key
    return False


GROW_LOAD = 0.7  # a growing table doubles when this share of its slots is taken
REHASH_CLOCK_EVERY = 1 << 16  # keys moved between two clock readings while a table grows


@njit(cache=True)
def regrown_table(table, slots, deadline_ns):
    """The keys of ``table`` (keys homed at themselves, 0 = empty) in a new table of ``slots`` slots.

    A big table takes a while to move, so the clock is read as it goes; past the deadline (or on
    Ctrl-C) an empty array comes back: the search is over and its table no longer matters.
    """
    out = np.zeros(slots, table.dtype)
    moved = 0
    for i in range(table.shape[0]):
        key = table[i]
        if key == 0:
            continue
        moved += 1
        if moved % REHASH_CLOCK_EVERY == 0 and not time_remains(deadline_ns):
            return np.zeros(0, table.dtype)
        # the new table is at most half full, so probing all of it always places the key
        j = find_key(out, key, key, slots)
        out[-1 - j] = key
    return out


# -- exact search (small boards) ----------------------------------------------------------------
@njit(cache=True)
def exact_search(start, width, height, zob, table, best_init, deadline_ns, node_limit, best_path):
    """:func:`exact_search_growing` in ``table`` as it is (it never grows)."""
    # a typed 0 (no growth), not a literal one: Clickomania's solve calls the growing search with an
    # int64, and a literal would compile that whole kernel a second time
    return exact_search_growing(start, width, height, zob, table, np.int64(0), best_init, deadline_ns,
                                node_limit, best_path, np.zeros(1, np.int64))


@njit(cache=True)
def exact_search_growing(start, width, height, zob, table, max_slots, best_init, deadline_ns, node_limit,
                         best_path, table_slots):
    """Depth-first branch and bound for the fewest cells left, with a transposition table.

    Prunes a node when its dead colours (a sound lower bound on the cells that
    will be left) reach the best result so far, and a position already seen:
    with a best that only decreases, a fully searched position cannot lead to
    anything better the second time. ``best_init`` is an upper bound already
    known (with its own sequence). Returns (best, path length or -1 if no
    better sequence was found, nodes, finished) where finished (true) means the
    search was exhausted, so ``best`` is proved minimal.

    The table doubles (up to ``max_slots``) whenever :data:`GROW_LOAD` of it
    is taken, so its memory follows the positions seen, not the budget: pass
    a small table. ``table_slots[0]`` gets its size at the end.
    """
    n = width * height
    occupied = 0
    for i in range(n):
        if start[i] != EMPTY:
            occupied += 1
    max_depth = occupied // 2 + 2  # every move removes at least two cells
    max_moves = occupied // 2 + 1  # and every move's group has at least two
    states = np.empty((max_depth, n), np.int8)
    children = np.empty((max_depth, max_moves, n), np.int8)
    child_moves = np.empty((max_depth, max_moves), np.int32)
    order = np.empty((max_depth, max_moves), np.int64)
    keys = np.empty(max_moves, np.int64)
    nchild = np.zeros(max_depth, np.int64)
    nexti = np.zeros(max_depth, np.int64)
    bounds = np.zeros(max_depth, np.int64)
    path = np.empty(max_depth, np.int32)
    label, sizes, reps, stack = group_scratch(n)  # the position's groups
    label2, sizes2, reps2, _ = group_scratch(n)  # a child's, for its rank
    counts = np.zeros(MAX_COLOURS_CODE, np.int64)

    best = best_init
    best_len = -1
    nodes = 0
    entries = 0  # positions stored (or lost to a full neighbourhood) in the table
    table_slots[0] = table.shape[0]
    copy_prefix(states[0], start, n)
    left, root_bound = colour_summary(start, counts)
    if root_bound >= best:
        return best, best_len, nodes, True
    # d and k start typed: numba types a loop's calls before it merges a literal 0 with the later
    # int64s, so copy_prefix(..., d) would be compiled for Literal[int](0) too
    d = np.int64(0)
    enter = True
    while d >= 0:
        if enter:
            enter = False
            nodes += 1
            if budget_check(nodes, node_limit, deadline_ns, CHECK_EVERY):
                return best, best_len, nodes, False
            s = states[d]
            left, bound = colour_summary(s, counts)
            bounds[d] = bound
            if bound >= best:
                d -= 1
                continue
            if d > 0:
                if tt_seen(table, position_hash(s, zob)):
                    d -= 1
                    continue
                entries += 1
                if entries >= GROW_LOAD * table.shape[0] and table.shape[0] < max_slots:
                    table = regrown_table(table, min(2 * table.shape[0], max_slots), deadline_ns)
                    if table.shape[0] == 0:  # the deadline passed while it grew
                        return best, best_len, nodes, False
                    table_slots[0] = table.shape[0]
            ng = find_groups(s, width, height, label, sizes, reps, stack)
            k = np.int64(0)
            for g in range(ng):
                if sizes[g] < 2:
                    continue
                child = children[d, k]
                copy_prefix(child, s, n)
                remove_at(child, width, height, reps[g], stack)
                child_moves[d, k] = reps[g]
                keys[k] = clear_key(child, width, height, label2, sizes2, reps2, stack, counts)
                k += 1
            if k == 0:
                if left < best:
                    best = left
                    best_len = d
                    report_best(left)
                    copy_prefix(best_path, path, d)
                    if best <= root_bound:
                        return best, best_len, nodes, True
                d -= 1
                continue
            copy_prefix(order[d], np.argsort(keys[:k], kind="mergesort"), k)
            nchild[d] = k
            nexti[d] = 0
        if nexti[d] < nchild[d] and bounds[d] < best:
            k = order[d, nexti[d]]
            nexti[d] += 1
            path[d] = child_moves[d, k]
            copy_prefix(states[d + 1], children[d, k], n)
            d += 1
            enter = True
        else:
            d -= 1
    return best, best_len, nodes, True
