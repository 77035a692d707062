"""The pegs kernels' element-loop copies and their single compilation (issue 20: compile time).

The kernels copy arrays with small loops instead of slice assignment, whose numba code was most
of their compile time; these check the loops against numpy and that no kernel compiles twice.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from gridsolver.core.kernels import arrays
from gridsolver.core.kernels.stops import OUT_OF_NODES
from gridsolver.pegs import generate, rules
from gridsolver.pegs.kernels import beam, published
from gridsolver.pegs.layout import Doom, Layout, Ranking


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint64])
def test_keep_ranked_is_numpys_gather(dtype):
    rng = np.random.default_rng(5)
    values = rng.integers(0, 1000, 50).astype(dtype)
    order = np.argsort(rng.random(50))
    expected = values.copy()
    expected[:20] = values[order[:20]]
    beam._keep_ranked(values, order, 20)
    assert values.tolist() == expected.tolist()


def test_copy_prefix_copies_only_the_prefix():
    dst = np.zeros(6, np.int32)
    arrays.copy_prefix(dst, np.arange(1, 7, dtype=np.int32), 4)
    assert dst.tolist() == [1, 2, 3, 4, 0, 0]


def test_grown_rows_keep_their_values():
    rows = np.arange(6, dtype=np.uint64).reshape(3, 2)
    grown = published._grown_rows(rows, 5)
    assert grown.tolist() == [[0, 1], [2, 3], [4, 5], [0, 0], [0, 0]]


@pytest.mark.slow  # 6 s cold
def test_beam_line_replays_when_its_candidate_buffer_overflows():
    board = generate.random_board(30, 30, 0.7, seed=11)  # about 980 jumps from the start position
    layout = Layout.of(board)
    width = 8  # 8 parents x ~980 jumps pass the 8 * 64 + 4096 candidate slots: the better half is kept
    path = np.zeros(board.peg_count, dtype=np.int32)
    stats = np.zeros(3, dtype=np.int64)
    phi = np.zeros(layout.words * 64)
    ranking = Ranking.of(phi, 1.0, 0.5)
    start = layout.to_words(board.pegs)
    code = beam.beam(start, layout.geometry, ranking, Doom.of(), width, 1, 100_000, 2**62, path, stats)
    depth = int(stats[1])
    assert code == OUT_OF_NODES and depth >= 3
    final = rules.replay(board, [layout.decode(c) for c in path[:depth]])
    assert final.peg_count == board.peg_count - depth


# In a process of its own with an empty cache: a kernel loaded from the cache brings the kernels
# it calls inside it, so only compiling shows their signatures; and kernels other tests call
# directly cannot add any.
COUNT_SIGNATURES = """
import json
import numba
from gridsolver.core.kernels import keys, table as table_kernels
from gridsolver.pegs.kernels import beam, bitboard, dfs, doom, fewest_moves, published, stack
from gridsolver.pegs.game import GAME
GAME.warm(None, None)
found = {name: [str(s) for s in value.signatures]
         for module in (bitboard, stack, dfs, published, fewest_moves, doom, beam, keys)
         for name, value in vars(module).items()
         if isinstance(value, numba.core.dispatcher.Dispatcher) and value.signatures}
found["find_wide"] = [str(s) for s in table_kernels.find_wide.signatures]
print(json.dumps(found))
"""


@pytest.mark.slow  # compiles every kernel of the game: 30-60 s
def test_every_kernel_has_one_signature_after_warm_up(tmp_path):
    done = subprocess.run([sys.executable, "-c", COUNT_SIGNATURES], capture_output=True, text=True,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    signatures = json.loads(done.stdout.splitlines()[-1])
    assert {"dfs", "beam", "published", "fewest_moves", "find_wide", "sort_unique_radix"} <= set(signatures)
    assert len(signatures["_grown"]) == 3  # one per dtype it grows: int64, int32, uint64
    repeated = {name: sigs for name, sigs in signatures.items() if len(sigs) > 1 and name != "_grown"}
    assert repeated == {}
