"""Configuration: one TOML file, validated at start.

Where it is read from, first found wins:

1. the path in ``$ROBO_COMPANION_CONFIG``;
2. ``$XDG_CONFIG_HOME/robo-companion/config.toml`` (``~/.config/...``) for a user;
3. ``/etc/robo-companion/config.toml`` for the service.

With no file the defaults below apply. Every error names the key and the value expected, e.g.
``siren.baudrate: expected a whole number, got 'fast'``.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import ConfigError
from companion.robots import DEFAULT_COLOURS, Palette

ENV_CONFIG = "ROBO_COMPANION_CONFIG"
ENV_STATE = "ROBO_COMPANION_STATE"
SYSTEM_CONFIG = Path("/etc/robo-companion/config.toml")


def _choices(*values: str) -> dict[str, Any]:
    return {"choices": values}


@dataclass(frozen=True)
class GameConfig:
    #: the four colour names used in robots, in the order the lanes are printed
    colours: list[str] = field(default_factory=lambda: list(DEFAULT_COLOURS))
    #: how each colour is drawn on screen, "#rrggbb"
    display: dict[str, str] = field(
        default_factory=lambda: {
            "red": "#d7263d",
            "green": "#1b998b",
            "blue": "#2e86de",
            "yellow": "#f4d35e",
        }
    )
    language: str = field(default="en", metadata=_choices("en", "nl", "de"))


@dataclass(frozen=True)
class RoboFactoryConfig:
    tie: str = field(default="share", metadata=_choices("share", "extra-round"))
    penalty: str = field(default="rulebook", metadata=_choices("rulebook", "faq"))


@dataclass(frozen=True)
class RobotMasterConfig:
    frame: str = field(default="fixed", metadata=_choices("fixed", "floating"))


@dataclass(frozen=True)
class GpioConfig:
    #: BCM pin of each station's button, station 0 first
    buttons: list[int] = field(default_factory=lambda: [17, 27, 22, 23, 24, 25])
    #: BCM pin of each station's light, station 0 first
    lights: list[int] = field(default_factory=lambda: [5, 6, 13, 19, 26, 12])
    bounce_ms: int = 30


@dataclass(frozen=True)
class SirenConfig:
    #: auto: a serial board if one is found, else play by touch
    backend: str = field(
        default="auto", metadata=_choices("auto", "serial", "gpio", "simulated", "none")
    )
    #: a device path such as /dev/robo-siren, or "auto" to find the board by USB id
    port: str = "auto"
    #: USB vendor:product ids that identify the board (Raspberry Pi Pico MicroPython)
    usb_ids: list[str] = field(default_factory=lambda: ["2e8a:0005"])
    baudrate: int = 115200
    heartbeat_s: float = 1.0
    gpio: GpioConfig = field(default_factory=GpioConfig)


@dataclass(frozen=True)
class CameraConfig:
    #: auto: the Pi camera if present, else the first USB camera, else play by touch
    source: str = field(
        default="auto", metadata=_choices("auto", "picamera2", "opencv", "replay", "none")
    )
    #: OpenCV camera index or device path
    device: str = "0"
    #: replay source: a folder of images or a video file
    folder: str = ""
    width: int = 1280
    height: int = 720
    #: height of the lens above the table, for sizing printed markers
    height_mm: int = 700
    #: where calibration is stored; empty = calibration.json beside the config file
    calibration: str = ""


@dataclass(frozen=True)
class UiConfig:
    sound: bool = True
    volume: float = 0.8
    fullscreen: bool = False


@dataclass(frozen=True)
class JournalConfig:
    #: the SQLite journal; empty = the state directory (see companion.config.state_dir)
    path: str = ""


@dataclass(frozen=True)
class Config:
    game: GameConfig = field(default_factory=GameConfig)
    robo_factory: RoboFactoryConfig = field(default_factory=RoboFactoryConfig)
    robot_master: RobotMasterConfig = field(default_factory=RobotMasterConfig)
    siren: SirenConfig = field(default_factory=SirenConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    ui: UiConfig = field(default_factory=UiConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    #: the file this was read from (None: defaults)
    source: Path | None = field(default=None, compare=False)

    @property
    def palette(self) -> Palette:
        return Palette(tuple(self.game.colours))

    @property
    def config_dir(self) -> Path:
        """Where calibration and other per-device files live."""
        if self.source is not None:
            return self.source.parent
        return user_config_dir()

    @property
    def journal_path(self) -> Path:
        if self.journal.path:
            return Path(self.journal.path).expanduser()
        return state_dir() / "journal.sqlite3"

    @property
    def calibration_path(self) -> Path:
        if self.camera.calibration:
            return Path(self.camera.calibration).expanduser()
        return self.config_dir / "calibration.json"


def user_config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "robo-companion"


def state_dir() -> Path:
    """``$ROBO_COMPANION_STATE``, systemd's ``$STATE_DIRECTORY``, or the XDG state home."""
    explicit = os.environ.get(ENV_STATE) or os.environ.get("STATE_DIRECTORY")
    if explicit:
        return Path(explicit.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "robo-companion"


def find_config() -> Path | None:
    """The config file in force, or None when only defaults apply."""
    explicit = os.environ.get(ENV_CONFIG)
    if explicit:
        return Path(explicit)
    for candidate in (user_config_dir() / "config.toml", SYSTEM_CONFIG):
        if candidate.is_file():
            return candidate
    return None


def load(path: Path | None = None) -> Config:
    """Read and validate the config file (``find_config()`` when path is None)."""
    path = path if path is not None else find_config()
    if path is None:
        return Config()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: the config file does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc})") from None
    return parse(text, source=path)


def parse(text: str, source: Path | None = None) -> Config:
    where = f"{source}: " if source else ""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}not valid TOML ({exc})") from None
    try:
        config: Config = _build(Config, data, "")
    except ConfigError as exc:
        raise ConfigError(f"{where}{exc}") from None
    config = dataclasses.replace(config, source=source)
    _check_cross_fields(config, where)
    return config


def _check_cross_fields(config: Config, where: str) -> None:
    try:
        config.palette  # noqa: B018 - validates the colour names
    except ValueError as exc:
        raise ConfigError(f"{where}game.colours: {exc}") from None
    for colour in config.game.colours:
        if colour not in config.game.display:
            raise ConfigError(
                f'{where}game.display: expected a "#rrggbb" for colour {colour!r}, none given'
            )
    for name, value in config.game.display.items():
        if not (len(value) == 7 and value.startswith("#") and _is_hex(value[1:])):
            raise ConfigError(f'{where}game.display.{name}: expected "#rrggbb", got {value!r}')
    if not 0.0 <= config.ui.volume <= 1.0:
        raise ConfigError(
            f"{where}ui.volume: expected a number from 0 to 1, got {config.ui.volume}"
        )
    gpio = config.siren.gpio
    if len(gpio.buttons) != len(gpio.lights) or not 1 <= len(gpio.buttons) <= 6:
        raise ConfigError(
            f"{where}siren.gpio: expected 1 to 6 buttons and as many lights, "
            f"got {len(gpio.buttons)} buttons and {len(gpio.lights)} lights"
        )
    for bcm in (*gpio.buttons, *gpio.lights):
        if not 0 <= bcm <= 27:
            raise ConfigError(f"{where}siren.gpio: expected BCM pins 0..27, got {bcm}")
    for usb_id in config.siren.usb_ids:
        vid, _, pid = usb_id.partition(":")
        if not (len(vid) == 4 and len(pid) == 4 and _is_hex(vid + pid)):
            raise ConfigError(f'{where}siren.usb_ids: expected "vvvv:pppp" in hex, got {usb_id!r}')
    sizes: tuple[tuple[str, int], ...] = (
        ("camera.width", config.camera.width),
        ("camera.height", config.camera.height),
        ("camera.height_mm", config.camera.height_mm),
        ("siren.baudrate", config.siren.baudrate),
    )
    for key, size in sizes:
        if size <= 0:
            raise ConfigError(f"{where}{key}: expected a positive whole number, got {size}")


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)


_TYPE_WORDS = {str: "text", int: "a whole number", float: "a number", bool: "true or false"}


def _build(cls: type[Any], data: Any, prefix: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{prefix.rstrip('.') or 'the file'}: expected a table, got {data!r}")
    hints = typing.get_type_hints(cls)
    known = {
        f.name: f for f in dataclasses.fields(cls) if not (cls is Config and f.name == "source")
    }
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(
            f"{prefix}{unknown[0]}: unknown key (known here: {', '.join(sorted(known))})"
        )
    values: dict[str, Any] = {}
    for name, value in data.items():
        f = known[name]
        key = f"{prefix}{name}"
        values[name] = _convert(hints[name], value, key)
        choices = f.metadata.get("choices")
        if choices and values[name] not in choices:
            raise ConfigError(
                f"{key}: expected one of {', '.join(map(repr, choices))}, got {value!r}"
            )
    return cls(**values)


def _convert(hint: Any, value: Any, key: str) -> Any:
    if dataclasses.is_dataclass(hint):
        return _build(typing.cast(type[Any], hint), value, key + ".")
    origin = typing.get_origin(hint)
    if origin is list:
        (item,) = typing.get_args(hint)
        if not isinstance(value, list):
            raise ConfigError(f"{key}: expected a list of {_TYPE_WORDS[item]}, got {value!r}")
        return [_convert(item, v, f"{key}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        _, item = typing.get_args(hint)
        if not isinstance(value, dict):
            raise ConfigError(f"{key}: expected a table, got {value!r}")
        return {k: _convert(item, v, f"{key}.{k}") for k, v in value.items()}
    if origin in (types.UnionType, typing.Union):
        raise ConfigError(f"{key}: unsupported")  # pragma: no cover - no such keys
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if hint is str and isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # e.g. camera.device = 0
    if not isinstance(value, hint) or (hint is int and isinstance(value, bool)):
        raise ConfigError(f"{key}: expected {_TYPE_WORDS[hint]}, got {value!r}")
    return value


def example_toml() -> str:
    """A commented config file with every key at its default (installed to /etc)."""
    return _EXAMPLE


_EXAMPLE = """\
# robo-companion configuration. Every key is optional; these are the defaults.

[game]
colours = ["red", "green", "blue", "yellow"]   # the lane colours of your copy of the game
language = "en"                                # en, nl or de

[game.display]                                 # how each colour is drawn on screen
red = "#d7263d"
green = "#1b998b"
blue = "#2e86de"
yellow = "#f4d35e"

[robo_factory]
tie = "share"          # share: tied leaders all win; extra-round: play rounds until one leads
penalty = "rulebook"   # rulebook or faq (see RULINGS.md)

[robot_master]
frame = "fixed"        # fixed: start card in the centre; floating: anywhere within 5x5

[siren]
backend = "auto"       # auto, serial, gpio, simulated or none
port = "auto"          # e.g. /dev/robo-siren, or auto to find the board by USB id
usb_ids = ["2e8a:0005"]
baudrate = 115200
heartbeat_s = 1.0

[siren.gpio]           # only for backend = "gpio": BCM pins, station 0 first
buttons = [17, 27, 22, 23, 24, 25]
lights = [5, 6, 13, 19, 26, 12]
bounce_ms = 30

[camera]
source = "auto"        # auto, picamera2, opencv, replay or none
device = "0"           # OpenCV index or /dev/videoN
folder = ""            # replay: folder of images or a video file
width = 1280
height = 720
height_mm = 700        # lens height above the table (sizes the printed markers)
calibration = ""       # default: calibration.json beside this file

[ui]
sound = true
volume = 0.8
fullscreen = false

[journal]
path = ""              # default: the state directory (/var/lib/robo-companion for the service)
"""
