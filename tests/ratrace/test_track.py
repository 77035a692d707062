"""Track generation and start cells (the 100-turn reachability rule with teleports)."""

import re
from collections import deque

import numpy as np
import pytest

from gridsolver.ratrace.generate import generate_track
from gridsolver.ratrace.rules import DEAD, GOAL, MOVES, TELEPORTER, TRAP, WALL, step
from gridsolver.ratrace.track import render_track, track_to_json

from .helpers import build_track


def fewest_moves_to_goal(track, x0, y0):
    """Breadth-first search with rules.step: the fewest moves from (x0, y0) to the goal, or None."""
    seen = {(x0, y0): 0}
    queue = deque([(x0, y0)])
    while queue:
        x, y = queue.popleft()
        for dx, dy in MOVES:
            outcome, tx, ty = step(track, x, y, dx, dy)
            if outcome == GOAL:
                return seen[x, y] + 1
            if outcome != DEAD and (tx, ty) not in seen:
                seen[tx, ty] = seen[x, y] + 1
                queue.append((tx, ty))
    return None


@pytest.mark.parametrize("seed", [1, 2, 17, -3])
def test_generated_tracks_follow_the_spec(seed):
    track = generate_track(seed)
    assert (track.width, track.height, track.goal_x) == (53, 15, 49)
    counts = np.bincount(track.kinds, minlength=4)
    assert counts.tolist() == [8, 4, 2, 2]
    teleporters = [tuple(track.offsets[c]) for c in range(16) if track.kinds[c] == TELEPORTER]
    assert all(o != (0, 0) and max(abs(v) for v in o) <= 4 for o in teleporters)
    assert sorted(teleporters) == sorted((-dx, -dy) for dx, dy in teleporters)  # negation pairs
    traps = [tuple(track.offsets[c]) for c in range(16) if track.kinds[c] == TRAP]
    assert all(max(abs(v) for v in o) <= 1 for o in traps)
    assert (track.kinds[track.colours[:, 49:]] == 0).all()  # goal cells are empty colours
    assert len(track.start_cells) >= 10
    for y in range(track.height):  # start cells: the goal within 100 moves, by plain search
        distance = fewest_moves_to_goal(track, 0, y)
        assert (y in track.start_cells) == (distance is not None and distance <= 100)


def test_tracks_are_reproducible_and_differ_by_seed():
    assert np.array_equal(generate_track(5).colours, generate_track(5).colours)
    assert not np.array_equal(generate_track(5).colours, generate_track(6).colours)


def test_non_goal_cells_use_all_16_colours():
    colours = np.concatenate([generate_track(s).colours[:, :49].ravel() for s in range(5)])
    counts = np.bincount(colours, minlength=16)
    assert counts.min() > 0.8 * counts.mean()


KINDS = {1: WALL, 3: TELEPORTER}


def corridor(width, teleport_at=None, offset=(4, 0)):
    """A one-row track, with a teleporter (offset (4, 0)) at x = teleport_at if given."""
    row = ["."] * width
    if teleport_at is not None:
        row[teleport_at] = "T"
    return build_track(["".join(row)], KINDS, {3: offset})


def test_start_cells_need_the_goal_within_100_moves():
    assert corridor(104).start_cells == [0]  # goal at x >= 100: exactly 100 moves
    assert corridor(105).start_cells == []  # 101 moves: too far


def test_start_cells_count_teleports():
    assert corridor(105, teleport_at=1).start_cells == [0]  # 98 moves thanks to the teleporter
    assert corridor(105, teleport_at=1, offset=(-1, 0)).start_cells == []  # a step back: no help


def test_a_teleporter_into_death_does_not_help():
    assert corridor(105, teleport_at=1, offset=(0, -1)).start_cells == []  # off the track


def test_a_rat_may_start_on_a_wall_cell():
    """Only moves kill: from a wall at (0, 1) the rat steps diagonally into a corridor."""
    track = build_track(["." * 10, "#" * 10, "." * 10], KINDS, {})
    assert track.start_cells == [0, 1, 2]


def test_track_json_has_the_documented_form():
    track = generate_track(3)
    data = track_to_json(track)
    assert list(data) == ["seed", "width", "height", "colours", "kinds", "teleporters", "traps",
                          "start_cells"]
    assert data["seed"] == 3 and len(data["colours"]) == 15
    assert all(len(row) == 53 for row in data["colours"])
    assert sorted(data["kinds"], key=int) == [str(c) for c in range(16)]
    assert set(data["kinds"].values()) == {"empty", "teleporter", "trap", "wall"}
    assert len(data["teleporters"]) == 4 and len(data["traps"]) == 2
    for c, (dx, dy) in data["teleporters"].items():
        assert data["kinds"][c] == "teleporter"
        assert [dx, dy] == track.offsets[int(c)].tolist()
    assert data["start_cells"] == track.start_cells


def test_rendering_shows_every_row_and_the_start_cells():
    text = render_track(generate_track(3))
    assert "start cells (y at x = 0): " in text
    rows = [line for line in text.splitlines() if re.match(r"^ +\d+ [> ]\S+\|\S+$", line)]
    assert len(rows) == 30
