"""A user's player runs isolated: whatever it does, the error names the player, the track and the turn,
the other tracks are still played, and the program neither dies nor hangs (docs/ratrace.md, "Player
code that misbehaves").

The players misbehave only on track seed 3, when a rat stands in the first column on colour 8: seed 3
has a start cell of that colour there, seeds 2 and 4 have none anywhere in that column (checked by
``test_the_trigger_fires_on_seed_3_only``). A tournament from seed 2 therefore fails on track 2 alone.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsolver import ratrace
from gridsolver.cli import cli
from gridsolver.core.errors import InputError
from gridsolver.ratrace.generate import generate_track
from gridsolver.ratrace.guard import OUTPUT_LIMIT_BYTES, PlayerError
from gridsolver.ratrace.tournament import TournamentError

SEED, COLOUR = 2, 8  # tracks of seeds 2 (played), 3 (the player misbehaves), 4 (played)
CAP_S = 30.0  # a generous cap on a whole test's tournament: a child's start-up, two short games, a limit
MOVE_LIMIT = 0.5

PYTHON_PLAYER = """\
import os, sys, time
import numpy as np
HOARD = []


def move(view, genome):
    if view[2][1] < 0 and view[2][2] == {colour}:  # first column, colour {colour}: track seed 3 only
{action}
    return (1, 0)
"""

NUMBA_PLAYER = """\
from numba import njit


@njit
def move(view, genome):
    if view[2, 1] < 0 and view[2, 2] == {colour}:
        x = 0
        while x >= 0:  # forever: x stays in 0..65535
            x = (x + 1) & 65535
        return x, 0
    return 1, 0
"""


def player_file(tmp_path: Path, action: str, template: str = PYTHON_PLAYER) -> str:
    path = tmp_path / "mine.py"
    body = "\n".join("        " + line for line in action.splitlines())
    path.write_text(template.format(colour=COLOUR, action=body))
    return f"{path}:move"


def failed_tournament(spec: str, *, tracks: int = 2, turns: int = 30,
                      **options) -> tuple[TournamentError, float]:
    started = time.monotonic()
    options = {"move_limit": MOVE_LIMIT, **options}
    with pytest.raises(TournamentError) as caught:
        ratrace.play(spec, tracks=tracks, seed=SEED, turns=turns, workers=1, **options)
    return caught.value, time.monotonic() - started


def assert_track_2_failed(error: TournamentError, spec: str, reason: str, *, tracks: int = 2) -> None:
    """Track 2 (seed 3) failed with ``reason`` (a regex), named with the player and a turn; the other
    tracks were played to the end."""
    tournament = error.tournament
    assert [tournament.track_number(r) for r in tournament.failures] == [2]
    message = str(error)
    assert re.match(rf"player {re.escape(spec)}, track 2 \(seed 3\), turn \d+: {reason}", message), message
    assert tournament.failures[0].details["error"] == message
    assert tournament.failures[0].details["turn"] >= 1
    played = [r for r in tournament.results if "error" not in r.details]
    assert [r.details["seed"] for r in played] == [s for s in range(SEED, SEED + tracks) if s != 3]
    assert all(r.status == "played" and r.score >= 1 for r in played)
    assert len(tournament.points) == tracks - 1 and tournament.geometric_mean >= 1


def test_the_trigger_fires_on_seed_3_only():
    for seed in (2, 4):
        assert COLOUR not in generate_track(seed).colours[:, 0]
    track = generate_track(3)
    assert COLOUR in {int(track.colours[y, 0]) for y in track.start_cells}


@pytest.mark.parametrize("action, reason", [
    ("raise ValueError('no such colour')", "raised ValueError: no such colour"),
    ("return 'up'", r"returned 'up', not a move \(dx, dy\) with dx, dy in -1\.\.1"),
    ("return (2, 0)", r"returned \(2, 0\), not a move"),
    ("sys.exit(3)", r"called sys\.exit\(3\)"),
    ("raise KeyboardInterrupt", "raised KeyboardInterrupt"),
], ids=["raise", "wrong-type", "illegal-move", "sys-exit", "keyboard-interrupt"])
def test_a_player_that_raises_or_returns_nonsense(tmp_path, action, reason):
    spec = player_file(tmp_path, action)
    error, seconds = failed_tournament(spec)
    assert_track_2_failed(error, spec, reason)
    assert seconds < CAP_S


def test_a_player_that_ends_its_process(tmp_path):
    spec = player_file(tmp_path, "print('bye'); os._exit(3)")
    error, seconds = failed_tournament(spec, tracks=3)  # track 3 plays in a fresh child
    assert_track_2_failed(error, spec, r"ended its process \(exit code 3", tracks=3)
    assert "it printed 4 bytes: 'bye\\n'" in str(error)
    assert seconds < CAP_S


def test_a_player_that_crashes_its_process(tmp_path):
    spec = player_file(tmp_path, "import ctypes; ctypes.string_at(0)")
    error, seconds = failed_tournament(spec)
    assert_track_2_failed(error, spec, r"crashed its process \(SIGSEGV")
    assert "Segmentation fault" in error.tournament.failures[0].details["error"]  # faulthandler's stack
    assert seconds < CAP_S


@pytest.mark.parametrize("action", ["while True:\n    pass", "time.sleep(600)"], ids=["loop", "sleep"])
def test_a_python_player_that_never_returns(tmp_path, action):
    spec = player_file(tmp_path, action)
    error, seconds = failed_tournament(spec, tracks=3)
    assert_track_2_failed(error, spec, r"a move took more than 0\.5 s \(the per-move limit, --move-limit\)",
                          tracks=3)
    assert seconds < MOVE_LIMIT + CAP_S


def test_a_numba_player_that_never_returns(tmp_path):
    spec = player_file(tmp_path, "", template=NUMBA_PLAYER)
    error, seconds = failed_tournament(spec)
    assert_track_2_failed(error, spec, r"a move took more than 0\.5 s")
    assert seconds < MOVE_LIMIT + CAP_S + 30  # the child compiles the game loop for the player


@pytest.mark.slow  # several seconds each: the default run stays under 5 minutes
def test_a_slow_player_meets_the_game_limit(tmp_path):
    """Once it has seen colour 8, each call takes 5 ms, under the per-move limit: the per-game limit
    stops the game (300 turns of 10 rats or more: 15 s at least)."""
    spec = player_file(tmp_path, "global SLOW\nSLOW = True")
    path = Path(spec.rpartition(":")[0])
    path.write_text(path.read_text().replace("    return (1, 0)\n",
                                             "    if globals().get('SLOW'):\n        time.sleep(0.005)\n"
                                             "    return (1, 0)\n"))
    error, seconds = failed_tournament(spec, turns=300, game_limit=5.0)
    assert_track_2_failed(error, spec, r"the game ran for more than 5 s \(the per-game limit")
    assert seconds < 5.0 + CAP_S


def test_a_player_that_prints_megabytes(tmp_path):
    spec = player_file(tmp_path, "print('x' * 3_000_000)")
    error, seconds = failed_tournament(spec)
    limit = OUTPUT_LIMIT_BYTES / 2**20
    assert_track_2_failed(error, spec, rf"printed more than {limit:g} MB")
    assert "the first 2,048 shown: 'xxxx" in str(error) and len(str(error)) < 2500
    assert seconds < CAP_S


@pytest.mark.parametrize("action", ["np.ones(2**31)",
                                    "while True:\n    HOARD.append(bytearray(50 * 2**20))"],
                         ids=["at-once", "bit-by-bit"])
def test_a_player_that_allocates_gigabytes(tmp_path, action):
    spec = player_file(tmp_path, action)
    error, seconds = failed_tournament(spec, memory=256, move_limit=10)  # no move is cut short first
    assert_track_2_failed(error, spec,
                          r"(raised MemoryError|its process grew to [\d,]+ MB, over the 1,280 MB)")
    assert seconds < CAP_S


def test_what_a_player_prints_stays_out_of_the_output(tmp_path):
    path = tmp_path / "chatty.py"
    path.write_text("print('loading')\n\ndef move(view, genome):\n    print('moving')\n    return (1, 0)\n")
    result = CliRunner().invoke(cli, ["ratrace", "play", "--player", f"{path}:move", "--tracks", "2",
                                      "--turns", "20", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]  # every line is JSON
    assert [line["status"] for line in lines] == ["played"] * 3


def test_cli_prints_every_track_and_exits_2(tmp_path):
    spec = player_file(tmp_path, "return (2, 0)")
    result = CliRunner().invoke(cli, ["ratrace", "play", "--player", spec, "--tracks", "3", "--turns", "30",
                                      "--seed", str(SEED), "--workers", "2", "--json"])
    assert result.exit_code == 2
    lines = result.output.splitlines()
    records = [json.loads(line) for line in lines[:4]]
    by_seed = {r["details"]["seed"]: r for r in records[:3]}
    assert by_seed[3]["status"] == "failed" and by_seed[3]["score"] is None
    assert by_seed[3]["details"]["error"].startswith(f"player {spec}, track 2 (seed 3), turn ")
    assert by_seed[2]["status"] == by_seed[4]["status"] == "played"
    assert records[3]["details"]["failed"] == [2] and records[3]["details"]["tracks"] == 2
    assert records[3]["score"] == round((by_seed[2]["score"] * by_seed[4]["score"]) ** 0.5, 3)
    assert lines[4].startswith(f"gridsolver: error: player {spec}, track 2 (seed 3), turn ")
    assert len(lines) == 5


def test_solve_names_the_track_and_the_turn(tmp_path):
    spec = player_file(tmp_path, "raise ValueError('no')")
    with pytest.raises(PlayerError, match=rf"^player {re.escape(spec)}, track seed/3, turn \d+: raised "
                                          "ValueError: no at .*mine.py, line 8, in move$"):
        ratrace.solve(ratrace.named("seed/3"), player=spec, turns=30)
    result = CliRunner().invoke(cli, ["ratrace", "solve", "seed/3", "--player", spec, "--turns", "30"])
    assert result.exit_code == 2
    assert result.output.startswith(f"gridsolver: error: player {spec}, track seed/3")


def test_a_function_given_in_python_is_isolated_too():
    def move(view, genome):
        if view[2][1] < 0 and view[2][2] == COLOUR:
            os._exit(5)
        return (1, 0)

    with pytest.raises(TournamentError) as caught:
        ratrace.play(move, tracks=2, seed=SEED, turns=30)
    assert "exit code 5" in str(caught.value) and len(caught.value.tournament.points) == 1


def test_in_process_plays_here_unprotected(tmp_path):
    """--in-process (isolate=False): the player runs here, unwatched; a sys.exit of it is still named."""
    spec = player_file(tmp_path, "sys.exit(4)")
    with pytest.raises(TournamentError, match=r"called sys\.exit\(4\)"):
        ratrace.play(spec, tracks=2, seed=SEED, turns=30, workers=1, isolate=False)


@pytest.mark.slow  # several seconds each: the default run stays under 5 minutes
def test_compiling_does_not_count_against_time(tmp_path):
    """A numba player's loop compiles in seconds (3 s and more on 2 cores), kept out of --time: the
    game still plays many turns in the half of --time 4 a solve plays (the replay gets the other half),
    less the start of the player's process (a second), which counts."""
    path = tmp_path / "fresh.py"
    path.write_text("from numba import njit\n\n@njit\ndef move(view, genome):\n    return 1, 0\n")
    result = ratrace.solve(ratrace.named("seed/1"), player=f"{path}:move", turns=10**7, time=4)
    assert result.stopped == "time" and result.details["turns"] > 10, result.details
    assert result.stats.compile_s > 0


@pytest.mark.parametrize("options, message", [
    ({"tracks": 1_000_000_000}, "--tracks 1,000,000,000: at most 100,000 tracks"),
    ({"move_limit": 0}, "--move-limit 0: expected a number of seconds above 0"),
    ({"game_limit": float("nan")}, "--game-limit nan"),
])
def test_bad_limits_fail_before_any_game(options, message):
    started = time.monotonic()
    with pytest.raises(InputError, match=re.escape(message)):
        ratrace.play("forward", **options)
    assert time.monotonic() - started < 10  # nothing built or played


def _interrupted_play(args: list[str], lines_before: int) -> tuple[int, list[str], str]:
    """Run `gridsolver ratrace play ARGS`, send SIGINT once ``lines_before`` track lines are out."""
    process = subprocess.Popen([sys.executable, "-m", "gridsolver", "ratrace", "play", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert process.stdout is not None
    out = [process.stdout.readline() for _ in range(lines_before)]
    process.send_signal(signal.SIGINT)
    rest, err = process.communicate(timeout=60)
    return process.returncode, out + rest.splitlines(), err


@pytest.mark.slow  # several seconds each: the default run stays under 5 minutes
@pytest.mark.parametrize("player", ["forward", "python"])
def test_ctrl_c_prints_the_finished_tracks_and_their_geometric_mean(tmp_path, player):
    if player == "python":
        path = tmp_path / "steady.py"
        path.write_text("def move(view, genome):\n    return (1, 0)\n")
        player = f"{path}:move"
    code, lines, err = _interrupted_play(["--player", player, "--tracks", "500", "--turns", "3000",
                                          "--workers", "1"], lines_before=2)
    assert code == 130, err
    tracks = [line for line in lines if line.startswith("track ")]
    assert len(tracks) >= 2 and all("points" in line for line in tracks)
    summary = next(line for line in lines if "geometric mean" in line)
    assert f"over {len(tracks)} tracks" in summary
    assert f"interrupted: {len(tracks)} of 500 tracks finished" in "\n".join(lines)
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("gridsolver: interrupted")


@pytest.mark.slow  # 10-15 s: a fresh interpreter, then a child compiling the loop for the player
def test_ctrl_c_stops_a_numba_player_that_loops_forever(tmp_path):
    """Track 2's player loops inside the compiled game loop (no per-move limit to speak of): Ctrl-C
    still ends the program at once, with track 1 printed and counted."""
    spec = player_file(tmp_path, "", template=NUMBA_PLAYER)
    started = time.monotonic()
    code, lines, err = _interrupted_play(["--player", spec, "--tracks", "2", "--seed", str(SEED), "--turns",
                                          "30", "--workers", "1", "--move-limit", "600"], lines_before=1)
    assert code == 130, err
    assert lines[0].startswith("track 1 (seed 2): ")
    assert any("geometric mean" in line and "over 1 track " in line for line in lines)
    assert time.monotonic() - started < CAP_S + 30  # start-up and compiling the loop, not 600 s


@pytest.mark.slow  # a Dask cluster starts in 5-10 s
def test_on_a_dask_cluster_a_users_player_is_isolated_too(tmp_path):
    from dask.distributed import LocalCluster

    spec = player_file(tmp_path, "os._exit(7)")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with pytest.raises(TournamentError) as caught:
            ratrace.play(spec, tracks=3, seed=SEED, turns=30, cluster=cluster.scheduler_address)
    assert_track_2_failed(caught.value, spec, r"ended its process \(exit code 7", tracks=3)


RAISER = """\
def pick(view):
    return view[9][9]


def move(view, genome):
    return pick(view)
"""


@pytest.mark.parametrize("isolation", [[], ["--in-process"]], ids=["child", "in-process"])
def test_a_player_that_raises_is_named_with_its_file_line_and_exception(tmp_path, monkeypatch, isolation):
    monkeypatch.setattr("gridsolver.cli._debug", False)  # --debug sticks for the process (one command)
    path = tmp_path / "raiser.py"
    path.write_text(RAISER)
    args = ["ratrace", "solve", "seed/1", "--player", f"{path}:move", "--turns", "5", *isolation]
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 2
    assert done.output == (f"gridsolver: error: player {path}:move, track seed/1, turn 1: raised IndexError: "
                           f"tuple index out of range at {path}, line 2, in pick\n")
    debug = CliRunner().invoke(cli, ["--debug", *args])
    assert debug.exit_code == 2
    assert debug.output.startswith("Traceback (most recent call last):\n"
                                   f'  File "{path}", line 6, in move\n')
    assert f'  File "{path}", line 2, in pick\n' in debug.output
    assert "gridsolver/" not in debug.output.split("IndexError")[0]  # the player's frames alone
    assert debug.output.endswith(done.output)
