"""``gridsolver bunny ...``: solve, run, bench and random boards.

No numba at module level: the search modules are imported inside commands.
"""

from __future__ import annotations

import json
from typing import Any

import click

from gridsolver.bunny.game import CHALLENGE, CHALLENGE_FILES, GAME, picture
from gridsolver.bunny.generate import MIN_SQUARES
from gridsolver.bunny.rules import MAX_SQUARES
from gridsolver.core import interrupt
from gridsolver.core.cliutil import (
    EXIT_NOT_SOLVED,
    json_option,
    resume_option,
    seed_option,
    status_options,
    workers_options,
)
from gridsolver.core.commands import game_group
from gridsolver.core.errors import ClusterLost
from gridsolver.core.words import cell, plural

group = game_group(
    GAME,
    """Hopping Bunny: shortest tile programs that mark every square.

    Boards are text: S start (facing east), # unmarked square, O marked
    square, space or . no square; an optional first line 'facing: south'
    turns the bunny. Shipped boards: challenge, challenge/01 ... challenge/12
    (gridsolver bunny boards).
    """,
    picture=picture,
)


def _load(paths: tuple[str, ...]):
    return [(text, GAME.parse(text)) for text in GAME.texts(paths)]


@group.command()
@click.argument("board")
@click.argument("program")
@json_option
@click.option("--show", is_flag=True, help="Print the board with the order in which squares get marked.")
def run(board: str, program: str, as_json: bool, show: bool) -> None:
    """Simulate PROGRAM on BOARD: solved or not, steps, unmarked squares.

    PROGRAM is written like 'LOOP{F LOOP(7){F L}}' (quote it for the shell).
    Squares are named by row and column, counted from 0 (row 0 at the top).
    Exit code 0 when the program marks every square, 1 when it does not.
    """
    from gridsolver.bunny.film import marking_order
    from gridsolver.bunny.notation import format_program, parse_program
    from gridsolver.bunny.rules import simulate, token_count

    parsed = parse_program(program)
    loaded = _load((board,))
    unsolved = 0
    for _, b in loaded:
        outcome = simulate(b, parsed)
        unsolved += not outcome.solved
        unmarked = [list(b.squares[q]) for q in outcome.unmarked]
        data = {"game": "bunny", "input": b.name, "program": format_program(parsed),
                "tokens": token_count(parsed), "solved": outcome.solved, "steps": outcome.steps,
                "endless": outcome.endless, "unmarked": unmarked}
        if as_json:
            click.echo(json.dumps(data, separators=(",", ":")))
            continue
        verdict = "solves" if outcome.solved else "does not solve"
        click.echo(f"{b.name}: {format_program(parsed)} ({plural(data['tokens'], 'token')}) {verdict} the "
                   f"board after {plural(outcome.steps, 'step')}")
        if outcome.endless:
            click.echo("  an unbounded loop repeats forever without marking anything new")
        if unmarked:
            shown = "; ".join(cell(r, c) for r, c in unmarked[:20])
            more = f" and {len(unmarked) - 20} more" if len(unmarked) > 20 else ""
            click.echo(f"  {plural(len(unmarked), 'square')} unmarked: {shown}{more}")
        if show:
            click.echo(marking_order(b, parsed))
    if unsolved:
        raise SystemExit(EXIT_NOT_SOLVED)


@group.command()
@click.option("--time", "time_s", type=float, default=60.0, show_default=True, metavar="S",
              help="Time budget per board in seconds.")
@click.option("--memory", "memory_mb", type=float, default=None, metavar="MB",
              help="Memory budget in MB, shared by the boards that run at once (each gets MB / workers); "
                   "default: half the memory available at the start.")
@json_option
@workers_options
@status_options
@resume_option
def bench(time_s: float, memory_mb: float | None, as_json: bool, workers: int | None,
          cluster: str | None, status: str, resume: str | None) -> None:
    """The 12-board challenge: tokens, proof and time per board, and the total score.

    Boards run one at a time unless --workers or --cluster is given (the
    times of parallel boards share the machine, and so does --memory).
    """
    from gridsolver.bunny.challenge import challenge_job
    from gridsolver.core import live
    from gridsolver.core.budget import per_worker_memory_mb
    from gridsolver.core.game import check_workers, make_budget
    from gridsolver.core.parallel import parallel_map
    from gridsolver.core.resume import open_journal

    make_budget(time_s, memory_mb, None)  # refused here, not in the first worker
    count = 1 if workers is None else check_workers(workers)
    boards = [text for text, _ in _load((CHALLENGE,))]
    share = per_worker_memory_mb(memory_mb, count, len(boards), cluster)  # all workers within --memory
    jobs: list[tuple[str, str, float, Any]] = [
        (text.text, name, time_s, share) for text, name in zip(boards, CHALLENGE_FILES, strict=True)]
    with open_journal(resume, key=lambda row: str(row["board"])) as journal:
        kept = {job[1]: _kept_row(journal, job) for job in jobs} if journal else {}
        todo = [job for job in jobs if kept.get(job[1]) is None]

        def finished(_: int, row: dict[str, Any]) -> None:
            tally.finished(f"{row['board']} {plural(row['score'], 'token')}")
            if journal and not interrupt.requested():  # a board cut short by Ctrl-C runs again
                journal.record(row)

        try:
            with live.show(status), live.tally("bunny", "challenge", len(jobs), workers=count) as tally:
                for _ in range(len(jobs) - len(todo)):
                    tally.finished()
                ran = iter(parallel_map(challenge_job, todo, workers=count, cluster=cluster,
                                        label="challenge", on_result=finished))
        except ClusterLost as lost:  # the boards finished before it, then the one line and its exit code
            got = {todo[i][1]: row for i, row in lost.done.items()}
            _print_rows([row for job in jobs if (row := kept.get(job[1]) or got.get(job[1]))], as_json)
            raise
    _print_rows([kept.get(job[1]) or next(ran) for job in jobs], as_json)


def _print_rows(rows: list[dict[str, Any]], as_json: bool) -> None:
    """The challenge table (or its JSON rows) and the total score."""
    if as_json:
        for row in rows:
            click.echo(json.dumps(row, separators=(",", ":")))
    total = sum(r["score"] for r in rows)
    seconds = sum(r["seconds"] for r in rows)
    proved = sum(r["status"] == "optimal" for r in rows)
    if as_json:
        click.echo(json.dumps({"total": total, "seconds": round(seconds, 3), "proved": proved},
                              separators=(",", ":")))
        return
    click.echo(f"{'board':<20} {'squares':>7} {'tokens':>6} {'status':<10} {'seconds':>8}  program")
    for r in rows:
        click.echo(f"{r['board']:<20} {r['squares']:>7} {r['score']:>6} {r['status']:<10} "
                   f"{r['seconds']:>8.3f}  {r['program']}")
    click.echo(f"total score {total} ({proved} of {len(rows)} proved optimal) in {seconds:.2f} s of search")



def _kept_row(journal: Any, job: tuple[str, str, float, Any]) -> dict[str, Any] | None:
    """A board's row from an earlier run, its program replayed on the board again (None: it runs)."""
    from gridsolver.bunny.rules import board_from_text
    from gridsolver.core.resume import mismatch

    row: dict[str, Any] | None = journal.take(job[1])
    if row is None:
        return None
    board = board_from_text(job[0], job[1])
    if row.get("squares") != board.size:
        raise mismatch(journal.path, job[1], "for another board of that name")
    if row.get("program"):
        replayed = GAME.check(board, row["program"])
        if not replayed.complete or replayed.score != row.get("score"):
            raise mismatch(journal.path, job[1], "with a program that does not solve it in its tokens")
    return row


@group.command("random")
@seed_option
@click.option("--squares", type=int, default=100, show_default=True,
              help=f"Squares on each board ({MIN_SQUARES} to {MAX_SQUARES}, the most a bunny board has).")
@click.option("--count", type=click.IntRange(1, 1000), default=1, show_default=True,
              help="Boards to make (seeds SEED, SEED+1, ...), separated by blank lines.")
@json_option
def random_(seed: int, squares: int, count: int, as_json: bool) -> None:
    """Make boards by running a random program on an open plane (the program solves the board)."""
    from gridsolver.bunny.generate import random_board
    from gridsolver.bunny.notation import format_program
    from gridsolver.bunny.rules import format_board, token_count

    for k in range(count):
        made = random_board(seed=seed + k, squares=squares)
        text = format_board(made.board)
        if as_json:
            click.echo(json.dumps({"seed": seed + k, "squares": made.board.size, "board": text,
                                   "program": format_program(made.program),
                                   "tokens": token_count(made.program)}, separators=(",", ":")))
        else:
            if k:
                click.echo("")
            click.echo(text)

