"""A set of boards of a one-process game spread over workers: the same results, in board order, as one
board after another; resumable; each board heard as events; the workers ready before any budget."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridsolver.core.spread import InOrder


def gridsolver(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridsolver", *args], capture_output=True, text=True,
                          timeout=600)


def same_run(line: dict) -> tuple:
    """What two runs at a node budget agree on (times differ from run to run)."""
    return (line["input"], line["status"], line["score"], json.dumps(line["solution"]),
            line["stats"]["nodes"])


@given(st.permutations(range(8)))
def test_results_arriving_in_any_order_are_passed_on_in_board_order(order):
    delivered: list[tuple[int, str]] = []
    in_order = InOrder(8, lambda i, r: delivered.append((i, r)))
    for index in order:
        in_order.arrived(index, f"result {index}")
        assert [i for i, _ in delivered] == list(range(len(delivered)))  # never past a gap
    assert delivered == [(i, f"result {i}") for i in range(8)]


def test_a_run_cut_short_passes_on_what_arrived_past_a_gap_still_in_order():
    delivered: list[int] = []
    in_order = InOrder(6, lambda i, r: delivered.append(i))
    for index in (4, 0, 2, 5):
        in_order.arrived(index, "done")
    assert delivered == [0]
    in_order.flush()
    assert delivered == [0, 2, 4, 5]


@pytest.fixture(scope="module")
def boards(tmp_path_factory):
    """Five clickomania boards, mixed: some cleared at once, some searched until the node budget."""
    path = tmp_path_factory.mktemp("spread") / "five.txt"
    made = gridsolver("clickomania", "generate", "--random", "9x9x4", "--count", "5", "--seed", "3")
    assert made.returncode == 0, made.stderr
    path.write_text(made.stdout)
    return path


SOLVE = ["clickomania", "solve", "--nodes", "3000", "--json", "--quiet"]


def test_boards_spread_over_two_workers_answer_as_one_after_another(boards):
    in_turn = gridsolver(*SOLVE, str(boards))
    side_by_side = gridsolver(*SOLVE, str(boards), "--workers", "2")
    assert side_by_side.returncode == in_turn.returncode, side_by_side.stderr
    lines = [json.loads(line) for line in side_by_side.stdout.splitlines()]
    assert [line["input"] for line in lines] == [f"{boards}#{k}" for k in range(1, 6)]  # board order
    assert [same_run(line) for line in lines] == [same_run(json.loads(line))
                                                  for line in in_turn.stdout.splitlines()]
    assert all(line["verified"] for line in lines)
    assert {line["status"] for line in lines} >= {"optimal"}


@pytest.mark.slow  # three worker processes load the pegs kernels: tens of seconds on a loaded machine
def test_pegs_boards_spread_over_workers_answer_as_one_after_another(tmp_path):
    boards = tmp_path / "pegs.txt"
    boards.write_text(gridsolver("pegs", "format", "english", "french", "wiegleb").stdout)
    solve = ["pegs", "solve", str(boards), "--nodes", "20000", "--json", "--quiet"]
    in_turn = gridsolver(*solve)
    side_by_side = gridsolver(*solve, "--workers", "3")
    assert side_by_side.returncode == in_turn.returncode, side_by_side.stderr
    assert [same_run(json.loads(x)) for x in side_by_side.stdout.splitlines()] == \
        [same_run(json.loads(x)) for x in in_turn.stdout.splitlines()]


def test_a_spread_run_is_resumed_from_its_journal_and_tells_each_board_as_events(boards, tmp_path):
    journal, events = tmp_path / "journal.jsonl", tmp_path / "events.jsonl"
    first = gridsolver(*SOLVE, str(boards), "--workers", "2", "--resume", str(journal),
                       "--events", str(events))
    heard = [json.loads(line) for line in events.read_text().splitlines()]
    for k in range(1, 6):
        mine = [e for e in heard if e["input"] == f"{boards}#{k}"]
        assert [e["event"] for e in mine][0] == "start" and mine[-1]["event"] == "end"
        result = json.loads(first.stdout.splitlines()[k - 1])
        assert mine[-1]["score"] == result["score"] and mine[-1]["status"] == result["status"]
        assert mine[0]["board_index"] == k and mine[0]["boards"] == 5
    assert len(journal.read_text().splitlines()) == 5

    again = gridsolver(*SOLVE, str(boards), "--workers", "2", "--resume", str(journal),
                       "--events", str(events))
    assert again.returncode == first.returncode, again.stderr
    assert again.stdout == first.stdout  # taken from the journal, replayed, not searched again
    assert events.read_text() == ""


@pytest.mark.slow  # waits out the connect timeout
def test_cluster_for_a_one_process_game_spreads_boards_and_needs_a_reachable_scheduler(boards):
    """--cluster is no longer refused for a game whose search runs in one process: it sends the
    boards. An address nobody listens on is bad input, named, exit 2 (no traceback, no hang)."""
    done = gridsolver(*SOLVE, str(boards), "--cluster", "tcp://127.0.0.1:9")
    assert done.returncode == 2, done.stderr
    assert "127.0.0.1:9" in done.stderr and "Traceback" not in done.stderr


def test_solve_help_says_what_workers_mean_for_each_kind_of_game():
    one_process = gridsolver("clickomania", "solve", "--help").stdout
    assert "Boards solved at once" in one_process and "share --memory" in " ".join(one_process.split())
    assert "each board's search" in gridsolver("samegame", "solve", "--help").stdout
