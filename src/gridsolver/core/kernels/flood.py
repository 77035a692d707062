"""The four-way flood fill that takes a group off a board of cells (numba kernel, inlined).

A board of cells here is a flat array, column by column, each column
bottom-up: cell ``c * height + h`` is column ``c`` at height ``h``. A group
is a set of orthogonally connected cells of one colour.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def take_group(cells, width, height, start, mark, stack, low, track_low):
    """Overwrite the group of cell ``start`` with ``mark`` (a value no colour has), in place.

    ``stack`` needs room for the group. Returns (cells taken, first column,
    last column). With ``track_low`` (pass a constant: the inlined code then
    keeps only the branch it takes), ``low[c]`` is lowered to the lowest
    height taken in column ``c``; the caller sets ``low`` beforehand.
    """
    colour = cells[start]
    cells[start] = mark
    stack[0] = start
    top = 1
    taken = 0
    first = width
    last = -1
    while top > 0:
        top -= 1
        j = stack[top]
        taken += 1
        jc = j // height
        jh = j - jc * height
        first = min(first, jc)
        last = max(last, jc)
        if track_low:
            low[jc] = min(low[jc], jh)
        if jh > 0 and cells[j - 1] == colour:
            cells[j - 1] = mark
            stack[top] = j - 1
            top += 1
        if jh + 1 < height and cells[j + 1] == colour:
            cells[j + 1] = mark
            stack[top] = j + 1
            top += 1
        if jc > 0 and cells[j - height] == colour:
            cells[j - height] = mark
            stack[top] = j - height
            top += 1
        if jc + 1 < width and cells[j + height] == colour:
            cells[j + height] = mark
            stack[top] = j + height
            top += 1
    return taken, first, last
