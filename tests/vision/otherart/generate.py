"""Write a vision dataset (DESIGN.md "Vision datasets") with art and conditions of its own.

    python -m tests.vision.otherart OUT [--n N] [--seed S] [--hard]

writes ``OUT/calibration`` (12 labelled pictures: 4 of each kind, taken the way the guided
calibration asks) and ``OUT/test`` (N pictures of each kind), plus ``OUT/otherart-look.json``
describing the dataset's look (for whoever studies a failure). ``--hard`` makes every test
picture hard: strong blur or motion blur, low light, a hand over the scene (one or more).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image

from . import art
from .look import Look, hsv, random_look, sticker_size
from .optics import (
    Arr,
    Conditions,
    View,
    apply_conditions,
    draw_hand,
    encode,
    make_view,
    soft,
    surface_texture,
    table_texture,
)

COLOURS = ["red", "green", "blue", "yellow"]
KINDS = ("tiles", "order", "grid")
#: how far from facing the lens a held card may be turned, degrees
CARD_TILT_DEG = 14.0


class NoRoom(Exception):
    """The random layout did not fit the view; draw another."""


@dataclass
class Placed:
    sprite: Image.Image
    centre: tuple[float, float]  # mm
    angle: float  # degrees, clockwise on the table
    lift: float = 0.0  # mm above the table, for the shadow


@dataclass
class Table:
    """What lies on the table, in millimetres, drawn in order."""

    items: list[Placed] = field(default_factory=list)
    obstacles: list[Arr] = field(default_factory=list)  # footprints (4x2, mm) kept apart


def rot(angle_deg: float) -> Arr:
    a = math.radians(angle_deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def footprint(centre: tuple[float, float], w: float, h: float, angle: float,
              grow: float = 0.0) -> Arr:
    local = np.array([[-w / 2 - grow, -h / 2 - grow], [w / 2 + grow, -h / 2 - grow],
                      [w / 2 + grow, h / 2 + grow], [-w / 2 - grow, h / 2 + grow]])
    out: Arr = (rot(angle) @ local.T).T + np.array(centre)
    return out


def overlaps(a: Arr, b: Arr) -> bool:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area) > 0


def across(view: View) -> float:
    """The direction on the table (degrees) that runs left to right across the picture."""
    centre_px = [view.width / 2, view.height / 2]
    back = cv2.perspectiveTransform(np.array([[centre_px, [centre_px[0] + 100, centre_px[1]]]]),
                                    np.linalg.inv(view.table_to_image()))[0]
    return math.degrees(math.atan2(back[1, 1] - back[0, 1], back[1, 0] - back[0, 0]))


def free(table: Table, fp: Arr) -> bool:
    return not any(overlaps(fp, o) for o in table.obstacles)


# ---------------------------------------------------------------------------- rendering


def render(look: Look, view: View, table: Table, rng: np.random.Generator,
           surface: tuple[Arr, tuple[int, int, int], bool] | None = None,
           printed_grid: Arr | None = None) -> Arr:
    """The table with everything on it, as the camera sees it (BGR, before the sensor)."""
    x0, y0, x1, y1 = view.footprint()
    x0, y0 = max(x0, -1600.0), max(y0, -1600.0)
    x1, y1 = min(x1, 1600.0), min(y1, 1600.0)
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), ((x0 + x1) / 2, (y0 + y1) / 2)]
    scale = max(view.px_per_mm(x, y) for x, y in corners)
    ppm = float(min(3.4, max(1.2, 1.5 * scale)))
    w, h = round((x1 - x0) * ppm), round((y1 - y0) * ppm)
    base = table_texture(look, w, h, ppm, rng)
    img = Image.fromarray(base, "RGB").convert("RGBA")

    def to_px(p: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] - x0) * ppm, (p[1] - y0) * ppm)

    if surface is not None:
        quad, rgb, felt = surface
        tex = Image.fromarray(surface_texture(rgb, w, h, ppm, rng, felt), "RGB").convert("RGBA")
        mask = Image.new("L", (w, h), 0)
        from PIL import ImageDraw, ImageFilter

        ImageDraw.Draw(mask).polygon([to_px((float(x), float(y))) for x, y in quad], fill=255)
        shadow = mask.filter(ImageFilter.GaussianBlur(2.0 * ppm)).point(lambda v: round(v * 0.4))
        dark = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        dark.putalpha(shadow)
        img.alpha_composite(dark, (round(1.0 * ppm), round(1.5 * ppm)))
        img.paste(tex, (0, 0), mask)
        if printed_grid is not None:  # the mat's printed cell outlines
            d = ImageDraw.Draw(img)
            line = (*art.shade(rgb, 0.72), 255)
            for seg in printed_grid:
                d.line([to_px((float(seg[0]), float(seg[1]))),
                        to_px((float(seg[2]), float(seg[3])))], fill=line,
                       width=max(1, round(0.6 * ppm)))
    light = rng.uniform(0, 2 * math.pi)
    for item in table.items:
        sprite = item.sprite
        if abs(sprite.info.get("ppm", ppm) - ppm) > 1e-6:
            raise AssertionError("sprite drawn at another scale")
        turned = sprite.rotate(-item.angle, resample=Image.Resampling.BICUBIC, expand=True)
        cx, cy = to_px(item.centre)
        if item.lift > 0:
            sh = art.shadow_of(turned, ppm, 0.6 + item.lift * 0.5, 0.55)
            dx = math.cos(light) * item.lift * 1.5 * ppm
            dy = math.sin(light) * item.lift * 1.5 * ppm
            img.alpha_composite(sh, (round(cx - sh.width / 2 + dx), round(cy - sh.height / 2 + dy)))
        img.alpha_composite(turned, (round(cx - turned.width / 2), round(cy - turned.height / 2)))
    rgb_arr = np.asarray(img.convert("RGB"))
    bgr = cv2.cvtColor(rgb_arr, cv2.COLOR_RGB2BGR)
    centre_scale = view.px_per_mm(0.0, 0.0)
    sigma = 0.45 * ppm / max(centre_scale, 1e-6)
    if sigma > 0.5:  # the lens averages what one pixel sees
        bgr = cv2.GaussianBlur(bgr, (0, 0), sigma)
    a = np.array([[1 / ppm, 0, x0], [0, 1 / ppm, y0], [0, 0, 1.0]])
    hmg = view.table_to_image() @ a
    return cv2.warpPerspective(bgr, hmg, (view.width, view.height), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)


def sprite_ppm(look: Look, view: View) -> float:
    x0, y0, x1, y1 = view.footprint()
    x0, y0 = max(x0, -1600.0), max(y0, -1600.0)
    x1, y1 = min(x1, 1600.0), min(y1, 1600.0)
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), ((x0 + x1) / 2, (y0 + y1) / 2)]
    scale = max(view.px_per_mm(x, y) for x, y in corners)
    return float(min(3.4, max(1.2, 1.5 * scale)))


def tagged(sprite: Image.Image, ppm: float) -> Image.Image:
    sprite.info["ppm"] = ppm
    return sprite


def scatter(look: Look, view: View, table: Table, rng: np.random.Generator, ppm: float,
            count: int) -> None:
    """Energy cubes, data tiles, a die and face-down cards on free table space."""
    x0, y0, x1, y1 = view.footprint()
    for _ in range(count * 6):
        if count <= 0:
            break
        c = (float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1)))
        what = rng.random()
        if what < 0.45:
            side = 8.0 if rng.random() < 0.7 else 12.0
            colour = hsv(float(rng.choice([45.0, 100.0, 190.0])), 0.5, 0.9)
            sprite = art.cube(ppm, side, colour, rng)
            size = (side * 1.3, side * 1.3)
            lift = side * 0.6
        elif what < 0.75:
            sprite = art.data_tile(ppm, int(rng.integers(0, 4)), rng)
            size, lift = (26.0, 26.0), 1.0
        else:
            sprite = art.card_back(look.rcard_w, look.rcard_h, ppm, look.rcard_frame, rng)
            size, lift = (look.rcard_w, look.rcard_h), 1.5
        angle = float(rng.uniform(0, 360))
        fp = footprint(c, size[0], size[1], angle, grow=6.0)
        if free(table, fp):
            table.items.append(Placed(tagged(sprite, ppm), c, angle, lift))
            table.obstacles.append(fp)
            count -= 1


# ---------------------------------------------------------------------------- tiles


def tiles_scene(look: Look, rng: np.random.Generator, calibration: bool, hard: bool,
                notes: dict[str, Any] | None = None) -> tuple[Arr, dict[str, Any]]:
    for _ in range(40):
        try:
            return _tiles_scene(look, rng, calibration, hard, notes if notes is not None else {})
        except NoRoom:
            continue
    raise RuntimeError("no tiles layout fits this camera")


def _tiles_scene(look: Look, rng: np.random.Generator, calibration: bool, hard: bool,
                 notes: dict[str, Any]) -> tuple[Arr, dict[str, Any]]:
    tilt = rng.uniform(0, look.tilt_max_deg)
    view = make_view(look, rng, tilt, rng.uniform(-180, 180))
    ppm = sprite_ppm(look, view)
    g = art.board_geometry(look)
    players = int(rng.integers(3, 6)) if calibration else int(rng.integers(2, 7))
    table = Table()
    boards: list[tuple[int, tuple[float, float], float]] = []
    for attempt in range(60):
        n = max(1, players - attempt // 12)
        seats = sorted(rng.choice(6, size=n, replace=False).tolist()) if n < 6 else list(range(6))
        if n <= 3 and rng.random() < 0.4:
            trial = _round_layout(rng, seats, g, view)
        else:
            trial = _two_sides_layout(rng, seats, g, across(view))
        fps = [footprint(c, g.width, g.height, a, grow=8.0) for _, c, a in trial]
        if all(view.in_view(footprint(c, g.width, g.height, a), 6.0) for _, c, a in trial) and \
                not any(overlaps(fps[i], fps[j]) for i in range(n) for j in range(i + 1, n)):
            boards = trial
            table.obstacles.extend(fps)
            break
    if not boards:
        raise NoRoom
    robots: dict[str, str] = {}
    tiles_on_lanes: list[tuple[int, tuple[float, float], float]] = []
    off_board: list[tuple[int, tuple[float, float], float]] = []
    customer = -1 if calibration else int(rng.integers(0, len(boards)))
    shift = int(rng.integers(0, 4))
    for k, (seat, centre, angle) in enumerate(boards):
        table.items.append(Placed(tagged(art.board(look, ppm, seat, rng), ppm), centre, angle,
                                  1.2))
        if calibration:  # the guided prompts: every colour in every part over the four pictures
            robot = tuple(COLOURS[(shift + k + p) % 4] for p in range(3))
        else:
            robot = tuple(str(c) for c in rng.choice(COLOURS, size=3))
        outward = rot(angle) @ np.array([0.0, 1.0])
        if k == customer:  # the Customer builds nothing: its tiles wait beside its board
            for p in range(3):
                off_board.append((3 * seat + p, _beside(centre, outward, angle, g, p, look), angle))
            continue
        missing = -1
        if not calibration and rng.random() < 0.12:  # one tile still in the player's hand
            missing = int(rng.integers(0, 3))
        slots = _lane_slots(look, g, robot, rng)
        for p in range(3):
            if p == missing:
                if rng.random() < 0.5:
                    off_board.append((3 * seat + p, _beside(centre, outward, angle, g, p, look),
                                      angle))
                continue
            lx, ly = slots[p]
            local = np.array([lx - g.width / 2, ly - g.height / 2])
            world = rot(angle) @ local + np.array(centre)
            turn = angle + int(rng.integers(0, 4)) * 90 + rng.uniform(-8, 8)
            tiles_on_lanes.append((3 * seat + p, (float(world[0]), float(world[1])), turn))
        if missing < 0:
            robots[str(seat)] = "-".join(robot)
    for marker_id, c, turn in tiles_on_lanes:
        table.items.append(Placed(tagged(art.part_tile(look, ppm, marker_id, rng), ppm), c, turn,
                                  1.6))
    for marker_id, c, turn in off_board:
        t = look.tile_mm
        fp = footprint(c, t, t, turn, grow=4.0)
        if free(table, fp) and view.in_view(footprint(c, t, t, turn), 4.0):
            table.items.append(Placed(tagged(art.part_tile(look, ppm, marker_id, rng), ppm), c,
                                      turn + rng.uniform(-20, 20), 1.6))
            table.obstacles.append(fp)
    scatter(look, view, table, rng, ppm, int(rng.integers(2, 9)))
    img = render(look, view, table, rng)
    label = {"kind": "tiles", "robots": robots}
    hand = False
    if hard:
        blur, dark, hand = _hard_mix(rng)
        cond = Conditions.hard(rng, blur, dark)
    else:
        cond = Conditions.clean(rng)
    if hand and tiles_on_lanes:
        marker_id, c, _ = tiles_on_lanes[int(rng.integers(0, len(tiles_on_lanes)))]
        img = _hand_over(img, look, view, c, rng)
        notes["hand_over_marker"] = marker_id
    notes.update(tilt=round(tilt, 1), conditions=asdict(cond),
                 seats_seen=[seat for seat, _, _ in boards])
    return _sensor(img, cond, rng), label


def _round_layout(rng: np.random.Generator, seats: list[int], g: art.BoardGeometry,
                  view: View) -> list[tuple[int, tuple[float, float], float]]:
    """A few boards around the middle of the view, each facing its player."""
    x0, y0, x1, y1 = view.footprint()
    n = len(seats)
    a0 = rng.uniform(0, 2 * math.pi)
    shrink = rng.uniform(0.55, 0.95)
    ax = (x1 - x0) / 2 * shrink - min(g.width, g.height) / 2
    ay = (y1 - y0) / 2 * shrink - min(g.width, g.height) / 2
    out = []
    for k, seat in enumerate(seats):
        a = a0 + k * 2 * math.pi / n  # clockwise seen from above
        centre = (float(ax * math.cos(a)), float(ay * math.sin(a)))
        out.append((seat, centre, math.degrees(a) - 90 + rng.uniform(-8, 8)))
    return out


def _two_sides_layout(rng: np.random.Generator, seats: list[int], g: art.BoardGeometry,
                      view_across: float) -> list[tuple[int, tuple[float, float], float]]:
    """Players on the two long sides of the table, boards pushed in under the camera."""
    n = len(seats)
    far = (n + 1) // 2  # far side, left to right, then the near side right to left: clockwise
    gap = rng.uniform(12, 40)
    # the camera arm is set up along the table: its long sides run across the picture
    table_turn = view_across + 180 * int(rng.integers(0, 2)) + rng.uniform(-12, 12)
    turn = rot(table_turn)
    out = []
    for k, seat in enumerate(seats):
        if k < far:
            col, row, facing = k - (far - 1) / 2, -0.5, 180.0
        else:
            near = n - far
            col, row, facing = (near - 1 - (k - far)) - (near - 1) / 2, 0.5, 0.0
        local = np.array([col * (g.width + gap) + rng.uniform(-10, 10),
                          row * (g.height + gap) + rng.uniform(-8, 8)])
        centre = turn @ local
        out.append((seat, (float(centre[0]), float(centre[1])),
                    table_turn + facing + rng.uniform(-7, 7)))
    return out


def _lane_slots(look: Look, g: art.BoardGeometry, robot: tuple[str, ...],
                rng: np.random.Generator) -> list[tuple[float, float]]:
    """Where on the board (mm) each part tile goes: on its colour's lane, never overlapping."""
    t = look.tile_mm
    start = 14.0 if look.lane_icons else 0.0
    out: list[tuple[float, float]] = []
    used: dict[int, list[int]] = {}
    for colour in robot:
        lane = look.colours.index(colour)
        lx0, ly0, lx1, ly1 = g.lanes[lane]
        span = (lx1 - lx0 - start) / 3
        choices = [s for s in range(3) if s not in used.get(lane, [])]
        slot = int(rng.choice(choices))
        used.setdefault(lane, []).append(slot)
        slack = max(0.0, (span - t * 1.1) / 2)
        x = lx0 + start + span * (slot + 0.5) + rng.uniform(-slack, slack)
        across = max(0.0, (ly1 - ly0 - t * 1.15) / 2) * 0.6
        y = (ly0 + ly1) / 2 + rng.uniform(-across, across)
        out.append((x, y))
    return out


def _beside(centre: tuple[float, float], outward: Arr, angle: float, g: art.BoardGeometry,
            part: int, look: Look) -> tuple[float, float]:
    along = rot(angle) @ np.array([1.0, 0.0])
    p = (np.array(centre) + outward * (g.height / 2 + look.tile_mm * 0.9 + 10)
         + along * (part - 1) * look.tile_mm * 1.4)
    return (float(p[0]), float(p[1]))


# ---------------------------------------------------------------------------- order card


def order_scene(look: Look, rng: np.random.Generator, robot: tuple[str, str, str],
                calibration: bool, hard: bool,
                notes: dict[str, Any] | None = None) -> tuple[Arr, dict[str, Any]]:
    for _ in range(60):
        out = _order_scene(look, rng, robot, calibration, hard, notes if notes is not None else {})
        if out is not None:
            return out
    raise RuntimeError("no card pose fits this camera")


def _order_scene(look: Look, rng: np.random.Generator, robot: tuple[str, str, str],
                 calibration: bool, hard: bool,
                 notes: dict[str, Any]) -> tuple[Arr, dict[str, Any]] | None:
    tilt = rng.uniform(0, look.tilt_max_deg)
    view = make_view(look, rng, tilt, rng.uniform(-180, 180))
    ppm = sprite_ppm(look, view)
    table = Table()
    g = art.board_geometry(look)
    boards: list[Arr] = []
    for _ in range(int(rng.integers(0, 3))):
        c = (float(rng.uniform(-300, 300)), float(rng.uniform(-200, 200)))
        angle = float(rng.uniform(0, 360))
        fp = footprint(c, g.width, g.height, angle, grow=8.0)
        if free(table, fp):
            table.items.append(Placed(tagged(art.board(look, ppm, 0, rng), ppm), c, angle, 1.2))
            table.obstacles.append(fp)
            boards.append(footprint(c, g.width, g.height, angle))
    scatter(look, view, table, rng, ppm, int(rng.integers(2, 8)))
    background = render(look, view, table, rng)

    # the card, held flat towards the lens by the Customer
    f = view.k[0, 0]
    depth = rng.uniform(200.0, 360.0) * look.lens_mm / 700.0
    card_ppm = min(9.0, 1.6 * f / depth)
    sprite = art.robot_card(look, card_ppm, robot, rng)
    w, h = look.rcard_w, look.rcard_h
    if calibration:
        spin = rng.uniform(-15, 15)
    else:
        r = rng.random()
        spin = rng.uniform(-30, 30) if r < 0.75 else (
            180 + rng.uniform(-30, 30) if r < 0.9 else rng.uniform(-80, 80))
    tx, ty = np.radians(rng.uniform(-CARD_TILT_DEG, CARD_TILT_DEG, size=2))
    u = rng.uniform(0.3, 0.7) * view.width
    v = rng.uniform(0.3, 0.7) * view.height
    ray = np.linalg.inv(view.k) @ np.array([u, v, 1.0])
    centre = ray * depth / ray[2]
    a = math.radians(spin)
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(tx), -math.sin(tx)], [0, math.sin(tx), math.cos(tx)]])
    ry = np.array([[math.cos(ty), 0, math.sin(ty)], [0, 1, 0], [-math.sin(ty), 0, math.cos(ty)]])
    rc = rx @ ry @ rz
    local = np.array([[-w / 2, -h / 2, 0], [w / 2, -h / 2, 0], [w / 2, h / 2, 0],
                      [-w / 2, h / 2, 0]])
    cam = (rc @ local.T).T + centre
    uv = (view.k @ cam.T).T
    quad = (uv[:, :2] / uv[:, 2:3]).astype(np.float32)
    margin = 12.0
    if (quad[:, 0].min() < margin or quad[:, 1].min() < margin
            or quad[:, 0].max() > view.width - margin or quad[:, 1].max() > view.height - margin):
        return None
    src = np.array([[0, 0], [sprite.width, 0], [sprite.width, sprite.height],
                    [0, sprite.height]], np.float32)
    hmg = cv2.getPerspectiveTransform(src, quad)
    rgba = np.asarray(sprite)
    card = cv2.warpPerspective(cv2.cvtColor(rgba[..., :3], cv2.COLOR_RGB2BGR), hmg,
                               (view.width, view.height), flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(rgba[..., 3], hmg, (view.width, view.height),
                                flags=cv2.INTER_LINEAR).astype(np.float32) / 255.0
    scale = float(f / depth)  # pixels per mm at the card

    # the card's soft shadow on the table below
    shadow = np.zeros(alpha.shape, np.float32)
    off = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1)]) * 40.0
    cv2.fillPoly(shadow, [(quad + off).astype(np.int32)], 1.0)
    shadow = soft(shadow, 18.0)
    img = (background.astype(np.float32) * (1 - 0.3 * shadow)[..., None])

    # the holding hand: fingers behind the card, the thumb on the card's margin
    edge = int(rng.choice([1, 3])) if rng.random() < 0.8 else 2  # right, left or bottom edge
    p0, p1 = quad[edge], quad[(edge + 1) % 4]
    mid = (p0 + p1) / 2
    centre_px = quad.mean(axis=0)
    out_dir = mid - centre_px
    out_dir /= np.linalg.norm(out_dir)
    along_mm = rng.uniform(-0.2, 0.2) * (h if edge in (1, 3) else w)
    along_dir = (p1 - p0) / np.linalg.norm(p1 - p0)
    palm = mid + out_dir * 54.0 * scale + along_dir * along_mm * scale
    angle = math.atan2(-out_dir[1], -out_dir[0])
    skin = look.skin[int(rng.integers(0, len(look.skin)))]
    sleeve = hsv(rng.uniform(0, 360), rng.uniform(0.1, 0.6), rng.uniform(0.2, 0.7))
    img8 = draw_hand(np.clip(img, 0, 255).astype(np.uint8), (float(palm[0]), float(palm[1])),
                     angle, scale, skin, sleeve, thumb=False, rest=True, shadow=0.25, grip=True)
    mixed = img8.astype(np.float32) * (1 - alpha[..., None]) + card.astype(np.float32) * alpha[
        ..., None]
    img8 = np.clip(mixed, 0, 255).astype(np.uint8)
    img8 = draw_hand(img8, (float(palm[0]), float(palm[1])), angle, scale, skin, sleeve,
                     thumb=True, rest=False, shadow=0.0, grip=True)
    if hard:
        blur, dark, hand = _hard_mix(rng)
        cond = Conditions.hard(rng, blur, dark)
        if hand:  # the other hand passes over the robot
            over = centre_px + (rng.uniform(-0.25, 0.25, size=2) * np.array([w, h]) * scale)
            back = rng.uniform(0, 2 * math.pi)
            img8 = draw_hand(img8, (float(over[0]), float(over[1])), back, scale * 0.9,
                             look.skin[0], hsv(rng.uniform(0, 360), 0.4, 0.5), shadow=0.3)
            notes["hand_over_card"] = True
    else:
        cond = Conditions.clean(rng)
        if calibration:
            cond.blur = min(cond.blur, 0.6)
    notes.update(tilt=round(tilt, 1), conditions=asdict(cond), card_spin=round(spin, 1),
                 card_px_per_mm=round(scale, 2),
                 held_by_edge=["top", "right", "bottom", "left"][edge],
                 card_quad=quad.round(1).tolist(),
                 card_tilt=[round(math.degrees(tx), 1), round(math.degrees(ty), 1)],
                 card_over_board=any(overlaps(quad, cv2.perspectiveTransform(
                     b.reshape(1, 4, 2), view.table_to_image())[0]) for b in boards))
    return _sensor(img8, cond, rng), {"kind": "order", "robot": "-".join(robot)}


# ---------------------------------------------------------------------------- Robot Master grid


def grow_grid(rng: np.random.Generator, n: int, values: list[int] | None = None) -> list[list[Any]]:
    """A game in progress: ``n`` cards placed edge to edge from the centre (fixed frame)."""
    grid: list[list[Any]] = [[None] * 5 for _ in range(5)]
    left = {v: 6 for v in range(6)}
    order = list(values) if values is not None else []
    cells = [(2, 2)]
    placed = 0
    while placed < n:
        if placed == 0:
            r, c = 2, 2
        else:
            options = sorted({(r + dr, c + dc) for r in range(5) for c in range(5)
                              if grid[r][c] is not None
                              for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                              if 0 <= r + dr < 5 and 0 <= c + dc < 5
                              and grid[r + dr][c + dc] is None})
            r, c = options[int(rng.integers(0, len(options)))]
        v = order.pop(0) if order else int(rng.choice([k for k in range(6) if left[k] > 0]))
        left[v] -= 1
        grid[r][c] = v
        cells.append((r, c))
        placed += 1
    return grid


def grid_scene(look: Look, rng: np.random.Generator, grid: list[list[Any]], calibration: bool,
               hard: bool, notes: dict[str, Any] | None = None) -> tuple[Arr, dict[str, Any]]:
    for attempt in range(120):
        out = _grid_scene(look, rng, grid, calibration, hard, notes if notes is not None else {},
                          aligned=attempt >= 20 or rng.random() < 0.6)
        if out is not None:
            return out
    raise RuntimeError("the play area does not fit this camera")


def _grid_scene(look: Look, rng: np.random.Generator, grid: list[list[Any]], calibration: bool,
                hard: bool, notes: dict[str, Any],
                aligned: bool) -> tuple[Arr, dict[str, Any]] | None:
    tilt = rng.uniform(0, look.tilt_max_deg)
    view = make_view(look, rng, tilt, rng.uniform(-180, 180))
    ppm = sprite_ppm(look, view)
    cw, ch = look.mcard_w + look.area_gap, look.mcard_h + look.area_gap
    aw, ah = 5 * cw, 5 * ch
    if aligned:  # laid where the camera sees it best: the area's long side across the picture
        angle = across(view) - 90 + 180 * int(rng.integers(0, 2)) + float(rng.uniform(-15, 15))
    else:
        angle = float(rng.uniform(0, 360))
    centre = (float(rng.uniform(-40, 40)), float(rng.uniform(-30, 30)))
    r = rot(angle)

    def at(x: float, y: float) -> tuple[float, float]:
        p = r @ np.array([x, y]) + np.array(centre)
        return (float(p[0]), float(p[1]))

    sw, sh = sticker_size(look.marker_mm, look.sticker_slack)
    ox, oy = look.area_marker_offset
    table = Table()
    stickers: list[Placed] = []
    signs = ((-1, -1), (1, -1), (1, 1), (-1, 1))
    for corner, (sx, sy) in enumerate(signs):
        turn = look.area_corner_turn[corner]
        jx, jy = look.area_corner_jitter[corner]
        upright = abs(math.sin(math.radians(turn))) < 0.5
        ew, eh = (sw, sh) if upright else (sh, sw)
        lx = sx * (aw / 2 + ox + ew / 2) + jx
        ly = sy * (ah / 2 + oy + eh / 2) + jy
        mid = 42 + corner
        s = art.sticker(look, ppm, mid, f"id {mid}: play area {art.CORNER_NAMES[corner]}",
                        look.rcard_font)
        stickers.append(Placed(tagged(s, ppm), at(lx, ly), angle + turn, 0.2))
    outer_w = aw + 2 * (ox + max(sw, sh) + 3)
    outer_h = ah + 2 * (oy + max(sw, sh) + 3)
    if not view.in_view(footprint(centre, outer_w, outer_h, angle), 10.0):
        return None
    table.obstacles.append(footprint(centre, outer_w, outer_h, angle, grow=15.0))
    surface = None
    lines = None
    if look.area_surface != "table":
        mat_w, mat_h = outer_w + 30, outer_h + 30
        quad = footprint(centre, mat_w, mat_h, angle)
        surface = (quad, look.area_surface_rgb, look.area_surface == "felt")
        table.obstacles.append(footprint(centre, mat_w, mat_h, angle, grow=10.0))
        if look.area_surface == "printed":
            segs = []
            for k in range(6):
                a, b = at(-aw / 2 + k * cw, -ah / 2), at(-aw / 2 + k * cw, ah / 2)
                segs.append([a[0], a[1], b[0], b[1]])
                a, b = at(-aw / 2, -ah / 2 + k * ch), at(aw / 2, -ah / 2 + k * ch)
                segs.append([a[0], a[1], b[0], b[1]])
            lines = np.array(segs)
    table.items.extend(stickers)
    spin = 1.2 if calibration else 2.5
    for row in range(5):
        for col in range(5):
            v = grid[row][col]
            if v is None:
                continue
            x = -aw / 2 + (col + 0.5) * cw + rng.uniform(-1.5, 1.5)
            y = -ah / 2 + (row + 0.5) * ch + rng.uniform(-1.5, 1.5)
            turned = 180.0 if rng.random() < look.mcard_turned else 0.0
            card = art.master_card(look, ppm, int(v), rng)
            table.items.append(Placed(tagged(card, ppm), at(x, y),
                                      angle + turned + rng.uniform(-spin, spin), 0.5))
    # the cards not in play, face down beside the area
    back = hsv(rng.uniform(0, 360), 0.4, 0.35)
    for _ in range(int(rng.integers(0, 3))):
        c = (float(rng.uniform(-500, 500)), float(rng.uniform(-350, 350)))
        turn = float(rng.uniform(0, 360))
        fp = footprint(c, look.mcard_w, look.mcard_h, turn, grow=10.0)
        if free(table, fp):
            table.items.append(Placed(tagged(art.card_back(look.mcard_w, look.mcard_h, ppm, back,
                                                           rng), ppm), c, turn, 2.5))
            table.obstacles.append(fp)
    scatter(look, view, table, rng, ppm, int(rng.integers(0, 4)))
    img = render(look, view, table, rng, surface, lines)
    if hard:
        blur, dark, hand = _hard_mix(rng)
        cond = Conditions.hard(rng, blur, dark)
        if hand:
            row, col = int(rng.integers(1, 4)), int(rng.integers(1, 4))
            target = at(-aw / 2 + (col + 0.5) * cw, -ah / 2 + (row + 0.5) * ch)
            img = _hand_over(img, look, view, target, rng)
            notes["hand_over_cell"] = "abcde"[col] + str(5 - row)
    else:
        cond = Conditions.clean(rng)
        if calibration:
            cond.blur = min(cond.blur, 0.6)
    corner_px = cv2.perspectiveTransform(
        np.array([[s.centre for s in stickers]], np.float64), view.table_to_image())[0]
    notes.update(tilt=round(tilt, 1), conditions=asdict(cond), area_turn=round(angle, 1),
                 area_marker_px=[round(look.marker_mm * view.px_per_mm(*s.centre), 1)
                                 for s in stickers],
                 area_markers_at=corner_px.round(0).tolist())
    return _sensor(img, cond, rng), {"kind": "grid", "grid": grid}


# ---------------------------------------------------------------------------- shared steps


def _hard_mix(rng: np.random.Generator) -> tuple[bool, bool, bool]:
    while True:
        blur, dark, hand = (bool(x) for x in rng.random(3) < (0.5, 0.45, 0.5))
        if blur or dark or hand:
            return blur, dark, hand


def _hand_over(img: Arr, look: Look, view: View, target: tuple[float, float],
               rng: np.random.Generator) -> Arr:
    """A player's hand over ``target`` (table mm), the arm reaching in from outside."""
    p = cv2.perspectiveTransform(np.array([[target]], np.float64), view.table_to_image())[0, 0]
    scale = view.px_per_mm(*target) * 1.1  # the hand is above the table, a little larger
    angle = rng.uniform(0, 2 * math.pi)
    skin = look.skin[int(rng.integers(0, len(look.skin)))]
    sleeve = hsv(rng.uniform(0, 360), rng.uniform(0.1, 0.6), rng.uniform(0.2, 0.7))
    return draw_hand(img, (float(p[0]), float(p[1])), angle, scale, skin, sleeve)


def _sensor(img: Arr, cond: Conditions, rng: np.random.Generator) -> Arr:
    out = apply_conditions(img, cond, rng)
    return encode(out, cond.jpeg)


# ---------------------------------------------------------------------------- datasets


def calibration_set(look: Look, rng: np.random.Generator) -> list[tuple[str, Arr, dict[str, Any]]]:
    out: list[tuple[str, Arr, dict[str, Any]]] = []
    for i in range(4):
        img, label = tiles_scene(look, rng, calibration=True, hard=False)
        out.append((f"cal-t{i + 1}.{look.ext}", img, label))
    for i in range(4):
        robot = (COLOURS[i % 4], COLOURS[(i + 1) % 4], COLOURS[(i + 2) % 4])
        img, label = order_scene(look, rng, robot, calibration=True, hard=False)
        out.append((f"cal-o{i + 1}.{look.ext}", img, label))
    for i in range(4):
        values = [int(v) for v in rng.permutation([v for v in range(6) for _ in range(2)])]
        grid = grow_grid(rng, 12 + int(rng.integers(0, 3)), values)
        img, label = grid_scene(look, rng, grid, calibration=True, hard=False)
        out.append((f"cal-g{i + 1}.{look.ext}", img, label))
    return out


def test_set(look: Look, rng: np.random.Generator, n: int, hard: bool,
             kinds: tuple[str, ...] = KINDS,
             notes: dict[str, Any] | None = None) -> list[tuple[str, Arr, dict[str, Any]]]:
    out: list[tuple[str, Arr, dict[str, Any]]] = []
    notes = notes if notes is not None else {}
    for i in range(n):
        if "tiles" in kinds:
            name = f"t{i + 1:03d}.{look.ext}"
            img, label = tiles_scene(look, rng, calibration=False, hard=hard,
                                     notes=notes.setdefault(name, {}))
            out.append((name, img, label))
        if "order" in kinds:
            name = f"o{i + 1:03d}.{look.ext}"
            robot = tuple(str(c) for c in rng.choice(COLOURS, size=3))
            img, label = order_scene(look, rng, robot, calibration=False,  # type: ignore[arg-type]
                                     hard=hard, notes=notes.setdefault(name, {}))
            out.append((name, img, label))
        if "grid" in kinds:
            name = f"g{i + 1:03d}.{look.ext}"
            grid = grow_grid(rng, int(rng.integers(1, 26)))
            img, label = grid_scene(look, rng, grid, calibration=False, hard=hard,
                                    notes=notes.setdefault(name, {}))
            out.append((name, img, label))
    return out


def write_set(folder: Path, items: list[tuple[str, Arr, dict[str, Any]]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    labels: dict[str, Any] = {}
    for name, img, label in items:
        if name.endswith(".jpg"):
            cv2.imwrite(str(folder / name), img, [cv2.IMWRITE_JPEG_QUALITY, 97])
        else:
            cv2.imwrite(str(folder / name), img)
        labels[name] = label
    (folder / "labels.json").write_text(json.dumps(labels, indent=1) + "\n", encoding="utf-8")


def generate_dataset(out: Path, n: int, seed: int, hard: bool = False,
                     kinds: tuple[str, ...] = KINDS, colours: list[str] | None = None) -> Look:
    """Write ``out/calibration`` and ``out/test`` (``n`` pictures of each kind); return the look.

    The same seed gives the same look and calibration with or without ``hard``, so a hard set
    and a clean set of one seed show the same components.
    """
    names = list(colours) if colours is not None else COLOURS
    look = random_look(np.random.default_rng([seed, 1]), names)
    write_set(out / "calibration", calibration_set(look, np.random.default_rng([seed, 2])))
    notes: dict[str, Any] = {}
    write_set(out / "test", test_set(look, np.random.default_rng([seed, 3, int(hard)]), n, hard,
                                     kinds, notes))
    (out / "otherart-look.json").write_text(json.dumps(look.describe(), indent=1) + "\n",
                                            encoding="utf-8")
    (out / "otherart-pictures.json").write_text(json.dumps(notes, indent=1) + "\n",
                                                encoding="utf-8")
    return look


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.vision.otherart",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", type=Path)
    parser.add_argument("--n", type=int, default=10, help="test pictures of each kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args(argv)
    kinds = tuple(k for k in args.kinds.split(",") if k)
    if any(k not in KINDS for k in kinds):
        print(f"--kinds: choose from {', '.join(KINDS)}", file=sys.stderr)
        return 2
    look = generate_dataset(args.out, args.n, args.seed, args.hard, kinds)
    print(f"wrote {args.out} ({args.n} per kind, seed {args.seed}"
          f"{', hard' if args.hard else ''}; {look.width}x{look.height}, marker "
          f"{look.marker_mm:g} mm, table {look.table}, cards {look.mcard_style})")
    return 0
