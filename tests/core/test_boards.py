import io

import numpy as np
import pytest

from gridsolver.core.boards import load_boards, parse_grid, split_boards
from gridsolver.core.errors import BoardError, InputError

DIGITS = {str(d): d for d in range(5)} | {".": -1}


def test_split_keeps_file_line_numbers_and_skips_comments():
    text = "# header\n# more\n\n012\n340\n\n\n111\n222\n"
    boards = split_boards(text, "f.txt", comment="#")
    assert [b.rows for b in boards] == [("012", "340"), ("111", "222")]
    assert [b.first_line for b in boards] == [4, 8]
    assert [b.label for b in boards] == ["f.txt#1", "f.txt#2"]


def test_single_board_label_is_the_source():
    (board,) = split_boards("S##\n", "one.txt")
    assert board.label == "one.txt"


def test_bad_character_names_source_board_row_column_and_line():
    boards = split_boards("# c\n012\n340\n\n111\n2x2\n", "duel.txt", comment="#")
    parse_grid(boards[0], DIGITS)
    with pytest.raises(BoardError) as info:
        parse_grid(boards[1], DIGITS)
    err = info.value
    assert (err.board, err.row, err.column, err.line) == (2, 1, 1, 6)
    assert str(err).startswith("duel.txt#2, row 1, column 1 (line 6): unexpected character 'x'")


def test_ragged_rows_rejected_unless_filled():
    (board,) = split_boards("012\n01\n", "r.txt")
    with pytest.raises(BoardError, match="row 1.*2 cells but the first row has 3"):
        parse_grid(board, DIGITS)
    grid = parse_grid(board, DIGITS, fill=-1)
    assert grid.tolist() == [[0, 1, 2], [0, 1, -1]]
    assert grid.dtype == np.int8


def test_size_limits():
    (board,) = split_boards("0000\n0000\n", "big.txt")
    with pytest.raises(BoardError, match="4 columns, more than the 3 supported"):
        parse_grid(board, DIGITS, max_columns=3)
    with pytest.raises(BoardError, match="2 rows, more than the 1 supported"):
        parse_grid(board, DIGITS, max_rows=1)


def test_empty_input_is_an_error():
    with pytest.raises(InputError, match="e.txt: no board found"):
        split_boards("\n\n# only a comment\n", "e.txt", comment="#")


def test_load_boards_from_file_stdin_and_names(tmp_path, monkeypatch):
    path = tmp_path / "b.txt"
    path.write_text("01\n10\n\n11\n00\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("22\n"))
    boards = load_boards([str(path), "-", "tiny"], named={"tiny": "33\n"}.get)
    assert [b.label for b in boards] == [f"{path}#1", f"{path}#2", "<stdin>", "tiny"]
    with pytest.raises(InputError, match="nope.txt: no such file"):
        load_boards(["nope.txt"], named={"tiny": "33\n"}.get)
    with pytest.raises(InputError, match="is a directory"):
        load_boards([str(tmp_path)])


def test_read_source_refuses_what_it_cannot_or_should_not_read(tmp_path, monkeypatch):
    import io

    from gridsolver.core import boards as B

    monkeypatch.setattr(B, "MAX_INPUT_BYTES", 100)
    big = tmp_path / "big.txt"
    big.write_text("o" * 101)
    with pytest.raises(InputError, match=r"big.txt: more than 0 MB, the most gridsolver reads"):
        B.read_source(str(big))
    with pytest.raises(InputError, match=r"\(5000 characters\): cannot read: File name too long"):
        B.read_source("a" * 5000)
    with pytest.raises(InputError, match="is a directory"):
        B.read_source(str(tmp_path))
    with pytest.raises(InputError, match="cannot read"):
        B.read_source("nul\0byte")
    monkeypatch.setattr(B.sys, "stdin", None)
    with pytest.raises(InputError, match="standard input is closed"):
        B.read_source("-")
    monkeypatch.setattr(B.sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe")))
    with pytest.raises(InputError, match=r"<stdin>: not a text file \(byte 0 is not UTF-8\)"):
        B.read_source("-")


def test_a_board_of_a_source_by_its_label(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("01\n10\n\n11\n00\n\n22\n22\n")
    named = {"tiny": "33\n", "pair": "44\n\n55\n"}.get
    (second,) = load_boards([f"{path}#2"], named=named)
    assert second.rows == ("11", "00") and second.label == f"{path}#2"  # the label results print
    (first,) = load_boards(["pair#1"], named=named)
    assert first.rows == ("44",) and first.label == "pair#1"
    assert load_boards(["tiny#1"], named=named)[0].label == "tiny"  # a source of one board
    with pytest.raises(InputError, match=r"b.txt#4: no such board: .*b.txt holds 3 boards \(#1 to #3\)"):
        load_boards([f"{path}#4"])
    with pytest.raises(InputError, match=r"pair#0: no such board: pair holds 2 boards \(#1 to #2\)"):
        load_boards(["pair#0"], named=named)
    with pytest.raises(InputError, match=r"tiny#2: no such board: tiny holds one board \(#1\)"):
        load_boards(["tiny#2"], named=named)
    with pytest.raises(InputError, match=r"nope#2: no such file or shipped board"):
        load_boards(["nope#2"], named=named)
    hashed = tmp_path / "odd#2"  # a file whose name ends in #k is that file
    hashed.write_text("77\n")
    assert load_boards([str(hashed)])[0].rows == ("77",)


def test_board_errors_name_the_board_by_its_label_and_count_cells_from_0():
    boards = split_boards("012\n340\n\n111\n2x2\n", "duel.txt")
    with pytest.raises(BoardError) as info:
        parse_grid(boards[1], DIGITS)
    assert str(info.value).startswith("duel.txt#2, row 1, column 1 (line 5): unexpected character 'x'")
