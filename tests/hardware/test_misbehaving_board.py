"""The driver against a hand-written board that breaks the rules the firmware keeps."""

from __future__ import annotations

import os
import queue
import struct
import threading
import tty
from collections.abc import Iterator

import pytest
from siren_helpers import wait_for

from companion.config import SirenConfig
from companion.ports import SirenEvent, SirenPress
from hardware.firmware import protocol
from hardware.serial_board import SerialBoard


class RawBoard:
    """Answers HELLO, sends heartbeats on request of the test, never acknowledges commands."""

    def __init__(self, boot_id: int = 5, next_press: int = 1) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.boot_id = boot_id
        self.next_press = next_press
        self.received: list[tuple[int, int, bytes]] = []
        self.tx = 0
        self.mute = False
        self._closed = False
        threading.Thread(target=self._run, daemon=True).start()

    def send(self, kind: int, body: bytes) -> None:
        self.tx += 1
        os.write(self.master, protocol.encode(kind, self.tx, body))

    def press(self, seq: int, station: int, board_us: int) -> None:
        self.send(protocol.PRESS, struct.pack(protocol.PRESS_BODY, self.boot_id, seq, station,
                                              board_us, 0, protocol.NO_WINDOW))

    def _run(self) -> None:
        decoder = protocol.Decoder()
        while not self._closed:
            try:
                data = os.read(self.master, 512)
            except OSError:
                return
            try:
                self._answer(decoder.feed(data))
            except OSError:
                return  # the test closed the board while it answered

    def _answer(self, frames: list[tuple[int, int, bytes]]) -> None:
        for frame in frames:
            self.received.append(frame)
            if self.mute:
                continue
            if frame[0] == protocol.HELLO:
                head = struct.pack(protocol.HELLO_REPLY_HEAD, protocol.VERSION, 6,
                                   self.boot_id, self.next_press, 0, 0, 0)
                self.send(protocol.HELLO_REPLY, head + protocol.pack_strings("raw", "0.1"))
            elif frame[0] == protocol.HEARTBEAT:
                self.send(protocol.BOARD_HEARTBEAT, struct.pack(
                    protocol.BOARD_HEARTBEAT_BODY, self.boot_id, 0, 0, 0, 0))

    def close(self) -> None:
        self._closed = True
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def raw() -> Iterator[tuple[RawBoard, SerialBoard, list[SirenPress]]]:
    board = RawBoard()
    driver = SerialBoard(SirenConfig(backend="serial", port=board.path, heartbeat_s=0.2))
    events: queue.Queue[SirenEvent] = queue.Queue()
    got: list[SirenPress] = []

    def drain() -> list[SirenPress]:
        while not events.empty():
            event = events.get_nowait()
            if isinstance(event, SirenPress):
                got.append(event)
        return got

    driver.start(events)
    wait_for(lambda: driver.connected, "the handshake")
    driver.drain = drain  # type: ignore[attr-defined]
    driver.events = events  # type: ignore[attr-defined]
    yield board, driver, got
    driver.close()
    board.close()


def test_a_skipped_number_does_not_hold_later_presses_forever(
    raw: tuple[RawBoard, SerialBoard, list[SirenPress]],
) -> None:
    board, driver, got = raw
    board.press(1, 0, 100)
    board.press(3, 1, 300)  # number 2 never comes
    board.press(4, 2, 400)
    wait_for(lambda: len(driver.drain()) == 3, "the presses after the gap")  # type: ignore[attr-defined]
    assert [(p.seq, p.station) for p in got] == [(1, 0), (3, 1), (4, 2)]
    assert driver.stats["skipped"] == 1


def test_repeats_are_dropped_but_a_renumbered_press_is_not(
    raw: tuple[RawBoard, SerialBoard, list[SirenPress]],
) -> None:
    board, driver, got = raw
    board.press(1, 0, 100)
    board.press(2, 1, 200)
    board.press(1, 0, 100)  # a true repeat
    board.press(1, 4, 900)  # same number, another press: the board renumbered
    board.press(2, 5, 950)
    wait_for(lambda: len(driver.drain()) == 4, "four presses")  # type: ignore[attr-defined]
    assert [(p.seq, p.station) for p in got] == [(1, 0), (2, 1), (1, 4), (2, 5)]
    assert driver.stats["duplicates"] == 1 and driver.stats["renumbered"] == 1


def test_no_such_station_is_not_delivered(
    raw: tuple[RawBoard, SerialBoard, list[SirenPress]],
) -> None:
    board, driver, got = raw
    board.press(1, 9, 100)
    board.press(2, 3, 200)
    wait_for(lambda: driver.drain(), "the valid press")  # type: ignore[attr-defined]
    assert [p.station for p in got] == [3]
    assert driver.stats["invalid"] == 1


def test_acknowledgements_name_the_boot_and_the_last_press(
    raw: tuple[RawBoard, SerialBoard, list[SirenPress]],
) -> None:
    board, _, _ = raw
    board.press(1, 0, 100)

    def acked() -> bool:
        acks = [struct.unpack(protocol.ACK_PRESS_BODY, b) for k, _, b in board.received
                if k == protocol.ACK_PRESS]
        return (5, 1) in acks

    wait_for(acked, "ACK_PRESS (boot 5, up to 1)")


def test_a_board_that_falls_silent_is_reported_gone(
    raw: tuple[RawBoard, SerialBoard, list[SirenPress]],
) -> None:
    board, driver, _ = raw
    events: queue.Queue[SirenEvent] = driver.events  # type: ignore[attr-defined]
    board.mute = True  # no more heartbeats: 3 intervals (0.6 s) + 0.5 s later it is gone
    statuses: list[SirenEvent] = []

    def gone() -> bool:
        while not events.empty():
            statuses.append(events.get_nowait())
        return any(not getattr(s, "connected", True) for s in statuses)

    wait_for(gone, "a disconnected status")
    assert "stopped answering" in driver.last_error


class _Clock:
    """A stand-in for the driver's ``time`` module: ``monotonic`` only moves when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_acknowledgements_are_held_back_to_one_per_10_ms(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hardware import serial_board

    clock = _Clock()
    monkeypatch.setattr(serial_board, "time", clock)
    driver = SerialBoard(SirenConfig(backend="serial"))
    sent: list[tuple[int, int]] = []

    def write(data: bytes) -> None:
        frame = protocol.decode(data[:-1])
        assert frame is not None and frame[0] == protocol.ACK_PRESS
        sent.append(struct.unpack(protocol.ACK_PRESS_BODY, frame[2]))

    monkeypatch.setattr(driver, "_write", write)
    driver._boot_id, driver._next_press, driver._ready = 5, 1, True

    def press(seq: int) -> None:
        driver.on_frame(protocol.PRESS, seq, struct.pack(
            protocol.PRESS_BODY, 5, seq, 0, 100 * seq, 0, protocol.NO_WINDOW))
        driver.flush_ack()  # what the reader does after every read

    assert driver.ack_wait() is None
    press(1)
    assert sent == [(5, 1)]  # a lone press: acknowledged at once
    clock.now += 0.004
    press(2)
    clock.now += 0.003
    press(3)
    assert sent == [(5, 1)]  # held back: the last ACK_PRESS went out 7 ms ago
    wait = driver.ack_wait()
    assert wait is not None and abs(wait - 0.003) < 1e-9
    clock.now += 0.003
    driver.flush_ack()  # the reader's wait for bytes ran out: what idle() does
    assert sent == [(5, 1), (5, 3)]  # one frame for both presses
    assert driver.ack_wait() is None
    clock.now += 0.011
    press(4)
    assert sent[-1] == (5, 4)  # over 10 ms on: at once again
    assert driver.stats["delivered"] == 4


def test_a_held_back_acknowledgement_goes_out_with_no_more_bytes_from_the_board() -> None:
    # No heartbeats to wake the reader (60 s): only its own wait for the held-back ACK_PRESS.
    board = RawBoard()
    driver = SerialBoard(SirenConfig(backend="serial", port=board.path, heartbeat_s=60.0))
    driver.start(queue.Queue())
    try:
        wait_for(lambda: driver.connected, "the handshake")
        for seq in range(1, 6):
            board.press(seq, seq % 6, 100 * seq)

        def acked() -> bool:
            return any(k == protocol.ACK_PRESS and
                       struct.unpack(protocol.ACK_PRESS_BODY, b) == (5, 5)
                       for k, _, b in board.received)

        wait_for(acked, "ACK_PRESS (boot 5, up to 5)")
    finally:
        driver.close()
        board.close()


def test_start_shortens_the_thread_switch_interval_never_lengthens_it() -> None:
    import sys

    before = sys.getswitchinterval()
    try:
        for given, expected in ((0.005, 0.001), (0.0005, 0.0005)):
            sys.setswitchinterval(given)
            driver = SerialBoard(SirenConfig(backend="serial", port="/nonexistent/robo-siren"))
            driver.start(queue.Queue())
            driver.close()
            assert sys.getswitchinterval() == pytest.approx(expected)
    finally:
        sys.setswitchinterval(before)
