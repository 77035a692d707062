"""Clickomania: clear the board, or prove it cannot be cleared and give the fewest cells left.

The Python API (the command line makes the same calls)::

    from gridsolver import clickomania
    result = clickomania.solve(clickomania.named("duel-5x5#1"), time=5)
    print(result.status, result.score, result.verified)   # score: cells left

``named`` / ``read`` / ``load`` give :class:`Board` objects (rows of colour
characters 0-9, a-z, ``.`` empty), ``solve`` a replay-verified
:class:`~gridsolver.core.result.Result`, ``check`` replays moves such as
``"4,0 3,2"`` (row, column from the top-left), ``boards`` lists the shipped
sets. SameGame, on the same rules, is :mod:`gridsolver.samegame`.
"""

from gridsolver.clickomania.game import GAME, ClickomaniaGame
from gridsolver.clickomania.rules import Board
from gridsolver.core.game import NamedBoard, Replayed
from gridsolver.core.result import Result

named = GAME.named
read = GAME.read
load = GAME.load
format = GAME.format
solve = GAME.api_solve()
check = GAME.check
boards = GAME.named_boards

__all__ = ["GAME", "Board", "ClickomaniaGame", "NamedBoard", "Replayed", "Result", "boards", "check",
           "format", "load", "named", "read", "solve"]
