"""The Genetic Rat Race: breed rats on a track with your player; points = 1 + goals.

The Python API (the command line makes the same calls)::

    from gridsolver import ratrace
    t = ratrace.play("colour-score", tracks=5, seed=1, turns=1_000)
    print(round(t.geometric_mean, 3), t.points)   # 4.495 [2, 1, 1, 1, 918]

``play`` plays a tournament (one game per track, tracks of seeds ``seed``,
``seed + 1``, ...) and returns a :class:`Tournament` of per-track
:class:`~gridsolver.core.result.Result` records (status ``played``, score =
points). Its player is a built-in name, ``"path/to/file.py:name"`` or any
function: a numba ``@njit`` one, one marked with :func:`numpy_player`, or a
plain Python ``player(view, genome) -> (dx, dy)``.

``named("seed/5")`` / ``read`` / ``load`` give :class:`Track` objects (text
format: docs/ratrace.md), ``format`` writes one, ``solve(track,
player=..., turns=...)`` plays one game on it, ``boards`` lists the shipped
names. A game is measured, not solved: its ``solution`` is the game itself
(``{"game_seed": S, "turns": T}``; player and turns are in ``options``),
which ``solve`` plays again to set ``Result.verified`` (tournament tracks are
not replayed). A user's player (a file or a function) plays in watched child
processes: a track it fails on is reported (:class:`PlayerError`, naming the
track and the turn), the others play on, and ``play`` then raises
:class:`TournamentError` holding them all. The rules and the controller:
docs/ratrace.md.
"""

from gridsolver.core.game import NamedBoard
from gridsolver.core.result import Result
from gridsolver.ratrace.game import GAME, RatRaceGame
from gridsolver.ratrace.guard import IllegalMove, PlayerError
from gridsolver.ratrace.players import Player, numpy_player
from gridsolver.ratrace.rules import Track
from gridsolver.ratrace.tournament import Tournament, TournamentError, TournamentInterrupted, play

named = GAME.named
read = GAME.read
load = GAME.load
format = GAME.format
solve = GAME.api_solve()
boards = GAME.named_boards

__all__ = ["GAME", "IllegalMove", "NamedBoard", "Player", "PlayerError", "RatRaceGame", "Result",
           "Tournament", "TournamentError", "TournamentInterrupted", "Track", "boards", "format", "load",
           "named", "numpy_player", "play", "read", "solve"]
