"""The camera: a pose above the table, a pinhole projection, then the lens's barrel distortion.

Table coordinates are millimetres with x to the right and y towards the bottom of the picture;
z points down into the table, so the lens sits at z = -height. Pictures are first drawn through
an ideal pinhole onto a larger frame (``MARGIN``), and the distortion then samples that frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .paint import F32, F64
from .style import Camera

MARGIN = 1.2


def _rx(a: float) -> F64:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], np.float64)


def _ry(a: float) -> F64:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]], np.float64)


def _rz(a: float) -> F64:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)


@dataclass(frozen=True)
class View:
    camera: Camera
    R: F64          # world -> camera rotation
    centre: F64     # lens position (mm)

    @property
    def f(self) -> float:
        return self.camera.focal()

    @property
    def frame(self) -> tuple[int, int]:
        """Size of the pinhole frame the picture is drawn on before distortion."""
        return int(self.camera.width * MARGIN), int(self.camera.height * MARGIN)

    def K(self) -> F64:
        w, h = self.frame
        return np.array([[self.f, 0, w / 2], [0, self.f, h / 2], [0, 0, 1]], np.float64)

    def table_homography(self) -> F64:
        """Table mm (x, y, 1) -> pinhole frame pixels."""
        cx, cy, cz = self.centre
        T = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, -cz]], np.float64)
        return np.asarray(self.K() @ self.R @ T, np.float64)

    def project(self, points_cam: F64) -> F64:
        """Camera-frame 3D points (N, 3) -> pinhole frame pixels (N, 2)."""
        p = points_cam @ self.K().T
        return np.asarray(p[:, :2] / p[:, 2:], np.float64)

    def px_per_mm(self, depth: float) -> float:
        return self.f / depth

    def footprint(self, pad: float = 1.0) -> tuple[float, float, float, float]:
        """Table box (mm) seen by the pinhole frame, enlarged by ``pad``."""
        w, h = self.frame
        Hinv = np.linalg.inv(self.table_homography())
        corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ Hinv.T
        xy = corners[:, :2] / corners[:, 2:]
        (x0, y0), (x1, y1) = xy.min(axis=0), xy.max(axis=0)
        mx, my = (x1 - x0) * (pad - 1) / 2, (y1 - y0) * (pad - 1) / 2
        return float(x0 - mx), float(y0 - my), float(x1 + mx), float(y1 + my)

    def render_table(self, canvas: F32, origin: tuple[float, float], ppm: float) -> F32:
        A = np.array([[1 / ppm, 0, origin[0]], [0, 1 / ppm, origin[1]], [0, 0, 1]], np.float64)
        M = self.table_homography() @ A
        return np.asarray(cv2.warpPerspective(canvas, M, self.frame, flags=cv2.INTER_LINEAR,
                                              borderMode=cv2.BORDER_REFLECT), np.float32)

    def distort(self, frame: F32) -> F32:
        """The final picture: each of its pixels looks up where the lens bent it from."""
        cam = self.camera
        u, v = np.meshgrid(np.arange(cam.width, dtype=np.float32),
                           np.arange(cam.height, dtype=np.float32))
        xd = (u - cam.width / 2) / self.f
        yd = (v - cam.height / 2) / self.f
        x, y = xd.copy(), yd.copy()
        for _ in range(6):
            r2 = x * x + y * y
            k = 1 + cam.k1 * r2 + cam.k2 * r2 * r2
            x, y = xd / k, yd / k
        w, h = self.frame
        mx = (x * self.f + w / 2).astype(np.float32)
        my = (y * self.f + h / 2).astype(np.float32)
        return np.asarray(cv2.remap(frame, mx, my, cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REFLECT), np.float32)


def look_down(camera: Camera, target: tuple[float, float], height: float, pitch: float,
              roll: float, yaw: float) -> View:
    """A lens ``height`` mm above the table whose optical axis meets the table at ``target``;
    angles in degrees (pitch and roll tilt the view, yaw turns it)."""
    R = _rz(math.radians(yaw)) @ _rx(math.radians(pitch)) @ _ry(math.radians(roll))
    axis = R.T @ np.array([0.0, 0.0, 1.0])
    centre = np.array([target[0], target[1], 0.0]) - axis * (height / axis[2])
    return View(camera, R, centre)
