"""Board cells, group finding, removal and settling, move lists, Zobrist hashing (numba kernels).

The kernel board layout is described in :mod:`gridsolver.clickomania.kernels`;
:mod:`gridsolver.clickomania.rules` is the plain-Python reference these
kernels are tested against.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.core.kernels.flood import flood

# error_model="numpy": integer // and % skip numba's check for a zero divisor (every divisor here is a
# board size or a count above 0): NRPA takes about 16% less CPU time for the same games

EMPTY = -1
MAX_COLOURS_CODE = 36  # colour codes are indices into rules.ALPHABET
CHECK_EVERY = 256  # searches read the clock every this many nodes


# -- conversions (plain Python) ---------------------------------------------------------------
def to_cells(grid: np.ndarray) -> np.ndarray:
    """Kernel layout of a settled ``(height, width)`` grid (row 0 at the top)."""
    return np.ascontiguousarray(grid[::-1, :].T).reshape(-1).astype(np.int8)


def to_grid(cells: np.ndarray, width: int, height: int) -> np.ndarray:
    """Inverse of :func:`to_cells`."""
    return np.ascontiguousarray(cells.reshape(width, height).T[::-1, :])


def index_to_move(index: int, height: int) -> tuple[int, int]:
    """(row, column) of kernel cell ``index``, rows counted from the top."""
    col, h = divmod(int(index), height)
    return height - 1 - h, col


def move_to_index(row: int, col: int, height: int) -> int:
    """Kernel cell index of the move (``row``, ``col``), rows counted from the top (inverse of
    :func:`index_to_move`)."""
    return col * height + height - 1 - row


def path_to_moves(path: np.ndarray, length: int, height: int) -> list[tuple[int, int]]:
    """The moves (row, column) of the first ``length`` kernel cells of ``path``."""
    return [index_to_move(i, height) for i in path[:length]]


def zobrist_table(cells: int, seed: int = 20240521) -> np.ndarray:
    """Random 64-bit keys, one per (cell, colour code), for position hashes."""
    rng = np.random.default_rng(seed)
    return rng.integers(1, 2**63 - 1, size=(cells, MAX_COLOURS_CODE), dtype=np.int64)


# -- groups, removal, settling ------------------------------------------------------------------
#: What :func:`find_groups` fills for a board of ``n`` cells: each cell's group ``label``, each group's
#: ``sizes`` and ``reps`` (a cell of it), and the flood fill's ``stack`` (see :func:`group_scratch`).
Groups = namedtuple("Groups", "label sizes reps stack")


@njit(cache=True)
def group_scratch(n):
    """Room for :func:`find_groups` on a board of ``n`` cells (made once per search, not per node)."""
    return Groups(np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32))


@njit(cache=True, error_model="numpy")
def find_groups(cells, width, height, label, sizes, reps, stack):
    """Label every group; returns the group count. ``reps[g]`` is group g's canonical cell.

    Only occupied cells get a label (an empty cell's label is stale: callers
    never read it). Most groups are single cells, so those are settled by
    looking at the four neighbours before starting a flood fill.
    """
    for c in range(width):
        base = c * height
        if cells[base] == EMPTY:
            break
        for h in range(height):
            if cells[base + h] == EMPTY:
                break
            label[base + h] = -1
    count = 0
    for c in range(width):
        base = c * height
        if cells[base] == EMPTY:
            break
        for h in range(height):
            i = base + h
            colour = cells[i]
            if colour == EMPTY:
                break
            if label[i] >= 0:
                continue
            label[i] = count
            reps[count] = i
            if is_single(cells, width, height, i, c, h):
                sizes[count] = 1
                count += 1
                continue
            size, _, _, _, _ = flood(cells, width, height, i, stack, label, count, None, False)
            sizes[count] = size
            count += 1
    return count


@njit(cache=True, error_model="numpy")
def is_single(cells, width, height, i, c, h):
    """Whether cell ``i`` (column ``c``, height ``h``) has no neighbour of its colour."""
    colour = cells[i]
    return ((h + 1 == height or cells[i + 1] != colour)
            and (c + 1 == width or cells[i + height] != colour)
            and (h == 0 or cells[i - 1] != colour)
            and (c == 0 or cells[i - height] != colour))


@njit(cache=True, error_model="numpy")
def remove_settle(cells, width, height, start, stack, low):
    """Remove the group containing ``start`` and settle, in place.

    Only the columns the group touched can fall, and only the columns from the
    first of them on can move left, so settling is limited to those. Returns
    (cells removed, first and last column of the group, whether a column
    emptied and the ones right of it moved left); ``low[c]`` for the group's
    columns is the lowest height whose cell changed (nothing below it fell).
    """
    if cells[start] == EMPTY:
        return 0, 0, -1, False
    removed, _, first, last, _ = flood(cells, width, height, start, stack, cells, EMPTY)
    emptied = False
    for c in range(first, last + 1):  # gravity
        base = c * height
        write = 0
        low[c] = height
        for h in range(height):
            v = cells[base + h]
            if v != EMPTY:
                cells[base + write] = v
                write += 1
            elif low[c] == height:
                low[c] = h
        for h in range(write, height):
            cells[base + h] = EMPTY
        emptied = emptied or write == 0
    if emptied:
        close_columns(cells, width, height, first, last)
    return removed, first, last, emptied


@njit(cache=True, error_model="numpy")
def close_columns(cells, width, height, first, last):
    """Move the columns right of the emptied ones (among ``first..last``) to the left."""
    target = first
    c = first
    while c < width and (c <= last or cells[c * height] != EMPTY):
        if cells[c * height] != EMPTY:
            if target != c:
                for h in range(height):
                    cells[target * height + h] = cells[c * height + h]
            target += 1
        c += 1
    for i in range(target * height, c * height):
        cells[i] = EMPTY


@njit(cache=True, error_model="numpy")
def remove_at(cells, width, height, start, stack):
    """Remove the group containing ``start`` and settle, in place; returns the cells removed."""
    return remove_settle(cells, width, height, start, stack, stack)[0]  # the stack is free for the lows


# -- hashing and hash tables ----------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def position_hash(cells, zob):
    """Zobrist hash of a position (never 0, which marks an empty table slot)."""
    h = np.int64(0)
    for i in range(cells.shape[0]):
        v = cells[i]
        if v != EMPTY:
            h ^= zob[i, v]
    if h == 0:
        h = 1
    return h


# -- counts and move lists ------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def colour_summary(cells, counts):
    """Fill ``counts`` per colour code; returns (cells left, colours with exactly one cell)."""
    for k in range(counts.shape[0]):
        counts[k] = 0
    left = 0
    for i in range(cells.shape[0]):
        v = cells[i]
        if v != EMPTY:
            counts[v] += 1
            left += 1
    dead = 0
    for k in range(counts.shape[0]):
        if counts[k] == 1:
            dead += 1
    return left, dead


@njit(cache=True, error_model="numpy")
def groups_to_moves(cells, ng, sizes, reps, skip_colour, out_moves, out_sizes):
    """Copy the found groups of two or more cells, except those of ``skip_colour``, to the move
    arrays; returns how many."""
    k = 0
    for g in range(ng):
        if sizes[g] >= 2 and cells[reps[g]] != skip_colour:
            out_moves[k] = reps[g]
            out_sizes[k] = sizes[g]
            k += 1
    return k


@njit(cache=True, error_model="numpy")
def legal_moves(cells, width, height, label, sizes, reps, stack, out_moves, out_sizes):
    """Every legal move (canonical cell of a group of two or more) and its size; returns how many."""
    ng = find_groups(cells, width, height, label, sizes, reps, stack)
    # skip no colour; a typed -1, since a literal would compile groups_to_moves once more for it
    return groups_to_moves(cells, ng, sizes, reps, np.int64(EMPTY), out_moves, out_sizes)

