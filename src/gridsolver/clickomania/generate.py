"""Board generators: random boards, and boards guaranteed to be clearable.

A clearable board is built backwards from the empty board by inserting
removable groups: each insertion puts a connected run of one colour into
the board (pushing the cells above it up, or opening a new column) such that
no cell next to the run has its colour. Removing that run is then a legal
move that gives back exactly the board before the insertion, so playing the
insertions in reverse order clears the board; :func:`clearable_board`
returns that sequence as a certificate.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import numpy as np

from gridsolver.clickomania.rules import ALPHABET, EMPTY, MAX_COLOURS, MAX_SIDE, Board, Move, shown
from gridsolver.core.errors import InputError

MAX_RUN = 4  # longest inserted run; short runs give boards like the random ones
MAX_GROUP = 6  # largest group the "groups" and "ragged" styles insert


def check_size(width: int, height: int, colours: int) -> None:
    """The limits of parsed boards: sides 1 to :data:`MAX_SIDE`, 1 to :data:`MAX_COLOURS` colours."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise InputError(f"board size {width}x{height}: width and height must be 1 to {MAX_SIDE} "
                         f"(clickomania and samegame boards are at most {MAX_SIDE}x{MAX_SIDE})")
    if not 1 <= colours <= MAX_COLOURS:
        raise InputError(f"{colours} colours: must be 1 to {MAX_COLOURS} (the most a board may use)")


# Nine digits at most: larger sizes are refused by check_size, and int() never refuses them.
SPEC = re.compile(r"([0-9]{1,9})x([0-9]{1,9})x([0-9]{1,9})")


def parse_spec(spec: str) -> tuple[int, int, int]:
    """``WIDTHxHEIGHTxCOLOURS`` (e.g. ``20x10x4``: 20 columns, 10 rows, 4 colours)."""
    match = SPEC.fullmatch(spec.strip().lower())
    if match is None:
        raise InputError(f"board spec {shown(spec)}: expected WIDTHxHEIGHTxCOLOURS, e.g. 20x10x4 "
                         f"(at most {MAX_SIDE}x{MAX_SIDE}x{MAX_COLOURS})")
    width, height, colours = (int(part) for part in match.groups())
    check_size(width, height, colours)
    return width, height, colours


def random_board(width: int, height: int, colours: int, *, seed: int) -> Board:
    """A full board with every cell drawn uniformly from ``colours`` colours."""
    check_size(width, height, colours)
    rng = np.random.default_rng(seed)
    return Board(rng.integers(0, colours, size=(height, width)).astype(np.int8))


@dataclass(frozen=True)
class Clearable:
    """A clearable board and a sequence of moves that clears it."""

    board: Board
    solution: list[Move]


#: Build styles of :func:`clearable_board` (the first is the default), with what each inserts.
STYLES = {
    "runs": "straight runs of 2-4 cells (vertical, horizontal, or in new columns); a full board",
    "groups": f"connected groups of random shape and size 2-{MAX_GROUP}; a full board",
    "small": "only groups of 2 and 3 cells (dominoes and trominoes), the hardest to clear; a full board",
    "ragged": f"groups of random shape and size 2-{MAX_GROUP}; columns of random heights (not full)",
}
DEFAULT_STYLE = "runs"


def check_style(style: str) -> str:
    """``style`` if it is one of :data:`STYLES`, else an :class:`InputError` naming them."""
    if style not in STYLES:
        raise InputError(f"clearable style {shown(style)}: expected one of {', '.join(STYLES)}")
    return style


def clearable_board(width: int, height: int, colours: int, *, seed: int,
                    max_restarts: int = 50, style: str = DEFAULT_STYLE) -> Clearable:
    """A ``width`` x ``height`` board that can be cleared, built by inserting removable groups.

    ``style`` (:data:`STYLES`) says what is inserted; every style but ``ragged`` fills the board.
    """
    check_size(width, height, colours)
    check_style(style)
    if colours < 2 and width * height > 1:
        raise InputError("a clearable board of more than one group needs at least 2 colours")
    if width * height < 2:
        raise InputError(f"board size {width}x{height}: a clearable board needs at least 2 cells")
    if style != DEFAULT_STYLE and height < 2 and width < 2:
        raise InputError(f"board size {width}x{height}: too small for style {style}")
    rng = random.Random(seed)
    for _ in range(max_restarts):
        if style == DEFAULT_STYLE:
            built = _build(width, height, colours, rng)
        else:
            built = _build_groups(width, height, colours, rng, style)
        if built is not None:
            return built
    raise InputError(f"could not build a clearable {width}x{height} board with {colours} colours "
                     f"(seed {seed}); try another seed")


def _build(width: int, height: int, colours: int, rng: random.Random) -> Clearable | None:
    columns: list[list[int]] = []
    moves: list[Move] = []
    failures = 0
    while not (len(columns) == width and all(len(c) == height for c in columns)):
        proposal = _propose(columns, width, height, rng)
        placed = None if proposal is None else _place(columns, proposal, height, colours, rng)
        if placed is None:
            failures += 1
            if failures > 2000:
                return None
            continue
        failures = 0
        columns, move = placed
        moves.append(move)
    return _finished(columns, height, moves)


def _finished(columns: list[list[int]], height: int, moves: list[Move]) -> Clearable:
    """The board built from the bottom up (``columns``) and its certificate: the insertions undone,
    last first."""
    grid = np.full((height, len(columns)), EMPTY, dtype=np.int8)
    for c, column in enumerate(columns):
        for h, colour in enumerate(column):
            grid[height - 1 - h, c] = colour
    return Clearable(Board(grid), moves[::-1])


# A proposal: (new columns to open at position p or None, list of (column, height) cells).
Proposal = tuple[int | None, list[tuple[int, int]]]


def _allowed_free(free: int, height: int) -> bool:
    # A column left with one free cell could only be filled by a horizontal run
    # through its neighbours, which may be full: never leave one (unless height is 1).
    return free != 1 or height == 1


def _propose(columns: list[list[int]], width: int, height: int, rng: random.Random) -> Proposal | None:
    kind = rng.random()
    open_slots = [c for c, col in enumerate(columns) if len(col) < height]
    if len(columns) < width and (kind < 0.2 or not open_slots):
        position = rng.randint(0, len(columns))
        if height >= 2 and (rng.random() < 0.5 or width - len(columns) < 2):
            run = rng.randint(2, min(MAX_RUN, height))
            if not _allowed_free(height - run, height):
                return None
            return position, [(position, h) for h in range(run)]
        if width - len(columns) < 2 or not _allowed_free(height - 1, height):
            return None
        run = rng.randint(2, min(MAX_RUN, width - len(columns)))
        if not _allowed_free(height - 1, height):
            return None
        return position, [(position + i, 0) for i in range(run)]
    if not open_slots:
        return None
    col = rng.choice(open_slots)
    free = height - len(columns[col])
    if kind < 0.6 and free >= 2:
        run = rng.randint(2, min(MAX_RUN, free))
        if not _allowed_free(free - run, height):
            return None
        at = rng.randint(0, len(columns[col]))
        return None, [(col, at + h) for h in range(run)]
    run = rng.randint(2, MAX_RUN)
    span = range(col, col + run)
    if col + run > len(columns):
        return None
    if any(not _allowed_free(height - len(columns[c]) - 1, height) or len(columns[c]) >= height
           for c in span):
        return None
    at = rng.randint(0, min(len(columns[c]) for c in span))
    return None, [(c, at) for c in span]


def _place(columns: list[list[int]], proposal: Proposal, height: int, colours: int,
           rng: random.Random) -> tuple[list[list[int]], Move] | None:
    position, cells = proposal
    new = list(columns)
    if position is not None:
        opened = len({c for c, _ in cells})
        new[position:position] = [[] for _ in range(opened)]
    for c in {c for c, _ in cells}:
        new[c] = list(new[c])
    marker = -2
    for c, h in sorted(cells, key=lambda cell: cell[1]):
        new[c].insert(h, marker)
    cell_set = set(cells)
    near = set()
    for c, h in cells:
        for nc, nh in ((c - 1, h), (c + 1, h), (c, h - 1), (c, h + 1)):
            if (nc, nh) in cell_set or not (0 <= nc < len(new)) or not (0 <= nh < len(new[nc])):
                continue
            near.add(new[nc][nh])
    choices = [k for k in range(colours) if k not in near]
    if not choices:
        return None
    colour = rng.choice(choices)
    for c, h in cells:
        new[c][h] = colour
    c, h = min(cells, key=lambda cell: (cell[0], cell[1]))
    return new, (height - 1 - h, c)


# -- the other styles: groups of any connected shape ------------------------------------------
# A group is inserted as one vertical segment per column over a run of adjacent columns, each
# segment overlapping the next in height so the group is connected; the cells above a segment are
# pushed up (or the columns are new ones, opened at the bottom). Removing the group lets exactly
# those cells fall back (and the new columns close), which gives back the board before.


def _group_size(style: str, rng: random.Random) -> int:
    return rng.randint(2, 3) if style == "small" else rng.randint(2, MAX_GROUP)


def _split(size: int, parts: int, rng: random.Random) -> list[int]:
    """``size`` cells over ``parts`` columns, at least one each, at random."""
    cuts = sorted(rng.sample(range(1, size), parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, size], strict=True)]


def _capacity(style: str, height: int, rng: random.Random) -> int:
    """How tall a new column will be built: the full height, or at random for the ragged style."""
    return rng.randint(min(2, height), height) if style == "ragged" else height


def _build_groups(width: int, height: int, colours: int, rng: random.Random,
                  style: str) -> Clearable | None:
    columns: list[list[int]] = []
    caps: list[int] = []
    moves: list[Move] = []
    failures = 0
    while not (len(columns) == width and all(len(c) == cap for c, cap in zip(columns, caps, strict=True))):
        proposal = _propose_group(columns, caps, width, height, style, rng)
        placed = None if proposal is None else _place(columns, proposal[:2], height, colours, rng)
        if placed is None:
            failures += 1
            if failures > 4000:
                return None
            continue
        failures = 0
        columns, move = placed
        position, _, new_caps = proposal
        if position is not None:
            caps[position:position] = new_caps
        moves.append(move)
    return _finished(columns, height, moves)


def _propose_group(columns: list[list[int]], caps: list[int], width: int, height: int, style: str,
                   rng: random.Random) -> tuple[int | None, list[tuple[int, int]], list[int]] | None:
    """A group to insert: (position of new columns or None, its cells, capacities of new columns)."""
    size = _group_size(style, rng)
    open_cols = [c for c, col in enumerate(columns) if len(col) < caps[c]]
    if len(columns) < width and (rng.random() < 0.1 or not open_cols):
        span = rng.randint(1, min(size, width - len(columns)))
        if span == 1 and size > height:
            return None
        lengths = _split(size, span, rng)
        new_caps = [_capacity(style, height, rng) for _ in range(span)]
        if any(n > cap or not _allowed_free(cap - n, cap) for n, cap in zip(lengths, new_caps, strict=True)):
            return None
        position = rng.randint(0, len(columns))
        return position, [(position + i, h) for i, n in enumerate(lengths) for h in range(n)], new_caps
    if not open_cols:
        return None
    first = rng.choice(open_cols)
    span = rng.randint(1, size)
    if first + span > len(columns):
        return None
    lengths = _split(size, span, rng)
    cells: list[tuple[int, int]] = []
    low, high = 0, height  # heights the next segment must overlap (any, for the first)
    for i, n in enumerate(lengths):
        c = first + i
        free = caps[c] - len(columns[c])
        if n > free or not _allowed_free(free - n, caps[c]):
            return None
        lowest = max(0, low - n + 1)
        highest = min(len(columns[c]), high - 1)
        if lowest > highest:
            return None
        at = rng.randint(lowest, highest)
        cells.extend((c, at + h) for h in range(n))
        low, high = at, at + n
    return None, cells, []


def describe(board: Board) -> str:
    """A one-line summary: size and colours used."""
    used = sorted({int(v) for v in board.grid.reshape(-1) if v != EMPTY})
    return f"{board.width}x{board.height}, colours {''.join(ALPHABET[v] for v in used)}"
