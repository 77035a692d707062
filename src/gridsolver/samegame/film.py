"""The replay of a SameGame solution click by click (for ``samegame show``).

Clickomania's film (:mod:`gridsolver.clickomania.film`) with SameGame's
points: each frame also counts the score, (n - 2)^2 per group of n, and the
last frame adds the end bonus for a cleared board (or, with ``penalty``,
takes off the penalty for the cells left when no group is left).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gridsolver.clickomania import film as board_film
from gridsolver.clickomania import rules as board_rules
from gridsolver.clickomania.rules import Board, Move
from gridsolver.core.film import Film
from gridsolver.samegame import rules


class Points:
    """SameGame's scoring of a film (:class:`gridsolver.clickomania.film.Scoring`)."""

    title = "SameGame"

    def __init__(self, penalty: bool) -> None:
        self.penalty = penalty

    def points(self, removed: int) -> int:
        return rules.move_score(removed)

    def end(self, board: Board) -> int:
        return rules.end_bonus(board.cells_left, board_rules.is_over(board), self.penalty)


def film(board: Board, moves: Sequence[Move], *, penalty: bool = False,
         options: Mapping[str, Any] | None = None) -> Film:
    """The film of ``moves`` on ``board``, scored in SameGame's points (with the end ``penalty``)."""
    return board_film.film(board, moves, game="samegame", scoring=Points(penalty), options=options)
