"""Known facts about peg solitaire, checked by the solvers (every solution replayed)."""

import re
from dataclasses import replace

import pytest

from gridsolver import pegs
from gridsolver.core.budget import Budget
from gridsolver.core.errors import InputError
from gridsolver.core.result import Result
from gridsolver.pegs import generate, geometry, jumps, rules, search, table
from gridsolver.pegs.game import GAME
from gridsolver.pegs.layout import centroid
from tests.pegs.test_rules import named


def replayed(board: rules.Board, result) -> rules.Board:
    return rules.replay(board, [rules.parse_jump(s) for s in result.solution])


def test_english_central_game_is_solvable():
    board = named("english")
    result = pegs.solve(board, finish=(3, 3), time=60)
    assert result.status == "optimal" and result.verified and result.score == 31
    assert result.options == {"objective": "finish", "finish": [3, 3]} and result.stopped is None
    final = replayed(board, result)
    assert final.peg_count == 1 and final.has_peg((3, 3))


def test_european_central_game_is_impossible():
    result = pegs.solve(pegs.named("french"), objective="finish", finish="3,3", time=60)
    assert result.status == "impossible" and "position classes" in result.proof
    assert result.solution is None and not result.verified


def test_exhaustive_search_proves_an_impossible_finish_that_classes_allow():
    # 3x5, vacancy (1,2): position classes allow a finish at (1,2), but only 2 jumps are possible
    board = named("3x5")
    result = pegs.solve(board, objective="finish", finish=(1, 2), time=60)
    assert result.status == "impossible" and "exhaustive" in result.proof
    jumps = pegs.solve(board, objective="jumps", time=60)
    assert jumps.status == "optimal" and "exhaustive" in jumps.proof and jumps.score == 2
    # 4x4, vacancy (1,1): no finish hole passes the position-class test; 13 jumps at most
    four = pegs.solve(named("4x4"), objective="jumps", time=60)
    assert four.status == "optimal" and four.details["pegs_left"] == 2


def test_triangle_reaches_one_peg_with_six_directions():
    result = pegs.solve(named("triangle"), time=60)
    assert result.status == "optimal" and result.verified and result.details["pegs_left"] == 1
    assert result.options == {"objective": "jumps", "strategy": "default"}


def test_fewest_moves_on_the_triangle():
    result = pegs.solve(named("triangle"), objective="moves", time=60, memory=256)
    assert result.status == "optimal" and result.verified
    assert result.score == rules.count_moves([rules.parse_jump(s) for s in result.solution])
    assert result.score == 10  # checked against reference.fewest_moves (slow in plain Python)


def test_jumps_are_anytime_and_honour_the_time_budget():
    board = generate.random_board(30, 30, 0.8, seed=1)
    pegs.solve(board, objective="jumps", time=0.5, seed=2)  # compile the kernels
    notes: list[str] = []
    result = pegs.solve(board, objective="jumps", time=1.0, seed=2, progress=notes.append)
    assert result.verified and result.status in ("best-found", "optimal")
    assert notes and notes[-1].startswith(f"best {result.details['pegs_left']} pegs left")
    assert result.stats.elapsed_s < 20.0  # generous: the kernels stop at the deadline
    assert result.score > 0


def test_published_method_honours_memory():
    board = generate.random_board(20, 20, 0.8, seed=1)
    result = pegs.solve(board, strategy="published", time=30, memory=8, seed=2)
    assert result.verified and result.status == "best-found" and result.stopped == "memory"


def test_single_vacancy_problems_up_to_symmetry():
    problems = table.single_vacancy_problems(named("english"))
    starts = {start for start, _ in problems}
    assert len(starts) == 7  # the 33 holes fall into 7 orbits under the 8 symmetries
    assert len(problems) == 151


def test_triangle_table():
    board = named("triangle")
    problems = table.single_vacancy_problems(board)
    results = [table.table_job((board, s, f, 30.0, 256.0, None, 0, "t")) for s, f in problems]
    text = table.format_table(board, problems, results)
    assert "solvable" in text and "impossible" in text and "unknown" not in text
    # one summary line per start orbit; the orbits cover every hole once
    summaries = re.findall(r"\((\d+) holes? alike\): one peg anywhere (\w+)", text)
    assert len(summaries) == len({start for start, _ in problems})
    assert sum(int(n) for n, _ in summaries) == board.hole_count
    assert {what for _, what in summaries} <= {"solvable", "impossible"}
    for (start, finish), result in zip(problems, results, strict=True):
        if result.status == "optimal":
            full = board.with_pegs(board.holes & ~(1 << board.index(start)))
            assert replayed(full, result).has_peg(finish)


def test_a_problem_and_its_dual_are_decided_alike():
    # a game from s to F read backwards on the complemented board is a game from F to s: every English
    # problem the position classes leave open whose dual is listed earlier gets that one's answer, a
    # game turned round and replayed, or its impossibility
    board = named("english")
    problems = table.single_vacancy_problems(board)
    duals = table.dual_problems(board, problems)
    assert len(duals) == 5 and all(j < i for i, (j, _) in duals.items())
    for i, (j, p) in duals.items():
        own = table.table_job((board, *problems[i], 60.0, 512.0, None, 0, "own"))
        dual = table.table_job((board, *problems[j], 60.0, 512.0, None, 0, "dual"))
        derived = table.from_dual(board, problems[i], problems[j], p, dual, "derived")
        assert derived is not None and derived.status == own.status == dual.status
        assert derived.details["dual_of"] == [list(problems[j][0]), list(problems[j][1])]
        if derived.status == "optimal":
            start, finish = problems[i]
            assert derived.verified and replayed(table.problem_board(board, start), derived).has_peg(finish)
        else:
            assert derived.proof.startswith("impossible as the dual of") and dual.proof in derived.proof


def test_no_dual_for_an_undecided_problem_or_a_game_that_does_not_replay():
    board = named("english")
    problems = table.single_vacancy_problems(board)
    i, (j, p) = next(iter(table.dual_problems(board, problems).items()))
    dual = table.table_job((board, *problems[j], 60.0, 512.0, None, 0, "dual"))
    assert dual.status == "optimal"
    undecided = Result("pegs", "x", "not-found")
    assert table.from_dual(board, problems[i], problems[j], p, undecided, "derived") is None
    broken = replace(dual, solution=list(reversed(dual.solution)))
    broken.verified = True
    assert table.from_dual(board, problems[i], problems[j], p, broken, "derived") is None


@pytest.mark.slow
def test_english_table_every_problem_decided():
    board = named("english")
    problems = table.single_vacancy_problems(board)
    results = [table.table_job((board, s, f, 120.0, 2048.0, None, 0, "e")) for s, f in problems]
    assert all(r.status in ("optimal", "impossible") for r in results)
    assert all(r.verified for r in results if r.status == "optimal")


def test_bad_objective_arguments():
    board = named("english")
    with pytest.raises(InputError, match="not a hole"):
        pegs.solve(board, objective="finish", finish=(0, 0))
    with pytest.raises(InputError, match="needs --finish"):
        pegs.solve(board, objective="finish")
    with pytest.raises(InputError, match="not jumps"):
        pegs.solve(board, objective="jumps", finish=(3, 3))
    with pytest.raises(InputError, match="published"):
        pegs.solve(board, objective="finish", finish=(3, 3), strategy="published")


def test_a_labelled_solve_through_the_game_verifies():
    board = named("english")
    result = GAME.solve(board, label="central", objective="finish", finish=(3, 3), time=60, memory=512)
    assert result.input == "central" and result.status == "optimal" and result.verified
    assert result.board == pegs.format(board) and result.options["finish"] == [3, 3]


def test_the_searches_alone_do_not_verify():
    result = search.search(named("triangle"), Budget(time_s=30), objective="jumps")
    assert result.status == "optimal" and result.solution and not result.verified
    assert pegs.GAME.check(named("triangle"), result.solution).complete


def test_a_stopped_jumps_search_still_ends_where_no_jump_is_left():
    board = generate.random_board(20, 20, 0.8, seed=3)
    result = pegs.solve(board, time=0.3, seed=1)
    assert result.status in ("best-found", "optimal") and result.verified
    final = rules.replay(board, [rules.parse_jump(s) for s in result.solution])
    assert rules.legal_jumps(final) == [] and result.score == board.peg_count - final.peg_count


@pytest.mark.parametrize("name", ["english", "triangle", "diamond", "5x5"])
def test_pagoda_never_grows_under_a_jump(name):
    board = named(name)
    for finish in board.hole_cells()[::3]:
        weight = geometry.pagoda_for(board, finish)
        assert weight is not None and weight[board.index(finish)] == 1.0
        for a, b, c in rules.triples(board):
            assert weight[a] + weight[b] >= weight[c] - 1e-12



def test_the_next_beam_centre_moves_toward_the_peg_left_farthest_out():
    board = generate.random_board(10, 10, 0.5, seed=1000)
    middle = centroid(board)
    assert jumps.toward_stranded(board, [], middle) == middle  # no line yet: stay at the centroid
    line = search.play_out(board, [])
    last = rules.replay(board, line).peg_cells()
    far = max(last, key=lambda c: (c[0] - middle[0]) ** 2 + (c[1] - middle[1]) ** 2)
    r, c = jumps.toward_stranded(board, line, middle)
    shift = jumps.BEAM_SHIFT
    expected = (middle[0] + shift * (far[0] - middle[0]), middle[1] + shift * (far[1] - middle[1]))
    assert (r, c) == pytest.approx(expected)
    pair = board.with_pegs(1 << board.index((0, 0)) | 1 << board.index((0, 1)))
    assert jumps.toward_stranded(pair, [((0, 0), (0, 2))], middle) == middle  # one peg left: none stranded


def test_a_node_budget_gives_the_depth_first_phase_nodes_not_a_clock_of_its_own():
    """Under --nodes the most-jumps search repeats exactly: its first phase stops at a node count, where a
    time share (a second) would stop it wherever a loaded machine happened to be."""
    from gridsolver.core.budget import Budget
    from gridsolver.pegs.jumps import PHASE_ONE_NODES, phase_one_budget

    overall = Budget(time_s=60, nodes=3_000_000)
    first = phase_one_budget(overall)
    assert first.nodes == PHASE_ONE_NODES and first.deadline_ns() == overall.deadline_ns()
    assert phase_one_budget(Budget(time_s=60, nodes=1000)).nodes == 1000
    timed = phase_one_budget(Budget(time_s=10))
    assert timed.time_s == 0.5 and timed.nodes is None
    assert phase_one_budget(Budget(time_s=None)).nodes == 5_000_000


@pytest.mark.parametrize("bundle", ["Geometry", "Finish", "Order", "Table", "Ceilings", "MoveBound",
                                    "Ranking", "Doom"])
def test_a_kernel_cache_naming_a_bundle_by_its_older_module_still_unpickles(bundle):
    """Numba unpickles a cache's index before it finds the index stale, and indexes written by earlier
    versions name the kernels' bundles as ``gridsolver.pegs.search.<bundle>``: such a name must still
    resolve, to the bundle itself, or every kernel call fails on an old cache."""
    import pickle

    from gridsolver.pegs import layout

    older = f"cgridsolver.pegs.search\n{bundle}\n.".encode()  # the class by module and name (pickle's GLOBAL)
    assert pickle.loads(older) is getattr(layout, bundle)
