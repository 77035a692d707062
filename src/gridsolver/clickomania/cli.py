"""``gridsolver clickomania ...``: solve, generate and replay Clickomania boards.

No numba at import time: the kernels are imported inside the commands.
"""

from __future__ import annotations

import click

from gridsolver.core.boards import BoardText, load_boards, split_boards
from gridsolver.core.cliutil import budget_options, json_option, make_budget, seed_option, solve_each
from gridsolver.core.errors import InputError

SPEC_HELP = "WIDTHxHEIGHTxCOLOURS, e.g. 20x10x4 = 20 columns, 10 rows, 4 colours"


@click.group()
def group() -> None:
    """Clickomania: clear the board or prove it cannot be cleared.

    Boards are rows of colour characters (0-9, a-z; at most 20 colours) with
    '.' for an empty cell, top row first; several boards in one file are
    separated by blank lines and '#' starts a comment line. Named sets:
    duel-5x5 (200 boards), standard-20 (the SameGame set). A move is
    (row, column) of a cell of the removed group, 0-based from the top-left,
    in the board as it is just before the move.
    """


def _generated(random_spec: str | None, clearable_spec: str | None, count: int, seed: int) -> list[BoardText]:
    from gridsolver.clickomania import generate, rules

    texts = []
    for k in range(count):
        if random_spec:
            w, h, c = generate.parse_spec(random_spec)
            texts.append((f"random-{random_spec}-seed{seed + k}",
                          rules.format_board(generate.random_board(w, h, c, seed + k))))
        if clearable_spec:
            w, h, c = generate.parse_spec(clearable_spec)
            texts.append((f"clearable-{clearable_spec}-seed{seed + k}",
                          rules.format_board(generate.clearable_board(w, h, c, seed + k).board)))
    return [split_boards(text, name)[0] for name, text in texts]


def _boards(paths: tuple[str, ...], random_spec: str | None, clearable_spec: str | None, count: int,
            seed: int) -> list[BoardText]:
    from gridsolver.clickomania import rules

    boards = _generated(random_spec, clearable_spec, count, seed)
    if paths:
        boards += load_boards(paths, comment=rules.COMMENT, named=rules.named)
    if not boards:
        raise InputError("no board given: name board files (or duel-5x5, standard-20), or use --random / "
                         "--clearable")
    return boards


generator_options = [
    click.option("--random", "random_spec", metavar="WxHxC", default=None,
                 help=f"Also solve random boards: {SPEC_HELP}."),
    click.option("--clearable", "clearable_spec", metavar="WxHxC", default=None,
                 help="Also solve boards built to be clearable, same WIDTHxHEIGHTxCOLOURS convention."),
    click.option("--count", type=click.IntRange(1, 100000), default=1, show_default=True,
                 help="How many boards --random / --clearable make (seeds S, S+1, ...)."),
]


def _with_generators(fn):
    for option in reversed(generator_options):
        fn = option(fn)
    return fn


@group.command()
@click.argument("boards", nargs=-1, metavar="BOARD...")
@_with_generators
@seed_option
@budget_options(default_time=10.0)
@json_option
def solve(boards: tuple[str, ...], random_spec: str | None, clearable_spec: str | None, count: int,
          seed: int, time_s: float | None, memory_mb: float | None, nodes: int | None, as_json: bool) -> None:
    """Clear each board, or prove it cannot be cleared and give the fewest cells left.

    Small boards (up to 400 cells) get an exhaustive branch and bound after a
    short beam search, so the answer is proved when the search finishes in
    time; larger boards get beam searches of growing width. The best answer so
    far is reported when the budget runs out. Score: cells left.
    """
    from gridsolver.clickomania import rules
    from gridsolver.clickomania.search import solve_clickomania

    items = _boards(boards, random_spec, clearable_spec, count, seed)

    def solve_one(text: BoardText):
        board = rules.parse(text)
        return solve_clickomania(board, make_budget(time_s, memory_mb, nodes), label=text.label)

    raise SystemExit(solve_each(items, solve_one, as_json))


@group.command()
@click.option("--random", "random_spec", metavar="WxHxC", default=None, help=f"Random boards: {SPEC_HELP}.")
@click.option("--clearable", "clearable_spec", metavar="WxHxC", default=None,
              help="Boards guaranteed to be clearable (built backwards by inserting removable groups).")
@click.option("--count", type=click.IntRange(1, 100000), default=1, show_default=True,
              help="How many boards (seeds S, S+1, ...).")
@click.option("--solution", is_flag=True, help="With --clearable: print a clearing sequence as a comment.")
@seed_option
def generate(random_spec: str | None, clearable_spec: str | None, count: int, solution: bool,
             seed: int) -> None:
    """Print boards, separated by blank lines (sizes are WIDTHxHEIGHTxCOLOURS)."""
    from gridsolver.clickomania import generate as gen
    from gridsolver.clickomania import rules

    if not random_spec and not clearable_spec:
        raise InputError("generate needs --random WxHxC or --clearable WxHxC")
    blocks = []
    for k in range(count):
        if random_spec:
            w, h, c = gen.parse_spec(random_spec)
            blocks.append(f"# random {random_spec} seed {seed + k}\n"
                          + rules.format_board(gen.random_board(w, h, c, seed + k)))
        if clearable_spec:
            w, h, c = gen.parse_spec(clearable_spec)
            built = gen.clearable_board(w, h, c, seed + k)
            head = f"# clearable {clearable_spec} seed {seed + k}\n"
            if solution:
                head += "# solution: " + " ".join(f"{r},{col}" for r, col in built.solution) + "\n"
            blocks.append(head + rules.format_board(built.board))
    click.echo("\n\n".join(blocks))


def parse_moves(text: str) -> list[tuple[int, int]]:
    """Moves written as ``row,col row,col ...`` (0-based)."""
    moves = []
    for token in text.replace(";", " ").split():
        parts = token.strip("()[]").split(",")
        try:
            row, col = (int(p) for p in parts)
        except ValueError:
            raise InputError(f"move {token!r}: expected ROW,COL (0-based, e.g. 3,0)") from None
        moves.append((row, col))
    return moves


@group.command()
@click.argument("board", metavar="BOARD")
@click.argument("moves", metavar="MOVES")
@click.option("--penalty", is_flag=True, help="Subtract the SameGame end penalty (cells left - 2)^2.")
def replay(board: str, moves: str, penalty: bool) -> None:
    """Play MOVES ("row,col row,col ...") on the first board of BOARD and show the result."""
    from gridsolver.clickomania import rules

    text = load_boards([board], comment=rules.COMMENT, named=rules.named)[0]
    start = rules.parse(text)
    played = parse_moves(moves)
    try:
        outcome = rules.replay(start, played, penalty=penalty)
    except InputError as exc:
        raise InputError(f"{text.label}: {exc}") from None
    click.echo(rules.format_board(outcome.final))
    click.echo(f"cells left: {outcome.cells_left}, points: {outcome.score}, "
               f"game over: {'yes' if outcome.game_over else 'no'}")
