"""The pegs film against the rules, and `gridsolver pegs show` end to end."""

import json
import subprocess
import sys

from gridsolver import pegs
from gridsolver.pegs.game import GAME
from gridsolver.pegs.rules import jump_over, parse_jump


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "gridsolver", "pegs", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def test_each_frame_is_the_board_after_that_many_jumps():
    board = pegs.named("english")
    result = pegs.solve(board, time=10, seed=1)
    film = GAME.film(board, result.solution, GAME.check_options(board, result.options))
    assert film.steps == len(result.solution) == result.score
    position = board
    for k, frame in enumerate(film.frames):
        if k:
            position = GAME.apply(position, parse_jump(result.solution[k - 1]))
        for r in range(board.rows):
            for c in range(board.cols):
                cell = frame.grid[r * board.cols + c]
                assert cell == ("o" if position.has_peg((r, c)) else "." if position.is_hole((r, c)) else " ")
        assert frame.counters["pegs left"] == position.peg_count
        if k < film.steps:  # the next jump's three holes, in order from, over, to
            jump = parse_jump(result.solution[k])
            cells = [jump[0], jump_over(jump), jump[1]]
            assert frame.highlight == [(r * board.cols + c, kind)
                                       for (r, c), kind in zip(cells, ("from", "over", "to"), strict=True)]
        else:
            assert frame.highlight == []
    assert film.frames[-1].text.startswith(f"step {film.steps} of {film.steps}: jump")


def test_show_writes_page_svg_and_steps_from_solve_json(tmp_path):
    solved = run("solve", "english", "--json", "--time", "5")
    (tmp_path / "s.json").write_text(solved.stdout)
    done = run("show", "s.json", "--svg", "start.svg", "--frame", "start", "-o", "replay.html", "--json",
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["html"] == "replay.html" and report["frame"] == 0 and report["steps"] == 31
    page = (tmp_path / "replay.html").read_text()
    assert page.count("<script") == 2 and "http" not in page.replace("http://www.w3.org/2000/svg", "")
    assert (tmp_path / "start.svg").read_text().count('fill="#8c564b"') == 32  # every peg at the start
    steps = run("show", "s.json", "--steps", cwd=tmp_path)
    assert steps.returncode == 0 and steps.stdout.count("step ") == 32 and "[" not in steps.stdout
    default = run("show", "english", "(1,3)->(3,3)", cwd=tmp_path)  # board plus solution: default file name
    assert default.returncode == 0 and (tmp_path / "pegs-english.html").exists(), default.stderr


def test_show_refuses_an_illegal_jump_a_foreign_result_and_a_missing_solution(tmp_path):
    bad = run("show", "english", "(3,1)->(3,3) (2,3)->(4,3)", "-o", "never.html", cwd=tmp_path)
    assert bad.returncode == 2 and "jump 2: illegal jump (2,3)->(4,3)" in bad.stderr
    assert bad.stderr.count("\n") == 1 and not (tmp_path / "never.html").exists()
    foreign = tmp_path / "c.json"
    foreign.write_text(json.dumps({"schema": 1, "game": "clickomania", "input": "x", "status": "optimal",
                                   "solution": [], "score": 0, "board": "12\n21"}) + "\n")
    other = run("show", str(foreign), cwd=tmp_path)
    assert other.returncode == 2 and "is a clickomania result, not pegs" in other.stderr
    missing = run("show", "english", cwd=tmp_path)
    assert missing.returncode == 2 and "give the jumps to replay" in missing.stderr
    newer = tmp_path / "v2.json"
    newer.write_text(json.dumps({"schema": 2, "game": "pegs", "input": "x", "status": "optimal",
                                 "solution": [], "score": 0, "board": "o.o"}) + "\n")
    version = run("show", str(newer), cwd=tmp_path)
    assert version.returncode == 2 and "result schema 2 is not supported" in version.stderr
    index = run("show", str(tmp_path / "c.json"), "--index", "3", cwd=tmp_path)
    assert index.returncode == 2 and "--index 3" in index.stderr
