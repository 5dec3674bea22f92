"""The real app under X (Xvfb in CI): both games tapped through by the autoplay, once with the
demo's camera and siren board and once by touch alone. Each run is a subprocess, because a Kivy
app runs once per process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.journal import Journal

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]


def _display_command() -> list[str]:
    if os.environ.get("DISPLAY"):
        return []
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        pytest.skip("no X display and no xvfb-run: install xvfb to run the app tests")
    return [xvfb, "-a", "-s", "-screen 0 800x480x24"]


def run_demo(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    state = tmp_path / "state"
    full_env = {**os.environ, "ROBO_COMPANION_STATE": str(state), **(env or {})}
    full_env.pop("ROBO_COMPANION_CONFIG", None)
    command = [
        *_display_command(),
        sys.executable,
        "-m",
        "companion.cli",
        "demo",
        "--autoplay",
        *args,
    ]
    done = subprocess.run(command, env=full_env, capture_output=True, text=True, check=False)
    return done.returncode, done.stdout + done.stderr


def finished_games(tmp_path: Path) -> list[tuple[str, str]]:
    with Journal(tmp_path / "state" / "journal.sqlite3") as journal:
        return sorted((row.kind, row.status) for row in journal.games())


def test_autoplay_with_the_demo_camera_and_siren_board(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    code, output = run_demo(
        tmp_path, "--screenshots", str(shots), env={"ROBO_COMPANION_CAMERA": "none"}
    )
    assert code == 0, output
    assert finished_games(tmp_path) == [("robo-factory", "finished"), ("robot-master", "finished")]
    names = sorted(p.name for p in shots.glob("*.png"))
    for screen in (
        "home",
        "setup",
        "factory",
        "picker",
        "secret",
        "number",
        "master",
        "end",
        "eureka",
        "card-read",
    ):
        assert any(screen in n for n in names), screen
    assert (tmp_path / "state" / "exports").exists() is False  # nothing exported unasked


def test_both_games_by_touch_alone(tmp_path: Path) -> None:
    code, output = run_demo(tmp_path, "--touch-only")
    assert code == 0, output
    assert "0 readings entered by touch after the camera declined" in output
    assert finished_games(tmp_path) == [("robo-factory", "finished"), ("robot-master", "finished")]


def test_setting_up_the_demo_camera_by_its_guided_steps(tmp_path: Path) -> None:
    """The camera set-up screen, tapped through on the demo's staged camera: a picture of an
    empty table is refused in words, the eleven steps are kept, the camera learns and stores
    what it learnt beside the demo's journal, never where a real device keeps its own."""
    shots = tmp_path / "shots"
    config_home = tmp_path / "config"
    code, output = run_demo(
        tmp_path,
        "--only",
        "calibration",
        "--screenshots",
        str(shots),
        env={"XDG_CONFIG_HOME": str(config_home)},
    )
    assert code == 0, output
    names = sorted(p.name for p in shots.glob("*.png"))
    assert any("calibrate-retry" in n for n in names), names
    assert any("calibrate-done" in n for n in names), names
    stored = json.loads((tmp_path / "state" / "demo-calibration.json").read_text())
    assert stored["images"] == 11
    assert not list(config_home.rglob("calibration.json"))
