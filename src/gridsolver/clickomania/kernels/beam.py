"""The anytime beam search for the fewest cells left, with exact endgames (numba kernels).

:func:`clear_beam` is the solver's beam: it ranks children from the cells a
move changed, not by a scan of each whole child. Its parts serve a beam with
another objective too (SameGame's beams build on them): level 0
(:func:`beam_start`), the next beam from the ranked children
(:func:`next_beam`), a slot's moves traced back (:func:`trace_path`), and
the exact search of a small enough slot's ending (:func:`_endgame`).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.exact import DEAD_WEIGHT, exact_search_growing, tt_seen
from gridsolver.clickomania.kernels.groups import (
    CHECK_EVERY,
    EMPTY,
    MAX_COLOURS_CODE,
    colour_summary,
    find_groups,
    group_scratch,
    is_single,
    remove_at,
    remove_settle,
)
from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.clock import budget_check
from gridsolver.core.kernels.watch import report_best

# largest cropped board (cells) a beam position's endgame search runs on (1,600 cleared no more
# tuning boards)
ENDGAME_MAX_AREA = 400

#: A beam's levels: ``positions[depth % 2]`` is the beam at ``depth`` (the next level is written into
#: the other half); ``parents`` and ``moves`` (per depth and slot) trace a slot's moves back;
#: ``removed``: the cells the move into each slot of the newest level removed.
Levels = namedtuple("Levels", "positions parents moves removed")
#: One level's children, ranked: ``key`` (smaller is better), ``parent`` slot, ``move`` (a cell of the
#: group clicked) and the child's position ``hash``; ``seen`` keeps the next level's hashes distinct.
Children = namedtuple("Children", "key parent move hash seen")
#: How a beam searches a slot's ending exactly (:func:`endgames`): the cropped board, the
#: transposition table and its count of slots in use, the path found, and the limits of each search
#: (the deadline, in ns of the monotonic clock, and its nodes).
Endgames = namedtuple("Endgames", "crop table table_slots path deadline_ns nodes")
#: Per cell, sums over its column from it up (:func:`column_suffixes`): single cells, links within the
#: column, links - squares to the next column, and the xor of the Zobrist keys.
Suffixes = namedtuple("Suffixes", "single link side key")
#: A clearing beam's settings (:func:`clear_beam`, made by :func:`clear_plan`).
ClearPlan = namedtuple("ClearPlan",
                       "beam_width endgame_cells endgame_nodes single_weight piece_weight tie_seed")


@njit(cache=True)
def beam_levels(beam_width, n):
    """The :data:`Levels` of a beam of ``beam_width`` positions of ``n`` cells."""
    max_depth = n // 2 + 2  # every move removes at least two cells
    return Levels(np.empty((2, beam_width, n), np.int8), np.empty((max_depth, beam_width), np.int32),
                  np.empty((max_depth, beam_width), np.int32), np.empty(beam_width, np.int64))


@njit(cache=True)
def beam_children(beam_width, n):
    """Room for the :data:`Children` of a full level (each position has at most n/2 + 1 moves)."""
    cap = beam_width * (n // 2 + 1)
    seen = np.zeros(1 << max(4, int(np.ceil(np.log2(beam_width * 4)))), np.int64)
    return Children(np.empty(cap, np.int64), np.empty(cap, np.int32), np.empty(cap, np.int32),
                    np.empty(cap, np.int64), seen)


@njit(cache=True)
def crop_board(cells, width, height, out):
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


@njit(cache=True, inline="always")
def beam_start(levels, start):
    """Level 0 of a beam: ``start`` alone. Returns (its size, the best value so far: none, 2^40; its
    path length: none, -1; nodes; depth)."""
    copy_prefix(levels.positions[0, 0], start, start.shape[0])
    # np.int64 throughout: from literals numba would compile what they are passed to once more
    return np.int64(1), np.int64(1) << 40, np.int64(-1), np.int64(0), np.int64(0)


@njit(cache=True)
def trace_path(best_path, levels, depth, b):
    """Write the moves that led to beam slot ``b`` at ``depth`` into ``best_path[:depth]``."""
    j = b
    for level in range(depth, 0, -1):
        best_path[level - 1] = levels.moves[level, j]
        j = levels.parents[level, j]


@njit(cache=True)
def endgames(n, table_size, deadline_ns, nodes):
    """:class:`Endgames` for a board of ``n`` cells: a table of ``table_size`` slots, each search
    stopping at ``deadline_ns`` or after ``nodes`` nodes."""
    return Endgames(np.empty(n, np.int8), np.zeros(table_size, np.int64), np.zeros(1, np.int64),
                    np.empty(n, np.int32), deadline_ns, nodes)


@njit(cache=True)
def _endgame(s, width, height, zob, best, ending, best_path, levels, depth, b):
    """The exact search on beam slot ``b``'s cropped board, if small enough, with ``best`` as the
    bound; a game end it finds below ``best`` is written whole into ``best_path``.

    Returns (value, moves after ``depth`` or -1, nodes used, whether the search finished)."""
    crop, end_path = ending.crop, ending.path
    cw, ch = crop_board(s, width, height, crop)
    if cw * ch > ENDGAME_MAX_AREA:
        return best, -1, 0, False
    ending.table[:] = 0
    # exact_search_growing with a table that never grows (0 slots more), called directly: through
    # the exact_search wrapper it compiled one kernel more
    value, length, used, done = exact_search_growing(
        crop[:cw * ch], cw, ch, zob, ending.table, np.int64(0), best, ending.deadline_ns, ending.nodes,
        end_path, ending.table_slots)
    if length >= 0:
        trace_path(best_path, levels, depth, b)
        for k in range(length):
            col = end_path[k] // ch
            best_path[depth + k] = col * height + (end_path[k] - col * ch)
    return value, length, used, done


@njit(cache=True)
def next_beam(children, nc, levels, depth, width, height, stack):
    """Fill level ``depth`` of ``levels`` with the best-ranked distinct children (by hash) of the
    level before, as many as it has room for; their parents and moves go in at ``depth``, the cells
    each move removed in ``levels.removed``. Returns how many were kept."""
    n = width * height
    cur = levels.positions[(depth - 1) & 1]
    nxt = levels.positions[depth & 1]
    ranked = np.argsort(children.key[:nc], kind="mergesort")
    children.seen[:] = 0
    size = 0
    for r in range(nc):
        i = ranked[r]
        if tt_seen(children.seen, children.hash[i]):
            continue
        copy_prefix(nxt[size], cur[children.parent[i]], n)
        levels.removed[size] = remove_at(nxt[size], width, height, children.move[i], stack)
        levels.parents[depth, size] = children.parent[i]
        levels.moves[depth, size] = children.move[i]
        size += 1
        if size == nxt.shape[0]:
            break
    return size


# -- the clearing beam: children ranked from the cells a move changed ---------------------------
# Ranking a child by finding all its groups costs a scan of the whole board (4,096 cells at 64 x 64)
# for each of hundreds of children per position. A move only changes the cells of the columns it
# touched from its lowest removed cell up (and every column from its first on when a column
# empties), so the ranking below uses features that change only there and around: single cells,
# pairs of orthogonal neighbours of one colour ("links"), 2 x 2 squares of one colour, colour counts
# and the Zobrist hash. The box scanned holds every changed cell and its neighbours, so (child -
# parent) over the box is the change over the board.

CLEAR_SINGLE_WEIGHT = 2  # a single cell is the next thing to a dead one
CLEAR_PIECE_WEIGHT = 1  # pieces = cells - links + squares: the group count while no group has a hole
TIE_BITS = 4  # low bits of a ranking key left for random tie-breaks
# random amount added to a ranking key: 1 << TIE_BITS only breaks ties (noise of up to two ranking
# units instead halved the tuning boards cleared)
TIE_NOISE = 1 << TIE_BITS


@njit(cache=True)
def scan_box(cells, width, height, c0, c1, h0, zob):
    """(single cells, links, squares, xor of Zobrist keys) over columns ``c0..c1`` from height ``h0`` up.

    A link (two orthogonal neighbours of one colour) or a square (2 x 2 cells of one colour) counts
    when all its cells are in the box; a cell is single when none of its four neighbours (in the box
    or not) has its colour. Cells - links + squares is the number of groups (Euler's formula), as
    long as no group encloses a hole.
    """
    singles = 0
    links = 0
    squares = 0
    key = np.int64(0)
    c_first = max(c0, 0)
    c_last = min(c1, width - 1)
    for c in range(c_first, c_last + 1):
        base = c * height
        for h in range(h0, height):
            i = base + h
            v = cells[i]
            if v == EMPTY:
                break
            key ^= zob[i, v]
            up = h + 1 < height and cells[i + 1] == v
            if up:
                links += 1
            if c < c_last and cells[i + height] == v:
                links += 1
                if up and cells[i + height + 1] == v:
                    squares += 1
            if is_single(cells, width, height, i, c, h):
                singles += 1
    return singles, links, squares, key


@njit(cache=True)
def column_suffixes(cells, width, height, zob, suffixes):
    """Fill ``suffixes`` (:class:`Suffixes`): per cell ``c * height + h``, sums over column ``c`` from
    height ``h`` up of: single cells, links within the column, links - squares to column ``c + 1``,
    and the xor of the Zobrist keys.

    With them a box of the board is summed column by column (:func:`box_from_suffixes`) instead of
    cell by cell: the parent's side of every child's change costs a few additions.
    """
    suffix_single, suffix_link, suffix_side, suffix_key = suffixes
    for c in range(width):
        base = c * height
        single = 0
        link = 0
        side = 0
        key = np.int64(0)
        for h in range(height - 1, -1, -1):
            i = base + h
            v = cells[i]
            if v != EMPTY:
                key ^= zob[i, v]
                up = h + 1 < height and cells[i + 1] == v
                if up:
                    link += 1
                if c + 1 < width and cells[i + height] == v:
                    side += 1
                    if up and cells[i + height + 1] == v:
                        side -= 1
                if is_single(cells, width, height, i, c, h):
                    single += 1
            suffix_single[i] = single
            suffix_link[i] = link
            suffix_side[i] = side
            suffix_key[i] = key


@njit(cache=True)
def box_from_suffixes(width, height, c0, c1, h0, suffixes):
    """What :func:`scan_box` gives for the same box, as (single cells, links - squares, key xor)."""
    suffix_single, suffix_link, suffix_side, suffix_key = suffixes
    singles = 0
    links = 0
    key = np.int64(0)
    c_first = max(c0, 0)
    c_last = min(c1, width - 1)
    for c in range(c_first, c_last + 1):
        i = c * height + h0
        singles += suffix_single[i]
        links += suffix_link[i]
        if c < c_last:
            links += suffix_side[i]
        key ^= suffix_key[i]
    return singles, links, key


@njit(cache=True)
def child_change(parent, child, width, height, move, zob, low, suffixes):
    """The change a move makes: (cells removed, change in single cells, change in links - squares,
    xor turning the parent's hash into the child's).

    ``child`` must equal ``parent`` and is equal to it again on return (the move is played on it,
    measured and undone); the suffixes are :func:`column_suffixes` of ``parent``.
    """
    removed, first, last, emptied = remove_settle(child, width, height, move, low, low)
    if emptied:
        c0, c1, h0 = first - 1, width - 1, 0
    else:
        h0 = height
        for c in range(first, last + 1):
            h0 = min(h0, low[c])
        c0, c1, h0 = first - 1, last + 1, max(h0 - 1, 0)
    s_old, l_old, k_old = box_from_suffixes(width, height, c0, c1, h0, suffixes)
    s_new, l_new, q_new, k_new = scan_box(child, width, height, c0, c1, h0, zob)
    if emptied:
        for i in range(first * height, width * height):
            child[i] = parent[i]
    else:
        for c in range(first, last + 1):
            for i in range(c * height + low[c], (c + 1) * height):
                child[i] = parent[i]
    return removed, s_new - s_old, (l_new - q_new) - l_old, k_old ^ k_new


@njit(cache=True)
def clear_rank(dead, singles, links, left, single_weight, piece_weight):
    """The clearing beam's ranking (smaller is better): dead colours first, then single cells and
    pieces (cells - ``links``, where ``links`` is links - squares: the group count)."""
    return dead * DEAD_WEIGHT + single_weight * singles + piece_weight * (left - links)


@njit(cache=True)
def clear_beam(start, width, height, zob, plan, best_path, deadline_ns, node_limit):
    """Beam search for the fewest cells left under the settings ``plan`` (a :class:`ClearPlan`), children
    ranked by :func:`clear_rank` from :func:`child_change` (no board-wide scan per child).

    Positions are deduplicated by Zobrist hash; a position with at most ``endgame_cells`` cells left
    gets an exhaustive search of at most ``endgame_nodes`` nodes on its cropped board and is not
    expanded when that search finishes. ``tie_seed`` > 0 breaks ties between equal ranks at random
    (seeded), so restarts explore different beams. Returns (fewest cells left at a game end, path
    length or -1, nodes, finished).
    """
    beam_width, endgame_cells, endgame_nodes, single_weight, piece_weight, tie_seed = plan
    n = width * height
    levels = beam_levels(beam_width, n)  # its ``removed`` is next_beam's count: this beam reads none
    kids = beam_children(beam_width, n)
    groups = group_scratch(n)
    stack = groups.stack
    child = np.empty(n, np.int8)
    low = np.empty(max(n, width), np.int32)
    suffixes = Suffixes(np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32),
                        np.empty(n, np.int64))
    counts = np.zeros(MAX_COLOURS_CODE, np.int64)
    ending = endgames(n, 1 << 15 if endgame_cells > 0 else 1, deadline_ns, endgame_nodes)
    if tie_seed > 0:
        np.random.seed(tie_seed)

    size, best, best_len, nodes, depth = beam_start(levels, start)
    while size > 0:
        nc = np.int64(0)  # np.int64: from a literal 0 numba compiles what it is passed to once more
        cur = levels.positions[depth & 1]
        for b in range(size):
            s = cur[b]
            left, dead = colour_summary(s, counts)
            if endgame_cells > 0 and dead < best and left <= endgame_cells:
                value, length, used, done = _endgame(s, width, height, zob, best, ending, best_path, levels,
                                                     depth, b)
                nodes += used
                if length >= 0:
                    best = value
                    best_len = depth + length
                    if best == 0:
                        return best, best_len, nodes, True
                if done:
                    continue  # searched to the end: nothing below it can beat ``best``
            # literal 0s on purpose: numba compiles this whole-board scan apart, for them, and the beam
            # runs 5% faster than with one scan_box for every box
            singles, links, squares, key = scan_box(s, width, height, 0, width - 1, 0, zob)
            links -= squares  # cells - (links - squares) counts the groups
            column_suffixes(s, width, height, zob, suffixes)
            copy_prefix(child, s, n)
            ng = find_groups(s, width, height, groups.label, groups.sizes, groups.reps, stack)
            moved = False
            for g in range(ng):
                if groups.sizes[g] < 2:
                    continue
                moved = True
                move = groups.reps[g]
                colour = s[move]
                removed, d_single, d_link, d_key = child_change(s, child, width, height, move, zob, low,
                                                                suffixes)
                child_dead = dead + (1 if counts[colour] - removed == 1 else 0)
                rank = clear_rank(child_dead, singles + d_single, links + d_link, left - removed,
                                  single_weight, piece_weight)
                rank <<= TIE_BITS
                if tie_seed > 0:
                    rank += np.random.randint(TIE_NOISE)
                kids.key[nc] = rank
                kids.parent[nc] = b
                kids.move[nc] = move
                hashed = key ^ d_key
                kids.hash[nc] = hashed if hashed != 0 else 1
                nc += 1
                nodes += 1
                if budget_check(nodes, node_limit, deadline_ns, CHECK_EVERY):
                    return best, best_len, nodes, False
            if not moved and left < best:
                best = left
                best_len = depth
                report_best(best)
                trace_path(best_path, levels, depth, b)
                if best == 0:
                    return best, best_len, nodes, True
        if nc == 0:
            break
        depth += 1
        size = next_beam(kids, nc, levels, depth, width, height, stack)
    return best, best_len, nodes, True


def clear_plan(beam_width, endgame_cells, endgame_nodes, single_weight, piece_weight, tie_seed=0):
    """A :class:`ClearPlan` with every field of the one type :func:`clear_beam` is compiled for."""
    return ClearPlan(np.int64(beam_width), np.int64(endgame_cells), np.int64(endgame_nodes),
                     np.int64(single_weight), np.int64(piece_weight), np.int64(tie_seed))
