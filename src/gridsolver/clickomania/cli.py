"""``gridsolver clickomania ...``: solve, generate and replay Clickomania boards.

No numba at import time: the kernels are imported inside the commands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from gridsolver.clickomania.game import GAME, parse_moves
from gridsolver.clickomania.generate import DEFAULT_STYLE, STYLES
from gridsolver.clickomania.picture import picture
from gridsolver.core.boards import BoardText, split_boards
from gridsolver.core.cliutil import seed_option
from gridsolver.core.commands import game_group
from gridsolver.core.errors import InputError

SPEC_HELP = "WIDTHxHEIGHTxCOLOURS, e.g. 20x10x4 = 20 columns, 10 rows, 4 colours"
STYLE_HELP = ("How --clearable boards are built: "
              + "; ".join(f"{name}: {what}" for name, what in STYLES.items()) + ".")


def style_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--style``: the build style of --clearable boards (a bad name is a usage error, exit 2)."""
    return click.option("--style", type=click.Choice(list(STYLES)), default=DEFAULT_STYLE, show_default=True,
                        help=STYLE_HELP)(function)


def spec_of(option: str, spec: str) -> tuple[int, int, int]:
    """``WIDTHxHEIGHTxCOLOURS`` of ``--random`` or ``--clearable``; an InputError naming the option."""
    from gridsolver.clickomania.generate import parse_spec

    try:
        return parse_spec(spec)
    except InputError as exc:
        raise InputError(f"{option}: {exc}") from None


def generated_boards(random_spec: str | None, clearable_spec: str | None, count: int,
                     seed: int, style: str = DEFAULT_STYLE) -> list[BoardText]:
    """Boards made by --random / --clearable (seeds S, S+1, ...), solved before any named board."""
    from gridsolver.clickomania import generate, rules

    texts = []
    for k in range(count):
        if random_spec:
            w, h, c = spec_of("--random", random_spec)
            texts.append((f"random-{random_spec}-seed{seed + k}",
                          rules.format_board(generate.random_board(w, h, c, seed=seed + k))))
        if clearable_spec:
            w, h, c = spec_of("--clearable", clearable_spec)
            name = f"clearable-{clearable_spec}" + ("" if style == DEFAULT_STYLE else f"-{style}")
            built = generate.clearable_board(w, h, c, seed=seed + k, style=style)
            texts.append((f"{name}-seed{seed + k}", rules.format_board(built.board)))
    return [split_boards(text, name)[0] for name, text in texts]


group = game_group(
    GAME,
    """Clickomania: clear the board or prove it cannot be cleared.

    Boards are rows of colour characters (0-9, a-z; at most 20 colours) with
    '.' for an empty cell, top row first; several boards in one file are
    separated by blank lines and '#' starts a comment line. Named sets:
    duel-5x5 (200 boards), standard-20 (the SameGame set); duel-5x5#3 is the
    third board of a set, file.txt#2 the second of a file. A move is
    (row, column) of a cell of the removed group, counted from 0 with row 0
    at the top, in the board as it is just before the move.

    Small boards (up to 400 cells) get an exhaustive branch and bound after a
    short beam search, so the answer is proved when the search finishes in
    time; larger boards get beam searches of growing width. Score: cells left.
    """,
    board_options=[
        click.option("--random", "random_spec", metavar="WxHxC", default=None,
                     help=f"Also solve random boards: {SPEC_HELP}."),
        click.option("--clearable", "clearable_spec", metavar="WxHxC", default=None,
                     help="Also solve boards built to be clearable, same WIDTHxHEIGHTxCOLOURS convention."),
        click.option("--count", type=click.IntRange(1, 100000), default=1, show_default=True,
                     help="How many boards --random / --clearable make (seeds S, S+1, ... from --seed)."),
        style_option,
    ],
    board_source=generated_boards,
    picture=picture,
)


@group.command()
@click.option("--random", "random_spec", metavar="WxHxC", default=None, help=f"Random boards: {SPEC_HELP}.")
@click.option("--clearable", "clearable_spec", metavar="WxHxC", default=None,
              help="Boards guaranteed to be clearable (built backwards by inserting removable groups).")
@click.option("--count", type=click.IntRange(1, 100000), default=1, show_default=True,
              help="How many boards (seeds S, S+1, ...).")
@click.option("--solution", is_flag=True, help="With --clearable: print a clearing sequence as a comment.")
@style_option
@seed_option
def generate(random_spec: str | None, clearable_spec: str | None, count: int, solution: bool,
             style: str, seed: int) -> None:
    """Print boards, separated by blank lines (sizes are WIDTHxHEIGHTxCOLOURS)."""
    from gridsolver.clickomania import generate as gen
    from gridsolver.clickomania import rules

    if not random_spec and not clearable_spec:
        raise InputError("generate needs --random WxHxC or --clearable WxHxC")
    blocks = []
    for k in range(count):
        if random_spec:
            w, h, c = spec_of("--random", random_spec)
            blocks.append(f"# random {random_spec} seed {seed + k}\n"
                          + rules.format_board(gen.random_board(w, h, c, seed=seed + k)))
        if clearable_spec:
            w, h, c = spec_of("--clearable", clearable_spec)
            built = gen.clearable_board(w, h, c, seed=seed + k, style=style)
            head = f"# clearable {clearable_spec}" + ("" if style == DEFAULT_STYLE else f" style {style}")
            head += f" seed {seed + k}\n"
            if solution:
                head += "# solution: " + " ".join(f"{r},{col}" for r, col in built.solution) + "\n"
            blocks.append(head + rules.format_board(built.board))
    click.echo("\n\n".join(blocks))


def replay_moves(board: str, moves: str, play: Callable[[Any, list[Any]], Any]) -> tuple[BoardText, Any]:
    """Play MOVES on the first board of BOARD with ``play(board, moves)``; its outcome (a bad move
    is an InputError naming the board)."""
    from gridsolver.clickomania import rules

    text = GAME.texts([board])[0]
    start = rules.parse(text)
    try:
        return text, play(start, parse_moves(moves))
    except InputError as exc:
        raise InputError(f"{text.label}: {exc}") from None


@group.command()
@click.argument("board", metavar="BOARD")
@click.argument("moves", metavar="MOVES")
def replay(board: str, moves: str) -> None:
    """Play MOVES ("row,col row,col ...") on the first board of BOARD and show the result."""
    from gridsolver.clickomania import rules

    _, outcome = replay_moves(board, moves, rules.replay)
    click.echo(rules.format_board(outcome.final))
    click.echo(f"cells left: {outcome.cells_left}, game over: {'yes' if outcome.game_over else 'no'}")
