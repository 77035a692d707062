
"""The exact SameGame endgame kernel against a plain-Python memoised search, and the choice of tabu
colour built on it."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver import samegame
from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import random_board
from gridsolver.clickomania.kernels.groups import index_to_move, to_cells, zobrist_table
from gridsolver.samegame import rules as samegame_rules
from gridsolver.samegame import search
from gridsolver.samegame.kernels.endgame import endgame_line, endgame_value
from gridsolver.samegame.kernels.scoring import NO_VALUE
from gridsolver.samegame.polish import line_points
from gridsolver.samegame.reference import endgame_value as reference_value
from gridsolver.samegame.search import plan_tabu, tabu_candidates

from ..clickomania.helpers import NO_LIMIT, boards


def tables(bits: int = 12):
    size = 1 << bits
    return np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int32)


def kernel_value(b: rules.Board, penalty: bool, tbl=None):
    cells = to_cells(b.grid)
    zob = zobrist_table(b.width * b.height)
    keys, values, moves = tbl or tables()
    value, nodes, complete = endgame_value(cells, b.width, b.height, zob, keys, values, moves, penalty,
                                           NO_LIMIT, NO_LIMIT)
    return value, complete, cells, zob, (keys, values, moves)


@settings(max_examples=120, deadline=None)
@given(boards(max_side=5), st.booleans())
def test_endgame_value_matches_the_reference_and_its_line_scores_it(b, penalty):
    value, complete, cells, zob, tbl = kernel_value(b, penalty)
    assert complete == 1
    assert value == reference_value(b, penalty)
    out = np.zeros(b.width * b.height, np.int32)
    length = endgame_line(cells, b.width, b.height, zob, *tbl, out)
    assert length >= 0
    moves = [index_to_move(i, b.height) for i in out[:length]]
    replayed = samegame_rules.replay(b, moves, penalty=penalty)
    assert replayed.game_over and replayed.score == value


def test_a_table_is_reused_and_a_small_node_limit_reports_incomplete():
    grid = np.array([[1, 1, 2, 2], [2, 2, 1, 1], [1, 2, 1, 2], [2, 1, 2, 1]], np.int8)
    b = rules.Board(rules.settle(grid))
    cells = to_cells(b.grid)
    zob = zobrist_table(b.width * b.height)
    keys, values, moves = tables()
    value, nodes, complete = endgame_value(cells, 4, 4, zob, keys, values, moves, False, 2, NO_LIMIT)
    assert (value, complete) == (NO_VALUE, 0)
    value, nodes, complete = endgame_value(cells, 4, 4, zob, keys, values, moves, False, NO_LIMIT, NO_LIMIT)
    assert complete == 1 and nodes > 1 and value == reference_value(b, False)
    again, nodes, complete = endgame_value(cells, 4, 4, zob, keys, values, moves, False, 2, NO_LIMIT)
    assert (again, nodes, complete) == (value, 0, 1)  # answered from the table, no search


def test_tabu_candidates_are_the_four_most_frequent_colours_and_ties():
    assert tabu_candidates(rules.from_text("00001\n00011\n00211")) == [0]  # 9 cells against 5: dominant
    five = rules.from_text("0000011\n1112222\n3334444")  # counts 5, 5, 4, 3, 4
    assert tabu_candidates(five) == [0, 1, 2, 4]
    tied = rules.from_text("0000011\n1112222\n3334444\n3......")  # counts 5, 5, 4, 4, 4: tied fourth
    assert tabu_candidates(tied) == [0, 1, 2, 3, 4]


def test_tabu_plan_rates_every_candidate_in_full_rounds_and_takes_the_best():
    b = rules.from_text("0001\n0011\n2211\n3223")  # counts: 0:5, 1:5, 2:4, 3:2
    asked = []

    def rate(colours):
        asked.append(list(colours))
        return [{0: 100, 1: 95, 2: 300, 3: 200}[c] + 10 * i for i, c in enumerate(colours)]

    assert plan_tabu(b, 2, rate) == [2, 3] and asked == [[0, 1, 2, 3]]
    assert plan_tabu(b, 5, rate) == [2, 3, 0, 1, 2] and asked[-1] == [0, 1, 2, 3, 0]  # one round of five
    assert plan_tabu(b, 3, rate) == [2, 3, 1] and asked[-1] == [0, 1, 2, 3, 0, 1]  # 1's best run: 95 + 50
    assert plan_tabu(b, 1, rate) == [2]


def test_a_dominant_colour_is_every_workers_tabu_colour_without_rating():
    b = rules.from_text("00001\n00011\n00211")  # counts: 0:9, 1:5, 2:1

    def rate(colours):
        raise AssertionError("no rating needed")

    assert plan_tabu(b, 3, rate) == [0, 0, 0]


def test_tabu_plan_ties_in_rating_keep_the_more_frequent_colour():
    b = rules.from_text("0011\n0011\n2223")  # counts 4, 4, 3, 1

    assert plan_tabu(b, 2, lambda colours: [7] * len(colours)) == [0, 1]


def test_solve_samegame_runs_the_planned_colours_and_verifies(monkeypatch):
    monkeypatch.setattr(search, "EXACT_FIRST_CELLS", 0)  # the board is small enough to be solved exactly
    b = random_board(8, 8, 3, seed=5)
    # a node budget, not --time: starting the workers counts against --time, so on a loaded machine a
    # short time budget can leave the continuing runs no time at all (then nothing goes on)
    result = samegame.solve(b, nodes=20_000, workers=2, seed=1)
    ratings = result.details["tabu_ratings"]
    assert sorted(ratings) == sorted(rules.ALPHABET[c] for c in tabu_candidates(b))
    best_two = sorted(ratings, key=lambda c: -ratings[c])[:2]
    assert result.details["tabu_colours"] == best_two and result.score >= max(ratings.values())
    # each worker went on from its colour's rating run, whose best game still counts
    assert all(w >= ratings[c] for w, c in zip(result.details["worker_scores"], best_two, strict=True))
    assert "going on from its rating run" in result.details["found_by"]
    assert result.verified and samegame_rules.replay(b, result.solution).score == result.score


def test_endgame_nodes_are_counted_apart_from_the_playouts(monkeypatch):
    # one worker runs in this process, so its ending solver can be replaced by one that reports 777 nodes
    b = rules.from_text("00001\n00011\n00211\n00100")  # a dominant colour: no rating runs
    monkeypatch.setattr(search, "EXACT_FIRST_CELLS", 0)  # NRPA's path, not the exact search from the start
    calls = []
    # the first solve in a process warms the kernels with solves of its own, which would call the fake
    # too: a test run alone (not after other tests in its process) saw three calls
    samegame.solve(b, nodes=300, workers=1, seed=2)

    def fake_polish(cells, width, height, seq, penalty, deadline_ns, node_limit, memory_bytes):
        calls.append(len(seq))
        return line_points(cells, width, height, seq, penalty), seq, 777

    monkeypatch.setattr(search, "polish_ending", fake_polish)
    result = samegame.solve(b, nodes=300, workers=1, seed=2)
    assert len(calls) == 1 and result.details["endgame_nodes"] == 777
    assert 777 < result.stats.nodes <= 300 + 777  # the playouts, at most the node budget, and the 777
    assert result.verified
