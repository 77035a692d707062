"""The two-sided search on two cores: the sides grown side by side, the look-up split in two."""

import os
import time
from dataclasses import replace

import numpy as np
import pytest

from gridsolver import pegs
from gridsolver.core import parallel
from gridsolver.core.budget import Budget
from gridsolver.pegs import endgame, meeting_workers, reference, rules, table
from gridsolver.pegs import finish as finish_search
from gridsolver.pegs.game import GAME
from gridsolver.pegs.meeting_workers import (
    BACKWARD,
    BEFORE,
    CLAIMED,
    DEPTH,
    EARLIER,
    FIELDS,
    FORWARD,
    GROW,
    GROWING,
    HELP,
    LAST,
    POSITIONS,
    RESERVED,
    SECONDS_NS,
    STATE,
    STOP,
    STOPPED,
    WAITING,
    Outlook,
    SideJob,
    SideWorker,
    claim,
    eta,
    path_of,
    plan,
)
from tests.pegs.test_rules import named


def vacated(board: rules.Board, cell: rules.Cell) -> rules.Board:
    return board.with_pegs(board.holes & ~(1 << board.index(cell)))


def open_problems(name: str, more_than: int):
    """The single-vacancy problems of a named board with more than ``more_than`` pegs: (the start
    position, the finish, whether brute force finds a game)."""
    board = named(name)
    for start, finish in table.single_vacancy_problems(board):
        problem = vacated(board, start)
        if problem.peg_count > more_than:
            yield problem, finish, problem.pegs in reference.finishers(board, board.index(finish))


def in_turn(fn, items, **_):
    """parallel_map's results, one item after another in this process (monkeypatched state holds)."""
    return [fn(item) for item in items]


@pytest.mark.parametrize("self_dual", [False, True])
@pytest.mark.parametrize("chunk", [1 << 23, 1 << 9])
@pytest.mark.parametrize("name", ["3x6", "4x4"])
def test_sides_grown_apart_decide_as_brute_force_does(name, chunk, self_dual, monkeypatch):
    """Every single-vacancy problem, the sides grown by the workers' code (here one after the other:
    the first leaves the last layer to the second, which it sees waiting) and the look-up in two
    halves; with ``self_dual`` only the problems that are their own dual, one side grown, else every
    one with both sides grown. The answer is brute force's and a found game replays."""
    monkeypatch.setattr(parallel, "parallel_map", in_turn)
    monkeypatch.setattr(meeting_workers, "SORTED_FROM", 0)
    monkeypatch.setattr(endgame, "CHUNK", chunk)
    checked = 0
    for problem, finish, possible in open_problems(name, 2):
        meeting = meeting_workers.MeetingApart(problem, finish, pagodas=False)
        if self_dual and meeting.mirror is None:
            continue
        if not self_dual:
            meeting.mirror = None
        outcome = meeting.run(Budget(nodes=10**9), 1 << 28, time.perf_counter() + 30)
        assert outcome == ("found" if possible else "impossible"), (problem, finish)
        assert meeting.shared is None  # the files are gone
        if outcome == "found":
            end = rules.replay(problem, meeting.line())
            assert end.peg_count == 1 and end.has_peg(finish)
        else:
            assert meeting.jumps_covered >= problem.peg_count - 2 or any(
                side.empty_at is not None for side in (meeting.forward, meeting.backward))
        checked += 1
    assert checked > (1 if self_dual else 5)


@pytest.mark.parametrize("piece", [1 << 20, 3])
def test_two_worker_processes_give_the_one_core_layers_and_answer(piece):
    """Real worker processes: the same layers as one core, where the two grow them in another order
    (with small pieces, each side's layers partly grown by the other's worker), and the same answer;
    a found game replays."""
    board = named("4x5")
    for start, finish, want in (((0, 0), (0, 1), "found"), ((0, 0), (0, 2), "impossible")):
        problem = vacated(board, start)
        alone = endgame.Meeting(problem, finish, pagodas=False)
        apart = meeting_workers.MeetingApart(problem, finish, pagodas=False)
        apart.piece, apart.sorted_from = piece, 0
        assert alone.mirror is None
        deadline = time.perf_counter() + 60
        outcomes = [m.run(Budget(nodes=10**10), 1 << 30, deadline) for m in (alone, apart)]
        assert outcomes == [want, want]
        for side in ("forward", "backward"):
            mine, theirs = getattr(alone, side).layers, getattr(apart, side).layers
            common = min(len(mine), len(theirs))
            assert [a.tolist() for a in mine[:common]] == [b.tolist() for b in theirs[:common]]
        # each side's last layer in memory, the others on disk
        folders = [[os.path.dirname(path_of(layer) or "") for layer in side.layers[::-1] if len(layer)]
                   for side in (apart.forward, apart.backward)]
        older = {folder for last, *before in folders for folder in before}
        assert len(older) == 1 and len({last for last, *_ in folders}) == 1
        assert "meeting" in folders[0][0] and folders[0][0] not in older
        assert apart.worker_peak_mb > 0  # the workers say how big they grew
        assert "meeting_worker_peak_mb" in finish_search.meeting_info(apart)
        assert "meeting_worker_peak_mb" not in finish_search.meeting_info(alone)
        if want == "found":
            end = rules.replay(problem, apart.line())
            assert end.peg_count == 1 and end.has_peg(finish)


def test_a_self_dual_problem_grows_one_side_on_both_workers():
    """Real worker processes, a problem that is its own dual (corner to opposite corner): one side
    grown, in pieces both workers take, with one core's layers and answer."""
    board = named("4x5")
    problem = vacated(board, (0, 0))
    want = "found" if problem.pegs in reference.finishers(board, board.index((3, 4))) else "impossible"
    alone = endgame.Meeting(problem, (3, 4), pagodas=False)
    apart = meeting_workers.MeetingApart(problem, (3, 4), pagodas=False)
    apart.piece, apart.sorted_from = 3, 0
    assert apart.mirror is not None
    outcomes = [m.run(Budget(nodes=10**10), 1 << 30, time.perf_counter() + 60) for m in (alone, apart)]
    assert outcomes == [want, want]
    assert [a.tolist() for a in alone.backward.layers] == [b.tolist() for b in apart.backward.layers]
    assert len(apart.forward.layers) == 1  # its images stand in for it
    if want == "found":
        end = rules.replay(problem, apart.line())
        assert end.peg_count == 1 and end.has_peg((3, 4))


@pytest.mark.parametrize("name", ["3x6", "4x4"])
def test_pieces_grown_by_the_other_side_give_the_same_layers(name, monkeypatch):
    """A side's big layers are grown in pieces; here the other side's worker takes every piece but the
    first of each (its part merged in by the claimer, in this process, one after the other): the
    layers are one core's, and the answer brute force's."""
    monkeypatch.setattr(parallel, "parallel_map", in_turn)
    monkeypatch.setattr(meeting_workers, "SORTED_FROM", 0)
    helpers: dict = {}
    grow_side, gather = meeting_workers.grow_side, endgame.Children.gather
    helped = []

    def both_sides(job):  # each side's worker, and one of the other side's to help it
        helpers[job.side] = SideWorker(replace(job, side=1 - job.side))
        report = grow_side(job)
        helped.append(helpers.pop(job.side).helped)
        return report

    def gather_then_help(self, *args):
        code = gather(self, *args)
        if not helpers.get(-1):  # a claimer's piece (not the helper's own)
            helpers[-1] = True
            try:
                for side in (BACKWARD, FORWARD):
                    if side in helpers:
                        helpers[side].help()  # the other side's pieces of the layer open, if any
            finally:
                helpers[-1] = False
        return code

    monkeypatch.setattr(meeting_workers, "grow_side", both_sides)
    monkeypatch.setattr(endgame.Children, "gather", gather_then_help)
    for problem, finish, possible in open_problems(name, 3):
        alone = endgame.Meeting(problem, finish, pagodas=False)
        apart = meeting_workers.MeetingApart(problem, finish, pagodas=False)
        apart.mirror = alone.mirror = None
        apart.piece = 2
        want = "found" if possible else "impossible"
        budget = Budget(nodes=10**9)
        assert [m.run(budget, 1 << 28, time.perf_counter() + 30) for m in (alone, apart)] == [want, want]
        for side in ("forward", "backward"):
            mine, theirs = getattr(alone, side).layers, getattr(apart, side).layers
            common = min(len(mine), len(theirs))
            assert [a.tolist() for a in mine[:common]] == [b.tolist() for b in theirs[:common]]
        if want == "found":
            end = rules.replay(problem, apart.line())
            assert end.peg_count == 1 and end.has_peg(finish)
    assert sum(helped) > 20


def rows(*sides: dict) -> np.ndarray:
    values = np.zeros(2 * FIELDS + 1, dtype=np.int64)
    for k, fields in enumerate(sides):
        for field, value in fields.items():
            values[k * FIELDS + field] = value
    return values


def test_a_free_side_claims_while_layers_are_missing_and_helps_or_stops_when_none_is():
    far = 10**18
    both_free = rows({STATE: GROWING, DEPTH: 3, CLAIMED: 3, LAST: 100},
                     {STATE: GROWING, DEPTH: 4, CLAIMED: 4, LAST: 90})
    assert plan(both_free, FORWARD, total=10, now_ns=0, deadline_ns=far, until_ns=far) == GROW
    assert plan(both_free, FORWARD, total=8, now_ns=0, deadline_ns=far, until_ns=far) == STOP  # 3 + 4 = 7
    stopped = rows({STATE: GROWING, DEPTH: 3, CLAIMED: 3}, {STATE: STOPPED, DEPTH: 5, CLAIMED: 5})
    assert plan(stopped, BACKWARD, total=10, now_ns=0, deadline_ns=far, until_ns=far) == GROW
    # none missing, the other still growing its layer: help it
    growing = rows({STATE: GROWING, DEPTH: 3, CLAIMED: 4}, {STATE: GROWING, DEPTH: 2, CLAIMED: 2})
    assert plan(growing, FORWARD, total=7, now_ns=0, deadline_ns=far, until_ns=far) == HELP


def test_the_cheaper_next_layer_is_grown_first_and_the_other_side_helps():
    row = {STATE: GROWING, DEPTH: 5, CLAIMED: 5, BEFORE: 2000, EARLIER: 1000, SECONDS_NS: 2 * 10**9}
    far = 10**18
    progress = rows({**row, LAST: 4000}, {**row, LAST: 3000})  # the same growth: forward's next is cheaper
    assert plan(progress, BACKWARD, total=20, now_ns=0, deadline_ns=far, until_ns=far) == HELP
    assert plan(progress, FORWARD, total=20, now_ns=0, deadline_ns=far, until_ns=far) == GROW
    # the other side's worker has not begun: no waiting for it
    waiting = rows({**row, LAST: 4000}, {STATE: WAITING})
    assert plan(waiting, BACKWARD, total=20, now_ns=0, deadline_ns=far, until_ns=far) == GROW


def test_a_layer_is_claimed_with_the_room_left_or_waits_for_the_room_the_other_side_holds():
    problem = vacated(named("4x5"), (0, 0))
    ending = endgame.Endgame(problem, (0, 1))
    ending.layers = [np.zeros(n, dtype=np.uint64) for n in (1, 50, 100)]  # growing 2x: 200 next
    per = endgame.BYTES_PER_POSITION  # a hash set: small layers
    job = SideJob(problem, (0, 1), BACKWARD, "", "", Budget(),
                  memory_bytes=8 * 1000 + int(150 * per) + 1, deadline_ns=0, until_ns=0, lp_deadline_ns=0,
                  sorted_from=1 << 16)
    free = rows({STATE: GROWING, DEPTH: 2, CLAIMED: 2, POSITIONS: 100},
                {STATE: GROWING, DEPTH: 3, CLAIMED: 3, POSITIONS: 900})
    # 1000 positions held, 8 bytes each: room for 150 more, fewer than the 200 expected
    progress = free.copy()
    assert claim(progress, BACKWARD, ending, job, now_ns=5) == (GROW, 150)  # the other side is free: try
    assert progress[CLAIMED] == 3 and progress[RESERVED] == int(150 * per)
    growing = free.copy()
    growing[FIELDS + CLAIMED] = 4  # the other side grows a layer
    assert claim(growing, BACKWARD, ending, job, now_ns=5) == (HELP, 0)
    assert growing[CLAIMED] == 2 and growing[RESERVED] == 0  # nothing claimed
    roomy = replace(job, memory_bytes=8 * 1000 + int(300 * per) + 1)
    assert claim(growing, BACKWARD, ending, roomy, now_ns=5) == (GROW, 300)


def test_the_predicted_work_is_shared_by_the_workers():
    cheap = Outlook(size=10, rate=1.0, growth=2.0, shrink=1.0)
    dear = Outlook(size=1000, rate=1.0, growth=2.0, shrink=1.0)
    # the cheap side grows its next layer (10 s) and then its 20 children are looked up, at a
    # look-up's cost per parent; two workers
    look = endgame.LOOK_UP_COST
    assert eta([cheap, dear], 1) == pytest.approx((10 + 20 * look) / 2)
    assert eta([cheap, dear], 2) == pytest.approx((10 + 20 + 40 * look) / 2)
    assert eta([cheap], 1) == pytest.approx(10 + 20 * look)
    # what is left of a layer being grown counts too
    assert eta([replace(cheap, left=6.0), dear], 0) == pytest.approx(6 / 2 + 10 * look / 2)
    # a look-up priced apart (a self-dual middle layer's)
    assert eta([cheap], 1, 2, look_up=0.5) == pytest.approx((10 + 20 * 0.5) / 2)


def test_past_the_first_deadline_a_layer_begins_only_if_the_meeting_should_end_in_time():
    # free, its last layer grown in 2 s from 2,000 positions (1 ms each), twice as big as the one before
    row = {STATE: GROWING, DEPTH: 5, CLAIMED: 5, LAST: 4000, BEFORE: 2000, EARLIER: 1000,
           SECONDS_NS: 2 * 10**9}
    progress = rows(row, dict(row))
    now = 100 * 10**9
    assert plan(progress, BACKWARD, total=14, now_ns=now, deadline_ns=now + 1, until_ns=now + 1) == GROW
    assert plan(progress, BACKWARD, total=14, now_ns=now, deadline_ns=now - 1, until_ns=now + 10**9) == STOP
    assert plan(progress, BACKWARD, total=14, now_ns=now, deadline_ns=now - 1, until_ns=now + 10**12) == GROW


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


def test_the_memory_held_is_the_last_layers_once_the_others_are_on_disk():
    meeting = meeting_workers.MeetingApart(vacated(named("4x5"), (0, 0)), (0, 1), pagodas=False)
    meeting.mirror = None
    for side, sizes in ((meeting.forward, (1, 3, 7)), (meeting.backward, (1, 4))):
        side.layers = [np.zeros(n, dtype=np.uint64) for n in sizes]
    assert meeting.held() == meeting.positions() == 16  # one process: every layer in memory
    meeting.stored = "/somewhere/on/disk"
    assert meeting.held() == 7 + 4


@pytest.mark.parametrize("own, part", [([1, 4, 9], [2, 4, 10, 11]), ([], [3, 5]), ([7], []), ([], [])])
def test_the_two_parts_of_a_layer_are_merged_into_its_file_once_each(tmp_path, own, part):
    """The claimer's part and the helper's, each sorted without repeats, become the layer in its own
    file, mapped from there, so that it is not written again."""
    path = str(tmp_path / "layer")
    layer = meeting_workers.merged_file(np.array(own, dtype=np.uint64), np.array(part, dtype=np.uint64), path)
    assert layer.tolist() == sorted(set(own) | set(part))
    assert os.path.getsize(path) == 8 * len(layer)
    if len(layer):
        assert path_of(layer) == os.path.abspath(path)
