"""Hopping Bunny in the shared contract (:class:`gridsolver.core.game.Game`).

Boards are :class:`~gridsolver.bunny.rules.Board`; a move is one executed
token, ``F``, ``L`` or ``R``; a solution is a program in the notation of
:mod:`gridsolver.bunny.notation` (``LOOP{F LOOP(7){F L}}``) and its score is
its token count. No numba here: the search is imported when a solve starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gridsolver.bunny.rules import (
    Board,
    Simulator,
    facing_east,
    format_board,
    parse_board,
    shown,
    token_count,
)
from gridsolver.core.boards import BoardText, read_package_text
from gridsolver.core.budget import Budget
from gridsolver.core.errors import InputError
from gridsolver.core.game import Game, NamedBoard, Progress, Replayed
from gridsolver.core.options import Option
from gridsolver.core.result import Result

if TYPE_CHECKING:
    from gridsolver.core.film import Film

CHALLENGE = "challenge"
CHALLENGE_FILES = (
    "01-level1", "02-level2", "03-level3", "04-level4", "05-level5", "06-level6",
    "07-full-12x12", "08-level5-13x13", "09-holey-11x11", "10-holey-10x10",
    "11-asymmetric-7x7", "12-asymmetric-9x9",
)
MOVES = ("F", "L", "R")
MAX_LIMIT = 10_000  # programs --all lists at most
#: A board whose shortest program has 5 tokens: solving it builds library levels and searches one and
#: two tokens past them, so it calls every kernel of the search (see BunnyGame.warm).
WARM_BOARD = "S#.\n.##\n..#"
WARM_MEMORY_MB = 16.0


def _challenge_text(file: str) -> str:
    text = read_package_text("gridsolver.bunny", f"data/challenge/{file}.txt")
    if text is None:  # pragma: no cover - a broken install
        raise InputError(f"the shipped board {file} is missing from this installation")
    return text.strip("\n")


def challenge_file(name: str) -> str | None:
    """The challenge file a name means: ``07``, ``7``, ``07-full-12x12``, ``challenge/07`` ..."""
    wanted = name.removeprefix(f"{CHALLENGE}/").removesuffix(".txt")
    for file in CHALLENGE_FILES:
        number = file.split("-")[0]
        if wanted == file or (wanted.isdigit() and wanted.zfill(2) == number):
            return file
    return None


class BunnyGame(Game[Board, str]):
    board_type = Board
    options = (
        Option("all", bool, False, "List distinct shortest programs (up to --limit)."),
        Option("limit", int, None, f"How many programs --all lists at most (default 20, at most {MAX_LIMIT})."
               , metavar="N"),
    )
    name = "bunny"
    title = "Hopping Bunny: shortest tile programs that mark every square."
    score_name = "tokens"
    minimize = True
    comment = None  # '#' is a square here

    # -- boards ------------------------------------------------------------------------------------
    def parse(self, text: BoardText) -> Board:
        return parse_board(text)

    def format(self, board: Board) -> str:
        return format_board(board)

    def named_boards(self) -> list[NamedBoard]:
        boards = [NamedBoard(CHALLENGE, "the 12 boards of the challenge (one minute each)",
                             len(CHALLENGE_FILES))]
        boards += [NamedBoard(file, f"challenge board {file[:2]} (also challenge/{file[:2]})")
                   for file in CHALLENGE_FILES]
        return boards

    def named_text(self, name: str) -> str | None:
        if name.rstrip("/") == CHALLENGE:
            return "\n\n".join(_challenge_text(file) for file in CHALLENGE_FILES)
        file = challenge_file(name)
        if file is None:
            if name.startswith(f"{CHALLENGE}/"):
                raise InputError(f"{name}: no such shipped board (challenge/01 ... "
                                 f"challenge/{len(CHALLENGE_FILES):02d})")
            return None
        return _challenge_text(file)

    # -- moves -------------------------------------------------------------------------------------
    def moves(self, board: Board) -> list[str]:
        return [] if not board.targets() else list(MOVES)

    def apply(self, board: Board, move: str) -> Board:
        """The bunny executes one token; the board it leaves has the bunny as its new start."""
        if move not in MOVES:
            raise InputError(f"unknown move {move!r} (expected F, L or R)")
        if not board.targets():
            raise InputError("every square is already marked: no more moves run")
        if move != "F":
            turn = 1 if move == "R" else 3
            return Board(board.squares, board.premarked, board.start, board.rows, board.columns, board.name,
                         (board.direction + turn) % 4)
        square = board.neighbour(board.start, board.direction)
        return Board(board.squares, board.premarked | {square}, square, board.rows, board.columns,
                     board.name, board.direction)

    def parse_solution(self, text: str) -> str:
        from gridsolver.bunny.notation import format_program, parse_program

        return format_program(parse_program(text))

    def replay(self, board: Board, solution: Any, options: Mapping[str, Any]) -> Replayed[Board]:
        from gridsolver.bunny.notation import parse_program

        if not isinstance(solution, str):
            raise InputError(f"solution {shown(solution)}: expected a program such as 'LOOP{{F L}}'")
        program = parse_program(solution)
        simulator = Simulator(board)
        run = simulator.run(program)
        final = Board(board.squares, frozenset(simulator.marked), simulator.square, board.rows,
                      board.columns, board.name, simulator.direction)
        return Replayed(final, token_count(program), run.solved, run.steps)

    def film(self, board: Board, solution: Any, options: Mapping[str, Any], **view: Any) -> Film:
        """The program run token by token: the squares marked so far, the bunny, the token executing."""
        from gridsolver.bunny.film import film
        from gridsolver.bunny.notation import parse_program

        if solution is None:
            raise InputError("bunny show: give the program to replay, e.g. 'LOOP{F L}' "
                             "(or a solve --json result that has one)")
        if not isinstance(solution, str):
            raise InputError(f"solution {shown(solution)}: expected a program such as 'LOOP{{F L}}'")
        return film(board, parse_program(solution), options)

    # -- search ------------------------------------------------------------------------------------
    def warm(self, board: Board | None, options: Mapping[str, Any] | None, *, workers: int = 1) -> None:
        """Every kernel, by one search of :data:`WARM_BOARD` (they do not depend on the board's size
        or options), for every board (``gridsolver warmup``) or when those every deeper search calls
        are in numba's cache. Else those in the cache are loaded, and no kernel compiles here: most
        of bunny's compiling is its deeper searches, which a board solved in a few tokens never
        reaches, so the search makes each kernel ready on its first use and gives the compiling back
        to the budget (:func:`gridsolver.core.warm.ready`)."""
        from gridsolver.bunny.kernels import enumeration, library
        from gridsolver.core.warm import load_cached, once

        # what every search past a few tokens calls (the tables' rehashes only large boards need: the
        # warm search compiles them, given back, if a first run never did)
        called = (library.insert, library.build_loops, library.build_sequences, enumeration.covering,
                  enumeration.search_one_past, enumeration.search_two_past, enumeration.search_three_past)
        if board is None or all([load_cached(kernel) for kernel in called]):
            once(("bunny", "search"), _warm_search)

    def resolve_options(self, board: Board, options: Mapping[str, Any]) -> dict[str, Any]:
        limit = options.get("limit", 20 if options.get("all") else 1)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise InputError(f"--limit {limit!r}: expected a whole number from 1 to {MAX_LIMIT}")
        return {"limit": limit if options.get("all", limit > 1) else 1}

    def search(self, board: Board, budget: Budget, *, seed: int, workers: int, cluster: str | None,
               progress: Progress | None, label: str, options: Mapping[str, Any]) -> Result:
        from gridsolver.bunny.search import solve

        # the search starts facing east; a turned board is the same puzzle
        result = solve(facing_east(board), budget, limit=options["limit"], on_progress=progress)
        result.input = label
        return result


GAME = BunnyGame()


def _warm_search() -> None:
    import numpy as np

    from gridsolver.bunny.kernels import library
    from gridsolver.bunny.search import solve

    solve(facing_east(GAME.read(WARM_BOARD)), Budget(time_s=None, memory_mb=WARM_MEMORY_MB))
    # the library's table doubles only past 8,192 fragments, far more than a tiny board makes:
    # its rehash is called once here, on no entries, as search.Library.grow_table calls it
    library.rehash_library(np.zeros(1, np.uint64), 0, np.full(2, -1, np.int32))
    library.rehash_rows(np.zeros(1, np.uint64), 0, np.full(2, -1, np.int64))  # the row pool's table, likewise


def picture(board: Board, result: Result, colour: bool = False) -> str:
    """``--show``: the board with the order in which the solution marks the squares (plain text, with or
    without ``colour``)."""
    from gridsolver.bunny.film import marking_order
    from gridsolver.bunny.notation import parse_program

    if result.solution is None:
        return ""
    return marking_order(board, parse_program(str(result.solution)))
