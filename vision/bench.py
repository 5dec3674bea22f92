"""``robo-companion bench vision``: time per image for each kind at 1280x720 and 1920x1080.

Scenes come from the synthetic renderer; the readers are calibrated first (as on a real table)
and each image is read a few times in a row (as frames of a steady camera are). Prints one line
per size and kind (median and p95 of all reads, and the median of each picture's first read),
then the same as JSON.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from companion.config import Config
from vision.calibration import calibrate
from vision.read import read
from vision.synth import calibration_examples, make_example
from vision.synth.scenes import Style

SIZES = ((1280, 720), (1920, 1080))
KINDS = ("tiles", "order", "grid")
TARGET_MS = 40.0


def run(images: int = 8, repeats: int = 3, seed: int = 0) -> dict[str, dict[str, dict[str, float]]]:
    config = Config()
    results: dict[str, dict[str, dict[str, float]]] = {}
    for width, height in SIZES:
        rng = np.random.default_rng(seed)
        style = Style.random(rng, config.game.display)
        cal = calibrate(calibration_examples(style, config, rng, 3, width, height), config)
        size = f"{width}x{height}"
        results[size] = {}
        for kind in KINDS:
            examples = [make_example(kind, f"{i}", style, config, rng, False, width, height)
                        for i in range(images)]
            times, first = [], []
            for example in examples:
                for k in range(repeats):
                    start = time.perf_counter()
                    read(example.image, kind, cal)  # type: ignore[arg-type]
                    times.append((time.perf_counter() - start) * 1000.0)
                    if k == 0:
                        first.append(times[-1])
            # the first read of each picture apart: a reader may keep what the frame before
            # showed (the grid looks for its markers where the last picture had them), which a
            # repeated picture, like a steady camera, gives it
            results[size][kind] = {"median_ms": round(float(np.median(times)), 1),
                                   "p95_ms": round(float(np.percentile(times, 95)), 1),
                                   "first_median_ms": round(float(np.median(first)), 1)}
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="robo-companion bench vision")
    parser.add_argument("--images", type=int, default=8, help="images per kind and size")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    results = run(args.images, args.repeats, args.seed)
    for size, kinds in results.items():
        for kind, figures in kinds.items():
            mark = "" if size != "1280x720" or figures["median_ms"] < TARGET_MS else \
                f"  (target: median under {TARGET_MS:.0f} ms)"
            print(f"vision {size} {kind:5s} median {figures['median_ms']:6.1f} ms   "
                  f"p95 {figures['p95_ms']:6.1f} ms   first reads median "
                  f"{figures['first_median_ms']:6.1f} ms{mark}")
    print(json.dumps(results))
    return 0
