"""The shared pieces of text output: cells and counts."""

from gridsolver.core.words import cell, plural


def test_plural_says_one_thing_and_many_things():
    assert plural(1, "point") == "1 point"
    assert plural(0, "point") == "0 points"
    assert plural(4096, "cell") == "4,096 cells"
    assert plural(1, "peg stays", "pegs stay") == "1 peg stays"
    assert plural(3, "peg stays", "pegs stay") == "3 pegs stay"


def test_a_cell_is_row_then_column_from_0():
    assert cell(0, 4) == "row 0, column 4"
