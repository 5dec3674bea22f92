"""Laying sprites on a surface: rotation, alpha, and the soft shadow a thin piece casts."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .paint import F32, F64


@dataclass(frozen=True)
class Shadow:
    dx: float        # mm, away from the light
    dy: float
    blur: float      # mm
    strength: float  # 0..1 darkening right under the piece


def paste(dst: F32, sprite: F32, ppm: float, cx: float, cy: float, angle: float = 0.0,
          shadow: Shadow | None = None, origin: tuple[float, float] = (0.0, 0.0)) -> F64:
    """Paste ``sprite`` (same pixels per mm as ``dst``) centred on (cx, cy) mm, turned by
    ``angle`` degrees anticlockwise on screen; ``dst`` is BGR or BGRA. Returns the four corners
    (mm, clockwise from the sprite's own top-left)."""
    sh, sw = sprite.shape[:2]
    tx, ty = (cx - origin[0]) * ppm, (cy - origin[1]) * ppm
    M = cv2.getRotationMatrix2D((sw / 2, sh / 2), angle, 1.0)
    M[0, 2] += tx - sw / 2
    M[1, 2] += ty - sh / 2
    src_corners = np.array([[0, 0, 1], [sw, 0, 1], [sw, sh, 1], [0, sh, 1]], np.float64)
    corners = src_corners @ M.T
    pad = 4.0
    if shadow is not None:
        pad += (abs(shadow.dx) + abs(shadow.dy) + 3 * shadow.blur) * ppm
    H, W = dst.shape[:2]
    x0 = int(max(0, np.floor(corners[:, 0].min() - pad)))
    y0 = int(max(0, np.floor(corners[:, 1].min() - pad)))
    x1 = int(min(W, np.ceil(corners[:, 0].max() + pad)))
    y1 = int(min(H, np.ceil(corners[:, 1].max() + pad)))
    if x1 > x0 and y1 > y0:
        roi = dst[y0:y1, x0:x1]
        Mr = M.copy()
        Mr[0, 2] -= x0
        Mr[1, 2] -= y0
        size = (x1 - x0, y1 - y0)
        if shadow is not None:
            Ms = Mr.copy()
            Ms[0, 2] += shadow.dx * ppm
            Ms[1, 2] += shadow.dy * ppm
            a = cv2.warpAffine(np.ascontiguousarray(sprite[..., 3]), Ms, size)
            k = max(0.5, shadow.blur * ppm)
            a = cv2.GaussianBlur(a, (0, 0), k)
            roi[..., :3] *= (1 - shadow.strength * a)[..., None]
        warped = cv2.warpAffine(sprite, Mr, size, flags=cv2.INTER_LINEAR)
        alpha = warped[..., 3:]
        roi[..., :3] = roi[..., :3] * (1 - alpha) + warped[..., :3] * alpha
        if dst.shape[2] == 4:
            roi[..., 3:] = roi[..., 3:] + alpha * (1 - roi[..., 3:])
    return np.asarray(corners / ppm + np.array(origin), np.float64)


def rects_overlap(a: F64, b: F64) -> bool:
    """Whether two convex quads (4x2) overlap (separating-axis test)."""
    for quad in (a, b):
        for i in range(4):
            edge = quad[(i + 1) % 4] - quad[i]
            axis = np.array([-edge[1], edge[0]])
            pa, pb = a @ axis, b @ axis
            if pa.max() < pb.min() or pb.max() < pa.min():
                return False
    return True
