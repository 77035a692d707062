"""``ratrace.play``: players given by name, as a plain Python function or a numba function."""

import ast
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsolver import ratrace
from gridsolver.cli import cli
from gridsolver.core.errors import InputError
from gridsolver.core.result import Result
from gridsolver.ratrace.players.colour_score import colour_score
from gridsolver.ratrace.players.colour_score_python import colour_score_python

from .helpers import greedy_python

SEED, TRACKS, TURNS = 10, 2, 400  # tracks of seeds 10 and 11: colour-score scores 1 and 27


def cli_points(player, turns=TURNS):
    result = CliRunner().invoke(cli, ["ratrace", "play", "--player", player, "--tracks", str(TRACKS),
                                      "--seed", str(SEED), "--turns", str(turns), "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    return [line["score"] for line in lines[:-1]]


def test_a_builtin_name_plays_as_the_cli_does():
    tournament = ratrace.play("colour-score", tracks=TRACKS, seed=SEED, turns=TURNS, workers=1)
    assert tournament.points == cli_points("colour-score") == [1, 27]
    assert tournament.player == "colour-score"


def test_a_numba_function_plays_as_its_name_does():
    tournament = ratrace.play(colour_score, tracks=TRACKS, seed=SEED, turns=TURNS)
    assert tournament.points == cli_points("colour-score")
    assert tournament.player == "gridsolver.ratrace.players.colour_score.colour_score"


def test_a_plain_python_function_plays_as_its_name_does():
    tournament = ratrace.play(colour_score_python, tracks=TRACKS, seed=SEED, turns=TURNS)
    assert tournament.points == cli_points("colour-score-python")
    assert all(r.details["player"].endswith("colour_score_python") for r in tournament.results)


def test_a_function_from_a_player_file_plays_as_the_file_does(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text("def mine(view, genome):\n"
                    "    return (1, -1) if view[1][3] == 0 else (1, 0)\n")
    from gridsolver.ratrace.players import load_player

    by_file = cli_points(f"{path}:mine", turns=60)
    by_function = ratrace.play(load_player(f"{path}:mine").fn, tracks=TRACKS, seed=SEED, turns=60)
    assert by_function.points == by_file


class Locked:
    """A callable player that cannot be pickled (it holds a lock)."""

    def __init__(self):
        self.lock = threading.Lock()

    def __call__(self, view, genome):
        return 1, 0


def test_functions_play_in_this_process_unless_workers_are_asked_for():
    one = ratrace.play(greedy_python, tracks=2, seed=3, turns=40)
    two = ratrace.play(greedy_python, tracks=2, seed=3, turns=40, workers=2)
    assert one.points == two.points
    assert ratrace.play(lambda view, genome: (1, 0), tracks=2, turns=30, workers=2).points == [1, 1]


def test_a_player_that_cannot_be_pickled_plays_here_but_not_on_workers():
    with pytest.warns(RuntimeWarning, match="it plays in this process, without the protections"):
        assert ratrace.play(Locked(), tracks=2, turns=30).player == "tests.ratrace.test_api.Locked"
    with pytest.raises(InputError, match=r"cannot be sent to another process: it cannot be pickled"):
        ratrace.play(Locked(), tracks=2, turns=30, workers=2)


def test_tournament_json_has_the_result_keys_and_every_track():
    tournament = ratrace.play("forward", tracks=3, seed=7, turns=20, workers=1)
    data = json.loads(tournament.to_json())
    keys = set(Result("ratrace", "x", "played").to_dict())
    assert keys <= set(data) and set(data) - keys == {"results"}
    assert (data["schema"], data["game"], data["status"], data["proved"], data["verified"]) == (
        1, "ratrace", "played", False, False)
    assert data["score"] == round(tournament.geometric_mean, 3) and data["score_name"] == "geometric mean"
    assert data["options"] == {"player": "forward", "tracks": 3, "seed": 7, "turns": 20}
    assert [r["input"] for r in data["results"]] == ["seed/7", "seed/8", "seed/9"]
    assert all(r["status"] == "played" and r["schema"] == 1 for r in data["results"])
    assert Result.from_dict(data).status == "played"


def test_the_geometric_mean_and_cut_short_games():
    tournament = ratrace.play("forward", tracks=2, seed=11, turns=10_000, nodes=500, workers=1)
    assert tournament.cut_short == 2 and tournament.summary().stopped == "nodes"
    assert all(r.stopped == "nodes" for r in tournament.results)
    assert ratrace.tournament.geometric_mean([4, 9]) == pytest.approx(6.0)
    assert ratrace.tournament.geometric_mean([]) == 0.0


@pytest.mark.parametrize("kwargs, message", [
    ({"player": "nobody"}, "no such player"),
    ({"player": "missing.py:fn"}, "no such file"),
    ({"player": 3}, "expected a built-in player name"),
    ({"player": "forward", "tracks": 0}, "--tracks must be at least 1"),
    ({"player": "forward", "turns": -1}, "--turns -1: expected a whole number from 0 to 1,000,000,000"),
    ({"player": "forward", "time": 0}, "--time 0"),
    ({"player": "forward", "workers": 0}, "--workers 0"),
    ({"player": "forward", "seed": 1.5}, "--seed 1.5"),
])
def test_bad_input_fails_before_any_game(kwargs, message):
    with pytest.raises(InputError, match=re.escape(message)):
        ratrace.play(**kwargs)


def test_the_docstring_example_runs():
    block = re.search(r"::\n\n((?:    .*\n)+)", ratrace.__doc__).group(1)
    code = "\n".join(line[4:].split("#")[0] for line in block.splitlines())
    expected = re.search(r"# (.*)", block).group(1).strip()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected


def test_importing_the_api_and_the_cli_does_not_import_numba():
    code = ("import sys, gridsolver.ratrace.cli, gridsolver.ratrace\n"
            "from gridsolver.games import game\n"
            "assert game('ratrace').name == 'ratrace'\n"
            "assert 'numba' not in sys.modules, 'numba imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _imports(path: Path, package: Path) -> set[str]:
    """The gridsolver.ratrace modules a file imports anywhere (module or function level)."""
    known = {_module_name(p, package) for p in package.rglob("*.py")}
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:  # `from pkg import submodule` imports the submodule
                full = f"{node.module}.{alias.name}"
                names.add(full if full in known else node.module)
    return names & known


def _module_name(path: Path, package: Path) -> str:
    parts = ["gridsolver", "ratrace", *path.relative_to(package).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_import_cycles_in_ratrace():
    """Explicit imports only: importing a submodule also runs its package's __init__, as in any package."""
    package = Path(ratrace.__file__).parent
    graph = {_module_name(p, package): _imports(p, package) for p in package.rglob("*.py")}
    state: dict[str, int] = {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph[node] - {node}):
            if state.get(nxt) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*path, node, nxt]))
            if nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
