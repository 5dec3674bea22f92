"""Reading a robot card held up to the camera (the order card, or a card handed in).

The card is found as the largest card-shaped region enclosed by edges, turned upright (held to
the camera, its long side is the one nearest to vertical) and warped to a small canonical card.
Which canonical pixels show the head, torso and legs is learnt from the user's own cards during
calibration; before that, the middle of the top, middle and bottom thirds is used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.ports import OrderObservation, RobotReading
from vision.colour import ColourModel
from vision.errors import NoCardFound
from vision.thresholds import section

Region = tuple[int, int, int, int]
#: default rows (fractions of card height) of head, torso and legs, and the columns of all three
BANDS = ((0.12, 0.36), (0.38, 0.62), (0.64, 0.88))
WIDE_BANDS = ((0.03, 0.45), (0.29, 0.71), (0.55, 0.97))
COLUMNS = (0.22, 0.78)


def canonical_size() -> tuple[int, int]:
    cfg = section("order")
    return int(cfg["card_width"]), int(cfg["card_height"])


def default_masks() -> np.ndarray:
    w, h = canonical_size()
    masks = np.zeros((3, h, w), bool)
    for k, (top, bottom) in enumerate(BANDS):
        masks[k, int(top * h):int(bottom * h), int(COLUMNS[0] * w):int(COLUMNS[1] * w)] = True
    return masks


@dataclass
class OrderLook:
    """What calibration learnt about the user's robot cards."""

    model: ColourModel
    masks: np.ndarray  # (3, h, w) bool: head, torso, legs pixels of the canonical card
    learnt: bool = False

    @classmethod
    def default(cls, model: ColourModel) -> OrderLook:
        return cls(model, default_masks(), False)

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model.to_json(), "learnt": self.learnt,
                "masks": [np.flatnonzero(m).tolist() for m in self.masks]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OrderLook:
        w, h = canonical_size()
        masks = np.zeros((3, h * w), bool)
        for k, idx in enumerate(data["masks"]):
            masks[k, idx] = True
        return cls(ColourModel.from_json(data["model"]), masks.reshape(3, h, w),
                   bool(data.get("learnt", True)))


def _upright(box: np.ndarray) -> np.ndarray:
    """Order a rectangle's corners top-left, top-right, bottom-right, bottom-left of the card
    held upright: long side vertical, top towards the top of the image."""
    pts = box.astype(np.float32)
    best: np.ndarray | None = None
    best_score = -math.inf
    for start in range(4):
        q = np.roll(pts, -start, axis=0)
        top = np.linalg.norm(q[1] - q[0])
        left = np.linalg.norm(q[3] - q[0])
        if left < top:  # this start would make the card lie on its side
            continue
        down = (q[3] + q[2]) / 2 - (q[0] + q[1]) / 2
        score = down[1] / (np.linalg.norm(down) + 1e-6)
        a, b = q[1] - q[0], q[3] - q[0]
        if a[0] * b[1] - a[1] * b[0] < 0:  # keep corners clockwise on screen
            continue
        if score > best_score:
            best, best_score = q, score
    if best is None:
        raise NoCardFound("no robot card is held to the camera")
    return best


def find_card(image: np.ndarray) -> np.ndarray:
    """The card's corners in image pixels (4x2, top-left first, clockwise), upright."""
    cfg = section("order")
    h, w = image.shape[:2]
    k = float(cfg["work_width"]) / w
    small = cv2.resize(image, (int(w * k), int(h * k)), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    grad = np.zeros((sh, sw), np.float32)
    for c in range(3):
        gx = cv2.Sobel(lab[..., c], cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(lab[..., c], cv2.CV_32F, 0, 1, ksize=3)
        grad = np.maximum(grad, cv2.magnitude(gx, gy))
    g8 = np.clip(grad * (255.0 / max(float(np.percentile(grad, 99.5)), 1.0)), 0, 255)
    otsu, _ = cv2.threshold(g8.astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Otsu follows the strong edges of the printed robot; a pale card on a pale table needs a
    # lower level, a busy table a higher one: try from the highest, keep the first card found
    best: np.ndarray | None = None
    for level in sorted({float(otsu), *(255 * float(x) for x in cfg["edge_levels"])},
                        reverse=True):
        best = _card_at_level(g8, level, cfg)
        if best is not None:
            break
    if best is None:
        raise NoCardFound("no robot card is held to the camera")
    return _upright(best / k)


def _card_at_level(g8: np.ndarray, level: float, cfg: dict[str, Any]) -> np.ndarray | None:
    sh, sw = g8.shape
    edges: np.ndarray = np.where(g8 > level, 255, 0).astype(np.uint8)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    # whatever is connected to the picture's border without crossing an edge is the room, the
    # table, or the hand and arm holding the card; the rest is the card and what is printed on it
    count, regions, stats, _ = cv2.connectedComponentsWithStats(255 - edges, connectivity=4)
    touches = np.zeros(count, bool)
    for border in (regions[0], regions[-1], regions[:, 0], regions[:, -1]):
        touches[np.unique(border)] = True
    background = touches[regions] & (edges == 0)
    fg: np.ndarray = np.where(background, 0, 255).astype(np.uint8)
    # opening removes what is thinner than a finger: fingertips over the card's edge, seams
    size = 2 * int(cfg["open_fraction"] * min(sw, sh)) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, kernel)
    count, blobs, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    best: np.ndarray | None = None
    best_area = 0.0
    for i in range(1, count):
        x, y, bw, bh, area = stats[i]
        if area < cfg["min_area"] * sw * sh or area <= best_area:
            continue
        mask = (blobs[y:y + bh, x:x + bw] == i).astype(np.uint8)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                       offset=(int(x), int(y)))
        hull = cv2.convexHull(np.concatenate(contours))
        rect = cv2.minAreaRect(hull)
        rw, rh = rect[1]
        if min(rw, rh) < 8:
            continue
        if cv2.contourArea(hull) < cfg["min_rectangularity"] * rw * rh:
            continue
        if area < cfg["min_fill"] * rw * rh:
            continue
        aspect = max(rw, rh) / min(rw, rh)
        if not cfg["min_aspect"] <= aspect <= cfg["max_aspect"]:
            continue
        best_area = float(area)
        best = cv2.boxPoints(rect)
    return best


def warp_card(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card warped to the canonical size, white-balanced on its own paper (float32)."""
    w, h = canonical_size()
    big = np.array([[0, 0], [4 * w, 0], [4 * w, 4 * h], [0, 4 * h]], np.float32)
    H = cv2.getPerspectiveTransform(quad.astype(np.float32), big)
    card = cv2.warpPerspective(image, H, (4 * w, 4 * h), flags=cv2.INTER_LINEAR)
    card = cv2.resize(card, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    # the paper's white is estimated around each pixel (the brightest nearby, smoothed), so a
    # shadow or a lighting gradient across the card does not shift the part colours
    size = int(section("order")["white_window"])
    kernel = np.ones((size, size), np.uint8)
    local = cv2.GaussianBlur(cv2.dilate(card, kernel), (0, 0), size / 2)
    overall = np.percentile(card.reshape(-1, 3), 95, axis=0)
    white = np.maximum(np.maximum(local, 0.5 * overall), 8.0)
    return np.asarray(card / white)


def read_card(card: np.ndarray, look: OrderLook) -> RobotReading:
    cfg = section("order")
    colours: list[str | None] = []
    confidences: list[float] = []
    for k in range(3):
        pixels = card[look.masks[k]]
        cls_ = look.model.classify(pixels)
        counts = np.bincount(cls_[cls_ >= 0], minlength=len(look.model.names)).astype(float)
        order = np.argsort(counts)[::-1]
        # learnt masks cover only the part; default bands also hold paper, so count colours only
        total = float(len(pixels)) if look.learnt else max(float(counts.sum()), 1.0)
        enough = counts.sum() >= max(cfg["min_mask_pixels"], 0.15 * len(pixels))
        share, runner_up = counts[order[0]] / total, counts[order[1]] / total
        confidence = round(float(max(0.0, share - runner_up)), 3)
        confidences.append(confidence)
        if enough and share >= cfg["min_share"] and confidence >= cfg["min_confidence"]:
            colours.append(look.model.names[int(order[0])])
        else:
            colours.append(None)
    parts = (confidences[0], confidences[1], confidences[2])
    if any(c is None for c in colours):
        return RobotReading(None, 0.0, parts)
    return RobotReading("-".join(c for c in colours if c is not None), min(parts), parts)


def read_order_region(image: np.ndarray, look: OrderLook) -> tuple[OrderObservation, Region]:
    quad = find_card(image)
    reading = read_card(warp_card(image, quad), look)
    x0, y0 = np.maximum(quad.min(axis=0), 0)
    x1, y1 = quad.max(axis=0)
    return OrderObservation(reading), (int(x0), int(y0), int(x1), int(y1))


def read_order(image: np.ndarray, look: OrderLook) -> OrderObservation:
    """The robot on the card. Raises :class:`NoCardFound` when no card is seen."""
    return read_order_region(image, look)[0]


def learn(examples: list[tuple[np.ndarray, str]], fallback: ColourModel) -> OrderLook:
    """Learn the card's part colours and where each part is printed from (image, robot) pairs."""
    cfg = section("order")
    names = fallback.names
    cards: list[np.ndarray] = []
    labels: list[list[int]] = []
    for image, robot in examples:
        try:
            quad = find_card(image)
        except NoCardFound:
            continue
        cards.append(warp_card(image, quad))
        labels.append([names.index(c) for c in robot.split("-")])
    if not cards:
        return OrderLook.default(fallback)
    w, h = canonical_size()
    # 1. colours: the saturated pixels of each default band show that part's colour
    bands = default_masks()
    samples: dict[str, list[np.ndarray]] = {n: [] for n in names}
    for card, lab in zip(cards, labels, strict=True):
        chroma = card.max(axis=2) - card.min(axis=2)
        for k in range(3):
            sel = card[bands[k] & (chroma > 0.2)]
            if len(sel):
                med = np.median(sel, axis=0)
                sel = sel[np.linalg.norm(sel - med, axis=1) < 0.25]
                samples[names[lab[k]]].append(sel)
    model = ColourModel.fit({n: np.concatenate(v) for n, v in samples.items() if v}, fallback)
    # 2. where each part is printed: pixels that show the labelled colour on most cards
    agree = np.zeros((3, h, w))
    for card, lab in zip(cards, labels, strict=True):
        cls_ = model.classify(card.reshape(-1, 3)).reshape(h, w)
        for k in range(3):
            agree[k] += cls_ == lab[k]
    agree /= len(cards)
    masks = np.zeros((3, h, w), bool)
    for k, (top, bottom) in enumerate(WIDE_BANDS):
        band = np.zeros((h, w), bool)
        band[int(top * h):int(bottom * h)] = True
        masks[k] = band & (agree[k] >= cfg["mask_agreement"])
    # rows claimed by two parts (same colours on the calibration cards) belong to neither
    overlap = masks.sum(axis=0) > 1
    masks[:, overlap] = False
    if any(m.sum() < cfg["min_mask_pixels"] for m in masks):
        return OrderLook(model, default_masks(), False)
    return OrderLook(model, masks, True)
