"""The ratrace commands: output forms, seeds and bad input."""

import json

from click.testing import CliRunner

from gridsolver.cli import cli
from gridsolver.ratrace.generate import generate_track
from gridsolver.ratrace.track import track_to_json


def invoke(*args):
    return CliRunner().invoke(cli, ["ratrace", *args])


def test_track_json_is_the_generated_track():
    result = invoke("track", "--seed", "7", "--json")
    assert result.exit_code == 0
    assert json.loads(result.output) == json.loads(json.dumps(track_to_json(generate_track(7))))


def test_track_text_names_the_start_cells():
    result = invoke("track", "--seed", "7")
    expected = " ".join(map(str, generate_track(7).start_cells))
    assert f"start cells (y at x = 0): {expected}" in result.output


def test_play_track_i_uses_seed_s_plus_i_minus_1():
    result = invoke("play", "--player", "forward", "--tracks", "3", "--seed", "7", "--turns", "5",
                    "--workers", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["track 1 (seed 7)", "track 2 (seed 8)",
                                                          "track 3 (seed 9)"]
    assert "geometric mean 1.000 over 3 tracks" in result.output


def test_bad_numbers_are_one_line_errors():
    for args, message in [(["--tracks", "0"], "--tracks must be at least 1"),
                          (["--workers", "0"], "--workers 0: expected a whole number of at least 1")]:
        result = invoke("play", "--player", "forward", *args)
        assert result.exit_code == 2
        assert result.output.startswith("gridsolver: error: ") and message in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_command_help_does_not_import_numba():
    import subprocess
    import sys

    code = ("import sys\nfrom gridsolver.cli import main\n"
            "for args in (['ratrace', 'play', '--help'], ['ratrace', 'track', '--help']):\n"
            "    try:\n        main(args)\n    except SystemExit:\n        pass\n"
            "assert 'numba' not in sys.modules, 'numba imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "--player" in done.stdout and "start_cells" in done.stdout


def test_players_lists_every_built_in_player_one_line_each():
    from gridsolver.ratrace.players import available_players

    result = invoke("players")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == list(available_players())
    assert all(len(line.split(None, 1)) == 2 for line in lines)  # a name, then what it plays
    as_json = [json.loads(line) for line in invoke("players", "--json").output.splitlines()]
    assert as_json[0] == {"name": "forward", "description": available_players()["forward"]}


def test_numeric_options_past_their_range_are_exit_2_naming_the_option():
    """A huge --turns is the user's input (exit 2 naming the option), never blamed on the player."""
    show_args = ["show", "seed/1", '{"game_seed": 1, "turns": 5}', "--player", "forward", "--steps"]
    for args, option in [
        (["play", "--player", "forward", "--tracks", "1", "--turns", "99999999999"], "--turns"),
        (["play", "--player", "forward", "--tracks", "1", "--turns", "-1"], "--turns"),
        (["solve", "seed/1", "--player", "forward", "--turns", "99999999999"], "--turns"),
        ([*show_args, "--turns", "99999999999"], "--turns"),
        (["solve", "seed/1", "--player", "forward", "--turns", "5", "--move-limit", "1e30"], "--move-limit"),
        (["play", "--player", "forward", "--turns", "5", "--game-limit", "1e30"], "--game-limit"),
    ]:
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert f"Invalid value for '{option}'" in result.output and "player" not in result.output.lower()


def test_the_api_checks_turns_as_input_too():
    import pytest

    from gridsolver import ratrace
    from gridsolver.core.errors import InputError

    with pytest.raises(InputError, match=r"--turns 99999999999: expected a whole number from 0 to "
                                         r"1,000,000,000"):
        ratrace.solve(ratrace.named("seed/1"), player="forward", turns=99_999_999_999)
    with pytest.raises(InputError, match=r"--turns 99999999999"):
        ratrace.play("forward", tracks=1, turns=99_999_999_999)


def test_play_counts_in_words_that_agree_with_the_number():
    result = invoke("play", "--player", "forward", "--tracks", "1", "--turns", "5", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("track 1 (seed 0): 1 point, ")  # forward scores no goal in 5 turns
    assert "over 1 track (median 1, best 1, 1 track at 1-2 points)" in result.output
