"""--resume on real commands: a run killed partway (SIGKILL) goes on where it stopped, and ends as an
uninterrupted run ends."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from gridsolver.core.cliutil import EXIT_BAD_INPUT


def gridsolver(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridsolver", *args], capture_output=True, text=True,
                          timeout=600, **kwargs)


def same_run(line: dict) -> tuple:
    """What two runs at a node budget agree on (times differ from run to run)."""
    return (line["input"], line["status"], line["score"], json.dumps(line["solution"]),
            line["stats"]["nodes"])


# three standard SameGame positions at a playout budget, one worker (deterministic), a second or so each
SOLVE = ["samegame", "solve", "BOARDS", "--nodes", "30000", "--workers", "1", "--seed", "1", "--json"]


@pytest.mark.slow
def test_a_solve_killed_partway_resumes_where_it_stopped(tmp_path):
    boards = tmp_path / "three.txt"
    formatted = gridsolver("samegame", "format", "standard-20").stdout
    boards.write_text("\n\n".join(formatted.split("\n\n")[:3]) + "\n")
    solve = [str(boards) if a == "BOARDS" else a for a in SOLVE]
    whole = gridsolver(*solve)
    assert whole.returncode == 0, whole.stderr
    journal = tmp_path / "run.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "gridsolver", *solve, "--resume", str(journal)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and journal.read_text().count("\n") >= 1:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)  # as a lost machine would: nothing is written after it
    process.wait()
    kept = journal.read_text().count("\n")
    assert 1 <= kept < 3, "the kill should come after the first board and before the last"
    resumed = gridsolver(*solve, "--resume", str(journal))
    assert resumed.returncode == 0, resumed.stderr
    expected = [same_run(json.loads(line)) for line in whole.stdout.splitlines()]
    assert [same_run(json.loads(line)) for line in resumed.stdout.splitlines()] == expected
    assert [same_run(json.loads(line)) for line in journal.read_text().splitlines()] == expected
    again = gridsolver(*solve, "--resume", str(journal))  # everything kept: nothing runs, same answer
    assert [same_run(json.loads(line)) for line in again.stdout.splitlines()] == expected


def test_a_resumed_solve_takes_the_kept_boards_and_replays_them(tmp_path):
    journal = tmp_path / "run.jsonl"
    first = gridsolver("pegs", "solve", "english", "triangle", "--json", "--resume", str(journal))
    assert first.returncode == 0, first.stderr
    kept = journal.read_text().splitlines()
    journal.write_text(kept[0] + "\n" + kept[1][:40])  # the second line torn by a kill
    resumed = gridsolver("pegs", "solve", "english", "triangle", "--json", "--resume", str(journal))
    lines = [json.loads(line) for line in resumed.stdout.splitlines()]
    assert [same_run(line) for line in lines] == [same_run(json.loads(line)) for line in kept]
    assert all(line["verified"] for line in lines)  # the kept board was replayed again
    assert len(journal.read_text().splitlines()) == 2


def test_a_journal_of_another_run_is_refused(tmp_path):
    journal = tmp_path / "run.jsonl"
    gridsolver("pegs", "solve", "english", "--json", "--resume", str(journal))
    other = gridsolver("pegs", "solve", "english", "--objective", "moves", "--resume", str(journal))
    assert other.returncode == EXIT_BAD_INPUT
    assert str(journal) in other.stderr and "other options" in other.stderr
    tampered = json.loads(journal.read_text())
    tampered["score"] += 1
    journal.write_text(json.dumps(tampered) + "\n")
    cheat = gridsolver("pegs", "solve", "english", "--resume", str(journal))
    assert cheat.returncode == EXIT_BAD_INPUT and "does not replay" in cheat.stderr


def rows_without_time(stdout: str) -> list[dict]:
    rows = [json.loads(line) for line in stdout.splitlines()]
    for row in rows:
        row.pop("seconds", None)
    return rows


def test_bench_goes_on_from_the_boards_a_journal_holds(tmp_path):
    journal = tmp_path / "bench.jsonl"
    whole = gridsolver("bunny", "bench", "--time", "30", "--json", "--resume", str(journal))
    assert whole.returncode == 0, whole.stderr
    kept = journal.read_text().splitlines()
    assert len(kept) == 12
    journal.write_text("\n".join(kept[:5]) + "\n" + kept[5][:30])
    resumed = gridsolver("bunny", "bench", "--time", "30", "--json", "--resume", str(journal))
    assert rows_without_time(resumed.stdout) == rows_without_time(whole.stdout)
    assert len(journal.read_text().splitlines()) == 12


def test_a_table_goes_on_from_the_problems_a_journal_holds(tmp_path):
    journal = tmp_path / "table.jsonl"
    args = ["pegs", "table", "triangle", "--nodes", "200000", "--json"]
    whole = gridsolver(*args, "--resume", str(journal))
    assert whole.returncode == 0, whole.stderr
    kept = journal.read_text().splitlines()
    journal.write_text("\n".join(kept[: len(kept) // 2]) + "\n")
    resumed = gridsolver(*args, "--resume", str(journal))
    assert [same_run(json.loads(line)) for line in resumed.stdout.splitlines()] == \
        [same_run(json.loads(line)) for line in whole.stdout.splitlines()]


def test_a_tournament_goes_on_from_the_tracks_a_journal_holds(tmp_path):
    journal = tmp_path / "play.jsonl"
    args = ["ratrace", "play", "--player", "colour-score", "--tracks", "4", "--turns", "500",
            "--workers", "1", "--json"]
    whole = gridsolver(*args, "--resume", str(journal))
    kept = journal.read_text().splitlines()
    assert len(kept) == 4
    journal.write_text("\n".join(kept[:2]) + "\n")
    resumed = gridsolver(*args, "--resume", str(journal))
    track = [(line["input"], line["score"], line["stats"]["nodes"])
             for line in map(json.loads, resumed.stdout.splitlines()) if line["input"].startswith("seed/")]
    assert sorted(track) == sorted((line["input"], line["score"], line["stats"]["nodes"])
                                   for line in map(json.loads, whole.stdout.splitlines())
                                   if line["input"].startswith("seed/"))
    summaries = [json.loads(out.splitlines()[-1])["score"] for out in (resumed.stdout, whole.stdout)]
    assert summaries[0] == summaries[1]  # the geometric mean


def test_resume_takes_a_file_it_can_write(tmp_path):
    folder = tmp_path / "no" / "such"
    done = gridsolver("pegs", "solve", "english", "--resume", str(folder / "run.jsonl"))
    assert done.returncode == EXIT_BAD_INPUT and "--resume" in done.stderr
    assert os.path.exists(tmp_path) and not folder.exists()


@pytest.mark.slow
def test_a_lost_scheduler_prints_what_finished_and_resume_goes_on(tmp_path):
    """The scheduler killed mid-table: the finished problems printed, one line, exit 4; --resume then
    finishes the table on local workers with the same results."""
    import threading

    from gridsolver.core.cliutil import EXIT_CLUSTER_LOST
    from tests.cluster import dask_processes

    journal = tmp_path / "table.jsonl"
    args = ["pegs", "table", "triangle", "--nodes", "200000", "--json", "--resume", str(journal)]
    with dask_processes(tmp_path / "dask", workers=1) as cluster:
        process = subprocess.Popen([sys.executable, "-m", "gridsolver", *args, "--cluster", cluster.address],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        waiting = threading.Thread(target=lambda: _kill_when_written(journal, cluster.scheduler, 3))
        waiting.start()
        out, err = process.communicate(timeout=600)
        waiting.join()
    assert process.returncode == EXIT_CLUSTER_LOST, err
    assert [line for line in err.splitlines() if line.startswith("gridsolver:")][-1].count("went away") == 1
    printed = [json.loads(line) for line in out.splitlines()]
    assert printed and len(printed) == len(journal.read_text().splitlines())
    resumed = gridsolver(*args)
    whole = gridsolver(*args[:-2])
    assert [same_run(json.loads(line)) for line in resumed.stdout.splitlines()] == \
        [same_run(json.loads(line)) for line in whole.stdout.splitlines()]


def _kill_when_written(journal, process, lines: int) -> None:
    deadline = time.monotonic() + 500
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and journal.read_text().count("\n") >= lines:
            process.kill()
            return
        time.sleep(0.05)
