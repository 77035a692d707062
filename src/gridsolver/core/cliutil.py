"""Command-line building blocks shared by every game.

The options every command spells the same way (``--time``, ``--memory``,
``--nodes``, ``--json``, ``--seed``, ``--workers``, ``--cluster``), the exit
codes, and the error type
that becomes a one-line message with exit code 2.

Game CLI modules import this (click, no numba) at start-up, so keep it light.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from gridsolver.core.budget import AUTO, DEFAULT_TIME_S

F = TypeVar("F", bound=Callable[..., Any])

EXIT_OK = 0
EXIT_NOT_SOLVED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3  # a bug: the last-resort guard in gridsolver.cli.main caught an unexpected exception
EXIT_CLUSTER_LOST = 4  # the Dask scheduler went away mid-run: what finished was printed
EXIT_INTERRUPTED = 130


class UserError(click.ClickException):
    """A user's mistake, shown as ``gridsolver: error: ...`` with exit code 2."""

    exit_code = EXIT_BAD_INPUT

    def show(self, file: Any = None) -> None:
        click.echo(f"gridsolver: error: {self.format_message()}", err=True)


def budget_options(default_time: float | None = DEFAULT_TIME_S,
                   default_memory: float | str | None = AUTO) -> Callable[[F], F]:
    """Add ``--time``, ``--memory`` and ``--nodes``; the command gets ``budget: Budget``.

    The budget is per board: :meth:`gridsolver.core.game.Game.solve` makes a fresh one for each.
    """

    def decorate(fn: F) -> F:
        fn = click.option("--nodes", type=int, default=None, metavar="N",
                          help="Stop after N search nodes per board.")(fn)
        auto = default_memory == AUTO
        fn = click.option("--memory", "memory_mb", type=float, default=None if auto else default_memory,
                          show_default=not auto, metavar="MB",
                          help="Memory budget per board in MB (tables grow up to it)"
                               + ("; default: half the memory available at the start." if auto else "."))(fn)
        fn = click.option("--time", "time_s", type=float, default=default_time,
                          show_default=True, metavar="S",
                          help="Time budget per board in seconds.")(fn)
        return fn

    return decorate


def _note_json(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    from gridsolver.core.progress import set_json_output

    set_json_output(value)  # every command that takes --json says so, either way
    return value


json_option = click.option("--json", "as_json", is_flag=True, callback=_note_json,
                           help="Machine-readable output: one JSON object per line.")

#: What --seed repeats, said the same way on every command that takes it.
SEED_HELP = ("Seed for every random choice. The same seed makes the same boards and games; a search "
             "under a node budget (--nodes) repeats exactly, one under a time budget (--time) does not "
             "(it stops wherever the clock finds it, and with several workers their timing differs).")

#: Seeds are whole numbers from 0 to 2^64 - 1 everywhere (core.game.check_seed says the same).
seed_option = click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
                           help=SEED_HELP)


def live_options(fn: F) -> F:
    """Add ``--progress``, ``--quiet`` (the command gets ``status``) and ``--events FILE``."""
    fn = click.option("--events", default=None, metavar="FILE",
                      help="Write each search event (start, improved, bound, end) as a JSON line to FILE "
                           "('-': standard error).")(fn)
    return status_options(fn)


def status_options(fn: F) -> F:
    """Add ``--progress`` and ``--quiet``: the command gets ``status`` (``auto``, ``always``, ``never``)."""
    fn = click.option("--quiet", "status", flag_value="never",
                      help="No status line, even on a terminal.")(fn)
    fn = click.option("--progress", "status", flag_value="always",
                      help="A status line even when standard error is not a terminal (a plain line a "
                           "second).")(fn)
    return click.option("--status", "status", hidden=True, default="auto",
                        type=click.Choice(["auto", "always", "never"]))(fn)


resume_option = click.option(
    "--resume", metavar="FILE", default=None,
    help="Write each result to FILE (JSON lines) as soon as it is finished; results FILE already holds "
         "from the same command are taken as done, so a stopped run goes on where it stopped.")


def workers_options(fn: F | None = None, *,
                    workers_help: str = "Local worker processes (default: all cores).",
                    cluster_help: str = "Run on a Dask cluster instead of local processes.") -> Any:
    """Add ``--workers N`` and ``--cluster tcp://HOST:PORT`` (``@workers_options``, or with the help
    texts of a command whose workers mean something else: ``@workers_options(workers_help=...)``)."""

    def add(fn: F) -> F:
        fn = click.option("--cluster", default=None, metavar="tcp://HOST:PORT", help=cluster_help)(fn)
        return click.option("--workers", type=int, default=None, metavar="N", help=workers_help)(fn)

    return add if fn is None else add(fn)
