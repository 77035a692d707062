"""``gridsolver pegs ...``: the shared solve, check, boards, format; the single-vacancy table; random boards.

This module is imported for ``--help``: it must not import numba (the
searches are imported inside the command functions).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import click

from gridsolver.core import interrupt
from gridsolver.core.cliutil import (
    EXIT_INTERRUPTED,
    budget_options,
    json_option,
    resume_option,
    seed_option,
    status_options,
    workers_options,
)
from gridsolver.core.commands import emit, game_group
from gridsolver.core.errors import ClusterLost, InputError
from gridsolver.core.words import plural
from gridsolver.pegs.game import GAME, picture
from gridsolver.pegs.rules import JUMP_RULES, MAX_SIDE, shown

if TYPE_CHECKING:
    from gridsolver.core.result import Result
    from gridsolver.pegs.rules import Board, Cell

#: The most problems ``table`` takes on (each gets the whole --time): 276 for Wiegleb's board,
#: 1,275 for 10x10; a 30x30 board has 101,475, weeks of work at the default minute each.
MAX_TABLE_PROBLEMS = 2_000

group = game_group(
    GAME,
    """Peg solitaire: classic boards and comesolo squares.

    Boards: files (o peg, . empty, space or - no hole; 1/0 on square comesolo
    boards; # starts a comment) or names: english, european, wiegleb,
    diamond, triangle, NxN (e.g. 6x6). An optional first line
    'jumps: orthogonal|diagonal|triangular' gives the jump rule; without it
    1/0 boards jump diagonally too and other boards orthogonally.
    """,
    picture=picture,
)


@group.command()
@click.argument("board", default="english")
@click.option("--jumps", "jump_rule", type=click.Choice(JUMP_RULES), default=None,
              help="Play under this jump rule instead of the board's own.")
@budget_options(default_time=60.0)
@workers_options
@seed_option
@json_option
@status_options
@resume_option
def table(board: str, jump_rule: str | None, time_s: float | None, memory_mb: float | None,
          nodes: int | None, workers: int | None, cluster: str | None, seed: int, as_json: bool,
          status: str, resume: str | None) -> None:
    """Every single-vacancy -> single-survivor problem of BOARD, up to symmetry.

    Each problem (start with one hole empty, finish with one peg in a given
    hole) is marked solvable (with a replay-verified solution) or impossible
    (proved by position classes or an exhaustive search). --time is per problem;
    --memory is shared by the problems that run at once (each gets MB / workers).
    A board may have at most 2,000 problems (10x10 has 1,275). Ctrl-C prints
    the problems finished so far (the running ones with their status) and
    exits 130.
    """
    from gridsolver.core import live
    from gridsolver.core.budget import per_worker_memory_mb
    from gridsolver.core.game import check_seed, check_workers, make_budget
    from gridsolver.core.parallel import parallel_map
    from gridsolver.core.resume import open_journal
    from gridsolver.pegs.table import dual_problems, from_dual, single_vacancy_problems, table_job

    make_budget(time_s, memory_mb, nodes)  # every option is refused here, not in the first worker
    check_seed(seed)
    count = 1 if workers is None else check_workers(workers)
    text = GAME.texts([board])[0]
    parsed = GAME.parse(text)
    if jump_rule is not None:
        parsed = parsed.with_jumps(jump_rule)
    problems = single_vacancy_problems(parsed)
    if len(problems) > MAX_TABLE_PROBLEMS:
        raise InputError(f"{text.label}: {len(problems):,} single-vacancy problems "
                         f"({parsed.hole_count} holes); table takes at most {MAX_TABLE_PROBLEMS:,} "
                         "(10x10 has 1,275)")
    share = per_worker_memory_mb(memory_mb, count, len(problems), cluster)  # all workers within --memory
    inside = None if count == 1 and cluster is None else 1  # problems run one at a time here: every core
    jobs = [(parsed, start, finish, time_s, share, nodes, seed, f"{text.label} {start}->{finish}", inside)
            for start, finish in problems]
    duals = dual_problems(parsed, problems)  # decided by an earlier problem's result, when it is decided
    got: dict[int, Result] = {}
    todo: list[int] = []
    try:
        # Ctrl-C: the running problems stop with what they know, queued ones do not start, and the
        # finished part of the table is still printed (exit 130).
        with interrupt.catching(), open_journal(resume) as journal:
            kept = [_kept(journal, parsed, job) for job in jobs] if journal else [None] * len(jobs)

            def finished(i: int, result: Result) -> None:
                tally.finished(_problem_words(result))
                if journal and result.stopped != "interrupted":  # cut short by Ctrl-C: runs again
                    journal.record(result.to_dict())

            with live.show(status), \
                    live.tally("pegs", f"table {text.label}", len(jobs), "problems", workers=count) as tally:
                for _ in range(sum(result is not None for result in kept)):
                    tally.finished()

                def search(indices: list[int]) -> None:
                    nonlocal todo
                    todo = indices
                    ran = parallel_map(table_job, [jobs[i] for i in todo], workers=count, cluster=cluster,
                                       label="problems", on_result=finished)
                    got.update(zip(todo, ran, strict=True))

                search([i for i, result in enumerate(kept) if result is None and i not in duals])
                undecided = []  # duals of problems left undecided: searched in their own right
                for i, (j, p) in duals.items():
                    if kept[i] is None:
                        primary = kept[j] or got[j]
                        derived = from_dual(parsed, problems[i], problems[j], p, primary, jobs[i][7])
                        if derived is None:
                            undecided.append(i)
                        else:
                            got[i] = derived
                            finished(i, derived)
                search(undecided)
        results = cast("list[Result]", _merged(kept, got))
    except (interrupt.Interrupted, ClusterLost) as stop:
        got.update({todo[i]: cast("Result", result) for i, result in stop.done.items()})
        by_index = _merged(kept, got)
        finished = [i for i, result in enumerate(by_index) if result is not None]
        done = [cast("Result", by_index[i]) for i in finished]
        _print_table(parsed, [problems[i] for i in finished], done, as_json)
        if isinstance(stop, ClusterLost):
            raise
        click.echo(f"gridsolver: interrupted: {len(finished):,} of {plural(len(problems), 'problem')} "
                   "finished", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    _print_table(parsed, problems, results, as_json)



def _kept(journal: Any, board: Board, job: tuple) -> Result | None:
    """A problem's result from an earlier run, checked against this run's problem (None: it runs)."""
    from gridsolver.core.commands import resumed
    from gridsolver.pegs.table import problem_board

    stored = journal.take(job[7])
    if stored is None:
        return None
    start, finish = job[1], job[2]
    return resumed(GAME, problem_board(board, start), stored, {"objective": "finish", "finish": finish},
                   journal.path)


def _merged(kept: list[Result | None], ran: dict[int, Result]) -> list[Result | None]:
    """Each problem's result: kept from the journal or run now (None: neither, after Ctrl-C)."""
    return [ran.get(i, result) for i, result in enumerate(kept)]


def _problem_words(result: Result) -> str:
    """A finished problem in a few words, for the status line."""
    return f"{result.input}: {result.status}"


def _print_table(board: Board, problems: list[tuple[Cell, Cell]], results: list[Result],
                 as_json: bool) -> None:
    from gridsolver.pegs.table import format_table

    if as_json:
        for result in results:
            emit(result, True)
    elif problems:
        click.echo(format_table(board, problems, results))


@group.command("random")
@click.argument("size")
@click.option("--density", type=float, default=0.75, show_default=True,
              help="Chance that a hole holds a peg (above 0, below 1).")
@seed_option
def random_(size: str, density: float, seed: int) -> None:
    """Print a random square comesolo board (SIZE like 20 or 20x20, from 1x3 to 30x30; 1 peg, 0 empty;
    diagonal jumps)."""
    from gridsolver.pegs.generate import random_board

    match = SIZE.fullmatch(size.strip().lower())
    if match is None:
        raise InputError(f"size {shown(size)}: expected N or NxM, e.g. 20x20 (at most {MAX_SIDE}x{MAX_SIDE})")
    rows, cols = int(match.group(1)), int(match.group(2) or match.group(1))
    click.echo(GAME.format(random_board(rows, cols, density, seed=seed)))


# Nine digits at most: larger sizes are refused by the size check, and int() never refuses them.
SIZE = re.compile(r"([0-9]{1,9})(?:x([0-9]{1,9}))?")
