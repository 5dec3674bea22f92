"""sd_notify against a real AF_UNIX datagram socket, as systemd's manager listens."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import systemd_notify


@pytest.fixture
def manager(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """A datagram socket bound to a file path, announced in $NOTIFY_SOCKET."""
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        yield sock


def test_ready_reaches_the_manager(manager: socket.socket) -> None:
    assert systemd_notify.ready() is True
    assert manager.recv(4096) == b"READY=1"


def test_ready_with_status_sends_both_fields_in_one_datagram(manager: socket.socket) -> None:
    assert systemd_notify.ready("table of 4\nready")
    assert manager.recv(4096) == b"READY=1\nSTATUS=table of 4 ready"


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (systemd_notify.watchdog, b"WATCHDOG=1"),
        (systemd_notify.stopping, b"STOPPING=1"),
        (lambda: systemd_notify.status("scanning"), b"STATUS=scanning"),
        (lambda: systemd_notify.notify("EXTEND_TIMEOUT_USEC=5000000"),
         b"EXTEND_TIMEOUT_USEC=5000000"),
    ],
)
def test_each_message(manager: socket.socket, call: object, expected: bytes) -> None:
    assert callable(call)
    assert call() is True
    assert manager.recv(4096) == expected


def test_abstract_socket_name_with_at_sign(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"robo-companion-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(b"\0" + name.encode())
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert systemd_notify.watchdog() is True
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_without_systemd_every_call_is_a_quiet_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert systemd_notify.ready() is False
    assert systemd_notify.watchdog() is False
    assert systemd_notify.stopping() is False


@pytest.mark.parametrize("value", ["", "relative/path", "vsock:2:1234"])
def test_unusable_addresses_are_ignored(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", value)
    assert systemd_notify.ready() is False


def test_a_dead_socket_does_not_raise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The manager went away (or the path never existed): the game must go on.
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert systemd_notify.watchdog() is False


def test_watchdog_interval_from_usec(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert systemd_notify.watchdog_interval() == 20.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert systemd_notify.watchdog_interval() == 20.0


@pytest.mark.parametrize(
    ("usec", "pid"),
    [(None, None), ("", None), ("0", None), ("-5", None), ("soon", None),
     ("20000000", "1"), ("20000000", "nobody")],
)
def test_no_watchdog_interval(
    monkeypatch: pytest.MonkeyPatch, usec: str | None, pid: str | None
) -> None:
    for name, value in (("WATCHDOG_USEC", usec), ("WATCHDOG_PID", pid)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    # pid "1" is init, never this test process: inherited variables, not our watchdog.
    assert systemd_notify.watchdog_interval() is None
