"""The numba kernels against the plain-Python reference (hypothesis draws small boards)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridsolver.core.kernels.stops import FOUND
from gridsolver.pegs import generate, reference, rules
from gridsolver.pegs.game import GAME
from gridsolver.pegs.kernels import beam, bitboard, doom
from gridsolver.pegs.layout import Doom, Layout, Ranking


@st.composite
def boards(draw, max_cells: int = 20):
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(2, 6))
    if rows * cols > max_cells:
        cols = max(2, max_cells // rows)
    jump_rule = draw(st.sampled_from(list(rules.JUMP_RULES)))
    cells = draw(st.lists(st.sampled_from("oo.-"), min_size=rows * cols, max_size=rows * cols))
    if "." not in cells:
        cells[draw(st.integers(0, len(cells) - 1))] = "."
    if "o" not in cells:
        cells[0 if cells[0] != "." else -1] = "o"
    board = rules.Board(rows, cols, 0, 0)
    holes = sum(1 << board.index(divmod(i, cols)) for i, ch in enumerate(cells) if ch in "o.")
    pegs = sum(1 << board.index(divmod(i, cols)) for i, ch in enumerate(cells) if ch == "o")
    return rules.Board(rows, cols, holes, pegs, jump_rule)


def kernel_codes(board: rules.Board) -> list[int]:
    layout = Layout.of(board)
    out = np.zeros(layout.words * 64 * len(layout.offsets), dtype=np.int32)
    scratch = np.zeros((3, layout.words), dtype=np.uint64)
    n = bitboard.generate(layout.to_words(board.pegs), layout.holes, layout.offsets, out, scratch)
    return sorted(int(c) for c in out[:n])


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(boards(max_cells=30))
def test_jump_generation_matches_reference(board):
    assert kernel_codes(board) == reference.jump_codes(board)


def test_jump_generation_on_a_multi_word_board():
    board = generate.random_board(30, 30, 0.7, seed=11)  # 930 bits: 15 words
    assert kernel_codes(board) == reference.jump_codes(board)
    triangle = generate.random_board(30, 30, 0.5, seed=12).with_jumps("triangular")
    assert kernel_codes(triangle) == reference.jump_codes(triangle)


def test_fetch_shifts_across_words():
    src = np.array([0x8000000000000001, 0x1, 0x0], dtype=np.uint64)
    dst = np.zeros(3, dtype=np.uint64)
    bitboard.fetch(src, 1, dst)  # dst bit i = src bit i + 1
    assert [int(x) for x in dst] == [0x4000000000000000 | (1 << 63), 0, 0]
    bitboard.fetch(src, -64, dst)
    assert [int(x) for x in dst] == [0, 0x8000000000000001, 1]


@SETTINGS
@given(boards(max_cells=16))
def test_most_jumps_matches_reference(board):
    result = GAME.solve(board, objective="jumps", time=30)
    assert result.status == "optimal" and result.verified
    assert result.score == reference.most_jumps(board)


@SETTINGS
@given(boards(max_cells=16), st.data())
def test_finish_matches_reference(board, data):
    finish = data.draw(st.sampled_from(board.hole_cells()))
    result = GAME.solve(board, objective="finish", finish=finish, time=30)
    expected = reference.can_finish(board, board.index(finish))
    assert result.status == ("optimal" if expected else "impossible")
    assert result.verified == expected


@SETTINGS
@given(boards(max_cells=14), st.booleans(), st.data())
def test_fewest_moves_matches_reference(board, with_finish, data):
    finish = data.draw(st.sampled_from(board.hole_cells())) if with_finish else None
    result = GAME.solve(board, objective="moves", finish=finish, time=30, memory=64)
    expected = reference.fewest_moves(board, None if finish is None else board.index(finish))
    if expected is None:
        assert result.status == "impossible"
    else:
        assert result.status == "optimal" and result.verified and result.score == expected


@SETTINGS
@given(boards(max_cells=16), st.integers(0, 2**31 - 1))
def test_published_method_matches_reference(board, seed):
    """On a small board the published method empties its queues, so it finds the most jumps."""
    # 8 MB: room for every position of a 16-hole board
    result = GAME.solve(board, objective="jumps", strategy="published", time=30, memory=8, seed=seed)
    assert result.verified
    assert result.score == reference.most_jumps(board)
    if board.peg_count > 1:  # (a board of one peg comes back "best-found", 0 jumps: not checked here)
        assert (result.status == "optimal") == (result.score == board.peg_count - 1)


def python_isolated(board: rules.Board) -> int:
    return sum(1 for r, c in board.peg_cells()
               if not any(board.has_peg((r + dr, c + dc)) for dr, dc in board.directions))


@SETTINGS
@given(boards(max_cells=30))
def test_isolated_pegs_match_python(board):
    layout = Layout.of(board)
    pos = layout.to_words(board.pegs)
    out = np.zeros(layout.words, dtype=np.uint64)
    doom.isolated_mask(pos, layout.offsets, out, np.zeros(layout.words, dtype=np.uint64))
    expected = python_isolated(board)
    assert sum(int(x).bit_count() for x in out) == expected
    assert doom.isolated_pegs(pos, layout.offsets) == expected


def test_beam_line_replays_under_the_rules():
    board = generate.random_board(12, 12, 0.75, seed=9)
    layout = Layout.of(board)
    path = np.zeros(board.peg_count, dtype=np.int32)
    stats = np.zeros(3, dtype=np.int64)
    phi = np.zeros(layout.words * 64)
    code = beam.beam(layout.to_words(board.pegs), layout.geometry, Ranking.of(phi, 1.0, 0.5),
                     Doom.of(), 32, 1, 10**9, 2**62, path, stats)
    depth = int(stats[1])
    final = rules.replay(board, [layout.decode(c) for c in path[:depth]])
    assert final.peg_count == board.peg_count - depth
    assert (code == FOUND) == (final.peg_count == 1)
    assert rules.legal_jumps(final) == [] or code == FOUND


def run_beam(board: rules.Board, width: int, iso: float, noise: float, *ranking) -> tuple[int, list]:
    layout = Layout.of(board)
    path = np.zeros(board.peg_count, dtype=np.int32)
    stats = np.zeros(3, dtype=np.int64)
    phi = np.zeros(layout.words * 64)
    order = Ranking.of(phi, iso, noise, *ranking)
    start = layout.to_words(board.pegs)
    code = beam.beam(start, layout.geometry, order, Doom.of(), width, 1, 10**9, 2**62, path, stats)
    return code, [layout.decode(c) for c in path[:int(stats[1])]]


@pytest.mark.parametrize(("seed", "jump_rule"), [(1, "diagonal"), (2, "diagonal"), (3, "orthogonal"),
                                                 (4, "orthogonal"), (5, "triangular")])
def test_beam_ranked_by_jumps_keeps_the_child_with_most_jumps(seed, jump_rule):
    # width 1, no other term and a pool holding every candidate: the beam is greedy on the number of
    # legal jumps of the child, checked against the rules at every step of its line
    board = generate.random_board(7, 7, 0.7, seed=seed).with_jumps(jump_rule)
    _, line = run_beam(board, 1, 0.0, 0.0, 10_000, 1.0)
    assert line
    position = board
    for jump in line:
        children = [rules.replay(position, [j]) for j in rules.legal_jumps(position)]
        chosen = rules.replay(position, [jump])
        assert len(rules.legal_jumps(chosen)) == max(len(rules.legal_jumps(c)) for c in children)
        position = chosen
    assert rules.legal_jumps(position) == []


def test_beam_without_mobility_weight_ignores_the_pool():
    board = generate.random_board(10, 10, 0.7, seed=4)
    assert run_beam(board, 16, 1.0, 0.5) == run_beam(board, 16, 1.0, 0.5, 8, 0.0)
    assert run_beam(board, 16, 1.0, 0.5) != run_beam(board, 16, 1.0, 0.5, 8, 0.3)
