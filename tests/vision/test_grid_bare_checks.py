"""Robot Master grid: bare cells on a checked cloth (vision/grid/checks.py). No colour covers
more than half of any patch of such a cloth, so the one-colour test declined every bare cell
and every grid with one (third art d2302: red and cream checks; g2501: navy and cream). A bare
cell shows the cloth's two tones in the share its patches around the area do; a card, a hand,
or a plain table does not pass."""

from __future__ import annotations

import cv2
import numpy as np

from vision.grid import checks
from vision.grid.empty import learn_bare

RED = (62, 60, 150)  # the cloth's two tones, white-balanced (BGR)
CREAM = (214, 224, 228)
NAVY = (96, 76, 64)
SKIN = (90, 120, 170)


def _checked(seed: int, size: float = 9.0, tones: tuple[tuple[int, int, int], ...] = (RED, CREAM),
             shade: float = 1.0) -> np.ndarray:
    """A cell-sized (48x64) patch of checks ``size`` pixels wide, at a random phase, softened
    and noisy as a camera sees them, its light ``shade`` (a lamp's fall-off)."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:64, 0:48].astype(np.float32)
    ox, oy = rng.uniform(0, 2 * size, 2)
    chk = ((np.floor((xx + ox) / size) + np.floor((yy + oy) / size)) % 2)[..., None]
    patch = chk * np.array(tones[0], np.float32) + (1 - chk) * np.array(tones[1], np.float32)
    patch = cv2.GaussianBlur(patch, (0, 0), 0.8) * shade + rng.normal(0.0, 2.0, patch.shape)
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _card(paper: tuple[int, int, int], ink: tuple[int, int, int], seed: int) -> np.ndarray:
    """A card filling the cell: its paper, a numeral and a robot in ``ink``."""
    rng = np.random.default_rng(seed)
    card = np.full((64, 48, 3), paper, np.uint8)
    cv2.putText(card, "4", (14, 44), cv2.FONT_HERSHEY_SIMPLEX, 1.1, ink, 3, cv2.LINE_AA)
    cv2.rectangle(card, (4, 4), (12, 14), ink, -1)
    noisy = card.astype(np.float32) + rng.normal(0.0, 2.0, card.shape)
    return np.asarray(np.clip(noisy, 0, 255).astype(np.uint8))


def _table(tones: tuple[tuple[int, int, int], ...] = (RED, CREAM), size: float = 9.0
           ) -> list[np.ndarray]:
    # the far side of the table a little dimmer than the near side
    return [_checked(100 + k, size, tones, 0.9 + 0.01 * k) for k in range(20)]


def test_bare_cells_on_checks_are_bare_and_cards_and_hands_are_not() -> None:
    bare = [_checked(k, shade=0.92 + 0.01 * k) for k in range(6)]
    others = [
        _card(CREAM, (40, 40, 40), 1),  # cream paper like the light checks, a dark print
        _card(RED, CREAM, 2),  # red paper like the dark checks, a cream print
        _card((200, 230, 210), (70, 70, 150), 3),  # pastel paper, a print the checks' red
        _checked(4, tones=(SKIN, CREAM)),  # a hand over the checks
        np.full((64, 48, 3), SKIN, np.uint8),
    ]
    cells = bare + others
    found = checks.patterned_bare(cells, list(range(len(cells))), _table())
    assert set(found) == set(range(len(bare)))
    assert all(0.5 <= c <= 1.0 for c in found.values())


def test_navy_checks_too() -> None:
    table = _table((NAVY, CREAM), size=7.0)
    cells = [_checked(k, 7.0, (NAVY, CREAM)) for k in range(4)] \
        + [_card(CREAM, NAVY, 5), _card(NAVY, CREAM, 6)]
    assert set(checks.patterned_bare(cells, list(range(6)), table)) == {0, 1, 2, 3}


def test_only_on_a_table_of_two_tones_finer_than_a_cell() -> None:
    plain = [np.full((64, 48, 3), CREAM, np.uint8) for _ in range(20)]
    assert checks.patterned_bare(plain, [0, 1], plain) == {}
    # checks larger than a cell: many patches of one tone (the one-colour test's case)
    large = _table(size=80.0)
    assert checks.patterned_bare(large, [0, 1, 2], large) == {}


def test_calibration_takes_a_checked_cloth_for_the_table_not_a_mat() -> None:
    cells = [[_checked(k + 10 * p) for k in range(5)] for p in range(3)]
    tables = [_table() for _ in range(3)]
    assert learn_bare(cells, tables)[0] == "table"
