"""Draws the siren board's pictures for docs/: ``python -m hardware.diagrams docs/img``.

Two PNGs, drawn with Pillow alone so anyone can redraw them after changing the protocol or the
pins: ``siren-sequence.png`` (the protocol's sequence diagram) and ``siren-wiring.png`` (how a
station is wired to the Pico). Pillow comes with the ``vision`` extra; this is a docs tool only.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hardware.firmware import config as firmware_config

INK = (30, 30, 40)
GREY = (120, 120, 130)
BOARD = (46, 134, 222)
HOST = (27, 153, 139)
WARN = (215, 38, 61)
LIGHT = (244, 211, 94)
PAPER = (255, 255, 255)


def _font(size: int, bold: bool = False) -> Any:
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu"):
        path = Path(folder) / name
        if path.exists():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


def _arrow(draw: Any, x0: int, x1: int, y: int, colour: tuple[int, int, int],
           dashed: bool = False) -> None:
    if dashed:
        step = 10 if x1 > x0 else -10
        for x in range(x0, x1, step * 2):
            end = x + step
            if (step > 0 and end > x1) or (step < 0 and end < x1):
                end = x1
            draw.line([(x, y), (end, y)], fill=colour, width=2)
    else:
        draw.line([(x0, y), (x1, y)], fill=colour, width=2)
    d = 10 if x1 > x0 else -10
    draw.polygon([(x1, y), (x1 - d, y - 6), (x1 - d, y + 6)], fill=colour)


def sequence(path: Path) -> None:
    from PIL import Image, ImageDraw

    lanes = [("Players' buttons", 110), ("Board (Pico firmware)", 400),
             ("Pi: serial driver", 720), ("Session (queue)", 980)]
    steps: list[tuple[Any, ...]] = [
        ("note", "plugged in: the driver opens /dev/robo-siren exclusively"),
        (2, 1, "0x00 + HELLO  v1, heartbeat 1000 ms", HOST, False),
        (1, 2, "HELLO_REPLY  v1, 6 stations, boot id, next press #, window, id, firmware", BOARD,
         False),
        (2, 3, "SirenStatus(connected)", HOST, True),
        (1, 2, "PRESS ...  every press not yet acknowledged, oldest first", BOARD, False),
        ("note", "a Eureka window opens for the Manufacturers"),
        (2, 1, "OPEN_WINDOW  window 7, stations 1,2,4", HOST, False),
        (1, 2, "ACK  seq, OK, board us at the open", BOARD, False),
        (2, 1, "SET_LIGHT  station 1, countdown 10 s", HOST, False),
        (1, 2, "ACK  OK", BOARD, False),
        (0, 1, "station 2 pressed  (edge timed by ticks_us in the interrupt)", INK, False),
        ("board", "board lights station 2 at once: no round trip"),
        (1, 2, "PRESS  #12, station 2, t = 5 021 337 us, window 7, IN_WINDOW", BOARD, False),
        (2, 3, "SirenPress(2, in_window=True, window=7, seq=12)", HOST, True),
        (2, 1, "ACK_PRESS  boot id, up to #12", HOST, False),
        (2, 1, "CLOSE_WINDOW  window 7", HOST, False),
        (1, 2, "ACK  OK, board us at the close (ruling time)", BOARD, False),
        (0, 1, "station 4 pressed after the close", INK, False),
        (1, 2, "PRESS  #13, station 4, window 7, LATE", BOARD, False),
        ("lost", "frame lost or damaged: no ACK_PRESS comes"),
        (1, 2, "PRESS  #13 again after 100 ms (same number)", BOARD, False),
        (2, 3, "SirenPress(4, in_window=False, window=7, seq=13)  once", HOST, True),
        (2, 1, "ACK_PRESS  boot id, up to #13", HOST, False),
        ("note", "every heartbeat interval, both ways; 3 missed = the other side is gone"),
        (2, 1, "HEARTBEAT", HOST, False),
        (1, 2, "BOARD_HEARTBEAT  boot id, board us, presses waiting, frames dropped", BOARD,
         False),
    ]
    row = 34
    top = 90
    height = top + row * len(steps) + 40
    image = Image.new("RGB", (1120, height), PAPER)
    draw = ImageDraw.Draw(image)
    title = _font(20, bold=True)
    head = _font(15, bold=True)
    text = _font(13)
    draw.text((20, 14), "Siren board protocol: a typical exchange", font=title, fill=INK)
    for name, x in lanes:
        w = draw.textlength(name, font=head)
        draw.rounded_rectangle([x - w / 2 - 10, 48, x + w / 2 + 10, 74], 6, outline=INK,
                               width=2, fill=(240, 244, 250))
        draw.text((x - w / 2, 52), name, font=head, fill=INK)
        for y in range(76, height - 20, 12):
            draw.line([(x, y), (x, y + 6)], fill=GREY, width=1)
    y = top
    for step in steps:
        if step[0] == "note":
            draw.rectangle([30, y - 2, 1090, y + 20], fill=(246, 246, 246))
            draw.text((40, y + 1), step[1], font=text, fill=GREY)
        elif step[0] == "board":
            x = lanes[1][1]
            draw.ellipse([x - 9, y, x + 9, y + 18], fill=LIGHT, outline=INK)
            draw.text((x + 16, y + 1), step[1], font=text, fill=INK)
        elif step[0] == "lost":
            x = (lanes[1][1] + lanes[2][1]) // 2
            draw.line([(x - 8, y), (x + 8, y + 16)], fill=WARN, width=3)
            draw.line([(x - 8, y + 16), (x + 8, y)], fill=WARN, width=3)
            draw.text((x + 16, y + 1), step[1], font=text, fill=WARN)
        else:
            a, b, label, colour, dashed = step
            x0, x1 = lanes[a][1], lanes[b][1]
            _arrow(draw, x0, x1, y + 16, colour, dashed)
            left = min(x0, x1)
            draw.text((left + 12, y - 1), label, font=text, fill=colour)
        y += row
    image.save(path)


def wiring(path: Path) -> None:
    from PIL import Image, ImageDraw

    buttons = firmware_config.BUTTON_PINS
    lights = firmware_config.LIGHT_PINS
    image = Image.new("RGB", (1180, 840), PAPER)
    draw = ImageDraw.Draw(image)
    title = _font(20, bold=True)
    head = _font(15, bold=True)
    text = _font(13)
    small = _font(12)
    draw.text((20, 14), "Siren board wiring: one station per seat (6 shown)", font=title, fill=INK)
    # The Pico
    px0, py0, px1, py1 = 470, 80, 640, 700
    draw.rounded_rectangle([px0, py0, px1, py1], 10, fill=(26, 120, 70), outline=INK, width=2)
    draw.text((px0 + 22, 610), "Raspberry Pi", font=head, fill=PAPER)
    draw.text((px0 + 62, 630), "Pico", font=head, fill=PAPER)
    draw.rounded_rectangle([px0 + 60, py0 - 12, px1 - 60, py0 + 6], 3, fill=(190, 190, 190),
                           outline=INK)
    draw.text((px0 + 40, py0 - 32), "USB to the Pi", font=small, fill=INK)
    ground_x = 90
    rail5_x = 1090
    draw.line([(ground_x, 150), (ground_x, 680)], fill=INK, width=3)
    draw.text((ground_x - 30, 686), "GND", font=small, fill=INK)
    draw.line([(rail5_x, 104), (rail5_x, 680)], fill=WARN, width=3)
    draw.text((rail5_x - 40, 686), "+5 V", font=small, fill=WARN)
    # Pico GND and VBUS pins tie the rails.
    draw.line([(px0, 675), (ground_x, 675)], fill=INK, width=2)
    draw.ellipse([ground_x - 4, 671, ground_x + 4, 679], fill=INK)
    draw.text((px0 + 6, 667), "GND (pin 38)", font=small, fill=PAPER)
    draw.line([(px1, 104), (rail5_x, 104)], fill=WARN, width=2)
    draw.text((px1 - 72, 96), "VBUS (40)", font=small, fill=PAPER)
    for station in range(6):
        y = 170 + station * 80
        # Button: GPx -> switch -> GND rail
        draw.line([(px0, y), (296, y)], fill=INK, width=2)
        draw.text((px0 + 6, y - 8), f"GP{buttons[station]}", font=text, fill=PAPER)
        draw.ellipse([250, y - 23, 296, y + 23], outline=INK, width=2, fill=(250, 230, 120))
        draw.text((206, y - 44), f"station {station} button", font=text, fill=INK)
        draw.line([(ground_x, y), (250, y)], fill=INK, width=2)
        draw.ellipse([ground_x - 4, y - 4, ground_x + 4, y + 4], fill=INK)
        # Light: GPy -> 1k -> MOSFET gate; lamp between +5 V and drain; source to GND.
        ly = y + 10
        draw.line([(px1, ly), (700, ly)], fill=INK, width=2)
        draw.text((px1 - 50, ly - 8), f"GP{lights[station]}", font=text, fill=PAPER)
        draw.rectangle([700, ly - 7, 750, ly + 7], outline=INK, width=2)
        draw.text((708, ly - 24), "1 kΩ", font=small, fill=INK)
        draw.line([(750, ly), (800, ly)], fill=INK, width=2)
        draw.rectangle([800, ly - 22, 860, ly + 22], outline=INK, width=2, fill=(235, 235, 245))
        draw.text((808, ly - 8), "N-FET", font=small, fill=INK)
        draw.text((866, ly - 34), "D", font=small, fill=INK)
        draw.text((866, ly + 18), "S", font=small, fill=INK)
        draw.line([(830, ly + 22), (830, ly + 32)], fill=INK, width=2)
        for i, half in enumerate((12, 8, 4)):
            draw.line([(830 - half, ly + 32 + 4 * i), (830 + half, ly + 32 + 4 * i)], fill=INK,
                      width=2)
        draw.line([(860, ly - 16), (960, ly - 16)], fill=INK, width=2)
        draw.ellipse([960, ly - 30, 990, ly - 2], fill=LIGHT, outline=INK, width=2)
        draw.line([(990, ly - 16), (rail5_x, ly - 16)], fill=WARN, width=2)
        draw.ellipse([rail5_x - 4, ly - 20, rail5_x + 4, ly - 12], fill=WARN)
        draw.text((944, ly + 2), f"lamp {station}", font=small, fill=INK)
    notes = [
        "Buttons: the normally-open contact of each arcade button between its GP pin and GND; "
        "the Pico's internal pull-up holds the pin high until pressed.",
        "Lights: the button's 5 V LED lamp, switched on its low side by a logic-level N-channel "
        "MOSFET (AO3400, IRLZ44N, ...): 1 kΩ from the GP pin to the gate,",
        "100 kΩ from the gate to GND (keeps the lamp dark while the Pico boots). "
        "The ground symbols are the same GND as the rail.",
        "12 V lamps: a separate 12 V supply on the lamp rail, its GND joined to the Pico's GND. "
        "Pins are set in hardware/firmware/config.py.",
    ]
    for i, note in enumerate(notes):
        draw.text((30, 730 + 22 * i), note, font=small, fill=INK if i == 0 else GREY)
    image.save(path)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/img")
    out.mkdir(parents=True, exist_ok=True)
    sequence(out / "siren-sequence.png")
    wiring(out / "siren-wiring.png")
    print(f"wrote {out / 'siren-sequence.png'} and {out / 'siren-wiring.png'}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
