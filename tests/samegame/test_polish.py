"""The polishers of a finished game, and the exact search from the start: every game they return
replays under the rules to its points, and never scores less than the game they were given."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import random_board
from gridsolver.clickomania.kernels.groups import index_to_move, to_cells, zobrist_table
from gridsolver.samegame import rules as samegame_rules
from gridsolver.samegame.kernels.beam import TABU_WEIGHTS, tabu_beam, tabu_plan
from gridsolver.samegame.polish import (
    TAIL_BEAM_MAX,
    TAIL_BEAM_START,
    endgame_table,
    exact_game,
    line_points,
    polish_ending,
    polish_tail,
)
from gridsolver.samegame.reference import endgame_value as reference_value

from ..clickomania.helpers import NO_LIMIT, boards, cell_index


def first_move_game(b: rules.Board) -> list[int]:
    """A poor but complete game: always the first legal move (kernel cell indices)."""
    seq = []
    while moves := rules.legal_moves(b):
        seq.append(cell_index(moves[0], b.height))
        b = rules.apply(b, moves[0])
    return seq


@settings(max_examples=40, deadline=None)
@given(boards(max_side=6), st.integers(0, 10**6), st.booleans())
def test_line_points_scores_a_game_like_the_rules(b, seed, penalty):
    """line_points (kernels) against the plain-Python replay, on a random game to its end."""
    rng = np.random.default_rng(seed)
    board, moves = b, []
    while legal := [rules.canonical(g) for g in rules.groups(board) if len(g) >= 2]:
        moves.append(legal[rng.integers(len(legal))])
        board = rules.apply(board, moves[-1])
    seq = np.array([cell_index(m, b.height) for m in moves], np.int32)
    assert (line_points(to_cells(b.grid), b.width, b.height, seq, penalty)
            == samegame_rules.replay(b, moves, penalty=penalty).score)


@settings(max_examples=25, deadline=None)
@given(boards(max_side=6), st.integers(0, 5), st.booleans())
def test_the_tail_polish_keeps_a_replayable_game_no_worse_than_the_line_or_the_beam(b, tabu, penalty):
    """polish_tail splices each better beam game after the moves before it: the result replays under the
    rules to its points, and the sweep's last beam (from the start) bounds it from below."""
    cells = to_cells(b.grid)
    seq = np.array(first_move_game(b), np.int32)
    before = line_points(cells, b.width, b.height, seq, penalty)
    points, polished, nodes = polish_tail(cells, b.width, b.height, seq, tabu, penalty, NO_LIMIT, NO_LIMIT,
                                          None)
    replayed = samegame_rules.replay(b, [index_to_move(i, b.height) for i in polished], penalty=penalty)
    assert replayed.game_over and replayed.score == points >= before
    path = np.zeros(b.width * b.height, np.int32)
    plan = tabu_plan(TAIL_BEAM_START, penalty, tabu, TABU_WEIGHTS)
    value, length, _, _ = tabu_beam(cells, b.width, b.height, zobrist_table(b.width * b.height), plan,
                                    endgame_table(4, None), path, NO_LIMIT, NO_LIMIT)
    assert length < 0 or points >= -value
    assert nodes > 0 or len(seq) == 0


def test_the_tail_polish_improves_a_poor_game_and_honours_its_node_budget():
    b = random_board(10, 10, 3, seed=2)
    cells = to_cells(b.grid)
    seq = np.array(first_move_game(b), np.int32)
    before = line_points(cells, 10, 10, seq, False)
    points, polished, nodes = polish_tail(cells, 10, 10, seq, 0, False, NO_LIMIT, 0, None)
    assert (points, list(polished), nodes) == (before, list(seq), 0)  # no nodes: the game as it was
    points, polished, nodes = polish_tail(cells, 10, 10, seq, 0, False, NO_LIMIT, 50_000, None)
    assert points > before and nodes <= 50_000 + TAIL_BEAM_MAX  # a beam stops within a check
    assert samegame_rules.replay(b, [index_to_move(i, 10) for i in polished]).score == points


@settings(max_examples=60, deadline=None)
@given(boards(max_side=5), st.booleans())
def test_polishing_a_whole_game_reaches_the_exact_optimum(b, penalty):
    seq = np.array(first_move_game(b), np.int32)
    points, polished, nodes = polish_ending(to_cells(b.grid), b.width, b.height, seq, penalty, NO_LIMIT,
                                            NO_LIMIT, None)
    assert points == reference_value(b, penalty)  # on a tiny board the walk back reaches the start
    replayed = samegame_rules.replay(b, [index_to_move(i, b.height) for i in polished], penalty=penalty)
    assert replayed.game_over and replayed.score == points


def test_polishing_keeps_the_game_when_out_of_nodes():
    b = random_board(10, 10, 3, seed=2)
    seq = np.array(first_move_game(b), np.int32)
    before = samegame_rules.replay(b, [index_to_move(i, b.height) for i in seq]).score
    points, polished, nodes = polish_ending(to_cells(b.grid), 10, 10, seq, False, NO_LIMIT, 1, None)
    assert nodes <= 1 and points == before and list(polished) == list(seq)


@settings(max_examples=60, deadline=None)
@given(boards(max_side=5), st.booleans())
def test_the_exact_game_from_the_start_is_the_optimum_and_replays_to_it(b, penalty):
    found = exact_game(to_cells(b.grid), b.width, b.height, penalty, NO_LIMIT, NO_LIMIT, None)
    assert found is not None
    points, moves, nodes = found
    assert points == reference_value(b, penalty)
    replayed = samegame_rules.replay(b, [index_to_move(i, b.height) for i in moves], penalty=penalty)
    assert replayed.game_over and replayed.score == points


def test_an_exact_game_out_of_nodes_is_none_not_a_guess():
    b = random_board(10, 10, 3, seed=2)
    assert exact_game(to_cells(b.grid), 10, 10, False, NO_LIMIT, 100, None) is None
