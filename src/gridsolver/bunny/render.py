"""Pictures of a board: the order in which a program marks the squares."""

from __future__ import annotations

from gridsolver.bunny.rules import Board, Program, Simulator


def marking_order(board: Board, program: Program) -> str:
    """The board with each square's marking order (S start, O marked before, # never marked)."""
    run = Simulator(board).run(program)
    labels = {q: str(i) for i, q in enumerate(run.order, start=1)}
    width = max([1] + [len(t) for t in labels.values()])
    grid = [["." * width] * board.columns for _ in range(board.rows)]
    for q, (r, c) in enumerate(board.squares):
        if q == board.start:
            text = "S"
        elif q in labels:
            text = labels[q]
        elif q in board.premarked:
            text = "O"
        else:
            text = "#"
        grid[r][c] = text.rjust(width)
    return "\n".join(" ".join(row).rstrip() for row in grid)
