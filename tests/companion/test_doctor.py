"""robo-companion doctor: each check on fake trees and fake adapters, and the whole run on this
machine (no camera, no board, no screen) without a crash."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import types
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from companion import doctor
from companion.config import CameraConfig, Config, SirenConfig

NAMES = ["config", "journal", "disk", "display", "groups", "camera", "calibration", "siren board"]


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No config file, a private state directory: the doctor looks only inside tmp_path."""
    for name in ("ROBO_COMPANION_CONFIG", "ROBO_COMPANION_STATE", "STATE_DIRECTORY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path


def context(tmp_path: Path, **changes: object) -> doctor.Context:
    ctx = doctor.Context(Config(), None, tmp_path / "state", "user", timeout=2.0,
                         dev=tmp_path / "dev", sys_drm=tmp_path / "sys", environ={})
    return replace(ctx, **changes)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the whole run, this machine


def test_this_machine_json(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = doctor.main(["--json", "--user", "--timeout", "2"])
    report = json.loads(capsys.readouterr().out)
    assert [c["name"] for c in report["checks"]] == NAMES
    assert report["mode"] == "user"
    problems = [c for c in report["checks"] if c["status"] == "problem"]
    assert report["ok"] is (not problems)
    assert code == (1 if problems else 0)
    by_name = {c["name"]: c for c in report["checks"]}
    # No camera and no board here: said plainly, and not a reason to fail (the table plays by
    # touch); the board's absence or the missing support is named.
    assert by_name["siren board"]["status"] in ("warning", "unknown")
    assert by_name["camera"]["status"] in ("warning", "unknown")
    for check in report["checks"]:
        assert check["message"] and "Traceback" not in check["message"]


def test_this_machine_human(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doctor.main(["--user", "--timeout", "2"])
    out = capsys.readouterr().out
    for name in NAMES:
        assert f" {name} " in out
    assert "siren board" in out.lower()
    assert out.rstrip().splitlines()[-1].endswith((".",))


def test_command_line_entry_point(isolated: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companion.cli", "doctor", "--", "--json", "--user",
         "--timeout", "2"],
        capture_output=True, text=True, check=False, env=os.environ.copy(),
    )
    assert "Traceback" not in proc.stderr
    report = json.loads(proc.stdout)
    assert proc.returncode == (0 if report["ok"] else 1)


# ------------------------------------------------------------------------------------ config


def test_bad_config_is_a_problem_named_by_key(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[siren]\nbaudrate = "fast"\n')
    check, cfg = doctor.check_config(path)
    assert check.status == "problem"
    assert "siren.baudrate" in check.message
    assert str(path) in check.fix
    assert cfg == Config()  # the other checks go on with the defaults


def test_good_config(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[camera]\nsource = "none"\n')
    check, cfg = doctor.check_config(path)
    assert check.status == "ok" and str(path) in check.message
    assert cfg.camera.source == "none"


# ----------------------------------------------------------------------------------- journal


def test_no_journal_yet_is_fine(tmp_path: Path) -> None:
    check = doctor.check_journal(tmp_path / "state" / "journal.sqlite3")
    assert check.status == "ok"
    assert "created when the first game starts" in check.message
    assert not (tmp_path / "state").exists()  # the doctor creates nothing


def test_journal_in_a_folder_closed_to_this_account(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # /var/lib/robo-companion is 0750: a person running the doctor without sudo cannot look in.
    closed = tmp_path / "state"
    real_exists = Path.exists

    def exists(self: Path, **kwargs: object) -> bool:
        if self.is_relative_to(closed) and self != closed:
            raise PermissionError(13, "Permission denied", str(self))
        return real_exists(self)

    monkeypatch.setattr(Path, "exists", exists)
    check = doctor.check_journal(closed / "journal.sqlite3")
    assert check.status == "unknown" and "sudo" in check.fix
    assert doctor.check_disk(closed / "journal.sqlite3").status in ("ok", "warning", "problem")


def test_journal_path_that_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / "journal.sqlite3").mkdir()
    assert doctor.check_journal(tmp_path / "journal.sqlite3").status == "problem"



def _journal_available() -> bool:
    try:
        import companion.journal  # noqa: F401
    except ModuleNotFoundError:
        return False
    return True


@pytest.mark.skipif(not _journal_available(), reason="companion.journal is not there yet")
def test_a_foreign_file_is_a_problem_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"this is not a database at all" * 10)
    before = path.read_bytes()
    check = doctor.check_journal(path)
    assert check.status == "problem"
    assert str(path) in check.message and "robo-doctor" not in check.message
    assert "aside" in check.fix
    assert path.read_bytes() == before


@pytest.mark.skipif(not _journal_available(), reason="companion.journal is not there yet")
def test_a_valid_journal_is_checked_on_a_copy(tmp_path: Path) -> None:
    from companion.journal import Journal

    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    check = doctor.check_journal(path)
    assert check.status == "ok", check.message
    # The live file (and its folder) are exactly as before: no -wal/-shm from the doctor.
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_journal_module_missing_is_reported(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"SQLite format 3\x00")
    monkeypatch.setitem(sys.modules, "companion.journal", None)  # makes the import fail
    check = doctor.check_journal(path)
    assert check.status == "unknown"
    assert "cannot check" in check.message


# -------------------------------------------------------------------------------------- disk


@pytest.mark.parametrize(("free_mb", "status"), [(10, "problem"), (200, "warning"),
                                                  (5000, "ok")])
def test_disk_space(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, free_mb: int,
                    status: str) -> None:
    usage = types.SimpleNamespace(total=32_000 * 2**20, used=0, free=free_mb * 2**20)
    monkeypatch.setattr(doctor.shutil, "disk_usage", lambda _path: usage)
    check = doctor.check_disk(tmp_path / "not" / "there" / "yet")
    assert check.status == status
    assert check.details["free_bytes"] == free_mb * 2**20
    if status != "ok":
        assert "SD card" in check.fix


# ----------------------------------------------------------------------------------- display


def make_display(tmp_path: Path, *, card: bool, connected: bool, touch: bool) -> None:
    (tmp_path / "dev/input").mkdir(parents=True)
    (tmp_path / "sys").mkdir()
    if card:
        (tmp_path / "dev/dri").mkdir()
        (tmp_path / "dev/dri/card1").write_text("")
        (tmp_path / "sys/card1-DSI-1").mkdir()
        state = "connected" if connected else "disconnected"
        (tmp_path / "sys/card1-DSI-1/status").write_text(state + "\n")
    if touch:
        (tmp_path / "dev/input/event0").write_text("")


def test_display_connected_with_touch(tmp_path: Path) -> None:
    make_display(tmp_path, card=True, connected=True, touch=True)
    check = doctor.check_display(tmp_path / "dev", tmp_path / "sys", {})
    assert check.status == "ok"
    assert "DSI-1" in check.message and "KMS/DRM" in check.message


def test_display_without_touch_is_a_warning(tmp_path: Path) -> None:
    make_display(tmp_path, card=True, connected=True, touch=False)
    check = doctor.check_display(tmp_path / "dev", tmp_path / "sys", {})
    assert check.status == "warning"
    assert "input" in check.fix


def test_display_card_without_a_screen(tmp_path: Path) -> None:
    make_display(tmp_path, card=True, connected=False, touch=True)
    check = doctor.check_display(tmp_path / "dev", tmp_path / "sys", {})
    assert check.status == "warning" and "cable" in check.fix


def test_no_display_at_all_is_a_problem(tmp_path: Path) -> None:
    make_display(tmp_path, card=False, connected=False, touch=False)
    check = doctor.check_display(tmp_path / "dev", tmp_path / "sys", {})
    assert check.status == "problem"
    assert "No screen found" in check.message and "vc4-kms-v3d" in check.fix


def test_desktop_session_is_enough(tmp_path: Path) -> None:
    make_display(tmp_path, card=False, connected=False, touch=False)
    check = doctor.check_display(tmp_path / "dev", tmp_path / "sys", {"DISPLAY": ":0"})
    assert check.status == "ok" and ":0" in check.message


# ------------------------------------------------------------------------------------ groups


def test_service_mode_without_the_account(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_user(name: str) -> object:
        raise KeyError(name)

    monkeypatch.setattr(doctor.pwd, "getpwnam", no_user)
    check = doctor.check_groups("service")
    assert check.status == "problem" and "install.sh" in check.fix


def test_service_mode_with_a_missing_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(doctor.pwd, "getpwnam", lambda name: object())
    monkeypatch.setattr(doctor, "_group_exists", lambda name: name != "gpio")
    check = doctor.check_groups("service")
    assert check.status == "problem"
    assert "gpio" in check.message and "groupadd --system gpio" in check.fix


def test_user_mode_names_the_groups_to_join(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(doctor.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(doctor.os, "getegid", lambda: 1000)
    monkeypatch.setattr(doctor.os, "getgroups", lambda: [1000, 44])
    monkeypatch.setattr(doctor, "_user_name", lambda: "pi")
    monkeypatch.setattr(doctor, "_group_exists", lambda name: True)
    monkeypatch.setattr(doctor, "_group_name", lambda gid: {44: "video"}.get(gid, "pi"))
    check = doctor.check_groups("user")
    assert check.status == "warning"
    assert check.details["lacking"] == ["render", "input", "dialout", "gpio"]
    assert "sudo usermod -aG render,input,dialout,gpio pi" in check.fix


# ------------------------------------------------------------------------------------ camera


@pytest.fixture
def fake_vision(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.SimpleNamespace]:
    module = types.SimpleNamespace(probe=lambda config: (False, "no camera found"))
    monkeypatch.setitem(sys.modules, "vision", module)
    yield module


def test_no_camera_with_auto_is_a_warning(tmp_path: Path,
                                          fake_vision: types.SimpleNamespace) -> None:
    check = doctor.check_camera(context(tmp_path))
    assert check.status == "warning"
    assert "No camera found." in check.message and "by touch" in check.message


def test_no_camera_when_one_is_configured_is_a_problem(
    tmp_path: Path, fake_vision: types.SimpleNamespace
) -> None:
    cfg = replace(Config(), camera=CameraConfig(source="picamera2"))
    check = doctor.check_camera(context(tmp_path, config=cfg))
    assert check.status == "problem" and "picamera2" in check.fix


def test_camera_found(tmp_path: Path, fake_vision: types.SimpleNamespace) -> None:
    fake_vision.probe = lambda config: (True, "Pi camera imx708 at 1280x720.")
    check = doctor.check_camera(context(tmp_path))
    assert check.status == "ok" and "imx708" in check.message


def test_camera_switched_off(tmp_path: Path) -> None:
    cfg = replace(Config(), camera=CameraConfig(source="none"))
    assert doctor.check_camera(context(tmp_path, config=cfg)).status == "ok"


def test_a_hung_camera_does_not_hang_the_doctor(
    tmp_path: Path, fake_vision: types.SimpleNamespace
) -> None:
    release = threading.Event()
    fake_vision.probe = lambda config: release.wait() and (True, "late")
    try:
        check = doctor.check_camera(context(tmp_path, timeout=0.2))
    finally:
        release.set()
    assert check.status == "warning" and "did not answer" in check.message


def test_camera_support_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "vision", None)
    check = doctor.check_camera(context(tmp_path))
    assert check.status == "unknown"
    assert "robo-companion[vision]" in check.fix


# ------------------------------------------------------------------------------- siren board


@dataclass(frozen=True)
class FakeProbe:
    ok: bool
    message: str
    board_id: str = ""
    firmware: str = ""
    stations: int = 0
    port: str = ""


def fake_hardware(monkeypatch: pytest.MonkeyPatch, result: FakeProbe) -> list[float]:
    timeouts: list[float] = []

    def probe(config: SirenConfig, timeout: float = 2.0) -> FakeProbe:
        timeouts.append(timeout)
        return result

    monkeypatch.setitem(sys.modules, "hardware", types.SimpleNamespace(probe=probe))
    return timeouts


def test_board_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    timeouts = fake_hardware(monkeypatch, FakeProbe(
        True, "The siren board pico-1 answers on /dev/ttyACM0: firmware 1.2.0, 6 stations.",
        "pico-1", "1.2.0", 6, "/dev/ttyACM0"))
    check = doctor.check_siren(context(tmp_path))
    assert check.status == "ok"
    assert check.details["firmware"] == "1.2.0" and check.details["stations"] == 6
    assert timeouts == [2.0]


def test_no_board_with_auto_is_a_warning(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    fake_hardware(monkeypatch, FakeProbe(False, "no siren board found"))
    check = doctor.check_siren(context(tmp_path))
    assert check.status == "warning" and check.message == "No siren board found."


def test_no_board_when_serial_is_configured_is_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_hardware(monkeypatch, FakeProbe(False, "No siren board found."))
    cfg = replace(Config(), siren=SirenConfig(backend="serial"))
    check = doctor.check_siren(context(tmp_path, config=cfg))
    assert check.status == "problem" and '"serial"' in check.fix


def test_board_support_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "hardware", None)
    check = doctor.check_siren(context(tmp_path))
    assert check.status == "unknown" and "robo-companion[hardware]" in check.fix


def test_a_check_that_crashes_does_not_stop_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(ctx: doctor.Context) -> doctor.Check:
        raise RuntimeError("boom")

    monkeypatch.setattr(doctor, "check_camera", broken)
    fake_hardware(monkeypatch, FakeProbe(False, "none"))
    checks = doctor.run_checks(context(tmp_path))
    assert [c.status for c in checks if c.name == "doctor"] == ["unknown"]
    assert checks[-1].name == "siren board"


# ------------------------------------------------------------------------------- calibration


def _with_calibration(tmp_path: Path, text: str | None) -> doctor.Context:
    path = tmp_path / "calibration.json"
    if text is not None:
        path.write_text(text)
    return context(tmp_path, config=replace(Config(), camera=CameraConfig(calibration=str(path))))


def test_no_calibration_is_a_warning_that_says_how(tmp_path: Path) -> None:
    check = doctor.check_calibration(_with_calibration(tmp_path, None))
    assert check.status == "warning"
    assert "asked by touch" in check.message
    assert "vision calibrate" in check.fix


def test_a_calibration_of_another_version_is_named(tmp_path: Path) -> None:
    """The reader sets such a calibration aside and says so only in its log (calibration
    version 2, 2026-11-23): the doctor says it in words."""
    pytest.importorskip("vision.calibration")
    check = doctor.check_calibration(
        _with_calibration(tmp_path, json.dumps({"version": 1, "images": 12})))
    assert check.status == "warning"
    assert "another version" in check.message
    assert "vision calibrate" in check.fix


def test_an_unreadable_calibration_is_a_warning(tmp_path: Path) -> None:
    check = doctor.check_calibration(_with_calibration(tmp_path, "{not json"))
    assert check.status == "warning"
    assert "cannot be read" in check.message


def test_a_calibration_of_this_version(tmp_path: Path) -> None:
    calibration = pytest.importorskip("vision.calibration")
    check = doctor.check_calibration(_with_calibration(
        tmp_path, json.dumps({"version": calibration.VERSION, "images": 12})))
    assert check.status == "ok"
    assert "12 pictures" in check.message


def test_no_calibration_needed_with_the_camera_off(tmp_path: Path) -> None:
    ctx = context(tmp_path, config=replace(Config(), camera=CameraConfig(source="none")))
    assert doctor.check_calibration(ctx).status == "ok"
