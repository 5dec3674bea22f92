"""Do two versions of the grid reader read the same? A tool for speed work, not a test.

``PYTHONPATH=TREE python tests/vision/same_readings.py dump OUT.json DATASET...`` calibrates on
each dataset's ``calibration/`` (as ``robo-companion vision eval`` does) and reads every grid
picture of ``calibration/`` and ``test/`` with the ``vision`` package of checkout TREE (run the
file by its path: ``-m`` would put the current directory's package first); it writes every
cell's value and confidence and a digest of each learnt grid look. ``python
tests/vision/same_readings.py compare A.json B.json`` lists every cell whose value or confidence
differs (exactly: confidences are rounded to 3 places, so any difference is a changed reading)
and exits 1 when one does.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import vision  # first, as in the app: it keeps BLAS on one thread


def dump(out: Path, datasets: list[Path]) -> None:
    from companion.config import Config
    from vision.calibration import calibrate_dir
    from vision.dataset import load_labelled
    from vision.read import read

    config = Config()
    result: dict[str, Any] = {"code": vision.__file__, "sets": {}}
    start = time.process_time()
    for folder in datasets:
        cal = calibrate_dir(folder / "calibration", config)
        look = json.dumps(cal.grid.to_json(), sort_keys=True)
        reads: dict[str, Any] = {}
        for part in ("calibration", "test"):
            for example in load_labelled(folder / part, config):
                if example.kind != "grid":
                    continue
                obs = read(example.image, "grid", cal)
                reads[f"{part}/{example.name}"] = {"cells": obs.cells, "conf": obs.confidence}
        result["sets"][str(folder)] = {
            "look_sha": hashlib.sha256(look.encode()).hexdigest(), "reads": reads}
        print(f"{folder}: {len(reads)} grid pictures", file=sys.stderr)
    result["cpu_s"] = round(time.process_time() - start, 1)
    out.write_text(json.dumps(result))


def compare(a_path: Path, b_path: Path) -> int:
    a, b = (json.loads(p.read_text()) for p in (a_path, b_path))
    pictures = cells = values = confidences = 0
    for name, ra in a["sets"].items():
        rb = b["sets"].get(name)
        if rb is None or set(ra["reads"]) != set(rb["reads"]):
            print(f"{name}: not the same pictures in both")
            values += 1
            continue
        if ra["look_sha"] != rb["look_sha"]:
            print(f"{name}: the learnt grid look differs")
        for picture, x in ra["reads"].items():
            y = rb["reads"][picture]
            pictures += 1
            for r in range(5):
                for c in range(5):
                    cells += 1
                    if x["cells"][r][c] != y["cells"][r][c]:
                        values += 1
                        print(f"{name} {picture} ({r},{c}) value "
                              f"{x['cells'][r][c]} -> {y['cells'][r][c]}")
                    if x["conf"][r][c] != y["conf"][r][c]:
                        confidences += 1
                        print(f"{name} {picture} ({r},{c}) confidence "
                              f"{x['conf'][r][c]} -> {y['conf'][r][c]}")
    print(f"{pictures} pictures, {cells} cells: {values} values and {confidences} confidences "
          f"differ (processor time {a.get('cpu_s')} s vs {b.get('cpu_s')} s)")
    return 1 if values or confidences else 0


def main(argv: list[str]) -> int:
    if len(argv) >= 3 and argv[0] == "dump":
        dump(Path(argv[1]), [Path(p) for p in argv[2:]])
        return 0
    if len(argv) == 3 and argv[0] == "compare":
        return compare(Path(argv[1]), Path(argv[2]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
