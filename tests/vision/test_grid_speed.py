"""Robot Master grid: the cheaper ways of computing a reading give the same numbers, bit for bit,
as the plain ways they replaced (the markers' white, the cells' gradient histograms, the
placements of a stacked template match)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided

from vision import grid, markers
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid

#: the conftest's reference orientation votes of a 5x5 cells' picture
Votes = Callable[[np.ndarray], np.ndarray]


def _cut(area: np.ndarray, margin: int = 4) -> np.ndarray:
    """The 5x5 cells' picture inside an area with ``margin`` pixels around it."""
    w, h = grid._cell_size()
    return area[margin:margin + 5 * h, margin:margin + 5 * w]


def _histograms(area: np.ndarray, monkeypatch: pytest.MonkeyPatch) -> np.ndarray:
    """The votes :func:`grid.area_features` counts now (its two bincounts, recorded)."""
    seen: list[np.ndarray] = []
    real = np.bincount

    def recording(x: np.ndarray, weights: np.ndarray, minlength: int) -> np.ndarray:
        out = real(x, weights, minlength)
        seen.append(out)
        return out

    with monkeypatch.context() as patch:
        patch.setattr(np, "bincount", recording)
        grid.area_features(area)
    assert len(seen) == 2
    return seen[0] + seen[1]


def test_gradient_histograms_count_as_before_on_steps_at_every_angle(
        monkeypatch: pytest.MonkeyPatch, plain_votes: Votes) -> None:
    w, h = grid._cell_size()
    rng = np.random.default_rng(5)
    noise = rng.integers(0, 256, (5 * h + 8, 5 * w + 8, 3), dtype=np.uint8)
    # hard black and white steps give angles of exactly 0, 45, 90, 180, 270 ... degrees, where
    # the bins wrap around
    steps = np.where(rng.random((5 * h + 8, 5 * w + 8, 1)) < 0.5, 0, 255).astype(np.uint8)
    steps = np.repeat(steps, 3, axis=2)
    flat = np.full_like(noise, 128)
    for area in (noise, steps, flat):
        assert np.array_equal(_histograms(area, monkeypatch), plain_votes(_cut(area)))


def test_gradient_histograms_count_as_before_on_a_rendered_grid(
        style: Style, monkeypatch: pytest.MonkeyPatch, plain_votes: Votes) -> None:
    rng = np.random.default_rng(71)
    image = render_grid(style, random_grid(rng, cards=12), rng)
    corners, white = grid.find_area(image)
    area = grid.rectify(image, corners, (0.0, 0.0), white=white)
    assert np.array_equal(_histograms(area, monkeypatch), plain_votes(_cut(area)))


def test_the_markers_whites_at_once_are_each_markers_white(style: Style) -> None:
    rng = np.random.default_rng(72)
    image = render_grid(style, random_grid(rng, cards=10), rng)
    found = markers.detect(image, markers.PLAY_AREA_IDS)
    quads = list(found.values())
    assert len(quads) == 4
    at_once = markers.whites(image, quads)
    for quad, white in zip(quads, at_once, strict=True):
        alone = markers.white_black(image, quad)[0]
        assert alone.dtype == white.dtype
        assert np.array_equal(alone, white)
    assert markers.whites(image, []).shape == (0, 3)


def test_stacked_placements_are_the_strided_view_they_replaced() -> None:
    rng = np.random.default_rng(73)
    n, height, width, th, tw = 5, 38, 30, 23, 17
    images = rng.random((n, height, width)).astype(np.float32)
    tall = images.reshape(n * height, width)
    kernel = rng.random((th, tw)).astype(np.float32)
    bank = grid._Bank(kernel.reshape(1, -1), np.ones((1, th * tw), np.float32),
                      np.zeros(1, np.int64), np.array([th * tw], np.float32))
    corr, rows, cols = bank.correlate_all(images, (th, tw))
    out = cv2.matchTemplate(tall, kernel, cv2.TM_CCORR)
    sums = cv2.matchTemplate(tall, np.ones((th, tw), np.float32), cv2.TM_CCORR)
    squares = cv2.matchTemplate(tall * tall, np.ones((th, tw), np.float32), cv2.TM_CCORR)

    def view(a: np.ndarray) -> np.ndarray:
        step = a.strides[0]
        return np.asarray(as_strided(a, (n, rows, cols), (height * step, step, a.strides[1])))

    spread = np.sqrt(np.maximum(view(squares) - view(sums) * view(sums) / (th * tw), th * tw))
    assert np.array_equal(corr[0], view(out) / spread)
