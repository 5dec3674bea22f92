"""The firmware's entry point on the Pico: ``import siren.app; siren.app.run()`` (see main.py)."""

import os
import time

import machine
import micropython

from . import config
from .board import Board
from .pins import Pins
from .usb_serial import UsbSerial


def run() -> None:
    pins = Pins(machine, config.BUTTON_PINS, config.LIGHT_PINS)
    if pins.pressed(0):
        # Safe mode: station 0 held at power-up leaves the board at the MicroPython prompt, so it
        # can always be reflashed even if the firmware misbehaves.
        return
    serial = UsbSerial()
    serial_no = "".join(f"{b:02x}" for b in machine.unique_id())
    boot_id = int.from_bytes(os.urandom(4), "big")
    board = Board(
        serial,
        pins,
        time.ticks_us,  # type: ignore[attr-defined]
        board_id=config.BOARD_NAME + "-" + serial_no,
        firmware=config.FIRMWARE,
        boot_id=boot_id,
        lockout_us=config.LOCKOUT_MS * 1000,
        heartbeat_ms=config.HEARTBEAT_MS,
    )
    pins.attach(board.on_edge, time.ticks_us)  # type: ignore[attr-defined]
    while not board.stopped:
        board.step()
        serial.wait(1)
    micropython.kbd_intr(3)  # STOP from the Pi: give Ctrl-C back so mpremote can take over
