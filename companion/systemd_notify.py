"""Talks to systemd's service manager through ``$NOTIFY_SOCKET`` (the sd_notify protocol).

The unit is ``Type=notify`` with ``WatchdogSec=``: systemd counts the app as started only after
:func:`ready` (sent once the first frame is on screen), and restarts it when :func:`watchdog`
pings stop arriving, so a frozen UI is restarted and not only a dead process. The UI pings from
its Kivy clock every ``watchdog_interval() / 2`` seconds: a clock that stops ticking is the hang
we want to catch.

Outside systemd (no ``$NOTIFY_SOCKET``) every call is a harmless no-op returning False, so the
app and the tests call these unconditionally. Stdlib only; never raises on a missing or dead
socket, because a failed notification must never take the game down.
"""

from __future__ import annotations

import os
import socket

ENV_SOCKET = "NOTIFY_SOCKET"
ENV_WATCHDOG_USEC = "WATCHDOG_USEC"
ENV_WATCHDOG_PID = "WATCHDOG_PID"


def _address(raw: str) -> str | bytes | None:
    """The socket address in ``$NOTIFY_SOCKET``: a path, or '@name' for the abstract namespace."""
    if raw.startswith("@"):
        # Linux abstract sockets: a leading NUL byte instead of '@', no file on disk.
        return b"\0" + raw[1:].encode()
    if raw.startswith("/"):
        return raw
    # systemd also accepts vsock: addresses (VMs); the app never runs there.
    return None


def notify(message: str) -> bool:
    """Send one sd_notify message (e.g. ``"READY=1"``); True if it was handed to the socket."""
    raw = os.environ.get(ENV_SOCKET, "")
    address = _address(raw) if raw else None
    if address is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError:
        return False
    return True


def ready(status: str | None = None) -> bool:
    """Tell systemd the app is up (the first frame is drawn); optional one-line status text."""
    message = "READY=1"
    if status:
        message += "\nSTATUS=" + status.replace("\n", " ")
    return notify(message)


def watchdog() -> bool:
    """Keep-alive ping; systemd restarts the service when these stop for ``WatchdogSec``."""
    return notify("WATCHDOG=1")


def status(text: str) -> bool:
    """One line shown by ``systemctl status robo-companion``."""
    return notify("STATUS=" + text.replace("\n", " "))


def stopping() -> bool:
    """Tell systemd a clean shutdown has begun (so slow teardown is not taken for a hang)."""
    return notify("STOPPING=1")


def watchdog_interval() -> float | None:
    """Seconds systemd waits for a ping before it restarts us, or None without a watchdog.

    None also when ``$WATCHDOG_PID`` names another process: the variables were inherited from a
    parent (for instance a shell started by the service) and the pings are not ours to send.
    """
    usec = os.environ.get(ENV_WATCHDOG_USEC, "")
    try:
        value = int(usec)
    except ValueError:
        return None
    if value <= 0:
        return None
    pid = os.environ.get(ENV_WATCHDOG_PID, "")
    if pid:
        try:
            if int(pid) != os.getpid():
                return None
        except ValueError:
            return None
    return value / 1_000_000
