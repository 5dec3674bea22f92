"""The siren board's wire protocol, shared word for word by the firmware and the Pi.

This module runs under MicroPython on the board (as ``siren.protocol``) and under CPython on the
Pi (as ``hardware.firmware.protocol``), so it uses only ``struct`` and plain bytes: no typing
module, no dataclasses (annotations are fine: MicroPython ignores them).
docs/siren-protocol.md is the human version of this file.

A frame on the wire is ``COBS(type | seq | body | crc16) 0x00``:

* ``type`` (1 byte) says which message; board-to-host types have the high bit set;
* ``seq`` (2 bytes, big-endian) counts the sender's frames; the host's command ``seq`` is echoed
  in the board's ACK, so the host knows which command took effect;
* ``crc16`` is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over type, seq and body, big-endian.

COBS removes every zero byte from the frame, so a single 0x00 ends each frame and a receiver that
lost its place resynchronises at the next 0x00.
"""

import struct

try:
    # CPython's binascii computes this very CRC (poly 0x1021, no reflection) in C, twenty times
    # faster than the table loop; the Pi's reader thread and the simulator run it for every frame.
    from binascii import crc_hqx
except ImportError:  # MicroPython's binascii has no crc_hqx: the table loop below
    crc_hqx = None  # type: ignore[assignment]

VERSION = 1
"""The protocol version. Both sides state it in the handshake; a mismatch stops the host."""

MAX_FRAME = 96
"""Largest decoded frame (type + seq + body + crc) either side accepts."""
MAX_WIRE = MAX_FRAME + MAX_FRAME // 254 + 2
"""Largest encoded frame before its 0x00; longer runs without a 0x00 are noise."""

# Host -> board
HELLO = 0x01
HEARTBEAT = 0x02
OPEN_WINDOW = 0x03
CLOSE_WINDOW = 0x04
SET_LIGHT = 0x05
ACK_PRESS = 0x06
STOP = 0x07
# Board -> host
HELLO_REPLY = 0x81
BOARD_HEARTBEAT = 0x82
ACK = 0x83
PRESS = 0x84

NAMES = {
    HELLO: "HELLO",
    HEARTBEAT: "HEARTBEAT",
    OPEN_WINDOW: "OPEN_WINDOW",
    CLOSE_WINDOW: "CLOSE_WINDOW",
    SET_LIGHT: "SET_LIGHT",
    ACK_PRESS: "ACK_PRESS",
    STOP: "STOP",
    HELLO_REPLY: "HELLO_REPLY",
    BOARD_HEARTBEAT: "BOARD_HEARTBEAT",
    ACK: "ACK",
    PRESS: "PRESS",
}

# ACK status
OK = 0
BAD_ARGUMENT = 1
UNKNOWN_MESSAGE = 2
WRONG_VERSION = 3

# PRESS verdict: the board's ruling on a press against the Eureka window
NO_WINDOW = 0
IN_WINDOW = 1
LATE = 2

# SET_LIGHT patterns (the numbers on the wire; the host maps LightPattern names onto them)
LIGHT_OFF = 0
LIGHT_ON = 1
LIGHT_BLINK = 2
LIGHT_PULSE = 3
LIGHT_COUNTDOWN = 4
ALL_STATIONS = 0xFF

MAX_STATIONS = 6

# Bodies, big-endian. HELLO_REPLY ends with two length-prefixed UTF-8 strings.
HELLO_BODY = ">BH"  # protocol version, heartbeat interval ms
OPEN_WINDOW_BODY = ">HB"  # window id (1..65535), station bit mask
CLOSE_WINDOW_BODY = ">H"  # window id
SET_LIGHT_BODY = ">BBH"  # station (0xFF = all), pattern, countdown length ms
ACK_PRESS_BODY = ">II"  # boot id, every press with seq <= this is delivered
HELLO_REPLY_HEAD = ">BBIIHBQ"  # version, stations, boot id, next press seq, window, open, board us
BOARD_HEARTBEAT_BODY = ">IQBHH"  # boot id, board us, presses unacknowledged, dropped, overflow
ACK_BODY = ">HBQ"  # the acknowledged frame's seq, status, board us when it took effect
PRESS_BODY = ">IIBQHB"  # boot id, press seq, station, board us, window id, verdict


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data: bytes | bytearray) -> int:
    """CRC-16/CCITT-FALSE: ``crc16(b"123456789") == 0x29B1``."""
    if crc_hqx is not None:
        return crc_hqx(data, 0xFFFF)
    crc = 0xFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result contains no zero byte."""
    # Block by block (each run between zeros, cut every 254 bytes), not byte by byte: the same
    # bytes out, a few slices instead of a Python step per byte.
    out = bytearray()
    for run in data.split(b"\x00"):
        while len(run) >= 0xFE:
            out.append(0xFF)
            out.extend(run[:0xFE])
            run = run[0xFE:]
        out.append(len(run) + 1)
        out.extend(run)
    return bytes(out)


def cobs_decode(data: bytes) -> bytes | None:
    """The inverse of :func:`cobs_encode`; None when ``data`` is not valid COBS."""
    # find(), not `0 in data`: same on every MicroPython port. With no zero anywhere, no code
    # byte can be zero and no block can hold one, so the loop only checks the lengths.
    if data.find(b"\x00") >= 0:
        return None
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if end > n:
            return None
        out.extend(data[i + 1 : end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode(kind: int, seq: int, body: bytes = b"") -> bytes:
    """One frame ready for the wire, its 0x00 delimiter included."""
    raw = bytearray(struct.pack(">BH", kind, seq & 0xFFFF))
    raw.extend(body)
    raw.extend(struct.pack(">H", crc16(raw)))
    return cobs_encode(bytes(raw)) + b"\x00"


def decode(packet: bytes) -> tuple[int, int, bytes] | None:
    """``(type, seq, body)`` from one packet without its 0x00, or None when damaged."""
    raw = cobs_decode(packet)
    if raw is None or len(raw) < 5 or len(raw) > MAX_FRAME:
        return None
    if crc16(raw[:-2]) != (raw[-2] << 8 | raw[-1]):
        return None
    return raw[0], raw[1] << 8 | raw[2], raw[3:-2]


def pack_strings(*texts: str) -> bytes:
    out = bytearray()
    for text in texts:
        data = text.encode("utf-8")[:24]
        out.append(len(data))
        out.extend(data)
    return bytes(out)


def unpack_strings(data: bytes, count: int) -> list[str] | None:
    texts = []
    i = 0
    for _ in range(count):
        if i >= len(data):
            return None
        n = data[i]
        if i + 1 + n > len(data):
            return None
        try:
            texts.append(bytes(data[i + 1 : i + 1 + n]).decode("utf-8"))
        except UnicodeError:
            return None
        i += 1 + n
    return texts


class Decoder:
    """Turns a byte stream into frames; never raises on bad input.

    Feed it whatever the serial port gave; it returns the good frames and counts the rest:
    ``oversize`` (too long without a 0x00), ``damaged`` (bad COBS, bad CRC, too short).
    After any damage it resynchronises at the next 0x00.
    """

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.discarding = False
        self.frames = 0
        self.damaged = 0
        self.oversize = 0

    @property
    def dropped(self) -> int:
        return self.damaged + self.oversize

    def feed(self, data: bytes) -> list[tuple[int, int, bytes]]:
        frames = []
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                self._extend(data[start:])
                break
            self._extend(data[start:end])
            frame = self.packet()
            if frame is not None:
                frames.append(frame)
            start = end + 1
        return frames

    def _extend(self, chunk: bytes) -> None:
        if self.discarding:
            return
        self.buffer.extend(chunk)
        if len(self.buffer) > MAX_WIRE:
            self.buffer = bytearray()
            self.discarding = True
            self.oversize += 1

    def packet(self) -> tuple[int, int, bytes] | None:
        """Ends the packet in the buffer (a 0x00 arrived) and decodes it."""
        if self.discarding:
            self.discarding = False
            self.buffer = bytearray()
            return None
        if not self.buffer:
            return None  # back-to-back delimiters are allowed (a sender may flush with 0x00)
        frame = decode(bytes(self.buffer))
        self.buffer = bytearray()
        if frame is None:
            self.damaged += 1
            return None
        self.frames += 1
        return frame
