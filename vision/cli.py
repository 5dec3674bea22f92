"""``robo-companion vision ...``: eval, calibrate, synth."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion import config as config_module
from companion.errors import CompanionError
from vision.errors import CalibrationError


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="robo-companion vision",
                                     description="Reading the table through the camera.")
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    p = sub.add_parser("eval", help="calibrate on DATASET/calibration, read DATASET/test, "
                                    "print the metrics as JSON")
    p.add_argument("dataset", type=Path)
    p = sub.add_parser("calibrate", help="learn colours and card looks from labelled images "
                                         "(DIR/labels.json) and store them")
    p.add_argument("folder", type=Path)
    p.add_argument("--out", type=Path, help="store here instead of the configured path")
    p = sub.add_parser("synth", help="write a synthetic dataset (calibration/ and test/)")
    p.add_argument("out", type=Path)
    p.add_argument("--n", type=int, default=30, help="test images (default 30)")
    p.add_argument("--hard", action="store_true", help="blur, low light, hands over the scene")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=720)
    args = parser.parse_args(argv)
    if args.action is None:
        parser.print_help()
        return 2
    try:
        config = config_module.load()
        if args.action == "eval":
            from vision.evaluate import evaluate

            if not (args.dataset / "test").is_dir():
                raise CalibrationError(f"{args.dataset} has no test/ folder")
            print(json.dumps(evaluate(args.dataset, config)))
            return 0
        if args.action == "calibrate":
            from vision.calibration import calibrate_dir

            cal = calibrate_dir(args.folder, config)
            target = args.out or config.calibration_path
            cal.save(target)
            print(f"{cal.summary()}; stored in {target}")
            return 0
        from vision.synth import write_dataset

        write_dataset(args.out, config, n=args.n, hard=args.hard, seed=args.seed,
                      width=args.width, height=args.height)
        print(f"wrote {args.out}/calibration (12 images) and {args.out}/test ({args.n} images)")
        return 0
    except (CalibrationError, CompanionError, OSError) as exc:
        print(f"robo-companion vision: {exc}", file=sys.stderr)
        return 2
