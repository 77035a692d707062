"""``solve --show`` for Clickomania and SameGame: the start board, each cell numbered by its click.

A click names a cell of the board as it is just before the click, after the
groups before it fell and closed up, so the named cells cannot be marked on
the start board as they are. What a player can follow on the start board is
which cells go together: cells only fall and shift, never appear, so every
cell of the start board is removed by one click or stays to the end. The
picture is the start board beside the same board with each cell numbered by
its click (``-`` for a cell that stays). Cells numbered k may lie apart at
the start: the clicks before k bring them together.

The numbers are right-aligned in columns as wide as the last click's
number, so a 20-column board of up to 999 clicks fits in 80 columns. A
board whose numbered rows would not fit is shown at the start with the
number of clicks, and ``GAME show`` replays them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from gridsolver.clickomania import rules
from gridsolver.clickomania.game import moves_of
from gridsolver.clickomania.rules import EMPTY, Board, Move
from gridsolver.core.errors import InputError
from gridsolver.core.result import Result

if TYPE_CHECKING:
    from rich.text import Text

    from gridsolver.core.terminal import Cell

#: The number of a cell that no click removes.
STAYS = "-"


def removal_order(board: Board, moves: Sequence[Move]) -> np.ndarray:
    """For each cell of ``board``, the click (1, 2, ...) that removes it: 0 for a cell still there
    after the last click, -1 for an empty cell. An illegal click is an InputError naming it."""
    height, width = board.height, board.width
    order = np.where(board.grid == EMPTY, -1, 0).ravel()
    # where each start cell is now: the same removals and settling as the colours get
    where = np.where(board.grid == EMPTY, EMPTY, np.arange(height * width).reshape(height, width))
    position = board
    for number, move in enumerate(moves, start=1):
        try:
            cell = rules.check_move(position, move)
        except InputError as exc:
            raise InputError(f"click {number}: {exc}") from None
        for r, c in rules.group_at(position, cell):
            order[where[r, c]] = number
            where[r, c] = EMPTY
        position = rules.apply(position, cell)
        where = rules.settle(where)
    return order.reshape(height, width)


def picture(board: Board, result: Result, colour: bool = False) -> str:
    """``solve --show``: the start board and the click removing each cell (escape codes when ``colour``)."""
    from gridsolver.core.terminal import render

    if result.solution is None:
        return ""
    try:
        moves = moves_of(result.solution)
        order = removal_order(board, moves)
    except InputError as exc:  # the result says NOT VERIFIED already; say why instead of a picture
        return f"  start board: none, the solution does not replay ({exc})"
    return render(picture_lines(board, order, len(moves), result.game), colour)


def picture_lines(board: Board, order: np.ndarray, clicks: int, game: str) -> list[Text]:
    """The picture as lines: the start board beside its numbered copy, or the start alone when the
    numbers do not fit in the terminal's width."""
    from rich.text import Text

    from gridsolver.core.terminal import WIDTH, arrange, grid, spaced

    digits = len(str(clicks))
    styles = _styles(board)
    letters = [[(ch, styles[ch]) for ch in row] for row in rules.format_board(board).splitlines()]
    if clicks == 0:
        return arrange([[Text("start board (no click)"), *grid(letters)]])
    start = grid(letters, spaced(board.width))
    if 2 + board.width * (digits + 1) - 1 > WIDTH:
        return arrange([[Text(f"start board ({clicks:,} clicks, too many to number in {WIDTH} columns:"),
                         Text(f"gridsolver {game} show replays them click by click)"), *start]])
    numbered = grid([[_number(int(order[r, c]), letters[r][c], digits) for c in range(board.width)]
                     for r in range(board.height)])
    lines = arrange([[Text("start board"), *start], [Text("removed by click"), *numbered]])
    stays = int((order == 0).sum())
    if stays:
        lines.append(Text(f"  {STAYS} stays on the board ({stays:,} cell{'s' if stays != 1 else ''})"))
    return lines


def _styles(board: Board) -> dict[str, str]:
    """The rich style of each cell character: the page's colour of each colour, dim empty cells."""
    from gridsolver.clickomania.film import EMPTY_CELL, palette
    from gridsolver.core.terminal import on

    paint, _ = palette(board)
    return {ch: "dim" if ch == EMPTY_CELL else on(colour) for ch, colour in paint.items()}


def _number(click: int, letter: Cell, digits: int) -> Cell:
    """The numbered cell: its click, or ``-`` if it stays, or the empty cell as it is, on its colour."""
    ch, style = letter
    if click < 0:
        return ch.rjust(digits), style
    return (str(click) if click else STAYS).rjust(digits), style
