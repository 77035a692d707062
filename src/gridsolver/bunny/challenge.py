"""The 12-board challenge: one row per board, scored as the challenge scores it.

A board's score is the token count of a replay-verified program, or five
tokens per square when no verified program was found in time.
"""

from __future__ import annotations

from typing import Any

from gridsolver.bunny.game import GAME
from gridsolver.bunny.rules import Board, board_from_text


def challenge_row(board: Board, name: str, time_s: float, memory_mb: float) -> dict[str, Any]:
    """Solve one board through the contract (so the program is verified by replay)."""
    result = GAME.solve(board, time=time_s, memory=memory_mb, label=name)
    solved = result.solved and result.verified
    return {
        "board": name,
        "squares": board.size,
        "score": result.score if solved else 5 * board.size,
        "status": result.status,
        "seconds": round(result.stats.elapsed_s, 3),
        "program": result.solution if solved else "",
        "proof": result.proof,
        "verified": result.verified,
    }


def challenge_job(job: tuple[str, str, float, float]) -> dict[str, Any]:
    """``challenge_row`` for a parallel map: (board text, name, seconds, megabytes)."""
    text, name, time_s, memory_mb = job
    return challenge_row(board_from_text(text, name), name, time_s, memory_mb)
