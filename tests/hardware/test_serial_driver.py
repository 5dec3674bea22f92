"""The serial driver against the real firmware logic, over a real pty (the simulator)."""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import pytest
from siren_helpers import Table, wait_for

from companion.ports import LightPattern, SirenBoardError
from hardware.firmware import lights
from hardware.serial_board import SerialBoard
from hardware.simulator import SimulatedBoard


def sentinel(table: Table, pressed_before: int, station: int = 5) -> None:
    """Press once more and wait for that many presses: delivery is in order, so a repeat of an
    earlier press would have arrived before the sentinel and shows in the list."""
    table.simulator.press(station)
    table.wait_presses(pressed_before + 1)


def test_connects_with_the_boards_identity(table: Table) -> None:
    status = table.statuses[-1]
    assert status.connected and status.stations == 6
    assert status.board_id == "robo-siren-simulated" and status.firmware == "1.0.0"


def test_two_presses_100_us_apart_arrive_in_order_with_board_times(table: Table) -> None:
    sim = table.simulator
    with sim.clock.frozen():
        sim.press(3)
        sim.clock.advance(100)
        sim.press(1)
    first, second = table.wait_presses(2)
    assert (first.station, second.station) == (3, 1)
    assert second.board_us - first.board_us == 100
    assert second.seq == first.seq + 1


def test_press_just_before_the_close_counts_just_after_is_late(table: Table) -> None:
    sim, driver = table.simulator, table.driver
    window = driver.open_window((0, 1, 2))
    sim.press(4)  # not in this window
    wait_for(lambda: sim.board.window.is_open, "the board to open the window")
    with sim.clock.frozen():
        sim.clock.advance(1_000)
        sim.press(0)  # 1 us before the close
        sim.clock.advance(1)
        driver.close_window()
        wait_for(lambda: driver.window_closed_us is not None, "the board to close the window")
        sim.press(1)  # at the very microsecond of the close: too late
        sim.clock.advance(1)
        sim.press(2)
    other, before, at_close, after = table.wait_presses(4)
    assert (other.station, other.in_window, other.window) == (4, False, 0)
    assert (before.in_window, before.window) == (True, window)
    assert (at_close.in_window, at_close.window) == (False, window)
    assert (after.in_window, after.window) == (False, window)
    assert driver.window_closed_us == before.board_us + 1 == at_close.board_us


def test_the_board_lights_an_accepted_press_itself(table: Table) -> None:
    sim, driver = table.simulator, table.driver
    driver.set_light(0, LightPattern.COUNTDOWN, duration_s=5)
    driver.set_light(1, LightPattern.OFF)
    driver.open_window((0,))
    wait_for(lambda: sim.board.window.is_open, "the window to open")
    sim.press(0)
    table.wait_presses(1)
    assert sim.light_level(0) == lights.FULL
    assert sim.light_level(1) == 0


def test_unplug_and_replug_mid_game_loses_and_repeats_nothing(table: Table) -> None:
    sim = table.simulator
    for station in range(3):
        sim.press(station)
    table.wait_presses(3)
    connects = table.driver.stats["connects"]
    sim.unplug()
    wait_for(lambda: not table.driver.connected, "the driver to notice the unplug")
    for station in range(3, 6):
        sim.press(station)  # the board keeps these until the Pi is back
    sim.plug()
    wait_for(lambda: table.driver.stats["connects"] > connects, "a reconnection")
    table.wait_presses(6)
    connects = table.driver.stats["connects"]
    sim.power_cycle()  # the board restarts: numbering starts again at 1 with a new boot id
    wait_for(lambda: table.driver.stats["connects"] > connects, "a reconnection")
    sim.press(0)
    sentinel(table, 7)
    seen = [(p.station, p.seq) for p in table.presses]
    assert [s for s, _ in seen] == [0, 1, 2, 3, 4, 5, 0, 5]
    assert [q for _, q in seen][-2:] == [1, 2]  # the new boot's presses were not taken as repeats
    assert table.driver.stats["duplicates"] >= 0
    assert any(not s.connected for s in table.statuses)


def test_a_board_restarting_behind_an_open_port_is_noticed(table: Table) -> None:
    sim = table.simulator
    sim.press(1)
    table.wait_presses(1)
    connects = table.driver.stats["connects"]
    sim.power_cycle(replug=False)
    sim.press(2)  # seq 1 again, from a new boot: must not be taken for a repeat
    wait_for(lambda: table.driver.stats["connects"] > connects, "a fresh handshake")
    sentinel(table, 2)
    assert [(p.station, p.seq) for p in table.presses] == [(1, 1), (2, 1), (5, 2)]


def test_a_new_simulator_process_behind_the_same_link(tmp_path: Path) -> None:
    link = tmp_path / "robo-siren"
    simulator = SimulatedBoard(6, link=link)
    table = Table(simulator)
    table.start()
    simulator.press(0)
    table.wait_presses(1)
    simulator.close()  # the whole board gone: cable and power
    replacement = SimulatedBoard(6, link=link)
    try:
        table.simulator = replacement
        wait_for(lambda: table.driver.stats["connects"] > 1, "a reconnection")
        replacement.press(2)
        sentinel(table, 2)
        assert [p.station for p in table.presses] == [0, 2, 5]
    finally:
        table.driver.close()
        replacement.close()


def test_host_restart_gets_unacknowledged_presses_exactly_once(table: Table) -> None:
    sim = table.simulator
    sim.press(0)
    table.wait_presses(1)
    table.driver.close()  # the Pi's program dies
    for station in (1, 2, 3):
        sim.press(station)
    wait_for(lambda: len(sim.board.pending) == 3, "the board to hold three presses")
    table.restart_host()
    table.wait_presses(4)
    sentinel(table, 4)
    assert [p.station for p in table.presses] == [0, 1, 2, 3, 5]
    wait_for(lambda: not sim.board.pending, "the board to hear every press acknowledged")


def test_noise_on_the_line_is_dropped_counted_and_survived(table: Table) -> None:
    sim, driver = table.simulator, table.driver
    rng = random.Random(3)
    stations = []
    for i in range(40):
        junk = bytearray(rng.randbytes(rng.randint(1, 90)))
        if i % 3 == 0:
            junk += b"\x00"
        if i % 5 == 0:  # a truncated real frame
            junk = bytearray(b"\x02\x84\x01") + junk
        if i % 7 == 0:  # a real heartbeat with a flipped bit
            from hardware.firmware import protocol

            frame = bytearray(protocol.encode(protocol.BOARD_HEARTBEAT, 9, bytes(15)))
            frame[4] ^= 0x08
            junk += frame
        sim.write(bytes(junk))
        station = i % 6
        stations.append(station)
        with sim.clock.frozen():
            sim.clock.advance(100_000)  # let the button rest beyond its lockout
            sim.press(station)
        # Thumbs are slower than this loop: let the firmware take the edges before the next.
        wait_for(lambda: sim.edges_waiting() == 0, "the firmware to take the edges")
    sim.clock.advance(100_000)
    sentinel(table, len(stations))
    got = [p.station for p in table.presses]
    assert got == [*stations, 5]
    assert driver.stats["damaged"] + driver.stats["oversize"] > 0
    assert driver.stats["errors"] == 0 and driver.connected


def test_version_mismatch_names_both_versions() -> None:
    import struct

    from hardware.firmware import protocol

    master, slave = os.openpty()
    import tty

    tty.setraw(slave)
    path = os.ttyname(slave)

    def old_board() -> None:
        decoder = protocol.Decoder()
        while True:
            try:
                data = os.read(master, 256)
            except OSError:
                return
            for kind, seq, _ in decoder.feed(data):
                if kind == protocol.HELLO:
                    body = struct.pack(">B", 7) + bytes(30)
                    os.write(master, protocol.encode(protocol.HELLO_REPLY, seq, body))

    threading.Thread(target=old_board, daemon=True).start()
    from companion.config import SirenConfig

    driver = SerialBoard(SirenConfig(backend="serial", port=path))
    try:
        with pytest.raises(SirenBoardError, match=r"version 7 .* version 1"):
            driver.connect_once(path, timeout=30)
    finally:
        driver.close()
        os.close(master)
        os.close(slave)


def test_port_is_opened_exclusively(table: Table) -> None:
    second = SerialBoard(table.config)
    try:
        with pytest.raises(SirenBoardError, match="in use by another program"):
            second.connect_once(table.simulator.port, timeout=5)
    finally:
        second.close()


def test_a_silent_device_is_not_taken_for_a_board() -> None:
    master, slave = os.openpty()
    path = os.ttyname(slave)
    from companion.config import SirenConfig

    driver = SerialBoard(SirenConfig(backend="serial", port=path))
    try:
        with pytest.raises(SirenBoardError, match="did not answer like a siren board"):
            driver.connect_once(path, timeout=0.5)
    finally:
        driver.close()
        os.close(master)
        os.close(slave)


def test_contact_bounce_on_the_board_is_one_press(table: Table) -> None:
    sim = table.simulator
    sim.bounce(2, [150, 90, 300, 60, 400])  # five edges in under a millisecond, ending pressed
    sim.clock.advance(50_000)
    sim.release(2)
    sim.clock.advance(50_000)
    sentinel(table, 1)
    assert [p.station for p in table.presses] == [2, 5]


def test_a_closed_simulator_writes_nowhere(tmp_path: Path) -> None:
    # close() frees the wake-up pipe's descriptors; the process may hand the same numbers to
    # the next file it opens. Nothing the closed board does may write into that file.
    simulator = SimulatedBoard(6)
    simulator.close()
    reused = tmp_path / "journal"
    fds = [os.open(reused, os.O_RDWR | os.O_CREAT) for _ in range(4)]
    try:
        with pytest.raises(RuntimeError, match="closed"):
            simulator.press(0)
        simulator.power_cycle(replug=False)
        simulator.close()  # a second close changes nothing either
    finally:
        for fd in fds:
            os.close(fd)
    assert reused.read_bytes() == b""
