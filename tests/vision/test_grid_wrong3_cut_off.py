"""Robot Master grid: cards are laid edge to edge, so the cards read must form one group; where
they fall in two, the empty readings touching the smaller group are asked, not given.

Own art h10806 g035 (hard): an arm the table's colour lay along row 1 over four cards, which
were read as empty cells at 1.00; the cards above and below, only grazed by its edges, were read,
so no declined cell was left for the "beside a declined cell" rule to start from."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from tests.vision.grid_area import board
from vision.grid import groups


def _board(rows: list[str]) -> tuple[list[int | None], list[float]]:
    return board(rows, read=1.0)


def _asked(rows: list[str]) -> set[tuple[int, int]]:
    values, confs = _board(rows)
    return {divmod(i, 5) for i in groups._cut_off(values, confs)}


def test_an_arm_over_a_row_of_cards_is_asked() -> None:
    # h10806 g035 as main read it: row 1 held 4, 0, 4, 1 under the arm
    asked = _asked(["..223",
                    ".....",
                    "12350",
                    ".3543",
                    "03403"])
    assert {(1, 2), (1, 3), (1, 4)} <= asked
    # only empty readings are asked; the cards read stay read
    assert all(rc[0] in (0, 1) or rc == (3, 0) for rc in asked)
    assert not {(0, 2), (0, 3), (0, 4), (2, 2)} & asked


def test_then_the_empty_cells_beside_them_are_asked_too() -> None:
    values, confs = _board(["..223", ".....", "12350", ".3543", "03403"])
    for i in groups._cut_off(values, confs):
        confs[i] = 0.0
    asked = {divmod(i, 5) for i in groups._beside_unread(values, confs, 1)}
    assert {(1, 0), (1, 1)} <= asked


def test_one_group_of_cards_asks_nothing() -> None:
    # cards touching edge to edge, however they wind: nothing to ask
    assert _asked(["1....",
                   "2.345",
                   "2.3.5",
                   "233.5",
                   "....."]) == set()
    assert _asked([".....", ".....", "..3..", ".....", "....."]) == set()
    assert _asked([".....", ".....", ".....", ".....", "....."]) == set()


def test_a_declined_cell_may_hold_the_card_that_joins_them() -> None:
    assert _asked(["..223",
                   "....?",
                   "12350",
                   ".3543",
                   "03403"]) == set()


def test_declined_cells_alone_make_no_group() -> None:
    assert _asked(["?....",
                   ".....",
                   "..3..",
                   ".....",
                   "....?"]) == set()


def test_cards_touching_only_at_a_corner_are_two_groups() -> None:
    # a card goes edge to edge with one already down: a corner is not enough. Two groups
    # alike: the empty readings touching either are asked
    assert _asked(["1....",
                   ".2...",
                   ".....",
                   ".....",
                   "....."]) == {(0, 1), (1, 0), (1, 2), (2, 1)}
