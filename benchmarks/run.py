"""Run benchmarks: ``python benchmarks/run.py NAME [NAME ...] [--quick] [--write]``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from runner import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
