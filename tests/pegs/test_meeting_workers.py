"""The two-sided search on two cores: the sides grown side by side, the look-up split in two."""

import time

import numpy as np
import pytest

from gridsolver import pegs
from gridsolver.core import parallel
from gridsolver.pegs import endgame, meeting_workers, reference, rules, search, table
from gridsolver.pegs.game import GAME
from gridsolver.pegs.meeting_workers import (
    BACKWARD,
    BEFORE,
    CLAIMED,
    DEPTH,
    EARLIER,
    FIELDS,
    FORWARD,
    GROWING,
    LAST,
    SECONDS_NS,
    STATE,
    STOPPED,
    WAITING,
    Outlook,
    eta,
    plan,
)
from tests.pegs.test_rules import named


def vacated(board: rules.Board, cell: rules.Cell) -> rules.Board:
    return board.with_pegs(board.holes & ~(1 << board.index(cell)))


def in_turn(fn, items, **_):
    """parallel_map's results, one item after another in this process (monkeypatched state holds)."""
    return [fn(item) for item in items]


@pytest.mark.parametrize("chunk", [1 << 23, 1 << 9])
@pytest.mark.parametrize("name", ["3x6", "4x4"])
def test_sides_grown_apart_decide_as_brute_force_does(name, chunk, monkeypatch):
    """Every single-vacancy problem without a self-dual shortcut, the sides grown by the workers' code
    (here one after the other: the first leaves the last layer to the second, which it sees waiting)
    and the look-up in two halves; the answer is brute force's and a found game replays."""
    monkeypatch.setattr(parallel, "parallel_map", in_turn)
    monkeypatch.setattr(meeting_workers, "SORTED_FROM", 0)
    monkeypatch.setattr(endgame, "CHUNK", chunk)
    board = named(name)
    checked = 0
    for start, finish in table.single_vacancy_problems(board):
        problem = vacated(board, start)
        if problem.peg_count <= 2:
            continue
        possible = problem.pegs in reference.finishers(board, board.index(finish))
        meeting = meeting_workers.MeetingApart(problem, finish, pagodas=False)
        meeting.mirror = None
        outcome = meeting.run(search.Budget(nodes=10**9), 1 << 28, time.perf_counter() + 30)
        assert outcome == ("found" if possible else "impossible"), (start, finish)
        assert meeting.shared is None  # the files are gone
        if outcome == "found":
            end = rules.replay(problem, meeting.line())
            assert end.peg_count == 1 and end.has_peg(finish)
        else:
            assert meeting.jumps_covered == problem.peg_count - 2 or any(
                side.empty_at is not None for side in (meeting.forward, meeting.backward))
        checked += 1
    assert checked > 5


def test_two_worker_processes_give_the_one_core_layers_and_answer():
    """Real worker processes: the same layers as one core, where the two grow them in another order,
    and the same answer; a found game replays."""
    board = named("4x5")
    for start, finish, want in (((0, 0), (0, 1), "found"), ((0, 0), (0, 2), "impossible")):
        problem = vacated(board, start)
        alone = endgame.Meeting(problem, finish, pagodas=False)
        apart = meeting_workers.MeetingApart(problem, finish, pagodas=False)
        assert alone.mirror is None
        deadline = time.perf_counter() + 60
        outcomes = [m.run(search.Budget(nodes=10**10), 1 << 30, deadline) for m in (alone, apart)]
        assert outcomes == [want, want]
        for side in ("forward", "backward"):
            mine, theirs = getattr(alone, side).layers, getattr(apart, side).layers
            common = min(len(mine), len(theirs))
            assert [a.tolist() for a in mine[:common]] == [b.tolist() for b in theirs[:common]]
        assert apart.worker_peak_mb > 0  # the workers say how big they grew
        assert "meeting_worker_peak_mb" in search._meeting_info(apart)
        assert "meeting_worker_peak_mb" not in search._meeting_info(alone)
        if want == "found":
            end = rules.replay(problem, apart.line())
            assert end.peg_count == 1 and end.has_peg(finish)


def rows(*sides: dict) -> np.ndarray:
    values = np.zeros(2 * FIELDS + 1, dtype=np.int64)
    for k, fields in enumerate(sides):
        for field, value in fields.items():
            values[k * FIELDS + field] = value
    return values


def test_a_free_side_claims_while_layers_are_missing_and_stops_when_none_is():
    far = 10**18
    both_free = rows({STATE: GROWING, CLAIMED: 3, LAST: 100}, {STATE: GROWING, CLAIMED: 4, LAST: 90})
    assert plan(both_free, BACKWARD, total=10, now_ns=0, deadline_ns=far, until_ns=far)
    assert not plan(both_free, BACKWARD, total=8, now_ns=0, deadline_ns=far, until_ns=far)  # 3 + 4 = 7
    stopped = rows({STATE: GROWING, CLAIMED: 3}, {STATE: STOPPED, CLAIMED: 5})
    assert plan(stopped, BACKWARD, total=10, now_ns=0, deadline_ns=far, until_ns=far)


def test_the_last_layer_goes_to_the_side_that_would_finish_it_first():
    cheap = Outlook(size=10, rate=1.0, growth=2.0, shrink=1.0)
    dear = Outlook(size=1000, rate=1.0, growth=2.0, shrink=1.0)
    assert eta([cheap, dear], 1) == pytest.approx(10 + 20 / 2)  # the cheap side grows; then half its look-up
    assert eta([dear.grown(), cheap], 0) == pytest.approx(10 / 2)
    # one layer missing, the other side still growing: it is left to it when it would be done first
    far = 10**18
    waiting = rows({STATE: GROWING, CLAIMED: 4, LAST: 10**6}, {STATE: WAITING, CLAIMED: 0, LAST: 1})
    assert not plan(waiting, BACKWARD, total=6, now_ns=0, deadline_ns=far, until_ns=far)
    assert plan(waiting, FORWARD, total=6, now_ns=0, deadline_ns=far, until_ns=far)


def test_past_the_first_deadline_a_layer_begins_only_if_the_meeting_should_end_in_time():
    # free, its last layer grown in 2 s from 2,000 positions (1 ms each), twice as big as the one before
    row = {STATE: GROWING, DEPTH: 5, CLAIMED: 5, LAST: 4000, BEFORE: 2000, EARLIER: 1000,
           SECONDS_NS: 2 * 10**9}
    progress = rows(row, dict(row))
    now = 100 * 10**9
    assert plan(progress, BACKWARD, total=14, now_ns=now, deadline_ns=now + 1, until_ns=now + 1)
    assert not plan(progress, BACKWARD, total=14, now_ns=now, deadline_ns=now - 1, until_ns=now + 10**9)
    assert plan(progress, BACKWARD, total=14, now_ns=now, deadline_ns=now - 1, until_ns=now + 10**12)


def test_big_finish_problems_take_two_workers_and_the_rest_one():
    diamond = pegs.named("diamond")
    finish = {"objective": "finish", "finish": (5, 1)}
    assert GAME.workers_for(vacated(diamond, (0, 4)), finish, 4) == 2
    assert GAME.workers_for(vacated(diamond, (0, 4)), finish, 1) == 1
    assert GAME.workers_for(vacated(diamond, (0, 4)), {"objective": "jumps"}, 4) == 1
    assert GAME.workers_for(pegs.named("english"), {"objective": "finish", "finish": (3, 3)}, 4) == 1


def test_a_directory_left_by_a_killed_process_is_removed_and_a_running_ones_kept(tmp_path, monkeypatch):
    import os
    import subprocess
    import sys
    import tempfile

    monkeypatch.setattr(meeting_workers.os.path, "isdir", lambda path: False)  # not /dev/shm: tmp_path
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = tmp_path / f"{meeting_workers.PREFIX}{gone.pid}-abc"
    running = tmp_path / f"{meeting_workers.PREFIX}{os.getpid()}-def"
    for directory in (stale, running):
        directory.mkdir()
        (directory / "forward-0").write_bytes(b"\0" * 8)
    made = meeting_workers.shared_directory()
    assert os.path.dirname(made) == str(tmp_path) and f"{os.getpid()}-" in os.path.basename(made)
    assert not stale.exists() and running.exists()
