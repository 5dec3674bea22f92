"""Robot Master grid, speed round 2026-11-23: the cheaper ways of computing a reading give the
same numbers as the ways they replaced, bit for bit (every reading must stay what it was).

- :func:`correlation._placements` turns back only the rows of the placements kept, where
  ``np.fft.irfft2`` turned back every row of the transform and the rows were cut after;
- :meth:`correlation._Bank.correlate` multiplies a group of side-by-side patches as a slice, not a
  copy;
- :func:`grid.table_patches` transforms every patch's corners in one call, not one a patch.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import grid
from vision.grid import area as grid_area
from vision.grid import correlation, features, geometry, learning, reader, table
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid
from vision.thresholds import section


def _spectra(rng: np.random.Generator, lead: tuple[int, ...], shape: tuple[int, int]
             ) -> np.ndarray:
    """Spectra as correlate_all makes them: an image's transform times a template's."""
    a = np.fft.rfft2(rng.integers(0, 256, (*lead, *shape)).astype(np.float32) - 128)
    b = np.conj(np.fft.rfft2(rng.standard_normal((*lead, *shape)).astype(np.float32)))
    return np.asarray(a * b)


@pytest.mark.parametrize("shape, rows, cols", [
    ((40, 30), 16, 14),  # the grid's own: half-size windows (38 x 30), half-size prints (23 x 17)
    ((40, 30), 40, 30),  # every row kept
    ((24, 45), 1, 7),  # an odd row length (its inverse differs from an even one's)
    ((50, 36), 20, 36),
])
def test_placements_are_the_kept_rows_of_irfft2_bit_for_bit(
        shape: tuple[int, int], rows: int, cols: int) -> None:
    rng = np.random.default_rng(11400)
    for lead in ((3,), (2, 2, 5), (12, 7)):
        spectra = _spectra(rng, lead, shape)
        assert spectra.dtype == np.complex64
        plain = np.fft.irfft2(spectra, s=shape)[..., :rows, :cols]
        kept = correlation._placements(spectra, shape, rows, cols)
        assert kept.dtype == plain.dtype == np.float32
        assert kept.shape == plain.shape
        assert np.array_equal(kept, plain)


def _correlate_all_before(bank: correlation._Bank, images: np.ndarray, size: tuple[int, int]
                          ) -> np.ndarray:
    """:meth:`correlation._Bank.correlate_all` as it was before: every row turned back, then cut."""
    _, height, width = images.shape
    th, tw = size
    rows, cols = height - th + 1, width - tw + 1
    shape = (correlation._fft_size(height), correlation._fft_size(width))
    flat = np.zeros((len(bank.masks) + len(bank.weights), *shape), np.float32)
    flat[:, :th, :tw] = np.concatenate([bank.masks, bank.weights]).reshape(-1, th, tw)
    kernels = np.conj(np.fft.rfft2(flat))
    nm = len(bank.masks)
    f = np.asarray(images, np.float32)
    f = f - f.mean(axis=(1, 2), keepdims=True, dtype=np.float32)
    spectrum = np.fft.rfft2(np.stack([f, f * f]), s=shape)
    under = np.fft.irfft2(spectrum[:, None] * kernels[None, :nm, None],
                          s=shape)[..., :rows, :cols]
    counts = bank.counts[:, None, None, None]
    spread = np.sqrt(np.maximum(under[1] - under[0] * under[0] / counts, counts))
    products = np.fft.irfft2(spectrum[0][None] * kernels[nm:, None], s=shape)
    return np.asarray(np.divide(products[..., :rows, :cols], spread[bank.mask_of],
                                dtype=np.float32))


def _bank(rng: np.random.Generator, th: int, tw: int, n: int = 6) -> correlation._Bank:
    templates = rng.integers(0, 256, (n, th, tw)).astype(np.uint8)
    mask = np.where(rng.random((th, tw)) < 0.4, 255, 0).astype(np.uint8)
    masks = np.stack([mask if k % 2 == 0 else mask[::-1, ::-1] for k in range(n)])
    return correlation._Bank.of(templates, masks)


def test_correlation_at_every_placement_is_as_before_bit_for_bit() -> None:
    rng = np.random.default_rng(11401)
    for (height, width), (th, tw) in (((38, 30), (23, 17)), ((44, 36), (23, 17)),
                                      ((76, 60), (46, 34))):
        bank = _bank(rng, th, tw)
        images = rng.integers(0, 256, (9, height, width)).astype(np.float32)
        images[3] = 200  # flat: the spread is the floor
        images[4] = 240 + rng.random((height, width)).astype(np.float32) * 4  # pale paper
        corr, rows, cols = bank.correlate_all(images, (th, tw))
        before = _correlate_all_before(bank, images, (th, tw))
        assert corr.shape == before.shape == (len(bank.weights), 9, rows, cols)
        assert np.array_equal(corr, before)


def _correlate_before(bank: correlation._Bank, patches: np.ndarray, groups: np.ndarray,
                      patch_groups: np.ndarray) -> np.ndarray:
    """:meth:`correlation._Bank.correlate` with groups as it was before: each group's patches
    copied."""
    sums = bank.masks @ patches.T
    squares = bank.masks @ (patches * patches).T
    spread = np.sqrt(np.maximum(squares - sums * sums / bank.counts[:, None],
                                bank.counts[:, None]))
    out = np.full((len(bank.weights), len(patches)), -np.inf, np.float32)
    for g in np.unique(patch_groups):
        rows, cols = np.flatnonzero(groups == g), np.flatnonzero(patch_groups == g)
        out[np.ix_(rows, cols)] = (bank.weights[rows] @ patches[cols].T) \
            / spread[bank.mask_of[rows]][:, cols]
    return out


def test_grouped_correlation_is_as_before_bit_for_bit() -> None:
    rng = np.random.default_rng(11402)
    th, tw = 46, 34
    bank = _bank(rng, th, tw, n=12)
    groups = np.arange(12) // 3  # three templates a mean print, as the grid's banks have
    for patch_groups in (np.repeat([0, 1, 1, 3], 9),  # side by side, as match_windows gives
                         np.repeat([2], 1),  # one patch alone
                         rng.permutation(np.repeat([0, 1, 2, 3], 7))):  # scattered: copied
        patches = rng.integers(0, 256, (len(patch_groups), th * tw)).astype(np.float32)
        got = bank.correlate(patches, groups, patch_groups)
        assert np.array_equal(got, _correlate_before(bank, patches, groups, patch_groups))


def _mosaic_before(image: np.ndarray, corners: np.ndarray, big: np.ndarray,
                   place: np.ndarray | None) -> tuple[np.ndarray, int]:
    """The table patches' mosaic as :func:`grid.table_patches` laid it out before: each patch's
    corners transformed on their own, the patches off the picture left out."""
    w, h = geometry._cell_size()
    gap = float(section("grid")["table_gap"])
    m = grid.table_margin()
    ih, iw = image.shape[:2]
    H_inv = np.linalg.inv(grid_area._area_homography(corners, (0.0, 0.0), m, place))
    crops = []
    gx, gy = int((1 + gap) * w), int((1 + gap) * h)
    for k in range(5):
        for x, y in ((m + k * w, m - gy), (m + k * w, m + 5 * h + gy - h),
                     (m - gx, m + k * h), (m + 5 * w + gx - w, m + k * h)):
            quad = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
            src = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), H_inv).reshape(-1, 2)
            if (src < 0).any() or (src[:, 0] >= iw).any() or (src[:, 1] >= ih).any():
                continue
            crops.append(big[y:y + h, x:x + w])
    mosaic = np.zeros((5 * h + 8, 5 * w + 8, 3), np.uint8)
    for i, crop in enumerate(crops[:25]):
        r, c = divmod(i, 5)
        mosaic[4 + r * h:4 + (r + 1) * h, 4 + c * w:4 + (c + 1) * w] = crop
    return mosaic, len(crops)


def test_table_patches_are_the_same_patches_as_before(
        style: Style, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(11403)
    image = render_grid(style, random_grid(rng, cards=10), rng)
    corners, white = grid.find_area(image)
    seen: list[np.ndarray] = []
    real = grid.area_features

    def recording(area: np.ndarray, *args: object, **kwargs: object) -> np.ndarray:
        seen.append(area.copy())
        return real(area)

    monkeypatch.setattr(learning, "area_features", recording)
    monkeypatch.setattr(reader, "area_features", learning.area_features)
    monkeypatch.setattr(table, "area_features", learning.area_features)
    monkeypatch.setattr(features, "area_features", learning.area_features)
    # the area where it is, and pushed towards each side of the picture until some patches
    # fall off it
    ih, iw = image.shape[:2]
    counts = set()
    for shift in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
        moved = corners.copy()
        if shift != (0, 0):
            span = moved.max(axis=0) - moved.min(axis=0)
            edge = np.where(np.array(shift) < 0, -moved.min(axis=0),
                            np.array([iw, ih]) - moved.max(axis=0))
            moved = moved + np.array(shift) * (np.abs(edge) - 0.05 * span)
        moved = moved.astype(np.float32)
        big = grid.rectify(image, moved, (0.0, 0.0), margin=grid.table_margin(), white=white)
        seen.clear()
        grid.table_patches(image, moved, (0.0, 0.0), white, big)
        before, n = _mosaic_before(image, moved, big, None)
        assert len(seen) == 1
        assert np.array_equal(seen[0], before)
        counts.add(n)
    assert len(counts) > 1  # the shifts left different patches off the picture
