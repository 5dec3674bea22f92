"""The camera over the table: a pinhole at the lens height, tilted, and what a sensor adds.

World frame in millimetres: X to the right, Y down the page, Z into the table (so a camera
looking straight down has the identity rotation and the picture is never mirrored). The camera
stands ``lens_mm`` above the table (Z = -lens_mm).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from .look import Look

Arr = npt.NDArray[Any]


@dataclass
class View:
    k: Arr
    r: Arr
    c: Arr
    width: int
    height: int

    def table_to_image(self) -> Arr:
        """Homography from table millimetres (X, Y) to picture pixels."""
        t = -self.r @ self.c
        m = np.column_stack([self.r[:, 0], self.r[:, 1], t])
        out: Arr = self.k @ m
        return out

    def project(self, pts: Arr) -> Arr:
        """World points (N, 3) to pixels (N, 2)."""
        cam = (self.r @ (pts - self.c).T).T
        uvw = (self.k @ cam.T).T
        out: Arr = uvw[:, :2] / uvw[:, 2:3]
        return out

    def px_per_mm(self, x: float, y: float) -> float:
        h = self.table_to_image()
        p = cv2.perspectiveTransform(np.array([[[x, y], [x + 1.0, y], [x, y + 1.0]]]), h)[0]
        a, b = p[1] - p[0], p[2] - p[0]
        # the parallelogram's area, written out: numpy 2 deprecates np.cross of 2-d vectors
        return float(math.sqrt(abs(a[0] * b[1] - a[1] * b[0])))

    def in_view(self, pts_xy: Arr, margin: float) -> bool:
        p = cv2.perspectiveTransform(pts_xy.reshape(1, -1, 2).astype(np.float64),
                                     self.table_to_image())[0]
        return bool(np.all(p[:, 0] >= margin) and np.all(p[:, 0] <= self.width - 1 - margin)
                    and np.all(p[:, 1] >= margin) and np.all(p[:, 1] <= self.height - 1 - margin))

    def footprint(self) -> Arr:
        """The table seen, as the bounding box (x0, y0, x1, y1) in mm."""
        w, h = self.width, self.height
        corners = np.array([[[-0.03 * w, -0.03 * h], [1.03 * w, -0.03 * h], [1.03 * w, 1.03 * h],
                             [-0.03 * w, 1.03 * h]]])
        p = cv2.perspectiveTransform(corners, np.linalg.inv(self.table_to_image()))[0]
        return np.array([p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()])


def make_view(look: Look, rng: np.random.Generator, tilt_deg: float,
              yaw_deg: float | None = None) -> View:
    f = (look.width / 2) / math.tan(math.radians(look.fov_deg) / 2)
    k = np.array([[f, 0, look.width / 2 - 0.5], [0, f, look.height / 2 - 0.5], [0, 0, 1.0]])
    theta = math.radians(tilt_deg)
    phi = rng.uniform(0, 2 * math.pi)
    fwd = np.array([math.sin(theta) * math.cos(phi), math.sin(theta) * math.sin(phi),
                    math.cos(theta)])
    dist = look.lens_mm / math.cos(theta)
    c = -dist * fwd  # looking at the table's origin
    psi = math.radians(yaw_deg if yaw_deg is not None else rng.uniform(-8, 8))
    hint = np.array([-math.sin(psi), math.cos(psi), 0.0])
    x = np.cross(hint, fwd)
    x /= np.linalg.norm(x)
    y = np.cross(fwd, x)
    r = np.vstack([x, y, fwd])
    return View(k, r, c, look.width, look.height)


# ---------------------------------------------------------------------------- table textures


def _low(rng: np.random.Generator, h: int, w: int, cell: int) -> Arr:
    small = rng.normal(0.0, 1.0, (max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def table_texture(look: Look, w: int, h: int, ppm: float, rng: np.random.Generator) -> Arr:
    # drawn at half size (the grain is a few millimetres wide) and enlarged; fine noise on top
    hw, hh, hp = max(2, w // 2), max(2, h // 2), ppm / 2
    c1 = np.array(look.table_rgb, np.float32)
    c2 = np.array(look.table_rgb2, np.float32)
    yy = (np.arange(hh, dtype=np.float32) / hp)[:, None]
    kind = look.table

    def low(cell_mm: float) -> Arr:
        return _low(rng, hh, hw, max(2, int(cell_mm * hp)))

    if kind in ("oak", "walnut", "pine"):
        plank = rng.uniform(90, 150)
        idx = np.floor(yy / plank)
        warp = low(60) * 5.0 + low(12)
        phase = (idx * 37.0) % 11.0
        t = (yy + warp + phase) / rng.uniform(2.2, 3.6)
        bands = (0.5 + 0.5 * np.sin(2 * np.pi * t)) ** 3
        tone = np.clip(bands * 0.55 + 0.15 * low(40) + 0.2 + 0.15 * ((idx * 0.37) % 1.0), 0, 1)
        img = c1 * (1 - tone[..., None]) + c2 * tone[..., None]
        seam = np.broadcast_to(np.abs(yy - idx * plank) < 0.6, (hh, hw))
        img[seam] *= 0.55
    elif kind in ("cloth", "linen"):
        folds = 0.05 * low(80)
        streak = 0.3 * (0.5 + 0.5 * np.tanh(low(30)))
        img = (c1 * (1 - streak[..., None]) + c2 * streak[..., None]) * (1 + folds)[..., None]
    elif kind == "laminate":
        blot = 0.5 * np.clip(0.5 + 0.4 * low(25), 0, 1)
        img = c1 * (1 - blot[..., None]) + c2 * blot[..., None]
    else:  # felt
        img = c1 * (1 + 0.06 * low(50))[..., None]
    img = cv2.resize(img.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    fine = rng.standard_normal((h, w), dtype=np.float32) * 4.0
    if kind in ("cloth", "linen"):  # the weave, about a millimetre
        fy = np.sin(2 * np.pi * np.arange(h, dtype=np.float32) / ppm / 1.1)[:, None]
        fx = np.sin(2 * np.pi * np.arange(w, dtype=np.float32) / ppm / 1.1)[None, :]
        fine += 0.035 * float(np.mean(c1)) * fx * fy
    img += fine[..., None]
    out: Arr = np.clip(img, 0, 255).astype(np.uint8)
    return out


def surface_texture(rgb: tuple[int, int, int], w: int, h: int, ppm: float,
                    rng: np.random.Generator, felt: bool) -> Arr:
    c = np.array(rgb, np.float32)
    low = cv2.resize(_low(rng, h // 4 + 2, w // 4 + 2, max(2, int(10 * ppm))), (w, h))
    img = c[None, None, :] * (1 + (0.05 if felt else 0.02) * low)[..., None]
    img += (rng.standard_normal((h, w), dtype=np.float32) * (7.0 if felt else 2.5))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------- hands


def soft(mask: Arr, sigma: float) -> Arr:
    """A wide Gaussian blur of a float mask, done at a quarter size (wide blurs are smooth)."""
    h, w = mask.shape[:2]
    if sigma < 6:
        return cv2.GaussianBlur(mask, (0, 0), sigma)
    small = cv2.resize(mask, (max(2, w // 4), max(2, h // 4)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / 4)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _hand_masks(shape: tuple[int, int], palm: tuple[float, float], angle: float, scale: float,
                with_thumb: bool, with_rest: bool, grip: bool) -> tuple[Arr, Arr]:
    """(skin, sleeve) masks of a hand whose fingers point along ``angle`` (radians)."""
    h, w = shape
    skin = np.zeros((h, w), np.uint8)
    sleeve = np.zeros((h, w), np.uint8)
    ca, sa = math.cos(angle), math.sin(angle)

    def tr(x: float, y: float) -> tuple[int, int]:
        return (round((palm[0] + (x * ca - y * sa) * scale) * 16),
                round((palm[1] + (x * sa + y * ca) * scale) * 16))

    def capsule(mask: Arr, a: tuple[float, float], b: tuple[float, float], width: float) -> None:
        pa, pb = tr(*a), tr(*b)
        cv2.line(mask, pa, pb, 255, max(1, round(width * scale)), cv2.LINE_AA, shift=4)

    if with_rest:
        poly = np.array([tr(x, y) for x, y in
                         [(-20, -40), (30, -38), (42, -20), (42, 22), (30, 38), (-20, 40),
                          (-40, 30), (-40, -30)]], np.int32)
        cv2.fillPoly(skin, [poly], 255, cv2.LINE_AA, shift=4)
        for y, length in ((-27, 58), (-9, 68), (9, 64), (26, 50)):
            capsule(skin, (34, y), (34 + length, y * 1.1), 17)
        arm = np.array([tr(x, y) for x, y in [(-35, -34), (-35, 34), (-900, 48), (-900, -48)]],
                       np.int32)
        cv2.fillPoly(skin, [arm], 255, cv2.LINE_AA, shift=4)
        cuff = np.array([tr(x, y) for x, y in [(-140, -44), (-140, 44), (-900, 56), (-900, -56)]],
                        np.int32)
        cv2.fillPoly(sleeve, [cuff], 255, cv2.LINE_AA, shift=4)
    if with_thumb and grip:  # holding a card: the thumb lies along the fingers, on the card
        capsule(skin, (12, -32), (50, -16), 20)
    elif with_thumb:
        capsule(skin, (0, -36), (40, -62), 21)
    return skin, sleeve


def draw_hand(img: Arr, palm: tuple[float, float], angle: float, scale: float,
              skin_rgb: tuple[int, int, int], sleeve_rgb: tuple[int, int, int],
              thumb: bool = True, rest: bool = True, shadow: float = 0.35,
              grip: bool = False) -> Arr:
    """Draw a hand and forearm (BGR picture) from above, with its soft shadow."""
    skin, sleeve = _hand_masks(img.shape[:2], palm, angle, scale, thumb, rest, grip)
    out = img.astype(np.float32)
    if shadow > 0:
        off = np.array([[1, 0, 18 * scale], [0, 1, 14 * scale]], np.float32)
        sh = cv2.warpAffine(np.maximum(skin, sleeve), off, (img.shape[1], img.shape[0]))
        sh = soft(sh.astype(np.float32) / 255.0, 12 * scale + 1)
        out *= (1 - shadow * sh)[..., None]
    m = skin.astype(np.float32) / 255.0
    inner = soft(m, 6 * scale + 1)
    tone = (0.72 + 0.32 * inner)[..., None]
    bgr = np.array(skin_rgb[::-1], np.float32)
    out = out * (1 - m[..., None]) + (bgr * tone) * m[..., None]
    s = sleeve.astype(np.float32) / 255.0
    sb = np.array(sleeve_rgb[::-1], np.float32) * (0.8 + 0.2 * soft(s, 8 * scale + 1))[..., None]
    out = out * (1 - s[..., None]) + sb * s[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------- the sensor


@dataclass
class Conditions:
    gain: float
    gradient: tuple[float, float]
    vignette: float
    temperature: float  # > 0 warm, < 0 cool (what white balance left over)
    blur: float
    motion: float
    noise: float
    jpeg: int
    shadow: bool

    @staticmethod
    def clean(rng: np.random.Generator) -> Conditions:
        return Conditions(gain=rng.uniform(0.82, 1.08),
                          gradient=(rng.uniform(-0.18, 0.18), rng.uniform(-0.18, 0.18)),
                          vignette=rng.uniform(0.08, 0.35), temperature=rng.uniform(-0.12, 0.12),
                          blur=rng.uniform(0.3, 1.0), motion=0.0, noise=rng.uniform(1.0, 3.5),
                          jpeg=int(rng.integers(72, 96)), shadow=bool(rng.random() < 0.3))

    @staticmethod
    def hard(rng: np.random.Generator, blur: bool, dark: bool) -> Conditions:
        c = Conditions.clean(rng)
        if blur:
            if rng.random() < 0.5:
                c.blur = rng.uniform(2.5, 4.0)
            else:
                c.motion = rng.uniform(10.0, 22.0)
        if dark:
            c.gain = rng.uniform(0.16, 0.32)
            c.noise = rng.uniform(5.0, 9.0)
            c.jpeg = int(rng.integers(60, 80))
        return c


def apply_conditions(img: Arr, cond: Conditions, rng: np.random.Generator) -> Arr:
    h, w = img.shape[:2]
    ny = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None]
    nx = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :]
    light = cond.gain * (1 + cond.gradient[0] * nx * 2 + cond.gradient[1] * ny * 2)
    light *= 1 - cond.vignette * (nx * nx + ny * ny) * 2
    if cond.shadow:  # a soft shadow from someone leaning over, or the lamp's arm
        mask = np.zeros((h, w), np.float32)
        x0 = rng.uniform(0, w)
        pts = np.array([[x0, -10], [x0 + rng.uniform(80, 250), -10],
                        [x0 + rng.uniform(-200, 300), h + 10],
                        [x0 + rng.uniform(-400, 100), h + 10]], np.int32)
        cv2.fillPoly(mask, [pts], 1.0)
        mask = soft(mask, rng.uniform(25, 60))
        light *= 1 - rng.uniform(0.15, 0.3) * mask
    f = img.astype(np.float32) * light[..., None]
    t = cond.temperature
    f *= np.array([1 - 1.1 * t, 1.0, 1 + t], np.float32)[None, None, :]  # BGR
    if cond.motion > 0:
        n = round(cond.motion) | 1
        line = np.zeros((n, n), np.float32)
        line[n // 2, :] = 1.0 / n
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel: Arr = cv2.warpAffine(line, rot, (n, n))
        kernel /= kernel.sum()
        f = cv2.filter2D(f, -1, kernel)
    if cond.blur > 0.05:
        f = cv2.GaussianBlur(f, (0, 0), cond.blur)
    shot = np.sqrt(np.clip(f, 0, 255) / 255.0) * cond.noise
    f += rng.standard_normal(f.shape, dtype=np.float32) * (cond.noise * 0.5 + shot)
    out: Arr = np.clip(f, 0, 255).astype(np.uint8)
    return out


def encode(img: Arr, quality: int) -> Arr:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert ok and out is not None
    return out
