"""Calibration from the user's own components.

Real cards and boards look different from any synthetic art, so lane colours, card colours, where
the robot's parts are printed on a card, where the play area lies between its markers and what each
Robot Master value looks like are learnt from at most 12 labelled images (``labels.json`` as in
the dataset contract), and stored as JSON at ``Config.calibration_path``.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import Config
from vision import grid, order, tiles
from vision.colour import ColourModel
from vision.dataset import Example, load_labelled
from vision.errors import CalibrationError

log = logging.getLogger(__name__)
# 2 (2026-11-23): a tiles lane is measured on the surface its rings show (felt2 round); a lane
# size stored by version 1 leaked into tables near a lane's colour and would set too high a bar
VERSION = 2
MAX_IMAGES = 12


@dataclass
class Calibration:
    colours: list[str]
    tiles: tiles.TilesLook
    order: order.OrderLook
    grid: grid.GridLook
    images: int = 0

    @classmethod
    def default(cls, config: Config) -> Calibration:
        model = ColourModel.default(list(config.game.colours), config.game.display)
        return cls(list(config.game.colours), tiles.TilesLook.default(model),
                   order.OrderLook.default(model), grid.GridLook(), 0)

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, "colours": self.colours, "images": self.images,
                "tiles": self.tiles.to_json(), "order": self.order.to_json(),
                "grid": self.grid.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        if data.get("version") != VERSION:
            raise CalibrationError(
                "the stored calibration is from another version; calibrate again")
        return cls(list(data["colours"]), tiles.TilesLook.from_json(data["tiles"]),
                   order.OrderLook.from_json(data["order"]), grid.GridLook.from_json(data["grid"]),
                   int(data.get("images", 0)))

    def save(self, path: Path) -> None:
        """Write atomically: a power cut leaves the old calibration or the new one."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".calibration-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(self.to_json(), fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)

    def summary(self) -> str:
        learnt = []
        if self.images:
            learnt.append(f"lane rings {self.tiles.radii[0]:.2f}-{self.tiles.radii[-1]:.2f}")
            learnt.append("card parts learnt" if self.order.learnt else
                          "robot cards not learnt: asked by touch" if self.order.declines else
                          "card parts: default")
            learnt.append(f"{len(self.grid.classes)} Robot Master examples"
                          if self.grid.learnt else "Robot Master cards: not calibrated")
        return f"calibrated on {self.images} images: " + ", ".join(learnt)


#: what :func:`load_state` found: a calibration in use, none yet, or one set aside (unreadable,
#: from another version, or made for other colour names); the UI says the last two differently
STORED, NONE, SET_ASIDE = "stored", "none", "set aside"


def load(config: Config) -> Calibration:
    """The stored calibration, or the defaults when there is none (or it no longer fits)."""
    return load_state(config)[0]


def load_state(config: Config) -> tuple[Calibration, str]:
    """The calibration to read with, and whether it is the stored one (:data:`STORED`), the
    defaults because none was made yet (:data:`NONE`), or the defaults because the stored one
    cannot be used (:data:`SET_ASIDE`, with the reason in the log)."""
    path = config.calibration_path
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        cal = Calibration.from_json(data)
    except FileNotFoundError:
        return Calibration.default(config), NONE
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("ignoring the calibration at %s (%s)", path, exc)
        return Calibration.default(config), SET_ASIDE
    if cal.colours != list(config.game.colours):
        log.warning("the calibration was made for other colour names; using the defaults")
        return Calibration.default(config), SET_ASIDE
    return cal, STORED


def calibrate(examples: list[Example], config: Config) -> Calibration:
    """Learn from labelled images (at most 12)."""
    if not examples:
        raise CalibrationError("no labelled calibration images were given")
    if len(examples) > MAX_IMAGES:
        raise CalibrationError(f"at most {MAX_IMAGES} calibration images are used, "
                               f"{len(examples)} were given")
    base = Calibration.default(config)
    fallback = base.tiles.model
    tile_examples = [(e.image, e.robots) for e in examples if e.kind == "tiles"]
    order_examples = [(e.image, e.robot) for e in examples if e.kind == "order" and e.robot]
    grid_examples = [(e.image, e.grid) for e in examples if e.kind == "grid"]
    tiles_look = tiles.learn(tile_examples, fallback) if tile_examples else base.tiles
    # cards are printed like the boards: their colours start from the boards' colours
    order_look = (order.learn(order_examples, tiles_look.model) if order_examples
                  else order.OrderLook.default(tiles_look.model))
    grid_look = grid.learn(grid_examples) if grid_examples else base.grid
    return Calibration(list(config.game.colours), tiles_look, order_look, grid_look,
                       len(examples))


def calibrate_dir(folder: Path, config: Config) -> Calibration:
    """Calibrate on ``folder/labels.json`` and its images."""
    return calibrate(load_labelled(folder, config), config)

