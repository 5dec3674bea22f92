"""The three kinds of picture of DESIGN.md's dataset contract, each with its label.

``tiles``: personal boards around the table with part tiles face down on their lanes; the label
names the seats whose three tiles all lie on lanes. ``order``: one robot card held up to the
camera. ``grid``: Robot Master cards inside the four play-area markers, top row first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from . import boards, cards, hand, light
from .camera import View, look_down
from .compose import Shadow, paste, rects_overlap
from .paint import F32, F64, U8, Pen, blank, rot, rounded_rect
from .style import COLOURS, Style
from .table import table_view

CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


@dataclass(frozen=True)
class Shot:
    image: U8
    quality: int
    label: dict[str, Any]


class Tabletop:
    """The table under the camera as one canvas in millimetres."""

    def __init__(self, style: Style, view: View) -> None:
        x0, y0, x1, y1 = view.footprint(1.06)
        height = -float(view.centre[2])
        ppm = min(1.6 * view.f / height, 3.2, float(np.sqrt(7e6 / ((x1 - x0) * (y1 - y0)))))
        self.ppm = ppm
        self.origin = (x0, y0)
        w, h = int((x1 - x0) * ppm), int((y1 - y0) * ppm)
        cam = style.camera
        reach = cam.height_mm * 1.1 / cam.focal() * 1.3  # mm of table per pixel, and some
        extent = (cam.width * reach + 200, cam.height * reach + 200)
        self.canvas = table_view(style.table, style.table_seed, (x0, y0), w, h, ppm, extent)
        self.quads: list[F64] = []

    def place(self, sprite: F32, cx: float, cy: float, angle: float,
              shadow: Shadow | None) -> F64:
        return paste(self.canvas, sprite, self.ppm, cx, cy, angle, shadow, self.origin)

    def free(self, quad: F64) -> bool:
        return not any(rects_overlap(quad, q) for q in self.quads)


def _quad(cx: float, cy: float, w: float, h: float, angle: float) -> F64:
    pts = []
    for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        ox, oy = rot(dx, dy, angle)
        pts.append((cx + ox, cy + oy))
    return np.array(pts, np.float64)


def _pose(style: Style, rng: np.random.Generator, hard: bool, height: float) -> View:
    tilt = 10.0 if hard else 5.0
    return look_down(style.camera, (float(rng.uniform(-15, 15)), float(rng.uniform(-15, 15))),
                     height, float(rng.uniform(-tilt, tilt)), float(rng.uniform(-tilt, tilt)),
                     float(rng.uniform(-3, 3)))


def _seen(style: Style, view: View, height: float) -> tuple[float, float]:
    """Half width and half height (mm) of the table the final picture shows, roughly."""
    cam = style.camera
    return cam.width / 2 / view.f * height, cam.height / 2 / view.f * height


def _shadow(lt: light.Light, lift: float, soft: float, strength: float) -> Shadow:
    return Shadow(lt.shadow_dir[0] * lift, lt.shadow_dir[1] * lift, soft, strength)


def _finish(view: View, frame: F32, lt: light.Light, rng: np.random.Generator,
            hard: bool) -> tuple[U8, int]:
    frame = frame * lt.field
    img = view.distort(frame)
    img = light.vignette(img, float(rng.uniform(0.1, 0.35)))
    if hard and rng.random() < 0.4:
        img = light.motion(img, float(rng.uniform(4, 11)), float(rng.uniform(0, 180)))
    else:
        img = light.defocus(img, float(rng.uniform(1.2, 3.0)) if hard
                            else float(rng.uniform(0.0, 0.9)))
    out = light.sensor(img, lt.level, rng, hard)
    quality = int(rng.integers(55, 80)) if hard else int(rng.integers(72, 94))
    return out, quality


def _hand_over(view: View, frame: F32, style: Style, lt: light.Light, tip: tuple[float, float],
               rng: np.random.Generator) -> None:
    """A hand reaching in over the table, about 15 cm above it, from the nearest picture edge."""
    height = -float(view.centre[2])
    H = view.table_homography()
    p = H @ np.array([tip[0], tip[1], 1.0])
    u, v = p[0] / p[2], p[1] / p[2]
    w, h = view.frame
    # the fingers point away from the picture edge nearest the tip (the arm comes from there)
    angle = float(np.degrees(np.arctan2(v - h / 2, u - w / 2))) + 180 + float(rng.uniform(-35, 35))
    hd = hand.Hand((float(u), float(v)), angle, view.f / (height - 150),
                   float(rng.uniform(0.6, 1.0)))
    body, thumb, sleeve = hand.masks(hd, (w, h))
    both = np.maximum(np.maximum(body, thumb), sleeve)
    off = 60 * hd.scale
    hand.shadow(frame, both, (lt.shadow_dir[0] * off, lt.shadow_dir[1] * off), 18 * hd.scale,
                0.45)
    hand.paint(frame, sleeve, style.sleeve, hd.scale)
    hand.paint(frame, body, style.skin, hd.scale)
    hand.paint(frame, thumb, style.skin, hd.scale)


# ---------------------------------------------------------------- tiles


def _lay_boards(style: Style, top: Tabletop, rng: np.random.Generator, n: int,
                half: tuple[float, float]) -> list[tuple[float, float, float]]:
    bw, bh = boards.board_lanes(style).size
    placed: list[tuple[float, float, float]] = []
    for _ in range(400):
        if len(placed) == n:
            break
        x = float(rng.uniform(-half[0], half[0]))
        y = float(rng.uniform(-half[1], half[1]))
        # a board faces the player sitting at the nearest table edge
        if abs(y) / half[1] > abs(x) / half[0]:
            angle = 0.0 if y > 0 else 180.0
        else:
            angle = -90.0 if x > 0 else 90.0
        angle += float(rng.uniform(-8, 8))
        quad = _quad(x, y, bw, bh, angle)
        if (np.abs(quad[:, 0]) > half[0]).any() or (np.abs(quad[:, 1]) > half[1]).any():
            continue
        grown = _quad(x, y, bw + 50, bh + 50, angle)
        if any(rects_overlap(grown, _quad(px, py, bw, bh, pa)) for px, py, pa in placed):
            continue
        placed.append((x, y, angle))
    return placed


def _aside(top: Tabletop, size: float, near: tuple[float, float], rng: np.random.Generator,
           half: tuple[float, float]) -> tuple[float, float, float] | None:
    for _ in range(60):
        x = near[0] + float(rng.uniform(-160, 160))
        y = near[1] + float(rng.uniform(-160, 160))
        a = float(rng.uniform(0, 360))
        quad = _quad(x, y, size + 4, size + 4, a)
        if (np.abs(quad[:, 0]) < half[0]).all() and (np.abs(quad[:, 1]) < half[1]).all() \
                and top.free(quad):
            top.quads.append(quad)
            return x, y, a
    return None


def tiles_shot(style: Style, rng: np.random.Generator, hard: bool,
               colours_wanted: bool = False) -> Shot:
    cam = style.camera
    height = cam.height_mm * float(rng.uniform(0.95, 1.05))
    view = _pose(style, rng, hard, height)
    top = Tabletop(style, view)
    lt = light.lighting(view.frame, rng, hard)
    hx, hy = _seen(style, view, height)
    half = (hx * 0.9, hy * 0.9)
    spots = _lay_boards(style, top, rng, int(rng.integers(1, 5)), half)
    seats = sorted(int(s) for s in rng.choice(6, size=len(spots), replace=False))
    # seats go clockwise round the table: sort the boards by their bearing from the middle
    spots.sort(key=lambda s: float(np.arctan2(s[1], s[0])))
    start = int(rng.integers(len(spots))) if spots else 0
    spots = spots[start:] + spots[:start]
    lanes = boards.board_lanes(style)
    bw, bh = lanes.size
    robots: dict[str, str] = {}
    pending: list[tuple[F32, float, float, float]] = []
    # every board is known before any tile is laid aside, so none lands on another's lanes
    top.quads.extend(_quad(x, y, bw, bh, angle) for x, y, angle in spots)
    for (x, y, angle), seat in zip(spots, seats, strict=True):
        top.place(boards.personal_board(style, seat, top.ppm, rng), x, y, angle,
                  _shadow(lt, 1.5, 1.5, 0.35))
        robot = tuple(str(rng.choice(COLOURS)) for _ in range(3))
        fate = rng.random()
        on_lanes = [True, True, True] if fate < 0.8 or not robots else \
            ([False, False, False] if fate < 0.9 else [True, True, False])
        rng.shuffle(on_lanes)
        used: dict[str, list[int]] = {}
        for part in range(3):
            tile = boards.part_tile(style, seat, part, top.ppm, rng,
                                    face_up=not on_lanes[part] and rng.random() < 0.3)
            size = tile.shape[0] / top.ppm
            if on_lanes[part]:
                colour = robot[part]
                free = [k for k in range(3) if k not in used.get(colour, [])]
                k = int(rng.choice(free))
                used.setdefault(colour, []).append(k)
                lx, ly = lanes.slot(colour, k, rng, size)
                ox, oy = rot(lx - bw / 2, ly - bh / 2, angle)
                spin = angle + float(rng.uniform(-12, 12)) + 90 * int(rng.integers(4))
                pending.append((tile, x + ox, y + oy, spin))
            else:
                spot = _aside(top, size, (x, y), rng, half)
                if spot is not None:
                    pending.append((tile, *spot))
        if all(on_lanes):
            robots[str(seat)] = "-".join(robot)
        if all(on_lanes) and rng.random() < 0.2:  # Eureka: the siren on the red dot
            b = style.board
            dot = (b.margin + (bw - 2 * b.margin) - 9, b.margin + 9) if b.vertical else \
                (b.margin + b.header / 2, b.margin + 9)
            ox, oy = rot(dot[0] - bw / 2, dot[1] - bh / 2, angle)
            pending.append((boards.siren(top.ppm), x + ox, y + oy, 0.0))
    for tile, tx, ty, spin in pending:
        top.place(tile, tx, ty, spin, _shadow(lt, 1.2, 0.9, 0.4))
    for _ in range(int(rng.integers(0, 7))):  # energy cubes lying about
        spot = _aside(top, 10, (0.0, 0.0), rng, half)
        if spot is not None:
            top.place(boards.cube(top.ppm, (236, 190, 60)), *spot, _shadow(lt, 3, 1.5, 0.4))
    frame = view.render_table(top.canvas, top.origin, top.ppm)
    if hard and spots and rng.random() < 0.6:
        x, y, _ = spots[int(rng.integers(len(spots)))]
        _hand_over(view, frame, style, lt, (x + float(rng.uniform(-60, 60)),
                                            y + float(rng.uniform(-60, 60))), rng)
    img, q = _finish(view, frame, lt, rng, hard)
    return Shot(img, q, {"kind": "tiles", "robots": robots})


# ---------------------------------------------------------------- order card


def _card_pose(view: View, w_mm: float, h_mm: float, rng: np.random.Generator,
               hard: bool) -> F64:
    """3x3 homography from the card's own millimetres (origin at its centre) to the frame."""
    cam = view.camera
    fw, fh = view.frame
    frac = float(rng.uniform(0.38, 0.68))
    depth = view.f * h_mm / (frac * cam.height)
    u = fw / 2 + float(rng.uniform(-0.18, 0.18)) * cam.width
    v = fh / 2 + float(rng.uniform(-0.12, 0.12)) * cam.height
    centre = np.array([(u - fw / 2) / view.f * depth, (v - fh / 2) / view.f * depth, depth])
    tilt = 25.0 if hard else 12.0
    spin = float(rng.uniform(-18, 18)) + (180.0 if rng.random() < 0.1 else 0.0)
    a, b, c = (np.radians(t) for t in (float(rng.uniform(-tilt, tilt)),
                                       float(rng.uniform(-tilt, tilt)), spin))
    Rx = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    Ry = np.array([[np.cos(b), 0, np.sin(b)], [0, 1, 0], [-np.sin(b), 0, np.cos(b)]])
    Rz = np.array([[np.cos(c), -np.sin(c), 0], [np.sin(c), np.cos(c), 0], [0, 0, 1]])
    R = Rz @ Rx @ Ry
    local = np.array([[-w_mm / 2, -h_mm / 2, 0], [w_mm / 2, -h_mm / 2, 0],
                      [w_mm / 2, h_mm / 2, 0], [-w_mm / 2, h_mm / 2, 0]])
    pts = view.project(local @ R.T + centre)
    return np.asarray(cv2.getPerspectiveTransform(local[:, :2].astype(np.float32),
                                                  pts.astype(np.float32)), np.float64)


def _on_card(Hc: F64, pts: list[tuple[float, float]]) -> np.ndarray:
    p = np.c_[np.array(pts, np.float64), np.ones(len(pts))] @ Hc.T
    return np.asarray(np.round(p[:, :2] / p[:, 2:] * 8), np.int32)


def order_shot(style: Style, rng: np.random.Generator, hard: bool,
               robot: tuple[str, str, str] | None = None) -> Shot:
    cam = style.camera
    height = cam.height_mm * float(rng.uniform(0.95, 1.05))
    view = _pose(style, rng, hard, height)
    top = Tabletop(style, view)
    lt = light.lighting(view.frame, rng, hard)
    hx, hy = _seen(style, view, height)
    for x, y, angle in _lay_boards(style, top, rng, int(rng.integers(0, 3)),
                                   (hx * 0.9, hy * 0.9)):
        top.place(boards.personal_board(style, int(rng.integers(6)), top.ppm, rng), x, y, angle,
                  _shadow(lt, 1.5, 1.5, 0.35))
    frame = view.render_table(top.canvas, top.origin, top.ppm)
    frame = light.defocus(frame, float(rng.uniform(2.0, 6.0)))  # the table is out of focus
    if robot is None:
        robot = (str(rng.choice(COLOURS)), str(rng.choice(COLOURS)), str(rng.choice(COLOURS)))
    c = style.robot_card
    Hc = _card_pose(view, c.w, c.h, rng, hard)
    fw, fh = view.frame
    scale = float(np.sqrt(abs(np.linalg.det(Hc[:2, :2])))) / float(Hc[2, 2])
    ppm = max(4.0, scale * 1.4)
    sprite = cards.robot_card(style, robot, ppm)
    to_sprite = np.array([[1 / ppm, 0, -c.w / 2], [0, 1 / ppm, -c.h / 2], [0, 0, 1]])
    warped = cv2.warpPerspective(sprite, Hc @ to_sprite, (fw, fh), flags=cv2.INTER_LINEAR)
    alpha = warped[..., 3]
    # the card and the hand shade the far table
    off = 90 * scale / 3
    hand.shadow(frame, (alpha * 255).astype(np.uint8),
                (lt.shadow_dir[0] * off, lt.shadow_dir[1] * off), 30.0, 0.3)
    # the hand: palm and arm behind the card, the thumb in front, gripping one edge
    edge = str(rng.choice(["bottom", "bottom", "left", "right", "corner"]))
    gx, gy = {"bottom": (float(rng.uniform(-0.3, 0.3)) * c.w, c.h / 2),
              "left": (-c.w / 2, float(rng.uniform(0.0, 0.35)) * c.h),
              "right": (c.w / 2, float(rng.uniform(0.0, 0.35)) * c.h),
              "corner": (c.w / 2 * float(rng.choice([-1, 1])), c.h / 2)}[edge]
    out = np.array([gx / (c.w / 2) if edge != "bottom" else 0.0,
                    1.0 if edge in ("bottom", "corner") else 0.0])
    out /= np.linalg.norm(out)
    side = np.array([-out[1], out[0]])
    g = np.array([gx, gy])
    body = np.zeros((fh, fw), np.uint8)
    sleeve = np.zeros((fh, fw), np.uint8)
    thumb = np.zeros((fh, fw), np.uint8)
    palm = g + out * 48
    circle = [tuple(palm + 46 * np.array([np.cos(t), np.sin(t)]))
              for t in np.linspace(0, 2 * np.pi, 32)]
    cv2.fillPoly(body, [_on_card(Hc, circle)], 255, cv2.LINE_AA, 3)
    for lo, hi, wd, m in ((40, 140, 36, body), (130, 900, 46, sleeve)):
        quad = [tuple(g + out * lo + side * wd), tuple(g + out * hi + side * wd),
                tuple(g + out * hi - side * wd), tuple(g + out * lo - side * wd)]
        cv2.fillPoly(m, [_on_card(Hc, quad)], 255, cv2.LINE_AA, 3)
    depth = float(rng.uniform(8, 20)) if hard else float(rng.uniform(3, 8))
    tip = g - out * (depth - 9) + side * float(rng.uniform(-6, 6))  # the nail 9 mm further
    base = g + out * 30 + side * 14
    d = (tip - base) / np.linalg.norm(tip - base)
    n = np.array([-d[1], d[0]]) * 10
    thumb_pts = [tuple(base + n), tuple(tip + n * 0.9)]
    thumb_pts += [tuple(tip + d * 9 * np.cos(t) + n * 0.9 * np.sin(t))
                  for t in np.linspace(np.pi / 2, -np.pi / 2, 9)]
    thumb_pts += [tuple(tip - n * 0.9), tuple(base - n)]
    cv2.fillPoly(thumb, [_on_card(Hc, thumb_pts)], 255, cv2.LINE_AA, 3)
    hand.paint(frame, sleeve, style.sleeve, scale)
    hand.paint(frame, body, style.skin, scale)
    frame = frame * (1 - alpha[..., None]) + warped[..., :3] * alpha[..., None]
    if rng.random() < (0.6 if hard else 0.35):  # a gloss highlight on the card
        gloss = np.zeros((fh, fw), np.float32)
        gp = [tuple(np.array([float(rng.uniform(-0.3, 0.3)) * c.w,
                              float(rng.uniform(-0.3, 0.3)) * c.h])
                    + 14 * np.array([np.cos(t), 0.6 * np.sin(t)]))
              for t in np.linspace(0, 2 * np.pi, 24)]
        cv2.fillPoly(gloss, [_on_card(Hc, gp)], 1.0, cv2.LINE_AA, 3)
        gloss = cv2.GaussianBlur(gloss, (0, 0), 6 * scale) * alpha
        k = float(rng.uniform(0.1, 0.35 if hard else 0.2))
        frame = frame + (k * gloss)[..., None]
    hand.paint(frame, thumb, style.skin, scale)
    img, q = _finish(view, np.asarray(frame, np.float32), lt, rng, hard)
    return Shot(img, q, {"kind": "order", "robot": "-".join(robot)})


# ---------------------------------------------------------------- Robot Master grid


def game_grid(rng: np.random.Generator, count: int) -> list[list[int | None]]:
    """A legal position: ``count`` cards grown from the centre, at most six of each value."""
    deck = [v for v in range(6) for _ in range(6)]
    rng.shuffle(deck)
    grid: list[list[int | None]] = [[None] * 5 for _ in range(5)]
    grid[2][2] = deck.pop()
    for _ in range(count - 1):
        frontier = [(r, c) for r in range(5) for c in range(5) if grid[r][c] is None and any(
            0 <= r + dr < 5 and 0 <= c + dc < 5 and grid[r + dr][c + dc] is not None
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))]
        r, c = frontier[int(rng.integers(len(frontier)))]
        grid[r][c] = deck.pop()
    return grid


def grid_shot(style: Style, rng: np.random.Generator, hard: bool,
              count: int | None = None) -> Shot:
    cam = style.camera
    mc = style.master_card
    gap = style.gap
    aw, ah = 5 * mc.w + 4 * gap, 5 * mc.h + 4 * gap
    height = cam.height_mm * float(rng.uniform(0.97, 1.05))
    view = _pose(style, rng, hard, height)
    top = Tabletop(style, view)
    lt = light.lighting(view.frame, rng, hard)
    ax, ay = float(rng.uniform(-20, 20)), float(rng.uniform(-12, 12))
    turn = float(rng.uniform(-6, 6))

    def at(px: float, py: float) -> tuple[float, float]:
        """Area millimetres (from its top-left) -> table millimetres."""
        ox, oy = rot(px - aw / 2, py - ah / 2, turn)
        return ax + ox, ay + oy

    if style.mat:
        mat = blank(aw + 14, ah + 14, top.ppm)
        pen = Pen(mat, top.ppm)
        pen.rect(0, 0, aw + 14, ah + 14, style.mat_colour, r=4)
        r0, g0, b0 = style.mat_colour
        light_line = (min(255, r0 + 40), min(255, g0 + 40), min(255, b0 + 40))
        for r in range(5):
            for c in range(5):
                pen.outline(rounded_rect(7 + c * (mc.w + gap) - 0.5, 7 + r * (mc.h + gap) - 0.5,
                                         mc.w + 1, mc.h + 1, 2), light_line, 0.4)
        top.place(mat, ax, ay, turn, _shadow(lt, 0.6, 1.0, 0.2))
    sample = boards.sticker(style, 42, "", top.ppm, rng)
    side = max(sample.shape[:2]) / top.ppm
    out = side / 2 + gap * 1.5 + 3
    for k, (px, py) in enumerate(((-out, -out), (aw + out, -out), (aw + out, ah + out),
                                  (-out, ah + out))):
        mid = 42 + k
        st = boards.sticker(style, mid, f"id {mid}: play area {CORNER_NAMES[k]}", top.ppm, rng)
        top.place(st, *at(px, py), turn + float(rng.uniform(-4, 4)), None)
    if count is None:
        count = int(rng.integers(1, 26))
    grid = game_grid(rng, count)
    for r in range(5):
        for c in range(5):
            value = grid[r][c]
            if value is None:
                continue
            px = c * (mc.w + gap) + mc.w / 2 + float(rng.uniform(-1.2, 1.2))
            py = r * (mc.h + gap) + mc.h / 2 + float(rng.uniform(-1.2, 1.2))
            spin = turn + float(rng.uniform(-2.5, 2.5)) + (180.0 if rng.random() < 0.5 else 0.0)
            top.place(cards.master_card(style, value, top.ppm), *at(px, py), spin,
                      _shadow(lt, 0.8, 0.8, 0.3))
    if rng.random() < 0.5:  # the unused cards, face down, beside the area
        beyond = out + side / 2 + 12 + mc.h / 2 + float(rng.uniform(0, 20))
        bx, by = at(aw + beyond if rng.random() < 0.5 else -beyond,
                    ah / 2 + float(rng.uniform(-60, 60)))
        back = cards.card_back(style, mc.w, mc.h, top.ppm)
        for k in range(int(rng.integers(2, 6))):
            top.place(back, bx + k * 0.4, by - k * 0.5, turn + 90 + float(rng.uniform(-8, 8)),
                      _shadow(lt, 0.8, 0.8, 0.25))
    frame = view.render_table(top.canvas, top.origin, top.ppm)
    if hard and rng.random() < 0.6:
        _hand_over(view, frame, style, lt, at(float(rng.uniform(0, aw)), float(rng.uniform(0, ah))),
                   rng)
    img, q = _finish(view, frame, lt, rng, hard)
    return Shot(img, q, {"kind": "grid", "grid": grid})
