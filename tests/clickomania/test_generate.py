"""Generators: seeded random boards and certified clearable boards."""

import numpy as np
import pytest

from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import MAX_GROUP, clearable_board, parse_spec, random_board
from gridsolver.core.errors import InputError


def test_random_boards_are_seeded_and_sized():
    a = random_board(20, 10, 4, seed=7)
    assert a.grid.shape == (10, 20) and set(np.unique(a.grid)) <= {0, 1, 2, 3}
    assert a == random_board(20, 10, 4, seed=7)
    assert a != random_board(20, 10, 4, seed=8)


@pytest.mark.parametrize("width, height, colours, seed", [
    (5, 5, 5, 0), (10, 10, 5, 1), (20, 20, 5, 2), (7, 3, 4, 3), (1, 2, 3, 4), (3, 1, 2, 5), (37, 37, 5, 6),
])
def test_clearable_boards_are_full_and_their_certificate_clears_them(width, height, colours, seed):
    built = clearable_board(width, height, colours, seed=seed)
    assert built.board.grid.shape == (height, width)
    assert built.board.cells_left == width * height
    assert rules.replay(built.board, built.solution).cells_left == 0


def test_spec_convention_is_width_height_colours():
    assert parse_spec("20x10x4") == (20, 10, 4)
    for bad in ("20x10", "axbxc", "0x5x5", "65x5x5", "5x5x21"):
        with pytest.raises(InputError):
            parse_spec(bad)


def _certificate_group_sizes(built):
    """Replay the certificate move by move under the rules; the size of each removed group."""
    board, sizes = built.board, []
    for move in built.solution:
        sizes.append(len(rules.group_at(board, move)))
        board = rules.apply(board, move)
    assert board.cells_left == 0
    return sizes


def test_the_default_style_is_the_runs_builder_unchanged():
    # the default style must keep every seed's board: benchmarks and issues name boards by seed
    built = clearable_board(9, 7, 5, seed=3)
    assert built == clearable_board(9, 7, 5, seed=3, style="runs")
    assert set(_certificate_group_sizes(built)) <= {2, 3, 4}


@pytest.mark.parametrize("style", ["groups", "small", "ragged"])
@pytest.mark.parametrize("width, height, seed", [(5, 5, 0), (12, 9, 1), (2, 6, 2), (7, 2, 3), (30, 30, 4)])
def test_every_style_builds_clearable_boards_with_the_promised_groups(style, width, height, seed):
    built = clearable_board(width, height, 5, seed=seed, style=style)
    assert built.board.grid.shape == (height, width)
    assert built == clearable_board(width, height, 5, seed=seed, style=style)  # seeded
    sizes = _certificate_group_sizes(built)
    if style == "small":
        assert set(sizes) <= {2, 3}
    else:
        assert 2 <= min(sizes) and max(sizes) <= MAX_GROUP
    if style == "ragged":
        # settled (no holes), every column used, and (on the larger boards) columns of several heights
        heights = (built.board.grid != rules.EMPTY).sum(axis=0)
        assert heights.min() >= 1
        assert rules.settle(built.board.grid).tolist() == built.board.grid.tolist()
        if width >= 12:
            assert len(set(heights.tolist())) >= 3
    else:
        assert built.board.cells_left == width * height


def test_the_styles_differ_and_big_groups_appear_only_where_promised():
    runs = _certificate_group_sizes(clearable_board(20, 20, 5, seed=9))
    groups = _certificate_group_sizes(clearable_board(20, 20, 5, seed=9, style="groups"))
    assert max(runs) <= 4 and max(groups) > 4


def test_an_unknown_style_is_refused():
    with pytest.raises(InputError, match="style 'diagonal'"):
        clearable_board(5, 5, 5, seed=0, style="diagonal")
