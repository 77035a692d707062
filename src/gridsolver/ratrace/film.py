"""The replay of a rat race game frame by frame (for ``gridsolver ratrace show``).

The film replays the game (:func:`gridsolver.ratrace.controller.play_sampled`:
the same game the solve played, turn for turn) and counts the rats on
sampled turns: every turn of a game of up to :data:`MAX_FRAMES` turns, else
every ``step`` turns (a round number: 50 for 10,000 turns) plus the last
turn played. The whole game is sampled (no turn range). Each frame is the
track (one character per cell: what the cell does, see :func:`track_cells`)
with one "dot" mark per occupied cell whose value is the rats on it, the
counters (turn, rats alive, points) and the plots of rats alive and points.

A frame costs about 15 bytes of JSON per occupied cell, at most ~12 KB on
a standard track (53 x 15): 300 frames stay under 4 MB even if every cell
that a rat can stand on were occupied on every sampled turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gridsolver.core.film import Film, Frame
from gridsolver.core.words import plural
from gridsolver.ratrace.jobs import GameJob
from gridsolver.ratrace.players import Player
from gridsolver.ratrace.rules import TELEPORTER, TRAP, WALL, Track

#: The most frames a film has besides the start (a game this long or shorter shows every turn).
MAX_FRAMES = 300
_HEX = "0123456789abcdef"
_TRAP_CHARS = "ghijklmnopqrstuv"  # the trap of colour c is _TRAP_CHARS[c]

EMPTY_CH, WALL_CH, LETHAL_CH, START_CH, GOAL_CH = ".", "#", "X", "S", "G"
BASE_PALETTE = {EMPTY_CH: "#f3efe6", WALL_CH: "#4d4d4d", LETHAL_CH: "#e06666", START_CH: "#a6d96a",
                GOAL_CH: "#41ab5d"}
BASE_LEGEND = {
    START_CH: "start cell (rats are born here)",
    GOAL_CH: "goal: a point, and the rat goes back to a start cell",
    EMPTY_CH: "empty",
    WALL_CH: "wall (a move into it is refused; lethal)",
    LETHAL_CH: "lethal: a trap's target",
}
#: What the "dot" marks of the frames mean (the terminal draws a ``*`` over the cell).
MARK_LEGEND = {"dot": "rats on the cell (one or more; the page draws a bigger dot for more)"}
TELEPORTER_COLOURS = ("#6baed6", "#9e9ac8", "#3182bd", "#756bb1", "#9ecae1", "#bcbddc")
TRAP_COLOURS = ("#fdae6b", "#fdd0a2", "#e6550d", "#fd8d3c")


def sample_step(turns: int) -> int:
    """Turns between frames: 1 up to :data:`MAX_FRAMES` turns, else the smallest of 1, 2, 5, 10,
    20, 50, ... that keeps the frames at most :data:`MAX_FRAMES`."""
    scale = 1
    while True:
        for factor in (1, 2, 5):
            if factor * scale * MAX_FRAMES >= turns:
                return factor * scale
        scale *= 10


def sample_turns(turns: int, first: int = 0) -> list[int]:
    """The turns a film shows: first, first + step, ... and the last turn, ``turns``."""
    at = list(range(first, turns + 1, sample_step(turns - first)))
    if at[-1] != turns:
        at.append(turns)
    return at


def _offset(track: Track, colour: int) -> str:
    dx, dy = (int(v) for v in track.offsets[colour])
    return f"({dx:+d}, {dy:+d})"


def track_cells(track: Track) -> tuple[str, dict[str, str], dict[str, str]]:
    """The track as film cells, with the palette and the legend of the characters it uses.

    ``S`` start cell, ``G`` goal, ``.`` empty, ``#`` wall, ``X`` lethal (a
    trap's target); a teleporter is the hex digit of its colour, a trap
    (harmless itself unless lethal) the letter ``g``-``v`` of its colour.
    What a rat meets first wins: start cell, wall, lethal, teleporter, goal,
    trap, empty.
    """
    palette = dict(BASE_PALETTE)
    legend = dict(BASE_LEGEND)
    teleporters = [c for c in range(len(track.kinds)) if track.kinds[c] == TELEPORTER]
    traps = [c for c in range(len(track.kinds)) if track.kinds[c] == TRAP]
    for k, colour in enumerate(teleporters):
        palette[_HEX[colour]] = TELEPORTER_COLOURS[k % len(TELEPORTER_COLOURS)]
        legend[_HEX[colour]] = f"teleporter (colour {colour}): moves a rat by {_offset(track, colour)}"
    for k, colour in enumerate(traps):
        palette[_TRAP_CHARS[colour]] = TRAP_COLOURS[k % len(TRAP_COLOURS)]
        legend[_TRAP_CHARS[colour]] = (f"trap (colour {colour}): makes the cell at "
                                       f"{_offset(track, colour)} lethal")
    cells = []
    starts = {int(y) for y in track.start_cells}
    for y in range(track.height):
        for x in range(track.width):
            colour = int(track.colours[y, x])
            kind = int(track.kinds[colour])
            if x == 0 and y in starts:
                ch = START_CH
            elif kind == WALL:
                ch = WALL_CH
            elif track.lethal[y, x]:
                ch = LETHAL_CH
            elif kind == TELEPORTER:
                ch = _HEX[colour]
            elif x >= track.goal_x:
                ch = GOAL_CH
            elif kind == TRAP:
                ch = _TRAP_CHARS[colour]
            else:
                ch = EMPTY_CH
            cells.append(ch)
    grid = "".join(cells)
    present = set(grid)
    legend = {ch: text for ch, text in legend.items() if ch in present}
    return grid, palette, legend


def _rats(n: int) -> str:
    return f"{n:,} rat{'s' if n != 1 else ''}"


def _points(n: int) -> str:
    return f"{n:,} point{'s' if n != 1 else ''}"


def film(track: Track, player: Player, game_seed: int, turns: int, first: int = 0,
         play: Callable[[GameJob], Any] | None = None) -> Film:
    """The game of ``player`` on ``track`` with seed ``game_seed`` up to turn ``turns``, sampled from
    turn ``first`` on (the turns before it are played, not shown).

    ``play(job)`` plays the game (:func:`gridsolver.ratrace.controller.play_sampled`) where the
    player belongs: in a child process for a user's player (see :mod:`gridsolver.ratrace.sandbox`);
    by default in this process.
    """
    job = GameJob("play_sampled", (track, game_seed, turns, sample_turns(turns, first)))
    if play is None:
        from gridsolver.ratrace import controller

        game, snapshots = controller.play_sampled(player, *job.args)
    else:
        game, snapshots = play(job)
    snapshots = [s for s in snapshots if s.turn >= first]
    grid, palette, legend = track_cells(track)
    frames = []
    for snap in snapshots:
        occupied = np.flatnonzero(snap.counts)
        marks: list[tuple[int, str, float]] = [  # int counts: shorter JSON than floats
            (cell, "dot", count) for cell, count in zip(occupied.tolist(), snap.counts[occupied].tolist(),
                                                        strict=True)]
        text = f"turn {snap.turn:,} of {turns:,}: {_rats(snap.alive)}, {_points(snap.points)}"
        if snap.turn == 0:
            text += " (the first rats on the start cells)"
        elif snap is snapshots[-1] and game.ended == "extinct":
            text += ": fewer than 2 rats alive, the game is over"
        frames.append(Frame(grid, text, {"turn": snap.turn, "rats alive": snap.alive, "points": snap.points},
                            marks=marks))
    step = sample_step(turns - first)
    played = (plural(game.turns, "turn") if game.turns == turns
              else f"{game.turns:,} of {plural(turns, 'turn')} (the rats died out)")
    sampled = "" if step == 1 else f", a frame every {plural(step, 'turn')}"
    if first:
        sampled += f", turns {first:,} to {turns:,} shown"
    title = f"ratrace: {player.name}, {played}, {_points(game.points)}, game seed {game_seed}{sampled}"
    return Film("ratrace", title, track.height, track.width, palette, legend, frames,
                plots={"rats alive": [s.alive for s in snapshots], "points": [s.points for s in snapshots]},
                mark_legend=dict(MARK_LEGEND))
