"""Turn order, scoring, lifespan, extinction and breeding in the game kernels and the reference."""

import numpy as np
import pytest

from gridsolver.ratrace.controller import play_on_track
from gridsolver.ratrace.kernels.breed import breed
from gridsolver.ratrace.players import Player
from gridsolver.ratrace.population import Population, Rat
from gridsolver.ratrace.reference import ReferenceGame
from gridsolver.ratrace.rng import SplitMix
from gridsolver.ratrace.rules import TELEPORTER, TRAP, WALL

from .helpers import ahead, build_track, stay

KINDS = {1: WALL, 2: TRAP, 3: TELEPORTER, 4: TRAP}
OFFSETS = {2: (1, 0), 3: (2, 0), 4: (0, 0)}
STAY = Player("stay", stay, "numba")
AHEAD = Player("ahead", ahead, "numba")


def open_track(rows=None):
    rows = rows or ["." * 10] * 3
    return build_track(rows, KINDS, OFFSETS)


def play(track, rats, player, turns):
    return play_on_track(player, track, seed=1, turns=turns, rats=rats, keep_population=True)


def test_a_rat_reaching_the_goal_scores_and_restarts_with_age_0():
    track = open_track()
    rats = [Rat(5, 1, 7, 2, 123), Rat(0, 0, 3, 0, 456)]
    result = play(track, rats, AHEAD, 1)
    cells, ages, goals, genomes = result.population
    assert result.points == 2
    assert cells[0] % track.width == 0 and cells[0] // track.width in track.start_cells
    assert (ages[0], goals[0], genomes[0, 0]) == (0, 3, 123)
    assert (cells[1], ages[1], goals[1]) == (1, 4, 0)
    assert result.alive == 12 and list(ages[2:]) == [0] * 10  # ten newborns at age 0


def test_a_rat_dies_after_100_moves():
    track = open_track()
    rats = [Rat(0, 0, 99, 0, 1), Rat(0, 1, 0, 0, 2), Rat(0, 2, 0, 0, 3)]
    first = play(track, rats, STAY, 1)
    assert list(first.population[1][:3]) == [100, 1, 1]  # the 100th move is still made
    second = play(track, [Rat(0, 0, 99, 0, 1), Rat(0, 1, 0, 0, 2), Rat(0, 2, 0, 0, 3)], STAY, 2)
    assert list(second.population[3][:2, 0]) == [2, 3]  # the old rat is gone, the others go on
    assert second.rat_moves == 3 + 2 + 10  # age 100: dies before moving


def test_the_game_ends_when_fewer_than_2_rats_are_alive():
    track = build_track([".Z........", "..........", ".........."], KINDS, OFFSETS)
    rats = [Rat(0, 0, 0, 0, 1), Rat(0, 1, 0, 0, 2)]
    result = play(track, rats, AHEAD, 50)
    assert (result.turns, result.alive, result.ended, result.points) == (1, 1, "extinct", 1)
    assert result.rat_moves == 2  # no newborns were bred


@pytest.mark.parametrize("player", [
    AHEAD,
    Player("ahead-python", lambda view, genome: (1, 0), "python"),
    Player("ahead-numpy", lambda views, genomes: np.tile([1, 0], (len(views), 1)), "numpy"),
], ids=lambda p: p.kind)
def test_every_kind_of_player_ends_the_game_below_2_rats(player):
    track = build_track([".Z........", "..........", ".........."], KINDS, OFFSETS)
    rats = [Rat(0, 0, 0, 0, 1), Rat(0, 1, 0, 0, 2), Rat(0, 0, 0, 0, 3)]
    result = play(track, rats, player, 50)
    assert (result.turns, result.alive, result.ended, result.rat_moves) == (1, 1, "extinct", 3)
    assert result.population[0].tolist() == [1 * track.width + 1]


def test_two_survivors_keep_the_game_going():
    track = build_track([".Z........", "..........", ".........."], KINDS, OFFSETS)
    rats = [Rat(0, 0, 0, 0, 1), Rat(0, 1, 0, 0, 2), Rat(0, 2, 0, 0, 3)]
    result = play(track, rats, AHEAD, 3)
    assert result.turns == 3 and result.ended == "finished"


def _breed_once(genomes_old, decoy_genome, decoy_goals=10**6):
    """Run the breeding kernel on 2 old rats with decoys in the slots where children go."""
    n, capacity = len(genomes_old), len(genomes_old) + 10
    cells = np.zeros(capacity, np.int64)
    ages = np.zeros(capacity, np.int64)
    goals = np.full(capacity, decoy_goals, np.int64)
    goals[:n] = 0
    genomes = np.tile(np.array(decoy_genome, np.uint64), (capacity, 1))
    genomes[:n] = genomes_old
    fitness = np.zeros(capacity, np.int64)
    rng = np.array([7], np.uint64)
    breed(Population(cells, ages, goals, genomes), fitness, n, 10, np.array([0], np.int64), rng)
    return genomes[n:]


def test_newborns_are_never_parents():
    ones = [2**64 - 1, 2**36 - 1]
    children = _breed_once(np.zeros((2, 2), np.uint64), ones)
    ones_bits = sum(bin(int(w)).count("1") for w in children.ravel())
    assert ones_bits < 40  # only mutations (about 1 per child); a decoy parent would give ~100


def _many_children(parent_a, parent_b, count):
    genomes = np.array([parent_a, parent_b], np.uint64)
    cells = np.zeros(12, np.int64)
    ages = np.zeros(12, np.int64)
    goals = np.zeros(12, np.int64)
    fitness = np.zeros(12, np.int64)
    rng = np.array([12345], np.uint64)
    children = []
    for _ in range(count // 10):
        g = np.zeros((12, 2), np.uint64)
        g[:2] = genomes
        breed(Population(cells, ages, goals, g), fitness, 2, 10, np.array([0], np.int64), rng)
        children.append(g[2:])
    words = np.concatenate(children)
    bits = np.array([[(int(w[i >> 6]) >> (i & 63)) & 1 for i in range(100)] for w in words])
    return bits


def test_mutation_flips_each_bit_with_probability_0_01():
    bits = _many_children([0, 0], [0, 0], 20_000)
    assert abs(bits.mean() - 0.01) < 0.0007  # about 10 standard errors


def test_genome_bits_above_99_stay_zero():
    children = _breed_once(np.array([[2**64 - 1, 2**36 - 1]] * 2, np.uint64), [0, 0])
    assert (children[:, 1] >> np.uint64(36) == 0).all()
    assert (children[:, 1] != 0).all()


def test_crossover_switches_parent_with_probability_0_05():
    bits = _many_children([0, 0], [2**64 - 1, 2**36 - 1], 20_000)
    differ = (bits[:, 1:] != bits[:, :-1]).mean()
    flip = 2 * 0.01 * 0.99  # adjacent bits also differ when exactly one of them mutated
    switch = (differ - flip) / (1 - 2 * flip)
    assert abs(switch - 0.05) < 0.003  # about 15 standard errors; 0.04 or 0.06 would fail
    assert abs(bits[:, 0].mean() - 0.5) < 0.02  # bit 0 comes from either parent


def test_the_reference_game_agrees_on_the_rules_of_a_turn():
    track = open_track()
    rats = [Rat(5, 1, 7, 2, 123), Rat(0, 0, 3, 0, 456)]
    game = ReferenceGame(track, rats, SplitMix(1), lambda view, genome: (1, 0))
    assert game.turn()
    assert game.points == 2
    assert (game.rats[0].x, game.rats[0].age, game.rats[0].goals) == (0, 0, 3)
    assert len(game.rats) == 12
