import random

import pytest

from gridsolver import bunny
from gridsolver.bunny.notation import parse_program
from gridsolver.bunny.rules import board_from_text, simulate, token_count

from .helpers import brute_force_optimum, random_connected_board


def _challenge(number):
    return bunny.named(f"challenge/{number:02d}")


@pytest.mark.parametrize("number, tokens", [(1, 2), (2, 4), (3, 4), (4, 5), (5, 5), (6, 4)])
def test_known_optimum_of_the_six_levels(number, tokens):
    board = _challenge(number)
    result = bunny.solve(board, time=60)
    assert result.status == "optimal" and result.score == tokens
    unit = "token" if tokens == 2 else "tokens"
    assert result.proof == (f"optimal: no program of {tokens - 1} {unit} solves this board, "
                            "for any loop counts")
    for text in (result.solution, result.details["finite_form"]):
        program = parse_program(text)
        assert token_count(program) == tokens and simulate(board, program).solved
    assert result.verified


def test_finite_form_has_the_smallest_final_count():
    board = _challenge(4)
    finite = parse_program(bunny.solve(board, time=60).details["finite_form"])
    last = finite[-1]
    assert last.count is not None
    smaller = finite[:-1] + (type(last)(last.count - 1, last.body),)
    assert not simulate(board, smaller).solved


def test_optimum_agrees_with_brute_force_on_tiny_boards():
    """The search never claims more tokens than a brute force finds, and finds what it finds."""
    rng = random.Random(3)
    checked = 0
    for _ in range(60):
        board = random_connected_board(rng, rng.randint(1, 3), rng.randint(2, 4))
        if not board.targets():
            continue
        result = bunny.solve(board, time=30)
        assert result.status == "optimal"
        brute = brute_force_optimum(board, max_tokens=min(result.score, 4), max_count=8)
        if result.score <= 4:
            finite = parse_program(result.details["finite_form"])
            counts_small = all(t.count <= 8 for t in _loops(finite))
            if counts_small:
                assert brute == result.score, (board, result.solution)
        assert brute is None or brute >= result.score, (board, result.solution)
        checked += 1
    assert checked > 40


def _loops(program):
    for token in program:
        if not isinstance(token, str):
            yield token
            yield from _loops(token.body)


def test_all_lists_distinct_shortest_programs():
    board = _challenge(2)
    result = bunny.solve(board, time=30, all=True, limit=10)
    listed = result.details["all"]
    assert len(listed) == len(set(listed)) >= 2
    for text in listed:
        program = parse_program(text)
        assert token_count(program) == 4 and simulate(board, program).solved


def test_unreachable_square_is_unsolvable_without_searching():
    board = board_from_text("S#.#\n##..")
    result = bunny.solve(board, time=1)
    assert result.status == "impossible"
    assert "row 0, column 3" in result.proof and result.details["unreachable"] == [[0, 3]]


def test_all_marked_board_needs_no_tokens():
    result = bunny.solve(board_from_text("SO\nOO"), time=1)
    assert result.status == "optimal" and result.score == 0


def test_tiny_budgets_stop_honestly_with_a_verified_answer():
    board = _challenge(12)
    by_nodes = bunny.solve(board, time=60, nodes=5000)
    assert by_nodes.status == "best-found" and by_nodes.stopped == "nodes"
    by_memory = bunny.solve(board, time=60, memory=20)
    assert by_memory.status == "best-found" and by_memory.stopped == "memory"
    for result in (by_nodes, by_memory):
        assert result.verified and simulate(board, parse_program(result.solution)).solved
        assert result.proof.startswith("best found: every program of up to")


def test_optimum_agrees_with_brute_force_up_to_five_tokens():
    """Like the tiny-board check, on larger boards and every program of up to 5 tokens (counts <= 6)."""
    rng = random.Random(11)
    scores = []
    for _ in range(25):
        board = random_connected_board(rng, rng.randint(2, 4), rng.randint(2, 4), fill=0.8)
        if not board.targets():
            continue
        result = bunny.solve(board, time=60)
        brute = brute_force_optimum(board, max_tokens=min(result.score, 5), max_count=6)
        assert brute is None or brute >= result.score, (board, result.solution)
        finite = parse_program(result.details["finite_form"])
        if result.score <= 5 and all(t.count <= 6 for t in _loops(finite)):
            assert brute == result.score, (board, result.solution)
        scores.append(result.score)
    assert {5, 6} <= set(scores)  # both a found 5 and a proof that no 5 exists were checked


def _first_covering_level(board, levels):
    """The fewest tokens of a stored library fragment that solves the board (no top-level search)."""
    import numpy as np

    from gridsolver.bunny.kernels.enumeration import covering
    from gridsolver.bunny.search import Library
    from gridsolver.core.kernels.stops import EXHAUSTED

    lib = Library(board, 1 << 20)
    stats = np.zeros(4, np.int64)
    limits = np.array([1 << 62, 1 << 62], np.int64)
    target = np.zeros((board.size + 63) // 64, np.uint64)
    for q in board.targets():
        target[q >> 6] |= np.uint64(1 << (q & 63))
    for k in range(1, levels + 1):
        if k > lib.top:
            assert lib.build_next(limits, 10_000, stats) == EXHAUSTED
        hits = covering(lib.level_start[k], lib.level_end[k], lib.lib_r, lib.pool, board.start * 4, target)
        if len(hits):
            program = lib.program(hits[0])
            assert simulate(board, program).solved
            return k
    return None


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5, 6, 11])
def test_top_level_search_agrees_with_the_whole_library(number):
    """The k+1 / k+2 top-level search finds the same optimum as storing every level up to it."""
    board = _challenge(number)
    result = bunny.solve(board, time=60)
    assert _first_covering_level(board, result.score) == result.score


def test_top_level_search_agrees_with_the_whole_library_on_random_boards():
    rng = random.Random(5)
    compared = []
    for _ in range(30):
        board = random_connected_board(rng, rng.randint(2, 5), rng.randint(2, 5), fill=0.75)
        if not board.targets():
            continue
        result = bunny.solve(board, time=60)
        if result.score <= 6:
            assert _first_covering_level(board, result.score) == result.score, board
            compared.append(result.score)
    assert compared.count(6) >= 5 and compared.count(5) >= 3  # the k + 2 search was exercised


def test_the_challenge_scores_64_with_every_board_proved_optimal():
    """No time limit here, so a slow machine cannot fail it; the benchmark records the times."""
    scores = []
    for number in range(1, 13):
        board = _challenge(number)
        result = bunny.solve(board, time=None)
        assert result.status == "optimal" and result.verified, number
        assert simulate(board, parse_program(result.details["finite_form"])).solved
        scores.append(result.score)
    assert scores[:6] == [2, 4, 4, 5, 5, 4]
    assert sum(scores) == 64


@pytest.mark.parametrize("number, tokens", [(4, 5), (9, 6), (7, 7)])
def test_library_stops_three_tokens_short_of_the_optimum(number, tokens):
    """Programs of top + 3 tokens are searched from the start (with the loops of top + 1 stored), so
    a k-token optimum needs complete levels up to k - 3 only."""
    result = bunny.solve(_challenge(number), time=60)
    assert result.status == "optimal" and result.score == tokens
    assert result.details["library_tokens"] == tokens - 3


def test_stored_and_run_loop_layer_find_the_same_optimum(monkeypatch):
    """The top + 3 search with the loop layer stored (deduplicated) and with its loops run from the
    states where they start (the default from top = 2) prove the same optima."""
    from gridsolver.bunny import search

    rng = random.Random(8)
    boards = [random_connected_board(rng, rng.randint(3, 5), rng.randint(3, 5), fill=0.8) for _ in range(14)]
    boards = [b for b in boards if b.targets()]
    run = [bunny.solve(b, time=60) for b in boards]
    monkeypatch.setattr(search, "VIRTUAL_LAYER_FROM", 99)
    stored = [bunny.solve(b, time=60) for b in boards]
    assert [(r.status, r.score) for r in run] == [(r.status, r.score) for r in stored]
    assert all(r.status == "optimal" for r in run)
    assert max(r.score for r in run) >= 6  # the run layer (top >= 2) was used
