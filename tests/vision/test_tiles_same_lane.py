"""A seat was read green-green-blue where no robot was laid (other art h10817 t002, the one wrong
reading left on the project's sets): one of its tiles was put aside beside the board on dark
green felt at the picture's left edge, the rings read it green, and the felt's region, cut by the
picture's edge and broken by noise, measured under the lane-size bar. Its other green part lay
on the board's green lane. A board has one lane of each colour, and a lane is a straight strip:
two parts of one seat read as the same colour lie on one lane, so the line between them runs
over that lane. From the felt to the green lane it crosses the board's other lanes; the seat
is now declined when that line shows one other lane's colour, unbroken, over at least
``tiles.between_run`` marker sides (t002: 1.5, over the board's yellow lane; seats read right:
at most 0.5, stray samples)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_tiles_felt import LANES, NAMES, SIDE, TABLE, _board, _look, _paste_tile
from vision import markers, tiles
from vision.thresholds import section


def _bgr(shares: tuple[float, float, float]) -> tuple[int, int, int]:
    b, g, r = (round(255 * s) for s in shares)
    return b, g, r


def _scene(aside: bool) -> np.ndarray:
    """Seat 0's head and legs on the board's green lane (its second lane from the left), its
    torso on the blue lane; or (``aside``) its legs put aside left of the board on a patch of
    green cloth no larger than a lane, as at h10817 t002's picture edge."""
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = _bgr(TABLE)
    middles = _board(img, 500, 200)
    gx, gy = middles[NAMES.index("green")]
    bx, by = middles[NAMES.index("blue")]
    legs = (gx, gy + 2.5 * SIDE)
    if aside:
        img[216:408, 330:402] = _bgr(LANES["green"])
        legs = (366.0, gy + 2.5 * SIDE)
    for part, centre in enumerate(((gx, gy - 2.5 * SIDE), (bx, by), legs)):
        _paste_tile(img, markers.tile_id(0, part), centre)
    return img


def _learnt() -> tiles.TilesLook:
    look = _look()
    on_board = _scene(aside=False)
    found = tiles.find_tiles(on_board)
    look.lane_area = max(tiles.lane_area(on_board, found[markers.tile_id(0, p)], look,
                                         NAMES.index(colour))
                         for p, colour in enumerate(("green", "blue", "green")))
    return look


def _pair(img: np.ndarray) -> tuple[tuple[np.ndarray, tiles.WhiteBlack], ...]:
    found = tiles.find_tiles(img)
    quads = (found[markers.tile_id(0, 0)], found[markers.tile_id(0, 2)])
    return tuple((q, markers.white_black(img, q)) for q in quads)


def test_two_parts_of_one_colour_on_one_lane_are_read() -> None:
    look = _learnt()
    img = _scene(aside=False)
    head, legs = _pair(img)
    # the line between them runs over the green lane only
    assert tiles.between(img, head, legs, look, NAMES.index("green")) == 0.0
    assert tiles.read_tiles(img, look).robots[0].robot == "green-blue-green"


def test_a_part_put_aside_beside_the_board_is_not_on_the_lane_of_its_colour(
        monkeypatch: pytest.MonkeyPatch) -> None:
    look = _learnt()
    img = _scene(aside=True)
    head, legs = _pair(img)
    # the rings read the legs green, and the cloth is no larger than a lane: both rules before
    # this one let it through
    assert tiles.read_part(img, legs[0], look)[0] == "green"
    assert look.lane_area is not None
    bar = float(section("tiles")["lane_area_factor"]) * look.lane_area
    assert tiles.lane_within(img, legs[0], look, NAMES.index("green"), bar)
    # the line from the cloth to the green lane crosses the board's red lane (3 marker sides
    # wide) and its margin
    run = tiles.between(img, head, legs, look, NAMES.index("green"))
    assert run >= 2 * float(section("tiles")["between_run"]), run
    robot = tiles.read_tiles(img, look).robots[0]
    assert robot.robot is None
    # the parts' confidences stand (the rings were sure)
    assert min(robot.parts) > 0.5
    # without the rule the seat was read, as on h10817
    monkeypatch.setattr(tiles, "_off_its_lane", lambda *args, **kwargs: None)
    assert tiles.read_tiles(img, look).robots[0].robot == "green-blue-green"


def test_the_longest_run_of_another_colour() -> None:
    def reference(classes: list[int], colour: int) -> int:
        longest = run = 0
        for k, c in enumerate(classes):
            other = c >= 0 and c != colour
            run = run + 1 if other and k > 0 and c == classes[k - 1] else int(other)
            longest = max(longest, run)
        return longest

    # the t002 line, head to torso: green, the legs' tile, blue, yellow broken once, margin, felt
    line = "G.x.........BB.YYYYY.YYYYYY..GG"
    code = {".": -2, "x": -1, "R": 0, "G": 1, "B": 2, "Y": 3}
    classes = np.array([code[c] for c in line])
    assert tiles._longest_run(classes, 1) == 6
    assert tiles._longest_run(classes, 3) == 2  # (the blue)
    rng = np.random.default_rng(5)
    for _ in range(500):
        n = int(rng.integers(0, 40))
        classes = rng.integers(-2, 4, n)
        colour = int(rng.integers(0, 4))
        assert tiles._longest_run(classes, colour) == reference(classes.tolist(), colour)
