"""ArUco markers (DICT_4X4_50): detection, white references and marker-local geometry.

Ids per DESIGN.md: ``3*seat + part`` for the 18 part tiles, ``18 + 4*seat + corner`` for board
corners, 42..45 for the Robot Master play area (clockwise from top-left).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import cv2
import numpy as np

from vision.thresholds import section

TILE_IDS = range(18)
PLAY_AREA_IDS = (42, 43, 44, 45)
#: marker-local corners (the marker spans -0.5..0.5), in ArUco's corner order
LOCAL_CORNERS = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]], np.float32)

_local = threading.local()


def tile_id(seat: int, part: int) -> int:
    return 3 * seat + part


def board_corner_id(seat: int, corner: int) -> int:
    return 18 + 4 * seat + corner


def _detector(window: int) -> cv2.aruco.ArucoDetector:
    # one detector per thread and window: the camera's thread and the UI thread may both read
    cache: dict[int, cv2.aruco.ArucoDetector] = getattr(_local, "detectors", None) or {}
    _local.detectors = cache
    det = cache.get(window)
    if det is None:
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        params.adaptiveThreshWinSizeMin = window
        params.adaptiveThreshWinSizeMax = window
        params.adaptiveThreshConstant = float(section("markers")["threshold_constant"])
        det = cv2.aruco.ArucoDetector(dictionary, params)
        cache[window] = det
    return det


def grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def detect(image: np.ndarray, wanted: range | tuple[int, ...] | None = None,
           complete: Callable[[dict[int, np.ndarray]], bool] | None = None
           ) -> dict[int, np.ndarray]:
    """Marker id -> its 4 corners (float32, 4x2).

    Detection runs with one threshold window after another (``markers.windows``) until
    ``complete(found)`` holds: one pass is enough for a clean picture, and each pass costs as
    much as the rest of a reading. Ids seen twice in one pass are dropped: a duplicate means a
    second set or a false detection, and guessing between them could read the wrong tile.
    """
    g = grey(image)
    found: dict[int, np.ndarray] = {}
    cfg = section("markers")
    # candidates smaller than the smallest marker we promise to read are not worth decoding
    rate = 4.0 * float(cfg["min_side_px"]) / max(g.shape)
    for window in cfg["windows"]:
        det = _detector(int(window))
        params = det.getDetectorParameters()
        if params.minMarkerPerimeterRate != rate:
            params.minMarkerPerimeterRate = rate
            det.setDetectorParameters(params)
        corners, ids, _ = det.detectMarkers(g)
        if ids is not None:
            seen: dict[int, np.ndarray] = {}
            twice: set[int] = set()
            for quad, mid in zip(corners, ids.ravel(), strict=True):
                m = int(mid)
                if wanted is not None and m not in wanted:
                    continue
                if m in seen:
                    twice.add(m)
                seen[m] = quad.reshape(4, 2).astype(np.float32)
            for m, quad in seen.items():
                if m not in twice:
                    found.setdefault(m, quad)
        if found and (complete is None or complete(found)):
            break
    return found


def side(quad: np.ndarray) -> float:
    """Mean side length in pixels."""
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


def local_to_image(quad: np.ndarray) -> np.ndarray:
    """Homography from marker-local coordinates (marker = -0.5..0.5) to image pixels."""
    return cv2.getPerspectiveTransform(LOCAL_CORNERS, quad.astype(np.float32))


def white_black(image: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The white and black of a marker's own print (BGR), the local reference for colours."""
    H = cv2.getPerspectiveTransform(
        np.array([[0, 0], [24, 0], [24, 24], [0, 24]], np.float32), quad.astype(np.float32))
    patch = cv2.warpPerspective(image, H, (24, 24), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    pixels = patch[2:22, 2:22].reshape(-1, 3).astype(np.float32)
    white = np.percentile(pixels, 92, axis=0)
    black = np.percentile(pixels, 8, axis=0)
    return white, black


def normalise(samples: np.ndarray, white: np.ndarray, black: np.ndarray) -> np.ndarray:
    """Colours white-balanced against a local white and black: 0 = black print, 1 = white."""
    span = np.maximum(white - black, 8.0)
    return np.asarray((samples.astype(np.float32) - black) / span)
