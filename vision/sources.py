"""Frame sources: the Pi camera (picamera2), USB cameras (OpenCV) and replays (an image folder or
a video). Each gives the newest frame as BGR uint8 and raises :class:`CameraError` in plain words
when none can be had. Nothing is opened at import time.

picamera2 comes from the OS package ``python3-picamera2`` (it is tied to libcamera and is not on
PyPI), so on a Pi the virtualenv must see the system packages:
``python3 -m venv --system-site-packages .venv`` (see docs/vision.md).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from companion.ports import CameraError

log = logging.getLogger(__name__)
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp"}


class FrameSource(Protocol):
    name: str

    def frame(self) -> np.ndarray: ...

    def lock(self) -> None: ...

    def close(self) -> None: ...


class OpenCVSource:
    """A USB camera. A grabber thread keeps only the newest frame (the driver's buffer is one
    frame too), so a reading is never made from a picture taken seconds ago."""

    def __init__(self, device: str, width: int, height: int, timeout_s: float = 3.0) -> None:
        self.name = f"USB camera {device}"
        target: int | str = int(device) if device.isdigit() else device
        _quiet_opencv()
        self._cap = cv2.VideoCapture(target)
        if not self._cap.isOpened():
            raise CameraError(f"no camera answers at {device}; check the cable or set "
                              "camera.device in the config")
        self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._timeout = timeout_s
        self._latest: np.ndarray | None = None
        self._seq = 0
        self._taken = 0
        self._error: str | None = None
        self._cond = threading.Condition()
        self._running = True
        self._thread = threading.Thread(target=self._grab, name="camera-grabber", daemon=True)
        self._thread.start()

    def _grab(self) -> None:
        failures = 0
        while self._running:
            ok, frame = self._cap.read()
            with self._cond:
                if ok and frame is not None:
                    failures = 0
                    self._latest = frame
                    self._seq += 1
                    self._cond.notify_all()
                else:
                    failures += 1
                    if failures >= 30:
                        self._error = f"the {self.name} stopped sending pictures (unplugged?)"
                        self._cond.notify_all()
                        return
            if not ok:
                time.sleep(0.05)

    def frame(self) -> np.ndarray:
        """The newest frame, one not handed out before (waits for it)."""
        deadline = time.monotonic() + self._timeout
        with self._cond:
            while self._seq == self._taken and self._error is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CameraError(f"the {self.name} sends no pictures")
                self._cond.wait(left)
            if self._error is not None:
                raise CameraError(self._error)
            assert self._latest is not None
            self._taken = self._seq
            return self._latest

    def lock(self) -> None:
        # V4L2 takes 1 for manual exposure; older OpenCV builds map 0.25 to the same
        if not self._cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1):
            self._cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25)
        self._cap.set(cv2.CAP_PROP_AUTO_WB, 0)

    def close(self) -> None:
        self._running = False
        self._thread.join(timeout=2.0)
        self._cap.release()


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (imported only here)."""

    def __init__(self, width: int, height: int) -> None:
        self.name = "Pi camera"
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise CameraError("the Pi camera needs picamera2 (the OS package python3-picamera2, "
                              "with a venv made --system-site-packages)") from None
        try:
            if not Picamera2.global_camera_info():
                raise CameraError("no Pi camera is connected")
            self._cam = Picamera2()
            # "RGB888" is laid out B, G, R in memory: what OpenCV expects
            config = self._cam.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"}, buffer_count=2)
            self._cam.configure(config)
            self._cam.start()
        except CameraError:
            raise
        except Exception as exc:  # libcamera raises many kinds; the user needs one sentence
            raise CameraError(f"the Pi camera cannot be started ({exc})") from None

    def frame(self) -> np.ndarray:
        try:
            frame: np.ndarray = self._cam.capture_array("main")  # waits for the next frame
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped sending pictures ({exc})") from None
        return frame

    def lock(self) -> None:
        md = self._cam.capture_metadata()
        controls = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in md:
                controls[key] = md[key]
        self._cam.set_controls(controls)

    def close(self) -> None:
        try:
            self._cam.stop()
            self._cam.close()
        except Exception:  # closing a camera that is already gone is not worth a traceback
            log.debug("closing the Pi camera failed", exc_info=True)


class ReplaySource:
    """Frames from an image folder (sorted by name, in a loop) or a video file (looped)."""

    def __init__(self, path: str) -> None:
        self.name = f"replay {path}"
        self._path = Path(path).expanduser()
        self._images: list[Path] = []
        self._video: cv2.VideoCapture | None = None
        self._next = 0
        if self._path.is_dir():
            self._images = sorted(p for p in self._path.iterdir()
                                  if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._images:
                raise CameraError(f"the replay folder {self._path} holds no images")
        elif self._path.is_file():
            self._video = cv2.VideoCapture(str(self._path))
            if not self._video.isOpened():
                raise CameraError(f"the replay video {self._path} cannot be opened")
        else:
            raise CameraError(f"the replay source {self._path} does not exist")

    def frame(self) -> np.ndarray:
        if self._video is not None:
            ok, frame = self._video.read()
            if not ok:
                self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._video.read()
            if not ok or frame is None:
                raise CameraError(f"the replay video {self._path} gives no frames")
            return frame
        path = self._images[self._next % len(self._images)]
        self._next += 1
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraError(f"{path} is not a readable image")
        return image

    def lock(self) -> None:
        pass

    def close(self) -> None:
        if self._video is not None:
            self._video.release()


def _quiet_opencv() -> None:
    # OpenCV's own warnings on a missing device would reach the user as noise; we say it better
    with contextlib.suppress(AttributeError):
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)


def pi_camera_present() -> bool:
    try:
        from picamera2 import Picamera2
    except ImportError:
        return False
    try:
        return bool(Picamera2.global_camera_info())
    except Exception:
        return False


def usb_devices() -> list[str]:
    return sorted(str(p) for p in Path("/dev").glob("video*"))
