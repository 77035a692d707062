import subprocess
import sys

from click.testing import CliRunner

from gridsolver import __version__
from gridsolver.cli import cli


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridsolver", *args], capture_output=True,
                          text=True, timeout=120)


def test_help_lists_the_game_groups():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for game in ("bunny", "pegs", "clickomania", "samegame", "ratrace"):
        assert f"  {game} " in result.output


def test_version():
    result = CliRunner().invoke(cli, ["--version"])
    assert __version__ in result.output


def test_help_does_not_import_numba():
    code = ("import sys; from gridsolver.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "for g in ('bunny', 'pegs', 'clickomania', 'samegame', 'ratrace'):\n"
            "    try:\n        main([g, '--help'])\n    except SystemExit:\n        pass\n"
            "assert 'numba' not in sys.modules, 'numba imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_unknown_command_exits_2():
    assert run("nonsense").returncode == 2


def test_input_error_becomes_one_line_and_exit_2(tmp_path):
    """Any InputError raised inside a game command: one line on stderr, exit 2."""
    import click

    from gridsolver.cli import GameGroup
    from gridsolver.core.boards import load_boards, parse_grid

    @click.group(cls=GameGroup)
    def top():
        pass

    @top.command()
    @click.argument("path")
    def read(path):
        for board in load_boards([path]):
            parse_grid(board, {"0": 0, "1": 1})

    bad = tmp_path / "bad.txt"
    bad.write_text("01\n0z\n")
    result = CliRunner().invoke(top, ["read", str(bad)])
    assert result.exit_code == 2
    assert result.output.strip() == (f"gridsolver: error: {bad}, row 1, column 1 (line 2): "
                                     "unexpected character 'z' (allowed: '0', '1')")


def test_an_unexpected_exception_is_one_line_and_exit_3(monkeypatch, capsys):
    """The last-resort guard: a bug becomes a short message and exit 3; --debug adds the traceback."""
    import pytest

    from gridsolver import cli as top
    from gridsolver.core import commands

    def broken(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(commands, "print_boards", broken)
    monkeypatch.setattr(top, "_debug", False)
    monkeypatch.delenv("GRIDSOLVER_DEBUG", raising=False)
    with pytest.raises(SystemExit) as stop:
        top.main(["boards"])
    err = capsys.readouterr().err
    assert stop.value.code == 3 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("gridsolver: internal error: RuntimeError: boom (a bug in gridsolver")
    with pytest.raises(SystemExit) as stop:
        top.main(["--debug", "boards"])
    assert stop.value.code == 3 and "Traceback" in capsys.readouterr().err


def test_full_disk_and_closed_pipe_on_stdout():
    import subprocess
    import sys

    def shell(command):
        return subprocess.run(f"{sys.executable} -m gridsolver {command}", shell=True, capture_output=True,
                              text=True, timeout=60, executable="/bin/bash")

    full = shell("boards > /dev/full")
    assert full.returncode == 2
    assert full.stderr == "gridsolver: error: cannot write the output: No space left on device\n"
    # 100 tracks of text (117 KB): more than a pipe holds, so the writer meets the closed pipe
    piped = shell("ratrace format tournament tournament | head -1; exit ${PIPESTATUS[0]}")
    assert piped.returncode == 0 and piped.stderr == "" and piped.stdout.count("\n") == 1


def test_usage_errors_and_limits_are_one_line_and_exit_2():
    import subprocess
    import sys

    cases = {
        ("pegs", "solve", "triangle", "--nodes", "1e30"): "'1e30' is not a valid integer",
        ("pegs", "solve", "triangle", "--bogus"): "No such option '--bogus'",
        ("nogame",): "No such command 'nogame'",
        ("pegs", "solve", "triangle", "--memory", "1e9"): "more than this machine's",
        ("pegs", "solve", "triangle", "--time", "1e12"): "more than the 1e+06 s",
        ("pegs", "solve", "triangle", "--nodes", str(2**63)): "expected a whole number from 1 to 2^62",
    }
    for args, message in cases.items():
        done = subprocess.run([sys.executable, "-m", "gridsolver", *args], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, (args, done.stderr)
        assert done.stderr.startswith("gridsolver: error: ") and message in done.stderr, (args, done.stderr)


def test_ctrl_c_while_the_command_loads_exits_130_with_one_line(monkeypatch, capsys):
    import types

    import pytest

    from gridsolver import launch

    class Loading(types.ModuleType):  # Ctrl-C arrives while `gridsolver.cli` is being imported
        def __getattr__(self, name: str) -> object:
            raise KeyboardInterrupt

    monkeypatch.setitem(sys.modules, "gridsolver.cli", Loading("gridsolver.cli"))
    with pytest.raises(SystemExit) as stopped:
        launch.main()
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "gridsolver: interrupted\n"


def test_every_seed_option_says_what_repeats_under_a_time_budget():
    """Node budgets repeat exactly; time budgets do not: every command with --seed says so."""
    from gridsolver.games import GAMES, cli_group

    seen = 0
    for game in GAMES:
        for name, command in cli_group(game).commands.items():
            for param in command.params:
                if param.name == "seed":
                    seen += 1
                    text = " ".join(param.help.split())
                    assert "node budget (--nodes) repeats exactly" in text, (game, name)
                    assert "time budget (--time) does not" in text, (game, name)
    assert seen >= 10


def test_a_huge_or_negative_number_is_exit_2_naming_the_option():
    for args, option in [
        (["ratrace", "play", "--player", "forward", "--turns", "99999999999"], "--turns"),
        (["bunny", "solve", "01", "--time", "-5"], "--time"),
        (["pegs", "solve", "english", "--nodes", "99999999999999999999999"], "--nodes"),
        (["clickomania", "generate", "--random", "3x3x2", "--count", "-5"], "--count"),
    ]:
        done = run(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.startswith("gridsolver: error: ") and option in done.stderr, done.stderr
        assert len(done.stderr.splitlines()) == 1
