import json
import subprocess
import sys

from click.testing import CliRunner

from gridsolver.bunny.notation import parse_program
from gridsolver.bunny.rules import board_from_text, simulate, token_count
from gridsolver.cli import cli


def invoke(*args, stdin=None):
    return CliRunner().invoke(cli, ["bunny", *args], input=stdin)


def test_solve_several_boards_in_one_file_as_json(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("S##\n\nS##\n  #\n  #\n")
    result = invoke("solve", str(path), "--json")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [(d["input"], d["status"], d["score"]) for d in lines] == [
        (f"{path}#1", "optimal", 2), (f"{path}#2", "optimal", 4)]
    assert all(d["verified"] for d in lines)


def test_solve_named_challenge_board_with_show():
    result = invoke("solve", "challenge/03", "--show")
    assert result.exit_code == 0, result.output
    assert "challenge/03: optimal, tokens 4" in result.output
    assert "no program of 3 tokens solves this board, for any loop counts" in result.output
    assert "finite form: LOOP(" in result.output
    picture = result.output.strip().splitlines()[-3:]
    assert picture[0].split()[0] == "S" and "#" not in "".join(picture)


def test_solve_all_lists_programs():
    result = invoke("solve", "challenge/02", "--all", "--limit", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    listed = data["details"]["all"]
    assert 2 <= len(listed) <= 3 and len(set(listed)) == len(listed)
    board = board_from_text(data["board"])
    for text in listed:  # each one a shortest program (4 tokens) that solves the board
        program = parse_program(text)
        assert token_count(program) == data["score"] == 4 and simulate(board, program).solved


def test_run_reports_solved_steps_and_unmarked(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("S##\n  #\n  #\n")
    ok = invoke("run", str(path), "LOOP{F F R}", "--json")
    data = json.loads(ok.output)
    assert data["solved"] and data["steps"] == 5 and data["tokens"] == 4 and data["unmarked"] == []
    bad = invoke("run", str(path), "F F")
    assert bad.exit_code == 1
    assert "does not solve the board after 2 steps" in bad.output
    assert "2 squares unmarked: row 1, column 2; row 2, column 2" in bad.output


def test_bad_board_exits_2_naming_row_and_column(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("S##\n#x#\n")
    result = invoke("solve", str(path))
    assert result.exit_code == 2
    assert result.output.strip() == (f"gridsolver: error: {path}, row 1, column 1 (line 2): "
                                     "unexpected character 'x' (allowed: 'S', '#', 'O', '.', ' ')")


def test_bad_program_and_missing_file_exit_2():
    bad = invoke("run", "challenge/01", "F LOOP(2){F")
    assert bad.exit_code == 2 and "never closed" in bad.output
    missing = invoke("solve", "no/such/board.txt")
    assert missing.exit_code == 2 and "no such file" in missing.output


def test_unreachable_square_is_impossible_and_exits_1(tmp_path):
    path = tmp_path / "split.txt"
    path.write_text("S#  #\n")
    result = invoke("solve", str(path), "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["status"] == "impossible" and data["solution"] is None and not data["verified"]
    assert "row 0, column 4" in data["proof"]


def test_random_is_deterministic_and_its_board_is_solvable():
    first = invoke("random", "--seed", "5", "--squares", "60", "--json")
    second = invoke("random", "--seed", "5", "--squares", "60", "--json")
    assert first.output == second.output
    data = json.loads(first.output)
    board = board_from_text(data["board"])
    assert board.size == 60 and simulate(board, parse_program(data["program"])).solved
    other = json.loads(invoke("random", "--seed", "6", "--squares", "60", "--json").output)
    assert other["board"] != data["board"]


def test_random_count_makes_boards_the_solver_reads():
    made = invoke("random", "--seed", "1", "--count", "2", "--squares", "30")
    solved = invoke("solve", "-", "--json", stdin=made.output)
    statuses = [json.loads(line)["status"] for line in solved.output.splitlines()]
    assert statuses == ["optimal", "optimal"]


def test_bench_scores_the_challenge():
    result = invoke("bench", "--time", "60", "--json")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    rows, summary = lines[:-1], lines[-1]
    assert len(rows) == 12 and summary["total"] == sum(r["score"] for r in rows)
    assert [r["score"] for r in rows[:6]] == [2, 4, 4, 5, 5, 4]


def test_help_does_not_import_numba():
    code = ("import sys\nfrom gridsolver.cli import main\n"
            "for args in (['bunny', '--help'], ['bunny', 'solve', '--help'],\n"
            "             ['bunny', 'random', '--help']):\n"
            "    try:\n        main(args)\n    except SystemExit:\n        pass\n"
            "assert 'numba' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_random_rejects_impossible_sizes():
    result = invoke("random", "--squares", "1")
    assert result.exit_code == 2 and "--squares must be between 2 and 4000, got 1" in result.output


def test_check_and_run_count_in_words_that_agree_with_the_number(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("S##\n")
    checked = invoke("check", str(path), "F")
    assert checked.exit_code == 1
    assert checked.output == f"{path}: legal, 1 step, tokens 1, objective not met\n"
    ran = invoke("run", str(path), "F")
    assert ran.exit_code == 1
    assert ran.output == (f"{path}: F (1 token) does not solve the board after 1 step\n"
                          "  1 square unmarked: row 0, column 2\n")
