"""The demo's camera: the simulated players lay things down with ``show_*``; ``read`` renders that
scene and runs the real readers on it (calibrated, like a real table, on rendered calibration
pictures of the same components).

A scene is rendered once per ``show_*`` (on the first read after it); later reads return the same
picture, so reading a few times a second costs one reader pass, and a still scene settles (is
``stable``) after ``stability.frames`` reads.

The scenes are those of :mod:`vision.synth` (its :class:`~vision.synth.scenes.Style`, boards,
tiles, cards and markers), staged the way a tidy table looks: tiles laid in the middle of their
slots, boards of one size (one copy of the game), the camera's light, blur, noise and compression
of a clean view. They are drawn here rather than with ``vision.synth``'s ``render_*`` for memory:
those work on whole-picture float copies (about 60 MB at 1280x720 per picture), which the demo
cannot afford inside the app; here each pass works on a band of ``_BAND`` rows at a time, so a
picture costs a few MB on top of itself.
"""

from __future__ import annotations

import ctypes
import functools
import math
import sys
import threading
from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np

from companion.config import Config
from companion.ports import Observation, ReadingKind
from vision import grid, order, tiles
from vision.calibration import Calibration
from vision.camera import FrameCamera
from vision.synth import draw, random_grid, scenes
from vision.synth.scenes import (
    Drawing,
    OrderPose,
    Style,
    board_patch,
    rm_card_patch,
    tile_patch,
)

Rng = np.random.Generator

#: rows per pass over a picture: a 1280-wide band of 48 rows in float32 is 0.7 MB
_BAND = 48
#: a tidy table: tiles sit within this share of their slot's middle, turned this little
_TILE_SLACK = 0.03
_TILE_TURN = 3.0
#: one copy of the game: a lane and a row are this many tile sides wide and high
_LANE = 1.6
_ROW = 1.45
#: marker side at 1280 pixels across: near the camera height the markers are printed for
_MARKER_PX = 30.0

_CALIBRATIONS: dict[Any, Calibration] = {}
_CAL_LOCK = threading.Lock()
#: glibc, for malloc_trim (None: not looked for yet; False: not glibc)
_LIBC: Any = None


def _give_back() -> None:
    """Return the free memory glibc's malloc holds to the system (``malloc_trim``), before a
    scene is drawn. The readers free many small blocks that malloc keeps for reuse; a drawing's
    blocks are large (a picture, the decoder's copy of it) and come straight from the system,
    so they would stack on top of the kept ones. Drawing a scene is the demo's highest point
    (sampled in the app: every new high of the Robot Master part was a drawing)."""
    global _LIBC
    if _LIBC is None:
        _LIBC = False
        if sys.platform.startswith("linux"):
            try:
                _LIBC = ctypes.CDLL("libc.so.6")
                _LIBC.malloc_trim  # noqa: B018 (not glibc: no malloc_trim, nothing to give back)
            except (OSError, AttributeError):
                _LIBC = False
    if _LIBC:
        _LIBC.malloc_trim(0)


# ---------------------------------------------------------------------------- drawing


def _bands(rows: int, start: int = 0) -> Iterator[slice]:
    for y in range(start, start + rows, _BAND):
        yield slice(y, min(start + rows, y + _BAND))


def _table(width: int, height: int, rng: Rng) -> np.ndarray:
    """A table top (the same kinds as ``draw.table``), drawn band by band."""
    base = np.array([rng.integers(40, 160), rng.integers(60, 170), rng.integers(80, 200)],
                    np.float32)
    img = np.empty((height, width, 3), np.uint8)
    kind = int(rng.integers(0, 3))
    if kind == 0:  # wood grain along x
        f = float(rng.uniform(0.02, 0.08))
        wave = 3 * np.sin(np.arange(width, dtype=np.float32)[None, :] * 0.004
                          + np.float32(rng.uniform(0, 6)))
        amp = np.float32(rng.uniform(6, 18))
        for rows in _bands(height):
            y = np.arange(rows.start, rows.stop, dtype=np.float32)[:, None]
            grain = np.sin(y * f + wave) * amp
            img[rows] = np.clip(base + grain[..., None], 0, 255)
    elif kind == 1:  # cloth
        small = rng.standard_normal((height // 4 + 1, width // 4 + 1), dtype=np.float32)
        small *= np.float32(rng.uniform(4, 10))
        noise = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
        # the table is written into the noise's own buffer (3 bytes a pixel where the noise
        # has 4): each band lands on rows of noise already used, and a picture beside the
        # noise was a drawing's highest point
        img = noise.view(np.uint8).reshape(-1)[:height * width * 3].reshape(height, width, 3)
        for rows in _bands(height):
            img[rows] = np.clip(base + noise[rows, :, None], 0, 255)
    else:
        img[:] = base.astype(np.uint8)
    return img


def _blend(canvas: np.ndarray, x0: int, y0: int, top: np.ndarray, alpha: np.ndarray) -> None:
    """``canvas[y0:, x0:] = top * alpha + canvas * (1 - alpha)``, alpha uint8, band by band."""
    h, w = alpha.shape[:2]
    for rows in _bands(h):
        a = alpha[rows].astype(np.float32)[..., None] * np.float32(1 / 255)
        region = canvas[y0 + rows.start:y0 + rows.stop, x0:x0 + w]
        region[:] = np.clip(top[rows] * a + region * (1 - a), 0, 255)


def _paste(canvas: np.ndarray, patch: np.ndarray, H: np.ndarray,
           mask: np.ndarray | None = None) -> None:
    """``draw.paste`` without whole-region float copies."""
    placed = draw.warp_into(canvas.shape, patch, H, mask)
    if placed is not None:
        x0, y0, warped, alpha = placed
        _blend(canvas, x0, y0, warped, alpha)


def _hand(canvas: np.ndarray, rng: Rng, cx: float, cy: float, size: float,
          angle: float) -> None:
    """The hand of ``draw.hand`` (palm, fingers, thumb, the arm out of the picture), blended
    only where it is."""
    colour = np.array(draw.SKIN[int(rng.integers(0, len(draw.SKIN)))], np.float32)
    mask = draw.hand_mask(canvas.shape, rng, cx, cy, size, angle)
    soft = cv2.GaussianBlur(mask, (0, 0), 1.2)
    shade = cv2.GaussianBlur(mask, (0, 0), max(1.0, size * 0.15))
    del mask
    x, y, w, h = cv2.boundingRect(soft)
    for rows in _bands(h, y):
        s = shade[rows, x:x + w].astype(np.float32)[..., None] * np.float32(0.3 / 255)
        skin = colour * (np.float32(0.75) + s)
        _blend(canvas, x, rows.start, skin, soft[rows, x:x + w])


def _camera(img: np.ndarray, rng: Rng, *, compressed: bool = False) -> np.ndarray:
    """What a camera makes of the table (as ``draw.degrade`` for a clean view): lighting
    gradient, lamp colour, maybe a soft shadow, a little blur, sensor noise and compression.
    ``compressed``: the JPEG bytes (a tenth of the picture) rather than the picture they
    decode to (:func:`_develop`)."""
    h, w = img.shape[:2]
    gx, gy = rng.normal(0, 1, 2)
    norm = math.hypot(gx, gy) or 1.0
    # the light falls off along (gx, gy) by ``span`` from the brightest corner to the darkest
    across = np.arange(w, dtype=np.float32)[None, :] * np.float32(gx / norm / w)
    down = np.arange(h, dtype=np.float32)[:, None] * np.float32(gy / norm / h)
    lo = float(across.min()) + float(down.min())
    spread = max(float(np.ptp(across)) + float(np.ptp(down)), 1e-6)
    span = float(rng.uniform(0.15, 0.3))
    t = rng.uniform(-1, 1)
    gains = np.array([1 - 0.18 * t, 1.0, 1 + 0.15 * t], np.float32) * np.float32(
        rng.uniform(0.9, 1.15))
    shade: np.ndarray | None = None
    strength = np.float32(0.0)
    if rng.random() < 0.3:  # a soft shadow across part of the table
        pts = np.array([[rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h]
                        for _ in range(4)])
        shade = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(shade, cv2.convexHull(pts.astype(np.int32)), 255)
        cv2.GaussianBlur(shade, (0, 0), rng.uniform(8, 30), dst=shade)
        strength = np.float32(rng.uniform(0.2, 0.35) / 255)
    for rows in _bands(h):
        light = (across + down[rows]) - np.float32(lo)
        light *= np.float32(-span / spread)
        light += np.float32(1.0)
        if shade is not None:
            light *= 1 - strength * shade[rows]
        img[rows] = np.clip(img[rows] * light[..., None] * gains, 0, 255)
    del shade
    sigma = rng.uniform(0.0, 0.8)
    if sigma > 0.3:
        _blur(img, sigma)
    noise = np.float32(rng.uniform(1, 4))
    for rows in _bands(h):
        band = img[rows]
        grain = rng.standard_normal(band.shape, dtype=np.float32)
        grain *= noise
        grain += band
        band[:] = np.clip(grain, 0, 255)
    quality = int(rng.integers(75, 96))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        return img
    return buf if compressed else _develop(buf)


def _blur(img: np.ndarray, sigma: float) -> None:
    """``cv2.GaussianBlur(img, (0, 0), sigma, dst=img)`` band by band, the same pixels: blurring
    in place, OpenCV first copies the whole picture. Each band is blurred with the rows its
    kernel reaches on either side and written back once the next band no longer needs its
    unblurred rows (OpenCV's 8-bit Gaussian is fixed-point, so a band's pixels are exactly the
    whole picture's)."""
    h = img.shape[0]
    # OpenCV's 8-bit kernel is round(6 sigma + 1) wide (odd): half of it, and one more row
    reach = (round(6 * sigma + 1) | 1) // 2 + 1
    assert reach <= _BAND  # a band needs only its own rows and the next band's unwritten ones
    pending: tuple[slice, np.ndarray] | None = None
    for rows in _bands(h):
        lo, hi = max(0, rows.start - reach), min(h, rows.stop + reach)
        done = cv2.GaussianBlur(img[lo:hi], (0, 0), sigma)[rows.start - lo:rows.stop - lo]
        if pending is not None:
            img[pending[0]] = pending[1]
        pending = (rows, done)
    if pending is not None:
        img[pending[0]] = pending[1]


def _develop(shot: np.ndarray) -> np.ndarray:
    """The picture of :func:`_camera`'s JPEG bytes (the same pixels every time)."""
    return shot if shot.ndim == 3 else np.asarray(cv2.imdecode(shot, cv2.IMREAD_COLOR))


# ---------------------------------------------------------------------------- scenes


def render_tiles(style: Style, colours: list[str], robots: dict[int, str], rng: Rng,
                 width: int, height: int) -> np.ndarray:
    """Personal boards for the seats in ``robots``, each with its three tiles on the lanes of
    ``robots[seat]`` (head-torso-legs), as ``scenes.render_tiles`` lays them out."""
    img = _table(width, height, rng)
    view = draw.view(width, height, rng)
    cell_w, cell_h = width / 3, height / 2
    marker_px = _MARKER_PX * width / 1280
    module_px = 8
    tile_side = marker_px * style.tile_scale
    lane_w, row_h, margin = tile_side * _LANE, tile_side * _ROW, tile_side * 0.35
    bw, bh = lane_w * 4 + 2 * margin, row_h * 3 + 2 * margin
    s = min(cell_w * 0.92 / max(bw, bh), cell_h * 0.92 / max(bw, bh), 1.0)
    k_board = 3.0  # the board is drawn in finer pixels than the table
    for seat in sorted(robots):
        row, col = divmod(seat, 3)
        patch = board_patch(style, colours, int(lane_w * k_board), int(row_h * k_board),
                            int(margin * k_board), rng)
        angle = float(rng.choice([0, 90, 180, 270]) + rng.uniform(-8, 8))
        cx = (col + 0.5) * cell_w + rng.uniform(-0.04, 0.04) * cell_w
        cy = (row + 0.5) * cell_h + rng.uniform(-0.04, 0.04) * cell_h
        on_table = draw.place(patch.shape[1] * s / k_board, patch.shape[0] * s / k_board,
                              cx, cy, angle) @ draw.scale(s / k_board)
        _paste(img, patch, view @ on_table,
               draw.rounded_mask(patch.shape[1], patch.shape[0], int(margin)))
        for part, colour in enumerate(robots[seat].split("-")):
            lane = colours.index(colour)
            tile = tile_patch(style, 3 * seat + part, module_px)
            tile_px = tile.shape[0]
            tx = (margin + (lane + 0.5 + rng.uniform(-1, 1) * _TILE_SLACK) * lane_w) * k_board
            ty = (margin + (part + 0.5 + rng.uniform(-1, 1) * _TILE_SLACK) * row_h) * k_board
            k = tile_side * k_board / tile_px
            on_board = draw.place(tile_px * k, tile_px * k, tx, ty,
                                  rng.uniform(-_TILE_TURN, _TILE_TURN)) @ draw.scale(k)
            _paste(img, tile, view @ on_table @ on_board,
                   draw.rounded_mask(tile_px, tile_px, tile_px // 10))
    shot = _camera(img, rng, compressed=True)
    del img  # the drawn picture goes before the camera's is decoded
    return _develop(shot)


# the demo's card is held tidily: its pose from narrower ranges than the datasets' (scenes.py)
TIDY_ORDER = OrderPose(size=(0.6, 0.85), turn=12.0, tilt=0.02, reach=(0.0, 0.04))
# the camera gives its JPEG bytes: decoded only once the drawn picture has gone with the scene
BANDED = Drawing(_table, _paste, _hand,
                 lambda img, rng, hard: _camera(img, rng, compressed=True))


def render_order(style: Style, robot: str, rng: Rng, width: int, height: int) -> np.ndarray:
    """A robot card held up to the camera by a hand that keeps off the robot."""
    return _develop(scenes.render_order(style, robot, rng, width, height, pose=TIDY_ORDER,
                                        drawing=BANDED))


def render_grid(style: Style, cells: list[list[int | None]], rng: Rng, width: int,
                height: int, *, compressed: bool = False) -> np.ndarray:
    """The 5x5 Robot Master play area (top row first) between markers 42..45; ``compressed``:
    its JPEG bytes (:func:`_develop` gives the picture)."""
    img = _table(width, height, rng)
    view = draw.view(width, height, rng, turn=4.0)
    marker_px = _MARKER_PX * width / 1280
    cell_h = (height * 0.84 - 2 * marker_px * (1 + style.marker_offset)) / 5
    cell_w = cell_h * 0.9
    area_w, area_h = cell_w * 5, cell_h * 5
    x0 = width / 2 - area_w / 2 + rng.uniform(-0.1, 0.1) * width
    y0 = height / 2 - area_h / 2
    if style.mat:
        mat = np.empty((int(area_h), int(area_w), 3), np.uint8)
        mat[:] = draw.jitter_colour((70, 110, 60), rng, 40, 0.3, 0.2)
        for i in range(6):
            x, y = min(int(i * cell_w), mat.shape[1] - 1), min(int(i * cell_h), mat.shape[0] - 1)
            cv2.line(mat, (x, 0), (x, mat.shape[0]), (230, 230, 230), 2)
            cv2.line(mat, (0, y), (mat.shape[1], y), (230, 230, 230), 2)
        _paste(img, mat, view @ draw.trans(x0, y0))
    corners = [(x0, y0), (x0 + area_w, y0), (x0 + area_w, y0 + area_h), (x0, y0 + area_h)]
    out_dirs = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    for i, ((mx, my), (dx, dy)) in enumerate(zip(corners, out_dirs, strict=True)):
        marker = draw.marker_patch(42 + i, 8)
        quiet = np.full((marker.shape[0] + 16, marker.shape[1] + 16), 250, np.uint8)
        quiet[8:-8, 8:-8] = marker
        off = style.marker_offset * marker_px
        k = marker_px / marker.shape[0]
        H = draw.place(quiet.shape[1] * k, quiet.shape[0] * k, mx + dx * off, my + dy * off,
                       rng.uniform(-3, 3)) @ draw.scale(k)
        _paste(img, quiet, view @ H)
    card_w = cell_w * 0.9
    for r, row in enumerate(cells):
        for c, value in enumerate(row):
            if value is None:
                continue
            patch = rm_card_patch(style, value)
            k = card_w / patch.shape[1]
            if patch.shape[0] * k > cell_h * 0.96:
                k = cell_h * 0.96 / patch.shape[0]
            angle = rng.uniform(-3, 3) + (180 if style.rm_turned and rng.random() < 0.3 else 0)
            cx = x0 + (c + 0.5 + rng.uniform(-0.02, 0.02)) * cell_w
            cy = y0 + (r + 0.5 + rng.uniform(-0.02, 0.02)) * cell_h
            H = draw.place(patch.shape[1] * k, patch.shape[0] * k, cx, cy, angle) @ draw.scale(k)
            _paste(img, patch, view @ H, draw.rounded_mask(patch.shape[1], patch.shape[0], 8))
    shot = _camera(img, rng, compressed=True)
    del img  # the drawn picture goes before the camera's is decoded
    return shot if compressed else _develop(shot)


# ---------------------------------------------------------------------------- calibration


def _calibration(config: Config, seed: int, style: Style, with_grid: bool, width: int,
                 height: int) -> Calibration:
    """The staged components' calibration, learnt like a real table's from rendered pictures
    (three of each kind, showing every colour in every part and lane).

    Tiles and cards are learnt at once; the Robot Master cards (the slow part) only when a grid
    is first read. Both are kept for the process, so many cameras cost one calibration. The
    pictures of one kind are dropped before the next kind is drawn.
    """
    key = (tuple(config.game.colours), tuple(sorted(config.game.display.items())), seed,
           width, height)
    colours = list(config.game.colours)
    with _CAL_LOCK:
        cal = _CALIBRATIONS.get(key)
        if cal is None:
            rng = np.random.default_rng(seed + 1_000_003)
            base = Calibration.default(config)
            pictures = []
            for i in range(3):
                robots = {s: "-".join(colours[(s + p + i) % 4] for p in range(3))
                          for s in range(6) if (s + i) % 3 != 2}
                pictures.append((render_tiles(style, colours, robots, rng, width, height),
                                 robots))
            tiles_look = tiles.learn(pictures, base.tiles.model)
            cards = []
            for i in range(3):
                robot = "-".join(colours[(i + p) % 4] for p in range(3))
                cards.append((render_order(style, robot, rng, width, height), robot))
            order_look = order.learn(cards, tiles_look.model)
            del pictures, cards
            cal = Calibration(colours, tiles_look, order_look, base.grid, 6)
            _CALIBRATIONS[key] = cal
        if with_grid and not cal.grid.learnt:
            rng = np.random.default_rng(seed + 2_000_003)
            # kept as the camera's JPEG bytes and decoded whenever learning looks at one:
            # three pictures at once (8 MB at 1280x720) would be the app's highest point
            areas: list[tuple[grid.Picture, list[list[int | None]]]] = []
            for _ in range(3):
                cells = random_grid(rng, cards=int(rng.integers(12, 22)))
                shot = render_grid(style, cells, rng, width, height, compressed=True)
                areas.append((functools.partial(_develop, shot), cells))
            cal.grid = grid.learn(areas)
            cal.images += len(areas)
        return cal


# ---------------------------------------------------------------------------- the camera


class _StagedSource:
    name = "staged camera"

    def __init__(self, owner: StagedCamera) -> None:
        self._owner = owner

    def frame(self) -> np.ndarray:
        return self._owner._frame()

    def lock(self) -> None:
        pass

    def close(self) -> None:
        pass


class StagedCamera:
    """A :class:`companion.ports.Camera` over staged synthetic scenes."""

    def __init__(self, config: Config, seed: int = 0, width: int = 1280, height: int = 720
                 ) -> None:
        self.config = config
        self.width, self.height = width, height
        self._rng = np.random.default_rng(seed)
        self.style = Style.random(np.random.default_rng(seed), config.game.display)
        self._scene: dict[str, Any] = {}
        # one picture only, of what the kind last read shows (its scene, or the empty table):
        # another kind is drawn again when it is read again
        self._picture: tuple[Any, np.ndarray] | None = None
        self._kind: str = "tiles"
        self._lock = threading.Lock()
        self._seed = seed
        self._camera = FrameCamera(_StagedSource(self), _calibration(
            config, seed, self.style, False, width, height))

    # ------------------------------------------------------------------ staging
    def show_tiles(self, robots: dict[int, str]) -> None:
        """Lay each seat's three tiles on the lanes of ``robots[seat]`` (head-torso-legs)."""
        for robot in robots.values():
            self.config.palette.parse(robot)
        self._stage("tiles", dict(robots))

    def show_order(self, robot: str) -> None:
        """Hold the robot card ``robot`` up to the camera."""
        self.config.palette.parse(robot)
        self._stage("order", robot)

    def show_grid(self, cells: list[list[int | None]]) -> None:
        """Lay Robot Master cards on the play area (top row first, None = empty)."""
        if len(cells) != 5 or any(len(row) != 5 for row in cells):
            raise ValueError("a Robot Master grid is 5 rows of 5 cells")
        self._stage("grid", [list(row) for row in cells])

    def show_nothing(self) -> None:
        """Clear the table: every reading declines."""
        with self._lock:
            self._scene.clear()
            self._picture = None

    def _stage(self, kind: str, what: Any) -> None:
        with self._lock:
            # what was laid down last is what a frame() shows (guided calibration asks for
            # frames, not readings); a read says again which kind it looks for
            self._kind = kind
            if self._scene.get(kind) != what:
                self._scene[kind] = what
                if self._picture is not None and self._picture[0] == kind:
                    self._picture = None

    # ------------------------------------------------------------------ the port
    def read(self, kind: ReadingKind, *, secret: bool = False) -> Observation:
        if kind == "grid" and not self._camera.calibration.grid.learnt:
            with self._lock:
                # the picture of what another kind last read would be let go at this read's
                # frame anyway: it goes before learning, the most memory a read takes
                if self._picture is not None and self._picture[0] != self._shown(kind):
                    self._picture = None
            self._camera.set_calibration(_calibration(
                self.config, self._seed, self.style, True, self.width, self.height))
        self._kind = kind
        return self._camera.read(kind, secret=secret)

    def close(self) -> None:
        self._camera.close()

    # ------------------------------------------------------------------ guided calibration
    def frame(self) -> np.ndarray:
        """The picture of what was laid down last, as a real camera's frame."""
        return self._camera.frame()

    @property
    def calibration(self) -> Calibration:
        return self._camera.calibration

    def set_calibration(self, cal: Calibration) -> None:
        self._camera.set_calibration(cal)

    def lock_exposure(self) -> None:
        self._camera.lock_exposure()

    # ------------------------------------------------------------------ rendering
    def _shown(self, kind: str) -> str:
        """What a read of ``kind`` sees: its scene, or the empty table."""
        return kind if kind in self._scene else "empty"

    def _frame(self) -> np.ndarray:
        with self._lock:
            shown = self._shown(self._kind)
            if self._picture is None or self._picture[0] != shown:
                self._picture = None  # let the old picture go before the new one is drawn
                _give_back()
                picture = self._render(shown, self._scene.get(shown))
                # read-only: every read gets this same picture without a copy of its own; a
                # reader that wrote into its frame would raise instead of changing the scene
                picture.flags.writeable = False
                self._picture = (shown, picture)
            # a still scene gives the same picture every time: the sensor noise is already in
            # the rendering, and fresh noise on every read would only make borderline cells
            # flicker between read and declined, so a grid would never settle
            return self._picture[1]

    def _next_rng(self) -> Rng:
        return np.random.default_rng(int(self._rng.integers(0, 2**31)))

    def _render(self, kind: str, what: Any) -> np.ndarray:
        colours = list(self.config.game.colours)
        rng = self._next_rng()
        w, h = self.width, self.height
        if kind == "empty":
            shot = _camera(_table(w, h, rng), rng, compressed=True)
            return _develop(shot)
        if kind == "tiles":
            return render_tiles(self.style, colours, what, rng, w, h)
        if kind == "order":
            return render_order(self.style, what, rng, w, h)
        return render_grid(self.style, what, rng, w, h)
