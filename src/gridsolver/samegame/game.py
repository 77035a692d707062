"""SameGame in the shared contract: Clickomania's boards and moves, scored in points.

Removing a group of n cells scores (n - 2)^2 and clearing the board adds
1000; with the ``penalty`` option a game that ends with cells left loses
(cells left - 2)^2. A solution is the list of ``[row, column]`` moves played
until no group is left. Results are always ``best-found``: nothing here
proves a score best. No numba here: the searches are imported when a solve starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gridsolver.clickomania.game import ClickomaniaBoards, moves_of
from gridsolver.clickomania.rules import Board
from gridsolver.core.budget import Budget
from gridsolver.core.errors import InputError
from gridsolver.core.game import Progress, Replayed
from gridsolver.core.options import Option
from gridsolver.core.result import Result
from gridsolver.samegame import rules

if TYPE_CHECKING:
    from gridsolver.core.film import Film

METHODS = ("nrpa", "mcbeam", "beam", "nmcs")


class SameGameGame(ClickomaniaBoards):
    name = "samegame"
    title = "SameGame: maximise the score."
    score_name = "points"
    work_name = "playouts"
    default_time = 60.0
    default_workers = None  # every core: the NRPA workers run side by side
    parallel = True
    worker_modules = ("gridsolver.samegame.search",)
    options = (
        Option("penalty", bool, False,
               "Subtract an end penalty of (cells left - 2)^2 when the board is not cleared."),
        Option("method", str, "nrpa", "nrpa (default): nested rollout policy adaptation; mcbeam: beam ranked "
               "by playouts; beam: tabu beam over whole positions; nmcs: nested Monte-Carlo.",
               choices=METHODS),
    )

    def replay(self, board: Board, solution: Any, options: Mapping[str, Any]) -> Replayed[Board]:
        moves = moves_of(solution)
        replayed = rules.replay(board, moves, penalty=bool(options.get("penalty", False)))
        return Replayed(replayed.final, replayed.score, replayed.game_over, len(moves))

    def film(self, board: Board, solution: Any, options: Mapping[str, Any], **view: Any) -> Film:
        """The clicks frame by frame: the group of the next click outlined, the points, the end bonus."""
        from gridsolver.samegame.film import film

        if solution is None:
            raise InputError("samegame show: give the clicks to replay "
                             "(or a solve --json result that has them)")
        moves = moves_of(self.parse_solution(solution) if isinstance(solution, str) else solution)
        return film(board, moves, penalty=bool(options.get("penalty", False)), options=options)

    def resolve_options(self, board: Board, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"penalty": options.get("penalty") or False, "method": options.get("method") or "nrpa"}

    def workers_for(self, board: Board, options: Mapping[str, Any], workers: int) -> int:
        """One for a board small enough to be searched exactly from the start (it is solved before
        worker processes would have started)."""
        from gridsolver.samegame.search import EXACT_FIRST_CELLS

        return 1 if board.width * board.height <= EXACT_FIRST_CELLS else workers

    def warm(self, board: Board | None, options: Mapping[str, Any] | None, *, workers: int = 1) -> None:
        """The method's kernels here, then in each worker process the search maps onto.

        This process compiles first, so the workers load the kernels from the
        cache instead of compiling them side by side.
        """
        from gridsolver.core.warm import warm_workers

        methods = METHODS if options is None else (str(options["method"]),)
        for method in methods:
            _warm_method(method)
        if board is not None and options is not None:
            warm_workers(_warm_method, methods[0], workers)

    def search(self, board: Board, budget: Budget, *, seed: int, workers: int, cluster: str | None,
               progress: Progress | None, label: str, options: Mapping[str, Any]) -> Result:
        from gridsolver.samegame.search import solve_samegame

        return solve_samegame(board, budget, workers=workers, cluster=cluster, seed=seed,
                              penalty=options["penalty"], method=options["method"], label=label)


GAME = SameGameGame()


# -- warm-up (see SameGameGame.warm) -----------------------------------------------------------------
#: Groups of 3 and more, so a game scores and its ending can be improved: NRPA's game is polished
#: (the exact endgame search and the line it gives). The kernels' types do not depend on the size.
WARM_BOARD = "112\n122\n211"
WARM_NODES = 50  # playouts a warm-up solve may run


def _warm_method(method: str) -> None:
    """Warm ``method`` in this process (module level: a worker process runs it too)."""
    from gridsolver.core.warm import once

    once(("samegame", method), lambda: _warm_solve(method))
    # every method falls back on one NMCS playout when it found nothing (e.g. after Ctrl-C)
    once(("samegame", "nmcs"), lambda: _warm_solve("nmcs"))


def _warm_solve(method: str) -> None:
    """A whole solve of :data:`WARM_BOARD` by ``method`` here, with what follows the search."""
    import numpy as np

    from gridsolver.clickomania.kernels.groups import to_cells
    from gridsolver.core.budget import NO_LIMIT
    from gridsolver.samegame.polish import exact_game, polish_ending
    from gridsolver.samegame.search import solve_samegame

    board = GAME.read(WARM_BOARD)
    # the method itself, with the tail re-search and the exact ending that get their shares of the node
    # budget, not the exact search that solves so small a board first (warmed below: its kernels are the
    # ending's)
    solve_samegame(board, Budget(time_s=None, memory_mb=16.0, nodes=WARM_NODES), method=method,
                   exact_first=False)
    if method == "nrpa":  # the whole ending from the start: the exact search improves on nothing played
        polish_ending(to_cells(board.grid), board.width, board.height, np.zeros(0, np.int32), False,
                      NO_LIMIT, NO_LIMIT, None)
    # a small board is searched exactly from the start, whatever the method
    exact_game(to_cells(board.grid), board.width, board.height, False, NO_LIMIT, NO_LIMIT, None)
