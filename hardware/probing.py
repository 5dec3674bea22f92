"""The doctor's look at the siren board (see :func:`hardware.probe`)."""

from __future__ import annotations

from companion.config import SirenConfig
from companion.ports import SirenBoardError
from hardware import ProbeResult

TOUCH = "players can still call Eureka by touch"


def run_probe(config: SirenConfig, timeout: float) -> ProbeResult:
    if config.backend == "none":
        return ProbeResult(
            True, f'The siren board is switched off (siren.backend = "none"); {TOUCH}.'
        )
    if config.backend == "gpio":
        return _probe_gpio(config)
    try:
        import serial  # noqa: F401
    except ImportError:
        return ProbeResult(False, "pyserial is not installed; install it with "
                                  "pip install 'robo-companion[hardware]'.")
    from hardware.serial_board import SerialBoard, find_ports

    simulator = None
    if config.backend == "simulated":
        from hardware.simulator import SimulatedBoard

        simulator = SimulatedBoard()
        ports = [simulator.port]
    else:
        ports = find_ports(config)
    if not ports:
        where = (f"{config.port} does not exist" if config.port != "auto" else
                 f"no serial device has USB id {' or '.join(config.usb_ids)} and "
                 "/dev/robo-siren does not exist")
        return ProbeResult(
            False,
            f"No siren board found: {where}. Plug the board in with a USB data cable (flash it "
            f"first with 'robo-companion siren flash'), or set siren.backend = \"none\"; {TOUCH}.",
        )
    driver = SerialBoard(config)
    try:
        info = driver.connect_once(ports[0], timeout)
    except SirenBoardError as exc:
        return ProbeResult(False, str(exc), port=ports[0])
    finally:
        driver.close()
        if simulator is not None:
            simulator.close()
    what = "simulated siren board" if simulator is not None else "siren board"
    return ProbeResult(
        True,
        f"The {what} {info.board_id} answers on {ports[0]}: firmware {info.firmware}, "
        f"{info.stations} stations, protocol version {info.version}.",
        info.board_id, info.firmware, info.stations, ports[0],
    )


def _probe_gpio(config: SirenConfig) -> ProbeResult:
    try:
        from gpiozero import Device
        from gpiozero.exc import BadPinFactory
    except ImportError:
        return ProbeResult(False, "gpiozero is not installed; install it with "
                                  "pip install 'robo-companion[hardware]'.")
    try:
        Device.ensure_pin_factory()
    except BadPinFactory:
        return ProbeResult(False, "No GPIO pins are usable here (this is not a Raspberry Pi, or "
                                  "lgpio is missing); set siren.backend to \"serial\" or \"none\".")
    except Exception as exc:  # gpiozero raises many kinds
        return ProbeResult(False, f"The GPIO pins cannot be used ({exc}).")
    pins = ", ".join(f"station {i}: button GPIO{b}, light GPIO{light}" for i, (b, light) in
                     enumerate(zip(config.gpio.buttons, config.gpio.lights, strict=False)))
    return ProbeResult(True, f"GPIO siren stations ready ({pins}).",
                       stations=len(config.gpio.buttons))
