"""The replay of a pegs solution frame by frame (for ``gridsolver pegs show``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridsolver.core.errors import InputError
from gridsolver.core.film import Film, Frame
from gridsolver.core.words import plural
from gridsolver.pegs.rules import Board, Jump, apply, format_jump, jump_over

PALETTE = {"o": "#8c564b", ".": "#e8dcc8", " ": ""}
LEGEND = {"o": "peg", ".": "empty hole"}


def grid(board: Board) -> str:
    """The board as film cells: ``o`` peg, ``.`` empty hole, space off the board."""
    return "".join("o" if board.has_peg((r, c)) else "." if board.is_hole((r, c)) else " "
                   for r in range(board.rows) for c in range(board.cols))


def film(board: Board, jumps: list[Jump], options: Mapping[str, Any]) -> Film:
    """Frame 0 is the start; frame k is the board after jump k, with jump k + 1 highlighted."""
    positions = [board]
    for number, jump in enumerate(jumps, start=1):
        try:
            positions.append(apply(positions[-1], jump))
        except InputError as exc:
            raise InputError(f"jump {number}: {exc}") from None
    steps = len(jumps)
    frames = []
    for k, position in enumerate(positions):
        if k == 0:
            text = f"step 0 of {steps}: start, {plural(position.peg_count, 'peg')}"
        else:
            (r1, c1), (r2, c2) = jumps[k - 1]
            text = (f"step {k} of {steps}: jump ({r1},{c1}) to ({r2},{c2}), "
                    f"{plural(position.peg_count, 'peg')} left")
        highlight: list[tuple[int, str]] = []
        if k < steps:
            start, to = jumps[k]
            for cell, kind in ((start, "from"), (jump_over(jumps[k]), "over"), (to, "to")):
                highlight.append((cell[0] * board.cols + cell[1], kind))
            text += f"; next: {format_jump(jumps[k])}"
        frames.append(Frame(grid(position), text, {"pegs left": position.peg_count, "jumps": k},
                            highlight))
    left = positions[-1].peg_count
    title = f"pegs: {plural(steps, 'jump')}, {plural(left, 'peg')} left"
    return Film("pegs", title, board.rows, board.cols, PALETTE, LEGEND, frames)
