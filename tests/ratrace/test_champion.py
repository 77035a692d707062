"""The champion player: its genome decoding, its decisions on hand-made views, and a short game."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from gridsolver.ratrace import beliefs, reference
from gridsolver.ratrace.kernels import planner
from gridsolver.ratrace.players import champion

PLAIN = planner.code_for(beliefs.KIND_PLAIN)
AVOID = planner.code_for(beliefs.KIND_AVOID)  # never step here


def trap(dx: int, dy: int) -> int:
    """The 6-bit code of a trap whose lethal cell is at (dx, dy)."""
    return planner.code_for(beliefs.KIND_TRAP, dx, dy)


def teleport(dx: int, dy: int) -> int:
    """The 6-bit code of a teleporter (dx in 1..2, dy in -4..3)."""
    return planner.code_for(beliefs.KIND_TELEPORT, dx, dy)


def genome(codes: dict[int, int]) -> np.ndarray:
    """A genome whose colour chunks hold ``codes`` (other colours: plain; bits 96-99 clear)."""
    bits = 0
    for colour in range(16):
        bits |= codes.get(colour, PLAIN) << (6 * colour)
    return np.array([bits & (2**64 - 1), bits >> 64], dtype=np.uint64)


def trusting(g: np.ndarray) -> np.ndarray:
    """``g`` with bit 98 set: it trusts teleporter landings on the view's border."""
    g = g.copy()
    g[1] |= np.uint64(1 << 34)
    return g


def view(rows: list[str]) -> np.ndarray:
    """A view from 5 strings of 5 characters: hex colour digits, '-' outside the track."""
    return np.array([[-1 if ch == "-" else int(ch, 16) for ch in row] for row in rows], dtype=np.int64)


def moves(mask: int) -> set[tuple[int, int]]:
    return {(i % 3 - 1, i // 3 - 1) for i in range(9) if (mask >> i) & 1}


def best(v: np.ndarray, g: np.ndarray) -> set[tuple[int, int]]:
    return moves(planner.plan(v, g)[0])


OPEN = ["00000"] * 5


def test_genome_chunks_cross_the_word_boundary():
    # Colour 10 owns bits 60..65: four in the first word, two in the second.
    g = genome({10: 0b101101, 3: 0b010011})
    assert planner.colour_code(g, 10) == 0b101101
    assert planner.colour_code(g, 3) == 0b010011
    assert planner.colour_code(g, 11) == PLAIN


def _kinds() -> list[int]:
    return [planner.classify(code)[0] for code in range(64)]


def test_codes_decode_to_the_documented_kinds():
    # The syndrome under the parity check is the kind: 0 never step, 1-4 plain, 5-6 teleporter, 7 trap.
    assert planner.classify(0) == (beliefs.KIND_AVOID, 0, 0)
    assert planner.classify(0b111000) == (beliefs.KIND_AVOID, 0, 0)  # columns 3, 5, 6 cancel
    assert planner.classify(0b000001) == (beliefs.KIND_PLAIN, 0, 0)  # syndrome 1
    assert planner.classify(0b000011) == (beliefs.KIND_PLAIN, 0, 0)  # syndrome 1 ^ 2 = 3
    assert planner.classify(0b000101) == (beliefs.KIND_TELEPORT, 1, -4)  # syndrome 5, param 0
    assert planner.classify(0b111110) == (beliefs.KIND_TELEPORT, 2, 3)  # 2^4 ^ 3^5^6 = 6, param 7
    assert planner.classify(0b000111) == (beliefs.KIND_TRAP, -1, -1)  # syndrome 7, param 0
    assert planner.classify(0b111111) == (beliefs.KIND_TRAP, 1, 1)  # 7 ^ 3^5^6 = 7, param 7
    kinds = _kinds()
    assert kinds.count(beliefs.KIND_AVOID) == 8 and kinds.count(beliefs.KIND_PLAIN) == 32
    assert kinds.count(beliefs.KIND_TRAP) == 8 and kinds.count(beliefs.KIND_TELEPORT) == 16


def test_every_trap_offset_and_teleporter_jump_has_one_code():
    traps = [planner.classify(c)[1:] for c in range(64) if planner.classify(c)[0] == beliefs.KIND_TRAP]
    assert sorted(traps) == sorted((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
    jumps = [planner.classify(c)[1:] for c in range(64) if planner.classify(c)[0] == beliefs.KIND_TELEPORT]
    assert sorted(jumps) == [(dx, dy) for dx in (1, 2) for dy in range(-4, 4)]
    for dx, dy in traps:
        assert planner.classify(trap(dx, dy)) == (beliefs.KIND_TRAP, dx, dy)
    for dx, dy in jumps:
        assert planner.classify(teleport(dx, dy)) == (beliefs.KIND_TELEPORT, dx, dy)
    assert (planner.classify(PLAIN) == (beliefs.KIND_PLAIN, 0, 0)
            and planner.classify(AVOID) == (beliefs.KIND_AVOID, 0, 0))
    for bad in ((beliefs.KIND_TRAP, 0, 0), (beliefs.KIND_TELEPORT, 3, 0), (beliefs.KIND_TELEPORT, 1, 4),
                (beliefs.KIND_PLAIN, 1, 0)):
        with pytest.raises(ValueError):
            planner.code_for(*bad)


def test_every_plain_code_is_one_flip_from_exactly_one_never_step_code():
    # So a wall the whole population believes plain is one mutation from being learnt.
    kinds = _kinds()
    avoid = [c for c in range(64) if kinds[c] == beliefs.KIND_AVOID]
    assert all(bin(a ^ b).count("1") >= 3 for a in avoid for b in avoid if a != b)
    for code in range(64):
        if kinds[code] == beliefs.KIND_PLAIN:
            flips = [code ^ (1 << bit) for bit in range(6)]
            assert sum(kinds[f] == beliefs.KIND_AVOID for f in flips) == 1, code


def test_open_ground_goes_forward():
    assert best(view(OPEN), genome({})) == {(1, -1), (1, 0), (1, 1)}


def test_never_steps_on_a_colour_it_avoids():
    v = view(["00000", "00010", "00010", "00000", "00000"])
    assert best(v, genome({1: AVOID})) == {(1, 1)}


def test_steps_around_a_cell_a_visible_trap_makes_lethal():
    # Colour 2 at (dx 0, dy -1) is a trap killing the cell to its right: (1, -1).
    v = view(["00000", "00200", "00000", "00000", "00000"])
    assert best(v, genome({2: trap(1, 0)})) == {(1, 0), (1, 1)}
    # With a genome that thinks colour 2 harmless, (1, -1) is fine again.
    assert best(v, genome({})) == {(1, -1), (1, 0), (1, 1)}


def test_never_steps_outside_the_track():
    v = view(["-----", "-----", "00000", "00000", "00000"])
    for wander in (False, True):
        mask = planner.choose(v, genome({}), wander)
        assert all(dy >= 0 for _, dy in moves(mask))


def test_goes_around_a_wall_toward_the_far_column():
    # A wall of colour 1 right ahead, open only at the bottom: the first step is down-right.
    v = view(["00010", "00010", "00010", "00000", "00000"])
    assert best(v, genome({1: AVOID})) == {(1, 1)}


def test_walks_back_when_the_only_way_forward_is_behind():
    # Columns 3 and 4 are reachable only through the cell behind and below the rat.
    v = view(["11111", "11111", "11011", "10111", "00000"])
    assert best(v, genome({1: AVOID})) == {(-1, 1)}


def test_takes_a_teleporter_whose_landing_is_ahead_and_safe():
    # Colour 3 at (1, -1) jumps (1, +1): it lands at (2, 0), the far column in one step.
    # That landing is on the view's border: only a genome with bit 98 trusts it.
    v = view(["00000", "00030", "00000", "00000", "00000"])
    assert best(v, trusting(genome({3: teleport(1, 1)}))) == {(1, -1)}
    assert (1, -1) not in best(v, genome({3: teleport(1, 1)}))


def test_refuses_a_teleporter_landing_on_a_lethal_cell():
    v = view(["00000", "00030", "00001", "00000", "00000"])
    g = genome({3: teleport(1, 1), 1: AVOID})
    # (1, -1) would land on the colour-1 cell at (2, 0): neither best nor safe.
    best_mask, safe_mask, _ = planner.plan(v, g)
    assert (1, -1) not in moves(best_mask)
    assert (1, -1) not in moves(safe_mask)


def test_an_out_of_view_landing_is_only_a_last_resort():
    # Colour 3 jumps 2 forward: out of view, unchecked.
    g = genome({3: teleport(2, 0), 1: AVOID})
    v = view(["00000", "00030", "00000", "00000", "00000"])
    assert (1, -1) not in best(v, g)
    # Boxed in except for the teleporter: then it is the bold choice.
    boxed = view(["11111", "11131", "11011", "11111", "11111"])
    best_mask, _, bold = planner.plan(boxed, g)
    assert best_mask == 0
    assert (1, -1) in moves(bold)
    assert moves(planner.choose(boxed, g, False)) == moves(bold)


def test_a_boxed_in_rat_steps_forward_onto_doubtful_cells_not_lethal_ones():
    # Everything is "never step", and a trap makes (1, 1) surely lethal.
    v = view(["11111", "11111", "11111", "11211", "11111"])
    g = genome({1: AVOID, 2: trap(1, 0)})
    mask = planner.choose(v, g, False)
    assert moves(mask) == {(1, -1), (1, 0)}


@njit
def _seed_numba(seed: int) -> None:
    np.random.seed(seed)  # numba's generator, the one champion draws from


def test_champion_draws_best_moves_mostly_and_never_a_believed_deadly_one():
    _seed_numba(3)
    v = view(["00000", "00100", "00000", "00000", "00000"])
    g = genome({1: AVOID})
    draws = [champion.champion(v, g) for _ in range(3000)]
    best_moves = best(v, g)
    assert best_moves == {(1, -1), (1, 0), (1, 1)}
    on_best = sum(move in best_moves for move in draws)
    assert 0.9 * len(draws) < on_best < len(draws)  # mostly best, sometimes a wandering step
    assert (0, -1) not in draws  # the colour-1 cell above the rat is "never step"


views = st.lists(st.integers(-1, 15), min_size=25, max_size=25).map(
    lambda cells: np.array(cells, dtype=np.int64).reshape(5, 5))
genomes = st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**36 - 1)).map(
    lambda words: np.array(words, dtype=np.uint64))


@settings(max_examples=400, deadline=None)
@given(views, genomes)
def test_kernel_matches_the_python_reference(v, g):
    v[2, 2] = max(v[2, 2], 0)  # the rat stands inside the track
    assert planner.plan(v, g) == reference.plan_reference(v, g)


@settings(max_examples=200, deadline=None)
@given(views, genomes)
def test_best_and_safe_moves_never_enter_believed_lethal_cells(v, g):
    v[2, 2] = max(v[2, 2], 0)
    best_mask, safe_mask, _ = planner.plan(v, g)
    bits = int(g[0]) | (int(g[1]) << 64)
    lethal = set()
    for r in range(5):
        for k in range(5):
            if v[r, k] < 0:
                lethal.add((r, k))
                continue
            kind, dx, dy = reference.classify_reference(bits, int(v[r, k]))
            if kind == beliefs.KIND_AVOID:
                lethal.add((r, k))
            elif kind == beliefs.KIND_TRAP:
                lethal.add((r + dy, k + dx))
    for dx, dy in moves(best_mask | safe_mask):
        if (dx, dy) != (0, 0):
            assert (dy + 2, dx + 2) not in lethal


@pytest.mark.slow  # 5-10 s of games
def test_champion_scores_more_than_colour_score_in_short_games():
    # One game is a lottery (a population takes off or not), so compare geometric means over
    # eight tracks (seeds 1-8, about 6 s).
    from gridsolver.ratrace.controller import play_game
    from gridsolver.ratrace.players import load_player
    from gridsolver.ratrace.tournament import geometric_mean

    seeds = range(1, 9)
    champion = [play_game(load_player("champion"), seed, turns=2000).points for seed in seeds]
    baseline = [play_game(load_player("colour-score"), seed, turns=2000).points for seed in seeds]
    assert geometric_mean(champion) > 2 * geometric_mean(baseline), (champion, baseline)
