"""Vision datasets (the evaluation contract of DESIGN.md): ``labels.json`` beside images.

``{"t01.png": {"kind": "tiles", "robots": {"0": "red-green-blue"}},
   "o01.png": {"kind": "order", "robot": "blue-red-red"},
   "g01.png": {"kind": "grid", "grid": [[null, ...], ...]}}`` (grid: top row first).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.config import Config
from companion.errors import CompanionError
from vision.errors import CalibrationError

KINDS = ("tiles", "order", "grid")


@dataclass
class Example:
    name: str
    kind: str
    image: np.ndarray
    robots: dict[int, str] = field(default_factory=dict)
    robot: str | None = None
    grid: list[list[int | None]] = field(default_factory=list)


def parse_label(name: str, label: Any, config: Config) -> dict[str, Any]:
    """Check one label; raise :class:`CalibrationError` naming the image and the field."""
    palette = config.palette
    if not isinstance(label, dict) or label.get("kind") not in KINDS:
        raise CalibrationError(f"{name}: 'kind' must be one of {', '.join(KINDS)}")
    kind = label["kind"]
    try:
        if kind == "tiles":
            robots = label.get("robots")
            if not isinstance(robots, dict):
                raise CalibrationError(f"{name}: 'robots' must map seats to robots")
            out: dict[int, str] = {}
            for seat, robot in robots.items():
                s = int(seat)
                if not 0 <= s <= 5:
                    raise CalibrationError(f"{name}: seat {seat} is not 0..5")
                out[s] = str(palette.parse(robot))
            return {"kind": kind, "robots": out}
        if kind == "order":
            return {"kind": kind, "robot": str(palette.parse(label.get("robot")))}
        rows = label.get("grid")
        if not (isinstance(rows, list) and len(rows) == 5
                and all(isinstance(r, list) and len(r) == 5 for r in rows)):
            raise CalibrationError(f"{name}: 'grid' must be 5 rows of 5 cells")
        for row in rows:
            for v in row:
                if v is not None and (not isinstance(v, int) or not 0 <= v <= 5):
                    raise CalibrationError(f"{name}: grid values must be 0..5 or null, got {v!r}")
        return {"kind": kind, "grid": rows}
    except (CompanionError, ValueError) as exc:
        if isinstance(exc, CalibrationError):
            raise
        raise CalibrationError(f"{name}: {exc}") from None


def read_labels(folder: Path) -> dict[str, Any]:
    path = folder / "labels.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationError(f"{path} does not exist") from None
    except (OSError, ValueError) as exc:
        raise CalibrationError(f"{path} cannot be read ({exc})") from None
    if not isinstance(data, dict):
        raise CalibrationError(f"{path}: expected an object mapping image names to labels")
    return data


def read_image(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise CalibrationError(f"{path} is not a readable image")
    return image


def load_labelled(folder: Path, config: Config) -> list[Example]:
    examples = []
    for name, raw in sorted(read_labels(folder).items()):
        label = parse_label(name, raw, config)
        image = read_image(folder / name)
        examples.append(Example(name, label["kind"], image, label.get("robots", {}),
                                label.get("robot"), label.get("grid", [])))
    return examples


def label_json(example: Example) -> dict[str, Any]:
    if example.kind == "tiles":
        return {"kind": "tiles", "robots": {str(s): r for s, r in sorted(example.robots.items())}}
    if example.kind == "order":
        return {"kind": "order", "robot": example.robot}
    return {"kind": "grid", "grid": example.grid}


def write(folder: Path, examples: list[Example]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    labels = {}
    for e in examples:
        cv2.imwrite(str(folder / e.name), e.image)
        labels[e.name] = label_json(e)
    (folder / "labels.json").write_text(json.dumps(labels, indent=1) + "\n", encoding="utf-8")
