"""SameGame's scoring in plain Python, on Clickomania's board: the reference the kernels are tested against.

The board, its moves and how they play are :mod:`gridsolver.clickomania.rules`.
Removing a group of n cells scores (n - 2)^2 (:func:`move_score`); clearing
the board adds :data:`CLEAR_BONUS`, and with the ``penalty`` option a game
that ends with cells left loses (cells left - 2)^2 (:func:`end_bonus`).
The kernels' form of these points is :mod:`.kernels.scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gridsolver.clickomania.rules import Board, apply, check_move, group_at, is_over

CLEAR_BONUS = 1000


def move_score(removed: int) -> int:
    """The points for removing a group of ``removed`` cells."""
    return (removed - 2) ** 2


def end_penalty(cells_left: int) -> int:
    """The optional end penalty: (cells left - 2)^2 when more than two cells are left."""
    return (cells_left - 2) ** 2 if cells_left > 2 else 0


def end_bonus(cells_left: int, over: bool, penalty: bool) -> int:
    """The points the game's last position adds: :data:`CLEAR_BONUS` when no cell is left, minus
    :func:`end_penalty` with ``penalty`` when no group is left (``over``), else 0."""
    if cells_left == 0:
        return CLEAR_BONUS
    if penalty and over:
        return -end_penalty(cells_left)
    return 0


@dataclass(frozen=True)
class Replay:
    """What replaying a move sequence under the rules gives."""

    final: Board
    score: int
    cells_left: int
    game_over: bool


def replay(board: Board, moves: Sequence[Sequence[int]], penalty: bool = False) -> Replay:
    """Play ``moves`` under the rules and score them; raises InputError on an illegal move."""
    score = 0
    for move in moves:
        cell = check_move(board, move)
        score += move_score(len(group_at(board, cell)))
        board = apply(board, cell)
    left, over = board.cells_left, is_over(board)
    return Replay(board, score + end_bonus(left, over, penalty), left, over)
