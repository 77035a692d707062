"""The champion with other parameters (decoding table, wander rate), as the tuning script plays it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from gridsolver.ratrace import beliefs, reference
from gridsolver.ratrace.controller import play_on_track
from gridsolver.ratrace.generate import generate_track
from gridsolver.ratrace.kernels import planner
from gridsolver.ratrace.players import Player, as_player, champion
from tests.ratrace.test_champion import PLAIN, genome, moves, view

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from tune_ratrace_champion import VARIANTS, Variant, make_player, pairs, summary  # noqa: E402


def test_the_table_holds_classify_for_every_code():
    table = planner.decode_table()
    assert table.shape == (64, 3)
    for code in range(64):
        assert tuple(table[code]) == planner.classify(code)
        assert reference.classify_reference(code << (6 * 5), 5) == planner.classify(code)
    assert np.array_equal(planner.DECODE, table)


def test_plan_reads_beliefs_from_the_table_it_is_given():
    # Colour 1 is plain under the champion's decoding, so the rat walks right; a table calling
    # that code "never step" boxes it in, and its best step is then a bold one.
    v = view(["11111"] * 5)
    g = genome({})
    assert moves(planner.plan_decoded(v, g, planner.DECODE)[0]) == {(1, -1), (1, 0), (1, 1)}
    table = planner.decode_table()
    table[PLAIN] = (beliefs.KIND_AVOID, 0, 0)
    best, safe, bold = planner.plan_decoded(v, g, table)
    assert best == 0 and moves(safe) == {(0, 0)} and moves(bold) == {(1, -1), (1, 0), (1, 1)}
    assert reference.plan_reference(v, g, table) == (best, safe, bold)


def test_kernel_matches_the_reference_under_random_tables():
    rng = np.random.default_rng(18)
    for _ in range(300):
        table = np.zeros((64, 3), np.int64)
        table[:, 0] = rng.integers(0, 4, 64)
        table[:, 1] = rng.integers(-1, 3, 64)
        table[:, 2] = rng.integers(-4, 4, 64)
        trap = table[:, 0] == beliefs.KIND_TRAP  # a trap's lethal cell is a neighbour
        table[trap, 1:] = rng.integers(-1, 2, (int(trap.sum()), 2))
        tele = table[:, 0] == beliefs.KIND_TELEPORT
        table[tele, 1] = rng.integers(1, 3, int(tele.sum()))
        table[table[:, 0] < beliefs.KIND_TRAP, 1:] = 0
        for _ in range(10):
            v = rng.integers(0, 16, size=(5, 5)).astype(np.int64)
            if rng.random() < 0.3:
                v[: rng.integers(1, 3)] = -1
            g = rng.integers(0, 2**63, size=2, dtype=np.int64).astype(np.uint64)
            expected = reference.plan_reference(v, g, table)
            assert planner.plan_decoded(v, g, table) == expected, (v.tolist(), table.tolist())


def test_make_player_checks_the_table_shape():
    with pytest.raises(ValueError, match="shape"):
        make_player(np.zeros((16, 3), np.int64), 0.1)


@pytest.mark.slow
def test_the_champions_own_parameters_play_the_champions_games():
    # The tuning script's player with the champion's table and wander rate is the champion.
    track = generate_track(5)
    own = play_on_track(as_player("champion"), track, 12, 400)
    variant = VARIANTS["hamming"]
    made = Player("tuned", make_player(variant.decode(), variant.wander), "numba")
    assert not made.builtin  # its game loop is never cached on disk (see make_player)
    again = play_on_track(made, track, 12, 400)
    assert (again.points, again.alive, again.rat_moves) == (own.points, own.alive, own.rat_moves)


@pytest.mark.slow
def test_two_variants_in_one_process_play_their_own_games():
    # Two players from the same factory in one process must not share compiled code.
    track = generate_track(5)
    results = []
    for name in ("before", "no-avoid", "before"):
        variant = VARIANTS[name]
        player = Player(name, make_player(variant.decode(), variant.wander), "numba")
        game = play_on_track(player, track, 12, 400)
        results.append((game.points, game.alive, game.rat_moves))
    assert results[0] == results[2] != results[1]


def test_the_champion_is_the_hamming_variant():
    # The hamming layout was adopted (docs/research/ratrace.md); the script builds its
    # table on its own, and "before" keeps the old layout so earlier comparisons reproduce.
    assert np.array_equal(VARIANTS["hamming"].decode(), planner.DECODE)
    assert VARIANTS["hamming"].wander == champion.WANDER
    before = VARIANTS["before"].decode()
    assert not np.array_equal(before, planner.DECODE)
    assert (tuple(before[0]) == (beliefs.KIND_PLAIN, 0, 0)
            and tuple(before[2 | (4 << 2)]) == (beliefs.KIND_AVOID, 0, 0))
    assert tuple(before[3 | (5 << 2)]) == (beliefs.KIND_TELEPORT, 2, -2)


def test_named_variants_change_only_what_they_say():
    base = VARIANTS["before"].decode()
    avoid8 = VARIANTS["more-avoid"].decode()
    changed = [code for code in range(64) if tuple(avoid8[code]) != tuple(base[code])]
    assert changed == [1 | (p << 2) for p in range(8, 16)]
    assert all(avoid8[code, 0] == beliefs.KIND_AVOID for code in changed)
    fewer = VARIANTS["fewer-avoid"].decode()
    changed = [code for code in range(64) if tuple(fewer[code]) != tuple(base[code])]
    assert changed == [2 | (p << 2) for p in range(12, 16)]
    assert all(fewer[code, 0] == beliefs.KIND_PLAIN for code in changed)
    far = VARIANTS["plain-far-teleports"].decode()
    changed = [code for code in range(64) if tuple(far[code]) != tuple(base[code])]
    assert {int(base[code, 2]) for code in changed} == {-4, 3} and len(changed) == 4
    short = Variant(short_teleports=True).decode()
    kinds = [int(short[3 | (p << 2), 0]) for p in range(16)]
    assert kinds == [beliefs.KIND_TELEPORT] * 10 + [beliefs.KIND_AVOID] * 6
    assert {int(short[3 | (p << 2), 2]) for p in range(10)} == {-2, -1, 0, 1, 2}
    for name in ("doubt8", "doubt4", "doubt8-bit"):  # the rule changes, not the decoding
        assert np.array_equal(VARIANTS[name].decode(), base)


def test_pairs_and_paired_ratio():
    assert list(pairs(3000, 2, 2)) == [(3000, 3007), (3000, 4007), (3001, 3008), (3001, 4008)]
    reference = {(1, 8): 1, (2, 9): 1000, (3, 10): 10}
    doubled = {k: 2 * p for k, p in reference.items()}
    assert "ratio 2.00 (2.00-2.00)" in summary(doubled, reference)
    assert "take-off  33.3%  at 1-2  33.3%  geometric mean      21.5" in summary(reference, None)


@pytest.mark.slow
def test_rule_variants_play_reproducible_games_of_their_own():
    # A doubting variant draws extra random numbers: same pair, same game; not the champion's.
    track = generate_track(5)
    own = play_on_track(as_player("champion"), track, 12, 400)
    for name in ("doubt8", "doubt8-bit"):
        variant = VARIANTS[name]
        games = []
        for _ in range(2):
            made = make_player(variant.decode(), variant.wander, variant.doubt, variant.doubt_bit)
            game = play_on_track(Player(name, made, "numba"), track, 12, 400)
            games.append((game.points, game.alive, game.rat_moves))
        assert games[0] == games[1] != (own.points, own.alive, own.rat_moves)


def _neighbours(code: int) -> list[int]:
    return [code ^ (1 << bit) for bit in range(6)]


@pytest.mark.parametrize("name", ["hamming", "spread", "quiet"])
def test_layouts_describe_valid_beliefs_and_put_never_step_one_flip_from_plain(name):
    from tune_ratrace_champion import flip_stats

    table = VARIANTS[name].decode()
    kinds = table[:, 0].tolist()
    assert kinds.count(beliefs.KIND_TRAP) == 8 and kinds.count(beliefs.KIND_TELEPORT) == 16
    traps = {(int(r[1]), int(r[2])) for r in table if r[0] == beliefs.KIND_TRAP}
    assert len(traps) == 8 and (0, 0) not in traps and all(max(map(abs, t)) == 1 for t in traps)
    jumps = {(int(r[1]), int(r[2])) for r in table if r[0] == beliefs.KIND_TELEPORT}
    assert jumps == {(dx, dy) for dx in (1, 2) for dy in range(-4, 4)}  # the champion's range
    assert all(tuple(r[1:]) == (0, 0) for r in table if r[0] in (beliefs.KIND_PLAIN, beliefs.KIND_AVOID))
    plain = [c for c in range(64) if kinds[c] == beliefs.KIND_PLAIN]
    near_avoid = [c for c in plain if any(kinds[d] == beliefs.KIND_AVOID for d in _neighbours(c))]
    stats = flip_stats(table)
    if name == "spread":  # 4 never-step codes cover 24 of the 36 plain ones
        assert len(plain) == 36 and len(near_avoid) == 24
    else:
        assert len(plain) == 32 and near_avoid == plain
        assert stats["plain->avoid"] >= 1
    assert flip_stats(VARIANTS["before"].decode())["plain->avoid"] == 0.25  # the champion's


def test_kernel_matches_the_reference_under_the_layouts():
    rng = np.random.default_rng(5)
    for name in ("hamming", "spread", "quiet"):
        table = VARIANTS[name].decode()
        for _ in range(200):
            v = rng.integers(0, 16, size=(5, 5)).astype(np.int64)
            g = rng.integers(0, 2**63, size=2, dtype=np.int64).astype(np.uint64)
            assert planner.plan_decoded(v, g, table) == reference.plan_reference(v, g, table)
