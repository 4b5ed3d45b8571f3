"""Run a script in a fresh Python process with its own numba cache, as a user's successive commands do.

The compile tests (``test_jit_link.py``, ``test_jit_borrow.py``) write small kernel modules and a ``run.py`` into
a folder and run it here: a new process sees only what numba's cache holds, and ``NUMBA_OPT`` (the suite's -O1)
is dropped so the code is compiled as users get it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def run_script(folder: Path, cache: Path, **env: str) -> dict:
    """Run ``folder/run.py`` (``folder`` on the path, ``cache`` as numba's cache, ``env`` added) and return the
    JSON object its last line of output holds."""
    full = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(folder) + os.pathsep
            + os.environ.get("PYTHONPATH", ""), **env}
    full.pop("NUMBA_OPT", None)
    out = subprocess.run([sys.executable, str(folder / "run.py")], capture_output=True, text=True, env=full,
                         cwd=folder, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])
