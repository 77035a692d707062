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
    assert r["status"] == "optimal" and "exhaustive" in r["proof"]  # small enough to search exactly


def test_samegame_solve_show_numbers_the_start_board_by_click():
    from ..clickomania.test_picture import COLUMN, COLUMN_PICTURE, solve_show

    done = solve_show("samegame", COLUMN, "--time", "1", "--workers", "1")
    assert done.returncode == 0, done.stderr
    assert "points 1000" in done.stdout  # three pairs (0 points each) and the 1000 for clearing
    assert done.stdout.endswith(COLUMN_PICTURE + "\n") and "\x1b[" not in done.stdout


def test_a_board_of_a_shipped_set_by_its_label():
    """`solve 'duel-5x5#3'` solves the third board and labels it so; past the set's end is exit 2."""
    out = results(run("samegame", "solve", "duel-5x5#3", "--json", "--nodes", "2000", "--workers", "1"))
    assert [r["input"] for r in out] == ["duel-5x5#3"]
    past = run("samegame", "solve", "duel-5x5#201", "--time", "1")
    assert past.returncode == 2
    assert past.stderr == ("gridsolver: error: duel-5x5#201: no such board: duel-5x5 holds 200 boards "
                           "(#1 to #200)\n")
    whole = run("samegame", "format", "standard-20#20")
    assert whole.returncode == 0 and len(whole.stdout.splitlines()) == 15
