"""Table tops: wooden planks, a cloth (felt, linen or a faded check) or smoked glass."""

from __future__ import annotations

import cv2
import numpy as np

from .paint import F32, RGB, bgr, value_noise

WOODS: list[RGB] = [(176, 128, 82), (104, 70, 46), (206, 168, 118), (196, 186, 170),
                    (72, 48, 32)]
CLOTHS: list[RGB] = [(44, 88, 62), (64, 76, 96), (206, 196, 176), (150, 146, 140),
                     (120, 60, 58)]


_CACHE: dict[tuple[str, int, float, int, int], np.ndarray] = {}
TEXTURE_PPM = 2.0


def table_view(kind: str, seed: int, origin: tuple[float, float], w: int, h: int,
               ppm: float, extent: tuple[float, float]) -> F32:
    """The part of the dataset's table top seen from ``origin`` (mm), ``w`` x ``h`` pixels at
    ``ppm``. The whole top (``extent`` mm, centred on 0, 0) is made once per dataset."""
    tp = min(ppm, TEXTURE_PPM)
    tw, th = int(extent[0] * tp), int(extent[1] * tp)
    key = (kind, seed, round(tp, 3), tw, th)
    if key not in _CACHE:
        _CACHE.clear()  # one dataset at a time
        top = surface(kind, seed, tw, th, tp)
        _CACHE[key] = np.clip(top * 255 + 0.5, 0, 255).astype(np.uint8)
    texture = _CACHE[key]
    k = tp / ppm
    A = np.array([[k, 0, (origin[0] + extent[0] / 2) * tp],
                  [0, k, (origin[1] + extent[1] / 2) * tp]], np.float64)
    view = cv2.warpAffine(texture, A, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REFLECT)
    return np.asarray(view, np.float32) / 255.0


def surface(kind: str, seed: int, w: int, h: int, ppm: float) -> F32:
    """A ``w`` x ``h`` pixel table top at ``ppm`` pixels per mm. ``seed`` is the dataset's,
    so every picture of a dataset is taken on the same table."""
    rng = np.random.default_rng(seed)
    if kind == "wood":
        return _wood(rng, w, h, ppm)
    if kind == "cloth":
        return _cloth(rng, w, h, ppm)
    return _glass(rng, w, h, ppm)


def _wood(rng: np.random.Generator, w: int, h: int, ppm: float) -> F32:
    base = bgr(WOODS[int(rng.integers(len(WOODS)))])
    # draw small (the grain is long and smooth) and scale up
    k = min(1.0, 1.2 / ppm)
    sw, sh = max(8, int(w * k)), max(8, int(h * k))
    sppm = ppm * k
    plank = float(rng.uniform(90, 150)) * sppm
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    warp = value_noise(sh, sw, 60 * sppm, rng) * 6 * sppm + value_noise(sh, sw, 400 * sppm, rng) \
        * 30 * sppm
    idx = np.floor((yy + xx * 0.002) / plank)
    period = float(rng.uniform(2.5, 5.0)) * sppm
    grain = 0.5 + 0.5 * np.sin(2 * np.pi * (yy + warp + idx * 37) / period)
    streak = value_noise(sh, sw, 25 * sppm, rng)
    tone = 1 + 0.10 * (grain - 0.5) + 0.06 * streak
    plank_shade = np.asarray(rng.uniform(0.88, 1.1, int(sh / plank) + 3), np.float32)
    tone *= plank_shade[np.clip(idx.astype(int), 0, len(plank_shade) - 1)]
    seam = np.abs(((yy + xx * 0.002) / plank) - np.round((yy + xx * 0.002) / plank)) * plank
    tone *= np.where(seam < 0.8 * sppm, 0.55, 1.0).astype(np.float32)
    small = (tone[..., None] * base).astype(np.float32)
    out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    out += rng.normal(0, 0.01, (h, w, 1)).astype(np.float32)
    return np.asarray(out, np.float32)


def _cloth(rng: np.random.Generator, w: int, h: int, ppm: float) -> F32:
    kind = int(rng.integers(3))
    base = bgr(CLOTHS[int(rng.integers(len(CLOTHS)))])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 2:  # a faded check: two soft tones
        cell = float(rng.uniform(14, 26)) * ppm
        chk = ((np.floor(xx / cell) + np.floor(yy / cell)) % 2).astype(np.float32)
        other = bgr((228, 224, 214))
        tone = chk[..., None] * base * 0.9 + (1 - chk[..., None]) * other
        tone = 0.75 * tone + 0.25 * cv2.GaussianBlur(tone, (0, 0), 0.8 * ppm)
    else:
        tone = np.broadcast_to(base, (h, w, 3)).astype(np.float32)
    period = 0.9 * ppm
    weave = 0.5 + 0.25 * (np.sin(2 * np.pi * xx / period) + np.sin(2 * np.pi * yy / period))
    fuzz = value_noise(h, w, 3 * ppm, rng) * (0.06 if kind == 0 else 0.03)
    folds = value_noise(h, w, 220 * ppm, rng) * 0.06
    k = 1 + (0.05 if kind == 1 else 0.015) * (weave - 0.5) + fuzz + folds
    return np.asarray(tone * k[..., None], np.float32)


def _glass(rng: np.random.Generator, w: int, h: int, ppm: float) -> F32:
    base = bgr((34, 40, 46))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = float(rng.uniform(0, np.pi))
    t = (xx * np.cos(a) + yy * np.sin(a)) / (300 * ppm)
    band = np.exp(-((t - float(rng.uniform(0, 2))) ** 2) * 8) * 0.35  # a window's reflection
    smudge = np.clip(value_noise(h, w, 6 * ppm, rng), 0, 1) * 0.025
    out = base + (band + smudge)[..., None] * bgr((210, 220, 230))
    return np.asarray(out, np.float32)
