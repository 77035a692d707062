import os

# Tests never show progress bars, even when run from a terminal.
os.environ.setdefault("GRIDSOLVER_NO_PROGRESS", "1")
# ...nor the compiling note (a cold cache would put it among the output CliRunner reads; the tests of
# the note itself, in tests/core/test_warm.py, set or clear this themselves).
os.environ.setdefault("GRIDSOLVER_COMPILE_NOTE", "off")
