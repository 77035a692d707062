"""Peg solitaire in the shared contract (:class:`gridsolver.core.game.Game`).

Boards are :class:`~gridsolver.pegs.rules.Board` (holes, pegs and the jump
rule); a move is one jump ``((row, col), (row, col))``; a solution is the
list of jumps written ``(r,c)->(r,c)`` (0-based from the top left), as
``solve`` prints them. Its score is the number of jumps, or of moves (runs of
jumps by one peg) for the objective ``moves``.

Solve options (the ``**options`` of :meth:`PegsGame.solve`, the command
line's ``--objective``, ``--finish``, ``--strategy`` and ``--jumps``):

- ``objective``: ``jumps`` (most jumps), ``finish`` (one peg left, in
  ``finish``) or ``moves`` (fewest moves to one peg, in ``finish`` when
  given); default ``finish`` when a finish hole is given, else ``jumps``;
- ``finish``: the hole, ``(row, col)`` or ``"row,col"``;
- ``strategy``: ``default`` or ``published`` (objective ``jumps`` only);
- ``jumps``: ``orthogonal``, ``diagonal`` or ``triangular``, to play the
  board under another jump rule than the one it is written with.

No numba here: the searches are imported when a solve starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gridsolver.core.boards import BoardText
from gridsolver.core.budget import Budget
from gridsolver.core.errors import InputError
from gridsolver.core.game import Game, NamedBoard, Progress, Replayed, replay_moves
from gridsolver.core.options import Option
from gridsolver.core.result import Result

if TYPE_CHECKING:
    from rich.text import Text

    from gridsolver.core.film import Film
from gridsolver.pegs.rules import (
    JUMP_RULES,
    JUMP_TEXT,
    MAX_SIDE,
    OBJECTIVES,
    STRATEGIES,
    Board,
    Cell,
    Jump,
    apply,
    count_moves,
    format_board,
    format_grid,
    format_jump,
    legal_jumps,
    named,
    parse,
    parse_cell,
    parse_jump,
    shown,
)

#: (name, description) of the shipped boards, in the order ``boards`` lists them
SHIPPED = (
    ("english", "English board, 33 holes, centre empty (orthogonal jumps)"),
    ("european", "European board, 37 holes, centre empty (also called french)"),
    ("wiegleb", "Wiegleb's board, 45 holes, centre empty"),
    ("diamond", "Diamond board, 41 holes, centre empty"),
    ("triangle", "15-hole triangle, top empty (triangular jumps, drawn as a staircase)"),
    ("6x6", f"any RxC from 1x2 to {MAX_SIDE}x{MAX_SIDE} (6x6, 8x8, 7x5 ...): full of pegs, "
            "one empty hole at ((R-1)//2, (C-1)//2)"),
)


class PegsGame(Game[Board, Jump]):
    board_type = Board
    name = "pegs"
    title = "Peg solitaire: classic boards and comesolo squares."
    score_name = "jumps"
    comment = "#"
    #: every core: a finish problem on a big board grows its two-sided search on two (see workers_for)
    default_workers = None
    worker_modules = ("gridsolver.pegs.meeting_workers", "gridsolver.pegs.kernels.endgame")
    options = (
        Option("finish", tuple, None, "The hole the last peg must end in (row, column from 0); implies "
               "--objective finish.", metavar="ROW,COL"),
        Option("objective", str, None, "jumps: most jumps; finish: one peg in --finish; moves: fewest moves "
               "to one peg (in --finish when given). Default: finish with --finish, else jumps.",
               choices=OBJECTIVES),
        Option("strategy", str, None, "For --objective jumps: our anytime search (default), or the published "
               "comesolo method.", choices=STRATEGIES),
        Option("jumps", str, None, "Play under this jump rule instead of the board's own ('jumps:' line; "
               "default diagonal for 1/0 boards, else orthogonal).", choices=tuple(JUMP_RULES)),
    )

    # -- boards ------------------------------------------------------------------------------------
    def parse(self, text: BoardText) -> Board:
        return parse(text)

    def format(self, board: Board) -> str:
        return format_board(board)

    def named_boards(self) -> list[NamedBoard]:
        return [NamedBoard(name, description) for name, description in SHIPPED]

    def named_text(self, name: str) -> str | None:
        return named(name)

    # -- moves -------------------------------------------------------------------------------------
    def moves(self, board: Board) -> list[Jump]:
        return legal_jumps(board)

    def apply(self, board: Board, move: Jump) -> Board:
        return apply(board, move)

    def parse_solution(self, text: str) -> list[str]:
        """Jumps as ``solve`` prints them, ``(3,1)->(3,3) (2,3)->(4,3)``, or a JSON list of them."""
        stripped = text.strip()
        if stripped.startswith("["):
            solution = super().parse_solution(stripped)
            return [format_jump(j) for j in _jumps(solution)]
        return [format_jump(j) for j in _jumps_in_text(stripped)]

    def replay(self, board: Board, solution: Any, options: Mapping[str, Any]) -> Replayed[Board]:
        """Play the jumps; the score is the jumps (moves for objective ``moves``).

        ``complete``: no jump is left (objective ``jumps``), or one peg is left,
        in the finish hole when there is one (``finish``, ``moves``).
        """
        jumps = _jumps(self.parse_solution(solution) if isinstance(solution, str) else solution)
        rule = options.get("jumps")
        played = board if rule is None else board.with_jumps(rule)
        final = replay_moves(self, played, jumps)
        objective = options.get("objective", "jumps")
        finish = None if options.get("finish") is None else check_finish(played, options["finish"])
        if objective == "jumps":
            complete = not legal_jumps(final)
        else:
            complete = final.peg_count == 1 and (finish is None or final.has_peg(finish))
        score = count_moves(jumps) if objective == "moves" else len(jumps)
        return Replayed(final, score, complete, len(jumps))

    def film(self, board: Board, solution: Any, options: Mapping[str, Any], **view: Any) -> Film:
        """The jumps frame by frame: the jumping, jumped and landing holes highlighted."""
        from gridsolver.pegs.film import film

        if solution is None:
            raise InputError("pegs show: give the jumps to replay (or a solve --json result that has them)")
        jumps = _jumps(self.parse_solution(solution) if isinstance(solution, str) else solution)
        rule = options.get("jumps")
        return film(board if rule is None else board.with_jumps(rule), jumps, options)

    # -- search ------------------------------------------------------------------------------------
    def sense(self, options: Mapping[str, Any]) -> tuple[str, bool]:
        """Jumps, made many; or with ``objective="moves"``, moves, made few."""
        return ("moves", True) if options.get("objective") == "moves" else ("jumps", False)

    def resolve_options(self, board: Board, options: Mapping[str, Any]) -> dict[str, Any]:
        """Objective, finish hole, strategy and jump rule, checked against the board.

        Returns them JSON-ready: ``objective`` always, ``finish`` as ``[row, col]``
        when given, ``strategy`` for objective ``jumps``, ``jumps`` when it
        changes the board's rule. Checking the returned options again gives them back.
        """
        rule = options.get("jumps")
        finish = None if options.get("finish") is None else check_finish(board, options["finish"])
        objective = options.get("objective") or ("finish" if finish is not None else "jumps")
        strategy = options.get("strategy") or "default"
        if objective == "finish" and finish is None:
            raise InputError("--objective finish needs --finish ROW,COL")
        if objective == "jumps" and finish is not None:
            raise InputError(f"--finish {finish[0]},{finish[1]} applies to --objective finish or moves, "
                             "not jumps")
        if strategy == "published" and objective != "jumps":
            raise InputError(f"--strategy published is a method for --objective jumps only, "
                             f"not {objective}")
        checked: dict[str, Any] = {"objective": objective}
        if finish is not None:
            checked["finish"] = list(finish)
        if objective == "jumps":
            checked["strategy"] = strategy
        if rule is not None and rule != board.jumps:
            checked["jumps"] = rule
        return checked

    def warm(self, board: Board | None, options: Mapping[str, Any] | None, *, workers: int = 1) -> None:
        """The kernels of the searches the objective and strategy use, on :data:`WARM_BOARD`."""
        from gridsolver.core.warm import once

        for part in _warm_parts(board, options):
            once(("pegs", part), WARMERS[part])

    def workers_for(self, board: Board, options: Mapping[str, Any], workers: int) -> int:
        """Two at most, and only for a finish problem that the two-sided search takes (a big board with
        one empty hole): its two sides grow side by side (see :mod:`gridsolver.pegs.meeting_workers`)."""
        from gridsolver.pegs.finish import meets

        rule = options.get("jumps")
        finish = options.get("finish")
        if options.get("objective") != "finish" or finish is None:
            return 1
        return min(workers, 2) if meets(board if rule is None else board.with_jumps(rule)) else 1

    def search(self, board: Board, budget: Budget, *, seed: int, workers: int, cluster: str | None,
               progress: Progress | None, label: str, options: Mapping[str, Any]) -> Result:
        from gridsolver.pegs.search import search

        rule = options.get("jumps")
        finish = options.get("finish")
        return search(board if rule is None else board.with_jumps(rule), budget, label=label,
                      objective=options["objective"], finish=None if finish is None else _cell(finish),
                      strategy=options.get("strategy", "default"), seed=seed, note=progress,
                      workers=workers)


GAME = PegsGame()


# -- warm-up (see PegsGame.warm) ---------------------------------------------------------------------
#: One jump leaves one peg, in the last hole: every search finishes on it at once. The kernels take
#: positions of any number of 64-bit words and any jump rule, so a tiny board has the same types.
WARM_BOARD = "jumps: orthogonal\noo."
WARM_FINISH = (0, 2)


def _warm_parts(board: Board | None, options: Mapping[str, Any] | None) -> list[str]:
    """The searches a solve will run (every one when ``board`` is None)."""
    if board is None or options is None:
        return list(WARMERS)
    objective = options["objective"]
    if objective == "moves":
        from gridsolver.pegs.meet import fits

        return ["meet" if fits(board) else "deepening"]
    if objective == "finish":
        from gridsolver.pegs.endgame import fits

        return ["dfs", "endgame"] if fits(board) else ["dfs"]
    return ["published"] if options.get("strategy") == "published" else ["dfs", "beam"]


def _warm_budget() -> Budget:
    return Budget(time_s=None, memory_mb=16.0)


def _warm_dfs() -> None:
    """Depth-first search, for most jumps and for a finish hole, and the table it grows."""
    from gridsolver.core.table import GrowingTable
    from gridsolver.pegs.search import search

    board = GAME.read(WARM_BOARD)
    search(board, _warm_budget(), objective="jumps")
    search(board, _warm_budget(), objective="finish", finish=WARM_FINISH)
    GrowingTable(_warm_budget(), words=1, first_slots=1 << 10).grow()


#: A 4x4 board, one hole empty: its finish problems take the paths of the two-sided search in
#: milliseconds: from (0, 1) one peg can finish at (0, 2) (a self-dual problem). From the corner it
#: cannot finish at (1, 1), and a pagoda found by linear programming prunes a layer on the way.
WARM_ENDGAME_BOARD = "jumps: orthogonal\no.oo\n" + "oooo\n" * 3


def _warm_endgame() -> None:
    """The layers of positions that can finish, and the two-sided search (boards of at most 64 holes):
    one side built or both, layers grown by hashing and by sorting, found and impossible."""
    import time

    import numpy as np

    from gridsolver.core import sorting
    from gridsolver.pegs import endgame
    from gridsolver.pegs.kernels import endgame as endgame_kernels

    board = GAME.read(WARM_ENDGAME_BOARD)
    for one_side in (True, False):
        for sorted_from in (None, 0):
            meeting = endgame.Meeting(board, (0, 2), pagodas=False)
            if not one_side:
                meeting.mirror = None
            meeting.backward.sorted_from = meeting.forward.sorted_from = sorted_from
            meeting.run(_warm_budget(), 1 << 27, time.perf_counter() + 10.0)
    corner = board.with_pegs(board.holes & ~1)
    endgame.Meeting(corner, (1, 1)).run(_warm_budget(), 1 << 27, time.perf_counter() + 0.5)
    one_peg = GAME.read("jumps: orthogonal\n.o")  # no jump to make: the first layers meet at once
    endgame.Meeting(one_peg, (0, 1), pagodas=False).run(_warm_budget(), 1 << 27, time.perf_counter() + 10.0)
    runs = endgame.Runs(4)  # the tiny board's layers fit one chunk: two runs, merged
    for value in (2, 1):
        runs.free(1)[0] = value
        runs.push(1)
    sorting.radix_is_faster()  # big chunks' sort: compiled, and this machine's choice made
    part = np.ones(1, dtype=np.uint64)  # and the merge of a layer's two parts grown by two workers
    endgame_kernels.merge_into(part, part, np.empty(2, dtype=np.uint64))


def _warm_beam() -> None:
    """The beam a most-jumps search widens when depth-first search does not finish."""
    from gridsolver.pegs.jumps import widening_beam
    from gridsolver.pegs.layout import Layout

    board = GAME.read(WARM_BOARD)
    widening_beam(board, Layout.of(board), _warm_budget(), 0, 0, [])


def _warm_published() -> None:
    from gridsolver.pegs.search import search

    search(GAME.read(WARM_BOARD), _warm_budget(), objective="jumps", strategy="published")


def _warm_meet() -> None:
    """Fewest moves by meeting in the middle (boards of at most 64 holes)."""
    from gridsolver.core.budget import NO_LIMIT
    from gridsolver.pegs.meet import Side
    from gridsolver.pegs.search import search

    search(GAME.read(WARM_BOARD), _warm_budget(), objective="moves")
    Side(128, max_slots=256).grow(0, NO_LIMIT)  # the tiny board's sets never grow: load the rebuild too


def _warm_deepening() -> None:
    """Fewest moves by iterative deepening (larger boards), and the table it grows."""
    from gridsolver.core.table import GrowingTable
    from gridsolver.pegs.moves import solve_moves_deepening

    solve_moves_deepening(GAME.read(WARM_BOARD), None, _warm_budget())
    GrowingTable(_warm_budget(), words=1, first_slots=1 << 10).grow()


WARMERS = {"dfs": _warm_dfs, "endgame": _warm_endgame, "beam": _warm_beam, "published": _warm_published,
           "meet": _warm_meet, "deepening": _warm_deepening}


def picture(board: Board, result: Result, colour: bool = False) -> str:
    """``--show``: the start and the end position, side by side when they fit in 80 columns, in the
    board's own characters (pegs and holes in the page's colours when ``colour``)."""
    from rich.text import Text

    from gridsolver.core.terminal import arrange, render

    if result.solution is None:
        return ""
    try:
        final = GAME.replay(board, result.solution, result.options).final
    except InputError as exc:  # the result says NOT VERIFIED already; say why instead of a picture
        return f"  end position: none, the solution does not replay ({exc})"
    blocks = [[Text(f"{name}: {position.peg_count:,} peg{'s' if position.peg_count != 1 else ''}"),
               *_position_lines(position)] for name, position in (("start", board), ("end", final))]
    return render(arrange(blocks), colour)


def _position_lines(board: Board) -> list[Text]:
    """The rows of ``board`` as :func:`format_grid` writes them, each cell styled as the page draws it."""
    from gridsolver.core.terminal import grid, on
    from gridsolver.pegs.film import PALETTE

    styles = [on(PALETTE["o"]), on(PALETTE["."]), "dim"]  # peg, empty hole, no hole
    rows = []
    for r, line in enumerate(format_grid(board).splitlines()):
        kinds = [0 if board.has_peg((r, c)) else 1 if board.is_hole((r, c)) else 2 for c in range(board.cols)]
        rows.append([(ch, styles[kind]) for ch, kind in zip(line, kinds, strict=True)])
    return grid(rows, sep="")


# -- option and solution values ----------------------------------------------------------------------
def check_finish(board: Board, value: Any) -> Cell:
    """A finish hole from ``(row, col)``, ``[row, col]`` or ``"row,col"``; InputError naming it otherwise."""
    cell = parse_cell(value) if isinstance(value, str) else _cell(value)
    if not board.is_hole(cell):
        raise InputError(f"--finish {cell[0]},{cell[1]} is not a hole of this board (rows 0 to "
                         f"{board.rows - 1}, columns 0 to {board.cols - 1}, row 0 at the top)")
    return cell


def _cell(value: Any) -> Cell:
    if (isinstance(value, list | tuple) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return int(value[0]), int(value[1])
    raise InputError(f"--finish {shown(value)}: expected ROW,COL (0-based), e.g. 3,3")


def _jumps(solution: Any) -> list[Jump]:
    """The jumps of a solution in its JSON form (a list of ``(r,c)->(r,c)`` strings) or as pairs of cells."""
    if not isinstance(solution, list | tuple):
        raise InputError(f"solution {shown(solution)}: expected a list of jumps such as '(3,1)->(3,3)'")
    jumps = []
    for number, item in enumerate(solution, start=1):
        if isinstance(item, str):
            jumps.append(parse_jump(item))
            continue
        try:
            start, to = item
            jumps.append((_cell(start), _cell(to)))
        except (TypeError, ValueError, InputError):
            raise InputError(f"jump {number} {shown(item)}: expected (ROW,COL)->(ROW,COL)") from None
    return jumps


def _jumps_in_text(text: str) -> list[Jump]:
    """Every ``(r,c)->(r,c)`` of a text, separated by spaces or commas; InputError on anything else."""
    jumps: list[Jump] = []
    position = 0
    for match in JUMP_TEXT.finditer(text):
        between = text[position:match.start()]
        if between.strip(" \t\n,;"):
            raise InputError(f"solution: unexpected {shown(between.strip())} before jump {len(jumps) + 1} "
                             "(expected jumps such as (3,1)->(3,3), separated by spaces)")
        jumps.append(parse_jump(match.group()))
        position = match.end()
    rest = text[position:]
    if rest.strip(" \t\n,;"):
        raise InputError(f"solution: unexpected {shown(rest.strip())} after jump {len(jumps)} "
                         "(expected jumps such as (3,1)->(3,3), separated by spaces)")
    return jumps
