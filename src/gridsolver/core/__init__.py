"""The shared core every game uses.

- :mod:`.errors`: the exceptions that the CLI turns into one-line messages
  with exit code 2;
- :mod:`.boards`: reading text boards from files, strings or stdin, with
  errors that name the file, board, row and column;
- :mod:`.budget`: the time / memory / node budget every search honours;
- :mod:`.result`: the one result record every solver returns;
- :mod:`.progress`: a progress display that stays silent when piped;
- :mod:`.parallel`: a parallel map over local processes or a Dask cluster;
- :mod:`.clock`: a monotonic clock that numba kernels can read (imports numba);
- :mod:`.cliutil`: the common command-line options and the ``solve`` loop.

Nothing here imports numba except :mod:`.clock`.
"""
