"""Plain-Python references of SameGame's kernels, written from their definitions (tiny boards only).

The tests check the kernels against these: the moves a policy playout
chooses among (:func:`allowed_moves`), NRPA's adaptation (:func:`adapt`),
the exact value of an ending (:func:`endgame_value`) and the tabu beam
(:func:`tabu_value`, :func:`tabu_beam`). The board rules
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


def tabu_value(board: Board, points: int, tabu: int, weights: Sequence[int]) -> int:
    """What a position that is no game end is worth to the tabu beam, in eighths of a point.

    The weights (eighths of a point) are those of
    :data:`gridsolver.samegame.kernels.beam.TABU_WEIGHTS`, in order: the other
    colours' groups ((size - 2)^2 each), their counts ((count - 2)^2 each, times
    the sum of the colour's groups' squared sizes over its count squared), the
    clearing bonus while no colour has a single cell left, minus per colour
    with a single cell left, minus per single cell of another colour, minus per
    tabu group beyond the first, the tabu colour's groups ((size - 2)^2 each)
    and the tabu colour in one group ((count - 2)^2).
    """
    groups_w, potential_w, clear_w, stranded_w, singles_w, split_w, tabu_groups_w, tabu_whole_w = weights
    found = board_rules.groups(board)
    value = 8 * points
    tabu_groups = [g for g in found if board.grid[g[0]] == tabu]
    others = [g for g in found if board.grid[g[0]] != tabu]
    value += groups_w * sum(rules.move_score(len(g)) for g in others if len(g) > 2)
    value += tabu_groups_w * sum(rules.move_score(len(g)) for g in tabu_groups if len(g) > 2)
    value -= singles_w * sum(1 for g in others if len(g) == 1)
    counts = board.colour_counts()
    for colour, count in counts.items():
        if count <= 2:
            continue
        if colour == tabu:
            value += tabu_whole_w * rules.move_score(count)
        else:
            joined = sum(len(g) ** 2 for g in found if board.grid[g[0]] == colour)
            value += potential_w * rules.move_score(count) * joined // count**2
    stranded = sum(1 for count in counts.values() if count == 1)
    value += clear_w if stranded == 0 else -stranded_w * stranded
    value -= split_w * max(0, len(tabu_groups) - 1)
    return value


def tabu_beam(board: Board, beam_width: int, penalty: bool, tabu: int, weights: Sequence[int],
              endgame_groups: int = 0) -> tuple[int, list[Move]] | None:
    """The tabu beam written out: after every move keep the ``beam_width`` distinct positions of
    highest :func:`tabu_value` (ties in the order the children were made: positions in beam order,
    groups in order of their canonical cell); a child that is a game end is scored at once and
    takes no place, a position of at most ``endgame_groups`` groups is scored by its exact ending
    (:func:`endgame_value`) instead of expanded. Returns the best game's (points, moves; no moves of
    an exact ending), None when no game was scored."""
    beam: list[tuple[Board, int, list[Move]]] = [(board, 0, [])]
    best: tuple[int, list[Move]] | None = None
    while beam:
        children = []
        for position, points, moves in beam:
            found = board_rules.groups(position)
            if len(found) <= endgame_groups:
                final = points + endgame_value(position, penalty)
                if best is None or final > best[0]:
                    best = (final, moves)
                continue
            for group in found:
                if len(group) < 2:
                    continue
                move = board_rules.canonical(group)
                child = board_rules.apply(position, move)
                gained = points + rules.move_score(len(group))
                if board_rules.is_over(child):
                    final = gained + rules.end_bonus(child.cells_left, True, penalty)
                    if best is None or final > best[0]:
                        best = (final, moves + [move])
                else:
                    value = tabu_value(child, gained, tabu, weights)
                    children.append((-value, child, gained, moves + [move]))
        children.sort(key=lambda c: c[0])
        seen: set[bytes] = set()
        beam = []
        for _, child, gained, moves in children:
            key = child.grid.tobytes()
            if key not in seen:
                seen.add(key)
                beam.append((child, gained, moves))
                if len(beam) == beam_width:
                    break
    return best
