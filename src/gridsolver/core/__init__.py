"""The shared core every game uses.

- :mod:`.errors`: the exceptions that the CLI turns into one-line messages
  with exit code 2;
- :mod:`.boards`: reading text boards from files, strings or stdin, with
  errors that name the file, board, row and column;
- :mod:`.budget`: the time / memory / node budget every search honours;
- :mod:`.result`: the one result record every solver returns;
- :mod:`.progress`: a progress display that stays silent when piped;
- :mod:`.watch` and :mod:`.live`: what a running search writes as it goes, and
  the status line and events made from it;
- :mod:`.parallel`: a parallel map over local processes or a Dask cluster;
- :mod:`.kernels`: the numba toolkit every game's kernels build on (its
  modules import numba);
- :mod:`.cliutil` and :mod:`.commands`: the common command-line options and
  the commands every game has.

Nothing here imports numba outside :mod:`.kernels` and :mod:`.warm`.
"""
