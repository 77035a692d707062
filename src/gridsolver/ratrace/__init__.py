"""gridsolver.ratrace: see the module docstrings and ../shared/specs/ratrace.md."""
