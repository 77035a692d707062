"""``gridsolver samegame ...``: maximise the SameGame score (same boards and moves as Clickomania).

No numba at import time: the searches are imported when a solve starts.
"""

from __future__ import annotations

from functools import partial

import click

from gridsolver.clickomania.cli import replay_moves
from gridsolver.clickomania.picture import picture
from gridsolver.core.commands import game_group
from gridsolver.samegame.game import GAME

group = game_group(
    GAME,
    """SameGame: maximise the score (same rules as Clickomania).

    Removing a group of n cells scores (n-2)^2; clearing the board adds 1000.
    Boards are written as for `gridsolver clickomania`; the named set
    standard-20 holds the 20 standard 15x15 positions of the literature
    (standard-20#3 is the third).

    A board of at most 64 cells is searched exactly first: its answer is
    optimal, with the proof. On larger boards, with the default method, each
    worker (default: one per core) runs nested rollout policy adaptation
    whose playouts keep one colour for last: a dominant colour, or else the
    best rated colours after a short run with each of the most frequent ones
    (a worker goes on from its colour's rating run). The ending of the best
    game is then solved exactly and the best game of all runs wins: a best
    found, not proved optimal. A move
    is (row, column) of a cell of the removed group, counted from 0 with row
    0 at the top, in the board just before the move.
    """,
    picture=picture,
)


@group.command()
@click.argument("board", metavar="BOARD")
@click.argument("moves", metavar="MOVES")
@click.option("--penalty", is_flag=True, help="Subtract the end penalty (cells left - 2)^2.")
def replay(board: str, moves: str, penalty: bool) -> None:
    """Play MOVES ("row,col row,col ...") on the first board of BOARD and show the result and points."""
    from gridsolver.clickomania.rules import format_board
    from gridsolver.samegame.rules import replay as scored_replay

    _, outcome = replay_moves(board, moves, partial(scored_replay, penalty=penalty))
    click.echo(format_board(outcome.final))
    click.echo(f"cells left: {outcome.cells_left}, points: {outcome.score}, "
               f"game over: {'yes' if outcome.game_over else 'no'}")
