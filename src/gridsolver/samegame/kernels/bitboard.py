"""The playouts' groups kept on per-colour bitboards (numba kernels), for boards of up to 16 x 15.

A board is one 4-word mask per colour plus one of every occupied cell:
column ``c`` is the 16-bit lane ``c % 4`` of word ``c // 4``, height ``h``
its bit ``h``. The lane's top bit stays 0, so a group grows one step by
shifts and ors over the four words with no test per cell (:func:`_flood_all`),
and no word ever turns negative. Removing a group squeezes its bits out of
each lane it touched (:func:`play_bits`).

The tracked list is the one :func:`.tracking.refresh_groups` keeps (records
in the order of their canonical cells, refreshed through the same dirty
zone) with two differences: a record starts with its canonical cell's bit
index (``column * 16 + height``: the same order, and no division to find
the bit; :func:`cell_of` gives the cell), and holds the group's colour in
bits 32-39, so the playouts read moves, codes and colours off it without a
board of cells. :mod:`.tracking` serves every larger board.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from gridsolver.clickomania.kernels.groups import EMPTY
from gridsolver.samegame.kernels.tracking import dirty_zone, file_record, merge_found, split_tracked

WORDS = 4
MAX_WIDTH = 16  # four lanes in each of four words
MAX_HEIGHT = 15  # the lane's top bit stays 0 (see the module doc)
LANE = np.int64(0xFFFF)
COLOUR_SHIFT = 32  # a record's colour (its size, under 256 here, leaves these bits free)

#: A board on bitboards with its groups kept up to date (:func:`bits_tracker`): the masks (one row per
#: colour, then the occupied cells), the tracked and the newly found records, the groups to flood
#: again, each column's lowest removed cell and lowest dirty height, and the scratch rows.
BitsTracker = namedtuple("BitsTracker", "masks tracked found redo low dirty_low scratch")


@njit(cache=True)
def fits_bitboard(width: int, height: int) -> bool:
    """Whether a board of this size fits the bitboards."""
    return width <= MAX_WIDTH and height <= MAX_HEIGHT


@intrinsic
def popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """The set bits of an int64 (one instruction, where numba has no function for it)."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@intrinsic
def lowest_bit(typingctx, x):  # type: ignore[no-untyped-def]
    """The index of the lowest set bit of a nonzero int64."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.int64), codegen


@intrinsic
def _leading_zeros(typingctx, x):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.int64), codegen


@njit(cache=True, error_model="numpy", inline="always")
def highest_bit(x):
    """The index of the highest set bit of a nonzero int64."""
    return 63 - _leading_zeros(x)


# rows of the scratch array (SCRATCH_ROWS rows of WORDS int64s) the kernels below share; rows are
# indexed in place rather than taken as views, which would count references on every call
ZONE, TAKEN, GROUP = 0, 1, 2
SCRATCH_ROWS = 3


@njit(cache=True, error_model="numpy")
def board_masks(cells, width, height, colours, masks):
    """Fill ``masks`` (``colours + 1`` rows of :data:`WORDS`) from a board of cells: one row per colour,
    the last one every occupied cell."""
    masks[:, :] = 0
    for c in range(width):
        for h in range(height):
            v = cells[c * height + h]
            if v != EMPTY:
                bit = c * 16 + h
                masks[v, bit >> 6] |= np.int64(1) << (bit & 63)
                masks[colours, bit >> 6] |= np.int64(1) << (bit & 63)


@njit(cache=True, error_model="numpy", inline="always")
def _spread(x, before, after):
    """A word's cells and their neighbours: ``before`` and ``after`` are the words either side (0 at the
    board's edge), whose last and first lanes border this word's first and last."""
    return x | (x << 1) | (x >> 1) | (x << 16) | (x >> 16) | (before >> 48) | ((after & LANE) << 48)


@njit(cache=True, error_model="numpy", inline="always")
def _flood_word(masks, colour, word, bit):
    """The cells of ``colour`` that ``bit`` (a one-bit int64) of ``word`` reaches within that word."""
    inside = masks[colour, word]
    x = bit
    while True:
        y = (x | (x << 1) | (x >> 1) | (x << 16) | (x >> 16)) & inside
        if y == x:
            return x
        x = y


@njit(cache=True, error_model="numpy", inline="always")
def _crosses(masks, colour, word, x):
    """Whether the cells ``x`` of ``word`` touch a cell of ``colour`` in the word before or after (the
    edge words read themselves, masked off)."""
    before = (masks[colour, max(word - 1, 0)] >> 48) & -np.int64(word > 0)
    after = masks[colour, min(word + 1, WORDS - 1)] & -np.int64(word < WORDS - 1)
    return (x & before & LANE) | ((x >> 48) & after & LANE) != 0


@njit(cache=True, error_model="numpy", inline="always")
def _flood_all(masks, colour, word, x, scratch):
    """Row GROUP = the whole group holding the cells ``x`` of ``word``, grown over all words."""
    # on four scalars: the rows are read once and written once
    m0 = masks[colour, 0]
    m1 = masks[colour, 1]
    m2 = masks[colour, 2]
    m3 = masks[colour, 3]
    g0 = x * (word == 0)
    g1 = x * (word == 1)
    g2 = x * (word == 2)
    g3 = x * (word == 3)
    while True:
        y0 = _spread(g0, np.int64(0), g1) & m0
        y1 = _spread(g1, g0, g2) & m1
        y2 = _spread(g2, g1, g3) & m2
        y3 = _spread(g3, g2, np.int64(0)) & m3
        if (y0 == g0) & (y1 == g1) & (y2 == g2) & (y3 == g3):
            break
        g0 = y0
        g1 = y1
        g2 = y2
        g3 = y3
    scratch[GROUP, 0] = g0
    scratch[GROUP, 1] = g1
    scratch[GROUP, 2] = g2
    scratch[GROUP, 3] = g3


@njit(cache=True, error_model="numpy", inline="always")
def _flood(masks, colour, word, bit, scratch):
    """The group of ``colour`` holding ``bit`` (a one-bit int64) of ``word``, into row GROUP."""
    # first within the word alone (most groups span a column or two, so most never leave it) ...
    x = _flood_word(masks, colour, word, bit)
    if _crosses(masks, colour, word, x):
        _flood_all(masks, colour, word, x, scratch)
        return
    for w in range(WORDS):
        scratch[GROUP, w] = 0
    scratch[GROUP, word] = x


@njit(cache=True, error_model="numpy", inline="always")
def _word_record(x, word, colour):
    """:func:`_group_record` of a group lying in one word (``x`` its cells there)."""
    heights = (x | (x >> 16) | (x >> 32) | (x >> 48)) & LANE
    low = lowest_bit(x)
    first = word * 4 + (low >> 4)
    last = word * 4 + (highest_bit(x) >> 4)
    return ((np.int64(word * 64 + low) << 40) | (np.int64(colour) << COLOUR_SHIFT) | (popcount(x) << 24)
            | (first << 16) | (last << 8) | highest_bit(heights))


@njit(cache=True, error_model="numpy", inline="always")
def _group_record(scratch, colour):
    """:func:`.tracking._group_record` of the group in row GROUP, with its colour; returns (record,
    size)."""
    size = 0
    heights = np.int64(0)  # every lane folded onto one: its highest bit is the group's top
    first = -1
    last = 0
    first_word = 0
    for w in range(WORDS):
        x = scratch[GROUP, w]
        if x != 0:
            size += popcount(x)
            heights |= (x | (x >> 16) | (x >> 32) | (x >> 48)) & LANE
            if first < 0:
                first = w * 4 + (lowest_bit(x) >> 4)
                first_word = w
            last = w * 4 + (highest_bit(x) >> 4)
    bit = first_word * 64 + lowest_bit(scratch[GROUP, first_word])  # the canonical cell: the group's lowest
    record = ((np.int64(bit) << 40) | (np.int64(colour) << COLOUR_SHIFT) | (np.int64(size) << 24)
              | (first << 16) | (last << 8) | highest_bit(heights))
    return record, size


@njit(cache=True, error_model="numpy", inline="always")
def _take_group(masks, colour, word, bit, scratch):
    """Find the group of ``colour`` holding ``bit`` (a one-bit int64) of ``word`` and add it to row TAKEN;
    returns (its record, its size, its cells in ``word``)."""
    x = _flood_word(masks, colour, word, bit)
    if not _crosses(masks, colour, word, x):  # most groups: one word, no rows to fill
        scratch[TAKEN, word] |= x
        return _word_record(x, word, colour), popcount(x), x
    _flood_all(masks, colour, word, x, scratch)
    for v in range(WORDS):
        scratch[TAKEN, v] |= scratch[GROUP, v]
    record, size = _group_record(scratch, colour)
    return record, size, scratch[GROUP, word]


@njit(cache=True)
def bits_tracker(n, width, colours):
    """A :class:`BitsTracker` for a board of ``n`` cells, ``width`` columns and ``colours`` colours
    (its masks empty: :func:`board_masks` fills them)."""
    return BitsTracker(np.zeros((colours + 1, WORDS), np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
                       np.empty(n, np.int64), np.empty(width, np.int32), np.zeros(width, np.int32),
                       np.empty((SCRATCH_ROWS, WORDS), np.int64))


@njit(cache=True, error_model="numpy", inline="always")
def refresh_bits(tracker, colours, height, zone, count):
    """:func:`.tracking.refresh_groups` on bitboards: bring the list ``tracker.tracked[:count]`` up to
    date after a move whose dirty zone is columns ``zone[0]..zone[1]`` from ``tracker.dirty_low`` up;
    returns its length.

    Groups whose box misses the zone stand. The others are found again by
    flooding every cell in the zone that has a neighbour of its colour, and
    from the canonical cell of a dropped group that lies outside the zone.
    """
    lo_col, hi_col = zone
    masks, tracked, found, redo, dirty_low, scratch = (tracker.masks, tracker.tracked, tracker.found,
                                                       tracker.redo, tracker.dirty_low, tracker.scratch)
    kept, redone = split_tracked(tracked, count, lo_col, hi_col, dirty_low, 16, redo)
    for w in range(WORDS):
        scratch[ZONE, w] = 0
        scratch[TAKEN, w] = 0
    for c in range(lo_col, hi_col + 1):
        if dirty_low[c] < MAX_HEIGHT:
            scratch[ZONE, c >> 2] |= ((np.int64(0x7FFF) >> dirty_low[c]) << dirty_low[c]) << ((c & 3) * 16)
    new = 0
    # word by word, and in each word its starts of every colour from the lowest up, so that the groups
    # are found nearly in the order of their canonical cells (filing them in order then moves few)
    for w in range(lo_col >> 2, (hi_col >> 2) + 1):
        zone = scratch[ZONE, w] & ~scratch[TAKEN, w]
        if zone == 0:
            continue
        starts = np.int64(0)
        for k in range(colours):
            x = masks[k, w]
            if x & zone == 0:
                continue
            near = (x << 1) | (x >> 1) | (x << 16) | (x >> 16)
            if w > 0:
                near |= masks[k, w - 1] >> 48
            if w < WORDS - 1:
                near |= (masks[k, w + 1] & LANE) << 48
            starts |= x & near & zone  # zone cells in groups of two or more
        while starts != 0:
            one = starts & -starts
            k = 0
            while masks[k, w] & one == 0:
                k += 1
            record, _, cells = _take_group(masks, k, w, one, scratch)
            starts &= ~cells
            new = file_record(found, new, record)
    for r in range(redone):
        bit = redo[r] >> 40
        w = bit >> 6
        one = np.int64(1) << (bit & 63)
        if scratch[TAKEN, w] & one:
            continue
        colour = (redo[r] >> COLOUR_SHIFT) & 0xFF
        record, size, _ = _take_group(masks, colour, w, one, scratch)
        if size > 1:
            new = file_record(found, new, record)
    return merge_found(tracked, kept, found, new)


@njit(cache=True, error_model="numpy")
def _squeeze(lane, removed):
    """A lane without its ``removed`` bits, the bits above each falling into place."""
    while removed != 0:
        b = highest_bit(removed)
        below = (np.int64(1) << b) - 1
        lane = (lane & below) | ((lane >> 1) & ~below)
        removed &= below
    return lane


@njit(cache=True, error_model="numpy")
def _close_lanes(masks, colours):
    """Move the columns right of emptied ones (lanes with no occupied cell) to the left."""
    to = 0
    for c in range(WORDS * 4):  # lanes move only left, to ``to`` <= c: lanes not yet read stay as they were
        if (masks[colours, c >> 2] >> ((c & 3) * 16)) & LANE == 0:
            continue
        if to != c:
            shift = (to & 3) * 16
            for k in range(colours + 1):
                lane = (masks[k, c >> 2] >> ((c & 3) * 16)) & LANE
                masks[k, to >> 2] = (masks[k, to >> 2] & ~(LANE << shift)) | (lane << shift)
        to += 1
    for c in range(to, WORDS * 4):
        for k in range(colours + 1):
            masks[k, c >> 2] &= ~(LANE << ((c & 3) * 16))


@njit(cache=True, error_model="numpy", inline="always")
def play_bits(tracker, colours, width, height, record):
    """Remove the tracked group ``record`` and let the cells fall (and the columns close up); returns
    the dirty zone :func:`.tracking.play_tracked` returns, with the same ``low`` and ``dirty_low``."""
    masks, low, dirty_low, scratch = tracker.masks, tracker.low, tracker.dirty_low, tracker.scratch
    bit = record >> 40
    colour = (record >> COLOUR_SHIFT) & 0xFF
    first = (record >> 16) & 0xFF
    last = (record >> 8) & 0xFF
    _flood(masks, colour, bit >> 6, np.int64(1) << (bit & 63), scratch)
    emptied = False
    for c in range(first, last + 1):  # a group has a cell in every column of its box
        w = c >> 2
        shift = (c & 3) * 16
        removed = (scratch[GROUP, w] >> shift) & LANE
        bottom = lowest_bit(removed)
        low[c] = bottom
        run = popcount(removed)
        solid = removed >> bottom == (np.int64(1) << run) - 1  # one run: one shift takes it out
        below = (np.int64(1) << bottom) - 1
        for k in range(colours + 1):
            word = masks[k, w]
            lane = (word >> shift) & LANE
            if lane >> bottom == 0:
                continue  # nothing of this colour at or above the removed cells
            lane = (lane & below) | ((lane >> run) & ~below) if solid else _squeeze(lane, removed)
            masks[k, w] = (word & ~(LANE << shift)) | (lane << shift)
        emptied = emptied or (masks[colours, w] >> shift) & LANE == 0
    if emptied:
        _close_lanes(masks, colours)
    return dirty_zone(width, height, first, last, emptied, low, dirty_low)


@njit(cache=True, error_model="numpy", inline="always")
def cell_of(record, height):
    """The canonical cell (``column * height + height``, as the cell boards number them) of a record."""
    bit = record >> 40
    return (bit >> 4) * height + (bit & 15)


@njit(cache=True, error_model="numpy", inline="always")
def bits_codes(tracked, count, tabu, n, height, out_codes, out_records):
    """:func:`.tracking.tracked_codes` reading each group's colour from its record: the allowed moves'
    codes and records (a record holds the move's cell and size: see :func:`cell_of`)."""
    k = 0
    for g in range(count):
        record = tracked[g]
        colour = (record >> COLOUR_SHIFT) & 0xFF
        out_codes[k] = colour * n + cell_of(record, height)
        out_records[k] = record
        k += colour != tabu
    if k == 0:
        for g in range(count):
            record = tracked[g]
            out_codes[g] = ((record >> COLOUR_SHIFT) & 0xFF) * n + cell_of(record, height)
            out_records[g] = record
        k = count
    return k
