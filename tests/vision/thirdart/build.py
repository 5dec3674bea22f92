"""Writing a dataset in the layout of DESIGN.md: ``calibration/`` (12 labelled pictures, four of
each kind, in ordinary light) and ``test/`` (``n`` pictures of each kind), each with labels.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .light import jpeg
from .scenes import Shot, grid_shot, order_shot, tiles_shot
from .style import COLOURS, Style, make_style


def _save(folder: Path, name: str, shot: Shot, labels: dict[str, Any]) -> None:
    (folder / name).write_bytes(jpeg(shot.image, shot.quality))
    labels[name] = shot.label


def as_sent(shot: Shot) -> np.ndarray:
    """The shot's picture as the dataset stores it and a camera sends it: JPEG at the shot's
    quality, decoded (what a test reads when it draws one picture of a set again)."""
    data = np.frombuffer(jpeg(shot.image, shot.quality), np.uint8)
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR))


def grid_truth(shot: Shot) -> list[int | None]:
    """A grid shot's label, the 25 cells top row first."""
    return [v for row in shot.label["grid"] for v in row]


def _write_labels(folder: Path, labels: dict[str, Any]) -> None:
    text = json.dumps(labels, indent=1, sort_keys=True)
    (folder / "labels.json").write_text(text + "\n", encoding="utf-8")


def calibration(folder: Path, style: Style, rng: np.random.Generator, grids: bool = True) -> None:
    """Four pictures of each kind that between them show every lane colour under tiles, every
    colour in each part of a robot card, and every Robot Master value both ways up (without
    ``grids``, the tiles and order pictures alone: the grid pictures are drawn last)."""
    folder.mkdir(parents=True, exist_ok=True)
    labels: dict[str, Any] = {}
    seen: set[str] = set()
    for k in range(4):
        for _ in range(20):
            shot = tiles_shot(style, rng, hard=False)
            got = {c for r in shot.label["robots"].values() for c in r.split("-")}
            if k < 3 or set(COLOURS) <= seen | got:
                break
        seen |= {c for r in shot.label["robots"].values() for c in r.split("-")}
        _save(folder, f"cal-t{k + 1:02d}.jpg", shot, labels)
    order = list(COLOURS)
    for k in range(4):
        robot = (order[k], order[(k + 1) % 4], order[(k + 2) % 4])
        _save(folder, f"cal-o{k + 1:02d}.jpg", order_shot(style, rng, hard=False, robot=robot),
              labels)
    for k in range(4 if grids else 0):
        _save(folder, f"cal-g{k + 1:02d}.jpg",
              grid_shot(style, rng, hard=False, count=int(rng.integers(17, 26))), labels)
    _write_labels(folder, labels)


def test_set(folder: Path, style: Style, rng: np.random.Generator, n: int, hard: bool) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    labels: dict[str, Any] = {}
    for k in range(n):
        _save(folder, f"t{k + 1:03d}.jpg", tiles_shot(style, rng, hard), labels)
        _save(folder, f"o{k + 1:03d}.jpg", order_shot(style, rng, hard), labels)
        _save(folder, f"g{k + 1:03d}.jpg", grid_shot(style, rng, hard), labels)
    _write_labels(folder, labels)


def write_dataset(out: Path, n: int, seed: int, hard: bool) -> Style:
    """The whole dataset for ``seed``: same seed, same pictures."""
    style = make_style(seed)
    calibration(out / "calibration", style, np.random.default_rng([seed, 1]))
    test_set(out / "test", style, np.random.default_rng([seed, 2, int(hard)]), n, hard)
    return style


def test_shot(style: Style, seed: int, hard: bool, name: str) -> Shot:
    """The test picture ``name`` (``g009.jpg``) of the seed's set, as :func:`test_set` draws
    it: the pictures before it drawn too (each takes from the same random stream)."""
    rng = np.random.default_rng([seed, 2, int(hard)])
    number = int(name[1:4])
    for _ in range(number - 1):
        tiles_shot(style, rng, hard)
        order_shot(style, rng, hard)
        grid_shot(style, rng, hard)
    shot = tiles_shot(style, rng, hard)
    if name[0] != "t":
        shot = order_shot(style, rng, hard)
    if name[0] == "g":
        shot = grid_shot(style, rng, hard)
    return shot


def redrawn(folder: Path, seed: int, name: str, grids: bool = False) -> Shot:
    """A clean set drawn again for a test: its calibration pictures written to ``folder`` as
    :func:`write_dataset` writes them (without ``grids``, the tiles and order pictures alone),
    and its test picture ``name`` (:func:`test_shot`)."""
    style = make_style(seed)
    calibration(folder, style, np.random.default_rng([seed, 1]), grids=grids)
    return test_shot(style, seed, False, name)
