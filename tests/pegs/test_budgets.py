"""Budgets end to end (issue 15): memory follows what a search uses, never the budget it is given."""

import json
import subprocess
import sys
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridsolver import pegs
from gridsolver.core.budget import Budget
from gridsolver.core.game import machine_memory_mb
from gridsolver.pegs import depth_first, generate, jumps, moves, reference, rules
from gridsolver.pegs import finish as finish_search
from tests.pegs.test_kernels import SETTINGS, boards

named = pegs.named


def big_memory_mb() -> float:
    """A budget of gigabytes that this machine accepts (--memory may not pass its memory)."""
    return min(8192.0, machine_memory_mb() / 2)


@pytest.mark.slow  # 8 s cold: the default suite keeps the other budget tests
def test_published_arrays_follow_the_positions_met_not_the_budget():
    board = named("english")
    small = pegs.solve(board, strategy="published", nodes=20_000, memory=64, seed=3)
    big = pegs.solve(board, strategy="published", nodes=20_000, memory=big_memory_mb(), seed=3)
    assert small.verified and big.verified
    # the same search (same seed and nodes) holds the same arrays whatever the budget
    assert big.details["table_mb"] == small.details["table_mb"]
    assert big.details["positions"] == small.details["positions"]
    assert big.details["table_mb"] < 8  # 20,000 nodes: megabytes, where the whole budget is gigabytes


def test_published_limits_fit_the_budget():
    for memory_mb, words in ((8, 1), (512, 1), (4096, 15)):
        positions, seen_slots = jumps.published_limits(memory_mb << 20, words)
        per_position = 8 * words + 24 + 12
        # the ceilings, with one array being doubled (1.5x), stay within 60% of the memory
        assert 1.5 * (positions * per_position + 8 * seen_slots) <= 0.6 * (memory_mb << 20)
        assert seen_slots >= positions  # the visited set never fills before the pool


def test_published_still_stops_when_its_memory_is_full():
    board = generate.random_board(12, 12, 0.8, seed=4)
    result = pegs.solve(board, strategy="published", time=60, memory=1, seed=1)
    assert result.verified and result.stopped == "memory"
    assert result.details["table_mb"] <= 1


def test_fewest_moves_table_grows_with_use():
    """Over 64 holes fewest moves deepens on the move count: its table starts small and grows."""
    board = generate.random_board(9, 9, 0.7, seed=2)
    assert board.hole_count > 64
    small = pegs.solve(board, objective="moves", nodes=200_000, memory=64)
    big = pegs.solve(board, objective="moves", nodes=200_000, memory=big_memory_mb())
    assert big.details["table_mb"] == small.details["table_mb"] < 16
    assert big.details["move_limit_searched"] == small.details["move_limit_searched"]


@SETTINGS
@given(boards(max_cells=12), st.booleans(), st.data())
def test_deepening_with_a_growing_table_matches_reference(board, with_finish, data):
    """From the smallest table the deepening search grows it again and again and still agrees."""
    finish = data.draw(st.sampled_from(board.hole_cells())) if with_finish else None
    if board.peg_count < 2:
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(moves, "MOVES_FIRST_SLOTS", 1 << 4)
        status, jumps, *_ = moves.solve_moves_deepening(board, finish, Budget(time_s=30, memory_mb=64))
    expected = reference.fewest_moves(board, None if finish is None else board.index(finish))
    if expected is None:
        assert status == "impossible"
    else:
        assert status == "optimal" and rules.count_moves(jumps) == expected


@pytest.mark.slow
def test_published_on_a_big_budget_keeps_time_and_memory():
    """The whole command, as run by a user: the published method with gigabytes of budget took 37 s
    and 8.5 GB for --time 3 when its arrays were allocated (and zeroed) at the budget's size."""
    memory = big_memory_mb()
    pegs.solve(named("english"), strategy="published", nodes=1000)  # kernels compiled and cached
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "gridsolver", "pegs", "solve", "english", "--strategy",
                           "published", "--time", "2", "--memory", f"{memory:g}", "--json"],
                          capture_output=True, text=True, timeout=120)
    wall = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert wall < 2 + 10  # generous: start-up and the replay are outside --time
    assert result["stats"]["peak_memory_mb"] < 400 + 0.1 * memory


class Held:
    """A stopped meeting as :func:`gridsolver.pegs.finish.table_share_beside` sees it: the positions it
    keeps in memory."""

    def __init__(self, positions: int) -> None:
        self.positions = positions

    def held(self) -> int:
        return self.positions


@given(st.integers(0, 1 << 30), st.sampled_from([64.0, 4096.0]))
def test_the_table_after_a_meeting_fits_beside_the_layers_it_keeps(positions, memory_mb):
    """Half the memory for the depth-first runs' table, less when the meeting's last layers hold more
    than that; the two together stay within the budget while the layers leave 10% of it."""
    budget = Budget(memory_mb=memory_mb)
    limit = budget.memory_bytes()
    assert limit is not None
    share = finish_search.table_share_beside(budget, Held(positions))  # type: ignore[arg-type]
    held = 8 * positions
    assert depth_first.TABLE_SHARE_LEAST <= share <= depth_first.TABLE_SHARE
    if held <= limit / 2 - depth_first.TABLE_SHARE_LEAST * limit:
        assert share == depth_first.TABLE_SHARE
    if held <= 0.9 * limit:
        assert held + share * limit <= limit
