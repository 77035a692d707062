"""Plain-Python references of SameGame's kernels, written from their definitions (tiny boards only).

The tests check the kernels against these: the moves a policy playout
chooses among (:func:`allowed_moves`), NRPA's adaptation (:func:`adapt`)
and the exact value of an ending (:func:`endgame_value`). The board rules
are :mod:`gridsolver.clickomania.rules`, the points :mod:`.rules`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

import numpy as np

from gridsolver.clickomania import rules as board_rules
from gridsolver.clickomania.rules import Board, Move
from gridsolver.samegame import rules


def allowed_moves(board: Board, tabu: int) -> list[Move]:
    """Canonical cells of the groups a policy chooses among: not the tabu colour unless nothing else."""
    legal = [board_rules.canonical(g) for g in board_rules.groups(board) if len(g) >= 2]
    preferred = [m for m in legal if board.grid[m] != tabu]
    return preferred or legal


def move_code(board: Board, move: Move) -> int:
    """A move's (colour, canonical cell) policy code, the cell in the kernels' layout."""
    row, col = move
    return int(board.grid[move]) * board.width * board.height + col * board.height + (board.height - 1 - row)


def adapt(board: Board, policy: dict[int, float], sequence: Sequence[Move], tabu: int,
          alpha: float) -> dict[int, float]:
    """NRPA's adaptation over (colour, canonical cell) codes: the code of every move of ``sequence`` up
    by ``alpha``, each allowed move's code down by ``alpha`` times its probability under ``policy``
    (codes missing from ``policy`` weigh 0)."""
    new = dict(policy)
    for move in sequence:
        codes = [move_code(board, m) for m in allowed_moves(board, tabu)]
        z = sum(math.exp(policy.get(c, 0.0)) for c in codes)
        for c in codes:
            new[c] = new.get(c, 0.0) - alpha * math.exp(policy.get(c, 0.0)) / z
        chosen = move_code(board, move)
        new[chosen] = new.get(chosen, 0.0) + alpha
        board = board_rules.apply(board, move)
    return new


def endgame_value(board: Board, penalty: bool) -> int:
    """The most points still to come from ``board``, end bonus (and ``penalty``) included."""

    @cache
    def value(grid_bytes: bytes) -> int:
        b = Board(np.frombuffer(grid_bytes, np.int8).reshape(board.grid.shape).copy())
        moves = board_rules.legal_moves(b)
        if not moves:
            return rules.end_bonus(b.cells_left, True, penalty)
        return max(rules.move_score(len(board_rules.group_at(b, m)))
                   + value(board_rules.apply(b, m).grid.tobytes()) for m in moves)

    return value(board.grid.astype(np.int8).tobytes())
