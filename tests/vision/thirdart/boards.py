"""Robo Factory pieces: a personal board with four coloured lanes, part tiles lying face down
with their printed sticker, the siren and energy cubes."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .compose import paste
from .paint import F32, RGB, Pen, blank, jitter, rounded_rect
from .style import Style

PART_NAMES = ("head", "torso", "legs")
PAPER: RGB = (246, 245, 238)
INK: RGB = (24, 24, 28)
_BITS: dict[int, np.ndarray] = {}


def marker_bits(marker_id: int) -> np.ndarray:
    """6x6 modules (border included) of DICT_4X4_50, True where white."""
    if marker_id not in _BITS:
        d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        _BITS[marker_id] = cv2.aruco.generateImageMarker(d, marker_id, 6) > 127
    return _BITS[marker_id]


def sticker(style: Style, marker_id: int, caption: str, ppm: float,
            rng: np.random.Generator) -> F32:
    """The marker as cut from the printed sheet: a white border of one module (cut by hand,
    so a little uneven), and under it the printed caption when the user kept it."""
    m = style.marker_mm
    mod = m / 6
    pads = [mod * float(rng.uniform(0.8, 1.5)) for _ in range(4)]  # left, top, right, bottom
    label_h = 5.5 if style.sticker_label else 0.0
    w = m + pads[0] + pads[2]
    h = m + pads[1] + pads[3] + label_h
    s = blank(w, h, ppm)
    pen = Pen(s, ppm)
    pen.rect(0, 0, w, h, jitter(PAPER, rng, 4))
    x0, y0 = pads[0], pads[1]
    pen.rect(x0, y0, m, m, INK)
    bits = marker_bits(marker_id)
    for r in range(6):
        for c in range(6):
            if bits[r, c]:
                pen.rect(x0 + c * mod, y0 + r * mod, mod, mod, PAPER)
    if label_h:
        pen.text(caption, w / 2 - 1, y0 + m + pads[3] + 1.6, 1.8, (40, 40, 40),
                 "DejaVuSans.ttf")
    if rng.random() < 0.25:  # a bit of the dashed cut line left on one edge
        for k in range(int(h / 3)):
            pen.rect(0, k * 3, 0.3, 1.6, (150, 150, 150))
    return s


@dataclass(frozen=True)
class Lanes:
    """Where each colour's lane lies on the board sprite (mm, board's own frame)."""
    size: tuple[float, float]
    rects: dict[str, tuple[float, float, float, float]]  # x, y, w, h
    vertical: bool

    def slot(self, colour: str, k: int, rng: np.random.Generator,
             tile: float) -> tuple[float, float]:
        """The centre of the k-th of three places along a lane, with the player's slop."""
        x, y, w, h = self.rects[colour]
        length, across = (h, w) if self.vertical else (w, h)
        step = length / 3
        along = step * (k + 0.5) + float(rng.uniform(-1, 1)) * max(0.0, (step - tile) / 2 - 1)
        side = float(rng.uniform(-1, 1)) * max(0.0, (across - tile) / 2 - 2)
        if self.vertical:
            return x + w / 2 + side, y + along
        return x + along, y + h / 2 + side


def board_lanes(style: Style) -> Lanes:
    b = style.board
    gap = 3.0
    across = 4 * b.lane_w + 3 * gap
    if b.vertical:
        size = (across + 2 * b.margin, b.header + b.lane_len + 2 * b.margin)
    else:
        size = (b.header + b.lane_len + 2 * b.margin, across + 2 * b.margin)
    rects = {}
    for i, colour in enumerate(b.lane_order):
        off = b.margin + i * (b.lane_w + gap)
        if b.vertical:
            rects[colour] = (off, b.margin + b.header, b.lane_w, b.lane_len)
        else:
            rects[colour] = (b.margin + b.header, off, b.lane_len, b.lane_w)
    return Lanes(size, rects, b.vertical)


def personal_board(style: Style, seat: int, ppm: float, rng: np.random.Generator) -> F32:
    b = style.board
    lanes = board_lanes(style)
    w, h = lanes.size
    s = blank(w, h, ppm)
    pen = Pen(s, ppm)
    pen.rect(0, 0, w, h, b.base, r=4)
    # a faint printed texture so the board is not one flat colour
    tex = (np.random.default_rng(style.seed + 7).uniform(-1, 1, s.shape[:2]) * 0.015)
    s[..., :3] += tex[..., None].astype(np.float32)
    for colour, (x, y, lw, lh) in lanes.rects.items():
        shade = style.shades[colour]
        pen.rect(x, y, lw, lh, shade, r=2)
        if b.rollers:
            dark = tuple(int(v * 0.78) for v in shade)
            n = int((lh if b.vertical else lw) / 9)
            for k in range(1, n):
                if b.vertical:
                    pen.rect(x + 1, y + k * 9, lw - 2, 0.8, dark)  # type: ignore[arg-type]
                else:
                    pen.rect(x + k * 9, y + 1, 0.8, lh - 2, dark)  # type: ignore[arg-type]
        if b.edge is not None:
            pen.outline(rounded_rect(x, y, lw, lh, 2), b.edge, 0.6)
    # header: title, a small factory drawing and the siren's red dot
    if b.vertical:
        hx, hy, hw, hh = b.margin, b.margin, w - 2 * b.margin, b.header
    else:
        hx, hy, hw, hh = b.margin, b.margin, b.header, h - 2 * b.margin
    pen.outline(rounded_rect(hx + 1, hy + 1, hw - 2, hh - 2, 3), b.ink, 0.5)
    angle = 0.0 if b.vertical else 90.0
    pen.text(f"{b.title} {seat + 1}", hx + hw / 2, hy + hh / 2, min(hw, hh) * 0.22, b.ink,
             b.font, angle=angle)
    dot = (hx + hw - 9, hy + 9) if b.vertical else (hx + hw / 2, hy + 9)
    pen.circle(dot[0], dot[1], 5.5, (204, 36, 36))
    pen.circle(dot[0], dot[1], 5.5, b.ink, width=0.4)
    gear = (hx + 10, hy + hh / 2) if b.vertical else (hx + hw / 2, hy + hh - 12)
    for k in range(8):
        a = np.radians(45 * k)
        pen.capsule((gear[0], gear[1]), (gear[0] + 6 * np.cos(a), gear[1] + 6 * np.sin(a)),
                    2.2, b.ink, 0.5)
    pen.circle(gear[0], gear[1], 4.2, b.ink, opacity=0.5)
    pen.circle(gear[0], gear[1], 1.6, b.base)
    if b.corners:
        for corner in range(4):
            cx = (b.margin / 2 + 1) if corner in (0, 3) else w - b.margin / 2 - 1
            cy = (b.margin / 2 + 1) if corner in (0, 1) else h - b.margin / 2 - 1
            mid = 18 + 4 * seat + corner
            st = sticker(style, mid, f"id {mid}", ppm, rng)
            paste(s, st, ppm, cx, cy, float(rng.uniform(-3, 3)))
    return s


def part_tile(style: Style, seat: int, part: int, ppm: float, rng: np.random.Generator,
              face_up: bool = False) -> F32:
    """A part tile lying face down (its sticker up) or, when ``face_up``, showing its part."""
    b = style.board
    st = sticker(style, 3 * seat + part, f"id {3 * seat + part}: seat {seat} "
                 f"{PART_NAMES[part]}", ppm, rng)
    sh, sw = st.shape[0] / ppm, st.shape[1] / ppm
    side = max(30.0, max(sh, sw) + float(rng.uniform(3, 5)))
    s = blank(side, side, ppm)
    pen = Pen(s, ppm)
    if b.tile_shaped and part == 0:
        outline = rounded_rect(0, 0, side, side, side * 0.3)
    elif b.tile_shaped and part == 2:
        outline = np.array([[0, 0], [side, 0], [side, side], [side * 0.62, side],
                            [side * 0.5, side * 0.9], [side * 0.38, side], [0, side]])
    else:
        outline = rounded_rect(0, 0, side, side, 2.0)
    back = b.tile_back if not face_up else (236, 234, 226)
    pen.poly(outline, back)
    pen.outline(outline, tuple(int(v * 0.7) for v in back), 0.5)  # type: ignore[arg-type]
    if face_up:
        pen.text(PART_NAMES[part].upper(), side / 2, side / 2, side * 0.16, (60, 60, 60),
                 "DejaVuSans-Bold.ttf")
        return s
    paste(s, st, ppm, side / 2 + float(rng.uniform(-1, 1)), side / 2 + float(rng.uniform(-1, 1)),
          float(rng.uniform(-4, 4)))
    return s


def siren(ppm: float) -> F32:
    s = blank(34, 34, ppm)
    pen = Pen(s, ppm)
    pen.circle(17, 17, 16, (40, 40, 44))
    pen.circle(17, 17, 12, (214, 30, 30))
    pen.circle(13, 13, 4, (255, 170, 160), opacity=0.8)
    return s


def cube(ppm: float, rgb: RGB) -> F32:
    s = blank(10, 10, ppm)
    pen = Pen(s, ppm)
    pen.rect(0, 0, 10, 10, rgb, r=1.2, opacity=0.9)
    pen.rect(1.5, 1.5, 5, 3, (255, 255, 255), r=1, opacity=0.35)
    return s
