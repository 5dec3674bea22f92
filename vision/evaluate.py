"""``vision eval``: calibrate on ``calibration/``, read ``test/``, count right, wrong, declined.

Per image: ``exact`` when read entirely right; ``wrong`` when any part or cell was read with
confidence and is not what the label says (including a robot read for a seat the label does not
list); ``abstained`` when the reader declined some robot or cell it should have read.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from companion.config import Config
from companion.ports import GridObservation, Observation, OrderObservation, TilesObservation
from vision.calibration import Calibration, calibrate_dir
from vision.dataset import KINDS, Example, load_labelled
from vision.read import nothing, read


def judge(example: Example, obs: Observation) -> tuple[bool, bool]:
    """(wrong, abstained) for one image."""
    wrong = abstained = False
    if isinstance(obs, TilesObservation):
        for seat, robot in example.robots.items():
            got = obs.robots.get(seat)
            if got is None or got.robot is None:
                abstained = True
            elif got.robot != robot:
                wrong = True
        for seat, got in obs.robots.items():
            if seat not in example.robots and got.robot is not None:
                wrong = True
    elif isinstance(obs, OrderObservation):
        if obs.reading.robot is None:
            abstained = True
        elif obs.reading.robot != example.robot:
            wrong = True
    elif isinstance(obs, GridObservation):
        for r in range(5):
            for c in range(5):
                value, confidence = obs.cells[r][c], obs.confidence[r][c]
                if confidence <= 0.0:
                    abstained = True
                elif value != example.grid[r][c]:
                    wrong = True
    return wrong, abstained


def evaluate(dataset: Path, config: Config) -> dict[str, Any]:
    if (dataset / "calibration" / "labels.json").is_file():
        cal = calibrate_dir(dataset / "calibration", config)
    else:
        print(f"vision eval: {dataset}/calibration/labels.json is missing; reading with the "
              "built-in defaults (Robot Master cards are then always declined)", file=sys.stderr)
        cal = Calibration.default(config)
    tests = load_labelled(dataset / "test", config)
    by_kind = {k: {"images": 0, "exact": 0, "wrong": 0, "abstained": 0} for k in KINDS}
    times: list[float] = []
    for example in tests:
        start = time.perf_counter()
        try:
            obs = read(example.image, example.kind, cal)  # type: ignore[arg-type]
        except Exception as exc:  # one odd picture must not lose the whole evaluation
            print(f"vision eval: {example.name}: reader failed ({exc}); counted as declined",
                  file=sys.stderr)
            obs = nothing(example.kind)  # type: ignore[arg-type]
        times.append((time.perf_counter() - start) * 1000.0)
        wrong, abstained = judge(example, obs)
        counts = by_kind[example.kind]
        counts["images"] += 1
        counts["wrong"] += int(wrong)
        counts["abstained"] += int(abstained)
        counts["exact"] += int(not wrong and not abstained)
    return {
        "by_kind": by_kind,
        "ms_median": round(float(np.median(times)), 1) if times else 0.0,
        "ms_p95": round(float(np.percentile(times, 95)), 1) if times else 0.0,
    }
