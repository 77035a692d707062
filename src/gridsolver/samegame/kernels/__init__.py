"""numba kernels of SameGame's searches, on Clickomania's board engine.

The board kernels (groups, removal, the random playout, the beam's parts)
are :mod:`gridsolver.clickomania.kernels`; these add SameGame's points and
searches:

- :mod:`.scoring`: the end-of-game points (the bonus for clearing, the end
  penalty) and the sentinel below any score;
- :mod:`.playout`: the random tabu-colour playout, scored;
- :mod:`.beam`: the anytime score beam, ranked by a heuristic or by playouts
  (``--method beam``, ``mcbeam``);
- :mod:`.nmcs`: nested Monte-Carlo search (levels 0-2);
- :mod:`.tracking`: the list of groups of two or more cells kept up to date
  through each move's dirty zone (what the policy playouts choose from);
- :mod:`.bitboard`: the same upkeep on per-colour bitboards, for boards of up
  to 16 x 15;
- :mod:`.policy_playout`: NRPA's policy playouts, the move codes they record
  and the named bundles of arrays they work in;
- :mod:`.nrpa`: nested rollout policy adaptation: the adaptation and the
  unrolled, resumable search;
- :mod:`.endgame`: the exact value and best line of an ending (memoised
  exhaustive search).

This package imports nothing; its modules import numba, so import them only
inside commands.
"""
