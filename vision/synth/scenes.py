"""Synthetic scenes: personal boards with part tiles, a robot card held to the camera, and the
Robot Master play area. A :class:`Style` is the look of one set of components (one user's copy of
the game); every dataset draws a new one so the reader cannot lean on one drawing."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth import draw
from vision.synth.draw import BGR, Rng

FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX)


@dataclass
class Style:
    """The printed look of one copy of the game."""

    colours: dict[str, BGR]  # lane and part colours as printed
    board: BGR
    separator: BGR
    separator_px: int
    lane_pattern: str  # plain, hatch, dots
    row_lines: bool
    tile: BGR
    tile_scale: float  # tile side / marker side
    tile_border: BGR | None
    card: BGR
    card_border: BGR | None
    head: str  # circle, square, round
    torso: str  # rect, trapezoid
    legs: str  # two, block
    outline: BGR | None
    part_span: tuple[float, float]  # first and last part centre, as fractions of card height
    part_width: float
    rm_card: BGR
    rm_ink: BGR
    rm_art: str  # digit, pips, both, colour
    rm_font: int
    rm_value_colours: list[BGR]
    rm_corner_index: bool
    rm_turned: bool  # cards may lie turned by 180 degrees
    marker_offset: float  # play-area marker centre outside the area corner, in marker sides
    mat: bool  # the play area is a printed mat with cell lines

    @staticmethod
    def random(rng: Rng, display: dict[str, str]) -> Style:
        colours = {name: draw.jitter_colour(draw.hex_to_bgr(hex_), rng)
                   for name, hex_ in display.items()}
        neutral = [(245, 245, 245), (230, 240, 245), (215, 225, 230), (60, 60, 60), (35, 30, 30),
                   (200, 215, 225)]

        def pick(options: list[BGR]) -> BGR:
            return options[int(rng.integers(0, len(options)))]

        light = [(250, 250, 250), (225, 240, 250), (235, 235, 225), (220, 230, 235),
                 (240, 230, 235)]
        return Style(
            colours=colours,
            board=pick(neutral),
            separator=pick([(255, 255, 255), (20, 20, 20), (120, 120, 120)]),
            separator_px=int(rng.integers(0, 5)),
            lane_pattern=("plain", "hatch", "dots")[int(rng.integers(0, 3))],
            row_lines=bool(rng.random() < 0.5),
            tile=pick(light),
            tile_scale=float(rng.uniform(1.25, 1.6)),
            tile_border=pick([(40, 40, 40), (150, 150, 150), (90, 120, 160)])
            if rng.random() < 0.5 else None,
            card=pick(light),
            card_border=pick([(40, 40, 40), (120, 90, 60), (60, 60, 140)])
            if rng.random() < 0.6 else None,
            head=("circle", "square", "round")[int(rng.integers(0, 3))],
            torso=("rect", "trapezoid")[int(rng.integers(0, 2))],
            legs=("two", "block")[int(rng.integers(0, 2))],
            outline=(20, 20, 20) if rng.random() < 0.5 else None,
            part_span=(float(rng.uniform(0.2, 0.3)), float(rng.uniform(0.7, 0.8))),
            part_width=float(rng.uniform(0.35, 0.6)),
            rm_card=pick(light),
            rm_ink=pick([(20, 20, 20), (90, 40, 30), (30, 30, 110)]),
            rm_art=("digit", "pips", "both", "colour")[int(rng.integers(0, 4))],
            rm_font=FONTS[int(rng.integers(0, len(FONTS) - 1))],
            rm_value_colours=[draw.jitter_colour(c, rng, 10, 0.2, 0.1) for c in (
                (60, 60, 200), (60, 160, 60), (200, 110, 40), (30, 190, 230), (160, 60, 160),
                (40, 110, 200))],
            rm_corner_index=bool(rng.random() < 0.5),
            rm_turned=bool(rng.random() < 0.5),
            marker_offset=float(rng.uniform(0.7, 1.3)),
            mat=bool(rng.random() < 0.5),
        )


# ---------------------------------------------------------------------------- tiles


def tile_patch(style: Style, marker_id: int, module_px: int) -> np.ndarray:
    marker = cv2.cvtColor(draw.marker_patch(marker_id, module_px), cv2.COLOR_GRAY2BGR)
    side = round(marker.shape[0] * style.tile_scale)
    tile = np.empty((side, side, 3), np.uint8)
    tile[:] = style.tile
    off = (side - marker.shape[0]) // 2
    # the quiet zone around a marker must be light whatever the tile colour
    pad = module_px // 2
    tile[off - pad:off + marker.shape[0] + pad, off - pad:off + marker.shape[0] + pad] = 250
    tile[off:off + marker.shape[0], off:off + marker.shape[0]] = marker
    if style.tile_border is not None:
        cv2.rectangle(tile, (0, 0), (side - 1, side - 1), style.tile_border, max(2, side // 25))
    return tile


def board_patch(style: Style, colours: list[str], lane_w: int, row_h: int, margin: int,
                rng: Rng) -> np.ndarray:
    w = margin * 2 + lane_w * 4
    h = margin * 2 + row_h * 3
    board = np.empty((h, w, 3), np.uint8)
    board[:] = style.board
    for i, name in enumerate(colours):
        x0 = margin + i * lane_w
        lane = board[margin:h - margin, x0:x0 + lane_w]
        lane[:] = style.colours[name]
        c = np.array(style.colours[name], np.float32)
        darker = tuple(int(v) for v in c * 0.8)
        if style.lane_pattern == "hatch":
            for k in range(-h, lane_w + h, 14):
                cv2.line(lane, (k, 0), (k + h, h), darker, 2)
        elif style.lane_pattern == "dots":
            for yy in range(6, lane.shape[0], 18):
                for xx in range(6, lane_w, 18):
                    cv2.circle(lane, (xx, yy), 2, darker, -1)
    if style.separator_px:
        for i in range(5):
            x = margin + i * lane_w
            cv2.line(board, (x, margin), (x, h - margin), style.separator, style.separator_px)
    if style.row_lines:
        for r in range(1, 3):
            y = margin + r * row_h
            cv2.line(board, (margin, y), (w - margin, y), style.separator,
                     max(1, style.separator_px))
    return board


def render_tiles(style: Style, colours: list[str], robots: dict[int, str], rng: Rng,
                 width: int = 1280, height: int = 720, marker_px: float | None = None,
                 hard: bool = False, hand: bool | None = None) -> np.ndarray:
    """Personal boards for seats 0..5 (up to six), each with its three tiles on the lanes of
    ``robots[seat]``. Seats not in ``robots`` show an empty board or none at all."""
    img = draw.table(width, height, rng)
    H_view = draw.view(width, height, rng)
    cell_w, cell_h = width / 3, height / 2
    if marker_px is None:
        marker_px = float(rng.uniform(20, 34) * width / 1280)
    module_px = 8
    for seat in range(6):
        row, col = divmod(seat, 3)
        shown = seat in robots or rng.random() < 0.3
        if not shown:
            continue
        tile_side = marker_px * style.tile_scale
        lane_w = tile_side * rng.uniform(1.35, 1.6)
        row_h = tile_side * rng.uniform(1.3, 1.5)
        margin = tile_side * 0.35
        # keep the board inside its share of the table whatever way it is turned
        bw, bh = lane_w * 4 + 2 * margin, row_h * 3 + 2 * margin
        fit = min(cell_w * 0.92 / max(bw, bh), cell_h * 0.92 / max(bw, bh), 1.0)
        s = fit
        board_scale = 3.0  # draw the board in finer pixels than the table
        patch = board_patch(style, colours, int(lane_w * board_scale), int(row_h * board_scale),
                            int(margin * board_scale), rng)
        angle = float(rng.choice([0, 90, 180, 270]) + rng.uniform(-12, 12))
        cx = (col + 0.5) * cell_w + rng.uniform(-0.04, 0.04) * cell_w
        cy = (row + 0.5) * cell_h + rng.uniform(-0.04, 0.04) * cell_h
        H_board = draw.place(patch.shape[1] * s / board_scale, patch.shape[0] * s / board_scale,
                             cx, cy, angle) @ draw.scale(s / board_scale)
        draw.paste(img, patch, H_view @ H_board,
                   draw.rounded_mask(patch.shape[1], patch.shape[0], int(margin)))
        if seat not in robots:
            continue
        parts = robots[seat].split("-")
        for part, colour in enumerate(parts):
            lane = colours.index(colour)
            tp = tile_patch(style, 3 * seat + part, module_px)
            tile_px = tp.shape[0]
            # tile centre in board pixels (drawn scale), with some slack inside its slot
            tx = (margin + (lane + 0.5) * lane_w + rng.uniform(-0.1, 0.1) * lane_w) * board_scale
            ty = (margin + (part + 0.5) * row_h + rng.uniform(-0.08, 0.08) * row_h) * board_scale
            k = tile_side * board_scale / tile_px
            H_tile = draw.place(tile_px * k, tile_px * k, tx, ty,
                                rng.uniform(-10, 10)) @ draw.scale(k)
            mask = draw.rounded_mask(tile_px, tile_px, tile_px // 10)
            draw.paste(img, tp, H_view @ H_board @ H_tile, mask)
    if hand if hand is not None else (hard and rng.random() < 0.5):
        draw.hand(img, rng, rng.uniform(0.15, 0.85) * width, rng.uniform(0.2, 0.8) * height,
                  rng.uniform(0.12, 0.22) * height, rng.uniform(0, 360))
    return draw.degrade(img, rng, hard)


# ---------------------------------------------------------------------------- order card


def card_patch(style: Style, parts: list[str], rng: Rng, w: int = 252, h: int = 352) -> np.ndarray:
    card = np.empty((h, w, 3), np.uint8)
    card[:] = style.card
    if style.card_border is not None:
        b = max(4, w // 30)
        cv2.rectangle(card, (b, b), (w - 1 - b, h - 1 - b), style.card_border, max(2, w // 60))
    first, last = style.part_span
    ys = [first, (first + last) / 2, last]
    step = (last - first) / 2 * h
    pw = style.part_width * w
    cx = w / 2
    grey = (150, 150, 150)
    outline = style.outline
    lw = max(2, w // 80)

    def fill_poly(pts: list[tuple[float, float]], colour: BGR) -> None:
        arr = np.array(pts, np.int32)
        cv2.fillPoly(card, [arr], colour, cv2.LINE_AA)
        if outline is not None:
            cv2.polylines(card, [arr], True, outline, lw, cv2.LINE_AA)

    # arms first, behind the torso
    ty = ys[1] * h
    cv2.line(card, (int(cx - pw * 0.5), int(ty - step * 0.3)),
             (int(cx - pw * 0.85), int(ty + step * 0.2)), grey, max(3, w // 30))
    cv2.line(card, (int(cx + pw * 0.5), int(ty - step * 0.3)),
             (int(cx + pw * 0.85), int(ty + step * 0.2)), grey, max(3, w // 30))
    head_c = style.colours[parts[0]]
    hy = ys[0] * h
    hr = min(pw * 0.38, step * 0.42)
    if style.head == "circle":
        cv2.circle(card, (int(cx), int(hy)), int(hr), head_c, -1, cv2.LINE_AA)
        if outline is not None:
            cv2.circle(card, (int(cx), int(hy)), int(hr), outline, lw, cv2.LINE_AA)
    else:
        fill_poly([(cx - hr, hy - hr), (cx + hr, hy - hr), (cx + hr, hy + hr), (cx - hr, hy + hr)],
                  head_c)
    for ex in (-0.4, 0.4):
        cv2.circle(card, (int(cx + ex * hr), int(hy - 0.1 * hr)), max(2, int(hr * 0.16)),
                   (255, 255, 255), -1, cv2.LINE_AA)
        cv2.circle(card, (int(cx + ex * hr), int(hy - 0.1 * hr)), max(1, int(hr * 0.07)),
                   (20, 20, 20), -1, cv2.LINE_AA)
    torso_c = style.colours[parts[1]]
    tw, th = pw * 0.5, step * 0.45
    if style.torso == "rect":
        fill_poly([(cx - tw, ty - th), (cx + tw, ty - th), (cx + tw, ty + th), (cx - tw, ty + th)],
                  torso_c)
    else:
        fill_poly([(cx - tw, ty - th), (cx + tw, ty - th), (cx + tw * 0.7, ty + th),
                   (cx - tw * 0.7, ty + th)], torso_c)
    legs_c = style.colours[parts[2]]
    ly = ys[2] * h
    lh = step * 0.45
    if style.legs == "two":
        for sx in (-1, 1):
            x0 = cx + sx * pw * 0.08
            x1 = cx + sx * pw * 0.38
            fill_poly([(x0, ly - lh), (x1, ly - lh), (x1, ly + lh), (x0, ly + lh)], legs_c)
    else:
        fill_poly([(cx - pw * 0.4, ly - lh), (cx + pw * 0.4, ly - lh), (cx + pw * 0.4, ly + lh),
                   (cx - pw * 0.4, ly + lh)], legs_c)
    return card


@dataclass(frozen=True)
class Drawing:
    """How a scene is put on the canvas: ``draw``'s whole-picture steps (datasets), or the demo
    camera's band-by-band ones that keep its memory low (vision/staged.py)."""

    table: Callable[[int, int, Rng], np.ndarray]
    paste: Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None], None]
    hand: Callable[[np.ndarray, Rng, float, float, float, float], None]
    camera: Callable[[np.ndarray, Rng, bool], np.ndarray]  # (picture, rng, hard)


WHOLE = Drawing(draw.table, draw.paste, draw.hand, draw.degrade)


@dataclass(frozen=True)
class OrderPose:
    """How a robot card is held up: the ranges its pose is drawn from."""

    size: tuple[float, float] = (0.5, 0.85)  # card height, as a share of the picture's
    turn: float = 18.0  # degrees either way
    tilt: float = 0.03  # perspective: corners moved by up to this share of the picture
    reach: tuple[float, float] = (0.0, 0.06)  # fingertips over the card's edge (card heights)


def render_order(style: Style, robot: str, rng: Rng, width: int = 1280, height: int = 720,
                 hard: bool = False, pose: OrderPose = OrderPose(),
                 drawing: Drawing = WHOLE) -> np.ndarray:
    """A robot card held up to the camera by a hand, against the room or the table."""
    img = drawing.table(width, height, rng)
    if rng.random() < 0.5:  # a room behind the card: soft and out of focus
        cv2.GaussianBlur(img, (0, 0), 6, dst=img)
    card = card_patch(style, robot.split("-"), rng)
    ch = height * rng.uniform(*pose.size)
    k = ch / card.shape[0]
    cx = width / 2 + rng.uniform(-0.15, 0.15) * width
    cy = height / 2 + rng.uniform(-0.05, 0.05) * height
    angle = rng.uniform(-pose.turn, pose.turn)
    H = draw.place(card.shape[1] * k, card.shape[0] * k, cx, cy, angle) @ draw.scale(k)
    src = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    tilt = rng.uniform(-pose.tilt, pose.tilt, (4, 2)) * [width, height]
    H = cv2.getPerspectiveTransform(src, (src + tilt).astype(np.float32)) @ H
    drawing.paste(img, card, H,
                  draw.rounded_mask(card.shape[1], card.shape[0], card.shape[1] // 16))
    # a hand holds it by the lower edge or a side; in clean scenes it keeps off the robot
    a = math.radians(angle)
    side = rng.choice(["bottom", "left", "right"])
    half_w, half_h = card.shape[1] * k / 2, card.shape[0] * k / 2
    size = ch * 0.3
    # how far the fingertips reach over the card's edge, as a share of the card's height
    reach = rng.uniform(*pose.reach) if not hard else rng.uniform(0.1, 0.3)
    out = 0.95 * size - reach * ch
    if side == "bottom":
        lx, ly, fa = rng.uniform(-0.3, 0.3) * half_w, half_h + out, -90
    elif side == "left":
        lx, ly, fa = -half_w - out, rng.uniform(0.2, 0.6) * half_h, 0
    else:
        lx, ly, fa = half_w + out, rng.uniform(0.2, 0.6) * half_h, 180
    hx = cx + lx * math.cos(a) - ly * math.sin(a)
    hy = cy + lx * math.sin(a) + ly * math.cos(a)
    drawing.hand(img, rng, hx, hy, size, fa + angle + rng.uniform(-10, 10))
    return drawing.camera(img, rng, hard)


# ---------------------------------------------------------------------------- Robot Master


PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]}


def rm_card_patch(style: Style, value: int, w: int = 120, h: int = 168) -> np.ndarray:
    card = np.empty((h, w, 3), np.uint8)
    ink = style.rm_ink
    card[:] = style.rm_card
    if style.rm_art == "colour":
        inner = card[h // 10:h - h // 10, w // 10:w - w // 10]
        inner[:] = style.rm_value_colours[value]
        ink = (255, 255, 255)
    cv2.rectangle(card, (3, 3), (w - 4, h - 4), (90, 90, 90), 2)
    if style.rm_art in ("digit", "colour", "both"):
        text = str(value)
        scale = 3.2 if style.rm_art != "both" else 2.2
        thick = 6 if style.rm_art != "both" else 4
        (tw, th), _ = cv2.getTextSize(text, style.rm_font, scale, thick)
        y = h // 2 + th // 2 if style.rm_art != "both" else int(h * 0.42) + th // 2
        cv2.putText(card, text, (w // 2 - tw // 2, y), style.rm_font, scale, ink, thick,
                    cv2.LINE_AA)
    if style.rm_art in ("pips", "both"):
        cy = h // 2 if style.rm_art == "pips" else int(h * 0.78)
        step = w * (0.25 if style.rm_art == "pips" else 0.12)
        r = int(w * (0.09 if style.rm_art == "pips" else 0.045))
        if value == 0:
            cv2.circle(card, (w // 2, cy), int(r * 1.6), ink, max(2, r // 3), cv2.LINE_AA)
        for dx, dy in PIPS.get(value, []):
            cv2.circle(card, (int(w / 2 + dx * step), int(cy + dy * step)), r, ink, -1,
                       cv2.LINE_AA)
    if style.rm_corner_index:
        cv2.putText(card, str(value), (8, 26), cv2.FONT_HERSHEY_SIMPLEX, 0.8, ink, 2, cv2.LINE_AA)
    return card


def render_grid(style: Style, grid: list[list[int | None]], rng: Rng, width: int = 1280,
                height: int = 720, marker_px: float | None = None, hard: bool = False,
                hand: bool | None = None) -> np.ndarray:
    """The 5x5 Robot Master play area (top row first) between markers 42..45."""
    img = draw.table(width, height, rng)
    H_view = draw.view(width, height, rng, turn=4.0)
    if marker_px is None:
        marker_px = float(rng.uniform(20, 36) * width / 1280)
    cell_h = (height * 0.84 - 2 * marker_px * (1 + style.marker_offset)) / 5
    cell_w = cell_h * rng.uniform(0.78, 0.95)
    area_w, area_h = cell_w * 5, cell_h * 5
    x0 = width / 2 - area_w / 2 + rng.uniform(-0.1, 0.1) * width
    y0 = height / 2 - area_h / 2
    if style.mat:
        mat = np.empty((int(area_h), int(area_w), 3), np.uint8)
        mat[:] = draw.jitter_colour((70, 110, 60), rng, 40, 0.3, 0.2)
        for i in range(6):
            x, y = int(i * cell_w), int(i * cell_h)
            cv2.line(mat, (min(x, mat.shape[1] - 1), 0), (min(x, mat.shape[1] - 1), mat.shape[0]),
                     (230, 230, 230), 2)
            cv2.line(mat, (0, min(y, mat.shape[0] - 1)), (mat.shape[1], min(y, mat.shape[0] - 1)),
                     (230, 230, 230), 2)
        draw.paste(img, mat, H_view @ draw.trans(x0, y0))
    corners = [(x0, y0), (x0 + area_w, y0), (x0 + area_w, y0 + area_h), (x0, y0 + area_h)]
    out_dirs = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    for i, ((mx, my), (dx, dy)) in enumerate(zip(corners, out_dirs, strict=True)):
        patch = draw.marker_patch(42 + i, 8)
        quiet = np.full((patch.shape[0] + 16, patch.shape[1] + 16), 250, np.uint8)
        quiet[8:-8, 8:-8] = patch
        off = style.marker_offset * marker_px
        k = marker_px / patch.shape[0]
        H = draw.place(quiet.shape[1] * k, quiet.shape[0] * k, mx + dx * off, my + dy * off,
                       rng.uniform(-5, 5)) @ draw.scale(k)
        draw.paste(img, quiet, H_view @ H)
    card_w = cell_w * rng.uniform(0.86, 0.94)
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value is None:
                continue
            patch = rm_card_patch(style, value)
            k = card_w / patch.shape[1]
            card_h = patch.shape[0] * k
            if card_h > cell_h * 0.96:
                k *= cell_h * 0.96 / card_h
            angle = rng.uniform(-4, 4) + (180 if style.rm_turned and rng.random() < 0.3 else 0)
            cx = x0 + (c + 0.5) * cell_w + rng.uniform(-0.03, 0.03) * cell_w
            cy = y0 + (r + 0.5) * cell_h + rng.uniform(-0.03, 0.03) * cell_h
            H = draw.place(patch.shape[1] * k, patch.shape[0] * k, cx, cy, angle) @ draw.scale(k)
            draw.paste(img, patch, H_view @ H, draw.rounded_mask(patch.shape[1], patch.shape[0], 8))
    if hand if hand is not None else (hard and rng.random() < 0.5):
        draw.hand(img, rng, x0 + rng.uniform(0, 1) * area_w, y0 + rng.uniform(0, 1) * area_h,
                  cell_h * rng.uniform(1.0, 1.6), rng.uniform(0, 360))
    return draw.degrade(img, rng, hard)
