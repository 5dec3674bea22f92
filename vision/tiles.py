"""Reading part tiles: which seats have their three tiles on lanes, and each lane's colour.

Each tile carries marker ``3*seat + part``. The lane colour is read on rings around the marker,
measured in marker sides so the reading does not depend on distance; the rings that show the lane
(not the tile's own paper or the next lane) are learnt from the user's own boards during
calibration. Colours are white-balanced against the marker's own white and black print, which
cancels lamp colour, lighting gradients and shadows.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.ports import RobotReading, TilesObservation
from vision import markers
from vision.colour import BACKGROUND, ColourModel, features
from vision.errors import NoTilesFound
from vision.thresholds import section

Region = tuple[int, int, int, int]


@dataclass
class TilesLook:
    """What calibration learnt about the user's boards."""

    radii: list[float]
    model: ColourModel
    #: the largest lane a calibration tile lay on, as the area (square marker sides) of its
    #: colour's region around the tile (see :func:`lane_area`); None: not learnt
    lane_area: float | None = None

    @classmethod
    def default(cls, model: ColourModel) -> TilesLook:
        lo, hi = section("tiles")["default_ring"]
        return cls([float(r) for r in np.arange(lo, hi + 1e-6, 0.1)], model)

    def to_json(self) -> dict[str, Any]:
        return {"radii": [round(r, 3) for r in self.radii], "model": self.model.to_json(),
                "lane_area": None if self.lane_area is None else round(self.lane_area, 3)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TilesLook:
        area = data.get("lane_area")
        return cls([float(r) for r in data["radii"]], ColourModel.from_json(data["model"]),
                   None if area is None else float(area))


WhiteBlack = tuple[np.ndarray, np.ndarray]


def ring_samples(image: np.ndarray, quad: np.ndarray, radii: list[float] | np.ndarray,
                 angles: int, wb: WhiteBlack | None = None) -> np.ndarray:
    """White-balanced colours on rings around a marker: (len(radii), angles, 3). ``wb``: the
    marker's :func:`markers.white_black`, when the caller has it already (it is a good part of
    the cost, and the same for every look at one part)."""
    theta = np.linspace(0, 2 * math.pi, angles, endpoint=False)
    r = np.asarray(radii, np.float32)[:, None]
    local = np.stack([r * np.cos(theta), r * np.sin(theta)], axis=-1).astype(np.float32)
    pts = cv2.perspectiveTransform(local.reshape(-1, 1, 2), markers.local_to_image(quad))
    pts = pts.reshape(len(radii), angles, 2)
    values = cv2.remap(image, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    white, black = markers.white_black(image, quad) if wb is None else wb
    return markers.normalise(values, white, black)


def _passes(best: int, share: float, runner_up: float, coverage: float) -> bool:
    cfg = section("tiles")
    # the lane must also show on a good part of the ring itself: a tile off the boards, on a
    # table learnt as background, leaves only a few stray pixels to vote
    return (best >= 0 and share >= cfg["min_share"] and share - runner_up >= cfg["min_confidence"]
            and coverage >= cfg["min_coverage"])


def ray_vote(image: np.ndarray, quad: np.ndarray, look: TilesLook,
             wb: WhiteBlack | None = None) -> tuple[int, float, float, float]:
    """The colour just beyond the tile's edge, all round: along each ray from the marker outwards
    (from ``tiles.search_from`` to the learnt rings' outer radius) the first pixel that is not
    background (the tile's paper, its label, the board's margin) and holds for two steps votes,
    with its colour or as none. Same tuple as :meth:`ColourModel.vote`, shares of the rays.

    A tile larger than the learnt rings allow for, or lying close to its lane's edge, shows its
    lane only as a strip along its own edge: the rings then cross the next lane too.
    """
    cfg = section("tiles")
    step = float(cfg["ray_step"])
    radii = np.arange(float(cfg["search_from"]), max(look.radii) + 1e-6, step)
    angles = int(cfg["angles"])
    if len(radii) < 2:
        return -1, 0.0, 0.0, 0.0
    samples = ring_samples(image, quad, radii, angles, wb)  # (R, A, 3)
    cls_ = look.model.classify(samples.reshape(-1, 3)).reshape(len(radii), angles)
    # a class counts where it holds for two steps: a pixel blending the tile's paper into the
    # lane is neither, and may look like a third colour (paper and red make a pale orange)
    held = (cls_[:-1] == cls_[1:]) & (cls_[:-1] != BACKGROUND)
    first = held.argmax(axis=0)
    votes = cls_[first, np.arange(angles)][held.any(axis=0)]
    if len(votes) == 0:
        return -1, 0.0, 0.0, 0.0
    counts = np.bincount(votes[votes >= 0], minlength=len(look.model.names)).astype(np.float64)
    order = np.argsort(counts)[::-1]
    return (int(order[0]), counts[order[0]] / len(votes), counts[order[1]] / len(votes),
            counts[order[0]] / angles)


def read_part(image: np.ndarray, quad: np.ndarray, look: TilesLook,
              wb: WhiteBlack | None = None) -> tuple[str | None, float]:
    cfg = section("tiles")
    samples = ring_samples(image, quad, look.radii, int(cfg["angles"]), wb).reshape(-1, 3)
    best, share, runner_up, coverage = look.model.vote(samples)
    if _passes(best, share, runner_up, coverage):
        return look.model.names[best], max(0.0, share - runner_up)
    # the rings are unsure: the colour along the tile's own edge decides, when it clearly says
    # the colour the rings lean to (two looks agreeing, so a hand or a shadow cannot tip it).
    # The lane must show on the rings too and run along most of the tile's edge: a tile put
    # aside on a table leaves a few stray pixels a lane's colour, on the rings and on rays
    if wb is None:
        wb = markers.white_black(image, quad)
    # in the dark the noise, multiplied by the dim white, leaves specks of a lane's colour on
    # a table two steps long on nearly every ray: the rays are not asked
    if float(np.mean(wb[0])) < float(cfg["ray_min_white"]):
        return None, max(0.0, share - runner_up)
    ray_best, ray_share, ray_runner_up, ray_coverage = ray_vote(image, quad, look, wb)
    if (best >= 0 and share >= cfg["min_share"] and coverage >= cfg["ray_min_ring_coverage"]
            and ray_best == best and _passes(ray_best, ray_share, ray_runner_up, ray_coverage)
            and ray_coverage >= cfg["ray_min_coverage"]):
        return look.model.names[best], ray_share - ray_runner_up
    return None, max(0.0, share - runner_up)


def brighter(model: ColourModel, gain: float) -> ColourModel:
    """``model`` as its colours look lit ``gain`` times brighter than in calibration, beside a
    marker whose white print the camera clips: each colour's mean (turned back into the
    white-balanced BGR it stands for) scaled by ``gain`` and clipped at the print's white (1.0),
    the spreads and the background kept. A bright yellow lane's red clips first, its green
    catches up, and its chromaticity moves towards green: third art g2477 t015's lane at green
    share 0.48 against the learnt 0.40, classed as background, read at gains 1.25 and 1.5."""
    weight = float(section("colour")["brightness_weight"])
    f = model.means.astype(np.float64)
    total = 3.0 * f[:, 2] / weight  # the channels' sum plus the 0.05 features() adds
    b, g = f[:, 0] * total, f[:, 1] * total
    r = total - 0.05 - b - g
    lit = np.clip(gain * np.stack([b, g, r], axis=1), 0.0, 1.0)
    return ColourModel(model.names, features(lit).astype(model.means.dtype), model.covs,
                       model.background_means, model.background_covs)


def read_part_lit(image: np.ndarray, quad: np.ndarray, look: TilesLook,
                  wb: WhiteBlack | None = None) -> tuple[str | None, float, TilesLook]:
    """:func:`read_part`, and where it reads nothing, again as the lanes would look lit
    brighter than in calibration (:func:`brighter`, ``tiles.brighter_gains`` one after the
    other, each the whole :func:`read_part` with its rings' and rays' bars): read only when the
    gains that read a colour all read the same one, and the rings' pixels each counts as it lie
    nearest it among the calibration's own colours (``tiles.brighter_nearest`` of them). Also
    the look that read it (the lane checks then judge the lane in the same colours)."""
    colour, conf = read_part(image, quad, look, wb)
    if colour is not None:
        return colour, conf, look
    if wb is None:
        wb = markers.white_black(image, quad)
    cfg = section("tiles")
    reads: list[tuple[str, float, TilesLook]] = []
    samples: np.ndarray | None = None
    for gain in cfg["brighter_gains"]:
        lit = TilesLook(look.radii, brighter(look.model, float(gain)), look.lane_area)
        c, k = read_part(image, quad, lit, wb)
        if c is None:
            continue
        # a colour lit brighter may move towards another (a blue lane's blue clips and its
        # green share grows, towards a teal green lane's: own art hown20021 t045, a teal lane
        # read blue at gain 1.5): the ring's pixels the brighter look counts as the colour
        # must lie, among the calibration's own colours, nearest that one
        if samples is None:
            samples = ring_samples(image, quad, look.radii, int(cfg["angles"]), wb).reshape(-1, 3)
        index = look.model.names.index(c)
        counted = lit.model.classify(samples) == index
        nearest = look.model.d2(samples[counted]).argmin(axis=1) == index
        if not counted.any() or float(nearest.mean()) < float(cfg["brighter_nearest"]):
            return None, conf, look
        reads.append((c, k, lit))
    if reads and all(c == reads[0][0] for c, _, _ in reads):
        return reads[0]
    return None, conf, look


@functools.lru_cache(maxsize=4)
def _lane_grid(reach: float, step: float) -> tuple[np.ndarray, np.ndarray]:
    """The lane window's sample points (n*n, 1, 2, marker sides) and each one's distance from
    the marker's centre (n, n): the same for every part, so made once."""
    n = round(2 * reach / step) + 1
    axis = np.linspace(-reach, reach, n, dtype=np.float32)
    xx, yy = np.meshgrid(axis, axis)
    local = np.stack([xx, yy], axis=-1).reshape(-1, 1, 2)
    radius = np.hypot(xx, yy)
    # shared between calls: nothing may write to them
    local.flags.writeable = False
    radius.flags.writeable = False
    return local, radius


@functools.lru_cache(maxsize=16)
def _inverse(cov: bytes, dtype: str) -> np.ndarray:
    # the colour's inverse covariance, the same for every part (np.linalg.inv of the same
    # matrix is the same matrix, bit for bit)
    inv = np.linalg.inv(np.frombuffer(cov, dtype=dtype).reshape(3, 3))
    inv.flags.writeable = False
    return inv


def _mahalanobis2(diff: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """``np.einsum("ni,ij,nj->n", diff, inv, diff)``, bit for bit, at a sixth of its cost: the
    same products, ``(diff_i * inv_ij) * diff_j``, added in the same order (i, then j) in the
    same precision; the three-operand einsum walks its sum one element at a time.
    tests/vision/test_tiles_lane_speed.py holds the two equal."""
    dtype = np.result_type(diff, inv)
    cols = np.ascontiguousarray(diff.T, dtype=dtype)
    inv = inv.astype(dtype, copy=False)
    acc = np.zeros(diff.shape[0], dtype)
    for i in range(3):
        for j in range(3):
            acc += (cols[i] * inv[i, j]) * cols[j]
    return acc


def _ring_colour(pixels: np.ndarray, look: TilesLook, colour: int) -> np.ndarray | None:
    """The features' median (3,) of the ring samples ``pixels`` (m, 3, white-balanced) classed
    as ``colour``: the colour of the surface the tile lies on, in this picture; None when none
    is. Order-free: the same whichever way the samples are listed."""
    if len(pixels) == 0:
        return None
    own = look.model.classify(pixels) == colour
    if not own.any():
        return None
    return np.asarray(np.median(features(pixels[own]), axis=0))


def _same_surface(feats: np.ndarray, ring_colour: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """Which samples (their :func:`features`, (m, 3)) are of the colour the rings show in this
    picture: within ``tiles.lane_same_d2`` of it, in the colour's own spread (squared
    Mahalanobis)."""
    return _mahalanobis2(feats - ring_colour, inv) <= \
        float(section("tiles")["lane_same_d2"])


def _lane_window(image: np.ndarray, quad: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The lane window round a marker: its sample points in the image (n, n, 2), each point's
    distance from the marker's middle in marker sides, and which points lie in the picture
    (``tiles.lane_window`` marker sides of the marker, every ``tiles.lane_step``)."""
    cfg = section("tiles")
    local, radius = _lane_grid(float(cfg["lane_window"]), float(cfg["lane_step"]))
    n = radius.shape[0]
    pts = cv2.perspectiveTransform(local, markers.local_to_image(quad)).reshape(n, n, 2)
    h, w = image.shape[:2]
    inside = ((pts[..., 0] >= 0) & (pts[..., 0] <= w - 1) & (pts[..., 1] >= 0)
              & (pts[..., 1] <= h - 1))
    return pts, radius, inside


def lane_area(image: np.ndarray, quad: np.ndarray, look: TilesLook, colour: int,
              limit: float | None = None, wb: WhiteBlack | None = None) -> float:
    """The area, in square marker sides, of the region of ``colour`` around a tile: the pixels
    of that colour connected to the learnt rings, within ``tiles.lane_window`` marker sides of
    the marker (sampled every ``tiles.lane_step`` through the marker's own homography).

    A lane is a strip of the board, bounded by the next lanes and the board's margin, so its
    region is about the same size on every picture of the user's boards; a table of a lane's
    colour (green felt) runs on all round a tile put aside on it, past other tiles and up to
    the boards and the picture's edge.

    With ``limit``, when the pixels that may be of the colour cover no more than that, their
    area is returned (the region's cannot be larger): what :func:`_on_a_lane` needs, without
    classifying them. ``wb``: the marker's :func:`markers.white_black`, when the caller has it.
    """
    step = float(section("tiles")["lane_step"])
    pts, radius, inside = _lane_window(image, quad)
    n = radius.shape[0]
    values = cv2.remap(image, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    white, black = markers.white_black(image, quad) if wb is None else wb
    pixels = markers.normalise(values, white, black).reshape(-1, 3)
    # only a pixel within the reject distance of the colour can be classed as it: the others
    # are left out before the full classification (most of the window, around a lane)
    feats = features(pixels)
    diff = feats - look.model.means[colour]
    cov = np.ascontiguousarray(look.model.covs[colour])
    near = _mahalanobis2(diff, _inverse(cov.tobytes(), cov.dtype.str)) <= \
        1.01 * float(section("colour")["reject_d2"])
    near &= inside.ravel()
    # only the surface the rings show: a table of another colour classed as the lane's (a sage
    # or olive table taken for yellow) joins a lane through the board's thin margin
    band = ((radius >= min(look.radii) - step) & (radius <= max(look.radii) + step)).ravel()
    band &= inside.ravel()
    ring_colour = _ring_colour(pixels[band], look, colour)
    if ring_colour is None:
        return 0.0
    inv = _inverse(cov.tobytes(), cov.dtype.str)
    near[near] = _same_surface(feats[near], ring_colour, inv)
    if limit is not None and float(near.sum()) * step * step <= limit:
        return float(near.sum()) * step * step
    flat = np.zeros(n * n, np.uint8)
    flat[near] = look.model.classify(pixels[near]) == colour
    mask = flat.reshape(n, n)
    # 4-connected: specks of a table near a lane's colour touch diagonally, into a chain that
    # can join a lane at the board's edge through its thin margin
    _, labels = cv2.connectedComponents(mask, connectivity=4)
    # the learnt rings, widened by a step: one ring alone may fall between the samples
    ring = (radius >= min(look.radii) - step) & (radius <= max(look.radii) + step) & (mask > 0)
    ids = np.unique(labels[ring])
    ids = ids[ids > 0]
    return float(np.isin(labels, ids).sum()) * step * step


@functools.lru_cache(maxsize=16)
def _lane_core(reach: float, step: float, core: float, inner: float, outer: float
               ) -> tuple[slice, np.ndarray]:
    """The core of the lane window (the samples within ``core`` marker sides of the centre, and
    at least the learnt rings, widened by a step, with a sample to spare) and the rings' samples
    in it: the same for every part, so made once."""
    _, radius = _lane_grid(reach, step)
    n = radius.shape[0]
    c = n // 2
    band = (radius >= inner - step) & (radius <= outer + step)
    spread = int(np.abs(np.argwhere(band) - c).max()) + 1 if band.any() else 0
    k = min(max(round(core / step), spread), c)
    cut = slice(c - k, c + k + 1)
    ring = band[cut, cut].copy()
    ring.flags.writeable = False
    return cut, ring


def _near(image: np.ndarray, xs: np.ndarray, ys: np.ndarray, wb: WhiteBlack, mean: np.ndarray,
          inv: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The lane window's samples at (xs, ys) (any shape), white-balanced, (m, 3), their
    features (m, 3), and which of them lie within the colour's reject distance, (m,): as
    :func:`lane_area` takes and measures them, sample by sample."""
    values = cv2.remap(image, np.ascontiguousarray(xs), np.ascontiguousarray(ys),
                       cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    pixels = markers.normalise(values, wb[0], wb[1]).reshape(-1, 3)
    feats = features(pixels)
    near = _mahalanobis2(feats - mean, inv) <= 1.01 * float(section("colour")["reject_d2"])
    return pixels, feats, near


def _joined(mask: np.ndarray, ring: np.ndarray) -> np.ndarray:
    """The samples of ``mask`` (n, n) joined (4-connected) to those on ``ring``."""
    _, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=4)
    ids = np.unique(labels[ring & mask])
    return np.asarray(np.isin(labels, ids[ids > 0]))


def lane_within(image: np.ndarray, quad: np.ndarray, look: TilesLook, colour: int, bar: float,
                wb: WhiteBlack | None = None, out_of_view: float = 0.0) -> bool:
    """``lane_area(image, quad, look, colour, limit=bar, wb=wb) <= bar``: the same decision,
    mostly from the core of the window (``tiles.lane_core`` marker sides around the marker).

    With ``out_of_view``, the bar is first lowered by that much of the share of the window that
    lies out of the picture (0.25: a window half out of view asks for 0.875 of the bar). A table
    of the lane's colour fills the window all round, and what of it lies out of view is not
    measured; a lane is a strip, cut only where it runs out of view itself (see
    :func:`_on_a_lane`).

    The colour's region (the pixels classed as it, joined to the rings) lies within the region
    of the pixels *near* the colour (within its reject distance, as :func:`lane_area` picks
    them before classifying) joined to the rings. That region is found in the core first: when
    it ends inside the core (none of it on the core's edge) it is the whole window's, and when
    it is no larger than the bar, the colour's region is not either: yes, without classifying a
    pixel or sampling the rest. Otherwise the rest of the window is sampled, the near region
    found in the whole window (yes when it is within the bar), and only its pixels classified:
    the colour's region is then measured as :func:`lane_area` measures it. Every sample is
    taken, white-balanced and measured as there, bit for bit the same.
    """
    cfg = section("tiles")
    reach, step = float(cfg["lane_window"]), float(cfg["lane_step"])
    local, radius = _lane_grid(reach, step)
    n = radius.shape[0]
    cut, core_ring = _lane_core(reach, step, float(cfg["lane_core"]), min(look.radii),
                                max(look.radii))
    pts = cv2.perspectiveTransform(local, markers.local_to_image(quad)).reshape(n, n, 2)
    h, w = image.shape[:2]
    inside = ((pts[..., 0] >= 0) & (pts[..., 0] <= w - 1) & (pts[..., 1] >= 0)
              & (pts[..., 1] <= h - 1))
    if out_of_view > 0:
        bar *= 1.0 - out_of_view * (1.0 - float(inside.mean()))
    if wb is None:
        wb = markers.white_black(image, quad)
    mean = look.model.means[colour]
    cov = np.ascontiguousarray(look.model.covs[colour])
    inv = _inverse(cov.tobytes(), cov.dtype.str)
    core = pts[cut, cut]
    core_pixels, core_feats, core_near = _near(image, core[..., 0], core[..., 1], wb, mean, inv)
    # the surface the rings show (the core holds all the rings' samples), as lane_area finds it
    ring_colour = _ring_colour(core_pixels[(core_ring & inside[cut, cut]).ravel()], look, colour)
    if ring_colour is None:
        return bar >= 0.0
    core_near[core_near] = _same_surface(core_feats[core_near], ring_colour, inv)
    core_near = core_near.reshape(core.shape[:2]) & inside[cut, cut]
    region = _joined(core_near, core_ring)
    closed = not (region[0].any() or region[-1].any() or region[:, 0].any()
                  or region[:, -1].any())
    if closed and float(region.sum()) * step * step <= bar:
        return True
    # the rest of the window
    pixels = np.zeros((n, n, 3), core_pixels.dtype)
    near = np.zeros((n, n), bool)
    pixels[cut, cut] = core_pixels.reshape(*core.shape[:2], 3)
    near[cut, cut] = core_near
    rest = inside.copy()
    rest[cut, cut] = False
    if rest.any():
        xy = pts[rest]
        rest_pixels, rest_feats, rest_near = _near(image, xy[:, :1], xy[:, 1:], wb, mean, inv)
        rest_near[rest_near] = _same_surface(rest_feats[rest_near], ring_colour, inv)
        pixels[rest] = rest_pixels
        near[rest] = rest_near
    ring = (radius >= min(look.radii) - step) & (radius <= max(look.radii) + step)
    region = _joined(near, ring)
    if float(region.sum()) * step * step <= bar:
        return True
    # the colour's own region lies within the near one: only its pixels are classified
    mask = np.zeros((n, n), bool)
    mask[region] = look.model.classify(pixels[region]) == colour
    return float(_joined(mask, ring).sum()) * step * step <= bar


def _on_a_lane(image: np.ndarray, quad: np.ndarray, look: TilesLook, colour: str,
               wb: WhiteBlack | None = None) -> bool:
    """Whether the colour a part was read as is the size of a lane around the tile (see
    :func:`lane_area`), not a table of that colour: asked where no board shows its corner
    markers (nothing else says where the boards are).

    The bar is lowered where the window reaches out of the picture (``lane_out_of_view``, see
    :func:`lane_within`): a tile put aside on green felt at the picture's top edge, a board
    below it, showed 0.965 of the bar with 0.58 of its window in view, and its seat was read
    (blind other art 44016 t017). Over 23,692 parts read right on a lane with no corner markers
    in view (209 sets), the most of the lowered bar any showed was 0.935 (hard own art 40021
    t030: 0.86 of the bar, 0.68 in view)."""
    if look.lane_area is None:
        return True
    cfg = section("tiles")
    bar = float(cfg["lane_area_factor"]) * look.lane_area
    return lane_within(image, quad, look, look.model.names.index(colour), bar, wb,
                       float(cfg["lane_out_of_view"]))


def apart_from_table(image: np.ndarray, quad: np.ndarray, look: TilesLook, colour: str,
                     wb: WhiteBlack | None = None) -> float:
    """How much likelier the ring's pixels classed ``colour`` are that colour than the likeliest
    learnt background (:meth:`ColourModel.background_lead`, the median over them): large on a
    lane, whose colour the boards taught; small on a table near a lane's colour, whose specks
    are classed the colour or background by a hair. Infinite when no ring pixel is classed the
    colour or no background was learnt."""
    samples = ring_samples(image, quad, look.radii, int(section("tiles")["angles"]),
                           wb).reshape(-1, 3)
    index = look.model.names.index(colour)
    mine = look.model.classify(samples) == index
    if not mine.any():
        return math.inf
    return float(np.median(look.model.background_lead(samples[mine], index)))


def lane_solid(image: np.ndarray, quad: np.ndarray, look: TilesLook, colour: str,
               wb: WhiteBlack | None = None) -> float:
    """The share of the surface the rings show that the colour's region fills: the region of the
    pixels near ``colour`` (within its reject distance and of the rings' own colour, joined to
    the rings, as :func:`lane_area` picks them before classifying) against the colour's region
    within it (its pixels classed the colour, joined to the rings), both in the whole lane
    window. 1.0 when the rings show none of the colour.

    A lane is classed its colour solidly: its region fills its surface. A table near a lane's
    colour seen beside a dim marker is classed the colour and background by turns (the noise,
    multiplied by the dim white, tips each pixel one way or the other): its specks join only a
    little of the table to the rings, and :func:`lane_area` measures a region no larger than a
    lane."""
    step = float(section("tiles")["lane_step"])
    pts, radius, inside = _lane_window(image, quad)
    n = radius.shape[0]
    if wb is None:
        wb = markers.white_black(image, quad)
    index = look.model.names.index(colour)
    cov = np.ascontiguousarray(look.model.covs[index])
    inv = _inverse(cov.tobytes(), cov.dtype.str)
    pixels, feats, near = _near(image, pts[..., 0], pts[..., 1], wb, look.model.means[index], inv)
    ring = (radius >= min(look.radii) - step) & (radius <= max(look.radii) + step)
    ring_colour = _ring_colour(pixels[(ring & inside).ravel()], look, index)
    if ring_colour is None:
        return 1.0
    near[near] = _same_surface(feats[near], ring_colour, inv)
    region = _joined(near.reshape(n, n) & inside, ring)
    if not region.any():
        return 1.0
    mask = np.zeros((n, n), bool)
    mask[region] = look.model.classify(pixels[region.ravel()]) == index
    return float(_joined(mask, ring).sum()) / float(region.sum())


def between(image: np.ndarray, a: tuple[np.ndarray, WhiteBlack],
            b: tuple[np.ndarray, WhiteBlack], look: TilesLook, colour: int) -> float:
    """The longest stretch, in marker sides, of the straight line between two tiles (their
    markers' centres, each with its :func:`markers.white_black`) that shows one other lane's
    colour than ``colour`` without a break: sampled every ``tiles.between_step`` marker sides
    (the two markers' mean side), leaving out the samples within the learnt inner ring of either
    marker (the tiles themselves), each white-balanced on the nearer marker's print. 0.0 when
    no sample shows another lane's colour.

    A board has one lane of each colour, and a lane is a straight strip: two parts of one seat
    read as the same colour lie on one lane, and the line between them runs over it (a strip
    holds the line between any two of its points). A tile put aside beside the board, on a
    table of the lane's colour, is joined to the other by a line across the board's other
    lanes, each wider than a tile. Stray samples of another colour on a lane (print, noise) are
    a sample or two long.
    """
    (qa, wba), (qb, wbb) = a, b
    ca, cb = qa.mean(axis=0), qb.mean(axis=0)
    sa, sb = markers.side(qa), markers.side(qb)
    dist = float(np.linalg.norm(cb - ca))
    step = float(section("tiles")["between_step"])
    n = max(int(dist / (step * (sa + sb) / 2)), 1)
    t = np.arange(n + 1, dtype=np.float64) / n
    inner = min(look.radii)
    keep = (t * dist / sa >= inner) & ((1 - t) * dist / sb >= inner)
    if not keep.any():
        return 0.0
    t = t[keep]
    pts = (ca[None] + t[:, None] * (cb - ca)[None]).astype(np.float32)
    values = cv2.remap(image, np.ascontiguousarray(pts[:, :1]), np.ascontiguousarray(pts[:, 1:]),
                       cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    values = values.reshape(-1, 1, 3)
    near_a = t < 0.5
    pixels = np.concatenate([markers.normalise(values[near_a], *wba),
                             markers.normalise(values[~near_a], *wbb)]).reshape(-1, 3)
    return _longest_run(look.model.classify(pixels), colour) * step


def _longest_run(classes: np.ndarray, colour: int) -> int:
    """The most samples in a row (``classes``, one line's) of one lane colour other than
    ``colour`` (background and none break a run)."""
    other = (classes >= 0) & (classes != colour)
    if not other.any():
        return 0
    # a run starts at a sample of another colour whose predecessor is not the same other colour
    start = other.copy()
    start[1:] &= (classes[1:] != classes[:-1]) | ~other[:-1]
    ids = np.cumsum(start)
    return int(np.bincount(ids[other]).max())


def _off_its_lane(image: np.ndarray, looked: list[tuple[np.ndarray, WhiteBlack]],
                  colours: list[str | None], look: TilesLook) -> int | None:
    """The part of a seat that cannot lie on the lane another part of the same colour lies on
    (see :func:`between`: the line between them crosses at least ``tiles.between_run`` marker
    sides of another lane's colour), or None."""
    bar = float(section("tiles")["between_run"])
    for i in range(len(looked)):
        for j in range(i + 1, len(looked)):
            colour = colours[i]
            if colour is None or colour != colours[j]:
                continue
            if between(image, looked[i], looked[j], look,
                       look.model.names.index(colour)) >= bar:
                return j
    return None


def _closer_margin() -> float:
    """The share of each cell's side left out when the closer looks read a bit a second time
    (``tiles.closer_margin``): a lone black cell among white ones, blurred, is dark only in its
    middle."""
    return float(section("tiles")["closer_margin"])


def _closer(image: np.ndarray, box: tuple[int, int, int, int], wanted: list[int],
            side: float) -> dict[int, np.ndarray]:
    """:func:`markers.detect_closer` as before, then, for the ids it did not find, once more
    with each bit read from the middle of its cell only (:func:`_closer_margin`): third art
    g2501 t001's marker 12 reads only so, own art hown22021 t054's marker 12 only the first
    way. Where a seat's or a board's other markers say the missing ones must be; not for the
    seats none of whose tiles were read (every undecoded square of a tile's size is looked at
    there: on a checkered cloth, over a thousand)."""
    return markers.detect_closer(image, box, wanted, side, (None, _closer_margin()))


def _all_parts(found: dict[int, np.ndarray]) -> bool:
    seats = {m // 3 for m in found}
    return all(markers.tile_id(s, p) in found for s in seats for p in range(3))


def _tiles_complete(found: dict[int, np.ndarray]) -> bool:
    # board corners alone are no reason to stop looking for tiles
    tile_ids = {m: q for m, q in found.items() if m in markers.TILE_IDS}
    return bool(tile_ids) and _all_parts(tile_ids)


def find_tiles(image: np.ndarray) -> dict[int, np.ndarray]:
    """Tile marker id -> its corners: the whole picture first, then a closer look around each
    seat that shows some of its three tiles but not all.

    A seat's found tiles say where its missing ones must be (on the same board, within
    ``closer_pad`` marker sides), and that box is searched again enlarged (see
    :func:`markers.detect_closer`): small or blurred markers the whole picture missed; a tile
    found so widens the box for the seat's last one (one more look). A seat
    with no tile found is left alone (nothing says where to look), and so is an id seen twice in
    the picture (a second set or a false detection: guessing could read the wrong tile).
    """
    return find_markers(image)[0]


def find_markers(image: np.ndarray) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
    """(tile markers, board corner markers) as :func:`find_tiles`; both from one detection."""
    twice: set[int] = set()
    rejected: list[np.ndarray] = []
    everything = markers.detect(image, range(markers.BOARD_IDS.stop), _tiles_complete, twice,
                                rejected=rejected)
    found = {m: q for m, q in everything.items() if m in markers.TILE_IDS}
    corners = {m: q for m, q in everything.items() if m in markers.BOARD_IDS}
    cfg = section("tiles")
    pad = float(cfg["closer_pad"])
    found.update(_missed_seats(image, found, corners, rejected, twice))
    seats = {m // 3 for m in found}
    _complete_seats(image, found, twice, seats, pad)
    corners = _sized_like_tiles(corners, found)
    corners.update(_missed_corners(image, found, corners, twice))
    # then, for what those looks left (the tiles26 round), only ever after them: their boxes
    # stay as they were, and a marker they found stays found (detection in a box is not
    # monotone in the box: a larger one may miss a blurred marker a smaller one read)
    before = set(found)
    found.update(_missed_seats(image, found, corners, rejected, twice, paper=True))
    found.update(_boards_without_tiles(image, found, corners, twice))
    _complete_seats(image, found, twice, {m // 3 for m in found} - seats, pad)
    _complete_seats(image, found, twice, {m // 3 for m in found},
                    float(cfg["closer_pad_far"]))
    if not found:
        found.update(_no_tile_found(image, corners, rejected, twice))
        _complete_seats(image, found, twice, {m // 3 for m in found}, pad)
    if set(found) != before:
        # the boards of the seats found so (only boards showing too few corners are looked at)
        corners.update(_missed_corners(image, found, corners, twice))
    return found, corners


def _sized_like_tiles(corners: dict[int, np.ndarray], found: dict[int, np.ndarray]
                      ) -> dict[int, np.ndarray]:
    """The board corner markers whose side is within ``corner_side_most`` times the tile
    markers' median side (either way), where tiles were found; all of them where none were.

    Corner markers are printed at the tiles' size, and a false one is no use and does harm:
    one board corner decoded in a board's printed name (third art g2789 t002, 2.4 times the
    tiles' side, on boards that carry no corner markers) made the picture one whose boards
    have corners, none of them a board, and every seat's tiles lay on no board and were
    declined. Over 150 sets the true corners measured 0.69-1.31 of their picture's tiles."""
    most = float(section("tiles")["corner_side_most"])
    if not found or not corners or most <= 0:
        return corners
    side = float(np.median([markers.side(q) for q in found.values()]))
    return {m: q for m, q in corners.items() if 1 / most <= markers.side(q) / side <= most}


def _complete_seats(image: np.ndarray, found: dict[int, np.ndarray], twice: set[int],
                    seats: set[int], pad: float) -> None:
    """The closer look for each of ``seats`` that shows some of its tiles but not all, within
    ``pad`` marker sides of them (see :func:`find_tiles`); ``found`` gains what it finds."""
    for seat in sorted(seats):
        ids = [markers.tile_id(seat, part) for part in range(3)]
        # a tile found by the closer look says again where the last one must be (the box
        # around one tile may not reach the far end of the board)
        for _ in range(2):
            missing = [m for m in ids if m not in found and m not in twice]
            if not missing:
                break
            quads = [found[m] for m in ids if m in found]
            side = float(np.mean([markers.side(q) for q in quads]))
            pts = np.concatenate(quads)
            x0, y0 = pts.min(axis=0) - pad * side
            x1, y1 = pts.max(axis=0) + pad * side
            box = (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))
            more = _closer(image, box, missing, side)
            found.update(more)
            if not more:
                break


def _boards_without_tiles(image: np.ndarray, found: dict[int, np.ndarray],
                          corners: dict[int, np.ndarray], twice: set[int]
                          ) -> dict[int, np.ndarray]:
    """Tiles of seats none of whose tiles the picture read, on a board showing at least three
    of its corner markers (where the board lies is known): looked at closer
    (:func:`markers.detect_closer`) in the box around the board's corner markers, for that
    seat's ids only. Third art g2505 t014: seat 2's board showed its four corners and its three
    tiles, on a bright yellow lane, were read by none of the whole picture's passes (it stops
    once every seat it saw has its three tiles), all three in the board's box. Error correction
    stays off and an id seen twice in the picture is never taken, as for the other looks."""
    more: dict[int, np.ndarray] = {}
    seen = {m // 3 for m in found}
    sides = [markers.side(q) for q in found.values()]
    for seat in range(len(markers.TILE_IDS) // 3):
        if seat in seen:
            continue
        ids = [markers.board_corner_id(seat, c) for c in range(4)]
        have = [corners[m] for m in ids if m in corners]
        if len(have) < 3:
            continue
        wanted = [markers.tile_id(seat, p) for p in range(3)]
        wanted = [m for m in wanted if m not in twice]
        if not wanted:
            continue
        # the tiles' own size where some were found (corner markers may be printed smaller)
        side = float(np.median(sides or [markers.side(q) for q in have]))
        pts = np.concatenate(have)
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        box = (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))
        more.update(_closer(image, box, wanted, side))
    return more


def _missed_corners(image: np.ndarray, found: dict[int, np.ndarray],
                    corners: dict[int, np.ndarray], twice: set[int]) -> dict[int, np.ndarray]:
    """Board corner markers the whole picture missed, of boards that show some of their corners
    but too few to know where the board lies (fewer than three), or none while their seat's
    tiles are in view, in a picture where other boards show corners: looked at closer
    (:func:`markers.detect_closer`) in the box around the board's corners found and its seat's
    tiles, reaching ``tiles.corner_pad`` marker sides farther (a board's corners lie at most its
    diagonal apart). The whole picture stops looking once every seat's tiles are found, and
    corner markers are as small and soft as the tiles': third art g2503 t002, seat 2's board
    showed one corner of four, so its three tiles lay on no known board and were declined
    (g2507 t018: seat 2's board none, its tiles found).
    Only the board's missing ids count, error correction stays off and an id seen twice in the
    picture is never taken, as for the tiles."""
    if not corners:
        # no board shows a corner: boards without corner markers, nothing to look for
        return {}
    pad = float(section("tiles")["corner_pad"])
    more: dict[int, np.ndarray] = {}
    seats = {(m - markers.BOARD_IDS.start) // 4 for m in corners} | {m // 3 for m in found}
    for seat in sorted(seats):
        ids = [markers.board_corner_id(seat, c) for c in range(4)]
        have = [corners[m] for m in ids if m in corners]
        if len(have) >= 3:
            continue
        missing = [m for m in ids if m not in corners and m not in twice]
        if not missing:
            continue
        tiles_of_seat = [found[m] for m in (markers.tile_id(seat, p) for p in range(3))
                         if m in found]
        side = float(np.median([markers.side(q) for q in have or tiles_of_seat]))
        pts = np.concatenate(have + tiles_of_seat)
        x0, y0 = pts.min(axis=0) - pad * side
        x1, y1 = pts.max(axis=0) + pad * side
        box = (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))
        more.update(_closer(image, box, missing, side))
    return more


def _missed_seats(image: np.ndarray, found: dict[int, np.ndarray],
                  corners: dict[int, np.ndarray], rejected: list[np.ndarray],
                  twice: set[int], paper: bool = False) -> dict[int, np.ndarray]:
    """Tiles of seats none of whose tiles the whole picture read: the detector saw their
    squares but read no id from them (other art 11513 t001: three markers of 26 px turned
    a little, their bits misread at 4 pixels a cell, read at 8). Each square outline it could
    not decode that is about the size of the tiles found (``tiles.missed_side``, times their
    median side; with ``paper``, above that up to ``tiles.missed_side_paper``: the tile's paper
    round its marker) and lies on no marker found is looked at again closer
    (:func:`markers.detect_closer`), for the tiles of seats with no tile found only; an id
    read in two places is dropped. The seats so found are then completed as any other."""
    cfg = section("tiles")
    if not found or not rejected:
        return {}
    seen = {m // 3 for m in found}
    wanted = [m for m in markers.TILE_IDS if m // 3 not in seen and m not in twice]
    if not wanted:
        return {}
    side = float(np.median(markers.sides(list(found.values()))))
    known = [*found.values(), *corners.values()]
    lo, hi = (float(x) for x in cfg["missed_side"])
    if paper:
        lo, hi = hi, float(cfg["missed_side_paper"])
    # (the second look leaves out the squares the first looked at)
    lengths = markers.sides(rejected)
    keep = (lengths <= hi * side) & ((lo * side < lengths) if paper else (lo * side <= lengths))
    sized = [q for q, k in zip(rejected, keep.tolist(), strict=True) if k]
    return _look_at_squares(image, sized, known, wanted)


def _look_at_squares(image: np.ndarray, sized: list[np.ndarray], known: list[np.ndarray],
                     wanted: list[int]) -> dict[int, np.ndarray]:
    """:func:`markers.look_at_squares` with the tiles' reach and checked-cloth filter (see
    :func:`_missed_seats`)."""
    cfg = section("tiles")
    return markers.look_at_squares(image, sized, known, wanted, float(cfg["missed_reach"]),
                                   int(cfg["missed_most"]), float(cfg["missed_inner_spread"]))


def _no_tile_found(image: np.ndarray, corners: dict[int, np.ndarray],
                   rejected: list[np.ndarray], twice: set[int]) -> dict[int, np.ndarray]:
    """Tiles of a picture in which no look found any: nothing says what size a tile is, so
    every square outline the detector could not decode, up to ``tiles.alone_side`` of the
    picture's longer side, is looked at closer (as :func:`_missed_seats` looks), for every
    tile id. Third art g2446 t008, b2105 t003, g2476 t009: one seat in view, its three small
    soft markers read by no pass of the whole picture, each in its own square's box."""
    wanted = [m for m in markers.TILE_IDS if m not in twice]
    most = float(section("tiles")["alone_side"]) * max(image.shape[:2])
    lengths = markers.sides(rejected)
    sized = [rejected[k] for k in np.argsort(lengths, kind="stable").tolist() if lengths[k] <= most]
    return _look_at_squares(image, sized, list(corners.values()), wanted)


def boards(corners: dict[int, np.ndarray]) -> list[np.ndarray]:
    """The personal boards whose corner markers are in view: each the quad (4x2) of its corner
    markers' centres, the fourth completed as a parallelogram when one is hidden."""
    quads: list[np.ndarray] = []
    for seat in range(6):
        ids = [markers.board_corner_id(seat, c) for c in range(4)]
        centres = {c: corners[m].mean(axis=0) for c, m in enumerate(ids) if m in corners}
        if len(centres) == 3:
            k = next(c for c in range(4) if c not in centres)
            centres[k] = centres[(k + 1) % 4] + centres[(k + 3) % 4] - centres[(k + 2) % 4]
        if len(centres) == 4:
            quads.append(np.array([centres[c] for c in range(4)], np.float32))
    return quads


def _on_a_board(quad: np.ndarray, board_quads: list[np.ndarray]) -> bool:
    centre = quad.mean(axis=0)
    return any(cv2.pointPolygonTest(b.reshape(-1, 1, 2), (float(centre[0]), float(centre[1])),
                                    False) >= 0 for b in board_quads)


def read_tiles_region(image: np.ndarray, look: TilesLook) -> tuple[TilesObservation, Region]:
    found, corners = find_markers(image)
    if not found:
        raise NoTilesFound("no part tiles are in view")
    # where boards carry corner markers, a tile is on a lane only inside a board: a tile put
    # aside on a table of a lane's colour (green felt) would otherwise read as that lane
    board_quads = boards(corners) if corners else None
    robots: dict[int, RobotReading] = {}
    for seat in sorted({m // 3 for m in found}):
        colours: list[str | None] = []
        confidences: list[float] = []
        looked: list[tuple[np.ndarray, WhiteBlack]] = []
        # the look each part was read with (a lane lit brighter than calibration's: another)
        looks: list[TilesLook] = []
        for part in range(3):
            quad = found.get(markers.tile_id(seat, part))
            if quad is None or (board_quads is not None and not _on_a_board(quad, board_quads)):
                colours.append(None)
                confidences.append(0.0)
                continue
            # the marker's white and black, once for every look at this part
            wb = markers.white_black(image, quad)
            colour, conf, part_look = read_part_lit(image, quad, look, wb)
            colours.append(colour)
            confidences.append(round(conf, 3))
            looked.append((quad, wb))
            looks.append(part_look)
        if all(c is not None for c in colours):
            # two parts of one colour lie on the board's one lane of it: a tile put aside
            # beside the board, on a table near that colour (dark green felt at the picture's
            # edge), is joined to the other by a line over the board's other lanes. Judged in
            # every look a part was read with (a lane lit brighter is another lane's colour
            # only in the brighter look)
            for each in [look] + [k for k in looks if k is not look]:
                off = _off_its_lane(image, looked, colours, each)
                if off is not None:
                    colours[off] = None
                    break
        if board_quads is None and all(c is not None for c in colours):
            # no board corner markers: the lane's own size tells it from a table of its colour
            # (a tile put aside on green felt read green). Asked only of a seat whose three
            # parts were read (a part declined declines the seat, whatever the others show),
            # and no further than the first part that fails it; the confidences stand. A
            # table near the lane's colour (teal felt) is classed it only in specks, a region
            # no larger than a lane: its colour hardly stands apart from the table learnt as
            # background (see apart_from_table). Beside a dim marker the noise breaks a table
            # near the colour into specks, so its region is no larger than a lane: there the
            # colour must also fill the surface the rings show (see lane_solid)
            cfg = section("tiles")
            least = float(cfg["lane_apart"])
            for part, (quad, wb) in enumerate(looked):
                colour = colours[part]
                if colour is not None and (
                        not _on_a_lane(image, quad, looks[part], colour, wb)
                        or apart_from_table(image, quad, looks[part], colour, wb) < least
                        or (float(np.mean(wb[0])) < float(cfg["lane_solid_white"])
                            and lane_solid(image, quad, looks[part], colour, wb)
                            < float(cfg["lane_solid"]))):
                    colours[part] = None
                    break
        parts = (confidences[0], confidences[1], confidences[2])
        if all(c is not None for c in colours):
            robot: str | None = "-".join(c for c in colours if c is not None)
            robots[seat] = RobotReading(robot, min(parts), parts)
        else:
            robots[seat] = RobotReading(None, 0.0, parts)
    pts = np.concatenate(list(found.values()))
    pad = 2.5 * max(markers.side(q) for q in found.values())
    x0, y0 = np.maximum(pts.min(axis=0) - pad, 0)
    x1, y1 = pts.max(axis=0) + pad
    return TilesObservation(robots), (int(x0), int(y0), int(x1), int(y1))


def read_tiles(image: np.ndarray, look: TilesLook) -> TilesObservation:
    """The robots on the boards. Raises :class:`NoTilesFound` when no tile is in view."""
    return read_tiles_region(image, look)[0]


def learn(examples: list[tuple[np.ndarray, dict[int, str]]], fallback: ColourModel) -> TilesLook:
    """Learn the lane rings and lane colours from labelled images (image, {seat: robot})."""
    cfg = section("tiles")
    radii = np.arange(cfg["search_from"], cfg["search_to"] + 1e-6, cfg["search_step"])
    angles = int(cfg["angles"])
    names = fallback.names
    rings: list[np.ndarray] = []  # (R, A, 3) per labelled tile
    labels: list[int] = []
    placed: list[tuple[np.ndarray, np.ndarray, str]] = []
    for image, robots in examples:
        found = find_tiles(image)
        for seat, robot in robots.items():
            for part, colour in enumerate(robot.split("-")):
                quad = found.get(markers.tile_id(seat, part))
                if quad is None or colour not in names:
                    continue
                rings.append(ring_samples(image, quad, radii, angles))
                labels.append(names.index(colour))
                placed.append((image, quad, colour))
    if not rings:
        return TilesLook.default(fallback)
    data = np.stack(rings)  # (T, R, A, 3) white-balanced BGR
    fdata = features(data)  # the same in the colour model's terms
    lab = np.array(labels)
    medians = np.median(fdata, axis=2)  # (T, R, 3)
    accuracy = np.zeros(len(radii))
    for ri in range(len(radii)):
        means = fallback.means.copy()
        for k in range(len(names)):
            if (lab == k).any():
                means[k] = medians[lab == k, ri].mean(axis=0)
        px = fdata[:, ri]  # (T, A, 3)
        dist = np.linalg.norm(px[:, :, None, :] - means[None, None], axis=-1)
        accuracy[ri] = float((dist.argmin(axis=-1) == lab[:, None]).mean())
    best = int(accuracy.argmax())
    keep = [best]
    lo, hi = best, best
    while len(keep) < int(cfg["max_rings"]):
        options = [i for i in (lo - 1, hi + 1) if 0 <= i < len(radii)]
        options = [i for i in options if accuracy[i] >= cfg["keep_within"] * accuracy[best]]
        if not options:
            break
        pick = max(options, key=lambda i: accuracy[i])
        keep.append(pick)
        lo, hi = min(lo, pick), max(hi, pick)
    chosen = sorted(keep)
    # fit each colour on the ring pixels nearest their own label's mean (drops paper and seams)
    samples: dict[str, np.ndarray] = {}
    raw = data[:, chosen].reshape(len(data), -1, 3)
    px = fdata[:, chosen].reshape(len(data), -1, 3)
    means = np.stack([px[lab == k].reshape(-1, 3).mean(axis=0) if (lab == k).any()
                      else fallback.means[k] for k in range(len(names))])
    dist = np.linalg.norm(px[:, :, None, :] - means[None, None], axis=-1)
    near = dist.argmin(axis=-1) == lab[:, None]
    for k, name in enumerate(names):
        sel = _vivid_share(raw[lab == k][near[lab == k]])
        if len(sel):
            samples[name] = sel
    model = ColourModel.fit(samples, fallback).with_background(data)
    # fit again on the pixels the background does not claim (paper blended into a pale lane)
    own = model.classify(raw.reshape(-1, 3)).reshape(len(data), -1) == lab[:, None]
    samples = {name: _vivid_share(raw[lab == k][own[lab == k]]) for k, name in enumerate(names)
               if own[lab == k].any()}
    model = ColourModel.fit(samples, fallback).with_background(data)
    look = TilesLook([float(radii[i]) for i in chosen], model)
    # the size of the lanes under the calibration tiles, for telling a lane from a table of
    # its colour where the boards carry no corner markers
    areas = [lane_area(image, quad, look, names.index(colour))
             for image, quad, colour in placed if colour in names]
    look.lane_area = calibration_lane(areas)
    return look


def _vivid_share(pixels: np.ndarray) -> np.ndarray:
    """The ring pixels (n, 3, white-balanced BGR) labelled one lane colour that are vivid enough
    to be the lane: saturation ((max - min) / max) at least ``tiles.lane_vivid_share`` of the
    label's ``lane_vivid_quantile``. The board's margin and the tile's paper are nearly grey, the
    lane is not, and blur blends the two along a lane's end into every step between.

    A tile at the end of its lane shows the margin over much of its rings. When a colour's tiles
    so lie, its samples hold a grey bulk beside its own, joined to it by the blended pixels, and
    the colour's bulk (:func:`vision.colour.bulk`) took both. Blind other art 63012: 0.31 of
    the red samples were the beige margin, the learnt red spread 0.067 in blue share (green
    0.013). It then claimed the margin round every tile, and three pictures were read wrong (a
    green lane as red); over 276 sets that set's 10 pictures read right with this, and two
    other pictures changed: hard own art 55021 t012 read, g2584 t018 declined (a torso at its
    yellow lane's end beside a navy margin, 0.24 of its rings yellow, under the 0.25 asked)."""
    if len(pixels) == 0:
        return pixels
    cfg = section("tiles")
    hi = pixels.max(axis=1)
    vivid = (hi - pixels.min(axis=1)) / np.maximum(hi, 1e-3)
    typical = float(np.quantile(vivid, float(cfg["lane_vivid_quantile"])))
    bar = float(cfg["lane_vivid_share"]) * typical
    return np.asarray(pixels[vivid >= bar])


def calibration_lane(areas: list[float]) -> float | None:
    """The lane size learnt from the calibration parts' lane areas: the largest, leaving out
    areas over ``lane_area_outlier`` times their median (0: none left out).

    A lane of the table's colour at a board's edge joins the table around it: a part on it
    measures the table, not the lane. Blind third art g2679 (green felt): one calibration part
    measured 128.6 against a median of 18.1 and a next largest of 29.8; the bar learnt from it
    let tiles put aside on the felt pass for parts on green lanes (a seat read green-green-green
    in t012, a torso green in t004). Over the 309 sets measured, every other set's largest area
    was within 3.5 times its median."""
    if not areas:
        return None
    most = float(section("tiles")["lane_area_outlier"])
    if most > 0:
        usual = most * float(np.median(areas))
        areas = [a for a in areas if a <= usual] or areas
    return float(max(areas))
