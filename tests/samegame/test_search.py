
"""The SameGame solver's answers: every method returns a game that replays to its score."""

import time
from dataclasses import replace

from gridsolver import samegame
from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import random_board
from gridsolver.samegame import rules as samegame_rules
from gridsolver.samegame import search
from gridsolver.samegame.polish import line_points

from ..clickomania.helpers import NO_LIMIT


def test_samegame_methods_all_return_verified_games():
    board = random_board(8, 8, 3, seed=4)
    for method in ("nrpa", "mcbeam", "beam", "nmcs"):
        result = samegame.solve(board, time=1, workers=1, method=method, penalty=True)
        assert result.verified
        assert samegame_rules.replay(board, result.solution, penalty=True).score == result.score


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


def test_nrpa_workers_report_what_the_tail_polish_found(monkeypatch):
    b = rules.from_text("00001\n00011\n00211\n00100")  # a dominant colour: no rating runs
    monkeypatch.setattr(search, "EXACT_FIRST_CELLS", 0)  # NRPA's path, not the exact search from the start
    samegame.solve(b, time=0.2, workers=1, seed=2)  # the first solve in a process warms the kernels

    def fake_tail(cells, width, height, seq, tabu, penalty, deadline_ns, node_limit, memory_bytes):
        calls.append(tabu)
        return line_points(cells, width, height, seq, penalty) + 5, seq, 999

    calls: list[int] = []
    monkeypatch.setattr(search, "polish_tail", fake_tail)
    monkeypatch.setattr(search, "polish_ending", lambda cells, w, h, seq, penalty, *_: (
        line_points(cells, w, h, seq, penalty) + 5, seq, 0))
    outcome = search.samegame_worker(search.SameGameTask(b.grid, 2, time.monotonic_ns() + 200_000_000,
                                                         NO_LIMIT, None, False))
    assert calls == [0]  # the most frequent colour, the worker's tabu colour
    assert outcome.tail_nodes == 999 and outcome.nodes > 999
    assert "tail re-searched by the tabu beam (+5)" in outcome.how


def test_under_a_node_budget_alone_the_polishers_get_their_shares_of_the_nodes():
    """As under a time budget, NRPA leaves TAIL_SHARE and POLISH_SHARE of a worker's nodes to the tail
    re-search and the exact ending (NRPA once took them all, and a node budget never polished)."""
    b = random_board(10, 10, 4, seed=7)
    task = search.SameGameTask(b.grid, 2, NO_LIMIT, 20_000, None, False)
    outcome = search.samegame_worker(task)
    assert outcome.tail_nodes > 0 and outcome.endgame_nodes > 0
    playouts = outcome.nodes - outcome.tail_nodes - outcome.endgame_nodes
    assert playouts <= 20_000 * (1 - search.TAIL_SHARE - search.POLISH_SHARE)
    assert outcome.nodes <= 20_000
    for method in ("nrpa", "beam"):  # and the run repeats exactly
        again = search.samegame_worker(replace(task, method=method))
        assert again == search.samegame_worker(replace(task, method=method))
        assert again.endgame_nodes > 0
