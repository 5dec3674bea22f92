"""Drawing helpers for the synthetic scene renderer: pasting patches through a homography,
table textures, hands, and the degradations a real table brings."""

from __future__ import annotations

import math

import cv2
import numpy as np

Rng = np.random.Generator
BGR = tuple[int, int, int]

_DICTIONARY = None


def marker_patch(marker_id: int, module_px: int = 8) -> np.ndarray:
    """An ArUco DICT_4X4_50 marker (6x6 modules incl. its black border), grey uint8."""
    global _DICTIONARY
    if _DICTIONARY is None:
        _DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return np.asarray(cv2.aruco.generateImageMarker(_DICTIONARY, marker_id, 6 * module_px))


def hex_to_bgr(text: str) -> BGR:
    text = text.lstrip("#")
    r, g, b = (int(text[i : i + 2], 16) for i in (0, 2, 4))
    return (b, g, r)


def jitter_colour(bgr: BGR, rng: Rng, hue: float = 6, sat: float = 0.12, val: float = 0.1) -> BGR:
    """The same printed colour from another print run: small shifts in hue, saturation, value."""
    hsv = cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV).astype(np.float32)[0, 0]
    hsv[0] = (hsv[0] + rng.uniform(-hue, hue) / 2) % 180
    hsv[1] = np.clip(hsv[1] * rng.uniform(1 - sat, 1 + sat * 0.5), 0, 255)
    hsv[2] = np.clip(hsv[2] * rng.uniform(1 - val, 1 + val * 0.5), 0, 255)
    out = cv2.cvtColor(np.array([[hsv]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return (int(out[0]), int(out[1]), int(out[2]))


def rot(angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])


def trans(x: float, y: float) -> np.ndarray:
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], dtype=np.float64)


def scale(sx: float, sy: float | None = None) -> np.ndarray:
    return np.diag([sx, sy if sy is not None else sx, 1.0])


def place(width: float, height: float, cx: float, cy: float, angle: float) -> np.ndarray:
    """A homography that puts a width x height patch centred at (cx, cy), turned by angle."""
    return np.asarray(trans(cx, cy) @ rot(angle) @ trans(-width / 2, -height / 2))


def warp_into(canvas_shape: tuple[int, ...], patch: np.ndarray, H: np.ndarray,
              mask: np.ndarray | None = None
              ) -> tuple[int, int, np.ndarray, np.ndarray] | None:
    """``patch`` (and its mask) warped through homography H (patch pixel -> canvas pixel), cut
    to the part of the canvas it covers: ``(x0, y0, warped, alpha)``; None when it misses it."""
    h, w = patch.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    dst = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), H).reshape(-1, 2)
    x0 = max(math.floor(dst[:, 0].min()) - 1, 0)
    y0 = max(math.floor(dst[:, 1].min()) - 1, 0)
    x1 = min(math.ceil(dst[:, 0].max()) + 2, canvas_shape[1])
    y1 = min(math.ceil(dst[:, 1].max()) + 2, canvas_shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    Hl = trans(-x0, -y0) @ H
    size = (x1 - x0, y1 - y0)
    if patch.ndim == 2:
        patch = cv2.cvtColor(patch, cv2.COLOR_GRAY2BGR)
    warped = cv2.warpPerspective(patch, Hl, size, flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    if mask is None:
        mask = np.full((h, w), 255, np.uint8)
    alpha = cv2.warpPerspective(mask, Hl, size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return x0, y0, warped, alpha


def paste(canvas: np.ndarray, patch: np.ndarray, H: np.ndarray, mask: np.ndarray | None = None,
          opacity: float = 1.0) -> None:
    """Warp ``patch`` into ``canvas`` through homography H (patch pixel -> canvas pixel)."""
    placed = warp_into(canvas.shape, patch, H, mask)
    if placed is None:
        return
    x0, y0, warped, alpha = placed
    a = (alpha.astype(np.float32) / 255.0 * opacity)[..., None]
    region = canvas[y0:y0 + alpha.shape[0], x0:x0 + alpha.shape[1]]
    region[:] = (warped * a + region * (1 - a)).astype(np.uint8)


def rounded_mask(w: int, h: int, radius: int) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    r = max(0, min(radius, w // 2, h // 2))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return mask


def table(width: int, height: int, rng: Rng, base: BGR | None = None) -> np.ndarray:
    """A table top: a base colour with wood-like grain or cloth noise."""
    if base is None:
        base = (int(rng.integers(40, 160)), int(rng.integers(60, 170)), int(rng.integers(80, 200)))
    img = np.empty((height, width, 3), np.float32)
    img[:] = base
    kind = rng.integers(0, 3)
    if kind == 0:  # wood grain along x
        y = np.arange(height, dtype=np.float32)[:, None]
        x = np.arange(width, dtype=np.float32)[None, :]
        f = rng.uniform(0.02, 0.08)
        grain = np.sin(y * f + 3 * np.sin(x * 0.004 + rng.uniform(0, 6))) * rng.uniform(6, 18)
        img += grain[..., None]
    elif kind == 1:  # cloth
        noise: np.ndarray = rng.normal(0, 1, (height // 4 + 1, width // 4 + 1)).astype(np.float32)
        noise = cv2.resize(noise, (width, height), interpolation=cv2.INTER_LINEAR)
        img += (noise * rng.uniform(4, 10))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


SKIN: list[BGR] = [(170, 190, 230), (130, 160, 215), (95, 130, 190), (60, 90, 140), (45, 65, 100)]


def hand_mask(shape: tuple[int, ...], rng: Rng, cx: float, cy: float, size: float,
              angle: float, arm: bool = True) -> np.ndarray:
    """The mask (0 or 255) of a hand seen from above: palm, four fingers along ``angle``
    (degrees), a thumb on a random side and, with ``arm``, the arm out of the picture."""
    mask = np.zeros(shape[:2], np.uint8)
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -uy, ux
    cv2.ellipse(mask, (int(cx), int(cy)), (int(size * 0.5), int(size * 0.42)), angle, 0, 360, 255,
                -1)
    for i, off in enumerate((-0.33, -0.11, 0.11, 0.33)):
        length = size * (0.55, 0.62, 0.6, 0.48)[i] * rng.uniform(0.9, 1.1)
        bx = cx + ux * size * 0.35 + vx * off * size
        by = cy + uy * size * 0.35 + vy * off * size
        ex, ey = bx + ux * length, by + uy * length
        cv2.line(mask, (int(bx), int(by)), (int(ex), int(ey)), 255, max(2, int(size * 0.17)))
        cv2.circle(mask, (int(ex), int(ey)), max(1, int(size * 0.085)), 255, -1)
    if arm:
        far = 4.0 * max(shape[:2])
        cv2.line(mask, (int(cx), int(cy)), (int(cx - ux * far), int(cy - uy * far)), 255,
                 int(size * 0.75))
    side = 1 if rng.random() < 0.5 else -1
    tx, ty = cx + vx * side * size * 0.45, cy + vy * side * size * 0.45
    ex = tx + (ux * 0.5 + vx * side * 0.3) * size
    ey = ty + (uy * 0.5 + vy * side * 0.3) * size
    cv2.line(mask, (int(tx), int(ty)), (int(ex), int(ey)), 255, max(2, int(size * 0.19)))
    return mask


def hand(canvas: np.ndarray, rng: Rng, cx: float, cy: float, size: float, angle: float,
         arm: bool = True) -> None:
    """A hand (palm and fingers) seen from above; fingers point along ``angle`` (degrees), the
    arm runs the other way out of the picture."""
    colour = np.array(SKIN[int(rng.integers(0, len(SKIN)))], np.float32)
    mask = hand_mask(canvas.shape, rng, cx, cy, size, angle, arm)
    soft = cv2.GaussianBlur(mask, (0, 0), 1.2).astype(np.float32)[..., None] / 255.0
    shade = cv2.GaussianBlur(mask, (0, 0), max(1.0, size * 0.15)).astype(np.float32) / 255.0
    skin = colour[None, None, :] * (0.75 + 0.3 * shade[..., None])
    canvas[:] = np.clip(skin * soft + canvas * (1 - soft), 0, 255).astype(np.uint8)


def shadow(img: np.ndarray, rng: Rng, strength: float) -> None:
    h, w = img.shape[:2]
    pts = np.array([[rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h] for _ in range(4)])
    hull = cv2.convexHull(pts.astype(np.int32))
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, hull, 255)
    soft = cv2.GaussianBlur(mask, (0, 0), rng.uniform(8, 30)).astype(np.float32) / 255.0
    img[:] = (img * (1 - strength * soft[..., None])).astype(np.uint8)


def degrade(img: np.ndarray, rng: Rng, hard: bool) -> np.ndarray:
    """Lighting gradient, colour temperature, shadow, low light, blur, noise and JPEG."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    # lighting gradient from one side of the table to the other
    gx, gy = rng.normal(0, 1, 2)
    norm = math.hypot(gx, gy) or 1.0
    ramp = (np.arange(w)[None, :] * gx / norm / w + np.arange(h)[:, None] * gy / norm / h)
    span = rng.uniform(0.15, 0.45 if hard else 0.3)
    light = 1.0 - span * (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1e-6)
    out *= light[..., None].astype(np.float32)
    # colour temperature: warm lamps, cold daylight
    t = rng.uniform(-1, 1)
    gains = np.array([1 - 0.18 * t, 1.0, 1 + 0.15 * t], np.float32)  # B, G, R
    out *= gains * rng.uniform(0.9 if not hard else 0.35, 1.15)
    out = np.clip(out, 0, 255)
    img8: np.ndarray = out.astype(np.uint8)
    if rng.random() < (0.5 if hard else 0.3):
        shadow(img8, rng, rng.uniform(0.2, 0.5 if hard else 0.35))
    sigma = rng.uniform(0.0, 2.6 if hard else 0.8)
    if sigma > 0.3:
        img8 = cv2.GaussianBlur(img8, (0, 0), sigma)
    if hard and rng.random() < 0.3:  # motion blur
        k = int(rng.integers(5, 12))
        kernel: np.ndarray = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        kernel = cv2.warpAffine(kernel, cv2.getRotationMatrix2D((k / 2, k / 2),
                                                               rng.uniform(0, 180), 1), (k, k))
        kernel = (kernel / max(float(kernel.sum()), 1e-6)).astype(np.float32)
        img8 = cv2.filter2D(img8, -1, kernel)
    noise = rng.normal(0, rng.uniform(1, 10 if hard else 4), img8.shape).astype(np.float32)
    img8 = np.clip(img8.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    quality = int(rng.integers(30, 70) if hard else rng.integers(65, 96))
    ok, buf = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))


def view(width: int, height: int, rng: Rng, tilt: float = 0.04, turn: float = 6.0) -> np.ndarray:
    """The camera's view of the table plane: a small rotation, scale and perspective."""
    src = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    jitter = rng.uniform(-tilt, tilt, (4, 2)) * [width, height]
    H_persp = cv2.getPerspectiveTransform(src, (src + jitter).astype(np.float32))
    s = rng.uniform(0.92, 1.02)
    H_turn = trans(width / 2, height / 2) @ rot(rng.uniform(-turn, turn)) @ scale(s) @ trans(
        -width / 2, -height / 2)
    return np.asarray(H_persp @ H_turn)
