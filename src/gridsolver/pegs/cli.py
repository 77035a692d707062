"""``gridsolver pegs ...``: solve boards, list a board's single-vacancy table, make random boards.

This module is imported for ``--help``: it must not import numba (the
kernels are imported inside the command functions).
"""

from __future__ import annotations

import click

from gridsolver.core.boards import BoardText, load_boards
from gridsolver.core.cliutil import (
    budget_options,
    emit,
    json_option,
    make_budget,
    seed_option,
    solve_each,
    workers_options,
)
from gridsolver.core.progress import progress
from gridsolver.core.result import SolveResult

OBJECTIVES = ("jumps", "finish", "moves")
STRATEGIES = ("default", "published")
JUMP_RULES = ("orthogonal", "diagonal", "triangular")


@click.group()
def group() -> None:
    """Peg solitaire: classic boards and comesolo squares.

    Boards: files (o peg, . empty, space or - no hole; 1/0 on square comesolo
    boards; # starts a comment) or names: english, european, wiegleb, diamond,
    triangle, NxN (e.g. 6x6).
    """


@group.command()
@click.argument("boards", nargs=-1, required=True)
@click.option("--finish", default=None, metavar="ROW,COL",
              help="The hole the last peg must end in (0-based); implies --objective finish.")
@click.option("--objective", type=click.Choice(OBJECTIVES), default=None,
              help="jumps: most jumps; finish: one peg in --finish; moves: fewest moves to one peg "
                   "(in --finish when given). Default: finish with --finish, else jumps.")
@click.option("--strategy", type=click.Choice(STRATEGIES), default="default", show_default=True,
              help="For --objective jumps: our anytime search, or the published comesolo method.")
@click.option("--jumps", "jump_rule", type=click.Choice(JUMP_RULES), default=None,
              help="Jump directions (default: diagonal for 1/0 boards, triangular for 'triangle', "
                   "else orthogonal).")
@budget_options(default_time=60.0)
@seed_option
@json_option
def solve(boards: tuple[str, ...], finish: str | None, objective: str | None, strategy: str,
          jump_rule: str | None, time_s: float | None, memory_mb: float | None, nodes: int | None,
          seed: int, as_json: bool) -> None:
    """Solve each board: print the jumps, the final board, pegs left and proof status."""
    from gridsolver.pegs import rules, search

    cell = rules.parse_cell(finish) if finish is not None else None
    chosen = objective or ("finish" if cell is not None else "jumps")
    texts = load_boards(boards, comment="#", named=rules.named)

    with progress(len(texts), "solving") as bar:
        def solve_one(text: BoardText) -> SolveResult:
            board = rules.parse(text, jump_rule)
            if cell is not None and not board.is_hole(cell):
                raise text.error(f"--finish {cell[0]},{cell[1]} is not a hole of this board "
                                 f"({board.rows} rows x {board.cols} columns, 0-based)")
            result = search.solve(board, label=text.label, objective=chosen, finish=cell,
                                  strategy=strategy, budget=make_budget(time_s, memory_mb, nodes),
                                  seed=seed, note=lambda message: bar.note(f"{text.label}: {message}"))
            bar.advance()
            return result

        code = solve_each(texts, solve_one, as_json)
    if code:
        raise SystemExit(code)


@group.command()
@click.argument("board", default="english")
@click.option("--jumps", "jump_rule", type=click.Choice(JUMP_RULES), default=None,
              help="Jump directions (default as for solve).")
@budget_options(default_time=60.0)
@workers_options
@seed_option
@json_option
def table(board: str, jump_rule: str | None, time_s: float | None, memory_mb: float | None,
          nodes: int | None, workers: int | None, cluster: str | None, seed: int, as_json: bool) -> None:
    """Every single-vacancy -> single-survivor problem of BOARD, up to symmetry.

    Each problem (start with one hole empty, finish with one peg in a given
    hole) is marked solvable (with a verified solution) or impossible
    (proved by position classes or an exhaustive search). --time is per problem.
    """
    from gridsolver.core.parallel import parallel_map
    from gridsolver.pegs import rules, search

    text = load_boards([board], comment="#", named=rules.named)[0]
    parsed = rules.parse(text, jump_rule)
    problems = search.single_vacancy_problems(parsed)
    jobs = [(parsed, start, finish, time_s, memory_mb, nodes, seed, f"{text.label} {start}->{finish}")
            for start, finish in problems]
    results = parallel_map(search.table_job, jobs, workers=workers or 1, cluster=cluster,
                           label="problems")
    if as_json:
        for result in results:
            emit(result, True)
        return
    click.echo(search.format_table(parsed, problems, results))


@group.command()
@click.argument("size")
@click.option("--density", type=float, default=0.75, show_default=True,
              help="Chance that a hole holds a peg.")
@seed_option
def random(size: str, density: float, seed: int) -> None:
    """Print a random square comesolo board (SIZE like 20 or 20x20; 1 peg, 0 empty)."""
    from gridsolver.core.errors import InputError
    from gridsolver.pegs import rules

    parts = size.lower().split("x")
    if not all(p.isdigit() for p in parts) or len(parts) not in (1, 2):
        raise InputError(f"size {size!r}: expected N or NxM, e.g. 20x20")
    rows, cols = int(parts[0]), int(parts[-1])
    click.echo(rules.format_board(rules.random_board(rows, cols, density, seed)))
