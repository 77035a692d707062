"""Nested rollout policy adaptation (Rosin 2011) for SameGame (numba kernels).

Policy playouts never take the tabu colour while another move exists; with
(colour, canonical cell) move codes they choose from the groups kept up to
date by :mod:`.bitboard` (boards of up to 16 x 15) or :mod:`.tracking`.
:func:`nrpa_run` unrolls the recursion onto per-level arrays
(:func:`nrpa_state`), so a stopped run can be resumed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.arrays import copy_into
from gridsolver.clickomania.kernels.groups import (
    EMPTY,
    MAX_COLOURS_CODE,
    colour_summary,
    find_groups,
    groups_to_moves,
)
from gridsolver.clickomania.kernels.playout import NO_VALUE, terminal_bonus
from gridsolver.core.kernels.clock import budget_check
from gridsolver.samegame.kernels.bitboard import (
    WORDS,
    bits_codes,
    bits_workspace,
    board_masks,
    cell_of,
    fits_bitboard,
    play_bits,
    refresh_bits,
)
from gridsolver.samegame.kernels.tracking import play_tracked, refresh_groups, start_tracking, tracked_codes

# error_model="numpy": integer // and % skip numba's check for a zero divisor (every divisor here is a
# board size or a count above 0): NRPA takes about 16% less CPU time for the same games

NRPA_ALPHA = 1.0
# a table of exp(policy) serves a step while its weights sum inside this range (policy weights stay
# within a few hundred of 0 at level 3, far inside it); elsewhere they are computed shifted
EXP_TABLE_LOW = 1e-250
EXP_TABLE_HIGH = 1e250


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
def _allowed_moves(cells, width, height, tabu, label, sizes, reps, stack, out_moves, out_sizes):
    """The moves a policy chooses among: the legal moves not of the tabu colour, or all when only
    tabu-colour moves are left. Returns their count (0 at the end of the game)."""
    ng = find_groups(cells, width, height, label, sizes, reps, stack)
    k = groups_to_moves(cells, ng, sizes, reps, tabu, out_moves, out_sizes)
    if k == 0:  # a typed EMPTY: see groups.legal_moves
        k = groups_to_moves(cells, ng, sizes, reps, np.int64(EMPTY), out_moves, out_sizes)
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
def _next_moves(state, width, height, tabu, zone, dirty_low, tracking, stamp, label, sizes, reps, stack,
                tracked, count, found, redo, moves, msizes, mcodes):
    """The allowed moves of ``state`` (see :func:`_allowed_moves`); returns (their number, the
    tracked group count). With ``tracking`` the groups are kept up to date by
    :func:`refresh_groups` over the dirty ``zone`` (``label`` serves as its stamps) and the moves'
    (colour, cell) codes go to ``mcodes`` as well; else they are found from scratch (and the codes
    are left to :func:`_move_codes`)."""
    if tracking:
        count = refresh_groups(state, width, height, zone[0], zone[1], dirty_low, label, stamp, tracked,
                               count, found, redo, stack)
        return tracked_codes(state, tracked, count, tabu, width * height, moves, msizes, mcodes), count
    return _allowed_moves(state, width, height, tabu, label, sizes, reps, stack, moves, msizes), 0


@njit(cache=True, error_model="numpy")
def policy_playout(start, width, height, policy, tabu, penalty, seq, state, label, sizes, reps, stack,
                   moves, msizes, weights, keys, mask, group_hash, mcodes):
    """A game from ``start`` choosing each allowed move with probability proportional to
    exp(policy[code]); moves go to ``seq``. Returns (points, length)."""
    return table_playout(start, width, height, policy, policy[:0], tabu, penalty, seq, state, label, sizes,
                         reps, stack, moves, msizes, weights, keys, mask, group_hash, mcodes)


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
def table_playout(start, width, height, policy, expw, tabu, penalty, seq, state, label, sizes, reps, stack,
                  moves, msizes, weights, keys, mask, group_hash, mcodes, rec_start=None, rec_codes=None,
                  rec_chosen=None, start_groups=None):
    """:func:`policy_playout` reading each weight exp(policy[code]) from ``expw`` (kept equal to
    exp(policy) by :func:`adapt_table`) instead of computing one exponential per allowed move and
    step. An empty ``expw``, or weights outside exp's safe range, fall back to computing them (shifted
    by the largest).

    Given ``rec_start``, ``rec_codes`` and ``rec_chosen``, the game's codes are recorded there as
    :func:`sequence_codes` would record them on replaying it; given ``start_groups`` (n + 1 int64s,
    first -1 until filled), the groups of ``start`` are found once and kept there for the playouts
    after (without them, numba compiles the recording and the keeping away)."""
    n = width * height
    copy_into(state, start, n)
    points = 0
    length = 0
    left = np.int64(0)  # typed: a literal 0 here gets terminal_bonus compiled once more for it
    for i in range(n):
        if state[i] != EMPTY:
            left += 1
    # (colour, cell) codes need no labels, so the groups are tracked from move to move
    tracking = keys.shape[0] == 0
    tracked, found, redo, low, dirty_low, zone = start_tracking(n, width, label)
    count = np.int64(0)  # typed: a literal 0 would compile _next_moves once more for it
    if start_groups is not None and tracking:
        count, zone = _start_groups(state, width, height, dirty_low, label, tracked, found, redo, stack,
                                    start_groups, zone)
    recorded = np.int64(0)
    while True:
        k, count = _next_moves(state, width, height, tabu, zone, dirty_low, tracking, length + 1, label,
                               sizes, reps, stack, tracked, count, found, redo, moves, msizes, mcodes)
        if k == 0:
            break
        if not tracking:
            _move_codes(state, n, k, moves, label, keys, mask, group_hash, mcodes)
        pick = _draw(policy, expw, mcodes, k, weights)
        if rec_codes is not None:
            recorded = _record_step(rec_start, rec_codes, rec_chosen, length, recorded, mcodes, k, pick)
        seq[length] = moves[pick]
        length += 1
        points += (msizes[pick] - 2) * (msizes[pick] - 2)
        left -= msizes[pick]
        zone = play_tracked(state, width, height, moves[pick], stack, low, dirty_low)
    if rec_start is not None:
        rec_start[length] = recorded
    return points + terminal_bonus(left, penalty), length


# _nrt=False: compiled without numba's reference counting. Inlined helpers that take arrays leave
# pairs of atomic increments and decrements in their loops wherever numba cannot prune them (and/or,
# if-else expressions, a break out of a for loop ...); in this playout they took more time than the
# playout's own work. Without the counting it cannot allocate: its arrays come in ``work``.
@njit(cache=True, error_model="numpy", _nrt=False)
def bits_playout(start_masks, colours, left, width, height, policy, expw, tabu, penalty, seq, masks, weights,
                 mcodes, rec_start, rec_codes, rec_chosen, start_groups, work):
    """:func:`table_playout` with (colour, cell) codes on a board of bitboards (:mod:`.bitboard`; the
    start's ``start_masks`` with ``left`` cells, ``masks`` the playout's own, ``work`` from
    :func:`.bitboard.bits_workspace`): the same game, points and recorded codes for the same random
    draws. ``start_groups`` keeps the start's groups."""
    n = width * height
    for k in range(start_masks.shape[0]):
        for w in range(WORDS):
            masks[k, w] = start_masks[k, w]
    records, tracked, found, redo, low, dirty_low, scratch = work
    for c in range(width):
        dirty_low[c] = 0
    zone = (np.int64(0), np.int64(width - 1))
    count = np.int64(0)
    if start_groups[0] < 0:
        count = refresh_bits(masks, colours, height, zone[0], zone[1], dirty_low, tracked, count, found, redo,
                             scratch)
        start_groups[0] = count
        copy_into(start_groups[1:], tracked, count)
    else:
        count = start_groups[0]
        copy_into(tracked, start_groups[1:], count)
    zone = (np.int64(1), np.int64(0))  # nothing to refresh before the first move
    points = 0
    length = 0
    recorded = np.int64(0)
    while True:
        count = refresh_bits(masks, colours, height, zone[0], zone[1], dirty_low, tracked, count, found, redo,
                             scratch)
        k = bits_codes(tracked, count, tabu, n, height, mcodes, records)
        if k == 0:
            break
        pick = _draw(policy, expw, mcodes, k, weights)
        recorded = _record_step(rec_start, rec_codes, rec_chosen, length, recorded, mcodes, k, pick)
        seq[length] = cell_of(records[pick], height)
        length += 1
        size = (records[pick] >> 24) & 0xFF
        points += (size - 2) * (size - 2)
        left -= size
        zone = play_bits(masks, colours, width, height, records[pick], low, dirty_low, scratch)
    rec_start[length] = recorded
    return points + terminal_bonus(left, penalty), length


@njit(cache=True, error_model="numpy")
def _start_groups(state, width, height, dirty_low, label, tracked, found, redo, stack, start_groups, zone):
    """The tracked groups of the start (``state``, fresh from ``start_tracking``'s whole-board
    ``zone``): found with stamp 1 and kept in ``start_groups`` the first time, copied from it after.
    Returns their count and an empty zone (the first step then finds nothing to refresh)."""
    if start_groups[0] < 0:
        count = refresh_groups(state, width, height, zone[0], zone[1], dirty_low, label, np.int64(1), tracked,
                               np.int64(0), found, redo, stack)
        start_groups[0] = count
        copy_into(start_groups[1:], tracked, count)
    else:
        count = start_groups[0]
        copy_into(tracked, start_groups[1:], count)
    return count, (np.int64(1), np.int64(0))


@njit(cache=True, error_model="numpy", inline="always")
def _record_step(rec_start, rec_codes, rec_chosen, step, recorded, mcodes, k, pick):
    """File step ``step``'s allowed codes ``mcodes[:k]`` and the one picked; returns the codes
    recorded so far."""
    rec_start[step] = recorded
    for m in range(k):
        rec_codes[recorded + m] = mcodes[m]
    rec_chosen[step] = mcodes[pick]
    return recorded + k


@njit(cache=True, error_model="numpy")
def keep_recorded(rec_start, rec_codes, rec_chosen, length, step_start, codes, chosen):
    """Copy a game's codes recorded by :func:`table_playout` to where :func:`sequence_codes` would
    have put them on replaying it (the same codes, without a second pass over the board)."""
    copy_into(step_start, rec_start, length + 1)
    copy_into(codes, rec_codes, rec_start[length])
    copy_into(chosen, rec_chosen, length)


@njit(cache=True, error_model="numpy")
def sequence_codes(start, width, height, seq, length, tabu, state, label, sizes, reps, stack, moves, msizes,
                   step_start, codes, chosen, keys, mask, group_hash, mcodes):
    """Replay ``seq`` and record, per step, the codes of the allowed moves and of the move played.

    Step t's allowed codes are ``codes[step_start[t]:step_start[t + 1]]``. They
    depend only on the sequence, so a level can keep them while its best game
    stays the same and adapt without touching a board.
    """
    n = width * height
    copy_into(state, start, n)
    # (colour, cell) codes need no labels, so the groups are tracked from move to move
    tracking = keys.shape[0] == 0
    tracked, found, redo, low, dirty_low, zone = start_tracking(n, width, label)
    count = np.int64(0)  # typed: a literal 0 would compile _next_moves once more for it
    total = 0
    for step in range(length):
        step_start[step] = total
        k, count = _next_moves(state, width, height, tabu, zone, dirty_low, tracking, step + 1, label, sizes,
                               reps, stack, tracked, count, found, redo, moves, msizes, mcodes)
        if not tracking:
            _move_codes(state, n, k, moves, label, keys, mask, group_hash, mcodes)
        for m in range(k):
            codes[total] = mcodes[m]
            total += 1
            if moves[m] == seq[step]:
                chosen[step] = mcodes[m]
        zone = play_tracked(state, width, height, seq[step], stack, low, dirty_low)
    step_start[length] = total
    return total


@njit(cache=True, error_model="numpy")
def _shifted_step(policy, codes, lo, hi, alpha, delta):
    """One step's changes ``delta[lo:hi]`` = -alpha x probability, exponentials shifted by the largest
    weight so that exp never overflows."""
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


@njit(cache=True, error_model="numpy")
def _apply_deltas(policy, step_start, codes, chosen, length, alpha, delta):
    """Apply the gathered changes, then reward each chosen move by ``alpha``."""
    for step in range(length):
        for j in range(step_start[step], step_start[step + 1]):
            policy[codes[j]] += delta[j]
        policy[chosen[step]] += alpha


@njit(cache=True, error_model="numpy")
def adapt_codes(policy, step_start, codes, chosen, length, alpha, delta):
    """NRPA's update from recorded codes: every probability is taken under the old policy, so the
    changes are gathered in ``delta`` first and applied after."""
    for step in range(length):
        lo = step_start[step]
        hi = step_start[step + 1]
        _shifted_step(policy, codes, lo, hi, alpha, delta)
    _apply_deltas(policy, step_start, codes, chosen, length, alpha, delta)


@njit(cache=True, error_model="numpy")
def adapt_table(policy, expw, touched, step_start, codes, chosen, length, alpha, delta):
    """:func:`adapt_codes` for a policy whose exponentials are kept in ``expw``: the probabilities are
    read from the table, and afterwards only the codes that changed (far fewer than the recorded
    codes: a group stays allowed over many steps) get their exponential again. ``touched`` (one flag
    per code, all False) marks them meanwhile. A step whose weights are out of exp's safe range is
    computed shifted, as :func:`adapt_codes` does.

    While every step is in range (nearly always), the table holds the old
    policy's weights until the end, so each step's changes go straight into
    the policy in the order :func:`_apply_deltas` would apply them (the same
    sums; the step sums wait in ``delta[:length]``): two passes over the
    codes instead of three, about a third of the adaptation's time.
    """
    in_range = True
    for step in range(length):
        z = 0.0
        for j in range(step_start[step], step_start[step + 1]):
            z += expw[codes[j]]
        delta[step] = z
        in_range = in_range and z > EXP_TABLE_LOW and z < EXP_TABLE_HIGH
    if in_range:
        for step in range(length):
            z = delta[step]
            for j in range(step_start[step], step_start[step + 1]):
                policy[codes[j]] += -alpha * expw[codes[j]] / z
            policy[chosen[step]] += alpha
    else:
        for step in range(length):
            lo = step_start[step]
            hi = step_start[step + 1]
            z = 0.0
            for j in range(lo, hi):
                z += expw[codes[j]]
            if z > EXP_TABLE_LOW and z < EXP_TABLE_HIGH:
                for j in range(lo, hi):
                    delta[j] = -alpha * expw[codes[j]] / z
                continue
            _shifted_step(policy, codes, lo, hi, alpha, delta)
        _apply_deltas(policy, step_start, codes, chosen, length, alpha, delta)
    end = step_start[length]
    for j in range(end):
        c = codes[j]
        if not touched[c]:
            touched[c] = True
            expw[c] = np.exp(policy[c])
    for j in range(end):
        touched[codes[j]] = False


@njit(cache=True, error_model="numpy")
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


@njit(cache=True, error_model="numpy")
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
    # level 1's exp(policy), for (colour, cell) codes: the colours on the board span the codes used
    top_colour = 0
    for i in range(n):
        top_colour = max(top_colour, start[i])
    table_codes = (top_colour + 1) * n if keys.shape[0] == 0 else 0
    start_groups = np.full(n + 1, -1, np.int64)  # the start's groups, found by the first playout
    # boards of up to 16 x 15 play on bitboards (the same games, faster: see the bitboard module)
    bits = table_codes > 0 and fits_bitboard(width, height)
    start_masks = np.zeros((top_colour + 2, WORDS), np.int64)
    masks = np.zeros_like(start_masks)
    work = bits_workspace(n, width)
    if bits:  # (a larger board's cells would land outside the masks)
        board_masks(start, width, height, top_colour + 1, start_masks)
    cells_at_start = np.int64(0)
    for i in range(n):
        cells_at_start += start[i] != EMPTY
    expw = np.empty(table_codes, np.float64)
    touched = np.zeros(table_codes, np.bool_)
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
                copy_into(best_seq, level_seq[lv], best_len)
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
            for c in range(table_codes):
                expw[c] = np.exp(pol[c])
            while level_iter[1] < iterations:
                # a playout costs far more than a clock read: check before every one
                if budget_check(playouts, playout_limit, deadline_ns, 1):
                    out_of_time = True
                    break
                if bits:
                    points, length = bits_playout(start_masks, top_colour + 1, cells_at_start, width, height,
                                                  pol, expw, tabu, penalty, seq, masks, weights, mcodes,
                                                  step_start2, seq_codes2, chosen2, start_groups, work)
                else:
                    points, length = table_playout(start, width, height, pol, expw, tabu, penalty, seq,
                                                   state, label, sizes, reps, stack, moves, msizes, weights,
                                                   keys, mask, group_hash, mcodes, step_start2, seq_codes2,
                                                   chosen2, start_groups)
                playouts += 1
                # a converged level 1 plays its best game again and again: its codes are recorded already
                if points >= level_best[1] and not _same_game(points, seq, length, level_best[1],
                                                              level_seq[1], level_len[1]):
                    level_best[1] = points
                    level_len[1] = length
                    copy_into(level_seq[1], seq, length)
                    # the playout recorded its codes in the spare set (free until level 1 is done)
                    keep_recorded(step_start2, seq_codes2, chosen2, length, step_start, seq_codes, chosen)
                    if points > best:
                        best = points
                        best_len = length
                        copy_into(best_seq, seq, length)
                if table_codes > 0:
                    adapt_table(pol, expw, touched, step_start, seq_codes, chosen, level_len[1], NRPA_ALPHA,
                                delta)
                else:
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
                    copy_into(level_seq[parent], level_seq[cur], length)
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


@njit(cache=True, error_model="numpy")
def _same_game(points, seq, length, best_points, best_seq, best_len):
    """Whether the game ``seq`` is the recorded best game (same points, same moves)."""
    if points != best_points or length != best_len:
        return False
    for t in range(length):
        if seq[t] != best_seq[t]:
            return False
    return True


@njit(cache=True, error_model="numpy")
def _descend(cur, policies, level_best, level_iter):
    """Enter level ``cur - 1`` ... down to 1, each starting from a copy of its parent's policy."""
    while cur > 1:
        child = cur - 1
        copy_into(policies[child], policies[cur], policies.shape[1])
        level_best[child] = -(np.int64(1) << 40)
        level_iter[child] = 0
        cur = child
    return cur
