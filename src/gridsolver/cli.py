"""The ``gridsolver`` command: ``gridsolver GAME COMMAND ...``.

Each game's commands live in ``gridsolver.<game>.cli`` and are imported only
when that game is used or help is listed, so start-up stays fast. Those
modules must not import numba at module level.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from gridsolver import __version__
from gridsolver.core.cliutil import UserError, json_option
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


@click.group(cls=GameGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gridsolver")
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
    """Console entry point."""
    try:
        code = cli.main(args=argv, prog_name="gridsolver", standalone_mode=False)
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except click.ClickException as exc:
        exc.show()
        code = exc.exit_code
    except click.Abort:
        click.echo("gridsolver: interrupted", err=True)
        code = 130
    except KeyboardInterrupt:
        click.echo("gridsolver: interrupted", err=True)
        code = 130
    except BrokenPipeError:
        code = 0
    sys.exit(code if isinstance(code, int) else 0)
