"""``gridsolver bunny show``: the film of a program, checked against the simulator run on flat prefixes."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from gridsolver.bunny import film as bunny_film
from gridsolver.bunny.game import GAME
from gridsolver.bunny.notation import format_program, parse_program
from gridsolver.bunny.rules import Board, Loop, Program, Simulator, board_from_text, simulate
from gridsolver.core.errors import InputError
from gridsolver.core.film import Film, svg
from gridsolver.core.page import MAX_PAGE_BYTES, page_html

from .helpers import random_connected_board, random_program

LEVEL3 = "S##\n# #\n###"
SOUTH = "facing: south\nS##\n# #\n###"
# an open 20 x 20 board and a program that executes 5,759 tokens (1,312,170 steps with the skipped cycles)
OPEN20 = "\n".join(["S" + "#" * 19] + ["#" * 20] * 19)
LONG = "LOOP(30){L LOOP(38){R L LOOP(28){L LOOP(39){F} F} L}}"


def flat(program: Program, unbounded: int = 0) -> list[tuple[str, int]]:
    """The F/L/R tokens a program executes with where each is written: ``LOOP(n){`` and ``}`` count too."""
    def walk(tokens: Program, at: int) -> tuple[list[tuple[str, int]], int]:
        seq: list[tuple[str, int]] = []
        for token in tokens:
            if isinstance(token, Loop):
                body, end = walk(token.body, at + 1)
                seq += body * (unbounded if token.count is None else token.count)
                at = end + 1  # past the body and its "}"
            else:
                seq.append((token, at))
                at += 1
        return seq, at

    return walk(program, 0)[0]


def after(board: Board, tokens: list[str]) -> Simulator:
    """The simulator after running a loop-free program (no cycle skipping, stops when complete)."""
    simulator = Simulator(board)
    simulator.run(tuple(tokens))
    return simulator


def check_frames(board: Board, text: str, unbounded: int = 0) -> Film:
    """Every frame equals the simulator after the flat prefix of as many steps as the frame says."""
    program = parse_program(text)
    film = GAME.film(board, text, {})
    executed = flat(program, unbounded)
    assert film.panel and film.panel_title == "program"
    for k, frame in enumerate(film.frames):
        n = int(frame.counters["steps"])
        assert frame.text.startswith(f"step {n:,} of ")
        simulator = after(board, [t for t, _ in executed[:n]])
        assert simulator.steps == n
        marked = {board.squares[q] for q in simulator.marked}
        for index, ch in enumerate(frame.grid):
            rc = divmod(index, board.columns)
            if board.index(*rc) is None:
                assert ch == " "
            else:
                assert (ch in "Ox") == (rc in marked), (k, rc, ch)
                assert (ch == "O") == (board.index(*rc) in board.premarked | {board.start}), (k, rc, ch)
        assert frame.counters["squares marked"] == len(simulator.marked)
        assert frame.counters["squares left"] == board.size - len(simulator.marked)
        row, column = board.squares[simulator.square]
        assert frame.marks == [(row * board.columns + column, "bunny", simulator.direction * 90.0)]
        if k == 0:
            assert n == 0 and frame.panel_index == -1
        elif frame.panel_index == -1:  # the run ends in skipped cycles: the closing frame says so
            assert k == film.steps and "skipped" in frame.text
        else:
            token, at = executed[n - 1]
            assert film.panel[frame.panel_index] == token and frame.panel_index == at
            assert token in ("F", "L", "R")
    run = simulate(board, program)
    assert film.frames[-1].counters["steps"] == run.steps
    assert film.frames[-1].counters["squares left"] == len(run.unmarked)
    return film


def test_panel_is_the_program_as_written():
    words, _ = bunny_film.panel(parse_program("LOOP{F LOOP(3){F L}} R"))
    assert words == ["LOOP{", "F", "LOOP(3){", "F", "L", "}", "}", "R"]


@pytest.mark.parametrize("text", ["LOOP(6){F F L}", "F R F F R F L LOOP(2){F}", "LOOP(3){F LOOP(2){R} F}"])
def test_frames_follow_the_simulator_on_level_3(text):
    check_frames(board_from_text(LEVEL3), text)


def test_frames_follow_the_simulator_on_random_boards_and_programs():
    rng = random.Random(16)
    for _ in range(25):
        board = random_connected_board(rng, rng.randint(2, 5), rng.randint(2, 5))
        program = random_program(rng, rng.randint(1, 7), max_count=4)
        check_frames(board, format_program(program))


def test_an_unbounded_loop_stops_when_every_square_is_marked():
    board = GAME.named("challenge/03")
    film = check_frames(board, "LOOP{F F L}", unbounded=20)
    assert film.steps == 16 == simulate(board, parse_program("LOOP{F F L}")).steps
    assert film.frames[-1].counters["squares left"] == 0
    assert "every square is marked" in film.frames[-1].text
    assert "every square marked in 16 steps" in film.title


def test_an_endless_loop_and_an_unfinished_program_still_replay():
    board = board_from_text(LEVEL3)
    film = check_frames(board, "LOOP{F}", unbounded=3)
    assert "endless" in film.title and "5 squares never marked" in film.frames[-1].text
    film = check_frames(board, "F F")
    assert film.frames[-1].counters["squares left"] == 5
    assert "the program ends: 5 squares not marked" in film.frames[-1].text
    film = GAME.film(board, "LOOP{}", {})
    assert film.steps == 0 and "never marked" in film.frames[0].text


def test_skipped_cycles_keep_the_rules_step_count():
    board = board_from_text(LEVEL3)
    film = check_frames(board, "LOOP(1000){F R F L L}")
    assert film.frames[-1].counters["steps"] == 5000
    assert film.steps < 100  # the repeating cycle is skipped as the simulator skips it
    assert any("skipped" in frame.text for frame in film.frames)


def test_heading_follows_the_boards_facing():
    board = board_from_text(SOUTH)
    film = check_frames(board, "F F L F F R F")
    assert film.frames[0].marks[0][2] == 90.0 and "facing south" in film.frames[0].text
    assert film.frames[1].marks[0][0] == 1 * board.columns + 0  # south of the start


def test_long_runs_are_sampled_evenly(monkeypatch):
    board = board_from_text("S" + "#" * 49)
    monkeypatch.setattr(bunny_film, "MAX_STEPS", 20)
    film = check_frames(board, "LOOP(45){F}")  # 45 executed tokens, no cycle to skip
    counts = [f.counters["steps"] for f in film.frames]
    assert film.steps == 20 and counts[0] == 0 and counts[-1] == 45
    assert all(0 < b - a <= 3 for a, b in zip(counts, counts[1:], strict=False))
    assert "sampled: 20 of 45 executed steps shown" in film.title
    assert "sampled" not in check_frames(board, "LOOP(20){F}").title


def test_a_long_run_on_a_400_square_board_makes_a_small_page():
    board = board_from_text(OPEN20)
    film = GAME.film(board, LONG, {})
    assert film.steps == bunny_film.MAX_STEPS
    assert "sampled: 5,000 of 5,759 executed steps shown" in film.title
    assert film.frames[-1].counters["steps"] == simulate(board, parse_program(LONG)).steps == 1_312_170
    size = len(page_html(film).encode("utf-8"))
    assert size < MAX_PAGE_BYTES / 2


def test_json_round_trip_gives_the_same_frames():
    film = GAME.film(board_from_text(SOUTH), "LOOP{F L F R}", {})
    back = Film.from_json(json.loads(json.dumps(film.to_json())))
    assert [f.grid for f in back.frames] == [f.grid for f in film.frames]
    assert back.frames == film.frames
    assert back.panel == film.panel and back.plots == film.plots and back.legend == film.legend
    picture = svg(film, film.steps)
    assert picture.startswith("<svg") and "polygon" in picture


def test_no_program_or_a_malformed_one_is_an_input_error():
    board = board_from_text(LEVEL3)
    with pytest.raises(InputError, match="give the program"):
        GAME.film(board, None, {})
    with pytest.raises(InputError, match="never closed"):
        GAME.film(board, "LOOP(3){F", {})
    with pytest.raises(InputError, match="expected a program"):
        GAME.film(board, ["F"], {})


# -- command line ----------------------------------------------------------------------------------
def run(*args: str, cwd: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gridsolver", "bunny", "show", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd)


def test_cli_writes_a_page_an_svg_and_steps(tmp_path):
    page, picture = tmp_path / "level3.html", tmp_path / "level3.svg"
    done = run("challenge/03", "LOOP{F F L}", "-o", str(page), "--svg", str(picture), "--frame", "end")
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    assert '"game":"bunny"' in html and '"panel":["LOOP{","F","F","L","}"]' in html
    assert "every square marked in 16 steps" in html
    assert picture.read_text(encoding="utf-8").startswith("<svg")
    steps = run("challenge/03", "LOOP{F F L}", "--steps")
    assert steps.returncode == 0, steps.stderr
    assert "step 0 of 16: start at (0,0) facing east, 1 of 8 squares marked" in steps.stdout
    assert "step 16 of 16: F to (1,2), a new square, 8 of 8 squares marked" in steps.stdout
    assert "LOOP{ F F >L< }" in steps.stdout


def test_cli_reads_a_result_file(tmp_path):
    record = {"schema": 1, "game": "bunny", "input": "challenge/03", "status": "optimal", "stopped": None,
              "proved": True, "solution": "LOOP{F F L}", "score": 4, "score_name": "tokens", "proof": "",
              "verified": True, "board": LEVEL3, "options": {"limit": 1}, "stats": {}, "details": {}}
    results = tmp_path / "s.json"
    results.write_text(json.dumps(record) + "\n" + json.dumps({**record, "solution": None,
                                                                "status": "not-found"}) + "\n")
    done = run(str(results), "--steps")
    assert done.returncode == 0, done.stderr
    assert "step 16 of 16" in done.stdout
    missing = run(str(results), "--index", "2", "--steps")
    assert missing.returncode == 2
    assert "give the program to replay" in missing.stderr and "Traceback" not in missing.stderr


def test_cli_malformed_program_is_one_line_exit_2(tmp_path):
    done = run("challenge/03", "LOOP(3){F X}", "-o", str(tmp_path / "x.html"))
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert "unknown token 'X" in done.stderr
    assert not (tmp_path / "x.html").exists()
