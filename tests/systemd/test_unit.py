"""The kiosk unit: systemd accepts it, and it says what the kiosk needs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "robo-companion.service"


def directives(text: str) -> dict[str, dict[str, list[str]]]:
    """section -> key -> every value given (systemd allows a key more than once)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key, []).append(value)
    return sections


@pytest.fixture(scope="module")
def unit() -> dict[str, dict[str, list[str]]]:
    return directives(UNIT.read_text())


def environment(unit: dict[str, dict[str, list[str]]]) -> dict[str, str]:
    return dict(v.split("=", 1) for v in unit["Service"]["Environment"])


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (Debian package: systemd)")
def test_systemd_analyze_verify_passes(tmp_path: Path) -> None:
    # A root holding the unit, the program it starts and systemd's own units, so verify checks
    # the unit and its ExecStart without needing the app installed in /opt on this machine.
    root = tmp_path
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, root / "etc/systemd/system" / UNIT.name)
    program = root / "opt/robo-companion/bin/robo-companion"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    system_units = next(p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system"))
                        if (p / "sysinit.target").exists())
    shutil.copytree(system_units.resolve(), root / "usr/lib/systemd/system", symlinks=True)
    proc = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", f"--root={root}", UNIT.name],
        capture_output=True, text=True, check=False,
    )
    # verify exits 0 on unknown keys and bad values too: any message is a finding.
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip() == "", proc.stderr


def test_verify_would_catch_a_typo(tmp_path: Path) -> None:
    # Guards the test above: the messages it checks for really appear.
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (Debian package: systemd)")
    broken = tmp_path / "robo-companion.service"
    text = UNIT.read_text().replace("ProtectHome=yes", "ProtectHom=yes")
    broken.write_text(text.replace("/opt/robo-companion/bin/robo-companion", "/bin/true"))
    proc = subprocess.run(["systemd-analyze", "verify", "--man=no", str(broken)],
                          capture_output=True, text=True, check=False)
    assert "ProtectHom" in proc.stderr


def test_notify_type_with_a_watchdog_and_restart(unit: dict[str, dict[str, list[str]]]) -> None:
    service = unit["Service"]
    assert service["Type"] == ["notify"]
    assert service["NotifyAccess"] == ["main"]
    assert int(service["WatchdogSec"][0]) >= 10
    assert service["Restart"] == ["on-failure"]
    assert service["ExecStart"] == ["/opt/robo-companion/bin/robo-companion run"]
    # Start limits belong in [Unit] since systemd 230; in [Service] they are ignored.
    assert "StartLimitIntervalSec" in unit["Unit"] and "StartLimitBurst" in unit["Unit"]
    assert not {"StartLimitIntervalSec", "StartLimitBurst", "StartLimitInterval"} & set(service)


def test_dedicated_user_with_the_hardware_groups(unit: dict[str, dict[str, list[str]]]) -> None:
    service = unit["Service"]
    assert service["User"] == ["robo-companion"]
    groups = set(" ".join(service["SupplementaryGroups"]).split())
    assert groups == {"video", "render", "input", "dialout", "gpio"}


def test_hardening_with_a_writable_state_directory(unit: dict[str, dict[str, list[str]]]) -> None:
    service = unit["Service"]
    for key, value in (("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"),
                       ("PrivateTmp", "yes"), ("ProtectHome", "yes")):
        assert service[key] == [value], key
    assert service["StateDirectory"] == ["robo-companion"]
    assert service["ConfigurationDirectory"] == ["robo-companion"]
    # lgpio needs a writable working directory: the state directory is the one that is.
    assert service["WorkingDirectory"] == ["%S/robo-companion"]
    # Devices must stay reachable: display, touch, camera, serial board, GPIO. ProtectClock=
    # implies a DeviceAllow= that, on older systemd, closes every other device.
    assert not {"PrivateDevices", "DeviceAllow", "DevicePolicy", "ProtectClock"} & set(service)


def test_kiosk_environment_for_kivy_and_gpiozero(unit: dict[str, dict[str, list[str]]]) -> None:
    env = environment(unit)
    assert env["KIVY_WINDOW"] == "sdl2"
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["KIVY_GL_BACKEND"] == "sdl2"
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio"
    assert env["LG_WD"] == "%S/robo-companion"
    assert env["ROBO_COMPANION_CONFIG"] == "%E/robo-companion/config.toml"
    assert env["KIVY_HOME"].startswith("%S/robo-companion")
    # logs to the journal, not to files that fill the SD card
    assert env["KIVY_NO_FILELOG"] == "1"
    assert unit["Service"]["StandardError"] == ["journal"]


def test_enabled_for_boot(unit: dict[str, dict[str, list[str]]]) -> None:
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]
