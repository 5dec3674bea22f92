"""Light and the camera's own faults: lamps and windows, white balance, vignetting, defocus,
motion, sensor noise and JPEG."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .paint import F32, U8

WARM = np.array([0.60, 0.82, 1.0], np.float32)   # BGR of a 2700 K bulb, roughly
DAY = np.array([1.0, 0.97, 0.93], np.float32)    # window light
NEUTRAL = np.array([0.95, 0.97, 1.0], np.float32)


@dataclass(frozen=True)
class Light:
    field: F32                  # (h, w, 3) multiplier over the pinhole frame
    shadow_dir: tuple[float, float]  # unit vector on the table, away from the main light
    level: float                # overall brightness (1: a well lit room)


def lighting(size: tuple[int, int], rng: np.random.Generator, hard: bool) -> Light:
    """One of: a warm lamp, daylight from a window on one side, or two sources at once."""
    full = size
    w, h = max(8, size[0] // 4), max(8, size[1] // 4)  # light varies slowly: work small
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xx /= w
    yy /= h
    kind = str(rng.choice(["lamp", "window", "two", "ceiling"]))
    total = np.zeros((h, w, 3), np.float32)
    main = (0.0, 1.0)

    def lamp(strength: float, tint: np.ndarray) -> tuple[float, float]:
        lx, ly = float(rng.uniform(-0.2, 1.2)), float(rng.uniform(-0.2, 1.2))
        spread = float(rng.uniform(0.5, 1.1))
        d2 = ((xx - lx) ** 2 + (yy - ly) ** 2) / spread**2
        nonlocal total
        total = total + (strength / (1 + 2.5 * d2))[..., None] * tint
        return 0.5 - lx, 0.5 - ly

    def window(strength: float) -> tuple[float, float]:
        a = float(rng.uniform(0, 2 * np.pi))
        dx, dy = float(np.cos(a)), float(np.sin(a))
        t = (xx - 0.5) * dx + (yy - 0.5) * dy  # grows away from the window
        nonlocal total
        total = total + (strength * np.exp(-1.6 * (t + 0.5)))[..., None] * DAY
        return dx, dy

    if kind == "lamp":
        main = lamp(1.3, WARM)
        total += 0.15 * WARM
    elif kind == "window":
        main = window(1.2)
        total += 0.25 * NEUTRAL
    elif kind == "two":
        main = window(0.8)
        lamp(0.8, WARM)
    else:
        total += NEUTRAL * (0.9 + 0.15 * (1 - ((xx - 0.5) ** 2 + (yy - 0.5) ** 2)))[..., None]
        main = (float(rng.uniform(-0.3, 0.3)), float(rng.uniform(-0.3, 0.3)))
    # the camera's automatic white balance takes most of the cast away
    mean = total.reshape(-1, 3).mean(axis=0)
    balance = (mean.mean() / mean) ** float(rng.uniform(0.6, 0.9))
    total *= balance
    level = float(rng.uniform(0.3, 0.6)) if hard and rng.random() < 0.6 else \
        float(rng.uniform(0.75, 1.05))
    total *= level / float(np.median(total))
    n = float(np.hypot(*main)) or 1.0
    field = cv2.resize(total.astype(np.float32), full, interpolation=cv2.INTER_LINEAR)
    return Light(np.asarray(field, np.float32), (main[0] / n, main[1] / n), level)


def vignette(img: F32, strength: float) -> F32:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    return np.asarray(img * (1 - strength * r2 / 2)[..., None], np.float32)


def defocus(img: F32, radius_px: float) -> F32:
    if radius_px < 0.3:
        return img
    r = max(1, int(np.ceil(radius_px)))
    k = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
    cv2.circle(k, (r, r), r, 1.0, -1, cv2.LINE_AA)
    k /= k.sum()
    return np.asarray(cv2.filter2D(img, -1, k), np.float32)


def motion(img: F32, length_px: float, angle: float) -> F32:
    n = max(3, int(length_px) | 1)
    k = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = np.cos(np.radians(angle)) * c, np.sin(np.radians(angle)) * c
    cv2.line(k, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 1.0, 1, cv2.LINE_AA)
    k /= k.sum()
    return np.asarray(cv2.filter2D(img, -1, k), np.float32)


def sensor(img: F32, level: float, rng: np.random.Generator, hard: bool) -> U8:
    """Noise that grows as the light falls (the camera turns its gain up), then 8 bits."""
    gain = 1.0 / max(0.25, level)
    sigma = float(rng.uniform(0.006, 0.014)) * gain * (1.6 if hard else 1.0)
    h, w = img.shape[:2]
    noise = rng.normal(0, sigma, (h, w, 1)).astype(np.float32)
    chroma = cv2.resize(rng.normal(0, sigma * 0.6, (h // 2, w // 2, 3)).astype(np.float32),
                        (w, h))
    out = img + noise + chroma
    out = np.clip(out, 0, 1) ** (1 / float(rng.uniform(0.95, 1.08)))  # tone curve
    return np.asarray(np.clip(out * 255 + 0.5, 0, 255), np.uint8)


def jpeg(img: U8, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV always encodes a plain BGR picture
        raise RuntimeError("JPEG encoding failed")
    return bytes(buf.tobytes())
