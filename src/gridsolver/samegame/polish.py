"""A finished game made better, and the exact search it uses.

A SameGame worker's best game goes through two polishers before it is reported: its tail re-searched
by the tabu beam (:func:`polish_tail`), then its ending solved exactly (:func:`polish_ending`). The
same exact search (:func:`~gridsolver.samegame.kernels.endgame.endgame_value`) from the start decides
small boards outright (:func:`exact_game`). Each returns (points, moves, nodes), and a polisher never
returns a game that scores less than the one it was given. :func:`line_points` scores a game through
the kernels.
"""

from __future__ import annotations

import numpy as np

from gridsolver.clickomania.kernels.groups import EMPTY, remove_at, zobrist_table
from gridsolver.core import interrupt
from gridsolver.samegame.kernels.beam import TABU_WEIGHTS, tabu_beam, tabu_plan
from gridsolver.samegame.kernels.endgame import endgame_line, endgame_value
from gridsolver.samegame.rules import end_bonus

TAIL_BEAM_START = 1024  # the tail's first beam width (doubled after each sweep of the whole game) ...
TAIL_BEAM_MAX = 8192  # ... up to this one (30 MB on a 15 x 15 board; 30 s reached 2,048 on those games)
POLISH_TABLE_BITS = 20  # 2^20 positions (20 MB) at most in the endgame table
EXACT_TABLE_BITS = 22  # the exact search from the start: a table of up to 2^22 positions


def endgame_table(bits: int, memory_bytes: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The exact endgame search's table (keys, values, best moves: 20 bytes a slot) of 2^``bits``
    slots, fewer when that would take more than half of ``memory_bytes``."""
    while memory_bytes is not None and bits > 10 and 20 << bits > memory_bytes // 2:
        bits -= 1
    return np.zeros(1 << bits, np.int64), np.zeros(1 << bits, np.int64), np.zeros(1 << bits, np.int32)


def polish_ending(cells: np.ndarray, width: int, height: int, seq: np.ndarray, penalty: bool,
                  deadline_ns: int, node_limit: int, memory_bytes: int | None) -> tuple[int, np.ndarray, int]:
    """Replace the ending of the game ``seq`` by a best possible one, solved exactly.

    Walks back from the game's last position, finding each position's exact
    value (:func:`~gridsolver.samegame.kernels.endgame.endgame_value`, one
    table for all of them so each step reuses the last) until a search does
    not finish in time or in the table; the best prefix + exact ending seen
    wins. Returns (points, moves, nodes).
    """
    n = width * height
    keys, values, best_moves = endgame_table(POLISH_TABLE_BITS, memory_bytes)
    zob = zobrist_table(n)
    stack = np.empty(n, np.int32)
    states = [cells.copy()]
    prefix = [0]
    for index in seq:
        state = states[-1].copy()
        removed = remove_at(state, width, height, int(index), stack)  # int: an int32 compiles it once more
        states.append(state)
        prefix.append(prefix[-1] + (removed - 2) ** 2)
    left = int((states[-1] != EMPTY).sum())
    bonus = end_bonus(left, True, penalty)  # the game is over there (or, played to no end, scored as if)
    best_points = prefix[-1] + bonus
    best_seq = np.asarray(seq, np.int32).copy()
    nodes = 0
    line = np.zeros(n, np.int32)
    for t in range(len(seq), -1, -1):
        if nodes >= node_limit:
            break
        value, used, complete = endgame_value(states[t], width, height, zob, keys, values, best_moves,
                                                penalty, node_limit - nodes, deadline_ns)
        nodes += used
        if not complete:
            break
        if prefix[t] + value > best_points:
            length = endgame_line(states[t], width, height, zob, keys, values, best_moves, line)
            if length >= 0:
                best_points = prefix[t] + int(value)
                best_seq = np.concatenate([best_seq[:t], line[:length]])
    return best_points, best_seq, nodes


def polish_tail(cells: np.ndarray, width: int, height: int, seq: np.ndarray, tabu: int, penalty: bool,
                deadline_ns: int, node_limit: int, memory_bytes: int | None) -> tuple[int, np.ndarray, int]:
    """Replace the tail of the game ``seq`` by a tabu beam's game from the same position when that scores
    more.

    Sweeps the game from its last position back to its first, running
    :func:`~gridsolver.samegame.kernels.beam.tabu_beam` (tabu colour ``tabu``) from each; a better game
    found from move k keeps the first k moves and takes the beam's. A sweep that reaches the start
    begins again at twice the width, up to :data:`TAIL_BEAM_MAX`. NRPA's games are strongest in their
    openings (from the first 20 moves of a level-3 game a beam scores far less than the game), while
    late positions are cheap for the beam, which sometimes finds a better ending than the policy learnt.
    Stops at ``deadline_ns``, after ``node_limit`` beam nodes, after the sweep at the widest width, or
    at the width that half of ``memory_bytes`` holds. Returns (points, moves, nodes).
    """
    n = width * height
    zob = zobrist_table(n)
    table = endgame_table(4, memory_bytes)  # required by the kernel; the tail's beams solve no endings
    cap = TAIL_BEAM_MAX if memory_bytes is None else max(1, min(TAIL_BEAM_MAX,
                                                                memory_bytes // 2 // beam_state_bytes(n)))
    best_seq = np.asarray(seq, np.int32).copy()
    best_points = line_points(cells, width, height, best_seq, penalty)
    path = np.zeros(n, np.int32)
    stack = np.empty(n, np.int32)
    nodes = 0
    beam_width = min(TAIL_BEAM_START, cap)
    while True:
        states, prefix = [cells.copy()], [0]
        for index in best_seq:
            state = states[-1].copy()
            prefix.append(prefix[-1] + (remove_at(state, width, height, int(index), stack) - 2) ** 2)
            states.append(state)
        for k in range(len(best_seq) - 1, -1, -1):
            if nodes >= node_limit or not interrupt.time_left(deadline_ns):
                return best_points, best_seq, nodes
            plan = tabu_plan(beam_width, penalty, tabu, TABU_WEIGHTS)
            value, length, used, done = tabu_beam(states[k], width, height, zob, plan, table, path,
                                                  interrupt.capped(deadline_ns), node_limit - nodes)
            nodes += used
            if length >= 0 and prefix[k] - value > best_points:
                best_points = prefix[k] - int(value)
                best_seq = np.concatenate([best_seq[:k], path[:length]])
            if not done:
                return best_points, best_seq, nodes
        if beam_width >= cap:
            return best_points, best_seq, nodes
        beam_width = min(cap, beam_width * 2)


def beam_state_bytes(n: int) -> int:
    """What one position of a beam of ``n``-cell boards takes (its cells, groups and bookkeeping)."""
    return 2 * n + (n // 2 + 1) * 20 + 8 * (n // 2 + 2) + 20


def exact_game(cells: np.ndarray, width: int, height: int, penalty: bool, deadline_ns: int,
               node_limit: int, memory_bytes: int | None) -> tuple[int, np.ndarray, int] | None:
    """The best game from the start, searched exhaustively (memoised positions): (points, moves,
    nodes), or None when the search did not finish within the deadline, the nodes or the table."""
    n = width * height
    keys, values, best_moves = endgame_table(EXACT_TABLE_BITS, memory_bytes)
    zob = zobrist_table(n)
    value, nodes, complete = endgame_value(cells, width, height, zob, keys, values, best_moves, penalty,
                                           node_limit, deadline_ns)
    if not complete:
        return None
    line = np.zeros(n, np.int32)
    length = endgame_line(cells, width, height, zob, keys, values, best_moves, line)
    return None if length < 0 else (int(value), line[:length].copy(), int(nodes))


def line_points(cells: np.ndarray, width: int, height: int, seq: np.ndarray, penalty: bool) -> int:
    """The score of the game ``seq`` from ``cells`` under the rules (end penalty with ``penalty``)."""
    state = cells.copy()
    stack = np.empty(state.shape[0], np.int32)
    points = 0
    for index in seq:
        removed = remove_at(state, width, height, int(index), stack)
        points += (removed - 2) ** 2
    left = int((state != EMPTY).sum())
    return points + end_bonus(left, True, penalty)
