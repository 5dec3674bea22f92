"""The GPIO build on gpiozero's MockFactory, with our own clock (MockFactory does no bounce)."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import GpioConfig
from companion.ports import LightPattern, SirenEvent, SirenPress, SirenStatus
from hardware.gpio import GpioBoard

CONFIG = GpioConfig(buttons=[17, 27, 22], lights=[5, 6, 13], bounce_ms=30)


class Clock:
    def __init__(self) -> None:
        self.us = 1_000_000

    def __call__(self) -> int:
        return self.us


@pytest.fixture
def rig() -> Iterator[tuple[GpioBoard, MockFactory, Clock, queue.Queue[SirenEvent]]]:
    # The factory is given to the board explicitly: nothing global is changed at import.
    factory = MockFactory(pin_class=MockPWMPin)
    clock = Clock()
    board = GpioBoard(CONFIG, pin_factory=factory, clock_us=clock)
    events: queue.Queue[SirenEvent] = queue.Queue()
    board.start(events)
    yield board, factory, clock, events
    board.close()
    factory.close()


def presses(events: queue.Queue[SirenEvent]) -> list[SirenPress]:
    out = []
    while not events.empty():
        event = events.get_nowait()
        if isinstance(event, SirenPress):
            out.append(event)
    return out


def test_reports_ready(rig: tuple[GpioBoard, MockFactory, Clock, queue.Queue[SirenEvent]]) -> None:
    _, _, _, events = rig
    status = events.get_nowait()
    assert isinstance(status, SirenStatus) and status.connected and status.stations == 3


def test_bouncing_contact_is_one_press_at_the_leading_edge(
    rig: tuple[GpioBoard, MockFactory, Clock, queue.Queue[SirenEvent]],
) -> None:
    _, factory, clock, events = rig
    pin = factory.pin(17)
    for step in range(6):  # 6 edges 300 us apart: a bouncing contact closing
        if step % 2 == 0:
            pin.drive_low()
        else:
            pin.drive_high()
        clock.us += 300
    pin.drive_low()
    got = presses(events)
    assert [(p.station, p.board_us, p.seq) for p in got] == [(0, 1_000_000, 1)]
    clock.us += 100_000
    pin.drive_high()  # released after the lockout
    clock.us += 100_000
    pin.drive_low()  # a second, real press
    assert [p.board_us for p in presses(events)] == [1_201_800]


def test_window_verdicts_and_the_light_on_acceptance(
    rig: tuple[GpioBoard, MockFactory, Clock, queue.Queue[SirenEvent]],
) -> None:
    board, factory, clock, events = rig
    window = board.open_window((0, 2))
    clock.us += 10
    factory.pin(17).drive_low()  # station 0, in the window
    factory.pin(27).drive_low()  # station 1, not in it
    clock.us += 10
    board.close_window()
    factory.pin(22).drive_low()  # station 2, at the close: late
    got = presses(events)
    assert [(p.station, p.in_window, p.window) for p in got] == [
        (0, True, window), (1, False, 0), (2, False, window)]
    assert board.light_value(0) == 1.0
    assert board.light_value(1) == 0.0


def test_light_patterns_drive_the_pwm_pins(
    rig: tuple[GpioBoard, MockFactory, Clock, queue.Queue[SirenEvent]],
) -> None:
    board, factory, clock, _ = rig
    board.set_light(1, LightPattern.ON)
    assert factory.pin(6).state == 1.0
    board.set_light(1, LightPattern.BLINK)
    clock.us += 300_000
    board.refresh()
    assert factory.pin(6).state == 0.0
    board.set_light(2, LightPattern.COUNTDOWN, duration_s=1.0)
    clock.us += 1_100_000
    board.refresh()
    assert factory.pin(13).state == 0.0  # the countdown ran out


def test_unknown_station_is_refused(
    rig: tuple[GpioBoard, MockFactory, Clock, queue.Queue[SirenEvent]],
) -> None:
    board, _, _, _ = rig
    from companion.ports import SirenBoardError

    with pytest.raises(SirenBoardError):
        board.open_window((5,))


def test_pins_in_use_give_a_status_not_an_exception() -> None:
    from gpiozero import Button

    factory = MockFactory(pin_class=MockPWMPin)
    squatter = Button(27, pin_factory=factory)  # another program holds station 1's pin
    board = GpioBoard(CONFIG, pin_factory=factory)
    events: queue.Queue[SirenEvent] = queue.Queue()
    try:
        board.start(events)
        status = events.get_nowait()
        assert isinstance(status, SirenStatus) and not status.connected
        assert "cannot be used" in status.message
    finally:
        board.close()
        squatter.close()
        factory.close()
