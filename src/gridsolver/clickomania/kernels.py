"""numba kernels for Clickomania / SameGame: groups, removal, settling, and whole searches.

Kernel board layout: a flat ``int8`` array of ``width * height`` cells, column
by column, each column bottom-up: cell ``c * height + h`` is column ``c`` at
height ``h`` (0 = bottom). Empty cells are -1. A settled board has every
column packed from the bottom and every non-empty column packed to the left,
so equal positions have equal arrays (and equal hashes).

A move is the index of the canonical cell of a group: the lowest cell of its
leftmost column, which is the first cell of the group in scan order.

Every search loop lives inside a kernel and checks the monotonic clock every
few hundred nodes. This module imports numba: import it only inside commands.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.clock import monotonic_ns

EMPTY = -1
MAX_COLOURS_CODE = 36  # colour codes are indices into rules.ALPHABET
CHECK_EVERY = 256
DEAD_WEIGHT = 1 << 20
ENDGAME_MAX_AREA = 400  # a dead colour (one cell left) outweighs any group count


# -- conversions (plain Python) ---------------------------------------------------------------
def to_cells(grid: np.ndarray) -> np.ndarray:
    """Kernel layout of a settled ``(height, width)`` grid (row 0 at the top)."""
    return np.ascontiguousarray(grid[::-1, :].T).reshape(-1).astype(np.int8)


def to_grid(cells: np.ndarray, width: int, height: int) -> np.ndarray:
    """Inverse of :func:`to_cells`."""
    return np.ascontiguousarray(cells.reshape(width, height).T[::-1, :])


def index_to_move(index: int, height: int) -> tuple[int, int]:
    """(row, column) of kernel cell ``index``, rows counted from the top."""
    col, h = divmod(int(index), height)
    return height - 1 - h, col


def zobrist_table(cells: int, seed: int = 20240521) -> np.ndarray:
    """Random 64-bit keys, one per (cell, colour code), for position hashes."""
    rng = np.random.default_rng(seed)
    return rng.integers(1, 2**63 - 1, size=(cells, MAX_COLOURS_CODE), dtype=np.int64)


# -- basic operations ---------------------------------------------------------------------------
@njit(cache=True)
def find_groups(cells, width, height, label, sizes, reps, stack):
    """Label every group; returns the group count. ``reps[g]`` is group g's canonical cell.

    Only occupied cells get a label (an empty cell's label is stale: callers
    never read it). Most groups are single cells, so those are settled by
    looking at the four neighbours before starting a flood fill.
    """
    for c in range(width):
        base = c * height
        if cells[base] == EMPTY:
            break
        for h in range(height):
            if cells[base + h] == EMPTY:
                break
            label[base + h] = -1
    count = 0
    for c in range(width):
        base = c * height
        if cells[base] == EMPTY:
            break
        for h in range(height):
            i = base + h
            colour = cells[i]
            if colour == EMPTY:
                break
            if label[i] >= 0:
                continue
            label[i] = count
            reps[count] = i
            if _single(cells, width, height, i, c, h):
                sizes[count] = 1
                count += 1
                continue
            stack[0] = i
            top = 1
            size = 0
            while top > 0:
                top -= 1
                j = stack[top]
                size += 1
                jc = j // height
                jh = j - jc * height
                if jh > 0 and cells[j - 1] == colour and label[j - 1] < 0:
                    label[j - 1] = count
                    stack[top] = j - 1
                    top += 1
                if jh + 1 < height and cells[j + 1] == colour and label[j + 1] < 0:
                    label[j + 1] = count
                    stack[top] = j + 1
                    top += 1
                if jc > 0 and cells[j - height] == colour and label[j - height] < 0:
                    label[j - height] = count
                    stack[top] = j - height
                    top += 1
                if jc + 1 < width and cells[j + height] == colour and label[j + height] < 0:
                    label[j + height] = count
                    stack[top] = j + height
                    top += 1
            sizes[count] = size
            count += 1
    return count


@njit(cache=True)
def dirty_zone(width, height, first, last, emptied, low, dirty_low):
    """Where a move (see :func:`remove_settle`) may have changed a group: columns ``lo..hi`` (returned)
    from height ``dirty_low[c]`` up: every changed cell and every neighbour of one."""
    lo = max(first - 1, 0)
    if emptied:  # the columns right of the group moved left
        for c in range(lo, width):
            dirty_low[c] = 0
        return lo, width - 1
    hi = min(last + 1, width - 1)
    for c in range(lo, hi + 1):
        d = height
        if first <= c <= last:
            d = low[c] - 1  # the cell under the lowest change is a neighbour
        if first <= c - 1 <= last:
            d = min(d, low[c - 1])
        if first <= c + 1 <= last:
            d = min(d, low[c + 1])
        dirty_low[c] = max(d, 0)
    return lo, hi


@njit(cache=True)
def _single(cells, width, height, i, c, h):
    """Whether cell ``i`` (column ``c``, height ``h``) has no neighbour of its colour."""
    colour = cells[i]
    return ((h + 1 == height or cells[i + 1] != colour)
            and (c + 1 == width or cells[i + height] != colour)
            and (h == 0 or cells[i - 1] != colour)
            and (c == 0 or cells[i - height] != colour))


# a tracked group is one int64, ordered as its canonical cell: cell << 40 | size << 24 | first column
# << 16 | last column << 8 | top height (boards are at most 64 x 64)
@njit(cache=True)
def _group_record(rep, size, first, last, top):
    return (np.int64(rep) << 40) | (np.int64(size) << 24) | (first << 16) | (last << 8) | top


@njit(cache=True)
def _flood(cells, width, height, start, seen, stamp, stack, found, new):
    """Mark the group at ``start`` with ``stamp`` and file its record in ``found``, which is kept in
    order; returns the new count."""
    # find_groups keeps its own copy of this flood fill: with one shared helper returning the group's
    # numbers, group finding measured 1.7x slower (1.13 -> 1.93 us on a full 15 x 15 board)
    colour = cells[start]
    seen[start] = stamp
    stack[0] = start
    top = 1
    size = 0
    rep = start
    first = width
    last = 0
    high = 0
    while top > 0:
        top -= 1
        j = stack[top]
        size += 1
        rep = min(rep, j)
        jc = j // height
        jh = j - jc * height
        first = min(first, jc)
        last = max(last, jc)
        high = max(high, jh)
        if jh > 0 and cells[j - 1] == colour and seen[j - 1] != stamp:
            seen[j - 1] = stamp
            stack[top] = j - 1
            top += 1
        if jh + 1 < height and cells[j + 1] == colour and seen[j + 1] != stamp:
            seen[j + 1] = stamp
            stack[top] = j + 1
            top += 1
        if jc > 0 and cells[j - height] == colour and seen[j - height] != stamp:
            seen[j - height] = stamp
            stack[top] = j - height
            top += 1
        if jc + 1 < width and cells[j + height] == colour and seen[j + height] != stamp:
            seen[j + height] = stamp
            stack[top] = j + height
            top += 1
    record = _group_record(rep, size, first, last, high)
    g = new
    while g > 0 and found[g - 1] > record:  # groups reaching left of the scan come out of order
        found[g] = found[g - 1]
        g -= 1
    found[g] = record
    return new + 1


@njit(cache=True)
def refresh_groups(cells, width, height, lo_col, hi_col, dirty_low, seen, stamp, tracked, count, found, redo,
                   stack):
    """Bring the list of groups of two or more cells up to date after a move; returns its length.

    ``tracked[:count]`` holds each group's record (:func:`_group_record`) in
    the order of their canonical cells (the order :func:`find_groups` labels
    them in). A move changes groups only through the dirty zone
    (:func:`dirty_zone`; everything, from ``lo_col`` 0 and ``dirty_low`` 0,
    to start afresh): a group whose box misses it stands; a group whose box
    meets it is dropped and found again, by a scan of the zone or, when its
    canonical cell lies outside the zone, from that cell. Flood fills mark
    cells with ``stamp``, which must be new to ``seen``.
    """
    kept = 0
    redone = 0
    for g in range(count):
        record = tracked[g]
        first = (record >> 16) & 0xFF
        last = (record >> 8) & 0xFF
        meets = False
        if last >= lo_col and first <= hi_col:
            high = record & 0xFF
            for c in range(max(first, lo_col), min(last, hi_col) + 1):
                meets = meets or high >= dirty_low[c]
        if not meets:
            tracked[kept] = record
            kept += 1
            continue
        rep = record >> 40
        if not (lo_col <= first <= hi_col and rep - first * height >= dirty_low[first]):
            redo[redone] = rep  # outside the zone the cell did not change, but its group may have
            redone += 1
    new = 0
    for c in range(lo_col, hi_col + 1):
        base = c * height
        if cells[base] == EMPTY:
            break
        for h in range(dirty_low[c], height):
            i = base + h
            if cells[i] == EMPTY:
                break
            if seen[i] != stamp and not _single(cells, width, height, i, c, h):
                new = _flood(cells, width, height, i, seen, stamp, stack, found, new)
    for r in range(redone):
        i = redo[r]
        c = i // height
        if seen[i] != stamp and not _single(cells, width, height, i, c, i - c * height):
            new = _flood(cells, width, height, i, seen, stamp, stack, found, new)
    # merge the kept and the found groups, from the back so the kept ones are not overwritten
    a = kept - 1
    b = new - 1
    for out in range(kept + new - 1, -1, -1):
        if b < 0:
            break
        if a >= 0 and tracked[a] > found[b]:
            tracked[out] = tracked[a]
            a -= 1
        else:
            tracked[out] = found[b]
            b -= 1
    return kept + new


@njit(cache=True)
def tracked_moves(cells, tracked, count, tabu, out_moves, out_sizes):
    """The tracked groups not of the ``tabu`` colour, or all of them when only that colour is left,
    as moves (canonical cells) and sizes; returns how many."""
    k = 0
    for g in range(count):
        rep = tracked[g] >> 40
        if cells[rep] != tabu:
            out_moves[k] = rep
            out_sizes[k] = (tracked[g] >> 24) & 0xFFFF
            k += 1
    if k == 0:
        for g in range(count):
            out_moves[k] = tracked[g] >> 40
            out_sizes[k] = (tracked[g] >> 24) & 0xFFFF
            k += 1
    return k


@njit(cache=True)
def remove_settle(cells, width, height, start, stack, low):
    """Remove the group containing ``start`` and settle, in place.

    Only the columns the group touched can fall, and only the columns from the
    first of them on can move left, so settling is limited to those. Returns
    (cells removed, first and last column of the group, whether a column
    emptied and the ones right of it moved left); ``low[c]`` for the group's
    columns is the lowest height whose cell changed (nothing below it fell).
    """
    colour = cells[start]
    if colour == EMPTY:
        return 0, 0, -1, False
    cells[start] = EMPTY
    stack[0] = start
    top = 1
    removed = 0
    first = width
    last = -1
    while top > 0:
        top -= 1
        j = stack[top]
        removed += 1
        jc = j // height
        jh = j - jc * height
        first = min(first, jc)
        last = max(last, jc)
        if jh > 0 and cells[j - 1] == colour:
            cells[j - 1] = EMPTY
            stack[top] = j - 1
            top += 1
        if jh + 1 < height and cells[j + 1] == colour:
            cells[j + 1] = EMPTY
            stack[top] = j + 1
            top += 1
        if jc > 0 and cells[j - height] == colour:
            cells[j - height] = EMPTY
            stack[top] = j - height
            top += 1
        if jc + 1 < width and cells[j + height] == colour:
            cells[j + height] = EMPTY
            stack[top] = j + height
            top += 1
    emptied = False
    for c in range(first, last + 1):  # gravity
        base = c * height
        write = 0
        low[c] = height
        for h in range(height):
            v = cells[base + h]
            if v != EMPTY:
                cells[base + write] = v
                write += 1
            elif low[c] == height:
                low[c] = h
        for h in range(write, height):
            cells[base + h] = EMPTY
        emptied = emptied or write == 0
    if emptied:  # close the empty columns to the left
        target = first
        c = first
        while c < width and (c <= last or cells[c * height] != EMPTY):
            if cells[c * height] != EMPTY:
                if target != c:
                    for h in range(height):
                        cells[target * height + h] = cells[c * height + h]
                target += 1
            c += 1
        for i in range(target * height, c * height):
            cells[i] = EMPTY
    return removed, first, last, emptied


@njit(cache=True)
def remove_at(cells, width, height, start, stack):
    """Remove the group containing ``start`` and settle, in place; returns the cells removed."""
    return remove_settle(cells, width, height, start, stack, stack)[0]  # the stack is free for the lows


@njit(cache=True)
def position_hash(cells, zob):
    h = np.int64(0)
    for i in range(cells.shape[0]):
        v = cells[i]
        if v != EMPTY:
            h ^= zob[i, v]
    if h == 0:
        h = 1
    return h


@njit(cache=True)
def colour_summary(cells, counts):
    """Fill ``counts`` per colour code; returns (cells left, colours with exactly one cell)."""
    for k in range(counts.shape[0]):
        counts[k] = 0
    left = 0
    for i in range(cells.shape[0]):
        v = cells[i]
        if v != EMPTY:
            counts[v] += 1
            left += 1
    dead = 0
    for k in range(counts.shape[0]):
        if counts[k] == 1:
            dead += 1
    return left, dead


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
def memo_slot(keys, key, probes=64):
    """Where ``key`` is in an open-addressing table (linear probing, at most ``probes`` slots): its
    slot, or ``-(free slot) - 1`` when absent, or ``-(table size) - 1`` when its neighbourhood is full."""
    mask = keys.shape[0] - 1
    slot = key & mask
    for _ in range(probes):
        k = keys[slot]
        if k == key:
            return slot
        if k == 0:
            return -slot - 1
        slot = (slot + 1) & mask
    return -keys.shape[0] - 1


@njit(cache=True)
def tt_seen(table, key):
    """True if ``key`` is in the table, else insert it (unless its neighbourhood is full: that loses
    pruning, never soundness)."""
    slot = memo_slot(table, key, 32)
    if slot >= 0:
        return True
    if slot > -table.shape[0] - 1:
        table[-slot - 1] = key
    return False


# -- exact search (small boards) ----------------------------------------------------------------
@njit(cache=True)
def exact_search(start, width, height, zob, table, best_init, deadline_ns, node_limit, best_path):
    """Depth-first branch and bound for the fewest cells left, with a transposition table.

    Prunes a node when its dead colours (a sound lower bound on the cells that
    will be left) reach the best result so far, and a position already seen:
    with a best that only decreases, a fully searched position cannot lead to
    anything better the second time. ``best_init`` is an upper bound already
    known (with its own sequence). Returns (best, path length or -1 if no
    better sequence was found, nodes, finished) where finished=1 means the
    search was exhausted, so ``best`` is proved minimal.
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
    label = np.empty(n, np.int32)
    sizes = np.empty(n, np.int32)
    reps = np.empty(n, np.int32)
    stack = np.empty(n, np.int32)
    label2 = np.empty(n, np.int32)
    sizes2 = np.empty(n, np.int32)
    reps2 = np.empty(n, np.int32)
    counts = np.zeros(MAX_COLOURS_CODE, np.int64)

    best = best_init
    best_len = -1
    nodes = 0
    states[0, :] = start
    left, root_bound = colour_summary(start, counts)
    if root_bound >= best:
        return best, best_len, nodes, 1
    d = 0
    enter = True
    while d >= 0:
        if enter:
            enter = False
            nodes += 1
            if nodes >= node_limit or (nodes % CHECK_EVERY == 0 and monotonic_ns() >= deadline_ns):
                return best, best_len, nodes, 0
            s = states[d]
            left, bound = colour_summary(s, counts)
            bounds[d] = bound
            if bound >= best:
                d -= 1
                continue
            if d > 0 and tt_seen(table, position_hash(s, zob)):
                d -= 1
                continue
            ng = find_groups(s, width, height, label, sizes, reps, stack)
            k = 0
            for g in range(ng):
                if sizes[g] < 2:
                    continue
                child = children[d, k]
                child[:] = s
                remove_at(child, width, height, reps[g], stack)
                child_moves[d, k] = reps[g]
                keys[k] = clear_key(child, width, height, label2, sizes2, reps2, stack, counts)
                k += 1
            if k == 0:
                if left < best:
                    best = left
                    best_len = d
                    best_path[:d] = path[:d]
                    if best <= root_bound:
                        return best, best_len, nodes, 1
                d -= 1
                continue
            order[d, :k] = np.argsort(keys[:k], kind="mergesort")
            nchild[d] = k
            nexti[d] = 0
        if nexti[d] < nchild[d] and bounds[d] < best:
            k = order[d, nexti[d]]
            nexti[d] += 1
            path[d] = child_moves[d, k]
            states[d + 1, :] = children[d, k]
            d += 1
            enter = True
        else:
            d -= 1
    return best, best_len, nodes, 1


@njit(cache=True)
def _terminal_bonus(left, penalty):
    if left == 0:
        return 1000
    if penalty and left > 2:
        return -(left - 2) * (left - 2)
    return 0


@njit(cache=True)
def playout(cells, width, height, penalty, seq, start_len, label, sizes, reps, stack, counts):
    """A random game from ``cells`` (modified in place) with the tabu-colour policy.

    The tabu colour is the one with the most cells at the start: removing its
    small groups early spoils the big final group, so they are avoided while
    any other move exists. Moves go to ``seq[start_len:]``; returns (points, length).
    """
    left, dead = colour_summary(cells, counts)
    tabu = 0
    for k in range(counts.shape[0]):
        if counts[k] > counts[tabu]:
            tabu = k
    points = 0
    length = start_len
    while True:
        ng = find_groups(cells, width, height, label, sizes, reps, stack)
        legal = 0
        preferred = 0
        for g in range(ng):
            if sizes[g] >= 2:
                legal += 1
                if cells[reps[g]] != tabu:
                    preferred += 1
        if legal == 0:
            break
        pick_tabu = preferred == 0
        choice = np.random.randint(legal if pick_tabu else preferred)
        for g in range(ng):
            if sizes[g] < 2:
                continue
            if not pick_tabu and cells[reps[g]] == tabu:
                continue
            if choice == 0:
                seq[length] = reps[g]
                length += 1
                points += (sizes[g] - 2) * (sizes[g] - 2)
                left -= sizes[g]
                remove_at(cells, width, height, reps[g], stack)
                break
            choice -= 1
    return points + _terminal_bonus(left, penalty), length


@njit(cache=True)
def _groups_to_moves(cells, ng, sizes, reps, skip_colour, out_moves, out_sizes):
    """Copy the found groups of two or more cells, except those of ``skip_colour``, to the move
    arrays; returns how many."""
    k = 0
    for g in range(ng):
        if sizes[g] >= 2 and cells[reps[g]] != skip_colour:
            out_moves[k] = reps[g]
            out_sizes[k] = sizes[g]
            k += 1
    return k


@njit(cache=True)
def _legal(cells, width, height, label, sizes, reps, stack, out_moves, out_sizes):
    ng = find_groups(cells, width, height, label, sizes, reps, stack)
    return _groups_to_moves(cells, ng, sizes, reps, EMPTY, out_moves, out_sizes)


@njit(cache=True)
def _crop(cells, width, height, out):
    """Copy the occupied bottom-left rectangle of a settled board into ``out``; returns its size."""
    used = 0
    top = 0
    while used < width and cells[used * height] != EMPTY:
        h = 0
        while h < height and cells[used * height + h] != EMPTY:
            h += 1
        if h > top:
            top = h
        used += 1
    for c in range(used):
        for h in range(top):
            out[c * top + h] = cells[c * height + h]
    return used, top


# -- beam search ---------------------------------------------------------------------------------
CLEAR = 0  # objective: fewest cells left (Clickomania)
SCORE = 1  # objective: most points (SameGame)


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
def beam_search(start, width, height, zob, beam_width, objective, penalty, deadline_ns, node_limit,
                best_path, playouts=0, endgame_cells=0, endgame_nodes=0):
    """Beam search: keep the ``beam_width`` best distinct positions (by hash) after every move.

    ``objective`` CLEAR ranks positions by :func:`clear_key` and looks for the
    fewest cells left; SCORE ranks them by :func:`score_key`, or with
    ``playouts`` > 0 by points plus the best of that many tabu-colour playouts
    (a Monte-Carlo beam; every playout's whole game is also a candidate
    answer), and looks for the most points. With ``endgame_cells`` > 0, a
    position with at most that many cells left (CLEAR) gets an
    :func:`exact_search` of at most ``endgame_nodes`` nodes on its cropped
    board, and is not expanded when that search finishes. Returns (best cost
    at a game end: cells left, or minus the points; path length or -1 when no
    game end was reached; nodes; finished).
    """
    n = width * height
    max_depth = n // 2 + 2
    max_moves = n // 2 + 1
    cur = np.empty((beam_width, n), np.int8)
    nxt = np.empty((beam_width, n), np.int8)
    cur_points = np.zeros(beam_width, np.int64)
    nxt_points = np.zeros(beam_width, np.int64)
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
    crop = np.empty(n, np.int8)
    end_path = np.empty(n, np.int32)
    table = np.zeros(1 << 15 if endgame_cells > 0 else 1, np.int64)

    cur[0, :] = start
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
            if endgame_cells > 0:
                left, dead = colour_summary(s, counts)
                if dead < best and left <= endgame_cells:
                    cw, ch = _crop(s, width, height, crop)
                    if cw * ch <= ENDGAME_MAX_AREA:
                        table[:] = 0
                        value, length, used, done = exact_search(crop[:cw * ch], cw, ch, zob, table, best,
                                                                 deadline_ns, endgame_nodes, end_path)
                        nodes += used
                        if length >= 0:
                            best = value
                            best_len = depth + length
                            j = b
                            for level in range(depth, 0, -1):
                                best_path[level - 1] = moves[level, j]
                                j = parents[level, j]
                            for k in range(length):
                                col = end_path[k] // ch
                                best_path[depth + k] = col * height + (end_path[k] - col * ch)
                            if best == 0:
                                return best, best_len, nodes, 1
                        if done == 1:
                            continue  # searched to the end: nothing below it can beat ``best``
            ng = find_groups(s, width, height, label, sizes, reps, stack)
            moved = False
            for g in range(ng):
                if sizes[g] < 2:
                    continue
                moved = True
                child[:] = s
                remove_at(child, width, height, reps[g], stack)
                if objective == CLEAR:
                    cand_key[nc] = clear_key(child, width, height, label2, sizes2, reps2, stack, counts)
                elif playouts > 0:
                    gain = (sizes[g] - 2) * (sizes[g] - 2)
                    best_rollout = -(np.int64(1) << 40)
                    for _ in range(playouts):
                        roll[:] = child
                        rp, rl = playout(roll, width, height, penalty, rseq, 0, label2, sizes2, reps2, stack,
                                         counts)
                        if rp > best_rollout:
                            best_rollout = rp
                        if -(cur_points[b] + gain + rp) < best:
                            # the playout's whole game is the best so far: keep it (anytime answer)
                            best = -(cur_points[b] + gain + rp)
                            best_len = depth + 1 + rl
                            j = b
                            for level in range(depth, 0, -1):
                                best_path[level - 1] = moves[level, j]
                                j = parents[level, j]
                            best_path[depth] = reps[g]
                            best_path[depth + 1:depth + 1 + rl] = rseq[:rl]
                    cand_key[nc] = -(cur_points[b] + gain + best_rollout)
                else:
                    gain = (sizes[g] - 2) * (sizes[g] - 2)
                    cand_key[nc] = score_key(child, width, height, cur_points[b] + gain, counts, label2,
                                             sizes2, reps2, stack)
                cand_parent[nc] = b
                cand_move[nc] = reps[g]
                cand_hash[nc] = position_hash(child, zob)
                nc += 1
                nodes += 1
                if nodes >= node_limit or (nodes % CHECK_EVERY == 0 and monotonic_ns() >= deadline_ns):
                    return best, best_len, nodes, 0
            if not moved:
                left, dead = colour_summary(s, counts)
                cost = left if objective == CLEAR else -(cur_points[b] + _terminal_bonus(left, penalty))
                if cost < best:
                    best = cost
                    best_len = depth
                    j = b
                    for level in range(depth, 0, -1):
                        best_path[level - 1] = moves[level, j]
                        j = parents[level, j]
                    if objective == CLEAR and best == 0:
                        return best, best_len, nodes, 1
        if nc == 0:
            break
        ranked = np.argsort(cand_key[:nc], kind="mergesort")
        seen[:] = 0
        size = 0
        depth += 1
        for r in range(nc):
            i = ranked[r]
            if tt_seen(seen, cand_hash[i]):
                continue
            nxt[size, :] = cur[cand_parent[i]]
            removed = remove_at(nxt[size], width, height, cand_move[i], stack)
            nxt_points[size] = cur_points[cand_parent[i]] + (removed - 2) * (removed - 2)
            parents[depth, size] = cand_parent[i]
            moves[depth, size] = cand_move[i]
            size += 1
            if size == beam_width:
                break
        cur, nxt = nxt, cur
        cur_points, nxt_points = nxt_points, cur_points
    return best, best_len, nodes, 1


@njit(cache=True)
def seed_kernels(seed):
    """Seed the random generator the kernels' playouts use (numba keeps its own)."""
    np.random.seed(seed)


# -- SameGame: nested Monte-Carlo search --------------------------------------------------------
@njit(cache=True)
def _nested_loop(start, width, height, level, penalty, deadline_ns, best_seq):
    """One nested Monte-Carlo search of ``level`` 1 or 2 (level 2 calls :func:`_level_one`).

    At every step each move is tried with a search one level lower, the best
    whole game seen so far is remembered, and its next move is played. When
    the deadline passes, the rest of the best game is followed without more
    search, so a complete sequence is always returned: (points, length, playouts).
    """
    n = width * height
    label = np.empty(n, np.int32)
    sizes = np.empty(n, np.int32)
    reps = np.empty(n, np.int32)
    stack = np.empty(n, np.int32)
    counts = np.zeros(MAX_COLOURS_CODE, np.int64)
    state = start.copy()
    moves = np.empty(n, np.int32)
    msizes = np.empty(n, np.int32)
    child = np.empty(n, np.int8)
    trial = np.empty(n, np.int32)
    best_points = -(1 << 40)
    best_len = 0
    played = 0
    gained = 0
    playouts = 0
    while True:
        k = _legal(state, width, height, label, sizes, reps, stack, moves, msizes)
        if k == 0:
            break
        if monotonic_ns() < deadline_ns:
            for m in range(k):
                child[:] = state
                remove_at(child, width, height, moves[m], stack)
                step = (msizes[m] - 2) * (msizes[m] - 2)
                if level <= 1:
                    points, length = playout(child, width, height, penalty, trial, 0,
                                             label, sizes, reps, stack, counts)
                    playouts += 1
                else:
                    points, length, more = _level_one(child, width, height, penalty, deadline_ns, trial)
                    playouts += more
                total = gained + step + points
                if total > best_points:
                    best_points = total
                    best_seq[played] = moves[m]
                    best_seq[played + 1:played + 1 + length] = trial[:length]
                    best_len = played + 1 + length
                if monotonic_ns() >= deadline_ns:
                    break
        if played >= best_len:
            # no whole game recorded yet (out of time at once): play the first move
            best_seq[played] = moves[0]
            best_len = played + 1
        move = best_seq[played]
        removed = remove_at(state, width, height, move, stack)
        gained += (removed - 2) * (removed - 2)
        played += 1
    left = 0
    for i in range(n):
        if state[i] != EMPTY:
            left += 1
    return gained + _terminal_bonus(left, penalty), played, playouts


@njit(cache=True)
def _level_one(start, width, height, penalty, deadline_ns, best_seq):
    """Level-1 nested search: the same loop with playouts below (kept apart: no recursion in kernels)."""
    n = width * height
    label = np.empty(n, np.int32)
    sizes = np.empty(n, np.int32)
    reps = np.empty(n, np.int32)
    stack = np.empty(n, np.int32)
    counts = np.zeros(MAX_COLOURS_CODE, np.int64)
    state = start.copy()
    moves = np.empty(n, np.int32)
    msizes = np.empty(n, np.int32)
    child = np.empty(n, np.int8)
    trial = np.empty(n, np.int32)
    best_points = -(1 << 40)
    best_len = 0
    played = 0
    gained = 0
    playouts = 0
    while True:
        k = _legal(state, width, height, label, sizes, reps, stack, moves, msizes)
        if k == 0:
            break
        if monotonic_ns() < deadline_ns:
            for m in range(k):
                child[:] = state
                remove_at(child, width, height, moves[m], stack)
                step = (msizes[m] - 2) * (msizes[m] - 2)
                points, length = playout(child, width, height, penalty, trial, 0,
                                         label, sizes, reps, stack, counts)
                playouts += 1
                total = gained + step + points
                if total > best_points:
                    best_points = total
                    best_seq[played] = moves[m]
                    best_seq[played + 1:played + 1 + length] = trial[:length]
                    best_len = played + 1 + length
        if played >= best_len:
            best_seq[played] = moves[0]
            best_len = played + 1
        move = best_seq[played]
        removed = remove_at(state, width, height, move, stack)
        gained += (removed - 2) * (removed - 2)
        played += 1
    left = 0
    for i in range(n):
        if state[i] != EMPTY:
            left += 1
    return gained + _terminal_bonus(left, penalty), played, playouts


@njit(cache=True)
def nmcs(start, width, height, level, penalty, seed, deadline_ns, best_seq):
    """Nested Monte-Carlo search of ``level`` 0 (one playout), 1 or 2 from ``start``.

    Returns (points, length, playouts); the moves go to ``best_seq``.
    """
    np.random.seed(seed)
    if level <= 0:
        n = width * height
        state = start.copy()
        points, length = playout(state, width, height, penalty, best_seq, 0, np.empty(n, np.int32),
                                 np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32),
                                 np.zeros(MAX_COLOURS_CODE, np.int64))
        return points, length, 1
    return _nested_loop(start, width, height, level, penalty, deadline_ns, best_seq)


# -- SameGame: nested rollout policy adaptation (NRPA) -----------------------------------------
NRPA_ALPHA = 1.0
NO_VALUE = -(1 << 40)  # below any score: no game yet


@njit(cache=True)
def most_frequent_colour(cells, counts):
    """The colour with the most cells (the tabu colour: its groups are kept to merge late)."""
    colour_summary(cells, counts)
    tabu = 0
    for k in range(counts.shape[0]):
        if counts[k] > counts[tabu]:
            tabu = k
    return tabu


@njit(cache=True)
def _allowed_moves(cells, width, height, tabu, label, sizes, reps, stack, out_moves, out_sizes):
    """The moves a policy chooses among: the legal moves not of the tabu colour, or all when only
    tabu-colour moves are left. Returns their count (0 at the end of the game)."""
    ng = find_groups(cells, width, height, label, sizes, reps, stack)
    k = _groups_to_moves(cells, ng, sizes, reps, tabu, out_moves, out_sizes)
    if k == 0:
        k = _groups_to_moves(cells, ng, sizes, reps, EMPTY, out_moves, out_sizes)
    return k


@njit(cache=True)
def move_code(cells, move, n):
    """A move's policy code: (colour, canonical cell) as ``colour * n + cell``."""
    return cells[move] * n + move


@njit(cache=True)
def _move_codes(state, n, k, moves, label, keys, mask, group_hash, out):
    """Policy codes of the ``k`` moves: (colour, canonical cell) when ``keys`` is empty, else the
    group's own cells and colour hashed (xor of per-cell keys and a colour key) into ``mask + 1`` slots.

    ``label`` must be the group labels of ``state`` (from the last :func:`find_groups`).
    """
    if keys.shape[0] == 0:
        for m in range(k):
            out[m] = move_code(state, moves[m], n)
        return
    for m in range(k):
        group_hash[label[moves[m]]] = 0
    for i in range(n):
        if state[i] != EMPTY:
            group_hash[label[i]] ^= keys[i]
    for m in range(k):
        out[m] = (group_hash[label[moves[m]]] ^ keys[n + state[moves[m]]]) & mask


@njit(cache=True)
def _start_tracking(n, width, label):
    """Arrays for :func:`refresh_groups` (the tracked and found records, the groups to flood again,
    each move's lows and dirty zone) and a first zone that is the whole board; ``label`` is
    cleared to serve as the stamps."""
    label[:] = 0
    return (np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int32), np.empty(width, np.int32),
            np.zeros(width, np.int32), (0, width - 1))


@njit(cache=True)
def _play_tracked(state, width, height, move, stack, low, dirty_low):
    """Play ``move`` and return the dirty zone it leaves (:func:`dirty_zone`)."""
    _, first, last, emptied = remove_settle(state, width, height, move, stack, low)
    return dirty_zone(width, height, first, last, emptied, low, dirty_low)


@njit(cache=True)
def _next_moves(state, width, height, tabu, zone, dirty_low, tracking, stamp, label, sizes, reps, stack,
                tracked, count, found, redo, moves, msizes):
    """The allowed moves of ``state`` (see :func:`_allowed_moves`); returns (their number, the
    tracked group count). With ``tracking`` the groups are kept up to date by
    :func:`refresh_groups` over the dirty ``zone`` (``label`` serves as its stamps); else they are
    found from scratch."""
    if tracking:
        count = refresh_groups(state, width, height, zone[0], zone[1], dirty_low, label, stamp, tracked,
                               count, found, redo, stack)
        return tracked_moves(state, tracked, count, tabu, moves, msizes), count
    return _allowed_moves(state, width, height, tabu, label, sizes, reps, stack, moves, msizes), 0


@njit(cache=True)
def policy_playout(start, width, height, policy, tabu, penalty, seq, state, label, sizes, reps, stack,
                   moves, msizes, weights, keys, mask, group_hash, mcodes):
    """A game from ``start`` choosing each allowed move with probability proportional to
    exp(policy[code]); moves go to ``seq``. Returns (points, length)."""
    n = width * height
    state[:] = start
    points = 0
    length = 0
    left = 0
    for i in range(n):
        if state[i] != EMPTY:
            left += 1
    # (colour, cell) codes need no labels, so the groups are tracked from move to move
    tracking = keys.shape[0] == 0
    tracked, found, redo, low, dirty_low, zone = _start_tracking(n, width, label)
    count = 0
    while True:
        k, count = _next_moves(state, width, height, tabu, zone, dirty_low, tracking, length + 1, label,
                               sizes, reps, stack, tracked, count, found, redo, moves, msizes)
        if k == 0:
            break
        _move_codes(state, n, k, moves, label, keys, mask, group_hash, mcodes)
        top = policy[mcodes[0]]
        for m in range(1, k):
            top = max(top, policy[mcodes[m]])
        total = 0.0
        for m in range(k):
            w = np.exp(policy[mcodes[m]] - top)  # shifted by the largest weight: exp never overflows
            weights[m] = w
            total += w
        r = np.random.random() * total
        pick = k - 1
        for m in range(k):
            r -= weights[m]
            if r <= 0.0:
                pick = m
                break
        seq[length] = moves[pick]
        length += 1
        points += (msizes[pick] - 2) * (msizes[pick] - 2)
        left -= msizes[pick]
        zone = _play_tracked(state, width, height, moves[pick], stack, low, dirty_low)
    return points + _terminal_bonus(left, penalty), length


@njit(cache=True)
def sequence_codes(start, width, height, seq, length, tabu, state, label, sizes, reps, stack, moves, msizes,
                   step_start, codes, chosen, keys, mask, group_hash, mcodes):
    """Replay ``seq`` and record, per step, the codes of the allowed moves and of the move played.

    Step t's allowed codes are ``codes[step_start[t]:step_start[t + 1]]``. They
    depend only on the sequence, so a level can keep them while its best game
    stays the same and adapt without touching a board.
    """
    n = width * height
    state[:] = start
    # (colour, cell) codes need no labels, so the groups are tracked from move to move
    tracking = keys.shape[0] == 0
    tracked, found, redo, low, dirty_low, zone = _start_tracking(n, width, label)
    count = 0
    total = 0
    for step in range(length):
        step_start[step] = total
        k, count = _next_moves(state, width, height, tabu, zone, dirty_low, tracking, step + 1, label, sizes,
                               reps, stack, tracked, count, found, redo, moves, msizes)
        _move_codes(state, n, k, moves, label, keys, mask, group_hash, mcodes)
        for m in range(k):
            codes[total] = mcodes[m]
            total += 1
            if moves[m] == seq[step]:
                chosen[step] = mcodes[m]
        zone = _play_tracked(state, width, height, seq[step], stack, low, dirty_low)
    step_start[length] = total
    return total


@njit(cache=True)
def adapt_codes(policy, step_start, codes, chosen, length, alpha, delta):
    """NRPA's update from recorded codes: every probability is taken under the old policy, so the
    changes are gathered in ``delta`` first and applied after."""
    for step in range(length):
        lo = step_start[step]
        hi = step_start[step + 1]
        top = policy[codes[lo]] if hi > lo else 0.0
        for j in range(lo, hi):
            top = max(top, policy[codes[j]])
        z = 0.0
        for j in range(lo, hi):
            w = np.exp(policy[codes[j]] - top)
            delta[j] = w
            z += w
        for j in range(lo, hi):
            delta[j] = -alpha * delta[j] / z
    for step in range(length):
        for j in range(step_start[step], step_start[step + 1]):
            policy[codes[j]] += delta[j]
        policy[chosen[step]] += alpha


@njit(cache=True)
def adapt_policy(start, width, height, policy, seq, length, tabu, alpha, state, label, sizes, reps, stack,
                 moves, msizes, keys, mask):
    """NRPA's update, in place: raise the code of every move of ``seq`` by ``alpha`` and lower each
    allowed move's code by ``alpha`` times its probability under the old policy."""
    n = width * height
    step_start = np.empty(length + 1, np.int64)
    codes = np.empty(max(1, length * n), np.int64)
    chosen = np.empty(max(1, length), np.int64)
    delta = np.empty(codes.shape[0], np.float64)
    sequence_codes(start, width, height, seq, length, tabu, state, label, sizes, reps, stack, moves, msizes,
                   step_start, codes, chosen, keys, mask, np.empty(n, np.int64), np.empty(n, np.int64))
    adapt_codes(policy, step_start, codes, chosen, length, alpha, delta)


def nrpa_state(n, level, hash_bits=0, seed=0):
    """Fresh search state for :func:`nrpa_run` on an ``n``-cell board: (keys, policies, best points,
    length and moves of each level's best game, iterations done per level). ``keys`` hash a group's
    cells and colour into 2^hash_bits policy codes (empty: codes are (colour, canonical cell))."""
    if hash_bits > 0:
        keys = np.random.default_rng(seed).integers(1, 1 << 62, n + MAX_COLOURS_CODE, dtype=np.int64)
        codes = 1 << hash_bits
    else:
        keys = np.empty(0, np.int64)
        codes = MAX_COLOURS_CODE * n
    return (keys, np.zeros((level + 1, codes), np.float64), np.full(level + 1, NO_VALUE, np.int64),
            np.zeros(level + 1, np.int64), np.zeros((level + 1, n), np.int32), np.zeros(level + 1, np.int64))


def nrpa(start, width, height, level, iterations, penalty, seed, deadline_ns, playout_limit, best_seq,
         hash_bits=0, tabu=-1):
    """One :func:`nrpa_run` from a fresh state; returns (points, length, playouts)."""
    state = nrpa_state(width * height, level, hash_bits, seed)
    return nrpa_run(start, width, height, level, iterations, penalty, seed, deadline_ns, playout_limit,
                    best_seq, tabu, *state, False)


@njit(cache=True)
def nrpa_run(start, width, height, level, iterations, penalty, seed, deadline_ns, playout_limit, best_seq,
             tabu, keys, policies, level_best, level_len, level_seq, level_iter, resume):
    """Nested rollout policy adaptation (Rosin 2011) from ``start``, restarted until the deadline.

    Level 1 plays ``iterations`` policy playouts, adapting its policy towards
    the best game after each; level L runs ``iterations`` searches of level
    L-1, each from a copy of its policy, and adapts towards the best game they
    return. The recursion is unrolled onto per-level arrays (kernels do not
    recurse), which are the search's whole state (:func:`nrpa_state`): with
    ``resume`` the search goes on where a run that stopped left them.
    Playouts never take the tabu colour (-1: the most frequent one at the
    start) while another move exists. A move's code is (colour, canonical
    cell), or with ``keys`` a hash of its colour and all its cells. Returns
    (points, length, playouts) of the best game seen (on resuming, the best
    that the state still holds counts); its moves go to ``best_seq``.
    """
    np.random.seed(seed)
    n = width * height
    mask = policies.shape[1] - 1
    group_hash = np.empty(n, np.int64)
    mcodes = np.empty(n, np.int64)
    # the recorded codes of level 1's best game (recorded again whenever it changes) and a spare set
    step_start = np.zeros(n + 1, np.int64)
    seq_codes = np.empty(n * n // 8 + n, np.int64)  # at most (cells left)/2 moves allowed per step
    chosen = np.empty(n, np.int64)
    delta = np.empty(seq_codes.shape[0], np.float64)
    step_start2 = np.empty(n + 1, np.int64)
    seq_codes2 = np.empty(seq_codes.shape[0], np.int64)
    chosen2 = np.empty(n, np.int64)
    label = np.empty(n, np.int32)
    sizes = np.empty(n, np.int32)
    reps = np.empty(n, np.int32)
    stack = np.empty(n, np.int32)
    moves = np.empty(n, np.int32)
    msizes = np.empty(n, np.int32)
    weights = np.empty(n, np.float64)
    state = np.empty(n, np.int8)
    seq = np.empty(n, np.int32)
    counts = np.zeros(MAX_COLOURS_CODE, np.int64)
    if tabu < 0:
        tabu = most_frequent_colour(start, counts)
    best = -(np.int64(1) << 40)
    best_len = 0
    playouts = 0
    out_of_time = False
    fresh = not resume
    cur = 1  # a run always stops inside level 1, so that is where a resumed one goes on
    if resume:
        for lv in range(1, level + 1):
            if level_best[lv] > best:
                best = level_best[lv]
                best_len = level_len[lv]
                best_seq[:best_len] = level_seq[lv, :best_len]
        if level_best[1] > NO_VALUE:
            sequence_codes(start, width, height, level_seq[1], level_len[1], tabu, state, label, sizes,
                           reps, stack, moves, msizes, step_start, seq_codes, chosen, keys, mask, group_hash,
                           mcodes)
    while not out_of_time:
        if fresh:
            policies[level, :] = 0.0
            level_best[level] = NO_VALUE
            level_iter[level] = 0
            cur = _descend(level, policies, level_best, level_iter)
        fresh = True
        while True:
            # here cur == 1: playouts, each followed by an adaptation towards level 1's best game
            pol = policies[1]
            while level_iter[1] < iterations:
                if playouts >= playout_limit or monotonic_ns() >= deadline_ns:
                    out_of_time = True
                    break
                points, length = policy_playout(start, width, height, pol, tabu, penalty, seq, state,
                                                label, sizes, reps, stack, moves, msizes, weights, keys, mask,
                                                group_hash, mcodes)
                playouts += 1
                if points >= level_best[1]:
                    level_best[1] = points
                    level_len[1] = length
                    level_seq[1, :length] = seq[:length]
                    sequence_codes(start, width, height, seq, length, tabu, state, label, sizes, reps, stack,
                                   moves, msizes, step_start, seq_codes, chosen, keys, mask, group_hash,
                                   mcodes)
                    if points > best:
                        best = points
                        best_len = length
                        best_seq[:length] = seq[:length]
                adapt_codes(pol, step_start, seq_codes, chosen, level_len[1], NRPA_ALPHA, delta)
                level_iter[1] += 1
            if out_of_time:
                break
            # return upwards: fold each finished level's best game into its parent and adapt the
            # parent's policy, until a level with iterations left (or the top) is reached
            while cur < level:
                parent = cur + 1
                length = level_len[cur]
                if level_best[cur] >= level_best[parent]:
                    level_best[parent] = level_best[cur]
                    level_len[parent] = length
                    level_seq[parent, :length] = level_seq[cur, :length]
                sequence_codes(start, width, height, level_seq[parent], level_len[parent], tabu, state,
                               label, sizes, reps, stack, moves, msizes, step_start2, seq_codes2, chosen2,
                               keys, mask, group_hash, mcodes)
                adapt_codes(policies[parent], step_start2, seq_codes2, chosen2, level_len[parent], NRPA_ALPHA,
                            delta)
                level_iter[parent] += 1
                cur = parent
                if level_iter[cur] < iterations:
                    break
            if cur == level and level_iter[cur] >= iterations:
                break  # the whole search is done: restart it with fresh policies
            cur = _descend(cur, policies, level_best, level_iter)
    return best, best_len, playouts


@njit(cache=True)
def _descend(cur, policies, level_best, level_iter):
    """Enter level ``cur - 1`` ... down to 1, each starting from a copy of its parent's policy."""
    while cur > 1:
        child = cur - 1
        policies[child, :] = policies[cur]
        level_best[child] = -(np.int64(1) << 40)
        level_iter[child] = 0
        cur = child
    return cur


# -- exact SameGame endgames ------------------------------------------------------------------------


@njit(cache=True)
def endgame_value(start, width, height, zob, keys, values, best_moves, penalty, node_limit, deadline_ns):
    """The most points still to come from ``start`` (end bonus included): a memoised exhaustive search.

    A position's value does not depend on how it was reached, so ``keys`` /
    ``values`` / ``best_moves`` (one table, zeroed keys to start) serve every
    call on the same board, and each call reuses what earlier calls proved.
    Only fully searched positions are stored. Returns (value, nodes, complete);
    when the node limit, the deadline or a full table stops it, complete is 0
    and the value is :data:`NO_VALUE`.
    """
    n = width * height
    occupied = 0
    for i in range(n):
        if start[i] != EMPTY:
            occupied += 1
    max_depth = occupied // 2 + 2
    states = np.empty((max_depth, n), np.int8)
    moves = np.empty((max_depth, occupied // 2 + 1), np.int32)
    nmoves = np.zeros(max_depth, np.int64)
    nexti = np.zeros(max_depth, np.int64)
    best = np.zeros(max_depth, np.int64)
    bestm = np.zeros(max_depth, np.int32)
    gain = np.zeros(max_depth, np.int64)  # points of the move that led to each depth
    hashes = np.zeros(max_depth, np.int64)
    left = np.zeros(max_depth, np.int64)
    label = np.empty(n, np.int32)
    sizes = np.empty(n, np.int32)
    reps = np.empty(n, np.int32)
    stack = np.empty(n, np.int32)
    msizes = np.empty(n, np.int32)
    child = np.empty(n, np.int8)
    slot = memo_slot(keys, position_hash(start, zob))
    if slot >= 0:
        return values[slot], 0, 1
    nodes = 0
    states[0, :] = start
    hashes[0] = position_hash(start, zob)
    left[0] = occupied
    d = 0
    enter = True
    while True:
        if enter:
            enter = False
            nodes += 1
            if nodes >= node_limit or (nodes % CHECK_EVERY == 0 and monotonic_ns() >= deadline_ns):
                return NO_VALUE, nodes, 0
            k = _legal(states[d], width, height, label, sizes, reps, stack, moves[d], msizes)
            nmoves[d] = k
            nexti[d] = 0
            best[d] = _terminal_bonus(left[d], penalty) if k == 0 else NO_VALUE
            bestm[d] = -1
        if nexti[d] < nmoves[d]:
            move = moves[d, nexti[d]]
            nexti[d] += 1
            child[:] = states[d]
            removed = remove_at(child, width, height, move, stack)
            points = (removed - 2) * (removed - 2)
            key = position_hash(child, zob)
            slot = memo_slot(keys, key)
            if slot >= 0:  # already solved: no need to go down
                if points + values[slot] > best[d]:
                    best[d] = points + values[slot]
                    bestm[d] = move
                continue
            d += 1
            states[d, :] = child
            hashes[d] = key
            gain[d] = points
            left[d] = left[d - 1] - removed
            enter = True
            continue
        # every move of depth d is searched: store its value and hand it to the parent
        slot = memo_slot(keys, hashes[d])
        if slot == -keys.shape[0] - 1:
            return NO_VALUE, nodes, 0
        if slot < 0:
            slot = -slot - 1
        keys[slot] = hashes[d]
        values[slot] = best[d]
        best_moves[slot] = bestm[d]
        if d == 0:
            return best[0], nodes, 1
        value = gain[d] + best[d]
        d -= 1
        if value > best[d]:
            best[d] = value
            bestm[d] = moves[d, nexti[d] - 1]


@njit(cache=True)
def endgame_line(start, width, height, zob, keys, values, best_moves, out):
    """The best line from ``start`` read back from a table that :func:`endgame_value` completed for
    it; its moves go to ``out``. Returns the length, or -1 if a position on the way is missing."""
    n = width * height
    state = start.copy()
    stack = np.empty(n, np.int32)
    length = 0
    while True:
        slot = memo_slot(keys, position_hash(state, zob))
        if slot < 0:
            return -1
        move = best_moves[slot]
        if move < 0:
            return length
        out[length] = move
        length += 1
        remove_at(state, width, height, move, stack)
