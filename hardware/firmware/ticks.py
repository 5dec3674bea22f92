"""MicroPython-style tick arithmetic, written out so it behaves the same under CPython.

``time.ticks_us()`` on the RP2040 wraps every 2**30 microseconds (about 18 minutes); these helpers
compare and extend such ticks. The simulator's fake clock wraps the same way on purpose.
"""

PERIOD = 1 << 30
MASK = PERIOD - 1
HALF = PERIOD >> 1


def diff(later: int, earlier: int) -> int:
    """``later - earlier`` on the wrapping tick circle (valid within half a period)."""
    return ((later - earlier + HALF) & MASK) - HALF


class Extender:
    """Turns wrapping ticks into a 64-bit microsecond count since boot.

    Call :meth:`now` at least every few minutes (the main loop does it every millisecond).
    """

    def __init__(self, ticks_us: "object") -> None:
        self._ticks_us = ticks_us
        self._last = ticks_us()  # type: ignore[operator]
        self._total = 0

    def now(self) -> int:
        t = self._ticks_us()  # type: ignore[operator]
        self._total += diff(t, self._last)
        self._last = t
        return self._total

    def extend(self, ticks: int) -> int:
        """The 64-bit time of ``ticks``, a recent raw tick value (such as an IRQ's timestamp)."""
        now = self.now()
        return now - diff(self._last, ticks)
