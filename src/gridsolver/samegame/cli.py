"""``gridsolver samegame ...``: maximise the SameGame score (same rules as Clickomania).

No numba at import time: the kernels are imported inside the commands.
"""

from __future__ import annotations

import click

from gridsolver.core.boards import BoardText, load_boards
from gridsolver.core.cliutil import (
    budget_options,
    json_option,
    make_budget,
    seed_option,
    solve_each,
    workers_options,
)


@click.group()
def group() -> None:
    """SameGame: maximise the score (same rules as Clickomania).

    Removing a group of n cells scores (n-2)^2; clearing the board adds 1000.
    Boards are written as for `gridsolver clickomania`; the named set
    standard-20 holds the 20 standard 15x15 positions of the literature.
    """


@group.command()
@click.argument("boards", nargs=-1, required=True, metavar="BOARD...")
@click.option("--penalty", is_flag=True,
              help="Subtract an end penalty of (cells left - 2)^2 when the board is not cleared.")
@click.option("--method", type=click.Choice(["nrpa", "mcbeam", "beam", "nmcs"]), default="nrpa",
              show_default=True,
              help="nrpa: nested rollout policy adaptation; mcbeam: beam ranked by playouts; "
                   "beam: heuristic beam; nmcs: nested Monte-Carlo.")
@workers_options
@seed_option
@budget_options(default_time=60.0)
@json_option
def solve(boards: tuple[str, ...], penalty: bool, method: str, workers: int | None, cluster: str | None,
          seed: int, time_s: float | None, memory_mb: float | None, nodes: int | None, as_json: bool) -> None:
    """Find a high-scoring sequence for each board (best found, never proved).

    With the default method, each worker (default: one per core) runs
    nested rollout policy adaptation (level 3) whose playouts keep one colour
    for last: a dominant colour, or else the best rated colours after a short
    run with each of the most frequent ones (a worker goes on from its
    colour's rating run). The ending of the best game is then solved exactly.
    The best game of all runs wins. Move: (row,
    column) of a cell of the removed group, 0-based from the top-left of the
    board just before the move.
    """
    from gridsolver.clickomania import rules
    from gridsolver.core.parallel import default_workers
    from gridsolver.samegame.search import solve_samegame

    items = load_boards(boards, comment=rules.COMMENT, named=rules.named)
    count = workers or default_workers()

    def solve_one(text: BoardText):
        board = rules.parse(text)
        return solve_samegame(board, make_budget(time_s, memory_mb, nodes), workers=count, cluster=cluster,
                              seed=seed, penalty=penalty, method=method, label=text.label)

    raise SystemExit(solve_each(items, solve_one, as_json))
