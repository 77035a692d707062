"""The command line: results, JSON, generators, replay, and bad input (exit 2, one line)."""

import pytest

from gridsolver.clickomania import rules

from .helpers import results, run


def test_solve_clears_or_proves_and_every_answer_replays(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("# a comment\n1122\n2211\n\n112\n221\n")
    out = results(run("clickomania", "solve", str(path), "--json", "--time", "20"))
    assert [r["input"] for r in out] == [f"{path}#1", f"{path}#2"]
    first, second = out
    assert first["status"] == "optimal" and first["score"] == 0 and first["verified"]
    assert second["status"] == "impossible" and second["proved"] and second["score"] > 0
    for r, text in zip(out, ("1122\n2211", "112\n221"), strict=True):
        replayed = rules.replay(rules.from_text(text), r["solution"])
        assert replayed.cells_left == r["score"] and replayed.game_over


def test_solve_named_set_and_generated_boards():
    out = results(run("clickomania", "solve", "duel-5x5", "--json", "--time", "5"))
    assert len(out) == 200 and all(r["proved"] and r["verified"] for r in out)
    out = results(run("clickomania", "solve", "--clearable", "12x9x5", "--count", "2", "--json"))
    assert [r["score"] for r in out] == [0, 0]


def test_generate_prints_parsable_boards_with_certificates():
    done = run("clickomania", "generate", "--clearable", "9x6x4", "--count", "2", "--solution", "--seed", "4")
    assert done.returncode == 0, done.stderr
    blocks = done.stdout.strip().split("\n\n")
    assert len(blocks) == 2
    for block in blocks:
        lines = block.splitlines()
        moves = [tuple(int(v) for v in m.split(",")) for m in lines[1].removeprefix("# solution: ").split()]
        board = rules.from_text("\n".join(lines[2:]))
        assert board.grid.shape == (6, 9)
        assert rules.replay(board, moves).cells_left == 0


def test_replay_shows_the_result_and_rejects_illegal_moves(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("11\n22\n")
    done = run("clickomania", "replay", str(path), "1,0 1,0")
    assert done.returncode == 0 and "cells left: 0, game over: yes" in done.stdout
    done = run("samegame", "replay", str(path), "1,0 1,0")  # the points are SameGame's
    assert done.returncode == 0 and "cells left: 0, points: 1000" in done.stdout
    done = run("clickomania", "replay", str(path), "0,0 0,0")
    assert done.returncode == 2 and "empty" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("content, message", [
    ("123\n12\n", "row 1 (line 2): row has 2 cells but the first row has 3"),
    ("12\n1Z\n", "row 1, column 1 (line 2): unexpected character 'Z'"),
    ("..\n..\n", "empty"),
    ("0123456789abcdefghijk\n", "21 colours"),
    ("", "no board found"),
])
def test_bad_boards_exit_2_with_one_line(tmp_path, content, message):
    path = tmp_path / "bad.txt"
    path.write_text(content)
    for game in ("clickomania", "samegame"):
        done = run(game, "solve", str(path), "--time", "1")
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("gridsolver: error:") and message in lines[0]


@pytest.mark.parametrize("args", [
    ["clickomania", "solve", "--random", "20x10"],
    ["clickomania", "solve", "--random", "70x10x4"],
    ["clickomania", "generate", "--clearable", "5x5x21"],
    ["clickomania", "solve", "no-such-file.txt"],
])
def test_bad_options_exit_2(args):
    done = run(*args)
    assert done.returncode == 2 and "gridsolver: error:" in done.stderr and "Traceback" not in done.stderr


def test_generate_and_solve_take_a_build_style():
    done = run("clickomania", "generate", "--clearable", "8x6x5", "--style", "ragged", "--solution",
               "--seed", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "# clearable 8x6x5 style ragged seed 2"
    moves = [tuple(int(v) for v in m.split(",")) for m in lines[1].removeprefix("# solution: ").split()]
    board = rules.from_text("\n".join(lines[2:]))
    assert rules.replay(board, moves).cells_left == 0
    out = results(run("clickomania", "solve", "--clearable", "10x8x5", "--style", "small", "--json"))
    assert out[0]["input"] == "clearable-10x8x5-small-seed0" and out[0]["score"] == 0 and out[0]["verified"]
    done = run("clickomania", "generate", "--clearable", "8x6x5", "--style", "diagonal")
    assert done.returncode == 2 and "'diagonal' is not one of" in done.stderr
    assert "Traceback" not in done.stderr
