"""A synthetic scene renderer for the vision readers' tests, the demo's staged camera and the
benchmark. :func:`write_dataset` writes datasets in the evaluation format of DESIGN.md.

Each dataset draws its own :class:`~vision.synth.scenes.Style` (the look of one copy of the game:
print colours, board and card art, Robot Master value art, marker placement), and each image its
own table, light, colour temperature, view, blur, noise, JPEG, shadows and hands.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.config import Config
from vision.dataset import Example, write
from vision.synth.scenes import Style, render_grid, render_order, render_tiles

__all__ = ["Style", "make_example", "random_grid", "random_robots", "write_dataset"]


def random_robot(colours: list[str], rng: np.random.Generator) -> str:
    return "-".join(colours[int(i)] for i in rng.integers(0, len(colours), 3))


def random_robots(colours: list[str], rng: np.random.Generator) -> dict[int, str]:
    seats = [s for s in range(6) if rng.random() < 0.55] or [int(rng.integers(0, 6))]
    return {s: random_robot(colours, rng) for s in seats}


def random_grid(rng: np.random.Generator, cards: int | None = None) -> list[list[int | None]]:
    """A legal-looking Robot Master grid: cards grown edge to edge from the centre c3."""
    n = int(rng.integers(1, 26)) if cards is None else cards
    cells = [(2, 2)]
    while len(cells) < n:
        r, c = cells[int(rng.integers(0, len(cells)))]
        dr, dc = ((0, 1), (1, 0), (0, -1), (-1, 0))[int(rng.integers(0, 4))]
        if 0 <= r + dr < 5 and 0 <= c + dc < 5 and (r + dr, c + dc) not in cells:
            cells.append((r + dr, c + dc))
    deck = list(rng.permutation([v for v in range(6) for _ in range(6)]))
    grid: list[list[int | None]] = [[None] * 5 for _ in range(5)]
    for r, c in cells:
        grid[r][c] = int(deck.pop())
    return grid


def make_example(kind: str, name: str, style: Style, config: Config, rng: np.random.Generator,
                 hard: bool = False, width: int = 1280, height: int = 720) -> Example:
    colours = list(config.game.colours)
    if kind == "tiles":
        robots = random_robots(colours, rng)
        image = render_tiles(style, colours, robots, rng, width, height, hard=hard)
        return Example(name, kind, image, robots=robots)
    if kind == "order":
        robot = random_robot(colours, rng)
        return Example(name, kind, render_order(style, robot, rng, width, height, hard=hard),
                       robot=robot)
    grid = random_grid(rng)
    return Example(name, kind, render_grid(style, grid, rng, width, height, hard=hard), grid=grid)


def calibration_examples(style: Style, config: Config, rng: np.random.Generator,
                         per_kind: int = 4, width: int = 1280, height: int = 720,
                         kinds: tuple[str, ...] = ("tiles", "order", "grid")) -> list[Example]:
    """Clean labelled images that show every colour in every part and every card value."""
    colours = list(config.game.colours)
    out: list[Example] = []
    for i in range(per_kind if "tiles" in kinds else 0):
        # seat s shows colour (s + part + i) so that four images cover every colour everywhere
        robots = {s: "-".join(colours[(s + p + i) % 4] for p in range(3))
                  for s in range(6) if (s + i) % 3 != 2}
        out.append(Example(f"cal-tiles-{i}.png", "tiles",
                           render_tiles(style, colours, robots, rng, width, height), robots=robots))
    for i in range(per_kind if "order" in kinds else 0):
        robot = "-".join(colours[(i + p) % 4] for p in range(3))
        out.append(Example(f"cal-order-{i}.png", "order",
                           render_order(style, robot, rng, width, height), robot=robot))
    for i in range(per_kind if "grid" in kinds else 0):
        grid = random_grid(rng, cards=int(rng.integers(12, 22)))
        out.append(Example(f"cal-grid-{i}.png", "grid",
                           render_grid(style, grid, rng, width, height), grid=grid))
    return out


def write_dataset(out: Path, config: Config, n: int = 30, hard: bool = False, seed: int = 0,
                  width: int = 1280, height: int = 720) -> None:
    """``out/calibration`` (12 clean images) and ``out/test`` (n images, kinds in turn)."""
    rng = np.random.default_rng(seed)
    style = Style.random(rng, config.game.display)
    write(out / "calibration", calibration_examples(style, config, rng, 4, width, height))
    kinds = ("tiles", "order", "grid")
    tests = [make_example(kinds[i % 3], f"{kinds[i % 3][0]}{i:03d}.png", style, config, rng,
                          hard, width, height) for i in range(n)]
    write(out / "test", tests)
