"""The shared flood fill against a plain breadth-first search of the same group."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.core.kernels.flood import flood


def _group(cells: np.ndarray, width: int, height: int, start: int) -> set[int]:
    """The cells joined to ``start`` through orthogonal neighbours of its colour (plain Python)."""
    colour = cells[start]
    group, todo = {start}, [start]
    while todo:
        j = todo.pop()
        c, h = divmod(j, height)
        for dc, dh in ((0, -1), (0, 1), (-1, 0), (1, 0)):
            if 0 <= c + dc < width and 0 <= h + dh < height:
                k = (c + dc) * height + h + dh
                if cells[k] == colour and k not in group:
                    group.add(k)
                    todo.append(k)
    return group


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(1, 4), st.data())
def test_flood_marks_the_group_and_measures_it(width, height, colours, data):
    n = width * height
    cells = np.array(data.draw(st.lists(st.integers(0, colours - 1), min_size=n, max_size=n)), np.int8)
    start = data.draw(st.integers(0, n - 1))
    expected = _group(cells, width, height, start)
    columns = {j // height for j in expected}

    # marking stamps, with a lowest height per column
    stamps, low = np.zeros(n, np.int32), np.full(width, height, np.int32)
    got = flood(cells, width, height, start, np.empty(n, np.int32), stamps, 7, low)
    assert set(np.flatnonzero(stamps == 7).tolist()) == expected
    assert got == (len(expected), min(expected), min(columns), max(columns),
                   max(j % height for j in expected))
    for c in range(width):
        lowest = min((j % height for j in expected if j // height == c), default=height)
        assert low[c] == lowest

    # marking the cells themselves: the group is removed
    removed = cells.copy()
    size, *_ = flood(removed, width, height, start, np.empty(n, np.int32), removed, -1)
    assert size == len(expected)
    assert set(np.flatnonzero(removed == -1).tolist()) == expected
    assert np.array_equal(removed[removed != -1], cells[removed != -1])
