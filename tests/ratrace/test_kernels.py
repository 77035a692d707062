"""The numba game loop, the per-turn kernels and the plain-Python reference play the same games."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gridsolver.ratrace.controller import play_on_track
from gridsolver.ratrace.players import Player
from gridsolver.ratrace.population import first_rats
from gridsolver.ratrace.reference import ReferenceGame
from gridsolver.ratrace.rng import GAME_STREAM, SplitMix, seed_state

from .helpers import greedy, greedy_numpy, greedy_python, random_track

PLAYERS = [Player("greedy", greedy, "numba"), Player("greedy-numpy", greedy_numpy, "numpy"),
           Player("greedy-python", greedy_python, "python")]


def reference_game(track, seed, turns):
    rng = SplitMix(seed_state(seed, GAME_STREAM))
    game = ReferenceGame(track, first_rats(rng, track.start_cells), rng, greedy_python)
    game.play(turns)
    return game


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(track_seed=st.integers(0, 10**6), seed=st.integers(-5, 10**9), turns=st.integers(1, 60))
def test_every_kernel_plays_the_reference_game(track_seed, seed, turns):
    track = random_track(track_seed)
    assume(len(track.start_cells) >= 1)
    assert_kernels_play_the_reference_game(track, seed, turns)


@pytest.mark.parametrize(("track_seed", "seed", "turns"), [(3, 7, 40), (11, -2, 25)])
def test_every_kernel_plays_the_reference_game_on_fixed_tracks(track_seed, seed, turns):
    """The default suite's share of the property above (the slow run draws 12 cases)."""
    track = random_track(track_seed)
    assert track.start_cells
    assert_kernels_play_the_reference_game(track, seed, turns)


def assert_kernels_play_the_reference_game(track, seed, turns):
    expected = reference_game(track, seed, turns)
    for player in PLAYERS:
        result = play_on_track(player, track, seed, turns, keep_population=True)
        assert (result.points, result.turns, result.alive) == (expected.points, expected.turns,
                                                                len(expected.rats)), player.name
        assert result.rat_moves == expected.rat_moves
        cells, ages, goals, genomes = result.population
        assert cells.tolist() == [r.y * track.width + r.x for r in expected.rats]
        assert ages.tolist() == [r.age for r in expected.rats]
        assert goals.tolist() == [r.goals for r in expected.rats]
        assert [int(lo) | int(hi) << 64 for lo, hi in genomes] == [r.genome for r in expected.rats]


def test_the_reference_games_do_score_and_die():
    """The property above is only as good as its games: rats must score and die on these tracks."""
    points, deaths = 0, 0
    for track_seed in range(12):
        track = random_track(track_seed)
        if track.start_cells:
            game = reference_game(track, 1, 40)
            points += game.points - 1
            deaths += 15 + 10 * game.turns - len(game.rats)
    assert points > 0 and deaths > 0


def test_populations_grow_past_100000_rats():
    """Arrays double as needed; a 100,000-rat population plays on (forward on an open track)."""
    from gridsolver.ratrace.players.forward import forward
    from gridsolver.ratrace.population import Rat

    from .helpers import build_track

    track = build_track(["." * 8] * 3, {}, {})
    rats = [Rat(0, i % 3, 0, 0, i) for i in range(100_000)]
    result = play_on_track(Player("forward", forward, "numba"), track, 1, 30, rats=rats,
                           keep_population=True)
    assert result.alive == 100_000 + 300  # goal every 4 turns, restart at age 0: nobody dies
    assert result.points == 1 + 7 * 100_000 + sum(max(0, (30 - t) // 4) * 10 for t in range(1, 31))
    assert np.all(result.population[1] < 4)
