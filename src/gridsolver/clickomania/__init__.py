"""gridsolver.clickomania: see the module docstrings and ../shared/specs/clickomania.md."""
