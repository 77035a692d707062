"""SameGame's scoring rules on Clickomania's boards: the points of a game, its end bonus and penalty."""

from gridsolver.clickomania import rules
from gridsolver.samegame import rules as samegame_rules


def test_samegame_scoring_bonus_and_penalty():
    b = rules.from_text("1112\n3333")
    # remove 3s (4 cells: 4 points), then 1s (3 cells: 1 point); the lone 2 stays
    outcome = samegame_rules.replay(b, [(1, 0), (1, 0)])
    assert outcome.score == 4 + 1 and outcome.cells_left == 1 and outcome.game_over
    cleared = samegame_rules.replay(rules.from_text("11\n22"), [(1, 0), (1, 0)])
    assert cleared.score == 0 + 0 + 1000
    left = samegame_rules.replay(rules.from_text("1234\n5678"), [], penalty=True)
    assert left.score == -(8 - 2) ** 2
