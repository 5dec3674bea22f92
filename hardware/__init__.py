"""The siren board: one big button and light per seat, and the adapters that read it.

Public API (everything else is internal)::

    make_board(config: SirenConfig, *, simulated_stations: int = 6) -> SirenBoard | None
    probe(config: SirenConfig, timeout: float = 2.0) -> ProbeResult

``make_board`` picks the adapter from ``config.backend``:

* ``"auto"``: a serial board if one is found now (``siren.port``, ``/dev/robo-siren`` or a device
  with one of ``siren.usb_ids``), else None: the table plays by touch;
* ``"serial"``: the serial driver even when no board is plugged in yet (it keeps looking and
  reports through :class:`~companion.ports.SirenStatus` events);
* ``"gpio"``: stations wired straight to the Pi's pins (:class:`hardware.gpio.GpioBoard`);
* ``"simulated"``: the real firmware running in a simulator on a pseudo-terminal, driven through
  the serial driver like a real board. The returned driver has ``.simulator``, a
  :class:`hardware.simulator.SimulatedBoard`: ``driver.simulator.press(station)`` presses a
  station's button (the demo maps keys 1..6 to stations 0..5); ``driver.close()`` closes both;
* ``"none"``: None.

Both adapters implement :class:`companion.ports.SirenBoard` exactly, plus a keyword on
``set_light(station, pattern, *, duration_s=10.0)``: the length of a countdown. The serial
driver also has ``stats`` (frames, damaged, duplicates, ... for the doctor), ``connected`` and
``window_closed_us`` (the board's own time of the last close, its ruling time).

Nothing here opens hardware or imports pyserial/gpiozero until one of these functions is called.
Sub-packages: ``firmware`` (the MicroPython code, also run by the simulator), ``serial_board``,
``gpio``, ``simulator``, ``cli`` (``robo-companion siren ...``), ``bench``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.config import SirenConfig
    from companion.ports import SirenBoard

__all__ = ["ProbeResult", "make_board", "probe"]


def make_board(config: SirenConfig, *, simulated_stations: int = 6) -> SirenBoard | None:
    backend = config.backend
    if backend == "none":
        return None
    if backend == "gpio":
        from hardware.gpio import GpioBoard

        return GpioBoard(config.gpio)
    from hardware.serial_board import SerialBoard, find_ports

    if backend == "simulated":
        from hardware.simulator import SimulatedBoard

        simulator = SimulatedBoard(simulated_stations)
        driver = SerialBoard(config, port=simulator.port)
        driver.simulator = simulator
        return driver
    if backend == "auto" and not find_ports(config):
        return None
    return SerialBoard(config)


@dataclass(frozen=True)
class ProbeResult:
    """What ``robo-companion doctor`` shows about the siren board. ``message`` is plain words."""

    ok: bool
    message: str
    board_id: str = ""
    firmware: str = ""
    stations: int = 0
    port: str = ""


def probe(config: SirenConfig, timeout: float = 2.0) -> ProbeResult:
    """Look for the board configured and shake hands with it. Never raises."""
    try:
        from hardware.probing import run_probe

        return run_probe(config, timeout)
    except Exception as exc:  # the doctor must always get an answer
        return ProbeResult(False, f"The siren board check failed unexpectedly ({exc}).")
