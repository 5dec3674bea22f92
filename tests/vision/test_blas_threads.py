"""The readers run BLAS on one thread even when numpy was imported first (as here: pytest and
this file import numpy before any reader), so a reading does not depend on import order."""

from __future__ import annotations

import subprocess
import sys

import numpy  # noqa: F401  (imported before the readers on purpose)


def test_readers_limit_blas_to_one_thread_after_numpy_was_imported() -> None:
    code = (
        "import numpy\n"
        "from threadpoolctl import threadpool_info\n"
        "before = max(i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas')\n"
        "import vision.grid, vision.order, vision.tiles\n"
        "after = max(i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas')\n"
        "print(before, after)\n"
    )
    env = {"PATH": "/usr/bin:/bin", "OPENBLAS_NUM_THREADS": "2"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env).stdout.split()
    assert out == ["2", "1"]
