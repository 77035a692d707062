"""SameGame: maximise the score on Clickomania's boards and moves.

The Python API (the command line makes the same calls)::

    from gridsolver import samegame
    result = samegame.solve(samegame.named("standard-20#1"), nodes=20000, workers=1, seed=1)
    print(result.status, result.score, result.verified)   # best-found 2535 True

Options of ``solve``: ``penalty`` (subtract (cells left - 2)^2 at the end)
and ``method`` (``nrpa``, ``mcbeam``, ``beam``, ``nmcs``). The board, its
moves, the board kernels, the random boards and the named sets are
:mod:`gridsolver.clickomania`'s; this package adds SameGame's points
(:mod:`.rules`), its film and its searches (:mod:`.kernels`, :mod:`.search`).
"""

from gridsolver.clickomania.rules import Board
from gridsolver.core.game import NamedBoard, Replayed
from gridsolver.core.result import Result
from gridsolver.samegame.game import GAME, SameGameGame

named = GAME.named
read = GAME.read
load = GAME.load
format = GAME.format
solve = GAME.api_solve()
check = GAME.check
boards = GAME.named_boards

__all__ = ["GAME", "Board", "NamedBoard", "Replayed", "Result", "SameGameGame", "boards", "check", "format",
           "load", "named", "read", "solve"]
