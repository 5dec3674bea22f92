"""``robo-companion doctor``: checks everything the device needs and says how to fix what is not.

Checks, in order: the config file, the journal (game history), disk space of the state
directory, the display, group membership, the camera and the siren board. Each ends as one of

* ``ok``;
* ``warning``: the game still runs (for instance no camera: the table plays by touch);
* ``problem``: something needed is missing; the exit status is then 1;
* ``unknown``: this run could not look (a package not installed, no permission).

``--json`` prints one object for machines: ``{"ok": bool, "mode": "service"|"user",
"checks": [{"name", "status", "message", "fix", "details"}]}``.

When the kiosk service is installed and no state directory is given in the environment, the
doctor looks at what the service uses (``/etc/robo-companion``, ``/var/lib/robo-companion``,
the account ``robo-companion``); ``--user`` looks at the current account's instead.

Stdlib only at import; the camera, board and journal modules are imported when their check runs,
and a missing one is reported, not raised. The camera and board get a deadline each, so a hung
device cannot hang the doctor.
"""

from __future__ import annotations

import argparse
import contextlib
import grp
import importlib
import json
import os
import pwd
import shutil
import sys
import tempfile
import textwrap
import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from companion import config as config_module
from companion.config import SYSTEM_CONFIG, Config
from companion.errors import ConfigError

Status = Literal["ok", "warning", "problem", "unknown"]
T = TypeVar("T")

SERVICE_USER = "robo-companion"
SERVICE_UNIT = Path("/etc/systemd/system/robo-companion.service")
SERVICE_STATE = Path("/var/lib/robo-companion")
#: group -> what it opens, in the words the fix uses
GROUPS: dict[str, str] = {
    "video": "the display and the camera",
    "render": "the graphics chip",
    "input": "the touchscreen",
    "dialout": "the siren board on USB",
    "gpio": "a siren board wired to the GPIO header",
}
#: below this the journal may fail to append (a game cannot go on): a problem
DISK_PROBLEM_BYTES = 50 * 1024 * 1024
#: below this a warning, before it becomes a problem mid-game
DISK_WARNING_BYTES = 500 * 1024 * 1024


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    message: str
    fix: str = ""
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Context:
    """Where to look. Tests point these at fake trees; the defaults are the real system."""

    config: Config
    config_path: Path | None
    state_dir: Path
    mode: Literal["service", "user"]
    timeout: float = 5.0
    dev: Path = Path("/dev")
    sys_drm: Path = Path("/sys/class/drm")
    environ: dict[str, str] = field(default_factory=lambda: dict(os.environ))

    @property
    def journal_path(self) -> Path:
        if self.config.journal.path:
            return Path(self.config.journal.path).expanduser()
        return self.state_dir / "journal.sqlite3"


# ------------------------------------------------------------------------------------ checks


def check_config(path: Path | None) -> tuple[Check, Config]:
    """The config file in force; on error the other checks go on with the defaults."""
    try:
        cfg = config_module.load(path)
    except ConfigError as exc:
        where = str(path) if path else "the config file"
        return Check("config", "problem", f"{exc}.".replace("..", "."),
                     f"Correct it in {where} (a full example: robo-companion config example), "
                     "then run the doctor again. The checks below use the defaults.",
                     {"path": str(path) if path else None}), Config()
    if cfg.source is None:
        return Check("config", "ok", "No config file; the defaults apply.",
                     details={"path": None}), cfg
    return Check("config", "ok", f"{cfg.source} is valid.", details={"path": str(cfg.source)}), cfg


def check_journal(path: Path) -> Check:
    """The game history. Validated on a copy: the doctor never writes the live file."""
    details: dict[str, Any] = {"path": str(path)}
    try:
        present = path.exists()
    except PermissionError:
        # e.g. /var/lib/robo-companion is closed to other accounts (mode 0750)
        return Check("journal", "unknown", f"This account cannot look into {path.parent}.",
                     _sudo_fix(), details)
    if not present:
        parent = _existing_parent(path)
        if parent != path.parent and not os.access(parent, os.W_OK):
            return Check("journal", "unknown",
                         f"No journal yet at {path}, and this account cannot look into "
                         f"{parent}.", _sudo_fix(), details)
        if path.parent.exists() and not os.access(path.parent, os.W_OK):
            return Check("journal", "problem",
                         f"No journal yet at {path}, and its folder is not writable, so no game "
                         "can be saved.",
                         f"Make {path.parent} writable for the account that runs the app.",
                         details)
        return Check("journal", "ok",
                     f"No journal yet at {path}; it is created when the first game starts.",
                     details=details)
    if path.is_dir():
        return Check("journal", "problem", f"The journal path {path} is a folder, not a file.",
                     "Set journal.path in the config to a file, or move the folder away.",
                     details)
    if not os.access(path, os.R_OK):
        return Check("journal", "unknown", f"This account cannot read the journal {path}.",
                     _sudo_fix(), details)
    details["bytes"] = path.stat().st_size
    try:
        journal_module = importlib.import_module("companion.journal")
    except ModuleNotFoundError:
        return Check("journal", "unknown",
                     f"The journal {path} exists ({_size(details['bytes'])}), but this version "
                     "cannot check it (companion.journal is missing).", "", details)
    from companion.errors import JournalError

    with tempfile.TemporaryDirectory(prefix="robo-doctor-") as tmp:
        copy = Path(tmp) / path.name
        try:
            shutil.copyfile(path, copy)
            for suffix in ("-wal",):
                extra = path.with_name(path.name + suffix)
                if extra.exists():
                    shutil.copyfile(extra, copy.with_name(copy.name + suffix))
        except OSError as exc:
            return Check("journal", "unknown", f"Cannot read the journal {path} ({exc}).",
                         _sudo_fix(), details)
        try:
            journal = journal_module.Journal(copy)
        except JournalError as exc:
            message = str(exc).replace(str(copy), str(path))
            return Check("journal", "problem", _sentence(message),
                         f"Move {path} aside (the app then starts a new, empty history) and keep "
                         "the old file for recovery.", details)
        except Exception as exc:  # a bug in the journal must not hide the other checks
            return Check("journal", "problem",
                         f"The journal {path} could not be opened ({type(exc).__name__}: {exc}).",
                         "Report this, with the file, to the maintainers.", details)
        with contextlib.suppress(Exception):
            journal.close()
    return Check("journal", "ok", f"The journal {path} is valid ({_size(details['bytes'])}).",
                 details=details)


def check_disk(state_dir: Path) -> Check:
    where = _existing_parent(state_dir)
    details: dict[str, Any] = {"path": str(state_dir)}
    try:
        usage = shutil.disk_usage(where)
    except OSError as exc:
        return Check("disk", "unknown", f"Cannot measure free space at {where} ({exc}).",
                     details=details)
    details.update(free_bytes=usage.free, total_bytes=usage.total)
    free = _size(usage.free)
    fix = ("Free space on the SD card: sudo apt clean, remove old files, or export old games and "
           "move them off the device.")
    if usage.free < DISK_PROBLEM_BYTES:
        return Check("disk", "problem",
                     f"Only {free} free where the game history is kept ({where}); games cannot "
                     "be saved reliably.", fix, details)
    if usage.free < DISK_WARNING_BYTES:
        return Check("disk", "warning", f"Only {free} free where the game history is kept "
                     f"({where}).", fix, details)
    return Check("disk", "ok", f"{free} free for the game history ({where}).", details=details)


def check_display(dev: Path, sys_drm: Path, environ: dict[str, str]) -> Check:
    """A KMS/DRM screen the kiosk can drive (or a desktop session), and a touchscreen."""
    cards = sorted(p for p in (dev / "dri").glob("card*")) if (dev / "dri").is_dir() else []
    connected: list[str] = []
    for state_file in sorted(sys_drm.glob("card*-*/status")) if sys_drm.is_dir() else []:
        try:
            if state_file.read_text().strip() == "connected":
                connected.append(state_file.parent.name.split("-", 1)[1])
        except OSError:
            continue
    usable = [c for c in cards if os.access(c, os.R_OK | os.W_OK)]
    touch = _readable_input_devices(dev)
    details: dict[str, Any] = {"drm_devices": [str(c) for c in cards], "connected": connected,
                               "input_devices_readable": touch,
                               "DISPLAY": environ.get("DISPLAY", ""),
                               "WAYLAND_DISPLAY": environ.get("WAYLAND_DISPLAY", "")}
    session = environ.get("WAYLAND_DISPLAY") or environ.get("DISPLAY")
    touch_note = "" if touch else " No touchscreen input is readable (/dev/input)."
    touch_fix = "" if touch else (" For touch, join the group input "
                                  "(sudo usermod -aG input $USER) and check the ribbon cable.")
    status: Status = "ok" if touch else "warning"
    if cards and not usable:
        return Check("display", "problem",
                     f"The screen device {cards[0]} exists but this account may not use it.",
                     "Join the groups video and render: sudo usermod -aG video,render $USER, "
                     "then log in again (the kiosk service has them already).", details)
    if usable and connected:
        return Check("display", status,
                     f"Screen connected ({', '.join(connected)}) on {usable[0]}; the kiosk draws "
                     f"on it directly (KMS/DRM).{touch_note}", touch_fix.strip(), details)
    if usable:
        return Check("display", "warning",
                     f"{usable[0]} is there but no screen is reported connected.{touch_note}",
                     "Check the touchscreen's ribbon or HDMI cable and power, then reboot.",
                     details)
    if session:
        return Check("display", "ok",
                     f"No KMS/DRM device, but a desktop session ({session}): the app opens in a "
                     "window there.", details=details)
    return Check("display", "problem",
                 "No screen found: no KMS/DRM device in /dev/dri and no desktop session "
                 "(DISPLAY is not set).",
                 "On a Pi: connect the screen, keep dtoverlay=vc4-kms-v3d in "
                 "/boot/firmware/config.txt and reboot. Elsewhere, run the app from a desktop "
                 "session, or use 'robo-companion demo' there.", details)


def check_groups(mode: Literal["service", "user"]) -> Check:
    """Service mode: the groups the unit names must exist (else systemd refuses to start it) and
    the account must exist. User mode: this account's membership, for running the app by hand."""
    existing = {g: _group_exists(g) for g in GROUPS}
    missing_groups = [g for g, ok in existing.items() if not ok]
    if mode == "service":
        details: dict[str, Any] = {"user": SERVICE_USER, "missing_groups": missing_groups}
        try:
            pwd.getpwnam(SERVICE_USER)
        except KeyError:
            return Check("groups", "problem", f"The account {SERVICE_USER} does not exist, so "
                         "the kiosk service cannot start.",
                         "Run the installer again: sudo systemd/install.sh", details)
        if missing_groups:
            return Check("groups", "problem",
                         f"The group(s) {', '.join(missing_groups)} do not exist; systemd "
                         "refuses to start a service that asks for a missing group.",
                         f"sudo groupadd --system {missing_groups[0]} (for each), or run the "
                         "installer again.", details)
        return Check("groups", "ok", f"The service account {SERVICE_USER} and the groups "
                     f"{', '.join(GROUPS)} exist.", details=details)
    user = _user_name()
    if os.geteuid() == 0:
        return Check("groups", "ok", "Running as root: every device is open to this account.",
                     details={"user": user})
    mine = {_group_name(g) for g in os.getgroups()} | {_group_name(os.getegid())}
    lacking = [g for g in GROUPS if existing[g] and g not in mine]
    details = {"user": user, "lacking": lacking, "missing_groups": missing_groups}
    if not lacking:
        return Check("groups", "ok", f"{user} is in every group the app uses that exists here "
                     f"({', '.join(g for g in GROUPS if existing[g])}).", details=details)
    why = "; ".join(f"{g}: {GROUPS[g]}" for g in lacking)
    return Check("groups", "warning",
                 f"{user} is not in {', '.join(lacking)} ({why}). The kiosk service has these "
                 "groups anyway; this matters when you start the app by hand.",
                 f"sudo usermod -aG {','.join(lacking)} {user}, then log out and in again.",
                 details)


def check_camera(ctx: Context) -> Check:
    source = ctx.config.camera.source
    details: dict[str, Any] = {"source": source,
                               "video_devices": sorted(str(p) for p in ctx.dev.glob("video*"))}
    if source == "none":
        return Check("camera", "ok", 'The camera is switched off (camera.source = "none"); '
                     "readings are entered by touch.", details=details)
    seen = (f" ({', '.join(details['video_devices'])} present)"
            if details["video_devices"] else " (no /dev/video* devices either)")
    try:
        vision = importlib.import_module("vision")
        probe: Callable[[Config], tuple[bool, str]] = vision.probe
    except ImportError as exc:
        missing = getattr(exc, "name", None) or "vision"
        return Check("camera", "unknown",
                     f"Cannot check the camera: the camera support needs {missing!r}, which is "
                     f"not installed{seen}.",
                     "Install it with: pip install 'robo-companion[vision]'", details)
    except AttributeError:
        return Check("camera", "unknown",
                     f"Cannot check the camera: this version's camera support has no self-check "
                     f"yet{seen}.", "", details)
    outcome = _with_deadline(lambda: probe(ctx.config), ctx.timeout)
    if outcome is None:
        return Check("camera", "problem" if source != "auto" else "warning",
                     f"The camera did not answer within {ctx.timeout:g} s.",
                     "Unplug and replug it (USB) or check the ribbon cable (Pi camera), then "
                     "reboot.", details)
    if isinstance(outcome, BaseException):
        return Check("camera", "problem" if source != "auto" else "warning",
                     f"The camera check failed ({type(outcome).__name__}: {outcome}).", "",
                     details)
    ok, message = outcome
    if ok:
        return Check("camera", "ok", message, details=details)
    if source == "auto":
        goes_on = "" if "touch" in message else (" The game goes on without it: readings are "
                                                 "entered by touch.")
        return Check("camera", "warning", f"{_sentence(message)}{goes_on}",
                     "Connect a Pi camera (ribbon) or a USB camera, or set camera.source = "
                     '"none" to silence this.', details)
    return Check("camera", "problem", _sentence(message),
                 f'The config asks for camera.source = "{source}": connect that camera, or '
                 'set camera.source = "auto" or "none".', details)


def check_calibration(ctx: Context) -> Check:
    """Whether the camera has a calibration from the user's own components that this version
    can use: without one the readers keep their defaults (Robot Master cards are then always
    asked by touch), and the app itself only logs why."""
    path = ctx.config.calibration_path
    details: dict[str, Any] = {"path": str(path)}
    how = ("Tap 'Set up the camera' on the app's home screen and follow its steps, or calibrate "
           "with at most 12 labelled pictures of your own components: "
           "robo-companion vision calibrate FOLDER (see docs/vision.md).")
    if ctx.config.camera.source == "none":
        return Check("calibration", "ok", "The camera is switched off; nothing to calibrate.",
                     details=details)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Check("calibration", "warning",
                     "The camera has not been calibrated with your components: part tiles and "
                     "order cards are read with the built-in colours, and Robot Master cards "
                     "are asked by touch.", how, details)
    except (OSError, ValueError) as exc:
        return Check("calibration", "warning",
                     f"The stored calibration at {path} cannot be read ({exc}); the camera "
                     "reads with the built-in defaults.", how, details)
    try:
        version: Any = importlib.import_module("vision.calibration").VERSION
    except (ImportError, AttributeError):
        version = None
    stored = data.get("version") if isinstance(data, dict) else None
    details.update(version=stored, images=data.get("images") if isinstance(data, dict) else None)
    if version is not None and stored != version:
        return Check("calibration", "warning",
                     "The stored calibration is from another version of the app and is not "
                     "used: the camera reads with the built-in defaults.", how, details)
    return Check("calibration", "ok",
                 f"Calibrated on {details['images']} pictures of your components ({path}).",
                 details=details)


def check_siren(ctx: Context) -> Check:
    siren = ctx.config.siren
    details: dict[str, Any] = {"backend": siren.backend, "port": siren.port}
    try:
        hardware = importlib.import_module("hardware")
        probe: Callable[..., Any] = hardware.probe
    except ImportError as exc:
        missing = getattr(exc, "name", None) or "hardware"
        return Check("siren board", "unknown",
                     f"Cannot check the siren board: its support needs {missing!r}, which is not "
                     "installed.", "Install it with: pip install 'robo-companion[hardware]'",
                     details)
    except AttributeError:
        return Check("siren board", "unknown",
                     "Cannot check the siren board: this version's board support has no "
                     "self-check yet.", "", details)
    # The board's own probe has a timeout; the deadline here only guards against a hang in it.
    outcome = _with_deadline(lambda: probe(siren, ctx.timeout), ctx.timeout * 2 + 1)
    needed = siren.backend not in ("auto", "none")
    if outcome is None or isinstance(outcome, BaseException):
        what = ("did not answer in time" if outcome is None
                else f"failed ({type(outcome).__name__}: {outcome})")
        return Check("siren board", "problem" if needed else "warning",
                     f"The siren board check {what}.",
                     "Unplug the board, plug it in again, and rerun the doctor.", details)
    details.update(board_id=outcome.board_id, firmware=outcome.firmware,
                   stations=outcome.stations, port=outcome.port or siren.port)
    if outcome.ok:
        return Check("siren board", "ok", outcome.message, details=details)
    if needed:
        return Check("siren board", "problem", _sentence(outcome.message),
                     f'The config asks for siren.backend = "{siren.backend}": connect it, or '
                     'set siren.backend = "auto" or "none".', details)
    return Check("siren board", "warning", _sentence(outcome.message), "", details)


# ------------------------------------------------------------------------------------ running


def run_checks(ctx: Context, config_check: Check | None = None) -> list[Check]:
    checks = [config_check] if config_check else []
    for step in (lambda: check_journal(ctx.journal_path), lambda: check_disk(ctx.state_dir),
                 lambda: check_display(ctx.dev, ctx.sys_drm, ctx.environ),
                 lambda: check_groups(ctx.mode), lambda: check_camera(ctx),
                 lambda: check_calibration(ctx), lambda: check_siren(ctx)):
        checks.append(_guarded(step))
    return checks


def build_context(mode: str, timeout: float, environ: dict[str, str] | None = None,
                  ) -> tuple[Context, Check]:
    environ = dict(os.environ) if environ is None else environ
    explicit_state = environ.get(config_module.ENV_STATE) or environ.get("STATE_DIRECTORY")
    if mode == "auto":
        installed = SERVICE_UNIT.exists() or SERVICE_STATE.exists()
        mode = "service" if installed and not explicit_state else "user"
    resolved: Literal["service", "user"] = "service" if mode == "service" else "user"
    if resolved == "service":
        explicit_config = environ.get(config_module.ENV_CONFIG)
        config_path: Path | None = (Path(explicit_config) if explicit_config else
                                    SYSTEM_CONFIG if SYSTEM_CONFIG.exists() else None)
        state = SERVICE_STATE
    else:
        config_path = config_module.find_config()
        state = config_module.state_dir()
    config_check, cfg = check_config(config_path)
    ctx = Context(cfg, config_path, state, resolved, timeout, environ=environ)
    return ctx, config_check


def format_human(checks: Sequence[Check], ctx: Context, columns: int | None = None) -> str:
    who = (f"as the kiosk service sees it (account {SERVICE_USER})" if ctx.mode == "service"
           else f"for the account {_user_name()}")
    lines = [f"robo-companion doctor, {who}", ""]
    width = max(len(c.name) for c in checks)
    if columns is None:
        columns = min(shutil.get_terminal_size((100, 24)).columns, 110)
    hanging = " " * (2 + 8 + 1 + width + 2)
    text_width = max(columns, len(hanging) + 30)

    def wrapped(first: str, text: str) -> list[str]:
        return textwrap.wrap(text, text_width, initial_indent=first, subsequent_indent=hanging,
                             break_on_hyphens=False, break_long_words=False)

    for c in checks:
        label = {"ok": "ok", "warning": "warning", "problem": "PROBLEM", "unknown": "?"}[c.status]
        lines.extend(wrapped(f"  {label:<8} {c.name:<{width}}  ", c.message))
        if c.fix:
            lines.extend(wrapped(hanging + "fix: ", c.fix))
    problems = sum(c.status == "problem" for c in checks)
    warnings = sum(c.status in ("warning", "unknown") for c in checks)
    lines.append("")
    if problems:
        lines.append(f"{_count(problems, 'problem')}, {_count(warnings, 'warning')}: fix the "
                     "problems above, then run the doctor again.")
    elif warnings:
        lines.append(f"No problems; {_count(warnings, 'warning')}. The game can be played.")
    else:
        lines.append("Everything is in order.")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="robo-companion doctor",
        description="Check the config, game history, disk, display, groups, camera and siren "
                    "board, and say how to fix what is wrong. Exit status 1 when something "
                    "needed is missing.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--service", dest="mode", action="store_const", const="service",
                     help="check what the kiosk service uses (default when it is installed)")
    who.add_argument("--user", dest="mode", action="store_const", const="user",
                     help="check this account's config and state directory")
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds to wait for the camera and the board (default 5)")
    # `robo-companion doctor -- --json` hands the "--" through; it means nothing here.
    args = parser.parse_args(argv[1:] if argv[:1] == ["--"] else argv)
    ctx, config_check = build_context(args.mode or "auto", max(0.1, args.timeout))
    checks = run_checks(ctx, config_check)
    failed = any(c.status == "problem" for c in checks)
    if args.json:
        print(json.dumps({"ok": not failed, "mode": ctx.mode,
                          "checks": [asdict(c) for c in checks]}, indent=2))
    else:
        print(format_human(checks, ctx))
    return 1 if failed else 0


# ------------------------------------------------------------------------------------ helpers


def _guarded(step: Callable[[], Check]) -> Check:
    try:
        return step()
    except Exception as exc:  # one broken check must not hide the others
        return Check("doctor", "unknown", f"A check failed unexpectedly ({type(exc).__name__}: "
                     f"{exc}).", "Report this to the maintainers.")


def _with_deadline(fn: Callable[[], T], seconds: float) -> T | BaseException | None:
    """fn() in a daemon thread; None if it has not returned in time (it is then abandoned)."""
    box: list[T | BaseException] = []

    def target() -> None:
        try:
            box.append(fn())
        except BaseException as exc:
            box.append(exc)

    worker = threading.Thread(target=target, name="doctor-probe", daemon=True)
    worker.start()
    worker.join(seconds)
    return box[0] if box else None


def _readable_input_devices(dev: Path) -> int:
    folder = dev / "input"
    if not folder.is_dir():
        return 0
    return sum(1 for p in folder.glob("event*") if os.access(p, os.R_OK))


def _existing_parent(path: Path) -> Path:
    while path.parent != path:
        try:
            if path.exists():
                break
        except PermissionError:
            pass  # a folder we may not look into: measure its parent instead
        path = path.parent
    return path


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def _group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def _user_name() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


def _sudo_fix() -> str:
    return "Run the doctor as root: sudo robo-companion doctor"


def _size(n: int) -> str:
    value = float(n)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
