"""Colour models: which configured colour a white-balanced pixel shows, or none.

A model holds, per colour name, a mean and a covariance learnt from the user's own components
(see :mod:`vision.calibration`); before calibration it is built from the display colours of the
configuration, with a wide spread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.thresholds import section


def hex_to_bgr01(text: str) -> np.ndarray:
    text = text.lstrip("#")
    r, g, b = (int(text[i:i + 2], 16) / 255.0 for i in (0, 2, 4))
    return np.array([b, g, r], np.float32)


def features(x: np.ndarray) -> np.ndarray:
    """White-balanced BGR -> chromaticity (b, g shares) and a down-weighted brightness.

    A shadow or a dimmer lamp scales all three channels alike: the shares stay, so the colour of
    a lane or part in half shadow is the same colour.
    """
    x = np.maximum(np.asarray(x, np.float32), 0.0)
    total = x.sum(axis=-1, keepdims=True) + 0.05
    weight = float(section("colour")["brightness_weight"])
    return np.concatenate([x[..., :2] / total, weight * total / 3.0], axis=-1)


@dataclass
class ColourModel:
    names: list[str]
    means: np.ndarray  # (k, 3) BGR in white-balanced units
    covs: np.ndarray  # (k, 3, 3)

    def __post_init__(self) -> None:
        self._inv = np.linalg.inv(self.covs).astype(np.float32)

    @classmethod
    def default(cls, names: list[str], display: dict[str, str]) -> ColourModel:
        sigma = float(section("colour")["default_sigma"]) / 3.0
        means = features(np.stack([hex_to_bgr01(display[n]) for n in names]))
        covs = np.stack([np.eye(3, dtype=np.float32) * sigma**2 for _ in names])
        return cls(list(names), means, covs)

    @classmethod
    def fit(cls, samples: dict[str, np.ndarray], fallback: ColourModel) -> ColourModel:
        """Learn each colour that has samples; keep the fallback's guess for the others."""
        floor = (float(section("colour")["min_sigma"]) / 3.0) ** 2
        means = fallback.means.copy()
        covs = fallback.covs.copy()
        for i, name in enumerate(fallback.names):
            raw = samples.get(name)
            if raw is None or len(raw) < 20:
                continue
            pts = features(raw)
            # keep the bulk of the samples: paper, seams and shadows at the edges are not the colour
            med = np.median(pts, axis=0)
            mad = np.median(np.abs(pts - med), axis=0) * 1.4826 + 1e-3
            pts = pts[(np.abs(pts - med) < 3.0 * mad).all(axis=1)]
            if len(pts) < 20:
                continue
            means[i] = pts.mean(axis=0)
            covs[i] = np.cov(pts.T) + np.eye(3) * floor
        return cls(list(fallback.names), means, covs)

    def d2(self, x: np.ndarray) -> np.ndarray:
        """Squared Mahalanobis distance of each pixel (n, 3) to each colour: (n, k)."""
        diff = features(x)[:, None, :] - self.means[None, :, :]
        return np.asarray(np.einsum("nki,kij,nkj->nk", diff, self._inv, diff))

    def classify(self, x: np.ndarray) -> np.ndarray:
        """Index of each pixel's colour, or -1 when it is none of them."""
        if len(x) == 0:
            return np.zeros(0, np.int64)
        d = self.d2(x)
        best = d.argmin(axis=1)
        reject = float(section("colour")["reject_d2"])
        best[d[np.arange(len(x)), best] > reject] = -1
        return np.asarray(best)

    def vote(self, x: np.ndarray) -> tuple[int, float, float]:
        """(winning colour index or -1, its share of all pixels, the runner-up's share)."""
        if len(x) == 0:
            return -1, 0.0, 0.0
        cls_ = self.classify(x)
        counts = np.bincount(cls_[cls_ >= 0], minlength=len(self.names)).astype(np.float64)
        order = np.argsort(counts)[::-1]
        total = float(len(x))
        return int(order[0]), counts[order[0]] / total, counts[order[1]] / total

    def to_json(self) -> dict[str, Any]:
        return {"names": self.names, "means": self.means.round(5).tolist(),
                "covs": self.covs.round(7).tolist()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ColourModel:
        return cls(list(data["names"]), np.array(data["means"], np.float32),
                   np.array(data["covs"], np.float32))
