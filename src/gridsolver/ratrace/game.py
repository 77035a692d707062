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
- there is no *solution*: a game is measured, not solved, so
  ``Result.solution`` is None, :meth:`RatRaceGame.replay` raises and
  ``verified`` stays False.

The random streams of a game (first rats, breeding, the player's generator)
are seeded from the track's seed plus the solve ``seed`` (0 by default), so a
solve of ``seed/N`` plays exactly track 1 of ``play --seed N``.

No numba here: the controller is imported when a game starts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gridsolver.core.boards import BoardText
from gridsolver.core.budget import Budget, peak_rss_mb
from gridsolver.core.errors import InputError
from gridsolver.core.game import Game, NamedBoard, Progress, Replayed
from gridsolver.core.result import Result, Stats
from gridsolver.ratrace.players import Player, as_player
from gridsolver.ratrace.rules import MOVES, Track
from gridsolver.ratrace.track import format_track, generate_track, parse_track, render_track

DEFAULT_TURNS = 10_000
SEED_PREFIX = "seed/"
TOURNAMENT = "tournament"
TOURNAMENT_SEEDS = range(50)
CUT_SHORT = ("time", "memory", "nodes")  # the controller's `ended` values that are budget stops
_SEED_NAME = re.compile(r"^-?\d+$")

Move = tuple[int, int]


class PlayerOption(str):
    """The ``player`` option of a game: JSON sees the player's name, the game plays ``.player``.

    A callable cannot go into a result's JSON, so :meth:`RatRaceGame.check_options`
    keeps the loaded player on a string holding its name. Pickled (a result
    sent back by a worker) it becomes that plain name.
    """

    player: Player

    def __new__(cls, player: Player) -> PlayerOption:
        option = super().__new__(cls, player.name)
        option.player = player
        return option

    def __reduce__(self) -> tuple[Any, ...]:
        return (str, (str(self),))


class RatRaceGame(Game[Track, Move]):
    """The rat race: boards are tracks, a solve plays one game of a player (see the module doc)."""

    board_type = Track
    name = "ratrace"
    title = "The Genetic Rat Race: controller, players, tournaments."
    score_name = "points"
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
        number = name.removeprefix(SEED_PREFIX)
        if not _SEED_NAME.match(number):
            raise InputError(f"{name}: expected {SEED_PREFIX}N with N a whole number, e.g. {SEED_PREFIX}3")
        return format_track(generate_track(int(number)))

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
        raise InputError("a rat race result has no solution to replay: a game is played and measured "
                         "(its result stays unverified); play it again with `gridsolver ratrace solve`")

    # -- search ------------------------------------------------------------------------------------
    def check_options(self, board: Track, options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(options) - {"player", "turns"}
        if unknown:
            raise InputError(f"ratrace: unknown option(s) {', '.join(sorted(unknown))} "
                             "(known: player, turns)")
        turns = options.get("turns", DEFAULT_TURNS)
        if isinstance(turns, bool) or not isinstance(turns, int):
            raise InputError(f"--turns {turns!r}: expected a whole number")
        if turns < 0:
            raise InputError(f"--turns must be at least 0, got {turns}")
        if not board.start_cells:
            raise InputError("the track has no start cells: there is nowhere to put a rat")
        checked: dict[str, Any] = {"turns": turns}
        if options.get("player") is not None:  # required by a game (search), not by `check`
            checked["player"] = PlayerOption(as_player(options["player"]))
        return checked

    def search(self, board: Track, budget: Budget, *, seed: int, workers: int, cluster: str | None,
               progress: Progress | None, label: str, options: Mapping[str, Any]) -> Result:
        """Play one game (in this process: ``workers`` does not apply, ``cluster`` is refused)."""
        from gridsolver.ratrace.controller import play_on_track

        if cluster:
            raise InputError("ratrace solve plays one game in this process; use "
                             "`gridsolver ratrace play --cluster` for tournaments on a cluster")
        if options.get("player") is None:
            raise InputError("ratrace: a game needs a player (--player NAME|FILE.py:NAME, "
                             "or player=... in Python)")
        player = as_player(options["player"])
        game_seed = (0 if board.seed is None else board.seed) + seed
        game = play_on_track(player, board, game_seed, options["turns"], budget)
        return Result(
            game=self.name,
            input=label,
            status="played",
            score=game.points,
            score_name=self.score_name,
            stopped=game.ended if game.ended in CUT_SHORT else None,
            stats=Stats(nodes=game.rat_moves, elapsed_s=round(game.elapsed_s, 4),
                        peak_memory_mb=round(peak_rss_mb(), 1), compile_s=round(game.compile_s, 3)),
            details={
                "player": player.name,
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


GAME = RatRaceGame()


def picture(board: Track, result: Result) -> str:
    """``solve --show``: the track the game was played on."""
    return render_track(board)
