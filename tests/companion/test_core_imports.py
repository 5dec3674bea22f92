"""The core runs with neither Kivy nor OpenCV: it imports only the standard library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import companion

CORE = Path(companion.__file__).parent
BLOCK = """
import builtins, sys
real = builtins.__import__
def guard(name, *args, **kwargs):
    if name.split('.')[0] in {'kivy', 'cv2', 'numpy', 'serial', 'gpiozero', 'picamera2',
                              'vision', 'hardware', 'ui'}:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    return real(name, *args, **kwargs)
builtins.__import__ = guard
"""


def test_core_modules_import_without_adapters() -> None:
    modules = sorted(
        "companion." + ".".join(p.relative_to(CORE).with_suffix("").parts)
        for p in CORE.rglob("*.py")
        if p.name != "__init__.py" and p.stem not in ("doctor",)
    )
    code = BLOCK + "".join(f"import {m}\n" for m in modules)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_replay_runs_without_adapters() -> None:
    record = Path(__file__).parents[1] / "golden" / "robo-factory" / "design-example.json"
    code = BLOCK + f"from companion.cli import main\nsys.exit(main(['replay', {str(record)!r}]))\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_command_needing_a_missing_extra_says_how_to_install_it() -> None:
    code = BLOCK + "from companion.cli import main\nsys.exit(main(['vision', 'eval', 'x']))\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 3
    assert "pip install 'robo-companion[vision]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_options_reach_delegated_commands_whole() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "doctor", "--json", "--timeout", "0.2"],
        capture_output=True,
        text=True,
    )
    assert "unrecognized arguments" not in done.stderr
    assert done.stdout.lstrip().startswith("{")
