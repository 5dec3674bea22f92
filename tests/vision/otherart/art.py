"""The components, drawn with Pillow at a given number of pixels per millimetre.

Each function returns an RGBA sprite whose pixel grid is the component's own millimetre frame
times ``ppm``; the scene places it on the table. The art is deliberately unlike the project's:
TrueType captions and numerals, belt-like lanes with printed signs, a siren spot, stickers with
their printed labels, robots built from other shapes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from .look import (
    FONT_DIR,
    ICON_ZONE,
    LABEL_BELOW,
    SHEET_LEFT,
    SHEET_TOP,
    Look,
    hsv,
    sticker_size,
)

RGB = tuple[int, int, int]
PARTS = ("head", "torso", "legs")
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


@lru_cache(maxsize=64)
def font(name: str, size_px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT_DIR + name, max(6, size_px))


@lru_cache(maxsize=64)
def marker_bits(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    cells = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
    return tuple(tuple(bool(v > 127) for v in row) for row in cells)


def shade(rgb: RGB, k: float) -> RGB:
    return (min(255, max(0, round(rgb[0] * k))), min(255, max(0, round(rgb[1] * k))),
            min(255, max(0, round(rgb[2] * k))))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


class Pen:
    """Millimetre coordinates onto a Pillow drawing."""

    def __init__(self, image: Image.Image, ppm: float) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.ppm = ppm

    def p(self, v: float) -> float:
        return v * self.ppm

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return (x0 * self.ppm, y0 * self.ppm, x1 * self.ppm - 1, y1 * self.ppm - 1)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: Any = None,
             outline: Any = None, width: float = 0.0, radius: float = 0.0) -> None:
        w = max(1, round(width * self.ppm)) if outline is not None else 0
        if radius > 0:
            self.draw.rounded_rectangle(self.box(x0, y0, x1, y1), radius=radius * self.ppm,
                                        fill=fill, outline=outline, width=w)
        else:
            self.draw.rectangle(self.box(x0, y0, x1, y1), fill=fill, outline=outline, width=w)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: Any = None,
                outline: Any = None, width: float = 0.0) -> None:
        w = max(1, round(width * self.ppm)) if outline is not None else 0
        self.draw.ellipse(self.box(cx - rx, cy - ry, cx + rx, cy + ry), fill=fill,
                          outline=outline, width=w)

    def poly(self, pts: list[tuple[float, float]], fill: Any = None, outline: Any = None,
             width: float = 0.0) -> None:
        xy = [(x * self.ppm, y * self.ppm) for x, y in pts]
        self.draw.polygon(xy, fill=fill)
        if outline is not None:
            w = max(1, round(width * self.ppm))
            self.draw.line([*xy, xy[0]], fill=outline, width=w, joint="curve")

    def line(self, pts: list[tuple[float, float]], fill: Any, width: float) -> None:
        self.draw.line([(x * self.ppm, y * self.ppm) for x, y in pts], fill=fill,
                       width=max(1, round(width * self.ppm)), joint="curve")

    def text(self, x: float, y: float, s: str, face: str, size_mm: float, fill: Any,
             anchor: str = "mm") -> None:
        self.draw.text((x * self.ppm, y * self.ppm), s, font=font(face, round(size_mm * self.ppm)),
                       fill=fill, anchor=anchor)


def canvas(w_mm: float, h_mm: float, ppm: float) -> Image.Image:
    return Image.new("RGBA", (max(2, round(w_mm * ppm)), max(2, round(h_mm * ppm))), (0, 0, 0, 0))


def grain(image: Image.Image, rng: np.random.Generator, amount: float) -> Image.Image:
    """Print and paper texture: a little noise at two scales, alpha untouched."""
    a = np.asarray(image).astype(np.float32)
    h, w = a.shape[:2]
    fine = rng.normal(0.0, amount, (h, w, 1)).astype(np.float32)
    coarse_small = rng.normal(0.0, amount * 1.5, (max(2, h // 24), max(2, w // 24), 1))
    coarse = cv2.resize(coarse_small.astype(np.float32), (w, h),
                        interpolation=cv2.INTER_CUBIC)[..., None]
    a[..., :3] = np.clip(a[..., :3] + fine + coarse, 0, 255)
    return Image.fromarray(a.astype(np.uint8), "RGBA")


# ---------------------------------------------------------------------------- markers, stickers


def sticker(look: Look, ppm: float, marker_id: int, caption: str, font_name: str) -> Image.Image:
    """A marker as cut along the printed sheet's lines: white border and printed label kept."""
    m = look.marker_mm
    w, h = sticker_size(m, look.sticker_slack)
    bx, by = SHEET_LEFT * m + look.sticker_slack, SHEET_TOP * m + look.sticker_slack
    img = canvas(w, h, ppm)
    pen = Pen(img, ppm)
    pen.rect(0, 0, w, h, fill=(248, 248, 243, 255))
    ink = (look.ink, look.ink, look.ink + 3, 255)
    bits = marker_bits(marker_id)
    cell = m / 6.0
    for r, row in enumerate(bits):
        for c, white in enumerate(row):
            if not white:
                x0, y0 = bx + c * cell, by + r * cell
                pen.draw.rectangle((x0 * ppm, y0 * ppm, (x0 + cell) * ppm, (y0 + cell) * ppm),
                                   fill=ink)
    # the label sits where the sheet prints it: about half a marker below the marker
    pen.text(bx - SHEET_LEFT * m * 0.6, by + m * LABEL_BELOW, caption, font_name, m * 0.14, ink,
             anchor="lm")
    return img


def tile_caption(marker_id: int) -> str:
    seat, part = divmod(marker_id, 3)
    return f"id {marker_id}: seat {seat} {PARTS[part]}"


# ---------------------------------------------------------------------------- personal board


@dataclass
class BoardGeometry:
    width: float
    height: float
    lanes: list[tuple[float, float, float, float]]  # x0, y0, x1, y1 per lane, in board mm
    corner_sticker_at: list[tuple[float, float]]  # sticker top-left per corner, board mm


def board_geometry(look: Look) -> BoardGeometry:
    margin = look.board_margin
    side = look.board_side_margin
    sticker_w, sticker_h = sticker_size(look.marker_mm, look.sticker_slack)
    if look.board_corner_markers:  # the corner stickers need a margin to sit on
        margin = max(margin, sticker_h + 3.0)
        side = max(side, sticker_w + 24.0)
    lanes = []
    y = margin
    for _ in range(4):
        lanes.append((margin, y, margin + look.lane_len, y + look.lane_w))
        y += look.lane_w + look.lane_gap
    width = margin + look.lane_len + side
    height = y - look.lane_gap + margin
    corners = [(1.0, 1.0), (width - sticker_w - 1.0, 1.0),
               (width - sticker_w - 1.0, height - sticker_h - 1.0), (1.0, height - sticker_h - 1.0)]
    return BoardGeometry(width, height, lanes, corners)


def board(look: Look, ppm: float, seat: int, rng: np.random.Generator) -> Image.Image:
    g = board_geometry(look)
    img = canvas(g.width, g.height, ppm)
    pen = Pen(img, ppm)
    base = look.board_base
    light = sum(base) > 380
    trim = shade(base, 0.7) if light else shade(base, 1.6)
    pen.rect(0, 0, g.width, g.height, fill=(*base, 255), radius=4.0)
    pen.rect(1.5, 1.5, g.width - 1.5, g.height - 1.5, outline=(*trim, 255), width=0.7, radius=3.0)
    for (x0, y0, x1, y1), name in zip(g.lanes, look.colours, strict=True):
        _lane(pen, look, name, x0, y0, x1, y1)
    # the side margin: the siren's red spot, the factory's name, a gear
    sx = g.lanes[0][2] + (g.width - g.lanes[0][2]) / 2
    pen.ellipse(sx, g.height * 0.26, 9.0, 9.0, fill=(*hsv(356, 0.82, 0.8), 255),
                outline=(*shade(base, 0.5), 255), width=0.8)
    pen.ellipse(sx, g.height * 0.26, 4.0, 4.0, fill=(*hsv(356, 0.6, 0.92), 255))
    face = "DejaVuSansCondensed-Bold.ttf"
    label = Image.new("RGBA", (round(g.height * 0.5 * ppm), round(8 * ppm)), (0, 0, 0, 0))
    Pen(label, ppm).text(g.height * 0.25, 4.0, f"FACTORY {seat + 1}", face, 5.5, (*trim, 255))
    label = label.rotate(90, expand=True)
    img.alpha_composite(label, (round((sx - 4.0) * ppm), round(g.height * 0.42 * ppm)))
    _gear(pen, sx, g.height * 0.86, 5.0, (*trim, 255), (*base, 255))
    if look.board_corner_markers:
        f = look.rcard_font
        for corner, (x, y) in enumerate(g.corner_sticker_at):
            mid = 18 + 4 * seat + corner
            s = sticker(look, ppm, mid, f"id {mid}: seat {seat} {CORNER_NAMES[corner]}", f)
            img.alpha_composite(s, (round(x * ppm), round(y * ppm)))
    return grain(img, rng, 3.0)


def _lane(pen: Pen, look: Look, name: str, x0: float, y0: float, x1: float, y1: float) -> None:
    c = look.lane_rgb[name]
    pen.rect(x0, y0, x1, y1, fill=(*c, 255))
    dark, bright = (*shade(c, 0.8), 255), (*mix(c, (255, 255, 255), 0.22), 255)
    h = y1 - y0
    pattern = look.lane_pattern
    if pattern == "rollers":
        x = x0 + 4.0
        while x < x1:
            pen.rect(x, y0 + 0.6, x + 0.8, y1 - 0.6, fill=dark)
            x += 7.0
    elif pattern == "chevrons":
        x = x0 + 8.0
        while x + 6 < x1:
            pen.line([(x, y0 + h * 0.3), (x + 4, y0 + h * 0.5), (x, y0 + h * 0.7)], bright, 1.0)
            x += 12.0
    elif pattern == "speckle":
        rng = np.random.default_rng(int(x0 * 13 + y0 * 7))
        for _ in range(int((x1 - x0) * h / 9)):
            px, py = rng.uniform(x0, x1), rng.uniform(y0, y1)
            pen.ellipse(px, py, 0.35, 0.35, fill=dark if rng.random() < 0.5 else bright)
    elif pattern == "rails":
        pen.rect(x0, y0 + 1.2, x1, y0 + 2.2, fill=dark)
        pen.rect(x0, y1 - 2.2, x1, y1 - 1.2, fill=dark)
    if look.lane_icons:  # a printed sign at the start of the lane naming its colour
        r = min(5.0, h * 0.18)
        cx, cy = x0 + ICON_ZONE / 2, (y0 + y1) / 2
        pen.ellipse(cx, cy, r, r, fill=(250, 250, 245, 255), outline=(40, 40, 40, 255), width=0.5)
        pen.text(cx, cy, name[0].upper(), "DejaVuSans-Bold.ttf", r * 1.3, (*shade(c, 0.75), 255))


def _gear(pen: Pen, cx: float, cy: float, r: float, fill: Any, hole: Any = None) -> None:
    pts = []
    for k in range(16):
        a = k * math.pi / 8
        rr = r if k % 2 == 0 else r * 0.75
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    pen.poly(pts, fill=fill)
    if hole is not None:
        pen.ellipse(cx, cy, r * 0.35, r * 0.35, fill=hole)


# ---------------------------------------------------------------------------- part tile


def part_tile(look: Look, ppm: float, marker_id: int, rng: np.random.Generator) -> Image.Image:
    t = look.tile_mm
    img = canvas(t, t, ppm)
    pen = Pen(img, ppm)
    edge = shade(look.tile_rgb, 0.6)
    pen.rect(0, 0, t, t, fill=(*look.tile_rgb, 255), outline=(*edge, 255), width=0.5,
             radius=look.tile_radius)
    s = sticker(look, ppm, marker_id, tile_caption(marker_id), look.rcard_font)
    # stuck on by hand: a little off centre and askew
    s = s.rotate(float(rng.uniform(-3, 3)), resample=Image.Resampling.BICUBIC, expand=True)
    ox = (img.width - s.width) / 2 + rng.uniform(-0.6, 0.6) * ppm
    oy = (img.height - s.height) / 2 + rng.uniform(-0.6, 0.6) * ppm
    img.alpha_composite(s, (max(0, round(ox)), max(0, round(oy))))
    return grain(img, rng, 2.0)


# ---------------------------------------------------------------------------- robot card


def robot_card(look: Look, ppm: float, robot: tuple[str, str, str],
               rng: np.random.Generator) -> Image.Image:
    w, h = look.rcard_w, look.rcard_h
    img = canvas(w, h, ppm)
    pen = Pen(img, ppm)
    pen.rect(0, 0, w, h, fill=(*look.rcard_frame, 255), radius=3.5)
    inset = 3.0
    paper = look.rcard_paper
    pen.rect(inset, inset, w - inset, h - inset, fill=(*paper, 255), radius=2.0)
    faint = (*shade(paper, 0.88), 255)
    if look.rcard_pattern == "blueprint":
        blue = (*mix(paper, (110, 150, 200), 0.3), 255)
        for x in np.arange(inset + 5, w - inset, 5.0):
            pen.line([(float(x), inset + 1), (float(x), h - inset - 1)], blue, 0.2)
        for y in np.arange(inset + 5, h - inset, 5.0):
            pen.line([(inset + 1, float(y)), (w - inset - 1, float(y))], blue, 0.2)
    elif look.rcard_pattern == "dots":
        for x in np.arange(inset + 3, w - inset - 1, 4.0):
            for y in np.arange(inset + 3, h - inset - 1, 4.0):
                pen.ellipse(float(x), float(y), 0.35, 0.35, fill=faint)
    elif look.rcard_pattern == "hatch":
        for k in np.arange(-h, w, 4.0):
            pen.line([(float(k), h - inset), (float(k) + h, inset)], faint, 0.3)
        pen.rect(0, 0, w, inset, fill=(*look.rcard_frame, 255))
        pen.rect(0, h - inset, w, h, fill=(*look.rcard_frame, 255))
        pen.rect(0, 0, inset, h, fill=(*look.rcard_frame, 255))
        pen.rect(w - inset, 0, w, h, fill=(*look.rcard_frame, 255))
    ink = (35, 35, 40, 255)
    serial = sum(look.colours.index(p) * 4 ** i for i, p in enumerate(robot))
    pen.text(w / 2, inset + 4.0, f"ROBOT  No.{serial + 1:02d}", look.rcard_font, 3.2, ink)
    _gear(pen, w - inset - 4.5, h - inset - 4.5, 2.6, (*shade(look.rcard_frame, 1.4), 255),
          (*paper, 255))
    _robot(pen, look, robot, w / 2, h, ink)
    return grain(img, rng, 2.5)


def _robot(pen: Pen, look: Look, robot: tuple[str, str, str], cx: float, h: float,
           ink: Any) -> None:
    head, torso, legs = (look.card_rgb[p] for p in robot)
    grey = (150, 152, 158, 255)
    ow = 0.6
    # arms first, under the torso
    ty0, ty1 = h * 0.38, h * 0.63
    for sgn in (-1, 1):
        ax = cx + sgn * 12.0
        pen.line([(ax, ty0 + 3), (cx + sgn * 19.0, ty0 + 9), (cx + sgn * 18.0, ty1 - 4)], grey, 2.2)
        pen.ellipse(cx + sgn * 18.0, ty1 - 3, 2.0, 2.0, fill=grey, outline=ink, width=0.4)
    # head
    hy0, hy1 = h * 0.14, h * 0.33
    pen.rect(cx - 2.5, hy1 - 0.5, cx + 2.5, ty0 + 0.5, fill=grey)  # neck
    if look.head_shape == "dome":
        pen.line([(cx, hy0 - 2.5), (cx, hy0 + 2)], ink, 0.6)
        pen.ellipse(cx, hy0 - 3.0, 1.3, 1.3, fill=(*head, 255), outline=ink, width=0.4)
        pen.draw.pieslice(pen.box(cx - 10, hy0, cx + 10, hy1 + (hy1 - hy0) * 0.6), 180, 360,
                          fill=(*head, 255), outline=ink, width=max(1, round(ow * pen.ppm)))
        pen.rect(cx - 10, (hy0 + hy1) / 2 + 1.5, cx + 10, hy1, fill=(*head, 255), outline=ink,
                 width=ow)
        pen.rect(cx - 7, (hy0 + hy1) / 2 - 1.5, cx + 7, (hy0 + hy1) / 2 + 2.2,
                 fill=(40, 45, 55, 255), radius=1.0)
    elif look.head_shape == "box":
        pen.rect(cx - 9, hy0, cx + 9, hy1, fill=(*head, 255), outline=ink, width=ow, radius=2.0)
        for sgn in (-1, 1):
            pen.ellipse(cx + sgn * 4, hy0 + (hy1 - hy0) * 0.4, 2.2, 2.2, fill=(250, 250, 250, 255),
                        outline=ink, width=0.4)
            pen.ellipse(cx + sgn * 4, hy0 + (hy1 - hy0) * 0.4, 0.9, 0.9, fill=ink)
        for k in range(4):
            x = cx - 4.5 + k * 3
            pen.line([(x, hy1 - 4.0), (x, hy1 - 1.8)], ink, 0.5)
    else:
        pen.ellipse(cx, (hy0 + hy1) / 2, 10.0, (hy1 - hy0) / 2, fill=(*head, 255), outline=ink,
                    width=ow)
        pen.rect(cx - 9, (hy0 + hy1) / 2 - 2.0, cx + 9, (hy0 + hy1) / 2 + 1.0,
                 fill=(230, 235, 240, 255), outline=ink, width=0.3)
        pen.ellipse(cx - 3.5, (hy0 + hy1) / 2 - 0.5, 0.9, 0.9, fill=ink)
        pen.ellipse(cx + 3.5, (hy0 + hy1) / 2 - 0.5, 0.9, 0.9, fill=ink)
    # torso
    if look.torso_shape == "barrel":
        pen.rect(cx - 12, ty0, cx + 12, ty1, fill=(*torso, 255), outline=ink, width=ow,
                 radius=6.0)
        pen.rect(cx - 12, (ty0 + ty1) / 2 - 0.6, cx + 12, (ty0 + ty1) / 2 + 0.6,
                 fill=(*shade(torso, 0.7), 255))
    elif look.torso_shape == "panel":
        pen.rect(cx - 12, ty0, cx + 12, ty1, fill=(*torso, 255), outline=ink, width=ow,
                 radius=1.0)
        pen.rect(cx - 6, ty0 + 4, cx + 6, ty0 + 11, fill=(205, 210, 215, 255), outline=ink,
                 width=0.3)
        for k, c in enumerate(((220, 60, 60), (240, 200, 60), (70, 180, 90))):
            pen.ellipse(cx - 3.5 + k * 3.5, ty0 + 7.5, 1.0, 1.0, fill=(*c, 255))
    else:
        pen.poly([(cx - 13, ty0), (cx + 13, ty0), (cx + 9, ty1), (cx - 9, ty1)],
                 fill=(*torso, 255), outline=ink, width=ow)
        pen.ellipse(cx, ty0 + (ty1 - ty0) * 0.4, 3.0, 3.0, fill=(*shade(torso, 1.3), 255),
                    outline=ink, width=0.4)
    # legs
    ly0, ly1 = h * 0.655, h * 0.88
    if look.legs_shape == "legs":
        for sgn in (-1, 1):
            pen.rect(cx + sgn * 6 - 4, ly0, cx + sgn * 6 + 4, ly1 - 3, fill=(*legs, 255),
                     outline=ink, width=ow, radius=1.0)
            pen.rect(cx + sgn * 6 - 5.5, ly1 - 3.5, cx + sgn * 6 + 5.5, ly1, fill=(60, 62, 70, 255),
                     radius=1.0)
    elif look.legs_shape == "tracks":
        pen.rect(cx - 5, ly0, cx + 5, ly0 + 4, fill=(*legs, 255), outline=ink, width=ow)
        pen.rect(cx - 14, ly0 + 4, cx + 14, ly1, fill=(*legs, 255), outline=ink, width=ow,
                 radius=(ly1 - ly0 - 4) / 2)
        r = (ly1 - ly0 - 4) * 0.22
        for k in range(4):
            pen.ellipse(cx - 9 + k * 6, (ly0 + 4 + ly1) / 2, r, r, fill=(70, 72, 80, 255))
    else:
        pen.rect(cx - 8, ly0, cx + 8, ly1 - 6, fill=(*legs, 255), outline=ink, width=ow,
                 radius=2.0)
        pen.ellipse(cx, ly1 - 4.5, 6.0, 4.5, fill=(55, 57, 64, 255))
        pen.ellipse(cx, ly1 - 4.5, 2.0, 2.0, fill=(*legs, 255))


def card_back(w: float, h: float, ppm: float, rgb: RGB, rng: np.random.Generator) -> Image.Image:
    img = canvas(w, h, ppm)
    pen = Pen(img, ppm)
    pen.rect(0, 0, w, h, fill=(*rgb, 255), radius=3.0)
    pen.rect(3, 3, w - 3, h - 3, outline=(*shade(rgb, 1.5), 255), width=0.8, radius=2.0)
    _gear(pen, w / 2, h / 2, min(w, h) * 0.22, (*shade(rgb, 1.35), 255), (*rgb, 255))
    return grain(img, rng, 2.0)


# ---------------------------------------------------------------------------- Robot Master card


def master_card(look: Look, ppm: float, value: int, rng: np.random.Generator) -> Image.Image:
    w, h = look.mcard_w, look.mcard_h
    img = canvas(w, h, ppm)
    pen = Pen(img, ppm)
    paper = look.mcard_coded[value] if look.mcard_style == "coded" else look.mcard_paper
    ink = look.mcard_ink
    pen.rect(0, 0, w, h, fill=(*paper, 255), outline=(*shade(paper, 0.75), 255), width=0.3,
             radius=3.0)
    pen.rect(2.2, 2.2, w - 2.2, h - 2.2, outline=(*ink, 255), width=0.8, radius=2.2)
    if look.mcard_style == "numeral":  # a faint watermark gear behind the numeral
        _gear(pen, w / 2, h / 2, w * 0.36, (*shade(paper, 0.93), 255), (*paper, 255))
    size = h * (0.36 if look.mcard_style == "icons" else 0.42)
    cy = h * (0.42 if look.mcard_style == "icons" else 0.5)
    pen.text(w / 2, cy, str(value), look.mcard_font, size, (*ink, 255))
    # corner indices, the lower one turned (so the card reads the same both ways up)
    pen.text(5.5, 7.0, str(value), look.mcard_font, 6.0, (*ink, 255))
    corner = canvas(10, 10, ppm)
    Pen(corner, ppm).text(5, 5, str(value), look.mcard_font, 6.0, (*ink, 255))
    corner = corner.rotate(180)
    img.alpha_composite(corner, (round((w - 10.5) * ppm), round((h - 12.0) * ppm)))
    if look.mcard_style == "icons":  # as many small robot heads as the value
        for k in range(value):
            row, col = divmod(k, 3)
            x = w / 2 + (col - 1) * 8.0
            y = h * 0.72 + row * 7.5
            pen.rect(x - 2.8, y - 2.4, x + 2.8, y + 2.4, fill=(*ink, 255), radius=0.8)
            pen.ellipse(x - 1.2, y - 0.4, 0.7, 0.7, fill=(*paper, 255))
            pen.ellipse(x + 1.2, y - 0.4, 0.7, 0.7, fill=(*paper, 255))
    return grain(img, rng, 2.0)


# ---------------------------------------------------------------------------- table clutter


def cube(ppm: float, side: float, rgb: RGB, rng: np.random.Generator) -> Image.Image:
    img = canvas(side * 1.3, side * 1.3, ppm)
    pen = Pen(img, ppm)
    o = side * 0.15
    pen.rect(o, o, o + side, o + side, fill=(*rgb, 235), radius=side * 0.12)
    pen.rect(o + side * 0.2, o + side * 0.2, o + side * 0.8, o + side * 0.8,
             fill=(*mix(rgb, (255, 255, 255), 0.35), 235), radius=side * 0.1)
    return img.rotate(float(rng.uniform(0, 90)), resample=Image.Resampling.BICUBIC)


def data_tile(ppm: float, value: int, rng: np.random.Generator) -> Image.Image:
    img = canvas(26, 26, ppm)
    pen = Pen(img, ppm)
    pen.ellipse(13, 13, 12.5, 12.5, fill=(232, 226, 210, 255), outline=(90, 80, 70, 255),
                width=0.6)
    pen.text(13, 13, str(value), "DejaVuSans-Bold.ttf", 13.0, (60, 60, 90, 255))
    return img.rotate(float(rng.uniform(0, 360)), resample=Image.Resampling.BICUBIC)


def shadow_of(sprite: Image.Image, ppm: float, softness_mm: float,
              strength: float) -> Image.Image:
    """A soft dark copy of the sprite's outline, to lay under it."""
    alpha = sprite.getchannel("A").point(lambda v: round(v * strength))
    pad = round(softness_mm * ppm * 3) + 2
    big = Image.new("L", (sprite.width + 2 * pad, sprite.height + 2 * pad), 0)
    big.paste(alpha, (pad, pad))
    big = big.filter(ImageFilter.GaussianBlur(max(0.5, softness_mm * ppm)))
    out = Image.new("RGBA", big.size, (10, 8, 6, 0))
    out.putalpha(big)
    return out


def as_array(image: Image.Image) -> npt.NDArray[Any]:
    return np.asarray(image)
