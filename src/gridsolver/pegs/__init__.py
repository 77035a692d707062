"""Peg solitaire: most jumps, one peg in a finish hole, or fewest moves, on classic and comesolo boards.

The Python API (the command line makes the same calls)::

    from gridsolver import pegs
    result = pegs.solve(pegs.named("english"), finish=(3, 3), time=30)
    print(result.status, result.score, result.verified)   # optimal 31 True

``named`` / ``read`` / ``load`` give :class:`Board` objects (text boards may
start with a ``jumps: orthogonal|diagonal|triangular`` line), ``solve`` a
replay-verified :class:`~gridsolver.core.result.Result` (options
``objective``, ``finish``, ``strategy``, ``jumps``: see
:mod:`gridsolver.pegs.game`), ``check`` replays jumps such as
``"(3,1)->(3,3)"``, ``format`` writes a board back with its jump rule,
``boards`` lists the shipped boards. The rules and the searches:
docs/pegs.md.
"""

from gridsolver.core.game import NamedBoard, Replayed
from gridsolver.core.result import Result
from gridsolver.pegs.game import GAME, PegsGame
from gridsolver.pegs.rules import Board

named = GAME.named
read = GAME.read
load = GAME.load
format = GAME.format
solve = GAME.api_solve()
check = GAME.check
boards = GAME.named_boards

__all__ = ["GAME", "Board", "NamedBoard", "PegsGame", "Replayed", "Result", "boards", "check", "format",
           "load", "named", "read", "solve"]
