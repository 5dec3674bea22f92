"""One dataset's look: the components of one (imaginary) printing of the game and one camera.

Everything in a dataset, its calibration included, shows the same components, the way a user's
own copy of the game always looks the same; the light and the framing change from picture to
picture. Different seeds give different printings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .paint import RGB, jitter

COLOURS = ("red", "green", "blue", "yellow")  # the default names of DESIGN/RULINGS

# printed shades of the four part colours, chosen away from any one "pure" value
SHADES: dict[str, list[RGB]] = {
    "red": [(196, 38, 48), (214, 66, 40), (172, 30, 62), (225, 84, 72), (186, 52, 40)],
    "green": [(38, 146, 72), (76, 158, 58), (24, 128, 104), (108, 168, 64), (52, 120, 60)],
    "blue": [(38, 88, 186), (28, 112, 168), (62, 70, 158), (54, 132, 204), (40, 62, 130)],
    "yellow": [(238, 198, 38), (246, 178, 32), (228, 210, 74), (250, 192, 64), (214, 176, 40)],
}

FONTS = ["DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansCondensed-Bold.ttf",
         "DejaVuSansMono-Bold.ttf", "hershey:2", "hershey:3", "DejaVuSerifCondensed-Bold.ttf"]


@dataclass(frozen=True)
class Camera:
    width: int
    height: int
    fov: float         # horizontal, degrees
    height_mm: float   # lens above the table
    k1: float          # radial distortion (negative: barrel, like a phone's wide lens)
    k2: float

    def focal(self) -> float:
        return self.width / 2 / math.tan(math.radians(self.fov) / 2)

    def marker_mm(self) -> float:
        """The printed marker side the project's sheet would give for this camera."""
        w_seen = 2 * self.height_mm * math.tan(math.radians(self.fov) / 2)
        p = self.width / w_seen
        return float(math.ceil(24 / p / math.cos(math.radians(self.fov) / 2)))


@dataclass(frozen=True)
class Board:
    base: RGB            # the board's printed background
    ink: RGB             # its text and line colour
    lane_order: tuple[str, ...]
    vertical: bool       # lanes run top to bottom (header on top) instead of left to right
    rollers: bool        # conveyor rollers printed across the lanes
    edge: RGB | None     # a printed line around each lane
    lane_w: float
    lane_len: float
    header: float
    margin: float
    font: str
    title: str
    corners: bool        # corner markers 18..41 stuck on
    tile_back: RGB
    tile_shaped: bool    # head/torso/legs tiles cut to different outlines


@dataclass(frozen=True)
class RobotCard:
    w: float
    h: float
    paper: RGB
    frame: RGB
    ink: RGB
    outline: float       # mm of black outline around the parts (0: flat art)
    head_round: float    # 0 square .. 1 round
    chips: bool          # three small colour chips printed down one side
    font: str
    pattern: str         # "plain", "grid", "rays"


@dataclass(frozen=True)
class MasterCard:
    w: float
    h: float
    paper: RGB
    ink: RGB
    accent: RGB
    look: str            # "corners", "central", "pips", "segments"
    font: str
    value_tints: tuple[RGB, ...] | None  # a background tint per value, or one look for all
    back: RGB


@dataclass(frozen=True)
class Style:
    seed: int
    shades: dict[str, RGB]
    board: Board
    robot_card: RobotCard
    master_card: MasterCard
    table: str           # "wood", "cloth", "glass"
    table_seed: int
    camera: Camera
    marker_mm: float
    sticker_label: bool  # the id line under each sticker was kept when cutting
    mat: bool            # a printed 5x5 mat under the Robot Master cards
    mat_colour: RGB
    gap: float           # between Robot Master cards
    skin: RGB
    sleeve: RGB


def pick(rng: np.random.Generator, options: list[RGB]) -> RGB:
    return options[int(rng.integers(len(options)))]


def make_style(seed: int) -> Style:
    rng = np.random.default_rng(seed)
    shades = {c: jitter(SHADES[c][int(rng.integers(len(SHADES[c])))], rng, 8) for c in COLOURS}
    width, height = [(1280, 720), (1920, 1080), (1600, 1200), (2016, 1512)][int(rng.integers(4))]
    camera = Camera(width, height, float(rng.choice([62.0, 66.0, 70.0, 76.0])),
                    float(rng.uniform(620, 820)), float(rng.uniform(-0.16, -0.03)),
                    float(rng.uniform(-0.02, 0.03)))
    marker = camera.marker_mm() + float(rng.choice([0, 0, 1, 3]))
    sticker_label = bool(rng.random() < 0.5)
    sticker_h = marker * 1.5 + (5.5 if sticker_label else 0.0)
    tile = max(30.0, sticker_h + 5)
    corners = bool(rng.random() < 0.3)
    lane_w = tile + float(rng.uniform(8, 15))
    order = list(COLOURS)
    rng.shuffle(order)
    board = Board(
        base=jitter(pick(rng, [(58, 64, 74), (232, 222, 198), (148, 152, 158), (34, 44, 68),
                               (188, 160, 120), (90, 70, 96)]), rng, 10),
        ink=pick(rng, [(20, 20, 24), (245, 242, 232), (60, 40, 30)]),
        lane_order=tuple(order), vertical=bool(rng.random() < 0.35),
        rollers=bool(rng.random() < 0.6),
        edge=pick(rng, [(20, 20, 20), (250, 250, 250), (90, 90, 90)]) if rng.random() < 0.6
        else None,
        lane_w=lane_w, lane_len=3 * (tile + float(rng.uniform(8, 16))) + 10,
        header=float(rng.uniform(30, 46)),
        margin=(marker * 4 / 3 + 6) if corners else float(rng.uniform(6, 12)),
        font=FONTS[int(rng.integers(len(FONTS)))],
        title=str(rng.choice(["FACTORY", "FABRIEK", "WERK", "ROBO LINE", "ASSEMBLY"])),
        corners=corners,
        tile_back=jitter(pick(rng, [(70, 70, 76), (120, 96, 70), (200, 196, 188), (46, 58, 84),
                                    (150, 60, 50)]), rng, 10),
        tile_shaped=bool(rng.random() < 0.5))
    ch = float(rng.uniform(84, 92))
    robot_card = RobotCard(
        w=ch * float(rng.uniform(0.66, 0.74)), h=ch,
        paper=jitter(pick(rng, [(246, 242, 230), (226, 230, 236), (236, 228, 240),
                                (52, 54, 62), (250, 250, 250)]), rng, 6),
        frame=jitter(pick(rng, [(40, 46, 60), (150, 150, 155), (200, 120, 40), (90, 40, 90),
                                (30, 30, 30), (230, 230, 230)]), rng, 8),
        ink=pick(rng, [(20, 20, 20), (60, 60, 70)]),
        outline=float(rng.choice([0.0, 0.5, 0.9])),
        head_round=float(rng.uniform(0, 1)), chips=bool(rng.random() < 0.3),
        font=FONTS[int(rng.integers(len(FONTS)))],
        pattern=str(rng.choice(["plain", "grid", "rays"])))
    look = str(rng.choice(["corners", "central", "pips", "segments"]))
    tints = None
    if rng.random() < 0.35:
        base = [(250, 214, 200), (206, 232, 250), (214, 244, 210), (250, 240, 196),
                (232, 214, 248), (226, 226, 226)]
        order_t = rng.permutation(6)
        tints = tuple(base[int(i)] for i in order_t)
    master = MasterCard(
        w=0.0, h=0.0,  # set below from the space the camera sees
        paper=jitter(pick(rng, [(248, 246, 238), (236, 240, 244), (250, 236, 214),
                                (244, 244, 244)]), rng, 5),
        ink=pick(rng, [(22, 22, 26), (40, 30, 80), (90, 20, 30)]),
        accent=jitter(pick(rng, [(200, 90, 30), (40, 120, 160), (110, 110, 120), (130, 60, 140),
                                 (60, 140, 90)]), rng, 10),
        look=look, font=FONTS[int(rng.integers(len(FONTS)))], value_tints=tints,
        back=jitter(pick(rng, [(150, 40, 40), (30, 60, 110), (40, 40, 40)]), rng, 10))
    # Robot Master cards: the size printed for this game is unknown, so each printing picks one
    # that lets the 5x5 area and its markers fill at most about 80 % of the picture's height
    seen_h = camera.height_mm * camera.height / camera.focal()
    gap = float(rng.uniform(1.5, 6))
    fit_h = (0.8 * seen_h - 2 * (marker * 4 / 3 + 8) - 4 * gap) / 5
    card_h = float(min(rng.uniform(62, 90), fit_h))
    ratio = float(rng.uniform(0.64, 0.74))
    master = MasterCard(**{**master.__dict__, "w": card_h * ratio, "h": card_h})
    return Style(
        seed=seed, shades=shades, board=board, robot_card=robot_card, master_card=master,
        table=str(rng.choice(["wood", "wood", "cloth", "glass"])),
        table_seed=int(rng.integers(1 << 30)),
        camera=camera, marker_mm=marker, sticker_label=sticker_label,
        mat=bool(rng.random() < 0.3),
        mat_colour=pick(rng, [(40, 70, 60), (220, 214, 200), (70, 70, 90)]), gap=gap,
        skin=pick(rng, [(232, 190, 160), (198, 150, 112), (140, 96, 66), (88, 60, 44),
                        (240, 204, 178)]),
        sleeve=pick(rng, [(40, 50, 90), (120, 30, 40), (60, 60, 60), (200, 200, 190),
                          (50, 100, 70)]))
