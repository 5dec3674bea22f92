"""The Pico's USB serial port as the board's ``serial`` (MicroPython only)."""

import select
import sys

import micropython


class UsbSerial:
    def __init__(self) -> None:
        # Ctrl-C (0x03) may appear inside a binary frame: it must not interrupt the firmware.
        micropython.kbd_intr(-1)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self) -> bytes | None:
        data = bytearray()
        while len(data) < 256 and self._poll.poll(0):
            data.extend(self._in.read(1))
        return bytes(data) if data else None

    def write(self, data: bytes) -> None:
        self._out.write(data)

    def wait(self, timeout_ms: int) -> None:
        self._poll.poll(timeout_ms)
