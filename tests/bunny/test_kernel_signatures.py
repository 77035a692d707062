"""Each bunny kernel compiles once: one integer width everywhere, no literal specialisations.

A call passing an int32 (a value read from ``lib_f``) or a constant such as ``-1`` makes numba
compile the callee a second time, which a new user waits for on the first run (issue 20).
"""

import json
import os
import subprocess
import sys

import pytest

# In a process of its own with an empty cache: a kernel loaded from the cache brings the kernels
# it calls inside it, so only compiling shows their signatures; and kernels other tests call
# directly cannot add any.
COUNT_SIGNATURES = """
import json
import numba
from gridsolver.bunny.kernels import budget, enumeration, library, orbit
from gridsolver.bunny.game import GAME
GAME.warm(None, None)
for name in ("challenge/01", "challenge/03"):
    GAME.solve(GAME.load(name)[0], time=5.0, limit=3)
print(json.dumps({name: [str(s) for s in value.signatures] for module in (budget, enumeration, library, orbit)
                  for name, value in vars(module).items()
                  if isinstance(value, numba.core.dispatcher.Dispatcher) and value.signatures
                  and value.py_func.__module__ == module.__name__}))
"""


@pytest.mark.slow  # compiles every kernel of the game: 30-60 s
def test_every_kernel_has_one_signature_after_warm_up_and_searches(tmp_path):
    done = subprocess.run([sys.executable, "-c", COUNT_SIGNATURES], capture_output=True, text=True,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    signatures = json.loads(done.stdout.splitlines()[-1])
    assert {"insert", "search_one_past", "search_two_past", "final_loop", "covers",
            "_tails"} <= set(signatures)  # body_step is inlined: it has none of its own
    repeated = {name: sigs for name, sigs in signatures.items() if len(sigs) > 1}
    assert repeated == {}
