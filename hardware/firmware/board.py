"""The board's logic: protocol, presses, the Eureka window, lights. No hardware in here.

:class:`Board` is driven by a main loop calling :meth:`Board.step` about every millisecond, and by
button edges arriving through :meth:`Board.on_edge` (from a pin interrupt on the Pico, from the
simulator's fake ``machine`` pins under CPython). It talks to the outside world through two small
objects so the same code runs on the Pico and in the simulator:

``serial``: ``read() -> bytes | None`` (never blocks) and ``write(data)``;
``pins``: ``stations``, ``set_level(station, 0..65535)``.

Presses are kept until the Pi acknowledges them and re-sent until it does, so a USB hiccup or a
restart of the Pi's program loses none; they are numbered per boot (``boot_id``) so the Pi can
tell a re-sent press from a new one.
"""

import struct

from . import protocol
from .debounce import Debouncer
from .lights import Lights
from .ticks import Extender
from .window import EurekaWindow

EDGE_SLOTS = 32  # edges the interrupt can queue between two main-loop steps
RESEND_US = 100_000  # re-send unacknowledged presses this long after the last try
LIGHT_REFRESH_US = 5_000


class Board:
    def __init__(
        self,
        serial: "object",
        pins: "object",
        ticks_us: "object",
        board_id: str,
        firmware: str,
        boot_id: int,
        lockout_us: int = 30_000,
        heartbeat_ms: int = 1000,
        pending_max: int = 64,
        edge_slots: int = EDGE_SLOTS,
    ) -> None:
        self.serial = serial
        self.pins = pins
        self.stations = min(int(pins.stations), protocol.MAX_STATIONS)  # type: ignore[attr-defined]
        self.clock = Extender(ticks_us)
        self.board_id = board_id
        self.firmware = firmware
        self.boot_id = boot_id & 0xFFFFFFFF or 1
        self.decoder = protocol.Decoder()
        self.debouncers = [Debouncer(lockout_us) for _ in range(self.stations)]
        self.lights = Lights(self.stations)
        self.window = EurekaWindow()
        self.heartbeat_us = heartbeat_ms * 1000
        self.pending_max = pending_max
        # (seq, station, board us, window id, verdict, last sent us); oldest first
        self.pending: list[list[int]] = []
        self.next_press_seq = 1
        self.tx_seq = 0
        self.overflow = 0
        self.edges_lost = 0
        self.repeat_acks = 0
        self.stopped = False
        self.last_rx_us = -1  # -1: never heard from the Pi since boot
        self.last_hb_us = -(1 << 62)
        self.last_light_us = -(1 << 62)
        self.shown = [-1] * self.stations
        # The interrupt only writes these preallocated slots (no allocation in an IRQ).
        self._edge_slots = edge_slots
        self._edge_station = [0] * edge_slots
        self._edge_level = [0] * edge_slots
        self._edge_ticks = [0] * edge_slots
        self._edge_head = 0
        self._edge_tail = 0

    # ------------------------------------------------------------------ inputs

    def on_edge(self, station: int, pressed: bool, ticks: int) -> None:
        """A button's contact changed at raw tick ``ticks``. Safe to call from an interrupt."""
        head = self._edge_head
        nxt = (head + 1) % self._edge_slots
        if nxt == self._edge_tail:
            # Full: only in a storm of bounce (debounce would drop it anyway) or a stalled loop.
            self.edges_lost += 1
            return
        self._edge_station[head] = station
        self._edge_level[head] = 1 if pressed else 0
        self._edge_ticks[head] = ticks
        self._edge_head = nxt

    def step(self) -> None:
        """One pass of the main loop."""
        now = self.clock.now()
        data = self.serial.read()  # type: ignore[attr-defined]
        if data:
            for kind, seq, body in self.decoder.feed(data):
                self.last_rx_us = now
                self._handle(kind, seq, body, now)
        self._drain_edges()
        now = self.clock.now()
        for station in range(self.stations):
            t_us = self.debouncers[station].settle(now)
            if t_us >= 0:
                self._press(station, t_us, now)
        self._resend(now)
        if now - self.last_hb_us >= self.heartbeat_us:
            self.last_hb_us = now
            self._send(
                protocol.BOARD_HEARTBEAT,
                _pack(
                    protocol.BOARD_HEARTBEAT_BODY,
                    self.boot_id,
                    now,
                    min(len(self.pending), 255),
                    self.decoder.dropped & 0xFFFF,
                    self.overflow & 0xFFFF,
                ),
            )
        self.lights.disconnected = not self.host_present(now)
        if now - self.last_light_us >= LIGHT_REFRESH_US:
            self.last_light_us = now
            self._show_lights(now)

    def host_present(self, now: int) -> bool:
        silence = 3 * self.heartbeat_us + 500_000
        return self.last_rx_us >= 0 and now - self.last_rx_us < silence

    # ------------------------------------------------------------------ presses

    def _drain_edges(self) -> None:
        while self._edge_tail != self._edge_head:
            tail = self._edge_tail
            station = self._edge_station[tail]
            pressed = self._edge_level[tail] == 1
            t_us = self.clock.extend(self._edge_ticks[tail])
            self._edge_tail = (tail + 1) % self._edge_slots
            if 0 <= station < self.stations:
                counted = self.debouncers[station].edge(pressed, t_us)
                if counted >= 0:
                    self._press(station, counted, self.clock.now())

    def _press(self, station: int, t_us: int, now: int) -> None:
        window_id, verdict = self.window.judge(station, t_us)
        if verdict == protocol.IN_WINDOW:
            # The player sees the board accept the call at once, with no round trip to the Pi.
            self.lights.set(station, protocol.LIGHT_ON, now)
            self.pins.set_level(station, 65535)  # type: ignore[attr-defined]
            self.shown[station] = 65535
        if len(self.pending) >= self.pending_max:
            # Keep the oldest: for a Eureka call the first press is the one that matters.
            self.overflow += 1
            return
        entry = [self.next_press_seq, station, t_us, window_id, verdict, now]
        self.next_press_seq = (self.next_press_seq + 1) & 0xFFFFFFFF or 1
        self.pending.append(entry)
        self._send_press(entry)

    def _acked(self, upto: int, now: int) -> None:
        before = len(self.pending)
        self.pending = [e for e in self.pending if diff32(e[0], upto) > 0]
        if len(self.pending) < before or not self.pending:
            self.repeat_acks = 0
            return
        # The Pi acknowledged nothing new although later presses went out: it is holding them
        # behind a press it never got. On the second such ack, re-send that press at once
        # instead of waiting for the re-send interval.
        self.repeat_acks += 1
        if self.repeat_acks == 2:
            entry = self.pending[0]
            entry[5] = now
            self._send_press(entry)

    def _send_press(self, entry: list[int]) -> None:
        seq, station, t_us, window_id, verdict, _ = entry
        body = _pack(protocol.PRESS_BODY, self.boot_id, seq, station, t_us, window_id, verdict)
        self._send(protocol.PRESS, body)

    def _resend(self, now: int) -> None:
        if not self.pending or not self.host_present(now):
            return
        for entry in self.pending:
            if now - entry[5] >= RESEND_US:
                entry[5] = now
                self._send_press(entry)

    # ------------------------------------------------------------------ commands

    def _handle(self, kind: int, seq: int, body: bytes, now: int) -> None:
        if kind == protocol.HEARTBEAT:
            return
        if kind == protocol.ACK_PRESS:
            if len(body) >= 8:
                boot_id, upto = _unpack(protocol.ACK_PRESS_BODY, body)
                if boot_id == self.boot_id:
                    self._acked(upto, now)
            return
        if kind == protocol.HELLO:
            self._hello(seq, body, now)
            return
        status = protocol.OK
        at = now
        if kind == protocol.OPEN_WINDOW and len(body) == 3:
            window_id, mask = _unpack(protocol.OPEN_WINDOW_BODY, body)
            if window_id == 0 or mask >> self.stations:
                status = protocol.BAD_ARGUMENT
            else:
                self.window.open(window_id, mask, now)
        elif kind == protocol.CLOSE_WINDOW and len(body) == 2:
            (window_id,) = _unpack(protocol.CLOSE_WINDOW_BODY, body)
            at = self.window.close(window_id, now)
        elif kind == protocol.SET_LIGHT and len(body) == 4:
            station, pattern, duration_ms = _unpack(protocol.SET_LIGHT_BODY, body)
            if pattern > protocol.LIGHT_COUNTDOWN or (
                station != protocol.ALL_STATIONS and station >= self.stations
            ):
                status = protocol.BAD_ARGUMENT
            else:
                targets = range(self.stations) if station == protocol.ALL_STATIONS else (station,)
                for target in targets:
                    self.lights.set(target, pattern, now, duration_ms * 1000)
                self.last_light_us = -(1 << 62)  # show it on this step, not in 5 ms
        elif kind == protocol.STOP:
            self.stopped = True  # the main loop returns to the MicroPython prompt (for flashing)
        elif kind in (protocol.OPEN_WINDOW, protocol.CLOSE_WINDOW, protocol.SET_LIGHT):
            status = protocol.BAD_ARGUMENT
        else:
            status = protocol.UNKNOWN_MESSAGE
        self._send(protocol.ACK, _pack(protocol.ACK_BODY, seq, status, at))

    def _hello(self, seq: int, body: bytes, now: int) -> None:
        version = body[0] if body else 0
        if version == protocol.VERSION and len(body) >= 3:
            _, heartbeat_ms = _unpack(protocol.HELLO_BODY, body[:3])
            if 100 <= heartbeat_ms <= 60_000:
                self.heartbeat_us = heartbeat_ms * 1000
        first = self.pending[0][0] if self.pending else self.next_press_seq
        reply = _pack(
            protocol.HELLO_REPLY_HEAD,
            protocol.VERSION,
            self.stations,
            self.boot_id,
            first,
            self.window.current_id,
            1 if self.window.is_open else 0,
            now,
        ) + protocol.pack_strings(self.board_id, self.firmware)
        self._send(protocol.HELLO_REPLY, reply)
        if version != protocol.VERSION:
            self._send(protocol.ACK, _pack(protocol.ACK_BODY, seq, protocol.WRONG_VERSION, now))
            return
        # A (re)connected Pi gets every press it has not acknowledged, oldest first, right away.
        for entry in self.pending:
            entry[5] = now
            self._send_press(entry)

    # ------------------------------------------------------------------ output

    def _send(self, kind: int, body: bytes) -> None:
        self.tx_seq = (self.tx_seq + 1) & 0xFFFF
        self.serial.write(protocol.encode(kind, self.tx_seq, body))  # type: ignore[attr-defined]

    def _show_lights(self, now: int) -> None:
        for station in range(self.stations):
            value = self.lights.level(station, now)
            if value != self.shown[station]:
                self.shown[station] = value
                self.pins.set_level(station, value)  # type: ignore[attr-defined]


def diff32(a: int, b: int) -> int:
    """``a - b`` for 32-bit sequence numbers that wrap."""
    return ((a - b + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def _pack(fmt: str, *values: int) -> bytes:
    return struct.pack(fmt, *values)


def _unpack(fmt: str, body: bytes) -> tuple[int, ...]:
    return struct.unpack(fmt, body)

