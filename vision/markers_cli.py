"""``robo-companion markers print --out FILE.pdf|FILE.png``: true-size marker sheets."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion import config as config_module
from companion.errors import CompanionError


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="robo-companion markers",
                                     description="Printable ArUco marker sheets.")
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    p = sub.add_parser("print", help="write the sheets at true size (PDF, or PNG at 300 dpi)")
    p.add_argument("--out", type=Path, required=True, help="FILE.pdf or FILE.png")
    p.add_argument("--height-mm", type=float, help="lens height above the table "
                                                   "(default: camera.height_mm)")
    p.add_argument("--width-px", type=int, help="picture width (default: camera.width)")
    p.add_argument("--fov", type=float, default=66.0,
                   help="horizontal field of view in degrees (default 66, Pi Camera Module 3; "
                        "62 for Module 2, about 70 for a typical USB webcam)")
    p.add_argument("--size-mm", type=int, help="marker side in mm (overrides the formula)")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    args = parser.parse_args(argv)
    if args.action != "print":
        parser.print_help()
        return 2
    if args.out.suffix.lower() not in (".pdf", ".png"):
        print("robo-companion markers: --out must end in .pdf or .png", file=sys.stderr)
        return 2
    try:
        cam = config_module.load().camera
    except CompanionError as exc:
        print(f"robo-companion markers: {exc}", file=sys.stderr)
        return 2
    from vision import sheet

    height = args.height_mm or cam.height_mm
    width = args.width_px or cam.width
    side = args.size_mm or sheet.marker_side_mm(height, width, args.fov)
    try:
        written = sheet.write(args.out, side, args.paper)
    except OSError as exc:
        print(f"robo-companion markers: cannot write {args.out} ({exc})", file=sys.stderr)
        return 2
    print(f"markers of {side} mm (lens {height:.0f} mm above the table, {width} px wide, "
          f"{args.fov:.0f} degrees): wrote {', '.join(map(str, written))}")
    return 0
