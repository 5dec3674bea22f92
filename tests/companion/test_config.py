"""Configuration: defaults, validation naming the key, the check command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import config
from companion.errors import ConfigError


def test_the_example_file_is_the_defaults() -> None:
    assert config.parse(config.example_toml()) == config.Config()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[siren]\nbaudrate = "fast"', "siren.baudrate: expected a whole number, got 'fast'"),
        ('[siren]\nbackend = "bluetooth"', "siren.backend: expected one of"),
        ("[sirens]\n", "sirens: unknown key"),
        (
            '[robo_factory]\ntie = "coin"',
            "robo_factory.tie: expected one of 'share', 'extra-round'",
        ),
        ("[ui]\nvolume = 3", "ui.volume: expected a number from 0 to 1"),
        ('[game]\ncolours = ["red", "red", "blue", "green"]', "game.colours:"),
        ('[game]\ncolours = ["red", "green", "blue", "pink"]', "game.display: expected"),
        (
            "[siren.gpio]\nbuttons = [1, 2]",
            "siren.gpio: expected 1 to 6 buttons and as many lights",
        ),
        ("[camera]\nwidth = -5", "camera.width: expected a positive whole number"),
        ("this is = = not toml", "not valid TOML"),
    ],
)
def test_errors_name_the_key_and_the_expected_value(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        config.parse(text)
    assert message in str(err.value)


def test_locations_and_state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert config.find_config() is None
    user = tmp_path / "config" / "robo-companion" / "config.toml"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    user.parent.mkdir(parents=True)
    user.write_text('[game]\nlanguage = "nl"\n')
    loaded = config.load()
    assert loaded.game.language == "nl" and loaded.source == user
    assert loaded.calibration_path == user.parent / "calibration.json"
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/robo-companion")
    assert config.state_dir() == Path("/var/lib/robo-companion")


def test_config_check_command(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[camera]\nsource = 'webcam'\n")
    run = [sys.executable, "-m", "companion.cli", "config", "check"]
    done = subprocess.run([*run, "--file", str(bad)], capture_output=True, text=True)
    assert done.returncode == 2
    assert "camera.source: expected one of" in done.stderr
    assert "Traceback" not in done.stderr
    env = dict(os.environ, ROBO_COMPANION_CONFIG=str(tmp_path / "missing.toml"))
    missing = subprocess.run(run, capture_output=True, text=True, env=env)
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    good = subprocess.run(
        [*run, "--file", str(tmp_path / "none.toml")], capture_output=True, text=True
    )
    assert good.returncode == 2
    ok = subprocess.run(run, capture_output=True, text=True)
    assert ok.returncode == 0 and "config OK" in ok.stdout
