"""Which pins the stations use. Edit this file to match your wiring, then flash the board.

Station 0 is seat 0 (the first player clockwise); list as many stations as you wired (1 to 6).
Buttons connect the GPIO to ground (the internal pull-up holds it high when not pressed). Lights
are driven by PWM through a transistor or MOSFET (see docs/hardware.md); a light on a pin that
cannot do PWM still works for on, off, blink and countdown.
"""

BUTTON_PINS = [2, 3, 4, 5, 6, 7]  # GP2..GP7
LIGHT_PINS = [10, 11, 12, 13, 14, 15]  # GP10..GP15
LOCKOUT_MS = 30  # ignore contact bounce this long after each counted change
HEARTBEAT_MS = 1000  # until the Pi states its own interval in HELLO
BOARD_NAME = "robo-siren"  # the board id is this name plus the chip's serial number
FIRMWARE = "1.0.0"
