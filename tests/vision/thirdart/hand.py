"""A hand and forearm seen from above, drawn straight onto the pinhole frame, with its shadow."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .paint import F32, RGB, U8, bgr

# (start x, y offset, length, width) of each finger in mm; x runs from the wrist to the tips
FINGERS = [(-72, -26, 58, 15), (-72, -9, 74, 17), (-72, 9, 70, 17), (-72, 26, 62, 16)]


@dataclass(frozen=True)
class Hand:
    tip: tuple[float, float]  # frame pixel where the longest finger ends
    angle: float              # degrees: the way the fingers point, on screen
    scale: float              # frame pixels per mm at the hand's height
    curl: float               # 1: fingers straight, 0.5: half curled


def _to_frame(h: Hand, pts: list[tuple[float, float]]) -> np.ndarray:
    a = np.radians(h.angle)
    c, s = np.cos(a), np.sin(a)
    out = []
    for x, y in pts:
        out.append((h.tip[0] + (c * x - s * y) * h.scale, h.tip[1] + (s * x + c * y) * h.scale))
    return np.round(np.array(out) * 8).astype(np.int32)


def masks(hand: Hand, size: tuple[int, int]) -> tuple[U8, U8, U8]:
    """(arm and palm with fingers, thumb, sleeve) as 0..255 masks over a frame of ``size``."""
    w, h = size
    body = np.zeros((h, w), np.uint8)
    thumb = np.zeros((h, w), np.uint8)
    sleeve = np.zeros((h, w), np.uint8)
    sc = hand.scale

    def capsule(m: U8, a: tuple[float, float], b: tuple[float, float], width: float) -> None:
        p = _to_frame(hand, [a, b])
        cv2.line(m, tuple(int(v) for v in p[0]), tuple(int(v) for v in p[1]), 255,
                 max(1, int(width * sc)), cv2.LINE_AA, 3)

    centre = _to_frame(hand, [(-118, 0)])[0]
    cv2.ellipse(body, (int(centre[0]), int(centre[1])), (int(56 * sc * 8), int(47 * sc * 8)),
                hand.angle, 0, 360, 255, -1, cv2.LINE_AA, 3)
    for x, y, length, width in FINGERS:
        capsule(body, (x, y), (x + length * hand.curl + 6, y * 1.1), width)
    capsule(body, (-170, 0), (-260, 0), 66)
    capsule(sleeve, (-230, 0), (-1400, 0), 92)
    capsule(thumb, (-120, 42), (-78, 62 * hand.curl + 8), 21)
    return body, thumb, sleeve


def paint(frame: F32, mask: U8, rgb: RGB, scale: float) -> None:
    """Skin or cloth with a rounded look: darker towards the outline."""
    m = mask.astype(np.float32) / 255.0
    if not m.any():
        return
    depth = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 0.72 + 0.33 * np.clip(depth / (10 * scale), 0, 1)
    colour = bgr(rgb)[None, None, :] * shade[..., None]
    frame[:] = frame * (1 - m[..., None]) + colour * m[..., None]


def shadow(frame: F32, mask: U8, offset: tuple[float, float], blur: float,
           strength: float) -> None:
    M = np.array([[1, 0, offset[0]], [0, 1, offset[1]]], np.float32)
    h, w = mask.shape
    s = cv2.warpAffine(mask.astype(np.float32) / 255.0, M, (w, h))
    s = cv2.GaussianBlur(s, (0, 0), max(1.0, blur))
    frame *= (1 - strength * s)[..., None]
