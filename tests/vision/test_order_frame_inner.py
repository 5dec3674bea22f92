"""A held card whose own edge shows along too little of each side (a hand or a board of its
frame's colour behind it), and whose frame's inner edge does show: the straight-line search
finds the frame's inner rectangle, smaller and longer than the card. Other art 15013 o012
(gate 11): that rectangle's shape was 1.650 against the calibrated 1.475 (at most 1.622
accepted), and the card, read right once found, was declined. Rectangles are now looked for
down to a frame ``line_frame_share`` of the short side wide; the sides are moved out past the
frame, and the outline must then have the card's own shape, as before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import order
from vision.thresholds import section

FRAME = (60, 45, 50)
CALIBRATED = 1.4  # the calibration cards' shape
AREA = 0.08  # the smallest share of the picture a calibration card covered


def _held(aspect: float, frame: float, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """A card 200 px wide of shape ``aspect``, a dark frame ``frame`` of its width wide round
    white paper with a robot on it, turned by ``angle`` degrees, on a pale table; dark round
    things of the frame's colour lie behind the middle 0.6 of each side (the card's own edge
    shows along 0.4 of each, under ``min_edge_support``). Returns the picture and the card's
    corners."""
    img = np.full((720, 1280, 3), (190, 195, 200), np.float64)
    w, h = 200.0, 200.0 * aspect
    t = np.radians(angle)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])

    def box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) @ turn.T + (640.0, 360.0)

    outer = box(-w / 2, -h / 2, w / 2, h / 2)
    for side in range(4):
        p, q = outer[side], outer[(side + 1) % 4]
        cv2.circle(img, tuple(int(v) for v in np.round((p + q) / 2)),
                   int(0.3 * np.linalg.norm(q - p)), FRAME, -1, cv2.LINE_AA)
    f = frame * w
    cv2.fillConvexPoly(img, np.round(outer).astype(np.int32), FRAME, cv2.LINE_AA)
    cv2.fillConvexPoly(img, np.round(box(-w / 2 + f, -h / 2 + f, w / 2 - f, h / 2 - f)).astype(
        np.int32), (235, 238, 240), cv2.LINE_AA)
    for (y0, y1, x0, x1), colour in (((-0.3, -0.12, -0.15, 0.15), (40, 40, 200)),
                                     ((-0.08, 0.12, -0.22, 0.22), (195, 130, 30)),
                                     ((0.16, 0.3, -0.18, 0.18), (90, 175, 40))):
        cv2.fillConvexPoly(img, np.round(box(x0 * w, y0 * h, x1 * w, y1 * h)).astype(np.int32),
                           colour, cv2.LINE_AA)
    img += np.random.default_rng(3).normal(0, 2, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), outer.astype(np.float32)


def _off_by(found: np.ndarray, truth: np.ndarray) -> float:
    return min(float(np.abs(np.roll(found, r, axis=0) - truth).max()) for r in range(4))


@pytest.mark.parametrize("angle", [4.0, -7.0, 10.0, -2.0])
def test_a_card_seen_by_its_frames_inner_edge_is_found(angle: float) -> None:
    # a card seen at 1.52 (perspective) against the calibrated 1.4: its frame's inner
    # rectangle, 0.03 of its width inside, is 1.553, past the 1.54 the card's own shape may be
    share = float(section("order")["line_frame_share"])
    assert share >= 0.03
    inner = (1.52 - 2 * 0.03) / (1 - 2 * 0.03)
    tolerance = float(section("order")["aspect_tolerance"])
    assert CALIBRATED * (1 + tolerance) < inner
    image, truth = _held(1.52, 0.03, angle)
    found = order.find_card(image, CALIBRATED, AREA)
    # the frame's sides moved out onto the card's own edge
    assert _off_by(found, truth) <= 0.02 * 1.52 * 200, (found, truth)
    assert CALIBRATED * (1 - tolerance) <= order.card_aspect(found) <= \
        CALIBRATED * (1 + tolerance)
