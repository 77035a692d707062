"""The Clickomania solver: drive the kernels, verify, and report.

Clickomania (fewest cells left): a beam search gives a first answer fast; on
boards of at most :data:`EXACT_MAX_CELLS` cells (beams of growing width) a
depth-first branch and bound with a transposition table then either
improves it or proves it best. Larger boards get restarts of narrow beams
with random tie-breaks, and now and then a wider one, each failed one followed
by wider *tail beams* that replay its game to a few hundred cells left and
search on from there (:data:`TAILS`), until the board is cleared or the time
runs out (:func:`restart_plan`).

Every sequence is replayed under :mod:`.rules` before it is reported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from gridsolver.clickomania.kernels.beam import (
    CLEAR_PIECE_WEIGHT,
    CLEAR_SINGLE_WEIGHT,
    clear_beam,
    clear_plan,
    crop_board,
)
from gridsolver.clickomania.kernels.exact import exact_search_growing
from gridsolver.clickomania.kernels.groups import (
    EMPTY,
    MAX_COLOURS_CODE,
    path_to_moves,
    remove_at,
    to_cells,
    zobrist_table,
)
from gridsolver.clickomania.kernels.playout import tabu_playout
from gridsolver.clickomania.rules import Board, Move
from gridsolver.core import interrupt, watch
from gridsolver.core.budget import Budget, peak_rss_mb
from gridsolver.core.kernels.random import seed_numba_random
from gridsolver.core.result import Result, Stats

EXACT_MAX_CELLS = 400
BEAM_SHARE_BEFORE_EXACT = 0.1
BEAM_START_WIDTH = 1
BEAM_GROWTH = 2
ENDGAME_CELLS = 80  # beam positions with this few cells left get an exhaustive search
ENDGAME_NODES = 20_000  # node limit of each such endgame search
FIRST_TABLE_SLOTS = 1 << 16  # the exact search's table starts at 512 KB and grows with use
RESTART_WIDTH = 2  # the width of most restarts on large boards
WIDE_EVERY = 4  # every this many restarts, one wider beam (4, 8, 16, ...): some boards need width
KEEP_SHARES = (0.0, 0.25, 0.5)  # restarts keep this share of the best beam's moves, in turn
# after a large board's restart fails, wider beams replay its game up to this many cells left and
# search on from there: (cells left, beam width). Failed width-2 games of 50 x 50 boards were often
# still clearable at 100-300 cells left and lost the clear shortly before their endgames began.
TAILS = ((800, 16), (600, 16), (400, 16))
TAIL_ENDGAME = (60, 5_000)  # a tail beam's endgames: (cells left, nodes)


def restart_plan(run: int) -> tuple[int, int, float]:
    """(beam width, tie-break seed, share of the best beam's moves kept) of a large board's
    ``run``-th beam (0 first).

    Run 0 is the plain greedy beam (width 1, ties in group order). Measured on clearable 40 x 40
    and 50 x 50 boards (tuning seeds 1000-1009 and 1-7): restarting width-2 beams with other
    random tie-breaks cleared them sooner than doubling one beam's width, since whether a beam
    clears a board is much a matter of luck; and a restart from halfway along the best beam's
    moves (keeping its first half) cleared as many boards as one from the start in 40% less time
    (from 80% along it cleared fewer: by then the game is often lost).
    """
    if run == 0:
        return 1, 0, 0.0
    if run % WIDE_EVERY == 0:
        return RESTART_WIDTH << (run // WIDE_EVERY), run, 0.0
    return RESTART_WIDTH, run, KEEP_SHARES[run % len(KEEP_SHARES)]


@dataclass
class _Best:
    value: int  # cells left
    moves: list[Move]


def _beam_width_cap(board: Board, budget: Budget) -> int:
    """The widest beam whose arrays fit half the memory budget."""
    n = board.width * board.height
    per_state = 2 * n + (n // 2 + 1) * 20 + 8 * (n // 2 + 2)
    limit = budget.memory_bytes()
    return 1 << 20 if limit is None else max(1, int(limit * 0.5) // per_state)


def stopped_by(budget: Budget, nodes: int) -> str:
    """Why a search that did not finish stopped: ``nodes`` or ``time``."""
    return "nodes" if budget.nodes is not None and nodes >= budget.nodes else "time"


def _random_game(cells: np.ndarray, width: int, height: int) -> _Best:
    """One tabu-colour playout: a complete game in milliseconds, the first anytime answer."""
    n = width * height
    path = np.zeros(n, np.int32)
    board = cells.copy()
    seed_numba_random(0)
    length, _ = tabu_playout(board, width, height, path, 0, np.empty(n, np.int32), np.empty(n, np.int32),
                             np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32),
                             np.zeros(MAX_COLOURS_CODE, np.int64))
    return _Best(int((board != EMPTY).sum()), path_to_moves(path, length, height))


def _play(cells: np.ndarray, width: int, height: int, moves: np.ndarray) -> np.ndarray:
    """The board after the kernel ``moves``."""
    board = cells.copy()
    stack = np.empty(width * height, np.int32)
    for move in moves:
        remove_at(board, width, height, int(move), stack)
    return board


def _tail_start(cells: np.ndarray, width: int, height: int, game: np.ndarray, left: int) -> int:
    """How many moves of ``game`` are played when at most ``left`` cells are first left (its length
    when never)."""
    board = cells.copy()
    stack = np.empty(width * height, np.int32)
    cells_left = int((board != EMPTY).sum())
    for k, move in enumerate(game):
        if cells_left <= left:
            return k
        cells_left -= int(remove_at(board, width, height, int(move), stack))
    return int(game.shape[0])


def _tails(cells: np.ndarray, width: int, height: int, game: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """The tail beams (:data:`TAILS`) to run after the failed restart ``game``: (width, moves kept)."""
    out = []
    for left, tail_width in TAILS:
        kept = _tail_start(cells, width, height, game, left)
        if 0 < kept < game.shape[0]:
            out.append((tail_width, game[:kept]))
    return out


def _beam_from(cells: np.ndarray, width: int, height: int, zob: np.ndarray, prefix: np.ndarray,
               beam_width: int, tie_seed: int, endgame: tuple[int, int], deadline: int,
               node_limit: int) -> tuple[int, np.ndarray | None, int, bool]:
    """A clearing beam after the kernel moves ``prefix``, on the occupied part of the board (a board
    near its end is small, so a wide beam costs little).

    Returns (fewest cells left, the whole game from the start (kernel moves) or None when the beam
    reached no game end, nodes, finished)."""
    board = _play(cells, width, height, prefix)
    crop = np.empty(width * height, np.int8)
    cw, ch = crop_board(board, width, height, crop)
    if cw == 0:
        return 0, prefix, 0, True
    path = np.zeros(max(cw * ch, 1), np.int32)
    plan = clear_plan(beam_width, endgame[0], endgame[1], CLEAR_SINGLE_WEIGHT, CLEAR_PIECE_WEIGHT, tie_seed)
    value, length, used, done = clear_beam(crop[:cw * ch].copy(), cw, ch, zob, plan, path, deadline,
                                           node_limit)
    if length < 0:
        return int(value), None, int(used), bool(done)
    cols = path[:length] // ch
    tail = (cols * height + path[:length] - cols * ch).astype(np.int32)  # back to the full board's cells
    return int(value), np.concatenate((prefix, tail)), int(used), bool(done)


def solve_clickomania(board: Board, budget: Budget, label: str = "board") -> Result:
    """Clear ``board`` or find the fewest cells left, proving it when the search is exhausted."""
    width, height = board.width, board.height
    cells = to_cells(board.grid)
    zob = zobrist_table(width * height)
    path = np.zeros(width * height, np.int32)
    deadline = budget.deadline_ns()
    small = width * height <= EXACT_MAX_CELLS
    beam_deadline = deadline if not small else min(
        deadline, time.monotonic_ns() + int(1e9 * BEAM_SHARE_BEFORE_EXACT * (budget.remaining_s() or 10.0)))
    nodes = 0
    finished = False
    proof = ""
    table_mb = None
    best = _random_game(cells, width, height)  # an answer at once, however large the board
    watch.improved(best.value, [list(m) for m in best.moves])
    beam_width = BEAM_START_WIDTH
    cap = _beam_width_cap(board, budget)
    runs = 0
    root_dead = int(sum(1 for count in board.colour_counts().values() if count == 1))
    # Phase 1: beams (anytime: each finished beam may improve the best). Small boards: growing
    # widths, then the exact search; large boards: restarts (restart_plan).
    beam_path = np.zeros(0, np.int32)  # kernel moves of the best beam game so far (large boards)
    base_runs = 0
    tails: list[tuple[int, np.ndarray]] = []  # (width, moves kept) of the tail beams still to run
    while best.value > 0:
        tie_seed, prefix, endgame = 0, beam_path[:0], (ENDGAME_CELLS, ENDGAME_NODES)
        tail = not small and bool(tails)
        if tail:
            beam_width, prefix = tails.pop(0)
            tie_seed, endgame = runs + 1, TAIL_ENDGAME
        elif not small:
            beam_width, tie_seed, share = restart_plan(base_runs)
            base_runs += 1
            prefix = beam_path[:int(share * beam_path.shape[0])]
        value, game, used, done = _beam_from(cells, width, height, zob, prefix, min(cap, beam_width),
                                             tie_seed, endgame, interrupt.capped(beam_deadline),
                                             budget.node_limit() - nodes)
        nodes += used
        runs += 1
        if game is not None and value <= best.value:
            # a tie replaces the path too: restarts then keep part of a game not yet tried
            beam_path = game
            best = _Best(value, path_to_moves(beam_path, beam_path.shape[0], height))
        if not small and not tail and game is not None and value > 0:
            tails = _tails(cells, width, height, game)
        if not done or (small and (beam_width >= cap or beam_width >= 64)):
            break
        if used == 0 or best.value <= root_dead:  # no move at all, or nothing left to improve
            break
        if small:
            beam_width = min(cap, beam_width * BEAM_GROWTH)
    # Phase 2 (small boards): exhaustive branch and bound under the best found so far.
    if small and best.value > 0 and not budget.expired(nodes):
        # the table starts small and doubles as it fills, up to the budget: a big budget costs
        # nothing until positions use it (a table of the whole budget, touched at random, would
        # take gigabytes of pages within a second)
        max_slots = budget.table_slots(8)
        table = np.zeros(min(FIRST_TABLE_SLOTS, max_slots), np.int64)
        table_slots = np.zeros(1, np.int64)
        value, length, used, done = exact_search_growing(cells, width, height, zob, table, max_slots,
                                                         best.value, budget.deadline_ns(),
                                                         budget.node_limit() - nodes, path, table_slots)
        table_mb = round(8 * int(table_slots[0]) / 2**20, 1)
        nodes += used
        if length >= 0:
            best = _Best(int(value), path_to_moves(path, length, height))
        finished = bool(done)
        if finished:
            proof = ("exhaustive depth-first branch and bound (dead-colour bound, transposition table "
                     f"of 64-bit Zobrist keys): no sequence leaves fewer than {best.value} cells")
    stats = Stats(nodes=nodes, elapsed_s=round(budget.elapsed_s(), 4), peak_memory_mb=round(peak_rss_mb(), 1))
    stopped = None
    if best.value == 0:
        status, proof = "optimal", "the board is cleared (0 cells left cannot be beaten)"
    elif finished:
        status = "impossible"
    else:
        status = "best-found"
        stopped = stopped_by(budget, nodes)
    details = {"cleared": best.value == 0, "fewest_cells_left": best.value,
               "fewest_proved": best.value == 0 or finished, "moves": len(best.moves),
               "size": f"{width}x{height}", "colours": len(board.colour_counts()), "beam_runs": runs}
    if table_mb is not None:
        details["table_mb"] = table_mb
    # the caller replays the moves under the rules before the result is reported (core.game.verify)
    return Result("clickomania", label, status, solution=[list(m) for m in best.moves], score=best.value,
                  score_name="cells left", proof=proof, stopped=stopped, stats=stats, details=details)
