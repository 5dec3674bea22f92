"""Drawing in millimetres on float BGRA sprites (antialiased masks, text, pasting).

A sprite is an ``(h, w, 4)`` float32 array: blue, green, red, alpha, all in 0..1. Everything that
draws takes millimetres and the sprite's pixels per millimetre, so one piece of art can be drawn
at any resolution.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]
RGB = tuple[int, int, int]

FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
SHIFT = 3  # sub-pixel bits for cv2 drawing


def bgr(rgb: RGB) -> F32:
    return np.array(rgb[::-1], np.float32) / 255.0


def blank(w_mm: float, h_mm: float, ppm: float) -> F32:
    return np.zeros((max(1, round(h_mm * ppm)), max(1, round(w_mm * ppm)), 4), np.float32)


def rot(dx: float, dy: float, angle: float) -> tuple[float, float]:
    """Rotate an offset like ``cv2.getRotationMatrix2D`` does (degrees, anticlockwise on screen)."""
    a = np.radians(angle)
    c, s = float(np.cos(a)), float(np.sin(a))
    return c * dx + s * dy, -s * dx + c * dy


def rounded_rect(x: float, y: float, w: float, h: float, r: float, n: int = 8) -> F64:
    r = max(0.0, min(r, w / 2, h / 2))
    if r == 0:
        return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)
    pts = []
    for cx, cy, a0 in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0),
                       (x + r, y + h - r, 90), (x + r, y + r, 180)):
        for t in np.linspace(a0, a0 + 90, n):
            pts.append((cx + r * np.cos(np.radians(t)), cy + r * np.sin(np.radians(t))))
    return np.array(pts, np.float64)


class Pen:
    """Draws on one sprite; coordinates in millimetres from its top-left corner."""

    def __init__(self, sprite: F32, ppm: float) -> None:
        self.sprite = sprite
        self.ppm = ppm

    def _pts(self, pts: Sequence[tuple[float, float]] | F64) -> NDArray[np.int32]:
        arr = np.asarray(pts, np.float64) * self.ppm * (1 << SHIFT)
        return np.round(arr).astype(np.int32)

    def mask(self, draw: Callable[[U8], object]) -> F32:
        m = np.zeros(self.sprite.shape[:2], np.uint8)
        draw(m)
        return m.astype(np.float32) / 255.0

    def paint(self, mask: F32, rgb: RGB, opacity: float = 1.0) -> None:
        # blend only where the mask has ink: sprites are big, most primitives small
        x, y, w, h = cv2.boundingRect((mask > 0).astype(np.uint8))
        if w == 0 or h == 0:
            return
        m = mask[y:y + h, x:x + w, None] * opacity
        s = self.sprite[y:y + h, x:x + w]
        s[..., :3] = s[..., :3] * (1 - m) + bgr(rgb) * m
        s[..., 3:] = s[..., 3:] + m * (1 - s[..., 3:])

    def poly(self, pts: Sequence[tuple[float, float]] | F64, rgb: RGB,
             opacity: float = 1.0) -> None:
        p = self._pts(pts)
        self.paint(self.mask(lambda m: cv2.fillPoly(m, [p], 255, cv2.LINE_AA, SHIFT)),
                   rgb, opacity)

    def outline(self, pts: Sequence[tuple[float, float]] | F64, rgb: RGB, width: float,
                closed: bool = True, opacity: float = 1.0) -> None:
        p = self._pts(pts)
        t = max(1, round(width * self.ppm))
        self.paint(self.mask(lambda m: cv2.polylines(m, [p], closed, 255, t, cv2.LINE_AA,
                                                     SHIFT)), rgb, opacity)

    def rect(self, x: float, y: float, w: float, h: float, rgb: RGB, r: float = 0.0,
             opacity: float = 1.0) -> None:
        self.poly(rounded_rect(x, y, w, h, r), rgb, opacity)

    def circle(self, cx: float, cy: float, r: float, rgb: RGB, width: float = 0.0,
               opacity: float = 1.0) -> None:
        c = tuple(int(v) for v in self._pts([(cx, cy)])[0])
        rr = round(r * self.ppm * (1 << SHIFT))
        t = -1 if width <= 0 else max(1, round(width * self.ppm))
        self.paint(self.mask(lambda m: cv2.circle(m, c, rr, 255, t, cv2.LINE_AA, SHIFT)),
                   rgb, opacity)

    def capsule(self, a: tuple[float, float], b: tuple[float, float], width: float,
                rgb: RGB, opacity: float = 1.0) -> None:
        p = self._pts([a, b])
        t = max(1, round(width * self.ppm))
        self.paint(self.mask(lambda m: cv2.line(m, tuple(int(v) for v in p[0]),
                                                tuple(int(v) for v in p[1]), 255, t,
                                                cv2.LINE_AA, SHIFT)), rgb, opacity)

    def text(self, s: str, cx: float, cy: float, height: float, rgb: RGB, font: str,
             angle: float = 0.0, opacity: float = 1.0) -> None:
        """``height`` is the height of the ink (mm), centred on (cx, cy)."""
        if not s.strip():
            return
        ink = text_mask(s, font, max(4, round(height * self.ppm)))
        if angle:
            ink = rotate_mask(ink, angle)
        self.paste_mask(ink, cx, cy, rgb, opacity)

    def paste_mask(self, ink: F32, cx: float, cy: float, rgb: RGB, opacity: float = 1.0) -> None:
        h, w = ink.shape
        x0 = round(cx * self.ppm - w / 2)
        y0 = round(cy * self.ppm - h / 2)
        full = np.zeros(self.sprite.shape[:2], np.float32)
        H, W = self.sprite.shape[:2]
        xa, ya, xb, yb = max(0, x0), max(0, y0), min(W, x0 + w), min(H, y0 + h)
        if xa >= xb or ya >= yb:
            return
        full[ya:yb, xa:xb] = ink[ya - y0:yb - y0, xa - x0:xb - x0]
        self.paint(full, rgb, opacity)


@lru_cache(maxsize=256)
def text_mask(s: str, font: str, height_px: int) -> F32:
    """A tight mask of the text's ink, ``height_px`` tall. ``font`` is a DejaVu file name or
    ``hershey:N`` for one of OpenCV's stroke fonts (a plotter-like look)."""
    if font.startswith("hershey"):
        face = int(font.split(":")[1]) if ":" in font else cv2.FONT_HERSHEY_DUPLEX
        scale = 4.0
        thick = 9
        (tw, th), base = cv2.getTextSize(s, face, scale, thick)
        m = np.zeros((th + base + 2 * thick, tw + 2 * thick), np.uint8)
        cv2.putText(m, s, (thick, th + thick), face, scale, 255, thick, cv2.LINE_AA)
    else:
        pil = ImageFont.truetype(FONT_DIR + font, 200)
        box = pil.getbbox(s)
        img = Image.new("L", (int(box[2] - box[0]) + 8, int(box[3] - box[1]) + 8), 0)
        ImageDraw.Draw(img).text((4 - box[0], 4 - box[1]), s, font=pil, fill=255)
        m = np.asarray(img, np.uint8)
    ys, xs = np.nonzero(m > 8)
    m = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    k = height_px / m.shape[0]
    out = cv2.resize(m, (max(1, round(m.shape[1] * k)), height_px), interpolation=cv2.INTER_AREA)
    return out.astype(np.float32) / 255.0


def rotate_mask(m: F32, angle: float) -> F32:
    h, w = m.shape
    M = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    c, s = abs(M[0, 0]), abs(M[0, 1])
    nw, nh = int(h * s + w * c) + 2, int(h * c + w * s) + 2
    M[0, 2] += nw / 2 - w / 2
    M[1, 2] += nh / 2 - h / 2
    return np.asarray(cv2.warpAffine(m, M, (nw, nh), flags=cv2.INTER_LINEAR), np.float32)


def value_noise(h: int, w: int, cell: float, rng: np.random.Generator) -> F32:
    """Smooth noise in about -1..1 with features ``cell`` pixels apart."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    g = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return np.asarray(cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)


def jitter(rgb: RGB, rng: np.random.Generator, amount: int) -> RGB:
    r, g, b = (int(np.clip(v + rng.integers(-amount, amount + 1), 0, 255)) for v in rgb)
    return (r, g, b)
