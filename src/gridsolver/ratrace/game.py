"""The Genetic Rat Race in the shared contract (:class:`gridsolver.core.game.Game`).

The rat race is a simulation, not a puzzle, so the contract's words mean:

- a *board* is a :class:`~gridsolver.ratrace.rules.Track` in the text format
  of :mod:`gridsolver.ratrace.track` (seed, start cells, the kind and offset
  of each colour, then the colour rows in hex); shipped boards are generated:
  ``seed/N`` is the track of seed N (what ``track --seed N`` shows) and
  ``tournament`` the 50 tracks ``play`` plays by default (seeds 0-49);
- a *move* is what a player returns for one rat: one of the nine offsets
  (dx, dy) in [-1, 1]^2. The track is the whole board and a rat's step does
  not change it (the rats, where they stand and their genomes are the state
  of a game, kept by the controller), so :meth:`RatRaceGame.moves` lists the
  nine moves and :meth:`RatRaceGame.apply` checks one (InputError naming an
  illegal move, as a game would) and returns the track unchanged;
- a *search* plays one game: ``options = {"player": ..., "turns": N}``; the
  result has status ``played``, ``score`` = points (1 + goals), ``stopped``
  set when the budget (``time``, ``memory``, ``nodes`` = rat-moves) cut the
  game short, and the game's figures in ``details``;
- the *solution* is what defines the game besides its options:
  ``{"game_seed": S, "turns": T}``, the seed of the game's random streams and
  the turns it played (fewer than ``options["turns"]`` when the rats died out
  or the budget cut it short). :meth:`RatRaceGame.replay` plays that game
  again under the rules (same track, player, seed and turns: the same game)
  and scores its points, so a solve's result is verified by playing it
  twice. The player is loaded again by its name from ``options``: a player
  given as a Python function replays in the process that holds it, not
  from its JSON (InputError saying so);
- :meth:`RatRaceGame.film` replays the game and counts the rats on sampled
  turns (:mod:`gridsolver.ratrace.film`), for ``show``.

The random streams of a game (first rats, breeding, the player's generator)
are seeded from the track's seed plus the solve ``seed`` (0 by default), so a
solve of ``seed/N`` plays exactly track 1 of ``play --seed N``.

No numba here: the controller is imported when a game starts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from gridsolver.core.boards import BoardText
from gridsolver.core.budget import Budget
from gridsolver.core.errors import InputError
from gridsolver.core.game import Game, NamedBoard, Progress, Replayed, check_seed, make_budget
from gridsolver.core.options import Option
from gridsolver.core.result import Result, Stats
from gridsolver.ratrace.generate import generate_track
from gridsolver.ratrace.guard import (
    DEFAULT_GAME_LIMIT_S,
    DEFAULT_MOVE_LIMIT_S,
    GAME_GRACE_S,
    MAX_LIMIT_S,
    Guard,
    PlayerError,
    check_turns,
    make_guard,
)
from gridsolver.ratrace.jobs import GameJob
from gridsolver.ratrace.players import Player, as_player
from gridsolver.ratrace.rules import MAX_TURNS, MOVES, Track
from gridsolver.ratrace.track import (
    MAX_DIGITS,
    format_track,
    parse_track,
    render_track,
    shown,
    whole_number,
)

if TYPE_CHECKING:
    from gridsolver.core.film import Film
    from gridsolver.ratrace.outcome import GameResult

DEFAULT_TURNS = 10_000
SEED_PREFIX = "seed/"
TOURNAMENT = "tournament"
TOURNAMENT_SEEDS = range(50)
CUT_SHORT = ("time", "memory", "nodes")  # the controller's `ended` values that are budget stops
#: The share of --time a solve's game may play: the verifying replay plays its turns again, as fast,
#: and both must fit in --time (the process ends within --time + 2 s).
PLAY_SHARE = 0.5
#: The players whose game loops `gridsolver warmup` compiles: the strongest and the spec's example.
WARM_PLAYERS = ("champion", "colour-score")
_SEED_NAME = re.compile(r"[+-]?[0-9]+")  # a seed as typed; whole_number bounds its digits
SOLUTION_KEYS = ("game_seed", "turns")
#: Options that set how a user's player is guarded (see docs/ratrace.md); they are kept on the
#: ``player`` option, not in a result's options: they do not change the game.
GUARD_OPTIONS = ("move_limit", "game_limit", "in_process")
#: The status of a game whose player failed: no points, and ``details["error"]`` says what the
#: player did.
FAILED_STATUS = "failed"

Move = tuple[int, int]


class PlayerOption(str):
    """The ``player`` option of a game: JSON sees the player's name, the game plays ``.player``
    under ``.guard``.

    A callable cannot go into a result's JSON, so :meth:`RatRaceGame.check_options`
    keeps the loaded player (and the limits it plays under) on a string holding
    its name. Pickled (a result sent back by a worker) it becomes that plain name.
    """

    player: Player
    guard: Guard

    def __new__(cls, player: Player, guard: Guard | None = None) -> PlayerOption:
        option = super().__new__(cls, player.name)
        option.player = player
        option.guard = guard or Guard()
        return option

    def __reduce__(self) -> tuple[Any, ...]:
        return (str, (str(self),))


class RatRaceGame(Game[Track, Move]):
    """The rat race: boards are tracks, a solve plays one game of a player (see the module doc)."""

    board_type = Track
    name = "ratrace"
    title = "The Genetic Rat Race: controller, players, tournaments."
    score_name = "points"
    work_name = "rat-moves"
    options = (
        # not required on the command line: `show` takes the player from a result; a solve without one
        # is refused
        Option("player", str, None, "A built-in player (forward, random, colour-score, ...) or "
               "path/to/file.py:function.", metavar="NAME|FILE.py:NAME"),
        Option("turns", int, None, f"Turns per game (default {DEFAULT_TURNS:,}, at most {MAX_TURNS:,}; "
               "--nodes counts rat-moves). In show: the game up to this turn.", metavar="N", low=0,
               high=MAX_TURNS),
        Option("move_limit", float, None, f"A user's player: the longest one call of it may take (default "
               f"{DEFAULT_MOVE_LIMIT_S:g} s; a numpy player's call is a whole turn).", metavar="S",
               high=MAX_LIMIT_S),
        Option("game_limit", float, None, f"A user's player: the longest wall time of a game, compilation "
               f"aside (default --time + {GAME_GRACE_S:g} s, or {DEFAULT_GAME_LIMIT_S:g} s without --time).",
               metavar="S", high=MAX_LIMIT_S),
        Option("in_process", bool, False,
               "Play a user's player in this process: no limits, no protection (to debug it)."),
    )
    comment = "#"
    default_time = None  # a game runs its turns; --time only cuts it short when asked

    # -- boards ------------------------------------------------------------------------------------
    def parse(self, text: BoardText) -> Track:
        return parse_track(text)

    def format(self, board: Track) -> str:
        return format_track(board)

    def named_boards(self) -> list[NamedBoard]:
        return [
            NamedBoard(f"{SEED_PREFIX}N", "the track generated from seed N, any whole number "
                       "(as `gridsolver ratrace track --seed N` shows it)"),
            NamedBoard(TOURNAMENT, "the 50 tracks `play` plays by default (seed/0 ... seed/49)",
                       len(TOURNAMENT_SEEDS)),
        ]

    def named_text(self, name: str) -> str | None:
        if name == TOURNAMENT:
            return "\n\n".join(format_track(generate_track(seed)) for seed in TOURNAMENT_SEEDS)
        if not name.startswith(SEED_PREFIX):
            return None
        number = whole_number(name.removeprefix(SEED_PREFIX))
        if number is None:
            raise InputError(f"{shown(name)}: expected {SEED_PREFIX}N with N a whole number of at most "
                             f"{MAX_DIGITS} digits, e.g. {SEED_PREFIX}3 (seeds count modulo 2^64)")
        return format_track(generate_track(number))

    def label(self, board: Track) -> str:
        return "track" if board.seed is None else f"{SEED_PREFIX}{board.seed}"

    # -- moves -------------------------------------------------------------------------------------
    def moves(self, board: Track) -> list[Move]:
        """The nine moves a player may return for a rat: (dx, dy) with dx, dy in -1, 0, 1."""
        return list(MOVES)

    def apply(self, board: Track, move: Move) -> Track:
        """Check a rat's move; the track is unchanged (a step moves a rat, not the track)."""
        try:
            legal = tuple(move) in MOVES
        except TypeError:
            legal = False
        if not legal:
            raise InputError(f"illegal move {move!r}: a move is (dx, dy) with dx, dy in -1, 0, 1")
        return board

    def replay(self, board: Track, solution: Any, options: Mapping[str, Any]) -> Replayed[Track]:
        """Play the game of ``solution`` again (no budget): its points are the score.

        ``complete`` is True: a game has no objective to meet, only points.
        """
        game_seed, turns = game_of(solution, options)
        if turns > options.get("turns", DEFAULT_TURNS):
            raise InputError(f"the solution plays {turns:,} turns, more than the game's "
                             f"{options.get('turns', DEFAULT_TURNS):,} (--turns)")
        player = replay_player(options)
        self._check_track(board)
        job = GameJob.of("play_on_track", (board, game_seed, turns))
        game, _ = self._play(player, guard_of(options), job, f"track {self.label(board)} (replay)")
        return Replayed(board, game.points, True, game.turns)

    def film(self, board: Track, solution: Any, options: Mapping[str, Any], **view: Any) -> Film:
        """The game replayed with the rats counted on sampled turns (every turn of a short game).

        ``options["turns"]`` below the solution's turns shows the game up to that turn;
        ``turn_range`` (``"FROM:TO"`` or a pair) shows only those turns, sampled afresh.
        """
        from gridsolver.ratrace.film import film

        if solution is None:
            raise InputError("ratrace show: this result holds no game to replay; use the output of "
                             "`gridsolver ratrace solve --json` (or the track lines of `play --json`), or "
                             "give a track, the game seed and --player: show seed/1 1 --player forward")
        game_seed, turns = game_of(solution, options)
        turns = min(turns, options.get("turns", DEFAULT_TURNS))
        player = replay_player(options)
        self._check_track(board)
        first, last = _turn_range(view.pop("turn_range", None), turns)
        if view:
            raise InputError(f"ratrace show: unknown view option(s) {', '.join(sorted(view))}")
        return film(board, player, game_seed, last, first,
                    play=lambda job: self._play(player, guard_of(options), job,
                                                f"track {self.label(board)} (show)")[0])

    def parse_solution(self, text: str) -> Any:
        """A game as written on the command line: its game seed ``S``, or ``{"game_seed": S, "turns": T}``."""
        stripped = text.strip()
        if _SEED_NAME.fullmatch(stripped):
            game_seed = whole_number(stripped)
            if game_seed is None:
                raise InputError(f"game seed {shown(stripped)}: at most {MAX_DIGITS} digits "
                                 "(seeds count modulo 2^64)")
            return {"game_seed": game_seed}
        if stripped.startswith("{"):
            return super().parse_solution(stripped)
        raise InputError(f"solution {shown(text)}: a rat race game is its game seed (a whole number) or "
                         '{"game_seed": S, "turns": T} as `solve --json` writes it')

    @staticmethod
    def _check_track(board: Track) -> None:
        if not board.start_cells:
            raise InputError("the track has no start cells: there is nowhere to put a rat")

    # -- search ------------------------------------------------------------------------------------
    def resolve_options(self, board: Track, options: Mapping[str, Any]) -> dict[str, Any]:
        """``player`` and ``turns``; ``move_limit``, ``game_limit`` (s) and ``in_process`` set how a
        user's player is guarded and ride on the player option (results record player and turns)."""
        turns = check_turns(DEFAULT_TURNS if options.get("turns") is None else options["turns"])
        if not board.start_cells:
            raise InputError("the track has no start cells: there is nowhere to put a rat")
        guard = make_guard(options.get("move_limit"), options.get("game_limit"),
                           options.get("in_process", False))
        checked: dict[str, Any] = {"turns": turns}
        if options.get("player") is not None:  # required by a game (search), not by `check`
            given = options["player"]
            if not any(name in options for name in GUARD_OPTIONS) and isinstance(given, PlayerOption):
                guard = given.guard  # checked before (solve checks the options it is given again)
            checked["player"] = PlayerOption(load_player_option(given), guard)
        return checked

    def warm(self, board: Track | None, options: Mapping[str, Any] | None, *, workers: int = 1) -> None:
        """A built-in numba player's game loop (cached on disk); with no options (``gridsolver
        warmup``), the loops of :data:`WARM_PLAYERS`. A user's player compiles where it plays."""
        from gridsolver.core.warm import once
        from gridsolver.ratrace.controller import warm_loop

        players = [as_player(name) for name in WARM_PLAYERS] if options is None else [
            as_player(options["player"])] if options.get("player") is not None else []
        for player in players:
            if player.builtin and player.kind == "numba":
                once(("ratrace", player.name), partial(warm_loop, player))

    def search(self, board: Track, budget: Budget, *, seed: int, workers: int, cluster: str | None,
               progress: Progress | None, label: str, options: Mapping[str, Any],
               where: str | None = None, replayed: bool = True) -> Result:
        """Play one game (here, or in a child process for a user's player: ``workers`` does not apply,
        ``cluster`` is refused).

        When the game will be ``replayed`` to verify it (:meth:`solve`), it may
        play :data:`PLAY_SHARE` of the time only, so that the replay ends
        within ``--time`` too; a game cut short by that says ``stopped: time``.
        """
        if cluster:
            raise InputError("ratrace solve plays one game in this process; use "
                             "`gridsolver ratrace play --cluster` for tournaments on a cluster")
        if options.get("player") is None:
            raise InputError("ratrace: a game needs a player (--player NAME|FILE.py:NAME, "
                             "or player=... in Python)")
        player = as_player(options["player"])
        game_seed = (0 if board.seed is None else board.seed) + seed
        play = budget
        if replayed and budget.time_s is not None:
            play = replace(budget, time_s=budget.time_s * PLAY_SHARE)  # the same start
        # the per-game limit of a guarded player stays reckoned from --time (the budget's figures)
        job = GameJob.of("play_on_track", (board, game_seed, options["turns"], play), budget)
        game, peak_mb = self._play(player, guard_of(options), job, where or f"track {label}")
        return self.game_result(board, label, player.name, game_seed, game, peak_mb)

    @staticmethod
    def _play(player: Player, guard: Guard, job: GameJob, where: str) -> tuple[Any, float]:
        """A controller function's game: in a child process for a user's player (see
        :mod:`gridsolver.ratrace.sandbox`), else here."""
        from gridsolver.ratrace import sandbox

        return sandbox.run(player, guard, job, where=where)

    def game_result(self, board: Track, label: str, player: str, game_seed: int, game: GameResult,
                    peak_mb: float) -> Result:
        """The Result of a game played (not yet replayed: ``verified`` is False)."""
        return Result(
            game=self.name,
            input=label,
            status="played",
            solution={"game_seed": game_seed, "turns": game.turns},
            score=game.points,
            score_name=self.score_name,
            stopped=game.ended if game.ended in CUT_SHORT else None,
            stats=Stats(nodes=game.rat_moves, elapsed_s=round(game.elapsed_s, 4),
                        peak_memory_mb=round(peak_mb, 1), compile_s=round(game.compile_s, 3)),
            details={
                "player": player,
                "seed": board.seed,
                "game_seed": game_seed,
                "turns": game.turns,
                "ended": game.ended,
                "alive": game.alive,
                "peak_rats": game.peak_rats,
                "rat_moves": game.rat_moves,
                "rat_moves_per_s": round(game.rat_moves_per_s),
                "cpu_s": round(game.cpu_s, 4),
            },
        )

    def failed_result(self, board: Track, label: str, player: str, game_seed: int,
                      error: PlayerError) -> Result:
        """The Result of a game whose player failed: no points, ``details["error"]`` says why (and
        ``details["traceback"]`` where, when the player raised)."""
        return Result(
            game=self.name,
            input=label,
            status=FAILED_STATUS,
            score_name=self.score_name,
            details={"player": player, "seed": board.seed, "game_seed": game_seed, "ended": "failed",
                     "turn": error.turn, "error": str(error),
                     **({"traceback": error.trace} if error.trace else {})},
        )

    def play_unverified(self, board: Track, *, time: float | None = None, memory: float | None = None,
                        nodes: int | None = None, seed: int = 0, label: str | None = None,
                        where: str | None = None, **options: Any) -> Result:
        """One game as :meth:`solve` plays it, without the replay that verifies it (``verified``
        stays False): tournaments, where replaying would double the cost of every track.

        ``check`` (or :func:`gridsolver.core.game.verify`) replays such a result later. A player
        that fails makes a Result saying so (:meth:`failed_result`) instead of an error, said about
        ``where`` (e.g. ``track 3 (seed 102)``).
        """
        budget = make_budget(time, memory, nodes)
        seed = check_seed(seed)
        checked = self.check_options(board, options)
        label = label or self.label(board)
        try:
            result = self.search(board, budget, seed=seed, workers=1, cluster=None, progress=None,
                                 label=label, options=checked, where=where, replayed=False)
        except PlayerError as exc:
            game_seed = (0 if board.seed is None else board.seed) + seed
            result = self.failed_result(board, label, str(checked["player"]), game_seed, exc)
        result.board = self.format(board)
        result.options = checked
        return result


def game_of(solution: Any, options: Mapping[str, Any]) -> tuple[int, int]:
    """(game seed, turns) of a solution ``{"game_seed": S, "turns": T}`` (turns default to the
    options'); InputError naming what is wrong."""
    if isinstance(solution, str):
        solution = GAME.parse_solution(solution)
    if not isinstance(solution, Mapping):
        raise InputError(f"solution {solution!r}: a rat race game is {{\"game_seed\": S, \"turns\": T}}")
    unknown = set(solution) - set(SOLUTION_KEYS)
    if unknown:
        raise InputError(f"solution: unknown key(s) {', '.join(sorted(map(str, unknown)))} "
                         f"(known: {', '.join(SOLUTION_KEYS)})")
    if "game_seed" not in solution:
        raise InputError('solution: no "game_seed" (the seed of the game\'s random streams)')
    game_seed = solution["game_seed"]
    if isinstance(game_seed, bool) or not isinstance(game_seed, int):
        raise InputError(f"solution: game_seed {game_seed!r}: expected a whole number")
    turns = solution.get("turns", options.get("turns", DEFAULT_TURNS))
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 0:
        raise InputError(f"solution: turns {turns!r}: expected a whole number of at least 0")
    return game_seed, turns


def load_player_option(player: Any) -> Player:
    """The player of a game's options; a name recorded for a Python function is refused clearly."""
    if isinstance(player, str) and not isinstance(getattr(player, "player", None), Player):
        if "." in player and ":" not in player and not player.endswith(".py"):
            raise InputError(f"player {shown(player, 80)}: not a built-in player nor a file; it looks "
                             "like the name a game records for a player given as a Python function, which "
                             "cannot be loaded again by name. Replay such a game in Python with the "
                             "function itself (ratrace.GAME.check(track, solution, player=fn, turns=N)), "
                             "or give the player as path/to/file.py:name")
    return as_player(player)


def guard_of(options: Mapping[str, Any]) -> Guard:
    """The limits the player of a game's options plays under (the defaults for a plain name)."""
    guard = getattr(options.get("player"), "guard", None)
    return guard if isinstance(guard, Guard) else Guard()


def replay_player(options: Mapping[str, Any]) -> Player:
    """The player a replay plays (InputError when the options name none)."""
    if options.get("player") is None:
        raise InputError("ratrace: replaying a game needs its player (--player NAME|FILE.py:NAME, "
                         "or player=... in Python; a `solve --json` result holds it in its options)")
    return load_player_option(options["player"])


def _turn_range(value: Any, turns: int) -> tuple[int, int]:
    """(first, last) turn to show: all of ``0:turns`` unless ``value`` (``"FROM:TO"`` or a pair) says."""
    if value is None:
        return 0, turns
    text = value if isinstance(value, str) else ":".join(str(v) for v in value)
    match = re.fullmatch(r"\s*(\d*)\s*:\s*(\d*)\s*", text)
    if match is None:
        raise InputError(f"--turn-range {text!r}: expected FROM:TO, whole numbers (either may be left out)")
    first = int(match.group(1)) if match.group(1) else 0
    last = min(int(match.group(2)), turns) if match.group(2) else turns
    if first > last:
        raise InputError(f"--turn-range {text!r}: the game shown has turns 0 to {turns:,}; "
                         f"from {first:,} to {last:,} is empty")
    return first, last


GAME = RatRaceGame()


def picture(board: Track, result: Result, colour: bool = False) -> str:
    """``solve --show``: the track the game was played on (plain text, with or without ``colour``)."""
    return render_track(board)
