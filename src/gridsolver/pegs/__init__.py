"""gridsolver.pegs: see the module docstrings and ../shared/specs/pegs.md."""
