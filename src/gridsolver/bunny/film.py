"""Pictures of a program's run: the replay frame by frame (for ``gridsolver bunny show``) and the
marking-order picture (``--show`` of ``solve`` and ``run``: :func:`marking_order`).

The program runs in :class:`~gridsolver.bunny.rules.Simulator` itself, the
reference every reported program is checked against: :class:`_Trace` only
overrides its one-token step to note where the bunny is after each executed
``F``, ``L`` or ``R`` and which token of the written program that was, so the
film stops where the rules stop (every square marked, the end of the
program, or an unbounded loop that can no longer mark anything) and skips the
same whole cycles of a loop that marks nothing new.

Frame 0 is the start, then one frame per executed token, and one more
when the run ends inside skipped cycles (the rules' step count). A run of more than
:data:`MAX_STEPS` executed tokens is sampled evenly (first and last kept).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gridsolver.bunny.notation import format_program
from gridsolver.bunny.rules import DIRECTION_NAMES, Board, Loop, Program, Simulator, format_board, token_count
from gridsolver.core.errors import InputError
from gridsolver.core.film import Film, Frame
from gridsolver.core.words import plural

#: Most executed tokens shown one frame each; longer runs are sampled evenly.
MAX_STEPS = 5_000
#: Most tokens a filmed run executes one by one (cycles the rules skip do not count). A film shows
#: every token, so it cannot take shortcuts through repeated loop runs as ``run`` and ``check`` do;
#: past this, ``show`` refuses the program rather than work for minutes.
MAX_EXECUTED = 2_000_000

NOT_MARKED, MARKED_AT_START, MARKED, NO_SQUARE = "#", "O", "x", " "
PALETTE = {NOT_MARKED: "#d9d9d9", MARKED_AT_START: "#a6dba0", MARKED: "#1b9e77", NO_SQUARE: ""}
LEGEND = {NOT_MARKED: "not marked yet", MARKED_AT_START: "marked from the start (the start square and O)",
          MARKED: "marked by the bunny"}


class _At(str):
    """An ``F``, ``L`` or ``R`` token that knows its place in the written program (the film's panel)."""

    place: int

    def __new__(cls, token: str, place: int) -> _At:
        at = super().__new__(cls, token)
        at.place = place
        return at


def panel(program: Program) -> tuple[list[str], Program]:
    """The program's tokens as written (``LOOP(3){``, ``F``, ``}`` ...) and the program with placed tokens."""
    words: list[str] = []

    def place(tokens: Iterable[Any]) -> Program:
        out: list[Any] = []
        for token in tokens:
            if isinstance(token, Loop):
                words.append("LOOP{" if token.count is None else f"LOOP({token.count}){{")
                body = place(token.body)
                words.append("}")
                out.append(Loop(token.count, body))
            else:
                out.append(_At(token, len(words)))
                words.append(token)
        return tuple(out)

    placed = place(program)
    return words, placed


@dataclass
class Step:
    """The bunny after one executed token."""

    executed: int  # tokens executed so far, this one included (cycles skipped by the rules not counted)
    steps: int  # the rules' step count after this token (skipped cycles counted)
    token: str
    index: int  # the token's place in the panel
    square: int
    direction: int
    moved: bool
    new: bool  # this hop marked a square
    marked: int  # squares marked after it
    skipped: int  # steps the rules skipped (whole cycles marking nothing) since the frame before
    grid: str


class _Trace(Simulator):
    """The rules' simulator, noting the executed tokens ``keep`` says to keep (all when None)."""

    def __init__(self, board: Board, cells: list[str], keep: Callable[[int], bool] | None = None) -> None:
        super().__init__(board, remember=False)  # every executed token is a frame: no shortcuts
        self.cells = cells
        self.keep = keep
        self.executed = 0
        self.taken: list[Step] = []
        self.last_steps = 0  # the step count after the last executed token
        self.skipped = 0

    def _step(self, token: str) -> None:
        if self.executed >= MAX_EXECUTED:
            raise InputError(f"show: the program executes more than {MAX_EXECUTED:,} tokens one by one "
                             "(loops repeat without a cycle to skip); run or check it instead")
        self.skipped += self.steps - self.last_steps
        square, marks = self.square, len(self.marked)
        try:
            super()._step(token)
        finally:  # the rules raise when the last square gets marked
            self.executed += 1
            self.last_steps = self.steps
            new = len(self.marked) != marks
            if new:
                row, column = self.board.squares[self.square]
                self.cells[row * self.board.columns + column] = MARKED
            if self.keep is None or self.keep(self.executed):
                self.taken.append(Step(self.executed, self.steps, str(token), getattr(token, "place", -1),
                                       self.square, self.direction, self.square != square, new,
                                       len(self.marked), self.skipped, "".join(self.cells)))
                self.skipped = 0


def start_cells(board: Board) -> list[str]:
    """The board as film cells before the run (the start square is marked from the start)."""
    cells = [NO_SQUARE] * (board.rows * board.columns)
    for q, (row, column) in enumerate(board.squares):
        done = q == board.start or q in board.premarked
        cells[row * board.columns + column] = MARKED_AT_START if done else NOT_MARKED
    return cells


def sample(executed: int, limit: int | None = None) -> Callable[[int], bool] | None:
    """Which executed tokens get a frame: all up to ``limit`` (:data:`MAX_STEPS`), else ``limit`` spread
    evenly, the last one kept (None: all)."""
    limit = MAX_STEPS if limit is None else limit
    if executed <= limit:
        return None
    kept = {round(i * executed / limit) for i in range(1, limit + 1)}
    return kept.__contains__


def _where(board: Board, square: int) -> str:
    row, column = board.squares[square]
    return f"({row},{column})"


def film(board: Board, program: Program, options: Mapping[str, Any]) -> Film:
    """Frame 0 is the start; frame k is the bunny after the k-th executed token (sampled past MAX_STEPS)."""
    words, placed = panel(program)
    counting = _Trace(board, start_cells(board), keep=lambda _: False)
    run = counting.run(placed)
    executed = counting.executed
    trace = _Trace(board, start_cells(board), keep=sample(executed))
    trace.run(placed)
    total = board.size
    first = len(set(board.premarked) | {board.start})
    steps = run.steps

    def frame(step: Step | None) -> Frame:
        if step is None:
            square, direction, marked, shown = board.start, board.direction, first, 0
            text = (f"step 0 of {steps:,}: start at {_where(board, square)} facing "
                    f"{DIRECTION_NAMES[direction]}, {marked:,} of {plural(total, 'square')} marked")
            if marked == total:
                text += "; every square is already marked: nothing runs"
            grid, index = "".join(start_cells(board)), -1
        else:
            square, direction, marked, shown = step.square, step.direction, step.marked, step.steps
            if step.token != "F":
                what = f"{step.token}, now facing {DIRECTION_NAMES[direction]}"
            elif step.moved:
                what = f"F to {_where(board, square)}" + (", a new square" if step.new else "")
            else:
                what = f"F blocked at {_where(board, square)} (no square ahead)"
            text = f"step {shown:,} of {steps:,}: {what}, {marked:,} of {plural(total, 'square')} marked"
            if step.skipped:
                text += (f" ({plural(step.skipped, 'step')} since the frame before skipped: they repeat a "
                         "loop cycle that marks nothing new)")
            grid, index = step.grid, step.index
        counters: dict[str, int | float | str] = {"squares marked": marked, "squares left": total - marked,
                                                   "steps": shown}
        row, column = board.squares[square]
        mark = (row * board.columns + column, "bunny", float(direction * 90))
        return Frame(grid, text, counters, [], [mark], index)

    frames = [frame(None)] + [frame(step) for step in trace.taken]
    done = trace.taken[-1].steps if trace.taken else 0
    if steps > done:  # the run ends with skipped cycles: one more frame, the same picture, the rules' count
        end = frames[-1]
        marked = end.counters["squares marked"]
        frames.append(Frame(end.grid, f"step {steps:,} of {steps:,}: steps {done + 1:,}-{steps:,} skipped: "
                            f"they repeat a loop cycle that marks nothing new, {marked:,} "
                            f"of {plural(total, 'square')} marked", {**end.counters, "steps": steps}, [],
                            list(end.marks)))
    last = frames[-1]
    left = len(run.unmarked)
    if run.solved:
        ending = f"every square marked in {plural(steps, 'step')}"
        if trace.taken:
            last.text += "; every square is marked: the run stops"
    elif run.endless:
        ending = f"endless: {plural(left, 'square')} never marked (stopped after {plural(steps, 'step')})"
        last.text += (f"; an unbounded LOOP repeats without marking anything new: the run stops, "
                      f"{plural(left, 'square')} never marked")
    else:
        ending = f"the program ends after {plural(steps, 'step')} with {plural(left, 'square')} not marked"
        last.text += f"; the program ends: {plural(left, 'square')} not marked"
    text = format_program(program)
    title = f"bunny: {text} ({plural(token_count(program), 'token')}), {ending}"
    if len(trace.taken) < executed:
        title += f"; sampled: {len(trace.taken):,} of {executed:,} executed steps shown"
    plots = {"squares marked": [float(f.counters["squares marked"]) for f in frames]}
    return Film("bunny", title, board.rows, board.columns, PALETTE, LEGEND, frames, words, "program", plots,
                board=format_board(board), solution=text, options=dict(options))


def marking_order(board: Board, program: Program) -> str:
    """The board with each square's marking order (S start, O marked before, # never marked)."""
    run = Simulator(board).run(program)
    labels = {q: str(i) for i, q in enumerate(run.order, start=1)}
    width = max([1] + [len(t) for t in labels.values()])
    grid = [["." * width] * board.columns for _ in range(board.rows)]
    for q, (r, c) in enumerate(board.squares):
        if q == board.start:
            text = "S"
        elif q in labels:
            text = labels[q]
        elif q in board.premarked:
            text = "O"
        else:
            text = "#"
        grid[r][c] = text.rjust(width)
    return "\n".join(" ".join(row).rstrip() for row in grid)
