"""``gridsolver ratrace ...``: solve (one game), play (a tournament), track, boards, format, check.

No numba at import time: the controller is imported when a game starts.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from gridsolver.core.cliutil import (
    EXIT_INTERRUPTED,
    budget_options,
    json_option,
    resume_option,
    seed_option,
    status_options,
    workers_options,
)
from gridsolver.core.commands import game_group
from gridsolver.core.options import click_option
from gridsolver.core.words import plural
from gridsolver.ratrace.game import DEFAULT_TURNS, GAME, picture
from gridsolver.ratrace.game import GUARD_OPTIONS as GUARD_OPTION_NAMES
from gridsolver.ratrace.rules import MAX_TURNS
from gridsolver.ratrace.tournament import MAX_TRACKS

GAME_OPTIONS = {option.name: option for option in GAME.options}
PLAYER_HELP = GAME_OPTIONS["player"].help

#: How a user's player is guarded (docs/ratrace.md, "Player code that misbehaves"): solve, show, play.
GUARD_OPTIONS = [click_option(GAME_OPTIONS[name]) for name in GUARD_OPTION_NAMES]

group = game_group(
    GAME,
    """The Genetic Rat Race: controller, players and tournaments.

    A player maps what a rat sees (5 x 5 colours) and its 100-bit genome to a
    move; the game breeds the rats and the player scores a point each time
    a rat crosses the track. Built-in players: champion, forward, random,
    colour-score, look-ahead and more (`gridsolver ratrace players` lists them),
    or your own with --player path/to/file.py:name.

    Boards are tracks: seed/N is the track of seed N, tournament the 50 tracks
    play uses by default; `format seed/N` shows the text format. `solve TRACK
    --player P` plays one game (status played, score = points; its solution
    {"game_seed": S, "turns": T} is the game, played again to verify the
    result); `play` plays a tournament (its track lines are not replayed,
    but hold their game: `show FILE --index N`); `show` replays a game on
    sampled turns. In solve,
    --nodes counts rat-moves, --seed is added to the track's seed to seed the
    game's random streams (so solve seed/N is track 1 of play --seed N), and
    the game runs in this process (--workers does not apply, --cluster is
    refused: use play).
    """,
    picture=picture,
    show_options=[
        click.option("--turn-range", "turn_range", metavar="FROM:TO",
                     help="In show: only these turns (e.g. 2000:3000, sampled afresh); the turns before "
                          "are played, not shown."),
    ],
)


def _guarded(fn: Any) -> Any:
    for option in reversed(GUARD_OPTIONS):
        fn = option(fn)
    return fn


@group.command()
@click.option("--player", "player_spec", required=True, metavar="NAME|FILE.py:NAME", help=PLAYER_HELP)
@click.option("--tracks", type=int, default=50, show_default=True,
              help=f"Number of tracks to play (at most {MAX_TRACKS:,}).")
@click.option("--turns", type=click.IntRange(0, MAX_TURNS), default=DEFAULT_TURNS, show_default=True,
              help=f"Turns per game (at most {MAX_TURNS:,}).")
@seed_option
@budget_options(default_time=None, default_memory=2048.0)  # per game; --nodes: rat-moves per game
@workers_options
@_guarded
@json_option
@status_options
@resume_option
def play(player_spec: str, tracks: int, turns: int, seed: int, time_s: float | None,
         memory_mb: float | None, nodes: int | None, workers: int | None, cluster: str | None,
         move_limit: float | None, game_limit: float | None, in_process: bool, as_json: bool,
         status: str, resume: str | None) -> None:
    """Play a tournament: track i uses seed SEED + i - 1 (track 1 is `track --seed SEED`).

    Prints points, rats alive and rat-moves per second for every track, then
    the geometric mean of the points. --time, --memory and --nodes (rat-moves)
    bound each game; a game cut short says so. With --json: one result line
    per track (as `solve --json` prints for seed/N), then a summary line
    whose score is the geometric mean.

    A player of yours (FILE.py:NAME) plays in child processes, watched: a
    track whose player raises, returns a bad move, exits, crashes, hangs,
    prints or allocates too much is reported as failed, the other tracks
    play on, and the exit code is 2. Ctrl-C prints the finished tracks and
    their geometric mean, exit code 130.
    """
    from gridsolver.core import live
    from gridsolver.core.parallel import default_workers
    from gridsolver.core.result import Result
    from gridsolver.core.resume import open_journal
    from gridsolver.ratrace.tournament import TournamentError, TournamentInterrupted, track_line
    from gridsolver.ratrace.tournament import play as play_tournament

    def show(index: int, result: Result) -> None:
        live.clear_line()
        click.echo(result.to_json() if as_json else track_line(index + 1, result))
        sys.stdout.flush()
        tally.finished(f"track {index + 1}: {plural(result.score, 'point')}" if result.score is not None
                       else f"track {index + 1}: {result.status}")
        if journal and index not in kept and result.stopped != "interrupted":
            journal.record(result.to_dict())

    shown_workers = workers or (1 if cluster else default_workers())
    try:
        with open_journal(resume) as journal, live.show(status), \
                live.tally("ratrace", f"play {player_spec}", tracks, "tracks", "rat-moves",
                           workers=shown_workers) as tally:
            kept = _kept_tracks(journal, tracks, seed, turns) if journal else {}
            tournament = play_tournament(player_spec, tracks=tracks, seed=seed, turns=turns, time=time_s,
                                         memory=memory_mb, nodes=nodes, workers=workers, cluster=cluster,
                                         on_result=show, move_limit=move_limit, game_limit=game_limit,
                                         isolate=not in_process, done=kept)
    except TournamentInterrupted as stop:
        _summary(stop.tournament, as_json)
        played = len(stop.tournament.results)
        click.echo(f"gridsolver: interrupted: {played:,} of {plural(tracks, 'track')} finished", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    except TournamentError as failed:
        _summary(failed.tournament, as_json)
        raise failed from None  # one line, exit 2 (and the player's traceback under --debug)
    _summary(tournament, as_json)



def _kept_tracks(journal: Any, tracks: int, seed: int, turns: int) -> dict[int, Any]:
    """The tracks an earlier run of this tournament finished (by index), checked to be this run's."""
    from gridsolver.core.result import Result
    from gridsolver.core.resume import mismatch
    from gridsolver.ratrace.game import SEED_PREFIX

    kept = {}
    for index in range(tracks):
        stored = journal.take(f"{SEED_PREFIX}{seed + index}")
        if stored is None:
            continue
        result = Result.from_dict(stored)
        if result.game != "ratrace" or result.options.get("turns") != turns:
            raise mismatch(journal.path, result.input, "by another game or with other turns")
        kept[index] = result
    return kept


def _summary(tournament: Any, as_json: bool) -> None:
    click.echo(tournament.summary().to_json() if as_json else "\n" + tournament.to_text())


@group.command()
@json_option
def players(as_json: bool) -> None:
    """List the built-in players, one line each: the name --player takes and what it plays.

    A player of your own is --player path/to/file.py:NAME (a function in your file).
    """
    from gridsolver.ratrace.players import available_players

    found = available_players()
    width = max(map(len, found))
    for name, description in found.items():
        click.echo(json.dumps({"name": name, "description": description}, separators=(",", ":")) if as_json
                   else f"{name:<{width}}  {description}")


@group.command()
@seed_option
@json_option
def track(seed: int, as_json: bool) -> None:
    """Show the track of a seed: colours, kinds, offsets, lethal cells, start cells.

    With --json: {"seed", "width", "height", "colours": rows y = 0.. of ints,
    "kinds": {"c": "empty"|"teleporter"|"trap"|"wall"}, "teleporters": {"c": [dx, dy]},
    "traps": {"c": [dx, dy]}, "start_cells": [y, ...]}. The same track as a
    board file: `gridsolver ratrace format seed/SEED`.
    """
    from gridsolver.ratrace.generate import generate_track
    from gridsolver.ratrace.track import render_track, track_to_json

    generated = generate_track(seed)
    click.echo(json.dumps(track_to_json(generated), separators=(",", ":")) if as_json
               else render_track(generated))
