"""Robot Master grid calibration: a calibration picture whose cards' lattice the two side bands
of the outline search place apart is cut where the markers put it
(:func:`vision.grid.registration.register_calibration`).

Own art 10202's calibration picture 2 (cards with a thin pale frame beside a mat's printed
lines) settled 0.30 of a cell off at ``register_band`` 3 and 0.08 at 2; cut at band 3's area,
its 3s and 5s made the 3's templates fit a centred 5 better than the 5's, and a clean 5 was read
as 3 (0.22). The boxes here are replayed, one set per band, through the real passes.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.grid import geometry, registration
from vision.grid import outlines as outlines_module

IMAGE = np.zeros((720, 1280, 3), np.uint8)  # no print, no outline: the hold tests find none
PLACE = np.array([[1.0, 0.0, -500.0], [0.0, 1.0, -150.0], [0.0, 0.0, 1.0]])  # image -> area
CARDS = [i for i in range(25) if i not in (0, 7, 13, 21)]


def _boxes_by_band(monkeypatch: pytest.MonkeyPatch, shift: dict[int, float]) -> None:
    """card_outlines finding a card in every cell of ``CARDS``, at ``shift[band]`` of a cell
    right of its cell's middle at ``PLACE`` (fixed in the picture, wherever a pass looks from),
    the band being the one the search sums each side over."""
    w, h = geometry._cell_size()
    middles = np.array([((i % 5 + 0.5) * w, (i // 5 + 0.5) * h) for i in range(25)], np.float64)
    strength = np.array([200.0 if i in CARDS else 0.0 for i in range(25)])

    def outlines(image: np.ndarray, place: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
        band = outlines_module._band[-1] if outlines_module._band else 3
        in_image = middles + np.array([shift[band] * w, 0.0]) - PLACE[:2, 2]
        pts = np.c_[in_image, np.ones(25)] @ place.T
        return pts[:, :2] / pts[:, 2:], strength.copy(), (36, 56)

    monkeypatch.setattr(registration, "card_outlines", outlines)


def test_bands_a_third_of_a_cell_apart_keep_the_markers_area(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _boxes_by_band(monkeypatch, {3: 0.3, 2: 0.0})
    out, confirmed, astray = registration.register_checked(IMAGE, PLACE)
    assert confirmed and not astray
    assert registration._move(PLACE, out) > 0.25  # reading follows band 3
    assert np.allclose(registration.register_calibration(IMAGE, PLACE), PLACE)


def test_bands_that_agree_keep_the_correction(monkeypatch: pytest.MonkeyPatch) -> None:
    _boxes_by_band(monkeypatch, {3: 0.2, 2: 0.16})
    out, confirmed, _ = registration.register_checked(IMAGE, PLACE)
    assert confirmed and registration._move(PLACE, out) > 0.15
    assert np.allclose(registration.register_calibration(IMAGE, PLACE), out)


def test_band_two_astray_leaves_band_three(monkeypatch: pytest.MonkeyPatch) -> None:
    # a mat's lines lead band 2 astray (more than register_max_move off): band 3 stands
    _boxes_by_band(monkeypatch, {3: 0.2, 2: 0.7})
    out, confirmed, astray = registration.register_checked(IMAGE, PLACE)
    assert confirmed and not astray
    assert np.allclose(registration.register_calibration(IMAGE, PLACE), out)
    assert registration._move(PLACE, out) > 0.15


@pytest.mark.slow  # learns on one rendered picture: a few seconds
def test_calibration_cuts_its_cards_where_register_calibration_puts_the_area(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """learn asks :func:`register_calibration` (not the reading's registration) once per
    picture, and cuts the cards where it puts the area."""
    from companion.config import Config
    from vision import grid, staged
    from vision.grid import learning
    from vision.synth import random_grid
    from vision.synth.scenes import Style

    config = Config()
    style = Style.random(np.random.default_rng(4), config.game.display)
    rng = np.random.default_rng(7)
    cells = random_grid(rng, cards=17)
    image = staged._develop(staged.render_grid(style, cells, rng, 1280, 720, compressed=True))
    asked: list[int] = []
    real = learning.register_calibration

    def spy(picture: np.ndarray, place: np.ndarray) -> np.ndarray:
        asked.append(1)
        return real(picture, place)

    monkeypatch.setattr(learning, "register_calibration", spy)
    first = grid.learn([(image, cells)])
    assert asked == [1] and first.learnt

    # an area half a cell off (as one band's lattice that followed lines would put it) is
    # where the cards are cut: the examples learnt change with it
    w, _ = geometry._cell_size()

    def off(picture: np.ndarray, place: np.ndarray) -> np.ndarray:
        shift = np.array([[1.0, 0.0, 0.5 * w], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
        return np.asarray(shift @ real(picture, place))

    monkeypatch.setattr(learning, "register_calibration", off)
    assert not np.array_equal(grid.learn([(image, cells)]).features, first.features)
