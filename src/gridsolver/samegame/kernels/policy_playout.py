"""NRPA's policy playouts for SameGame: games drawn from a policy over move codes (numba kernels).

A playout never takes the tabu colour while another move exists, and draws
each move with probability proportional to exp(policy[code]), a move's
code being (colour, canonical cell) or a hash of its group
(:func:`_move_codes`). The groups come from :mod:`.bitboard` (boards of up to
16 x 15, :func:`bits_playout`) or :mod:`.tracking` (:func:`table_playout`),
kept up to date from move to move. A playout can record, per step, the codes
it chose among and the one it took (a :class:`Record`), which is what
NRPA's adaptation (:mod:`.nrpa`) reads; :func:`sequence_codes` records them
by replaying a game.

The arrays travel as named bundles, made once per search: the start
(:class:`Start`), the cell playouts' workspace (:class:`Workspace`), the
code scheme (:class:`Codes`), a game's codes (:class:`Record`) and, on
bitboards, :class:`BitsStart` and :class:`BitsWork`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.groups import EMPTY, colour_summary, find_groups, groups_to_moves
from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.samegame.kernels.bitboard import (
    WORDS,
    bits_codes,
    bits_tracker,
    cell_of,
    play_bits,
    refresh_bits,
)
from gridsolver.samegame.kernels.scoring import terminal_bonus
from gridsolver.samegame.kernels.tracking import play_tracked, refresh_groups, start_tracking, tracked_codes

# error_model="numpy": integer // and % skip numba's check for a zero divisor (every divisor here is a
# board size or a count above 0): NRPA takes about 16% less CPU time for the same games

# a table of exp(policy) serves a step while its weights sum inside this range (policy weights stay
# within a few hundred of 0 at level 3, far inside it); elsewhere they are computed shifted
EXP_TABLE_LOW = 1e-250
EXP_TABLE_HIGH = 1e250

#: The start of a search: its cells (kernel layout) and the board's sides.
Start = namedtuple("Start", "cells width height")
#: A cell playout's arrays, ``n`` long each (:func:`workspace`): the board played on, group labels,
#: sizes, canonical cells and the fill stack (:func:`find_groups`), the allowed moves, their sizes,
#: weights and codes, and one hash per group (hashed codes).
Workspace = namedtuple("Workspace", "state label sizes reps stack moves msizes weights group_hash mcodes")
#: How a move is coded: (colour, canonical cell) when ``keys`` is empty, else the group's cells and
#: colour hashed with ``keys`` into ``mask + 1`` codes.
Codes = namedtuple("Codes", "keys mask")
#: A game's codes: step t chose among ``codes[step_start[t]:step_start[t + 1]]`` and took
#: ``chosen[t]``.
Record = namedtuple("Record", "step_start codes chosen")
#: The start on bitboards (:func:`.bitboard.board_masks`): its masks, the colours, the cells left
#: and the board's sides.
BitsStart = namedtuple("BitsStart", "masks colours left width height")
#: A bitboard playout's arrays (:func:`bits_workspace`): the board played on with its groups
#: (a :class:`.bitboard.BitsTracker`), the weights and codes of the allowed moves, the start's groups
#: (n + 1, first -1 until filled) and the move records.
BitsWork = namedtuple("BitsWork", "tracker weights mcodes start_groups records")


@njit(cache=True)
def workspace(n):
    """A :class:`Workspace` for a board of ``n`` cells."""
    return Workspace(np.empty(n, np.int8), np.empty(n, np.int32), np.empty(n, np.int32),
                     np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32),
                     np.empty(n, np.int32), np.empty(n, np.float64), np.empty(n, np.int64),
                     np.empty(n, np.int64))


@njit(cache=True)
def bits_workspace(n, width, colours):
    """A :class:`BitsWork` for a board of ``n`` cells, ``width`` columns and ``colours`` colours. Made
    once per search, since :func:`bits_playout` runs without numba's reference counting, which
    leaves it unable to allocate."""
    return BitsWork(bits_tracker(n, width, colours), np.empty(n, np.float64), np.empty(n, np.int64),
                    np.full(n + 1, -1, np.int64), np.empty(n, np.int64))


@njit(cache=True)
def record_arrays(n):
    """A :class:`Record` with room for any game on a board of ``n`` cells."""
    # at most (cells left)/2 moves allowed per step
    return Record(np.zeros(n + 1, np.int64), np.empty(n * n // 8 + n, np.int64), np.empty(n, np.int64))


@njit(cache=True, error_model="numpy")
def most_frequent_colour(cells, counts):
    """The colour with the most cells (the tabu colour: its groups are kept to merge late)."""
    colour_summary(cells, counts)
    tabu = 0
    for k in range(counts.shape[0]):
        if counts[k] > counts[tabu]:
            tabu = k
    return tabu


@njit(cache=True, error_model="numpy")
def _allowed_moves(cells, width, height, tabu, work):
    """The moves a policy chooses among, in ``work.moves`` and ``work.msizes``: the legal moves not of
    the tabu colour, or all when only tabu-colour moves are left. Returns their count (0 at the end of
    the game)."""
    ng = find_groups(cells, width, height, work.label, work.sizes, work.reps, work.stack)
    k = groups_to_moves(cells, ng, work.sizes, work.reps, tabu, work.moves, work.msizes)
    if k == 0:  # a typed EMPTY: see groups.legal_moves
        k = groups_to_moves(cells, ng, work.sizes, work.reps, np.int64(EMPTY), work.moves, work.msizes)
    return k


@njit(cache=True, error_model="numpy")
def move_code(cells, move, n):
    """A move's policy code: (colour, canonical cell) as ``colour * n + cell``."""
    return cells[move] * n + move


@njit(cache=True, error_model="numpy")
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


@njit(cache=True, error_model="numpy")
def _next_moves(state, width, height, tabu, work, tracking, tracker, zone, stamp, count):
    """The allowed moves of ``state`` (:func:`_allowed_moves`) in ``work.moves`` and
    ``work.msizes``; returns (their number, the tracked group count). With ``tracking`` the groups are
    kept up to date by :func:`refresh_groups` over the dirty ``zone`` (``tracker.seen`` is
    ``work.label``) and the moves' (colour, cell) codes go to ``work.mcodes`` as well; else they are
    found from scratch (and the codes are left to :func:`_move_codes`)."""
    if tracking:
        count = refresh_groups(state, width, height, zone, tracker, stamp, count)
        return tracked_codes(state, tracker.tracked, count, tabu, width * height, work.moves, work.msizes,
                             work.mcodes), count
    return _allowed_moves(state, width, height, tabu, work), 0


@njit(cache=True, error_model="numpy")
def policy_playout(start, policy, tabu, penalty, seq, work, codes):
    """A game from ``start`` choosing each allowed move with probability proportional to
    exp(policy[code]); moves go to ``seq``. Returns (points, length)."""
    return table_playout(start, policy, policy[:0], tabu, penalty, seq, work, codes)


@njit(cache=True, error_model="numpy", inline="always")
def _table_weights(policy, expw, mcodes, k, weights):
    """The allowed moves' weights exp(policy[code]) read from the table ``expw``; returns their sum, or
    0 when the table is empty or out of exp's safe range there (the caller then computes them)."""
    if expw.shape[0] == 0:
        return 0.0
    total = 0.0
    for m in range(k):
        w = expw[mcodes[m]]
        weights[m] = w
        total += w
    if total > EXP_TABLE_LOW and total < EXP_TABLE_HIGH:
        return total
    return 0.0


@njit(cache=True, error_model="numpy", inline="always")
def _draw(policy, expw, mcodes, k, weights):
    """One of the ``k`` allowed moves, drawn with probability proportional to exp(policy[code]) (from the
    table ``expw`` while it serves, else computed shifted by the largest weight so exp never overflows);
    uses one random number."""
    total = _table_weights(policy, expw, mcodes, k, weights)
    if total == 0.0:
        top = policy[mcodes[0]]
        for m in range(1, k):
            top = max(top, policy[mcodes[m]])
        for m in range(k):
            w = np.exp(policy[mcodes[m]] - top)
            weights[m] = w
            total += w
    r = np.random.random() * total
    for m in range(k):
        r -= weights[m]
        if r <= 0.0:
            return m
    return k - 1


@njit(cache=True, error_model="numpy")
def table_playout(start, policy, expw, tabu, penalty, seq, work, codes, record=None, start_groups=None):
    """:func:`policy_playout` reading each weight exp(policy[code]) from ``expw`` (kept equal to
    exp(policy) by :func:`.nrpa.adapt_table`) instead of computing one exponential per allowed move
    and step. An empty ``expw``, or weights outside exp's safe range, fall back to computing them
    (shifted by the largest).

    Given a ``record``, the game's codes are recorded there as
    :func:`sequence_codes` would record them on replaying it; given ``start_groups`` (n + 1 int64s,
    first -1 until filled), the groups of ``start`` are found once and kept there for the playouts
    after (without them, numba compiles the recording and the keeping away)."""
    width, height = start.width, start.height
    n = width * height
    state, label, moves, msizes, mcodes = work.state, work.label, work.moves, work.msizes, work.mcodes
    copy_prefix(state, start.cells, n)
    points = 0
    length = 0
    left = np.int64(0)  # typed: a literal 0 here gets terminal_bonus compiled once more for it
    for i in range(n):
        if state[i] != EMPTY:
            left += 1
    # (colour, cell) codes need no labels, so the groups are tracked from move to move
    tracking = codes.keys.shape[0] == 0
    tracker, zone = start_tracking(n, width, label, work.stack)
    count = np.int64(0)  # typed: a literal 0 would compile _next_moves once more for it
    if start_groups is not None and tracking:
        count, zone = _start_groups(state, width, height, tracker, start_groups, zone)
    recorded = np.int64(0)
    while True:
        k, count = _next_moves(state, width, height, tabu, work, tracking, tracker, zone, length + 1, count)
        if k == 0:
            break
        if not tracking:
            _move_codes(state, n, k, moves, label, codes.keys, codes.mask, work.group_hash, mcodes)
        pick = _draw(policy, expw, mcodes, k, work.weights)
        if record is not None:
            recorded = _record_step(record, length, recorded, mcodes, k, pick)
        seq[length] = moves[pick]
        length += 1
        points += (msizes[pick] - 2) * (msizes[pick] - 2)
        left -= msizes[pick]
        zone = play_tracked(state, width, height, moves[pick], tracker)
    if record is not None:
        record.step_start[length] = recorded
    return points + terminal_bonus(left, penalty), length


# _nrt=False: compiled without numba's reference counting. Inlined helpers that take arrays leave
# pairs of atomic increments and decrements in their loops wherever numba cannot prune them (and/or,
# if-else expressions, a break out of a for loop ...); in this playout they took more time than the
# playout's own work. Without the counting it cannot allocate: its arrays come in ``work``.
@njit(cache=True, error_model="numpy", _nrt=False)
def bits_playout(start, policy, expw, tabu, penalty, seq, record, work):
    """:func:`table_playout` with (colour, cell) codes on a board of bitboards (:mod:`.bitboard`; the
    start as :class:`BitsStart`, ``work`` from :func:`bits_workspace`): the same game, points and
    recorded codes for the same random draws. ``work.start_groups`` keeps the start's groups."""
    width, height, colours = start.width, start.height, start.colours
    n = width * height
    tracker, start_groups = work.tracker, work.start_groups
    masks, tracked, dirty_low = tracker.masks, tracker.tracked, tracker.dirty_low
    for k in range(start.masks.shape[0]):
        for w in range(WORDS):
            masks[k, w] = start.masks[k, w]
    for c in range(width):
        dirty_low[c] = 0
    zone = (np.int64(0), np.int64(width - 1))
    count = np.int64(0)
    if start_groups[0] < 0:
        count = refresh_bits(tracker, colours, height, zone, count)
        start_groups[0] = count
        copy_prefix(start_groups[1:], tracked, count)
    else:
        count = start_groups[0]
        copy_prefix(tracked, start_groups[1:], count)
    zone = (np.int64(1), np.int64(0))  # nothing to refresh before the first move
    points = 0
    length = 0
    left = start.left
    recorded = np.int64(0)
    while True:
        count = refresh_bits(tracker, colours, height, zone, count)
        k = bits_codes(tracked, count, tabu, n, height, work.mcodes, work.records)
        if k == 0:
            break
        pick = _draw(policy, expw, work.mcodes, k, work.weights)
        recorded = _record_step(record, length, recorded, work.mcodes, k, pick)
        seq[length] = cell_of(work.records[pick], height)
        length += 1
        size = (work.records[pick] >> 24) & 0xFF
        points += (size - 2) * (size - 2)
        left -= size
        zone = play_bits(tracker, colours, width, height, work.records[pick])
    record.step_start[length] = recorded
    return points + terminal_bonus(left, penalty), length


@njit(cache=True, error_model="numpy")
def _start_groups(state, width, height, tracker, start_groups, zone):
    """The tracked groups of the start (``state``, fresh from ``start_tracking``'s whole-board
    ``zone``): found with stamp 1 and kept in ``start_groups`` the first time, copied from it after.
    Returns their count and an empty zone (the first step then finds nothing to refresh)."""
    if start_groups[0] < 0:
        count = refresh_groups(state, width, height, zone, tracker, np.int64(1), np.int64(0))
        start_groups[0] = count
        copy_prefix(start_groups[1:], tracker.tracked, count)
    else:
        count = start_groups[0]
        copy_prefix(tracker.tracked, start_groups[1:], count)
    return count, (np.int64(1), np.int64(0))


@njit(cache=True, error_model="numpy", inline="always")
def _record_step(record, step, recorded, mcodes, k, pick):
    """File step ``step``'s allowed codes ``mcodes[:k]`` and the one picked in ``record``; returns the
    codes recorded so far."""
    record.step_start[step] = recorded
    for m in range(k):
        record.codes[recorded + m] = mcodes[m]
    record.chosen[step] = mcodes[pick]
    return recorded + k


@njit(cache=True, error_model="numpy")
def keep_recorded(source, length, target):
    """Copy a game's codes recorded by a playout (``source``) to ``target``, where
    :func:`sequence_codes` would have put them on replaying it (the same codes, without a second pass
    over the board)."""
    copy_prefix(target.step_start, source.step_start, length + 1)
    copy_prefix(target.codes, source.codes, source.step_start[length])
    copy_prefix(target.chosen, source.chosen, length)


@njit(cache=True, error_model="numpy")
def sequence_codes(start, seq, length, tabu, work, codes, record):
    """Replay ``seq`` and record, per step, the codes of the allowed moves and of the move played.

    Step t's allowed codes are ``record.codes[record.step_start[t]:record.step_start[t + 1]]``. They
    depend only on the sequence, so a level can keep them while its best game
    stays the same and adapt without touching a board.
    """
    width, height = start.width, start.height
    n = width * height
    state, label, moves, mcodes = work.state, work.label, work.moves, work.mcodes
    copy_prefix(state, start.cells, n)
    # (colour, cell) codes need no labels, so the groups are tracked from move to move
    tracking = codes.keys.shape[0] == 0
    tracker, zone = start_tracking(n, width, label, work.stack)
    count = np.int64(0)  # typed: a literal 0 would compile _next_moves once more for it
    total = 0
    for step in range(length):
        record.step_start[step] = total
        k, count = _next_moves(state, width, height, tabu, work, tracking, tracker, zone, step + 1, count)
        if not tracking:
            _move_codes(state, n, k, moves, label, codes.keys, codes.mask, work.group_hash, mcodes)
        for m in range(k):
            record.codes[total] = mcodes[m]
            total += 1
            if moves[m] == seq[step]:
                record.chosen[step] = mcodes[m]
        zone = play_tracked(state, width, height, seq[step], tracker)
    record.step_start[length] = total
    return total
