"""The lane-size check made cheaper again (docs/vision.md "Tiles lane-check speed round"):
:func:`vision.tiles.lane_within` answers from the core of the lane window when the region near
the colour ends inside it within the bar; the check is asked only of a seat whose three parts
were read; ``ColourModel`` sums its Mahalanobis distances out (:func:`vision.colour.
mahalanobis2`) and ``markers.white_black`` takes both percentiles from one partial sort. Nothing
may change: each is held here to the computation it replaced."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from companion.ports import RobotReading, TilesObservation
from tests.vision.test_tiles_felt import LANES, NAMES, SIDE, _look, _paste_tile
from tests.vision.test_tiles_lane_speed import SCENES, _lane_area_before
from vision import colour, markers, tiles


@pytest.mark.parametrize("name", list(SCENES))
def test_the_decision_is_the_old_one_on_both_sides_of_every_bar(name: str) -> None:
    image = SCENES[name]
    look = _look()
    found = tiles.find_tiles(image)
    assert len(found) >= 4
    for quad in found.values():
        wb = markers.white_black(image, quad)
        for c in range(len(NAMES)):
            area = _lane_area_before(image, quad, look, c)
            # the bar exactly at the area (a tie is on the lane) and just under it, and far
            # from it both ways: the region closes, or exceeds the bar early, or never does
            for bar in (0.0, float(np.nextafter(area, -np.inf)), area, area / 3, 2 * area + 1,
                        1e9):
                old = _lane_area_before(image, quad, look, c, limit=bar) <= bar
                assert tiles.lane_within(image, quad, look, c, bar, wb) == old, (c, bar, area)
                assert tiles.lane_within(image, quad, look, c, bar) == old


def _samples_taken(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    taken: list[int] = []
    remap = cv2.remap

    def counting(image: np.ndarray, x: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
        taken.append(int(x.size))
        return remap(image, x, *args, **kwargs)

    monkeypatch.setattr(cv2, "remap", counting)
    return taken


def test_a_lane_is_told_from_the_core_of_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    image = SCENES["felt"]
    look = _look()
    found = tiles.find_tiles(image)
    green = NAMES.index("green")
    # seat 0's first tile lies on the board's green lane (3 by 8 marker sides), on felt: the
    # core (6 marker sides round, 49 by 49 samples) holds the lane, nothing else is sampled
    quad = found[markers.tile_id(0, 0)]
    area = _lane_area_before(image, quad, look, green)
    taken = _samples_taken(monkeypatch)
    assert tiles.lane_within(image, quad, look, green, 2.6 * area)
    assert taken == [49 * 49]
    # a tile put aside on the felt: the region runs past the core, the rest of the window (in
    # the picture) is sampled too, once
    taken.clear()
    assert not tiles.lane_within(image, found[markers.tile_id(1, 0)], look, green, 2.6 * area)
    assert taken[0] == 49 * 49 and len(taken) == 2 and taken[1] <= 81 * 81 - 49 * 49


@pytest.mark.parametrize("name", list(SCENES))
def test_each_sample_is_the_one_the_whole_window_takes(name: str) -> None:
    """The core and the rest are sampled apart (a square of the window, then a list of points):
    each sample, its white balance and its distance to the colour come out as when the whole
    window is sampled at once."""
    image = SCENES[name]
    look = _look()
    local, _ = tiles._lane_grid(10.0, 0.25)
    rng = np.random.default_rng(2)
    for quad in tiles.find_tiles(image).values():
        wb = markers.white_black(image, quad)
        pts = cv2.perspectiveTransform(local, markers.local_to_image(quad)).reshape(81, 81, 2)
        for c in range(len(NAMES)):
            cov = np.ascontiguousarray(look.model.covs[c])
            inv = tiles._inverse(cov.tobytes(), cov.dtype.str)
            mean = look.model.means[c]
            whole, _, near = tiles._near(image, pts[..., 0], pts[..., 1], wb, mean, inv)
            values = cv2.remap(image, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
            assert np.array_equal(whole, markers.normalise(values, *wb).reshape(-1, 3))
            core = pts[16:65, 16:65]
            part, _, part_near = tiles._near(image, core[..., 0], core[..., 1], wb, mean, inv)
            assert np.array_equal(part, whole.reshape(81, 81, 3)[16:65, 16:65].reshape(-1, 3))
            assert np.array_equal(part_near, near.reshape(81, 81)[16:65, 16:65].ravel())
            some = rng.random((81, 81)) < 0.5
            xy = pts[some]
            part, _, part_near = tiles._near(image, xy[:, :1], xy[:, 1:], wb, mean, inv)
            assert np.array_equal(part, whole.reshape(81, 81, 3)[some])
            assert np.array_equal(part_near, near.reshape(81, 81)[some])


def test_no_lane_is_measured_for_a_seat_declined_anyway(monkeypatch: pytest.MonkeyPatch) -> None:
    """A part declined declines its seat whatever the others show: their lanes are not measured,
    and the reading (robots, confidences of every part) is what it was."""
    look = _look()
    image = SCENES["felt"].copy()
    # seat 2: two tiles on the felt, the third not in view
    for part, centre in enumerate([(300.0, 500.0), (300.0 + 2.2 * SIDE, 500.0)]):
        _paste_tile(image, markers.tile_id(2, part), centre)
    found = tiles.find_tiles(image)
    look.lane_area = _lane_area_before(image, found[markers.tile_id(0, 0)], look,
                                       NAMES.index("green"))
    asked: list[int] = []
    on_a_lane = tiles._on_a_lane

    def counting(image: np.ndarray, quad: np.ndarray, *args: Any) -> bool:
        asked.append(next(m for m, q in found.items() if np.array_equal(q, quad)) // 3)
        return on_a_lane(image, quad, *args)

    monkeypatch.setattr(tiles, "_on_a_lane", counting)
    reading = tiles.read_tiles(image, look)
    assert reading.robots[2].robot is None and reading.robots[2].parts[2] == 0.0
    assert 2 not in asked
    # seat 1 (put aside on the felt) stops at its first part
    assert asked.count(1) == 1 and asked.count(0) == 3
    assert reading.robots[0].robot == "green-red-blue" and reading.robots[1].robot is None

    # the reading as it was made before: every part read was measured
    def before(image: np.ndarray, quad: np.ndarray, look: tiles.TilesLook, colour: str,
               wb: Any = None) -> bool:
        bar = 2.6 * float(look.lane_area or 0.0)
        return _lane_area_before(image, quad, look, look.model.names.index(colour),
                                 limit=bar) <= bar

    monkeypatch.setattr(tiles, "_on_a_lane", before)
    monkeypatch.setattr(tiles, "read_tiles_region", _read_tiles_region_before)
    assert tiles.read_tiles(image, look) == reading


def _read_tiles_region_before(image: np.ndarray, look: tiles.TilesLook) -> Any:
    # vision/tiles.py read_tiles_region at 4f066fa, verbatim (but for the names it reaches)
    found, corners = tiles.find_markers(image)
    board_quads = tiles.boards(corners) if corners else None
    robots: dict[int, RobotReading] = {}
    for seat in sorted({m // 3 for m in found}):
        colours: list[str | None] = []
        confidences: list[float] = []
        for part in range(3):
            quad = found.get(markers.tile_id(seat, part))
            if quad is None or (board_quads is not None and
                                not tiles._on_a_board(quad, board_quads)):
                colours.append(None)
                confidences.append(0.0)
                continue
            wb = markers.white_black(image, quad)
            c, conf = tiles.read_part(image, quad, look, wb)
            if c is not None and board_quads is None and \
                    not tiles._on_a_lane(image, quad, look, c, wb):
                c = None
            colours.append(c)
            confidences.append(round(conf, 3))
        parts = (confidences[0], confidences[1], confidences[2])
        if all(c is not None for c in colours):
            robot: str | None = "-".join(c for c in colours if c is not None)
            robots[seat] = RobotReading(robot, min(parts), parts)
        else:
            robots[seat] = RobotReading(None, 0.0, parts)
    return TilesObservation(robots), (0, 0, 0, 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("k", [1, 4, 5])
def test_the_colour_distances_are_einsums_bit_for_bit(dtype: type, k: int) -> None:
    rng = np.random.default_rng(11)
    for n in (1, 7, 216, 6561):
        diff = (rng.normal(0, 1, (n, k, 3)) * rng.uniform(0.01, 3, 3)).astype(np.float32)
        a = rng.normal(0, 1, (k, 3, 3))
        inv: np.ndarray = np.linalg.inv(a @ a.transpose(0, 2, 1) + 0.1 * np.eye(3)).astype(dtype)
        assert np.array_equal(colour.mahalanobis2(diff, inv),
                              np.einsum("nki,kij,nkj->nk", diff, inv, diff))


def test_the_colour_model_classifies_as_with_einsum(monkeypatch: pytest.MonkeyPatch) -> None:
    look = _look()
    rng = np.random.default_rng(5)
    pixels = np.concatenate([np.array(c) + rng.normal(0, 0.1, (3000, 3)) for c in LANES.values()]
                            + [rng.uniform(0, 1.2, (5000, 3))]).astype(np.float32)
    new = look.model.classify(pixels)
    monkeypatch.setattr(colour, "mahalanobis2",
                        lambda diff, inv: np.einsum("nki,kij,nkj->nk", diff, inv, diff))
    assert np.array_equal(look.model.classify(pixels), new)


def test_white_and_black_are_the_percentiles_bit_for_bit() -> None:
    rng = np.random.default_rng(3)
    for t in range(300):
        n = 400 if t % 3 else int(rng.integers(1, 500))
        drawn: np.ndarray = rng.normal(128, 50, (n, 3)) if t % 2 else rng.integers(0, 256, (n, 3))
        pixels: Any = drawn.astype(np.float32 if t % 4 else np.float64)
        q = (92, 8) if t % 5 else (float(rng.uniform(0, 100)), 50)
        for got, want in zip(markers._percentiles(pixels, q),
                             (np.percentile(pixels, q[0], axis=0),
                              np.percentile(pixels, q[1], axis=0)), strict=True):
            assert got.dtype == want.dtype and np.array_equal(got, want)
    image = SCENES["edge"]
    for quad in tiles.find_tiles(image).values():
        white, black = markers.white_black(image, quad)
        pixels = markers._print_pixels(image, quad)
        assert np.array_equal(white, np.percentile(pixels, 92, axis=0))
        assert np.array_equal(black, np.percentile(pixels, 8, axis=0))
