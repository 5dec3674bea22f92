"""Robot Master grid: a table with a lattice of its own and only a few cards on the area (third art
g2584 g004: one card on a checked cloth). The squares give a box on every cell, those agree on a
lattice a little off the markers' area, and the picture was said astray: every cell asked. With
four cards or more the printed boxes fit the cards' own lattice; with fewer nothing can. A
picture of one to three cards, each read and each with its box at its cell's middle where the
markers put it, is read there (reader._few_cards_hold)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thirdart.build import as_sent, calibration, grid_truth
from tests.vision.thirdart.scenes import Shot, grid_shot
from tests.vision.thirdart.style import make_style
from vision import grid
from vision.calibration import calibrate_dir
from vision.grid import reader
from vision.thresholds import section

SEED = 2584  # a red and white checked cloth, pale cards with a robot and corner numerals


@pytest.fixture(scope="module")
def look(tmp_path_factory: pytest.TempPathFactory) -> grid.GridLook:
    folder: Path = tmp_path_factory.mktemp("g2584")
    calibration(folder, make_style(SEED), np.random.default_rng([SEED, 1]))
    return calibrate_dir(folder, Config()).grid


def _shots() -> list[tuple[np.ndarray, Shot]]:
    """Five pictures of one, two or three cards on the cloth, as the camera sends them (JPEG)."""
    style, rng = make_style(SEED), np.random.default_rng([SEED, 9])
    out = []
    for k in range(5):
        shot = grid_shot(style, rng, hard=False, count=1 + k % 3)
        out.append((as_sent(shot), shot))
    return out


def _read(look: grid.GridLook, image: np.ndarray) -> list[tuple[int | None, float]]:
    obs = reader.read_grid(image, look)
    return [(obs.cells[r][c], obs.confidence[r][c]) for r in range(5) for c in range(5)]


def _off(monkeypatch: pytest.MonkeyPatch) -> None:
    real = dict(section("grid"))
    monkeypatch.setattr(reader, "section", lambda name: {**real, "astray_few_cards_hold": False}
                        if name == "grid" else section(name))


def test_two_cards_on_the_cloth_are_read_where_the_markers_put_them(
        look: grid.GridLook) -> None:
    image, shot = _shots()[4]
    truth = grid_truth(shot)
    assert sum(v is not None for v in truth) == 2
    read = _read(look, image)
    assert all(conf > 0 for _, conf in read)
    assert [value for value, _ in read] == truth


def test_without_it_the_picture_is_asked_whole(look: grid.GridLook,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    image, _ = _shots()[4]
    _off(monkeypatch)
    assert all(conf == 0 for _, conf in _read(look, image))


def test_a_card_off_its_cells_middle_keeps_the_picture_astray(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the card read in cell 12, its box a fifth of a cell right of the middle
    w, h = grid.geometry._cell_size()
    centres = np.array([((i % 5 + 0.5) * w, (i // 5 + 0.5) * h) for i in range(25)], np.float64)
    strength = np.full(25, 50.0)
    monkeypatch.setattr(reader, "card_outlines", lambda image, place: (centres, strength, (w, h)))
    values: list[int | None] = [None] * 25
    confs = [1.0] * 25
    values[12], confs[12] = 3, 0.6
    place = np.eye(3)
    assert reader._few_cards_hold(np.zeros((8, 8, 3), np.uint8), place, values, confs)
    centres[12, 0] += 0.2 * w
    assert not reader._few_cards_hold(np.zeros((8, 8, 3), np.uint8), place, values, confs)
    # ... and four cards are the printed boxes' to judge, not this rule's
    centres[12, 0] -= 0.2 * w
    for i in (6, 7, 8):
        values[i], confs[i] = 2, 0.5
    assert not reader._few_cards_hold(np.zeros((8, 8, 3), np.uint8), place, values, confs)
