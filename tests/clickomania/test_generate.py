"""Generators: seeded random boards and certified clearable boards."""

import numpy as np
import pytest

from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import clearable_board, parse_spec, random_board
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
    built = clearable_board(width, height, colours, seed)
    assert built.board.grid.shape == (height, width)
    assert built.board.cells_left == width * height
    assert rules.replay(built.board, built.solution).cells_left == 0


def test_spec_convention_is_width_height_colours():
    assert parse_spec("20x10x4") == (20, 10, 4)
    for bad in ("20x10", "axbxc", "0x5x5", "65x5x5", "5x5x21"):
        with pytest.raises(InputError):
            parse_spec(bad)
