"""Fewest moves: the meet-in-the-middle kernels against the plain-Python references."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridsolver import pegs
from gridsolver.core.budget import Budget
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND
from gridsolver.pegs import meet, moves, reference, rules
from gridsolver.pegs.kernels import meet as meet_kernels
from tests.pegs.test_kernels import SETTINGS, boards

named = pegs.named


def kernel_distances(board: rules.Board, starts: list[int], finish, reverse: bool) -> dict[int, int]:
    """Run ``kernels.meet.expand`` layer by layer until a layer is empty; canonical position -> moves."""
    dense = meet.Dense(board)
    perms = dense.group(finish)
    side = meet.Side(1 << 16)  # room for every position of a 12-hole board
    other = meet.Side(1 << 4)
    images = meet.byte_images(perms)
    start, over, to = meet.adjacency(dense)
    count = 0
    for p in starts:
        canon = np.uint64(meet.canonical(dense.mask(p), perms))
        count = meet_kernels.add_start(side.keys, side.levels, side.order, count, canon)
    side.bounds.append(count)
    stats = np.zeros(4, dtype=np.int64)
    meeting = np.zeros(1, dtype=np.uint64)
    while side.layer_size():
        code = meet_kernels.expand(side.order, side.bounds[-2], side.bounds[-1],
                                   meet_kernels.Chains(start, over, to), images, reverse,
                                   meet_kernels.Reached(side.keys, side.levels), side.depth + 1,
                                   meet_kernels.Reached(other.keys, other.levels), 1 << 40, 2**62, stats,
                                   meeting)
        assert code == EXHAUSTED
        side.bounds.append(int(stats[3]))
    return {int(k): int(v) for k, v in zip(side.keys, side.levels, strict=True) if k}


def canonical_distances(board: rules.Board, dist: dict[int, int], finish) -> dict[int, int]:
    dense = meet.Dense(board)
    perms = dense.group(finish)
    out: dict[int, int] = {}
    for p, d in dist.items():
        c = meet.canonical(dense.mask(p), perms)
        assert out.get(c, d) == d  # symmetric positions are the same number of moves away
        out[c] = d
    return out


@SETTINGS
@given(boards(max_cells=12))
def test_forward_layers_match_reference(board):
    expected = canonical_distances(board, reference.move_distances(board, set()), None)
    assert kernel_distances(board, [board.pegs], None, reverse=False) == expected


@SETTINGS
@given(boards(max_cells=10), st.data())
def test_backward_layers_match_reference(board, data):
    finish = data.draw(st.sampled_from(board.hole_cells()))
    end = 1 << board.index(finish)
    expected = canonical_distances(board, reference.move_distances(board, {end}, reverse=True), finish)
    assert kernel_distances(board, [end], finish, reverse=True) == expected


@SETTINGS
@given(boards(max_cells=16))
def test_chains_are_single_moves_both_ways(board):
    dense = meet.Dense(board)
    adj: dict[int, list[tuple[int, int]]] = {}
    for a, b, c in dense.triples():
        adj.setdefault(a, []).append((b, c))
    here = dense.mask(board.pegs)
    ahead = set()
    for child, pairs in meet.chains(here, adj, reverse=False):
        jumps = [(dense.cell(a), dense.cell(c)) for a, c in pairs]
        after = rules.replay(board, jumps).pegs
        assert dense.mask(after) == child and rules.count_moves(jumps) == 1
        ahead.add(after)
    assert ahead == reference.one_move(board, board.pegs)
    board_of = {dense.mask(1 << bit): bit for bit in dense.bits}
    for before, pairs in meet.chains(here, adj, reverse=True):
        jumps = [(dense.cell(a), dense.cell(c)) for a, c in pairs]
        start = board.with_pegs(sum(1 << board_of[1 << k] for k in range(len(dense.bits)) if before >> k & 1))
        assert rules.replay(start, jumps).pegs == board.pegs
        assert rules.count_moves(jumps) == 1


@SETTINGS
@given(boards(max_cells=12), st.booleans(), st.data())
def test_deepening_matches_reference(board, with_finish, data):
    """The iterative-deepening kernel (used for boards over 64 bits) still agrees with the reference."""
    finish = data.draw(st.sampled_from(board.hole_cells())) if with_finish else None
    if board.peg_count < 2:
        return
    status, jumps, _, _, _, _ = moves.solve_moves_deepening(board, finish, Budget(time_s=30, memory_mb=64))
    expected = reference.fewest_moves(board, None if finish is None else board.index(finish))
    if expected is None:
        assert status == "impossible"
    else:
        assert status == "optimal" and rules.count_moves(jumps) == expected


def test_symmetry_group_fixes_start_and_finish():
    board = named("english")
    perms = meet.Dense(board).group((3, 3))
    assert len(perms) == 8 and perms[0] == tuple(range(33))
    off_centre = board.with_pegs(board.holes & ~(1 << board.index((2, 3))))
    assert len(meet.Dense(off_centre).group((2, 3))) == 2  # the mirror through column 3, and the identity


@pytest.mark.slow
def test_english_central_game_takes_18_moves_proved():
    result = pegs.solve(named("english"), objective="moves", finish=(3, 3), time=300, memory=2048)
    assert result.status == "optimal" and result.verified and result.score == 18
    assert rules.count_moves([rules.parse_jump(s) for s in result.solution]) == 18
    assert "17 moves or fewer" in result.proof
    assert result.details["moves_proved_insufficient"] == 17


def test_budgets_stop_the_search_with_an_honest_bound():
    board = named("english")
    result = pegs.solve(board, objective="moves", finish=(3, 3), time=0.5)
    assert result.status == "not-found" and result.stopped == "time"
    proved = result.details["moves_proved_insufficient"]
    assert 0 < proved < 18 and f"no solution in {proved} moves" in result.proof
    small = pegs.solve(board, objective="moves", finish=(3, 3), time=120, memory=40)
    assert small.status == "not-found" and small.stopped == "memory"
    assert small.details["moves_proved_insufficient"] < 18


@pytest.mark.parametrize("name, finish, expected", [("triangle", None, 10)])
def test_small_named_boards(name, finish, expected):
    result = pegs.solve(named(name), objective="moves", finish=finish, time=60)
    assert result.status == "optimal" and result.verified and result.score == expected


def test_ends_are_every_hole_without_a_finish():
    board = named("triangle")
    search_ = meet.MeetSearch(board, None, Budget(time_s=60, memory_mb=64))
    code, found, meeting = search_.run()
    assert code == FOUND and found == 10
    singles = {meet.canonical(1 << k, search_.perms) for k in range(board.hole_count)}
    assert search_.backward.bounds[1] == len(singles)


def test_dense_numbering_takes_boards_over_64_bits():
    board = named("diamond")  # 41 holes, 90 bits in the board numbering
    assert board.bits > 64 and meet.fits(board)
    result = pegs.solve(board, objective="moves", time=2)
    assert result.details["method"] == "meet in the middle"
    assert result.status == "not-found" and result.details["moves_proved_insufficient"] >= 5
