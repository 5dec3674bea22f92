"""Robot Master grid, prints judge round: a correction registration took that moves the area
farther than ``prints_judge_move`` is dropped for the markers' area when the values' prints fit
the cards clearly better there (:func:`vision.grid.reader._prints_prefer`).

Other art 18016 (blind gate 13): pale cards with an inner frame and rows of pips on a printed
mat; the outline boxes, each across the lower half of one card and the upper half of the next,
agreed on a lattice 0.36-0.39 of a cell up and the passes confirmed it. Every card's lower
print was cut there (five grids declined, three read wrong before the own-edge round); at the
markers' area all five read exactly. Here registration is made to return such a correction
directly, so only the new rule decides.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.calibration import Calibration
from vision.grid import Grid, GridLook, reader
from vision.grid.area import _area_homography
from vision.grid.geometry import _cell_size


def _moved(share: float) -> Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, bool, bool]]:
    """A stand-in for ``register_checked`` that confirms a correction moving the area
    ``share`` of a cell down (cards then lie that far up in their cells)."""
    _, h = _cell_size()

    def register_checked(image: np.ndarray, place: np.ndarray
                         ) -> tuple[np.ndarray, bool, bool]:
        return np.array([[1.0, 0, 0], [0, 1.0, share * h], [0, 0, 1.0]]) @ place, True, False

    return register_checked


def _markers_off(share: float) -> Callable[..., np.ndarray]:
    """A stand-in for ``_area_homography`` that puts the markers' area ``share`` of a cell
    down off the cards."""
    _, h = _cell_size()

    def markers_off(corners: np.ndarray, inset: tuple[float, float], margin: int,
                    place: np.ndarray | None = None) -> np.ndarray:
        return np.asarray(np.array([[1.0, 0, 0], [0, 1.0, share * h], [0, 0, 1.0]])
                          @ _area_homography(corners, inset, margin, place))

    return markers_off


def _exact(image: np.ndarray, labels: Grid, calibration: Calibration) -> bool:
    """Whether the picture reads exactly: every cell its label, none declined."""
    obs, _ = reader.read_grid_region(image, calibration.grid)
    return [list(row) for row in obs.cells] == labels \
        and min(min(row) for row in obs.confidence) > 0


@pytest.mark.parametrize("share", [0.38, -0.38])
def test_far_correction_cutting_the_prints_gives_way(
        monkeypatch: pytest.MonkeyPatch, calibration: Calibration,
        own_grids: list[tuple[np.ndarray, Grid]], share: float) -> None:
    """A correction 0.38 of a cell off (either way) cuts the cards' prints: the markers' area,
    where they fit whole, is read, and every grid reads exactly (on the starting main each was
    declined nearly whole, and one cell read wrong)."""
    monkeypatch.setattr(reader, "register_checked", _moved(share))
    for image, labels in own_grids:
        assert _exact(image, labels, calibration)


def test_right_correction_is_kept(monkeypatch: pytest.MonkeyPatch,
                                  calibration: Calibration,
                                  own_grids: list[tuple[np.ndarray, Grid]]) -> None:
    """Where the markers' area is the one 0.38 of a cell off and registration's correction
    brings the cards back to their cells, the prints fit better in the corrected area: it is
    kept (the markers' area is not weighed back in)."""
    # the markers' area moved 0.38 of a cell off the cards
    monkeypatch.setattr(reader, "_area_homography", _markers_off(0.38))
    # registration's correction: back onto the cards
    monkeypatch.setattr(reader, "register_checked", _moved(-0.38))
    for image, labels in own_grids:
        assert _exact(image, labels, calibration)


def test_near_correction_is_not_weighed(monkeypatch: pytest.MonkeyPatch,
                                        calibration: Calibration,
                                        own_grids: list[tuple[np.ndarray, Grid]]) -> None:
    """A correction moving the area no farther than ``prints_judge_move`` is taken as
    registration gave it: the prints are not asked (no extra warp)."""
    asked: list[int] = []

    def counted(look: GridLook, a: np.ndarray, b: np.ndarray) -> bool:
        asked.append(1)
        return True

    monkeypatch.setattr(reader, "_prints_prefer", counted)
    monkeypatch.setattr(reader, "register_checked", _moved(0.18))
    image, _ = own_grids[0]
    reader.read_grid_region(image, calibration.grid)
    assert not asked


def _astray(image: np.ndarray, place: np.ndarray) -> tuple[np.ndarray, bool, bool]:
    """A stand-in for ``register_checked``: the cards' outlines said astray (the markers'
    area kept, every cell asked)."""
    return place, False, True


def test_astray_where_the_prints_hold_is_read(monkeypatch: pytest.MonkeyPatch,
                                              calibration: Calibration,
                                              own_grids: list[tuple[np.ndarray, Grid]]) -> None:
    """The outlines said astray, but at the markers' area every print is whole and no area a
    quarter or half a cell over fits them better: the picture is read cell by cell, exactly
    (on the starting main every cell was asked)."""
    monkeypatch.setattr(reader, "register_checked", _astray)
    for image, labels in own_grids:
        assert _exact(image, labels, calibration)


def test_astray_with_cards_half_a_cell_off_stays_asked(
        monkeypatch: pytest.MonkeyPatch, calibration: Calibration,
        own_grids: list[tuple[np.ndarray, Grid]]) -> None:
    """The markers' area half a cell off the cards (other art 9201's kind: a card half out of
    its cell may read as an empty cell): the prints fit better half a cell over, so the
    picture stays astray and every cell is asked."""
    monkeypatch.setattr(reader, "_area_homography", _markers_off(0.5))
    monkeypatch.setattr(reader, "register_checked", _astray)
    for image, _ in own_grids:
        obs, _ = reader.read_grid_region(image, calibration.grid)
        assert max(max(row) for row in obs.confidence) == 0.0
