"""The command line's shared layer: every game's ``solve``, ``check``, ``boards`` and ``format``.

:func:`game_group` builds a game's click group from its :class:`~gridsolver.core.game.Game`:

- ``solve BOARD...``: the shared options (``--time --memory --nodes --seed
  --workers --cluster --json --show``) plus the game's own options, each
  forwarded to :meth:`Game.solve` under its parameter name; one result per
  board, printed as soon as it is known;
- ``check BOARD SOLUTION``: replay a solution (in the game's notation, or a
  file of ``solve --json`` lines) under the rules;
- ``boards``: the shipped boards and sets;
- ``format BOARD``: the board as the game writes it (every rule included);
- ``show INPUT [SOLUTION]``: the replay of a solution as one self-contained
  HTML page (``-o``), an SVG picture of one step (``--svg``) or frames in the
  terminal (``--steps``, ``--frames FROM:TO``); INPUT is a file of ``solve
  --json`` lines or a board.

``solve --show`` pictures and ``--steps`` frames are coloured when
:func:`gridsolver.core.terminal.colour_wanted` says so, and plain otherwise.

A game's ``cli.py`` is a few lines: its options, then any commands of its own
added to the group. Exit codes are the same for every game (see
:data:`EXIT_CODES`, documented in docs/contract.md).

This module imports click but no numba, and no game: it is loaded for ``--help``.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

import click

from gridsolver.core import interrupt
from gridsolver.core.boards import BoardText, read_source, split_boards
from gridsolver.core.cliutil import (
    EXIT_BAD_INPUT,
    EXIT_CLUSTER_LOST,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_NOT_SOLVED,
    EXIT_OK,
    budget_options,
    json_option,
    live_options,
    resume_option,
    seed_option,
    workers_options,
)
from gridsolver.core.errors import InputError
from gridsolver.core.game import Game
from gridsolver.core.options import click_option
from gridsolver.core.result import SCHEMA_VERSION, Result
from gridsolver.core.words import plural

#: One table for every game (docs/contract.md repeats it).
EXIT_CODES = {
    EXIT_OK: "every board solved (optimal or best found), or the simulation ran",
    EXIT_NOT_SOLVED: "some board not solved: proved impossible, or no solution found within the budget",
    EXIT_BAD_INPUT: "bad input: a malformed board, an option out of range, an illegal move; "
                    "or output that cannot be written",
    EXIT_INTERNAL: "internal error: a bug in gridsolver (--debug shows the traceback); please report it",
    EXIT_CLUSTER_LOST: "the Dask scheduler went away (--cluster); results printed so far stand, and "
                       "--resume FILE goes on from them",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C); results printed so far stand",
}

Decorator = Callable[[Any], Any]
#: Extra board sources of a game (e.g. clickomania --random): option values and --seed -> board texts.
BoardSource = Callable[..., list[BoardText]]
#: What ``solve --show`` prints after a result: ``picture(board, result, colour)``, with escape codes
#: only when ``colour`` (see :func:`gridsolver.core.terminal.colour_wanted`).
Picture = Callable[[Any, Result, bool], str]

SHARED_SOLVE_PARAMS = ("boards", "time_s", "memory_mb", "nodes", "seed", "workers", "cluster", "as_json",
                       "show", "status", "events", "resume")


def label_of(result: Result) -> str:
    return result.input or "the board"


def exit_code(results: Sequence[Result]) -> int:
    """0 when every result is solved, else 1 (bad input never gets this far: it raises)."""
    return EXIT_OK if all(r.solved for r in results) else EXIT_NOT_SOLVED


def emit(result: Result, as_json: bool, first: bool = True, show: str | None = None,
         colour: bool = False) -> None:
    """Print one result: a JSON line, or text for people (a blank line between results) and the
    picture ``show``, whose escape codes are kept only when ``colour`` (click strips them in a pipe)."""
    if as_json:
        click.echo(result.to_json())
    else:
        if not first:
            click.echo("")
        click.echo(result.to_text())
        if show:
            click.echo(show, color=colour or None)
    sys.stdout.flush()


def game_group(game: Game[Any, Any], help_text: str, *, solve_options: Sequence[Decorator] = (),
               board_options: Sequence[Decorator] = (), board_source: BoardSource | None = None,
               picture: Picture | None = None,
               show_options: Sequence[Decorator] = ()) -> click.Group:
    """The click group of ``game`` with the shared commands.

    The game's declared :attr:`Game.options` become options of ``solve`` and
    ``show``, their values going to :meth:`Game.solve` (None values are left
    out, so the game's defaults apply); ``solve_options`` are further click
    options treated the same way.
    ``board_options`` with ``board_source`` add boards made from options
    (e.g. random boards) before the named ones. ``picture(board, result, colour)``
    is what ``--show`` prints after a result. ``show_options`` are the game's
    own ``show`` options (what to show, not what to play), passed to
    :meth:`Game.film` as keywords.
    """

    @click.group(help=help_text)
    def group() -> None:
        pass

    solve_options = [click_option(option) for option in game.options if option.cli] + list(solve_options)

    group.add_command(_solve_command(game, solve_options, board_options, board_source, picture))
    group.add_command(_check_command(game))
    group.add_command(_boards_command(game))
    group.add_command(_format_command(game))
    group.add_command(_show_command(game, solve_options, show_options))
    return group


def _solve_command(game: Game[Any, Any], solve_options: Sequence[Decorator],
                   board_options: Sequence[Decorator], board_source: BoardSource | None,
                   picture: Picture | None) -> click.Command:
    board_params: list[str] = []

    def solve(**values: Any) -> None:
        extra = {name: values.pop(name) for name in board_params}
        texts: list[BoardText] = board_source(seed=values["seed"], **extra) if board_source else []
        if values["boards"]:
            texts += game.texts(values["boards"])
        if not texts:
            raise InputError(f"no board given (name a file, '-' for stdin, or a shipped board: "
                             f"gridsolver {game.name} boards)")
        run_solve(game, texts, values, picture)

    command = solve
    for option in reversed(list(solve_options)):
        command = option(command)
    for option in reversed(list(board_options)):
        before = set(_param_names(command))
        command = option(command)
        board_params.extend(set(_param_names(command)) - before)
    command = click.option("--show", is_flag=True,
                           help="Also print a picture of the solution (not with --json).")(command)
    command = json_option(command)
    command = resume_option(command)
    command = live_options(command)
    if game.parallel:
        command = workers_options(
            workers_help="Worker processes of each board's search (default: all cores).",
            cluster_help="Run each board's search on a Dask cluster's workers.")(command)
    else:
        command = workers_options(workers_help="Boards solved at once, each in a worker process of its "
                                               "own (default: 1, one board after another).",
                                  cluster_help="Send the boards to a Dask cluster, one board per "
                                               "worker at a time.")(command)
    command = seed_option(command)
    command = budget_options(game.default_time, game.default_memory)(command)
    command = click.argument("boards", nargs=-1, metavar="BOARD...")(command)
    doc = (f"Solve each BOARD: a file, '-' for stdin, or a shipped name (gridsolver {game.name} boards); "
           "NAME#k is board k (from 1) of a file or set of several, as results label it.\n\n"
           f"Prints one result per board: status (optimal, impossible, best-found, not-found), "
           f"the solution, its {game.score_name}, the proof and the search figures. "
           "Budgets (--time, --memory, --nodes) are per board"
           + (". " if game.parallel else
              "; boards that run at once (--workers, --cluster) share --memory. Results come in board "
              "order either way."))
    return click.command("solve", help=doc)(command)


def _param_names(fn: Any) -> list[str]:
    return [p.name for p in getattr(fn, "__click_params__", [])]


def run_solve(game: Game[Any, Any], texts: list[BoardText], values: dict[str, Any],
              picture: Picture | None = None) -> None:
    """Parse every board first (bad input fails before any search), then solve them: one after
    another, or side by side (:func:`spread_over`) for a one-process game given several workers."""
    from gridsolver.core import live
    from gridsolver.core.resume import open_journal
    from gridsolver.core.terminal import colour_wanted

    boards = [game.parse(text) for text in texts]
    shared = {k: values.pop(k) for k in SHARED_SOLVE_PARAMS if k in values}
    options = {k: v for k, v in values.items() if v is not None and v is not False}
    # option errors (e.g. a finish hole not on the board) before any search
    checked = [game.check_options(board, options) for board in boards]
    spread = spread_over(game, shared["workers"], shared["cluster"])
    results: list[Result] = []
    colour = colour_wanted()

    def print_result(index: int, result: Result) -> None:
        shown = picture(boards[index], result, colour) if shared["show"] and picture else None
        live.clear_line()
        emit(result, shared["as_json"], first=not results, show=shown, colour=colour)
        results.append(result)

    # Ctrl-C stops the boards being solved, which still print their best; later boards are not started.
    # The status line (on a terminal) says which board, how long, the best so far; --events streams it.
    # --resume FILE: boards FILE already holds are not solved again; each new result goes there at once.
    with interrupt.catching(), live.show(shared.get("status", "auto"), shared.get("events")), \
            open_journal(shared.get("resume")) as journal:
        if spread:
            _solve_side_by_side(game, texts, list(zip(boards, checked, strict=True)), shared, options,
                                spread, journal, print_result)
        else:
            _solve_in_turn(game, texts, boards, shared, options, journal, print_result)
        if interrupt.requested():
            left = len(boards) - len(results)
            stopped = [label_of(r) for r in results if r.stopped == "interrupted"]
            click.echo("gridsolver: interrupted: "
                       + (f"{', '.join(stopped)} stopped with {'its' if len(stopped) == 1 else 'their'} "
                          "best so far" if stopped
                          else f"{len(results)} of {len(boards)} boards finished")
                       + (f"; {plural(left, 'board')} not finished" if left else ""), err=True)
            raise SystemExit(EXIT_INTERRUPTED)
    raise SystemExit(exit_code(results))


def spread_over(game: Game[Any, Any], workers: int | None, cluster: str | None) -> int:
    """How many boards run at once, each in a worker of its own (0: one board after another in this
    process). A one-process game spreads its boards when given ``--workers N`` > 1 or ``--cluster``;
    a game whose own search uses the workers (SameGame) gives them all to each board in turn."""
    from gridsolver.core.game import check_workers

    if game.parallel or (cluster is None and (workers is None or check_workers(workers) <= 1)):
        return 0
    return check_workers(workers) if workers is not None else 1


def _solve_in_turn(game: Game[Any, Any], texts: list[BoardText], boards: list[Any],
                   shared: dict[str, Any], options: dict[str, Any], journal: Any,
                   print_result: Callable[[int, Result], None]) -> None:
    from gridsolver.core import live

    for index, (text, board) in enumerate(zip(texts, boards, strict=True)):
        stored = journal.take(text.label) if journal else None
        if stored is not None:
            result = resumed(game, board, stored, options, journal.path)
        else:
            with live.board(index + 1, len(boards)):
                result = game.solve(board, time=shared["time_s"], memory=shared["memory_mb"],
                                    nodes=shared["nodes"], seed=shared["seed"], workers=shared["workers"],
                                    cluster=shared["cluster"], label=text.label, **options)
            if journal and result.stopped != "interrupted":  # cut short by Ctrl-C: runs again
                journal.record(result.to_dict())
        print_result(index, result)
        if interrupt.requested():
            return


def _solve_side_by_side(game: Game[Any, Any], texts: list[BoardText], boards: list[tuple[Any, Any]],
                        shared: dict[str, Any], options: dict[str, Any], count: int, journal: Any,
                        print_result: Callable[[int, Result], None]) -> None:
    """Up to ``count`` boards at once in worker processes (or on ``--cluster``); results printed in
    board order, each as soon as the boards before it are printed. ``boards``: (board, checked
    options) pairs. The workers are made ready before the first board's budget starts."""
    from gridsolver.core import live
    from gridsolver.core.budget import per_worker_memory_mb
    from gridsolver.core.parallel import parallel_map
    from gridsolver.core.spread import InOrder, SolveJob, solve_job
    from gridsolver.core.warm import warm_for_boards

    cluster = shared["cluster"]
    in_order = InOrder(len(boards), print_result)
    todo: list[int] = []
    for index, (text, (board, _)) in enumerate(zip(texts, boards, strict=True)):
        stored = journal.take(text.label) if journal else None
        if stored is None:
            todo.append(index)
        else:
            in_order.arrived(index, resumed(game, board, stored, options, journal.path))
    share = per_worker_memory_mb(shared["memory_mb"], count, len(todo), cluster)  # all within --memory
    jobs = [SolveJob(game, texts[i], shared["time_s"], share, shared["nodes"], shared["seed"], options)
            for i in todo]

    def finished(k: int, result: Result) -> None:
        index = todo[k]
        score_name, minimize = game.sense(result.options or {})
        live.tell_result(live.Search(game.name, result.input, score_name, minimize, game.work_name,
                                     shared["time_s"], 1, index + 1, len(boards)), result)
        tally.finished(f"{label_of(result)} {result.status}")
        if journal and result.stopped != "interrupted":  # cut short by Ctrl-C: runs again
            journal.record(result.to_dict())
        in_order.arrived(index, result)

    if todo:
        warm_for_boards(game, [boards[i] for i in todo], count, cluster)
    try:
        with live.tally(game.name, "boards", len(boards), "boards", game.work_name, workers=count) as tally:
            for _ in range(len(boards) - len(todo)):
                tally.finished()
            parallel_map(solve_job, jobs, workers=count, cluster=cluster, label="boards", on_result=finished)
    except interrupt.Interrupted:
        pass  # the boards finished (and those stopped with their best) are printed; run_solve says so
    finally:
        in_order.flush()  # after Ctrl-C or a lost cluster: what finished past a gap, still in order


def resumed(game: Game[Any, Any], board: Any, stored: dict[str, Any], options: dict[str, Any],
            path: str) -> Result:
    """A result a journal kept, taken for this run's board once it is shown to belong to it (same game,
    board and options) and replayed under the rules again (a stored line is not taken on trust)."""
    from gridsolver.core.game import verify
    from gridsolver.core.resume import mismatch

    result = Result.from_dict(stored)
    if result.game != game.name:
        raise mismatch(path, result.input, f"by {result.game}, not {game.name}")
    if result.board is not None and result.board != game.format(board):
        raise mismatch(path, result.input, "for another board of that name")
    if result.options != game.check_options(board, options):
        raise mismatch(path, result.input, f"with other options ({result.options})")
    if result.solution is not None and not verify(game, board, result):
        raise mismatch(path, result.input, "with a solution that does not replay to its score")
    return result


# -- check -------------------------------------------------------------------------------------
def _check_command(game: Game[Any, Any]) -> click.Command:
    @click.command("check")
    @click.argument("board", metavar="BOARD")
    @click.argument("solution", metavar="SOLUTION")
    @json_option
    def check(board: str, solution: str, as_json: bool) -> None:
        """Replay SOLUTION on BOARD under the rules: legal? score? objective met?

        SOLUTION is written in the game's notation (quote it for the shell), or
        is a file of `solve --json` lines: then BOARD may be '-' to use the
        boards stored in the results, and each result's claimed score is checked.
        Exit code 0 when the solution is legal and meets the objective (and its
        claimed score), 1 when it is legal but does not, 2 when it breaks the rules.
        """
        records = _result_records(solution)
        if records is None:
            text = game.texts([board])[0]
            ok = _print_check(game, text.label, game.parse(text), game.parse_solution(solution), {}, None,
                              as_json)
            raise SystemExit(EXIT_OK if ok else EXIT_NOT_SOLVED)
        given = [] if board == "-" else game.texts([board])
        failed = 0
        for k, record in enumerate(records):
            if record.game != game.name:
                raise InputError(f"{solution}: result {k + 1} is a {record.game} result, not {game.name}")
            if board == "-":
                if record.board is None:
                    raise InputError(f"{solution}: result {k + 1} holds no board; name the board file")
                parsed = game.parse(split_boards(record.board, record.input, game.comment)[0])
            else:
                parsed = game.parse(given[min(k, len(given) - 1)])
            if record.solution is None:
                raise InputError(f"{solution}: result {k + 1} ({record.input}) has no solution to check")
            failed += not _print_check(game, record.input, parsed, record.solution, record.options, record,
                                       as_json)
        raise SystemExit(EXIT_NOT_SOLVED if failed else EXIT_OK)

    return check


def _result_records(argument: str) -> list[Result] | None:
    """The results in a file of JSON lines, or None when ``argument`` is not such a file."""
    import os

    if not os.path.isfile(argument):
        return None
    text, source = read_source(argument)
    stripped = text.lstrip()
    if not stripped.startswith("{"):
        return None
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(Result.from_json(line))
        except InputError as exc:
            raise InputError(f"{source}, line {number}: {exc}") from None
    return records


def _print_check(game: Game[Any, Any], label: str, board: Any, solution: Any, options: dict[str, Any],
                 claimed: Result | None, as_json: bool) -> bool:
    """Replay one solution and print what it gives; whether it meets the objective (and the claimed score)."""
    replayed = game.check(board, solution, **options)
    matches = None if claimed is None else (claimed.score == replayed.score)
    score_name = game.score_name if claimed is None else claimed.score_name
    if as_json:
        click.echo(json.dumps({"schema": SCHEMA_VERSION, "game": game.name, "input": label, "legal": True,
                               "score": replayed.score, "score_name": score_name,
                               "complete": replayed.complete, "steps": replayed.steps,
                               "claimed_score": None if claimed is None else claimed.score,
                               "score_matches": matches}, separators=(",", ":")))
    else:
        line = (f"{label}: legal, {plural(replayed.steps, 'step')}, {score_name} {replayed.score}, "
                f"objective {'met' if replayed.complete else 'not met'}")
        if claimed is not None:
            line += (", matches the claimed score" if matches
                     else f", but the result claims {claimed.score}")
        click.echo(line)
    return replayed.complete and matches is not False


# -- boards and format -------------------------------------------------------------------------
def _boards_command(game: Game[Any, Any]) -> click.Command:
    @click.command("boards")
    @json_option
    def boards(as_json: bool) -> None:
        """List the boards and sets shipped with gridsolver."""
        print_boards([game], as_json)

    return boards


def print_boards(games: Sequence[Game[Any, Any]], as_json: bool) -> None:
    for game in games:
        for named in game.named_boards():
            if as_json:
                click.echo(json.dumps({"game": game.name, "name": named.name, "boards": named.count,
                                       "description": named.description}, separators=(",", ":")))
            else:
                count = plural(named.count, "board")
                click.echo(f"{game.name:<12} {named.name:<24} {count:>11}  {named.description}")


def _format_command(game: Game[Any, Any]) -> click.Command:
    @click.command("format")
    @click.argument("boards", nargs=-1, required=True, metavar="BOARD...")
    def format_(boards: tuple[str, ...]) -> None:
        """Print each BOARD as gridsolver writes it (reading it back gives the same board)."""
        parsed = [game.parse(text) for text in game.texts(boards)]
        click.echo("\n\n".join(game.format(b) for b in parsed))

    return format_


# -- show --------------------------------------------------------------------------------------
def _show_command(game: Game[Any, Any], solve_options: Sequence[Decorator],
                  show_options: Sequence[Decorator]) -> click.Command:
    option_names: list[str] = []
    view_names: list[str] = []

    def show(**values: Any) -> None:
        options = {name: values.pop(name) for name in option_names}
        options = {k: v for k, v in options.items() if v is not None and v is not False}
        view = {name: values.pop(name) for name in view_names}
        run_show(game, values, options, {k: v for k, v in view.items() if v is not None})

    command = show
    for names, decorators in ((option_names, solve_options), (view_names, show_options)):
        for option in reversed(list(decorators)):
            before = set(_param_names(command))
            command = option(command)
            names.extend(set(_param_names(command)) - before)
    command = json_option(command)
    command = click.option("--index", type=click.IntRange(min=1), default=1, show_default=True,
                           help="Which result of a file of several (1 = the first).")(command)
    command = click.option("--frames", metavar="FROM:TO",
                           help="Print only frames FROM to TO of --steps (0 = the start; either may be "
                                "left out: 3:7, :10, 5:; implies --steps).")(command)
    command = click.option("--steps", is_flag=True,
                           help="Print the replay frame by frame (colours unless piped).")(command)
    command = click.option("--frame", default="end", show_default=True, metavar="start|end|N",
                           help="The step --svg draws: start, end or a step number.")(command)
    command = click.option("--svg", "svg_path", metavar="FILE",
                           help="Write one step (--frame) as an SVG picture.")(command)
    command = click.option("-o", "--output", metavar="FILE",
                           help="Write the HTML replay here (default: GAME-LABEL.html; "
                                "written unless only --svg or --steps is asked for).")(command)
    command = click.argument("solution", required=False, metavar="[SOLUTION]")(command)
    command = click.argument("source", metavar="INPUT")(command)
    doc = ("Replay a solution step by step: an HTML page (one self-contained file that opens offline), "
           "an SVG picture of one step, or frames in the terminal.\n\n"
           f"INPUT is a file of `gridsolver {game.name} solve --json` lines (--index picks one), or a "
           "board (a file, '-' or a shipped name) followed by SOLUTION in the game's notation. "
           "A solution that breaks the rules is refused with its first illegal step named.")
    return click.command("show", help=doc)(command)


def run_show(game: Game[Any, Any], values: dict[str, Any], options: dict[str, Any],
             view: dict[str, Any] | None = None) -> None:
    """Build the film of one solution and write the views asked for."""
    import re

    from gridsolver.core.film import parse_frame_range, svg
    from gridsolver.core.page import MAX_PAGE_BYTES, page_html

    frames = values.get("frames")
    if frames is not None:
        parse_frame_range(frames)  # a malformed range is refused before the replay is built
        values["steps"] = True
    label, board, solution, options = _show_input(game, values["source"], values["solution"],
                                                  values["index"], options)
    film = game.film(board, solution, game.check_options(board, options), **(view or {}))
    film.title = f"{film.title} ({label})"  # e.g. "pegs: 31 jumps, 1 peg left (english)"
    written: dict[str, Any] = {"schema": SCHEMA_VERSION, "game": game.name, "input": label,
                               "steps": film.steps}
    if values["steps"]:
        first, last = film.frame_range(frames) if frames is not None else (0, film.steps)
        _print_steps(film, first, last)
    if values["svg_path"]:
        k = film.frame(values["frame"])
        _write_text(values["svg_path"], svg(film, k))
        written["svg"] = values["svg_path"]
        written["frame"] = k
    if values["output"] or not (values["svg_path"] or values["steps"]):
        path = values["output"] or f"{game.name}-{re.sub(r'[^A-Za-z0-9._-]+', '-', label).strip('-')}.html"
        page = page_html(film)
        _write_text(path, page)
        size = len(page.encode("utf-8"))
        written["html"] = path
        written["bytes"] = size
        if size > MAX_PAGE_BYTES:
            click.echo(f"gridsolver: warning: {path} is {size / 2**20:.1f} MB, over the "
                       f"{MAX_PAGE_BYTES / 2**20:.0f} MB a page should stay under", err=True)
    if values["as_json"]:
        click.echo(json.dumps(written, separators=(",", ":")))
    elif not values["steps"] or sys.stdout.isatty():
        for kind in ("html", "svg"):
            if kind in written:
                extra = (f", {written['bytes'] / 1024:,.0f} KB" if kind == "html"
                         else f", step {written['frame']}")
                click.echo(f"wrote {written[kind]} ({plural(film.steps, 'step')}{extra})",
                           err=values["steps"])


def _show_input(game: Game[Any, Any], source: str, solution: str | None, index: int,
                options: dict[str, Any]) -> tuple[str, Any, Any, dict[str, Any]]:
    """(label, board, solution, options) from a results file or a board plus a solution."""
    records = _result_records(source) if solution is None else None
    if records is not None:
        if not records:
            raise InputError(f"{source}: no result in the file")
        if index > len(records):
            raise InputError(f"--index {index}: {source} holds {plural(len(records), 'result')}")
        record = records[index - 1]
        if record.game != game.name:
            raise InputError(f"{source}: result {index} is a {record.game} result, not {game.name} "
                             f"(try gridsolver {record.game} show)")
        if record.board is None:
            raise InputError(f"{source}: result {index} holds no board")
        board = game.parse(split_boards(record.board, record.input, game.comment)[0])
        return record.input, board, record.solution, {**record.options, **options}
    texts = game.texts([source])
    if index > len(texts):
        raise InputError(f"--index {index}: {source} holds {plural(len(texts), 'board')}")
    text = texts[index - 1]
    parsed = None if solution is None else game.parse_solution(solution)
    return text.label, game.parse(text), parsed, options


def _write_text(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror})") from None


def _print_steps(film: Any, first: int, last: int) -> None:
    """Frames ``first`` to ``last`` in the terminal, after the legend when the film has one."""
    from gridsolver.core.film import terminal_frames, terminal_legend
    from gridsolver.core.terminal import colour_wanted, console

    colour = colour_wanted()
    legend = [terminal_legend(film, colour)] if film.mark_legend else []
    texts = itertools.chain(legend, terminal_frames(film, colour, first, last))  # printed as they come
    if colour:
        printer = console(True)
        for text in texts:
            printer.print(text)
    else:
        for text in texts:
            click.echo(text)
