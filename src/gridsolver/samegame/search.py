"""The SameGame solver: drive the kernels, verify, and report.

Default method: nested rollout policy adaptation (level 3, or 4 for long
searches: :func:`nrpa_level`) whose playouts keep a *tabu colour* for last
and whose own objective subtracts the end penalty, so that it aims at
clearing (:data:`NRPA_GUIDE_PENALTY`). Unless
one colour dominates, every candidate colour is first rated by a short run,
and the workers then take the best rated colours, one each
(:func:`plan_tabu`). Each worker then re-searches the tail of its best game
with the tabu beam and solves its ending exactly (:mod:`.polish`). The best game of
all runs wins. A Monte-Carlo beam, the tabu beam and level-2 nested
Monte-Carlo search remain available (``method``); docs/clickomania.md has
the measurements that chose.

The board and its moves are Clickomania's (:mod:`gridsolver.clickomania.rules`
and its kernels), the points SameGame's (:mod:`.rules`, :mod:`.kernels.scoring`);
every sequence is replayed under the rules before it is reported.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from gridsolver.clickomania import rules
from gridsolver.clickomania.kernels.groups import (
    EMPTY,
    MAX_COLOURS_CODE,
    move_to_index,
    path_to_moves,
    remove_at,
    to_cells,
    zobrist_table,
)
from gridsolver.clickomania.rules import Board, Move
from gridsolver.clickomania.search import stopped_by
from gridsolver.core import interrupt, watch
from gridsolver.core.budget import NO_LIMIT, Budget, peak_rss_mb
from gridsolver.core.errors import InputError
from gridsolver.core.kernels.random import seed_numba_random
from gridsolver.core.result import Result, Stats
from gridsolver.samegame.kernels.beam import TABU_WEIGHTS, beam_search, tabu_beam, tabu_plan
from gridsolver.samegame.kernels.nmcs import nmcs
from gridsolver.samegame.kernels.nrpa import nrpa_run, nrpa_state
from gridsolver.samegame.polish import (
    beam_state_bytes,
    endgame_table,
    exact_game,
    line_points,
    polish_ending,
    polish_tail,
)

SAMEGAME_METHODS = ("nrpa", "mcbeam", "beam", "nmcs")
NRPA_LEVEL = 3
NRPA_ITERATIONS = 100
# A level-3 run is 100^3 = a million playouts (about 20 s on one core here), restarted with fresh policies
# when it ends. A long search goes one level up instead, each new level-3 run starting from a policy
# adapted towards the best game so far. On a scale model (level 2 restarted against level 3, all 20
# positions, tuning seeds 4-8, 100 pairs each) going up lost 36 +- 26 points a position with 3 runs' worth
# of playouts, was even with 7 (+14 +- 25) and won 61 +- 21 with 15: so level 4 once a worker has 200 s
# (about 7 level-3 runs after rating) or, without a time limit, 10 million playouts.
NRPA_LONG_LEVEL = 4
LONG_SEARCH_S = 200.0
LONG_SEARCH_PLAYOUTS = 10_000_000
NRPA_RUNS = 2  # per worker on a dominant colour: two runs of 28 s against one of 56 s was a draw within noise
MC_BEAM_PLAYOUTS = 1  # rank children by one tabu-colour playout each (kernels.beam.beam_search)
MC_BEAM_START = 8
PLAIN_BEAM_START = 64
TABU_BEAM_PLAYOUTS = 1  # random tabu-colour games from each position the tabu beam keeps (answers only)
TABU_BEAM_ENDGAME_GROUPS = 16  # a tabu beam position of at most this many groups is solved exactly ...
TABU_BEAM_ENDGAME_NODES = 100_000  # ... in at most this many nodes
TABU_BEAM_TABLE_BITS = 18  # 2^18 positions (5 MB) in the table of those exact endings
RATING_SHARE = 0.3  # of the time, for rating the candidate tabu colours (all rounds together)
RATED_COLOURS = 4  # the most frequent colours (and ties with the last) that get a rating run
DOMINANT = 1.15  # a colour with this many times the cells of any other is every worker's tabu colour
POLISH_SHARE = 0.05  # of a SameGame worker's time, kept for solving its best game's ending exactly
# Of an NRPA worker's time, kept before that for re-searching its best game's tail with the tabu beam. On the
# 60 s games of tuning positions 1-10 (seed 4) 3 s of it gained 90 points in all, 9 s 114 and 30 s no more;
# each colour in turn as the beam's tabu colour, not only the game's own, gained less (40 and 62).
TAIL_SHARE = 0.05
# A board of at most this many cells is first searched exactly from the start (polish.exact_game), with
# this share of the time: when that search finishes, its game is optimal and the search stops there (a 5x5
# board takes milliseconds; the standard 15x15 ones are far beyond it)
EXACT_FIRST_CELLS = 64
EXACT_FIRST_SHARE = 0.5
# NRPA's own objective subtracts (cells left - 2)^2 from a game that does not clear the board, so the
# search is drawn towards clearing (on 100,000 playouts per position it cleared 19 of the 20 standard
# positions where the plain score cleared 12 and 14, tuning seeds 4 and 5); the answer is still scored, and
# its ending solved, by the rules asked for
NRPA_GUIDE_PENALTY = True


@dataclass(frozen=True)
class SameGameTask:
    """One worker's job (plain data, so it can go to another process)."""

    grid: np.ndarray
    seed: int
    deadline_ns: int
    node_limit: int
    memory_bytes: int | None
    penalty: bool
    method: str = "nrpa"  # or "rate": one short NRPA run to rate ``tabu``
    tabu: int = -1  # NRPA's tabu colour (-1: the most frequent)
    rate_ns: int = 0  # how long a "rate" task runs
    runs: int = NRPA_RUNS  # independent NRPA runs of a "nrpa" task
    resume: tuple[np.ndarray, ...] | None = None  # a "nrpa" task's one run goes on from this NRPA state
    guide: bool = NRPA_GUIDE_PENALTY  # NRPA's own objective has the end penalty (see NRPA_GUIDE_PENALTY)
    level: int = NRPA_LEVEL  # NRPA's level (see nrpa_level)
    colours: tuple[int, ...] = ()  # the tabu beam's tabu colours, each searched at every width


class Outcome(NamedTuple):
    """What a worker found: its best game, the work done (``nodes``, of which ``endgame_nodes`` went
    to solving its best game's ending exactly and ``tail_nodes`` to re-searching its tail with the tabu
    beam), and (for ratings) its NRPA state."""

    points: int
    moves: list[Move]
    nodes: int
    how: str
    nrpa_state: tuple[np.ndarray, ...] | None = None
    endgame_nodes: int = 0
    tail_nodes: int = 0


def _nrpa_bytes(n: int, level: int) -> int:
    """What :func:`~gridsolver.samegame.kernels.nrpa.nrpa_run` allocates on an ``n``-cell board (its
    state and recorded codes)."""
    return 8 * ((level + 1) * MAX_COLOURS_CODE * n + 3 * (n * n // 8 + n)) + 64 * n


def nrpa_level(seconds: float | None, playouts: int | None) -> int:
    """NRPA's level for a search of ``seconds`` and ``playouts`` at most (None: no such limit).

    Level 3 (:data:`NRPA_LEVEL`) unless both limits leave room for many level-3 runs, then
    :data:`NRPA_LONG_LEVEL` (the measurements are at :data:`LONG_SEARCH_S`).
    """
    long_in_time = seconds is None or seconds >= LONG_SEARCH_S
    long_in_playouts = playouts is None or playouts >= LONG_SEARCH_PLAYOUTS
    return NRPA_LONG_LEVEL if long_in_time and long_in_playouts else NRPA_LEVEL


def tabu_candidates(board: Board) -> list[int]:
    """The colours worth rating as NRPA's tabu colour, most frequent first.

    A colour with :data:`DOMINANT` times the cells of any other is taken as
    the best without rating (standard positions 16-20 have 65 cells against
    40; on positions 2 and 5, with 1.20 and 1.17 times, it beat every other
    colour by 500 points in 15 s runs), so it is the only candidate. Otherwise
    the :data:`RATED_COLOURS` most frequent ones and any tied with the last of
    them: the same position can score a thousand points more with a colour
    other than the most frequent, but on the six standard positions with
    unequal counts where every colour was measured, the least frequent one was
    never the best.
    """
    counts = np.bincount(board.grid[board.grid != rules.EMPTY])
    by_count = [int(c) for c in np.argsort(-counts, kind="stable") if counts[c] > 0]
    if len(by_count) == 1 or counts[by_count[0]] >= DOMINANT * counts[by_count[1]]:
        return by_count[:1]
    last = counts[by_count[min(RATED_COLOURS, len(by_count)) - 1]]
    return [c for c in by_count if counts[c] >= last]


def plan_tabu(board: Board, workers: int, rate: Callable[[list[int]], list[int]]) -> list[int]:
    """The tabu colour of each NRPA worker (the colour its playouts keep for last).

    Which colour is best is not visible from the counts (standard positions
    11-15 have five equal ones), and short level-2 runs rate it badly (the best
    colour on 6 of 11 positions). So every candidate
    (:func:`tabu_candidates`) gets a short level-3 run first: ``rate`` plays
    the colours it is given, a whole number of rounds of ``workers`` runs (the
    most frequent colours fill a last round's spare places), and returns each
    run's points. The workers then take the best rated colours, one each.
    """
    candidates = tabu_candidates(board)
    if len(candidates) == 1:
        return candidates * workers
    rounds = -(-len(candidates) // workers)
    runs = [candidates[i % len(candidates)] for i in range(rounds * workers)]
    rating: dict[int, int] = {}
    for colour, points in zip(runs, rate(runs), strict=True):
        rating[colour] = max(points, rating.get(colour, points))
    plan = sorted(candidates, key=lambda c: -rating[c])  # stable: ties keep the most frequent first
    return [plan[i % len(plan)] for i in range(workers)]


def samegame_worker(task: SameGameTask) -> Outcome:
    """Run the task's method until its deadline."""
    board = Board(task.grid)
    width, height = board.width, board.height
    n = width * height
    cells = to_cells(board.grid)
    zob = zobrist_table(n)
    path = np.zeros(n, np.int32)
    best_points, best_moves, how = -(1 << 40), [], ""
    nodes = 0
    endgame_nodes = 0
    tail_nodes = 0
    guided = task.penalty or task.guide  # NRPA's own objective
    too_big = task.memory_bytes is not None and _nrpa_bytes(n, task.level) > task.memory_bytes
    if task.method == "nrpa" and too_big:
        task = replace(task, method="mcbeam")  # NRPA's arrays do not fit: the beam sizes itself to memory
    cap = 1 << 20 if task.memory_bytes is None else max(1, task.memory_bytes // 2 // beam_state_bytes(n))
    if task.method == "beam":
        seed_numba_random(task.seed % 2**31)
        polish_from = task.deadline_ns - int(POLISH_SHARE * max(0, task.deadline_ns - time.monotonic_ns()))
        colours = task.colours or (task.tabu if task.tabu >= 0 else _most_frequent(board),)
        table = endgame_table(TABU_BEAM_TABLE_BITS, task.memory_bytes)
        beam_width, done = PLAIN_BEAM_START, True
        best_seq = path[:0].copy()
        beam_nodes = _nodes_before(task.node_limit, POLISH_SHARE)
        while done and interrupt.time_left(polish_from) and nodes < beam_nodes:
            for colour in colours:  # every colour at this width, then twice the width
                plan = tabu_plan(beam_width, task.penalty, colour, TABU_WEIGHTS, 0, TABU_BEAM_PLAYOUTS,
                                 TABU_BEAM_ENDGAME_GROUPS, TABU_BEAM_ENDGAME_NODES)
                value, length, used, done = tabu_beam(cells, width, height, zob, plan, table, path,
                                                      interrupt.capped(polish_from), beam_nodes - nodes)
                nodes += used
                watch.call_ended(used)
                if length >= 0 and -value > best_points:
                    best_points, best_seq = int(-value), path[:length].copy()
                    watch.improved(best_points, _moves_of(best_seq, height))
                    how = f"tabu beam width {beam_width} tabu colour {colour}"
                if not done:
                    break
            if beam_width >= cap:
                break
            beam_width = min(cap, beam_width * 2)
        if len(best_seq) > 0:
            best_points, best_seq, how, used = _polish_best(cells, width, height, task, best_points, best_seq,
                                                            how, task.node_limit - nodes)
            nodes += used
            endgame_nodes += used
            best_moves = path_to_moves(best_seq, len(best_seq), height)
    elif task.method == "mcbeam":
        playouts = MC_BEAM_PLAYOUTS
        beam_width = MC_BEAM_START
        seed_numba_random(task.seed % 2**31)
        while interrupt.time_left(task.deadline_ns) and nodes < task.node_limit:
            value, length, used, done = beam_search(cells, width, height, zob, beam_width, task.penalty,
                                                    interrupt.capped(task.deadline_ns),
                                                    task.node_limit - nodes, path, playouts)
            nodes += used
            watch.call_ended(used)
            if length >= 0 and -value > best_points:
                best_points, best_moves = int(-value), path_to_moves(path, length, height)
                watch.improved(best_points, [list(m) for m in best_moves])
                how = f"{task.method} width {beam_width}"
            if not done or beam_width >= cap:
                break
            beam_width = min(cap, beam_width * 2)
    elif task.method == "rate":
        deadline = min(task.deadline_ns, time.monotonic_ns() + task.rate_ns)
        state = nrpa_state(n, task.level)
        _, length, nodes = nrpa_run(cells, width, height, task.level, NRPA_ITERATIONS, guided,
                                    task.seed % 2**31, interrupt.capped(deadline), task.node_limit, path,
                                    task.tabu, state, False)
        if length > 0:
            how = f"rating run of tabu colour {task.tabu} (nrpa level {task.level})"
            points = line_points(cells, width, height, path[:length], task.penalty)
            return Outcome(points, path_to_moves(path, length, height), nodes, how, state)
    elif task.method == "nrpa":
        left_ns = max(0, task.deadline_ns - time.monotonic_ns())
        polish_from = task.deadline_ns - int(POLISH_SHARE * left_ns)
        tail_from = polish_from - int(TAIL_SHARE * left_ns)
        nrpa_nodes = _nodes_before(task.node_limit, TAIL_SHARE + POLISH_SHARE)
        points, best_seq = -(1 << 40), path[:0].copy()
        runs = 1 if task.resume is not None else task.runs
        for run in range(runs):  # independent runs, each an equal share of what is left
            share = runs - run
            deadline = time.monotonic_ns() + max(0, tail_from - time.monotonic_ns()) // share
            seed = (task.seed + 104_729 * run) % 2**31
            state = nrpa_state(n, task.level) if task.resume is None else task.resume
            limit = (nrpa_nodes - nodes) // share
            _, length, used = nrpa_run(cells, width, height, task.level, NRPA_ITERATIONS, guided, seed,
                                       interrupt.capped(deadline), limit, path, task.tabu,
                                       state, task.resume is not None)
            nodes += used
            watch.call_ended(used)
            if length > 0 and (run_points := line_points(cells, width, height, path[:length],
                                                          task.penalty)) > points:
                points, best_seq = run_points, path[:length].copy()
                watch.improved(points, _moves_of(best_seq, height))
                how = f"nrpa level {task.level} seed {seed} tabu colour {task.tabu}"
                if task.resume is not None:
                    how += ", going on from its rating run"
        if len(best_seq) > 0:
            points, best_seq, how, used = _polish_tail(cells, width, height, task, polish_from, points,
                                                       best_seq, how,
                                                       _nodes_before(task.node_limit, POLISH_SHARE) - nodes)
            nodes += used
            tail_nodes += used
            points, best_seq, how, used = _polish_best(cells, width, height, task, points, best_seq, how,
                                                       task.node_limit - nodes)
            nodes += used
            endgame_nodes += used
            best_points, best_moves = int(points), path_to_moves(best_seq, len(best_seq), height)
    else:
        seed = task.seed
        while interrupt.time_left(task.deadline_ns) and nodes < task.node_limit:
            points, length, playouts = nmcs(cells, width, height, 2, task.penalty, seed % 2**31,
                                            interrupt.capped(task.deadline_ns), path)
            nodes += playouts
            watch.call_ended(playouts)
            if points > best_points:
                best_points, best_moves = int(points), path_to_moves(path, length, height)
                watch.improved(best_points, [list(m) for m in best_moves])
                how = f"nmcs 2 seed {seed}"
            seed += 1_000_003
    if not best_moves and best_points < 0:
        points, length, _ = nmcs(cells, width, height, 0, task.penalty, task.seed % 2**31, 0, path)
        best_points, best_moves, how = int(points), path_to_moves(path, length, height), "one playout"
    return Outcome(best_points, best_moves, nodes, how, endgame_nodes=endgame_nodes, tail_nodes=tail_nodes)


def _nodes_before(node_limit: int, kept_share: float) -> int:
    """Of a worker's node budget, what its search may use before the share kept for the polishers that
    follow it (as their shares of the time are kept): a node budget alone then repeats the whole
    pipeline, not the search only. No budget (NO_LIMIT) stays none."""
    return node_limit if node_limit >= NO_LIMIT else node_limit - int(kept_share * node_limit)


def _polish_tail(cells: np.ndarray, width: int, height: int, task: SameGameTask, deadline_ns: int,
                 points: int, best_seq: np.ndarray, how: str,
                 nodes_left: int) -> tuple[int, np.ndarray, str, int]:
    """The best game with its tail re-searched by the tabu beam until ``deadline_ns`` when that scores
    more (:func:`.polish.polish_tail`, the task's tabu colour): (points, moves, how it was found, nodes
    used)."""
    tabu = task.tabu if task.tabu >= 0 else _most_frequent(Board(task.grid))
    found = polish_tail(cells, width, height, best_seq, tabu, task.penalty, interrupt.capped(deadline_ns),
                        nodes_left, task.memory_bytes)
    return _keep_better(points, best_seq, how, found, "tail re-searched by the tabu beam", height)


def _polish_best(cells: np.ndarray, width: int, height: int, task: SameGameTask, points: int,
                 best_seq: np.ndarray, how: str, nodes_left: int) -> tuple[int, np.ndarray, str, int]:
    """The best game with its ending solved exactly when that scores more (:func:`.polish.polish_ending`):
    (points, moves, how it was found, endgame nodes used)."""
    found = polish_ending(cells, width, height, best_seq, task.penalty, interrupt.capped(task.deadline_ns),
                          nodes_left, task.memory_bytes)
    return _keep_better(points, best_seq, how, found, "ending solved exactly", height)


def _keep_better(points: int, best_seq: np.ndarray, how: str, found: tuple[int, np.ndarray, int], what: str,
                 height: int) -> tuple[int, np.ndarray, str, int]:
    """A polisher's ``found`` (points, moves, nodes) in place of the best game when it scores more, ``how``
    then saying that ``what`` added the difference: (points, moves, how, nodes)."""
    polished, polished_seq, used = found
    watch.call_ended(used)
    if polished > points:
        how += f", {what} (+{polished - points})"
        points, best_seq = polished, polished_seq
        watch.improved(points, _moves_of(best_seq, height))
    return points, best_seq, how, used


def _most_frequent(board: Board) -> int:
    """The colour with the most cells (the lowest code among ties)."""
    return int(np.argmax(np.bincount(board.grid[board.grid != rules.EMPTY], minlength=1)))


def beam_colours(board: Board, workers: int) -> list[tuple[int, ...]]:
    """Each worker's tabu colours for the tabu beam: the colours NRPA would rate
    (:func:`tabu_candidates`) dealt round the workers, a worker left without one taking the next most
    frequent colour (two workers never search the same beam)."""
    counts = np.bincount(board.grid[board.grid != rules.EMPTY], minlength=1)
    by_count = [int(c) for c in np.argsort(-counts, kind="stable") if counts[c] > 0] or [0]
    candidates = tabu_candidates(board) if len(by_count) > 1 else by_count
    while len(candidates) < min(workers, len(by_count)):
        candidates.append(by_count[len(candidates)])
    return [tuple(candidates[i::workers]) or (candidates[i % len(candidates)],) for i in range(workers)]


def _moves_of(seq: np.ndarray, height: int) -> Callable[[], list[list[int]]]:
    """The moves of a click sequence in the result's notation, made only when an event asks."""
    return lambda: [list(m) for m in path_to_moves(seq, len(seq), height)]


def _cells_left(board: Board, moves: list[Move]) -> int:
    """Cells left after ``moves``, played by the kernels.

    The rules' plain-Python replay takes seconds on a 64 x 64 game of a thousand moves, and
    the result is replayed under the rules anyway before it is reported; played twice, it
    would put the process well past its --time.
    """
    cells = to_cells(board.grid)
    stack = np.empty(cells.shape[0], np.int32)
    for row, col in moves:
        remove_at(cells, board.width, board.height, move_to_index(row, col, board.height), stack)
    return int((cells != EMPTY).sum())


def _solve_exactly_first(board: Board, budget: Budget, penalty: bool, memory: int | None,
                         label: str) -> Result | None:
    """A small board's best game, proved by the exhaustive search (None: it did not finish in its share
    of the budget; the other methods then run in what is left)."""
    cells = to_cells(board.grid)
    remaining = budget.remaining_s()
    share_ns = None if remaining is None else int(1e9 * EXACT_FIRST_SHARE * remaining)
    deadline = budget.deadline_ns() if share_ns is None else min(budget.deadline_ns(),
                                                                   time.monotonic_ns() + share_ns)
    found = exact_game(cells, board.width, board.height, penalty, interrupt.capped(deadline),
                       budget.node_limit(), memory)
    if found is None:
        return None
    points, seq, nodes = found
    moves = path_to_moves(seq, len(seq), board.height)
    watch.improved(points, [list(m) for m in moves])
    cells_left = _cells_left(board, moves)
    stats = Stats(nodes=nodes, elapsed_s=round(budget.elapsed_s(), 4), peak_memory_mb=round(peak_rss_mb(), 1))
    details = {"cleared": cells_left == 0, "cells_left": cells_left, "moves": len(moves),
               "found_by": "exhaustive search from the start", "end_penalty": penalty, "endgame_nodes": nodes}
    proof = ("exhaustive search of every game from the start (positions memoised by Zobrist key): "
             f"no game scores more than {points}")
    return Result("samegame", label, "optimal", solution=[list(m) for m in moves], score=points,
                  score_name="points", proof=proof, stats=stats, details=details)


def solve_samegame(board: Board, budget: Budget, *, workers: int = 1, cluster: str | None = None,
                   seed: int = 0, penalty: bool = False, method: str = "nrpa",
                   label: str = "board", exact_first: bool = True) -> Result:
    """Maximise the SameGame score of ``board`` within the budget, on ``workers`` processes.

    A board of at most :data:`EXACT_FIRST_CELLS` is searched exactly from the start first (unless
    ``exact_first`` is false: the warm-up, which must run ``method`` itself on its tiny board)."""
    from gridsolver.core.parallel import parallel_map

    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    if method not in SAMEGAME_METHODS:
        raise InputError(f"unknown method {method!r}: expected one of {', '.join(SAMEGAME_METHODS)}")
    memory = budget.memory_bytes()
    share = None if memory is None else memory // workers

    def fits(level: int) -> bool:
        return share is None or _nrpa_bytes(board.width * board.height, level) <= share

    if exact_first and board.width * board.height <= EXACT_FIRST_CELLS:
        solved = _solve_exactly_first(board, budget, penalty, memory, label)
        if solved is not None:
            return solved
    level = nrpa_level(budget.remaining_s(), budget.nodes)
    if not fits(level):
        level = NRPA_LEVEL  # a level fewer is a smaller state: it may still fit where level 4 does not
    task = SameGameTask(board.grid, seed, budget.deadline_ns(), budget.node_limit(), share, penalty, method,
                        guide=NRPA_GUIDE_PENALTY, level=level)
    rated: list[tuple[int, Outcome]] = []  # (tabu colour, rating run)

    def rate(colours: list[int]) -> list[int]:
        rounds = -(-len(colours) // workers)
        seconds = RATING_SHARE * (budget.remaining_s() or 60.0) / rounds
        nodes_each = max(1, int(RATING_SHARE * budget.node_limit()) // len(colours))
        tasks = [replace(task, method="rate", tabu=c, seed=seed + 7919 * i, rate_ns=int(1e9 * seconds),
                         node_limit=nodes_each) for i, c in enumerate(colours)]
        try:
            runs = parallel_map(samegame_worker, tasks, workers=workers, cluster=cluster,
                                label=f"samegame {label}: rating tabu colours")
        except interrupt.Interrupted as stop:  # Ctrl-C: keep the runs that came back, rate the rest lowest
            done: dict[int, Outcome] = stop.done  # type: ignore[assignment]
            rated.extend((colours[i], run) for i, run in sorted(done.items()))
            return [done[i].points if i in done else -(1 << 40) for i in range(len(colours))]
        rated.extend(zip(colours, runs, strict=True))
        return [run.points for run in runs]

    nrpa_fits = fits(level)
    tabus = plan_tabu(board, workers, rate) if method == "nrpa" and nrpa_fits else [-1] * workers
    colours = beam_colours(board, workers) if method == "beam" else [()] * workers
    nodes = sum(run.nodes for _, run in rated)
    left = max(1, budget.node_limit() - nodes)
    # after rating, each worker makes one run that goes on from its colour's best rating run
    unused = sorted(rated, key=lambda r: -r[1].points)
    # a dominant colour's worker splits its time into independent runs, unless it searches long enough
    # to go a level up (which beat restarts there)
    runs = 1 if rated or level > NRPA_LEVEL else NRPA_RUNS
    tasks = []
    for i, colour in enumerate(tabus):
        resume = next((r for r in unused if r[0] == colour), None)
        if resume is not None:
            unused.remove(resume)
        tasks.append(replace(task, seed=seed + 7919 * (len(rated) + i), tabu=colour, node_limit=left,
                             runs=runs, resume=resume[1].nrpa_state if resume else None,
                             colours=colours[i]))
    outcomes: list[Outcome] = []
    if not interrupt.requested():  # after Ctrl-C while rating, the rating runs are the answer
        try:
            outcomes = parallel_map(samegame_worker, tasks, workers=workers, cluster=cluster,
                                    label=f"samegame {label}")
        except interrupt.Interrupted as stop:  # Ctrl-C and a worker did not answer in time: keep the rest
            outcomes = list(stop.done.values())  # type: ignore[arg-type]
    if not outcomes and not rated:
        outcomes = [samegame_worker(replace(task, deadline_ns=0))]  # nothing came back: one playout here
    chosen = max(outcomes + [run for _, run in rated], key=lambda o: o.points)
    points, moves, how = chosen.points, chosen.moves, chosen.how
    nodes += sum(o.nodes for o in outcomes)
    endgame_nodes = sum(o.endgame_nodes for o in outcomes)
    ratings: dict[str, int] = {}
    for colour, run in rated:
        name = rules.ALPHABET[colour]
        ratings[name] = max(run.points, ratings.get(name, run.points))
    # for the details (core.game.verify replays the moves under the rules and checks the score)
    cells_left = _cells_left(board, moves)
    stats = Stats(nodes=nodes, elapsed_s=round(budget.elapsed_s(), 4), peak_memory_mb=round(peak_rss_mb(), 1))
    details = {"cleared": cells_left == 0, "cells_left": cells_left,
               "moves": len(moves), "found_by": how, "workers": workers,
               "end_penalty": penalty, "method": method, "worker_scores": [o.points for o in outcomes],
               "endgame_nodes": endgame_nodes, "tail_nodes": sum(o.tail_nodes for o in outcomes)}
    if method == "nrpa" and nrpa_fits:
        details["nrpa_level"] = level
        details["tabu_colours"] = [rules.ALPHABET[c] for c in tabus]
        details["tabu_ratings"] = ratings
    return Result("samegame", label, "best-found", solution=[list(m) for m in moves], score=points,
                  score_name="points", stopped=stopped_by(budget, nodes), stats=stats, details=details)
