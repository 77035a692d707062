"""The player registry, the three player kinds, user files and illegal moves."""

import re
import sys
import types
from importlib.machinery import ModuleSpec

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.cli import cli
from gridsolver.core.errors import InputError
from gridsolver.ratrace.controller import IllegalMove, play_game, play_on_track
from gridsolver.ratrace.players import PLAYERS, Player, available_players, load_player
from gridsolver.ratrace.players.api import genome_chunk, genome_chunk_int, genome_chunk_reference
from gridsolver.ratrace.population import Rat

from .helpers import build_track, noisy_stay, stay, too_far


def test_builtin_players_load_with_their_kind():
    kinds = {name: load_player(name).kind for name in PLAYERS}
    assert kinds == {"forward": "numba", "random": "numba", "colour-score": "numba",
                     "look-ahead": "numba", "colour-score-numpy": "numpy",
                     "colour-score-python": "python"}


def test_a_new_player_module_is_found_without_registering_it(monkeypatch):
    name = "gridsolver.ratrace.players.zz_test_player"
    module = types.ModuleType(name)
    module.__spec__ = ModuleSpec(name, None)
    module.zz_test_player = stay
    monkeypatch.setitem(sys.modules, name, module)
    player = load_player("zz-test-player")
    assert (player.fn, player.kind) == (stay, "numba")


def test_optional_champion_is_listed_only_when_its_module_exists():
    from importlib.util import find_spec

    exists = find_spec("gridsolver.ratrace.players.champion") is not None
    assert ("champion" in available_players()) == exists


@pytest.mark.parametrize("spec", ["nobody", "../evil", "Forward", "api:x", "__init__"])
def test_unknown_players_are_input_errors(spec):
    with pytest.raises(InputError):
        load_player(spec)


def _view(ahead_up, ahead, ahead_down, far=(0, 0, 0, 0, 0)):
    view = np.zeros((5, 5), np.int64)
    view[1, 3], view[2, 3], view[3, 3] = ahead_up, ahead, ahead_down
    view[:, 4] = far
    return view


def _genome(scores: dict[int, int]) -> np.ndarray:
    value = 0
    for colour, score in scores.items():
        value |= score << (6 * colour)
    return np.array([value & (2**64 - 1), value >> 64], np.uint64)


@pytest.mark.parametrize("name", ["colour-score", "colour-score-python", "colour-score-numpy"])
def test_colour_score_goes_to_the_best_forward_colour(name):
    player = load_player(name)
    genome = _genome({1: 5, 10: 63, 15: 2})  # colour 10's chunk crosses the genome's two words
    for colours, expected in [((1, 10, 15), 0), ((10, 1, 15), -1), ((15, 1, 10), 1), ((-1, 1, 15), 0)]:
        view = _view(*colours)
        if player.kind == "numba":
            move = player.fn(view, genome)
        elif player.kind == "numpy":
            move = tuple(player.fn(view[None], genome[None])[0])
        else:
            move = player.fn(tuple(tuple(r) for r in view.tolist()),
                             int(genome[0]) | int(genome[1]) << 64)
        assert tuple(move) == (1, expected)


def test_look_ahead_adds_the_cells_beyond_each_target():
    player = load_player("look-ahead").fn
    genome = _genome({1: 10, 2: 9, 3: 40})
    # Targets: up 1 (10), ahead 2 (9), down 2 (9). Beyond: column x+2 rows -2..2 = 0, 0, 0, 3, 3.
    view = _view(1, 2, 2, far=(0, 0, 0, 3, 3))
    assert player(view, genome) == (1, 1)  # down: 9 + 0 + 40 + 40 beats ahead 9 + 40 and up 10


def test_players_randomness_never_changes_the_game():
    track = build_track(["." * 12] * 4, {}, {})
    rats = [Rat(0, y, 0, 0, 7 * y + 1) for y in range(4)]
    quiet = play_on_track(Player("stay", stay, "numba"), track, 5, 20, rats=list(rats),
                          keep_population=True)
    rats = [Rat(0, y, 0, 0, 7 * y + 1) for y in range(4)]
    noisy = play_on_track(Player("noisy", noisy_stay, "numba"), track, 5, 20, rats=rats,
                          keep_population=True)
    for a, b in zip(quiet.population, noisy.population, strict=True):
        assert np.array_equal(a, b)


def test_random_player_games_are_reproducible():
    player = load_player("random")
    first, second = play_game(player, 4, 200), play_game(player, 4, 200)
    assert (first.points, first.alive, first.rat_moves) == (second.points, second.alive, second.rat_moves)


def test_an_illegal_numba_move_names_player_move_and_turn():
    track = build_track(["." * 10] * 2, {}, {})
    rats = [Rat(0, 0, 0, 0, 1), Rat(0, 1, 0, 0, 2)]
    expected = r"^player far, track seed 1, turn 2: returned \(2, 0\) for rat 0, not a move \(dx, dy\)"
    with pytest.raises(IllegalMove, match=expected):
        play_on_track(Player("far", too_far, "numba"), track, 1, 50, rats=rats)


PLAYER_FILE = '''
import numpy as np
from numba import njit
from gridsolver.ratrace.players import numpy_player


@njit
def fast(view, genome):
    return 1, 0


@numpy_player
def wide(views, genomes):
    moves = np.zeros((len(views), 2), np.int64)
    moves[:, 0] = 1
    return moves


def plain(view, genome):
    return (1, 0)


def cheat(view, genome):
    return (1, 0) if view[2][1] < 0 else (1, 5)


@numpy_player
def wrong_shape(views, genomes):
    return np.ones((len(views), 3), np.int64)


def broken(view, genome):
    return 1 / 0
'''


@pytest.fixture()
def player_file(tmp_path):
    path = tmp_path / "my_players.py"
    path.write_text(PLAYER_FILE)
    return path


def test_user_players_of_every_kind_play_the_same_game(player_file):
    results = []
    for name, kind in [("fast", "numba"), ("wide", "numpy"), ("plain", "python")]:
        player = load_player(f"{player_file}:{name}")
        assert player.kind == kind
        game = play_game(player, 2, 120)
        results.append((game.points, game.alive, game.rat_moves))
    assert results[0] == results[1] == results[2]


@pytest.mark.parametrize("name, message", [
    ("cheat", r"player .*:cheat, track seed 2, turn 2: returned \(1, 5\), not a move"),
    ("wrong_shape", r"player .*:wrong_shape, track seed 2, turn 1: returned moves of shape \(\d+, 3\), not "),
    ("broken", r"player .*:broken, track seed 2, turn 1: raised ZeroDivisionError: division by zero at "
               r".*my_players.py, line \d+, in broken$"),
])
def test_bad_user_players_are_one_line_errors(player_file, name, message):
    with pytest.raises(InputError, match=message):
        play_game(load_player(f"{player_file}:{name}"), 2, 200)


def test_cli_illegal_move_exits_2_with_one_error_line(player_file):
    result = CliRunner().invoke(cli, ["ratrace", "play", "--player", f"{player_file}:cheat",
                                      "--tracks", "1", "--turns", "200", "--workers", "1"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    player = f"player {player_file}:cheat, track 1 (seed 0), turn "
    assert lines[0].startswith(f"track 1 (seed 0): failed: {player}")
    assert lines[-1].startswith(f"gridsolver: error: {player}")
    assert "returned (1, 5), not a move" in lines[-1]
    assert [line for line in lines if line.startswith("gridsolver:")] == [lines[-1]]


@pytest.mark.parametrize("spec, message", [
    ("{dir}/missing.py:f", "no such file"),
    ("{file}:nothing", "has no function nothing"),
    ("{file}:not-a-name", "is not a function name"),
])
def test_bad_player_specs(player_file, spec, message):
    with pytest.raises(InputError, match=message):
        load_player(spec.format(dir=player_file.parent, file=player_file))


def test_a_player_file_that_does_not_import_is_an_input_error(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text("import no_such_module_here\n")
    with pytest.raises(InputError, match="failed to load: ModuleNotFoundError"):
        load_player(f"{path}:f")


@settings(max_examples=200, deadline=None)
@given(low=st.integers(0, 2**64 - 1), high=st.integers(0, 2**36 - 1), start=st.integers(0, 94),
       width=st.integers(1, 6))
def test_genome_chunk_matches_the_bit_by_bit_reference(low, high, start, width):
    genome = np.array([low, high], np.uint64)
    assert genome_chunk(genome, start, width) == genome_chunk_reference(genome, start, width)
    assert genome_chunk_int(low | high << 64, start, width) == genome_chunk_reference(genome, start, width)


def test_budgets_cut_a_game_short_and_say_so():
    from gridsolver.core.budget import Budget

    player = load_player("colour-score")
    by_nodes = play_game(player, 5, 10_000, Budget(time_s=None, memory_mb=None, nodes=50_000))
    assert by_nodes.ended == "nodes" and 50_000 <= by_nodes.rat_moves < 60_000
    by_memory = play_game(player, 5, 10_000, Budget(time_s=None, memory_mb=0.02))
    assert by_memory.ended == "memory" and by_memory.alive <= 256
    by_time = play_game(player, 5, 10_000_000, Budget(time_s=0.5, memory_mb=None))
    assert by_time.ended == "time" and by_time.turns < 10_000_000


def test_a_python_player_may_return_its_move_as_a_list():
    """A move is any (dx, dy) in [-1, 1]^2, as in the reference game: a list plays like a tuple."""
    as_tuple = play_game(Player("tuple", lambda view, genome: (1, 0), "python"), 2, 60)
    as_list = play_game(Player("list", lambda view, genome: [1, 0], "python"), 2, 60)
    as_array = play_game(Player("array", lambda view, genome: np.array([1, 0]), "python"), 2, 60)
    assert ((as_tuple.points, as_tuple.alive, as_tuple.rat_moves)
            == (as_list.points, as_list.alive, as_list.rat_moves)
            == (as_array.points, as_array.alive, as_array.rat_moves))


@pytest.mark.parametrize("move, shown", [
    ([1, 5], r"\[1, 5\]"),
    ([[1], 0], r"\[\[1\], 0\]"),
    ({"dx": 1}, r"\{'dx': 1\}"),
    (None, "None"),
    ((1, 0, 0), r"\(1, 0, 0\)"),
])
def test_an_illegal_python_move_is_named_whatever_its_type(move, shown):
    player = Player("odd", lambda view, genome: move, "python")
    expected = rf"^player odd, track seed 2, turn 1: returned {shown}, not a move"
    with pytest.raises(IllegalMove, match=expected):
        play_game(player, 2, 5)


LONG = "a" * 5000
LONG_SPECS = [LONG, f"{LONG}.py:f", f"{LONG}:f", "/" + "a/" * 2500 + "x.py:f", f"{LONG}.py:{LONG}",
              f"x.py:{LONG}-", f"{LONG}.f"]


@pytest.mark.parametrize("spec", LONG_SPECS, ids=["name", "file", "no-suffix", "deep", "long-function",
                                                  "not-a-function", "dotted"])
@pytest.mark.parametrize("command", [["play", "--tracks", "1"], ["solve", "seed/1"]])
def test_a_5000_character_player_is_one_short_line_exit_2(spec, command):
    """Too long to be a file name (the system says so with an OSError): a bad input, named but cut short."""
    result = CliRunner().invoke(cli, ["ratrace", *command, "--player", spec, "--turns", "10"])
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and len(line) < 500
    assert re.match(f"gridsolver: error: (--)?player {spec[:10]!r}"[:-1], line), line
    assert "5,00" in line or "5,01" in line  # the value's length, since it is not shown whole
