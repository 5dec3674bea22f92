"""Hard own art 45021, the two grid pictures read wrong from the twelfth session to the
twenty-second: pip cards, drawn in the test pictures larger than in calibration.

- g008: two sharp 5s read as 4, the 4's template fitting better than the 5's own (the middle
  witness, :mod:`vision.grid.middle`).
- g002: a 5 whose middle pip lies under a finger of the hand beside it, read as 4 (asked beside
  the hand, :func:`vision.grid.groups._beside_hand`).
"""

from __future__ import annotations

import pytest

from companion.config import Config
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.calibration import calibrate
from vision.dataset import Example, load_labelled
from vision.grid import middle, reader
from vision.synth import write_dataset


@pytest.fixture(scope="module")
def hown45021(tmp_path_factory: pytest.TempPathFactory) -> tuple[grid.GridLook, dict[str, Example]]:
    """The set's calibration, learnt, and its first nine test pictures (the set's random stream
    draws them alike whatever the set's length); g002, g005 and g008 are grids."""
    out = tmp_path_factory.mktemp("hown45021")
    config = Config()
    write_dataset(out, config, n=9, hard=True, seed=45021)
    look = calibrate(load_labelled(out / "calibration", config), config).grid
    return look, {ex.name: ex for ex in load_labelled(out / "test", config)}


def _wrong(look: grid.GridLook, example: Example) -> list[tuple[int, int]]:
    """The cells of ``example`` read, and read otherwise than labelled."""
    obs = grid.read_grid(example.image, look)
    return [(r, c) for r in range(5) for c in range(5)
            if obs.confidence[r][c] > 0 and obs.cells[r][c] != example.grid[r][c]]


def test_g008s_5s_are_not_read_as_4(hown45021: tuple[grid.GridLook, dict[str, Example]],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    look, shots = hown45021
    assert _wrong(look, shots["g008.png"]) == []
    # (and without the middle witness, as before: the two 5s read as 4)
    set_thresholds(monkeypatch, middle, "grid", middle_witness=False)
    assert _wrong(look, shots["g008.png"]) == [(3, 3), (4, 4)]


def test_g002s_5_under_a_finger_is_not_read_as_4(
        hown45021: tuple[grid.GridLook, dict[str, Example]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    look, shots = hown45021
    assert _wrong(look, shots["g002.png"]) == []
    # (and without asking beside the hand, as before)
    set_thresholds(monkeypatch, reader, "grid", hand_asks_beside=False)
    assert _wrong(look, shots["g002.png"]) == [(1, 3)]


def test_g005_is_read_with_no_card_wrong(
        hown45021: tuple[grid.GridLook, dict[str, Example]]) -> None:
    look, shots = hown45021
    assert _wrong(look, shots["g005.png"]) == []
