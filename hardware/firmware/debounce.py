"""Leading-edge debounce with a lockout, for one button. Pure logic: time is passed in.

The first edge that changes the button's state counts at once, with that edge's own timestamp
(the leading edge), so a press is timed to the moment the contact first closed. Every edge in the
next ``lockout_us`` is ignored, so contact bounce cannot make a second press. If the button ends
the lockout in another state than the one counted (a release bounced, then a real press came
inside the lockout), :meth:`Debouncer.settle` catches up, timing the press at its last edge.

Used by the firmware (times are 64-bit microseconds since boot) and by the Pi's GPIO build.
"""

NO_PRESS = -1


class Debouncer:
    def __init__(self, lockout_us: int) -> None:
        self.lockout_us = lockout_us
        self.pressed = False
        self._lock_until = -(1 << 62)
        self._last_level = False
        self._last_edge_us = 0

    def edge(self, pressed: bool, t_us: int) -> int:
        """An edge at ``t_us`` left the contact ``pressed``: the counted press's time, or -1."""
        counted = self.settle(t_us)
        self._last_level = pressed
        self._last_edge_us = t_us
        if t_us >= self._lock_until and pressed != self.pressed:
            self._change(pressed, t_us)
            if pressed:
                return t_us
        return counted

    def settle(self, now_us: int) -> int:
        """Call when idle: the time of a press that the lockout held back, or -1."""
        if now_us < self._lock_until or self._last_level == self.pressed:
            return NO_PRESS
        self._change(self._last_level, self._last_edge_us)
        return self._last_edge_us if self.pressed else NO_PRESS

    def _change(self, pressed: bool, t_us: int) -> None:
        self.pressed = pressed
        self._lock_until = t_us + self.lockout_us
