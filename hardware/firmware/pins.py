"""Buttons and lights on real pins, through a ``machine`` module.

On the Pico that is MicroPython's own ``machine``; in the simulator it is the fake in
``hardware.simulator``, so this code runs unchanged in the tests.
"""


class Pins:
    def __init__(self, machine: "object", button_pins: list[int], light_pins: list[int]) -> None:
        self.machine = machine
        self.stations = min(len(button_pins), len(light_pins))
        pin_cls = machine.Pin  # type: ignore[attr-defined]
        self.buttons = [
            pin_cls(n, pin_cls.IN, pin_cls.PULL_UP) for n in button_pins[: self.stations]
        ]
        self.lights: list[object] = []
        for n in light_pins[: self.stations]:
            try:
                pwm = machine.PWM(pin_cls(n))  # type: ignore[attr-defined]
                pwm.freq(1000)
                pwm.duty_u16(0)
                self.lights.append(pwm)
            except (AttributeError, ValueError):  # no PWM on this pin: plain on/off
                self.lights.append(pin_cls(n, pin_cls.OUT, value=0))

    def attach(self, on_edge: "object", ticks_us: "object") -> None:
        """Call ``on_edge(station, pressed, ticks)`` from the interrupt of each button."""
        pin_cls = self.machine.Pin  # type: ignore[attr-defined]
        for station, pin in enumerate(self.buttons):
            pin.irq(
                handler=_edge_handler(station, on_edge, ticks_us),
                trigger=pin_cls.IRQ_FALLING | pin_cls.IRQ_RISING,
            )

    def pressed(self, station: int) -> bool:
        return self.buttons[station].value() == 0  # type: ignore[no-any-return]

    def set_level(self, station: int, level: int) -> None:
        light = self.lights[station]
        if hasattr(light, "duty_u16"):
            light.duty_u16(level)
        else:
            light.value(1 if level >= 32768 else 0)  # type: ignore[attr-defined]


def _edge_handler(station: int, on_edge: "object", ticks_us: "object") -> "object":
    def handler(pin: "object") -> None:
        # Time first: every instruction before it would blur the press's timestamp.
        t = ticks_us()  # type: ignore[operator]
        on_edge(station, pin.value() == 0, t)  # type: ignore[attr-defined, operator]

    return handler
