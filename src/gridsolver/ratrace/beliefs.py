"""The champion's genome layout: what the six bits of each colour say about that colour.

Colour ``c`` owns the six contiguous genome bits ``6c .. 6c+5``
(:data:`BITS_PER_COLOUR`; crossover copies runs of about 20 bits, so a
colour's belief travels whole). A chunk's 3-bit syndrome under
:data:`PARITY_CHECK` (a shortened Hamming code) is its *kind*, bits 3-5 a
*param* ``p`` (0..7):

- syndrome 0 (8 codes, 3 flips apart): never step here (walls, deadly
  cells, teleporters that throw the rat back): :data:`KIND_AVOID`;
- syndromes 1-4: an ordinary cell (half of a random genome's beliefs), each
  such code one flip from exactly one "never step" code, so a wall believed
  plain is one mutation from being learnt: :data:`KIND_PLAIN`;
- syndromes 5 and 6: a teleporter moving the rat by ``(syndrome - 4, p - 4)``:
  forward 1 or 2, up 4 .. down 3: :data:`KIND_TELEPORT`;
- syndrome 7: a trap whose lethal cell is at the ``p``-th neighbour offset
  (:data:`TRAP_OFFSETS`): :data:`KIND_TRAP`.

Bit 97 says whether a rat with no believed-safe way right slides along the
barrier (1) or steps boldly (0); bit 96 which way it slides (1: down, 0: up).
Bit 98 trusts teleporter landings on the view's border (1). Bit 99 is unused.
``docs/ratrace-champion.md`` has the details. The numba decoding is
:mod:`gridsolver.ratrace.kernels.planner`, the plain-Python one
:func:`gridsolver.ratrace.reference.classify_reference`; this module holds
plain constants only (no numba).
"""

from __future__ import annotations

BITS_PER_COLOUR = 6

KIND_PLAIN = 0
KIND_AVOID = 1  # never step here
KIND_TRAP = 2  # the cell at a neighbour offset is lethal
KIND_TELEPORT = 3  # stepping here moves the rat by an offset

# Column i is the syndrome of flipping code bit i. The 8 codes of syndrome 0 ("never step") lie
# 3 flips apart, so every code of syndrome 1-6 is one flip from exactly one of them.
PARITY_CHECK = (1, 2, 4, 3, 5, 6)
# A trap code's param p names the lethal cell: TRAP_OFFSETS[p] = (dx, dy) from the trap.
TRAP_OFFSETS = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0))
