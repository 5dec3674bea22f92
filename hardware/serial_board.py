"""The siren board over USB serial (pyserial): the driver the Pi runs.

:class:`SerialBoard` implements :class:`companion.ports.SirenBoard`. After :meth:`SerialBoard.start`
a supervisor thread finds the board (the configured port, ``/dev/robo-siren``, or any serial device
with one of the configured USB ids), opens it exclusively, shakes hands, sends heartbeats, and
when the board vanishes (unplugged, or silent for three heartbeats) reports it and looks for it
again. A pyserial :class:`serial.threaded.ReaderThread` reads the port; its packetizer turns
frames into :class:`~companion.ports.SirenPress` / :class:`~companion.ports.SirenStatus` events
on the queue given to ``start``. The driver never calls into the session.

Presses are delivered exactly once and in the board's order: each carries the board's boot id and
a sequence number; the driver hands over only the next number it expects, holds any that arrive
early, drops repeats, and acknowledges what it delivered, so the board re-sends the rest.
"""

from __future__ import annotations

import contextlib
import glob
import os
import queue
import select
import struct
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

import serial
import serial.threaded
import serial.tools.list_ports

from companion.config import SirenConfig
from companion.ports import (
    LightPattern,
    SirenBoardError,
    SirenEvent,
    SirenPress,
    SirenStatus,
)
from hardware.firmware import protocol
from hardware.patterns import PATTERN_CODES

STABLE_LINK = "/dev/robo-siren"
BY_ID_GLOB = "/dev/serial/by-id/*"
RESEND_S = 0.25  # re-send an unacknowledged command after this long
HELLO_TRY_S = 0.3
MAX_HELD = 256
GAP_S = 1.0  # a missing press number not re-sent in this long is given up (see _skip_gap)
COMMAND_TRIES = 20  # a command still unacknowledged after this many sends is dropped
RECENT = 512  # delivered presses remembered to tell a true repeat from a renumbered press
ACK_EVERY_S = 0.01  # at most one ACK_PRESS this often: a burst of presses costs one, not one each
SWITCH_INTERVAL_S = 0.001  # longest a busy Python thread keeps the reader from its press (start)



class VersionMismatch(SirenBoardError):
    """The board speaks another protocol version than this program."""


@dataclass(frozen=True)
class BoardInfo:
    """What the board said about itself in the handshake."""

    version: int
    stations: int
    boot_id: int
    next_press: int
    window: int
    window_open: bool
    board_us: int
    board_id: str
    firmware: str


def parse_hello_reply(body: bytes) -> BoardInfo | None:
    head = struct.calcsize(protocol.HELLO_REPLY_HEAD)
    if len(body) < 1:
        return None
    if body[0] != protocol.VERSION:
        # Only the version byte is promised to stay put across versions.
        return BoardInfo(body[0], 0, 0, 0, 0, False, 0, "", "")
    if len(body) < head:
        return None
    version, stations, boot_id, next_press, window, is_open, board_us = struct.unpack(
        protocol.HELLO_REPLY_HEAD, body[:head]
    )
    texts = protocol.unpack_strings(body[head:], 2) or ["", ""]
    return BoardInfo(
        version, stations, boot_id, next_press, window, bool(is_open), board_us, texts[0], texts[1]
    )


def seq_after(a: int, b: int) -> int:
    """``a - b`` for the board's 32-bit press numbers, which wrap."""
    return ((a - b + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def find_ports(config: SirenConfig) -> list[str]:
    """Serial devices that may be the board, best first (may be empty)."""
    if config.port != "auto":
        return [config.port] if os.path.exists(config.port) else []
    found: list[str] = []
    if os.path.exists(STABLE_LINK):
        found.append(STABLE_LINK)
    wanted = {usb_id.lower() for usb_id in config.usb_ids}
    try:
        ports = serial.tools.list_ports.comports()
    except OSError:
        ports = []
    by_id = {os.path.realpath(p): p for p in glob.glob(BY_ID_GLOB)}
    for info in ports:
        if info.vid is None or info.pid is None:
            continue
        if f"{info.vid:04x}:{info.pid:04x}" in wanted:
            device = by_id.get(os.path.realpath(info.device), info.device)
            if os.path.realpath(device) not in {os.path.realpath(f) for f in found}:
                found.append(device)
    return found


def connected_message(info: BoardInfo) -> str:
    return f"Siren board connected ({info.stations} stations)."


def open_error_message(port: str, exc: BaseException) -> str:
    text = str(exc)
    if "lock" in text.lower():
        return (f"The siren board at {port} is in use by another program; "
                "close it (is robo-companion already running?).")
    if isinstance(exc, PermissionError) or "ermission" in text:
        return (f"No permission to open the siren board at {port}; install the udev rule "
                "(systemd/99-robo-siren.rules) or add this user to the dialout group.")
    return f"The siren board at {port} could not be opened ({text})."


class _Packets(serial.threaded.Packetizer):  # type: ignore[misc]
    """Frames out of the byte stream; damaged ones are counted and dropped, never raised."""

    TERMINATOR = b"\x00"

    def __init__(self, link: SerialBoard) -> None:
        super().__init__()
        self.buffer: bytearray = bytearray()
        self.link = link
        self.discarding = False

    def data_received(self, data: bytes) -> None:
        try:
            self.buffer.extend(data)
            while self.TERMINATOR in self.buffer:
                packet, self.buffer = self.buffer.split(self.TERMINATOR, 1)
                if self.discarding:
                    self.discarding = False  # the tail of an oversize run ends here
                    continue
                self.handle_packet(bytes(packet))
            if len(self.buffer) > protocol.MAX_WIRE:
                self.link.count("oversize")
                self.buffer = bytearray()
                self.discarding = True
            self.link.flush_ack()
        except Exception as exc:  # a bug here must not kill the reader thread
            self.link.count("errors")
            self.link.note_error(exc)

    def idle_timeout(self) -> float | None:
        """How long the reader may wait for bytes before :meth:`idle` has work (None: forever)."""
        return self.link.ack_wait()

    def idle(self) -> None:
        """Nothing arrived for :meth:`idle_timeout`: send the acknowledgement held back."""
        try:
            self.link.flush_ack()
        except Exception as exc:  # same contract as data_received
            self.link.count("errors")
            self.link.note_error(exc)

    def handle_packet(self, packet: bytes) -> None:
        if not packet:
            return
        frame = protocol.decode(packet)
        if frame is None:
            self.link.count("damaged")
            return
        self.link.on_frame(*frame)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.transport = None
        self.link.on_lost(self)


class _Reader(serial.threaded.ReaderThread):  # type: ignore[misc]
    """pyserial's reader thread, reading with one wait and one read per burst of bytes.

    pyserial's own loop reads ``in_waiting or 1`` bytes: when the port is idle that is one byte,
    so every frame costs two waits, two reads and an ``ioctl``, and the protocol sees its first
    byte alone. Here the thread waits on the port's descriptor (and pyserial's cancel pipe, which
    ``stop`` writes to) and reads whatever is there, up to ``READ_SIZE``, in one call: a press
    reaches the session with one wake-up of this thread and the least work in front of it.

    It also ends cleanly when the port vanishes mid-call: on an unplugged device the read raises
    OSError (EIO) or returns nothing, and the protocol is told the connection is lost.
    """

    READ_SIZE = 4096

    def run(self) -> None:
        if not hasattr(self.serial, "cancel_read"):
            self.serial.timeout = 1
        self.protocol = self.protocol_factory()
        try:
            self.protocol.connection_made(self)
        except Exception as exc:  # same contract as pyserial's loop
            self.alive = False
            self.protocol.connection_lost(exc)
            self._connection_made.set()
            return
        error: BaseException | None = None
        self._connection_made.set()
        fd = getattr(self.serial, "fd", None)
        cancel = getattr(self.serial, "pipe_abort_read_r", None)
        if fd is None or cancel is None:
            self.serial.timeout = ACK_EVERY_S  # not a POSIX port: poll, so idle() gets its turn
        while self.alive and self.serial.is_open:
            try:
                if fd is None or cancel is None:  # not a POSIX port: pyserial's own way
                    data = self.serial.read(self.serial.in_waiting or 1)
                    if not data:
                        self.protocol.idle()
                else:
                    ready, _, _ = select.select([fd, cancel], [], [],
                                                self.protocol.idle_timeout())
                    if not ready:
                        self.protocol.idle()  # never raises: see _Packets
                        continue
                    if cancel in ready:
                        os.read(cancel, 1000)
                        continue  # stop() was called: the loop condition ends it
                    data = os.read(fd, self.READ_SIZE)
                    if not data:
                        raise serial.SerialException("the port reports data but has none "
                                                     "(unplugged?)")
            except BlockingIOError:
                continue  # woken for nothing: wait again
            except (serial.SerialException, OSError, TypeError, ValueError) as exc:
                error = exc  # unplugged (TypeError/ValueError: the port was closed under us)
                break
            if data:
                self.protocol.data_received(data)  # never raises: see _Packets
        self.alive = False
        self.protocol.connection_lost(error)
        self.protocol = None


class SerialBoard:
    """The siren board on a serial port; see the module docstring.

    ``simulator`` is set when :func:`hardware.make_board` built this driver around a
    :class:`hardware.simulator.SimulatedBoard` (``close`` then closes it too).

    :meth:`start` lowers the interpreter's thread switch interval (``sys.setswitchinterval``,
    process-wide) to ``SWITCH_INTERVAL_S`` when it is longer (CPython's default is 5 ms).
    The reader thread needs the interpreter lock to hand a press over; while another thread
    runs Python code (the UI drawing, the session), the reader waits for that thread to be told
    to let go, which happens only after the switch interval. With a UI-like thread busy half
    the time in the same process, 1 ms instead of 5 ms took the bench's median press-to-queue
    time from 0.26..0.82 ms to 0.18..0.20 ms (three interleaved runs each).
    """

    def __init__(self, config: SirenConfig, *, port: str | None = None) -> None:
        self.config = config
        self.port_override = port
        self.simulator: Any = None
        self.heartbeat_s = max(0.1, min(config.heartbeat_s, 60.0))
        self._events: queue.Queue[SirenEvent] | None = None
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._supervisor: threading.Thread | None = None
        self._reader: serial.threaded.ReaderThread | None = None
        self._packets: _Packets | None = None
        self._lost = threading.Event()
        self._hello = threading.Event()
        self._info: BoardInfo | None = None
        self._ready = False
        self._tx_seq = 0
        self._last_rx = 0.0
        self._outstanding: dict[int, list[Any]] = {}
        self._boot_id: int | None = None
        self._next_press = 0
        self._held: dict[int, SirenPress] = {}
        self._gap_since: float | None = None
        self._recent: dict[int, tuple[int, int]] = {}
        self._ack_due = False
        self._acked_at = -1.0
        self._status: tuple[bool, str] | None = None
        # What the board should show; replayed after every (re)connection.
        self._window_id = 0
        self._window_mask = 0
        self._window_open = False
        self._lights: dict[int, tuple[int, int]] = {}
        self.window_closed_us: int | None = None
        self.last_error: str = ""
        self.stats: dict[str, int] = {
            k: 0
            for k in ("frames", "damaged", "oversize", "errors", "delivered", "duplicates",
                      "held", "skipped", "renumbered", "invalid", "unknown", "nacks",
                      "unacknowledged", "connects")
        }

    # ------------------------------------------------------------------ port API

    def start(self, events: queue.Queue[SirenEvent]) -> None:
        if self._supervisor is not None:
            raise SirenBoardError("the siren board driver is already running")
        self._events = events
        if sys.getswitchinterval() > SWITCH_INTERVAL_S:
            sys.setswitchinterval(SWITCH_INTERVAL_S)
        self._supervisor = threading.Thread(target=self._supervise, name="siren-supervisor",
                                            daemon=True)
        self._supervisor.start()

    def open_window(self, stations: tuple[int, ...]) -> int:
        mask = 0
        for station in stations:
            if not 0 <= station < protocol.MAX_STATIONS:
                raise SirenBoardError(f"there is no station {station} (stations are 0 to 5)")
            mask |= 1 << station
        with self._lock:
            board_window = self._info.window if self._info is not None else 0
            self._window_id = max(self._window_id, board_window) % 0xFFFF + 1
            self._window_mask = mask
            self._window_open = True
            self.window_closed_us = None
            window = self._window_id
            self._command(protocol.OPEN_WINDOW,
                          struct.pack(protocol.OPEN_WINDOW_BODY, window, mask))
        return window

    def close_window(self) -> None:
        with self._lock:
            if not self._window_open:
                return
            self._window_open = False
            self._command(protocol.CLOSE_WINDOW,
                          struct.pack(protocol.CLOSE_WINDOW_BODY, self._window_id))

    def set_light(self, station: int, pattern: LightPattern, *, duration_s: float = 10.0) -> None:
        """Show ``pattern`` on a station's light; ``duration_s`` is the countdown's length."""
        if not 0 <= station < protocol.MAX_STATIONS:
            raise SirenBoardError(f"there is no station {station} (stations are 0 to 5)")
        code = PATTERN_CODES[LightPattern(pattern)]
        duration_ms = int(max(0.0, min(duration_s, 65.0)) * 1000) if code == \
            protocol.LIGHT_COUNTDOWN else 0
        with self._lock:
            self._lights[station] = (code, duration_ms)
            self._command(protocol.SET_LIGHT,
                          struct.pack(protocol.SET_LIGHT_BODY, station, code, duration_ms))

    def close(self) -> None:
        self._stop.set()
        self._lost.set()
        if self._supervisor is not None and self._supervisor is not threading.current_thread():
            self._supervisor.join(5)
        self._disconnect()
        if self.simulator is not None:
            self.simulator.close()

    # ------------------------------------------------------------------ extras

    @property
    def connected(self) -> bool:
        return self._ready and not self._lost.is_set()

    @property
    def info(self) -> BoardInfo | None:
        return self._info

    def stop_firmware(self) -> None:
        """Ask the board to return to the MicroPython prompt (before flashing)."""
        with self._lock:
            self._command(protocol.STOP, b"")

    def count(self, what: str) -> None:
        self.stats[what] = self.stats.get(what, 0) + 1

    def note_error(self, exc: BaseException) -> None:
        self.last_error = f"{type(exc).__name__}: {exc}"

    # ------------------------------------------------------------------ connection

    def connect_once(self, port: str, timeout: float) -> BoardInfo:
        """Open ``port`` and shake hands; raises SirenBoardError with a plain message."""
        self._disconnect()
        try:
            ser = serial.Serial(baudrate=self.config.baudrate, timeout=None, exclusive=True)
            ser.port = port
            ser.open()
        except (serial.SerialException, OSError, ValueError) as exc:
            raise SirenBoardError(open_error_message(port, exc)) from None
        with contextlib.suppress(serial.SerialException, OSError):
            ser.reset_input_buffer()
        with self._lock:
            self._lost.clear()
            self._hello.clear()
            self._ready = False
            self._info = None
            self._outstanding.clear()
            self._last_rx = time.monotonic()
            reader = _Reader(ser, lambda: _Packets(self))
            reader.name = "siren-reader"
            self._reader = reader
        reader.start()
        try:
            _, self._packets = reader.connect()
        except RuntimeError:
            self._disconnect()
            raise SirenBoardError(f"The siren board at {port} closed at once.") from None
        deadline = time.monotonic() + timeout
        hello = struct.pack(protocol.HELLO_BODY, protocol.VERSION,
                            int(self.heartbeat_s * 1000))
        while not self._hello.is_set():
            if self._lost.is_set() or time.monotonic() > deadline or self._stop.is_set():
                self._disconnect()
                raise SirenBoardError(
                    f"The device at {port} did not answer like a siren board; flash it with "
                    "'robo-companion siren flash' or check siren.port in the configuration."
                )
            # The leading 0x00 ends any half frame the board may still hold from before.
            self._write(b"\x00" + protocol.encode(protocol.HELLO, self._next_tx(), hello))
            self._hello.wait(HELLO_TRY_S)
        info = self._info
        assert info is not None
        if info.version != protocol.VERSION:
            self._disconnect()
            raise VersionMismatch(
                f"The siren board speaks protocol version {info.version} but this program "
                f"speaks version {protocol.VERSION}; update the board with "
                "'robo-companion siren flash'."
            )
        return info

    def _disconnect(self) -> None:
        with self._lock:
            reader = self._reader
            self._reader = None
            self._ready = False
        if reader is not None and reader is not threading.current_thread():
            # Stop the reader before closing the port, without the writer's lock: the reader may
            # itself be waiting for that lock to send an acknowledgement.
            with contextlib.suppress(Exception):
                reader.stop()
            with contextlib.suppress(Exception):
                reader.serial.close()

    def _supervise(self) -> None:
        not_found_since: float | None = None
        while not self._stop.is_set():
            ports = [self.port_override] if self.port_override else find_ports(self.config)
            ports = [p for p in ports if os.path.exists(p)]
            if not ports:
                if not_found_since is None:
                    not_found_since = time.monotonic()
                    self._report(False, "No siren board found: plug it in, or call Eureka "
                                        "by touch.")
                self._stop.wait(0.2)
                continue
            not_found_since = None
            try:
                info = self.connect_once(ports[0], timeout=2.0)
            except VersionMismatch as exc:
                self._report(False, str(exc))
                self._stop.wait(5.0)
                continue
            except SirenBoardError as exc:
                self._report(False, str(exc))
                self._stop.wait(1.0)
                continue
            self.count("connects")
            self._report(True, connected_message(info), info)
            self._replay()
            self._keep_alive()
            self._disconnect()
            if not self._stop.is_set():
                self._report(False, "The siren board was disconnected; plug it back in.")

    def _keep_alive(self) -> None:
        last_beat = 0.0
        while not self._stop.is_set() and not self._lost.is_set():
            now = time.monotonic()
            if now - last_beat >= self.heartbeat_s:
                last_beat = now
                self._write(protocol.encode(protocol.HEARTBEAT, self._next_tx()))
            if now - self._last_rx > 3 * self.heartbeat_s + 0.5:
                self.last_error = "the board stopped answering"
                return
            with self._lock:
                for seq, entry in list(self._outstanding.items()):
                    if now - entry[1] >= RESEND_S:
                        if entry[2] >= COMMAND_TRIES:
                            # A board that never acknowledges must not be flooded forever.
                            del self._outstanding[seq]
                            self.count("unacknowledged")
                            continue
                        entry[1] = now
                        entry[2] += 1
                        self._write(entry[0])
                if self._gap_since is not None and now - self._gap_since > GAP_S:
                    self._skip_gap()
            self._lost.wait(min(0.05, self.heartbeat_s / 4))

    def _replay(self) -> None:
        """After a (re)connection, bring the board to what the game expects."""
        with self._lock:
            info = self._info
            if self._window_open:
                self._command(protocol.OPEN_WINDOW,
                              struct.pack(protocol.OPEN_WINDOW_BODY, self._window_id,
                                          self._window_mask))
            elif info is not None and info.window_open and info.window:
                self._command(protocol.CLOSE_WINDOW,
                              struct.pack(protocol.CLOSE_WINDOW_BODY, info.window))
            for station, (code, duration_ms) in sorted(self._lights.items()):
                self._command(protocol.SET_LIGHT,
                              struct.pack(protocol.SET_LIGHT_BODY, station, code, duration_ms))

    def _report(self, connected: bool, message: str, info: BoardInfo | None = None) -> None:
        if self._status == (connected, message):
            return
        self._status = (connected, message)
        if self._events is None:
            return
        if info is not None:
            status = SirenStatus(connected, message, info.board_id, info.firmware, info.stations)
        else:
            status = SirenStatus(connected, message)
        self._events.put(status)

    # ------------------------------------------------------------------ writing

    def _next_tx(self) -> int:
        with self._lock:
            self._tx_seq = (self._tx_seq + 1) & 0xFFFF
            return self._tx_seq

    def _write(self, data: bytes) -> None:
        reader = self._reader
        if reader is None:
            return
        try:
            reader.write(data)
        except (serial.SerialException, OSError, TypeError, AttributeError):
            self._lost.set()

    def _command(self, kind: int, body: bytes) -> None:
        """Send a command the board must acknowledge; re-sent until it does (or we reconnect)."""
        seq = self._next_tx()
        frame = protocol.encode(kind, seq, body)
        if self._ready:
            self._outstanding[seq] = [frame, time.monotonic(), 1]
            self._write(frame)

    def flush_ack(self, *, force: bool = False) -> None:
        """Acknowledge every press delivered so far, unless an ACK_PRESS went out less than
        ``ACK_EVERY_S`` ago: then it waits for that (the reader thread sends it when
        :meth:`ack_wait` runs out, or with the next read after that). A lone press is thus
        acknowledged at once, and a burst of a thousand presses a second costs the board and
        the line a hundred ACK_PRESS frames, not a thousand, without delaying any press: the
        acknowledgement only stops the board's re-sending (after 100 ms)."""
        if not self._ack_due or self._boot_id is None:
            return
        now = time.monotonic()
        if not force and 0 <= now - self._acked_at < ACK_EVERY_S:
            return
        self._ack_due = False
        self._acked_at = now
        body = struct.pack(protocol.ACK_PRESS_BODY, self._boot_id,
                           (self._next_press - 1) & 0xFFFFFFFF)
        self._write(protocol.encode(protocol.ACK_PRESS, self._next_tx(), body))

    def ack_wait(self) -> float | None:
        """Seconds until a held-back ACK_PRESS is due; None when none is waiting."""
        if not self._ack_due or self._boot_id is None:
            return None
        return max(0.0, self._acked_at + ACK_EVERY_S - time.monotonic())

    # ------------------------------------------------------------------ reading (reader thread)

    def on_lost(self, packets: _Packets) -> None:
        if packets is self._packets:
            self._lost.set()

    def on_frame(self, kind: int, seq: int, body: bytes) -> None:
        self._last_rx = time.monotonic()
        self.count("frames")
        if kind == protocol.PRESS:
            if self._ready and len(body) == struct.calcsize(protocol.PRESS_BODY):
                self._on_press(body)
        elif kind == protocol.ACK:
            if len(body) == struct.calcsize(protocol.ACK_BODY):
                acked, status, board_us = struct.unpack(protocol.ACK_BODY, body)
                with self._lock:
                    entry = self._outstanding.pop(acked, None)
                if entry is not None and status != protocol.OK:
                    self.count("nacks")
                if entry is not None and status == protocol.OK:
                    self._note_ack(entry[0], board_us)
        elif kind == protocol.HELLO_REPLY:
            info = parse_hello_reply(body)
            if info is not None and not self._hello.is_set():
                self._on_hello(info)
        elif kind == protocol.BOARD_HEARTBEAT:
            if len(body) >= 4 and self._ready:
                (boot_id,) = struct.unpack(">I", body[:4])
                self._check_boot(boot_id)
        else:
            self.count("unknown")

    def _note_ack(self, frame: bytes, board_us: int) -> None:
        decoded = protocol.decode(frame[:-1])
        if decoded is not None and decoded[0] == protocol.CLOSE_WINDOW:
            self.window_closed_us = board_us

    def _on_hello(self, info: BoardInfo) -> None:
        with self._lock:
            self._info = info
            if info.version == protocol.VERSION:
                if info.boot_id != self._boot_id:
                    # A board we have not met, or the same one after a power cut: its numbering
                    # starts where it says, and nothing we saw before can be a repeat.
                    self._boot_id = info.boot_id
                    self._next_press = info.next_press
                    self._held.clear()
                    self._recent.clear()
                    self._gap_since = None
                elif seq_after(info.next_press, self._next_press) > 0:
                    self._next_press = info.next_press
                self._ready = True
                # Reported here, on the reader thread, so the status is queued before the
                # presses the board re-sends right after this reply.
                self._report(True, connected_message(info), info)
        self._hello.set()

    def _check_boot(self, boot_id: int) -> bool:
        """False (and a fresh handshake) when the board restarted behind an open port."""
        if boot_id == self._boot_id:
            return True
        self.last_error = "the board restarted"
        self._ready = False
        self._lost.set()
        return False

    def _on_press(self, body: bytes) -> None:
        boot_id, seq, station, board_us, window, verdict = struct.unpack(protocol.PRESS_BODY, body)
        if not self._check_boot(boot_id):
            return
        press = SirenPress(station, board_us, verdict == protocol.IN_WINDOW, window, seq)
        ahead = seq_after(seq, self._next_press)
        self._ack_due = True
        if ahead < 0:
            if self._recent.get(seq, (station, board_us)) == (station, board_us):
                self.count("duplicates")
                return
            # Same number, another press: the board renumbered without a new boot id. Follow
            # its numbering rather than drop real presses as repeats.
            self.count("renumbered")
            with self._lock:
                self._next_press = seq
                self._held.clear()
                self._recent.clear()
            ahead = 0
        if ahead > 0:
            with self._lock:
                if len(self._held) < MAX_HELD and seq not in self._held:
                    self._held[seq] = press
                    self.count("held")
                if self._gap_since is None:
                    self._gap_since = time.monotonic()
            return
        with self._lock:
            self._deliver(press)
            self._deliver_held()

    def _deliver_held(self) -> None:
        while self._next_press in self._held:
            self._deliver(self._held.pop(self._next_press))
        self._gap_since = time.monotonic() if self._held else None

    def _skip_gap(self) -> None:
        """The board never re-sent a missing number: hand over what came after it, in order.

        The firmware never skips a number, so this only guards against a board that does: one
        lost press must not hold every later press back forever.
        """
        if not self._held:
            self._gap_since = None
            return
        first = min(self._held, key=lambda s: seq_after(s, self._next_press))
        self.count("skipped")
        self._next_press = first
        self._deliver_held()
        self._ack_due = True
        self.flush_ack(force=True)  # from the supervisor: the reader may be waiting for bytes

    def _deliver(self, press: SirenPress) -> None:
        self._next_press = (self._next_press + 1) & 0xFFFFFFFF
        self._recent[press.seq] = (press.station, press.board_us)
        if len(self._recent) > RECENT:
            del self._recent[next(iter(self._recent))]
        info = self._info
        stations = info.stations if info is not None and info.stations else protocol.MAX_STATIONS
        if not 0 <= press.station < min(stations, protocol.MAX_STATIONS):
            self.count("invalid")  # numbered, so acknowledged, but no such station
            return
        if press.in_window:
            # The board lit this station itself; remember it so a replay does not undo that.
            with self._lock:
                self._lights[press.station] = (protocol.LIGHT_ON, 0)
        self.stats["delivered"] += 1
        if self._events is not None:
            self._events.put(press)
