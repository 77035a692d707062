"""The Python API every game shares (gridsolver.core.game): boards of a set by name."""

import pytest

from gridsolver import bunny, clickomania, samegame
from gridsolver.core.errors import InputError


def test_named_picks_a_board_of_a_shipped_set_as_results_label_it():
    board = samegame.named("standard-20#3")
    assert samegame.format(board) == samegame.format(samegame.load("standard-20")[2])
    assert clickomania.format(clickomania.named("duel-5x5#17")) == clickomania.format(
        clickomania.load("duel-5x5#17")[0])


def test_named_on_a_set_says_it_is_a_set_and_how_to_pick_one():
    with pytest.raises(InputError, match=r"'standard-20' is a set of 20 boards, not one board: name one as "
                                         r"'standard-20#k' \(k from 1 to 20\)"):
        samegame.named("standard-20")
    with pytest.raises(InputError, match=r"duel-5x5#201: no such board: duel-5x5 holds 200 boards"):
        clickomania.named("duel-5x5#201")
    with pytest.raises(InputError, match="no shipped board called 'nope#2'"):
        bunny.named("nope#2")


def test_read_picks_a_board_of_several_by_its_label():
    text = "S#\n\nS##\n"
    assert bunny.format(bunny.read(text, "two.txt#2")) == "S##"
    with pytest.raises(InputError, match=r"two.txt: expected one board, found 2 .*name one as two.txt#k"):
        bunny.read(text, "two.txt")
    with pytest.raises(InputError, match=r"two.txt#3: no such board: two.txt holds 2 boards"):
        bunny.read(text, "two.txt#3")
