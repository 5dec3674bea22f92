"""An order card whose outline was found a few pixels off along its length (a thumb or the table
taken in at one end): lining its print up with the calibration cards' must not turn it over.
Which way up to line up was guessed from the print inside the outline as found, and with the
outline off the rounded head and legs can swap places in that guess: the card was then lined
up with the turned print, and its top could no longer be told (declined on other-art sets
7103 o017, 7105 o007, 9403 o002, 7102 o023, with the evidence pointing the wrong way on three
of them). Right or declined, never confidently wrong."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np
import pytest

from companion.config import Config
from tests.vision.otherart import art
from tests.vision.otherart.generate import COLOURS
from tests.vision.otherart.look import Look, random_look
from tests.vision.test_order_neighbours import _scene
from vision import order
from vision.calibration import Calibration
from vision.synth import draw
from vision.synth.scenes import Style
from vision.thresholds import section

CALIBRATION_ROBOTS = (("red-green-blue", 5.0), ("green-blue-yellow", -8.0),
                      ("blue-yellow-red", 12.0), ("yellow-red-green", -3.0))


@pytest.fixture(scope="module")
def other_art() -> tuple[Look, order.OrderLook]:
    """The other-art generator's card look of seed 9403 (a dome head, a panel torso, wheel
    legs: both ends rounded, a title at the top, a gear at the bottom right) and an order look
    learnt from four such cards held nearly upright."""
    look = random_look(np.random.default_rng([9403, 1]), COLOURS)
    examples = [(_other_art_scene(look, robot, 100 + i, angle)[0], robot)
                for i, (robot, angle) in enumerate(CALIBRATION_ROBOTS)]
    model = Calibration.default(Config()).tiles.model
    learnt = order.learn(examples, model)
    assert learnt.learnt and learnt.sketch is not None
    return look, learnt


def _other_art_scene(look: Look, robot: str, seed: int,
                     angle: float) -> tuple[np.ndarray, np.ndarray]:
    """An other-art robot card 400 px high on a table, turned ``angle`` degrees. Returns the
    picture and the card's corners."""
    rng = np.random.default_rng(seed)
    img = draw.table(1280, 720, rng)
    head, torso, legs = robot.split("-")
    rgba = np.asarray(art.robot_card(look, 6.0, (head, torso, legs), rng))
    card = cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA)
    k = 400.0 / card.shape[0]
    H = draw.place(card.shape[1] * k, card.shape[0] * k, 640.0, 360.0, angle) @ draw.scale(k)
    draw.paste(img, np.ascontiguousarray(card[..., :3]), H, np.ascontiguousarray(card[..., 3]))
    ch, cw = card.shape[:2]
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0]], [[cw, 0]], [[cw, ch]], [[0, ch]]], np.float32), H).reshape(4, 2)
    return img, corners


def _off_along(corners: np.ndarray, share: float) -> np.ndarray:
    """The card's outline, upright on the picture, moved ``share`` of its height downwards
    along the card (negative: upwards)."""
    up = order._upright(corners)
    return np.asarray(up + share * (up[3] - up[0]), np.float32)


@pytest.fixture()
def outline_found_as(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[np.ndarray]]:
    """The outline the card search returns (set it in the list): the reader then lines it up
    and reads exactly as it does from an outline it found itself."""
    found: list[np.ndarray] = []
    monkeypatch.setattr(order, "find_card", lambda *args, **kwargs: found[0])
    yield found


@pytest.mark.parametrize(("robot", "angle", "share"),
                         [("red-blue-green", 186.0, -0.07), ("green-yellow-red", 170.0, -0.05),
                          ("blue-red-yellow", 250.0, -0.07),
                          ("yellow-green-blue", 0.0, 0.07)])
def test_an_other_art_card_off_along_its_length_is_lined_up_the_right_way(
        other_art: tuple[Look, order.OrderLook], outline_found_as: list[np.ndarray],
        robot: str, angle: float, share: float) -> None:
    # held upright, upside down or sideways: each was declined before (lined up with the
    # print turned, so its top could not be told)
    look, learnt = other_art
    image, corners = _other_art_scene(look, robot, 1, angle)
    outline_found_as.append(_off_along(corners, share))
    assert order.read_order(image, learnt).reading.robot == robot
    # lined up both ways, the better match is the card's own place
    height = float(np.linalg.norm(corners[3] - corners[0]))
    lined = order.locate(image, learnt)
    truth = order._upright(corners)
    assert min(float(np.abs(np.roll(lined, r, axis=0) - truth).max())
               for r in range(4)) <= 0.03 * height


def test_an_own_art_card_off_along_its_length_is_lined_up_the_right_way(
        style: Style, calibration: Calibration, outline_found_as: list[np.ndarray]) -> None:
    image, corners = _scene(style, "blue-red-yellow", 43, 6.0, None)
    outline_found_as.append(_off_along(corners, 0.07))
    assert order.read_order(image, calibration.order).reading.robot == "blue-red-yellow"


@pytest.mark.parametrize(("robot", "angle"), [("red-blue-green", 183.0), ("blue-red-yellow", 4.0),
                                              ("green-yellow-red", 75.0)])
def test_an_outline_off_by_up_to_a_tenth_is_read_right_or_declined(
        other_art: tuple[Look, order.OrderLook], outline_found_as: list[np.ndarray],
        robot: str, angle: float) -> None:
    # lining up both ways must not make a card read upside down with confidence, however far
    # off its outline (beyond align_max the outline stays where it was found)
    look, learnt = other_art
    image, corners = _other_art_scene(look, robot, 2, angle)
    for share in (-0.1, -0.08, -0.06, -0.04, -0.02, 0.0, 0.02, 0.04, 0.06, 0.08, 0.1):
        outline_found_as[:] = [_off_along(corners, share)]
        assert order.read_order(image, learnt).reading.robot in (robot, None), share


def test_the_outlines_judged_while_looking_for_a_card_are_lined_up_once(
        other_art: tuple[Look, order.OrderLook], monkeypatch: pytest.MonkeyPatch) -> None:
    # the camera judges outlines on every frame while it waits for the card: those keep a
    # single lining up (the guess), only the card found is lined up both ways
    look, learnt = other_art
    image, corners = _other_art_scene(look, "red-blue-green", 3, 8.0)
    calls: list[int] = []
    real = cv2.findTransformECC

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(cv2, "findTransformECC", counted)
    judges = order.outline_judges(image, learnt)
    assert judges is not None
    _, confirm = judges
    off = _off_along(corners, 0.07)
    confirm(off)
    assert len(calls) == 1
    calls.clear()
    assert learnt.sketch is not None
    order.align(image, off, learnt.sketch, both_ways=True)
    assert len(calls) == 2


@pytest.mark.parametrize(("robot", "angle", "share"),
                         [("yellow-green-blue", 0.0, 0.03), ("blue-red-yellow", -8.0, -0.06),
                          ("red-blue-green", 6.0, -0.03)])
def test_a_card_whose_affine_fit_does_not_converge_is_lined_up_by_a_turn_and_shift(
        other_art: tuple[Look, order.OrderLook], outline_found_as: list[np.ndarray],
        monkeypatch: pytest.MonkeyPatch, robot: str, angle: float, share: float) -> None:
    # third art g2562 o019: the upright card's affine fit did not converge, the turned fit
    # alone was taken, and the card read with head and legs swapped at full confidence. The
    # upright fit failing is forced here: the fit with a turn and shift only then lines it up
    look, learnt = other_art
    real = cv2.findTransformECC

    def upright_affine_fails(template: np.ndarray, drawn: np.ndarray, warp: np.ndarray,
                             motion: int, *args: Any) -> Any:
        if motion == cv2.MOTION_AFFINE and np.array_equal(template, learnt.sketch):
            raise cv2.error("the iterations do not converge")
        return real(template, drawn, warp, motion, *args)

    monkeypatch.setattr(cv2, "findTransformECC", upright_affine_fails)
    image, corners = _other_art_scene(look, robot, 1, angle)
    outline_found_as.append(_off_along(corners, share))
    assert order.read_order(image, learnt).reading.robot == robot
    # (without it the turned fit alone decides, and this card is not read right)
    monkeypatch.setitem(section("order"), "align_euclidean_too", False)
    assert order.read_order(image, learnt).reading.robot != robot
