"""Reading a robot card held up to the camera (the order card, or a card handed in).

The card is found as the largest card-shaped region enclosed by edges, turned upright (held to
the camera, its long side is the one nearest to vertical) and warped to a small canonical card.
Which canonical pixels show the head, torso and legs is learnt from the user's own cards during
calibration; before that, the middle of the top, middle and bottom thirds is used.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.ports import OrderObservation, RobotReading
from vision import markers
from vision.colour import ColourModel
from vision.errors import NoCardFound
from vision.thresholds import section

Region = tuple[int, int, int, int]
#: default rows (fractions of card height) of head, torso and legs, and the columns of all three
BANDS = ((0.12, 0.36), (0.38, 0.62), (0.64, 0.88))
WIDE_BANDS = ((0.03, 0.45), (0.29, 0.71), (0.55, 0.97))
COLUMNS = (0.22, 0.78)


def canonical_size() -> tuple[int, int]:
    cfg = section("order")
    return int(cfg["card_width"]), int(cfg["card_height"])


def default_masks() -> np.ndarray:
    w, h = canonical_size()
    masks = np.zeros((3, h, w), bool)
    for k, (top, bottom) in enumerate(BANDS):
        masks[k, int(top * h):int(bottom * h), int(COLUMNS[0] * w):int(COLUMNS[1] * w)] = True
    return masks


@dataclass
class OrderLook:
    """What calibration learnt about the user's robot cards."""

    model: ColourModel
    masks: np.ndarray  # (3, h, w) bool: head, torso, legs pixels of the canonical card
    learnt: bool = False
    #: the user's cards' long side over short side, as seen in calibration (None: not learnt)
    aspect: float | None = None
    #: how clearly the learnt part shapes must tell top from bottom before a card is read
    #: turned (None: the art does not tell them apart; with no sketch cue either, a calibrated
    #: look then reads only cards that read the same either way up, see :func:`read_turned`)
    turn_margin: float | None = None
    #: the calibration cards' print without its colours (see :func:`sketch`), upright, and how
    #: clearly it must tell top from bottom before a card is read turned (None: not learnt, or
    #: the print is about the same both ways up)
    sketch: np.ndarray | None = None
    sketch_margin: float | None = None
    #: the smallest share of the picture a calibration card covered (None: not learnt)
    area: float | None = None
    #: how like the calibration cards' print (:func:`likeness`) a card must be to be read: a
    #: personal board or another card of about the card's shape is not (None: not learnt)
    min_likeness: float | None = None
    #: the median share of a calibration card's pixels outside the learnt part places that
    #: showed a part colour (its paper shows round the robot; None: not learnt)
    colour_outside: float | None = None
    #: the median share of a calibration card's pixels outside the learnt part places that
    #: showed its paper (see :func:`paper_shown`; None: not learnt)
    paper_share: float | None = None
    #: calibration was shown the user's cards and could learn nothing from them (no card found,
    #: the outlines found unlike each other, or no part place the cards agree on): cards are
    #: then declined, to be asked by touch. The built-in defaults are no fallback for such art:
    #: they read a card held turned, or a board's lanes, with full confidence (other art 12156,
    #: blue-green-red held turned read red-green-blue at 1.0)
    declines: bool = False
    #: the user's cards are printed on dark paper (dark grey, navy): their paper is what
    #: :func:`paper_shown` counts with ``dark`` (learnt only where pale paper taught nothing)
    dark_paper: bool = False

    @classmethod
    def default(cls, model: ColourModel) -> OrderLook:
        return cls(model, default_masks(), False)

    @classmethod
    def unlearnt(cls, model: ColourModel) -> OrderLook:
        """The look after a calibration that was shown cards and learnt nothing: declines."""
        return cls(model, default_masks(), False, declines=True)

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model.to_json(), "learnt": self.learnt,
                "masks": [np.flatnonzero(m).tolist() for m in self.masks],
                "aspect": None if self.aspect is None else round(self.aspect, 4),
                "turn_margin": None if self.turn_margin is None else round(self.turn_margin, 4),
                "sketch": None if self.sketch is None else
                np.round(self.sketch, 5).ravel().tolist(),
                "sketch_margin": None if self.sketch_margin is None else
                round(self.sketch_margin, 4),
                "area": None if self.area is None else round(self.area, 5),
                "min_likeness": None if self.min_likeness is None else
                round(self.min_likeness, 4),
                "colour_outside": None if self.colour_outside is None else
                round(self.colour_outside, 4),
                "paper_share": None if self.paper_share is None else round(self.paper_share, 4),
                "declines": self.declines, "dark_paper": self.dark_paper}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OrderLook:
        w, h = canonical_size()
        masks = np.zeros((3, h * w), bool)
        for k, idx in enumerate(data["masks"]):
            masks[k, idx] = True
        aspect, turn = data.get("aspect"), data.get("turn_margin")
        drawn, margin, area = data.get("sketch"), data.get("sketch_margin"), data.get("area")
        like, outside = data.get("min_likeness"), data.get("colour_outside")
        paper = data.get("paper_share")
        return cls(ColourModel.from_json(data["model"]), masks.reshape(3, h, w),
                   bool(data.get("learnt", True)), None if aspect is None else float(aspect),
                   None if turn is None else float(turn),
                   None if drawn is None else
                   np.asarray(drawn, np.float32).reshape(_sketch_shape()),
                   None if margin is None else float(margin),
                   None if area is None else float(area), None if like is None else float(like),
                   None if outside is None else float(outside),
                   None if paper is None else float(paper), bool(data.get("declines", False)),
                   bool(data.get("dark_paper", False)))


def _sketch_shape() -> tuple[int, int]:
    w, h = canonical_size()
    rim = int(section("order")["sketch_rim"])
    return h - 2 * rim, w - 2 * rim


def sketch(card: np.ndarray) -> np.ndarray:
    """What a canonical card's print looks like whatever the robot's colours: where its grey
    level steps (outlines, title, symbols), blurred a little so a card found a pixel off still
    matches, without the rim (the card's own edge and frame look the same both ways up, and an
    outline found a little wide shows the table there); zero mean, unit norm."""
    grey = np.ascontiguousarray(card.mean(axis=2), np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.GaussianBlur(cv2.magnitude(gx, gy), (0, 0), float(section("order")["sketch_blur"]))
    rim = int(section("order")["sketch_rim"])
    mag = mag[rim:mag.shape[0] - rim, rim:mag.shape[1] - rim]
    mag = mag - mag.mean()
    return np.asarray(mag / max(float(np.linalg.norm(mag)), 1e-6), np.float32)


def likeness(drawn: np.ndarray, template: np.ndarray) -> float:
    """How like the calibration cards' print a card's sketch is (correlation, either way up)."""
    return max(float((drawn * template).sum()), float((drawn[::-1, ::-1] * template).sum()))


def sketch_evidence(drawn: np.ndarray, template: np.ndarray) -> float:
    """Positive when a card's sketch matches the upright template better than turned."""
    return float((drawn * template).sum() - (drawn[::-1, ::-1] * template).sum())


def _upright(box: np.ndarray) -> np.ndarray:
    """Order a rectangle's corners top-left, top-right, bottom-right, bottom-left of the card
    held upright: long side vertical, top towards the top of the image."""
    pts = box.astype(np.float32)
    best: np.ndarray | None = None
    best_score = -math.inf
    for start in range(4):
        q = np.roll(pts, -start, axis=0)
        top = np.linalg.norm(q[1] - q[0])
        left = np.linalg.norm(q[3] - q[0])
        if left < top:  # this start would make the card lie on its side
            continue
        down = (q[3] + q[2]) / 2 - (q[0] + q[1]) / 2
        score = down[1] / (np.linalg.norm(down) + 1e-6)
        a, b = q[1] - q[0], q[3] - q[0]
        if a[0] * b[1] - a[1] * b[0] < 0:  # keep corners clockwise on screen
            continue
        if score > best_score:
            best, best_score = q, score
    if best is None:
        raise NoCardFound("no robot card is held to the camera")
    return best


def aspect_range(aspect: float | None) -> tuple[float, float]:
    """Card shapes accepted: near the calibration cards' own shape once that is known."""
    cfg = section("order")
    if aspect is None:
        return float(cfg["min_aspect"]), float(cfg["max_aspect"])
    tolerance = float(cfg["aspect_tolerance"])
    return aspect * (1 - tolerance), aspect * (1 + tolerance)


def card_aspect(quad: np.ndarray) -> float:
    a, b = _mean_sides(quad)
    return float(max(a, b) / max(min(a, b), 1e-6))


def _mean_sides(quad: np.ndarray) -> tuple[float, float]:
    """An outline's two pairs of opposite sides, each pair's mean length: the sides ending at
    its first and third corners (an upright outline's left and right: its height), then the
    other two (its width)."""
    sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
    return float(sides[0] + sides[2]) / 2, float(sides[1] + sides[3]) / 2


def _tried_alike(centre: np.ndarray, size: float,
                 tried: list[tuple[np.ndarray, float]]) -> bool:
    """Nearly the same rectangle as one tried already (lines a pixel apart, one edge's two
    sides): its centre within a tenth of that one's side, its area within 15 %."""
    return any(float(np.linalg.norm(centre - c)) < 0.1 * math.sqrt(a) and abs(size / a - 1) < 0.15
               for c, a in tried)


def _largest_over_levels(levels: Sequence[float], find: Callable[[float], np.ndarray | None],
                         best: np.ndarray | None,
                         liked: Callable[[np.ndarray], float] | None = None
                         ) -> np.ndarray | None:
    """The largest of ``best`` and the cards ``find`` gives at each edge level, from the
    highest, until two levels in a row give cards of one size (within 3 %). With ``liked``
    (how like the calibration cards an outline's print is), a larger card is taken only when
    printed at most ``order.larger_likeness_drop`` less like them than the one it replaces."""
    drop = float(section("order")["larger_likeness_drop"])
    previous = 0.0
    for level in levels:
        found = find(level)
        area = 0.0 if found is None else float(cv2.contourArea(found))
        if found is not None and (best is None or area > cv2.contourArea(best)) and (
                best is None or liked is None or liked(found) >= liked(best) - drop):
            # at a lower level the card's edge may join a patterned table's (third art g2635
            # o014, a checked cloth: the card, 0.50 like the calibration cards' print at the
            # highest level, and at the lowest the card with a strip of the checks above and
            # beside it, 0.29, its robot then read turned)
            best = found
        if area > 0 and abs(area - previous) < 0.03 * area:
            break
        previous = area
    return best


def find_card(image: np.ndarray, aspect: float | None = None, area: float | None = None,
              accept: Callable[[np.ndarray], bool] | None = None,
              confirm: Callable[[np.ndarray], bool] | None = None,
              thin: bool = False, faint: bool = False,
              print_likeness: Callable[[np.ndarray], float] | None = None,
              leaked: bool = False) -> np.ndarray:
    """The card's corners in image pixels (4x2, top-left first, clockwise), upright.

    ``aspect`` is the user's cards' shape learnt in calibration; without it any card-like shape
    (``order.min_aspect``..``max_aspect``) is accepted. ``area`` is the smallest share of the
    picture a calibration card covered: how far from the lens this user holds cards (a card
    covering less than ``order.min_area`` is then looked for down to ``area_fraction`` of it).
    ``accept`` judges a card-shaped outline (picture pixels, upright): one it turns down (a
    board, a face-down card) is passed over and the search goes on as if it were not there.
    ``confirm`` judges, more strictly, an outline one side of which is placed from ``aspect``
    (no edge shows it: a hand over it); without it (or ``aspect``) such outlines are not
    looked for. ``thin`` (the user's cards are on dark paper, :attr:`OrderLook.dark_paper`):
    where no card is found, blobs are searched again without opening away what is thin.
    ``faint`` (cards on dark paper, in reading and in calibration's dark-paper pass): the
    ``faint_levels`` are tried below the ``edge_levels``, a dark card's edge on a dark table
    being a small step. ``print_likeness`` scores an outline (picture pixels, upright) by how
    like the calibration cards its print is: of the cards found at the edge levels the larger
    is kept only when not printed much less like them (:func:`_largest_over_levels`).
    ``leaked`` (the reader's search, :func:`locate`): where no card was found at all, its
    straight sides are looked for around what is printed on it (:func:`_leaked_card`)."""
    cfg = section("order")
    if area is not None:
        cfg = {**cfg, "min_area": min(float(cfg["min_area"]), float(cfg["area_fraction"]) * area)}
    if aspect is None:
        # a frame's inner rectangle is looked for against the calibrated shape only: before
        # calibration (and in the calibration pictures) any card-like shape is taken, as before
        cfg = {**cfg, "line_frame_share": 0.0}
    h, w = image.shape[:2]
    # a whole number of picture pixels per small pixel: area resizing is then several times
    # cheaper than at a fractional ratio (1280 px wide: 320 rather than 360)
    step = max(1, round(w / float(cfg["work_width"])))
    small = cv2.resize(image, (w // step, h // step), interpolation=cv2.INTER_AREA)
    k = np.array([small.shape[1] / w, small.shape[0] / h], np.float32)
    sh, sw = small.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    grad = np.zeros((sh, sw), np.float32)
    sobel = []
    for c in range(3):
        gx = cv2.Sobel(lab[..., c], cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(lab[..., c], cv2.CV_32F, 0, 1, ksize=3)
        sobel.append((gx, gy))
        grad = np.maximum(grad, cv2.magnitude(gx, gy))
    g8 = np.clip(grad * (255.0 / max(float(np.percentile(grad, 99.5)), 1.0)), 0, 255)
    gradient = _Gradient(g8, sobel)

    judged: dict[bytes, bool] = {}
    scored: dict[bytes, float] = {}

    def scored_once(quad: np.ndarray) -> float:  # in small pixels
        assert print_likeness is not None
        key = np.round(quad).astype(np.int16).tobytes()
        if key not in scored:
            scored[key] = print_likeness(_upright((quad + 0.5) / k - 0.5))
        return scored[key]
    liked = None if print_likeness is None else scored_once

    def judged_once(kind: bytes, judge: Callable[[np.ndarray], bool], quad: np.ndarray) -> bool:
        # the levels find the same outlines again (a board, a face-down card): judged once
        key = kind + np.round(quad).astype(np.int16).tobytes()
        if key not in judged:
            try:
                judged[key] = judge(_upright((quad + 0.5) / k - 0.5))
            except NoCardFound:
                judged[key] = False
        return judged[key]

    def sure(quad: np.ndarray) -> bool:  # in small pixels
        assert confirm is not None
        return judged_once(b"partial", confirm, quad)
    partial = None if confirm is None or aspect is None else _Partial(
        aspect, sure, budget=[int(cfg["three_side_budget"])])
    otsu, _ = cv2.threshold(g8.astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Otsu follows the strong edges of the printed robot; a pale card on a pale table needs a
    # lower level, a busy table a higher one. Levels are tried from the highest and the largest
    # card kept, until two levels in turn find the same card: at a level too high for the card's
    # own edge, the robot printed on it (or a frame printed inside it) can look like a smaller
    # card, and reading that would misplace the parts
    levels: list[float] = []
    for level in sorted({float(otsu), *(255 * float(x) for x in cfg["edge_levels"])},
                        reverse=True):
        if not levels or level < 0.95 * levels[-1]:  # nearly equal levels find the same
            levels.append(level)
    shape = aspect_range(aspect)
    # a card cut by the border is measured on less of its outline: once calibrated, its shape
    # must match more closely, so a wrongly placed edge declines rather than misplaces the parts
    clipped_shape = shape if aspect is None else (
        aspect * (1 - float(cfg["clipped_aspect_tolerance"])),
        aspect * (1 + float(cfg["clipped_aspect_tolerance"])))
    best: np.ndarray | None = None
    # a level's regions serve both searches (labelling the picture is much of a level's cost)
    split: dict[float, _Split] = {}
    # a table checked finer than the edges are wide is dense with edges over much of the
    # picture at the highest level (see _dense); that level's split serves the first search
    dense_edges = np.zeros(g8.shape, bool)
    checked = False
    if float(cfg["texture_region"]) > 0:
        split[levels[0]] = _split(g8, levels[0])
        dense_edges = _dense(split[levels[0]], cfg)
        checked = float(dense_edges.mean()) >= float(cfg["texture_dense_share"])
    rim_bar = float(cfg["checked_rim_dense"])

    def strip(quad: np.ndarray) -> bool:  # in small pixels
        # on a checked table, an outline whose rim is dense with edges holds a strip of the
        # checks inside its sides: a card's straight sides are looked for among its blob's
        # edges, and the checks' rows and columns are straight lines too (third art g2636: each
        # calibration card found along a row of checks below it and the hand above, its rim
        # 0.82-0.94 dense, the cards themselves 0.31-0.47, a blurred card of hard g2675h 0.66;
        # the shape learnt from them was 1.41 for cards of 1.52, and 8 of 20 order cards were
        # not found)
        return checked and rim_bar > 0 and \
            _rim_density(dense_edges, quad, float(cfg["checked_rim"])) >= rim_bar

    fits = _Fits(strip, lambda quad: accept is None or judged_once(b"", accept, quad))

    for clipped in (False, True):
        # a card partly out of the picture touches its border like the room does: looked for
        # only when no whole card is in view
        def whole(level: float, clipped: bool = clipped) -> np.ndarray | None:
            if level not in split:
                split[level] = _split(g8, level)
            return _card_at_level(split[level], cfg, clipped_shape if clipped else shape,
                                  clipped, gradient, level, fits, partial)

        best = _largest_over_levels(levels, whole, best, liked)
        if best is None and not clipped and partial is not None and partial.found:
            # no card seen whole, but one seen on three sides (a hand over the fourth)
            best = partial.largest()
        if best is not None:
            break
    if checked or (best is None and float(cfg["texture_region"]) > 0 and
                   _pockets(split[levels[0]], cfg) >= int(cfg["texture_pockets"])):
        # no card at any level: on a finely patterned table (a checked cloth) every check is
        # a pocket enclosed by edges, so the table is foreground from the card to the picture's
        # border, one blob meeting the border, and passed over as the table with the card in
        # it. The checks are taken for the table, as what touches the border is, and the
        # search is made again (third art d2314: 11 of 20 cards on blue and white checks).
        # Only on a patterned table, many pockets at the highest level: it costs a frame with
        # no card on a plain table nothing
        # First the pockets; then, where checks finer than the edges left none, the table's
        # dense edges too
        before = best
        for dense in (False, True):
            def untextured(level: float, dense: bool = dense) -> np.ndarray | None:
                if level not in split:  # a card found at a higher level ended that search
                    split[level] = _split(g8, level)
                bare = _untextured(split[level], cfg, dense)
                return _card_at_level(bare, cfg, shape, False, gradient, level, fits,
                                      partial) if _holds_blob(bare, cfg) else None

            best = _largest_over_levels(levels, untextured, best, liked)
            if best is not None and best is not before:
                break
        if best is None and partial is not None and partial.found:
            best = partial.largest()
    if best is None and thin:
        # a card on dark paper held by a dark thumb: the thumb over the card's edge shows no
        # edge against the paper, so the paper inside the card's rim is joined through the
        # thumb to the hand and the border, and the rim, a line thinner than a finger, is
        # opened away with the fingers; what is left (the robot) is no card (third art e2408:
        # 13 of 20 cards not found). Where no card was found, the blobs are searched again
        # unopened, at the highest ``thin_levels`` levels: the rim's straight sides are then
        # found among the blob's edges as a card's are, and judged by their print as before
        unopened_cfg = {**cfg, "open_fraction": 0.0}

        def unopened(level: float) -> np.ndarray | None:
            if level not in split:
                split[level] = _split(g8, level)
            one = _Split(split[level].regions, split[level].stats, split[level].contact,
                         split[level].fg)
            return _card_at_level(one, unopened_cfg, shape, False, gradient, level, fits,
                                  partial)

        best = _largest_over_levels(levels[:int(cfg["thin_levels"])], unopened, best,
                                    liked)
        if best is None and partial is not None and partial.found:
            best = partial.largest()
    if best is None and faint:
        # a dark card on a dark table steps from it by less than the lowest edge level shows:
        # the robot printed on it was the largest outline, or nothing was (third art b2102,
        # dark grey paper on a dark table: no calibration card found, all 20 declined). Lower
        # levels only for dark cards, and only where no card was found at the usual ones: a
        # card they find is found again unchanged (a level lower moves its outline a pixel or
        # two, and what the reader checks of it with it)
        def low(level: float) -> np.ndarray | None:
            if level not in split:
                split[level] = _split(g8, level)
            return _card_at_level(split[level], cfg, shape, False, gradient, level, fits,
                                  partial)

        best = _largest_over_levels([255 * float(x) for x in cfg["faint_levels"]], low, best,
                                    liked)
        if best is None and partial is not None and partial.found:
            best = partial.largest()
    if best is None and leaked and accept is not None and float(cfg["leak_grow"]) > 0:
        # only the reader's search, whose outlines its judges weigh by their print: calibration
        # searches with other tests (paper, colours, markers), and an outline found so there
        # changed what third art g2736 learnt (it then declined every order card)
        best = _leaked_card(split, levels, gradient, cfg, shape, fits, partial)
    if best is None:
        raise NoCardFound("no robot card is held to the camera")
    # small pixel i covers picture pixels i/k .. (i+1)/k: its centre is at (i + 0.5)/k - 0.5
    return _upright((best + 0.5) / k - 0.5)


def _leaked_card(split: dict[float, _Split], levels: Sequence[float], gradient: _Gradient,
                 cfg: dict[str, Any], shape: tuple[float, float],
                 accept: Callable[[np.ndarray], bool], partial: _Partial | None
                 ) -> np.ndarray | None:
    """A card whose paper is joined to the table through a gap in its edge: every region
    inside its outline then meets the picture's border, and only what is printed on it is left
    a blob (third art g2707: a thumb of the paper's tone in the shade over a corner, o015, and a
    lamp's glare washing out a side and half the bottom, o008). Around each blob of at least
    ``leak_blob`` of the picture (the largest first, at each edge level from the highest), a
    window ``leak_grow`` of the blob's size wider each way is searched for the card's straight
    sides as a blob that is not card-shaped is (:func:`_card_from_lines`: four sides, or three
    and the calibrated shape, ``partial``), every outline judged by its print (``accept``).
    In small pixels; None where no window holds a card."""
    sh, sw = gradient.g8.shape
    grow = float(cfg["leak_grow"])
    least = float(cfg["leak_blob"]) * sw * sh
    for level in levels:
        if level not in split:
            split[level] = _split(gradient.g8, level)
        one = split[level]
        if one.blobs is None:
            one.blobs = _blobs(one.fg, cfg)
        blobs = one.blobs
        area = blobs.stats[:, cv2.CC_STAT_AREA]
        for i in np.argsort(-area, kind="stable"):
            if i == 0 or area[i] < least or blobs.table[i]:
                continue
            x, y, bw, bh = (int(v) for v in blobs.stats[i, :4])
            gx, gy = int(grow * bw), int(grow * bh)
            x0, y0 = max(x - gx, 0), max(y - gy, 0)
            x1, y1 = min(x + bw + gx, sw), min(y + bh + gy, sh)
            mask = np.ones((y1 - y0, x1 - x0), np.uint8)
            at = np.array([x0, y0], np.float32)
            quad = _card_from_lines(mask, gradient.crop(x0, y0, x1 - x0, y1 - y0), level, cfg,
                                    shape, (x0, y0, sw, sh), _shifted(accept, at),
                                    None if partial is None else partial.shifted(at))
            if quad is not None:
                return quad + at
        if partial is not None and partial.found:
            return partial.largest()
    return None


@dataclass
class _Blobs:
    """The blobs of an opened foreground mask."""

    count: int
    labels: np.ndarray  # each pixel's blob (8-connected; 0 is no blob)
    stats: np.ndarray  # each blob's bounding box and area
    table: np.ndarray  # (count,) bool: the blob meets too much of the border to be a card


def _blobs(fg: np.ndarray, cfg: dict[str, Any]) -> _Blobs:
    sh, sw = fg.shape
    opened = cv2.morphologyEx(fg, cv2.MORPH_OPEN, _open_kernel(cfg, sw, sh))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    # a card at least ``min_visible`` in view meets the picture's border along at most about
    # half of it; a blob along more is the table itself (a plain, grainy table is edges nearly
    # everywhere at the lower levels), rejected before its outline is measured
    rim = np.concatenate([labels[0], labels[-1], labels[1:-1, 0], labels[1:-1, -1]])
    border = np.bincount(rim, minlength=count)
    table = border > float(cfg["max_border_contact"]) * len(rim)
    table[0] = False
    return _Blobs(count, labels, stats, table)


@dataclass
class _Split:
    """A picture's regions at one edge level."""

    regions: np.ndarray  # each pixel's region (4-connected; 0 is the edges themselves)
    stats: np.ndarray  # each region's bounding box and area (connectedComponentsWithStats)
    contact: np.ndarray  # how many border pixels each region holds
    fg: np.ndarray  # 255 where the card may be: edges and what they enclose (uint8)
    blobs: _Blobs | None = None  # fg's blobs, once looked at


def _split(g8: np.ndarray, level: float) -> _Split:
    edges: np.ndarray = np.where(g8 > level, 255, 0).astype(np.uint8)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    # whatever is connected to the picture's border without crossing an edge is the room, the
    # table, or the hand and arm holding the card; the rest is the card and what is printed on it
    count, regions, stats, _ = cv2.connectedComponentsWithStats(255 - edges, connectivity=4)
    rim = np.concatenate([regions[0], regions[-1], regions[1:-1, 0], regions[1:-1, -1]])
    contact = np.bincount(rim, minlength=count)
    contact[0] = 0  # label 0 is the edges themselves
    touches = contact > 0
    background = touches[regions] & (edges == 0)
    fg: np.ndarray = np.where(background, 0, 255).astype(np.uint8)
    return _Split(regions, stats, contact, fg)


def _untextured(split: _Split, cfg: dict[str, Any], dense: bool) -> _Split:
    """``split`` with the pockets of a patterned table taken for the table: every region
    smaller than ``texture_region`` of the picture that is joined to the border's regions by a
    chain of such regions, each within ``texture_gap`` small pixels of the next (across the
    edge lines between checks). The card's paper is a large region, so the chain stops at its
    edge; the edge lines left between the checks are thinner than the opening removes."""
    regions, stats = split.regions, split.stats
    sh, sw = regions.shape
    small = stats[:, cv2.CC_STAT_AREA] < float(cfg["texture_region"]) * sw * sh
    small[0] = False
    border = split.contact > 0
    gap = 2 * int(cfg["texture_gap"]) + 1
    near = cv2.dilate((small | border)[regions].astype(np.uint8) * (regions > 0),
                      np.ones((gap, gap), np.uint8))
    count, joined = cv2.connectedComponents(near, connectivity=8)
    reaches = np.zeros(count, bool)
    reaches[np.unique(joined[border[regions] & (regions > 0)])] = True
    reaches[0] = False
    table = (border[regions] | (small[regions] & reaches[joined])) & (regions > 0)
    # checks finer than the dilated edges leave no pockets: the table is then edges nearly
    # everywhere, the card's paper nearly none; with ``dense``, where edges fill at least
    # texture_density of a texture_window square, joined to the table, the table is taken to be
    if dense:
        busy = _dense(split, cfg) | table
        # joined to the table only across dense stretches at least texture_bridge pixels wide:
        # a robot's feet a few pixels from the card's edge leave a strip of paper that is all
        # edges, and through it the robot's outline was joined to the table and taken away
        # with it, what was left of the card too small a blob (third art g2501 o001)
        bridge = int(cfg["texture_bridge"])
        core = busy if bridge <= 1 else \
            cv2.erode(busy.astype(np.uint8), np.ones((bridge, bridge), np.uint8)) > 0
        count, joined = cv2.connectedComponents(core.astype(np.uint8), connectivity=8)
        reaches = np.zeros(count, bool)
        reaches[np.unique(joined[table & core])] = True
        reaches[0] = False
        reached = core & reaches[joined]
        if bridge > 1:
            reached = cv2.dilate(reached.astype(np.uint8),
                                 np.ones((bridge, bridge), np.uint8)) > 0
        table |= busy & reached
        # the card's own edge, dense beside the checks, is given back to what it bounds: the
        # straight-edge search looks for the card's sides among its blob's edges (third art
        # g2501 cal-o01, a card against a board: its sides taken for the table, only the
        # robot's torso was found)
        rim = int(cfg["texture_rim"])
        if rim > 0:
            inside = (regions > 0) & ~table & ~small[regions]
            near_inside = cv2.dilate(inside.astype(np.uint8),
                                     np.ones((2 * rim + 1, 2 * rim + 1), np.uint8)) > 0
            table &= ~(near_inside & (regions == 0))
    fg: np.ndarray = np.where(table, 0, 255).astype(np.uint8)
    return _Split(regions, stats, split.contact, fg)


def _pockets(split: _Split, cfg: dict[str, Any]) -> int:
    """How many regions of a split are under ``texture_region`` of the picture."""
    sh, sw = split.regions.shape
    area = split.stats[1:, cv2.CC_STAT_AREA]
    return int(np.count_nonzero(area < float(cfg["texture_region"]) * sw * sh))


def _dense(split: _Split, cfg: dict[str, Any]) -> np.ndarray:
    """Where a split's edges cover at least ``texture_density`` of a ``texture_window``-pixel
    square: over much of the picture on a table checked finer than the edges are wide, which is
    edges nearly everywhere and leaves few pockets (third art g2501)."""
    win = int(cfg["texture_window"])
    density = cv2.blur((split.regions == 0).astype(np.float32), (win, win))
    return np.asarray(density >= float(cfg["texture_density"]))


def _rim_density(dense: np.ndarray, quad: np.ndarray, rim: float) -> float:
    """The share of an outline's rim (small pixels: between ``quad`` and ``quad`` drawn in
    towards its centre by ``rim`` of the way) that is dense with edges (``dense``, see
    :func:`_dense`). A card's rim is its paper, its own edge and a little print; an outline
    that holds a strip of a checked table inside its sides is the checks there."""
    centre = quad.mean(axis=0)
    inner = centre + (quad - centre) * (1.0 - rim)
    band = np.zeros(dense.shape, np.uint8)
    cv2.fillPoly(band, [np.round(quad).astype(np.int32)], 1)
    cv2.fillPoly(band, [np.round(inner).astype(np.int32)], 0)
    inside = band > 0
    return float(dense[inside].mean()) if inside.any() else 0.0


def _holds_blob(split: _Split, cfg: dict[str, Any]) -> bool:
    """Whether a split holds a blob a card may be in (as large as ``min_area``, not the table):
    on a plain table with no card, whose grain is edges nearly everywhere at the lower levels,
    nothing is left once its texture is taken for the table, and nothing is searched."""
    split.blobs = _blobs(split.fg, cfg)
    sh, sw = split.fg.shape
    large = split.blobs.stats[1:, cv2.CC_STAT_AREA] >= float(cfg["min_area"]) * sw * sh
    return bool(np.any(large & ~split.blobs.table[1:]))


def _card_at_level(split: _Split, cfg: dict[str, Any], shape: tuple[float, float],
                   clipped: bool, gradient: _Gradient | None = None, level: float = 0.0,
                   accept: Callable[[np.ndarray], bool] | None = None,
                   partial: _Partial | None = None) -> np.ndarray | None:
    regions, stats, contact, fg = split.regions, split.stats, split.contact, split.fg
    sh, sw = fg.shape
    if split.blobs is None:
        split.blobs = _blobs(fg, cfg)
    if not clipped:
        return _card_in(fg, cfg, shape, split.blobs,
                        edges=None if gradient is None else (gradient, level), accept=accept,
                        partial=partial)
    # a card partly out of view: each region that meets the border along a short stretch
    # (not the room or the table) is tried as part of the card, one at a time, so an arm
    # reaching in from the border is never joined to it
    best: np.ndarray | None = None
    short = float(cfg["clipped_contact"]) * 2 * (sw + sh)
    candidates = np.flatnonzero((contact > 0) & (contact < short))
    # Each trial opens and labels the whole picture again, and a plain or grainy table with no
    # card in view leaves dozens of small pockets along the border (the camera reads
    # continuously while waiting for a card, so that cost is paid on every idle frame).
    # This search runs only once no card was found at any level, so a trial matters only where
    # the region changes the blobs: opening keeps what a kernel placed wholly inside covers, so
    # what changes lies within a kernel's reach of the region, and a changed blob holding one
    # of the table's blobs is the table again. A trial is made only when the changed part and
    # the other blobs it touches could make a card-sized blob; of those, the largest regions
    # first (a card's paper cut by the border is one of the larger), at most a few.
    blobs = split.blobs
    size = _open_kernel(cfg, sw, sh).shape[0]
    grow = np.ones((2 * size - 1, 2 * size - 1), np.uint8)
    pad = size + 1
    min_blob = float(cfg["min_area"]) * sw * sh
    area = stats[candidates, cv2.CC_STAT_AREA]
    tries = int(cfg["clipped_candidates"])
    for region in candidates[np.argsort(-area, kind="stable")]:
        x, y, bw, bh = (int(v) for v in stats[region, :4])
        x0, y0 = max(x - pad, 0), max(y - pad, 0)
        x1, y1 = min(x + bw + pad, sw), min(y + bh + pad, sh)
        own = regions[y0:y1, x0:x1] == region
        labels = blobs.labels[y0:y1, x0:x1]
        reach = cv2.dilate(own.astype(np.uint8), grow) > 0
        changed = reach & ((fg[y0:y1, x0:x1] > 0) | own) & ~blobs.table[labels]
        near = cv2.dilate(changed.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        touched = np.unique(labels[near])
        touched = touched[(touched > 0) & ~blobs.table[touched]]
        if float(changed.sum()) + float(blobs.stats[touched, cv2.CC_STAT_AREA].sum()) < min_blob:
            continue
        if tries == 0:
            break
        tries -= 1
        trial = fg.copy()
        trial[y0:y1, x0:x1][own] = 255
        tried = _blobs(trial, cfg)
        # a blob the region left as it was is one the search without it already declined
        changed_blobs = np.unique(tried.labels[(tried.labels > 0) != (blobs.labels > 0)])
        found = _card_in(trial, cfg, shape, tried, changed_blobs[changed_blobs > 0],
                         accept=accept)
        if found is not None and (best is None or
                                  cv2.contourArea(found) > cv2.contourArea(best)):
            best = found
    return best


def _open_kernel(cfg: dict[str, Any], sw: int, sh: int) -> np.ndarray:
    # opening removes what is thinner than a finger: fingertips over the card's edge, seams
    size = 2 * int(cfg["open_fraction"] * min(sw, sh)) + 1
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


@dataclass(frozen=True)
class _Fits:
    """:func:`find_card`'s judge of an outline (small pixels), in two steps: ``strip`` tells
    cheaply that it is a strip of a checked table, ``judge`` weighs what is left (the caller's
    tests: its print, its paper). The straight-edge search counts only what ``strip`` passes
    against its budget (see :func:`_four_sided`)."""

    strip: Callable[[np.ndarray], bool]
    judge: Callable[[np.ndarray], bool]

    def __call__(self, quad: np.ndarray) -> bool:
        return not self.strip(quad) and self.judge(quad)

    def shifted(self, at: np.ndarray) -> _Fits:
        return _Fits(lambda quad: self.strip(quad + at), lambda quad: self.judge(quad + at))


def _shifted(accept: Callable[[np.ndarray], bool],
             at: np.ndarray) -> Callable[[np.ndarray], bool]:
    if isinstance(accept, _Fits):
        return accept.shifted(at)
    return lambda quad: accept(quad + at)


def _card_in(fg: np.ndarray, cfg: dict[str, Any], shape: tuple[float, float],
             blobs: _Blobs | None = None, only: np.ndarray | None = None,
             edges: tuple[_Gradient, float] | None = None,
             accept: Callable[[np.ndarray], bool] | None = None,
             partial: _Partial | None = None) -> np.ndarray | None:
    """The largest card-shaped blob of a foreground mask, as 4 corners (clockwise); only the
    blobs ``only`` when given. With ``edges`` (the picture's gradient and the edge level), a
    blob that is not card-shaped itself (the card lies against a board, another card, a hand
    of its own colour) is searched for a card's four straight edges inside it."""
    sh, sw = fg.shape
    if blobs is None:
        blobs = _blobs(fg, cfg)
    best: np.ndarray | None = None
    best_area = 0.0
    for i in range(1, blobs.count) if only is None else only:
        x, y, bw, bh, area = blobs.stats[i]
        if area < cfg["min_area"] * sw * sh or blobs.table[i]:
            continue
        mask = (blobs.labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        quad = _card_outline(mask, cfg, shape, (int(x), int(y), sw, sh))
        at = np.array([x, y], np.float32)
        if quad is not None and accept is not None and not accept(quad + at):
            quad = None
        if quad is None and edges is not None:
            gradient, level = edges
            # the levels find much the same blobs (a board, a row of cards): one that held no
            # card at a higher level is not searched again (a card joining it changes its box)
            box = (int(x) // 3, int(y) // 3, int(x + bw) // 3, int(y + bh) // 3)
            if box not in gradient.barren:
                quad = _card_from_lines(mask, gradient.crop(int(x), int(y), int(bw), int(bh)),
                                        level, cfg, shape, (int(x), int(y), sw, sh),
                                        None if accept is None else _shifted(accept, at),
                                        None if partial is None else partial.shifted(at))
                if quad is None:
                    gradient.barren.add(box)
        if quad is None:
            continue
        quad_area = float(cv2.contourArea(quad))
        if quad_area <= best_area:
            continue
        best_area = quad_area
        best = quad + np.array([x, y], np.float32)
    return best


@dataclass
class _Gradient:
    """The picture's colour steps (the small copy's)."""

    g8: np.ndarray  # the strongest channel's gradient magnitude, 0..255 (float32)
    sobel: list[tuple[np.ndarray, np.ndarray]]  # each channel's x and y derivatives
    #: blobs (boxes, to a few pixels) searched for straight edges in vain at a higher level
    barren: set[tuple[int, int, int, int]] = field(default_factory=set)

    def crop(self, x: int, y: int, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
        """The magnitude and the direction (0..pi) of the strongest channel's step in a box."""
        gxs = np.stack([gx[y:y + h, x:x + w] for gx, _ in self.sobel])
        gys = np.stack([gy[y:y + h, x:x + w] for _, gy in self.sobel])
        strongest = (gxs * gxs + gys * gys).argmax(axis=0)[None]
        gx = np.take_along_axis(gxs, strongest, 0)[0]
        gy = np.take_along_axis(gys, strongest, 0)[0]
        return self.g8[y:y + h, x:x + w], np.arctan2(gy, gx) % np.pi


def _intersect(a: tuple[float, float], b: tuple[float, float]) -> np.ndarray | None:
    """Where two lines (normal angle, offset: x cos t + y sin t = offset) cross."""
    ca, sa, cb, sb = math.cos(a[0]), math.sin(a[0]), math.cos(b[0]), math.sin(b[0])
    det = ca * sb - sa * cb
    if abs(det) < 1e-6:
        return None
    return np.array([(a[1] * sb - b[1] * sa) / det, (ca * b[1] - cb * a[1]) / det])


#: where along a side its support is sampled (the corners' ends are left out)
_ALONG = np.linspace(0.05, 0.95, 32)


def _segment_support(ends: np.ndarray, edge: np.ndarray, direction: np.ndarray,
                     cos_tol: float) -> np.ndarray:
    """For segments ``ends`` (m, 2, 2), the share of each one's length that runs along an edge
    pixel whose step is across it (within a pixel of it)."""
    h, w = edge.shape
    p, q = ends[:, 0], ends[:, 1]
    length = np.maximum(np.linalg.norm(q - p, axis=1), 1e-6)
    along = (q - p) / length[:, None]
    normal = np.stack([-along[:, 1], along[:, 0]], axis=1)
    theta = np.arctan2(normal[:, 1], normal[:, 0])
    pts = p[:, None] + _ALONG[None, :, None] * (q - p)[:, None]  # (m, k, 2)
    hit = np.zeros(pts.shape[:2], bool)
    for o in (-1.0, 0.0, 1.0):
        xy = np.round(pts + o * normal[:, None]).astype(np.int64)
        x = np.clip(xy[..., 0], 0, w - 1)
        y = np.clip(xy[..., 1], 0, h - 1)
        inside = (xy[..., 0] == x) & (xy[..., 1] == y)
        across = np.abs(np.cos(direction[y, x] - theta[:, None])) >= cos_tol
        hit |= inside & edge[y, x] & across
    return np.asarray(hit.mean(axis=1))


def _edge_support(quad: np.ndarray, edge: np.ndarray, direction: np.ndarray,
                  cos_tol: float) -> np.ndarray:
    """For each side of ``quad``, the share of its length along edges stepping across it."""
    ends = np.stack([quad, np.roll(quad, -1, axis=0)], axis=1).astype(np.float64)
    return _segment_support(ends, edge, direction, cos_tol)


def _card_from_lines(mask: np.ndarray, crop: tuple[np.ndarray, np.ndarray], level: float,
                     cfg: dict[str, Any], shape: tuple[float, float],
                     frame: tuple[int, int, int, int],
                     accept: Callable[[np.ndarray], bool] | None = None,
                     partial: _Partial | None = None) -> np.ndarray | None:
    """The largest card in a blob whose own outline is not card-shaped (the card touches a
    board or another card, or a hand of its border's colour), from straight edges: lines many
    edge pixels lie on (each pixel votes only for lines across its own step), paired into
    rectangles of the card's shape whose four sides each run along edges for a good part of
    their length and whose inside is the blob's. Corners clockwise, in ``mask`` pixels.

    With ``partial`` (the calibrated card's shape and a judge of its print), a card whose fourth
    side no edge shows (a hand over it, a board of its frame's colour beside it) is looked for
    too: see :func:`_three_sided`."""
    g8, direction = crop
    bh, bw = mask.shape
    sw, sh = frame[2:]
    edge = (g8 > level) & (mask > 0)
    min_side = math.sqrt(float(cfg["min_area"]) * sw * sh / shape[1])
    support = float(cfg["min_edge_support"])
    ys, xs = np.nonzero(edge)
    if len(xs) < 4 * support * min_side:
        return None
    n = round(180 / float(cfg["line_angle_step_degrees"]))
    spread = int(cfg["line_angle_spread"])
    thetas = np.arange(n) * math.pi / n
    own = np.round(direction[ys, xs] * n / math.pi).astype(np.int64) % n
    votes = np.concatenate([(own + d) % n for d in range(-spread, spread + 1)])
    rep = 2 * spread + 1
    reach = int(math.hypot(bw, bh)) + 2
    rho = np.round(np.tile(xs, rep) * np.cos(thetas[votes]) +
                   np.tile(ys, rep) * np.sin(thetas[votes])).astype(np.int64) + reach
    acc = np.bincount(votes * (2 * reach + 1) + rho,
                      minlength=n * (2 * reach + 1)).reshape(n, 2 * reach + 1)
    # an edge a pixel off straight (perspective, rounding) still counts as one line
    acc = acc.astype(np.float32)
    acc[:, 1:-1] += acc[:, :-2] + acc[:, 2:]
    # a peak is the most voted line within a step of angle (each pixel votes for a step either
    # side of its own) and two pixels of offset: a card's edge and a board's longer edge a few
    # degrees from it, meeting near the card's corner (the card lies on the board), are two
    # lines, so the board's does not hide the card's
    peaks = (acc == cv2.dilate(acc, np.ones((3, 5), np.uint8))) & (acc >= support * min_side)
    ti, ri = np.nonzero(peaks)
    tilt = math.radians(float(cfg["edge_tilt_degrees"]))

    def turn(a: float, b: float) -> float:  # the angle between two lines' directions, 0..pi/2
        d = abs(a - b) % math.pi
        return min(d, math.pi - d)

    # one straight edge also gathers votes for lines a little turned about points along it:
    # of lines that nearly coincide over the blob, the one with the most votes stands for all
    centre = np.array([bw / 2, bh / 2])
    half = math.hypot(bw, bh) / 4
    lines: list[tuple[float, float, float]] = []
    # (the strongest few times as many peaks as lines kept are enough to choose from)
    for k in np.argsort(-acc[ti, ri], kind="stable")[:4 * int(cfg["line_candidates"])]:
        theta, offset = float(thetas[ti[k]]), float(ri[k] - reach)
        normal = np.array([math.cos(theta), math.sin(theta)])
        foot = centre + (offset - float(centre @ normal)) * normal
        # two points of this line, either side of the blob's centre: the line coincides with
        # one kept when both lie within a pixel or two of it
        ends = foot + np.outer([-half, half], [-normal[1], normal[0]])
        if any(turn(theta, t) <= tilt and float(np.abs(ends @ np.array(
                [math.cos(t), math.sin(t)]) - o).max()) <= 2.5 for t, o, _ in lines):
            continue
        lines.append((theta, offset, 0.0))
        if len(lines) == int(cfg["line_candidates"]):
            break

    # (pairs a little nearer than a card's least side may be the inner edges of a frame
    # printed round the card: see _four_sided)
    framed_side = min_side * (1 - 2 * float(cfg["line_frame_share"]))
    pairs: list[tuple[tuple[float, float], tuple[float, float], float]] = []
    framed: list[tuple[tuple[float, float], tuple[float, float], float]] = []
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            (ta, ra, _), (tb, rb, _) = lines[i], lines[j]
            if turn(ta, tb) > tilt:
                continue
            # the same line family: offsets compared along one normal
            gap = abs(ra - rb) if abs(ta - tb) < math.pi / 2 else abs(ra + rb)
            if gap >= framed_side:
                (pairs if gap >= min_side else framed).append(
                    ((ta, ra), (tb, rb), (ta + tb) / 2 if abs(ta - tb) < math.pi / 2
                     else (ta + tb + math.pi) / 2 % math.pi))
    found = _four_sided(mask, edge, direction, xs, ys, pairs, cfg, shape, frame, accept)
    if found is None and float(cfg["line_frame_share"]) > 0:
        found = _four_sided(mask, edge, direction, xs, ys, pairs, cfg, shape, frame, accept,
                            framed)
    if found is None and partial is not None and not partial.found:
        guessed = _three_sided(mask, edge, direction, lines, pairs, cfg, frame, partial)
        if guessed is not None:
            partial.found.append(guessed + partial.at)
    return found


def _four_sided(mask: np.ndarray, edge: np.ndarray, direction: np.ndarray, xs: np.ndarray,
                ys: np.ndarray, pairs: list[tuple[tuple[float, float], tuple[float, float], float]],
                cfg: dict[str, Any], shape: tuple[float, float],
                frame: tuple[int, int, int, int],
                accept: Callable[[np.ndarray], bool] | None,
                framed: list[tuple[tuple[float, float], tuple[float, float], float]] | None = None
                ) -> np.ndarray | None:
    """The largest rectangle of two pairs of ``pairs`` whose four sides run along edges (see
    :func:`_card_from_lines`). With ``framed`` (pairs a little nearer than a card's least
    side), only the rectangles a frame printed round the card allows besides (see below) are
    looked at, of ``pairs`` and ``framed`` together: what is asked once the card's own shape
    found none."""
    bh, bw = mask.shape
    sw, sh = frame[2:]
    support = float(cfg["min_edge_support"])
    tilt = math.radians(float(cfg["edge_tilt_degrees"]))
    cos_tol = math.cos(math.radians(float(cfg["edge_direction_degrees"])))
    min_area = float(cfg["min_area"]) * sw * sh
    # where the card's own edge does not show along enough of a side (a hand or a board of its
    # frame's colour beside it), the rectangle found is the inner edge of a frame printed round
    # the card, or runs along the frame: smaller and longer than the card (a frame f of the
    # short side each side round a card of shape a: (a - 2f) / (1 - 2f)). Rectangles are
    # looked for down to such a frame; once its sides are moved out past the frame, the
    # outline must have the card's own shape, as before. They are looked at only when none of
    # the card's own shape was taken (the same rectangles, tried in the same order, find the
    # same cards as before)
    found = _rectangles(pairs, tilt, min_area, shape)
    if framed is not None:
        inner = float(cfg["line_frame_share"])
        own = {quad.tobytes() for quad in found}
        found = [quad for quad in _rectangles(
            pairs + framed, tilt, min_area * (1 - 2 * inner) ** 2,
            (shape[0], (shape[1] - 2 * inner) / (1 - 2 * inner))) if quad.tobytes() not in own]
    if not found:
        return None
    quads = np.stack(found)
    # most of the card lies in the blob; then each side must run along edges stepping across it
    # (all rectangles at once: the largest are often the card and a board beside it together)
    within = ((quads >= -2) & (quads <= np.array([bw + 1, bh + 1]))).all(axis=(1, 2))
    quads = quads[within]
    if len(quads) == 0:
        return None
    ends = np.stack([quads, np.roll(quads, -1, axis=1)], axis=2).reshape(-1, 2, 2)
    sides = _segment_support(ends.astype(np.float64), edge, direction, cos_tol).reshape(-1, 4)
    tried: list[tuple[np.ndarray, float]] = []
    pixels = np.stack([xs, ys], axis=1).astype(np.float64)
    worst = sides.min(axis=1)
    candidates = quads[worst >= support]
    if accept is not None:
        # outlines are judged by their print, so nothing printed on the card is taken for it:
        # the best-edged first (the largest are often the card and a board beside it together)
        candidates = candidates[np.argsort(-worst[worst >= support], kind="stable")]
    budget = int(cfg["line_rectangles" if framed is None else "frame_rectangles"])
    strips = int(cfg["checked_strip_rectangles"])
    for quad in candidates:
        # nearly the same rectangle as one tried (lines a pixel apart, one edge's two sides)
        centre_, size_ = quad.mean(axis=0), float(cv2.contourArea(quad))
        if _tried_alike(centre_, size_, tried):
            continue
        tried.append((centre_, size_))
        if strips > 0 and isinstance(accept, _Fits) and accept.strip(_clockwise(quad)):
            # a strip of a checked table: the checks' rows and columns make the best-edged
            # rectangles there, and counted they used up the budget before the card, whose
            # sides show only against the darker checks, was looked at (third art 2801, white
            # cards on fine grey and white checks: calibration gathered no card among its
            # outlines, and hard g2801h declined all 20 order cards, 19 read since; g2848
            # cal-o01: the card came seventh at its level). They cost little to tell, and
            # have a budget of their own
            strips -= 1
            continue
        if budget == 0:
            break
        budget -= 1
        inside = np.zeros_like(mask)
        cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1)
        quad_area = float(inside.sum())
        if quad_area < cfg["min_visible"] * float(cv2.contourArea(quad)):
            continue
        if float((inside & mask).sum()) < cfg["min_fill"] * quad_area:
            continue
        # what is not printed like a card (a board, a face-down card) is passed over before
        # the outline is fitted more closely (most rectangles in a busy picture are such)
        if accept is not None and not accept(_clockwise(quad)):
            continue
        # a side moved out past a frame printed along the card's edge may instead reach a
        # board's edge lying close beside the card: then the rectangle as found is tried
        for moved in (_outermost(quad, edge, direction, cos_tol, cfg), quad):
            fitted = _clockwise(_refine(moved, pixels, direction, cos_tol))
            if shape[0] <= card_aspect(fitted) <= shape[1] and (accept is None or
                                                                 accept(fitted)):
                return fitted
    return None


class _Runs:
    """Where lines (normal angle, offset) run along edge pixels stepping across them, sampled
    a pixel apart along each line, as running counts: the support of any stretch of a line is
    then found at once (as :func:`_segment_support` finds it for one segment)."""

    def __init__(self, thetas: np.ndarray, offsets: np.ndarray, edge: np.ndarray,
                 direction: np.ndarray, cos_tol: float) -> None:
        h, w = edge.shape
        self.reach = int(math.hypot(w, h)) + 2
        self.along = np.stack([-np.sin(thetas), np.cos(thetas)], axis=1)  # (n, 2)
        normal = np.stack([np.cos(thetas), np.sin(thetas)], axis=1)
        t = np.arange(-self.reach, self.reach + 1, dtype=np.float64)
        foot = offsets[:, None, None] * normal[:, None, :]
        pts = foot + t[None, :, None] * self.along[:, None, :]  # (n, k, 2)
        hit = np.zeros(pts.shape[:2], bool)
        for o in (-1.0, 0.0, 1.0):
            xy = np.round(pts + o * normal[:, None, :]).astype(np.int64)
            x = np.clip(xy[..., 0], 0, w - 1)
            y = np.clip(xy[..., 1], 0, h - 1)
            inside = (xy[..., 0] == x) & (xy[..., 1] == y)
            across = np.abs(np.cos(direction[y, x] - thetas[:, None])) >= cos_tol
            hit |= inside & edge[y, x] & across
        self.counts = np.concatenate([np.zeros((len(thetas), 1)), np.cumsum(hit, axis=1)],
                                     axis=1)

    def support(self, line: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """The share of each stretch ``p``..``q`` (points on line ``line``; their ends left
        out, as :data:`_ALONG` leaves them) that runs along such edge pixels."""
        tp = (p * self.along[line]).sum(axis=1)
        tq = (q * self.along[line]).sum(axis=1)
        lo, hi = np.minimum(tp, tq), np.maximum(tp, tq)
        lo, hi = lo + 0.05 * (hi - lo), hi - 0.05 * (hi - lo)
        size = self.counts.shape[1] - 1
        j0 = np.clip(np.ceil(lo + self.reach), 0, size).astype(np.int64)
        j1 = np.clip(np.floor(hi + self.reach) + 1, 0, size).astype(np.int64)
        span = np.maximum(np.floor(hi) - np.ceil(lo) + 1, 1.0)
        return np.asarray((self.counts[line, j1] - self.counts[line, j0]) / span)


@dataclass
class _Partial:
    """How to take a card seen on three sides only: the calibrated cards' shape places the
    fourth, and ``confirm`` judges the outline by its print, strictly (it is partly guessed).
    Such cards are kept aside in ``found`` (picture's small pixels): one is taken only when no
    card is seen whole, and once one is found no more are looked for."""

    aspect: float
    confirm: Callable[[np.ndarray], bool]
    at: np.ndarray = field(default_factory=lambda: np.zeros(2, np.float32))
    found: list[np.ndarray] = field(default_factory=list)
    #: how many more outlines the picture's search may judge (a busy table with no card in
    #: view has many three-sided rectangles: its lanes, tiles, cards of a grid)
    budget: list[int] = field(default_factory=lambda: [1 << 30])

    def largest(self) -> np.ndarray:
        """The largest card found on three sides (``found`` must not be empty)."""
        return max(self.found, key=lambda quad: float(cv2.contourArea(quad)))

    def shifted(self, at: np.ndarray) -> _Partial:
        """The same search on a crop at ``at`` (its quads are in the crop's pixels)."""
        return _Partial(self.aspect, self.confirm, self.at + at, self.found, self.budget)


def _three_sided(mask: np.ndarray, edge: np.ndarray, direction: np.ndarray,
                 lines: list[tuple[float, float, float]],
                 pairs: list[tuple[tuple[float, float], tuple[float, float], float]],
                 cfg: dict[str, Any], frame: tuple[int, int, int, int],
                 partial: _Partial) -> np.ndarray | None:
    """A card whose fourth side shows no edge: a hand holding the card often covers much of
    one side, and a card lying on a board whose rim has the card frame's colour has no step
    there. Two nearly parallel lines and a line across them that run along edges are three of
    the card's sides; the calibrated cards' shape says where the fourth lies (the pair may be
    the long sides or the short ones, and the card may lie on either side of the line across:
    each is tried). The outline is partly guessed and the card may lean a little (its shape on
    the picture is not quite the calibrated one), so it is taken only when ``partial.confirm``
    finds its print, lined up, like the calibration cards'. Corners clockwise, ``mask`` pixels.
    """
    ox, oy, sw, sh = frame
    tilt = math.radians(float(cfg["edge_tilt_degrees"]))
    cos_tol = math.cos(math.radians(float(cfg["edge_direction_degrees"])))
    support = float(cfg["three_side_support"])
    if not pairs or not lines or partial.budget[0] <= 0:
        return None
    # every pair with every line across it: the corners where the line across meets the pair
    pt = np.array([[p[0][0], p[1][0]] for p in pairs])  # (n, 2) normal angles
    pr = np.array([[p[0][1], p[1][1]] for p in pairs])
    mid = np.array([p[2] for p in pairs])
    lt = np.array([ln[0] for ln in lines])
    lr = np.array([ln[1] for ln in lines])
    d = np.abs(mid[:, None] - lt[None, :]) % math.pi
    across = np.abs(np.minimum(d, math.pi - d) - math.pi / 2) <= tilt
    a, c = np.nonzero(across)
    if len(a) == 0:
        return None

    def cross(t1: np.ndarray, r1: np.ndarray, t2: np.ndarray, r2: np.ndarray) -> np.ndarray:
        c1, s1, c2, s2 = np.cos(t1), np.sin(t1), np.cos(t2), np.sin(t2)
        det = c1 * s2 - s1 * c2
        det = np.where(np.abs(det) < 1e-6, np.nan, det)
        return np.stack([(r1 * s2 - r2 * s1) / det, (c1 * r2 - c2 * r1) / det], axis=-1)

    # the pair and the line across come from thousands of combinations in a busy picture (a
    # board's lanes, a grid of cards): each line's edge pixels are looked up once, and a side's
    # support is then a difference of running counts along its line
    index = {(t, r): i for i, (t, r, _) in enumerate(lines)}
    la = np.array([[index[p_[0]], index[p_[1]]] for p_ in pairs])  # (n, 2) the pair's lines
    run = _Runs(lt, lr, edge, direction, cos_tol)
    p = cross(lt[c], lr[c], pt[a, 0], pr[a, 0])  # on the pair's first line
    q = cross(lt[c], lr[c], pt[a, 1], pr[a, 1])  # on its second
    ok = np.isfinite(p).all(axis=1) & np.isfinite(q).all(axis=1)
    p, q, a, c = p[ok], q[ok], a[ok], c[ok]
    width = np.linalg.norm(q - p, axis=1)
    # the side across must itself run along edges (checked first: it prunes most)
    keep = run.support(c, p, q) >= support
    p, q, a, c, width = p[keep], q[keep], a[keep], c[keep], width[keep]
    if len(p) == 0:
        return None
    # the pair's two lines run from the line across to the fourth side, parallel to it at the
    # card's length (or width) from it
    quads, sides = [], []
    for length in (width * partial.aspect, width / partial.aspect):
        for sign in (1.0, -1.0):
            far = lr[c] + sign * length
            p2 = cross(lt[c], far, pt[a, 0], pr[a, 0])
            q2 = cross(lt[c], far, pt[a, 1], pr[a, 1])
            quads.append(np.stack([p, q, q2, p2], axis=1))
            sides.append(la[a])
    quad_all = np.concatenate(quads)  # (m, 4, 2): p, q on the side across; q2, p2 guessed
    pair_lines = np.concatenate(sides)
    fine = np.isfinite(quad_all).all(axis=(1, 2))
    # the whole card lies in the picture
    at = np.array([ox, oy], np.float64)
    fine &= ((np.nan_to_num(quad_all) + at >= -1) &
             (np.nan_to_num(quad_all) + at <= np.array([sw, sh]))).all(axis=(1, 2))
    quad_all, pair_lines = quad_all[fine], pair_lines[fine]
    if len(quad_all) == 0:
        return None
    # the two sides along the pair run along edges
    along = np.stack([run.support(pair_lines[:, 0], quad_all[:, 0], quad_all[:, 3]),
                      run.support(pair_lines[:, 1], quad_all[:, 1], quad_all[:, 2])], axis=1)
    good = along.min(axis=1) >= support
    quad_all, along = quad_all[good], along[good]
    if len(quad_all) == 0:
        return None
    x, y = quad_all[..., 0], quad_all[..., 1]
    area = 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))
    min_area = float(cfg["min_area"]) * sw * sh
    big = area >= min_area
    quad_all, along, area = quad_all[big], along[big], area[big]
    # the best-edged first, then the largest
    order_ = np.lexsort((-area, -along.min(axis=1)))
    tried: list[tuple[np.ndarray, float]] = []
    for k in order_:
        quad = quad_all[k].astype(np.float32)
        centre_, size_ = quad.mean(axis=0), float(area[k])
        if _tried_alike(centre_, size_, tried):
            continue
        if len(tried) == int(cfg["three_side_tries"]):
            break
        tried.append((centre_, size_))
        if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
            continue
        shown = np.zeros_like(mask)
        cv2.fillConvexPoly(shown, np.round(quad).astype(np.int32), 1)
        # at least this much of the card shows (the rest is the hand over it)
        if float((shown & mask).sum()) < float(cfg["three_side_fill"]) * size_:
            continue
        quad = _clockwise(quad)
        if partial.budget[0] <= 0:
            return None
        partial.budget[0] -= 1
        if partial.confirm(quad + partial.at):
            return quad
    return None


def _rectangles(pairs: list[tuple[tuple[float, float], tuple[float, float], float]],
                tilt: float, min_area: float, shape: tuple[float, float]) -> list[np.ndarray]:
    """The convex quadrilaterals of the card's shape that two pairs of nearly parallel lines,
    nearly across each other, enclose; largest first."""
    if len(pairs) < 2:
        return []
    a, b = np.triu_indices(len(pairs), 1)
    mid = np.array([pr[2] for pr in pairs])
    d = np.abs(mid[a] - mid[b]) % math.pi
    across = np.abs(np.minimum(d, math.pi - d) - math.pi / 2) <= tilt
    a, b = a[across], b[across]
    if len(a) == 0:
        return []
    t = np.array([[pr[0][0], pr[1][0]] for pr in pairs])  # (n, 2) normal angles
    r = np.array([[pr[0][1], pr[1][1]] for pr in pairs])

    def cross(t1: np.ndarray, r1: np.ndarray, t2: np.ndarray, r2: np.ndarray) -> np.ndarray:
        c1, s1, c2, s2 = np.cos(t1), np.sin(t1), np.cos(t2), np.sin(t2)
        det = c1 * s2 - s1 * c2
        det = np.where(np.abs(det) < 1e-6, np.nan, det)
        return np.stack([(r1 * s2 - r2 * s1) / det, (c1 * r2 - c2 * r1) / det], axis=-1)

    # corners l1^m1, m1^l2, l2^m2, m2^l1 (each side on one line)
    quads = np.stack([cross(t[a, 0], r[a, 0], t[b, 0], r[b, 0]),
                      cross(t[b, 0], r[b, 0], t[a, 1], r[a, 1]),
                      cross(t[a, 1], r[a, 1], t[b, 1], r[b, 1]),
                      cross(t[b, 1], r[b, 1], t[a, 0], r[a, 0])], axis=1)  # (m, 4, 2)
    ok = np.isfinite(quads).all(axis=(1, 2))
    quads = np.where(ok[:, None, None], quads, 0.0)
    e = np.roll(quads, -1, axis=1) - quads
    nxt = np.roll(e, -1, axis=1)
    turns = e[:, :, 0] * nxt[:, :, 1] - e[:, :, 1] * nxt[:, :, 0]
    convex = (turns > 0).all(axis=1) | (turns < 0).all(axis=1)
    x, y = quads[..., 0], quads[..., 1]
    area = 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))
    sides = np.linalg.norm(e, axis=2)
    one, other = (sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2
    short, long_ = np.minimum(one, other), np.maximum(one, other)
    ratio = long_ / np.maximum(short, 1e-6)
    ok &= convex & (area >= min_area) & (short >= 8) & (ratio >= shape[0]) & (ratio <= shape[1])
    order_ = np.flatnonzero(ok)[np.argsort(-area[ok], kind="stable")]
    return [quads[k].astype(np.float32) for k in order_]


def _outermost(quad: np.ndarray, edge: np.ndarray, direction: np.ndarray, cos_tol: float,
               cfg: dict[str, Any]) -> np.ndarray:
    """Each side moved out to the outermost edge parallel to it close outside: a frame printed
    along the card's edge is a second, inner rectangle, and where the frame's colour meets
    something as dark (a hand, a board's rim) only the inner one is whole. The card's outline
    is the outer one wherever it shows along enough of the side."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    reach = int(float(cfg["frame_reach"]) * float(sides.min()))
    centre = quad.mean(axis=0)
    lines = []
    for side in range(4):
        p, q = quad[side], quad[(side + 1) % 4]
        along = (q - p) / max(float(np.linalg.norm(q - p)), 1e-6)
        normal = np.array([-along[1], along[0]])
        if normal @ (p - centre) < 0:
            normal = -normal
        steps = np.arange(2, reach + 1, dtype=np.float64)
        shift = 0.0
        if len(steps):
            moved = np.stack([p + steps[:, None] * normal, q + steps[:, None] * normal], axis=1)
            ok = np.flatnonzero(_segment_support(moved, edge, direction, cos_tol) >=
                                cfg["frame_support"])
            shift = float(steps[ok[-1]]) if len(ok) else 0.0
        lines.append((math.atan2(normal[1], normal[0]), float(p @ normal) + shift))
    corners = [_intersect(lines[(s - 1) % 4], lines[s]) for s in range(4)]
    if any(c is None for c in corners):
        return quad
    return np.array(corners, np.float32)


def _clockwise(quad: np.ndarray) -> np.ndarray:
    a, b = quad[1] - quad[0], quad[3] - quad[0]
    return quad if a[0] * b[1] - a[1] * b[0] > 0 else quad[::-1].copy()


def _refine(quad: np.ndarray, pixels: np.ndarray, direction: np.ndarray,
            cos_tol: float) -> np.ndarray:
    """Each side fitted to the edge pixels (``pixels``: x, y) along it (perspective: opposite
    sides need not be parallel); a side with too few keeps its place."""
    box = np.concatenate([quad.min(axis=0) - 3, quad.max(axis=0) + 3])
    pts = pixels[(pixels[:, 0] >= box[0]) & (pixels[:, 1] >= box[1]) &
                 (pixels[:, 0] <= box[2]) & (pixels[:, 1] <= box[3])]
    xs, ys = pts[:, 0].astype(np.int64), pts[:, 1].astype(np.int64)
    steps = direction[ys, xs]
    lines = []
    for side in range(4):
        p, q = quad[side].astype(np.float64), quad[(side + 1) % 4].astype(np.float64)
        along = (q - p) / max(float(np.linalg.norm(q - p)), 1e-6)
        normal = np.array([-along[1], along[0]])
        t = (pts - p) @ along / max(float(np.linalg.norm(q - p)), 1e-6)
        near = (np.abs((pts - p) @ normal) <= 1.5) & (t > 0.05) & (t < 0.95)
        theta = math.atan2(normal[1], normal[0])
        near &= np.abs(np.cos(steps - theta)) >= cos_tol
        if near.sum() >= 8:
            vx, vy, x0, y0 = cv2.fitLine(pts[near].astype(np.float32), cv2.DIST_L2, 0, 0.01,
                                         0.01).ravel()
            n_ = np.array([-vy, vx], np.float64)
            lines.append((math.atan2(n_[1], n_[0]), float(np.array([x0, y0]) @ n_)))
        else:
            lines.append((theta, float(p @ normal)))
    corners = [_intersect(lines[(s - 1) % 4], lines[s]) for s in range(4)]
    if any(c is None for c in corners):
        return quad
    refined = np.array(corners, np.float32)
    if not cv2.isContourConvex(refined.reshape(-1, 1, 2)) or \
            float(np.abs(refined - quad).max()) > 4:
        return quad
    return refined


def _side_line(points: np.ndarray, centre: np.ndarray, angle: float, reach: float,
               cfg: dict[str, Any]) -> tuple[np.ndarray, float, int]:
    """The straight card edge facing ``angle`` (radians, outward normal) among outline points:
    the line, within a few degrees of that normal, that the most outline points lie on.

    A hand over the card adds outline that bulges out or bites in, but no long straight run
    beside the card's own edge, so the edge's own points win. Returns (normal, offset, count).
    """
    steps = int(cfg["edge_tilt_degrees"])
    tilt = math.radians(steps)
    phis = np.linspace(angle - tilt, angle + tilt, 2 * steps + 1)
    normals = np.stack([np.cos(phis), np.sin(phis)], axis=1)  # (n, 2)
    d = (points - centre) @ normals.T  # (p, n)
    keep = d > 0.4 * reach  # this side's half of the outline
    if not keep.any():
        return normals[steps], 0.0, 0
    bins = np.round(d).astype(np.int64)
    width = int(bins.max()) + 3
    which = np.broadcast_to(np.arange(len(phis)), d.shape)
    hist = np.bincount((which * width + bins + 1)[keep],
                       minlength=len(phis) * width).reshape(len(phis), width)
    # an edge one pixel off straight (perspective, rounding) still counts as one line
    runs = hist[:, :-2] + hist[:, 1:-1] + hist[:, 2:]
    row, col = np.unravel_index(int(runs.argmax()), runs.shape)
    normal, offset, count = normals[row], float(col), int(runs[row, col])
    # the search steps by a degree and a pixel: fit the line to the points on it
    on = np.abs((points - centre) @ normal - offset) <= 1.5
    if on.sum() >= 8:
        vx, vy, x0, y0 = cv2.fitLine(points[on].astype(np.float32), cv2.DIST_L2, 0, 0.01,
                                     0.01).ravel()
        fitted = np.array([-vy, vx], np.float64)
        if fitted @ normal < 0:
            fitted = -fitted
        normal = fitted
        offset = float((np.array([x0, y0]) - centre) @ normal)
    return normal, offset, count


def _card_outline(mask: np.ndarray, cfg: dict[str, Any], shape: tuple[float, float],
                  frame: tuple[int, int, int, int]) -> np.ndarray | None:
    """The card's four corners (clockwise, in ``mask`` pixels) in a blob that holds the card
    and maybe a hand over its edge, or None when the blob is not card-shaped. ``frame`` is the
    mask's place in the picture (x, y, picture width, height): the picture's border is no edge
    of the card."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = np.concatenate(contours).reshape(-1, 2).astype(np.float64)
    (cx, cy), (rw, rh), rect_angle = cv2.minAreaRect(outline.astype(np.float32))
    ox, oy, sw, sh = frame
    gx, gy = outline[:, 0] + ox, outline[:, 1] + oy
    # (an edge dilated along the border can leave the outline a pixel or two inside it)
    outline = outline[(gx > 2) & (gy > 2) & (gx < sw - 3) & (gy < sh - 3)]
    if len(outline) < 16:
        return None
    if min(rw, rh) < 8:
        return None
    centre = np.array([cx, cy])
    base = math.radians(rect_angle)
    halves = (rw / 2, rh / 2, rw / 2, rh / 2)
    for _ in range(2):
        lines = []
        turns = []
        for side in range(4):
            normal, offset, count = _side_line(outline, centre, base + side * math.pi / 2,
                                               halves[side], cfg)
            length = 2 * halves[(side + 1) % 4]
            # an edge must show along a good part of the card: fingers may cover some of it
            if count < cfg["min_edge_support"] * length:
                return None
            lines.append((normal, offset + normal @ centre))
            turn = math.atan2(normal[1], normal[0]) - (base + side * math.pi / 2)
            turns.append((turn + math.pi) % (2 * math.pi) - math.pi)
        # a blob cut by the picture's border (or bitten by fingers) can turn its rectangle away
        # from the card's: search again around the edges found
        mean_turn = float(np.mean(turns))
        if abs(mean_turn) < math.radians(2):
            break
        base += mean_turn
    corners = []
    for side in range(4):
        (n1, c1), (n2, c2) = lines[side], lines[(side + 1) % 4]
        a = np.array([n1, n2])
        if abs(np.linalg.det(a)) < 1e-6:
            return None
        corners.append(np.linalg.solve(a, np.array([c1, c2])))
    quad = np.array(corners, np.float32)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return None
    short, long_ = _mean_sides(quad)
    if short > long_:
        short, long_ = long_, short
    if short < 8 or not shape[0] <= long_ / short <= shape[1]:
        return None
    inside = np.zeros_like(mask)
    cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1)
    quad_area = float(inside.sum())
    # most of the card must be in view (and the outline found must not run far past the blob)
    if quad_area < cfg["min_visible"] * float(cv2.contourArea(quad)):
        return None
    covered = float((inside & mask).sum())
    # the card fills its outline (fingers over the edge take a little away), and what sticks
    # out of it (a hand, a thumb) is small beside it
    if covered < cfg["min_fill"] * quad_area:
        return None
    if float(mask.sum()) - covered > cfg["max_outside"] * quad_area:
        return None
    return quad


def plain_card(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card warped to the canonical size as it is (no white balance: its :func:`sketch`
    needs none), cheaply: what is judged for every card-shaped outline in view."""
    w, h = canonical_size()
    big = np.array([[0, 0], [2 * w, 0], [2 * w, 2 * h], [0, 2 * h]], np.float32)
    H = cv2.getPerspectiveTransform(quad.astype(np.float32), big)
    card = cv2.warpPerspective(image, H, (2 * w, 2 * h), flags=cv2.INTER_LINEAR)
    return np.asarray(cv2.resize(card, (w, h), interpolation=cv2.INTER_AREA), np.float32)


def warp_card(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card warped to the canonical size, white-balanced on its own paper (float32)."""
    w, h = canonical_size()
    big = np.array([[0, 0], [4 * w, 0], [4 * w, 4 * h], [0, 4 * h]], np.float32)
    H = cv2.getPerspectiveTransform(quad.astype(np.float32), big)
    card = cv2.warpPerspective(image, H, (4 * w, 4 * h), flags=cv2.INTER_LINEAR)
    card = cv2.resize(card, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    # the paper's white is estimated around each pixel (the brightest nearby, smoothed), so a
    # shadow or a lighting gradient across the card does not shift the part colours
    size = int(section("order")["white_window"])
    kernel = np.ones((size, size), np.uint8)
    local = cv2.GaussianBlur(cv2.dilate(card, kernel), (0, 0), size / 2)
    overall = np.percentile(card.reshape(-1, 3), 95, axis=0)
    white = np.maximum(np.maximum(local, 0.5 * overall), 8.0)
    return np.asarray(card / white)


def align(image: np.ndarray, quad: np.ndarray, template: np.ndarray,
          both_ways: bool = False, far: float | None = None) -> np.ndarray:
    """The card's outline moved so that its print lines up with the calibration cards' mean
    print (``template``, a :func:`sketch`): an outline found a little off (a side on a board's
    edge beside the card, a hand of the frame's colour, perspective) is put right by matching
    what is printed inside it (enhanced correlation, an affine map, a few canonical pixels at
    most). Upside down cards are matched against the template turned.

    Which way up to match is guessed from the print inside the outline as found, and an
    outline a few pixels off can make that guess wrong (the head and the legs are both
    rounded shapes of about one size: shifted, one lies where the other should); lined up
    with the wrong end, the print then says the card is the other way up. With ``both_ways``
    the print is lined up both ways and the better match kept: what the reader reads from,
    once per card found (the outlines judged while looking for a card take the guess).

    With ``far`` (a likeness), a move of more than ``align_max`` canonical pixels, up to
    ``align_far``, is taken when the print then is at least that like the template: a side on
    the edge of a palm held just beyond the card's (other art 11513 o002: the card's own edge,
    frame against skin, lay 7 canonical pixels inside; lined up, the print matched 0.93)."""
    cfg = section("order")
    w, h = canonical_size()
    rim, m = int(cfg["sketch_rim"]), int(cfg["align_margin"])
    canon = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    H = cv2.getPerspectiveTransform(quad.astype(np.float32), (canon + m) * 4)
    big = cv2.warpPerspective(image, H, (4 * (w + 2 * m), 4 * (h + 2 * m)),
                              flags=cv2.INTER_LINEAR)
    ext = cv2.resize(big, (w + 2 * m, h + 2 * m), interpolation=cv2.INTER_AREA)
    grey = np.ascontiguousarray(ext.astype(np.float32).mean(axis=2))
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    drawn = cv2.GaussianBlur(cv2.magnitude(gx, gy), (0, 0), float(cfg["sketch_blur"]))
    if both_ways:
        targets = [template, template[::-1, ::-1]]
    else:
        inner = drawn[m + rim:m + h - rim, m + rim:m + w - rim]
        turned = float((inner * template[::-1, ::-1]).sum()) > float((inner * template).sum())
        targets = [template[::-1, ::-1] if turned else template]
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, int(cfg["align_iterations"]),
                1e-4)
    best: tuple[float, np.ndarray] | None = None
    inverse = np.linalg.inv(H)

    def in_picture(corners: np.ndarray) -> np.ndarray:
        return np.asarray(cv2.perspectiveTransform((corners * 4)[None].astype(np.float64),
                                                   inverse)[0], np.float32)
    # a fit that does not converge is tried again with a turn and a shift only: left out, the
    # other way's fit alone was taken, its print then said the card was that way up, and an
    # upright card was read with head and legs swapped at full confidence (third art g2562
    # o019: upright, the affine fit and a shift alone did not converge, a turn and shift fitted
    # 0.83; turned, the affine fit reached 0.74 with the outline moved 4 pixels down)
    motions = [cv2.MOTION_AFFINE]
    if bool(cfg["align_euclidean_too"]):
        motions.append(cv2.MOTION_EUCLIDEAN)
    for target in targets:
        fitted = _fit_print(target, drawn, m + rim, motions, criteria)
        if fitted is None:  # not lined up this way
            continue
        match, warp = fitted
        # template pixel x is canonical pixel x + rim; pixel i's centre is at i + 0.5
        corners = (canon - rim - 0.5) @ warp[:, :2].T + warp[:, 2] + 0.5
        moved = float(np.abs(corners - (canon + m)).max())
        if moved > float(cfg["align_max"]) and (
                far is None or moved > float(cfg["align_far"]) or
                likeness(sketch(plain_card(image, in_picture(corners))), template) < far):
            continue
        if best is None or match > best[0]:
            best = (match, corners)
    if best is None:  # the outline stays as found
        return quad
    return in_picture(best[1])


def _fit_print(target: np.ndarray, drawn: np.ndarray, at: int, motions: list[int],
               criteria: tuple[int, int, float]) -> tuple[float, np.ndarray] | None:
    """``target`` (a sketch) fitted onto ``drawn`` by enhanced correlation, started ``at``
    pixels in along both axes: the first of ``motions`` that converges, its correlation and
    2x3 warp; None when none does."""
    for motion in motions:
        warp = np.array([[1, 0, at], [0, 1, at]], np.float32)
        try:
            match, found = cv2.findTransformECC(np.ascontiguousarray(target, np.float32), drawn,
                                                warp, motion, criteria,
                                                np.full(drawn.shape, 255, np.uint8), 1)
        except cv2.error:  # no convergence
            continue
        return float(match), np.asarray(found, np.float32)
    return None


def classes(card: np.ndarray, look: OrderLook) -> np.ndarray:
    """Each canonical pixel's colour index, or -1 (paper, print lines): (h, w)."""
    return look.model.classify(card.reshape(-1, 3)).reshape(card.shape[:2])


def read_card(card: np.ndarray, look: OrderLook) -> RobotReading:
    return read_classes(classes(card, look), look)


def read_classes(cls: np.ndarray, look: OrderLook) -> RobotReading:
    """The robot from a canonical card's colour indices (see :func:`classes`)."""
    cfg = section("order")
    colours: list[str | None] = []
    confidences: list[float] = []
    shown = float(cfg["min_part_shown"]) if look.learnt else 0.15
    for k in range(3):
        # the part's colour is what its colours say: the paper in its place is not counted
        # (default bands hold paper; a learnt place is where most calibration cards showed
        # the part, and a card whose art draws the part smaller, or a finger over it, shows
        # paper or skin in some of it), but enough of the place must show part colours
        cls_ = cls[look.masks[k]]
        counts = np.bincount(cls_[cls_ >= 0], minlength=len(look.model.names)).astype(float)
        enough = counts.sum() >= max(cfg["min_mask_pixels"], shown * len(cls_))
        if not enough and look.learnt and \
                len(cls_) * shown < float(cfg["min_mask_pixels"]):
            # a place so small that the pixel floor asks more of it than min_part_shown (a
            # thin strip where most calibration cards agreed: a head drawn round a white visor,
            # other art 15016) shows too few part pixels on a card lined up a pixel off: it is
            # read from the place grown by part_grow canonical pixels, on the same terms
            cls_ = cls[_grown_place(look.masks, k)]
            counts = np.bincount(cls_[cls_ >= 0], minlength=len(look.model.names)).astype(float)
            enough = counts.sum() >= max(cfg["min_mask_pixels"], shown * len(cls_))
        order = np.argsort(counts)[::-1]
        total = max(float(counts.sum()), 1.0)
        share, runner_up = counts[order[0]] / total, counts[order[1]] / total
        confidence = round(float(max(0.0, share - runner_up)), 3)
        confidences.append(confidence)
        if enough and share >= cfg["min_share"] and confidence >= cfg["min_confidence"]:
            colours.append(look.model.names[int(order[0])])
        else:
            colours.append(None)
    parts = (confidences[0], confidences[1], confidences[2])
    if any(c is None for c in colours):
        return RobotReading(None, 0.0, parts)
    return RobotReading("-".join(c for c in colours if c is not None), min(parts), parts)


def _grown_place(masks: np.ndarray, k: int) -> np.ndarray:
    """Part ``k``'s learnt place grown by ``order.part_grow`` canonical pixels, within the
    part's wide band and off the other parts' places."""
    size = 2 * int(section("order")["part_grow"]) + 1
    grown = cv2.dilate(masks[k].astype(np.uint8), np.ones((size, size), np.uint8)) > 0
    h = masks.shape[1]
    top, bottom = WIDE_BANDS[k]
    band = np.zeros_like(grown)
    band[int(top * h):int(bottom * h)] = True
    others = np.delete(masks, k, axis=0).any(axis=0)
    return np.asarray(grown & band & ~others)


def layout_fit(cls: np.ndarray, masks: np.ndarray) -> float:
    """How well the parts' shapes on this card match the learnt ones (mean overlap, 0..1).

    Each part's colour, where it shows in that part's wide band, is compared with the part's
    learnt mask. On a card turned upside down the legs sit where the head should be, so the
    fit drops when the head and legs are drawn differently.
    """
    h = cls.shape[0]
    fits = []
    for k, (top, bottom) in enumerate(WIDE_BANDS):
        mask = masks[k]
        inside = cls[mask]
        inside = inside[inside >= 0]
        if len(inside) == 0:
            fits.append(0.0)
            continue
        shown = np.zeros_like(mask)
        shown[int(top * h):int(bottom * h)] = cls[int(top * h):int(bottom * h)] == \
            np.bincount(inside).argmax()
        fits.append(float((shown & mask).sum()) / max(float((shown | mask).sum()), 1.0))
    return float(np.mean(fits))


def turn_evidence(cls: np.ndarray, masks: np.ndarray) -> float:
    """Positive when the card is the right way up, negative when it is upside down."""
    return layout_fit(cls, masks) - layout_fit(cls[::-1, ::-1], masks)


def which_way_up(cls: np.ndarray, look: OrderLook, card: np.ndarray | None = None) -> float:
    """How clearly the card is upright (positive) or upside down (negative), in units of the
    margin calibration asks for (1: just clear enough), or None when nothing tells.

    Two cues, each measured against how clearly it told the calibration cards' tops from their
    bottoms: where the parts' colours lie (on a card upside down the legs lie where the head
    should be) and, given the warped ``card``, the print without its colours (a title, a
    symbol in a corner, the head's and the legs' outlines). The cues learnt are averaged."""
    cues = way_up_cues(cls, look, card)
    if not cues:
        return math.nan
    evidence = float(np.mean(cues))
    # each cue must lean the way their mean says by turn_cue_least of its margin: one cue
    # alone (the print, against calibration outlines partly found on boards) took an upright
    # card for one held upside down while the colours hardly leaned (third art, blue-yellow-
    # yellow read yellow-yellow-blue at 1.0: print -2.79, colours -0.16)
    least = float(section("order")["turn_cue_least"])
    if least > 0 and any(c * math.copysign(1.0, evidence) < least for c in cues):
        return math.copysign(min(abs(evidence), 0.99), evidence)
    return evidence


def way_up_cues(cls: np.ndarray, look: OrderLook, card: np.ndarray | None = None
                ) -> list[float]:
    """The cues :func:`which_way_up` averages, each in units of its margin."""
    cues = []
    if look.learnt and look.turn_margin is not None:
        cues.append(turn_evidence(cls, look.masks) / look.turn_margin)
    if card is not None and look.sketch is not None and look.sketch_margin is not None:
        cues.append(sketch_evidence(sketch(card), look.sketch) / look.sketch_margin)
    return cues


def read_turned(cls: np.ndarray, look: OrderLook,
                card: np.ndarray | None = None) -> RobotReading:
    """The reading of a card whose top may be either end: the learnt part shapes (and, given
    the warped ``card``, its print) decide; when they do not tell clearly, the card is read
    only if it reads the same either way up."""
    upright = read_classes(cls, look)
    evidence = which_way_up(cls, look, card)
    # nothing learnt to tell top from bottom: an uncalibrated look takes the end nearer the top
    # of the picture as the top; but where calibration found that the user's cards' print and
    # part shapes do not tell them apart, that end is only a guess, and a robot held upside
    # down then reads with head and legs swapped at full confidence (other art h11523 o016, a
    # yellow-green-green card held upside down in low light read green-green-yellow): such a
    # card is read only when it reads the same either way up
    if math.isnan(evidence) and not look.learnt:
        return upright
    if not math.isnan(evidence) and evidence >= 1:
        return upright
    turned = read_classes(cls[::-1, ::-1], look)
    if not math.isnan(evidence) and evidence <= -1:
        return turned
    # a robot whose head and legs share a colour reads the same either way up
    if upright.robot is not None and (upright.robot == turned.robot or
                                      upright.robot.split("-")[0] == upright.robot.split("-")[2]):
        return upright
    return RobotReading(None, 0.0, upright.parts)


Judge = Callable[[np.ndarray], bool]


def outline_judges(image: np.ndarray, look: OrderLook) -> tuple[Judge, Judge] | None:
    """How :func:`locate` judges card-shaped outlines (picture pixels, upright) by their print,
    once calibration learnt it (None before): ``accept`` takes an outline printed like the
    calibration cards (or one a little off whose print, lined up, matches closely), and
    ``confirm`` takes only the latter (an outline partly guessed: a side under a hand)."""
    if look.sketch is None or look.min_likeness is None:
        return None
    template, least = look.sketch, look.min_likeness
    cfg = section("order")
    # min_likeness is likeness_fraction of the calibration cards' median likeness
    strict = least * float(cfg["lined_up_likeness"]) / float(cfg["likeness_fraction"])
    near = least * float(cfg["near_likeness"])

    def lined_up(quad: np.ndarray, seen: float, far: float | None = None) -> bool:
        # an outline a little off (a side on the inner edge of the card's frame, the card
        # leaning) or partly guessed (a side under a hand): its print, lined up with the
        # calibration cards' (at most align_max canonical pixels; align_far with ``far``),
        # must match about as well as they match each other; a board or a tile lined up so
        # matches far less
        if seen < near:
            return False
        moved = align(image, quad, template, far=far)
        return likeness(sketch(plain_card(image, moved)), template) >= strict

    # an outline seen on three sides is taken only when no card is seen whole, and the reader
    # then lines it up by up to align_far when its print so matches strictly (locate): it is
    # confirmed on those terms. Placed from a frame's inner edges, such an outline lay inside
    # the card's print all round, its corners 7.8 canonical pixels from where the print lines
    # up (other art 15014 o001: the card over a board, a hand over its lower end), past
    # align_max
    confirm_far = strict if bool(cfg["confirm_far"]) else None

    def confirm(quad: np.ndarray) -> bool:
        return lined_up(quad, likeness(sketch(plain_card(image, quad)), template),
                        confirm_far) and paper_round(image, quad, look)

    def accept(quad: np.ndarray) -> bool:
        # card-shaped, but not printed like the user's robot cards: a personal board, a
        # face-down card, or a card with the board beside it taken for one
        seen = likeness(sketch(plain_card(image, quad)), template)
        if seen >= strict:
            # printed as like the cards as an outline lined up must be (0.8 of their median
            # likeness; boards and lanes lined up match 0.58 of it at most): the paper is left
            # to the reader's own check
            return True
        return (seen >= least or lined_up(quad, seen)) and paper_round(image, quad, look)

    return accept, confirm


def locate(image: np.ndarray, look: OrderLook) -> np.ndarray:
    """The card's corners in picture pixels (upright, clockwise), as the reader uses them: a
    card-shaped outline is taken only when printed like the calibration cards, then lined up
    with their print. Raises :class:`NoCardFound`."""
    judges = outline_judges(image, look)
    accept, confirm = (None, None) if judges is None else judges
    template = look.sketch
    if template is None:
        return find_card(image, look.aspect, look.area, accept, confirm, look.dark_paper,
                         look.dark_paper)

    def print_likeness(quad: np.ndarray) -> float:
        return likeness(sketch(plain_card(image, quad)), template)

    quad = find_card(image, look.aspect, look.area, accept, confirm, look.dark_paper,
                     look.dark_paper, print_likeness, leaked=True)
    # a larger move is taken only when the print then matches as closely as an outline lined
    # up is asked to (see outline_judges)
    far = None if look.min_likeness is None else look.min_likeness * float(
        section("order")["lined_up_likeness"]) / float(section("order")["likeness_fraction"])
    moved = align(image, quad, template, both_ways=True, far=far)
    if look.aspect is not None and bool(section("order")["lined_up_shape"]):
        # lined up, the outline must still have about the card's shape, upright: the affine
        # fit scales each way on its own, and may fit the print squashed (other art 40015
        # o002: a card under a thumb found on three sides, its top guessed low; lined up far,
        # its outline was 0.87 as tall as wide against the cards' 1.44, 0.60 of their shape,
        # and the torso and legs filled it, read as a head and a torso turned:
        # blue-yellow-yellow at 1.0 for blue-yellow-blue). A tenth declined 32 cards read right
        # over 183 sets (the 15 measured lay at 0.86-1.16 of it); a quarter declines none
        tolerance = float(section("order")["lined_up_aspect_tolerance"])
        if abs(upright_aspect(moved) / look.aspect - 1.0) > tolerance:
            raise NoCardFound("the card's outline does not line up with its print")
    return moved


def upright_aspect(quad: np.ndarray) -> float:
    """An upright outline's height over its width (corners clockwise from the top left): a
    portrait card's :func:`card_aspect`, below 1 for an outline lying across."""
    down, across = _mean_sides(quad)
    return down / max(across, 1e-6)


def read_order_region(image: np.ndarray, look: OrderLook) -> tuple[OrderObservation, Region]:
    if look.declines:
        raise NoCardFound("the camera could not learn the robot cards in its set-up: "
                          "order cards are asked by touch")
    quad = locate(image, look)
    card = warp_card(image, quad)
    cls = classes(card, look)
    reading = read_turned(cls, look, plain_card(image, quad))
    if reading.robot is not None and look.learnt and look.colour_outside is not None and \
            colour_outside(cls, look.masks) > look.colour_outside + \
            float(section("order")["paper_margin"]):
        # part colours where the user's cards show paper: not such a card (part of a board's
        # lanes, a card of another game), or a hand over it
        reading = RobotReading(None, 0.0, reading.parts)
    if reading.robot is not None and look.paper_share is not None and \
            paper_shown(card, look.masks, look.dark_paper) < \
            float(section("order")["paper_fraction"]) * \
            look.paper_share:
        # no paper round the robot: a board's lanes (and its frame) taken for a held card
        reading = RobotReading(None, 0.0, reading.parts)
    x0, y0 = np.maximum(quad.min(axis=0), 0)
    x1, y1 = quad.max(axis=0)
    return OrderObservation(reading), (int(x0), int(y0), int(x1), int(y1))


def paper_round(image: np.ndarray, quad: np.ndarray, look: OrderLook) -> bool:
    """Whether an outline (picture pixels, upright) shows the user's cards' paper round the
    robot, as the reader asks of the card it reads (:func:`read_order_region`): part colours
    outside the learnt part places at most ``paper_margin`` more than the calibration cards
    showed, and paper at least ``paper_fraction`` of theirs. Two lanes of a board framed by
    its margin can pass for a card by their print (other art 11515 o011: larger than the held
    card, so taken over it, then declined by these very tests): judged so while looking, they
    are passed over and the search goes on to the card. True before calibration learnt them."""
    if not look.learnt:
        return True
    cfg = section("order")
    card = warp_card(image, quad)
    if look.colour_outside is not None and colour_outside(classes(card, look), look.masks) > \
            look.colour_outside + float(cfg["paper_margin"]):
        return False
    return look.paper_share is None or \
        paper_shown(card, look.masks, look.dark_paper) >= \
        float(cfg["paper_fraction"]) * look.paper_share


def colour_outside(cls: np.ndarray, masks: np.ndarray) -> float:
    """The share of a canonical card's pixels outside the part places that show a part colour."""
    outside = ~masks.any(axis=0)
    return float((cls[outside] >= 0).mean()) if outside.any() else 0.0


def paper_shown(card: np.ndarray, masks: np.ndarray, dark: bool = False) -> float:
    """The share of a canonical card's pixels outside the part places that show paper: white
    on the card white-balanced on its own paper (:func:`warp_card`), so a tinted paper or a
    shadow still counts, and the lanes of a board (saturated colours, a dark frame) do not.

    With ``dark`` (the user's cards are printed on dark paper, :attr:`OrderLook.dark_paper`),
    paper is grey instead: channels within ``paper_chroma`` of each other, the brightest under
    ``paper_white``. Balanced on what is brightest near it (a part's colour, the card's pale
    rim), a dark grey paper lies at about 0.3-0.4 (third art g2448) and never passes as white;
    a board's lanes are still saturated, and its pale margin is no longer paper either."""
    outside = ~masks.any(axis=0)
    if not outside.any():
        return 1.0
    cfg = section("order")
    low, high = card.min(axis=2), card.max(axis=2)
    grey = high - low <= float(cfg["paper_chroma"])
    if dark:
        paper = grey & (high < float(cfg["paper_white"]))
    else:
        paper = grey & (low >= float(cfg["paper_white"]))
    return float(paper[outside].mean())


def read_order(image: np.ndarray, look: OrderLook) -> OrderObservation:
    """The robot on the card. Raises :class:`NoCardFound` when no card is seen."""
    return read_order_region(image, look)[0]


def learn(examples: list[tuple[np.ndarray, str]], fallback: ColourModel) -> OrderLook:
    """Learn the card's part colours and where each part is printed from (image, robot) pairs."""
    # the markers in each calibration picture, found once for every pass below
    centres = [_marker_centres(image) for image, _ in examples]
    look, used, pale = _learn_papered(examples, fallback, False, centres=centres)
    # cards that showed hardly any white round the robot were learnt on pale paper by their
    # print's likeness alone (third art d2301, f2427, g2482: dark purple and dark green
    # papers, 0.02-0.04 of white): the reader's paper test then asks for a share of almost
    # nothing (d2301 o009, o018 read right, declined at 0.004 of white against 0.007), and
    # their cards are not looked for at the faint edge levels. Dark paper is tried for them
    # too, and kept when it learns from as many cards
    little = look.paper_share is not None and \
        look.paper_share < float(section("order")["faint_paper_share"])
    if used >= int(section("order")["calibration_least_cards"]) and not little:
        return look
    # cards printed on dark paper (dark grey, navy) show no white round the robot: every
    # calibration card failed the paper test, so a card held upside down was not turned round
    # (only cards showing paper are) and its legs' colours were learnt as its head's (third art
    # g2448: the learnt yellow lay nearest the boards' green, and all 20 order cards were
    # declined), and a pale board beside the card, showing paper, was taken for it (d2304). The
    # cards are then looked for again with grey paper taken for theirs (:func:`paper_shown`
    # with ``dark``), and that is kept when it learns from more cards. Whatever pale paper
    # taught (two cards or more) stays as it was
    # (where no calibration card showed pale paper, the cards are looked for as the largest
    # outline at any edge level, see :func:`_learn_papered`)
    dark, more, _ = _learn_papered(examples, fallback, True, whole=not pale, centres=centres)
    if not pale and bool(section("order")["dark_paper_both_ways"]):
        # ... and as the pale rule found them too: a dark card with a bright rim (an orange
        # border round dark grey paper, third art g2574) is found by its rim as any card is,
        # where the largest outline at any edge level missed one of the four (three cards
        # learnt that way, four found the usual way; kept pale, 0.02 of white asked for, the
        # right readings were declined at 0.002-0.006)
        usual, counted, _ = _learn_papered(examples, fallback, True, centres=centres)
        if usual.learnt and (counted > more or not dark.learnt):
            dark, more = usual, counted
    return dark if dark.learnt and (more > used or (little and more == used)) else look


def _learn_papered(examples: list[tuple[np.ndarray, str]], fallback: ColourModel,
                   dark: bool, whole: bool = False,
                   centres: list[list[np.ndarray]] | None = None
                   ) -> tuple[OrderLook, int, bool]:
    """The look learnt from the calibration pictures' cards, their paper pale or (``dark``)
    dark, how many cards it was learnt from, and whether any card found showed its paper.
    With ``dark``, the largest outlines are learnt from only when at least
    ``calibration_min_papered`` of them show dark paper (the user's cards are so printed:
    outlines showing no paper of either kind teach nothing new). With ``whole`` (and ``dark``)
    each picture's card is the largest outline at any edge level that may be one
    (:func:`_card_outlines`) rather than :func:`_calibration_card`'s. ``centres``: each
    picture's :func:`_marker_centres`, when already found."""
    found: list[tuple[np.ndarray, bool] | None] = []
    seen = centres if centres is not None else [None] * len(examples)
    for (image, robot), held in zip(examples, seen, strict=True):
        # with ``whole``, the largest outline at any edge level that may be the card: the
        # search for the largest card stops where two edge levels in a row find one size,
        # and on a dark table the robot's head and torso were so found twice before the level
        # that shows the card's edge (third art g2490: three of four calibration outlines on
        # the robot, 0.05 of the picture, the cards 0.16 to 0.24). Only where no card showed
        # pale paper: beside a white card among a board's lanes, the lanes were so learnt with
        # it, dark paper taken for theirs (test_order_calibration_lanes: paper share 0.18)
        largest = _card_outlines(image, robot, fallback, dark, held)[:1] \
            if dark and whole else []
        if largest:
            found.append((largest[0], True))
            continue
        try:
            found.append(_calibration_card(image, robot, fallback, dark, held))
        except NoCardFound:
            found.append(None)
    look, used = OrderLook.unlearnt(fallback), 0
    if not dark or sum(1 for f in found if f is not None and f[1]) >= \
            int(section("order")["calibration_min_papered"]):
        look, used = _learn_from(examples, found, fallback, dark)
    shown = any(f is not None and f[1] for f in found)
    if used >= int(section("order")["calibration_least_cards"]):
        return look, used, shown
    # the largest outline of each picture taught nothing (no part place agreed, the outlines
    # unlike each other, a look misreading its own cards) or one card alone: where boards lie
    # beside cards held farther away, the boards or some of their lanes are the largest
    # outlines, and the cards may be smaller than the least a card is looked for at before
    # calibration (other art 18014: two of four outlines were two lanes of a board whose
    # colours the labels have, the cards 0.025 and 0.038 of the picture). The calibration
    # cards are then looked for among every outline that may be one, as the outlines whose
    # prints are most alike; what was learnt first stays unless that learns from more cards
    alike = _alike_outlines(examples, fallback, dark, centres)
    if alike is None:
        return look, used, shown
    second, more = _learn_from(examples, alike, fallback, dark)
    return (second, more, shown) if second.learnt and more > used else (look, used, shown)


def _learn_from(examples: list[tuple[np.ndarray, str]],
                found: list[tuple[np.ndarray, bool] | None],
                fallback: ColourModel, dark: bool = False) -> tuple[OrderLook, int]:
    """The look learnt from each calibration picture's card outline (``found``: the outline and
    whether it shows paper round the robot, None where none was found), and how many cards it
    was learnt from (0 when it learnt nothing). With ``dark`` the cards' paper is dark
    (:func:`paper_shown`), and the look learnt says so."""
    cfg = section("order")
    names = fallback.names
    found = _held_turned(examples, found, fallback)
    cards: list[np.ndarray] = []
    labels: list[list[int]] = []
    aspects: list[float] = []
    areas: list[float] = []
    plain: list[np.ndarray] = []
    papered: list[bool] = []
    for (image, robot), outline in zip(examples, found, strict=True):
        if outline is None:
            continue
        quad, shows_paper = outline
        papered.append(shows_paper)
        cards.append(warp_card(image, quad))
        plain.append(plain_card(image, quad))
        labels.append([names.index(c) for c in robot.split("-")])
        aspects.append(card_aspect(quad))
        areas.append(float(cv2.contourArea(quad)) / (image.shape[0] * image.shape[1]))
    shown = sum(papered)
    if not all(papered) and (shown >= int(cfg["calibration_min_papered"]) or
                             0 < shown < len(papered) / 2):
        # outlines with no paper round the robot (a board's lanes taken for the card) are left
        # out while enough cards that show paper remain: their colours would be learnt as the
        # robot's parts. Where most outlines were boards (other art 13543: three of four), the
        # cards that do show paper are all that is learnt from: learning the boards, whose
        # likeness to each other outvoted the one card, taught a card with no paper, and a pale
        # forearm was then read as a robot (o019, green-green-green at 1.0)
        keep = [i for i in range(len(cards)) if papered[i]]
        cards, labels = [cards[i] for i in keep], [labels[i] for i in keep]
        plain = [plain[i] for i in keep]
        aspects, areas = [aspects[i] for i in keep], [areas[i] for i in keep]
    if not cards:
        return OrderLook.unlearnt(fallback), 0
    # an outline found wrongly on a calibration picture (the robot printed on the card, the
    # card with a board beside it) would teach a wrong shape and wrong part places: a card whose
    # print is much less like the others' than they are like each other is left out
    alike = _alike(plain)
    if len(cards) >= 3 and float(np.median(alike)) <= 0.0:
        # the prints found are no more like each other than unrelated pictures: the outlines
        # were found on something else (other art 12156: three calibration cards, likeness
        # -0.02 to -0.12), so nothing can be learnt from them; the reader keeps the defaults
        # rather than learn a shape and part places from whatever they were, and declines
        # cards: the defaults read such art with full confidence, turned cards wrong
        return OrderLook.unlearnt(fallback), 0
    if len(cards) >= 3:
        least = float(cfg["likeness_fraction"]) * float(np.median(alike))
        keep = [i for i in range(len(cards)) if alike[i] >= least]
        cards, labels = [cards[i] for i in keep], [labels[i] for i in keep]
        plain = [plain[i] for i in keep]
        aspects, areas = [aspects[i] for i in keep], [areas[i] for i in keep]
    aspect = float(np.median(aspects))
    w, h = canonical_size()
    # 1. colours: the saturated pixels of each default band show that part's colour
    bands = default_masks()
    samples: dict[str, list[np.ndarray]] = {n: [] for n in names}
    for card, lab in zip(cards, labels, strict=True):
        chroma = card.max(axis=2) - card.min(axis=2)
        for k in range(3):
            sel = card[bands[k] & (chroma > 0.2)]
            if len(sel):
                med = np.median(sel, axis=0)
                sel = sel[np.linalg.norm(sel - med, axis=1) < 0.25]
                samples[names[lab[k]]].append(sel)
    model = ColourModel.fit({n: np.concatenate(v) for n, v in samples.items() if v}, fallback)
    if not colours_own(model, fallback):
        # a colour learnt nearer another of the boards' colours than its own was learnt from
        # another colour's parts (cards held upside down and not seen so, a label that is not
        # the card's): it would read that colour as itself with full confidence, and the cards
        # are declined instead (third art t3 before cards held turned were turned round: the
        # learnt yellow lay nearest the boards' green, the learnt green nearest their yellow,
        # and a teal-green torso read yellow at 1.0). Over the family and the third art's sets
        # every learnt colour lies nearest its own.
        # Taken the other way round too: a learnt colour a little nearer another board colour
        # than its own passes when the learnt colours read every board colour as itself (third
        # art g2504, dark grey cards with a white rim: balanced on the rim, the learnt yellow
        # lay at 42.0 from the boards' green and 43.7 from their yellow, while the boards'
        # yellow lay at 24.5 from the learnt yellow, 122 from the learnt green; the dark pass
        # learnt nothing, pale paper one card, and 10 of 20 cards were declined). Colours
        # learnt swapped fail both ways (t7 with cards held turned not turned round)
        return OrderLook.unlearnt(fallback), 0
    # 2. where each part is printed: pixels that show the labelled colour on most cards
    agree = np.zeros((3, h, w))
    for card, lab in zip(cards, labels, strict=True):
        cls_ = model.classify(card.reshape(-1, 3)).reshape(h, w)
        for k in range(3):
            agree[k] += cls_ == lab[k]
    agree /= len(cards)
    masks = np.zeros((3, h, w), bool)
    for k, (top, bottom) in enumerate(WIDE_BANDS):
        band = np.zeros((h, w), bool)
        band[int(top * h):int(bottom * h)] = True
        masks[k] = band & (agree[k] >= cfg["mask_agreement"])
    # rows claimed by two parts (same colours on the calibration cards) belong to neither
    overlap = masks.sum(axis=0) > 1
    masks[:, overlap] = False
    if any(m.sum() < cfg["min_mask_pixels"] for m in masks):
        # the cards found do not show their labelled colours where parts are printed: they
        # were something else (a board's lanes), so neither the colours, the shape nor the size
        # learnt from them is kept (other art 16016 read two cards wrong with a board's)
        return OrderLook.unlearnt(fallback), 0
    # 3. how clearly the part shapes tell the card's top from its bottom
    look = OrderLook(model, masks, True, aspect, area=min(areas), dark_paper=dark)
    # the medians: a calibration card whose outline was found on a board's lanes (it passed the
    # likeness check) shows part colours all round and no paper, and the largest colour share
    # or the least paper share would then let such outlines through (other art 11801: 0.70 of
    # one calibration outline showed part colours, the cards' 0.01 to 0.07)
    look.colour_outside = float(np.median([colour_outside(classes(card, look), masks)
                                           for card in cards]))
    if dark and look.colour_outside > float(cfg["calibration_max_outside"]):
        # the cards show part colours over most of what lies outside the part places: the
        # colours were learnt so broad that the dark paper reads as them (third art g2465h,
        # dark cards in low light, found at the faint edge levels: 0.73 of it; a wrong card
        # at 0.46), and nothing learnt is kept. Dark paper only: with no background learnt
        # from the boards (no tile pictures) white paper reads as the default pale yellow,
        # and one card so learnt (test_order_calibration_lanes) shows 0.89, yet reads right
        return OrderLook.unlearnt(fallback), 0
    look.paper_share = float(np.median([paper_shown(card, masks, dark) for card in cards]))
    look.turn_margin = turn_margin([turn_evidence(classes(card, look), masks) for card in cards])
    _learn_sketch(look, plain, cfg)
    if _misreads_own_cards(look, examples):
        return OrderLook.unlearnt(fallback), 0
    return look, len(cards)


def colours_own(learnt: ColourModel, boards: ColourModel) -> bool:
    """Whether the colours learnt from the calibration cards are their own: each learnt colour
    lies nearest its own of the boards' colours (Mahalanobis, under the boards' model), or the
    learnt colours read each of the boards' colours as itself (under the learnt model). Colours
    learnt from another colour's parts fail both (see :func:`_learn_from`)."""
    own = np.arange(len(boards.names))
    if np.all(boards.d2_features(learnt.means.astype(np.float32)).argmin(axis=1) == own):
        return True
    return bool(np.all(learnt.d2_features(boards.means.astype(np.float32)).argmin(axis=1) == own))


def turn_margin(evidence: list[float]) -> float | None:
    """The margin a card's part shapes must tell its way up by, from how clearly they told the
    calibration cards' (``evidence``: :func:`turn_evidence` of each); None when they tell too
    little (``min_turn_evidence``) for the part shapes to be a cue at all."""
    cfg = section("order")
    median = float(np.median(evidence))
    if median >= cfg["min_turn_evidence"]:
        return float(cfg["turn_fraction"]) * median
    return None


def _label_turned(card: np.ndarray, robot: str, model: ColourModel) -> float:
    """How much better a calibration card's head and legs places show the labelled robot's
    colours with the card turned than as found: the share of their saturated pixels (those
    the colours are learnt from) nearest the labelled colour (``model``: the boards' colours),
    turned less upright, averaged over head and legs; 0 when the head and legs share a colour."""
    lab = [model.names.index(c) for c in robot.split("-")]
    if lab[0] == lab[2]:
        return 0.0
    bands = default_masks()

    def shown(c: np.ndarray) -> float:
        chroma = c.max(axis=2) - c.min(axis=2)
        shares = []
        for k in (0, 2):
            sel = bands[k] & (chroma > 0.2)
            nearest = model.d2(c[sel]).argmin(axis=1) if sel.any() else np.zeros(0, np.int64)
            shares.append(float((nearest == lab[k]).mean()) if len(nearest) else 0.0)
        return float(np.mean(shares))

    return shown(card[::-1, ::-1]) - shown(card)


def _held_turned(examples: list[tuple[np.ndarray, str]],
                 found: list[tuple[np.ndarray, bool] | None],
                 model: ColourModel) -> list[tuple[np.ndarray, bool] | None]:
    """The calibration outlines with those of cards held upside down turned round (their
    corners taken from the card's own top). An outline is taken upright, its top the end nearer
    the top of the picture, and a card held upside down then teaches its legs' colour as the
    head's and the other way round, and its part places and print turned: third art t3 held two
    of four calibration cards so (green-blue-yellow, yellow-red-green), yellow was learnt from
    their green parts (its mean a teal), and a teal-green torso under a warm lamp then read
    yellow at 1.0 (o007, red-green-red read red-yellow-red); t7 held two of four so too and
    declined 16 of 20 cards. A card is taken as held turned when it shows paper (a card, not a
    board's lanes) and its head and legs places show the labelled colours turned by at least
    ``calibration_turned`` more than as found (cards so held: 0.91 at least; the family's cards:
    0.20 at most; boards' lanes, which show no paper, up to 0.69), and its print does not
    say otherwise: against the other cards that show paper and are not so turned, it must
    match them better turned than as found (cards held turned: -0.11 to -0.49; cards held alike
    +0.29 to +0.38)."""
    least = float(section("order")["calibration_turned"])
    turned: list[bool] = []
    drawn: list[np.ndarray | None] = []
    for (image, robot), outline in zip(examples, found, strict=True):
        if outline is None or not outline[1]:
            turned.append(False)
            drawn.append(None)
            continue
        turned.append(_label_turned(warp_card(image, outline[0]), robot, model) >= least)
        drawn.append(sketch(plain_card(image, outline[0])))
    if not any(turned):
        return found
    as_found = [d for d, t in zip(drawn, turned, strict=True) if d is not None and not t]
    out: list[tuple[np.ndarray, bool] | None] = []
    for outline, held, one in zip(found, turned, drawn, strict=True):
        if held and one is not None and as_found and \
                float(np.mean([sketch_evidence(one, other) for other in as_found])) >= 0:
            held = False  # the print fits the cards as found: the colours are not trusted
        out.append((np.roll(outline[0], 2, axis=0), outline[1])
                   if held and outline is not None else outline)
    return out


def _misreads_own_cards(look: OrderLook, examples: list[tuple[np.ndarray, str]]) -> bool:
    """Whether the learnt look reads one of its own calibration cards as another robot. It would
    read the table's cards no better: what it learnt is not the cards (part places or colours
    taken from something else), and declining them is safer. A calibration card it declines
    (under a hand, too small) says nothing either way."""
    for image, robot in examples:
        try:
            reading = read_order(image, look).reading
        except NoCardFound:
            continue
        if reading.robot is not None and reading.robot != robot:
            return True
    return False


def _calibration_card(image: np.ndarray, robot: str | None = None,
                      model: ColourModel | None = None,
                      dark: bool = False,
                      centres: list[np.ndarray] | None = None) -> tuple[np.ndarray, bool]:
    """A calibration picture's card, and whether it shows paper round the robot.

    The card is the largest card-shaped outline (:func:`find_card`). With the labelled
    ``robot`` and the colours learnt from the boards' lanes (``model``, with what surrounds
    them learnt as background), an outline showing
    much of a colour that robot has not (``calibration_other_colour`` of it: a board shows
    all four lanes, a calibration card at most three colours) is a board: the largest outline
    that shows paper, some part colour and little of the others is taken instead, where there
    is one. A personal board whose margin is as pale as paper passes the paper test below, and
    taken for the card it is larger than, it taught a board's shape and its lanes as the
    robot's colours (other art 16016: three of four calibration outlines were the board, the
    one card was then left out as unlike them; 2 of 20 order cards were read wrong, at 0.79 and
    0.74, the other 18 declined). Boards so showed 0.106 to 0.207 of the colours their label
    lacks, the cards 0.006 at most. (Asking the card to read as its label instead passed over
    cards whose robot is drawn small for the default part places, and took a board that read
    so by chance.)

    It shows paper round the robot when at least ``calibration_min_paper`` of its pixels
    outside the default part places white on the card white-balanced on its own paper
    (:func:`paper_shown`). A board's lanes framed by its margin are card-shaped and larger than
    a card held beside them, which may not be found at all (under a hand, small beside the
    boards): taken for the card, their colours were learnt as the robot's parts (other art
    13011: two of its four calibration outlines were lanes, paper 0.11 and 0.13 against the
    cards' 0.43 and 0.51; blue and yellow were learnt near the cards' pale blue paper, and 17
    of 20 order cards were declined).

    (The card is not looked for past lanes that show no colour foreign to the label: on other
    art 11515 the card so found, held half under a hand, moved the learnt way-up evidence under
    its floor, 0.149 against 0.15, and 16 of 20 order cards were declined.)

    With ``dark`` the paper asked for is dark paper's (:func:`paper_shown`). ``centres``: the
    picture's :func:`_marker_centres`, when already found."""
    cfg = section("order")
    least = float(cfg["calibration_min_paper"])
    free = _free_of_markers(image, centres)
    quad = find_card(image, accept=free, faint=dark)
    if not dark and _lanes_like(image, quad):
        # a board's lanes (see _lanes_like): the largest outline that is not and shows paper as
        # a card must, where there is one (the next largest is often part of the same lanes,
        # showing no paper: the label's colour test, blind to the lanes as the paper test was,
        # would then keep it)
        def not_lanes(outline: np.ndarray) -> bool:
            return (free is None or free(outline)) and \
                paper_shown(warp_card(image, outline), default_masks()) >= least and \
                not _lanes_coloured(image, outline)

        with contextlib.suppress(NoCardFound):
            quad = find_card(image, accept=not_lanes, faint=dark)
    # without a background learnt from the boards (no tile pictures) a pale paper may be read
    # as a colour (the default pale yellow), and every card would pass for a board
    if robot is not None and model is not None and len(model.background_means):
        plain_look = OrderLook.default(model)
        wanted = [model.names.index(c) for c in robot.split("-")]
        foreign = [i for i in range(len(model.names)) if i not in wanted]
        most = float(cfg["calibration_other_colour"])

        def other_colour(outline: np.ndarray) -> tuple[float, int]:
            cls = classes(warp_card(image, outline), plain_look)
            return float(np.isin(cls, foreign).mean()), int((cls >= 0).sum())

        def a_card(outline: np.ndarray) -> bool:
            share, coloured = other_colour(outline)
            return share < most and coloured >= int(cfg["min_mask_pixels"]) and \
                paper_shown(warp_card(image, outline), default_masks(), dark) >= least and \
                (free is None or free(outline)) and (dark or not _lanes_coloured(image, outline))

        if other_colour(quad)[0] >= most:
            with contextlib.suppress(NoCardFound):  # no such outline: the largest, as before
                quad = find_card(image, accept=a_card, faint=dark)
    # lanes with no outline past them (the card under a hand, not card-shaped before
    # calibration) are still a board's: their paper is a lane white-balanced on itself, and
    # taken as a card's it was learnt from alongside the cards (third art g2748 cal-o04, a
    # board's four lanes, 0.48 paper and 0.13 of a colour its label lacks: their shape 1.25
    # was learnt as the cards' 1.4, and 8 of 20 order cards were declined, a board taken for
    # them). Shown as no paper, they are left out where two cards or more show it
    shows = paper_shown(warp_card(image, quad), default_masks(), dark) >= least
    lanes_no_paper = bool(section("order")["calibration_lanes_kept_no_paper"])
    return quad, shows and (dark or not lanes_no_paper or not _lanes_coloured(image, quad))


def _card_outlines(image: np.ndarray, robot: str, model: ColourModel,
                   dark: bool = False,
                   centres: list[np.ndarray] | None = None) -> list[np.ndarray]:
    """Every outline in a calibration picture that may be its card, largest first: card-shaped
    (:func:`find_card`) down to ``calibration_least_area`` of the picture, showing paper round
    the robot (``calibration_min_paper``), some part colour and, where the boards' background
    was learnt, less than ``calibration_other_colour`` of the colours the labelled robot lacks.
    Nearly the same outline found at several edge levels is kept once (the largest), and at most
    ``calibration_outlines`` are kept. With ``dark`` the paper asked for is dark paper's.
    ``centres``: the picture's :func:`_marker_centres`, when already found."""
    cfg = section("order")
    seen: list[np.ndarray] = []
    free = _free_of_markers(image, centres)

    def note(outline: np.ndarray) -> bool:
        if free is None or free(outline):
            seen.append(outline)
        return False  # turned down, so the search goes on to every other outline

    with contextlib.suppress(NoCardFound):
        find_card(image, area=float(cfg["calibration_least_area"]) / float(cfg["area_fraction"]),
                  accept=note, faint=dark)
    plain_look = OrderLook.default(model)
    wanted = [model.names.index(c) for c in robot.split("-")]
    foreign = [i for i in range(len(model.names)) if i not in wanted]
    # without a background learnt from the boards a pale paper may read as a colour (see
    # _calibration_card): the colours the label lacks then tell nothing
    judge_colours = len(model.background_means) > 0
    kept: list[np.ndarray] = []
    tried: list[tuple[np.ndarray, float]] = []
    for outline in sorted(seen, key=lambda q: -float(cv2.contourArea(q))):
        size = float(cv2.contourArea(outline))
        if _tried_alike(outline.mean(axis=0), size, tried):
            continue
        tried.append((outline.mean(axis=0), size))
        # (a board's lanes, _lanes_like: the paper half is asked below with the rest)
        if not dark and _lanes_coloured(image, outline):
            continue
        card = warp_card(image, outline)
        cls = classes(card, plain_look)
        if _part_colour_pixels(card, cls) < int(cfg["min_mask_pixels"]) or \
                paper_shown(card, default_masks(), dark) < float(cfg["calibration_min_paper"]) or \
                (judge_colours and
                 float(np.isin(cls, foreign).mean()) >= float(cfg["calibration_other_colour"])):
            continue
        kept.append(outline)
        if len(kept) == int(cfg["calibration_outlines"]):
            break
    return kept


def _lanes_like(image: np.ndarray, outline: np.ndarray) -> bool:
    """Whether a calibration outline is a board's lanes rather than a card on pale paper: it
    shows paper round the robot once white-balanced on itself (``calibration_min_paper``, as a
    card must), and yet at least ``calibration_lanes_saturated`` of what lies outside the
    default part places is saturated colour as the camera saw it (no white balance). A card's
    paper is paper both ways; an outline that shows no paper is left to the tests that ask for
    it (other art 44015: a board's lanes in a grey margin, 0.88 saturated, passed over there).

    The boards' colours cannot tell: the card is white-balanced around each pixel
    (:func:`warp_card`), and a lane wider than that window is its own white, so it shows as
    paper, and the background learnt from the boards took in whole lane colours where the table
    is near one (third art g2673: a green lane, g2586: a red lane on a red table). Two of four
    calibration outlines were lanes in each, and all 40 order cards were declined but one read
    wrong (g2673 o003). Those outlines were 0.63 to 0.76 saturated outside the part places, the
    cards of those sets 0.03 to 0.28; of every set's first outlines, cards reached 0.57 where
    the outline took in a hand (other art 34014: passed over for the next outline, no reading
    changed). (Cards on dark coloured paper are saturated there too: they are looked for with
    dark paper, where this is not asked.)"""
    return _lanes_coloured(image, outline) and \
        paper_shown(warp_card(image, outline), default_masks()) >= \
        float(section("order")["calibration_min_paper"])


def _lanes_coloured(image: np.ndarray, outline: np.ndarray) -> bool:
    """:func:`_lanes_like`'s look at the outline as the camera saw it: saturated colour over
    ``calibration_lanes_saturated`` of what lies outside the default part places, or across
    ``calibration_lanes_lines`` of its rows or columns (never where the first is 0)."""
    cfg = section("order")
    bar = float(cfg["calibration_lanes_saturated"])
    if bar <= 0:
        return False
    card = plain_card(image, outline)
    high, low = card.max(axis=2), card.min(axis=2)
    saturated = ((high - low) > float(cfg["lanes_chroma"]) * np.maximum(high, 1.0)) \
        & (high > float(cfg["lanes_lit"]))
    outside = ~default_masks().any(axis=0)
    # ... or lanes run across it: at least ``calibration_lanes_lines`` of its rows or columns
    # (of the card as found) saturated along ``calibration_lanes_line_share`` of their length
    # (a whole board, lanes and margin: g2586 cal-o02, 0.48 saturated outside the part places
    # but 0.68 of its rows and 0.85 of its columns; of the 288 sets' first calibration outlines
    # that show paper, the rest reach 0.575, and the six over 0.5 were boards or a board and
    # the card together)
    along = float(cfg["calibration_lanes_line_share"])
    lines = max(float((saturated.mean(axis=1) >= along).mean()),
                float((saturated.mean(axis=0) >= along).mean()))
    across = float(cfg["calibration_lanes_lines"])
    return bool(saturated[outside].mean() >= bar or (across > 0 and lines >= across))


def _marker_centres(image: np.ndarray) -> list[np.ndarray]:
    """The centres of the markers in a calibration picture (none looked for where
    ``calibration_markers_held`` is 0: nothing asks them)."""
    if int(section("order")["calibration_markers_held"]) <= 0:
        return []
    return [quad.mean(axis=0) for quad in markers.detect(image).values()]


def _free_of_markers(image: np.ndarray, centres: list[np.ndarray] | None = None
                     ) -> Callable[[np.ndarray], bool] | None:
    """Whether an outline in a calibration picture holds fewer than
    ``calibration_markers_held`` of the markers in view (tiles', board corners', the play
    area's): a robot card carries none, so an outline holding several is a board, or a card and
    a board beside it taken together (third art g2627: dark cards with an orange rim held beside
    a board showing its corner markers; in two of four pictures the largest card-shaped outline
    ran round both, the lanes' colours were learnt as the robot's, and all 20 order cards were
    declined). One marker alone is not enough: the detector finds false ones in card prints
    (g2614 cal-o04: id 17 on the robot's torso), and leaving out every outline holding one
    turned whole sets from read to declined. None where too few markers are in view (0: not
    asked). ``centres``: the picture's :func:`_marker_centres`, when already found."""
    least = int(section("order")["calibration_markers_held"])
    if least <= 0:
        return None
    if centres is None:
        centres = _marker_centres(image)
    if len(centres) < least:
        return None

    def free(outline: np.ndarray) -> bool:
        shape = outline.reshape(-1, 1, 2).astype(np.float32)
        held = sum(cv2.pointPolygonTest(shape, (float(x), float(y)), False) >= 0
                   for x, y in centres)
        return held < least

    return free


def _part_colour_pixels(card: np.ndarray, cls: np.ndarray) -> int:
    """How many of a canonical card's pixels show some part colour: those the boards' colours
    classify (``cls``, :func:`classes` with the default look), or those saturated as the colours
    are learnt from (chroma over 0.2, as in :func:`_learn_from`), whichever are more.

    The boards' colours alone miss cards whose parts look unlike the lanes in the boards' light:
    - a card on dark paper is balanced on its pale rim, brighter than its paper, and its parts
      show paler than the boards' colours (third art g2490, a dark grey card with a pale rim:
      0.2 % of its first calibration card, 0 to 12 % of the other three's);
    - the boards' background, learnt on a dark board in dim light, held clusters within 4 to 8
      of the cards' own red, green and blue, which lay 18 to 43 from the lanes' (third art g2620,
      white cards with a purple rim over a dark board): every part pixel was background.
    No whole card was then kept, so nothing was learnt and all 20 order cards were declined. A
    board's lanes pass either way, as before: the paper test and the labelled colours tell them
    from a card."""
    chroma = card.max(axis=2) - card.min(axis=2)
    return max(int((cls >= 0).sum()), int((chroma > 0.2).sum()))


def _alike_outlines(examples: list[tuple[np.ndarray, str]], model: ColourModel,
                    dark: bool = False, centres: list[list[np.ndarray]] | None = None
                    ) -> list[tuple[np.ndarray, bool] | None] | None:
    """One outline a calibration picture (None where it has none that may be its card, see
    :func:`_card_outlines`): those whose prints are most like each other's. The user's cards are
    printed alike, so the outlines on them are alike too, while a board's lanes or a hand are
    unlike the cards (other art 18014: cards 0.57 to 0.84 alike, two lanes of a board 0.04 to
    0.41 like the cards). Each outline in turn is taken with the outline most like it in every
    other picture, and the set whose prints are most alike in all (the sum of their likenesses
    pair by pair) is chosen. None when fewer than two pictures show such an outline.
    ``centres``: each picture's :func:`_marker_centres`, when already found."""
    seen = centres if centres is not None else [None] * len(examples)
    outlines = [_card_outlines(image, robot, model, dark, held)
                for (image, robot), held in zip(examples, seen, strict=True)]
    drawn = [[sketch(plain_card(image, q)) for q in qs]
             for (image, _), qs in zip(examples, outlines, strict=True)]
    shown = [i for i, qs in enumerate(outlines) if qs]
    if len(shown) < 2:
        return None
    best: dict[int, int] | None = None
    best_score = -math.inf
    for i in shown:
        for a, one in enumerate(drawn[i]):
            chosen = {i: a}
            for j in shown:
                if j != i:
                    chosen[j] = int(np.argmax([likeness(one, other) for other in drawn[j]]))
            score = sum(likeness(drawn[j][chosen[j]], drawn[k][chosen[k]])
                        for j in shown for k in shown if j < k)
            if score > best_score:
                best, best_score = chosen, score
    assert best is not None
    return [(outlines[i][best[i]], True) if i in best else None for i in range(len(examples))]


def _alike(cards: list[np.ndarray]) -> list[float]:
    """How like the other cards' mean sketch each card's is (1.0 each when there is one)."""
    if len(cards) < 2:
        return [1.0] * len(cards)
    drawn = np.stack([sketch(card) for card in cards])
    total = drawn.sum(axis=0)
    out = []
    for one in drawn:
        others = total - one
        out.append(likeness(one, others / max(float(np.linalg.norm(others)), 1e-6)))
    return out


def _learn_sketch(look: OrderLook, cards: list[np.ndarray], cfg: dict[str, Any]) -> None:
    """The cards' print without colours, and how clearly it tells top from bottom: each
    calibration card is held against the others' mean (so a card is not compared with
    itself), and the median of how much better it fits upright than turned is the measure."""
    if len(cards) < 2:
        return
    drawn = np.stack([sketch(card) for card in cards])
    total = drawn.sum(axis=0)
    clear = []
    for one in drawn:
        others = total - one
        others = others / max(float(np.linalg.norm(others)), 1e-6)
        clear.append(sketch_evidence(one, others))
    evidence = float(np.median(clear))
    template = total / max(float(np.linalg.norm(total)), 1e-6)
    look.sketch = np.asarray(template, np.float32)
    look.min_likeness = float(cfg["likeness_fraction"]) * float(np.median(_alike(cards)))
    if evidence >= cfg["min_sketch_evidence"]:
        look.sketch_margin = float(cfg["turn_fraction"]) * evidence
