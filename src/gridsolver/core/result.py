"""One result record for every solver, printed for people or as JSON.

A :class:`SolveResult` says what was solved, the solution, its score, and,
above all, how much is known about it: ``status`` is one of

- ``optimal``: proved best; ``proof`` says under which bound;
- ``impossible``: proved to have no solution of the asked kind (e.g. a
  Clickomania board that cannot be cleared, a peg finish that cannot be reached);
- ``unsolvable``: the input cannot be solved at all, found before searching
  (e.g. a Hopping Bunny square no program can reach);
- ``best-found``: the best solution found within the budget, not proved;
- ``no-solution-found``: the budget ran out before any solution was found.

``verified`` is True only when the solution was replayed under the game's
rules and reached the reported score; solvers must not report otherwise.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

STATUSES = ("optimal", "impossible", "unsolvable", "best-found", "no-solution-found")
PROVED_STATUSES = ("optimal", "impossible", "unsolvable")


@dataclass
class SearchStats:
    """How much work a search did."""

    nodes: int = 0
    elapsed_s: float = 0.0
    peak_memory_mb: float = 0.0
    stopped_by: str | None = None  # "time", "memory", "nodes" or None (finished)

    @property
    def nodes_per_s(self) -> float:
        return self.nodes / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["nodes_per_s"] = round(self.nodes_per_s, 1)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SearchStats:
        known = {k: data[k] for k in ("nodes", "elapsed_s", "peak_memory_mb", "stopped_by")
                 if k in data}
        return cls(**known)


@dataclass
class SolveResult:
    """What a solver found for one input."""

    game: str
    input: str
    status: str
    solution: Any = None
    score: float | int | None = None
    score_name: str = "score"
    proof: str = ""
    verified: bool = False
    stats: SearchStats = field(default_factory=SearchStats)
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}; expected one of {STATUSES}")

    @property
    def proved(self) -> bool:
        return self.status in PROVED_STATUSES

    # -- JSON ---------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "input": self.input,
            "status": self.status,
            "proved": self.proved,
            "solution": self.solution,
            "score": self.score,
            "score_name": self.score_name,
            "proof": self.proof,
            "verified": self.verified,
            "stats": self.stats.to_dict(),
            "details": self.details,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), default=_jsonable)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SolveResult:
        return cls(
            game=data["game"],
            input=data["input"],
            status=data["status"],
            solution=data.get("solution"),
            score=data.get("score"),
            score_name=data.get("score_name", "score"),
            proof=data.get("proof", ""),
            verified=data.get("verified", False),
            stats=SearchStats.from_dict(data.get("stats", {})),
            details=data.get("details", {}),
        )

    @classmethod
    def from_json(cls, text: str) -> SolveResult:
        return cls.from_dict(json.loads(text))

    # -- text for people ----------------------------------------------------
    def to_text(self) -> str:
        """A few lines for people; games put long renderings in ``details['display']``."""
        lines = [f"{self.input}: {self.status}"
                 + ("" if self.score is None else f", {self.score_name} {self.score}")]
        if self.solution is not None:
            solution = self.solution
            if isinstance(solution, list | tuple):
                solution = " ".join(str(s) for s in solution)
            lines.append(f"  solution: {solution}")
        if self.proof:
            lines.append(f"  proof: {self.proof}")
        for key, value in self.details.items():
            if key == "display":
                continue
            lines.append(f"  {key.replace('_', ' ')}: {_short(value)}")
        s = self.stats
        stop = f", stopped by {s.stopped_by}" if s.stopped_by else ""
        lines.append(
            f"  search: {s.nodes:,} nodes in {s.elapsed_s:.3f} s "
            f"({_si(s.nodes_per_s)} nodes/s), peak memory {s.peak_memory_mb:.0f} MB{stop}"
            + ("" if self.verified or self.solution is None else ", NOT VERIFIED")
        )
        display = self.details.get("display")
        if display:
            lines.append(str(display).rstrip("\n"))
        return "\n".join(lines)


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
