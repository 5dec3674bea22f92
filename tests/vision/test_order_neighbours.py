"""The order card beside other things: a personal board it lies on or against, a board of about a
card's shape with no card in view, a card whose colours look alike either way up (only its print
tells its top), and what calibration stores for these. Right or declined, never confidently
wrong."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import order
from vision.calibration import Calibration
from vision.errors import NoCardFound
from vision.synth import draw
from vision.synth.scenes import Style, board_patch, card_patch


def _scene(style: Style, robot: str, seed: int, angle: float, board_gap: float | None,
           size: tuple[int, int] = (1280, 720)) -> tuple[np.ndarray, np.ndarray]:
    """A card held over the table, with a personal board beside it (its edge ``board_gap``
    card widths from the card's left edge: negative, the card lies over it), or no card and
    only the board when ``robot`` is empty. Returns the picture and the card's corners."""
    rng = np.random.default_rng(seed)
    width, height = size
    img = draw.table(width, height, rng)
    cx, cy, card_h = 640.0, 360.0, 440.0
    board = board_patch(style, ["red", "green", "blue", "yellow"], 70, 90, 16, rng)
    if board_gap is not None:
        # the board lies flat, turned a little from the card, left of it
        bk = card_h * 0.9 / board.shape[0]
        card_w = card_h * 252 / 352
        bx = cx - card_w / 2 - board.shape[1] * bk / 2 - board_gap * card_w
        Hb = draw.place(board.shape[1] * bk, board.shape[0] * bk, bx, cy + 30, angle + 7) @ \
            draw.scale(bk)
        draw.paste(img, board, Hb)
    if not robot:
        return img, np.zeros((4, 2), np.float32)
    card = card_patch(style, robot.split("-"), rng)
    k = card_h / card.shape[0]
    H = draw.place(card.shape[1] * k, card.shape[0] * k, cx, cy, angle) @ draw.scale(k)
    draw.paste(img, card, H)
    ch, cw = card.shape[:2]
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0]], [[cw, 0]], [[cw, ch]], [[0, ch]]], np.float32), H).reshape(4, 2)
    return img, corners


@pytest.mark.parametrize(("gap", "angle"), [(-0.25, 0.0), (-0.1, 10.0), (0.0, -8.0)])
def test_a_card_lying_over_or_against_a_board_is_found_whole(style: Style,
                                                            calibration: Calibration,
                                                            gap: float, angle: float) -> None:
    # the card and the board make one blob that is not card-shaped: the card is found from
    # its own straight edges, never as the card and the board together
    image, truth = _scene(style, "red-blue-yellow", 40, angle, gap)
    look = calibration.order
    found = order.locate(image, look)
    height = float(np.linalg.norm(truth[3] - truth[0]))
    assert np.abs(found - truth).max() <= 0.05 * height, (found, truth)
    reading = order.read_order(image, look).reading
    assert reading.robot in ("red-blue-yellow", None)


def test_a_board_edge_close_beside_the_card_is_not_taken_for_its_outer_edge(
        style: Style, calibration: Calibration) -> None:
    # the board's edge runs nearly parallel to the card's left side, closer than a printed
    # frame may lie inside the card: a side moved out to it gives a card of the wrong shape,
    # and the rectangle as found is the card (it was not found at all before)
    image, truth = _scene(style, "red-blue-yellow", 40, -6.0, 0.1)
    found = order.locate(image, calibration.order)
    height = float(np.linalg.norm(truth[3] - truth[0]))
    assert np.abs(found - truth).max() <= 0.05 * height, (found, truth)
    assert order.read_order(image, calibration.order).reading.robot == "red-blue-yellow"


def test_a_board_alone_is_not_read_as_a_card(style: Style, calibration: Calibration) -> None:
    # a board of about a card's shape: card-shaped outlines not printed like the calibration
    # cards are passed over, and one that is (three of the lanes, by chance) shows part colours
    # where the cards show paper, so nothing is read from the board's lanes
    for seed in (41, 42):
        image, _ = _scene(style, "", seed, 4.0, 0.0)
        try:
            reading = order.read_order(image, calibration.order).reading
        except NoCardFound:
            continue
        assert reading.robot is None, reading


def test_calibration_learns_the_cards_print_and_stores_it(calibration: Calibration) -> None:
    look = calibration.order
    assert look.sketch is not None and look.sketch.shape == order._sketch_shape()
    assert look.min_likeness is not None and 0 < look.min_likeness < 1
    assert look.area is not None and 0 < look.area < 1
    again = order.OrderLook.from_json(look.to_json())
    assert again.sketch is not None
    assert np.allclose(again.sketch, look.sketch, atol=1e-4)
    assert again.sketch_margin == pytest.approx(look.sketch_margin, abs=1e-3)
    assert again.min_likeness == pytest.approx(look.min_likeness, abs=1e-3)
    assert again.area == pytest.approx(look.area, abs=1e-4)
    # the calibration cards show paper round the robot: few part colours outside its parts
    assert look.colour_outside is not None and 0 <= look.colour_outside < 0.3
    assert again.colour_outside == pytest.approx(look.colour_outside, abs=1e-3)
    # a calibration stored before these were learnt still loads, and reads as before
    older = order.OrderLook.from_json({k: v for k, v in look.to_json().items()
                                       if k not in ("sketch", "sketch_margin", "area",
                                                    "min_likeness", "colour_outside")})
    assert older.sketch is None and older.area is None and older.min_likeness is None
    assert older.colour_outside is None


def test_the_print_tells_which_way_up_when_the_colours_do_not() -> None:
    # a card whose head and legs are drawn alike: the part colours cannot tell its top, its
    # title and a symbol in a corner can
    rng = np.random.default_rng(7)
    h, w = 56, 40
    cards = []
    for _ in range(4):
        card = np.full((h, w, 3), 0.95, np.float32) + rng.normal(0, 0.01, (h, w, 3)).astype(
            np.float32)
        card[5:8, 10:30] = 0.2  # the title
        card[47:51, 31:35] = 0.3  # a symbol, bottom right
        for top in (12, 24, 36):
            card[top:top + 9, 12:28] = rng.uniform(0.2, 0.8, 3)
        cards.append(card)
    template = np.mean([order.sketch(c) for c in cards], axis=0)
    template /= np.linalg.norm(template)
    for card in cards:
        drawn = order.sketch(card)
        assert order.sketch_evidence(drawn, template) > 0.1
        assert order.sketch_evidence(drawn[::-1, ::-1].copy(), template) < -0.1
        assert order.likeness(drawn[::-1, ::-1].copy(), template) == pytest.approx(
            order.likeness(drawn, template), abs=1e-5)


def test_an_outline_found_a_little_off_is_lined_up_with_the_print(
        style: Style, calibration: Calibration) -> None:
    look = calibration.order
    assert look.sketch is not None
    image, truth = _scene(style, "green-yellow-blue", 43, 6.0, None)
    found = order.find_card(image, look.aspect, look.area)
    height = float(np.linalg.norm(truth[3] - truth[0]))
    # the top side moved down by a twentieth of the card (as when it follows something beside
    # the card): lining up the print brings it back
    off = found.copy()
    down = (found[3] - found[0]) / np.linalg.norm(found[3] - found[0])
    off[0] += 0.05 * height * down
    off[1] += 0.05 * height * down
    aligned = order.align(image, off, look.sketch)
    assert np.abs(aligned - found).max() < np.abs(off - found).max()
    assert np.abs(aligned - found).max() <= 0.025 * height
