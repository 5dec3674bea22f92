"""The port's light patterns as the protocol's pattern codes (shared by both adapters)."""

from __future__ import annotations

from companion.ports import LightPattern
from hardware.firmware import protocol

PATTERN_CODES = {
    LightPattern.OFF: protocol.LIGHT_OFF,
    LightPattern.ON: protocol.LIGHT_ON,
    LightPattern.BLINK: protocol.LIGHT_BLINK,
    LightPattern.PULSE: protocol.LIGHT_PULSE,
    LightPattern.COUNTDOWN: protocol.LIGHT_COUNTDOWN,
}
