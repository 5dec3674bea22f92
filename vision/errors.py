"""Named errors of the vision package. Messages are plain words for the table."""

from __future__ import annotations

from companion.ports import CameraError

__all__ = ["CalibrationError", "CameraError", "NoCardFound", "NoPlayAreaFound", "NoTilesFound",
           "VisionError"]


class VisionError(Exception):
    """Nothing usable was found in an image (the reader declines; the app asks)."""


class NoTilesFound(VisionError):
    """No part tile markers are visible."""


class NoCardFound(VisionError):
    """No robot card is held to the camera."""


class NoPlayAreaFound(VisionError):
    """The Robot Master play-area markers (ids 42..45) are not visible."""


class CalibrationError(ValueError):
    """Calibration images are missing, unlabelled or unusable."""
