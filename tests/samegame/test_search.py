
"""The SameGame solver's answers: every method returns a game that replays to its score."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver import samegame
from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import random_board
from gridsolver.clickomania.kernels.groups import to_cells
from gridsolver.samegame import rules as samegame_rules
from gridsolver.samegame import search

from ..clickomania.helpers import boards, cell_index


def test_samegame_methods_all_return_verified_games():
    board = random_board(8, 8, 3, seed=4)
    for method in ("nrpa", "mcbeam", "beam", "nmcs"):
        result = samegame.solve(board, time=1, workers=1, method=method, penalty=True)
        assert result.verified
        assert samegame_rules.replay(board, result.solution, penalty=True).score == result.score


@settings(max_examples=40, deadline=None)
@given(boards(max_side=6), st.integers(0, 10**6), st.booleans())
def test_line_points_scores_a_game_like_the_rules(b, seed, penalty):
    """search.line_points (kernels) against the plain-Python replay, on a random game to its end."""
    rng = np.random.default_rng(seed)
    board, moves = b, []
    while legal := [rules.canonical(g) for g in rules.groups(board) if len(g) >= 2]:
        moves.append(legal[rng.integers(len(legal))])
        board = rules.apply(board, moves[-1])
    seq = np.array([cell_index(m, b.height) for m in moves], np.int32)
    assert (search.line_points(to_cells(b.grid), b.width, b.height, seq, penalty)
            == samegame_rules.replay(b, moves, penalty=penalty).score)


def test_nrpa_aims_at_clearing_but_reports_the_plain_score(monkeypatch):
    """NRPA searches with the end penalty as its objective (NRPA_GUIDE_PENALTY); the answer is scored
    by the rules asked for, and on a node budget it is the same game every run."""
    board = random_board(9, 9, 4, seed=11)
    runs = [samegame.solve(board, nodes=3000, workers=1, seed=2) for _ in range(2)]
    assert runs[0].solution == runs[1].solution and runs[0].score == runs[1].score
    assert runs[0].verified and samegame_rules.replay(board, runs[0].solution).score == runs[0].score
    monkeypatch.setattr(search, "NRPA_GUIDE_PENALTY", False)
    plain = samegame.solve(board, nodes=3000, workers=1, seed=2)
    assert plain.verified and plain.solution != runs[0].solution  # the guide changes what NRPA plays


def test_nrpa_goes_a_level_up_only_when_both_limits_leave_room():
    long_s, long_playouts = search.LONG_SEARCH_S, search.LONG_SEARCH_PLAYOUTS
    assert search.nrpa_level(60.0, None) == search.NRPA_LEVEL
    assert search.nrpa_level(long_s, None) == search.NRPA_LONG_LEVEL
    assert search.nrpa_level(None, long_playouts - 1) == search.NRPA_LEVEL
    assert search.nrpa_level(None, long_playouts) == search.NRPA_LONG_LEVEL
    assert search.nrpa_level(long_s * 10, 3000) == search.NRPA_LEVEL  # the node budget is the short one
    assert search.nrpa_level(None, None) == search.NRPA_LONG_LEVEL


def test_a_long_search_rates_and_resumes_at_the_long_level(monkeypatch):
    """With the thresholds lowered, a small budget counts as long: the rating runs and the runs that go
    on from them are level 4, and the answer still replays to its score."""
    board = random_board(9, 9, 4, seed=11)
    short = samegame.solve(board, nodes=6000, workers=2, seed=3)
    monkeypatch.setattr(search, "LONG_SEARCH_PLAYOUTS", 5000)
    monkeypatch.setattr(search, "LONG_SEARCH_S", 1.0)
    long = samegame.solve(board, nodes=6000, workers=2, seed=3)
    assert short.details["nrpa_level"] == search.NRPA_LEVEL
    assert long.details["nrpa_level"] == search.NRPA_LONG_LEVEL
    assert f"level {search.NRPA_LONG_LEVEL}" in long.details["found_by"]
    assert long.verified and samegame_rules.replay(board, long.solution).score == long.score


def test_a_long_search_stays_at_level_3_when_level_4_does_not_fit(monkeypatch):
    board = random_board(9, 9, 4, seed=11)
    monkeypatch.setattr(search, "LONG_SEARCH_PLAYOUTS", 5000)
    monkeypatch.setattr(search, "LONG_SEARCH_S", 1.0)
    real_bytes = search._nrpa_bytes

    def level_4_too_big(n: int, level: int) -> int:
        return real_bytes(n, level) * (10**6 if level > search.NRPA_LEVEL else 1)

    monkeypatch.setattr(search, "_nrpa_bytes", level_4_too_big)
    result = samegame.solve(board, nodes=6000, workers=2, seed=3)
    assert result.details["nrpa_level"] == search.NRPA_LEVEL
    assert result.details["method"] == "nrpa" and "tabu_colours" in result.details  # NRPA ran, no beam
    assert result.verified


def test_a_small_board_is_solved_exactly_and_the_search_stops_there():
    """A board the exhaustive search finishes from the start is optimal (its score the plain-Python
    reference's), not a best-found after the whole budget."""
    from gridsolver import samegame
    from gridsolver.samegame.reference import endgame_value

    for board in samegame.load("duel-5x5")[:6]:
        for penalty in (False, True):
            result = samegame.solve(board, time=600, penalty=penalty)
            assert result.status == "optimal" and result.stopped is None and result.verified
            assert result.score == endgame_value(board, penalty)
            assert "exhaustive" in result.proof
