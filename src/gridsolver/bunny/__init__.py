"""gridsolver.bunny: see the module docstrings and ../shared/specs/bunny.md."""
