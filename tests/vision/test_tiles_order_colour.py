"""Tiles, order cards and colour models: what calibration learns, and the cases the readers used
to miss (paper taken for a pale lane, a hand widening the card, a card partly out of view, a
card held upside down). Right or declined, never confidently wrong."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.config import Config
from vision import order
from vision.calibration import Calibration
from vision.colour import BACKGROUND, ColourModel
from vision.errors import NoCardFound
from vision.synth import draw
from vision.synth.scenes import Style, card_patch
from vision.thresholds import section


def _card_scene(style: Style, robot: str, seed: int, centre: tuple[float, float],
                angle: float, height: float = 460.0, hand_at: str | None = None,
                size: tuple[int, int] = (1280, 720)) -> tuple[np.ndarray, np.ndarray]:
    """A card (and maybe a hand over its right edge) on a table; returns the picture and the
    card's true corners (top-left first, clockwise)."""
    rng = np.random.default_rng(seed)
    width, height_px = size
    img = draw.table(width, height_px, rng)
    card = card_patch(style, robot.split("-"), rng)
    k = height / card.shape[0]
    H = draw.place(card.shape[1] * k, card.shape[0] * k, centre[0], centre[1], angle) @ \
        draw.scale(k)
    draw.paste(img, card, H, draw.rounded_mask(card.shape[1], card.shape[0],
                                               card.shape[1] // 16))
    ch, cw = card.shape[:2]
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0]], [[cw, 0]], [[cw, ch]], [[0, ch]]], np.float32), H).reshape(4, 2)
    if hand_at == "right":
        # the palm sits over the card's right edge, fingers pointing into the card
        a = math.radians(angle)
        reach = height * 0.09
        half_w = cw * k / 2
        hx = centre[0] + (half_w + reach) * math.cos(a) - (0.3 * height / 2) * math.sin(a)
        hy = centre[1] + (half_w + reach) * math.sin(a) + (0.3 * height / 2) * math.cos(a)
        draw.hand(img, rng, hx, hy, height * 0.3, 180 + angle)
    return img, corners


def _close(found: np.ndarray, truth: np.ndarray, tolerance: float) -> bool:
    """Corners within ``tolerance`` of the card's height. The outline found lies just outside
    the card's edge, or along a frame printed inside it, the same on every card of a style, so
    calibration and reading agree."""
    height = float(np.linalg.norm(truth[3] - truth[0]))
    return bool(np.abs(found - truth).max() <= tolerance * height)


# ------------------------------------------------------------------------------- colour model


def test_background_learnt_in_calibration_keeps_paper_from_a_pale_yellow() -> None:
    names = ["red", "green", "blue", "yellow"]
    rng = np.random.default_rng(1)
    lanes = {"red": (0.2, 0.2, 0.9), "green": (0.4, 0.7, 0.2), "blue": (0.9, 0.5, 0.2),
             "yellow": (0.45, 0.85, 0.95)}
    samples = {n: np.array(c) + rng.normal(0, 0.03, (400, 3)) for n, c in lanes.items()}
    base = ColourModel.default(names, {"red": "#d03030", "green": "#30a040",
                                       "blue": "#3060d0", "yellow": "#f0d040"})
    model = ColourModel.fit(samples, base)
    paper = np.array((0.9, 0.93, 0.95)) + rng.normal(0, 0.02, (600, 3))
    around = np.concatenate([paper, *samples.values()])
    with_paper = model.with_background(around)
    assert len(with_paper.background_means) >= 1
    # the paper is no colour once the background is known ...
    assert (with_paper.classify(paper) == BACKGROUND).mean() > 0.9
    # ... and every lane colour is still itself
    for k, name in enumerate(names):
        assert (with_paper.classify(samples[name]) == k).mean() > 0.9, name


def test_background_never_sits_on_a_colour() -> None:
    names = ["red", "green", "blue", "yellow"]
    base = ColourModel.default(names, {"red": "#d03030", "green": "#30a040",
                                       "blue": "#3060d0", "yellow": "#f0d040"})
    rng = np.random.default_rng(2)
    # only lane colours around: nothing is left over to be background
    pixels = np.concatenate([np.array(lane) + rng.normal(0, 0.01, (300, 3))
                             for lane in ([0.19, 0.19, 0.82], [0.25, 0.63, 0.19],
                                          [0.82, 0.38, 0.19], [0.25, 0.82, 0.94])])
    model = ColourModel.fit({n: pixels[300 * k:300 * (k + 1)] for k, n in enumerate(names)}, base)
    bg = model.with_background(pixels)
    for mean in bg.background_means:
        assert model.d2_features(mean[None]).min() > float(section("colour")["background_core_d2"])
    assert (bg.classify(pixels) >= 0).mean() > 0.95


def test_colour_model_json_round_trip_with_and_without_background(
        calibration: Calibration) -> None:
    model = calibration.tiles.model
    assert len(model.background_means) > 0
    again = ColourModel.from_json(model.to_json())
    assert np.allclose(again.background_means, model.background_means, atol=1e-4)
    x = np.random.default_rng(3).uniform(0, 1, (200, 3))
    assert (again.classify(x) == model.classify(x)).mean() > 0.98
    old = {"names": model.names, "means": model.means.tolist(), "covs": model.covs.tolist()}
    plain = ColourModel.from_json(old)  # a calibration stored before backgrounds were learnt
    assert len(plain.background_means) == 0
    assert plain.classify(x).shape == (200,)


# ----------------------------------------------------------------------------------- order


def test_calibration_learns_the_cards_shape_and_how_top_differs_from_bottom(
        calibration: Calibration) -> None:
    look = calibration.order
    assert look.learnt
    assert look.aspect is not None and 1.3 < look.aspect < 1.5  # cards are 63 x 88 mm
    assert look.turn_margin is not None and look.turn_margin > 0
    again = order.OrderLook.from_json(look.to_json())
    assert again.aspect == pytest.approx(look.aspect, abs=1e-3)
    assert again.turn_margin == pytest.approx(look.turn_margin, abs=1e-3)
    stored_before = {k: v for k, v in look.to_json().items() if k not in ("aspect", "turn_margin")}
    older = order.OrderLook.from_json(stored_before)
    assert older.aspect is None and older.turn_margin is None


@pytest.mark.parametrize("angle", [-15.0, 0.0, 12.0])
def test_a_hand_over_the_cards_edge_does_not_widen_the_card(style: Style,
                                                           calibration: Calibration,
                                                           angle: float) -> None:
    image, truth = _card_scene(style, "red-blue-yellow", 11, (600, 360), angle, hand_at="right")
    found = order.find_card(image, calibration.order.aspect)
    assert _close(found, truth, 0.04), (found, truth)
    reading = order.read_order(image, calibration.order).reading
    assert reading.robot in ("red-blue-yellow", None)


def test_a_card_partly_out_of_view_is_still_found(style: Style,
                                                  calibration: Calibration) -> None:
    # the same card, in full view and moved up so that its top-right corner is out of view:
    # the outline found moves with it (where a frame printed inside the card meets the border,
    # the cut edge may follow the frame: a few percent of the card, which the reading tolerates)
    whole, _ = _card_scene(style, "green-yellow-blue", 12, (640, 360), 10.0)
    image, truth = _card_scene(style, "green-yellow-blue", 12, (640, 236), 10.0)
    assert truth[:, 1].min() < 0
    expected = order.find_card(whole, calibration.order.aspect) - np.array([0, 124], np.float32)
    found = order.find_card(image, calibration.order.aspect)
    assert _close(found, expected, 0.08), (found, expected)
    reading = order.read_order(image, calibration.order).reading
    assert reading.robot in ("green-yellow-blue", None)


def test_a_card_mostly_out_of_view_is_not_read(style: Style, calibration: Calibration) -> None:
    image, _ = _card_scene(style, "green-yellow-blue", 13, (640, 80), 0.0)
    try:
        reading = order.read_order(image, calibration.order).reading
    except NoCardFound:
        return
    assert reading.robot is None


@pytest.mark.parametrize("angle", [180.0, 165.0, 100.0, 70.0])
def test_a_turned_card_is_read_the_right_way_up_or_declined(style: Style,
                                                            calibration: Calibration,
                                                            angle: float) -> None:
    robots = ["red-green-blue", "yellow-blue-green", "blue-red-yellow", "green-yellow-red"]
    read = 0
    for i, robot in enumerate(robots):
        image, _ = _card_scene(style, robot, 20 + i, (640, 360), angle, height=420)
        reading = order.read_order(image, calibration.order).reading
        assert reading.robot in (robot, None), (angle, robot, reading)
        read += reading.robot == robot
    # this style's head and legs look different, so most are read
    assert read >= 3, f"only {read} of {len(robots)} cards turned by {angle} degrees read"


def test_a_symmetric_robot_reads_the_same_either_way_up(calibration: Calibration) -> None:
    look = calibration.order
    h, w = look.masks.shape[1:]
    cls = np.full((h, w), -1, np.int64)
    red, green = look.model.names.index("red"), look.model.names.index("green")
    cls[look.masks[0]] = red
    cls[look.masks[1]] = green
    cls[look.masks[2]] = red
    assert order.read_turned(cls, look).robot == "red-green-red"
    assert order.read_turned(cls[::-1, ::-1].copy(), look).robot in ("red-green-red", None)


def test_the_robot_printed_on_a_card_is_not_taken_for_the_card(style: Style,
                                                               calibration: Calibration) -> None:
    # a pale card on a pale table: the card's own edge is faint, the robot's print is strong
    rng = np.random.default_rng(30)
    img = np.full((720, 1280, 3), 215, np.uint8)
    card = card_patch(style, ["yellow", "green", "red"], rng)
    card[:] = np.where(card.sum(axis=2, keepdims=True) > 600, 225, card)
    k = 460 / card.shape[0]
    H = draw.place(card.shape[1] * k, card.shape[0] * k, 640, 360, 0) @ draw.scale(k)
    draw.paste(img, card, H)
    try:
        found = order.find_card(img, calibration.order.aspect)
    except NoCardFound:
        return
    # whatever is found must be the whole card, never the robot inside it
    assert cv2.contourArea(found) > 0.8 * (card.shape[0] * k) * (card.shape[1] * k)


def test_default_config_reads_before_calibration(config: Config) -> None:
    look = order.OrderLook.default(ColourModel.default(list(config.game.colours),
                                                      config.game.display))
    assert look.aspect is None and look.turn_margin is None
    assert order.aspect_range(None) == (1.15, 1.75)


def test_a_ring_mostly_of_paper_votes_on_its_colour_pixels_but_shows_how_few(
        calibration: Calibration) -> None:
    model = calibration.tiles.model
    # pixels the background claims (tile paper, board margin) and a few of a lane colour
    rng = np.random.default_rng(4)
    candidates = rng.uniform(0, 1.1, (20000, 3))
    cls = model.classify(candidates)
    background = candidates[cls == BACKGROUND][:90]
    red = candidates[cls == model.names.index("red")][:10]
    assert len(background) == 90 and len(red) == 10
    best, share, runner_up, coverage = model.vote(np.concatenate([background, red]))
    assert model.names[best] == "red"
    assert share == pytest.approx(1.0) and runner_up == 0.0
    assert coverage == pytest.approx(0.1)
    assert coverage < section("tiles")["min_coverage"]  # so such a tile is declined


def test_an_empty_table_is_searched_without_trying_each_pocket_along_the_border(
        monkeypatch: pytest.MonkeyPatch, calibration: Calibration) -> None:
    # the camera reads continuously while waiting for the order card; on a plain table the
    # sensor's grain is edges nearly everywhere at the lower levels, leaving dozens of pockets
    # along the border, none of which can hold a card: the search for a card partly out of
    # view tries none of them (each try labels the whole picture again)
    from vision.staged import _camera
    image = _camera(np.full((720, 1280, 3), (70, 110, 95), np.uint8), np.random.default_rng(5))
    searches: list[int] = []
    card_in = order._card_in

    def counted(*args: object, **kwargs: object) -> np.ndarray | None:
        searches.append(1)
        return card_in(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(order, "_card_in", counted)
    with pytest.raises(NoCardFound):
        order.find_card(image, calibration.order.aspect)
    # one search of each edge level's enclosed blobs, no trial of a pocket
    assert len(searches) <= len(section("order")["edge_levels"]) + 1
