"""Robot Master grid: the cheaper ways of computing a reading give the same numbers as the plain
ways they replaced: bit for bit (the markers' white, the cells' gradient histograms), or within
float32 rounding (the templates' correlation at every placement, through Fourier transforms)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from vision import grid, markers
from vision.grid import correlation, geometry
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid

#: the conftest's reference orientation votes of a 5x5 cells' picture
Votes = Callable[[np.ndarray], np.ndarray]


def _cut(area: np.ndarray, margin: int = 4) -> np.ndarray:
    """The 5x5 cells' picture inside an area with ``margin`` pixels around it."""
    w, h = geometry._cell_size()
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
    w, h = geometry._cell_size()
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


def _direct_correlation(bank: correlation._Bank, images: np.ndarray, size: tuple[int, int]
                        ) -> np.ndarray:
    """The plain way, in float64: every placement cut out and multiplied with every template
    and mask."""
    n, height, width = images.shape
    th, tw = size
    rows, cols = height - th + 1, width - tw + 1
    patches = sliding_window_view(images.astype(np.float64), (th, tw), axis=(1, 2))
    patches = patches.reshape(n * rows * cols, th * tw)
    masks, counts = bank.masks.astype(np.float64), bank.counts.astype(np.float64)
    sums, squares = patches @ masks.T, (patches * patches) @ masks.T
    spread = np.sqrt(np.maximum(squares - sums * sums / counts, counts))
    corr = (patches @ bank.weights.astype(np.float64).T) / spread[:, bank.mask_of]
    return np.ascontiguousarray(corr.T).reshape(len(bank.weights), n, rows, cols)


def test_correlation_through_fourier_transforms_is_the_plain_correlation() -> None:
    rng = np.random.default_rng(73)
    n, height, width, th, tw = 7, 38, 30, 23, 17
    templates = rng.integers(0, 256, (4, th, tw)).astype(np.uint8)
    # two masks, neither a box: where the values differ, upright and turned
    mask = np.where(rng.random((th, tw)) < 0.4, 255, 0).astype(np.uint8)
    masks = np.stack([mask, mask, mask[::-1, ::-1], mask[::-1, ::-1]])
    bank = correlation._Bank.of(templates, masks)
    assert len(bank.masks) == 2
    images = rng.integers(0, 256, (n, height, width)).astype(np.float32)
    # paper far from black with little on it (the sums are large, the spread small), and a
    # flat window (its spread is the floor)
    images[2] = 240 + rng.random((height, width)).astype(np.float32) * 4
    images[3] = 200
    corr, rows, cols = bank.correlate_all(images, (th, tw))
    assert (rows, cols) == (height - th + 1, width - tw + 1)
    assert corr.dtype == np.float32
    error = np.abs(corr - _direct_correlation(bank, images, (th, tw))).max(axis=(0, 2, 3))
    ordinary = [0, 1, 4, 5, 6]
    assert error[ordinary].max() < 1e-6
    # (one matchTemplate a template, the way before, was 1.7e-3 off on the pale paper)
    assert error[[2, 3]].max() < 1e-4
    # each image's placements are its own: the same image in another stack scores the same
    alone, _, _ = bank.correlate_all(images[4:5], (th, tw))
    assert np.abs(alone[:, 0] - corr[:, 4]).max() < 1e-6


def test_transform_sizes_have_only_small_prime_factors() -> None:
    assert [correlation._fft_size(k) for k in (1, 7, 19, 30, 38, 97)] == [1, 8, 20, 30, 40, 100]
