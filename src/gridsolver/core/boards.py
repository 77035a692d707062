"""Reading text boards from a file, a string or standard input.

Every game writes its boards as rows of characters. A source (a file, a
string, stdin) may hold several boards separated by blank lines, as the data
sets do. This module splits a source into :class:`BoardText` blocks that
remember where they came from, so that a game's parser can raise a
:class:`~gridsolver.core.errors.BoardError` naming the file, the board, the
row and the column of the offending character.

Games differ in what a comment looks like (``#`` is a square in Hopping
Bunny but starts a comment in the Clickomania data files), so the comment
prefix is a parameter, not a rule.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gridsolver.core.errors import BoardError, InputError

STDIN = "-"


@dataclass(frozen=True)
class BoardText:
    """The rows of one board as written, and where they came from."""

    source: str
    rows: tuple[str, ...]
    first_line: int = 1
    index: int = 1
    count: int = 1

    @property
    def label(self) -> str:
        """A short name for results: the source, plus ``#k`` when it holds several boards."""
        return self.source if self.count == 1 else f"{self.source}#{self.index}"

    @property
    def text(self) -> str:
        return "\n".join(self.rows)

    def error(self, message: str, row: int | None = None, column: int | None = None) -> BoardError:
        """A BoardError for this board at ``row`` and ``column`` (counted from 0, as everywhere)."""
        return BoardError(
            self.source,
            message,
            board=self.index if self.count > 1 else None,
            row=row,
            column=column,
            line=None if row is None else self.first_line + row,
        )


def split_boards(text: str, source: str = "<string>", comment: str | None = None) -> list[BoardText]:
    """Split ``text`` into boards at blank lines.

    Lines starting with ``comment`` (when given) are dropped but still counted,
    so reported line numbers match the file. Trailing whitespace is kept: in
    some games a space is a cell ("no square") and rows may be ragged.
    """
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if comment is not None and line.startswith(comment):
            continue
        if line.strip() == "":
            if current:
                blocks.append((start, current))
                current = []
            continue
        if not current:
            start = number
        current.append(line)
    if current:
        blocks.append((start, current))
    if not blocks:
        raise InputError(f"{source}: no board found (the input is empty)")
    count = len(blocks)
    return [
        BoardText(source, tuple(rows), first_line=first, index=i, count=count)
        for i, (first, rows) in enumerate(blocks, start=1)
    ]


#: The most gridsolver reads from one file or from stdin (the largest shipped set is under 1 MB).
MAX_INPUT_BYTES = 16 * 2**20


def read_source(arg: str) -> tuple[str, str]:
    """Return ``(text, source name)`` for a file path or ``-`` (standard input).

    Reads at most :data:`MAX_INPUT_BYTES` (``/dev/zero`` or a runaway pipe is
    refused, not read for ever); every failure is an InputError naming the source.
    """
    if arg == STDIN:
        if sys.stdin is None:
            raise InputError("-: standard input is closed")
        stream = getattr(sys.stdin, "buffer", sys.stdin)  # bytes, or text when stdin was replaced
        try:
            data = stream.read(MAX_INPUT_BYTES + 1)
        except (OSError, ValueError) as exc:
            raise InputError(f"-: cannot read standard input ({exc})") from None
        return _decode(data, "<stdin>"), "<stdin>"
    name = _short_name(arg)
    try:
        path = Path(arg)
        if path.is_dir():
            raise InputError(f"{name}: is a directory, not a board file")
        with path.open("rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InputError(f"{name}: cannot read: {reason}") from None
    return _decode(data, name), str(arg)


def _decode(data: bytes | str, name: str) -> str:
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"{name}: more than {MAX_INPUT_BYTES // 2**20} MB, the most gridsolver reads "
                         "from one input")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not a text file (byte {exc.start} is not UTF-8)") from None


def _short_name(arg: str, limit: int = 80) -> str:
    """A file name for messages: names past ``limit`` characters are cut in the middle."""
    return arg if len(arg) <= limit else f"{arg[:40]}...{arg[-30:]} ({len(arg)} characters)"


#: ``SOURCE#k``: board k (from 1) of a source holding several, as results label it.
_PICK = re.compile(r"(.+)#([0-9]{1,9})", re.DOTALL)


def split_pick(name: str) -> tuple[str, int | None]:
    """``("standard-20", 3)`` for ``standard-20#3``; ``(name, None)`` when ``name`` picks no board."""
    match = _PICK.fullmatch(name)
    return (match.group(1), int(match.group(2))) if match else (name, None)


def pick_board(boards: list[BoardText], k: int, name: str) -> BoardText:
    """Board ``k`` (from 1) of a source's boards; an InputError naming the source and its size otherwise."""
    if not 1 <= k <= len(boards):
        base = split_pick(name)[0]
        held = "one board (#1)" if len(boards) == 1 else f"{len(boards)} boards (#1 to #{len(boards)})"
        raise InputError(f"{_short_name(name)}: no such board: {_short_name(base)} holds {held}")
    return boards[k - 1]


def load_boards(
    args: Iterable[str],
    *,
    comment: str | None = None,
    named: Callable[[str], str | None] | None = None,
) -> list[BoardText]:
    """Every board in every source named on a command line.

    An argument is a file path, ``-`` for stdin, or (when ``named`` is given
    and no such file exists) a name that ``named`` turns into board text,
    such as ``english`` for the English peg solitaire board. Any of them
    followed by ``#k`` (``standard-20#3``, ``boards.txt#2``) is board k of
    that source, counted from 1: the label results give that board.
    """
    boards: list[BoardText] = []
    for arg in args:
        base, k = split_pick(arg)
        if k is None or arg != STDIN and os.path.exists(arg):  # a file whose name ends in #k is that file
            boards.extend(_source_boards(arg, comment, named))
            continue
        if base != STDIN and not os.path.exists(base) and (named is None or named(base) is None):
            raise InputError(f"{_short_name(arg)}: no such file or shipped board")
        boards.append(pick_board(_source_boards(base, comment, named), k, arg))
    if not boards:
        raise InputError("no board given")
    return boards


def _source_boards(arg: str, comment: str | None,
                   named: Callable[[str], str | None] | None) -> list[BoardText]:
    """The boards of one file, ``-`` or shipped name."""
    if named is not None and arg != STDIN and not os.path.exists(arg):
        text = named(arg)
        if text is not None:
            return split_boards(text, arg, comment)
    text, source = read_source(arg)
    return split_boards(text, source, comment)


def parse_grid(
    board: BoardText,
    alphabet: Mapping[str, int],
    *,
    fill: int | None = None,
    max_rows: int | None = None,
    max_columns: int | None = None,
) -> np.ndarray:
    """Turn a board's rows into a 2-D ``int8`` array using ``alphabet``.

    Rows must all have the same width unless ``fill`` is given, in which case
    short rows are padded with that value (ragged boards). Any character not in
    the alphabet is reported with its row and column.
    """
    rows = board.rows
    if max_rows is not None and len(rows) > max_rows:
        raise board.error(f"{len(rows)} rows, more than the {max_rows} supported")
    width = max(len(r) for r in rows)
    if fill is None:
        for r, row in enumerate(rows):
            if len(row) != len(rows[0]):
                raise board.error(
                    f"row has {len(row)} cells but the first row has {len(rows[0])} "
                    "(all rows must have the same width)",
                    row=r,
                )
    if max_columns is not None and width > max_columns:
        raise board.error(f"{width} columns, more than the {max_columns} supported")
    grid = np.full((len(rows), width), -1 if fill is None else fill, dtype=np.int8)
    allowed = ", ".join(repr(c) for c in alphabet)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            value = alphabet.get(ch)
            if value is None:
                raise board.error(f"unexpected character {ch!r} (allowed: {allowed})", r, c)
            grid[r, c] = value
    return grid


def read_package_text(package: str, relative: str) -> str | None:
    """Text of a data file shipped inside a package, or None if there is none."""
    from importlib import resources

    try:
        return resources.files(package).joinpath(relative).read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, ModuleNotFoundError):
        return None


def check_sides(text: BoardText, max_side: int, what: str) -> None:
    """Refuse a board of more than ``max_side`` rows or columns before any cell is read.

    Only lengths are compared, so a 10 MB row is refused at once. ``what`` names the
    boards in the message ("pegs boards").
    """
    limit = f"{what} are at most {max_side}x{max_side}"
    if len(text.rows) > max_side:
        raise text.error(f"{len(text.rows):,} rows, more than the {max_side} supported ({limit})")
    for r, row in enumerate(text.rows):
        if len(row) > max_side:
            raise text.error(f"{len(row):,} columns, more than the {max_side} supported ({limit})", r)
