"""Tournament results as :class:`~gridsolver.core.result.SolveResult` records.

A game is not a search, so the record is used as follows: ``score`` is the
game's points (the summary's is the geometric mean), ``status`` is
``best-found`` (points reached, nothing to prove) and there is no solution
to replay. The game's own figures go in ``details`` and ``stats`` (nodes are
rat-moves).
"""

from __future__ import annotations

from gridsolver.core.result import SearchStats, SolveResult
from gridsolver.ratrace.game import GameResult, geometric_mean


def track_result(number: int, game: GameResult) -> SolveResult:
    cut = game.ended if game.ended in ("time", "memory", "nodes") else None
    return SolveResult(
        game="ratrace",
        input=f"track {number} (seed {game.seed})",
        status="best-found",
        score=game.points,
        score_name="points",
        stats=SearchStats(nodes=game.rat_moves, elapsed_s=round(game.elapsed_s, 4), stopped_by=cut),
        details={
            "player": game.player,
            "seed": game.seed,
            "turns": game.turns,
            "alive": game.alive,
            "peak_rats": game.peak_rats,
            "ended": game.ended,
            "rat_moves_per_s": round(game.rat_moves_per_s),
            "compile_s": round(game.compile_s, 3),
        },
    )


def summary_result(player: str, seed: int, games: list[GameResult]) -> SolveResult:
    points = [g.points for g in games]
    moves = sum(g.rat_moves for g in games)
    elapsed = sum(g.elapsed_s for g in games)
    return SolveResult(
        game="ratrace",
        input=f"tournament {player}: {len(games)} tracks from seed {seed}",
        status="best-found",
        score=round(geometric_mean(points), 3),
        score_name="geometric mean",
        stats=SearchStats(nodes=moves, elapsed_s=round(elapsed, 3)),
        details={
            "player": player,
            "tracks": len(games),
            "points": points,
            "alive": [g.alive for g in games],
            "tracks_at_1_or_2_points": sum(1 for p in points if p <= 2),
            "cut_short": sum(1 for g in games if g.ended in ("time", "memory", "nodes")),
            "rat_moves_per_s": round(moves / elapsed) if elapsed > 0 else 0,
        },
    )


def track_line(number: int, game: GameResult) -> str:
    """One line for people about one track."""
    ended = {"finished": "", "extinct": ", extinct"}.get(game.ended, f", cut short by --{game.ended}")
    return (f"track {number} (seed {game.seed}): {game.points:,} points, {game.alive:,} rats alive "
            f"after {game.turns:,} turns (peak {game.peak_rats:,}){ended}, "
            f"{game.rat_moves:,} rat-moves at {game.rat_moves_per_s / 1e6:.2f}M/s")


def summary_text(player: str, games: list[GameResult]) -> str:
    """The tournament's summary for people."""
    points = [g.points for g in games]
    moves = sum(g.rat_moves for g in games)
    elapsed = sum(g.elapsed_s for g in games)
    low = sum(1 for p in points if p <= 2)
    cut = sum(1 for g in games if g.ended in ("time", "memory", "nodes"))
    lines = [f"{player}: geometric mean {geometric_mean(points):.3f} over {len(games)} tracks "
             f"(median {sorted(points)[len(points) // 2]:,}, best {max(points):,}, "
             f"{low} tracks at 1-2 points)",
             f"  rats alive at the end: {sum(g.alive for g in games):,} in all, "
             f"up to {max(g.alive for g in games):,} on one track",
             f"  {moves:,} rat-moves in {elapsed:.2f} s of game loops: "
             f"{moves / elapsed / 1e6 if elapsed else 0:.2f}M rat-moves/s per worker"]
    if cut:
        lines.append(f"  {cut} games were cut short by the budget (--time/--memory/--nodes)")
    return "\n".join(lines)
