"""Correlating templates with windows at every placement at once through the Fourier transform
(:class:`_Bank`): the arithmetic of the template matching, kept apart from which templates are
matched where.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def _fft_size(n: int) -> int:
    """The smallest length from ``n`` up whose only prime factors are 2, 3 and 5 (a Fourier
    transform of such a length is quick; 38, twice 19, takes twice as long as 40)."""
    m = n
    while True:
        rest = m
        for p in (2, 3, 5):
            while rest % p == 0:
                rest //= p
        if rest == 1:
            return m
        m += 1


def _normalised(rows: np.ndarray) -> np.ndarray:
    rows = rows - rows.mean(axis=1, keepdims=True)
    return np.asarray(rows / (np.linalg.norm(rows, axis=1, keepdims=True) + 1e-6))


def _placements(spectra: np.ndarray, shape: tuple[int, int], rows: int, cols: int
                ) -> np.ndarray:
    """``np.fft.irfft2(spectra, s=shape)[..., :rows, :cols]``, the same numbers bit for bit,
    for about half the work: irfft2 is a complex inverse down the columns and then a real
    inverse along each row, each row on its own, so only the ``rows`` rows kept are turned
    back (of ``shape[0]``: 16 of 40 for the half-size windows)."""
    down = np.fft.ifft(spectra, shape[0], axis=-2)[..., :rows, :]
    return np.asarray(np.fft.irfft(down, shape[1], axis=-1)[..., :cols])


@dataclass
class _Bank:
    """Templates ready for correlation at one size: each zero-mean and of unit length over its
    mask and zero outside it (so a patch times it is the correlation's numerator), the masks
    (0/1), which mask each template has, and each mask's pixel count."""

    weights: np.ndarray  # (templates, pixels)
    masks: np.ndarray  # (masks, pixels)
    mask_of: np.ndarray  # (templates,)
    counts: np.ndarray  # (masks,)
    #: the masks' and templates' Fourier transforms (conjugated), by transform size
    spectra: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)

    @staticmethod
    def of(templates: np.ndarray, masks: np.ndarray) -> _Bank:
        n = len(templates)
        flat_t = templates.reshape(n, -1).astype(np.float32)
        flat_m = masks.reshape(n, -1) > 127
        unique, mask_of = np.unique(flat_m, axis=0, return_inverse=True)
        weights = np.zeros_like(flat_t)
        for i in range(n):
            on = flat_m[i]
            weights[i, on] = _normalised(flat_t[i:i + 1, on])[0]
        return _Bank(weights, unique.astype(np.float32), mask_of.ravel(),
                     unique.sum(axis=1).astype(np.float32))

    def correlate_all(self, images: np.ndarray, size: tuple[int, int]
                      ) -> tuple[np.ndarray, int, int]:
        """Normalised correlation at every placement in each of several images of one size
        (n, H, W): (templates, n, rows, cols), rows and cols. Correlated through Fourier
        transforms: each image (and its square) is transformed once and multiplied with every
        template's and mask's transform, all images and templates in one batch (one
        ``matchTemplate`` call a template transformed the whole stack again each time). A
        placement never reaches past its image's edge, so the transforms' wrap-around never
        touches a placement's sum. Each image's own mean is taken away first: neither a
        template (zero-mean) nor a patch's spread sees it, and the sums stay small, so their
        rounding does too. A patch flatter than one grey level counts as that flat (no
        division by nothing)."""
        _, height, width = images.shape
        th, tw = size
        rows, cols = height - th + 1, width - tw + 1
        shape = (_fft_size(height), _fft_size(width))
        kernels = self.spectra.get(shape)
        if kernels is None:
            flat = np.zeros((len(self.masks) + len(self.weights), *shape), np.float32)
            flat[:, :th, :tw] = np.concatenate([self.masks, self.weights]).reshape(-1, th, tw)
            kernels = np.conj(np.fft.rfft2(flat))
            self.spectra[shape] = kernels
        nm = len(self.masks)
        f = np.asarray(images, np.float32)
        f = f - f.mean(axis=(1, 2), keepdims=True, dtype=np.float32)
        spectrum = np.fft.rfft2(np.stack([f, f * f]), s=shape)  # (2, n, ...)
        # per mask, the sums and the sums of squares under it at every placement
        under = _placements(spectrum[:, None] * kernels[None, :nm, None], shape, rows, cols)
        counts = self.counts[:, None, None, None]
        spread = np.sqrt(np.maximum(under[1] - under[0] * under[0] / counts, counts))
        products = _placements(spectrum[0][None] * kernels[nm:, None], shape, rows, cols)
        corr = np.divide(products, spread[self.mask_of], dtype=np.float32)
        return corr, rows, cols

    def correlate(self, patches: np.ndarray, groups: np.ndarray | None = None,
                  patch_groups: np.ndarray | None = None) -> np.ndarray:
        """Normalised correlation over each template's mask: (templates, patches). With
        ``groups`` (per template) and ``patch_groups`` (per patch), only templates and patches
        of one group are correlated (the others are -inf)."""
        sums = self.masks @ patches.T
        squares = self.masks @ (patches * patches).T
        spread = np.sqrt(np.maximum(squares - sums * sums / self.counts[:, None],
                                    self.counts[:, None]))
        if groups is None or patch_groups is None:
            return np.asarray((self.weights @ patches.T) / spread[self.mask_of])
        out = np.full((len(self.weights), len(patches)), -np.inf, np.float32)
        for g in np.unique(patch_groups):
            rows, cols = np.flatnonzero(groups == g), np.flatnonzero(patch_groups == g)
            # a group's patches side by side (as match_windows gives them) are taken as a
            # slice, not copied: the same rows, so the same products
            at: slice | np.ndarray = slice(int(cols[0]), int(cols[-1]) + 1) \
                if int(cols[-1]) - int(cols[0]) + 1 == len(cols) else cols
            out[np.ix_(rows, cols)] = (self.weights[rows] @ patches[at].T) \
                / spread[self.mask_of[rows]][:, at]
        return out
