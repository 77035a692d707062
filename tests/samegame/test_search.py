
"""The SameGame solver's answers: every method returns a game that replays to its score."""

from gridsolver import samegame
from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import random_board


def test_samegame_methods_all_return_verified_games():
    board = random_board(8, 8, 3, seed=4)
    for method in ("nrpa", "mcbeam", "beam", "nmcs"):
        result = samegame.solve(board, time=1, workers=1, method=method, penalty=True)
        assert result.verified
        assert rules.replay(board, result.solution, penalty=True).score == result.score
