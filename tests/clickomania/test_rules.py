"""The plain-Python rules: parsing, groups, removal, settling, scoring, bad input."""

import numpy as np
import pytest

from gridsolver.clickomania import rules
from gridsolver.core.boards import split_boards
from gridsolver.core.errors import BoardError, InputError


def board(text: str) -> rules.Board:
    return rules.from_text(text)


def test_format_parse_round_trip():
    text = "a1.\nb12\n001"
    b = board(text)
    assert rules.format_board(b) == "a1.\nb12\n001"
    assert rules.from_text(rules.format_board(b)) == b


def test_floating_cells_settle_on_parse():
    b = board("1.\n..\n.2")
    assert rules.format_board(b) == "..\n..\n12"


def test_remove_group_gravity_and_column_collapse():
    b = board("12\n12\n32")
    # removing the 2s empties column 1; removing the 1s lets the 3 stay at the bottom
    assert rules.format_board(rules.apply(b, (0, 1))) == "1.\n1.\n3."
    after = rules.apply(b, (0, 0))
    assert rules.format_board(after) == ".2\n.2\n32"


def test_empty_column_closes_to_the_left():
    b = board("121\n121")
    after = rules.apply(b, (1, 1))
    assert rules.format_board(after) == "11.\n11."
    assert rules.format_board(rules.apply(after, (0, 0))) == "...\n..."


def test_legal_moves_are_canonical_cells_of_groups_of_two_or_more():
    b = board("112\n213\n223")
    # groups: 1s {(0,0),(0,1),(1,1)}, 2s {(1,0),(2,0),(2,1)}, 3s {(1,2),(2,2)}, lone 2 at (0,2)
    assert rules.legal_moves(b) == [(2, 0), (0, 0), (2, 2)]
    assert sorted(len(g) for g in rules.groups(b)) == [1, 2, 3, 3]


def test_illegal_moves_are_input_errors():
    b = board("12\n21")
    with pytest.raises(InputError, match="single cell"):
        rules.apply(b, (0, 0))
    with pytest.raises(InputError, match="outside"):
        rules.apply(b, (5, 0))
    after = board("1.\n1.")
    with pytest.raises(InputError, match="empty"):
        rules.apply(after, (0, 1))


@pytest.mark.parametrize("text, message", [
    ("123\n12", "row has 2 cells but the first row has 3"),
    ("12\n1Z", "unexpected character 'Z'"),
    ("..\n..", "empty"),
    ("0123456789abcdefghijk", "21 colours"),
])
def test_bad_boards_name_the_problem(text, message):
    with pytest.raises(BoardError, match=message):
        rules.parse(split_boards(text, "b.txt")[0])


def test_bad_character_reports_row_and_column():
    with pytest.raises(BoardError) as info:
        rules.parse(split_boards("12\n1?", "b.txt")[0])
    assert "row 1, column 1" in str(info.value)


def test_too_large_board_is_rejected():
    with pytest.raises(BoardError, match="65 columns"):
        rules.parse(split_boards("1" * 65, "b.txt")[0])


def test_named_sets_ship_with_the_package():
    duel = split_boards(rules.named("duel-5x5"), "duel-5x5", rules.COMMENT)
    standard = split_boards(rules.named("standard-20"), "standard-20", rules.COMMENT)
    assert len(duel) == 200 and len(standard) == 20
    assert rules.parse(standard[0]).grid.shape == (15, 15)
    assert all(np.unique(rules.parse(b).grid).size <= 5 for b in duel)
    assert rules.named("nonsense") is None
