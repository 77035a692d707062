"""Plain-Python references of the Clickomania kernels, for the tests.

The board rules themselves (:mod:`gridsolver.clickomania.rules`) are the
reference of the group, removal and settling kernels; this module holds the
references of what the searches compute on top of them. Written for reading,
not speed.
"""

from __future__ import annotations

from gridsolver.clickomania.rules import EMPTY, Board, apply, legal_moves


def fewest_cells_left(b: Board, memo: dict[Board, int] | None = None) -> int:
    """The fewest cells any game from ``b`` leaves: exhaustive search, for tiny boards only
    (the reference of :func:`gridsolver.clickomania.kernels.exact.exact_search`)."""
    memo = {} if memo is None else memo
    if b in memo:
        return memo[b]
    moves = legal_moves(b)
    best = b.cells_left if not moves else min(fewest_cells_left(apply(b, m), memo) for m in moves)
    memo[b] = best
    return best


def board_features(b: Board) -> tuple[int, int, int]:
    """Single cells, links (orthogonal neighbours of one colour) and 2 x 2 squares of one colour:
    the reference of the beam's feature upkeep (:func:`gridsolver.clickomania.kernels.beam.child_change`)."""
    g = b.grid
    singles = links = squares = 0
    for r in range(b.height):
        for c in range(b.width):
            v = g[r, c]
            if v == EMPTY:
                continue
            same = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= r + dr < b.height and 0 <= c + dc < b.width and g[r + dr, c + dc] == v]
            singles += not same
            links += sum(1 for rr, cc in same if (rr, cc) > (r, c))
            if r + 1 < b.height and c + 1 < b.width and g[r + 1, c] == g[r, c + 1] == g[r + 1, c + 1] == v:
                squares += 1
    return singles, links, squares
