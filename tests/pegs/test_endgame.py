"""Finish problems through the endgame layers (the dual search), checked against brute force."""

import numpy as np
import pytest

from gridsolver import pegs
from gridsolver.core.budget import Budget
from gridsolver.core.kernels.stops import EXHAUSTED
from gridsolver.pegs import depth_first, endgame, reference, rules, table
from gridsolver.pegs.layout import Layout
from gridsolver.pegs.meet import byte_images
from tests.pegs.test_rules import named


def vacated(board: rules.Board, cell: rules.Cell) -> rules.Board:
    return board.with_pegs(board.holes & ~(1 << board.index(cell)))


def test_a_layer_of_the_kernel_is_the_reference_layer():
    from gridsolver.pegs.kernels import endgame as layers

    board = named("english")
    ending = endgame.Endgame(board, (3, 3))
    jumps = ending.dense.triples()  # the layers number the holes densely
    positions = sorted(ending.dense.mask(p) for p in reference.reachable_by_pegs(board, 29)[29])
    keys = np.zeros(1 << 12, dtype=np.uint64)
    stats = np.zeros(3, dtype=np.int64)
    golden = [float(w) for w in ending.weights[0]]
    rng = np.random.default_rng(2)
    other = [float(w) for w in rng.integers(-4, 5, size=64) / 4]  # a bank row need not be a pagoda here
    unpruned = reference.canonical_children(positions, jumps, ending.perms, [golden], [-1.0])
    # floors between two weights, never on one: the kernel sums a child's weight jump by jump, the
    # reference afresh, and the two may round a tie apart
    middle = float(np.median([sum(golden[i] for i in range(64) if p >> i & 1) for p in unpruned])) + 1e-7
    low = float(np.quantile([sum(other[i] for i in range(64) if p >> i & 1) for p in unpruned], 0.3)) + 0.125
    for weights, floors in (([golden], [-1.0]), ([golden], [middle]), ([golden, other], [middle, low]),
                            ([], [])):
        keys[:] = 0
        stats[:] = 0
        pagodas = layers.Pagodas(np.array(weights, dtype=np.float64).reshape(-1, 64),
                                 np.array(floors, dtype=np.float64))
        code = layers.expand(np.array(positions, dtype=np.uint64), 0, layers.Jumps(*ending.tri),
                             ending.images, pagodas, keys, 1 << 40, 1 << 62, stats)
        got = {int(k) for k in keys if k}
        want = reference.canonical_children(positions, jumps, ending.perms, weights, floors)
        assert code == EXHAUSTED and got == want and int(stats[1]) == len(want)
        assert not floors or floors[-1] < 0 or 0 < len(want) < len(unpruned)


def test_a_set_too_small_grows_and_the_layer_comes_out_the_same():
    board = vacated(named("5x5"), (0, 0))
    big, small = endgame.Endgame(board, (2, 2)), endgame.Endgame(board, (2, 2))
    budget = Budget(nodes=10**9)
    for _ in range(6):
        assert big.grow(budget, 1 << 20)
    for _ in range(6):
        small_first = endgame.FIRST_SLOTS
        try:
            endgame.FIRST_SLOTS = 16  # every layer outgrows its first set
            assert small.grow(budget, 1 << 20)
        finally:
            endgame.FIRST_SLOTS = small_first
    assert [len(x) for x in big.layers] == [len(x) for x in small.layers]
    assert all((x == y).all() for x, y in zip(big.layers, small.layers, strict=True))
    assert not big.grow(budget, 4)  # a layer over its limit is refused, and none is added
    assert big.pegs == 7


SLOW_4X5 = pytest.mark.slow  # 4x5 cases take 4-5 s each cold: the default suite runs the smaller boards


@pytest.mark.parametrize(("name", "vacancy", "finish"), [
    pytest.param("4x5", (0, 0), (3, 4), marks=SLOW_4X5), pytest.param("4x5", (1, 1), (1, 1), marks=SLOW_4X5),
    pytest.param("4x5", (0, 1), (2, 3), marks=SLOW_4X5), ("4x4", (0, 1), (3, 1))])
def test_the_endgame_holds_exactly_the_reachable_positions_that_can_finish(name, vacancy, finish):
    board = vacated(named(name), vacancy)
    ending = endgame.Endgame(board, finish)
    ending.build(Budget(nodes=10**9), 60.0, 1 << 26, board.peg_count - 1)
    assert ending.pegs == board.peg_count - 1
    reachable = reference.reachable_by_pegs(board)
    can = reference.finishers(board, board.index(finish))
    checked = 0
    for count in range(1, ending.pegs + 1):
        for p in reachable.get(count, ()):
            assert ending.contains(p) == (p in can)
            checked += 1
            if ending.contains(p):
                line = ending.finish_line(p)
                end = rules.replay(board.with_pegs(p), line)
                assert end.peg_count == 1 and end.has_peg(finish)
    assert checked > 50


@pytest.fixture
def endgame_at_once(monkeypatch):
    """Finish searches build their endgame before the first run (the default waits 4M nodes)."""
    monkeypatch.setattr(depth_first, "ENDGAME_AFTER_NODES", 0)


@pytest.mark.parametrize("name", [pytest.param("4x5", marks=SLOW_4X5), "3x6", "4x4"])
def test_finish_searches_through_the_endgame_agree_with_brute_force(name, endgame_at_once):
    board = named(name)
    decided = {"optimal": 0, "impossible": 0}
    can = {}
    for start, finish in table.single_vacancy_problems(board):
        problem = vacated(board, start)
        result = pegs.solve(problem, finish=finish, time=60, seed=3)
        if finish not in can:
            can[finish] = reference.finishers(board, board.index(finish))
        possible = problem.pegs in can[finish]
        assert result.status == ("optimal" if possible else "impossible"), (start, finish)
        assert result.verified == possible
        if "exhaustive" in result.proof:
            assert result.details["endgame_pegs"] >= 2
        decided[result.status] += 1
    assert decided["optimal"] > 0 and decided["impossible"] > 0


def test_the_endgame_is_built_only_for_hard_problems():
    result = pegs.solve(named("english"), finish=(3, 3), time=60)
    assert result.status == "optimal" and "endgame_pegs" not in result.details


def test_endgames_need_at_most_64_holes():
    assert endgame.fits(pegs.named("european")) and endgame.fits(pegs.named("english"))
    assert endgame.fits(pegs.named("diamond"))  # 41 holes, 90 bits in the board's own numbering
    assert not endgame.fits(named("9x8"))


def test_byte_images_of_dense_bits():
    board = pegs.named("european")
    ending = endgame.Endgame(vacated(board, (2, 3)), (4, 3))
    assert len(ending.perms) == 2  # the left-right mirror fixes (2,3) and (4,3)
    assert (ending.images == byte_images(ending.perms)).all()


@pytest.mark.parametrize(("name", "vacancy", "finish"), [("diamond", (3, 4), (8, 4)),
                                                         ("english", (2, 3), (5, 3))])
def test_the_kernels_endgame_key_is_the_complements_smallest_dense_image(name, vacancy, finish):
    from gridsolver.pegs.kernels.dfs import endgame_key

    board = vacated(pegs.named(name), vacancy)
    ending = endgame.Endgame(board, finish)
    layout = Layout.of(board)
    rng = np.random.default_rng(5)
    cells = list(rules.bit_indices(board.holes))
    for _ in range(50):
        pegs_mask = sum(1 << c for c in cells if rng.random() < 0.4)
        got = endgame_key(layout.to_words(pegs_mask), np.uint64(ending.all_holes), ending.lookup)
        assert int(got) == ending.key(pegs_mask)


def test_the_load_limit_is_the_kernels():
    from gridsolver.pegs.kernels import endgame as layers

    assert endgame.MAX_LOAD == layers.MAX_LOAD
