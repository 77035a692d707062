"""The moves objective: fewest moves (runs of jumps by one peg) to one peg.

Breadth-first search by moves from both ends until they meet on boards of up to 64 holes
(:mod:`gridsolver.pegs.meet`), else iterative deepening on the move count
(:func:`gridsolver.pegs.kernels.fewest_moves.fewest_moves`).

Imports numpy; the kernels are imported where they run.
"""

from __future__ import annotations

import numpy as np

from gridsolver.core.budget import STOP_REASONS, Budget
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, TABLE_FULL
from gridsolver.core.table import GrowingTable
from gridsolver.pegs import meet, rules
from gridsolver.pegs.geometry import PositionClasses
from gridsolver.pegs.layout import Layout, MoveBound, Table
from gridsolver.pegs.rules import Board, Cell


def must_move_holes(board: Board) -> int:
    """Holes no jump passes over: a peg there leaves only by jumping itself."""
    over = 0
    for _, b, _ in rules.triples(board):
        over |= 1 << b
    return board.holes & ~over


def solve_moves(board: Board, finish: Cell | None, budget: Budget):
    if finish is not None:
        classes = PositionClasses(board)
        if not classes.same_class(board.pegs, 1 << board.index(finish)):
            return ("impossible", None, f"position classes: no single peg can finish at {finish}", 0, None,
                    {})
    if meet.fits(board):
        return _solve_moves_meet(board, finish, budget)
    return solve_moves_deepening(board, finish, budget)


MOVES_FIRST_SLOTS = 1 << 15  # the deepening search's table starts here and doubles as it fills


def solve_moves_deepening(board: Board, finish: Cell | None, budget: Budget):
    """Fewest moves by iterative deepening on the move count (any board size; weaker than meeting)."""
    from gridsolver.pegs.kernels.fewest_moves import fewest_moves

    layout = Layout.of(board)
    must = must_move_holes(board)
    target = -1 if finish is None else board.index(finish)
    free_survivor = finish is None or bool(must >> target & 1)
    start_bound = max(0, (board.pegs & must).bit_count() - (1 if free_survivor else 0))
    # rows: the position's words, the last mover's bit, the move budget (see kernels.fewest_moves);
    # probed at random, so the table grows with its entries instead of being sized to the budget
    table = GrowingTable(budget, layout.words + 2, first_slots=MOVES_FIRST_SLOTS, share=0.5, maximum=1 << 22)
    best_path = np.zeros(board.peg_count, dtype=np.int32)
    stats = np.zeros(3, dtype=np.int64)
    limit = max(1, start_bound)
    bound = MoveBound(target, layout.to_words(must), free_survivor)
    geometry = layout.geometry
    start = layout.to_words(board.pegs)
    while limit <= board.peg_count - 1:
        # every run (each limit, each table size) counts against the one --nodes
        nodes_left = max(1, budget.node_limit() - int(stats[0]))
        code = fewest_moves(start, geometry, bound, limit, Table.of(table), nodes_left, budget.deadline_ns(),
                            best_path, stats)
        nodes = int(stats[0])
        if code == TABLE_FULL:  # the same limit again in a bigger table
            table.grow()
            continue
        extra = {"move_limit_searched": limit,
                 "table_mb": round((table.hash.nbytes + table.keys.nbytes) / 2**20, 1)}
        if code == FOUND:
            jumps = [layout.decode(c) for c in best_path[:int(stats[1])]]
            proof = (f"iterative deepening on moves: no solution in {limit - 1} moves"
                     if limit > max(1, start_bound) else "equals the lower bound (pegs no jump passes over)")
            return "optimal", jumps, proof, nodes, None, extra
        if code != EXHAUSTED:
            proof = f"no solution in {limit - 1} moves (proved)" if limit > max(1, start_bound) else ""
            return "not-found", None, proof, nodes, STOP_REASONS.get(code), extra
        limit += 1
    return "impossible", None, "exhaustive iterative deepening: no single survivor", int(stats[0]), None, {}


def _solve_moves_meet(board: Board, finish: Cell | None, budget: Budget):
    """Fewest moves by breadth-first search from both ends (boards of at most 64 holes)."""
    driver = meet.MeetSearch(board, finish, budget)
    code, moves, meeting = driver.run()
    extra = {"method": "meet in the middle", "symmetries": len(driver.perms),
             "forward_layers": [driver.forward.bounds[k + 1] - driver.forward.bounds[k]
                                for k in range(driver.forward.depth + 1)],
             "backward_layers": [driver.backward.bounds[k + 1] - driver.backward.bounds[k]
                                 for k in range(driver.backward.depth + 1)]}
    insufficient = driver.proved_insufficient()
    extra["moves_proved_insufficient"] = insufficient
    if code == FOUND:
        jumps = driver.path(meeting)
        proof = (f"breadth-first search by moves from both ends under {len(driver.perms)} symmetries: "
                 f"no position within {driver.forward.depth} moves of the start is within "
                 f"{driver.backward.depth} of the finish, so no game has {moves - 1} moves or fewer")
        if moves == 0 or rules.count_moves(jumps) != moves:
            proof = f"meeting position at {moves} moves"
        return "optimal", jumps, proof, driver.nodes, None, extra
    if code == EXHAUSTED:
        return ("impossible", None, "breadth-first search by moves from both ends: one side reached "
                "every position it can without meeting the other", driver.nodes, None, extra)
    proof = f"no solution in {insufficient} moves or fewer (proved)" if insufficient > 0 else ""
    return "not-found", None, proof, driver.nodes, STOP_REASONS.get(code), extra
