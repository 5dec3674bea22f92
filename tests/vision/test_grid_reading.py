"""Robot Master grid: what calibration learns about the bare surface and the cards survives the
calibration file, old calibration files still load, and the batched value search agrees with
reading one cell at a time."""

from __future__ import annotations

import base64

import cv2
import numpy as np

from vision import grid
from vision.calibration import Calibration
from vision.grid import colours, geometry, reader
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid


def test_grid_look_round_trips_through_json(calibration: Calibration) -> None:
    look = calibration.grid
    again = grid.GridLook.from_json(look.to_json())
    assert again.bare_mode == look.bare_mode
    assert np.allclose(again.bare, look.bare)
    assert again.bare_texture == look.bare_texture
    assert np.allclose(np.nan_to_num(again.value_colours), np.nan_to_num(look.value_colours))
    assert np.array_equal(again.templates, look.templates)


def test_a_calibration_from_the_half_size_version_still_loads(calibration: Calibration) -> None:
    data = calibration.grid.to_json()
    half = calibration.grid.templates[:, ::2, ::2].copy()
    masks = calibration.grid.template_masks[:, ::2, ::2].copy()
    data.pop("template_scale")
    data.pop("bare_mode")
    data["template_shape"] = list(half.shape)
    data["templates"] = base64.b64encode(half.tobytes()).decode("ascii")
    data["template_masks"] = base64.b64encode(masks.tobytes()).decode("ascii")
    old = grid.GridLook.from_json(data)
    assert old.templates.shape[1:] == (half.shape[1] * 2, half.shape[2] * 2)
    assert old.bare_mode == "table"


def test_cells_matched_together_score_as_cells_matched_alone(style: Style,
                                                             calibration: Calibration) -> None:
    rng = np.random.default_rng(44)
    image = render_grid(style, random_grid(rng, cards=14), rng)
    corners, white = grid.find_area(image)
    look = calibration.grid
    raw, _, _, _ = reader._warp(image, corners, look.inset, white)
    w, h = geometry._cell_size()
    m = grid.table_margin()
    g = cv2.cvtColor(raw[m - grid.MARGIN:m + 5 * h + grid.MARGIN,
                         m - grid.MARGIN:m + 5 * w + grid.MARGIN], cv2.COLOR_BGR2GRAY)
    windows = [geometry._window(g, r, c) for r in range(5) for c in range(5)]
    together = grid.match_windows(look, windows)
    for i in (0, 7, 12, 24):
        assert np.allclose(together[i], grid.match_values(look, windows[i]), atol=1e-4)


def test_colour_confirms_only_values_told_apart_by_colour() -> None:
    look = grid.GridLook()
    reds = np.array([[60, 60, 200]] * 6, np.float32)
    look.value_colours = colours._colour_key(reds)
    look.value_spread = np.full(6, 3.0, np.float32)
    # every value printed on the same card colour: colour says nothing
    assert grid.colour_confirms(look, np.array([60, 60, 200], np.float32)) is None
    coded = np.array([[60, 60, 200], [60, 160, 60], [200, 110, 40], [30, 190, 230],
                      [160, 60, 160], [40, 110, 200]], np.float32)
    look.value_colours = colours._colour_key(coded)
    assert grid.colour_confirms(look, np.array([62, 158, 61], np.float32)) == 1
    # a hand over the card is no value's colour
    assert grid.colour_confirms(look, np.array([130, 160, 215], np.float32)) is None


def test_stretched_windows_keep_each_cell_centred() -> None:
    w, h = geometry._cell_size()
    g = np.full((5 * h + 2 * grid.MARGIN, 5 * w + 2 * grid.MARGIN), 200, np.uint8)
    for r in range(5):
        for c in range(5):
            cx, cy = grid.MARGIN + c * w + w // 2, grid.MARGIN + r * h + h // 2
            g[cy - 3:cy + 3, cx - 3:cx + 3] = 0  # a dot in each cell's middle
    plain = grid.scaled_windows(g, 1.0)
    assert all(np.array_equal(a, geometry._window(g, i // 5, i % 5)) for i, a in enumerate(plain))
    for scale in (0.9, 1.1):
        for win in grid.scaled_windows(g, scale):
            assert win.shape == plain[0].shape
            ys, xs = np.nonzero(win < 100)
            # the dot stays in the middle of the window (within a pixel and a half)
            assert abs(xs.mean() - (win.shape[1] - 1) / 2) <= 1.5
            assert abs(ys.mean() - (win.shape[0] - 1) / 2) <= 1.5


def test_colours_confirmed_together_as_one_at_a_time() -> None:
    look = grid.GridLook()
    coded = np.array([[60, 60, 200], [60, 160, 60], [200, 110, 40], [30, 190, 230],
                      [160, 60, 160], [40, 110, 200]], np.float32)
    look.value_colours = colours._colour_key(coded)
    look.value_spread = np.full(6, 3.0, np.float32)
    cells = np.concatenate([coded + 2, [[130, 160, 215], [90, 110, 200]]]).astype(np.float32)
    together = grid.colours_confirm(look, cells)
    assert together == [grid.colour_confirms(look, c) for c in cells]
    assert together[:6] == [0, 1, 2, 3, 4, 5] and together[6] is None


def test_windows_halved_in_one_piece_as_one_at_a_time() -> None:
    rng = np.random.default_rng(3)
    windows = [rng.integers(0, 256, (76, 60), dtype=np.uint8) for _ in range(7)]
    together = geometry._halves(windows)
    assert together.dtype == np.float32
    assert np.array_equal(together, np.stack([geometry._half(w) for w in windows]))
