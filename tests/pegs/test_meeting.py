"""The two-sided search's sorted layers, its last look-up and self-dual problems (one side built)."""

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver import pegs
from gridsolver.core.budget import Budget
from gridsolver.core.kernels.keys import unique_in_place
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, OUT_OF_MEMORY
from gridsolver.pegs import depth_first, endgame, geometry, reference, rules, table
from gridsolver.pegs import finish as finish_search
from gridsolver.pegs.geometry import symmetries
from gridsolver.pegs.layout import Layout
from gridsolver.pegs.meet import byte_images
from tests.pegs.test_rules import named


def vacated(board: rules.Board, cell: rules.Cell) -> rules.Board:
    return board.with_pegs(board.holes & ~(1 << board.index(cell)))


def bank(rng, rows: int) -> tuple[list[list[float]], list[float]]:
    """Rows of weights and floors in eighths (exact sums in any order; a row need not be a pagoda)."""
    return (rng.integers(-8, 9, size=(rows, 64)) / 8).tolist(), (rng.integers(-24, 9, size=rows) / 8).tolist()


@given(st.lists(st.integers(0, (1 << 20) - 1), min_size=1, max_size=30), st.integers(0, 2**32),
       st.booleans(), st.booleans(), st.sampled_from([0, 2, 16, 1 << 10]), st.booleans())
@settings(max_examples=60, deadline=None)
def test_child_keys_merge_and_child_meeting_are_their_references(positions, seed, flipped, mapped,
                                                                 recent_slots, above):
    from gridsolver.pegs.kernels import endgame as layers

    board = named("4x5")
    ending = endgame.Endgame(vacated(board, (0, 0)), (3, 4))  # the 180-degree turn swaps the two
    mirror = endgame.self_dual_symmetry(ending.board, (3, 4))
    assert mirror is not None
    dense_mirror = tuple(ending.dense.number[mirror[bit]] for bit in ending.dense.bits)
    rng = np.random.default_rng(seed)
    weights, floors = bank(rng, int(rng.integers(0, 4)))
    jumps = layers.Jumps(*ending.tri)
    flip = ending.all_holes if flipped else 0
    pre = byte_images([dense_mirror]) if mapped else endgame.NO_IMAGE
    pagodas = layers.Pagodas(np.array(weights, dtype=np.float64).reshape(-1, 64), np.array(floors))
    layer = np.array(positions, dtype=np.uint64)
    out = np.zeros(4 * len(ending.tri[0]), dtype=np.uint64)  # a few positions' children per call
    recent = np.zeros(recent_slots, dtype=np.uint64)  # kept from call to call, as Children keeps it
    stats = np.zeros(3, dtype=np.int64)
    got: list[int] = []
    lo, calls = 0, 0
    while True:
        stats[1] = 0
        code = layers.child_keys(layer, lo, pre, jumps, np.uint64(flip), ending.images, pagodas, out, recent,
                                 above, 1 << 40, time.monotonic_ns() + 10**11, stats)
        assert code in (EXHAUSTED, OUT_OF_MEMORY)
        got += out[:stats[1]].tolist()
        calls += 1
        if code == EXHAUSTED:
            break
        lo = int(stats[2])
    triples = ending.dense.triples()
    want = reference.child_keys(positions, dense_mirror if mapped else None, triples, flip, ending.perms,
                                weights, floors, above)
    assert got == reference.without_recent_repeats(want, recent_slots)
    # kept once each, then merged in place with a sorted run: the sorted union, once each
    half = sorted(set(rng.choice(want, size=len(want) // 2).tolist())) if want else []
    new = np.sort(np.array(want, dtype=np.uint64))
    store = np.concatenate([np.array(half, dtype=np.uint64), new])
    kept = unique_in_place(store[len(half):])
    assert store[len(half):len(half) + kept].tolist() == sorted(set(want))
    n = layers.merge_runs(store, 0, len(half), kept, np.zeros(len(half), dtype=np.uint64))
    assert store[:n].tolist() == sorted(set(half) | set(want))
    # the first common value of two sorted arrays
    some = set(rng.integers(0, 1 << 20, size=20).tolist()) | set(want[::3])
    other = np.array(sorted(some), dtype=np.uint64)
    first = layers.first_common(new, other)
    common = [i for i, v in enumerate(new.tolist()) if v in set(other.tolist())]
    assert first == (common[0] if common else -1)
    # the first child whose complement is in a set
    keys = set(other.tolist())
    hashed = np.zeros(1 << 8, dtype=np.uint64)
    layers.insert_all(hashed, other[other != 0])
    stats[:] = 0
    code = layers.child_meeting(layer, 0, pre, jumps, np.uint64(ending.all_holes), ending.images, pagodas,
                                hashed, 1 << 40, time.monotonic_ns() + 10**11, stats)
    expected = reference.child_meeting(positions, dense_mirror if mapped else None, triples, ending.all_holes,
                                       ending.perms, weights, floors, keys - {0})
    assert (code == FOUND) == (expected is not None)
    if expected is not None:
        assert (int(stats[1]), int(stats[2])) == expected


@pytest.mark.parametrize("name, vacancy, finish", [("english", (2, 3), (4, 3)), ("4x5", (0, 1), (2, 3))])
def test_sorted_growth_gives_the_hash_sets_layers_and_nodes(name, vacancy, finish, monkeypatch):
    board = vacated(named(name), vacancy)
    budget = Budget(nodes=10**9)
    hashed = endgame.Endgame(board, finish)
    sorted_ = endgame.Endgame(board, finish)
    sorted_.sorted_from = 0
    monkeypatch.setattr(endgame, "CHUNK", 1 << 9)  # many chunks per layer (at least 4 positions' children)
    for _ in range(8):  # English: up to the 9-peg positions that can finish, 50,000 of them
        assert hashed.grow(budget, 1 << 24) and sorted_.grow(budget, 1 << 24)
    assert [layer.tolist() for layer in hashed.layers] == [layer.tolist() for layer in sorted_.layers]
    assert hashed.nodes == sorted_.nodes
    assert not sorted_.grow(budget, 4) and len(sorted_.layers) == 9  # over its limit: refused, none added


def test_self_dual_problems_are_found():
    diamond = pegs.named("diamond")
    corner = vacated(diamond, (0, 4))
    assert endgame.self_dual_symmetry(corner, (8, 4)) is not None  # the up-down mirror
    assert endgame.self_dual_symmetry(corner, (5, 1)) is None
    assert endgame.self_dual_symmetry(vacated(diamond, (1, 3)), (7, 5)) is not None  # the half turn
    assert endgame.self_dual_symmetry(vacated(diamond, (1, 3)), (4, 8)) is None
    english = pegs.named("english")
    assert endgame.self_dual_symmetry(english, (3, 3)) == symmetries(english)[0]  # the identity


@pytest.mark.parametrize("chunk", [1 << 23, 1 << 9])
@pytest.mark.parametrize("name", ["3x6", "4x4", "3x5", pytest.param("3x7", marks=pytest.mark.slow)])
def test_meetings_with_and_without_the_self_dual_shortcut_agree_with_brute_force(name, chunk, monkeypatch):
    """Without pagodas from linear programs (fast): every single-vacancy problem, sorted growth from the
    first layer on, the last look-up in one chunk or many."""
    monkeypatch.setattr(endgame, "SORTED_FROM", 0)
    monkeypatch.setattr(endgame, "CHUNK", chunk)
    board = named(name)
    self_dual = 0
    for start, finish in table.single_vacancy_problems(board):
        problem = vacated(board, start)
        possible = problem.pegs in reference.finishers(board, board.index(finish))
        for shortcut in (True, False):
            meeting = endgame.Meeting(problem, finish, pagodas=False)
            if not shortcut:
                meeting.mirror = None
            self_dual += meeting.mirror is not None
            outcome = meeting.run(Budget(nodes=10**9), 1 << 28, time.perf_counter() + 30)
            assert outcome == ("found" if possible else "impossible"), (start, finish, shortcut)
            if outcome == "found":
                end = rules.replay(problem, meeting.line())
                assert end.peg_count == 1 and end.has_peg(finish)
    assert self_dual > 0


def test_a_stopped_self_dual_meeting_hands_on_the_mirrored_pagodas():
    """The depth-first runs take the forward side's pagodas as cuts: when only the backward side was built,
    they are the images of its pagodas under the symmetry, even when the search stopped early."""
    board = vacated(pegs.named("diamond"), (0, 4))
    meeting = endgame.Meeting(board, (8, 4))
    assert meeting.run(Budget(nodes=10**9), 1 << 28, time.perf_counter() - 1.0) == "stopped"
    backward, forward = meeting.backward, meeting.forward
    assert len(forward.floors) == len(backward.floors) >= 1 and forward.golden == backward.golden
    mirror = meeting.mirror
    assert mirror is not None
    dense = backward.dense
    for k in range(len(backward.floors)):
        for number, bit in enumerate(dense.bits):
            assert forward.weights[k, dense.number[mirror[bit]]] == backward.weights[k, number]


@pytest.mark.parametrize("name", ["3x5", pytest.param("3x7", marks=pytest.mark.slow)])
def test_a_self_dual_middle_layers_jumps_into_itself_come_in_pairs(name, monkeypatch):
    """With an odd number of jumps, a self-dual problem looks its middle layer up in itself. Each jump
    from ``x`` to a child ``y`` in the layer has its partner from ``y`` to ``x``: why the look-up may
    take only the children at least their parent (``LookUp.above``). Checked jump by jump (pagodas
    from linear programs on), on every self-dual single-vacancy problem of the board."""
    from gridsolver.pegs.kernels import endgame as layers

    seen: list[tuple[endgame.LookUp, np.ndarray, np.ndarray]] = []
    look_up = endgame.Meeting._look_up

    def recorded(self, look, layer, other, budget, stop):
        seen.append((look, layer, other))
        return look_up(self, look, layer, other, budget, stop)

    monkeypatch.setattr(endgame.Meeting, "_look_up", recorded)
    board = named(name)
    assert board.peg_count % 2 == 0  # an odd number of jumps
    paired = 0
    for start, finish in table.single_vacancy_problems(board):
        problem = vacated(board, start)
        if endgame.self_dual_symmetry(problem, finish) is None:
            continue
        seen.clear()
        outcome = endgame.Meeting(problem, finish).run(Budget(nodes=10**9), 1 << 28,
                                                       time.perf_counter() + 30)
        if not seen:  # decided before its last look-up
            continue
        look, layer, other = seen[0]
        assert layer is other and look.above
        members = set(other.tolist())
        jumps = set()
        for x in layer:
            out = np.zeros(4 * len(look.jumps.a), dtype=np.uint64)
            stats = np.zeros(3, dtype=np.int64)
            layers.child_keys(np.array([x]), 0, look.pre, look.jumps, look.all_holes, look.images,
                              look.pagodas, out, np.zeros(0, dtype=np.uint64), False, 1 << 40,
                              time.monotonic_ns() + 10**11, stats)
            jumps |= {(int(x), y) for y in out[:stats[1]].tolist() if y in members}
        assert all((y, x) in jumps for x, y in jumps)
        assert (outcome == "found") == bool(jumps)
        paired += bool(jumps)
    assert paired > 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=30), st.lists(st.integers(0, 40), max_size=30))
def test_two_parts_merged_into_a_third_array_keep_each_value_once(first, second):
    from gridsolver.pegs.kernels import endgame as layers

    a, b = (np.array(sorted(set(values)), dtype=np.uint64) for values in (first, second))
    out = np.full(len(a) + len(b) + 2, 99, dtype=np.uint64)
    n = layers.merge_into(a, b, out)
    assert out[:n].tolist() == sorted(set(first) | set(second))
    assert out[n:].tolist() == [99] * (len(out) - n)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=30), st.lists(st.integers(0, 40), max_size=30),
       st.integers(0, 5), st.integers(0, 5))
def test_runs_merged_in_place_keep_each_value_once(first, second, before, after):
    """The in-place kernels against Python's sets: repeats dropped from a sorted run, then two runs side
    by side merged into their place (values in both, either one empty, others around them untouched)."""
    from gridsolver.pegs.kernels import endgame as layers

    run = np.array(sorted(second), dtype=np.uint64)
    kept = unique_in_place(run)
    assert run[:kept].tolist() == sorted(set(second))
    mine = sorted(set(first))
    store = np.array([99] * before + mine + run[:kept].tolist() + [77] * after, dtype=np.uint64)
    spare = np.full(len(mine), 55, dtype=np.uint64)
    n = layers.merge_runs(store, before, len(mine), kept, spare)
    assert store[before:before + n].tolist() == sorted(set(first) | set(second))
    assert store[:before].tolist() == [99] * before
    assert store[len(store) - after:].tolist() == [77] * after


@pytest.mark.parametrize("finish, want", [((0, 1), "optimal"), ((0, 2), "impossible")])
def test_after_a_stopped_meeting_the_dual_problem_is_searched_too(finish, want, monkeypatch):
    """The depth-first runs on the problem itself give up (here at once); those on its dual, down to the
    meeting's forward side, decide it: a game of the dual read backwards replays to one peg at the
    finish, or an exhaustive search of the dual proves the problem impossible."""
    from gridsolver.core.kernels.stops import OUT_OF_TIME

    problem = named("4x5").with_pegs(named("4x5").holes & ~1)  # (0, 0) empty
    meeting = endgame.Meeting(problem, finish, pagodas=False)
    assert meeting.mirror is None
    real = depth_first.restarted_dfs
    searched = []

    def dual_only(played, *args, **kwargs):
        searched.append(played)
        if played is problem:
            return OUT_OF_TIME, [], 0, 0, 0, {}
        return real(played, *args, **kwargs)

    monkeypatch.setattr(finish_search, "restarted_dfs", dual_only)
    perms = geometry.fixing(geometry.symmetries(problem), problem, finish)
    status, line, proof, _, _, extra = finish_search.finish_both_ways(
        meeting, Layout.of(problem, 0), perms, Budget(time_s=30), 0, {})
    assert searched == [problem, meeting.dual]
    assert status == want and "dual_restarts" in extra
    if want == "optimal":
        end = rules.replay(problem, line)
        assert end.peg_count == 1 and end.has_peg(finish)
    else:
        assert "dual problem" in proof


@given(st.integers(0, 2**32), st.integers(0, 63))
@settings(max_examples=30, deadline=None)
def test_pagoda_byte_tables_weigh_every_weighted_hole(seed, last):
    """A position's weight from the byte tables is the sum of its pegs' weights, up to the last
    weighted hole, even one that no jump touches."""
    from gridsolver.pegs.kernels import endgame as layers

    rng = np.random.default_rng(seed)
    weights, _ = bank(rng, 3)
    weights = np.array(weights)
    weights[:, last + 1:] = 0.0
    jumps = layers.Jumps(np.array([0]), np.array([1]), np.array([2]))  # holes 0-2 only
    tables = layers.steps(jumps, weights, np.zeros((0, 8, 256), dtype=np.uint64), layers.PARENT).tables
    for q in rng.integers(0, 2**63, size=20, dtype=np.uint64):
        q = int(q) | (1 << last)
        by_bytes = [sum(tables[k, j, (q >> 8 * j) & 255] for j in range(tables.shape[1])) for k in range(3)]
        by_pegs = [sum(weights[k, bit] for bit in range(64) if q >> bit & 1) for k in range(3)]
        assert by_bytes == by_pegs


def test_the_prediction_grows_the_smaller_side_and_prices_the_look_up_apart():
    meeting = endgame.Meeting(vacated(pegs.named("english"), (2, 3)), (4, 3))
    mirror = meeting.mirror
    assert mirror is not None
    meeting.mirror = None  # both sides built

    def side(ending: endgame.Endgame, count: int, last: list[int], seconds: float) -> None:
        ending.layers = [np.zeros(1, dtype=np.uint64)] * (count - 3) + [np.zeros(n, np.uint64) for n in last]
        ending.seconds = [0.0] * (count - 1) + [seconds]

    # 31 jumps; the sides' last layers span 13 + 14, so three more layers, then the look-up.
    # Both grow at 0.2 s a parent, doubling: the backward side (the smaller) grows all three.
    side(meeting.backward, 14, [100, 200, 400], 40.0)
    side(meeting.forward, 15, [1000, 2000, 4000], 400.0)
    grown = 0.2 * (400 + 800 + 1600)
    assert meeting.eta() == pytest.approx(grown + endgame.LOOK_UP_COST * 0.2 * 3200)
    # self-dual: the backward side alone, two jumps a layer, then its middle layer looked up in itself
    meeting.mirror = mirror
    assert meeting.eta() == pytest.approx(0.2 * (400 + 800) + endgame.look_up_cost(True) * 0.2 * 1600)
    assert endgame.look_up_cost(True) < endgame.look_up_cost(False) == endgame.LOOK_UP_COST
