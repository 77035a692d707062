"""Watching real searches: events from every game, the status line in a real pseudo-terminal."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

import gridsolver

# (game, board, solve options): a few seconds at most each
API_SEARCHES = [
    ("bunny", "07-full-12x12", {"time": 30}),
    ("pegs", "english", {"time": 10}),
    ("clickomania", "duel-5x5", {"time": 5}),
    ("samegame", "standard-20", {"time": 2, "workers": 2}),
    ("ratrace", "seed/3", {"time": 10, "player": "colour-score", "turns": 2000}),
]


def check_events(events: list[dict], result, game_board=None) -> None:
    """What every game's events promise: start first, end last, improved scores never worse, the
    last improvement the result."""
    assert events[0]["event"] == "start" and events[-1]["event"] == "end"
    assert all(set(e) >= {"event", "game", "input", "t"} for e in events)
    times = [e["t"] for e in events]
    assert times == sorted(times)
    game = getattr(gridsolver, events[0]["game"]).GAME
    _, minimize = game.sense(result.options)
    scores = [e["score"] for e in events if e["event"] == "improved"]
    assert scores, "no improved event"
    assert scores == sorted(scores, reverse=minimize)
    assert scores[-1] == result.score
    assert events[-1]["status"] == result.status and events[-1]["score"] == result.score
    assert events[-1]["verified"] is True
    for event in events:  # a solution that travels in an event replays to the score it came with
        if event["event"] == "improved" and event.get("solution") is not None and game_board is not None:
            replayed = game.check(game_board, event["solution"], **result.options)
            assert replayed.score == event["score"], event


@pytest.mark.parametrize(("game", "name", "options"), API_SEARCHES, ids=[g for g, _, _ in API_SEARCHES])
def test_solve_tells_on_event_what_it_finds(game, name, options):
    module = getattr(gridsolver, game)
    events: list[dict] = []
    board = module.load(name)[0]
    result = module.solve(board, on_event=events.append, **options)
    check_events(events, result, board)
    if game != "ratrace":  # its improvements are the points of a game still being played
        assert any(e.get("solution") is not None for e in events if e["event"] == "improved"), events


def run_solve_with_events(tmp_path, args: list[str]) -> tuple[list[dict], list[dict]]:
    path = tmp_path / "events.jsonl"
    done = subprocess.run([sys.executable, "-m", "gridsolver", *args, "--json", "--events", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    return [json.loads(line) for line in path.read_text().splitlines()], results


def test_events_file_holds_each_boards_events_in_order(tmp_path):
    events, results = run_solve_with_events(tmp_path, ["pegs", "solve", "english", "triangle", "--time", "5"])
    ends = [e for e in events if e["event"] == "end"]
    assert [e["input"] for e in ends] == ["english", "triangle"]
    assert [e["score"] for e in ends] == [r["score"] for r in results]
    starts = [e for e in events if e["event"] == "start"]
    assert [(e["board_index"], e["boards"]) for e in starts] == [(1, 2), (2, 2)]


# -- the status line, in a real pseudo-terminal --------------------------------------------------------
FRAME = re.compile(r"(\d+\.\d) / (\d+) s  (best [\d,]+ [a-z ]+|no solution yet)")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run_in_pty(args: list[str], seconds: float = 120) -> tuple[str, str, int]:
    """Run the command with standard error on a pseudo-terminal and standard output on a pipe."""
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))  # 200 columns
    env = {k: v for k, v in os.environ.items() if k != "GRIDSOLVER_NO_PROGRESS"}
    process = subprocess.Popen([sys.executable, "-m", "gridsolver", *args], stdout=subprocess.PIPE,
                               stderr=child, env=env)
    os.close(child)
    screen = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            screen += chunk
        elif process.poll() is not None:
            break
    os.close(main)
    stdout = process.stdout.read().decode() if process.stdout else ""
    return screen.decode(errors="replace"), stdout, process.wait(timeout=30)


def frames_of(screen: str) -> list[str]:
    """The status frames drawn on the terminal (each begins by erasing the line), colours taken off."""
    return [ANSI.sub("", part) for part in screen.split("\r\x1b[2K") if FRAME.search(ANSI.sub("", part))]


# (game, a command making its board or None, solve arguments): each searches its whole --time
PTY_SEARCHES = [
    ("bunny", None, ["bunny", "solve", "BOARD", "--time", "8"]),
    ("pegs", ["pegs", "random", "30", "--density", "0.5", "--seed", "5"], ["pegs", "solve", "BOARD"]),
    ("clickomania", ["clickomania", "generate", "--random", "64x64x5", "--seed", "1"],
     ["clickomania", "solve", "BOARD"]),
    ("samegame", None, ["samegame", "solve", "BOARD", "--workers", "1"]),
    # (a track on which the rats thrive; the game plays part of --time, leaving the rest for the replay
    # that verifies it)
    ("ratrace", None, ["ratrace", "solve", "seed/5", "--player", "colour-score", "--turns", "1000000",
                       "--time", "8"]),
]
HARD_BUNNY = "S####  ## ##\n### ##### ##\n# ##########\n#   ########\n####### ####\n# ### ## ##\n" \
             "### # ######\n# #  ##  ###\n############\n #### ## ##\n######  ####\n######### ##\n"


def board_file(tmp_path, game: str, make: list[str] | None) -> str:
    path = tmp_path / "board.txt"
    if game == "bunny":
        path.write_text(HARD_BUNNY)
    elif game == "samegame":
        formatted = subprocess.run([sys.executable, "-m", "gridsolver", "samegame", "format", "standard-20"],
                                   capture_output=True, text=True, check=True).stdout
        path.write_text(formatted.split("\n\n")[0] + "\n")
    elif make is not None:
        made = subprocess.run([sys.executable, "-m", "gridsolver", *make], capture_output=True, text=True,
                              check=True)
        path.write_text(made.stdout)
    return str(path)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "make", "solve"), PTY_SEARCHES, ids=[g for g, _, _ in PTY_SEARCHES])
def test_a_terminal_watches_each_game_think(tmp_path, game, make, solve):
    board = board_file(tmp_path, game, make)
    args = [board if a == "BOARD" else a for a in solve]
    if "--time" not in args:
        args += ["--time", "8"]  # start-up counts in the budget: a loaded machine eats seconds of it
    subprocess.run([sys.executable, "-m", "gridsolver", *args[:2], "--help"], check=True,
                   capture_output=True)
    screen, stdout, code = run_in_pty(args)
    assert code in (0, 1), screen
    frames = frames_of(screen)
    distinct = {FRAME.search(f).group(0) for f in frames}
    assert len(distinct) >= 3, frames  # the time (and often the best) moves on between frames
    assert all(FRAME.search(f).group(3).startswith("best") for f in frames[-2:])
    summary = ANSI.sub("", screen).rstrip().splitlines()[-1]
    assert re.search(r": (optimal|best-found|played|not-found) .* in \d+\.\d s", summary), summary
    assert "\x1b" not in stdout and " s  best" not in stdout  # the status stays off standard output
    assert stdout.strip()  # where the result goes


def test_a_terminal_sees_a_status_line_and_a_pipe_does_not(tmp_path):
    board = board_file(tmp_path, "clickomania", ["clickomania", "generate", "--random", "40x40x6",
                                                 "--seed", "2"])
    # (8 s: loading the kernels counts in the budget, and takes seconds on a loaded machine)
    screen, stdout, code = run_in_pty(["clickomania", "solve", board, "--time", "8"])
    assert code in (0, 1)
    assert frames_of(screen), screen
    assert "cells left" in stdout and "\x1b" not in stdout
    piped = subprocess.run([sys.executable, "-m", "gridsolver", "clickomania", "solve", board, "--time", "3"],
                           capture_output=True, text=True, env={k: v for k, v in os.environ.items()
                                                                if k != "GRIDSOLVER_NO_PROGRESS"})
    assert " / 3 s" not in piped.stderr and "\x1b" not in piped.stderr
    quiet, _, _ = run_in_pty(["clickomania", "solve", board, "--time", "3", "--quiet"])
    assert not frames_of(quiet)
    # (6 s: loading the kernels counts in the budget, and takes seconds on a loaded machine)
    asked = subprocess.run([sys.executable, "-m", "gridsolver", "clickomania", "solve", board, "--time", "6",
                            "--progress"], capture_output=True, text=True)
    plain = [line for line in asked.stderr.splitlines() if " / 6 s" in line]
    assert plain and "\x1b" not in asked.stderr


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["bunny", "bench", "--time", "3", "--workers", "2"],
    ["ratrace", "play", "--player", "colour-score", "--tracks", "6", "--turns", "200000", "--time", "3"],
], ids=["bunny-bench", "ratrace-play"])
def test_a_run_of_many_boards_shows_how_many_are_done(args):
    screen, stdout, code = run_in_pty(args)
    assert code == 0, screen
    plain = ANSI.sub("", screen)
    counts = re.findall(r"  (\d+)/(\d+) (boards|tracks)  \d+\.\d s", plain)
    assert len(counts) >= 3, plain[-2000:]
    done = [int(k) for k, _, _ in counts]
    assert done == sorted(done) and {total for _, total, _ in counts} == {"12" if "bench" in args else "6"}
    assert "\x1b" not in stdout and "/12 boards" not in stdout and "/6 tracks" not in stdout
