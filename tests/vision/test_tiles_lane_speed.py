"""The lane-size check (:func:`vision.tiles.lane_area`) was made cheaper: the sample grid and the
colour's inverse covariance are made once, and a part's marker white and black are measured once
for all its looks. Nothing it decides may change: here the new code is held to the computation it
replaced (kept below verbatim) on a few tables, a felt one and one at the picture's edge."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_tiles_felt import LANES, NAMES, SIDE, TABLE, _board, _look, _paste_tile
from vision import markers, tiles
from vision.colour import features
from vision.thresholds import section


def _lane_area_before(image: np.ndarray, quad: np.ndarray, look: tiles.TilesLook, colour: int,
                      limit: float | None = None) -> float:
    # vision/tiles.py lane_area at dea0472, verbatim but for the felt2 round's rule below
    cfg = section("tiles")
    reach, step = float(cfg["lane_window"]), float(cfg["lane_step"])
    n = round(2 * reach / step) + 1
    axis = np.linspace(-reach, reach, n, dtype=np.float32)
    xx, yy = np.meshgrid(axis, axis)
    local = np.stack([xx, yy], axis=-1).reshape(-1, 1, 2)
    pts = cv2.perspectiveTransform(local, markers.local_to_image(quad)).reshape(n, n, 2)
    h, w = image.shape[:2]
    inside = ((pts[..., 0] >= 0) & (pts[..., 0] <= w - 1) & (pts[..., 1] >= 0)
              & (pts[..., 1] <= h - 1))
    values = cv2.remap(image, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    white, black = markers.white_black(image, quad)
    pixels = markers.normalise(values, white, black).reshape(-1, 3)
    diff = features(pixels) - look.model.means[colour]
    near = np.einsum("ni,ij,nj->n", diff, np.linalg.inv(look.model.covs[colour]), diff) <= \
        1.01 * float(section("colour")["reject_d2"])
    near &= inside.ravel()
    # the felt2 round's rule (written here apart from vision/tiles.py): only the samples within
    # lane_same_d2 of the colour the rings show (the median of their samples classed as it)
    radius = np.hypot(xx, yy)
    band = ((radius >= min(look.radii) - step) & (radius <= max(look.radii) + step)
            & inside).ravel()
    own = look.model.classify(pixels[band]) == colour
    if not own.any():
        return 0.0
    shown = features(pixels) - np.median(features(pixels[band][own]), axis=0)
    near &= np.einsum("ni,ij,nj->n", shown, np.linalg.inv(look.model.covs[colour]), shown) <= \
        float(cfg["lane_same_d2"])
    if limit is not None and float(near.sum()) * step * step <= limit:
        return float(near.sum()) * step * step
    flat = np.zeros(n * n, np.uint8)
    flat[near] = look.model.classify(pixels[near]) == colour
    mask = flat.reshape(n, n)
    _, labels = cv2.connectedComponents(mask, connectivity=4)
    radius = np.hypot(xx, yy)
    ring = (radius >= min(look.radii) - step) & (radius <= max(look.radii) + step) & (mask > 0)
    ids = np.unique(labels[ring])
    ids = ids[ids > 0]
    return float(np.isin(labels, ids).sum()) * step * step


def _bgr(shares: tuple[float, float, float]) -> tuple[int, int, int]:
    b, g, r = (round(255 * s) for s in shares)
    return b, g, r


def _scene(table: tuple[float, float, float], board_at: tuple[int, int],
           aside: list[tuple[float, float]]) -> np.ndarray:
    """Seat 0's tiles on a board's green, red and blue lanes; seat 1's put aside on the table."""
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = _bgr(table)
    middles = _board(img, *board_at)
    for part, lane in enumerate((1, 0, 2)):
        _paste_tile(img, markers.tile_id(0, part), middles[lane])
    for part, centre in enumerate(aside):
        _paste_tile(img, markers.tile_id(1, part), centre)
    return img


SCENES = {
    # green felt: seat 1's tiles lie in a column on it
    "felt": _scene(LANES["green"], (500, 200), [(300.0, 250.0 + 2.2 * SIDE * p) for p in range(3)]),
    # a grey table, the board and a tile set aside near the picture's corner: the lane window
    # runs off the picture
    "edge": _scene(TABLE, (1280 - 4 * 72 - 34, 720 - 8 * 24 - 34),
                   [(20.0, 20.0), (1260.0, 30.0), (30.0, 700.0)]),
    # the board on the felt, its lanes running off the picture's top
    "felt at the edge": _scene(LANES["green"], (200, -60), [(1100.0, 600.0)]),
}


@pytest.mark.parametrize("name", list(SCENES))
def test_the_lane_area_is_what_it_was_for_every_tile_and_colour(name: str) -> None:
    image = SCENES[name]
    look = _look()
    found = tiles.find_tiles(image)
    assert len(found) >= 4
    for quad in found.values():
        wb = markers.white_black(image, quad)
        for colour in range(len(NAMES)):
            before = _lane_area_before(image, quad, look, colour)
            assert tiles.lane_area(image, quad, look, colour) == before
            assert tiles.lane_area(image, quad, look, colour, wb=wb) == before
            # the early exit gives the same figure on both sides of every limit
            for limit in (0.0, before / 2, before, 3 * before + 1):
                old = _lane_area_before(image, quad, look, colour, limit=limit)
                assert tiles.lane_area(image, quad, look, colour, limit=limit, wb=wb) == old


@pytest.mark.parametrize("name", list(SCENES))
def test_the_reading_is_what_it_was(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    image = SCENES[name]
    look = _look()
    found = tiles.find_tiles(image)
    look.lane_area = _lane_area_before(image, found[markers.tile_id(0, 0)], look,
                                       NAMES.index("green"))
    new = tiles.read_tiles(image, look)
    monkeypatch.setattr(tiles, "lane_area", lambda image, quad, look, colour, limit=None,
                        wb=None: _lane_area_before(image, quad, look, colour, limit))
    assert tiles.read_tiles(image, look) == new


def test_the_shared_sample_grid_cannot_be_changed() -> None:
    local, radius = tiles._lane_grid(10.0, 0.25)
    assert local.shape == (81 * 81, 1, 2) and radius.shape == (81, 81)
    with pytest.raises(ValueError):
        radius[0, 0] = 0.0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_distance_to_a_colour_is_einsums_bit_for_bit(dtype: type) -> None:
    rng = np.random.default_rng(7)
    for _ in range(5):
        diff = (rng.normal(0, 1, (50000, 3)) * rng.uniform(0.01, 3, 3)).astype(np.float32)
        a = rng.normal(0, 1, (3, 3))
        inv = np.linalg.inv((a @ a.T + 0.1 * np.eye(3)).astype(dtype))
        assert np.array_equal(tiles._mahalanobis2(diff, inv),
                              np.einsum("ni,ij,nj->n", diff, inv, diff))
