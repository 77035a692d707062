"""Depth-first searches restarted with growing node limits, sharing one table: the most-jumps search's
first phase and the finish search's runs (:func:`restarted_dfs`), with the endgame a finish search
builds when its runs take long (:func:`build_endgame`).

Imports numpy; the kernel is imported where it runs.
"""

from __future__ import annotations

import numpy as np

from gridsolver.core import watch
from gridsolver.core.budget import Budget
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, OUT_OF_NODES, OUT_OF_TIME, TABLE_FULL
from gridsolver.core.table import GrowingTable
from gridsolver.pegs import endgame, rules
from gridsolver.pegs.endgame import BYTES_PER_POSITION, Endgame
from gridsolver.pegs.geometry import pagoda_for
from gridsolver.pegs.layout import Finish, Layout, Order, Table, centroid, lazy_notation
from gridsolver.pegs.rules import Board, Cell, Jump

TABLE_SHARE = 0.5  # of the memory budget: the depth-first runs' table, with nothing else held
TABLE_SHARE_LEAST = 0.05  # ... and at least this, however much a stopped meeting holds


def luby_term(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's restart sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...

    Restarts of a randomised search whose run times have a heavy tail do best
    with many short runs and a few ever longer ones (Luby, Sinclair and
    Zuckerman 1993); the longest still doubles, so an exhaustive run comes.
    """
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def restarted_dfs(board: Board, layout: Layout, perms: list, budget: Budget, seed: int,
                   target: Cell | None = None, first_limit: int = 20_000, goal: int | None = None,
                   ending: Endgame | None = None, bank: tuple[np.ndarray, np.ndarray] | None = None,
                   table_share: float = TABLE_SHARE):
    """Depth-first searches with doubling node limits sharing one table; run 0 follows the
    move-order weights, later runs add noise so they try other lines. A finish search that builds
    its endgame (after ENDGAME_AFTER_NODES) goes on with Luby-sized runs (FINISH_RUN_NODES).

    With ``target`` the searches look for one peg there; the table then holds dead positions.
    Without, they stop after the run whose best line makes ``goal`` jumps (when given).
    Either way a stored position's whole subtree was explored, so the table stays valid from
    run to run and a run that ends without hitting its node limit is exhaustive.
    """
    from gridsolver.pegs.kernels.dfs import dfs

    geometry = layout.geometry._replace(perms=layout.perm_array(perms))
    weights = layout.weights(centroid(board) if target is None else target)
    target_bit = -1 if target is None else board.index(target)
    golden = None if target is None else pagoda_for(board, target)
    pagoda = np.zeros((0, layout.words * 64), dtype=np.float64) if golden is None else golden[None, :]
    floor = np.full(len(pagoda), 1.0 - 1e-9)
    if bank is not None:  # exact pagodas (multiples of 2^-24) and their floors, the finish's weights
        pagoda = np.concatenate([pagoda, bank[0]])
        floor = np.concatenate([floor, bank[1]])
    table = GrowingTable(budget, layout.words, share=table_share)
    start = layout.to_words(board.pegs)
    best: list[Jump] = []
    best_path = np.zeros(board.peg_count, dtype=np.int32)
    stats = np.zeros(3, dtype=np.int64)
    nodes, run, limit = 0, 0, first_limit
    code = OUT_OF_NODES
    node_budget = budget.node_limit()
    if ending is not None:
        nodes += ending.nodes
    luby_runs = 0
    no_layer, no_images = np.zeros(1, dtype=np.uint64), np.zeros((1, 8 * layout.words, 256), dtype=np.uint64)
    while True:
        run_limit = min(limit, node_budget - nodes)
        if run_limit <= 0:
            code = OUT_OF_NODES
            break
        if target is not None and ending is None and nodes >= ENDGAME_AFTER_NODES and endgame.fits(board):
            ending = build_endgame(board, target, budget, nodes)
            nodes += ending.nodes
            run_limit = min(limit, node_budget - nodes)
        end_depth = -1 if ending is None else board.peg_count - ending.pegs
        noise = 0.0 if run == 0 else float(np.ptp(weights)) * 0.5 + 1.0
        layer, images = (no_layer, no_images) if ending is None else (ending.layers[-1], ending.lookup)
        all_holes = np.uint64(0 if ending is None else ending.all_holes)
        finish = Finish(target_bit, pagoda, floor, end_depth, layer, images, all_holes)
        order = Order(weights, noise, (seed * 1000 + run) % 2**63)
        code = dfs(start, geometry, finish, order, Table.of(table), run_limit, budget.deadline_ns(),
                   best_path, stats)
        nodes += int(stats[0])
        watch.call_ended(int(stats[0]))
        if target is None and int(stats[1]) > len(best):
            best = [layout.decode(c) for c in best_path[:int(stats[1])]]
        if target is not None and code == FOUND:
            best = [layout.decode(c) for c in best_path[:int(stats[1])]]
            if ending is not None and len(best) == end_depth:
                best += ending.finish_line(rules.replay(board, best).pegs)
            watch.improved(len(best), lazy_notation(best))
        if code in (FOUND, EXHAUSTED, OUT_OF_TIME):
            break
        if target is None and goal is not None and len(best) >= goal:
            break
        if budget.expired(nodes):
            code = OUT_OF_TIME if nodes < node_budget else OUT_OF_NODES
            break
        if code == TABLE_FULL:
            table.grow()
        else:
            run += 1
            if ending is None:
                limit *= 2
            else:  # see FINISH_RUN_NODES
                luby_runs += 1
                limit = FINISH_RUN_NODES * luby_term(luby_runs)
    info = {} if ending is None else endgame_info(ending)
    return code, best, nodes, run, int(stats[2]), info


def endgame_info(ending: Endgame) -> dict:
    info = {"endgame_pegs": ending.pegs, "endgame_positions": ending.positions(),
            "endgame_s": round(sum(ending.seconds), 2)}
    if ending.pagodas:
        info.update(endgame_lp_pagodas=ending.lp_pagodas, endgame_lp_s=round(ending.lp_seconds, 2))
    return info


#: Once a finish search has its endgame, its runs get this many nodes times Luby's sequence (1, 1, 2,
#: 1, 1, 2, 4, ...) instead of doubling: on the European board the nodes a run needs to find a finish
#: vary a hundredfold with its (random) move order, so many short runs beat a few long ones.
FINISH_RUN_NODES = 1_000_000
#: A finish search builds its endgame (:mod:`gridsolver.pegs.endgame`) once this many nodes have not
#: found the finish: easy problems (the English central game: 0.05 s) never pay for it.
ENDGAME_AFTER_NODES = 16_000_000
#: The endgame's layers stop before one would pass this many positions (or its share of the budget):
#: a deterministic size, about 2 GB of set and layers at most, built in seconds.
ENDGAME_MAX_LAYER = 1 << 23
ENDGAME_TIME_SHARE = 0.3  # of the time left: the most an endgame may take to build
ENDGAME_MEMORY_SHARE = 0.25  # of the memory budget


def build_endgame(board: Board, finish: Cell, budget: Budget, nodes: int, pagodas: bool = False) -> Endgame:
    """The endgame of a finish problem, as big as its limits allow."""
    ending = Endgame(board, finish, pagodas=pagodas)
    remaining = budget.remaining_s()
    seconds = 60.0 if remaining is None else ENDGAME_TIME_SHARE * remaining
    memory = int(ENDGAME_MEMORY_SHARE * (budget.memory_bytes() or (2 << 30)))
    memory = min(memory, int(ENDGAME_MAX_LAYER * BYTES_PER_POSITION))
    ending.build(budget, seconds, memory, board.peg_count - 1)
    return ending


