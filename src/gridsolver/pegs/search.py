"""Peg solitaire searches: the objective's search within the budget, and its result.

Objectives (see ``docs/pegs.md``), one module each:

- ``jumps``: most jumps (fewest pegs left), :mod:`gridsolver.pegs.jumps`;
- ``finish``: one peg left in a given hole, :mod:`gridsolver.pegs.finish`;
- ``moves``: fewest moves (runs of jumps by one peg) to one peg, :mod:`gridsolver.pegs.moves`.

The depth-first runs the first two share are :mod:`gridsolver.pegs.depth_first`; the kernels'
named bundles and a board's arrays are :mod:`gridsolver.pegs.layout`.

:func:`search` returns an unverified :class:`~gridsolver.core.result.Result`:
:meth:`gridsolver.pegs.game.PegsGame.solve` replays it under the rules
(:func:`gridsolver.core.game.verify`), and only that replay sets
``verified``. :func:`report` replays the jumps too, for the details (pegs
left, moves) and as an internal consistency check.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from gridsolver.core.budget import Budget, peak_rss_mb
from gridsolver.core.errors import InputError
from gridsolver.core.result import Result, Stats
from gridsolver.pegs import rules
from gridsolver.pegs.finish import solve_finish
from gridsolver.pegs.jumps import solve_jumps, solve_published

# Numba caches written by earlier versions pickle the kernels' bundles under this module's name, and
# numba unpickles a cache's index before it checks the index is stale: with these names such a cache
# loads, misses and is written again, instead of failing with an AttributeError.
from gridsolver.pegs.layout import (  # noqa: F401
    Ceilings,
    Doom,
    Finish,
    Geometry,
    MoveBound,
    Order,
    Ranking,
    Table,
)
from gridsolver.pegs.moves import solve_moves
from gridsolver.pegs.rules import OBJECTIVES, STRATEGIES, Board, Cell, Jump


def search(board: Board, budget: Budget, *, label: str = "board", objective: str = "jumps",
           finish: Cell | None = None, strategy: str = "default", seed: int = 0,
           note: Callable[[str], None] | None = None, workers: int = 1) -> Result:
    """Search one board for ``objective`` within ``budget``; the result is not verified yet.

    The options are those :meth:`gridsolver.pegs.game.PegsGame.check_options`
    has checked (this function only refuses what it cannot run). ``workers``: the worker processes
    a finish problem's two-sided search may use (see :mod:`gridsolver.pegs.meeting_workers`). ``note``
    (e.g. a progress display's ``note``) hears the best result so far of the
    anytime jumps search after each of its runs.
    """
    if objective not in OBJECTIVES or strategy not in STRATEGIES:
        raise InputError(f"objective {objective!r} with strategy {strategy!r}: expected an objective of "
                         f"{', '.join(OBJECTIVES)} and a strategy of {', '.join(STRATEGIES)}")
    if (objective == "finish" and finish is None) or (objective == "jumps" and finish is not None):
        raise InputError(f"objective {objective!r} with finish {finish!r}: finish needs a finish hole, "
                         "jumps takes none")
    started = time.perf_counter()
    if board.peg_count == 1 and objective != "jumps":
        # nothing to search: the one peg either is where it must be or can never move
        done = finish is None or board.has_peg(finish)
        outcome = (("optimal", [], "one peg at the start: no jump needed", 0, None, {}) if done else
                   ("impossible", None, "one peg at the start and no jump is possible", 0, None, {}))
    elif objective == "finish":
        assert finish is not None
        outcome = solve_finish(board, finish, budget, seed, workers)
    elif objective == "moves":
        outcome = solve_moves(board, finish, budget)
    elif strategy == "published":
        outcome = solve_published(board, budget, seed)
    else:
        outcome = solve_jumps(board, budget, seed, note)
    status, jumps, proof, nodes, stopped, extra = outcome
    if objective == "jumps" and jumps is not None:
        found = len(jumps)
        jumps = play_out(board, jumps)
        if note and len(jumps) > found:
            note(f"best {board.peg_count - len(jumps)} pegs left (the best line played on to its end)")
    stats = Stats(nodes=nodes, elapsed_s=time.perf_counter() - started, peak_memory_mb=peak_rss_mb())
    return report(board, label, objective, finish, strategy, status, jumps, proof, stopped, stats, extra)


def play_out(board: Board, jumps: list[Jump]) -> list[Jump]:
    """``jumps`` followed by any legal jumps until none is left (the first by cell and direction).

    A search stopped by its budget may hold a best line whose last position
    still has a jump; playing on only adds jumps, and a most-jumps answer then
    always ends where no jump is left, as its replay checks.
    """
    final = rules.replay(board, jumps)
    triples = rules.triples(board)
    pegs = final.pegs
    out = list(jumps)
    while True:
        for a, b, c in triples:
            if pegs >> a & 1 and pegs >> b & 1 and not pegs >> c & 1:
                pegs ^= (1 << a) | (1 << b) | (1 << c)
                out.append((board.cell(a), board.cell(c)))
                break
        else:
            return out


def report(board: Board, label: str, objective: str, finish: Cell | None, strategy: str, status: str,
           jumps: list[Jump] | None, proof: str, stopped: str | None, stats: Stats, extra: dict) -> Result:
    """Build the result; the jumps are replayed for the details and as a consistency check.

    A replay that disagrees with the search is a bug: it is recorded in
    ``details['consistency']`` (the verifying replay will then refuse the result).
    """
    details: dict = {"objective": objective, "jump_rule": board.jumps, "pegs_at_start": board.peg_count}
    if objective == "jumps":
        details["strategy"] = strategy
    if finish is not None:
        details["finish"] = list(finish)
    details.update(extra)
    score = None
    solution = None
    if jumps is not None:
        solution = [rules.format_jump(j) for j in jumps]
        moves = rules.count_moves(jumps)
        score = moves if objective == "moves" else len(jumps)
        details.update(jumps=len(jumps), moves=moves)
        try:
            final = rules.replay(board, jumps)
        except InputError as exc:
            details["consistency"] = f"the search's own jumps do not replay: {exc}"
        else:
            details["pegs_left"] = final.peg_count
            one_peg = final.peg_count == 1 and (finish is None or final.has_peg(finish))
            if status == "optimal" and objective != "jumps" and not one_peg:
                details["consistency"] = "the search claims one peg left in the finish, the replay disagrees"
    return Result(game="pegs", input=label, status=status, solution=solution, score=score,
                  score_name="moves" if objective == "moves" else "jumps", proof=proof, stopped=stopped,
                  stats=stats, details=details)

