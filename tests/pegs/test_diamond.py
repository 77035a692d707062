"""Pagoda banks for finish problems (big boards) and the 41-hole diamond's single-vacancy starts."""

import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver import pegs
from gridsolver.core.budget import Budget
from gridsolver.pegs import endgame, pagoda, reference, rules, table
from gridsolver.pegs import finish as finish_search
from gridsolver.pegs.geometry import fixing, symmetries, transform
from tests.pegs.test_rules import named


def vacated(board: rules.Board, cell: rules.Cell) -> rules.Board:
    return board.with_pegs(board.holes & ~(1 << board.index(cell)))


@pytest.fixture
def banks_at_once(monkeypatch):
    """Every board takes the big boards' path: pagodas near the start, then the endgame pruned by pagodas
    before the first forward run."""
    monkeypatch.setattr(finish_search, "ENDGAME_AT_ONCE_HOLES", 0)


@pytest.mark.parametrize("name", ["3x6", "4x4", pytest.param("4x5", marks=pytest.mark.slow)])
def test_finish_searches_with_pagoda_banks_agree_with_brute_force(name, banks_at_once):
    board = named(name)
    decided = {"optimal": 0, "impossible": 0}
    by_pagodas = 0
    can = {}
    for start, finish in table.single_vacancy_problems(board):
        problem = vacated(board, start)
        result = pegs.solve(problem, finish=finish, time=10, seed=3)  # at most 1 s of linear programs
        if finish not in can:
            can[finish] = reference.finishers(board, board.index(finish))
        possible = problem.pegs in can[finish]
        assert result.status == ("optimal" if possible else "impossible"), (start, finish, result.proof)
        assert result.verified == possible
        by_pagodas += result.proof.startswith("pagoda functions")
        decided[result.status] += 1
    assert decided["optimal"] > 0 and decided["impossible"] > 0
    if name == "3x6":
        assert by_pagodas > 0  # some proofs come from the banks, and brute force agrees with each


def test_the_finish_bank_holds_exact_pagodas_that_rule_out_the_finish():
    board = vacated(pegs.named("diamond"), (0, 4))
    finish = board.index((5, 4))
    perms = [p for p in fixing(symmetries(board), board, (5, 4)) if transform(board.pegs, p) == board.pegs]
    found, empty_at = pagoda.finish_bank(rules.triples(board), board.holes, board.pegs, finish, perms, 30.0)
    assert found and empty_at is not None
    jumps = rules.triples(board)
    for w in found:
        assert pagoda.is_pagoda(w, jumps)
    # every position empty_at jumps from the start weighs less than the finish under one of them
    layer = reference.reachable_by_pegs(board, board.peg_count - empty_at)[board.peg_count - empty_at]
    for p in layer:
        assert any(pagoda.weight(w, p) < w.get(finish, Fraction(0)) for w in found)


def test_an_endgame_layer_pruned_by_pagodas_keeps_every_reachable_finisher():
    board = vacated(named("4x4"), (0, 1))
    finish = (3, 1)
    plain, pruned = endgame.Endgame(board, finish), endgame.Endgame(board, finish, pagodas=True)
    budget = Budget(nodes=10**9)
    plain.build(budget, 60.0, 1 << 26, board.peg_count - 1)
    pruned.build(budget, 60.0, 1 << 26, board.peg_count - 1)
    reachable = reference.reachable_by_pegs(board)
    for count in range(1, min(plain.pegs, pruned.pegs) + 1):
        for p in reachable.get(count, ()):
            assert pruned.contains(p) == plain.contains(p)
    assert pruned.positions() <= plain.positions()


@pytest.mark.slow
def test_diamond_starts_are_decided():
    """The start one hole above the centre: every finish its class allows is proved impossible (pagodas);
    the start (1,3): one peg found at (4,2) and verified."""
    board = pegs.named("diamond")
    for finish in [(2, 4), (5, 1), (5, 4), (8, 4)]:
        result = pegs.solve(vacated(board, (3, 4)), finish=finish, time=60, memory=4096, seed=0)
        assert result.status == "impossible" and result.proof.startswith("pagoda functions"), finish
    result = pegs.solve(vacated(board, (1, 3)), finish=(4, 2), time=60, memory=4096, seed=0)
    assert result.status == "optimal" and result.verified and result.details["pegs_left"] == 1


@pytest.mark.slow  # 30-40 s on 2 shared cores
def test_the_corner_against_the_opposite_corner_is_proved_impossible_in_a_minute():
    """(0,4) -> (8,4) is its own dual under the up-down mirror: one side of the two-sided search is built,
    and its last layers never meet."""
    result = pegs.solve(vacated(pegs.named("diamond"), (0, 4)), finish=(8, 4), time=60, memory=4096, seed=0)
    assert result.status == "impossible", (result.status, result.stopped)
    assert "its own dual" in result.proof and result.details["meeting_self_dual"]


@given(st.lists(st.integers(0, (1 << 20) - 1), min_size=1, max_size=30), st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_first_meeting_and_heavy_enough_are_their_references(positions, seed):
    from gridsolver.pegs.kernels import endgame as layers

    board = named("4x5")
    ending = endgame.Endgame(vacated(board, (0, 1)), (2, 3))
    rng = np.random.default_rng(seed)
    perms = ending.perms
    keys = sorted({min(sum(1 << perm[k] for k in range(20) if q >> k & 1) for perm in perms)
                   for q in positions if rng.random() < 0.5})
    forward = [int(x) for x in rng.permutation(positions)]
    got = layers.first_meeting(np.array(forward, dtype=np.uint64), np.array(keys, dtype=np.uint64),
                               np.uint64(ending.all_holes), ending.images)
    assert got == reference.first_meeting(forward, keys, ending.all_holes, perms)
    weights = (rng.integers(-8, 9, size=(3, 64)) / 8).tolist()
    floors = (rng.integers(-16, 17, size=3) / 8).tolist()
    keep = np.zeros(len(positions), dtype=np.bool_)
    kept = layers.heavy_enough(np.array(positions, dtype=np.uint64), np.array(weights), np.array(floors),
                               keep)
    want = reference.heavy_enough(positions, weights, floors)
    assert keep.tolist() == want and kept == sum(want)


@pytest.mark.slow  # every single-vacancy problem of the board, each with its linear programs: 40-50 s
@pytest.mark.parametrize("name", ["3x6", "4x4"])
def test_a_meeting_decides_small_problems_as_brute_force_does(name):
    board = named(name)
    outcomes = set()
    for start, finish in table.single_vacancy_problems(board):
        problem = vacated(board, start)
        meeting = endgame.Meeting(problem, finish)
        # a 5 s deadline: at most 1 s of linear programs (the search itself takes milliseconds)
        outcome = meeting.run(Budget(nodes=10**9), 1 << 28, time.perf_counter() + 5)
        possible = problem.pegs in reference.finishers(board, board.index(finish))
        assert outcome == ("found" if possible else "impossible"), (start, finish)
        if outcome == "found":
            end = rules.replay(problem, meeting.line())
            assert end.peg_count == 1 and end.has_peg(finish)
        outcomes.add(outcome)
    assert outcomes == {"found", "impossible"}
