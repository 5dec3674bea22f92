"""Golden records replayed through the real command line; outputs were worked out by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent.parent / "golden"
VALID = sorted(
    p for p in (GOLDEN / "robo-factory").glob("*.json") if not p.name.endswith(".expected.json")
)
INVALID = json.loads((GOLDEN / "robo-factory" / "invalid" / "expected.json").read_text())


def run_replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("record", VALID, ids=lambda p: p.stem)
def test_valid_record_replays_to_expected_outcome(record: Path) -> None:
    expected = json.loads(record.with_name(record.stem + ".expected.json").read_text())
    done = run_replay(record)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == expected
    assert done.stdout.count("\n") == 1  # one JSON object on one line


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_record_is_refused_with_one_clear_line(name: str) -> None:
    done = run_replay(GOLDEN / "robo-factory" / "invalid" / f"{name}.json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(INVALID[name]), done.stderr
    assert "Traceback" not in done.stderr


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    done = run_replay(tmp_path / "nope.json")
    assert done.returncode == 2
    assert "no such file" in done.stderr
    assert done.stdout == ""


def test_replay_reads_standard_input() -> None:
    record = (GOLDEN / "robo-factory" / "design-example.json").read_text()
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", "-"],
        input=record,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["cubes"] == {"Ann": 6, "Bob": 2, "Cid": 3}


def test_configured_colours_are_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[game]\ncolours = ["red", "green", "blue", "purple"]\n'
        '[game.display]\nred = "#ff0000"\ngreen = "#00ff00"\nblue = "#0000ff"\npurple = "#800080"\n'
    )
    monkeypatch.setenv("ROBO_COMPANION_CONFIG", str(config))
    text = (GOLDEN / "robo-factory" / "design-example.json").read_text()
    path = tmp_path / "r.json"
    path.write_text(text.replace("yellow", "purple"))
    done = run_replay(path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["cubes"] == {"Ann": 6, "Bob": 2, "Cid": 3}
    # and yellow is now unknown
    done = run_replay(GOLDEN / "robo-factory" / "design-example.json")
    assert done.returncode == 2
    assert "yellow" in done.stderr
