import pytest

from gridsolver.core.boards import split_boards
from gridsolver.core.errors import BoardError, InputError
from gridsolver.pegs import generate, rules


def board_of(text: str, source: str = "test.txt", jumps: str | None = None) -> rules.Board:
    board = rules.parse(split_boards(text, source, "#")[0])
    return board if jumps is None else board.with_jumps(jumps)


def named(name: str) -> rules.Board:
    return board_of(rules.named(name), name)


@pytest.mark.parametrize("name,holes,jump_rule", [
    ("english", 33, "orthogonal"), ("european", 37, "orthogonal"), ("wiegleb", 45, "orthogonal"),
    ("diamond", 41, "orthogonal"), ("triangle", 15, "triangular"), ("6x6", 36, "orthogonal"),
])
def test_named_boards_have_the_right_holes_and_one_vacancy(name, holes, jump_rule):
    board = named(name)
    assert board.hole_count == holes
    assert board.peg_count == holes - 1
    assert board.jumps == jump_rule


def test_english_vacancy_is_the_centre():
    board = named("english")
    assert not board.has_peg((3, 3)) and board.is_hole((3, 3))
    assert not board.is_hole((0, 0))


def test_format_round_trips():
    for name in ("english", "triangle", "7x5"):
        board = named(name)
        assert board_of(rules.format_board(board), "copy.txt") == board
    comesolo = generate.random_board(6, 6, 0.7, seed=3)
    again = board_of(rules.format_board(comesolo))
    assert again == comesolo and again.comesolo and again.jumps == "diagonal"


def test_the_rule_comes_from_the_jumps_line_not_the_name():
    grid = ".----\noo---\nooo--"
    assert board_of(grid, "triangle").jumps == "orthogonal"  # a file called triangle: no header, default
    assert board_of("jumps: triangular\n" + grid, "anything.txt").jumps == "triangular"
    assert board_of("Jumps:  Diagonal \n" + grid).jumps == "diagonal"
    assert board_of("110\n011").jumps == "diagonal"  # 1/0 boards default to diagonal
    assert board_of("jumps: orthogonal\n110\n011").jumps == "orthogonal"
    assert named("triangle").jumps == "triangular"  # from the shipped file's jumps: line
    assert rules.format_board(named("english")).splitlines()[0] == "jumps: orthogonal"


def test_comesolo_boards_may_have_missing_holes():
    board = board_of("1-1\n101\n110")
    assert board.comesolo and not board.is_hole((0, 1)) and board.hole_count == 8
    assert board_of(rules.format_board(board)) == board


def test_english_opening_jumps_and_apply():
    board = named("english")
    assert sorted(rules.legal_jumps(board)) == [((1, 3), (3, 3)), ((3, 1), (3, 3)), ((3, 5), (3, 3)),
                                                ((5, 3), (3, 3))]
    after = rules.apply(board, ((1, 3), (3, 3)))
    assert after.has_peg((3, 3)) and not after.has_peg((2, 3)) and not after.has_peg((1, 3))
    assert after.peg_count == 31


@pytest.mark.parametrize("jump,reason", [
    (((3, 3), (1, 3)), "no peg at"),
    (((0, 3), (2, 3)), "not empty"),
    (((1, 3), (3, 5)), "not an orthogonal jump"),
    (((1, 3), (2, 3)), "length two"),
])
def test_illegal_jumps_are_refused_with_a_reason(jump, reason):
    with pytest.raises(InputError, match=reason):
        rules.apply(named("english"), jump)


def test_diagonal_jumps_only_under_the_diagonal_rule():
    text = "o..\n.o.\n..."
    assert rules.legal_jumps(board_of(text)) == []
    assert rules.legal_jumps(board_of(text, jumps="diagonal")) == [((0, 0), (2, 2))]


def test_triangular_lattice_directions():
    board = named("triangle")
    assert sorted(rules.legal_jumps(board)) == [((2, 0), (0, 0)), ((2, 2), (0, 0))]


def test_no_wrap_round_the_row_end():
    # (0,2) over (0,3)? there is no (0,3): the spare column must not let a jump wrap to row 1
    board = board_of("o.o\n.oo\n...")
    for start, to in rules.legal_jumps(board):
        assert abs(start[0] - to[0]) in (0, 2) and abs(start[1] - to[1]) in (0, 2)
    assert ((1, 2), (1, 0)) in rules.legal_jumps(board)


def test_count_moves_merges_runs_by_one_peg():
    jumps = [((3, 1), (3, 3)), ((3, 3), (1, 3)), ((0, 2), (0, 4)), ((5, 3), (3, 3))]
    assert rules.count_moves(jumps) == 3


@pytest.mark.parametrize("text,message", [
    ("ooo\noxo\n...", "row 1, column 1 (line 2): unexpected character 'x'"),
    ("ooo\nooo", "no empty hole"),
    ("...\n...", "no peg"),
    ("1101\n110\n0111\n1111", "row 1 (line 2): ragged square board"),
    ("11\n1o", "row 1, column 1 (line 2): unexpected character 'o' in a 1/0 comesolo board"),
    ("jumps: hexagonal\nooo\n..o", "row 0, column 7 (line 1): unknown jump rule 'hexagonal'"),
    ("jumps: diagonal", "a 'jumps:' line but no board rows"),
    ("jumps: diagonal\noo.\nox.", "row 1, column 1 (line 3): unexpected character 'x'"),
    ("\n".join(["1" * 31] * 2 + ["0" * 31]), "31 columns, more than the 30 supported"),
    ("\n".join(["10"] * 31), "31 rows, more than the 30 supported"),
])
def test_bad_boards_name_the_place(text, message):
    with pytest.raises(BoardError) as info:
        board_of(text)
    assert message in str(info.value)
    assert str(info.value).startswith("test.txt")


def test_named_squares_and_limits():
    assert rules.named("nonsense") is None
    with pytest.raises(InputError, match="up to 30x30"):
        rules.named("31x31")
    assert named("4x6").hole_count == 24


def test_random_board_is_reproducible_and_has_density():
    a = generate.random_board(20, 20, 0.8, seed=7)
    assert a == generate.random_board(20, 20, 0.8, seed=7)
    assert a != generate.random_board(20, 20, 0.8, seed=8)
    assert 0.7 < a.peg_count / 400 < 0.9


def test_parse_cell_and_jump_text():
    assert rules.parse_cell("3,4") == (3, 4)
    with pytest.raises(InputError, match="expected ROW,COL"):
        rules.parse_cell("3")
    assert rules.parse_jump(rules.format_jump(((1, 2), (3, 4)))) == ((1, 2), (3, 4))
