"""The rules of the Genetic Rat Race: a track, what a move does, start cells.

This module is the plain-Python statement of the rules (docs/ratrace.md has
the prose): :func:`step`. Everything else derives from it: the game kernels
play from a transition table built here by :func:`transitions` (step's rules
applied to every cell at once, checked against it), and the reference game in
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
#: The largest track read from text (the standard track is 53 x 15): reading one this size and
#: building its tables takes well under a second, and a game on it fits the default memory.
MAX_WIDTH = 256
MAX_HEIGHT = 256
COLOURS = 16
#: The most turns a game may be asked for (--turns): a game this long takes days, and the game loop
#: counts turns in 64-bit integers, so a larger number is a mistake, refused as one.
MAX_TURNS = 1_000_000_000
LIFESPAN = 100  # a rat whose age is 100 at the start of a turn dies
GENOME_BITS = 100  # a rat's genome: bits 0..99 (two uint64 words in the kernels, bits 100..127 zero)
NEWBORNS = 10  # rats bred at the end of every turn
CROSSOVER_SWITCH = 0.05  # a child's genome switches parent before each later bit with this probability
MUTATION = 0.01  # then each bit flips with this probability
GOAL_POINTS_FITNESS = 50  # a rat's fitness is 1 + x + 50 x its goals
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
    cell_kinds = kinds[colours]
    lethal: np.ndarray = cell_kinds == WALL
    ys, xs = np.nonzero(cell_kinds == TRAP)
    reach = _reach(offsets, width, height)[colours[ys, xs]]
    tx, ty = xs + reach[:, 0], ys + reach[:, 1]
    inside = (0 <= tx) & (tx < width) & (0 <= ty) & (ty < height)
    lethal[ty[inside], tx[inside]] = True
    return lethal


def _reach(offsets: np.ndarray, width: int, height: int) -> np.ndarray:
    """``offsets`` clipped to the track's size: a cell further away is outside the track either way,
    and clipping keeps ``x + dx`` far from int64 overflow for any offset a Track is given."""
    side = max(width, height)
    return np.clip(np.asarray(offsets, dtype=np.int64), -side, side)


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
    """Table ``[cell, move_index] -> new cell, DEAD or GOAL`` (int32) for every cell.

    :func:`step` applied to every cell at once (with numpy: a Python call per cell and move took
    seconds on large tracks); the tests check each entry against :func:`step`.
    """
    width, height = track.width, track.height
    ys, xs = (a.ravel() for a in np.indices((height, width)))
    kind_at = np.pad(track.kinds[track.colours], 1, constant_values=-1)  # -1: outside the track
    reach = _reach(track.offsets, width, height)
    table = np.empty((height * width, len(MOVES)), dtype=np.int32)
    for m, (dx, dy) in enumerate(MOVES):
        tx, ty = xs + dx, ys + dy  # one step stays within the 1-cell padding of kind_at
        refused = kind_at[ty + 1, tx + 1] == WALL  # 3. a wall refuses the move
        tx, ty = np.where(refused, xs, tx), np.where(refused, ys, ty)
        teleported = kind_at[ty + 1, tx + 1] == TELEPORTER  # 4. one teleport, never chained
        jump = reach[track.colours[ty[teleported], tx[teleported]]]
        tx[teleported] += jump[:, 0]
        ty[teleported] += jump[:, 1]
        inside = (0 <= tx) & (tx < width) & (0 <= ty) & (ty < height)
        cell = np.where(inside, ty * width + tx, 0)
        dead = ~inside | track.lethal.ravel()[cell]  # 5. lethal cells kill
        goal = tx >= track.goal_x  # 6. the goal scores
        table[:, m] = np.where(dead, DEAD, np.where(goal, GOAL, cell))
    return table


def reach_turns(table: np.ndarray, turns: int = LIFESPAN) -> np.ndarray:
    """For each cell, whether some sequence of at most ``turns`` moves reaches the goal."""
    cells = len(table)
    can = np.zeros(cells + 1, dtype=bool)  # the extra entry, where a death leads, stays False
    can[:cells] = (table == GOAL).any(axis=1)
    # One contiguous index row per move (not a gather over rows of 9): a few ms per turn even on
    # the largest track, where a path to the goal may take all 100 turns to find.
    targets = np.ascontiguousarray(np.where(table >= 0, table, cells).T, dtype=np.intp)
    grown = np.empty(cells, dtype=bool)
    for _ in range(turns - 1):
        grown[:] = can[:cells]
        for move_targets in targets:
            grown |= can[move_targets]
        if np.array_equal(grown, can[:cells]):
            break
        can[:cells] = grown
    return can[:cells]


def start_cells(track: Track, table: np.ndarray | None = None) -> list[int]:
    """The y of every cell (0, y) from which the goal can be reached within 100 turns."""
    if table is None:
        table = transitions(track)
    can = reach_turns(table).reshape(track.height, track.width)
    return [int(y) for y in np.nonzero(can[:, 0])[0]]
