"""``gridsolver ratrace ...``: play tournaments and show tracks.

No numba at import time: the kernels are imported inside the commands.
"""

from __future__ import annotations

import json
import sys

import click

from gridsolver.core.cliutil import budget_options, json_option, seed_option, workers_options


@click.group()
def group() -> None:
    """The Genetic Rat Race: controller, players and tournaments.

    A player maps what a rat sees (5 x 5 colours) and its 100-bit genome to a
    move; the game breeds the rats and the player scores a point each time
    a rat crosses the track. Built-in players: forward, random, colour-score,
    look-ahead (and their API examples colour-score-numpy, colour-score-python),
    or your own with --player path/to/file.py:name.
    """


@group.command()
@click.option("--player", "player_spec", required=True, metavar="NAME|FILE.py:NAME",
              help="A built-in player or path/to/file.py:function.")
@click.option("--tracks", type=int, default=50, show_default=True, help="Number of tracks to play.")
@click.option("--turns", type=int, default=10_000, show_default=True, help="Turns per game.")
@seed_option
@budget_options(default_time=None, default_memory=2048.0)  # per game; --nodes: rat-moves per game
@workers_options
@json_option
def play(player_spec: str, tracks: int, turns: int, seed: int, time_s: float | None,
         memory_mb: float | None, nodes: int | None, workers: int | None, cluster: str | None,
         as_json: bool) -> None:
    """Play a tournament: track i uses seed SEED + i - 1 (track 1 is `track --seed SEED`).

    Prints points, rats alive and rat-moves per second for every track, then
    the geometric mean of the points. --time, --memory and --nodes (rat-moves)
    bound each game; a game cut short says so.
    """
    from gridsolver.core.errors import InputError
    from gridsolver.core.parallel import parallel_map
    from gridsolver.ratrace.game import GameResult, play_track
    from gridsolver.ratrace.players import load_player
    from gridsolver.ratrace.tournament import summary_result, summary_text, track_line, track_result

    if tracks < 1:
        raise InputError(f"--tracks must be at least 1, got {tracks}")
    if turns < 0:
        raise InputError(f"--turns must be at least 0, got {turns}")
    load_player(player_spec)  # a bad name or file fails here, before any worker starts
    jobs = [(player_spec, seed + i, turns, time_s, memory_mb, nodes) for i in range(tracks)]

    def show(index: int, game: GameResult) -> None:
        click.echo(track_result(index + 1, game).to_json() if as_json else track_line(index + 1, game))
        sys.stdout.flush()

    games = parallel_map(play_track, jobs, workers=workers, cluster=cluster,
                         label=f"ratrace {player_spec}", on_result=show)
    click.echo(summary_result(player_spec, seed, games).to_json() if as_json
               else "\n" + summary_text(player_spec, games))


@group.command()
@seed_option
@json_option
def track(seed: int, as_json: bool) -> None:
    """Show the track of a seed: colours, kinds, offsets, lethal cells, start cells.

    With --json: {"seed", "width", "height", "colours": rows y = 0.. of ints,
    "kinds": {"c": "empty"|"teleporter"|"trap"|"wall"}, "teleporters": {"c": [dx, dy]},
    "traps": {"c": [dx, dy]}, "start_cells": [y, ...]}.
    """
    from gridsolver.ratrace.track import generate_track, render_track, track_to_json

    generated = generate_track(seed)
    click.echo(json.dumps(track_to_json(generated), separators=(",", ":")) if as_json
               else render_track(generated))
