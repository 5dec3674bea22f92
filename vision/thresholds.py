"""The readers' thresholds, from ``vision/thresholds.toml`` (or a file named in
``$ROBO_COMPANION_VISION_THRESHOLDS``)."""

from __future__ import annotations

import functools
import os
import tomllib
from pathlib import Path
from typing import Any

ENV = "ROBO_COMPANION_VISION_THRESHOLDS"
DEFAULT = Path(__file__).with_name("thresholds.toml")


@functools.cache
def _load(path: str) -> dict[str, dict[str, Any]]:
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def thresholds() -> dict[str, dict[str, Any]]:
    return _load(os.environ.get(ENV) or str(DEFAULT))


def section(name: str) -> dict[str, Any]:
    return thresholds()[name]
