"""The ``gridsolver`` command: ``gridsolver GAME COMMAND ...``.

Each game's commands live in ``gridsolver.<game>.cli`` and are imported only
when that game is used or help is listed, so start-up stays fast. Those
modules must not import numba at module level.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from gridsolver import __version__
from gridsolver.core.cliutil import UserError
from gridsolver.core.errors import InputError

# name -> (module holding a click group called ``group``, one-line help)
GAME_GROUPS: dict[str, tuple[str, str]] = {
    "bunny": ("gridsolver.bunny.cli", "Hopping Bunny: shortest tile programs that mark every square."),
    "pegs": ("gridsolver.pegs.cli", "Peg solitaire: classic boards and comesolo squares."),
    "clickomania": ("gridsolver.clickomania.cli", "Clickomania: clear the board or prove it cannot be."),
    "samegame": ("gridsolver.clickomania.samegame_cli", "SameGame: maximise the score."),
    "ratrace": ("gridsolver.ratrace.cli", "The Genetic Rat Race: controller, players, tournaments."),
}


class GameGroup(click.Group):
    """The top-level group: imports game groups lazily and turns input errors into exit 2."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(GAME_GROUPS) + super().list_commands(ctx)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in GAME_GROUPS:
            return super().get_command(ctx, name)
        module = importlib.import_module(GAME_GROUPS[name][0])
        return module.group

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help text straight from the table: listing games imports none of them.
        with formatter.section("Games"):
            formatter.write_dl([(name, help_) for name, (_, help_) in GAME_GROUPS.items()])
        super().format_commands(ctx, formatter)

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
