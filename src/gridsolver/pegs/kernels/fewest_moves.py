"""Fewest moves (runs of jumps by one peg) by depth-first search within a move budget.

The caller deepens: limit 1, 2, ... until a run finds one peg left (any
board size; on boards of at most 64 holes :mod:`.meet` is far stronger).

This module imports numba: import it only inside command functions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.bits import flip_bit, get_bit, popcount
from gridsolver.core.kernels.clock import budget_check
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, TABLE_FULL
from gridsolver.core.kernels.table import find_wide, is_full, store_wide
from gridsolver.core.table import PROBES
from gridsolver.pegs.kernels.bitboard import CHECK_EVERY, count_pegs, generate, jump_of
from gridsolver.pegs.kernels.stack import new_stack, next_move, push

# An int64, not the Python constant: numba would compile find_wide once more for a literal 64.
_PROBES = np.int64(PROBES)


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
def fewest_moves(start, board, bound, limit, table, node_limit, deadline_ns, best_path, stats):
    """Depth-first search for one peg left (in bit ``bound.target``, or anywhere when < 0) in at
    most ``limit`` moves, a move being a run of jumps by one peg.

    The state is the position plus the bit of the peg that moved last (it may
    go on jumping for free). Lower bound (``bound``:
    :class:`gridsolver.pegs.layout.MoveBound`): every peg on a ``must_move``
    hole (a hole no jump can pass over) must make a move of its own, except
    the peg that moved last and a survivor allowed to stay there
    (``free_survivor``). ``board``: :class:`gridsolver.pegs.layout.Geometry`.
    The table keeps, per state, the largest remaining move budget shown to be
    too small: a wide table (see :class:`gridsolver.core.table.GrowingTable`,
    bundled as :class:`gridsolver.pegs.layout.Table`) whose rows are the
    state's W + 1 words and then that budget, a word lookups do not compare
    (so it moves with its state when the table grows). When the table holds
    ``grow_at`` entries (> 0) the search stops with TABLE_FULL for a bigger
    table and is run again with the same limit (what the table holds stays
    true). Returns FOUND (``best_path`` holds the jumps, ``stats[1]`` their
    number), EXHAUSTED (no solution within ``limit``), TABLE_FULL or a budget
    code; stats[0] += nodes, stats[2] = table entries.
    """
    holes, offsets = board.holes, board.offsets
    target, must_move, free_survivor = bound.target, bound.must_move, bound.free_survivor
    tt_hash, tt_keys, grow_at = table.hash, table.keys, table.grow_at
    nw = start.shape[0]
    dcount = offsets.shape[0]
    pegs = count_pegs(start)
    max_depth = pegs - 1
    maxmoves = nw * 64 * dcount
    pos = np.zeros((max_depth + 1, nw), dtype=np.uint64)
    last = np.full(max_depth + 1, -1, dtype=np.int64)
    used = np.zeros(max_depth + 1, dtype=np.int64)
    moves, count, nxt = new_stack(max_depth + 1, min(maxmoves, 4 * pegs * dcount + 8))
    path = np.zeros(max_depth + 1, dtype=np.int32)
    codes = np.zeros(maxmoves, dtype=np.int32)
    scratch = np.zeros((3, nw), dtype=np.uint64)
    key = np.zeros(nw + 1, dtype=np.uint64)
    budget_word = nw + 1  # the column of a table row that holds its move budget
    entries = stats[2]
    copy_prefix(pos[0], start, nw)
    n = generate(pos[0], holes, offsets, codes, scratch)
    push(moves, count, nxt, 0, codes, n)
    nodes = 0
    depth = 0
    code = EXHAUSTED
    while True:
        m = next_move(moves, count, nxt, depth)
        if m >= 0:
            nodes += 1
            code = budget_check(nodes, node_limit, deadline_ns, CHECK_EVERY)
            if code != EXHAUSTED:
                break
            a, o = jump_of(m, offsets)
            child = depth + 1
            cost = used[depth] + (0 if a == last[depth] else 1)
            if cost > limit:
                continue
            copy_prefix(pos[child], pos[depth], nw)
            flip_bit(pos[child], a)
            flip_bit(pos[child], a + o)
            flip_bit(pos[child], a + 2 * o)
            last[child] = a + 2 * o
            used[child] = cost
            path[depth] = m
            if child == max_depth:
                if target < 0 or get_bit(pos[child], target):
                    copy_prefix(best_path, path, child)
                    stats[1] = child
                    code = FOUND
                    break
                continue
            lower = 0
            for w in range(nw):
                lower += np.int64(popcount(pos[child, w] & must_move[w]))
            if get_bit(must_move, last[child]):
                lower -= 1
            if free_survivor:
                lower -= 1
            remaining = limit - cost
            if lower > remaining:
                continue
            copy_prefix(key, pos[child], nw)
            key[nw] = np.uint64(last[child])
            h = position_hash(key)
            slot = find_wide(tt_hash, tt_keys, h, key, _PROBES)
            if slot >= 0 and np.int64(tt_keys[slot, budget_word]) >= remaining:
                continue
            n = generate(pos[child], holes, offsets, codes, scratch)
            push(moves, count, nxt, child, codes, n)
            depth = child
        else:
            if depth == 0:
                break
            copy_prefix(key, pos[depth], nw)
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
