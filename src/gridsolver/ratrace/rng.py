"""The controller's random generator (splitmix64), in plain Python.

The game kernels carry the same generator as one ``uint64`` state word
(:mod:`gridsolver.ratrace.kernels.splitmix`); this module is its reference and seeds
it. Keeping the controller's stream apart from the players' (numba's
``np.random``, numpy's and Python's global generators) means a player's
random calls never change tracks, start cells or breeding.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MUL1 = 0xBF58476D1CE4E5B9
MUL2 = 0x94D049BB133111EB
_TO_UNIT = 1.0 / (1 << 53)

GAME_STREAM = 0x67616D65  # "game"
PLAYER_STREAM = 0x706C6179  # "play"


def mix(value: int) -> int:
    """The splitmix64 output function (a bijection on 64-bit words)."""
    z = value & MASK
    z = ((z ^ (z >> 30)) * MUL1) & MASK
    z = ((z ^ (z >> 27)) * MUL2) & MASK
    return z ^ (z >> 31)


def seed_state(seed: int, stream: int) -> int:
    """A generator state for ``seed`` (any int) and a stream tag."""
    return mix(mix(seed % (1 << 64)) ^ stream)


def player_seed(seed: int) -> int:
    """The 32-bit seed of the players' own generators for a track seed."""
    return seed_state(seed, PLAYER_STREAM) & 0xFFFFFFFF


class SplitMix:
    """splitmix64: ``next()`` words, ``uniform()`` in [0, 1), ``below(n)`` in 0..n-1."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK
        return mix(self.state)

    def uniform(self) -> float:
        return (self.next() >> 11) * _TO_UNIT

    def below(self, n: int) -> int:
        return int(self.uniform() * n)
