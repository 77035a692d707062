"""Budgets end to end (issue 15): the exact search's table follows the positions it stores, not --memory."""

import numpy as np
import pytest

from gridsolver import clickomania
from gridsolver.clickomania import rules, search
from gridsolver.clickomania.generate import random_board
from gridsolver.clickomania.kernels.exact import exact_search, exact_search_growing
from gridsolver.clickomania.kernels.groups import to_cells, zobrist_table
from gridsolver.core.budget import NO_LIMIT
from gridsolver.core.game import machine_memory_mb


def test_exact_table_starts_small_whatever_the_budget():
    board = rules.from_text("1212\n2121\n1122")  # no clearing: the exact search proves the minimum
    result = clickomania.solve(board, time=60, memory=min(8192.0, machine_memory_mb() / 2))
    assert result.status == "impossible" and result.verified
    # a table of the budget would be gigabytes; this search needs the first size only
    assert result.details["table_mb"] == 8 * search.FIRST_TABLE_SLOTS / 2**20


def test_exact_table_grows_with_the_positions_it_stores():
    board = random_board(20, 20, 6, seed=7)  # the exact search runs far longer than 300,000 nodes
    n = board.width * board.height
    slots = np.zeros(1, np.int64)
    *_, finished = exact_search_growing(to_cells(board.grid), board.width, board.height, zobrist_table(n),
                                        np.zeros(1 << 10, np.int64), 1 << 28, n, NO_LIMIT, 300_000,
                                        np.zeros(n, np.int32), slots)
    assert finished == 0  # stopped by the node limit
    assert 1 << 10 < slots[0] <= 1 << 20  # grown, at most ~3 slots a node: megabytes, not the 2 GB allowed


@pytest.mark.parametrize("seed", [s if s < 3 else pytest.param(s, marks=pytest.mark.slow) for s in range(12)])
def test_growing_table_proves_the_same_minimum(seed):
    """From a 16-slot table that doubles again and again, the exhaustive search proves what it
    proves with a big fixed table."""
    board = random_board(6, 5, 3 + seed % 2, seed=seed)
    n = board.width * board.height
    cells, zob = to_cells(board.grid), zobrist_table(n)
    fixed = exact_search(cells, board.width, board.height, zob, np.zeros(1 << 16, np.int64), n, NO_LIMIT,
                         NO_LIMIT, np.zeros(n, np.int32))
    slots = np.zeros(1, np.int64)
    grown = exact_search_growing(cells, board.width, board.height, zob, np.zeros(16, np.int64), 1 << 16, n,
                                 NO_LIMIT, NO_LIMIT, np.zeros(n, np.int32), slots)
    assert fixed[3] == grown[3] == 1  # both exhausted
    assert fixed[0] == grown[0]  # the same proved minimum
    assert 16 <= slots[0] <= 1 << 16


def test_growing_table_stops_at_its_ceiling():
    board = random_board(7, 6, 4, seed=3)
    n = board.width * board.height
    slots = np.zeros(1, np.int64)
    exact_search_growing(to_cells(board.grid), board.width, board.height, zobrist_table(n),
                         np.zeros(16, np.int64), 64, n, NO_LIMIT, NO_LIMIT, np.zeros(n, np.int32), slots)
    assert slots[0] == 64
