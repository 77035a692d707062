"""Hopping Bunny: the shortest tile program (F, L, R, nested loops) that marks every square.

The Python API (the command line makes the same calls)::

    from gridsolver import bunny
    result = bunny.solve(bunny.named("04-level4"), time=10)
    print(result.status, result.solution, result.score)   # optimal LOOP{F LOOP(7){F L}} 5

``named`` / ``read`` / ``load`` give :class:`Board` objects, ``solve`` a
replay-verified :class:`~gridsolver.core.result.Result`, ``check`` replays a
program, ``boards`` lists the shipped boards. The rules and the search:
docs/bunny.md.
"""

from gridsolver.bunny.game import GAME, BunnyGame
from gridsolver.bunny.rules import Board
from gridsolver.core.game import NamedBoard, Replayed
from gridsolver.core.result import Result

named = GAME.named
read = GAME.read
load = GAME.load
format = GAME.format
solve = GAME.api_solve()
check = GAME.check
boards = GAME.named_boards

__all__ = ["GAME", "Board", "BunnyGame", "NamedBoard", "Replayed", "Result", "boards", "check", "format",
           "load", "named", "read", "solve"]
