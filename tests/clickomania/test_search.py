
"""The solvers' answers: statuses, proofs, budgets and anytime behaviour."""

from gridsolver import clickomania
from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import clearable_board, random_board


def test_board_without_moves_is_proved_at_once():
    result = clickomania.solve(rules.from_text("12\n21"), time=5)
    assert result.status == "impossible" and result.score == 4 and result.solution == []


def test_exhausted_search_proves_the_fewest_cells_left():
    board = rules.from_text("1212\n2121\n1122")
    result = clickomania.solve(board, time=20)
    assert result.status == "impossible" and result.details["fewest_proved"]
    assert rules.replay(board, result.solution).cells_left == result.score > 0


def test_large_board_under_a_node_budget_still_answers_verified():
    board = random_board(40, 30, 6, seed=2)
    result = clickomania.solve(board, time=30, nodes=300)
    assert result.status == "best-found" and result.verified and result.stopped == "nodes"
    replayed = rules.replay(board, result.solution)
    assert replayed.game_over and replayed.cells_left == result.score


def test_large_clearable_board_is_cleared_by_the_beam():
    board = clearable_board(24, 24, 4, seed=1).board  # 576 cells: beam only, no exhaustive phase
    result = clickomania.solve(board, time=60)
    assert result.status == "optimal" and result.score == 0


def test_large_board_restarts_keep_part_of_the_best_game_and_still_replay():
    # a random 6-colour board is (almost surely) not cleared: the solver restarts beams, some from
    # partway along its best game (restarts and tail beams), until the node budget is used; the
    # joined sequences must replay to the score
    board = random_board(30, 20, 6, seed=4)
    result = clickomania.solve(board, time=60, nodes=1_000_000)
    assert result.details["beam_runs"] >= 4 and result.verified and result.stopped == "nodes"
    replayed = rules.replay(board, result.solution)
    assert replayed.game_over and replayed.cells_left == result.score


def test_restart_plan_mixes_narrow_restarts_with_wider_beams():
    from gridsolver.clickomania.search import KEEP_SHARES, RESTART_WIDTH, WIDE_EVERY, restart_plan

    plans = [restart_plan(run) for run in range(4 * WIDE_EVERY + 1)]
    assert plans[0] == (1, 0, 0.0)
    assert [p[0] for p in plans if p[0] > RESTART_WIDTH] == [RESTART_WIDTH << k for k in range(1, 5)]
    assert len({p[1] for p in plans}) == len(plans)  # every run its own tie-breaks
    assert {p[2] for p in plans} == set(KEEP_SHARES)


def test_tail_beam_on_the_cropped_board_returns_a_whole_game_that_replays():
    # a tail beam replays part of a game, crops the board to its occupied part and maps its moves back:
    # on a ragged board (columns of mixed heights) the crop is smaller than the board both ways
    import numpy as np

    from gridsolver.clickomania.kernels.groups import index_to_move, to_cells, zobrist_table
    from gridsolver.clickomania.search import _beam_from, _play, _tail_start

    board = clearable_board(30, 20, 5, seed=3, style="ragged").board
    cells, n = to_cells(board.grid), board.width * board.height
    zob, no_limit = zobrist_table(n), 1 << 62
    _, first, _, _ = _beam_from(cells, board.width, board.height, zob, np.zeros(0, np.int32), 1, 0, (0, 0),
                                no_limit, no_limit)
    kept = _tail_start(cells, board.width, board.height, first, 150)
    assert 0 < kept < first.shape[0]
    assert (_play(cells, board.width, board.height, first[:kept]) >= 0).sum() <= 150
    assert (_play(cells, board.width, board.height, first[:kept - 1]) >= 0).sum() > 150
    for tie_seed in (0, 5):
        value, game, _, done = _beam_from(cells, board.width, board.height, zob, first[:kept], 8, tie_seed,
                                          (30, 500), no_limit, no_limit)
        assert done and game is not None and np.array_equal(game[:kept], first[:kept])
        replayed = rules.replay(board, [index_to_move(i, board.height) for i in game])
        assert replayed.game_over and replayed.cells_left == value
