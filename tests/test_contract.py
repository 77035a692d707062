"""The contract every game fills (gridsolver.core.game), checked the same way for all five games.

Boards round-trip, solutions replay, statuses come from one vocabulary, the
JSON has one schema, exit codes follow one table, bad input is an InputError
from the API and exit 2 with one located line from the command line.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from gridsolver.core.errors import InputError
from gridsolver.core.game import Game, verify
from gridsolver.core.result import SCHEMA_VERSION, STATUSES, STOP_REASONS, Result
from gridsolver.games import GAMES, game

# A quick board and the options a solve needs, per game (a second or two each).
SAMPLES = {
    "bunny": ("challenge/04", {}),
    "pegs": ("english", {}),
    "clickomania": ("duel-5x5", {}),
    "samegame": ("standard-20", {}),
    "ratrace": ("seed/1", {"player": "forward", "turns": 200}),
}
SOLVE_TIME = 2.0
RESULT_KEYS = {"schema", "game", "input", "status", "stopped", "proved", "solution", "score", "score_name",
               "proof", "verified", "board", "options", "stats", "details"}

NAMES = list(GAMES)


def sample(name: str) -> tuple[Game, object, dict]:
    g = game(name)
    source, options = SAMPLES[name]
    return g, g.load(source)[0], options


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridsolver", *args], capture_output=True, text=True,
                          input=stdin, timeout=300)


_SOLVED: dict[str, tuple[Game, object, Result]] = {}


def solved(name: str) -> tuple[Game, object, Result]:
    """One solve per game, shared by the tests below."""
    if name not in _SOLVED:
        g, board, options = sample(name)
        _SOLVED[name] = (g, board, g.solve(board, time=SOLVE_TIME, workers=1, seed=1, **options))
    return _SOLVED[name]


def test_every_registered_game_fills_the_contract():
    assert set(SAMPLES) == set(GAMES), "a new game needs a sample here"
    for name, title in GAMES.items():
        g = game(name)
        assert isinstance(g, Game) and g.name == name and g.title == title


@pytest.mark.parametrize("name", NAMES)
def test_every_shipped_board_round_trips(name):
    g = game(name)
    listed = g.named_boards()
    assert listed, f"{name} ships no board"
    for entry in listed:
        try:
            text = g.named_text(entry.name)
        except InputError:  # a family such as NxN or seed/N names no board itself: the sample covers it
            continue
        assert text is not None, f"{name} lists {entry.name} but does not ship it"
        boards = g.load(entry.name)
        assert len(boards) == entry.count, entry.name
        for board in boards:
            again = g.read(g.format(board))
            assert g.equal(again, board), f"{name} {entry.name}: format then read changed the board"
            assert g.format(again) == g.format(board)


@pytest.mark.parametrize("name", NAMES)
def test_a_solve_returns_one_result_shape_and_verifies_by_replay(name):
    g, board, result = solved(name)
    assert result.game == name and result.status in STATUSES
    assert result.stopped is None or result.stopped in STOP_REASONS
    data = json.loads(result.to_json())
    assert set(data) == RESULT_KEYS and data["schema"] == SCHEMA_VERSION
    assert g.equal(g.read(data["board"]), board), "the JSON holds the board it solved"
    if result.solution is None:
        assert not result.verified
        return
    assert result.verified
    replayed = g.check(board, result.solution, **result.options)
    assert math.isclose(replayed.score, result.score)


@pytest.mark.parametrize("name", NAMES)
def test_verified_comes_from_the_replay_not_from_the_solver(name):
    g, board, result = solved(name)
    if result.solution is None:
        pytest.skip(f"{name} results carry no solution")
    again = Result.from_json(result.to_json())
    assert not again.verified, "a result read back is not trusted"
    assert verify(g, board, again)
    again.score = (again.score or 0) + 1
    assert not verify(g, board, again) and not again.verified


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("option, value", [("time", -1.0), ("time", float("inf")), ("time", float("nan")),
                                           ("memory", 0.0), ("nodes", 0), ("seed", -1), ("seed", 2**70),
                                           ("workers", 0)])
def test_bad_budgets_are_input_errors_naming_the_value(name, option, value):
    g, board, options = sample(name)
    with pytest.raises(InputError, match=f"--{option}"):
        g.solve(board, **{option: value}, **options)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", ["@@@\n@@@", "\x00\x01", "\n\n"])
def test_bad_boards_are_input_errors_from_the_api(name, text):
    with pytest.raises(InputError):
        game(name).read(text, "bad.txt")


@pytest.mark.parametrize("name", NAMES)
def test_cli_solve_json_and_exit_code_follow_the_table(name, tmp_path):
    g, board, _ = solved(name)
    source, options = SAMPLES[name]
    path = tmp_path / "board.txt"
    path.write_text(g.format(board) + "\n")
    extra = [f"--{k}={v}" for k, v in options.items()]
    done = run_cli(name, "solve", str(path), "--json", "--time", str(SOLVE_TIME), "--workers", "1", *extra)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 1 and set(lines[0]) == RESULT_KEYS, done.stderr
    status = lines[0]["status"]
    assert done.returncode == (0 if status in ("optimal", "best-found", "played") else 1), done.stderr


@pytest.mark.parametrize("name", NAMES)
def test_cli_bad_board_is_one_located_line_and_exit_2(name, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("@@@\n@@@\n")
    _, options = SAMPLES[name]
    extra = [f"--{k}={v}" for k, v in options.items()]
    done = run_cli(name, "solve", str(path), *extra)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"gridsolver: error: {path}")


@pytest.mark.parametrize("name", NAMES)
def test_cli_boards_and_format_agree_with_the_api(name):
    g = game(name)
    listed = [json.loads(line) for line in run_cli(name, "boards", "--json").stdout.splitlines()]
    assert [entry["name"] for entry in listed] == [b.name for b in g.named_boards()]
    source, _ = SAMPLES[name]
    printed = run_cli(name, "format", source)
    assert printed.returncode == 0, printed.stderr
    first = printed.stdout.split("\n\n")[0]
    assert g.equal(g.read(first), g.load(source)[0])


def test_solve_json_is_accepted_by_check(tmp_path):
    """`solve --json > s.json; gridsolver GAME check - s.json` replays the stored board and solution."""
    for name in NAMES:
        _, _, result = solved(name)
        if result.solution is None:
            continue
        path = tmp_path / f"{name}.json"
        path.write_text(result.to_json() + "\n")
        done = run_cli(name, "check", "-", str(path), "--json")
        assert done.returncode == 0, (name, done.stderr)
        report = json.loads(done.stdout)
        assert report["score_matches"] is True and report["legal"] is True


def test_gridsolver_boards_lists_every_game():
    done = run_cli("boards", "--json")
    games = {json.loads(line)["game"] for line in done.stdout.splitlines()}
    assert done.returncode == 0 and games == set(GAMES)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("board", ["S##", None, 42, [[1, 2]]])
def test_solve_refuses_what_is_not_a_board_with_an_input_error(name, board):
    _, _, options = sample(name)
    with pytest.raises(InputError, match=f"{name}.solve: expected a"):
        game(name).solve(board, time=1, **options)
