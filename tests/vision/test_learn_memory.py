"""Memory of the Robot Master calibration and of the demo's pictures (docs/ui.md, "Memory"):
the same results, less at once."""

from __future__ import annotations

import tracemalloc
import weakref
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from companion.config import Config
from vision import grid, staged
from vision.grid import geometry
from vision.synth import random_grid
from vision.synth.scenes import Style

pytestmark = pytest.mark.slow  # learns twice on three rendered pictures: several seconds

WIDTH, HEIGHT = 1280, 720


@pytest.fixture(scope="module")
def shots() -> list[tuple[np.ndarray, grid.Grid]]:
    """Three calibration pictures of the demo's play area, as its JPEG bytes."""
    config = Config()
    style = Style.random(np.random.default_rng(4), config.game.display)
    rng = np.random.default_rng(7)
    out = []
    for cards in (13, 17, 21):
        cells = random_grid(rng, cards=cards)
        out.append((staged.render_grid(style, cells, rng, WIDTH, HEIGHT, compressed=True),
                    cells))
    return out


def test_learning_from_pictures_given_by_functions_is_learning_from_the_pictures(
        shots: list[tuple[np.ndarray, grid.Grid]]) -> None:
    """One picture at a time: each function's picture is let go before the next is asked for,
    and what is learnt is the same, bit for bit, as from the pictures themselves."""
    alive: list[int] = []
    most = [0]

    def given(shot: np.ndarray) -> Callable[[], np.ndarray]:
        def picture() -> np.ndarray:
            image = staged._develop(shot)
            alive.append(1)
            most[0] = max(most[0], len(alive))
            weakref.finalize(image, alive.pop)
            return image
        return picture

    lazily = grid.learn([(given(shot), cells) for shot, cells in shots])
    assert lazily.learnt
    assert most[0] == 1
    assert not alive
    at_once = grid.learn([(staged._develop(shot), cells) for shot, cells in shots])
    assert lazily.to_json() == at_once.to_json()
    assert np.array_equal(lazily.features, at_once.features)  # to_json keeps float16 only


def test_learning_from_compressed_pictures_holds_little_beside_them(
        shots: list[tuple[np.ndarray, grid.Grid]]) -> None:
    """Learning once held its three pictures (8 MB at 1280x720) and, at its highest, 15 MB of
    its own beside them; from JPEG bytes it holds one picture at a time (12 to 13 MB in all)."""
    picture = WIDTH * HEIGHT * 3
    examples = [(lambda shot=shot: staged._develop(shot), cells) for shot, cells in shots]
    tracemalloc.start()
    try:
        look = grid.learn(examples)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert look.learnt
    assert peak < 6 * picture, peak / 2**20


def test_a_compressed_scene_decodes_to_the_scene() -> None:
    config = Config()
    style = Style.random(np.random.default_rng(0), config.game.display)
    cells = random_grid(np.random.default_rng(1), cards=15)
    shot = staged.render_grid(style, cells, np.random.default_rng(2), WIDTH, HEIGHT,
                              compressed=True)
    assert shot.ndim == 1 and shot.nbytes < WIDTH * HEIGHT * 3 // 4
    picture = staged.render_grid(style, cells, np.random.default_rng(2), WIDTH, HEIGHT)
    assert np.array_equal(staged._develop(shot), picture)


@pytest.mark.parametrize("height", [20, 48, 100, 720])
@pytest.mark.parametrize("sigma", [0.31, 0.5, 0.66, 0.8])
def test_the_camera_blur_band_by_band_is_opencvs_blur(height: int, sigma: float) -> None:
    rng = np.random.default_rng(height)
    image = rng.integers(0, 256, (height, 97, 3), dtype=np.uint8)
    # smooth areas and hard edges both: a fixed-point blur rounds differently on each
    image[: height // 2, :40] = 128
    expected = cv2.GaussianBlur(image, (0, 0), sigma)
    staged._blur(image, sigma)
    assert np.array_equal(image, expected)


def _features_before(area: np.ndarray, margin: int, dx: int, dy: int, turned: bool,
                     votes: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """:func:`vision.grid.area_features` as it was before it worked in place (its shape part:
    the colour part is unchanged)."""
    w, h = geometry._cell_size()
    img = area[margin + dy:margin + dy + 5 * h, margin + dx:margin + dx + 5 * w]
    if turned:
        img = cv2.rotate(img, cv2.ROTATE_180)
    hc, wc = h // 8, w // 8
    counts = votes(img)
    cells = counts.astype(np.float32).reshape(5 * hc, 5 * wc, 9)
    hist = cells.reshape(5, hc, 5, wc, 9).transpose(0, 2, 1, 3, 4)
    blocks = np.concatenate([hist[:, :, :-1, :-1], hist[:, :, :-1, 1:], hist[:, :, 1:, :-1],
                             hist[:, :, 1:, 1:]], axis=-1).reshape(5, 5, -1, 36)
    blocks /= np.linalg.norm(blocks, axis=-1, keepdims=True) + 1e-3
    shape = blocks.reshape(25, -1)
    shape /= np.linalg.norm(shape, axis=1, keepdims=True) + 1e-6
    return shape.astype(np.float32)


def test_the_cells_features_in_place_are_the_same_arithmetic(
        shots: list[tuple[np.ndarray, grid.Grid]],
        plain_votes: Callable[[np.ndarray], np.ndarray]) -> None:
    w, h = geometry._cell_size()
    rng = np.random.default_rng(3)
    areas = [rng.integers(0, 256, (5 * h + 8, 5 * w + 8, 3), dtype=np.uint8)]
    # flat patches and hard edges: orientations exactly on a bin's edge, and no gradient
    block = np.full((5 * h + 8, 5 * w + 8, 3), 200, np.uint8)
    block[40:120, 30:90] = 20
    areas.append(block)
    image = staged._develop(shots[0][0])
    corners, white = grid.find_area(image)
    areas.append(grid.rectify(image, corners, (0.1, 0.1), white=white))
    for area in areas:
        for dx, dy, turned in [(0, 0, False), (3, 0, True), (0, -3, False)]:
            features = grid.area_features(area, 4, dx, dy, turned)
            shape = _features_before(area, 4, dx, dy, turned, plain_votes)
            assert np.array_equal(features[:, :shape.shape[1]], shape)


def test_a_cloth_table_drawn_in_its_noise_is_the_table() -> None:
    """The cloth table is written into its noise's buffer: the same pixels as beside it."""
    width, height = 320, 200
    seed = next(s for s in range(50) if _table_kind(s) == 1)
    table = staged._table(width, height, np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    base = np.array([rng.integers(40, 160), rng.integers(60, 170), rng.integers(80, 200)],
                    np.float32)
    rng.integers(0, 3)
    small = rng.standard_normal((height // 4 + 1, width // 4 + 1), dtype=np.float32)
    small *= np.float32(rng.uniform(4, 10))
    noise = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    expected = np.clip(base + noise[..., None], 0, 255).astype(np.uint8)
    assert table.shape == (height, width, 3)
    assert np.array_equal(table, expected)


def _table_kind(seed: int) -> int:
    rng = np.random.default_rng(seed)
    rng.integers(40, 160), rng.integers(60, 170), rng.integers(80, 200)
    return int(rng.integers(0, 3))


def test_free_memory_goes_back_before_each_new_scene_is_drawn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    camera = staged.StagedCamera(Config(), seed=0, width=640, height=360)
    events: list[str] = []
    monkeypatch.setattr(staged, "_give_back", lambda: events.append("give back"))
    render = camera._render

    def drawn(kind: str, what: object) -> np.ndarray:
        events.append(f"draw {kind}")
        return render(kind, what)

    monkeypatch.setattr(camera, "_render", drawn)
    camera.show_order("red-blue-green")
    for _ in range(3):  # a still scene is drawn once
        camera.read("order")
    camera.show_order("blue-green-yellow")
    camera.read("order")
    assert events == ["give back", "draw order", "give back", "draw order"]
