"""Clickomania and SameGame solvers: drive the kernels, verify, and report.

Clickomania (fewest cells left): a beam search with growing widths gives a
first answer fast; on boards of at most :data:`EXACT_MAX_CELLS` cells a
depth-first branch and bound with a transposition table then either
improves it or proves it best. Larger boards keep widening the beam until
the time runs out.

SameGame (most points): every worker runs a beam search with growing widths
(ranked by points plus each colour's best possible group) and then nested
Monte-Carlo search (level 2, tabu-colour playouts) with its own seed until
the deadline; the best game of all workers wins.

Every sequence is replayed under :mod:`.rules` before it is reported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from gridsolver.clickomania import kernels as K
from gridsolver.clickomania import rules
from gridsolver.clickomania.rules import Board, Move
from gridsolver.core.budget import Budget, peak_rss_mb
from gridsolver.core.errors import InputError
from gridsolver.core.result import SearchStats, SolveResult

EXACT_MAX_CELLS = 400
BEAM_SHARE_BEFORE_EXACT = 0.1
BEAM_START_WIDTH = 1
BEAM_GROWTH = 4
SAMEGAME_BEAM_SHARE = 0.3


@dataclass
class _Best:
    value: int  # cells left (Clickomania) or points (SameGame)
    moves: list[Move]


def _moves(path: np.ndarray, length: int, height: int) -> list[Move]:
    return [K.index_to_move(i, height) for i in path[:length]]


def _beam_width_cap(board: Board, budget: Budget) -> int:
    """The widest beam whose arrays fit half the memory budget."""
    n = board.width * board.height
    per_state = 2 * n + (n // 2 + 1) * 20 + 8 * (n // 2 + 2)
    limit = budget.memory_bytes()
    return 1 << 20 if limit is None else max(1, int(limit * 0.5) // per_state)


def _stopped_by(budget: Budget, nodes: int) -> str:
    return "nodes" if budget.nodes is not None and nodes >= budget.nodes else "time"


def solve_clickomania(board: Board, budget: Budget, label: str = "board") -> SolveResult:
    """Clear ``board`` or find the fewest cells left, proving it when the search is exhausted."""
    width, height = board.width, board.height
    cells = K.to_cells(board.grid)
    zob = K.zobrist_table(width * height)
    path = np.zeros(width * height, np.int32)
    deadline = budget.deadline_ns()
    small = width * height <= EXACT_MAX_CELLS
    beam_deadline = deadline if not small else min(
        deadline, time.monotonic_ns() + int(1e9 * BEAM_SHARE_BEFORE_EXACT * (budget.remaining_s() or 10.0)))
    best: _Best | None = None
    nodes = 0
    finished = False
    proof = ""
    beam_width = BEAM_START_WIDTH
    cap = _beam_width_cap(board, budget)
    # Phase 1: beams of growing width (anytime: each finished beam may improve the best).
    while True:
        value, length, used, done = K.beam_search(cells, width, height, zob, beam_width, K.CLEAR, False,
                                                  beam_deadline, budget.node_limit() - nodes, path)
        nodes += used
        if length >= 0 and (best is None or value < best.value):
            best = _Best(int(value), _moves(path, length, height))
        if (best is not None and best.value == 0) or not done or beam_width >= cap:
            break
        if small and beam_width >= 64:
            break
        beam_width = min(cap, beam_width * BEAM_GROWTH)
    # Phase 2 (small boards): exhaustive branch and bound under the best found so far.
    if small and (best is None or best.value > 0) and not budget.expired(nodes):
        table = np.zeros(budget.table_slots(8), np.int64)
        bound = best.value if best is not None else width * height + 1
        value, length, used, done = K.exact_search(cells, width, height, zob, table, bound, deadline,
                                                   budget.node_limit() - nodes, path)
        nodes += used
        if length >= 0:
            best = _Best(int(value), _moves(path, length, height))
        finished = bool(done) and best is not None
        if finished:
            proof = ("exhaustive depth-first branch and bound (dead-colour bound, transposition table "
                     f"of 64-bit Zobrist keys): no sequence leaves fewer than {best.value} cells")
    stats = SearchStats(nodes=nodes, elapsed_s=round(budget.elapsed_s(), 4),
                        peak_memory_mb=round(peak_rss_mb(), 1))
    if best is None:
        stats.stopped_by = _stopped_by(budget, nodes)
        return SolveResult("clickomania", label, "no-solution-found", score_name="cells left", stats=stats)
    replayed = rules.replay(board, best.moves)
    verified = replayed.cells_left == best.value and replayed.game_over
    if not verified:
        raise RuntimeError(f"{label}: the search's sequence does not replay to {best.value} cells left")
    if best.value == 0:
        status, proof = "optimal", "the board is cleared (0 cells left cannot be beaten)"
    elif finished:
        status = "impossible"
    else:
        status = "best-found"
        stats.stopped_by = _stopped_by(budget, nodes)
    details = {"cleared": best.value == 0, "fewest_cells_left": best.value,
               "fewest_proved": best.value == 0 or finished, "moves": len(best.moves),
               "size": f"{width}x{height}", "colours": len(board.colour_counts())}
    return SolveResult("clickomania", label, status, solution=[list(m) for m in best.moves],
                       score=best.value, score_name="cells left", proof=proof, verified=verified,
                       stats=stats, details=details)


# -- SameGame -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SameGameTask:
    """One worker's job (plain data, so it can go to another process)."""

    grid: np.ndarray
    seed: int
    deadline_ns: int
    node_limit: int
    memory_bytes: int | None
    penalty: bool


def samegame_worker(task: SameGameTask) -> tuple[int, list[Move], int, str]:
    """Beam search, then repeated level-2 nested Monte-Carlo search; returns (points, moves, nodes, how)."""
    board = Board(task.grid)
    width, height = board.width, board.height
    n = width * height
    cells = K.to_cells(board.grid)
    zob = K.zobrist_table(n)
    path = np.zeros(n, np.int32)
    start = time.monotonic_ns()
    beam_deadline = start + int((task.deadline_ns - start) * SAMEGAME_BEAM_SHARE)
    best_points, best_moves, how = -(1 << 40), [], ""
    nodes = 0
    per_state = 2 * n + (n // 2 + 1) * 20 + 8 * (n // 2 + 2)
    cap = 1 << 20 if task.memory_bytes is None else max(1, task.memory_bytes // 2 // per_state)
    width_now = 16
    while time.monotonic_ns() < beam_deadline and nodes < task.node_limit:
        value, length, used, done = K.beam_search(cells, width, height, zob, width_now, K.SCORE,
                                                  task.penalty, beam_deadline, task.node_limit - nodes, path)
        nodes += used
        if length >= 0 and -value > best_points:
            best_points, best_moves, how = int(-value), _moves(path, length, height), f"beam {width_now}"
        if not done or width_now >= cap:
            break
        width_now = min(cap, width_now * 2)
    seed = task.seed
    while time.monotonic_ns() < task.deadline_ns and nodes < task.node_limit:
        points, length, playouts = K.nmcs(cells, width, height, 2, task.penalty, seed, task.deadline_ns, path)
        nodes += playouts
        if points > best_points:
            best_points, best_moves, how = int(points), _moves(path, length, height), f"nmcs 2 seed {seed}"
        seed += 1_000_003
    if not best_moves and best_points < 0:
        points, length, _ = K.nmcs(cells, width, height, 0, task.penalty, task.seed, 0, path)
        best_points, best_moves, how = int(points), _moves(path, length, height), "one playout"
    return best_points, best_moves, nodes, how


def solve_samegame(board: Board, budget: Budget, *, workers: int = 1, cluster: str | None = None,
                   seed: int = 0, penalty: bool = False, label: str = "board") -> SolveResult:
    """Maximise the SameGame score of ``board`` within the budget, on ``workers`` processes."""
    from gridsolver.core.parallel import parallel_map

    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    memory = budget.memory_bytes()
    share = None if memory is None else memory // workers
    tasks = [SameGameTask(board.grid, seed + 7919 * i, budget.deadline_ns(), budget.node_limit(), share,
                          penalty) for i in range(workers)]
    outcomes = parallel_map(samegame_worker, tasks, workers=workers, cluster=cluster,
                            label=f"samegame {label}")
    points, moves, _, how = max(outcomes, key=lambda o: o[0])
    nodes = sum(o[2] for o in outcomes)
    replayed = rules.replay(board, moves, penalty=penalty)
    verified = replayed.score == points and replayed.game_over
    if not verified:
        raise RuntimeError(f"{label}: the search's sequence does not replay to {points} points")
    stats = SearchStats(nodes=nodes, elapsed_s=round(budget.elapsed_s(), 4),
                        peak_memory_mb=round(peak_rss_mb(), 1), stopped_by=_stopped_by(budget, nodes))
    details = {"cleared": replayed.cells_left == 0, "cells_left": replayed.cells_left,
               "moves": len(moves), "found_by": how, "workers": workers,
               "end_penalty": penalty, "worker_scores": [o[0] for o in outcomes]}
    return SolveResult("samegame", label, "best-found", solution=[list(m) for m in moves], score=points,
                       score_name="points", verified=verified, stats=stats, details=details)
