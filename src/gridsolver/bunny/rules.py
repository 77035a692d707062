"""Hopping Bunny rules: the board, moves, and a step-by-step simulator.

A board is a set of grid squares; the bunny starts on ``S`` facing east.
Programs (see :mod:`gridsolver.bunny.notation`) are tuples of tokens: the
strings ``"F"``, ``"L"``, ``"R"`` and :class:`Loop` nodes. The simulator here
is the reference every reported program is checked against; the search
kernels never decide on their own that a program works.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from gridsolver.core.boards import BoardText
from gridsolver.core.errors import shown as shown  # re-exported: the game modules quote values with it
from gridsolver.core.words import cell

#: Directions in clockwise order; a right turn adds one. The bunny starts facing east.
EAST, SOUTH, WEST, NORTH = range(4)
DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))
START_DIRECTION = EAST

START, UNMARKED, MARKED, EMPTY = "S", "#", "O", "."
ALPHABET = (START, UNMARKED, MARKED, EMPTY, " ")

#: The most squares a board may have. The exact search stores, per library fragment, an end state
#: and a visited bitset for each of the 4 x n states: 4n (4 + 8 ceil(n / 64)) bytes, 8 MB at 4,000
#: squares, so even its smallest library (8 fragments, 65 MB) fits a modest --memory; the kernels
#: read the clock every few ms of work (search.clock_interval), so --time holds at this size too.
MAX_SQUARES = 4000
#: The most cells a board may span, rows x longest row, gaps included: pictures and ``show`` frames
#: draw every cell. Four per square allows boards a quarter full, as sparse as random boards get.
MAX_CELLS = 4 * MAX_SQUARES


@dataclass(frozen=True)
class Loop:
    """``LOOP(count){body}``; ``count`` None is the unbounded ``LOOP{body}``."""

    count: int | None
    body: tuple = ()


Token = str | Loop
Program = tuple  # tuple[Token, ...]


@dataclass(frozen=True)
class Board:
    """The squares of a board (row, column), which are marked from the start, and the start."""

    squares: tuple[tuple[int, int], ...]
    premarked: frozenset[int]
    start: int
    rows: int
    columns: int = field(compare=False)  # the widest row as written; trailing spaces do not matter
    name: str = field(default="", compare=False)
    direction: int = START_DIRECTION  # where the bunny faces (east on every challenge board)
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._index.update({rc: i for i, rc in enumerate(self.squares)})

    @property
    def size(self) -> int:
        return len(self.squares)

    def index(self, row: int, column: int) -> int | None:
        """The square number at (row, column), or None when there is no square."""
        return self._index.get((row, column))

    def neighbour(self, square: int, direction: int) -> int:
        """The square a hop lands on; the same square when the hop is blocked."""
        row, column = self.squares[square]
        dr, dc = DELTAS[direction]
        target = self.index(row + dr, column + dc)
        return square if target is None else target

    def targets(self) -> frozenset[int]:
        """Squares that still have to be marked."""
        return frozenset(range(self.size)) - self.premarked

    def reachable(self) -> frozenset[int]:
        """Squares the bunny can ever stand on (its connected component)."""
        seen = {self.start}
        todo = [self.start]
        while todo:
            square = todo.pop()
            for direction in range(4):
                nxt = self.neighbour(square, direction)
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return frozenset(seen)

    def unreachable(self) -> list[tuple[int, int]]:
        """(row, column) of unmarked squares no program can reach, in reading order."""
        reach = self.reachable()
        return sorted(self.squares[s] for s in self.targets() - reach)


FACING = "facing:"
DIRECTION_NAMES = ("east", "south", "west", "north")


def parse_board(board: BoardText) -> Board:
    """Read a board; raise ``board.error`` naming row and column on bad input.

    An optional first line ``facing: south`` (east, south, west or north) says
    where the bunny faces at the start; without it, east, as the rules say.
    """
    squares: list[tuple[int, int]] = []
    premarked: set[int] = set()
    start: int | None = None
    direction = START_DIRECTION
    rows = board.rows
    if rows and rows[0].strip().lower().startswith(FACING):
        word = rows[0].strip()[len(FACING):].strip().lower()
        if word not in DIRECTION_NAMES:
            raise board.error(f"facing {shown(word)}: expected one of {', '.join(DIRECTION_NAMES)}", 0)
        direction = DIRECTION_NAMES.index(word)
        board = BoardText(board.source, rows[1:], board.first_line + 1, board.index, board.count)
        if not board.rows:
            raise board.error("no board after the 'facing:' line")
    check_size(board)
    for r, row in enumerate(board.rows):
        for c, ch in enumerate(row):
            if ch in (EMPTY, " "):
                continue
            if ch not in (START, UNMARKED, MARKED):
                raise board.error(f"unexpected character {ch!r} (allowed: 'S', '#', 'O', '.', ' ')", r, c)
            if ch == START:
                if start is not None:
                    first = squares[start]
                    raise board.error(f"a second start 'S' (the first is at {cell(*first)})", r, c)
                start = len(squares)
            if ch in (START, MARKED):
                premarked.add(len(squares))
            squares.append((r, c))
    if start is None:
        raise board.error("no start square 'S'")
    columns = max((len(row) for row in board.rows), default=0)
    return Board(tuple(squares), frozenset(premarked), start, len(board.rows), columns, board.label,
                 direction)


def check_size(board: BoardText) -> None:
    """Refuse a board past :data:`MAX_CELLS` or :data:`MAX_SQUARES` before anything is built from it.

    Only string lengths and counts are taken, so a 10 MB row is refused at once.
    """
    rows = board.rows
    if len(rows) > MAX_CELLS:
        raise board.error(f"board has {len(rows):,} rows; bunny boards span at most {MAX_CELLS:,} cells "
                          "(rows x longest row)")
    for r, row in enumerate(rows):
        if len(row) > MAX_CELLS:
            raise board.error(f"a row of {len(row):,} characters; bunny boards span at most "
                              f"{MAX_CELLS:,} cells (rows x longest row)", r)
    width = max((len(row) for row in rows), default=0)
    squares = sum(row.count(START) + row.count(UNMARKED) + row.count(MARKED) for row in rows)
    if squares > MAX_SQUARES:
        raise board.error(f"board is {len(rows)}x{width} ({squares:,} squares); bunny boards have at most "
                          f"{MAX_SQUARES:,} squares")
    if len(rows) * width > MAX_CELLS:
        raise board.error(f"board is {len(rows)}x{width} ({len(rows) * width:,} cells, gaps included); "
                          f"bunny boards span at most {MAX_CELLS:,} cells (rows x longest row)")


def board_from_text(text: str, name: str = "<string>") -> Board:
    from gridsolver.core.boards import split_boards

    return parse_board(split_boards(text, name, comment=None)[0])


def format_board(board: Board, labels: dict[int, str] | None = None) -> str:
    """The board as text (``parse_board`` reads it back to an equal board); ``labels`` overrides squares.

    A row without squares is written ``.`` (a blank line would end the board).
    """
    grid = [[" "] * board.columns for _ in range(board.rows)]
    for i, (r, c) in enumerate(board.squares):
        ch = START if i == board.start else MARKED if i in board.premarked else UNMARKED
        grid[r][c] = labels.get(i, ch) if labels else ch
    lines = ["".join(row).rstrip() or EMPTY for row in grid]
    if board.direction != START_DIRECTION:
        lines.insert(0, f"{FACING} {DIRECTION_NAMES[board.direction]}")
    return "\n".join(lines)


def facing_east(board: Board) -> Board:
    """The same puzzle turned so the bunny faces east (programs are relative, so their answers agree).

    A quarter turn counter-clockwise maps (row, column) to (columns - 1 - column, row)
    and a heading one step anticlockwise: south becomes east.
    """
    while board.direction != START_DIRECTION:
        squares = [(board.columns - 1 - c, r) for r, c in board.squares]
        order = sorted(range(len(squares)), key=squares.__getitem__)
        new_index = {old: new for new, old in enumerate(order)}
        premarked = frozenset(new_index[q] for q in board.premarked)
        board = Board(tuple(squares[i] for i in order), premarked, new_index[board.start], board.columns,
                      board.rows, board.name, (board.direction + 3) % 4)
    return board


# -- tokens -------------------------------------------------------------------
def token_count(program: Iterable[Token]) -> int:
    """Tiles used: one per F, L, R and LOOP, plus the tokens of loop bodies."""
    return sum(1 + token_count(t.body) if isinstance(t, Loop) else 1 for t in program)


def finite_form(program: Iterable[Token], count: int) -> Program:
    """The program with every unbounded loop given ``count``."""
    return tuple(Loop(count if t.count is None else t.count, finite_form(t.body, count))
                 if isinstance(t, Loop) else t for t in program)


# -- simulation ---------------------------------------------------------------
@dataclass
class Run:
    """The outcome of simulating a program on a board."""

    solved: bool
    steps: int  # F, L and R tokens executed
    order: list[int]  # squares in the order they were first marked by the bunny
    unmarked: list[int]  # squares never marked
    endless: bool = False  # an unbounded loop that can never complete the board


class _Done(Exception):
    pass


class Simulator:
    """Executes a program token by token, stopping as soon as every square is marked.

    A loop whose iterations return to a (position, direction) already seen
    without marking anything new is periodic from then on, so the remaining
    iterations are skipped in whole cycles (an unbounded one is endless):
    huge counts never hang.

    With ``remember``, a loop that starts again from a (position, direction)
    with as many squares marked as an earlier run of it that marked nothing
    (marks only grow, so the same count is the same squares) runs the same
    way again: its end and its steps are taken from that run. Without it,
    loops nested with small counts (``LOOP(3){LOOP(3){...}}``, a hundred
    deep) would take 3^100 iterations.
    """

    def __init__(self, board: Board, remember: bool = True) -> None:
        self.board = board
        self.marked = set(board.premarked) | {board.start}
        self.order: list[int] = []
        self.square = board.start
        self.direction = board.direction
        self.steps = 0
        self.endless = False
        self.total = board.size
        # (loop, square, direction, marks) -> (square, direction, steps) of a run that marked nothing
        self.remembered: dict[tuple[int, int, int, int], tuple[int, int, int]] | None = (
            {} if remember else None)

    def run(self, program: Program) -> Run:
        try:
            if len(self.marked) < self.total:
                self._block(program)
        except _Done:
            pass
        solved = len(self.marked) == self.total
        unmarked = sorted(set(range(self.total)) - self.marked)
        return Run(solved, self.steps, self.order, unmarked, self.endless and not solved)

    def _block(self, tokens: Program) -> None:
        for token in tokens:
            if isinstance(token, Loop):
                self._loop(token)
                if self.endless:
                    return
            else:
                self._step(token)

    def _step(self, token: str) -> None:
        self.steps += 1
        if token == "F":
            self.square = self.board.neighbour(self.square, self.direction)
            if self.square not in self.marked:
                self.marked.add(self.square)
                self.order.append(self.square)
                if len(self.marked) == self.total:
                    raise _Done
        elif token == "L":
            self.direction = (self.direction + 3) % 4
        elif token == "R":
            self.direction = (self.direction + 1) % 4
        else:
            raise ValueError(f"unknown token {token!r}")

    def _loop(self, loop: Loop) -> None:
        if self.remembered is None:
            self._iterate(loop)
            return
        key = (id(loop), self.square, self.direction, len(self.marked))
        known = self.remembered.get(key)
        if known is not None:
            self.square, self.direction, steps = known
            self.steps += steps
            return
        before = self.steps
        self._iterate(loop)
        if not self.endless and len(self.marked) == key[3]:
            self.remembered[key] = (self.square, self.direction, self.steps - before)

    def _iterate(self, loop: Loop) -> None:
        seen: dict[tuple[int, int], tuple[int, int]] = {}  # state -> (iteration, steps)
        marks = len(self.marked)
        done = 0
        while loop.count is None or done < loop.count:
            state = (self.square, self.direction)
            if len(self.marked) != marks:
                seen.clear()
                marks = len(self.marked)
            if state in seen:
                # Nothing new since the same state: the iterations repeat forever.
                if loop.count is None:
                    self.endless = True
                    return
                first, steps = seen[state]
                cycle = done - first
                skip = (loop.count - done) // cycle
                self.steps += skip * (self.steps - steps)
                done += skip * cycle
                seen.clear()
                if done >= loop.count:
                    return
            seen[state] = (done, self.steps)
            self._block(loop.body)
            if self.endless:
                return
            done += 1


def simulate(board: Board, program: Program) -> Run:
    """Run ``program`` on ``board`` from the start (east), stopping once every square is marked."""
    return Simulator(board).run(program)


def flatten(program: Program, unbounded: int = 0) -> list[str]:
    """The F/L/R tokens a bounded program executes, in order (unbounded loops run ``unbounded`` times)."""
    out: list[str] = []
    for token in program:
        if isinstance(token, Loop):
            body = flatten(token.body, unbounded)
            out.extend(body * (unbounded if token.count is None else token.count))
        else:
            out.append(token)
    return out
