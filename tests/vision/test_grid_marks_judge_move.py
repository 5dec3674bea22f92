"""Robot Master grid: a far registration correction weighed by where the cards' common print lies
(reader._marks_prefer). On seven-segment digits in dark boxes the outlines' boxes can sit on the
digit panels and agree on a lattice a fifth to a quarter of a cell off the cards (third art g2569
g002, g005, g010, g019: corrections of 0.21-0.26 of a cell). Every value's templates fit the dark
box alike there and at the markers' area, so the prints cannot weigh it; read by their marks, the
cards' common print fitted best on their windows' edges (6-13 cards; 0-1 at the markers' area)
and they were asked. The markers' area is taken where the correction puts that many more cards on
the edge."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thirdart.build import as_sent, calibration, grid_truth
from tests.vision.thirdart.scenes import grid_shot
from tests.vision.thirdart.style import make_style
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.calibration import calibrate_dir
from vision.grid import learning, reader
from vision.thresholds import section

SEED = 2569  # seven-segment digits on pastel cards, a pale plank table


@pytest.fixture(scope="module")
def look(tmp_path_factory: pytest.TempPathFactory) -> grid.GridLook:
    folder: Path = tmp_path_factory.mktemp("g2569")
    calibration(folder, make_style(SEED), np.random.default_rng([SEED, 1]))
    # (learnt with the corrections its cards' boxes split kept, as when the case was found:
    # learning._cards_split now drops them, and the reading then takes no such correction)
    with pytest.MonkeyPatch.context() as mp:
        set_thresholds(mp, learning, "grid", calibration_cards_centred=0.0)
        return calibrate_dir(folder, Config()).grid


@pytest.fixture(scope="module")
def picture() -> tuple[np.ndarray, list[int | None]]:
    """The third of a run of grid pictures on that table, as the camera sends it (JPEG): its
    outlines' boxes agree on a lattice a fifth of a cell off the cards."""
    style, rng = make_style(SEED), np.random.default_rng([SEED, 9])
    for _ in range(3):
        shot = grid_shot(style, rng, hard=False)
    return as_sent(shot), grid_truth(shot)


def _read(look: grid.GridLook, image: np.ndarray) -> list[tuple[int | None, float]]:
    obs = reader.read_grid(image, look)
    return [(obs.cells[r][c], obs.confidence[r][c]) for r in range(5) for c in range(5)]


def test_the_cards_are_read_where_they_lie_in_their_windows(
        look: grid.GridLook, picture: tuple[np.ndarray, list[int | None]]) -> None:
    image, truth = picture
    read = _read(look, image)
    assert all(conf > 0 for _, conf in read)
    assert [value for value, _ in read] == truth


def test_without_it_the_cards_past_their_windows_are_asked(
        look: grid.GridLook, picture: tuple[np.ndarray, list[int | None]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = dict(section("grid"))
    monkeypatch.setattr(reader, "section", lambda name: {**real, "marks_judge_move": False}
                        if name == "grid" else section(name))
    image, truth = picture
    read = _read(look, image)
    asked = [i for i, (_, conf) in enumerate(read) if conf == 0]
    assert len(asked) >= 4
    # nothing is read wrong either way: the cards past their windows are asked
    assert all(value == truth[i] for i, (value, conf) in enumerate(read) if conf > 0)
