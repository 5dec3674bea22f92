"""systemd/install.sh against a fake root, with apt-get, pip, useradd, systemctl and friends
replaced by recording stubs (tests/systemd/installer_stubs.py) on PATH."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion import config as config_module

sys.path.insert(0, str(Path(__file__).parent))
import installer_stubs as stub

REPO = Path(__file__).resolve().parents[2]
INSTALLER = REPO / "systemd" / "install.sh"
#: what a checkout holds (the installer digests the packages to decide whether pip must run)
CHECKOUT_PARTS = ["systemd", "docs", "companion", "hardware", "vision", "ui", "pyproject.toml"]
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".*_cache")
STUBBED = ["apt-get", "apt-cache", "dpkg-query", "groupadd", "useradd", "usermod", "userdel",
           "systemctl", "python3", "udevadm"]
#: commands that change something; a second run must call none of them
MUTATING = {"apt-get", "groupadd", "useradd", "usermod", "userdel", "python", "udevadm"}
BOOKWORM_ONLY = "libasound2t64,libmtdev1t64"


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    calls: list[list[str]]


def copy_checkout(dest: Path) -> Path:
    """A private copy of the checkout, so edits elsewhere cannot change it during a test."""
    for part in CHECKOUT_PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, dest / part, ignore=IGNORE)
        elif source.is_file():
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / part)
    return dest


class FakeSystem:
    def __init__(self, tmp: Path, codename: str = "bookworm") -> None:
        self.src = copy_checkout(tmp / "checkout")
        self.installer = self.src / "systemd" / "install.sh"
        self.root = tmp / "root"
        self.bin = tmp / "bin"
        self.state = tmp / "state"
        self.log = tmp / "calls.jsonl"
        for d in (self.root / "etc/systemd/system", self.bin, self.state):
            d.mkdir(parents=True)
        (self.root / "etc/os-release").write_text(
            f'PRETTY_NAME="Debian GNU/Linux"\nID=debian\nVERSION_CODENAME={codename}\n'
        )
        (self.root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
        lists = self.root / "var/lib/apt/lists"
        lists.mkdir(parents=True)
        (lists / f"mirror_debian_dists_{codename}_main_binary-arm64_Packages").write_text("")
        # A Pi has gpio; a plain Debian lacks it and render/input may be missing too.
        (self.root / "etc/group").write_text(
            "root:x:0:\nvideo:x:44:\ndialout:x:20:\nrender:x:105:\ninput:x:104:\n"
        )
        for name in STUBBED:
            stub.write_wrapper(self.bin / name, name)
        self.env = {
            **os.environ,
            "PATH": f"{self.bin}:{os.environ['PATH']}",
            "STUB_LOG": str(self.log),
            "STUB_STATE": str(self.state),
            "STUB_ROOT": str(self.root),
            "STUB_UNAVAILABLE": BOOKWORM_ONLY if codename == "bookworm" else "",
            "STUB_NUMPY": "1.24.2",
            "STUB_PYTHON": sys.executable,
            "STUB_SRC": str(self.src),
        }

    def run(self, *args: str) -> Run:
        self.log.write_text("")
        proc = subprocess.run(
            ["bash", str(self.installer), "--root", str(self.root), *args],
            env=self.env, capture_output=True, text=True, check=False,
        )
        calls = [json.loads(line) for line in self.log.read_text().splitlines()]
        return Run(proc.returncode, proc.stdout, proc.stderr, calls)

    def snapshot(self) -> dict[str, str]:
        """Every path under the fake root with its content hash (or link target), and mode."""
        result: dict[str, str] = {}
        for path in sorted(self.root.rglob("*")):
            rel = str(path.relative_to(self.root))
            if path.is_symlink():
                result[rel] = "-> " + os.readlink(path)
            elif path.is_file():
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                result[rel] = f"{oct(path.stat().st_mode)} {digest} {path.stat().st_mtime_ns}"
            else:
                result[rel] = "dir"
        return result

    def members(self, group: str) -> list[str]:
        for line in (self.root / "etc/group").read_text().splitlines():
            name, _, _, members = line.split(":")
            if name == group:
                return [m for m in members.split(",") if m]
        raise AssertionError(f"no group {group}")

    def user_exists(self, user: str) -> bool:
        return any(line.split(":")[0] == user
                   for line in (self.root / "etc/passwd").read_text().splitlines())


@pytest.fixture
def fake(tmp_path: Path) -> FakeSystem:
    return FakeSystem(tmp_path)


def names(run: Run) -> list[str]:
    return [call[0] for call in run.calls]


def test_install_puts_every_file_where_the_service_expects_it(fake: FakeSystem) -> None:
    run = fake.run()
    assert run.returncode == 0, run.stdout + run.stderr
    root = fake.root

    unit = root / "etc/systemd/system/robo-companion.service"
    assert unit.read_bytes() == (REPO / "systemd/robo-companion.service").read_bytes()
    assert oct(unit.stat().st_mode & 0o777) == "0o644"
    assert (root / "etc/systemd/system/multi-user.target.wants/robo-companion.service").is_symlink()

    config_path = root / "etc/robo-companion/config.toml"
    cfg = config_module.load(config_path)  # a valid config, the app will accept it
    assert cfg.calibration_path == Path("/var/lib/robo-companion/calibration.json")
    assert (root / "opt/robo-companion/share/doc/install.md").is_file() == (
        REPO / "docs/install.md"
    ).is_file()
    rule = fake.src / "systemd/99-robo-siren.rules"
    if rule.is_file():
        assert (root / "etc/udev/rules.d/99-robo-siren.rules").read_bytes() == rule.read_bytes()
    else:
        assert "99-robo-siren.rules is not in this checkout" in run.stdout

    assert fake.user_exists("robo-companion")
    for group in ("video", "render", "input", "dialout", "gpio"):
        assert "robo-companion" in fake.members(group), group
    passwd = (root / "etc/passwd").read_text()
    assert ":/var/lib/robo-companion:/usr/sbin/nologin" in passwd


def test_install_asks_apt_for_the_pi_packages_and_pins_numpy(fake: FakeSystem) -> None:
    run = fake.run()
    assert run.returncode == 0, run.stdout + run.stderr
    install = next(c for c in run.calls if c[0] == "apt-get" and "install" in c)
    for package in ("python3-picamera2", "python3-lgpio", "python3-venv", "libegl1", "libgbm1",
                    "libmtdev1", "libasound2"):
        assert package in install, package
    venv = next(c for c in run.calls if c[0] == "python3" and c[1:3] == ["-m", "venv"])
    assert "--system-site-packages" in venv
    assert venv[-1] == str(fake.root / "opt/robo-companion")
    pip = next(c for c in run.calls if c[0] == "python")
    assert pip[:3] == ["python", "-m", "pip"]
    # pip gets a copy of the package parts, so no root-owned build files land in the checkout
    assert pip[-1].endswith("[all]") and not pip[-1].startswith(str(fake.src))
    staged = next(c for c in run.calls if c[0] == "pip-target")[1:]
    assert {"companion", "pyproject.toml"} <= set(staged) and "tests" not in staged
    assert not Path(pip[-1][: -len("[all]")]).exists()
    constraints = Path(pip[pip.index("--constraint") + 1]).read_text()
    assert "numpy==1.24.2" in constraints.splitlines()
    # --root never touches the running system's services or udev.
    assert ["systemctl", "daemon-reload"] not in run.calls
    assert "udevadm" not in names(run)


def test_trixie_gets_the_renamed_libraries(tmp_path: Path) -> None:
    fake = FakeSystem(tmp_path, codename="trixie")
    run = fake.run()
    assert run.returncode == 0, run.stdout + run.stderr
    install = next(c for c in run.calls if c[0] == "apt-get" and "install" in c)
    assert "libasound2t64" in install and "libmtdev1t64" in install
    assert "libasound2" not in install


def test_second_run_changes_nothing(fake: FakeSystem) -> None:
    first = fake.run()
    assert first.returncode == 0, first.stdout + first.stderr
    before = fake.snapshot()
    second = fake.run()
    assert second.returncode == 0, second.stdout + second.stderr
    assert fake.snapshot() == before
    assert not MUTATING & set(names(second)), second.calls
    assert not [c for c in second.calls if c[0] == "systemctl" and "enable" in c]
    assert "Nothing to do" in second.stdout


def test_an_update_reinstalls_only_the_package(fake: FakeSystem) -> None:
    # A changed checkout (git pull) must reach the venv; nothing else is redone.
    assert fake.run().returncode == 0
    (fake.src / "companion" / "_update_marker.py").write_text("VALUE = 1\n")
    run = fake.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert [c[0] for c in run.calls if c[0] in MUTATING] == ["python"]  # pip install only


def test_existing_config_is_never_overwritten(fake: FakeSystem) -> None:
    config_path = fake.root / "etc/robo-companion/config.toml"
    config_path.parent.mkdir(parents=True)
    config_path.write_text('[game]\nlanguage = "nl"\n')
    run = fake.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert config_path.read_text() == '[game]\nlanguage = "nl"\n'
    assert "never overwrites" in run.stdout


def test_dry_run_prints_every_step_and_changes_nothing(fake: FakeSystem) -> None:
    before = fake.snapshot()
    run = fake.run("--dry-run")
    assert run.returncode == 0, run.stdout + run.stderr
    assert fake.snapshot() == before
    assert not MUTATING & set(names(run)), run.calls
    for expected in ("would run: env DEBIAN_FRONTEND=noninteractive apt-get install",
                     "would run: groupadd", "would run: useradd",
                     "would run: python3 -m venv --system-site-packages",
                     "-m pip install", "would write: /etc/robo-companion/config.toml",
                     "would run: systemctl", "enable robo-companion.service"):
        assert expected in run.stdout, expected


def test_uninstall_removes_what_it_added_and_keeps_the_game_history(fake: FakeSystem) -> None:
    before = set(fake.snapshot())
    assert fake.run().returncode == 0
    journal = fake.root / "var/lib/robo-companion/journal.sqlite3"
    journal.parent.mkdir(parents=True)
    journal.write_bytes(b"SQLite format 3\x00")
    run = fake.run("--uninstall")
    assert run.returncode == 0, run.stdout + run.stderr
    assert journal.read_bytes() == b"SQLite format 3\x00"
    assert not fake.user_exists("robo-companion")
    left = set(fake.snapshot()) - before
    # Only the game history remains (and empty folders such as /opt, and the gpio group,
    # which other software may use).
    assert {p for p in left if not (fake.root / p).is_dir()} == {
        "var/lib/robo-companion/journal.sqlite3"
    }
    assert not any(p.startswith(("opt/robo-companion", "etc/robo-companion")) for p in left)
    assert "gpio" in (fake.root / "etc/group").read_text()
    assert "/var/lib/robo-companion" in run.stdout


def test_uninstall_keeps_a_config_you_changed(fake: FakeSystem) -> None:
    assert fake.run().returncode == 0
    config_path = fake.root / "etc/robo-companion/config.toml"
    config_path.write_text(config_path.read_text().replace('language = "en"', 'language = "de"'))
    run = fake.run("--uninstall")
    assert run.returncode == 0, run.stdout + run.stderr
    assert 'language = "de"' in config_path.read_text()
    assert "you changed it" in run.stdout


def test_plain_debian_without_the_pi_repository(fake: FakeSystem) -> None:
    fake.env["STUB_UNAVAILABLE"] = BOOKWORM_ONLY + ",python3-picamera2,python3-lgpio"
    run = fake.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert "python3-picamera2 is not offered" in run.stdout
    install = next(c for c in run.calls if c[0] == "apt-get" and "install" in c)
    assert "python3-picamera2" not in install
    constraints = (fake.root / "opt/robo-companion/constraints.txt").read_text()
    assert "numpy" not in constraints.replace("numpy (", "").split("\n", 1)[1]


def test_real_dry_run_on_this_machine_changes_nothing() -> None:
    # What a person types first; read-only queries of this machine only.
    proc = subprocess.run(["bash", str(INSTALLER), "--dry-run"], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("Dry run: nothing is changed.")
    assert "==> systemd unit /etc/systemd/system/robo-companion.service" in proc.stdout


def test_unknown_option_is_refused() -> None:
    proc = subprocess.run(["bash", str(INSTALLER), "--frobnicate"], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 2
    assert "unknown option --frobnicate" in proc.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck is not installed (apt-get install shellcheck)")
@pytest.mark.parametrize("script", ["systemd/install.sh", "scripts/arm64-check.sh"])
def test_shellcheck_clean(script: str) -> None:
    proc = subprocess.run(["shellcheck", str(REPO / script)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stdout
