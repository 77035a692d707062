"""The finish objective: one peg left in a given hole.

Position classes first (they prove many problems impossible at once). Big boards with one empty hole
then search breadth-first by jumps from both ends (:class:`gridsolver.pegs.endgame.Meeting`, on two
worker processes when allowed), which may decide the problem; otherwise, and on other boards,
depth-first runs (:func:`gridsolver.pegs.depth_first.restarted_dfs`) with a table of dead positions
under the symmetries that fix the finish hole, down to an endgame and cut by pagoda functions. An
exhausted search proves the problem impossible.

Imports numpy; the kernels are imported where they run.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from gridsolver.core.budget import STOP_REASONS, Budget
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, OUT_OF_TIME
from gridsolver.pegs import endgame, rules
from gridsolver.pegs.depth_first import (
    TABLE_SHARE,
    TABLE_SHARE_LEAST,
    build_endgame,
    endgame_info,
    restarted_dfs,
)
from gridsolver.pegs.endgame import Endgame
from gridsolver.pegs.geometry import PositionClasses, fixing, symmetries
from gridsolver.pegs.geometry import transform as geometry_transform
from gridsolver.pegs.layout import Layout
from gridsolver.pegs.rules import Board, Cell

#: Boards of this many holes or more (the 41-hole diamond) build their endgame, pruned by pagodas,
#: before the first forward run: their finish problems are not found without it.
ENDGAME_AT_ONCE_HOLES = 40


def _big(board: Board) -> bool:
    """A board whose finish problems build their endgame at once (one word per position in the dense
    numbering)."""
    return board.hole_count >= ENDGAME_AT_ONCE_HOLES and endgame.fits(board)


def meets(board: Board) -> bool:
    """Whether a finish problem from ``board`` starts with the two-sided search (:func:`_meet`): a big
    board with one empty hole."""
    return _big(board) and (board.holes & ~board.pegs).bit_count() == 1


def solve_finish(board: Board, finish: Cell, budget: Budget, seed: int, workers: int = 1):
    target = 1 << board.index(finish)
    classes = PositionClasses(board)
    if not classes.same_class(board.pegs, target):
        proof = (f"position classes: the start and one peg at {finish} lie in different classes "
                 f"(of {classes.count}) of positions modulo jumps")
        return "impossible", None, proof, 0, None, {"position_classes": classes.count}
    layout = Layout.of(board, seed)
    perms = fixing(symmetries(board), board, finish)
    ending = None
    bank = None
    extra: dict = {}
    table_share = TABLE_SHARE
    if meets(board):
        # big boards, one empty hole: breadth-first by jumps from both ends, pruned by pagodas; it may
        # decide the problem, else its backward side is the depth-first runs' endgame and its forward
        # side's pagodas their cuts
        meeting, outcome = _meet(board, finish, budget, workers)
        extra = meeting_info(meeting)
        if outcome == "found":
            return "optimal", meeting.line(), "one peg left in the finish hole", meeting.nodes(), None, extra
        if outcome == "impossible":
            return "impossible", None, _meeting_proof(meeting, finish), meeting.nodes(), None, extra
        if meeting.mirror is None:  # the depth-first runs share the time with the dual problem's
            return finish_both_ways(meeting, layout, perms, budget, seed, extra)
        ending = meeting.backward
        bank = _dense_bank_rows(board, layout, meeting.forward, perms)
        table_share = table_share_beside(budget, meeting)
    elif _big(board):
        # big boards: pagodas that rule out positions near the start, for the forward search's cuts
        # (they may rule out every position of a layer: then no game finishes)
        found, empty_at, seconds = _finish_bank(board, finish, perms, budget)
        extra = {"forward_lp_pagodas": len(found), "forward_lp_s": seconds}
        if empty_at is not None:
            proof = (f"pagoda functions: every position {empty_at} jump(s) from the start weighs less than "
                     f"one peg at {finish} under one of {len(found)} pagoda functions found by linear "
                     "programming")
            return "impossible", None, proof, 0, None, extra
        bank = _bank_rows(board, layout, found, board.index(finish), perms)
        # then the endgame, its small layers pruned by pagodas (which may prove the problem impossible)
        ending = build_endgame(board, finish, budget, 0, pagodas=True)
        if ending.empty_at is not None:
            proof = _backward_proof(ending, finish)
            return "impossible", None, proof, ending.nodes, None, endgame_info(ending)
    own = Phase(board, layout, perms, finish, ending, bank, budget, table_share)
    return _depth_first([own], seed, 0 if ending is None else ending.nodes, extra)


MEET_TIME_SHARE = 0.25  # of the time left: the two-sided breadth-first search's own share (0.4 slower)
#: ... and the most it takes when its layers predict it decides the problem by then (Meeting.eta): the
#: rest is the depth-first runs' when that prediction fails
MEET_TIME_MOST = 0.95
MEET_MEMORY_SHARE = 0.35  # of the memory budget (the depth-first runs' table gets half of it)
#: ... on the worker processes, which keep in memory only the sides' last layers (the others go to
#: disk): what is left of it once the search ends is those two layers, and the table gets the rest
#: (:func:`table_share_beside`). A layer grown by sorting needs three times its size while it is built, so
#: the diamond's last layer of (1,3)->(7,5), 100 million positions, needs 3 GB of a 4 GB budget.
MEET_MEMORY_SHARE_APART = 0.75


def table_share_beside(budget: Budget, meeting: endgame.Meeting) -> float:
    """The depth-first runs' table's share of the memory budget beside a stopped meeting's layers that
    stay in memory (its sides' last ones: one is the runs' endgame): half, or what those layers leave."""
    limit = budget.memory_bytes()
    if not limit:
        return TABLE_SHARE
    return max(TABLE_SHARE_LEAST, min(TABLE_SHARE, 1.0 - 8 * meeting.held() / limit - TABLE_SHARE_LEAST))


def _meet(board: Board, finish: Cell, budget: Budget, workers: int = 1) -> tuple[endgame.Meeting, str]:
    """:class:`gridsolver.pegs.endgame.Meeting` within its shares of the budget, on two worker processes
    when ``workers`` allows (:class:`gridsolver.pegs.meeting_workers.MeetingApart`): (it, its outcome)."""
    share_of_memory = MEET_MEMORY_SHARE
    if workers > 1:
        from gridsolver.pegs.meeting_workers import MeetingApart

        meeting: endgame.Meeting = MeetingApart(board, finish)
        share_of_memory = MEET_MEMORY_SHARE_APART
    else:
        meeting = endgame.Meeting(board, finish)
    remaining = budget.remaining_s()
    now = time.perf_counter()
    share = 60.0 if remaining is None else MEET_TIME_SHARE * remaining
    most = 4 * share if remaining is None else MEET_TIME_MOST * remaining
    memory = int(share_of_memory * (budget.memory_bytes() or (4 << 30)))
    outcome = meeting.run(budget, memory, now + share, now + most)
    return meeting, outcome


#: After a two-sided search that did not decide a problem, the share of the time left that the
#: depth-first runs on the problem itself get; its dual gets the rest
OWN_SHARE = 0.5


class Phase(NamedTuple):
    """Depth-first runs to one peg at ``target`` on ``board``, down to ``ending`` (None: built when
    needed), cut by the pagodas ``bank``, within ``budget``."""

    board: Board
    layout: Layout
    perms: list
    target: Cell
    ending: Endgame | None
    bank: tuple[np.ndarray, np.ndarray] | None
    budget: Budget
    table_share: float = TABLE_SHARE  # of the memory budget, for the runs' table of dead positions


def finish_both_ways(meeting: endgame.Meeting, layout: Layout, perms: list, budget: Budget, seed: int,
                      extra: dict):
    """Depth-first runs after a two-sided search that stopped: on the problem, down to the meeting's
    backward side, for OWN_SHARE of the time left, then on its dual (start: one empty hole at the
    finish, finish: the start's empty hole), down to the forward side, which is that problem's
    endgame. A game of the dual read backwards is a game of the problem (see
    :class:`~gridsolver.pegs.endgame.Meeting`), and an exhaustive search of either proves both
    impossible. The two sides' pagodas cut the runs of both."""
    board, dual, hole = meeting.board, meeting.dual, meeting.start_hole
    dual_layout = Layout.of(dual, seed)
    dual_perms = fixing(symmetries(dual), dual, hole)
    share = table_share_beside(budget, meeting)
    phases = [Phase(board, layout, perms, meeting.finish, meeting.backward,
                    _dense_bank_rows(board, layout, meeting.forward, perms), budget.split(OWN_SHARE), share),
              Phase(dual, dual_layout, dual_perms, hole, meeting.forward,
                    _dense_bank_rows(dual, dual_layout, meeting.backward, dual_perms), budget, share)]
    return _depth_first(phases, seed, meeting.nodes(), extra)


def _depth_first(phases: list[Phase], seed: int, nodes: int, extra: dict):
    """The finish search's outcome from depth-first runs, phase after phase until one decides the
    problem (the first phase's) or the time is up; a phase on another board is the dual problem's
    (its game read backwards is the problem's), and its details carry the prefix ``dual_``.
    ``nodes``: the jumps made so far, the phases' endgames' included."""
    code = OUT_OF_TIME
    for phase in phases:
        code, jumps, found, runs, entries, info = restarted_dfs(
            phase.board, phase.layout, phase.perms, phase.budget, seed, target=phase.target,
            first_limit=200_000, ending=phase.ending, bank=phase.bank, table_share=phase.table_share)
        nodes += found - (0 if phase.ending is None else phase.ending.nodes)  # counted already
        own = phase.board is phases[0].board
        info = {"symmetries": len(phase.perms), "restarts": runs, "table_entries": entries, **info}
        if own:
            extra = {key: info[key] for key in ("symmetries", "restarts", "table_entries")} | extra | info
        else:
            extra = extra | {"dual_" + key: value for key, value in info.items()}
        if code == FOUND:
            line = jumps if own else jumps[::-1]  # the dual's game, read backwards
            return "optimal", line, "one peg left in the finish hole", nodes, None, extra
        if code == EXHAUSTED:
            proof = (f"exhaustive depth-first search under the {len(phase.perms)} symmetries fixing "
                     f"{phase.target}, with a table of dead positions")
            if not own:
                proof = (f"{proof}, of the dual problem (one empty hole at {phases[0].target}, to one peg "
                         f"at {phase.target}): its games read backwards are this problem's")
            return "impossible", None, proof, nodes, None, extra
        if phases[-1].budget.expired():  # the whole budget
            break
    return "not-found", None, "", nodes, STOP_REASONS.get(code), extra


def meeting_info(meeting) -> dict:
    peak = getattr(meeting, "worker_peak_mb", None)  # a meeting on worker processes: their memory
    workers = {} if peak is None else {"meeting_worker_peak_mb": round(peak)}
    return {**workers, "meeting_forward_pegs": meeting.board.peg_count - meeting.forward_depth,
            "meeting_backward_pegs": meeting.backward.pegs, "meeting_positions": meeting.positions(),
            "meeting_self_dual": meeting.mirror is not None,
            "meeting_lp_pagodas": meeting.forward.lp_pagodas + meeting.backward.lp_pagodas,
            "meeting_lp_s": round(meeting.forward.lp_seconds + meeting.backward.lp_seconds, 2),
            "meeting_s": round(sum(meeting.forward.seconds) + sum(meeting.backward.seconds), 2)}


def _backward_proof(ending: Endgame, finish: Cell) -> str:
    pegs = f"{ending.empty_at} peg{'s' if ending.empty_at != 1 else ''}"
    return (f"pagoda functions: no position of {pegs} that can end at {finish} (found "
            f"backwards from it) is reachable from the start: each weighs more than the start under one of "
            f"{ending.lp_pagodas} pagoda functions found by linear programming or the golden pagoda toward "
            "the start's empty hole")


def _meeting_proof(meeting, finish: Cell) -> str:
    pegs = meeting.board.peg_count
    if meeting.backward.empty_at is not None:
        return _backward_proof(meeting.backward, finish)
    if meeting.forward.empty_at is not None:
        jumps = meeting.forward.empty_at - 1
        return (f"pagoda functions: no position {jumps} jump{'s' if jumps != 1 else ''} from the start can "
                f"end at {finish}: each weighs less than one peg there under one of "
                f"{meeting.forward.lp_pagodas} pagoda functions found by linear programming or the golden "
                f"pagoda toward {finish}")
    found = meeting.forward.lp_pagodas + meeting.backward.lp_pagodas
    ends = "from both ends"
    if meeting.mirror is not None:
        ends = ("from the finish (the problem is its own dual under a symmetry of the board: the layers from "
                "the start are their images)")
    if meeting.compared is None or meeting.compared[0] + meeting.compared[1] >= pegs - 1:
        middle = pegs - meeting.forward_depth
        what = f"no position of {middle} pegs is both reachable from the start and able to end at {finish}"
    else:
        below = meeting.compared[1] + 1
        what = (f"no position of {below + 1} pegs reachable from the start has a jump to one of {below} pegs "
                f"able to end at {finish}")
    return (f"breadth-first search by jumps {ends} under the {len(meeting.backward.perms)} "
            f"symmetries fixing the start and {finish}, pruned by {found} pagoda functions found by linear "
            f"programming and two golden pagodas: {what}")


def _dense_bank_rows(board: Board, layout: Layout, side: Endgame, perms: list):
    """The forward side's pagodas found by linear programming (dense rows on positions, floors the
    finish's weight) as the depth-first search's rows (board numbering), each under every symmetry of
    ``perms``; the golden row (the first, when there is one) is left out: the search has its own."""
    rows, floors = [], []
    for k in range(side.golden, len(side.floors)):
        for perm in perms:
            row = np.zeros(layout.words * 64, dtype=np.float64)
            for number, bit in enumerate(side.dense.bits):
                row[perm[bit]] = side.weights[k, number]
            rows.append(row)
            floors.append(side.floors[k])
    return (np.array(rows, dtype=np.float64).reshape(-1, layout.words * 64),
            np.array(floors, dtype=np.float64))


FINISH_BANK_SHARE = 0.1  # of --time: the most the forward pagodas' linear programs take
FINISH_BANK_MAX_S = 6.0
FINISH_BANK_MOST = 12  # pagodas (each used under every symmetry fixing the finish)


def _finish_bank(board: Board, finish: Cell, perms: list, budget: Budget):
    """Pagodas ruling out positions near the start (:func:`gridsolver.pegs.pagoda.finish_bank`): (the
    pagodas, the depth of a layer they leave empty or None, seconds)."""
    from gridsolver.pegs import pagoda

    started = time.perf_counter()
    seconds = FINISH_BANK_MAX_S if budget.time_s is None else min(FINISH_BANK_SHARE * budget.time_s,
                                                                  FINISH_BANK_MAX_S)
    remaining = budget.remaining_s()
    seconds = seconds if remaining is None else min(seconds, remaining)
    fixing_start = [p for p in perms if geometry_transform(board.pegs, p) == board.pegs]
    found, empty_at = pagoda.finish_bank(rules.triples(board), board.holes, board.pegs, board.index(finish),
                                         fixing_start, seconds, most=FINISH_BANK_MOST)
    return found, empty_at, round(time.perf_counter() - started, 2)


def _bank_rows(board: Board, layout: Layout, found: list, finish_bit: int, perms: list):
    """The pagodas ``found`` as kernel rows, each under every symmetry of ``perms`` (all fix the finish),
    and their floors (the finish's weight): exact, the weights being multiples of 2^-24."""
    rows, floors = [], []
    for weights in found:
        for perm in perms:
            row = np.zeros(layout.words * 64, dtype=np.float64)
            for bit, value in weights.items():
                row[perm[bit]] = float(value)
            rows.append(row)
            floors.append(float(weights.get(finish_bit, 0)))
    return (np.array(rows, dtype=np.float64).reshape(-1, layout.words * 64),
            np.array(floors, dtype=np.float64))


