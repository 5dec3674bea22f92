"""``robo-companion demo [...]`` and ``robo-companion run [...]``: start the touchscreen app.

``main(argv)`` gets argv[0] == "demo" or "run" (see companion.cli.DELEGATED). Kivy's environment
is set here, before Kivy is imported, so Kivy neither parses our arguments nor writes outside the
state directory.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import types
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="robo-companion demo|run",
        description="The touchscreen app for Robo Factory and Robot Master.",
    )
    p.add_argument(
        "--autoplay",
        action="store_true",
        help="demo: play a scripted Robo Factory game and a Robot Master game, then exit",
    )
    p.add_argument(
        "--screenshots",
        metavar="DIR",
        help="with --autoplay: save a PNG of every screen state in DIR",
    )
    p.add_argument(
        "--touch-only",
        action="store_true",
        help="demo: no simulated camera or siren board; everything by touch",
    )
    p.add_argument(
        "--only",
        choices=["robo-factory", "robot-master", "calibration"],
        help="with --autoplay: play only this game (or only set up the camera)",
    )
    p.add_argument("--fullscreen", action="store_true", default=None, help="fill the screen")
    p.add_argument(
        "--window",
        dest="fullscreen",
        action="store_false",
        help="a window (800x480), whatever the config says",
    )
    p.add_argument("--language", choices=["en", "nl", "de"], help="start in this language")
    return p


#: modules the app never uses that its libraries import when they can: Kivy's clock imports
#: asyncio, which imports ssl, and numpy.random imports secrets -> hmac -> _hashlib; both load
#: OpenSSL (libssl, libcrypto: 4.5 MB resident). The device has no network (the systemd unit
#: allows only AF_UNIX and AF_NETLINK sockets); hashlib and hmac fall back to Python's own hashes.
KEPT_OUT = ("_ssl", "_hashlib")


class LazyAsyncio(types.ModuleType):
    """``asyncio`` until something uses it: Kivy's clock imports asyncio when it is made, for
    its async mode (``async_runTouchApp``), which the app never runs; the app's loop is Kivy's
    own (``App.run``). asyncio and what it imports (concurrent.futures, selectors, ...) are some
    5 MB resident in a plain process. The clock keeps this module and its ``wait_for``; the
    first other use of an attribute imports the real asyncio.

    It stands in ``sys.modules`` only while Kivy's clock is made (:func:`prepare_kivy` takes it
    out again): an ``import asyncio.events`` that found it there would load a second copy of
    that submodule beside the one the real package imports, with its own event-loop state.
    """

    def __getattr__(self, name: str) -> Any:
        return getattr(_real_asyncio(), name)

    @staticmethod
    async def wait_for(aw: Any, timeout: float | None) -> Any:
        return await _real_asyncio().wait_for(aw, timeout)


def _real_asyncio() -> Any:
    module = sys.modules.get("asyncio")
    if module is None or isinstance(module, LazyAsyncio):
        sys.modules.pop("asyncio", None)
        module = importlib.import_module("asyncio")
    return module


def _release_asyncio_stand_in() -> None:
    """Take the stand-in out of ``sys.modules`` once the clock holds it: later imports of
    asyncio, and of its submodules, then load the real package the ordinary way."""
    if isinstance(sys.modules.get("asyncio"), LazyAsyncio):
        del sys.modules["asyncio"]


def keep_out_unused() -> None:
    """Keep libraries the app never uses out of the process, before Kivy and numpy are imported.

    ``sys.modules[name] = None`` makes ``import name`` raise ImportError, which asyncio, ssl's
    importers, hashlib and hmac all handle. Kivy's image providers are limited to SDL2's (PNG,
    JPEG): its default list also imports PIL (4 MB resident) for pictures the app never shows.
    """
    modules: dict[str, Any] = sys.modules
    for name in KEPT_OUT:
        modules.setdefault(name, None)
    if "asyncio" not in modules:
        modules["asyncio"] = LazyAsyncio("asyncio")
    os.environ.setdefault("KIVY_IMAGE", "sdl2")


def prepare_kivy(fullscreen: bool, *, quiet: bool = True) -> None:
    """Set Kivy's environment and window; must run before anything imports kivy."""
    from companion.config import state_dir

    keep_out_unused()

    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    if quiet:
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    if quiet:  # before Kivy's import, which already logs
        kivy_log = logging.getLogger("kivy")
        kivy_log.propagate = False
        kivy_log.addHandler(logging.NullHandler())
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # not xsel/xclip: the Pi kiosk has neither
    if not _has_sound_card() and not os.environ.get("SDL_AUDIODRIVER"):
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # silence, not ALSA complaints
    logging.basicConfig(level=logging.WARNING, format="robo-companion: %(message)s")
    kivy_home = state_dir() / "kivy"
    try:
        kivy_home.mkdir(parents=True, exist_ok=True)
        os.environ.setdefault("KIVY_HOME", str(kivy_home))
    except OSError:
        pass
    from kivy.config import Config as KivyConfig

    KivyConfig.set("graphics", "width", "800")
    KivyConfig.set("graphics", "height", "480")
    KivyConfig.set("graphics", "resizable", "1")
    # 30 frames a second is plenty for a table of people, and halves the idle cost of the loop
    KivyConfig.set("graphics", "maxfps", "30")
    KivyConfig.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    KivyConfig.set("graphics", "show_cursor", "0" if fullscreen else "1")
    KivyConfig.set("kivy", "exit_on_escape", "0" if fullscreen else "1")
    # A touch screen without a keyboard: names are typed on Kivy's own keyboard.
    KivyConfig.set("kivy", "keyboard_mode", "systemanddock" if fullscreen else "system")
    KivyConfig.set("input", "mouse", "mouse,multitouch_on_demand")
    import kivy.clock  # noqa: F401  (made now, after maxfps is set, while asyncio stands in)

    _release_asyncio_stand_in()


#: camera frames (2.6 MB at 1280x720) and the readers' copies of them are larger than this
MMAP_THRESHOLD = 256 * 1024


def _limit_malloc_arenas() -> None:
    """Cap glibc's malloc arenas at two and fix its mmap threshold, before any thread starts.

    glibc gives each thread that allocates its own arena; with the camera, board and wiring
    threads passing numpy frames around, peak memory during the autoplay went from about 320 MB
    to 750 MB through arenas alone (measured with ``robo-companion bench ui``).

    glibc also raises its mmap threshold (up to 32 MB) each time a mapped block is freed; frames
    and the readers' copies then come from the heap, where freed space stays with the process.
    A fixed threshold gives each such block back when it is freed: 5 MB less peak during the
    staged autoplay (two runs each, 262 against 267-269 MB), for about 3,000 more page faults
    (a few ms) per camera reading.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-8, 2)  # -8 is M_ARENA_MAX
        libc.mallopt(-3, MMAP_THRESHOLD)  # -3 is M_MMAP_THRESHOLD
    except (OSError, AttributeError):
        pass  # not glibc: nothing to cap


def main(argv: list[str]) -> int:
    _limit_malloc_arenas()
    mode = argv[0] if argv and argv[0] in ("demo", "run") else "demo"
    args = parser().parse_args(argv[1:] if argv and argv[0] in ("demo", "run") else argv)
    demo = mode == "demo"
    if args.autoplay and not demo:
        print("robo-companion: --autoplay is for the demo only", file=sys.stderr)
        return 2
    if args.screenshots and not args.autoplay:
        print("robo-companion: --screenshots needs --autoplay", file=sys.stderr)
        return 2

    from companion import config as config_module
    from companion.errors import CompanionError

    try:
        config = config_module.load()
    except CompanionError as exc:
        print(f"robo-companion: {exc}", file=sys.stderr)
        return 2
    if args.language:
        import dataclasses

        config = dataclasses.replace(
            config, game=dataclasses.replace(config.game, language=args.language)
        )
    fullscreen = config.ui.fullscreen if args.fullscreen is None else args.fullscreen
    if args.autoplay:
        fullscreen = False
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY") and not _has_kms():
        print(
            "robo-companion: no display found (set DISPLAY, or run under xvfb-run)", file=sys.stderr
        )
        return 3
    if args.touch_only:
        os.environ["ROBO_COMPANION_SIREN"] = "none"
        os.environ["ROBO_COMPANION_CAMERA"] = "none"
    prepare_kivy(fullscreen)
    return run_app(
        config,
        demo=demo,
        run=not demo,
        autoplay=args.autoplay,
        screenshots=Path(args.screenshots) if args.screenshots else None,
        touch_only=args.touch_only,
        games=(args.only,) if args.only else ("robo-factory", "robot-master", "calibration"),
    )


def _has_sound_card() -> bool:
    try:
        return "no soundcards" not in Path("/proc/asound/cards").read_text()
    except OSError:
        return Path("/dev/snd").exists()  # no ALSA in procfs: a device node or nothing


def _has_kms() -> bool:
    # The Pi's kiosk runs Kivy on SDL2's KMS/DRM backend without X.
    return os.environ.get("SDL_VIDEODRIVER") == "kmsdrm"


def build_wired(
    config: Any,
    *,
    demo: bool,
    autoplay: bool = False,
    journal: Any = None,
    touch_only: bool = False,
) -> Any:
    """The service and adapters; in the demo the core's fakes stand in for what is missing."""
    from companion import wiring
    from companion.fakes import FakeSirenBoard, RandomDice
    from ui.demo import DemoCamera

    wired: Any = wiring.build(config, demo=demo, journal=journal)
    wired.fake_camera = None
    if demo and not touch_only:
        if wired.service.board is None:
            board = FakeSirenBoard()
            wired.service.board = board
            wired.simulator = board
            wired.problems = [p for p in wired.problems if "siren" not in p.lower()]
        if wired.staged_camera is None:
            camera = DemoCamera()
            wired.service.camera = camera
            wired.fake_camera = camera
            wired.problems = [p for p in wired.problems if "camera" not in p.lower()]
    if demo and autoplay:
        wired.service.dice = RandomDice(5)  # the same game every time
    return wired


def run_app(
    config: Any,
    *,
    demo: bool,
    run: bool,
    autoplay: bool = False,
    screenshots: Path | None = None,
    on_first_frame: Any = None,
    touch_only: bool = False,
    games: tuple[str, ...] = ("robo-factory", "robot-master"),
) -> int:
    from companion import systemd_notify
    from ui.app import CompanionApp

    def first_frame() -> None:
        systemd_notify.ready("the table is ready")
        if on_first_frame is not None:
            on_first_frame()

    def wire(journal: Any) -> Any:
        return build_wired(
            config, demo=demo, autoplay=autoplay, journal=journal, touch_only=touch_only
        )

    app = CompanionApp(config, wire, demo=demo, run=run, on_first_frame=first_frame)
    interval = systemd_notify.watchdog_interval()
    if interval:
        from kivy.clock import Clock

        Clock.schedule_interval(lambda _dt: systemd_notify.watchdog(), interval / 2)
    player = None
    if autoplay:
        from ui.autoplay import Autoplay

        player = Autoplay(app, screenshots, games)
        player.install()
    try:
        app.run()
    except KeyboardInterrupt:
        return 130
    finally:
        systemd_notify.stopping()
    if player is not None:
        if player.error:
            print(f"robo-companion: the autoplay stopped: {player.error}", file=sys.stderr)
            return 1
        print(
            f"autoplay: {player.shots} screenshots, {player.steps} steps, "
            f"{player.fallbacks} readings entered by touch after the camera declined"
        )
    return 0
