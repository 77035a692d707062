"""Ctrl-C on a real `solve` command: the board being solved prints its best, valid JSON, exit 130."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from gridsolver.core.cliutil import EXIT_INTERRUPTED

STOP_CAP_S = 10.0  # the stop takes well under a second (docs/contract.md); only a hang comes near this
PRESS_AFTER_S = (4.0, 15.0, 40.0)  # Ctrl-C after this long; later only if the command was still starting

# a 12 x 12 board with a quarter of its squares missing at random: its search runs its whole --time (best
# found, about 285 tokens after 30 s), where a 1500-square board from `bunny random` (made by a short
# program) is proved optimal at 7 tokens in about 3 s, before the first Ctrl-C on a fast machine
HARD_BUNNY = """\
S####  ## ##
### ##### ##
# ##########
#   ########
####### ####
# ### ## ##
### # ######
# #  ##  ###
############
 #### ## ##
######  ####
######### ##
"""

# (game, the board: a board-making command, its text, or None; solve arguments): each search would run
# its whole --time
LONG_SEARCHES = [
    ("bunny", HARD_BUNNY, ["bunny", "solve", "board.txt"]),
    # (the diamond is proved optimal at two pegs in about 2 s since issue 19: a sparse comesolo board runs on)
    ("pegs", ["pegs", "random", "30", "--density", "0.5", "--seed", "5"], ["pegs", "solve", "board.txt"]),
    # (a clearable 40x40 board is cleared in about a second since issue 17: a random 64x64 one is not)
    ("clickomania", ["clickomania", "generate", "--random", "64x64x5", "--seed", "1"],
     ["clickomania", "solve", "board.txt"]),
    ("samegame", None, ["samegame", "solve", "standard-20", "--workers", "2"]),
]


def gridsolver(*args: str) -> list[str]:
    return [sys.executable, "-m", "gridsolver", *args]


def sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # background jobs start with SIGINT ignored


@pytest.mark.slow
@pytest.mark.parametrize(("game", "make", "solve"), LONG_SEARCHES, ids=[g for g, _, _ in LONG_SEARCHES])
def test_ctrl_c_prints_the_best_so_far_and_exits_130(tmp_path, game, make, solve):
    if isinstance(make, str):
        (tmp_path / "board.txt").write_text(make)
    elif make:
        made = subprocess.run(gridsolver(*make), capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert made.returncode == 0, made.stderr
        (tmp_path / "board.txt").write_text(made.stdout)
    warm = subprocess.run(gridsolver(*solve, "--time", "1", "--json"), capture_output=True, text=True,
                          cwd=tmp_path, timeout=600)  # kernels compiled and cached before the real run
    assert warm.returncode in (0, 1), warm.stderr
    for wait in PRESS_AFTER_S:
        run = subprocess.Popen(gridsolver(*solve, "--time", "600", "--json"), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=tmp_path, preexec_fn=sigint_default)
        time.sleep(wait)  # well into the search, on a machine that is not overloaded
        assert run.poll() is None, "the search ended before Ctrl-C"
        pressed = time.monotonic()
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=60)
        took = time.monotonic() - pressed
        assert run.returncode == EXIT_INTERRUPTED, err
        assert took < STOP_CAP_S
        if out or err.strip() != "gridsolver: interrupted":
            break
        # Ctrl-C came while the command was still starting (imports, loading the kernels): nothing was
        # being solved yet, so nothing to print. Only an overloaded machine starts this slowly: again,
        # pressing later (the other tests' assertions still apply to the last try)
    lines = out.splitlines()
    assert len(lines) == 1  # the board being solved; later boards (samegame's set) are not started
    result = json.loads(lines[0])
    assert result["stopped"] == "interrupted"
    assert result["status"] == "best-found" and result["solution"] and result["verified"] is True
    assert "Traceback" not in err and "interrupted" in err


@pytest.mark.slow
def test_ctrl_c_on_a_table_prints_the_finished_problems_and_exits_130(tmp_path):
    """`pegs table` runs many searches: Ctrl-C keeps the problems already decided (and the running
    one's status), says how many finished, and exits 130."""
    table = ["pegs", "table", "european", "--time", "120", "--seed", "2", "--json"]
    run = subprocess.Popen(gridsolver(*table), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           cwd=tmp_path, preexec_fn=sigint_default)
    time.sleep(6.0)  # past the problems that position classes decide, into a search
    assert run.poll() is None, "the table ended before Ctrl-C"
    pressed = time.monotonic()
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert run.returncode == EXIT_INTERRUPTED, err
    assert time.monotonic() - pressed < STOP_CAP_S
    results = [json.loads(line) for line in out.splitlines()]
    assert 0 < len(results) < 190
    assert all(r["status"] == "impossible" or r["verified"] or r["stopped"] == "interrupted"
               for r in results)
    assert f"{len(results)} of 190 problems finished" in err and "Traceback" not in err


@pytest.mark.slow
def test_ctrl_c_on_boards_spread_over_workers_prints_the_running_ones_in_order_and_exits_130(tmp_path):
    """Three 64x64 boards, two at a time: Ctrl-C stops the two running searches, which print their best
    in board order; the third is not started, and the line on standard error says so."""
    made = subprocess.run(gridsolver("clickomania", "generate", "--random", "64x64x5", "--count", "3"),
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    (tmp_path / "three.txt").write_text(made.stdout)
    solve = gridsolver("clickomania", "solve", "three.txt", "--workers", "2", "--time", "600", "--json")
    for wait in (20.0, 45.0, 90.0):  # the workers warmed (compiled on a first run), both boards searching
        run = subprocess.Popen(solve, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=tmp_path, preexec_fn=sigint_default)
        time.sleep(wait)
        assert run.poll() is None, "the run ended before Ctrl-C"
        pressed = time.monotonic()
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=60)
        assert run.returncode == EXIT_INTERRUPTED, err
        assert time.monotonic() - pressed < STOP_CAP_S
        if len(out.splitlines()) == 2:
            break
        # a worker still warming on a loaded machine (a cold cache: both compile at once) has no best
        # to print yet: later
        assert "Traceback" not in err, err
        one_started = "stopped with its best so far; 2 boards not finished"
        assert "0 of 3 boards finished" in err or one_started in err, err
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["input"] for r in results] == ["three.txt#1", "three.txt#2"]
    assert all(r["stopped"] == "interrupted" and r["verified"] for r in results)
    assert "three.txt#1, three.txt#2 stopped with their best so far; 1 board not finished" in err
    assert "Traceback" not in err


PLAYER_FILE = "def ahead(view, genome):\n    return (1, 0)\n"
# (player, turns): a built-in numba player, a built-in plain-Python one, a user's file (in child processes)
TOURNAMENTS = [("colour-score", "10000"), ("colour-score-python", "1000"), ("player.py:ahead", "1000")]
# tracks enough that no machine finishes them before the Ctrl-C (50 took under 5 s on a fast one)
TOURNAMENT_TRACKS = 500


@pytest.mark.slow
@pytest.mark.parametrize(("player", "turns"), TOURNAMENTS, ids=[p for p, _ in TOURNAMENTS])
def test_ctrl_c_on_a_tournament_prints_the_finished_tracks_and_exits_130(tmp_path, player, turns):
    """`ratrace play --tracks N`: Ctrl-C keeps the tracks already played, prints their summary and one
    interrupted line, exit 130, and no traceback (loky's manager thread once printed one:
    InvalidStateError: CANCELLED)."""
    (tmp_path / "player.py").write_text(PLAYER_FILE)
    play = ["ratrace", "play", "--player", player, "--tracks", str(TOURNAMENT_TRACKS), "--turns", turns]
    warm = subprocess.run(gridsolver(*play[:-4], "--tracks", "2", "--turns", "10"), capture_output=True,
                          text=True, cwd=tmp_path, timeout=600)  # the game loop compiled and cached
    assert warm.returncode == 0, warm.stderr
    for wait in (5.0, 8.0):  # the tournament takes minutes; later only if it was starting
        run = subprocess.Popen(gridsolver(*play), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=tmp_path, preexec_fn=sigint_default)
        time.sleep(wait)
        assert run.poll() is None, "the tournament ended before Ctrl-C"
        pressed = time.monotonic()
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=60)
        assert run.returncode == EXIT_INTERRUPTED, err
        assert time.monotonic() - pressed < STOP_CAP_S
        if out or err.strip() != "gridsolver: interrupted":
            break  # else Ctrl-C came while the command was still starting: again, later
    assert "Traceback" not in err and "Error" not in err, err
    finished = [line for line in out.splitlines() if line.startswith("track ")]
    assert f"interrupted: {len(finished)} of {TOURNAMENT_TRACKS} tracks finished" in err
    assert f"interrupted: {len(finished)} of {TOURNAMENT_TRACKS} tracks finished" in out  # the summary too
