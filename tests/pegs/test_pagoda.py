"""Pagoda functions found by linear programming (issue 19): checked by hand and against brute force."""

import random
import subprocess
import sys
from fractions import Fraction

import pytest

from gridsolver import pegs
from gridsolver.pegs import generate, geometry, pagoda, reference, rules
from tests.pegs.test_rules import board_of


def seeds_slow(first: int, stop: int) -> list:
    """Seeds for the slow run only (the default suite keeps a few)."""
    return [pytest.param(s, marks=pytest.mark.slow) for s in range(first, stop)]


def every_position(board: rules.Board) -> set[int]:
    """Every position some game from ``board`` passes through (plain search)."""
    seen, todo = {board.pegs}, [board.pegs]
    while todo:
        position = todo.pop()
        for a, b, c in rules.triples(board):
            if position >> a & 1 and position >> b & 1 and not position >> c & 1:
                child = position ^ (1 << a | 1 << b | 1 << c)
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
    return seen


def rings(size: int, corners: list[tuple[int, int]]) -> rules.Board:
    """A ``size`` x ``size`` comesolo board, empty but for 3x3 rings of pegs (centre empty) at ``corners``."""
    grid = [["0"] * size for _ in range(size)]
    for r0, c0 in corners:
        for r in range(3):
            for c in range(3):
                grid[r0 + r][c0 + c] = "1" if (r, c) != (1, 1) else "0"
    return board_of("\n".join("".join(row) for row in grid))


def test_a_linear_program_pagoda_holds_on_every_jump():
    board = rings(12, [(0, 0)])
    holes = list(rules.bit_indices(board.holes))
    far = board.index((9, 9))
    found = pagoda.lp_pagoda(holes, rules.triples(board), board.pegs, 1 << far, lower=-1.0)
    assert found is not None
    # checked here on its own: exact fractions, every jump of the board, both ways along each line
    for r, c in board.hole_cells():
        for dr, dc in board.directions:
            over, into = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            if board.is_hole(over) and board.is_hole(into):
                w = [Fraction(found[board.index(x)]) for x in ((r, c), over, into)]
                assert w[0] + w[1] >= w[2]
    start = sum(Fraction(found[i]) for i in rules.bit_indices(board.pegs))
    assert found[far] > start  # so no peg ever reaches (9, 9)
    assert not pagoda.is_pagoda({**found, far: found[far] + 5}, rules.triples(board))  # the check can fail


def diamond_goals() -> tuple[rules.Board, list[int], list, list[int]]:
    """A diamond start, its holes and jumps, and 40 goals of six pegs each."""
    board = pegs.named("diamond").with_pegs(pegs.named("diamond").holes & ~(1 << 5))
    holes, jumps = list(rules.bit_indices(board.holes)), rules.triples(board)
    rng = random.Random(3)
    return board, holes, jumps, [sum(1 << h for h in rng.sample(holes, 6)) for _ in range(40)]


def test_a_kept_program_answers_each_goal_as_a_new_one_would():
    """The program made once per board gives every goal the answer a program made for it alone gives: no
    answer depends on the goals asked before it (the solver starts each from scratch)."""
    board, holes, jumps, goals = diamond_goals()
    kept = pagoda.PagodaProgram(tuple(holes), tuple(jumps), -1.0)
    asked = [kept.solve(board.pegs, goal, None) for goal in goals]
    alone = [pagoda.PagodaProgram(tuple(holes), tuple(jumps), -1.0).solve(board.pegs, goal, None)
             for goal in goals]
    assert asked == alone
    assert sum(found is not None for found in asked) >= 5  # some goals outweigh the start


def test_a_kept_programs_time_limit_counts_from_each_call():
    """HiGHS counts its time limit over all of a solver's runs: a program kept past the seconds a call
    allows still answers that call."""
    board, holes, jumps, goals = diamond_goals()
    kept = pagoda.PagodaProgram(tuple(holes), tuple(jumps), -1.0)
    unlimited = [kept.solve(board.pegs, goal, None) for goal in goals]
    allowed = kept.solver.getRunTime() / 4  # less than the runs so far, more than one run needs
    assert [kept.solve(board.pegs, goal, allowed) for goal in goals] == unlimited


def test_linear_programs_print_nothing():
    """HiGHS prints a banner as its first solver is made: a command's standard output (--json) stays clean."""
    code = ("import sys\n"
            "from gridsolver.pegs import pagoda, rules, named\n"
            "board = named('english')\n"
            "holes = list(rules.bit_indices(board.holes))\n"
            "found = pagoda.lp_pagoda(holes, rules.triples(board), board.pegs, 1 << holes[0], lower=-1.0)\n"
            "print(found is None, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert done.stderr.strip() in ("True", "False")


@pytest.mark.parametrize("seed", [*range(4), *seeds_slow(4, 12)])
def test_pegs_stay_in_the_holes_pagodas_leave_open(seed):
    rng = random.Random(seed)
    board = generate.random_board(rng.randint(3, 4), rng.randint(4, 6), rng.uniform(0.2, 0.45), seed=seed)
    board = board.with_jumps(rng.choice(["orthogonal", "diagonal"]))
    reach = geometry.reachable_holes(board) & pagoda.golden_reach(board)
    reach, _ = pagoda.occupiable_holes(rules.triples(board), reach, board.pegs)
    filled = 0
    for position in every_position(board):
        filled |= position
    assert filled & ~reach == 0


def pagoda_cases() -> list[rules.Board]:
    """Small sparse boards: brute force is cheap and pagodas often cut holes off."""
    boards = []
    for seed in range(40):
        rng = random.Random(seed)
        board = generate.random_board(rng.randint(3, 4), rng.randint(4, 6), rng.uniform(0.2, 0.5), seed=seed)
        boards.append(board.with_jumps(rng.choice(["orthogonal", "diagonal"])))
    return boards


@pytest.mark.parametrize("seed", [*range(4), *seeds_slow(4, 40)])
def test_the_pagoda_bound_never_passes_the_true_fewest(seed):
    board = pagoda_cases()[seed]
    bound = pagoda.pagoda_bound(board)
    assert geometry.fewest_pegs_bound(board).pegs <= bound.pegs
    assert 1 <= bound.pegs <= board.peg_count - reference.most_jumps(board)


def test_the_pagoda_bound_splits_far_apart_pegs():
    board = rings(14, [(0, 0), (11, 11)])
    assert geometry.fewest_pegs_bound(board).pegs == 1  # position classes alone see one group
    bound = pagoda.pagoda_bound(board)
    assert bound.pegs == 2 and bound.groups == 2 and bound.pagoda and "pagoda" in bound.proof


def test_a_pagoda_rules_out_a_single_survivor_the_classes_allow():
    # no hole is out of reach here, but one survivor in any hole would outweigh the start
    board = board_of("10100\n11011\n00000")
    assert geometry.fewest_pegs_bound(board).pegs == 1
    bound = pagoda.pagoda_bound(board)
    assert bound.pegs == 2 == board.peg_count - reference.most_jumps(board)
    assert "rule out a single peg in every hole" in bound.proof


@pytest.mark.slow
def test_the_pagoda_bound_proves_a_most_jumps_line_optimal():
    pegs.solve(rings(6, [(0, 0)]), objective="jumps", nodes=1000)  # load the compiled kernels
    board = rings(14, [(0, 0), (11, 11)])
    # 20,000 nodes: the depth-first phase finds a two-peg line but cannot exhaust the positions
    result = pegs.solve(board, objective="jumps", nodes=20_000, seed=1)
    assert result.status == "optimal" and result.verified
    assert result.details["pegs_left"] == 2 and result.details["fewest_pegs_possible"] == 2
    assert "pagoda" in result.proof and "exhaustive" not in result.proof
