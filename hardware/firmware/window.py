"""The Eureka window, ruled on by timestamps: the board's authority over "too late".

The host opens a window for some stations and later closes it. Each press is judged by its own
timestamp against the window's open and close times, not by when the main loop got round to it,
so a press a microsecond before the close counts even if the CLOSE_WINDOW command was handled
first. The last two windows are remembered so a press handled late is still judged fairly.
"""

from . import protocol


class _Window:
    def __init__(self, window_id: int, mask: int, opened_us: int) -> None:
        self.id = window_id
        self.mask = mask
        self.opened_us = opened_us
        self.closed_us = -1  # -1: still open

    def covers(self, station: int) -> bool:
        return bool(self.mask >> station & 1)


class EurekaWindow:
    def __init__(self) -> None:
        self.current: _Window | None = None
        self.previous: _Window | None = None

    @property
    def is_open(self) -> bool:
        return self.current is not None and self.current.closed_us < 0

    @property
    def current_id(self) -> int:
        return self.current.id if self.current is not None else 0

    def open(self, window_id: int, mask: int, now_us: int) -> None:
        """Open window ``window_id``; opening the one already open changes nothing."""
        current = self.current
        if current is not None and current.id == window_id:
            if current.closed_us < 0:
                current.mask = mask
            return
        if current is not None and current.closed_us < 0:
            current.closed_us = now_us
        self.previous = current
        self.current = _Window(window_id, mask, now_us)

    def close(self, window_id: int, now_us: int) -> int:
        """Close window ``window_id`` (closing twice is harmless); returns its close time."""
        current = self.current
        if current is None or current.id != window_id:
            return now_us
        if current.closed_us < 0:
            current.closed_us = now_us
        return current.closed_us

    def judge(self, station: int, t_us: int) -> tuple[int, int]:
        """``(window id, verdict)`` for a press at ``t_us``: IN_WINDOW, LATE or NO_WINDOW."""
        for window in (self.current, self.previous):
            if window is None or not window.covers(station) or t_us < window.opened_us:
                continue
            if window.closed_us < 0 or t_us < window.closed_us:
                return window.id, protocol.IN_WINDOW
            return window.id, protocol.LATE
        return 0, protocol.NO_WINDOW
