"""One result type for every game, printed for people or as JSON.

A :class:`Result` says what was solved, the solution, its score and, above
all, how much is known about it. ``status`` is one of:

- ``optimal``: proved best; ``proof`` says under which bounds;
- ``impossible``: proved to have no solution of the asked kind (a Hopping
  Bunny square no program can reach, a Clickomania board that cannot be
  cleared, a peg finish that cannot be reached);
- ``best-found``: the best solution found, not proved best;
- ``not-found``: the search stopped before it found any solution;
- ``played``: a simulation (a rat race game or tournament) ran; its score is
  measured, there is nothing to prove;
- ``failed``: the user's code broke the game (a rat race player that raised,
  looped or moved illegally); ``details["error"]`` says how.

``stopped`` says why a search ended early: ``time``, ``memory``, ``nodes``
or ``interrupted`` (None when it finished on its own).

``verified`` cannot be passed in: it is False until
:func:`gridsolver.core.game.verify` replays the solution under the game's
rules and reaches the reported score. A result read back from JSON starts
unverified for the same reason.

The JSON form (:meth:`Result.to_dict`) has the same keys for every game and a
``schema`` version; docs/contract.md documents it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

SCHEMA_VERSION = 1
STATUSES = ("optimal", "impossible", "best-found", "not-found", "played", "failed")
PROVED_STATUSES = ("optimal", "impossible")
STOP_REASONS = ("time", "memory", "nodes", "interrupted")


@dataclass
class Stats:
    """How much work a search did."""

    nodes: int = 0
    elapsed_s: float = 0.0
    peak_memory_mb: float = 0.0
    compile_s: float = 0.0  # kernel compilation on a first run, not part of elapsed_s when known

    @property
    def nodes_per_s(self) -> float:
        return self.nodes / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["nodes_per_s"] = round(self.nodes_per_s, 1)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Stats:
        known = {k: data[k] for k in ("nodes", "elapsed_s", "peak_memory_mb", "compile_s") if k in data}
        return cls(**known)


@dataclass
class Result:
    """What a solver found for one board."""

    game: str
    input: str
    status: str
    solution: Any = None
    score: float | int | None = None
    score_name: str = "score"
    proof: str = ""
    stopped: str | None = None
    stats: Stats = field(default_factory=Stats)
    details: dict[str, Any] = field(default_factory=dict)
    #: the board as the game formats it, so the JSON can be replayed on its own
    board: str | None = None
    #: the solve options that define the objective (e.g. the pegs finish hole)
    options: dict[str, Any] = field(default_factory=dict)
    verified: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}; expected one of {', '.join(STATUSES)}")
        if self.stopped is not None and self.stopped not in STOP_REASONS:
            raise ValueError(f"unknown stop reason {self.stopped!r}; "
                             f"expected one of {', '.join(STOP_REASONS)}")

    @property
    def proved(self) -> bool:
        return self.status in PROVED_STATUSES

    @property
    def solved(self) -> bool:
        """A solution of the asked kind was found (optimal or not), or the simulation ran."""
        return self.status in ("optimal", "best-found", "played")

    # -- JSON ---------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "game": self.game,
            "input": self.input,
            "status": self.status,
            "stopped": self.stopped,
            "proved": self.proved,
            "solution": self.solution,
            "score": self.score,
            "score_name": self.score_name,
            "proof": self.proof,
            "verified": self.verified,
            "board": self.board,
            "options": self.options,
            "stats": self.stats.to_dict(),
            "details": {k: v for k, v in self.details.items() if k != "display"},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), default=_jsonable)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        """A result read back; ``verified`` is not taken on trust (replay it with ``verify``)."""
        from gridsolver.core.errors import InputError

        schema = data.get("schema")
        if schema != SCHEMA_VERSION:
            raise InputError(f"result schema {schema!r} is not supported (this gridsolver reads "
                             f"schema {SCHEMA_VERSION})")
        try:
            return cls(
                game=str(data["game"]),
                input=str(data["input"]),
                status=str(data["status"]),
                solution=data.get("solution"),
                score=data.get("score"),
                score_name=str(data.get("score_name", "score")),
                proof=str(data.get("proof", "")),
                stopped=data.get("stopped"),
                stats=Stats.from_dict(dict(data.get("stats") or {})),
                details=dict(data.get("details") or {}),
                board=data.get("board"),
                options=dict(data.get("options") or {}),
            )
        except KeyError as exc:
            raise InputError(f"result: missing key {exc.args[0]!r}") from None
        except (ValueError, TypeError) as exc:
            raise InputError(f"result: {exc}") from None

    @classmethod
    def from_json(cls, text: str) -> Result:
        from gridsolver.core.errors import InputError

        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            where = f"line {exc.lineno}, column {exc.colno}"
            raise InputError(f"result: not JSON ({exc.msg} at {where})") from None
        except RecursionError:
            raise InputError("result: JSON nested too deeply to be a result") from None
        except ValueError as exc:  # e.g. a number of over 4,300 digits
            raise InputError(f"result: not JSON ({str(exc)[:100]})") from None
        if not isinstance(data, dict):
            raise InputError("result: expected a JSON object")
        return cls.from_dict(data)

    # -- text for people ----------------------------------------------------
    def to_text(self) -> str:
        """A few lines for people; games put long renderings in ``details['display']``."""
        head = f"{self.input}: {self.status}"
        if self.score is not None:
            head += f", {self.score_name} {self.score}"
        if self.stopped:
            head += f" (stopped: {self.stopped})"
        lines = [head]
        if self.solution is not None:
            solution = self.solution
            if isinstance(solution, list | tuple):
                solution = " ".join(_move_text(s) for s in solution)
            elif isinstance(solution, dict):  # e.g. the rat race's {"game_seed": S, "turns": T}
                solution = ", ".join(f"{key.replace('_', ' ')} {_short(value)}"
                                     for key, value in solution.items())
            lines.append(f"  solution: {solution}")
        if self.proof:
            lines.append(f"  proof: {self.proof}")
        for key, value in self.details.items():
            if key == "display":
                continue
            lines.append(f"  {key.replace('_', ' ')}: {_short(value)}")
        s = self.stats
        compile_note = f", {s.compile_s:.1f} s compiling kernels" if s.compile_s >= 0.05 else ""
        check = ""
        if self.solution is not None:
            check = ", replay verified" if self.verified else ", NOT VERIFIED"
        lines.append(
            f"  search: {s.nodes:,} nodes in {s.elapsed_s:.3f} s "
            f"({_si(s.nodes_per_s)} nodes/s), peak memory {s.peak_memory_mb:.0f} MB{compile_note}{check}"
        )
        display = self.details.get("display")
        if display:
            lines.append(str(display).rstrip("\n"))
        return "\n".join(lines)


def _move_text(move: Any) -> str:
    if isinstance(move, list | tuple):
        return ",".join(str(v) for v in move)
    return str(move)


def _si(value: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= size:
            return f"{value / size:.2f}{unit}"
    return f"{value:.0f}"


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=_jsonable)
    return text if len(text) <= 200 else text[:197] + "..."


def _jsonable(value: Any) -> Any:
    """JSON for numpy scalars and arrays that slip into details."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")
