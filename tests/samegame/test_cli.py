"""The samegame command line: a verified score, as JSON."""

from gridsolver.clickomania import rules
from gridsolver.samegame import rules as samegame_rules

from ..clickomania.helpers import results, run


def test_samegame_solve_reports_a_verified_score():
    board = "\n".join(rules.format_board(rules.from_text(t)) for t in ["1122\n1212\n2211"])
    out = results(run("samegame", "solve", "-", "--json", "--time", "3", "--workers", "1", stdin=board))
    (r,) = out
    replayed = samegame_rules.replay(rules.from_text(board), r["solution"])
    assert r["verified"] and replayed.score == r["score"] and replayed.game_over
    assert r["status"] == "best-found"
