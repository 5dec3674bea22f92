"""Robot Master grid: the play-area markers are looked for first near where the last picture
showed them (``markers.detect_near``), which must give exactly the corners the whole picture's
search gives, and fall back to the whole picture whenever it cannot be sure."""

from __future__ import annotations

import numpy as np
import pytest

from vision import grid, markers
from vision.grid import area
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid
from vision.thresholds import section

AREA = markers.PLAY_AREA_IDS


def _whole(image: np.ndarray) -> dict[int, np.ndarray]:
    return markers.detect(image, AREA, lambda f: len(f) == 4)


@pytest.fixture(scope="module")
def pictures(style: Style) -> list[np.ndarray]:
    """Grids with all four markers in view at both sizes, clean and hard (blur, dim light,
    noise), markers 20 to 40 px: the first two of each kind and size a fixed seed gives."""
    rng = np.random.default_rng(81)
    out: list[np.ndarray] = []
    for hard in (False, True):
        for width, height in ((1280, 720), (1920, 1080)):
            kept = 0
            while kept < 2:
                image = render_grid(style, random_grid(rng), rng, width, height,
                                    marker_px=float(rng.uniform(20, 40)), hard=hard, hand=False)
                if len(_whole(image)) == 4:
                    out.append(image)
                    kept += 1
    return out


def test_near_gives_the_whole_pictures_corners_bit_for_bit(pictures: list[np.ndarray]) -> None:
    rng = np.random.default_rng(82)
    for image in pictures:
        whole = _whole(image)
        assert len(whole) == 4
        last = list(whole.items())
        # where they were, and a few pixels off (the camera shook)
        shaken = [(m, q + rng.uniform(-4, 4, 2).astype(np.float32)) for m, q in last]
        for hint in (last, shaken):
            near = markers.detect_near(image, hint, AREA)
            assert list(near) == list(whole)  # the order of the whole picture's search
            for m, quad in whole.items():
                assert near[m].dtype == np.float32
                assert np.array_equal(near[m], quad)


def test_near_finds_nothing_where_the_markers_are_not(pictures: list[np.ndarray]) -> None:
    a, b = pictures[0], pictures[1]  # the same size, the area elsewhere
    assert markers.detect_near(b, list(_whole(a).items()), AREA) == {}


def test_a_marker_moved_towards_its_boxs_edge_is_not_taken(pictures: list[np.ndarray]) -> None:
    image = pictures[0]
    last = list(_whole(image).items())
    (m, quad), rest = last[0], last[1:]
    # the hint off by so much that the marker lies 6 pixels inside its box's corner: found
    # there, but nearer the edge than half a threshold window, where its outline may be cut
    cfg = section("markers")
    length = markers._extent(quad)[4]
    reach = (max(int(w) for w in cfg["windows"]) // 2 + 1 + float(cfg["near_guard"]) * length
             + max(float(cfg["near_move"]) * length, float(cfg["near_move_px"])))
    hint = quad + np.float32(reach - 6)
    x0, y0 = np.floor(hint.min(axis=0) - reach).astype(int)
    x1, y1 = np.ceil(hint.max(axis=0) + reach).astype(int) + 1
    box = markers.grey(image)[y0:y1, x0:x1]
    _, ids, _ = markers._detector(int(cfg["windows"][0]), refine=False).detectMarkers(box)
    assert ids is not None and m in ids.ravel()
    assert markers.detect_near(image, [(m, hint), *rest], AREA) == {}


def test_an_id_seen_twice_near_is_not_taken(pictures: list[np.ndarray]) -> None:
    image = pictures[0].copy()
    whole = _whole(image)
    (m, quad), (_, other_quad) = list(whole.items())[:2]
    # marker m's print pasted over another marker: two markers of one id in the boxes
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 3
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 4
    ox, oy = np.round(other_quad.mean(axis=0) - (quad.mean(axis=0) - (x0, y0))).astype(int)
    image[oy:oy + y1 - y0, ox:ox + x1 - x0] = pictures[0][y0:y1, x0:x1]
    assert m not in markers.detect(image, AREA)  # the whole picture drops it too
    assert markers.detect_near(image, list(whole.items()), AREA) == {}


def test_the_area_is_found_alike_warm_or_cold(pictures: list[np.ndarray]) -> None:
    for image in pictures:
        area._last_seen.markers = None
        cold = grid.find_area(image)
        warm = grid.find_area(image)  # found near where the first look found them
        assert area._last_seen.markers is not None
        for a, b in zip(cold, warm, strict=True):
            assert np.array_equal(a, b)
    # after another picture's area (the markers elsewhere): the whole picture is searched
    area._last_seen.markers = None
    first = grid.find_area(pictures[1])
    grid.find_area(pictures[0])
    again = grid.find_area(pictures[1])
    for a, b in zip(first, again, strict=True):
        assert np.array_equal(a, b)


def test_a_reading_is_the_same_warm_or_cold(style: Style, calibration: object) -> None:
    from vision.calibration import Calibration

    assert isinstance(calibration, Calibration)
    rng = np.random.default_rng(83)
    image = render_grid(style, random_grid(rng, cards=12), rng)
    area._last_seen.markers = None
    cold = grid.read_grid(image, calibration.grid)
    warm = grid.read_grid(image, calibration.grid)
    assert warm == cold
