"""The GPIO build: stations wired straight to the Pi's pins, read with gpiozero.

Same port as the serial board (:class:`companion.ports.SirenBoard`), same logic: the firmware's
own :class:`~hardware.firmware.debounce.Debouncer`, :class:`~hardware.firmware.window.EurekaWindow`
and :class:`~hardware.firmware.lights.Lights` run here on the Pi, which is then the authority on
the Eureka window. gpiozero's own bounce handling is switched off (``bounce_time=None``): every
edge reaches our leading-edge debounce, timed by ``clock_us`` (injectable for tests).

Like the serial driver, :meth:`GpioBoard.start` does not raise when the pins cannot be used: it
puts a ``SirenStatus(connected=False, ...)`` saying why on the queue, and the table plays by touch.

``pin_factory`` is passed to every device (gpiozero's usual way to pick a backend); None means
gpiozero's default (``GPIOZERO_PIN_FACTORY`` or the best one found). Nothing touches a pin before
:meth:`GpioBoard.start`.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.config import GpioConfig
from companion.ports import LightPattern, SirenBoardError, SirenEvent, SirenPress, SirenStatus
from hardware.firmware import protocol
from hardware.firmware.debounce import Debouncer
from hardware.firmware.lights import Lights
from hardware.firmware.window import EurekaWindow
from hardware.patterns import PATTERN_CODES

TICK_S = 0.005  # lights and the debounce catch-up are refreshed this often


def monotonic_us() -> int:
    return time.monotonic_ns() // 1000


class GpioBoard:
    def __init__(
        self,
        config: GpioConfig,
        *,
        pin_factory: Any = None,
        clock_us: Callable[[], int] = monotonic_us,
    ) -> None:
        self.config = config
        self.stations = min(len(config.buttons), len(config.lights))
        self.pin_factory = pin_factory
        self.clock_us = clock_us
        self.lockout_us = config.bounce_ms * 1000
        self._lock = threading.RLock()
        self._debouncers = [Debouncer(self.lockout_us) for _ in range(self.stations)]
        self._window = EurekaWindow()
        self._window_id = 0
        self._lights = Lights(self.stations)
        self._buttons: list[Any] = []
        self._leds: list[Any] = []
        self._shown = [-1.0] * self.stations
        self._events: queue.Queue[SirenEvent] | None = None
        self._seq = 0
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def start(self, events: queue.Queue[SirenEvent]) -> None:
        if self._events is not None:
            raise SirenBoardError("the GPIO siren stations are already running")
        self._events = events
        try:
            from gpiozero import PWMLED, Button
        except ImportError:
            events.put(SirenStatus(False, "gpiozero is not installed; install it with "
                                          "pip install 'robo-companion[hardware]'."))
            return
        try:
            for station in range(self.stations):
                button = Button(self.config.buttons[station], pull_up=True, bounce_time=None,
                                pin_factory=self.pin_factory)
                button.when_pressed = self._edge_handler(station, True)
                button.when_released = self._edge_handler(station, False)
                self._buttons.append(button)
                self._leds.append(PWMLED(self.config.lights[station],
                                         pin_factory=self.pin_factory))
        except Exception as exc:  # gpiozero raises many kinds; the table plays on by touch
            self._close_devices()
            events.put(SirenStatus(False, f"The GPIO siren stations cannot be used ({exc})."))
            return
        self._ticker = threading.Thread(target=self._tick_loop, name="siren-gpio", daemon=True)
        self._ticker.start()
        events.put(SirenStatus(True, f"GPIO siren stations ready ({self.stations} stations).",
                               "gpio", "", self.stations))

    def open_window(self, stations: tuple[int, ...]) -> int:
        mask = 0
        for station in stations:
            if not 0 <= station < self.stations:
                raise SirenBoardError(f"there is no station {station}")
            mask |= 1 << station
        with self._lock:
            self._window_id = self._window_id % 0xFFFF + 1
            self._window.open(self._window_id, mask, self.clock_us())
            return self._window_id

    def close_window(self) -> None:
        with self._lock:
            self._window.close(self._window_id, self.clock_us())

    def set_light(self, station: int, pattern: LightPattern, *, duration_s: float = 10.0) -> None:
        if not 0 <= station < self.stations:
            raise SirenBoardError(f"there is no station {station}")
        code = PATTERN_CODES[LightPattern(pattern)]
        duration_us = int(duration_s * 1_000_000) if code == protocol.LIGHT_COUNTDOWN else 0
        with self._lock:
            self._lights.set(station, code, self.clock_us(), duration_us)
        self.refresh()

    def close(self) -> None:
        self._stop.set()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join(2)
        self._close_devices()

    def light_value(self, station: int) -> float:
        """The brightness set on a station's LED, 0..1 (for tests and the doctor)."""
        return float(self._leds[station].value) if self._leds else 0.0

    # ------------------------------------------------------------------ internals

    def _edge_handler(self, station: int, pressed: bool) -> Callable[[], None]:
        def handler() -> None:
            self.edge(station, pressed, self.clock_us())

        return handler

    def edge(self, station: int, pressed: bool, t_us: int) -> None:
        """A contact change at ``t_us``: what a gpiozero callback reports."""
        with self._lock:
            counted = self._debouncers[station].edge(pressed, t_us)
            if counted >= 0:
                self._press(station, counted)

    def refresh(self) -> None:
        """Catch up debounce and redraw the lights (the ticker does this every 5 ms)."""
        now = self.clock_us()
        with self._lock:
            for station in range(self.stations):
                counted = self._debouncers[station].settle(now)
                if counted >= 0:
                    self._press(station, counted)
            for station, led in enumerate(self._leds):
                value = self._lights.level(station, now) / 65535
                if value != self._shown[station]:
                    self._shown[station] = value
                    led.value = value

    def _press(self, station: int, t_us: int) -> None:
        window_id, verdict = self._window.judge(station, t_us)
        if verdict == protocol.IN_WINDOW:
            self._lights.set(station, protocol.LIGHT_ON, t_us)
            if self._leds:
                self._leds[station].value = 1.0
                self._shown[station] = 1.0
        self._seq += 1
        if self._events is not None:
            self._events.put(SirenPress(station, t_us, verdict == protocol.IN_WINDOW, window_id,
                                        self._seq))

    def _tick_loop(self) -> None:
        while not self._stop.wait(TICK_S):
            try:
                self.refresh()
            except Exception:  # a device closed under us must not kill the ticker
                if self._stop.is_set():
                    return

    def _close_devices(self) -> None:
        for device in (*self._buttons, *self._leds):
            with contextlib.suppress(Exception):  # closing is best effort
                device.close()
        self._buttons = []
        self._leds = []
