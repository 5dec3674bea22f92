"""Regenerate the pictures in docs/img: ``python -m vision.synth.pictures docs/img``."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from companion.config import Config
from vision import sheet
from vision.synth import make_example
from vision.synth.scenes import Style


def montage(images: list[np.ndarray], cols: int, width: int = 480) -> np.ndarray:
    h = int(images[0].shape[0] * width / images[0].shape[1])
    tiles = [cv2.resize(im, (width, h), interpolation=cv2.INTER_AREA) for im in images]
    while len(tiles) % cols:
        tiles.append(np.full_like(tiles[0], 255))
    rows = [np.hstack(tiles[i:i + cols]) for i in range(0, len(tiles), cols)]
    return np.vstack(rows)


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    config = Config()
    for name, hard, seed in (("vision-scenes.png", False, 1), ("vision-hard.png", True, 2)):
        images = []
        for s in range(2):
            rng = np.random.default_rng(seed * 10 + s)
            style = Style.random(rng, config.game.display)
            images += [make_example(k, k, style, config, rng, hard).image
                       for k in ("tiles", "order", "grid")]
        cv2.imwrite(str(out / name), montage(images, 3))
    page = sheet.render_pages(sheet.marker_side_mm(700, 1280, 66))[0]
    small = cv2.resize(page, (page.shape[1] // 3, page.shape[0] // 3),
                       interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(out / "markers-sheet.png"), small)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
