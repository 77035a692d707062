"""The replay of a solution click by click on Clickomania's boards (for ``GAME show``).

Frame 0 is the start; frame k is the board after click k, with the whole group
of click k + 1 highlighted (kind ``move``). Cells are the board's own colour
characters (``0``-``9``, ``a``-``z``) and ``.`` for an empty cell, so a frame's
grid reads like the board text. Clicks are written ``(row,col)``, 0-based from
the top-left of the board just before the click, as ``solve`` prints them.

The clicks are played by :mod:`gridsolver.clickomania.rules` (check, group,
apply); a game that scores its clicks hands its :class:`Scoring` in. Only
the count of removable groups shown on each frame comes from the numba
kernel the searches use (the plain-Python rules would take seconds per
hundred frames on a 64x64 board), and it is tested against the rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from gridsolver.clickomania import rules
from gridsolver.clickomania.rules import Board, Move
from gridsolver.core.errors import InputError
from gridsolver.core.film import Film, Frame
from gridsolver.core.words import plural

#: Twenty clearly distinct colours (after Sasha Trubetskoy's list), given to the board's colours in order.
COLOURS = (
    "#e6194b",  # red
    "#3cb44b",  # green
    "#4363d8",  # blue
    "#ffe119",  # yellow
    "#911eb4",  # purple
    "#f58231",  # orange
    "#42d4f4",  # cyan
    "#f032e6",  # magenta
    "#bfef45",  # lime
    "#800000",  # maroon
    "#469990",  # teal
    "#fabed4",  # pink
    "#9a6324",  # brown
    "#000075",  # navy
    "#dcbeff",  # lavender
    "#808000",  # olive
    "#aaffc3",  # mint
    "#ffd8b1",  # apricot
    "#a9a9a9",  # grey
    "#fffac8",  # beige
)
EMPTY_CELL = "."
EMPTY_COLOUR = "#f2f2f2"


def palette(board: Board) -> tuple[dict[str, str], dict[str, str]]:
    """(palette, legend) for the colours of ``board``: one distinct colour each, and empty cells."""
    colours = sorted(board.colour_counts())
    assert len(colours) <= len(COLOURS), "rules.parse allows at most MAX_COLOURS colours"
    chars = [rules.ALPHABET[c] for c in colours]
    paint = {ch: COLOURS[i] for i, ch in enumerate(chars)}
    legend = {ch: f"colour {ch}" for ch in chars}
    paint[EMPTY_CELL] = EMPTY_COLOUR
    legend[EMPTY_CELL] = "empty"
    return paint, legend


def grid(board: Board) -> str:
    """The board as film cells, row-major: the board text without its line breaks."""
    return rules.format_board(board).replace("\n", "")


class _GroupCounter:
    """How many groups of two or more cells a board has (the kernels' legal-move count)."""

    def __init__(self, board: Board) -> None:
        from gridsolver.clickomania.kernels.groups import legal_moves, to_cells

        self._legal_moves, self._to_cells = legal_moves, to_cells
        n = board.width * board.height
        self._buffers = [np.empty(n, np.int32) for _ in range(6)]

    def __call__(self, board: Board) -> int:
        return int(self._legal_moves(self._to_cells(board.grid), board.width, board.height, *self._buffers))


def _play(board: Board, number: int, move: Move) -> tuple[Move, list[Move], Board]:
    """(cell, its group, the board after) for click ``number``; InputError naming the click."""
    try:
        cell = rules.check_move(board, move)
    except InputError as exc:
        reason = re.sub(r"^move \([^)]*\): ", "", str(exc))
        raise InputError(f"click {number} ({move[0]},{move[1]}): {reason}") from None
    return cell, rules.group_at(board, cell), rules.apply(board, cell)


class Scoring(Protocol):
    """How a game that scores its clicks counts them on a film."""

    title: str  # the game's name in the film's title

    def points(self, removed: int) -> int:
        """The points of a click that removes ``removed`` cells."""

    def end(self, board: Board) -> int:
        """The points (a bonus, or a penalty below 0) the game's last position adds."""


def film(board: Board, moves: Sequence[Move], *, game: str, scoring: Scoring | None = None,
         options: Mapping[str, Any] | None = None) -> Film:
    """The film of ``moves`` on ``board``: the cells left or, given ``scoring``, the score.

    Scored frames also count the points of each click, and the last frame
    adds what ``scoring`` gives the final position.
    """
    points = scoring is not None
    count_groups = _GroupCounter(board)
    steps = len(moves)
    paint, legend = palette(board)
    frames = []
    score = 0
    scores: list[float] = []
    lefts: list[float] = []
    removable: list[float] = []
    position = board
    removed = 0  # cells of the group the last click removed
    for k in range(steps + 1):
        left = position.cells_left
        available = count_groups(position)
        if k == 0:
            text = f"step 0 of {steps}: start, {_many(left, 'cell')}, {_many(available, 'removable group')}"
        else:
            row, col = moves[k - 1]
            text = f"step {k} of {steps}: click ({row},{col}): group of {removed} removed"
            if scoring is not None:
                gain = scoring.points(removed)
                score += gain
                text += f", +{gain:,}, score {score:,}"
            else:
                text += f", {_many(left, 'cell')} left"
        counters: dict[str, int | float | str] = {"clicks": k, "cells left": left,
                                                  "removable groups": available}
        if points:
            counters["score"] = score
        highlight: list[tuple[int, str]] = []
        if k < steps:
            _, group, after = _play(position, k + 1, moves[k])
            highlight = [(r * board.width + c, "move") for r, c in group]
            text += f"; next: click ({moves[k][0]},{moves[k][1]})"
        else:
            text += "; " + _ending(left, available, points)
            if scoring is not None:
                bonus = scoring.end(position)
                score += bonus
                counters["bonus"] = bonus
                counters["score"] = score
                if bonus:
                    text += f": {'bonus' if bonus > 0 else 'penalty'} {bonus:+,}"
                text += f", final score {score:,}"
        frames.append(Frame(grid(position), text, counters, highlight))
        scores.append(score)
        lefts.append(left)
        removable.append(available)
        if k < steps:
            position, removed = after, len(group)
    name = scoring.title if scoring is not None else "Clickomania"
    end = f"score {score:,}" if points else ("cleared" if left == 0 else f"{_many(left, 'cell')} left")
    title = f"{name} {board.width}x{board.height}, {len(paint) - 1} colours: {_many(steps, 'click')}, {end}"
    plots = {"score": scores} if points else {}
    plots.update({"cells left": lefts, "removable groups": removable})
    return Film(game, title, board.height, board.width, paint, legend, frames, plots=plots,
                board=rules.format_board(board), solution=[[r, c] for r, c in moves],
                options=dict(options or {}))


def _ending(left: int, available: int, points: bool) -> str:
    """How the game stands after the last click."""
    if left == 0:
        return "board cleared"
    if available == 0:
        return f"no group left, {_many(left, 'cell')} left" if points else "no group left"
    return f"{_many(available, 'removable group')} still on the board"


def _many(count: int, thing: str) -> str:
    """``1 cell``, ``2 cells``, ``4,096 cells``."""
    return plural(count, thing)
