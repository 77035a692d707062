"""SameGame kernel speed: group upkeep per move and NRPA playouts per second.

Group upkeep replays the same recorded playout games three times: once
finding every group afresh before each move
(`clickomania.kernels.groups.find_groups`, what the playouts did first),
once keeping the groups up to date through each move's dirty zone on a
board of cells (`samegame.kernels.tracking.refresh_groups` with the removal
`play_tracked`: what playouts on boards over 16 x 15 do), and once the same
on bitboards (`samegame.kernels.bitboard.refresh_bits` and `play_bits`:
what playouts on the standard boards do). The NRPA rate is one
level-3 run on one core (`samegame.kernels.nrpa.nrpa`), adaptation included.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from gridsolver.clickomania import rules
from gridsolver.clickomania.kernels.groups import (
    MAX_COLOURS_CODE,
    find_groups,
    remove_at,
    to_cells,
)
from gridsolver.core.boards import split_boards
from gridsolver.core.kernels.random import seed_numba_random
from gridsolver.samegame.kernels.bitboard import WORDS, board_masks, play_bits, refresh_bits
from gridsolver.samegame.kernels.nrpa import nrpa
from gridsolver.samegame.kernels.policy_playout import (
    Codes,
    Start,
    bits_workspace,
    most_frequent_colour,
    policy_playout,
    workspace,
)
from gridsolver.samegame.kernels.tracking import play_tracked, refresh_groups, start_tracking
from runner import Table

GAMES = 50  # recorded playout games per position
NRPA_SECONDS = 5.0


@njit(cache=True)
def _afresh(start, width, height, games, lengths, repeats):
    n = width * height
    state = np.empty(n, np.int8)
    label, sizes = np.empty(n, np.int32), np.empty(n, np.int32)
    reps, stack = np.empty(n, np.int32), np.empty(n, np.int32)
    groups = 0
    for r in range(repeats):
        game = r % games.shape[0]
        state[:] = start
        for t in range(lengths[game]):
            groups += find_groups(state, width, height, label, sizes, reps, stack)
            remove_at(state, width, height, games[game, t], stack)
    return groups


@njit(cache=True, error_model="numpy")
def _kept_up(start, width, height, games, lengths, repeats):
    n = width * height
    state = np.empty(n, np.int8)
    seen, stack = np.empty(n, np.int32), np.empty(n, np.int32)
    # the playouts' own arrays, types and error model (start_tracking, int64 stamps and counts), so that
    # this times the very compilation of refresh_groups that the playouts run, not a second one
    tracker, whole_board = start_tracking(n, width, seen, stack)
    groups = 0
    stamp = np.int64(0)
    for r in range(repeats):
        game = r % games.shape[0]
        state[:] = start
        tracker.dirty_low[:] = 0
        zone = whole_board
        count = np.int64(0)
        for t in range(lengths[game]):
            stamp += 1
            count = refresh_groups(state, width, height, zone, tracker, stamp, count)
            groups += count
            zone = play_tracked(state, width, height, games[game, t], tracker)
    return groups


@njit(cache=True)
def _kept_up_bits(start, width, height, games, lengths, repeats):
    n = width * height
    colours = 0
    for v in start:
        colours = max(colours, v + 1)
    start_masks = np.zeros((colours + 1, WORDS), np.int64)
    board_masks(start, width, height, colours, start_masks)
    return _replay_bits(start_masks, colours, width, height, games, lengths, repeats,
                        bits_workspace(n, width, colours))


# compiled as the playouts' bits_playout is (without reference counting, so its arrays come from the
# caller): this times the code the playouts run
@njit(cache=True, error_model="numpy", _nrt=False)
def _replay_bits(start_masks, colours, width, height, games, lengths, repeats, work):
    tracker = work.tracker
    masks, tracked, dirty_low = tracker.masks, tracker.tracked, tracker.dirty_low
    groups = 0
    for r in range(repeats):
        game = r % games.shape[0]
        for k in range(colours + 1):
            for w in range(WORDS):
                masks[k, w] = start_masks[k, w]
        for c in range(width):
            dirty_low[c] = 0
        zone = (np.int64(0), np.int64(width - 1))
        count = np.int64(0)
        for t in range(lengths[game]):
            count = refresh_bits(tracker, colours, height, zone, count)
            groups += count
            # a playout picks the record itself; a recorded game names a cell, so find its record
            move = games[game, t]
            bit = (move // height) * 16 + move % height
            record = tracked[0]
            for g in range(count):
                if tracked[g] >> 40 == bit:
                    record = tracked[g]
            zone = play_bits(tracker, colours, width, height, record)
    return groups


def _record_games(board: rules.Board, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Games of flat-policy playouts with the most frequent colour tabu."""
    width, height = board.width, board.height
    n = width * height
    cells = to_cells(board.grid)
    tabu = most_frequent_colour(cells, np.zeros(MAX_COLOURS_CODE, np.int64))
    policy = np.zeros(MAX_COLOURS_CODE * n)
    games = np.zeros((GAMES, n), np.int32)
    lengths = np.zeros(GAMES, np.int64)
    start, work, codes = Start(cells, width, height), workspace(n), Codes(np.empty(0, np.int64), 0)
    seed_numba_random(seed)
    for g in range(GAMES):
        _, length = policy_playout(start, policy, tabu, False, games[g], work, codes)
        lengths[g] = length
    return cells, games, lengths


def _per_move_us(kernel, cells, width, height, games, lengths) -> float:
    kernel(cells, width, height, games, lengths, 1)  # compile / load
    repeats = 700
    # the least CPU time of three runs: this machine's speed wanders by tens of percent, and only ever
    # upwards from the kernel's own time
    elapsed = min(_cpu_seconds(kernel, cells, width, height, games, lengths, repeats) for _ in range(3))
    moves = int(sum(lengths[r % GAMES] for r in range(repeats)))
    return elapsed / moves * 1e6


def _cpu_seconds(kernel, cells, width, height, games, lengths, repeats) -> float:
    start = time.process_time()
    kernel(cells, width, height, games, lengths, repeats)
    return time.process_time() - start


def speed(quick: bool) -> list[Table]:
    boards = [rules.parse(b) for b in split_boards(rules.named("standard-20"), "standard-20", rules.COMMENT)]
    boards = boards[:2 if quick else 5]
    upkeep = Table("Group upkeep per move (standard-20, flat-policy playout games)",
                   ["position", "moves per game", "found afresh (µs)", "kept up to date (µs)",
                    "on bitboards (µs)", "speed-up"])
    rates = Table("NRPA playouts per second, one core", ["position", "seconds", "playouts", "per second"])
    seconds = 1.0 if quick else NRPA_SECONDS
    for number, board in enumerate(boards, 1):
        cells, games, lengths = _record_games(board, seed=number)
        afresh = _per_move_us(_afresh, cells, board.width, board.height, games, lengths)
        kept = _per_move_us(_kept_up, cells, board.width, board.height, games, lengths)
        bits = _per_move_us(_kept_up_bits, cells, board.width, board.height, games, lengths)
        upkeep.add(number, f"{lengths.mean():.1f}", f"{afresh:.3f}", f"{kept:.3f}", f"{bits:.3f}",
                   f"{afresh / bits:.2f}x")
        path = np.zeros(board.width * board.height, np.int32)
        nrpa(cells, board.width, board.height, 1, 10, False, 1, time.monotonic_ns() + 10**9, 100, path)
        start = time.perf_counter()
        _, _, playouts = nrpa(cells, board.width, board.height, 3, 100, False, 1,
                              time.monotonic_ns() + int(seconds * 1e9), 1 << 62, path)
        elapsed = time.perf_counter() - start
        rates.add(number, f"{elapsed:.1f}", playouts, f"{playouts / elapsed:,.0f}")
    upkeep.notes.append("Every column includes the removal and settling of each move and replays the same "
                        f"{GAMES} recorded games per position; speed-up: bitboards against found afresh. "
                        "The bitboard column also looks up each recorded move's group (a playout has it).")
    return [upkeep, rates]


def run(quick: bool) -> list[Table]:
    return speed(quick)
