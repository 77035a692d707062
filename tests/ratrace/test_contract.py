"""The rat race in the shared contract: the track text format, moves, solve and its results."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from gridsolver import ratrace
from gridsolver.cli import cli
from gridsolver.core.errors import BoardError, InputError
from gridsolver.core.result import SCHEMA_VERSION, Result
from gridsolver.ratrace.game import GAME
from gridsolver.ratrace.generate import generate_track
from gridsolver.ratrace.rules import MOVES, TELEPORTER, TRAP, WALL
from gridsolver.ratrace.track import format_track

from .helpers import build_track, random_track


def invoke(*args):
    return CliRunner().invoke(cli, ["ratrace", *args])


def reparse(track):
    return GAME.read(GAME.format(track))


# -- the track text format ---------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 5, 17, 123, -3, 2**40])
def test_generated_tracks_round_trip_through_their_text(seed):
    track = generate_track(seed)
    again = reparse(track)
    assert again == track
    assert again.start_cells == track.start_cells and again.seed == seed
    assert np.array_equal(again.lethal, track.lethal)
    assert GAME.format(again) == GAME.format(track)


@pytest.mark.parametrize("seed", range(6))
def test_hand_built_tracks_round_trip_too(seed):
    track = random_track(seed)  # random offsets on every colour, a few rows, seed set
    assert reparse(track) == track
    custom = build_track(["." * 8, "#" * 8], {1: WALL}, {}, starts=[1, 0])  # no seed, starts in any order
    again = reparse(custom)
    assert again == custom and again.seed is None and again.start_cells == [1, 0]


def test_offsets_of_empty_and_wall_colours_are_not_part_of_a_track():
    kinds = np.zeros(16, np.int64)
    kinds[1], kinds[2], kinds[3] = TELEPORTER, TRAP, WALL
    offsets = np.ones((16, 2), np.int64)
    track = ratrace.Track(np.zeros((3, 6), np.int64), kinds, offsets)
    assert track.offsets[:4].tolist() == [[0, 0], [1, 1], [1, 1], [0, 0]]
    assert offsets[0].tolist() == [1, 1]  # the caller's array is left alone


def test_track_equality_compares_every_part():
    track = generate_track(4)
    assert track == generate_track(4) and track != generate_track(5)
    other = generate_track(4)
    other.start_cells = other.start_cells[1:]
    assert track != other
    other = generate_track(4)
    other.seed = None
    assert track != other


def test_the_text_format_reads_as_documented():
    text = ("# a corridor\nseed: 9\ncolour 1: wall\ncolour 2: trap 0 1\ncolour 3: teleporter 2 0\n"
            "0000000\n01300A0\n")
    track = GAME.read(text)
    assert (track.seed, track.width, track.height, track.goal_x) == (9, 7, 2, 3)
    assert track.colours[1].tolist() == [0, 1, 3, 0, 0, 10, 0]
    assert track.kinds[:4].tolist() == [0, WALL, TRAP, TELEPORTER]
    assert track.offsets[3].tolist() == [2, 0] and track.offsets[2].tolist() == [0, 1]
    assert track.start_cells == [0, 1]  # no 'start:' line: computed from the rules
    assert GAME.format(track).splitlines()[:2] == ["seed: 9", "start: 0 1"]


@pytest.mark.parametrize("text, message", [
    ("00000\n00g00", "row 1, column 2"),
    ("00000\n0000", "all rows must have the same width"),
    ("0000\n0000", "at least 5"),
    ("colour 3: trap 1\n00000", "a trap takes an offset"),
    ("colour 3: wall 1 0\n00000", "a wall takes no offset"),
    ("colour 3: lava\n00000", "unknown kind 'lava'"),
    ("colour 16: wall\n00000", "colour number from 0 to 15"),
    ("colour 3: wall\ncolour 3: empty\n00000", "a second line for colour 3"),
    ("seed: 1\nseed: 2\n00000", "a second 'seed:' line"),
    ("seed: x\n00000", "whole numbers"),
    ("start: 0 3\n00000", "start cell y = 3 is not a row"),
    ("start: 0 0\n00000", "listed twice"),
    ("00000\nseed: 4", "header line after the colour rows"),
    ("speed: 4\n00000", "unexpected line"),
    ("seed: 4", "no colour rows"),
])
def test_bad_track_text_is_a_board_error_naming_the_place(text, message):
    with pytest.raises(BoardError, match=message):
        GAME.read(text, "t.txt")


def test_shipped_names():
    assert ratrace.named("seed/5") == generate_track(5)
    assert ratrace.named("seed/-3") == generate_track(-3)
    assert [b.name for b in ratrace.boards()] == ["seed/N", "tournament"]
    tracks = ratrace.load("tournament")
    assert len(tracks) == 50 and [t.seed for t in tracks[:3]] == [0, 1, 2]
    with pytest.raises(InputError, match="seed/N with N a whole number"):
        ratrace.named("seed/five")


def test_format_command_prints_the_text_and_it_reads_back(tmp_path):
    result = invoke("format", "seed/3")
    assert result.exit_code == 0
    assert result.output.rstrip("\n") == format_track(generate_track(3))
    path = tmp_path / "three.txt"
    path.write_text(result.output)
    assert ratrace.load(str(path)) == [generate_track(3)]


# -- moves ---------------------------------------------------------------------------------------
def test_moves_are_the_nine_offsets_and_never_change_the_track():
    track = generate_track(2)
    assert GAME.moves(track) == list(MOVES) and len(MOVES) == 9
    for move in GAME.moves(track):
        assert GAME.apply(track, move) is track
    assert GAME.apply(track, [1, 0]) is track  # any two-item sequence, as players may return
    for bad in [(2, 0), (1,), "up", 3]:
        with pytest.raises(InputError, match="illegal move"):
            GAME.apply(track, bad)


@pytest.mark.parametrize("solution, message", [
    ([], "a rat race game is"),
    ({}, 'no "game_seed"'),
    ({"game_seed": "x"}, "game_seed 'x'"),
    ({"game_seed": 1, "turns": -1}, "turns -1"),
    ({"game_seed": 1, "lives": 3}, "unknown key"),
    ({"game_seed": 1, "turns": 300}, "more than the game's 200"),
])
def test_a_solution_is_a_game_seed_and_turns(solution, message):
    with pytest.raises(InputError, match=message):
        GAME.check(generate_track(2), solution, player="forward", turns=200)


def test_check_needs_the_player_the_game_was_played_with():
    with pytest.raises(InputError, match="replaying a game needs its player"):
        GAME.check(generate_track(2), {"game_seed": 2})
    result = invoke("check", "seed/2", "[]")
    assert result.exit_code == 2 and "a rat race game is its game seed" in result.output
    result = invoke("check", "seed/2", "5")  # the check command takes no --player: use a result file
    assert result.exit_code == 2 and "needs its player" in result.output


# -- solve: one game -----------------------------------------------------------------------------
def test_solve_plays_one_game_and_says_so():
    result = ratrace.solve(ratrace.named("seed/11"), player="colour-score", turns=400)
    assert (result.status, result.stopped, result.verified) == ("played", None, True)
    assert result.solution == {"game_seed": 11, "turns": 400}
    assert result.solved and not result.proved
    assert result.score == 27 and result.score_name == "points"
    assert result.input == "seed/11" and result.options == {"turns": 400, "player": "colour-score"}
    assert result.details["turns"] == 400 and result.details["ended"] == "finished"
    assert result.stats.nodes == result.details["rat_moves"] > 0
    assert ratrace.read(result.board) == generate_track(11)
    data = json.loads(result.to_json())
    assert data["schema"] == SCHEMA_VERSION == 1 and data["status"] == "played"
    assert data["options"] == {"turns": 400, "player": "colour-score"}
    assert Result.from_dict(data).score == 27
    again = ratrace.solve(ratrace.read(data["board"]), **data["options"])  # the JSON alone plays it again
    assert (again.score, again.stats.nodes) == (27, result.stats.nodes)


def test_the_solve_seed_shifts_the_games_random_streams():
    track = ratrace.named("seed/11")
    shifted = ratrace.solve(track, player="colour-score", turns=400, seed=1)
    assert shifted.details["game_seed"] == 12
    again = ratrace.solve(track, player="colour-score", turns=400, seed=1)
    assert shifted.score == again.score and shifted.stats.nodes == again.stats.nodes


def test_a_budget_cuts_a_game_short_and_the_result_says_which():
    result = ratrace.solve(ratrace.named("seed/11"), player="forward", turns=10_000, nodes=2_000)
    assert result.status == "played" and result.stopped == "nodes"
    assert result.details["ended"] == "nodes" and result.details["turns"] < 10_000


@pytest.mark.parametrize("options, message", [
    ({}, "a game needs a player"),
    ({"player": "nobody"}, "no such player"),
    ({"player": 42}, "expected a built-in player name"),
    ({"player": "forward", "turns": -1}, "--turns -1: expected a whole number from 0 to 1,000,000,000"),
    ({"player": "forward", "turns": "many"}, "--turns 'many'"),
    ({"player": "forward", "lives": 3}, "unknown option"),
])
def test_bad_solve_options_are_input_errors(options, message):
    with pytest.raises(InputError, match=message):
        ratrace.solve(generate_track(1), **options)


def test_a_track_without_start_cells_cannot_be_played():
    track = build_track(["." * 6], {}, {}, starts=[])
    with pytest.raises(InputError, match="no start cells"):
        ratrace.solve(track, player="forward", turns=5)


def test_solve_command_json_and_exit_codes():
    result = invoke("solve", "seed/3", "--player", "forward", "--turns", "100", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["schema"], data["game"], data["input"], data["status"]) == (1, "ratrace", "seed/3", "played")
    assert data["score"] >= 1 and data["verified"] is True
    assert data["solution"] == {"game_seed": 3, "turns": 100}
    text = invoke("solve", "seed/3", "--player", "forward", "--turns", "100", "--show")
    assert text.exit_code == 0 and text.output.startswith("seed/3: played, points ")
    assert "start cells (y at x = 0)" in text.output
    for args in (["seed/3", "--player", "nobody"], ["seed/3"], ["seed/x", "--player", "forward"],
                 ["seed/3", "--player", "forward", "--turns", "-2"], ["no-such-file", "--player", "forward"],
                 ["seed/3", "--player", "forward", "--cluster", "tcp://127.0.0.1:1"]):
        bad = invoke("solve", *args)
        assert bad.exit_code == 2, (args, bad.output)


def test_solve_of_seed_n_is_track_1_of_play_from_seed_n():
    solved = json.loads(invoke("solve", "seed/11", "--player", "colour-score", "--turns", "400",
                               "--json").output)
    played = invoke("play", "--player", "colour-score", "--tracks", "1", "--seed", "11", "--turns", "400",
                    "--workers", "1", "--json")
    first = json.loads(played.output.splitlines()[0])
    assert solved["score"] == first["score"] == 27
    assert first["input"] == "seed/11" and first["board"] == solved["board"]
