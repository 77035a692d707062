"""The default memory budget as the process sees it, and an allocation that fails anyway."""

import json
import subprocess
import sys

import pytest

from gridsolver.core import budget as budget_module
from gridsolver.core.budget import AUTO_MEMORY_MIN_MB, cgroup_room, default_memory_mb

GB = 1 << 30


def _limited(code: str, address_space: int) -> str:
    """Run ``code`` in a child under an address-space limit; what it prints."""
    done = _run_limited(code, address_space)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _run_limited(code: str, limit: int) -> subprocess.CompletedProcess:
    preamble = f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n"
    return subprocess.run([sys.executable, "-c", preamble + code], capture_output=True, text=True,
                          timeout=600)


def test_the_default_budget_keeps_inside_an_address_space_limit():
    printed = _limited("from gridsolver.core.budget import default_memory_mb, address_space_room\n"
                       "print(default_memory_mb(), address_space_room())", 6 * GB)
    budget_mb, room = (float(x) for x in printed.split())
    assert 0 < room < 6 * GB
    assert budget_mb <= room / 2**20 / 2 + 1  # half the room left, as for available memory


def test_cgroup_limits_v2_and_v1(tmp_path):
    limit, usage = tmp_path / "max", tmp_path / "current"
    limit.write_text("4294967296\n")
    usage.write_text("1073741824\n")
    assert cgroup_room(((str(limit), str(usage)),)) == 3 * GB
    limit.write_text("max\n")
    assert cgroup_room(((str(limit), str(usage)),)) is None
    limit.write_text(f"{(1 << 63) - 4096}\n")  # v1's "no limit"
    assert cgroup_room(((str(limit), str(usage)),)) is None
    assert cgroup_room(((str(tmp_path / "absent"), str(usage)),)) is None


def test_the_least_room_wins(monkeypatch):
    monkeypatch.setattr(budget_module, "address_space_room", lambda: 3 * GB)
    monkeypatch.setattr(budget_module, "cgroup_room", lambda: 1 * GB)
    assert default_memory_mb() == 512.0
    monkeypatch.setattr(budget_module, "cgroup_room", lambda: 0)
    assert default_memory_mb() == AUTO_MEMORY_MIN_MB


def test_a_failed_allocation_is_a_memory_stop_not_an_internal_error(monkeypatch):
    from gridsolver import pegs
    from gridsolver.pegs.game import PegsGame

    def search(self, board, budget, **kwargs):
        raise MemoryError("Unable to allocate 1.14 GiB for an array with shape (153000000,)")

    monkeypatch.setattr(PegsGame, "search", search)
    result = pegs.solve(pegs.named("english"), time=5)
    assert (result.status, result.stopped, result.verified) == ("not-found", "memory", False)
    assert "Unable to allocate 1.14 GiB" in result.details["error"]


# The commands that ended "internal error: MemoryError" under a 6 GB address-space limit.
LIMITED_COMMANDS = [
    ("bunny", "solve", "challenge/01", "--time", "3"),
    ("pegs", "solve", "english", "--finish", "3,3", "--time", "3"),
    ("samegame", "solve", "standard-20", "--nodes", "2000", "--workers", "1"),
]


@pytest.mark.slow
@pytest.mark.parametrize("args", LIMITED_COMMANDS, ids=lambda args: " ".join(args[:3]))
def test_commands_under_an_address_space_limit_answer(args):
    code = ("import sys\nfrom gridsolver.cli import main\n"
            f"sys.argv = ['gridsolver', *{list(args)!r}, '--json']\nmain()\n")
    done = _run_limited(code, 6 * GB)
    assert done.returncode in (0, 1), done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines and all(line["game"] == args[0] for line in lines)
    assert "internal error" not in done.stderr
