"""Peg solitaire rules: boards, jumps, parsing and printing (plain Python).

A board is a set of holes on a grid, some holding pegs. A jump moves a peg
over an adjacent peg, in a straight line, into the empty hole just beyond;
the jumped peg is removed. Which straight lines count is part of the rules:
``orthogonal`` (4 directions, the classic game), ``diagonal`` (8 directions,
the comesolo problem) or ``triangular`` (6 directions on a triangular lattice
drawn as a staircase: row ``r`` is sheared so the lattice directions are
``(0, ±1)``, ``(±1, 0)`` and ``±(1, 1)``).

Positions are bitboards: bit ``r * stride + c`` with ``stride = cols + 1``.
The spare column keeps a distance-two jump from wrapping round a row end, so
the numba kernels can find every jump of a direction with word shifts; the
Python reference uses the same bit numbering, so positions compare directly.

Text: ``o`` a peg, ``.`` an empty hole, space or ``-`` no hole; square
comesolo boards may use ``1`` (peg) and ``0`` (empty) instead (and ``-``
for no hole). An optional first line ``jumps: orthogonal|diagonal|triangular``
gives the jump rule; without it a ``1``/``0`` board jumps diagonally too and
any other board orthogonally. :func:`format_board` always writes that line,
so a board printed and read back keeps its rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from gridsolver.core.boards import BoardText, check_sides, read_package_text
from gridsolver.core.errors import InputError
from gridsolver.core.errors import shown as shown  # re-exported: the game modules quote values with it

Cell = tuple[int, int]
Jump = tuple[Cell, Cell]  # from (row, col) -> to (row, col)

#: The most rows and columns of any board (classic or comesolo): 30 x 30 = 900 holes is the comesolo
#: maximum. The kernels take any number of 64-bit words per position; the searches' per-depth arrays
#: grow with holes x pegs x directions, about 100 MB at 900 holes, so this is where they still fit.
MAX_SIDE = 30
ORTHOGONAL: tuple[Cell, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: tuple[Cell, ...] = ORTHOGONAL + ((1, 1), (1, -1), (-1, 1), (-1, -1))
TRIANGULAR: tuple[Cell, ...] = ((0, 1), (1, 0), (1, 1), (0, -1), (-1, 0), (-1, -1))
JUMP_RULES: dict[str, tuple[Cell, ...]] = {
    "orthogonal": ORTHOGONAL, "diagonal": DIAGONAL, "triangular": TRIANGULAR,
}

#: what a solve looks for, and how (the ``objective`` and ``strategy`` options)
OBJECTIVES = ("jumps", "finish", "moves")
STRATEGIES = ("default", "published")

PEG, EMPTY, NONE = "o", ".", "-"
CLASSIC_CHARS = {"o": 1, ".": 0, " ": -1, "-": -1}
COMESOLO_CHARS = {"1": 1, "0": 0, "-": -1}
COMESOLO_MARKS = ("1", "0")  # a board using either is written in the 1/0 style
HEADER = "jumps:"  # the optional first line: ``jumps: orthogonal|diagonal|triangular``

# name -> data file (the file's ``jumps:`` line gives the rule)
NAMED_BOARDS: dict[str, str] = {
    "english": "english.txt",
    "european": "european.txt",
    "french": "european.txt",
    "wiegleb": "wiegleb.txt",
    "diamond": "diamond.txt",
    "triangle": "triangle.txt",
}
SQUARE_NAME = re.compile(r"^([0-9]{1,9})x([0-9]{1,9})$")


@dataclass(frozen=True)
class Board:
    """A peg solitaire position: the holes, the pegs in them and the jump rule."""

    rows: int
    cols: int
    holes: int  # bitboard of holes
    pegs: int  # bitboard of pegs (a subset of holes)
    jumps: str = "orthogonal"
    comesolo: bool = False  # written with 1/0 (printing keeps the style)

    @property
    def stride(self) -> int:
        return self.cols + 1

    @property
    def bits(self) -> int:
        """Bits a position needs (the kernels round this up to 64-bit words)."""
        return self.rows * self.stride

    @property
    def directions(self) -> tuple[Cell, ...]:
        return JUMP_RULES[self.jumps]

    def index(self, cell: Cell) -> int:
        return cell[0] * self.stride + cell[1]

    def cell(self, index: int) -> Cell:
        return divmod(index, self.stride)

    def is_hole(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < self.rows and 0 <= c < self.cols and bool(self.holes >> self.index(cell) & 1)

    def has_peg(self, cell: Cell) -> bool:
        return self.is_hole(cell) and bool(self.pegs >> self.index(cell) & 1)

    @property
    def peg_count(self) -> int:
        return self.pegs.bit_count()

    @property
    def hole_count(self) -> int:
        return self.holes.bit_count()

    def hole_cells(self) -> list[Cell]:
        return [self.cell(i) for i in bit_indices(self.holes)]

    def peg_cells(self) -> list[Cell]:
        return [self.cell(i) for i in bit_indices(self.pegs)]

    def with_pegs(self, pegs: int) -> Board:
        return Board(self.rows, self.cols, self.holes, pegs, self.jumps, self.comesolo)

    def with_jumps(self, jumps: str) -> Board:
        if jumps not in JUMP_RULES:
            raise InputError(f"unknown jump rule {jumps!r} (expected one of {', '.join(JUMP_RULES)})")
        return Board(self.rows, self.cols, self.holes, self.pegs, jumps, self.comesolo)


def bit_indices(mask: int) -> Iterable[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# -- jumps ----------------------------------------------------------------------

def triples(board: Board) -> list[tuple[int, int, int]]:
    """Every (from, over, to) bit-index triple of holes a jump can use, by cell then direction."""
    out = []
    for r, c in board.hole_cells():
        for dr, dc in board.directions:
            over, to = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            if board.is_hole(over) and board.is_hole(to):
                out.append((board.index((r, c)), board.index(over), board.index(to)))
    return out


def jump_over(jump: Jump) -> Cell:
    (r0, c0), (r1, c1) = jump
    return ((r0 + r1) // 2, (c0 + c1) // 2)


def check_jump(board: Board, jump: Jump) -> str | None:
    """Why ``jump`` is illegal on ``board``, or None when it is legal."""
    (r0, c0), (r1, c1) = jump
    dr, dc = r1 - r0, c1 - c0
    if dr % 2 or dc % 2 or (dr // 2, dc // 2) not in board.directions:
        article = "an" if board.jumps[0] in "aeiou" else "a"
        return f"{jump[0]} -> {jump[1]} is not {article} {board.jumps} jump of length two"
    over = jump_over(jump)
    if not board.has_peg(jump[0]):
        return f"no peg at {jump[0]}"
    if not board.has_peg(over):
        return f"no peg to jump over at {over}"
    if not board.is_hole(jump[1]):
        return f"{jump[1]} is not a hole"
    if board.has_peg(jump[1]):
        return f"the hole {jump[1]} is not empty"
    return None


def legal_jumps(board: Board) -> list[Jump]:
    """Every legal jump, ordered by the from-cell then the direction."""
    out = []
    for a, b, c in triples(board):
        if board.pegs >> a & 1 and board.pegs >> b & 1 and not board.pegs >> c & 1:
            out.append((board.cell(a), board.cell(c)))
    return out


def apply(board: Board, jump: Jump) -> Board:
    """The board after ``jump``; raises InputError when the jump is illegal."""
    problem = check_jump(board, jump)
    if problem is not None:
        raise InputError(f"illegal jump {format_jump(jump)}: {problem}")
    flip = (1 << board.index(jump[0])) | (1 << board.index(jump_over(jump))) | (1 << board.index(jump[1]))
    return board.with_pegs(board.pegs ^ flip)


def replay(board: Board, jumps: Sequence[Jump]) -> Board:
    """Apply every jump in order under the rules (raises on the first illegal one)."""
    for jump in jumps:
        board = apply(board, jump)
    return board


def count_moves(jumps: Sequence[Jump]) -> int:
    """Moves in a jump sequence: a move is a run of consecutive jumps by the same peg."""
    moves, last_to = 0, None
    for start, to in jumps:
        if start != last_to:
            moves += 1
        last_to = to
    return moves


# -- text -------------------------------------------------------------------------

def parse(text: BoardText) -> Board:
    """Read a board; errors name the source, row and column of the offending character.

    An optional first line ``jumps: RULE`` sets the jump rule; without it the
    rule is diagonal for ``1``/``0`` boards and orthogonal otherwise.
    """
    rule, text = read_header(text)
    check_size(text)
    rows = text.rows
    comesolo = any(ch in COMESOLO_MARKS for row in rows for ch in row)
    alphabet = COMESOLO_CHARS if comesolo else CLASSIC_CHARS
    width = max(len(row) for row in rows)
    if comesolo:
        for r, row in enumerate(rows):
            if len(row) != len(rows[0]):
                raise text.error(f"ragged square board: row has {len(row)} cells but the first row has "
                                 f"{len(rows[0])}", row=r)
    allowed = ", ".join(repr(ch) for ch in alphabet)
    board = Board(len(rows), width, 0, 0)
    holes = pegs = 0
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            value = alphabet.get(ch)
            if value is None:
                style = "a 1/0 comesolo board" if comesolo else "a board"
                raise text.error(f"unexpected character {ch!r} in {style} (allowed: {allowed})", r, c)
            if value >= 0:
                holes |= 1 << board.index((r, c))
            if value == 1:
                pegs |= 1 << board.index((r, c))
    if holes == pegs:
        raise text.error("no empty hole: no jump is possible")
    if pegs == 0:
        raise text.error("no peg on the board")
    return Board(len(rows), width, holes, pegs, rule or default_jumps(comesolo), comesolo)


def check_size(text: BoardText) -> None:
    """Refuse a board of more than :data:`MAX_SIDE` rows or columns before reading any cell."""
    check_sides(text, MAX_SIDE, "pegs boards")




def read_header(text: BoardText) -> tuple[str | None, BoardText]:
    """The rule of a ``jumps: RULE`` first line (None without one), and the rows after it.

    Rows keep their line numbers in errors: the rows after the header are
    counted from 1 again, and their lines from the line after the header.
    """
    first = text.rows[0]
    if not first.strip().lower().startswith(HEADER):
        return None, text
    rule = first.strip()[len(HEADER):].strip().lower()
    if rule not in JUMP_RULES:
        start = first.lower().index(HEADER) + len(HEADER)
        column = start + len(first[start:]) - len(first[start:].lstrip())
        raise text.error(f"unknown jump rule {shown(rule)} (expected jumps: {' | '.join(JUMP_RULES)})", 0,
                         column)
    if len(text.rows) == 1:
        raise text.error("a 'jumps:' line but no board rows after it", 0)
    return rule, replace(text, rows=text.rows[1:], first_line=text.first_line + 1)


def default_jumps(comesolo: bool) -> str:
    """The rule of a board without a ``jumps:`` line: diagonal for 1/0 boards, else orthogonal."""
    return "diagonal" if comesolo else "orthogonal"


def format_grid(board: Board) -> str:
    """The rows of the board alone (no ``jumps:`` line), in the board's style."""
    peg, empty, none = ("1", "0", "-") if board.comesolo else (PEG, EMPTY, NONE)
    lines = []
    for r in range(board.rows):
        line = []
        for c in range(board.cols):
            if not board.is_hole((r, c)):
                line.append(none)
            else:
                line.append(peg if board.has_peg((r, c)) else empty)
        lines.append("".join(line))
    return "\n".join(lines)


def format_board(board: Board) -> str:
    """The board as text that :func:`parse` reads back to an equal board, its jump rule included."""
    return f"{HEADER} {board.jumps}\n{format_grid(board)}"


def named(name: str) -> str | None:
    """Text of a named board: english, european, wiegleb, diamond, triangle, or NxN squares.

    ``NxN`` (for example ``6x6``) is a rectangle of holes full of pegs with one
    empty hole at ``((rows - 1) // 2, (cols - 1) // 2)``: the centre of an odd
    board, the centre's upper-left neighbour on an even one.
    """
    key = name.lower()
    if key in NAMED_BOARDS:
        text = read_package_text("gridsolver.pegs", "data/" + NAMED_BOARDS[key])
        if text is None:  # pragma: no cover - a broken install
            raise InputError(f"the shipped board {key} is missing from this installation")
        return text
    match = SQUARE_NAME.match(key)
    if match:
        rows, cols = int(match.group(1)), int(match.group(2))
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE) or rows * cols < 2:
            raise InputError(f"{name}: square boards go from 1x2 up to {MAX_SIDE}x{MAX_SIDE} "
                             f"(pegs boards are at most {MAX_SIDE}x{MAX_SIDE})")
        grid = [["o"] * cols for _ in range(rows)]
        grid[(rows - 1) // 2][(cols - 1) // 2] = "."
        return "\n".join("".join(row) for row in grid) + "\n"
    return None


# At most 9 ASCII digits: any cell of a board fits, and int() never meets a number it refuses.
WHOLE = re.compile(r"-?[0-9]{1,9}")


def parse_cell(text: str, what: str = "--finish") -> Cell:
    """``ROW,COL`` (0-based; ``(ROW,COL)`` too) as a cell; InputError naming the value otherwise."""
    parts = text.replace(" ", "").removeprefix("(").removesuffix(")").split(",")
    if len(parts) != 2 or not all(WHOLE.fullmatch(p) for p in parts):
        raise InputError(f"{what} {shown(text)}: expected ROW,COL (0-based), e.g. 3,3")
    return int(parts[0]), int(parts[1])


def format_jump(jump: Jump) -> str:
    (r0, c0), (r1, c1) = jump
    return f"({r0},{c0})->({r1},{c1})"


_NUMBER = r"\s*([0-9]{1,9})\s*"
JUMP_TEXT = re.compile(rf"\({_NUMBER},{_NUMBER}\)\s*->\s*\({_NUMBER},{_NUMBER}\)")


def parse_jump(text: str) -> Jump:
    """Read ``(r,c)->(r,c)`` as printed by :func:`format_jump`."""
    match = JUMP_TEXT.fullmatch(text.strip())
    if not match:
        raise InputError(f"jump {shown(text)}: expected (ROW,COL)->(ROW,COL)")
    r0, c0, r1, c1 = (int(g) for g in match.groups())
    return (r0, c0), (r1, c1)
