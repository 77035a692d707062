"""A rat race game as a solution: replayed to verify a solve, and filmed turn by turn for `show`."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from gridsolver import ratrace
from gridsolver.cli import cli
from gridsolver.core.errors import InputError
from gridsolver.core.film import Film
from gridsolver.core.game import verify
from gridsolver.core.page import MAX_PAGE_BYTES, page_html
from gridsolver.core.result import Result
from gridsolver.ratrace import controller
from gridsolver.ratrace.controller import Snapshot, play_on_track, play_sampled
from gridsolver.ratrace.film import MAX_FRAMES, sample_step, sample_turns, track_cells
from gridsolver.ratrace.game import GAME
from gridsolver.ratrace.generate import generate_track
from gridsolver.ratrace.players import Player, load_player, numpy_player
from gridsolver.ratrace.rules import TELEPORTER, TRAP, WALL

from .helpers import ahead, build_track, greedy, greedy_numpy, greedy_python


def invoke(*args):
    return CliRunner().invoke(cli, ["ratrace", *args])


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridsolver", "ratrace", *args], capture_output=True,
                          text=True, timeout=300)


def film_of(result: Result, board=None, **options) -> Film:
    board = board if board is not None else ratrace.read(result.board)
    return GAME.film(board, result.solution, GAME.check_options(board, {**result.options, **options}))


def points(n: int) -> str:
    return f"{n:,} point{'s' if n != 1 else ''}"


@numpy_player
def numpy_ahead(views, genomes):
    return np.tile(np.array([1, 0]), (len(views), 1))


def leaving(view, genome):
    """Steps off the track to the left: every rat dies on its first move."""
    return -1, 0


# -- the solution and its replay -----------------------------------------------------------------
@pytest.mark.parametrize("player", ["forward", "colour-score", "colour-score-numpy", "colour-score-python"])
def test_a_solve_is_verified_by_playing_the_same_game_again(player):
    track = ratrace.named("seed/11")
    result = ratrace.solve(track, player=player, turns=150, seed=2)
    assert result.verified and result.solution == {"game_seed": 13, "turns": 150}
    assert GAME.check(track, result.solution, **result.options).score == result.score
    again = Result.from_json(result.to_json())  # the JSON alone: the player is loaded by its name
    assert not again.verified and verify(GAME, track, again)
    again.score = (again.score or 0) + 1
    assert not verify(GAME, track, again)


def test_a_game_the_budget_cut_short_replays_the_turns_it_played():
    track = ratrace.named("seed/5")
    by_nodes = ratrace.solve(track, player="colour-score", turns=10_000, nodes=3_000)
    assert by_nodes.stopped == "nodes" and by_nodes.solution["turns"] == by_nodes.details["turns"] < 10_000
    assert by_nodes.verified
    for player in ("colour-score", "colour-score-numpy"):  # numba and per-turn loops stop differently
        by_memory = ratrace.solve(track, player=player, turns=3_000, memory=0.02)
        assert by_memory.stopped == "memory" and by_memory.verified, player
    # every rat scores every turn: a turn counted but not played would change the points
    scoring = build_track(["....."] * 3, {}, {})
    for player in (ahead, numpy_ahead, lambda view, genome: (1, 0)):
        by_memory = ratrace.solve(scoring, player=player, turns=100, memory=0.01)
        assert by_memory.stopped == "memory" and by_memory.score > 100, player
        assert by_memory.verified, player


def test_a_game_where_the_rats_die_out_replays_too():
    track = ratrace.named("seed/3")
    result = ratrace.solve(track, player=leaving, turns=500)
    assert result.details["ended"] == "extinct" and result.solution["turns"] == 1
    assert result.verified and result.score == 1


def test_a_player_given_as_a_function_replays_here_but_not_from_its_json():
    track = ratrace.named("seed/11")
    result = ratrace.solve(track, player=greedy_python, turns=60)
    assert result.verified  # the options still hold the function in this process
    name = result.options["player"]
    assert name == "tests.ratrace.helpers.greedy_python"
    again = Result.from_json(result.to_json())
    assert not verify(GAME, track, again)
    assert "cannot be loaded again by name" in again.details["replay_error"]
    with pytest.raises(InputError, match="cannot be loaded again by name"):
        GAME.check(track, result.solution, player=str(name), turns=60)
    assert GAME.check(track, result.solution, player=greedy_python, turns=60).score == result.score


def test_the_game_seed_alone_is_a_solution():
    track = ratrace.named("seed/11")
    assert GAME.parse_solution(" 11 ") == {"game_seed": 11}
    assert GAME.parse_solution('{"game_seed": 11, "turns": 50}') == {"game_seed": 11, "turns": 50}
    with pytest.raises(InputError, match="a rat race game is its game seed"):
        GAME.parse_solution("eleven")
    replayed = GAME.check(track, "11", player="colour-score", turns=80)
    assert replayed.steps == 80
    assert replayed.score == ratrace.solve(track, player="colour-score", turns=80).score


# -- the film --------------------------------------------------------------------------------------
@pytest.mark.parametrize("player", [Player("greedy", greedy, "numba"), Player("numpy", greedy_numpy, "numpy"),
                                    Player("python", greedy_python, "python")])
def test_the_game_played_in_stretches_is_the_game_played_at_once(player):
    track = generate_track(11)
    turns = 90
    game, snapshots = play_sampled(player, track, 11, turns, [0, 1, 2, 30, 31, 89])
    assert [s.turn for s in snapshots] == [0, 1, 2, 30, 31, 89, 90]
    whole = play_on_track(player, track, 11, turns)
    assert (game.points, game.alive, game.turns, game.peak_rats, game.rat_moves, game.ended) == (
        whole.points, whole.alive, whole.turns, whole.peak_rats, whole.rat_moves, whole.ended)
    for snap in snapshots:
        upto = play_on_track(player, track, 11, snap.turn, keep_population=True)
        assert (snap.points, snap.alive) == (upto.points, upto.alive), snap.turn
        counts = np.bincount(upto.population[0], minlength=track.width * track.height)
        assert np.array_equal(snap.counts, counts), snap.turn


def test_a_short_game_films_every_turn_and_its_last_frame_is_the_result():
    track = ratrace.named("seed/11")
    result = ratrace.solve(track, player="colour-score", turns=120)
    film = film_of(result, track)
    assert film.steps == 120 and (film.rows, film.cols) == (track.height, track.width)
    last = film.frames[-1].counters
    assert (last["turn"], last["points"], last["rats alive"]) == (120, result.score, result.details["alive"])
    alive = result.details["alive"]
    assert film.frames[-1].text == f"turn 120 of 120: {alive:,} rats, {points(result.score)}"
    for k, frame in enumerate(film.frames):
        assert frame.counters["turn"] == k
        assert sum(value for _, _, value in frame.marks) == frame.counters["rats alive"], k
        assert all(shape == "dot" and value >= 1 for _, shape, value in frame.marks)
        assert len({cell for cell, _, _ in frame.marks}) == len(frame.marks)  # one mark per cell
        assert frame.grid == film.frames[0].grid  # the track does not change
    assert set(film.plots) == {"rats alive", "points"}
    assert film.plots["rats alive"] == [f.counters["rats alive"] for f in film.frames]
    assert film.plots["points"] == [f.counters["points"] for f in film.frames]
    start = film.frames[0]
    assert start.counters == {"turn": 0, "rats alive": 15, "points": 1}
    assert all(cell % track.width == 0 and film.frames[0].grid[cell] == "S" for cell, _, _ in start.marks)
    assert Film.from_json(json.loads(json.dumps(film.to_json()))).frames[-1].marks == [
        (i, s, float(v)) for i, s, v in film.frames[-1].marks]


def test_show_turns_shows_the_game_up_to_that_turn():
    track = ratrace.named("seed/11")
    result = ratrace.solve(track, player="colour-score", turns=120)
    film = film_of(result, track, turns=40)
    assert film.steps == 40
    assert film.frames[-1].counters["points"] == ratrace.solve(track, player="colour-score",
                                                               turns=40).score


def test_a_game_where_the_rats_die_out_ends_its_film_there():
    track = ratrace.named("seed/3")
    film = GAME.film(track, {"game_seed": 3}, GAME.check_options(track, {"player": leaving, "turns": 500}))
    assert film.steps == 1 and "fewer than 2 rats alive" in film.frames[-1].text
    assert "1 of 500 turns (the rats died out)" in film.title


def test_long_games_are_sampled_on_round_turns():
    assert [sample_step(t) for t in (0, 1, 300, 301, 600, 601, 1_500, 1_501, 10_000, 10**6)] == [
        1, 1, 1, 2, 2, 5, 5, 10, 50, 5_000]
    assert sample_turns(0) == [0] and sample_turns(3) == [0, 1, 2, 3]
    turns = sample_turns(10_000)
    assert turns[:3] == [0, 50, 100] and turns[-1] == 10_000 and len(turns) == 201
    assert sample_turns(1_003)[-2:] == [1_000, 1_003]
    for t in (299, 300, 301, 999, 7_777, 10_000, 123_456):
        assert len(sample_turns(t)) <= MAX_FRAMES + 2


def test_a_long_game_is_filmed_on_sampled_turns_and_its_last_frame_is_the_result():
    track = ratrace.named("seed/11")
    options = GAME.check_options(track, {"player": "colour-score", "turns": 10_000})
    film = GAME.film(track, {"game_seed": 11, "turns": 10_000}, options)
    whole = play_on_track(load_player("colour-score"), track, 11, 10_000)
    assert [f.counters["turn"] for f in film.frames] == sample_turns(10_000)
    assert film.frames[-1].counters == {"turn": 10_000, "rats alive": whole.alive, "points": whole.points}
    assert film.frames[-1].text == f"turn 10,000 of 10,000: {whole.alive:,} rats, {points(whole.points)}"
    assert all(len(values) == len(film.frames) for values in film.plots.values())
    size = len(page_html(film).encode("utf-8"))
    assert size < MAX_PAGE_BYTES / 5, size


def test_a_10000_turn_page_stays_under_5_mb_even_with_every_cell_full(monkeypatch):
    """The worst case: every cell a rat can stand on occupied (by 99,999 rats) on every sampled turn."""
    track = ratrace.named("seed/11")
    cells = track.width * track.height
    grid, _, _ = track_cells(track)
    standable = np.array([ch not in "#XG" for ch in grid])

    def packed(player, track_, seed, turns, at_turns):
        counts = np.where(standable, 99_999, 0)
        snaps = [Snapshot(t, 10**9 + t, int(counts.sum()), counts) for t in at_turns]
        last = snaps[-1]
        game = controller.GameResult(seed, player.name, last.points, turns, last.alive, last.alive, 0,
                                     "finished", 1.0)
        return game, snaps

    monkeypatch.setattr(controller, "play_sampled", packed)
    options = GAME.check_options(track, {"player": "forward", "turns": 10_000})
    film = GAME.film(track, {"game_seed": 11}, options)
    assert film.steps == 200 and len(film.frames[-1].marks) == int(standable.sum()) > cells * 0.7
    size = len(page_html(film).encode("utf-8"))
    assert size < 0.8 * MAX_PAGE_BYTES, size


def test_the_track_cells_say_what_each_cell_does():
    track = generate_track(4)
    grid, palette, legend = track_cells(track)
    assert len(grid) == track.width * track.height and set(grid) <= set(palette) and set(grid) == set(legend)
    for y in range(track.height):
        for x in range(track.width):
            ch = grid[y * track.width + x]
            kind = int(track.kinds[track.colours[y, x]])
            if x == 0 and y in track.start_cells:
                assert ch == "S"
            elif kind == WALL:
                assert ch == "#"
            elif track.lethal[y, x]:
                assert ch == "X"
            elif kind == TELEPORTER:
                assert ch == f"{int(track.colours[y, x]):x}" and "teleporter" in legend[ch]
            elif x >= track.goal_x:
                assert ch == "G"
            elif kind == TRAP:
                assert "trap" in legend[ch]
            else:
                assert ch == "."
    assert "S" in grid and "G" in grid and "#" in grid


def test_a_film_needs_a_game_and_its_player():
    track = ratrace.named("seed/1")
    with pytest.raises(InputError, match="holds no game to replay"):
        GAME.film(track, None, GAME.check_options(track, {"player": "forward"}))
    with pytest.raises(InputError, match="needs its player"):
        GAME.film(track, {"game_seed": 1}, GAME.check_options(track, {}))


# -- the command line ------------------------------------------------------------------------------
def test_solve_json_then_show_writes_the_page_and_steps_print_the_frames(tmp_path):
    results = tmp_path / "s.json"
    solved = invoke("solve", "seed/1", "--player", "forward", "--turns", "200", "--json")
    assert solved.exit_code == 0, solved.output
    results.write_text(solved.output)
    page = tmp_path / "page.html"
    shown = invoke("show", str(results), "-o", str(page), "--json")
    assert shown.exit_code == 0, shown.output
    report = json.loads(shown.output)
    assert report["steps"] == 200 and report["html"] == str(page) and report["bytes"] < MAX_PAGE_BYTES
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and '"game":"ratrace"' in text
    steps = invoke("show", str(results), "--steps")  # not a terminal: plain text
    assert steps.exit_code == 0, steps.output
    headers = [line for line in steps.output.splitlines() if line.startswith("turn ") and " of 200: " in line]
    assert len(headers) == 201 and headers[-1].startswith("turn 200 of 200: ")
    score = json.loads(solved.output)["score"]
    assert headers[-1].endswith(points(score))
    svg = tmp_path / "t.svg"
    pictured = invoke("show", str(results), "--svg", str(svg), "--frame", "10")
    assert pictured.exit_code == 0 and svg.read_text().count("<circle") > 0


def test_show_takes_a_track_and_a_game_seed(tmp_path):
    page = tmp_path / "p.html"
    shown = invoke("show", "seed/2", "7", "--player", "forward", "--turns", "30", "-o", str(page), "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["steps"] == 30 and page.exists()


def test_show_reads_the_track_lines_of_play_json(tmp_path):
    played = invoke("play", "--player", "colour-score", "--tracks", "2", "--seed", "11", "--turns", "60",
                    "--workers", "1", "--json")
    assert played.exit_code == 0, played.output
    lines = [json.loads(line) for line in played.output.splitlines()]
    assert lines[1]["solution"] == {"game_seed": 12, "turns": 60} and not lines[1]["verified"]
    path = tmp_path / "play.json"
    path.write_text(played.output)
    shown = invoke("show", str(path), "--index", "2", "--steps")
    assert shown.exit_code == 0, shown.output
    last = [line for line in shown.output.splitlines() if line.startswith("turn 60 of 60")]
    assert last == [f"turn 60 of 60: {lines[1]['details']['alive']:,} rats, {points(lines[1]['score'])}"]


def test_a_game_replays_in_another_process(tmp_path):
    """Same track, player, game seed and turns: the same points in a fresh process (`check`)."""
    result = ratrace.solve(ratrace.named("seed/11"), player="colour-score", turns=300)
    path = tmp_path / "s.json"
    path.write_text(result.to_json() + "\n")
    done = run_cli("check", "-", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score_matches"] is True


@pytest.mark.parametrize("args, message", [
    (["no-such-file.json"], "no-such-file.json"),
    (["seed/1", "1"], "needs its player"),
    (["seed/1", "one", "--player", "forward"], "a rat race game is its game seed"),
    (["seed/1", '{"seed": 1}', "--player", "forward"], "unknown key"),
    (["OLD"], "holds no game to replay"),
    (["FUNCTION"], "cannot be loaded again by name"),
])
def test_bad_show_input_is_one_line_and_exit_2(args, message, tmp_path):
    old = Result.from_json(ratrace.solve(ratrace.named("seed/1"), player="forward", turns=5).to_json())
    old.solution = None  # a result written before games were replayable
    (tmp_path / "old.json").write_text(old.to_json() + "\n")
    function = ratrace.solve(ratrace.named("seed/1"), player=greedy_python, turns=5)
    (tmp_path / "function.json").write_text(function.to_json() + "\n")
    files = {"OLD": str(tmp_path / "old.json"), "FUNCTION": str(tmp_path / "function.json")}
    done = run_cli("show", *[files.get(a, a) for a in args], "-o", str(tmp_path / "x.html"))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert message in done.stderr and done.stderr.startswith("gridsolver: error: ")
    assert not (tmp_path / "x.html").exists()


def test_solve_without_a_player_is_refused():
    done = invoke("solve", "seed/1", "--turns", "5")
    assert done.exit_code == 2 and "a game needs a player" in done.output


def test_the_film_module_imports_no_numba_until_a_game_plays():
    code = ("import sys; import gridsolver.ratrace.film, gridsolver.ratrace.game\n"
            "assert 'numba' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_turn_range_shows_only_those_turns_of_the_same_game(tmp_path):
    import json
    import subprocess
    import sys

    from gridsolver import ratrace
    from gridsolver.core.errors import InputError
    from gridsolver.ratrace.game import GAME as RATRACE

    track = ratrace.named("seed/2")
    result = ratrace.solve(track, player="colour-score", turns=1000)
    options = RATRACE.check_options(track, result.options)
    whole = RATRACE.film(track, result.solution, options)
    part = RATRACE.film(track, result.solution, options, turn_range="400:600")
    turns = [frame.counters["turn"] for frame in part.frames]
    assert turns == list(range(400, 601)) and "turns 400 to 600 shown" in part.title
    by_turn = {frame.counters["turn"]: frame for frame in whole.frames}
    for frame in part.frames:  # the same game: where the whole film has the turn, the two agree
        if frame.counters["turn"] in by_turn:
            assert frame.counters == by_turn[frame.counters["turn"]].counters
            assert frame.marks == by_turn[frame.counters["turn"]].marks
    assert len(part.plots["points"]) == len(part.frames)
    with pytest.raises(InputError, match="from 900 to 800 is empty"):
        RATRACE.film(track, result.solution, options, turn_range="900:800")
    with pytest.raises(InputError, match="expected FROM:TO"):
        RATRACE.film(track, result.solution, options, turn_range="soon")
    saved = tmp_path / "s.json"
    saved.write_text(result.to_json() + "\n")
    done = subprocess.run([sys.executable, "-m", "gridsolver", "ratrace", "show", str(saved), "--turn-range",
                           "990:", "--steps"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(" of 1,000: ") == 11 and "turn 1,000 of 1,000" in done.stdout
    report = subprocess.run([sys.executable, "-m", "gridsolver", "ratrace", "show", str(saved), "--json",
                             "-o", str(tmp_path / "r.html"), "--turn-range", "5:9"], capture_output=True,
                            text=True, timeout=300)
    assert report.returncode == 0 and json.loads(report.stdout)["steps"] == 4, report.stderr


def test_steps_begin_with_a_legend_of_every_symbol_the_frames_use():
    done = invoke("show", "seed/2", "7", "--player", "forward", "--turns", "30", "--frames", "0:1")
    assert done.exit_code == 0, done.output
    legend, *frames = done.output.split("\n\n")
    lines = legend.splitlines()
    assert lines[0] == "legend:" and lines[-1].startswith("  *  rats on the cell")
    symbols = {line[2] for line in lines[1:]}
    assert {"S", "G", ".", "#", "*"} <= symbols
    track = ratrace.named("seed/2")
    assert [frame.split(":")[0] for frame in frames] == ["turn 0 of 30", "turn 1 of 30"]
    for frame in frames:
        rows = frame.splitlines()[2:]  # after the words and the counters
        # 53 cells wide: side by side, with no spaces, to stay in 80 columns
        assert len(rows) == track.height and all(len(row) == track.width for row in rows)
        assert set("".join(rows)) <= symbols
    painted = CliRunner().invoke(cli, ["ratrace", "show", "seed/2", "7", "--player", "forward", "--turns",
                                       "30", "--frames", "0"], env={"GRIDSOLVER_COLOUR": "on"})
    assert painted.exit_code == 0 and "\x1b[" in painted.output and "legend:" in painted.output
