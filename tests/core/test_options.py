"""Options declared once: the checks, the command line, the signature and the text made from them."""

import inspect

import click
import pytest
from click.testing import CliRunner

from gridsolver.core.errors import InputError
from gridsolver.core.options import (
    Option,
    check_declared,
    click_option,
    describe,
    from_command_line,
    solve_signature,
)

DECLARED = (
    Option("method", str, "nrpa", "How to search.", choices=("nrpa", "beam")),
    Option("penalty", bool, False, "Subtract an end penalty."),
    Option("limit", int, None, "How many at most.", metavar="N"),
    Option("finish", tuple, None, "The finish hole.", metavar="ROW,COL",
           parse=lambda text: tuple(int(part) for part in text.split(","))),
    Option("move_limit", float, None, "Seconds a call may take.", metavar="S"),
)


@pytest.mark.parametrize(("options", "message"), [
    ({"colour": 3}, r"toy: unknown option\(s\) colour \(known: method, penalty, limit, finish, move_limit\)"),
    ({"method": "dfs"}, r"--method 'dfs': expected one of nrpa, beam"),
    ({"penalty": 1}, r"--penalty 1: expected True or False"),
    ({"limit": 2.5}, r"--limit 2.5: expected a whole number"),
    ({"limit": True}, r"--limit True: expected a whole number"),
    ({"move_limit": "slow"}, r"--move-limit 'slow': expected a number"),
])
def test_declared_checks_name_the_option_and_the_value(options, message):
    with pytest.raises(InputError, match=message):
        check_declared("toy", DECLARED, options)


def test_values_of_the_right_kind_and_none_pass():
    check_declared("toy", DECLARED, {"method": "beam", "penalty": True, "limit": 3, "finish": (3, 3),
                                     "move_limit": 2})
    check_declared("toy", DECLARED, {"method": None, "limit": None})


def test_the_command_line_is_made_from_the_declaration():
    seen = {}

    @click.command()
    def solve(**values):
        seen.update(from_command_line(DECLARED, values))

    for option in reversed(DECLARED):
        solve = click_option(option)(solve)
    runner = CliRunner()
    done = runner.invoke(solve, ["--method", "beam", "--penalty", "--limit", "4", "--finish", "2,3",
                                 "--move-limit", "0.5"])
    assert done.exit_code == 0, done.output
    assert seen == {"method": "beam", "penalty": True, "limit": 4, "finish": (2, 3), "move_limit": 0.5}
    seen.clear()
    assert runner.invoke(solve, []).exit_code == 0
    assert seen == {}  # nothing given: the game's defaults apply
    refused = runner.invoke(solve, ["--method", "dfs"])
    assert refused.exit_code == 2 and "'dfs' is not one of 'nrpa', 'beam'" in refused.output
    help_text = runner.invoke(solve, ["--help"]).output
    assert "--move-limit S" in help_text and "Seconds a call may take." in help_text


def test_the_signature_names_every_option_with_its_default():
    def solve(board, *, time=None, seed=0, **options):
        pass

    signature = solve_signature(solve, DECLARED)
    parameters = signature.parameters
    assert list(parameters) == ["board", "time", "seed", "method", "penalty", "limit", "finish", "move_limit"]
    assert parameters["method"].default == "nrpa"
    assert parameters["method"].kind is inspect.Parameter.KEYWORD_ONLY
    assert parameters["method"].annotation == "Literal['nrpa', 'beam']"
    assert parameters["limit"].annotation == "int | None"
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())


def test_the_reference_text_lists_each_option():
    text = describe(DECLARED)
    assert text.splitlines()[0] == ("- ``method`` (``Literal['nrpa', 'beam']``, default ``'nrpa'``; "
                                    "command line --method): How to search.")
    assert len(text.splitlines()) == len(DECLARED)
    assert describe(()) == "This game has no options of its own."


GAME_OPTIONS = {"bunny": ["all", "limit"], "pegs": ["finish", "objective", "strategy", "jumps"],
                "clickomania": [], "samegame": ["penalty", "method"],
                "ratrace": ["player", "turns", "move_limit", "game_limit", "in_process"]}


@pytest.mark.parametrize("name", sorted(GAME_OPTIONS))
def test_each_game_s_solve_names_its_options(name):
    import importlib

    module = importlib.import_module(f"gridsolver.{name}")
    parameters = inspect.signature(module.solve).parameters
    shared = ["board", "time", "memory", "nodes", "seed", "workers", "cluster", "progress", "label",
              "on_event"]
    assert list(parameters) == shared + GAME_OPTIONS[name]
    assert all(option.name in (module.solve.__doc__ or "") for option in module.GAME.options)


def test_an_unknown_option_is_refused_before_any_search():
    from gridsolver import samegame

    with pytest.raises(InputError, match=r"samegame: unknown option\(s\) colours \(known: penalty, method\)"):
        samegame.solve(samegame.named("standard-20#1"), nodes=10, colours=3)


def test_declared_bounds_are_checked_on_the_command_line_and_in_the_api():
    declared = (Option("turns", int, None, "Turns.", low=0, high=1000),
                Option("limit_s", float, None, "Seconds.", high=60.0))
    with pytest.raises(InputError, match=r"--turns 1001: expected a whole number from 0 to 1,000"):
        check_declared("toy", declared, {"turns": 1001})
    with pytest.raises(InputError, match=r"--turns -1: expected a whole number from 0 to 1,000"):
        check_declared("toy", declared, {"turns": -1})
    with pytest.raises(InputError, match=r"--limit-s 61.0: expected a number of at most 60.0"):
        check_declared("toy", declared, {"limit_s": 61.0})
    check_declared("toy", declared, {"turns": 1000, "limit_s": 60})

    @click.command()
    @click_option(declared[0])
    @click_option(declared[1])
    def command(turns, limit_s):
        click.echo(f"{turns} {limit_s}")

    huge = CliRunner().invoke(command, ["--turns", "99999999999999999999"])
    assert huge.exit_code == 2 and "Invalid value for '--turns'" in huge.output
    assert CliRunner().invoke(command, ["--limit-s", "1e30"]).exit_code == 2
    assert CliRunner().invoke(command, ["--turns", "7"]).output == "7 None\n"
