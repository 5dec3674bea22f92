"""``python -m tests.vision.thirdart OUT --n N --seed S [--hard]``"""

from __future__ import annotations

import argparse
from pathlib import Path

from .build import write_dataset


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m tests.vision.thirdart",
                                description="Write a third-art vision dataset (DESIGN.md layout).")
    p.add_argument("out", type=Path)
    p.add_argument("--n", type=int, default=10, help="test pictures of each kind")
    p.add_argument("--seed", type=int, default=0, help="the printing and the pictures")
    p.add_argument("--hard", action="store_true",
                   help="low light, heavy blur, a hand over the scene, steeper tilt")
    a = p.parse_args(argv)
    style = write_dataset(a.out, a.n, a.seed, a.hard)
    cam = style.camera
    print(f"{a.out}: {3 * a.n} test and 12 calibration pictures, {cam.width}x{cam.height}, "
          f"{style.table} table, markers {style.marker_mm:.0f} mm, "
          f"Robot Master cards {style.master_card.look}")


if __name__ == "__main__":
    main()
