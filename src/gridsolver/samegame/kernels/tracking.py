"""The groups of two or more cells, kept up to date through each move's dirty zone (numba kernels).

A move changes cells only in the columns it touched, from the lowest removed
cell up (all columns from its first on when a column empties), so a group can
only change if it has a cell in that zone (:func:`dirty_zone`).
:func:`refresh_groups` keeps every group whose box misses the zone and finds
the others again; the result is the list :func:`find_groups` would give, in
the same order. Playouts remove groups with their own :func:`remove_fall`
and read moves and policy codes off the list in one pass (:func:`tracked_codes`).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.groups import EMPTY, close_columns, is_single
from gridsolver.core.kernels.flood import flood

# error_model="numpy": integer // and % skip numba's check for a zero divisor (every divisor here is a
# board size or a count above 0): NRPA takes about 16% less CPU time for the same games

REMOVED = -2  # a cell the move takes, until its column settles (see remove_fall)

#: What keeps the groups up to date (:func:`start_tracking`): the tracked and the newly found records,
#: the groups to flood again, each column's lowest removed cell and lowest dirty height, the stamps of
#: the flood fills (``seen``) and their stack.
Tracker = namedtuple("Tracker", "tracked found redo low dirty_low seen stack")


@njit(cache=True, error_model="numpy", inline="always")
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


# a tracked group is one int64, ordered as its canonical cell: cell << 40 | size << 24 | first column
# << 16 | last column << 8 | top height (boards are at most 64 x 64)
@njit(cache=True, error_model="numpy")
def _group_record(rep, size, first, last, top):
    return (np.int64(rep) << 40) | (np.int64(size) << 24) | (first << 16) | (last << 8) | top


@njit(cache=True, error_model="numpy", inline="always")
def file_record(found, new, record):
    """File ``record`` in ``found[:new]``, kept in order; returns the new count."""
    g = new
    while g > 0 and found[g - 1] > record:  # groups reaching left of the scan come out of order
        found[g] = found[g - 1]
        g -= 1
    found[g] = record
    return new + 1


@njit(cache=True, error_model="numpy")
def _find_group(cells, width, height, start, seen, stamp, stack, found, new):
    """Mark the group at ``start`` with ``stamp`` and file its record in ``found``, which is kept in
    order; returns the new count."""
    size, rep, first, last, high = flood(cells, width, height, start, stack, seen, stamp)
    return file_record(found, new, _group_record(rep, size, first, last, high))


@njit(cache=True, error_model="numpy", inline="always")
def box_meets_zone(record, lo_col, hi_col, dirty_low):
    """Whether a tracked group's box (its columns up to its top height) meets the dirty zone."""
    first = (record >> 16) & 0xFF
    last = (record >> 8) & 0xFF
    meets = False
    if last >= lo_col and first <= hi_col:
        high = record & 0xFF
        for c in range(max(first, lo_col), min(last, hi_col) + 1):
            meets = meets or high >= dirty_low[c]
    return meets


@njit(cache=True, error_model="numpy", inline="always")
def merge_found(tracked, kept, found, new):
    """Merge the ``new`` found records (in order) into the ``kept`` ones at the front of ``tracked``;
    returns the count. From the back, so the kept ones are not overwritten."""
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


@njit(cache=True, error_model="numpy", inline="always")
def split_tracked(tracked, count, lo_col, hi_col, dirty_low, stride, redo):
    """Keep, at the front of ``tracked``, the groups whose box misses the dirty zone (columns
    ``lo_col..hi_col`` from ``dirty_low`` up), and put in ``redo`` the records of the others whose
    canonical cell lies outside the zone: that cell did not change, but its group may have, so it is
    flooded again from there. ``stride`` is a column's step in the record's cell index (the board's
    height, or 16 on bitboards). Returns (groups kept, records in ``redo``)."""
    kept = 0
    redone = 0
    for g in range(count):
        record = tracked[g]
        if not box_meets_zone(record, lo_col, hi_col, dirty_low):
            tracked[kept] = record
            kept += 1
            continue
        first = (record >> 16) & 0xFF
        if not (lo_col <= first <= hi_col and (record >> 40) - first * stride >= dirty_low[first]):
            redo[redone] = record
            redone += 1
    return kept, redone


# _nrt=False (here and in play_tracked): no reference counting of the tracker's arrays read from the
# bundle (these kernels allocate nothing); with it, each call took a few percent more
@njit(cache=True, error_model="numpy", _nrt=False)
def refresh_groups(cells, width, height, zone, tracker, stamp, count):
    """Bring the list of groups of two or more cells up to date after a move; returns its length.

    ``tracker.tracked[:count]`` holds each group's record
    (:func:`_group_record`) in the order of their canonical cells (the order
    :func:`find_groups` labels them in). A move changes groups only through
    the dirty ``zone`` (columns ``zone[0]..zone[1]`` from
    ``tracker.dirty_low`` up, :func:`dirty_zone`; the whole board, from
    column 0 and heights 0, to start afresh): a group whose box misses it
    stands; a group whose box meets it is dropped and found again, by a scan
    of the zone or, when its canonical cell lies outside the zone, from that
    cell. Flood fills mark cells with ``stamp``, which must be new to
    ``tracker.seen``.
    """
    lo_col, hi_col = zone
    tracked, found, redo, dirty_low, seen, stack = (tracker.tracked, tracker.found, tracker.redo,
                                                    tracker.dirty_low, tracker.seen, tracker.stack)
    kept, redone = split_tracked(tracked, count, lo_col, hi_col, dirty_low, height, redo)
    new = np.int64(0)  # typed: a literal 0 would compile _find_group once more for it
    for c in range(lo_col, hi_col + 1):
        base = c * height
        if cells[base] == EMPTY:
            break
        for h in range(dirty_low[c], height):
            i = base + h
            if cells[i] == EMPTY:
                break
            if seen[i] != stamp and not is_single(cells, width, height, i, c, h):
                new = _find_group(cells, width, height, i, seen, stamp, stack, found, new)
    for r in range(redone):
        i = redo[r] >> 40
        c = i // height
        if seen[i] != stamp and not is_single(cells, width, height, i, c, i - c * height):
            new = _find_group(cells, width, height, i, seen, stamp, stack, found, new)
    return merge_found(tracked, kept, found, new)


@njit(cache=True, error_model="numpy")
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


@njit(cache=True, error_model="numpy")
def tracked_codes(cells, tracked, count, tabu, n, out_moves, out_sizes, out_codes):
    """:func:`tracked_moves` that also gives each move's (colour, canonical cell) policy code,
    ``colour * n + cell``, in the same pass."""
    k = 0
    for g in range(count):
        rep = tracked[g] >> 40
        colour = cells[rep]
        # every group is written and only an allowed one kept, without a branch on the colour (with
        # the codes in this pass too, playouts measured about 3% faster than tracked_moves and then
        # a pass for the codes)
        out_moves[k] = rep
        out_sizes[k] = (tracked[g] >> 24) & 0xFFFF
        out_codes[k] = colour * n + rep
        k += colour != tabu
    if k == 0:
        for g in range(count):
            rep = tracked[g] >> 40
            out_moves[g] = rep
            out_sizes[g] = (tracked[g] >> 24) & 0xFFFF
            out_codes[g] = cells[rep] * n + rep
        k = count
    return k


@njit(cache=True, error_model="numpy")
def start_tracking(n, width, seen, stack):
    """A :class:`Tracker` for a board of ``n`` cells and ``width`` columns, with the stamps ``seen``
    (cleared here) and the fill ``stack`` it is given, and a first zone that is the whole board."""
    seen[:] = 0
    # int64 cells to flood again, like every other cell index _find_group gets, and a zone of two int64s
    # (not a literal 0): each kernel below is then compiled for one set of types
    tracker = Tracker(np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
                      np.empty(width, np.int32), np.zeros(width, np.int32), seen, stack)
    return tracker, (np.int64(0), np.int64(width - 1))


@njit(cache=True, error_model="numpy", _nrt=False)
def play_tracked(state, width, height, move, tracker):
    """Play ``move`` and return the dirty zone it leaves (:func:`dirty_zone`)."""
    _, first, last, emptied = remove_fall(state, width, height, move, tracker.stack, tracker.low)
    return dirty_zone(width, height, first, last, emptied, tracker.low, tracker.dirty_low)


@njit(cache=True, error_model="numpy")
def remove_fall(cells, width, height, start, stack, low):
    """:func:`~gridsolver.clickomania.kernels.groups.remove_settle` (same cells, same returns, same
    ``low`` in the group's columns) for a legal move, settling each column from its lowest removed cell
    up to its top only.

    A copy rather than a change to the shared kernel (Clickomania's solver uses that one): the
    removed cells are marked :data:`REMOVED` during the fill so that the settling can stop at a
    column's top (an ``EMPTY``), and each column's lowest removed cell comes from the fill instead of
    a scan from the bottom (upkeep per move measured about 5% faster).
    """
    for c in range(width):
        low[c] = height
    removed, _, first, last, _ = flood(cells, width, height, start, stack, cells, REMOVED, low)
    emptied = False
    for c in range(first, last + 1):  # gravity: every cell is written back, only a kept one advances
        base = c * height
        write = low[c]
        h = low[c]
        while h < height:
            v = cells[base + h]
            if v == EMPTY:
                break
            cells[base + write] = v
            write += v != REMOVED
            h += 1
        for x in range(write, h):
            cells[base + x] = EMPTY
        emptied = emptied or write == 0
    if emptied:
        close_columns(cells, width, height, first, last)
    return removed, first, last, emptied

