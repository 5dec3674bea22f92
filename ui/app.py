# mypy: disallow-subclassing-any=False
"""The Kivy app: screens, the clock that polls the service, sounds and the demo's keys.

Import this only after :func:`ui.launch.prepare_kivy` has set Kivy's environment. The app keeps
no game logic: taps go to :class:`ui.controller.Controller`, screens draw view models.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.animation import Animation
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion import config as config_module
from companion.tables.robo_factory import RoboFactoryTable
from ui import i18n
from ui.controller import Controller, Outcome, Request
from ui.demo import Stager, simulate_step
from ui.i18n import _, tr
from ui.screens.calibrate import CalibrateScreen
from ui.screens.end import EndScreen
from ui.screens.factory import FactoryScreen
from ui.screens.home import HomeScreen
from ui.screens.master import MasterScreen
from ui.screens.number import NumberScreen
from ui.screens.picker import PickerScreen
from ui.screens.secret import SecretScreen
from ui.screens.setup import SetupScreen
from ui.sounds import ensure_sounds
from ui.widgets import RobotView, hex_colour

log = logging.getLogger(__name__)
HERE = Path(__file__).parent
KV_FILES = [
    "widgets.kv",
    *(
        f"screens/{n}.kv"
        for n in (
            "home",
            "setup",
            "factory",
            "secret",
            "picker",
            "number",
            "master",
            "end",
            "calibrate",
        )
    ),
]


def drop_label_surfaces() -> bool:
    """Let Kivy's SDL2 text provider free each label's drawing surface once it is drawn.

    ``LabelSDL2`` keeps the surface a label was last drawn on (width x height x 4 bytes) until
    the label is drawn again, although the picture already went into the label's texture (the
    pygame provider deletes its surface at that point). With every label of every screen built
    so far holding one, that was 5 MB by the end of the autoplay. Returns whether the provider
    in use is SDL2's (the only one that needs this).
    """
    from kivy.core import text as core_text

    try:
        from kivy.core.text.text_sdl2 import LabelSDL2
    except ImportError:
        return False
    if not issubclass(core_text.Label, LabelSDL2):
        return False
    if getattr(LabelSDL2._render_end, "_drops_surface", False):
        return True
    keep = LabelSDL2._render_end

    def render_end(self: Any) -> Any:
        try:
            return keep(self)
        finally:
            self._surface = None

    render_end._drops_surface = True  # type: ignore[attr-defined]
    LabelSDL2._render_end = render_end
    return True


drop_label_surfaces()
SEAT_COLOURS = ["#ff8a65", "#81c784", "#64b5f6", "#ffd54f", "#ba68c8", "#4dd0e1"]
FLASH_SECONDS = 0.8


class Screens(FloatLayout):
    """Shows one screen at a time, switching at once.

    Kivy's ScreenManager keeps the old screen drawn (and touches blocked) until its transition
    completes on a later frame; switching twice within a frame left both screens on top of each
    other. The table never wants an animation between screens, so this is a plain swap.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._screens: dict[str, Screen] = {}
        self.current_screen: Screen | None = None

    def add_screen(self, screen: Screen) -> None:
        self._screens[screen.name] = screen

    def get_screen(self, name: str) -> Any:
        return self._screens[name]

    @property
    def current(self) -> str:
        return "" if self.current_screen is None else str(self.current_screen.name)

    @current.setter
    def current(self, name: str) -> None:
        screen = self._screens[name]
        if screen is self.current_screen:
            return
        if self.current_screen is not None:
            self.remove_widget(self.current_screen)
            left = getattr(self.current_screen, "left", None)
            if left is not None:
                left()
        self.current_screen = screen
        self.add_widget(screen)


class CompanionApp(App):
    demo = BooleanProperty(False)
    lang = StringProperty("en")
    sound_on = BooleanProperty(True)
    volume = NumericProperty(0.8)
    symbol_font = "DejaVuSans"

    ready = BooleanProperty(False)

    def __init__(
        self,
        config: Any,
        wire: Callable[[Any], Any],
        *,
        demo: bool,
        run: bool = False,
        on_first_frame: Callable[[], None] | None = None,
        **kwargs: Any,
    ) -> None:
        """``wire(journal)`` builds the service and adapters (ui.launch.build_wired); it runs on
        a thread after the first frame, because a camera can take seconds to start."""
        super().__init__(**kwargs)
        self.title = "Robo Companion"
        self.config_ = config
        self._wire = wire
        self.demo = demo
        self.run_mode = run
        self.wired: Any = None
        self.service: Any = None
        self.controller: Any = None
        self.stager = Stager()
        self.simulator: Any = None
        self.problems: list[str] = []
        self.rng = random.Random(7)
        self._on_first_frame = on_first_frame
        self._message = ""
        self._message_error = False
        self._message_until = 0.0
        self._requests: list[Request] = []
        self._showing_request = False
        self._resumable = False
        self._sounds: dict[str, Any] = {}
        self.lang = config.game.language
        self.sound_on = config.ui.sound
        self.volume = config.ui.volume
        i18n.set_language(self.lang)
        self.listeners: list[Callable[[str], None]] = []  # autoplay hooks: screen changes

    # ------------------------------------------------------------------ building

    def build(self) -> FloatLayout:
        for name in KV_FILES:
            Builder.load_file(str(HERE / name))
        self.sm = Screens()
        for cls, name in (
            (HomeScreen, "home"),
            (SetupScreen, "setup"),
            (FactoryScreen, "factory"),
            (SecretScreen, "secret"),
            (PickerScreen, "picker"),
            (NumberScreen, "number"),
            (MasterScreen, "master"),
            (EndScreen, "end"),
            (CalibrateScreen, "calibrate"),
        ):
            self.sm.add_screen(cls(name=name))
        root = FloatLayout()
        root.add_widget(self.sm)
        self.flash = Label(
            text="",
            font_size="40sp",
            bold=True,
            opacity=0,
            markup=True,
            size_hint=(0.7, 0.32),
            pos_hint={"center_x": 0.5, "center_y": 0.5},
        )
        with self.flash.canvas.before:
            from kivy.graphics import Color, RoundedRectangle

            self._flash_colour = Color(0.1, 0.1, 0.12, 0.94)
            self._flash_rect = RoundedRectangle(radius=[dp(18)])
        self.flash.bind(pos=self._place_flash, size=self._place_flash)
        root.add_widget(self.flash)
        Window.clearcolor = (0.11, 0.12, 0.15, 1)
        Window.bind(on_key_down=self._on_key)
        try:
            self._sounds_paths = ensure_sounds(config_module.state_dir() / "sounds")
        except OSError as exc:
            log.warning("no sounds: %s", exc)
            self._sounds_paths = {}
        return root

    def _place_flash(self, *_args: Any) -> None:
        self._flash_rect.pos = self.flash.pos
        self._flash_rect.size = self.flash.size

    def on_start(self) -> None:
        self.go("home")
        Window.bind(on_flip=self._first_frame)
        try:
            from companion.journal import Journal

            # Made on this thread: the journal's SQLite connection is used from the UI thread only.
            journal = Journal(self.config_.journal_path)
        except Exception as exc:
            self.problems.append(tr("Games cannot be saved: {problem}", problem=str(exc)))
            self.refresh()
            return

        def work() -> None:
            try:
                wired, problem = self._wire(journal), None
            except Exception as exc:
                log.exception("wiring failed")
                wired, problem = None, exc
            Clock.schedule_once(lambda _dt: self._attach(wired, problem), 0)

        threading.Thread(target=work, name="wiring", daemon=True).start()

    def _attach(self, wired: Any, problem: Exception | None) -> None:
        if wired is None:
            self.problems.append(tr("The table could not start: {problem}", problem=str(problem)))
            self.refresh()
            return
        self.wired = wired
        self.service = wired.service
        self.problems.extend(wired.problems)
        self.controller = Controller(
            self.service,
            has_camera=self.service.camera is not None,
            has_board=self.service.board is not None,
        )
        self.stager = Stager(wired.staged_camera, getattr(wired, "fake_camera", None))
        self.simulator = wired.simulator
        try:
            self.service.start()
        except Exception as exc:
            self.problems.append(
                tr("The siren board or camera failed to start: {problem}", problem=str(exc))
            )
        try:
            self._resumable = self.service.resume() is not None
        except Exception as exc:
            self.problems.append(str(exc))
            self._resumable = False
        Clock.schedule_interval(self._poll, 0.1)
        self.ready = True
        self.refresh()

    def _first_frame(self, *_args: Any) -> None:
        # on_flip: the first frame is on the glass, not merely scheduled
        Window.unbind(on_flip=self._first_frame)
        if self._on_first_frame is not None:
            self._on_first_frame()

    def on_stop(self) -> None:
        if self.service is None:
            return
        try:
            self.service.close()
        except Exception:
            log.exception("closing the service failed")

    # ------------------------------------------------------------------ helpers for screens

    def tr(self, message: str, _lang: str = "") -> str:
        """Translate (``_lang`` makes kv rules re-evaluate when the language changes)."""
        return _(message)

    def note(self, default: str) -> tuple[str, bool]:
        """The line at the bottom: a fresh message, a hardware problem, or the screen's note."""
        if self._message and time.monotonic() < self._message_until:
            return self._message, self._message_error
        problem = self.controller and (
            self.controller.board_message or self.controller.camera_message
        )
        if problem:
            return problem, True
        return default, False

    def robot_view(self, robot: str, **kwargs: Any) -> RobotView:
        colours = tuple(self.config_.game.colours)
        from ui.viewmodels import colour_letter

        return RobotView(
            robot=robot,
            display=dict(self.config_.game.display),
            letters={c: colour_letter(c, colours) for c in colours},
            **kwargs,
        )

    def seat_colour(self, seat: int) -> tuple[float, float, float, float]:
        return hex_colour(SEAT_COLOURS[seat % len(SEAT_COLOURS)])

    def play(self, name: str) -> None:
        if not self.sound_on or self.volume <= 0:
            return
        sound = self._sounds.get(name)
        if sound is None and name in self._sounds_paths:
            try:
                from kivy.core.audio import SoundLoader

                sound = SoundLoader.load(str(self._sounds_paths[name]))
            except Exception:
                sound = None
            self._sounds[name] = sound or False
        if sound:
            sound.volume = self.volume
            sound.stop()
            sound.play()

    def set_volume(self, value: float) -> None:
        self.volume = round(float(value), 2)

    def can_resume(self) -> bool:
        """A game is in progress (resumed after a power cut, or left through the menu)."""
        if self.service is None:
            return False
        session = self.service.session
        return session is not None and not session.state.finished

    # ------------------------------------------------------------------ the camera's set-up

    def calibratable_camera(self) -> Any:
        """The camera when it can be calibrated from this screen (a real camera, or the demo's
        staged one), else None (no camera, or the core's fake one)."""
        camera = self.service.camera if self.service is not None else None
        if camera is None or not all(
            hasattr(camera, name) for name in ("frame", "set_calibration", "lock_exposure")
        ):
            return None
        return camera

    def calibration_problems(self) -> list[str]:
        """What home says while the camera reads with its defaults (asked at every refresh: it
        is gone once the camera is set up, and follows the language)."""
        camera = self.calibratable_camera()
        state = getattr(camera, "calibration_state", "stored")
        if camera is None or state == "stored":
            return []
        if state == "none":
            return [
                _(
                    "The camera has not learnt your components yet: Robot Master cards are "
                    "asked by touch. Tap 'Set up the camera'."
                )
            ]
        return [
            _(
                "The camera's stored set-up cannot be used (made by another version, or "
                "unreadable): it reads with its defaults. Tap 'Set up the camera'."
            )
        ]

    def open_calibration(self) -> None:
        camera = self.calibratable_camera()
        if camera is None:
            self.message(_("There is no camera to set up."), True)
            self.refresh()
            return
        import dataclasses

        from ui.calibration import CalibrationRun
        from vision.guided import GuidedCalibration

        config = self.config_
        if self.demo:
            # the demo's camera is staged: what it learns must not replace a real device's
            demo_path = config_module.state_dir() / "demo-calibration.json"
            config = dataclasses.replace(
                config, camera=dataclasses.replace(config.camera, calibration=str(demo_path))
            )
        run = CalibrationRun(GuidedCalibration(config, camera))
        self.service.hold_camera(True)
        self.sm.get_screen("calibrate").start(
            run, camera, self._calibration_closed, lambda: self.service.hold_camera(False)
        )
        self.go("calibrate")

    def _calibration_closed(self, learnt: bool) -> None:
        if learnt:
            self.message(_("The camera is set up."))
        self.go("home")

    def past_games(self) -> list[Any]:
        if self.service is None:
            return []
        try:
            return list(self.service.journal.games())
        except Exception:
            return []

    # ------------------------------------------------------------------ navigation

    def go(self, name: str) -> None:
        self.sm.current = name
        self.refresh()

    def refresh(self) -> None:
        screen = self.sm.current_screen
        if screen is not None:
            screen.refresh()
        for listener in self.listeners:
            listener(self.sm.current)

    def game_screen(self) -> str:
        if self.controller is None:
            return "home"
        table = self.controller.table
        if table is None:
            return "home"
        if table.finished:
            return "end"
        return "factory" if isinstance(table, RoboFactoryTable) else "master"

    def begin_game(self, setup: Any) -> None:
        try:
            self.service.new_game(setup)
        except Exception as exc:
            self.message(str(exc), error=True)
            self.refresh()
            return
        self._resumable = False
        self.controller.pending = []
        self.controller.buying = None
        self.go(self.game_screen())

    # ------------------------------------------------------------------ taps

    def act(self, key: str) -> None:
        verb, _sep, arg = key.partition(":")
        self.play("tap")
        if not self.ready and verb not in ("home", "language", "sound"):
            self.message(_("The table is still starting. One moment."))
            self.refresh()
            return
        if verb == "home":
            self._requests.clear()
            self.go("home")
        elif verb == "resume":
            self._resumable = False
            self.go(self.game_screen())
        elif verb == "new":
            self.sm.get_screen("setup").start(arg, self.config_)
            self.go("setup")
        elif verb == "language":
            i18n.set_language(arg)
            self.lang = arg
            self.refresh()
        elif verb == "calibrate":
            self.open_calibration()
        elif verb == "sound":
            self.sound_on = not self.sound_on
            self.refresh()
        elif verb == "export":
            self._export(int(arg))
        elif verb == "export-current":
            if self.service.game_id is not None:
                self._export(self.service.game_id)
        elif verb == "simulate":
            self.simulate()
        else:
            self.process(self.controller.handle(key))

    def simulate(self) -> None:
        """Demo: stage what the simulated players would lay down now."""
        table = self.controller.table
        if table is None or not self.stager.active:
            return
        what = simulate_step(
            table, self.stager, self.rng, self.config_.palette, self.controller.buying
        )
        if what:
            self.message(tr("Demo: the camera now sees {what}", what=_(what)))
            self.refresh()

    def _export(self, game_id: int) -> None:
        from companion.history import record_of

        try:
            record = record_of(self.service.journal, game_id)
            folder = config_module.state_dir() / "exports"
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"game-{game_id}.json"
            path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", "utf-8")
        except Exception as exc:
            self.message(tr("The record could not be written: {problem}", problem=str(exc)), True)
        else:
            self.message(tr("Saved the record to {path}", path=str(path)))
            home = self.sm.get_screen("home")
            home.ids.exported.text = tr("Saved the record to {path}", path=str(path))
        self.refresh()

    def message(self, text: str, error: bool = False, seconds: float = 6.0) -> None:
        self._message = text
        self._message_error = error
        self._message_until = time.monotonic() + seconds

    def process(self, out: Outcome) -> None:
        for sound in out.sounds[-2:]:
            self.play(sound)
        if out.message:
            self.message(out.message, out.error)
        if out.card_read:
            self.show_flash(_("Card read"), (0.1, 0.1, 0.12, 0.94))
        for player in out.eureka:
            seat = self._seat_of(player)
            self.show_flash(
                tr("EUREKA! {player}", player=player),
                (*self.seat_colour(seat)[:3], 0.95),
                dark_text=True,
            )
        self._requests.extend(out.requests)
        if not self._showing_request and self._requests:
            self._next_request()
        elif out.changed and not self._showing_request:
            current = self.sm.current
            target = self.game_screen()
            if current in ("factory", "master") and target != current and target != "end":
                self.go(target)
            else:
                self.refresh()

    def _seat_of(self, player: str) -> int:
        table = self.controller.table
        if isinstance(table, RoboFactoryTable) and player in table.game.players:
            return table.game.seat(player)
        return 0

    def show_flash(self, text: str, rgba: tuple[float, ...], dark_text: bool = False) -> None:
        # The same look and duration for every card: onlookers learn nothing from it.
        self.flash.text = text
        self.flash.color = (0.05, 0.05, 0.05, 1) if dark_text else (1, 1, 1, 1)
        self._flash_colour.rgba = rgba
        Animation.cancel_all(self.flash)
        self.flash.opacity = 1
        anim = Animation(opacity=1, duration=FLASH_SECONDS) + Animation(opacity=0, duration=0.2)
        anim.start(self.flash)

    # ------------------------------------------------------------------ requests

    def _next_request(self) -> None:
        if not self._requests:
            self._showing_request = False
            self.go(self.game_screen())
            return
        self._showing_request = True
        request = self._requests.pop(0)
        if request.kind == "end":
            self._showing_request = False
            self._requests.clear()
            self.go("end")
            return
        if request.kind == "pick-robot":
            picker = self.sm.get_screen("picker")
            picker.show(
                request.title,
                lambda robot: self._finish(request, robot),
                lambda: self._cancel(),
                request.initial,
                request.private,
            )
            self.go("picker")
        elif request.kind == "pick-number":
            table = self.controller.table
            left = None
            if not isinstance(table, RoboFactoryTable) and table is not None and table.game:
                left = tuple(table.game.cards_left(v) for v in range(6))
            self.sm.get_screen("number").show(
                request.title,
                request.choices,
                lambda n: self._finish(request, n),
                lambda: self._cancel(),
                left,
            )
            self.go("number")
        elif request.kind == "secret":
            assert request.secret is not None
            fix = None
            if request.fix is not None:
                fix_request = request.fix

                def fix() -> None:
                    self._requests.insert(0, fix_request)
                    self._next_request()

            self.sm.get_screen("secret").show(
                request.secret, lambda: self._finish(request, None), fix
            )
            self.go("secret")

    def _finish(self, request: Request, value: Any) -> None:
        out = request.done(value) if request.done is not None else None
        self._showing_request = False
        if isinstance(out, Outcome):
            if out.error:  # refused: stay with what the table was doing, say why
                self.message(out.message, True)
            self.process(out)
        if not self._showing_request:
            self._next_request()

    def _cancel(self) -> None:
        self._showing_request = False
        self.controller.request_closed()
        self._next_request()

    # ------------------------------------------------------------------ clock and keys

    def _poll(self, _dt: float) -> None:
        out = self.controller.poll()
        if out.changed or out.requests or out.eureka:
            if self._showing_request and not out.requests:
                # a picker or secret is open: do not redraw under it, but keep the sounds
                for sound in out.sounds:
                    self.play(sound)
                if out.eureka:
                    for player in out.eureka:
                        self.show_flash(
                            tr("EUREKA! {player}", player=player),
                            (*self.seat_colour(self._seat_of(player))[:3], 0.95),
                            True,
                        )
                return
            self.process(out)
        elif self._message and time.monotonic() > self._message_until:
            self._message = ""
            self.refresh()

    def _on_key(
        self, _window: Any, key: int, _scancode: int, codepoint: str | None, _modifiers: Any
    ) -> bool:
        if codepoint and codepoint in "123456" and (self.demo or self.simulator is not None):
            self.press_station(int(codepoint) - 1)
            return True
        if codepoint == "s" and self.demo:
            self.simulate()
            return True
        return False

    def press_station(self, station: int) -> None:
        """Demo: press a siren station's button on the simulated board."""
        board = self.simulator if self.simulator is not None else self.service.board
        press = getattr(board, "press", None)
        if press is None:
            self.message(_("No simulated siren board is running."), True)
            return
        try:
            press(station)
        except Exception as exc:
            self.message(str(exc), True)
