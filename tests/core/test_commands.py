"""The shared `show` command: `--frames FROM:TO` for every game that has a film."""

import re

import pytest
from click.testing import CliRunner

from gridsolver.cli import cli

#: (game, board, solution, extra options, steps): a short replay of each game
REPLAYS = [
    ("bunny", "challenge/03", "LOOP{F F L}", [], 16),
    ("pegs", "english", "(3,5)->(3,3) (1,4)->(3,4) (2,6)->(2,4)", [], 3),
    ("clickomania", "BOARD", "1,1 1,1 1,0", [], 3),
    ("samegame", "BOARD", "1,1 1,1 1,0", [], 3),
    ("ratrace", "seed/2", "7", ["--player", "forward", "--turns", "30"], 30),
]
IDS = [replay[0] for replay in REPLAYS]
HEADER = re.compile(r"^(?:step|turn) (\d+) of (\d+)[,:]", re.MULTILINE)


def show(tmp_path, monkeypatch, game, board, solution, extra, *args):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "BOARD").write_text("1221\n1331\n")
    return CliRunner().invoke(cli, [game, "show", board, solution, *extra, *args])


@pytest.mark.parametrize(("game", "board", "solution", "extra", "steps"), REPLAYS, ids=IDS)
def test_frames_prints_exactly_the_frames_of_the_range(tmp_path, monkeypatch, game, board, solution, extra,
                                                       steps):
    done = show(tmp_path, monkeypatch, game, board, solution, extra, "--frames", "2:3")
    assert done.exit_code == 0, done.output
    assert [(int(k), int(n)) for k, n in HEADER.findall(done.output)] == [(2, steps), (3, steps)]
    assert "\x1b[" not in done.output and not list(tmp_path.glob("*.html"))  # --frames implies --steps
    tail = show(tmp_path, monkeypatch, game, board, solution, extra, "--frames", f"{steps - 1}:")
    assert [int(k) for k, _ in HEADER.findall(tail.output)] == [steps - 1, steps]
    head = show(tmp_path, monkeypatch, game, board, solution, extra, "--steps", "--frames", ":999")
    assert [int(k) for k, _ in HEADER.findall(head.output)] == list(range(steps + 1))


@pytest.mark.parametrize(("game", "board", "solution", "extra", "steps"), REPLAYS, ids=IDS)
def test_a_bad_range_exits_2_naming_the_value(tmp_path, monkeypatch, game, board, solution, extra, steps):
    for value, message in ((f"{steps + 1}:", f"--frames '{steps + 1}:': this replay has frames 0-{steps}"),
                           ("3:2", "--frames '3:2': from 3 to 2 is empty"),
                           ("two", "--frames 'two': expected FROM:TO")):
        done = show(tmp_path, monkeypatch, game, board, solution, extra, "--frames", value)
        assert done.exit_code == 2, done.output
        assert f"gridsolver: error: {message}" in done.output and "step " not in done.output


def test_frames_in_colour_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("GRIDSOLVER_COLOUR", "on")
    done = show(tmp_path, monkeypatch, "clickomania", "BOARD", "1,1 1,1 1,0", [], "--frames", "1")
    assert done.exit_code == 0, done.output
    assert "\x1b[" in done.output and [k for k, _ in HEADER.findall(done.output)] == ["1"]


@pytest.mark.parametrize(("game", "board", "solved", "unsolved"), [
    ("bunny", "S##", "F F", "F"),
    ("pegs", "oo.", "(0,0)->(0,2)", ""),
    ("clickomania", "11\n23", "0,0", ""),
])
def test_check_exits_1_when_the_solution_misses_the_objective(tmp_path, monkeypatch, game, board, solved,
                                                             unsolved):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "b.txt").write_text(board + "\n")
    ok = CliRunner().invoke(cli, [game, "check", "b.txt", solved])
    assert ok.exit_code == 0 and "objective met" in ok.output, ok.output
    missed = CliRunner().invoke(cli, [game, "check", "b.txt", unsolved])
    assert missed.exit_code == 1 and "objective not met" in missed.output, missed.output


def test_check_of_a_results_file_exits_1_when_a_claimed_score_is_wrong(tmp_path, monkeypatch):
    import json

    monkeypatch.chdir(tmp_path)
    line = {"schema": 1, "game": "bunny", "input": "b.txt", "board": "S##", "status": "optimal",
            "solution": "F F", "score": 2, "score_name": "tokens", "options": {}, "proof": "",
            "stopped": None}
    (tmp_path / "good.json").write_text(json.dumps(line) + "\n")
    (tmp_path / "bad.json").write_text(json.dumps(line) + "\n" + json.dumps(line | {"score": 1}) + "\n")
    assert CliRunner().invoke(cli, ["bunny", "check", "-", "good.json"]).exit_code == 0
    bad = CliRunner().invoke(cli, ["bunny", "check", "-", "bad.json"])
    assert bad.exit_code == 1 and bad.output.count("b.txt: legal") == 2  # every result is checked
    assert "but the result claims 1" in bad.output
