"""Card art: Robo Factory robot cards (a robot whose head, torso and legs are coloured) and
Robot Master cards (values 0..5), each in the dataset's own printing."""

from __future__ import annotations

import numpy as np

from .paint import F32, RGB, Pen, blank, rounded_rect
from .style import Style

METAL: RGB = (150, 152, 158)
WHITE: RGB = (250, 250, 246)


def _outlined(pen: Pen, pts: np.ndarray, fill: RGB, ink: RGB, width: float) -> None:
    pen.poly(pts, fill)
    if width > 0:
        pen.outline(pts, ink, width)


def robot_card(style: Style, robot: tuple[str, str, str], ppm: float) -> F32:
    """``robot`` is (head, torso, legs) colour names; the head is drawn at the card's top."""
    c = style.robot_card
    w, h = c.w, c.h
    s = blank(w, h, ppm)
    pen = Pen(s, ppm)
    pen.rect(0, 0, w, h, c.frame, r=3.2)
    pen.rect(2.6, 2.6, w - 5.2, h - 5.2, c.paper, r=2.2)
    dark_paper = sum(c.paper) < 300
    faint: RGB = (255, 255, 255) if dark_paper else (0, 0, 0)
    if c.pattern == "grid":
        for k in range(1, int(w / 6)):
            pen.rect(2.6 + k * 6, 12, 0.25, h - 16, faint, opacity=0.10)
        for k in range(2, int(h / 6)):
            pen.rect(4, 2.6 + k * 6, w - 8, 0.25, faint, opacity=0.10)
    elif c.pattern == "rays":
        for k in range(24):
            a = np.radians(15 * k)
            pen.capsule((w / 2, h * 0.5), (w / 2 + 80 * np.cos(a), h * 0.5 + 80 * np.sin(a)),
                        2.0, faint, opacity=0.05)
        pen.rect(0, 0, w, 2.6, c.frame)
    text_ink: RGB = (235, 235, 235) if dark_paper else c.ink
    pen.text("ROBO", w * 0.3, 7.5, 3.0, text_ink, c.font)
    pen.text(f"No {sum(map(ord, ''.join(robot))) % 97:02d}", w * 0.78, 7.5, 2.4, text_ink,
             c.font)
    head, torso, legs = (style.shades[p] for p in robot)
    ink = c.ink if not dark_paper else (10, 10, 10)
    ow = c.outline
    cx = w / 2 - (3 if c.chips else 0)
    # head
    hw, hh = w * 0.42, h * 0.19
    hy = h * 0.17
    pen.capsule((cx, hy - 4), (cx, hy + 1), 0.8, ink)
    pen.circle(cx, hy - 4.5, 1.6, METAL)
    _outlined(pen, rounded_rect(cx - hw / 2, hy, hw, hh, hh * 0.5 * c.head_round + 1.5),
              head, ink, ow)
    for ex in (cx - hw * 0.22, cx + hw * 0.22):
        pen.circle(ex, hy + hh * 0.45, hh * 0.17, WHITE)
        pen.circle(ex, hy + hh * 0.47, hh * 0.08, (20, 20, 20))
    pen.rect(cx - hw * 0.2, hy + hh * 0.74, hw * 0.4, hh * 0.08, (30, 30, 30), opacity=0.6)
    # neck, arms, torso
    ty, th, tw = hy + hh + 2.2, h * 0.25, w * 0.56
    pen.rect(cx - 3, hy + hh - 0.5, 6, 3.2, METAL)
    for side in (-1, 1):
        x = cx + side * (tw / 2 + 2.2)
        pen.capsule((x, ty + 3), (x + side * 1.5, ty + th - 2), 3.4, METAL)
        pen.circle(x + side * 1.5, ty + th - 1, 2.2, METAL)
    _outlined(pen, rounded_rect(cx - tw / 2, ty, tw, th, 2.5), torso, ink, ow)
    pen.rect(cx - tw * 0.25, ty + th * 0.2, tw * 0.5, th * 0.35, WHITE, r=1.2, opacity=0.35)
    for k in range(3):
        pen.circle(cx - 4 + 4 * k, ty + th * 0.75, 1.0, (30, 30, 30), opacity=0.55)
    # legs and feet
    ly, lh, lw = ty + th + 1.6, h * 0.19, w * 0.15
    for side in (-1, 1):
        x = cx + side * w * 0.12 - lw / 2
        _outlined(pen, rounded_rect(x, ly, lw, lh, 1.5), legs, ink, ow)
        pen.rect(x - 1.5, ly + lh - 0.2, lw + 3, 3.0, METAL, r=1.2)
    if c.chips:
        for k, rgb in enumerate((head, torso, legs)):
            pen.rect(w - 9, h * 0.2 + k * 8, 5, 5, rgb, r=1)
            pen.outline(rounded_rect(w - 9, h * 0.2 + k * 8, 5, 5, 1), ink, 0.3)
    return s


# seven-segment digits: segments a b c d e f g lit per value
SEGMENTS = {0: "abcdef", 1: "bc", 2: "abdeg", 3: "abcdg", 4: "bcfg", 5: "acdfg"}


def _segment_digit(pen: Pen, value: int, x: float, y: float, w: float, h: float,
                   lit: RGB, dim: RGB) -> None:
    t = w * 0.18
    half = h / 2
    segs = {
        "a": ((x + t, y), (x + w - t, y)), "d": ((x + t, y + h), (x + w - t, y + h)),
        "g": ((x + t, y + half), (x + w - t, y + half)),
        "f": ((x, y + t), (x, y + half - t)), "b": ((x + w, y + t), (x + w, y + half - t)),
        "e": ((x, y + half + t), (x, y + h - t)), "c": ((x + w, y + half + t), (x + w, y + h - t)),
    }
    for name, (a, b) in segs.items():
        pen.capsule(a, b, t, lit if name in SEGMENTS[value] else dim)


def _pips(pen: Pen, value: int, cx: float, cy: float, span: float, rgb: RGB) -> None:
    d = span * 0.32
    spots = {0: [], 1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
             5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]}[value]
    if value == 0:
        pen.circle(cx, cy, span * 0.22, rgb, width=span * 0.06)
        return
    for dx, dy in spots:
        pen.circle(cx + dx * d, cy + dy * d, span * 0.1, rgb)


def master_card(style: Style, value: int, ppm: float) -> F32:
    c = style.master_card
    w, h = c.w, c.h
    s = blank(w, h, ppm)
    pen = Pen(s, ppm)
    pen.rect(0, 0, w, h, c.paper, r=2.5)
    if c.value_tints is not None:
        pen.rect(2, 2, w - 4, h - 4, c.value_tints[value], r=1.8)
    pen.outline(rounded_rect(1.6, 1.6, w - 3.2, h - 3.2, 2), c.accent, 0.45)
    corner_h = h * (0.15 if c.look == "corners" else 0.10)
    if c.look != "central":
        pen.text(str(value), w * 0.17, h * 0.05 + corner_h / 2 + 1, corner_h, c.ink, c.font)
        pen.text(str(value), w * 0.83, h * 0.95 - corner_h / 2 - 1, corner_h, c.ink, c.font,
                 angle=180)
    if c.look == "central":
        pen.circle(w / 2, h / 2, w * 0.36, c.accent, opacity=0.25)
        pen.text(str(value), w / 2, h / 2, h * 0.42, c.ink, c.font)
        pen.text("ROBOT MASTER", w / 2, h * 0.9, h * 0.035, c.accent, "DejaVuSans-Bold.ttf")
        pen.text("ROBOT MASTER", w / 2, h * 0.1, h * 0.035, c.accent, "DejaVuSans-Bold.ttf",
                 angle=180)
    elif c.look == "corners":
        # the same robot on every card: only the corners tell the value
        cx, cy = w / 2, h / 2
        pen.rect(cx - w * 0.14, cy - h * 0.2, w * 0.28, h * 0.12, c.accent, r=2, opacity=0.8)
        pen.rect(cx - w * 0.2, cy - h * 0.06, w * 0.4, h * 0.17, c.accent, r=2, opacity=0.8)
        pen.rect(cx - w * 0.15, cy + h * 0.12, w * 0.1, h * 0.12, c.accent, opacity=0.8)
        pen.rect(cx + w * 0.05, cy + h * 0.12, w * 0.1, h * 0.12, c.accent, opacity=0.8)
        pen.circle(cx - w * 0.06, cy - h * 0.14, w * 0.03, c.paper)
        pen.circle(cx + w * 0.06, cy - h * 0.14, w * 0.03, c.paper)
    elif c.look == "pips":
        _pips(pen, value, w / 2, h / 2, w * 0.8, c.accent)
    else:
        px, py, pw, ph = w * 0.2, h * 0.28, w * 0.6, h * 0.44
        pen.rect(px, py, pw, ph, (34, 36, 40), r=2)
        lit = (255, 140, 40) if sum(c.accent) % 2 else (90, 230, 120)
        _segment_digit(pen, value, px + pw * 0.3, py + ph * 0.14, pw * 0.4, ph * 0.72, lit,
                       (52, 54, 58))
    return s


def card_back(style: Style, w: float, h: float, ppm: float) -> F32:
    s = blank(w, h, ppm)
    pen = Pen(s, ppm)
    pen.rect(0, 0, w, h, style.master_card.back, r=2.5)
    pen.outline(rounded_rect(3, 3, w - 6, h - 6, 2), (230, 220, 200), 0.6)
    for k in range(-int(h / 5), int(w / 5) + 1):
        pen.capsule((k * 5, 0), (k * 5 + h, h), 0.5, (255, 255, 255), opacity=0.12)
    return s
