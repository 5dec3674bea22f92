"""Guided calibration for the UI: eleven prompts, one picture each, then learn and store.

The UI drives it::

    guide = GuidedCalibration(config, camera)      # camera from vision.make_camera(config)
    for step in guide.steps:                       # or: while guide.current is not None
        show(step.prompt)                          # e.g. "Hold the card red-green-blue ..."
        ok, message = guide.capture()              # grabs a frame, checks it, keeps it in memory
        ...                                        # on not ok: show message, let them retry
    message = guide.finish()                       # learns, stores at Config.calibration_path

Pictures stay in memory and are dropped after ``finish``; nothing but the calibration is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from companion.config import Config
from companion.ports import CameraError
from vision import grid, markers, order
from vision.calibration import Calibration, calibrate
from vision.dataset import Example
from vision.errors import CalibrationError, VisionError

#: why a step's picture was not taken; the UI translates these (they are msgids of its catalogs)
NO_SEAT = "No seat shows all three tiles. Check the light and try again."
NO_CARD = "The card is not in view. Hold it flat, facing the camera."
NO_AREA = "The play area's corner markers are not all in view."
MESSAGES = (NO_SEAT, NO_CARD, NO_AREA)

#: Robot Master layouts for the three grid steps (top row first): every value at least twice
GRID_LAYOUTS: list[list[list[int | None]]] = [
    [[None] * 5, [None, None, 5, None, None], [0, 1, 2, 3, 4], [None, None, 5, None, None],
     [None] * 5],
    [[None, None, 4, None, None], [None, None, 3, None, None], [None, 1, 0, 5, None],
     [None, None, 2, None, None], [None, None, 1, None, None]],
    [[None] * 5, [None, 0, 2, 4, None], [None, 1, 3, 5, None], [None, 4, 2, 0, None], [None] * 5],
]


@dataclass
class GuidedStep:
    kind: str  # tiles, order or grid
    prompt: str  # what to ask the players, in plain words
    robot: str | None = None
    lanes: tuple[int, int, int] | None = None  # lane index per part, for tiles
    grid: list[list[int | None]] = field(default_factory=list)


def make_steps(colours: list[str]) -> list[GuidedStep]:
    steps = []
    for i in range(4):
        lanes = (i % 4, (i + 1) % 4, (i + 2) % 4)
        head, torso, legs = (colours[k] for k in lanes)
        steps.append(GuidedStep("tiles", f"Every player: head tile on the {head} lane, torso on "
                                         f"the {torso} lane, legs on the {legs} lane.",
                                lanes=lanes))
    for i in range(4):
        robot = "-".join(colours[(i + p) % 4] for p in range(3))
        steps.append(GuidedStep("order", f"Hold the card {robot} up to the camera.", robot=robot))
    for layout in GRID_LAYOUTS:
        cells = "; ".join(
            f"row {5 - r}: " + " ".join("." if v is None else str(v) for v in row)
            for r, row in enumerate(layout) if any(v is not None for v in row))
        steps.append(GuidedStep("grid", f"Lay Robot Master cards in the play area: {cells}.",
                                grid=layout))
    return steps


class CalibratableCamera(Protocol):
    """What guided calibration needs of a camera (:class:`vision.camera.FrameCamera`, or the
    demo's staged camera)."""

    def frame(self) -> np.ndarray: ...

    def set_calibration(self, cal: Calibration) -> None: ...

    def lock_exposure(self) -> None: ...


class GuidedCalibration:
    """Calibration driven step by step from the UI (see the module docstring)."""

    def __init__(self, config: Config, camera: CalibratableCamera) -> None:
        self.config = config
        self.camera = camera
        self.steps = make_steps(list(config.game.colours))
        self._examples: list[Example] = []
        self._index = 0
        #: after :meth:`finish`: the card pictures taught nothing, so order cards are declined
        #: (asked by touch) until the card steps are taken again
        self.cards_declined = False

    @property
    def current(self) -> GuidedStep | None:
        return self.steps[self._index] if self._index < len(self.steps) else None

    @property
    def taken(self) -> int:
        """Pictures kept so far."""
        return len(self._examples)

    @property
    def progress(self) -> tuple[int, int]:
        return self._index, len(self.steps)

    def skip(self) -> None:
        """Leave this step out (e.g. no Robot Master cards at hand)."""
        self._index += 1

    def capture(self) -> tuple[bool, str]:
        """Take this step's picture. (True, "") moves on; (False, why) asks to retry."""
        step = self.current
        if step is None:
            return False, "all steps are done"
        try:
            frame = self.camera.frame()
        except CameraError as exc:
            return False, str(exc)
        colours = list(self.config.game.colours)
        name = f"step-{self._index + 1}.png"
        if step.kind == "tiles":
            found = markers.detect(frame, markers.TILE_IDS)
            seats = sorted(s for s in range(6)
                           if all(markers.tile_id(s, p) in found for p in range(3)))
            if not seats:
                return False, NO_SEAT
            assert step.lanes is not None
            robot = "-".join(colours[k] for k in step.lanes)
            self._examples.append(Example(name, "tiles", frame, robots={s: robot for s in seats}))
        elif step.kind == "order":
            try:
                order.find_card(frame)
            except VisionError:
                return False, NO_CARD
            self._examples.append(Example(name, "order", frame, robot=step.robot))
        else:
            try:
                grid.find_area(frame)
            except VisionError:
                return False, NO_AREA
            self._examples.append(Example(name, "grid", frame, grid=step.grid))
        self._index += 1
        return True, ""

    def finish(self) -> str:
        """Learn from the pictures, store the calibration and use it; returns a summary."""
        if not self._examples:
            raise CalibrationError("no pictures were taken")
        cal = calibrate(self._examples, self.config)
        cal.save(self.config.calibration_path)
        self.camera.set_calibration(cal)
        self.camera.lock_exposure()
        self._examples.clear()
        self.cards_declined = cal.order.declines
        return cal.summary()

