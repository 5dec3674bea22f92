"""What each station's light shows, as a brightness 0..65535 at a given time. Pure logic.

Patterns (the numbers are the SET_LIGHT pattern codes of the protocol):
off; on; blink (250 ms on, 250 ms off); pulse (a 2 s breathing swell); countdown (blinks faster
as its time runs out: 1 s period, then 0.5 s under half the time left, 0.2 s under a fifth,
then off when the time is up). The board shows its own "disconnected" chase (one light after
the other, 300 ms each) while it hears nothing from the Pi, and returns to the Pi's patterns
the moment the Pi speaks again.
"""

from . import protocol

FULL = 65535


def level(pattern: int, elapsed_us: int, duration_us: int) -> int:
    ms = elapsed_us // 1000
    if pattern == protocol.LIGHT_ON:
        return FULL
    if pattern == protocol.LIGHT_BLINK:
        return FULL if ms % 500 < 250 else 0
    if pattern == protocol.LIGHT_PULSE:
        phase = ms % 2000
        tri = phase if phase < 1000 else 2000 - phase  # 0..1000..0
        return tri * tri * FULL // 1_000_000
    if pattern == protocol.LIGHT_COUNTDOWN:
        left_ms = duration_us // 1000 - ms
        if left_ms <= 0:
            return 0
        total = max(1, duration_us // 1000)
        if left_ms * 5 < total:
            period = 200
        elif left_ms * 2 < total:
            period = 500
        else:
            period = 1000
        return FULL if ms % period < period // 2 else 0
    return 0


class Lights:
    def __init__(self, stations: int) -> None:
        self.stations = stations
        self.pattern = [protocol.LIGHT_OFF] * stations
        self.started_us = [0] * stations
        self.duration_us = [0] * stations
        self.disconnected = False

    def set(self, station: int, pattern: int, now_us: int, duration_us: int = 0) -> None:
        if self.pattern[station] == pattern and self.duration_us[station] == duration_us:
            return  # a resent command must not restart a blink's phase or a countdown
        self.pattern[station] = pattern
        self.started_us[station] = now_us
        self.duration_us[station] = duration_us

    def level(self, station: int, now_us: int) -> int:
        if self.disconnected:
            return FULL if (now_us // 300_000) % self.stations == station else 0
        return level(
            self.pattern[station], now_us - self.started_us[station], self.duration_us[station]
        )
