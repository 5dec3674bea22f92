"""A seed's other-art pictures drawn again inside a test, as the generator writes them (JPEG,
quality 97, or PNG, as the seed's look says): a blind set's picture kept as a test without
storing it."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from companion.config import Config
from tests.vision.otherart.generate import COLOURS, calibration_set
from tests.vision.otherart.look import Look, random_look
from vision.dataset import Example, parse_label


def stored(img: np.ndarray, ext: str = "jpg") -> np.ndarray:
    """``img`` as the generator stores it: JPEG, quality 97, or (``ext`` png) as it is."""
    if ext == "png":
        return img
    return np.asarray(cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 97])[1],
                                   cv2.IMREAD_COLOR))


def calibration(seed: int, config: Config, kinds: tuple[str, ...] = ("tiles", "order")
                ) -> tuple[Look, list[Example]]:
    """The seed's look and its calibration pictures of ``kinds`` (the tile and order pictures
    unless asked), in the generator's order."""
    look = random_look(np.random.default_rng([seed, 1]), COLOURS)
    examples = []
    for name, img, raw in sorted(calibration_set(look, np.random.default_rng([seed, 2])),
                                 key=lambda item: item[0]):
        label = parse_label(name, raw, config)
        if label["kind"] in kinds:
            examples.append(Example(name, label["kind"], stored(img, look.ext),
                                    label.get("robots", {}),
                                    label.get("robot"), label.get("grid") or []))
    return look, examples


def test_picture(look: Look, seed: int, name: str,
                 hard: bool = False) -> tuple[np.ndarray, dict[str, Any]]:
    """The seed's clean (or ``hard``) test picture ``name`` (``t017.jpg``) and its label, as
    stored: the test pictures before it drawn too, in the generator's order (each takes from the
    same random stream)."""
    from tests.vision.otherart.generate import KINDS, test_set

    kind = {"t": "tiles", "o": "order", "g": "grid"}[name[0]]
    number = int(name[1:4])
    items = test_set(look, np.random.default_rng([seed, 3, int(hard)]), number, hard)
    drawn, image, label = items[(number - 1) * len(KINDS) + KINDS.index(kind)]
    assert drawn == name
    return stored(image, look.ext), label
