"""Colour models: which configured colour a white-balanced pixel shows, or none.

A model holds, per colour name, a mean and a covariance learnt from the user's own components
(see :mod:`vision.calibration`); before calibration it is built from the display colours of the
configuration, with a wide spread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.blas import one_blas_thread
from vision.thresholds import section

# readings must not depend on how many BLAS threads numpy happened to start with (tiles and
# order cards read through this module)
one_blas_thread()


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


#: chi-squared (3 degrees of freedom): its median, and the share kept of a normal bulk
_CHI2_3_MEDIAN = 2.366


def bulk(pts: np.ndarray) -> np.ndarray:
    """The samples (n, 3) of a colour's own bulk, without the paper, seams and shadows mixed in.

    A ring around a pale yellow tile shows a quarter of the tile's paper or the board's cream
    margin: a median and spread over all of it (what was done before) spans both, and the
    learnt yellow then claims the paper. The bulk is found as a minimum covariance determinant
    fit would (the ``colour.bulk_share`` of the samples nearest their own mean and spread, a few
    times over), then every sample within ``colour.bulk_d2`` of it (spread rescaled so a normal
    bulk would keep its usual share) is kept.
    """
    cfg = section("colour")
    n = len(pts)
    h = max(int(float(cfg["bulk_share"]) * n), 4)
    if n < 8:
        return pts
    med = np.median(pts, axis=0)
    mad = np.median(np.abs(pts - med), axis=0) * 1.4826 + 1e-3
    sel = np.argsort((((pts - med) / mad) ** 2).sum(axis=1))[:h]
    d2 = np.zeros(n)
    for _ in range(10):
        mean = pts[sel].mean(axis=0)
        cov = np.cov(pts[sel].T) + np.eye(pts.shape[1]) * 1e-7
        diff = pts - mean
        d2 = np.einsum("ni,ij,nj->n", diff, np.linalg.inv(cov), diff)
        new = np.argsort(d2)[:h]
        if np.array_equal(np.sort(new), np.sort(sel)):
            break
        sel = new
    d2 = d2 * _CHI2_3_MEDIAN / max(float(np.median(d2)), 1e-9)
    return np.asarray(pts[d2 < float(cfg["bulk_d2"])])


def mahalanobis2(diff: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """``np.einsum("nki,kij,nkj->nk", diff, inv, diff)`` for ``diff`` (n, k, 3) and ``inv``
    (k, 3, 3), bit for bit, at a fraction of its cost: the same products,
    ``(diff_i * inv_ij) * diff_j``, added in the same order (i, then j) in the same precision;
    the three-operand einsum walks its sum one element at a time (a good part of every tiles and
    order card read). tests/vision/test_tiles_lane_speed.py holds the two equal."""
    dtype = np.result_type(diff, inv)
    cols = [np.ascontiguousarray(diff[:, :, i], dtype=dtype) for i in range(3)]  # (n, k) each
    inv = np.asarray(inv, dtype=dtype)
    acc = np.zeros(diff.shape[:2], dtype)
    for i in range(3):
        for j in range(3):
            acc += (cols[i] * inv[:, i, j]) * cols[j]
    return acc


#: the class of a pixel that shows what surrounds the colours (see :meth:`ColourModel.classify`)
BACKGROUND = -2


def _empty() -> np.ndarray:
    return np.zeros((0, 3), np.float32)


def _empty_covs() -> np.ndarray:
    return np.zeros((0, 3, 3), np.float32)


@dataclass
class ColourModel:
    """Per colour name a mean and covariance in :func:`features` terms.

    ``background_means``/``background_covs`` describe what surrounds the colours on the user's
    own components and is none of them (tile paper, board margin, card paper, print lines),
    learnt in calibration. A pixel more likely to be background than its nearest colour is no
    colour: a cream board margin is then not read as a pale yellow lane.
    """

    names: list[str]
    means: np.ndarray  # (k, 3) in feature units
    covs: np.ndarray  # (k, 3, 3)
    background_means: np.ndarray = field(default_factory=_empty)  # (b, 3)
    background_covs: np.ndarray = field(default_factory=_empty_covs)  # (b, 3, 3)

    def __post_init__(self) -> None:
        self._inv = np.linalg.inv(self.covs).astype(np.float32)
        self._logdet = np.linalg.slogdet(self.covs)[1].astype(np.float32)
        self._bg_inv = (np.linalg.inv(self.background_covs).astype(np.float32)
                        if len(self.background_means) else _empty_covs())
        self._bg_logdet = (np.linalg.slogdet(self.background_covs)[1].astype(np.float32)
                           if len(self.background_means) else np.zeros(0, np.float32))

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
            pts = bulk(features(raw))
            if len(pts) < 20:
                continue
            means[i] = pts.mean(axis=0)
            covs[i] = np.cov(pts.T) + np.eye(3) * floor
        return cls(list(fallback.names), means, covs)

    def d2(self, x: np.ndarray) -> np.ndarray:
        """Squared Mahalanobis distance of each pixel (n, 3) to each colour: (n, k)."""
        return self.d2_features(features(x))

    def d2_features(self, f: np.ndarray) -> np.ndarray:
        diff = f[:, None, :] - self.means[None, :, :]
        return mahalanobis2(diff, self._inv)

    def background_d2(self, f: np.ndarray) -> np.ndarray:
        """Squared Mahalanobis distance of features (n, 3) to each background cluster: (n, b)."""
        diff = f[:, None, :] - self.background_means[None, :, :]
        return mahalanobis2(diff, self._bg_inv)

    def background_lead(self, x: np.ndarray, colour: int) -> np.ndarray:
        """How much likelier each pixel (n, 3) is ``colour`` than the likeliest background
        cluster: the difference of their -2 log-likelihoods, as :meth:`classify` weighs them
        (positive: the colour is likelier). Infinite where no background was learnt."""
        f = features(x)
        if not len(self.background_means):
            return np.full(len(x), np.inf, np.float32)
        own = self.d2_features(f)[:, colour] + self._logdet[colour]
        other = (self.background_d2(f) + self._bg_logdet[None, :]).min(axis=1)
        return np.asarray(other - own)

    def classify(self, x: np.ndarray) -> np.ndarray:
        """Index of each pixel's colour; :data:`BACKGROUND` when it shows what surrounds the
        colours (tile paper, board margin), -1 when it is none of them (a hand, a shadow)."""
        if len(x) == 0:
            return np.zeros(0, np.int64)
        f = features(x)
        d = self.d2_features(f)
        rows = np.arange(len(x))
        best = d.argmin(axis=1)
        nearest = d[rows, best]
        reject_d2 = float(section("colour")["reject_d2"])
        reject = nearest > reject_d2
        background = np.zeros(len(x), bool)
        if len(self.background_means):
            # -2 log-likelihoods (up to a shared constant): a broad background cluster must not
            # win over a tight colour just by being broad, nor the other way round
            own = nearest + self._logdet[best]
            bg = self.background_d2(f)
            other = (bg + self._bg_logdet[None, :]).min(axis=1)
            background = (other + float(section("colour")["background_margin"]) < own) & \
                (bg.min(axis=1) <= reject_d2)
            reject |= other + float(section("colour")["background_margin"]) < own
        best[reject] = -1
        best[background] = BACKGROUND
        return np.asarray(best)

    def vote(self, x: np.ndarray) -> tuple[int, float, float, float]:
        """(winning colour index or -1, its share, the runner-up's share, the winner's share of
        all pixels).

        Shares are of the pixels that are not background: the tile's own paper showing in a
        ring is no evidence against the lane, while a hand or a shadow over it is."""
        if len(x) == 0:
            return -1, 0.0, 0.0, 0.0
        cls_ = self.classify(x)
        counts = np.bincount(cls_[cls_ >= 0], minlength=len(self.names)).astype(np.float64)
        order = np.argsort(counts)[::-1]
        total = float(max(int((cls_ != BACKGROUND).sum()), 1))
        return (int(order[0]), counts[order[0]] / total, counts[order[1]] / total,
                counts[order[0]] / len(x))

    def with_background(self, pixels: np.ndarray) -> ColourModel:
        """This model plus background clusters learnt from ``pixels`` (white-balanced BGR, n x 3)
        that show what lies around the colours on the user's components.

        Pixels near a colour (``colour.background_core_d2``) are left out, and so is any cluster
        whose centre is that near a colour: the background must never take a colour's own bulk.
        """
        cfg = section("colour")
        core = float(cfg["background_core_d2"])
        f = features(pixels.reshape(-1, 3)).astype(np.float32)
        if len(f) == 0:
            return self
        f = f[self.d2_features(f).min(axis=1) > core]
        k = int(cfg["background_clusters"])
        if len(f) < 20 * k:
            return ColourModel(self.names, self.means, self.covs)
        # a fixed subsample and seed keep calibration repeatable and quick
        rng = np.random.default_rng(0)
        if len(f) > 20000:
            f = f[rng.choice(len(f), 20000, replace=False)]
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 1e-4)
        cv2.setRNGSeed(0)
        _, labels, _ = cv2.kmeans(f, k, np.empty(0), criteria, 3, cv2.KMEANS_PP_CENTERS)
        labels = labels.ravel()
        floor = (float(cfg["min_sigma"]) / 3.0) ** 2
        means: list[np.ndarray] = []
        covs: list[np.ndarray] = []
        for c in range(k):
            pts = f[labels == c]
            if len(pts) < max(20, 0.01 * len(f)):
                continue
            mean = pts.mean(axis=0)
            if self.d2_features(mean[None]).min() <= core:
                continue
            means.append(mean)
            covs.append(np.cov(pts.T) + np.eye(3) * floor)
        if not means:
            return ColourModel(self.names, self.means, self.covs)
        return ColourModel(self.names, self.means, self.covs,
                           np.stack(means).astype(np.float32), np.stack(covs).astype(np.float32))

    def to_json(self) -> dict[str, Any]:
        return {"names": self.names, "means": self.means.round(5).tolist(),
                "covs": self.covs.round(7).tolist(),
                "background_means": self.background_means.round(5).tolist(),
                "background_covs": self.background_covs.round(7).tolist()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ColourModel:
        bg = data.get("background_means") or []
        return cls(list(data["names"]), np.array(data["means"], np.float32),
                   np.array(data["covs"], np.float32),
                   np.array(bg, np.float32).reshape(-1, 3),
                   np.array(data.get("background_covs") or [], np.float32).reshape(-1, 3, 3))
