"""A transposition table that grows with the search, up to the memory budget.

The probing itself is numba code in :mod:`gridsolver.core.kernels.table`
(shared by every game); this module is plain Python, so importing it does not
import numba.
"""

from __future__ import annotations

import numpy as np

from gridsolver.core.budget import Budget

PROBES = 64  # slots a lookup may probe before it calls the neighbourhood full
GROW_AT = 0.7  # a search asks for a bigger table at this load


class GrowingTable:
    """A wide-key table (see :func:`gridsolver.core.kernels.table.find_wide`) that starts
    small and doubles up to the memory budget.

    A big table costs page faults to touch, so small searches get small tables;
    a kernel stops when the table holds :attr:`grow_at` entries and the caller
    calls :meth:`grow`, which rehashes into a table twice the size.
    """

    def __init__(self, budget: Budget, words: int, first_slots: int = 1 << 15,
                 share: float = 0.5, maximum: int = 1 << 28) -> None:
        self.max_slots = budget.table_slots(8 * (words + 1), share=share, maximum=maximum)
        slots = min(first_slots, self.max_slots)
        self.hash = np.zeros(slots, dtype=np.uint64)
        self.keys = np.zeros((slots, words), dtype=np.uint64)

    @property
    def grow_at(self) -> int:
        """Entries at which the kernel should stop for a bigger table (0: never, it is full size)."""
        return 0 if len(self.hash) >= self.max_slots else int(len(self.hash) * GROW_AT)

    def grow(self) -> None:
        """Rehash into a table of twice the slots."""
        from gridsolver.core.kernels import table as table_kernels

        slots = len(self.hash) * 2
        new_hash = np.zeros(slots, dtype=np.uint64)
        new_keys = np.zeros((slots, self.keys.shape[1]), dtype=np.uint64)
        table_kernels.rehash_wide(self.hash, self.keys, new_hash, new_keys, PROBES)
        self.hash, self.keys = new_hash, new_keys
