"""Fewest moves: each side's set starts small and grows with the search, up to its share of --memory."""

from unittest import mock

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from gridsolver import pegs
from gridsolver.core.budget import Budget
from gridsolver.core.kernels.stops import FOUND, OUT_OF_MEMORY, OUT_OF_TIME
from gridsolver.pegs import meet
from gridsolver.pegs.kernels import meet as meet_kernels
from tests.pegs.test_kernels import SETTINGS, boards

FIXED = 1 << 40  # FIRST_SLOTS past any budget: each side is made at its full size, as before growing


def searched(board, finish, budget: Budget, first_slots: int) -> meet.MeetSearch:
    with mock.patch.object(meet, "FIRST_SLOTS", first_slots):
        search = meet.MeetSearch(board, finish, budget)
    search.outcome = search.run()
    return search


def assert_same_search(grown: meet.MeetSearch, fixed: meet.MeetSearch) -> None:
    """The same answer, the same layers and the same work: growing changes nothing but memory."""
    assert grown.outcome == fixed.outcome
    assert grown.nodes == fixed.nodes
    assert grown.forward.bounds == fixed.forward.bounds
    assert grown.backward.bounds == fixed.backward.bounds
    if grown.outcome[0] == FOUND:
        assert grown.path(grown.outcome[2]) == fixed.path(fixed.outcome[2])


def test_both_sides_of_the_search_use_one_load_limit():
    assert meet.MAX_LOAD == meet_kernels.MAX_LOAD


@st.composite
def layered_orders(draw):
    """(order, count, bounds, slots): distinct positions, cut into layers, and a set with room."""
    order = draw(st.lists(st.integers(1, 2**64 - 1), min_size=1, max_size=300, unique=True))
    count = len(order)
    cuts = sorted(draw(st.lists(st.integers(0, count), max_size=6)))
    slots = 1 << (int(count / meet.MAX_LOAD) + 1).bit_length()
    return order, count, [0, *cuts], slots


@SETTINGS
@given(layered_orders())
def test_refill_matches_the_reference(case):
    order, count, bounds, slots = case
    keys = np.zeros(slots, dtype=np.uint64)
    levels = np.zeros(slots, dtype=np.int8)
    done = meet_kernels.refill(np.array(order, dtype=np.uint64), count, np.array(bounds, dtype=np.int64),
                               keys, levels, 2**62)
    expected_keys, expected_levels = meet.refilled(order, count, bounds, slots)
    assert done
    assert keys.tolist() == expected_keys and levels.tolist() == expected_levels


@SETTINGS
@given(boards(max_cells=16), st.booleans(), st.data())
def test_a_set_grown_from_16_slots_gives_the_search_of_a_full_size_one(board, with_finish, data):
    finish = data.draw(st.sampled_from(board.hole_cells())) if with_finish else None
    budget = Budget(time_s=None, memory_mb=64)
    grown = searched(board, finish, budget, first_slots=128)
    assert_same_search(grown, searched(board, finish, budget, first_slots=FIXED))


def test_the_triangle_grows_its_sets_and_keeps_its_answer():
    board = pegs.named("triangle")
    grown = searched(board, None, Budget(time_s=None, memory_mb=64), first_slots=128)
    assert grown.outcome[:2] == (FOUND, 10)
    assert grown.forward.slots > 128 and grown.backward.slots > 128  # both sides outgrew the first set
    assert grown.forward.slots < grown.forward.max_slots  # ... and stopped where the search did
    assert_same_search(grown, searched(board, None, Budget(time_s=None, memory_mb=64), first_slots=FIXED))


def test_a_full_budget_stops_for_memory_exactly_as_a_set_of_that_size_did():
    board, budget = pegs.named("english"), Budget(time_s=None, memory_mb=40)
    grown = searched(board, (3, 3), budget, first_slots=meet.FIRST_SLOTS)
    assert grown.outcome == (OUT_OF_MEMORY, None, None)
    full = [side for side in (grown.forward, grown.backward) if side.slots == side.max_slots]
    assert full, "the side that ran out had grown to its share of the budget"
    share_bytes = 0.4 * 40 * 2**20
    assert all(s.max_slots * meet.BYTES_PER_SLOT <= share_bytes for s in (grown.forward, grown.backward))
    assert 0 < grown.proved_insufficient() < 18  # 18 moves is the answer: the bound stays honest
    assert_same_search(grown, searched(board, (3, 3), budget, first_slots=FIXED))


def test_the_first_sets_are_small_whatever_the_budget():
    search = meet.MeetSearch(pegs.named("english"), None, Budget(time_s=None, memory_mb=16_000))
    for side in (search.forward, search.backward):
        assert side.slots == meet.FIRST_SLOTS
        assert side.keys.nbytes + side.levels.nbytes + side.order.nbytes < 1 << 20
        assert side.max_slots * meet.BYTES_PER_SLOT > 1 << 30  # room to grow into the budget


def _side_with(positions: int) -> meet.Side:
    side = meet.Side(1 << (int(positions / meet.MAX_LOAD)).bit_length(), max_slots=1 << 30)
    side.order[:positions] = np.arange(1, positions + 1, dtype=np.uint64) * np.uint64(0x9E3779B1)
    side.bounds.append(positions // 2)  # layer 0, then half of layer 1 under way
    return side


def test_growing_keeps_every_position_and_its_level():
    count = 3 * meet_kernels.REFILL_CLOCK_EVERY
    side = _side_with(count)
    before = side.slots
    assert side.grow(count, 2**62) and side.slots == 2 * before
    levels = [side.level(int(p)) for p in side.order[:count]]
    assert levels == [0] * (count // 2) + [1] * (count - count // 2)
    assert int(np.count_nonzero(side.keys)) == count


def test_growing_past_the_deadline_says_so():
    count = 3 * meet_kernels.REFILL_CLOCK_EVERY
    side = _side_with(count)
    assert not side.grow(count, 0)


def test_a_search_whose_deadline_passes_while_a_set_grows_stops_for_time():
    board = pegs.named("english")
    with mock.patch.object(meet.Side, "grow", lambda self, count, deadline_ns: False):
        stopped = searched(board, (3, 3), Budget(time_s=None, memory_mb=64), first_slots=128)
    assert stopped.outcome == (OUT_OF_TIME, None, None)
