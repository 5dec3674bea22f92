"""The firmware's logic under CPython, with an injected clock and an in-memory serial line."""

from __future__ import annotations

import struct

from hardware.firmware import lights, protocol, ticks
from hardware.firmware.board import Board
from hardware.firmware.debounce import NO_PRESS, Debouncer
from hardware.firmware.window import EurekaWindow

LOCKOUT = 30_000


# ---------------------------------------------------------------------------- debounce


def test_leading_edge_counts_at_once_with_its_own_time() -> None:
    d = Debouncer(LOCKOUT)
    assert d.edge(True, 1_000) == 1_000


def test_bounce_inside_the_lockout_makes_one_press() -> None:
    d = Debouncer(LOCKOUT)
    counted = [d.edge(level, t) for t, level in
               [(0, True), (200, False), (450, True), (900, False), (1_300, True)]]
    assert counted == [0, NO_PRESS, NO_PRESS, NO_PRESS, NO_PRESS]
    assert d.settle(50_000) == NO_PRESS  # it ended pressed, as counted: nothing to catch up


def test_release_then_press_after_lockouts_is_a_second_press() -> None:
    d = Debouncer(LOCKOUT)
    assert d.edge(True, 0) == 0
    assert d.edge(False, 40_000) == NO_PRESS
    assert d.edge(True, 80_000) == 80_000


def test_release_bouncing_in_the_lockout_is_caught_up_lazily() -> None:
    d = Debouncer(LOCKOUT)
    d.edge(True, 0)
    d.edge(False, 10_000)  # a real release, but inside the press's lockout: ignored for now
    assert d.pressed
    # The next press finds the button was released and counts.
    assert d.edge(True, 100_000) == 100_000


def test_press_held_back_by_a_lockout_is_settled_at_its_edge_time() -> None:
    d = Debouncer(LOCKOUT)
    d.edge(True, 0)
    d.edge(False, 40_000)  # release counted, lockout until 70 ms
    assert d.edge(True, 50_000) == NO_PRESS  # inside the release's lockout
    assert d.settle(60_000) == NO_PRESS  # still locked out
    assert d.settle(70_000) == 50_000  # held past the lockout: a press, timed at its edge


# ---------------------------------------------------------------------------- window


def test_window_judges_by_press_time() -> None:
    w = EurekaWindow()
    assert w.judge(0, 5) == (0, protocol.NO_WINDOW)
    w.open(1, 0b011, now_us=100)
    assert w.judge(0, 150) == (1, protocol.IN_WINDOW)
    assert w.judge(2, 150) == (0, protocol.NO_WINDOW)  # station 2 is not in this window
    assert w.close(1, now_us=200) == 200
    assert w.judge(1, 199) == (1, protocol.IN_WINDOW)  # handled after the close, pressed before
    assert w.judge(1, 200) == (1, protocol.LATE)
    assert w.close(1, now_us=300) == 200  # closing twice keeps the first close


def test_window_remembers_the_previous_one() -> None:
    w = EurekaWindow()
    w.open(1, 0b1, 100)
    w.close(1, 200)
    w.open(2, 0b10, 300)
    assert w.judge(0, 150) == (1, protocol.IN_WINDOW)
    assert w.judge(0, 350) == (1, protocol.LATE)
    assert w.judge(1, 350) == (2, protocol.IN_WINDOW)


# ---------------------------------------------------------------------------- ticks and lights


def test_ticks_extend_across_the_wrap() -> None:
    now = [ticks.PERIOD - 10]
    ext = ticks.Extender(lambda: now[0] & ticks.MASK)
    now[0] += 25
    assert ext.now() == 25
    assert ext.extend((ticks.PERIOD - 5) & ticks.MASK) == 5


def test_light_patterns() -> None:
    assert lights.level(protocol.LIGHT_ON, 0, 0) == lights.FULL
    assert lights.level(protocol.LIGHT_OFF, 0, 0) == 0
    assert lights.level(protocol.LIGHT_BLINK, 100_000, 0) == lights.FULL
    assert lights.level(protocol.LIGHT_BLINK, 300_000, 0) == 0
    assert lights.level(protocol.LIGHT_PULSE, 0, 0) == 0
    assert lights.level(protocol.LIGHT_PULSE, 1_000_000, 0) == lights.FULL
    assert lights.level(protocol.LIGHT_COUNTDOWN, 10_001_000, 10_000_000) == 0  # time is up


# ---------------------------------------------------------------------------- board logic


class Line:
    """An in-memory serial line: what the host sent, and the frames the board wrote."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.decoder = protocol.Decoder()
        self.frames: list[tuple[int, int, bytes]] = []

    def read(self) -> bytes | None:
        data, self.inbox = bytes(self.inbox), bytearray()
        return data or None

    def write(self, data: bytes) -> None:
        self.frames += self.decoder.feed(data)

    def send(self, kind: int, seq: int, body: bytes = b"") -> None:
        self.inbox += protocol.encode(kind, seq, body)

    def take(self, kind: int) -> list[bytes]:
        bodies = [b for k, _, b in self.frames if k == kind]
        self.frames = [f for f in self.frames if f[0] != kind]
        return bodies


class Lamps:
    stations = 3

    def __init__(self) -> None:
        self.levels = [0] * 3

    def set_level(self, station: int, level: int) -> None:
        self.levels[station] = level


def make_board() -> tuple[Board, Line, Lamps, list[int]]:
    now = [0]
    line, lamps = Line(), Lamps()
    board = Board(line, lamps, lambda: now[0] & ticks.MASK, "test-board", "9.9", boot_id=77,
                  lockout_us=LOCKOUT)
    return board, line, lamps, now


def hello(line: Line, board: Board, seq: int = 1) -> tuple[int, ...]:
    line.send(protocol.HELLO, seq, struct.pack(protocol.HELLO_BODY, protocol.VERSION, 1000))
    board.step()
    (reply,) = line.take(protocol.HELLO_REPLY)
    return struct.unpack(protocol.HELLO_REPLY_HEAD, reply[:21])


def presses(line: Line) -> list[tuple[int, ...]]:
    return [struct.unpack(protocol.PRESS_BODY, b) for b in line.take(protocol.PRESS)]


def test_handshake_states_version_boot_and_next_press() -> None:
    board, line, _, _ = make_board()
    version, stations, boot_id, next_press, window, is_open, _ = hello(line, board)
    assert (version, stations, boot_id, next_press, window, is_open) == (1, 3, 77, 1, 0, 0)


def test_wrong_version_is_answered_with_the_boards_version() -> None:
    board, line, _, _ = make_board()
    line.send(protocol.HELLO, 9, struct.pack(protocol.HELLO_BODY, 99, 1000))
    board.step()
    assert line.take(protocol.HELLO_REPLY)[0][0] == protocol.VERSION
    seq, status, _ = struct.unpack(protocol.ACK_BODY, line.take(protocol.ACK)[0])
    assert (seq, status) == (9, protocol.WRONG_VERSION)


def test_presses_are_resent_until_acknowledged() -> None:
    board, line, _, now = make_board()
    hello(line, board)
    board.on_edge(1, True, now[0] & ticks.MASK)
    board.step()
    assert [p[1:3] for p in presses(line)] == [(1, 1)]
    now[0] += 150_000
    line.send(protocol.HEARTBEAT, 2)
    board.step()
    assert [p[1:3] for p in presses(line)] == [(1, 1)]  # re-sent: no ack yet
    line.send(protocol.ACK_PRESS, 3, struct.pack(protocol.ACK_PRESS_BODY, 12345, 1))
    now[0] += 150_000
    board.step()
    assert presses(line), "an ack naming another boot must not clear the press"
    line.send(protocol.ACK_PRESS, 4, struct.pack(protocol.ACK_PRESS_BODY, 77, 1))
    board.step()
    now[0] += 150_000
    board.step()
    assert presses(line) == [] and board.pending == []


def test_a_new_host_gets_the_unacknowledged_presses_at_hello() -> None:
    board, line, _, now = make_board()
    for station in (0, 2):
        board.on_edge(station, True, now[0] & ticks.MASK)
        now[0] += 100
    board.step()
    presses(line)  # sent into the void: no one was listening
    _, _, _, next_press, *_ = hello(line, board)
    assert next_press == 1
    assert [(p[1], p[2]) for p in presses(line)] == [(1, 0), (2, 2)]


def test_accepted_press_lights_the_station_without_the_host() -> None:
    board, line, lamps, now = make_board()
    hello(line, board)
    line.send(protocol.OPEN_WINDOW, 2, struct.pack(protocol.OPEN_WINDOW_BODY, 4, 0b001))
    board.step()
    assert struct.unpack(protocol.ACK_BODY, line.take(protocol.ACK)[0])[:2] == (2, protocol.OK)
    now[0] += 1000
    board.on_edge(0, True, now[0] & ticks.MASK)
    board.on_edge(1, True, now[0] & ticks.MASK)
    board.step()
    (first, second) = presses(line)
    assert first[2] == 0 and first[4:] == (4, protocol.IN_WINDOW)
    assert second[2] == 1 and second[5] == protocol.NO_WINDOW
    assert lamps.levels[0] == lights.FULL and lamps.levels[1] == 0


def test_bad_commands_are_refused_and_unknown_ones_named() -> None:
    board, line, _, _ = make_board()
    line.send(protocol.SET_LIGHT, 5, struct.pack(protocol.SET_LIGHT_BODY, 4, 1, 0))
    line.send(protocol.OPEN_WINDOW, 6, struct.pack(protocol.OPEN_WINDOW_BODY, 0, 1))
    line.send(0x42, 7)
    board.step()
    acks = [struct.unpack(protocol.ACK_BODY, b)[:2] for b in line.take(protocol.ACK)]
    assert acks == [(5, protocol.BAD_ARGUMENT), (6, protocol.BAD_ARGUMENT),
                    (7, protocol.UNKNOWN_MESSAGE)]


def test_host_silence_shows_the_disconnected_chase_until_the_host_speaks() -> None:
    board, line, lamps, now = make_board()
    hello(line, board)
    line.send(protocol.SET_LIGHT, 2, struct.pack(protocol.SET_LIGHT_BODY, 0xFF, 1, 0))
    board.step()
    assert lamps.levels == [lights.FULL] * 3
    now[0] += 4_000_000  # three heartbeats and more without a word from the Pi
    board.step()
    assert board.lights.disconnected
    assert sorted(lamps.levels) == [0, 0, lights.FULL]  # one light of the chase
    line.send(protocol.HEARTBEAT, 3)
    now[0] += 10_000
    board.step()
    assert not board.lights.disconnected and lamps.levels == [lights.FULL] * 3


def test_board_sends_heartbeats() -> None:
    board, line, _, now = make_board()
    board.step()
    now[0] += 1_000_000
    board.step()
    assert len(line.take(protocol.BOARD_HEARTBEAT)) == 2


def test_full_buffer_keeps_the_oldest_presses() -> None:
    board, _, _, now = make_board()
    board.pending_max = 2
    for i in range(3):
        now[0] += 100_000
        board.on_edge(0, i % 2 == 0, now[0] & ticks.MASK)
        board.on_edge(0, False, (now[0] + 50_000) & ticks.MASK)
        now[0] += 100_000
        board.on_edge(0, True, now[0] & ticks.MASK)
        board.step()
    assert len(board.pending) == 2 and board.overflow >= 1
    assert [e[0] for e in board.pending] == [1, 2]


def test_stop_leaves_the_main_loop() -> None:
    board, line, _, _ = make_board()
    line.send(protocol.STOP, 1)
    board.step()
    assert board.stopped


def test_repeated_acks_bring_the_missing_press_at_once() -> None:
    board, line, _, now = make_board()
    hello(line, board)
    for station in (0, 1, 2):
        now[0] += 1_000
        board.on_edge(station, True, now[0] & ticks.MASK)
        board.step()
    assert [p[1] for p in presses(line)] == [1, 2, 3]
    # The Pi got 1 and 3 but not 2: it acknowledges 1, twice (once per read holding a press).
    for seq in (10, 11, 12):
        line.send(protocol.ACK_PRESS, seq, struct.pack(protocol.ACK_PRESS_BODY, 77, 1))
        board.step()
    assert [p[1] for p in presses(line)] == [2]  # re-sent without waiting 100 ms
