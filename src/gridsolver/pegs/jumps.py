"""The most-jumps objective (fewest pegs left).

Default strategy (:func:`solve_jumps`): depth-first searches restarted with doubling node limits and
noisy move order, sharing one table of fully explored positions (:mod:`gridsolver.pegs.depth_first`;
anytime, and exhaustive when a run completes), then beam searches of doubling width
(:func:`widening_beam`). Both stop once a line leaves as few pegs as the position classes, or the
pagoda functions, allow. ``published`` (:func:`solve_published`): the published comesolo method
(:func:`gridsolver.pegs.kernels.published.published`).

Imports numpy; the kernels are imported where they run.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from gridsolver.core import watch
from gridsolver.core.budget import STOP_REASONS, Budget
from gridsolver.core.kernels.stops import DOOMED, EXHAUSTED, FOUND, OUT_OF_TIME
from gridsolver.pegs import rules
from gridsolver.pegs.depth_first import restarted_dfs
from gridsolver.pegs.geometry import DOOM_BELOW, PegBound, fewest_pegs_bound, pull_matrix, symmetries
from gridsolver.pegs.layout import Ceilings, Doom, Layout, Ranking, centroid, lazy_notation
from gridsolver.pegs.rules import Board, Cell, Jump

PUBLISHED_BIAS = 0.31

#: Phase 1 of the most-jumps search under a node budget stops at this many nodes (about the second it
#: gets under a time budget, at 2 million nodes a second), so that a node budget repeats exactly.
PHASE_ONE_NODES = 2_000_000


def phase_one_budget(budget: Budget) -> Budget:
    """The depth-first phase's part of ``budget``: a twentieth of the time (at most 1 s) or, under a
    node budget, at most :data:`PHASE_ONE_NODES` nodes and no clock of its own (a time share would
    make the nodes, and so the answer, depend on the machine's speed); phase 2 gets the rest."""
    if budget.nodes is not None:
        return Budget(time_s=budget.time_s, memory_mb=budget.memory_mb,
                      nodes=min(budget.nodes, PHASE_ONE_NODES), started_ns=budget.started_ns)
    share = 1.0 if budget.time_s is None else min(0.05 * budget.time_s, 1.0)
    return Budget(time_s=share, memory_mb=budget.memory_mb, nodes=None if budget.time_s else 5_000_000)


def solve_jumps(board: Board, budget: Budget, seed: int, note: Callable[[str], None] | None = None):
    """Exhaustive search first (proves small boards), then beam searches of doubling width.

    Both stop as soon as a line leaves as few pegs as the position classes allow
    (:func:`gridsolver.pegs.geometry.fewest_pegs_bound`): such a line is optimal.
    """
    layout = Layout.of(board, seed)
    perms = symmetries(board)
    bound = fewest_pegs_bound(board)
    goal = board.peg_count - bound.pegs
    watch.bounded(goal)  # the position classes' fewest pegs: at most this many jumps
    code, best, nodes, runs, entries, _ = restarted_dfs(board, layout, perms, phase_one_budget(budget), seed,
                                                         goal=goal)
    extra = {"symmetries": len(perms), "restarts": runs, "table_entries": entries,
             "fewest_pegs_possible": bound.pegs}
    if len(best) >= goal:
        return "optimal", best, _bound_proof(board, bound), nodes, None, extra
    if code == EXHAUSTED:
        proof = (f"exhaustive depth-first search under {len(perms)} symmetries with a table of explored "
                 "positions")
        return "optimal", best, proof, nodes, None, extra
    bound = _pagoda_bound(board, bound, best, budget, extra)
    goal = board.peg_count - bound.pegs
    watch.bounded(goal)
    if len(best) >= goal:
        return "optimal", best, _bound_proof(board, bound), nodes, None, extra
    if note:
        note(f"best {board.peg_count - len(best)} pegs left (depth-first phase)")
    code, beam_best, beam_nodes, width, doomed_runs = widening_beam(board, layout, budget, seed, nodes, best,
                                                                     note, goal=goal)
    nodes += beam_nodes
    extra["widest_beam"] = width
    extra["beam_runs_stopped_doomed"] = doomed_runs
    if len(beam_best) > len(best):
        best = beam_best
        extra["found_by"] = "beam"
    if len(best) >= goal:
        return "optimal", best, _bound_proof(board, bound), nodes, None, extra
    stopped = "nodes" if budget.nodes is not None and nodes >= budget.nodes else "time"
    return "best-found", best, "", nodes, stopped, extra


PAGODA_SHARE = 0.1  # of --time: the most the pagoda bound may take (at most PAGODA_MAX_S)
PAGODA_MAX_S = 10.0
PAGODA_NO_TIME_S = 5.0  # the cap when the budget has no time limit (nodes only)


def _pagoda_bound(board: Board, bound: PegBound, best: list[Jump], budget: Budget,
                  extra: dict[str, object]) -> PegBound:
    """The fewest-pegs bound again, strengthened by pagoda functions (:mod:`gridsolver.pegs.pagoda`).

    Run once the first phase has a line (its holes are known to fill, its last pegs are tried first
    as single survivors) and only when that line leaves more pegs than ``bound``; linear programs take
    at most a tenth of the time (PAGODA_NO_TIME_S with a node budget only). Keeps ``bound`` when the
    pagodas prove no more.
    """
    from gridsolver.pegs import pagoda

    if board.peg_count - len(best) <= bound.pegs:
        return bound
    remaining = budget.remaining_s()
    seconds = PAGODA_NO_TIME_S if budget.time_s is None else min(PAGODA_SHARE * budget.time_s, PAGODA_MAX_S)
    seconds = seconds if remaining is None else min(seconds, remaining)
    filled, position = board.pegs, board
    for jump in best:
        position = rules.apply(position, jump)
        filled |= position.pegs
    started = time.perf_counter()
    stronger = pagoda.pagoda_bound(board, filled, rules.bit_indices(position.pegs), seconds)
    extra["pagoda_bound_s"] = round(time.perf_counter() - started, 2)
    if stronger.pegs > bound.pegs:
        extra["fewest_pegs_possible"] = stronger.pegs
        return stronger
    return bound


def _bound_proof(board: Board, bound: PegBound) -> str:
    jumps = board.peg_count - bound.pegs
    if bound.pegs == 1:
        return f"one peg left: {jumps} jumps is the most possible"
    return f"{bound.pegs} pegs left, the fewest possible ({bound.proof}): {jumps} jumps is the most possible"

BEAM_ISOLATED_WEIGHT = 1.0  # per isolated peg
BEAM_SPREAD_WEIGHT = 4.0  # a peg in a corner costs about 2 * this
BEAM_MOBILITY_WEIGHT = 0.3  # per legal jump of a pooled candidate (kernels.beam.beam)
BEAM_POOL = 16  # candidates ranked again by their jumps, per beam slot


BEAM_DOOM_STOP = True  # stop a beam run once it cannot beat the best line (the beam's Doom.stop_pegs)
BEAM_CENTRES = 2  # beam runs per width: the centroid, then toward stranded pegs
BEAM_SHIFT = 0.7  # of the way from the board's centroid to the peg a run stranded farthest from it


def spread(board: Board, layout: Layout, centre: tuple[float, float]) -> np.ndarray:
    """The beam's spread term per hole: squared distance to ``centre``, scaled to the board's area."""
    cr, cc = centre
    scale = BEAM_SPREAD_WEIGHT / max(1.0, (board.rows * board.cols) / 4.0)
    phi = np.zeros(layout.words * 64, dtype=np.float64)
    for r, c in board.hole_cells():
        phi[board.index((r, c))] = scale * ((r - cr) ** 2 + (c - cc) ** 2)
    return phi


def doomed_cells(board: Board, pegs: int, pull: np.ndarray) -> list[Cell]:
    """geometry.doomed_pegs through the kernels' table ``pull`` (numpy: fast enough for 900 holes)."""
    bits = list(rules.bit_indices(pegs))
    totals = pull[bits].sum(axis=0)
    steps = [dr * board.stride + dc for dr, dc in board.directions]
    return [board.cell(p) for p in bits
            if all(totals[p + o] < DOOM_BELOW for o in steps if 0 <= p + o < len(totals))]


def toward_stranded(board: Board, line: list[Jump], middle: tuple[float, float],
                    stranded: list[Cell] | None = None) -> tuple[float, float]:
    """A centre for the next beam run: BEAM_SHIFT of the way from ``middle`` to the peg farthest from it
    where ``line`` ends (among ``stranded`` when given: the doomed pegs of a run stopped early).

    The beam gathers the pegs toward its centre, so a peg far from it (on sparse random boards, often
    in a corner) is left for last and then has no partner to leave with. Measured on the density-0.5
    sweep boards: 20x20 and 30x30 end at 2 pegs with every width centred on the centroid,
    each time with the same corner peg left, and at one peg at width 64-128 centred about 0.7 of
    the way toward it. Each width runs centred on the centroid, then on this centre.
    """
    last = stranded if stranded else rules.replay(board, line).peg_cells() if line else []
    if len(last) <= 1 and not stranded:
        return middle
    far = max(last, key=lambda cell: (cell[0] - middle[0]) ** 2 + (cell[1] - middle[1]) ** 2)
    return (middle[0] + BEAM_SHIFT * (far[0] - middle[0]), middle[1] + BEAM_SHIFT * (far[1] - middle[1]))


def widening_beam(board: Board, layout: Layout, budget: Budget, seed: int, used_nodes: int,
                   known: list[Jump], note: Callable[[str], None] | None = None, goal: int | None = None):
    """Beam searches of width 8, 16, 32, ... until one peg (or ``goal`` jumps), the budget or the
    memory bound; each width runs centred on the centroid, then toward the peg that run left
    farthest out (:func:`toward_stranded`).

    ``known`` is the best line found before (only used for progress notes)."""
    from gridsolver.pegs.kernels.beam import beam

    middle = centroid(board)
    centre = middle
    phi = spread(board, layout, centre)
    start = layout.to_words(board.pegs)
    memory = budget.memory_bytes() or (8 << 30)
    best: list[Jump] = []
    best_path = np.zeros(board.peg_count, dtype=np.int32)
    stats = np.zeros(3, dtype=np.int64)
    nodes, width, run, doomed_runs, slowest, runs_here = 0, 8, 0, 0, 0.0, 0
    aimed: set[tuple[float, float]] = set()
    code = OUT_OF_TIME
    # per width unit: the parent links of every depth, the candidates, two position rows and the pool
    # ranked by jumps (a position row, its candidate and key, and four seen-set slots per pooled one)
    # and two rows of golden weights per slot (the doomed-peg stop), besides the table of g^distance
    per_width = (8 * board.peg_count + 64 * 40 + 16 * (layout.words + 2) + BEAM_POOL * (8 * layout.words + 48)
                 + 16 * 64 * layout.words)
    pull = pull_matrix(board, layout.words * 64)
    geometry = layout.geometry
    max_width = max(8, (int(memory * 0.5) - pull.nbytes) // per_width)
    widest = 0
    stranded: list[Cell] | None = None
    while not budget.expired(used_nodes + nodes):
        started = time.perf_counter()
        widest = max(widest, width)
        # a run whose every position has pegs that can never move again cannot beat the best line: it
        # stops there (DOOMED), and the next run is centred toward those pegs
        known_best = max(len(best), len(known))
        stop_pegs = board.peg_count - known_best if known_best and BEAM_DOOM_STOP else 0
        ranking = Ranking.of(phi, BEAM_ISOLATED_WEIGHT, 0.5, BEAM_POOL, BEAM_MOBILITY_WEIGHT)
        code = beam(start, geometry, ranking, Doom.of(pull, stop_pegs), width,
                    (seed * 1000 + run + 500 * runs_here) % 2**63, budget.node_limit() - used_nodes - nodes,
                    budget.deadline_ns(), best_path, stats)
        nodes += int(stats[0])
        watch.call_ended(int(stats[0]))
        slowest = max(slowest, time.perf_counter() - started)
        line = [layout.decode(c) for c in best_path[:int(stats[1])]]
        stranded = None
        if code == DOOMED:
            doomed_runs += 1
            stranded = doomed_cells(board, rules.replay(board, line).pegs, pull)
        elif len(line) > len(best):
            best = line
            watch.improved(len(best), lazy_notation(best))
        if note:
            left = board.peg_count - max(len(best), len(known))
            note(f"best {left} pegs left (beam width {width})")
        if code == FOUND or (goal is not None and len(best) >= goal):
            break
        # each width runs centred on the centroid as before (same noise), then toward the peg the last
        # run stranded (its own noise), again while a run strands a peg not yet aimed at (at most
        # BEAM_CENTRES runs per width)
        target = toward_stranded(board, line, middle, stranded)
        runs_here += 1
        if runs_here < BEAM_CENTRES and target != middle and target not in aimed:
            aimed.add(target)
            centre = target
            phi = spread(board, layout, centre)
            continue
        centre, runs_here, aimed = middle, 0, set()
        phi = spread(board, layout, centre)
        run += 1
        # a run's time grows about linearly with the width: double it while the next run fits in
        # the time left, else take the widest that should still finish
        took = max(slowest, 1e-3)  # the slower of the width's two runs (one may have stopped early)
        slowest = 0.0
        remaining = budget.remaining_s()
        fits = max_width if remaining is None else int(width * 0.85 * remaining / took)
        width = max(8, min(2 * width, fits, max_width))
    return code, best, nodes, widest, doomed_runs


PUBLISHED_SHARE = 0.4  # of the memory: the method's arrays at their largest (growing one takes 1.5x)


def published_limits(memory_bytes: int, words: int) -> tuple[int, int]:
    """The most positions (pool rows and parent records) and visited-set slots the published method
    may grow to within ``memory_bytes``.

    Per position: a pool row (the position, its hash, record and queue link), a parent record
    (12 bytes) and two visited-set slots (16 bytes). The arrays start small and double as they fill
    (:func:`gridsolver.pegs.kernels.published.published`), so these are ceilings, never what is allocated; a
    doubling briefly holds the old array and the new one, hence the share below the usual 0.6.
    """
    per_position = 8 * words + 24 + 12 + 16
    positions = max(1024, int(memory_bytes * PUBLISHED_SHARE) // per_position)
    seen_slots = 1 << max(10, (2 * positions).bit_length() - 1)
    return positions, seen_slots


def solve_published(board: Board, budget: Budget, seed: int):
    from gridsolver.pegs.kernels.published import published

    layout = Layout.of(board, seed)
    start = layout.to_words(board.pegs)
    positions, seen_slots = published_limits(budget.memory_bytes() or (8 << 30), layout.words)
    best_path = np.zeros(board.peg_count, dtype=np.int32)
    stats = np.zeros(4, dtype=np.int64)
    code = published(start, layout.geometry, Ceilings(positions, positions, seen_slots), PUBLISHED_BIAS, seed,
                     budget.node_limit(), budget.deadline_ns(), best_path, stats)
    best = [layout.decode(c) for c in best_path[:int(stats[1])]]
    extra = {"positions": int(stats[2]), "table_mb": round(int(stats[3]) / 2**20, 1)}
    if code == FOUND:
        return ("optimal", best, f"one peg left: {len(best)} jumps is the most possible", int(stats[0]),
                None, extra)
    # the method's visited set keeps only 64-bit hashes, so even an emptied queue proves nothing
    return "best-found", best, "", int(stats[0]), STOP_REASONS.get(code), extra


