"""The ``gridsolver`` command: ``gridsolver GAME COMMAND ...``.

Each game's commands live in ``gridsolver.<game>.cli`` and are imported only
when that game is used or help is listed, so start-up stays fast. Those
modules must not import numba at module level.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from gridsolver import __version__
from gridsolver.core.cliutil import (
    EXIT_BAD_INPUT,
    EXIT_CLUSTER_LOST,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    UserError,
    json_option,
)
from gridsolver.core.errors import ClusterLost, InputError
from gridsolver.games import GAMES, cli_group


class GameGroup(click.Group):
    """The top-level group: imports game groups lazily and turns input errors into exit 2."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(GAMES) + super().list_commands(ctx)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in GAMES:
            return super().get_command(ctx, name)
        group: click.Command = cli_group(name)
        return group

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help text straight from the table: listing games imports none of them.
        with formatter.section("Games"):
            formatter.write_dl(list(GAMES.items()))
        others = [(name, self.commands[name].get_short_help_str(60)) for name in sorted(self.commands)]
        if others:
            with formatter.section("Commands"):
                formatter.write_dl(others)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as exc:
            trace = getattr(exc, "trace", "")  # a player of the user's that raised: its own traceback
            if trace and (_debug or os.environ.get("GRIDSOLVER_DEBUG")):
                click.echo(trace.rstrip("\n"), err=True)
            raise UserError(str(exc)) from None
        except BrokenPipeError:  # click would turn it into exit 1: main ends quietly instead
            raise _OutputGone from None


class _OutputGone(Exception):
    """The reader of stdout went away (e.g. ``| head``): nothing more to say to anyone."""


_debug = False  # --debug: show the traceback of an internal error


def _set_debug(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    global _debug
    _debug = _debug or value


@click.group(cls=GameGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gridsolver")
@click.option("--debug", is_flag=True, expose_value=False, is_eager=True, callback=_set_debug,
              help="On an internal error, show the Python traceback; when a player file of yours "
                   "raises, show its traceback.")
def cli() -> None:
    """Find provably best or best-known solutions to grid puzzle games.

    Every search honours --time and --memory budgets and says whether its
    answer is proved optimal or only the best found. Use --json for
    machine-readable output and --help on any command.
    """


@cli.command("boards")
@click.argument("games", nargs=-1, metavar="[GAME]...")
@json_option
def boards(games: tuple[str, ...], as_json: bool) -> None:
    """List the boards and sets shipped with gridsolver (of every game, or of GAME)."""
    from gridsolver.core.commands import print_boards
    from gridsolver.games import game

    print_boards([game(name) for name in (games or tuple(GAMES))], as_json)


@cli.command("warmup")
@click.argument("games", nargs=-1, metavar="[GAME]...")
def warmup(games: tuple[str, ...]) -> None:
    """Compile the kernels of GAME (default: every game) into numba's cache, once after installing.

    Later commands then load them in a moment instead of compiling them on
    their first run (which never counts against --time, but makes the user wait).
    """
    from gridsolver.core.warm import Warmup, warm_games
    from gridsolver.games import game

    def report(name: str, warmed: Warmup | None) -> None:
        if warmed is None:
            click.echo(f"{name}: nothing to compile ahead")
        elif warmed.compiled:
            click.echo(f"{name}: {warmed.compiled} kernels compiled in {warmed.seconds:.1f} s "
                       "(later runs load them from the cache)")
        else:
            click.echo(f"{name}: kernels ready, loaded from the cache in {warmed.seconds:.1f} s")

    warm_games([game(name) for name in dict.fromkeys(games or tuple(GAMES))], report)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: every way out is one clear line and a documented exit code."""
    if sys.stdout is None:  # started with stdout closed (`>&-`): nowhere to write any answer
        click.echo("gridsolver: error: cannot write the output: standard output is closed", err=True)
        sys.exit(EXIT_BAD_INPUT)
    try:
        code = cli.main(args=argv, prog_name="gridsolver", standalone_mode=False)
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except SystemExit as exc:  # a command's own exit code (solve: 0, 1 or 130)
        code = exc.code
        if isinstance(code, str):  # sys.exit("message"), as Python would: the message, exit 1
            click.echo(code, err=True)
            code = 1
    except click.exceptions.NoArgsIsHelpError as exc:  # `gridsolver` alone: the help, not an error
        click.echo(exc.ctx.get_help() if exc.ctx is not None else exc.format_message())
        code = 0
    except click.UsageError as exc:  # one line, like every other bad input
        where = f" (see {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
        click.echo(f"gridsolver: error: {exc.format_message()}{where}", err=True)
        code = EXIT_BAD_INPUT
    except click.ClickException as exc:
        exc.show()
        code = exc.exit_code
    except (click.Abort, KeyboardInterrupt):
        click.echo("gridsolver: interrupted", err=True)
        code = EXIT_INTERRUPTED
    except ClusterLost as exc:  # the results finished before were printed as they came
        click.echo(f"gridsolver: error: {exc}; the results printed stand (--resume FILE goes on from "
                   "them)", err=True)
        code = EXIT_CLUSTER_LOST
    except (BrokenPipeError, _OutputGone):  # e.g. piped into `head`: the reader has all it wanted
        _silence_stdout()
        code = 0
    except OSError as exc:
        if not _is_output_error(exc):
            code = _internal_error(exc)
        else:
            _silence_stdout()
            click.echo(f"gridsolver: error: cannot write the output: {exc.strerror}", err=True)
            code = EXIT_BAD_INPUT
    except Exception as exc:  # the last resort: a bug, never an answer
        code = _internal_error(exc)
    try:
        sys.stdout.flush()
    except (BrokenPipeError, OSError):
        _silence_stdout()
    _stop_workers()
    import gc

    gc.freeze()  # exiting: the interpreter's last collections over numba's objects took 0.3-0.5 s
    sys.exit(code if isinstance(code, int) else 0)


def _stop_workers() -> None:
    """End any worker processes now rather than in Python's slower exit handlers."""
    parallel = sys.modules.get("gridsolver.core.parallel")  # imported only if workers were used
    if parallel is not None:
        try:
            parallel.stop_workers()
        except Exception:  # noqa: BLE001 - exiting anyway; the exit handlers will try again
            pass


def _is_output_error(exc: OSError) -> bool:
    import errno

    return exc.errno in (errno.ENOSPC, errno.EPIPE, errno.EBADF, errno.EIO)


def _internal_error(exc: BaseException) -> int:
    if _debug or os.environ.get("GRIDSOLVER_DEBUG"):
        import traceback

        traceback.print_exception(exc)
    message = str(exc).splitlines()[0][:200] if str(exc) else ""
    click.echo(f"gridsolver: internal error: {type(exc).__name__}{': ' + message if message else ''} "
               "(a bug in gridsolver: please report it with the command that caused it; "
               "--debug shows the traceback)", err=True)
    return EXIT_INTERNAL


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's own flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
