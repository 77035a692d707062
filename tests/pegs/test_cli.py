import json
import re
import subprocess
import sys

from click.testing import CliRunner

from gridsolver import pegs
from gridsolver.cli import cli
from gridsolver.pegs.generate import random_board


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridsolver", "pegs", *args], capture_output=True,
                          text=True, timeout=300, input=stdin)


def test_solve_english_central_game_json():
    done = run("solve", "english", "--finish", "3,3", "--json", "--time", "60")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["schema"] == 1 and data["status"] == "optimal" and data["verified"] is True
    assert data["stopped"] is None and data["proved"] is True
    assert data["details"]["pegs_left"] == 1 and data["score"] == 31 and data["score_name"] == "jumps"
    assert data["solution"][-1].endswith("->(3,3)")
    assert data["options"] == {"objective": "finish", "finish": [3, 3]}
    assert data["board"].splitlines()[0] == "jumps: orthogonal"


def test_check_replays_jumps_in_the_solve_notation():
    done = run("check", "english", "(3,1)->(3,3)", "--json")
    assert done.returncode == 1, done.stderr  # legal, but the objective (one peg left) is not met
    data = json.loads(done.stdout)
    assert data["legal"] and data["score"] == 1 and data["steps"] == 1 and not data["complete"]
    text = run("check", "english", "(3,1)->(3,3) (3,4)->(3,2)")
    assert text.returncode == 1 and "legal, 2 steps, jumps 2, objective not met" in text.stdout
    bad = run("check", "english", "(3,1)->(3,3) (3,1)->(3,3)")
    assert bad.returncode == 2 and "move 2: illegal jump (3,1)->(3,3): no peg at (3, 1)" in bad.stderr


def test_check_reads_solve_json_lines(tmp_path):
    done = run("solve", "triangle", "--objective", "moves", "--json", "--memory", "256")
    path = tmp_path / "result.json"
    path.write_text(done.stdout)
    checked = run("check", "-", str(path), "--json")
    assert checked.returncode == 0, checked.stderr
    report = json.loads(checked.stdout)
    assert report["score"] == 10 and report["score_matches"] and report["complete"]


def test_impossible_exits_1_and_a_bad_board_file_exits_2(tmp_path):
    done = run("solve", "european", "--finish", "3,3")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("european: impossible") and "position classes" in done.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("jumps: orthogonal\nooo\no.x\n")
    done = run("solve", str(bad))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"gridsolver: error: {bad}, row 1, column 2 (line 3): unexpected character 'x' " \
                          "in a board (allowed: 'o', '.', ' ', '-')\n"


def test_jumps_option_overrides_the_board_rule():
    done = run("solve", "-", "--jumps", "diagonal", "--json", stdin="o..\n.o.\n...\n")
    data = json.loads(done.stdout)
    assert done.returncode == 0 and data["verified"] and data["solution"] == ["(0,0)->(2,2)"]
    assert data["options"]["jumps"] == "diagonal" and data["details"]["jump_rule"] == "diagonal"
    plain = json.loads(run("solve", "-", "--json", stdin="o..\n.o.\n...\n").stdout)
    assert plain["solution"] == [] and plain["details"]["jump_rule"] == "orthogonal"


def test_solve_several_boards_from_one_file(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("# two boards\nooo.\n\n1101\n0110\n1011\n")
    result = CliRunner().invoke(cli, ["pegs", "solve", str(path), "--time", "10", "--show"])
    assert result.exit_code == 0, result.output
    assert f"{path}#1: optimal, jumps 1" in result.output
    assert f"{path}#2: " in result.output and "  start: 8 pegs    end: 1 peg\n  1101 " in result.output
    # ooo. after its one jump (0,1)->(0,3), beside the start
    assert "  start: 3 pegs    end: 2 pegs\n  ooo.             o..o\n" in result.output


def test_text_output_shows_jumps_and_proof_and_show_adds_the_start_and_end():
    result = CliRunner().invoke(cli, ["pegs", "solve", "triangle"])
    assert result.exit_code == 0
    assert "solution: (" in result.output and "->" in result.output
    assert "pegs left: 1" in result.output and "proof:" in result.output
    assert "replay verified" in result.output and "end: 1 peg" not in result.output
    shown = CliRunner().invoke(cli, ["pegs", "solve", "triangle", "--show"])
    lines = shown.output.splitlines()
    top = lines.index("  start: 14 pegs    end: 1 peg")
    rows = [line.split() for line in lines[top + 1:top + 6]]
    assert [start for start, _ in rows] == [".----", "oo---", "ooo--", "oooo-", "ooooo"]
    assert all(len(end) == 5 for _, end in rows) and "".join(end for _, end in rows).count("o") == 1
    assert "\x1b[" not in shown.output


def test_show_in_colour_paints_pegs_and_holes():
    shown = CliRunner().invoke(cli, ["pegs", "solve", "triangle", "--show"], env={"GRIDSOLVER_COLOUR": "on"})
    assert shown.exit_code == 0, shown.output
    picture = shown.output.split("replay verified\n")[1]
    assert picture.count("\x1b[") >= 2 * 25  # every cell of both positions styled
    plain = CliRunner().invoke(cli, ["pegs", "solve", "triangle", "--show"]).output
    plain = plain.split("replay verified\n")[1]
    assert re.sub(r"\x1b\[[0-9;]*m", "", picture) == plain  # the same picture, painted


def test_bad_input_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("ooo\no?o\n")
    cases = [
        (["solve", str(bad)], "row 1, column 1"),
        (["solve", "english", "--finish", "0,0"], "--finish 0,0 is not a hole"),
        (["solve", "english", "--finish", "x"], "expected ROW,COL"),
        (["solve", "31x31"], "up to 30x30"),
        (["solve", "no-such-board"], "no such file"),
        (["solve", "english", "--time", "0"], "--time 0.0: expected a finite number above 0"),
        (["solve", "english", "--objective", "finish"], "--objective finish needs --finish ROW,COL"),
        (["solve", "english", "--finish", "3,3", "--strategy", "published"], "--strategy published"),
        (["check", "english", "(3,1)->(3,3) oops"], "unexpected 'oops'"),
    ]
    for args, message in cases:
        done = run(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.startswith("gridsolver: error:") and message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_ragged_comesolo_board_from_stdin():
    done = run("solve", "-", stdin="111\n10\n111\n")
    assert done.returncode == 2 and "<stdin>, row 1" in done.stderr and "ragged" in done.stderr


def test_random_board_round_trips_into_solve():
    first = CliRunner().invoke(cli, ["pegs", "random", "8", "--seed", "4", "--density", "0.7"])
    assert first.exit_code == 0
    header, *lines = first.output.splitlines()
    assert header == "jumps: diagonal"
    assert len(lines) == 8 and all(len(line) == 8 and set(line) <= {"0", "1"} for line in lines)
    again = CliRunner().invoke(cli, ["pegs", "random", "8", "--seed", "4", "--density", "0.7"])
    assert again.output == first.output
    assert pegs.read(first.output) == random_board(8, 8, 0.7, seed=4)


def test_published_strategy_and_moves_objective():
    done = run("solve", "triangle", "--strategy", "published", "--json", "--time", "20")
    assert done.returncode == 0 and json.loads(done.stdout)["details"]["strategy"] == "published"
    done = run("solve", "triangle", "--objective", "moves", "--json", "--memory", "256")
    data = json.loads(done.stdout)
    assert data["status"] == "optimal" and data["score_name"] == "moves" and data["score"] == 10


def test_table_takes_a_problem_from_its_dual():
    result = CliRunner().invoke(cli, ["pegs", "table", "english", "--time", "60", "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == 151
    derived = [r for r in rows if "dual_of" in r["details"]]
    assert len(derived) == 5 and all(r["stats"]["nodes"] == 0 for r in derived)
    assert all(r["verified"] for r in derived if r["status"] == "optimal")
    assert sum(r["status"] == "optimal" for r in rows) == 21  # as when every problem is searched
    assert all(r["status"] in ("optimal", "impossible") for r in rows)


def test_table_command_on_the_triangle():
    result = CliRunner().invoke(cli, ["pegs", "table", "triangle", "--time", "30"])
    assert result.exit_code == 0, result.output
    assert "problems up to symmetry (15 holes)" in result.output
