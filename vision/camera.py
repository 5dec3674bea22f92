"""The camera port's adapter: a frame source, the stored calibration, the readers and the
stability filter, behind :class:`companion.ports.Camera`.

Privacy: with ``secret=True`` the frame never leaves this object (only the reading does), nothing
is written to disk and the log says only "card read".
"""

from __future__ import annotations

import dataclasses
import logging
import threading

import cv2
import numpy as np

from companion.config import Config
from companion.ports import (
    CameraError,
    GridObservation,
    Observation,
    OrderObservation,
    ReadingKind,
    TilesObservation,
)
from vision import calibration as calibration_module
from vision.calibration import Calibration
from vision.errors import VisionError
from vision.read import nothing, read_region
from vision.sources import FrameSource
from vision.stability import Stability, thumbnail
from vision.thresholds import thresholds

log = logging.getLogger(__name__)


class FrameCamera:
    """Reads the table from any frame source."""

    def __init__(self, source: FrameSource, cal: Calibration,
                 calibration_state: str = calibration_module.STORED) -> None:
        self.source = source
        self.calibration = cal
        #: ``vision.calibration.load_state``'s word for it, so the app can say what to do
        self.calibration_state = calibration_state
        self._stability = Stability()
        self._lock = threading.Lock()
        cfg = thresholds().get("idle", {})  # an older thresholds file may not have it
        self._idle_change = float(cfg.get("change", 16.0))
        self._idle_pixels = int(cfg.get("pixels", 3))
        self._idle_skips = int(cfg.get("skips", 7))
        # (kind, secret, thumbnail of the frame that read nothing, frames skipped since)
        self._idle: tuple[ReadingKind, bool, np.ndarray, int] | None = None

    def read(self, kind: ReadingKind, *, secret: bool = False) -> Observation:
        with self._lock:
            frame = self.source.frame()
            obs = self.read_frame(frame, kind, secret=secret)
            del frame
            return obs

    def read_frame(self, frame: np.ndarray, kind: ReadingKind, *, secret: bool) -> Observation:
        small = thumbnail(frame)
        if self._unchanged_since_nothing(kind, secret, small):
            # The app reads the camera several times a second while it waits (for the order
            # card, for tiles); running the readers on the same empty table each time is what
            # kept the idle device busy. Nothing read stays nothing read until the picture
            # changes, and is re-read now and then all the same (light drifts slowly).
            obs, region = nothing(kind), None
        else:
            try:
                obs, region = read_region(frame, kind, self.calibration)
            except VisionError as exc:
                obs, region = nothing(kind), None
                if not secret:
                    log.debug("%s: %s", kind, exc)
            self._idle = (kind, secret, small, 0) if read_nothing(obs) else None
        stable = self._stability.update(obs, frame, region, small=small)
        obs = dataclasses.replace(obs, stable=stable)
        if secret:
            log.info("card read")
        else:
            log.debug("%s reading: %s", kind, obs)
        return obs

    def _unchanged_since_nothing(self, kind: ReadingKind, secret: bool, small: np.ndarray) -> bool:
        """True when the last full read of this kind found nothing and no part of the picture
        has changed since (a card, a tile or a hand coming into view changes a patch of the
        thumbnail by far more than sensor noise does)."""
        if self._idle is None:
            return False
        idle_kind, idle_secret, before, skipped = self._idle
        if (idle_kind, idle_secret) != (kind, secret) or before.shape != small.shape:
            return False
        if skipped >= self._idle_skips:
            return False
        changed = int(np.count_nonzero(cv2.absdiff(small, before) > self._idle_change))
        if changed >= self._idle_pixels:
            return False
        self._idle = (idle_kind, idle_secret, before, skipped + 1)
        return True

    def frame(self) -> np.ndarray:
        """A frame for calibration and the set-up preview; never during a secret scan (the UI
        asks for frames only on the camera set-up screen)."""
        with self._lock:
            return self.source.frame().copy()

    def lock_exposure(self) -> None:
        """Hold exposure and white balance where the source allows (after calibration)."""
        try:
            self.source.lock()
        except Exception as exc:  # a camera that cannot lock still reads; say so in the log
            log.warning("could not lock exposure and white balance on the %s: %s",
                        self.source.name, exc)

    def set_calibration(self, cal: Calibration) -> None:
        with self._lock:
            self.calibration = cal
            self.calibration_state = calibration_module.STORED
            self._stability.reset()
            self._idle = None

    def close(self) -> None:
        self.source.close()


def read_nothing(obs: Observation) -> bool:
    """True when a reading holds nothing at all (every robot and cell declined)."""
    if isinstance(obs, TilesObservation):
        return all(r.robot is None for r in obs.robots.values())
    if isinstance(obs, OrderObservation):
        return obs.reading.robot is None
    if isinstance(obs, GridObservation):
        return all(c <= 0.0 for row in obs.confidence for c in row)
    return False


def open_source(config: Config) -> FrameSource | None:
    """The configured frame source; None when there is none ("none", or auto finds nothing)."""
    from vision import sources

    cam = config.camera
    if cam.source == "none":
        return None
    if cam.source == "picamera2":
        return sources.PiCameraSource(cam.width, cam.height)
    if cam.source == "opencv":
        return sources.OpenCVSource(cam.device, cam.width, cam.height)
    if cam.source == "replay":
        if not cam.folder:
            raise CameraError("camera.source is replay but camera.folder names no images")
        return sources.ReplaySource(cam.folder)
    # auto: the Pi camera, else a USB camera, else play by touch
    if sources.pi_camera_present():
        try:
            return sources.PiCameraSource(cam.width, cam.height)
        except CameraError as exc:
            log.warning("%s", exc)
    if sources.usb_devices():
        try:
            return sources.OpenCVSource(cam.device, cam.width, cam.height)
        except CameraError as exc:
            log.warning("%s", exc)
    return None


def make_camera(config: Config) -> FrameCamera | None:
    source = open_source(config)
    if source is None:
        return None
    cal, state = calibration_module.load_state(config)
    camera = FrameCamera(source, cal, state)
    if cal.images and config.camera.source != "replay":
        camera.lock_exposure()
    return camera


def probe(config: Config) -> tuple[bool, str]:
    """For ``doctor``: can a frame be had, and is the camera calibrated? Never raises."""
    try:
        source = open_source(config)
    except CameraError as exc:
        return False, str(exc)
    except Exception as exc:  # doctor must report, not crash
        return False, f"the camera cannot be opened ({exc})"
    if source is None:
        if config.camera.source == "none":
            return True, "no camera configured (camera.source = none); the game is played by touch"
        return False, "no camera found (no Pi camera, no /dev/video*); the game is played by touch"
    try:
        frame = source.frame()
        h, w = frame.shape[:2]
    except CameraError as exc:
        return False, str(exc)
    finally:
        source.close()
    path = config.calibration_path
    calibrated = "calibrated" if path.is_file() else \
        "not calibrated yet (run: robo-companion vision calibrate DIR)"
    return True, f"{source.name} gives {w}x{h} pictures; {calibrated}"
