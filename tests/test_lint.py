import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    done = subprocess.run([ruff, "check", "src", "tests", "benchmarks"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_merge_conflict_markers_are_left_in_tracked_files():
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    markers = ("<<<<<<< ", ">>>>>>> ")
    found = []
    for name in listed.stdout.splitlines():
        path = ROOT / name
        if path.suffix not in (".py", ".md", ".toml", ".yml", ".txt", ".html", ".cfg") or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if line.startswith(markers) or line == "=======" and path.suffix != ".md":
                found.append(f"{name}:{number}")
    assert not found, f"merge conflict markers: {found}"
