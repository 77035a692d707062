"""The watcher: events from the watch blocks, the status line's text, where it is drawn."""

from __future__ import annotations

import io
import json
import time

import numpy as np
import pytest

from gridsolver.core import live, watch
from gridsolver.core.result import Result, Stats


@pytest.fixture(autouse=True)
def fresh_block():
    watch.detach()
    watch.reset()
    yield
    watch.detach()
    watch.reset()


def block(best=None, bound=None, nodes=0, depth=0):
    row = np.zeros(watch.SLOTS, np.int64)
    row[watch.NODES] = nodes
    row[watch.DEPTH] = depth
    if best is not None:
        row[watch.BEST], row[watch.IMPROVEMENTS] = best, 1
    if bound is not None:
        row[watch.BOUND], row[watch.BOUNDS] = bound, 1
    return row


def test_blocks_of_one_search_combine_by_the_games_sense():
    rows = [block(best=30, bound=40, nodes=5), block(best=35, bound=38, nodes=7, depth=3), block()]
    assert live.read_blocks(rows, minimize=False) == (12, 35, 38, 3)  # most points; lowest ceiling
    assert live.read_blocks(rows, minimize=True) == (12, 30, 40, 3)  # fewest tokens; highest floor
    assert live.read_blocks([block()], minimize=True) == (0, None, None, 0)


def search(**fields):
    return live.Search(**{"game": "samegame", "label": "b", "score_name": "points", "minimize": False,
                          "budget_s": 10.0, **fields})


def result(score, status="best-found", solution=(1, 2)):
    done = Result("samegame", "b", status, solution=list(solution), score=score, score_name="points",
                  stats=Stats(nodes=100, elapsed_s=1.0))
    done.verified = True  # as core.game.verify sets it
    return done


def test_a_watcher_turns_what_the_block_shows_into_events():
    events = []
    watcher = live.Watcher(search(), [events.append], None)
    watcher.start()
    watch.improved(100)
    watcher.look()
    watcher.look()  # nothing new: no event
    watch.improved(90)  # a worse score never makes an event
    watch.bounded(500)
    watcher.look()
    watch.improved(250)
    watcher.look()
    watcher.finish(result(260))
    kinds = [(e["event"], e.get("score"), e.get("bound")) for e in events]
    assert kinds == [("start", None, None), ("improved", 100, None), ("bound", 100, 500),
                     ("improved", 250, 500), ("improved", 260, 500), ("end", 260, 500)]
    assert events[-2]["solution"] == [1, 2] and events[1]["solution"] is None
    assert all(e["game"] == "samegame" and e["input"] == "b" and e["t"] >= 0 for e in events)
    assert set(live.EVENT_KEYS["improved"]) <= set(events[1])
    json.dumps(events)  # every event is JSON


def test_the_result_is_the_last_improvement_even_when_the_kernel_saw_it_first():
    events = []
    watcher = live.Watcher(search(), [events.append], None)
    watcher.start()
    watch.improved(260)
    watcher.look()
    watcher.finish(result(260, status="optimal"))
    improved = [e for e in events if e["event"] == "improved"]
    assert [(e["score"], e["status"]) for e in improved] == [(260, "best-found"), (260, "optimal")]


def test_the_last_improvement_brings_the_solution_a_kernel_found_as_numbers_only():
    events = []
    watcher = live.Watcher(search(), [events.append], None)
    watcher.start()
    watch.improved(260)  # a kernel's (or a worker's) improvement: no solution in this process
    watcher.look()
    watcher.finish(result(260))
    improved = [(e["score"], e["status"], e["solution"]) for e in events if e["event"] == "improved"]
    assert improved == [(260, "best-found", None), (260, "best-found", [1, 2])]


def test_a_result_already_told_with_its_solution_is_not_told_twice_nor_a_worse_one_at_all():
    events = []
    watcher = live.Watcher(search(), [events.append], None)
    watcher.start()
    watch.improved(260, [1, 2])
    watcher.look()
    watcher.finish(result(260))
    assert [e["score"] for e in events if e["event"] == "improved"] == [260]
    events.clear()
    watcher = live.Watcher(search(), [events.append], None)
    watcher.start()
    watch.improved(300)
    watcher.look()
    watcher.finish(result(260))  # the block read 300; scores in events never get worse
    assert [e["score"] for e in events if e["event"] == "improved"] == [300]


def test_an_improvement_reported_with_its_solution_carries_it_made_only_when_asked():
    events = []
    made = []
    watcher = live.Watcher(search(), [events.append], None)
    watcher.start()
    watch.improved(100, [[0, 1]])
    watcher.look()

    def solution() -> list:
        made.append(1)
        return [[2, 3], [4, 5]]

    watch.improved(120, solution)
    assert made == []  # not written out by the search itself
    watcher.look()
    watch.improved(130)  # a kernel's improvement: the block has no solution
    watcher.look()
    assert [(e["score"], e["solution"]) for e in events if e["event"] == "improved"] == \
        [(100, [[0, 1]]), (120, [[2, 3], [4, 5]]), (130, None)]
    assert made == [1]


def test_before_the_search_the_line_says_it_is_starting_and_what_warm_up_wrote_is_never_heard():
    events, lines = [], []

    class Screen:
        def line(self, text: str) -> None:
            lines.append(text)

        def frame(self, search, reading, watcher) -> None:
            lines.append(live.status_text(search, reading, watcher.best, watcher.bound, watcher.note))

    watcher = live.Watcher(search(), [events.append], None)
    watcher.display = Screen()  # type: ignore[assignment]
    watcher.start_up(live.STARTING)
    watcher.start()
    watch.improved(999)  # a warm-up's kernel on its tiny board of its own
    watcher.look()
    assert lines and live.STARTING in lines[-1] and "best" not in lines[-1]
    watcher.searching(time.monotonic())
    watcher.look()
    watch.improved(50)
    watcher.look()
    watcher.stop()
    assert [e["score"] for e in events if e["event"] == "improved"] == [50]


def test_a_watcher_thread_reads_while_a_python_search_runs():
    events = []
    watcher = live.Watcher(search(), [events.append], None)
    watcher.start()
    for score in (10, 20, 30):
        watch.improved(score)
        time.sleep(live.INTERVAL_S * 2)
    watcher.finish(result(30))  # the block's 30 came without a solution: the result's brings it
    assert [(e["score"], e["solution"]) for e in events if e["event"] == "improved"] == \
        [(10, None), (20, None), (30, None), (30, [1, 2])]
    assert watch.block()[watch.YIELD_NS] == 0  # kernels stop letting go once nobody reads


def test_nobody_listening_starts_no_thread_and_asks_no_yield():
    watcher = live.Watcher(search(), [], None)
    watcher.start()
    assert watcher._thread is None and watch.block()[watch.YIELD_NS] == 0
    watcher.finish(result(1))


def test_status_text_says_board_time_best_bound_gap_rate_and_workers():
    s = search(boards=20, board_index=3, workers=2, work_name="playouts")
    reading = live.Reading(elapsed_s=12.34, work=10, rate=21_900.0, best=2781, bound=3100, depth=0)
    text = live.status_text(s, reading, 2781, 3100)
    assert text == ("samegame b (3/20)  12.3 / 10 s  best 2,781 points  bound <= 3,100 (gap 319)  "
                    "21.9 k playouts/s  2 workers")
    fresh = live.status_text(search(budget_s=None, minimize=True, score_name="tokens"),
                             live.Reading(0.5, 0, 0.0, None, 7, 8), None, 7, "no program of 7 tokens")
    assert fresh == ("samegame b  0.5 s  no solution yet  bound >= 7  depth 8  0 nodes/s  "
                     "no program of 7 tokens")


def test_summary_text_names_status_score_time_and_stop():
    text = live.summary_text(search(boards=2), result(260))
    assert text == "samegame b (1/2): best-found 260 points in 1.0 s  100 nodes/s"


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_one_line_redrawn_in_place_then_the_summary():
    stream = FakeTerminal()
    display = live.Display(stream, terminal=True)
    watcher = live.Watcher(search(), [], display)
    watch.improved(5)
    watcher.look()
    watcher.look()
    display.summary(watcher.search, result(5))
    out = stream.getvalue()
    assert out.count("\r\x1b[2K") >= 3 and out.endswith("\n") and out.count("\n") == 1
    assert "best" in out and "\x1b[" in out.replace("\r\x1b[2K", "")  # coloured


def test_a_pipe_gets_plain_lines_at_most_once_a_second(monkeypatch):
    stream = io.StringIO()
    display = live.Display(stream, terminal=False)
    watcher = live.Watcher(search(), [], display)
    for _ in range(5):
        watcher.look()
    display.summary(watcher.search, result(5))
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2 and "\x1b" not in stream.getvalue()
    assert lines[1].startswith("samegame b: best-found 5 points")


def test_show_draws_only_where_asked(monkeypatch):
    monkeypatch.delenv(live.NO_PROGRESS_ENV, raising=False)
    monkeypatch.setattr("sys.stderr", io.StringIO())  # not a terminal
    with live.show("auto") as shown:
        assert shown.display is None
    with live.show("always") as shown:
        assert shown.display is not None and not shown.display.terminal
    monkeypatch.setattr("sys.stderr", FakeTerminal())
    with live.show("auto") as shown:
        assert shown.display is not None and shown.display.terminal
    with live.show("never") as shown:
        assert shown.display is None
    assert live.showing().display is None  # and back to nothing after


def test_events_go_to_a_file_one_json_object_a_line(tmp_path):
    path = tmp_path / "events.jsonl"
    with live.show("never", str(path)):
        watcher = live.watcher(search())
        watcher.start()
        watcher.finish(result(3))
    lines = path.read_text().splitlines()
    assert [json.loads(line)["event"] for line in lines] == ["start", "improved", "end"]


def test_an_events_file_that_cannot_be_written_is_bad_input(tmp_path):
    from gridsolver.core.errors import InputError

    with pytest.raises(InputError, match="--events"), live.show("never", str(tmp_path / "no" / "such")):
        pass


def test_a_tally_counts_what_is_done_and_keeps_quiet_while_a_board_shows_its_own_line(monkeypatch):
    stream = FakeTerminal()
    monkeypatch.setattr("sys.stderr", stream)
    monkeypatch.delenv(live.NO_PROGRESS_ENV, raising=False)
    with live.show("auto"), live.tally("pegs", "table english", 3, "problems", workers=2) as tally:
        assert watch.block()[watch.YIELD_NS] > 0  # kernels here let its thread in
        assert live.showing().boards == 3
        tally.finished("english (3, 3)->(3, 3): optimal")
        assert live.showing().board_index == 2  # a search here now is board 2 of 3
        text = tally.text()
        assert text.startswith("pegs table english  1/3 problems  ") and "2 workers" in text
        assert text.endswith("last: english (3, 3)->(3, 3): optimal")
        before = stream.getvalue()
        tally.look()
        assert stream.getvalue() != before  # drawn
        monkeypatch.setattr(live, "INTERVAL_S", 60.0)  # the board's own thread stays asleep here
        watcher = live.watcher(search())
        watcher.start()
        drawn = stream.getvalue()
        tally.look()
        assert stream.getvalue() == drawn  # a board's own line is on: the tally keeps quiet
        watcher.stop()
        assert watch.block()[watch.YIELD_NS] > 0  # still read by the tally
    assert watch.block()[watch.YIELD_NS] == 0 and live.showing().boards == 1
