"""The one place that wires adapters to the core (cosmicpython's bootstrap).

``robo-companion run`` builds the real adapters from configuration; ``robo-companion demo`` builds
the simulated siren board and the staged camera. Environment variables let tests force a choice
without a config file: ``ROBO_COMPANION_SIREN`` (auto, serial, gpio, simulated, none) and
``ROBO_COMPANION_CAMERA`` (auto, picamera2, opencv, replay, none, staged).

Nothing here opens hardware at import time; adapter packages are imported only when chosen, and a
missing or failing adapter leaves the game playable by touch (its problem is reported in
``Wired.problems`` in plain words).
"""

from __future__ import annotations

import dataclasses
import logging
import os
from dataclasses import dataclass, field
from typing import Any

from companion.config import Config
from companion.fakes import RandomDice
from companion.journal import Journal
from companion.ports import Camera, SirenBoard
from companion.service import TableService

log = logging.getLogger(__name__)


@dataclass
class Wired:
    service: TableService
    config: Config
    #: the simulator behind a simulated board (has ``press(station)``), for the demo's keys
    simulator: Any = None
    #: the staged camera of the demo (``show_tiles``, ``show_order``, ``show_grid``)
    staged_camera: Any = None
    problems: list[str] = field(default_factory=list)


def build(config: Config, *, demo: bool = False, journal: Journal | None = None) -> Wired:
    """Build the service with adapters chosen from config (and the environment)."""
    siren_choice = os.environ.get("ROBO_COMPANION_SIREN") or ("simulated" if demo else None)
    camera_choice = os.environ.get("ROBO_COMPANION_CAMERA") or ("staged" if demo else None)
    if siren_choice:
        config = dataclasses.replace(
            config, siren=dataclasses.replace(config.siren, backend=siren_choice)
        )
    problems: list[str] = []
    board, simulator = _board(config, problems)
    camera, staged = _camera(config, camera_choice, problems)
    service = TableService(
        journal if journal is not None else Journal(config.journal_path),
        board=board,
        camera=camera,
        dice=RandomDice(),
    )
    return Wired(service, config, simulator, staged, problems)


def _board(config: Config, problems: list[str]) -> tuple[SirenBoard | None, Any]:
    if config.siren.backend == "none":
        return None, None
    try:
        import hardware
    except ImportError as exc:
        problems.append(f"The siren board needs the hardware extra ({exc.name}); play by touch.")
        return None, None
    try:
        board = hardware.make_board(config.siren)
    except Exception as exc:
        problems.append(f"The siren board is not available: {exc}")
        return None, None
    if board is None:
        if config.siren.backend != "auto":
            problems.append("The siren board was not found; play by touch.")
        return None, None
    return board, getattr(board, "simulator", None)


def _camera(config: Config, choice: str | None, problems: list[str]) -> tuple[Camera | None, Any]:
    if choice == "none" or (choice is None and config.camera.source == "none"):
        return None, None
    try:
        import vision
    except ImportError as exc:
        problems.append(f"The camera needs the vision extra ({exc.name}); play by touch.")
        return None, None
    try:
        if choice == "staged":
            from vision.staged import StagedCamera  # type: ignore[import-not-found,unused-ignore]

            staged = StagedCamera(config)
            return staged, staged
        if choice:
            config = dataclasses.replace(
                config, camera=dataclasses.replace(config.camera, source=choice)
            )
        camera = vision.make_camera(config)  # type: ignore[attr-defined,unused-ignore]
    except Exception as exc:
        problems.append(f"The camera is not available: {exc}")
        return None, None
    if camera is None and config.camera.source != "auto":
        problems.append("No camera was found; play by touch.")
    return camera, None
