import os

# Tests never show progress bars, even when run from a terminal.
os.environ.setdefault("GRIDSOLVER_NO_PROGRESS", "1")
# ...nor the compiling note (a cold cache would put it among the output CliRunner reads; the tests of
# the note itself, in tests/core/test_warm.py, set or clear this themselves).
os.environ.setdefault("GRIDSOLVER_COMPILE_NOTE", "off")
# Pictures are plain, as in a pipe, unless a test asks for colour: a developer's own GRIDSOLVER_COLOUR
# or NO_COLOR does not reach them (the tests of colour set GRIDSOLVER_COLOUR themselves).
os.environ.pop("GRIDSOLVER_COLOUR", None)
os.environ.pop("NO_COLOR", None)

import pytest  # noqa: E402  (after the environment above, which must be set before anything reads it)


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    """A `dask scheduler` and two `dask worker` processes on loopback, with an empty numba cache of
    their own (see tests/cluster.py); shared by a module's tests, stopped after them."""
    pytest.importorskip("dask.distributed")
    from tests.cluster import dask_processes

    with dask_processes(tmp_path_factory.mktemp("dask")) as cluster:
        yield cluster
