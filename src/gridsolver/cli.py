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
from gridsolver.core.cliutil import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, UserError, json_option
from gridsolver.core.errors import InputError
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
            raise UserError(str(exc)) from None


_debug = False  # --debug: show the traceback of an internal error


def _set_debug(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    global _debug
    _debug = _debug or value


@click.group(cls=GameGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gridsolver")
@click.option("--debug", is_flag=True, expose_value=False, is_eager=True, callback=_set_debug,
              help="On an internal error, show the Python traceback.")
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


def main(argv: list[str] | None = None) -> None:
    """Console entry point: every way out is one clear line and a documented exit code."""
    try:
        code = cli.main(args=argv, prog_name="gridsolver", standalone_mode=False)
    except click.exceptions.Exit as exc:
        code = exc.exit_code
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
    except BrokenPipeError:  # e.g. piped into `head`: the reader has all it wanted
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
    sys.exit(code if isinstance(code, int) else 0)


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
