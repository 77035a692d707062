"""Doomed pegs (issue 19): pegs no other peg can ever come next to, so they never move again.

The beam stops a run once every position it keeps has such a peg and so cannot beat the best line;
these check the test itself on every position of small boards (a doomed peg never moves, and no
position with one and another peg finishes at one peg), the kernels against the plain-Python
reference, and the stop.
"""

import random

import numpy as np
import pytest

from gridsolver.core.kernels.stops import DOOMED
from gridsolver.pegs import generate, geometry, jumps, rules
from gridsolver.pegs.kernels import beam, doom
from gridsolver.pegs.layout import Doom, Layout, Ranking, centroid
from tests.pegs.test_pagoda import every_position


def small_board(rows: int, cols: int, density: float, seed: int, jump_rule: str) -> rules.Board:
    return generate.random_board(rows, cols, density, seed=seed).with_jumps(jump_rule)


def finishing(board: rules.Board, positions: set[int]) -> set[int]:
    """The positions of ``positions`` (closed under jumps) from which some game ends at one peg."""
    good: set[int] = set()
    for position in sorted(positions, key=int.bit_count):  # children have one peg fewer: done first
        if position.bit_count() == 1 or any(
                position >> a & 1 and position >> b & 1 and not position >> c & 1
                and position ^ (1 << a | 1 << b | 1 << c) in good for a, b, c in rules.triples(board)):
            good.add(position)
    return good


# boards on which some reachable position has a doomed peg and others finish at one peg (so the test
# can fail); the larger ones in the slow run only (1-14 s)
CASES = [(4, 4, 0.5, 3, "diagonal"), (4, 4, 0.5, 4, "orthogonal"), (4, 4, 0.5, 1, "triangular"),
         pytest.param(4, 5, 0.55, 3, "diagonal", marks=pytest.mark.slow),
         pytest.param(3, 6, 0.5, 1, "diagonal", marks=pytest.mark.slow)]


@pytest.mark.parametrize(("rows", "cols", "density", "seed", "jump_rule"), CASES)
def test_a_doomed_peg_never_moves_and_no_position_with_one_finishes(rows, cols, density, seed, jump_rule):
    board = small_board(rows, cols, density, seed, jump_rule)
    positions = every_position(board)
    good = finishing(board, positions)
    seen_doomed = 0
    for position in positions:
        doomed = geometry.doomed_pegs(board, position)
        if not doomed:
            continue
        seen_doomed += 1
        if position.bit_count() > len(doomed):
            assert position not in good  # a doomed peg and another: never one peg
        mask = sum(1 << board.index(cell) for cell in doomed)
        for a, b, c in rules.triples(board):  # a doomed peg is in no legal jump, and stays doomed
            if position >> a & 1 and position >> b & 1 and not position >> c & 1:
                assert not mask & (1 << a | 1 << b)
                child = position ^ (1 << a | 1 << b | 1 << c)
                assert set(doomed) <= set(geometry.doomed_pegs(board, child))
    assert seen_doomed > 0 and len(good) > 1


@pytest.mark.parametrize("jump_rule", ["diagonal", "orthogonal", "triangular"])
def test_kernel_counts_the_doomed_pegs_of_the_reference(jump_rule):
    rng = random.Random(7)
    for seed in range(12):
        rows, cols, density = rng.randint(4, 12), rng.randint(4, 12), rng.choice([0.1, 0.2, 0.3])
        board = small_board(rows, cols, density, seed, jump_rule)
        layout = Layout.of(board)
        size = layout.words * 64
        pull = geometry.pull_matrix(board, size)
        totals = np.zeros(size)
        doom.pull_totals(layout.to_words(board.pegs), pull, totals)
        expected = geometry.doomed_pegs(board, board.pegs)
        assert doom.count_doomed(layout.to_words(board.pegs), totals, layout.offsets) == len(expected)
        assert jumps.doomed_cells(board, board.pegs, pull) == expected


@pytest.mark.slow  # a 20x20 board: 10 s cold
def test_the_beam_stops_only_when_every_kept_position_is_doomed():
    board = generate.random_board(20, 20, 0.5, seed=1000)  # sparse: the beam strands a corner peg early
    layout = Layout.of(board)
    pull = geometry.pull_matrix(board, layout.words * 64)
    phi = jumps.spread(board, layout, centroid(board))

    def run(stop_pegs: int) -> tuple[int, int, int]:
        path = np.zeros(board.peg_count, dtype=np.int32)
        stats = np.zeros(3, dtype=np.int64)
        ranking = Ranking.of(phi, 1.0, 0.5, 4, 0.3)
        doom_stop = Doom.of(pull, stop_pegs)
        code = beam.beam(layout.to_words(board.pegs), layout.geometry, ranking, doom_stop, 4, 1, 10**9, 2**62,
                         path, stats)
        line = [layout.decode(c) for c in path[:int(stats[1])]]
        position = rules.replay(board, line)
        if code == DOOMED:
            assert int(stats[2]) == len(line)
            assert geometry.doomed_pegs(position, position.pegs)  # the line it stopped on is doomed
        return code, position.peg_count, int(stats[0])

    code, left, nodes = run(0)
    assert code != DOOMED and left > 1
    stopped, left_stopped, nodes_stopped = run(2)  # looking for one peg: a doomed beam stops
    assert stopped == DOOMED and left_stopped > left and nodes_stopped < nodes
    assert run(left + 1)[0] != DOOMED  # it ended at `left`: no depth had every position doomed


def test_the_next_centre_aims_at_the_doomed_peg_of_a_stopped_run():
    board = generate.random_board(10, 10, 0.5, seed=1000)
    middle = centroid(board)
    shift = jumps.BEAM_SHIFT
    expected = (middle[0] + shift * (9 - middle[0]), middle[1] + shift * (0 - middle[1]))
    assert jumps.toward_stranded(board, [], middle, [(9, 0)]) == pytest.approx(expected)
