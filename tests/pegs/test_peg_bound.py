"""The fewest-pegs bound from position classes (issue 19) and the most-jumps proofs it gives."""

import random

import pytest

from gridsolver import pegs
from gridsolver.pegs import generate, geometry, reference, rules
from tests.pegs.test_rules import board_of, named


def single_peg_in_class(board: rules.Board) -> bool:
    """Plain check, independent of the bound: is some one-peg position in the start's class?"""
    classes = geometry.PositionClasses(board)
    return any(classes.same_class(board.pegs, 1 << board.index(cell)) for cell in board.hole_cells())


@pytest.mark.parametrize(("name", "least"), [("english", 1), ("european", 2), ("diamond", 2), ("wiegleb", 1),
                                            ("triangle", 1), ("6x6", 1)])
def test_named_boards(name, least):
    board = named(name)
    bound = geometry.fewest_pegs_bound(board)
    assert bound.pegs == least
    assert (least == 1) == single_peg_in_class(board)


def test_groups_that_never_meet_each_keep_a_peg():
    # two runs of holes with no hole between them: no jump crosses, each run keeps its last peg
    board = board_of("oo.-.oo", jumps="orthogonal")
    bound = geometry.fewest_pegs_bound(board)
    assert bound.groups == 2 and bound.pegs == 2
    assert reference.most_jumps(board) == board.peg_count - 2


def test_a_peg_no_jump_can_reach_stays():
    board = board_of("o.....\n......\n...oo.", jumps="diagonal")
    bound = geometry.fewest_pegs_bound(board)
    assert bound.stuck == 1 and bound.pegs == 2 and "can never move" in bound.proof
    assert reference.most_jumps(board) == 1


def test_reachable_holes_hold_every_peg_of_every_game():
    board = board_of("oo....\n......\no..oo.", jumps="diagonal")
    reach = geometry.reachable_holes(board)
    seen, todo = {board.pegs}, [board.pegs]
    while todo:
        position = todo.pop()
        assert position & ~reach == 0
        for a, b, c in rules.triples(board):
            if position >> a & 1 and position >> b & 1 and not position >> c & 1:
                child = position ^ (1 << a | 1 << b | 1 << c)
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
    assert reach != board.holes  # the bound has something to prune on this board


@pytest.mark.parametrize("seed", range(40))
def test_the_bound_never_passes_the_true_fewest(seed):
    rng = random.Random(seed)
    rows, cols = rng.randint(2, 4), rng.randint(3, 5)
    jumps = rng.choice(["orthogonal", "diagonal"])
    board = generate.random_board(rows, cols, rng.uniform(0.3, 0.8), seed=seed).with_jumps(jumps)
    bound = geometry.fewest_pegs_bound(board)
    assert 1 <= bound.pegs <= board.peg_count - reference.most_jumps(board)


def test_diamond_most_jumps_is_proved_at_two_pegs():
    board = named("diamond")
    result = pegs.solve(board, objective="jumps", time=30, seed=1)
    assert result.status == "optimal" and result.verified and result.stopped is None
    assert result.details["pegs_left"] == 2 and result.score == 38
    assert "position classes" in result.proof and result.stats.elapsed_s < 20


def test_european_most_jumps_is_proved_at_two_pegs():
    result = pegs.solve(named("european"), objective="jumps", time=30, seed=1)
    assert result.status == "optimal" and result.verified and result.details["pegs_left"] == 2
