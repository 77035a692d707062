import json
import subprocess
import sys

from click.testing import CliRunner

from gridsolver.cli import cli


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridsolver", "pegs", *args], capture_output=True,
                          text=True, timeout=300, input=stdin)


def test_solve_english_central_game_json():
    done = run("solve", "english", "--finish", "3,3", "--json", "--time", "60")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "optimal" and data["verified"] and data["details"]["pegs_left"] == 1
    assert data["solution"][-1].endswith("->(3,3)")


def test_solve_several_boards_from_one_file(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("# two boards\nooo.\n\n1101\n0110\n1011\n")
    result = CliRunner().invoke(cli, ["pegs", "solve", str(path), "--time", "10"])
    assert result.exit_code == 0, result.output
    assert f"{path}#1: optimal, jumps 1" in result.output
    assert f"{path}#2: " in result.output and "final board:" in result.output


def test_text_output_shows_jumps_board_and_proof():
    result = CliRunner().invoke(cli, ["pegs", "solve", "triangle"])
    assert result.exit_code == 0
    assert "solution: (" in result.output and "->" in result.output
    assert "pegs left: 1" in result.output and "proof:" in result.output


def test_bad_input_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("ooo\no?o\n")
    cases = [
        (["solve", str(bad)], "row 2, column 2"),
        (["solve", "english", "--finish", "0,0"], "--finish 0,0 is not a hole"),
        (["solve", "english", "--finish", "x"], "expected ROW,COL"),
        (["solve", "31x31"], "up to 30x30"),
        (["solve", "no-such-board"], "no such file"),
        (["solve", "english", "--time", "0"], "--time must be positive"),
    ]
    for args, message in cases:
        done = run(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.startswith("gridsolver: error:") and message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_ragged_comesolo_board_from_stdin():
    done = run("solve", "-", stdin="111\n10\n111\n")
    assert done.returncode == 2 and "<stdin>, row 2" in done.stderr and "ragged" in done.stderr


def test_random_board_round_trips_into_solve():
    first = CliRunner().invoke(cli, ["pegs", "random", "8", "--seed", "4", "--density", "0.7"])
    assert first.exit_code == 0
    lines = first.output.split()
    assert len(lines) == 8 and all(len(line) == 8 and set(line) <= {"0", "1"} for line in lines)
    again = CliRunner().invoke(cli, ["pegs", "random", "8", "--seed", "4", "--density", "0.7"])
    assert again.output == first.output


def test_published_strategy_and_moves_objective():
    done = run("solve", "triangle", "--strategy", "published", "--json", "--time", "20")
    assert done.returncode == 0 and json.loads(done.stdout)["details"]["strategy"] == "published"
    done = run("solve", "triangle", "--objective", "moves", "--json", "--memory", "256")
    data = json.loads(done.stdout)
    assert data["status"] == "optimal" and data["score_name"] == "moves" and data["score"] == 10


def test_table_command_on_the_triangle():
    result = CliRunner().invoke(cli, ["pegs", "table", "triangle", "--time", "30"])
    assert result.exit_code == 0, result.output
    assert "problems up to symmetry (15 holes)" in result.output
