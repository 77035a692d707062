"""The rules of the Genetic Rat Race: a track, what a move does, start cells.

This module is the plain-Python statement of the rules (``/work/shared/specs``
has the prose). Everything else derives from it: the game kernels play from a
transition table built here by :func:`transitions`, and the reference game in
:mod:`gridsolver.ratrace.reference` calls :func:`step` for every rat.

A track is a grid of colours 0..15; each colour has a kind (empty,
teleporter, trap, wall) and teleporters and traps have an offset. Cells are
numbered ``y * width + x``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

WIDTH = 53
HEIGHT = 15
GOAL_COLUMNS = 4  # cells with x >= width - 4 (x >= 49 on the standard track) are goal cells
COLOURS = 16
LIFESPAN = 100  # a rat whose age is 100 at the start of a turn dies
VIEW_RADIUS = 2
OUTSIDE = -1  # the colour a rat sees outside the track

EMPTY, TELEPORTER, TRAP, WALL = 0, 1, 2, 3
KIND_NAMES = ("empty", "teleporter", "trap", "wall")

# Outcomes of a step besides "now on cell c" (c >= 0).
DEAD = -1
GOAL = -2

#: The nine moves in the order of transition table columns: index (dy + 1) * 3 + (dx + 1).
MOVES: tuple[tuple[int, int], ...] = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))


def move_index(dx: int, dy: int) -> int:
    return (dy + 1) * 3 + (dx + 1)


@dataclass(eq=False)
class Track:
    """A track: colours per cell plus what each colour means.

    ``colours[y, x]`` is 0..15. ``kinds[c]`` is EMPTY/TELEPORTER/TRAP/WALL and
    ``offsets[c]`` the (dx, dy) of a teleporter or trap colour (always (0, 0)
    for the others: an offset given for them is dropped, the rules never read
    it). ``start_cells`` are the y of the start cells (x = 0).

    Two tracks are equal when their colours, kinds, offsets, seed and start
    cells are (``lethal`` follows from the rest).
    """

    colours: np.ndarray
    kinds: np.ndarray
    offsets: np.ndarray
    seed: int | None = None
    start_cells: list[int] = field(default_factory=list)
    lethal: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.colours = np.ascontiguousarray(self.colours, dtype=np.int64)
        self.kinds = np.asarray(self.kinds, dtype=np.int64)
        offsets = np.array(self.offsets, dtype=np.int64).reshape(COLOURS, 2)  # a copy: zeroed below
        offsets[(self.kinds != TELEPORTER) & (self.kinds != TRAP)] = 0
        self.offsets = offsets
        self.lethal = lethal_cells(self.colours, self.kinds, self.offsets)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Track):
            return NotImplemented
        same_starts = [int(y) for y in self.start_cells] == [int(y) for y in other.start_cells]
        return (self.seed == other.seed and same_starts
                and np.array_equal(self.colours, other.colours) and np.array_equal(self.kinds, other.kinds)
                and np.array_equal(self.offsets, other.offsets))

    __hash__ = None  # type: ignore[assignment]  # mutable: equal tracks need not stay equal

    @property
    def height(self) -> int:
        return int(self.colours.shape[0])

    @property
    def width(self) -> int:
        return int(self.colours.shape[1])

    @property
    def goal_x(self) -> int:
        return self.width - GOAL_COLUMNS

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def colour(self, x: int, y: int) -> int:
        return int(self.colours[y, x]) if self.inside(x, y) else OUTSIDE

    def kind(self, x: int, y: int) -> int | None:
        return int(self.kinds[self.colours[y, x]]) if self.inside(x, y) else None

    def is_goal(self, x: int, y: int) -> bool:
        return self.inside(x, y) and x >= self.goal_x

    def view(self, x: int, y: int) -> list[list[int]]:
        """The 5 x 5 colours around (x, y): ``view[dy + 2][dx + 2]``, -1 outside."""
        r = VIEW_RADIUS
        return [[self.colour(x + dx, y + dy) for dx in range(-r, r + 1)] for dy in range(-r, r + 1)]


def lethal_cells(colours: np.ndarray, kinds: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Boolean grid of lethal cells: walls and the cell at each trap + its offset."""
    height, width = colours.shape
    lethal = kinds[colours] == WALL
    for y, x in zip(*np.nonzero(kinds[colours] == TRAP), strict=True):
        dx, dy = offsets[colours[y, x]]
        tx, ty = x + dx, y + dy
        if 0 <= tx < width and 0 <= ty < height:
            lethal[ty, tx] = True
    return lethal


def step(track: Track, x: int, y: int, dx: int, dy: int) -> tuple[int, int, int]:
    """Steps 3-6 of a turn for a rat on (x, y) that chose the move (dx, dy).

    Returns ``(outcome, x, y)``: outcome is GOAL (the rat scored), DEAD, or 0
    with the rat's new cell.
    """
    tx, ty = x + dx, y + dy
    if track.kind(tx, ty) == WALL:  # 3. a wall refuses the move
        tx, ty = x, y
    if track.kind(tx, ty) == TELEPORTER:  # 4. one teleport, never chained
        ox, oy = track.offsets[track.colours[ty, tx]]
        tx, ty = tx + int(ox), ty + int(oy)
    if not track.inside(tx, ty) or track.lethal[ty, tx]:  # 5. lethal cells kill
        return DEAD, tx, ty
    if track.is_goal(tx, ty):  # 6. the goal scores
        return GOAL, tx, ty
    return 0, tx, ty


def transitions(track: Track) -> np.ndarray:
    """Table ``[cell, move_index] -> new cell, DEAD or GOAL`` (int32) for every cell."""
    table = np.empty((track.height * track.width, 9), dtype=np.int32)
    for y in range(track.height):
        for x in range(track.width):
            for m, (dx, dy) in enumerate(MOVES):
                outcome, tx, ty = step(track, x, y, dx, dy)
                table[y * track.width + x, m] = outcome if outcome < 0 else ty * track.width + tx
    return table


def reach_turns(table: np.ndarray, turns: int = LIFESPAN) -> np.ndarray:
    """For each cell, whether some sequence of at most ``turns`` moves reaches the goal."""
    can = (table == GOAL).any(axis=1)
    alive = table >= 0
    safe_targets = np.where(alive, table, 0)
    for _ in range(turns - 1):
        grown = can | (alive & can[safe_targets]).any(axis=1)
        if np.array_equal(grown, can):
            break
        can = grown
    return can


def start_cells(track: Track, table: np.ndarray | None = None) -> list[int]:
    """The y of every cell (0, y) from which the goal can be reached within 100 turns."""
    if table is None:
        table = transitions(track)
    can = reach_turns(table).reshape(track.height, track.width)
    return [int(y) for y in np.nonzero(can[:, 0])[0]]
