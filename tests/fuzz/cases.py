"""The catalogue of bad and extreme invocations: tables of inputs x games, built once at import.

Every :class:`Case` is one command line run in a fresh working directory that
holds the files it names (made by :data:`FILES`). ``expect`` is the set of
exit codes the case accepts:

- ``BAD`` (2): a user's mistake, refused with one line ``gridsolver: error: ...``;
- ``OK`` (0) / ``RUNS`` (0 or 1): an extreme but valid invocation; 1 means a
  search ended without solving (docs/contract.md's exit codes);
- a wider set, with ``why`` saying what each code would mean, where the
  contract leaves the answer open (e.g. an empty solution: a legal game of no
  moves, or refused). Such cases still fail on a hang, on memory, on a
  traceback or an internal error, which is what they are here for.

``says`` lists words the message must hold (case-insensitive), so that "one
clear line naming the file/row/column or the offending value" is checked, not
just any line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

GAMES = ("bunny", "pegs", "clickomania", "samegame", "ratrace")
BAD = frozenset({2})
OK = frozenset({0})
RUNS = frozenset({0, 1})

Maker = Callable[[Path], None]


@dataclass(frozen=True)
class Case:
    """One invocation and what it must do."""

    id: str
    args: tuple[str, ...]
    expect: frozenset[int] = BAD
    why: str = ""  # what the accepted codes mean, when it is not plainly "bad input"
    files: tuple[str, ...] = ()  # names in FILES to make in the working directory first
    stdin: str = "devnull"  # devnull, closed, or a path (relative paths: in the working directory)
    stdout: str = "capture"  # capture, closed, full (/dev/full), head (`| head -c 10`), broken (see runner)
    says: tuple[str, ...] = ()  # words the error message must hold
    budget_s: float | None = None  # the run's own time when --time does not say it (e.g. several boards)
    memory_mb: float | None = None  # the run's own memory budget when --memory does not say it


# -- the boards and solutions of each game -------------------------------------------------------
#: a small valid board of each game
BOARD = {
    "bunny": "S##\n",
    "pegs": "oo.\n",
    "clickomania": "11\n23\n",
    "samegame": "11\n23\n",
    "ratrace": "start: 0 1\n00000\n00000\n",
}
#: boards with a character the game does not know (bunny X, pegs ?, colour !, hex z)
WRONG = {
    "bunny": "S#X\n",
    "pegs": "oo?\n",
    "clickomania": "1!\n23\n",
    "samegame": "1!\n23\n",
    "ratrace": "start: 0\n0000z\n",
}
#: a board of another game that is not valid here
FOREIGN = {
    "bunny": "jumps: orthogonal\noo.\n",  # pegs
    "pegs": "S##\n",  # bunny
    "clickomania": "start: 0\n00000\n",  # ratrace
    "samegame": "S##\n",  # bunny: capitals are no colour
    "ratrace": "1122.\n",  # clickomania: '.' is no hex colour
}
#: rows of different widths, and whether the game accepts them (bunny and classic pegs boards may be ragged)
RAGGED = {
    "bunny": ("S##\n#\n", OK),
    "pegs": ("ooo\no.\n", OK),
    "clickomania": ("11\n2\n", BAD),
    "samegame": ("11\n2\n", BAD),
    "ratrace": ("start: 0\n00000\n0000\n", BAD),
}
#: a tab inside a row (no game's alphabet has one)
TABBED = {
    "bunny": "S#\t#\n",
    "pegs": "o\to.\n",
    "clickomania": "1\t1\n233\n",
    "samegame": "1\t1\n233\n",
    "ratrace": "start: 0\n00\t00\n",
}
#: what solve and show need besides a board
SOLVE_EXTRA = {"ratrace": ("--player", "forward", "--turns", "50")}
SHOW_EXTRA = {"ratrace": ("--player", "forward", "--turns", "20")}
#: boards (side, copies) of the file piped into `head -c 10`: over 300 KB of output, several times
#: a pipe's 64 KB, so the writer meets the closed pipe for certain, not by a race; under 1 s to read
HEAD_FILE = {"bunny": (60, 100), "pegs": (30, 350), "clickomania": (64, 80), "samegame": (64, 80)}
#: the one cell written everywhere in the big boards (bunny and pegs add a start / an empty hole)
CELL = {"bunny": "#", "pegs": "o", "clickomania": "1", "samegame": "1", "ratrace": "0"}

EMPTY_SOLUTION_WHY = "an empty solution: a legal game of no moves (0), or refused (2)"
#: (label, solution text, accepted exit codes, why) for `check` and `show`, per game
SOLUTIONS: dict[str, list[tuple[str, str, frozenset[int], str]]] = {
    "bunny": [
        ("valid", "F F", OK, "solves the board"),
        ("off-board", "L L F F F F F", OK, "every bunny program is legal; this one marks nothing new"),
        ("illegal-token", "F Q", BAD, ""),
        ("nested-500", "LOOP{" * 500 + "F" + "}" * 500, frozenset({0, 2}),
         "a 500-deep loop that solves the board: run (0) or refused as too deep (2)"),
        ("huge-count", "LOOP(99999999999999999999999){F L}", frozenset({0, 2}),
         "a loop count past 10^18: run (huge counts never hang, bunny rules) or refused (2)"),
        ("unclosed", "LOOP{F", BAD, ""),
    ],
    "pegs": [
        ("valid", "(0,0)->(0,2)", OK, "the one jump"),
        ("off-board", "(0,5)->(0,7)", BAD, ""),
        ("off-board-json", '[[[0,-2],[0,0]]]', BAD, ""),
        ("huge-json", '[[[0,99999999999999999999],[0,2]]]', BAD, ""),
        ("illegal", "(0,2)->(0,0)", BAD, ""),
    ],
    "clickomania": [
        ("valid", "0,0", OK, "clicks the pair"),
        ("off-board", "9,9", BAD, ""),
        ("off-board-json", "[[-1,0]]", BAD, ""),
        ("huge-json", "[[99999999999999999999,0]]", BAD, ""),
        ("illegal", "1,0", BAD, "a single cell is no group"),
    ],
    "ratrace": [
        ("turns-over", '{"game_seed": 1, "turns": 99999999999}', OK,
         "show --turns 20 shows the game up to turn 20 (documented), however long the game"),
        ("seed-text", '{"game_seed": "x"}', BAD, ""),
        ("negative-seed", '{"game_seed": -5, "turns": 10}', frozenset({0, 2}),
         "a negative game seed: played (0) or refused (2)"),
    ],
}
SOLUTIONS["samegame"] = SOLUTIONS["clickomania"]
#: solutions every game must refuse or take
COMMON_SOLUTIONS = [
    ("empty", "", frozenset({0, 2}), EMPTY_SOLUTION_WHY),
    ("garbage", "@@ $$ ~~ \x7f", BAD, ""),
    ("json-object", '{"moves": [1, 2]}', BAD, ""),
    ("json-numbers", "[1, 2, 3]", BAD, ""),
    # 30,000 levels, within the 128 KB the kernel allows one command-line argument
    ("json-deep", "[" * 30000 + "]" * 30000, BAD, ""),
    ("json-deep-object", '{"a":' * 20000 + "1" + "}" * 20000, BAD, ""),
]


def result_line(game: str) -> dict[str, object]:
    """A valid `solve --json` line of ``game`` (schema 1) for the board of :data:`BOARD`."""
    board = BOARD[game].strip("\n")
    head = {"schema": 1, "game": game, "input": "ok", "board": board, "proof": "", "stopped": None}
    return head | {
        "bunny": {"status": "best-found", "solution": "F F", "score": 2, "score_name": "tokens",
                  "options": {"limit": 1}},
        "pegs": {"status": "best-found", "solution": ["(0,0)->(0,2)"], "score": 1, "score_name": "jumps",
                 "options": {"objective": "jumps", "strategy": "default"}},
        "clickomania": {"status": "best-found", "solution": [[0, 0]], "score": 2,
                        "score_name": "cells left", "options": {}},
        "samegame": {"status": "best-found", "solution": [[0, 0]], "score": 0, "score_name": "points",
                     "options": {"penalty": False, "method": "nrpa"}},
        "ratrace": {"status": "played", "solution": {"game_seed": 1, "turns": 20}, "score": 1,
                    "score_name": "points", "options": {"player": "forward", "turns": 20}},
    }[game]


def other_game(game: str) -> str:
    return GAMES[(GAMES.index(game) + 1) % len(GAMES)]


#: results files: name suffix -> (the file's lines for a game, words the message must hold)
RESULTS_FILES: dict[str, tuple[Callable[[str], list[str]], tuple[str, ...]]] = {
    "results-other-game": (lambda g: [json.dumps(result_line(other_game(g)))], ("result",)),
    "results-bad-line": (lambda g: [json.dumps(result_line(g)), "{not json"], ("line 2",)),
    "results-wrong-schema": (lambda g: [json.dumps(result_line(g) | {"schema": 99})], ("schema",)),
    "results-not-object": (lambda g: [json.dumps(result_line(g)), "[1, 2]"], ("line 2",)),
    "results-missing-key": (lambda g: ['{"schema": 1}'], ("game",)),
    "results-bad-status": (lambda g: [json.dumps(result_line(g) | {"status": "great"})], ("status",)),
    "results-solution-shape": (lambda g: [json.dumps(result_line(g) | {"solution": {"x": [1]}})], ()),
    "results-board-bad": (lambda g: [json.dumps(result_line(g) | {"board": WRONG[g]})], ()),
    "results-deep": (lambda g: ['{"schema": 1, "game": "' + g + '", "details": ' + "[" * 20000 + "]" * 20000
                                + "}"], ("line 1",)),
}


# -- files ---------------------------------------------------------------------------------------
def big_board(game: str, rows: int, cols: int) -> str:
    """A ``rows`` x ``cols`` board of one cell (bunny gets its start, pegs an empty hole)."""
    cell = CELL[game]
    first = {"bunny": "S", "pegs": "."}.get(game, cell) + cell * (cols - 1)
    return "\n".join([first] + [cell * cols] * (rows - 1)) + "\n"


def copies(board: str, count: int) -> str:
    """``count`` copies of a board, separated by blank lines."""
    return "\n".join([board] * count)


def head_text(game: str) -> str:
    if game not in HEAD_FILE:  # ratrace: big tracks are slow to read (start cells), small ones are not
        return copies(BOARD[game], 1500)
    side, count = HEAD_FILE[game]
    return copies(big_board(game, side, side), count)


def _text(content: str | bytes) -> Maker:
    data = content.encode("utf-8") if isinstance(content, str) else content

    def make(path: Path) -> None:
        path.write_bytes(data)
    return make


def _made(build: Callable[[], str | bytes]) -> Maker:
    """A file whose (large) content is built only when a case needs it."""
    def make(path: Path) -> None:
        data = build()
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return make


def _player(body: str) -> Maker:
    return _text(f"def f(view, genome):\n{body}\n")


def _files() -> dict[str, Maker]:
    files: dict[str, Maker] = {
        "adir": lambda path: path.mkdir(),
        "empty.txt": _text(""),
        "comments.txt": _text("# nothing here\n# nor here\n"),
        "player-raises.py": _player("    raise RuntimeError('the player has a bug')"),
        "player-loops.py": _player("    while True:\n        pass"),
        "player-sleeps.py": _player("    import time\n    time.sleep(3600)"),
        "player-exits.py": _player("    raise SystemExit(0)"),
        "player-prints.py": _player("    print('a player that talks')\n    return 1, 0"),
        "player-allocates.py": _player("    global hoard\n    hoard = b'x' * (4 * 2**30)\n    return 1, 0"),
        "player-bad-move.py": _player("    return 5, 5"),
        "player-syntax.py": _text("def f(view, genome)\n    return 1, 0\n"),
    }
    for game in GAMES:
        board = BOARD[game]
        files |= {
            f"{game}-ok.txt": _text(board),
            f"{game}-ok3.txt": _text("\n".join([board] * 3)),
            f"{game}-wrong.txt": _text(WRONG[game]),
            f"{game}-foreign.txt": _text(FOREIGN[game]),
            f"{game}-ragged.txt": _text(RAGGED[game][0]),
            f"{game}-tab.txt": _text(TABBED[game]),
            f"{game}-crlf.txt": _text(board.replace("\n", "\r\n")),
            f"{game}-bom.txt": _text("\ufeff" + board),
            f"{game}-several.txt": _text(board + "\n" + WRONG[game]),
            f"{game}-nul.txt": _text(board.encode() + b"\x00" + board.encode()),
            f"{game}-latin1.txt": _text(b"\xff\xfe" + board.encode("latin-1") + b"\xe9\n"),
            f"{game}-many.txt": _made(partial(copies, board, 10000)),
            f"{game}-300x300.txt": _made(partial(big_board, game, 300, 300)),
            f"{game}-1000x1000.txt": _made(partial(big_board, game, 1000, 1000)),
            f"{game}-row-10mb.txt": _made(partial(big_board, game, 1, 10 * 2**20)),
            f"{game}-17mb.txt": _made(partial(big_board, game, 17 * 2**10, 2**10 - 1)),
            f"{game}-head.txt": _made(partial(head_text, game)),
        }
        for name, (lines, _) in RESULTS_FILES.items():
            files[f"{game}-{name}.jsonl"] = _text("\n".join(lines(game)) + "\n")
        files[f"{game}-results.jsonl"] = _text(json.dumps(result_line(game)) + "\n")
    return files


FILES = _files()


# -- the tables ----------------------------------------------------------------------------------
def solve_args(game: str, board: str | None = None) -> tuple[str, ...]:
    return (game, "solve", board or f"{game}-ok.txt", *SOLVE_EXTRA.get(game, ()))


#: (option, value, accepted codes, why) for every game's solve
NUMERIC = [
    *[("--time", v, BAD, "") for v in ("0", "-1", "nan", "inf", "1e12", "abc")],
    *[("--memory", v, BAD, "") for v in ("0", "-5", "inf", "50000000")],
    ("--memory", "0.001", frozenset({0, 1, 2}),
     "too small for any table: refused (2), or the search stops on memory and says so (0/1)"),
    *[("--nodes", v, BAD, "") for v in ("0", "-1", "1e30", str(2**70))],
    ("--nodes", "1", RUNS, "a one-node budget: what it found (0) or nothing (1)"),
    *[("--seed", v, BAD, "") for v in ("-1", str(2**70), str(2**64), "1.5", "x")],
    ("--seed", str(2**64 - 1), RUNS, "the largest seed the contract accepts"),
    *[("--workers", v, BAD, "") for v in ("0", "-1", "1e9")],
    ("--workers", "64", RUNS, "more workers than cores: capped with a warning"),
    *[("--cluster", v, BAD, "") for v in ("notaurl", "tcp://127.0.0.1:1")],
]


def numeric_cases() -> Iterator[Case]:
    for game in GAMES:
        for option, value, expect, why in NUMERIC:
            label = {str(2**70): "2^70", str(2**64): "2^64", str(2**64 - 1): "2^64-1"}.get(
                value, value)
            timing = () if option == "--time" else ("--time", "2")
            yield Case(f"{game}-solve{option}={label}", (*solve_args(game), option, value, *timing, "--json"),
                       expect, why, files=(f"{game}-ok.txt",))


#: inputs for `format` and `solve`: (label, argument, file to make, accepted codes, words, why)
def inputs(game: str) -> list[tuple[str, str, str | None, frozenset[int], tuple[str, ...], str]]:
    huge_ok = frozenset({0, 2}) if game in ("bunny", "ratrace") else BAD
    huge_why = ("no size limit yet in this game: read (0) or refused as too large (2)"
                if huge_ok != BAD else "")
    return [
        ("empty", "empty.txt", "empty.txt", BAD, ("empty.txt",), ""),
        ("comments", "comments.txt", "comments.txt", BAD, ("comments.txt",), ""),
        ("dev-null", "/dev/null", None, BAD, ("/dev/null",), ""),
        ("dev-zero", "/dev/zero", None, BAD, ("/dev/zero", "16 MB"), ""),
        ("17mb", f"{game}-17mb.txt", f"{game}-17mb.txt", BAD, ("16 MB",), ""),
        ("directory", "adir", "adir", BAD, ("adir", "directory"), ""),
        ("missing", "no-such-file.txt", None, BAD, ("no-such-file.txt",), ""),
        ("name-5000", "n" * 5000, None, BAD, ("5000",), ""),
        ("nul-bytes", f"{game}-nul.txt", f"{game}-nul.txt", BAD, ("nul.txt",), ""),
        ("invalid-utf8", f"{game}-latin1.txt", f"{game}-latin1.txt", BAD, ("utf-8",), ""),
        ("wrong-char", f"{game}-wrong.txt", f"{game}-wrong.txt", BAD, ("row", "column"), ""),
        ("foreign", f"{game}-foreign.txt", f"{game}-foreign.txt", BAD, ("foreign.txt",), ""),
        ("ragged", f"{game}-ragged.txt", f"{game}-ragged.txt", RAGGED[game][1], (),
         "this game accepts ragged rows" if RAGGED[game][1] == OK else ""),
        ("tab", f"{game}-tab.txt", f"{game}-tab.txt", BAD, ("\\t",), ""),
        ("crlf", f"{game}-crlf.txt", f"{game}-crlf.txt", OK, (), "CRLF line ends read as line ends"),
        ("bom", f"{game}-bom.txt", f"{game}-bom.txt", frozenset({0, 2}),
         (), "a UTF-8 byte-order mark: skipped (0) or named as a bad character (2)"),
        ("several-one-bad", f"{game}-several.txt", f"{game}-several.txt", BAD, ("several.txt#2",), ""),
        ("many-boards", f"{game}-many.txt", f"{game}-many.txt", OK, (), "10,000 small boards"),
        ("300x300", f"{game}-300x300.txt", f"{game}-300x300.txt", huge_ok, (), huge_why),
        ("1000x1000", f"{game}-1000x1000.txt", f"{game}-1000x1000.txt", huge_ok, (), huge_why),
        ("row-10mb", f"{game}-row-10mb.txt", f"{game}-row-10mb.txt", huge_ok, (), huge_why),
    ]


#: the inputs also given to solve (a search must not start on them, or must end in time)
SOLVED_INPUTS = ("empty", "dev-zero", "several-one-bad", "wrong-char", "300x300", "1000x1000", "row-10mb",
                 "crlf")


def input_cases() -> Iterator[Case]:
    for game in GAMES:
        for label, arg, made, expect, says, why in inputs(game):
            files = (made,) if made else ()
            yield Case(f"{game}-format-{label}", (game, "format", arg), expect, why, files, says=says)
            if label in SOLVED_INPUTS:
                solved = expect | (RUNS if expect != BAD else frozenset())
                yield Case(f"{game}-solve-{label}", (*solve_args(game, arg), "--time", "1", "--json"),
                           solved, why or "a search within its --time", files, says=says)


def solution_cases() -> Iterator[Case]:
    for game in GAMES:
        board = f"{game}-ok.txt"
        extra = SHOW_EXTRA.get(game, ())
        for label, text, expect, why in SOLUTIONS[game] + COMMON_SOLUTIONS:
            # `ratrace check` has no --player: a game given as a seed cannot be replayed (always 2);
            # check exits 1 for a legal solution that misses the objective (the valid ones meet it)
            checked = (BAD if game == "ratrace" else expect if expect == BAD or label == "valid"
                       else expect | {1})
            check_why = "" if checked == BAD else f"{why}; check: 1 when legal but the objective is not met"
            yield Case(f"{game}-check-{label}", (game, "check", board, text, "--json"), checked,
                       check_why, (board,))
            yield Case(f"{game}-show-{label}", (game, "show", board, text, *extra, "-o", "page.html"),
                       expect, why, (board,))
        for name, (_, says) in RESULTS_FILES.items():
            path = f"{game}-{name}.jsonl"
            yield Case(f"{game}-check-{name}", (game, "check", "-", path), BAD, "", (path,), says=says)
            yield Case(f"{game}-show-{name}", (game, "show", path, "-o", "page.html"), BAD, "", (path,),
                       says=says)
        yield Case(f"{game}-show-index-0", (game, "show", f"{game}-results.jsonl", "--index", "0"), BAD,
                   files=(f"{game}-results.jsonl",), says=("--index",))
        yield Case(f"{game}-show-index-999", (game, "show", f"{game}-results.jsonl", "--index", "999"), BAD,
                   files=(f"{game}-results.jsonl",), says=("999",))
        yield Case(f"{game}-show-frame-x", (game, "show", f"{game}-results.jsonl", "--svg", "a.svg",
                                            "--frame", "x"), BAD, files=(f"{game}-results.jsonl",))
        yield Case(f"{game}-show-frame-999", (game, "show", f"{game}-results.jsonl", "--svg", "a.svg",
                                              "--frame", "999"), BAD, files=(f"{game}-results.jsonl",))


OUTPUT_PATHS = [  # (label, option, path, words)
    ("o-directory", "-o", "adir", ("adir",)),
    ("o-missing-dir", "-o", "no/such/dir/page.html", ("page.html",)),
    ("o-dev-full", "-o", "/dev/full", ("/dev/full",)),
    ("svg-directory", "--svg", "adir", ("adir",)),
    ("svg-dev-full", "--svg", "/dev/full", ("/dev/full",)),
]


def io_cases() -> Iterator[Case]:
    for game in GAMES:
        ok = f"{game}-ok.txt"
        for mode in ("devnull", "closed"):
            yield Case(f"{game}-format-stdin-{mode}", (game, "format", "-"), BAD, stdin=mode)
            yield Case(f"{game}-solve-stdin-{mode}", (*solve_args(game, "-"), "--time", "1"), BAD,
                       stdin=mode)
        yield Case(f"{game}-format-stdin-dev-zero", (game, "format", "-"), BAD, stdin="/dev/zero",
                   says=("16 MB",))
        closed_why = ("stdout closed: the output has nowhere to go; exit 0 having written nothing, "
                      "or 2 saying so")
        yield Case(f"{game}-boards-stdout-closed", (game, "boards"), frozenset({0, 2}), closed_why,
                   stdout="closed")
        yield Case(f"{game}-solve-stdout-closed", (*solve_args(game), "--time", "2", "--json"),
                   frozenset({0, 1, 2}), closed_why, (ok,), stdout="closed")
        for label, args, files in (("boards", (game, "boards"), ()), ("format", (game, "format", ok), (ok,)),
                                   ("solve", (*solve_args(game), "--time", "2", "--json"), (ok,))):
            yield Case(f"{game}-{label}-stdout-dev-full", args, BAD, "", files, stdout="full",
                       says=("cannot write",))
        for label, args, files in (("boards", (game, "boards"), ()),
                                   ("solve", (*solve_args(game), "--time", "2", "--json"), (ok,))):
            yield Case(f"{game}-{label}-into-closed-pipe", args, OK, "a closed pipe ends quietly", files,
                       stdout="broken")
        three = (*solve_args(game, f"{game}-ok3.txt"), "--time", "1", "--json")
        yield Case(f"{game}-solve-3-into-head", three, RUNS, "a closed pipe ends quietly",
                   (f"{game}-ok3.txt",), stdout="head", budget_s=3)
        yield Case(f"{game}-format-into-head", (game, "format", f"{game}-head.txt"), OK,
                   "a closed pipe ends quietly", (f"{game}-head.txt",), stdout="head")
        for label, option, path, says in OUTPUT_PATHS:
            yield Case(f"{game}-show-{label}", (game, "show", f"{game}-results.jsonl", option, path), BAD,
                       files=(f"{game}-results.jsonl", "adir"), says=says)


def cluster_cases() -> Iterator[Case]:
    """Commands that run on a cluster: an unreachable one is a clear error within a few seconds."""
    for address in ("notaurl", "tcp://127.0.0.1:1"):
        label = "notaurl" if address == "notaurl" else "nothing-listening"
        for name, args in (("bunny-bench", ("bunny", "bench", "--time", "1")),
                           ("pegs-table", ("pegs", "table", "6x6", "--time", "1")),
                           ("ratrace-play", ("ratrace", "play", "--player", "forward", "--tracks", "2",
                                             "--turns", "50"))):
            yield Case(f"{name}-cluster-{label}", (*args, "--cluster", address), budget_s=0)


def _pegs_cases() -> Iterator[Case]:
    solve = solve_args("pegs")
    files = ("pegs-ok.txt",)
    pegs_options: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
            ("finish-99,99", ("--finish", "99,99"), ("99,99",)),
            ("finish-x", ("--finish", "x"), ("'x'",)),
            ("finish--1,-1", ("--finish", "-1,-1"), ("-1,-1",)),
            ("finish-huge", ("--finish", f"0,{2**70}"), ()),
            ("objective-x", ("--objective", "x"), ()),
            ("objective-finish-alone", ("--objective", "finish"), ("--finish",)),
            ("published-moves", ("--strategy", "published", "--objective", "moves"), ()),
            ("jumps-x", ("--jumps", "x"), ())]
    for label, options, says in pegs_options:
        yield Case(f"pegs-solve-{label}", (*solve, *options, "--time", "1"), files=files, says=says)
    sizes: list[tuple[str, str, tuple[str, ...]]] = [("density-2", "6", ("--density", "2")),
                                 ("density-0", "6", ("--density", "0")),
                                 ("density-nan", "6", ("--density", "nan")),
                                 ("density--1", "6", ("--density", "-1")), ("size-0", "0", ()),
                                 ("size-1000", "1000", ()), ("size-abc", "abc", ()), ("size-5x", "5x", ()),
                                 ("size-2x1", "2x1", ()), ("size-huge", str(10**30), ()),
                                 ("seed--1", "6", ("--seed", "-1"))]
    for label, size, options in sizes:
        yield Case(f"pegs-random-{label}", ("pegs", "random", size, *options))
    yield Case("pegs-table-time-0", ("pegs", "table", "6x6", "--time", "0"))
    yield Case("pegs-table-missing", ("pegs", "table", "no-such-board"), says=("no-such-board",))
    yield Case("pegs-table-workers-0", ("pegs", "table", "6x6", "--time", "1", "--workers", "0"))
    yield Case("pegs-solve-31x31", ("pegs", "solve", "31x31", "--time", "1"), says=("31x31",))
    yield Case("pegs-solve-0x0", ("pegs", "solve", "0x0", "--time", "1"))
    yield Case("pegs-solve-30x30", ("pegs", "solve", "30x30", "--time", "1", "--json"), RUNS,
               "the largest square board, 1 s")
    yield Case("pegs-solve-english-moves", ("pegs", "solve", "english", "--objective", "moves", "--time", "1",
                                            "--json"), RUNS, "a hard objective, 1 s: best found or none")


def _clickomania_cases() -> Iterator[Case]:
    specs = ("0x0x0", "9999x9999x5", "10x10x99", "10x10", "abc", "-5x5x3", "5x5x0", f"{2**70}x5x3")
    for spec in specs:
        yield Case(f"clickomania-solve-random-{spec[:12]}", ("clickomania", "solve", "--random", spec,
                                                             "--time", "1"))
        yield Case(f"clickomania-generate-random-{spec[:12]}", ("clickomania", "generate", "--random", spec))
    yield Case("clickomania-solve-clearable-0x0x0", ("clickomania", "solve", "--clearable", "0x0x0"))
    yield Case("clickomania-solve-count-0", ("clickomania", "solve", "--random", "5x5x3", "--count", "0"))
    yield Case("clickomania-solve-count-100001", ("clickomania", "solve", "--random", "5x5x3", "--count",
                                                  "100001"))
    yield Case("clickomania-solve-random-64x64x20", ("clickomania", "solve", "--random", "64x64x20",
                                                     "--time", "1", "--json"), RUNS, "the largest board, 1 s")
    yield Case("clickomania-generate-nothing", ("clickomania", "generate"))
    # 10,000 boards: 0.9 s of CPU here (100,000 take 7 s: work in proportion, not a hang)
    yield Case("clickomania-generate-count-10000",
               ("clickomania", "generate", "--random", "3x3x2", "--count", "10000"), OK, "10,000 tiny boards")
    yield Case("clickomania-generate-clearable-64x64x20", ("clickomania", "generate", "--clearable",
                                                           "64x64x20"), OK, "the largest clearable board")
    ok = ("clickomania-ok.txt",)
    for label, moves in (("off-board", "9,9"), ("garbage", "x"), ("illegal", "1,0"), ("negative", "[[-1,0]]"),
                         ("huge", f"{2**70},0")):
        yield Case(f"clickomania-replay-{label}", ("clickomania", "replay", "clickomania-ok.txt", moves),
                   files=ok)


def _samegame_cases() -> Iterator[Case]:
    yield Case("samegame-solve-method-x", (*solve_args("samegame"), "--method", "x"),
               files=("samegame-ok.txt",))
    yield Case("samegame-solve-beam-penalty", (*solve_args("samegame"), "--method", "beam", "--penalty",
                                               "--time", "1", "--json"), RUNS, "a valid run, 1 s",
               files=("samegame-ok.txt",))
    yield Case("samegame-solve-random-board", ("samegame", "solve", "--random", "5x5x3"),
               says=("--random",))


def _bunny_cases() -> Iterator[Case]:
    for label, options in (("squares-0", ("--squares", "0")), ("squares-1e9", ("--squares", str(10**9))),
                           ("squares--5", ("--squares", "-5")), ("count-0", ("--count", "0")),
                           ("count-1001", ("--count", "1001")), ("seed--1", ("--seed", "-1")),
                           ("seed-2^70", ("--seed", str(2**70)))):
        yield Case(f"bunny-random-{label}", ("bunny", "random", *options))
    yield Case("bunny-random-squares-4000", ("bunny", "random", "--squares", "4000", "--json"), OK,
               "the largest random board")
    ok = ("bunny-ok.txt",)
    for label, program, expect, why in SOLUTIONS["bunny"]:
        # run exits 1 when the program does not mark every square
        ran = expect if expect == BAD or label == "valid" else expect | {1}
        yield Case(f"bunny-run-{label}", ("bunny", "run", "bunny-ok.txt", program, "--json"), ran,
                   why if ran == expect else f"{why}; run: 1 when it does not mark every square", ok)
    yield Case("bunny-run-100k-tokens", ("bunny", "run", "bunny-ok.txt", "F " * 50000, "--json"), OK,
               "a long program that solves the board", ok)
    for label, options in (("limit-0", ("--limit", "0")), ("limit-10001", ("--limit", "10001"))):
        yield Case(f"bunny-solve-{label}", (*solve_args("bunny"), *options, "--time", "1"), files=ok)
    yield Case("bunny-solve-all-10000", (*solve_args("bunny"), "--all", "--limit", "10000", "--time", "1",
                                         "--json"), RUNS, "every shortest program of a tiny board", ok)
    yield Case("bunny-solve-challenge-13", ("bunny", "solve", "challenge/13", "--time", "1"),
               says=("challenge/13",))
    bench: list[tuple[str, tuple[str, ...]]] = [("time-0", ("--time", "0")), ("time--1", ("--time", "-1")),
                                                ("workers-0", ("--time", "1", "--workers", "0")),
                                                ("memory-0", ("--time", "1", "--memory", "0"))]
    for label, limits in bench:
        yield Case(f"bunny-bench-{label}", ("bunny", "bench", *limits), budget_s=0)


def _ratrace_cases() -> Iterator[Case]:
    # click keeps the last value of an option given twice: each case's options override these
    play = ("ratrace", "play", "--player", "forward", "--tracks", "1", "--turns", "50")
    for label, options in (("tracks-0", ("--tracks", "0")), ("tracks-1e9", ("--tracks", str(10**9))),
                           ("turns--1", ("--turns", "-1")),
                           ("workers-0", ("--tracks", "2", "--workers", "0")),
                           ("time-0", ("--time", "0")), ("seed--1", ("--seed", "-1")),
                           ("nodes-1e30", ("--nodes", "1e30"))):
        yield Case(f"ratrace-play-{label}", (*play, *options), budget_s=0)
    yield Case("ratrace-play-turns-0", (*play, "--tracks", "1", "--turns", "0", "--json"), OK,
               "a game of no turns")
    for label, player in (("nonexistent", "nonexistent"), ("etc-passwd", "/etc/passwd:x"),
                          ("missing-file", "./missing.py:f"), ("empty", ""), ("syntax", "player-syntax.py:f"),
                          ("no-function", "player-raises.py:nope")):
        files = ("player-syntax.py", "player-raises.py")
        yield Case(f"ratrace-play-player-{label}", ("ratrace", "play", "--player", player, "--tracks", "1",
                                                    "--turns", "50"), files=files, budget_s=0)
        yield Case(f"ratrace-solve-player-{label}", ("ratrace", "solve", "seed/1", "--player", player,
                                                     "--turns", "50"), files=files)
    yield Case("ratrace-solve-no-player", ("ratrace", "solve", "seed/1", "--turns", "50"), says=("--player",))
    solve = ("ratrace", "solve", "seed/1", "--player", "forward")
    yield Case("ratrace-solve-turns--1", (*solve, "--turns", "-1"), says=("-1",))
    yield Case("ratrace-solve-turns-1e9", (*solve, "--turns", str(10**9), "--time", "1", "--json"), OK,
               "a long game cut short by --time 1 (status played, stopped by time)")
    yield Case("ratrace-solve-seed-max", ("ratrace", "solve", "seed/5", "--player", "forward", "--turns",
                                          "50", "--seed", str(2**64 - 1), "--json"), OK, "the largest --seed")
    for label, name, expect, why in (("seed-abc", "seed/abc", BAD, ""), ("seed-empty", "seed/", BAD, ""),
                                     ("seed-negative", "seed/-1", OK, "seed/N takes any whole number"),
                                     ("seed-huge", f"seed/{10**30}", frozenset({0, 2}),
                                      "seed/N takes any whole number: played (0) or refused as too large "
                                      "(2)")):
        yield Case(f"ratrace-solve-{label}", ("ratrace", "solve", name, "--player", "forward", "--turns",
                                              "50", "--json"), expect, why)
    for label, seed in (("seed--1", "-1"), ("seed-2^70", str(2**70))):
        yield Case(f"ratrace-track-{label}", ("ratrace", "track", "--seed", seed))
    show = ("ratrace", "show", "seed/1", "1", "--player", "forward", "--turns", "20")
    for label, spec in (("backwards", "5:1"), ("x", "x"), ("huge", f"0:{10**30}")):
        expect = OK if label == "huge" else BAD
        yield Case(f"ratrace-show-turn-range-{label}", (*show, "--turn-range", spec, "-o", "page.html"),
                   expect, "a range past the game's end is cut to the game" if expect == OK else "")
    yield from _player_code_cases()


def _player_code_cases() -> Iterator[Case]:
    """Players that misbehave: each game must still end within its --time and memory (issue 15)."""
    base = ("ratrace", "solve", "ratrace-ok.txt", "--turns", "10", "--time", "1", "--json")
    any_end = frozenset({0, 1, 2})
    for label, expect, why, extra in (
            ("raises", BAD, "", ()),
            ("exits", BAD, "", ()),
            ("bad-move", BAD, "", ()),
            ("loops", any_end, "a player that never returns: stopped by --time (0/1) or refused (2)", ()),
            ("sleeps", any_end, "a player that sleeps an hour: stopped by --time (0/1) or refused (2)", ()),
            ("prints", OK, "a player that prints: stdout must stay JSON lines", ()),
            ("allocates", any_end, "a player over --memory 300: stopped (0/1) or refused (2)",
             ("--memory", "300"))):
        player = f"player-{label}.py"
        yield Case(f"ratrace-solve-player-code-{label}", (*base[:3], "--player", f"{player}:f", *base[3:],
                                                          *extra), expect, why, ("ratrace-ok.txt", player))


def run_cases() -> Iterator[Case]:
    """The options of long runs: --events, --progress/--quiet, --resume, on every game's solve and on
    the commands of many boards."""
    for game in GAMES:
        solve = (*solve_args(game), "--time", "1")
        board = (f"{game}-ok.txt",)
        yield Case(f"{game}-solve-events-into-a-folder", (*solve, "--events", "adir"), BAD, "",
                   (*board, "adir"), says=("--events", "adir"))
        yield Case(f"{game}-solve-events-to-stderr", (*solve, "--events", "-", "--json"), RUNS,
                   "events on standard error, results alone on standard output", board)
        yield Case(f"{game}-solve-progress-piped", (*solve, "--progress", "--json"), RUNS,
                   "a plain status line on the pipe of standard error", board)
        yield Case(f"{game}-solve-quiet-and-progress", (*solve, "--quiet", "--progress", "--json"), RUNS,
                   "the last of the two wins", board)
        yield Case(f"{game}-solve-resume-a-folder", (*solve, "--resume", "adir"), BAD, "", (*board, "adir"),
                   says=("--resume", "adir"))
        yield Case(f"{game}-solve-resume-not-results", (*solve, "--resume", "comments.txt"), BAD, "",
                   (*board, "comments.txt"), says=("--resume", "line 1"))
        yield Case(f"{game}-solve-resume-empty", (*solve, "--resume", "empty.txt", "--json"), RUNS,
                   "an empty journal: a fresh run that fills it", (*board, "empty.txt"))
        yield Case(f"{game}-solve-resume-nowhere", (*solve, "--resume", "no/such/folder/run.jsonl"), BAD,
                   "", board, says=("--resume",))
    for name, args in (("bunny-bench", ("bunny", "bench", "--time", "1")),
                       ("pegs-table", ("pegs", "table", "triangle", "--time", "1")),
                       ("ratrace-play", ("ratrace", "play", "--player", "forward", "--tracks", "2",
                                         "--turns", "10"))):
        yield Case(f"{name}-resume-a-folder", (*args, "--resume", "adir"), BAD, "", ("adir",),
                   says=("--resume",))
        yield Case(f"{name}-resume-not-results", (*args, "--resume", "comments.txt"), BAD, "",
                   ("comments.txt",), says=("--resume", "line 1"))
        yield Case(f"{name}-quiet", (*args, "--quiet"), RUNS, "no status line", budget_s=30)


def usage_cases() -> Iterator[Case]:
    for label, args, expect, why in (
            ("no-args", (), frozenset({0, 2}), "no command: the help (0) or a usage error (2)"),
            ("unknown-game", ("nonsense",), BAD, ""),
            ("unknown-command", ("bunny", "nonsense"), BAD, ""),
            ("unknown-option", ("bunny", "solve", "--bogus"), BAD, ""),
            ("missing-args", ("pegs", "check"), BAD, ""),
            ("run-missing-program", ("bunny", "run", "challenge/01"), BAD, ""),
            ("replay-missing-moves", ("clickomania", "replay", "duel-5x5"), BAD, ""),
            ("random-missing-size", ("pegs", "random"), BAD, ""),
            ("boards-unknown-game", ("boards", "chess"), BAD, ""),
            ("debug-bad-input", ("--debug", "bunny", "format", "no-such-file.txt"), BAD, ""),
            ("version", ("--version",), OK, "prints the version"),
            ("double-dash", ("bunny", "format", "--", "--help"), BAD, ""),
            ("json-on-format", ("bunny", "format", "--json", "challenge/01"), BAD, "")):
        yield Case(f"usage-{label}", args, expect, why)
    for game in GAMES:
        yield Case(f"{game}-help", (game, "--help"), OK, "help")
        yield Case(f"{game}-no-board", (game, "solve", *SOLVE_EXTRA.get(game, ()), "--time", "1"),
                   says=("no board",))


def all_cases() -> list[Case]:
    cases = [*numeric_cases(), *input_cases(), *solution_cases(), *io_cases(), *cluster_cases(),
             *_pegs_cases(), *_clickomania_cases(), *_samegame_cases(), *_bunny_cases(), *_ratrace_cases(),
             *run_cases(), *usage_cases()]
    return cases


CASES = all_cases()
