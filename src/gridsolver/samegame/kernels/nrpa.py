"""Nested rollout policy adaptation (Rosin 2011) for SameGame: the adaptation and the search (numba kernels).

Level 1 plays policy playouts (:mod:`.policy_playout`) and adapts its policy
towards the best game after each; level L runs level L-1 searches and
adapts towards the best game they return. :func:`nrpa_run` unrolls the
recursion onto per-level arrays (:func:`nrpa_state`), so a stopped run can
be resumed. The adaptation reads a game's recorded codes
(:class:`~.policy_playout.Record`), never a board.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.groups import EMPTY, MAX_COLOURS_CODE
from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.clock import budget_check
from gridsolver.core.kernels.watch import report_best
from gridsolver.samegame.kernels.bitboard import WORDS, board_masks, fits_bitboard
from gridsolver.samegame.kernels.policy_playout import (
    EXP_TABLE_HIGH,
    EXP_TABLE_LOW,
    BitsStart,
    Codes,
    Record,
    Start,
    bits_playout,
    bits_workspace,
    keep_recorded,
    most_frequent_colour,
    record_arrays,
    sequence_codes,
    table_playout,
    workspace,
)
from gridsolver.samegame.kernels.scoring import NO_VALUE

# error_model="numpy": integer // and % skip numba's check for a zero divisor (every divisor here is a
# board size or a count above 0): NRPA takes about 16% less CPU time for the same games

NRPA_ALPHA = 1.0


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
def adapt_codes(policy, record, length, alpha, delta):
    """NRPA's update from a game's recorded codes: every probability is taken under the old policy, so
    the changes are gathered in ``delta`` first and applied after."""
    step_start, codes, chosen = record
    for step in range(length):
        lo = step_start[step]
        hi = step_start[step + 1]
        _shifted_step(policy, codes, lo, hi, alpha, delta)
    _apply_deltas(policy, step_start, codes, chosen, length, alpha, delta)


@njit(cache=True, error_model="numpy")
def adapt_table(policy, expw, touched, record, length, alpha, delta):
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
    step_start, codes, chosen = record
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
def adapt_policy(start, policy, seq, length, tabu, alpha, work, codes):
    """NRPA's update, in place: raise the code of every move of ``seq`` by ``alpha`` and lower each
    allowed move's code by ``alpha`` times its probability under the old policy."""
    n = start.width * start.height
    record = Record(np.empty(length + 1, np.int64), np.empty(max(1, length * n), np.int64),
                    np.empty(max(1, length), np.int64))
    delta = np.empty(record.codes.shape[0], np.float64)
    sequence_codes(start, seq, length, tabu, work, codes, record)
    adapt_codes(policy, record, length, alpha, delta)


#: The whole state of an NRPA search (:func:`nrpa_state`): the code keys, each level's policy, the
#: points, length and moves of each level's best game, and the iterations each level has done.
SearchState = namedtuple("SearchState", "keys policies level_best level_len level_seq level_iter")


def nrpa_state(n, level, hash_bits=0, seed=0):
    """Fresh :data:`SearchState` for :func:`nrpa_run` on an ``n``-cell board. ``keys`` hash a
    group's cells and colour into 2^hash_bits policy codes (empty: codes are (colour, canonical
    cell))."""
    if hash_bits > 0:
        keys = np.random.default_rng(seed).integers(1, 1 << 62, n + MAX_COLOURS_CODE, dtype=np.int64)
        codes = 1 << hash_bits
    else:
        keys = np.empty(0, np.int64)
        codes = MAX_COLOURS_CODE * n
    return SearchState(keys, np.zeros((level + 1, codes), np.float64), np.full(level + 1, NO_VALUE, np.int64),
                       np.zeros(level + 1, np.int64), np.zeros((level + 1, n), np.int32),
                       np.zeros(level + 1, np.int64))


def nrpa(start, width, height, level, iterations, penalty, seed, deadline_ns, playout_limit, best_seq,
         hash_bits=0, tabu=-1):
    """One :func:`nrpa_run` from a fresh state; returns (points, length, playouts)."""
    state = nrpa_state(width * height, level, hash_bits, seed)
    return nrpa_run(start, width, height, level, iterations, penalty, seed, deadline_ns, playout_limit,
                    best_seq, tabu, state, False)


@njit(cache=True, error_model="numpy")
def nrpa_run(start, width, height, level, iterations, penalty, seed, deadline_ns, playout_limit, best_seq,
             tabu, state, resume):
    """Nested rollout policy adaptation (Rosin 2011) from ``start``, restarted until the deadline.

    Level 1 plays ``iterations`` policy playouts, adapting its policy towards
    the best game after each; level L runs ``iterations`` searches of level
    L-1, each from a copy of its policy, and adapts towards the best game they
    return. The recursion is unrolled onto per-level arrays (kernels do not
    recurse), which are the search's whole ``state`` (:data:`SearchState`): with
    ``resume`` the search goes on where a run that stopped left them.
    Playouts never take the tabu colour (-1: the most frequent one at the
    start) while another move exists. A move's code is (colour, canonical
    cell), or with ``keys`` a hash of its colour and all its cells. Returns
    (points, length, playouts) of the best game seen (on resuming, the best
    that the state still holds counts); its moves go to ``best_seq``.
    """
    keys, policies, level_best, level_len, level_seq, level_iter = state
    np.random.seed(seed)
    n = width * height
    board = Start(start, width, height)
    codes = Codes(keys, policies.shape[1] - 1)
    work = workspace(n)
    # the recorded codes of level 1's best game (recorded again whenever it changes) and a spare set
    best_record = record_arrays(n)
    spare = record_arrays(n)
    delta = np.empty(best_record.codes.shape[0], np.float64)
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
    bits_work = bits_workspace(n, width, top_colour + 1)
    if bits:  # (a larger board's cells would land outside the masks)
        board_masks(start, width, height, top_colour + 1, start_masks)
    cells_at_start = np.int64(0)
    for i in range(n):
        cells_at_start += start[i] != EMPTY
    bits_board = BitsStart(start_masks, top_colour + 1, cells_at_start, width, height)
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
                copy_prefix(best_seq, level_seq[lv], best_len)
        if level_best[1] > NO_VALUE:
            sequence_codes(board, level_seq[1], level_len[1], tabu, work, codes, best_record)
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
                    points, length = bits_playout(bits_board, pol, expw, tabu, penalty, seq, spare, bits_work)
                else:
                    points, length = table_playout(board, pol, expw, tabu, penalty, seq, work, codes, spare,
                                                   start_groups)
                playouts += 1
                # a converged level 1 plays its best game again and again: its codes are recorded already
                if points >= level_best[1] and not _same_game(points, seq, length, level_best[1],
                                                              level_seq[1], level_len[1]):
                    level_best[1] = points
                    level_len[1] = length
                    copy_prefix(level_seq[1], seq, length)
                    # the playout recorded its codes in the spare set (free until level 1 is done)
                    keep_recorded(spare, length, best_record)
                    if points > best:
                        best = points
                        best_len = length
                        copy_prefix(best_seq, seq, length)
                        # (with the end penalty in the objective, below the game's points when not cleared)
                        report_best(points)
                if table_codes > 0:
                    adapt_table(pol, expw, touched, best_record, level_len[1], NRPA_ALPHA, delta)
                else:
                    adapt_codes(pol, best_record, level_len[1], NRPA_ALPHA, delta)
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
                    copy_prefix(level_seq[parent], level_seq[cur], length)
                sequence_codes(board, level_seq[parent], level_len[parent], tabu, work, codes, spare)
                adapt_codes(policies[parent], spare, level_len[parent], NRPA_ALPHA, delta)
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
        copy_prefix(policies[child], policies[cur], policies.shape[1])
        level_best[child] = -(np.int64(1) << 40)
        level_iter[child] = 0
        cur = child
    return cur
