"""One printed copy of the game and one table: everything a dataset keeps for all its pictures.

Written from the contracts only (DESIGN.md, the rule sheets, docs/vision.md and the marker sheet),
never from the project's own renderer, so that its art and its choices are independent of it.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

#: where `robo-companion markers print` draws the cut lines around a marker, in marker sides
#: (measured on its 300 dpi sheet: 41 px left and above a 248 px marker, 89 px right, 160 px
#: below, where the printed label is). Users cut along these lines and keep the white border.
SHEET_LEFT, SHEET_TOP, SHEET_RIGHT, SHEET_BOTTOM = 0.165, 0.165, 0.36, 0.65
#: the label's middle below the marker's top edge (the sheet prints it 0.47..0.59 below the marker)
LABEL_BELOW = 1.53
#: the printed lane sign at the start of a lane, mm
ICON_ZONE = 14.0
FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
#: TrueType faces a printed card plausibly uses for its numerals and captions
CARD_FONTS = (
    "DejaVuSerif-Bold.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSansMono-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSerifCondensed-Bold.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSans.ttf",
)

# Hue ranges (degrees) and saturation/value ranges for each colour name as a printed copy of the
# game plausibly shows it; the four ranges stay clearly apart so the label is never in doubt.
PRINT_RANGES: dict[str, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = {
    "red": ((-8.0, 8.0), (0.68, 0.90), (0.70, 0.90)),
    "green": ((125.0, 165.0), (0.55, 0.85), (0.48, 0.72)),
    "blue": ((200.0, 222.0), (0.60, 0.85), (0.60, 0.85)),
    "yellow": ((44.0, 54.0), (0.62, 0.85), (0.88, 0.97)),
}


def hsv(h_deg: float, s: float, v: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hsv_to_rgb((h_deg % 360.0) / 360.0, s, v)
    return (round(r * 255), round(g * 255), round(b * 255))


def jitter(rgb: tuple[int, int, int], rng: np.random.Generator,
           dh: float, ds: float, dv: float) -> tuple[int, int, int]:
    h, s, v = colorsys.rgb_to_hsv(*(c / 255.0 for c in rgb))
    return hsv(h * 360.0 + rng.uniform(-dh, dh), min(1.0, max(0.0, s + rng.uniform(-ds, ds))),
               min(1.0, max(0.0, v + rng.uniform(-dv, dv))))


def sticker_size(marker: float, slack: float) -> tuple[float, float]:
    """Width and height (mm) of a sticker cut along the printed sheet's lines."""
    return (marker * (1 + SHEET_LEFT + SHEET_RIGHT) + 2 * slack,
            marker * (1 + SHEET_TOP + SHEET_BOTTOM) + 2 * slack)


def marker_side_mm(height_mm: float, width_px: int, fov_deg: float) -> int:
    """The printed marker side docs/vision.md tells the user to print (its formula)."""
    half = math.radians(fov_deg) / 2.0
    seen = 2.0 * height_mm * math.tan(half)
    per_mm = width_px / seen
    return math.ceil(24.0 / per_mm / math.cos(half))


@dataclass
class Look:
    """The user's components, room and camera arm, fixed for one dataset."""

    colours: list[str]
    lane_rgb: dict[str, tuple[int, int, int]]
    card_rgb: dict[str, tuple[int, int, int]]
    # camera
    width: int
    height: int
    fov_deg: float
    lens_mm: float  # real lens height above the table
    tilt_max_deg: float
    marker_mm: float
    # stickers (cut from the printed sheet: white border kept, label kept or trimmed)
    sticker_slack: float  # mm cut outside the sheet's grey lines (scissors are not exact)
    ink: int  # grey level of the printed black
    # personal boards
    lane_w: float
    lane_len: float
    lane_gap: float
    lane_pattern: str
    lane_icons: bool
    board_base: tuple[int, int, int]
    board_margin: float
    board_side_margin: float
    board_corner_markers: bool
    # part tiles
    tile_mm: float
    tile_rgb: tuple[int, int, int]
    tile_radius: float
    # robot cards (order)
    rcard_w: float
    rcard_h: float
    rcard_frame: tuple[int, int, int]
    rcard_paper: tuple[int, int, int]
    rcard_pattern: str
    head_shape: str
    torso_shape: str
    legs_shape: str
    rcard_font: str
    # Robot Master cards
    mcard_w: float
    mcard_h: float
    mcard_font: str
    mcard_style: str  # numeral | icons | coded
    mcard_paper: tuple[int, int, int]
    mcard_ink: tuple[int, int, int]
    mcard_coded: dict[int, tuple[int, int, int]]
    mcard_turned: float  # share of cards laid turned by 180 degrees
    # play area
    area_gap: float
    area_marker_offset: tuple[float, float]  # sticker inner corner outside the area corner, mm
    area_corner_turn: list[float]  # how each corner sticker was stuck on, degrees
    area_corner_jitter: list[tuple[float, float]]  # and how far off, mm
    area_surface: str  # table | felt | printed
    area_surface_rgb: tuple[int, int, int]
    # table and room
    table: str
    table_rgb: tuple[int, int, int]
    table_rgb2: tuple[int, int, int]
    skin: list[tuple[int, int, int]] = field(default_factory=list)
    ext: str = "jpg"

    def describe(self) -> dict[str, Any]:
        return asdict(self)


def random_look(rng: np.random.Generator, colours: list[str]) -> Look:
    lane_rgb: dict[str, tuple[int, int, int]] = {}
    card_rgb: dict[str, tuple[int, int, int]] = {}
    for name in colours:
        (h0, h1), (s0, s1), (v0, v1) = PRINT_RANGES.get(
            name, ((rng.uniform(0, 360),) * 2, (0.6, 0.8), (0.6, 0.8)))
        base = hsv(rng.uniform(h0, h1), rng.uniform(s0, s1), rng.uniform(v0, v1))
        lane_rgb[name] = base
        # cards and boards come from one print run, on other stock: a little apart
        card_rgb[name] = jitter(base, rng, 4.0, 0.06, 0.05)

    width, height = (1280, 720) if rng.random() < 0.6 else (1920, 1080)
    fov = float(rng.choice([62.0, 66.0, 70.0]))
    nominal = float(rng.choice([600.0, 700.0, 800.0]))
    # the user measured the arm roughly: the real lens height is within a few per cent
    lens = nominal * rng.uniform(0.96, 1.04)
    marker = float(marker_side_mm(nominal, width, fov))
    if rng.random() < 0.3:  # some users print bigger with --size-mm
        marker = round(marker * rng.uniform(1.1, 1.3))

    slack = rng.uniform(0.0, 0.6)
    # the sticker as cut along the sheet's lines: marker, white border and printed label
    sticker = max(sticker_size(marker, slack))
    tile = sticker + rng.uniform(2.0, 5.0)
    lane_w = tile * rng.uniform(1.3, 1.55)
    icons = bool(rng.random() < 0.6)
    table, t1, t2 = _table(rng)
    surface = str(rng.choice(["table", "felt", "printed"], p=[0.45, 0.3, 0.25]))
    if surface == "felt":
        surface_rgb = hsv(rng.choice([140.0, 210.0, 0.0, 30.0]), rng.uniform(0.0, 0.35),
                          rng.uniform(0.25, 0.45))
    elif surface == "printed":
        surface_rgb = hsv(rng.uniform(0, 360), rng.uniform(0.05, 0.2), rng.uniform(0.8, 0.93))
    else:
        surface_rgb = t1
    mstyle = str(rng.choice(["numeral", "icons", "coded"], p=[0.4, 0.35, 0.25]))
    coded = {v: hsv(v * 60.0 + rng.uniform(-8, 8), rng.uniform(0.25, 0.45), rng.uniform(0.85, 0.95))
             for v in range(6)}
    # the play area must fit the camera's view: the user picks where to lay it so it does
    half = math.tan(math.radians(fov) / 2)
    seen_w = 2 * lens * half
    seen_h = seen_w * height / width
    offset = (rng.uniform(1.0, 22.0), rng.uniform(1.0, 22.0))
    gap = rng.uniform(2.0, 8.0)
    aspect = rng.uniform(1.38, 1.5)
    around = 2 * (max(offset) + sticker + 4)  # the play area's stickers outside its corners
    fit_w = (0.86 * seen_h - around) / 5 - gap  # the area's short side across the picture
    fit_h = ((0.86 * seen_w - around) / 5 - gap) / aspect
    mw = min(rng.uniform(44.0, 56.0), fit_w, fit_h)
    skins = [hsv(rng.uniform(15, 30), rng.uniform(0.25, 0.6), rng.uniform(0.35, 0.95))
             for _ in range(3)]
    return Look(
        colours=list(colours), lane_rgb=lane_rgb, card_rgb=card_rgb,
        width=width, height=height, fov_deg=fov, lens_mm=lens,
        tilt_max_deg=rng.uniform(8.0, 20.0), marker_mm=marker,
        sticker_slack=slack,
        ink=int(rng.integers(10, 45)),
        lane_w=lane_w, lane_len=tile * rng.uniform(3.6, 4.4) + (ICON_ZONE if icons else 0.0),
        lane_gap=rng.uniform(0.0, 4.0),
        lane_pattern=str(rng.choice(["rollers", "chevrons", "plain", "speckle", "rails"])),
        lane_icons=icons,
        board_base=_board_base(rng), board_margin=rng.uniform(6.0, 12.0),
        board_side_margin=rng.uniform(26.0, 38.0),
        board_corner_markers=bool(rng.random() < 0.2),
        tile_mm=tile,
        tile_rgb=hsv(rng.uniform(20, 50), rng.uniform(0.05, 0.3), rng.uniform(0.55, 0.9))
        if rng.random() < 0.7 else hsv(0, 0, rng.uniform(0.12, 0.3)),
        tile_radius=rng.uniform(0.5, 3.0),
        rcard_w=rng.uniform(56.0, 66.0), rcard_h=rng.uniform(84.0, 92.0),
        rcard_frame=hsv(rng.uniform(0, 360), rng.uniform(0.1, 0.6), rng.uniform(0.15, 0.45)),
        rcard_paper=hsv(rng.uniform(30, 220), rng.uniform(0.03, 0.12), rng.uniform(0.88, 0.97)),
        rcard_pattern=str(rng.choice(["blueprint", "dots", "hatch", "plain"])),
        head_shape=str(rng.choice(["dome", "box", "round"])),
        torso_shape=str(rng.choice(["barrel", "panel", "shield"])),
        legs_shape=str(rng.choice(["legs", "tracks", "wheel"])),
        rcard_font=str(rng.choice(CARD_FONTS)),
        mcard_w=mw, mcard_h=mw * aspect,
        mcard_font=str(rng.choice(CARD_FONTS[:5])), mcard_style=mstyle,
        mcard_paper=hsv(rng.uniform(30, 60), rng.uniform(0.02, 0.15), rng.uniform(0.88, 0.98)),
        mcard_ink=hsv(rng.uniform(0, 360), rng.uniform(0.3, 0.8), rng.uniform(0.15, 0.4)),
        mcard_coded=coded, mcard_turned=float(rng.choice([0.0, 0.3, 0.5])),
        area_gap=gap, area_marker_offset=offset,
        area_corner_turn=[int(rng.integers(0, 4)) * 90 + float(rng.uniform(-4, 4))
                          for _ in range(4)],
        area_corner_jitter=[(float(rng.uniform(-2, 2)), float(rng.uniform(-2, 2)))
                            for _ in range(4)],
        area_surface=surface, area_surface_rgb=surface_rgb,
        table=table, table_rgb=t1, table_rgb2=t2, skin=skins,
        ext="jpg" if rng.random() < 0.7 else "png",
    )


def _table(rng: np.random.Generator) -> tuple[str, tuple[int, int, int], tuple[int, int, int]]:
    kind = str(rng.choice(["oak", "walnut", "pine", "cloth", "linen", "laminate", "felt"]))
    if kind == "oak":
        return kind, hsv(32, 0.45, 0.70), hsv(28, 0.55, 0.52)
    if kind == "walnut":
        return kind, hsv(24, 0.5, 0.42), hsv(20, 0.55, 0.28)
    if kind == "pine":
        return kind, hsv(38, 0.35, 0.86), hsv(33, 0.45, 0.70)
    if kind == "cloth":  # a coloured tablecloth, mostly muted
        h = rng.uniform(0, 360)
        c = hsv(h, rng.uniform(0.15, 0.45), rng.uniform(0.45, 0.8))
        return kind, c, jitter(c, rng, 10, 0.1, 0.15)
    if kind == "linen":
        return kind, hsv(40, 0.08, 0.85), hsv(38, 0.12, 0.76)
    if kind == "laminate":
        return kind, hsv(0, 0.0, 0.9), hsv(210, 0.05, 0.78)
    return kind, hsv(150, 0.45, 0.38), hsv(150, 0.5, 0.3)


def _board_base(rng: np.random.Generator) -> tuple[int, int, int]:
    choice = int(rng.integers(0, 4))
    if choice == 0:
        return hsv(215, 0.25, 0.28)  # slate
    if choice == 1:
        return hsv(35, 0.12, 0.82)  # cream
    if choice == 2:
        return hsv(0, 0.0, 0.55)  # steel grey
    return hsv(205, 0.55, 0.45)  # blueprint
