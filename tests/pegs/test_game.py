"""Peg solitaire in the shared contract: boards round-trip with their rule, options, replay, the API."""

import ast
import contextlib
import io
import json
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridsolver import pegs
from gridsolver.core.errors import InputError
from gridsolver.core.game import verify
from gridsolver.pegs import generate, rules
from gridsolver.pegs.game import GAME
from tests.pegs.test_kernels import SETTINGS, boards

NAMES = ["english", "european", "french", "wiegleb", "diamond", "triangle", "6x6", "8x8", "7x5", "1x2",
         "30x30"]


@pytest.mark.parametrize("name", NAMES)
def test_every_named_board_round_trips_with_its_jumps_line(name):
    board = pegs.named(name)
    text = pegs.format(board)
    assert text.splitlines()[0] == f"jumps: {board.jumps}"
    again = pegs.read(text, "copy.txt")  # a file not called like the board: the rule comes from the text
    assert again == board and pegs.format(again) == text


def test_the_shipped_list_names_every_board_and_the_square_family():
    listed = [b.name for b in pegs.boards()]
    assert listed == ["english", "european", "wiegleb", "diamond", "triangle", "6x6"]
    assert "french" in pegs.boards()[1].description
    assert "30x30" in pegs.boards()[-1].description
    assert pegs.named("triangle").jumps == "triangular"
    with pytest.raises(InputError, match="no shipped board called 'hexagon'"):
        pegs.named("hexagon")


@SETTINGS
@given(boards(max_cells=30), st.booleans())
def test_random_boards_round_trip_with_every_rule(board, comesolo):
    board = rules.Board(board.rows, board.cols, board.holes, board.pegs, board.jumps, comesolo)
    assert pegs.read(pegs.format(board)) == board


@pytest.mark.parametrize("seed", range(4))
def test_random_comesolo_boards_round_trip(seed):
    board = generate.random_board(3 + 9 * seed, 30 - 7 * seed, 0.6, seed=seed)
    assert pegs.read(pegs.format(board)) == board
    assert pegs.read(pegs.format(board.with_jumps("triangular"))).jumps == "triangular"


# -- options ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("options, message", [
    ({"objective": "best"}, "--objective 'best': expected one of jumps, finish, moves"),
    ({"strategy": "greedy"}, "--strategy 'greedy': expected one of default, published"),
    ({"jumps": "hexagonal"}, "--jumps 'hexagonal': expected one of orthogonal, diagonal, triangular"),
    ({"finish": "x"}, "--finish 'x': expected ROW,COL"),
    ({"finish": (9, 9)}, "--finish 9,9 is not a hole of this board (rows 0 to 6, columns 0 to 6, row 0 at "
                         "the top)"),
    ({"finish": "0,0"}, "--finish 0,0 is not a hole"),
    ({"finish": [3]}, "--finish [3]: expected ROW,COL"),
    ({"finish": (3.0, 3)}, "--finish (3.0, 3): expected ROW,COL"),
    ({"objective": "finish"}, "--objective finish needs --finish ROW,COL"),
    ({"objective": "jumps", "finish": (3, 3)}, "--finish 3,3 applies to --objective finish or moves"),
    ({"objective": "moves", "strategy": "published"}, "--strategy published is a method for --objective "
                                                       "jumps only, not moves"),
    ({"colour": "red"}, "pegs: unknown option(s) colour"),
])
def test_option_errors_name_the_value(options, message):
    board = pegs.named("english")
    with pytest.raises(InputError) as info:
        GAME.check_options(board, options)
    assert message in str(info.value)
    with pytest.raises(InputError):
        pegs.solve(board, time=1, **options)


@pytest.mark.parametrize("options, checked", [
    ({}, {"objective": "jumps", "strategy": "default"}),
    ({"finish": "3,3"}, {"objective": "finish", "finish": [3, 3]}),
    ({"finish": (3, 3), "objective": "moves"}, {"objective": "moves", "finish": [3, 3]}),
    ({"objective": "moves"}, {"objective": "moves"}),
    ({"strategy": "published"}, {"objective": "jumps", "strategy": "published"}),
    ({"jumps": "diagonal"}, {"objective": "jumps", "strategy": "default", "jumps": "diagonal"}),
    ({"jumps": "orthogonal"}, {"objective": "jumps", "strategy": "default"}),  # the board's own rule
])
def test_checked_options_are_json_ready_and_check_again_to_themselves(options, checked):
    board = pegs.named("english")
    assert GAME.check_options(board, options) == checked
    assert GAME.check_options(board, json.loads(json.dumps(checked))) == checked


# -- solutions and replay --------------------------------------------------------------------------
def test_solutions_are_read_in_the_solve_notation_or_as_json():
    expected = ["(3,1)->(3,3)", "(3,4)->(3,2)"]
    assert GAME.parse_solution("(3,1)->(3,3) (3,4)->(3,2)") == expected
    assert GAME.parse_solution(" ( 3, 1 ) -> (3,3),(3,4)->(3,2)\n") == expected
    assert GAME.parse_solution(json.dumps(expected)) == expected
    assert GAME.parse_solution("") == []
    with pytest.raises(InputError, match="unexpected 'x' after jump 1"):
        GAME.parse_solution("(3,1)->(3,3) x")
    with pytest.raises(InputError, match="unexpected '3,1->3,3' before jump 1"):
        GAME.parse_solution("3,1->3,3 (3,4)->(3,2)")


def test_replay_scores_jumps_or_moves_and_says_when_the_objective_is_met():
    board = pegs.named("english")
    chain = ["(3,1)->(3,3)", "(3,4)->(3,2)", "(1,3)->(3,3)", "(3,3)->(3,1)"]  # the last two: one peg
    jumps = GAME.replay(board, chain, {"objective": "jumps"})
    assert (jumps.score, jumps.steps, jumps.complete) == (4, 4, False)
    moves = GAME.replay(board, chain, {"objective": "moves"})
    assert (moves.score, moves.complete) == (3, False)
    assert GAME.replay(board, [((3, 1), (3, 3))], {}).final.peg_count == 31  # cells work too
    with pytest.raises(InputError, match=r"move 2: illegal jump \(3,1\)->\(3,3\): no peg at \(3, 1\)"):
        GAME.replay(board, ["(3,1)->(3,3)", "(3,1)->(3,3)"], {})
    with pytest.raises(InputError, match="expected a list of jumps"):
        GAME.replay(board, 42, {})


def test_complete_means_no_jump_left_or_one_peg_in_the_finish():
    board = pegs.read("ooo.")  # one row: (0,1)->(0,3) is the only jump, then none is left
    done = pegs.check(board, ["(0,1)->(0,3)"])
    assert done.complete and done.final.peg_count == 2
    small = pegs.read("oo.")
    assert pegs.check(small, "(0,0)->(0,2)", finish=(0, 2)).complete
    assert not pegs.check(small, "(0,0)->(0,2)", objective="moves", finish="0,1").complete
    assert pegs.check(small, "(0,0)->(0,2)", objective="moves").complete


def test_the_jumps_option_plays_the_board_under_another_rule():
    board = pegs.read("o..\n.o.\n...")
    assert GAME.moves(board) == []
    result = pegs.solve(board, jumps="diagonal", time=10)
    assert result.status == "optimal" and result.verified and result.solution == ["(0,0)->(2,2)"]
    assert result.options["jumps"] == "diagonal" and pegs.read(result.board) == board
    assert verify(GAME, board, result)
    with pytest.raises(InputError, match="not an orthogonal jump"):
        pegs.check(board, result.solution)


def test_a_solve_is_verified_by_replay_and_reports_the_contract_fields():
    board = pegs.named("triangle")
    result = pegs.solve(board, objective="moves", time=30, memory=256)
    assert result.status == "optimal" and result.verified and result.stopped is None
    assert result.score == 10 and result.score_name == "moves"
    assert pegs.read(result.board) == board and result.options == {"objective": "moves"}
    result.score = 9
    assert not verify(GAME, board, result)


def test_a_search_that_stops_early_reports_why():
    result = pegs.solve(pegs.named("english"), objective="moves", finish=(3, 3), time=0.3)
    assert result.status == "not-found" and result.stopped == "time" and not result.verified


def test_the_docstring_example_runs():
    doc = pegs.__doc__
    block = textwrap.dedent(doc.split("::\n\n")[1].split("\n\n")[0])
    code, expected = [], []
    for line in block.splitlines():
        statement, _, comment = line.partition("#")
        code.append(statement)
        if comment:
            expected.append(comment.strip())
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec("\n".join(code), {})
    assert out.getvalue().split() == " ".join(expected).split()


# -- structure -------------------------------------------------------------------------------------
PEGS = Path(pegs.__file__).parent


def pegs_imports(path: Path) -> set[str]:
    """The pegs modules a module imports anywhere in it (function-level imports included)."""
    found: set[str] = set()
    modules = {p.stem for p in PEGS.glob("*.py")}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "gridsolver.pegs":
                for alias in node.names:
                    found.add(alias.name if alias.name in modules else "__init__")
            elif node.module.startswith("gridsolver.pegs."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("gridsolver.pegs."):
                    found.add(alias.name.split(".")[2])
    return found


def test_no_import_circles_in_pegs():
    graph = {p.stem: pegs_imports(p) for p in PEGS.glob("*.py")}

    def visit(module: str, path: tuple[str, ...]) -> None:
        for child in graph.get(module, ()):
            assert child not in path, f"import circle: {' -> '.join(path + (child,))}"
            visit(child, path + (child,))

    for module in graph:
        visit(module, (module,))
    assert graph["game"] >= {"rules", "search"}  # the game runs the searches (imported when it solves)


def test_the_cli_and_game_modules_do_not_load_numba():
    import subprocess
    import sys

    code = ("import sys, gridsolver.pegs.cli, gridsolver.pegs; "
            "sys.exit(1 if 'numba' in sys.modules else 0)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
