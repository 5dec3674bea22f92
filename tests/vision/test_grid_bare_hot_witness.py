"""Robot Master grid: bare cells in a lamp's hot spot that the nearest calibration example gave
no word on (third art g2575 g005, g015, g2571 g002). The hot spot's light moves a cell's features
about as far from every empty example calibration saw as from every card (0.79-0.88 against
0.85-0.96), short of the lead an empty reading asks, and the whole grid was asked. Such a cell,
already shaded by the hot-spot rule (empty._hot_shades), is bare when it is not nearer the cards,
not nearer something foreign around the area than to any example, and the whole cell shows no
edge a card brings (reader._hot_bare, empty.cell_edges)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_grid_empty_table_shades import _plain
from vision import grid
from vision.grid import reader
from vision.thresholds import section

HOT = (189, 255, 255)  # the wood (110, 159, 199) under a lamp, balanced: 1.72 times its blue


def _lit_table(seed: int) -> np.ndarray:
    """A bare cell in the hot spot: the lit wood with its grain and the lamp's slow fall-off
    across the cell (blue 180 to 200; green and red clipped)."""
    cell = _plain(HOT, seed).astype(np.float32)
    cell[..., 0] = np.linspace(180.0, 200.0, cell.shape[1])[None, :] + cell[..., 0] - HOT[0]
    return np.asarray(np.clip(cell, 0, 255).astype(np.uint8))


def _card_in_the_hot_spot(seed: int) -> np.ndarray:
    """A white card, its middle blank, laid in the hot spot: the card clips white; the lit wood
    shows round it; a corner numeral in dark red."""
    cell = _lit_table(seed)
    cell[3:61, 3:45] = 255
    cell[7:17, 7:13] = (40, 30, 150)
    return cell


def _off(monkeypatch: pytest.MonkeyPatch, **change: object) -> None:
    real = dict(section("grid"))
    monkeypatch.setattr(reader, "section",
                        lambda name: {**real, **change} if name == "grid" else section(name))


def test_the_bare_lit_table_shows_no_edge_a_card_does() -> None:
    limit = float(section("grid")["hot_bare_edges"])
    bare = [grid.empty.cell_edges(_lit_table(k)) for k in range(4)]
    cards = [grid.empty.cell_edges(_card_in_the_hot_spot(k)) for k in range(4)]
    assert max(bare) <= limit < min(cards)


LOOK = grid.GridLook(features=np.array([[0.0, 0.0], [1.0, 0.0]], np.float32))


def test_a_plain_lit_cell_is_bare_by_the_second_witness() -> None:
    feats = np.array([0.5, 0.6], np.float32)  # 0.78 from either example: no word from them
    assert reader._hot_bare(LOOK, feats, _lit_table(1), False, None)
    # something foreign over the table around, farther than the examples: no matter
    assert reader._hot_bare(LOOK, feats, _lit_table(1), False,
                            np.array([[3.0, 3.0]], np.float32))


def test_a_card_nearer_the_cards_a_hand_or_a_cards_edges_are_not() -> None:
    feats = np.array([0.5, 0.6], np.float32)
    # nearer the calibration's cards than its empty cells
    assert not reader._hot_bare(LOOK, feats, _lit_table(2), True, None)
    # nearer a foreign patch around the area (a hand reaching in) than to any example
    assert not reader._hot_bare(LOOK, feats, _lit_table(2), False,
                                np.array([[0.5, 0.5]], np.float32))
    # a card's outline and numeral in the cell
    assert not reader._hot_bare(LOOK, feats, _card_in_the_hot_spot(2), False, None)


def test_without_the_rule_nothing_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    _off(monkeypatch, hot_bare_witness=False)
    assert not reader._hot_bare(LOOK, np.array([0.5, 0.6], np.float32), _lit_table(3), False,
                                None)
