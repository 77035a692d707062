import os

# Tests never show progress bars, even when run from a terminal.
os.environ.setdefault("GRIDSOLVER_NO_PROGRESS", "1")
