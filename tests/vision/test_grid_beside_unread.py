"""An empty reading next to a cell the reader declined is asked, not given.

A hand or sleeve the table's colour over a card passes every test of a bare cell (held-out other
art h10372: tan skin on pine, confidence 1.00), while the card it only half covers is declined.
"""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from tests.vision.grid_area import board
from vision.grid import groups
from vision.thresholds import section


def _board(rows: list[str]) -> tuple[list[int | None], list[float]]:
    return board(rows, read=0.9)


def _asked(rows: list[str], reach: int = 1) -> set[tuple[int, int]]:
    values, confs = _board(rows)
    return {divmod(i, 5) for i in groups._beside_unread(values, confs, reach)}


def test_held_out_hand_over_two_cards_is_asked() -> None:
    # other art h10372 g015 as main read it: (2, 1) and (2, 2) held a 5 and a 1 under the hand
    # and were read empty; (2, 0), a 2 the hand's edge cut, was declined
    asked = _asked([".....",
                    ".02..",
                    "?....",
                    "?4...",
                    "....."])
    assert {(2, 1), (2, 2)} <= asked
    assert not {(1, 1), (1, 2), (3, 1)} & asked  # values read stay read


def test_diagonal_neighbour_counts() -> None:
    assert _asked(["12345",
                   "1?345",
                   "12.45",
                   "12345",
                   "12345"]) == {(2, 2)}


def test_spreads_only_through_empty_cells() -> None:
    # the empty cell two columns off, behind a card read, is not beside anything unread
    assert _asked(["?1.11",
                   "11111",
                   "11111",
                   "11111",
                   "11111"]) == set()


def test_nothing_declined_nothing_asked() -> None:
    assert _asked([".1.1.",
                   ".....",
                   "2.3.4",
                   ".....",
                   "5...."]) == set()


def test_reach_zero_turns_it_off() -> None:
    assert _asked(["?....", ".....", ".....", ".....", "....."], reach=0) == set()


def test_reach_is_in_the_thresholds_file() -> None:
    assert int(section("grid")["unread_reach"]) == 1
