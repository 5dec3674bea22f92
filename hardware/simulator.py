"""The siren board simulated: the real firmware logic on a pseudo-terminal, under CPython.

:class:`SimulatedBoard` runs :class:`hardware.firmware.board.Board` (the very code flashed to the
Pico) in a thread, with a fake ``machine`` module (:class:`FakeMachine`) for its buttons and lights
and a pty for its USB serial. The host driver opens the pty's other end with pyserial exactly as
it opens a real board, so the tests exercise the driver against the firmware over a real serial
device. ``press(station)`` is what a player's thumb does; the demo maps keys 1..6 to it.

Unplugging is simulated too: :meth:`SimulatedBoard.unplug` closes the pty (the driver sees the
device vanish), :meth:`SimulatedBoard.plug` opens a new one behind the same stable link (as udev's
``/dev/robo-siren`` would), and :meth:`SimulatedBoard.power_cycle` starts the firmware afresh.
"""

from __future__ import annotations

import contextlib
import os
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hardware.firmware import config as firmware_config
from hardware.firmware import ticks
from hardware.firmware.board import Board
from hardware.firmware.pins import Pins

BUTTON_PINS = firmware_config.BUTTON_PINS
LIGHT_PINS = firmware_config.LIGHT_PINS
SIM_BOARD_ID = "robo-siren-simulated"
WRITE_WAIT_S = 0.05
READ_SIZE = 4096  # the most the board's serial takes from the pty in one read


class FakeClock:
    """``ticks_us`` for the simulated board: real time, wrapping like the RP2040's, steerable.

    It starts 5 s before the 2**30 wrap, so every run crosses a wrap. :meth:`frozen` stops it
    (and :meth:`advance` then moves it by exact steps) so tests can place presses to the
    microsecond; time never runs backwards.
    """

    def __init__(self, start_us: int = ticks.PERIOD - 5_000_000) -> None:
        self._lock = threading.Lock()
        self._t0 = time.perf_counter_ns()
        self._offset = start_us
        self._frozen: int | None = None
        self._floor = 0

    def now_us(self) -> int:
        with self._lock:
            if self._frozen is not None:
                return self._frozen
            t = self._offset + (time.perf_counter_ns() - self._t0) // 1000
            if t < self._floor:
                t = self._floor
            self._floor = t
            return t

    def ticks_us(self) -> int:
        return self.now_us() & ticks.MASK

    def advance(self, us: int) -> None:
        with self._lock:
            if self._frozen is not None:
                self._frozen += us
            else:
                self._offset += us

    @contextlib.contextmanager
    def frozen(self) -> Iterator[int]:
        """Stop the clock; yields the frozen time. On exit it runs on from where it stood."""
        start = self.now_us()
        with self._lock:
            self._frozen = start
        try:
            yield start
        finally:
            with self._lock:
                stood = self._frozen
                self._frozen = None
                real = (time.perf_counter_ns() - self._t0) // 1000
                self._offset = stood - real
                self._floor = max(self._floor, stood)


class FakeMachine:
    """A stand-in for MicroPython's ``machine`` module: ``Pin``, ``PWM`` and ``unique_id``.

    Pins remember their level; :meth:`drive` changes an input's level and calls its interrupt
    handler like the RP2040 does. PWM outputs remember their duty for :meth:`duty`.
    """

    def __init__(self) -> None:
        self.pins: dict[int, Any] = {}
        self.pwms: dict[int, Any] = {}
        machine = self

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 1
            PULL_DOWN = 2
            IRQ_FALLING = 4
            IRQ_RISING = 8

            def __init__(self, pin_id: int, mode: int = -1, pull: int = -1, *,
                         value: int | None = None) -> None:
                self.id = pin_id
                self._level = 1 if pull == Pin.PULL_UP else 0
                if value is not None:
                    self._level = value
                self._handler: Callable[[Any], None] | None = None
                self._trigger = 0
                machine.pins.setdefault(pin_id, self)

            def value(self, level: int | None = None) -> int:
                if level is not None:
                    self._level = 1 if level else 0
                return self._level

            def irq(self, handler: Callable[[Any], None] | None = None,
                    trigger: int = IRQ_FALLING | IRQ_RISING) -> None:
                self._handler = handler
                self._trigger = trigger
                machine.pins[self.id] = self

        class PWM:
            def __init__(self, pin: Any) -> None:
                self.pin = pin
                self._duty = 0
                machine.pwms[pin.id] = self

            def freq(self, hz: int | None = None) -> int:
                return 1000

            def duty_u16(self, duty: int | None = None) -> int:
                if duty is not None:
                    self._duty = duty
                return self._duty

        self.Pin = Pin
        self.PWM = PWM

    def drive(self, pin_id: int, level: int) -> None:
        pin = self.pins[pin_id]
        old = pin._level
        pin._level = level
        if old == level or pin._handler is None:
            return
        edge = pin.IRQ_RISING if level else pin.IRQ_FALLING
        if pin._trigger & edge:
            pin._handler(pin)

    def duty(self, pin_id: int) -> int:
        pwm = self.pwms.get(pin_id)
        return int(pwm._duty) if pwm is not None else 0

    @staticmethod
    def unique_id() -> bytes:
        return b"SIM\x00\x01"


class _PtySerial:
    """The board's end of the pty, behaving like the Pico's USB serial.

    A write waits (up to 50 ms) while the Pi is slow to read, as the Pico's USB stack does when
    its buffer is full; what still does not fit is lost, as when nobody has the port open.
    """

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        # Raw at once: before the host opens the port, echo would bounce our frames back to us.
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.closed = False

    def read(self) -> bytes | None:
        if self.closed:
            return None
        try:
            return os.read(self.master, READ_SIZE) or None
        except (BlockingIOError, OSError):
            return None

    def write(self, data: bytes) -> None:
        if self.closed:
            return
        view = memoryview(data)
        deadline = time.monotonic() + WRITE_WAIT_S
        while view:
            try:
                sent = os.write(self.master, view)
            except BlockingIOError:
                sent = 0
            except OSError:
                return
            view = view[sent:]
            if not view:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                select.select([], [self.master], [], left)
            except (OSError, ValueError):
                return

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            os.close(self.master)
            os.close(self.slave)


class SimulatedBoard:
    """A siren board in a thread, on a pty. Start it, point the driver at :attr:`port`.

    ``link`` is a stable path (a symlink to the current pty, like ``/dev/robo-siren``); by default
    one in a fresh temporary folder. ``lockout_ms`` is the debounce lockout; ``pending_max`` and
    ``edge_slots`` size the firmware's press buffer and interrupt queue. The defaults are the
    Pico's; the bench shortens the lockout and enlarges the buffers, because it presses a thousand
    times a second on a shared machine whose scheduler can stall the simulated board for tens of
    milliseconds, which no microcontroller does.
    """

    def __init__(
        self,
        stations: int = 6,
        *,
        link: str | os.PathLike[str] | None = None,
        lockout_ms: float = 30.0,
        firmware: str = firmware_config.FIRMWARE,
        board_id: str = SIM_BOARD_ID,
        start: bool = True,
        pending_max: int = 64,
        edge_slots: int = 32,
    ) -> None:
        if not 1 <= stations <= 6:
            raise ValueError(f"a board has 1 to 6 stations, not {stations}")
        self.stations = stations
        self.lockout_us = int(lockout_ms * 1000)
        self.firmware = firmware
        self.board_id = board_id
        self.pending_max = pending_max
        self.edge_slots = edge_slots
        self._tmpdir: tempfile.TemporaryDirectory[str] | None = None
        if link is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="robo-siren-")
            link = Path(self._tmpdir.name) / "robo-siren"
        self.link = Path(link)
        self.clock = FakeClock()
        self._lock = threading.RLock()  # the main loop's: one pass at a time, no swap mid-pass
        self._thumb = threading.Lock()  # the players': one edge into the interrupt queue at a time
        self._rx_ready = True  # the pty may hold bytes for the firmware (see read)
        self._busy_until = 0.0  # the main loop steps every 2 ms until then, every 20 ms after
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: _PtySerial | None = None
        self.machine = FakeMachine()
        self.board = self._new_board()
        self.plugged = False
        if start:
            self.start()

    # ------------------------------------------------------------------ life cycle

    def _new_board(self) -> Board:
        self.machine = FakeMachine()
        pins = Pins(self.machine, BUTTON_PINS[: self.stations], LIGHT_PINS[: self.stations])
        board = Board(
            self,
            pins,
            self.clock.ticks_us,
            board_id=self.board_id,
            firmware=self.firmware,
            boot_id=int.from_bytes(os.urandom(4), "big"),
            lockout_us=self.lockout_us,
            pending_max=self.pending_max,
            edge_slots=self.edge_slots,
        )
        pins.attach(board.on_edge, self.clock.ticks_us)
        return board

    def start(self) -> None:
        """Plug the board in and run its main loop."""
        if self._thread is not None:
            return
        self.plug()
        self._thread = threading.Thread(target=self._run, name="siren-simulator", daemon=True)
        self._thread.start()

    @property
    def port(self) -> str:
        """The stable path the driver should open."""
        return str(self.link)

    @property
    def path(self) -> str:
        """The current pty device (changes at every plug)."""
        serial = self._serial
        return serial.path if serial is not None else ""

    def plug(self) -> None:
        """Connect the USB cable: a new pty behind :attr:`link`."""
        with self._lock:
            if self.plugged:
                return
            self._serial = _PtySerial()
            tmp = self.link.with_name(self.link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self._serial.path)
            tmp.replace(self.link)
            self.plugged = True
        self._wake()

    def unplug(self) -> None:
        """Pull the USB cable; the firmware keeps running (and keeps presses) meanwhile."""
        with self._lock:
            if not self.plugged:
                return
            self.plugged = False
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
            if self._serial is not None:
                self._serial.close()
                self._serial = None

    def power_cycle(self, *, replug: bool = True) -> None:
        """Start the firmware afresh (a new boot id; anything not yet acknowledged is gone).

        A real Pico leaves USB while it restarts (``replug=True``); ``replug=False`` restarts
        it behind an open port, as a watchdog reset seen through a USB hub might.
        """
        if replug:
            self.unplug()
        with self._lock:
            self.board = self._new_board()
        if replug:
            self.plug()
        self._wake()

    def close(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)
        self.unplug()
        # Mark the pipe gone before closing it: a later _wake() must not write into whatever
        # file the process opens next under the same descriptor number (a journal, a pty).
        wake_r, wake_w = self._wake_r, self._wake_w
        self._wake_r = self._wake_w = -1
        for fd in (wake_r, wake_w):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None

    def __enter__(self) -> SimulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ the board's serial

    def read(self) -> bytes | None:
        # Only when select() saw bytes from the host since the last read that emptied the pty:
        # a press's pass (and the loop's 2 ms stride) skips a read that would find nothing.
        serial = self._serial
        if serial is None or not self._rx_ready:
            return None
        data = serial.read()
        if data is None or len(data) < READ_SIZE:
            self._rx_ready = False  # emptied; the loop's select() says when more arrive
        return data

    def write(self, data: bytes) -> None:
        serial = self._serial
        if serial is not None:
            serial.write(data)

    # ------------------------------------------------------------------ players

    def press(self, station: int, *, hold: bool = False) -> int:
        """Press (and, unless ``hold``, let go of) a station's button.

        Returns the board's raw ``ticks_us`` at the press. A release inside the lockout is
        caught up by the firmware when the lockout ends, as on the real board.
        """
        if not 0 <= station < self.stations:
            raise ValueError(f"the board has stations 0..{self.stations - 1}, not {station}")
        if self._stop.is_set():
            raise RuntimeError("the simulated board is closed; nobody can press its buttons")
        pin = BUTTON_PINS[station]
        with self._thumb:
            t = self.clock.ticks_us()
            self.machine.drive(pin, 0)
            if not hold:
                self.machine.drive(pin, 1)
        self._pass_now()
        return t

    def release(self, station: int) -> None:
        with self._thumb:
            self.machine.drive(BUTTON_PINS[station], 1)
        self._pass_now()

    def _pass_now(self) -> None:
        """The firmware's main loop takes the edge at once: one pass, here, in this thread.

        The pin interrupt has queued the edge (``Board.on_edge``, timestamped at the contact);
        the pass that turns it into a PRESS frame on the wire runs right away under the loop's
        lock, as if the loop was just coming round, instead of waking the loop's own thread.
        On a machine whose CPUs are shared that wake-up is a scheduling delay (often
        milliseconds under load) that no microcontroller has; the Pico's loop comes round
        every millisecond at most. The loop's thread still does everything else (the host's
        frames, re-sending, heartbeats, lights), stepping every 2 ms for a while after a press.
        """
        with self._lock:
            self.board.step()
        if time.monotonic() >= self._busy_until:
            self._wake()  # the loop may be in its 20 ms idle stride: make it step every 2 ms

    def bounce(self, station: int, edges: list[int]) -> None:
        """Contact bounce: drive the button through ``edges`` microseconds apart (clock frozen)."""
        pin = BUTTON_PINS[station]
        with self._thumb, self._lock, self.clock.frozen():
            level = 0
            for gap in edges:
                self.machine.drive(pin, level)
                level ^= 1
                self.clock.advance(gap)
        self._wake()

    def edges_waiting(self) -> int:
        """Button edges the firmware has not taken from its interrupt buffer yet."""
        board = self.board
        return (board._edge_head - board._edge_tail) % len(board._edge_ticks)

    def light_level(self, station: int) -> int:
        """The station light's brightness now, 0..65535."""
        return self.machine.duty(LIGHT_PINS[station])

    # ------------------------------------------------------------------ main loop

    def _wake(self) -> None:
        wake_w = self._wake_w
        if wake_w < 0:
            return  # closed: see close()
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(wake_w, b"x")

    def _run(self) -> None:
        # The firmware's loop steps every 2 ms while anything happens (a press, a frame from the
        # host); after a quiet spell it steps every 20 ms, so an idle demo costs little CPU. A
        # frame from the host wakes the loop at once; a press runs its own pass (_pass_now), so
        # neither waits for the stride.
        while not self._stop.is_set():
            with self._lock:
                board = self.board
                board.step()
                serial = self._serial
            fds = [self._wake_r] + ([serial.master] if serial is not None else [])
            now = time.monotonic()
            try:
                ready, _, _ = select.select(fds, [], [],
                                            0.002 if now < self._busy_until else 0.02)
            except (OSError, ValueError):
                self._rx_ready = True
                continue  # the pty closed under us (unplugged): loop round
            self._rx_ready = serial is None or serial.master in ready or self._serial is not serial
            if ready:
                self._busy_until = time.monotonic() + 0.25
            if self._wake_r in ready:
                with contextlib.suppress(BlockingIOError, OSError):
                    os.read(self._wake_r, 4096)
